/* The policy on the FD: round trip and hostile input. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <unistd.h>

#include "cordon/wire.h"
#include "helpers.h"

static void sample(struct cordon_policy *p)
{
	memset(p, 0, sizeof(*p));
	p->sandbox = true;
	p->allow_network = false;
	p->on_unsupported = CORDON_UNSUPPORTED_WARN;
	p->project = strdup("/home/u/proj \"quoted\"\\ ünï");
	p->home = strdup("/home/u");
	p->session = strdup("0123456789abcdef");
	cordon_policy_add_rule(p, "/usr/bin", CORDON_ACCESS_READ | CORDON_ACCESS_EXEC,
			       "system_paths.executable (default)");
	cordon_policy_add_rule(p, "/tmp", CORDON_ACCESS_READ | CORDON_ACCESS_WRITE,
			       "system_paths.read_write");
	cordon_policy_add_rule(p, p->project, CORDON_ACCESS_ALL, "project");
	cordon_policy_add_rule(p, "/home/u/data", CORDON_ACCESS_READ, "--allow-read");
	p->rules[p->n_rules - 1].nofollow = true;
	p->rules[p->n_rules - 1].written = strdup("/home/u/proj \"quoted\"\\ ünï/../lnk/.");
	p->rules[1].shared = true;
	cordon_strv_push(&p->env_allow, "PATH");
	cordon_strv_push(&p->env_allow, "LC_*");
}

static void expect_same(const struct cordon_policy *a, const struct cordon_policy *b)
{
	cr_expect_eq(a->sandbox, b->sandbox);
	cr_expect_eq(a->allow_network, b->allow_network);
	cr_expect_eq(a->on_unsupported, b->on_unsupported);
	cr_expect_str_eq(a->project, b->project);
	cr_expect_str_eq(a->session, b->session);
	if (a->home || b->home)
		cr_expect_str_eq(a->home, b->home);
	cr_assert_eq(a->n_rules, b->n_rules);
	for (size_t i = 0; i < a->n_rules; i++) {
		cr_expect_str_eq(a->rules[i].path, b->rules[i].path);
		cr_expect_eq(a->rules[i].access, b->rules[i].access);
		cr_expect_str_eq(a->rules[i].source, b->rules[i].source);
		cr_expect_eq(a->rules[i].shared, b->rules[i].shared);
		cr_expect_eq(a->rules[i].nofollow, b->rules[i].nofollow, "%s", a->rules[i].path);
		cr_expect((!a->rules[i].written && !b->rules[i].written) ||
				  (a->rules[i].written && b->rules[i].written &&
				   strcmp(a->rules[i].written, b->rules[i].written) == 0),
			  "%s", a->rules[i].path);
	}
	cr_assert_eq(a->env_allow.n, b->env_allow.n);
	for (size_t i = 0; i < a->env_allow.n; i++)
		cr_expect_str_eq(a->env_allow.v[i], b->env_allow.v[i]);
}

Test(wire, round_trip_buffer)
{
	struct cordon_policy p, q;
	struct cordon_error err = {0};
	sample(&p);
	char *buf;
	size_t len;
	cr_assert_eq(cordon_wire_encode(&p, &buf, &len, &err), 0, "%s", err.msg);
	cr_assert_eq(cordon_wire_decode(buf, len, &q, &err), 0, "%s", err.msg);
	expect_same(&p, &q);
	cordon_policy_free(&q);
	/* home may be null */
	free(p.home);
	p.home = NULL;
	free(buf);
	cr_assert_eq(cordon_wire_encode(&p, &buf, &len, &err), 0, "%s", err.msg);
	cr_assert_eq(cordon_wire_decode(buf, len, &q, &err), 0, "%s", err.msg);
	cr_expect_null(q.home);
	cordon_policy_free(&q);
	/* so may the project (started in $HOME: none) */
	free(p.project);
	p.project = NULL;
	free(buf);
	cr_assert_eq(cordon_wire_encode(&p, &buf, &len, &err), 0, "%s", err.msg);
	cr_assert_eq(cordon_wire_decode(buf, len, &q, &err), 0, "%s", err.msg);
	cr_expect_null(q.project);
	cr_expect_str_eq(q.session, p.session);
	cr_expect_eq(q.n_rules, p.n_rules);
	cordon_policy_free(&q);
	cordon_policy_free(&p);
	free(buf);
}

