/* Resolving a config into a policy: defaults, ~, canonical paths, skipping. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/config.h"
#include "cordon/policy.h"
#include "cordon/sweep.h"
#include "helpers.h"

static const struct cordon_rule *find_rule(const struct cordon_policy *p, const char *path)
{
	for (size_t i = 0; i < p->n_rules; i++)
		if (strcmp(p->rules[i].path, path) == 0)
			return &p->rules[i];
	return NULL;
}

static void resolve_json(const char *json, struct cordon_context *ctx, struct cordon_policy *p)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_config_parse(json, strlen(json), "/t.json", &cfg, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(cordon_policy_resolve(&cfg, ctx, p, &err), 0, "%s", err.msg);
	cordon_config_free(&cfg);
}

Test(policy, linux_defaults)
{
	char *dir = tmp_dir("pdef");
	struct cordon_context ctx = {.project = dir,
				     .home = dir,
				     .uid = getuid(),
				     .kind = CORDON_KIND_TERMINAL,
				     .session = "s1"};
	struct cordon_policy p;
	resolve_json("{}", &ctx, &p);
	cr_expect(p.sandbox);
	cr_expect(p.allow_network);
	cr_expect_str_eq(p.project, dir);
	cr_expect_str_eq(p.session, "s1");
	const struct cordon_rule *r = find_rule(&p, "/usr/bin");
	cr_assert_not_null(r);
	cr_expect_eq(r->access, CORDON_ACCESS_READ | CORDON_ACCESS_EXEC);
	cr_expect_str_eq(r->source, "system_paths.executable (default)");
	r = find_rule(&p, "/etc");
	cr_assert_not_null(r);
	cr_expect_eq(r->access, CORDON_ACCESS_READ);
	/* Read-write grants execute too (gcc -o /tmp/a.out, go run). */
	r = find_rule(&p, "/tmp");
	cr_assert_not_null(r);
	cr_expect_eq(r->access, CORDON_ACCESS_ALL);
	/* What `make install` and `pip install --user`-less tools put there. */
	struct stat st;
	if (stat("/usr/local/bin", &st) == 0) {
		r = find_rule(&p, "/usr/local/bin");
		cr_assert_not_null(r, "/usr/local/bin is in the default executable list");
		cr_expect_eq(r->access, CORDON_ACCESS_READ | CORDON_ACCESS_EXEC);
	}
	r = find_rule(&p, dir);
	cr_assert_not_null(r);
	cr_expect_eq(r->access, CORDON_ACCESS_ALL);
	/* Never all of /dev: only the nodes a shell needs. */
	cr_expect_null(find_rule(&p, "/dev"));
	cr_expect_not_null(find_rule(&p, "/dev/null"));
	/* /dev/fd is /proc/self/fd, not pinned to this test's pid. */
	cr_expect_not_null(find_rule(&p, "/proc/self/fd"));
	/* The default env allowlist. */
	cr_expect(cordon_strv_contains(&p.env_allow, "PATH"));
	cr_expect(cordon_strv_contains(&p.env_allow, "SSH_AUTH_SOCK"));
	cr_expect_not(cordon_strv_contains(&p.env_allow, "AWS_SECRET_ACCESS_KEY"));
	/* Time, language, CA bundles; not the proxies (user:password). */
	cr_expect(cordon_strv_contains(&p.env_allow, "TZ"));
	cr_expect(cordon_strv_contains(&p.env_allow, "LC_CTYPE"));
	cr_expect(!cordon_strv_contains(&p.env_allow, "LC_*"), "sshd passes any LC_ name");
	cr_expect(cordon_strv_contains(&p.env_allow, "NODE_EXTRA_CA_CERTS"));
	cr_expect(cordon_strv_contains(&p.env_allow, "NO_PROXY"));
	cr_expect_not(cordon_strv_contains(&p.env_allow, "HTTPS_PROXY"));
	cordon_policy_free(&p);
	tmp_cleanup(dir);
	free(dir);
}

Test(policy, default_path_lists_per_os)
{
	struct cordon_strv sv = {0};
	cr_assert_eq(cordon_default_paths(CORDON_OS_LINUX, CORDON_CLASS_RW, 1234, &sv), 0);
	cr_expect(cordon_strv_contains(&sv, "/run/user/1234"));
	/* Not every terminal of the user's: the session's own comes from the
	 * context (ctx.ttys), ptys made inside from the supervisor. */
	cr_expect_not(cordon_strv_contains(&sv, "/dev/pts"));
	cr_expect(cordon_strv_contains(&sv, "/dev/ptmx"));
	cordon_strv_free(&sv);
	cr_assert_eq(cordon_default_paths(CORDON_OS_MACOS, CORDON_CLASS_EXEC, 501, &sv), 0);
	cr_expect(cordon_strv_contains(&sv, "/System/Library/dyld"));
	cr_expect(cordon_strv_contains(&sv, "/opt/homebrew/bin"));
	cordon_strv_free(&sv);
	cr_assert_eq(cordon_default_paths(CORDON_OS_MACOS, CORDON_CLASS_RO, 501, &sv), 0);
	cr_expect(cordon_strv_contains(&sv, "/private/etc"));
	cordon_strv_free(&sv);
}

