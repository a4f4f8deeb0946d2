/* Internal: network by domain's proxy (proxy.c), run by the session's
 * supervisor, outside the sandbox, on 127.0.0.1 and an ephemeral port.
 *
 * It takes HTTP CONNECT, plain HTTP (absolute-form requests, whose Host
 * header must name the URL's host) and SOCKS5 (CONNECT; a name, ATYP 3, or
 * a listed IPv4 literal). It judges the name against the policy's domain
 * rules before anything is resolved, resolves only allowed names, refuses
 * loopback, link-local, unspecified and multicast destinations (and
 * itself), and for a CONNECT tunnel that starts with a TLS ClientHello,
 * an SNI other than the CONNECT host. Then it relays, by splice through a
 * pipe per direction. The supervisor (supervisor.c) lets the session's
 * connects reach this address and nothing else. */
#ifndef CORDON_PROXY_H
#define CORDON_PROXY_H

#include <netinet/in.h>
#include <stdbool.h>

#include "cordon/error.h"
#include "cordon/policy.h"

/* Start the proxy for P's domain rules (copied): a thread of this process
 * for as long as it lives. Refused hosts are said once each on stderr and
 * recorded on LEARN_FD ("n\tHOST\n"; -1: not recorded). *ADDR: where it
 * listens. 0 or -errno with ERR. */
int cordon_proxy_start(const struct cordon_policy *p, int learn_fd, struct sockaddr_in *addr,
		       struct cordon_error *err);

/* The environment entries that point clients at ADDR (HTTP_PROXY,
 * HTTPS_PROXY, ALL_PROXY, their lower-case forms, NO_PROXY for loopback):
 * a NULL-terminated static array, valid until the next call. */
const char *const *cordon_proxy_env(const struct sockaddr_in *addr);

/* Whether NAME=... is one of the variables cordon_proxy_env sets. */
bool cordon_proxy_env_name(const char *entry);

/* The SNI host name in a TLS record (BUF, LEN: the bytes received so far,
 * from the record's first byte) into OUT (a C string of at most OUT_SIZE -
 * 1 bytes). 1 found, 0 a whole ClientHello without SNI, -EAGAIN more bytes
 * are needed, -EINVAL not a ClientHello or malformed. Exposed for tests. */
int cordon_tls_sni(const unsigned char *buf, size_t len, char *out, size_t out_size);

#endif