Test(wire, round_trip_memfd_survives_exec_flags)
{
	struct cordon_policy p, q;
	struct cordon_error err = {0};
	sample(&p);
	int fd = cordon_wire_to_memfd(&p, &err);
	cr_assert_geq(fd, 0, "%s", err.msg);
	cr_expect_eq(fcntl(fd, F_GETFD) & FD_CLOEXEC, 0, "the policy fd must cross exec");
	cr_expect_lt(write(fd, "x", 1), 0, "the memfd is sealed against writes");
	cr_assert_eq(cordon_wire_read_fd(fd, &q, &err), 0, "%s", err.msg);
	expect_same(&p, &q);
	close(fd);
	cordon_policy_free(&p);
	cordon_policy_free(&q);
}

Test(wire, read_from_pipe_and_reject_trailing_bytes)
{
	struct cordon_policy p, q;
	struct cordon_error err = {0};
	sample(&p);
	char *buf;
	size_t len;
	cr_assert_eq(cordon_wire_encode(&p, &buf, &len, &err), 0);
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(write(fds[1], buf, len), (ssize_t)len);
	close(fds[1]);
	cr_assert_eq(cordon_wire_read_fd(fds[0], &q, &err), 0, "%s", err.msg);
	close(fds[0]);
	cordon_policy_free(&q);
	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(write(fds[1], buf, len), (ssize_t)len);
	cr_assert_eq(write(fds[1], "junk", 4), 4);
	close(fds[1]);
	cr_expect_lt(cordon_wire_read_fd(fds[0], &q, &err), 0);
	cr_expect(strstr(err.msg, "unexpected bytes after the frame") != NULL, "%s", err.msg);
	close(fds[0]);
	cordon_policy_free(&p);
	free(buf);
}

Test(wire, truncated_frames)
{
	struct cordon_policy p, q;
	struct cordon_error err = {0};
	sample(&p);
	char *buf;
	size_t len;
	cr_assert_eq(cordon_wire_encode(&p, &buf, &len, &err), 0);
	for (size_t cut = 0; cut < len; cut += (cut < 8 ? 1 : 37)) {
		cr_expect_lt(cordon_wire_decode(buf, cut, &q, &err), 0, "accepted %zu of %zu bytes",
			     cut, len);
		int fds[2];
		cr_assert_eq(pipe(fds), 0);
		cr_assert_eq(write(fds[1], buf, cut), (ssize_t)cut);
		close(fds[1]);
		cr_expect_lt(cordon_wire_read_fd(fds[0], &q, &err), 0);
		close(fds[0]);
	}
	cordon_policy_free(&p);
	free(buf);
}

Test(wire, oversized_length_refused_before_allocation)
{
	/* A pipe holding only a huge length: decoding must fail on the length
	 * itself, not try to allocate or wait for 4 GiB. */
	unsigned char hdr[4] = {0xff, 0xff, 0xff, 0xff};
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	cr_assert_eq(write(fds[1], hdr, 4), 4);
	struct cordon_policy q;
	struct cordon_error err = {0};
	cr_expect_lt(cordon_wire_read_fd(fds[0], &q, &err), 0);
	cr_expect(strstr(err.msg, "exceeds the limit") != NULL, "%s", err.msg);
	close(fds[0]);
	close(fds[1]);
	uint32_t n = CORDON_WIRE_MAX + 1;
	unsigned char b[4] = {n & 0xff, (n >> 8) & 0xff, (n >> 16) & 0xff, n >> 24};
	cr_expect_lt(cordon_wire_decode((char *)b, 4, &q, &err), 0);
	cr_expect(strstr(err.msg, "exceeds the limit") != NULL, "%s", err.msg);
}

/* Frames written by hand, byte by byte, to the format in wire.h. */
struct frame {
	unsigned char b[512];
	size_t n;
};

static void f_u8(struct frame *f, unsigned v)
{
	f->b[f->n++] = (unsigned char)v;
}

