/* Seatbelt profile generation (see cordon/sbpl.h). Portable: no macOS API. */
#include "cordon/sbpl.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cordon/strv.h"
#include "redact.h"

struct buf {
	char *s;
	size_t len, cap;
	bool oom;
};

__attribute__((format(printf, 2, 3))) static void put(struct buf *b, const char *fmt, ...)
{
	if (b->oom)
		return;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	if (n < 0) {
		b->oom = true;
		return;
	}
	if (!cordon_reserve(&b->s, &b->cap, b->len + (size_t)n + 1, 1024)) {
		b->oom = true;
		return;
	}
	va_start(ap, fmt);
	(void)vsnprintf(b->s + b->len, b->cap - b->len, fmt, ap);
	va_end(ap);
	b->len += (size_t)n;
}

char *cordon_sbpl_canonical(const char *path)
{
	static const char *const linked[] = {"/tmp", "/var", "/etc"};
	for (size_t i = 0; i < sizeof(linked) / sizeof(linked[0]); i++) {
		size_t n = strlen(linked[i]);
		if (strncmp(path, linked[i], n) == 0 && (path[n] == '\0' || path[n] == '/')) {
			char *out;
			if (asprintf(&out, "/private%s", path) < 0)
				return NULL;
			return out;
		}
	}
	return strdup(path);
}

/* Add a parameter for VALUE (canonicalised) and return its name's index,
 * or -1 when out of memory. */
static int add_param(struct cordon_strv *params, const char *value)
{
	char *canon = cordon_sbpl_canonical(value);
	char name[32];
	snprintf(name, sizeof(name), "P%zu", params->n / 2);
	if (!canon || cordon_strv_push(params, name) < 0 ||
	    cordon_strv_push_take(params, canon) < 0)
		return -1;
	return (int)(params->n / 2 - 1);
}

/* Services a shell and its tools need under (deny default): name lookups,
 * the system log, notifications, directory services, certificate trust. */
static const char *const mach_services[] = {
	"com.apple.system.logger",
	"com.apple.system.notification_center",
	"com.apple.system.opendirectoryd.libinfo",
	"com.apple.system.opendirectoryd.membership",
	"com.apple.logd",
	"com.apple.diagnosticd",
	"com.apple.trustd",
	"com.apple.trustd.agent",
	"com.apple.SecurityServer",
	"com.apple.coreservices.launchservicesd",
	"com.apple.CoreServices.coreservicesd",
	"com.apple.lsd.mapdb",
	"com.apple.cfprefsd.daemon",
	"com.apple.cfprefsd.agent",
	"com.apple.analyticsd",
};

static void fingerprint(struct buf *b, struct cordon_strv *params,
			const struct cordon_fingerprint *fp, bool *oom)
{
	int dir = add_param(params, fp->dir);
	int allow = add_param(params, fp->allow);
	int deny = add_param(params, fp->deny);
	if (dir < 0 || allow < 0 || deny < 0) {
		*oom = true;
		return;
	}
	/* Last, so that no broader rule above can override it. */
	put(b, "; the session fingerprint (read by the watcher with sandbox_check)\n");
	put(b, "(allow file-read* (literal (param \"P%d\")))\n", allow);
	put(b, "(deny file-read* (literal (param \"P%d\")))\n", deny);
	put(b, "(deny file-write* (subpath (param \"P%d\")))\n", dir);
}

/* The DNS resolver's socket: getaddrinfo() asks mDNSResponder through it
 * (libsystem_info → libsystem_dnssd ConnectToServer → connect(2) to
 * /var/run/mDNSResponder, MDNS_UDS_SERVERPATH in Apple's mDNSResponder
 * dnssd_ipc.h). Chromium's network service allows exactly this path
 * (sandbox/policy/mac/network.sb). Written canonical: the kernel resolves
 * the path before the sandbox sees it (below). */
#define MDNS_SOCKET "/private/var/run/mDNSResponder"

