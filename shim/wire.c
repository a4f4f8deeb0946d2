#include "cordon/wire.h"

#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "jsonutil.h"
#include "util.h"

#define ORIGIN "policy on " CORDON_ENV_CONFIG_FD

static const char *unsupported_name(enum cordon_on_unsupported u)
{
	return u == CORDON_UNSUPPORTED_WARN ? "warn" : "refuse";
}

static struct json_object *strv_json(const struct cordon_strv *sv)
{
	struct json_object *a = json_object_new_array_ext((int)sv->n);
	for (size_t i = 0; a && i < sv->n; i++)
		json_object_array_add(a, json_object_new_string(sv->v[i]));
	return a;
}

int cordon_wire_encode(const struct cordon_policy *p, char **buf, size_t *len,
		       struct cordon_error *err)
{
	struct json_object *o = json_object_new_object();
	struct json_object *rules = json_object_new_array_ext((int)p->n_rules);
	if (!o || !rules) {
		json_object_put(o);
		json_object_put(rules);
		return cordon_err(err, ENOMEM, "encoding policy: out of memory");
	}
	json_object_object_add(o, "version", json_object_new_int(CORDON_WIRE_VERSION));
	json_object_object_add(o, "sandbox", json_object_new_boolean(p->sandbox));
	json_object_object_add(o, "allow_network", json_object_new_boolean(p->allow_network));
	json_object_object_add(o, "on_unsupported",
			       json_object_new_string(unsupported_name(p->on_unsupported)));
	json_object_object_add(o, "project", json_object_new_string(p->project));
	json_object_object_add(o, "home", p->home ? json_object_new_string(p->home) : NULL);
	json_object_object_add(o, "session", json_object_new_string(p->session));
	for (size_t i = 0; i < p->n_rules; i++) {
		struct json_object *r = json_object_new_object();
		char acc[4];
		json_object_object_add(r, "path", json_object_new_string(p->rules[i].path));
		json_object_object_add(
			r, "access",
			json_object_new_string(cordon_access_str(p->rules[i].access, acc)));
		json_object_object_add(r, "source", json_object_new_string(p->rules[i].source));
		json_object_array_add(rules, r);
	}
	json_object_object_add(o, "rules", rules);
	json_object_object_add(o, "env", strv_json(&p->env_allow));

	size_t plen;
	const char *text = json_object_to_json_string_length(o, JSON_C_TO_STRING_PLAIN, &plen);
	int ret = 0;
	if (!text) {
		ret = cordon_err(err, ENOMEM, "encoding policy: out of memory");
	} else if (plen > CORDON_WIRE_MAX) {
		ret = cordon_err(err, EFBIG, "policy too large (%zu bytes, at most %u)", plen,
				 CORDON_WIRE_MAX);
	} else {
		char *out = malloc(plen + 4);
		if (!out) {
			ret = cordon_err(err, ENOMEM, "encoding policy: out of memory");
		} else {
			uint32_t n = (uint32_t)plen;
			out[0] = (char)(n & 0xff);
			out[1] = (char)((n >> 8) & 0xff);
			out[2] = (char)((n >> 16) & 0xff);
			out[3] = (char)((n >> 24) & 0xff);
			memcpy(out + 4, text, plen);
			*buf = out;
			*len = plen + 4;
		}
	}
	json_object_put(o);
	return ret;
}

static int parse_access(const char *s, unsigned *out)
{
	if (strlen(s) != 3)
		return -EINVAL;
	static const char letters[] = "rwx";
	unsigned a = 0;
	for (int i = 0; i < 3; i++) {
		if (s[i] == letters[i])
			a |= 1u << i;
		else if (s[i] != '-')
			return -EINVAL;
	}
	*out = a;
	return 0;
}

static int abs_path(const char *s, const char *key, struct cordon_error *err)
{
	if (s[0] != '/')
		return cordon_err(err, EINVAL, ORIGIN ": %s: expected an absolute path, got \"%s\"",
				  key, s);
	return 0;
}