static void f_u32(struct frame *f, uint32_t v)
{
	for (int i = 0; i < 4; i++)
		f_u8(f, (v >> (8 * i)) & 0xff);
}

static void f_bytes(struct frame *f, const char *s, size_t n)
{
	f_u32(f, (uint32_t)n);
	memcpy(f->b + f->n, s, n);
	f->n += n;
}

static void f_str(struct frame *f, const char *s)
{
	f_bytes(f, s, strlen(s));
}

/* version, flags, project, [home], session */
static void f_head(struct frame *f, unsigned version, unsigned flags, const char *project)
{
	f_u8(f, version);
	f_u8(f, flags);
	f_str(f, project);
	if (flags & 8)
		f_str(f, "/home/u");
	f_str(f, "0123456789abcdef");
}

static void f_rule(struct frame *f, unsigned access, const char *path)
{
	f_u8(f, access);
	f_str(f, path);
	f_str(f, "s");
}

static void good(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1 | 2 | 8, "/p");
	f_u32(f, 2);
	f_rule(f, 5, "/usr");
	f_rule(f, 0x80 | 1, "/etc"); /* already in the watcher's ruleset */
	f_u32(f, 1);
	f_str(f, "PATH");
	f_u32(f, 1);
	f_u8(f, CORDON_GUARD_HIDE);
	f_str(f, "/home/u/.ssh");
	f_str(f, "hidden_paths");
	f_u32(f, 1);
	f_str(f, "/p/sub/.envrc");
	f_u32(f, 1);
	f_str(f, "/p/ex/.envrc");
	f_u32(f, 1);
	f_str(f, "/p/pre");
	f_u32(f, 1);
	f_str(f, "GIT_CONFIG_GLOBAL=/g");
	f_u32(f, 1);
	f_str(f, "/home/u/.config/*/Cookies");
}

static int decode_frame(const struct frame *f, struct cordon_policy *q, struct cordon_error *err)
{
	unsigned char buf[sizeof(f->b) + 4];
	uint32_t n = (uint32_t)f->n;
	for (int i = 0; i < 4; i++)
		buf[i] = (n >> (8 * i)) & 0xff;
	memcpy(buf + 4, f->b, f->n);
	return cordon_wire_decode((const char *)buf, f->n + 4, q, err);
}

/* Parameters cross into the test's own process by value: an index into
 * the builders, not a function pointer. */
struct hostile {
	int build;
	char expect[80];
};

static void h_empty(struct frame *f)
{
	(void)f;
}
static void h_version(struct frame *f)
{
	f_head(f, 1, 1, "/p");
	f_u32(f, 0);
	f_u32(f, 0);
}
static void h_flags(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1 | 0x80, "/p");
	f_u32(f, 0);
	f_u32(f, 0);
}
static void h_project(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "p");
	f_u32(f, 0);
	f_u32(f, 0);
}
static void h_home_missing(struct frame *f)
{
	f_u8(f, CORDON_WIRE_VERSION);
	f_u8(f, 1 | 8);
	f_str(f, "/p");
}
static void h_session_nul(struct frame *f)
{
	f_u8(f, CORDON_WIRE_VERSION);
	f_u8(f, 1);
	f_str(f, "/p");
	f_bytes(f, "ab\0cd", 5);
	f_u32(f, 0);
	f_u32(f, 0);
}
static void h_access(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 1);
	f_rule(f, 8 | 1, "/usr");
	f_u32(f, 0);
}
static void h_rule_relative(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 1);
	f_rule(f, 1, "usr");
	f_u32(f, 0);
}
static void h_rule_empty(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 1);
	f_rule(f, 1, "");
	f_u32(f, 0);
}
static void h_rule_count(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 2);
	f_rule(f, 1, "/usr");
}
static void h_rule_truncated(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 2);
	f_rule(f, 1, "/usr");
	f_u8(f, 1);
	f_u32(f, 500); /* rules[1].path claims more than is left */
	for (int i = 0; i < 6; i++)
		f_u8(f, '/');
}
static void h_string_past_end(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 1);
	f_u8(f, 1);
	f_str(f, "/usr");
	f_u32(f, 1000); /* the source claims more bytes than there are */
	f_u8(f, 's');
}
static void h_env_count(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 0);
	f_u32(f, 0xffffffffu);
}
static void h_trailing(struct frame *f)
{
	good(f);
	f_u8(f, 0);
}
static void h_no_env(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 0);
}
static void h_guard_kind(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 0);
	f_u32(f, 0);
	f_u32(f, 1);
	f_u8(f, 7);
	f_str(f, "/p/.git/hooks");
	f_str(f, "s");
}
static void h_guard_relative(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 0);
	f_u32(f, 0);
	f_u32(f, 1);
	f_u8(f, CORDON_GUARD_PROTECT);
	f_str(f, ".git/hooks");
	f_str(f, "s");
}

