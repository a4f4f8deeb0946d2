/* Seatbelt profile generation (portable, tested here; applied only on
 * macOS). Paths are parameters, never profile text. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cordon/sbpl.h"
#include "helpers.h"

static const char *const odd_paths[] = {
	"/Users/me/pro\"ject",
	"/Users/me/back\\slash",
	"/Users/me/(paren) dir",
	"/Users/me/spa ce",
	"/Users/me/caf\xc3\xa9 \xe6\x97\xa5\xe6\x9c\xac",
	"/Users/me/semi;colon",
	"/Users/me/new\nline",
	"/tmp/in-tmp",
	"/var/folders/zz-var-tail",
	"/Users/me/#\"hash",
};
#define N_ODD (sizeof(odd_paths) / sizeof(odd_paths[0]))

static void make_policy(struct cordon_policy *p, bool sandbox, bool network)
{
	memset(p, 0, sizeof(*p));
	p->sandbox = sandbox;
	p->allow_network = network;
	unsigned acc[] = {CORDON_ACCESS_READ, CORDON_ACCESS_READ | CORDON_ACCESS_WRITE,
			  CORDON_ACCESS_READ | CORDON_ACCESS_EXEC, CORDON_ACCESS_ALL};
	for (size_t i = 0; i < N_ODD; i++)
		cr_assert_eq(cordon_policy_add_rule(p, odd_paths[i], acc[i % 4], "test"), 0);
	cr_assert_eq(cordon_policy_add_rule(p, "/private/var/run/mDNSResponder",
					    CORDON_ACCESS_READ | CORDON_ACCESS_WRITE, "test"),
		     0);
}

static const char *param(const struct cordon_sbpl *s, const char *name)
{
	for (size_t i = 0; i < s->n_params; i++)
		if (strcmp(s->params[2 * i], name) == 0)
			return s->params[2 * i + 1];
	return NULL;
}

/* The parameter whose value is VALUE, or NULL. */
static const char *param_named(const struct cordon_sbpl *s, const char *value)
{
	for (size_t i = 0; i < s->n_params; i++)
		if (strcmp(s->params[2 * i + 1], value) == 0)
			return s->params[2 * i];
	return NULL;
}

static void expect_well_formed(const struct cordon_sbpl *s)
{
	int depth = 0;
	bool in_str = false, comment = false;
	for (const char *c = s->profile; *c; c++) {
		if (comment) {
			comment = *c != '\n';
			continue;
		}
		if (in_str) {
			in_str = *c != '"';
			continue;
		}
		if (*c == ';')
			comment = true;
		else if (*c == '"')
			in_str = true;
		else if (*c == '(')
			depth++;
		else if (*c == ')')
			cr_assert_geq(--depth, 0, "unbalanced ')' in:\n%s", s->profile);
	}
	cr_expect_eq(depth, 0, "unbalanced parentheses:\n%s", s->profile);
	cr_expect_not(in_str, "unterminated string");
	/* Every (param "X") is bound, and every binding is used. */
	for (const char *c = s->profile; (c = strstr(c, "(param \"")); c++) {
		char name[16];
		cr_assert_eq(sscanf(c, "(param \"%15[^\"]\")", name), 1);
		cr_expect_not_null(param(s, name), "unbound parameter %s", name);
	}
	for (size_t i = 0; i < s->n_params; i++) {
		char ref[32];
		snprintf(ref, sizeof(ref), "(param \"%s\")", s->params[2 * i]);
		cr_expect_not_null(strstr(s->profile, ref), "unused parameter %s",
				   s->params[2 * i]);
	}
	cr_expect_null(s->params[2 * s->n_params], "parameters are NULL-terminated");
}

