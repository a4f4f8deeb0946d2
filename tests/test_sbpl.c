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
	/* Offline: no network rule but unix sockets, and no DNS socket. */
	cr_expect_null(strstr(s.profile, "(allow network*)\n"));
	cr_expect_not_null(strstr(s.profile, "(allow network* (remote unix-socket))"));
	cr_expect_null(param_named(&s, "/private/var/run/mDNSResponder"));
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