static void h_allowed_relative(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 0);
	f_u32(f, 0);
	f_u32(f, 0);
	f_u32(f, 1);
	f_str(f, "sub/.envrc");
}
static void h_no_allowed(struct frame *f)
{
	f_head(f, CORDON_WIRE_VERSION, 1, "/p");
	f_u32(f, 0);
	f_u32(f, 0);
	f_u32(f, 0);
}

static void (*const builders[])(struct frame *f) = {
	h_empty,          h_version,          h_flags,           h_project,
	h_home_missing,   h_session_nul,      h_access,          h_rule_relative,
	h_rule_empty,     h_rule_count,       h_string_past_end, h_env_count,
	h_trailing,       h_no_env,           h_rule_truncated,  h_guard_kind,
	h_guard_relative, h_allowed_relative, h_no_allowed,
};

static struct hostile hostile_cases[] = {
	{0, "truncated at byte 0 (reading the version)"},
	{1, "version: expected 7, got 1"},
	{2, "flags: unknown bits 0x80"},
	{3, "project: expected an absolute path, got \"p\""},
	{4, "(reading home)"},
	{5, "session: contains a NUL byte"},
	{6, "rules[0].access: unknown bits 0x9"},
	{7, "rules[0].path: expected an absolute path"},
	{8, "rules[0].path: expected an absolute path"},
	{9, "2 rules cannot fit in the 14 bytes left"},
	{10, "(reading rules[0].source)"},
	{11, "(reading env[0])"},
	{12, "1 unexpected bytes after the policy"},
	{13, "(reading the number of env names)"},
	{14, "(reading rules[1].path)"},
	{15, "guards[0].kind: unknown 7"},
	{16, "guards[0].path: expected an absolute path"},
	{17, "envrc_allowed[0]: expected an absolute path"},
	{18, "(reading the number of allowed .envrc files)"},
};

ParameterizedTestParameters(wire, hostile)
{
	return cr_make_param_array(struct hostile, hostile_cases,
				   sizeof(hostile_cases) / sizeof(hostile_cases[0]));
}

ParameterizedTest(struct hostile *h, wire, hostile)
{
	struct frame f = {0};
	builders[h->build](&f);
	struct cordon_policy q;
	struct cordon_error err = {0};
	cr_assert_lt(decode_frame(&f, &q, &err), 0, "accepted, expected: %s", h->expect);
	cr_expect(strstr(err.msg, h->expect) != NULL, "got: %s\nwant: %s", err.msg, h->expect);
}