/* Unix sockets: connecting to one outside the session (a tmux server,
 * docker.sock, an editor's control socket) runs commands outside it, so
 * only these are reachable: the policy's allowed sockets (one exact path
 * each), the sockets made inside under the session's socket directory, and,
 * with the network on, the DNS resolver's. Abstract sockets do not exist on
 * macOS.
 *
 * What the kernel asks (XNU bsd/kern/uipc_usrreq.c): connect(2), and
 * sendto(2) with an address, resolve sun_path with namei(FOLLOW) and call
 * mac_vnode_check_uipc_connect on the socket's vnode: Seatbelt's
 * network-outbound with a (remote unix-socket) filter. bind(2) calls
 * mac_vnode_check_create (file-write-create) and mac_vnode_check_uipc_bind
 * (network-bind, (local unix-socket)) on the directory and the new name:
 * binding needs both, in the socket directory only.
 *
 * Spelling, as in openai/codex (codex-rs/sandboxing/src/seatbelt.rs,
 * unix_socket_policy), anthropic-experimental/sandbox-runtime
 * (src/sandbox/macos-sandbox-utils.ts; nolabs-ai/nono#703 grants connect
 * and bind separately the same way): (allow system-socket (socket-domain AF_UNIX)) to create the socket,
 * (allow network-bind (local unix-socket (subpath DIR))),
 * (allow network-outbound (remote unix-socket (path-literal PATH) or
 * (subpath DIR))): one path filter per rule. Seatbelt takes the last rule
 * that matches (the fingerprint below relies on it too), so the denials come
 * after (allow network*) and after system.sb's own
 * (allow network-outbound (literal "/private/var/run/syslog")), and the
 * exceptions after the denials. socketpair(2) and sends on a connected
 * socket need no network rule (Codex's (deny default) profile has none at
 * all without the network, and runs node, whose child stdio is a
 * socketpair). */
static void unix_sockets(struct buf *b, struct cordon_strv *params, const struct cordon_policy *p,
			 bool *oom)
{
	put(b, "; unix sockets: none but those allowed below\n");
	put(b, "(deny network-outbound (remote unix-socket))\n");
	put(b, "(deny network-bind (local unix-socket))\n");
	if (p->allow_network && !p->domains) {
		put(b, "; name lookups: getaddrinfo asks mDNSResponder on this socket\n");
		put(b, "(allow network-outbound (remote unix-socket (path-literal \"" MDNS_SOCKET
		       "\")))\n");
	}
	for (size_t i = 0; i < p->n_sockets && !*oom; i++) {
		const char *path = p->sockets[i].path;
		bool seen = p->allow_network && !p->domains && strcmp(path, MDNS_SOCKET) == 0;
		for (size_t j = 0; j < i && !seen; j++)
			seen = strcmp(p->sockets[j].path, path) == 0;
		if (seen)
			continue; /* one rule per path */
		int k = add_param(params, path);
		if (k < 0) {
			*oom = true;
			return;
		}
		put(b,
		    "(allow network-outbound (remote unix-socket (path-literal (param \"P%d\"))))\n",
		    k);
	}
	if (!p->socket_dir || *oom)
		return;
	int d = add_param(params, p->socket_dir);
	if (d < 0) {
		*oom = true;
		return;
	}
	put(b, "; the session's socket directory: servers started inside bind here\n");
	put(b, "(allow file-read* file-write* (subpath (param \"P%d\")))\n", d);
	put(b,
	    "(allow network-bind network-inbound (local unix-socket (subpath (param \"P%d\"))))\n",
	    d);
	put(b, "(allow network-outbound (remote unix-socket (subpath (param \"P%d\"))))\n", d);
	/* Nothing inside may make a name in it lead to a socket outside: no
	 * symbolic links (should the kernel ever match the name rather than the
	 * resolved vnode) and no hard links (a second name for an outside
	 * socket's vnode). file-link names the new link's path. */
	put(b,
	    "(deny file-write-create (require-all (subpath (param \"P%d\")) "
	    "(vnode-type SYMLINK)))\n",
	    d);
	put(b, "(deny file-link (subpath (param \"P%d\")))\n", d);
}

int cordon_sbpl_generate(const struct cordon_policy *p, const struct cordon_fingerprint *fp,
			 struct cordon_sbpl *out, struct cordon_error *err)
{
	struct buf b = {0};
	struct cordon_strv params = {0};
	bool oom = false;
	memset(out, 0, sizeof(*out));
	put(&b, "(version 1)\n");
	if (!p->sandbox) {
		/* Tracking only: everything allowed, but the session is marked. */
		put(&b, "(allow default)\n");
		if (fp)
			fingerprint(&b, &params, fp, &oom);
		goto done;
	}
	put(&b, "(deny default)\n");
	put(&b, "(import \"system.sb\")\n"); /* dyld, libSystem, the shared cache */
	put(&b, "(allow process-fork)\n");
	put(&b, "(allow signal (target self) (target children))\n");
	put(&b, "(allow process-info* (target self))\n");
	put(&b, "(allow sysctl-read)\n");
	put(&b, "(allow file-read-metadata)\n"); /* stat, like Landlock: names, not contents */
	put(&b, "(allow pseudo-tty)\n");
	put(&b, "(allow file-ioctl (literal \"/dev/tty\") (regex #\"^/dev/ttys[0-9]+$\"))\n");
	put(&b,
	    "(allow ipc-posix-shm-read* (ipc-posix-name-prefix \"apple.shm.notification_center\"))\n");
	put(&b, "(allow mach-lookup");
	for (size_t i = 0; i < sizeof(mach_services) / sizeof(mach_services[0]); i++)
		put(&b, "\n    (global-name \"%s\")", mach_services[i]);
	put(&b, ")\n");