Test(sbpl, paths_are_parameters_never_text)
{
	struct cordon_policy p;
	make_policy(&p, true, false);
	struct cordon_sbpl s;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_sbpl_generate(&p, NULL, &s, &err), 0, "%s", err.msg);
	cr_expect_eq(strncmp(s.profile, "(version 1)\n(deny default)\n", 27), 0, "%s", s.profile);
	expect_well_formed(&s);
	for (size_t i = 0; i < N_ODD; i++) {
		char *canon = cordon_sbpl_canonical(odd_paths[i]);
		const char *name = param_named(&s, canon);
		cr_expect_not_null(name, "no parameter holds %s", canon);
		/* The distinctive part of each path never appears in the text. */
		const char *tail = strrchr(odd_paths[i], '/') + 1;
		cr_expect_null(strstr(s.profile, tail), "'%s' spliced into the profile", tail);
		free(canon);
	}
	cr_expect_str_eq(param(&s, param_named(&s, "/private/tmp/in-tmp")), "/private/tmp/in-tmp");
	cr_expect_null(param_named(&s, "/tmp/in-tmp"), "/tmp must become /private/tmp");
	cr_expect_not_null(param_named(&s, "/private/var/folders/zz-var-tail"));
	/* Access: read-only gets file-read* alone; read-write adds file-write*;
	 * executable adds process-exec*. */
	char line[256];
	snprintf(line, sizeof(line), "(allow file-read* (subpath (param \"%s\")))",
		 param_named(&s, odd_paths[0]));
	cr_expect_not_null(strstr(s.profile, line), "%s", s.profile);
	snprintf(line, sizeof(line), "(allow file-read* file-write* (subpath (param \"%s\")))",
		 param_named(&s, odd_paths[1]));
	cr_expect_not_null(strstr(s.profile, line), "%s", s.profile);
	snprintf(line, sizeof(line),
		 "(allow file-read* process-exec* file-map-executable (subpath (param \"%s\")))",
		 param_named(&s, odd_paths[2]));
	cr_expect_not_null(strstr(s.profile, line), "%s", s.profile);
	/* Offline: no network rule, not every unix socket, and no DNS socket. */
	cr_expect_null(strstr(s.profile, "(allow network*)\n"));
	cr_expect_null(strstr(s.profile, "(allow network* (remote unix-socket))"));
	cr_expect_null(param_named(&s, "/private/var/run/mDNSResponder"));
	cr_expect_null(strstr(s.profile, "mDNSResponder"), "%s", s.profile);
	cr_expect_not_null(strstr(s.profile, "(allow signal (target self) (target children))"));
	cr_expect_not_null(strstr(s.profile, "(allow process-fork)"));
	cordon_sbpl_free(&s);
	cordon_policy_free(&p);
}

Test(sbpl, network_on_and_the_fingerprint_last)
{
	struct cordon_policy p;
	make_policy(&p, true, true);
	struct cordon_fingerprint fp = {.dir = "/var/folders/T/cordon-fp-1",
					.allow = "/var/folders/T/cordon-fp-1/allow",
					.deny = "/var/folders/T/cordon-fp-1/deny"};
	struct cordon_sbpl s;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_sbpl_generate(&p, &fp, &s, &err), 0, "%s", err.msg);
	expect_well_formed(&s);
	cr_expect_not_null(strstr(s.profile, "(allow network*)\n"));
	cr_expect_not_null(param_named(&s, "/private/var/run/mDNSResponder"));
	const char *allow = param_named(&s, "/private/var/folders/T/cordon-fp-1/allow");
	const char *deny = param_named(&s, "/private/var/folders/T/cordon-fp-1/deny");
	const char *dir = param_named(&s, "/private/var/folders/T/cordon-fp-1");
	cr_assert(allow && deny && dir);
	char want[512];
	snprintf(want, sizeof(want),
		 "(allow file-read* (literal (param \"%s\")))\n"
		 "(deny file-read* (literal (param \"%s\")))\n"
		 "(deny file-write* (subpath (param \"%s\")))\n",
		 allow, deny, dir);
	size_t n = strlen(s.profile), w = strlen(want);
	cr_expect(n >= w && strcmp(s.profile + n - w, want) == 0,
		  "the fingerprint must come last (last match wins):\n%s", s.profile);
	cordon_sbpl_free(&s);
	cordon_policy_free(&p);
}

/* Network by domain: out only to the proxy's loopback port; no name
 * lookups of the session's own (no mDNSResponder), no network* at all.
 * Without a proxy port, no internet socket either. */
