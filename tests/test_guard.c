/* protected_paths and hidden_paths: from config to guards to the mount
 * plan, on a real directory tree (the mounts themselves are tested from
 * outside in escape/guards.c). */
#include <criterion/criterion.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "cordon/config.h"
#include "cordon/guard.h"
#include "cordon/policy.h"
#include "cordon/sweep.h"
#include "cordon/strv.h"
#include "dotfile-refs.h"
#include "secret-names.h"
#include "sweep-fs.h"
#include "helpers.h"

struct tree {
	char *root, *proj, *home;
};

static void tree_init(struct tree *t, const char *tag)
{
	t->root = tmp_dir(tag);
	t->proj = path_join(t->root, "proj");
	t->home = path_join(t->root, "home");
	free(write_file(t->proj, ".git/config", "[core]\n"));
	free(write_file(t->proj, ".git/HEAD", "ref: refs/heads/main\n"));
	free(write_file(t->home, ".config/gh/hosts.yml", "token\n"));
	free(write_file(t->home, ".config/other.conf", "x\n"));
	free(write_file(t->home, ".ssh/id_test", "key\n"));
}

static void tree_free(struct tree *t)
{
	tmp_cleanup(t->root);
	free(t->root);
	free(t->proj);
	free(t->home);
}

static void resolve(const struct tree *t, const char *json, struct cordon_policy *p)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_config_parse(json, strlen(json), "/t.json", &cfg, &err), 0, "%s",
		     err.msg);
	struct cordon_context ctx = {.project = t->proj,
				     .home = t->home,
				     .uid = getuid(),
				     .kind = CORDON_KIND_TERMINAL,
				     .session = "s"};
	cr_assert_eq(cordon_policy_resolve(&cfg, &ctx, p, &err), 0, "%s", err.msg);
	cordon_config_free(&cfg);
}

static const struct cordon_guard *guard(const struct cordon_policy *p, const char *path)
{
	for (size_t i = 0; i < p->n_guards; i++)
		if (strcmp(p->guards[i].path, path) == 0)
			return &p->guards[i];
	return NULL;
}

static const struct cordon_mount *mount_at(const struct cordon_guard_plan *plan, const char *path)
{
	for (size_t i = 0; i < plan->n; i++)
		if (strcmp(plan->v[i].path, path) == 0)
			return &plan->v[i];
	return NULL;
}

static char *at(const char *dir, const char *rel)
{
	return path_join(dir, rel);
}

Test(guard, defaults_and_turning_them_off)
{
	struct tree t;
	tree_init(&t, "gdef");
	struct cordon_policy p;
	resolve(&t, "{}", &p);
	char *hooks = at(t.proj, ".git/hooks"), *gh = at(t.home, ".config/gh"),
	     *cfgdir = at(t.home, ".config/cordon"), *bashrc = at(t.home, ".bashrc");
	const struct cordon_guard *g = guard(&p, hooks);
	cr_assert_not_null(g);
	cr_expect_eq(g->kind, CORDON_GUARD_PROTECT);
	cr_expect_str_eq(g->source, "protected_paths (default)");
	cr_assert_not_null(g = guard(&p, gh));
	cr_expect_eq(g->kind, CORDON_GUARD_HIDE);
	cr_expect_not_null(guard(&p, cfgdir), "cordon's own config directory is guarded");
	cr_expect_not_null(guard(&p, bashrc), "dotfiles are guarded");
	cordon_policy_free(&p);

	resolve(&t, "{\"protected_paths\": [], \"hidden_paths\": []}", &p);
	cr_expect_null(guard(&p, hooks));
	cr_expect_null(guard(&p, gh));
	cr_expect_not_null(guard(&p, cfgdir), "[] never unguards cordon's own config");
	cordon_policy_free(&p);

	/* A rule naming a hidden path exposes it; one naming its parent does not. */
	resolve(&t, "{\"additional_read_only_paths\": [\"~/.config/gh\", \"~\"]}", &p);
	cr_expect_null(guard(&p, gh));
	char *ssh = at(t.home, ".ssh");
	cr_expect_not_null(guard(&p, ssh));
	/* ... and says so: explain and the run name it, and nothing proposes
	 * more for it. */
	cr_assert_eq(p.n_exposed, 1);
	cr_expect_str_eq(p.exposed[0].path, gh);
	cr_expect_str_eq(p.exposed[0].source, "hidden_paths (default)");
	cr_expect_str_eq(p.exposed[0].by, "additional_read_only_paths");
	char *hosts = at(gh, "hosts.yml");
	const struct cordon_guard *h = cordon_policy_hidden(&p, hosts);
	cr_expect(h && h->by, "an exposed credential store is still one");
	free(hosts);
	cordon_policy_free(&p);

	resolve(&t, "{\"protected_paths\": [\"build/out\"], \"hidden_paths\": [\"~/notes\"]}", &p);
	char *out = at(t.proj, "build/out"), *notes = at(t.home, "notes");
	cr_expect_not_null(guard(&p, out), "relative to the project");
	/* Missing where no rule reaches: nothing could expose it. */
	cr_expect_null(guard(&p, notes), "a guard nothing could reach");
	cr_expect_null(guard(&p, hooks));
	cordon_policy_free(&p);
	resolve(&t, "{\"hidden_paths\": [\"~/notes\"], \"additional_read_only_paths\": [\"~\"]}",
		&p);
	cr_expect_not_null(guard(&p, notes), "missing, where a rule reaches");
	cordon_policy_free(&p);

	/* The additional_ keys add to the defaults (or to a list of one's own). */
	resolve(&t,
		"{\"additional_protected_paths\": [\"build/out\"], \"additional_hidden_paths\": "
		"[\"~/notes\"], \"additional_read_only_paths\": [\"~\"]}",
		&p);
	cr_assert_not_null(g = guard(&p, out), "an additional protected path");
	cr_expect_str_eq(g->source, "protected_paths (additional_protected_paths)");
	cr_assert_not_null(g = guard(&p, hooks), "the defaults are kept");
	cr_expect_str_eq(g->source, "protected_paths (default)");
	cr_assert_not_null(g = guard(&p, notes), "an additional hidden path");
	cr_expect_eq(g->kind, CORDON_GUARD_HIDE);
	cr_expect_str_eq(g->source, "hidden_paths (additional_hidden_paths)");
	cr_expect_not_null(guard(&p, ssh), "the default hidden paths are kept");
	cordon_policy_free(&p);
	resolve(&t,
		"{\"protected_paths\": [], \"additional_protected_paths\": [\"build/out\"], "
		"\"hidden_paths\": [], \"additional_hidden_paths\": [\"~/.ssh\"], "
		"\"additional_read_only_paths\": [\"~\"]}",
		&p);
	cr_expect_not_null(guard(&p, out), "added to a list of one's own");
	cr_expect_null(guard(&p, hooks));
	cr_expect_not_null(guard(&p, ssh));
	cr_expect_null(guard(&p, gh));
	cordon_policy_free(&p);
	free(hooks), free(gh), free(cfgdir), free(bashrc), free(ssh), free(out), free(notes);
	tree_free(&t);
}

/* A pattern in hidden_paths: what it matches now is a guard (a name that
 * starts with a dot too), and the sieve keeps every name it would match
 * later from a rule: the directories such a match could appear in are
 * granted entry by entry, the others whole (54g G1). */
Test(guard, the_sieve_keeps_what_a_pattern_would_match)
{
	struct tree t;
	tree_init(&t, "gglob");
	free(write_file(t.home, ".config/Zapp/prefs", "x\n"));
	free(write_file(t.home, ".config/.dotapp/Cookies", "x\n"));
	free(write_file(t.home, ".config/Code/User/settings.json", "{}\n"));
	free(write_file(t.home, ".config/Code/Cache/x", "x\n"));
	struct cordon_policy p;
	resolve(&t,
		"{\"hidden_paths\": [\"~/.config/*/Cookies\", \"~/.config/*/User/History\", "
		"\"~/.*rc-secret\"]}",
		&p);
	char home[PATH_MAX];
	cr_assert_not_null(realpath(t.home, home));
	char *dot = at(t.home, ".config/.dotapp/Cookies");
	const struct cordon_guard *g = guard(&p, dot);
	cr_assert_not_null(g, "a name that starts with a dot is matched");
	cr_expect_eq(g->kind, CORDON_GUARD_HIDE);
	char *cookies = at(t.home, ".config/*/Cookies");
	cr_expect(cordon_strv_contains(&p.hidden_globs, cookies), "the pattern is kept");
	struct cordon_sieve s;
	cr_assert_eq(cordon_sieve_init(&p, NULL, &s), 0);
	static const struct {
		const char *rel;
		bool hidden, beneath;
	} cases[] = {
		{"", false, true},
		{"/.config", false, true},
		{"/.config/Zapp", false, true},
		{"/.config/Zapp/Cookies", true, false},
		{"/.config/Zapp/prefs", false, false},
		{"/.config/Zapp/sub", false, false},
		{"/.config/New/Cookies", true, false},
		{"/.config/.dotapp/Cookies", true, false},
		{"/.config/Code/User", false, true},
		{"/.config/Code/User/History", true, false},
		{"/.config/Code/Cache", false, false},
		{"/.config/Zapp/Cookies/x", false, false},
		{"/.bashrc-secret", true, false},
		{"/.bashrc", false, false},
		{"/other", false, false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *path = fmt("%s%s", home, cases[i].rel);
		cr_expect_eq(cordon_sieve_hidden(&s, path), cases[i].hidden, "hidden: %s", path);
		cr_expect_eq(cordon_sieve_hides_beneath(&s, path), cases[i].beneath, "beneath: %s",
			     path);
		free(path);
	}
	cr_expect(cordon_sieve_hides_beneath(&s, "/"));
	cr_expect(!cordon_sieve_hides_beneath(&s, "/usr"));
	cordon_sieve_free(&s);
	/* explain and learn take such a match for a store too, named as the
	 * match: naming it in a rule exposes it. */
	char *later = at(t.home, ".config/Zapp/Cookies/x"),
	     *store = at(t.home, ".config/Zapp/Cookies"), *prefs = at(t.home, ".config/Zapp/prefs");
	const struct cordon_guard *h = cordon_policy_hidden(&p, later);
	cr_assert_not_null(h, "a match made later is a store");
	cr_expect_str_eq(h->path, store);
	cr_expect_null(cordon_policy_hidden(&p, prefs));
	free(later), free(store), free(prefs);
	cordon_policy_free(&p);
	free(dot), free(cookies);
	tree_free(&t);
}

/* A home, and a project, whose names hold "[", "*" or "?" are names, not
 * patterns of their own (round 58a F-A: a home at .../h[1] made every
 * default pattern match nothing, and the sieve kept nothing made later;
 * a project at .../pro[j] hid none of its own patterns' matches). */
Test(guard, a_pattern_s_home_and_project_are_names)
{
	struct tree t;
	tree_init(&t, "gglobname");
	char *home = path_join(t.root, "h[1]*?"), *proj = path_join(t.root, "pro[j]");
	free(write_file(home, ".config/App/Cookies", "x\n"));
	free(write_file(home, ".config/App/prefs", "x\n"));
	free(write_file(proj, "secrets/a.key", "x\n"));
	free(write_file(t.root, "h1/.config/App/Cookies", "x\n")); /* what h[1] would match */
	free(t.home), free(t.proj);
	t.home = home, t.proj = proj;
	struct cordon_policy p;
	resolve(&t,
		"{\"hidden_paths\": [\"~/.config/*/Cookies\", \"secrets/*.key\"], "
		"\"additional_read_only_paths\": [\"~\"]}",
		&p);
	char *cookies = at(home, ".config/App/Cookies"), *key = at(proj, "secrets/a.key");
	cr_expect_not_null(guard(&p, cookies), "the match beneath a home named h[1]*?");
	cr_expect_not_null(guard(&p, key), "the match beneath a project named pro[j]");
	char *other = path_join(t.root, "h1/.config/App/Cookies");
	cr_expect_null(guard(&p, other), "h[1] taken for a pattern");
	struct cordon_sieve s;
	cr_assert_eq(cordon_sieve_init(&p, NULL, &s), 0);
	char canon[PATH_MAX];
	cr_assert_not_null(realpath(home, canon));
	char *later = fmt("%s/.config/App/Network", canon), *app = fmt("%s/.config/App", canon),
	     *prefs = fmt("%s/.config/App/prefs", canon),
	     *later_cookies = fmt("%s/.config/New/Cookies", canon);
	cr_expect(cordon_sieve_hides_beneath(&s, app));
	cr_expect(cordon_sieve_hidden(&s, later_cookies));
	cr_expect(!cordon_sieve_hidden(&s, prefs));
	cr_expect(!cordon_sieve_hidden(&s, later));
	cordon_sieve_free(&s);
	cordon_policy_free(&p);
	free(cookies), free(key), free(other), free(later), free(app), free(prefs),
		free(later_cookies);
	tree_free(&t);
}

Test(guard, plan_mounts_only_what_a_rule_reaches)
{
	struct tree t;
	tree_init(&t, "gplan");
	struct cordon_policy p;
	resolve(&t, "{}", &p);
	struct cordon_guard_plan plan;
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	char *config = at(t.proj, ".git/config"), *dotgit = at(t.proj, ".git"),
	     *hooks = at(t.proj, ".git/hooks"), *gh = at(t.home, ".config/gh"),
	     *ssh = at(t.home, ".ssh"), *bashrc = at(t.home, ".bashrc");
	const struct cordon_mount *m = mount_at(&plan, config);
	cr_assert_not_null(m, ".git/config is writable by the project rule: made read-only");
	cr_expect_eq(m->op, CORDON_MOUNT_RO);
	cr_assert_not_null(m = mount_at(&plan, dotgit), ".git is pinned");
	cr_expect_eq(m->op, CORDON_MOUNT_PIN);
	cr_expect_null(mount_at(&plan, hooks), "not made without CREATE, so nothing to mount");
	cr_assert_not_null(m = mount_at(&plan, gh), "~/.config is readable: gh is covered");
	cr_expect_eq(m->op, CORDON_MOUNT_HIDE);
	cr_expect(m->dir);
	cr_expect_null(mount_at(&plan, ssh), "no rule reaches ~/.ssh: Landlock hides it");
	cr_expect_null(mount_at(&plan, bashrc), "no dotfile is writable: nothing to mount");
	/* Parents before children: .git before .git/config. */
	size_t ig = (size_t)(mount_at(&plan, dotgit) - plan.v);
	size_t ic = (size_t)(mount_at(&plan, config) - plan.v);
	cr_expect_lt(ig, ic);
	bool mcp = false, envrc = false;
	for (size_t i = 0; i < plan.notes.n; i++) {
		mcp |= strstr(plan.notes.v[i], "/.mcp.json") &&
		       strstr(plan.notes.v[i], "stands in");
		envrc |= strstr(plan.notes.v[i], "/.envrc") && strstr(plan.notes.v[i], "stands in");
	}
	cr_expect(mcp, "a missing .mcp.json is said to have a stand-in");
	cr_expect(envrc, "a missing .envrc is said to have a stand-in");
	cordon_guard_plan_free(&plan);

	/* CREATE makes .git/hooks, which is then read-only. */
	cr_assert_eq(cordon_guard_plan(&p, true, &plan), 0);
	struct stat st;
	cr_expect(stat(hooks, &st) == 0 && S_ISDIR(st.st_mode));
	cr_expect_not_null(mount_at(&plan, hooks));
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);

	/* A missing protected file given without the trailing "/" has no
	 * stand-in: it is named as not protected while the session runs. */
	resolve(&t, "{\"protected_paths\": [\"notes.json\"]}", &p);
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	bool notes = false;
	for (size_t i = 0; i < plan.notes.n; i++)
		notes |= strstr(plan.notes.v[i], "/notes.json") &&
			 strstr(plan.notes.v[i], "NOT protected");
	cr_expect(notes, "a missing protected path with no stand-in is named");
	cordon_guard_plan_free(&plan);
	/* A running session's stand-in for it (reguard.c: a socket file of
	 * mode 0) is a missing name too: this session judges and watches it as
	 * well. A link, or a socket with a mode, is not one. */
	char *notes_path = at(t.proj, "notes.json");
	cr_assert_eq(mknod(notes_path, S_IFSOCK, 0), 0);
	cr_expect(cordon_is_stand_in(notes_path));
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	notes = false;
	for (size_t i = 0; i < plan.notes.n; i++)
		notes |= strstr(plan.notes.v[i], "/notes.json") &&
			 strstr(plan.notes.v[i], "NOT protected");
	cr_expect(notes, "a stand-in is taken for a missing name");
	cordon_guard_plan_free(&plan);
	cr_assert_eq(unlink(notes_path), 0);
	cr_assert_eq(symlink("/dev/null/x", notes_path), 0);
	cr_expect_not(cordon_is_stand_in(notes_path));
	cr_assert_eq(unlink(notes_path), 0);
	cr_assert_eq(mknod(notes_path, S_IFSOCK | 0600, 0), 0);
	cr_expect_not(cordon_is_stand_in(notes_path), "a server's socket is no stand-in");
	cr_assert_eq(unlink(notes_path), 0);
	free(notes_path);
	cordon_policy_free(&p);

	/* A rule beneath a protected directory is the user's: ~/.config stays
	 * unmounted (Landlock keeps the rest of it read-only). */
	resolve(&t, "{\"additional_read_write_paths\": [\"~/.config/other.conf\"]}", &p);
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	char *dotconf = at(t.home, ".config");
	cr_expect_null(mount_at(&plan, dotconf));
	free(dotconf);
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);

	/* The home writable: dotfiles and cordon's config directory too. */
	free(write_file(t.home, ".bashrc", "echo hi\n"));
	resolve(&t, "{\"additional_read_write_paths\": [\"~\"]}", &p);
	cr_assert_eq(cordon_guard_plan(&p, true, &plan), 0);
	char *cfgdir = at(t.home, ".config/cordon"), *dotconfig = at(t.home, ".config");
	cr_expect_not_null(mount_at(&plan, bashrc));
	cr_expect(stat(cfgdir, &st) == 0 && S_ISDIR(st.st_mode), "made so none can be made");
	cr_expect_not_null(m = mount_at(&plan, cfgdir));
	cr_expect_not_null(m = mount_at(&plan, dotconfig));
	cr_expect_eq(m->op, CORDON_MOUNT_RO);
	cr_expect_not_null(m = mount_at(&plan, ssh), "~ granted: ~/.ssh is covered");
	cr_expect_eq(m->op, CORDON_MOUNT_HIDE);
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	free(config), free(dotgit), free(hooks), free(gh), free(ssh), free(bashrc), free(cfgdir),
		free(dotconfig);
	tree_free(&t);
}