Test(policy, tilde_canonical_and_skipped)
{
	char *dir = tmp_dir("ptilde");
	char *home = path_join(dir, "home");
	char *proj = path_join(dir, "proj");
	free(write_file(home, "data/x", "x"));
	free(write_file(proj, "f", "f"));
	free(write_file(home, ".bashrc", "# rc"));
	char *link = path_join(home, "link");
	cr_assert_eq(symlink("data", link), 0);
	char *data = path_join(home, "data");
	char *bashrc = path_join(home, ".bashrc");
	struct cordon_context ctx = {.project = proj,
				     .home = home,
				     .uid = 0,
				     .kind = CORDON_KIND_TERMINAL,
				     .session = "s"};
	struct cordon_policy p;
	resolve_json(
		"{\"additional_read_only_paths\": [\"~/link\", \"~/missing\", \"~/data/../data\"],"
		" \"additional_read_write_paths\": [\"~\"],"
		" \"additional_executable_paths\": [\"f\"]}",
		&ctx, &p);
	const struct cordon_rule *r = find_rule(&p, data);
	cr_assert_not_null(r, "~/link resolves to its canonical target");
	cr_expect_eq(r->access, CORDON_ACCESS_READ);
	cr_expect_str_eq(r->source, "additional_read_only_paths");
	r = find_rule(&p, home);
	cr_assert_not_null(r, "~ alone expands to home");
	cr_expect_eq(r->access, CORDON_ACCESS_ALL);
	r = find_rule(&p, bashrc);
	cr_assert_not_null(r, "dotfiles are readable");
	cr_expect_eq(r->access, CORDON_ACCESS_READ);
	cr_expect_str_eq(r->source, "dotfiles");
	/* Nonexistent: skipped, not an error, and noted for explain. */
	bool noted = false;
	for (size_t i = 0; i < p.skipped.n; i++)
		noted |= strstr(p.skipped.v[i], "~/missing") != NULL;
	cr_expect(noted);
	for (size_t i = 0; i < p.n_rules; i++)
		cr_expect(strstr(p.rules[i].path, "missing") == NULL);
	/* Relative config paths are taken against the project. */
	char *pf = path_join(proj, "f");
	r = find_rule(&p, pf);
	cr_assert_not_null(r, "a relative config path resolves against the project");
	cr_expect_str_eq(r->source, "additional_executable_paths");
	cordon_policy_free(&p);
	tmp_cleanup(dir);
	free(pf);
	free(dir);
	free(home);
	free(proj);
	free(link);
	free(data);
	free(bashrc);
}

Test(policy, system_paths_override_and_empty)
{
	char *dir = tmp_dir("psys");
	struct cordon_context ctx = {.project = dir, .uid = 0, .kind = CORDON_KIND_TERMINAL};
	struct cordon_policy p;
	resolve_json("{\"system_paths\": {\"executable\": [\"/bin\"], \"read_only\": []}}", &ctx,
		     &p);
	cr_expect_null(find_rule(&p, "/usr/sbin"), "an array replaces the default list");
	cr_expect_null(find_rule(&p, "/etc"), "[] denies the class");
	cr_expect_not_null(find_rule(&p, "/tmp"), "null keeps the default");
	const struct cordon_rule *r = find_rule(&p, "/usr/bin"); /* /bin -> usr/bin */
	cr_assert_not_null(r);
	cr_expect_str_eq(r->source, "system_paths.executable");
	cordon_policy_free(&p);
	tmp_cleanup(dir);
	free(dir);
}

/* /bin and /usr/bin are one directory here (usrmerge): one rule, not two
 * (explain listed both), with the union of their accesses and the source
 * that grants the most. */
Test(policy, one_rule_per_canonical_path)
{
	char *dir = tmp_dir("pdedup");
	char *data = path_join(dir, "data");
	char *link = path_join(dir, "link");
	cr_assert_eq(mkdir(data, 0755), 0);
	cr_assert_eq(symlink("data", link), 0);
	struct cordon_context ctx = {.project = dir, .uid = 0, .kind = CORDON_KIND_TERMINAL};
	struct cordon_policy p;
	char *json;
	cr_assert(asprintf(&json,
			   "{\"additional_read_only_paths\": [\"%s\", \"%s\"],"
			   " \"additional_executable_paths\": [\"%s\"],"
			   " \"additional_read_write_paths\": [\"%s\"]}",
			   data, link, link, data) > 0);
	resolve_json(json, &ctx, &p);
	size_t n = 0;
	const struct cordon_rule *r = NULL;
	for (size_t i = 0; i < p.n_rules; i++)
		if (strcmp(p.rules[i].path, data) == 0) {
			n++;
			r = &p.rules[i];
		}
	cr_expect_eq(n, 1, "%zu rules for %s", n, data);
	cr_assert_not_null(r);
	cr_expect_eq(r->access, CORDON_ACCESS_ALL);
	cr_expect_str_eq(r->source, "additional_read_write_paths");
	struct stat st;
	if (lstat("/bin", &st) == 0 && S_ISLNK(st.st_mode)) {
		n = 0;
		for (size_t i = 0; i < p.n_rules; i++)
			n += strcmp(p.rules[i].path, "/usr/bin") == 0;
		cr_expect_eq(n, 1, "/usr/bin listed %zu times", n);
	}
	cordon_policy_free(&p);
	/* Where the kernel resolves, rules stay as written: /bin is not made
	 * /usr/bin, and a path named twice is still one rule. */
	ctx.kernel_resolves = true;
	resolve_json("{\"additional_read_only_paths\": [\"/bin\", \"/bin\"]}", &ctx, &p);
	n = 0;
	for (size_t i = 0; i < p.n_rules; i++)
		n += strcmp(p.rules[i].path, "/bin") == 0;
	cr_expect_eq(n, 1);
	cr_expect_not_null(find_rule(&p, "/bin"));
	cordon_policy_free(&p);
	free(json);
	tmp_cleanup(dir);
	free(data);
	free(link);
	free(dir);
}