Test(wire, valid_hand_written_frame)
{
	struct frame f = {0};
	good(&f);
	struct cordon_policy q;
	struct cordon_error err = {0};
	cr_assert_eq(decode_frame(&f, &q, &err), 0, "%s", err.msg);
	cr_expect(q.sandbox);
	cr_expect(q.allow_network);
	cr_expect_eq(q.on_unsupported, CORDON_UNSUPPORTED_REFUSE);
	cr_expect_str_eq(q.project, "/p");
	cr_expect_str_eq(q.home, "/home/u");
	cr_expect_str_eq(q.session, "0123456789abcdef");
	cr_assert_eq(q.n_rules, 2);
	cr_expect_str_eq(q.rules[0].path, "/usr");
	cr_expect_eq(q.rules[0].access, CORDON_ACCESS_READ | CORDON_ACCESS_EXEC);
	cr_expect_str_eq(q.rules[0].source, "s");
	cr_expect_not(q.rules[0].prepared);
	cr_expect_str_eq(q.rules[1].path, "/etc");
	cr_expect_eq(q.rules[1].access, CORDON_ACCESS_READ);
	cr_expect(q.rules[1].prepared);
	cr_assert_eq(q.env_allow.n, 1);
	cr_expect_str_eq(q.env_allow.v[0], "PATH");
	cr_assert_eq(q.n_guards, 1);
	cr_expect_str_eq(q.guards[0].path, "/home/u/.ssh");
	cr_expect_eq(q.guards[0].kind, CORDON_GUARD_HIDE);
	cr_expect_str_eq(q.guards[0].source, "hidden_paths");
	cr_assert_eq(q.envrc_allowed.n, 1);
	cr_expect_str_eq(q.envrc_allowed.v[0], "/p/sub/.envrc");
	cr_assert_eq(q.envrc_whitelisted.n, 1);
	cr_expect_str_eq(q.envrc_whitelisted.v[0], "/p/ex/.envrc");
	cr_assert_eq(q.envrc_prefixes.n, 1);
	cr_expect_str_eq(q.envrc_prefixes.v[0], "/p/pre");
	cr_assert_eq(q.git_env.n, 1);
	cr_expect_str_eq(q.git_env.v[0], "GIT_CONFIG_GLOBAL=/g");
	cr_assert_eq(q.hidden_globs.n, 1);
	cr_expect_str_eq(q.hidden_globs.v[0], "/home/u/.config/*/Cookies");
	/* Encoding it again gives the hand-written frame, byte for byte. */
	char *buf;
	size_t len;
	cr_assert_eq(cordon_wire_encode(&q, &buf, &len, &err), 0, "%s", err.msg);
	cr_assert_eq(len, f.n + 4);
	cr_expect_eq(memcmp(buf + 4, f.b, f.n), 0);
	free(buf);
	cordon_policy_free(&q);
}

Test(wire, length_mismatch)
{
	char frame[8] = {5, 0, 0, 0, 2, 1, 0, 0};
	struct cordon_policy q;
	struct cordon_error err = {0};
	cr_expect_lt(cordon_wire_decode(frame, 6, &q, &err), 0);
	cr_expect(strstr(err.msg, "length prefix says 5 bytes, frame has 2") != NULL, "%s",
		  err.msg);
}

Test(wire, fd_number_parsing)
{
	cr_expect_eq(cordon_wire_parse_fd("3"), 3);
	cr_expect_eq(cordon_wire_parse_fd("1023"), 1023);
	cr_expect_lt(cordon_wire_parse_fd("2"), 0, "stdio is never the policy fd");
	cr_expect_lt(cordon_wire_parse_fd("-4"), 0);
	cr_expect_lt(cordon_wire_parse_fd("4x"), 0);
	cr_expect_lt(cordon_wire_parse_fd(""), 0);
	cr_expect_lt(cordon_wire_parse_fd(" 4"), 0);
	cr_expect_lt(cordon_wire_parse_fd("99999999999999999999"), 0);
	cr_expect_lt(cordon_wire_parse_fd(NULL), 0);
}

Test(wire, oversized_policy_refused_when_encoding)
{
	/* One string longer than a whole frame: "too large", not "out of memory". */
	struct cordon_policy p;
	struct cordon_error err = {0};
	sample(&p);
	size_t n = CORDON_WIRE_MAX + 1;
	char *huge = malloc(n + 1);
	memset(huge, 's', n);
	huge[n] = '\0';
	cordon_policy_add_rule(&p, "/opt", CORDON_ACCESS_READ, huge);
	char *buf = NULL;
	size_t len = 0;
	cr_expect_lt(cordon_wire_encode(&p, &buf, &len, &err), 0);
	cr_expect_eq(err.code, EFBIG, "%s", err.msg);
	cr_expect(strstr(err.msg, "policy too large") != NULL, "%s", err.msg);
	cr_expect_null(buf);
	free(huge);
	cordon_policy_free(&p);
}