Test(sbpl, domains_reach_only_the_proxy)
{
	for (unsigned port = 0; port <= 43210; port += 43210) {
		struct cordon_policy p;
		make_policy(&p, true, true);
		p.domains = true;
		p.proxy_port = port;
		struct cordon_sbpl s;
		struct cordon_error err = {0};
		cr_assert_eq(cordon_sbpl_generate(&p, NULL, &s, &err), 0, "%s", err.msg);
		expect_well_formed(&s);
		cr_expect_null(strstr(s.profile, "(allow network*)"), "%s", s.profile);
		cr_expect_null(strstr(s.profile, "mDNSResponder\")))"), "%s", s.profile);
		cr_expect_null(strstr(s.profile, "com.apple.dnssd.service"), "%s", s.profile);
		cr_expect_null(strstr(s.profile, "(allow system-socket)\n"), "%s", s.profile);
		if (port) {
			cr_expect_not_null(strstr(s.profile, "(allow network-outbound (remote ip "
							     "\"localhost:43210\"))\n"),
					   "%s", s.profile);
			cr_expect_not_null(strstr(s.profile, "(socket-domain AF_INET))"));
		} else {
			cr_expect_null(strstr(s.profile, "remote ip"), "%s", s.profile);
			cr_expect_null(strstr(s.profile, "AF_INET)"), "%s", s.profile);
		}
		cordon_sbpl_free(&s);
		cordon_policy_free(&p);
	}
}

Test(sbpl, disabled_is_fingerprint_only)
{
	struct cordon_policy p;
	make_policy(&p, false, true);
	struct cordon_fingerprint fp = {.dir = "/d", .allow = "/d/a", .deny = "/d/b"};
	struct cordon_sbpl s;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_sbpl_generate(&p, &fp, &s, &err), 0, "%s", err.msg);
	expect_well_formed(&s);
	cr_expect_eq(strncmp(s.profile, "(version 1)\n(allow default)\n", 28), 0, "%s", s.profile);
	cr_expect_null(strstr(s.profile, "deny default"));
	cr_expect_null(strstr(s.profile, "subpath (param \"P3\")"), "no policy rules: %s",
		       s.profile);
	cr_expect_eq(s.n_params, 3);
	cr_expect_not_null(strstr(s.profile, "(deny file-read* (literal (param"));
	cordon_sbpl_free(&s);
	cordon_policy_free(&p);
}

/* cordon explain --format sbpl: the bindings as ';' comment lines (JSON
 * strings, so a newline in a path cannot end the comment), then the profile. */
Test(sbpl, explain_prints_the_profile)
{
	struct world w;
	world_init(&w, "sbpl", "");
	char *odd = path_join(w.proj, "a \"quoted\" (dir)\nline");
	char *json;
	asprintf(&json, "{" WORLD_BASE_RW ", \"additional_read_only_paths\": [\"%s\"]}",
		 "a \\\"quoted\\\" (dir)\\nline");
	free(w.cfg);
	w.cfg = write_file(w.proj, "cordon.json", json);
	free(write_file(w.proj, "a \"quoted\" (dir)\nline/f", "x"));
	struct run_result r =
		run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "--format", "sbpl", NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	cr_expect_eq(strncmp(r.out, "; P0 = \"", 8), 0, "%s", r.out);
	cr_expect_not_null(strstr(r.out, "\n(version 1)\n(deny default)\n"), "%s", r.out);
	cr_expect_not_null(strstr(r.out, "(dir)\\nline\"\n"), "the binding, escaped: %s", r.out);
	/* Every line of the output is a comment or profile text. */
	for (const char *l = r.out; *l; l = strchr(l, '\n') + 1) {
		cr_expect(*l == ';' || *l == '(' || *l == ' ' || *l == '\n', "stray line: %.40s",
			  l);
		if (!strchr(l, '\n'))
			break;
	}
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--format", "yaml", NULL);
	cr_expect_eq(r.status, 125);
	cr_expect_not_null(strstr(r.err, "--format"), "%s", r.err);
	run_free(&r);
	free(json);
	free(odd);
	world_free(&w);
}