/* A worktree's .git file: the file itself, and the git dir it names with
 * its common dir. */
Test(guard, git_files_are_followed)
{
	struct tree t;
	tree_init(&t, "gwt");
	char *main_git = at(t.proj, ".git");
	free(write_file(t.proj, ".git/worktrees/w/HEAD", "ref: refs/heads/w\n"));
	free(write_file(t.proj, ".git/worktrees/w/commondir", "../..\n"));
	free(write_file(t.proj, ".git/modules/lib/a/HEAD", "ref: refs/heads/main\n"));
	free(write_file(t.proj, ".git/modules/lib/a/config", "[core]\n"));
	/* (A git dir as git and the sweep take one: objects and refs too.) */
	free(write_file(t.proj, ".git/modules/lib/a/objects/info/packs", ""));
	free(write_file(t.proj, ".git/modules/lib/a/refs/heads/main", "0\n"));
	char *wt = at(t.proj, "wt");
	char *gitdir_line;
	cr_assert(asprintf(&gitdir_line, "gitdir: %s/worktrees/w\n", main_git) > 0);
	free(write_file(wt, ".git", gitdir_line));
	struct cordon_policy p;
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_config_parse("{}", 2, "/t.json", &cfg, &err), 0);
	struct cordon_context ctx = {.project = wt,
				     .home = t.home,
				     .uid = getuid(),
				     .kind = CORDON_KIND_TERMINAL,
				     .session = "s",
				     .extra = {[CORDON_CLASS_RW] = {0}}};
	char *extra[] = {t.proj, NULL};
	ctx.extra[CORDON_CLASS_RW] = (struct cordon_strv){.v = extra, .n = 1};
	cr_assert_eq(cordon_policy_resolve(&cfg, &ctx, &p, &err), 0, "%s", err.msg);
	cordon_config_free(&cfg);
	struct cordon_guard_plan plan;
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	char *dotgit_file = at(wt, ".git"), *commondir = at(t.proj, ".git/worktrees/w/commondir"),
	     *common_config = at(t.proj, ".git/config"),
	     *module_config = at(t.proj, ".git/modules/lib/a/config");
	const struct cordon_mount *m = mount_at(&plan, dotgit_file);
	cr_assert_not_null(m, "the worktree's .git file");
	cr_expect_eq(m->op, CORDON_MOUNT_RO);
	cr_expect_not(m->dir);
	cr_expect_not_null(mount_at(&plan, commondir));
	cr_expect_not_null(mount_at(&plan, common_config), "the common dir's config");
	cr_expect_not_null(mount_at(&plan, module_config), "a submodule's config");
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	free(main_git), free(wt), free(gitdir_line), free(dotgit_file), free(commondir),
		free(common_config), free(module_config);
	tree_free(&t);
}

/* A protected path that is a symbolic link in a writable directory could
 * be replaced: the plan pins the link itself in place (a mount on it,
 * which cannot be renamed or removed), and keeps what it leads to
 * read-only. */
Test(guard, symlink_in_writable_dir_is_pinned)
{
	struct tree t;
	tree_init(&t, "glink");
	char *real = at(t.proj, "real-vscode");
	cr_assert_eq(mkdir(real, 0755), 0);
	char *link = at(t.proj, ".vscode");
	cr_assert_eq(symlink(real, link), 0);
	struct cordon_policy p;
	resolve(&t, "{}", &p);
	struct cordon_guard_plan plan;
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	cr_expect_null(plan.refuse, "%s", plan.refuse);
	const struct cordon_mount *m = mount_at(&plan, link);
	cr_expect(m && m->op == CORDON_MOUNT_PIN, "the link is not pinned");
	m = mount_at(&plan, real);
	cr_expect(m && m->op == CORDON_MOUNT_RO, "what it leads to is not read-only");
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	cr_assert_eq(unlink(link), 0);

	/* .git itself a link to a git dir elsewhere in the project. */
	char *dotgit = at(t.proj, ".git"), *moved = at(t.proj, "gitdir");
	char *config = at(moved, "config");
	cr_assert_eq(rename(dotgit, moved), 0);
	cr_assert_eq(symlink(moved, dotgit), 0);
	resolve(&t, "{}", &p);
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	cr_expect_null(plan.refuse, "%s", plan.refuse);
	m = mount_at(&plan, dotgit);
	cr_expect(m && m->op == CORDON_MOUNT_PIN, "the .git link is not pinned");
	m = mount_at(&plan, config);
	cr_expect(m && m->op == CORDON_MOUNT_RO, "the config it leads to is not read-only");
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	free(real), free(link), free(dotgit), free(moved), free(config);
	tree_free(&t);
}

/* The home is closed when a rule makes it writable, and only then; not
 * when a system_paths rule covers it (HOME=/tmp/x would close /tmp's top,
 * where every program makes its temporary files). */
Test(guard, the_home_is_closed_when_a_rule_makes_it_writable)
{
	struct tree t;
	tree_init(&t, "closed");
	char *home = realpath(t.home, NULL);
	struct cordon_policy p;
	resolve(&t, "{}", &p);
	char *closed = cordon_guard_closed_dir(&p);
	cr_expect_null(closed, "closed without a rule over the home: %s", closed);
	free(closed);
	cordon_policy_free(&p);

	resolve(&t, "{\"additional_read_write_paths\": [\"~\"]}", &p);
	closed = cordon_guard_closed_dir(&p);
	cr_expect(closed && strcmp(closed, home) == 0, "not closed: %s", closed);
	free(closed);
	struct cordon_guard_plan plan;
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	cr_expect(plan.closed && strcmp(plan.closed, home) == 0);
	for (size_t i = 0; i < plan.unguarded.n; i++)
		cr_expect_not(strncmp(plan.unguarded.v[i], home, strlen(home)) == 0,
			      "a missing name in the closed home is said to be unguarded: %s",
			      plan.unguarded.v[i]);
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);

	char *json = fmt("{\"system_paths\": {\"read_write\": [\"%s\"]}, "
			 "\"additional_read_write_paths\": [\"~\"]}",
			 t.root);
	resolve(&t, json, &p);
	closed = cordon_guard_closed_dir(&p);
	cr_expect_null(closed, "closed beneath a system_paths rule: %s", closed);
	free(closed);
	cordon_policy_free(&p);
	free(json);
	free(home);
	tree_free(&t);
}

/* A trailing "/" asks for a stand-in: the slash is gone from the guard,
 * and the launcher's plan lists it (missing, or an existing directory, to
 * be held) among the placeholders, not among the unguarded names; one
 * without the slash that is missing stays unguarded. */
Test(guard, a_trailing_slash_asks_for_a_placeholder)
{
	struct tree t;
	tree_init(&t, "gslash");
	free(write_file(t.proj, ".full/settings.json", "{}\n"));
	char *empty = at(t.proj, ".empty");
	cr_assert_eq(mkdir(empty, 0755), 0);
	struct cordon_policy p;
	resolve(&t,
		"{\"protected_paths\": [\".missing/\", \".empty/\", \".full//\", \".rc\"], "
		"\"additional_read_write_paths\": [\".\"]}",
		&p);
	char *missing = at(t.proj, ".missing"), *full = at(t.proj, ".full"),
	     *rc = at(t.proj, ".rc");
	const struct cordon_guard *g = guard(&p, missing);
	cr_assert_not_null(g, "the slash was kept in the guard's path");
	cr_expect_eq(g->kind, CORDON_GUARD_PROTECT | CORDON_GUARD_PLACEHOLDER);
	cr_assert_not_null(g = guard(&p, full));
	cr_expect_eq(g->kind, CORDON_GUARD_PROTECT | CORDON_GUARD_PLACEHOLDER);
	cr_assert_not_null(g = guard(&p, rc));
	cr_expect_eq(g->kind, CORDON_GUARD_PROTECT);
	struct cordon_strv unguarded = {0}, placeholders = {0};
	cr_assert_eq(cordon_guard_unguarded(&p, &unguarded, &placeholders, NULL, NULL, NULL), 0);
	cr_expect(cordon_strv_contains(&placeholders, missing));
	cr_expect(cordon_strv_contains(&placeholders, empty));
	cr_expect(cordon_strv_contains(&placeholders, full), "an existing one is held too");
	cr_expect_not(cordon_strv_contains(&unguarded, missing));
	cr_expect(cordon_strv_contains(&unguarded, rc));
	cordon_strv_free(&unguarded);
	cordon_strv_free(&placeholders);
	struct cordon_guard_plan plan;
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	cr_expect(cordon_strv_contains(&plan.placeholders, missing));
	cr_expect_not_null(mount_at(&plan, empty), "an empty one is bound read-only");
	cr_expect_not_null(mount_at(&plan, full));
	cr_expect_null(mount_at(&plan, missing));
	struct stat st;
	cr_expect_neq(lstat(missing, &st), 0, "the plan made a placeholder itself");
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	free(empty), free(missing), free(full), free(rc);
	tree_free(&t);
}

