/* Seatbelt profile generation (see cordon/sbpl.h). Portable: no macOS API. */
#include "cordon/sbpl.h"
#include "util.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cordon/strv.h"

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
	if (p->allow_network) {
		put(&b, "; the network is on\n");
		put(&b, "(allow network*)\n");
		put(&b, "(allow system-socket)\n");
		put(&b, "(allow mach-lookup (global-name \"com.apple.dnssd.service\" "
			"\"com.apple.SystemConfiguration.configd\" \"com.apple.networkd\"))\n");
	} else {
		put(&b, "; the network is off: unix sockets only\n");
		put(&b, "(allow network* (remote unix-socket))\n");
		put(&b, "(allow network* (local unix-socket))\n");
	}
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