/* ---- unix sockets ---------------------------------------------------------- */

static const char *const allowed_sockets[] = {
	"/Users/me/.ssh/agent-sock-1",                  /* an ssh agent's */
	"/private/tmp/com.apple.launchd.abc/Listeners", /* launchd's agent */
	"/Users/me/odd \"sock\" (x)\nline",             /* quotes, parentheses, newline */
	"/Users/me/.ssh/agent-sock-1",                  /* listed twice: still one rule */
};
#define N_ALLOWED        (sizeof(allowed_sockets) / sizeof(allowed_sockets[0]))
#define SOCKET_DIR       "/var/folders/zz/abc/T/cordon-0123456789abcdef"
#define SOCKET_DIR_CANON "/private" SOCKET_DIR

static void generate(bool network, bool sockets, bool dir, struct cordon_sbpl *s)
{
	struct cordon_policy p;
	make_policy(&p, true, network);
	for (size_t i = 0; sockets && i < N_ALLOWED; i++)
		cr_assert_eq(cordon_policy_add_socket(&p, allowed_sockets[i], "test"), 0);
	if (dir)
		cr_assert_not_null(p.socket_dir = strdup(SOCKET_DIR));
	struct cordon_fingerprint fp = {.dir = "/private/tmp/cordon-1/fp-x",
					.allow = "/private/tmp/cordon-1/fp-x/allow",
					.deny = "/private/tmp/cordon-1/fp-x/deny"};
	struct cordon_error err = {0};
	cr_assert_eq(cordon_sbpl_generate(&p, &fp, s, &err), 0, "%s", err.msg);
	expect_well_formed(s);
	cordon_policy_free(&p);
}

/* How many times NEEDLE occurs in HAY. */
static size_t count(const char *hay, const char *needle)
{
	size_t n = 0;
	for (const char *c = hay; (c = strstr(c, needle)); c += strlen(needle))
		n++;
	return n;
}

/* The profile's rules (lines that are not comments), one at a time: *LINE
 * is set to a malloc'd copy of the next one; false at the end. */
static bool next_rule(const char **cur, char **line)
{
	while (**cur) {
		const char *end = strchr(*cur, '\n');
		size_t n = end ? (size_t)(end - *cur) : strlen(*cur);
		const char *start = *cur;
		*cur += n + (end ? 1 : 0);
		if (n == 0 || *start == ';')
			continue;
		*line = strndup(start, n);
		return true;
	}
	return false;
}

/* Whether RULE allows something to every unix socket: a unix-socket filter
 * without a path, or a network rule with no filter at all. */
static bool allows_every_unix_socket(const char *rule)
{
	if (strncmp(rule, "(allow ", 7) != 0 || !strstr(rule, "network"))
		return false;
	if (strcmp(rule, "(allow network*)") == 0 ||
	    strcmp(rule, "(allow network-outbound)") == 0 ||
	    strcmp(rule, "(allow network-bind)") == 0)
		return true;
	for (const char *c = rule; (c = strstr(c, "unix-socket")); c++) {
		const char *f = c + strlen("unix-socket");
		if (strncmp(f, " (path-literal ", 15) != 0 && strncmp(f, " (subpath ", 10) != 0)
			return true;
	}
	return false;
}

/* The rules in effect for unix sockets: those after the last
 * "(deny network-outbound (remote unix-socket))" (Seatbelt: the last match
 * wins), which must also deny binding. */
static const char *unix_section(const struct cordon_sbpl *s)
{
	const char *deny = "(deny network-outbound (remote unix-socket))\n";
	const char *at = strstr(s->profile, deny);
	cr_assert_not_null(at, "no denial of unix sockets:\n%s", s->profile);
	cr_assert_eq(count(s->profile, deny), 1);
	cr_expect_not_null(strstr(at, "(deny network-bind (local unix-socket))\n"), "%s",
			   s->profile);
	const char *any = strstr(s->profile, "(allow network*)");
	cr_expect(!any || any < at, "a broad network rule after the denial:\n%s", s->profile);
	return at;
}

