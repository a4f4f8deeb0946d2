#include "cordon/env.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cordon/session.h"
#include "cordon/wire.h"

static const char *const always_kept[] = {"TERM", "COLORTERM", "TERM_PROGRAM",
					  "TERM_PROGRAM_VERSION", NULL};
static const char *const never_kept[] = {"LD_PRELOAD",         "DYLD_INSERT_LIBRARIES",
					 CORDON_ENV_CONFIG_FD, CORDON_ENV_SESSION,
					 CORDON_ENV_SANDBOX,   NULL};

static bool name_in(const char *const *list, const char *name, size_t len)
{
	for (size_t i = 0; list[i]; i++)
		if (strlen(list[i]) == len && strncmp(list[i], name, len) == 0)
			return true;
	return false;
}

bool cordon_env_name_valid(const char *s)
{
	if (!*s)
		return false;
	for (const char *p = s; *p; p++) {
		if (*p == '*' && p[1] == '\0' && p != s)
			return true;
		if (!(*p == '_' || (*p >= 'A' && *p <= 'Z') || (*p >= 'a' && *p <= 'z') ||
		      (p != s && *p >= '0' && *p <= '9')))
			return false;
	}
	return true;
}

bool cordon_path_spells_variable(const char *path)
{
	if (strstr(path, "${"))
		return true;
	if (path[0] != '$')
		return false;
	/* "$HOME/x", "$XDG_CONFIG_HOME": a name in capitals. irb's "$irbrc",
	 * a file so named (round 60f F4), is a name. */
	size_t n = 1;
	while ((path[n] >= 'A' && path[n] <= 'Z') || path[n] == '_' ||
	       (n > 1 && path[n] >= '0' && path[n] <= '9'))
		n++;
	return n > 1 && (path[n] == '\0' || path[n] == '/');
}

bool cordon_env_never_passed(const char *name)
{
	/* The markers are cordon's own, set inside: naming them is harmless. */
	static const char *const dropped[] = {"LD_PRELOAD", "DYLD_INSERT_LIBRARIES",
					      CORDON_ENV_CONFIG_FD, NULL};
	return name_in(dropped, name, strlen(name));
}

bool cordon_env_allowed(const struct cordon_strv *allow, const char *name, size_t len)
{
	for (size_t i = 0; i < allow->n; i++) {
		const char *a = allow->v[i];
		size_t al = strlen(a);
		if (al > 0 && a[al - 1] == '*') {
			if (len >= al - 1 && strncmp(name, a, al - 1) == 0)
				return true;
		} else if (al == len && strncmp(name, a, len) == 0) {
			return true;
		}
	}
	return false;
}

int cordon_env_build(char *const *envp, bool filter, const struct cordon_strv *allow,
		     const char *session, bool sandbox, struct cordon_strv *out)
{
	for (size_t i = 0; envp && envp[i]; i++) {
		const char *eq = strchr(envp[i], '=');
		if (!eq || eq == envp[i])
			continue; /* malformed entries never pass */
		size_t len = (size_t)(eq - envp[i]);
		if (name_in(never_kept, envp[i], len))
			continue;
		if (filter && !name_in(always_kept, envp[i], len) &&
		    !cordon_env_allowed(allow, envp[i], len))
			continue;
		/* First occurrence wins, as getenv() would see it. */
		bool dup = false;
		for (size_t j = 0; j < out->n && !dup; j++)
			dup = strncmp(out->v[j], envp[i], len + 1) == 0;
		if (!dup && cordon_strv_push(out, envp[i]) < 0)
			return -ENOMEM;
	}
	char *s;
	if (asprintf(&s, CORDON_ENV_SESSION "=%s", session ? session : "") < 0)
		return -ENOMEM;
	if (cordon_strv_push_take(out, s) < 0)
		return -ENOMEM;
	return cordon_strv_push(out, sandbox ? CORDON_ENV_SANDBOX "=1" : CORDON_ENV_SANDBOX "=0");
}

int cordon_env_offline(struct cordon_strv *out)
{
	static const char *const offline[] = {"npm_config_offline=true",
					      "CARGO_NET_OFFLINE=true",
					      "GOPROXY=off",
					      "PIP_RETRIES=0",
					      "UV_OFFLINE=1",
					      "YARN_ENABLE_OFFLINE_MODE=1",
					      NULL};
	for (size_t i = 0; offline[i]; i++) {
		size_t len = strcspn(offline[i], "=") + 1;
		bool set = false;
		for (size_t j = 0; j < out->n && !set; j++)
			set = strncmp(out->v[j], offline[i], len) == 0;
		if (!set && cordon_strv_push(out, offline[i]) < 0)
			return -ENOMEM;
	}
	return 0;
}

char *cordon_env_strip_preload(const char *val, const char *lib)
{
	/* ld.so splits LD_PRELOAD on spaces and colons. */
	size_t n = strlen(val);
	char *out = malloc(n + 1);
	if (!out)
		return NULL;
	size_t o = 0;
	const char *p = val;
	while (*p) {
		size_t len = strcspn(p, " :");
		if (len > 0) {
			const char *base = p;
			for (size_t k = 0; k < len; k++) /* memrchr is GNU-only */
				if (p[k] == '/')
					base = p + k + 1;
			size_t blen = len - (size_t)(base - p);
			bool drop = (strlen(lib) == len && strncmp(p, lib, len) == 0) ||
				    (blen == strlen(CORDON_SHIM_NAME) &&
				     strncmp(base, CORDON_SHIM_NAME, blen) == 0);
			if (!drop) {
				if (o > 0)
					out[o++] = ':';
				memcpy(out + o, p, len);
				o += len;
			}
		}
		p += len;
		if (*p)
			p++;
	}
	out[o] = '\0';
	return out;
}