static int decode_rule(struct json_object *r, size_t idx, struct cordon_policy *p,
		       struct cordon_error *err)
{
	char key[64];
	snprintf(key, sizeof(key), "rules[%zu]", idx);
	if (!json_object_is_type(r, json_type_object))
		return cordon_err(err, EINVAL, ORIGIN ": %s: expected an object, got %s", key,
				  cordon_json_type_name(r));
	const char *path = NULL, *access = NULL, *source = NULL;
	json_object_object_foreach(r, k, v)
	{
		const char **slot = strcmp(k, "path") == 0     ? &path
				    : strcmp(k, "access") == 0 ? &access
				    : strcmp(k, "source") == 0 ? &source
							       : NULL;
		if (!slot)
			return cordon_err(err, EINVAL, ORIGIN ": %s.%s: unknown key", key, k);
		char sub[96];
		snprintf(sub, sizeof(sub), "%s.%s", key, k);
		int ret = cordon_json_string(v, ORIGIN, sub, slot, err);
		if (ret < 0)
			return ret;
	}
	if (!path || !access || !source)
		return cordon_err(err, EINVAL, ORIGIN ": %s: missing %s", key,
				  !path     ? "path"
				  : !access ? "access"
					    : "source");
	int ret = abs_path(path, key, err);
	if (ret < 0)
		return ret;
	unsigned a;
	if (parse_access(access, &a) < 0)
		return cordon_err(err, EINVAL,
				  ORIGIN ": %s.access: expected \"rwx\"-style, got \"%s\"", key,
				  access);
	if (cordon_policy_add_rule(p, path, a, source) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	return 0;
}

enum wire_key {
	K_VERSION,
	K_SANDBOX,
	K_NET,
	K_UNSUP,
	K_PROJECT,
	K_HOME,
	K_SESSION,
	K_RULES,
	K_ENV,
	K_COUNT
};
static const char *const wire_keys[K_COUNT] = {"version",        "sandbox", "allow_network",
					       "on_unsupported", "project", "home",
					       "session",        "rules",   "env"};

static int decode_key(enum wire_key k, struct json_object *v, struct cordon_policy *p,
		      struct cordon_error *err)
{
	const char *name = wire_keys[k];
	const char *s;
	int r = 0;
	switch (k) {
	case K_VERSION:
		if (!json_object_is_type(v, json_type_int) ||
		    json_object_get_int64(v) != CORDON_WIRE_VERSION)
			return cordon_err(err, EINVAL, ORIGIN ": version: expected %d",
					  CORDON_WIRE_VERSION);
		return 0;
	case K_SANDBOX:
		return cordon_json_bool(v, ORIGIN, name, &p->sandbox, err);
	case K_NET:
		return cordon_json_bool(v, ORIGIN, name, &p->allow_network, err);
	case K_UNSUP:
		if ((r = cordon_json_string(v, ORIGIN, name, &s, err)) < 0)
			return r;
		if (strcmp(s, "refuse") == 0)
			p->on_unsupported = CORDON_UNSUPPORTED_REFUSE;
		else if (strcmp(s, "warn") == 0)
			p->on_unsupported = CORDON_UNSUPPORTED_WARN;
		else
			return cordon_err(err, EINVAL,
					  ORIGIN
					  ": on_unsupported: expected \"refuse\" or \"warn\"");
		return 0;
	case K_HOME:
		if (json_object_is_type(v, json_type_null))
			return 0;
		__attribute__((fallthrough));
	case K_PROJECT:
	case K_SESSION:
		if ((r = cordon_json_string(v, ORIGIN, name, &s, err)) < 0)
			return r;
		if (k != K_SESSION && (r = abs_path(s, name, err)) < 0)
			return r;
		char **slot = k == K_PROJECT ? &p->project : k == K_HOME ? &p->home : &p->session;
		if (!(*slot = strdup(s)))
			return cordon_err(err, ENOMEM, "out of memory");
		return 0;
	case K_RULES:
		if (!json_object_is_type(v, json_type_array))
			return cordon_err(err, EINVAL, ORIGIN ": rules: expected an array, got %s",
					  cordon_json_type_name(v));
		for (size_t i = 0; i < json_object_array_length(v); i++)
			if ((r = decode_rule(json_object_array_get_idx(v, i), i, p, err)) < 0)
				return r;
		return 0;
	case K_ENV:
		return cordon_json_strv(v, ORIGIN, name, &p->env_allow, err);
	case K_COUNT:
		break;
	}
	return cordon_err(err, EINVAL, ORIGIN ": internal error");
}

int cordon_wire_decode(const char *buf, size_t len, struct cordon_policy *out,
		       struct cordon_error *err)
{
	if (len < 4)
		return cordon_err(err, EINVAL, ORIGIN ": truncated length prefix (%zu bytes)", len);
	const unsigned char *u = (const unsigned char *)buf;
	uint32_t n =
		(uint32_t)u[0] | (uint32_t)u[1] << 8 | (uint32_t)u[2] << 16 | (uint32_t)u[3] << 24;
	if (n > CORDON_WIRE_MAX)
		return cordon_err(err, EFBIG, ORIGIN ": length %u exceeds the limit of %u", n,
				  CORDON_WIRE_MAX);
	if ((size_t)n != len - 4)
		return cordon_err(err, EINVAL,
				  ORIGIN ": length prefix says %u bytes, frame has %zu", n,
				  len - 4);
	struct json_object *root = NULL;
	int r = cordon_json_parse_strict(buf + 4, n, ORIGIN, &root, err);
	if (r < 0)
		return r;
	struct cordon_policy p = {0};
	bool seen[K_COUNT] = {false};
	if (!json_object_is_type(root, json_type_object)) {
		r = cordon_err(err, EINVAL, ORIGIN ": expected an object, got %s",
			       cordon_json_type_name(root));
		goto out;
	}
	json_object_object_foreach(root, key, val)
	{
		int k;
		for (k = 0; k < K_COUNT; k++)
			if (strcmp(key, wire_keys[k]) == 0)
				break;
		if (k == K_COUNT) {
			r = cordon_err(err, EINVAL, ORIGIN ": %s: unknown key", key);
			goto out;
		}
		if ((r = decode_key(k, val, &p, err)) < 0)
			goto out;
		seen[k] = true;
	}
	for (int k = 0; k < K_COUNT; k++)
		if (!seen[k]) {
			r = cordon_err(err, EINVAL, ORIGIN ": %s: missing", wire_keys[k]);
			goto out;
		}
	*out = p;
	p = (struct cordon_policy){0};
out:
	cordon_policy_free(&p);
	json_object_put(root);
	return r;
}

static int read_full(int fd, char *buf, size_t len)
{
	size_t off = 0;
	while (off < len) {
		ssize_t n = read(fd, buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return -errno;
		if (n == 0)
			break;
		off += (size_t)n;
	}
	return (int)(off == len ? 0 : -EPIPE);
}

int cordon_wire_read_fd(int fd, struct cordon_policy *out, struct cordon_error *err)
{
	unsigned char hdr[4];
	int r = read_full(fd, (char *)hdr, sizeof(hdr));
	if (r < 0)
		return cordon_err(err, r, ORIGIN ": reading length prefix: %s",
				  r == -EPIPE ? "truncated" : strerror(-r));
	uint32_t n = (uint32_t)hdr[0] | (uint32_t)hdr[1] << 8 | (uint32_t)hdr[2] << 16 |
		     (uint32_t)hdr[3] << 24;
	if (n > CORDON_WIRE_MAX)
		return cordon_err(err, EFBIG, ORIGIN ": length %u exceeds the limit of %u", n,
				  CORDON_WIRE_MAX);
	cleanup_free char *buf = malloc((size_t)n + 4);
	if (!buf)
		return cordon_err(err, ENOMEM, "out of memory");
	memcpy(buf, hdr, 4);
	r = read_full(fd, buf + 4, n);
	if (r < 0)
		return cordon_err(err, r, ORIGIN ": reading %u bytes: %s", n,
				  r == -EPIPE ? "truncated" : strerror(-r));
	/* Nothing may follow the frame. */
	char extra;
	ssize_t more;
	do
		more = read(fd, &extra, 1);
	while (more < 0 && errno == EINTR);
	if (more > 0)
		return cordon_err(err, EINVAL, ORIGIN ": unexpected bytes after the frame");
	return cordon_wire_decode(buf, (size_t)n + 4, out, err);
}

int cordon_wire_parse_fd(const char *s)
{
	if (!s || *s < '0' || *s > '9') /* strtol would skip spaces and signs */
		return -EINVAL;
	char *end;
	errno = 0;
	long v = strtol(s, &end, 10);
	if (errno || *end || end == s || v < 3 || v > INT_MAX)
		return -EINVAL;
	return (int)v;
}