/* allowed_env_vars replaces the default list; additional_env_vars extends
 * it (adding one variable must not lose PATH and HOME). */
Test(policy, additional_env_vars_extend)
{
	char *dir = tmp_dir("penv");
	struct cordon_context ctx = {.project = dir, .uid = 0, .kind = CORDON_KIND_TERMINAL};
	struct cordon_policy p;
	resolve_json("{\"additional_env_vars\": [\"MY_TOKEN\", \"npm_config_*\"]}", &ctx, &p);
	cr_expect(cordon_strv_contains(&p.env_allow, "MY_TOKEN"));
	cr_expect(cordon_strv_contains(&p.env_allow, "npm_config_*"));
	cr_expect(cordon_strv_contains(&p.env_allow, "PATH"));
	cr_expect(cordon_strv_contains(&p.env_allow, "HOME"));
	cordon_policy_free(&p);
	resolve_json("{\"allowed_env_vars\": [\"PATH\"], \"additional_env_vars\": [\"X\"]}", &ctx,
		     &p);
	cr_expect_eq(p.env_allow.n, 2);
	cr_expect(cordon_strv_contains(&p.env_allow, "X"));
	cr_expect_not(cordon_strv_contains(&p.env_allow, "HOME"));
	cordon_policy_free(&p);
	tmp_cleanup(dir);
	free(dir);
}

Test(policy, apply_to_and_kind)
{
	char *dir = tmp_dir("pkind");
	struct cordon_policy p;
	struct cordon_context ctx = {.project = dir, .kind = CORDON_KIND_TOOL};
	resolve_json("{\"apply_to\": \"terminal\"}", &ctx, &p);
	cr_expect_not(p.sandbox, "a tool session is not covered by apply_to terminal");
	cordon_policy_free(&p);
	resolve_json("{\"apply_to\": \"tool\"}", &ctx, &p);
	cr_expect(p.sandbox);
	cordon_policy_free(&p);
	resolve_json("{\"apply_to\": \"neither\"}", &ctx, &p);
	cr_expect_not(p.sandbox);
	cordon_policy_free(&p);
	resolve_json("{\"enabled\": false}", &ctx, &p);
	cr_expect_not(p.sandbox);
	cordon_policy_free(&p);
	tmp_cleanup(dir);
	free(dir);
}

/* --no-network with the sandbox off would block nothing: refused, naming
 * the config file and the setting that turned the sandbox off. */
