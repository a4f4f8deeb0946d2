#include "cordon/wire.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/uio.h>
#include <sys/socket.h>
#include <sys/mman.h>
#include <unistd.h>

#include "util.h"

#define ORIGIN "policy on " CORDON_ENV_CONFIG_FD

enum wire_flag {
	F_SANDBOX = 1u << 0,
	F_NETWORK = 1u << 1,
	F_WARN = 1u << 2,
	F_HOME = 1u << 3,
	F_DOMAINS = 1u << 4, /* TCP only to the supervisor's proxy (the lists stay outside) */
	F_MOUNTNS = 1u << 5, /* the command started in a mount namespace of its own */
	F_USERNS = 1u << 6,  /* ... and a user namespace (an ordinary user), if it could */
	F_ALL = F_SANDBOX | F_NETWORK | F_WARN | F_HOME | F_DOMAINS | F_MOUNTNS | F_USERNS,
};

/* In a rule's access byte, beside the rwx bits. */
#define A_PREPARED 0x80u
#define A_SHARED   0x40u
#define A_NOFOLLOW 0x20u
#define A_WRITTEN  0x10u /* the rule as written follows its source */

/* Every integer on the wire is little-endian. */
static uint32_t le32_get(const unsigned char b[4])
{
	return (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
}

static void le32_put(unsigned char b[4], uint32_t v)
{
	for (int i = 0; i < 4; i++)
		b[i] = (v >> (8 * i)) & 0xff;
}

/* ---- encoding ------------------------------------------------------------ */

/* Encoding runs twice: once with no buffer, counting, then into a buffer
 * of exactly that size (one allocation of the frame's size: growing one by
 * doubling took the launcher's allocator to a fresh 16 KiB mapping). */
struct out {
	char *buf; /* NULL: count only */
	size_t len, cap;
	bool big; /* a string longer than a whole frame may be */
};

static void put(struct out *o, const void *data, size_t n)
{
	if (o->buf && n <= o->cap - o->len)
		memcpy(o->buf + o->len, data, n);
	o->len += n;
}

static void put_u32(struct out *o, uint32_t v)
{
	unsigned char b[4];
	le32_put(b, v);
	put(o, b, 4);
}

static void put_str(struct out *o, const char *s)
{
	size_t n = strlen(s);
	if (n > CORDON_WIRE_MAX) {
		o->big = true;
		return;
	}
	put_u32(o, (uint32_t)n);
	put(o, s, n);
}

static void emit(struct out *o, const struct cordon_policy *p)
{
	put_u32(o, 0); /* the length, filled in below */
	unsigned char head[2] = {
		CORDON_WIRE_VERSION,
		(unsigned char)((p->sandbox ? F_SANDBOX : 0) | (p->allow_network ? F_NETWORK : 0) |
				(p->on_unsupported == CORDON_UNSUPPORTED_WARN ? F_WARN : 0) |
				(p->home ? F_HOME : 0) | (p->mountns_made ? F_MOUNTNS : 0) |
				(p->userns_made ? F_USERNS : 0) |
				(p->domains && p->allow_network ? F_DOMAINS : 0))};
	put(o, head, sizeof(head));
	put_str(o, p->project ? p->project : "");
	if (p->home)
		put_str(o, p->home);
	put_str(o, p->session ? p->session : "");
	put_u32(o, (uint32_t)p->n_rules);
	for (size_t i = 0; i < p->n_rules; i++) {
		unsigned char a = (unsigned char)((p->rules[i].access & CORDON_ACCESS_ALL) |
						  (p->rules[i].prepared ? A_PREPARED : 0) |
						  (p->rules[i].shared ? A_SHARED : 0) |
						  (p->rules[i].nofollow ? A_NOFOLLOW : 0) |
						  (p->rules[i].written ? A_WRITTEN : 0));
		put(o, &a, 1);
		put_str(o, p->rules[i].path);
		put_str(o, p->rules[i].source);
		if (p->rules[i].written)
			put_str(o, p->rules[i].written);
	}
	put_u32(o, (uint32_t)p->env_allow.n);
	for (size_t i = 0; i < p->env_allow.n; i++)
		put_str(o, p->env_allow.v[i]);
	put_u32(o, (uint32_t)p->n_guards);
	for (size_t i = 0; i < p->n_guards; i++) {
		unsigned char k = (unsigned char)p->guards[i].kind;
		put(o, &k, 1);
		put_str(o, p->guards[i].path);
		put_str(o, p->guards[i].source);
	}
	const struct cordon_strv *lists[] = {&p->envrc_allowed, &p->envrc_whitelisted,
					     &p->envrc_prefixes, &p->git_env, &p->hidden_globs};
	for (size_t l = 0; l < ARRAY_SIZE(lists); l++) {
		put_u32(o, (uint32_t)lists[l]->n);
		for (size_t i = 0; i < lists[l]->n; i++)
			put_str(o, lists[l]->v[i]);
	}
}

int cordon_wire_encode(const struct cordon_policy *p, char **buf, size_t *len,
		       struct cordon_error *err)
{
	struct out o = {0};
	emit(&o, p);
	size_t plen = o.len - 4;
	if (o.big || plen > CORDON_WIRE_MAX) {
		return o.big ? cordon_err(err, EFBIG, "policy too large (more than %u bytes)",
					  CORDON_WIRE_MAX)
			     : cordon_err(err, EFBIG, "policy too large (%zu bytes, at most %u)",
					  plen, CORDON_WIRE_MAX);
	}
	o.cap = o.len;
	o.len = 0;
	if (!(o.buf = malloc(o.cap)))
		return cordon_err(err, ENOMEM, "encoding policy: out of memory");
	emit(&o, p);
	if (o.len != o.cap) { /* cannot happen: the same policy, counted twice */
		free(o.buf);
		return cordon_err(err, EINVAL, "encoding policy: %zu bytes, counted %zu", o.len,
				  o.cap);
	}
	le32_put((unsigned char *)o.buf, (uint32_t)plen);
	*buf = o.buf;
	*len = o.len;
	return 0;
}

/* ---- decoding: every read bounds-checked, every field validated ---------- */

struct in {
	const unsigned char *p;
	size_t off, len;
	struct cordon_error *err;
	/* The list entry being read ("rules", 3): a WHAT of NULL names it
	 * ("rules[3]"), one starting with '.' a field of it ("rules[3].path").
	 * Formatted only for a message: a label per field cost every launch
	 * three snprintf calls a rule. */
	const char *item;
	uint32_t index;
};

static const char *label(const struct in *in, const char *what, char buf[64])
{
	if (what && what[0] != '.')
		return what;
	snprintf(buf, 64, "%s[%u]%s", in->item, in->index, what ? what : "");
	return buf;
}

static int truncated(struct in *in, const char *what)
{
	char buf[64];
	return cordon_err(in->err, EINVAL, ORIGIN ": truncated at byte %zu (reading %s)", in->off,
			  label(in, what, buf));
}

static int get(struct in *in, void *dst, size_t n, const char *what)
{
	if (n > in->len - in->off)
		return truncated(in, what);
	memcpy(dst, in->p + in->off, n);
	in->off += n;
	return 0;
}

static int get_u32(struct in *in, uint32_t *v, const char *what)
{
	unsigned char b[4] = {0};
	int r = get(in, b, 4, what);
	if (r < 0)
		return r;
	*v = le32_get(b);
	return 0;
}

/* A string: a u32 length, then that many bytes, none of them NUL. ABS: it
 * must be an absolute path. *OUT is malloc'd. */
static int get_str(struct in *in, const char *what, bool abs, char **out)
{
	uint32_t n = 0;
	int r = get_u32(in, &n, what);
	if (r < 0)
		return r;
	if (n > in->len - in->off)
		return truncated(in, what);
	const char *s = (const char *)in->p + in->off;
	char buf[64];
	if (memchr(s, '\0', n))
		return cordon_err(in->err, EINVAL, ORIGIN ": %s: contains a NUL byte",
				  label(in, what, buf));
	if (abs && (n == 0 || s[0] != '/'))
		return cordon_err(in->err, EINVAL,
				  ORIGIN ": %s: expected an absolute path, got \"%.*s\"",
				  label(in, what, buf), (int)(n < 200 ? n : 200), s);
	if (!(*out = strndup(s, n)))
		return cordon_err(in->err, ENOMEM, "out of memory");
	in->off += n;
	return 0;
}

/* Each rule takes at least 10 bytes (access, two lengths, a path of one
 * byte): a count the rest of the frame cannot hold is refused before the
 * array for it is allocated. */
#define MIN_RULE_BYTES 10

static int decode_rules(struct in *in, struct cordon_policy *p)
{
	uint32_t n = 0;
	int r = get_u32(in, &n, "the number of rules");
	if (r < 0 || n == 0)
		return r;
	if (n > (in->len - in->off) / MIN_RULE_BYTES)
		return cordon_err(in->err, EINVAL,
				  ORIGIN ": %u rules cannot fit in the %zu bytes left", n,
				  in->len - in->off);
	if (!(p->rules = calloc(n, sizeof(*p->rules))))
		return cordon_err(in->err, ENOMEM, "out of memory");
	p->rules_cap = n;
	in->item = "rules";
	for (uint32_t i = 0; i < n; i++) {
		struct cordon_rule *rule = &p->rules[i];
		unsigned char a = 0;
		in->index = i;
		if ((r = get(in, &a, 1, ".access")) < 0)
			return r;
		if (a & ~(CORDON_ACCESS_ALL | A_PREPARED | A_SHARED | A_NOFOLLOW | A_WRITTEN))
			return cordon_err(in->err, EINVAL,
					  ORIGIN ": rules[%u].access: unknown bits 0x%x", i, a);
		rule->access = a & CORDON_ACCESS_ALL;
		rule->prepared = a & A_PREPARED;
		rule->shared = a & A_SHARED;
		rule->nofollow = a & A_NOFOLLOW;
		/* Counted once both strings are in: cordon_policy_free frees
		 * n_rules rules, and this one's path on its own. */
		if ((r = get_str(in, ".path", true, &rule->path)) < 0)
			return r;
		if ((r = get_str(in, ".source", false, &rule->source)) < 0 ||
		    ((a & A_WRITTEN) && (r = get_str(in, ".written", true, &rule->written)) < 0)) {
			free(rule->path);
			free(rule->source);
			rule->path = rule->source = NULL;
			return r;
		}
		p->n_rules = i + 1;
	}
	return 0;
}

/* A list of strings (WHAT, counted as COUNT; ABS: each an absolute path)
 * into V. */
static int decode_strv(struct in *in, const char *count, const char *what, bool abs,
		       struct cordon_strv *v)
{
	uint32_t n = 0;
	int r = get_u32(in, &n, count);
	in->item = what;
	for (uint32_t i = 0; r >= 0 && i < n; i++) {
		char *s = NULL;
		in->index = i;
		if ((r = get_str(in, NULL, abs, &s)) < 0)
			break;
		if (cordon_strv_push_take(v, s) < 0)
			return cordon_err(in->err, ENOMEM, "out of memory");
	}
	return r;
}

static int decode_env(struct in *in, struct cordon_policy *p)
{
	return decode_strv(in, "the number of env names", "env", false, &p->env_allow);
}

static int decode_guards(struct in *in, struct cordon_policy *p)
{
	uint32_t n = 0;
	int r = get_u32(in, &n, "the number of guards");
	in->item = "guards";
	for (uint32_t i = 0; r >= 0 && i < n; i++) {
		unsigned char k = 0;
		cleanup_free char *path = NULL, *source = NULL;
		in->index = i;
		if ((r = get(in, &k, 1, ".kind")) < 0 ||
		    (r = get_str(in, ".path", true, &path)) < 0 ||
		    (r = get_str(in, ".source", false, &source)) < 0)
			break;
		if (k != CORDON_GUARD_PROTECT && k != CORDON_GUARD_HIDE &&
		    k != (CORDON_GUARD_PROTECT | CORDON_GUARD_MAKE) &&
		    k != (CORDON_GUARD_PROTECT | CORDON_GUARD_PLACEHOLDER))
			return cordon_err(in->err, EINVAL, ORIGIN ": guards[%u].kind: unknown %u",
					  i, k);
		if (cordon_policy_add_guard(p, path, k, source) < 0)
			return cordon_err(in->err, ENOMEM, "out of memory");
	}
	return r;
}

static int decode_payload(struct in *in, struct cordon_policy *p)
{
	unsigned char head[2] = {0};
	int r = get(in, head, sizeof(head), "the version");
	if (r < 0)
		return r;
	if (head[0] != CORDON_WIRE_VERSION)
		return cordon_err(in->err, EINVAL,
				  ORIGIN ": version: expected %d, got %d (a cordon launcher and "
					 "shim from different builds?)",
				  CORDON_WIRE_VERSION, head[0]);
	if (head[1] & ~F_ALL)
		return cordon_err(in->err, EINVAL, ORIGIN ": flags: unknown bits 0x%x",
				  head[1] & ~F_ALL);
	p->sandbox = head[1] & F_SANDBOX;
	p->allow_network = head[1] & F_NETWORK;
	p->domains = (head[1] & F_DOMAINS) && p->allow_network;
	p->mountns_made = head[1] & F_MOUNTNS;
	p->userns_made = head[1] & F_USERNS;
	p->on_unsupported = head[1] & F_WARN ? CORDON_UNSUPPORTED_WARN : CORDON_UNSUPPORTED_REFUSE;
	/* The project: "" when the session has none (p->project NULL). */
	if (in->len - in->off >= 4 && le32_get(in->p + in->off) == 0)
		in->off += 4;
	else if ((r = get_str(in, "project", true, &p->project)) < 0)
		return r;
	if (((head[1] & F_HOME) && (r = get_str(in, "home", true, &p->home)) < 0) ||
	    (r = get_str(in, "session", false, &p->session)) < 0 || (r = decode_rules(in, p)) < 0 ||
	    (r = decode_env(in, p)) < 0 || (r = decode_guards(in, p)) < 0 ||
	    (r = decode_strv(in, "the number of allowed .envrc files", "envrc_allowed", true,
			     &p->envrc_allowed)) < 0 ||
	    (r = decode_strv(in, "the number of whitelisted .envrc files", "envrc_whitelisted",
			     true, &p->envrc_whitelisted)) < 0 ||
	    (r = decode_strv(in, "the number of whitelisted prefixes", "envrc_prefixes", true,
			     &p->envrc_prefixes)) < 0 ||
	    (r = decode_strv(in, "the number of git's environment settings", "git_env", false,
			     &p->git_env)) < 0 ||
	    (r = decode_strv(in, "the number of hidden patterns", "hidden_globs", true,
			     &p->hidden_globs)) < 0)
		return r;
	if (in->off != in->len)
		return cordon_err(in->err, EINVAL, ORIGIN ": %zu unexpected bytes after the policy",
				  in->len - in->off);
	return 0;
}

int cordon_wire_decode(const char *buf, size_t len, struct cordon_policy *out,
		       struct cordon_error *err)
{
	if (len < 4)
		return cordon_err(err, EINVAL, ORIGIN ": truncated length prefix (%zu bytes)", len);
	const unsigned char *u = (const unsigned char *)buf;
	uint32_t n = le32_get(u);
	if (n > CORDON_WIRE_MAX)
		return cordon_err(err, EFBIG, ORIGIN ": length %u exceeds the limit of %u", n,
				  CORDON_WIRE_MAX);
	if ((size_t)n != len - 4)
		return cordon_err(err, EINVAL,
				  ORIGIN ": length prefix says %u bytes, frame has %zu", n,
				  len - 4);
	struct cordon_policy p = {0};
	struct in in = {.p = u + 4, .len = n, .err = err};
	int r = decode_payload(&in, &p);
	if (r < 0) {
		cordon_policy_free(&p);
		return r;
	}
	*out = p;
	return 0;
}

#ifndef MSG_CMSG_CLOEXEC
#define MSG_CMSG_CLOEXEC 0
#endif

/* The length prefix, and on a socket a descriptor sent with it (*PASSED). */
static int read_head(int fd, unsigned char hdr[4], int *passed)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	struct iovec iov = {.iov_base = hdr, .iov_len = 4};
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = c.buf,
			   .msg_controllen = sizeof(c.buf)};
	ssize_t n;
	do
		n = recvmsg(fd, &m, MSG_CMSG_CLOEXEC | MSG_WAITALL);
	while (n < 0 && errno == EINTR);
	if (n < 0 && errno == ENOTSOCK) /* a memfd or a pipe */
		return cordon_read_full(fd, (char *)hdr, 4);
	if (n < 0)
		return -errno;
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		size_t k = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		for (size_t i = 0; i < k; i++) {
			int got;
			memcpy(&got, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
			if (*passed < 0 && k == 1)
				*passed = got;
			else
				close(got); /* more than one: none is trusted */
		}
	}
	if ((m.msg_flags & MSG_CTRUNC) && *passed >= 0) {
		close(*passed);
		*passed = -1;
	}
	if (n == 4)
		return 0;
	int r = cordon_read_full(fd, (char *)hdr + n, 4 - (size_t)n);
	return r;
}