Test(sbpl, no_rule_lets_every_unix_socket_through)
{
	for (int network = 0; network < 2; network++)
		for (int with = 0; with < 2; with++) {
			struct cordon_sbpl s;
			generate(network, with, with, &s);
			const char *section = unix_section(&s);
			const char *cur = section;
			char *rule;
			while (next_rule(&cur, &rule)) {
				cr_expect_not(
					allows_every_unix_socket(rule),
					"network %d: '%s' lets every unix socket through:\n%s",
					network, rule, s.profile);
				free(rule);
			}
			/* Before the denial, only (allow network*) may cover them, and
			 * only with the network on. */
			cur = s.profile;
			while (next_rule(&cur, &rule) && cur <= section) {
				if (allows_every_unix_socket(rule))
					cr_expect(network && strcmp(rule, "(allow network*)") == 0,
						  "'%s' before the denial:\n%s", rule, s.profile);
				free(rule);
			}
			cordon_sbpl_free(&s);
		}
}

Test(sbpl, allowed_sockets_are_one_path_literal_rule_each)
{
	for (int network = 0; network < 2; network++) {
		struct cordon_sbpl s;
		generate(network, true, false, &s);
		const char *section = unix_section(&s);
		for (size_t i = 0; i < N_ALLOWED; i++) {
			char *canon = cordon_sbpl_canonical(allowed_sockets[i]);
			const char *name = param_named(&s, canon);
			cr_assert_not_null(name, "no parameter holds %s", canon);
			/* The path is a parameter, never text. */
			const char *tail = strrchr(allowed_sockets[i], '/') + 1;
			cr_expect_null(strstr(s.profile, tail), "'%s' spliced into:\n%s", tail,
				       s.profile);
			char ref[64], rule[160];
			snprintf(ref, sizeof(ref), "(param \"%s\")", name);
			snprintf(
				rule, sizeof(rule),
				"(allow network-outbound (remote unix-socket (path-literal %s)))\n",
				ref);
			cr_expect_eq(count(s.profile, rule), 1, "%s", s.profile);
			cr_expect_eq(count(s.profile, ref), 1, "%s used by another rule:\n%s", ref,
				     s.profile);
			cr_expect(strstr(s.profile, rule) > section,
				  "the allow must follow the deny");
			/* Connect only: never bound, read or written. */
			free(canon);
		}
		/* The duplicate got no second parameter. */
		size_t n = 0;
		for (size_t i = 0; i < s.n_params; i++)
			n += strcmp(s.params[2 * i + 1], allowed_sockets[0]) == 0;
		cr_expect_eq(n, 1);
		cr_expect_eq(count(s.profile, "(local unix-socket (path-literal"), 0);
		cordon_sbpl_free(&s);
	}
}

Test(sbpl, session_socket_dir_connect_and_bind)
{
	for (int network = 0; network < 2; network++) {
		struct cordon_sbpl s;
		generate(network, false, true, &s);
		const char *section = unix_section(&s);
		const char *name = param_named(&s, SOCKET_DIR_CANON);
		cr_assert_not_null(name, "the socket dir must be canonical (/private): %s",
				   s.profile);
		cr_expect_null(param_named(&s, SOCKET_DIR));
		cr_expect_null(strstr(s.profile, "cordon-0123456789abcdef"));
		/* Each rule as the text around the parameter. */
		const char *rules[][2] = {
			{"(allow network-outbound (remote unix-socket (subpath ", ")))\n"},
			{"(allow network-bind network-inbound (local unix-socket (subpath ",
			 ")))\n"},
			{"(allow file-read* file-write* (subpath ", "))\n"},
			{"(deny file-write-create (require-all (subpath ",
			 ") (vnode-type SYMLINK)))\n"},
			{"(deny file-link (subpath ", "))\n"},
		};
		for (size_t i = 0; i < sizeof(rules) / sizeof(rules[0]); i++) {
			char want[256];
			snprintf(want, sizeof(want), "%s(param \"%s\")%s", rules[i][0], name,
				 rules[i][1]);
			const char *at = strstr(s.profile, want);
			cr_expect_not_null(at, "missing %s in:\n%s", want, s.profile);
			cr_expect(at > section, "%s must follow the unix-socket denial", want);
		}
		/* Binding is allowed there and nowhere else. */
		const char *cur = s.profile;
		char *rule;
		while (next_rule(&cur, &rule)) {
			if (strncmp(rule, "(allow", 6) == 0 && strstr(rule, "local unix-socket"))
				cr_expect_not_null(strstr(rule, name), "%s", rule);
			free(rule);
		}
		/* Creating sockets needs AF_UNIX sockets (system.sb does not grant them). */
		cr_expect(strstr(s.profile, "(allow system-socket (socket-domain AF_UNIX))\n") ||
				  (network && strstr(s.profile, "(allow system-socket)\n")),
			  "%s", s.profile);
		cordon_sbpl_free(&s);
	}
}

