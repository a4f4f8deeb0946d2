/* Internal: network by domain's proxy (proxy.c), run outside the sandbox
 * on 127.0.0.1 and an ephemeral port: on Linux by the session's supervisor
 * (the launcher), on macOS by the session's watcher.
 *
 * It takes HTTP CONNECT, plain HTTP (absolute-form requests, whose Host
 * header must name the URL's host) and SOCKS5 (CONNECT; a name, ATYP 3, or
 * a listed IPv4 literal). It judges the name against the policy's domain
 * rules before anything is resolved, resolves only allowed names, refuses
 * loopback, link-local, unspecified and multicast destinations (and
 * itself), and for a CONNECT tunnel that starts with a TLS ClientHello,
 * an SNI other than the CONNECT host. Then it relays: by splice through a
 * pipe per direction on Linux (linux/proxy-splice.c), by read and write
 * through a buffer per direction elsewhere (proxy-relay.c; on Linux too in
 * a CORDON_PROXY_PORTABLE build). On Linux the supervisor (supervisor.c)
 * lets the session's connects reach this address and nothing else; on
 * macOS the Seatbelt profile does (sbpl.c, policy->proxy_port). */
#ifndef CORDON_PROXY_H
#define CORDON_PROXY_H

#include <netinet/in.h>
#include <stdbool.h>
#include <stddef.h>

#include "cordon/error.h"
#include "cordon/policy.h"

/* Start the proxy for P's domain rules (copied): a thread of this process
 * for as long as it lives. Refused hosts are said once each on stderr and
 * recorded on LEARN_FD ("n\tHOST\n"; -1: not recorded). *ADDR: where it
 * listens. 0 or -errno with ERR. cordon_proxy_listen, then
 * cordon_proxy_serve. */
int cordon_proxy_start(const struct cordon_policy *p, int learn_fd, struct sockaddr_in *addr,
		       struct cordon_error *err);

/* The first half, for a process that forks between the two (macOS: the
 * launcher listens, then forks the watcher, which serves): P's rules
 * copied, the test-only name map read, the listening socket made
 * (close-on-exec) and *ADDR filled. Nothing is answered before
 * cordon_proxy_serve. Once per process. 0 or -errno with ERR. */
int cordon_proxy_listen(const struct cordon_policy *p, int learn_fd, struct sockaddr_in *addr,
			struct cordon_error *err);

/* The second half: serve on that socket from a thread of this process, for
 * as long as it lives. 0 or -errno with ERR. */
int cordon_proxy_serve(struct cordon_error *err);

/* Close that socket in a process that will not serve it (the launcher,
 * once its watcher does). */
void cordon_proxy_close(void);

/* The environment entries that point clients at ADDR (HTTP_PROXY,
 * HTTPS_PROXY, ALL_PROXY, their lower-case forms, NO_PROXY for loopback):
 * a NULL-terminated static array, valid until the next call. */
const char *const *cordon_proxy_env(const struct sockaddr_in *addr);

/* Whether NAME=... is one of the variables cordon_proxy_env sets. */
bool cordon_proxy_env_name(const char *entry);

/* ENVP with the entries of cordon_proxy_env(ADDR) in place of any of those
 * variables it had (ADDR NULL: ENVP as it is): a malloc'd, NULL-terminated
 * array of pointers into ENVP and into cordon_proxy_env's static array
 * (valid until its next call), with room for SPARE more entries after the
 * last (every slot after it is NULL). NULL when out of memory. */
char **cordon_proxy_environ(char *const *envp, const struct sockaddr_in *addr, size_t spare);

/* The SNI host name in a TLS record (BUF, LEN: the bytes received so far,
 * from the record's first byte) into OUT (a C string of at most OUT_SIZE -
 * 1 bytes). 1 found, 0 a whole ClientHello without SNI, -EAGAIN more bytes
 * are needed, -EINVAL not a ClientHello or malformed. Exposed for tests. */
int cordon_tls_sni(const unsigned char *buf, size_t len, char *out, size_t out_size);

/* ---- between proxy.c and the relay the build picks ------------------------- */

/* Relay between CLIENT and UPSTREAM (connected, blocking, close-on-exec;
 * made non-blocking here) until both directions are done or one fails:
 * each end's EOF is passed on as a shutdown of the other's writing side.
 * Closes neither. */
void cordon_proxy_relay(int client, int upstream);

/* Which relay this build has: "splice" or "poll" (tests check it). */
extern const char cordon_proxy_relay_kind[];

#endif