static int recv_frame(int fd, bool whole, struct cordon_policy *out, int *passed,
		      struct cordon_error *err);

int cordon_wire_read_fd(int fd, struct cordon_policy *out, struct cordon_error *err)
{
	int passed = -1;
	int r = recv_frame(fd, true, out, &passed, err);
	if (passed >= 0)
		close(passed);
	return r;
}

int cordon_wire_recv_fd(int fd, struct cordon_policy *out, int *passed, struct cordon_error *err)
{
	return recv_frame(fd, false, out, passed, err);
}

/* WHOLE: the frame is all FD holds (a memfd, a pipe): anything after it is
 * an error. On the supervisor's channel the hand-over follows it. */
static int recv_frame(int fd, bool whole, struct cordon_policy *out, int *passed,
		      struct cordon_error *err)
{
	unsigned char hdr[4];
	*passed = -1;
	int r = read_head(fd, hdr, passed);
	if (r < 0)
		return cordon_err(err, r, ORIGIN ": reading length prefix: %s",
				  r == -EPIPE ? "truncated" : strerror(-r));
	uint32_t n = le32_get(hdr);
	if (n > CORDON_WIRE_MAX)
		return cordon_err(err, EFBIG, ORIGIN ": length %u exceeds the limit of %u", n,
				  CORDON_WIRE_MAX);
	cleanup_free char *buf = malloc((size_t)n + 4);
	if (!buf)
		return cordon_err(err, ENOMEM, "out of memory");
	memcpy(buf, hdr, 4);
	r = cordon_read_full(fd, buf + 4, n);
	if (r < 0)
		return cordon_err(err, r, ORIGIN ": reading %u bytes: %s", n,
				  r == -EPIPE ? "truncated" : strerror(-r));
	/* Nothing may follow the frame. */
	char extra;
	ssize_t more = 0;
	while (whole && (more = read(fd, &extra, 1)) < 0 && errno == EINTR)
		;
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