/* The placeholders' life, on real directories: made, marked and held;
 * nothing removed while the session may still run (ENDED false); once
 * over, an empty one is removed, a filled one kept, unmarked and named;
 * one held by another holder is left to it. */
Test(guard, placeholders_are_removed_only_when_safe)
{
	struct tree t;
	tree_init(&t, "gph");
	char *a = at(t.proj, ".a"), *b = at(t.proj, ".b"), *f = at(t.proj, ".b/mine");
	struct cordon_strv paths = {0}, unguarded = {0}, filled = {0};
	cr_assert_eq(cordon_strv_push(&paths, a), 0);
	cr_assert_eq(cordon_strv_push(&paths, b), 0);
	struct cordon_placeholders h, other;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_placeholders_hold(&paths, NULL, &h, &unguarded, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(h.n, 2);
	cr_expect_eq(unguarded.n, 0);
	cr_expect(file_exists(a) && file_exists(b));
	cordon_placeholders_release(&h, false, &filled);
	cr_expect(file_exists(a) && file_exists(b), "removed while the session may still run");

	/* Held again (found, marked); a second holder keeps them. */
	cr_assert_eq(cordon_placeholders_hold(&paths, NULL, &h, &unguarded, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(cordon_placeholders_hold(&paths, NULL, &other, &unguarded, &err), 0, "%s",
		     err.msg);
	cordon_placeholders_release(&h, true, &filled);
	cr_expect(file_exists(a) && file_exists(b), "removed under another holder");
	free(write_file(t.proj, ".b/mine", "x"));
	cordon_placeholders_release(&other, true, &filled);
	cr_expect_not(file_exists(a), "an empty one was kept");
	cr_expect(file_exists(f), "a filled one lost its file");
	char v[4];
	cr_expect_lt(getxattr(b, "user.cordon.placeholder", v, sizeof(v)), 0,
		     "a filled one is still marked");
	cr_expect_eq(filled.n, 0, "named though this holder did not make it");
	cordon_strv_free(&filled);

	/* Made by this holder and filled: named. */
	cr_assert_eq(unlink(f), 0);
	cr_assert_eq(rmdir(b), 0);
	cr_assert_eq(cordon_placeholders_hold(&paths, NULL, &h, &unguarded, &err), 0, "%s",
		     err.msg);
	free(write_file(t.proj, ".b/mine", "x"));
	cordon_placeholders_release(&h, true, &filled);
	cr_expect(filled.n == 1 && strcmp(filled.v[0], b) == 0, "a filled placeholder not named");
	cordon_strv_free(&filled);
	cordon_strv_free(&paths);
	cordon_strv_free(&unguarded);
	free(a), free(b), free(f);
	tree_free(&t);
}

/* File placeholders (a missing file git's config includes): made empty,
 * a regular file, marked and held; removed once over while empty; kept,
 * unmarked and named when something was written into it. */
Test(guard, file_placeholders_are_removed_only_when_empty)
{
	struct tree t;
	tree_init(&t, "gphf");
	char *a = at(t.proj, "team.gitconfig"), *b = at(t.proj, "local.gitconfig");
	struct cordon_strv files = {0}, none = {0}, unguarded = {0}, filled = {0};
	cr_assert_eq(cordon_strv_push(&files, a), 0);
	cr_assert_eq(cordon_strv_push(&files, b), 0);
	struct cordon_placeholders h;
	struct cordon_error err = {0};
	cr_assert_eq(cordon_placeholders_hold(&none, &files, &h, &unguarded, &err), 0, "%s",
		     err.msg);
	cr_assert_eq(h.n, 2);
	cr_expect_eq(unguarded.n, 0);
	struct stat st;
	cr_expect(stat(a, &st) == 0 && S_ISREG(st.st_mode) && st.st_size == 0, "not an empty file");
	char v[4];
	cr_expect_gt(getxattr(a, "user.cordon.placeholder", v, sizeof(v)), 0, "not marked");
	free(write_file(t.proj, "local.gitconfig", "[alias]\n"));
	cordon_placeholders_release(&h, true, &filled);
	cr_expect_not(file_exists(a), "an empty one was kept");
	char *now = read_file(b);
	cr_expect_str_eq(now, "[alias]\n", "a written one lost its bytes");
	free(now);
	cr_expect_lt(getxattr(b, "user.cordon.placeholder", v, sizeof(v)), 0,
		     "a written one is still marked");
	cr_expect(filled.n == 1 && strcmp(filled.v[0], b) == 0, "a written one not named");
	cordon_strv_free(&filled);
	cordon_strv_free(&files);
	cordon_strv_free(&unguarded);
	free(a), free(b);
	tree_free(&t);
}

/* Case I (TEXT) gave the risks OUT: holding WANT, or none when WANT is
 * "". */
static void expect_risks(size_t i, const char *text, const char *out, const char *want)
{
	if (want[0])
		cr_expect(strstr(out, want), "case %zu: \"%s\" gave \"%s\"", i, text, out);
	else
		cr_expect_str_empty(out, "case %zu: \"%s\" gave \"%s\"", i, text, out);
}

/* T at or after SINCE. */
static bool at_or_after(const struct timespec *t, const struct timespec *since)
{
	return t->tv_sec > since->tv_sec ||
	       (t->tv_sec == since->tv_sec && t->tv_nsec >= since->tv_nsec);
}

/* The sweep's start (shim/sweep.c since_now) on a multigrain file system
 * (Linux 6.13 on): the kernel's stamp for a change made now is later than
 * a change made just before it to a file looked at first (stamped finely,
 * up to a tick past the coarse clock: the first walk took such a file of
 * the user's, chowned just before the session started, for the
 * session's), and no later than a change made just after it to a file
 * not looked at (stamped by the kernel's floor, not the coarse clock).
 * Each twenty times, so that some fall in one tick. */
Test(guard, the_stamp_of_now_falls_between_changes)
{
	char *dir = tmp_dir("gstamp");
	cr_assert(cordon_fs_multigrain(dir), "%s is not on a multigrain file system", dir);
	char *before = fmt("%s/before", dir), *later = fmt("%s/later", dir);
	for (int i = 0; i < 20; i++) {
		free(write_file(dir, "before", "x"));
		free(write_file(dir, "later", "x"));
		struct stat st, made;
		struct timespec now;
		cr_assert(stat(before, &st) == 0 && chmod(before, 0600 | (i & 1) * 0040) == 0 &&
			  stat(before, &made) == 0);
		cr_assert(cordon_fs_stamp_now(dir, &now), "no stamp in %s", dir);
		cr_expect(!at_or_after(&made.st_ctim, &now),
			  "a change before (%lld.%09ld) is not older than the stamp (%lld.%09ld)",
			  (long long)made.st_ctim.tv_sec, made.st_ctim.tv_nsec,
			  (long long)now.tv_sec, now.tv_nsec);
		cr_assert(chmod(later, 0600 | (i & 1) * 0040) == 0 && stat(later, &st) == 0);
		cr_expect(at_or_after(&st.st_ctim, &now),
			  "a change after (%lld.%09ld) is older than the stamp (%lld.%09ld)",
			  (long long)st.st_ctim.tv_sec, st.st_ctim.tv_nsec, (long long)now.tv_sec,
			  now.tv_nsec);
	}
	free(before), free(later);
}

/* The reader of a git config the sweep decides by (shim/gitrisk.c) fails
 * closed: what git init, git clone and branch tracking write is harmless;
 * a key it does not know, or git syntax it cannot read to the end, is a
 * risk. Checked against real git for the harmless ones. */
Test(guard, git_config_reader_fails_closed)
{
	char *dir = tmp_dir("gcfg");
	char *cmd;
	cr_assert(asprintf(&cmd,
			   "cd '%s' && git init -q a && git -C a remote add origin https://x/y && "
			   "git -C a config branch.main.remote origin && "
			   "git -C a config branch.main.merge refs/heads/main && "
			   "git -C a config user.name 'A B' && git -C a config color.ui auto",
			   dir) > 0);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	char out[512] = "";
	char *real = path_join(dir, "a/.git/config");
	cordon_git_config_risks(real, out, sizeof(out));
	cr_expect_str_empty(out, "git's own config: %s", out);
	free(real);
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"[core]\n\tfsmonitor = x\n", "core.fsmonitor"},
		{"[x] [core] fsmonitor = x\n", "core.fsmonitor"},
		{"[core]\r\tfsmonitor = x\n", "core.fsmonitor"},
		{"[alias]\n\tst = !touch x\n", "alias.st"},
		{"[remote \"o\"]\n\turl = a\n\tuploadpack = x\n", "remote.*.uploadpack"},
		{"[include]\n\tpath = x\n", "include.path"},
		{"[core]\n\tbare = false \\\n[core] fsmonitor = x\n",
		 "a config cordon cannot read"},
		{"[user]\n\tname = \"\\\n\tx;\\\n\tname = \";\\\n[core] fsmonitor = x\n",
		 "a config cordon cannot read"},
		{"[core\n\tfsmonitor = x\n", "a config cordon cannot read"},
		{"[core]\n\t\"fsmonitor\" = x\n", "a config cordon cannot read"},
		{"[core]\n\tbare = \"x\n", "a config cordon cannot read"},
		{"fsmonitor = x\n", "a config cordon cannot read"},
		{"[user]\n\tname = a # b\n\temail = c ; d\n", ""},
		{"[remote \"o\"]\n\turl = https://x/y\n\tpushurl = git@h:y\n", ""},
		{"[remote \"o\"]\n\turl = ../y.git\n", ""}, /* (judged by the sweep) */
		{"[remote \"o\"]\n\turl = evil::x\n", "remote.*.url (a remote helper)"},
		{"[remote \"o\"]\n\tpushurl = \"ev\"il://x\n",
		 "remote.*.pushurl (a remote helper)"},
		{"[branch \"m\"]\n\tremote = origin\n\tpushremote = .\n", ""},
		{"[branch \"m\"]\n\tremote = x::y\n", "branch.*.remote (a remote helper)"},
		/* (An escape git refuses: git reads no config there.) */
		{"[remote \"o\"]\n\turl = \"a\\q\"\n", "a config cordon cannot read"},
		/* Switched off, as git reads a boolean (round 30b N5); on, or a
		 * path, it runs something. */
		{"[core]\n\tfsmonitor = false\n\tfsmonitorHookVersion = 2\n", ""},
		{"[core]\n\tfsmonitor = \"No\" # x\n", ""},
		{"[core]\n\tfsmonitor = 0\n[core]\n\tfsmonitor =\n", ""},
		{"[core]\n\tfsmonitor = OFF\n[rerere]\n\tenabled = true\n", ""},
		{"[core]\n\tfsmonitor = false x\n", "core.fsmonitor"},
		{"[core]\n\tfsmonitor = 0x\n", "core.fsmonitor"},
		{"[core]\n\tfsmonitor\n", "core.fsmonitor"},
		{"[core]\n\tfsmonitor = true\n", "core.fsmonitor"},
		/* (git keeps a vertical tab or a form feed: a program's name.) */
		{"[core]\n\tfsmonitor = \v\n", "core.fsmonitor"},
		{"[core]\n\tfsmonitor = false\v\n", "core.fsmonitor"},
		{"[core]\n\tfsmonitor = \fno\n", "core.fsmonitor"},
		{"[core \"x\"]\n\tfsmonitor = false\n", "core.*.fsmonitor"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *f = write_file(dir, "config", cases[i].text);
		out[0] = '\0';
		cordon_git_config_risks(f, out, sizeof(out));
		expect_risks(i, cases[i].text, out, cases[i].want);
		free(f);
	}
	/* More settings than cordon compares, and a NUL in it. */
	char *big = malloc(9000 * 14 + 64);
	strcpy(big, "[core]\n");
	for (int i = 0; i < 9000; i++)
		strcat(big, "\tbare = true\n");
	char *f = write_file(dir, "config", big);
	out[0] = '\0';
	cordon_git_config_risks(f, out, sizeof(out));
	cr_expect(strstr(out, "cannot read"), "a long config: \"%s\"", out);
	free(f);
	free(big);
	f = path_join(dir, "config");
	FILE *fp = fopen(f, "w");
	cr_assert(fp);
	fwrite("[core]\n\tbare\0 = x\n", 1, 18, fp);
	fclose(fp);
	out[0] = '\0';
	cordon_git_config_risks(f, out, sizeof(out));
	cr_expect(strstr(out, "cannot read"), "a NUL: \"%s\"", out);
	free(f);
	tmp_cleanup(dir);
	free(dir);
}

/* What a config already set (cordon_git_config_scan's SEEN) adds no
 * risk when it is read again with it as KNOWN: a setting is known by its
 * section header and its whole line (less the blanks before it), so a
 * new key, a new value, the same line under another header, or a line
 * with a comment added count. */
Test(guard, git_config_scan_knows_what_was_there)
{
	char *dir = tmp_dir("gscan");
	char *before = write_file(dir, "before",
				  "[core]\n\thooksPath = .husky\n"
				  "[alias]\n\tst = !git status\n");
	struct cordon_git_entries had;
	char out[256] = "";
	cr_assert(cordon_git_config_scan(before, NULL, &had, out, sizeof(out)));
	cr_expect_eq(had.v.n, 2, "%zu settings", had.v.n);
	static const struct {
		const char *text, *want;
	} cases[] = {
		{"[core]\n\thooksPath = .husky\n[alias]\n\tst = !git status\n", ""},
		{"[core]\n\tbare = false\n\thooksPath = .husky\n[branch \"main\"]\n\tremote = o\n"
		 "[alias]\n\tst = !git status\n",
		 ""},
		{"[core]\n\thooksPath = evil\n", "core.hookspath"},
		{"[core]\n\thooksPath = .husky\n\tfsmonitor = x\n", "core.fsmonitor"},
		{"[x]\n\thooksPath = .husky\n", "x.hookspath"},
		{"[core]\n\thooksPath = .husky # x\n", "core.hookspath"},
		{"[core] hooksPath = .husky\n", ""}, /* the same header, the same setting */
		{"[core]\n\thooksPath = .husky\n\x01", "a config cordon cannot read"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *f = write_file(dir, "after", cases[i].text);
		out[0] = '\0';
		(void)cordon_git_config_scan(f, &had, NULL, out, sizeof(out));
		expect_risks(i, cases[i].text, out, cases[i].want);
		free(f);
	}
	cordon_git_entries_free(&had);
	free(before);
	free(dir);
}

/* Which index entry paths git's verify_path takes (shim/gitrisk.c), as
 * the sweep judges a planted index: on this system, and on HFS+. */
Test(guard, git_index_paths_as_verify_path_takes_them)
{
	static const struct {
		const char *path;
		unsigned mode;
		bool ok, ok_hfs;
	} cases[] = {
		{"a", 0100644, true, true},
		{"dir/b.c", 0100644, true, true},
		{".gitignore", 0100644, true, true},
		{"a.git/x", 0100644, true, true},
		{"...", 0100644, true, true},
		{"sub", 0160000, true, true},
		{"dir/", 0040000, true, true},
		{"dir/", 0100644, false, false},
		{"", 0100644, false, false},
		{"/etc/passwd", 0100644, false, false},
		{"a//b", 0100644, false, false},
		{"./a", 0100644, false, false},
		{"../a", 0100644, false, false},
		{"a/../../b", 0100644, false, false},
		{".git/hooks/pre-commit", 0100755, false, false},
		{"x/.GiT/config", 0100644, false, false},
		{"git~1/hooks/x", 0100644, false, false},
		{".git. /hooks/x", 0100644, false, false},
		{"a\\.git\\hooks", 0100644, false, false},
		{".gitmodules", 0100644, true, true},
		{".gitmodules", 0120000, false, false},
		{".g\xe2\x80\x8cit/hooks/x", 0100644, true, false},
		{".git\xef\xbb\xbf/x", 0100644, true, false},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		cr_expect_eq(cordon_git_path_ok(cases[i].path, cases[i].mode, false), cases[i].ok,
			     "\"%s\" %o", cases[i].path, cases[i].mode);
		cr_expect_eq(cordon_git_path_ok(cases[i].path, cases[i].mode, true),
			     cases[i].ok_hfs, "\"%s\" %o on HFS+", cases[i].path, cases[i].mode);
	}
}

/* A git index built here: VERSION, the entries NAMES (mode 100644, a
 * version 4 name built on the one before), then the extension bytes EXT
 * (N_EXT), then a hash of zeros; into DIR/NAME. */
static char *index_of(const char *dir, const char *name, unsigned version,
		      const char *const names[], const unsigned char *ext, size_t n_ext)
{
	unsigned char buf[4096];
	size_t n = 12, count = 0;
	memcpy(buf, "DIRC\0\0\0", 7);
	buf[7] = (unsigned char)version;
	const char *prev = "";
	for (; names[count]; count++) {
		const char *nm = names[count];
		size_t len = strlen(nm);
		memset(buf + n, 0, 62);
		buf[n + 26] = 0x81, buf[n + 27] = 0xa4; /* 100644 */
		buf[n + 60] = (unsigned char)(len >> 8), buf[n + 61] = (unsigned char)len;
		n += 62;
		if (version == 4) {
			size_t common = 0;
			while (prev[common] && prev[common] == nm[common])
				common++;
			buf[n++] = (unsigned char)(strlen(prev) - common); /* (short names) */
			memcpy(buf + n, nm + common, len - common + 1);
			n += len - common + 1;
		} else {
			memcpy(buf + n, nm, len);
			size_t size = (62 + len + 8) & ~(size_t)7;
			memset(buf + n + len, 0, size - 62 - len);
			n += size - 62;
		}
		prev = nm;
	}
	buf[11] = (unsigned char)count;
	memcpy(buf + n, ext, n_ext);
	n += n_ext;
	memset(buf + n, 0, 20);
	n += 20;
	char *path = path_join(dir, name);
	FILE *f = fopen(path, "w");
	cr_assert(f && fwrite(buf, 1, n, f) == n && fclose(f) == 0);
	return path;
}

static void expect_index(const char *path, const char *want, const char *what)
{
	char out[512] = "";
	cordon_git_index_risks(path, 20, false, out, sizeof(out));
	if (want[0])
		cr_expect(strstr(out, want), "%s: \"%s\"", what, out);
	else
		cr_expect_str_empty(out, "%s: \"%s\"", what, out);
}

/* The index reader (shim/gitrisk.c): what git writes (versions 2 to 4, a
 * split index, the offset tables it reads in threads) adds no risk; a
 * planted path does, in any stream of entries git may read, and so does
 * an index it cannot read to its end. */
Test(guard, git_index_reader_finds_planted_paths)
{
	char *dir = tmp_dir("gindex");
	char *cmd;
	cr_assert(
		asprintf(&cmd,
			 "cd '%s' && git init -q a && cd a && mkdir -p d/e && echo 1 > .gitignore "
			 "&& echo 2 > d/e/f && echo 3 > d/g && ln -s d l && git add -A",
			 dir) > 0);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	char *index = path_join(dir, "a/.git/index");
	static const char *const rewrite[] = {
		"git update-index --index-version 2",
		"git update-index --index-version 3 && git update-index --skip-worktree d/g",
		"git update-index --index-version 4",
		"git -c index.threads=2 -c index.recordOffsetTable=true "
		"-c index.recordEndOfIndexEntries=true update-index --index-version 4 --force-write-index",
		"git update-index --index-version 2 && git update-index --split-index && echo 4 > d/h "
		"&& git add d/h",
	};
	for (size_t i = 0; i < sizeof(rewrite) / sizeof(rewrite[0]); i++) {
		cr_assert(asprintf(&cmd, "cd '%s/a' && %s", dir, rewrite[i]) > 0);
		cr_assert_eq(system(cmd), 0, "%s", cmd);
		free(cmd);
		expect_index(index, "", rewrite[i]);
	}
	/* SHA-256: its ids are longer, as the config says. */
	cr_assert(asprintf(&cmd,
			   "cd '%s' && git init -q --object-format=sha256 b && echo 1 > b/x && "
			   "git -C b add x",
			   dir) > 0);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	char *b_config = path_join(dir, "b/.git/config"), *b_index = path_join(dir, "b/.git/index");
	cr_expect_eq(cordon_git_hash_size(b_config), 32);
	char out[256] = "";
	cordon_git_index_risks(b_index, cordon_git_hash_size(b_config), false, out, sizeof(out));
	cr_expect_str_empty(out, "SHA-256: \"%s\"", out);
	cordon_git_index_risks(b_index, 20, false, out, sizeof(out));
	cr_expect(strstr(out, "cannot read"), "SHA-256 read as SHA-1: \"%s\"", out);
	free(b_config);
	free(b_index);
	char *p = index_of(dir, "v2", 2, (const char *const[]){"../x", "a", NULL}, NULL, 0);
	expect_index(p, "(../x)", "version 2");
	free(p);
	p = index_of(dir, "v4", 4, (const char *const[]){"a/b", "a/../x", NULL}, NULL, 0);
	expect_index(p, "(a/../x)", "version 4");
	free(p);
	p = index_of(dir, "ok", 3, (const char *const[]){"a/b", "c", NULL}, NULL, 0);
	expect_index(p, "", "version 3");
	/* Cut short: git would read past its end. */
	cr_assert_eq(truncate(p, 12 + 62), 0);
	expect_index(p, "an index cordon cannot read", "cut short");
	free(p);
	/* A stream of entries only the offset table names: an optional
	 * extension holding a planted entry, and IEOT pointing at it. */
	unsigned char ext[256] = "ZZZZ";
	size_t at = 8 + 0; /* ZZZZ's data: an entry "../y" */
	memset(ext + at, 0, 62);
	ext[at + 26] = 0x81, ext[at + 27] = 0xa4, ext[at + 61] = 4;
	memcpy(ext + at + 62, "../y\0\0\0\0", 8);
	ext[7] = 70;
	size_t zz_off = 12 + 64 + 8; /* (one entry "a" of 64 bytes before it) */
	memcpy(ext + 78, "IEOT\0\0\0\x0c\0\0\0\x01", 12);
	ext[90] = 0, ext[91] = 0, ext[92] = 0, ext[93] = (unsigned char)zz_off;
	ext[94] = 0, ext[95] = 0, ext[96] = 0, ext[97] = 1;
	p = index_of(dir, "ieot", 2, (const char *const[]){"a", NULL}, ext, 98);
	expect_index(p, "(../y)", "an offset table's block");
	free(p);
	/* Split: an entry with no name takes a shared one's; the shared index
	 * a link names is read too. */
	unsigned char link[28] = "link\0\0\0\x14";
	memset(link + 8, 0xab, 20);
	p = index_of(dir, "split", 2, (const char *const[]){"", NULL}, link, 28);
	expect_index(p, "", "a split index, its shared one missing");
	char *shared = index_of(dir, "sharedindex.abababababababababababababababababababab", 2,
				(const char *const[]){".git/config", NULL}, NULL, 0);
	expect_index(p, "(.git/config)", "its shared index");
	free(shared);
	free(p);
	p = index_of(dir, "nameless", 2, (const char *const[]){"", NULL}, NULL, 0);
	expect_index(p, "a path with no name", "no name, not split");
	free(p);
	free(index);
	tmp_cleanup(dir);
	free(dir);
}

/* What git resumes outside (shim/gitrisk.c): a todo list's exec lines, a
 * merge strategy git would run as a program, in its own file or in
 * sequencer/opts; a file it cannot read is a risk too. Checked against a
 * real todo git wrote for the harmless ones. */
Test(guard, git_todo_reader_finds_what_runs)
{
	char *dir = tmp_dir("gtodo");
	char *cmd;
	cr_assert(asprintf(&cmd,
			   "cd '%s' && git init -q a && cd a && "
			   "git -c user.name=a -c user.email=a@a commit -q --allow-empty -m 1 && "
			   "git -c user.name=a -c user.email=a@a commit -q --allow-empty -m 2 && "
			   "GIT_SEQUENCE_EDITOR=\"sed -i '1i break'\" git -c user.name=a "
			   "-c user.email=a@a rebase -q -i --keep-empty HEAD~1 >/dev/null 2>&1; "
			   "test -f .git/rebase-merge/git-rebase-todo",
			   dir) > 0);
	cr_assert_eq(system(cmd), 0, "git rebase -i did not stop");
	free(cmd);
	char out[512] = "";
	char *real = path_join(dir, "a/.git/rebase-merge/git-rebase-todo");
	cordon_git_todo_risks(real, "todo", CORDON_GIT_TODO, out, sizeof(out));
	cr_expect_str_empty(out, "git's own todo: %s", out);
	free(real);
	static const struct {
		const char *text;
		enum cordon_git_todo kind;
		const char *want;
	} cases[] = {
		{"pick abc x\nexec make\n", CORDON_GIT_TODO, "exec lines in f"},
		{"  x make\n", CORDON_GIT_TODO, "exec lines in f"},
		{"\tEXEC make\n", CORDON_GIT_TODO, "exec lines in f"},
		{"# exec make\npick abc x\nbreak\n", CORDON_GIT_TODO, ""},
		{"pick abc x\0exec make\n", CORDON_GIT_TODO, "a f cordon cannot read"},
		{"ort\n", CORDON_GIT_STRATEGY, ""},
		{"evil\n", CORDON_GIT_STRATEGY, "a merge strategy in f"},
		{"[options]\n\tstrategy = recursive\n", CORDON_GIT_OPTS, ""},
		{"[options]\n\tstrategy=evil\n", CORDON_GIT_OPTS, "a merge strategy in f"},
		{"[options]\n\tStrategy = \"ort\"\n", CORDON_GIT_OPTS, "a merge strategy in f"},
		{"ort ../x\n", CORDON_GIT_STRATEGY, "a merge strategy in f"},
		{"ort\n../x\n", CORDON_GIT_STRATEGY, "a merge strategy in f"},
		{"[options] strategy=evil\n", CORDON_GIT_OPTS, "a merge strategy in f"},
		{"[options]\n\tstrategy = ort ../x\n", CORDON_GIT_OPTS, "a merge strategy in f"},
		{"[options]\n\tstrategy-option = theirs\n\tstrategy = ort\n", CORDON_GIT_OPTS, ""},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char *f = path_join(dir, "f");
		FILE *fp = fopen(f, "w");
		cr_assert_not_null(fp);
		size_t n = strlen(cases[i].text);
		if (strcmp(cases[i].text, "pick abc x") == 0)
			n += 1 + strlen("exec make\n"); /* past the NUL */
		fwrite(cases[i].text, 1, n, fp);
		fclose(fp);
		out[0] = '\0';
		cordon_git_todo_risks(f, "f", cases[i].kind, out, sizeof(out));
		expect_risks(i, cases[i].text, out, cases[i].want);
		unlink(f);
		/* A FIFO is not read, and counts. */
		cr_assert_eq(mkfifo(f, 0600), 0);
		out[0] = '\0';
		cordon_git_todo_risks(f, "f", cases[i].kind, out, sizeof(out));
		cr_expect(strstr(out, "a f cordon cannot read"), "a FIFO gave \"%s\"", out);
		unlink(f);
		free(f);
	}
	tmp_cleanup(dir);
	free(dir);
}

/* On a volume that ignores case (macOS's by default, a casefolded
 * directory on Linux) git takes .GIT for .git and Head, OBJECTS and Refs
 * for a git dir's names: the sweep matches them so everywhere (this
 * machine's file systems keep case, where that only judges a few more). */
Test(guard, the_sweep_matches_git_names_without_case)
{
	char *dir = tmp_dir("gcase");
	char *cmd;
	cr_assert(
		asprintf(
			&cmd,
			"cd '%s' && mkdir -p r/a/.GIT/objects r/a/.GIT/Refs r/b/OBJECTS r/b/Refs "
			"r/c gd/objects gd/refs && echo 'ref: refs/heads/main' > r/a/.GIT/HEAD && "
			"echo 'ref: refs/heads/main' > r/b/Head && "
			"echo 'ref: refs/heads/main' > gd/HEAD && echo 'gitdir: ../../gd' > r/c/.Git && "
			"for f in r/a/.GIT r/b gd; do printf '[core]\\n\\tfsmonitor = x\\n' > $f/config; "
			"done",
			dir) > 0);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	char *root = path_join(dir, "r");
	struct cordon_sweep s = {0};
	s.project = strdup(root);
	cr_assert_eq(cordon_strv_push(&s.roots, root), 0);
	clock_gettime(CLOCK_REALTIME, &s.since);
	s.since.tv_sec -= 60; /* all of it made in the "session" */
	struct cordon_strv said = {0};
	int moved = cordon_sweep_end(&s, true, &said);
	static const char *const aside[] = {"a/.GIT.cordon-disarmed", "b.cordon-disarmed",
					    "c/.Git.cordon-disarmed", NULL};
	for (size_t i = 0; aside[i]; i++) {
		char *p = path_join(root, aside[i]);
		struct stat st;
		cr_expect(stat(p, &st) == 0 || lstat(p, &st) == 0, "%s is missing (%d moved)",
			  aside[i], moved);
		free(p);
	}
	char *record = cordon_sweep_record_path(root);
	if (record)
		unlink(record);
	free(record);
	free(root);
	cordon_strv_free(&said);
	cordon_sweep_free(&s);
	tmp_cleanup(dir);
	free(dir);
}

/* GOT holds each of WANT (beneath DIR) and nothing else. */
static void expect_named(const struct cordon_strv *got, const char *dir, const char *const *want)
{
	size_t n = 0;
	for (; want[n]; n++) {
		char *p = path_join(dir, want[n]);
		cr_expect(cordon_strv_contains(got, p), "%s not named", p);
		free(p);
	}
	cr_expect_eq(got->n, n, "named %zu: %s ... %s", got->n, got->n ? got->v[0] : "",
		     got->n ? got->v[got->n - 1] : "");
}

static int collect(const char *path, const char *file, void *arg)
{
	(void)file;
	return cordon_strv_push((struct cordon_strv *)arg, path);
}

/* The names an .envrc loads: what it sources (a directory's .envrc), the
 * file dotenv reads (.env for none), a program run by its path, and what
 * a sourced file names from its own directory; not what PATH_add puts on
 * PATH, a command found on PATH, or a name with
 * something to expand. */
Test(guard, what_an_envrc_loads_is_named)
{
	struct tree t;
	tree_init(&t, "envrcrefs");
	free(write_file(t.proj, "sub/.envrc", "source_env_if_exists ../up.sh\n"));
	free(write_file(t.proj, "lib/common.sh", ". ./near.sh\n"));
	char *envrc = write_file(t.proj, ".envrc",
				 "# source_env commented\n"
				 "source_env_if_exists .envrc.local\n"
				 "dotenv_if_exists\n"
				 "dotenv ./.env.shared   # ours\n"
				 "source_env sub\n"
				 "source lib/common.sh\n"
				 "eval \"$(./bin/gen-env --bash)\"; watch_file package.json\n"
				 "PATH_add bin\nlayout node\nuse nix\n"
				 "source_env \"$DIR/x\"\nnpm --version\n"
				 "for f in envd/*.sh; do source \"$f\"; done\n"
				 "bash scripts/a.sh; eval \"$(python3 -u tools/b.py)\"; sh -c 'x'\n"
				 ". <(cat gen.sh)\nexport $(cat vars.env | xargs)\n"
				 "while read -r l; do export \"$l\"; done < more.env\n"
				 "source_env_if_exists \\\n  .envrc.cont\n"
				 "export $(grep -v '^#' .env.list | xargs)\n"
				 "source \"$(pwd)/p1.sh\"; export BASH_ENV=\"$PWD/benv.sh\"\n"
				 "/bin/bash b1.sh; env FOO=1 bash b2.sh; timeout 10 ./b3.sh\n"
				 "bash -o pipefail b4.sh; perl -I lib b5.pl; bash -c ./b6.sh\n"
				 "source_env_if_exists \"my env.sh\"; echo \"a; source no.sh\"\n"
				 "export X='$(cat no2)'\n"
				 "cd tools && . ./t.sh\n");
	free(write_file(t.proj, ".env.list", "A=1\n"));
	struct cordon_strv got = {0};
	char dynamic[128];
	cr_assert_eq(cordon_envrc_refs(envrc, t.home, collect, &got, dynamic, sizeof(dynamic)), 0);
	cr_expect_str_eq(dynamic, "$DIR/x", "the name built at run time");
	expect_named(
		&got, t.proj,
		(const char *const[]){".envrc.local", ".env",          ".env.shared", "sub/.envrc",
				      "sub/../up.sh", "lib/common.sh", "near.sh",     "bin/gen-env",
				      "envd",         "scripts/a.sh",  "tools/b.py",  "gen.sh",
				      "vars.env",     "more.env",      ".envrc.cont", ".env.list",
				      "p1.sh",        "benv.sh",       "b1.sh",       "b2.sh",
				      "b3.sh",        "b4.sh",         "b5.pl",       "b6.sh",
				      "my env.sh",    "tools/t.sh",    NULL});
	cordon_strv_free(&got);
	free(envrc);
	tree_free(&t);
}

/* An .envrc below the project's top that direnv allows is read-only in
 * the plan with what it loads, also in a package of the user's named
 * vendor/ (round 26b), but not what it runs from its dependencies; one
 * allowed but missing is a name watched; one not allowed, and one
 * elsewhere, are left alone. */
/* Round 53d F1: what yarn's rc files name as code: yarnPath (quoted, with
 * a comment after), each plugin's path (as "- path:", a "path:" under a
 * "- spec:", or the item itself), an absolute one as it is, yarn 1's
 * yarn-path; not other keys, nor a yarnPath nested under another key. */
Test(guard, what_yarn_s_rc_files_run_is_named)
{
	struct tree t;
	tree_init(&t, "yarnrc");
	char *yml = write_file(t.home, "p/.yarnrc.yml",
			       "nodeLinker: node-modules\n"
			       "yarnPath: \".yarn/releases/yarn-4.cjs\"  # pinned\n"
			       "plugins:\n"
			       "  - path: .yarn/plugins/a.cjs\n    spec: \"a\"\n"
			       "  - spec: \"b\"\n    path: '.yarn/plugins/b.cjs'\n"
			       "  - /opt/plugins/c.cjs\n"
			       "packageExtensions:\n  x:\n    yarnPath: nested.cjs\n"
			       "cacheFolder: ./cache\n");
	char *rc = write_file(t.home, "q/.yarnrc", "registry \"x\"\nyarn-path \"./y1.js\"\n");
	struct cordon_strv got = {0};
	char unread[128];
	cr_assert_eq(cordon_yarnrc_refs(yml, collect, &got, unread, sizeof(unread)), 0);
	cr_expect_str_eq(unread, "    yarnPath: nested.cjs");
	cr_assert_eq(cordon_yarnrc_refs(rc, collect, &got, unread, sizeof(unread)), 0);
	cr_expect_str_eq(unread, "");
	char *flow = write_file(t.home, "r/.yarnrc.yml", "{\"yarnPath\": \"x.cjs\"}\n");
	cr_assert_eq(cordon_yarnrc_refs(flow, collect, &got, unread, sizeof(unread)), 0);
	cr_expect_str_eq(unread, "{\"yarnPath\": \"x.cjs\"}");
	char *var = write_file(t.home, "s/.yarnrc.yml", "yarnPath: ${R}/y.cjs\n");
	cr_assert_eq(cordon_yarnrc_refs(var, collect, &got, unread, sizeof(unread)), 0);
	cr_expect_str_eq(unread, "yarnPath: ${R}/y.cjs");
	free(flow), free(var);
	char *want[] = {fmt("%s/p/.yarn/releases/yarn-4.cjs", t.home),
			fmt("%s/p/.yarn/plugins/a.cjs", t.home),
			fmt("%s/p/.yarn/plugins/b.cjs", t.home), strdup("/opt/plugins/c.cjs"),
			fmt("%s/q/./y1.js", t.home)};
	for (size_t i = 0; i < sizeof(want) / sizeof(*want); i++) {
		cr_expect(cordon_strv_contains(&got, want[i]), "%s not named", want[i]);
		free(want[i]);
	}
	cr_expect_eq(got.n, sizeof(want) / sizeof(*want), "named %zu", got.n);
	cordon_strv_free(&got);
	free(yml), free(rc);
	tree_free(&t);
}

Test(guard, what_an_allowed_subdirectory_envrc_loads_is_planned)
{
	struct tree t;
	tree_init(&t, "envrcallowed");
	static const char *const files[] = {"sub/.envrc", "sub/.env",          "other/.envrc",
					    "other/.env", "svc/vendor/.envrc", "svc/vendor/.env"};
	for (size_t i = 0; i < sizeof(files) / sizeof(*files); i++)
		free(write_file(t.proj, files[i], strstr(files[i], "rc") ? "dotenv\n" : "A=1\n"));
	free(write_file(t.proj, "sub/.envrc", "dotenv\neval \"$(node_modules/.bin/tool env)\"\n"));
	free(write_file(t.proj, "sub/node_modules/.bin/tool", "#!/bin/sh\n"));
	static const char *const allowed[] = {"sub/.envrc", "gone/.envrc", "svc/vendor/.envrc",
					      "sub/../other/.envrc"};
	for (size_t i = 0; i < sizeof(allowed) / sizeof(*allowed); i++) {
		char *name = fmt(".local/share/direnv/allow/%zx", i);
		char *line = fmt("%s/%s\n", t.proj, allowed[i]);
		free(write_file(t.home, name, line));
		free(name), free(line);
	}
	free(write_file(t.home, ".local/share/direnv/allow/e", "/elsewhere/.envrc\n"));
	struct cordon_policy p;
	struct cordon_guard_plan plan;
	resolve(&t, "{}", &p);
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	char *env = at(t.proj, "sub/.env"), *other = at(t.proj, "other/.env"),
	     *vendor = at(t.proj, "svc/vendor/.env"), *gone = at(t.proj, "gone/.envrc"),
	     *dep = at(t.proj, "sub/node_modules/.bin/tool"), *sub = at(t.proj, "sub/.envrc");
	const struct cordon_mount *m = mount_at(&plan, env);
	cr_assert_not_null(m, "what an allowed sub/.envrc loads is read-only");
	cr_expect_eq(m->op, CORDON_MOUNT_RO);
	cr_expect(strstr(m->source, "direnv allows") && strstr(m->source, "loaded by sub/.envrc"),
		  "%s", m->source);
	cr_expect_null(mount_at(&plan, other), "an .envrc not allowed (nor by a .. spelling)");
	cr_expect_null(mount_at(&plan, dep), "the project's dependencies are its own code");
	cr_expect(mount_at(&plan, vendor),
		  "a package of the user's named vendor/ is no dependency");
	cr_expect(mount_at(&plan, sub), "the allowed .envrc itself is read-only");
	cordon_guard_plan_free(&plan);
	struct cordon_strv unguarded = {0}, placeholders = {0};
	cr_assert_eq(cordon_guard_unguarded(&p, &unguarded, &placeholders, NULL, NULL, NULL), 0);
	cr_expect(cordon_strv_contains(&unguarded, gone), "an allowed .envrc missing is watched");
	cordon_strv_free(&unguarded);
	cordon_strv_free(&placeholders);
	cordon_policy_free(&p);

	resolve(&t, "{\"protected_paths\": []}", &p);
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	cr_expect_null(mount_at(&plan, env), "protected_paths [] keeps none");
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	free(env), free(other), free(dep), free(gone), free(vendor), free(sub);
	tree_free(&t);
}

/* direnv's whitelist (direnv.toml): an .envrc it names exactly (a
 * directory names its .envrc) runs whatever it holds, so it is read-only
 * with what it loads; a prefix over the project is said; one over another
 * project is not. */
Test(guard, what_direnv_whitelists_is_planned)
{
	struct tree t;
	tree_init(&t, "envrcwl");
	free(write_file(t.proj, "ex/.envrc", "dotenv\n"));
	free(write_file(t.proj, "ex/.env", "A=1\n"));
	char *toml = fmt("[whitelist]\nexact = [ \"%s/ex\", # ours\n  '/elsewhere/x' ]\n"
			 "prefix = [\"%s/sub\", \"/other\"]\n[other]\nprefix = \"%s\"\n",
			 t.proj, t.proj, t.root);
	free(write_file(t.home, ".config/direnv/direnv.toml", toml));
	struct cordon_policy p;
	struct cordon_guard_plan plan;
	resolve(&t, "{}", &p);
	cr_expect_eq(p.envrc_whitelisted.n, 1);
	cr_expect_eq(p.envrc_prefixes.n, 1,
		     "a prefix of another project, or in another "
		     "section, is left");
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	char *envrc = at(t.proj, "ex/.envrc"), *env = at(t.proj, "ex/.env");
	const struct cordon_mount *m = mount_at(&plan, envrc);
	cr_assert_not_null(m, "an .envrc the whitelist names is read-only");
	cr_expect_eq(m->op, CORDON_MOUNT_RO);
	cr_assert_not_null(m = mount_at(&plan, env), "and what it loads");
	cr_expect_eq(m->op, CORDON_MOUNT_RO);
	bool said = false;
	for (size_t i = 0; i < plan.warnings.n; i++)
		said = said || (strstr(plan.warnings.v[i], "whitelist prefix") &&
				strstr(plan.warnings.v[i], "/sub"));
	cr_expect(said, "the prefix over the project is said");
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	free(envrc), free(env), free(toml);
	tree_free(&t);
}

/* direnv's source_up [FILE]: each FILE on the way up from the .envrc's
 * directory, to the first there is (read too, from its own directory):
 * a nearer one made would be what direnv sources (round 26b made
 * packages/.envrc above packages/web). */
Test(guard, source_up_names_each_envrc_up_to_the_first)
{
	struct tree t;
	tree_init(&t, "envrcup");
	free(write_file(t.proj, ".envrc", "dotenv\n"));
	free(write_file(t.proj, "conf/env.sh", "true\n"));
	char *envrc = write_file(t.proj, "a/b/.envrc",
				 "source_up\nsource_up_if_exists x.sh\nsource_up conf/env.sh\n");
	struct cordon_strv got = {0};
	char dynamic[128];
	cr_assert_eq(cordon_envrc_refs(envrc, t.home, collect, &got, dynamic, sizeof(dynamic)), 0);
	char *a = at(t.proj, "a/.envrc"), *top = at(t.proj, ".envrc"), *env = at(t.proj, ".env"),
	     *ax = at(t.proj, "a/x.sh"), *x = at(t.proj, "x.sh");
	cr_expect(cordon_strv_contains(&got, a), "a/.envrc, missing, is named");
	cr_expect(cordon_strv_contains(&got, top), "the first there is, is named");
	cr_expect(cordon_strv_contains(&got, env), "and read (its dotenv)");
	cr_expect(cordon_strv_contains(&got, ax) && cordon_strv_contains(&got, x),
		  "source_up's FILE on the way up");
	char *ac = at(t.proj, "a/conf/env.sh"), *conf = at(t.proj, "conf/env.sh");
	cr_expect(cordon_strv_contains(&got, ac) && cordon_strv_contains(&got, conf),
		  "a FILE with a directory (round 26c)");
	free(ac), free(conf);
	cr_expect_str_eq(dynamic, "", "nothing built at run time");
	cordon_strv_free(&got);
	free(envrc);
	envrc = write_file(t.proj, "a/b/.envrc", "source_up \"$F\"\n");
	cr_assert_eq(cordon_envrc_refs(envrc, t.home, collect, &got, dynamic, sizeof(dynamic)), 0);
	cr_expect_str_eq(dynamic, "$F", "source_up \"$F\" is said (round 26c)");
	char *above = fmt("%s/.envrc", t.root);
	cr_expect_not(cordon_strv_contains(&got, above), "not past the first there is");
	free(above), free(a), free(top), free(env), free(ax), free(x), free(envrc);
	cordon_strv_free(&got);
	tree_free(&t);
}

/* The other TOML spellings of direnv's whitelist, each of which direnv
 * 2.32 obeys: a dotted key, an inline table, a quoted key, a section
 * header with blanks. */
Test(guard, direnv_whitelist_spellings_are_read)
{
	struct tree t;
	tree_init(&t, "envrcwl2");
	/* (Each with PROJ for the project.) */
	static const char *const tomls[] = {
		"whitelist.exact = [\"PROJ/a\"]\n",
		"whitelist = { prefix = \"/nowhere\", exact = [ \"PROJ/a\" ] }\n",
		"[whitelist]\n\"exact\" = [\n  # ours\n  'PROJ/a',\n]\n",
		"[ \"whitelist\" ]\nexact=\"PROJ/a\"\n",
		/* (Escapes, as direnv 2.32 decodes them: session 26 left them.) */
		"[whitelist]\nexact = [\"PROJ/\\u0061\"]\n",
		"[whitelist]\nexact = [\"PROJ/\\U00000061\", \"/x\\\"y\"]\n",
		"[whitelist]\nexact = [\"\"\"PROJ/\\\n     a\"\"\"]\n",
	};
	for (size_t i = 0; i < sizeof(tomls) / sizeof(*tomls); i++) {
		const char *at_proj = strstr(tomls[i], "PROJ");
		char *toml =
			fmt("%.*s%s%s", (int)(at_proj - tomls[i]), tomls[i], t.proj, at_proj + 4);
		free(write_file(t.home, ".config/direnv/direnv.toml", toml));
		struct cordon_policy p;
		resolve(&t, "{}", &p);
		char *want = at(t.proj, "a/.envrc");
		cr_expect(p.envrc_whitelisted.n == 1 && strcmp(p.envrc_whitelisted.v[0], want) == 0,
			  "not read: %s", toml);
		cordon_policy_free(&p);
		free(want), free(toml);
	}
	tree_free(&t);
}

/* A loop over what a command prints sources names built at run time:
 * said (the list file read), not taken for a loop over names (before, its
 * command's words were taken for the names, and nothing was said). A loop
 * over names is no name built at run time. */
Test(guard, a_loop_over_a_command_is_said)
{
	struct tree t;
	tree_init(&t, "envrcloop");
	static const char *const loops[] = {
		"for f in $(cat list.txt); do source \"$f\"; done\n",
		"for f in `cat list.txt`; do . \"$f\"; done\n",
		"for f in a.sh $(cat list.txt); do source_env \"$f\"; done\n",
	};
	for (size_t i = 0; i < sizeof(loops) / sizeof(*loops); i++) {
		char *envrc = write_file(t.proj, ".envrc", loops[i]);
		struct cordon_strv got = {0};
		char dynamic[128];
		cr_assert_eq(
			cordon_envrc_refs(envrc, t.home, collect, &got, dynamic, sizeof(dynamic)),
			0);
		cr_expect_str_eq(dynamic, "$f", "%s", loops[i]);
		char *list = at(t.proj, "list.txt"), *cat = at(t.proj, "cat");
		cr_expect(cordon_strv_contains(&got, list), "%s: the list is read", loops[i]);
		cr_expect_not(cordon_strv_contains(&got, cat), "%s: its command is no name",
			      loops[i]);
		free(list), free(cat), free(envrc);
		cordon_strv_free(&got);
	}
	char *envrc = write_file(t.proj, ".envrc", "for f in a.sh b.sh; do source \"$f\"; done\n");
	struct cordon_strv got = {0};
	char dynamic[128];
	cr_assert_eq(cordon_envrc_refs(envrc, t.home, collect, &got, dynamic, sizeof(dynamic)), 0);
	cr_expect_str_eq(dynamic, "", "a loop over names");
	expect_named(&got, t.proj, (const char *const[]){"a.sh", "b.sh", NULL});
	cordon_strv_free(&got);
	free(envrc);
	tree_free(&t);
}

/* What lefthook's config names, in each of its formats: extends (a
 * block list with comments, a flow list over lines, a glob's directory,
 * a glob at the top: what it matches, and itself for the watch, a glob
 * in a directory part too), rc, source_dir(_local); not a
 * name with something to expand. */
Test(guard, what_lefthook_config_names_is_named)
{
	struct tree t;
	tree_init(&t, "lhrefs");
	free(write_file(t.proj, "top1.yml", ""));
	free(write_file(t.proj, "team/hooks.yml", ""));
	char *yml = write_file(
		t.proj, "lefthook.yml",
		"rc: ./ci/lefthook.rc\nsource_dir: \"scripts/lh/\"\n"
		"extends:\n  - ci/base.yml   # the team's\n\n  - 'shared/*.yml'\n"
		"  - $HOME/x.yml\n  - top*.yml\n  - \"*/hooks.yml\"\npre-commit:\n  commands:\n"
		"    lint:\n      run: echo rc: no.sh\n");
	char *json = write_file(t.proj, "lefthook-local.json",
				"{\"extends\": [ \"x.json\",\n  \"y.json\" ], \"rc\": \"r.sh\",\n"
				" \"source_dir_local\": \"loc\"}\n");
	char *runs =
		write_file(t.proj, "lefthook-local.yml",
			   "pre-commit:\n  commands:\n    a:\n      run: ./scripts/lint.sh "
			   "{staged_files}\n    b:\n      run: FOO=1 bash -e scripts/fmt.sh && "
			   "yarn lint\n    c:\n      run: |\n        node tools/x.js\n"
			   "        make test\n    d:\n      run: bash -c 'echo hi'\n"
			   "rc:\n  ci/next.rc\nsource_dir_local: &loc2 local2/\nx: *loc2\n"
			   "pre-push:\n  jobs:\n    - run: |\n        cd sub && ./j1.sh\n"
			   "        ./j2.sh\n      root: web/\n    - run: &r env bash j3.sh\n"
			   "      files: ./list-files.sh\n");
	char *toml = write_file(t.proj, ".lefthook.toml",
				"extends = [\"t.toml\"]\nsource_dir = \"./\"\n");
	struct cordon_strv got = {0};
	cr_assert_eq(cordon_lefthook_refs(yml, t.proj, &got), 0);
	cr_assert_eq(cordon_lefthook_refs(json, t.proj, &got), 0);
	cr_assert_eq(cordon_lefthook_refs(toml, t.proj, &got), 0);
	cr_assert_eq(cordon_lefthook_refs(runs, t.proj, &got), 0);
	expect_named(
		&got, t.proj,
		(const char *const[]){
			"ci/lefthook.rc", "scripts/lh", "ci/base.yml", "shared", "top1.yml",
			"top*.yml", "team/hooks.yml", "*/hooks.yml", "x.json", "y.json", "r.sh",
			"loc", "t.toml", "scripts/lint.sh", "scripts/fmt.sh", "tools/x.js",
			/* (each command in each root: which one's it is does
					    * not matter for what is kept) */
			"web/scripts/lint.sh", "web/scripts/fmt.sh", "web/tools/x.js", "ci/next.rc",
			"local2", "sub/j1.sh", "sub/j2.sh", "web/sub/j1.sh", "web/sub/j2.sh",
			"j3.sh", "web/j3.sh", "list-files.sh", "web/list-files.sh", NULL});
	cordon_strv_free(&got);
	free(yml);
	free(json);
	free(toml);
	free(runs);
	tree_free(&t);
}

/* What an .envrc loads is read-only in the plan, missing ones are among
 * the names watched; a write rule naming one itself (--allow-write .env,
 * even as ./.env) leaves it to the session, and a hidden .envrc's loads
 * are kept all the same. */
Test(guard, what_an_envrc_loads_is_planned)
{
	struct tree t;
	tree_init(&t, "envrcplan");
	free(write_file(t.proj, ".envrc",
			"dotenv\nsource_env_if_exists .envrc.local\n"
			"eval \"$(./node_modules/.bin/tool env)\"\n"));
	free(write_file(t.proj, "node_modules/.bin/tool", "#!/bin/sh\n"));
	free(write_file(t.proj, ".env", "A=1\n"));
	char *env = at(t.proj, ".env"), *local = at(t.proj, ".envrc.local");
	struct cordon_policy p;
	struct cordon_guard_plan plan;
	struct cordon_strv unguarded = {0};
	resolve(&t, "{}", &p);
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	const struct cordon_mount *m = mount_at(&plan, env);
	cr_assert_not_null(m, ".env, which dotenv reads, is read-only");
	cr_expect_eq(m->op, CORDON_MOUNT_RO);
	cr_expect(strstr(m->source, "loaded by .envrc"), "%s", m->source);
	char *tool = at(t.proj, "node_modules/.bin/tool");
	cr_expect_null(mount_at(&plan, tool), "the project's dependencies are its own code");
	free(tool);
	cordon_guard_plan_free(&plan);
	struct cordon_strv placeholders = {0};
	cr_assert_eq(cordon_guard_unguarded(&p, &unguarded, &placeholders, NULL, NULL, NULL), 0);
	cr_expect(cordon_strv_contains(&unguarded, local), "a missing .envrc.local is watched");
	cordon_strv_free(&unguarded);
	cordon_strv_free(&placeholders);
	cordon_policy_free(&p);

	char *json = fmt("{\"additional_read_write_paths\": [\"%s/./.env\"]}", t.proj);
	resolve(&t, json, &p);
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	cr_expect_null(mount_at(&plan, env), "a write rule naming .env leaves it writable");
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	free(json);

	resolve(&t, "{\"additional_hidden_paths\": [\".envrc\"]}", &p);
	cr_assert_eq(cordon_guard_plan(&p, false, &plan), 0);
	cr_assert_not_null(m = mount_at(&plan, env), "a hidden .envrc's loads are kept");
	cr_expect_eq(m->op, CORDON_MOUNT_RO);
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	free(env), free(local);
	tree_free(&t);
}

/* oh-my-zsh's dotenv plugin told not to ask (ZSH_DOTENV_PROMPT=false), and
 * the name it exports (ZSH_DOTENV_FILE), as zsh would take them from its
 * startup files: each spelling round 28b found missed, in the home's
 * .zshenv beside a $ZDOTDIR, and in that directory's .zshrc; a comment, a
 * longer name and another value are not it. */
static const char *zdotdir;
static char *omz_env(const char *name)
{
	return strcmp(name, "ZDOTDIR") == 0 ? (char *)zdotdir : NULL;
}

Test(guard, oh_my_zsh_dotenv_settings_are_read_as_zsh_reads_them)
{
	static const struct {
		const char *file, *text;
		bool off;
		const char *name;
	} cases[] = {
		{".zshrc", "ZSH_DOTENV_PROMPT=false\n", true, ".env"},
		{".zshrc", "  export ZSH_DOTENV_PROMPT='false'\n", true, ".env"},
		{".zshrc", "typeset -g ZSH_DOTENV_PROMPT=\"false\"\n", true, ".env"},
		{".zshrc", ": ${ZSH_DOTENV_PROMPT:=false}\n", true, ".env"},
		{".zshrc", "plugins=(git dotenv); ZSH_DOTENV_PROMPT=false\n", true, ".env"},
		{".zshrc", "A=1 ZSH_DOTENV_PROMPT=false B=2\n", true, ".env"},
		{".zshrc", "readonly ZSH_DOTENV_PROMPT=false\n", true, ".env"},
		{".zshenv", "ZSH_DOTENV_PROMPT=false\n", true, ".env"},
		{"zdot/.zshrc", "ZSH_DOTENV_PROMPT=false\nZSH_DOTENV_FILE=.dotenv\n", true,
		 ".dotenv"},
		{".zshrc", "ZSH_DOTENV_FILE='.envrc.zsh'\n", false, ".envrc.zsh"},
		{".zshrc", "# ZSH_DOTENV_PROMPT=false\n", false, ".env"},
		{".zshrc", "MY_ZSH_DOTENV_PROMPT=false\n", false, ".env"},
		{".zshrc", "ZSH_DOTENV_PROMPT=falsely\nZSH_DOTENV_FILE=$HOME/x\n", false, ".env"},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		struct tree t;
		tree_init(&t, "omzset");
		char *zdot = path_join(t.home, "zdot");
		free(write_file(t.home, cases[i].file, cases[i].text));
		zdotdir = zdot;
		struct cordon_config cfg;
		struct cordon_error err = {0};
		cr_assert_eq(cordon_config_parse("{}", 2, "/t.json", &cfg, &err), 0, "%s", err.msg);
		struct cordon_context ctx = {.project = t.proj,
					     .home = t.home,
					     .uid = getuid(),
					     .kind = CORDON_KIND_TERMINAL,
					     .session = "s",
					     .getenv_fn = omz_env};
		struct cordon_policy p;
		cr_assert_eq(cordon_policy_resolve(&cfg, &ctx, &p, &err), 0, "%s", err.msg);
		cr_expect_eq(p.omz_unasked != NULL, cases[i].off, "%s: %s: off %s", cases[i].file,
			     cases[i].text, p.omz_unasked ? p.omz_unasked : "(no)");
		cr_expect_str_eq(p.omz_dotenv_name ? p.omz_dotenv_name : "(none)", cases[i].name,
				 "%s: %s", cases[i].file, cases[i].text);
		cordon_policy_free(&p);
		cordon_config_free(&cfg);
		free(zdot);
		tree_free(&t);
	}
}

/* cordon_git_index_gitlinks on indexes git itself wrote, or reads: version
 * 3 (an intent-to-add entry takes the extended flags), 2 with the extended
 * flags on every entry, 4 (names compressed), a split index (the gitlinks
 * in its shared index), and sha256 object names: each gitlink found, and
 * nothing else. */
static int gitlink_seen(const char *name, void *arg)
{
	return cordon_strv_push(arg, name);
}

static void expect_gitlinks(const char *repo, const char *how)
{
	char *gitdir = path_join(repo, ".git");
	struct cordon_strv seen = {0};
	bool gitmodules = true;
	cr_expect_eq(cordon_git_index_gitlinks(gitdir, gitlink_seen, &seen, &gitmodules), 0, "%s",
		     how);
	cr_expect_not(gitmodules, "%s: a .gitmodules entry seen", how);
	cr_expect(seen.n == 2 && cordon_strv_contains(&seen, "sub/deep/one") &&
			  cordon_strv_contains(&seen, "two"),
		  "%s: %zu gitlinks (%s)", how, seen.n, seen.n ? seen.v[0] : "-");
	cordon_strv_free(&seen);
	free(gitdir);
}

/* An index of version 2 whose every entry carries the extended flags
 * (0x4000 and two bytes more), which git reads in any version (46e E1: a
 * reader that took them only from version 3 lost its place and found no
 * gitlink); its hash (sha1 or sha256, ARGV[2]) made again. */
static const char ext_flags_py[] =
	"import hashlib, struct, sys\n"
	"p, hs = sys.argv[1], 32 if sys.argv[2] == 'sha256' else 20\n"
	"d = open(p, 'rb').read()\n"
	"v, n = struct.unpack('>II', d[4:12])\n"
	"at, out = 12, b''\n"
	"for i in range(n):\n"
	"    fl, = struct.unpack('>H', d[at + 40 + hs:at + 42 + hs])\n"
	"    q = at + 42 + hs\n"
	"    ext = d[q:q + 2] if fl & 0x4000 else b'\\0\\0'\n"
	"    q += 2 if fl & 0x4000 else 0\n"
	"    name = d[q:d.index(b'\\0', q)]\n"
	"    e = d[at:at + 40 + hs] + struct.pack('>H', fl | 0x4000) + ext + name\n"
	"    out += e + b'\\0' * (((len(e) + 8) & ~7) - len(e))\n"
	"    at += ((q - at) + len(name) + 8) & ~7\n"
	"body = b'DIRC' + struct.pack('>II', 2, n) + out + d[at:len(d) - hs]\n"
	"h = hashlib.sha256 if hs == 32 else hashlib.sha1\n"
	"open(p, 'wb').write(body + h(body).digest())\n";

Test(guard, gitlinks_of_every_index_git_writes, .timeout = 60)
{
	char *dir = tmp_dir("gitidx");
	char *py = write_file(dir, "extflags.py", ext_flags_py);
	const char *fmts[] = {"sha1", "sha256"};
	for (size_t f = 0; f < 2; f++) {
		char *script = fmt(
			"set -e; cd '%s'; rm -rf r; git init -q --object-format=%s r; cd r; "
			"git config user.name t; git config user.email t@e; "
			"mkdir -p a/b; for i in 1 2 3 4 5 6 7 8 9; do echo $i > a/b/file$i; done; "
			"git add a; git commit -qm a; "
			"c=$(git rev-parse HEAD); "
			"git update-index --add --cacheinfo 160000,$c,sub/deep/one; "
			"git update-index --add --cacheinfo 160000,$c,two; echo n > z; git add -N z",
			dir, fmts[f]);
		char *argv[] = {"/bin/sh", "-c", script, NULL};
		struct run_result r = run_cmd(argv, NULL, "/", 30000);
		cr_assert_eq(r.status, 0, "%s", r.err);
		run_free(&r);
		char *repo = path_join(dir, "r");
		expect_gitlinks(repo, fmts[f]);
		char *ext = fmt("python3 '%s' .git/index %s && git ls-files -s | grep -c ^160000",
				py, fmts[f]);
		const char *steps[] = {
			ext, "git update-index --index-version 4",
			"git update-index --index-version 2 && git update-index --split-index && "
			"echo m > y && git add y && ls .git/sharedindex.* >/dev/null"};
		for (size_t i = 0; i < 3; i++) {
			char *go = fmt("cd '%s' && %s", repo, steps[i]);
			char *a2[] = {"/bin/sh", "-c", go, NULL};
			r = run_cmd(a2, NULL, "/", 30000);
			cr_assert_eq(r.status, 0, "%s: %s", steps[i], r.err);
			run_free(&r);
			char *how = fmt("%s, %s", fmts[f], steps[i]);
			expect_gitlinks(repo, how);
			free(how);
			free(go);
		}
		free(ext);
		free(repo);
		free(script);
	}
	free(py);
	tmp_cleanup(dir);
	free(dir);
}

/* Round 51b F4: the copies of a hidden path's name that editors, package
 * managers and users make beside it; not another tool's name that merely
 * starts with it. */
static int entry_listed(const char *name, unsigned mode, const unsigned char *oid, size_t hs,
			void *arg)
{
	char hex[65];
	for (size_t b = 0; b < hs && b < 32; b++)
		snprintf(hex + 2 * b, 3, "%02x", oid[b]);
	char *line = fmt("%06o %s %s", mode, hex, name);
	return cordon_strv_push_take(arg, line);
}

static int by_str(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A split index's entries as git lists them: those its bitmaps delete are
 * gone, those they replace carry the entry with no name's mode and object
 * (57a F1: a session's git add in a split index was not compared). */
Test(guard, split_index_entries_are_the_ones_git_lists, .timeout = 60)
{
	char *dir = tmp_dir("gitsplit");
	const char *fmts[] = {"sha1", "sha256"};
	const char *steps[] = {
		"echo changed > f3 && echo changed > f100 && git add f3 f100",
		"git rm -q --cached f50 && echo new > g && git add g",
		"git update-index --cacheinfo 160000,$(git rev-parse HEAD),f120",
		"chmod +x f7 && git add f7 && echo again > f3 && git add f3",
	};
	for (size_t f = 0; f < 2; f++) {
		char *script = fmt("set -e; cd '%s'; rm -rf r; git init -q --object-format=%s r; "
				   "cd r; git config user.name t; git config user.email t@e; "
				   "for i in $(seq 1 150); do echo $i > f$i; done; git add .; "
				   "git commit -qm a; git update-index --split-index; "
				   "ls .git/sharedindex.* > ../shared",
				   dir, fmts[f]);
		char *argv[] = {"/bin/sh", "-c", script, NULL};
		struct run_result r = run_cmd(argv, NULL, "/", 30000);
		cr_assert_eq(r.status, 0, "%s", r.err);
		run_free(&r);
		char *gitdir = fmt("%s/r/.git", dir);
		for (size_t i = 0; i < sizeof(steps) / sizeof(steps[0]); i++) {
			/* (The same shared index: the changes are the split one's.) */
			char *go =
				fmt("cd '%s/r' && %s && ls .git/sharedindex.* | cmp -s - ../shared "
				    "&& git ls-files -s | sed 's/ [0-3]\t/ /' | LC_ALL=C sort",
				    dir, steps[i]);
			char *a2[] = {"/bin/sh", "-c", go, NULL};
			r = run_cmd(a2, NULL, "/", 30000);
			cr_assert_eq(r.status, 0, "%s: %s", steps[i], r.err);
			struct cordon_strv got = {0};
			cr_expect_eq(cordon_git_index_entries(gitdir, entry_listed, &got), 0,
				     "%s, %s", fmts[f], steps[i]);
			qsort(got.v, got.n, sizeof(*got.v), by_str);
			char *joined = fmt("%s", "");
			for (size_t k = 0; k < got.n; k++) {
				char *more = fmt("%s%s%s", joined, k ? "\n" : "", got.v[k]);
				free(joined);
				joined = more;
			}
			char *want = fmt("%s", r.out);
			size_t wn = strlen(want);
			while (wn && want[wn - 1] == '\n')
				want[--wn] = '\0';
			cr_expect_str_eq(joined, want, "%s, %s", fmts[f], steps[i]);
			free(want);
			free(joined);
			cordon_strv_free(&got);
			run_free(&r);
			free(go);
		}
		/* The gitlink that replaced a shared entry is named. */
		struct cordon_strv links = {0};
		bool gitmodules = true;
		cr_expect_eq(cordon_git_index_gitlinks(gitdir, gitlink_seen, &links, &gitmodules),
			     0, "%s", fmts[f]);
		cr_expect(links.n == 1 && strcmp(links.v[0], "f120") == 0, "%s: %zu gitlinks",
			  fmts[f], links.n);
		cordon_strv_free(&links);
		free(gitdir);
		free(script);
	}
	tmp_cleanup(dir);
	free(dir);
}

Test(guard, a_hidden_names_copies_are_known)
{
	static const char *const copies[][2] = {{"auth.json", "auth.json~"},
						{"auth.json", "auth.json.~3~"},
						{"auth.json", "#auth.json#"},
						{"auth.json", ".#auth.json"},
						{"auth.json", ".auth.json.swp"},
						{"auth.json", ".auth.json.swo"},
						{"auth.json", ".auth.json.un~"},
						{".netrc", ".netrc.swp"},
						{".netrc", "..netrc.swp"},
						{"auth.json", "auth.json.bak"},
						{"auth.json", "auth.json.BAK2"},
						{"auth.json", "auth.json.old-2024"},
						{"auth.json", "auth.json.orig"},
						{"auth.json", "auth.json.save.1"},
						{"auth.json", "auth.json_backup"},
						{"auth.json", "auth.json copy"},
						{"auth.json", "auth.json (1)"},
						{"auth.json", "auth.json.1"},
						{"shadow", "shadow-"},
						{"nix.conf", "nix.conf.dpkg-old"},
						{"pgpass", "pgpass.rpmsave"},
						{".claude.json", ".claude.json.backup"},
						{".aws", ".aws.tmp"},
						{".ssh", ".ssh-old"},
						/* round 51d F4: a date, a mark
						 * before the extension, an archive
						 * (of a directory too) */
						{"auth.json", "auth.json.2024-05-01"},
						{"auth.json", "auth.json.20240501"},
						{"auth.json", "auth.json-2024-05-01T10:00:00"},
						{"auth.json", "auth.json.2024-05-01.bak"},
						{"auth.json", "auth.bak.json"},
						{"auth.json", "auth-old.json"},
						{"auth.json", "auth.2024-05-01.json"},
						{"auth.json", "auth (1).json"},
						{"auth.json", "auth copy.json"},
						{".claude.json", ".claude.backup.json"},
						{"auth.json", "auth.json.gz"},
						{"auth.json", "auth.bak.json.zip"},
						{"gh", "gh.tar.gz"},
						{"gh", "gh.TGZ"},
						{"gh", "gh-2024-05-01"},
						{"gh", "gh-2024-05-01.tar.xz"},
						{"gh", "gh.bak"},
						{"gh", "gh.old"},
						/* SQLite's beside a store */
						{"Cookies", "Cookies-journal"},
						{"history.sqlite3", "history.sqlite3-wal"},
						{"history.sqlite3", "history.sqlite3-shm"}};
	for (size_t i = 0; i < sizeof(copies) / sizeof(*copies); i++)
		cr_expect(cordon_backup_name(copies[i][0], copies[i][1]), "%s is not a copy of %s",
			  copies[i][1], copies[i][0]);
	static const char *const others[][2] = {{"auth.json", "auth.json"},
						{"auth.json", "auth.jsonx"},
						{"auth.json", "auth.json.lock"},
						{"auth.json", "auth.json.bakery"},
						{"Cookies", "Cookies-journalist"},
						{".aws", ".aws-sam"},
						{"google-chrome", "google-chrome-beta"},
						{"ssh_host_rsa_key", "ssh_host_rsa_key.pub"},
						{"op", "ops"},
						{"auth.json", ".auth.json.swpx"},
						{"auth.json", "x-auth.json~"},
						{"", "~"},
						{"auth.json", "auth.json.2024-05-01x"},
						{"auth.json", "auth.json.1.lock"},
						{"auth.json", "auth.lock.json"},
						{"auth.json", "auth.schema.json"},
						{"auth.json", "auth.json.gpg"},
						{"auth.json", "auth.jsonl.gz"},
						{"auth.json", "xauth.json.tar.gz"},
						{"config.json", "config.local.json"},
						{"gh", "gh-dash"},
						{"gh", "gh.d"},
						{"gh", "ghq.tar.gz"},
						{"op", "ops.zip"},
						{".netrc", ".netrc.age"}};
	for (size_t i = 0; i < sizeof(others) / sizeof(*others); i++)
		cr_expect(!cordon_backup_name(others[i][0], others[i][1]),
			  "%s is taken for a copy of %s", others[i][1], others[i][0]);
}

static int collect_home(const char *path, const char *why, void *arg)
{
	struct cordon_strv *got = arg;
	cr_log_info("%s (%s)", path, why);
	/* (The machine's /etc/gitconfig and ssh_config may name some too.) */
	return strstr(path, "/home/") ? cordon_strv_push(got, path) : 0;
}

/* The environment the round 51d F3 test gives cordon_config_secrets. */
static const char *f3_home;
static char f3_value[3][4096 * 2];

static char *f3_getenv(const char *name)
{
	if (strcmp(name, "GIT_SSH_COMMAND") == 0)
		return f3_value[0];
	if (strcmp(name, "GOOGLE_APPLICATION_CREDENTIALS") == 0)
		return f3_value[1];
	if (strcmp(name, "PATH") == 0)
		return f3_value[2];
	if (strcmp(name, "AWS_WEB_IDENTITY_TOKEN_FILE") == 0)
		return "/dev/null";
	if (strcmp(name, "HOME") == 0)
		return (char *)f3_home;
	return NULL;
}

/* Round 51d F3: the forms the first readers missed: $HOME inside a word
 * (store --file=$HOME/x, ssh -i$HOME/x), a helper that is a shell snippet
 * or a script printing a token file (the files it names under the home
 * that exist and are no programs: not the script itself, not one that
 * does not exist, not the system's), ssh's options as its getopt takes
 * them (-o IdentityFile=, -oIdentityFile=, -o "IdentityFile F", -vi F,
 * -F's config), sshpass -f, http.sslCert, core.askPass's script, and
 * the environment's $GIT_SSH_COMMAND and $GOOGLE_APPLICATION_CREDENTIALS
 * (not /dev/null). */
Test(guard, the_credentials_round_51d_named_are_found)
{
	struct tree t;
	tree_init(&t, "cfgsecrets51d");
	f3_home = t.home;
	static const char *const tokens[] = {"tok/pat", ".config/tok/x", "tok/script",  "tok/two",
					     "tok/ask", "sshcfg/alt",    "gcp/sa.json", NULL};
	for (size_t i = 0; tokens[i]; i++)
		free(write_file(t.home, tokens[i],
				i == 5 ? "IdentityFile ~/keys/fromF\n" : "tok\n"));
	char *script = write_file(t.home, "bin/cred-helper",
				  "#!/bin/sh\ncat \"$HOME/tok/script\" "
				  "~/tok/missing /etc/hostname\n");
	char *two = write_file(t.home, "bin/git-credential-two", "#!/bin/sh\ncat ~/tok/two\n");
	char *ask = write_file(t.home, "bin/askpass", "#!/bin/sh\nexec cat ~/tok/ask\n");
	cr_assert_eq(chmod(script, 0755) | chmod(two, 0755) | chmod(ask, 0755), 0);
	char *cfg = fmt("[credential \"https://a\"]\n\thelper = store --file=$HOME/creds/dollar\n"
			"[credential \"https://b\"]\n\thelper = \"!f() { test \\\"$1\\\" = get && "
			"echo password=$(cat ~/tok/pat); }; f\"\n"
			"[credential \"https://c\"]\n\thelper = \"!f() { echo password=$(cat "
			"${XDG_CONFIG_HOME:-$HOME/.config}/tok/x ~/tok/missing); }; f\"\n"
			"[credential \"https://d\"]\n\thelper = %s/bin/cred-helper\n"
			"[credential \"https://e\"]\n\thelper = two\n"
			"[credential \"https://f\"]\n\thelper = store --file $CS_UNSET/x\n"
			"[core]\n\tsshCommand = ssh -p 22 -o IdentityFile=~/keys/o "
			"-oIdentityFile=~/keys/o2 -o \\\"IdentityFile ~/keys/o3\\\" -i$HOME/keys/i "
			"-vi ~/keys/vi -l git -F %s/sshcfg/alt\n"
			"\taskPass = ~/bin/askpass\n"
			"[http \"https://p\"]\n\tsslCert = ~/certs/client.p12\n",
			t.home, t.home);
	free(write_file(t.home, ".gitconfig", cfg));
	snprintf(f3_value[0], sizeof(f3_value[0]), "sshpass -f ~/keys/pass ssh -i ~/keys/ci");
	snprintf(f3_value[1], sizeof(f3_value[1]), "%s/gcp/sa.json", t.home);
	snprintf(f3_value[2], sizeof(f3_value[2]), "/nowhere:%s/bin:/usr/bin", t.home);
	struct cordon_strv got = {0};
	cr_assert_eq(cordon_config_secrets(t.home, NULL, NULL, f3_getenv, collect_home, &got), 0);
	expect_named(&got, t.home,
		     (const char *const[]){"creds/dollar", "tok/pat", ".config/tok/x", "tok/script",
					   "tok/two", "keys/o", "keys/o2", "keys/o3", "keys/i",
					   "keys/vi", "keys/fromF", "tok/ask", "certs/client.p12",
					   "keys/pass", "keys/ci", "gcp/sa.json", NULL});
	cordon_strv_free(&got);
	free(cfg), free(script), free(two), free(ask);
	tree_free(&t);
}

/* Round 53c F2: the config of the repository git finds from the project
 * (from a directory below its top: the common config, config.worktree),
 * a config directory an earlier launch had as XDG_CONFIG_HOME, Git
 * Credential Manager's plaintextStorePath and $GCM_PLAINTEXT_STORE_PATH. */
static char gcm_env[4096];

static char *gcm_getenv(const char *name)
{
	return strcmp(name, "GCM_PLAINTEXT_STORE_PATH") == 0 ? gcm_env : NULL;
}

Test(guard, the_credentials_a_repository_and_a_noted_config_name_are_found)
{
	struct tree t;
	tree_init(&t, "cfgsecrets53c");
	free(write_file(t.home, "proj/.git/config",
			"[credential]\n\thelper = store --file=~/creds/repo\n"));
	free(write_file(t.home, "proj/.git/config.worktree",
			"[credential]\n\tplaintextStorePath = ~/creds/gcm\n"));
	free(write_file(t.home, "proj/sub/x", ""));
	free(write_file(t.home, "noted/git/config",
			"[credential]\n\thelper = store --file=~/creds/noted\n"));
	char *sub = path_join(t.home, "proj/sub"), *noted = path_join(t.home, "noted");
	struct cordon_strv homes = {0}, got = {0};
	snprintf(gcm_env, sizeof(gcm_env), "%s/creds/env", t.home);
	cr_assert_eq(cordon_strv_push(&homes, noted), 0);
	cr_assert_eq(cordon_config_secrets(t.home, sub, &homes, gcm_getenv, collect_home, &got), 0);
	expect_named(
		&got, t.home,
		(const char *const[]){"creds/noted", "creds/repo", "creds/gcm", "creds/env", NULL});
	cordon_strv_free(&got), cordon_strv_free(&homes);
	free(sub), free(noted);
	tree_free(&t);
}

/* Round 54d F4: a helper that runs a script through an interpreter
 * ("!sh ~/bin/cred.sh", the script no program): the script is hidden, and
 * the token file it reads is found too. */
Test(guard, the_token_a_helper_s_interpreted_script_reads_is_found)
{
	struct tree t;
	tree_init(&t, "cfgsecrets54d");
	free(write_file(t.home, ".gitconfig",
			"[credential \"https://x\"]\n\thelper = !sh ~/bin/cred.sh\n"));
	free(write_file(t.home, "bin/cred.sh", "echo password=$(cat ~/.config/mytool/token)\n"));
	free(write_file(t.home, ".config/mytool/token", "t0ken\n"));
	struct cordon_strv got = {0};
	cr_assert_eq(cordon_config_secrets(t.home, NULL, NULL, getenv, collect_home, &got), 0);
	expect_named(&got, t.home,
		     (const char *const[]){"bin/cred.sh", ".config/mytool/token", NULL});
	cordon_strv_free(&got);
	tree_free(&t);
}

/* Round 51b F4: the credential files git's config (each file it reads and
 * what they include, as git parses it) and ssh's (with its Include) name;
 * not a helper that is no store, a relative name, ssh's "none" or a name
 * beneath ~/.ssh (hidden with it). */
Test(guard, the_credentials_git_and_ssh_name_are_found)
{
	struct tree t;
	tree_init(&t, "cfgsecrets");
	free(write_file(t.home, ".gitconfig",
			"[include]\n\tpath = inc/one\n"
			"[includeIf \"gitdir:~/work/\"]\n\tpath = ~/inc/two\n"
			"[credential]\n\thelper = cache --timeout 300\n"
			"\thelper = store --file=~/creds/a\n"
			"[credential \"https://x\"] helper = \"!f() { git credential-store "
			"--file \\\"$HOME/creds/b\\\" \\\"$@\\\"; }; f\"\n"
			"[core]\n\tsshCommand = ssh -o X=1 -i ~/keys/git_key -F /dev/null\n"));
	free(write_file(t.home, "inc/one",
			"[http]\n\tcookieFile = ~/.cookies\n"
			"\tsslKey = relative.key\n"));
	free(write_file(t.home, "inc/two",
			"[http \"https://y\"]\n\tsslkey = ~/keys/client.key\n"
			"\tproxySSLKey = ~/keys/proxy.key\n"
			"[credential]\n\thelper = store --file relative\n"));
	free(write_file(t.home, ".ssh/config",
			"Include conf.d/*.conf\nIdentityFile ~/.ssh/id_inside\n"
			"Host a\n  IdentityFile = \"~/my keys/a\"   # a comment\n"
			"Host b\n  identityfile none\nHost c\n  IdentityFile %d/keys/%h_%r\n"));
	free(write_file(t.home, ".ssh/conf.d/w.conf",
			"Host w\n\tIdentityFile ${CS_KEYDIR}/w\n"
			"\tIdentityFile ${CS_UNSET}/w\n"));
	struct cordon_strv got = {0};
	setenv("CS_KEYDIR", t.home, 1);
	unsetenv("CS_UNSET");
	cr_assert_eq(cordon_config_secrets(t.home, NULL, NULL, getenv, collect_home, &got), 0);
	unsetenv("CS_KEYDIR");
	expect_named(&got, t.home,
		     (const char *const[]){"creds/a", "creds/b", "keys/git_key", ".cookies",
					   "keys/client.key", "keys/proxy.key", "my keys/a",
					   "keys/*_*", "w", NULL});
	cordon_strv_free(&got);
	tree_free(&t);
}