	put(&b, "; the policy's paths (values are parameters)\n");
	for (size_t i = 0; i < p->n_rules && !oom; i++) {
		const struct cordon_rule *r = &p->rules[i];
		/* The DNS resolver's socket only with the network on. */
		if (!p->allow_network && strstr(r->path, "/var/run/mDNSResponder"))
			continue;
		if (!(r->access & CORDON_ACCESS_ALL))
			continue;
		int k = add_param(&params, r->path);
		if (k < 0) {
			oom = true;
			break;
		}
		put(&b, "(allow%s%s%s (subpath (param \"P%d\")))\n",
		    r->access & CORDON_ACCESS_READ ? " file-read*" : "",
		    r->access & CORDON_ACCESS_WRITE ? " file-write*" : "",
		    r->access & CORDON_ACCESS_EXEC ? " process-exec* file-map-executable" : "", k);
	}
	/* The guards, by path (Seatbelt takes the last matching rule): a
	 * protected path stays read-only and cannot be made either, a hidden
	 * one is neither read nor written. */
	struct cordon_strv commondirs = {0};
	if (p->n_guards)
		put(&b, "; protected_paths, hidden_paths\n");
	for (size_t i = 0; i < p->n_guards && !oom; i++) {
		int k = add_param(&params, p->guards[i].path);
		if (k < 0) {
			oom = true;
			break;
		}
		/* (A tool's config whose secret Linux leaves out of a copy,
		 * shim/redact.c: Seatbelt has no copy to give, and the tool
		 * needs the rest, so it stays readable here.) */
		bool unread = p->guards[i].kind == CORDON_GUARD_HIDE &&
			      !cordon_redact_config(p->guards[i].path);
		put(&b, "(deny%s file-write* (subpath (param \"P%d\")))\n",
		    unread ? " file-read*" : "", k);
		/* git follows a git dir's commondir to another config and
		 * hooks: with any .git entry protected, it cannot be made. */
		const char *git = strstr(p->guards[i].path, "/.git/");
		cleanup_free char *common = NULL;
		if ((p->guards[i].kind & CORDON_GUARD_PROTECT) && git &&
		    asprintf(&common, "%.*s/.git/commondir", (int)(git - p->guards[i].path),
			     p->guards[i].path) < 0)
			common = NULL, oom = true;
		if (common && !cordon_strv_contains(&commondirs, common)) {
			k = add_param(&params, common);
			if (k < 0 || cordon_strv_push(&commondirs, common) < 0) {
				oom = true;
				break;
			}
			put(&b, "(deny file-write* (literal (param \"P%d\")))\n", k);
		}
	}
	cordon_strv_free(&commondirs);
	if (p->allow_network && p->domains) {
		/* By domain: out only to cordon's proxy on loopback (no name
		 * lookups of the session's own: the proxy resolves). No proxy
		 * started: no way out at all. */
		put(&b, "; the network by domain: only cordon's proxy (unix sockets: below)\n");
		put(&b, "(allow system-socket (socket-domain AF_UNIX))\n");
		if (p->proxy_port) {
			put(&b, "(allow system-socket (socket-domain AF_INET))\n");
			put(&b, "(allow network-outbound (remote ip \"localhost:%u\"))\n",
			    p->proxy_port);
		}
	} else if (p->allow_network) {
		put(&b, "; the network is on (unix sockets: below)\n");
		put(&b, "(allow network*)\n");
		put(&b, "(allow system-socket)\n");
		put(&b, "(allow mach-lookup (global-name \"com.apple.dnssd.service\" "
			"\"com.apple.SystemConfiguration.configd\" \"com.apple.networkd\"))\n");
	} else {
		put(&b, "; the network is off: unix sockets only, those below\n");
		put(&b, "(allow system-socket (socket-domain AF_UNIX))\n");
	}
	if (!oom)
		unix_sockets(&b, &params, p, &oom);
	if (fp)
		fingerprint(&b, &params, fp, &oom);
done:
	if (!oom && !params.v) /* always a NULL-terminated array, even empty */
		params.v = calloc(1, sizeof(char *));
	if (oom || b.oom || !params.v) {
		free(b.s);
		cordon_strv_free(&params);
		return cordon_err(err, ENOMEM, "generating the Seatbelt profile: out of memory");
	}
	out->profile = b.s;
	out->n_params = params.n / 2;
	out->params = params.v; /* NULL-terminated */
	return 0;
}

void cordon_sbpl_free(struct cordon_sbpl *s)
{
	free(s->profile);
	if (s->params) {
		for (char **v = s->params; *v; v++)
			free(*v);
		free(s->params);
	}
	memset(s, 0, sizeof(*s));
}