Test(policy, no_network_with_the_sandbox_off_is_refused)
{
	char *dir = tmp_dir("pnonet");
	static const struct {
		const char *json;
		unsigned kind;
		const char *want;
	} cases[] = {
		{"{\"enabled\": false}", CORDON_KIND_TERMINAL,
		 "--no-network: the sandbox is off (/t.json: enabled is false)"},
		{"{\"apply_to\": \"tool\"}", CORDON_KIND_TERMINAL,
		 "--no-network: the sandbox is off for a terminal session (/t.json: apply_to is "
		 "\"tool\")"},
		{"{\"apply_to\": \"neither\"}", CORDON_KIND_TOOL,
		 "--no-network: the sandbox is off for a tool session (/t.json: apply_to is "
		 "\"neither\")"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cordon_config cfg;
		struct cordon_error err = {0};
		cr_assert_eq(cordon_config_parse(cases[i].json, strlen(cases[i].json), "/t.json",
						 &cfg, &err),
			     0);
		struct cordon_context ctx = {.project = dir, .kind = cases[i].kind};
		struct cordon_policy p = {0};
		cr_expect_eq(cordon_policy_resolve(&cfg, &ctx, &p, &err), 0, "%s", err.msg);
		cordon_policy_free(&p);
		ctx.no_network = true;
		cr_expect_lt(cordon_policy_resolve(&cfg, &ctx, &p, &err), 0, "%s: accepted",
			     cases[i].json);
		cr_expect(strstr(err.msg, cases[i].want) == err.msg, "%s:\n got %s\n want %s",
			  cases[i].json, err.msg, cases[i].want);
		cr_expect_null(strchr(err.msg, '\n'));
		cordon_config_free(&cfg);
	}
	tmp_cleanup(dir);
	free(dir);
}

Test(policy, command_line_additions)
{
	char *dir = tmp_dir("pcli");
	char *extra = path_join(dir, "extra");
	free(write_file(extra, "f", ""));
	struct cordon_context ctx = {
		.project = dir, .kind = CORDON_KIND_TERMINAL, .no_network = true, .cwd = dir};
	cordon_strv_push(&ctx.extra[CORDON_CLASS_RW], "extra");
	cordon_strv_push(&ctx.extra_env, "MY_TOKEN");
	struct cordon_policy p;
	resolve_json("{\"allow_network\": true, \"allowed_env_vars\": [\"PATH\"]}", &ctx, &p);
	cr_expect_not(p.allow_network, "--no-network wins over the config");
	const struct cordon_rule *r = find_rule(&p, extra);
	cr_assert_not_null(r, "relative --allow-write is taken against the cwd");
	cr_expect_str_eq(r->source, "--allow-write");
	cr_expect(cordon_strv_contains(&p.env_allow, "MY_TOKEN"));
	cr_expect_not(cordon_strv_contains(&p.env_allow, "HOME"),
		      "the config list replaces the default");
	cordon_policy_free(&p);
	cordon_strv_free(&ctx.extra[CORDON_CLASS_RW]);
	cordon_strv_free(&ctx.extra_env);
	tmp_cleanup(dir);
	free(extra);
	free(dir);
}

/* Which directories are never the project when they are only the cwd. */
Test(policy, never_project)
{
	static const struct {
		const char *dir, *home, *want;
	} cases[] = {
		{"/", NULL, "is a system directory"},
		{"/usr", NULL, "is a system directory"},
		{"/usr/local/src/x", NULL, "is a system directory"},
		{"/etc/ssh", NULL, "is a system directory"},
		{"/dev/shm", NULL, "is a system directory"},
		{"/proc/1", NULL, "is a system directory"},
		{"/sys", NULL, "is a system directory"},
		{"/boot", NULL, "is a system directory"},
		{"/var/lib/dpkg", NULL, "is a system directory"},
		{"/var/log", NULL, "is a system directory"},
		{"/var", NULL, "is a system directory"},
		{"/opt", NULL, "is a system directory"},
		{"/srv", NULL, "is a system directory"},
		{"/run", NULL, "is a system directory"},
		{"/home", NULL, "is a system directory"},
		{"/mnt", NULL, "is a system directory"},
		{"/media", NULL, "is a system directory"},
		{"/root", NULL, "is a system directory"},
		{"/root", "/root", "is your home directory"},
		{"/home/me", "/home/me", "is your home directory"},
		{"/data", "/data/users/me", "contains your home directory"},
		{"/data/users", "/data/users/me", "contains your home directory"},
		/* Projects live below the exact ones, and beside the home. */
		{"/root/src", "/root", NULL},
		{"/home/me/src", "/home/me", NULL},
		{"/home/me2", "/home/me", NULL},
		{"/var/www/site", NULL, NULL},
		{"/var/tmp", NULL, NULL},
		{"/opt/app", NULL, NULL},
		{"/srv/site", NULL, NULL},
		{"/mnt/data/proj", NULL, NULL},
		{"/tmp", NULL, NULL},
		{"/usrlocal", NULL, NULL},
		/* Below /run, only the caller's own runtime directory (round
		 * 50c F3: root's terminal in /run/systemd). */
		{"/run/systemd", NULL, "is a system directory"},
		{"/run/udev/rules.d", NULL, "is a system directory"},
		{"/run/user", NULL, "is a system directory"},
		{"/runx", NULL, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		const char *got = cordon_never_project(cases[i].dir, cases[i].home);
		if (cases[i].want)
			cr_expect(got && strcmp(got, cases[i].want) == 0,
				  "%s (home %s): %s, want %s", cases[i].dir, cases[i].home, got,
				  cases[i].want);
		else
			cr_expect_null(got, "%s (home %s): %s", cases[i].dir, cases[i].home, got);
	}
	char *own = fmt("/run/user/%u/x", (unsigned)getuid());
	char *other = fmt("/run/user/%u/x", (unsigned)getuid() + 1);
	cr_expect_null(cordon_never_project(own, NULL), "the caller's own runtime directory");
	const char *got = cordon_never_project(other, NULL);
	cr_expect(got && strcmp(got, "is a system directory") == 0, "%s: %s", other, got);
	free(own);
	free(other);
}

/* The project from the cwd: $HOME, a directory above it, or a system
 * directory give a session with no project at all (no "project" rule,
 * relative config paths skipped, not taken against the cwd); a named one,
 * even $HOME, stays the project. */
Test(policy, project_from_cwd)
{
	char *dir = tmp_dir("pcwd");
	char *home = path_join(dir, "home");
	char *proj = path_join(home, "proj");
	char *link = path_join(dir, "homelink");
	cr_assert_eq(mkdir(home, 0755), 0);
	cr_assert_eq(mkdir(proj, 0755), 0);
	cr_assert_eq(symlink(home, link), 0);
	free(write_file(home, "build/x", ""));
	const char *json = "{\"additional_read_write_paths\": [\"build\", \"~/proj\"],"
			   " \"allowed_unix_sockets\": [\"sock\"]}";
	struct {
		const char *cwd, *home;
		const char *none; /* NULL: CWD is the project */
	} cases[] = {
		{home, home, "is your home directory"},
		{home, link, "is your home directory"}, /* $HOME through a symlink */
		{dir, home, "contains your home directory"},
		{"/", home, "is a system directory"}, /* was an error */
		{"/usr/share", home, "is a system directory"},
		{proj, home, NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct cordon_context ctx = {.project = cases[i].cwd,
					     .project_from_cwd = true,
					     .home = cases[i].home,
					     .kind = CORDON_KIND_TERMINAL};
		struct cordon_policy p;
		resolve_json(json, &ctx, &p);
		if (!cases[i].none) {
			cr_expect_str_eq(p.project, cases[i].cwd);
			cr_expect_null(p.no_project);
			cr_expect_not_null(find_rule(&p, cases[i].cwd));
			cordon_policy_free(&p);
			continue;
		}
		cr_expect_null(p.project, "%s is the project", cases[i].cwd);
		char *why;
		cr_assert(asprintf(&why, "%s %s", cases[i].cwd, cases[i].none) > 0);
		cr_expect(p.no_project && strcmp(p.no_project, why) == 0, "%s, want %s",
			  p.no_project, why);
		free(why);
		for (size_t k = 0; k < p.n_rules; k++) {
			cr_expect_str_neq(p.rules[k].source, "project");
			const char *rp = p.rules[k].path;
			bool in_home =
				strncmp(rp, home, strlen(home)) == 0 && strcmp(rp, proj) != 0;
			if (p.rules[k].access & CORDON_ACCESS_WRITE)
				cr_expect_not(strcmp(rp, cases[i].cwd) == 0 || in_home,
					      "%s is writable (%s)", rp, p.rules[k].source);
		}
		bool skipped_build = false, skipped_sock = false;
		for (size_t k = 0; k < p.skipped.n; k++) {
			skipped_build |=
				strstr(p.skipped.v[k], "build (additional_read_write_paths)"
						       ": relative to the project") != NULL;
			skipped_sock |=
				strstr(p.skipped.v[k], "sock (allowed_unix_sockets): relative "
						       "to the project") != NULL;
		}
		cr_expect(skipped_build && skipped_sock, "relative config paths not skipped (%s)",
			  cases[i].cwd);
		cr_expect_not_null(find_rule(&p, proj), "~/proj, named, is still granted");
		cordon_policy_free(&p);
	}
	/* Named (--project): $HOME is the project, as before. */
	struct cordon_context ctx = {.project = home, .home = home, .kind = CORDON_KIND_TERMINAL};
	struct cordon_policy p;
	resolve_json(json, &ctx, &p);
	cr_expect_str_eq(p.project, home);
	cr_expect_null(p.no_project);
	const struct cordon_rule *r = find_rule(&p, home);
	cr_expect(r && strcmp(r->source, "project") == 0);
	cordon_policy_free(&p);
	tmp_cleanup(dir);
	free(dir);
	free(home);
	free(proj);
	free(link);
}

Test(policy, project_must_exist_and_not_be_root)
{
	struct cordon_config cfg;
	cordon_config_init(&cfg, NULL);
	struct cordon_policy p;
	struct cordon_error err = {0};
	struct cordon_context ctx = {.project = "/nonexistent-project",
				     .kind = CORDON_KIND_TERMINAL};
	cr_expect_lt(cordon_policy_resolve(&cfg, &ctx, &p, &err), 0);
	cr_expect(strstr(err.msg, "/nonexistent-project: project directory") != NULL, "%s",
		  err.msg);
	ctx.project = "/";
	cr_expect_lt(cordon_policy_resolve(&cfg, &ctx, &p, &err), 0);
	cr_expect(strstr(err.msg, "project directory is /") != NULL, "%s", err.msg);
	cordon_config_free(&cfg);
}

Test(policy, access_lookup)
{
	struct cordon_policy p = {0};
	cordon_policy_add_rule(&p, "/usr", CORDON_ACCESS_READ | CORDON_ACCESS_EXEC, "exec");
	cordon_policy_add_rule(&p, "/home/u/proj", CORDON_ACCESS_ALL, "project");
	cordon_policy_add_rule(&p, "/home/u/.bashrc", CORDON_ACCESS_READ, "dotfiles");
	const struct cordon_rule *why;
	cr_expect_eq(cordon_policy_access(&p, "/usr/bin/ls", &why),
		     CORDON_ACCESS_READ | CORDON_ACCESS_EXEC);
	cr_expect_str_eq(why->source, "exec");
	cr_expect_eq(cordon_policy_access(&p, "/usrx", &why), 0, "a prefix is not a parent");
	cr_expect_null(why);
	cr_expect_eq(cordon_policy_access(&p, "/home/u/proj", NULL), CORDON_ACCESS_ALL);
	cr_expect_eq(cordon_policy_access(&p, "/home/u/.ssh/id_rsa", NULL), 0);
	char buf[4];
	cr_expect_str_eq(cordon_access_str(CORDON_ACCESS_READ | CORDON_ACCESS_EXEC, buf), "r-x");
	cordon_policy_free(&p);
}

/* REL, absolute or taken in D, into FULL (SIZE bytes). */
static void full_path(char *full, size_t size, const char *d, const char *rel)
{
	if (rel[0] == '/')
		snprintf(full, size, "%s", rel);
	else
		snprintf(full, size, "%s/%s", d, rel);
}

/* The cached resolver must agree with realpath(3) on every path, success or
 * errno, with one cache shared by all of them (as a policy resolution does). */
Test(policy, resolver_matches_realpath)
{
	char tmpl[] = "/tmp/cordon-resolve-XXXXXX";
	char *d = mkdtemp(tmpl);
	cr_assert_not_null(d);
	char cmd[4096];
	snprintf(cmd, sizeof(cmd),
		 "cd %s && mkdir -p a/b/c real/x && touch a/file real/x/f && "
		 "ln -s a/b lb && ln -s ../real a/up && ln -s /usr/bin abs && ln -s lb/c chain && "
		 "ln -s loop1 loop2 && ln -s loop2 loop1 && ln -s missing dangling && "
		 "ln -s file a/flink && ln -s . here",
		 d);
	cr_assert_eq(system(cmd), 0);
	const char *rel[] = {
		"a",
		"a/",
		"a/b/c",
		"a/./b//c/",
		"a/b/..",
		"a/b/../../a/b",
		"lb",
		"lb/c",
		"lb/../file",
		"lb/../b/c",
		"a/up/x/../x/f",
		"nope/x/y",
		"a/nope/x",
		"a/up/x/f",
		"a/up/../a",
		"abs",
		"abs/..",
		"chain",
		"chain/..",
		"loop1",
		"loop1/x",
		"dangling",
		"a/file",
		"a/file/",
		"a/file/..",
		"a/file/x",
		"a/flink",
		"a/flink/",
		"here/a",
		"here/here/lb/c",
		"nope",
		"nope/..",
		"a/nope/..",
		"..",
		"/",
		"/..",
		"/usr/./lib/../bin",
		"/dev/fd",
		"/proc/self/fd/../exe",
	};
	struct cordon_path_cache cache = {0};
	for (int round = 0; round < 2; round++) { /* the second round from the cache */
		for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
			char full[4096];
			full_path(full, sizeof(full), d, rel[i]);
			errno = 0;
			char *want = realpath(full, NULL);
			int want_err = want ? 0 : errno;
			/* The resolver maps /proc/<own pid> back to /proc/self. */
			if (want) {
				char self[64];
				int n = snprintf(self, sizeof(self), "/proc/%d", (int)getpid());
				if (strncmp(want, self, (size_t)n) == 0 &&
				    (want[n] == '/' || want[n] == '\0')) {
					char *m;
					cr_assert_geq(asprintf(&m, "/proc/self%s", want + n), 0);
					free(want);
					want = m;
				}
			}
			char *got = NULL;
			int r = cordon_path_resolve_cached(full, NULL, NULL, &cache, &got);
			if (want) {
				cr_expect_eq(r, 0, "%s: realpath %s, resolver %s", full, want,
					     strerror(-r));
				if (r == 0)
					cr_expect_str_eq(got, want, "%s (round %d)", full, round);
			} else {
				cr_expect_eq(r, -want_err, "%s: realpath %s, resolver %s", full,
					     strerror(want_err), r == 0 ? got : strerror(-r));
			}
			free(want);
			free(got);
		}
	}
	cr_expect_gt(cache.dirs.n, 3, "the cache was used");
	/* What the guards take from the cache instead of asking the kernel
	 * (cordon_path_cache_dir, _missing, cordon_path_nearest_cached)
	 * agrees with what the kernel says, for each path and each of its
	 * prefixes, links on the way or not. */
	size_t said_dir = 0, said_missing = 0;
	for (size_t i = 0; i < sizeof(rel) / sizeof(rel[0]); i++) {
		char full[4096];
		full_path(full, sizeof(full), d, rel[i]);
		for (char *end = full + strlen(full); end > full; end = strrchr(full, '/')) {
			*end = '\0';
			if (!full[0])
				break;
			struct stat st;
			int there = lstat(full, &st) == 0;
			if (cordon_path_cache_dir(&cache, full)) {
				said_dir++;
				cr_expect(there && S_ISDIR(st.st_mode), "%s: taken for a directory",
					  full);
			}
			if (cordon_path_cache_missing(&cache, full)) {
				said_missing++;
				cr_expect(!there, "%s: taken for missing", full);
			}
			char near[4096], near_cached[4096];
			int r1 = cordon_path_nearest(full, near, sizeof(near), &st);
			int r2 = cordon_path_nearest_cached(&cache, full, near_cached,
							    sizeof(near_cached));
			cr_expect_eq(r1, r2, "%s", full);
			if (r1 == 0 && r2 == 0)
				cr_expect_str_eq(near, near_cached, "%s", full);
		}
	}
	cr_expect_gt(said_dir, 3);
	cr_expect_gt(said_missing, 0);
	cordon_path_cache_free(&cache);
	snprintf(cmd, sizeof(cmd), "rm -rf %s", d);
	cr_assert_eq(system(cmd), 0);
}

/* Whether P looks for NAME above in DIR, missing there. */
static bool has(const struct cordon_policy *p, const char *dir, const char *name)
{
	for (size_t i = 0; i < p->n_above; i++)
		for (size_t k = 0; strcmp(p->above[i].dir, dir) == 0 && cordon_found_above[k]; k++)
			if (strcmp(cordon_found_above[k], name) == 0)
				return cordon_above_has(&p->above[i].missing, k);
	return false;
}

static const struct cordon_guard *guard_at(const struct cordon_policy *p, const char *dir,
					   const char *name)
{
	char *path = path_join(dir, name);
	const struct cordon_guard *g = cordon_policy_guard(p, path);
	free(path);
	return g;
}

/* The names a program looks for above where it runs: at the top of a
 * system_paths.read_write directory (not /dev/fd, a link to
 * /proc/self/fd), missing ones listed to be moved aside as they appear,
 * one there read-only; above the project, where a write rule reaches, an
 * existing repository's hooks, config and info are guarded, its
 * node_modules left to the user; protected_paths [] turns it off. */
Test(policy, names_looked_for_above)
{
	char *dir = tmp_dir("pabove");
	char *shared = path_join(dir, "shared"), *mono = path_join(shared, "mono"),
	     *pkgs = path_join(mono, "pkgs"), *proj = path_join(pkgs, "web"),
	     *bare = path_join(shared, "plain"), *app = path_join(bare, "app");
	free(write_file(app, "README", "r\n"));
	free(write_file(shared, "node_modules/x/index.js", "x\n"));
	free(write_file(mono, ".git/HEAD", "ref: refs/heads/main\n"));
	free(write_file(mono, "node_modules/y/index.js", "y\n"));
	free(write_file(proj, "README", "r\n"));
	cr_assert_eq(chmod(shared, 01777), 0);
	char *runtime = path_join(dir, "runtime"); /* (not sticky: the user's) */
	cr_assert_eq(mkdir(runtime, 0700), 0);
	char *json = fmt("{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/fd\", \"%s\", "
			 "\"%s\"]}}",
			 shared, runtime);
	struct cordon_context ctx = {.project = proj, .uid = 0, .kind = CORDON_KIND_TERMINAL};
	struct cordon_policy p;
	resolve_json(json, &ctx, &p);
	cr_expect(has(&p, shared, ".git") && has(&p, shared, "conftest.py") &&
			  has(&p, shared, ".exrc") && has(&p, shared, "HEAD") &&
			  has(&p, shared, "Cargo.toml") && has(&p, shared, ".mvn") &&
			  has(&p, shared, "Rakefile") && has(&p, shared, "irb.rc") &&
			  has(&p, shared, "_irbrc") && has(&p, shared, "$irbrc") &&
			  has(&p, shared, ".ruby-version") && has(&p, shared, ".node-version"),
		  "the shared directory's missing names (a bare repository's HEAD; cargo's, "
		  "Maven's and rake's: round 29; irb's others: 36 F3; rbenv's and nodenv's: 37a "
		  "F1)");
	cr_expect_not(has(&p, shared, "node_modules"), "one there is a guard");
	const struct cordon_guard *g = guard_at(&p, shared, "node_modules");
	cr_expect(g && (g->kind & CORDON_GUARD_PROTECT) &&
			  strcmp(g->source, CORDON_GUARD_ABOVE) == 0,
		  "one there is read-only");
	cr_expect_not(has(&p, mono, "package.json") || has(&p, pkgs, "package.json"),
		      "not in a repository above the project (a root: its own)");
	cr_expect_not_null(guard_at(&p, mono, ".git/hooks"), "the repository above: its hooks");
	cr_expect_not_null(guard_at(&p, mono, ".git/config"), "and its config");
	cr_expect_null(guard_at(&p, mono, "node_modules"), "the monorepo's own node_modules");
	const struct cordon_rule *root = find_rule(&p, mono);
	cr_expect(root && strcmp(root->source, CORDON_ROOT_ABOVE) == 0 &&
			  cordon_policy_writable_root(&p, root),
		  "the repository above is a root the sweep walks");
	cr_expect_not_null(guard_at(&p, mono, ".vscode"), "with protected_paths kept in it");
	cr_expect(p.shared.n == 1 && strcmp(p.shared.v[0], shared) == 0,
		  "the sticky shared directory alone is swept below its top (not /dev/fd, "
		  "a runtime directory, nor a directory above the project): %zu",
		  p.shared.n);
	cr_expect(has(&p, runtime, ".git"), "names looked for above at a runtime directory's top");
	cr_expect(cordon_sweep_applies(&p));
	for (size_t i = 0; i < p.n_above; i++)
		cr_expect(strncmp(p.above[i].dir, "/dev/", 5) != 0 &&
				  strncmp(p.above[i].dir, "/proc/", 6) != 0,
			  "%s: not a directory to keep names in", p.above[i].dir);
	/* (Looked up by bsearch: sorted, and few enough for the set.) */
	size_t k = 0;
	for (; cordon_found_above[k + 1]; k++)
		cr_expect_lt(strcmp(cordon_found_above[k], cordon_found_above[k + 1]), 0,
			     "cordon_found_above not sorted at %s", cordon_found_above[k + 1]);
	cr_expect_lt(k + 1, CORDON_FOUND_ABOVE_MAX);
	cordon_policy_free(&p);
	/* (Another session's stand-in for .git there, an empty socket file
	 * of mode 0, is no repository, and no name there: round 29c F1.) */
	char *standin = path_join(bare, ".git");
	cr_assert_eq(mknod(standin, S_IFSOCK, 0), 0, "%s: %s", standin, strerror(errno));
	struct cordon_context ctx2 = {.project = app, .uid = 0, .kind = CORDON_KIND_TERMINAL};
	resolve_json(json, &ctx2, &p);
	cr_expect(has(&p, bare, "package.json") && has(&p, bare, ".git"),
		  "above the project, in no repository: its missing names");
	cr_expect_null(find_rule(&p, bare), "a stand-in for .git made it a root");
	unlink(standin);
	free(standin);
	cordon_policy_free(&p);
	free(json);
	json = fmt("{\"system_paths\": {\"read_write\": [\"%s\"]}, \"protected_paths\": []}",
		   shared);
	resolve_json(json, &ctx, &p);
	cr_expect_eq(p.n_above, 0, "protected_paths [] turns it off");
	cr_expect_eq(p.shared.n, 0, "and the shared directory's sweep");
	cr_expect_null(guard_at(&p, mono, ".git/hooks"));
	cr_expect_null(find_rule(&p, mono), "nor a root above");
	cordon_policy_free(&p);
	free(json), free(shared), free(mono), free(pkgs), free(proj), free(bare), free(app);
	free(runtime);
	tmp_cleanup(dir);
	free(dir);
}

/* The forms of mise's config environments' files, told by name alone
 * (the sweep judges any environment's, which no setting may name). */
Test(policy, mise_environment_files_by_name)
{
	static const struct {
		const char *dir, *name, *env; /* env NULL: not one */
	} cases[] = {
		{"", "mise.prod.toml", "prod"},
		{"", "mise.prod.local.toml", "prod"},
		{"", ".mise.ci.toml", "ci"},
		{"", ".mise.ci.local.toml", "ci"},
		{"", "mise.a.b.toml", "a.b"},
		{"", "mise.local.toml", ""},
		{".config", "mise.qa.toml", "qa"},
		{"mise", "config.qa.toml", "qa"},
		{"mise", "config.qa.local.toml", "qa"},
		{"", "config.qa.toml", NULL},
		{".config", "config.qa.toml", NULL},
		{"", "mise.toml", NULL},
		{"", ".mise.toml", NULL},
		{"mise", "config.toml", NULL},
		{"", "mise..toml", NULL},
		{"", "mise..local.toml", NULL},
		{"", "mise.prod.toml.bak", NULL},
		{"", "mise.prod.json", NULL},
		{"", "xmise.prod.toml", NULL},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char env[64] = "unset";
		bool is = cordon_mise_env_file(cases[i].dir, cases[i].name, env, sizeof(env));
		cr_expect_eq(is, cases[i].env != NULL, "%s/%s: %d", cases[i].dir, cases[i].name,
			     is);
		if (is && cases[i].env)
			cr_expect_str_eq(env, cases[i].env, "%s/%s", cases[i].dir, cases[i].name);
	}
}

/* Rule paths the kernel resolves are compared as text: one whose text is
 * not what it names is resolved (round 33b K2). */
Test(policy, dotted_paths)
{
	static const struct {
		const char *path;
		bool dotted;
	} cases[] = {{"/a/b", false},   {"/", false},    {"/a/..", true},  {"/a/./b", true},
		     {"/a//b", true},   {"/a/b/", true}, {"/a/.b", false}, {"/a/..b", false},
		     {"/a/b..", false}, {"/..", true},   {"/.", true}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++)
		cr_expect_eq(cordon_path_dotted(cases[i].path), cases[i].dotted, "%s",
			     cases[i].path);
}

Test(policy, lexical_paths)
{
	static const char *const cases[][2] = {
		{"/a/b", "/a/b"},   {"/a/../b", "/b"},      {"/a/./b/", "/a/b"},
		{"//a//b", "/a/b"}, {"/..", "/"},           {"/a/..", "/"},
		{"/", "/"},         {"/a/b/../../..", "/"}, {"/a/.b/..c", "/a/.b/..c"}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *got = cordon_path_lexical(cases[i][0]);
		cr_assert_not_null(got);
		cr_expect_str_eq(got, cases[i][1], "%s", cases[i][0]);
		free(got);
	}
}
