/* The policy on the FD: round trip and hostile input. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
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

struct hostile {
	char json[400];
	char expect[64];
};

#define RULE "{\"path\":\"/usr\",\"access\":\"r-x\",\"source\":\"s\"}"
#define GOOD_REST                                                                                  \
	"\"on_unsupported\":\"refuse\",\"project\":\"/p\",\"home\":null,\"session\":\"x\",\"env\":[]"

static struct hostile hostile_cases[] = {
	{"[]", "expected an object"},
	{"{\"version\":1}", "missing"},
	{"{\"version\":2,\"sandbox\":true,\"allow_network\":true," GOOD_REST ",\"rules\":[]}",
	 "version: expected 1"},
	{"{\"version\":\"1\",\"sandbox\":true,\"allow_network\":true," GOOD_REST ",\"rules\":[]}",
	 "version: expected 1"},
	{"{\"version\":1,\"sandbox\":\"true\",\"allow_network\":true," GOOD_REST ",\"rules\":[]}",
	 "sandbox: expected true or false"},
	{"{\"version\":1,\"sandbox\":1,\"allow_network\":true," GOOD_REST ",\"rules\":[]}",
	 "sandbox: expected true or false"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true," GOOD_REST ",\"rules\":{}}",
	 "rules: expected an array"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true," GOOD_REST ",\"rules\":[1]}",
	 "rules[0]: expected an object"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true," GOOD_REST
	 ",\"rules\":[{\"path\":\"/usr\",\"access\":\"rwz\",\"source\":\"s\"}]}",
	 "rules[0].access"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true," GOOD_REST
	 ",\"rules\":[{\"path\":\"usr\",\"access\":\"r--\",\"source\":\"s\"}]}",
	 "expected an absolute path"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true," GOOD_REST
	 ",\"rules\":[{\"path\":\"/usr\",\"access\":\"r--\"}]}",
	 "rules[0]: missing source"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true," GOOD_REST
	 ",\"rules\":[{\"path\":\"/u\",\"access\":\"r--\",\"source\":\"s\",\"x\":1}]}",
	 "rules[0].x: unknown key"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true," GOOD_REST ",\"rules\":[" RULE
	 "],\"extra\":0}",
	 "extra: unknown key"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true,\"on_unsupported\":\"maybe\",\"project\":\"/p\",\"home\":null,\"session\":\"x\",\"env\":[],\"rules\":[]}",
	 "on_unsupported"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true,\"on_unsupported\":\"refuse\",\"project\":\"p\",\"home\":null,\"session\":\"x\",\"env\":[],\"rules\":[]}",
	 "project: expected an absolute path"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true,\"on_unsupported\":\"refuse\",\"project\":\"/p\",\"home\":null,\"session\":\"x\",\"env\":[7],\"rules\":[]}",
	 "env[0]: expected a string"},
	{"{\"version\":1,\"sandbox\":true,\"allow_network\":true," GOOD_REST ",\"rules\":[]",
	 "malformed JSON"},
};

ParameterizedTestParameters(wire, hostile)
{
	return cr_make_param_array(struct hostile, hostile_cases,
				   sizeof(hostile_cases) / sizeof(hostile_cases[0]));
}

ParameterizedTest(struct hostile *h, wire, hostile)
{
	size_t n = strlen(h->json);
	char *frame = malloc(n + 4);
	frame[0] = (char)(n & 0xff);
	frame[1] = (char)((n >> 8) & 0xff);
	frame[2] = frame[3] = 0;
	memcpy(frame + 4, h->json, n);
	struct cordon_policy q;
	struct cordon_error err = {0};
	cr_expect_lt(cordon_wire_decode(frame, n + 4, &q, &err), 0, "accepted %s", h->json);
	cr_expect(strstr(err.msg, h->expect) != NULL, "got: %s\nwant: %s", err.msg, h->expect);
	free(frame);
}

Test(wire, valid_hand_written_frame)
{
	const char *json = "{\"version\":1,\"sandbox\":true,\"allow_network\":true," GOOD_REST
			   ",\"rules\":[" RULE "]}";
	size_t n = strlen(json);
	char *frame = malloc(n + 4);
	frame[0] = (char)(n & 0xff);
	frame[1] = (char)((n >> 8) & 0xff);
	frame[2] = frame[3] = 0;
	memcpy(frame + 4, json, n);
	struct cordon_policy q;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_wire_decode(frame, n + 4, &q, &err), 0, "%s", err.msg);
	cr_expect_eq(q.n_rules, 1);
	cr_expect_eq(q.rules[0].access, CORDON_ACCESS_READ | CORDON_ACCESS_EXEC);
	cordon_policy_free(&q);
	free(frame);
}

Test(wire, length_mismatch)
{
	const char *json = "{}";
	char frame[8] = {5, 0, 0, 0, '{', '}', ' ', ' '};
	struct cordon_policy q;
	struct cordon_error err = {0};
	(void)json;
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