Test(sbpl, no_unix_socket_allowed_without_sockets_or_dir)
{
	for (int network = 0; network < 2; network++) {
		struct cordon_sbpl s;
		generate(network, false, false, &s);
		(void)unix_section(&s);
		const char *cur = s.profile;
		char *rule;
		size_t n = 0;
		while (next_rule(&cur, &rule)) {
			if (strncmp(rule, "(allow", 6) == 0 && strstr(rule, "unix-socket")) {
				/* With the network on, name lookups need mDNSResponder's
				 * socket: that exact path, nothing else. */
				cr_expect(network &&
						  strcmp(rule,
							 "(allow network-outbound (remote "
							 "unix-socket (path-literal "
							 "\"/private/var/run/mDNSResponder\")))") ==
							  0,
					  "network %d: %s", network, rule);
				n++;
			}
			free(rule);
		}
		cr_expect_eq(n, network ? 1u : 0u, "%s", s.profile);
		cr_expect_null(strstr(s.profile, "network-bind (local unix-socket (subpath"));
		cordon_sbpl_free(&s);
	}
}

/* The guards come after the rules (Seatbelt takes the last match): a
 * protected path's writes, and a hidden path's reads and writes, denied
 * beneath a rule that grants them. */
Test(sbpl, guards_deny_after_the_rules)
{
	struct cordon_policy p;
	make_policy(&p, true, true);
	cr_assert_eq(cordon_policy_add_guard(&p, "/Users/me/spa ce/.git/hooks",
					     CORDON_GUARD_PROTECT, "test"),
		     0);
	cr_assert_eq(
		cordon_policy_add_guard(&p, "/Users/me/spa ce/.ssh", CORDON_GUARD_HIDE, "test"), 0);
	struct cordon_sbpl s;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_sbpl_generate(&p, NULL, &s, &err), 0, "%s", err.msg);
	expect_well_formed(&s);
	const char *hooks = param_named(&s, "/Users/me/spa ce/.git/hooks");
	const char *ssh = param_named(&s, "/Users/me/spa ce/.ssh");
	const char *proj = param_named(&s, "/Users/me/spa ce");
	cr_assert(hooks && ssh && proj);
	char want[128], grant[128];
	snprintf(grant, sizeof(grant), "(subpath (param \"%s\")))", proj);
	snprintf(want, sizeof(want), "(deny file-write* (subpath (param \"%s\")))", hooks);
	const char *g = strstr(s.profile, grant), *w = strstr(s.profile, want);
	cr_expect(g && w && w > g, "%s", s.profile);
	snprintf(want, sizeof(want), "(deny file-read* file-write* (subpath (param \"%s\")))", ssh);
	w = strstr(s.profile, want);
	cr_expect(g && w && w > g, "%s", s.profile);
	/* The git dir's commondir (git follows it to another config and
	 * hooks) cannot be made either. */
	const char *common = param_named(&s, "/Users/me/spa ce/.git/commondir");
	cr_assert(common, "%s", s.profile);
	snprintf(want, sizeof(want), "(deny file-write* (literal (param \"%s\")))", common);
	w = strstr(s.profile, want);
	cr_expect(g && w && w > g, "%s", s.profile);
	cordon_sbpl_free(&s);
	cordon_policy_free(&p);
}
