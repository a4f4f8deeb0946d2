/* protected_paths and hidden_paths: the session's own mount namespace keeps
 * git's hooks and config (followed into worktrees and submodules), the
 * shell dotfiles and cordon's own config read-only and unreplaceable where
 * a rule would let them be written, and credentials unreadable where a
 * rule would let them be read. A hostile command tries to plant something
 * that runs later, outside (a hook, core.fsmonitor, a config that switches
 * the next session off), or to read a token. Everything is judged from
 * outside: the bytes, inode and mode of the files after the session,
 * whether a planted hook exists, whether a planted command ran when git was
 * used outside afterwards (a marker it would make), whether a secret's
 * bytes appear in the output. Each refusal has a control that makes the
 * same attempt land: unsandboxed, or with the guard turned off. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <ftw.h>
#include <glob.h>
#include <poll.h>
#include <pwd.h>
#include <stdarg.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/inotify.h>
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "cordon/guard.h"
#include "cordon/session.h"
#include "cordon/sweep.h"
#include "both.h"
#include "helpers.h"
#include "linux/linux.h"

#define OLD_TIME 946684800 /* 2000-01-01 00:00:00 UTC */
#define TOKEN    "gho_T0ken-7d1e5ea9"
#define SSH_KEY  "PRIVATE-KEY-b2c9f1"
#define DISABLE  "{\"enabled\": false}"

/* ---- helpers ---- */

/* W's config becomes WORLD_BASE_RW plus EXTRA (a leading comma). */
static void set_config(struct world *w, const char *extra)
{
	FILE *f = fopen(w->cfg, "w");
	cr_assert_not_null(f, "%s: %s", w->cfg, strerror(errno));
	fprintf(f, "{" WORLD_BASE_RW "%s}", extra);
	cr_assert_eq(fclose(f), 0);
}

/* What PATH holds, or "(absent)". */
static char *slurp(const char *path)
{
	char *s = read_file(path);
	return s ? s : strdup("(absent)");
}

static char *at(const char *dir, const char *name)
{
	return path_join(dir, name);
}

/* LINKS (symbolic links a test laid in the world) given to the test
 * user when WHO is it: world_give leaves links as they are. */
static void give_links(const struct who *who, const char *const *links)
{
	if (!who->user)
		return;
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	for (size_t i = 0; links[i]; i++)
		cr_assert(lchown(links[i], uid, gid) == 0, "lchown %s", links[i]);
}

static bool present(const char *dir, const char *name)
{
	char *p = at(dir, name);
	struct stat st;
	bool r = lstat(p, &st) == 0;
	free(p);
	return r;
}

static ino_t inode(const char *dir, const char *name)
{
	char *p = at(dir, name);
	struct stat st;
	ino_t r = lstat(p, &st) == 0 ? st.st_ino : 0;
	free(p);
	return r;
}

static char *content(const char *dir, const char *name)
{
	char *p = at(dir, name);
	char *s = slurp(p);
	free(p);
	return s;
}

/* FMT outside, as W's user, in the project; it must succeed. */
__attribute__((format(printf, 2, 3))) static struct run_result outside(struct world *w,
								       const char *fmt, ...)
{
	char *script;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&script, fmt, ap) < 0)
		abort();
	va_end(ap);
	struct run_result r = sh_outside(w, script);
	cr_assert_eq(r.status, 0, "outside: %s\n%s%s", script, r.out, r.err);
	free(script);
	return r;
}

/* A world whose home has a git identity (the user runs git outside with
 * it, the session inside), its project a git repository with one commit. */
static void git_world(struct world *w, const struct who *who, const char *tag)
{
	world_for(w, who, tag, "");
	free(write_file(w->home, ".gitconfig",
			"[user]\n\tname = t\n\temail = t@example.com\n"
			"[init]\n\tdefaultBranch = main\n"
			"[protocol \"file\"]\n\tallow = always\n"
			"[advice]\n\tdetachedHead = false\n"));
	world_give(w);
	struct run_result r = outside(w, "git init -q && echo a > a && git add a && "
					 "git commit -qm first");
	run_free(&r);
}

/* W's project tracking an .envrc of the user's ("echo mine"), committed. */
static void tracked_envrc(struct world *w)
{
	struct run_result r = outside(w, "echo 'echo mine' > .envrc && git add .envrc && "
					 "git commit -qm tracked");
	run_free(&r);
}

/* A git world (TAG) whose user runs vim with 'exrc' (a .exrc or .vimrc
 * in the directory vim starts in runs). */
static void exrc_world(struct world *w, const struct who *who, const char *tag)
{
	git_world(w, who, tag);
	free(write_file(w->home, ".vimrc", "set exrc\nset nocompatible\n"));
}

/* The marker a command planted for TAG would make, outside. */
static char *marker(const struct world *w, const char *tag, const char *what)
{
	char *s;
	if (asprintf(&s, "%s/pwned-%s-%s", w->outside, tag, what) < 0)
		abort();
	return s;
}

static bool marked(const struct world *w, const char *tag, const char *what)
{
	char *m = marker(w, tag, what);
	bool r = access(m, F_OK) == 0;
	free(m);
	return r;
}

/* Each of STEPS reported "STEP 0" in R's output (the control: it lands). */
static void expect_all_landed(const char *const steps[], const struct run_result *r,
			      const char *what)
{
	for (size_t i = 0; steps[i]; i++) {
		char want[64];
		snprintf(want, sizeof(want), "%s 0\n", steps[i]);
		cr_assert(strstr(r->out, want), "control (%s): %s did not land: %s%s", what,
			  steps[i], r->out, r->err);
	}
}

/* A plant: BODY, a shell script, with M the prefix of TAG's markers,
 * "hook WHAT" printing a hook that makes $M-WHAT, "fsmon" a config section
 * whose core.fsmonitor makes $M-fsmonitor (git status runs it), and VARS
 * (more assignments, or ""). */
static char *plant(const struct world *w, const char *tag, const char *vars, const char *body)
{
	char *s;
	if (asprintf(&s,
		     "M=%s/pwned-%s\n%s\n"
		     "hook() { printf '#!/bin/sh\\ntouch %%s\\n' \"$M-$1\"; }\n"
		     "fsmon() { printf '[core]\\n\\tfsmonitor = \"touch %%s; false\"\\n' "
		     "\"$M-fsmonitor\"; }\n%s",
		     w->outside, tag, vars, body) < 0)
		abort();
	return s;
}

/* A shell step: the repository at the first argument ('%1$s') made with
 * one commit, to add as a submodule. */
#define UPSTREAM_REPO                                                                              \
	"git init -q '%1$s' && echo x > '%1$s/f' && git -C '%1$s' add f && "                       \
	"git -C '%1$s' commit -qm s && "

/* ---- git: the repository's hooks and config ---- */

/* Every way the session might plant something git runs outside later: in
 * .git/config (appended; replaced by rename), in .git/hooks (written;
 * linked; the directory removed or moved aside and rebuilt), and .git
 * itself moved away and rebuilt. Each prints its exit status. */
static const char plant_git[] =
	"cp .git/config evilcfg && printf '[alias]\\n\\treplaced = status\\n' >> evilcfg\n"
	"hook post-commit > evilhook && chmod +x evilhook\n"
	"rm -rf .git/hooks && mkdir .git/hooks; echo rm-hooks $?\n"
	"mv .git/hooks .git/hooks.old && mkdir .git/hooks; echo move-hooks $?\n"
	"mv evilcfg .git/config; echo replace-config $?\n"
	"fsmon >> .git/config; echo append-config $?\n"
	"hook pre-commit > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit; "
	"echo write-hook $?\n"
	"ln -sf \"$PWD/evilhook\" .git/hooks/post-commit; echo link-hook $?\n"
	"mv .git .g && cp -a .g .git && rm -rf .g; echo rebuild $?\n";

static const char *const plant_steps[] = {"rm-hooks",      "move-hooks", "replace-config",
					  "append-config", "write-hook", "link-hook",
					  "rebuild",       NULL};

/* git status and a commit, outside: what runs core.fsmonitor and the
 * commit hooks. */
static void git_outside(struct world *w, const char *dir, const char *msg)
{
	char *script;
	asprintf(&script,
		 "cd '%s' && git status >/dev/null 2>&1; git commit -q --allow-empty -m %s", dir,
		 msg);
	struct run_result r = sh_outside(w, script);
	free(script);
	run_free(&r);
}

/* BODY planted inside (markers "deny"): what the session said, for the
 * messages (malloc'd). */
static char *plant_inside(struct world *w, const char *body)
{
	char *script = plant(w, "deny", "", body);
	struct run_result r = sh_in(w, NULL, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	free(script);
	return diag;
}

/* BODY planted inside (markers "deny"), each of STEPS landing (the
 * control that the plant itself works): what the session said (malloc'd). */
static char *plant_landed(struct world *w, const char *body, const char *const steps[])
{
	char *script = plant(w, "deny", "", body);
	struct run_result r = sh_in(w, NULL, "%s", script);
	free(script);
	expect_all_landed(steps, &r, "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	return diag;
}

/* STEP planted inside (markers "deny") by a session whose launcher is
 * then killed (kill -9) once STEP has landed: no sweep ran for it. */
static void plant_then_kill(struct world *w, const char *step)
{
	char *then = fmt("%s && touch planted && sleep 60", step);
	char *body = plant(w, "deny", "", then);
	char *argv[] = {CORDON_BIN, "run", "--config", w->cfg, "--", "/bin/sh", "-c", body, NULL};
	pid_t pid = world_spawn(w, argv, w->proj);
	char *planted = at(w->proj, "planted");
	cr_assert(wait_exists(planted, 20000), "the killed session's plant did not land");
	cr_assert_eq(kill(pid, SIGKILL), 0);
	cr_expect(wait_gone(pid, 10000), "the launcher did not go");
	free(planted);
	free(body);
	free(then);
}

/* The control: BODY planted outside, unsandboxed (markers "ctl"); each of
 * STEPS (when not NULL) landing. */
static void plant_outside(struct world *w, const char *body, const char *const steps[])
{
	char *script = plant(w, "ctl", "", body);
	struct run_result r = outside(w, "%s", script);
	free(script);
	if (steps)
		expect_all_landed(steps, &r, "outside");
	run_free(&r);
}

/* The control: BODY planted outside, then git status and a commit
 * outside. */
static void plant_outside_then_git(struct world *w, const char *body)
{
	plant_outside(w, body, NULL);
	git_outside(w, w->proj, "outside-ctl");
}

BOTH_USERS(guards, git_plant_runs_nothing_outside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gplant");
	char *config = content(w.proj, ".git/config");
	ino_t git_ino = inode(w.proj, ".git"), hooks_ino = inode(w.proj, ".git/hooks");
	cr_assert(present(w.proj, ".git/hooks/pre-commit.sample"), "git init made no sample hooks");

	char *script = plant(&w, "deny", "", plant_git);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char *diag;
	asprintf(&diag, "inside (%d): %s%s", r.status, r.out, r.err);
	char *now = content(w.proj, ".git/config");
	cr_expect_str_eq(now, config, ".git/config was changed from inside\n%s", diag);
	free(now);
	cr_expect_not(present(w.proj, ".git/hooks/pre-commit"), "a pre-commit hook was planted\n%s",
		      diag);
	cr_expect_not(present(w.proj, ".git/hooks/post-commit"),
		      "a post-commit hook was linked in\n%s", diag);
	cr_expect(present(w.proj, ".git/hooks/pre-commit.sample"), ".git/hooks was emptied\n%s",
		  diag);
	cr_expect_not(present(w.proj, ".git/hooks.old"), ".git/hooks was moved aside\n%s", diag);
	cr_expect_eq(inode(w.proj, ".git/hooks"), hooks_ino, ".git/hooks was replaced\n%s", diag);
	cr_expect_eq(inode(w.proj, ".git"), git_ino, ".git was replaced\n%s", diag);
	cr_expect_not(present(w.proj, ".g"), ".git was moved away\n%s", diag);
	run_free(&r);

	/* Outside afterwards: git works and runs nothing planted. */
	git_outside(&w, w.proj, "outside-deny");
	r = outside(&w, "git log -1 --format=%%s");
	cr_expect(strstr(r.out, "outside-deny"), "git no longer works outside: %s", r.out);
	run_free(&r);
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "a planted core.fsmonitor ran outside\n%s",
		      diag);
	cr_expect_not(marked(&w, "deny", "pre-commit"), "a planted pre-commit ran outside\n%s",
		      diag);
	cr_expect_not(marked(&w, "deny", "post-commit"), "a planted post-commit ran outside\n%s",
		      diag);
	free(diag);
	free(script);

	/* Control: protected_paths [] lets every attempt land, and git
	 * outside then runs what was planted. */
	set_config(&w, ", \"protected_paths\": []");
	script = plant(&w, "ctl", "", plant_git);
	r = sh_in(&w, NULL, "%s", script);
	expect_all_landed(plant_steps, &r, "protected_paths []");
	now = content(w.proj, ".git/config");
	cr_assert(strstr(now, "replaced = status") && strstr(now, "pwned-ctl-fsmonitor"),
		  "control: .git/config was not changed: %s", now);
	free(now);
	cr_assert_neq(inode(w.proj, ".git"), git_ino, "control: .git was not rebuilt");
	run_free(&r);
	git_outside(&w, w.proj, "outside-ctl");
	cr_assert(marked(&w, "ctl", "fsmonitor") && marked(&w, "ctl", "pre-commit") &&
			  marked(&w, "ctl", "post-commit"),
		  "control: git outside did not run what was planted");
	free(script);
	free(config);
	world_free(&w);
}

/* A hook manager's hooks run what a file in the worktree says: here a
 * pre-commit hook (marked as pre-commit writes its own) that runs
 * .pre-commit-config.yaml, and a lefthook one that runs lefthook.yml and
 * the scripts in .lefthook/post-commit (round 14). The session cannot
 * change the first or the scripts, and the second, made inside, is moved
 * aside as the session ends: git commit outside runs nothing planted.
 * Control: protected_paths [] lets both land, and git outside runs them. */
static const char manager_hooks[] =
	"printf '#!/bin/sh\\n# File generated by pre-commit: https://pre-commit.com\\n"
	"sh .pre-commit-config.yaml\\n' > .git/hooks/pre-commit\n"
	"printf '#!/bin/sh\\n# lefthook\\n[ -e lefthook.yml ] && sh lefthook.yml; "
	"for f in .lefthook/post-commit/*; do sh \"$f\"; done; true\\n' "
	"> .git/hooks/post-commit\n"
	"chmod +x .git/hooks/pre-commit .git/hooks/post-commit; echo true > .pre-commit-config.yaml\n"
	"mkdir -p .lefthook/post-commit && echo true > .lefthook/post-commit/fmt.sh\n";
static const char plant_managers[] =
	"echo \"touch $M-pre-commit\" >> .pre-commit-config.yaml; "
	"echo config $?\n"
	"echo \"touch $M-post-commit\" > lefthook.yml; echo lefthook $?\n"
	"echo \"touch $M-script\" >> .lefthook/post-commit/fmt.sh; "
	"echo \"touch $M-script\" > .lefthook/post-commit/new.sh; echo script $?\n";

BOTH_USERS(guards, hook_managers_configs_run_nothing_planted, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "hookmgr");
	struct run_result r = outside(&w, manager_hooks);
	run_free(&r);
	char *script = plant(&w, "deny", "", plant_managers);
	r = sh_in(&w, NULL, "%s", script);
	char *now = content(w.proj, ".pre-commit-config.yaml");
	cr_expect_str_eq(now, "true\n", ".pre-commit-config.yaml was changed: %s%s", r.out, r.err);
	free(now);
	cr_expect_not(present(w.proj, "lefthook.yml"), "lefthook.yml stayed: %s", r.err);
	cr_expect(strstr(r.err, "lefthook.yml.cordon-disarmed"), "not said: %s", r.err);
	run_free(&r);
	git_outside(&w, w.proj, "outside-deny");
	cr_expect_not(marked(&w, "deny", "pre-commit"), "a planted pre-commit config ran outside");
	cr_expect_not(marked(&w, "deny", "post-commit"), "a planted lefthook.yml ran outside");
	cr_expect_not(marked(&w, "deny", "script"), "a planted lefthook script ran outside");
	free(script);

	set_config(&w, ", \"protected_paths\": []");
	script = plant(&w, "ctl", "", plant_managers);
	r = sh_in(&w, NULL, "%s", script);
	run_free(&r);
	git_outside(&w, w.proj, "outside-ctl");
	cr_assert(marked(&w, "ctl", "pre-commit") && marked(&w, "ctl", "post-commit") &&
			  marked(&w, "ctl", "script"),
		  "control: git outside did not run what was planted");
	free(script);
	world_free(&w);
}

/* additional_protected_paths and additional_hidden_paths add to the
 * defaults: the named file is read-only and the named token unreadable,
 * and .git/config (a default) stays read-only too. Judged outside: the
 * files' bytes after the session, the token's bytes in what it printed.
 * Control: without the keys, both are written and read. */
static const char plant_additional[] =
	"echo evil >> deploy.json; echo deploy $?\n"
	"printf '[core]\\n\\tfsmonitor = touch %s\\n' \"$M-fsmonitor\" >> .git/config; "
	"echo config $?\n"
	"cat ~/.config/mytool/token; echo token $?\n";

BOTH_USERS(guards, additional_keys_add_to_the_defaults, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "addkeys");
	free(write_file(w.proj, "deploy.json", "{}\n"));
	free(write_file(w.home, ".config/mytool/token", "SECRET-TOKEN\n"));
	world_give(&w);
	char *config_before = content(w.proj, ".git/config");
	set_config(&w, ", \"additional_protected_paths\": [\"deploy.json\"], "
		       "\"additional_hidden_paths\": [\"~/.config/mytool/token\"]");
	char *script = plant(&w, "deny", "", plant_additional);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "token "), "the plant did not run\n%s", diag);
	char *deploy = content(w.proj, "deploy.json"), *config = content(w.proj, ".git/config");
	cr_expect_str_eq(deploy, "{}\n", "an additional protected path was written\n%s", diag);
	cr_expect_str_eq(config, config_before, "a default protected path was written\n%s", diag);
	cr_expect_null(strstr(r.out, "SECRET-TOKEN"), "an additional hidden path was read\n%s",
		       diag);
	free(deploy), free(config), free(diag), free(script);
	run_free(&r);

	set_config(&w, "");
	script = plant(&w, "ctl", "", plant_additional);
	r = sh_in(&w, NULL, "%s", script);
	deploy = content(w.proj, "deploy.json");
	cr_assert(strstr(deploy, "evil"), "control: deploy.json was not written: %s%s", r.out,
		  r.err);
	cr_assert(strstr(r.out, "SECRET-TOKEN"), "control: the token was not read: %s%s", r.out,
		  r.err);
	free(deploy), free(script), free(config_before);
	run_free(&r);
	world_free(&w);
}

/* A protected name with a stand-in, hidden too (.mcp.json holds keys):
 * missing as the session starts, its stand-in is still made (and hidden
 * inside), so the session cannot make the file an agent outside would
 * start servers from. Before, hidden won alone: the session's .mcp.json
 * stayed. Control: with protected_paths [] (hidden only) the file lands. */
BOTH_USERS(guards, a_hidden_protected_name_keeps_its_stand_in, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "hidstand");
	set_config(&w, ", \"additional_hidden_paths\": [\".mcp.json\"]");
	static const char body[] = "echo '{\"mcpServers\": {}}' > .mcp.json; echo mcp $?\n";
	struct run_result r = sh_in(&w, NULL, "%s", body);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "mcp "), "the plant did not run\n%s", diag);
	char *mcp = path_join(w.proj, ".mcp.json");
	struct stat st;
	cr_expect(lstat(mcp, &st) < 0 || !S_ISREG(st.st_mode),
		  "the session made .mcp.json, hidden and protected\n%s", diag);
	free(diag);
	run_free(&r);

	set_config(&w, ", \"additional_hidden_paths\": [\".mcp.json\"], \"protected_paths\": []");
	r = sh_in(&w, NULL, "%s", body);
	cr_assert(lstat(mcp, &st) == 0 && S_ISREG(st.st_mode),
		  "control: .mcp.json was not made: %s%s", r.out, r.err);
	run_free(&r);
	free(mcp);
	world_free(&w);
}

/* A file a tool outside loads because a file it obeys names it: SETUP
 * made outside, PLANT run inside (its STEPS print "STEP $?", and mark
 * "$M-STEP" when what they planted runs). KEPT keeps its bytes (KEPT_BYTES)
 * and MADE, missing as the session started, is moved aside as it
 * appears (KEPT may be NULL: none); then TOOL runs outside, and nothing
 * planted runs. Control (after RESTORE, run outside, if any):
 * with protected_paths [] each step lands and runs. */
struct loaded_case {
	const char *tag, *setup, *plant;
	const char *const *steps;
	const char *kept, *kept_bytes, *made;
	void (*tool)(struct world *);
	const char *restore; /* run outside before the control, or NULL */
};

static void loaded_runs_nothing_planted(const struct who *who, const struct loaded_case *c)
{
	struct world w;
	git_world(&w, who, c->tag);
	struct run_result r = outside(&w, "%s", c->setup);
	run_free(&r);
	char *script = plant(&w, "deny", "", c->plant);
	r = sh_in(&w, NULL, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	size_t n = 0;
	while (c->steps[n])
		n++;
	char *last = fmt("%s ", c->steps[n - 1]);
	cr_assert(strstr(r.out, last), "the plant did not run\n%s", diag);
	char *now = c->kept ? content(w.proj, c->kept) : NULL;
	if (c->kept)
		cr_expect_str_eq(now, c->kept_bytes, "%s was changed\n%s", c->kept, diag);
	char *aside = fmt("%s.cordon-disarmed", c->made);
	cr_expect_not(present(w.proj, c->made), "%s stayed\n%s", c->made, diag);
	cr_expect(present(w.proj, aside), "%s was not kept aside\n%s", c->made, diag);
	free(now), free(aside), free(last), free(script);
	run_free(&r);
	c->tool(&w);
	for (size_t i = 0; c->steps[i]; i++)
		cr_expect_not(marked(&w, "deny", c->steps[i]),
			      "the tool outside ran what was planted (%s)\n%s", c->steps[i], diag);
	free(diag);

	if (c->restore) {
		r = outside(&w, "%s", c->restore);
		run_free(&r);
	}
	set_config(&w, ", \"protected_paths\": []");
	script = plant(&w, "ctl", "", c->plant);
	r = sh_in(&w, NULL, "%s", script);
	expect_all_landed(c->steps, &r, "protected_paths []");
	run_free(&r);
	c->tool(&w);
	for (size_t i = 0; c->steps[i]; i++)
		cr_assert(marked(&w, "ctl", c->steps[i]),
			  "control: the tool outside did not run what was planted (%s)",
			  c->steps[i]);
	free(script);
	world_free(&w);
}

/* lefthook merges the configs its `extends` names, sources its `rc`
 * before each command, and runs the scripts in its `source_dir`: here a
 * hook that does what lefthook would with what lefthook.yml names. The
 * session cannot change them or add to them, and the one named but
 * missing, made inside, is moved aside at once: git commit outside runs
 * nothing planted. */
static const char lefthook_setup[] =
	"mkdir -p ci shared scripts/lh/pre-commit\n"
	"printf 'rc: ./ci/lefthook.rc\\nsource_dir: \"scripts/lh/\"\\nextends:\\n"
	"  - ci/base.yml  # the team'\"'\"'s\\n  - \"shared/*.yml\"\\n  - ci/more.yml\\n"
	"pre-commit:\\n  commands:\\n    lint:\\n      run: ./scripts/lint.sh {staged_files}\\n' "
	"> lefthook.yml\n"
	"printf '#!/bin/sh\\ntrue\\n' > scripts/lint.sh\n"
	"echo true > ci/base.yml; echo true > ci/lefthook.rc; echo true > shared/a.yml\n"
	"echo true > scripts/lh/pre-commit/fmt.sh\n"
	"printf '#!/bin/sh\\n# lefthook\\nfor f in ci/lefthook.rc ci/base.yml shared/*.yml "
	"ci/more.yml scripts/lh/pre-commit/* scripts/lint.sh; do [ -f \"$f\" ] && sh \"$f\"; done; "
	"true\\n' "
	"> .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit\n";
static const char plant_lefthook[] =
	"echo \"touch $M-extends\" >> ci/base.yml; echo extends $?\n"
	"echo \"touch $M-glob\" > shared/b.yml; echo glob $?\n"
	"echo \"touch $M-rc\" >> ci/lefthook.rc; echo rc $?\n"
	"echo \"touch $M-script\" > scripts/lh/pre-commit/new.sh; echo script $?\n"
	"echo \"touch $M-run\" >> scripts/lint.sh; echo run $?\n"
	"echo \"touch $M-missing\" > ci/more.yml; echo missing $?\n";
static const char *const lefthook_steps[] = {"extends", "glob",    "rc", "script",
					     "run",     "missing", NULL};

static void commit_outside(struct world *w)
{
	git_outside(w, w->proj, "outside");
}

BOTH_USERS(guards, what_lefthook_config_names_runs_nothing_planted, .timeout = 60)
{
	loaded_runs_nothing_planted(who,
				    &(struct loaded_case){"lhnamed", lefthook_setup, plant_lefthook,
							  lefthook_steps, "ci/base.yml", "true\n",
							  "ci/more.yml", commit_outside, NULL});
}

/* lefthook's extends with a glob at the worktree's top (lefthook-*.yml):
 * a new match the session makes is moved aside as it appears, so a
 * commit outside while the session runs merges nothing planted (before,
 * only the session's end moved it). Control: protected_paths []. */
static const char lefthook_glob_setup[] =
	"printf 'extends:\n  - \"lefthook-*.yml\"\n  - \"*.lh.yml\"\n' > lefthook.yml\n"
	"echo true > lefthook-team.yml\n"
	"printf '#!/bin/sh\n# lefthook\nfor f in lefthook-*.yml *.lh.yml .*.lh.yml; do [ -f \"$f\" ] "
	"&& sh \"$f\"; done; true\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit\n";
/* (lefthook's * matches a leading dot too: .x.lh.yml, round 26c.) */
static const char plant_lefthook_glob[] =
	"echo \"touch $M-glob\" > lefthook-local-x.yml; echo glob $?\n"
	"echo \"touch $M-dot\" > .x.lh.yml; echo dot $?\n" WAIT_GO;

BOTH_USERS(guards, a_new_match_of_a_lefthook_glob_is_moved_aside_while_it_runs, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "lhglob");
	struct run_result r = outside(&w, "%s", lefthook_glob_setup);
	run_free(&r);
	char *commit =
		fmt("cd %s && git commit -q --allow-empty -m during >/dev/null 2>&1; true", w.proj);
	char *deny = plant(&w, "deny", "", plant_lefthook_glob);
	r = world_while_outside(&w, w.cfg, deny, commit);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "glob 0"), "the plant did not run\n%s", diag);
	cr_expect_not(marked(&w, "deny", "glob") || marked(&w, "deny", "dot"),
		      "a commit outside merged a match planted while the session ran\n%s", diag);
	cr_expect(present(w.proj, "lefthook-local-x.yml.cordon-disarmed"),
		  "the match was not moved aside\n%s", diag);
	cr_expect(present(w.proj, "lefthook-team.yml"), "the user's own match was moved\n%s", diag);
	free(diag);
	run_free(&r);

	r = outside(&w, "rm -f lefthook-local-x.yml* .x.lh.yml*");
	run_free(&r);
	set_config(&w, ", \"protected_paths\": []");
	char *ctl = plant(&w, "ctl", "", plant_lefthook_glob);
	r = world_while_outside(&w, w.cfg, ctl, commit);
	cr_assert(strstr(r.out, "glob 0"), "control: the plant did not land: %s%s", r.out, r.err);
	cr_expect(marked(&w, "ctl", "glob") && marked(&w, "ctl", "dot"),
		  "control: the commit outside did not merge them\n%s%s", r.out, r.err);
	run_free(&r);
	free(ctl), free(deny), free(commit);
	world_free(&w);
}

/* A pattern that also matches the name cordon moves a match to (lh-*
 * matches lh-x.yml.cordon-disarmed): that name is left as it is (lefthook
 * cannot read it: no extension it knows), but the moved-aside file
 * renamed back by the session (same inode), or to another match, is moved
 * aside again, so a commit outside merges neither (before, a match moved
 * aside once was never looked at again). Control: protected_paths [].
 * (The stand-in hook merges every .yml match, and skips the rest.) */
static const char lefthook_tail_setup[] =
	"printf 'extends:\n  - \"lh-*\"\n' > lefthook.yml\n"
	"printf '#!/bin/sh\n# lefthook\nfor f in lh-*; do case \"$f\" in *.yml) sh \"$f\";; esac; "
	"done; true\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit\n";
#define AWAIT(cond) "i=0; while ! " cond " && [ $i -lt 60 ]; do sleep 0.05; i=$((i+1)); done\n"
static const char plant_lefthook_tail[] =
	"echo \"touch $M-back\" > lh-x.yml; echo made $?\n" AWAIT("[ -e lh-x.yml.cordon-disarmed ]") "mv lh-x.yml.cordon-disarmed lh-x.yml; echo back $?\n" AWAIT(
		"[ ! -e lh-x.yml ]") "mv lh-x.yml.cordon-disarmed lh-y.yml; echo other $?\n" AWAIT("[ ! -e lh-y.yml ]")
		WAIT_GO;

BOTH_USERS(guards, a_moved_aside_match_renamed_back_is_moved_aside_again, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "lhtail");
	struct run_result r = outside(&w, "%s", lefthook_tail_setup);
	run_free(&r);
	char *commit =
		fmt("cd %s && git commit -q --allow-empty -m during >/dev/null 2>&1; true", w.proj);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = outside(&w, "rm -f lh-*");
			run_free(&r);
			set_config(&w, ", \"protected_paths\": []");
		}
		char *script = plant(&w, tags[ctl], "", plant_lefthook_tail);
		r = world_while_outside(&w, w.cfg, script, commit);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "made 0"), "the plant did not land\n%s", diag);
		if (ctl) {
			cr_expect(marked(&w, tags[ctl], "back"),
				  "control: the commit outside did not merge it\n%s", diag);
		} else {
			cr_expect(strstr(r.out, "back 0") && strstr(r.out, "other 0"),
				  "not moved aside the first time\n%s", diag);
			cr_expect_not(marked(&w, tags[ctl], "back"),
				      "a commit outside merged a match renamed back\n%s", diag);
			/* (The end may move that name aside once more: it matches
			 * the pattern, and changed since the start.) */
			cr_expect(!present(w.proj, "lh-y.yml") &&
					  (present(w.proj, "lh-y.yml.cordon-disarmed") ||
					   present(w.proj,
						   "lh-y.yml.cordon-disarmed.cordon-disarmed")),
				  "the match renamed was not moved aside\n%s", diag);
		}
		free(diag), free(script);
		run_free(&r);
	}
	free(commit);
	world_free(&w);
}

/* The same with a glob in a directory part (extends: "*\/hooks.yml",
 * session 26 left it to the end): a match made in a new directory, an
 * older file of the session's moved in under a matching name (its own
 * change time stays old), and one reached through a link laid to its
 * directory (lnk.cordon-disarmed would match too), are moved aside as
 * they appear, so a commit outside while the session
 * runs merges none; the user's own match stays, though the session
 * wrote beside it. Control: protected_paths []. */
static const char lefthook_deep_setup[] =
	"printf 'extends:\n  - \"*/hooks.yml\"\n' > lefthook.yml\n"
	"mkdir -p team && echo true > team/hooks.yml\n"
	"printf '#!/bin/sh\n# lefthook\nfor f in */hooks.yml; do [ -f \"$f\" ] && sh \"$f\"; "
	"done; true\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit\n";
static const char plant_lefthook_deep[] =
	"mkdir evil && echo \"touch $M-new\" > evil/hooks.yml; echo new $?\n"
	"mv stash/b moved; echo moved $?\n"
	"ln -s stash/c lnk; echo link $?\n"
	"echo mine > team/notes.txt; echo beside $?\n" WAIT_GO;

BOTH_USERS(guards, a_new_match_of_a_lefthook_directory_glob_is_moved_aside_while_it_runs,
	   .timeout = 60)
{
	struct world w;
	git_world(&w, who, "lhdeep");
	struct run_result r = outside(&w, "%s", lefthook_deep_setup);
	run_free(&r);
	char *commit =
		fmt("cd %s && git commit -q --allow-empty -m during >/dev/null 2>&1; true", w.proj);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		/* (Older than the session: a file an earlier one left where
		 * no pattern matched.) */
		r = outside(
			&w,
			"rm -rf evil moved lnk* stash team/notes.txt && mkdir -p stash/b stash/c && "
			"echo 'touch %s/pwned-%s-moved' > stash/b/hooks.yml && "
			"echo 'touch %s/pwned-%s-link' > stash/c/hooks.yml",
			w.outside, tags[ctl], w.outside, tags[ctl]);
		run_free(&r);
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		char *script = plant(&w, tags[ctl], "", plant_lefthook_deep);
		r = world_while_outside(&w, w.cfg, script, commit);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		expect_all_landed((const char *const[]){"new", "moved", "link", "beside", NULL}, &r,
				  tags[ctl]);
		bool merged[] = {marked(&w, tags[ctl], "new"), marked(&w, tags[ctl], "moved"),
				 marked(&w, tags[ctl], "link")};
		if (ctl) {
			cr_expect(merged[0] && merged[1] && merged[2],
				  "control: the commit outside did not merge them all (%d%d%d)\n%s",
				  merged[0], merged[1], merged[2], diag);
		} else {
			cr_expect_not(merged[0], "a match made in a new directory was merged\n%s",
				      diag);
			cr_expect_not(merged[1], "an older match moved in was merged\n%s", diag);
			cr_expect_not(merged[2], "a match behind a laid link was merged\n%s", diag);
			cr_expect(present(w.proj, "evil/hooks.yml.cordon-disarmed") &&
					  present(w.proj, "moved/hooks.yml.cordon-disarmed") &&
					  present(w.proj, "stash/c/hooks.yml.cordon-disarmed"),
				  "not moved aside\n%s", diag);
			cr_expect(present(w.proj, "team/hooks.yml"),
				  "the user's own match was moved\n%s", diag);
		}
		free(diag), free(script);
		run_free(&r);
	}
	free(commit);
	world_free(&w);
}

/* An .envrc loads other files: direnv allows the .envrc by its bytes, not
 * what it loads. What it sources (a directory's .envrc by source_env, an
 * .envrc.local by source_env_if_exists, missing, made inside), the .env
 * dotenv exports into the shell outside (PROMPT_COMMAND runs there), a
 * script it runs by its path: the session cannot change them, and the
 * missing one is moved aside at once. The real direnv outside, entering
 * the project, runs nothing planted. */
static const char envrc_setup[] =
	"mkdir -p sub scripts\n"
	"printf 'source_env_if_exists .envrc.local\\ndotenv_if_exists\\nsource_env sub\\n"
	"./scripts/env.sh\\n' > .envrc\n"
	"echo A=1 > .env; echo true > sub/.envrc\n"
	"printf '#!/bin/sh\\ntrue\\n' > scripts/env.sh && chmod +x scripts/env.sh\n"
	"direnv allow . 2>&1\n";
static const char plant_envrc[] =
	"echo \"touch $M-local\" > .envrc.local; echo local $?\n"
	"echo \"PROMPT_COMMAND='touch $M-dotenv'\" >> .env; echo dotenv $?\n"
	"echo \"touch $M-sub\" >> sub/.envrc; echo sub $?\n"
	"echo \"touch $M-script\" >> scripts/env.sh; echo script $?\n";
static const char *const envrc_steps[] = {"local", "dotenv", "sub", "script", NULL};

/* direnv outside entering the project, and the shell's next prompt. */
static void direnv_outside(struct world *w)
{
	struct run_result r = sh_outside(
		w, "direnv exec . sh -c 'eval \"${PROMPT_COMMAND:-true}\"' >/dev/null 2>&1");
	run_free(&r);
}

BOTH_USERS(guards, what_an_envrc_loads_runs_nothing_planted, .timeout = 60)
{
	loaded_runs_nothing_planted(
		who, &(struct loaded_case){"envrcld", envrc_setup, plant_envrc, envrc_steps, ".env",
					   "A=1\n", ".envrc.local", direnv_outside, NULL});
}

/* Round 53d: what a harmless command started in the project runs. The
 * user's .yarnrc.yml names a release (yarnPath) and a plugin that
 * yarn --version outside runs: the session cannot change either. A
 * .yarnrc.yml with a yarnPath and its release in .yarn/releases, Maven's
 * .mvn/jvm.config (a -javaagent mvn -v loads), irb's, pdb's and R's
 * startup files, and (53f) cargo's config (a rustc-wrapper cargo
 * metadata runs), npm's (editor) and ctags' options (-f), and (54c F1)
 * corepack's .corepack.env (a COREPACK_HOME whose planted install
 * yarn --version runs), made inside, are not left at their names. Judged from
 * outside: what each file holds after the end. Control: with
 * protected_paths [], every plant lands. */
static const char plant_starters[] =
	"echo evil > scripts/yarn.cjs; echo release $?\n"
	"echo evil > tools/plugin.cjs; echo plugin $?\n"
	"mkdir -p sub/.yarn/releases && echo evil > sub/.yarn/releases/y.cjs && "
	"echo 'yarnPath: .yarn/releases/y.cjs' > sub/.yarnrc.yml; echo sub-yarnrc $?\n"
	"mkdir -p .mvn && echo -javaagent:evil.jar > .mvn/jvm.config; echo mvn $?\n"
	"echo evil > .irbrc; echo irbrc $?\n"
	"echo evil > .pdbrc; echo pdbrc $?\n"
	"echo evil > .Rprofile; echo rprofile $?\n"
	"mkdir -p .cargo && echo '# evil' > .cargo/config.toml; echo cargo $?\n"
	"echo 'editor=./evil.sh' >> .npmrc; echo npmrc $?\n"
	"mkdir -p .ctags.d && echo '-f$HOME/evil' > .ctags.d/evil.ctags; echo ctags $?\n"
	"echo COREPACK_HOME=evil > .corepack.env; echo corepack $?\n"
	"mkdir -p pkg && echo COREPACK_HOME=evil > pkg/.corepack.env; echo sub-corepack $?\n"
	"echo evil > .pryrc; echo pryrc $?\n"
	"echo 'default:gtags_parser=evil' > gtags.conf; echo gtags $?\n";
static const char *const starter_steps[] = {
	"release", "plugin", "sub-yarnrc", "mvn",      "irbrc",        "pdbrc", "rprofile",
	"cargo",   "npmrc",  "ctags",      "corepack", "sub-corepack", NULL};
static const char *const starter_files[] = {"scripts/yarn.cjs",
					    "tools/plugin.cjs",
					    "sub/.yarnrc.yml",
					    ".mvn/jvm.config",
					    ".irbrc",
					    ".pdbrc",
					    ".Rprofile",
					    ".cargo/config.toml",
					    ".npmrc",
					    ".ctags.d/evil.ctags",
					    ".corepack.env",
					    "pkg/.corepack.env",
					    ".pryrc",
					    "gtags.conf",
					    NULL};

BOTH_USERS(guards, what_harmless_commands_run_stays_unplanted, .timeout = 60)
{
	for (int ctl = 1; ctl >= 0; ctl--) {
		struct world w;
		world_for(&w, who, ctl ? "startctl" : "start",
			  ctl ? ", \"protected_paths\": []" : "");
		free(write_file(w.proj, ".yarnrc.yml",
				"yarnPath: scripts/yarn.cjs\nplugins:\n"
				"  - path: tools/plugin.cjs\n    spec: \"x\"\n"));
		free(write_file(w.proj, "scripts/yarn.cjs", "mine\n"));
		free(write_file(w.proj, "tools/plugin.cjs", "mine\n"));
		free(write_file(w.proj, "sub/package.json", "{}\n"));
		world_give(&w);
		struct run_result r = sh_in(&w, NULL, "%s", plant_starters);
		char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
		if (ctl)
			expect_all_landed(starter_steps, &r, "protected_paths []");
		for (size_t i = 0; !ctl && starter_files[i]; i++) {
			char *now = content(w.proj, starter_files[i]);
			cr_expect(!strstr(now, "evil"), "%s holds the plant\n%s", starter_files[i],
				  diag);
			free(now);
		}
		run_free(&r);
		free(diag);
		world_free(&w);
	}
}

/* A subdirectory's .envrc (allowed) loads an .envrc.local and a .env:
 * the session cannot change the .env, and the .envrc.local it makes is
 * moved aside (before session 26, it wrote both, and only the end moved
 * the .envrc aside). direnv outside, entering the subdirectory, runs
 * nothing planted. (What an .envrc direnv has not allowed loads is judged
 * as the session ends: protected_names_in_subdirectories_are_judged_by_
 * content.) */
static const char sub_envrc_setup[] =
	"mkdir -p sub && printf 'source_env_if_exists .envrc.local\\ndotenv_if_exists\\n' > "
	"sub/.envrc && echo A=1 > sub/.env && cd sub && direnv allow . 2>&1\n";
static const char plant_sub_envrc[] =
	"echo \"touch $M-local\" > sub/.envrc.local; echo local $?\n"
	"echo \"PROMPT_COMMAND='touch $M-dotenv'\" >> sub/.env; echo dotenv $?\n";
static const char *const sub_envrc_steps[] = {"local", "dotenv", NULL};

static void direnv_outside_sub(struct world *w)
{
	struct run_result r = sh_outside(w, "cd sub && direnv exec . sh -c 'eval "
					    "\"${PROMPT_COMMAND:-true}\"' >/dev/null 2>&1");
	run_free(&r);
}

BOTH_USERS(guards, what_a_subdirectory_envrc_loads_runs_nothing_planted, .timeout = 60)
{
	loaded_runs_nothing_planted(
		who, &(struct loaded_case){"subenvrc", sub_envrc_setup, plant_sub_envrc,
					   sub_envrc_steps, "sub/.env", "A=1\n", "sub/.envrc.local",
					   direnv_outside_sub, "rm -f sub/.envrc.local*"});
}

/* The session's BODY (planted, marks TAG) while direnv outside enters
 * sub/ once it is ready: what it printed. */
static struct run_result direnv_in_while(struct world *w, const char *dir, const char *tag,
					 const char *body)
{
	char *script = fmt("%s%s", body, WAIT_GO);
	char *planted = plant(w, tag, "", script);
	char *direnv = fmt("cd %s%s%s && direnv exec . sh -c 'eval \"${PROMPT_COMMAND:-true}\"' "
			   ">/dev/null 2>&1; true",
			   dir[0] == '/' ? "" : w->proj, dir[0] == '/' ? "" : "/", dir);
	struct run_result r = world_while_outside(w, w->cfg, planted, direnv);
	free(direnv), free(planted), free(script);
	return r;
}

static struct run_result direnv_sub_while(struct world *w, const char *tag, const char *body)
{
	return direnv_in_while(w, "sub", tag, body);
}

/* Whether direnv outside ran each of STEPS planted (marks TAG) while the
 * session R came from ran: RAN, as the control expects, or not. */
static void expect_direnv_ran(const struct world *w, const char *tag, const char *const steps[],
			      bool ran, const struct run_result *r)
{
	for (size_t i = 0; steps[i]; i++)
		cr_expect(marked(w, tag, steps[i]) == ran, "%s (%s)\ninside (%d): %s%s",
			  ran ? "control: direnv outside did not run what was planted"
			      : "direnv outside ran what was planted while the session ran",
			  steps[i], r->status, r->out, r->err);
}

/* The same .envrc, allowed: what it loads is kept while the session runs
 * too (the .env read-only, the missing .envrc.local moved aside as it
 * appears), not only judged as it ends, from the first session on. An
 * allowed one renamed away (as an earlier session could, to put the same
 * bytes back later, which direnv still allows) is moved aside as it
 * appears. direnv outside, entering sub/ while the session runs, runs
 * nothing planted. Control: protected_paths [] (direnv outside runs it). */
static const char plant_sub_back[] = "mv sub/envrc.keep sub/.envrc; echo back $?\n";

BOTH_USERS(guards, what_an_allowed_subdirectory_envrc_loads_is_kept_while_it_runs, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "subenvrun");
	struct run_result r = outside(&w, "%s", sub_envrc_setup);
	run_free(&r);
	for (int round = 0; round < 2; round++) {
		const char *tag = round ? "deny-back" : "deny";
		char *body = fmt("%s%s", round ? plant_sub_back : "", plant_sub_envrc);
		if (round) {
			r = outside(&w, "rm -f sub/.envrc.local*; mv sub/.envrc sub/envrc.keep");
			run_free(&r);
		}
		r = direnv_sub_while(&w, tag, body);
		char *diag = fmt("round %d, inside (%d): %s%s", round, r.status, r.out, r.err);
		cr_assert(strstr(r.out, "local 0") && (!round || strstr(r.out, "back 0")),
			  "the plant did not run\n%s", diag);
		expect_direnv_ran(&w, tag, sub_envrc_steps, false, &r);
		/* (In the second round the .envrc is missing as the session
		 * starts: what it loads is not known, and it goes as it
		 * appears.) */
		char *env = content(w.proj, "sub/.env");
		if (!round)
			cr_expect_str_eq(env, "A=1\n", "sub/.env was changed\n%s", diag);
		else
			cr_expect(present(w.proj, "sub/.envrc.cordon-disarmed"),
				  "the .envrc put back was not moved aside\n%s", diag);
		free(env), free(diag), free(body);
		run_free(&r);
	}

	r = outside(&w, "rm -f sub/.envrc.local*; mv sub/.envrc.cordon-disarmed sub/.envrc");
	run_free(&r);
	set_config(&w, ", \"protected_paths\": []");
	r = direnv_sub_while(&w, "ctl", plant_sub_envrc);
	expect_all_landed(sub_envrc_steps, &r, "protected_paths []");
	expect_direnv_ran(&w, "ctl", sub_envrc_steps, true, &r);
	run_free(&r);
	world_free(&w);
}

/* An .envrc the user allows outside while a session runs (session 26
 * kept it only from the next session on): from then on what it loads is
 * kept, the .env read-only, the .envrc.local made after moved aside at
 * once; one whose .env the session had changed before the allow is
 * moved aside as it is allowed. direnv outside, entering sub/ after the
 * plant and before the session ends, runs nothing planted. Control:
 * protected_paths []. */
static const char unallowed_setup[] =
	"mkdir -p sub && printf 'source_env_if_exists .envrc.local\\ndotenv_if_exists\\n' > "
	"sub/.envrc && echo A=1 > sub/.env\n";
#define WAIT_FOR(f) "i=0; while [ ! -e " f " ] && [ $i -lt 300 ]; do sleep 0.05; i=$((i+1)); done\n"
static const char plant_after_allow[] =
	WAIT_GO "echo \"touch $M-local\" > sub/.envrc.local; echo local $?\n"
		"echo \"PROMPT_COMMAND='touch $M-dotenv'\" >> sub/.env; echo dotenv $?\n"
		"sleep 0.3; touch planted\n" WAIT_FOR("go2");
static const char plant_before_allow[] =
	"echo \"PROMPT_COMMAND='touch $M-dotenv'\" >> sub/.env; echo dotenv $?\n" WAIT_GO
	"touch planted\n" WAIT_FOR("go2");

BOTH_USERS(guards, an_envrc_allowed_while_it_runs_is_kept_from_then_on, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "allowrun");
	char *allow_then_enter = fmt(
		"cd %s/sub && direnv allow . 2>/dev/null; touch %s/go; " WAIT_FOR(
			"%s/planted") "direnv exec . sh -c 'eval \"${PROMPT_COMMAND:-true}\"' >/dev/null 2>&1; touch %s/go2",
		w.proj, w.proj, w.proj, w.proj);
	const char *tags[] = {"deny", "deny-before", "ctl"};
	for (int round = 0; round < 3; round++) {
		struct run_result r = outside(&w,
					      "rm -rf sub planted go2; %s(cd sub && direnv deny . "
					      "2>/dev/null); true",
					      unallowed_setup);
		run_free(&r);
		if (round == 2)
			set_config(&w, ", \"protected_paths\": []");
		char *script = plant(&w, tags[round], "",
				     round == 1 ? plant_before_allow : plant_after_allow);
		r = world_while_outside(&w, w.cfg, script, allow_then_enter);
		char *diag = fmt("%s (%d): %s%s", tags[round], r.status, r.out, r.err);
		if (round == 2) {
			expect_all_landed(sub_envrc_steps, &r, "protected_paths []");
			expect_direnv_ran(&w, tags[round], sub_envrc_steps, true, &r);
		} else if (round == 0) {
			cr_assert(strstr(r.out, "local 0"), "the plant did not run\n%s", diag);
			expect_direnv_ran(&w, tags[round], sub_envrc_steps, false, &r);
			char *env = content(w.proj, "sub/.env");
			cr_expect_str_eq(env, "A=1\n", "sub/.env was changed\n%s", diag);
			free(env);
			cr_expect(strstr(r.err, "direnv now allows"), "not said\n%s", diag);
		} else {
			cr_assert(strstr(r.out, "dotenv 0"), "the plant did not land\n%s", diag);
			expect_direnv_ran(&w, tags[round], (const char *const[]){"dotenv", NULL},
					  false, &r);
			cr_expect(present(w.proj, "sub/.envrc.cordon-disarmed"),
				  "the .envrc allowed after its .env changed stayed\n%s", diag);
		}
		free(diag), free(script);
		run_free(&r);
	}
	struct run_result r = outside(&w, "rm -rf sub planted go2");
	run_free(&r);
	free(allow_then_enter);
	world_free(&w);
}

/* Two more ways to what direnv outside runs from an allowed
 * subdirectory .envrc (round 26b): an older version of it, which direnv
 * still allows (its allow list keeps each), written back, loading a file
 * the session then plants; and source_up, which sources the nearest
 * .envrc above whatever it holds: a nearer one made (packages/.envrc,
 * above packages/web) is moved aside as it appears. direnv outside,
 * entering each while the session runs, runs nothing planted. Control:
 * protected_paths []. */
static const char reach_setup[] =
	"mkdir -p sub packages/web && echo true > .envrc && direnv allow . 2>&1\n"
	"echo 'source_env_if_exists .envrc.local' > sub/.envrc && (cd sub && direnv allow . "
	"2>&1)\n"
	"echo dotenv_if_exists > sub/.envrc && (cd sub && direnv allow . 2>&1)\n"
	"echo source_up > packages/web/.envrc && (cd packages/web && direnv allow . 2>&1)\n";
static const char plant_old_version[] = "echo 'source_env_if_exists .envrc.local' > sub/.envrc; "
					"echo \"touch $M-old\" > sub/.envrc.local; echo old $?\n";
static const char plant_up[] = "echo \"touch $M-up\" > packages/.envrc; echo up $?\n";

BOTH_USERS(guards, what_an_allowed_subdirectory_envrc_reaches_is_kept_while_it_runs, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "subreach");
	struct run_result r = outside(&w, "%s", reach_setup);
	run_free(&r);
	for (int ctl = 0; ctl < 2; ctl++) {
		const char *tag = ctl ? "ctl" : "deny";
		if (ctl) {
			r = outside(&w, "rm -rf sub/.envrc.local* packages/.envrc*; echo "
					"dotenv_if_exists > sub/.envrc");
			run_free(&r);
			set_config(&w, ", \"protected_paths\": []");
		}
		r = direnv_in_while(&w, "sub", tag, plant_old_version);
		char *diag = fmt("%s, inside (%d): %s%s", tag, r.status, r.out, r.err);
		cr_assert(!ctl || strstr(r.out, "old 0"), "control: the plant did not land\n%s",
			  diag);
		expect_direnv_ran(&w, tag, (const char *const[]){"old", NULL}, ctl, &r);
		free(diag);
		run_free(&r);
		r = direnv_in_while(&w, "packages/web", tag, plant_up);
		diag = fmt("%s, inside (%d): %s%s", tag, r.status, r.out, r.err);
		cr_assert(strstr(r.out, "up 0"), "the plant did not land\n%s", diag);
		expect_direnv_ran(&w, tag, (const char *const[]){"up", NULL}, ctl, &r);
		free(diag);
		run_free(&r);
	}
	world_free(&w);
}

/* A second writable root named through a link (otherlink -> other):
 * direnv records the path it resolved, which is compared with the root
 * as resolved too (round 26b: the entries were dropped, and what
 * other/pkg/.envrc sources ran outside). Control: protected_paths []. */
BOTH_USERS(guards, an_allowed_envrc_below_a_linked_root_is_kept_while_it_runs, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "linkroot");
	char *setup =
		fmt("cd %s && mkdir -p other/pkg && ln -s other otherlink && echo "
		    "'source_env_if_exists .envrc.local' > other/pkg/.envrc && cd otherlink/pkg "
		    "&& direnv allow . 2>&1",
		    w.dir);
	struct run_result r = outside(&w, "%s", setup);
	run_free(&r);
	char *pkg = fmt("%s/other/pkg", w.dir);
	char *body = fmt("echo \"touch $M-linked\" > %s/otherlink/pkg/.envrc.local; echo linked "
			 "$?\n",
			 w.dir);
	for (int ctl = 0; ctl < 2; ctl++) {
		const char *tag = ctl ? "ctl" : "deny";
		char *extra = fmt("%s, \"additional_read_write_paths\": [\"%s/otherlink\"]",
				  ctl ? ", \"protected_paths\": []" : "", w.dir);
		set_config(&w, extra);
		r = direnv_in_while(&w, pkg, tag, body);
		char *diag = fmt("%s, inside (%d): %s%s", tag, r.status, r.out, r.err);
		cr_assert(strstr(r.out, "linked 0"), "the plant did not land\n%s", diag);
		expect_direnv_ran(&w, tag, (const char *const[]){"linked", NULL}, ctl, &r);
		free(diag), free(extra);
		run_free(&r);
		r = outside(&w, "rm -f %s/.envrc.local*", pkg);
		run_free(&r);
	}
	free(body), free(pkg), free(setup);
	world_free(&w);
}

/* A chain of source_up (an allowed packages/chain/.envrc sourcing
 * packages/.envrc, which looks up for a file there is nowhere): the
 * launcher's watch makes the guards' plan through it, and a thread of
 * 128 KiB (musl's) overflowed: every session died, SIGSEGV (round 26c).
 * The session runs and ends as it should. */
BOTH_USERS(guards, a_chain_of_source_up_runs_the_session, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "upchain");
	struct run_result r =
		outside(&w, "mkdir -p packages/chain && echo 'export TOP=1' > .envrc && "
			    "echo source_up > packages/chain/.envrc && echo 'source_up "
			    "envq' > packages/.envrc && cd packages/chain && direnv allow "
			    ". 2>&1");
	run_free(&r);
	r = sh_in(&w, NULL, "%s", "sleep 0.5; echo ran");
	cr_expect_eq(r.status, 0, "the session ended %d: %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	run_free(&r);
	world_free(&w);
}

/* direnv's whitelist (direnv.toml) runs an .envrc it names exactly
 * whatever the .envrc holds, and any .envrc below a prefix: the one named
 * is read-only with what it loads, so direnv outside, entering it while
 * the session runs, runs nothing planted; the prefix over the project is
 * said as the session starts. Control: protected_paths []. */
static const char plant_whitelisted[] =
	"echo \"touch $M-whitelisted\" >> sub/.envrc; echo whitelisted $?\n"
	"echo \"PROMPT_COMMAND='touch $M-dotenv'\" >> sub/.env; echo dotenv $?\n";
static const char *const whitelisted_steps[] = {"whitelisted", "dotenv", NULL};

BOTH_USERS(guards, what_direnv_whitelists_is_kept_while_it_runs, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "direnvwl");
	char *toml =
		fmt("[whitelist]\nexact = [\"%s/sub\"]\nprefix = [\"%s/pkgs/\"]\n", w.proj, w.proj);
	char *setup = fmt("mkdir -p sub ~/.config/direnv && echo dotenv_if_exists > sub/.envrc && "
			  "echo A=1 > sub/.env && printf '%%s' '%s' > ~/.config/direnv/direnv.toml",
			  toml);
	struct run_result r = outside(&w, "%s", setup);
	run_free(&r);
	r = direnv_sub_while(&w, "deny", plant_whitelisted);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.err, "whitelist prefix") && strstr(r.err, "/pkgs/"),
		  "the prefix was not said\n%s", diag);
	expect_direnv_ran(&w, "deny", whitelisted_steps, false, &r);
	char *env = content(w.proj, "sub/.env");
	cr_expect_str_eq(env, "A=1\n", "sub/.env was changed\n%s", diag);
	free(env), free(diag);
	run_free(&r);

	set_config(&w, ", \"protected_paths\": []");
	r = direnv_sub_while(&w, "ctl", plant_whitelisted);
	expect_all_landed(whitelisted_steps, &r, "protected_paths []");
	expect_direnv_ran(&w, "ctl", whitelisted_steps, true, &r);
	run_free(&r);
	free(setup), free(toml);
	world_free(&w);
}

/* The same in the other layouts a review used: hooks in core.hooksPath
 * (.githooks) that run `pre-commit run`, and one installed with
 * --config=ci/hooks.yaml, in the project; and a nested repository with a
 * pre-commit hook, whose config the session may write: its repository is
 * moved aside as the session ends. git commit outside, in both, runs
 * nothing planted. Control: protected_paths [] (no guards, no sweep). */
static const char layout_hooks[] =
	"mkdir -p .githooks ci && git config core.hooksPath .githooks\n"
	"printf '#!/bin/sh\\n# pre-commit run\\nsh .pre-commit-config.yaml; true\\n' > "
	".githooks/pre-commit\n"
	"printf '#!/bin/sh\\n# ARGS=(hook-impl --config=ci/hooks.yaml)\\nsh ci/hooks.yaml; "
	"true\\n' > .githooks/post-commit\n"
	"printf '#!/bin/sh\\npre-commit run -c ci/other.yaml >/dev/null 2>&1; sh ci/other.yaml; "
	"true\\n' > .githooks/commit-msg\n"
	"chmod +x .githooks/*; echo true > .pre-commit-config.yaml; echo true > ci/hooks.yaml\n"
	"echo true > ci/other.yaml\n"
	"git init -q sub && cd sub && printf '#!/bin/sh\\n# https://pre-commit.com\\nsh "
	".pre-commit-config.yaml; true\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit "
	"&& echo true > .pre-commit-config.yaml && git add . && git commit -qm sub\n";
static const char plant_layouts[] =
	"echo \"touch $M-pre-commit\" >> .pre-commit-config.yaml; echo hookspath $?\n"
	"echo \"touch $M-post-commit\" >> ci/hooks.yaml; echo config $?\n"
	"echo \"touch $M-commit-msg\" >> ci/other.yaml; echo short $?\n"
	"echo \"touch $M-nested\" >> sub/.pre-commit-config.yaml; echo nested $?\n";

/* A hook that names its manager's config at run time (--config "$CFG"):
 * cordon cannot follow it, and says so as the session starts (round 6 and
 * 7 asked for it). Control: a literal --config is followed, and nothing
 * is said. */
BOTH_USERS(guards, a_hook_config_named_at_run_time_is_said, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "hookvar");
	struct run_result r =
		outside(&w, "printf '#!/bin/sh\\n# https://pre-commit.com\\nCFG=ci/x.yaml\\n"
			    "pre-commit run --config \"$CFG\"\\n' > .git/hooks/pre-commit && "
			    "chmod +x .git/hooks/pre-commit");
	run_free(&r);
	r = sh_in(&w, NULL, "echo ran");
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "names its manager's config at run time"), "not said: %s", r.err);
	run_free(&r);
	r = outside(&w, "printf '#!/bin/sh\\n# https://pre-commit.com\\npre-commit run "
			"--config ci/x.yaml\\n' > .git/hooks/pre-commit");
	run_free(&r);
	r = sh_in(&w, NULL, "echo ran");
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "at run time"), "said of a literal path: %s", r.err);
	run_free(&r);
	world_free(&w);
}

BOTH_USERS(guards, hook_managers_in_other_layouts_run_nothing_planted, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "hooklay");
	struct run_result r = outside(&w, layout_hooks);
	cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
	run_free(&r);
	char *sub = at(w.proj, "sub");
	/* A first session knows the nested repository (and leaves it). */
	sleep(1);
	r = sh_in(&w, NULL, "%s", "true");
	cr_assert(present(sub, ".git"), "a session moved the nested repository: %s", r.err);
	run_free(&r);
	char *script = plant(&w, "deny", "", plant_layouts);
	r = sh_in(&w, NULL, "%s", script);
	char *diag = fmt("inside: %s%s", r.out, r.err);
	char *now = content(w.proj, ".pre-commit-config.yaml");
	cr_expect_str_eq(now, "true\n", "the hooks path's config was changed\n%s", diag);
	free(now);
	now = content(w.proj, "ci/hooks.yaml");
	cr_expect_str_eq(now, "true\n", "the --config file was changed\n%s", diag);
	free(now);
	now = content(w.proj, "ci/other.yaml");
	cr_expect_str_eq(now, "true\n", "the -c file was changed\n%s", diag);
	free(now);
	cr_expect(present(sub, ".git.cordon-disarmed") && !present(sub, ".git"),
		  "the nested repository was not moved aside\n%s", diag);
	run_free(&r);
	git_outside(&w, w.proj, "outside-deny");
	git_outside(&w, sub, "outside-deny");
	cr_expect_not(marked(&w, "deny", "pre-commit"), "the hooks path's planted config ran");
	cr_expect_not(marked(&w, "deny", "post-commit"), "the planted --config file ran");
	cr_expect_not(marked(&w, "deny", "commit-msg"), "the planted -c file ran");
	cr_expect_not(marked(&w, "deny", "nested"), "the nested planted config ran");
	free(script);
	free(diag);

	r = outside(&w, "cd sub && mv .git.cordon-disarmed .git && mv .git/HEAD.cordon-disarmed "
			".git/HEAD && git checkout -q -- .");
	run_free(&r);
	set_config(&w, ", \"protected_paths\": []");
	script = plant(&w, "ctl", "", plant_layouts);
	r = sh_in(&w, NULL, "%s", script);
	run_free(&r);
	git_outside(&w, w.proj, "outside-ctl");
	git_outside(&w, sub, "outside-ctl");
	cr_assert(marked(&w, "ctl", "pre-commit") && marked(&w, "ctl", "post-commit") &&
			  marked(&w, "ctl", "nested") && marked(&w, "ctl", "commit-msg"),
		  "control: git outside did not run what was planted: %d %d %d",
		  marked(&w, "ctl", "pre-commit"), marked(&w, "ctl", "post-commit"),
		  marked(&w, "ctl", "nested"));
	free(script);
	free(sub);
	world_free(&w);
}

/* A git dir's commondir file sends git to another directory for its
 * config and hooks: one written into .git by the session would make git,
 * outside, run a planted core.fsmonitor and pre-commit from a directory in
 * the project. The control plants the same outside (unsandboxed). */
static const char plant_commondir[] =
	"rm -rf evil && mkdir evil && cp -r .git/. evil/ && rm -rf evil/hooks && mkdir evil/hooks\n"
	"hook pre-commit > evil/hooks/pre-commit && chmod +x evil/hooks/pre-commit\n"
	"fsmon >> evil/config\n"
	"echo \"$PWD/evil\" > .git/commondir; echo commondir $?\n";

/* git reads $GIT_DIR/commondir in every git dir, and an ordinary .git has
 * none to be mounted over: the session's plan makes one holding "." (this
 * git dir, git's meaning without one) and keeps it read-only. The plant
 * cannot replace it, and git outside runs nothing planted. */
BOTH_USERS(guards, git_commondir_plant_runs_nothing_outside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gcommon");
	cr_assert_not(present(w.proj, ".git/commondir"), "the repository has a commondir already");
	char *diag = plant_inside(&w, plant_commondir);
	char *now = content(w.proj, ".git/commondir");
	cr_expect(now && strcmp(now, ".\n") == 0,
		  "the .git/commondir is not the session's \".\": %s\n%s", now ? now : "(none)",
		  diag);
	free(now);
	/* What the session left is git's own meaning: git outside works. */
	struct run_result r = outside(&w, "git status --short && git rev-parse --show-toplevel");
	cr_expect(strstr(r.out, w.proj), "git outside: %s%s", r.out, r.err);
	run_free(&r);
	git_outside(&w, w.proj, "outside-deny");
	cr_expect_not(marked(&w, "deny", "fsmonitor"),
		      "a core.fsmonitor planted through .git/commondir ran outside\n%s", diag);
	cr_expect_not(marked(&w, "deny", "pre-commit"),
		      "a pre-commit planted through .git/commondir ran outside\n%s", diag);
	free(diag);

	/* Control: the same plant, unsandboxed, makes git run both. */
	plant_outside_then_git(&w, plant_commondir);
	cr_assert(marked(&w, "ctl", "fsmonitor") && marked(&w, "ctl", "pre-commit"),
		  "control: git outside did not follow the planted commondir");
	world_free(&w);
}

/* A linked worktree outside the project (git worktree add ../feature)
 * keeps its git dir in the project's .git/worktrees/feature: its commondir
 * sends git there to a config and hooks, and with
 * extensions.worktreeConfig its config.worktree is read after the config.
 * Rewritten inside, git in the worktree, outside, would run a planted
 * pre-commit (through the commondir) and core.fsmonitor (through
 * config.worktree). */
static const char plant_linked[] =
	"rm -rf evil && mkdir evil && cp -r .git/. evil/ && rm -rf evil/hooks evil/worktrees && "
	"mkdir evil/hooks\n"
	"hook pre-commit > evil/hooks/pre-commit && chmod +x evil/hooks/pre-commit\n"
	"echo \"$PWD/evil\" > .git/worktrees/feature/commondir; echo wt-commondir $?\n"
	"printf '[core]\\n\\tfsmonitor = \"touch %s; false\"\\n' \"$M-wtconfig\" "
	"> .git/worktrees/feature/config.worktree; echo wt-config $?\n";

BOTH_USERS(guards, linked_worktree_plant_runs_nothing_outside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gworktrees");
	char *feature = at(w.dir, "feature");
	/* The extension as a key alone, which git takes as true. */
	struct run_result r = outside(&w, "printf '[extensions]\\n\\tworktreeConfig\\n' >> "
					  ".git/config && git worktree add -q ../feature");
	cr_assert_eq(r.status, 0, "git worktree add: %s", r.err);
	run_free(&r);
	cr_assert_not(present(w.proj, ".git/worktrees/feature/config.worktree"));

	char *diag = plant_inside(&w, plant_linked);
	r = outside(&w, "cd ../feature && git status --short && git rev-parse --git-common-dir");
	cr_expect(r.status == 0 && strstr(r.out, w.proj), "git in the worktree, outside: %s%s",
		  r.out, r.err);
	run_free(&r);
	git_outside(&w, feature, "outside-deny");
	cr_expect_not(marked(&w, "deny", "pre-commit"),
		      "a pre-commit planted through the worktree's commondir ran outside\n%s",
		      diag);
	cr_expect_not(marked(&w, "deny", "wtconfig"),
		      "a core.fsmonitor planted in the worktree's config.worktree ran outside\n%s",
		      diag);
	free(diag);

	/* Control: the same plant, unsandboxed; git in the worktree runs both. */
	char *script = plant(&w, "ctl", "", plant_linked);
	r = outside(&w, "%s", script);
	run_free(&r);
	free(script);
	git_outside(&w, feature, "outside-ctl");
	cr_assert(marked(&w, "ctl", "pre-commit") && marked(&w, "ctl", "wtconfig"),
		  "control: git in the worktree did not follow the plant");
	free(feature);
	world_free(&w);
}

/* A session could make dummy git dirs until the real ones fall past the
 * number cordon looks at (a linked worktree's commondir left writable):
 * past it, the next session is refused, naming the repository. Control:
 * with the dummies gone, it runs. */
BOTH_USERS(guards, too_many_git_dirs_refuse_the_session, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gmany");
	struct run_result r = outside(&w, "for i in $(seq 300); do mkdir -p .git/worktrees/d$i && "
					  "echo ../.. > .git/worktrees/d$i/commondir; done");
	run_free(&r);
	r = sh_in(&w, NULL, "echo ran");
	cr_expect_eq(r.status, 125, "the session ran: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, "ran"), "the command ran: %s", r.out);
	char *want = fmt("cordon: %s/.git: more than 256 git directories", w.proj);
	cr_expect(strstr(r.err, want), "not said: %s", r.err);
	run_free(&r);
	r = outside(&w, "rm -rf .git/worktrees");
	run_free(&r);
	r = sh_in(&w, NULL, "echo ran");
	cr_assert(r.status == 0 && strstr(r.out, "ran"), "control: %s%s", r.out, r.err);
	run_free(&r);
	free(want);
	world_free(&w);
}

/* A repository whose config includes a file of the project (git config
 * include.path ../shared.gitconfig, a way to share config in the
 * repository): that file is config too. A core.fsmonitor appended to it
 * inside does not run at git status outside; planted unsandboxed, it runs. */
static const char plant_include[] = "fsmon >> shared.gitconfig; echo include $?\n";

BOTH_USERS(guards, config_include_plant_runs_nothing_outside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ginclude");
	struct run_result r =
		outside(&w, "printf '[alias]\\n\\tst = status\\n' > shared.gitconfig "
			    "&& git config include.path ../shared.gitconfig && git st");
	cr_assert_eq(r.status, 0, "git with the include: %s", r.err);
	run_free(&r);
	char *before = content(w.proj, "shared.gitconfig");
	char *diag = plant_inside(&w, plant_include);
	char *now = content(w.proj, "shared.gitconfig");
	cr_expect_str_eq(now, before, "the included config was changed inside\n%s", diag);
	free(now);
	git_outside(&w, w.proj, "outside-deny");
	cr_expect_not(marked(&w, "deny", "fsmonitor"),
		      "a core.fsmonitor planted in an included config ran outside\n%s", diag);
	free(diag);
	free(before);

	plant_outside_then_git(&w, plant_include);
	cr_assert(marked(&w, "ctl", "fsmonitor"),
		  "control: git outside did not run the included config's fsmonitor");
	world_free(&w);
}

/* A repository whose hooks live in the worktree (core.hooksPath, as husky
 * and .githooks set it): that directory is guarded as .git/hooks is, made
 * when it is missing. A hook planted there does not run at the next commit
 * outside; the control plants it unsandboxed and it runs. */
static const char plant_hooks_path[] =
	"hook pre-commit > .githooks/pre-commit && chmod +x .githooks/pre-commit; "
	"echo write-hook $?\n"
	"rm -rf .githooks; mkdir .githooks; echo rebuild $?\n"
	"hook pre-commit > .githooks/pre-commit && chmod +x .githooks/pre-commit; "
	"echo rewrite-hook $?\n";

BOTH_USERS(guards, hooks_path_plant_runs_nothing_outside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ghookspath");
	struct run_result r = outside(&w, "git config core.hooksPath .githooks");
	run_free(&r);
	char *diag = plant_inside(&w, plant_hooks_path);
	cr_expect(present(w.proj, ".githooks"), "the hooks directory was not made to guard\n%s",
		  diag);
	cr_expect_not(present(w.proj, ".githooks/pre-commit"), "a hook was planted\n%s", diag);
	git_outside(&w, w.proj, "outside-deny");
	cr_expect_not(marked(&w, "deny", "pre-commit"),
		      "a pre-commit planted in core.hooksPath ran outside\n%s", diag);
	free(diag);

	/* husky 9 sets .husky/_, whose scripts run the hooks in .husky:
	 * .husky itself is the guard. */
	r = outside(&w, "git config core.hooksPath .husky/_ && mkdir -p .husky/_");
	run_free(&r);
	r = sh_in(&w, NULL, "%s", "echo x > .husky/pre-commit; echo husky $?");
	cr_expect_not(present(w.proj, ".husky/pre-commit"), "a husky hook was planted: %s%s", r.out,
		      r.err);
	run_free(&r);
	r = outside(&w, "git config core.hooksPath .githooks");
	run_free(&r);

	/* Control: the same plant, unsandboxed, runs at the commit. */
	plant_outside_then_git(&w, plant_hooks_path);
	cr_assert(marked(&w, "ctl", "pre-commit"),
		  "control: git outside did not run the hook in core.hooksPath");
	world_free(&w);
}

/* .git/hooks a link to a tracked directory (.git/hooks -> ../.githooks, a
 * common way to share hooks): the link is kept in place (a mount on the
 * link itself) and what it leads to read-only, so the session runs, and
 * none of the plants lands; git keeps working inside, and the repository
 * is not moved aside as the session ends (round 12 refused the session,
 * then moved .git aside). Control: the same plant, unsandboxed, runs at
 * the commit. */
BOTH_USERS(guards, a_linked_hooks_directory_is_kept, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ghooklink");
	struct run_result r = outside(&w, "mkdir .githooks && rm -rf .git/hooks && "
					  "ln -s ../.githooks .git/hooks && sleep 1");
	run_free(&r);
	char *config = content(w.proj, ".git/config");
	char *diag = plant_inside(&w, plant_git);
	cr_expect(strstr(diag, "rm-hooks"), "the session did not run\n%s", diag);
	struct stat st;
	char *hooks = at(w.proj, ".git/hooks");
	cr_expect(lstat(hooks, &st) == 0 && S_ISLNK(st.st_mode), ".git/hooks was replaced\n%s",
		  diag);
	cr_expect_not(present(w.proj, ".githooks/pre-commit"), "a hook was planted\n%s", diag);
	cr_expect_not(present(w.proj, ".githooks/post-commit"), "a hook was linked in\n%s", diag);
	char *now = content(w.proj, ".git/config");
	cr_expect_str_eq(now, config, ".git/config was changed from inside\n%s", diag);
	free(now);
	cr_expect_not(present(w.proj, ".git.cordon-disarmed"), ".git was moved aside\n%s", diag);
	r = sh_in(&w, NULL,
		  "echo b > b && git add b && git commit -qm inside-commit && "
		  "git checkout -qb side && git log --oneline");
	cr_expect(strstr(r.out, "inside-commit"), "git inside: %s%s", r.out, r.err);
	run_free(&r);
	cr_expect_not(present(w.proj, ".git.cordon-disarmed"), ".git was moved aside (git)");
	git_outside(&w, w.proj, "outside-deny");
	cr_expect_not(marked(&w, "deny", "pre-commit"), "a planted pre-commit ran outside\n%s",
		      diag);
	cr_expect_not(marked(&w, "deny", "post-commit"), "a planted post-commit ran outside\n%s",
		      diag);
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "a planted fsmonitor ran outside\n%s", diag);
	free(diag);
	free(config);
	free(hooks);

	plant_outside_then_git(&w, plant_git);
	cr_assert(marked(&w, "ctl", "pre-commit"),
		  "control: git outside did not run the hook planted through the link");
	world_free(&w);
}

/* The same through a directory that ".." leaves (.git/hooks ->
 * ../x/../.githooks): x swapped for a link to a directory of the
 * session's would lead git outside to its hooks (round 14); x is kept in
 * place too. Control: outside, the swap lands and the hook runs. */
static const char swap_dotdot[] =
	"mkdir -p mine/sub mine/.githooks && hook pre-commit > mine/.githooks/pre-commit && "
	"chmod +x mine/.githooks/pre-commit; mv x x.old; echo move $?; ln -s mine/sub x; "
	"echo link $?\n";

BOTH_USERS(guards, a_directory_left_by_dotdot_on_a_hooks_link_stays, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ghookup");
	struct run_result r = outside(&w, "mkdir -p .githooks x && rm -rf .git/hooks && "
					  "ln -s ../x/../.githooks .git/hooks && sleep 1");
	run_free(&r);
	char *diag = plant_inside(&w, swap_dotdot);
	cr_expect(strstr(diag, "move "), "the session did not run\n%s", diag);
	struct stat st;
	char *x = at(w.proj, "x");
	cr_expect(lstat(x, &st) == 0 && S_ISDIR(st.st_mode), "x was swapped\n%s", diag);
	git_outside(&w, w.proj, "outside-deny");
	cr_expect_not(marked(&w, "deny", "pre-commit"), "git outside ran the swapped hooks\n%s",
		      diag);
	free(diag);
	r = outside(&w, "rm -rf mine x.old");
	run_free(&r);
	plant_outside(&w, swap_dotdot, NULL);
	git_outside(&w, w.proj, "outside-ctl");
	cr_expect(marked(&w, "ctl", "pre-commit"), "control: the swap did not lead git outside");
	free(x);
	world_free(&w);
}

/* What a session does with git in the project keeps working: add, commit,
 * branch, checkout -b, stash, status; the results are there outside. */
BOTH_USERS(guards, git_keeps_working_inside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gwork");
	struct run_result r = sh_in(&w, NULL,
				    "set -e; echo b > b; git add b; git commit -qm inside-commit; "
				    "git branch x; git checkout -q -b y; echo more >> a; "
				    "git stash -q; git status --short >/dev/null; echo done");
	char *diag;
	asprintf(&diag, "inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect_eq(r.status, 0, "git failed inside\n%s", diag);
	cr_expect(strstr(r.out, "done"), "git failed inside\n%s", diag);
	run_free(&r);
	r = outside(&w, "git log -1 --format=%%s x; git rev-parse --abbrev-ref HEAD; "
			"git stash list | wc -l; cat a");
	cr_expect_str_eq(r.out, "inside-commit\ny\n1\na\n",
			 "outside, the repository does not show what was done inside\n%s", diag);
	run_free(&r);
	free(diag);
	world_free(&w);
}

/* A protected file git tracks cannot be written inside, but its blob in
 * the index can (the .git is the session's): git checkout -- . outside
 * then writes the session's version over it (round 52a F4). The end says
 * each protected entry the index holds anew (.envrc changed, a
 * .vscode/tasks.json added), and nothing of a commit of another file;
 * the plant is there (the control: git show outside reads it). */
BOTH_USERS(guards, a_protected_file_staged_inside_is_said, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "pstage");
	struct run_result r =
		outside(&w, "echo 'echo mine' > .envrc && mkdir -p .vscode && "
			    "echo '{}' > .vscode/settings.json && git add -A && "
			    "git commit -qm tracked && git init -q sub && echo s > sub/s && "
			    "git -C sub add s && git -C sub commit -qm s");
	run_free(&r);
	/* (The first session's walk finds sub, which the next one keeps.) */
	r = sh_in(&w, NULL, "echo b > b; git add b; git commit -qm other; echo other $?");
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "other 0"), "the control commit failed\n%s", diag);
	cr_expect(!strstr(r.err, "now holds another"), "a commit of b was said\n%s", diag);
	free(diag);
	run_free(&r);
	r = sh_in(&w, NULL,
		  "E=$(echo 'touch pwned' | git hash-object -w --stdin) && "
		  "git update-index --cacheinfo 100644,$E,.envrc && "
		  "git update-index --add --cacheinfo 100644,$E,.vscode/tasks.json && "
		  "git update-index --add --cacheinfo 100644,$E,.irbrc && "
		  "echo 'touch pwned' | git -C sub hash-object -w --stdin >/dev/null && "
		  "git -C sub update-index --add --cacheinfo 100644,$E,.irbrc && "
		  "git commit -qm plant; echo plant $?");
	diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
	cr_expect(strstr(r.err, "now holds another .envrc than the protected file"),
		  "the staged .envrc was not said\n%s", diag);
	cr_expect(strstr(r.err, "now holds another .vscode/tasks.json than"),
		  "the added .vscode/tasks.json was not said\n%s", diag);
	/* (53e F1: a protected name missing as the session started; F2: in a
	 * nested repository the last walk found.) */
	char *top = fmt("index in %s now holds another .irbrc", w.proj);
	char *sub = fmt("index in %s/sub now holds another .irbrc", w.proj);
	cr_expect(strstr(r.err, top), "the added .irbrc was not said\n%s", diag);
	cr_expect(strstr(r.err, sub), "the nested repository's .irbrc was not said\n%s", diag);
	free(top), free(sub);
	cr_expect(!strstr(r.err, "another .vscode/settings.json") && !strstr(r.err, "another b "),
		  "an unchanged entry was said\n%s", diag);
	run_free(&r);
	/* (The control: the plant is what git outside would write.) */
	r = outside(&w, "git show :.envrc; cat .envrc; git -C sub show :.irbrc");
	cr_expect_str_eq(r.out, "touch pwned\necho mine\ntouch pwned\n",
			 "the index does not hold the plant\n%s", diag);
	run_free(&r);
	free(diag);
	world_free(&w);
}

/* A session started while another ran, on the same repository, spawned
 * with its standard error into ERR. */
static pid_t spawn_beside(struct world *w, const char *body, const char *err)
{
	char *argv[] = {"/bin/sh",
			"-c",
			"exec \"$0\" run --config \"$1\" --project \"$2\" -- /bin/sh -c \"$3\" "
			"2>\"$4\"",
			CORDON_BIN,
			w->cfg,
			w->proj,
			(char *)body,
			(char *)err,
			NULL};
	return world_spawn(w, argv, w->proj);
}

/* Each session judged the index against its own start: a first one
 * staged its own .envrc, a second (started meanwhile) put the index back
 * just before the first ended and staged the plant again after; the
 * first found what it started with, the second what it started with
 * (round 54h F3). A session that starts while another runs on the
 * repository holds only what both held. Judged from outside: the index
 * holds the plant (the control: git checkout -- .envrc outside writes
 * it), and the second's end said so. Then no plant: the user's own
 * commit and another .envrc staged, outside between the two starts, are
 * said by neither. And the plant staged in a split index (round 57a F1:
 * the second session could not read it as it started, and held nothing). */
BOTH_USERS(guards, a_plant_a_later_session_stages_again_is_said, .timeout = 120)
{
	for (int v = 0; v < 3; v++) {
		bool plain = v == 1, split = v == 2;
		struct world w;
		git_world(&w, who, plain ? "pagain0" : split ? "pagains" : "pagain");
		struct run_result r = outside(&w, "echo 'echo mine' > .envrc && git add .envrc && "
						  "git commit -qm envrc && git rev-parse :.envrc");
		char *orig = strndup(r.out, strcspn(r.out, "\n"));
		run_free(&r);
		/* (57a F1: in a split index, whose replaced entries a reader
		 * of the index alone cannot name.) */
		const char *stage =
			split ? "git update-index --split-index && E=$(echo 'touch "
				"pwned' | git hash-object -w --stdin) && git "
				"update-index --cacheinfo 100644,$E,.envrc"
			      : "E=$(echo 'touch pwned' | git hash-object -w --stdin) && git "
				"update-index --cacheinfo 100644,$E,.envrc";
		char *body0 = fmt("%s; echo staged $? > staged0.out; touch ready0; while [ ! -e "
				  "go0 ]; do sleep 0.05; done\n",
				  plain ? "true" : stage);
		char *undo = fmt("%sgit update-index --cacheinfo 100644,%s,.envrc",
				 split ? "git update-index --no-split-index && " : "", orig);
		char *body1 = fmt("touch ready1; while [ ! -e go1 ]; do sleep 0.05; done; %s; "
				  "echo undone $? > undone1.out; while [ ! -e go2 ]; do sleep "
				  "0.05; done; %s; echo again $? > again1.out\n",
				  plain ? "true" : undo, plain ? "true" : stage);
		char *err0 = path_join(w.outside, "err0"), *err1 = path_join(w.outside, "err1");
		pid_t first = spawn_beside(&w, body0, err0);
		char *ready0 = path_join(w.proj, "ready0"), *ready1 = path_join(w.proj, "ready1");
		char *undone = path_join(w.proj, "undone1.out");
		cr_assert(wait_exists(ready0, 60000), "the first session did not start");
		if (plain) { /* (the user's own, outside, as the first runs) */
			r = outside(&w, "echo 'echo theirs' > .envrc && git add .envrc && "
					"echo c > c && git add c && git commit -qm c -- c");
			run_free(&r);
		}
		pid_t second = spawn_beside(&w, body1, err1);
		cr_assert(wait_exists(ready1, 60000), "the second session did not start");
		r = outside(&w, "touch go1");
		run_free(&r);
		cr_assert(wait_exists(undone, 20000), "the second session did not go on");
		r = outside(&w, "touch go0");
		run_free(&r);
		int st;
		cr_assert_eq(waitpid(first, &st, 0), first);
		r = outside(&w, "touch go2");
		run_free(&r);
		cr_assert_eq(waitpid(second, &st, 0), second);
		char *said[] = {slurp(err0), slurp(err1)};
		r = outside(&w, "cat staged0.out undone1.out again1.out; git show :.envrc");
		char *diag = fmt("first: %s\nsecond: %s\noutside: %s", said[0], said[1], r.out);
		run_free(&r);
		if (plain) {
			cr_expect(!strstr(said[0], "another .envrc") &&
					  !strstr(said[1], "another .envrc"),
				  "the user's own .envrc was said\n%s", diag);
		} else {
			cr_expect(strstr(diag, "staged 0") && strstr(diag, "undone 0") &&
					  strstr(diag, "again 0"),
				  "the plant did not land\n%s", diag);
			r = outside(&w, "git checkout -- .envrc && cat .envrc");
			cr_expect_str_eq(
				r.out, "touch pwned\n",
				"control: git checkout outside does not write the plant\n%s", diag);
			run_free(&r);
			cr_expect(
				strstr(said[1], "now holds another .envrc than the protected file"),
				"the second session's end did not say the .envrc\n%s", diag);
		}
		free(said[0]), free(said[1]), free(diag), free(orig), free(body0), free(body1);
		free(undo), free(err0), free(err1), free(ready0), free(ready1), free(undone);
		world_free(&w);
	}
}

/* The same plant staged by a session whose launcher was killed (its end
 * never judged): the next session on the repository judges from that
 * session's start, and says it, though the two had other state homes
 * (round 57a F2: the note was kept where XDG_STATE_HOME led only). Control:
 * git checkout outside writes the plant. */
BOTH_USERS(guards, a_plant_a_killed_session_staged_is_said_next, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "pkilled");
	struct run_result r = outside(&w, "echo 'echo mine' > .envrc && git add .envrc && "
					  "git commit -qm envrc");
	run_free(&r);
	char *err0 = path_join(w.outside, "err0"), *ready0 = path_join(w.proj, "ready0");
	char *state = fmt("XDG_STATE_HOME=%s/state-a", w.outside);
	world_setenv(&w, state);
	pid_t first = spawn_beside(&w,
				   "E=$(echo 'touch pwned' | git hash-object -w --stdin) && git "
				   "update-index --cacheinfo 100644,$E,.envrc; echo staged $? > "
				   "staged0.out; touch ready0; while [ ! -e go0 ]; do sleep 0.05; "
				   "done\n",
				   err0);
	cr_assert(wait_exists(ready0, 60000), "the first session did not start");
	int st;
	kill(first, SIGKILL);
	cr_assert_eq(waitpid(first, &st, 0), first);
	r = outside(&w, "touch go0");
	run_free(&r);
	world_setenv(&w, "XDG_STATE_HOME=");
	r = sh_in(&w, NULL, "true");
	char *said = strdup(r.err);
	run_free(&r);
	r = outside(&w, "cat staged0.out; git show :.envrc");
	char *diag = fmt("next: %s\noutside: %s", said, r.out);
	run_free(&r);
	cr_assert(strstr(diag, "staged 0"), "the plant did not land\n%s", diag);
	r = outside(&w, "git checkout -- .envrc && cat .envrc");
	cr_expect_str_eq(r.out, "touch pwned\n",
			 "control: git checkout outside does not write the plant\n%s", diag);
	run_free(&r);
	cr_expect(strstr(said, "now holds another .envrc than the protected file"),
		  "the next session's end did not say the .envrc\n%s", diag);
	free(said), free(diag), free(err0), free(ready0), free(state);
	world_free(&w);
}

/* Round 53e F3: the index and HEAD untouched, what git reads for a
 * protected entry's object is changed: a replace ref (git replace OLD
 * NEW), or the loose object file rewritten under its name (git does not
 * check it). Each is said. Control: git outside then reads the plant for
 * the entry (what git checkout -- .envrc would write). */
BOTH_USERS(guards, a_protected_file_s_object_swapped_inside_is_said, .timeout = 60)
{
	static const char *const swaps[][2] = {
		{"git replace $O $E", "made or changed git's replace refs in"},
		{"F=.git/objects/$(echo $O | cut -c1-2)/$(echo $O | cut -c3-) && "
		 "G=.git/objects/$(echo $E | cut -c1-2)/$(echo $E | cut -c3-) && "
		 "rm -f $F && cp $G $F",
		 "rewrote the object git holds for the protected"}};
	for (size_t i = 0; i < 2; i++) {
		struct world w;
		git_world(&w, who, i ? "pswapl" : "pswapr");
		struct run_result r = outside(&w, "echo 'echo mine' > .envrc && git add .envrc && "
						  "git commit -qm tracked");
		run_free(&r);
		r = sh_in(
			&w, NULL,
			"O=$(git rev-parse :.envrc) && "
			"E=$(echo 'touch pwned' | git hash-object -w --stdin) && %s; echo swap $?",
			swaps[i][0]);
		char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
		cr_assert(strstr(r.out, "swap 0"), "the swap failed\n%s", diag);
		cr_expect(strstr(r.err, swaps[i][1]), "the swap was not said\n%s", diag);
		run_free(&r);
		r = outside(&w, "git cat-file blob :.envrc");
		cr_expect_str_eq(r.out, "touch pwned\n", "control: git does not read the plant\n%s",
				 diag);
		run_free(&r);
		free(diag);
		world_free(&w);
	}
}

/* Round 53's Left: the session commits its own .envrc and puts the index
 * back (the index check sees nothing), and moves another branch to the
 * same commit; git reset --hard, or a checkout of the branch, outside
 * writes it. Each ref's commit is said; a commit of another file is not. */
BOTH_USERS(guards, a_protected_file_committed_inside_is_said, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "pcommit");
	struct run_result r = outside(&w, "echo 'echo mine' > .envrc && git add .envrc && "
					  "git commit -qm tracked && git branch side");
	run_free(&r);
	r = sh_in(&w, NULL, "echo b > b; git add b; git commit -qm other; echo other $?");
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "other 0"), "the control commit failed\n%s", diag);
	cr_expect(!strstr(r.err, "names now holds another"), "a commit of b was said\n%s", diag);
	free(diag);
	run_free(&r);
	r = sh_in(&w, NULL,
		  "O=$(git rev-parse :.envrc) && "
		  "E=$(echo 'touch pwned' | git hash-object -w --stdin) && "
		  "git update-index --cacheinfo 100644,$E,.envrc && git commit -qm plant && "
		  "git update-index --cacheinfo 100644,$O,.envrc && "
		  "git update-ref refs/heads/side HEAD; echo plant $?");
	diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
	cr_expect(strstr(r.err, "the commit HEAD names now holds another .envrc"),
		  "HEAD's commit was not said\n%s", diag);
	cr_expect(strstr(r.err, "the commit refs/heads/side names now holds another .envrc"),
		  "the moved branch was not said\n%s", diag);
	cr_expect(!strstr(r.err, "index in"), "the index, put back, was said\n%s", diag);
	run_free(&r);
	/* (The control: git reset --hard outside writes the plant.) */
	r = outside(&w, "git diff --cached --quiet -- .envrc; echo staged $?; "
			"git reset -q --hard && cat .envrc");
	cr_expect_str_eq(r.out, "staged 1\ntouch pwned\n",
			 "git outside does not write the plant\n%s", diag);
	run_free(&r);
	free(diag);
	world_free(&w);
}

/* Round 54e F1-F3: refs in forms the first reader skipped (an id in
 * upper case with a tab after it, a branch that is a symbolic ref to
 * ORIG_HEAD), a pseudo-ref (ORIG_HEAD: git reset --hard ORIG_HEAD), and a
 * stash whose untracked-files parent makes .vscode/tasks.json (git stash
 * pop). Each is said; the control: git outside reads each plant. */
static const char plant_ref_forms[] =
	"set -e; O=$(git rev-parse :.envrc); E=$(echo 'touch pwned' | git hash-object -w --stdin)\n"
	"git update-index --cacheinfo 100644,$E,.envrc; T=$(git write-tree)\n"
	"git update-index --cacheinfo 100644,$O,.envrc\n"
	"C=$(git commit-tree $T -p HEAD -m plant)\n"
	"printf '%s\\t\\n' $(echo $C | tr a-f A-F) > .git/refs/heads/upper\n"
	"echo $C > .git/ORIG_HEAD; echo 'ref: ORIG_HEAD' > .git/refs/heads/viasym\n"
	"printf '%s\\trefs/heads/packedtab\\n' $C > .git/packed-refs\n"
	"echo $C > .git/EVIL_HEAD; printf 'ref:\\nEVIL_HEAD\\n' > .git/refs/heads/evil\n"
	"GIT_INDEX_FILE=.git/u.idx git update-index --add --cacheinfo "
	"100644,$E,.vscode/tasks.json\n"
	"U=$(GIT_INDEX_FILE=.git/u.idx git write-tree); rm .git/u.idx\n"
	"UC=$(git commit-tree $U -m untracked); B=$(git rev-parse HEAD^{tree})\n"
	"I=$(git commit-tree $B -p HEAD -m index)\n"
	"git update-ref refs/stash $(git commit-tree $B -p HEAD -p $I -p $UC -m stash)\n"
	"echo plant $?\n";

BOTH_USERS(guards, a_protected_file_behind_other_ref_forms_is_said, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "prefform");
	tracked_envrc(&w);
	struct run_result r = sh_in(&w, NULL, "%s", plant_ref_forms);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
	static const char *const said[] = {
		"the commit refs/heads/upper names now holds another .envrc",
		"the commit refs/heads/viasym names now holds another .envrc",
		"the commit ORIG_HEAD names now holds another .envrc",
		"the commit refs/stash names now holds another .vscode/tasks.json",
		/* (54i: a tab in packed-refs, a symbolic ref to a file of the
		 * session's own.) */
		"the commit refs/heads/packedtab names now holds another .envrc",
		"the commit refs/heads/evil names now holds another .envrc", NULL};
	for (size_t i = 0; said[i]; i++)
		cr_expect(strstr(r.err, said[i]), "not said: %s\n%s", said[i], diag);
	run_free(&r);
	r = outside(&w, "git show upper:.envrc; git show viasym:.envrc; "
			"git show refs/stash^3:.vscode/tasks.json; git show packedtab:.envrc; "
			"git show evil:.envrc; git reset -q --hard ORIG_HEAD && cat .envrc");
	cr_expect_str_eq(r.out,
			 "touch pwned\ntouch pwned\ntouch pwned\ntouch pwned\ntouch pwned\n"
			 "touch pwned\n",
			 "control: git outside does not read the plants\n%s", diag);
	run_free(&r);
	free(diag);
	world_free(&w);
}

/* Round 54's Left: a commit of the session's own that no ref names, only
 * a reflog (git checkout - goes back along HEAD's: HEAD detached at the
 * plant, then back on main; git stash pop stash@{1}). Each is said;
 * the control: git outside writes each plant. */
static const char plant_reflogs[] =
	"set -e; O=$(git rev-parse :.envrc); E=$(echo 'touch pwned' | git hash-object -w --stdin)\n"
	"git update-index --cacheinfo 100644,$E,.envrc; T=$(git write-tree)\n"
	"git update-index --cacheinfo 100644,$O,.envrc\n"
	"C=$(git commit-tree $T -p HEAD -m plant)\n"
	"git update-ref --no-deref -m 'checkout: moving from main to '$C HEAD $C\n"
	"git symbolic-ref -m 'checkout: moving from '$C' to main' HEAD refs/heads/main\n"
	"B=$(git rev-parse HEAD^{tree}); I=$(git commit-tree $B -p HEAD -m index)\n"
	"git stash store -m plant $(git commit-tree $T -p HEAD -p $I -m 'WIP on main: plant')\n"
	"git stash store -m other $(git commit-tree $B -p HEAD -p $I -m 'WIP on main: other')\n"
	"echo plant $?\n";

BOTH_USERS(guards, a_protected_file_only_a_reflog_names_is_said, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "preflog");
	tracked_envrc(&w);
	struct run_result r = sh_in(&w, NULL, "git commit -q --allow-empty -m benign; echo ok $?");
	char *diag = fmt("control inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "ok 0"), "the benign commit failed\n%s", diag);
	cr_expect(!strstr(r.err, "now holds another"), "a benign commit was said\n%s", diag);
	run_free(&r);
	free(diag);
	r = sh_in(&w, NULL, "%s", plant_reflogs);
	diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
	cr_expect(strstr(r.err, "the commit HEAD@{1} names (git's reflog) now holds another "
				".envrc"),
		  "HEAD's reflog was not said\n%s", diag);
	cr_expect(strstr(r.err, "the commit stash@{1} names (git's reflog) now holds another "
				".envrc"),
		  "the stash's reflog was not said\n%s", diag);
	cr_expect(!strstr(r.err, "the commit refs/stash names"), "the benign stash was said\n%s",
		  diag);
	run_free(&r);
	r = outside(&w,
		    "git stash apply -q stash@{1} && cat .envrc && git checkout -q -- .envrc && "
		    "git checkout -q - && cat .envrc");
	cr_expect_str_eq(r.out, "touch pwned\ntouch pwned\n",
			 "control: git outside does not write the plants\n%s", diag);
	run_free(&r);
	free(diag);
	world_free(&w);
}

/* The same, named by an operation git resumes: BISECT_START (git bisect
 * reset checks it out), a pick left in a stopped rebase's todo (git
 * rebase --continue), and a patch left by a stopped git am (git am
 * --skip applies the next one). Each is said; the control: git outside
 * writes each plant. */
#define PLANT_COMMIT                                                                               \
	"set -e; O=$(git rev-parse :.envrc); E=$(echo 'touch pwned' | git hash-object -w "         \
	"--stdin)\n"                                                                               \
	"git update-index --cacheinfo 100644,$E,.envrc; T=$(git write-tree)\n"                     \
	"git update-index --cacheinfo 100644,$O,.envrc\n"                                          \
	"C=$(git commit-tree $T -p HEAD -m plant)\n"

static const char *const plant_operations[][4] = {
	{PLANT_COMMIT "echo $C > .git/BISECT_START; echo plant $?\n",
	 "the commit BISECT_START names now holds another .envrc",
	 "git bisect reset >/dev/null 2>&1; cat .envrc", "git bisect reset"},
	{PLANT_COMMIT "GIT_SEQUENCE_EDITOR=\"printf 'break\\npick $C plant\\n' >\" git rebase -q "
		      "-i HEAD; echo plant $?\n",
	 "that .git/rebase-merge/git-rebase-todo names now holds another .envrc",
	 "git rebase --continue >/dev/null 2>&1; cat .envrc", "git rebase --continue"},
	{"set -e; O=$(git rev-parse :.envrc)\n"
	 "E=$(echo 'touch pwned' | git hash-object -w --stdin)\n"
	 "N=$(echo one | git hash-object -w --stdin); N2=$(echo two | git hash-object -w --stdin)\n"
	 "git update-index --add --cacheinfo 100644,$N,nofile; T0=$(git write-tree)\n"
	 "git update-index --cacheinfo 100644,$N2,nofile; T1=$(git write-tree)\n"
	 "git update-index --cacheinfo 100644,$E,.envrc; T2=$(git write-tree)\n"
	 "git update-index --cacheinfo 100644,$O,.envrc; git rm -q --cached nofile\n"
	 "X0=$(git commit-tree $T0 -p HEAD -m x0); X1=$(git commit-tree $T1 -p $X0 -m x1)\n"
	 "X2=$(git commit-tree $T2 -p $X1 -m x2); git format-patch -q -o .git/p $X0..$X2\n"
	 "! git am -q .git/p/*.patch 2>/dev/null; rm -r .git/p; echo plant $?\n",
	 "patches for a stopped git am", "git am -q --skip >/dev/null 2>&1; cat .envrc",
	 "git am --skip"},
};

BOTH_USERS(guards, a_protected_file_an_operation_resumes_is_said, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "poper");
	tracked_envrc(&w);
	struct run_result r = outside(&w, "git tag orig");
	run_free(&r);
	for (size_t i = 0; i < sizeof(plant_operations) / sizeof(*plant_operations); i++) {
		const char *const *op = plant_operations[i];
		r = sh_in(&w, NULL, "%s", op[0]);
		char *diag = fmt("%s, inside (%d): %s%s", op[3], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
		cr_expect(strstr(r.err, op[1]), "not said\n%s", diag);
		run_free(&r);
		r = outside(&w, "%s", op[2]);
		cr_expect_str_eq(r.out, "touch pwned\n", "control: %s does not write it\n%s", op[3],
				 diag);
		run_free(&r);
		free(diag);
		r = outside(&w,
			    "git rebase --abort; git am --abort; git bisect reset >/dev/null 2>&1; "
			    "git checkout -q -f main && git reset -q --hard orig && cat .envrc");
		cr_assert_str_eq(r.out, "echo mine\n", "the repository was not put back: %s",
				 r.err);
		run_free(&r);
	}
	world_free(&w);
}

/* Round 56b: the same routes in forms the first judge missed: a
 * checkout's reflog message naming the plant (git checkout - takes it,
 * not the line's ids: F1), a reset in a stopped rebase's todo (F2), a
 * stash with no .envrc whose base holds the user's .envrc under another
 * name (git stash pop follows the rename: F3), upper-case ids in the
 * stash's reflog (F5), an abbreviated id in BISECT_START (F6). Each is
 * said; the control: the ordinary git command outside writes the plant. */
static const char *const plant_forms_56b[][4] = {
	{PLANT_COMMIT "H=$(git rev-parse HEAD); printf '%s %s t <t@example.com> %s +0000\\t"
		      "checkout: moving from %s to main\\n' $H $H $(date +%s) $C >> "
		      ".git/logs/HEAD; echo plant $?\n",
	 "a checkout in git's reflog names now holds another .envrc",
	 "git checkout -q - && cat .envrc", "git checkout -"},
	{PLANT_COMMIT "GIT_SEQUENCE_EDITOR=\"printf 'break\\nreset $C\\n' >\" git rebase -q -i "
		      "HEAD; echo plant $?\n",
	 "that .git/rebase-merge/git-rebase-todo names now holds another .envrc",
	 "git rebase --continue >/dev/null 2>&1; cat .envrc", "a reset in the todo"},
	{"set -e; Q0=$(git hash-object -w .envrc); Q1=$( (cat .envrc; echo 'touch pwned') | "
	 "git hash-object -w --stdin)\n"
	 "TP=$(printf \"100644 blob $Q0\\tq\\n\" | git mktree); TX=$(printf \"100644 blob "
	 "$Q1\\tq\\n\" | git mktree)\n"
	 "P=$(git commit-tree $TP -m base); I=$(git commit-tree $TP -p $P -m 'index on main: x')\n"
	 "git stash store -m 'WIP on main: x' $(git commit-tree $TX -p $P -p $I -m 'WIP on main: "
	 "x'); echo plant $?\n",
	 "is applied from a commit whose protected files are not HEAD's",
	 "git stash pop -q; tail -n 1 .envrc", "a rename into .envrc"},
	{PLANT_COMMIT
	 "B=$(git rev-parse HEAD^{tree}); I=$(git commit-tree $B -p HEAD -m index)\n"
	 "git stash store -m plant $(git commit-tree $T -p HEAD -p $I -m 'WIP on "
	 "main: plant')\n"
	 "git stash store -m other $(git commit-tree $B -p HEAD -p $I -m 'WIP on "
	 "main: other')\n"
	 "sed -i '1s/^\\([0-9a-f]*\\) \\([0-9a-f]*\\)/\\1 \\U\\2/' .git/logs/refs/stash\n"
	 "sed -i '2s/^\\([0-9a-f]*\\)/\\U\\1/' .git/logs/refs/stash; echo plant $?\n",
	 "the commit stash@{1} names (git's reflog) now holds another .envrc",
	 "git stash pop -q; git checkout -q -- .envrc; git stash pop -q; cat .envrc",
	 "upper-case ids in the stash's reflog"},
	{PLANT_COMMIT "git rev-parse --short $C > .git/BISECT_START; echo plant $?\n",
	 "BISECT_START now leads where cordon cannot follow",
	 "git bisect reset >/dev/null 2>&1; cat .envrc", "an abbreviated BISECT_START"},
};

BOTH_USERS(guards, a_protected_file_behind_forms_git_reads_is_said, .timeout = 120)
{
	struct world w;
	git_world(&w, who, "pforms");
	tracked_envrc(&w);
	struct run_result r = outside(&w, "git tag orig");
	run_free(&r);
	for (size_t i = 0; i < sizeof(plant_forms_56b) / sizeof(*plant_forms_56b); i++) {
		const char *const *op = plant_forms_56b[i];
		r = sh_in(&w, NULL, "%s", op[0]);
		char *diag = fmt("%s, inside (%d): %s%s", op[3], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
		cr_expect(strstr(r.err, op[1]), "not said\n%s", diag);
		run_free(&r);
		r = outside(&w, "%s", op[2]);
		cr_expect(strstr(r.out, "touch pwned"), "control: %s does not write it: %s\n%s",
			  op[3], r.out, diag);
		run_free(&r);
		free(diag);
		r = outside(&w,
			    "git rebase --abort; git am --abort; git bisect reset >/dev/null 2>&1; "
			    "git stash clear; git checkout -q -f main && git reset -q --hard orig "
			    "&& cat .envrc");
		cr_assert_str_eq(r.out, "echo mine\n", "the repository was not put back: %s",
				 r.err);
		run_free(&r);
	}
	world_free(&w);
}

/* Round 56d, on the reworked judge: a merge line's parent after its -C
 * commit (F1), an abbreviated id before a full one (F2: a reset through
 * the editor, a pick written once the rebase stopped), HEAD's and the
 * stash's reflogs rewritten in place, as long or longer (F3, F4), and a
 * bisect whose range holds the plant (F5). Each is said; the control:
 * the ordinary git command outside writes the plant. {prepare outside,
 * plant inside, said, outside, name}. */
#define PLANT_H PLANT_COMMIT "H=$(git rev-parse HEAD); B=$(git rev-parse HEAD^{tree})\n"
static const char *const plant_forms_56d[][5] = {
	{"true",
	 PLANT_H "GIT_SEQUENCE_EDITOR=\"printf 'break\\nmerge -C $H $C\\n' >\" git rebase -q -i "
		 "HEAD; echo plant $?\n",
	 "that .git/rebase-merge/git-rebase-todo names now holds another .envrc",
	 "git rebase --continue >/dev/null 2>&1; cat .envrc", "a merge's parent"},
	{"true",
	 PLANT_H "GIT_SEQUENCE_EDITOR=\"printf 'break\\nreset $(git rev-parse --short $C) $H\\n' "
		 ">\" git rebase -q -i HEAD; echo plant $?\n",
	 "names commits cordon does not look up",
	 "git rebase --continue >/dev/null 2>&1; cat .envrc", "a short id before a full one"},
	{"true",
	 PLANT_H "GIT_SEQUENCE_EDITOR=\"printf 'break\\n' >\" git rebase -q -i HEAD; printf "
		 "'pick %s %s\\n' $(git rev-parse --short $C) $H > "
		 ".git/rebase-merge/git-rebase-todo; echo plant $?\n",
	 "names commits cordon does not look up",
	 "git rebase --continue >/dev/null 2>&1; cat .envrc", "a short pick written after"},
	{"git checkout -q -b feat && git checkout -q main",
	 PLANT_H "sed \"s/checkout: moving from feat to main/checkout: moving from $C to "
		 "main/\" .git/logs/HEAD > .git/h.new && cat .git/h.new > .git/logs/HEAD && "
		 "rm .git/h.new; echo plant $?\n",
	 "a checkout in git's reflog names now holds another .envrc",
	 "git checkout -q - && cat .envrc", "HEAD's reflog rewritten in place"},
	{"echo b > b && git add b && git stash -q",
	 PLANT_H "I=$(git commit-tree $B -p HEAD -m index); W=$(git commit-tree $T -p HEAD -p $I "
		 "-m 'WIP on main: plant')\n"
		 "{ printf '%s %s t <t@example.com> 1700000000 +0000\\tWIP on main: x\\n' "
		 "0000000000000000000000000000000000000000 $W; printf '%s' $W; cut -c41- "
		 ".git/logs/refs/stash; } > .git/s.new && cat .git/s.new > .git/logs/refs/stash && "
		 "rm .git/s.new; echo plant $?\n",
	 "names (git's reflog) now holds another .envrc",
	 "git stash pop -q; git stash pop -q; cat .envrc", "the stash's reflog rewritten in place"},
	{"true",
	 PLANT_H "D=$(git commit-tree $B -p $C -m 'fix typo'); echo main > .git/BISECT_START; "
		 "printf 'bad\\ngood\\n' > .git/BISECT_TERMS; : > .git/BISECT_NAMES; "
		 "echo 'git bisect start' > .git/BISECT_LOG; git update-ref refs/bisect/bad $D; "
		 "git update-ref refs/bisect/good-$H $H; echo plant $?\n",
	 "this session left a git bisect", "git bisect good >/dev/null 2>&1; cat .envrc",
	 "a bisect holding the plant"},
};

BOTH_USERS(guards, a_protected_file_behind_more_forms_is_said, .timeout = 150)
{
	struct world w;
	git_world(&w, who, "pforms2");
	tracked_envrc(&w);
	struct run_result r = outside(&w, "git tag orig");
	run_free(&r);
	for (size_t i = 0; i < sizeof(plant_forms_56d) / sizeof(*plant_forms_56d); i++) {
		const char *const *op = plant_forms_56d[i];
		r = outside(&w, "%s", op[0]);
		run_free(&r);
		r = sh_in(&w, NULL, "%s", op[1]);
		char *diag = fmt("%s, inside (%d): %s%s", op[4], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
		cr_expect(strstr(r.err, op[2]), "not said\n%s", diag);
		run_free(&r);
		r = outside(&w, "%s", op[3]);
		cr_expect(strstr(r.out, "touch pwned"), "control: %s does not write it: %s\n%s",
			  op[4], r.out, diag);
		run_free(&r);
		free(diag);
		r = outside(&w,
			    "git rebase --abort; git am --abort; git bisect reset >/dev/null 2>&1; "
			    "git stash clear; git checkout -q -f main && git reset -q --hard orig "
			    "&& cat .envrc");
		cr_assert_str_eq(r.out, "echo mine\n", "the repository was not put back: %s",
				 r.err);
		run_free(&r);
	}
	world_free(&w);
}

/* Round 56b F8: the start kept the ids of a reflog's last 64 KiB and the
 * end judged its last 1 MiB: in a repository whose HEAD reflog is longer,
 * every session was accused, one that ran only true too. A reflog only
 * added to is judged by what was added. Control: the reflog is longer
 * than 64 KiB, and its older commits hold another .envrc. */
BOTH_USERS(guards, a_long_reflog_accuses_no_session, .timeout = 120)
{
	struct world w;
	git_world(&w, who, "plonglog");
	/* (Made in a few processes: 900 git commands took over 20 s beside
	 * the rest of the suite. 300 commits, each its own .envrc, and a
	 * reflog naming each, then 400 checkouts.) */
	struct run_result r = outside(
		&w, "{ f='from refs/heads/main^0\n'; for i in $(seq 1 300); do printf 'commit "
		    "refs/heads/main\ncommitter t <t@example.com> %%d +0000\ndata 2\nv\n'"
		    "\"$f\"'M 100644 inline .envrc\ndata <<EOF\necho v%%d\nEOF\n\n' "
		    "$((1700000000 + i)) $i; f=; done; } | git fast-import --quiet && "
		    "git reset -q --hard main && git branch side && H=$(git rev-parse HEAD) && "
		    "p=0000000000000000000000000000000000000000 && "
		    "for c in $(git rev-list --reverse main); do printf '%%s %%s t <t@example.com> "
		    "1700000000 +0000\tcommit: v\n' $p $c; p=$c; done >> .git/logs/HEAD && "
		    "for i in $(seq 1 400); do printf '%%s %%s t <t@example.com> 1700000000 "
		    "+0000\tcheckout: moving from side to main\n' $H $H; done >> .git/logs/HEAD "
		    "&& wc -c < .git/logs/HEAD");
	cr_assert_gt(atol(r.out), 64 << 10, "control: the reflog is not long: %s", r.out);
	run_free(&r);
	r = sh_in(&w, NULL, "true");
	cr_expect_null(strstr(r.err, "cordon: in"), "a session that ran true was accused: %s",
		       r.err);
	run_free(&r);
	r = sh_in(&w, NULL,
		  "git commit -q --allow-empty -m e && git checkout -q side && "
		  "git checkout -q main; echo ok $?");
	cr_expect(strstr(r.out, "ok 0"), "git did not run: %s", r.err);
	cr_expect_null(strstr(r.err, "cordon: in"), "a session that ran git was accused: %s",
		       r.err);
	run_free(&r);
	/* (Round 56d F6, F7: git gc rewrote the long reflog, and a stash
	 * over the user's older stash, made under an older .envrc, judged
	 * that one's id as the session's.) */
	r = outside(&w, "git checkout -q HEAD~200 && echo z > a && git stash -q && "
			"git checkout -q main");
	run_free(&r);
	r = sh_in(&w, NULL,
		  "echo y > a && git stash -q && git stash pop -q && git checkout -q -- a "
		  "&& git reflog expire --expire-unreachable=now --all && git gc -q; "
		  "echo ok $?");
	cr_expect(strstr(r.out, "ok 0"), "git did not run: %s", r.err);
	cr_expect_null(strstr(r.err, "cordon: in"), "a stash or a gc was accused: %s", r.err);
	run_free(&r);
	world_free(&w);
}

/* A pack of the session's own holding another object under the name of
 * the protected .envrc's blob: git reads packs before loose objects and
 * checks neither (the control: git outside reads the forged one). */
static const char forge_pack[] =
	"import hashlib, struct, sys, zlib\n"
	"oid = bytes.fromhex(sys.argv[1]); data = b'touch pwned\\n'\n"
	"z = zlib.compress(data); head = bytes([0x30 | len(data)])\n"
	"body = b'PACK' + struct.pack('>II', 2, 1) + head + z\n"
	"psum = hashlib.sha1(body).digest()\n"
	"fan = b''.join(struct.pack('>I', 1 if i >= oid[0] else 0) for i in range(256))\n"
	"idx = b'\\377tOc' + struct.pack('>I', 2) + fan + oid\n"
	"idx += struct.pack('>II', zlib.crc32(head + z), 12) + psum\n"
	"idx += hashlib.sha1(idx).digest()\n"
	"name = '.git/objects/pack/pack-' + psum.hex()\n"
	"open(name + '.pack', 'wb').write(body + psum)\n"
	"open(name + '.idx', 'wb').write(idx)\n";

BOTH_USERS(guards, a_protected_file_forged_in_a_new_pack_is_said, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "pforge");
	char *script = write_file(w.proj, "forge.py", forge_pack);
	chmod(script, 0755);
	tracked_envrc(&w);
	struct run_result r =
		sh_in(&w, NULL, "python3 %s $(git rev-parse :.envrc); echo forge $?", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "forge 0"), "the forgery failed\n%s", diag);
	cr_expect(strstr(r.err, "are not what their names say"), "the forgery was not said\n%s",
		  diag);
	run_free(&r);
	r = outside(&w, "git cat-file blob :.envrc");
	cr_expect_str_eq(r.out, "touch pwned\n", "control: git does not read the forgery\n%s",
			 diag);
	run_free(&r);
	free(diag);
	free(script);
	world_free(&w);
}

/* git takes a commit's tree from the commit-graph, and an object's place
 * from the multi-pack-index, without reading the object: those the
 * session wrote are moved aside as it ends (the control: they were there
 * as the session ran), and git outside works without them. */
BOTH_USERS(guards, a_commit_graph_written_inside_is_moved_aside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "pgraph");
	tracked_envrc(&w);
	struct run_result r = sh_in(&w, NULL,
				    "git commit-graph write --reachable 2>/dev/null; "
				    "test -f .git/objects/info/commit-graph; echo graph $?; "
				    "git repack -adq && git multi-pack-index write 2>/dev/null; "
				    "test -f .git/objects/pack/multi-pack-index; echo midx $?");
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "graph 0") && strstr(r.out, "midx 0"),
		  "control: no commit-graph or multi-pack-index was written\n%s", diag);
	cr_expect(strstr(r.err, "git's /") && strstr(r.err, "/objects/info/commit-graph, which"),
		  "the commit-graph was not said\n%s", diag);
	cr_expect(strstr(r.err, "/objects/pack/multi-pack-index, which"),
		  "the multi-pack-index was not said\n%s", diag);
	char *graph = at(w.proj, ".git/objects/info/commit-graph");
	char *midx = at(w.proj, ".git/objects/pack/multi-pack-index");
	cr_expect(!file_exists(graph), "the commit-graph is still there\n%s", diag);
	cr_expect(!file_exists(midx), "the multi-pack-index is still there\n%s", diag);
	run_free(&r);
	r = outside(&w, "git log --oneline | wc -l; git cat-file blob :.envrc");
	cr_expect_str_eq(r.out, "2\necho mine\n", "git outside fails without them\n%s", diag);
	run_free(&r);
	free(graph), free(midx);
	free(diag);
	world_free(&w);
}

/* Round 54a F1: a repository the session makes, its commondir a link to
 * a FIFO outside (a stand-in for a device that acts when opened, such as
 * /dev/watchdog): the launcher, reading commondir as the session ends,
 * must not open it. A writer blocked on the FIFO outside stays blocked;
 * the control: opening it here releases the writer. */
BOTH_USERS(guards, a_commondir_pointed_at_a_device_is_not_opened, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "pcdfifo");
	char *fifo = at(w.outside, "fifo"), *marker = at(w.outside, "released");
	cr_assert_eq(mkfifo(fifo, 0666), 0);
	chmod(fifo, 0666);
	char *script = fmt("exec 3>%s; echo x > %s", fifo, marker);
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	pid_t writer = spawn_cmd(argv, NULL, "/");
	struct run_result r = sh_in(&w, NULL,
				    "git init -q sub && ln -s %s sub/.git/commondir; "
				    "echo link $?",
				    fifo);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "link 0"), "the plant failed\n%s", diag);
	run_free(&r);
	usleep(300 * 1000);
	cr_expect(!file_exists(marker), "the launcher opened the FIFO\n%s", diag);
	/* (The control.) */
	int fd = open(fifo, O_RDONLY | O_NONBLOCK);
	cr_expect(wait_exists(marker, 3000),
		  "control: opening the FIFO does not release the writer");
	if (fd >= 0)
		close(fd);
	stop_process(writer);
	free(diag), free(script), free(fifo), free(marker);
	world_free(&w);
}

/* ---- git: a worktree and a submodule ---- */

static const char plant_worktree[] =
	"cd \"$WT\" || exit 1\n"
	"printf 'gitdir: %s/evilgit\\n' \"$PWD\" > .git; echo write-dotgit $?\n"
	"printf 'gitdir: %s/evilgit\\n' \"$PWD\" > g2 && mv g2 .git; echo replace-dotgit $?\n"
	"fsmon >> \"$MAIN/.git/config\"; echo append-config $?\n"
	"hook pre-commit > \"$MAIN/.git/hooks/pre-commit\" && "
	"chmod +x \"$MAIN/.git/hooks/pre-commit\"; echo write-hook $?\n"
	"echo \"$PWD/evil\" > \"$MAIN/.git/worktrees/wt/commondir\"; echo commondir $?\n";

/* The project is a worktree of a repository the session may also write
 * (--allow-write): the worktree's .git file, its commondir, and the common
 * dir's config and hooks stay as they were; git commits inside. Control:
 * protected_paths [] lets them be written. */
BOTH_USERS(guards, git_worktree_stays_unplanted, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gworktree", "");
	free(write_file(w.home, ".gitconfig", "[user]\n\tname = t\n\temail = t@example.com\n"));
	world_give(&w);
	char *main = at(w.dir, "main"), *wt = at(w.dir, "wt");
	struct run_result r =
		outside(&w,
			"git init -q '%1$s' && cd '%1$s' && echo a > a && "
			"git add a && git commit -qm first && git worktree add -q '%2$s'",
			main, wt);
	run_free(&r);
	char *dotgit = content(wt, ".git"), *config = content(main, ".git/config");
	char *commondir = content(main, ".git/worktrees/wt/commondir");
	cr_assert(strstr(dotgit, "gitdir: "), "the worktree has no .git file: %s", dotgit);

	char *opts, *vars;
	asprintf(&opts, "-p %s --allow-write %s", wt, main);
	asprintf(&vars, "WT='%s' MAIN='%s'", wt, main);
	char *script = plant(&w, "deny", vars, plant_worktree);
	r = sh_in(&w, opts,
		  "cd '%s' && git commit -q --allow-empty -m inside-wt && echo committed; %s", wt,
		  script);
	char *diag;
	asprintf(&diag, "inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "committed"), "git commit failed in the worktree\n%s", diag);
	char *now = content(wt, ".git");
	cr_expect_str_eq(now, dotgit, "the worktree's .git file was rewritten\n%s", diag);
	free(now);
	now = content(main, ".git/config");
	cr_expect_str_eq(now, config, "the common dir's config was changed\n%s", diag);
	free(now);
	now = content(main, ".git/worktrees/wt/commondir");
	cr_expect_str_eq(now, commondir, "the worktree's commondir was rewritten\n%s", diag);
	free(now);
	cr_expect_not(present(main, ".git/hooks/pre-commit"),
		      "a hook was planted in the common dir\n%s", diag);
	run_free(&r);
	git_outside(&w, wt, "outside-wt");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "a planted core.fsmonitor ran outside\n%s",
		      diag);
	cr_expect_not(marked(&w, "deny", "pre-commit"), "a planted pre-commit ran outside\n%s",
		      diag);
	r = outside(&w, "git -C '%s' log --format=%%s wt", main);
	cr_expect(strstr(r.out, "outside-wt") && strstr(r.out, "inside-wt"),
		  "the worktree's commits are not there outside: %s\n%s", r.out, diag);
	run_free(&r);
	free(diag);
	free(script);

	/* Control: without the guard the same attempts land. */
	set_config(&w, ", \"protected_paths\": []");
	script = plant(&w, "ctl", vars, plant_worktree);
	r = sh_in(&w, opts, "%s", script);
	now = content(main, ".git/config");
	cr_assert(strstr(now, "pwned-ctl-fsmonitor"), "control: the append did not land: %s%s",
		  r.out, r.err);
	free(now);
	now = content(wt, ".git");
	cr_assert(strstr(now, "evilgit"), "control: the .git file was not rewritten: %s%s", r.out,
		  r.err);
	free(now);
	cr_assert(present(main, ".git/hooks/pre-commit"), "control: no hook was written: %s%s",
		  r.out, r.err);
	run_free(&r);
	free(script);
	free(opts);
	free(vars);
	free(dotgit);
	free(config);
	free(commondir);
	free(main);
	free(wt);
	world_free(&w);
}

static const char plant_submodule[] =
	"fsmon >> .git/modules/mod/config; echo append-config $?\n"
	"hook pre-commit > .git/modules/mod/hooks/pre-commit && "
	"chmod +x .git/modules/mod/hooks/pre-commit; echo write-hook $?\n"
	"printf 'gitdir: %s/evilgit\\n' \"$PWD\" > mod/.git; echo write-dotgit $?\n"
	"mv .git/modules/mod .git/modules/mod.old; echo move-module $?\n";

static const char *const submodule_steps[] = {"append-config", "write-hook", "write-dotgit",
					      "move-module", NULL};

/* A repository made inside with a hook, and a worktree and a submodule of
 * it: the sweep moves the repository aside as the session ends, and what
 * then leads into it (the worktree's git dir, the submodule's) is gone by
 * its own hand, not changed under it (45b F1: the walk took it for a
 * directory gone, said "kept changing", and every later session said
 * "killed?" and moved the disarmed repository on again). Judged outside:
 * after a second session, it lies where the first moved it, and nothing
 * was said of either. */
BOTH_USERS(guards, a_repository_moved_aside_with_its_worktree_stays_put, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gdisarmwt", "");
	free(write_file(w.home, ".gitconfig", "[user]\n\tname = t\n\temail = t@example.com\n"));
	world_give(&w);
	struct run_result r = sh_in(
		&w, NULL,
		"mkdir r s && cd s && git init -q && git commit -q --allow-empty -m s && cd ../r && "
		"git init -q && git commit -q --allow-empty -m one && "
		"printf '#!/bin/sh\\n' > .git/hooks/pre-commit && chmod +x .git/hooks/pre-commit && "
		"git worktree add -q ../wt -b feat && "
		"git -c protocol.file.allow=always submodule add -q ../s sub && echo made");
	cr_assert(strstr(r.out, "made"), "the repositories were not made: %s%s", r.out, r.err);
	cr_expect(present(w.proj, "r/.git.cordon-disarmed") && !present(w.proj, "r/.git"),
		  "the repository with a hook was not moved aside: %s", r.err);
	cr_expect_null(strstr(r.err, "kept changing"), "the sweep's own move disturbed it: %s",
		       r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "true");
	cr_expect(present(w.proj, "r/.git.cordon-disarmed") &&
			  !present(w.proj, "r/.git.cordon-disarmed.cordon-disarmed"),
		  "the next session moved the disarmed repository on: %s", r.err);
	cr_expect_null(strstr(r.err, "killed?"), "%s", r.err);
	cr_expect_null(strstr(r.err, "kept changing"), "%s", r.err);
	run_free(&r);
	world_free(&w);
}

/* The same, one session after another: a repository made with a hook in a
 * new directory is moved aside as its session ends, and the sessions right
 * after say nothing of it (46d N2: each said it "was changed" while it ran).
 * Control: the first session said it moved it. */
BOTH_USERS(guards, a_repository_moved_aside_is_said_once, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gdisarmseq", "");
	world_give(&w);
	struct run_result r =
		sh_in(&w, NULL,
		      "mkdir -p u && git init -q u/r && printf '#!/bin/sh\\n' > "
		      "u/r/.git/hooks/pre-commit && chmod +x u/r/.git/hooks/pre-commit");
	cr_assert(strstr(r.err, "so cordon moved it"), "control: not moved aside: %s", r.err);
	run_free(&r);
	for (int i = 0; i < 3; i++) {
		r = sh_in(&w, NULL, "true");
		cr_expect_null(strstr(r.err, "u/r/.git.cordon-disarmed"), "session %d said: %s", i,
			       r.err);
		run_free(&r);
	}
	world_free(&w);
}

/* A repository made inside with a hook, moved aside as its session ends
 * while another session runs: that one says it was changed while it ran
 * (the control), and the sessions after it say nothing of it (46d N2: each
 * one that started in the move's second, or that judged from the other's
 * start, took it for one moved aside while it ran, and said so again). */
BOTH_USERS(guards, a_repository_moved_aside_is_not_said_again, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gdisarmonce", "");
	world_give(&w);
	char *hold[] = {CORDON_BIN, "run",
			"--config", w.cfg,
			"--",       "/bin/sh",
			"-c",       "touch on; while [ ! -e go ]; do sleep 0.05; done",
			NULL};
	int out[2];
	cr_assert_eq(pipe(out), 0);
	pid_t a = fork();
	if (a == 0) {
		dup2(out[1], 2);
		close(out[0]);
		char **argv = world_argv(&w, hold);
		if (chdir(w.proj) < 0)
			_exit(121);
		execve(argv[0], argv, w.env);
		_exit(122);
	}
	close(out[1]);
	char *on = at(w.proj, "on");
	cr_assert(wait_exists(on, 10000), "the first session did not start");
	struct run_result r =
		sh_in(&w, NULL,
		      "git init -q r && printf '#!/bin/sh\\n' > r/.git/hooks/pre-commit "
		      "&& chmod +x r/.git/hooks/pre-commit");
	cr_assert(strstr(r.err, "so cordon moved it"), "control: not moved aside: %s", r.err);
	run_free(&r);
	free(write_file(w.proj, "go", ""));
	char said[8192] = "";
	size_t n = 0;
	for (ssize_t k; (k = read(out[0], said + n, sizeof(said) - 1 - n)) > 0;)
		n += (size_t)k;
	said[n] = '\0';
	close(out[0]);
	cr_expect(wait_gone(a, 10000), "the first session did not end");
	cr_expect(strstr(said, "r/.git.cordon-disarmed was changed"),
		  "control: the session that ran meanwhile did not say it: %s", said);
	for (int i = 0; i < 3; i++) {
		r = sh_in(&w, NULL, "true");
		cr_expect_null(strstr(r.err, "r/.git.cordon-disarmed"), "session %d said: %s", i,
			       r.err);
		run_free(&r);
	}
	cr_expect(present(w.proj, "r/.git.cordon-disarmed") &&
		  !present(w.proj, "r/.git.cordon-disarmed.cordon-disarmed"));
	free(on);
	world_free(&w);
}

/* A repository nested in a bare one made inside with a hook: the sweep moves
 * the bare one aside, and judges the nested one where it lies then (45e F1:
 * it went unjudged, its planted core.fsmonitor and hook armed in the moved
 * copy and again once the user moved it back). Judged outside: git status
 * and commit there, before and after moving the bare one back, run
 * nothing. Control: the same plant, unsandboxed, runs. */
BOTH_USERS(guards, a_repository_in_a_bare_one_moved_aside_is_judged, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gnested", "");
	free(write_file(w.home, ".gitconfig", "[user]\n\tname = t\n\temail = t@example.com\n"));
	world_give(&w);
	char *mark = path_join(w.outside, "ran");
	char *plant =
		fmt("git init -q --bare b.git && printf '#!/bin/sh\\n' > b.git/hooks/pre-commit"
		    " && chmod +x b.git/hooks/pre-commit && mkdir b.git/x && cd b.git/x && "
		    "git init -q && git commit -q --allow-empty -m x && "
		    "git config core.fsmonitor 'echo fsmonitor >> %s; :' && "
		    "printf '#!/bin/sh\\necho hook >> %s\\n' > .git/hooks/pre-commit && "
		    "chmod +x .git/hooks/pre-commit && echo planted",
		    mark, mark);
	struct run_result r = sh_in(&w, NULL, "%s", plant);
	cr_assert(strstr(r.out, "planted"), "%s%s", r.out, r.err);
	char *diag = fmt("%s", r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "true");
	run_free(&r);
	const char *git = "git status >/dev/null 2>&1; git commit -q --allow-empty -m out "
			  ">/dev/null 2>&1; true";
	for (int back = 0; back < 2; back++) {
		r = outside(&w,
			    "%s; for d in b.git/x b.git.cordon-disarmed/x; do [ -d $d ] && "
			    "(cd $d && %s); done; true",
			    back ? "mv b.git.cordon-disarmed b.git && rm b.git/hooks/pre-commit"
				 : ":",
			    git);
		run_free(&r);
	}
	char *ran = read_file(mark);
	cr_expect_null(ran, "a plant in a repository nested in a moved one ran outside: %s\n%s",
		       ran, diag);
	free(ran);
	/* Control: the same, unsandboxed. */
	r = outside(&w, "rm -rf b.git; %s; %s", plant, git);
	run_free(&r);
	ran = read_file(mark);
	cr_expect(ran && strstr(ran, "fsmonitor"), "control: the plant did not run");
	free(ran);
	unlink(mark);
	/* Ten bare ones deep (45f F1: the relocation stopped after 8 moves). */
	char *deep = fmt("d=.; for i in 1 2 3 4 5 6 7 8 9 10; do d=$d/b$i.git; "
			 "git init -q --bare $d && printf '#!/bin/sh\\n' > $d/hooks/pre-commit && "
			 "chmod +x $d/hooks/pre-commit || exit 1; done; mkdir $d/x && cd $d/x && "
			 "git init -q && git commit -q --allow-empty -m x && "
			 "git config core.fsmonitor 'echo fsmonitor >> %s; :' && echo planted",
			 mark);
	r = sh_in(&w, NULL, "rm -rf b.git b1.git*; %s", deep);
	cr_assert(strstr(r.out, "planted"), "%s%s", r.out, r.err);
	run_free(&r);
	r = outside(&w, "for x in $(find . -type d -name x); do (cd $x && %s); done", git);
	run_free(&r);
	ran = read_file(mark);
	cr_expect_null(ran, "a plant ten bare repositories deep ran outside: %s", ran);
	free(ran);
	unlink(mark);
	free(deep), free(diag), free(plant), free(mark);
	world_free(&w);
}

/* A submodule's git dir (.git/modules/mod) keeps its config and hooks, its
 * checkout's .git file stays, and the git dir cannot be moved away. */
BOTH_USERS(guards, git_submodule_stays_unplanted, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gsub");
	char *src = at(w.dir, "subsrc");
	struct run_result r =
		outside(&w,
			"git init -q '%1$s' && git -C '%1$s' commit -q --allow-empty "
			"-m s && git submodule add -q '%1$s' mod && git commit -qm mod",
			src);
	run_free(&r);
	char *config = content(w.proj, ".git/modules/mod/config");
	char *dotgit = content(w.proj, "mod/.git");
	ino_t mod_ino = inode(w.proj, ".git/modules/mod");
	cr_assert(strstr(dotgit, "gitdir: "), "the submodule has no .git file: %s", dotgit);

	char *script = plant(&w, "deny", "", plant_submodule);
	r = sh_in(&w, NULL, "%s", script);
	char *diag;
	asprintf(&diag, "inside (%d): %s%s", r.status, r.out, r.err);
	char *now = content(w.proj, ".git/modules/mod/config");
	cr_expect_str_eq(now, config, "the submodule's config was changed\n%s", diag);
	free(now);
	now = content(w.proj, "mod/.git");
	cr_expect_str_eq(now, dotgit, "the submodule's .git file was rewritten\n%s", diag);
	free(now);
	cr_expect_not(present(w.proj, ".git/modules/mod/hooks/pre-commit"),
		      "a hook was planted in the submodule\n%s", diag);
	cr_expect_eq(inode(w.proj, ".git/modules/mod"), mod_ino,
		     "the submodule's git dir was moved away\n%s", diag);
	run_free(&r);
	char *mod = at(w.proj, "mod");
	git_outside(&w, mod, "outside-mod");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "a planted core.fsmonitor ran outside\n%s",
		      diag);
	cr_expect_not(marked(&w, "deny", "pre-commit"), "a planted pre-commit ran outside\n%s",
		      diag);
	free(diag);
	free(script);

	set_config(&w, ", \"protected_paths\": []");
	script = plant(&w, "ctl", "", plant_submodule);
	r = sh_in(&w, NULL, "%s", script);
	expect_all_landed(submodule_steps, &r, "protected_paths []");
	now = content(w.proj, ".git/modules/mod.old/config");
	cr_assert(strstr(now, "pwned-ctl-fsmonitor"), "control: the append did not land: %s", now);
	free(now);
	run_free(&r);
	free(script);
	free(mod);
	free(config);
	free(dotgit);
	free(src);
	world_free(&w);
}

/* BODY planted inside (markers TAG) by a session that then waits while
 * git runs outside in each of DIRS (status, and a commit): what git
 * outside obeys while the session still runs, before any sweep. */
static void plant_during_git(struct world *w, const char *tag, const char *body,
			     const char *const dirs[])
{
	char *then = fmt("%s\ntouch planted; n=0\n"
			 "while [ ! -e go ] && [ $n -lt 300 ]; do sleep 0.1; n=$((n+1)); done\n",
			 body);
	char *script = plant(w, tag, "", then);
	char *argv[] = {CORDON_BIN, "run", "--config", w->cfg, "--", "/bin/sh", "-c", script, NULL};
	pid_t pid = world_spawn(w, argv, w->proj);
	char *planted = at(w->proj, "planted");
	cr_assert(wait_exists(planted, 20000), "the session's plant did not end");
	for (size_t i = 0; dirs[i]; i++)
		git_outside(w, dirs[i], "during");
	struct run_result r = outside(w, "touch go");
	run_free(&r);
	cr_expect(wait_gone(pid, 20000), "the session did not end");
	r = outside(w, "rm -f go planted");
	run_free(&r);
	free(planted);
	free(script);
	free(then);
}

/* Hooks a submodule's git takes from its own checkout: "own", a relative
 * core.hooksPath its config sets (husky in a submodule: mod/.githooks);
 * "global", a relative one the global config sets, for a submodule that
 * sets none (mod2/.ghooks, missing: made to be guarded). */
static const char plant_sub_hooks[] =
	"hook own > mod/.githooks/pre-commit && chmod +x mod/.githooks/pre-commit; echo own $?\n"
	"mkdir -p mod2/.ghooks && hook global > mod2/.ghooks/pre-commit && "
	"chmod +x mod2/.ghooks/pre-commit; echo global $?\n";

/* A relative core.hooksPath is the worktree's where git runs: in a
 * submodule, its checkout. Both kinds stay unplanted, and commits in the
 * submodules, outside, during the session and after it, run nothing.
 * Control: protected_paths [] lets both land, and the same commits run
 * them. */
BOTH_USERS(guards, a_submodules_hooks_path_is_kept, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gsubhooks");
	char *src = at(w.dir, "subsrc");
	struct run_result r =
		outside(&w,
			"git init -q '%1$s' && git -C '%1$s' commit -q --allow-empty -m s && "
			"git submodule add -q '%1$s' mod && git submodule add -q '%1$s' mod2 && "
			"git commit -qm mods && git -C mod config core.hooksPath .githooks && "
			"mkdir mod/.githooks && git config --global core.hooksPath .ghooks",
			src);
	run_free(&r);
	char *mod = at(w.proj, "mod"), *mod2 = at(w.proj, "mod2");
	const char *const mods[] = {mod, mod2, NULL};
	plant_during_git(&w, "deny", plant_sub_hooks, mods);
	cr_expect_not(present(mod, ".githooks/pre-commit"), "a hook was planted in mod");
	cr_expect(present(mod2, ".ghooks"), "the global hooks directory was not made");
	cr_expect_not(present(mod2, ".ghooks/pre-commit"), "a hook was planted in mod2");
	git_outside(&w, mod, "after-mod");
	git_outside(&w, mod2, "after-mod2");
	cr_expect_not(marked(&w, "deny", "own"),
		      "a hook planted in the submodule's core.hooksPath ran outside");
	cr_expect_not(marked(&w, "deny", "global"),
		      "a hook planted in the global core.hooksPath of a submodule ran outside");

	set_config(&w, ", \"protected_paths\": []");
	plant_during_git(&w, "ctl", plant_sub_hooks, mods);
	cr_assert(marked(&w, "ctl", "own"), "control: the submodule's hook did not run");
	cr_assert(marked(&w, "ctl", "global"), "control: the global hooksPath did not run");
	free(mod);
	free(mod2);
	free(src);
	world_free(&w);
}

/* Submodules git outside goes down into from the project's top: "nested"
 * points a submodule's submodule's .git file (top/in/.git) at a copy of its
 * git dir with a core.fsmonitor; "emb" plants one, and a hook, in a
 * submodule whose git dir is in its checkout (a clone added as a
 * submodule: emb/.git a directory). */
static const char plant_deep_submodules[] =
	"G=$PWD/.git/objects/evb; cp -a .git/modules/top/modules/in \"$G\" && rm -f \"$G/commondir\" "
	"&& git config -f \"$G/config\" --unset core.worktree; (M=$M-nested; fsmon) >> \"$G/config\" "
	"&& printf 'gitdir: %s\\n' \"$G\" > top/in/.git; echo nested $?\n"
	"(M=$M-emb; fsmon) >> emb/.git/config; echo emb-config $?\n"
	"hook pre-commit > emb/.git/hooks/pre-commit && chmod +x emb/.git/hooks/pre-commit; "
	"echo emb-hook $?\n";

/* Both stay unplanted: git outside, at the top (status goes down into the
 * submodules) and committing in emb, during the session, runs nothing
 * (46a F1: top/in/.git was writable; F2: emb/.git was not guarded at all).
 * Control: protected_paths [] lets them land, and the same git runs
 * them. */
BOTH_USERS(guards, nested_and_embedded_submodules_stay_unplanted, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gdeepsub");
	char *lb = at(w.dir, "lb"), *la = at(w.dir, "la");
	struct run_result r = outside(
		&w,
		"for s in '%1$s' '%2$s'; do git init -q \"$s\" && echo x > \"$s/f\" && "
		"git -C \"$s\" add f && git -C \"$s\" commit -qm s || exit 1; done && "
		"git -C '%2$s' submodule add -q '%1$s' in && git -C '%2$s' commit -qm in && "
		"git submodule add -q '%2$s' top && git submodule update -q --init --recursive && "
		"git clone -q '%1$s' emb && git submodule add -q ./emb emb && git commit -qm subs",
		lb, la);
	run_free(&r);
	char *emb = at(w.proj, "emb");
	cr_assert(present(w.proj, "top/in/.git") && present(w.proj, "emb/.git/config"),
		  "the submodules were not made");
	const char *const dirs[] = {w.proj, emb, NULL};
	plant_during_git(&w, "deny", plant_deep_submodules, dirs);
	cr_expect_not(marked(&w, "deny-nested", "fsmonitor"),
		      "a nested submodule's planted core.fsmonitor ran outside");
	cr_expect_not(marked(&w, "deny-emb", "fsmonitor"),
		      "an embedded submodule's planted core.fsmonitor ran outside");
	cr_expect_not(marked(&w, "deny", "pre-commit"),
		      "an embedded submodule's planted hook ran outside");

	set_config(&w, ", \"protected_paths\": []");
	plant_during_git(&w, "ctl", plant_deep_submodules, dirs);
	cr_assert(marked(&w, "ctl-nested", "fsmonitor"), "control: the nested plant did not run");
	cr_assert(marked(&w, "ctl-emb", "fsmonitor"), "control: the embedded plant did not run");
	cr_assert(marked(&w, "ctl", "pre-commit"), "control: the embedded hook did not run");
	free(emb);
	free(la);
	free(lb);
	world_free(&w);
}

/* Checkouts git goes down into that a line reader of .gitmodules misses
 * (46c F1): "qs" and "uc", whose path git's config parser reads (quoted;
 * "Path" with a comment); "nogm", a gitlink .gitmodules does not name;
 * "sym", a .git that is a link (swapped for one to a planted git dir);
 * "deep", eight submodules down. Each checkout's .git sent to a copy of its
 * git dir with a core.fsmonitor of its own. */
static const char plant_odd_submodules[] =
	"p() { G=$PWD/.git/objects/ev-$2; gd=$(git -C \"$1\" rev-parse --absolute-git-dir) && "
	"cp -a \"$gd\" \"$G\" && rm -f \"$G/commondir\" && "
	"git config -f \"$G/config\" --unset core.worktree; (M=$M-$2; fsmon) >> \"$G/config\" && "
	"printf 'gitdir: %s\\n' \"$G\" > \"$1/.git\"; echo \"$2 $?\"; }\n"
	"p qs qs; p uc uc; p nogm nogm; p deep/n/n/n/n/n/n/n deep\n"
	"G=$PWD/.git/objects/ev-sym; cp -a .git/modules/sym \"$G\" && "
	"git config -f \"$G/config\" --unset core.worktree; (M=$M-sym; fsmon) >> \"$G/config\"; "
	"rm -f sym/.git && ln -s \"$G\" sym/.git; echo \"sym $?\"\n";

/* All stay unplanted: git status at the top, outside, while the session
 * runs, runs none of them. Control: protected_paths [] lets each land,
 * and the same git status runs each. */
BOTH_USERS(guards, submodules_as_git_reads_them_stay_unplanted, .timeout = 120)
{
	struct world w;
	git_world(&w, who, "goddsub");
	char *lb = at(w.dir, "lb"), *chain = at(w.dir, "chain");
	struct run_result r = outside(
		&w,
		UPSTREAM_REPO
		"mkdir '%2$s' && prev='%1$s' && "
		"for i in 1 2 3 4 5 6 7; do d='%2$s'/r$i; git init -q $d && "
		"git -C $d submodule add -q $prev n && git -C $d commit -qm n && prev=$d || exit 1; "
		"done && for s in qs uc nogm sym; do git submodule add -q '%1$s' $s || exit 1; done && "
		"git submodule add -q $prev deep && git submodule update -q --init --recursive && "
		"sed -i 's|^\tpath = qs$|\tpath = \"qs\"|; s|^\tpath = uc$|\tPath = uc ; the uc lib|' "
		".gitmodules && git config -f .gitmodules --remove-section submodule.nogm && "
		"rm sym/.git && ln -s ../.git/modules/sym sym/.git && git add .gitmodules && "
		"git commit -qm subs && git status --short >/dev/null",
		lb, chain);
	run_free(&r);
	cr_assert(present(w.proj, "deep/n/n/n/n/n/n/n/.git"), "the submodules were not made");
	static const char *const names[] = {"qs", "uc", "nogm", "deep", "sym", NULL};
	const char *const dirs[] = {w.proj, NULL};
	plant_during_git(&w, "deny", plant_odd_submodules, dirs);
	for (size_t i = 0; names[i]; i++) {
		char *tag = fmt("deny-%s", names[i]);
		cr_expect_not(marked(&w, tag, "fsmonitor"),
			      "%s: a planted core.fsmonitor ran outside", names[i]);
		free(tag);
	}
	set_config(&w, ", \"protected_paths\": []");
	plant_during_git(&w, "ctl", plant_odd_submodules, dirs);
	for (size_t i = 0; names[i]; i++) {
		char *tag = fmt("ctl-%s", names[i]);
		cr_expect(marked(&w, tag, "fsmonitor"), "control: %s: the plant did not run",
			  names[i]);
		free(tag);
	}
	free(chain);
	free(lb);
	world_free(&w);
}

/* A session hides the user's submodule from the next one's guard with git
 * alone (46f): a split index whose gitlink is a replacement with no name,
 * or .gitmodules gone from the worktree (git reads the index's copy then).
 * The next session plants nothing in X/.git: the split index is read as
 * git reads it (57a F1), so X is guarded; .gitmodules missing refuses the
 * session, naming why. Control: git outside still reads X as a gitlink,
 * and .gitmodules from the index. */
BOTH_USERS(guards, a_submodule_hidden_from_the_index_reader_refuses_the_session, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "ghidesub");
	char *lb = at(w.dir, "lb");
	struct run_result r = outside(&w,
				      UPSTREAM_REPO "git submodule add -q '%1$s' X "
						    "&& git commit -qm X",
				      lb);
	run_free(&r);
	static const char *const hide[] = {
		"C=$(git rev-parse :X); B=$(git hash-object -w --stdin </dev/null); "
		"git update-index --cacheinfo 100644,$B,X && git update-index --split-index && "
		"git update-index --cacheinfo 160000,$C,X && echo hidden",
		"git update-index --assume-unchanged .gitmodules && rm .gitmodules && echo hidden"};
	static const char *const said[] = {NULL,
					   ".gitmodules is in its index but not in its worktree"};
	for (size_t i = 0; i < 2; i++) {
		r = sh_in(&w, NULL, "%s", hide[i]);
		cr_assert(strstr(r.out, "hidden"), "%zu: the session could not do it: %s", i,
			  r.err);
		run_free(&r);
		r = outside(&w, "git ls-files -s X | cut -c1-6; git config --blob :.gitmodules "
				"submodule.X.path");
		cr_expect(strstr(r.out, "160000\nX"), "%zu: control: git does not read X: %s", i,
			  r.out);
		run_free(&r);
		r = sh_in(&w, NULL, "echo 'gitdir: /nowhere' > X/.git && echo planted");
		cr_expect_null(strstr(r.out, "planted"), "%zu: it planted: %s", i, r.out);
		if (said[i]) {
			cr_expect_eq(r.status, 125, "%zu: the next session ran: %s%s", i, r.out,
				     r.err);
			cr_expect(strstr(r.err, said[i]) &&
					  strstr(r.err, "which submodules git would use"),
				  "%zu: not said: %s", i, r.err);
		}
		run_free(&r);
		char *gl = at(w.proj, "X/.git"), *link = slurp(gl);
		cr_expect(!strstr(link, "nowhere") && strcmp(link, "(absent)") != 0,
			  "%zu: X/.git was changed: %s", i, link);
		free(link);
		free(gl);
		r = outside(&w, "git update-index --no-split-index && git update-index "
				"--no-assume-unchanged .gitmodules && git checkout -- .gitmodules");
		run_free(&r);
	}
	free(lb);
	world_free(&w);
}

/* The user's submodules never initialized: X (an empty checkout, as a
 * clone without --recurse-submodules leaves it), d/X outside the sparse
 * cone (no d in the worktree), Y with no checkout at all; PROJ's world W. */
static void unpopulated_world(struct world *w, const struct who *who, const char *tag)
{
	git_world(w, who, tag);
	char *lb = at(w->dir, "lb");
	struct run_result r = outside(
		w,
		UPSTREAM_REPO
		"mkdir e && echo f > e/f && git add e && "
		"git submodule add -q '%1$s' X && git submodule add -q '%1$s' d/X && "
		"git submodule add -q '%1$s' Y && git commit -qm subs && "
		"git submodule deinit -q -f -- X d/X Y && rm -rf .git/modules && rmdir Y && "
		"git sparse-checkout set e",
		lb);
	run_free(&r);
	cr_assert(present(w->proj, "X") && !present(w->proj, "d") && !present(w->proj, "Y"),
		  "not as a sparse clone");
	free(lb);
}

/* A shell function: "p PATH TAG" makes PATH (a submodule's checkout) and
 * sends its .git to a git dir the session made, whose core.fsmonitor makes
 * $M-TAG-fsmonitor; its status. */
#define PLANT_GITDIR                                                                               \
	"p() { G=$PWD/.git/objects/ev-$2; git init -q --bare \"$G\" && "                           \
	"git config -f \"$G/config\" core.bare false && "                                          \
	"git config -f \"$G/config\" core.worktree \"$PWD/$1\" && "                                \
	"(M=$M-$2; fsmon) >> \"$G/config\" && mkdir -p \"$1\" && "                                 \
	"printf 'gitdir: %s\\n' \"$G\" > \"$1/.git\"; }\n"

/* X and d/X (tag Y) of unpopulated_world each get a .git sent to a git
 * dir the session made, whose core.fsmonitor git status at the top,
 * outside, runs. */
static const char plant_unpopulated[] = PLANT_GITDIR "p X X; echo X $?; p d/X Y; echo Y $?\n";

/* Neither lands, and git status at the top, outside, while the session
 * runs, runs neither (46g G2: nothing was guarded there). The read-only
 * stand-in for d goes as the session ends, and git outside sees the
 * worktree as before. Control: protected_paths [] lets both land, and the
 * same git status runs both. */
BOTH_USERS(guards, unpopulated_submodules_stay_unplanted, .timeout = 90)
{
	struct world w;
	unpopulated_world(&w, who, "gunpop");
	struct run_result r = outside(&w, "git status --short");
	char *before = strdup(r.out);
	run_free(&r);
	const char *const dirs[] = {w.proj, NULL};
	plant_during_git(&w, "deny", plant_unpopulated, dirs);
	cr_expect_not(marked(&w, "deny-X", "fsmonitor"),
		      "a .git made in an empty checkout sent git outside to a planted git dir");
	cr_expect_not(marked(&w, "deny-Y", "fsmonitor"),
		      "a .git made outside the sparse cone sent git outside to a planted git dir");
	cr_expect_not(present(w.proj, "X/.git"), "X/.git was made");
	cr_expect_not(present(w.proj, "d"), "the stand-in for d was left, or d was made");
	r = outside(&w, "git status --short");
	cr_expect_str_eq(r.out, before, "git outside sees the worktree otherwise now");
	run_free(&r);

	set_config(&w, ", \"protected_paths\": []");
	plant_during_git(&w, "ctl", plant_unpopulated, dirs);
	cr_assert(marked(&w, "ctl-X", "fsmonitor"),
		  "control: the empty checkout's plant did not run");
	cr_assert(marked(&w, "ctl-Y", "fsmonitor"), "control: the sparse one's plant did not run");
	free(before);
	world_free(&w);
}

/* A session that keeps trying to plant Y/.git (p, as plant_unpopulated)
 * until "goB", having said "onB". */
static const char plant_until_go[] = PLANT_GITDIR
	"touch onB; while [ ! -e goB ]; do p Y Y 2>/dev/null && touch landed; sleep 0.05; done\n";

/* Two sessions at once: B keeps trying to plant Y/.git while A, which
 * made the stand-in Y, ends (47a H1: B kept A's stand-in read-only without
 * holding it, A removed it as it ended, and B planted; its sweep took Y
 * for guarded and left the plant, which git status outside ran after both
 * had ended). Neither lands, the stand-in goes with the last session, and
 * git status outside after both runs nothing. Control: protected_paths []
 * lets B plant at once. */
BOTH_USERS(guards, a_stand_in_held_by_two_sessions_goes_with_the_last, .timeout = 90)
{
	struct world w;
	unpopulated_world(&w, who, "gtwo");
	char *onA = at(w.proj, "onA"), *onB = at(w.proj, "onB"), *landed = at(w.proj, "landed");
	for (int ctl = 0; ctl < 2; ctl++) {
		const char *tag = ctl ? "ctl" : "deny";
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		char *a[] = {CORDON_BIN, "run",
			     "--config", w.cfg,
			     "--",       "/bin/sh",
			     "-c",       "touch onA; while [ ! -e goA ]; do sleep 0.05; done",
			     NULL};
		pid_t pa = world_spawn(&w, a, w.proj);
		cr_assert(wait_exists(onA, 10000), "%s: session A did not start", tag);
		char *script = plant(&w, tag, "", plant_until_go);
		char *b[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
			     "/bin/sh",  "-c",  script,     NULL};
		pid_t pb = world_spawn(&w, b, w.proj);
		cr_assert(wait_exists(onB, 10000), "%s: session B did not start", tag);
		usleep(300000);
		struct run_result r = outside(&w, "touch goA");
		run_free(&r);
		cr_expect(wait_gone(pa, 10000), "%s: session A did not end", tag);
		(void)wait_exists(landed, 1500);
		r = outside(&w, "touch goB");
		run_free(&r);
		cr_expect(wait_gone(pb, 10000), "%s: session B did not end", tag);
		git_outside(&w, w.proj, tag);
		free(script);
		if (ctl) {
			cr_assert(file_exists(landed), "control: B could not plant");
			cr_assert(marked(&w, "ctl-Y", "fsmonitor"),
				  "control: the plant did not run");
		} else {
			cr_expect_not(file_exists(landed), "B planted Y/.git");
			cr_expect_not(marked(&w, "deny-Y", "fsmonitor"), "B's plant ran outside");
			cr_expect_not(present(w.proj, "Y"), "the stand-in Y was left");
		}
		r = outside(&w, "rm -rf onA onB goA goB landed Y");
		run_free(&r);
	}
	free(onA), free(onB), free(landed);
	world_free(&w);
}

/* The user's empty checkout X, kept read-only, is removed and made again
 * outside while a session runs (a checkout of another branch and back),
 * which ends its mount: the session plants X/.git then. As the session
 * ends, the sweep judges what is below a kept directory that was replaced
 * (it took X/.git for guarded and left it), and moves it aside; git
 * status outside after runs nothing. Control: the plant landed (seen
 * from outside while the session ran). */
BOTH_USERS(guards, a_kept_checkout_replaced_outside_is_judged, .timeout = 60)
{
	struct world w;
	unpopulated_world(&w, who, "grepl");
	char *on = at(w.proj, "on"), *landed = at(w.proj, "X/.git");
	char *script =
		plant(&w, "deny", "",
		      PLANT_GITDIR
		      "touch on; while [ ! -e go ]; do p X X 2>/dev/null; sleep 0.05; done\n");
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", script, NULL};
	pid_t pid = world_spawn(&w, argv, w.proj);
	cr_assert(wait_exists(on, 10000), "the session did not start");
	usleep(300000);
	cr_expect_not(file_exists(landed), "X/.git was made while X was kept");
	/* (-p: the session's loop may make X again in the moment between.) */
	struct run_result r = outside(&w, "rmdir X && mkdir -p X");
	run_free(&r);
	cr_assert(wait_exists(landed, 5000), "control: the session did not plant X/.git");
	r = outside(&w, "touch go");
	run_free(&r);
	cr_expect(wait_gone(pid, 10000), "the session did not end");
	cr_expect_not(file_exists(landed), "the planted X/.git was left");
	cr_expect(present(w.proj, "X/.git.cordon-disarmed"), "not moved aside");
	git_outside(&w, w.proj, "after");
	cr_expect_not(marked(&w, "deny-X", "fsmonitor"), "the plant ran outside");
	free(script), free(on), free(landed);
	world_free(&w);
}

/* Submodules of linked worktrees: "mod" appends a core.fsmonitor to the
 * git dir git keeps for the submodule X of the worktree wt2 (beside the
 * project: .git/worktrees/wt2/modules/X); "wt" makes a .git in the
 * worktree wt's X, never initialized there, sent to a git dir the session
 * made. */
static const char plant_worktree_submodules[] =
	PLANT_GITDIR "(M=$M-mod; fsmon) >> .git/worktrees/wt2/modules/X/config; echo mod $?\n"
		     "p wt/X wt; echo wt $?\n";

/* Neither lands, and git status in each worktree, outside, while the
 * session runs, runs neither (47a M2: only the project's own git dir's
 * submodules were guarded). Control: protected_paths [] lets both land,
 * and the same git runs both. */
BOTH_USERS(guards, linked_worktrees_submodules_stay_unplanted, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gwtsub");
	char *lb = at(w.dir, "lb"), *wt2 = at(w.dir, "wt2"), *wt = at(w.proj, "wt");
	struct run_result r =
		outside(&w,
			UPSTREAM_REPO
			"git submodule add -q '%1$s' X && git commit -qm X && "
			"git worktree add -q '%2$s' && git -C '%2$s' submodule update -q --init && "
			"git worktree add -q wt && echo /wt >> .git/info/exclude",
			lb, wt2);
	run_free(&r);
	cr_assert(present(w.proj, ".git/worktrees/wt2/modules/X/config") &&
			  present(w.proj, "wt/X") && !present(w.proj, "wt/X/.git"),
		  "the worktrees are not as meant");
	const char *const dirs[] = {wt2, wt, NULL};
	plant_during_git(&w, "deny", plant_worktree_submodules, dirs);
	cr_expect_not(marked(&w, "deny-mod", "fsmonitor"),
		      "a worktree's submodule config got a core.fsmonitor that ran outside");
	cr_expect_not(marked(&w, "deny-wt", "fsmonitor"),
		      "a worktree's uninitialized submodule got a .git that ran outside");
	set_config(&w, ", \"protected_paths\": []");
	plant_during_git(&w, "ctl", plant_worktree_submodules, dirs);
	cr_assert(marked(&w, "ctl-mod", "fsmonitor"), "control: the config plant did not run");
	cr_assert(marked(&w, "ctl-wt", "fsmonitor"), "control: the .git plant did not run");
	free(lb), free(wt2), free(wt);
	world_free(&w);
}

/* The submodule d/X's config given a core.fsmonitor, and its .git file
 * sent elsewhere, after the modes a session took off are put back. */
#define PLANT_MODULE_CONFIG                                                                        \
	"chmod 755 d .git .git/modules\n"                                                          \
	"(M=$M-cfg; fsmon) >> .git/modules/d/X/config; echo cfg $?\n"
static const char plant_after_chmod[] =
	PLANT_MODULE_CONFIG "printf 'gitdir: /nowhere\\n' > d/X/.git; echo dotgit $?\n";

/* A session takes the modes off directories of the user's that the guards
 * look into (d, which holds the checkout d/X; .git/modules; .git). The
 * next session's guards could not look there and kept nothing below, and
 * that session put the modes back and wrote the user's submodule config
 * (47b N1); one refused for its .git had the user's .git moved aside as it
 * ended (N2). Now the ordinary user's next session is refused, naming the
 * directory, and nothing is moved; root's reads through the modes and
 * keeps all. Either way git status outside, while it runs, runs nothing,
 * and d/X/.git is the user's. Control: protected_paths [] lets the same
 * plant land and run. */
BOTH_USERS(guards, a_directory_made_unreadable_inside_refuses_the_next_session, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gchmod");
	char *lb = at(w.dir, "lb");
	struct run_result r = outside(&w,
				      UPSTREAM_REPO "git submodule add -q '%1$s' d/X && "
						    "git commit -qm X",
				      lb);
	run_free(&r);
	char *dotgit = content(w.proj, "d/X/.git");
	static const char *const takes[] = {"chmod 0 d", "chmod 0 .git/modules", "chmod 0 .git"};
	for (size_t i = 0; i < 3; i++) {
		r = sh_in(&w, NULL, "%s && echo taken", takes[i]);
		cr_assert(strstr(r.out, "taken"), "%zu: the session could not: %s", i, r.err);
		run_free(&r);
		const char *const dirs[] = {w.proj, NULL};
		char *tag = fmt("deny%zu", i);
		if (who->user) {
			char *script = plant(&w, tag, "", plant_after_chmod);
			r = sh_in(&w, NULL, "%s", script);
			cr_expect_eq(r.status, 125, "%zu: the next session ran: %s%s", i, r.out,
				     r.err);
			cr_expect(strstr(r.err, "cordon cannot look into it"), "%zu: not said: %s",
				  i, r.err);
			run_free(&r);
			free(script);
			git_outside(&w, w.proj, tag);
		} else {
			plant_during_git(&w, tag, plant_after_chmod, dirs);
		}
		char *m = fmt("%s-cfg", tag);
		cr_expect_not(marked(&w, m, "fsmonitor"), "%zu: the plant ran outside", i);
		free(m);
		cr_expect(present(w.proj, ".git/config") &&
				  !present(w.proj, ".git.cordon-disarmed") &&
				  !present(w.proj, ".git/modules/d/X.cordon-disarmed"),
			  "%zu: the user's repository was moved aside", i);
		char *now = content(w.proj, "d/X/.git");
		cr_expect_str_eq(now, dotgit, "%zu: d/X/.git was rewritten", i);
		free(now);
		free(tag);
		r = outside(&w, "chmod 755 d .git .git/modules");
		run_free(&r);
	}
	set_config(&w, ", \"protected_paths\": []");
	r = sh_in(&w, NULL, "chmod 0 d && echo taken");
	run_free(&r);
	const char *const top[] = {w.proj, NULL};
	plant_during_git(&w, "ctl", PLANT_MODULE_CONFIG, top);
	cr_assert(marked(&w, "ctl-cfg", "fsmonitor"), "control: the plant did not run");
	free(dotgit);
	free(lb);
	world_free(&w);
}

/* A git world (TAG) whose submodule d/X was added, committed and
 * deinit'd: its git dir .git/modules/d/X has no checkout leading to it
 * (47c P1's premise). MORE: shell steps after (or ""). */
static void deinit_world(struct world *w, const struct who *who, const char *tag, const char *more)
{
	git_world(w, who, tag);
	char *lb = at(w->dir, "lb");
	struct run_result r =
		outside(w,
			UPSTREAM_REPO "git submodule add -q '%1$s' d/X && git commit -qm X && "
				      "git submodule deinit -q -f -- d/X%2$s",
			lb, more);
	run_free(&r);
	free(lb);
}

/* A session moves the HEAD of the user's submodule git dir away (47c P1:
 * the next session's guard took the directory for no git dir and left
 * its config writable, which that session wrote before putting HEAD
 * back). HEAD is put back as the session ends, as it was, and said; the
 * next session cannot write the config. Control: protected_paths [] (no
 * guard, nothing put back) lets the config be written. */
BOTH_USERS(guards, a_module_s_head_moved_away_is_put_back, .timeout = 90)
{
	struct world w;
	deinit_world(&w, who, "gmhead", "");
	struct run_result r;
	char *head = content(w.proj, ".git/modules/d/X/HEAD");
	/* Moved away; made a directory, or a link (47e F1: nothing was
	 * kept for one that is no file, and the next session removed it). */
	static const char *const hows[] = {
		"mv .git/modules/d/X/HEAD .git/objects/h",
		"rm .git/modules/d/X/HEAD && mkdir .git/modules/d/X/HEAD",
		"rm .git/modules/d/X/HEAD && ln -s nowhere .git/modules/d/X/HEAD",
		/* Moved away, then the way to it made unreadable as the session
		 * ends (47d M1's kind: the HEAD was not put back). */
		"mv .git/modules/d/X/HEAD .git/objects/h && chmod 0 .git/modules/d/X",
		"mv .git/modules/d/X/HEAD .git/objects/h && chmod 0 .git/modules", NULL};
	static const char *const hidden[] = {NULL, NULL, NULL, ".git/modules/d/X", ".git/modules"};
	for (size_t k = 0; hows[k]; k++) {
		r = sh_in(&w, NULL, "%s; echo head $?", hows[k]);
		cr_assert(strstr(r.out, "head 0"), "%zu: HEAD could not be changed: %s", k, r.out);
		char *now = content(w.proj, ".git/modules/d/X/HEAD");
		cr_expect_str_eq(now, head, "%zu: HEAD was not put back as it was", k);
		cr_expect(strstr(r.err, "cordon put back"), "%zu: not said: %s", k, r.err);
		free(now);
		run_free(&r);
		if (hidden[k]) {
			char *dir = at(w.proj, hidden[k]);
			struct stat st;
			cr_expect(stat(dir, &st) == 0 && (st.st_mode & 07777) == 0,
				  "%zu: %s's mode was not given back as it was", k, hidden[k]);
			cr_assert_eq(chmod(dir, 0755), 0);
			free(dir);
		}
		char *config = content(w.proj, ".git/modules/d/X/config");
		r = sh_in(&w, NULL,
			  "rm -rf .git/modules/d/X/HEAD; "
			  "printf '[core]\\n\\tfsmonitor = true\\n' >> .git/modules/d/X/config; "
			  "echo cfg $?");
		now = content(w.proj, ".git/modules/d/X/config");
		cr_expect_str_eq(now, config, "%zu: the module's config was written: %s", k, r.out);
		run_free(&r);
		free(now), free(config);
		r = outside(&w, "rm -rf .git/modules/d/X/HEAD.cordon-disarmed .git/objects/h");
		run_free(&r);
	}
	/* Control: no guard, nothing put back: the next session writes it. */
	set_config(&w, ", \"protected_paths\": []");
	char *config = content(w.proj, ".git/modules/d/X/config");
	r = sh_in(&w, NULL, "mv .git/modules/d/X/HEAD .git/objects/h; echo head $?");
	run_free(&r);
	cr_assert_not(present(w.proj, ".git/modules/d/X/HEAD"), "control: HEAD was put back");
	r = sh_in(
		&w, NULL,
		"printf '[core]\\n\\tfsmonitor = true\\n' >> .git/modules/d/X/config; echo cfg $?");
	char *now = content(w.proj, ".git/modules/d/X/config");
	cr_assert(strcmp(now, config) != 0, "control: the config was not written");
	run_free(&r);
	free(now), free(config), free(head);
	world_free(&w);
}

/* A session shuts 200 module git dirs of the user's (chmod 0500), then
 * removes the HEAD of a submodule git dir and shuts that one too (round
 * 48a F1: the end opened no more than 64 directories, so the HEAD was not
 * put back, nothing was said, and the next session wrote the module's
 * config). The HEAD is put back, and every mode given back. Control: no
 * guard, nothing put back. */
BOTH_USERS(guards, a_module_s_head_behind_many_shut_dirs_is_put_back, .timeout = 120)
{
	struct world w;
	deinit_world(&w, who, "gmheads",
		     " && for i in $(seq 100 299); do m=.git/modules/z$i; "
		     "mkdir -p $m/objects $m/refs && echo 'ref: refs/heads/main' > $m/HEAD; done");
	struct run_result r;
	char *head = content(w.proj, ".git/modules/d/X/HEAD");
	static const char shut[] = "chmod 0500 .git/modules/z* && rm .git/modules/d/X/HEAD && "
				   "chmod 0500 .git/modules/d/X; echo shut $?";
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		r = sh_in(&w, NULL, shut);
		cr_assert(strstr(r.out, "shut 0"), "%d: the session could not: %s%s", ctl, r.out,
			  r.err);
		char *now = content(w.proj, ".git/modules/d/X/HEAD");
		if (ctl) {
			cr_assert_str_eq(now, "(absent)", "control: HEAD was put back");
		} else {
			cr_expect_str_eq(now, head, "HEAD was not put back: %s", r.err);
			cr_expect(strstr(r.err, "cordon put back"), "not said: %s", r.err);
		}
		struct stat st;
		char *x = at(w.proj, ".git/modules/d/X"), *z = at(w.proj, ".git/modules/z250");
		cr_expect(stat(x, &st) == 0 && (st.st_mode & 07777) == 0500 && stat(z, &st) == 0 &&
				  (st.st_mode & 07777) == 0500,
			  "%d: the modes were not given back as they were", ctl);
		free(x), free(z), free(now);
		run_free(&r);
		r = outside(&w,
			    "chmod 755 .git/modules/z* .git/modules/d/X && "
			    "cp .git/modules/z100/HEAD .git/modules/d/X/HEAD 2>/dev/null; true");
		run_free(&r);
	}
	free(head);
	world_free(&w);
}

/* A session removes the HEAD of a deinit'd submodule's git dir, and its
 * launcher is then killed (47c P1 left: nothing put HEAD back, the next
 * session's guards took the directory for no git dir, and that session
 * wrote its config). The launcher's note has the next launch put HEAD
 * back where the note is trusted (root); where it may be a session's (a
 * user with no passwd home) the launch is refused until the user puts
 * it back. The session after cannot write the config. Control: no guard,
 * nothing put back, the config written. */
BOTH_USERS(guards, a_module_s_head_removed_by_a_killed_session_is_put_back, .timeout = 120)
{
	struct world w;
	deinit_world(&w, who, "gmheadk", "");
	struct run_result r;
	char *head = content(w.proj, ".git/modules/d/X/HEAD"),
	     *config = content(w.proj, ".git/modules/d/X/config");
	static const char write_config[] =
		"printf '[core]\\n\\tfsmonitor = true\\n' >> .git/modules/d/X/config; echo cfg $?";
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		plant_then_kill(&w, "rm .git/modules/d/X/HEAD");
		char *planted = at(w.proj, "planted");
		unlink(planted);
		free(planted);
		cr_assert_not(present(w.proj, ".git/modules/d/X/HEAD"), "%d: HEAD was not removed",
			      ctl);
		/* (The killed session's processes end a moment after its
		 * launcher: a launch before that keeps the note.) */
		char *said = NULL;
		bool refused = false;
		for (int t = 0; t < 6 && !refused && !present(w.proj, ".git/modules/d/X/HEAD");
		     t++) {
			if (t)
				usleep(500000);
			r = sh_in(&w, NULL, "true");
			free(said);
			said = strdup(r.err);
			refused = r.status == 125 && strstr(r.err, "cannot tell that note");
			run_free(&r);
		}
		/* The test user has no passwd home: a note a session may have
		 * planted (round 48b F1) is never acted on, the launch refused
		 * until the user puts HEAD back. */
		if (!ctl && who->user) {
			cr_expect(refused, "a launch went on: %s", said);
			cr_expect_not(present(w.proj, ".git/modules/d/X/HEAD"),
				      "HEAD was written from a note cordon cannot trust");
			char *put = fmt("printf '%%s' '%s' > .git/modules/d/X/HEAD", head);
			r = outside(&w, "%s", put);
			run_free(&r);
			free(put);
		}
		r = sh_in(&w, NULL, write_config);
		char *now = content(w.proj, ".git/modules/d/X/config");
		if (ctl) {
			cr_assert_not(present(w.proj, ".git/modules/d/X/HEAD"),
				      "control: HEAD was put back");
			cr_assert(strcmp(now, config) != 0, "control: the config was not written");
		} else {
			char *back = content(w.proj, ".git/modules/d/X/HEAD");
			cr_expect_str_eq(back, head, "HEAD was not put back: %s", said);
			cr_expect(strstr(said, "whose launcher was killed"), "not said: %s", said);
			cr_expect(r.status == 0 && strstr(r.out, "cfg"),
				  "the session did not run: %s", r.err);
			cr_expect_str_eq(now, config, "the module's config was written: %s", r.out);
			free(back);
		}
		run_free(&r);
		free(now), free(said);
		r = outside(&w, "git -C .git/modules/d/X config --unset core.fsmonitor; "
				"cp .git/HEAD .git/modules/d/X/HEAD 2>/dev/null; true");
		run_free(&r);
	}
	free(head), free(config);
	world_free(&w);
}

/* A session removes the HEAD of a deinit'd submodule's git dir and keeps
 * running; a session started meanwhile (round 48b F2: its guards took the
 * directory for no git dir, and it wrote the config while the first ran)
 * is refused, naming the HEAD, and writes nothing. Once the first has
 * ended (HEAD put back), the next session cannot write the config either.
 * Control: no guard: the second session writes it. */
BOTH_USERS(guards, a_module_s_head_removed_by_a_running_session_refuses_the_next, .timeout = 120)
{
	struct world w;
	deinit_world(&w, who, "gmheadr", "");
	char *config = content(w.proj, ".git/modules/d/X/config");
	static const char write_config[] =
		"printf '[core]\\n\\tfsmonitor = true\\n' >> .git/modules/d/X/config; echo cfg $?";
	char *go = at(w.proj, "go"), *on = at(w.proj, "on");
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		char *hold[] = {CORDON_BIN,
				"run",
				"--config",
				w.cfg,
				"--",
				"/bin/sh",
				"-c",
				"rm .git/modules/d/X/HEAD && touch on; "
				"while [ ! -e go ]; do sleep 0.05; done",
				NULL};
		pid_t pid = world_spawn(&w, hold, w.proj);
		cr_assert(wait_exists(on, 10000), "%d: the first session did not start", ctl);
		struct run_result r = sh_in(&w, NULL, write_config);
		char *now = content(w.proj, ".git/modules/d/X/config");
		if (ctl) {
			cr_assert(strcmp(now, config) != 0, "control: the config was not written");
		} else {
			cr_expect(r.status == 125 && strstr(r.err, "still runs"),
				  "the second session was not refused: %d %s%s", r.status, r.out,
				  r.err);
			cr_expect_str_eq(now, config, "the module's config was written: %s", r.out);
		}
		run_free(&r);
		free(now);
		free(write_file(w.proj, "go", ""));
		cr_expect(wait_gone(pid, 10000), "%d: the first session did not end", ctl);
		unlink(go), unlink(on);
		if (!ctl) {
			cr_expect(present(w.proj, ".git/modules/d/X/HEAD"),
				  "HEAD was not put back");
			r = sh_in(&w, NULL, write_config);
			now = content(w.proj, ".git/modules/d/X/config");
			cr_expect_str_eq(now, config, "the config was written after: %s", r.out);
			run_free(&r);
			free(now);
		}
		r = outside(&w, "git -C .git/modules/d/X config --unset core.fsmonitor; "
				"cp .git/HEAD .git/modules/d/X/HEAD 2>/dev/null; true");
		run_free(&r);
	}
	free(go), free(on), free(config);
	world_free(&w);
}

/* A session makes .git/modules/d look like a git dir (objects, refs and a
 * HEAD git rejects, or one it takes), above the user's deinit'd
 * submodule's git dir .git/modules/d/X (round 48d F1: the guards took d
 * for a git dir, looked only into d/modules, and the next session wrote
 * X's config, which git outside then ran). The next session cannot write
 * it: d is no git dir to the guards, or one that holds another refuses
 * the session. Control: no guard, the config written. */
BOTH_USERS(guards, a_fake_git_dir_above_a_module_s_hides_nothing, .timeout = 120)
{
	struct world w;
	deinit_world(&w, who, "gmshadow", "");
	char *config = content(w.proj, ".git/modules/d/X/config");
	static const char write_config[] =
		"printf '[core]\\n\\tfsmonitor = true\\n' >> .git/modules/d/X/config; echo cfg $?";
	static const char *const heads[] = {"not a ref", "ref: refs/heads/main", NULL};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		for (size_t k = 0; heads[k]; k++) {
			struct run_result r =
				sh_in(&w, NULL,
				      "mkdir -p .git/modules/d/objects .git/modules/d/refs && "
				      "echo '%s' > .git/modules/d/HEAD; echo fake $?",
				      heads[k]);
			cr_assert(strstr(r.out, "fake 0"), "%d %zu: the session could not: %s%s",
				  ctl, k, r.out, r.err);
			run_free(&r);
			r = sh_in(&w, NULL, write_config);
			char *now = content(w.proj, ".git/modules/d/X/config");
			if (ctl)
				cr_assert(strcmp(now, config) != 0,
					  "control %zu: the config was not written", k);
			else
				cr_expect_str_eq(now, config,
						 "%zu: the module's config was written: %s%s", k,
						 r.out, r.err);
			free(now);
			run_free(&r);
			r = outside(&w,
				    "rm -rf .git/modules/d/HEAD .git/modules/d/objects "
				    ".git/modules/d/refs .git/modules/d/*.cordon-disarmed; "
				    "git -C .git/modules/d/X config --unset core.fsmonitor; true");
			run_free(&r);
		}
	}
	/* A git dir the session makes below such a d (modules/d/Y, with a
	 * core.fsmonitor) is judged as its end (round 48d F1, route a: the
	 * walk took d for a git dir and never went into d/Y): moved aside. */
	set_config(&w, "");
	struct run_result r = sh_in(
		&w, NULL,
		"mkdir -p .git/modules/d/objects .git/modules/d/refs && "
		"echo 'not a ref' > .git/modules/d/HEAD && git init -q --bare .git/modules/d/Y && "
		"git -C .git/modules/d/Y config core.fsmonitor 'touch planted' && echo made $?");
	cr_assert(strstr(r.out, "made 0"), "the session could not: %s%s", r.out, r.err);
	cr_expect(!present(w.proj, ".git/modules/d/Y") &&
			  present(w.proj, ".git/cordon-disarmed/modules!d!Y.cordon-disarmed"),
		  "the git dir made below a fake one was not moved aside: %s", r.err);
	run_free(&r);
	free(config);
	world_free(&w);
}

/* A session gives .git/modules/d, which holds the git dir of the user's
 * deinit'd submodule d/X, a HEAD and a commondir naming nothing (round 48d
 * F4, 48e F3: the end moved the whole d aside, the user's X with it, as
 * "this session made", and git outside cloned X anew; the next sessions
 * were refused, naming d.cordon-disarmed). Only d's HEAD is moved aside:
 * X stays where it was, the next session starts, and git outside uses X.
 * Then a HEAD with objects and refs, which no end moves (nothing in d
 * runs): the next session is refused, naming both, and the way the
 * message gives (only d's HEAD away) lets the one after start. */
BOTH_USERS(guards, a_fake_git_dir_above_a_module_s_leaves_it_in_place, .timeout = 120)
{
	struct world w;
	deinit_world(&w, who, "gmkeepx", "");
	ino_t x = inode(w.proj, ".git/modules/d/X");
	cr_assert(x != 0, "no module git dir d/X");
	struct run_result r = sh_in(&w, NULL,
				    "echo 'ref: refs/heads/main' > .git/modules/d/HEAD && "
				    "echo nowhere > .git/modules/d/commondir; echo fake $?");
	cr_assert(strstr(r.out, "fake 0"), "the session could not: %s%s", r.out, r.err);
	cr_expect(inode(w.proj, ".git/modules/d/X") == x, "the user's module git dir was moved: %s",
		  r.err);
	cr_expect(!present(w.proj, ".git/modules/d/HEAD") &&
			  present(w.proj, ".git/modules/d/HEAD.cordon-disarmed") &&
			  strstr(r.err, "whose HEAD is"),
		  "d's HEAD was not moved aside, and said: %s", r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "echo next");
	cr_expect(r.status == 0 && strstr(r.out, "next"), "the next session did not start: %d %s",
		  r.status, r.err);
	run_free(&r);
	r = outside(&w, "git submodule update -q --init -- d/X");
	run_free(&r);
	cr_expect(inode(w.proj, ".git/modules/d/X") == x && present(w.proj, "d/X/.git"),
		  "git outside did not take the user's module git dir back");
	r = outside(&w, "git submodule deinit -q -f -- d/X && rm -f .git/modules/d/commondir "
			".git/modules/d/HEAD.cordon-disarmed");
	run_free(&r);
	r = sh_in(&w, NULL,
		  "mkdir -p .git/modules/d/objects .git/modules/d/refs && "
		  "echo 'ref: refs/heads/main' > .git/modules/d/HEAD; echo fake $?");
	cr_assert(strstr(r.out, "fake 0"), "the session could not: %s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "echo next");
	char *d = at(w.proj, ".git/modules/d"), *inner = at(w.proj, ".git/modules/d/X");
	cr_expect(r.status == 125 && strstr(r.err, d) && strstr(r.err, inner) &&
			  strstr(r.err, "move only the HEAD of the one that is not yours"),
		  "the session was not refused, naming both: %d %s", r.status, r.err);
	run_free(&r);
	r = outside(&w, "mv .git/modules/d/HEAD .git/modules/d/H.old");
	run_free(&r);
	r = sh_in(&w, NULL, "echo next");
	cr_expect(r.status == 0 && inode(w.proj, ".git/modules/d/X") == x,
		  "the way given did not let the session start: %d %s", r.status, r.err);
	run_free(&r);
	free(d), free(inner);
	world_free(&w);
}

/* A session fills the user's module git dir with directories (round 48e
 * F2: 20,000 of them made every later launch take seconds, as each plan
 * looked through them all for a git dir hidden there): the next session
 * is refused, naming one, without looking through them all. Control: a
 * few such directories refuse nothing. */
BOTH_USERS(guards, a_module_git_dir_filled_with_directories_refuses_the_next, .timeout = 120)
{
	struct world w;
	deinit_world(&w, who, "gmfill", "");
	static const int counts[] = {20, 2100};
	for (size_t k = 0; k < 2; k++) {
		struct run_result r =
			sh_in(&w, NULL,
			      "mkdir -p .git/modules/d/X/junk && cd "
			      ".git/modules/d/X/junk && mkdir -p $(seq 1 %d); echo made $?",
			      counts[k]);
		cr_assert(strstr(r.out, "made 0"), "%d: the session could not: %s%s", counts[k],
			  r.out, r.err);
		run_free(&r);
		r = sh_in(&w, NULL, "echo next");
		if (k == 0)
			cr_expect(r.status == 0 && strstr(r.out, "next"),
				  "control: %d directories refused the session: %d %s", counts[k],
				  r.status, r.err);
		else
			cr_expect(r.status == 125 && strstr(r.err, "are no git dir") &&
					  strstr(r.err, "/.git/modules/d/X/junk"),
				  "%d directories did not refuse the session: %d %s", counts[k],
				  r.status, r.err);
		run_free(&r);
	}
	struct run_result r = outside(&w, "rm -rf .git/modules/d/X/junk");
	run_free(&r);
	r = sh_in(&w, NULL, "echo next");
	cr_expect(r.status == 0, "the session did not start once they were gone: %s", r.err);
	run_free(&r);
	world_free(&w);
}

/* A link a session made in the user's module git dir is moved aside as
 * it ends; the sessions started right after, which do nothing, neither
 * say they made it nor move it on (48a I2, 48e F3: a root whose change
 * time bore whole seconds, /var/tmp unpacked from an image, made each
 * session judge from the second it started, and the move in that second
 * counted as its own: "HEAD.cordon-disarmed.cordon-disarmed..."). */
#define OUT ".git/logs/HEAD.cordon-disarmed"
BOTH_USERS(guards, a_link_moved_aside_is_not_moved_again, .timeout = 90)
{
	struct world w;
	deinit_world(&w, who, "gmlink", "");
	struct run_result r = sh_in(
		&w, NULL, "rm -f .git/logs/HEAD && ln -s nowhere .git/logs/HEAD; echo made $?");
	cr_assert(strstr(r.out, "made 0"), "the session could not: %s%s", r.out, r.err);
	cr_expect(!present(w.proj, ".git/logs/HEAD") && present(w.proj, OUT),
		  "the link was not moved aside: %s", r.err);
	run_free(&r);
	for (int i = 0; i < 3; i++) {
		r = sh_in(&w, NULL, "true");
		cr_expect(!strstr(r.err, "cordon-disarmed"), "%d: the next session said: %s", i,
			  r.err);
		run_free(&r);
	}
	cr_expect(present(w.proj, OUT) && !present(w.proj, OUT ".cordon-disarmed"),
		  "the moved link was moved on");
	world_free(&w);
}
#undef OUT

/* A git world (TAG; its repositories sha256 ones where SHA256) whose
 * submodule d/X, from lb, was added and committed, then deinit'd and its
 * git dir removed: as in a clone where it was never initialised. */
static void uninit_world(struct world *w, const struct who *who, const char *tag, bool sha256)
{
	git_world(w, who, tag);
	const char *format = sha256 ? " --object-format=sha256" : "";
	char *lb = at(w->dir, "lb");
	struct run_result r = outside(
		w,
		"if [ -n '%2$s' ]; then rm -rf .git && git init -q%2$s && git add a && "
		"git commit -qm first; fi && git init -q%2$s '%1$s' && echo x > '%1$s/f' && "
		"git -C '%1$s' add f && git -C '%1$s' commit -qm s && "
		"git submodule add -q '%1$s' d/X && git commit -qm X && "
		"git submodule deinit -q -f -- d/X && rm -rf .git/modules/d",
		lb, format);
	run_free(&r);
	free(lb);
}

/* Shell steps: the git dir of a submodule named $NAME built at
 * .git/modules/$NAME, for the checkout d/X from lb, with a core.fsmonitor
 * and a post-checkout hook (plant's markers); prints "module 0". */
#define PLANT_MODULE_GIT_DIR                                                                        \
	"X=.git/modules/$NAME; git init -q --bare \"$X\" && "                                       \
	"git config -f \"$X/config\" core.bare false && "                                           \
	"git config -f \"$X/config\" core.worktree \"$PWD/d/X\" && "                                \
	"git config -f \"$X/config\" remote.origin.url \"$LB\" && "                                 \
	"git config -f \"$X/config\" remote.origin.fetch '+refs/heads/*:refs/remotes/origin/*' && " \
	"fsmon >> \"$X/config\" && hook post-checkout > \"$X/hooks/post-checkout\" && "             \
	"chmod +x \"$X/hooks/post-checkout\" && git config -f \"$X/config\" "                       \
	"remote.origin.uploadpack \"touch $M-uploadpack; git-upload-pack\"; echo module $?\n"

/* STEPS run in sessions (each its own, in turn; NULL ends), with plant's
 * functions, LB and NAME set; then git outside initialises the submodule,
 * and runs status in it. Whether the plant ran. CTL: no guard (the
 * control). */
static bool module_plant_ran_after(struct world *w, const char *tag, const char *name,
				   const char *const steps[], bool ctl, const char *after);

static bool module_plant_ran(struct world *w, const char *tag, const char *name,
			     const char *const steps[], bool ctl)
{
	return module_plant_ran_after(w, tag, name, steps, ctl,
				      "git submodule update -q --init; git -C d/X status "
				      ">/dev/null 2>&1; true");
}

/* The same, with AFTER the steps git outside runs. */
static bool module_plant_ran_after(struct world *w, const char *tag, const char *name,
				   const char *const steps[], bool ctl, const char *after)
{
	set_config(w, ctl ? ", \"protected_paths\": []" : "");
	char *lb = at(w->dir, "lb"), *vars = fmt("LB='%s'; NAME='%s'", lb, name);
	for (size_t i = 0; steps[i]; i++) {
		char *script = plant(w, tag, vars, steps[i]);
		struct run_result r = sh_in(w, NULL, "%s", script);
		cr_assert(!strstr(r.out, " 1\n") && !strstr(r.out, " 128\n"),
			  "%s %zu: the session could not: %s%s", tag, i, r.out, r.err);
		run_free(&r);
		free(script);
	}
	struct run_result r = sh_outside(w, after);
	run_free(&r);
	bool ran = marked(w, tag, "post-checkout") || marked(w, tag, "fsmonitor") ||
		   marked(w, tag, "uploadpack");
	r = outside(w,
		    "git submodule deinit -q -f -- d/X; rm -rf .git/modules/* "
		    "\"$(git rev-parse --git-dir)\"/modules; git checkout -q -- .gitmodules; "
		    "rm -f '%s'/pwned-*",
		    w->outside);
	run_free(&r);
	free(vars), free(lb);
	return ran;
}

/* Session 1 makes .git/modules/d look like a git dir to the end's walk
 * (a HEAD named in lower case; or objects a file) with an empty d/X, and
 * waits past the second its end's record keeps; session 2 makes d/X a
 * submodule's git dir with a hook, touching nothing in d (round 49a F1:
 * the walk took d from the record as a git dir and listed nothing below
 * it; git outside, for which d is none, used d/X and ran the hook). The
 * end of session 2 judges d/X. Control: no guard, the hook runs. */
BOTH_USERS(guards, a_git_dir_recorded_in_dotgit_is_listed_again, .timeout = 120)
{
	struct world w;
	uninit_world(&w, who, "gmreuse", false);
	static const char *const fakes[] = {
		"mkdir -p .git/modules/d/X .git/modules/d/objects .git/modules/d/refs && "
		"echo 'ref: refs/heads/main' > .git/modules/d/head; echo fake $?; sleep 2\n",
		"mkdir -p .git/modules/d/X .git/modules/d/refs && touch .git/modules/d/objects && "
		"echo 'ref: refs/heads/main' > .git/modules/d/HEAD; echo fake $?; sleep 2\n"};
	for (int ctl = 0; ctl < 2; ctl++)
		for (size_t k = 0; k < 2; k++) {
			const char *const steps[] = {fakes[k], PLANT_MODULE_GIT_DIR, NULL};
			char tag[32];
			snprintf(tag, sizeof(tag), "%s%zu", ctl ? "ctl" : "deny", k);
			bool ran = module_plant_ran(&w, tag, "d/X", steps, ctl);
			if (ctl)
				cr_assert(ran, "control %zu: the plant did not run", k);
			else
				cr_expect(!ran,
					  "%zu: the module git dir planted below a fake one ran "
					  "outside",
					  k);
		}
	world_free(&w);
}

/* One session makes .git/modules itself look like a git dir (HEAD,
 * objects, refs), names the submodule logs in .gitmodules, and builds
 * .git/modules/logs with a hook (round 49a F2: the walk took .git/modules
 * for a git dir and dropped logs, one of git's own names; git never asks
 * whether .git/modules is one, and ran the hook). Control: no guard. */
BOTH_USERS(guards, a_modules_dir_made_a_git_dir_hides_nothing, .timeout = 120)
{
	struct world w;
	uninit_world(&w, who, "gmmods", false);
	static const char step[] =
		"git config -f .gitmodules --rename-section submodule.d/X submodule.logs && "
		"mkdir -p .git/modules/objects .git/modules/refs && "
		"echo 'ref: refs/heads/main' > .git/modules/HEAD; echo fake $?\n" PLANT_MODULE_GIT_DIR;
	const char *const steps[] = {step, NULL};
	cr_assert(module_plant_ran(&w, "ctl", "logs", steps, true),
		  "control: the plant did not run");
	cr_expect(!module_plant_ran(&w, "deny", "logs", steps, false),
		  "the git dir of a submodule named logs below .git/modules ran outside");
	world_free(&w);
}

/* In a sha256 superproject, one session gives .git/modules/d a HEAD of 40
 * hex digits (an object id to sha1, none to this git), objects and refs,
 * names the submodule d/logs, and builds .git/modules/d/logs with a hook
 * (round 49a F3: cordon took d for a git dir, git did not, and nothing
 * looked into d/logs, one of git's own names). Control: no guard. */
BOTH_USERS(guards, a_short_head_in_a_sha256_superproject_hides_nothing, .timeout = 120)
{
	struct world w;
	uninit_world(&w, who, "gmsha", true);
	static const char step[] =
		"git config -f .gitmodules --rename-section submodule.d/X submodule.d/logs && "
		"mkdir -p .git/modules/d/objects .git/modules/d/refs && "
		"echo 0123456789abcdef0123456789abcdef01234567 > .git/modules/d/HEAD; "
		"echo fake $?\n" PLANT_MODULE_GIT_DIR;
	const char *const steps[] = {step, NULL};
	cr_assert(module_plant_ran(&w, "ctl", "d/logs", steps, true),
		  "control: the plant did not run");
	cr_expect(!module_plant_ran(&w, "deny", "d/logs", steps, false),
		  "the git dir of a submodule named d/logs below a fake d ran outside");
	world_free(&w);
}

/* git fetch outside, where .gitmodules asks it to go into submodules:
 * it opens .git/modules/NAME by the name .gitmodules gives, with no look
 * at what lies above (round 49d). */
static const char fetch_outside[] =
	"git remote add origin . 2>/dev/null; git fetch -q origin >/dev/null 2>&1; true";

/* One session names the user's deinit'd submodule d/X/objects/foo (git
 * fetch goes into it), and builds a git dir there, below an own-named
 * directory of the user's module git dir (round 49d G1: the end's walk
 * never went below git's own names in a git dir; git fetch outside ran
 * its upload-pack). Then logs/X below a .git/modules made to look like a
 * git dir (49c F1: the walk dropped logs, and git used logs/X). Each is
 * judged as the session ends. Control: no guard, the plant runs. */
BOTH_USERS(guards, a_module_git_dir_below_git_s_own_names_is_judged, .timeout = 120)
{
	static const char below_objects[] =
		"git config -f .gitmodules --rename-section submodule.d/X submodule.d/X/objects/foo "
		"&& git config -f .gitmodules submodule.d/X/objects/foo.fetchRecurseSubmodules "
		"true; echo rename $?\n" PLANT_MODULE_GIT_DIR;
	static const char below_logs[] =
		"git config -f .gitmodules --rename-section submodule.d/X submodule.logs/X && "
		"mkdir -p .git/modules/objects .git/modules/refs && "
		"echo 'ref: refs/heads/main' > .git/modules/HEAD; echo fake $?\n" PLANT_MODULE_GIT_DIR;
	for (int ctl = 1; ctl >= 0; ctl--) {
		struct world w;
		deinit_world(&w, who, ctl ? "gmobjc" : "gmobj", "");
		const char *const steps[] = {below_objects, NULL};
		bool ran = module_plant_ran_after(&w, "objects", "d/X/objects/foo", steps, ctl,
						  fetch_outside);
		if (ctl)
			cr_assert(ran, "control: the plant below objects/ did not run");
		else
			cr_expect(!ran, "the git dir below objects/ ran at git fetch outside");
		world_free(&w);
		uninit_world(&w, who, ctl ? "gmlogc" : "gmlog", false);
		const char *const logs[] = {below_logs, NULL};
		ran = module_plant_ran(&w, "logs", "logs/X", logs, ctl);
		if (ctl)
			cr_assert(ran, "control: the plant at logs/X did not run");
		else
			cr_expect(!ran, "the git dir at logs/X ran outside");
		world_free(&w);
	}
}

/* One session builds a git dir at .git/modules/d/Z, which its end moves
 * aside, and names a submodule d/Z.cordon-disarmed (round 49d G2: the end
 * moved it to that very name, and git fetch and git submodule update
 * outside used it as it was). It lies where no name leads, and no git
 * dir. Control: no guard, the plant built at that name runs. */
BOTH_USERS(guards, a_module_git_dir_moved_aside_is_no_submodule_s, .timeout = 120)
{
	static const char step[] =
		"git config -f .gitmodules --rename-section submodule.d/X "
		"submodule.d/Z.cordon-disarmed && git config -f .gitmodules "
		"submodule.d/Z.cordon-disarmed.fetchRecurseSubmodules true; echo rename $?\n"
		"NAME=d/Z\n" PLANT_MODULE_GIT_DIR;
	static const char ctl_step[] =
		"git config -f .gitmodules --rename-section submodule.d/X "
		"submodule.d/Z.cordon-disarmed && git config -f .gitmodules "
		"submodule.d/Z.cordon-disarmed.fetchRecurseSubmodules true; echo rename $?\n" PLANT_MODULE_GIT_DIR;
	static const char *const afters[] = {
		"git submodule update -q --init; git -C d/X status >/dev/null 2>&1; true",
		fetch_outside};
	for (size_t k = 0; k < 2; k++)
		for (int ctl = 1; ctl >= 0; ctl--) {
			struct world w;
			uninit_world(&w, who, ctl ? "gmdisc" : "gmdis", false);
			const char *const steps[] = {ctl ? ctl_step : step, NULL};
			bool ran = module_plant_ran_after(&w, "dis", "d/Z.cordon-disarmed", steps,
							  ctl, afters[k]);
			if (ctl)
				cr_assert(ran, "control %zu: the plant did not run", k);
			else
				cr_expect(!ran, "%zu: the git dir moved aside ran outside", k);
			world_free(&w);
		}
}

/* One session lays a link .git/modules/q to ../objects, builds a git dir
 * through it (.git/objects/foo, which no walk goes into), and names a
 * submodule q.cordon-disarmed/foo: where its end would have moved the link
 * beside it, the name would lead git fetch outside through it. The link
 * goes out of modules/. Control: no guard, the same through a link laid at
 * that name. */
BOTH_USERS(guards, a_link_in_dot_git_modules_is_moved_out_of_it, .timeout = 120)
{
	static const char named[] =
		"git config -f .gitmodules --rename-section submodule.d/X "
		"submodule.q.cordon-disarmed/foo && git config -f .gitmodules "
		"submodule.q.cordon-disarmed/foo.fetchRecurseSubmodules true; echo rename $?\n";
	for (int ctl = 1; ctl >= 0; ctl--) {
		struct world w;
		uninit_world(&w, who, ctl ? "gmlinkc" : "gmlinkq", false);
		char *step = fmt("%smkdir -p .git/modules && ln -s ../objects .git/modules/%s; "
				 "echo link $?\nNAME=%s/foo\n" PLANT_MODULE_GIT_DIR,
				 named, ctl ? "q.cordon-disarmed" : "q",
				 ctl ? "q.cordon-disarmed" : "q");
		const char *const steps[] = {step, NULL};
		bool ran = module_plant_ran_after(&w, "link", "q.cordon-disarmed/foo", steps, ctl,
						  fetch_outside);
		if (ctl)
			cr_assert(ran, "control: the plant through the link did not run");
		else
			cr_expect(!ran, "the plant through the link moved aside ran outside");
		free(step);
		world_free(&w);
	}
}

/* Ways a session leads git fetch outside, by a submodule's name, to a
 * git dir the end must judge: .git/modules/q a .git file naming .git/foo
 * (round 49f H1: .git/foo was never walked), or a link to it (49e N3:
 * moved aside beside it, q.cordon-disarmed, still in modules/); a link to
 * where a git dir is moved out, which already holds a HEAD.cordon-disarmed
 * (N1: its HEAD stayed); .git/cordon-disarmed made unwritable first (N5:
 * the git dir stayed beside its name); and a later session putting the
 * HEAD back there (49f H3, 49e N2: never walked). Each control lays the
 * same where no session's end moves it (no guard). */
BOTH_USERS(guards, a_git_dir_led_to_from_dot_git_modules_is_judged, .timeout = 180)
{
#define FETCHED(name)                                                                              \
	"git config -f .gitmodules --rename-section submodule.d/X submodule." name " && "          \
	"git config -f .gitmodules submodule." name ".fetchRecurseSubmodules true; "               \
	"echo rename $?\n"
	static const struct {
		const char *what, *name, *deny[3], *ctl;
	} ways[] = {
		{"a .git file",
		 "q",
		 {FETCHED("q") "NAME=../foo\n" PLANT_MODULE_GIT_DIR
			       "printf 'gitdir: ../foo\\n' > .git/modules/q; echo gitfile $?\n"},
		 FETCHED("q") "NAME=../foo\n" PLANT_MODULE_GIT_DIR
			      "printf 'gitdir: ../foo\\n' > .git/modules/q; echo gitfile $?\n"},
		{"a link",
		 "q.cordon-disarmed",
		 {FETCHED("q.cordon-disarmed") "NAME=../foo\n" PLANT_MODULE_GIT_DIR
					       "ln -s ../foo .git/modules/q; echo link $?\n"},
		 FETCHED("q.cordon-disarmed") "NAME=../foo\n" PLANT_MODULE_GIT_DIR
					      "ln -s ../foo .git/modules/q.cordon-disarmed; echo link $?\n"},
		{"a HEAD.cordon-disarmed laid first",
		 "q.cordon-disarmed",
		 {FETCHED(
			 "q.cordon-disarmed") "NAME=d/Z\n" PLANT_MODULE_GIT_DIR
					      "touch .git/modules/d/Z/HEAD.cordon-disarmed && "
					      "ln -s '../cordon-disarmed/modules!d!Z.cordon-disarmed' "
					      ".git/modules/q; echo link $?\n"},
		 FETCHED("q.cordon-disarmed") "NAME=d/Z\n" PLANT_MODULE_GIT_DIR
					      "ln -s d/Z .git/modules/q.cordon-disarmed; echo link $?\n"},
		{"an unwritable .git/cordon-disarmed",
		 "d/Z.cordon-disarmed",
		 {FETCHED("d/Z.cordon-disarmed") "mkdir -m 500 .git/cordon-disarmed; "
						 "NAME=d/Z\n" PLANT_MODULE_GIT_DIR},
		 FETCHED("d/Z.cordon-disarmed") PLANT_MODULE_GIT_DIR},
		{"its HEAD put back by a later session",
		 "q",
		 {FETCHED("q") "NAME=d/Z\n" PLANT_MODULE_GIT_DIR,
		  "cd '.git/cordon-disarmed/modules!d!Z.cordon-disarmed' && mv HEAD.cordon-disarmed "
		  "HEAD; echo head $?; cd - >/dev/null && printf 'gitdir: "
		  "../cordon-disarmed/modules!d!Z.cordon-disarmed\\n' > .git/modules/q; echo "
		  "gitfile $?\n"},
		 FETCHED("q") "NAME=q\n" PLANT_MODULE_GIT_DIR},
	};
#undef FETCHED
	for (size_t k = 0; k < sizeof(ways) / sizeof(ways[0]); k++)
		for (int ctl = 1; ctl >= 0; ctl--) {
			struct world w;
			uninit_world(&w, who, ctl ? "gmledc" : "gmled", false);
			const char *const ctl_steps[] = {ways[k].ctl, NULL};
			const char *const *steps = ctl ? ctl_steps : ways[k].deny;
			bool ran = module_plant_ran_after(&w, "led", ways[k].name, steps, ctl,
							  fetch_outside);
			if (ctl)
				cr_assert(ran, "control (%s): the plant did not run", ways[k].what);
			else
				cr_expect(!ran, "%s: the plant ran at git fetch outside",
					  ways[k].what);
			world_free(&w);
		}
}

/* A .git file the guards keep (gitlink n's, n/.git), led elsewhere by a
 * link on the way its gitdir: line names, laid again by a later session
 * (round 49h H1: "gitdir: ../a/g", a -> a git dir planted where no walk
 * goes, the session's history directory; H2: "../a/b/../../sub/g.cordon-disarmed", a/b made a link into a
 * directory where that session's plant, q/sub/g, was moved aside, its HEAD
 * kept; 49i I1: there a git dir whose config is a link to the project's
 * own, kept, and whose commondir is armed; 50a F2: the store armed by
 * the session before, all its files older than the session that lays the
 * link, and the same for a .git file no guard keeps, no gitlink's). git
 * status outside runs nothing. Control: no guard. */
BOTH_USERS(guards, a_kept_git_file_led_elsewhere_runs_nothing, .timeout = 120)
{
#define BARE(d) "git init -q --bare " d " && git -C " d " config core.bare false && "
#define GITLINK "git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),n && "
	static const struct {
		const char *what, *first, *then, *then_ctl;
		bool pause;  /* (between the sessions: the plant older than the second) */
		bool unread; /* (the record, as the second started, past a bound) */
	} ways[] = {
		{"a store armed before, the record made too large to read",
		 "mkdir -p real1 n && " BARE(
			 "real1/g") "ln -s real1 l && "
				    "echo 'gitdir: ../l/g' > n/.git && "
				    "H=$CORDON_HISTORY_DIR && " BARE(
					    "$H/g") "fsmon >> $H/g/config; echo one $?\n",
		 "rm l && ln -s \"$CORDON_HISTORY_DIR\" l; echo two $?\n", NULL, true, true},
		{"a commondir led elsewhere through a link laid again",
		 "H=$CORDON_HISTORY_DIR && mkdir -p n \"$H/gg/g\" && for d in A B; do "
		 "git init -q --bare \"$H/$d/c\" && git -C \"$H/$d/c\" fetch -q \"$PWD\" main:main && "
		 "git -C \"$H/$d/c\" config core.bare false || exit 1; done && "
		 "fsmon >> \"$H/B/c/config\" && ln -s A \"$H/x\" && "
		 "echo 'ref: refs/heads/main' > \"$H/gg/g/HEAD\" && echo ../../x/c > \"$H/gg/g/commondir\" && "
		 "printf 'gitdir: %s/gg/g\\n' \"$H\" > n/.git && git -C n reset -q main -- . ; "
		 "echo one $?\n",
		 "ln -sfn B \"$CORDON_HISTORY_DIR/x\"; echo two $?\n", NULL, true, false},
		{"a store armed before, a link on the way laid again",
		 "mkdir -p real1 n && " BARE(
			 "real1/g") "ln -s real1 l && "
				    "echo 'gitdir: ../l/g' > n/.git && " GITLINK
				    "H=$CORDON_HISTORY_DIR && " BARE(
					    "$H/g") "fsmon >> $H/g/config; echo one $?\n",
		 "rm l && ln -s \"$CORDON_HISTORY_DIR\" l; echo two $?\n", NULL, true, false},
		{"a .git file no guard keeps, a link on the way laid again",
		 "mkdir -p real1 n && " BARE(
			 "real1/g") "ln -s real1 l && "
				    "echo 'gitdir: ../l/g' > n/.git && "
				    "H=$CORDON_HISTORY_DIR && " BARE(
					    "$H/g") "fsmon >> $H/g/config; echo one $?\n",
		 "rm l && ln -s \"$CORDON_HISTORY_DIR\" l; echo two $?\n", NULL, true, false},
		{"a link on the way laid again",
		 "mkdir -p real1 n && " BARE("real1/g") "ln -s real1 l && "
							"echo 'gitdir: ../l/g' > n/.git && " GITLINK
							"echo one $?\n",
		 "H=$CORDON_HISTORY_DIR && " BARE("$H/g") "fsmon >> $H/g/config && rm l && "
							  "ln -s \"$H\" l; echo two $?\n",
		 NULL, false, false},
		{"a repository moved aside where the link leads",
		 "mkdir -p l/b sub n && " BARE(
			 "sub/g.cordon-disarmed") "echo 'gitdir: ../l/b/../../sub/g.cordon-disarmed' > n/.git && " GITLINK
						  "echo one $?\n",
		 "mkdir -p q/x/y q/sub && " BARE(
			 "q/sub/g") "fsmon >> q/sub/g/config && "
				    "rmdir l/b && ln -s ../q/x/y l/b; echo two $?\n",
		 /* (No end moves it there: laid at that name.) */
		 "mkdir -p q/x/y q/sub && " BARE(
			 "q/sub/g.cordon-disarmed") "fsmon >> "
						    "q/sub/g.cordon-disarmed/config && rmdir l/b && ln -s ../q/x/y l/b; echo two "
						    "$?\n",
		 false, false},
		{"a config linked to a kept one, its commondir armed",
		 "mkdir -p real1 n && " BARE("real1/g") "ln -s real1 l && "
							"echo 'gitdir: ../l/g' > n/.git && " GITLINK
							"echo one $?\n",
		 "H=$CORDON_HISTORY_DIR && mkdir -p \"$H/g\" && " BARE(
			 "$H/c") "fsmon >> $H/c/config && echo 'ref: refs/heads/main' > \"$H/g/HEAD\" && "
				 "echo ../c > \"$H/g/commondir\" && ln -s \"$PWD/.git/config\" \"$H/g/config\" && "
				 "rm l && ln -s \"$H\" l; echo two $?\n",
		 NULL, false, false},
	};
#undef BARE
#undef GITLINK
	for (size_t k = 0; k < sizeof(ways) / sizeof(ways[0]); k++)
		for (int ctl = 1; ctl >= 0; ctl--) {
			struct world w;
			git_world(&w, who, ctl ? "gkeptc" : "gkept");
			if (ctl)
				set_config(&w, ", \"protected_paths\": []");
			const char *tag = ctl ? "ctl" : "deny";
			const char *steps[] = {ways[k].first, ctl && ways[k].then_ctl
								      ? ways[k].then_ctl
								      : ways[k].then};
			for (size_t i = 0; i < 2; i++) {
				if (i && ways[k].pause)
					let_time_pass();
				/* (As round 50d F1 made it past 256 MiB.) */
				if (i && ways[k].unread)
					world_setenv(&w, "CORDON_TEST_RECORD_MAX=16");
				char *script = plant(&w, tag, "", steps[i]);
				struct run_result r = sh_in(&w, NULL, "%s", script);
				world_setenv(&w, "CORDON_TEST_RECORD_MAX=");
				cr_assert(strstr(r.out, i ? "two 0" : "one 0"),
					  "%s %zu: the session could not: %s%s", ways[k].what, i,
					  r.out, r.err);
				run_free(&r);
				free(script);
			}
			struct run_result r =
				sh_outside(&w, "git -C n status >/dev/null 2>&1; true");
			run_free(&r);
			if (ctl)
				cr_assert(marked(&w, tag, "fsmonitor"),
					  "control (%s): it did not run", ways[k].what);
			else
				cr_expect(!marked(&w, tag, "fsmonitor"), "%s: it ran outside",
					  ways[k].what);
			world_free(&w);
		}
}

/* Round 50d N1: a repository of the user's whose .git file leads out of
 * the project (git init --separate-git-dir), its git dir holding a hook:
 * sessions that change nothing leave it where it is, each end finding it
 * leads where it led (a keyed hash made every end take it for re-pointed,
 * and moved the user's .git aside). Control: the hook is one git runs. */
BOTH_USERS(guards, a_git_file_that_leads_where_it_led_stays, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gstays");
	char *gitdir = at(w.outside, "vgit");
	struct run_result r = outside(
		&w,
		"git init -q --separate-git-dir '%s' v && "
		"printf '#!/bin/sh\\ntouch \"%s/hook-ran\"\\n' > '%s/hooks/post-checkout' && "
		"chmod +x '%s/hooks/post-checkout' && git -C v commit -q --allow-empty -m x",
		gitdir, w.outside, gitdir, gitdir);
	cr_assert_eq(r.status, 0, "setup: %s", r.err);
	run_free(&r);
	for (int i = 0; i < 3; i++) {
		let_time_pass();
		r = sh_in(&w, NULL, "true");
		cr_expect(present(w.proj, "v/.git") && !present(w.proj, "v/.git.cordon-disarmed"),
			  "session %d moved the user's .git aside: %s", i, r.err);
		run_free(&r);
	}
	r = sh_outside(&w, "git -C v checkout -q -b side; true");
	run_free(&r);
	char *ran = at(w.outside, "hook-ran");
	cr_assert(file_exists(ran), "control: the hook is none git runs");
	free(ran);
	free(gitdir);
	world_free(&w);
}

/* STEPS, two sessions in a git world (TAG; SETUP run outside first, may
 * be NULL), the first's plant older than the second's start, then
 * OUTSIDE run outside: the hook or monitor MARK did not run. Control: the
 * same with no guard (protected_paths []), where it runs. */
static void two_sessions(const struct who *who, const char *tag, const char *setup,
			 const char *const steps[2], const char *outside_cmd, const char *mark)
{
	for (int ctl = 1; ctl >= 0; ctl--) {
		struct world w;
		char *wtag = fmt("%s%s", tag, ctl ? "c" : "");
		git_world(&w, who, wtag);
		free(wtag);
		struct run_result r;
		if (setup) {
			r = sh_outside(&w, setup);
			run_free(&r);
		}
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		const char *ptag = ctl ? "ctl" : "deny";
		char *diag = NULL;
		for (size_t i = 0; i < 2; i++) {
			if (i)
				let_time_pass();
			char *script = plant(&w, ptag, "", steps[i]);
			r = sh_in(&w, NULL, "%s", script);
			cr_assert(strstr(r.out, i ? "two 0" : "one 0"),
				  "%zu: the session could not: %s%s", i, r.out, r.err);
			free(diag);
			diag = fmt("%s%s", r.out, r.err);
			run_free(&r);
			free(script);
		}
		r = sh_outside(&w, outside_cmd);
		run_free(&r);
		if (ctl)
			cr_assert(marked(&w, ptag, mark), "control: %s did not run", mark);
		else
			cr_expect(!marked(&w, ptag, mark), "%s ran outside: %s", mark, diag);
		free(diag);
		world_free(&w);
	}
}

/* Round 50h: a key git reads on its section's header line, and a
 * subsection after a tab, went unread: the file "[include] path = F" (or
 * "[includeIf<TAB>\"gitdir:/\"] path") names in the project's own
 * config, and the directory "[core] hooksPath = .githooks" names in the
 * user's ~/.gitconfig, were not guarded, and what the session wrote
 * there ran at git status or commit outside. Control: no guard.
 * The same for a value quoted mid-way (../."gitconfig"-mid) or carried
 * on by a final backslash, a hooksPath in the file GIT_CONFIG_GLOBAL
 * names, which git outside reads instead of ~/.gitconfig, and an include
 * a GIT_CONFIG_COUNT pair names (round 51). */
BOTH_USERS(guards, a_key_on_its_section_s_line_is_read, .timeout = 90)
{
	static const struct {
		const char *what, *config, *global, *plant, *outside, *mark;
		bool named; /* (GLOBAL in the file GIT_CONFIG_GLOBAL names; with
			     * no GLOBAL, an include GIT_CONFIG_COUNT's pair names) */
	} ways[] = {
		{"an include on its header's line", "[include] path = ../.gitconfig-project\n",
		 NULL, "fsmon > .gitconfig-project; echo one $?\n",
		 "git status >/dev/null 2>&1; true", "fsmonitor", false},
		{"an includeIf after a tab",
		 "[includeIf\t\"gitdir:/\"]\n\tpath = ../.gitconfig-tab\n", NULL,
		 "fsmon > .gitconfig-tab; echo one $?\n", "git status >/dev/null 2>&1; true",
		 "fsmonitor", false},
		{"a hooksPath on its header's line", NULL, "[core] hooksPath = .githooks\n",
		 "mkdir -p .githooks && hook pre-commit > .githooks/pre-commit && "
		 "chmod +x .githooks/pre-commit; echo one $?\n",
		 "git commit -q --allow-empty -m x >/dev/null 2>&1; true", "pre-commit", false},
		/* (Round 51: one reader, with git's rules, for the rest.) */
		{"an include quoted mid-way", "[include]\n\tpath = ../.\"gitconfig\"-mid\n", NULL,
		 "fsmon > .gitconfig-mid; echo one $?\n", "git status >/dev/null 2>&1; true",
		 "fsmonitor", false},
		{"an include a backslash carries on",
		 "[include]\n\tpath = ../.gitconfig\\\n-cont\n", NULL,
		 "fsmon > .gitconfig-cont; echo one $?\n", "git status >/dev/null 2>&1; true",
		 "fsmonitor", false},
		{"a hooksPath a backslash carries on", NULL,
		 "[core]\n\thooksPath = .git\\\nhooks2\n",
		 "mkdir -p .githooks2 && hook pre-commit > .githooks2/pre-commit && "
		 "chmod +x .githooks2/pre-commit; echo one $?\n",
		 "git commit -q --allow-empty -m x >/dev/null 2>&1; true", "pre-commit", false},
		{"a hooksPath in the file GIT_CONFIG_GLOBAL names", NULL,
		 "[user]\n\tname = t\n\temail = t@example.com\n[core]\n\thooksPath = .githooks3\n",
		 "mkdir -p .githooks3 && hook pre-commit > .githooks3/pre-commit && "
		 "chmod +x .githooks3/pre-commit; echo one $?\n",
		 "git commit -q --allow-empty -m x >/dev/null 2>&1; true", "pre-commit", true},
		{"an include GIT_CONFIG_COUNT's pair names", NULL, NULL,
		 "fsmon > .gitconfig-env; echo one $?\n", "git status >/dev/null 2>&1; true",
		 "fsmonitor", true},
	};
	for (size_t k = 0; k < sizeof(ways) / sizeof(ways[0]); k++)
		for (int ctl = 1; ctl >= 0; ctl--) {
			struct world w;
			git_world(&w, who, ctl ? "ghdrc" : "ghdr");
			if (ways[k].config) {
				char *cfg = at(w.proj, ".git/config");
				FILE *f = fopen(cfg, "a");
				cr_assert_not_null(f);
				fputs(ways[k].config, f);
				cr_assert_eq(fclose(f), 0);
				free(cfg);
			}
			if (ways[k].global) {
				char *cfg = at(w.home,
					       ways[k].named ? "named.gitconfig" : ".gitconfig");
				if (ways[k].named) {
					char *kv = fmt("GIT_CONFIG_GLOBAL=%s", cfg);
					world_setenv(&w, kv);
					free(kv);
				}
				FILE *f = fopen(cfg, "a");
				cr_assert_not_null(f);
				fputs(ways[k].global, f);
				cr_assert_eq(fclose(f), 0);
				free(cfg);
			}
			if (ways[k].named && !ways[k].global) {
				char *kv = fmt("GIT_CONFIG_VALUE_0=%s/.gitconfig-env", w.proj);
				world_setenv(&w, "GIT_CONFIG_COUNT=1");
				world_setenv(&w, "GIT_CONFIG_KEY_0=include.path");
				world_setenv(&w, kv);
				free(kv);
			}
			if (ctl)
				set_config(&w, ", \"protected_paths\": []");
			const char *tag = ctl ? "ctl" : "deny";
			char *script = plant(&w, tag, "", ways[k].plant);
			struct run_result r = sh_in(&w, NULL, "%s", script);
			free(script);
			char *diag = fmt("%s%s", r.out, r.err);
			if (ctl)
				cr_assert(strstr(r.out, "one 0"), "control (%s): not planted: %s",
					  ways[k].what, diag);
			run_free(&r);
			r = sh_outside(&w, ways[k].outside);
			run_free(&r);
			if (ctl)
				cr_assert(marked(&w, tag, ways[k].mark),
					  "control (%s): it did not run", ways[k].what);
			else
				cr_expect(!marked(&w, tag, ways[k].mark), "%s: it ran outside: %s",
					  ways[k].what, diag);
			free(diag);
			world_free(&w);
		}
}

/* Round 50g F1: a repository a session makes, its core.worktree a
 * directory in the history directory (which no walk goes into) whose .git
 * file names that very git dir (so the key was harmless), holding a
 * submodule whose core.fsmonitor is armed: git status outside, in the
 * repository, went into the submodule and ran it. Control: no guard. */
BOTH_USERS(guards, a_worktree_where_no_end_walks_runs_nothing, .timeout = 60)
{
	for (int ctl = 1; ctl >= 0; ctl--) {
		struct world w;
		git_world(&w, who, ctl ? "gwtfarc" : "gwtfar");
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		const char *tag = ctl ? "ctl" : "deny";
		char *script = plant(
			&w, tag, "",
			"H=$CORDON_HISTORY_DIR && git init -q n && (cd n && echo y > g && git add g && "
			"git commit -qm n) && mkdir -p \"$H/wt\" && "
			"printf 'gitdir: %s\\n' \"$(cd n/.git && pwd -P)\" > \"$H/wt/.git\" && "
			"git init -q \"$H/wt/sub\" && (cd \"$H/wt/sub\" && echo s > s && git add s && "
			"git commit -qm s) && fsmon >> \"$H/wt/sub/.git/config\" && "
			"git -C n config core.worktree \"$H/wt\" && git -C n add -A && "
			"git -C n commit -qm wt; echo one $?\n");
		struct run_result r = sh_in(&w, NULL, "%s", script);
		free(script);
		cr_assert(strstr(r.out, "one 0"), "the session could not: %s%s", r.out, r.err);
		char *diag = fmt("%s%s", r.out, r.err);
		run_free(&r);
		r = sh_outside(&w, "git -C n status >/dev/null 2>&1; true");
		run_free(&r);
		if (ctl)
			cr_assert(marked(&w, tag, "fsmonitor"), "control: it did not run");
		else
			cr_expect(!marked(&w, tag, "fsmonitor"), "it ran outside: %s", diag);
		free(diag);
		world_free(&w);
	}
}

/* Round 50f F1: a repository one session makes, its remote a path
 * through a link in the history directory (which no walk goes into) to a
 * plain repository in the project, and beside it there a repository
 * whose pre-receive hook is armed; a later session lays the link again,
 * to that one: git push outside ran the hook. Control: no guard. */
BOTH_USERS(guards, a_remote_led_elsewhere_runs_no_hook, .timeout = 60)
{
	const char *const steps[] = {
		"H=$CORDON_HISTORY_DIR && git init -q --bare real/r && ln -s \"$PWD/real\" "
		"\"$H/l\" && git init -q --bare \"$H/B/r\" && "
		"hook pre-receive > \"$H/B/r/hooks/pre-receive\" && "
		"chmod +x \"$H/B/r/hooks/pre-receive\" && git init -q n && "
		"git -C n commit -q --allow-empty -m x && "
		"git -C n remote add origin \"$H/l/r\"; echo one $?\n",
		"ln -sfn \"$CORDON_HISTORY_DIR/B\" \"$CORDON_HISTORY_DIR/l\"; echo two $?\n"};
	two_sessions(who, "gremote", NULL, steps,
		     "git -C n push -q origin HEAD:refs/heads/main >/dev/null 2>&1; true",
		     "pre-receive");
}

/* A bare-looking store armed at "$H/STORE" (H set by PRE, a shell
 * assignment), then a link "docs" in the project laid to it: in two
 * sessions, or outside for the control (CTL); then git status outside in
 * the link. Whether its core.fsmonitor ran (TAG's marker); what the last
 * step said into *DIAG (malloc'd). */
static bool store_linked_ran(struct world *w, bool ctl, const char *tag, const char *pre,
			     const char *store, char **diag)
{
	char *steps[2] = {fmt("%s && S=\"$H/%s\" && git init -q --bare \"$S\" && "
			      "git -C \"$S\" config core.bare false && mkdir -p wt && "
			      "git -C \"$S\" config core.worktree \"$PWD/wt\" && "
			      "fsmon >> \"$S/config\"; echo one $?\n",
			      pre, store),
			  fmt("%s && ln -s \"$H/%s\" docs; echo two $?\n", pre, store)};
	*diag = strdup("");
	for (size_t i = 0; i < 2; i++) {
		if (i)
			let_time_pass();
		char *script = plant(w, tag, "", steps[i]);
		struct run_result r = ctl ? sh_outside(w, script) : sh_in(w, NULL, "%s", script);
		cr_assert(strstr(r.out, i ? "two 0" : "one 0"), "%s %zu: the steps could not: %s%s",
			  store, i, r.out, r.err);
		free(*diag);
		*diag = fmt("%s%s", r.out, r.err);
		run_free(&r);
		free(script);
		free(steps[i]);
	}
	struct run_result r =
		sh_outside(w, "cd docs 2>/dev/null && git status >/dev/null 2>&1; true");
	run_free(&r);
	return marked(w, tag, "fsmonitor");
}

/* Round 51a F1: a git dir armed in the history directory (a store below
 * it, or the directory itself), which no end walked, and a link laid in
 * the project to it by a later session: git status outside, in the link
 * (cd docs), took the directory for a bare repository and ran its
 * core.fsmonitor. Control: the same steps outside, in a directory of the
 * world. */
BOTH_USERS(guards, a_git_dir_armed_in_the_history_dir_runs_nothing, .timeout = 90)
{
	static const char *const stores[] = {"st", "."};
	for (size_t k = 0; k < sizeof(stores) / sizeof(stores[0]); k++)
		for (int ctl = 1; ctl >= 0; ctl--) {
			struct world w;
			git_world(&w, who, ctl ? "ghistc" : "ghist");
			const char *tag = ctl ? "ctl" : "deny";
			char *h = ctl ? fmt("H=%s/hist && mkdir -p \"$H\"", w.outside)
				      : strdup("H=$CORDON_HISTORY_DIR");
			char *diag;
			bool ran = store_linked_ran(&w, ctl, tag, h, stores[k], &diag);
			if (ctl)
				cr_assert(ran, "control (%s): it did not run", stores[k]);
			else
				cr_expect(!ran, "%s: it ran outside: %s", stores[k], diag);
			free(diag);
			free(h);
			world_free(&w);
		}
}

/* Round 51c F1: the same in the runtime directory (/run/user/UID), read
 * and write inside and walked by no end: a store armed there, a link in
 * the project laid to it by a later session, and git status outside in
 * the link ran its core.fsmonitor. Control: the same steps outside. */
BOTH_USERS(guards, a_git_dir_armed_in_the_runtime_dir_runs_nothing, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir rd;
	runtime_dir_make(&rd, uid, gid);
	for (int ctl = 1; ctl >= 0; ctl--) {
		struct world w;
		git_world(&w, who, ctl ? "grunc" : "grun");
		/* (Read and write as the default config has it.) */
		FILE *f = fopen(w.cfg, "w");
		cr_assert_not_null(f);
		fprintf(f,
			"{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/tty\", "
			"\"/dev/ptmx\", \"/dev/urandom\", \"/dev/zero\", \"%s\"]}}",
			rd.path);
		cr_assert_eq(fclose(f), 0);
		const char *tag = ctl ? "ctl" : "deny";
		char *store = fmt("cordon-test-store-%d-%d", (int)getpid(), ctl);
		char *h = fmt("H='%s'", rd.path), *diag;
		bool ran = store_linked_ran(&w, ctl, tag, h, store, &diag);
		char *rm = fmt("rm -rf '%s/%s' '%s/%s'.cordon-disarmed*", rd.path, store, rd.path,
			       store);
		struct run_result r = sh_outside(&w, rm);
		run_free(&r);
		free(rm);
		if (ctl)
			cr_assert(ran, "control: it did not run");
		else
			cr_expect(!ran, "it ran outside: %s", diag);
		free(diag);
		free(h);
		free(store);
		world_free(&w);
	}
	runtime_dir_free(&rd);
}

/* Round 51e F1: the same in a toolchain's cache (~/.npm with the node
 * preset), read and write inside, too big for an end to walk: a link laid
 * in the project to a directory no end walks, where the session could
 * write, is moved aside as the session ends. Control: the same steps
 * outside. */
BOTH_USERS(guards, a_link_laid_to_where_no_end_walks_runs_nothing, .timeout = 90)
{
	for (int ctl = 1; ctl >= 0; ctl--) {
		struct world w;
		git_world(&w, who, ctl ? "gcachec" : "gcache");
		set_config(&w, ", \"toolchains\": [\"node\"]");
		const char *tag = ctl ? "ctl" : "deny";
		char *diag;
		bool ran = store_linked_ran(&w, ctl, tag, "H=\"$HOME/.npm/x\" && mkdir -p \"$H\"",
					    "st", &diag);
		if (ctl)
			cr_assert(ran, "control: it did not run");
		else
			cr_expect(!ran, "it ran outside: %s", diag);
		free(diag);
		world_free(&w);
	}
}

/* Round 51g F1: the same through a link of the user's made before the
 * session (cache -> ~/.npm/x): the session lays no link, only arms a
 * store below where it leads, and git status outside in cache/st ran its
 * core.fsmonitor. Control: the store armed outside. */
BOTH_USERS(guards, a_store_behind_an_old_link_runs_nothing, .timeout = 60)
{
	for (int ctl = 1; ctl >= 0; ctl--) {
		struct world w;
		git_world(&w, who, ctl ? "goldlc" : "goldl");
		set_config(&w, ", \"toolchains\": [\"node\"]");
		struct run_result r =
			outside(&w, "mkdir -p \"$HOME/.npm/x\" && ln -s \"$HOME/.npm/x\" cache");
		run_free(&r);
		let_time_pass();
		const char *tag = ctl ? "ctl" : "deny";
		char *script = plant(&w, tag, "",
				     "S=\"$HOME/.npm/x/st\" && git init -q --bare \"$S\" && "
				     "git -C \"$S\" config core.bare false && mkdir -p wt && "
				     "git -C \"$S\" config core.worktree \"$PWD/wt\" && "
				     "fsmon >> \"$S/config\"; echo one $?\n");
		r = ctl ? sh_outside(&w, script) : sh_in(&w, NULL, "%s", script);
		cr_assert(strstr(r.out, "one 0"), "the steps could not: %s%s", r.out, r.err);
		char *diag = fmt("%s%s", r.out, r.err);
		run_free(&r);
		free(script);
		r = sh_outside(&w, "cd cache/st 2>/dev/null && git status >/dev/null 2>&1; true");
		run_free(&r);
		if (ctl)
			cr_assert(marked(&w, tag, "fsmonitor"), "control: it did not run");
		else
			cr_expect(!marked(&w, tag, "fsmonitor"), "it ran outside: %s", diag);
		free(diag);
		world_free(&w);
	}
}

/* A config directory an earlier launch had as XDG_CONFIG_HOME whose
 * git/config sets core.hooksPath (.githooks, in each repository; and an
 * absolute directory in the project): a launch without the variable read
 * no such config, left both writable, and git commit outside, with the
 * variable, ran the hook the session wrote. Judged from outside: the
 * marker the hook would touch. Control: the same hooks written outside
 * run at that commit. */
BOTH_USERS(guards, hooks_a_known_config_directory_names_run_nothing, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "knownhooks", "");
	char *cfg = path_join(w.home, "cfg");
	char *gitcfg = fmt("[user]\n\temail = t@example.com\n\tname = t\n"
			   "[core]\n\thooksPath = %s/abshooks\n"
			   "[include]\n\tpath = rel.inc\n",
			   w.proj);
	free(write_file(cfg, "git/config", gitcfg));
	free(write_file(cfg, "git/rel.inc", "[core]\n\thooksPath = .githooks\n"));
	free(write_file(cfg, "fish/config.fish", "\n"));
	free(write_file(w.proj, ".githooks/README", "hooks\n"));
	free(write_file(w.proj, "abshooks/README", "hooks\n"));
	world_give(&w);
	char *xdg = fmt("XDG_CONFIG_HOME=%s", cfg);
	char *ran = path_join(w.dir, "hook-ran");
	char *hooks =
		fmt("for d in .githooks abshooks; do "
		    "printf '#!/bin/sh\\ntouch %s\\n' > $d/pre-commit && "
		    "chmod +x $d/pre-commit && echo wrote-$d; done 2>/dev/null; echo ran-$((2+3))",
		    ran);
	char *commit = fmt("cd %s && %s git commit -q --allow-empty -m x >/dev/null 2>&1; true",
			   w.proj, xdg);
	/* (And a repository made inside, judged as the session ends: its
	 * .githooks is hooks to git outside with the variable.) */
	char *ran_sub = path_join(w.dir, "sub-hook-ran");
	char *sub = fmt("git init -q %1$s/sub && mkdir -p %1$s/sub/.githooks && "
			"printf '#!/bin/sh\\ntouch %2$s\\n' > %1$s/sub/.githooks/pre-commit && "
			"chmod +x %1$s/sub/.githooks/pre-commit; echo sub-$?",
			w.proj, ran_sub);
	char *commit_sub = fmt("cd %s/sub && %s git commit -q --allow-empty -m x >/dev/null 2>&1; "
			       "true",
			       w.proj, xdg);
	char *init = fmt("git init -q %s", w.proj);
	struct run_result r = sh_outside(&w, init);
	run_free(&r);

	world_xdg_notes_apart(&w, who);
	world_setenv(&w, xdg);
	r = sh_in_dir(&w, w.home, "true");
	run_free(&r);
	world_setenv(&w, "XDG_CONFIG_HOME=");
	r = sh_in(&w, "", "%s", hooks);
	cr_expect(strstr(r.out, "ran-5"), "the command did not run: %s", r.err);
	cr_expect_null(strstr(r.out, "wrote-"), "a hooks directory was written: %s", r.out);
	run_free(&r);
	r = sh_outside(&w, commit);
	run_free(&r);
	cr_expect_not(file_exists(ran), "git commit outside ran the session's hook");
	r = sh_in(&w, "", "%s", sub);
	cr_expect(strstr(r.out, "sub-0"), "the repository was not made inside: %s", r.err);
	run_free(&r);
	r = sh_outside(&w, commit_sub);
	run_free(&r);
	cr_expect_not(file_exists(ran_sub), "git commit outside ran the new repository's hook");

	/* Control: written outside, the hooks run at that commit. */
	r = sh_outside(&w, hooks);
	cr_expect(strstr(r.out, "wrote-.githooks"), "control: not written: %s", r.err);
	run_free(&r);
	r = sh_outside(&w, commit);
	run_free(&r);
	cr_expect(file_exists(ran), "control: git commit outside ran no hook");
	r = sh_outside(&w, "rm -rf sub");
	run_free(&r);
	r = sh_outside(&w, sub);
	run_free(&r);
	r = sh_outside(&w, commit_sub);
	run_free(&r);
	cr_expect(file_exists(ran_sub), "control: the new repository's hook did not run");
	free(commit_sub), free(sub), free(ran_sub);
	free(init), free(commit), free(hooks), free(ran), free(xdg), free(gitcfg), free(cfg);
	world_free(&w);
}

/* Round 52b F1: a session made the directory holding a hidden path a
 * bare repository (HEAD, objects/, refs/, a config with core.fsmonitor);
 * its end moved the directory aside whole, hidden file and all, to
 * NAME.cordon-disarmed, which no hidden entry names, and the next session
 * read the secret there. The hidden files it holds are put back at their
 * names. Both a project-relative entry (config/master.key) and a default
 * one in the home (~/.pulumi/credentials.json, --project ~). Judged from
 * outside: where each secret lies after the end, and what the next
 * session printed. Controls: the repository is moved aside; outside, the
 * files read. */
BOTH_USERS(guards, a_hidden_file_stays_at_its_name_when_its_directory_is_moved_aside, .timeout = 90)
{
	struct world w;
	/* (And one whose way goes through a link of the user's in the moved
	 * directory, secrets/prod -> ../vault/prod: round 52g F1, the end
	 * left the link in the moved one, and the name led nowhere.) */
	world_for(&w, who, "hidmove",
		  ", \"additional_hidden_paths\": [\"config/master.key\", "
		  "\"~/.pulumi/credentials.json\", \"secrets/prod/key\"]");
	free(write_file(w.proj, "config/master.key", "RAILS-" SECRET "\n"));
	free(write_file(w.home, ".pulumi/credentials.json", "PULUMI-" SECRET "\n"));
	free(write_file(w.proj, "vault/prod/key", "VAULT-" SECRET "\n"));
	char *secrets_dir = path_join(w.proj, "secrets"), *prod = path_join(w.proj, "secrets/prod");
	cr_assert_eq(mkdir(secrets_dir, 0755), 0);
	cr_assert_eq(symlink("../vault/prod", prod), 0);
	world_give(&w);
	/* (And closed to its owner: round 52c F1, the end could not open it
	 * to put the file back.) */
	const char *plant = "for d in \"$@\"; do (cd \"$d\" && mkdir -p objects refs && "
			    "echo 'ref: refs/heads/main' > HEAD && "
			    "printf '[core]\\n\\tbare = true\\n\\tfsmonitor = true\\n' > config) "
			    "|| echo PLANT-FAILED; chmod 000 \"$d\"; done";
	char *key = path_join(w.proj, "config/master.key");
	char *cred = path_join(w.home, ".pulumi/credentials.json");
	char *cfg_dir = path_join(w.proj, "config"), *pul_dir = path_join(w.home, ".pulumi");
	char *in_proj = fmt("set -- %s %s; %s", cfg_dir, secrets_dir, plant);
	char *in_home = fmt("set -- %s; %s", pul_dir, plant);
	char *home_opt = fmt("--project %s", w.home);

	/* Control: inside, both are hidden at the start. */
	char *read_all = fmt("chmod u+rwx %s/config* %s/.pulumi* %s/secrets* 2>/dev/null; "
			     "cat %s/config*/master.key %s/.pulumi*/credentials.json "
			     "%s/secrets*/prod/key %s/vault/prod/key 2>/dev/null; "
			     "echo read-done",
			     w.proj, w.home, w.proj, w.proj, w.home, w.proj, w.proj);
	struct run_result r = sh_in(&w, "", "%s", read_all);
	cr_expect(strstr(r.out, "read-done"), "control: did not run: %s", r.err);
	cr_expect_null(strstr(r.out, SECRET), "control: a hidden file was read: %s", r.out);
	run_free(&r);

	r = sh_in(&w, "", "%s", in_proj);
	cr_expect_null(strstr(r.out, "PLANT-FAILED"), "the plant failed: %s %s", r.out, r.err);
	cr_expect(strstr(r.err, "config.cordon-disarmed"), "control: not moved aside: %s", r.err);
	run_free(&r);
	r = sh_in(&w, home_opt, "%s", in_home);
	cr_expect_null(strstr(r.out, "PLANT-FAILED"), "the plant failed: %s %s", r.out, r.err);
	cr_expect(strstr(r.err, ".pulumi.cordon-disarmed"), "control: not moved aside: %s", r.err);
	run_free(&r);

	/* Outside: the secrets at their names, none in the moved ones. */
	char *now = read_file(key);
	cr_expect(now && strstr(now, SECRET), "master.key is not at its name");
	free(now);
	now = read_file(cred);
	cr_expect(now && strstr(now, SECRET), "credentials.json is not at its name");
	free(now);
	char *moved_key = path_join(w.proj, "config.cordon-disarmed/master.key");
	char *moved_cred = path_join(w.home, ".pulumi.cordon-disarmed/credentials.json");
	cr_expect_not(file_exists(moved_key), "master.key went with its directory");
	cr_expect_not(file_exists(moved_cred), "credentials.json went with its directory");
	struct stat st;
	cr_expect(lstat(prod, &st) == 0 && S_ISLNK(st.st_mode),
		  "the link on secrets/prod/key's way is not at its name");

	/* The next sessions read neither. */
	r = sh_in(&w, "", "%s", read_all);
	cr_expect(strstr(r.out, "read-done"), "did not run: %s", r.err);
	cr_expect_null(strstr(r.out, SECRET), "the next session read a secret: %s", r.out);
	run_free(&r);
	r = sh_in(&w, home_opt, "%s", read_all);
	cr_expect(strstr(r.out, "read-done"), "did not run: %s", r.err);
	cr_expect_null(strstr(r.out, "PULUMI-"), "--project ~ read the credentials: %s", r.out);
	run_free(&r);
	sweep_forget_beneath(w.home);
	free(moved_key), free(moved_cred), free(read_all), free(home_opt), free(in_home);
	free(in_proj), free(pul_dir), free(cfg_dir), free(cred), free(key);
	free(prod), free(secrets_dir);
	world_free(&w);
}

/* Round 53c F1: a session made config/ (which holds the hidden
 * config/master.key, an entry relative to the project) a bare repository
 * and its launcher was killed; the next launch, in the directory above,
 * caught up with it and moved config/ aside whole, with the key: that
 * launch's own entry named WORLD/config/master.key, and only its own
 * list was put back. Each session's mark now holds its hidden paths.
 * Judged from outside: where the key lies, and what the next session in
 * the project read. Controls: the directory is moved aside; the plant
 * landed. */
BOTH_USERS(guards, a_hidden_file_stays_at_its_name_after_a_killed_session, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidkill", ", \"additional_hidden_paths\": [\"config/master.key\"]");
	free(write_file(w.proj, "config/master.key", "RAILS-" SECRET "\n"));
	world_give(&w);
	plant_then_kill(
		&w, "cd config && mkdir -p objects refs && "
		    "echo 'ref: refs/heads/main' > HEAD && "
		    "printf '[core]\\n\\tbare = true\\n\\tfsmonitor = true\\n' > config && cd ..");
	char *above = fmt("--project %s", w.dir);
	struct run_result r = sh_in(&w, above, "true");
	cr_expect(strstr(r.err, "config.cordon-disarmed"), "control: not moved aside: %s", r.err);
	run_free(&r);
	char *key = path_join(w.proj, "config/master.key");
	char *moved = path_join(w.proj, "config.cordon-disarmed/master.key");
	char *now = read_file(key);
	cr_expect(now && strstr(now, SECRET), "master.key is not at its name");
	free(now);
	cr_expect_not(file_exists(moved), "master.key went with its directory");
	r = sh_in(&w, "", "cat %s/config*/master.key 2>/dev/null; echo read-done", w.proj);
	cr_expect(strstr(r.out, "read-done"), "did not run: %s", r.err);
	cr_expect_null(strstr(r.out, SECRET), "the next session read the key: %s", r.out);
	run_free(&r);
	sweep_forget_beneath(w.dir);
	free(moved), free(key), free(above);
	world_free(&w);
}

/* A session in W making DIR a bare repository git outside runs a
 * program in, its launcher killed between moving DIR aside and putting
 * back the hidden paths it held (a test build's pause stands in for the
 * moment). */
static void bare_repo_end_cut_short(struct world *w, const char *dir)
{
	char *paused = at(w->outside, "paused");
	char *env = fmt("CORDON_TEST_PUTBACK_PAUSE=%s", paused);
	world_setenv(w, env);
	char *script = fmt("cd %s && mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD "
			   "&& printf '[core]\\n\\tbare = true\\n\\tfsmonitor = true\\n' > config",
			   dir);
	char *argv[] = {CORDON_BIN, "run", "--config", w->cfg, "--", "/bin/sh", "-c", script, NULL};
	pid_t pid = world_spawn(w, argv, w->proj);
	cr_assert(wait_exists(paused, 30000), "the end did not pause before the put-back");
	cr_assert_eq(kill(pid, SIGKILL), 0);
	cr_expect(wait_gone(pid, 10000), "the launcher did not go");
	world_setenv(w, "CORDON_TEST_PUTBACK_PAUSE=");
	free(script), free(env), free(paused);
}

/* Round 54h F2: the launcher killed between moving config/ aside and
 * putting back the hidden config/master.key it held (a test build's pause
 * stands in for the moment) left the key in config.cordon-disarmed, where
 * the next session read it. A record written before the move has the next
 * launch put it back before its session starts. Judged from outside:
 * where the key lies, what the next session read. Control: the kill
 * landed between the move and the put-back. */
BOTH_USERS(guards, a_put_back_cut_short_is_done_by_the_next_launch, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidcut", ", \"additional_hidden_paths\": [\"config/master.key\"]");
	free(write_file(w.proj, "config/master.key", "RAILS-" SECRET "\n"));
	world_give(&w);
	bare_repo_end_cut_short(&w, "config");
	char *key = path_join(w.proj, "config/master.key");
	char *moved = path_join(w.proj, "config.cordon-disarmed/master.key");
	cr_assert(file_exists(moved) && !file_exists(key),
		  "control: the kill did not land between the move and the put-back");
	struct run_result r =
		sh_in(&w, "", "cat %s/config*/master.key 2>/dev/null; echo read-done", w.proj);
	char *diag = fmt("next (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "read-done"), "did not run\n%s", diag);
	cr_expect_null(strstr(r.out, SECRET), "the next session read the key\n%s", diag);
	cr_expect(strstr(r.err, "was cut short"), "the put-back was not said\n%s", diag);
	char *now = read_file(key);
	cr_expect(now && strstr(now, SECRET), "master.key is not at its name\n%s", diag);
	free(now);
	cr_expect_not(file_exists(moved), "master.key stayed in the moved directory\n%s", diag);
	run_free(&r);
	sweep_forget_beneath(w.dir);
	free(diag), free(moved), free(key);
	world_free(&w);
}

#define HIDE_SECRETS ", \"additional_hidden_paths\": [\"secrets\"]"

/* W (TAG) with the user's secrets/id_key, which a session hid and was
 * killed (its mark left); the config then hides nothing. */
static void secrets_hidden_by_a_killed_session(struct world *w, const struct who *who,
					       const char *tag)
{
	world_for(w, who, tag, HIDE_SECRETS);
	free(write_file(w->proj, "secrets/id_key", "KEY-" SECRET "\n"));
	world_give(w);
	plant_then_kill(w, "true");
	set_config(w, "");
}

/* Round 57b F2 cut short (from the code): the hidden path is the
 * directory moved aside itself (session A hid secrets and was killed; B,
 * which does not hide it, made it a bare repository), and B's launcher
 * was killed before the put-back: the record held no entry for it, and
 * the key stayed in secrets.cordon-disarmed, which the next session
 * hiding secrets read. Judged from outside: where the key lies, what the
 * next session read. Control: the kill landed between the two steps. */
BOTH_USERS(guards, a_hidden_directory_moved_aside_is_put_back_after_a_cut, .timeout = 90)
{
	struct world w;
	secrets_hidden_by_a_killed_session(&w, who, "hidselfcut");
	bare_repo_end_cut_short(&w, "secrets");
	char *key = at(w.proj, "secrets/id_key");
	char *moved = at(w.proj, "secrets.cordon-disarmed/id_key");
	cr_assert(file_exists(moved) && !file_exists(key),
		  "control: the kill did not land between the move and the put-back");
	set_config(&w, HIDE_SECRETS);
	struct run_result r = sh_in(&w, NULL, "cat secrets*/id_key 2>/dev/null; echo read-done");
	char *diag = fmt("next (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "read-done"), "did not run\n%s", diag);
	cr_expect_null(strstr(r.out, SECRET), "the next session read the key\n%s", diag);
	cr_expect(strstr(r.err, "was cut short"), "the put-back was not said\n%s", diag);
	run_free(&r);
	char *now = read_file(key);
	cr_expect(now && strstr(now, SECRET), "the key is not at its name\n%s", diag);
	free(now);
	cr_expect_not(file_exists(moved), "the key stayed in the moved directory\n%s", diag);
	sweep_forget_beneath(w.dir);
	free(diag), free(moved), free(key);
	world_free(&w);
}

/* hg status outside in W's sub runs no hook (MARK stays missing), and,
 * the control, the hgrc moved to sub/.hg.cordon-disarmed runs it in a
 * .hg of its own (DIAG: what the session said). */
static void expect_hg_plant_inert(struct world *w, const char *mark, const char *diag)
{
	struct run_result r = sh_outside(w, "cd sub && hg status >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect(!file_exists(mark), "hg status outside ran the planted hook\n%s", diag);
	r = sh_outside(w, "mkdir -p ctl/.hg && cp sub/.hg.cordon-disarmed/hgrc "
			  "sub/.hg.cordon-disarmed/requires ctl/.hg/ && cd ctl && hg status "
			  ">/dev/null 2>&1; true");
	run_free(&r);
	cr_expect(file_exists(mark), "control: hg does not run the moved hgrc's hook\n%s", diag);
}

/* Round 54h F1: session A hides kc.yaml (only A), and is killed; session
 * B, which does not hide it, makes sub/.hg with a hook and lays
 * kc.yaml -> sub/.hg/hgrc. B's end moves sub/.hg aside and, catching up
 * with A, put A's "hidden file" back in a .hg made anew: hg status ran the
 * hook. A file at a hidden name that changed while the session ran stays
 * aside now. The control: hg obeys a lone .hg/hgrc. */
BOTH_USERS(guards, another_session_s_hidden_name_puts_no_plant_back, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidhg", ", \"additional_hidden_paths\": [\"kc.yaml\"]");
	free(write_file(w.proj, "a", "a\n"));
	world_give(&w);
	plant_then_kill(&w, "true");
	set_config(&w, "");
	char *mark = at(w.outside, "hg-ran");
	char *script = fmt("mkdir -p sub/.hg && printf '[hooks]\\npre-status = touch %s\\n' > "
			   "sub/.hg/hgrc && printf 'revlogv1\\nstore\\n' > sub/.hg/requires && "
			   "ln -s %s/sub/.hg/hgrc kc.yaml; echo plant $?",
			   mark, w.proj);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
	cr_expect(strstr(r.err, "sub/.hg.cordon-disarmed"), "control: .hg not moved aside\n%s",
		  diag);
	char *hgrc = at(w.proj, "sub/.hg/hgrc");
	cr_expect(!file_exists(hgrc), "the planted hgrc was put back\n%s", diag);
	run_free(&r);
	expect_hg_plant_inert(&w, mark, diag);
	sweep_forget_beneath(w.dir);
	free(diag), free(script), free(mark), free(hgrc);
	world_free(&w);
}

/* Round 57b F1: session A hides the directory sub/.hg (the user's, with
 * an hgrc of theirs) and is killed; session B, which does not hide it,
 * adds a hook to sub/.hg/hgrc in place (the directory's change time
 * kept) and makes sub a bare repository (core.fsmonitor). B's end moved
 * sub aside and put A's hidden sub/.hg back whole, hgrc and all: hg
 * status outside ran the hook. What changed in a hidden directory stays
 * aside now; the user's other files go back. Judged outside: hg status runs no hook, the user's
 * files are at their names. Controls: the plant landed, sub was moved
 * aside, and hg obeys the hgrc left aside. */
BOTH_USERS(guards, a_hidden_directory_edited_in_place_goes_back_without_the_edit, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidtree", ", \"additional_hidden_paths\": [\"sub/.hg\"]");
	free(write_file(w.proj, "sub/.hg/hgrc", "[ui]\nusername = me\n"));
	free(write_file(w.proj, "sub/.hg/requires", "revlogv1\nstore\n"));
	free(write_file(w.proj, "sub/.hg/store/notes", "the user's\n"));
	world_give(&w);
	plant_then_kill(&w, "true");
	set_config(&w, "");
	char *mark = at(w.outside, "hg-ran");
	char *script = fmt("printf '[hooks]\\npre-status = touch %s\\n' >> sub/.hg/hgrc && cd sub "
			   "&& mkdir -p objects refs && echo 'ref: refs/heads/main' > HEAD && "
			   "printf '[core]\\n\\tbare = true\\n\\tfsmonitor = true\\n' > config; "
			   "echo plant $?",
			   mark);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
	cr_expect(strstr(r.err, "sub.cordon-disarmed"), "control: sub not moved aside\n%s", diag);
	run_free(&r);
	r = sh_outside(&w, "cd sub && hg status >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect(!file_exists(mark), "hg status outside ran the planted hook\n%s", diag);
	char *notes = at(w.proj, "sub/.hg/store/notes"), *req = at(w.proj, "sub/.hg/requires");
	cr_expect(file_exists(notes) && file_exists(req),
		  "the user's unchanged files are not at their names\n%s", diag);
	r = sh_outside(&w, "mkdir -p ctl/.hg && cp $(find sub.cordon-disarmed* "
			   "sub/.hg.cordon-disarmed* -name hgrc 2>/dev/null | head -n1) "
			   "sub/.hg/requires ctl/.hg/ && cd ctl && hg status >/dev/null 2>&1; "
			   "true");
	run_free(&r);
	cr_expect(file_exists(mark), "control: hg does not run the hgrc left aside\n%s", diag);
	sweep_forget_beneath(w.dir);
	free(diag), free(script), free(mark), free(notes), free(req);
	world_free(&w);
}

/* Round 57b F2: session A hides the directory secrets (a key in it) and
 * is killed; session B, which does not hide it, makes secrets itself a
 * bare repository. B's end moved secrets aside whole, to
 * secrets.cordon-disarmed, which no session hides: the next session that
 * hides secrets read the key there. Now the key goes back to
 * secrets/ (made anew) and only what B wrote stays aside. Judged outside:
 * where the key lies, what the next session read. Controls: the move was
 * said; the key is the user's to read outside. */
BOTH_USERS(guards, a_hidden_directory_moved_aside_leaves_its_files_hidden, .timeout = 90)
{
	struct world w;
	secrets_hidden_by_a_killed_session(&w, who, "hidself");
	/* (The directory itself goes back, its inode, owner and mode kept:
	 * round 58b F3, made anew it was the launcher's, 0700.) */
	char *dir = at(w.proj, "secrets");
	struct stat was;
	cr_assert_eq(stat(dir, &was), 0);
	char *diag = NULL;
	struct run_result r;
	for (int round = 0; round < 1; round++) {
		r = sh_in(&w, NULL,
			  "cd secrets && mkdir -p objects refs && echo 'ref: "
			  "refs/heads/main' > HEAD && printf "
			  "'[core]\\n\\tbare = true\\n\\tfsmonitor = true\\n' "
			  "> config; echo plant $?");
		free(diag);
		diag = fmt("inside, round %d (%d): %s%s", round, r.status, r.out, r.err);
		cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
		cr_expect(strstr(r.err, "secrets.cordon-disarmed"), "control: not moved aside\n%s",
			  diag);
		run_free(&r);
		struct stat now_st;
		cr_expect(stat(dir, &now_st) == 0 && now_st.st_ino == was.st_ino &&
				  now_st.st_mode == was.st_mode && now_st.st_uid == was.st_uid,
			  "secrets is not the user's directory as it was\n%s", diag);
	}
	char *key = at(w.proj, "secrets/id_key"), *cfg = at(w.proj, "secrets/config");
	char *now = read_file(key);
	cr_expect(now && strstr(now, SECRET), "the key is not at its name\n%s", diag);
	free(now);
	cr_expect(!file_exists(cfg), "the planted config came back\n%s", diag);
	free(dir);
	set_config(&w, HIDE_SECRETS);
	r = sh_in(&w, NULL, "cat secrets*/id_key 2>/dev/null; echo read-done");
	cr_expect(strstr(r.out, "read-done"), "did not run\n%s", r.err);
	cr_expect_null(strstr(r.out, SECRET), "the next session read the key: %s\n%s", r.out, diag);
	run_free(&r);
	r = sh_outside(&w, "cat secrets*/id_key");
	cr_expect(strstr(r.out, SECRET), "control: the key is not the user's to read\n%s", diag);
	run_free(&r);
	sweep_forget_beneath(w.dir);
	free(diag), free(key), free(cfg);
	world_free(&w);
}

/* Round 58b F1: session A hides secrets and runs on; B, then C, neither
 * hiding it, each make secrets a bare repository. The first put-back made
 * secrets anew, no longer the inode A had found, so C's end left it whole
 * at secrets.cordon-disarmed-*, where the next session hiding secrets
 * read the key. The user's directory itself goes back now (what changed
 * taken out of it first): after both, the key is at its name, in the same
 * directory, and the next hiding session reads nothing. Control: outside,
 * the key is the user's to read. */
BOTH_USERS(guards, a_hidden_directory_put_back_twice_stays_the_user_s, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidtwice", HIDE_SECRETS);
	free(write_file(w.proj, "secrets/id_key", "KEY-" SECRET "\n"));
	world_give(&w);
	char *dir = at(w.proj, "secrets"), *up = at(w.proj, "a-up");
	struct stat was;
	cr_assert_eq(stat(dir, &was), 0);
	char *err = path_join(w.outside, "err-a");
	pid_t a = spawn_beside(&w, "touch a-up; sleep 30", err);
	cr_assert(wait_exists(up, 15000), "A did not start");
	set_config(&w, "");
	char *diag = NULL;
	for (int round = 0; round < 2; round++) {
		struct run_result r = sh_in(&w, NULL,
					    "cd secrets && mkdir -p objects refs && echo 'ref: "
					    "refs/heads/main' > HEAD && printf "
					    "'[core]\\n\\tbare = true\\n\\tfsmonitor = true\\n' "
					    "> config; echo plant $?");
		free(diag);
		diag = fmt("round %d (%d): %s%s", round, r.status, r.out, r.err);
		cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
		cr_expect(strstr(r.err, "secrets.cordon-disarmed"), "control: not moved aside\n%s",
			  diag);
		run_free(&r);
	}
	struct stat now;
	cr_expect(stat(dir, &now) == 0 && now.st_ino == was.st_ino && now.st_mode == was.st_mode,
		  "secrets is not the user's directory as it was\n%s", diag);
	char *key = at(w.proj, "secrets/id_key"), *got = read_file(key);
	cr_expect(got && strstr(got, SECRET), "the key is not at its name\n%s", diag);
	free(got);
	set_config(&w, HIDE_SECRETS);
	struct run_result r = sh_in(&w, NULL, "cat secrets*/id_key 2>/dev/null; echo read-done");
	cr_expect(strstr(r.out, "read-done"), "did not run\n%s", r.err);
	cr_expect_null(strstr(r.out, SECRET), "the next session read the key: %s\n%s", r.out, diag);
	run_free(&r);
	r = sh_outside(&w, "cat secrets/id_key");
	cr_expect(strstr(r.out, SECRET), "control: the key is not the user's to read\n%s", diag);
	run_free(&r);
	kill(a, SIGTERM);
	int st;
	(void)waitpid(a, &st, 0);
	sweep_forget_beneath(w.dir);
	free(diag), free(key), free(dir), free(up), free(err);
	world_free(&w);
}

/* Round 54j F1: the same, past the change-time check. A first session
 * (B1) stages stash/hgrc (a hook) and lays kc.yaml -> L/hgrc, L -> stash;
 * a second later, session A, which hides kc.yaml, starts and is killed;
 * B2 moves stash into place as sub/.hg, whose files keep their old change
 * times, and lays L -> sub/.hg anew. Put back by where kc.yaml led at the
 * end, the hgrc went back into a .hg made anew. What is put back now is
 * only what the hidden name held, where it led, as A started. Judged
 * outside: hg status runs no hook. Controls: the plant landed, .hg was
 * moved aside, hg obeys a lone .hg/hgrc. */
BOTH_USERS(guards, an_old_plant_moved_under_a_hidden_name_is_not_put_back, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidmv", "");
	free(write_file(w.proj, "a", "a\n"));
	world_give(&w);
	char *mark = at(w.outside, "hg-ran");
	struct run_result r = sh_in(
		&w, NULL,
		"mkdir -p stash && printf '[hooks]\\npre-status = touch %s\\n' > stash/hgrc && "
		"printf 'revlogv1\\nstore\\n' > stash/requires && ln -s stash L && "
		"ln -s L/hgrc kc.yaml; echo stage $?",
		mark);
	char *diag = fmt("B1 (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "stage 0"), "staging failed\n%s", diag);
	run_free(&r);
	usleep(1100 * 1000); /* (the staged files' change times older than A's start) */
	set_config(&w, ", \"additional_hidden_paths\": [\"kc.yaml\"]");
	plant_then_kill(&w, "true");
	set_config(&w, "");
	r = sh_in(&w, NULL,
		  "mkdir -p sub && mv stash sub/.hg && rm L && ln -s sub/.hg L && "
		  "cat kc.yaml >/dev/null; echo plant $?");
	free(diag);
	diag = fmt("B2 (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "plant 0"), "the plant failed\n%s", diag);
	cr_expect(strstr(r.err, "sub/.hg.cordon-disarmed"), "control: .hg not moved aside\n%s",
		  diag);
	char *hgrc = at(w.proj, "sub/.hg/hgrc");
	cr_expect(!file_exists(hgrc), "the planted hgrc was put back\n%s", diag);
	run_free(&r);
	expect_hg_plant_inert(&w, mark, diag);
	sweep_forget_beneath(w.dir);
	free(diag), free(mark), free(hgrc);
	world_free(&w);
}

/* Round 56a F1: the same, with the plant made before the hiding session
 * started. B1 (which does not hide kc.yaml) makes sub/.hg with a hook and
 * lays kc.yaml -> its hgrc, then A, which hides kc.yaml, starts: A's mark
 * recorded the plant as the hidden file. B1 parks sub/.hg as stash and
 * ends; B2 moves it back and A is killed; B2's end moved sub/.hg aside
 * and put the "hidden file" back in a .hg made anew. A hidden path a
 * session with a mark may have made (changed since the earliest such
 * start, or a directory on its way in a session's root) is recorded as
 * unknown now, and nothing of it is put back. Judged outside: hg status
 * runs no hook. Controls: .hg was moved aside, hg obeys a lone hgrc. */
BOTH_USERS(guards, a_plant_made_before_the_hiding_session_is_not_put_back, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "hidpre", "");
	free(write_file(w.proj, "a", "a\n"));
	char *hide = write_file(w.dir, "hide.json",
				"{" WORLD_BASE_RW ", \"additional_hidden_paths\": [\"kc.yaml\"]}");
	chmod(hide, 0644);
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "true"); /* (the project has a record) */
	run_free(&r);
	char *mark = at(w.outside, "hg-ran");
	char *b1 = fmt("mkdir -p sub/.hg && printf '[hooks]\\npre-status = touch %s\\n' > "
		       "sub/.hg/hgrc && printf 'revlogv1\\nstore\\n' > sub/.hg/requires && "
		       "ln -s %s/sub/.hg/hgrc kc.yaml && touch b1ready; "
		       "while [ ! -e go ]; do sleep 0.05; done; mv sub/.hg stash",
		       mark, w.proj);
	char *b1v[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", b1, NULL};
	pid_t p1 = world_spawn(&w, b1v, w.proj);
	char *ready = at(w.proj, "b1ready");
	cr_assert(wait_exists(ready, 20000), "B1 did not plant");
	char *av[] = {CORDON_BIN, "run",     "--config", hide,
		      "--",       "/bin/sh", "-c",       "touch aready; exec sleep 300",
		      NULL};
	pid_t pa = world_spawn(&w, av, w.proj);
	char *aready = at(w.proj, "aready");
	cr_assert(wait_exists(aready, 20000), "A did not start");
	free(write_file(w.proj, "go", ""));
	int st;
	cr_assert_eq(waitpid(p1, &st, 0), p1);
	char *b2 = "mv stash sub/.hg && touch b2ready; while [ ! -e go2 ]; do sleep 0.05; done";
	char *b2v[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", b2, NULL};
	pid_t p2 = world_spawn(&w, b2v, w.proj);
	char *ready2 = at(w.proj, "b2ready");
	cr_assert(wait_exists(ready2, 20000), "B2 did not move the plant back");
	cr_assert_eq(kill(pa, SIGKILL), 0);
	cr_expect(wait_gone(pa, 10000), "A's launcher did not go");
	free(write_file(w.proj, "go2", ""));
	cr_assert_eq(waitpid(p2, &st, 0), p2);
	char *aside = at(w.proj, "sub/.hg.cordon-disarmed");
	char *hgrc = at(w.proj, "sub/.hg/hgrc");
	cr_expect(file_exists(aside), "control: .hg was not moved aside");
	cr_expect(!file_exists(hgrc), "the planted hgrc was put back");
	expect_hg_plant_inert(&w, mark, "");
	sweep_forget_beneath(w.dir);
	free(aside), free(hgrc), free(ready2), free(aready), free(ready), free(b1), free(mark);
	free(hide);
	world_free(&w);
}

/* Round 56c F1: the genuine hidden file changed after the hiding session
 * started. The user's sub/.hg/hgrc (a password) is hidden by A, which
 * runs; B1, which does not hide it, parks sub/.hg as stash and appends a
 * hook to the same file; B2 moves it back, and its end moved sub/.hg
 * aside and put A's "hidden file" back: the same inode, its change time
 * older than B2's start. The identity kept now holds the change time
 * too. Judged outside: hg status runs no hook. Controls: .hg was moved
 * aside, hg obeys the hgrc alone. */
BOTH_USERS(guards, a_hidden_file_changed_since_is_not_put_back, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "hidchg", "");
	char *mark = at(w.outside, "hg-ran");
	free(write_file(w.proj, "sub/.hg/hgrc", "[auth]\nx.password = " SECRET "\n"));
	free(write_file(w.proj, "sub/.hg/requires", "revlogv1\nstore\n"));
	char *hide =
		write_file(w.dir, "hide.json",
			   "{" WORLD_BASE_RW ", \"additional_hidden_paths\": [\"sub/.hg/hgrc\"]}");
	chmod(hide, 0644);
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "true"); /* (the project has a record) */
	run_free(&r);
	usleep(1100 * 1000); /* (the user's files older than every start) */
	char *av[] = {CORDON_BIN, "run",     "--config", hide,
		      "--",       "/bin/sh", "-c",       "touch aready; exec sleep 300",
		      NULL};
	pid_t pa = world_spawn(&w, av, w.proj);
	char *aready = at(w.proj, "aready");
	cr_assert(wait_exists(aready, 20000), "A did not start");
	char *b1 = fmt("mv sub/.hg stash && printf '[hooks]\\npre-status = touch %s\\n' >> "
		       "stash/hgrc; echo park $?",
		       mark);
	r = sh_in(&w, NULL, "%s", b1);
	char *diag = fmt("B1 (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "park 0"), "B1 could not park the .hg\n%s", diag);
	run_free(&r);
	r = sh_in(&w, NULL, "mv stash sub/.hg; echo back $?");
	free(diag);
	diag = fmt("B2 (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "back 0"), "B2 could not move it back\n%s", diag);
	run_free(&r);
	char *aside = at(w.proj, "sub/.hg.cordon-disarmed");
	char *hgrc = at(w.proj, "sub/.hg/hgrc");
	cr_expect(file_exists(aside), "control: .hg was not moved aside\n%s", diag);
	cr_expect(!file_exists(hgrc), "the changed hgrc was put back\n%s", diag);
	expect_hg_plant_inert(&w, mark, diag);
	cr_assert_eq(kill(pa, SIGKILL), 0);
	cr_expect(wait_gone(pa, 10000), "A's launcher did not go");
	sweep_forget_beneath(w.dir);
	free(aside), free(hgrc), free(diag), free(b1), free(aready), free(mark), free(hide);
	world_free(&w);
}

/* Round 56e F1: through a link on the hidden path's way. B0 (ended
 * before A started) lays P/.hg -> tgt, dangling; A hides sub/.hg/hgrc
 * (the user's password); B1 parks sub/.hg as real_hg and adds a planted
 * hgrc-not-shared; B2 renames real_hg to tgt, P to sub, makes sub a bare
 * repository, and A is killed: B2's end moved sub aside and put the .hg
 * link back, which led to the genuine hgrc and the plant. A link on the
 * way is put back only where what it leads to is unchanged since the
 * sweep's start. Judged outside: hg status runs no hook. Controls: sub
 * was moved aside, hg obeys a .hg link to tgt. */
BOTH_USERS(guards, a_link_on_a_hidden_path_s_way_brings_no_plant_back, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "hidlnk", "");
	char *mark = at(w.outside, "hg-ran");
	free(write_file(w.proj, "sub/.hg/hgrc", "[auth]\nx.password = " SECRET "\n"));
	free(write_file(w.proj, "sub/.hg/requires", "revlogv1\nstore\n"));
	free(write_file(w.proj, "sub/file", "w\n"));
	char *hide =
		write_file(w.dir, "hide.json",
			   "{" WORLD_BASE_RW ", \"additional_hidden_paths\": [\"sub/.hg/hgrc\"]}");
	chmod(hide, 0644);
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "mkdir P && ln -s %s/tgt P/.hg; echo b0 $?", w.proj);
	cr_assert(strstr(r.out, "b0 0"), "B0 failed: %s", r.err);
	run_free(&r);
	usleep(1100 * 1000);
	char *av[] = {CORDON_BIN, "run",     "--config", hide,
		      "--",       "/bin/sh", "-c",       "touch aready; exec sleep 300",
		      NULL};
	pid_t pa = world_spawn(&w, av, w.proj);
	char *aready = at(w.proj, "aready");
	cr_assert(wait_exists(aready, 20000), "A did not start");
	char *b1 = fmt("mv sub/.hg real_hg && printf '[hooks]\\npre-status = touch %s\\n' > "
		       "real_hg/hgrc-not-shared; echo b1 $?",
		       mark);
	r = sh_in(&w, NULL, "%s", b1);
	cr_assert(strstr(r.out, "b1 0"), "B1 failed: %s", r.err);
	run_free(&r);
	char *b2 = "touch b2ready; while [ ! -e go ]; do sleep 0.05; done; mv real_hg tgt && "
		   "mv sub wt && mv P sub && cd sub && mkdir objects refs && "
		   "echo 'ref: refs/heads/main' > HEAD && "
		   "printf '[core]\\n\\tbare = true\\n\\tfsmonitor = true\\n' > config";
	char *b2v[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", b2, NULL};
	pid_t p2 = world_spawn(&w, b2v, w.proj);
	char *ready2 = at(w.proj, "b2ready");
	cr_assert(wait_exists(ready2, 20000), "B2 did not start");
	cr_assert_eq(kill(pa, SIGKILL), 0);
	cr_expect(wait_gone(pa, 10000), "A's launcher did not go");
	free(write_file(w.proj, "go", ""));
	int st;
	cr_assert_eq(waitpid(p2, &st, 0), p2);
	char *aside = at(w.proj, "sub.cordon-disarmed");
	cr_expect(file_exists(aside), "control: sub was not moved aside");
	r = sh_outside(&w, "cd sub 2>/dev/null && hg status >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect(!file_exists(mark), "hg status outside ran the planted hook");
	r = sh_outside(&w, "mkdir -p ctl && ln -s ../tgt ctl/.hg && cd ctl && hg status "
			   ">/dev/null 2>&1; true");
	run_free(&r);
	cr_expect(file_exists(mark), "control: hg does not obey a .hg link to tgt");
	sweep_forget_beneath(w.dir);
	free(aside), free(ready2), free(b1), free(aready), free(mark), free(hide);
	world_free(&w);
}

/* Round 53e F4: the same, with the key hidden by a name through a link
 * outside the project (WORLD/lnk -> proj/config, as an HF_HOME set
 * through a link), and the launch that catches up with the killed
 * session in the project itself, with no such entry: the killed
 * session's mark held only the hidden paths lexically below its root. */
BOTH_USERS(guards, a_hidden_file_named_through_a_link_stays_after_a_killed_session, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidkln", "");
	char *entry = fmt(", \"additional_hidden_paths\": [\"%s/lnk/master.key\"]", w.dir);
	set_config(&w, entry);
	free(write_file(w.proj, "config/master.key", "RAILS-" SECRET "\n"));
	char *lnk = path_join(w.dir, "lnk"), *cfg_dir = path_join(w.proj, "config");
	cr_assert_eq(symlink(cfg_dir, lnk), 0);
	world_give(&w);
	give_links(who, (const char *const[]){lnk, NULL});
	plant_then_kill(
		&w, "cd config && mkdir -p objects refs && "
		    "echo 'ref: refs/heads/main' > HEAD && "
		    "printf '[core]\\n\\tbare = true\\n\\tfsmonitor = true\\n' > config && cd ..");
	set_config(&w, "");
	struct run_result r = sh_in(&w, NULL, "true");
	cr_expect(strstr(r.err, "config.cordon-disarmed"), "control: not moved aside: %s", r.err);
	run_free(&r);
	char *key = path_join(w.proj, "config/master.key");
	char *moved = path_join(w.proj, "config.cordon-disarmed/master.key");
	char *now = read_file(key);
	cr_expect(now && strstr(now, SECRET), "master.key is not at its name");
	free(now);
	cr_expect_not(file_exists(moved), "master.key went with its directory");
	set_config(&w, entry);
	r = sh_in(&w, NULL, "cat %s/config*/master.key 2>/dev/null; echo read-done", w.proj);
	cr_expect(strstr(r.out, "read-done"), "did not run: %s", r.err);
	cr_expect_null(strstr(r.out, SECRET), "the next session read the key: %s", r.out);
	run_free(&r);
	free(moved), free(key), free(lnk), free(cfg_dir), free(entry);
	world_free(&w);
}

/* Round 51c F2: a repository moved aside whole, its HEAD moved aside in
 * it, given a HEAD again by a later session (cp HEAD.cordon-disarmed
 * HEAD) and a link to it: its config was as the later session found it,
 * so nothing counted, and git status outside in the link ran its
 * core.fsmonitor. Control: no guard (nothing moved: the link leads to
 * the store). */
BOTH_USERS(guards, a_repository_moved_aside_given_a_head_again_runs_nothing, .timeout = 60)
{
	const char *const steps[] = {
		"mkdir -p .st wt && git init -q --bare .st/store && "
		"git -C .st/store config core.bare false && "
		"git -C .st/store config core.worktree \"$PWD/wt\" && "
		"fsmon >> .st/store/config; echo one $?\n",
		"D=$(ls -d .st/store*) && { [ ! -e \"$D/HEAD.cordon-disarmed\" ] || "
		"cp \"$D/HEAD.cordon-disarmed\" \"$D/HEAD\"; } && ln -s \"$D\" docs; echo two $?\n"};
	two_sessions(who, "grevive", NULL, steps,
		     "cd docs 2>/dev/null && git status >/dev/null 2>&1; true", "fsmonitor");
}

/* Round 51a F2: a repository the end moved aside beside itself kept its
 * HEAD, a live git dir at a name one can foresee
 * (store.cordon-disarmed): a later session laid a link to it, and git
 * status outside, in the link, ran its core.fsmonitor. Control: no
 * guard (and so nothing moved: the link leads to the store). */
BOTH_USERS(guards, a_repository_moved_aside_beside_itself_is_no_git_dir, .timeout = 60)
{
	const char *const steps[] = {"mkdir -p .st wt && git init -q --bare .st/store && "
				     "git -C .st/store config core.bare false && "
				     "git -C .st/store config core.worktree \"$PWD/wt\" && "
				     "fsmon >> .st/store/config; echo one $?\n",
				     "ln -s .st/store* docs; echo two $?\n"};
	two_sessions(who, "gbeside", NULL, steps,
		     "cd docs 2>/dev/null && git status >/dev/null 2>&1; true", "fsmonitor");
}

/* A bare repository one session plants with a HEAD git rejects (so no
 * git dir, and nothing of it judged), its reference-transaction hook
 * armed; a later session writes the HEAD in place, which changes nothing
 * in its directory: git outside, in it, ran the hook at a branch made
 * there. Control: no guard. */
BOTH_USERS(guards, a_directory_made_a_git_dir_later_is_judged_whole, .timeout = 60)
{
	const char *const steps[] = {
		"git init -q --bare ev && git -C ev fetch -q \"$PWD\" main:main && "
		"hook reference-transaction > ev/hooks/reference-transaction && "
		"chmod +x ev/hooks/reference-transaction && echo nothing > ev/HEAD; echo one $?\n",
		"echo 'ref: refs/heads/main' > ev/HEAD; echo two $?\n"};
	two_sessions(who, "gbecame", NULL, steps, "git -C ev branch x >/dev/null 2>&1; true",
		     "reference-transaction");
}

/* Round 50a F1: with the user's core.hooksPath relative (husky's
 * .husky/_), one session writes hooks in c/.husky/_, plain files, and a
 * later one makes c a worktree of the project's own git dir, which the
 * guards keep (c/.git: "gitdir: ../.git"): git status in c outside (an
 * editor that finds the repository) ran them. Control: no guard. */
BOTH_USERS(guards, a_new_worktree_of_a_kept_git_dir_runs_no_old_hook, .timeout = 60)
{
	const char *const steps[] = {"mkdir -p c/.husky/_ && echo x > c/f && "
				     "hook post-index-change > c/.husky/_/post-index-change && "
				     "chmod +x c/.husky/_/post-index-change; echo one $?\n",
				     "printf 'gitdir: ../.git\\n' > c/.git; echo two $?\n"};
	/* (git status writes the index, and so runs the hook, only where an
	 * entry's stat needs refreshing, which timing decides: the control
	 * missed it once under load. The index written anew after it always
	 * runs it.) */
	two_sessions(who, "gnwt", "git config core.hooksPath .husky/_", steps,
		     "git -C c status >/dev/null 2>&1; "
		     "git -C c update-index --force-write-index >/dev/null 2>&1; true",
		     "post-index-change");
}

/* A linked worktree's object format is its common dir's: a sha256
 * repository's worktree (its index read as sha1's) refused every session,
 * and a session that wrote an objectformat into .git/worktrees/wt/config,
 * a file git never reads, refused every later one (round 49c F2). */
BOTH_USERS(guards, a_worktree_s_own_config_sets_no_object_format, .timeout = 90)
{
	for (int sha256 = 1; sha256 >= 0; sha256--) {
		struct world w;
		uninit_world(&w, who, sha256 ? "gwthash" : "gwthash1", sha256);
		struct run_result r = outside(&w, "git worktree add -q wt && echo /wt >> "
						  ".git/info/exclude");
		run_free(&r);
		if (!sha256) {
			r = sh_in(&w, NULL,
				  "printf '[extensions]\\n\\tobjectformat = sha256\\n' >> "
				  ".git/worktrees/wt/config; echo set $?");
			cr_assert(strstr(r.out, "set 0"), "the session could not: %s%s", r.out,
				  r.err);
			run_free(&r);
		}
		r = sh_in(&w, NULL, "echo next");
		cr_expect(r.status == 0 && strstr(r.out, "next"),
			  "%s: the session was refused: %d %s", sha256 ? "sha256" : "planted",
			  r.status, r.err);
		run_free(&r);
		world_free(&w);
	}
}

/* The same with a HEAD C's isspace takes and git's does not ("ref:" and
 * a vertical tab), above the git dir of a deinit'd submodule named d/logs,
 * one of git's own names (round 48e F1: cordon took d for a git dir, git
 * did not, and nothing looked into d/logs, whose config the next session
 * wrote). Control: no guard, the config written. */
BOTH_USERS(guards, a_head_only_cordon_would_take_hides_nothing, .timeout = 120)
{
	struct world w;
	git_world(&w, who, "gmvtab");
	char *lb = at(w.dir, "lb");
	struct run_result r =
		outside(&w,
			UPSTREAM_REPO "git submodule add -q '%1$s' d/logs && git commit -qm L && "
				      "git submodule deinit -q -f -- d/logs",
			lb);
	run_free(&r);
	char *config = content(w.proj, ".git/modules/d/logs/config");
	cr_assert_str_neq(config, "(absent)", "no module git dir for d/logs");
	/* (And a commondir naming nothing, which git takes for no git dir.) */
	static const char *const fakes[] = {
		"mkdir -p .git/modules/d/objects .git/modules/d/refs && "
		"printf 'ref:\\vrefs/heads/main\\n' > .git/modules/d/HEAD; echo fake $?",
		"echo 'ref: refs/heads/main' > .git/modules/d/HEAD && "
		"echo nowhere > .git/modules/d/commondir; echo fake $?"};
	/* (Each with its control: no guard, the config written. The second
	 * fake's end moves only d's HEAD aside, no more the whole d.) */
	for (int ctl = 0; ctl < 4; ctl++) {
		if (ctl == 2)
			set_config(&w, ", \"protected_paths\": []");
		r = sh_in(&w, NULL, "%s", fakes[ctl % 2]);
		cr_assert(strstr(r.out, "fake 0"), "%d: the session could not: %s%s", ctl, r.out,
			  r.err);
		run_free(&r);
		r = sh_in(&w, NULL,
			  "printf '[core]\\n\\tfsmonitor = true\\n' >> .git/modules/d/logs/config; "
			  "echo cfg $?");
		char *now = content(w.proj, ".git/modules/d/logs/config"),
		     *aside = content(w.proj, ".git/modules/d.cordon-disarmed/logs/config");
		if (ctl >= 2)
			cr_assert(strstr(now, "fsmonitor"),
				  "control %d: the config was not written", ctl);
		else
			cr_expect(!strstr(now, "fsmonitor") && !strstr(aside, "fsmonitor"),
				  "%d: the module's config was written: %s%s", ctl, r.out, r.err);
		free(now), free(aside);
		run_free(&r);
		r = outside(&w,
			    "if [ -d .git/modules/d.cordon-disarmed ]; then rm -rf .git/modules/d; "
			    "mv .git/modules/d.cordon-disarmed .git/modules/d; fi; "
			    "rm -rf .git/modules/d/HEAD .git/modules/d/objects "
			    ".git/modules/d/refs .git/modules/d/commondir; "
			    "git -C .git/modules/d/logs config --unset core.fsmonitor; true");
		run_free(&r);
	}
	free(config), free(lb);
	world_free(&w);
}

/* A linked worktree's gitdir (47c P2: pointed at another file, the next
 * session kept that one and left the worktree's .git writable) stays as it
 * was: read-only. Control: protected_paths [] lets the write land. */
BOTH_USERS(guards, a_worktree_s_gitdir_stays_kept, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gwtgd");
	struct run_result r =
		outside(&w, "git worktree add -q wt && echo /wt >> .git/info/exclude");
	run_free(&r);
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		char *gitdir = content(w.proj, ".git/worktrees/wt/gitdir");
		r = sh_in(&w, NULL,
			  "printf '%%s/a\\n' \"$PWD\" > .git/worktrees/wt/gitdir; echo gd $?");
		char *gd = content(w.proj, ".git/worktrees/wt/gitdir");
		if (ctl)
			cr_assert(strcmp(gd, gitdir) != 0, "control: gitdir was not written");
		else
			cr_expect_str_eq(gd, gitdir, "the worktree's gitdir was rewritten: %s",
					 r.out);
		run_free(&r);
		free(gd), free(gitdir);
	}
	world_free(&w);
}

/* Session 1 makes .git/modules/zz holding a config (a core.fsmonitor),
 * objects and refs, but no HEAD: no repository to the sweep. Session 2
 * adds HEAD, a checkout k whose .git leads there, and the gitlink (47d
 * H1: a guard that took a config alone for a git dir kept zz as the user's
 * submodule, the sweep never judged it, and git status outside ran it
 * after every session). The guard takes for a git dir only what the sweep
 * judges: zz is moved aside as session 2 ends, and git status outside
 * after it runs nothing. Control: the same steps without cordon run it. */
static const char plant_module_in_two[] =
	"mkdir -p .git/modules/zz/objects .git/modules/zz/refs/heads && "
	"(fsmon > .git/modules/zz/config) && echo one\n";
static const char plant_module_second[] =
	"echo 'ref: refs/heads/main' > .git/modules/zz/HEAD && mkdir -p k && "
	"echo 'gitdir: ../.git/modules/zz' > k/.git && "
	"git -C k -c core.fsmonitor=false commit -q --allow-empty -m k && "
	"git -c core.fsmonitor=false add k && echo two\n";

BOTH_USERS(guards, a_module_dir_made_in_two_sessions_is_judged, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gmod2");
	for (int ctl = 0; ctl < 2; ctl++) {
		const char *tag = ctl ? "ctl" : "deny";
		char *one = plant(&w, tag, "", plant_module_in_two);
		char *two = plant(&w, tag, "", plant_module_second);
		struct run_result r = ctl ? sh_outside(&w, one) : sh_in(&w, NULL, "%s", one);
		cr_assert(strstr(r.out, "one"), "%s: session 1 could not: %s%s", tag, r.out, r.err);
		run_free(&r);
		r = ctl ? sh_outside(&w, two) : sh_in(&w, NULL, "%s", two);
		cr_assert(strstr(r.out, "two"), "%s: session 2 could not: %s%s", tag, r.out, r.err);
		run_free(&r);
		git_outside(&w, w.proj, tag);
		if (ctl) {
			cr_assert(marked(&w, tag, "fsmonitor"),
				  "control: zz's fsmonitor did not run");
		} else {
			cr_expect_not(marked(&w, tag, "fsmonitor"), "zz's fsmonitor ran outside");
			/* (Or its config, a file in no git dir there, as session 1
			 * ends.) */
			cr_expect(
				present(w.proj,
					".git/cordon-disarmed/modules!zz.cordon-disarmed") ||
					present(w.proj,
						".git/cordon-disarmed/modules!zz!config.cordon-disarmed") ||
					present(w.proj, "k/.git.cordon-disarmed"),
				"neither zz nor k/.git was moved aside");
		}
		r = outside(&w, "git rm -q --cached k; rm -rf k .git/modules/zz "
				".git/cordon-disarmed; git commit -qam undo; true");
		run_free(&r);
		free(one), free(two);
	}
	world_free(&w);
}

/* A session whose last step makes the project unreadable (chmod 0 .)
 * after it made a repository z with a core.fsmonitor and added it to the
 * index escaped its own sweep (47c P3: git status outside then ran z's
 * fsmonitor, and later sessions kept z as the user's submodule). The
 * sweep now looks through the mode (given back as it was): z/.git is moved
 * aside, and git status outside, once the user gives the mode back, runs
 * nothing. Control: the same without cordon runs it. */
BOTH_USERS(guards, a_project_made_unreadable_as_the_session_ends_is_swept, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gtopmode");
	static const char body[] =
		"git init -q z && git -C z commit -q --allow-empty -m z && (fsmon >> z/.git/config) "
		"&& git add z && echo planted; chmod 0 .\n";
	char *script = plant(&w, "deny", "", body);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	cr_assert(strstr(r.out, "planted"), "the session could not plant: %s%s", r.out, r.err);
	struct stat st;
	cr_expect(stat(w.proj, &st) == 0 && (st.st_mode & 07777) == 0,
		  "the project's mode was not given back as it was");
	run_free(&r);
	free(script);
	cr_assert_eq(chmod(w.proj, 0755), 0);
	cr_expect(present(w.proj, "z/.git.cordon-disarmed") && !present(w.proj, "z/.git"),
		  "z/.git was not moved aside");
	git_outside(&w, w.proj, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "z's core.fsmonitor ran outside");

	script = plant(&w, "ctl", "", "rm -rf z && git rm -q --cached z; chmod 755 .\n");
	r = sh_outside(&w, script);
	run_free(&r);
	free(script);
	script = plant(&w, "ctl", "", body);
	r = sh_outside(&w, script);
	run_free(&r);
	free(script);
	cr_assert_eq(chmod(w.proj, 0755), 0);
	git_outside(&w, w.proj, "ctl");
	cr_assert(marked(&w, "ctl", "fsmonitor"), "control: z's core.fsmonitor did not run");
	world_free(&w);
}

/* A session makes a protected name, then makes its way unreadable: x
 * holding mcp.json given mode 0 and renamed to .github (no watch can look
 * in), then .exrc, then chmod 0 on the project (47d M1: the end took the
 * names for absent, said nothing, and later sessions kept them read-only
 * as the user's; vim outside with 'exrc' ran the .exrc). The end opens
 * the way (the modes given back as they were) and moves both aside.
 * Control: with no protected_paths, both stay. */
BOTH_USERS(guards, a_name_made_then_hidden_by_a_mode_is_moved_aside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ghidname");
	static const char body[] =
		"mkdir x && echo '{\"servers\": {}}' > x/mcp.json && chmod 0 x && mv x .github && "
		"echo '\" planted' > .exrc && echo planted && chmod 0 .\n";
	for (int ctl = 0; ctl < 2; ctl++) {
		const char *tag = ctl ? "control" : "deny";
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		struct run_result r = sh_in(&w, NULL, body);
		cr_assert(strstr(r.out, "planted"), "%s: the session could not plant: %s%s", tag,
			  r.out, r.err);
		char *github = at(w.proj, ".github");
		struct stat top, dir;
		cr_expect(stat(w.proj, &top) == 0 && (top.st_mode & 07777) == 0 &&
				  stat(github, &dir) == 0 && (dir.st_mode & 07777) == 0,
			  "%s: the modes were not given back as they were", tag);
		cr_assert_eq(chmod(w.proj, 0755), 0);
		cr_assert_eq(chmod(github, 0755), 0);
		free(github);
		if (ctl) {
			cr_assert(present(w.proj, ".github/mcp.json") && present(w.proj, ".exrc"),
				  "control: the names were not made: %s%s", r.out, r.err);
		} else {
			cr_expect(!present(w.proj, ".github/mcp.json") &&
					  present(w.proj, ".github/mcp.json.cordon-disarmed"),
				  ".github/mcp.json was not moved aside: %s%s", r.out, r.err);
			/* (Once, under load, something stood at .exrc after the end
			 * had moved the plant: cordon's stand-in socket, never a
			 * file anything reads, is allowed; what it was is said.) */
			struct stat ex;
			char *exrc = at(w.proj, ".exrc");
			bool there = lstat(exrc, &ex) == 0;
			cr_expect((!there || S_ISSOCK(ex.st_mode)) &&
					  present(w.proj, ".exrc.cordon-disarmed"),
				  ".exrc was not moved aside (%s, mode %o): %s%s",
				  there ? "there" : "gone", there ? (unsigned)ex.st_mode : 0U,
				  r.out, r.err);
			free(exrc);
		}
		run_free(&r);
		r = outside(&w, "rm -rf .github .exrc .exrc.cordon-disarmed");
		run_free(&r);
	}
	world_free(&w);
}

/* Python that folds the index entries under DIR into one sparse-directory
 * entry "DIR/" naming TREE (skip-worktree, version 3, with an sdir
 * extension), as a session can write the index: git never folds a
 * directory that holds a submodule, but git outside, in a sparse
 * checkout, expands it again where DIR is in the worktree. */
static const char fold_index[] =
	"python3 - .git/index d $(git rev-parse HEAD:d) <<'EOF'\n"
	"import sys, struct, hashlib\n"
	"path, d, tree = sys.argv[1], sys.argv[2].encode() + b'/', bytes.fromhex(sys.argv[3])\n"
	"b = open(path, 'rb').read()\n"
	"nr = struct.unpack('>I', b[8:12])[0]\n"
	"off, ents = 12, []\n"
	"for _ in range(nr):\n"
	"    fl = struct.unpack('>H', b[off+60:off+62])[0]\n"
	"    ext = struct.unpack('>H', b[off+62:off+64])[0] if fl & 0x4000 else 0\n"
	"    at = off + 62 + (2 if fl & 0x4000 else 0)\n"
	"    name = b[at:b.index(b'\\0', at)]\n"
	"    ents.append((name, b[off:off+60], fl & 0x3000, ext))\n"
	"    off += (at - off + len(name) + 8) & ~7\n"
	"ents = [e for e in ents if not e[0].startswith(d)]\n"
	"ents.append((d, struct.pack('>10I', 0, 0, 0, 0, 0, 0, 0o40000, 0, 0, 0) + tree, 0, 0x4000))\n"
	"ents.sort()\n"
	"out = bytearray(struct.pack('>4sII', b'DIRC', 3, len(ents)))\n"
	"for name, head, stage, ext in ents:\n"
	"    e = head + struct.pack('>H', stage | min(len(name), 0xfff) | (0x4000 if ext else 0))\n"
	"    e += (struct.pack('>H', ext) if ext else b'') + name\n"
	"    out += e + b'\\0' * (8 - len(e) % 8)\n"
	"out += b'sdir' + struct.pack('>I', 0)\n"
	"open(path, 'wb').write(out + hashlib.sha1(out).digest())\n"
	"EOF\n";

/* d/X/.git sent to a copy of the submodule's git dir with a
 * core.fsmonitor of the session's. */
static const char plant_folded[] =
	"G=$PWD/.git/objects/ev-X; cp -a .git/modules/d/X \"$G\" && "
	"git config -f \"$G/config\" core.worktree \"$PWD/d/X\" && (M=$M-X; fsmon) >> \"$G/config\" "
	"&& printf 'gitdir: %s\\n' \"$G\" > d/X/.git; echo X $?\n";

/* The user's sparse checkout (index.sparse) has the submodule d/X in its
 * cone. A session folds d into one sparse-directory entry, which hid d/X
 * from the next session's guard (46g G1): the index is moved aside as the
 * session ends, said. The next session cannot plant d/X/.git, with the
 * index rebuilt outside meanwhile, nor with the folded index left in place
 * and d/X edited out of .gitmodules (a session whose end did not come: its
 * launcher killed; the submodule's own git dir names it). Control, in a
 * copy, without cordon: the fold hides nothing from git, which runs the
 * plant. */
BOTH_USERS(guards, an_index_folding_a_submodule_away_is_moved_aside, .timeout = 120)
{
	struct world w;
	git_world(&w, who, "gfold");
	char *lb = at(w.dir, "lb"), *copy = at(w.dir, "copy");
	struct run_result r = outside(
		&w,
		UPSTREAM_REPO "mkdir d && echo b > d/b && git add d && "
			      "git submodule add -q '%1$s' d/X && git commit -qm subs && "
			      "git sparse-checkout set d && git config index.sparse true && "
			      "cp -a . '%2$s'",
		lb, copy);
	run_free(&r);
	char *script = plant(&w, "ctl", "", plant_folded);
	char *cmd = fmt("cd '%s' || exit 1\n%s%s\ngit status --short", copy, fold_index, script);
	r = sh_outside(&w, cmd);
	free(cmd);
	cr_assert(marked(&w, "ctl-X", "fsmonitor"),
		  "control: git outside did not go into the folded submodule: %s%s", r.out, r.err);
	run_free(&r);
	free(script);

	r = sh_in(&w, NULL, "%s", fold_index);
	cr_expect(present(w.proj, ".git/index.cordon-disarmed") && !present(w.proj, ".git/index"),
		  "the folded index was not moved aside: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "hides the submodule d/X"), "not said: %s", r.err);
	run_free(&r);
	r = outside(&w, "git reset -q && git ls-files -s d/X | cut -c1-6");
	cr_expect(strstr(r.out, "160000"), "git reset did not bring d/X back: %s", r.out);
	run_free(&r);
	const char *const dirs[] = {w.proj, NULL};
	plant_during_git(&w, "deny", plant_folded, dirs);
	cr_expect_not(marked(&w, "deny-X", "fsmonitor"), "the next session planted d/X");

	char *cmd2 = fmt("%sgit config -f .gitmodules submodule.d/X.path zz", fold_index);
	r = sh_outside(&w, cmd2);
	run_free(&r);
	free(cmd2);
	plant_during_git(&w, "kept", plant_folded, dirs);
	cr_expect_not(marked(&w, "kept-X", "fsmonitor"),
		      "with the folded index in place, a session planted d/X");
	r = outside(&w, "cat d/X/.git");
	cr_expect(strstr(r.out, ".git/modules/d/X"), "d/X/.git was rewritten: %s", r.out);
	run_free(&r);
	free(copy);
	free(lb);
	world_free(&w);
}

/* Linked worktrees in the project, made before the session: "dotgit"
 * points wt2's .git file at a git dir planted in .git/objects, whose
 * core.fsmonitor git status in wt2 runs; "hook" writes a hook in wt's
 * .githooks (the repository's core.hooksPath, relative: each worktree's
 * own). */
static const char plant_inner_worktrees[] =
	"git init -q ev && mv ev/.git .git/objects/ev && rmdir ev && fsmon >> .git/objects/ev/config "
	"&& printf 'gitdir: %s/.git/objects/ev\\n' \"$PWD\" > wt2/.git; echo dotgit $?\n"
	"mkdir -p wt/.githooks && hook hook > wt/.githooks/pre-commit && "
	"chmod +x wt/.githooks/pre-commit; echo hook $?\n";

/* The worktrees' .git files and their hooks directories stay as they
 * were; git outside in them (status, commit), during the session and
 * after it, runs nothing planted. Control: protected_paths [] lets both
 * land, and git outside runs them while the session runs. */
BOTH_USERS(guards, a_linked_worktree_in_the_project_is_kept, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ginnerwt");
	struct run_result r =
		outside(&w, "git config core.hooksPath .githooks && "
			    "git worktree add -q wt -b wt && git worktree add -q wt2 -b wt2");
	run_free(&r);
	char *wt = at(w.proj, "wt"), *wt2 = at(w.proj, "wt2");
	const char *const wts[] = {wt, wt2, NULL};
	char *dotgit = content(wt2, ".git");
	plant_during_git(&w, "deny", plant_inner_worktrees, wts);
	char *now = content(wt2, ".git");
	cr_expect_str_eq(now, dotgit, "the worktree's .git file was rewritten");
	free(now);
	cr_expect(present(wt, ".githooks"), "the worktree's hooks directory was not made");
	cr_expect_not(present(wt, ".githooks/pre-commit"), "a hook was planted");
	git_outside(&w, wt, "after-wt");
	git_outside(&w, wt2, "after-wt2");
	cr_expect_not(marked(&w, "deny", "hook"), "a hook planted in the worktree ran outside");
	cr_expect_not(marked(&w, "deny", "fsmonitor"),
		      "a git dir planted through the worktree's .git file ran outside");

	set_config(&w, ", \"protected_paths\": []");
	r = outside(&w, "rm -rf .git/objects/ev");
	run_free(&r);
	plant_during_git(&w, "ctl", plant_inner_worktrees, wts);
	cr_assert(marked(&w, "ctl", "hook"), "control: the worktree's hook did not run");
	cr_assert(marked(&w, "ctl", "fsmonitor"), "control: the planted git dir was not used");
	free(dotgit);
	free(wt);
	free(wt2);
	world_free(&w);
}

/* ---- metadata ---- */

static const char meta_script[] =
	"chmod +x .git/hooks/post-checkout; echo chmod $?\n"
	"touch -d @981173106 .git/config; echo touch $?\n"
	"setfattr -n user.x -v y .git/config; echo setfattr $?\n"
	"ln -sf \"$PWD/.git/config\" abs-link && setfattr -n user.z -v y abs-link; "
	"echo abslink $?\n"
	"python3 - <<'EOF'\n"
	"import ctypes, os\n"
	"c = ctypes.CDLL(None, use_errno=True)\n"
	"def attempt(what, f):\n"
	"    try:\n"
	"        r = f()\n"
	"        print(what, os.strerror(ctypes.get_errno()) if isinstance(r, int) and r < 0 "
	"else 0)\n"
	"    except OSError as e: print(what, e)\n"
	"h, g = '.git/hooks/post-checkout', '.git/config'\n"
	"attempt('fchmod', lambda: os.fchmod(os.open(h, os.O_RDONLY), 0o755))\n"
	"attempt('procchmod', lambda: os.chmod('/proc/self/fd/%d' % os.open(h, os.O_PATH), "
	"0o755))\n"
	"attempt('pchmod', lambda: c.syscall(452, os.open(h, os.O_PATH), b'', 0o755, 0x1000))\n"
	"attempt('futime', lambda: os.utime(os.open(g, os.O_RDONLY), (981173106, 981173106)))\n"
	"attempt('fsetx', lambda: os.setxattr(os.open(g, os.O_RDONLY), 'user.y', b'y'))\n"
	"EOF\n";

static const char *const meta_steps[] = {"chmod",     "touch",  "setfattr", "abslink", "fchmod",
					 "procchmod", "pchmod", "futime",   "fsetx",   NULL};

/* chmod +x on a hook file placed (not executable) in .git/hooks, touch and
 * setfattr on .git/config, by path, through an absolute link to it (which
 * the supervisor once followed from its own root, where no guard is:
 * session 23) and through descriptors: the mode, the mtime and the xattrs
 * stay. Control: protected_paths [] lets each land. */
BOTH_USERS(guards, git_metadata_stays, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gmeta");
	need_user_xattrs(&w);
	char *hook = at(w.proj, ".git/hooks/post-checkout"), *config = at(w.proj, ".git/config");
	free(write_file(w.proj, ".git/hooks/post-checkout", "#!/bin/sh\ntrue\n"));
	world_give(&w);
	cr_assert_eq(chmod(hook, 0644), 0);
	struct timespec old[2] = {{OLD_TIME, 0}, {OLD_TIME, 0}};
	cr_assert_eq(utimensat(AT_FDCWD, config, old, 0), 0);

	struct run_result r = sh_in(&w, NULL, "%s", meta_script);
	struct stat st;
	cr_assert_eq(stat(hook, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0644, "the hook was made executable (%o)\ninside: %s%s",
		     st.st_mode & 07777, r.out, r.err);
	cr_assert_eq(stat(config, &st), 0);
	cr_expect_eq(st.st_mtime, OLD_TIME, ".git/config's mtime was changed\ninside: %s%s", r.out,
		     r.err);
	cr_expect_lt(getxattr(config, "user.x", NULL, 0), 0,
		     ".git/config got an xattr by path\ninside: %s%s", r.out, r.err);
	cr_expect_lt(getxattr(config, "user.y", NULL, 0), 0,
		     ".git/config got an xattr by descriptor\ninside: %s%s", r.out, r.err);
	cr_expect_lt(getxattr(config, "user.z", NULL, 0), 0,
		     ".git/config got an xattr through an absolute link\ninside: %s%s", r.out,
		     r.err);
	run_free(&r);

	set_config(&w, ", \"protected_paths\": []");
	r = sh_in(&w, NULL, "%s", meta_script);
	expect_all_landed(meta_steps, &r, "protected_paths []");
	cr_assert_eq(stat(hook, &st), 0);
	cr_assert_eq(st.st_mode & 0111, 0111, "control: the hook was not made executable");
	cr_assert_gt(getxattr(config, "user.x", NULL, 0), 0, "control: no xattr");
	run_free(&r);
	free(hook);
	free(config);
	world_free(&w);
}

/* ---- hidden paths ---- */

/* Round 54d F3: a token written in a git config the session reads (a
 * remote's URL with a password, an insteadOf base with a token as its
 * user, an Authorization header): git needs the file, so it cannot be
 * hidden; each launch says so, a line a file, naming the key and never
 * the token. Control: the session reads the token. A config the user
 * hid is not said. */
BOTH_USERS(guards, a_token_in_a_git_config_is_said, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gittok");
	struct run_result r = sh_in(&w, NULL, "true");
	cr_expect_null(strstr(r.err, "holds a credential"), "said with no token: %s", r.err);
	run_free(&r);
	r = outside(&w,
		    "git remote add origin https://alice:TOK3N-in-url@example.invalid/x && "
		    "printf '[url \"https://ghp_T0KEN4base@github.com/\"]\\n\\tinsteadOf = "
		    "https://github.com/\\n[http]\\n\\textraHeader = Authorization: Bearer "
		    "T0KEN5hdr\\n' >> %s/.gitconfig",
		    w.home);
	run_free(&r);
	r = sh_in(&w, NULL, "cat .git/config ~/.gitconfig");
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "TOK3N-in-url") && strstr(r.out, "T0KEN4base"),
		  "control: the session does not read the tokens\n%s", diag);
	cr_expect(strstr(r.err, "/.git/config holds a credential (remote.origin.url)"),
		  "the project's config was not said\n%s", diag);
	cr_expect(strstr(r.err, "/.gitconfig holds a credential (url.<URL>.insteadof)"),
		  "the global config was not said\n%s", diag);
	cr_expect_null(strstr(r.err, "T0K"), "a token was shown\n%s", diag);
	run_free(&r);
	free(diag);
	set_config(&w, ", \"additional_hidden_paths\": [\"~/.gitconfig\"]");
	r = sh_in(&w, NULL, "true");
	cr_expect_null(strstr(r.err, "/.gitconfig holds"), "a hidden config was said: %s", r.err);
	cr_expect(strstr(r.err, "/.git/config holds a credential"), "not said: %s", r.err);
	run_free(&r);
	world_free(&w);
}

/* Round 54d: secrets the default list missed. Under the default ~/.config
 * grant (F1, F2, F6): LXD's client key, an Electron app's cookies, a VS
 * Code fork's Local History copy, zsh's history under ZDOTDIR; with "~"
 * granted (F5, F6): 1Password CLI v1's config, psql's history. None is
 * printed inside; a visible file beside each is. Round 54g: micro's
 * backups, code-server's login, a Chromium profile of any name,
 * nushell's history. Control: with hidden_paths [], all are. */
static const char *const missed_secrets[] = {
	".config/lxc/client.key", ".config/vesktop/Cookies", ".config/Cursor/User/History/a1/x.yml",
	".config/zsh/.zsh_history", ".op/config", ".psql_history",
	/* (54g) */
	".config/micro/backups/x.aws", ".config/code-server/config.yaml",
	".config/some-browser/Default/Login Data", ".config/nushell/history.txt", NULL};

BOTH_USERS(guards, secrets_the_list_missed_stay_unread, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "missed", ", \"additional_read_only_paths\": [\"~\"]");
	char *script = strdup("cat ~/.config/visible ~/visible");
	for (size_t i = 0; missed_secrets[i]; i++) {
		char *secret = fmt("secret-%zu-of-54d\n", i);
		free(write_file(w.home, missed_secrets[i], secret));
		free(secret);
		char *more = fmt("%s ~/'%s'", script, missed_secrets[i]);
		free(script);
		script = more;
	}
	free(write_file(w.home, ".config/visible", "config-visible\n"));
	free(write_file(w.home, "visible", "home-visible\n"));
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "%s 2>/dev/null; true", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "config-visible") && strstr(r.out, "home-visible"),
		  "the probe read nothing\n%s", diag);
	for (size_t i = 0; missed_secrets[i]; i++) {
		char *secret = fmt("secret-%zu-of-54d", i);
		cr_expect(!strstr(r.out, secret), "~/%s was read inside\n%s", missed_secrets[i],
			  diag);
		free(secret);
	}
	run_free(&r);
	free(diag);
	set_config(&w, ", \"additional_read_only_paths\": [\"~\"], \"hidden_paths\": []");
	r = sh_in(&w, NULL, "%s 2>/dev/null; true", script);
	for (size_t i = 0; missed_secrets[i]; i++) {
		char *secret = fmt("secret-%zu-of-54d", i);
		cr_expect(strstr(r.out, secret), "control: ~/%s was not read: %s",
			  missed_secrets[i], r.out);
		free(secret);
	}
	run_free(&r);
	free(script);
	world_free(&w);
}

static const char read_secrets[] =
	"cat ~/.config/gh/hosts.yml; cat ~/.config/other.conf; grep -rs . ~/.config\n"
	"ls -la ~/.config/gh; umount -l ~/.config/gh\n"
	"unshare -Urm sh -c 'umount -l ~/.config/gh; cat ~/.config/gh/hosts.yml'\n"
	"cat ~/.ssh/id_test; grep -rs . ~/.ssh; cat ~/notes.txt\n";

/* A token under ~/.config/gh and a key in ~/.ssh are not printed inside,
 * though ~/.config is readable by default (another file there is) and
 * though "~" is granted (~/notes.txt is printed); a rule naming
 * ~/.config/gh exposes it, and so does hidden_paths []. Control: outside,
 * both are printed. */
BOTH_USERS(guards, hidden_credentials_stay_unread, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidden", "");
	free(write_file(w.home, ".config/gh/hosts.yml", "github.com:\n  oauth_token: " TOKEN "\n"));
	free(write_file(w.home, ".config/other.conf", "other-visible"));
	free(write_file(w.home, ".ssh/id_test", SSH_KEY));
	free(write_file(w.home, "notes.txt", "notes-visible"));
	world_give(&w);

	struct run_result r = sh_outside(&w, read_secrets);
	cr_assert(strstr(r.out, TOKEN) && strstr(r.out, SSH_KEY), "control: outside: %s%s", r.out,
		  r.err);
	run_free(&r);

	/* The default config: ~/.config readable, ~/.config/gh hidden. */
	r = sh_in(&w, NULL, "%s", read_secrets);
	cr_expect(strstr(r.out, "other-visible"), "~/.config is not readable inside: %s%s", r.out,
		  r.err);
	cr_expect_null(strstr(r.out, TOKEN), "the gh token was read inside: %s", r.out);
	cr_expect_null(strstr(r.out, SSH_KEY), "the ssh key was read inside: %s", r.out);
	run_free(&r);

	/* "~" readable: everything in it but the hidden paths. */
	set_config(&w, ", \"additional_read_only_paths\": [\"~\"]");
	r = sh_in(&w, NULL, "%s", read_secrets);
	cr_expect(strstr(r.out, "notes-visible"), "~ is not readable inside: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, SSH_KEY), "the ssh key was read beneath \"~\": %s", r.out);
	cr_expect_null(strstr(r.out, TOKEN), "the gh token was read beneath \"~\": %s", r.out);
	cr_expect_null(strstr(r.err, "not hidden in this session"), "%s", r.err);
	run_free(&r);

	/* A rule naming the hidden path itself: the user means it. */
	set_config(&w, ", \"additional_read_only_paths\": [\"~/.config/gh\"]");
	r = sh_in(&w, NULL, "%s", read_secrets);
	cr_expect(strstr(r.out, TOKEN), "a rule naming ~/.config/gh did not expose it: %s%s", r.out,
		  r.err);
	cr_expect_null(strstr(r.out, SSH_KEY), "the ssh key was read: %s", r.out);
	cr_expect(strstr(r.err, "/.config/gh is in hidden_paths (default), but "
				"additional_read_only_paths names it: not hidden in this session"),
		  "the exposure was not said: %s", r.err);
	run_free(&r);

	/* A rule naming a path beneath one: where no other rule reaches it
	 * (~/.ssh), that path is read, the rest stays hidden; where one does
	 * (~/.config/gh, covered whole), it stays hidden too. Both said
	 * (round 37c F4: neither was). */
	free(write_file(w.home, ".ssh/other_key", "ssh-other-secret"));
	free(write_file(w.home, ".config/gh/other.yml", "gh-other-secret"));
	set_config(&w, ", \"additional_read_only_paths\": [\"~/.ssh/id_test\", "
		       "\"~/.config/gh/hosts.yml\"]");
	r = sh_in(&w, NULL, "%scat ~/.ssh/other_key ~/.config/gh/other.yml", read_secrets);
	cr_expect(strstr(r.out, SSH_KEY), "the rule beneath ~/.ssh did not expose its file: %s%s",
		  r.out, r.err);
	cr_expect_null(strstr(r.out, "ssh-other-secret"), "the rest of ~/.ssh was read: %s", r.out);
	cr_expect_null(strstr(r.out, TOKEN), "the covered ~/.config/gh was read: %s", r.out);
	cr_expect_null(strstr(r.out, "gh-other-secret"), "the rest of ~/.config/gh was read: %s",
		       r.out);
	cr_expect(
		strstr(r.err, "/.ssh is in hidden_paths (default), but a rule names ") &&
			strstr(r.err, "/.ssh/id_test beneath it: that is readable in this session"),
		"the exposure was not said: %s", r.err);
	cr_expect(strstr(r.err, "/.config/gh is in hidden_paths (default), and a rule names ") &&
			  strstr(r.err,
				 "/.config/gh/hosts.yml beneath it: that stays hidden with it"),
		  "the rule that reads nothing was not said: %s", r.err);
	run_free(&r);

	/* The guard off. */
	set_config(&w, ", \"hidden_paths\": []");
	r = sh_in(&w, NULL, "%s", read_secrets);
	cr_expect(strstr(r.out, TOKEN), "hidden_paths [] still hid the token: %s%s", r.out, r.err);
	run_free(&r);
	world_free(&w);
}

/* Round 51b F4: credentials under names the hidden list did not know,
 * each read inside under the default config (~/.config readable) and with
 * "~" readable: a copy beside a hidden file (emacs's auth.json~, vim's
 * swap of it, Claude Code's ~/.claude.json.backup); git's credential store
 * a store helper names (in a file ~/.gitconfig includes), its cookie file
 * and a client key (http.cookieFile, http.sslKey in the XDG config); an
 * ssh key an IdentityFile names outside ~/.ssh (in a file ~/.ssh/config
 * includes, with a %h token); AI command lines' keys in ~/.config. None is
 * printed inside; each is printed outside, and inside where a rule names
 * it (the user means it: the directory, for a hidden one).
 * Round 51d F3 and F4 besides: a store --file=$HOME/..., a helper
 * snippet's and a helper script's token file, core.sshCommand's
 * -o IdentityFile= and -i$HOME/..., http.sslCert's .p12, the launch
 * environment's $GIT_SSH_COMMAND -i and $GOOGLE_APPLICATION_CREDENTIALS;
 * a dated copy, a copy marked before the extension, a hidden directory's
 * tarball and dated copy; pnpm's, neomutt's, crush's, Windsurf's MCP,
 * Continue's .env, python-gitlab's and fetchmail's token files. */
static const char *const named_secrets[][3] = {
	{".config/composer/auth.json", "{\"github-oauth\": \"SECRET-composer-live\"}"},
	{".config/composer/auth.json~", "{\"github-oauth\": \"SECRET-composer-backup\"}"},
	{".config/composer/.auth.json.swp", "b0VIM SECRET-composer-swap"},
	{".claude.json.backup", "{\"primaryApiKey\": \"SECRET-claude-backup\"}"},
	{".config/git/work-credentials", "https://me:SECRET-gitstore@example.com"},
	{".gitcookies",
	 ".googlesource.com\tTRUE\t/\tTRUE\t2147483647\to\tSECRET-gitcookie-default"},
	{".gitcookies-work", ".example.com\tTRUE\t/\tTRUE\t2147483647\to\tSECRET-gitcookie"},
	{"certs/client.key", "-----BEGIN PRIVATE KEY----- SECRET-sslkey"},
	{"keys/id_work", "-----BEGIN OPENSSH PRIVATE KEY----- SECRET-sshkey"},
	{".config/aichat/config.yaml", "clients:\n- type: openai\n  api_key: SECRET-aichat",
	 ".config/aichat"},
	{".config/shell_gpt/.sgptrc", "OPENAI_API_KEY=SECRET-sgpt", ".config/shell_gpt"},
	{".config/git/work-creds", "https://me:SECRET-store-dollar-home@example.com"},
	{".config/tok/pat", "SECRET-helper-snippet"},
	{".config/tok/by-script", "SECRET-helper-script"},
	{".config/keys/deploy_o", "-----BEGIN OPENSSH PRIVATE KEY----- SECRET-ssh-o"},
	{".config/keys/deploy_i", "-----BEGIN OPENSSH PRIVATE KEY----- SECRET-ssh-i-home"},
	{".config/certs/client.p12", "p12 SECRET-sslcert"},
	{".config/keys/ci_key", "-----BEGIN OPENSSH PRIVATE KEY----- SECRET-git-ssh-command"},
	{".config/gcp/sa.json", "{\"private_key\": \"SECRET-gcp-sa\"}"},
	{".config/composer/auth.json.2024-05-01", "{\"github-oauth\": \"SECRET-composer-dated\"}"},
	{".config/composer/auth.bak.json", "{\"github-oauth\": \"SECRET-composer-inner\"}"},
	{".config/gh/hosts.yml", "github.com: {oauth_token: SECRET-gh-live}", ".config/gh"},
	{".config/gh.tar.gz", "hosts.yml SECRET-gh-tarball"},
	{".config/gh-2024-05-01/hosts.yml", "github.com: {oauth_token: SECRET-gh-dated}",
	 ".config/gh-2024-05-01"},
	{".config/pnpm/rc", "//registry.example/:_authToken=SECRET-pnpm"},
	{".config/neomutt/neomuttrc", "set imap_pass = SECRET-neomutt"},
	{".local/share/crush/crush.json",
	 "{\"providers\": {\"x\": {\"api_key\": \"SECRET-crush\"}}}"},
	{".codeium/windsurf/mcp_config.json", "{\"env\": {\"TOKEN\": \"SECRET-windsurf-mcp\"}}"},
	{".continue/.env", "ANTHROPIC_API_KEY=SECRET-continue"},
	{".python-gitlab.cfg", "[g]\nprivate_token = SECRET-python-gitlab"},
	{".fetchmailrc", "poll x user me password SECRET-fetchmail"},
	/* Round 53c F2: Git Credential Manager's plaintext store, the one
	 * its credential.plaintextStorePath moves (in the project's
	 * config.worktree), and a store the project's own .git/config
	 * names. */
	{".gcm/store/git/https/github.com/alice.credential", "SECRET-gcm-plaintext", ".gcm"},
	{"gcm-moved/git/https/h/u.credential", "SECRET-gcm-moved", "gcm-moved"},
	{"work-creds/repo-store", "https://me:SECRET-repo-store@git.work.example"},
	/* Round 60h: a local server's token (Jupyter's, VS Code Server's),
	 * an editor's MCP config, a credential file, an editor's swap copy
	 * of an open secret, database clients' histories. */
	{".local/share/jupyter/runtime/jpserver-7.json", "{\"token\": \"SECRET-jupyter\"}",
	 ".local/share/jupyter/runtime"},
	{".vscode-server/.0123abcd.token", "SECRET-vscode-server"},
	{".config/Code/User/mcp.json", "{\"env\": {\"T\": \"SECRET-vscode-mcp\"}}"},
	{".config/dart/pub-credentials.json", "{\"accessToken\": \"SECRET-dart\"}"},
	{".vim/swap/%home%me%.aws%credentials.swp", "SECRET-vim-swap", ".vim/swap"},
	{".duckdb_history", "CREATE SECRET (TYPE s3, SECRET 'SECRET-duckdb')"},
	{".mongodb/mongosh/mongosh_repl_history", "db.auth('u', 'SECRET-mongosh')"},
	{".passwd-s3fs", "AKIA:SECRET-s3fs"},
	{".cache/rbw/default.json", "{\"access_token\": \"SECRET-rbw\"}", ".cache/rbw"},
};
#define N_NAMED (sizeof(named_secrets) / sizeof(*named_secrets))

BOTH_USERS(guards, credentials_under_other_names_stay_unread, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "named", "");
	for (size_t i = 0; i < N_NAMED; i++)
		free(write_file(w.home, named_secrets[i][0], named_secrets[i][1]));
	free(write_file(w.home, ".gitconfig",
			"[user]\n\tname = t\n[include]\n\tpath = .gitconfig.d/creds\n"));
	free(write_file(w.home, ".gitconfig.d/creds",
			"[credential \"https://example.com\"]\n"
			"\thelper = \"store --file ~/.config/git/work-credentials\"\n"
			"[http \"https://example.com\"]\n\tcookieFile = ~/.gitcookies-work\n"
			"[credential \"https://work.example\"]\n"
			"\thelper = store --file=$HOME/.config/git/work-creds\n"
			"[credential \"https://gist.example\"]\n\thelper = \"!f() { test "
			"\\\"$1\\\" = get && echo password=$(cat ~/.config/tok/pat); }; f\"\n"
			"[credential \"https://script.example\"]\n\thelper = !~/bin/tok-helper\n"
			"[core]\n\tsshCommand = ssh -o IdentityFile=~/.config/keys/deploy_o\n"
			"[http \"https://pki.example\"]\n\tsslCert = ~/.config/certs/client.p12\n"
			"\tsslCertType = p12\n"));
	free(write_file(w.home, ".config/git/config",
			"[http]\n\tsslKey = ~/certs/client.key\n"
			"[core]\n\tsshCommand = ssh -i$HOME/.config/keys/deploy_i\n"));
	char *helper =
		write_file(w.home, "bin/tok-helper",
			   "#!/bin/sh\necho password=$(cat \"$HOME/.config/tok/by-script\")\n");
	cr_assert_eq(chmod(helper, 0755), 0);
	free(helper);
	char *kv = fmt("GIT_SSH_COMMAND=ssh -i %s/.config/keys/ci_key", w.home);
	world_setenv(&w, kv);
	free(kv);
	kv = fmt("GOOGLE_APPLICATION_CREDENTIALS=%s/.config/gcp/sa.json", w.home);
	world_setenv(&w, kv);
	free(kv);
	free(write_file(w.home, ".ssh/config", "Include config.d/*\n"));
	free(write_file(w.home, ".ssh/config.d/work", "Host work\n  IdentityFile ~/keys/id_%h\n"));
	free(write_file(w.home, ".config/other.conf", "other-visible"));
	free(write_file(w.home, "notes.txt", "notes-visible"));
	world_give(&w);
	struct run_result r = outside(
		&w,
		"git init -q && git config --local credential.helper "
		"'store --file=~/work-creds/repo-store' && "
		"printf '[credential]\n\tplaintextStorePath = ~/gcm-moved\n' > .git/config.worktree");
	run_free(&r);
	char *script = strdup("");
	char *rules = strdup("");
	for (size_t i = 0; i < N_NAMED; i++) {
		char *more = fmt("%scat ~/'%s'; echo\n", script, named_secrets[i][0]);
		const char *named = named_secrets[i][2] ? named_secrets[i][2] : named_secrets[i][0];
		char *rule = fmt("%s%s\"~/%s\"", rules, i ? ", " : "", named);
		free(script), free(rules);
		script = more, rules = rule;
	}
	char *all = fmt("%scat ~/.config/other.conf ~/notes.txt; grep -rs SECRET ~/.config ~\n",
			script);

	r = sh_outside(&w, all);
	for (size_t i = 0; i < N_NAMED; i++)
		cr_assert(strstr(r.out, strstr(named_secrets[i][1], "SECRET")),
			  "control: outside, %s was not read: %s%s", named_secrets[i][0], r.out,
			  r.err);
	run_free(&r);

	static const char *const configs[] = {"", ", \"additional_read_only_paths\": [\"~\"]"};
	for (size_t c = 0; c < 2; c++) {
		set_config(&w, configs[c]);
		r = sh_in(&w, NULL, "%s", all);
		cr_expect(strstr(r.out, "other-visible"), "%zu: ~/.config is not readable: %s%s", c,
			  r.out, r.err);
		cr_expect(!c || strstr(r.out, "notes-visible"), "~ is not readable: %s%s", r.out,
			  r.err);
		for (size_t i = 0; i < N_NAMED; i++)
			cr_expect_null(strstr(r.out, strstr(named_secrets[i][1], "SECRET")),
				       "%zu: %s was read inside: %s", c, named_secrets[i][0],
				       r.out);
		run_free(&r);
	}

	/* A rule naming each: read, and said. */
	char *extra = fmt(", \"additional_read_only_paths\": [%s]", rules);
	set_config(&w, extra);
	r = sh_in(&w, NULL, "%s", script);
	for (size_t i = 0; i < N_NAMED; i++)
		cr_expect(strstr(r.out, strstr(named_secrets[i][1], "SECRET")),
			  "a rule naming %s did not read it: %s%s", named_secrets[i][0], r.out,
			  r.err);
	cr_expect(strstr(r.err, "/keys/id_work is in hidden_paths (default): named by "
				"~/.ssh/config.d/work: IdentityFile: ") &&
			  strstr(r.err, "/keys/id_*, but additional_read_only_paths names it"),
		  "the exposure was not said: %s", r.err);
	run_free(&r);
	free(extra), free(all), free(script), free(rules);
	world_free(&w);
}

/* Round 61a: tools' configs that hold a secret beside what the tool needs
 * inside (cargo's registry token, hatch's and pdm's publish passwords, go
 * env's GOPROXY with a password): read inside as a copy without the
 * secret, the settings kept and the copy still TOML that parses (hatch
 * refuses to run on a config it cannot load); fish's current history
 * hidden. Control: outside, each secret is read. A config that holds no
 * secret is read as it is. Fails on the code before (each was read). */
static const char *const tool_configs[][2] = {
	{".cargo/config.toml",
	 "[alias]\nhi = \"version\"\n[registries.corp]\n"
	 "index = \"sparse+https://me:SECRET-cargo-url@cargo.corp.example/index/\"\n"
	 "token = \"SECRET-cargo-token\"\n[registries]\n"
	 "other = { index = \"https://x.example/i\", token = 'SECRET-cargo-inline' }\n"},
	{".config/hatch/config.toml",
	 "[publish.index]\nuser = \"__token__\"\nauth = \"SECRET-hatch\"\n"},
	{".config/pdm/config.toml",
	 "[pypi]\nurl = \"https://pypi.corp.example/simple\"\nusername = \"me\"\n"
	 "password = \"SECRET-pdm\"\n[repository.corp]\npassword = \"\"\"SECRET-pdm-multi\n"
	 "still\"\"\"\n"},
	{".config/go/env",
	 "GOPRIVATE=corp.example/*\nGOPROXY=https://me:SECRET-goproxy@proxy.corp.example,direct\n"},
	{".local/share/fish/fish_history", "- cmd: export TOKEN=SECRET-fish\n  when: 1\n"},
};
#define N_TOOL_CONFIGS (sizeof(tool_configs) / sizeof(*tool_configs))

BOTH_USERS(guards, tools_configs_are_read_without_their_secrets, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "toolcfg", "");
	for (size_t i = 0; i < N_TOOL_CONFIGS; i++)
		free(write_file(w.home, tool_configs[i][0], tool_configs[i][1]));
	world_give(&w);
	const char *look =
		"cat ~/.cargo/config.toml ~/.config/hatch/config.toml ~/.config/pdm/config.toml "
		"~/.config/go/env ~/.local/share/fish/fish_history; echo\n"
		"for f in ~/.cargo/config.toml ~/.config/hatch/config.toml "
		"~/.config/pdm/config.toml; do /usr/bin/python3 -c 'import sys, tomllib; "
		"tomllib.load(open(sys.argv[1], \"rb\")); print(\"parsed\", sys.argv[1])' \"$f\"; "
		"done\n";
	static const char *const secrets[] = {
		"SECRET-cargo-url", "SECRET-cargo-token", "SECRET-cargo-inline", "SECRET-hatch",
		"SECRET-pdm",       "SECRET-pdm-multi",   "SECRET-goproxy",      "SECRET-fish"};
	struct run_result r = sh_outside(&w, look);
	for (size_t i = 0; i < sizeof(secrets) / sizeof(*secrets); i++)
		cr_assert(strstr(r.out, secrets[i]), "control: outside, %s was not read: %s%s",
			  secrets[i], r.out, r.err);
	run_free(&r);

	static const char *const configs[] = {"", ", \"additional_read_only_paths\": [\"~\"]"};
	for (size_t c = 0; c < 2; c++) {
		set_config(&w, configs[c]);
		r = sh_in(&w, NULL, "%s", look);
		for (size_t i = 0; i < sizeof(secrets) / sizeof(*secrets); i++)
			cr_expect_null(strstr(r.out, secrets[i]), "%zu: %s was read inside: %s%s",
				       c, secrets[i], r.out, r.err);
		cr_expect(strstr(r.out, "user = \"__token__\"\nauth = \"\"") &&
				  strstr(r.out, "GOPRIVATE=corp.example/*\n"
						"GOPROXY=https://proxy.corp.example,direct") &&
				  strstr(r.out, "url = \"https://pypi.corp.example/simple\""),
			  "%zu: the settings beside the secrets were not read: %s%s", c, r.out,
			  r.err);
		cr_expect(strstr(r.out, "parsed") && strstr(r.out, "hatch/config.toml") &&
				  strstr(r.out, "pdm/config.toml"),
			  "%zu: the copies do not parse: %s%s", c, r.out, r.err);
		/* (~/.cargo is read only where a rule reaches it.) */
		cr_expect(!c || (strstr(r.out, "hi = \"version\"") &&
				 strstr(r.out, "index = \"sparse+https://cargo.corp.example/") &&
				 strstr(r.out, "parsed") && strstr(r.out, ".cargo/config.toml")),
			  "cargo's settings were not read: %s%s", r.out, r.err);
		run_free(&r);
	}

	/* Without a secret: the file as it is. */
	free(write_file(w.home, ".config/go/env", "GOPRIVATE=corp.example/*\nGOFLAGS=-mod=mod\n"));
	world_give(&w);
	set_config(&w, "");
	r = sh_in(&w, NULL, "cat ~/.config/go/env; grep -c go/env /proc/self/mountinfo");
	cr_expect(strstr(r.out, "GOPRIVATE=corp.example/*\nGOFLAGS=-mod=mod\n0"),
		  "a go env without a secret was not read as it is: %s%s", r.out, r.err);
	run_free(&r);
	world_free(&w);
}

/* Round 37c F2: hidden_paths followed $HOME only. With HOME set to
 * another directory (a harness's, CI's, a per-tool home), a rule reaching
 * the account's passwd home read its ~/.netrc (root's real /root/.npmrc
 * under "/"). A throwaway user whose passwd home is in the world, HOME the
 * world's home: its real ~/.netrc stays unread under a rule reaching it
 * (its other files are read), explain says it is hidden, and a rule naming
 * it exposes it. Control: outside, it is read. */
Test(guards, hidden_paths_hold_in_the_passwd_home_too, .timeout = 60)
{
	struct world w;
	world_init(&w, "pwhome", "");
	world_as_user(&w);
	char *real = path_join(w.dir, "realhome"), *name = fmt("cordon-hp%d", (int)getpid());
	cr_assert_eq(mkdir(real, 0700), 0, "%s: %s", real, strerror(errno));
	char *add = fmt("useradd --system --no-create-home --user-group --home-dir %s "
			"--shell /usr/sbin/nologin %s >/dev/null 2>&1",
			real, name);
	(void)!system(add);
	struct passwd *pw = getpwnam(name);
	cr_assert_not_null(pw, "no throwaway user (%s failed)", add);
	w.uid = pw->pw_uid;
	w.gid = pw->pw_gid;
	char *netrc = write_file(real, ".netrc", "machine example.org password " TOKEN "\n");
	free(write_file(real, "notes.txt", "notes-visible"));
	world_give(&w);

	char *look = fmt("cat %s/notes.txt %s", real, netrc);
	struct run_result r = sh_outside(&w, look);
	cr_expect(strstr(r.out, TOKEN), "control: outside: %s%s", r.out, r.err);
	run_free(&r);

	char *reach = fmt("--allow-read %s", w.dir);
	r = sh_in(&w, reach, "%s", look);
	cr_expect(strstr(r.out, "notes-visible"), "the passwd home is not readable inside: %s%s",
		  r.out, r.err);
	cr_expect_null(strstr(r.out, TOKEN), "the passwd home's .netrc was read inside: %s", r.out);
	run_free(&r);

	char *argv[] = {CORDON_BIN,     "explain", "--config", w.cfg,
			"--allow-read", w.dir,     netrc,      NULL};
	r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.out, "access: --- (hidden by hidden_paths (default): ~/.netrc, in the "
				"passwd home"),
		  "explain does not say it is hidden: %s%s", r.out, r.err);
	run_free(&r);

	/* Named itself: the user means it. */
	char *named = fmt("%s --allow-read %s", reach, netrc);
	r = sh_in(&w, named, "%s", look);
	cr_expect(strstr(r.out, TOKEN), "a rule naming it did not expose it: %s%s", r.out, r.err);
	cr_expect(strstr(r.err,
			 "/realhome/.netrc is in hidden_paths (default): ~/.netrc, in the "
			 "passwd home, but --allow-read names it: not hidden in this session"),
		  "the exposure was not said: %s", r.err);
	run_free(&r);

	/* Started in the passwd home, with HOME elsewhere: no project, as
	 * in $HOME (it was the writable project). Control: named with
	 * --project, it is. */
	char *planted = path_join(real, "planted");
	char *plant = fmt("echo x > %s", planted);
	char *cwd_run[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
			   "/bin/sh",  "-c",  plant,      NULL};
	r = world_run(&w, cwd_run, real);
	cr_expect_not(file_exists(planted), "the passwd home was the writable project: %s", r.err);
	cr_expect(strstr(r.err, "is your home directory"), "not said: %s", r.err);
	run_free(&r);
	char *named_run[] = {CORDON_BIN, "run",     "--config", w.cfg, "--project", real,
			     "--",       "/bin/sh", "-c",       plant, NULL};
	r = world_run(&w, named_run, real);
	cr_expect(file_exists(planted), "control: --project did not make it writable: %s", r.err);
	run_free(&r);
	unlink(planted);
	free(plant);
	free(planted);

	/* (Retried: a session's last process may still be leaving, or a
	 * concurrent useradd may hold /etc/passwd's lock a moment.) */
	char *del = fmt("userdel %s 2>&1", name);
	int rc = -1;
	for (int i = 0; i < 30 && rc != 0; i++) {
		if (i)
			usleep(100000);
		rc = system(del);
	}
	cr_expect_eq(rc, 0, "%s", del);
	free(del);
	free(named);
	free(reach);
	free(look);
	free(netrc);
	free(add);
	free(name);
	free(real);
	world_free(&w);
}

/* Round 32 I2: a hidden path written with ".." over a name that is
 * missing, ~/x/../.secret, hid nothing (the kernel resolves no name past
 * a missing one), so with "~" readable ~/.secret was read. Its text's
 * meaning is hidden too. Control: without it, ~/.secret is read. */
/* ~/.ssh a chain of two relative links into a directory whose path is
 * longer than PATH_MAX, under a rule on ~: it cannot be followed to put a
 * cover on it, so the session is refused, naming it, and its command never
 * reads the key (round 40b F2: it was read, and nothing said). Control:
 * outside, the key reads. */
BOTH_USERS(guards, a_hidden_path_past_path_max_refuses_the_session, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "longhide", ", \"additional_read_only_paths\": [\"~\"]");
	world_give(&w);
	char *lay = fmt("cd %s && seg=$(printf 'd%%.0s' $(seq 1 200)) && rel= && "
			"for i in $(seq 1 11); do rel=$rel$seg/; done && "
			"mkdir -p store/$rel && cd store/$rel && mkdir -p $rel/ssh && "
			"echo DEEP-KEY > $rel/ssh/id && ln -s $rel/ssh l2 && cd %s && "
			"ln -s store/${rel}l2 .ssh && cat .ssh/id",
			w.home, w.home);
	struct run_result r = sh_outside(&w, lay);
	cr_assert(strstr(r.out, "DEEP-KEY"), "control: the key does not read outside: %s%s", r.out,
		  r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "cat %s/.ssh/id", w.home);
	cr_expect_not(strstr(r.out, "DEEP-KEY"), "the key was read inside");
	cr_expect_eq(r.status, 125, "%d %s", r.status, r.err);
	cr_expect(strstr(r.err, ".ssh (hidden_paths (default)): cannot be followed"),
		  "not said: %s", r.err);
	run_free(&r);
	/* A loop of links is nothing to read, and refuses nothing (round 40e
	 * F2: every session was refused). */
	char *loop = fmt("rm %s/.ssh && ln -s .netrc %s/.netrc", w.home, w.home);
	r = sh_outside(&w, loop);
	run_free(&r);
	r = sh_in(&w, NULL, "%s", "echo ran");
	cr_expect(r.status == 0 && strstr(r.out, "ran"), "a loop of links refused: %d %s", r.status,
		  r.err);
	run_free(&r);
	free(loop);
	char *clean = fmt("rm -rf %s/store %s/.netrc", w.home, w.home);
	r = sh_outside(&w, clean);
	run_free(&r);
	free(clean);
	free(lay);
	world_free(&w);
}

BOTH_USERS(guards, a_hidden_path_written_with_dots_stays_unread, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hiddots", "");
	free(write_file(w.home, ".secret", "dotted-secret"));
	free(write_file(w.home, "pat/.tok-a", "pattern-secret"));
	free(write_file(w.home, "notes.txt", "notes-visible"));
	world_give(&w);
	static const char look[] = "cat ~/notes.txt ~/.secret ~/pat/.tok-a";
	set_config(&w, ", \"additional_read_only_paths\": [\"~\"]");
	struct run_result r = sh_in(&w, NULL, "%s", look);
	cr_assert(strstr(r.out, "notes-visible") && strstr(r.out, "dotted-secret") &&
			  strstr(r.out, "pattern-secret"),
		  "control: not read inside: %s%s", r.out, r.err);
	run_free(&r);
	set_config(&w, ", \"additional_read_only_paths\": [\"~\"], \"additional_hidden_paths\": "
		       "[\"~/x/../.secret\", \"~/xm/../pat/.tok-*\"]");
	r = sh_in(&w, NULL, "%s", look);
	cr_expect(strstr(r.out, "notes-visible"), "~ is not readable inside: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, "dotted-secret"), "~/x/../.secret was read inside: %s", r.out);
	/* (A pattern too: round 33c L3.) */
	cr_expect_null(strstr(r.out, "pattern-secret"), "~/xm/../pat/.tok-* was read inside: %s",
		       r.out);
	run_free(&r);
	world_free(&w);
}

/* A rule's path that a session could have made a link (in the project,
 * or beneath another directory a rule makes writable) is not followed: a
 * session that turned docs (named by additional_read_only_paths) into a
 * link to a private directory, and shared/sub (named writable beneath
 * the writable shared) into one to another directory, had the next
 * session read and write there (the kernel follows a rule's link at
 * launch). run and explain say it. Control: naming where they lead
 * reads and writes there. */
BOTH_USERS(guards, a_rule_through_a_link_a_session_could_lay_is_not_followed, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "ruleln", "");
	free(write_file(w.dir, "private/f", "linked-secret"));
	free(write_file(w.dir, "private2/f", "second-secret"));
	free(write_file(w.dir, "private3/f", "third-secret"));
	free(write_file(w.dir, "target/keep", "k"));
	free(write_file(w.dir, "shared/x", "x"));
	char *docs = fmt("%s/docs", w.proj), *sub = fmt("%s/shared/sub", w.dir);
	char *priv = fmt("%s/private", w.dir), *target = fmt("%s/target", w.dir);
	char *notes = fmt("%s/notes", w.proj), *priv2 = fmt("%s/private2", w.dir);
	char *more = fmt("%s/more", w.proj), *priv3 = fmt("%s/private3", w.dir);
	char *alias = fmt("%s/alias", w.dir);
	cr_assert(symlink(priv, docs) == 0 && symlink(target, sub) == 0 &&
		  symlink(priv2, notes) == 0 && symlink(priv3, more) == 0 &&
		  symlink(w.proj, alias) == 0);
	world_give(&w);
	char *made = fmt("%s/target/new", w.dir);
	char *script = fmt("cat docs/f notes/f more/f; echo w > %s/shared/sub/new", w.dir);

	char *cfg = fmt(", \"additional_read_only_paths\": [\"%s\", \"%s\", \"%s\"], "
			"\"additional_read_write_paths\": [\"%s/shared\", \"%s\"]",
			priv, priv2, priv3, w.dir, target);
	set_config(&w, cfg);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	cr_assert(strstr(r.out, "linked-secret") && strstr(r.out, "second-secret") &&
			  strstr(r.out, "third-secret") && access(made, F_OK) == 0,
		  "control: not read or written through the links: %s%s", r.out, r.err);
	run_free(&r);
	cr_assert(unlink(made) == 0);
	free(cfg);

	/* (Each of two rules in one directory, round 34 Q1; one spelled
	 * with "./" and a final "/", Q2; one through another name of the
	 * project, a link of the user's, Q3, or through /proc, 34c S1.) */
	cfg = fmt(
		", \"additional_read_only_paths\": [\"docs\", \"./notes/\", \"%s/more\", \"/proc/self/cwd/docs\"], "
		"\"additional_read_write_paths\": [\"%s/shared\", \"%s/shared/sub\"]",
		alias, w.dir, w.dir);
	set_config(&w, cfg);
	r = sh_in(&w, NULL, "%s", script);
	cr_expect_null(strstr(r.out, "linked-secret"), "read through the project's link: %s",
		       r.out);
	cr_expect_null(strstr(r.out, "second-secret"), "read through ./notes/: %s", r.out);
	cr_expect_null(strstr(r.out, "third-secret"), "read through alias/more: %s", r.out);
	cr_expect(access(made, F_OK) < 0, "written through shared/sub");
	char *said = fmt("%s (additional_read_only_paths): a link (to %s) in %s, where a "
			 "session may write: not followed",
			 docs, priv, w.proj);
	cr_expect(strstr(r.err, said), "not said: %s", r.err);
	run_free(&r);
	char *argv[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
	r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.out, said) && strstr(r.out, sub), "explain does not say it: %s%s", r.out,
		  r.err);
	run_free(&r);
	unlink(made);
	free(cfg), free(said), free(script), free(made);
	free(docs), free(sub), free(priv), free(target);
	free(notes), free(priv2), free(more), free(priv3), free(alias);
	world_free(&w);
}

/* A world (TAG) whose session laid cfg/nvim/lua in the project, a link
 * to the private directory holding f (SECRET): both into *PRIV and *LUA. */
static void laid_in_cfg(struct world *w, const struct who *who, const char *tag, const char *secret,
			char **priv, char **lua)
{
	world_for(w, who, tag, "");
	free(write_file(w->dir, "private/f", secret));
	free(write_file(w->proj, "cfg/nvim/init.lua", "-- init"));
	*priv = fmt("%s/private", w->dir);
	*lua = fmt("%s/cfg/nvim/lua", w->proj);
	world_give(w);
	struct run_result r = sh_in(w, NULL, "ln -s %s %s", *priv, *lua);
	struct stat st;
	cr_assert(lstat(*lua, &st) == 0 && S_ISLNK(st.st_mode), "the session laid no link: %s%s",
		  r.out, r.err);
	run_free(&r);
}

/* --allow-read VIA (which leads to PRIV through the session's link)
 * reads nothing of PRIV's f (SECRET), and says so; control: the rule
 * naming PRIV reads it through VIA. */
static void expect_unfollowed(struct world *w, const char *priv, const char *via,
			      const char *secret)
{
	char *opt = fmt("--allow-read %s", priv);
	struct run_result r = sh_in(w, opt, "cat %s/f", via);
	cr_assert(strstr(r.out, secret), "control: %s%s", r.out, r.err);
	run_free(&r);
	free(opt);
	opt = fmt("--allow-read %s", via);
	r = sh_in(w, opt, "cat %s/f; cat %s/f", via, priv);
	cr_expect_null(strstr(r.out, secret), "read through the session's link: %s", r.out);
	cr_expect(strstr(r.err, "not followed"), "not said: %s", r.err);
	run_free(&r);
	free(opt);
}

/* A directory in the project that a later launch takes for the config
 * home ($XDG_CONFIG_HOME, kept read-only only while it is one): a session
 * started without it laid a link there, and the next session's rule
 * through it read a private directory (round 34c S5: the config home was
 * exempt from the walk). Control: the rule naming that directory. */
BOTH_USERS(guards, a_link_laid_where_a_later_config_home_is_is_not_followed, .timeout = 60)
{
	struct world w;
	char *priv, *lua;
	laid_in_cfg(&w, who, "xdgln", "xdg-secret", &priv, &lua);
	char *xdg = fmt("XDG_CONFIG_HOME=%s/cfg", w.proj);
	world_setenv(&w, xdg);
	expect_unfollowed(&w, priv, lua, "xdg-secret");
	free(priv), free(lua), free(xdg);
	world_free(&w);
}

/* The same where ~/.config is made a link into the project later (a
 * dotfiles repository): the home's .config is exempt from the walk only
 * where it is a directory of its own, read-only in every launch (round
 * 35b U2). Control: the rule naming the directory itself. */
BOTH_USERS(guards, a_link_laid_where_a_later_config_leads_is_not_followed, .timeout = 60)
{
	struct world w;
	char *priv, *lua;
	laid_in_cfg(&w, who, "cfgln", "cfg-secret", &priv, &lua);
	char *dot = fmt("%s/.config", w.home), *old = fmt("%s/.config.old", w.home);
	char *to = fmt("%s/cfg", w.proj), *via = fmt("%s/nvim/lua", dot);
	struct stat st;
	cr_assert(lstat(dot, &st) < 0 || rename(dot, old) == 0);
	cr_assert(symlink(to, dot) == 0);
	expect_unfollowed(&w, priv, via, "cfg-secret");
	unlink(dot);
	free(priv), free(lua), free(dot), free(old), free(to), free(via);
	world_free(&w);
}

static void kill_when_ready(struct world *w, const char *dir, const char *body);

/* A link a session laid in its project, named by a rule of a session of
 * another project (where the first project is not writable): not
 * followed either (round 35b U1: the next session read and wrote the
 * private directory it led to). The sweep's records name every root a
 * session wrote in; a session killed before its first record was saved
 * left its mark. Control: the rule naming the directory itself. */
BOTH_USERS(guards, a_link_laid_in_another_project_is_not_followed, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "xproj", "");
	free(write_file(w.dir, "private/f", "xproj-secret"));
	free(write_file(w.dir, "B/keep", "b"));
	free(write_file(w.dir, "K/keep", "k"));
	char *priv = fmt("%s/private", w.dir), *docs = fmt("%s/docs", w.proj);
	char *b = fmt("%s/B", w.dir), *k = fmt("%s/K", w.dir), *kdocs = fmt("%s/docs", k);
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "ln -s %s %s", priv, docs);
	struct stat st;
	cr_assert(lstat(docs, &st) == 0 && S_ISLNK(st.st_mode), "the session laid no link: %s%s",
		  r.out, r.err);
	run_free(&r);
	char *killed = fmt("ln -s %s docs && touch ready && exec sleep 60", priv);
	kill_when_ready(&w, k, killed);
	cr_assert(lstat(kdocs, &st) == 0 && S_ISLNK(st.st_mode), "the killed session laid none");
	char *script = fmt("cat %s/f %s/f; echo w > %s/new", docs, kdocs, docs),
	     *made = fmt("%s/new", priv);
	char *cfg = fmt(", \"additional_read_write_paths\": [\"%s\"]", priv);
	set_config(&w, cfg);
	r = sh_in_dir(&w, b, script);
	cr_assert(strstr(r.out, "xproj-secret") && access(made, F_OK) == 0,
		  "control: not read or written: %s%s", r.out, r.err);
	run_free(&r);
	cr_assert(unlink(made) == 0);
	free(cfg);
	cfg = fmt(", \"additional_read_write_paths\": [\"%s\"], \"additional_read_only_paths\": "
		  "[\"%s\"]",
		  docs, kdocs);
	set_config(&w, cfg);
	r = sh_in_dir(&w, b, script);
	cr_expect_null(strstr(r.out, "xproj-secret"), "read through the other projects' links: %s",
		       r.out);
	cr_expect(access(made, F_OK) < 0, "written through the other project's link");
	cr_expect(strstr(r.err, "where an earlier session could write (cordon's note ") &&
			  strstr(r.err, "not followed"),
		  "not said: %s", r.err);
	run_free(&r);
	unlink(made);
	sweep_forget(b);
	sweep_forget(k);
	free(priv), free(docs), free(b), free(script), free(made), free(cfg);
	free(k), free(kdocs), free(killed);
	world_free(&w);
}

/* A world where W's project's session ran LAY (its $P: PRIV, the
 * private directory, whose f holds SECRET), into *PRIV, *B (where later
 * launches start) and *MADE (PRIV/made); ARGV a run in the project named
 * at ARGV[5] that reads f and writes made there. Control: with the
 * private directory named itself, both. */
static void laid_project(struct world *w, const struct who *who, const char *tag,
			 const char *secret, const char *lay, char **priv, char **b, char **made,
			 char *argv[11])
{
	world_for(w, who, tag, "");
	free(write_file(w->dir, "private/f", secret));
	free(write_file(w->dir, "B/keep", "b"));
	*priv = fmt("%s/private", w->dir);
	*b = fmt("%s/B", w->dir);
	*made = fmt("%s/made", *priv);
	world_give(w);
	struct run_result r = sh_in(w, NULL, "P=%s; %s", *priv, lay);
	cr_assert_eq(r.status, 0, "the session laid no link: %s%s", r.out, r.err);
	run_free(&r);
	char *run[] = {CORDON_BIN, "run", "--config", w->cfg, "--project",
		       *priv,      "--",  "/bin/sh",  "-c",   "cat f; echo w > made",
		       NULL};
	memcpy(argv, run, sizeof(run));
	r = world_run(w, argv, *b);
	cr_assert(strstr(r.out, secret) && access(*made, F_OK) == 0,
		  "control: not read or written: %s%s", r.out, r.err);
	run_free(&r);
	cr_assert(unlink(*made) == 0);
}

/* The project itself named through a link an earlier session laid: the
 * launch is refused, with the note (round 36 F2: --project A/sub, a link a
 * session made in A, had the next session read and write the directory it
 * led to; A/etclink made /etc the writable project). Control: the
 * directory named itself is the project. */
BOTH_USERS(guards, a_project_named_through_a_link_a_session_laid_is_refused, .timeout = 60)
{
	struct world w;
	char *priv, *b, *made, *argv[11];
	laid_project(&w, who, "projln", "projln-secret", "ln -s $P sub", &priv, &b, &made, argv);
	char *sub = fmt("%s/sub", w.proj);
	argv[5] = sub;
	struct run_result r = world_run(&w, argv, b);
	cr_expect_null(strstr(r.out, "projln-secret"), "read through the link: %s", r.out);
	cr_expect(access(made, F_OK) < 0, "written through the link");
	cr_expect_eq(r.status, 125, "%d: %s", r.status, r.err);
	char *said = fmt("cordon: %s (--project): a link (to %s) in %s, where an earlier session "
			 "could write (cordon's note ",
			 sub, priv, w.proj);
	cr_expect(strstr(r.err, said), "not said: %s", r.err);
	run_free(&r);
	char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, "--project", sub, NULL};
	r = world_run(&w, explain, b);
	cr_expect_eq(r.status, 125, "explain: %d: %s", r.status, r.err);
	cr_expect(strstr(r.err, said), "explain did not say: %s", r.err);
	run_free(&r);
	unlink(made);
	sweep_forget(priv);
	free(priv), free(sub), free(b), free(made), free(said);
	world_free(&w);
}

/* Root's session registry is in /run, which a reboot empties: the notes
 * of what sessions may write, and the sweep's records, are kept where they
 * last (round 35 left: a link laid before a reboot was followed until a
 * session in its project ran again). The reboot's stand-in: every entry
 * of root's registry that names the project goes. (An ordinary user's
 * state is in the home, which lasts.) Control: the rule naming the
 * directory itself. */
Test(guards, a_link_laid_before_a_reboot_is_not_followed, .timeout = 60)
{
	if (geteuid() != 0)
		cr_skip_test("root's registry");
	struct world w;
	world_init(&w, "reboot", "");
	free(write_file(w.dir, "private/f", "reboot-secret"));
	free(write_file(w.dir, "B/keep", "b"));
	char *priv = fmt("%s/private", w.dir), *docs = fmt("%s/docs", w.proj);
	char *b = fmt("%s/B", w.dir);
	struct run_result r = sh_in(&w, NULL, "ln -s %s %s", priv, docs);
	struct stat st;
	cr_assert(lstat(docs, &st) == 0 && S_ISLNK(st.st_mode), "the session laid no link: %s%s",
		  r.out, r.err);
	run_free(&r);
	/* What a reboot empties. */
	glob_t g = {0};
	size_t n = strlen(w.dir);
	if (glob("/run/cordon/[sw][wr][eo]*-*", 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char head[8192];
			int fd = open(g.gl_pathv[i], O_RDONLY | O_CLOEXEC);
			ssize_t got = fd >= 0 ? read(fd, head, sizeof(head)) : -1;
			if (fd >= 0)
				close(fd);
			if (got > 0 && memmem(head, (size_t)got, w.dir, n))
				unlink(g.gl_pathv[i]);
		}
	globfree(&g);
	char *script = fmt("cat %s/f", docs);
	char *cfg = fmt(", \"additional_read_only_paths\": [\"%s\"]", priv);
	set_config(&w, cfg);
	r = sh_in_dir(&w, b, script);
	cr_assert(strstr(r.out, "reboot-secret"), "control: not read: %s%s", r.out, r.err);
	run_free(&r);
	free(cfg);
	cfg = fmt(", \"additional_read_only_paths\": [\"%s\"]", docs);
	set_config(&w, cfg);
	r = sh_in_dir(&w, b, script);
	cr_expect_null(strstr(r.out, "reboot-secret"), "read through the link: %s", r.out);
	cr_expect(strstr(r.err, "where an earlier session could write (cordon's note ") &&
			  strstr(r.err, "not followed"),
		  "not said: %s", r.err);
	run_free(&r);
	sweep_forget(b);
	free(priv), free(docs), free(b), free(script), free(cfg);
	world_free(&w);
}

/* Where no sweep record is made, the note of what sessions wrote still
 * counts (round 35c): a project whose protected_paths has no .git (no
 * sweep, V4), and a preset's read-write directory (~/.npm of --toolchain
 * node: no sweep root, V2). A later session's rule through a link a
 * session laid in either, from elsewhere, is not followed. Control: the
 * rule naming the directory itself. */
BOTH_USERS(guards, a_link_laid_where_no_sweep_looks_is_not_followed, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nosweep", ", \"protected_paths\": []");
	free(write_file(w.dir, "private/f", "nosweep-secret"));
	free(write_file(w.dir, "B/keep", "b"));
	free(write_file(w.home, ".npm/keep", "n"));
	char *priv = fmt("%s/private", w.dir), *docs = fmt("%s/docs", w.proj);
	char *npm = fmt("%s/.npm/docs", w.home), *b = fmt("%s/B", w.dir);
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "ln -s %s %s", priv, docs);
	run_free(&r);
	r = sh_in(&w, "--toolchain node", "ln -s %s %s", priv, npm);
	run_free(&r);
	struct stat st;
	cr_assert(lstat(docs, &st) == 0 && S_ISLNK(st.st_mode) && lstat(npm, &st) == 0 &&
			  S_ISLNK(st.st_mode),
		  "the sessions laid no links");
	char *script = fmt("cat %s/f; cat %s/f", docs, npm);
	char *cfg =
		fmt(", \"protected_paths\": [], \"additional_read_only_paths\": [\"%s\"]", priv);
	set_config(&w, cfg);
	r = sh_in_dir(&w, b, script);
	cr_assert(strstr(r.out, "nosweep-secret"), "control: %s%s", r.out, r.err);
	run_free(&r);
	free(cfg);
	cfg = fmt(", \"protected_paths\": [], \"additional_read_only_paths\": [\"%s\", \"%s\"]",
		  docs, npm);
	set_config(&w, cfg);
	r = sh_in_dir(&w, b, script);
	cr_expect_null(strstr(r.out, "nosweep-secret"), "read through a session's link: %s", r.out);
	cr_expect(strstr(r.err, docs) && strstr(r.err, npm) && strstr(r.err, "not followed"),
		  "not said: %s", r.err);
	run_free(&r);
	sweep_forget(b);
	free(priv), free(docs), free(npm), free(b), free(script), free(cfg);
	world_free(&w);
}

/* A link of the user's, older than any session, that a session moved
 * onto a later rule's way by renaming the directory holding it (the
 * link's own change time stays): not followed either (round 35e Y1, when
 * links older than the note were trusted). Control: the rule naming where
 * it leads. */
BOTH_USERS(guards, a_user_s_link_a_session_moved_onto_a_rule_s_way_is_not_followed, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "mvlink", "");
	free(write_file(w.dir, "private/f", "moved-link-secret"));
	free(write_file(w.dir, "B/keep", "b"));
	char *priv = fmt("%s/private", w.dir), *b = fmt("%s/B", w.dir);
	char *old = fmt("%s/old", w.proj), *docs = fmt("%s/old/docs", w.proj);
	char *site = fmt("%s/site", w.proj), *via = fmt("%s/site/docs", w.proj);
	cr_assert(mkdir(old, 0755) == 0 && symlink(priv, docs) == 0);
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "mv %s %s", old, site);
	run_free(&r);
	struct stat st;
	cr_assert(lstat(via, &st) == 0 && S_ISLNK(st.st_mode), "the session moved nothing");
	char *script = fmt("cat %s/f", via);
	char *cfg = fmt(", \"additional_read_only_paths\": [\"%s\"]", priv);
	set_config(&w, cfg);
	r = sh_in_dir(&w, b, script);
	cr_assert(strstr(r.out, "moved-link-secret"), "control: %s%s", r.out, r.err);
	run_free(&r);
	free(cfg);
	cfg = fmt(", \"additional_read_only_paths\": [\"%s\"]", via);
	set_config(&w, cfg);
	r = sh_in_dir(&w, b, script);
	cr_expect_null(strstr(r.out, "moved-link-secret"), "read through the moved link: %s",
		       r.out);
	cr_expect(strstr(r.err, "not followed"), "not said: %s", r.err);
	run_free(&r);
	sweep_forget(b);
	free(priv), free(b), free(old), free(docs), free(site), free(via), free(script), free(cfg);
	world_free(&w);
}

/* The note cannot be made (the registry refuses it: a full disk, a
 * read-only one): the launch fails closed, 125 and one line, and the
 * command never runs (a later session would follow a link it laid). As
 * the ordinary user, whose registry is in its home (root's refuses
 * nothing by its mode). Control: with the registry writable, it runs. */
Test(guards, a_session_whose_writes_cannot_be_noted_does_not_start, .timeout = 60)
{
	struct world w;
	world_init(&w, "nonote", "");
	world_as_user(&w);
	char *reg = fmt("%s/.local/state/cordon/sessions", w.home);
	char *marker = fmt("%s/ran", w.proj);
	struct run_result r = sh_in(&w, NULL, "true"); /* the registry made */
	run_free(&r);
	char *inproj = fmt("%s/sub", w.proj);
	cr_assert(mkdir(inproj, 0755) == 0 && chown(inproj, w.uid, w.gid) == 0);
	cr_assert(chmod(reg, 0500) == 0);
	char *opt = fmt("--allow-write %s", inproj);
	r = sh_in(&w, opt, "touch %s", marker);
	cr_expect_eq(r.status, 125, "%d %s", r.status, r.err);
	cr_expect(strncmp(r.err, "cordon: ", 8) == 0 && strstr(r.err, "cannot note") &&
			  strchr(r.err, '\n') == r.err + strlen(r.err) - 1,
		  "%s", r.err);
	cr_expect(access(marker, F_OK) < 0, "the command ran");
	run_free(&r);
	cr_assert(chmod(reg, 0700) == 0);
	r = sh_in(&w, opt, "touch %s", marker);
	cr_expect(r.status == 0 && access(marker, F_OK) == 0, "control: %d %s", r.status, r.err);
	run_free(&r);
	free(reg), free(marker), free(inproj), free(opt);
	world_free(&w);
}

/* A hidden path that a rule reaches only through a link the user made (in
 * a directory no rule makes writable) stays hidden, and explain says so
 * (round 33f P7: it said "exposed"); a write rule there is refused by run
 * as explain refuses it (run took the rule's text for another path and
 * started). Control: the rule naming ~/.ssh itself exposes it. */
BOTH_USERS(guards, a_hidden_path_a_rule_reaches_through_a_link_stays_hidden, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidln", "");
	free(write_file(w.home, ".ssh/id_test", SSH_KEY));
	free(write_file(w.dir, "ro/keep", "k"));
	char *lnk = fmt("%s/ro/lnk", w.dir), *ssh = fmt("%s/.ssh", w.home);
	cr_assert(symlink(ssh, lnk) == 0);
	world_give(&w);
	char *script = fmt("cat %s/id_test", ssh);

	char *opt = fmt("--allow-read %s", ssh);
	struct run_result r = sh_in(&w, opt, "%s", script);
	cr_assert(strstr(r.out, SSH_KEY), "control: naming ~/.ssh did not expose it: %s%s", r.out,
		  r.err);
	run_free(&r);
	free(opt);

	opt = fmt("--allow-read %s", lnk);
	r = sh_in(&w, opt, "%s", script);
	cr_expect_null(strstr(r.out, SSH_KEY), "read through the rule's link: %s", r.out);
	cr_expect_null(strstr(r.err, "not hidden"), "%s", r.err);
	run_free(&r);
	char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, "--allow-read", lnk, NULL};
	r = world_run(&w, explain, w.proj);
	char *hidden = fmt("hidden    %s  (hidden_paths", ssh);
	cr_expect(strstr(r.out, hidden) && !strstr(r.out, "exposed "),
		  "explain does not say it is hidden: %s%s", r.out, r.err);
	char *through = fmt("%s  (--allow-read, written %s: through a link)", ssh, lnk);
	cr_expect(strstr(r.out, through), "explain does not say the link: %s", r.out);
	free(through);
	run_free(&r);

	explain[4] = "--allow-write";
	r = world_run(&w, explain, w.proj);
	/* Each names the rule as it was written, and where it leads (34c S4). */
	char *holds = fmt("holds %s (--allow-write), which leads to %s: hiding it would hide that "
			  "too",
			  lnk, ssh);
	cr_expect_eq(r.status, 125, "explain: %d %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.err, holds), "explain: %s", r.err);
	run_free(&r);
	free(opt);
	opt = fmt("--allow-write %s", lnk);
	r = sh_in(&w, opt, "%s", script);
	cr_expect_eq(r.status, 125, "run: %d %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.err, holds), "run: %s", r.err);
	run_free(&r);
	/* Said printable: a name with a terminal's escape on the way (a
	 * relative rule takes the cwd's names, 35b U3). */
	char *esc = fmt("%s/ro/e\033]0;PWNED\007x", w.dir), *elnk = fmt("%s/lnk", esc);
	cr_assert(mkdir(esc, 0755) == 0 && symlink(ssh, elnk) == 0);
	free(opt);
	opt = fmt("--allow-write %s", elnk);
	r = sh_in(&w, opt, "%s", script);
	cr_expect(r.status == 125 && strstr(r.err, "hiding it would hide") &&
			  !strchr(r.err, '\033') && !strchr(r.err, '\007'),
		  "run: %d %s", r.status, r.err);
	unlink(elnk), rmdir(esc);
	free(esc), free(elnk);
	cr_expect_null(strstr(r.out, SSH_KEY), "%s", r.out);
	run_free(&r);
	free(opt), free(hidden), free(script), free(lnk), free(ssh), free(holds);
	world_free(&w);
}

/* The session registry, where the sweep keeps its record of each project
 * (the tree of every project the user ran a session in, names of files
 * included), stays unread inside though a rule grants its parent (~/.local
 * for an ordinary user, /var for root's /var/lib/cordon: round 27c read
 * the records of the user's other projects so). Control: outside, the
 * project's record is found there. */
BOTH_USERS(guards, the_session_registry_stays_unread_with_its_parent_granted, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "registry", "");
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	char *look = fmt("for d in /var/lib/cordon \"$HOME/.local/state/cordon/sessions\"; do "
			 "grep -ls 'cordon-sweep [0-9]* %s ' \"$d\"/sweep-*; ls \"$d\"; done; true",
			 w.proj);
	r = sh_outside(&w, look);
	cr_assert(strstr(r.out, "sweep-"), "control: no record found outside: %s%s", r.out, r.err);
	run_free(&r);
	set_config(&w, w.as_user ? ", \"additional_read_only_paths\": [\"~/.local\"]"
				 : ", \"additional_read_only_paths\": [\"/var\"]");
	r = sh_in(&w, NULL, "%s", look);
	cr_expect_null(strstr(r.out, "sweep-"), "the registry was read inside: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "ermission denied") || strstr(r.err, "No such file"),
		  "the probe did not run: %s%s", r.out, r.err);
	run_free(&r);
	free(look);
	world_free(&w);
}

/* A hidden path that appears outside while the session runs: made where
 * its parent was missing (~/.config/git/credentials, ~/.codex/auth.json
 * when "~" is readable), removed and made again (rm -rf ~/.config/gh; gh
 * auth login), or a hidden file replaced by a rename: none of it is read
 * inside, whatever the watch that puts the guards back manages. The rule
 * that reaches them is sieved: a name made in ~/.config, in a readable
 * home, or at a writable home's top later has no rule of its own. In a
 * writable home a dotfile saved anew outside is not written inside either.
 * Control: outside, every one of them reads, and the dotfile is written. */
static const char made_later_body[] =
	"touch ready; while [ ! -e go ]; do sleep 0.05; done\n"
	"cat ~/.config/gh/hosts.yml ~/.config/git/credentials ~/.codex/auth.json\n"
	"echo planted >> ~/.bashrc; echo bashrc $?; echo read\n";

BOTH_USERS(guards, hidden_paths_made_outside_later_stay_unread, .timeout = 90)
{
	static const char *const configs[] = {", \"additional_read_only_paths\": [\"~\"]",
					      ", \"additional_read_write_paths\": [\"~\"]"};
	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		struct world w;
		world_for(&w, who, "hlater", configs[i]);
		free(write_file(w.home, ".config/gh/hosts.yml", "oauth_token: OLD\n"));
		free(write_file(w.home, ".bashrc", "# mine\n"));
		world_give(&w);
		char *saves = fmt(
			"while [ ! -e ready ]; do sleep 0.05; done; cd %s && "
			"rm -rf .config/gh && mkdir .config/gh && echo GH-%s > .config/gh/hosts.yml && "
			"mkdir -p .config/git && echo GIT-%s > .config/git/credentials && "
			"mkdir .codex && echo CODEX-%s > .codex/auth.json && "
			"echo '# saved' > b.tmp && mv b.tmp .bashrc && touch %s/go",
			w.home, SECRET, SECRET, SECRET, w.proj);
		char *outside_argv[] = {"/bin/sh", "-c", saves, NULL};
		pid_t saver = world_spawn(&w, outside_argv, w.proj);
		char *argv[] = {CORDON_BIN, "run",     "--config", w.cfg,
				"--",       "/bin/sh", "-c",       (char *)made_later_body,
				NULL};
		struct run_result r = world_run(&w, argv, w.proj);
		int st;
		cr_expect_eq(waitpid(saver, &st, 0), saver);
		cr_assert(strstr(r.out, "read"), "the session did not get that far: %s%s", r.out,
			  r.err);
		cr_expect_null(strstr(r.out, SECRET), "a hidden path made later was read (%s): %s",
			       configs[i], r.out);
		char *bashrc = content(w.home, ".bashrc");
		cr_expect_str_eq(bashrc, "# saved\n", "a dotfile saved outside was written (%s)",
				 configs[i]);
		free(bashrc);
		run_free(&r);
		r = sh_outside(&w, strchr(made_later_body, '\n') + 1);
		cr_expect(strstr(r.out, "GH-" SECRET) && strstr(r.out, "GIT-" SECRET) &&
				  strstr(r.out, "CODEX-" SECRET) && strstr(r.out, "bashrc 0"),
			  "control: %s%s", r.out, r.err);
		run_free(&r);
		free(saves);
		world_free(&w);
	}
}

/* Hidden paths reached through links: ~/.config itself a link into a
 * dotfiles repository (the default read rule then names a link, the
 * hidden paths their canonical place), and a hidden path that is a link
 * (~/.netrc -> dotfiles/netrc, dangling as the session starts); each made
 * outside while the session runs. And a hidden path that is protected too
 * (.envrc listed in hidden_paths): hidden, not only read-only. None is read
 * inside. Control: outside, each reads. */
static const char linked_body[] = "touch ready; while [ ! -e go ]; do sleep 0.05; done\n"
				  "cat ~/.config/gh/hosts.yml ~/.netrc .envrc; echo read\n";

BOTH_USERS(guards, hidden_paths_hold_through_links_and_over_protected, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hlinks",
		  ", \"additional_read_only_paths\": [\"~\"], \"hidden_paths\": [\"~/.config/gh\", "
		  "\"~/.netrc\", \".envrc\"]");
	char *config = at(w.home, ".config"), *dots = at(w.home, "dotfiles/config");
	char *netrc = at(w.home, ".netrc"), *target = at(w.home, "dotfiles/netrc");
	free(write_file(w.home, "dotfiles/config/app.conf", "app-visible"));
	free(write_file(w.proj, ".envrc", "export KEY=ENVRC-" SECRET "\n"));
	rmdir(config);
	cr_assert(symlink(dots, config) == 0 && symlink(target, netrc) == 0);
	world_give(&w);
	give_links(who, (const char *const[]){config, netrc, NULL});
	char *saves =
		fmt("while [ ! -e ready ]; do sleep 0.05; done; cd %s && "
		    "mkdir dotfiles/config/gh && echo GH-%s > dotfiles/config/gh/hosts.yml && "
		    "echo NETRC-%s > dotfiles/netrc && touch %s/go",
		    w.home, SECRET, SECRET, w.proj);
	char *outside_argv[] = {"/bin/sh", "-c", saves, NULL};
	pid_t saver = world_spawn(&w, outside_argv, w.proj);
	char *argv[] = {CORDON_BIN, "run", "--config",          w.cfg, "--",
			"/bin/sh",  "-c",  (char *)linked_body, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	int st;
	cr_expect_eq(waitpid(saver, &st, 0), saver);
	cr_assert(strstr(r.out, "read"), "the session did not get that far: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "a hidden path was read: %s", r.out);
	run_free(&r);
	r = sh_outside(&w, strchr(linked_body, '\n') + 1);
	cr_expect(strstr(r.out, "GH-" SECRET) && strstr(r.out, "NETRC-" SECRET) &&
			  strstr(r.out, "ENVRC-" SECRET),
		  "control: %s%s", r.out, r.err);
	run_free(&r);
	/* ~/.config, reached through the link, still reads. */
	r = sh_in(&w, w.popt, "%s", "cat ~/.config/app.conf");
	cr_expect(strstr(r.out, "app-visible"), "~/.config through its link: %s%s", r.out, r.err);
	run_free(&r);
	free(saves);
	free(config);
	free(dots);
	free(netrc);
	free(target);
	world_free(&w);
}

/* ---- hidden names where the session can make names (a writable ~/.cache) ---- */

/* The session (BODY, in the project) and, outside, once it has made the
 * file "ready" in the project, SAVES (run by /bin/sh as W's user, in the
 * home), then "go": the session's output. */
static struct run_result in_while_outside(struct world *w, const char *body, const char *saves)
{
	char *outside_script = fmt("i=0; while [ ! -e %s/ready ] && [ $i -lt 300 ]; do sleep 0.05; "
				   "i=$((i+1)); done; %s; touch %s/go",
				   w->proj, saves, w->proj);
	char *outside_argv[] = {"/bin/sh", "-c", outside_script, NULL};
	pid_t saver = world_spawn(w, outside_argv, w->home);
	/* (The project named: a dotfiles project is not taken from the cwd.) */
	char *argv[] = {CORDON_BIN, "run",     "--config", w->cfg,       "--project", w->proj,
			"--",       "/bin/sh", "-c",       (char *)body, NULL};
	struct run_result r = world_run(w, argv, w->proj);
	int st;
	cr_expect_eq(waitpid(saver, &st, 0), saver);
	free(outside_script);
	char *ready = at(w->proj, "ready"), *go = at(w->proj, "go");
	unlink(ready), unlink(go);
	free(ready), free(go);
	return r;
}

#define WAIT_GO "touch ready; while [ ! -e go ]; do sleep 0.05; done; sleep 0.3\n"

/* CMD (a shell line; "CORDON" at its start stands for the world's
 * cordon) run as the world's user in a mount namespace made for the test
 * (root makes it, with BINDS, a shell line of mount --bind calls, then
 * drops to the user), in CWD (NULL: the project): what it printed. */
static struct run_result in_mount_namespace_at(const struct world *w, const char *binds,
					       const char *cwd, const char *cmd)
{
	char *who = w->as_user ? fmt("setpriv --reuid=%u --regid=%u --clear-groups -- ",
				     (unsigned)w->uid, (unsigned)w->gid)
			       : strdup("");
	bool cordon = strncmp(cmd, "CORDON ", 7) == 0;
	char *outer = fmt("%s && cd %s && exec %s%s%s", binds, cwd ? cwd : w->proj, who,
			  cordon ? (w->as_user ? w->user_cordon : CORDON_BIN) : "",
			  cordon ? cmd + 6 : cmd);
	char *argv[] = {"/usr/bin/unshare", "-m", "--propagation", "private",
			"/bin/sh",          "-c", outer,           NULL};
	struct run_result r = run_cmd(argv, w->env, w->proj, 20000);
	free(who), free(outer);
	return r;
}

static struct run_result in_mount_namespace(const struct world *w, const char *binds,
					    const char *cmd)
{
	return in_mount_namespace_at(w, binds, NULL, cmd);
}

/* Hidden files reached through a second mount of the same files, which
 * Landlock's rules (by inode) let through where cordon compares paths
 * (round 13): a bind of the home granted with --allow-read (its .ssh,
 * its .config/gh, and the home's own .ssh through it), and ~/.aws bound
 * from a /persist directory (NixOS's impermanence) under a "/" grant.
 * The other names are hidden too, and explain says why. Control: in the
 * same namespace, unsandboxed, all are read. */
BOTH_USERS(guards, hidden_paths_stay_unread_through_another_mount, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidmnt", ", \"additional_read_only_paths\": [\"/\"]");
	free(write_file(w.home, ".ssh/id_ed25519", "SSH-" SECRET "\n"));
	free(write_file(w.home, ".config/gh/hosts.yml", "GH-" SECRET "\n"));
	free(write_file(w.dir, "persist/aws/credentials", "AWS-" SECRET "\n"));
	free(write_file(w.home, ".aws/.keep", ""));
	free(write_file(w.dir, "homebind/.keep", ""));
	world_give(&w);
	char *binds = fmt("mount --bind %s/persist/aws %s/.aws && mount --bind %s %s/homebind",
			  w.dir, w.home, w.home, w.dir);
	char *script = fmt("'cat %s/homebind/.ssh/id_ed25519 %s/homebind/.config/gh/hosts.yml "
			   "%s/.ssh/id_ed25519 %s/persist/aws/credentials; echo ran'",
			   w.dir, w.dir, w.home, w.dir);
	char *control = fmt("/bin/sh -c %s", script);
	char *run = fmt("CORDON run --config %s --allow-read %s/homebind -- /bin/sh -c %s", w.cfg,
			w.dir, script);
	char *explain = fmt("CORDON explain --config %s --allow-read %s/homebind", w.cfg, w.dir);
	struct run_result r = in_mount_namespace(&w, binds, control);
	cr_assert(strstr(r.out, "SSH-" SECRET) && strstr(r.out, "GH-" SECRET) &&
			  strstr(r.out, "AWS-" SECRET),
		  "control: unsandboxed: %s%s", r.out, r.err);
	run_free(&r);
	r = in_mount_namespace(&w, binds, run);
	cr_expect(strstr(r.out, "ran"), "the session did not run: %d %s%s", r.status, r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "a hidden file was read through another mount: %s",
		       r.out);
	run_free(&r);
	char *said = fmt("%s/homebind/.ssh  (hidden_paths (default): %s/.ssh, mounted here too)",
			 w.dir, w.home);
	r = in_mount_namespace(&w, binds, explain);
	cr_expect(strstr(r.out, said), "explain does not say it: %s%s", r.out, r.err);
	run_free(&r);
	free(binds), free(script), free(control), free(run), free(explain), free(said);
	world_free(&w);
}

/* A directory below a hidden path bound from elsewhere (~/.ssh/keys from
 * persist/sshkeys: impermanence's lists, a key directory mounted from an
 * encrypted volume): only mounts whose root held the hidden path were its
 * other names, so the project persist read the key by the source's name
 * (round 50e F2). It is hidden there too. Controls: unsandboxed, in the
 * same namespace, the key reads; with no bind, the session reads it (a
 * plain project file then). */
BOTH_USERS(guards, a_hidden_dir_bound_below_stays_unread_by_its_source, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidsub", "");
	char *persist = at(w.dir, "persist"), *src = at(persist, "sshkeys");
	char *keys = at(w.home, ".ssh/keys");
	free(write_file(src, "id_ed25519", "SSH-" SECRET "\n"));
	free(write_file(keys, ".keep", ""));
	world_give(&w);
	char *bind = fmt("mount --bind %s %s", src, keys);
	char *script = fmt("'cat %s/id_ed25519; echo ran'", src);
	char *control = fmt("/bin/sh -c %s", script);
	char *run =
		fmt("CORDON run --config %s --project %s -- /bin/sh -c %s", w.cfg, persist, script);
	struct run_result r = in_mount_namespace_at(&w, bind, persist, control);
	cr_assert(strstr(r.out, "SSH-" SECRET), "control: unsandboxed: %s%s", r.out, r.err);
	run_free(&r);
	r = in_mount_namespace_at(&w, bind, persist, run);
	cr_expect(strstr(r.out, "ran"), "the session did not run: %d %s%s", r.status, r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "the key below ~/.ssh was read by its source: %s",
		       r.out);
	run_free(&r);
	r = in_mount_namespace_at(&w, "true", persist, run);
	cr_expect(strstr(r.out, "SSH-" SECRET), "control: no bind, a project file: %d %s%s",
		  r.status, r.out, r.err);
	run_free(&r);
	sweep_forget_beneath(w.dir);
	free(bind), free(script), free(control), free(run);
	free(persist), free(src), free(keys);
	world_free(&w);
}

/* The plant of the home's startup file and cordon's config, from the
 * current directory (the home by another name, or its ~/.config), or from
 * its h/ (a directory that holds a bind of the home there), as the tests
 * of the home by another name make it: each step says its status. */
#define HOME_PLANT                                                                                 \
	"'[ -d h ] && cd h; echo evil >> .bashrc; echo rc $?; "                                    \
	"echo \"" DISABLE "\" > .config/cordon/config.json; echo cfg $?; "                         \
	"[ -d cordon ] && echo \"" DISABLE "\" > cordon/config.json; echo ran'"

/* DIR's .bashrc and .config/cordon/config.json as the test lays them. */
static void lay_home_files(const char *dir)
{
	free(write_file(dir, ".bashrc", "# rc\n"));
	free(write_file(dir, ".config/cordon/config.json", "{}\n"));
}

/* Whether DIR's files are as lay_home_files laid them: 0, or which one
 * changed. */
static const char *home_files_changed(const char *dir)
{
	char *rc = content(dir, ".bashrc"), *cfg = content(dir, ".config/cordon/config.json");
	const char *changed = strcmp(rc, "# rc\n") != 0  ? ".bashrc"
			      : strcmp(cfg, "{}\n") != 0 ? ".config/cordon/config.json"
							 : NULL;
	free(rc), free(cfg);
	return changed;
}

/* The current directory a bind mount of the home (NixOS's impermanence
 * /persist/home/me, a container's -v $HOME:/host-home): it was a project
 * like any other, the home's dotfile and config guards are mounts at the
 * home's own paths and do not show through the bind, so the session wrote
 * ~/.bashrc and cordon's config by that name (round 50c F2). Now it gets
 * no writable project, says why in the one line, and both files stay
 * (judged outside: their bytes); so for a directory that holds such a
 * bind. Named with --project, a bind of the home, or of its ~/.config, is
 * refused (125), and the plant never runs. Controls, in the same mount
 * namespace: cwd a bind of a plain directory is a project, and the same
 * plant writes both files there; named, it is too. */
BOTH_USERS(guards, the_home_by_another_mount_is_no_project, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "bindhome", "");
	lay_home_files(w.home);
	char *plain = at(w.dir, "plain"), *bh = at(w.dir, "bh"), *bp = at(w.dir, "bp"),
	     *bc = at(w.dir, "bc"), *holder = at(w.dir, "holder"), *inner = at(holder, "h");
	lay_home_files(plain);
	cr_assert(mkdir(bh, 0755) == 0 && mkdir(bp, 0755) == 0 && mkdir(bc, 0755) == 0 &&
		  mkdir(holder, 0755) == 0 && mkdir(inner, 0755) == 0);
	world_give(&w);
	char *binds = fmt("mount --bind %s %s && mount --bind %s %s && mount --bind %s/.config %s "
			  "&& mount --bind %s %s",
			  w.home, bh, plain, bp, w.home, bc, w.home, inner);
	char *run = fmt("CORDON run --config %s -- /bin/sh -c " HOME_PLANT, w.cfg);

	/* Control: a bind of a plain directory is a project; the plant lands. */
	struct run_result r = in_mount_namespace_at(&w, binds, bp, run);
	cr_assert(strstr(r.out, "ran"), "control: did not run: %d %s%s", r.status, r.out, r.err);
	cr_assert_str_eq(home_files_changed(plain), ".bashrc",
			 "control: a bind of a plain directory was no project: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "no writable project"), "%s", r.err);
	run_free(&r);
	lay_home_files(plain);
	world_give(&w);

	/* The current directory is the home by another name, or holds it. */
	const char *const cwds[] = {bh, holder};
	for (size_t i = 0; i < 2; i++) {
		r = in_mount_namespace_at(&w, binds, cwds[i], run);
		char *diag = fmt("%s (%d): %s%s", cwds[i], r.status, r.out, r.err);
		cr_expect(strstr(r.out, "ran"), "the command did not run: %s", diag);
		const char *changed = home_files_changed(w.home);
		cr_expect_null(changed, "~/%s was written through a bind of the home: %s", changed,
			       diag);
		char *said =
			i ? fmt("cordon: %s holds your home directory (%s), mounted here too "
				"as %s; the session has no writable project",
				holder, w.home, inner)
			  : fmt("cordon: %s is your home directory (%s), mounted here too; the "
				"session has no writable project",
				bh, w.home);
		cr_expect(strstr(r.err, said), "not said: %s", diag);
		run_free(&r);
		lay_home_files(w.home);
		world_give(&w);
		free(said), free(diag);
	}

	/* Named: refused. */
	const char *const named[] = {bh, bc};
	for (size_t i = 0; i < 2; i++) {
		char *opt = fmt("CORDON run --config %s --project %s -- /bin/sh -c " HOME_PLANT,
				w.cfg, named[i]);
		r = in_mount_namespace_at(&w, binds, named[i], opt);
		char *diag = fmt("%s (%d): %s%s", named[i], r.status, r.out, r.err);
		cr_expect_eq(r.status, 125, "--project a bind of the home was taken: %s", diag);
		cr_expect_null(strstr(r.out, "ran"), "the plant ran: %s", diag);
		cr_expect_null(home_files_changed(w.home), "the home was written: %s", diag);
		char *said = i ? fmt("cordon: --project %s: is ~/.config, mounted here too", bc)
			       : fmt("cordon: --project %s: is your home directory (%s), mounted "
				     "here too",
				     bh, w.home);
		cr_expect(strstr(r.err, said), "not said: %s", diag);
		run_free(&r);
		lay_home_files(w.home);
		world_give(&w);
		free(said), free(diag), free(opt);
	}
	/* Control: named, a bind of a plain directory is the project. */
	char *opt = fmt("CORDON run --config %s --project %s -- /bin/sh -c " HOME_PLANT, w.cfg, bp);
	r = in_mount_namespace_at(&w, binds, bp, opt);
	cr_expect_str_eq(home_files_changed(plain), ".bashrc",
			 "control: --project a bind of a plain directory: %s%s", r.out, r.err);
	run_free(&r);
	sweep_forget_beneath(w.dir);
	free(opt), free(run), free(binds);
	free(plain), free(bh), free(bp), free(bc), free(holder), free(inner);
	world_free(&w);
}

/* ~/.config/git a bind mount of ~/dotfiles/git (the dotfiles repository
 * bound rather than linked; NixOS's impermanence binds ~/.config/git from
 * /persist/home/me/.config/git): only mounts whose root held what the home
 * keeps were its other names, so the project ~/dotfiles, named or from
 * the cwd, wrote git's global config through its own name, and git
 * outside ran the core.fsmonitor planted there (round 50e F1). Named, it
 * is refused (125, saying ~/.config/git), and the plant never runs; from
 * the cwd it is no writable project. Judged outside: the config's bytes
 * (~/dotfiles/git/config, the file ~/.config/git/config is). Controls:
 * the plant, unsandboxed in the namespace, is what git reads as its
 * global core.fsmonitor; without the bind (plain directories) the same
 * sessions write the file, named and from the cwd. */
BOTH_USERS(guards, a_dotfiles_dir_bound_below_the_config_is_no_project, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "bindsub", "");
	static const char was[] = "[user]\n\tname = me\n";
	char *dots = at(w.home, "dotfiles"), *src = at(dots, "git"),
	     *cgit = at(w.home, ".config/git");
	char *file = write_file(src, "config", was), *mark = at(w.outside, "MARK-git");
	free(write_file(cgit, ".keep", ""));
	world_give(&w);
	char *bind = fmt("mount --bind %s %s", src, cgit);
	/* (Appended from ~/dotfiles as a core.fsmonitor git would run.) */
	char *plant = fmt("'printf \"[core]\\\\n\\\\tfsmonitor = \\\"touch %s; false\\\"\\\\n\" "
			  ">> git/config; echo wrote $?; echo ran'",
			  mark);
	char *named =
		fmt("CORDON run --config %s --project %s -- /bin/sh -c %s", w.cfg, dots, plant);
	char *from_cwd = fmt("CORDON run --config %s -- /bin/sh -c %s", w.cfg, plant);

	/* Control: unsandboxed, the plant lands in git's global config. */
	char *unsandboxed = fmt("/bin/sh -c %s", plant);
	struct run_result r = in_mount_namespace_at(&w, bind, dots, unsandboxed);
	cr_assert(strstr(r.out, "wrote 0"), "control: unsandboxed: %d %s%s", r.status, r.out,
		  r.err);
	run_free(&r);
	char *fsmonitor = fmt("touch %s; false", mark);
	r = in_mount_namespace_at(&w, bind, dots, "git config --global --get core.fsmonitor");
	cr_assert(strstr(r.out, fsmonitor), "control: git does not read the plant: %d %s%s",
		  r.status, r.out, r.err);
	run_free(&r);
	free(fsmonitor);
	free(write_file(src, "config", was));
	world_give(&w);

	/* Named: refused. */
	r = in_mount_namespace_at(&w, bind, dots, named);
	char *diag = fmt("--project (%d): %s%s", r.status, r.out, r.err);
	cr_expect_eq(r.status, 125, "--project a directory bound at ~/.config/git was taken: %s",
		     diag);
	cr_expect_null(strstr(r.out, "ran"), "the plant ran: %s", diag);
	char *now = slurp(file);
	cr_expect_str_eq(now, was, "~/.config/git/config was written: %s", diag);
	free(now);
	char *said =
		fmt("cordon: --project %s: holds ~/.config/git, mounted here too as %s", dots, src);
	cr_expect(strstr(r.err, said), "not said: %s", diag);
	free(said), free(diag);
	run_free(&r);
	free(write_file(src, "config", was));
	world_give(&w);

	/* From the current directory: no writable project. */
	r = in_mount_namespace_at(&w, bind, dots, from_cwd);
	diag = fmt("cwd (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "ran"), "the command did not run: %s", diag);
	now = slurp(file);
	cr_expect_str_eq(now, was, "~/.config/git/config was written: %s", diag);
	free(now);
	cr_expect(strstr(r.err, "~/.config/git") && strstr(r.err, "no writable project"),
		  "not said: %s", diag);
	free(diag);
	run_free(&r);
	free(write_file(src, "config", was));
	world_give(&w);

	/* Controls: plain directories, no bind; the same sessions write it. */
	const char *const ctl[] = {named, from_cwd};
	for (size_t i = 0; i < 2; i++) {
		r = in_mount_namespace_at(&w, "true", dots, ctl[i]);
		now = slurp(file);
		cr_expect(strstr(now, "fsmonitor"), "control: %s, no bind: %d %s%s",
			  i ? "from the cwd" : "--project", r.status, r.out, r.err);
		free(now);
		run_free(&r);
		free(write_file(src, "config", was));
		world_give(&w);
	}
	sweep_forget_beneath(w.dir);
	free(bind), free(plant), free(named), free(from_cwd), free(unsandboxed);
	free(dots), free(src), free(cgit), free(file), free(mark);
	world_free(&w);
}

/* The repository's own config includes a file that does not exist yet
 * (include.path = ../team.gitconfig): an empty file stands in for it while
 * the session runs, read-only, so what the session would write there is
 * not run by a git outside *during* the session (an editor's git view:
 * round 13 ran its core.fsmonitor); the stand-in is removed as the
 * session ends, unless it was written outside meanwhile. Control: the
 * same plant, unsandboxed, runs at git status. */
BOTH_USERS(guards, a_missing_include_runs_nothing_while_the_session_runs, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ginclive");
	/* (Round 14: one whose directory is missing too, conf/, gets an
	 * empty directory; one in a missing .vscode, with its stand-in, goes
	 * with it unsaid. Round 15: two directories missing, x/y/; and one
	 * through a dangling link, lnk -> conf2, whose link stays.) */
	struct run_result r = outside(&w, "git config include.path ../team.gitconfig && "
					  "git config --add include.path ../conf/team.gitconfig && "
					  "git config --add include.path ../.vscode/git.conf && "
					  "git config --add include.path ../x/y/team.gitconfig && "
					  "git config --add include.path ../lnk/team.gitconfig && "
					  "ln -s conf2 lnk");
	run_free(&r);
	char *body =
		plant(&w, "deny", "",
		      "fsmon > team.gitconfig; echo plant $?; rm -f team.gitconfig; echo rm $?; "
		      "fsmon > .git/../team.gitconfig; echo replant $?; "
		      "mkdir -p conf; fsmon > conf/team.gitconfig; fsmon > .vscode/git.conf; "
		      "mv x x.old; mkdir -p x/y; fsmon > x/y/team.gitconfig; "
		      "rm lnk; mkdir -p conf2; fsmon > lnk/team.gitconfig; " WAIT_GO);
	char *status = fmt("cd '%s' && git status >/dev/null 2>&1", w.proj);
	r = in_while_outside(&w, body, status);
	cr_expect(strstr(r.out, "plant "), "the session did not run: %d %s%s", r.status, r.out,
		  r.err);
	cr_expect_not(marked(&w, "deny", "fsmonitor"),
		      "git outside ran the included plant during the session: %s%s", r.out, r.err);
	cr_expect_not(present(w.proj, "team.gitconfig"), "the stand-in was left: %s", r.err);
	cr_expect_not(present(w.proj, "conf"), "conf's stand-in was left: %s", r.err);
	cr_expect_not(present(w.proj, ".vscode"), ".vscode's stand-in was left: %s", r.err);
	cr_expect_not(present(w.proj, "x"), "x's stand-in was left: %s", r.err);
	cr_expect_not(present(w.proj, "conf2"), "conf2's stand-in was left: %s", r.err);
	struct stat st;
	char *lnk = at(w.proj, "lnk");
	cr_expect(lstat(lnk, &st) == 0 && S_ISLNK(st.st_mode), "lnk was removed: %s", r.err);
	free(lnk);
	cr_expect_null(strstr(r.err, "no longer empty"), "falsely said: %s", r.err);
	run_free(&r);
	/* Written outside while the session runs: the user's, kept. */
	char *save = fmt("printf '[alias]\\n\\tst = status\\n' > '%s/team.gitconfig'", w.proj);
	r = in_while_outside(&w, "echo ran; " WAIT_GO, save);
	char *now = content(w.proj, "team.gitconfig");
	cr_expect_str_eq(now, "[alias]\n\tst = status\n", "the user's save was lost: %s%s", r.out,
			 r.err);
	free(now);
	run_free(&r);
	r = outside(&w, "rm -f team.gitconfig");
	run_free(&r);
	/* Control. */
	plant_outside(&w, "fsmon > team.gitconfig", NULL);
	r = sh_outside(&w, status);
	run_free(&r);
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: git status ran no fsmonitor");
	free(save), free(status), free(body);
	world_free(&w);
}

/* ~/.ssh linked into the project, two levels down (a dotfiles tree:
 * ~/.ssh -> PROJ/keys/ssh): the session cannot rename keys away (taking the
 * cover along) and plant an ssh config at the name; a key the user's tools
 * write there anew outside (the directory moved aside and made again)
 * is not read inside; and ~/.aws linked to a name there that does not
 * exist yet refuses the session (it could make the name, write what the
 * aws CLI obeys there, and read what `aws configure` writes later).
 * Controls: outside, the rename and plant land; hidden_paths [] runs. */
static const char linked_rename[] =
	"mv keys keys.old; mkdir -p keys/ssh && echo planted > keys/ssh/config; echo renamed\n";

BOTH_USERS(guards, hidden_links_into_the_project_hold, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidlinkw", "");
	char *ssh = at(w.home, ".ssh"), *keys = at(w.proj, "keys/ssh");
	free(write_file(keys, "id_test", SSH_KEY));
	free(write_file(keys, "config", "Host *\n"));
	cr_assert_eq(symlink(keys, ssh), 0);
	world_give(&w);
	give_links(who, (const char *const[]){ssh, NULL});
	struct run_result r = sh_in(&w, w.popt, "%s", linked_rename);
	char *now = content(keys, "config");
	cr_expect_str_eq(now, "Host *\n", "~/.ssh/config was planted: %s%s", r.out, r.err);
	free(now);
	cr_expect_not(present(w.proj, "keys.old"), "keys was renamed away: %s", r.err);
	run_free(&r);

	/* Made anew outside while the session runs. */
	char *remake = fmt("mv %s %s.bak && mkdir %s && echo NEW-%s > %s/id_new", keys, keys, keys,
			   SECRET, keys);
	r = in_while_outside(
		&w, "sleep 0.5; " WAIT_GO "cat ~/.ssh/id_new keys/ssh/id_new; echo read", remake);
	free(remake);
	cr_assert(strstr(r.out, "read"), "the session did not get that far: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "the key made anew outside was read: %s", r.out);
	run_free(&r);

	/* A link to a name not made yet, which the session could make. */
	char *aws = at(w.home, ".aws"), *awsdir = at(w.proj, "aws");
	cr_assert_eq(symlink(awsdir, aws), 0);
	give_links(who, (const char *const[]){aws, NULL});
	r = sh_in(&w, w.popt, "%s", "mkdir aws && echo '[default]' > aws/config; echo ran");
	cr_expect_eq(r.status, 125, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "/.aws (hidden_paths (default)) is a symbolic link to"), "%s",
		  r.err);
	cr_expect_not(present(w.proj, "aws"), "the session ran: %s", r.out);
	run_free(&r);
	set_config(&w, ", \"hidden_paths\": []");
	r = sh_in(&w, w.popt, "%s", "echo ran");
	cr_expect(strstr(r.out, "ran"), "control: without hidden_paths: %s%s", r.out, r.err);
	run_free(&r);

	/* Outside, the rename and the plant land. */
	r = sh_outside(&w, linked_rename);
	now = content(ssh, "config");
	cr_expect_str_eq(now, "planted\n", "control: outside: %s", r.err);
	free(now);
	run_free(&r);
	free(aws);
	free(awsdir);
	free(ssh);
	free(keys);
	world_free(&w);
}

/* GNU stow's layout: ~/.ssh is a directory of links into the dotfiles
 * repository, here the project (~/.ssh/config -> PROJ/ssh/config). What
 * they lead to is hidden as ~/.ssh is: the session neither reads the key
 * nor adds to the config ssh outside obeys. Control: outside, both. A
 * ~/.ssh past what cordon follows refuses the session. */
static const char stowed_plant[] = "cat ssh/id_test; echo 'Match exec \"true\"' >> ssh/config; "
				   "echo planted $?; echo 'Match exec \"true\"' >> ssh/work.conf; "
				   "echo deep $?\n";

BOTH_USERS(guards, stowed_hidden_files_in_the_project_stay_hidden, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidstow", "");
	char *cfg = at(w.proj, "ssh/config"), *key = at(w.proj, "ssh/id_test");
	char *lcfg = at(w.home, ".ssh/config"), *lkey = at(w.home, ".ssh/id_test");
	free(write_file(w.proj, "ssh/config", "Host *\n"));
	free(write_file(w.proj, "ssh/id_test", SSH_KEY));
	free(write_file(w.home, ".ssh/known_hosts", ""));
	/* One five directories down, among more entries than a glance would
	 * take, beside a busy directory read first or not (round 8). */
	for (int i = 0; i < 300; i++) {
		char *name = fmt(".ssh/%s/h%03d", i < 80 ? "config.d/a/b/c/d" : "cm", i);
		free(write_file(w.home, name, ""));
		free(name);
	}
	free(write_file(w.proj, "ssh/work.conf", "Host work\n"));
	char *work = at(w.proj, "ssh/work.conf"),
	     *lwork = at(w.home, ".ssh/config.d/a/b/c/d/work.conf");
	cr_assert(symlink(work, lwork) == 0);
	cr_assert(symlink(cfg, lcfg) == 0 && symlink(key, lkey) == 0);
	world_give(&w);
	give_links(who, (const char *const[]){lcfg, lkey, lwork, NULL});
	struct run_result r = sh_in(&w, w.popt, "%s", stowed_plant);
	char *deep = content(w.proj, "ssh/work.conf");
	cr_expect_str_eq(deep, "Host work\n", "the deeper stowed file was written: %s%s", r.out,
			 r.err);
	free(deep);
	cr_expect_null(strstr(r.out, SSH_KEY), "the stowed key was read: %s", r.out);
	char *now = content(w.proj, "ssh/config");
	cr_expect_str_eq(now, "Host *\n", "the stowed ssh config was written: %s%s", r.out, r.err);
	free(now);
	run_free(&r);
	r = sh_outside(&w, stowed_plant);
	cr_expect(strstr(r.out, SSH_KEY) && strstr(r.out, "planted 0") && strstr(r.out, "deep 0"),
		  "control: outside: %s%s", r.out, r.err);
	run_free(&r);
	/* Past what cordon follows (1024 entries), with links into the
	 * project in it: refused, naming ~/.ssh. Control: with hidden_paths
	 * [], it runs. */
	for (int i = 0; i < 1100; i++) {
		char *name = fmt(".ssh/many/f%04d", i);
		free(write_file(w.home, name, ""));
		free(name);
	}
	world_give(&w);
	r = sh_in(&w, w.popt, "echo ran");
	char *ssh = at(w.home, ".ssh");
	char *want = fmt("%s (hidden_paths (default)) holds links into a writable directory, and "
			 "more than 1024 entries",
			 ssh);
	cr_expect_eq(r.status, 125, "%s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, "ran"), "it ran: %s", r.out);
	cr_expect(strstr(r.err, want), "not said: %s", r.err);
	run_free(&r);
	set_config(&w, ", \"hidden_paths\": []");
	r = sh_in(&w, w.popt, "echo ran");
	cr_expect(strstr(r.out, "ran"), "control: %s%s", r.out, r.err);
	run_free(&r);
	free(want);
	free(ssh);
	free(work);
	free(lwork);
	free(cfg);
	free(key);
	free(lcfg);
	free(lkey);
	world_free(&w);
}

/* A browser profile, hidden whole, larger than cordon follows links in
 * (1100 files and the lock link Firefox keeps): the session runs, and
 * reads none of it. Control: outside, the cookie is read. */
BOTH_USERS(guards, a_large_hidden_profile_runs_and_stays_unread, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidbig", ", \"additional_read_only_paths\": [\"~\"]");
	for (int i = 0; i < 1100; i++) {
		char *name = fmt(".mozilla/firefox/p/cache2/f%04d", i);
		free(write_file(w.home, name, ""));
		free(name);
	}
	free(write_file(w.home, ".mozilla/firefox/p/cookies.sqlite", "cookie-" TOKEN));
	char *lock = at(w.home, ".mozilla/firefox/p/lock");
	cr_assert_eq(symlink("127.0.0.1:+4242", lock), 0);
	world_give(&w);
	give_links(who, (const char *const[]){lock, NULL});
	const char *script = "cat ~/.mozilla/firefox/p/cookies.sqlite; echo ran";
	struct run_result r = sh_outside(&w, script);
	cr_assert(strstr(r.out, "cookie-" TOKEN), "control: %s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "%s", script);
	cr_expect(strstr(r.out, "ran"), "the session did not run: %d %s%s", r.status, r.out, r.err);
	cr_expect_null(strstr(r.out, TOKEN), "the cookie was read: %s", r.out);
	run_free(&r);
	free(lock);
	world_free(&w);
}

/* ~/.ssh -> PROJ/cur/ssh where PROJ/cur is itself a link (a "current
 * profile" link to PROJ/profiles/work): the session could swap cur for a
 * link to a directory of its own, and ssh outside would obey its config.
 * The link is kept in place (a mount on it): the swap fails, and ssh's
 * config stays the user's and unread. Control: outside, the swap lands. */
static const char swap_profile[] = "mkdir -p mine/ssh && echo planted > mine/ssh/config && "
				   "ln -sfn mine cur.new && mv -T cur.new cur; echo swapped; "
				   "cat profiles/work/ssh/config\n";

BOTH_USERS(guards, a_link_on_the_way_to_a_hidden_path_stays_in_place, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidchain", "");
	char *ssh = at(w.home, ".ssh"), *via = at(w.proj, "cur/ssh");
	char *work = at(w.proj, "profiles/work"), *cur = at(w.proj, "cur");
	free(write_file(work, "ssh/config", "Host * # " SECRET "\n"));
	cr_assert(symlink(via, ssh) == 0 && symlink("profiles/work", cur) == 0);
	world_give(&w);
	give_links(who, (const char *const[]){ssh, cur, NULL});
	struct run_result r = sh_in(&w, w.popt, "%s", swap_profile);
	cr_expect(strstr(r.out, "swapped"), "the session did not run: %d %s%s", r.status, r.out,
		  r.err);
	cr_expect_null(strstr(r.out, SECRET), "ssh's config was read: %s", r.out);
	char *now = content(ssh, "config");
	cr_expect_str_eq(now, "Host * # " SECRET "\n", "~/.ssh/config was planted: %s%s", r.out,
			 r.err);
	free(now);
	char target[PATH_MAX] = "";
	cr_expect(readlink(cur, target, sizeof(target) - 1) > 0 &&
			  strcmp(target, "profiles/work") == 0,
		  "cur was swapped: %s", target);
	run_free(&r);
	r = sh_outside(&w, swap_profile);
	now = content(ssh, "config");
	cr_expect_str_eq(now, "planted\n", "control: outside: %s", r.err);
	free(now);
	run_free(&r);
	free(ssh), free(via), free(work), free(cur);
	world_free(&w);
}

/* A hidden name whose directory is missing as the session starts, in a
 * directory the session may write (a writable ~/.cache, or a writable
 * home): the session makes the directory after the watch began (0.5 s),
 * or a program outside makes three levels of it, and a login outside
 * writes the token there (`huggingface-cli login`). Neither is read
 * inside, and both are said as the session ends. Control: outside, both
 * are read. */
BOTH_USERS(guards, hidden_names_whose_directory_appears_later_stay_unread, .timeout = 90)
{
	static const char *const configs[] = {", \"additional_read_write_paths\": [\"~/.cache\"]",
					      ", \"additional_read_write_paths\": [\"~\"]"};
	static const char read_tokens[] =
		"cat ~/.cache/huggingface/token ~/.cache/tool/a/b/token; echo read\n";
	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		struct world w;
		char *extra =
			fmt("%s, \"hidden_paths\": [\"~/.ssh\", \"~/.cache/huggingface/token\", "
			    "\"~/.cache/tool/a/b/token\"]",
			    configs[i]);
		world_for(&w, who, "hdirlater", extra);
		free(write_file(w.home, ".cache/other", "cache-visible"));
		world_give(&w);
		char *body =
			fmt("sleep 0.5; mkdir -p ~/.cache/huggingface; cat ~/.cache/other\n" WAIT_GO
			    "%s",
			    read_tokens);
		struct run_result r = in_while_outside(
			&w, body,
			"echo HF-" SECRET
			" > .cache/huggingface/token && mkdir -p .cache/tool/a/b && "
			"echo TOOL-" SECRET " > .cache/tool/a/b/token");
		cr_assert(strstr(r.out, "cache-visible") && strstr(r.out, "read"),
			  "the session did not get that far (%s): %s%s", configs[i], r.out, r.err);
		cr_expect_null(strstr(r.out, SECRET), "a token made later was read (%s): %s",
			       configs[i], r.out);
		cr_expect(strstr(r.err,
				 "/.cache/huggingface/token (hidden_paths) appeared while "
				 "this session ran, where the session could write: it may have "
				 "read what was written there") &&
				  strstr(r.err, "/.cache/tool/a/b/token (hidden_paths) appeared"),
			  "not said (%s): %s", configs[i], r.err);
		run_free(&r);
		r = sh_outside(&w, read_tokens);
		cr_expect(strstr(r.out, "HF-" SECRET) && strstr(r.out, "TOOL-" SECRET),
			  "control: %s%s", r.out, r.err);
		run_free(&r);
		free(body);
		free(extra);
		world_free(&w);
	}
}

/* A pattern of the default hidden list that matches nothing yet as the
 * session starts (54g G1): an app whose directory is already in
 * ~/.config makes its Cookies store and its Local Storage after the
 * session started, and an app's directory whose name starts with a dot
 * holds a Cookies store ("*" passed over such names) and its SQLite
 * journal (filled in place later: 58a F-E), and an app's
 * directory that is a link into a dotfiles directory gets one there
 * (round 58a F-C: the readable home granted the link's target whole).
 * Under the default ~/.config grant, a readable home and a writable one
 * (its ~/.config read-only), none of them is read inside; the app's
 * other file is. Control: outside, each reads. */
BOTH_USERS(guards, hidden_pattern_matches_made_later_stay_unread, .timeout = 90)
{
	static const char *const configs[] = {"", ", \"additional_read_only_paths\": [\"~\"]",
					      ", \"additional_read_write_paths\": [\"~\"]"};
	static const char read_stores[] =
		"cat ~/.config/Zapp/Cookies \"$HOME/.config/Zapp/Local Storage/leveldb\" "
		"~/.config/.dotapp/Cookies ~/.config/.dotapp/Cookies-journal ~/.config/Linked/Cookies "
		"~/dotfiles/Linked/Cookies; echo read\n";
	for (size_t i = 0; i < sizeof(configs) / sizeof(configs[0]); i++) {
		struct world w;
		world_for(&w, who, "hglob", configs[i]);
		free(write_file(w.home, ".config/Zapp/prefs", "zapp-prefs"));
		free(write_file(w.home, ".config/.dotapp/Cookies", "DOT-" SECRET));
		free(write_file(w.home, ".config/.dotapp/Cookies-journal", ""));
		/* (Not in the writable home: what it holds beside ~/.config,
		 * the session may write, and a match made there is not kept:
		 * docs/internals.md, "Patterns kept as patterns".) */
		bool linked = i < 2;
		free(write_file(w.home, "dotfiles/Linked/settings", "linked-settings"));
		char *lnk = at(w.home, ".config/Linked");
		cr_assert(!linked || symlink("../dotfiles/Linked", lnk) == 0);
		free(lnk);
		world_give(&w);
		char *body = fmt("cat ~/.config/Zapp/prefs; echo\n" WAIT_GO "%s", read_stores);
		struct run_result r = in_while_outside(
			&w, body,
			"echo COOKIE-" SECRET " > .config/Zapp/Cookies && "
			"mkdir '.config/Zapp/Local Storage' && "
			"echo STORAGE-" SECRET " > '.config/Zapp/Local Storage/leveldb' && "
			"echo JOURNAL-" SECRET " > .config/.dotapp/Cookies-journal && "
			"{ [ ! -L .config/Linked ] || echo LINKED-" SECRET
			" > dotfiles/Linked/Cookies; }");
		cr_assert(strstr(r.out, "zapp-prefs") && strstr(r.out, "read"),
			  "the session did not get that far (%s): %s%s", configs[i], r.out, r.err);
		cr_expect_null(strstr(r.out, SECRET),
			       "a store a hidden pattern matches was read (%s): %s", configs[i],
			       r.out);
		run_free(&r);
		r = sh_outside(&w, read_stores);
		cr_expect(strstr(r.out, "COOKIE-" SECRET) && strstr(r.out, "STORAGE-" SECRET) &&
				  strstr(r.out, "DOT-" SECRET) &&
				  strstr(r.out, "JOURNAL-" SECRET) &&
				  (!linked || strstr(r.out, "LINKED-" SECRET)),
			  "control: %s%s", r.out, r.err);
		run_free(&r);
		free(body);
		world_free(&w);
	}
}

/* An app's file and directory that existed as the session started,
 * renamed outside into a hidden pattern's names (a restore, a profile
 * migration: mv oldfile Cookies, mv olddir "Local Storage"): each kept
 * the rule the sieve gave it as an entry of its own (58a F-B). The watch
 * covers such a match as it appears; neither is read inside, the app's
 * other file is. Control: outside, both read. */
BOTH_USERS(guards, a_file_renamed_into_a_hidden_pattern_stays_unread, .timeout = 60)
{
	static const char read_stores[] =
		"cat ~/.config/Zapp/Cookies \"$HOME/.config/Zapp/Local Storage/x\"; echo read\n";
	struct world w;
	world_for(&w, who, "hglobmv", "");
	free(write_file(w.home, ".config/Zapp/prefs", "zapp-prefs"));
	free(write_file(w.home, ".config/Zapp/oldfile", "old"));
	free(write_file(w.home, ".config/Zapp/olddir/y", "old"));
	world_give(&w);
	char *body = fmt("cat ~/.config/Zapp/prefs; echo\n" WAIT_GO "%s", read_stores);
	struct run_result r = in_while_outside(
		&w, body,
		"cd .config/Zapp && echo COOKIE-" SECRET " > oldfile && mv oldfile Cookies && "
		"mv olddir 'Local Storage' && echo STORAGE-" SECRET " > 'Local Storage/x'");
	cr_assert(strstr(r.out, "zapp-prefs") && strstr(r.out, "read"),
		  "the session did not get that far: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "a store renamed into place was read: %s", r.out);
	run_free(&r);
	r = sh_outside(&w, read_stores);
	cr_expect(strstr(r.out, "COOKIE-" SECRET) && strstr(r.out, "STORAGE-" SECRET),
		  "control: %s%s", r.out, r.err);
	run_free(&r);
	free(body);
	world_free(&w);
}

/* A writable home: the session lays a link at a name only a hidden
 * pattern covers (~/.var/app/APP/.thunderbird, a flatpak's profile) to a
 * directory of the project; the app outside, started for the first time,
 * would write its logins through it where the session reads them (58a
 * F-D). The link is moved aside as it is found, and said: the logins land
 * at the name itself, none in the project. Control: outside, the same
 * link carries them into the project. */
BOTH_USERS(guards, a_link_laid_at_a_hidden_pattern_s_name_is_moved_aside, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hgloblure", ", \"additional_read_write_paths\": [\"~\"]");
	free(write_file(w.home, ".var/app/org.x.Mail/.keep", ""));
	world_give(&w);
	struct run_result r = in_while_outside(
		&w,
		"ln -s \"$PWD/tb\" ~/.var/app/org.x.Mail/.thunderbird && mkdir tb && sleep 0.5\n" WAIT_GO
		"cat tb/profile/logins.json; echo read\n",
		"mkdir -p .var/app/org.x.Mail/.thunderbird/profile && "
		"echo LOGIN-" SECRET " > .var/app/org.x.Mail/.thunderbird/profile/logins.json");
	cr_assert(strstr(r.out, "read"), "the session did not get that far: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "the logins were read through the link: %s", r.out);
	cr_expect(!present(w.proj, "tb/profile/logins.json"), "the logins landed in the project");
	cr_expect(strstr(r.err, "at a name the hidden pattern") &&
			  strstr(r.err, ".thunderbird.cordon-disarmed"),
		  "not said: %s", r.err);
	run_free(&r);
	r = sh_outside(&w, "mkdir -p ~/.var/app/org.x.Other && "
			   "ln -s \"$PWD/tbc\" ~/.var/app/org.x.Other/.thunderbird && mkdir tbc && "
			   "mkdir -p ~/.var/app/org.x.Other/.thunderbird/profile && "
			   "echo CTL-" SECRET
			   " > ~/.var/app/org.x.Other/.thunderbird/profile/logins.json "
			   "&& cat tbc/profile/logins.json");
	cr_expect(strstr(r.out, "CTL-" SECRET), "control: %s%s", r.out, r.err);
	run_free(&r);
	world_free(&w);
}

/* A link the session lays at a hidden name, or on the way to one, in a
 * writable ~/.cache (`ln -s ~/proj/loot ~/.cache/huggingface/token`): a
 * login outside writing the name would write through it into a file the
 * session, and every later session, reads. cordon moves such a link aside
 * at once (and so as the session ends, where the watch did not run): the
 * login writes the name itself, nothing lands in the session's files, the
 * link is kept aside and said. A FIFO there is moved aside the same way.
 * Control: outside, the same link carries the token into the file. */
BOTH_USERS(guards, a_link_laid_at_a_hidden_name_is_moved_aside, .timeout = 90)
{
	struct world w;
	world_for(
		&w, who, "hlure",
		", \"additional_read_write_paths\": [\"~/.cache\"], \"hidden_paths\": [\"~/.ssh\", "
		"\"~/.cache/huggingface/token\", \"~/.cache/tool/token\", \"~/.cache/pipe\"]");
	free(write_file(w.home, ".cache/huggingface/.keep", ""));
	world_give(&w);
	char *body = fmt("sleep 0.5; ln -s %s/loot ~/.cache/huggingface/token; mkdir loots; "
			 "ln -s %s/loots ~/.cache/tool; mkfifo ~/.cache/pipe; sleep 0.3\n" WAIT_GO
			 "cat loot loots/token; timeout 1 cat ~/.cache/pipe; echo read\n",
			 w.proj, w.proj);
	struct run_result r = in_while_outside(
		&w, body,
		"echo HF-" SECRET " > .cache/huggingface/token && mkdir -p .cache/tool && "
		"echo TOOL-" SECRET " > .cache/tool/token && "
		"(timeout 1 sh -c 'echo PIPE-" SECRET " > .cache/pipe' || true)");
	cr_assert(strstr(r.out, "read"), "the session did not get that far: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "a token was read through a link: %s", r.out);
	char *loot = content(w.proj, "loot"), *loots = content(w.proj, "loots/token");
	cr_expect_null(strstr(loot, SECRET), "the token landed in the session's file: %s", loot);
	cr_expect_null(strstr(loots, SECRET), "the token landed in the session's file: %s", loots);
	free(loot), free(loots);
	char *hf = at(w.home, ".cache/huggingface/token");
	struct stat st;
	cr_expect(lstat(hf, &st) == 0 && S_ISREG(st.st_mode) && contains(hf, "HF-" SECRET),
		  "the login did not write the name itself");
	cr_expect(present(w.home, ".cache/huggingface/token.cordon-disarmed") &&
			  present(w.home, ".cache/tool.cordon-disarmed") &&
			  present(w.home, ".cache/pipe.cordon-disarmed"),
		  "the lures were not kept aside: %s", r.err);
	cr_expect(strstr(r.err, "/.cache/huggingface/token (hidden_paths) became a symbolic link "
				"to ") &&
			  strstr(r.err, "/.cache/tool, on the way to ") &&
			  strstr(r.err, "/.cache/pipe (hidden_paths) became a FIFO"),
		  "not said: %s", r.err);
	run_free(&r);

	/* Where the watch did not run (test builds can turn it off): moved
	 * aside as the session ends, before any login outside. */
#ifdef CORDON_TEST_HOOKS
	world_setenv(&w, "CORDON_TEST_NO_REGUARD=1");
	char *hf2 = at(w.home, ".cache/tool2");
	char *late = fmt("mkdir -p loot2 && ln -s %s/loot2 %s && mkdir ~/.cache/store && "
			 "ln -s %s/loot3 ~/.cache/store/login",
			 w.proj, hf2, w.proj);
	set_config(&w, ", \"additional_read_write_paths\": [\"~/.cache\"], \"hidden_paths\": "
		       "[\"~/.ssh\", \"~/.cache/tool2/token\", \"~/.cache/store\"]");
	struct run_result l = sh_in(&w, NULL, "%s", late);
	cr_expect(lstat(hf2, &st) < 0 && present(w.home, ".cache/tool2.cordon-disarmed"),
		  "the link was left where a login outside would follow it: %s", l.err);
	cr_expect(strstr(l.err, "/.cache/tool2, on the way to "), "not said: %s", l.err);
	/* A hidden directory made inside: a link in it too (laid before its
	 * cover was on, or from a descriptor kept in it). */
	cr_expect(!present(w.home, ".cache/store/login") &&
			  present(w.home, ".cache/store/login.cordon-disarmed"),
		  "the link in a hidden directory made inside was left: %s", l.err);
	cr_expect(strstr(l.err, "/.cache/store (hidden_paths), made while this session ran, 1 "
				"link, FIFO or hard link"),
		  "not said: %s", l.err);
	run_free(&l);
	free(hf2), free(late);
#endif

	/* The control: outside, the link carries the token into the file. */
	r = sh_outside(&w, "rm -f ~/.cache/huggingface/token && ln -s \"$PWD/loot\" "
			   "~/.cache/huggingface/token && echo CTL-" SECRET
			   " > ~/.cache/huggingface/token && cat loot");
	cr_expect(strstr(r.out, "CTL-" SECRET), "control: %s%s", r.out, r.err);
	run_free(&r);
	free(hf);
	free(body);
	world_free(&w);
}

/* The session makes a hidden name itself in a writable ~/.cache and keeps
 * it open (made and opened at once: the watch may cover the name between
 * two steps); a login outside writes the token into that very file (in
 * place, as huggingface_hub and `cargo login` write): no mount covers an
 * open file, and the session reads it. That is said as the session ends.
 * Control: the same session where nothing appears says nothing of it. */
BOTH_USERS(guards, a_hidden_name_made_and_held_inside_is_said, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hheld", ", \"additional_read_write_paths\": [\"~/.cache\"]");
	free(write_file(w.home, ".cache/huggingface/.keep", ""));
	world_give(&w);
	static const char body[] =
		"sleep 0.5; exec 3<> ~/.cache/huggingface/token\n" WAIT_GO "cat <&3; echo read\n";
	struct run_result r =
		in_while_outside(&w, body, "echo HF-" SECRET " > .cache/huggingface/token");
	cr_assert(strstr(r.out, "read"), "the session did not get that far: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "/.cache/huggingface/token (hidden_paths (default)) appeared while "
				"this session ran, where the session could write: it may have read "
				"what was written there"),
		  "not said: %s", r.err);
	run_free(&r);
	/* The control: nothing appears, nothing is said. */
	char *token = at(w.home, ".cache/huggingface/token");
	cr_assert_eq(unlink(token), 0);
	r = sh_in(&w, NULL, "cat ~/.cache/huggingface/.keep; echo read");
	cr_assert(strstr(r.out, "read"), "%s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "appeared"), "said of nothing: %s", r.err);
	run_free(&r);
	free(token);
	world_free(&w);
}

/* A hidden directory beneath a writable way, removed and made again
 * outside while the session runs (a keyring or a login made anew): the
 * session may have opened the new one before its cover was on, and that
 * is said as it ends (round 8). Control: the same session where nothing
 * is made anew says nothing of it. */
BOTH_USERS(guards, a_hidden_directory_made_anew_outside_is_said, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hanew", ", \"additional_read_write_paths\": [\"~/.local\"]");
	free(write_file(w.home, ".local/share/keyrings/login.keyring", "old"));
	world_give(&w);
	struct run_result r =
		in_while_outside(&w, "sleep 0.5; " WAIT_GO "echo read\n",
				 "rm -rf .local/share/keyrings && mkdir .local/share/keyrings && "
				 "echo KR-" SECRET " > .local/share/keyrings/login.keyring");
	cr_assert(strstr(r.out, "read"), "the session did not get that far: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "/.local/share/keyrings (hidden_paths (default)) was made anew "
				"while this session ran, where the session could write: it may "
				"have read what was written there"),
		  "not said: %s", r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "echo read");
	cr_assert(strstr(r.out, "read"), "%s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "made anew"), "said of nothing: %s", r.err);
	run_free(&r);
	world_free(&w);
}

/* A hidden credential with a second name, a hard link made before the
 * session in the readable ~/.config: no mount covers that name, and the
 * session is told so as it starts (round 8 read it silently). Control: a
 * copy there instead is not a second name, and nothing is said. */
BOTH_USERS(guards, a_hard_linked_hidden_file_is_said, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidhard", "");
	char *creds = write_file(w.home, ".aws/credentials", "aws-" SECRET);
	char *other = at(w.home, ".config/aws-creds");
	char *cfgdir = at(w.home, ".config");
	cr_assert(mkdir(cfgdir, 0755) == 0 || errno == EEXIST);
	cr_assert_eq(link(creds, other), 0);
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "echo ran");
	char *want = fmt("cordon: warning: %s (hidden_paths (default)) has 2 names", creds);
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, want), "not said: %s", r.err);
	run_free(&r);
	/* Control: a copy. */
	cr_assert_eq(unlink(other), 0);
	free(write_file(w.home, ".config/aws-creds", "a copy"));
	world_give(&w);
	r = sh_in(&w, NULL, "echo ran");
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "names"), "said of a copy: %s", r.err);
	run_free(&r);
	free(want);
	free(cfgdir);
	free(other);
	free(creds);
	world_free(&w);
}

/* A hidden credential committed to a git repository the session reads (a
 * dotfiles repository as the project, ~/.config/gh a link into it: round
 * 59c F1): hiding its name leaves its bytes in the objects, which `git
 * show` reads back; the session is told so as it starts, naming the
 * entry. Judged by what the session reads and says: the name stays
 * unread, the object is read (the warning is the only defence). Control:
 * the same file untracked is not said. */
BOTH_USERS(guards, a_hidden_file_a_readable_repository_tracks_is_said, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidtracked", "");
	free(write_file(w.proj, "gh/hosts.yml", "gh-" SECRET));
	char *cfgdir = at(w.home, ".config"), *link_at = at(w.home, ".config/gh"),
	     *to = at(w.proj, "gh");
	cr_assert(mkdir(cfgdir, 0755) == 0 || errno == EEXIST);
	cr_assert_eq(symlink(to, link_at), 0);
	world_give(&w);
	struct run_result r = sh_outside(&w, "git init -q && git add gh && git -c user.email=t@t "
					     "-c user.name=t commit -qm dotfiles");
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	/* (Named: the directory the dotfiles come from is never the
	 * project by accident.) */
	r = sh_in(&w, w.popt, "cat gh/hosts.yml; echo; git show HEAD:gh/hosts.yml; echo; echo ran");
	char *want = fmt("cordon: warning: %s (hidden_paths (default)) is tracked by the git "
			 "repository at %s, whose objects the session reads",
			 link_at, w.proj);
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, want) && strstr(r.err, "(git show HEAD:gh/hosts.yml)"),
		  "not said: %s", r.err);
	char *first = strstr(r.out, "gh-" SECRET);
	cr_expect(first && !strstr(first + 1, "gh-" SECRET),
		  "the name was read, or the object not (the probe): %s%s", r.out, r.err);
	run_free(&r);
	/* Control: untracked, nothing is said. */
	r = sh_outside(&w, "git rm -q --cached -r gh && git -c user.email=t@t -c user.name=t "
			   "commit -qm gone");
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	r = sh_in(&w, w.popt, "echo ran");
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "is tracked by"), "said of an untracked file: %s", r.err);
	run_free(&r);
	free(want);
	free(to);
	free(link_at);
	free(cfgdir);
	world_free(&w);
}

/* A home kept in a bare repository (git --git-dir=~/.cfg --work-tree=~,
 * and yadm's, whose core.worktree names the home) tracking hidden files:
 * with the home granted whole, `git show HEAD:.ssh/id_ed25519` read the
 * key from the objects (round 59c F1, left). The repository is hidden as
 * the secrets are; git in the project still works. With the home as the
 * project (work on the dotfiles) it is not hidden, and that is said.
 * ~/.cfg's key is no longer in its index (git rm --cached), only in
 * HEAD, which git show reads (round 60f F8: looked for in the index
 * alone, it stayed readable). Judged by what the session prints; control:
 * the same git outside reads both. */
BOTH_USERS(guards, a_bare_home_repository_tracking_a_hidden_file_is_hidden, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidbare", "");
	free(write_file(w.home, ".ssh/id_ed25519", "ssh-" SECRET));
	free(write_file(w.home, ".config/gh/hosts.yml", "gh-" SECRET));
	world_give(&w);
	char *mk = fmt(
		"cd %s && export GIT_CONFIG_NOSYSTEM=1 HOME=%s && "
		"git init -q --bare .cfg && "
		"git --git-dir=.cfg --work-tree=. add .ssh/id_ed25519 && "
		"git --git-dir=.cfg --work-tree=. -c user.email=t@t -c user.name=t commit -qm d && "
		"git --git-dir=.cfg --work-tree=. rm -q --cached .ssh/id_ed25519 && "
		"mkdir -p .local/share/yadm && git init -q --bare .local/share/yadm/repo.git && "
		"git --git-dir=.local/share/yadm/repo.git config core.bare false && "
		"git --git-dir=.local/share/yadm/repo.git config core.worktree %s && "
		"git --git-dir=.local/share/yadm/repo.git add .config/gh/hosts.yml && "
		"git --git-dir=.local/share/yadm/repo.git -c user.email=t@t -c user.name=t "
		"commit -qm d",
		w.home, w.home, w.home);
	struct run_result r = sh_outside(&w, mk);
	cr_assert_eq(r.status, 0, "%s%s", r.out, r.err);
	run_free(&r);
	FILE *f = fopen(w.cfg, "w");
	fprintf(f, "{" WORLD_BASE_RW ", \"additional_read_only_paths\": [\"%s\"]}", w.home);
	fclose(f);
	char *show =
		fmt("git --git-dir=%s/.cfg show HEAD:.ssh/id_ed25519; "
		    "git --git-dir=%s/.local/share/yadm/repo.git show HEAD:.config/gh/hosts.yml; "
		    "echo; echo ran",
		    w.home, w.home);
	/* Control: outside, both are read. */
	r = sh_outside(&w, show);
	cr_assert(strstr(r.out, "ssh-" SECRET) && strstr(r.out, "gh-" SECRET), "control: %s%s",
		  r.out, r.err);
	run_free(&r);
	r = sh_in(&w, NULL,
		  "%s; git init -q g && cd g && git -c user.email=t@t -c user.name=t commit -q "
		  "--allow-empty -m x && git log --oneline | wc -l",
		  show);
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, "ssh-" SECRET), "the key was read from ~/.cfg: %s", r.out);
	cr_expect_null(strstr(r.out, "gh-" SECRET), "the token was read from yadm's: %s", r.out);
	cr_expect(strstr(r.out, "ran\n1"), "git in the project: %s%s", r.out, r.err);
	run_free(&r);
	char *ex[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
	r = world_run(&w, ex, w.proj);
	char *hidden =
		fmt("%s/.cfg  (hidden_paths (a bare repository tracking .ssh/id_ed25519))", w.home);
	cr_expect(strstr(r.out, hidden), "explain: %s", r.out);
	run_free(&r);
	/* The home as the project: not hidden, said. */
	char *opt = fmt("-p %s", w.home);
	r = sh_in(&w, opt, "%s", show);
	char *said = fmt("is tracked by the git repository at %s/.cfg", w.home);
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, said), "not said: %s", r.err);
	run_free(&r);
	free(said);
	free(opt);
	free(hidden);
	free(show);
	free(mk);
	world_free(&w);
}

/* A second name for a hidden file below the top of its directory (a
 * GnuPG secret key, in private-keys-v1.d) is said too, once; a file whose
 * names are all hidden (a key and its "ln" backup in ~/.ssh) is not
 * (round 9: the first went unsaid, the second was said twice, falsely).
 * Judged by what the session says and reads: the second name is read
 * inside (the warning is the only defence), the backup is not. */
BOTH_USERS(guards, hard_links_below_the_top_are_said_and_hidden_pairs_not, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidhard2", "");
	char *key = write_file(w.home, ".gnupg/private-keys-v1.d/ABCD.key", "gpg-" SECRET);
	char *other = at(w.home, ".config/abcd.key");
	char *cfgdir = at(w.home, ".config");
	cr_assert(mkdir(cfgdir, 0755) == 0 || errno == EEXIST);
	cr_assert_eq(link(key, other), 0);
	char *id = write_file(w.home, ".ssh/id_ed25519", "ssh-" SECRET);
	char *bak = at(w.home, ".ssh/id_ed25519.bak");
	cr_assert_eq(link(id, bak), 0);
	world_give(&w);
	char *script = fmt("cat %s %s; echo ran", other, bak);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	char *want = fmt("cordon: warning: %s (hidden_paths (default)) has 2 names", key);
	char *said = strstr(r.err, want);
	cr_expect(said, "the deep link was not said: %s", r.err);
	cr_expect(!said || !strstr(said + 1, want), "said twice: %s", r.err);
	cr_expect_null(strstr(r.err, "id_ed25519 (hidden"), "a pair both hidden was said: %s",
		       r.err);
	cr_expect_null(strstr(r.err, "id_ed25519.bak (hidden"), "a pair both hidden was said: %s",
		       r.err);
	cr_expect(strstr(r.out, "gpg-" SECRET), "the unhidden name: %s", r.out);
	cr_expect_null(strstr(r.out, "ssh-" SECRET), "the hidden backup was read: %s", r.out);
	run_free(&r);
	/* explain says the same. */
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, NULL);
	cr_expect(strstr(r.out, key) || strstr(r.err, key), "explain: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, "id_ed25519 (hidden"), "explain: %s", r.out);
	cr_expect_null(strstr(r.out, "id_ed25519.bak (hidden"), "explain: %s", r.out);
	run_free(&r);
	/* Control: the same read outside. */
	r = sh_outside(&w, script);
	cr_expect(strstr(r.out, "gpg-" SECRET) && strstr(r.out, "ssh-" SECRET), "control: %s%s",
		  r.out, r.err);
	run_free(&r);
	free(script);
	free(want);
	free(bak);
	free(id);
	free(cfgdir);
	free(other);
	free(key);
	world_free(&w);
}

/* cordon learn on a tool in a tree nothing reads (uv's tools, in
 * ~/.local/share/uv/tools) proposes that tree, and runs the tool as if it
 * were in the config: uv's credentials, missing as the session starts and
 * written by a login outside while it runs, stay unread (round 9: the
 * proposed rule came after the hidden paths were planned, and that one,
 * missing then and out of every rule's reach, had no guard). Control: the
 * tool outside reads them. */
BOTH_USERS(guards, hidden_paths_under_a_learned_tree_stay_unread, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidlearn", "");
	char *tool = write_file(w.home, ".local/share/uv/tools/ruff/bin/tool",
				"#!/bin/sh\n"
				"touch ready; while [ ! -e go ]; do sleep 0.05; done\n"
				"cat ~/.local/share/uv/credentials/credentials.toml; echo read\n");
	cr_assert_eq(chmod(tool, 0755), 0);
	world_give(&w);
	char *login = fmt("while [ ! -e ready ]; do sleep 0.05; done; "
			  "mkdir -p %s/.local/share/uv/credentials && "
			  "echo UV-%s > %s/.local/share/uv/credentials/credentials.toml; touch go",
			  w.home, SECRET, w.home);
	char *login_argv[] = {"/bin/sh", "-c", login, NULL};
	pid_t saver = world_spawn(&w, login_argv, w.proj);
	char *argv[] = {CORDON_BIN, "learn", "--config", w.cfg, "--", tool, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	int st;
	cr_expect_eq(waitpid(saver, &st, 0), saver);
	cr_assert(strstr(r.out, "read"), "the tool did not get that far: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "learning as if"), "learn proposed no tree: %s", r.err);
	cr_expect_null(strstr(r.out, "UV-" SECRET), "uv's login made meanwhile was read: %s",
		       r.out);
	run_free(&r);
	char *plain[] = {tool, NULL};
	r = world_run(&w, plain, w.proj);
	cr_expect(strstr(r.out, "UV-" SECRET), "control: %s%s", r.out, r.err);
	run_free(&r);
	free(login);
	free(tool);
	world_free(&w);
}

/* A hidden file not made yet beneath a link into the project (~/.dbt ->
 * PROJ/dbt, a stow layout): one a login outside writes while the session
 * runs is not read inside, and is said as the session ends; with the link
 * dangling, the session could make its target, and is refused, naming
 * the link (round 9 read both, silently). Control: hidden_paths [] runs,
 * and reads. */
BOTH_USERS(guards, a_hidden_file_beneath_a_link_into_the_project_stays_unread, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidlinkdir", "");
	char *dbt = at(w.proj, "dbt"), *link = at(w.home, ".dbt");
	cr_assert_eq(mkdir(dbt, 0755), 0);
	cr_assert_eq(symlink(dbt, link), 0);
	world_give(&w);
	give_links(who, (const char *const[]){link, NULL});
	struct run_result r =
		in_while_outside(&w, "sleep 0.5; " WAIT_GO "cat dbt/profiles.yml; echo read\n",
				 "echo DBT-" SECRET " > .dbt/profiles.yml");
	cr_assert(strstr(r.out, "read"), "the session did not get that far: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "the profile written outside was read: %s", r.out);
	cr_expect(strstr(r.err, "/dbt/profiles.yml (hidden_paths (default)) appeared"),
		  "not said: %s", r.err);
	run_free(&r);
	/* Dangling. */
	r = sh_outside(&w, "rm -rf dbt");
	run_free(&r);
	r = sh_in(&w, w.popt, "echo ran");
	cr_expect_eq(r.status, 125, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "/.dbt, on the way to "), "the hidden path is not named: %s",
		  r.err);
	cr_expect(
		strstr(r.err, "/.dbt/profiles.yml (hidden_paths (default)) is a symbolic link to"),
		"not said: %s", r.err);
	run_free(&r);
	/* explain refuses as run does: exit 125, after showing why (round
	 * 10: it said REFUSED and exited 0). */
	char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, "--project", w.proj, NULL};
	r = world_run(&w, explain, w.proj);
	cr_expect_eq(r.status, 125, "explain: %s%s", r.out, r.err);
	cr_expect(strstr(r.out, "REFUSED: ") && strstr(r.err, "cordon: ") &&
			  strstr(r.err, "/.dbt, on the way to "),
		  "explain: %s%s", r.out, r.err);
	run_free(&r);
	set_config(&w, ", \"hidden_paths\": []");
	r = sh_in(&w, w.popt,
		  "mkdir dbt && echo mine > dbt/profiles.yml && cat ~/.dbt/profiles.yml");
	cr_expect(strstr(r.out, "mine"), "control: %s%s", r.out, r.err);
	run_free(&r);
	free(link);
	free(dbt);
	world_free(&w);
}

/* A link further along the chain in the project: ~/.dbt -> PROJ/dbt ->
 * ~/private/dbt (a dotfiles repository keeping a private part outside
 * itself), with profiles.yml missing, and there. The session could make
 * PROJ/dbt a directory of its own, where a login outside then writes the
 * profile (round 10 read it, silently): the link is kept in place, and
 * what the login writes stays unread. The same with the link in the
 * middle (~/.dbt -> PROJ/x/dbt, PROJ/x -> ~/private, ~/private/dbt
 * missing): x stays a link. Control: with hidden_paths [] the session
 * replaces the link, and reads what the login writes. */
#define REPLACE_DBT "rm dbt; mkdir dbt; " WAIT_GO "cat dbt/profiles.yml; echo read\n"
#define LOGIN_DBT   "echo DBT-" SECRET " > .dbt/profiles.yml"

BOTH_USERS(guards, a_link_further_along_a_hidden_chain_in_the_project_stays, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "hidchain", "");
	char *priv = at(w.home, "private/dbt"), *plink = at(w.proj, "dbt"),
	     *link = at(w.home, ".dbt"), *yml = at(priv, "profiles.yml");
	free(write_file(priv, ".keep", ""));
	cr_assert_eq(symlink(priv, plink), 0);
	cr_assert_eq(symlink(plink, link), 0);
	world_give(&w);
	give_links(who, (const char *const[]){link, plink, NULL});
	for (int present = 0; present < 2; present++) {
		if (present)
			free(write_file(priv, "profiles.yml", "mine\n"));
		else
			unlink(yml);
		world_give(&w);
		struct run_result r = in_while_outside(&w, REPLACE_DBT, LOGIN_DBT);
		cr_expect(strstr(r.out, "read"), "profiles.yml %s: the session did not run: %s%s",
			  present ? "there" : "missing", r.out, r.err);
		cr_expect_null(strstr(r.out, SECRET), "profiles.yml %s: read: %s",
			       present ? "there" : "missing", r.out);
		struct stat st;
		cr_expect(lstat(plink, &st) == 0 && S_ISLNK(st.st_mode),
			  "PROJ/dbt was replaced (%s)", present ? "there" : "missing");
		char *now = content(priv, "profiles.yml");
		cr_expect(now && strstr(now, "DBT-" SECRET), "the login's write: %s", now);
		free(now);
		run_free(&r);
	}
	/* The link in the middle. */
	char *x = at(w.proj, "x"), *privtop = at(w.home, "private");
	struct run_result r = sh_outside(&w, "rm -rf ~/private/dbt dbt");
	run_free(&r);
	unlink(link);
	char *xdbt = at(w.proj, "x/dbt");
	cr_assert_eq(symlink(privtop, x), 0);
	cr_assert_eq(symlink(xdbt, link), 0);
	give_links(who, (const char *const[]){link, x, NULL});
	r = sh_in(&w, w.popt, "rm x; mkdir -p x/dbt; echo ran");
	cr_expect(strstr(r.out, "ran"), "middle: the session did not run: %s%s", r.out, r.err);
	struct stat st;
	cr_expect(lstat(x, &st) == 0 && S_ISLNK(st.st_mode), "middle: PROJ/x was replaced");
	run_free(&r);
	/* Control: the first layout, unguarded. */
	unlink(link);
	r = sh_outside(&w, "rm -f x && mkdir -p ~/private/dbt && ln -s ~/private/dbt dbt");
	run_free(&r);
	cr_assert_eq(symlink(plink, link), 0);
	give_links(who, (const char *const[]){link, NULL});
	set_config(&w, ", \"hidden_paths\": []");
	r = in_while_outside(&w, REPLACE_DBT, LOGIN_DBT);
	cr_expect(strstr(r.out, "DBT-" SECRET), "control: %s%s", r.out, r.err);
	run_free(&r);
	free(x), free(xdbt), free(privtop), free(priv), free(plink), free(link), free(yml);
	world_free(&w);
}

/* ~/.bashrc a hard link of a file in the project (one inode, two names):
 * the guard on ~/.bashrc does not cover the other name, which the
 * session can write (round 10). Said as the session starts. Control: a
 * copy (one name) says nothing. */
BOTH_USERS(guards, a_hard_linked_dotfile_is_said, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hardrc", "");
	char *mine = write_file(w.proj, "dots/bashrc", "# mine\n");
	char *rc = at(w.home, ".bashrc");
	cr_assert_eq(link(mine, rc), 0);
	world_give(&w);
	struct run_result r = sh_in(&w, w.popt, "echo ran");
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "/.bashrc (dotfiles) has 2 names"), "not said: %s", r.err);
	run_free(&r);
	unlink(rc);
	free(write_file(w.home, ".bashrc", "# mine\n"));
	world_give(&w);
	r = sh_in(&w, w.popt, "echo ran");
	cr_expect(strstr(r.out, "ran"), "control: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "has 2 names"), "control: said of a copy: %s", r.err);
	run_free(&r);
	free(mine);
	free(rc);
	world_free(&w);
}

/* A protected file of the project with a second name there, a hard link
 * the user made (mise.toml and other.toml, one file): the session writes
 * through other.toml, which the guard on mise.toml does not cover, and
 * mise outside obeys mise.toml by its path (round 37a F4's route, beyond
 * git). As the session ends, mise.toml changed: it is moved aside, and
 * said. Control: a session that writes nothing leaves it in place. */
BOTH_USERS(guards, a_protected_file_written_through_its_second_name_is_moved_aside, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "twicetoml", "");
	char *toml = write_file(w.proj, "mise.toml", "[tools]\n");
	char *other = at(w.proj, "other.toml");
	cr_assert_eq(link(toml, other), 0);
	world_give(&w);
	let_time_pass();
	struct run_result r = sh_in(&w, NULL, "echo ran");
	cr_expect(strstr(r.err, "/mise.toml (protected_paths (default)) has 2 names"),
		  "not said as it started: %s", r.err);
	cr_expect(present(w.proj, "mise.toml"), "control: moved aside unchanged: %s", r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "%s",
		  "printf '[hooks]\\nenter = \"x\"\\n' >> other.toml; echo wrote $?");
	cr_assert(strstr(r.out, "wrote 0"), "control: the write did not land: %s%s", r.out, r.err);
	char *want = fmt("changed %s, a file with 2 names", toml);
	cr_expect(strstr(r.err, want), "not said: %s", r.err);
	cr_expect_not(present(w.proj, "mise.toml"),
		      "mise.toml, written through its second name, was left in place: %s", r.err);
	char *kept = content(w.proj, "mise.toml.cordon-disarmed");
	cr_expect(kept && strstr(kept, "[hooks]"), "what was moved aside was lost");
	run_free(&r);
	free(kept), free(want), free(toml), free(other);
	world_free(&w);
}

/* ~/NAME a link to PROJ/NAME, a directory of the project (a CI layout:
 * caches kept in the workspace), the world given to its user: the link
 * (malloc'd). */
static char *home_link_into_project(struct world *w, const struct who *who, const char *name)
{
	char *keep = fmt("%s/keep", name);
	free(write_file(w->proj, keep, ""));
	free(keep);
	char *dot = at(w->proj, name), *link = at(w->home, name);
	cr_assert_eq(symlink(dot, link), 0);
	free(dot);
	world_give(w);
	give_links(who, (const char *const[]){link, NULL});
	return link;
}

/* ~/.cache linked into the project (a CI layout): pip's wheel cache, which
 * pip install outside installs from, made inside through the link is
 * moved aside (as it appears; round 10, as the session ended: "could not
 * move it aside (Not a directory)"). Control: the session did make it. */
BOTH_USERS(guards, a_cache_made_through_a_linked_cache_directory_is_moved_aside, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "cachelink", "");
	char *link = home_link_into_project(&w, who, ".cache");
	struct run_result r = sh_in(&w, w.popt, "mkdir -p ~/.cache/pip; echo pip $?");
	cr_assert(strstr(r.out, "pip 0"), "control: the session did not make it: %s%s", r.out,
		  r.err);
	cr_expect(!present(w.proj, ".cache/pip") && present(w.proj, ".cache/pip.cordon-disarmed"),
		  "~/.cache/pip stayed: %s", r.err);
	cr_expect(strstr(r.err, "so cordon moved it to"), "not said: %s", r.err);
	run_free(&r);
	/* The link the session re-points is not followed: ~/go -> PROJ/go,
	 * made a link to a directory of the user's holding bin/ (round 11:
	 * cordon renamed that bin/, which might as well have been /usr/bin). */
	free(write_file(w.home, "victim/bin/tool", "#!/bin/sh\n"));
	char *golink = home_link_into_project(&w, who, "go");
	char *script = fmt("rm -rf go && ln -s %s/victim go; echo relink $?", w.home);
	r = sh_in(&w, w.popt, "%s", script);
	cr_assert(strstr(r.out, "relink 0"), "control: the session did not re-point it: %s%s",
		  r.out, r.err);
	cr_expect(present(w.home, "victim/bin/tool") &&
			  !present(w.home, "victim/bin.cordon-disarmed"),
		  "the user's directory was moved aside: %s", r.err);
	run_free(&r);
	free(script);
	free(golink);
	free(link);
	world_free(&w);
}

/* hidden_paths as written (round 11): a real name with brackets is
 * hidden as the name it is, "~/.*" does not take "." and ".." (the home),
 * and an entry that holds the project refuses run and explain alike
 * (exit 125, naming it), where it failed only as the mounts were made.
 * Controls: outside the secret is read; a file beside it is read inside. */
BOTH_USERS(guards, hidden_paths_are_taken_as_written, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidwritten",
		  ", \"additional_read_only_paths\": [\"~\"], "
		  "\"hidden_paths\": [\"~/My Keys [old]\", \"~/.*\"]");
	free(write_file(w.home, "My Keys [old]/id", "brackets-" TOKEN "\n"));
	free(write_file(w.home, ".dotsecret", "dot-" TOKEN "\n"));
	free(write_file(w.home, "visible.txt", "home-visible\n"));
	world_give(&w);
	const char *script = "cat ~/'My Keys [old]'/id ~/.dotsecret ~/visible.txt";
	struct run_result r = sh_outside(&w, script);
	cr_assert(strstr(r.out, "brackets-" TOKEN) && strstr(r.out, "dot-" TOKEN),
		  "control: outside: %s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "%s", script);
	cr_expect(strstr(r.out, "home-visible"), "the home was hidden: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, TOKEN), "a secret was read: %s", r.out);
	run_free(&r);
	char *cfg = fmt(", \"hidden_paths\": [\"%s\"]", w.dir);
	set_config(&w, cfg);
	free(cfg);
	r = sh_in(&w, w.popt, "echo ran"); /* (from the cwd: no project, said) */
	cr_expect_eq(r.status, 125, "run: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "(hidden_paths) holds ") && !strstr(r.out, "ran"), "run: %s%s",
		  r.out, r.err);
	run_free(&r);
	char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, "--project", w.proj, NULL};
	r = world_run(&w, explain, w.proj);
	cr_expect_eq(r.status, 125, "explain: %s%s", r.out, r.err);
	run_free(&r);
	/* One that holds the current directory, readable: the session could
	 * not go back into it (round 12: run refused, explain did not). */
	set_config(&w, ", \"additional_read_only_paths\": [\"~\"], \"hidden_paths\": [\"~/work\"]");
	free(write_file(w.home, "work/keep", ""));
	world_give(&w);
	char *work = at(w.home, "work");
	/* (From the cwd, without a project: the home's work is not one.) */
	char *run[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/true", NULL};
	r = world_run(&w, run, work);
	cr_expect_eq(r.status, 125, "run: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "holds the current directory"), "run: %s", r.err);
	run_free(&r);
	char *explain_here[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
	r = world_run(&w, explain_here, work);
	cr_expect_eq(r.status, 125, "explain: %s%s", r.out, r.err);
	run_free(&r);
	/* (With a project, the session starts there: it runs, and explain
	 * agrees.) */
	r = world_run(&w, explain, work);
	cr_expect_eq(r.status, 0, "explain with a project: %s%s", r.out, r.err);
	run_free(&r);
	free(work);
	world_free(&w);
}

/* --project ~ with links in ~/.config (a whole tool directory linked
 * into a dotfiles repository): ~/.config is read-only in the session,
 * so its links cannot be replaced, and the session runs (round 11 was
 * refused); what the link leads to stays read-only. Control: outside,
 * the write lands. */
BOTH_USERS(guards, a_home_project_with_links_in_config_runs, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homecfglink", "");
	free(write_file(w.home, "dotfiles/nvim/init.lua", "-- mine\n"));
	char *link = at(w.home, ".config/nvim"), *target = at(w.home, "dotfiles/nvim");
	free(write_file(w.home, ".config/keep", ""));
	cr_assert_eq(symlink(target, link), 0);
	world_give(&w);
	give_links(who, (const char *const[]){link, NULL});
	char *opts = fmt("-p %s", w.home);
	struct run_result r = sh_in(&w, opts, "echo evil >> ~/.config/nvim/init.lua; echo ran");
	cr_expect(strstr(r.out, "ran"), "the session did not run: %s%s", r.out, r.err);
	char *now = content(target, "init.lua");
	cr_expect_str_eq(now, "-- mine\n", "init.lua was written: %s", r.err);
	free(now);
	run_free(&r);
	r = sh_outside(&w, "echo ok >> ~/.config/nvim/init.lua");
	run_free(&r);
	now = content(target, "init.lua");
	cr_expect_str_eq(now, "-- mine\nok\n", "control: outside");
	free(now);
	free(opts);
	free(link);
	free(target);
	world_free(&w);
}

/* ~/.npmrc is hidden; one that names a registry is said as the session
 * starts (npm inside goes to the public one instead: round 9), and stays
 * unread. Control: one without a registry says nothing. */
BOTH_USERS(guards, a_hidden_npmrc_naming_a_registry_is_said, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "npmrc", "");
	free(write_file(w.home, ".npmrc",
			"@corp:registry=https://npm.corp.example/\n"
			"//npm.corp.example/:_authToken=npm-" SECRET "\n"));
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "cat ~/.npmrc; echo ran");
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "the token was read: %s", r.out);
	cr_expect(strstr(r.err, "/.npmrc (hidden_paths (default)) names a registry"),
		  "not said: %s", r.err);
	run_free(&r);
	free(write_file(w.home, ".npmrc",
			"save-exact=true\n# registry=https://a.example/\n"
			";registry=https://b.example/\n"));
	world_give(&w);
	r = sh_in(&w, NULL, "echo ran");
	cr_expect_null(strstr(r.err, "names a registry"), "said of none (comments): %s", r.err);
	run_free(&r);
	/* As npm reads it (round 10): spaces around the key, and a stow
	 * layout's link to the file. */
	free(write_file(w.home, "dots/npmrc", "  registry = https://spaced.example/\n"));
	char *npmrc = fmt("%s/.npmrc", w.home);
	unlink(npmrc);
	cr_assert(symlink("dots/npmrc", npmrc) == 0);
	world_give(&w);
	r = sh_in(&w, NULL, "echo ran");
	cr_expect(strstr(r.err, "/.npmrc (hidden_paths (default)) names a registry"),
		  "not said of a spaced key in a linked file: %s", r.err);
	run_free(&r);
	free(npmrc);
	world_free(&w);
}

/* The tokens of coding agents, Copilot and chat apps: Copilot's and
 * Slack's under the default ~/.config grant, an agent's credentials with
 * "~" granted. Control: outside, all are printed. */
BOTH_USERS(guards, hidden_agent_and_chat_tokens_stay_unread, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidtok", ", \"additional_read_only_paths\": [\"~\"]");
	free(write_file(w.home, ".config/github-copilot/apps.json", "copilot-" TOKEN));
	free(write_file(w.home, ".config/Slack/Cookies", "slack-" TOKEN));
	free(write_file(w.home, ".claude/.credentials.json", "claude-" TOKEN));
	free(write_file(w.home, ".codex/auth.json", "codex-" TOKEN));
	free(write_file(w.home, ".claude.json", "claudejson-" TOKEN));
	free(write_file(w.home, ".claude/settings.json", "claude-settings-visible"));
	world_give(&w);
	const char *script = "grep -rsh . ~/.config ~/.claude ~/.codex; "
			     "cat ~/.claude/.credentials.json ~/.codex/auth.json ~/.claude.json";
	struct run_result r = sh_outside(&w, script);
	cr_assert(strstr(r.out, "copilot-" TOKEN) && strstr(r.out, "slack-" TOKEN) &&
			  strstr(r.out, "claude-" TOKEN) && strstr(r.out, "codex-" TOKEN) &&
			  strstr(r.out, "claudejson-" TOKEN),
		  "control: outside: %s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "%s", script);
	cr_expect(strstr(r.out, "claude-settings-visible"), "~ is not readable inside: %s%s", r.out,
		  r.err);
	cr_expect_null(strstr(r.out, TOKEN), "a token was read inside: %s", r.out);
	run_free(&r);
	world_free(&w);
}

/* Round 8's additions: registries' and tools' tokens under the default
 * ~/.config grant (Poetry's, a Solana key, Cursor's token store), and
 * with "~" granted a registry's (Maven's master password), a database
 * client's (MySQL's login path) and a snap browser's profile. Control:
 * outside, all are printed, and inside a file beside them is. */
BOTH_USERS(guards, hidden_registry_and_browser_tokens_stay_unread, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidreg", ", \"additional_read_only_paths\": [\"~\"]");
	free(write_file(w.home, ".config/pypoetry/auth.toml", "poetry-" TOKEN));
	free(write_file(w.home, ".config/solana/id.json", "solana-" TOKEN));
	free(write_file(w.home, ".config/Cursor/User/globalStorage/state.vscdb", "cursor-" TOKEN));
	free(write_file(w.home, ".m2/settings-security.xml", "maven-" TOKEN));
	free(write_file(w.home, ".mylogin.cnf", "mysql-" TOKEN));
	free(write_file(w.home, "snap/firefox/common/.mozilla/firefox/p/cookies.sqlite",
			"firefox-" TOKEN));
	free(write_file(w.home, ".config/pypoetry/visible", "poetry-dir-visible"));
	world_give(&w);
	const char *script = "grep -rsh . ~/.config ~/.m2 ~/snap; cat ~/.mylogin.cnf";
	struct run_result r = sh_outside(&w, script);
	static const char *const tags[] = {"poetry-", "solana-", "cursor-",
					   "maven-",  "mysql-",  "firefox-"};
	for (size_t i = 0; i < sizeof(tags) / sizeof(tags[0]); i++) {
		char *want = fmt("%s" TOKEN, tags[i]);
		cr_assert(strstr(r.out, want), "control: outside, %s: %s%s", want, r.out, r.err);
		free(want);
	}
	run_free(&r);
	r = sh_in(&w, NULL, "%s", script);
	cr_expect(strstr(r.out, "poetry-dir-visible"), "~/.config/pypoetry is not readable: %s%s",
		  r.out, r.err);
	cr_expect_null(strstr(r.out, TOKEN), "a token was read inside: %s", r.out);
	run_free(&r);
	world_free(&w);
}

/* $XDG_CONFIG_HOME, $XDG_DATA_HOME and $XDG_CACHE_HOME set elsewhere in a
 * readable home ("~" granted): gh's token in $XDG_CONFIG_HOME/gh, the
 * keyrings in $XDG_DATA_HOME/keyrings and huggingface's in
 * $XDG_CACHE_HOME/huggingface/token are hidden there as under ~/.config,
 * ~/.local/share and ~/.cache. Controls: outside all three are printed,
 * and so is a file beside them inside. */
BOTH_USERS(guards, hidden_paths_follow_xdg_directories, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidxdg", ", \"additional_read_only_paths\": [\"~\"]");
	free(write_file(w.home, "xc/gh/hosts.yml", "gh-" TOKEN));
	free(write_file(w.home, "xd/keyrings/login.keyring", "keyring-" TOKEN));
	free(write_file(w.home, "xk/huggingface/token", "hf-" TOKEN));
	free(write_file(w.home, "xc/other.conf", "xdg-other-visible"));
	world_give(&w);
	char *cfg = fmt("XDG_CONFIG_HOME=%s/xc/", w.home),
	     *data = fmt("XDG_DATA_HOME=%s/xd", w.home),
	     *cache = fmt("XDG_CACHE_HOME=%s/xk", w.home);
	world_setenv(&w, cfg);
	world_setenv(&w, data);
	world_setenv(&w, cache);
	const char *script =
		"cat \"$XDG_CONFIG_HOME\"gh/hosts.yml \"$XDG_CONFIG_HOME\"other.conf "
		"$XDG_DATA_HOME/keyrings/login.keyring $XDG_CACHE_HOME/huggingface/token";
	struct run_result r = sh_outside(&w, script);
	cr_assert(strstr(r.out, "gh-" TOKEN) && strstr(r.out, "keyring-" TOKEN) &&
			  strstr(r.out, "hf-" TOKEN),
		  "control: outside: %s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "%s", script);
	cr_expect(strstr(r.out, "xdg-other-visible"),
		  "$XDG_CONFIG_HOME is not readable inside: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.out, TOKEN), "a token was read inside: %s", r.out);
	run_free(&r);
	free(cfg);
	free(data);
	free(cache);
	world_free(&w);
}

/* Credential stores a tool's own variable moves (xdg-ninja's advice:
 * DOCKER_CONFIG, KUBECONFIG, GNUPGHOME, ...), here to names no list has,
 * under the default ~/.config grant: hidden where the variable says, and
 * said so in explain; the stores at xdg-ninja's places without the
 * variable, and a VS Code fork's extension secrets (a pattern), hidden
 * too (round 10, B2 and B3). Controls: outside every token is printed,
 * and inside a file beside them is. */
BOTH_USERS(guards, stores_moved_by_their_tools_variables_stay_unread, .timeout = 60)
{
	static const char *const files[][2] = {
		{".config/t/dock/config.json", "docker-"},
		{".config/t/kube.yaml", "kube-"},
		{".config/t/gpg/private-keys-v1.d/k.key", "gpg-"},
		{".config/t/awscreds", "aws-"},
		{".config/t/npmrc", "npm-"},
		{".config/t/pgpass", "pg-"},
		{".config/t/cargo/credentials.toml", "cargo-"},
		{".config/docker/config.json", "xdgdocker-"},
		{".config/kube/config", "xdgkube-"},
		{".config/Windsurf/User/globalStorage/state.vscdb", "windsurf-"},
		{".config/sops/age/keys.txt", "sops-"},
	};
	struct world w;
	world_for(&w, who, "hidvar", "");
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *text = fmt("%s" TOKEN "\n", files[i][1]);
		free(write_file(w.home, files[i][0], text));
		free(text);
	}
	free(write_file(w.home, ".config/t/visible", "moved-dir-visible\n"));
	world_give(&w);
	static const char *const vars[][2] = {
		{"DOCKER_CONFIG", "/.config/t/dock"},
		{"GNUPGHOME", "/.config/t/gpg"},
		{"AWS_SHARED_CREDENTIALS_FILE", "/.config/t/awscreds"},
		{"NPM_CONFIG_USERCONFIG", "/.config/t/npmrc"},
		{"PGPASSFILE", "/.config/t/pgpass"},
		{"CARGO_HOME", "/.config/t/cargo"},
	};
	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++) {
		char *kv = fmt("%s=%s%s", vars[i][0], w.home, vars[i][1]);
		world_setenv(&w, kv);
		free(kv);
	}
	char *kube = fmt("KUBECONFIG=/nowhere/kube:%s/.config/t/kube.yaml", w.home);
	world_setenv(&w, kube);
	free(kube);
	/* (A file in a directory hidden already: sops's own default. Round 11
	 * had every session refused for it.) */
	char *sops = fmt("SOPS_AGE_KEY_FILE=%s/.config/sops/age/keys.txt", w.home);
	world_setenv(&w, sops);
	free(sops);
	const char *script = "grep -rsh . ~/.config";
	struct run_result r = sh_outside(&w, script);
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char *want = fmt("%s" TOKEN, files[i][1]);
		cr_assert(strstr(r.out, want), "control: outside, %s: %s%s", want, r.out, r.err);
		free(want);
	}
	run_free(&r);
	r = sh_in(&w, NULL, "%s", script);
	cr_expect(strstr(r.out, "moved-dir-visible"), "~/.config/t is not readable: %s%s", r.out,
		  r.err);
	cr_expect_null(strstr(r.out, TOKEN), "a token was read inside: %s", r.out);
	run_free(&r);
	char *argv[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
	r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.out, "/.config/t/kube.yaml  (hidden_paths (default): ~/.kube, moved by "
				"$KUBECONFIG)"),
		  "explain does not say it: %s%s", r.out, r.err);
	run_free(&r);
	world_free(&w);
}

/* $XDG_CONFIG_HOME and $XDG_DATA_HOME set elsewhere are kept as ~/.config
 * and ~/.local/share are (round 10, A2). With --project ~ (the home
 * writable), core.fsmonitor appended to $XDG_CONFIG_HOME/git/config is
 * refused, and fish's vendor_conf.d made in $XDG_DATA_HOME is moved aside
 * as the session ends; with $XDG_CONFIG_HOME in the project, git's config
 * there stays read-only. git status and fish outside run nothing.
 * Control: the same plants made outside run. */
static const char xdg_plant[] =
	"fsmon >> \"$XDG_CONFIG_HOME/git/config\"; echo gitcfg $?\n"
	"mkdir -p \"$XDG_DATA_HOME/fish/vendor_conf.d\"; echo fish $?\n"
	"echo \"touch $M-fish\" > \"$XDG_DATA_HOME/fish/vendor_conf.d/x.fish\"\n";

static void xdg_outside(struct world *w)
{
	struct run_result r = outside(w, "git status >/dev/null 2>&1; fish -c true </dev/null "
					 ">/dev/null 2>&1; true");
	run_free(&r);
}

/* A relative $XDG_CONFIG_HOME (".cfg"), which git takes from the top of
 * the repository it runs in (other tools from where they run): its
 * .cfg/git/config, planted at the project's top, would run at git status
 * outside (round 11); one in a subdirectory, in a repository whose top it
 * is. The top's stays an empty read-only stand-in; a subdirectory's is
 * moved aside as the session ends. Control: planted outside, git runs
 * it. */
static const char rel_xdg_plant[] = "mkdir -p .cfg/git && fsmon > .cfg/git/config; echo top $?\n"
				    "mkdir -p sub/.cfg/git && fsmon > sub/.cfg/git/config; "
				    "echo sub $?\n";

BOTH_USERS(guards, a_relative_xdg_config_home_is_kept, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "xdgrel");
	world_setenv(&w, "XDG_CONFIG_HOME=.cfg");
	char *script = plant(&w, "deny", "", rel_xdg_plant);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "sub 0"), "the session could not write sub\n%s", diag);
	cr_expect_not(present(w.proj, ".cfg/git/config"), "the top's was planted\n%s", diag);
	cr_expect_not(present(w.proj, "sub/.cfg"), "the subdirectory's stayed\n%s", diag);
	run_free(&r);
	r = outside(&w, "git status >/dev/null 2>&1; cd sub && git status >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "git outside ran the plant\n%s", diag);
	free(diag);
	free(script);
	script = plant(&w, "ctl", "", rel_xdg_plant);
	r = outside(&w, "%s", script);
	run_free(&r);
	r = outside(&w, "cd sub && git status >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: git outside did not run the plant");
	free(script);
	world_free(&w);
}

BOTH_USERS(guards, moved_xdg_config_and_data_homes_are_kept, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "xdgkeep");
	cr_assert(file_exists("/usr/bin/fish"),
		  "fish is not installed (scripts/setup installs it)");
	free(write_file(w.home, "cfg/git/config", "[user]\n\tname = t\n"));
	free(write_file(w.home, "data/keep", "data\n"));
	world_give(&w);
	char *cfg = fmt("XDG_CONFIG_HOME=%s/cfg", w.home),
	     *data = fmt("XDG_DATA_HOME=%s/data", w.home);
	world_setenv(&w, cfg);
	world_setenv(&w, data);
	char *script = plant(&w, "deny", "", xdg_plant);
	char *opts = fmt("-p %s", w.home);
	struct run_result r = sh_in(&w, opts, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "fish 0"), "the session could not make vendor_conf.d\n%s", diag);
	char *gitcfg = fmt("%s/cfg/git/config", w.home);
	cr_expect_not(contains(gitcfg, "fsmonitor"), "$XDG_CONFIG_HOME/git/config was written\n%s",
		      diag);
	free(gitcfg);
	cr_expect_not(present(w.home, "data/fish/vendor_conf.d/x.fish"),
		      "vendor_conf.d made inside stayed\n%s", diag);
	run_free(&r);
	xdg_outside(&w);
	cr_expect_not(marked(&w, "deny", "fsmonitor") || marked(&w, "deny", "fish"),
		      "git or fish outside ran the plant\n%s", diag);
	free(diag);
	/* $XDG_CONFIG_HOME in the project (the default one, from the cwd). */
	free(write_file(w.proj, ".config/git/config", "[user]\n\tname = t\n"));
	world_give(&w);
	char *inproj = fmt("XDG_CONFIG_HOME=%s/.config", w.proj);
	world_setenv(&w, inproj);
	r = sh_in(&w, NULL, "%s", script);
	diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	gitcfg = fmt("%s/.config/git/config", w.proj);
	cr_expect_not(contains(gitcfg, "fsmonitor"),
		      "$XDG_CONFIG_HOME/git/config in the project was written\n%s", diag);
	free(gitcfg);
	/* Said as the session starts (round 11: only "Read-only file
	 * system"). */
	char *said = fmt("cordon: %s/.config stays read-only in the project", w.proj);
	cr_expect(strstr(r.err, said), "not said\n%s", diag);
	free(said);
	run_free(&r);
	xdg_outside(&w);
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "git outside ran the plant\n%s", diag);
	free(diag);
	free(script);
	/* Control: the same plants made outside run. */
	world_setenv(&w, cfg);
	script = plant(&w, "ctl", "", xdg_plant);
	r = sh_outside(&w, script);
	expect_all_landed((const char *const[]){"gitcfg", "fish", NULL}, &r, "outside");
	run_free(&r);
	xdg_outside(&w);
	cr_expect(marked(&w, "ctl", "fsmonitor") && marked(&w, "ctl", "fish"),
		  "control: git or fish outside did not run the plant");
	free(script);
	free(opts);
	free(cfg);
	free(data);
	free(inproj);
	world_free(&w);
}

/* Cloud tools' credentials under the default ~/.config grant (OpenStack's
 * clouds.yaml, linode-cli's, Scaleway's, Helm's registry logins) and
 * Kerberos tickets: MIT's default cache in /tmp (granted here, as by
 * default) and the file KRB5CCNAME names (under "~", granted). None is
 * printed inside. Controls: outside all are; a rule naming the ticket
 * cache itself exposes it. */
BOTH_USERS(guards, hidden_cloud_logins_and_tickets_stay_unread, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidcloud",
		  ", \"additional_read_write_paths\": [\"/tmp\"], "
		  "\"additional_read_only_paths\": [\"~\"]");
	free(write_file(w.home, ".config/openstack/clouds.yaml", "password: os-" TOKEN));
	free(write_file(w.home, ".config/linode-cli", "token = linode-" TOKEN));
	free(write_file(w.home, ".config/scaleway/config.yaml", "secret_key: scw-" TOKEN));
	free(write_file(w.home, ".config/helm/registry/config.json",
			"{\"auth\": \"helm-" TOKEN "\"}"));
	free(write_file(w.home, "krb/cc", "env-tgt-" TOKEN));
	free(write_file(w.home, ".config/other.conf", "other-visible"));
	world_give(&w);
	char *kv = fmt("KRB5CCNAME=FILE:%s/krb/cc", w.home);
	world_setenv(&w, kv);
	/* The default cache: made here only where the machine has none. */
	char *tmpcc = fmt("/tmp/krb5cc_%u", (unsigned)(who->user ? w.uid : 0));
	int fd = open(tmpcc, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	bool made = fd >= 0;
	if (made) {
		cr_assert_eq(write(fd, "tmp-tgt-" TOKEN, strlen("tmp-tgt-" TOKEN)),
			     (ssize_t)strlen("tmp-tgt-" TOKEN));
		close(fd);
		if (who->user)
			cr_assert_eq(chown(tmpcc, w.uid, w.gid), 0);
	}
	/* And one of sssd's and pam_krb5's names (krb5cc_UID_XXXXXX), another
	 * login's, which KRB5CCNAME does not name (round 52d F3). */
	char *sfxcc = fmt("%s_cordontest%d", tmpcc, (int)getpid());
	fd = open(sfxcc, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	cr_assert(fd >= 0, "%s: %s", sfxcc, strerror(errno));
	cr_assert_eq(write(fd, "sfx-tgt-" TOKEN, strlen("sfx-tgt-" TOKEN)),
		     (ssize_t)strlen("sfx-tgt-" TOKEN));
	close(fd);
	if (who->user)
		cr_assert_eq(chown(sfxcc, w.uid, w.gid), 0);
	char *script = fmt("grep -rsh . ~/.config; cat ~/krb/cc; echo; cat %s; echo; cat %s", tmpcc,
			   sfxcc);
	/* Every run first, then the verdicts: the cache in /tmp goes before
	 * an assertion can end the test. */
	struct run_result out = sh_outside(&w, script), in = sh_in(&w, NULL, "%s", script);
	struct run_result named = {0};
	if (made) {
		char *extra = fmt(", \"additional_read_write_paths\": [\"/tmp\"], "
				  "\"additional_read_only_paths\": [\"%s\"]",
				  tmpcc);
		set_config(&w, extra);
		named = sh_in(&w, NULL, "%s", script);
		free(extra);
		unlink(tmpcc);
	}
	unlink(sfxcc);
	cr_assert(strstr(out.out, "os-" TOKEN) && strstr(out.out, "linode-" TOKEN) &&
			  strstr(out.out, "scw-" TOKEN) && strstr(out.out, "helm-" TOKEN) &&
			  strstr(out.out, "env-tgt-" TOKEN) && strstr(out.out, "sfx-tgt-" TOKEN) &&
			  (!made || strstr(out.out, "tmp-tgt-" TOKEN)),
		  "control: outside: %s%s", out.out, out.err);
	cr_expect(strstr(in.out, "other-visible"), "~/.config is not readable inside: %s%s", in.out,
		  in.err);
	cr_expect_null(strstr(in.out, TOKEN), "a credential was read inside: %s%s", in.out, in.err);
	cr_assert(!made || strstr(named.out, "tmp-tgt-" TOKEN),
		  "control: a rule naming the ticket cache did not expose it: %s%s", named.out,
		  named.err);
	run_free(&out);
	run_free(&in);
	if (made)
		run_free(&named);
	free(script);
	free(sfxcc);
	free(tmpcc);
	free(kv);
	sweep_forget("/tmp"); /* (root's record of /tmp, made writable here) */
	world_free(&w);
}

/* Round 52e F3: Kerberos caches named in MIT's other forms: DIR::PATH
 * (one cache of a collection, as klist prints it) was taken for no path,
 * and a collection krb5.conf's default_ccache_name names
 * (DIR:/run/user/%{uid}/krb5cc on Fedora) was not looked for. Under a
 * readable home, neither is read inside. Controls: outside both are; a
 * file beside them is read inside. */
BOTH_USERS(guards, kerberos_caches_in_every_form_stay_unread, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "krbforms", ", \"additional_read_only_paths\": [\"~\"]");
	uid_t uid = who->user ? w.uid : 0;
	char *conf_dir = fmt("conf-%u", (unsigned)uid);
	free(write_file(w.home, "coll/tkt1", "dir-tgt-" TOKEN));
	char *conf_cc = fmt("%s/tkt1", conf_dir);
	free(write_file(w.home, conf_cc, "conf-tgt-" TOKEN));
	free(write_file(w.home, "visible", "beside-visible"));
	char *conf = fmt("[libdefaults]\n  default_ccache_name = DIR:%s/conf-%%{uid}\n", w.home);
	free(write_file(w.dir, "krb5.conf", conf));
	world_give(&w);
	char *kv = fmt("KRB5CCNAME=DIR::%s/coll/tkt1", w.home);
	char *cfgkv = fmt("KRB5_CONFIG=%s/krb5.conf", w.dir);
	world_setenv(&w, kv);
	world_setenv(&w, cfgkv);
	char *script = fmt("cat %s/coll/tkt1; echo; cat %s/%s; echo; cat %s/visible", w.home,
			   w.home, conf_cc, w.home);
	struct run_result out = sh_outside(&w, script), in = sh_in(&w, NULL, "%s", script);
	cr_assert(strstr(out.out, "dir-tgt-" TOKEN) && strstr(out.out, "conf-tgt-" TOKEN),
		  "control: outside: %s%s", out.out, out.err);
	cr_expect(strstr(in.out, "beside-visible"), "the home is not readable inside: %s%s", in.out,
		  in.err);
	cr_expect_null(strstr(in.out, TOKEN), "a ticket was read inside: %s%s", in.out, in.err);
	run_free(&out);
	run_free(&in);
	free(script), free(cfgkv), free(kv), free(conf), free(conf_cc), free(conf_dir);
	world_free(&w);
}

/* The system's secrets under the default /etc grant, which only root's
 * capabilities read (an ordinary user cannot read them outside either: no
 * control could show anything for one): a host key (made here, matched by
 * the "/etc/ssh/ssh_host_*_key" pattern) and a root-only file in no list
 * (made here too, and one made while the session runs, as a passwd
 * renames a new /etc/shadow into place: round 42b) are not read inside,
 * and /etc/shadow is a copy with every password field "*", so that su's
 * account check still finds the user's line. Controls: outside, the files
 * are read and the test user's password field is not "*"; su and sudo run
 * inside; a rule naming the key exposes it. */
Test(guards, the_system_s_secrets_stay_unread_by_a_root_session, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	test_user(&uid, &gid);
	struct passwd *pw = getpwuid(uid);
	cr_assert(pw, "the test user has no passwd entry");
	char *user = strdup(pw->pw_name);
	struct world w;
	world_init(&w, "sysecret", "");
	char *key = fmt("/etc/ssh/ssh_host_cordontest%d_key", (int)getpid());
	bool made_dir = mkdir("/etc/ssh", 0755) == 0;
	cr_assert(made_dir || errno == EEXIST, "/etc/ssh: %s", strerror(errno));
	int fd = open(key, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	cr_assert(fd >= 0, "%s: %s", key, strerror(errno));
	cr_assert_eq(write(fd, "host-key-" TOKEN, strlen("host-key-" TOKEN)),
		     (ssize_t)strlen("host-key-" TOKEN));
	close(fd);
	char *other = fmt("/etc/cordon-test-%d.conf", (int)getpid());
	char *later = fmt("/etc/cordon-test-%d.new", (int)getpid());
	fd = open(other, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600);
	cr_assert(fd >= 0, "%s: %s", other, strerror(errno));
	cr_assert_eq(write(fd, "other-" TOKEN, strlen("other-" TOKEN)),
		     (ssize_t)strlen("other-" TOKEN));
	close(fd);
	/* The one made while it runs: written outside once the session has
	 * looked, then read inside. */
	char *body = fmt("cat %s %s; echo; grep '^%s:' /etc/shadow; su %s -s /bin/sh -c id; "
			 "sudo -n -u %s id\n" WAIT_GO "cat %s\n",
			 key, other, user, user, user, later);
	char *saves = fmt("umask 077; echo later-" TOKEN " > %s", later);
	char *script = fmt("cat %s %s %s; echo; grep '^%s:' /etc/shadow", key, other, later, user);
	struct run_result in = world_while_outside(&w, w.cfg, body, saves);
	/* Every run first: the files go before an assertion can end the test. */
	struct run_result out = sh_outside(&w, script);
	unlink(later);
	/* A write rule beneath /etc (round 42d F1: it switched the idmap off). */
	char *dir = fmt("/etc/cordon-test-%d.d", (int)getpid());
	cr_assert_eq(mkdir(dir, 0755), 0, "%s: %s", dir, strerror(errno));
	char *wopt = fmt("--allow-write %s", dir);
	struct run_result beneath =
		sh_in(&w, wopt, "cat %s; echo made > %s/f && cat %s/f", other, dir, dir);
	char *made = at(dir, "f");
	unlink(made);
	rmdir(dir);
	sweep_forget_beneath(dir);
	char *extra = fmt(", \"additional_read_only_paths\": [\"%s\"]", key);
	set_config(&w, extra);
	struct run_result named = sh_in(&w, NULL, "cat %s", key);
	unlink(key);
	unlink(other);
	if (made_dir)
		rmdir("/etc/ssh");
	char *line_out = fmt("%s:", user), *starred = fmt("%s:*:", user);
	cr_assert(strstr(out.out, "host-key-" TOKEN) && strstr(out.out, "other-" TOKEN) &&
			  strstr(out.out, "later-" TOKEN) && strstr(out.out, line_out) &&
			  !strstr(out.out, starred),
		  "control: outside, a file or the user's password field was not read: %s%s",
		  out.out, out.err);
	cr_expect_null(strstr(in.out, TOKEN), "a secret in /etc was read inside: %s%s", in.out,
		       in.err);
	cr_expect(strstr(in.out, starred), "the shadow line inside is not blanked: %s%s", in.out,
		  in.err);
	char *id = fmt("uid=%u(", (unsigned)uid);
	const char *su = strstr(in.out, id);
	cr_expect(su && strstr(su + 1, id), "su and sudo did not both run inside: %s%s", in.out,
		  in.err);
	cr_expect(strstr(named.out, "host-key-" TOKEN),
		  "control: a rule naming the key did not expose it: %s%s", named.out, named.err);
	cr_expect_null(strstr(beneath.out, TOKEN),
		       "with a write rule beneath /etc, a secret there was read: %s%s", beneath.out,
		       beneath.err);
	cr_expect(strstr(beneath.out, "made"),
		  "the write rule beneath /etc did not let the session write: %s%s", beneath.out,
		  beneath.err);
	run_free(&beneath);
	free(made);
	free(wopt);
	free(dir);
	run_free(&out);
	run_free(&in);
	run_free(&named);
	free(id);
	free(line_out);
	free(starred);
	free(extra);
	free(script);
	free(body);
	free(saves);
	free(other);
	free(later);
	free(key);
	free(user);
	world_free(&w);
}

/* A terminal opened in a hidden directory (a tmux pane split from one
 * cd'd into ~/.ssh): read the key, plant an authorized key and an rc. */
static const char in_hidden[] = "echo ran; cat id_test; echo k >> authorized_keys; echo x > rc\n";

/* cordon run with no --project in ~/.ssh, and in a directory beneath it:
 * the current directory is not taken for the project (one line says why),
 * the shell runs, the key is not read and nothing is planted. Control:
 * --project naming ~/.ssh itself, which the user means, reads and writes
 * there. */
BOTH_USERS(guards, a_terminal_opened_in_a_hidden_path_has_no_project, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "hidcwd", "");
	free(write_file(w.home, ".ssh/id_test", SSH_KEY));
	free(write_file(w.home, ".ssh/sub/keep", "x"));
	/* (A hidden path that is a link: the directory it leads to is it.) */
	free(write_file(w.home, "dotfiles/aws/id_test", SSH_KEY));
	char *aws = at(w.home, ".aws"), *aws_real = at(w.home, "dotfiles/aws");
	cr_assert(symlink("dotfiles/aws", aws) == 0);
	world_give(&w);
	give_links(who, (const char *const[]){aws, NULL});
	char *ssh = at(w.home, ".ssh"), *sub = at(w.home, ".ssh/sub");
	const char *dirs[] = {ssh, sub, aws_real};
	const char *names[] = {"~/.ssh", "~/.ssh", "~/.aws"};
	for (size_t i = 0; i < 3; i++) {
		char *argv[] = {CORDON_BIN, "run", "--config",        w.cfg, "--",
				"/bin/sh",  "-c",  (char *)in_hidden, NULL};
		struct run_result r = world_run(&w, argv, dirs[i]);
		char *diag = fmt("in %s (%d): %s%s", dirs[i], r.status, r.out, r.err);
		cr_expect(strstr(r.out, "ran"), "the shell did not run\n%s", diag);
		char *line =
			fmt("a hidden path (%s); the session has no writable project", names[i]);
		cr_expect(strstr(r.err, line), "no line said why there is no project\n%s", diag);
		free(line);
		cr_expect_null(strstr(r.out, SSH_KEY), "the key was read\n%s", diag);
		cr_expect_not(present(ssh, "authorized_keys"), "an authorized key was planted\n%s",
			      diag);
		cr_expect_not(present(dirs[i], "rc"), "an rc was planted\n%s", diag);
		run_free(&r);
		free(diag);
	}
	char *argv[] = {CORDON_BIN, "run", "--config",        w.cfg, "--project", ssh, "--",
			"/bin/sh",  "-c",  (char *)in_hidden, NULL};
	struct run_result r = world_run(&w, argv, ssh);
	cr_assert(strstr(r.out, SSH_KEY) && present(ssh, "authorized_keys"),
		  "control: --project ~/.ssh did not read and write there: %s%s", r.out, r.err);
	run_free(&r);
	free(ssh), free(sub), free(aws), free(aws_real);
	world_free(&w);
}

/* ---- a writable home ---- */

/* SCRIPT outside, with HOME=HOME: the control. */
static struct run_result outside_with_home(struct world *w, const char *home, const char *script)
{
	char *s;
	asprintf(&s, "HOME='%s'; export HOME\n%s", home, script);
	struct run_result r = sh_outside(w, s);
	free(s);
	return r;
}

static const char home_plant[] =
	"cd ~ || exit 1\n"
	"echo evil >> .bashrc; echo append-bashrc $?\n"
	"echo evil > work/nb && mv work/nb .bashrc; echo replace-bashrc $?\n"
	"rm -f .bashrc; echo rm-bashrc $?\n"
	"mkdir -p .config/cordon && echo '" DISABLE "' > .config/cordon/config.json; "
	"echo cordon-config $?\n"
	"mv .config work/c2 && mkdir -p .config/cordon && "
	"echo '" DISABLE "' > .config/cordon/config.json; echo move-config $?\n"
	"mkdir -p .ssh && echo ssh-ed25519 AAAA evil >> .ssh/authorized_keys; "
	"echo authorized-keys $?\n"
	"mv .ssh work/s2 && mkdir .ssh && echo ssh-ed25519 AAAA evil > .ssh/authorized_keys; "
	"echo move-ssh $?\n"
	"echo new > work/newfile; echo newfile $?\n";

static const char *const home_steps[] = {"append-bashrc", "replace-bashrc", "rm-bashrc",
					 "cordon-config", "move-config",    "authorized-keys",
					 "move-ssh",      "newfile",        NULL};

/* A home with a .bashrc, a .config, a .ssh and a work/, made here. */
static void furnish_home(const char *home)
{
	free(write_file(home, "work/keep", "x"));
	free(write_file(home, ".bashrc", "orig-bashrc\n"));
	free(write_file(home, ".config/other.conf", "x"));
	free(write_file(home, ".ssh/known_hosts", "x"));
}

/* --project ~ (the home writable): ~/.bashrc is not written, replaced or
 * removed; no cordon config appears in ~/.config/cordon, not even by moving
 * ~/.config away; no ~/.ssh/authorized_keys; an ordinary new file can be
 * made in a directory of the home (it is writable). Control: the same script, outside, in a
 * home furnished alike, does all of it. */
BOTH_USERS(guards, home_project_keeps_dotfiles_and_config, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homeproj", "");
	char *home2 = at(w.dir, "home2");
	furnish_home(w.home);
	furnish_home(home2);
	world_give(&w);
	ino_t bashrc_ino = inode(w.home, ".bashrc"), config_ino = inode(w.home, ".config");

	char *opts;
	asprintf(&opts, "-p %s", w.home);
	struct run_result r = sh_in(&w, opts, "%s", home_plant);
	char *diag;
	asprintf(&diag, "inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "newfile 0") && present(w.home, "work/newfile"),
		  "control: the home is not writable inside\n%s", diag);
	char *now = content(w.home, ".bashrc");
	cr_expect_str_eq(now, "orig-bashrc\n", "~/.bashrc was changed\n%s", diag);
	free(now);
	cr_expect_eq(inode(w.home, ".bashrc"), bashrc_ino, "~/.bashrc was replaced\n%s", diag);
	cr_expect_not(present(w.home, ".config/cordon/config.json"),
		      "a cordon config was planted in ~/.config/cordon\n%s", diag);
	/* Moved into a directory of the home, which the closed home allows:
	 * the guards' mounts keep them in place (mv then copies what it sees
	 * and fails to remove the original). */
	cr_expect_eq(inode(w.home, ".config"), config_ino, "~/.config was moved away\n%s", diag);
	cr_expect_not(present(w.home, ".ssh/authorized_keys"),
		      "~/.ssh/authorized_keys was created\n%s", diag);
	cr_expect(present(w.home, ".ssh/known_hosts"), "~/.ssh was moved away\n%s", diag);
	/* ~/.config is kept read-only in a writable home: no rule would have
	 * made cordon's config writable, and nothing is said about it. */
	cr_expect_null(strstr(r.err, "stays read-only inside: it is cordon's own config"),
		       "a carve-out was said beneath ~/.config\n%s", diag);
	run_free(&r);

	r = outside_with_home(&w, home2, home_plant);
	expect_all_landed(home_steps, &r, "outside");
	cr_assert(present(home2, ".config/cordon/config.json") &&
			  present(home2, ".ssh/authorized_keys"),
		  "control: outside, the plant left nothing");
	run_free(&r);
	free(diag);
	free(opts);
	free(home2);
	world_free(&w);
}

static int notes_of(const struct world *w, const char *dir, bool remove);

/* A shell history directory is granted to the next session of its
 * project: a session with the home writable (--project ~) cannot replace
 * another project's with a link (cordon's state directory stays read-only),
 * and one replaced so outside is never used: the next session there writes
 * nothing where the link leads, and says why. Control: outside, the link
 * is made. */
BOTH_USERS(guards, a_history_directory_made_a_link_grants_nothing, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "histlink", "");
	char *target = at(w.dir, "target");
	cr_assert_eq(mkdir(target, 0755), 0);
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "printf %%s \"$CORDON_HISTORY_DIR\"");
	char *hist = strdup(r.out);
	cr_assert(strncmp(hist, w.home, strlen(w.home)) == 0, "no history directory: %s%s", r.out,
		  r.err);
	run_free(&r);
	char *plant = fmt("rm -rf '%s' && ln -s '%s' '%s'", hist, target, hist);
	char *opts = fmt("-p %s", w.home);
	r = sh_in(&w, opts, "%s", plant);
	struct stat st;
	cr_expect(lstat(hist, &st) == 0 && S_ISDIR(st.st_mode),
		  "a session with the home writable replaced the history directory: %s", r.err);
	run_free(&r);

	r = sh_outside(&w, plant);
	cr_assert(lstat(hist, &st) == 0 && S_ISLNK(st.st_mode), "control: outside: %s", r.err);
	run_free(&r);
	/* (The home, noted as written by the -p session, would have the next
	 * launch keep no history there at all: its state is not the one
	 * below the passwd home, which every session keeps. Round 37d F4;
	 * here, the link is what is looked at.) */
	cr_assert_gt(notes_of(&w, w.home, true), 0, "control: the home was not noted");
	sweep_forget(w.home);
	if (w.as_user) {
		char *rec = cordon_sweep_record_path(w.home);
		char *users = fmt("%s/.local/state/cordon/sessions%s", w.home, strrchr(rec, '/'));
		unlink(users);
		free(users), free(rec);
	}
	r = sh_in(&w, NULL, "echo planted > '%s/marker'; echo \"$CORDON_HISTORY_DIR\" > '%s/seen'",
		  target, target);
	cr_expect_not(present(target, "marker"), "the link granted writing where it leads: %s",
		      r.err);
	cr_expect(strstr(r.err, "not a directory of cordon's own"), "not said: %s", r.err);
	run_free(&r);
	cr_assert_eq(unlink(hist), 0);
	free(opts);
	free(plant);
	free(hist);
	free(target);
	world_free(&w);
}

static const char bare_plant[] =
	"cd ~ || exit 1\n"
	"echo evil > .bashrc; echo bashrc $?\n"
	"echo evil > .profile; echo profile $?\n"
	"mkdir -p .config/cordon && echo '" DISABLE "' > .config/cordon/config.json; "
	"echo cordon-config $?\n"
	"mkdir -p .ssh && echo ssh-ed25519 AAAA evil > .ssh/authorized_keys; "
	"echo authorized-keys $?\n"
	"echo new > work/newfile; echo newfile $?\n";

static const char *const bare_steps[] = {"bashrc",          "profile", "cordon-config",
					 "authorized-keys", "newfile", NULL};

/* cordon run -- cat SECRET, started outside in HOME (as its $HOME, and the
 * project) with no --config: what discovery finds there governs it. */
static struct run_result next_session(struct world *w, const char *home)
{
	char *kv;
	asprintf(&kv, "HOME=%s", home);
	world_setenv(w, kv);
	char *argv[] = {CORDON_BIN, "run", "--", "/bin/cat", w->secret, NULL};
	struct run_result r = world_run(w, argv, home);
	free(kv);
	asprintf(&kv, "HOME=%s", w->home);
	world_setenv(w, kv);
	free(kv);
	return r;
}

/* The same with a bare home (no dotfile, no ~/.config, no ~/.ssh): the
 * session must not create a ~/.config/cordon/config.json that switches the
 * next session off, or a ~/.ssh/authorized_keys (cordon makes both
 * directories before the session starts, and guards them), or a missing
 * dotfile. Judged also by the next session, started outside
 * in the home with no --config: it is still sandboxed (the world's secret,
 * outside, unread). Control: outside, in another bare home, the same
 * script lands, and the next session started there reads the secret. */
BOTH_USERS(guards, home_project_cannot_plant_a_config_or_authorized_keys, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homebare", "");
	char *home2 = at(w.dir, "home2");
	free(write_file(w.home, "work/keep", "x"));
	free(write_file(home2, "work/keep", "x"));
	world_give(&w);

	char *opts;
	asprintf(&opts, "-p %s", w.home);
	struct run_result r = sh_in(&w, opts, "%s", bare_plant);
	char *diag;
	asprintf(&diag, "inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "newfile 0") && present(w.home, "work/newfile"),
		  "control: the home is not writable inside\n%s", diag);
	cr_expect_not(present(w.home, ".config/cordon/config.json"),
		      "a cordon config was planted in ~/.config/cordon\n%s", diag);
	cr_expect_not(present(w.home, ".ssh/authorized_keys"),
		      "~/.ssh/authorized_keys was created\n%s", diag);
	cr_expect_not(present(w.home, ".bashrc"), "a ~/.bashrc was created\n%s", diag);
	cr_expect_not(present(w.home, ".profile"), "a ~/.profile was created\n%s", diag);
	/* What cordon made itself is never blamed on the session. */
	cr_expect(!strstr(r.err, "this session made") && !strstr(r.err, "while it ran) made"),
		  "cordon's own ~/.config blamed on the session\n%s", diag);
	run_free(&r);
	r = next_session(&w, w.home);
	cr_expect_null(strstr(r.out, SECRET),
		       "the next session, started in the home, was not sandboxed\n%s", diag);
	run_free(&r);

	r = outside_with_home(&w, home2, bare_plant);
	expect_all_landed(bare_steps, &r, "outside");
	run_free(&r);
	r = next_session(&w, home2);
	cr_assert(strstr(r.out, SECRET),
		  "control: the planted config did not switch the next session off: %s%s", r.out,
		  r.err);
	run_free(&r);
	free(diag);
	free(opts);
	free(home2);
	world_free(&w);
}

/* Every way of making a missing dotfile in a writable home, where no
 * mount can guard it: a new file, a file moved or hard-linked in from a
 * directory of the home, a symbolic link, a directory, a fifo, a socket.
 * With the home the project (--project ~) and with "~" granted from a
 * project elsewhere. Meanwhile a directory of the home takes new files and
 * directories, an existing file in the home is written, and a file of the
 * home is removed. Control: the same script, outside, in another home,
 * makes them all. */
static const char dots_plant[] =
	"cd ~ || exit 1\n"
	"echo evil > .bashrc; echo new-file $?\n"
	"echo evil > work/p && mv work/p .profile; echo move-in $?\n"
	"ln work/keep .bash_login; echo hard-link $?\n"
	"ln -s work/keep .zshrc; echo symlink $?\n"
	"mkdir .terminfo; echo mkdir $?\n"
	"mkfifo .zshenv; echo fifo $?\n"
	"python3 -c 'import socket; socket.socket(socket.AF_UNIX).bind(\".zlogin\")'; "
	"echo socket $?\n"
	"mkdir -p .local/bin && printf '#!/bin/sh\\n' > .local/bin/ls; echo path-bin $?\n"
	"mkdir -p .local/share/systemd/user && echo '[Service]' > "
	".local/share/systemd/user/x.service; echo user-unit $?\n"
	"mkdir -p .local/share/dbus-1/services && echo '[D-BUS Service]' > "
	".local/share/dbus-1/services/x.service; echo bus-service $?\n"
	"mkdir -p .local/share/applications && echo '[Desktop Entry]' > "
	".local/share/applications/x.desktop; echo desktop-entry $?\n"
	"rm -rf work/d; mkdir work/d && echo new > work/d/newfile; echo newfile $?\n"
	"echo more >> notes; echo existing $?\n"
	"rm old; echo remove $?\n";

static const char *const dots_steps[] = {"new-file",  "move-in",     "hard-link",     "symlink",
					 "mkdir",     "fifo",        "socket",        "path-bin",
					 "user-unit", "bus-service", "desktop-entry", NULL};
/* What a login, the user manager, the bus or the desktop outside would run. */
static const char *const dots_made[] = {".bashrc",
					".profile",
					".bash_login",
					".zshrc",
					".terminfo",
					".zshenv",
					".zlogin",
					".local/bin/ls",
					".local/share/systemd/user/x.service",
					".local/share/dbus-1/services/x.service",
					".local/share/applications/x.desktop",
					NULL};

static void furnish_dots(const char *home)
{
	free(write_file(home, ".local/share/keep", "x"));
	free(write_file(home, "work/keep", "x"));
	free(write_file(home, "notes", "notes\n"));
	free(write_file(home, "old", "x"));
}

static void expect_no_dots(const char *home, const struct run_result *r, const char *how)
{
	char *diag;
	asprintf(&diag, "%s (%d): %s%s", how, r->status, r->out, r->err);
	cr_assert(strstr(r->out, "newfile 0") && present(home, "work/d/newfile"),
		  "control: a directory of the home is not writable inside\n%s", diag);
	char *notes = content(home, "notes");
	cr_assert_str_eq(notes, "notes\nmore\n", "control: ~/notes was not written\n%s", diag);
	free(notes);
	cr_assert(strstr(r->out, "remove 0") && !present(home, "old"),
		  "control: ~/old was not removed\n%s", diag);
	for (size_t i = 0; dots_made[i]; i++)
		cr_expect_not(present(home, dots_made[i]), "~/%s was made inside\n%s", dots_made[i],
			      diag);
	cr_expect(!strstr(r->err, "this session made") && !strstr(r->err, "while it ran) made"),
		  "a name cordon guards was said to be unguarded\n%s", diag);
	free(diag);
}

BOTH_USERS(guards, home_writable_takes_no_missing_dotfile, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homedots", ", \"additional_read_write_paths\": [\"~\"]");
	char *home2 = at(w.dir, "home2");
	furnish_dots(w.home);
	furnish_dots(home2);
	world_give(&w);

	/* "~" granted, from the world's project. */
	struct run_result r = sh_in(&w, NULL, "%s", dots_plant);
	expect_no_dots(w.home, &r, "~ granted");
	run_free(&r);

	/* The home, the project. */
	furnish_dots(w.home);
	world_give(&w);
	char *opts;
	asprintf(&opts, "-p %s", w.home);
	r = sh_in(&w, opts, "%s", dots_plant);
	expect_no_dots(w.home, &r, "--project ~");
	run_free(&r);

	r = outside_with_home(&w, home2, dots_plant);
	expect_all_landed(dots_steps, &r, "outside");
	for (size_t i = 0; dots_made[i]; i++)
		cr_assert(present(home2, dots_made[i]), "control: outside, ~/%s was not made",
			  dots_made[i]);
	run_free(&r);
	free(opts);
	free(home2);
	world_free(&w);
}

/* With the home writable, what programs outside run or load from it
 * besides the dotfiles stays read-only: rustup's env (sourced by
 * ~/.bashrc) and cargo's bin (on PATH), Python's user site (a .pth runs
 * at every python start), gdb's startup file, Gradle's init scripts,
 * jedi's pickles (an editor's completion loads them: round 8).
 * Control: outside, in another home, each lands. */
static const char code_plant[] = "cd ~ || exit 1\n"
				 "echo evil >> .cargo/env; echo cargo-env $?\n"
				 "printf '#!/bin/sh\\n' > .cargo/bin/ls; echo cargo-bin $?\n"
				 "echo 'import os' > .local/lib/python3.11/site-packages/zz.pth; "
				 "echo pth $?\n"
				 "echo 'shell true' >> .gdbinit; echo gdbinit $?\n"
				 "echo x > .gradle/init.d/x.gradle; echo gradle $?\n"
				 "echo evil > .cache/pip/wheels/x.whl; echo pip $?\n"
				 "mkdir .terraform.d/plugins/evil; echo terraform $?\n"
				 "mkdir .cache/pre-commit/repoevil; echo pre-commit $?\n"
				 "echo evil > .cache/jedi/CPython-311-18/os.pkl; echo jedi $?\n"
				 "echo evil >> .bash/aliases.sh; echo bash-dir $?\n";

static const char *const code_steps[] = {"cargo-env", "cargo-bin", "pth",       "gdbinit",
					 "gradle",    "pip",       "terraform", "pre-commit",
					 "jedi",      "bash-dir",  NULL};

static void furnish_code(const char *home)
{
	free(write_file(home, ".cargo/env", "# rustup\n"));
	free(write_file(home, ".cargo/bin/cargo", "#!/bin/sh\n"));
	free(write_file(home, ".local/lib/python3.11/site-packages/keep", "x"));
	free(write_file(home, ".gdbinit", "set pagination off\n"));
	free(write_file(home, ".gradle/init.d/keep", "x"));
	free(write_file(home, ".cache/pip/wheels/keep", "x"));
	free(write_file(home, ".terraform.d/plugins/keep", "x"));
	free(write_file(home, ".cache/pre-commit/keep", "x"));
	free(write_file(home, ".cache/jedi/CPython-311-18/keep", "x"));
	free(write_file(home, ".bash/aliases.sh", "alias ll='ls -l'\n"));
}

static void expect_code_kept(const char *home, const struct run_result *r, const char *how)
{
	char *diag = fmt("%s (%d): %s%s", how, r->status, r->out, r->err);
	char *env = content(home, ".cargo/env"), *gdb = content(home, ".gdbinit");
	cr_expect_str_eq(env, "# rustup\n", "~/.cargo/env was written\n%s", diag);
	cr_expect_str_eq(gdb, "set pagination off\n", "~/.gdbinit was written\n%s", diag);
	cr_expect_not(present(home, ".cargo/bin/ls"), "~/.cargo/bin/ls was made\n%s", diag);
	cr_expect_not(present(home, ".local/lib/python3.11/site-packages/zz.pth"),
		      "a .pth was made\n%s", diag);
	cr_expect_not(present(home, ".gradle/init.d/x.gradle"), "an init script was made\n%s",
		      diag);
	cr_expect_not(present(home, ".cache/pip/wheels/x.whl"), "a wheel was planted\n%s", diag);
	cr_expect_not(present(home, ".terraform.d/plugins/evil"), "a provider was planted\n%s",
		      diag);
	cr_expect_not(present(home, ".cache/pre-commit/repoevil"),
		      "a pre-commit hook repository was planted\n%s", diag);
	cr_expect_not(present(home, ".cache/jedi/CPython-311-18/os.pkl"),
		      "a jedi pickle was planted\n%s", diag);
	char *aliases = content(home, ".bash/aliases.sh");
	cr_expect_str_eq(aliases, "alias ll='ls -l'\n", "~/.bash/aliases.sh was written\n%s", diag);
	free(aliases);
	free(env);
	free(gdb);
	free(diag);
}

BOTH_USERS(guards, home_writable_keeps_what_runs_from_it, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homecode", ", \"additional_read_write_paths\": [\"~\"]");
	char *home2 = at(w.dir, "home2");
	furnish_code(w.home);
	furnish_code(home2);
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "%s", code_plant);
	expect_code_kept(w.home, &r, "~ granted");
	run_free(&r);
	r = outside_with_home(&w, home2, code_plant);
	expect_all_landed(code_steps, &r, "outside");
	run_free(&r);
	free(home2);
	world_free(&w);
}

/* With the home writable, the user-wide settings coding agents and
 * editors keep outside ~/.config stay read-only: an agent's hooks, Codex's
 * notify command, an editor extension, Continue's and Kiro's MCP servers.
 * Control: outside, they land. */
static const char agents_plant[] =
	"cd ~ || exit 1\n"
	"echo '{\"hooks\": \"evil\"}' > .claude/settings.json; echo claude $?\n"
	"echo 'notify = [\"evil\"]' >> .codex/config.toml; echo codex $?\n"
	"mkdir .vscode/extensions/evil; echo extension $?\n"
	"echo 'mcpServers: evil' >> .continue/config.yaml; echo continue $?\n"
	"echo '{}' > .kiro/settings/mcp.json; echo kiro $?\n"
	"mv .claude work/c2 && mkdir .claude; echo swap $?\n";

BOTH_USERS(guards, home_writable_keeps_agents_settings, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homeagents", ", \"additional_read_write_paths\": [\"~\"]");
	char *home2 = at(w.dir, "home2");
	const char *homes[] = {w.home, home2};
	for (int i = 0; i < 2; i++) {
		free(write_file(homes[i], ".claude/settings.json", "{}"));
		free(write_file(homes[i], ".codex/config.toml", "model = \"x\"\n"));
		free(write_file(homes[i], ".vscode/extensions/extensions.json", "[]"));
		free(write_file(homes[i], ".continue/config.yaml", "name: x\n"));
		free(write_file(homes[i], ".kiro/settings/keep", ""));
		free(write_file(homes[i], "work/keep", "x"));
	}
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "%s", agents_plant);
	char *settings = content(w.home, ".claude/settings.json");
	char *codex = content(w.home, ".codex/config.toml");
	cr_expect_str_eq(settings, "{}", "agent settings written inside: %s", r.err);
	cr_expect_str_eq(codex, "model = \"x\"\n", "codex config written inside: %s", r.err);
	cr_expect_not(present(w.home, ".vscode/extensions/evil"), "an extension was planted");
	char *cont = content(w.home, ".continue/config.yaml");
	cr_expect_str_eq(cont, "name: x\n", "Continue's settings written inside: %s", r.err);
	free(cont);
	cr_expect_not(present(w.home, ".kiro/settings/mcp.json"), "Kiro's settings planted: %s",
		      r.err);
	/* (mv may copy it, failing to remove the original: a copy is no swap.) */
	cr_expect(present(w.home, ".claude/settings.json"), "~/.claude was moved away: %s", r.err);
	free(settings);
	free(codex);
	run_free(&r);
	r = outside_with_home(&w, home2, agents_plant);
	expect_all_landed((const char *const[]){"claude", "codex", "extension", "continue", "kiro",
						"swap", NULL},
			  &r, "outside");
	run_free(&r);
	/* Named by a rule itself (an agent run inside): writable, the rest
	 * still not. */
	set_config(&w, ", \"additional_read_write_paths\": [\"~\", \"~/.claude\"]");
	r = sh_in(&w, NULL, "%s",
		  "cd ~ && echo '{\"hooks\": \"evil\"}' > .claude/settings.json; "
		  "echo 'notify = [\"evil\"]' >> .codex/config.toml");
	settings = content(w.home, ".claude/settings.json");
	codex = content(w.home, ".codex/config.toml");
	cr_expect(strstr(settings, "evil"), "a rule naming ~/.claude did not make it writable: %s",
		  r.err);
	cr_expect_str_eq(codex, "model = \"x\"\n", "codex config written inside: %s", r.err);
	free(settings);
	free(codex);
	run_free(&r);
	free(home2);
	world_free(&w);
}

/* Below a writable home, what a shell or a tool outside loads: fish's
 * vendor_conf.d (made: fish keeps its data there), a bash-completion
 * user completion, an .envrc approved in direnv's allow database, an
 * existing ~/.hgrc. */
static const char loaded_plant[] =
	"cd ~ || exit 1\n"
	"mkdir -p .local/share/fish/vendor_conf.d && "
	"echo \"touch $M-fish\" > .local/share/fish/vendor_conf.d/zz.fish; echo fish $?\n"
	"echo \"touch $M-bashcomp\" > .local/share/bash-completion/completions/git; "
	"echo bashcomp $?\n"
	"echo \"touch $M-direnv\" > src/app/.envrc && (cd src/app && direnv allow . 2>&1); "
	"echo direnv $?\n"
	"printf '[hooks]\\nupdate = touch %s-hg\\n' \"$M\" >> .hgrc; echo hgrc $?\n";

static const char *const loaded_steps[] = {"fish", "bashcomp", "direnv", "hgrc", NULL};

/* The real programs, outside, as they start: fish, bash-completion for
 * git<TAB>, direnv entering the directory. */
static void load_outside(struct world *w)
{
	struct run_result r = sh_outside(
		w, "fish -c true; "
		   "bash -c '. /usr/share/bash-completion/bash_completion; __load_completion git'; "
		   "cd ~/src/app && eval \"$(direnv export bash 2>/dev/null)\"");
	run_free(&r);
}

/* --project ~: none of them is planted, and fish, bash-completion and
 * direnv outside run nothing. Control: with each named by a write rule,
 * the same plant lands and the programs run it. */
BOTH_USERS(guards, home_writable_keeps_what_shells_and_tools_load, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homeload", "");
	cr_assert(file_exists("/usr/share/bash-completion/bash_completion"),
		  "bash-completion is not installed (scripts/setup installs it)");
	free(write_file(w.home, ".local/share/fish/fish_history", ""));
	free(write_file(w.home, ".local/share/bash-completion/completions/keep", ""));
	free(write_file(w.home, ".local/share/direnv/allow/keep", ""));
	free(write_file(w.home, "src/app/.envrc", "# mine\n"));
	free(write_file(w.home, ".hgrc", "[ui]\n"));
	world_give(&w);
	char *opts = fmt("-p %s", w.home);
	char *script = plant(&w, "deny", "", loaded_plant);
	struct run_result r = sh_in(&w, opts, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "fish ") && strstr(r.out, "hgrc "), "the plant did not run\n%s",
		  diag);
	cr_expect_not(present(w.home, ".local/share/fish/vendor_conf.d/zz.fish"),
		      "fish's vendor_conf.d was planted\n%s", diag);
	cr_expect_not(present(w.home, ".local/share/bash-completion/completions/git"),
		      "a completion was planted\n%s", diag);
	char *hgrc = content(w.home, ".hgrc");
	cr_expect_str_eq(hgrc, "[ui]\n", "~/.hgrc was written\n%s", diag);
	free(hgrc);
	run_free(&r);
	load_outside(&w);
	cr_expect_not(marked(&w, "deny", "fish"), "fish outside ran the plant\n%s", diag);
	cr_expect_not(marked(&w, "deny", "bashcomp"), "bash-completion outside ran the plant\n%s",
		      diag);
	cr_expect_not(marked(&w, "deny", "direnv"), "direnv outside ran the plant\n%s", diag);
	free(diag);
	free(script);

	/* Control: each named by a write rule (the .envrc too: changed
	 * inside, it would be moved aside as the session ends). */
	r = sh_outside(&w, "cd ~ && mv src/app/.envrc.cordon-disarmed src/app/.envrc");
	run_free(&r);
	set_config(&w, ", \"additional_read_write_paths\": [\"~/.local/share/fish/vendor_conf.d\", "
		       "\"~/.local/share/bash-completion\", \"~/.local/share/direnv\", "
		       "\"~/.hgrc\", \"~/src/app/.envrc\"]");
	script = plant(&w, "ctl", "", loaded_plant);
	r = sh_in(&w, opts, "%s", script);
	expect_all_landed(loaded_steps, &r, "named by write rules");
	run_free(&r);
	load_outside(&w);
	cr_assert(marked(&w, "ctl", "fish"), "control: fish did not run the plant");
	cr_assert(marked(&w, "ctl", "bashcomp"), "control: bash-completion did not run the plant");
	cr_assert(marked(&w, "ctl", "direnv"), "control: direnv did not run the plant");
	free(script);
	free(opts);
	world_free(&w);
}

/* What a ~/.bashrc sources under names of its own (~/.bashrc.local,
 * ~/.aliases) and direnv's ~/.direnvrc, in a writable home: the session
 * cannot add to them, and an interactive bash outside runs nothing
 * planted. Control: each named by a write rule, bash runs the plant. */
static const char rc_locals_plant[] = "cd ~ || exit 1\n"
				      "echo \"touch $M-local\" >> .bashrc.local; echo local $?\n"
				      "echo \"touch $M-aliases\" >> .aliases; echo aliases $?\n"
				      "echo \"touch $M-direnvrc\" >> .direnvrc; echo direnvrc $?\n"
				      "echo \"touch $M-globbed\" >> .bashd/x.sh; echo globbed $?\n";

BOTH_USERS(guards, home_writable_keeps_what_the_rc_files_source, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homerc", "");
	free(write_file(
		w.home, ".bashrc",
		". ~/.bashrc.local\n. ~/.aliases\nfor f in ~/.bashd/*.sh; do . \"$f\"; done\n"));
	free(write_file(w.home, ".bashd/x.sh", "true\n"));
	free(write_file(w.home, ".bashrc.local", "true\n"));
	free(write_file(w.home, ".aliases", "true\n"));
	free(write_file(w.home, ".direnvrc", "true\n"));
	world_give(&w);
	char *opts = fmt("-p %s", w.home);
	char *script = plant(&w, "deny", "", rc_locals_plant);
	struct run_result r = sh_in(&w, opts, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	static const char *const names[] = {".bashrc.local", ".aliases", ".direnvrc", ".bashd/x.sh",
					    NULL};
	for (size_t i = 0; names[i]; i++) {
		char *now = content(w.home, names[i]);
		cr_expect_str_eq(now, "true\n", "~/%s was written\n%s", names[i], diag);
		free(now);
	}
	run_free(&r);
	r = outside(&w, "bash -i -c true </dev/null >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect_not(marked(&w, "deny", "local") || marked(&w, "deny", "aliases") ||
			      marked(&w, "deny", "globbed"),
		      "bash outside ran the plant\n%s", diag);
	free(diag);
	free(script);

	set_config(&w, ", \"additional_read_write_paths\": [\"~/.bashrc.local\", \"~/.aliases\", "
		       "\"~/.direnvrc\", \"~/.bashd\"]");
	script = plant(&w, "ctl", "", rc_locals_plant);
	r = sh_in(&w, opts, "%s", script);
	expect_all_landed((const char *const[]){"local", "aliases", "direnvrc", "globbed", NULL},
			  &r, "named by write rules");
	run_free(&r);
	r = outside(&w, "bash -i -c true </dev/null >/dev/null 2>&1; true");
	run_free(&r);
	cr_assert(marked(&w, "ctl", "local") && marked(&w, "ctl", "aliases") &&
			  marked(&w, "ctl", "globbed"),
		  "control: bash outside did not run the plant");
	free(script);
	free(opts);
	world_free(&w);
}

/* A dotfiles repository as the project, ~/.bashrc a link into it, and
 * that bashrc sourcing another file of the repository by name: the session
 * cannot add to that file, and an interactive bash outside runs nothing
 * planted. Control: outside, the plant lands and bash runs it. */
BOTH_USERS(guards, what_a_linked_bashrc_sources_is_kept, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "srcdot", "");
	char *aliases = at(w.proj, "aliases.sh"), *bashrc = at(w.proj, "bashrc");
	char *link = at(w.home, ".bashrc");
	char *rc = fmt("[ -f %s ] && . %s\n", aliases, aliases);
	free(write_file(w.proj, "bashrc", rc));
	free(write_file(w.proj, "aliases.sh", "true\n"));
	cr_assert_eq(symlink(bashrc, link), 0);
	world_give(&w);
	give_links(who, (const char *const[]){link, NULL});
	char *script =
		plant(&w, "deny", "", "echo \"touch $M-aliases\" >> aliases.sh; echo aliases $?\n");
	struct run_result r = sh_in(&w, w.popt, "%s", script);
	char *now = content(w.proj, "aliases.sh");
	cr_expect_str_eq(now, "true\n", "the sourced file was written: %s%s", r.out, r.err);
	free(now);
	run_free(&r);
	r = outside(&w, "bash -i -c true </dev/null >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect_not(marked(&w, "deny", "aliases"), "bash outside ran the plant");
	free(script);
	script = plant(&w, "ctl", "", "echo \"touch $M-aliases\" >> aliases.sh; echo aliases $?\n");
	r = sh_outside(&w, script);
	run_free(&r);
	r = outside(&w, "bash -i -c true </dev/null >/dev/null 2>&1; true");
	run_free(&r);
	cr_assert(marked(&w, "ctl", "aliases"), "control: bash outside did not run the plant");
	free(script);
	free(rc);
	free(aliases);
	free(bashrc);
	free(link);
	world_free(&w);
}

/* A dotfiles repository as the project, named by path (no link) in the
 * home's files: a loop over its directory behind a test, a file sourced by
 * a sourced file, a PATH entry (a new program there), git's
 * core.fsmonitor, ssh's Include, fish's source, zsh's ZDOTDIR and tmux's
 * source-file (round 8 had each run outside). The session writes none of
 * them, and bash, git, ssh, fish and zsh run outside run nothing planted.
 * Control: the same plant made outside runs. */
static const char named_plant[] =
	"echo \"touch $M-guarded\" >> x/a.sh; echo guarded $?\n"
	"echo \"touch $M-deep\" >> bash/deep.sh; echo deep $?\n"
	"printf '#!/bin/sh\\ntouch %s\\n' \"$M-path\" > bin/mytool && chmod +x bin/mytool; "
	"echo path $?\n"
	"echo \"touch $M-fsmon\" >> bin/fsmon; echo fsmon $?\n"
	"printf 'Match exec \"touch %s\"\\n' \"$M-ssh\" >> ssh/extra; echo ssh $?\n"
	"echo \"touch $M-fish\" >> fish/extra.fish; echo fish $?\n"
	"echo \"touch $M-zsh\" > zsh/.zshrc; echo zsh $?\n"
	"echo \"run-shell 'touch $M-tmux'\" >> tmux/extra.conf; echo tmux $?\n"
	"echo \"touch $M-casearm\" >> bash/casearm.sh; echo casearm $?\n"
	"printf '#!/bin/sh\\ntouch %s\\n' \"$M-pathidiom\" > bin2/tool2 && chmod +x bin2/tool2; "
	"echo pathidiom $?\n";

static const char *const named_steps[] = {"guarded", "deep", "path",    "fsmon",     "ssh", "fish",
					  "zsh",     "tmux", "casearm", "pathidiom", NULL};

static void named_outside(struct world *w)
{
	char *script = fmt("bash -i -c 'mytool; tool2; true' </dev/null >/dev/null 2>&1; "
			   "git init -q %s/r && git -C %s/r status >/dev/null 2>&1; "
			   "ssh -F \"$HOME/.ssh/config\" -G somehost >/dev/null 2>&1; "
			   "fish -c true </dev/null >/dev/null 2>&1; "
			   "zsh -i -c exit </dev/null >/dev/null 2>&1; rm -rf %s/r; true",
			   w->outside, w->outside, w->outside);
	struct run_result r = outside(w, "%s", script);
	run_free(&r);
	free(script);
}

BOTH_USERS(guards, what_a_dotfile_names_by_path_is_kept, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "named", "");
	const char *P = w.proj;
	free(write_file(P, "x/a.sh", "true\n"));
	char *init = fmt(". %s/bash/deep.sh\n", P);
	free(write_file(P, "bash/init", init));
	free(write_file(P, "bash/deep.sh", "true\n"));
	free(write_file(P, "bin/fsmon", "#!/bin/sh\n"));
	char *fsmon = at(P, "bin/fsmon");
	cr_assert_eq(chmod(fsmon, 0755), 0);
	free(write_file(P, "ssh/extra", "# extra\n"));
	free(write_file(P, "fish/extra.fish", "true\n"));
	free(write_file(P, "zsh/keep", ""));
	free(write_file(P, "tmux/extra.conf", "# t\n"));
	free(write_file(P, "bash/casearm.sh", "true\n"));
	free(write_file(P, "bin2/keep", ""));
	char *bashrc = fmt("[ -d %s/x ] && for f in %s/x/*.sh; do . \"$f\"; done\n"
			   "source %s/bash/init\nexport PATH=\"%s/bin:$PATH\"\n"
			   "case x in x) source %s/bash/casearm.sh ;; esac\n"
			   "export PATH=\"%s/bin2${PATH:+:${PATH}}\"\n",
			   P, P, P, P, P, P);
	free(write_file(w.home, ".bashrc", bashrc));
	char *ssh = fmt("Include %s/ssh/extra\n", P);
	char *sshcfg = write_file(w.home, ".ssh/config", ssh);
	cr_assert_eq(chmod(sshcfg, 0600), 0);
	char *git = fmt("[core]\n\tfsmonitor = %s/bin/fsmon\n[init]\n\tdefaultBranch = main\n", P);
	free(write_file(w.home, ".gitconfig", git));
	char *fish = fmt("source %s/fish/extra.fish\n", P);
	free(write_file(w.home, ".config/fish/config.fish", fish));
	char *zshenv = fmt("export ZDOTDIR=%s/zsh\n", P);
	free(write_file(w.home, ".zshenv", zshenv));
	char *tmux = fmt("source-file %s/tmux/extra.conf\n", P);
	free(write_file(w.home, ".tmux.conf", tmux));
	world_give(&w);

	char *script = plant(&w, "deny", "", named_plant);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	static const char *const kept[][2] = {
		{"x/a.sh", "true\n"},          {"bash/deep.sh", "true\n"},
		{"bin/fsmon", "#!/bin/sh\n"},  {"ssh/extra", "# extra\n"},
		{"fish/extra.fish", "true\n"}, {"tmux/extra.conf", "# t\n"},
		{"bash/casearm.sh", "true\n"}};
	for (size_t i = 0; i < sizeof(kept) / sizeof(kept[0]); i++) {
		char *now = content(P, kept[i][0]);
		cr_expect_str_eq(now, kept[i][1], "%s was written\n%s", kept[i][0], diag);
		free(now);
	}
	cr_expect_not(present(P, "bin/mytool"), "a program was added on PATH\n%s", diag);
	cr_expect_not(present(P, "bin2/tool2"), "a program was added on PATH\n%s", diag);
	cr_expect_not(present(P, "zsh/.zshrc"), "a .zshrc was made in ZDOTDIR\n%s", diag);
	run_free(&r);
	named_outside(&w);
	for (size_t i = 0; named_steps[i]; i++)
		cr_expect_not(marked(&w, "deny", named_steps[i]), "%s: ran outside\n%s",
			      named_steps[i], diag);
	free(diag);
	free(script);

	/* Control: the same plant, made outside, runs. */
	script = plant(&w, "ctl", "", named_plant);
	r = sh_outside(&w, script);
	expect_all_landed(named_steps, &r, "outside");
	run_free(&r);
	named_outside(&w);
	for (size_t i = 0; named_steps[i]; i++)
		if (strcmp(named_steps[i], "tmux") != 0) /* (no tmux server is started) */
			cr_expect(marked(&w, "ctl", named_steps[i]), "control: %s did not run",
				  named_steps[i]);
	free(script);
	free(tmux);
	free(zshenv);
	free(fish);
	free(git);
	free(sshcfg);
	free(ssh);
	free(bashrc);
	free(fsmon);
	free(init);
	world_free(&w);
}

/* What a dotfile only mentions stays the project's (round 9): an alias
 * that cleans the build directory with a glob, one that cds into it, vim's
 * tags file, and ssh's IdentityFile and Include in ~/.ssh, which is hidden
 * anyway (a --project ~ session was refused for them). Judged from
 * outside: the files the session wrote are there. */
BOTH_USERS(guards, what_a_dotfile_only_mentions_stays_writable, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "mention", "");
	const char *P = w.proj;
	free(write_file(P, "build/keep", ""));
	free(write_file(P, "sub/keep", ""));
	char *bashrc = fmt("alias clean='rm -rf %s/build/*'\nalias sub='cd %s/sub'\n"
			   "export HISTFILE=%s/sub/history\n",
			   P, P, P);
	free(write_file(w.home, ".bashrc", bashrc));
	char *vimrc = fmt("set tags=./tags;,%s/tags\n", P);
	free(write_file(w.home, ".vimrc", vimrc));
	char *sshcfg =
		write_file(w.home, ".ssh/config",
			   "Include ~/.ssh/config.d/*\nHost *\n  IdentityFile ~/.ssh/id_work\n");
	free(write_file(w.home, ".ssh/id_work", "key"));
	free(write_file(w.home, ".ssh/config.d/a", "# a\n"));
	world_give(&w);
	struct run_result r =
		sh_in(&w, NULL, "echo x > build/obj && echo x > sub/x && echo t > tags");
	cr_expect(present(P, "build/obj") && present(P, "sub/x") && present(P, "tags"),
		  "a mention kept part of the project: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "stays read-only: named by"), "%s", r.err);
	run_free(&r);
	char *opts = fmt("-p %s", w.home);
	r = sh_in(&w, opts, "echo ran");
	cr_expect(strstr(r.out, "ran"), "--project ~ did not run: %d %s%s", r.status, r.out, r.err);
	run_free(&r);
	free(opts);
	free(sshcfg);
	free(vimrc);
	free(bashrc);
	world_free(&w);
}

/* A writable home (--project ~): what ~/.bashrc sources through a loop
 * spelled "$HOME"/lib/sh/NAME.sh with a glob, and what a file it sources sources in
 * turn, stay unwritten, and bash outside runs nothing planted. Control:
 * the same plant made outside runs. */
static const char home_named_plant[] = "cd ~ || exit 1\n"
				       "echo \"touch $M-loop\" >> lib/sh/a.sh; echo loop $?\n"
				       "echo \"touch $M-deep\" >> lib/deep.sh; echo deep $?\n";

BOTH_USERS(guards, home_writable_keeps_what_sourced_files_source, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homenamed", "");
	free(write_file(w.home, ".bashrc",
			"for f in \"$HOME\"/lib/sh/*.sh; do . \"$f\"; done\nsource ~/lib/init\n"));
	free(write_file(w.home, "lib/init", ". \"$HOME\"/lib/deep.sh\n"));
	free(write_file(w.home, "lib/deep.sh", "true\n"));
	free(write_file(w.home, "lib/sh/a.sh", "true\n"));
	world_give(&w);
	char *opts = fmt("-p %s", w.home);
	char *script = plant(&w, "deny", "", home_named_plant);
	struct run_result r = sh_in(&w, opts, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	static const char *const names[] = {"lib/sh/a.sh", "lib/deep.sh", NULL};
	for (size_t i = 0; names[i]; i++) {
		char *now = content(w.home, names[i]);
		cr_expect_str_eq(now, "true\n", "~/%s was written\n%s", names[i], diag);
		free(now);
	}
	run_free(&r);
	r = outside(&w, "bash -i -c true </dev/null >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect_not(marked(&w, "deny", "loop") || marked(&w, "deny", "deep"),
		      "bash outside ran the plant\n%s", diag);
	free(diag);
	free(script);
	script = plant(&w, "ctl", "", home_named_plant);
	r = sh_outside(&w, script);
	expect_all_landed((const char *const[]){"loop", "deep", NULL}, &r, "outside");
	run_free(&r);
	r = outside(&w, "bash -i -c true </dev/null >/dev/null 2>&1; true");
	run_free(&r);
	cr_assert(marked(&w, "ctl", "loop") && marked(&w, "ctl", "deep"),
		  "control: bash outside did not run the plant");
	free(script);
	free(opts);
	world_free(&w);
}

/* What zsh sources as it starts, kept under names cordon finds on disk:
 * compinit's dumps (~/.zcompdump, and ~/.zcompdump-HOST-VERSION as
 * oh-my-zsh names it), powerlevel10k's instant prompt
 * (~/.cache/p10k-instant-prompt-USER.zsh, sourced first thing by the
 * ~/.zshrc p10k writes) and ~/.p10k.zsh. A real interactive zsh outside
 * judges: its ~/.zshrc sources each as those programs do. */
static const char zsh_rc[] = "if [[ -r ~/.cache/p10k-instant-prompt-${(%):-%n}.zsh ]]; then\n"
			     "  source ~/.cache/p10k-instant-prompt-${(%):-%n}.zsh\n"
			     "fi\n"
			     "[[ ! -f ~/.p10k.zsh ]] || source ~/.p10k.zsh\n"
			     "autoload -Uz compinit\n"
			     "compinit -C -d ~/.zcompdump-cordon-$ZSH_VERSION\n"
			     "compinit -C\n";

static const char zsh_plant[] =
	"cd ~ || exit 1\n"
	"echo \"touch $M-p10k\" >> .cache/p10k-instant-prompt-$N.zsh; echo p10k $?\n"
	"echo \"touch $M-p10kcfg\" >> .p10k.zsh; echo p10kcfg $?\n"
	"echo \"touch $M-dump\" >> .zcompdump; echo dump $?\n"
	"for f in .zcompdump-cordon-*; do echo \"touch $M-dumphost\" >> $f; done; "
	"echo dumphost $?\n";

static const char *const zsh_steps[] = {"p10k", "dump", "dumphost", "p10kcfg", NULL};

static void zsh_outside(struct world *w)
{
	struct run_result r = sh_outside(w, "zsh -ic exit </dev/null >/dev/null 2>&1");
	run_free(&r);
}

/* GNU stow's layouts inside ~/.config, with the dotfiles repository as
 * the project: a file linked one by one (~/.config/fish/config.fish, as
 * stow lays it where fish made the directory) and a directory linked
 * whole (~/.config/direnv): neither the file nor anything in the
 * directory is written inside (round 10: fish and direnv outside ran
 * both). Judged on disk; control: the rest of the project writes. */
BOTH_USERS(guards, links_inside_config_keep_what_they_lead_to, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gstow", "");
	char *fish = write_file(w.proj, "fish/.config/fish/config.fish", "# fish\n");
	free(write_file(w.proj, "direnv/direnvrc", "# direnvrc\n"));
	char *cfg = at(w.home, ".config/fish");
	free(write_file(cfg, "fish_variables", "# vars\n"));
	char *flink = at(cfg, "config.fish"), *dlink = at(w.home, ".config/direnv");
	char *dtarget = at(w.proj, "direnv");
	cr_assert_eq(symlink(fish, flink), 0);
	cr_assert_eq(symlink(dtarget, dlink), 0);
	world_give(&w);
	if (who->user) {
		cr_assert_eq(lchown(flink, w.uid, w.gid), 0);
		cr_assert_eq(lchown(dlink, w.uid, w.gid), 0);
	}
	struct run_result r =
		sh_in(&w, w.popt, "%s",
		      "echo planted >> fish/.config/fish/config.fish; "
		      "mkdir -p direnv/lib && echo planted > direnv/lib/x.sh; "
		      "echo planted >> direnv/direnvrc; echo x > other.txt; echo done");
	cr_expect(strstr(r.out, "done"), "%s%s", r.out, r.err);
	char *now = read_file(fish);
	cr_expect_str_eq(now, "# fish\n", "config.fish was written through its link: %s", r.err);
	free(now);
	now = content(w.proj, "direnv/direnvrc");
	cr_expect_str_eq(now, "# direnvrc\n", "direnvrc was written: %s", r.err);
	free(now);
	cr_expect_not(present(w.proj, "direnv/lib/x.sh"), "a file was made in direnv's tree: %s",
		      r.err);
	cr_expect(present(w.proj, "other.txt"), "control: the project did not write: %s", r.err);
	run_free(&r);
	free(dtarget);
	free(dlink);
	free(flink);
	free(cfg);
	free(fish);
	world_free(&w);
}

/* A dotfiles repository as the project, its files named by path: a
 * compiled .zwc planted beside a file that a file with no "zsh" in its
 * name sources (common.sh, sourced by ~/.bashrc and ~/.zshrc), and an ssh
 * Include written through ~/.ssh/.. (beneath ~/.ssh only as written):
 * neither runs outside afterwards (round 10: zsh ran the .zwc, ssh the
 * Include's Match exec). Control: the same plants outside run. */
static const char shared_plant[] =
	"mkdir -p $D/.c && printf 'touch %s\\n' \"$M-zwc\" > $D/.c/aliases.sh && "
	"zsh -fc \"zcompile $D/.c/aliases.sh\" && "
	"mv $D/.c/aliases.sh.zwc $D/shell/aliases.sh.zwc; echo zwc $?; rm -rf $D/.c\n"
	"printf 'Match exec \"touch %s\"\\n' \"$M-include\" >> $D/ssh/extra; echo include $?\n";

static void shared_outside(struct world *w)
{
	struct run_result r =
		sh_outside(w, "zsh -ic exit </dev/null >/dev/null 2>&1; "
			      "ssh -F \"$HOME/.ssh/config\" -G example.org >/dev/null 2>&1; true");
	run_free(&r);
}

BOTH_USERS(guards, shared_shell_files_and_dotdot_includes_are_kept, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gshared", "");
	cr_assert(file_exists("/usr/bin/zsh"), "zsh is not installed (scripts/setup installs it)");
	char *dots = at(w.home, "dotfiles");
	free(write_file(dots, "shell/aliases.sh", "alias ll='ls -l'\n"));
	free(write_file(dots, "shell/common.sh", "source ~/dotfiles/shell/aliases.sh\n"));
	free(write_file(dots, "ssh/extra", "# extra\n"));
	free(write_file(w.home, ".bashrc", "source ~/dotfiles/shell/common.sh\n"));
	free(write_file(w.home, ".zshrc", "source ~/dotfiles/shell/common.sh\n"));
	char *include = fmt("Include %s/.ssh/../dotfiles/ssh/extra\n", w.home);
	free(write_file(w.home, ".ssh/config", include));
	free(include);
	struct run_result r = sh_outside(&w, "touch -d '1 hour ago' ~/dotfiles/shell/*");
	run_free(&r);
	world_give(&w);
	char *opts = fmt("-p %s", dots);
	char *vars = fmt("D=%s", dots);
	char *script = plant(&w, "deny", vars, shared_plant);
	r = sh_in(&w, opts, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "zwc ") && strstr(r.out, "include "), "the plant did not run\n%s",
		  diag);
	run_free(&r);
	shared_outside(&w);
	cr_expect_not(marked(&w, "deny", "zwc"), "zsh outside ran the .zwc\n%s", diag);
	cr_expect_not(marked(&w, "deny", "include"), "ssh outside ran the Include\n%s", diag);
	free(diag);
	free(script);
	/* Control. */
	r = sh_outside(&w, "rm -f ~/dotfiles/shell/*.zwc*");
	run_free(&r);
	script = plant(&w, "ctl", vars, shared_plant);
	r = sh_outside(&w, script);
	expect_all_landed((const char *const[]){"zwc", "include", NULL}, &r, "outside");
	run_free(&r);
	shared_outside(&w);
	cr_expect(marked(&w, "ctl", "zwc") && marked(&w, "ctl", "include"),
		  "control: zsh or ssh outside did not run the plant");
	free(script);
	free(vars);
	free(opts);
	free(dots);
	world_free(&w);
}
/* The same .zwc planted while the session runs: a zsh started outside
 * meanwhile (a new terminal tab) does not run it, as an empty directory
 * stands in for the missing name (round 10 ran it before the sweep moved
 * it aside). Control: the plant made outside runs. */
static const char zwc_now_plant[] =
	"mkdir -p .c && printf 'touch %s\\n' \"$M-zwcnow\" > .c/aliases.zsh && "
	"zsh -fc 'zcompile .c/aliases.zsh' && mv -f .c/aliases.zsh.zwc aliases.zsh.zwc; "
	"echo zwc $?; rm -rf .c\n";

BOTH_USERS(guards, a_zwc_planted_while_the_session_runs_does_not_run, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gzwcnow", "");
	cr_assert(file_exists("/usr/bin/zsh"), "zsh is not installed (scripts/setup installs it)");
	free(write_file(w.proj, "aliases.zsh", "alias ll='ls -l'\n"));
	char *zshrc = fmt("source %s/aliases.zsh\n", w.proj);
	free(write_file(w.home, ".zshrc", zshrc));
	free(zshrc);
	struct run_result r = sh_outside(&w, "touch -d '1 hour ago' aliases.zsh");
	run_free(&r);
	world_give(&w);
	char *script = plant(&w, "deny", "", zwc_now_plant);
	char *body = fmt("%s" WAIT_GO, script);
	r = in_while_outside(&w, body, "zsh -ic exit </dev/null >/dev/null 2>&1");
	cr_assert(strstr(r.out, "zwc "), "the plant did not run: %s%s", r.out, r.err);
	cr_expect_not(marked(&w, "deny", "zwcnow"), "zsh outside ran the .zwc meanwhile: %s%s",
		      r.out, r.err);
	run_free(&r);
	free(body);
	free(script);
	/* Control. */
	r = sh_outside(&w, "rm -rf aliases.zsh.zwc*");
	run_free(&r);
	script = plant(&w, "ctl", "", zwc_now_plant);
	r = sh_outside(&w, script);
	expect_all_landed((const char *const[]){"zwc", NULL}, &r, "outside");
	run_free(&r);
	r = sh_outside(&w, "zsh -ic exit </dev/null >/dev/null 2>&1");
	run_free(&r);
	cr_expect(marked(&w, "ctl", "zwcnow"), "control: zsh outside did not run the plant");
	free(script);
	world_free(&w);
}

/* --project ~: none is written inside, and the next zsh outside runs
 * nothing; an instant prompt missing as the session starts and made
 * inside is moved aside as it ends. Control: each named by a write rule,
 * the plant lands and zsh outside runs it. */
BOTH_USERS(guards, home_writable_keeps_what_zsh_sources_at_start, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "homezsh", "");
	cr_assert(file_exists("/usr/bin/zsh"), "zsh is not installed (scripts/setup installs it)");
	const char *name = who->user ? "cordon-test" : "root";
	char *prompt = fmt(".cache/p10k-instant-prompt-%s.zsh", name);
	free(write_file(w.home, ".zshrc", zsh_rc));
	free(write_file(w.home, prompt, "# instant prompt\n"));
	free(write_file(w.home, ".p10k.zsh", "# p10k\n"));
	world_give(&w);
	zsh_outside(&w); /* makes the dumps, as a first zsh start does */
	cr_assert(present(w.home, ".zcompdump"), "control: zsh made no ~/.zcompdump");
	char *dump = content(w.home, ".zcompdump");
	char *opts = fmt("-p %s", w.home);
	char *vars = fmt("N=%s", name);
	char *script = plant(&w, "deny", vars, zsh_plant);
	struct run_result r = sh_in(&w, opts, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert(strstr(r.out, "p10k ") && strstr(r.out, "dumphost "), "the plant did not run\n%s",
		  diag);
	char *now = content(w.home, prompt);
	cr_expect_str_eq(now, "# instant prompt\n", "the instant prompt was written\n%s", diag);
	free(now);
	now = content(w.home, ".p10k.zsh");
	cr_expect_str_eq(now, "# p10k\n", "~/.p10k.zsh was written\n%s", diag);
	free(now);
	now = content(w.home, ".zcompdump");
	cr_expect_str_eq(now, dump, "~/.zcompdump was written\n%s", diag);
	free(now);
	run_free(&r);
	zsh_outside(&w);
	for (size_t i = 0; zsh_steps[i]; i++)
		cr_expect_not(marked(&w, "deny", zsh_steps[i]), "zsh outside ran the %s plant\n%s",
			      zsh_steps[i], diag);
	free(diag);
	free(script);

	/* Missing as the session starts (the user's name from $USER, as
	 * zsh's %n): made inside, moved aside as it ends. */
	char *path = at(w.home, prompt);
	cr_assert_eq(unlink(path), 0);
	char *user = fmt("USER=%s", name);
	world_setenv(&w, user);
	script =
		plant(&w, "made", vars,
		      "echo \"touch $M-p10k\" > ~/.cache/p10k-instant-prompt-$N.zsh; echo p10k $?");
	r = sh_in(&w, opts, "%s", script);
	diag = fmt("made inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "p10k 0"), "the session could not make it (cordon's stand-in?)\n%s",
		  diag);
	cr_expect_not(present(w.home, prompt), "the instant prompt made inside stayed\n%s", diag);
	cr_expect(strstr(r.err, "while it ran) made"), "it was not said\n%s", diag);
	run_free(&r);
	zsh_outside(&w);
	cr_expect_not(marked(&w, "made", "p10k"),
		      "zsh outside ran the instant prompt made inside\n%s", diag);
	free(diag);
	free(script);

	/* Control: each named by a write rule. */
	free(write_file(w.home, prompt, "# instant prompt\n"));
	world_give(&w);
	char *host = NULL;
	DIR *d = opendir(w.home);
	for (struct dirent *e; d && !host && (e = readdir(d));)
		if (strncmp(e->d_name, ".zcompdump-cordon-", 18) == 0)
			host = strdup(e->d_name);
	if (d)
		closedir(d);
	cr_assert_not_null(host, "control: zsh made no ~/.zcompdump-cordon-VERSION");
	char *extra = fmt(", \"additional_read_write_paths\": [\"~/%s\", \"~/.p10k.zsh\", "
			  "\"~/.zcompdump\", \"~/%s\"]",
			  prompt, host);
	set_config(&w, extra);
	script = plant(&w, "ctl", vars, zsh_plant);
	r = sh_in(&w, opts, "%s", script);
	expect_all_landed(zsh_steps, &r, "named by write rules");
	run_free(&r);
	zsh_outside(&w);
	for (size_t i = 0; zsh_steps[i]; i++)
		cr_assert(marked(&w, "ctl", zsh_steps[i]), "control: zsh did not run the %s plant",
			  zsh_steps[i]);
	free(extra);
	free(host);
	free(script);
	free(user);
	free(path);
	free(vars);
	free(opts);
	free(dump);
	free(prompt);
	world_free(&w);
}

/* HOME spelled with a leading double slash (//home/me: the same
 * directory on Linux) is the home: a session started in it runs, with no
 * project, and one with --project naming it runs with the home writable
 * and its dotfiles read-only, as with one slash. (Every such session was
 * refused, exit 125.) Control for the dotfile: outside, it is written. */
BOTH_USERS(guards, a_home_with_a_double_slash_is_the_home, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homeslash", "");
	free(write_file(w.home, ".bashrc", "orig\n"));
	free(write_file(w.home, "work/keep", "x"));
	world_give(&w);
	char *kv = fmt("HOME=/%s", w.home);
	world_setenv(&w, kv);
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
			"/bin/sh",  "-c",  "echo ran", NULL};
	struct run_result r = world_run(&w, argv, w.home);
	char *diag = fmt("in the home (%d): %s%s", r.status, r.out, r.err);
	cr_expect_eq(r.status, 0, "the session was refused\n%s", diag);
	cr_expect(strstr(r.out, "ran"), "the command did not run\n%s", diag);
	cr_expect(strstr(r.err, "is your home directory"), "the home was not taken for one\n%s",
		  diag);
	run_free(&r);
	free(diag);
	char *script = "echo evil >> ~/.bashrc; echo new > ~/work/new; echo ran";
	char *argv2[] = {CORDON_BIN, "run",     "--config", w.cfg,          "--project", kv + 5,
			 "--",       "/bin/sh", "-c",       (char *)script, NULL};
	r = world_run(&w, argv2, w.home);
	diag = fmt("--project ~ (%d): %s%s", r.status, r.out, r.err);
	cr_expect_eq(r.status, 0, "the session was refused\n%s", diag);
	cr_expect(present(w.home, "work/new"), "the home was not writable\n%s", diag);
	char *now = content(w.home, ".bashrc");
	cr_expect_str_eq(now, "orig\n", "~/.bashrc was written\n%s", diag);
	free(now);
	run_free(&r);
	free(diag);
	r = outside(&w, "%s", script);
	now = content(w.home, ".bashrc");
	cr_assert_str_eq(now, "orig\nevil\n", "control: outside, ~/.bashrc was not written");
	free(now);
	run_free(&r);
	free(kv);
	world_free(&w);
}

/* Dotfiles kept in a directory of their own and linked from the home
 * (~/.bashrc -> dotfiles/bashrc): a link directly in the closed home can
 * be removed but nothing can be made in its place, so the session runs
 * (it used to be refused), the file the link leads to stays read-only, and
 * no link to a planted file takes its place. Control: outside, the link is
 * replaced. */
static const char relink_plant[] = "cd ~ || exit 1\n"
				   "echo evil >> .bashrc; echo append $?\n"
				   "echo 'echo pwned' > work/evil\n"
				   "rm -f .bashrc && ln -s work/evil .bashrc; echo relink $?\n";

BOTH_USERS(guards, home_dotfile_links_are_kept, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "homelinks", "");
	char *home2 = at(w.dir, "home2");
	const char *homes[] = {w.home, home2};
	for (size_t i = 0; i < 2; i++) {
		free(write_file(homes[i], "dotfiles/bashrc", "orig\n"));
		free(write_file(homes[i], "work/keep", "x"));
		char *link = at(homes[i], ".bashrc");
		cr_assert_eq(symlink("dotfiles/bashrc", link), 0);
		free(link);
	}
	world_give(&w);
	char *opts = fmt("-p %s", w.home);
	struct run_result r = sh_in(&w, opts, "%s", relink_plant);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_assert_neq(r.status, 125, "the session was refused\n%s", diag);
	char *now = content(w.home, "dotfiles/bashrc");
	cr_expect_str_eq(now, "orig\n", "the dotfile was changed\n%s", diag);
	free(now);
	char target[256] = "";
	char *link = at(w.home, ".bashrc");
	ssize_t n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	cr_expect_null(strstr(target, "evil"), "~/.bashrc leads to a planted file\n%s", diag);
	free(link);
	run_free(&r);

	r = outside_with_home(&w, home2, relink_plant);
	link = at(home2, ".bashrc");
	n = readlink(link, target, sizeof(target) - 1);
	target[n > 0 ? n : 0] = '\0';
	cr_assert(strstr(target, "evil"), "control: outside, the link was not replaced: %s%s",
		  r.out, r.err);
	run_free(&r);
	free(link);
	free(diag);
	free(opts);
	free(home2);
	world_free(&w);
}

/* ---- cordon's own config ---- */

static const char config_plant[] =
	"echo '{}' > evil.json\n"
	"chmod 666 cordon.json; echo chmod $?\n"
	"echo '" DISABLE "' > cordon.json; echo write $?\n"
	"echo '" DISABLE "' > new.json && mv new.json cordon.json; "
	"echo replace $?\n"
	"ln -sf evil.json cordon.json; echo link $?\n"
	"rm -f cordon.json; echo rm $?\n"
	"mkdir -p xdg/cordon && echo '" DISABLE "' > xdg/cordon/config.json; echo xdg $?\n"
	"echo beside > beside.json; echo beside $?\n";

static const char *const config_steps[] = {"chmod", "write", "replace", "link",
					   "rm",    "xdg",   "beside",  NULL};

/* The session's config is the project's cordon.json (--config), and
 * $XDG_CONFIG_HOME is a directory in the project: the config cannot be
 * chmodded, written, replaced, linked over or removed, and no config
 * appears in $XDG_CONFIG_HOME/cordon (read-only as a whole, as ~/.config); a file beside it is written (the
 * project is writable). Control: the same script outside, in a copy of the
 * project, does all of it. */
BOTH_USERS(guards, own_config_in_the_project_stays, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "owncfg", "");
	char *xdg = at(w.proj, "xdg");
	cr_assert_eq(mkdir(xdg, 0755), 0);
	char *config = read_file(w.cfg);
	char *copy = at(w.dir, "copy");
	free(write_file(copy, "cordon.json", config));
	world_give(&w);
	char *kv;
	asprintf(&kv, "XDG_CONFIG_HOME=%s", xdg);
	world_setenv(&w, kv);
	struct stat before, after;
	cr_assert_eq(lstat(w.cfg, &before), 0);

	struct run_result r = sh_in(&w, NULL, "%s", config_plant);
	char *diag;
	asprintf(&diag, "inside (%d): %s%s", r.status, r.out, r.err);
	char *beside = content(w.proj, "beside.json");
	cr_assert_str_eq(beside, "beside\n", "control: the project is not writable\n%s", diag);
	free(beside);
	char *now = slurp(w.cfg);
	cr_expect_str_eq(now, config, "the session's config was changed\n%s", diag);
	free(now);
	cr_assert_eq(lstat(w.cfg, &after), 0, "the session's config was removed\n%s", diag);
	cr_expect_eq(after.st_ino, before.st_ino, "the session's config was replaced\n%s", diag);
	cr_expect_eq(after.st_mode, before.st_mode, "the session's config was chmodded\n%s", diag);
	cr_expect_not(present(xdg, "cordon/config.json"),
		      "a config was planted in $XDG_CONFIG_HOME/cordon\n%s", diag);
	/* (Said of the config file; $XDG_CONFIG_HOME is read-only as a whole,
	 * as ~/.config is: round 10.) */
	cr_expect(strstr(r.err, "/cordon.json stays read-only inside: it is cordon's own config"),
		  "the carve-out was not said\n%s", diag);
	run_free(&r);

	char *script;
	asprintf(&script, "cd '%s' || exit 1\n%s", copy, config_plant);
	r = sh_outside(&w, script);
	expect_all_landed(config_steps, &r, "outside");
	cr_assert_not(present(copy, "cordon.json"), "control: outside, the config stayed");
	run_free(&r);
	free(script);
	free(diag);
	free(config);
	free(copy);
	free(kv);
	free(xdg);
	world_free(&w);
}

/* What the tests of configs read by name share, made before the world is
 * given: the world's config's text, a copy of it beside the project
 * (OTHER, the config another launch reads), and the marker a command run
 * unsandboxed makes (ESCAPE makes it). */
struct config_case {
	char *config, *other, *marker, *escape;
};

static void config_case(struct world *w, struct config_case *c)
{
	c->config = read_file(w->cfg);
	c->other = at(w->dir, "other.json");
	free(write_file(w->dir, "other.json", c->config));
	c->marker = at(w->outside, "ran-unsandboxed");
	c->escape = fmt("touch %s", c->marker);
}

static void config_case_free(struct config_case *c)
{
	unlink(c->marker);
	free(c->config), free(c->other), free(c->marker), free(c->escape);
}

/* cordon's config in the project, named through one of the caller's
 * descriptors (--config /dev/fd/7, /proc/self/fd/7, CORDON_CONFIG=/dev/fd/7,
 * XDG_CONFIG_HOME=/dev/fd/9): read-only inside as when named by its path,
 * so the next launch named so stays sandboxed (round 40b F1: the session,
 * which has not that descriptor, found nothing at the name, cordon guarded
 * nothing, and the next session obeyed the "enabled": false written
 * inside). Controls: the write lands outside; the escape runs unsandboxed.
 * A name leading to no file is refused. */
BOTH_USERS(guards, a_config_named_through_a_descriptor_stays_read_only, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "fdcfg", "");
	struct config_case c;
	config_case(&w, &c);
	char *xdg = at(w.proj, "xdg"), *xdir = at(xdg, "cordon");
	char *xcfg = at(xdir, "config.json");
	cr_assert(mkdir(xdg, 0755) == 0 && mkdir(xdir, 0755) == 0);
	/* (Spelled so that only where a link leads says it: round 40e F1.) */
	char *link = at(w.dir, "fdlink"), *by_link = fmt(" --config %s/7", link);
	cr_assert_eq(symlink("/dev/fd", link), 0);
	world_give(&w);
	const char *bin = who->user ? w.user_cordon : CORDON_BIN;
	const struct {
		int fd;
		const char *env, *option;
	} ways[] = {{7, "", " --config /dev/fd/7"},
		    {7, "", " --config /proc/self/fd/7"},
		    {7, "", " --config /proc/self/root/dev/fd/7"},
		    {7, "", by_link},
		    {7, "CORDON_CONFIG=/dev/fd/7 ", ""},
		    {9, "XDG_CONFIG_HOME=/dev/fd/9 ", ""}};
	const int n = sizeof(ways) / sizeof(ways[0]);
	for (int k = 0; k < n; k++) {
		const char *file = k < n - 1 ? w.cfg : xcfg;
		free(write_file(k < n - 1 ? w.proj : xdir,
				k < n - 1 ? "cordon.json" : "config.json", c.config));
		if (who->user)
			cr_assert_eq(chown(file, w.uid, w.gid), 0);
		char *launch = fmt("exec %d<%s; %s%s run%s", ways[k].fd, k < n - 1 ? file : xdg,
				   ways[k].env, bin, ways[k].option);
		char *write =
			fmt("%s -- /bin/sh -c 'echo {\\\"enabled\\\": false} > %s'", launch, file);
		char *argv[] = {"/bin/sh", "-c", write, NULL};
		struct run_result r = world_run(&w, argv, w.proj);
		char *now = slurp(file);
		cr_expect_str_eq(now, c.config, "%d: the config was written inside: %s", k, r.err);
		free(now);
		run_free(&r);
		char *escape = fmt("%s -- /bin/sh -c '%s'", launch, c.escape);
		argv[2] = escape;
		r = world_run(&w, argv, w.proj);
		cr_expect_not(file_exists(c.marker), "%d: the next session ran unsandboxed: %s", k,
			      r.err);
		run_free(&r);
		free(escape), free(write), free(launch);
	}
	struct run_result r = sh_outside(&w, c.escape);
	cr_expect(file_exists(c.marker), "control: unsandboxed, the escape lands: %s", r.err);
	run_free(&r);
	char *closed = fmt("%s run --config /dev/fd/7 -- /bin/true", bin);
	char *argv[] = {"/bin/sh", "-c", closed, NULL};
	r = world_run(&w, argv, w.proj);
	cr_expect_eq(r.status, 125, "a config named by a closed descriptor: %d %s", r.status,
		     r.err);
	cr_expect(strstr(r.err, "names a descriptor"), "not said: %s", r.err);
	run_free(&r);
	free(closed), free(xcfg), free(xdir), free(xdg), free(link), free(by_link);
	config_case_free(&c);
	world_free(&w);
}

/* cordon's config named relative to the current directory (--config
 * cordon.json, CORDON_CONFIG=cordon.json) in a subdirectory of the project,
 * the project named above it (--project ..): the file read was the cwd's
 * and the one guarded the project's, so the session wrote {"enabled":
 * false} into the config a later launch reads (round 50c F1). It stays:
 * judged outside, its bytes. Controls: the config read is that file (only
 * it grants the directory the session writes beside); outside, the same
 * write lands. */
BOTH_USERS(guards, a_config_named_relative_to_the_cwd_stays_read_only, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "relcfg", "");
	char *sub = at(w.proj, "sub"), *extra = at(w.dir, "extra");
	char *json = fmt("{" WORLD_BASE_RW ", \"additional_read_write_paths\": [\"%s\"]}", extra);
	char *cfg = write_file(sub, "cordon.json", json);
	cr_assert_eq(mkdir(extra, 0755), 0);
	world_give(&w);
	char *body = fmt(
		"echo landed > %s/granted; echo '" DISABLE "' > cordon.json; echo wrote $?", extra);
	char *granted = at(extra, "granted");
	char *by_option[] = {CORDON_BIN, "run",     "--config", "cordon.json", "--project", "..",
			     "--",       "/bin/sh", "-c",       body,          NULL};
	char *by_env[] = {"/usr/bin/env",
			  "CORDON_CONFIG=cordon.json",
			  CORDON_BIN,
			  "run",
			  "--project",
			  "..",
			  "--",
			  "/bin/sh",
			  "-c",
			  body,
			  NULL};
	char *const *ways[] = {by_option, by_env};
	for (int k = 0; k < 2; k++) {
		struct run_result r = world_run(&w, ways[k], sub);
		char *diag = fmt("%s (%d): %s%s", k ? "CORDON_CONFIG" : "--config", r.status, r.out,
				 r.err);
		cr_expect(strstr(r.out, "wrote"), "the session did not run: %s", diag);
		char *now = slurp(cfg);
		cr_expect_str_eq(now, json, "the config read was written inside: %s", diag);
		cr_expect(file_exists(granted), "control: not the config read: %s", diag);
		free(now);
		unlink(granted);
		free(write_file(sub, "cordon.json", json));
		char *aside = fmt("%s.cordon-disarmed", cfg);
		unlink(aside);
		free(aside);
		if (who->user)
			cr_assert_eq(chown(cfg, w.uid, w.gid), 0);
		run_free(&r);
		free(diag);
	}
	struct run_result r = outside(&w, "cd sub && echo '" DISABLE "' > cordon.json");
	char *now = slurp(cfg);
	cr_expect_str_eq(now, DISABLE "\n", "control: outside, the write did not land");
	free(now);
	run_free(&r);
	free(granted), free(body), free(cfg), free(json), free(extra), free(sub);
	world_free(&w);
}

/* The same with a name that starts with ~ and that no shell expanded
 * (--config '~c.json', and '~/c.json' as zsh passes --config=~/c.json or
 * a quoted CORDON_CONFIG="~/c.json"): cordon expands no ~ where it reads
 * the config, so it read the cwd's, but the round 50c F1 fix left such
 * names as they were and guarded another file; the session wrote
 * {"enabled": false} into the one read (round 50e F3). It stays: judged
 * outside, its bytes. Controls: the config read is that file (only it
 * grants the directory the session writes beside; there is none in the
 * home); outside, the same write lands. */
BOTH_USERS(guards, a_config_named_with_a_tilde_stays_read_only, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "tildecfg", "");
	char *sub = at(w.proj, "sub"), *extra = at(w.dir, "extra");
	char *json = fmt("{" WORLD_BASE_RW ", \"additional_read_write_paths\": [\"%s\"]}", extra);
	static const char *const names[] = {"~c.json", "~/c.json"};
	char *cfgs[2];
	for (int i = 0; i < 2; i++)
		cfgs[i] = write_file(sub, names[i], json);
	cr_assert_eq(mkdir(extra, 0755), 0);
	world_give(&w);
	char *granted = at(extra, "granted");
	for (int i = 0; i < 2; i++) {
		char *body = fmt("echo landed > %s; echo '" DISABLE "' > '%s'; echo wrote $?",
				 granted, cfgs[i]);
		char *env = fmt("CORDON_CONFIG=%s", names[i]);
		char *by_option[] = {CORDON_BIN,  "run", "--config", (char *)names[i],
				     "--project", "..",  "--",       "/bin/sh",
				     "-c",        body,  NULL};
		char *by_env[] = {"/usr/bin/env", env,       CORDON_BIN, "run", "--project", "..",
				  "--",           "/bin/sh", "-c",       body,  NULL};
		char *const *ways[] = {by_option, by_env};
		for (int k = 0; k < 2; k++) {
			struct run_result r = world_run(&w, ways[k], sub);
			char *diag = fmt("%s%s (%d): %s%s", k ? "CORDON_CONFIG=" : "--config ",
					 names[i], r.status, r.out, r.err);
			cr_expect(strstr(r.out, "wrote"), "the session did not run: %s", diag);
			char *now = slurp(cfgs[i]);
			cr_expect_str_eq(now, json, "the config read was written inside: %s", diag);
			cr_expect(file_exists(granted), "control: not the config read: %s", diag);
			free(now);
			unlink(granted);
			free(write_file(sub, names[i], json));
			char *aside = fmt("%s.cordon-disarmed", cfgs[i]);
			unlink(aside);
			free(aside);
			if (who->user)
				cr_assert_eq(chown(cfgs[i], w.uid, w.gid), 0);
			run_free(&r);
			free(diag);
		}
		free(body), free(env);
	}
	for (int i = 0; i < 2; i++) {
		struct run_result r =
			outside(&w, "cd sub && echo '" DISABLE "' > './%s'", names[i]);
		char *now = slurp(cfgs[i]);
		cr_expect_str_eq(now, DISABLE "\n",
				 "control: outside, the write to %s did not land", names[i]);
		free(now);
		run_free(&r);
		free(cfgs[i]);
	}
	free(granted), free(json), free(extra), free(sub);
	world_free(&w);
}

/* A write rule named through one of the caller's descriptors
 * (--allow-write /dev/fd/9, a directory outside the project) applies as
 * explain says (round 40b F3: explained rwx, but the session's read-only
 * view, made from the name where that descriptor is closed, kept it
 * read-only, and nothing was said). */
BOTH_USERS(guards, a_write_rule_through_a_descriptor_applies, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "fdrule", "");
	char *other = at(w.dir, "other");
	cr_assert_eq(mkdir(other, 0755), 0);
	world_give(&w);
	const char *bin = who->user ? w.user_cordon : CORDON_BIN;
	char *script = fmt("exec 9<%s; %s explain --config %s --allow-write /dev/fd/9 %s/x; "
			   "%s run --config %s --allow-write /dev/fd/9 -- /bin/sh -c "
			   "'echo landed > %s/data'",
			   other, bin, w.cfg, other, bin, w.cfg, other);
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.out, "rwx"), "explain: %s", r.out);
	char *data = content(other, "data");
	cr_expect_str_eq(data, "landed\n", "the write rule was not applied: %s", r.err);
	free(data);
	run_free(&r);
	free(script);
	free(other);
	world_free(&w);
}

/* A config a later session reads by name (the project's cordon.json,
 * --config), written by a session started with another config (round
 * 37c F1: the next session read with it obeyed "enabled": false without
 * a word, and ran unsandboxed): moved aside as that session ends, and said;
 * the next launch with it finds none and refuses (125), and its command
 * never runs. Controls: the write landed; the next launch reading the
 * written config would have run unsandboxed (shown with a copy of it). */
BOTH_USERS(guards, a_config_a_later_session_reads_is_not_loosened, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "cfglater", "");
	struct config_case cc;
	config_case(&w, &cc);
	world_give(&w);
	char *other = cc.other, *marker = cc.marker, *escape = cc.escape;
	/* The session that reads it by name notes it. */
	struct run_result r = run_in(&w, NULL, (char *const[]){"/bin/true", NULL});
	cr_assert_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	char *write_off = fmt("printf '{\"enabled\": false}' > %s; echo wrote $?", w.cfg);
	char *argv[] = {CORDON_BIN, "run", "--config", other, "--",
			"/bin/sh",  "-c",  write_off,  NULL};
	r = world_run(&w, argv, w.proj);
	cr_assert(strstr(r.out, "wrote 0"), "control: the session did not write it: %s%s", r.out,
		  r.err);
	cr_expect(strstr(r.err, "a config file a later session reads by name"),
		  "not said as the session ended: %s", r.err);
	char *aside = fmt("%s.cordon-disarmed", w.cfg);
	cr_expect(file_exists(aside), "not moved aside: %s", r.err);
	run_free(&r);
	/* Control: what it wrote turns the sandbox off. */
	if (file_exists(aside)) {
		char *copy = at(w.dir, "written.json");
		char *was = read_file(aside);
		free(write_file(w.dir, "written.json", was));
		char *ctl[] = {CORDON_BIN, "run", "--config", copy, "--",
			       "/bin/sh",  "-c",  escape,     NULL};
		r = world_run(&w, ctl, w.proj);
		cr_assert(file_exists(marker), "control: the written config kept the sandbox: %s",
			  r.err);
		run_free(&r);
		unlink(marker);
		free(was), free(copy);
	}
	r = run_in(&w, NULL, (char *const[]){"/bin/sh", "-c", escape, NULL});
	cr_expect_eq(r.status, 125, "the next launch with it: %d %s", r.status, r.err);
	cr_expect_not(file_exists(marker), "the next session ran unsandboxed: %s", r.err);
	run_free(&r);

	/* Named through a link the session repoints, and in a directory it
	 * moves away and makes again (round 37e F1, F2). */
	static const char *const swaps[][2] = {
		{"true", "printf '{\"enabled\": false}' > evil.json && ln -sfn evil.json "
			 "linked.json && echo swapped"},
		{"mv confs confs.old", "mkdir confs && printf '{\"enabled\": false}' > "
				       "confs/real.json && echo swapped"},
		/* (A link to a file not there yet, which a later session, or
		 * /proc/self/cwd, fills: round 38f H2.) */
		{"true", "rm confs/real.json && ln -s ../later-off.json confs/real.json && "
			 "echo swapped"}};
	for (int k = 0; k < 3; k++) {
		struct run_result o = outside(&w,
					      "rm -rf confs confs.old evil.json linked.json* "
					      "later-off.json && "
					      "mkdir confs && cp %s confs/real.json && "
					      "ln -s confs/real.json linked.json",
					      other);
		run_free(&o);
		char *named = at(w.proj, k ? "confs/real.json" : "linked.json");
		char *first[] = {CORDON_BIN, "run", "--config", named, "--", "/bin/true", NULL};
		r = world_run(&w, first, w.proj);
		cr_assert_eq(r.status, 0, "case %d: %s", k, r.err);
		run_free(&r);
		char *before[] = {CORDON_BIN, "run", "--config",          other, "--",
				  "/bin/sh",  "-c",  (char *)swaps[k][0], NULL};
		r = world_run(&w, before, w.proj);
		run_free(&r);
		char *swap[] = {CORDON_BIN, "run", "--config",          other, "--",
				"/bin/sh",  "-c",  (char *)swaps[k][1], NULL};
		r = world_run(&w, swap, w.proj);
		cr_assert(strstr(r.out, "swapped"), "case %d: control: not swapped: %s%s", k, r.out,
			  r.err);
		cr_expect(strstr(r.err, "a config file a later session reads by name"),
			  "case %d: not said: %s", k, r.err);
		run_free(&r);
		if (k == 2)
			free(write_file(w.proj, "later-off.json", "{\"enabled\": false}"));
		char *next[] = {CORDON_BIN, "run", "--config", named, "--",
				"/bin/sh",  "-c",  escape,     NULL};
		r = world_run(&w, next, w.proj);
		cr_expect_eq(r.status, 125, "case %d: the next launch: %d %s", k, r.status, r.err);
		cr_expect_not(file_exists(marker), "case %d: the next session ran unsandboxed: %s",
			      k, r.err);
		run_free(&r);
		unlink(marker);
		free(named);
	}
	free(aside), free(write_off);
	config_case_free(&cc);
	world_free(&w);
}

/* As a_config_a_later_session_reads_is_not_loosened, but the launcher of
 * the session that wrote the config is killed (kill -9) before its end
 * (round 37e F3: what it held died with it, and the next launch with the
 * config obeyed "enabled": false): the next launch that reads any config
 * moves it aside first, and says so; the one with it finds none and
 * refuses (125), and its command never runs. The note of the killed
 * session's holds goes once judged. Twice: noted and judged by the
 * launcher, then by a shell started with LD_PRELOAD and CORDON_CONFIG
 * alone (a terminal profile). Controls: the write landed, and what it
 * wrote turns the sandbox off (a copy of it, read by name, once the note
 * is gone: any launch judges). */
/* Whether W's user's passwd home is a directory of theirs. */
static bool passwd_home_is_theirs(const struct world *w)
{
	struct passwd *pw = getpwuid(w->as_user ? w->uid : 0);
	struct stat st;
	return pw && pw->pw_dir && lstat(pw->pw_dir, &st) == 0 && S_ISDIR(st.st_mode) &&
	       st.st_uid == (w->as_user ? w->uid : 0);
}

BOTH_USERS(guards, a_config_changed_by_a_killed_session_is_judged_next, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "cfgkilled", "");
	/* An ordinary user with no home directory of theirs (the test user's
	 * passwd home is not there) keeps notes only where a session may have
	 * planted one: nothing is moved, and the launch that reads the config
	 * is refused (round 38f M1). */
	bool homeless = who->user && !passwd_home_is_theirs(&w);
	struct config_case cc;
	config_case(&w, &cc);
	char *copy = at(w.dir, "written.json");
	free(write_file(w.dir, "written.json", "{\"enabled\": false}"));
	world_give(&w);
	char *other = cc.other, *marker = cc.marker, *escape = cc.escape;
	char *ready = at(w.proj, "ready");
	char *pre = fmt("LD_PRELOAD=%s", CORDON_SHIM_SO);
	char *by_other = fmt("CORDON_CONFIG=%s", other);
	/* (The second a config of its own: noted by the shell alone.) */
	char *second = at(w.proj, "second.json");
	for (int standalone = 0; standalone < 2; standalone++) {
		const char *cfg = standalone ? second : w.cfg;
		char *aside = fmt("%s.cordon-disarmed", cfg);
		char *write_off =
			fmt("printf '{\"enabled\": false}' > %s && touch ready && sleep 60", cfg);
		struct run_result r = outside(&w, "rm -f %s && cp %s %s", ready, other, cfg);
		run_free(&r);
		char *by_env = fmt("CORDON_CONFIG=%s", cfg);
		char *first[] = {"/usr/bin/env", pre, by_env, "/bin/true", NULL};
		r = standalone ? world_run(&w, first, w.proj)
			       : run_in(&w, NULL, (char *const[]){"/bin/true", NULL});
		cr_assert_eq(r.status, 0, "%d: %s", standalone, r.err);
		run_free(&r);
		char *argv[] = {CORDON_BIN, "run", "--config", other, "--",
				"/bin/sh",  "-c",  write_off,  NULL};
		pid_t pid = world_spawn(&w, argv, w.proj);
		cr_assert(wait_exists(ready, 20000), "%d: the killed session's write did not land",
			  standalone);
		cr_assert_eq(kill(pid, SIGKILL), 0);
		cr_expect(wait_gone(pid, 10000), "%d: the launcher did not go", standalone);
		char *now = read_file(cfg);
		cr_assert(strstr(now, "false"), "%d: control: the config was not written: %s",
			  standalone, now);
		free(now);
		/* The next launch, with another config: judged before it reads
		 * one. */
		char *next[] = {CORDON_BIN, "run", "--config", other, "--", "/bin/true", NULL};
		char *next_pre[] = {"/usr/bin/env", pre, by_other, "/bin/true", NULL};
		r = world_run(&w, standalone ? next_pre : next, w.proj);
		if (homeless) {
			cr_expect_null(strstr(r.err, "launcher was killed"),
				       "%d: said by a launch that does not read it: %s", standalone,
				       r.err);
			cr_expect_not(file_exists(aside),
				      "%d: moved aside on a note a session "
				      "could have planted: %s",
				      standalone, r.err);
		} else {
			cr_expect(strstr(r.err, "a session whose launcher was killed before its "
						"end") &&
					  strstr(r.err,
						 "a config file a later session reads by name"),
				  "%d: not said by the next launch: %s", standalone, r.err);
			cr_expect(file_exists(aside), "%d: not moved aside: %s", standalone, r.err);
		}
		run_free(&r);
		char *with[] = {CORDON_BIN, "run", "--config", (char *)cfg, "--",
				"/bin/sh",  "-c",  escape,     NULL};
		char *with_pre[] = {"/usr/bin/env", pre, by_env, "/bin/sh", "-c", escape, NULL};
		r = world_run(&w, with, w.proj);
		cr_expect_eq(r.status, 125, "%d: the launch with it: %d %s", standalone, r.status,
			     r.err);
		cr_expect_not(file_exists(marker), "%d: the launch with it ran unsandboxed: %s",
			      standalone, r.err);
		cr_expect(!homeless || strstr(r.err, "cannot tell that note from one a session "
						     "planted"),
			  "%d: the refusal does not say why: %s", standalone, r.err);
		run_free(&r);
		if (homeless) { /* (so a preloaded shell with it) */
			r = world_run(&w, with_pre, w.proj);
			cr_expect_not(file_exists(marker),
				      "%d: a preloaded shell with it ran unsandboxed: %s",
				      standalone, r.err);
			cr_expect(strstr(r.err, "cannot tell that note"),
				  "%d: the preloaded shell does not say why: %s", standalone,
				  r.err);
			run_free(&r);
		}
		char *note = who->user ? fmt("%s/.local/state/cordon/sessions/configs.held-%d-*",
					     w.home, (int)pid)
				       : fmt("/var/lib/cordon/configs.held-%d-*", (int)pid);
		r = outside(&w, "for f in %s; do test -e \"$f\" && echo \"left $f\"; done; true",
			    note);
		if (homeless)
			cr_expect(strstr(r.out, "left"), "%d: the note went, unheeded: %s",
				  standalone, r.out);
		else
			cr_expect_null(strstr(r.out, "left"),
				       "%d: the killed session's note stayed: %s", standalone,
				       r.out);
		run_free(&r);
		r = outside(&w, "rm -f %s", note); /* (the user, having checked) */
		run_free(&r);
		unlink(marker);
		free(note), free(by_env), free(write_off), free(aside);
	}
	/* Control (once judged): what it wrote turns the sandbox off. */
	char *ctl[] = {CORDON_BIN, "run", "--config", copy, "--", "/bin/sh", "-c", escape, NULL};
	struct run_result r = world_run(&w, ctl, w.proj);
	cr_assert(file_exists(marker), "control: the written config kept the sandbox: %s", r.err);
	run_free(&r);
	unlink(marker);
	free(by_other), free(pre), free(second);
	free(ready), free(copy);
	config_case_free(&cc);
	world_free(&w);
}

/* A config first read by name while a session that may write it runs
 * (round 38c F6: that session held only the configs noted as it started,
 * rewrote this one, ended unsaid, and the next launch with it ran
 * unsandboxed): moved aside as that session ends; the next launch with
 * it refuses (125) and its command never runs. Control: the write
 * landed (the file moved aside holds it). */
BOTH_USERS(guards, a_config_first_read_while_a_session_runs_is_judged, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "cfglate", "");
	bool homeless = who->user && !passwd_home_is_theirs(&w);
	struct config_case cc;
	config_case(&w, &cc);
	free(write_file(w.proj, "old-off.json", "{\"enabled\": false}"));
	free(write_file(w.proj, "s4/late4.json", "{\"enabled\": false}"));
	world_give(&w);
	char *config = cc.config, *other = cc.other, *marker = cc.marker, *escape = cc.escape;
	/* Written; (round 38d M1) made a link to an older file; (M2) written
	 * by a session whose launcher is then killed; (38f H1) a link to a
	 * file made later; (39e H1) its directory swapped for one holding an
	 * older file. */
	static const char *const writes[] = {
		"printf '{\"enabled\": false}' > late0.json", "ln -sf old-off.json late1.json",
		"printf '{\"enabled\": false}' > late2.json && touch written && sleep 60",
		"ln -sf later-off.json late3.json", "mv d4 d4.old && mv s4 d4"};
	/* (old-off.json's change time a second before the sessions start:
	 * a config first read late is judged by the second.) */
	usleep(1100 * 1000);
	for (int k = 0; k < 5; k++) {
		/* (Its own name each time: one noted before is held.) */
		char *name = k == 4 ? strdup("d4/late4.json") : fmt("late%d.json", k),
		     *late = at(w.proj, name);
		free(write_file(w.proj, name, config));
		if (w.as_user)
			cr_assert_eq(chown(late, w.uid, w.gid), 0);
		char *d4 = at(w.proj, "d4");
		if (w.as_user && k == 4)
			cr_assert_eq(chown(d4, w.uid, w.gid), 0);
		free(d4);
		char *go = at(w.proj, "go");
		unlink(go);
		char *writer = fmt("while [ ! -e go ]; do sleep 0.05; done; %s", writes[k]);
		char *a[] = {CORDON_BIN, "run", "--config", other, "--",
			     "/bin/sh",  "-c",  writer,     NULL};
		pid_t pid = world_spawn(&w, a, w.proj);
		usleep(300000);
		char *b[] = {CORDON_BIN, "run", "--config", late, "--", "/bin/true", NULL};
		struct run_result r = world_run(&w, b, w.proj);
		cr_assert_eq(r.status, 0, "%d: the first launch with it: %s", k, r.err);
		run_free(&r);
		free(write_file(w.proj, "go", ""));
		char *written = at(w.proj, "written");
		/* (The third: its launcher killed once it wrote, round 38d M2.) */
		if (k == 2 && wait_exists(written, 20000))
			kill(pid, SIGKILL);
		free(written);
		int st;
		cr_assert_eq(waitpid(pid, &st, 0), pid);
		if (k == 2) { /* (the next launch, with another config, judges it) */
			char *next[] = {CORDON_BIN, "run",       "--config", other,
					"--",       "/bin/true", NULL};
			r = world_run(&w, next, w.proj);
			cr_expect(homeless || strstr(r.err, "a session whose launcher was killed"),
				  "2: not said: %s", r.err);
			run_free(&r);
		}
		char *aside = fmt("%s.cordon-disarmed", late);
		struct stat lst;
		/* (With no home of the user's, the killed launcher's note moves
		 * nothing: the launch with it is refused, round 38f M1.) */
		bool kept = homeless && k == 2;
		if (kept)
			aside = (free(aside), strdup(late));
		cr_expect(lstat(aside, &lst) == 0, "%d: not moved aside", k);
		/* (The fourth, a link to a file not there yet, round 38f H1: a
		 * later session fills it.) */
		if (k == 3)
			free(write_file(w.proj, "later-off.json", "{\"enabled\": false}"));
		char *was = lstat(aside, &lst) == 0 ? read_file(aside) : strdup("");
		cr_expect(strstr(was, "false"), "%d: control: the write did not land: %s", k, was);
		char *c[] = {CORDON_BIN, "run", "--config", late, "--",
			     "/bin/sh",  "-c",  escape,     NULL};
		r = world_run(&w, c, w.proj);
		cr_expect_eq(r.status, 125, "%d: the next launch with it: %d %s", k, r.status,
			     r.err);
		cr_expect_not(file_exists(marker),
			      "%d: the next launch with it ran unsandboxed: %s", k, r.err);
		cr_expect(!kept || strstr(r.err, "check the config, then remove the note"),
			  "%d: the refusal does not say why: %s", k, r.err);
		run_free(&r);
		if (kept) { /* (the user, having checked) */
			r = outside(&w, "rm -f %s/.local/state/cordon/sessions/configs.held-%d-*",
				    w.home, (int)pid);
			run_free(&r);
		}
		unlink(marker);
		unlink(aside);
		free(was), free(aside), free(writer), free(go), free(late), free(name);
	}
	config_case_free(&cc);
	world_free(&w);
}

/* What a session in a dotfiles repository that is not filled yet would
 * write where links from the home lead: a config directory, a config
 * file, a login file. */
static const char dangling_plant[] =
	"mkdir -p cfgdir && echo '" DISABLE "' > cfgdir/config.json; echo cfgdir $?\n"
	"echo '" DISABLE "' > cfg.json; echo cfgfile $?\n"
	"echo 'touch pwned' > profile; echo profile $?\n";

/* Cordon's config and a dotfile that are symbolic links to names that do
 * not exist yet, in the project: ~/.config/cordon leads to a directory,
 * which cordon makes and keeps read-only (no config appears in it, and the
 * next session is sandboxed); ~/.config/cordon/config.json and
 * ~/.bash_profile lead to files, and the session is refused (125) naming
 * the link and where it leads, and makes nothing. Controls: outside, the
 * same plant switches the next session off; without the links, the
 * session runs and makes the files. */
BOTH_USERS(guards, a_dangling_link_to_what_runs_later_is_kept, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "dangling", "");
	struct run_result r = outside(&w, "mkdir -p \"$HOME/.config\" && "
					  "ln -s \"$PWD/cfgdir\" \"$HOME/.config/cordon\"");
	run_free(&r);
	r = sh_in(&w, NULL, "%s", dangling_plant);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(present(w.proj, "cfgdir"), "the config directory was not made\n%s", diag);
	cr_expect_not(present(w.proj, "cfgdir/config.json"), "a config was planted\n%s", diag);
	run_free(&r);
	r = next_session(&w, w.home);
	cr_expect_null(strstr(r.out, SECRET), "the next session was not sandboxed\n%s", diag);
	run_free(&r);
	free(diag);

	r = outside(&w, "rm -f cfg.json profile \"$HOME/.config/cordon\" && "
			"mkdir \"$HOME/.config/cordon\" && "
			"ln -s \"$PWD/cfg.json\" \"$HOME/.config/cordon/config.json\"");
	run_free(&r);
	r = sh_in(&w, NULL, "%s", dangling_plant);
	diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect_eq(r.status, 125, "a config linked to a missing file did not refuse\n%s", diag);
	cr_expect(strstr(r.err, "config.json (cordon's config) is a symbolic link to") &&
			  strstr(r.err, "/cfg.json, which does not exist"),
		  "the refusal does not name the link and its target\n%s", diag);
	cr_expect_not(present(w.proj, "cfg.json"), "the linked config was made\n%s", diag);
	run_free(&r);
	free(diag);

	r = outside(&w, "rm -f profile \"$HOME/.config/cordon/config.json\" && "
			"ln -s \"$PWD/profile\" \"$HOME/.bash_profile\"");
	run_free(&r);
	r = sh_in(&w, NULL, "%s", dangling_plant);
	diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect_eq(r.status, 125, "a dotfile linked to a missing file did not refuse\n%s", diag);
	cr_expect(strstr(r.err, ".bash_profile (dotfiles) is a symbolic link to"),
		  "the refusal does not name the dotfile\n%s", diag);
	cr_expect_not(present(w.proj, "profile"), "the linked dotfile was made\n%s", diag);
	run_free(&r);
	free(diag);

	/* Controls. */
	r = outside(&w, "rm \"$HOME/.bash_profile\"");
	run_free(&r);
	r = sh_in(&w, NULL, "%s", dangling_plant);
	cr_assert(strstr(r.out, "cfgfile 0") && strstr(r.out, "profile 0") &&
			  present(w.proj, "cfg.json") && present(w.proj, "profile"),
		  "control: without the links, the session did not make the files: %s%s", r.out,
		  r.err);
	run_free(&r);
	r = outside(&w, "rm -rf \"$HOME/.config/cordon\" cfgdir && "
			"ln -s \"$PWD/cfgdir\" \"$HOME/.config/cordon\"");
	run_free(&r);
	r = outside(&w, "%s", dangling_plant);
	run_free(&r);
	r = next_session(&w, w.home);
	cr_assert(strstr(r.out, SECRET),
		  "control: the config planted outside did not switch the next session off: %s%s",
		  r.out, r.err);
	run_free(&r);
	world_free(&w);
}

/* ---- no mount namespace to be had ---- */

/* Where user namespaces are refused, the guards cannot be kept:
 * on_unsupported "refuse" (the default) starts nothing and says why; "warn"
 * runs and says what is missing. Stand-in for such a system: a user
 * namespace of the test's own whose max_user_namespaces leaves no room for
 * cordon's, with cordon run in it as uid 1000 without capabilities (an
 * ordinary user needing a namespace). Control: the same without the limit, where the guard holds. */
static struct run_result in_limited_userns(struct world *w, bool limited, const char *opts)
{
	/* Root in the outer namespace may set its limit; one namespace more
	 * (the inner one, where cordon runs as uid 1000 without capabilities)
	 * fits in it, cordon's own would not. */
	char *script;
	asprintf(&script,
		 "%s exec unshare -U --map-user=1000 --map-group=1000 setpriv --inh-caps=-all "
		 "--ambient-caps=-all --bounding-set=-all env CORDON_TEST_SOCKETS=\"$2/cordon\" "
		 "CORDON_TEST_TMPBASE=\"$2\" "
		 "\"$1\" run %s -- sh -c 'echo ran > ran; echo x >> .git/config'",
		 limited ? "echo 1 > /proc/sys/user/max_user_namespaces || exit 99;" : "", opts);
	/* (Its sessions' socket and temporary directories in a directory of
	 * its own: uid 1000 there is root or the test user outside, and the
	 * two runs would meet in /tmp/cordon-1000 and /tmp/cordon-tmp-1000,
	 * the first's left to the second: "Permission denied".) */
	char *run = at(w->dir, "run");
	if (mkdir(run, 0700) == 0 && w->as_user)
		cr_assert_eq(chown(run, w->uid, w->gid), 0);
	char *argv[] = {"/usr/bin/unshare", "-Ur", "/bin/sh", "-c", script, "sh",
			CORDON_BIN,         run,   NULL};
	struct run_result r = world_run(w, argv, w->proj);
	free(script);
	free(run);
	return r;
}

BOTH_USERS(guards, no_user_namespace_refuses_or_warns, .timeout = 60)
{
	/* (What its sessions, uid 1000 in the namespace, make in /tmp for
	 * that uid, root's outside: removed after where it was not there, or
	 * a real uid 1000 would find them root's.) */
	static const char *const made_1000[] = {"/tmp/tsx-1000", "/tmp/v8-compile-cache-1000",
						"/tmp/jest_rs", "/tmp/tmux-1000"};
	bool had_1000[sizeof(made_1000) / sizeof(*made_1000)];
	for (size_t i = 0; i < sizeof(made_1000) / sizeof(*made_1000); i++) {
		struct stat st;
		had_1000[i] = lstat(made_1000[i], &st) == 0;
	}
	struct world w;
	git_world(&w, who, "gnouserns");
	char *ran = at(w.proj, "ran");
	char *config = at(w.proj, ".git/config");
	char *before = read_file(config);

	struct run_result r = in_limited_userns(&w, false, "");
	cr_assert(file_exists(ran), "control: cordon did not run in the test's user namespace: %s",
		  r.err);
	char *now = read_file(config);
	cr_expect_str_eq(now, before, "control: the guard did not hold");
	free(now);
	run_free(&r);
	unlink(ran);

	r = in_limited_userns(&w, true, "");
	cr_assert_neq(r.status, 99, "could not limit user namespaces: %s", r.err);
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect(strstr(r.err, "need a mount namespace") != NULL, "%s", r.err);
	cr_expect_not(file_exists(ran), "the command ran without its guards");
	run_free(&r);

	char *warn = write_file(w.dir, "warn.json", "{\"on_unsupported\": \"warn\"}");
	if (w.as_user)
		cr_assert_eq(chown(warn, w.uid, w.gid), 0);
	char *opts;
	asprintf(&opts, "--config %s", warn);
	r = in_limited_userns(&w, true, opts);
	cr_expect(file_exists(ran), "warn: the command did not run: %s", r.err);
	cr_expect(strstr(r.err, "missing protected and hidden paths") != NULL, "%s", r.err);
	run_free(&r);
	for (size_t i = 0; i < sizeof(made_1000) / sizeof(*made_1000); i++)
		if (!had_1000[i])
			(void)rmdir(made_1000[i]);
	free(opts);
	free(warn);
	free(before);
	free(config);
	free(ran);
	world_free(&w);
}

/* Root without CAP_SETFCAP (and CAP_SYS_ADMIN) cannot map uid 0 into a user
 * namespace: that is known before one is entered, so "refuse" refuses and
 * "warn" runs the command as uid 0 (an entered namespace without a map
 * would have left it "nobody", 65534). Control: with its capabilities,
 * root's session keeps .git/config read-only. */
Test(guards, root_without_setfcap_refuses_or_warns_as_itself, .timeout = 60)
{
	struct who who = {false};
	struct world w;
	git_world(&w, &who, "gnosetfcap");
	char *id = at(w.proj, "id");
	char *warn = write_file(w.dir, "warn.json", "{\"on_unsupported\": \"warn\"}");
	for (int warned = 0; warned <= 1; warned++) {
		char *script;
		cr_assert(
			asprintf(
				&script,
				"exec /usr/sbin/capsh --drop=cap_setfcap,cap_sys_admin -- -c '%s run "
				"%s%s -- /bin/sh -c \"id -u > id\"'",
				CORDON_BIN, warned ? "--config " : "", warned ? warn : "") > 0);
		char *argv[] = {"/bin/sh", "-c", script, NULL};
		struct run_result r = world_run(&w, argv, w.proj);
		if (warned) {
			cr_expect(contains(id, "0\n") && !contains(id, "65534"),
				  "warn: not run as uid 0: %s", r.err);
			cr_expect(strstr(r.err, "without CAP_SETFCAP") != NULL, "%s", r.err);
		} else {
			cr_expect_eq(r.status, 125, "%s", r.err);
			cr_expect(strstr(r.err, "without CAP_SETFCAP") != NULL, "%s", r.err);
			cr_expect_not(file_exists(id), "refuse: the command ran");
		}
		run_free(&r);
		free(script);
	}
	struct run_result r = sh_in(&w, NULL, "echo x >> .git/config; id -u > id");
	cr_expect(contains(id, "0\n"), "control: %s", r.err);
	char *config = at(w.proj, ".git/config");
	cr_expect_not(contains(config, "\nx\n"), "control: the guard did not hold");
	free(config);
	run_free(&r);
	free(warn);
	free(id);
	world_free(&w);
}

/* ---- names made inside ---- */

/* What no mount can guard while a session runs (a protected file that did
 * not exist and has no stand-in: here .mcp.json and .devcontainer.json
 * given without the trailing "/" that asks for one) is moved aside when
 * the session ends, each said once, naming the path; nothing in it is
 * lost. A session that made none says nothing. */
BOTH_USERS(guards, names_made_inside_are_said_at_the_end, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gsaid");
	set_config(&w, ", \"protected_paths\": [\".git/hooks\", \".git/config\", \".git/info\", "
		       "\".mcp.json\", \".devcontainer.json\"]");
	struct run_result r = sh_in(&w, NULL, "%s", "echo quiet > quiet.txt");
	cr_expect_null(strstr(r.err, "cannot guard"), "a session that made none: %s", r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "%s",
		  "echo '{\"dc\": 1}' > .devcontainer.json; echo '{\"mcp\": 1}' > .mcp.json; "
		  "ls -a");
	cr_assert(strstr(r.out, ".devcontainer.json") && strstr(r.out, ".mcp.json"),
		  "control: the session could not make them: %s%s", r.out, r.err);
	static const char *const names[] = {".devcontainer.json", ".mcp.json", NULL};
	for (size_t i = 0; names[i]; i++) {
		char *path = at(w.proj, names[i]), *aside = fmt("%s.cordon-disarmed", names[i]);
		char *want = fmt("while it ran) made %s, which cordon cannot guard while a session "
				 "runs and an agent, direnv or an editor outside would obey, so "
				 "cordon moved it to %s.cordon-disarmed",
				 path, path);
		cr_expect(strstr(r.err, want) != NULL, "%s", r.err);
		cr_expect_not(present(w.proj, names[i]), "%s was left in place", names[i]);
		char *kept = content(w.proj, aside);
		cr_expect(kept && strstr(kept, "1}"), "%s was lost", names[i]);
		free(kept);
		free(want);
		free(aside);
		free(path);
	}
	run_free(&r);
	world_free(&w);
}

/* The agents' settings that have no stand-in by default (Windsurf's
 * rules, opencode's and aider's config files), rustup's toolchain file and
 * mise's config: one that exists stays as it was inside; one made inside
 * is moved aside as the session ends, and said. Control: with
 * protected_paths [] both land and stay. */
static const char agents_files_plant[] =
	"echo evil >> opencode.json; echo opencode $?\n"
	"echo evil >> .windsurf/rules.md; echo windsurf $?\n"
	"echo 'model: evil' > .aider.conf.yml; echo aider $?\n"
	"echo '{}' > opencode.jsonc; echo opencodec $?\n"
	"printf '[toolchain]\\npath = \"/x\"\\n' >> rust-toolchain.toml; echo rust $?\n"
	"printf '[hooks]\\nenter = \"touch x\"\\n' > mise.toml; echo mise $?\n"
	"echo '{\"mcp\": {}}' > crush.json; echo crush $?\n"
	"echo /tmp/evil > .nvmrc; echo nvmrc $?\n";

BOTH_USERS(guards, agents_settings_without_a_stand_in_are_kept, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gagents");
	free(write_file(w.proj, "opencode.json", "{}\n"));
	free(write_file(w.proj, ".windsurf/rules.md", "rules\n"));
	free(write_file(w.proj, "rust-toolchain.toml", "[toolchain]\n"));
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "%s", agents_files_plant);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	char *oc = content(w.proj, "opencode.json"), *ws = content(w.proj, ".windsurf/rules.md");
	char *rt = content(w.proj, "rust-toolchain.toml");
	cr_expect_str_eq(oc, "{}\n", "opencode.json was written\n%s", diag);
	cr_expect_str_eq(ws, "rules\n", "Windsurf's rules were written\n%s", diag);
	cr_expect_str_eq(rt, "[toolchain]\n", "rust-toolchain.toml was written\n%s", diag);
	free(oc);
	free(ws);
	free(rt);
	static const char *const made[] = {".aider.conf.yml", "aider 0",   "opencode.jsonc",
					   "opencodec 0",     "mise.toml", "mise 0",
					   "crush.json",      "crush 0",   ".nvmrc",
					   "nvmrc 0",         NULL};
	for (size_t i = 0; made[i]; i += 2) {
		char *aside = fmt("%s.cordon-disarmed", made[i]);
		cr_expect(strstr(r.out, made[i + 1]), "control: the session could not make %s\n%s",
			  made[i], diag);
		cr_expect_not(present(w.proj, made[i]), "%s made inside was left\n%s", made[i],
			      diag);
		cr_expect(present(w.proj, aside), "%s was not moved aside\n%s", made[i], diag);
		cr_expect(strstr(r.err, aside), "%s was not said\n%s", made[i], diag);
		free(aside);
	}
	run_free(&r);
	free(diag);

	struct run_result c =
		outside(&w, "rm -f .aider.conf.yml.cordon-disarmed "
			    "opencode.jsonc.cordon-disarmed mise.toml.cordon-disarmed "
			    "crush.json.cordon-disarmed .nvmrc.cordon-disarmed");
	run_free(&c);
	set_config(&w, ", \"protected_paths\": []");
	r = sh_in(&w, NULL, "%s", agents_files_plant);
	expect_all_landed((const char *const[]){"opencode", "windsurf", "aider", "opencodec",
						"rust", "mise", "crush", "nvmrc", NULL},
			  &r, "protected_paths []");
	cr_assert(present(w.proj, ".aider.conf.yml") && present(w.proj, "opencode.jsonc") &&
			  present(w.proj, "mise.toml"),
		  "control: what the session made did not stay");
	run_free(&r);
	world_free(&w);
}

/* Round 38a F3: the project hooks of GitHub's Copilot CLI
 * (.github/hooks/NAME.json: a sessionStart hook's command runs as it
 * starts), Codex's config (.codex/config.toml: hooks, notify, mcp_servers)
 * and Cline's hooks (.clinerules/hooks/TaskStart, an executable), made
 * inside at the project's top and in a subdirectory, all stayed, unsaid.
 * At the top .codex is an empty stand-in, read-only; the two hooks
 * directories, which have none, are moved aside, as is each of the three
 * in pkg/, and said. What else .github and .clinerules hold (workflows,
 * Cline's rules) stays the project's, writable. Judged outside after the
 * session. Control: with protected_paths [] all six land and stay. */
static const char agents_hooks_plant[] =
	"echo evil >> .github/workflows/ci.yml; echo workflow $?\n"
	"echo evil >> .clinerules/rules.md; echo rules $?\n"
	"for d in top pkg; do p=.; [ $d = pkg ] && p=pkg\n"
	"mkdir -p $p/.github/hooks && echo '{\"version\":1,\"hooks\":{\"sessionStart\":[{\"type\":"
	"\"command\",\"bash\":\"touch x\"}]}}' > $p/.github/hooks/x.json; echo copilot-$d $?\n"
	"mkdir -p $p/.codex && printf 'notify = [\"touch\", \"x\"]\\n' > $p/.codex/config.toml; "
	"echo codex-$d $?\n"
	"mkdir -p $p/.clinerules/hooks && printf '#!/bin/sh\\ntouch x\\n' > "
	"$p/.clinerules/hooks/TaskStart && chmod +x $p/.clinerules/hooks/TaskStart; "
	"echo cline-$d $?\n"
	"mkdir -p $p/.kilocode && echo '{\"mcpServers\":{}}' > $p/.kilocode/mcp.json; "
	"echo kilo-$d $?\n"
	"echo '{\"lspServers\":{}}' > $p/.github/lsp.json; echo lsp-$d $?\n"
	"mkdir -p $p/.agents/skills/b && printf '#!/bin/sh\\ntouch x\\n' > "
	"$p/.agents/skills/b/run.sh; echo skills-$d $?\n"
	"done\n";

static const char *const agents_hooks_made[] = {".github/hooks/x.json",
						".codex/config.toml",
						".clinerules/hooks/TaskStart",
						"pkg/.github/hooks/x.json",
						"pkg/.codex/config.toml",
						"pkg/.clinerules/hooks/TaskStart",
						".kilocode/mcp.json",
						"pkg/.kilocode/mcp.json",
						".github/lsp.json",
						"pkg/.github/lsp.json",
						".agents/skills/b/run.sh",
						"pkg/.agents/skills/b/run.sh",
						NULL};

BOTH_USERS(guards, agents_project_hooks_are_kept_from_outside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gagenthooks");
	free(write_file(w.proj, ".github/workflows/ci.yml", "on: push\n"));
	free(write_file(w.proj, ".clinerules/rules.md", "rules\n"));
	free(write_file(w.proj, "pkg/README", "pkg\n"));
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "%s", agents_hooks_plant);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "workflow 0") && strstr(r.out, "rules 0"),
		  "the rest of .github or .clinerules was not writable\n%s", diag);
	cr_expect(strstr(r.out, "copilot-pkg 0") && strstr(r.out, "codex-pkg 0") &&
			  strstr(r.out, "cline-pkg 0"),
		  "control: the session could not make them in pkg/\n%s", diag);
	cr_expect_not(strstr(r.out, "codex-top 0"), "the top's .codex was writable\n%s", diag);
	for (size_t i = 0; agents_hooks_made[i]; i++)
		cr_expect_not(present(w.proj, agents_hooks_made[i]),
			      "%s made inside was left in place\n%s", agents_hooks_made[i], diag);
	cr_expect_not(present(w.proj, ".codex"), "the stand-in for .codex was left\n%s", diag);
	static const char *const aside[] = {"pkg/.github/hooks.cordon-disarmed/x.json",
					    "pkg/.codex.cordon-disarmed/config.toml",
					    "pkg/.clinerules/hooks.cordon-disarmed/TaskStart",
					    "pkg/.kilocode.cordon-disarmed/mcp.json",
					    "pkg/.github/lsp.json.cordon-disarmed",
					    "pkg/.agents/skills.cordon-disarmed/b/run.sh",
					    NULL};
	for (size_t i = 0; aside[i]; i++)
		cr_expect(present(w.proj, aside[i]), "%s: not moved aside\n%s", aside[i], diag);
	static const char *const said[] = {
		"/.github/hooks", "/pkg/.github/hooks", "/pkg/.codex", "/pkg/.clinerules/hooks",
		"/.kilocode",     "/pkg/.kilocode",     NULL};
	for (size_t i = 0; said[i]; i++) {
		char *path = fmt("%s%s", w.proj, said[i]);
		cr_expect(strstr(r.err, path), "%s was not said\n%s", path, diag);
		free(path);
	}
	run_free(&r);
	free(diag);

	struct run_result c =
		outside(&w, "rm -rf .github/hooks* .clinerules/hooks* pkg/.github pkg/.codex* "
			    "pkg/.clinerules .kilocode* pkg/.kilocode* .github/lsp.json* .agents "
			    "pkg/.agents");
	run_free(&c);
	set_config(&w, ", \"protected_paths\": []");
	r = sh_in(&w, NULL, "%s", agents_hooks_plant);
	expect_all_landed((const char *const[]){"copilot-top", "codex-top", "cline-top", "kilo-top",
						"lsp-top", "skills-top", "copilot-pkg", "codex-pkg",
						"cline-pkg", "kilo-pkg", "lsp-pkg", "skills-pkg",
						NULL},
			  &r, "protected_paths []");
	for (size_t i = 0; agents_hooks_made[i]; i++)
		cr_expect(present(w.proj, agents_hooks_made[i]),
			  "control: %s made inside did not stay: %s", agents_hooks_made[i], r.err);
	run_free(&r);
	world_free(&w);
}

/* The same files, missing as the session starts and made inside while it
 * runs: each is moved aside as it appears (the watch), so that a program
 * outside finds none there meanwhile, while the session goes on; then an
 * empty socket file stands in for it, pinned inside, so that the session
 * cannot make it again (the second opencode.json and an rm fail; git
 * status outside shows nothing); a link laid on
 * the way to one (.config -> d, for .config/mise.toml) is moved aside
 * too. Judged outside while the session runs; the stand-ins are gone as
 * it ends. Control: with protected_paths [] they stay there meanwhile (but
 * opencode.json, which the rm then removes). */
static const char made_while_running[] =
	"sleep 0.4\n"
	"printf '[toolchain]\\npath = \"/x\"\\n' > rust-toolchain.toml; echo rust $?\n"
	"echo '{\"a\": 1}' > opencode.json; echo oc $?\n"
	"sleep 0.3; echo '{\"a\": 2}' > opencode.json; echo oc2 $?\n"
	"mkdir d && ln -s d .config && echo '[env]' > d/mise.toml; echo link $?\n"
	"sleep 0.3; rm opencode.json; echo rm $?\n" WAIT_GO "echo still running\n";

/* Outside, once the names above hold no file and no link (at most 2 s):
 * what each is, into W's "left" (file, link, standin: a socket file, dir,
 * or absent), then what git status says of them. */
static char *left_outside(const struct world *w)
{
	return fmt("cd %s && i=0; while [ $i -lt 40 ]; do s=''; for n in rust-toolchain.toml "
		   "opencode.json .config; do if [ -S $n ]; then s=\"$s standin\"; "
		   "elif [ -L $n ]; then s=\"$s link\"; elif [ -f $n ]; "
		   "then s=\"$s file\"; elif [ -d $n ]; then s=\"$s dir\"; else s=\"$s absent\"; "
		   "fi; done; case \"$s\" in *file*|*link*) ;; *) break;; esac; sleep 0.05; "
		   "i=$((i+1)); done; echo \"left:$s\" > %s/left; git status --porcelain -- "
		   "rust-toolchain.toml opencode.json .config | tr '\\n' ' ' >> %s/left",
		   w->proj, w->dir, w->dir);
}

BOTH_USERS(guards, names_made_while_it_runs_are_moved_aside_at_once, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gmade");
	char *look = left_outside(&w), *left_path = path_join(w.dir, "left");
	struct run_result r = world_while_outside(&w, w.cfg, made_while_running, look);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	char *left = read_file(left_path);
	cr_expect(strstr(r.out, "rust 0") && strstr(r.out, "oc 0") && strstr(r.out, "link 0"),
		  "control: the session could not make the names\n%s", diag);
	cr_expect_str_eq(left, "left: standin standin standin\n",
			 "made inside, there outside while the session ran (or git status "
			 "listed the stand-ins)\n%s",
			 diag);
	cr_expect(!strstr(r.out, "oc2 0") && !strstr(r.out, "rm 0"),
		  "the session made a name again, or removed its stand-in\n%s", diag);
	cr_expect(strstr(r.out, "still running"), "the session did not go on\n%s", diag);
	char *rt = at(w.proj, "rust-toolchain.toml.cordon-disarmed");
	char *o1 = at(w.proj, "opencode.json.cordon-disarmed");
	char *cf = at(w.proj, ".config.cordon-disarmed");
	char *rts = slurp(rt), *o1s = slurp(o1);
	cr_expect(strstr(rts, "path = \"/x\""), "rust-toolchain.toml was lost: %s\n%s", rts, diag);
	cr_expect_str_eq(o1s, "{\"a\": 1}\n", "opencode.json was lost\n%s", diag);
	struct stat st;
	cr_expect(lstat(cf, &st) == 0 && S_ISLNK(st.st_mode), "the link was not moved aside\n%s",
		  diag);
	cr_expect(strstr(r.err, "rust-toolchain.toml, which") &&
			  strstr(r.err, "an empty socket file stands in for") &&
			  strstr(r.err, "on the way to ") && strstr(r.err, ".config/mise.toml"),
		  "not said\n%s", diag);
	static const char *const names[] = {"rust-toolchain.toml", "opencode.json", ".config"};
	for (size_t i = 0; i < 3; i++)
		cr_expect_not(present(w.proj, names[i]), "the stand-in for %s was left\n%s",
			      names[i], diag);
	free(rt), free(o1), free(cf), free(rts), free(o1s), free(left);
	free(diag);
	run_free(&r);

	/* Control: nothing moved while the session runs. */
	struct run_result c = outside(&w, "rm -rf *.cordon-disarmed* .config.cordon-disarmed d");
	run_free(&c);
	set_config(&w, ", \"protected_paths\": []");
	r = world_while_outside(&w, w.cfg, made_while_running, look);
	left = read_file(left_path);
	cr_expect_str_eq(left, "left: file absent link\n?? .config ?? rust-toolchain.toml ",
			 "control: the names did not stay while the session ran, or git status "
			 "did not list them\n%s%s",
			 r.out, r.err);
	free(left);
	run_free(&r);
	free(look), free(left_path);
	world_free(&w);
}

/* A directory on a made name's way that exists as the session starts
 * (.config, for .config/mise.toml), moved aside inside and replaced by
 * one holding the name: the watch sees the swap from the directory above
 * (a review's plant stayed until the session ended), moves the name aside
 * and keeps a stand-in there, whose mode the session cannot change (a
 * review chmod'ed one, and the next session took it for the user's file).
 * Judged outside while the session runs. Control: protected_paths []. */
BOTH_USERS(guards, a_directory_swapped_in_on_the_way_is_seen, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "swapway");
	free(write_file(w.proj, ".config/.keep", ""));
	world_give(&w);
	static const char body[] =
		"sleep 0.3; mkdir x && echo EVIL > x/mise.toml && mv .config y && mv x .config; "
		"echo swap $?; sleep 0.3; chmod 644 .config/mise.toml; echo chmod $?\n"
		"mkdir z && echo EVIL > z/mise.toml && mv .config y2 && mv z .config; echo swap2 "
		"$?\n" WAIT_GO;
	char *look =
		fmt("cd %s && i=0; while [ -f .config/mise.toml ] && [ $i -lt 40 ]; do "
		    "sleep 0.05; i=$((i+1)); done; if [ -S .config/mise.toml ]; then echo "
		    "\"standin $(stat -c %%a .config/mise.toml)\"; elif [ -f .config/mise.toml ]; "
		    "then echo file; else echo absent; fi > %s/seen; sleep 0.8; [ -d y2 ] && echo "
		    "swapped again >> %s/seen",
		    w.proj, w.dir, w.dir);
	char *seen_path = path_join(w.dir, "seen");
	struct run_result r = world_while_outside(&w, w.cfg, body, look);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	char *seen = read_file(seen_path);
	cr_expect(strstr(r.out, "swap 0"), "control: the session could not swap\n%s", diag);
	cr_expect_str_eq(seen, "standin 0\n",
			 "the name in the swapped-in directory stayed, its stand-in's mode "
			 "changed, or the directory holding it was swapped again\n%s",
			 diag);
	char *aside = content(w.proj, ".config/mise.toml.cordon-disarmed");
	cr_expect(aside && strstr(aside, "EVIL"), "what was planted was lost\n%s", diag);
	free(aside), free(seen), free(diag);
	run_free(&r);

	struct run_result c = outside(&w, "rm -rf .config y y2 z && mkdir .config");
	run_free(&c);
	set_config(&w, ", \"protected_paths\": []");
	r = world_while_outside(&w, w.cfg, body, look);
	seen = read_file(seen_path);
	cr_expect_str_eq(
		seen, "file\nswapped again\n",
		"control: the swapped-in name did not stay, or the second swap failed\n%s%s", r.out,
		r.err);
	free(seen);
	run_free(&r);
	free(look), free(seen_path);
	world_free(&w);
}

/* Two sessions in one project: the stand-in the first keeps for a name it
 * made is pinned by the second too, which cannot remove it and make the
 * name again while the first runs (two sessions taking turns could
 * otherwise keep it there). Judged outside while both run. Control: with
 * protected_paths [] the second session's file lands. */
BOTH_USERS(guards, another_session_cannot_replace_a_stand_in, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "standin2");
	static const char first[] = "sleep 0.3; echo 1 > mise.toml\n" WAIT_GO;
	/* Outside: a second session, while the first waits; then what is at
	 * mise.toml, into W's "seen". */
	char *second = fmt("cd %s && %s run --config %s --project %s -- sh -c 'sleep 0.3; rm -f "
			   "mise.toml; echo 2 > mise.toml' >/dev/null 2>&1; sleep 0.2; if [ -S "
			   "mise.toml ]; then echo standin; elif [ -f mise.toml ]; then cat "
			   "mise.toml; else echo absent; fi > %s/seen",
			   w.proj, CORDON_BIN, w.cfg, w.proj, w.dir);
	char *seen_path = path_join(w.dir, "seen");
	struct run_result r = world_while_outside(&w, w.cfg, first, second);
	char *seen = read_file(seen_path);
	cr_expect_str_eq(seen, "standin\n",
			 "a second session replaced the first's stand-in\n%d %s%s", r.status, r.out,
			 r.err);
	free(seen);
	run_free(&r);

	struct run_result c = outside(&w, "rm -f mise.toml*");
	run_free(&c);
	set_config(&w, ", \"protected_paths\": []");
	r = world_while_outside(&w, w.cfg, first, second);
	seen = read_file(seen_path);
	cr_expect_str_eq(seen, "2\n", "control: the second session's file did not land\n%s%s",
			 r.out, r.err);
	free(seen);
	run_free(&r);
	free(second), free(seen_path);
	world_free(&w);
}

/* A missing file the repository's config includes whose nearest existing
 * name is a file (include.path ../a/b/x, a tracked file a): no stand-in
 * can be made beneath a file, so it is a name left to the sweep, and git
 * outside obeyed what the session planted there while it ran. The watch
 * follows its way as the session replaces a with a directory, and moves
 * x aside as it appears: git run outside while the session still runs
 * runs nothing. Control: protected_paths [] (git outside runs it). */
BOTH_USERS(guards, an_include_beneath_a_file_is_moved_aside_while_it_runs, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "incfile");
	struct run_result c = outside(&w, "git config include.path ../a/b/x");
	run_free(&c);
	static const char body[] = "sleep 0.3; rm a && mkdir -p a/b && fsmon > a/b/x; "
				   "echo planted $?\n" WAIT_GO;
	char *git = fmt("cd %s && git status >/dev/null 2>&1; true", w.proj);
	char *deny = plant(&w, "deny", "", body);
	struct run_result r = world_while_outside(&w, w.cfg, deny, git);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "planted 0"), "control: the session could not plant\n%s", diag);
	cr_expect_not(marked(&w, "deny", "fsmonitor"),
		      "git outside ran the include planted while the session ran\n%s", diag);
	cr_expect(present(w.proj, "a/b/x.cordon-disarmed"), "not moved aside\n%s", diag);
	free(diag);
	run_free(&r);

	c = outside(&w, "rm -rf a && git checkout -q -- a");
	run_free(&c);
	set_config(&w, ", \"protected_paths\": []");
	char *ctl = plant(&w, "ctl", "", body);
	r = world_while_outside(&w, w.cfg, ctl, git);
	cr_expect(marked(&w, "ctl", "fsmonitor"),
		  "control: git outside did not run the include\n%s%s", r.out, r.err);
	run_free(&r);
	free(deny), free(ctl), free(git);
	world_free(&w);
}

/* A repository made inside a project that had none (git init) cannot be
 * guarded while the session runs. As the session ends, one whose config or
 * hooks would run a program when git is used there outside is moved aside
 * whole, to .git.cordon-disarmed, and the line says what it would have
 * run; a plain git init is kept, and said to run nothing. */
BOTH_USERS(guards, a_repository_made_inside_is_said_with_what_it_runs, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "grepo", "");
	free(write_file(w.home, ".gitconfig", "[user]\n\tname = t\n\temail = t@example.com\n"));
	world_give(&w);
	char *dotgit = at(w.proj, ".git");
	struct run_result r = sh_in(&w, NULL, "%s", "git init -q");
	cr_assert(file_exists(dotgit), "control: git init failed inside: %s", r.err);
	cr_expect(strstr(r.err, "it has no hooks, and its config sets only keys cordon knows to "
				"run nothing"),
		  "a plain git init: %s", r.err);
	run_free(&r);
	r = sh_outside(&w, "rm -rf .git");
	run_free(&r);
	r = sh_in(&w, NULL, "%s",
		  "git init -q && git config core.fsmonitor 'touch x' && "
		  "printf '[filter \"a\"]\n\tclean = x\n' >> .git/config && "
		  "echo x > .git/hooks/pre-commit");
	char *want = fmt("where git outside would run programs (core.fsmonitor, filter.*.clean, "
			 "hooks (pre-commit)), so cordon moved it to %s.cordon-disarmed",
			 dotgit);
	cr_expect(strstr(r.err, want), "what the planted repository runs was not said: %s", r.err);
	cr_expect_not(present(w.proj, ".git"), "the planted repository was left in place");
	char *kept = content(w.proj, ".git.cordon-disarmed/config");
	cr_expect(kept && strstr(kept, "fsmonitor"), "what was moved aside was lost");
	free(kept);
	free(want);
	run_free(&r);
	/* What git reads that a naive reader would not: a byte order mark, a
	 * key on the section's line, a pager. */
	r = sh_outside(&w, "rm -rf .git .git.cordon-disarmed");
	run_free(&r);
	r = sh_in(
		&w, NULL, "%s",
		"git init -q && printf '\\357\\273\\277[core] fsmonitor = x\\n[pager]\\n\\tlog = x\\n' "
		"> .git/config");
	cr_expect(strstr(r.err, "would run programs (core.fsmonitor, pager.log)"),
		  "a plant in git's own syntax was not seen: %s", r.err);
	run_free(&r);
	/* A config that is a FIFO (or a device) is not read: nothing hangs. */
	r = sh_outside(&w, "rm -rf .git .git.cordon-disarmed");
	run_free(&r);
	r = sh_in(&w, NULL, "%s", "git init -q && rm .git/config && mkfifo .git/config");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "this session made the repository"), "%s", r.err);
	run_free(&r);
	free(dotgit);
	world_free(&w);
}

/* A second name a session gives to a file of a repository it makes (git
 * init, then ln .git/config notes.txt) is not covered by the guard the
 * next session puts on .git/config: that session appends a
 * core.fsmonitor to notes.txt, and git status outside runs it (round 37a
 * F4). The repository is moved aside as the first session ends, its
 * config having two names; and the same append, through a second name
 * the user gave the config of their own repository, has that config moved
 * aside as the appending session ends. Judged from outside, by git
 * status. Control: the same plant made outside runs. */
BOTH_USERS(guards, a_second_name_for_a_repository_s_config_runs_nothing, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "glinked", "");
	free(write_file(w.home, ".gitconfig", "[user]\n\tname = t\n\temail = t@example.com\n"));
	world_give(&w);
	static const char append[] = "fsmon >> notes.txt; echo append-notes $?";
	struct run_result r =
		sh_in(&w, NULL, "%s", "git init -q && ln .git/config notes.txt && echo made");
	cr_assert(strstr(r.out, "made"), "control: the first session's plant failed: %s%s", r.out,
		  r.err);
	cr_expect(strstr(r.err, "config with 2 names, which a later session could write"),
		  "the config's second name was not said: %s", r.err);
	char *diag = fmt("first session: %s", r.err);
	run_free(&r);
	let_time_pass();
	char *script = plant(&w, "deny", "", append);
	r = sh_in(&w, NULL, "%s", script);
	cr_assert(strstr(r.out, "append-notes 0"), "control: the append did not land: %s%s", r.out,
		  r.err);
	char *diag2 = fmt("%s\nsecond session: %s", diag, r.err);
	run_free(&r);
	r = sh_outside(&w, "git status >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect_not(marked(&w, "deny", "fsmonitor"),
		      "a core.fsmonitor written through a second name a session gave .git/config "
		      "ran outside\n%s",
		      diag2);
	free(diag), free(diag2);

	/* The user's own repository, its config with a second name. */
	r = outside(&w, "rm -rf .git .git.cordon-disarmed* notes.txt && git init -q && "
			"ln .git/config notes.txt");
	run_free(&r);
	let_time_pass();
	r = sh_in(&w, NULL, "%s", script);
	cr_assert(strstr(r.out, "append-notes 0"), "control: the append did not land: %s%s", r.out,
		  r.err);
	char *config = at(w.proj, ".git/config");
	char *want = fmt("it wrote %s, where git outside would run programs (core.fsmonitor), "
			 "through another name it has",
			 config);
	cr_expect(strstr(r.err, want),
		  "the config written through its second name was not said: %s", r.err);
	diag = fmt("own repository: %s", r.err);
	run_free(&r);
	r = sh_outside(&w, "git status >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect_not(marked(&w, "deny", "fsmonitor"),
		      "a core.fsmonitor written through a second name of the user's .git/config "
		      "ran outside\n%s",
		      diag);

	/* config.worktree too, which git reads with extensions.worktreeConfig
	 * (round 37d F6). */
	r = outside(&w, "rm -rf .git .git.cordon-disarmed* notes.txt wt.txt");
	run_free(&r);
	r = sh_in(&w, NULL, "%s",
		  "git init -q && git config extensions.worktreeConfig true && touch "
		  ".git/config.worktree && ln .git/config.worktree wt.txt && echo made");
	cr_assert(strstr(r.out, "made"), "control: the worktree config plant failed: %s%s", r.out,
		  r.err);
	cr_expect(strstr(r.err, "config.worktree with 2 names") && !present(w.proj, ".git"),
		  "a repository whose config.worktree has a second name was kept: %s", r.err);
	run_free(&r);

	/* Control: the same plant, outside. */
	r = outside(&w, "rm -rf .git .git.cordon-disarmed* notes.txt wt.txt && git init -q && "
			"ln .git/config notes.txt");
	run_free(&r);
	plant_outside(&w, append, (const char *const[]){"append-notes", NULL});
	r = sh_outside(&w, "git status >/dev/null 2>&1; true");
	run_free(&r);
	cr_assert(marked(&w, "ctl", "fsmonitor"),
		  "control: git status outside ran no fsmonitor written through notes.txt");
	free(script), free(diag), free(config), free(want);
	world_free(&w);
}

/* The same for a file inside a kept directory (round 37d F3): the user's
 * own pre-commit hook with a second name beside the project (tools/, as
 * some repositories keep theirs), and a .vscode task file with one.
 * Written through the other name inside, each ran at the next commit or
 * opening outside; each is moved aside as the session ends. Judged from
 * outside, by git commit. Control: the same write outside runs. */
BOTH_USERS(guards, a_second_name_for_a_file_in_a_kept_directory_runs_nothing, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "glinkdir", "");
	free(write_file(w.home, ".gitconfig", "[user]\n\tname = t\n\temail = t@example.com\n"));
	world_give(&w);
	static const char setup[] =
		"rm -rf .git .git.cordon-disarmed* tools .vscode* .claude* && git init -q && mkdir "
		"tools .vscode && printf '#!/bin/sh\\nexit 0\\n' > tools/pre-commit && chmod +x "
		"tools/pre-commit && ln tools/pre-commit .git/hooks/pre-commit && echo '{}' > "
		"tools/tasks.json && ln tools/tasks.json .vscode/tasks.json && mkdir -p "
		".claude/skills/s && echo ok > tools/run.sh && ln tools/run.sh "
		".claude/skills/s/run.sh && echo set";
	static const char write_twice[] =
		"hook pre-commit > tools/pre-commit; echo hook $?\n"
		"echo '{\"tasks\": \"planted\"}' > tools/tasks.json; echo tasks $?\n"
		"echo planted > tools/run.sh; echo skill $?\n";
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		struct run_result r = outside(&w, "%s", setup);
		cr_assert(strstr(r.out, "set"), "setup: %s%s", r.out, r.err);
		run_free(&r);
		let_time_pass();
		if (ctl) {
			plant_outside(&w, write_twice,
				      (const char *const[]){"hook", "tasks", NULL});
		} else {
			char *script = plant(&w, tags[ctl], "", write_twice);
			r = sh_in(&w, NULL, "%s", script);
			expect_all_landed((const char *const[]){"hook", "tasks", "skill", NULL}, &r,
					  tags[ctl]);
			/* (Three levels down: round 37e F5.) */
			char *skill_at = at(w.proj, ".claude/skills/s/run.sh");
			char *skill = read_file(skill_at);
			cr_expect(!skill || !strstr(skill, "planted"),
				  "the skill written through its second name stayed: %s", r.err);
			free(skill), free(skill_at);
			cr_expect(strstr(r.err, "/.vscode/tasks.json") &&
					  strstr(r.err, "a file with 2 names"),
				  "the task file written through its second name was not said: %s",
				  r.err);
			cr_expect(!present(w.proj, ".vscode/tasks.json") ||
					  !strstr(read_file(at(w.proj, ".vscode/tasks.json")),
						  "planted"),
				  "the planted task file stayed in .vscode");
			run_free(&r);
			free(script);
		}
		r = sh_outside(&w, "git commit -q --allow-empty -m x >/dev/null 2>&1; true");
		run_free(&r);
		cr_expect(marked(&w, tags[ctl], "pre-commit") == (ctl == 1), "%s",
			  ctl ? "control: git commit outside ran no hook written through tools/"
			      : "a hook written through its second name ran at git commit outside");
	}
	world_free(&w);
}

/* Repositories made inside, anywhere in the project: git init in a
 * directory, a .git file naming a git dir made elsewhere in the project,
 * the same for a git dir with hooks. None runs anything when git is used
 * there outside after the session; each is moved aside whole (nothing in
 * it is lost), and a clone that plants nothing is kept, and works outside.
 * Control: the same plants made outside run. */
static const char plant_repos[] =
	"git init -q sub/a && fsmon >> sub/a/.git/config; echo nested $?\n"
	"git init -q b && hook pre-commit > b/.git/hooks/pre-commit && "
	"chmod +x b/.git/hooks/pre-commit; echo hooked $?\n"
	"git init -q gd && mv gd/.git gdir && rmdir gd && fsmon >> gdir/config && mkdir -p c && "
	"echo 'gitdir: ../gdir' > c/.git && mkdir -p e && ln -s ../gdir e/.git; echo linked $?\n";

static const char *const repo_steps[] = {"nested", "hooked", "linked", NULL};

/* git status and a commit outside in each of the planted repositories. */
static void git_outside_in_repos(struct world *w, const char *tag)
{
	static const char *const dirs[] = {"sub/a", "b", "c", NULL};
	for (size_t i = 0; dirs[i]; i++) {
		char *dir = at(w->proj, dirs[i]);
		git_outside(w, dir, tag);
		free(dir);
	}
}

BOTH_USERS(guards, repositories_made_inside_run_nothing_outside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gmade");
	char *script = plant(&w, "deny", "", plant_repos);
	struct run_result r =
		sh_in(&w, NULL, "%s\ngit clone -q \"$PWD\" clone; echo cloned $?", script);
	free(script);
	expect_all_landed(repo_steps, &r, "inside");
	cr_expect(strstr(r.out, "cloned 0"), "git clone failed inside: %s%s", r.out, r.err);
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	git_outside_in_repos(&w, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "a planted fsmonitor ran outside: %s", diag);
	cr_expect_not(marked(&w, "deny", "pre-commit"), "a planted hook ran outside: %s", diag);
	for (const char *const *d = (const char *const[]){"sub/a", "b", "c", NULL}; *d; d++) {
		char *aside = fmt("%s/.git.cordon-disarmed", *d),
		     *line = fmt("%s/%s/.git", w.proj, *d);
		cr_expect(present(w.proj, aside), "%s was not moved aside whole: %s", *d, diag);
		cr_expect(strstr(diag, line), "%s was not said: %s", *d, diag);
		free(aside);
		free(line);
	}
	/* The git dir the .git file named is one itself: git used in it
	 * would take it for a bare repository. */
	cr_expect(present(w.proj, "gdir.cordon-disarmed/config"),
		  "a git dir made inside was not moved aside: %s", diag);
	cr_expect_null(strstr(diag, "could not look into"), "a link was walked into: %s", diag);
	/* The clone planted nothing: kept, and usable outside. */
	r = sh_outside(&w, "git -C clone log --oneline");
	cr_expect(r.status == 0 && strstr(r.out, "first"), "the clone was not kept: %s%s%s", r.out,
		  r.err, diag);
	run_free(&r);
	/* The control: planted outside, they run. */
	r = sh_outside(&w, "rm -rf sub b c e gdir gdir.cordon-disarmed clone");
	run_free(&r);
	plant_outside(&w, plant_repos, repo_steps);
	git_outside_in_repos(&w, "ctl");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the planted fsmonitor did not run");
	cr_expect(marked(&w, "ctl", "pre-commit"), "control: the planted hook did not run");
	free(diag);
	world_free(&w);
}

/* A repository inside the project that the guards do not reach (a nested
 * clone, not a submodule) is writable inside. One whose config or hooks
 * were changed while the session ran, and now run a program, is moved
 * aside as it ends; one the session left alone is kept as it is, its own
 * hooks with it, even when the session ran git in it. Control: the same
 * change made outside runs. */
BOTH_USERS(guards, a_nested_repository_changed_inside_is_disarmed, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gnested");
	char *script = plant(&w, "own", "",
			     "for d in vendor/lib vendor/mine; do git init -q $d && "
			     "git -C $d commit -q --allow-empty -m first; done && "
			     "hook pre-commit > vendor/mine/.git/hooks/pre-commit && "
			     "chmod +x vendor/mine/.git/hooks/pre-commit");
	struct run_result r = outside(&w, "%s", script);
	free(script);
	run_free(&r);
	/* A change is told from what was there before by its time. */
	let_time_pass();
	/* The project's own repository, guarded, changed outside just now: it
	 * is the user's, and stays where it is. */
	r = outside(&w, "git config core.pager cat");
	run_free(&r);
	script = plant(&w, "deny", "",
		       "fsmon >> vendor/lib/.git/config; echo tampered $?\n"
		       "git -C vendor/mine status >/dev/null; echo used $?\n");
	r = sh_in(&w, NULL, "%s", script);
	free(script);
	expect_all_landed((const char *const[]){"tampered", "used", NULL}, &r, "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	char *lib = at(w.proj, "vendor/lib"), *mine = at(w.proj, "vendor/mine");
	git_outside(&w, lib, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the planted fsmonitor ran outside: %s",
		      diag);
	cr_expect(present(w.proj, "vendor/lib/.git.cordon-disarmed/config"),
		  "the changed repository was not moved aside: %s", diag);
	cr_expect(strstr(diag, "it changed the repository"), "%s", diag);
	cr_expect(strstr(diag, "would run programs (core.fsmonitor)"), "%s", diag);
	cr_expect(present(w.proj, "vendor/mine/.git/hooks/pre-commit"),
		  "a repository left alone was moved: %s", diag);
	cr_expect(present(w.proj, ".git/config") && !present(w.proj, ".git.cordon-disarmed"),
		  "the guarded repository was moved: %s", diag);
	git_outside(&w, mine, "after");
	cr_expect(marked(&w, "own", "pre-commit"), "the user's own hook no longer runs: %s", diag);
	/* The control: the same change outside runs. */
	r = sh_outside(&w, "rm -rf vendor/lib/.git.cordon-disarmed && git init -q vendor/lib");
	run_free(&r);
	plant_outside(&w, "fsmon >> vendor/lib/.git/config", NULL);
	git_outside(&w, lib, "ctl");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the planted fsmonitor did not run");
	free(lib);
	free(mine);
	free(diag);
	world_free(&w);
}

/* A nested repository of the user's own that already runs something
 * (husky's core.hooksPath) keeps it when a git command inside rewrites
 * its config (branch tracking, as git push -u writes it): the settings it
 * had as the session started are not the session's. One whose setting
 * the session changed is moved aside, and so is one a killed session
 * planted in before this one started. Control: the same changes outside
 * run. */
BOTH_USERS(guards, a_nested_repository_keeps_the_settings_it_had, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "ghad");
	char *own = plant(&w, "own", "",
			  "for d in app lib old; do git init -q $d && "
			  "git -C $d commit -q --allow-empty -m first && "
			  "git -C $d config core.hooksPath .husky && mkdir $d/.husky && "
			  "hook pre-commit-$d > $d/.husky/pre-commit && "
			  "chmod +x $d/.husky/pre-commit; done");
	struct run_result r = outside(&w, "%s", own);
	free(own);
	run_free(&r);
	/* The first session leaves the record the next one reads. */
	let_time_pass();
	r = sh_in(&w, NULL, "true");
	run_free(&r);
	let_time_pass();
	char *diag = plant_landed(
		&w,
		"git -C app config branch.main.remote origin; echo track $?\n"
		"mkdir -p lib/evil && hook pre-commit-lib > lib/evil/pre-commit && "
		"chmod +x lib/evil/pre-commit && git -C lib config core.hooksPath evil; "
		"echo lib $?\n",
		(const char *const[]){"track", "lib", NULL});
	char *app = at(w.proj, "app"), *lib = at(w.proj, "lib"), *old = at(w.proj, "old");
	git_outside(&w, app, "after");
	git_outside(&w, lib, "after");
	cr_expect(present(w.proj, "app/.git/config") &&
			  !present(w.proj, "app/.git.cordon-disarmed"),
		  "the user's repository was moved aside: %s", diag);
	cr_expect(marked(&w, "own", "pre-commit-app"), "the user's own hook no longer runs: %s",
		  diag);
	cr_expect_not(marked(&w, "deny", "pre-commit-lib"), "the changed hooksPath ran: %s", diag);
	cr_expect(present(w.proj, "lib/.git.cordon-disarmed"), "lib was not moved aside: %s", diag);
	free(diag);
	/* A killed session adds an fsmonitor to old; the next one, started
	 * with that setting in place, only rewrites old's config. */
	let_time_pass();
	plant_then_kill(&w, "fsmon >> old/.git/config");
	let_time_pass();
	diag = plant_landed(&w, "git -C old config branch.main.remote origin; echo old $?\n",
			    (const char *const[]){"old", NULL});
	git_outside(&w, old, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the killed session's fsmonitor ran: %s",
		      diag);
	cr_expect(present(w.proj, "old/.git.cordon-disarmed"), "old was not moved aside: %s", diag);
	/* The control: the same change outside runs. */
	r = sh_outside(&w, "rm -rf lib/.git && mv lib/.git.cordon-disarmed lib/.git && "
			   "mv lib/.git/HEAD.cordon-disarmed lib/.git/HEAD");
	run_free(&r);
	plant_outside(&w,
		      "hook pre-commit-lib > lib/evil/pre-commit && git -C lib config "
		      "core.hooksPath evil",
		      NULL);
	git_outside(&w, lib, "ctl");
	cr_expect(marked(&w, "ctl", "pre-commit-lib"),
		  "control: the changed hooksPath did not run");
	free(app);
	free(lib);
	free(old);
	free(diag);
	world_free(&w);
}

/* An agent runs each command in a session of its own, one right after
 * the other: a repository the first one's sweep moved aside is not moved
 * again by the next one's (started in the same second, it would see the
 * plant as changed since its start), and what a later session changes
 * in it still is. */
BOTH_USERS(guards, a_repository_moved_aside_is_not_moved_again, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gagain");
	let_time_pass();
	bool same = false;
	char *diag = NULL, name[16] = "";
	for (int k = 0; k < 5 && !same; k++) {
		struct timespec t0, t1;
		do { /* just after a second begins */
			usleep(20 * 1000);
			clock_gettime(CLOCK_REALTIME, &t0);
		} while (t0.tv_nsec > 200 * 1000 * 1000);
		snprintf(name, sizeof(name), "r%d", k);
		char *script = plant(&w, "deny", "", "git init -q $1 && fsmon >> $1/.git/config");
		struct run_result r = sh_in(&w, NULL, "set -- %s\n%s", name, script);
		free(script);
		clock_gettime(CLOCK_REALTIME, &t1);
		struct run_result r2 = sh_in(&w, NULL, "true");
		same = t1.tv_sec == t0.tv_sec;
		free(diag);
		diag = fmt("%s%s -- then: %s%s", r.out, r.err, r2.out, r2.err);
		run_free(&r);
		run_free(&r2);
	}
	cr_assert(same, "no two sessions in the same second: %s", diag);
	char *first = fmt("%s/.git.cordon-disarmed", name);
	char *again = fmt("%s/.git.cordon-disarmed.cordon-disarmed", name);
	cr_expect(present(w.proj, first), "the plant was not moved aside: %s", diag);
	cr_expect_not(present(w.proj, again), "moved aside again: %s", diag);
	cr_expect_not(strstr(strstr(diag, "-- then:"), "cordon-disarmed"), "said again: %s", diag);
	/* What a later session changes in it is judged, though a name made
	 * in it after moves its change time on. */
	let_time_pass();
	free(diag);
	char *later = fmt("echo '[alias]' >> %s/config && sleep 0.1 && touch %s/x; echo later $?\n",
			  first, first);
	diag = plant_landed(&w, later, (const char *const[]){"later", NULL});
	free(later);
	cr_expect(present(w.proj, again), "a later change was not judged: %s", diag);
	free(first);
	free(again);
	free(diag);
	world_free(&w);
}

/* Two sessions at once: A moves a repository an earlier session hid
 * where the walk does not look (in a .git, with its old times) into
 * place; C starts after that and ends first, and its walk records the
 * repository as it found it. A's sweep must still take it for one moved
 * in: a record written after A started says nothing of what A did. */
BOTH_USERS(guards, another_sessions_record_hides_nothing, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gconc");
	let_time_pass();
	/* (In a nested repository's .git, which is on the project's own
	 * mount: moved out of the guarded .git, it would be copied.) */
	char *diag = plant_landed(&w,
				  "git init -q n && git init -q n/.git/stash/e && "
				  "fsmon >> n/.git/stash/e/.git/config; echo hid $?\n",
				  (const char *const[]){"hid", NULL});
	free(diag);
	let_time_pass();
	char *body = "mv n/.git/stash/e sub && touch moved && "
		     "while [ ! -e c-done ]; do sleep 0.1; done";
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", body, NULL};
	pid_t a = world_spawn(&w, argv, w.proj);
	char *moved = at(w.proj, "moved"), *sub = at(w.proj, "sub");
	cr_assert(wait_exists(moved, 20000), "A did not move the repository in");
	let_time_pass();
	struct run_result r = sh_in(&w, NULL, "true");
	run_free(&r);
	r = outside(&w, "touch c-done");
	run_free(&r);
	int st;
	cr_expect(waitpid(a, &st, 0) == a, "A did not end");
	git_outside(&w, sub, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the moved-in repository ran outside");
	/* (Or where the first session hid it: every .git is walked whole.) */
	cr_expect(present(w.proj, "sub/.git.cordon-disarmed") ||
			  present(w.proj, "n/.git/cordon-disarmed/stash!e!.git.cordon-disarmed"),
		  "sub was not moved aside");
	/* The control: the same repository moved in outside runs. */
	plant_outside(&w, "rm -rf sub && git init -q sub && fsmon >> sub/.git/config", NULL);
	git_outside(&w, sub, "ctl");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the repository did not run");
	free(moved);
	free(sub);
	world_free(&w);
}

/* A program outside that saves a guarded file anew (git config writes a
 * new file and renames it into place, as editors do) ends the mount that
 * kept it read-only in a session already running, until the launcher puts
 * it back (below). A plant the session writes meanwhile in the project's .git/config is moved aside as it ends
 * (the config alone: the guards keep the rest), though the user's own
 * core.hooksPath is left be; a harmless write is kept. Control: the same
 * plant outside runs. */
BOTH_USERS(guards, a_guard_an_outside_save_ended_is_judged, .timeout = 90)
{
#ifndef CORDON_TEST_HOOKS
	cr_skip_test("needs a CORDON_TEST_HOOKS build (scripts/build)");
#endif
	struct world w;
	git_world(&w, who, "glost");
	/* Without the watch that puts the guard back at once (a session can
	 * win that race): what the sweep does with what was written. */
	world_setenv(&w, "CORDON_TEST_NO_REGUARD=1");
	struct run_result r = outside(&w, "git config core.hooksPath .husky");
	run_free(&r);
	static const char *const bodies[] = {"echo '# harmless' >> .git/config",
					     "fsmon >> .git/config"};
	char *go = at(w.proj, "go"), *ready = at(w.proj, "ready"), *done = at(w.proj, "done");
	for (int k = 0; k < 2; k++) {
		let_time_pass();
		char *step = fmt("touch ready; while [ ! -e go ]; do sleep 0.05; done; %s; "
				 "echo $? > done",
				 bodies[k]);
		char *body = plant(&w, "deny", "", step);
		free(step);
		char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
				"/bin/sh",  "-c",  body,       NULL};
		pid_t pid = world_spawn(&w, argv, w.proj);
		cr_assert(wait_exists(ready, 20000), "the session did not start");
		r = outside(&w, "git config user.name outside-%d && touch go", k);
		run_free(&r);
		int st;
		cr_expect_eq(waitpid(pid, &st, 0), pid);
		cr_expect(contains(done, "0"), "the write inside failed (%d)", k);
		unlink(go), unlink(ready), unlink(done);
		free(body);
	}
	git_outside(&w, w.proj, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the plant ran outside");
	cr_expect(present(w.proj, ".git/config.cordon-disarmed"), "the config was not moved aside");
	cr_expect(present(w.proj, ".git/HEAD") && !present(w.proj, ".git.cordon-disarmed"),
		  "the whole repository was moved");
	char *kept = content(w.proj, ".git/config.cordon-disarmed");
	cr_expect(strstr(kept, "# harmless") && strstr(kept, "hooksPath = .husky"),
		  "the harmless write or the user's setting is gone: %s", kept);
	free(kept);
	/* The control: outside, the same plant runs. */
	r = sh_outside(&w, "mv .git/config.cordon-disarmed .git/config && "
			   "git config --unset-all core.fsmonitor; true");
	run_free(&r);
	plant_outside(&w, "fsmon >> .git/config", NULL);
	git_outside(&w, w.proj, "ctl");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the plant did not run");
	free(go), free(ready), free(done);
	world_free(&w);
}

/* The guards an outside save lifts are put back at once: a moment after
 * git config, an editor's save of cordon's config and a credential
 * helper's save outside (each a new file renamed over the old), the
 * session can write neither and read nothing; nor can it read a hidden
 * directory made outside after it started (gh auth login). What was saved
 * is said as the session ends. Control: outside, the same writes land and
 * the same reads see the secrets. */
BOTH_USERS(guards, a_guard_an_outside_save_lifted_is_put_back, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gback");
	free(write_file(w.proj, "mine.json", "{\"allow_network\": false}"));
	free(write_file(w.home, ".config/git/credentials", "https://u:OLD-" SECRET "@x\n"));
	world_give(&w);
	let_time_pass();
	/* Outside, meanwhile: the saves, once the session is ready. */
	char *saves =
		fmt("while [ ! -e ready ]; do sleep 0.05; done; "
		    "git config user.name saved && cp mine.json t && mv t mine.json && "
		    "printf 'https://u:NEW-%s@x\\n' > c.tmp && mv c.tmp %s/.config/git/credentials "
		    "&& mkdir %s/.config/gh && echo 'oauth_token: GH-%s' > %s/.config/gh/hosts.yml "
		    "&& touch go",
		    SECRET, w.home, w.home, SECRET, w.home);
	char *outside_argv[] = {"/bin/sh", "-c", saves, NULL};
	pid_t saver = world_spawn(&w, outside_argv, w.proj);
	static const char body[] =
		"touch ready; while [ ! -e go ]; do sleep 0.05; done; sleep 1\n"
		"printf '[core]\\n\\tfsmonitor = x\\n' >> .git/config; echo config $?\n"
		"echo '{\"enabled\": false}' > mine.json; echo mine $?\n"
		"cat ~/.config/git/credentials ~/.config/gh/hosts.yml; echo read\n";
	char *cfg = at(w.proj, "mine.json");
	char *argv[] = {CORDON_BIN, "run", "--config",   cfg, "--",
			"/bin/sh",  "-c",  (char *)body, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	int st;
	cr_expect_eq(waitpid(saver, &st, 0), saver);
	cr_assert(strstr(r.out, "read"), "the session did not get that far: %s%s", r.out, r.err);
	char *config = content(w.proj, ".git/config"), *mine = content(w.proj, "mine.json");
	cr_expect_null(strstr(config, "fsmonitor"), "the session wrote .git/config: %s", config);
	cr_expect_str_eq(mine, "{\"allow_network\": false}",
			 "the session wrote its config (%s): %s%s", who->user ? "user" : "root",
			 r.out, r.err);
	cr_expect_null(strstr(r.out, SECRET), "the session read a secret: %s", r.out);
	cr_expect(strstr(r.err, "mine.json was saved anew outside"), "not said: %s", r.err);
	free(config);
	free(mine);
	/* The control: outside, the same writes land and the reads see. */
	r.out[0] = '\0';
	run_free(&r);
	r = sh_outside(&w, body + strlen("touch ready; while [ ! -e go ]; do sleep 0.05; done; "
					 "sleep 1\n"));
	cr_expect(strstr(r.out, "NEW-" SECRET) && strstr(r.out, "GH-" SECRET) &&
			  strstr(r.out, "config 0") && strstr(r.out, "mine 0"),
		  "control: %s%s", r.out, r.err);
	run_free(&r);
	free(saves);
	free(cfg);
	world_free(&w);
}

/* Plants in git's syntax that a simple reader misses, or that it cannot
 * know: a second section header on a line, a carriage return as a blank,
 * an alias that runs a command, a hook behind thousands of hidden files,
 * a repository whose moved-aside name is taken, a bare repository. Each
 * makes its own marker when git is used there. */
static const char plant_tricks[] =
	"t() { printf '\"touch %s-%s; false\"' \"$M\" \"$1\"; }\n"
	"git init -q r1 && printf '[x] [core] fsmonitor = %s\\n' \"$(t r1)\" >> r1/.git/config; "
	"echo r1 $?\n"
	"git init -q r2 && printf '[core]\\r\\tfsmonitor = %s\\n' \"$(t r2)\" >> r2/.git/config; "
	"echo r2 $?\n"
	"git init -q r3 && printf '[alias]\\n\\tst = !touch %s-r3\\n' \"$M\" >> r3/.git/config; "
	"echo r3 $?\n"
	"git init -q r4 && (cd r4/.git/hooks && i=0; while [ $i -lt 3000 ]; do : > .h$i; "
	"i=$((i+1)); done) && printf '#!/bin/sh\\ntouch %s-r4\\n' \"$M\" > "
	"r4/.git/hooks/post-checkout && chmod +x r4/.git/hooks/post-checkout && "
	"git -C r4 commit -q --allow-empty -m x; echo r4 $?\n"
	"git init -q r5 && for i in '' $(seq 2 99); do mkdir -p r5/.git.cordon-disarmed${i:+-$i}; "
	"done && printf '[core]\\n\\tfsmonitor = %s\\n' \"$(t r5)\" >> r5/.git/config; echo r5 $?\n"
	"git init -q --bare r6 && printf '[alias]\\n\\tst = !touch %s-r6\\n' \"$M\" >> r6/config; "
	"echo r6 $?\n"
	"g7=$(printf '.git/stash7/e\\nX') && git init -q r7 && mkdir -p .git/stash7 && "
	"mv r7/.git \"$g7\" && printf '[core]\\n\\tfsmonitor = %s\\n' \"$(t r7)\" >> \"$g7/config\" && "
	"printf 'gitdir: ../%s\\n' \"$g7\" > r7/.git; echo r7 $?\n"
	"cp -r .git/HEAD .git/objects .git/refs r8/ && "
	"printf '[alias]\\n\\tst = !touch %s-r8\\n' \"$M\" > r8/config; echo r8 $?\n";

static const char *const trick_steps[] = {"r1", "r2", "r3", "r4", "r5", "r6", "r7", "r8", NULL};

/* r8: the directory the project's core.hooksPath names lies in it (it is
 * guarded itself, not what is around it). */
static void hooks_path_world(struct world *w)
{
	struct run_result r = outside(w, "mkdir -p r8/hooks && git config core.hooksPath r8/hooks");
	run_free(&r);
}

/* git status, an alias and a checkout, outside, in each of the tricks. */
static void git_outside_in_tricks(struct world *w)
{
	struct run_result r = sh_outside(
		w, "for d in r1 r2 r3 r4 r5 r6 r7 r8; do (cd $d && git status >/dev/null 2>&1; "
		   "git st >/dev/null 2>&1; git checkout -q -b other >/dev/null 2>&1); done; true");
	run_free(&r);
}

BOTH_USERS(guards, repositories_a_simple_reader_would_miss_are_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gtricks");
	hooks_path_world(&w);
	struct run_result r;
	char *diag = plant_landed(&w, plant_tricks, trick_steps);
	git_outside_in_tricks(&w);
	for (size_t i = 0; trick_steps[i]; i++) {
		cr_expect_not(marked(&w, "deny", trick_steps[i]), "%s ran outside: %s",
			      trick_steps[i], diag);
		char *line = fmt("%s/%s", w.proj, trick_steps[i]);
		cr_expect(strstr(diag, line), "%s was not said: %s", trick_steps[i], diag);
		free(line);
	}
	cr_expect(strstr(diag, "alias.st"), "the alias was not named: %s", diag);
	cr_expect(strstr(diag, "more hooks than cordon reads"), "%s", diag);
	/* The control: planted outside, each runs. */
	r = sh_outside(&w, "rm -rf r1 r2 r3 r4 r5 r6 r7 r8* .git/stash7");
	run_free(&r);
	hooks_path_world(&w);
	plant_outside(&w, plant_tricks, trick_steps);
	git_outside_in_tricks(&w);
	for (size_t i = 0; trick_steps[i]; i++)
		cr_expect(marked(&w, "ctl", trick_steps[i]), "control: %s did not run",
			  trick_steps[i]);
	free(diag);
	world_free(&w);
}

/* A plant laid in two sessions: the first leaves pieces that are no
 * repository (a git dir without objects/, a config in a text file), the
 * second only moves or links them into place, so that nothing it leaves
 * is new but a rename or a link. Control: the same two steps outside
 * run. */
static const char plant_first[] =
	"mkdir -p la stash/refs && echo 'ref: refs/heads/main' > stash/HEAD && "
	"fsmon > stash/config; git init -q lb; fsmon > notes.txt; echo first $?\n";
static const char plant_second[] = "mv stash la/.git && mkdir la/.git/objects; echo moved $?\n"
				   "ln -sf ../../notes.txt lb/.git/config; echo linked $?\n";

BOTH_USERS(guards, a_plant_laid_over_two_sessions_is_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gtwice");
	struct run_result r;
	free(plant_landed(&w, plant_first, (const char *const[]){"first", NULL}));
	let_time_pass(); /* the second session starts later */
	char *diag = plant_landed(&w, plant_second, (const char *const[]){"moved", "linked", NULL});
	char *a = at(w.proj, "la"), *b = at(w.proj, "lb");
	git_outside(&w, a, "after");
	git_outside(&w, b, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the laid plant ran outside: %s", diag);
	cr_expect(present(w.proj, "la/.git.cordon-disarmed") &&
			  present(w.proj, "lb/.git.cordon-disarmed"),
		  "not moved aside: %s", diag);
	/* The control. */
	r = sh_outside(&w, "rm -rf la lb notes.txt");
	run_free(&r);
	plant_outside(&w, plant_first, NULL);
	plant_outside(&w, plant_second, NULL);
	git_outside(&w, a, "ctl");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the laid plant did not run");
	free(a);
	free(b);
	free(diag);
	world_free(&w);
}

/* A plant hidden where git outside never looks (inside a .git), then
 * moved into place by a rename in a later session: a whole tree with a
 * repository in it, and a git dir swapped in under the name a .git file
 * made earlier names. A rename moves no change time in what it moves.
 * Control: the same steps outside run. */
static const char hide_first[] =
	"git init -q junk && git init -q junk/.git/stash/vendor/lib && "
	"fsmon >> junk/.git/stash/vendor/lib/.git/config; echo hid $?\n"
	"git init -q sw && mkdir -p junk/.git/stash2 && mv sw/.git junk/.git/stash2/slot && "
	"echo 'gitdir: ../junk/.git/stash2/slot' > sw/.git && git init -q bad && "
	"hook pre-commit > bad/.git/hooks/pre-commit && chmod +x bad/.git/hooks/pre-commit && "
	"mv bad/.git junk/.git/stash2/bad && rmdir bad; echo slot $?\n";
static const char hide_second[] =
	"mv junk/.git/stash/vendor vendor; echo moved $?\n"
	"mv junk/.git/stash2/slot junk/.git/stash2/old && "
	"mv junk/.git/stash2/bad junk/.git/stash2/slot; echo swapped $?\n";

BOTH_USERS(guards, a_plant_moved_into_place_later_is_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gmovein");
	struct run_result r;
	free(plant_landed(&w, hide_first, (const char *const[]){"hid", "slot", NULL}));
	let_time_pass();
	/* (bad, hidden in junk's .git, is moved out as the first ends: every
	 * .git is walked whole; else it is swapped in.) */
	char *diag = plant_landed(&w, hide_second, (const char *const[]){"moved", NULL});
	cr_expect(strstr(diag, "swapped 0") ||
			  present(w.proj, "junk/.git/cordon-disarmed/stash2!bad.cordon-disarmed"),
		  "bad was neither swapped in nor moved aside: %s", diag);
	char *lib = at(w.proj, "vendor/lib"), *sw = at(w.proj, "sw");
	git_outside(&w, lib, "after");
	git_outside(&w, sw, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the moved tree's plant ran: %s", diag);
	cr_expect_not(marked(&w, "deny", "pre-commit"), "the swapped git dir's hook ran: %s", diag);
	/* The control. */
	r = sh_outside(&w, "rm -rf junk vendor sw");
	run_free(&r);
	plant_outside(&w, hide_first, NULL);
	plant_outside(&w, hide_second, NULL);
	git_outside(&w, lib, "ctl");
	git_outside(&w, sw, "ctl");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the moved tree's plant did not run");
	cr_expect(marked(&w, "ctl", "pre-commit"), "control: the swapped hook did not run");
	free(lib);
	free(sw);
	free(diag);
	world_free(&w);
}

/* What the sweep of session 15 let through, or could not know: a rebase
 * stopped inside, its todo given an exec line (git rebase --continue
 * outside runs it); a config.worktree in the project's own repository,
 * read once extensions.worktreeConfig is turned on outside (git
 * sparse-checkout does); a repository below a directory that looks like
 * a bare one; a hook written where a nested repository's core.hooksPath
 * points; a linked worktree outside the project, its commondir sent to a
 * git dir planted there. In the project's own repository, kept by the
 * guards, only the files are moved aside, and it stays usable. Each
 * makes its own marker when git is used there. $S: a writable directory
 * outside the project. */
static const char plant_resumed[] =
	"t() { printf '[core]\\n\\tfsmonitor = \"touch %s-%s; false\"\\n' \"$M\" \"$1\"; }\n"
	"git commit -q --allow-empty -m second && "
	"GIT_SEQUENCE_EDITOR=\"sed -i '1i break'\" git rebase -q -i HEAD~1 >/dev/null 2>&1; "
	"test -d .git/rebase-merge && printf 'exec touch %s-rebase\\n' \"$M\" >> "
	".git/rebase-merge/git-rebase-todo; echo rebase $?\n"
	"t cw > .git/config.worktree; echo worktree $?\n"
	"mkdir -p ev/objects ev/refs && echo 'ref: refs/heads/main' > ev/HEAD && "
	"git init -q ev/sub && t bare >> ev/sub/.git/config; echo bare $?\n"
	"hook pre-commit > vendor/h/.githooks/pre-commit && "
	"chmod +x vendor/h/.githooks/pre-commit; echo hookspath $?\n"
	"git worktree add -q \"$S/wt\" 2>/dev/null && git init -q --bare \"$S/evil\" && "
	"t wt >> \"$S/evil/config\" && echo \"$S/evil\" > .git/worktrees/wt/commondir; "
	"echo linked $?\n";

static const char *const resumed_steps[] = {"rebase", "hookspath", "worktree",
					    "bare",   "linked",    NULL};
static const char *const resumed_marks[] = {"rebase", "cw", "bare", "pre-commit", "wt", NULL};

/* Files git writes by name, laid as links to $T (a file outside every
 * rule) or given what git's prompt runs (round 38a F1, F2): a commit
 * whose subject runs a command, then logs/HEAD and logs/refs/stash
 * linked (git stash outside appends a reflog line with that subject); a
 * merge left in progress with COMMIT_EDITMSG linked (git commit
 * --no-edit writes MERGE_MSG through it); FETCH_HEAD linked; a rebase
 * laid out whose step git's prompt puts in PS1 as it is; a link in a
 * directory made unreadable, one 71 levels down, a directory of more
 * files than are listed in one (a test build's bound: 200), and the git
 * dir itself made unreadable (round 38c F1-F3, 38d
 * H1, H2: each had the look stop short, unsaid). */
static const char plant_written_through[] =
	"git checkout -q -b side && git commit -q --allow-empty -m side && "
	"git checkout -q main && git commit -q --allow-empty -m \"fix \\$(touch $M-reflog)\" && "
	"git merge -q --no-commit --no-ff side >/dev/null 2>&1; "
	"printf 'merge\\ntouch %s-editmsg\\n' \"$M\" > .git/MERGE_MSG && "
	"ln -sf \"$T\" .git/COMMIT_EDITMSG; echo editmsg $?\n"
	"mkdir -p .git/logs/refs && rm -f .git/logs/HEAD .git/logs/refs/stash && "
	"ln -s \"$T\" .git/logs/HEAD && ln -s \"$T\" .git/logs/refs/stash; echo reflog $?\n"
	"ln -sf \"$T\" .git/FETCH_HEAD; echo fetchhead $?\n"
	"mkdir -p .git/rebase-merge && git symbolic-ref HEAD > .git/rebase-merge/head-name && "
	": > .git/rebase-merge/interactive && echo 2 > .git/rebase-merge/end && "
	"printf '1$(touch %s-prompt)\\n' \"$M\" > .git/rebase-merge/msgnum; echo prompt $?\n"
	"mkdir -p .git/logs/refs/heads/x && ln -s \"$T\" .git/logs/refs/heads/x/y && "
	"chmod 100 .git/logs/refs/heads/x; echo unreadable $?\n"
	"d=.git/logs/refs/heads/deep; for i in $(seq 70); do d=$d/d; done; "
	"mkdir -p $d && ln -s \"$T\" $d/z; echo deep $?\n"
	"mkdir .git/aa && (cd .git/aa && seq 300 | xargs touch); echo fill $?\n"
	"mkfifo .git/TAG_EDITMSG; echo fifo $?\n"
	"chmod 300 .git; echo unreadgit $?\n";

static const char *const written_steps[] = {"reflog",     "editmsg", "fetchhead", "prompt",
					    "unreadable", "deep",    "fill",      "fifo",
					    "unreadgit",  NULL};

/* Outside: git's prompt shown once (PS1 expanded as a prompt), a fetch,
 * the merge concluded, a stash (each writing $T through its link in the
 * control, the fetch and the commit anew); then $T run by bash, as a
 * login would. */
static void git_outside_written(struct world *w, const char *target)
{
	char *script = fmt(". /usr/lib/git-core/git-sh-prompt && __git_ps1 'u' ' $ ' && "
			   ": \"${PS1@P}\"; rm -rf .git/rebase-merge; "
			   "git fetch -q . main >/dev/null 2>&1; "
			   "git commit -q --no-edit >/dev/null 2>&1; echo x >> a; "
			   "git stash -q >/dev/null 2>&1; bash '%s' >/dev/null 2>&1; true",
			   target);
	char *argv[] = {"/bin/bash", "-c", script, NULL};
	struct run_result r = world_run(w, argv, w->proj);
	free(script);
	run_free(&r);
}

/* Round 38a F1, F2: links laid in the project's git dir, which git
 * outside writes through (a reflog line, COMMIT_EDITMSG, FETCH_HEAD), and
 * a rebase step git's prompt runs, are moved aside alone as the session
 * ends, and said; the file they led to is as it was, and nothing ran.
 * Control: the same, outside, writes the file and runs all three. */
BOTH_USERS(guards, what_git_writes_through_or_shows_is_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gthrough");
	char *target = at(w.outside, "profile");
	free(write_file(w.outside, "profile", "true\n"));
	if (w.as_user)
		cr_assert_eq(chown(target, w.uid, w.gid), 0);
	char *vars = fmt("T=%s", target);
	world_setenv(&w, "CORDON_TEST_GIT_LINKS_DIR=200");
	let_time_pass();
	char *script = plant(&w, "deny", vars, plant_written_through);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	free(script);
	expect_all_landed(written_steps, &r, "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	cr_expect(present(w.proj, ".git/TAG_EDITMSG.cordon-disarmed"),
		  "a FIFO laid in the git dir was not moved aside: %s", diag);
	cr_expect(present(w.proj, ".git/aa.cordon-disarmed"),
		  "a directory of more files than are listed was not moved aside: %s", diag);
	static const char *const aside[] = {
		".git/logs/HEAD.cordon-disarmed",           ".git/logs/refs/stash.cordon-disarmed",
		".git/COMMIT_EDITMSG.cordon-disarmed",      ".git/FETCH_HEAD.cordon-disarmed",
		".git/rebase-merge/msgnum.cordon-disarmed", NULL};
	for (size_t i = 0; aside[i]; i++)
		cr_expect(present(w.proj, aside[i]), "%s is missing: %s", aside[i], diag);
	cr_expect(strstr(diag, "a symbolic link at logs/HEAD, which git outside writes through") &&
			  strstr(diag, "rebase-merge/msgnum holding what is not a number"),
		  "not said: %s", diag);
	/* (In a directory made unreadable, and 71 levels down, round 38c F1,
	 * F2: the link, or the directory it is in, moved aside.) */
	cr_expect(!present(w.proj, ".git/logs/refs/heads/x/y"),
		  "a link in an unreadable "
		  "directory stayed: %s",
		  diag);
	char *deep = strdup(".git/logs/refs/heads/deep");
	for (int i = 0; i < 70; i++) {
		char *next = fmt("%s/d", deep);
		free(deep);
		deep = next;
	}
	char *deep_link = fmt("%s/z", deep);
	cr_expect(!present(w.proj, deep_link), "a link 71 levels down stayed: %s", diag);
	free(deep_link);
	free(deep);
	git_outside_written(&w, target);
	char *now = slurp(target);
	cr_expect_str_eq(now, "true\n", "git wrote through a link: %s", diag);
	free(now);
	static const char *const marks[] = {"reflog", "editmsg", "prompt", NULL};
	for (size_t i = 0; marks[i]; i++)
		cr_expect_not(marked(&w, "deny", marks[i]), "%s ran outside: %s", marks[i], diag);
	cr_expect(present(w.proj, ".git/HEAD") && !present(w.proj, ".git.cordon-disarmed"),
		  "the guarded repository was moved: %s", diag);
	/* The control: the same, outside. */
	r = sh_outside(&w, "chmod 755 .git; git merge --abort; chmod 700 .git/logs/refs/heads/x*; "
			   "rm -rf .git/logs/refs/heads/x* .git/logs/refs/heads/deep* .git/aa* "
			   ".git/TAG_EDITMSG* "
			   ".git/rebase-merge .git/*.cordon-disarmed "
			   ".git/logs/*.cordon-disarmed .git/logs/refs/*.cordon-disarmed; "
			   "git checkout -q main; git reset -q --hard; true");
	run_free(&r);
	script = plant(&w, "ctl", vars, plant_written_through);
	r = outside(&w, "git branch -q -D side; %s", script);
	free(script);
	expect_all_landed(written_steps, &r, "outside");
	run_free(&r);
	git_outside_written(&w, target);
	now = slurp(target);
	cr_expect_str_neq(now, "true\n", "control: git did not write through the links");
	free(now);
	/* (The reflog's line carries the merge's subject there: what it
	 * wrote is told by the file.) */
	for (size_t i = 1; marks[i]; i++)
		cr_expect(marked(&w, "ctl", marks[i]), "control: %s did not run", marks[i]);
	free(diag);
	free(vars);
	free(target);
	world_free(&w);
}

/* The nested repository with core.hooksPath, made outside before, and
 * SIDE. */
static void resumed_world(struct world *w, const char *side)
{
	struct run_result r =
		outside(w,
			"git init -q vendor/h && git -C vendor/h config core.hooksPath .githooks "
			"&& mkdir -p vendor/h/.githooks '%s' && "
			"git -C vendor/h commit -q --allow-empty -m first",
			side);
	run_free(&r);
}

/* Outside: the rebase continued, worktreeConfig turned on, git in each
 * of the other places. */
static void git_outside_resumed(struct world *w, const char *side)
{
	char *script =
		fmt("git rebase --continue >/dev/null 2>&1; "
		    "git config core.repositoryformatversion 1 && "
		    "git config extensions.worktreeConfig true && git status >/dev/null 2>&1; "
		    "(cd ev/sub && git status >/dev/null 2>&1); "
		    "git -C vendor/h commit -q --allow-empty -m x >/dev/null 2>&1; "
		    "(cd '%s/wt' && git status >/dev/null 2>&1); true",
		    side);
	struct run_result r = sh_outside(w, script);
	free(script);
	run_free(&r);
}

BOTH_USERS(guards, what_git_resumes_or_finds_around_is_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gresume");
	char *side = at(w.dir, "side"), *vars = fmt("S=%s", side),
	     *rw = fmt(", \"additional_read_write_paths\": [\"%s\"]", side);
	resumed_world(&w, side);
	set_config(&w, rw);
	let_time_pass(); /* a change is told from what was there by its time */
	char *script = plant(&w, "deny", vars, plant_resumed);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	free(script);
	expect_all_landed(resumed_steps, &r, "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	git_outside_resumed(&w, side);
	for (size_t i = 0; resumed_marks[i]; i++)
		cr_expect_not(marked(&w, "deny", resumed_marks[i]), "%s ran outside: %s",
			      resumed_marks[i], diag);
	static const char *const aside[] = {".git/rebase-merge/git-rebase-todo.cordon-disarmed",
					    ".git/config.worktree.cordon-disarmed",
					    "ev/sub/.git.cordon-disarmed",
					    "vendor/h/.git.cordon-disarmed",
					    ".git/cordon-disarmed/worktrees!wt.cordon-disarmed",
					    NULL};
	for (size_t i = 0; aside[i]; i++)
		cr_expect(present(w.proj, aside[i]), "%s is missing: %s", aside[i], diag);
	cr_expect(strstr(diag, "exec lines in rebase-merge/git-rebase-todo"), "%s", diag);
	cr_expect(present(w.proj, ".git/HEAD") && !present(w.proj, ".git.cordon-disarmed"),
		  "the guarded repository was moved: %s", diag);
	/* The control: the same, outside, runs. */
	script = fmt("git rebase --abort; rm -rf ev vendor '%s' .git/config.worktree* "
		     ".git/worktrees .git/rebase-merge; git worktree prune; "
		     "git config --unset extensions.worktreeConfig; "
		     "git config core.repositoryformatversion 0; true",
		     side);
	r = sh_outside(&w, script);
	free(script);
	run_free(&r);
	resumed_world(&w, side);
	script = plant(&w, "ctl", vars, plant_resumed);
	r = outside(&w, "%s", script);
	free(script);
	expect_all_landed(resumed_steps, &r, "outside");
	run_free(&r);
	git_outside_resumed(&w, side);
	for (size_t i = 0; resumed_marks[i]; i++)
		cr_expect(marked(&w, "ctl", resumed_marks[i]), "control: %s did not run",
			  resumed_marks[i]);
	free(side);
	free(vars);
	free(rw);
	free(diag);
	world_free(&w);
}

/* Round 50b F1: a rebase and a cherry-pick stopped inside, with the
 * built-in strategy resolve and a strategy option for it: git outside
 * hands the options to git-merge-resolve, which hands them to git
 * read-tree, whose --index-output writes the index over any file the
 * user can write ($T here; a ~/.vimrc then runs a line of the session's
 * file names). */
static const char plant_xopts_rebase[] =
	"git checkout -qb side && echo s > s && git add s && git commit -qm side && "
	"git checkout -q main && echo m > h && git add h && git commit -qm m && "
	"git checkout -q side && GIT_SEQUENCE_EDITOR='sed -i 1ibreak' "
	"git rebase -q -i -s resolve -X \"aggressive --index-output=$T\" main >/dev/null 2>&1; "
	"test -s .git/rebase-merge/strategy_opts; echo plant $?\n";
static const char plant_xopts_pick[] =
	"git checkout -qb side && echo one > a && git commit -qam one && echo two > b && "
	"git add b && git commit -qm two && git checkout -q main && echo other > a && "
	"git commit -qam other && "
	"git cherry-pick --strategy=resolve -X aggressive main..side >/dev/null 2>&1; "
	"git config -f .git/sequencer/opts --add options.strategy-option \"index-output=$T\" && "
	"echo resolved > a && git add a; echo plant $?\n";

static const char *const xopts_steps[] = {"plant", NULL};

/* BODY planted in a git world (TAG) inside, CONT run outside after: $T
 * is as it was, and ASIDE was moved aside, said. Control: the same
 * outside writes $T. */
static void strategy_options(const struct who *who, const char *tag, const char *body,
			     const char *cont, const char *aside)
{
	struct world w;
	git_world(&w, who, tag);
	char *target = at(w.outside, "target");
	free(write_file(w.outside, "target", "true\n"));
	if (w.as_user)
		cr_assert_eq(chown(target, w.uid, w.gid), 0);
	char *vars = fmt("T=%s", target);
	let_time_pass();
	char *script = plant(&w, "deny", vars, body);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	free(script);
	expect_all_landed(xopts_steps, &r, "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	cr_expect(present(w.proj, aside), "%s is missing: %s", aside, diag);
	r = sh_outside(&w, cont);
	run_free(&r);
	char *now = slurp(target);
	cr_expect_str_eq(now, "true\n", "git outside wrote the index over a file: %s", diag);
	free(now);
	cr_expect(strstr(diag, "strategy options for a merge strategy git runs as a program"),
		  "not said: %s", diag);
	/* The control: the same, outside. */
	r = sh_outside(&w, "git rebase --abort; git cherry-pick --abort; git checkout -q main; "
			   "git reset -q --hard HEAD~1; git branch -q -D side; "
			   "rm -rf .git/rebase-merge .git/sequencer; true");
	run_free(&r);
	script = plant(&w, "ctl", vars, body);
	r = outside(&w, "%s", script);
	free(script);
	expect_all_landed(xopts_steps, &r, "outside");
	run_free(&r);
	r = sh_outside(&w, cont);
	run_free(&r);
	now = slurp(target);
	cr_expect_str_neq(now, "true\n", "control: git did not write the index over the file");
	free(now);
	free(diag);
	free(vars);
	free(target);
	world_free(&w);
}

BOTH_USERS(guards, a_merge_strategy_s_options_write_nothing_outside, .timeout = 90)
{
	strategy_options(who, "gxopts", plant_xopts_rebase,
			 "git rebase --continue >/dev/null 2>&1; true",
			 ".git/rebase-merge/strategy.cordon-disarmed");
	strategy_options(who, "gxpick", plant_xopts_pick,
			 "GIT_EDITOR=true git cherry-pick --continue >/dev/null 2>&1; true",
			 ".git/sequencer/opts.cordon-disarmed");
}

/* A repository the user made writable besides the project (a sibling,
 * through additional_read_write_paths) is kept as the project's is: its
 * config and hooks are read-only inside, git still commits there, and a
 * repository made in it is swept as the session ends. Control: the same
 * plants made outside run. $S: the sibling. */
static const char plant_sibling[] =
	"git -C \"$S\" commit -q --allow-empty -m inside; echo commit $?\n"
	"fsmon >> \"$S/.git/config\"; echo config $?\n"
	"hook pre-commit > \"$S/.git/hooks/pre-commit\" && chmod +x \"$S/.git/hooks/pre-commit\"; "
	"echo hook $?\n"
	"git init -q \"$S/sub\" && fsmon >> \"$S/sub/.git/config\"; echo sub $?\n";

static void git_outside_sibling(struct world *w, const char *side)
{
	char *sub = fmt("%s/sub", side);
	git_outside(w, side, "after");
	git_outside(w, sub, "after");
	free(sub);
}

BOTH_USERS(guards, a_writable_sibling_repository_is_kept_like_the_project, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gsibling");
	char *side = at(w.dir, "side"), *vars = fmt("S=%s", side),
	     *rw = fmt(", \"additional_read_write_paths\": [\"%s\"]", side);
	struct run_result r = outside(&w,
				      "git init -q '%s' && git -C '%s' commit -q "
				      "--allow-empty -m first",
				      side, side);
	run_free(&r);
	set_config(&w, rw);
	let_time_pass();
	char *script = plant(&w, "deny", vars, plant_sibling);
	r = sh_in(&w, NULL, "%s", script);
	free(script);
	expect_all_landed((const char *const[]){"commit", "sub", NULL}, &r, "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	git_outside_sibling(&w, side);
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "a planted fsmonitor ran outside: %s", diag);
	cr_expect_not(marked(&w, "deny", "pre-commit"), "a planted hook ran outside: %s", diag);
	char *aside = fmt("%s/sub/.git.cordon-disarmed", side);
	cr_expect(access(aside, F_OK) == 0, "the repository made in the sibling stayed: %s", diag);
	free(aside);
	r = sh_outside(&w, "git -C \"$PWD/../side\" log --oneline");
	cr_expect(strstr(r.out, "inside"), "the commit inside is missing: %s%s", r.out, r.err);
	run_free(&r);
	/* The control. */
	script = fmt("rm -rf '%s/sub'", side);
	r = sh_outside(&w, script);
	free(script);
	run_free(&r);
	script = plant(&w, "ctl", vars, plant_sibling);
	r = outside(&w, "%s", script);
	free(script);
	expect_all_landed((const char *const[]){"config", "hook", "commit", "sub", NULL}, &r,
			  "outside");
	run_free(&r);
	git_outside_sibling(&w, side);
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the planted fsmonitor did not run");
	cr_expect(marked(&w, "ctl", "pre-commit"), "control: the planted hook did not run");
	sweep_forget(side);
	free(side);
	free(vars);
	free(rw);
	free(diag);
	world_free(&w);
}

/* A git dir made writable itself (a bare repository the session pushes
 * to) is kept as the project's .git is: its hooks and config are
 * read-only inside, a push still works, and it is swept. Control: the
 * same plant made outside runs at the next push. $R: the bare one. */
static const char plant_bare_root[] =
	"git push -q \"$R\" HEAD:main; echo push $?\n"
	"hook pre-receive > \"$R/hooks/pre-receive\" && chmod +x \"$R/hooks/pre-receive\"; "
	"echo hook $?\n"
	"git init -q \"$R/x\" && fsmon >> \"$R/x/.git/config\"; echo nested $?\n";

BOTH_USERS(guards, a_writable_bare_repository_is_kept_like_the_project, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gbare");
	char *bare = at(w.dir, "remote.git"), *vars = fmt("R=%s", bare),
	     *rw = fmt(", \"additional_read_write_paths\": [\"%s\"]", bare);
	struct run_result r =
		outside(&w, "git init -q --bare '%s' && git push -q '%s' HEAD:main", bare, bare);
	run_free(&r);
	set_config(&w, rw);
	let_time_pass();
	char *script = plant(&w, "deny", vars, plant_bare_root);
	r = sh_in(&w, NULL, "%s", script);
	free(script);
	expect_all_landed((const char *const[]){"push", "nested", NULL}, &r, "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	char *push = fmt("git commit -q --allow-empty -m more && git push -q '%s' HEAD:main; "
			 "(cd '%s/x' && git status >/dev/null 2>&1); true",
			 bare, bare);
	r = sh_outside(&w, push);
	run_free(&r);
	cr_expect_not(marked(&w, "deny", "pre-receive"), "a planted hook ran outside: %s", diag);
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "a planted fsmonitor ran outside: %s", diag);
	/* The control. */
	script = fmt("rm -rf '%s/x'", bare);
	r = sh_outside(&w, script);
	free(script);
	run_free(&r);
	script = plant(&w, "ctl", vars, plant_bare_root);
	r = outside(&w, "%s", script);
	free(script);
	run_free(&r);
	r = sh_outside(&w, push);
	run_free(&r);
	cr_expect(marked(&w, "ctl", "pre-receive"), "control: the planted hook did not run");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the planted fsmonitor did not run");
	sweep_forget(bare);
	free(push);
	free(bare);
	free(vars);
	free(rw);
	free(diag);
	world_free(&w);
}

/* SETUP made outside, then BODY planted inside and outside: git commit
 * outside runs no pre-commit planted inside (WHAT says how it would), and
 * runs the one planted outside (the control; BODY prints "STEP 0"). */
static void expect_pre_commit_kept(const struct who *who, const char *tag, const char *setup,
				   const char *body, const char *step, const char *what)
{
	struct world w;
	git_world(&w, who, tag);
	struct run_result r = outside(&w, "%s", setup);
	run_free(&r);
	char *diag = plant_inside(&w, body);
	git_outside(&w, w.proj, "after");
	cr_expect_not(marked(&w, "deny", "pre-commit"), "%s: %s", what, diag);
	plant_outside(&w, body, (const char *const[]){step, NULL});
	git_outside(&w, w.proj, "ctl");
	cr_expect(marked(&w, "ctl", "pre-commit"), "control: the plant did not run");
	free(diag);
	world_free(&w);
}

/* core.hooksPath set in a file the repository's config includes (a
 * tracked .gitconfig, shared by a team) names hooks as directly set
 * does: that directory is kept read-only too. Control: the same hook
 * written outside runs at the next commit. */
BOTH_USERS(guards, a_hooks_path_set_through_an_include_is_kept, .timeout = 60)
{
	expect_pre_commit_kept(who, "ghpinc",
			       "printf '[core]\\n\\thooksPath = .githooks\\n' > .gitconfig && "
			       "git config include.path ../.gitconfig && mkdir .githooks",
			       "hook pre-commit > .githooks/pre-commit && "
			       "chmod +x .githooks/pre-commit; echo hook $?\n",
			       "hook", "a planted hook ran outside");
}

/* A hook that is a link to a file in the project (ln -s
 * ../../tools/pre-commit .git/hooks/pre-commit, a common setup): the
 * file git runs is kept read-only, not only the link. Control: the same
 * line added outside runs at the next commit. */
BOTH_USERS(guards, a_linked_hook_is_kept, .timeout = 60)
{
	expect_pre_commit_kept(who, "glinkhook",
			       "mkdir tools && printf '#!/bin/sh\\n' > tools/pre-commit && "
			       "chmod +x tools/pre-commit && "
			       "ln -s ../../tools/pre-commit .git/hooks/pre-commit",
			       "printf 'touch %s\\n' \"$M-pre-commit\" >> tools/pre-commit; "
			       "echo append $?\n",
			       "append", "the linked hook ran a plant");
}

/* What a review of the sweep found, each planted in one session or laid
 * over two:
 *   strategy: a rebase stopped in a nested repository, its merge strategy
 *     "ort ../x", which git runs as the program "git-merge-ort ../x"
 *     relative to the worktree;
 *   newline: a .git file whose gitdir path holds a newline (git reads the
 *     whole file; a reader of its first line judges another directory);
 *   ro: a repository in a directory made read-only (chmod 555), which the
 *     test user's sweep cannot rename in;
 *   moved: the project's own rebase stopped with an exec line, its
 *     rebase-merge moved away in the first session and back in the
 *     second (a rename moves no change time in the todo);
 *   swapped: a nested repository whose config is a link into a
 *     directory that the second session swaps for another;
 *   worktree: a nested repository's linked worktree outside the project,
 *     its commondir sent to a planted git dir in the second session
 *     (whose walk reuses the first's record).
 * Control: the same steps outside run. */
static const char review_first[] =
	"t() { printf '[core]\\n\\tfsmonitor = \"touch %s-%s; false\"\\n' \"$M\" \"$1\"; }\n"
	"cd vendor/s && GIT_SEQUENCE_EDITOR=\"sed -i '1i break'\" git rebase -q -i main "
	">/dev/null 2>&1; printf 'ort ../x\\n' > .git/rebase-merge/strategy && "
	"mkdir 'git-merge-ort ..' && printf '#!/bin/sh\\ntouch %s-strategy\\n' \"$M\" > "
	"'git-merge-ort ../x' && chmod +x 'git-merge-ort ../x'; echo strategy $?; cd ../..\n"
	"mkdir -p nl .git/gd && g=$(printf '.git/gd\\nx') && git init -q --bare \"$g\" && "
	"git --git-dir=\"$g\" config core.bare false && t newline >> \"$g/config\" && "
	"printf 'gitdir: ../.git/gd\\nx\\n' > nl/.git; echo newline $?\n"
	"git init -q ro && t ro >> ro/.git/config && chmod 555 ro; echo ro $?\n"
	"git commit -q --allow-empty -m second && "
	"GIT_SEQUENCE_EDITOR=\"sed -i '1i break'\" git rebase -q -i HEAD~1 >/dev/null 2>&1; "
	"printf 'exec touch %s-moved\\n' \"$M\" >> .git/rebase-merge/git-rebase-todo && "
	"mv .git/rebase-merge .git/rm-planted; echo moved $?\n"
	"git init -q sw && mkdir .git/cfg .git/cfg2 && cp sw/.git/config .git/cfg/ && "
	"cp sw/.git/config .git/cfg2/ && t swapped >> .git/cfg2/config && "
	"ln -sf ../../.git/cfg/config sw/.git/config; echo swapped $?\n";
static const char review_second[] =
	"mv .git/rm-planted .git/rebase-merge; echo moved $?\n"
	"mv .git/cfg .git/cfg-old && mv .git/cfg2 .git/cfg; echo swapped $?\n"
	"cp -a x/.git .git/ev && git --git-dir=.git/ev config core.fsmonitor "
	"\"touch $M-worktree; false\" && echo \"$PWD/.git/ev\" > x/.git/worktrees/xwt/commondir; "
	"echo worktree $?\n";
static const char *const review_steps2[] = {"moved", "swapped", "worktree", NULL};
static const char *const review_steps[] = {"strategy", "newline", "ro", "moved", "swapped", NULL};

/* The nested repository the strategy is planted in: topic, off main,
 * checked out. */
static void review_world(struct world *w)
{
	struct run_result r = outside(
		w, "git init -q vendor/s && cd vendor/s && git commit -q --allow-empty -m a && "
		   "git checkout -q -b topic && git commit -q --allow-empty -m b && "
		   "git commit -q --allow-empty -m c && git checkout -q main && "
		   "git commit -q --allow-empty -m m && git checkout -q topic && cd ../.. && "
		   "git init -q x && git -C x commit -q --allow-empty -m a && "
		   "git -C x worktree add -q \"$(cd ..; pwd)/outside/xwt\" 2>/dev/null");
	run_free(&r);
}

static void git_outside_review(struct world *w)
{
	struct run_result r = sh_outside(
		w, "(cd vendor/s && git rebase --continue >/dev/null 2>&1); "
		   "(cd nl && git status >/dev/null 2>&1); (cd ro && git status >/dev/null 2>&1); "
		   "git rebase --continue >/dev/null 2>&1; (cd sw && git status >/dev/null 2>&1); "
		   "(cd ../outside/xwt && git status >/dev/null 2>&1); true");
	run_free(&r);
}

BOTH_USERS(guards, what_a_review_of_the_sweep_found_is_moved_aside, .timeout = 120)
{
	struct world w;
	git_world(&w, who, "greview");
	review_world(&w);
	let_time_pass();
	char *diag = plant_landed(&w, review_first, review_steps);
	let_time_pass();
	char *diag2 = plant_landed(&w, review_second, review_steps2);
	git_outside_review(&w);
	static const char *const marks[] = {"strategy", "newline",  "ro", "moved",
					    "swapped",  "worktree", NULL};
	for (size_t i = 0; marks[i]; i++)
		cr_expect_not(marked(&w, "deny", marks[i]), "%s ran outside: %s%s", marks[i], diag,
			      diag2);
	/* The control. */
	struct run_result r = sh_outside(
		&w,
		"chmod 755 ro; git rebase --abort; rm -rf vendor nl ro sw x ../outside/xwt "
		".git/gd* .git/cfg* .git/ev .git/rebase-merge* .git/rm-planted; git reset -q --hard HEAD~1; true");
	run_free(&r);
	review_world(&w);
	plant_outside(&w, review_first, review_steps);
	plant_outside(&w, review_second, review_steps2);
	git_outside_review(&w);
	for (size_t i = 0; marks[i]; i++)
		cr_expect(marked(&w, "ctl", marks[i]), "control: %s did not run", marks[i]);
	r = sh_outside(&w, "chmod 755 ro; true");
	run_free(&r);
	free(diag);
	free(diag2);
	world_free(&w);
}

/* A session whose launcher is killed (kill -9: no sweep ever runs for
 * it) leaves a mark; the next session in the project judges what changed
 * since the killed one started, and says so. Control: the same plant,
 * with no session after it, runs. */
BOTH_USERS(guards, a_sweep_that_never_ran_is_done_by_the_next_session, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gkilled");
	let_time_pass();
	plant_then_kill(&w, "git init -q sub && fsmon >> sub/.git/config");
	char *sub = at(w.proj, "sub");
	let_time_pass();
	struct run_result r = sh_in(&w, NULL, "true");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	git_outside(&w, sub, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the plant ran outside: %s", diag);
	cr_expect(present(w.proj, "sub/.git.cordon-disarmed"), "not moved aside: %s", diag);
	cr_expect(strstr(diag, "ended without looking at all of its repositories"), "%s", diag);
	/* The control: no sweep, and it runs. */
	r = sh_outside(&w, "rm -rf sub");
	run_free(&r);
	plant_outside(&w, "git init -q sub && fsmon >> sub/.git/config", NULL);
	git_outside(&w, sub, "ctl");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the plant did not run");
	free(sub);
	free(diag);
	world_free(&w);
}

/* A config that is a sparse file of many GiB held the sweep for hours
 * (hooksPath was read from it with no limit), while the repository
 * below it ran. Now it is not read past what git ever writes, the sweep
 * ends at once, and what it cannot read counts. */
BOTH_USERS(guards, a_huge_config_does_not_hold_the_sweep, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ghuge");
	let_time_pass();
	char *diag =
		plant_landed(&w,
			     "git init -q A && truncate -s 50G A/.git/config && git init -q A/B "
			     "&& fsmon >> A/B/.git/config; echo huge $?\n",
			     (const char *const[]){"huge", NULL});
	char *ab = at(w.proj, "A/B");
	git_outside(&w, ab, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the plant ran outside: %s", diag);
	cr_expect(present(w.proj, "A/.git.cordon-disarmed"), "the huge one stayed: %s", diag);
	cr_expect(present(w.proj, "A/B/.git.cordon-disarmed"), "the one below stayed: %s", diag);
	free(ab);
	free(diag);
	world_free(&w);
}

/* Indexes the session made large and sparse (no disk for it) held the
 * sweep a few seconds each, signals blocked (twenty: a minute). One with
 * holes, which git never writes, is not read: the repository is moved
 * aside, its index unread counting as a risk. Control: the same
 * repository with git's own index is kept. */
BOTH_USERS(guards, a_sparse_index_does_not_hold_the_sweep, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gsparse");
	let_time_pass();
	char *diag = plant_landed(&w,
				  "git init -q S && echo s > S/s && git -C S add s && "
				  "truncate -s 200M S/.git/index; echo sparse $?\n"
				  "git init -q K && echo k > K/k && git -C K add k; echo kept $?\n",
				  (const char *const[]){"sparse", "kept", NULL});
	cr_expect(present(w.proj, "S/.git.cordon-disarmed"), "the sparse one stayed: %s", diag);
	cr_expect(strstr(diag, "an index cordon cannot read"), "not said: %s", diag);
	cr_expect(present(w.proj, "K/.git/index") && !present(w.proj, "K/.git.cordon-disarmed"),
		  "control: git's own index was moved: %s", diag);
	free(diag);
	world_free(&w);
}

/* A config of the project's own longer than cordon reads (1 MiB) hides
 * where git takes its hooks from: the session is refused (125, naming
 * the project), its command never runs, and the repository stays where
 * it is. Control: with the config cut back, the same command runs. */
BOTH_USERS(guards, a_config_too_long_to_read_refuses_the_session, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gbigcfg");
	struct run_result r = outside(&w, "cp .git/config cfg.orig && i=0; while [ $i -lt 12 ]; do "
					  "head -c 100000 /dev/zero | tr '\\0' '#' | fold -w 99 >> "
					  ".git/config; i=$((i+1)); done");
	run_free(&r);
	let_time_pass();
	r = sh_in(&w, NULL, "touch ran");
	cr_expect_eq(r.status, 125, "the session was not refused: %d %s", r.status, r.err);
	cr_expect(strstr(r.err, "longer than cordon reads"), "%s", r.err);
	cr_expect_not(present(w.proj, "ran"), "the command ran: %s", r.err);
	cr_expect(present(w.proj, ".git/HEAD") && !present(w.proj, ".git.cordon-disarmed"),
		  "the repository was moved: %s", r.err);
	run_free(&r);
	r = outside(&w, "cp cfg.orig .git/config");
	run_free(&r);
	r = sh_in(&w, NULL, "touch ran");
	cr_expect(r.status == 0 && present(w.proj, "ran"), "control: %d %s", r.status, r.err);
	run_free(&r);
	world_free(&w);
}

/* Ordinary git work is kept: the first session in a project does not
 * take the project's own repository for one it made (the stand-ins it
 * makes there change its times), so a rebase paused outside with exec
 * lines of the user's own is left alone; a sparse checkout and
 * submodule.active in a repository made inside run nothing. */
BOTH_USERS(guards, ordinary_git_work_is_not_moved_aside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gordinary");
	struct run_result r =
		outside(&w, "git commit -q --allow-empty -m second && "
			    "GIT_SEQUENCE_EDITOR=\"sed -i -e '1i break' -e '\\$a exec true'\" "
			    "git rebase -q -i HEAD~1 >/dev/null 2>&1; "
			    "grep -q exec .git/rebase-merge/git-rebase-todo");
	run_free(&r);
	/* A repository with a submodule, to clone. */
	r = outside(&w,
		    "mkdir up && cd up && git init -q sm && "
		    "git -C sm commit -q --allow-empty -m s && git init -q ws && "
		    "git -C ws submodule add -q ../sm sm 2>/dev/null && git -C ws commit -qm sub");
	run_free(&r);
	let_time_pass();
	char *diag = plant_landed(&w,
				  "git init -q r && git -C r sparse-checkout set x && "
				  "git -C r config submodule.active . ; echo work $?\n"
				  "git clone -q --recurse-submodules up/ws cl 2>/dev/null; "
				  "echo clone $?\n",
				  (const char *const[]){"work", "clone", NULL});
	cr_expect(present(w.proj, ".git/rebase-merge/git-rebase-todo"),
		  "the user's own paused rebase was touched: %s", diag);
	cr_expect(present(w.proj, "r/.git/config"), "ordinary work was moved aside: %s", diag);
	cr_expect(present(w.proj, "cl/.git/modules/sm/config") && present(w.proj, "cl/sm/.git"),
		  "a clone with its submodule was moved aside: %s", diag);
	char *own = fmt("made the repository %s/.git:", w.proj);
	cr_expect_null(strstr(diag, own), "the project's own repository was taken as made: %s",
		       diag);
	free(own);
	free(diag);
	world_free(&w);
}

/* A session started just after another one ended does not take the other's
 * changes for its own: the first session, in a repository with a hook
 * beneath the second's project, made its stand-ins there (.git/commondir,
 * placeholders) in the second that the second started in, and the
 * second's first walk took the repository for one it made and moved it
 * aside (round 8). Judged outside: git still works there. (The repository
 * made inside that is said: a_repository_made_inside_is_said_with_what_it_runs.) */
BOTH_USERS(guards, a_session_just_after_another_keeps_its_repository, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gback");
	struct run_result r =
		outside(&w, "git init -q sub && git -C sub commit -q --allow-empty -m s && "
			    "printf '#!/bin/sh\ntrue\n' > sub/.git/hooks/pre-commit && "
			    "chmod +x sub/.git/hooks/pre-commit");
	run_free(&r);
	let_time_pass(); /* (made before the sessions) */
	char *sub = at(w.proj, "sub");
	char *opts = fmt("--project %s", sub);
	r = sh_in(&w, opts, "git -C %s status >/dev/null; echo first $?", sub);
	cr_expect(strstr(r.out, "first 0"), "the first session: %s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "echo second");
	cr_expect(strstr(r.out, "second"), "the second session: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "made the repository"), "taken as made:\n%s", r.err);
	cr_expect(present(sub, ".git/HEAD") && !present(sub, ".git.cordon-disarmed"),
		  "moved aside:\n%s", r.err);
	run_free(&r);
	r = sh_outside(&w, "git -C sub commit -q --allow-empty -m outside && echo committed");
	cr_expect(strstr(r.out, "committed"), "git outside: %s%s", r.out, r.err);
	run_free(&r);
	free(opts);
	free(sub);
	world_free(&w);
}

/* vim's project files (run by a vim whose ~/.vimrc sets exrc) and
 * lazygit's per-repository config (its pager runs as it opens): a .vimrc,
 * an .exrc and a .git/lazygit.yml made inside are moved aside as the
 * session ends, and vim outside runs nothing planted (round 8). Control:
 * the same plant made outside, and vim runs it. */
static const char exrc_plant[] =
	"echo \"call writefile([], '$M-exrc')\" > .exrc; echo exrc $?\n"
	"echo \"call writefile([], '$M-vimrc')\" > .vimrc; echo vimrc $?\n"
	"printf 'git:\\n  paging:\\n    pager: touch %s\\n' \"$M-lazygit\" > .git/lazygit.yml; "
	"echo lazygit $?\n";

static void vim_outside(struct world *w)
{
	/* (Not vim -Es, nor -u: both skip the project's files.) */
	struct run_result r =
		sh_outside(w, "TERM=dumb vim --not-a-term -c q </dev/null >/dev/null 2>&1; true");
	run_free(&r);
}

BOTH_USERS(guards, vim_project_files_and_lazygit_config_are_kept, .timeout = 60)
{
	struct world w;
	exrc_world(&w, who, "gexrc");
	cr_assert(file_exists("/usr/bin/vim"), "vim is not installed (scripts/setup installs it)");
	world_give(&w);
	char *script = plant(&w, "deny", "", exrc_plant);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "exrc 0"), "the session could not make .exrc\n%s", diag);
	cr_expect_not(present(w.proj, ".exrc"), ".exrc made inside stayed\n%s", diag);
	cr_expect_not(present(w.proj, ".vimrc"), ".vimrc made inside stayed\n%s", diag);
	cr_expect_not(present(w.proj, ".git/lazygit.yml"), ".git/lazygit.yml stayed\n%s", diag);
	run_free(&r);
	vim_outside(&w);
	cr_expect_not(marked(&w, "deny", "exrc") || marked(&w, "deny", "vimrc"),
		      "vim outside ran the plant\n%s", diag);
	free(diag);
	free(script);
	/* Control. */
	r = sh_outside(&w, "rm -f .exrc* .vimrc* .git/lazygit.yml*");
	run_free(&r);
	script = plant(&w, "ctl", "", exrc_plant);
	r = sh_outside(&w, script);
	expect_all_landed((const char *const[]){"exrc", "vimrc", "lazygit", NULL}, &r, "outside");
	run_free(&r);
	vim_outside(&w);
	cr_expect(marked(&w, "ctl", "vimrc"), "control: vim outside did not run .vimrc");
	free(script);
	world_free(&w);
}

/* ~/.local/bin, on PATH outside, holding links: one to a tool kept
 * elsewhere in the home (~/tools/foo/bin/foo) stays read-only with the
 * home writable, and under --project ~ (round 13: written, then run
 * outside); one into the project is the project's own code, writable,
 * unless the project is the home. Control: outside, both are written. */
BOTH_USERS(guards, what_local_bin_links_lead_to_is_kept_in_a_writable_home, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "localbin", ", \"additional_read_write_paths\": [\"~\"]");
	free(write_file(w.home, "tools/foo/bin/foo", "#!/bin/sh\necho foo\n"));
	free(write_file(w.proj, "bin/bar", "#!/bin/sh\necho bar\n"));
	free(write_file(w.home, ".local/bin/.keep", ""));
	char *foo = at(w.home, ".local/bin/foo"), *bar = at(w.home, ".local/bin/bar");
	char *foo_to = at(w.home, "tools/foo/bin/foo"), *bar_to = at(w.proj, "bin/bar");
	cr_assert(symlink(foo_to, foo) == 0 && symlink(bar_to, bar) == 0);
	world_give(&w);
	give_links(who, (const char *const[]){foo, bar, NULL});
	const char *plant = "echo 'echo evil' >> ~/.local/bin/foo; echo foo $?; "
			    "echo 'echo mine' >> ~/.local/bin/bar; echo bar $?";
	struct run_result r = sh_in(&w, NULL, "%s", plant);
	char *now = content(w.home, "tools/foo/bin/foo");
	cr_expect_str_eq(now, "#!/bin/sh\necho foo\n", "~ granted: the tool was written: %s%s",
			 r.out, r.err);
	free(now);
	cr_expect(strstr(r.out, "bar 0"),
		  "~ granted: the project's own script was not writable: %s%s", r.out, r.err);
	run_free(&r);
	char *opts = fmt("-p %s", w.home);
	r = sh_in(&w, opts, "%s", plant);
	cr_expect(strstr(r.out, "foo "), "--project ~ did not run: %d %s%s", r.status, r.out,
		  r.err);
	now = content(w.home, "tools/foo/bin/foo");
	cr_expect_str_eq(now, "#!/bin/sh\necho foo\n", "--project ~: the tool was written: %s%s",
			 r.out, r.err);
	free(now);
	now = content(w.proj, "bin/bar");
	cr_expect_str_eq(now, "#!/bin/sh\necho bar\necho mine\n",
			 "--project ~: the project's script was written: %s%s", r.out, r.err);
	free(now);
	run_free(&r);
	r = sh_outside(&w, plant);
	now = content(w.home, "tools/foo/bin/foo");
	cr_expect_str_eq(now, "#!/bin/sh\necho foo\necho evil\n", "control: outside: %s", r.err);
	free(now);
	run_free(&r);
	free(opts), free(foo), free(bar), free(foo_to), free(bar_to);
	world_free(&w);
}

/* Tools installed into the home run from environments there: pipx's venv
 * (~/.local/share/pipx/venvs/NAME, ~/.local/pipx with Debian's pipx 1.1),
 * uv's tools and Pythons, poetry's installer and bun's global packages;
 * ~/.local/bin links to each console script. That script imports the
 * tool's module, which runs outside at the next call (round 37a: edited
 * in a --project ~ session, it did). None of those is written, nor the
 * module of a venv of the user's elsewhere in the home that a link in
 * ~/.local/bin leads into, and the directory of a script one leads to
 * (37d F2); the rest of the home is. Control: outside, each is written. */
static const char *const tool_modules[] = {
	".local/share/pipx/venvs/mytool/lib/python3/site-packages/mytool.py",
	".local/pipx/venvs/old/lib/python3/site-packages/old.py",
	".local/share/uv/tools/ut/lib/python3/site-packages/ut.py",
	".local/share/uv/python/cpython-3.12/lib/python3.12/os.py",
	".local/share/pypoetry/venv/lib/python3/site-packages/poetry.py",
	".bun/install/global/node_modules/bt/index.js",
	"tools/venv/lib/python3/site-packages/t.py",
	"tools/plain/helper.py",
	".cache/uv/archive-v0/abc/ut/__init__.py",
	NULL};

BOTH_USERS(guards, what_local_bin_tools_run_from_is_kept_in_a_writable_home, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "localvenv", "");
	char *plant = strdup("");
	for (size_t i = 0; tool_modules[i]; i++) {
		free(write_file(w.home, tool_modules[i], "print('tool')\n"));
		char *more =
			fmt("%secho 'print(1)' >> ~/%s; echo %zu=$?\n", plant, tool_modules[i], i);
		free(plant);
		plant = more;
	}
	static const char *const venvs[] = {".local/share/pipx/venvs/mytool", "tools/venv"};
	static const char *const tools[] = {"mytool", "t"};
	char *links[4] = {NULL};
	free(write_file(w.home, ".local/bin/.keep", ""));
	for (size_t i = 0; i < 2; i++) {
		char *cfg = fmt("%s/pyvenv.cfg", venvs[i]),
		     *script = fmt("%s/bin/%s", venvs[i], tools[i]);
		free(write_file(w.home, cfg, "home = /usr/bin\n"));
		free(write_file(w.home, script, "#!/usr/bin/python3\nfrom x import main\n"));
		char *to = at(w.home, script);
		links[i] = fmt("%s/.local/bin/%s", w.home, tools[i]);
		cr_assert(symlink(to, links[i]) == 0, "%s", links[i]);
		free(to), free(cfg), free(script);
	}
	/* A script in no environment: Python imports its sibling modules
	 * (round 37d F2). */
	char *plain = at(w.home, "tools/plain/tool.py");
	free(write_file(w.home, "tools/plain/tool.py", "#!/usr/bin/python3\nimport helper\n"));
	links[2] = fmt("%s/.local/bin/ptool", w.home);
	cr_assert(symlink(plain, links[2]) == 0, "%s", links[2]);
	free(plain);
	free(write_file(w.home, "work/notes.txt", "notes\n"));
	world_give(&w);
	give_links(who, (const char *const *)links);
	char *opts = fmt("-p %s", w.home);
	struct run_result r = sh_in(&w, opts, "%secho x >> ~/work/notes.txt; echo notes=$?", plant);
	cr_assert(strstr(r.out, "notes=0"), "control: --project ~ did not write the home: %d %s%s",
		  r.status, r.out, r.err);
	for (size_t i = 0; tool_modules[i]; i++) {
		char *now = content(w.home, tool_modules[i]);
		cr_expect_str_eq(now, "print('tool')\n", "--project ~: ~/%s was written: %s%s",
				 tool_modules[i], r.out, r.err);
		free(now);
	}
	run_free(&r);
	r = sh_outside(&w, plant);
	for (size_t i = 0; tool_modules[i]; i++) {
		char *now = content(w.home, tool_modules[i]);
		cr_expect_str_eq(now, "print('tool')\nprint(1)\n", "control: outside, ~/%s: %s",
				 tool_modules[i], r.err);
		free(now);
	}
	run_free(&r);
	free(opts), free(plant), free(links[0]), free(links[1]), free(links[2]);
	world_free(&w);
}

/* The same files in a subdirectory, which vim runs when it starts there
 * (round 9: web/.exrc made inside ran): one made inside, one changed in
 * place in a directory the last walk recorded, and one in a directory
 * made inside are moved aside as the session ends, and vim outside in
 * each runs nothing; the user's own, unchanged, stays. Control: the same
 * plants made outside run. */
static const char sub_exrc_plant[] =
	"echo \"call writefile([], '$M-new')\" > docs/.exrc; echo new $?\n"
	"echo \"call writefile([], '$M-changed')\" >> web/.exrc; echo changed $?\n"
	"mkdir -p made/d && echo \"call writefile([], '$M-made')\" > made/d/.vimrc; echo made $?\n";

static void vim_in(struct world *w, const char *dir)
{
	char *cmd = fmt("cd %s && TERM=dumb vim --not-a-term -c q </dev/null >/dev/null 2>&1; true",
			dir);
	struct run_result r = sh_outside(w, cmd);
	run_free(&r);
	free(cmd);
}

BOTH_USERS(guards, vim_project_files_in_subdirectories_are_moved_aside, .timeout = 90)
{
	static const char *const dirs[] = {"docs", "web", "made/d", "keep"};
	struct world w;
	exrc_world(&w, who, "gsubexrc");
	cr_assert(file_exists("/usr/bin/vim"), "vim is not installed (scripts/setup installs it)");
	free(write_file(w.proj, "web/.exrc", "set tabstop=4\n"));
	free(write_file(w.proj, "keep/.exrc", "set tabstop=2\n"));
	free(write_file(w.proj, "docs/README", "docs\n"));
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	let_time_pass();
	char *script = plant(&w, "deny", "", sub_exrc_plant);
	r = sh_in(&w, NULL, "%s", script);
	expect_all_landed((const char *const[]){"new", "changed", "made", NULL}, &r, "inside");
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect_not(present(w.proj, "docs/.exrc"), "docs/.exrc stayed\n%s", diag);
	cr_expect_not(present(w.proj, "web/.exrc"), "web/.exrc stayed\n%s", diag);
	cr_expect_not(present(w.proj, "made/d/.vimrc"), "made/d/.vimrc stayed\n%s", diag);
	cr_expect(present(w.proj, "keep/.exrc"), "the user's own .exrc was moved\n%s", diag);
	cr_expect(strstr(r.err, "web/.exrc"), "not said\n%s", diag);
	run_free(&r);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		vim_in(&w, dirs[i]);
	cr_expect_not(marked(&w, "deny", "new") || marked(&w, "deny", "changed") ||
			      marked(&w, "deny", "made"),
		      "vim outside ran the plant\n%s", diag);
	free(diag);
	free(script);
	/* Control. */
	r = sh_outside(&w,
		       "rm -f docs/.exrc* web/.exrc* made/d/.vimrc*; echo 'set ts=4' > web/.exrc");
	run_free(&r);
	script = plant(&w, "ctl", "", sub_exrc_plant);
	r = sh_outside(&w, script);
	expect_all_landed((const char *const[]){"new", "changed", "made", NULL}, &r, "outside");
	run_free(&r);
	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		vim_in(&w, dirs[i]);
	cr_expect(marked(&w, "ctl", "new") && marked(&w, "ctl", "changed") &&
			  marked(&w, "ctl", "made"),
		  "control: vim outside did not run each");
	free(script);
	world_free(&w);
}
/* oh-my-zsh's dotenv plugin exports the .env of each directory its allow
 * list names, whatever it holds now (round 27: a PROMPT with a command,
 * GIT_CONFIG_* naming an fsmonitor, CORDON_CONFIG). The listed
 * directories' .env is kept: the project's read-only, a missing one in
 * a listed subdirectory moved aside as it appears. zsh outside, with a
 * stand-in of the plugin (oh-my-zsh is no Debian package: its allow-list
 * check, then the .env sourced as its first versions did), runs nothing
 * planted as it enters each. Control: protected_paths []. */
static const char omz_plant[] = "echo \"X=\\$(touch $M-top)\" >> .env; echo top $?\n"
				"echo \"X=\\$(touch $M-sub)\" > sub/.env; echo sub $?\n";

/* W's world after its zsh setup: the plant made inside, then zsh run
 * outside entering the project and its sub/ (and, for the control,
 * with protected_paths []); SAID, if not NULL, is said as it starts. */
static void omz_enter_after_plant(struct world *w, const char *said)
{
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			struct run_result c = sh_outside(w, "rm -f sub/.env*; echo A=1 > .env");
			run_free(&c);
			set_config(w, ", \"protected_paths\": []");
		}
		char *script = plant(w, tags[ctl], "", omz_plant);
		struct run_result r = sh_in(w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "sub 0"), "the plant did not run\n%s", diag);
		cr_expect(ctl || !said || strstr(r.err, said), "not said\n%s", diag);
		run_free(&r);
		char *enter = fmt("zsh -ic 'cd %s; cd %s/sub' </dev/null >/dev/null 2>&1; true",
				  w->proj, w->proj);
		r = sh_outside(w, enter);
		run_free(&r);
		bool top = marked(w, tags[ctl], "top"), sub = marked(w, tags[ctl], "sub");
		if (ctl)
			cr_expect(top && sub, "control: zsh outside did not run them (%d%d)\n%s",
				  top, sub, diag);
		else
			cr_expect(!top && !sub,
				  "zsh outside ran what the session planted (%d%d)\n%s", top, sub,
				  diag);
		free(enter), free(diag), free(script);
	}
}

BOTH_USERS(guards, what_oh_my_zshs_dotenv_plugin_exports_is_kept, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "omzenv");
	char *list = fmt("%s\n%s/sub\n", w.proj, w.proj);
	free(write_file(w.home, ".oh-my-zsh/cache/dotenv-allowed.list", list));
	free(write_file(
		w.home, ".zshrc",
		"chpwd() { grep -Fxq \"${PWD:A}\" ~/.oh-my-zsh/cache/dotenv-allowed.list && "
		"[ -f .env ] && { set -a; source ./.env; set +a; }; }\n"));
	free(write_file(w.proj, ".env", "A=1\n"));
	free(write_file(w.proj, "sub/README", "sub\n"));
	world_give(&w);
	omz_enter_after_plant(&w, NULL);
	free(list);
	world_free(&w);
}

/* aider reads the git root's .env as its settings (round 59b F5:
 * AIDER_LINT_CMD runs after each edit, outside, where the user runs
 * aider): where aider is at work (~/.aider.conf.yml here), the project's
 * .env stays as it was, and one made inside is not left; named in a write
 * rule, it is the session's. Control: with no sign of aider, the write
 * lands. Judged from outside. */
BOTH_USERS(guards, the_env_aider_reads_is_kept_where_aider_works, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "aiderenv");
	free(write_file(w.proj, ".env", "A=1\n"));
	world_give(&w);
	static const char plant[] = "echo AIDER_LINT_CMD=touch-x >> .env; echo wrote $?";
	for (int aider = 0; aider < 2; aider++) {
		if (aider) {
			free(write_file(w.home, ".aider.conf.yml", "model: x\n"));
			world_give(&w);
		}
		struct run_result r = sh_in(&w, NULL, "%s", plant);
		char *now = content(w.proj, ".env");
		if (aider)
			cr_expect(now && strcmp(now, "A=1\n") == 0,
				  "the .env aider reads was written: %s\n%s%s",
				  now ? now : "(gone)", r.out, r.err);
		else
			cr_expect(now && strstr(now, "AIDER_LINT_CMD"),
				  "control: no aider, and the .env was not written\n%s%s", r.out,
				  r.err);
		free(now);
		run_free(&r);
		r = outside(&w, "printf 'A=1\\n' > .env");
		run_free(&r);
	}
	/* Named in a write rule: the session's. */
	char *opt = fmt("--allow-write %s/.env", w.proj);
	struct run_result r = sh_in(&w, opt, "%s", plant);
	char *now = content(w.proj, ".env");
	cr_expect(now && strstr(now, "AIDER_LINT_CMD"), "named, not written\n%s%s", r.out, r.err);
	free(now);
	run_free(&r);
	free(opt);
	world_free(&w);
}

/* The same plugin told not to ask (ZSH_DOTENV_PROMPT=false in ~/.zshrc):
 * it exports the .env of every directory entered. The project's .env is
 * kept read-only, one made in a subdirectory is moved aside as the
 * session ends, and that is said as it starts. zsh outside, with a
 * stand-in of the plugin sourcing every .env, runs nothing planted.
 * Control: protected_paths []. */
BOTH_USERS(guards, oh_my_zshs_dotenv_told_not_to_ask_exports_nothing_planted, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "omzoff");
	free(write_file(w.home, ".zshrc",
			"  export ZSH_DOTENV_PROMPT='false'\n"
			"chpwd() { [ -f .env ] && { set -a; source ./.env; set +a; }; }\n"));
	free(write_file(w.proj, ".env", "A=1\n"));
	free(write_file(w.proj, "sub/README", "sub\n"));
	world_give(&w);
	omz_enter_after_plant(&w, "ZSH_DOTENV_PROMPT=false, in");
	world_free(&w);
}

/* The same for directories the user allows while a session runs (round
 * 27b: the list was read only as the session started): from then on a
 * .env made there is moved aside as it appears, and one the session had
 * already written is moved aside as the directory is allowed. zsh
 * outside, entering each after the plant and before the session ends,
 * runs nothing planted; also where the watch begins after the allow
 * (round 60c: a busy machine runs its thread late, and a directory
 * allowed after the policy was resolved but before the watch began was
 * taken for one the policy kept: nothing kept its .env). The session
 * waits for both to be moved aside, 10 s at most ($W steps of 0.05 s: a
 * fixed second was too little once, in CI with three builds beside, and
 * world_run ends the session at 20 s), the control 1 s as before; zsh
 * judges either way. Control: protected_paths []. */
static const char omz_plant_after[] =
	"echo \"X=\\$(touch $M-before)\" >> b/.env; echo before $?\n" WAIT_GO
	"echo \"X=\\$(touch $M-after)\" > a/.env; echo after $?\n"
	"i=0; while [ $i -lt $W ] && { [ -f a/.env ] || [ -f b/.env ]; }; do sleep 0.05; "
	"i=$((i+1)); done; echo waited $i; touch planted\n" WAIT_FOR("go2");

BOTH_USERS(guards, a_directory_oh_my_zsh_allows_while_it_runs_is_kept, .timeout = 120)
{
	struct world w;
	git_world(&w, who, "omzrun");
	free(write_file(w.home, ".oh-my-zsh/cache/dotenv-allowed.list", "/nowhere\n"));
	free(write_file(
		w.home, ".zshrc",
		"chpwd() { grep -Fxq \"${PWD:A}\" ~/.oh-my-zsh/cache/dotenv-allowed.list && "
		"[ -f .env ] && { set -a; source ./.env; set +a; }; }\n"));
	world_give(&w);
	char *allow_then_enter =
		fmt("printf '%%s/a\\n%%s/b\\n' %s %s >> ~/.oh-my-zsh/cache/dotenv-allowed.list; "
		    "touch %s/go; i=0; while [ ! -e %s/planted ] && [ $i -lt 400 ]; do sleep 0.05; "
		    "i=$((i+1)); done; zsh -ic 'cd %s/a; cd %s/b' </dev/null >/dev/null 2>&1; "
		    "touch %s/go2",
		    w.proj, w.proj, w.proj, w.proj, w.proj, w.proj, w.proj);
	const char *tags[] = {"deny", "deny-late", "ctl"};
	for (int round = 0; round < 3; round++) {
		bool ctl = round == 2;
		struct run_result r = outside(
			&w, "rm -rf a b planted go2 && mkdir a b && echo A=1 > b/.env && echo "
			    "/nowhere > ~/.oh-my-zsh/cache/dotenv-allowed.list");
		run_free(&r);
		let_time_pass();
		/* (The watch a second late: the allow, the plant before it and
		 * the one after are made before it begins.) */
		world_setenv(&w, round == 1 ? "CORDON_TEST_WATCH_LATE=1000"
					    : "CORDON_TEST_WATCH_LATE=");
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		char *script = plant(&w, tags[round], ctl ? "W=20" : "W=200", omz_plant_after);
		r = world_while_outside(&w, w.cfg, script, allow_then_enter);
		char *diag = fmt("%s (%d): %s%s", tags[round], r.status, r.out, r.err);
		expect_all_landed((const char *const[]){"before", "after", NULL}, &r, tags[round]);
		bool before = marked(&w, tags[round], "before"),
		     after = marked(&w, tags[round], "after");
		if (ctl)
			cr_expect(before && after,
				  "control: zsh outside did not run them (%d%d)\n%s", before, after,
				  diag);
		else
			cr_expect(!before && !after,
				  "zsh outside ran what the session planted (%d%d)\n%s", before,
				  after, diag);
		free(diag), free(script);
		run_free(&r);
	}
	struct run_result r = outside(&w, "rm -rf a b planted go2");
	run_free(&r);
	free(allow_then_enter);
	world_free(&w);
}

/* rbenv's .ruby-version (round 27: Debian 12's rbenv 1.1 takes
 * "../../x" for a version directory, so a prompt's ruby -v ran the
 * session's program): made at the top, it is moved aside as it appears;
 * made in a subdirectory, as the session ends. ruby -v outside, through
 * rbenv's shims, runs nothing planted in either. Control:
 * protected_paths []. */
static const char ruby_plant[] =
	"mkdir -p .r/bin sub && printf '#!/bin/sh\\ntouch %s\\n' \"$M-ruby\" > .r/bin/ruby && "
	"chmod +x .r/bin/ruby; V=../../../../../../../../../../../..$PWD/.r\n"
	"echo \"$V\" > .ruby-version; echo top $?\n"
	"echo \"$V\" > sub/.ruby-version; echo sub $?\n";

BOTH_USERS(guards, an_rbenv_version_file_made_inside_runs_nothing, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "rbenv");
	cr_assert(file_exists("/usr/bin/rbenv"), "rbenv is not installed (scripts/setup does)");
	free(write_file(w.home, ".rbenv/versions/3.2.0/bin/ruby", "#!/bin/sh\necho ruby 3.2.0\n"));
	world_give(&w);
	struct run_result r = outside(&w, "chmod +x ~/.rbenv/versions/3.2.0/bin/ruby && "
					  "RBENV_ROOT=~/.rbenv rbenv global 3.2.0 && "
					  "RBENV_ROOT=~/.rbenv rbenv rehash");
	run_free(&r);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = sh_outside(&w, "rm -rf .r sub .ruby-version*");
			run_free(&r);
			set_config(&w, ", \"protected_paths\": []");
		}
		char *script = plant(&w, tags[ctl], "", ruby_plant);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		expect_all_landed((const char *const[]){"top", "sub", NULL}, &r, tags[ctl]);
		run_free(&r);
		r = sh_outside(&w, "export RBENV_ROOT=~/.rbenv; eval \"$(rbenv init - sh)\"; "
				   "ruby -v; (cd sub && ruby -v); true");
		char *ran = fmt("%s\noutside: %s%s", diag, r.out, r.err);
		cr_expect(strstr(r.out, "ruby 3.2.0") || ctl, "rbenv did not run at all\n%s", ran);
		cr_expect(marked(&w, tags[ctl], "ruby") == (ctl == 1), "%s\n%s",
			  ctl ? "control: ruby -v outside ran nothing planted"
			      : "ruby -v outside ran the program .ruby-version named",
			  ran);
		run_free(&r);
		free(ran), free(diag), free(script);
	}
	world_free(&w);
}

/* Mercurial's repository config (round 27: hg status outside ran a hook
 * the session wrote in .hg/hgrc): at the top, made inside, it is moved
 * aside as it appears; below it, the .hg of a repository made inside
 * with one, of the user's own whose hgrc the session changed, and one
 * laid as a link to, or moved into place from, a config an earlier
 * session left (round 27b), is moved aside as the session ends, while
 * one made without a config stays. hg outside in each runs nothing, and the user's own repository
 * at the top keeps working inside. Control: protected_paths []. */
static const char hg_plant[] =
	"hg init . && printf '[hooks]\\npre-status = touch %s\\n' \"$M-top\" > .hg/hgrc; "
	"echo top $?\n"
	"hg init sub && printf '[hooks]\\npre-status = touch %s\\n' \"$M-sub\" > sub/.hg/hgrc; "
	"echo sub $?\n"
	"printf '[hooks]\\npre-status = touch %s\\n' \"$M-mine\" >> mine/.hg/hgrc; echo mine $?\n"
	"hg init clean; echo clean $?\n"
	"mkdir lnk && ln -s ../stash lnk/.hg; echo link $?\n"
	"mkdir moved && mv old/.hg moved/.hg; echo moved $?\n";
static const char hg_reset[] =
	"rm -rf .hg sub clean mine lnk moved stash old && hg init mine && "
	"printf '[ui]\\nusername = me\\n' > mine/.hg/hgrc && mkdir stash && hg init old && "
	"printf '[hooks]\\npre-status = touch %s/pwned-%s-link\\n' > stash/hgrc && "
	"printf '[hooks]\\npre-status = touch %s/pwned-%s-moved\\n' > old/.hg/hgrc";

BOTH_USERS(guards, mercurial_config_made_inside_runs_nothing, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "hgrc");
	cr_assert(file_exists("/usr/bin/hg"), "hg is not installed (scripts/setup installs it)");
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		/* (Older than the session: a config an earlier one left where
		 * hg did not look, linked to or moved into place now, round
		 * 27b.) */
		struct run_result r =
			outside(&w, hg_reset, w.outside, tags[ctl], w.outside, tags[ctl]);
		run_free(&r);
		let_time_pass();
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		char *script = plant(&w, tags[ctl], "", hg_plant);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		expect_all_landed(
			(const char *const[]){"top", "sub", "mine", "clean", "link", "moved", NULL},
			&r, tags[ctl]);
		run_free(&r);
		r = sh_outside(&w, "for d in . sub mine clean lnk moved; do (cd $d && hg status "
				   ">/dev/null 2>&1); done; true");
		run_free(&r);
		static const char *const steps[] = {"top", "sub", "mine", "link", "moved"};
		for (size_t i = 0; i < sizeof(steps) / sizeof(*steps); i++)
			cr_expect(marked(&w, tags[ctl], steps[i]) == (ctl == 1), "%s: %s\n%s",
				  ctl ? "control: hg outside did not run it"
				      : "hg outside ran the config made inside",
				  steps[i], diag);
		if (!ctl)
			cr_expect(present(w.proj, "sub/.hg.cordon-disarmed") &&
					  present(w.proj, "mine/.hg.cordon-disarmed") &&
					  present(w.proj, "clean/.hg"),
				  "moved aside, or not, wrongly\n%s", diag);
		free(diag), free(script);
	}
	world_free(&w);
}

/* The same put back by a session that started after the plant and
 * before the planting session's end moved it aside (round 27d: its own
 * start record knew that very inode, so the one put back was not new):
 * moved aside again as that session ends. The user's own nested
 * repositories, whose hooks and config the planting session wrote.
 * Control: protected_paths [] (nothing is moved; git and hg run it). */
static const char nested_plant[] =
	"printf '#!/bin/sh\\ntouch %s\\n' \"$M-git\" > sub/.git/hooks/post-checkout && "
	"chmod +x sub/.git/hooks/post-checkout; echo git $?\n"
	"printf '[hooks]\\npre-status = touch %s\\n' \"$M-hg\" > h/.hg/hgrc; echo hg $?\n";

BOTH_USERS(guards, a_repository_moved_back_by_an_earlier_session_is_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "earlyback");
	struct run_result r = outside(
		&w, "git init -q sub && git -C sub commit -q --allow-empty -m i && hg init h");
	run_free(&r);
	r = sh_in(&w, NULL, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	let_time_pass();
	/* (The mover: started once the plant is made, it waits for the
	 * planting session's end to move both aside, and puts them back.) */
	char *mover = fmt(
		"sleep 1.1; %s run --config %s --project %s -- sh -c 'i=0; while { [ ! -e "
		"sub/.git.cordon-disarmed ] || [ ! -e h/.hg.cordon-disarmed ]; } && [ $i -lt 200 ]; "
		"do sleep 0.05; i=$((i+1)); done; mv sub/.git.cordon-disarmed sub/.git; mv "
		"h/.hg.cordon-disarmed h/.hg' >/dev/null 2>&1 & sleep 1; touch %s/go; wait",
		w.as_user ? w.user_cordon : CORDON_BIN, w.cfg, w.proj, w.proj);
	char *body = fmt("%s%s", nested_plant, WAIT_GO);
	char *script = plant(&w, "deny", "", body);
	r = world_while_outside(&w, w.cfg, script, mover);
	char *diag = fmt("planting session (%d): %s%s", r.status, r.out, r.err);
	expect_all_landed((const char *const[]){"git", "hg", NULL}, &r, "deny");
	run_free(&r);
	r = sh_outside(&w, "(cd sub && git checkout -q -b x) >/dev/null 2>&1; (cd h && hg status) "
			   ">/dev/null 2>&1; true");
	run_free(&r);
	bool git = marked(&w, "deny", "git"), hg = marked(&w, "deny", "hg");
	cr_expect(!git && !hg, "git or hg outside ran a repository put back (%d%d)\n%s", git, hg,
		  diag);
	free(diag), free(script);
	/* Control. */
	r = outside(&w, "rm -rf sub h && git init -q sub && git -C sub commit -q --allow-empty -m "
			"i && hg init h");
	run_free(&r);
	set_config(&w, ", \"protected_paths\": []");
	script = plant(&w, "ctl", "", nested_plant);
	r = sh_in(&w, NULL, "%s", script);
	expect_all_landed((const char *const[]){"git", "hg", NULL}, &r, "protected_paths []");
	run_free(&r);
	r = sh_outside(&w, "(cd sub && git checkout -q -b x) >/dev/null 2>&1; (cd h && hg status) "
			   ">/dev/null 2>&1; true");
	run_free(&r);
	cr_expect(marked(&w, "ctl", "git") && marked(&w, "ctl", "hg"),
		  "control: git and hg outside did not run them");
	free(script), free(body), free(mover);
	world_free(&w);
}

/* What Mercurial's config includes (round 27c: %include ../hgrc.team, a
 * file of the project, was writable, and hg status outside ran the hook
 * written there; 27d: a nested repository's include, ~/.hgrc's, and an
 * hgrc starting with a byte-order mark, its lines ended by \r): the
 * project's top hgrc's and ~/.hgrc's includes are read-only inside, one
 * missing (hg skips it) stands in as an empty file, and a nested
 * repository whose include the session wrote is moved aside as it
 * ends. hg outside runs nothing planted. Control: protected_paths []
 * (~/.hgrc's include stays read-only, a dotfile's: the same plant made
 * outside). */
static const char hg_include_plant[] =
	"printf '[hooks]\\npre-status.team = touch %s\\n' \"$M-team\" >> hgrc.team; "
	"echo team $?\n"
	"printf '[hooks]\\npre-status.missing = touch %s\\n' \"$M-missing\" > "
	".hg/missing.rc; echo missing $?\n"
	"printf '[hooks]\\npre-status.nest = touch %s\\n' \"$M-nest\" >> nest/nest.team; "
	"echo nest $?\n"
	"printf '[hooks]\\npre-status.home = touch %s\\n' \"$M-home\" >> hgrc.home; "
	"echo home $?\n";
static const char hg_include_setup[] =
	"rm -rf .hg nest hgrc.team hgrc.home && hg init . && "
	"printf '\\357\\273\\277%%%%include ../hgrc.team\\r%%%%include missing.rc\\n' > "
	".hg/hgrc && echo '[ui]' > hgrc.team && hg init nest && "
	"printf '%%%%include ../nest.team\\n' > nest/.hg/hgrc && echo '[ui]' > nest/nest.team && "
	"echo '[ui]' > hgrc.home && printf '%%%%include %s/hgrc.home\\n' > ~/.hgrc";

BOTH_USERS(guards, what_mercurials_config_includes_runs_nothing_planted, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "hginc");
	static const char *const steps[] = {"team", "missing", "nest", "home", NULL};
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		struct run_result r = outside(&w, hg_include_setup, w.proj);
		run_free(&r);
		let_time_pass();
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		char *script = plant(&w, tags[ctl], "", hg_include_plant);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		if (ctl) {
			expect_all_landed((const char *const[]){"team", "missing", "nest", NULL},
					  &r, "protected_paths []");
			struct run_result o = sh_outside(&w, script);
			run_free(&o);
		} else
			cr_expect(strstr(r.out, "nest 0"), "the nested include was not written\n%s",
				  diag);
		run_free(&r);
		r = sh_outside(&w, "hg status >/dev/null 2>&1; (cd nest && hg status) >/dev/null "
				   "2>&1; true");
		run_free(&r);
		for (size_t i = 0; steps[i]; i++)
			cr_expect(marked(&w, tags[ctl], steps[i]) == (ctl == 1), "%s: %s\n%s",
				  ctl ? "control: hg outside did not run it"
				      : "hg outside ran what the session wrote in an include",
				  steps[i], diag);
		free(diag), free(script);
	}
	world_free(&w);
}

/* A repository the sweep moved aside, moved back by the next session
 * (round 27c: the record kept the inode it had seen there, so the one
 * put back was not new, and its hooks' times were old; git checkout
 * and hg status outside ran them): moved aside again. The user's own
 * move back, outside between sessions, is left. Control:
 * protected_paths [] (nothing is moved, and both run). */
static const char back_plant[] =
	"git init -q sub && git -C sub commit -q --allow-empty -m i && "
	"printf '#!/bin/sh\\ntouch %s\\n' \"$M-git\" > "
	"sub/.git/hooks/post-checkout && chmod +x sub/.git/hooks/post-checkout; echo git $?\n"
	"hg init h && printf '[hooks]\\npre-status = touch %s\\n' \"$M-hg\" > h/.hg/hgrc; "
	"echo hg $?\n";
static const char back_move[] = "mv sub/.git.cordon-disarmed sub/.git; echo gitback $?\n"
				"mv h/.hg.cordon-disarmed h/.hg; echo hgback $?\n";

BOTH_USERS(guards, a_repository_moved_back_is_moved_aside_again, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "moveback");
	struct run_result r = sh_in(&w, NULL, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = sh_outside(&w, "rm -rf sub h");
			run_free(&r);
			set_config(&w, ", \"protected_paths\": []");
		}
		let_time_pass();
		char *script = plant(&w, tags[ctl], "", back_plant);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		expect_all_landed((const char *const[]){"git", "hg", NULL}, &r, tags[ctl]);
		run_free(&r);
		if (!ctl) {
			cr_assert(present(w.proj, "sub/.git.cordon-disarmed") &&
					  present(w.proj, "h/.hg.cordon-disarmed"),
				  "the first session's repositories were not moved aside\n%s",
				  diag);
			let_time_pass();
			r = sh_in(&w, NULL, "%s", back_move);
			free(diag);
			diag = fmt("back (%d): %s%s", r.status, r.out, r.err);
			expect_all_landed((const char *const[]){"gitback", "hgback", NULL}, &r,
					  "moved back");
			run_free(&r);
		}
		r = sh_outside(&w, "(cd sub && git checkout -q -b x) >/dev/null 2>&1; (cd h && hg "
				   "status) >/dev/null 2>&1; true");
		run_free(&r);
		bool git = marked(&w, tags[ctl], "git"), hg = marked(&w, tags[ctl], "hg");
		if (ctl)
			cr_expect(git && hg,
				  "control: git and hg outside did not run them (%d%d)\n%s", git,
				  hg, diag);
		else
			cr_expect(!git && !hg,
				  "git or hg outside ran a repository moved back (%d%d)\n%s", git,
				  hg, diag);
		if (!ctl) {
			/* The user moves them back outside, as the line says
			 * (having reviewed them): the next session leaves them. */
			r = sh_outside(&w, "mv sub/.git.cordon-disarmed sub/.git && mv "
					   "h/.hg.cordon-disarmed h/.hg");
			run_free(&r);
			let_time_pass();
			r = sh_in(&w, NULL, "%s", "true");
			cr_expect(present(w.proj, "sub/.git") && present(w.proj, "h/.hg"),
				  "the repositories the user moved back were moved aside again: "
				  "%s",
				  r.err);
			run_free(&r);
		}
		free(diag), free(script);
	}
	world_free(&w);
}

/* Protected names staged where the sweep does not judge (a dependency
 * directory) by one session, then moved into place with their directory
 * by a later one (round 27: their own change times stay old, so they
 * were taken for the user's; rustup and vim outside ran them): moved
 * aside as the mover ends, also where the record of the last walk could
 * not be read (round 27b made it past 256 MiB; a test-only bound here),
 * which is said. The user's own, in a directory the session wrote in,
 * stays. Control: protected_paths [] (vim runs the plant). */
static const char staged_plant[] =
	"mkdir -p vendor/tools node_modules/pkg/.vscode && "
	"echo \"call writefile([], '$M-staged')\" > vendor/tools/.exrc && "
	"echo '{}' > node_modules/pkg/.vscode/tasks.json; echo staged $?\n";
static const char staged_move[] = "mv vendor/tools tools && mv node_modules/pkg pkg && "
				  "echo x > keep/notes; echo moved $?\n";

BOTH_USERS(guards, protected_names_moved_in_with_their_directory_are_moved_aside, .timeout = 90)
{
	struct world w;
	exrc_world(&w, who, "gstaged");
	free(write_file(w.proj, "keep/.exrc", "set tabstop=2\n"));
	world_give(&w);
	const char *tags[] = {"deny", "big", "ctl"};
	for (int round = 0; round < 3; round++) {
		bool ctl = round == 2;
		if (round) {
			struct run_result c =
				sh_outside(&w, "rm -rf tools* pkg* vendor node_modules keep/notes");
			run_free(&c);
		}
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		char *script = plant(&w, tags[round], "", staged_plant);
		struct run_result r = sh_in(&w, NULL, "%s", script);
		cr_assert(strstr(r.out, "staged 0"), "%s: not staged: %s%s", tags[round], r.out,
			  r.err);
		run_free(&r);
		let_time_pass();
		/* (The record past a bound, as round 27b made it past 256 MiB.) */
		if (round == 1)
			world_setenv(&w, "CORDON_TEST_RECORD_MAX=16");
		r = sh_in(&w, NULL, "%s", staged_move);
		world_setenv(&w, "CORDON_TEST_RECORD_MAX=");
		char *diag = fmt("%s (%d): %s%s", tags[round], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "moved 0"), "not moved in\n%s", diag);
		cr_expect(round != 1 || strstr(r.err, "could not be read"),
			  "the unread record was not said\n%s", diag);
		run_free(&r);
		vim_in(&w, "tools");
		if (ctl) {
			cr_expect(marked(&w, tags[round], "staged"),
				  "control: vim outside ran nothing\n%s", diag);
		} else {
			cr_expect_not(marked(&w, tags[round], "staged"),
				      "vim outside ran the .exrc moved in\n%s", diag);
			cr_expect(present(w.proj, "tools/.exrc.cordon-disarmed") &&
					  present(w.proj, "pkg/.vscode.cordon-disarmed"),
				  "not moved aside\n%s", diag);
			/* (Without a record, the user's own in a directory the
			 * session wrote in is judged strictly too: said.) */
			cr_expect(round == 1 || present(w.proj, "keep/.exrc"),
				  "the user's own was moved\n%s", diag);
		}
		free(diag), free(script);
	}
	world_free(&w);
}

/* Round 32 F1: the record's index by path hash could be flooded (a
 * session made 131,072 directories whose paths shared one hash, and each
 * later session's end took 112 s). The hash is keyed now, and a record
 * far from its hash's slot gives the index up for the binary search.
 * That fallback, forced in a test build (every path one hash), still
 * reads the record right: a .exrc planted in a directory of a tree the
 * last walk recorded is moved aside, and the user's own in another
 * recorded directory stays. Control: protected_paths [] (vim runs the
 * plant). */
BOTH_USERS(guards, a_record_whose_paths_all_collide_is_still_read_right, .timeout = 90)
{
	struct world w;
	exrc_world(&w, who, "gflood");
	free(write_file(w.proj, "keep/deep/a/b/.exrc", "set tabstop=2\n"));
	world_give(&w);
	struct run_result r = outside(&w, "for i in $(seq 200); do mkdir -p d$i/sub/x; done");
	cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
	run_free(&r);
	world_setenv(&w, "CORDON_TEST_PATH_HASH=same");
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		r = sh_in(&w, NULL, "true"); /* (the record of the tree) */
		run_free(&r);
		let_time_pass();
		char *script = plant(&w, tags[ctl], "",
				     "echo \"call writefile([], '$M-flood')\" > d150/sub/x/.exrc; "
				     "echo planted $?\n");
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "planted 0"), "the plant did not land\n%s", diag);
		vim_in(&w, "d150/sub/x");
		if (ctl) {
			cr_expect(marked(&w, tags[ctl], "flood"), "control: vim ran nothing\n%s",
				  diag);
		} else {
			cr_expect_not(marked(&w, tags[ctl], "flood"), "vim ran the plant\n%s",
				      diag);
			cr_expect(present(w.proj, "d150/sub/x/.exrc.cordon-disarmed"),
				  "not moved aside\n%s", diag);
			cr_expect(present(w.proj, "keep/deep/a/b/.exrc") && !strstr(r.err, "keep/"),
				  "the user's own .exrc was moved or named\n%s", diag);
		}
		run_free(&r);
		free(diag), free(script);
	}
	world_free(&w);
}

/* A second session in the same project, started and ended while the
 * first runs (every terminal opened there is one), does not clear the
 * first one's plant (round 27: its sweep recorded the plant, made before
 * it started, as the user's, and the first one's sweep then found it
 * unchanged; vim outside ran it). Control: protected_paths []. */
static const char plant_then_wait[] =
	"mkdir -p tools && echo \"call writefile([], '$M-race')\" > tools/.exrc; echo race $?\n" WAIT_GO;

BOTH_USERS(guards, another_session_ending_meanwhile_leaves_a_plant_judged, .timeout = 90)
{
	struct world w;
	exrc_world(&w, who, "grace");
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	let_time_pass();
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = sh_outside(&w, "rm -rf tools");
			run_free(&r);
			set_config(&w, ", \"protected_paths\": []");
		}
		/* (The other session: started once the plant is made, ended
		 * before this one.) */
		char *other =
			fmt("sleep 1.1; %s run --config %s --project %s -- true >/dev/null 2>&1",
			    w.as_user ? w.user_cordon : CORDON_BIN, w.cfg, w.proj);
		char *script = plant(&w, tags[ctl], "", plant_then_wait);
		r = world_while_outside(&w, w.cfg, script, other);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "race 0"), "the plant did not land\n%s", diag);
		run_free(&r);
		vim_in(&w, "tools");
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "race"),
				  "control: vim outside ran nothing\n%s", diag);
		else
			cr_expect_not(marked(&w, tags[ctl], "race"),
				      "vim outside ran the plant another session recorded\n%s",
				      diag);
		free(diag), free(script), free(other);
	}
	world_free(&w);
}

/* Two sessions in a project with no record yet (the first use of cordon
 * there; every project after a reboot where the records are on a tmpfs):
 * the first stages a .exrc where the sweep does not judge (node_modules)
 * and ends; the second, started before that end, moves the package into
 * place after it (round 27b F3a: the second judged from its own start,
 * the .exrc's times were older, and vim outside ran it). The second now
 * judges from the first's start: also when both start in the same second
 * (round 28 F1a), when the first was killed and a third session's sweep
 * took its mark away meanwhile (F1b), when the first's project is a
 * directory of the second's (F1c), and when the record there is one the
 * end would not read (of an earlier format: F1d). Control: protected_paths
 * []. */
enum overlap {
	OV_APART,
	OV_SAME_SECOND,
	OV_KILLED,
	OV_NESTED,
	OV_STALE,
	OV_NESTED_KILLED, /* the first, in a directory of the second's, killed (round 28b F2) */
	OV_OUTER_BEFORE,  /* the first, in the second's parent, ended before it started (F3) */
	OV_INNER_BEFORE,  /* the first, in a directory of the second's, ended before (F3) */
	OV_INNER_RUNNING, /* the same, with another session running there meanwhile (28c F2) */
};

/* Session I's body: (the first) stage the package at STAGE, or (the
 * last) move it from FROM to "sub", between "readyI" and "goI" in its
 * project. */
static char *overlap_body(const struct world *w, const char *tag, int i, bool last,
			  const char *stage, const char *from)
{
	char *body =
		i == 0 ? fmt("mkdir -p %s && echo \"call writefile([], '$M-first')\" > "
			     "%s/.exrc; echo staged $? > staged.out; touch ready0; while [ ! "
			     "-e go0 ]; do sleep 0.05; done\n",
			     stage, stage)
		: last ? fmt("touch ready%d; while [ ! -e go%d ]; do sleep 0.05; done; mv %s "
			     "sub; echo moved $? > moved.out\n",
			     i, i, from)
		       : fmt("touch ready%d; while [ ! -e go%d ]; do sleep 0.05; done\n", i, i);
	char *s = plant(w, tag, "", body);
	free(body);
	return s;
}

/* A record of an earlier format's at PROJ's record's path (W's user's). */
static void stale_record(struct world *w)
{
	char *record = cordon_sweep_record_path(w->proj);
	cr_assert_not_null(record);
	char *at = w->as_user
			   ? fmt("%s/.local/state/cordon/sessions%s", w->home, strrchr(record, '/'))
			   : strdup(record);
	char *dir = strdup(at);
	*strrchr(dir, '/') = '\0';
	struct run_result r = outside(w, "mkdir -p %s", dir);
	run_free(&r);
	char head[PATH_MAX + 64];
	int n = snprintf(head, sizeof(head), "cordon-sweep 5%c%s%c%lld%c0%c0%c0%c", 0, w->proj, 0,
			 (long long)time(NULL) - 60, 0, 0, 0, 0);
	FILE *f = fopen(at, "w");
	cr_assert_not_null(f, "%s: %s", at, strerror(errno));
	fwrite(head, 1, (size_t)n, f);
	fclose(f);
	if (w->as_user)
		cr_assert_eq(chown(at, w->uid, w->gid), 0);
	free(record), free(at), free(dir);
}

static void overlapping_first_sessions(const struct who *who, enum overlap how, bool ctl)
{
	static const char *const names[] = {"apart",   "second", "killed", "nested", "stale",
					    "nkilled", "outer",  "inner",  "irun"};
	bool nested = how == OV_NESTED || how == OV_NESTED_KILLED || how == OV_INNER_BEFORE ||
		      how == OV_INNER_RUNNING;
	bool killed = how == OV_KILLED || how == OV_NESTED_KILLED;
	bool outer = how == OV_OUTER_BEFORE;
	/* (The first ended before the next started.) */
	bool before = outer || how == OV_INNER_BEFORE || how == OV_INNER_RUNNING;
	struct world w;
	char *name = fmt("ov%s%s", names[how], ctl ? "c" : "");
	exrc_world(&w, who, name);
	free(write_file(w.proj, "inner/README", "inner\n"));
	world_give(&w);
	if (how == OV_STALE)
		stale_record(&w);
	char *tag = fmt("%s%s", names[how], ctl ? "-ctl" : "");
	if (ctl)
		set_config(&w, ", \"protected_paths\": []");
	int n = how == OV_KILLED || how == OV_INNER_RUNNING ? 3 : 2;
	pid_t pids[3];
	char *inner = path_join(w.proj, "inner");
	/* The first session's project, and the last one's. */
	const char *first = nested ? inner : w.proj, *last = outer ? inner : w.proj;
	const char *mid = how == OV_INNER_RUNNING ? inner : w.proj; /* a third one's */
	const char *stage = outer ? "inner/node_modules/pkg" : "node_modules/pkg";
	const char *from = nested ? "inner/node_modules/pkg" : "node_modules/pkg";
	for (int i = 0; i < n; i++) {
		char *body = overlap_body(&w, tag, i, i == n - 1, stage, from);
		const char *proj = i == 0 ? first : i == n - 1 ? last : mid;
		char *argv[] = {CORDON_BIN, "run",     "--config", w.cfg, "--project", (char *)proj,
				"--",       "/bin/sh", "-c",       body,  NULL};
		pids[i] = world_spawn(&w, argv, proj);
		char *ready = fmt("%s/ready%d", proj, i), *why;
		cr_assert(wait_started(pids[i], ready, 60000, &why),
			  "%s: session %d did not start: %s", tag, i, why);
		free(ready), free(body);
		if (i == 0 && how != OV_SAME_SECOND)
			let_time_pass(); /* (the next starts later) */
		int st;
		if (i == 0 && killed) { /* (its mark stays) */
			kill(pids[0], SIGKILL);
			waitpid(pids[0], &st, 0);
		}
		if (i == 0 && before) { /* (ended, and recorded, before the next) */
			struct run_result r = outside(&w, "touch %s/go0", first);
			run_free(&r);
			cr_assert_eq(waitpid(pids[0], &st, 0), pids[0]);
		}
	}
	/* Each ends in turn, the first's sweep recording the project (or, the
	 * first killed, the second's), the last moving the package in. */
	for (int i = killed || before; i < n; i++) {
		struct run_result r = outside(&w, "touch %s/go%d",
					      i == 0       ? first
					      : i == n - 1 ? last
							   : mid,
					      i);
		run_free(&r);
		int st;
		cr_assert_eq(waitpid(pids[i], &st, 0), pids[i]);
	}
	char *staged = path_join(first, "staged.out"), *moved = path_join(last, "moved.out");
	char *said[] = {slurp(staged), slurp(moved)};
	char *diag = fmt("%s: %s / %s", tag, said[0], said[1]);
	free(said[0]), free(said[1]);
	cr_assert(contains(staged, "staged 0") && contains(moved, "moved 0"),
		  "the plant did not land\n%s", diag);
	const char *sub = outer ? "inner/sub" : "sub";
	vim_in(&w, sub);
	if (ctl) {
		cr_expect(marked(&w, tag, "first"), "control: vim outside ran nothing\n%s", diag);
	} else {
		char *aside = fmt("%s/.exrc.cordon-disarmed", sub);
		cr_expect_not(marked(&w, tag, "first"),
			      "vim outside ran a .exrc the first session staged\n%s", diag);
		cr_expect(present(w.proj, aside), "not moved aside\n%s", diag);
		free(aside);
	}
	free(staged), free(moved), free(diag), free(inner), free(tag), free(name);
	world_free(&w);
}

BOTH_USERS(guards, a_plant_staged_by_an_overlapping_first_session_is_judged, .timeout = 120)
{
	overlapping_first_sessions(who, OV_APART, false);
	overlapping_first_sessions(who, OV_SAME_SECOND, false);
	overlapping_first_sessions(who, OV_APART, true);
}

BOTH_USERS(guards, a_plant_staged_by_an_overlapping_session_elsewhere_is_judged, .timeout = 120)
{
	overlapping_first_sessions(who, OV_KILLED, false);
	overlapping_first_sessions(who, OV_NESTED, false);
	overlapping_first_sessions(who, OV_STALE, false);
	overlapping_first_sessions(who, OV_NESTED, true);
}

BOTH_USERS(guards, a_plant_staged_by_a_session_above_or_below_is_judged, .timeout = 120)
{
	overlapping_first_sessions(who, OV_NESTED_KILLED, false);
	overlapping_first_sessions(who, OV_OUTER_BEFORE, false);
	overlapping_first_sessions(who, OV_INNER_BEFORE, false);
	overlapping_first_sessions(who, OV_INNER_RUNNING, false);
	overlapping_first_sessions(who, OV_INNER_BEFORE, true);
}

/* A session in a directory of another session's project keeps its
 * stand-ins (the empty directories made for missing protected names,
 * read-only inside) when the outer session ends: round 28 F4 saw the
 * outer one's sweep move all 17 aside, which said 17 lines, left 17
 * empty directories behind, and freed the names for the inner session to
 * make again, unguarded, while programs outside obeyed them. Judged from
 * outside: nothing moved aside, and the inner session's .vscode/tasks.json
 * is not there. Control: protected_paths [] (no stand-ins: it lands). */
static const char inner_plant[] = "touch ready1; while [ ! -e go1 ]; do sleep 0.05; done\n"
				  "mkdir -p .vscode; echo '{}' > .vscode/tasks.json; "
				  "echo planted $? > planted.out; touch done1\n"
				  "while [ ! -e go2 ]; do sleep 0.05; done\n";

BOTH_USERS(guards, an_outer_session_leaves_an_inner_ones_stand_ins, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gstandins");
	free(write_file(w.proj, "inner/README", "inner\n"));
	world_give(&w);
	char *inner = path_join(w.proj, "inner");
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			struct run_result c = outside(&w, "rm -rf inner/.vscode* inner/*.out");
			run_free(&c);
			set_config(&w, ", \"protected_paths\": []");
		}
		char *outer_argv[] = {
			CORDON_BIN,  "run",
			"--config",  w.cfg,
			"--project", w.proj,
			"--",        "/bin/sh",
			"-c",        "touch ready0; while [ ! -e go0 ]; do sleep 0.05; done",
			NULL};
		char *inner_argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--project",
				      inner,      "--",  "/bin/sh",  "-c",  (char *)inner_plant,
				      NULL};
		pid_t outer = world_spawn(&w, outer_argv, w.proj);
		char *ready0 = path_join(w.proj, "ready0"), *ready1 = path_join(inner, "ready1");
		char *done1 = path_join(inner, "done1");
		cr_assert(wait_exists(ready0, 20000), "the outer session did not start");
		pid_t in = world_spawn(&w, inner_argv, inner);
		cr_assert(wait_exists(ready1, 20000), "the inner session did not start");
		struct run_result r = outside(&w, "touch go0");
		run_free(&r);
		int st;
		cr_assert_eq(waitpid(outer, &st, 0), outer);
		r = sh_outside(&w, "ls -a inner | grep cordon-disarmed; true");
		char *aside = strdup(r.out);
		run_free(&r);
		r = outside(&w, "touch inner/go1");
		run_free(&r);
		cr_assert(wait_exists(done1, 20000), "the inner session did not go on");
		bool landed = present(inner, ".vscode/tasks.json");
		char *planted = path_join(inner, "planted.out");
		char *said = slurp(planted);
		r = outside(&w, "touch inner/go2");
		run_free(&r);
		cr_assert_eq(waitpid(in, &st, 0), in);
		if (ctl) {
			cr_expect(landed, "control: the inner session's plant did not land: %s",
				  said);
		} else {
			cr_expect_eq(aside[0], '\0', "the outer session moved aside: %s", aside);
			cr_expect_not(landed, "the inner session made .vscode again: %s", said);
		}
		r = outside(&w, "rm -f ready0 go0 inner/ready1 inner/go1 inner/go2 inner/done1");
		run_free(&r);
		free(aside), free(planted), free(said), free(ready0), free(ready1), free(done1);
	}
	free(inner);
	world_free(&w);
}

/* An empty file at a protected local name is judged as any other (round
 * 28b F1: left in place for being empty, its second name, a hard link in
 * a directory another session's sweep walks alone, was filled there
 * after, and vim outside ran it). Control: protected_paths []. */
BOTH_USERS(guards, an_empty_plant_filled_through_a_second_name_runs_nothing, .timeout = 60)
{
	struct world w;
	exrc_world(&w, who, "gempty");
	free(write_file(w.proj, "sub/README", "sub\n"));
	free(write_file(w.proj, "other/README", "other\n"));
	world_give(&w);
	char *other = path_join(w.proj, "other");
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			struct run_result c = outside(&w, "rm -f sub/.exrc* other/notes");
			run_free(&c);
			set_config(&w, ", \"protected_paths\": []");
		}
		struct run_result r =
			sh_in(&w, NULL, "%s",
			      ": > sub/.exrc && ln sub/.exrc other/notes; echo linked $?");
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "linked 0"), "not linked\n%s", diag);
		run_free(&r);
		char *body =
			plant(&w, tags[ctl], "",
			      "echo \"call writefile([], '$M-empty')\" > notes; echo filled $?");
		char *argv[] = {CORDON_BIN, "run",     "--config", w.cfg, "--project", other,
				"--",       "/bin/sh", "-c",       body,  NULL};
		r = world_run(&w, argv, other);
		cr_assert(strstr(r.out, "filled 0"), "not filled: %s%s", r.out, r.err);
		run_free(&r);
		vim_in(&w, "sub");
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "empty"),
				  "control: vim outside ran nothing\n%s", diag);
		else
			cr_expect_not(marked(&w, tags[ctl], "empty"),
				      "vim outside ran what the second name was filled with\n%s",
				      diag);
		free(diag), free(body);
	}
	free(other);
	world_free(&w);
}

/* A link the session lays to a directory where nothing is judged (a
 * package in node_modules) reaches what is there by its own name: round
 * 28c F3 staged a .exrc in node_modules/pkg and laid lib -> it, and vim
 * outside in lib ran it. The link is moved aside as the session ends.
 * Control: protected_paths []. */
BOTH_USERS(guards, a_link_laid_to_a_staged_package_runs_nothing, .timeout = 60)
{
	struct world w;
	exrc_world(&w, who, "glaid");
	free(write_file(w.outside, "co/.git/HEAD", "ref: refs/heads/main\n"));
	world_give(&w);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			struct run_result c = outside(&w, "rm -rf node_modules lib* co deep*");
			run_free(&c);
			set_config(&w, ", \"protected_paths\": []");
		}
		/* (And one to a checkout of the user's elsewhere, which the
		 * session could not write: left.) */
		char *vars = fmt("CO=%s/co", w.outside);
		char *script =
			plant(&w, tags[ctl], vars,
			      "mkdir -p node_modules/pkg && echo \"call writefile([], "
			      "'$M-laid')\" > node_modules/pkg/.exrc && ln -s node_modules/pkg "
			      "lib && ln -s \"$CO\" co; echo laid $?\n"
			      "mkdir -p node_modules/deep/a/b/c/d && echo \"call writefile([], "
			      "'$M-deep')\" > node_modules/deep/a/b/c/d/.exrc && ln -s "
			      "node_modules/deep deep; echo deep $?\n");
		free(vars);
		struct run_result r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "laid 0"), "the plant did not land\n%s", diag);
		run_free(&r);
		struct run_result v = sh_outside(
			&w,
			"cd lib 2>/dev/null && TERM=dumb vim --not-a-term -c q </dev/null >/dev/null 2>&1; true");
		run_free(&v);
		/* (Four levels down behind the link: round 28d.) */
		v = sh_outside(
			&w,
			"cd deep/a/b/c/d 2>/dev/null && TERM=dumb vim --not-a-term -c q </dev/null "
			">/dev/null 2>&1; true");
		run_free(&v);
		if (ctl) {
			cr_expect(marked(&w, tags[ctl], "laid") && marked(&w, tags[ctl], "deep"),
				  "control: vim outside ran nothing\n%s", diag);
		} else {
			cr_expect_not(marked(&w, tags[ctl], "laid") ||
					      marked(&w, tags[ctl], "deep"),
				      "vim outside ran what the laid link reached\n%s", diag);
			cr_expect(present(w.proj, "lib.cordon-disarmed"), "not moved aside\n%s",
				  diag);
			cr_expect(present(w.proj, "co"),
				  "the link to the user's checkout was moved\n%s", diag);
		}
		free(diag), free(script);
	}
	world_free(&w);
}

/* A directory moved in with its parent keeps its own old change time:
 * its listing is not the record's of the one it replaced (round 28c F1:
 * `mv x x.old; mv y x`, then x/src/lib/.exrc, where y/src/lib was
 * unknown to the record of x/src, was never walked, and vim outside ran
 * it). Control: protected_paths []. */
BOTH_USERS(guards, a_directory_swapped_in_below_a_moved_one_is_walked, .timeout = 60)
{
	struct world w;
	exrc_world(&w, who, "gswap");
	free(write_file(w.proj, "x/src/README", "x\n"));
	free(write_file(w.proj, "y/src/lib/README", "y\n"));
	world_give(&w);
	let_time_pass(); /* (older than the record: its listing is reused) */
	struct run_result r = sh_in(&w, NULL, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	let_time_pass();
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = outside(&w, "rm -rf x y && mv x.old x && mkdir -p y/src/lib");
			run_free(&r);
			set_config(&w, ", \"protected_paths\": []");
		}
		char *script = plant(&w, tags[ctl], "",
				     "mv x x.old && mv y x && echo \"call writefile([], "
				     "'$M-swap')\" > x/src/lib/.exrc; echo swapped $?\n");
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "swapped 0"), "the plant did not land\n%s", diag);
		run_free(&r);
		vim_in(&w, "x/src/lib");
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "swap"),
				  "control: vim outside ran nothing\n%s", diag);
		else
			cr_expect_not(marked(&w, tags[ctl], "swap"),
				      "vim outside ran a .exrc below a directory moved in\n%s",
				      diag);
		free(diag), free(script);
	}
	world_free(&w);
}

/* The same link laid by one session while the package is still empty,
 * and the .exrc made behind it by the next (round 28d F3: the link was
 * old by then, and its directory's listing the last walk's): the link is
 * recorded and looked at again each time; what was made behind it since
 * the start has it moved aside. A link of the user's own to a package
 * with a .exrc of its own, which the session left alone, stays. Control:
 * protected_paths []. */
BOTH_USERS(guards, a_link_laid_in_one_session_and_filled_in_the_next_runs_nothing, .timeout = 60)
{
	struct world w;
	exrc_world(&w, who, "glaid2");
	free(write_file(w.proj, "node_modules/tool/.exrc", "set tabstop=4\n"));
	world_give(&w);
	struct run_result r = outside(&w, "ln -s node_modules/tool tools");
	run_free(&r);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = outside(&w, "rm -rf node_modules/pkg lib*");
			run_free(&r);
			set_config(&w, ", \"protected_paths\": []");
		}
		r = sh_in(&w, NULL, "%s",
			  "mkdir -p node_modules/pkg && ln -s node_modules/pkg lib; "
			  "echo laid $?");
		cr_assert(strstr(r.out, "laid 0"), "not laid: %s%s", r.out, r.err);
		cr_assert(present(w.proj, "lib"), "the empty package's link was moved: %s", r.err);
		run_free(&r);
		let_time_pass();
		char *script =
			plant(&w, tags[ctl], "",
			      "echo \"call writefile([], '$M-later')\" > node_modules/pkg/.exrc; "
			      "echo filled $?\n");
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "filled 0"), "the plant did not land\n%s", diag);
		run_free(&r);
		struct run_result v = sh_outside(
			&w,
			"cd lib 2>/dev/null && TERM=dumb vim --not-a-term -c q </dev/null >/dev/null 2>&1; true");
		run_free(&v);
		if (ctl) {
			cr_expect(marked(&w, tags[ctl], "later"),
				  "control: vim outside ran nothing\n%s", diag);
		} else {
			cr_expect_not(marked(&w, tags[ctl], "later"),
				      "vim outside ran what was made behind an older link\n%s",
				      diag);
			cr_expect(present(w.proj, "tools"), "the user's own link was moved\n%s",
				  diag);
		}
		free(diag), free(script);
	}
	world_free(&w);
}

/* The other protected names in a subdirectory, which an editor, an agent
 * or a tool opened on it or started there obeys (round 10: VS Code's
 * tasks, Claude Code's settings, .mcp.json, rustup's toolchain file,
 * mise's config, .envrc): made inside, or changed in place in one the
 * user had, they are moved aside as the session ends; the user's own,
 * unchanged, stays. Control: the plants land inside. */
static const char sub_protected_plant[] =
	"mkdir -p web/.vscode && echo '{\"tasks\":[]}' > web/.vscode/tasks.json; echo vscode $?\n"
	"mkdir -p web/.claude && echo '{\"hooks\":{}}' > web/.claude/settings.json; echo claude $?\n"
	"echo '{\"mcpServers\":{}}' > web/.mcp.json; echo mcp $?\n"
	"printf '[toolchain]\\npath = \"/x\"\\n' > web/rust-toolchain.toml; echo rustup $?\n"
	"echo 'touch $M-mise' > web/.mise.toml; echo mise $?\n"
	"echo 'touch $M-envrc' > made/d/.envrc; echo envrc $?\n"
	"echo '{\"tasks\":[1]}' >> api/.vscode/tasks.json; echo changed $?\n";

BOTH_USERS(guards, protected_names_in_subdirectories_are_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gsubprot");
	free(write_file(w.proj, "api/.vscode/tasks.json", "{}\n"));
	free(write_file(w.proj, "keep/.vscode/settings.json", "{}\n"));
	free(write_file(w.proj, "keep/.mcp.json", "{}\n"));
	free(write_file(w.proj, "web/README", "web\n"));
	free(write_file(w.proj, "made/d/README", "d\n"));
	world_give(&w);
	struct run_result r = sh_in(&w, NULL, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	let_time_pass();
	char *script = plant(&w, "deny", "", sub_protected_plant);
	r = sh_in(&w, NULL, "%s", script);
	expect_all_landed((const char *const[]){"vscode", "claude", "mcp", "rustup", "mise",
						"envrc", "changed", NULL},
			  &r, "inside");
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	static const char *const gone[] = {
		"web/.vscode",    "web/.claude",   "web/.mcp.json", "web/rust-toolchain.toml",
		"web/.mise.toml", "made/d/.envrc", "api/.vscode"};
	for (size_t i = 0; i < sizeof(gone) / sizeof(gone[0]); i++) {
		char *aside = fmt("%s.cordon-disarmed", gone[i]);
		cr_expect(!present(w.proj, gone[i]) && present(w.proj, aside),
			  "%s made or changed inside stayed\n%s", gone[i], diag);
		free(aside);
	}
	cr_expect(present(w.proj, "keep/.vscode/settings.json") &&
			  present(w.proj, "keep/.mcp.json"),
		  "the user's own were moved\n%s", diag);
	cr_expect(strstr(r.err, "web/.vscode"), "not said\n%s", diag);
	run_free(&r);
	free(diag);
	free(script);
	world_free(&w);
}
/* What the subdirectory judgement leaves, and what it still takes (round
 * 11): a tracked .vscode put back to the same bytes (a checkout round
 * trip) and one only chmodded stay; one in node_modules stays; one a
 * write rule of the user's inside the project reaches stays; a .vscode
 * that is a link into the project, whose target the session rewrote, is
 * moved aside; a settings.json changed beside 5,000 skills is moved
 * aside with its .claude; so is one whose 1.5 MiB script was edited past
 * its first MiB, its size kept, and one whose hooks link leads to a
 * directory the session wrote in (round 13: both stayed). An .envrc whose
 * loaded file was put back to its bytes stays, as a .vscode does (it was
 * moved: its recorded digest left out what it loads); one whose loaded
 * file changed is moved aside. Judged on
 * disk, after a first session recorded the tree. */
static const char sub_judged_plant[] =
	"cp a/.vscode/settings.json keep.tmp && echo changed > a/.vscode/settings.json && "
	"cp keep.tmp a/.vscode/settings.json && rm keep.tmp; echo roundtrip $?\n"
	"chmod 600 b/.vscode/settings.json; echo chmod $?\n"
	"mkdir -p node_modules/pkg/.vscode && echo '{}' > node_modules/pkg/.vscode/x.json; "
	"echo deps $?\n"
	"echo '{\"x\":1}' > mine/.vscode/settings.json; echo mine $?\n"
	"echo '{\"tasks\":[1]}' > shared/vscode/tasks.json; echo target $?\n"
	"echo '{\"hooks\":1}' > big/.claude/settings.json; echo big $?\n"
	"echo '{\"t\":2}' > shared/t2.json; echo filelink $?\n"
	"printf 'touch $M-tail #' | dd of=tail/.claude/run.sh bs=1 seek=1572864 conv=notrunc "
	"2>/dev/null; echo tail $?\n"
	"echo 'touch $M-dirlink' >> tools/hooks/fmt.sh; echo dirlink $?\n"
	"cp e/vars.sh vars.tmp && echo 'touch $M-vars' > e/vars.sh && cp vars.tmp e/vars.sh && "
	"rm vars.tmp; echo loaded $?\n"
	"echo 'touch $M-fvars' >> f/vars.sh; echo fvars $?\n";

/* The same plant made again in a later session is moved aside again
 * (round 12: the digest of the first, recorded as it was moved aside,
 * let the second stay, and vim outside ran it). Control: the plants
 * land. */
BOTH_USERS(guards, a_plant_made_again_is_moved_aside_again, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "gagain", "");
	free(write_file(w.proj, "web/README", "web\n"));
	world_give(&w);
	let_time_pass();
	struct run_result r = sh_in(&w, NULL, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	for (int round = 0; round < 2; round++) {
		let_time_pass();
		r = sh_in(&w, NULL, "%s",
			  "mkdir -p web/.vscode && echo '{\"tasks\":[\"evil\"]}' > "
			  "web/.vscode/tasks.json; echo plant $?");
		cr_assert(strstr(r.out, "plant 0"), "control: %s%s", r.out, r.err);
		cr_expect(!present(w.proj, "web/.vscode"), "round %d: the plant stayed: %s", round,
			  r.err);
		run_free(&r);
	}
	world_free(&w);
}

/* ~/.gradle linked into the project (a CI layout): the session re-points
 * the project's .gradle at a directory of its own holding init.d, which
 * Gradle outside would run. Not followed, the link the session could
 * have laid is moved aside instead, so ~/.gradle/init.d no longer leads
 * anywhere (round 12: "could not move it aside", and it stayed). Control:
 * the session did re-point it. */
BOTH_USERS(guards, a_relinked_cache_directory_is_disarmed_by_its_link, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "relink", "");
	char *link = home_link_into_project(&w, who, ".gradle");
	struct run_result r = sh_in(
		&w, w.popt,
		"mkdir -p mine/init.d && echo 'println \"evil\"' > mine/init.d/evil.gradle && "
		"rm -rf .gradle && ln -s mine .gradle; echo relink $?");
	cr_assert(strstr(r.out, "relink 0"), "control: %s%s", r.out, r.err);
	cr_expect(!present(w.home, ".gradle/init.d/evil.gradle"),
		  "~/.gradle/init.d/evil.gradle is still there: %s", r.err);
	cr_expect(present(w.proj, ".gradle.cordon-disarmed"), "the link was not moved aside: %s",
		  r.err);
	run_free(&r);
	free(link);
	world_free(&w);
}

BOTH_USERS(guards, protected_names_in_subdirectories_are_judged_by_content, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "gsubjudge", "");
	free(write_file(w.proj, "a/.vscode/settings.json", "{\"a\":1}\n"));
	free(write_file(w.proj, "b/.vscode/settings.json", "{\"b\":1}\n"));
	free(write_file(w.proj, "mine/.vscode/settings.json", "{}\n"));
	free(write_file(w.proj, "shared/vscode/tasks.json", "{}\n"));
	free(write_file(w.proj, "big/.claude/settings.json", "{}\n"));
	free(write_file(w.proj, "e/.envrc", "source ./vars.sh\n"));
	free(write_file(w.proj, "e/vars.sh", "export A=1\n"));
	free(write_file(w.proj, "f/.envrc", "source ./vars.sh\n"));
	free(write_file(w.proj, "f/vars.sh", "export A=1\n"));
	world_give(&w); /* (the user makes the rest) */
	struct run_result r = sh_outside(
		&w,
		"mkdir -p web c/.vscode big/.claude/skills && ln -s ../shared/vscode web/.vscode && "
		"echo '{}' > shared/t2.json && ln -s ../../shared/t2.json c/.vscode/tasks.json && "
		"mkdir -p tail/.claude dl/.claude tools/hooks && "
		"{ head -c 1572864 /dev/zero | tr '\\0' '#'; printf '\\n: ok______________\\n'; } "
		"> tail/.claude/run.sh && echo : > tools/hooks/fmt.sh && "
		"ln -s ../../tools/hooks dl/.claude/hooks && "
		"cd big/.claude/skills && seq 1 5000 | xargs touch; echo made $?");
	cr_assert(strstr(r.out, "made 0"), "setup: %s%s", r.out, r.err);
	run_free(&r);
	world_give(&w);
	char *mine = at(w.proj, "mine");
	char *opts = fmt("--allow-write %s", mine);
	let_time_pass();                   /* (all made before the sessions) */
	r = sh_in(&w, opts, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	let_time_pass();
	char *script = plant(&w, "deny", "", sub_judged_plant);
	r = sh_in(&w, opts, "%s", script);
	expect_all_landed((const char *const[]){"roundtrip", "chmod", "deps", "mine", "target",
						"big", "filelink", "tail", "dirlink", "loaded",
						"fvars", NULL},
			  &r, "inside");
	char *diag0 = fmt("%s%s", r.out, r.err);
	cr_expect(!present(w.proj, "c/.vscode") && present(w.proj, "c/.vscode.cordon-disarmed"),
		  "a file link whose target was rewritten stayed\n%s", diag0);
	free(diag0);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(present(w.proj, "a/.vscode"), "a checkout round trip was moved aside\n%s", diag);
	cr_expect(present(w.proj, "b/.vscode"), "a chmod was moved aside\n%s", diag);
	cr_expect(present(w.proj, "e/.envrc"),
		  "an .envrc whose loaded file was put back to its bytes was moved aside\n%s",
		  diag);
	cr_expect(!present(w.proj, "f/.envrc") && present(w.proj, "f/.envrc.cordon-disarmed"),
		  "an .envrc whose loaded file was changed stayed\n%s", diag);
	cr_expect(present(w.proj, "node_modules/pkg/.vscode"), "node_modules was touched\n%s",
		  diag);
	cr_expect(present(w.proj, "mine/.vscode"), "a write rule's own was moved aside\n%s", diag);
	cr_expect(!present(w.proj, "web/.vscode") && present(w.proj, "web/.vscode.cordon-disarmed"),
		  "a link whose target was rewritten stayed\n%s", diag);
	cr_expect(!present(w.proj, "big/.claude") && present(w.proj, "big/.claude.cordon-disarmed"),
		  "a settings.json beside 5,000 skills stayed\n%s", diag);
	cr_expect(!present(w.proj, "tail/.claude") &&
			  present(w.proj, "tail/.claude.cordon-disarmed"),
		  "a script edited past its first MiB stayed\n%s", diag);
	cr_expect(!present(w.proj, "dl/.claude") && present(w.proj, "dl/.claude.cordon-disarmed"),
		  "a hooks link whose directory was written in stayed\n%s", diag);
	run_free(&r);
	free(diag);
	free(script);
	free(opts);
	free(mine);
	world_free(&w);
}
/* A link in a protected directory at the project's top that leads out of
 * it, into the project (.vscode/tasks.json -> ../shared/tasks.json): what
 * it leads to is read-only too, and said (round 11 rewrote the task VS
 * Code runs). Control: outside, the write lands. */
BOTH_USERS(guards, what_a_link_in_a_protected_directory_leads_to_stays, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "protlink", "");
	free(write_file(w.proj, "shared/tasks.json", "{}\n"));
	free(write_file(w.proj, ".vscode/settings.json", "{}\n"));
	char *link = at(w.proj, ".vscode/tasks.json");
	cr_assert_eq(symlink("../shared/tasks.json", link), 0);
	world_give(&w);
	give_links(who, (const char *const[]){link, NULL});
	struct run_result r = sh_in(&w, NULL, "echo evil > shared/tasks.json; echo ran");
	cr_expect(strstr(r.out, "ran"), "%s%s", r.out, r.err);
	char *now = content(w.proj, "shared/tasks.json");
	cr_expect_str_eq(now, "{}\n", "the task was rewritten: %s", r.err);
	free(now);
	cr_expect(strstr(r.err, "/shared/tasks.json stays read-only: "), "not said: %s", r.err);
	run_free(&r);
	r = sh_outside(&w, "echo mine > shared/tasks.json");
	run_free(&r);
	now = content(w.proj, "shared/tasks.json");
	cr_expect_str_eq(now, "mine\n", "control: outside");
	free(now);
	/* Dangling (round 12): the name it leads to, made inside, is moved
	 * aside as the session ends. */
	char *dangling = at(w.proj, ".vscode/launch.json");
	cr_assert_eq(symlink("../shared/launch.json", dangling), 0);
	give_links(who, (const char *const[]){dangling, NULL});
	r = sh_in(&w, NULL, "echo '{}' > shared/launch.json; echo made $?");
	cr_expect(strstr(r.out, "made 0"), "control: the session could not make it: %s%s", r.out,
		  r.err);
	cr_expect(!present(w.proj, "shared/launch.json") &&
			  present(w.proj, "shared/launch.json.cordon-disarmed"),
		  "what the dangling link leads to stayed: %s", r.err);
	run_free(&r);
	/* Round 13: a dangling link whose parent is missing too (the first
	 * name missing on its way is moved aside, as it appears: then what
	 * the session writes beneath it fails); a link four levels down;
	 * a file link in the directory a link leads to. */
	char *gen = at(w.proj, ".vscode/extra.json"), *deep = at(w.proj, ".vscode/a/b/c/deep.json"),
	     *hooks = at(w.proj, ".vscode/hooks"), *fmt = at(w.proj, "tools/hooks/fmt.sh");
	free(write_file(w.proj, "shared/deep.json", "{}\n"));
	free(write_file(w.proj, "tools/fmt.sh", ":\n"));
	free(write_file(w.proj, ".vscode/a/b/c/.keep", ""));
	free(write_file(w.proj, "tools/hooks/.keep", ""));
	cr_assert(symlink("../gen/vscode/extra.json", gen) == 0 &&
		  symlink("../../../../shared/deep.json", deep) == 0 &&
		  symlink("../tools/hooks", hooks) == 0 && symlink("../fmt.sh", fmt) == 0);
	world_give(&w);
	give_links(who, (const char *const[]){gen, deep, hooks, fmt, NULL});
	r = sh_in(&w, NULL,
		  "mkdir gen; echo gen $?; mkdir -p gen/vscode && echo '{}' > "
		  "gen/vscode/extra.json; echo evil > shared/deep.json; echo evil >> "
		  "tools/fmt.sh; echo ran");
	cr_expect(strstr(r.out, "gen 0") && strstr(r.out, "ran"),
		  "control: the session could not make gen: %s%s", r.out, r.err);
	cr_expect(!present(w.proj, "gen") && present(w.proj, "gen.cordon-disarmed"),
		  "what the dangling link's missing parent leads to stayed: %s", r.err);
	now = content(w.proj, "shared/deep.json");
	cr_expect_str_eq(now, "{}\n", "a link four levels down: rewritten: %s", r.err);
	free(now);
	now = content(w.proj, "tools/fmt.sh");
	cr_expect_str_eq(now, ":\n", "a link in a linked directory: rewritten: %s", r.err);
	free(now);
	run_free(&r);
	r = sh_outside(&w, "echo mine > shared/deep.json; echo mine > tools/fmt.sh");
	run_free(&r);
	now = content(w.proj, "tools/fmt.sh");
	cr_expect_str_eq(now, "mine\n", "control: outside");
	free(now);
	free(gen), free(deep), free(hooks), free(fmt);
	free(dangling);
	free(link);
	world_free(&w);
}

/* The sweep keeps each walk's record of the project's directories for the
 * next, and reads again only those changed since. A repository planted
 * deep in a tree the last walk read, and one in a tree made outside
 * between the two sessions, are found all the same. Control: the same
 * plants made outside run. */
static const char plant_deep[] =
	"git init -q old/a/b/c && fsmon >> old/a/b/c/.git/config; echo old $?\n"
	"git init -q new/x/y && fsmon >> new/x/y/.git/config; echo new $?\n";

BOTH_USERS(guards, a_repository_planted_after_an_earlier_walk_is_found, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gdeep");
	struct run_result r = outside(&w, "mkdir -p old/a/b/c old/d/e");
	run_free(&r);
	r = sh_in(&w, NULL, "%s", "true"); /* the first walk, recorded */
	run_free(&r);
	let_time_pass();
	r = outside(&w, "mkdir -p new/x/y");
	run_free(&r);
	char *diag = plant_landed(&w, plant_deep, (const char *const[]){"old", "new", NULL});
	char *old = at(w.proj, "old/a/b/c"), *new = at(w.proj, "new/x/y");
	git_outside(&w, old, "after");
	git_outside(&w, new, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "a deep plant ran outside: %s", diag);
	cr_expect(present(w.proj, "old/a/b/c/.git.cordon-disarmed"), "old: not found: %s", diag);
	cr_expect(present(w.proj, "new/x/y/.git.cordon-disarmed"), "new: not found: %s", diag);
	/* The control. */
	r = sh_outside(&w, "rm -rf old/a/b/c/.git* new/x/y/.git*");
	run_free(&r);
	plant_outside(&w, plant_deep, NULL);
	git_outside(&w, old, "ctl");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the deep plant did not run");
	free(old);
	free(new);
	free(diag);
	world_free(&w);
}

/* A submodule's git dir planted under the project's own (guarded) .git,
 * in .git/modules, with a hook: git submodule update outside would reuse
 * it and run the hook. It is moved aside. A worktree added inside, whose
 * git dir shares the guarded repository's hooks, is kept. Control: the
 * same plant made outside runs. */
static const char plant_module[] =
	"mkdir -p .git/modules && git clone -q --separate-git-dir=.git/modules/evil \"$PWD\" evil_wt && rm -rf evil_wt && "
	"hook post-checkout > .git/modules/evil/hooks/post-checkout && "
	"chmod +x .git/modules/evil/hooks/post-checkout && "
	"printf '[submodule \"evil\"]\\n\\tpath = evil\\n\\turl = %s\\n' \"$PWD\" > .gitmodules && "
	"git update-index --add --cacheinfo 160000,$(git rev-parse HEAD),evil; echo module $?\n";

BOTH_USERS(guards, a_submodule_git_dir_planted_in_dot_git_is_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gmodule");
	/* The user's own hook in the guarded repository. */
	struct run_result r = outside(&w, "printf '#!/bin/sh\\ntrue\\n' > .git/hooks/pre-commit && "
					  "chmod +x .git/hooks/pre-commit");
	run_free(&r);
	char *script = plant(&w, "deny", "", plant_module);
	r = sh_in(&w, NULL, "%s\ngit worktree add -q wt -b feat; echo worktree $?", script);
	free(script);
	expect_all_landed((const char *const[]){"module", "worktree", NULL}, &r, "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	r = sh_outside(&w, "git submodule update --init >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect_not(marked(&w, "deny", "post-checkout"), "the planted hook ran outside: %s",
		      diag);
	cr_expect(present(w.proj, ".git/cordon-disarmed/modules!evil.cordon-disarmed"),
		  "not moved aside: %s", diag);
	cr_expect(present(w.proj, "wt/.git"), "the worktree added inside was moved: %s", diag);
	r = sh_outside(&w, "git -C wt status --short");
	cr_expect_eq(r.status, 0, "the worktree does not work outside: %s", r.err);
	run_free(&r);
	/* The control. */
	r = sh_outside(&w, "git worktree remove --force wt; git submodule deinit -qf evil; "
			   "rm -rf evil .git/modules .gitmodules; git rm -q --cached evil; true");
	run_free(&r);
	plant_outside(&w, plant_module, NULL);
	r = sh_outside(&w, "git submodule update --init >/dev/null 2>&1; true");
	run_free(&r);
	cr_expect(marked(&w, "ctl", "post-checkout"), "control: the planted hook did not run");
	free(diag);
	world_free(&w);
}

/* A directory made unreadable inside (chmod 311, 000) is read all the
 * same: root reads it, the user's sweep opens its own directory up for
 * the walk and gives it its mode back after; the repository in it is
 * moved aside. */
BOTH_USERS(guards, a_directory_the_sweep_cannot_read_is_said, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gshut");
	char *script = plant(&w, "deny", "",
			     "mkdir -p d && git init -q d/sub && fsmon >> d/sub/.git/config && "
			     "chmod 311 d; echo shut $?\n"
			     "git init -q d2 && fsmon >> d2/.git/config && chmod 000 d2/.git; "
			     "echo shut2 $?\n");
	struct run_result r = sh_in(&w, NULL, "%s", script);
	free(script);
	expect_all_landed((const char *const[]){"shut", "shut2", NULL}, &r, "inside");
	/* A git dir it cannot read counts as one that runs a program. */
	cr_expect(present(w.proj, "d2/.git.cordon-disarmed"), "an unreadable .git was kept: %s",
		  r.err);
	char *d = at(w.proj, "d");
	struct stat st;
	cr_expect(stat(d, &st) == 0 && (st.st_mode & 07777) == 0311,
		  "the directory's mode was not given back: %o", (unsigned)st.st_mode);
	run_free(&r);
	r = sh_outside(&w, "chmod 755 d d2/.git*");
	run_free(&r);
	cr_expect(present(w.proj, "d/sub/.git.cordon-disarmed"), "not moved aside: %s", r.err);
	free(d);
	world_free(&w);
}

/* ---- what the sweep reads besides hooks and config ---- */

/* A version 2 git index of the N entries NAMES (sorted, as git keeps
 * them), each a file of mode 100755 whose blob is OIDS' (hex), into PATH;
 * its trailing hash all zeros (git checks it only in fsck). */
static void write_index(const char *path, const char *const names[], const char *const oids[],
			size_t n)
{
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s: %s", path, strerror(errno));
	unsigned char head[12] = {'D', 'I', 'R', 'C', 0, 0, 0, 2, 0, 0, 0, (unsigned char)n};
	fwrite(head, 1, sizeof(head), f);
	for (size_t i = 0; i < n; i++) {
		unsigned char e[62] = {0};
		e[24] = 0, e[25] = 0, e[26] = 0x81, e[27] = 0xed; /* mode 100755 */
		for (size_t b = 0; b < 20; b++)
			cr_assert_eq(sscanf(oids[i] + 2 * b, "%2hhx", &e[40 + b]), 1, "%s",
				     oids[i]);
		size_t len = strlen(names[i]);
		e[60] = (unsigned char)(len >> 8), e[61] = (unsigned char)len;
		fwrite(e, 1, sizeof(e), f);
		fwrite(names[i], 1, len, f);
		static const unsigned char pad[8];
		fwrite(pad, 1, ((62 + len + 8) & ~(size_t)7) - 62 - len, f);
	}
	static const unsigned char hash[20];
	fwrite(hash, 1, sizeof(hash), f);
	cr_assert_eq(fclose(f), 0);
}

/* The blob CONTENT made outside in W's project (git hash-object -w): its
 * id (malloc'd). */
static char *blob(struct world *w, const char *content)
{
	struct run_result r = outside(w, "printf '%%s' '%s' | git hash-object -w --stdin", content);
	char *oid = strndup(r.out, 40);
	run_free(&r);
	return oid;
}

/* The index of the project's own repository is writable inside (git add
 * works there). A session that renames its entries to
 * .git/hooks/pre-commit and ../outside/x (git reads an index without
 * asking whether its paths are ones it would write) gets git restore .
 * outside to write a hook, and any file the user can write; a linked
 * worktree's index, kept in .git/worktrees, the same. As the session ends,
 * each index whose entries git's verify_path would refuse is moved aside
 * alone, and said; the repository stays, and git reset makes a new one.
 * Control: the same indexes copied in outside: git restore . writes both
 * files, and the hook runs at the next commit. */
BOTH_USERS(guards, a_crafted_index_is_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gindex");
	char *mark = fmt("%s/pwned-index-hook", w.outside);
	char *hook = fmt("#!/bin/sh\ntouch %s\n", mark);
	char *oid_hook = blob(&w, hook), *oid_out = blob(&w, "out");
	struct run_result r = outside(&w, "git worktree add -q ../outside/wt 2>/dev/null");
	run_free(&r);
	char *main_idx = at(w.proj, "idx-main"), *wt_idx = at(w.proj, "idx-wt");
	write_index(main_idx,
		    (const char *const[]){"../outside/pwned-index-out", ".git/hooks/pre-commit"},
		    (const char *const[]){oid_out, oid_hook}, 2);
	write_index(wt_idx, (const char *const[]){"../pwned-index-wt"},
		    (const char *const[]){oid_out}, 1);
	world_give(&w);
	let_time_pass();
	static const char plant_index[] = "cp idx-main .git/index; echo index $?\n"
					  "cp idx-wt .git/worktrees/wt/index; echo worktree $?\n";
	r = sh_in(&w, NULL, "%s", plant_index);
	expect_all_landed((const char *const[]){"index", "worktree", NULL}, &r, "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	char *line = fmt("it wrote %s/.git/index, an index whose entries git would write outside "
			 "the worktree or into a .git (",
			 w.proj);
	cr_expect(strstr(diag, line), "the index was not said: %s", diag);
	cr_expect(present(w.proj, ".git/index.cordon-disarmed") &&
			  present(w.proj, ".git/worktrees/wt/index.cordon-disarmed"),
		  "an index was not moved aside: %s", diag);
	cr_expect(present(w.proj, ".git/HEAD") && !present(w.proj, ".git.cordon-disarmed"),
		  "the repository was moved: %s", diag);
	static const char restore[] = "git restore . >/dev/null 2>&1; "
				      "git -C ../outside/wt restore . >/dev/null 2>&1; "
				      "git commit -q --allow-empty -m after >/dev/null 2>&1; true";
	r = sh_outside(&w, restore);
	run_free(&r);
	cr_expect_not(present(w.proj, ".git/hooks/pre-commit") || file_exists(mark),
		      "git restore . outside wrote the hook: %s", diag);
	cr_expect_not(present(w.outside, "pwned-index-out") || present(w.outside, "pwned-index-wt"),
		      "git restore . outside wrote outside the worktree: %s", diag);
	/* What the line says: git reset makes a new one. */
	r = sh_outside(&w, "git reset -q && git status --porcelain --untracked-files=no");
	cr_expect(r.status == 0 && r.out[0] == '\0', "git reset: %d %s%s", r.status, r.out, r.err);
	run_free(&r);
	/* The control. */
	r = outside(&w, "%s", "cp idx-main .git/index && cp idx-wt .git/worktrees/wt/index");
	run_free(&r);
	r = sh_outside(&w, restore);
	run_free(&r);
	cr_expect(present(w.proj, ".git/hooks/pre-commit") && file_exists(mark),
		  "control: the hook was not written, or did not run");
	cr_expect(present(w.outside, "pwned-index-out") && present(w.outside, "pwned-index-wt"),
		  "control: nothing was written outside the worktree");
	free(line);
	free(diag);
	free(main_idx);
	free(wt_idx);
	free(oid_hook);
	free(oid_out);
	free(hook);
	free(mark);
	world_free(&w);
}

/* git push to a repository on this machine runs its hooks (receive-pack).
 * A session points a remote at a bare repository it planted where no
 * walk looks: a remotes/ or branches/ file in the project's own
 * repository (git reads one for a remote its config has no URL for), the
 * URL of a repository made inside into a git dir hidden in its own .git,
 * and a nested repository's URL into a writable directory that is not a
 * root (as /tmp is). Each is moved aside as the session ends (the
 * project's own files alone), and git push outside runs nothing.
 * Control: the same plants outside, and each push runs its hook. */
static const char plant_remotes[] =
	"recv() { mkdir -p \"$1\" && git init -q --bare \"$1\" && "
	"printf '#!/bin/sh\\ntouch %s\\n' \"$M-$2\" > \"$1/hooks/pre-receive\" && "
	"chmod +x \"$1/hooks/pre-receive\"; }\n"
	"recv .git/x.git remotes && mkdir -p .git/remotes && "
	"printf 'URL: %s/.git/x.git\\nPush: refs/heads/*:refs/heads/*\\n' \"$PWD\" > "
	".git/remotes/origin; echo remotes $?\n"
	"recv .git/y.git branches && mkdir -p .git/branches && "
	"printf '%s/.git/y.git#main\\n' \"$PWD\" > .git/branches/up; echo branches $?\n"
	"git init -q new && git -C new commit -q --allow-empty -m n && recv new/.git/x.git made && "
	"git -C new remote add origin \"$PWD/new/.git/x.git\"; echo made $?\n"
	"recv \"$S/x.git\" nested && git -C nested remote set-url origin \"$S/x.git\"; "
	"echo nested $?\n";

static void push_outside(struct world *w)
{
	struct run_result r =
		sh_outside(w, "git push >/dev/null 2>&1; git push up >/dev/null 2>&1; "
			      "git -C new push origin main >/dev/null 2>&1; "
			      "git -C nested push origin main >/dev/null 2>&1; true");
	run_free(&r);
}

static void nested_world(struct world *w)
{
	struct run_result r = outside(w, "git init -q nested && git -C nested commit -q "
					 "--allow-empty -m n && git -C nested remote add origin "
					 "https://example.invalid/r.git");
	run_free(&r);
}

BOTH_USERS(guards, a_remote_into_a_planted_repository_is_moved_aside, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gremote");
	/* A directory the session may write that is no root and is not
	 * swept (not sticky, as the runtime directory). */
	char *shared = at(w.dir, "shared");
	cr_assert_eq(mkdir(shared, 0755), 0);
	FILE *f = fopen(w.cfg, "w");
	cr_assert_not_null(f);
	fprintf(f,
		"{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/tty\", \"/dev/ptmx\", "
		"\"/dev/urandom\", \"/dev/zero\", \"%s\"]}}",
		shared);
	cr_assert_eq(fclose(f), 0);
	nested_world(&w);
	world_give(&w);
	let_time_pass();
	char *vars = fmt("S=%s", shared), *script = plant(&w, "deny", vars, plant_remotes);
	struct run_result r = sh_in(&w, NULL, "%s", script);
	free(script);
	expect_all_landed((const char *const[]){"remotes", "branches", "made", "nested", NULL}, &r,
			  "inside");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	push_outside(&w);
	static const char *const marks[] = {"remotes", "branches", "made", "nested", NULL};
	for (size_t i = 0; marks[i]; i++)
		cr_expect_not(marked(&w, "deny", marks[i]), "git push ran the planted %s hook: %s",
			      marks[i], diag);
	static const char *const aside[] = {
		".git/remotes/origin.cordon-disarmed", ".git/branches/up.cordon-disarmed",
		"new/.git.cordon-disarmed", "nested/.git.cordon-disarmed", NULL};
	for (size_t i = 0; aside[i]; i++)
		cr_expect(present(w.proj, aside[i]), "%s: not moved aside: %s", aside[i], diag);
	cr_expect(strstr(diag, "(a remote in remotes/origin)"), "%s", diag);
	cr_expect(strstr(diag, "(a repository a session could write)"), "%s", diag);
	cr_expect(present(w.proj, ".git/HEAD") && !present(w.proj, ".git.cordon-disarmed"),
		  "the guarded repository was moved: %s", diag);
	/* The control. */
	r = outside(&w,
		    "rm -rf .git/x.git .git/y.git .git/remotes .git/branches/up* new nested "
		    "\"%s/x.git\"",
		    shared);
	run_free(&r);
	nested_world(&w);
	script = plant(&w, "ctl", vars, plant_remotes);
	r = outside(&w, "%s", script);
	free(script);
	run_free(&r);
	push_outside(&w);
	for (size_t i = 0; marks[i]; i++)
		cr_expect(marked(&w, "ctl", marks[i]), "control: git push did not run the %s hook",
			  marks[i]);
	free(diag);
	free(vars);
	free(shared);
	world_free(&w);
}

/* A nested repository whose config includes a file of its worktree
 * (include.path = ../.gitconfig, an old line, the user's own): the
 * session rewrites the included file, and git status outside ran its
 * core.fsmonitor. Each included file changed since the session started is
 * judged whole, as the config is; the repository is moved aside. Control:
 * the same change outside runs. */
BOTH_USERS(guards, a_nested_repository_s_included_config_is_judged, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ginclude");
	static const char nested[] =
		"git init -q sub && git -C sub commit -q --allow-empty -m s && "
		"git -C sub config include.path ../.gitconfig && "
		"printf '[user]\\n\\tname = x\\n' > sub/.gitconfig";
	struct run_result r = outside(&w, "%s", nested);
	run_free(&r);
	let_time_pass();
	char *diag = plant_landed(&w, "fsmon >> sub/.gitconfig; echo included $?\n",
				  (const char *const[]){"included", NULL});
	char *sub = at(w.proj, "sub");
	git_outside(&w, sub, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the included fsmonitor ran: %s", diag);
	cr_expect(present(w.proj, "sub/.git.cordon-disarmed"), "not moved aside: %s", diag);
	cr_expect(strstr(diag, "would run programs (core.fsmonitor)"), "%s", diag);
	/* The control. */
	r = outside(&w, "rm -rf sub && %s", nested);
	run_free(&r);
	plant_outside(&w, "fsmon >> sub/.gitconfig", NULL);
	git_outside(&w, sub, "ctl");
	cr_expect(marked(&w, "ctl", "fsmonitor"), "control: the included fsmonitor did not run");
	free(sub);
	free(diag);
	world_free(&w);
}

/* Swap the directory FROM with the link TO (both in DIR) once a file in
 * FROM changes its mode (the sweep making FROM/NAME readable), as a
 * session still running beside the one whose sweep this is could; WAIT_MS
 * at most. Exits 0 when it swapped, 1 when no change came. */
static void swap_on_chmod(const char *dir, const char *from, const char *to, int wait_ms)
{
	int in = inotify_init1(IN_CLOEXEC);
	char *watched = at(dir, from);
	if (in < 0 || inotify_add_watch(in, watched, IN_ATTRIB) < 0)
		_exit(2);
	struct pollfd p = {.fd = in, .events = POLLIN};
	if (poll(&p, 1, wait_ms) != 1)
		_exit(1);
	char *a = at(dir, from), *b = at(dir, to);
	_exit(syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */) == 0 ? 0
											     : 3);
}

/* As an ordinary user, the sweep makes a directory of the user's own that
 * was made unreadable inside readable for its walk, and gives it its mode
 * back after judging. By a path, that second change followed a link a
 * session still running in the project swapped in meanwhile, onto a file
 * outside (a private key, 0600 to 0377). Now the mode goes through a
 * descriptor held for that very directory: the swap (made here the
 * moment the sweep changes the mode) leaves the file outside as it was,
 * and the directory gets its mode back wherever it is. (Root reads such a
 * directory without changing it.) Control: a change by that path after
 * the swap reaches the file outside. */
BOTH_USERS(guards, the_sweep_changes_no_mode_through_a_swapped_link, .timeout = 90)
{
	struct world w;
	git_world(&w, who, "gswap");
	char *key = at(w.outside, "ssh/id_test");
	free(write_file(w.outside, "ssh/id_test", SSH_KEY));
	cr_assert_eq(chmod(key, 0600), 0);
	/* Many repositories to judge: the sweep gives the mode back after. */
	struct run_result r =
		outside(&w,
			"mkdir -p q/id_test && chmod 377 q/id_test && ln -s '%s/ssh' w && "
			"git init -q --bare g.git && for i in $(seq 600); do mkdir -p many/$i && "
			"echo 'gitdir: ../../g.git' > many/$i/.git; done",
			w.outside);
	run_free(&r);
	world_give(&w);
	pid_t swapper = fork();
	cr_assert(swapper >= 0);
	if (swapper == 0)
		swap_on_chmod(w.proj, "q", "w", 30000);
	usleep(200 * 1000); /* (its watch is set) */
	r = sh_in(&w, NULL, "%s", "true");
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	if (!who->user)
		kill(swapper, SIGKILL); /* root changes no mode: nothing to wait for */
	int status;
	cr_assert_eq(waitpid(swapper, &status, 0), swapper);
	bool swapped = WIFEXITED(status) && WEXITSTATUS(status) == 0;
	if (who->user)
		cr_expect(swapped, "the sweep changed no mode, or the swap failed (%d): %s", status,
			  diag);
	struct stat st;
	cr_expect(stat(key, &st) == 0 && (st.st_mode & 07777) == 0600,
		  "the mode of the file outside changed: %o: %s", (unsigned)(st.st_mode & 07777),
		  diag);
	char *real = at(w.proj, swapped ? "w/id_test" : "q/id_test");
	cr_expect(lstat(real, &st) == 0 && (st.st_mode & 07777) == 0377,
		  "the directory did not get its mode back: %o", (unsigned)(st.st_mode & 07777));
	/* The control: by the path, after the swap, the file outside. */
	if (!swapped) {
		char *a = at(w.proj, "q"), *b = at(w.proj, "w");
		cr_assert_eq(syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2), 0, "%s",
			     strerror(errno));
		free(a);
		free(b);
	}
	r = outside(&w, "chmod 377 q/id_test");
	run_free(&r);
	cr_expect(stat(key, &st) == 0 && (st.st_mode & 07777) == 0377,
		  "control: a change by the path did not reach the file outside");
	r = sh_outside(&w, "chmod 755 w/id_test q/id_test 2>/dev/null; true");
	run_free(&r);
	free(real);
	free(diag);
	free(key);
	world_free(&w);
}

/* The sweep runs outside the sandbox, and reads what a repository made
 * inside leads to: a .git/hooks that is a link to a directory the session
 * cannot read (a password store: its entries' names are the accounts), a
 * .git/config that is a link to a credentials file (its sections and
 * keys). Such a repository is still moved aside, and said, but nothing
 * read outside the project is named. Control: the session cannot list
 * that directory itself; the same links into the project have their
 * names said. */
static const char plant_links[] =
	"git init -q sub && rm -rf sub/.git/hooks && ln -s \"$V\" sub/.git/hooks; echo hooks $?\n"
	"git init -q sub2 && rm sub2/.git/config && ln -s \"$C\" sub2/.git/config; echo config $?\n";

BOTH_USERS(guards, the_sweep_names_nothing_it_reads_outside_the_project, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gnames");
	static const char creds[] = "[secretprofile]\n\tregion = x\n";
	free(write_file(w.outside, "vault/bank.example.com.gpg", "x"));
	free(write_file(w.outside, "vault/github-token.gpg", "x"));
	free(write_file(w.outside, "creds", creds));
	free(write_file(w.proj, "vault2/bank.example.com.gpg", "x"));
	free(write_file(w.proj, "creds2", creds));
	world_give(&w);
	char *vars = fmt("V=%s/vault\nC=%s/creds", w.outside, w.outside);
	char *script = plant(&w, "deny", vars, plant_links);
	struct run_result r =
		sh_in(&w, NULL, "ls \"%s/vault\" || echo unlisted\n%s", w.outside, script);
	free(script);
	expect_all_landed((const char *const[]){"hooks", "config", NULL}, &r, "inside");
	cr_expect(strstr(r.out, "unlisted") && !strstr(r.out, "bank"),
		  "control: the session listed the directory outside: %s", r.out);
	static const char *const names[] = {"bank.example.com", "github-token", "secretprofile",
					    NULL};
	for (size_t i = 0; names[i]; i++)
		cr_expect_null(strstr(r.err, names[i]), "%s was said: %s", names[i], r.err);
	cr_expect(strstr(r.err, "hooks in a directory outside the project") &&
			  strstr(r.err, "a config outside the project"),
		  "%s", r.err);
	cr_expect(present(w.proj, "sub/.git.cordon-disarmed") &&
			  present(w.proj, "sub2/.git.cordon-disarmed"),
		  "not moved aside: %s", r.err);
	run_free(&r);
	/* The control: the same links into the project, their names said. */
	r = outside(&w, "%s", "rm -rf sub sub2");
	run_free(&r);
	free(vars);
	vars = fmt("V=%s/vault2\nC=%s/creds2", w.proj, w.proj);
	script = plant(&w, "deny", vars, plant_links);
	r = sh_in(&w, NULL, "%s", script);
	free(script);
	cr_expect(strstr(r.err, "bank.example.com.gpg") && strstr(r.err, "secretprofile"),
		  "control: the names in the project were not said: %s", r.err);
	run_free(&r);
	free(vars);
	world_free(&w);
}

/* In standalone mode (LD_PRELOAD alone) the shell's original process, the
 * supervisor, does the same as the launcher when the session ends (a
 * repository and a .mcp.json made inside, protected without a stand-in,
 * are moved aside).
 * Control: with protected_paths [] the repository is left, and runs. */
BOTH_USERS(guards, standalone_mode_disarms_repositories_made_inside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gstandrepo");
	char *pre = fmt("LD_PRELOAD=%s", CORDON_SHIM_SO), *cfg = fmt("CORDON_CONFIG=%s", w.cfg);
	set_config(&w, ", \"protected_paths\": [\".git/hooks\", \".git/config\", \".git/info\", "
		       "\".mcp.json\"]");
	char *script = plant(&w, "deny", "",
			     "git init -q sub && fsmon >> sub/.git/config; echo nested $?\n"
			     "echo '{}' > .mcp.json; echo \"$CORDON_SANDBOX\" > mark\n");
	char *argv[] = {"/usr/bin/env", pre, cfg, "/bin/sh", "-c", script, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	char *mark = at(w.proj, "mark"), *sub = at(w.proj, "sub");
	cr_assert(contains(mark, "1"), "not sandboxed in standalone mode: %s", r.err);
	expect_all_landed((const char *const[]){"nested", NULL}, &r, "inside");
	cr_expect(present(w.proj, "sub/.git.cordon-disarmed"), "not moved aside: %s", r.err);
	cr_expect(present(w.proj, ".mcp.json.cordon-disarmed") && !present(w.proj, ".mcp.json"),
		  ".mcp.json was not moved aside: %s", r.err);
	run_free(&r);
	git_outside(&w, sub, "after");
	cr_expect_not(marked(&w, "deny", "fsmonitor"), "the planted fsmonitor ran outside");
	r = sh_outside(&w, "rm -rf sub");
	run_free(&r);
	set_config(&w, ", \"protected_paths\": []");
	r = world_run(&w, argv, w.proj);
	cr_expect(present(w.proj, "sub/.git/config"), "control: nothing planted: %s", r.err);
	run_free(&r);
	git_outside(&w, sub, "ctl");
	cr_expect(marked(&w, "deny", "fsmonitor"), "control: the planted fsmonitor did not run");
	free(mark);
	free(sub);
	free(script);
	free(pre);
	free(cfg);
	world_free(&w);
}

/* Files of the project that cordon reads as a session starts (.gitmodules,
 * a repository's commondir, a .git file) may have been made FIFOs by an
 * earlier session: the next session still starts and runs its command
 * (an ordinary open would wait for a writer forever). */
BOTH_USERS(guards, fifos_planted_for_the_next_launch_do_not_hang_it, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gfifo");
	char *ran = at(w.proj, "ran");
	struct run_result r = sh_in(&w, NULL, "%s",
				    "rm -f .gitmodules && mkfifo .gitmodules && mkdir -p sub/.git "
				    "&& mkfifo sub/.git/commondir && echo ok");
	cr_assert(strstr(r.out, "ok"), "control: the FIFOs were not made: %s", r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "%s", "echo yes > ran");
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(contains(ran, "yes"), "the next session did not run: %s", r.err);
	run_free(&r);
	free(ran);
	world_free(&w);
}

/* ---- settings directories (placeholders) ---- */

static const char *const settings_dirs[] = {
	".vscode",  ".idea",         ".claude",   ".cursor", ".gemini",
	".zed",     ".devcontainer", ".continue", ".roo",    ".kiro",
	".amazonq", ".qwen",         ".opencode", ".helix",  NULL};

/* Every way to put an editor's or an agent's settings in place: write into
 * the directory, make it, replace it, move one in. */
#define PLANT_SETTINGS                                                                             \
	"for d in .vscode .idea .claude .cursor .gemini .zed .devcontainer .continue .roo .kiro "  \
	".amazonq .qwen .opencode .helix; do "                                                     \
	"mkdir -p $d; echo '{\"planted\": 1}' > $d/settings.json; mkdir $d/sub; "                  \
	"rmdir $d; mv $d $d.old; mkdir x; echo '{}' > x/settings.json; mv -T x $d; "               \
	"mv x $d/; rm -rf x; done; ls -a; true"

/* A missing settings directory (.vscode, .claude, ...) would be obeyed by
 * the editor or agent outside once made inside (a task that runs on
 * opening, an agent's hooks). While a session runs each is an empty
 * directory, read-only inside; when it ends nothing is left, and nothing
 * was planted. Control: with protected_paths [] the same script plants. */
BOTH_USERS(guards, missing_settings_dirs_take_nothing_inside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gdirs");
	struct run_result r = sh_in(&w, NULL, "%s", PLANT_SETTINGS);
	for (size_t i = 0; settings_dirs[i]; i++) {
		cr_expect(strstr(r.out, settings_dirs[i]), "no %s inside while the session ran: %s",
			  settings_dirs[i], r.out);
		cr_expect_not(present(w.proj, settings_dirs[i]), "%s was left or planted: %s%s",
			      settings_dirs[i], r.out, r.err);
		char *old = fmt("%s.old", settings_dirs[i]);
		cr_expect_not(present(w.proj, old), "%s was moved away inside", settings_dirs[i]);
		free(old);
	}
	run_free(&r);
	set_config(&w, ", \"protected_paths\": []");
	r = sh_in(&w, NULL, "%s", PLANT_SETTINGS);
	for (size_t i = 0; settings_dirs[i]; i++) {
		char *planted = fmt("%s/settings.json", settings_dirs[i]);
		char *moved = fmt("%s.old/settings.json", settings_dirs[i]);
		cr_expect(present(w.proj, planted) || present(w.proj, moved),
			  "control: no %s planted without the guard: %s", settings_dirs[i], r.err);
		free(planted);
		free(moved);
	}
	run_free(&r);
	world_free(&w);
}

/* Claude Code reads .mcp.json and the devcontainer CLI .devcontainer.json,
 * files, at the project's top: a server or a postCreateCommand made inside
 * would be started by the agent or editor outside while the session still
 * runs. A directory stands in for each (neither program takes anything from
 * one), so no way of making one lands: judged from outside while the
 * session runs (each is still the empty stand-in) and after it (gone).
 * Control: with protected_paths [] the same script leaves both files. */
BOTH_USERS(guards, missing_settings_files_take_nothing_inside, .timeout = 60)
{
	static const char *const names[] = {".mcp.json", ".devcontainer.json", NULL};
	struct world w;
	git_world(&w, who, "gfiles");
	char *go = at(w.proj, "go"), *tried = at(w.proj, "tried");
	char *script = "for f in .mcp.json .devcontainer.json; do "
		       "echo '{\"planted\": 1}' > $f; echo '{\"planted\": 2}' > $f/x; "
		       "rmdir $f; mv $f $f.old; echo '{\"planted\": 3}' > y; mv -T y $f; "
		       "ln -s y $f; ln y $f; rm -rf $f; done; ls -a > t && mv t tried; "
		       "while [ ! -e go ]; do sleep 0.05; done";
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", script, NULL};
	pid_t pid = world_spawn(&w, argv, w.proj);
	cr_assert(wait_exists(tried, 10000), "the session did not try");
	char *listed = read_file(tried);
	for (size_t i = 0; names[i]; i++) {
		char *path = at(w.proj, names[i]);
		struct stat st;
		cr_expect(listed && strstr(listed, names[i]), "no stand-in for %s inside: %s",
			  names[i], listed);
		cr_expect(lstat(path, &st) == 0 && S_ISDIR(st.st_mode) && st.st_nlink == 2,
			  "%s is not the empty stand-in outside while the session runs", names[i]);
		char *old = fmt("%s.old", names[i]);
		cr_expect_not(present(w.proj, old), "%s was moved away inside", names[i]);
		free(old);
		free(path);
	}
	free(write_file(w.proj, "go", ""));
	cr_expect(wait_gone(pid, 10000), "the session did not end");
	for (size_t i = 0; names[i]; i++)
		cr_expect_not(present(w.proj, names[i]), "%s was left or planted", names[i]);
	free(listed);
	unlink(go);
	unlink(tried);
	set_config(&w, ", \"protected_paths\": []");
	struct run_result r = sh_in(&w, NULL, "%s",
				    "echo '{\"planted\": 1}' > .mcp.json; "
				    "echo '{\"planted\": 1}' > .devcontainer.json");
	for (size_t i = 0; names[i]; i++) {
		char *planted = content(w.proj, names[i]);
		cr_expect(planted && strstr(planted, "planted"), "control: no %s planted: %s",
			  names[i], r.err);
		free(planted);
	}
	run_free(&r);
	free(go);
	free(tried);
	world_free(&w);
}

/* direnv runs a .envrc when the shell outside enters the directory; with
 * a whitelist prefix (direnv.toml) it asks nothing. A .envrc planted inside
 * where none was never runs through direnv outside: while the session
 * runs an empty directory stands in for it (direnv finds no .envrc in a
 * directory), and it is gone after. Control: with protected_paths [], the
 * planted .envrc runs when direnv is used outside. */
BOTH_USERS(guards, envrc_made_inside_never_runs_through_direnv, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gdirenv", "");
	cr_assert(file_exists("/usr/bin/direnv"), "direnv is missing: run scripts/setup");
	char *toml = fmt("[whitelist]\nprefix = [\"%s\"]\n", w.proj);
	free(write_file(w.home, ".config/direnv/direnv.toml", toml));
	world_give(&w);
	char *ran = marker(&w, "direnv", "envrc");
	char *plant = fmt("echo 'touch %s' > .envrc; rmdir .envrc; mv .envrc x; "
			  "echo 'touch %s' > y && mv -T y .envrc; ls -a; true",
			  ran, ran);
	char *use = fmt("direnv exec '%s' true", w.proj);
	struct run_result r = sh_in(&w, NULL, "%s", plant);
	cr_expect(strstr(r.out, ".envrc"), "no stand-in inside: %s", r.out);
	cr_expect_not(present(w.proj, ".envrc"), "a .envrc was left or planted: %s", r.err);
	run_free(&r);
	r = sh_outside(&w, use);
	cr_expect_not(file_exists(ran), "direnv ran a .envrc planted inside: %s", r.err);
	run_free(&r);
	set_config(&w, ", \"protected_paths\": []");
	r = sh_in(&w, NULL, "%s", plant);
	run_free(&r);
	r = sh_outside(&w, use);
	cr_expect(file_exists(ran), "control: direnv did not run the planted .envrc: %s%s", r.out,
		  r.err);
	run_free(&r);
	free(toml);
	free(ran);
	free(plant);
	free(use);
	world_free(&w);
}

/* A session's placeholder is held while it runs: another session in the
 * same project that ends first leaves it (removing it would take the
 * guard away from the first: a directory removed outside loses the mounts
 * on it). The last one to end removes it. */
BOTH_USERS(guards, placeholders_outlive_a_shorter_session, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gheld", "");
	char *vscode = at(w.proj, ".vscode"), *go = at(w.proj, "go");
	char *result = at(w.proj, "result"), *settings = at(w.proj, ".vscode/settings.json");
	char *script = "while [ ! -e go ]; do sleep 0.05; done; "
		       "echo '{}' > .vscode/settings.json; echo $? > result";
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", script, NULL};
	pid_t first = world_spawn(&w, argv, w.proj);
	cr_assert(wait_exists(vscode, 10000), "the first session made no placeholder");
	struct run_result r = sh_in(&w, NULL, "%s", "true");
	cr_expect(present(w.proj, ".vscode"), "a shorter session removed the placeholder: %s",
		  r.err);
	run_free(&r);
	free(write_file(w.proj, "go", ""));
	cr_assert(wait_exists(result, 10000), "the first session did not try");
	cr_expect(wait_gone(first, 10000), "the first session did not end");
	char *rc = read_file(result);
	cr_expect(rc && strcmp(rc, "0\n") != 0, "the write was not refused: %s", rc);
	cr_expect_not(file_exists(settings), "settings were planted after the other session");
	cr_expect_not(present(w.proj, ".vscode"), "the last session left its placeholder");
	free(rc);
	free(vscode);
	free(go);
	free(result);
	free(settings);
	world_free(&w);
}

/* A process of the session that outlives its command: when the session
 * holds placeholders, cordon returns only once every process of the
 * session is gone, since removing a placeholder outside takes the
 * read-only mount away inside (a process still running could then plant
 * in its place). Judged at the moment cordon returns: the process is gone,
 * nothing was planted, and the placeholder is removed. */
BOTH_USERS(guards, placeholders_go_only_after_the_whole_session, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gafter", "");
	char *bgpid = at(w.proj, "bgpid");
	const char *script =
		"sh -c 'trap \"\" HUP TERM INT; while :; do mkdir .vscode 2>/dev/null; "
		"echo planted > .vscode/settings.json 2>/dev/null; done' "
		">/dev/null 2>&1 & echo $! > bgpid";
	for (int i = 0; i < 5; i++) {
		struct run_result r = sh_in(&w, NULL, "%s", script);
		char *s = read_file(bgpid);
		pid_t pid = s ? (pid_t)atoi(s) : 0;
		bool alive = pid > 0 && kill(pid, 0) == 0;
		cr_assert_gt(pid, 0, "the loop never started: %s", r.err);
		cr_expect_not(alive,
			      "a process of the session ran on after cordon returned (round %d)",
			      i);
		cr_expect_not(present(w.proj, ".vscode/settings.json"),
			      "settings landed as the session ended (round %d)", i);
		cr_expect_not(present(w.proj, ".vscode"), "the placeholder was left (round %d)", i);
		free(s);
		run_free(&r);
		unlink(bgpid);
		char *planted = at(w.proj, ".vscode/settings.json"), *dir = at(w.proj, ".vscode");
		unlink(planted);
		rmdir(dir);
		free(planted);
		free(dir);
	}
	free(bgpid);
	world_free(&w);
}

/* Nothing of the user's is removed: an empty settings directory made
 * outside before the session stays, and a placeholder filled outside while
 * the session runs stays with what was put in it, no longer marked as
 * cordon's. */
BOTH_USERS(guards, placeholders_keep_what_the_user_made, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gkeep", "");
	need_user_xattrs(&w);
	char *idea = at(w.proj, ".idea"), *vscode = at(w.proj, ".vscode");
	char *go = at(w.proj, "go"), *mine = at(w.proj, ".vscode/mine.json");
	cr_assert_eq(mkdir(idea, 0755), 0);
	if (who->user)
		cr_assert_eq(chown(idea, w.uid, w.gid), 0);
	char *script = "while [ ! -e go ]; do sleep 0.05; done";
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", script, NULL};
	pid_t pid = world_spawn(&w, argv, w.proj);
	cr_assert(wait_exists(vscode, 10000), "the session made no placeholder");
	char v[4];
	/* It is made, then marked: the mark may come a moment later. */
	for (int i = 0; i < 1000 && getxattr(vscode, "user.cordon.placeholder", v, sizeof(v)) <= 0;
	     i++)
		usleep(10000);
	cr_expect_gt(getxattr(vscode, "user.cordon.placeholder", v, sizeof(v)), 0,
		     "the placeholder is not marked as cordon's");
	free(write_file(w.proj, ".vscode/mine.json", "{\"mine\": 1}"));
	free(write_file(w.proj, "go", ""));
	cr_expect(wait_gone(pid, 10000), "the session did not end");
	cr_expect(present(w.proj, ".idea"), "the user's own empty .idea was removed");
	cr_expect(contains(mine, "mine"), "what was put in the placeholder outside was lost");
	cr_expect_lt(getxattr(vscode, "user.cordon.placeholder", v, sizeof(v)), 0,
		     "a filled placeholder is still marked as cordon's");
	free(idea);
	free(vscode);
	free(go);
	free(mine);
	world_free(&w);
}

/* The names in DIR, sorted, one a line (malloc'd). */
static char *names_in(const char *dir)
{
	struct dirent **v;
	int n = scandir(dir, &v, NULL, alphasort);
	cr_assert_geq(n, 0, "%s: %s", dir, strerror(errno));
	char *out = strdup("");
	for (int i = 0; i < n; i++) {
		if (strcmp(v[i]->d_name, ".") != 0 && strcmp(v[i]->d_name, "..") != 0) {
			char *more = fmt("%s%s\n", out, v[i]->d_name);
			free(out);
			out = more;
		}
		free(v[i]);
	}
	free(v);
	return out;
}

/* A launcher killed while it makes the stand-ins (SIGKILL at moments
 * spread over its start-up) leaves none a later session takes for the
 * user's. Made in place and marked after, one killed between the two left
 * ".envrc", ".idea" or ".vscode" empty and unmarked, for good (38b F3: 3
 * in 60 kills here). Once a session has run its course there, the project
 * holds only what it held. Control: that session has the stand-ins. */
BOTH_USERS(guards, a_launcher_killed_while_making_stand_ins_leaves_none, .timeout = 120)
{
	struct world w;
	world_for(&w, who, "gkilled", "");
	need_user_xattrs(&w);
	/* The session's socket directories, which a kill leaves too, kept in
	 * the world (a test build's hook: apart from the suite's other
	 * sessions). */
	char *run = at(w.dir, "run");
	cr_assert_eq(mkdir(run, 0700), 0);
	if (who->user)
		cr_assert_eq(chown(run, w.uid, w.gid), 0);
	char *xdg = fmt("CORDON_TEST_SOCKETS=%s/cordon", run);
	world_setenv(&w, xdg);
	free(write_file(w.proj, "mine.txt", "mine\n"));
	world_give(&w);
	char *before = names_in(w.proj);
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sleep", "5", NULL};
	for (int i = 0; i < 80; i++) {
		pid_t pid = world_spawn(&w, argv, w.proj);
		usleep((useconds_t)i * 300);
		cr_assert_eq(kill(pid, SIGKILL), 0);
		int st;
		waitpid(pid, &st, 0);
	}
	/* A killed launcher's keeper, ending its session, may hold them a
	 * moment longer: a session ends without removing what another holds,
	 * and the next one tries again. An unmarked one stays for good. */
	char *after = NULL;
	for (int tries = 0; tries < 10; tries++) {
		struct run_result r =
			sh_in(&w, NULL, "%s", "test -d .vscode && test -d .idea && echo standins");
		cr_expect(strstr(r.out, "standins"), "control: no stand-ins inside: %s", r.err);
		run_free(&r);
		free(after);
		after = names_in(w.proj);
		if (strcmp(after, before) == 0)
			break;
		usleep(300000);
	}
	cr_expect_str_eq(after, before, "the project keeps what killed launchers made");
	/* Their socket directories, empty in the sessions' cordon/:
	 * a session removes those a minute old that nothing holds (made older
	 * here), but not one a live session holds (its flock, as a
	 * launcher's), nor one with something in it. */
	char *sockets = at(run, "cordon");
	char *held = at(sockets, "cordon-00000000000000a1"),
	     *full = at(sockets, "cordon-00000000000000a2");
	char *old = at(sockets, "cordon-00000000000000a3");
	cr_assert(mkdir(held, 0700) == 0 && mkdir(full, 0700) == 0 && mkdir(old, 0700) == 0);
	free(write_file(full, "sock", ""));
	/* (a1 and a2 marked as a session's; a3 not: an older cordon's.) */
	cr_assert(setxattr(held, "user.cordon.sockets", "1", 1, 0) == 0 &&
		  setxattr(full, "user.cordon.sockets", "1", 1, 0) == 0);
	if (who->user)
		cr_assert(chown(held, w.uid, w.gid) == 0 && chown(full, w.uid, w.gid) == 0 &&
			  chown(old, w.uid, w.gid) == 0);
	int hold = open(held, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert(hold >= 0 && flock(hold, LOCK_SH) == 0);
	char *age = fmt("find %s -maxdepth 1 -name '*cordon-*' -exec touch -d @%lld {} +", sockets,
			(long long)time(NULL) - 120);
	struct run_result aged = sh_outside(&w, age);
	run_free(&aged);
	/* (A killed launcher's session, /bin/sleep 5 started late under load,
	 * may hold its own a few seconds more: each later session tries
	 * again.) */
	char *left = NULL;
	for (int tries = 0; tries < 30; tries++) {
		struct run_result last = sh_in(&w, NULL, "%s", "true");
		run_free(&last);
		free(left);
		left = names_in(sockets);
		if (strcmp(left, "cordon-00000000000000a1\ncordon-00000000000000a2\n"
				 "cordon-00000000000000a3\n") == 0)
			break;
		usleep(300000);
	}
	cr_expect_str_eq(left,
			 "cordon-00000000000000a1\ncordon-00000000000000a2\n"
			 "cordon-00000000000000a3\n",
			 "the sessions' socket directory keeps: %s", left);
	close(hold);
	char *sock = at(full, "sock");
	unlink(sock);
	rmdir(full), rmdir(held), rmdir(old);
	free(sock), free(left), free(age), free(held), free(full), free(old), free(sockets);
	/* Not a check: the cgroups killed launchers left (root), once older
	 * than a second (a launch beside makes one and fills it at once). */
	char *cg = NULL, *sid = NULL;
	if (!who->user) {
		struct run_result r = sh_in(&w, NULL, "%s", "echo $CORDON_SESSION");
		sid = strndup(r.out, strcspn(r.out, "\n"));
		run_free(&r);
		cg = cgroup_of(sid);
	}
	if (cg) {
		sleep(2);
		(void)cordon_cgroup_sweep(cg, 1);
	}
	free(cg);
	free(sid);
	free(after);
	free(before);
	free(xdg);
	free(run);
	world_free(&w);
}

/* A directory the caller hands the session (on stdin, or kept with
 * --pass-fd) was opened in the host's mount namespace: walked from it
 * (cd /proc/self/fd/3), the session met none of the guards' mounts and
 * wrote .git/hooks (review 40c F2). It is opened again inside, where the
 * guards are; one cordon covers (a hidden directory in the project)
 * cannot be, and refuses the session, whose command never runs. Control:
 * outside, the hooks land. */
BOTH_USERS(guards, a_directory_handed_in_meets_the_guards, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "dirin");
	char *secret = at(w.proj, "secretdir"), *marker = at(w.proj, "ran");
	cr_assert_eq(mkdir(secret, 0700), 0);
	free(write_file(w.dir, "hide.json", "{\"additional_hidden_paths\": [\"secretdir\"]}"));
	char *hide = at(w.dir, "hide.json");
	world_give(&w);
	const char *bin = who->user ? w.user_cordon : CORDON_BIN;
	char *hooks = at(w.proj, ".git/hooks");
	const char *plant = "cd /proc/self/fd/3 && echo x > .git/hooks/post-checkout; "
			    "cd /proc/self/fd/0 && echo x > .git/hooks/post-merge";
	char *control = fmt("exec 3<%s; /bin/sh -c '%s' <%s", w.proj, plant, w.proj);
	char *argv[] = {"/bin/sh", "-c", control, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_assert(present(hooks, "post-checkout") && present(hooks, "post-merge"),
		  "control: outside, the hooks were not written: %s", r.err);
	run_free(&r);
	char *a = at(hooks, "post-checkout"), *b = at(hooks, "post-merge");
	unlink(a), unlink(b);
	char *inside = fmt("exec 3<%s; %s run --config %s --pass-fd 3 -- /bin/sh -c '%s' <%s",
			   w.proj, bin, w.cfg, plant, w.proj);
	argv[2] = inside;
	r = world_run(&w, argv, w.proj);
	cr_expect_not(present(hooks, "post-checkout"), "a hook written through --pass-fd: %s",
		      r.err);
	cr_expect_not(present(hooks, "post-merge"), "a hook written through stdin: %s", r.err);
	run_free(&r);
	char *hidden = fmt("exec 3<%s; %s run --config %s --pass-fd 3 -- /bin/touch %s", secret,
			   bin, hide, marker);
	argv[2] = hidden;
	r = world_run(&w, argv, w.proj);
	cr_expect_eq(r.status, 125, "a hidden directory handed in: %d %s", r.status, r.err);
	cr_expect(strstr(r.err, "descriptor 3"), "not said: %s", r.err);
	cr_expect_not(file_exists(marker), "the command ran");
	run_free(&r);
	unlink(a), unlink(b);
	free(a), free(b), free(hidden), free(inside), free(control), free(hooks);
	free(marker), free(secret), free(hide);
	world_free(&w);
}

/* Something a session put at the name a stand-in is first made under
 * (..vscode.cordon-standin, not empty) does not turn the next launches
 * back to making .vscode in place, where a launcher killed before the
 * mark leaves it unmarked (round 40e F3): seen from outside (inotify),
 * .vscode arrives by a rename, never made at its name; it is marked, and
 * only what was there stays after. */
BOTH_USERS(guards, a_planted_stand_in_name_changes_nothing, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gplanted", "");
	need_user_xattrs(&w);
	char *blocker = at(w.proj, "..vscode.cordon-standin");
	cr_assert_eq(mkdir(blocker, 0755), 0);
	free(write_file(blocker, "mine", "x"));
	world_give(&w);
	char *before = names_in(w.proj);
	int in = inotify_init1(IN_NONBLOCK | IN_CLOEXEC);
	cr_assert(in >= 0 && inotify_add_watch(in, w.proj, IN_CREATE | IN_MOVED_TO) >= 0);
	char *script = "getfattr --only-values -n user.cordon.placeholder .vscode";
	struct run_result r = sh_in(&w, NULL, "%s", script);
	char ev[65536] __attribute__((aligned(8)));
	ssize_t got = read(in, ev, sizeof(ev));
	uint32_t how = 0;
	for (ssize_t off = 0; off < got;) {
		const struct inotify_event *e = (const void *)(ev + off);
		if (e->len && strcmp(e->name, ".vscode") == 0)
			how |= e->mask & (IN_CREATE | IN_MOVED_TO);
		off += (ssize_t)(sizeof(*e) + e->len);
	}
	close(in);
	cr_expect_eq(how, IN_MOVED_TO, "the stand-in was made at its name (%#x)", how);
	cr_expect(strstr(r.out, "1"), "the stand-in was not marked as it appeared: %s%s", r.out,
		  r.err);
	run_free(&r);
	char *after = names_in(w.proj);
	cr_expect_str_eq(after, before, "the project holds what it did not");
	free(after), free(before), free(blocker);
	world_free(&w);
}

/* What the caller hands in, round 40d: a protected hook on stdin is
 * opened again where it is read-only (written through /proc/self/fd/0 on
 * the host's mount, it ran outside: F2); a directory whose path is too
 * long to read refuses the session (it walked the host's tree: F1); a
 * pty master is left as it is (opened again, it was a new pair: F4).
 * Controls: outside, the write lands and the master reaches its slave. */
BOTH_USERS(guards, what_is_handed_in_keeps_its_guards_and_its_state, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "handin");
	char *hook = at(w.proj, ".git/hooks/post-checkout");
	free(write_file(w.proj, ".git/hooks/post-checkout", "#!/bin/sh\necho mine\n"));
	if (who->user)
		cr_assert_eq(chown(hook, w.uid, w.gid), 0);
	const char *bin = who->user ? w.user_cordon : CORDON_BIN;
	const char *rewrite = "echo planted > /proc/self/fd/0";
	for (int inside = 0; inside < 2; inside++) {
		char *s = inside ? fmt("%s run --config %s -- /bin/sh -c '%s' < %s", bin, w.cfg,
				       rewrite, hook)
				 : fmt("/bin/sh -c '%s' < %s", rewrite, hook);
		char *argv[] = {"/bin/sh", "-c", s, NULL};
		struct run_result r = world_run(&w, argv, w.proj);
		char *now = slurp(hook);
		if (inside)
			cr_expect_str_eq(now, "#!/bin/sh\necho mine\n",
					 "the hook was written through stdin: %s", r.err);
		else
			cr_assert_str_eq(now, "planted\n", "control: %s", r.err);
		free(now);
		run_free(&r);
		free(s);
		free(write_file(w.proj, ".git/hooks/post-checkout", "#!/bin/sh\necho mine\n"));
		if (who->user)
			cr_assert_eq(chown(hook, w.uid, w.gid), 0);
	}
	/* Output sent into it (round 40g G4): refused, saying how to do it. */
	char *into =
		fmt("%s run --config %s -- /bin/echo planted >> %s; echo rc=$?", bin, w.cfg, hook);
	char *iargv[] = {"/bin/sh", "-c", into, NULL};
	struct run_result ir = world_run(&w, iargv, w.proj);
	char *kept = slurp(hook);
	cr_expect_str_eq(kept, "#!/bin/sh\necho mine\n", "output went into the hook: %s", ir.err);
	cr_expect(strstr(ir.out, "rc=125") && strstr(ir.err, "keeps read-only") &&
			  strstr(ir.err, "| cat >>"),
		  "not refused, or not said how: %s%s", ir.out, ir.err);
	free(kept);
	run_free(&ir);
	free(into);
	/* The hook by a second name removed before the launch (round 40g G2:
	 * its path read "x (deleted)", and it was rewritten through the
	 * descriptor); a file with no name left (a here-document's) and a
	 * plain one, whose offset the caller shares, run as before. */
	char *second =
		fmt("cd %s && ln -f %s x && exec 3<x && rm x && %s run --config %s --pass-fd 3 -- "
		    "/bin/sh -c 'echo planted > /proc/self/fd/3'; echo rc=$?; "
		    "printf 'one\\ntwo\\n' > gone && exec 4<gone && rm gone && %s run --config %s "
		    "--pass-fd 4 -- /bin/cat /proc/self/fd/4; printf 'l1\\nl2\\n' > plain && "
		    "(%s run --config %s -- /bin/sh -c 'read l; echo in:$l'; cat) < plain",
		    w.proj, hook, bin, w.cfg, bin, w.cfg, bin, w.cfg);
	char *sargv[] = {"/bin/sh", "-c", second, NULL};
	struct run_result sr = world_run(&w, sargv, w.proj);
	char *was = slurp(hook);
	cr_expect_str_eq(was, "#!/bin/sh\necho mine\n", "written through a removed name: %s",
			 sr.err);
	cr_expect(strstr(sr.out, "rc=125"), "a removed name was not refused: %s%s", sr.out, sr.err);
	cr_expect(strstr(sr.out, "one\ntwo\n"), "a file with no name left: %s%s", sr.out, sr.err);
	cr_expect(strstr(sr.out, "in:l1\nl2\n"), "the caller's offset was not shared: %s%s", sr.out,
		  sr.err);
	free(was);
	run_free(&sr);
	free(second);
	/* A directory 4,400 bytes deep in the project, handed in. */
	char *up = strdup("");
	for (int i = 0; i < 23; i++) {
		char *more = fmt("%s../", up);
		free(up);
		up = more;
	}
	char *deep = fmt("cd %s && seg=$(printf 'd%%.0s' $(seq 1 200)) && mkdir deep && cd deep && "
			 "for i in $(seq 1 22); do mkdir $seg && cd $seg || exit 1; done && "
			 "exec 3<. && cd %s && %s run --config %s --pass-fd 3 -- /bin/sh -c "
			 "'cd /proc/self/fd/3 && echo x > %s.git/hooks/post-checkout'; echo rc=$?",
			 w.proj, w.proj, bin, w.cfg, up);
	char *argv[] = {"/bin/bash", "-c", deep, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	char *now = slurp(hook);
	cr_expect_str_eq(now, "#!/bin/sh\necho mine\n", "written through a deep directory: %s",
			 r.err);
	cr_expect(strstr(r.out, "rc=125") && strstr(r.err, "descriptor 3"),
		  "a directory too deep to name was not refused: %s%s", r.out, r.err);
	free(now);
	run_free(&r);
	char *clean = fmt("rm -rf %s/deep", w.proj);
	r = sh_outside(&w, clean);
	run_free(&r);
	/* A pty master on --pass-fd 47: what is written to it reaches the
	 * caller's slave. */
	int master = posix_openpt(O_RDWR | O_NOCTTY);
	cr_assert(master >= 0 && grantpt(master) == 0 && unlockpt(master) == 0);
	int slave = open(ptsname(master), O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	cr_assert(slave >= 0 && dup2(master, 47) == 47);
	close(master);
	char *pty = fmt("%s run --config %s --pass-fd 47 -- /bin/bash -c 'echo through >&47'", bin,
			w.cfg);
	argv[2] = pty;
	r = world_run(&w, argv, w.proj);
	char got[256] = "";
	for (int i = 0; i < 100 && !strstr(got, "through"); i++) {
		ssize_t n = read(slave, got + strlen(got), sizeof(got) - strlen(got) - 1);
		if (n <= 0)
			usleep(20000);
	}
	cr_expect(strstr(got, "through"), "the caller's pty did not get it: %s (%s)", got, r.err);
	run_free(&r);
	close(47);
	close(slave);
	free(pty), free(clean), free(deep), free(hook), free(up);
	world_free(&w);
}

/* A placeholder another process keeps locked for long (flock LOCK_EX)
 * could be removed under the session: it is refused, naming the path, and
 * its command never runs. Control: once let go, the same session runs. */
BOTH_USERS(guards, a_locked_placeholder_refuses_the_session, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "glock", "");
	char *vscode = at(w.proj, ".vscode"), *ran = at(w.proj, "ran");
	cr_assert_eq(mkdir(vscode, 0755), 0);
	if (who->user)
		cr_assert_eq(chown(vscode, w.uid, w.gid), 0);
	int fd = open(vscode, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
	cr_assert_geq(fd, 0);
	cr_assert_eq(flock(fd, LOCK_EX), 0);
	struct run_result r = sh_in(&w, NULL, "%s", "echo yes > ran");
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect(strstr(r.err, vscode) && strstr(r.err, "lock"), "not said: %s", r.err);
	cr_expect_not(file_exists(ran), "the command ran");
	run_free(&r);
	close(fd);
	r = sh_in(&w, NULL, "%s", "echo yes > ran");
	cr_expect_eq(r.status, 0, "control: %s", r.err);
	cr_expect(contains(ran, "yes"), "control: the command did not run: %s", r.err);
	run_free(&r);
	free(vscode);
	free(ran);
	world_free(&w);
}

/* Standalone mode (LD_PRELOAD in a terminal profile, no launcher): the
 * shell's original process, which stays the supervisor, makes and holds
 * the placeholders the same way, and removes them when the shell ends. */
BOTH_USERS(guards, standalone_mode_keeps_settings_dirs_read_only, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gstand", "");
	char *pre = fmt("LD_PRELOAD=%s", CORDON_SHIM_SO), *cfg = fmt("CORDON_CONFIG=%s", w.cfg);
	char *script = "ls -a; mkdir -p .claude; echo '{\"hooks\": 1}' > .claude/settings.json; "
		       "echo \"$CORDON_SANDBOX\" > mark; true";
	char *argv[] = {"/usr/bin/env", pre, cfg, "/bin/sh", "-c", script, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	char *mark = at(w.proj, "mark");
	cr_assert(contains(mark, "1"), "not sandboxed in standalone mode: %s", r.err);
	cr_expect(strstr(r.out, ".claude"), "no placeholder inside: %s", r.out);
	cr_expect_not(present(w.proj, ".claude"), "planted or left: %s", r.err);
	run_free(&r);
	set_config(&w, ", \"protected_paths\": []");
	r = world_run(&w, argv, w.proj);
	cr_expect(present(w.proj, ".claude/settings.json"), "control: nothing planted: %s", r.err);
	run_free(&r);
	free(mark);
	free(pre);
	free(cfg);
	world_free(&w);
}

/* ---- cordon's session registry ---- */

#define FORGED_ID "0123456789abcdef"

/* A record of a live session (no cgroup: a subreaper one) whose supervisor
 * is process WATCHER. */
static char *forged_record(pid_t watcher, long long started)
{
	return fmt("{\"id\": \"" FORGED_ID "\", \"shell\": %d, \"watcher\": %d, \"keeper\": 0, "
		   "\"started\": %lld, \"cgroup\": \"\", \"project\": \"/\", \"sockets\": \"\"}",
		   (int)watcher, (int)watcher, started);
}

/* cordon list and kill, run outside, act on the records in the session
 * registry (an ordinary user's is in ~/.local/state/cordon/sessions, which
 * a writable home makes writable; root's is /run/cordon). No record is
 * planted there from inside; and a record naming a process that is not
 * cordon as a session's supervisor does not have cordon kill signal it.
 * Controls: outside, the record is written, and SIGUSR1 (what cordon kill
 * sends) ends the process it named. */
BOTH_USERS(guards, session_registry_takes_no_planted_record, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "registry", "");
	free(write_file(w.home, "work/keep", "x"));
	world_give(&w);
	char *dir =
		who->user ? fmt("%s/.local/state/cordon/sessions", w.home) : strdup("/run/cordon");
	char *record = fmt("%s/" FORGED_ID ".json", dir);
	struct stat st;
	cr_assert_neq(lstat(record, &st), 0, "%s exists", record);
	char *body = forged_record(1, 1);
	char *plant = fmt("mkdir -p '%s' && echo '%s' > '%s'; echo plant $?", dir, body, record);
	char *opts = fmt("-p %s", w.home);
	struct run_result r = sh_in(&w, opts, "%s", plant);
	cr_expect_neq(lstat(record, &st), 0, "a session record was planted: %s%s", r.out, r.err);
	run_free(&r);
	unlink(record);
	r = sh_outside(&w, plant);
	cr_assert(lstat(record, &st) == 0, "control: outside, no record: %s%s", r.out, r.err);
	run_free(&r);
	unlink(record);

	/* A record naming an ordinary process of the user's. */
	char *sleeper[] = {"/bin/sleep", "60", NULL};
	pid_t victim = world_spawn(&w, sleeper, w.proj);
	usleep(100000);
	/* (Started by the session's start: taken for its supervisor, but not
	 * cordon; started after it: not its supervisor at all, round 40f N1.) */
	char *kill_it[] = {CORDON_BIN, "kill", FORGED_ID, NULL};
	int status = 0;
	for (int late = 0; late < 2; late++) {
		free(body);
		body = forged_record(victim,
				     late ? (long long)time(NULL) - 60 : (long long)time(NULL));
		free(write_file(dir, FORGED_ID ".json", body));
		if (who->user)
			cr_assert_eq(chown(record, w.uid, w.gid), 0);
		r = world_run(&w, kill_it, w.proj);
		usleep(200000);
		cr_expect_eq(waitpid(victim, &status, WNOHANG), 0,
			     "%d: cordon kill signalled a process that is not cordon: %s", late,
			     r.err);
		cr_expect(strstr(r.err, late ? "no such session" : "which is not cordon"),
			  "%d: not said: %s", late, r.err);
		run_free(&r);
		unlink(record);
	}
	cr_assert_eq(kill(victim, SIGUSR1), 0);
	cr_assert_eq(waitpid(victim, &status, 0), victim);
	cr_assert(WIFSIGNALED(status) && WTERMSIG(status) == SIGUSR1,
		  "control: SIGUSR1 did not end the process");
	free(plant);
	free(opts);
	free(body);
	free(record);
	free(dir);
	world_free(&w);
}

/* ---- the runtime directory ---- */

/* What the test made in the runtime directory, removed at the end. */
struct runtime {
	struct runtime_dir dir;
	const char *rt; /* dir.path */
	char *units, *logins_dir, *logins;
	bool made_units, made_logins;
};

static void runtime_make(struct runtime *x, uid_t uid, gid_t gid)
{
	runtime_dir_make(&x->dir, uid, gid);
	x->rt = x->dir.path;
	x->units = fmt("%s/systemd", x->rt);
	x->logins_dir = fmt("%s/containers", x->rt);
	x->logins = fmt("%s/auth.json", x->logins_dir);
	struct stat st;
	x->made_units = mkdir(x->units, 0755) == 0;
	x->made_logins = mkdir(x->logins_dir, 0700) == 0;
	if (stat(x->logins, &st) == 0)
		cr_skip_test("%s exists (a real podman login): not touched", x->logins);
	free(write_file(x->logins_dir, "auth.json",
			"{\"auths\": {\"r\": {\"auth\": \"" SECRET "\"}}}"));
	const char *mine[] = {x->units, x->logins_dir, x->logins};
	for (size_t i = 0; i < 3; i++)
		cr_assert_eq(chown(mine[i], uid, gid), 0, "%s", mine[i]);
}

static void runtime_remove(struct runtime *x)
{
	char *left[] = {fmt("%s/user/cordon-test.service", x->units), fmt("%s/user", x->units),
			fmt("%s/user.control", x->units), fmt("%s/cordon-test-ok", x->rt)};
	for (size_t i = 0; i < 4; i++) {
		if (unlink(left[i]) < 0)
			(void)rmdir(left[i]);
		free(left[i]);
	}
	unlink(x->logins);
	if (x->made_logins)
		rmdir(x->logins_dir);
	if (x->made_units)
		rmdir(x->units);
	runtime_dir_free(&x->dir);
	free(x->units);
	free(x->logins_dir);
	free(x->logins);
}

/* Whether DIR is missing or an empty directory. */
static bool dir_empty_or_missing(const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return errno == ENOENT;
	bool empty = true;
	for (struct dirent *e; empty && (e = readdir(d));)
		empty = strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0;
	closedir(d);
	return empty;
}

/* Rootless container runtimes keep each container's state in the runtime
 * directory and trust it: a poststop hook a session added to runc's
 * runc/ID/state.json ran outside at the container's delete (round 59b
 * F3). The state stays as it was (judged from outside), and a runtime's
 * missing directory is made as the session starts, read-only inside;
 * control: another file in the runtime directory is written. */
BOTH_USERS(guards, container_state_in_the_runtime_dir_stays, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir rd;
	runtime_dir_make(&rd, uid, gid);
	char *runc = fmt("%s/runc", rd.path), *crun = fmt("%s/crun", rd.path);
	struct stat st;
	/* (Empty, as every session leaves them: taken; a real runtime's,
	 * with containers in it, is not touched.) */
	if (!dir_empty_or_missing(runc) || !dir_empty_or_missing(crun))
		cr_skip_test("%s or %s holds a real runtime's state: not touched", runc, crun);
	bool had_runc = lstat(runc, &st) == 0, had_crun = lstat(crun, &st) == 0;
	/* (The others the session makes, removed after where they were not
	 * there and stay empty.) */
	static const char *const made[] = {"youki",  "containerd", "docker", "libpod",
					   "podman", "containers", "buildah"};
	bool was[sizeof(made) / sizeof(*made)];
	for (size_t i = 0; i < sizeof(made) / sizeof(*made); i++) {
		char *m = fmt("%s/%s", rd.path, made[i]);
		was[i] = lstat(m, &st) == 0;
		free(m);
	}
	char *extra = fmt(", \"additional_read_write_paths\": [\"%s\"]", rd.path);
	struct world w;
	world_for(&w, who, "rtrunc", extra);
	char *rtenv = fmt("XDG_RUNTIME_DIR=%s", rd.path);
	world_setenv(&w, rtenv);
	char *ctr = fmt("%s/ctr", runc), *state = fmt("%s/state.json", ctr);
	cr_assert(had_runc || mkdir(runc, 0700) == 0);
	cr_assert_eq(mkdir(ctr, 0700), 0);
	free(write_file(ctr, "state.json", "{\"id\": \"ctr\"}"));
	cr_assert_eq(chown(runc, uid, gid), 0);
	cr_assert_eq(chown(ctr, uid, gid), 0);
	cr_assert_eq(chown(state, uid, gid), 0);
	/* (A name of its own: the other runtime-directory tests run beside.) */
	char *other = fmt("%s/cordon-test-runc-%d", rd.path, (int)getpid());
	struct run_result r = sh_in(&w, NULL,
				    "echo '{\"hooks\": {\"poststop\": []}}' > %s; "
				    "mkdir -p %s/x; echo ok > %s",
				    state, crun, other);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	cr_assert(file_exists(other), "control: the runtime directory is not writable\n%s", diag);
	char *now = read_file(state);
	cr_expect(now && strcmp(now, "{\"id\": \"ctr\"}") == 0, "the state was changed: %s\n%s",
		  now ? now : "(gone)", diag);
	/* (Made, empty, as the session started: round 59d F3.) */
	char *crun_x = fmt("%s/x", crun);
	cr_expect(lstat(crun_x, &st) < 0, "crun/x made inside stayed\n%s", diag);
	free(crun_x);
	free(now);
	char *rm = fmt("rm -rf %s %s %s.cordon-disarmed* %s/x", ctr, other, crun, crun);
	cr_expect_eq(system(rm), 0);
	free(rm);
	if (!had_runc)
		(void)rmdir(runc);
	if (!had_crun)
		(void)rmdir(crun);
	for (size_t i = 0; i < sizeof(made) / sizeof(*made); i++) {
		char *m = fmt("%s/%s", rd.path, made[i]);
		if (!was[i])
			(void)rmdir(m);
		free(m);
	}
	free(other);
	free(diag);
	free(state);
	free(ctr);
	free(rtenv);
	world_free(&w);
	free(extra);
	free(crun);
	free(runc);
	runtime_dir_free(&rd);
}

/* fnm's link for each shell (`fnm env`: RUNTIME/fnm_multishells/PID_MS,
 * leading to a node installation), whose bin/ comes first on that shell's
 * PATH: a session removed it and made a directory of its name with a
 * bin/node of its own, and the shell outside ran that at its next node
 * (round 60e F2). The link stays what it was (judged outside, by what the
 * node it leads to prints); control: another file in the runtime
 * directory is written, and the same swap outside takes. */
BOTH_USERS(guards, fnm_s_shell_links_stay_in_the_runtime_dir, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir rd;
	runtime_dir_make(&rd, uid, gid);
	char *fnm = fmt("%s/fnm_multishells", rd.path);
	struct stat st;
	bool had = lstat(fnm, &st) == 0;
	char *extra = fmt(", \"additional_read_write_paths\": [\"%s\"]", rd.path);
	struct world w;
	world_for(&w, who, "rtfnm", extra);
	char *rtenv = fmt("XDG_RUNTIME_DIR=%s", rd.path);
	world_setenv(&w, rtenv);
	free(write_file(w.outside, "node-v20/bin/node", "#!/bin/sh\necho real\n"));
	char *real = fmt("%s/node-v20/bin/node", w.outside);
	cr_assert_eq(chmod(real, 0755), 0);
	world_give(&w);
	cr_assert(had || mkdir(fnm, 0700) == 0);
	cr_assert_eq(chown(fnm, uid, gid), 0);
	char *link = fmt("%s/%d_1700000000000", fnm, (int)getpid());
	char *target = fmt("%s/node-v20", w.outside);
	cr_assert_eq(symlink(target, link), 0);
	cr_assert_eq(lchown(link, uid, gid), 0);
	char *other = fmt("%s/cordon-test-fnm-%d", rd.path, (int)getpid());
	char *swap = fmt("rm -f %s && mkdir -p %s/bin && printf '#!/bin/sh\\necho planted\\n' > "
			 "%s/bin/node && chmod +x %s/bin/node",
			 link, link, link, link);
	struct run_result r = sh_in(&w, NULL, "%s; echo swap $?; echo ok > %s", swap, other);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	cr_expect(file_exists(other), "control: the runtime directory is not writable\n%s", diag);
	char *node = fmt("%s/bin/node", link);
	char *argv[] = {node, NULL};
	r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.out, "real") && lstat(link, &st) == 0 && S_ISLNK(st.st_mode),
		  "the shell's node is not the one it was: %s\n%s", r.out, diag);
	run_free(&r);
	/* Control: the same swap outside takes. */
	r = sh_outside(&w, swap);
	run_free(&r);
	r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.out, "planted"), "control: the swap outside did not take: %s%s", r.out,
		  r.err);
	run_free(&r);
	char *rm = fmt("rm -rf %s %s", link, other);
	cr_expect_eq(system(rm), 0);
	free(rm);
	if (!had)
		(void)rmdir(fnm);
	free(node), free(swap), free(other), free(target), free(link), free(real), free(diag);
	free(rtenv);
	world_free(&w);
	free(extra);
	free(fnm);
	runtime_dir_free(&rd);
}

/* The same where XDG_RUNTIME_DIR names another directory of the user's
 * (0700, the user's: no logind, WSL, a container, Qt's /tmp/runtime-USER),
 * where runc keeps its state then: round 59d F6, only /run/user/UID was
 * guarded. It lies in a directory the session may write, as /tmp's would:
 * neither a write into runc/ID/state.json, nor a crun/ made, nor the
 * runtime directory moved aside and a runc/ laid in its place reaches
 * what runc outside reads. Control: the runtime directory itself is
 * written inside, and the same write outside changes the state. */
static void xdg_runtime_dir_kept(const struct who *who, mode_t mode)
{
	struct world w;
	world_for(&w, who, "rtxdg", "");
	char *shared = path_join(w.dir, "shared"), *rt = path_join(shared, "rt");
	cr_assert_eq(mkdir(shared, 0755), 0);
	cr_assert_eq(mkdir(rt, mode), 0);
	cr_assert_eq(chmod(rt, mode), 0);
	char *ctr = fmt("%s/runc/ctr", rt), *state = fmt("%s/state.json", ctr);
	char *mk =
		fmt("mkdir -p %s && echo '{\"id\": \"ctr\"}' > %s && chown -R %u:%u %s", ctr, state,
		    w.as_user ? (unsigned)w.uid : 0, w.as_user ? (unsigned)w.gid : 0, shared);
	cr_assert_eq(system(mk), 0);
	free(mk);
	FILE *f = fopen(w.cfg, "w");
	fprintf(f, "{" WORLD_BASE_RW ", \"additional_read_write_paths\": [\"%s\"]}", shared);
	fclose(f);
	char *rtenv = fmt("XDG_RUNTIME_DIR=%s", rt);
	world_setenv(&w, rtenv);
	struct run_result r = sh_in(&w, NULL,
				    "echo '{\"hooks\": {\"poststop\": []}}' > %s; "
				    "mkdir -p %s/crun/x; echo ok > %s/other; "
				    "mv %s %s/moved; mkdir -p %s && echo planted > %s",
				    state, rt, rt, rt, shared, ctr, state);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	char *other = fmt("%s/other", rt);
	cr_assert(contains(other, "ok"), "control: the runtime directory is not writable\n%s",
		  diag);
	char *now = read_file(state);
	cr_expect(now && strcmp(now, "{\"id\": \"ctr\"}\n") == 0, "the state was changed: %s\n%s",
		  now ? now : "(gone)", diag);
	free(now);
	char *crun_x = fmt("%s/crun/x", rt);
	struct stat st;
	cr_expect(lstat(crun_x, &st) < 0, "crun/x made inside stayed\n%s", diag);
	free(crun_x);
	/* Control: outside, as the user, the same write changes it. */
	char *sh[] = {"/bin/sh", "-c", fmt("echo changed > %s", state), NULL};
	r = world_run(&w, sh, w.proj);
	run_free(&r);
	cr_expect(contains(state, "changed"), "control: the write outside did not change it");
	sweep_forget(shared);
	free(sh[2]);
	free(other);
	free(diag);
	free(rtenv);
	free(state);
	free(ctr);
	free(rt);
	free(shared);
	world_free(&w);
}

BOTH_USERS(guards, container_state_in_xdg_runtime_dir_stays, .timeout = 60)
{
	xdg_runtime_dir_kept(who, 0700);
}

/* The same where the runtime directory is not 0700: a session that made
 * it 0755 had later sessions leave it unguarded (round 60f F2). */
BOTH_USERS(guards, container_state_in_an_open_xdg_runtime_dir_stays, .timeout = 60)
{
	xdg_runtime_dir_kept(who, 0755);
}

/* The same where XDG_RUNTIME_DIR names a directory that does not exist
 * yet (Qt makes /tmp/runtime-USER when it needs one): a session could
 * make it and lay runc's state there for what trusts the variable later
 * (round 60f F2). It is made (0700, the user's) as the session starts,
 * and guarded. Control: written inside beside the guards, and the plant
 * made outside lands. */
BOTH_USERS(guards, a_missing_xdg_runtime_dir_is_made_and_kept, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "rtmiss", "");
	char *shared = path_join(w.dir, "shared"), *rt = path_join(shared, "rt");
	cr_assert_eq(mkdir(shared, 0755), 0);
	if (w.as_user)
		cr_assert_eq(chown(shared, w.uid, w.gid), 0);
	FILE *f = fopen(w.cfg, "w");
	fprintf(f, "{" WORLD_BASE_RW ", \"additional_read_write_paths\": [\"%s\"]}", shared);
	fclose(f);
	char *rtenv = fmt("XDG_RUNTIME_DIR=%s", rt);
	world_setenv(&w, rtenv);
	char *plant = fmt("mkdir -p %s/runc/ctr && echo '{}' > %s/runc/ctr/state.json", rt, rt);
	struct run_result r = sh_in(&w, NULL, "%s; echo ok > %s/other", plant, rt);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	char *other = fmt("%s/other", rt), *state = fmt("%s/runc/ctr/state.json", rt);
	cr_assert(contains(other, "ok"), "control: the runtime directory was not writable\n%s",
		  diag);
	struct stat st;
	cr_expect(stat(rt, &st) == 0 && (st.st_mode & 0777) == 0700 &&
			  st.st_uid == (w.as_user ? w.uid : 0),
		  "the runtime directory was not made the user's, 0700\n%s", diag);
	cr_expect_not(file_exists(state), "runc's state was laid inside\n%s", diag);
	char *sh[] = {"/bin/sh", "-c", plant, NULL};
	r = world_run(&w, sh, w.proj);
	run_free(&r);
	cr_expect(file_exists(state), "control: the plant outside did not land");
	sweep_forget(shared);
	free(state), free(other), free(diag), free(plant), free(rtenv), free(rt), free(shared);
	world_free(&w);
}

/* git's credential-cache daemon listens at ~/.cache/git/credential/socket:
 * where ~/.cache was writable, a session unlinked the socket (or found
 * none: the daemon ends after 15 minutes), listened there itself, and the
 * user's next git login outside sent it the password (round 60h H1). The
 * directory is read-only inside now: nothing of the session's listens
 * there. Judged outside: what the login sends reaches no listener of the
 * session's (its capture stays empty). Control: the same listener,
 * started outside, gets the password. */
static const char cred_listen_py[] =
	"import os, socket, sys, time\n"
	"path, out, stop = sys.argv[1], sys.argv[2], sys.argv[3]\n"
	"try:\n os.makedirs(os.path.dirname(path), 0o700, exist_ok=True); os.unlink(path)\n"
	"except OSError:\n pass\n"
	"try:\n"
	" s = socket.socket(socket.AF_UNIX); s.bind(path); s.listen(1); s.settimeout(0.1)\n"
	"except OSError as e:\n open(out, 'a').write('bind %d\\n' % e.errno); sys.exit(0)\n"
	"open(out, 'a').write('listening\\n')\n"
	"while not os.path.exists(stop):\n"
	" try:\n  c, _ = s.accept(); open(out, 'a').write(c.recv(4096).decode())\n"
	" except socket.timeout:\n  pass\n";

static const char cred_send_py[] =
	"import socket, sys\n"
	"try:\n"
	" s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1])\n"
	" s.sendall(b'action=store\\npassword=typed-" SECRET "\\n'); s.close()\n"
	"except OSError as e:\n print('connect', e.errno)\n";

BOTH_USERS(guards, git_s_credential_cache_socket_stays_the_user_s, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "gitcred", ", \"additional_read_write_paths\": [\"~/.cache\"]");
	char *dir = fmt("%s/.cache/git/credential", w.home), *sock = fmt("%s/socket", dir);
	char *listen_py = write_file(w.proj, "listen.py", cred_listen_py);
	char *send_py = write_file(w.proj, "send.py", cred_send_py);
	free(write_file(w.home, ".cache/README", "the user's cache\n"));
	world_give(&w);
	for (int ctl = 0; ctl < 2; ctl++) {
		char *out = fmt("%s/captured-%d", w.proj, ctl),
		     *stop = fmt("%s/stop-%d", w.proj, ctl);
		char *run = fmt("/usr/bin/python3 %s %s %s %s", listen_py, sock, out, stop);
		char *in[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
			      "/bin/sh",  "-c",  run,        NULL};
		char *plain[] = {"/bin/sh", "-c", run, NULL};
		pid_t pid = world_spawn(&w, ctl ? plain : in, w.proj);
		for (int i = 0; i < 200 && !file_exists(out); i++)
			usleep(50000);
		usleep(200000);
		char *send[] = {"/usr/bin/python3", send_py, sock, NULL};
		struct run_result r = world_run(&w, send, w.proj);
		usleep(300000);
		free(write_file(w.proj, ctl ? "stop-1" : "stop-0", ""));
		int st;
		waitpid(pid, &st, 0);
		char *got = read_file(out);
		if (ctl)
			cr_expect(got && strstr(got, "typed-" SECRET),
				  "control: the listener outside got nothing: %s %s",
				  got ? got : "(none)", r.out);
		else
			cr_expect(!got || !strstr(got, "typed-" SECRET),
				  "the session's listener got the password: %s", got);
		run_free(&r);
		free(got), free(run), free(stop), free(out);
		unlink(sock);
	}
	free(send_py), free(listen_py), free(sock), free(dir);
	world_free(&w);
}

/* A session bus outside takes services from $XDG_RUNTIME_DIR/dbus-1/services
 * before any other directory, and looks there again when a name it does
 * not know is asked for: a service planted there would run outside when
 * an outside program asks for its name (one nobody serves yet, like
 * org.freedesktop.Notifications without a notification daemon). The test
 * starts a real dbus-daemon with the standard session service directories,
 * plants a service inside, and asks for its name outside: nothing runs.
 * Control: planted outside, the same request runs it. */
BOTH_USERS(guards, runtime_dir_takes_no_dbus_service, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir rd;
	runtime_dir_make(&rd, uid, gid);
	char *dbus1 = fmt("%s/dbus-1", rd.path), *services = fmt("%s/services", dbus1);
	char *service = fmt("%s/org.cordontest.Evil.service", services);
	struct stat st;
	if (lstat(services, &st) == 0)
		cr_skip_test("%s exists (a real session bus's): not touched", services);
	char *extra = fmt(", \"additional_read_write_paths\": [\"%s\"]", rd.path);
	struct world w;
	world_for(&w, who, "rtdbus", extra);
	char *rtenv = fmt("XDG_RUNTIME_DIR=%s", rd.path);
	world_setenv(&w, rtenv);
	char *sock = path_join(w.outside, "bus");
	char *conf = fmt("<!DOCTYPE busconfig PUBLIC \"-//freedesktop//DTD D-Bus Bus Configuration "
			 "1.0//EN\" \"http://www.freedesktop.org/standards/dbus/1.0/"
			 "busconfig.dtd\">\n<busconfig><type>session</type>"
			 "<listen>unix:path=%s</listen><standard_session_servicedirs/>"
			 "<policy context=\"default\"><allow send_destination=\"*\" "
			 "eavesdrop=\"true\"/><allow eavesdrop=\"true\"/><allow own=\"*\"/>"
			 "</policy></busconfig>\n",
			 sock);
	char *conf_file = write_file(w.outside, "bus.conf", conf);
	world_give(&w);
	char *conf_arg = fmt("--config-file=%s", conf_file);
	char *daemon[] = {"/usr/bin/dbus-daemon", conf_arg, "--nofork", "--nopidfile", NULL};
	pid_t pid = world_spawn(&w, daemon, w.proj);
	cr_assert(wait_exists(sock, 5000), "dbus-daemon did not start");
	char *bus = fmt("--bus=unix:path=%s", sock);
	/* An activated service that never takes its name is waited for until
	 * the reply times out; what it ran shows at once. */
	char *ask[] = {"/usr/bin/dbus-send",
		       bus,
		       "--print-reply",
		       "--reply-timeout=1000",
		       "--dest=org.cordontest.Evil",
		       "/",
		       "org.cordontest.Evil.Hello",
		       NULL};
	char *deny = fmt("%s/pwned-deny-dbus", w.outside),
	     *ctl = fmt("%s/pwned-ctl-dbus", w.outside);
#define PLANT_DBUS                                                                                 \
	"mkdir -p %s && printf '[D-BUS Service]\\nName=org.cordontest.Evil"                        \
	"\\nExec=/usr/bin/touch %s/pwned-%s-dbus\\n' > %s; echo plant $?\n"
	char *plant = fmt(PLANT_DBUS, services, w.outside, "deny", service);
	char *other = fmt("%s/cordon-test-other", rd.path);
	struct run_result r = sh_in(&w, NULL, "%secho ok > '%s'", plant, other);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	cr_assert(file_exists(other), "control: the runtime directory is not writable inside\n%s",
		  diag);
	unlink(other);
	free(other);
	r = world_run(&w, ask, w.proj);
	run_free(&r);
	cr_expect_not(file_exists(service), "a D-Bus service was planted\n%s", diag);
	cr_expect_not(wait_exists(deny, 1000), "a service planted inside ran outside\n%s", diag);
	free(plant);

	plant = fmt(PLANT_DBUS, services, w.outside, "ctl", service);
	r = sh_outside(&w, plant);
	run_free(&r);
	r = world_run(&w, ask, w.proj);
	cr_assert(wait_exists(ctl, 5000), "control: the bus did not run a planted service: %s%s",
		  r.out, r.err);
	run_free(&r);
	free(deny);
	free(ctl);
	stop_process(pid);
	unlink(service);
	rmdir(services);
	rmdir(dbus1);
	runtime_dir_free(&rd);
	free(plant);
	free(diag);
	free(ask[1]);
	free(conf_arg);
	free(conf_file);
	free(conf);
	free(sock);
	free(rtenv);
	free(service);
	free(services);
	free(dbus1);
	free(extra);
	world_free(&w);
}

/* GVfs mounts the user's remote shares (sftp, smb) in $XDG_RUNTIME_DIR/gvfs
 * and the document portal serves files given to sandboxed apps in
 * $XDG_RUNTIME_DIR/doc: both outside, though beneath the writable runtime
 * directory; profile-sync-daemon keeps the browser profiles in psd/.
 * Stand-ins (plain directories of the same names) are neither read nor
 * written from inside; outside, they are. */
BOTH_USERS(guards, runtime_dir_hides_shares_portal_and_profiles, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir rd;
	runtime_dir_make(&rd, uid, gid);
	/* Each: the directory, the one in it, the file in that. */
	static const char *const stand_in[][3] = {{"gvfs", "sftp:host=server", "notes"},
						  {"doc", "1a2b", "report.txt"},
						  {"psd", "me-firefox-abc", "cookies.sqlite"}};
	enum { N = 3 };
	char *top[N], *mid[N], *file[N];
	for (size_t i = 0; i < N; i++) {
		top[i] = fmt("%s/%s", rd.path, stand_in[i][0]);
		mid[i] = fmt("%s/%s", top[i], stand_in[i][1]);
		file[i] = fmt("%s/%s", mid[i], stand_in[i][2]);
		struct stat st;
		if (lstat(top[i], &st) == 0)
			cr_skip_test("%s exists (real): not touched", top[i]);
	}
	char *script = strdup("");
	for (size_t i = 0; i < N; i++) {
		free(write_file(mid[i], stand_in[i][2], SECRET "\n"));
		const char *mine[] = {top[i], mid[i], file[i]};
		for (size_t k = 0; k < 3; k++)
			cr_assert_eq(chown(mine[k], uid, gid), 0);
		char *more = fmt("%scat '%s'; echo changed >> '%s'\n", script, file[i], file[i]);
		free(script);
		script = more;
	}
	char *extra = fmt(", \"additional_read_write_paths\": [\"%s\"]", rd.path);
	struct world w;
	world_for(&w, who, "rtshares", extra);
	char *other = fmt("%s/cordon-test-other", rd.path);
	struct run_result r = sh_in(&w, NULL, "%secho ok > '%s'; true", script, other);
	cr_assert(file_exists(other), "control: the runtime directory is not writable inside: %s",
		  r.err);
	unlink(other);
	free(other);
	cr_expect_null(strstr(r.out, SECRET), "a file beneath gvfs/, doc/ or psd/ was read: %s",
		       r.out);
	for (size_t i = 0; i < N; i++) {
		char *now = slurp(file[i]);
		cr_expect(now && strcmp(now, SECRET "\n") == 0, "%s was written", file[i]);
		free(now);
	}
	run_free(&r);
	r = sh_outside(&w, script);
	size_t read = 0;
	for (const char *at = r.out; (at = strstr(at, SECRET)); at++)
		read++;
	cr_assert_eq(read, N, "control: outside, not each was read: %s%s", r.out, r.err);
	run_free(&r);
	for (size_t i = 0; i < N; i++) {
		unlink(file[i]);
		rmdir(mid[i]);
		rmdir(top[i]);
		free(file[i]);
		free(mid[i]);
		free(top[i]);
	}
	runtime_dir_free(&rd);
	free(script);
	free(extra);
	world_free(&w);
}

/* The runtime directory (/run/user/UID) is read-write by default. The
 * systemd user manager loads units and drop-ins from its systemd/: one
 * planted there would run outside at the next daemon-reload or login. And
 * podman keeps its registry logins in containers/auth.json. Neither is
 * planted nor read from inside; the rest of the directory stays writable.
 * The control does all of it outside. (The test makes the runtime
 * directory where the machine has none, and removes what it made.) */
BOTH_USERS(guards, runtime_dir_keeps_units_and_logins, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime x;
	runtime_make(&x, uid, gid);
	char *extra = fmt(", \"additional_read_write_paths\": [\"%s\"]", x.rt);
	struct world w;
	world_for(&w, who, "runtime", extra);
	char *plant = fmt("cat %s; echo\n"
			  "mkdir -p %s/user && echo '[Service]' > %s/user/cordon-test.service; "
			  "echo unit=$?\n"
			  "mkdir %s/user.control; echo dropin=$?\n"
			  "echo ok > %s/cordon-test-ok; echo other=$?\n",
			  x.logins, x.units, x.units, x.units, x.rt);
	char *unit = fmt("%s/user/cordon-test.service", x.units);
	char *dropin = fmt("%s/user.control", x.units);
	char *other = fmt("%s/cordon-test-ok", x.rt);

	struct run_result r = sh_in(&w, NULL, "%s", plant);
	cr_expect_null(strstr(r.out, SECRET), "podman's logins were read inside: %s", r.out);
	cr_expect_not(file_exists(unit), "a systemd user unit was planted\n%s%s", r.out, r.err);
	cr_expect_not(file_exists(dropin), "a systemd drop-in dir was planted\n%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "other=0") && file_exists(other),
		  "the rest of the runtime directory is not writable: %s%s", r.out, r.err);
	run_free(&r);

	r = sh_outside(&w, plant);
	cr_assert(strstr(r.out, SECRET) && file_exists(unit) && file_exists(dropin),
		  "control: outside, the plant failed: %s%s", r.out, r.err);
	run_free(&r);
	free(other);
	free(dropin);
	free(unit);
	free(plant);
	world_free(&w);
	free(extra);
	runtime_remove(&x);
}

/* GnuPG keeps the sockets of gpg-agent, dirmngr and keyboxd in the
 * runtime directory's gnupg/ (d.HASH/ for another GNUPGHOME), and
 * libassuan follows a regular file at a socket's name that holds
 * "%Assuan%\nsocket=PATH": a session that put one in place of S.gpg-agent
 * would have gpg outside send its passphrases to a server of the
 * session's in /tmp (round 37a). First with gnupg/ as the machine has it
 * (the test user's is missing): no d.HASH/ with a redirect is made. Then
 * beside a socket a server outside listens on: it is neither removed nor
 * replaced by a redirect, and none is planted at dirmngr's name. The rest
 * of the runtime directory stays writable. Control: outside, all of it
 * succeeds. */
BOTH_USERS(guards, runtime_dir_keeps_gpg_sockets, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct runtime_dir rd;
	runtime_dir_make(&rd, uid, gid);
	char *gnupg = fmt("%s/gnupg", rd.path), *dir = fmt("%s/d.cordontest", gnupg),
	     *fresh = fmt("%s/d.cordontest-new", gnupg);
	char *agent = fmt("%s/S.gpg-agent", dir), *dirmngr = fmt("%s/S.dirmngr", dir),
	     *planted = fmt("%s/S.gpg-agent", fresh);
	struct stat st;
	bool had_gnupg = lstat(gnupg, &st) == 0;
	if (lstat(dir, &st) == 0 || lstat(fresh, &st) == 0)
		cr_skip_test("%s or %s exists: not touched", dir, fresh);
	char *extra = fmt(", \"additional_read_write_paths\": [\"%s\"]", rd.path);
	struct world w;
	world_for(&w, who, "rtgpg", extra);
#define GPG_REDIRECT "printf '%%s\\n' '%%Assuan%%' 'socket=/tmp/cordon-test-fake.sock' > "
	char *other = fmt("%s/cordon-test-other", rd.path);
	char *make = fmt("mkdir -p %s && " GPG_REDIRECT "%s; echo new=$?\n", fresh, planted);
	struct run_result r = sh_in(&w, NULL, "%secho ok > '%s'", make, other);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	cr_assert(file_exists(other), "control: the runtime directory is not writable inside\n%s",
		  diag);
	unlink(other);
	cr_expect_not(file_exists(planted), "a redirect for gpg was planted in gnupg/%s\n%s",
		      had_gnupg ? "" : " (missing as the session started)", diag);
	free(diag);

	/* A server of the user's outside, at a GNUPGHOME's agent socket. */
	if (mkdir(gnupg, 0700) == 0)
		cr_assert_eq(chown(gnupg, uid, gid), 0);
	cr_assert_eq(mkdir(dir, 0700), 0, "%s: %s", dir, strerror(errno));
	cr_assert_eq(chown(dir, uid, gid), 0);
	struct listener l = listen_unix(&w, agent, true);
	char *swap = fmt("rm -f %s && " GPG_REDIRECT "%s; echo swap=$?\n" GPG_REDIRECT
			 "%s; echo plant=$?\n",
			 agent, agent, dirmngr);
	r = sh_in(&w, NULL, "%s", swap);
	diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	run_free(&r);
	cr_expect(lstat(agent, &st) == 0 && S_ISSOCK(st.st_mode),
		  "gpg-agent's socket was removed or replaced\n%s", diag);
	cr_expect_not(file_exists(dirmngr), "a redirect was planted at dirmngr's socket\n%s", diag);
	free(diag);

	char *all = fmt("%s%s", make, swap);
	r = sh_outside(&w, all);
	free(all);
	cr_assert(file_exists(planted) && lstat(agent, &st) == 0 && S_ISREG(st.st_mode) &&
			  file_exists(dirmngr),
		  "control: outside, the redirects were not written: %s%s", r.out, r.err);
	run_free(&r);
#undef GPG_REDIRECT
	close(l.fd);
	unlink(agent);
	unlink(dirmngr);
	unlink(planted);
	rmdir(dir);
	rmdir(fresh);
	if (!had_gnupg)
		rmdir(gnupg);
	runtime_dir_free(&rd);
	free(make);
	free(swap);
	free(other);
	free(agent);
	free(dirmngr);
	free(planted);
	free(gnupg);
	free(dir);
	free(fresh);
	free(extra);
	world_free(&w);
}

/* ---- names looked for above, in a shared directory ---- */

/* A directory like /tmp in W (sticky, everyone's, root's) that the
 * session may write (a system_paths.read_write rule naming it, EXTRA after
 * it), with a directory of the user's in it (work/): malloc'd. */
static char *shared_world(struct world *w, const char *extra)
{
	char *shared = at(w->outside, "shared");
	cr_assert(mkdir(shared, 0755) == 0 || errno == EEXIST, "%s: %s", shared, strerror(errno));
	cr_assert_eq(chown(shared, 0, 0), 0);
	cr_assert_eq(chmod(shared, 01777), 0);
	FILE *f = fopen(w->cfg, "w");
	cr_assert_not_null(f, "%s: %s", w->cfg, strerror(errno));
	fprintf(f,
		"{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/tty\", \"/dev/ptmx\", "
		"\"/dev/urandom\", \"/dev/zero\", \"%s\"]}%s}",
		shared, extra);
	cr_assert_eq(fclose(f), 0);
	return shared;
}

/* A git world (TAG) whose user trusts every repository (safe.directory
 * = *, as many do) and runs vim with 'exrc', with a shared directory
 * (shared_world): that directory, malloc'd. */
static char *shared_git_world(struct world *w, const struct who *who, const char *tag)
{
	exrc_world(w, who, tag);
	struct run_result r = outside(w, "git config --global safe.directory '*'");
	run_free(&r);
	return shared_world(w, "");
}

/* A name that a program run in a directory looks for in each directory
 * above it, made at the top of a shared directory the session may write
 * (/tmp): a session made /tmp/.git with a core.fsmonitor, and root's next
 * git status in any directory of /tmp ran it (session 29). Node's
 * require() loads from a node_modules above, and vim run there obeys its
 * .exrc. Each is moved aside as it appears (a socket file stands in for
 * it while the session runs). The user's git trusts every repository
 * (safe.directory = *), as many do. Control: protected_paths []. */
BOTH_USERS(guards, a_name_looked_for_above_in_a_shared_directory_runs_nothing, .timeout = 60)
{
	struct world w;
	char *shared = shared_git_world(&w, who, "gabove");
	struct run_result r;
	r = outside(&w, "mkdir -p %s/work", shared);
	run_free(&r);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = outside(&w,
				    "cd %s && rm -rf .git* node_modules* .exrc* .envrc* .miserc* "
				    "mise.local* mise.x* .flake8* .pryrc* .flaskenv*",
				    shared);
			run_free(&r);
			free(shared_world(&w, ", \"protected_paths\": []"));
		}
		char *vars = fmt("S=%s", shared);
		char *script = plant(
			&w, tags[ctl], vars,
			"git init -q \"$S\" && fsmon >> \"$S/.git/config\"; echo git $?\n"
			"mkdir -p \"$S/node_modules/evil\" && echo \"require('fs').writeFileSync("
			"'$M-node', '')\" > \"$S/node_modules/evil/index.js\"; echo node $?\n"
			"echo \"call writefile([], '$M-exrc')\" > \"$S/.exrc\"; echo exrc $?\n"
			"mkdir \"$S/.envrc\"; echo envrc-dir $?\n"
			"echo 'env = [\"x\"]' > \"$S/.miserc.toml\" && echo '[env]' | tee "
			"\"$S/mise.local.toml\" > \"$S/mise.x.toml\"; echo mise $?\n"
			"printf '[flake8:local-plugins]\\nextension =\\n  X = p:P\\n' > "
			"\"$S/.flake8\" && echo x > \"$S/.pryrc\" && echo FLASK_APP=x.py > "
			"\"$S/.flaskenv\"; echo flake8 $?\n"
			"i=0; while [ $i -lt 20 ] && ! [ -S \"$S/.exrc\" ]; do sleep 0.1; "
			"i=$((i+1)); done; [ -S \"$S/.exrc\" ]; echo stood $?\n");
		free(vars);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		char *judge = fmt(
			"cd %s/work && git status >/dev/null 2>&1; node -e "
			"'require(\"evil\")' >/dev/null 2>&1; cd .. && TERM=dumb vim --not-a-term -c q "
			"</dev/null >/dev/null 2>&1; true",
			shared);
		struct run_result v = sh_outside(&w, judge);
		run_free(&v);
		free(judge);
		if (ctl) {
			cr_expect(marked(&w, tags[ctl], "fsmonitor") &&
					  marked(&w, tags[ctl], "node") &&
					  marked(&w, tags[ctl], "exrc"),
				  "control: git, node or vim outside ran nothing\n%s", diag);
			cr_expect(present(shared, ".miserc.toml") &&
					  present(shared, "mise.local.toml") &&
					  present(shared, "mise.x.toml"),
				  "control: mise's files are gone\n%s", diag);
			cr_expect(present(shared, ".flake8") && present(shared, ".pryrc") &&
					  present(shared, ".flaskenv"),
				  "control: flake8's or pry's file is gone\n%s", diag);
		} else {
			cr_expect_not(marked(&w, tags[ctl], "fsmonitor"),
				      "git outside ran the shared directory's fsmonitor\n%s", diag);
			cr_expect_not(marked(&w, tags[ctl], "node"),
				      "node outside loaded the shared node_modules\n%s", diag);
			cr_expect_not(marked(&w, tags[ctl], "exrc"),
				      "vim outside ran the shared .exrc\n%s", diag);
			cr_expect(strstr(r.out, "stood 0"),
				  "the .exrc was not moved aside as it appeared\n%s", diag);
			cr_expect(present(shared, ".exrc.cordon-disarmed") &&
					  !present(shared, ".exrc") &&
					  !present(shared, "node_modules"),
				  "not moved aside, or the stand-ins were left\n%s", diag);
			/* (mise reads .miserc.toml, which picks its config
			 * environments, in every directory up from where it
			 * runs: round 32b G2; and the environment's own file,
			 * 32c H4.) */
			cr_expect(strstr(r.out, "mise 0") && !present(shared, ".miserc.toml") &&
					  !present(shared, "mise.local.toml") &&
					  !present(shared, "mise.x.toml") &&
					  present(shared, "mise.x.toml.cordon-disarmed"),
				  "mise's files at the top stayed\n%s", diag);
			/* (Round 54f F2: root's flake8 --version in a directory
			 * below ran the local plugin an ordinary user's session
			 * named there; pry runs its .pryrc.) */
			cr_expect(strstr(r.out, "flake8 0") && !present(shared, ".flake8") &&
					  present(shared, ".flake8.cordon-disarmed") &&
					  !present(shared, ".pryrc") &&
					  !present(shared, ".flaskenv"),
				  "flake8's or pry's file at the top stayed\n%s", diag);
			cr_expect(strstr(r.err, "which a program run in a directory below it, "
						"outside, would look for and obey"),
				  "not said\n%s", diag);
			/* (A directory at .envrc is obeyed by nothing, and is the
			 * stand-in a session keeps at its root's top: left.) */
			cr_expect(strstr(r.out, "envrc-dir 0") && present(shared, ".envrc") &&
					  !present(shared, ".envrc.cordon-disarmed"),
				  "a directory at .envrc was moved aside\n%s", diag);
		}
		run_free(&r);
		free(diag), free(script);
	}
	r = outside(
		&w,
		"cd %s && rm -rf .git* node_modules* .exrc* .envrc* .miserc* mise.local* mise.x* "
		".flake8* .pryrc* .flaskenv* work",
		shared);
	run_free(&r);
	free(shared);
	world_free(&w);
}

/* Round 60e: what more tools obey in a project, and above it. pi loads
 * the extensions in .pi as it starts (before it asks for a key); Factory,
 * Augment, iFlow, Tabnine and Junie start the hooks and MCP servers their
 * project directories name; jj 0.37 and later copy a .jj/repo/config.toml
 * with no config-id beside it into the user's trusted settings (earlier
 * jj read it: its pager runs at jj log); Sapling obeys .sl/config's hooks;
 * dotnet runs the SDK global.json's sdk.paths names (looked for above:
 * in the project it is the project's, round 60i B1). Each was left in
 * place, at the top, in a directory below (the agents', Sapling's, jj's)
 * and in a shared directory (.jj, .sl, global.json: each looked for
 * above). Now each made inside is moved aside, and the
 * config-id that exists stays. Judged outside after the session. Control:
 * with protected_paths [] all land and stay. */
static const char tools_60e_plant[] =
	"for d in top pkg; do p=.; [ $d = pkg ] && p=pkg\n"
	"mkdir -p $p/.pi/extensions && echo x > $p/.pi/extensions/x.ts; echo pi-$d $?\n"
	"mkdir -p $p/.factory && echo '{}' > $p/.factory/mcp.json; echo factory-$d $?\n"
	"mkdir -p $p/.augment && echo '{}' > $p/.augment/settings.json; echo augment-$d $?\n"
	"mkdir -p $p/.iflow && echo '{}' > $p/.iflow/settings.json; echo iflow-$d $?\n"
	"mkdir -p $p/.tabnine/agent && echo '{}' > $p/.tabnine/agent/settings.json; "
	"echo tabnine-$d $?\n"
	"mkdir -p $p/.junie/mcp && echo '{}' > $p/.junie/mcp/mcp.json; echo junie-$d $?\n"
	"mkdir -p $p/.sl && printf '[hooks]\\n' > $p/.sl/config; echo sl-$d $?\n"
	"done\n"
	"printf '[ui]\\npager = \"x\"\\n' > .jj/repo/config.toml; echo jj-top $?\n"
	"mkdir -p pkg/.jj/repo && echo x > pkg/.jj/repo/config.toml; echo jj-pkg $?\n"
	"rm -f .jj/repo/config-id; echo id-top $?\n"
	"mkdir -p \"$S/.jj/repo\" && echo x > \"$S/.jj/repo/config.toml\"; echo s-jj $?\n"
	"mkdir -p \"$S/.sl\" && echo x > \"$S/.sl/config\"; echo s-sl $?\n"
	"echo '{}' > \"$S/global.json\"; echo s-global $?\n"
	"echo '<Project/>' > \"$S/Directory.Build.props\"; echo s-msb $?\n";

static const char *const tools_60e_made[] = {".pi/extensions/x.ts",
					     ".factory/mcp.json",
					     ".augment/settings.json",
					     ".iflow/settings.json",
					     ".tabnine/agent/settings.json",
					     ".junie/mcp/mcp.json",
					     ".sl/config",
					     "pkg/.pi/extensions/x.ts",
					     "pkg/.factory/mcp.json",
					     "pkg/.augment/settings.json",
					     "pkg/.iflow/settings.json",
					     "pkg/.tabnine/agent/settings.json",
					     "pkg/.junie/mcp/mcp.json",
					     "pkg/.sl/config",
					     ".jj/repo/config.toml",
					     "pkg/.jj/repo/config.toml",
					     NULL};

BOTH_USERS(guards, more_tools_settings_made_inside_are_moved_aside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "g60e");
	free(write_file(w.proj, "pkg/README", "pkg\n"));
	free(write_file(w.proj, ".jj/repo/config-id", "0123456789abcdef\n"));
	char *shared = shared_world(&w, "");
	world_give(&w);
	char *vars = fmt("S=%s\n%s", shared, tools_60e_plant);
	struct run_result r = sh_in(&w, NULL, "%s", vars);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	/* (At the top and in the shared directory the watch may move one
	 * aside before its file is written: made or not, none may stay.) */
	cr_expect(strstr(r.out, "pi-pkg 0") && strstr(r.out, "sl-pkg 0") &&
			  strstr(r.out, "jj-top 0"),
		  "control: the session could not make them\n%s", diag);
	for (size_t i = 0; tools_60e_made[i]; i++)
		cr_expect_not(present(w.proj, tools_60e_made[i]),
			      "%s made inside was left in place\n%s", tools_60e_made[i], diag);
	char *id = content(w.proj, ".jj/repo/config-id");
	cr_expect(id && strcmp(id, "0123456789abcdef\n") == 0, "jj's config-id was removed\n%s",
		  diag);
	free(id);
	static const char *const shared_made[] = {".jj", ".sl", "global.json",
						  "Directory.Build.props", NULL};
	for (size_t i = 0; shared_made[i]; i++)
		cr_expect(!present(shared, shared_made[i]), "the shared directory's %s stayed\n%s",
			  shared_made[i], diag);
	run_free(&r);
	free(diag);

	struct run_result c =
		outside(&w,
			"rm -rf .pi* .factory* .augment* .iflow* .tabnine* .junie* .sl* "
			"global.json* pkg/.[a-z]* pkg/global.json* .jj/repo/config.toml* "
			"%s/.jj* %s/.sl* %s/global.json* %s/Directory.Build.props*",
			shared, shared, shared, shared);
	run_free(&c);
	free(shared_world(&w, ", \"protected_paths\": []"));
	r = sh_in(&w, NULL, "%s", vars);
	expect_all_landed((const char *const[]){"pi-top", "factory-top", "augment-top", "iflow-top",
						"tabnine-top", "junie-top", "sl-top", "pi-pkg",
						"sl-pkg", "jj-top", "jj-pkg", "id-top", "s-jj",
						"s-sl", "s-global", "s-msb", NULL},
			  &r, "protected_paths []");
	for (size_t i = 0; tools_60e_made[i]; i++)
		cr_expect(present(w.proj, tools_60e_made[i]),
			  "control: %s made inside did not stay: %s", tools_60e_made[i], r.err);
	cr_expect(present(shared, ".jj") && present(shared, ".sl") &&
			  present(shared, "global.json"),
		  "control: the shared directory's files did not stay: %s", r.err);
	run_free(&r);
	c = outside(&w, "rm -rf %s/.jj* %s/.sl* %s/global.json* %s/Directory.Build.props*", shared,
		    shared, shared, shared);
	run_free(&c);
	free(vars);
	free(shared);
	world_free(&w);
}

/* Round 60f F1: jj takes a file at .jj/repo for the path of the
 * repository it reads, config.toml and all (a secondary workspace's).
 * Where neither config.toml nor config-id pinned the store as the session
 * started, a session moved it away, laid that file and planted a
 * config.toml where it led: nothing was moved aside, and jj outside would
 * run its pager. Now such a file, laid at the top, is moved aside, and a
 * .jj below the top that holds one is moved aside whole. Judged outside
 * after the session. Control: protected_paths [], they stay. */
BOTH_USERS(guards, a_jj_repository_path_laid_inside_is_moved_aside, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "g60jj");
	free(write_file(w.proj, ".jj/repo/store/type", "git\n"));
	free(write_file(w.proj, "pkg/.jj/repo/store/type", "git\n"));
	world_give(&w);
	static const char swap[] =
		"for p in . pkg; do mkdir -p $p/cache && mv $p/.jj/repo $p/cache/r && "
		"echo \"$PWD/$p/cache/r\" > $p/.jj/repo && printf '[ui]\\npager = \"x\"\\n' > "
		"$p/cache/r/config.toml; echo swap-$p $?; done\n";
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			struct run_result c = outside(
				&w,
				"rm -rf .jj* pkg/.jj* cache pkg/cache && mkdir -p .jj/repo/store "
				"pkg/.jj/repo/store");
			run_free(&c);
			set_config(&w, ", \"protected_paths\": []");
		}
		struct run_result r = sh_in(&w, NULL, "%s", swap);
		char *diag = fmt("%s (%d): %s%s", ctl ? "ctl" : "deny", r.status, r.out, r.err);
		cr_expect(strstr(r.out, "swap-. 0") && strstr(r.out, "swap-pkg 0"),
			  "control: the session could not lay them\n%s", diag);
		struct stat st;
		char *top = at(w.proj, ".jj/repo"), *below = at(w.proj, "pkg/.jj/repo");
		bool top_file = lstat(top, &st) == 0 && !S_ISDIR(st.st_mode);
		bool below_file = lstat(below, &st) == 0 && !S_ISDIR(st.st_mode);
		if (ctl) {
			cr_expect(top_file && below_file,
				  "control: the files laid did not stay\n%s", diag);
		} else {
			cr_expect_not(top_file, "the top's .jj/repo laid inside stayed\n%s", diag);
			cr_expect_not(below_file, "pkg/.jj/repo laid inside stayed\n%s", diag);
			cr_expect(present(w.proj, ".jj/repo.cordon-disarmed") &&
					  present(w.proj, "pkg/.jj.cordon-disarmed"),
				  "not moved aside\n%s", diag);
		}
		free(top), free(below), free(diag);
		run_free(&r);
	}
	world_free(&w);
}

/* A project in a directory of a repository that a write rule reaches (a
 * package of a monorepo in /tmp): git in the project, outside, runs that
 * repository's hooks and config. They are read-only there, while its
 * objects and index (git commit inside) and its node_modules stay
 * writable; a repository the session makes in it and adds to its index
 * as a submodule (round 29 F3: git status in the project ran the
 * submodule's fsmonitor) is moved aside as the session ends, the
 * repository above being swept as the project is; and a repository made
 * above a project that has none (git init ..), or a bare one (HEAD,
 * objects/, refs/ there: round 29 F1), is moved aside.
 * Control: protected_paths []. */
BOTH_USERS(guards, a_repository_above_the_project_keeps_its_hooks, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "grepoabove");
	char *shared = shared_world(&w, "");
	struct run_result r = outside(
		&w,
		"cd %s && mkdir -p mono/web mono/node_modules bare/proj bare2/proj && cd mono && "
		"git init -q "
		"&& git commit -q --allow-empty -m first",
		shared);
	run_free(&r);
	char *web = fmt("%s/mono/web", shared), *proj = fmt("%s/bare/proj", shared);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = outside(&w,
				    "cd %s && git checkout -q -- . ; rm -rf bare/.git* bare2/HEAD* "
				    "mono/node_modules/x mono/sub*; cd mono && git config --unset "
				    "core.fsmonitor; rm -f .git/hooks/pre-commit",
				    shared);
			run_free(&r);
			free(shared_world(&w, ", \"protected_paths\": []"));
		}
		char *script = plant(
			&w, tags[ctl], "",
			"echo \"$M\" > f && git add f && git commit -qm f; echo commit $?\n"
			"hook pre-commit > ../.git/hooks/pre-commit && chmod +x "
			"../.git/hooks/pre-commit; echo hook $?\n"
			"fsmon >> ../.git/config; echo config $?\n"
			"mkdir ../node_modules/x; echo modules $?\n"
			"cd .. && git init -q sub && git -C sub commit -q --allow-empty -m s && "
			"printf '[core]\\n\\tfsmonitor = \"touch %s; false\"\\n' \"$M-sub\" "
			">> sub/.git/config && git update-index --add --cacheinfo "
			"160000,$(git -C sub rev-parse HEAD),sub; echo sub $?\n");
		r = sh_in_dir(&w, web, script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_expect(strstr(r.out, "commit 0\n") && strstr(r.out, "modules 0\n"),
			  "git commit or npm's node_modules no longer work inside\n%s", diag);
		run_free(&r);
		free(script);
		script = plant(&w, tags[ctl], "",
			       "git init -q .. && printf '[core]\\n\\tfsmonitor = \"touch %s; "
			       "false\"\\n' \"$M-bare\" >> ../.git/config; echo bare $?\n");
		r = sh_in_dir(&w, proj, script);
		char *diag2 = fmt("%s\n%s (%d): %s%s", diag, tags[ctl], r.status, r.out, r.err);
		run_free(&r);
		free(script);
		script = plant(&w, tags[ctl], "",
			       "mkdir -p ../objects ../refs/heads && echo 'ref: refs/heads/main' > "
			       "../HEAD && printf '[core]\\n\\trepositoryformatversion = 0\\n"
			       "\\tbare = false\\n\\tworktree = "
			       "%s\\n\\tfsmonitor = \"touch %s; false\"\\n' \"$(cd .. && pwd)\" "
			       "\"$M-bare2\" > ../config; echo bare2 $?\n");
		char *proj2 = fmt("%s/bare2/proj", shared);
		r = sh_in_dir(&w, proj2, script);
		char *diag3 = fmt("%s\n%s (%d): %s%s", diag2, tags[ctl], r.status, r.out, r.err);
		free(diag2);
		diag2 = diag3;
		run_free(&r);
		char *judge =
			fmt("cd %s && git status >/dev/null 2>&1; echo g > g && git add g && "
			    "git commit -qm g >/dev/null 2>&1; cd %s && git status >/dev/null "
			    "2>&1; cd %s && git status >/dev/null 2>&1; true",
			    web, proj, proj2);
		free(proj2);
		struct run_result v = sh_outside(&w, judge);
		run_free(&v);
		free(judge);
		if (ctl) {
			cr_expect(
				marked(&w, tags[ctl], "pre-commit") &&
					marked(&w, tags[ctl], "fsmonitor") &&
					marked(&w, tags[ctl], "sub") &&
					marked(&w, tags[ctl], "bare") &&
					marked(&w, tags[ctl], "bare2"),
				"control: git outside ran nothing (pre-commit %d fsmonitor %d sub %d "
				"bare %d bare2 %d)\n%s",
				marked(&w, tags[ctl], "pre-commit"),
				marked(&w, tags[ctl], "fsmonitor"), marked(&w, tags[ctl], "sub"),
				marked(&w, tags[ctl], "bare"), marked(&w, tags[ctl], "bare2"),
				diag2);
		} else {
			cr_expect_not(
				marked(&w, tags[ctl], "pre-commit") ||
					marked(&w, tags[ctl], "fsmonitor"),
				"git outside ran what was planted in the repository above\n%s",
				diag2);
			cr_expect_not(
				marked(&w, tags[ctl], "sub"),
				"git outside ran the submodule made in the repository above\n%s",
				diag2);
			cr_expect_not(marked(&w, tags[ctl], "bare") ||
					      marked(&w, tags[ctl], "bare2"),
				      "git outside ran the repository made above\n%s", diag2);
		}
		free(diag), free(diag2), free(script);
	}
	r = outside(&w, "rm -rf %s/mono %s/bare %s/bare2", shared, shared, shared);
	run_free(&r);
	free(web), free(proj), free(shared);
	world_free(&w);
}

/* A Mercurial repository above the project that a write rule reaches is
 * swept as the project is: round 29b F1 made a sibling repository whose
 * hgrc loads an extension and listed it in the monorepo's .hgsub, and the
 * user's hg summary in the project ran the extension. Control:
 * protected_paths []. */
BOTH_USERS(guards, a_mercurial_repository_above_the_project_is_swept, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "ghgabove");
	char *shared = shared_world(&w, "");
	struct run_result r =
		outside(&w,
			"cd %s && mkdir -p hgmono/web && cd hgmono && hg init && echo x "
			"> web/x && hg add -q && hg commit -q -u t -m first",
			shared);
	run_free(&r);
	char *web = fmt("%s/hgmono/web", shared);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = outside(&w, "cd %s/hgmono && rm -rf sub* .hgsub*", shared);
			run_free(&r);
			free(shared_world(&w, ", \"protected_paths\": []"));
		}
		char *script = plant(
			&w, tags[ctl], "",
			"cd .. && hg init sub && echo \"open('$M-hg', 'w')\" > sub/evil.py && "
			"printf '[extensions]\\nevil = %s\\n' \"$(pwd)/sub/evil.py\" > sub/.hg/hgrc "
			"&& (cd sub && echo a > a && hg add -q a && hg commit -q -u t -m a) "
			"2>/dev/null; echo 'sub = sub' > .hgsub && echo \"$(hg -R sub id -i --debug "
			"2>/dev/null) sub\" > .hgsubstate && hg add -q .hgsub .hgsubstate 2>/dev/null; "
			"echo hgsub $?\n");
		r = sh_in_dir(&w, web, script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		run_free(&r);
		char *judge = fmt("cd %s && hg summary >/dev/null 2>&1; true", web);
		struct run_result v = sh_outside(&w, judge);
		run_free(&v);
		free(judge);
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "hg"),
				  "control: hg outside ran no extension\n%s", diag);
		else
			cr_expect_not(marked(&w, tags[ctl], "hg"),
				      "hg outside ran the extension of a subrepository made in the "
				      "repository above\n%s",
				      diag);
		free(diag), free(script);
	}
	r = outside(&w, "rm -rf %s/hgmono", shared);
	run_free(&r);
	free(web), free(shared);
	world_free(&w);
}

/* A bare repository laid at the top of a root (a monorepo above the
 * project, swept as a root): its HEAD is moved aside, not the root,
 * which holds the user's work and the project (round 29c F3: the sweep
 * moved the whole monorepo to NAME.cordon-disarmed). Control:
 * protected_paths [] moves nothing. */
BOTH_USERS(guards, a_bare_layout_at_a_roots_top_loses_its_head_not_the_root, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gbaretop");
	char *shared = shared_world(&w, "");
	struct run_result r = outside(&w,
				      "cd %s && mkdir -p mono/web && cd mono && git init -q && git "
				      "commit -q --allow-empty -m first",
				      shared);
	run_free(&r);
	char *mono = fmt("%s/mono", shared), *web = fmt("%s/mono/web", shared);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = outside(&w, "cd %s && rm -rf HEAD* objects refs config", mono);
			run_free(&r);
			free(shared_world(&w, ", \"protected_paths\": []"));
		}
		char *script = plant(&w, tags[ctl], "",
				     "cd .. && mkdir -p objects refs/heads && echo 'ref: "
				     "refs/heads/main' > HEAD && printf '[core]\\n\\tbare = "
				     "false\\n\\tfsmonitor = \"touch %s; false\"\\n' \"$M-bare\" > "
				     "config; echo laid $?\n");
		r = sh_in_dir(&w, web, script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "laid 0"), "the plant did not land\n%s", diag);
		run_free(&r);
		cr_expect(present(shared, "mono") && present(mono, "web") &&
				  !present(shared, "mono.cordon-disarmed"),
			  "the root was moved, the project in it\n%s", diag);
		if (ctl)
			cr_expect(present(mono, "HEAD"), "control: HEAD was moved\n%s", diag);
		else
			cr_expect(present(mono, "HEAD.cordon-disarmed") && !present(mono, "HEAD"),
				  "the bare repository's HEAD was not moved aside\n%s", diag);
		free(diag), free(script);
	}
	r = outside(&w, "rm -rf %s/mono", shared);
	run_free(&r);
	free(mono), free(web), free(shared);
	world_free(&w);
}

/* ---- a shared directory, below its top ---- */

/* rbenv's .ruby-version at the top of a shared directory (round 37a F1;
 * in the project: an_rbenv_version_file_made_inside_runs_nothing): rbenv looks
 * for .ruby-version in each directory up from where it runs, and root's
 * ruby -v in a directory of theirs below /tmp ran the program a session's
 * /tmp/.ruby-version named. Moved aside as it appears, as nodenv's
 * .node-version is. Control: protected_paths []. */
BOTH_USERS(guards, an_rbenv_version_file_at_a_shared_top_runs_nothing, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "rbenvtop");
	char *shared = shared_world(&w, "");
	cr_assert(file_exists("/usr/bin/rbenv"), "rbenv is not installed (scripts/setup does)");
	free(write_file(w.home, ".rbenv/versions/3.2.0/bin/ruby", "#!/bin/sh\necho ruby 3.2.0\n"));
	world_give(&w);
	struct run_result r = outside(&w,
				      "chmod +x ~/.rbenv/versions/3.2.0/bin/ruby && "
				      "RBENV_ROOT=~/.rbenv rbenv global 3.2.0 && "
				      "RBENV_ROOT=~/.rbenv rbenv rehash && mkdir -p %s/mine/dir",
				      shared);
	cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
	run_free(&r);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl) {
			r = outside(&w, "cd %s && rm -rf .r .ruby-version* .node-version*", shared);
			run_free(&r);
			free(shared_world(&w, ", \"protected_paths\": []"));
		}
		char *vars = fmt("S=%s", shared);
		char *script = plant(
			&w, tags[ctl], vars,
			"mkdir -p \"$S/.r/bin\" && printf '#!/bin/sh\\ntouch %s\\n' \"$M-ruby\" > "
			"\"$S/.r/bin/ruby\" && chmod +x \"$S/.r/bin/ruby\"; "
			"V=../../../../../../../../../../../..$S/.r\n"
			"echo \"$V\" > \"$S/.ruby-version\"; echo top $?\n"
			"echo \"$V\" > \"$S/.node-version\"; echo node $?\n");
		free(vars);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		expect_all_landed((const char *const[]){"top", "node", NULL}, &r, tags[ctl]);
		run_free(&r);
		char *judge = fmt("cd %s/mine/dir && export RBENV_ROOT=~/.rbenv; "
				  "eval \"$(rbenv init - sh)\"; ruby -v; true",
				  shared);
		r = sh_outside(&w, judge);
		free(judge);
		char *ran = fmt("%s\noutside: %s%s", diag, r.out, r.err);
		cr_expect(strstr(r.out, "ruby 3.2.0") || ctl, "rbenv did not run at all\n%s", ran);
		cr_expect(marked(&w, tags[ctl], "ruby") == (ctl == 1), "%s\n%s",
			  ctl ? "control: ruby -v outside ran nothing planted"
			      : "ruby -v outside ran the program the shared .ruby-version named",
			  ran);
		if (!ctl)
			cr_expect(!present(shared, ".node-version") &&
					  present(shared, ".node-version.cordon-disarmed"),
				  ".node-version at the shared top stayed\n%s", ran);
		run_free(&r);
		free(ran), free(diag), free(script);
	}
	r = outside(&w, "cd %s && rm -rf .r .ruby-version* .node-version* mine", shared);
	run_free(&r);
	free(shared);
	world_free(&w);
}

/* What the test lays in SHARED as the user, outside: repositories of
 * theirs in work/ (repo, repo2, and keep, with husky's core.hooksPath),
 * and a directory of theirs with no repository (plain/sub). */
static void shared_work(struct world *w, const char *shared)
{
	struct run_result r = outside(
		w,
		"cd %s && chmod -R u+rwx . 2>/dev/null; rm -rf work plain fresh vendor z && "
		"mkdir -p work plain/sub vendor && for d in repo "
		"repo2 keep; do git init -q work/$d && git -C work/$d commit -q --allow-empty "
		"-m first || exit 1; done && cd work/keep && git config core.hooksPath .husky && "
		"mkdir .husky && printf '#!/bin/sh\\ntouch %s/husky-ran\\n' > .husky/pre-commit && "
		"chmod +x .husky/pre-commit",
		shared, w->outside);
	cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
	run_free(&r);
}

/* Below the top of a shared directory the session may write (/tmp),
 * what the user has there is no one's project: a hook written into a
 * repository of theirs (one cloned into /tmp/work for a look), a
 * core.fsmonitor added to another, a repository made in a directory of
 * theirs (/tmp/plain) and a .exrc below it ran at their next git commit,
 * git status or vim there (session 29's limit: only the top was kept).
 * The sweep walks it below its top as it walks the project: each is
 * moved aside as the session ends, while a repository of theirs the
 * session did not change (husky's hooks and all) and one it made that
 * runs nothing stay. Root's drop directory (mode 1733) is root's and
 * shared itself: read-only to a root session, which plants nothing there.
 * Control: protected_paths []. */
BOTH_USERS(guards, a_repository_below_a_shared_directory_s_top_is_swept, .timeout = 60)
{
	struct world w;
	char *shared = shared_git_world(&w, who, "gshared");
	struct run_result r;
	char *work = fmt("%s/work", shared), *plain = fmt("%s/plain", shared);
	char *keep = fmt("%s/keep", work), *repo = fmt("%s/repo", work);
	char *repo2 = fmt("%s/repo2", work), *sub = fmt("%s/sub", plain);
	char *fresh = fmt("%s/fresh", shared), *drop = fmt("%s/drop", shared);
	cr_assert_eq(mkdir(drop, 0), 0, "%s: %s", drop, strerror(errno));
	cr_assert_eq(chmod(drop, 01733), 0);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			free(shared_world(&w, ", \"protected_paths\": []"));
		shared_work(&w, shared);
		char *vars = fmt("S=%s", shared);
		char *script = plant(
			&w, tags[ctl], vars,
			"hook pre-commit > \"$S/work/repo/.git/hooks/pre-commit\" && chmod +x "
			"\"$S/work/repo/.git/hooks/pre-commit\"; echo hook $?\n"
			"printf '[core]\\n\\tfsmonitor = \"touch %s; false\"\\n' \"$M-fsm2\" >> "
			"\"$S/work/repo2/.git/config\"; echo config $?\n"
			"git init -q \"$S/plain\" && printf '[core]\\n\\tfsmonitor = \"touch %s; "
			"false\"\\n' \"$M-fsm3\" >> \"$S/plain/.git/config\"; echo made $?\n"
			"echo \"call writefile([], '$M-exrc')\" > \"$S/plain/sub/.exrc\"; echo exrc $?\n"
			"echo \"call writefile([], '$M-vendor')\" > \"$S/vendor/.exrc\"; echo vendor $?\n"
			"git init -q \"$S/fresh\"; echo fresh $?\n"
			/* (Round 30 F3: 300 decoys made unreadable, past the 256
			 * directories the sweep made readable, hid the user's
			 * own, made unreadable too.) */
			"mkdir \"$S/z\" && for i in $(seq 300); do mkdir \"$S/z/d$i\" && chmod 000 "
			"\"$S/z/d$i\" || break; done && chmod 0311 \"$S/work/repo\"; echo decoys $?\n"
			/* (Round 30 F4: a directory of its own in root's drop
			 * directory, which the user may write and not list.) */
			"mkdir -p \"$S/drop/evil\" && echo \"call writefile([], '$M-drop')\" > "
			"\"$S/drop/evil/.exrc\"; echo drop $?\n");
		free(vars);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "hook 0") && strstr(r.out, "config 0") &&
				  strstr(r.out, "made 0") && strstr(r.out, "exrc 0") &&
				  strstr(r.out, "vendor 0") && strstr(r.out, "decoys 0") &&
				  (strstr(r.out, "drop 0") || !who->user),
			  "the plants did not land\n%s", diag);
		char *judge = fmt(
			"cd %s && git commit -q --allow-empty -m x; cd %s && git status; "
			"cd %s && git status; cd %s && TERM=dumb vim --not-a-term -c q </dev/null; "
			"cd %s/vendor && TERM=dumb vim --not-a-term -c q </dev/null; "
			"cd %s && git commit -q --allow-empty -m k; true",
			repo, repo2, plain, sub, shared, keep);
		struct run_result v = sh_outside(&w, judge);
		run_free(&v);
		free(judge);
		char *husky = fmt("%s/husky-ran", w.outside);
		if (ctl) {
			cr_expect(marked(&w, tags[ctl], "pre-commit") &&
					  marked(&w, tags[ctl], "fsm2") &&
					  marked(&w, tags[ctl], "fsm3") &&
					  marked(&w, tags[ctl], "exrc") &&
					  marked(&w, tags[ctl], "vendor"),
				  "control: git or vim outside ran nothing (hook %d fsm2 %d fsm3 "
				  "%d exrc %d)\n%s",
				  marked(&w, tags[ctl], "pre-commit"),
				  marked(&w, tags[ctl], "fsm2"), marked(&w, tags[ctl], "fsm3"),
				  marked(&w, tags[ctl], "exrc"), diag);
		} else {
			cr_expect_not(marked(&w, tags[ctl], "pre-commit"),
				      "git commit outside ran the hook written into the user's "
				      "repository\n%s",
				      diag);
			cr_expect_not(marked(&w, tags[ctl], "fsm2"),
				      "git status outside ran the fsmonitor added to the user's "
				      "repository\n%s",
				      diag);
			cr_expect_not(marked(&w, tags[ctl], "fsm3"),
				      "git status outside ran the repository made in the user's "
				      "directory\n%s",
				      diag);
			cr_expect_not(marked(&w, tags[ctl], "exrc"),
				      "vim outside ran the .exrc\n%s", diag);
			cr_expect_not(
				marked(&w, tags[ctl], "vendor"),
				"vim outside ran the .exrc in a directory named vendor at the "
				"top (round 30 F1)\n%s",
				diag);
			cr_expect(present(repo, ".git.cordon-disarmed") &&
					  present(repo2, ".git.cordon-disarmed") &&
					  present(plain, ".git.cordon-disarmed") &&
					  present(sub, ".exrc.cordon-disarmed"),
				  "not moved aside\n%s", diag);
			cr_expect(strstr(r.err, repo) && strstr(r.err, plain), "not said\n%s",
				  diag);
			char *evil = fmt("%s/evil", drop);
			if (who->user)
				cr_expect(strstr(r.err, "could not look into") &&
						  strstr(r.err, drop),
					  "a directory the user may write and not list was passed "
					  "over unsaid\n%s",
					  diag);
			else /* (root's, and shared itself: read-only inside, 42a F2) */
				cr_expect(strstr(r.out, "drop 1") && !present(drop, "evil"),
					  "root's drop directory took a plant\n%s", diag);
			free(evil);
		}
		/* Availability: what the session did not change, and what runs
		 * nothing, stays. */
		cr_expect(present(keep, ".git") && !present(keep, ".git.cordon-disarmed") &&
				  present(fresh, ".git") && access(husky, F_OK) == 0,
			  "the user's untouched repository or a harmless one was moved, or "
			  "husky's hook did not run\n%s",
			  diag);
		cr_expect_not(strstr(r.err, keep) || strstr(r.err, fresh),
			      "an untouched or harmless repository was named\n%s", diag);
		unlink(husky);
		free(husky);
		run_free(&r);
		free(diag), free(script);
	}
	r = outside(&w, "chmod -R u+rwx %s %s/z; rm -rf %s %s %s %s/vendor %s/z", work, shared,
		    work, plain, fresh, shared, shared);
	run_free(&r);
	r = run_cmd((char *[]){"rm", "-rf", drop, NULL}, NULL, NULL, 10000);
	run_free(&r);
	free(work), free(plain), free(keep), free(repo), free(repo2), free(sub), free(fresh);
	free(drop);
	free(shared);
	world_free(&w);
}

/* RENAME_EXCHANGE of A and B in a loop, from once READY exists, until
 * killed (the racer of round 30b N1). */
static void swap_loop(const char *a, const char *b, const char *ready)
{
	while (access(ready, F_OK) < 0)
		usleep(1000);
	for (;;)
		(void)syscall(SYS_renameat2, AT_FDCWD, a, AT_FDCWD, b, 2 /* RENAME_EXCHANGE */);
}

/* Round 30b N1: while a session's end walked the shared directory, a
 * second session swapped the user's repository with a link in a loop:
 * the walk found neither name a directory when it came to it, dropped
 * both unsaid, and recorded the rest as looked at; the plant in the
 * repository (a core.fsmonitor, a .exrc below) ran at the user's next
 * git status and vim there, and no later session judged it (its times
 * were older than theirs). A walk that finds what it listed changed
 * walks again; past three, it is not taken as done: said, and the next
 * session judges from this one's start. Control: protected_paths []. */
BOTH_USERS(guards, a_walk_raced_by_renames_is_walked_again, .timeout = 90)
{
	struct world w;
	char *shared = shared_git_world(&w, who, "grace");
	struct run_result r;
	char *work = fmt("%s/work", shared), *lnk = fmt("%s/lnk", shared);
	char *ready = fmt("%s/ready", shared);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			free(shared_world(&w, ", \"protected_paths\": []"));
		unlink(ready);
		r = outside(
			&w,
			"mkdir -p %s/empty && cd %s && rm -rf work* lnk* && mkdir -p work/sub && "
			"git init -q work && ln -s %s/empty lnk",
			w.outside, shared, w.outside);
		run_free(&r);
		/* (A session that recorded the user's repository there.) */
		let_time_pass();
		r = sh_in(&w, NULL, "true");
		run_free(&r);
		pid_t racer = fork();
		cr_assert(racer >= 0);
		if (racer == 0)
			swap_loop(work, lnk, ready);
		char *vars = fmt("S=%s R=%s", shared, ready);
		char *script = plant(
			&w, tags[ctl], vars,
			"printf '[core]\\n\\tfsmonitor = \"touch %s; false\"\\n' \"$M-fsm\" >> "
			"\"$S/work/.git/config\"; echo config $?\n"
			"echo \"call writefile([], '$M-exrc')\" > \"$S/work/sub/.exrc\"; echo exrc $?\n"
			"touch \"$R\"; sleep 0.5\n");
		free(vars);
		r = sh_in(&w, NULL, "%s", script);
		kill(racer, SIGKILL);
		waitpid(racer, NULL, 0);
		/* (The directory back at its name: the sweep may have moved the
		 * link that stood at either name aside, as one laid meanwhile.) */
		struct stat st;
		if (lstat(work, &st) < 0 || !S_ISDIR(st.st_mode)) {
			DIR *d = opendir(shared);
			char *found = NULL;
			for (struct dirent *de; d && !found && (de = readdir(d));) {
				char *at_sub = fmt("%s/%s/sub", shared, de->d_name);
				if (de->d_name[0] != '.' && lstat(at_sub, &st) == 0 &&
				    S_ISDIR(st.st_mode))
					found = fmt("%s/%s", shared, de->d_name);
				free(at_sub);
			}
			if (d)
				closedir(d);
			cr_assert_not_null(found, "the directory is nowhere in %s", shared);
			unlink(work);
			cr_assert_eq(rename(found, work), 0, "%s: %s", found, strerror(errno));
			free(found);
		}
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "config 0") && strstr(r.out, "exrc 0"),
			  "the plants did not land\n%s", diag);
		run_free(&r);
		/* A later session, as any the user starts. */
		r = sh_in(&w, NULL, "true");
		char *diag2 = fmt("%s\nthen: %s%s", diag, r.out, r.err);
		run_free(&r);
		char *judge = fmt(
			"cd %s && git status; cd sub && TERM=dumb vim --not-a-term -c q </dev/null; true",
			work);
		struct run_result v = sh_outside(&w, judge);
		run_free(&v);
		free(judge);
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "fsm") && marked(&w, tags[ctl], "exrc"),
				  "control: git or vim outside ran nothing\n%s", diag2);
		else
			cr_expect_not(
				marked(&w, tags[ctl], "fsm") || marked(&w, tags[ctl], "exrc"),
				"git or vim outside ran what the raced walk missed (fsm %d exrc "
				"%d)\n%s",
				marked(&w, tags[ctl], "fsm"), marked(&w, tags[ctl], "exrc"), diag2);
		free(diag), free(diag2), free(script);
	}
	r = outside(&w, "rm -rf %s %s", work, lnk);
	run_free(&r);
	unlink(ready);
	free(work), free(lnk), free(ready), free(shared);
	world_free(&w);
}

/* What a session's end finds to move aside and cannot (the walk's races
 * above: the name a link at that moment, "Not a directory") is judged
 * again by the next session, from this one's start. Before, the root was
 * recorded as looked at, and the plant (a repository made in sub/ with a
 * core.fsmonitor) ran at the user's next git status there: a flake of
 * the test above, 1 in 6 runs. Stand-in for the race: sub/ made immutable
 * while the session ends (EPERM). Control: protected_paths [], where the
 * plant stays and git outside runs it. */
BOTH_USERS(guards, what_could_not_be_moved_aside_is_judged_again, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "gunmoved");
	char *sub = at(w.proj, "sub"), *dotgit = at(w.proj, "sub/.git");
	char *ready = at(w.proj, "ready"), *go = at(w.proj, "go");
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		struct run_result r = outside(&w, "rm -rf sub ready go");
		run_free(&r);
		let_time_pass();
		char *script = plant(&w, tags[ctl], "",
				     "git init -q sub && fsmon >> sub/.git/config; echo plant $?\n"
				     "touch ready; while [ ! -e go ]; do sleep 0.05; done\n");
		char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
				"/bin/sh",  "-c",  script,     NULL};
		pid_t pid = world_spawn(&w, argv, w.proj);
		cr_assert(wait_exists(ready, 20000), "the plant did not land");
		r = run_cmd((char *[]){"/usr/bin/chattr", "+i", sub, NULL}, NULL, NULL, 10000);
		cr_assert_eq(r.status, 0, "chattr +i: %s", r.err);
		run_free(&r);
		free(write_file(w.proj, "go", ""));
		int st;
		cr_expect_eq(waitpid(pid, &st, 0), pid);
		r = run_cmd((char *[]){"/usr/bin/chattr", "-i", sub, NULL}, NULL, NULL, 10000);
		run_free(&r);
		struct stat sb;
		cr_assert(lstat(dotgit, &sb) == 0 && S_ISDIR(sb.st_mode),
			  "control: the stand-in for the race did not keep sub/.git in place");
		/* A later session, as any the user starts. */
		r = sh_in(&w, NULL, "true");
		char *diag = fmt("%s: then %s%s", tags[ctl], r.out, r.err);
		run_free(&r);
		r = outside(&w, "cd sub && git status >/dev/null 2>&1; true");
		run_free(&r);
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "fsmonitor"),
				  "control: git outside ran nothing\n%s", diag);
		else
			cr_expect_not(marked(&w, tags[ctl], "fsmonitor"),
				      "git outside ran what the session planted\n%s", diag);
		free(diag);
		free(script);
	}
	free(sub), free(dotgit), free(ready), free(go);
	world_free(&w);
}

/* The same for a name judged by itself (round 41b F1): a top .exrc the
 * session made, which neither the watch nor the end could move aside, was
 * at the next start there as if the user's, and vim outside obeyed it.
 * Now it is noted, and the next session's end moves it aside. Stand-in for
 * the race: the launcher stopped while the file is made, and the file made
 * immutable until the session has ended. Control: protected_paths []. */
BOTH_USERS(guards, a_name_that_could_not_be_moved_aside_is_moved_by_the_next_session, .timeout = 60)
{
	struct world w;
	exrc_world(&w, who, "gunmovedname");
	char *exrc = at(w.proj, ".exrc"), *ready = at(w.proj, "ready"), *go = at(w.proj, "go");
	char *made = at(w.proj, "made");
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		unlink(ready), unlink(go), unlink(made);
		let_time_pass();
		char *script = plant(
			&w, tags[ctl], "",
			"touch ready; while [ ! -e go ]; do sleep 0.05; done; rm go\n"
			"echo \"call writefile([], '$M-exrc')\" > .exrc; echo exrc $? > made\n"
			"while [ ! -e go ]; do sleep 0.05; done\n");
		char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
				"/bin/sh",  "-c",  script,     NULL};
		pid_t pid = world_spawn(&w, argv, w.proj);
		cr_assert(wait_exists(ready, 20000), "the session did not start");
		cr_assert_eq(kill(pid, SIGSTOP), 0);
		free(write_file(w.proj, "go", ""));
		bool landed = wait_exists(made, 10000);
		struct run_result r =
			run_cmd((char *[]){"/usr/bin/chattr", "+i", exrc, NULL}, NULL, NULL, 10000);
		cr_expect_eq(r.status, 0, "chattr +i: %s", r.err);
		run_free(&r);
		cr_assert_eq(kill(pid, SIGCONT), 0);
		free(write_file(w.proj, "go", ""));
		int st;
		cr_expect_eq(waitpid(pid, &st, 0), pid);
		r = run_cmd((char *[]){"/usr/bin/chattr", "-i", exrc, NULL}, NULL, NULL, 10000);
		run_free(&r);
		cr_assert(landed && contains(made, "exrc 0"), "the plant did not land");
		struct stat sb;
		cr_assert_eq(lstat(exrc, &sb), 0,
			     "control: the stand-in for the race did not keep .exrc in place");
		/* A session in another project ends first (review 41c F2: it
		 * dropped the note). */
		char *other = at(w.dir, "other");
		(void)mkdir(other, 0755);
		if (who->user)
			cr_assert_eq(chown(other, w.uid, w.gid), 0);
		r = sh_in_dir(&w, other, "true");
		run_free(&r);
		free(other);
		/* A later session, as any the user starts. */
		r = sh_in(&w, NULL, "true");
		char *diag = fmt("%s: then %s%s", tags[ctl], r.out, r.err);
		run_free(&r);
		r = outside(&w, "TERM=dumb vim --not-a-term -c q </dev/null >/dev/null 2>&1; true");
		run_free(&r);
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "exrc"),
				  "control: vim outside ran nothing\n%s", diag);
		else
			cr_expect_not(marked(&w, tags[ctl], "exrc"),
				      "vim outside ran what the session planted\n%s", diag);
		free(diag);
		free(script);
		unlink(exrc);
	}
	free(exrc), free(ready), free(go), free(made);
	world_free(&w);
}

/* The project named through a directory that a session swaps with a link
 * (to a private directory) in a loop: resolved once and walked again, the
 * two could differ, and the launch took the link's target for the
 * project: read and wrote it on the 4th try (round 36b F1). Each try now
 * either has the directory itself or is refused; none reaches the private
 * one. Control: the private directory named itself is the project. */
/* The notes naming DIR in the state directory of W's user (root's, or
 * the test user's in W's home), removed with REMOVE: how many. */
static int notes_of(const struct world *w, const char *dir, bool remove)
{
	char *any = cordon_sweep_record_path("/"), *slash = any ? strrchr(any, '/') : NULL;
	cr_assert_not_null(slash);
	*slash = '\0';
	char *pattern = w->as_user ? fmt("%s/.local/state/cordon/sessions/wrote-*", w->home)
				   : fmt("%s/wrote-*", any);
	glob_t g = {0};
	int n = 0;
	if (glob(pattern, 0, NULL, &g) != 0)
		g.gl_pathc = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *noted = read_file(g.gl_pathv[i]);
		if (noted && strcmp(noted, dir) == 0 && ++n && remove)
			unlink(g.gl_pathv[i]);
		free(noted);
	}
	globfree(&g);
	free(pattern), free(any);
	return n;
}

/* How many notes in the registry REG name a session's own shell directory
 * (STATE/cordon/shell/ID). */
static int shell_notes(const char *reg)
{
	char *pattern = fmt("%s/wrote-*", reg);
	glob_t g = {0};
	int n = 0;
	if (glob(pattern, 0, NULL, &g) != 0)
		g.gl_pathc = 0;
	for (size_t i = 0; i < g.gl_pathc; i++) {
		char *noted = read_file(g.gl_pathv[i]);
		n += noted && strstr(noted, "/cordon/shell/");
		free(noted);
	}
	globfree(&g);
	free(pattern);
	return n;
}

/* Round 37c F3 and 37d F4, for an ordinary user whose passwd home is a
 * directory of theirs (a throwaway user, cordon-home, made here if
 * missing; its home made for the test and removed after): a session
 * started with one state home lays a link in its project; a launch with
 * another XDG_STATE_HOME still finds the note (kept below the passwd home
 * too) and does not follow the link to the secret; and one whose state
 * home lies in that project keeps no shell history there, and says so.
 * Controls: the secret is the user's to read outside; the link was laid. */
Test(guards, an_ordinary_user_s_notes_hold_whatever_the_state_home, .timeout = 60)
{
	const char *home = "/run/cordon-tests/cordon-home-user";
	struct passwd *pw = getpwnam("cordon-home");
	if (!pw) {
		(void)!system("useradd --system --no-create-home --user-group "
			      "--home-dir /run/cordon-tests/cordon-home-user "
			      "--shell /usr/sbin/nologin cordon-home >/dev/null 2>&1");
		pw = getpwnam("cordon-home");
	}
	cr_assert_not_null(pw, "no throwaway user (useradd cordon-home failed)");
	cr_assert_str_eq(pw->pw_dir, home);
	uid_t uid = pw->pw_uid; /* (getpwnam's entry is reused by the next) */
	gid_t gid = pw->pw_gid;
	struct world w;
	world_init(&w, "uidnotes", "");
	world_as_user(&w);
	w.uid = uid;
	w.gid = gid;
	(void)mkdir("/run/cordon-tests", 0755);
	cr_assert(mkdir(home, 0700) == 0 || errno == EEXIST, "%s: %s", home, strerror(errno));
	cr_assert_eq(chown(home, w.uid, w.gid), 0);
	free(write_file(w.dir, "secret/data", "SECRET-uidnotes\n"));
	char *secret = at(w.dir, "secret"), *docs = at(w.proj, "docs"),
	     *shared = at(w.dir, "shared");
	cr_assert_eq(mkdir(shared, 0755), 0);
	world_give(&w);
	struct run_result r = sh_outside(&w, "cat ../secret/data");
	cr_assert(strstr(r.out, "SECRET-uidnotes"), "control: the user cannot read it: %s", r.err);
	run_free(&r);
	char *lay = fmt("ln -s %s docs", secret);
	char *also = fmt("--allow-write %s", shared);
	r = sh_in(&w, also, "%s", lay);
	struct stat st;
	cr_assert(lstat(docs, &st) == 0 && S_ISLNK(st.st_mode), "control: no link laid: %s", r.err);
	run_free(&r);
	/* Another state home (a terminal that sets one). */
	char *other = fmt("XDG_STATE_HOME=%s/state2", w.dir);
	world_setenv(&w, other);
	char *read_docs = fmt("--allow-read %s", docs);
	r = sh_in(&w, read_docs, "cat %s/data", docs);
	cr_expect_null(strstr(r.out, "SECRET-uidnotes"),
		       "a launch with another state home followed the link: %s", r.err);
	run_free(&r);
	/* A state home where that session could write, and this one not. */
	char *inside = fmt("XDG_STATE_HOME=%s/state", shared);
	world_setenv(&w, inside);
	char *argv[] = {CORDON_BIN, "run",       "--config", w.cfg,
			"--",       "/bin/bash", "-c",       "echo \"dir=$CORDON_HISTORY_DIR\"",
			NULL};
	r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.err, "lies where a session may write"), "not said: %s", r.err);
	cr_expect(strstr(r.out, "dir=\n") != NULL, "history kept there: %s", r.out);
	run_free(&r);
	/* A killed launcher's note planted where XDG_STATE_HOME or HOME name
	 * (round 38e H1: a session that could write there had the next launch
	 * move any file of the user's aside): read only below the passwd home. */
	char *victim = at(w.dir, "victim");
	free(write_file(w.dir, "victim", "mine\n"));
	cr_assert_eq(chown(victim, w.uid, w.gid), 0);
	char *planted = fmt("%s/.local/state/cordon/sessions/configs.held-999999-1", w.home);
	FILE *f = fopen(planted, "w");
	cr_assert_not_null(f, "%s: %s", planted, strerror(errno));
	fprintf(f, "s%c%ct%c1:0%cw%c/%cc%c%s%c1:1:1:0%c", 0, 0, 0, 0, 0, 0, 0, victim, 0, 0);
	cr_assert_eq(fclose(f), 0);
	world_setenv(&w, "XDG_STATE_HOME=");
	r = sh_in(&w, NULL, "true");
	run_free(&r);
	cr_expect(file_exists(victim), "a planted note moved the user's file aside");
	unlink(planted);
	free(planted), free(victim);
	/* The note of each session's own shell directory, made in both
	 * registries, goes from both as the session ends (46b F5: the passwd
	 * home's kept one a session for good). Control: there while it runs. */
	char *reg = fmt("%s/.local/state/cordon/sessions", home), *go = at(w.proj, "go"),
	     *on = at(w.proj, "on");
	char *hold[] = {CORDON_BIN, "run",
			"--config", w.cfg,
			"--",       "/bin/sh",
			"-c",       "touch on; while [ ! -e go ]; do sleep 0.05; done",
			NULL};
	pid_t pid = world_spawn(&w, hold, w.proj);
	cr_assert(wait_exists(on, 10000), "the session did not start");
	int during = shell_notes(reg);
	free(write_file(w.proj, "go", ""));
	cr_expect(wait_gone(pid, 10000), "the session did not end");
	cr_expect_gt(during, 0, "control: no note of the session's shell directory in %s", reg);
	cr_expect_eq(shell_notes(reg), 0, "a session's note stayed in %s", reg);
	unlink(go), unlink(on);
	free(go);
	/* A killed launcher's note of the configs its session could write,
	 * made in both registries: the next launch judges it from the passwd
	 * home's and removes it from both (HOME's copy stayed for good).
	 * Control: both are there before. */
	char *cfg_text = read_file(w.cfg), *conf = at(w.proj, "conf.json");
	free(write_file(w.proj, "conf.json", cfg_text));
	world_give(&w);
	char *killed[] = {CORDON_BIN, "run", "--config",           conf, "--",
			  "/bin/sh",  "-c",  "touch on; sleep 60", NULL};
	pid = world_spawn(&w, killed, w.proj);
	cr_assert(wait_exists(on, 10000), "the session did not start");
	cr_assert_eq(kill(pid, SIGKILL), 0);
	cr_expect(wait_gone(pid, 10000), "the launcher did not go");
	char *held_home = fmt("%s/configs.held-%d-*", reg, (int)pid);
	char *held_own = fmt("%s/.local/state/cordon/sessions/configs.held-%d-*", w.home, (int)pid);
	glob_t g = {0}, g2 = {0};
	bool in_both = glob(held_home, 0, NULL, &g) == 0 && glob(held_own, 0, NULL, &g2) == 0;
	globfree(&g), globfree(&g2);
	cr_expect(in_both, "control: the killed launcher's note is not in both registries");
	/* (The killed session's keeper ends its processes a moment after the
	 * launcher goes; a launch while they still run keeps the note for a
	 * later one: under load, the first may come too soon.) */
	bool home_kept = true, own_kept = true;
	for (int t = 0; t < 6 && (home_kept || own_kept); t++) {
		if (t)
			usleep(500000);
		r = sh_in(&w, NULL, "true");
		run_free(&r);
		home_kept = glob(held_home, 0, NULL, &g) == 0;
		own_kept = glob(held_own, 0, NULL, &g2) == 0;
		globfree(&g), globfree(&g2);
	}
	cr_expect_not(home_kept, "the note stayed in the passwd home's");
	cr_expect_not(own_kept, "the note stayed in HOME's registry");
	unlink(on), unlink(conf);
	free(held_home), free(held_own), free(conf), free(cfg_text), free(reg), free(on);
	char *rm = fmt("rm -rf %s", home);
	(void)!system(rm);
	free(rm), free(also), free(shared);
	free(inside), free(read_docs), free(other), free(lay), free(secret), free(docs);
	world_free(&w);
}

/* A config in a directory the session swaps for another holding an older
 * file of its own ({"enabled": false}), its launcher then killed: the
 * file at the config's name keeps that older change time (round 39d G1:
 * for a user with no home, whose note only refuses, the note was dropped
 * and the next launch with the config ran unsandboxed). Root's is moved
 * aside; the ordinary user's launch with it is refused. Control: what
 * now lies at that name turns the sandbox off. */
BOTH_USERS(guards, a_config_s_directory_swapped_by_a_killed_session_is_judged, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "cfgswap", "");
	bool homeless = who->user && !passwd_home_is_theirs(&w);
	struct config_case cc;
	config_case(&w, &cc);
	free(write_file(w.proj, "cfg/conf.json", cc.config));
	free(write_file(w.proj, "stash/conf.json", "{\"enabled\": false}"));
	world_give(&w);
	char *conf = at(w.proj, "cfg/conf.json"), *ready = at(w.proj, "ready");
	char *copy = at(w.dir, "copy.json");
	free(write_file(w.dir, "copy.json", "{\"enabled\": false}"));
	world_give(&w);
	usleep(1100 * 1000); /* (the stash a second older than the session) */
	char *read_it[] = {CORDON_BIN, "run", "--config", conf, "--", "/bin/true", NULL};
	struct run_result r = world_run(&w, read_it, w.proj);
	cr_assert_eq(r.status, 0, "control: the config is not read: %s", r.err);
	run_free(&r);
	char *swap = "mv cfg cfg.old && mv stash cfg && touch ready && sleep 60";
	char *argv[] = {CORDON_BIN, "run", "--config", cc.other, "--", "/bin/sh", "-c", swap, NULL};
	pid_t pid = world_spawn(&w, argv, w.proj);
	cr_assert(wait_exists(ready, 20000), "the session did not swap");
	cr_assert_eq(kill(pid, SIGKILL), 0);
	cr_expect(wait_gone(pid, 10000), "the launcher did not go");
	char *now = read_file(conf);
	cr_assert(strstr(now, "false"), "control: the swap did not land: %s", now);
	free(now);
	char *with[] = {CORDON_BIN, "run", "--config", conf, "--",
			"/bin/sh",  "-c",  cc.escape,  NULL};
	r = world_run(&w, with, w.proj);
	cr_expect_eq(r.status, 125, "the launch with it: %d %s", r.status, r.err);
	cr_expect_not(file_exists(cc.marker), "the launch with it ran unsandboxed: %s", r.err);
	cr_expect(!homeless || strstr(r.err, "check the config, then remove the note"),
		  "not said: %s", r.err);
	run_free(&r);
	/* Control: what lay there turns the sandbox off. */
	char *ctl[] = {CORDON_BIN, "run", "--config", copy, "--", "/bin/sh", "-c", cc.escape, NULL};
	r = world_run(&w, ctl, w.proj);
	cr_expect(file_exists(cc.marker), "control: the stashed config kept the sandbox: %s",
		  r.err);
	run_free(&r);
	r = outside(&w, "rm -f %s/.local/state/cordon/sessions/configs.held-%d-*", w.home,
		    (int)pid);
	run_free(&r);
	free(conf), free(ready), free(copy);
	config_case_free(&cc);
	world_free(&w);
}

/* A killed launcher's note planted by a session where the next launch
 * reads notes (round 38f M1). Root's are in /var/lib/cordon, where no
 * session writes: the control, a planted note there is acted on (the
 * config it names, read by name before, is moved aside). An ordinary user
 * with no home directory of theirs keeps them where XDG_STATE_HOME or HOME
 * name, which may lie in a project: a note there moves nothing, and only
 * a launch that reads that config is refused. (Root's here in a state
 * directory of the test's own, CORDON_TEST_REGISTRY: any root launch
 * beside it, this suite's or another's, judged the note in /var/lib/cordon
 * first, moved the config aside before the test changed it, and the
 * control failed; and the launch judging it, the note's session able to
 * write / since 1970, moved aside every config read by name there was
 * then, the tests' beside it too.) */
/* A killed launcher's note at NOTE (999999 started at 1, long gone), as
 * a session would plant it: it held CONFIG, with an identity it never
 * had, and could write everything. */
static void plant_held_note(const struct world *w, const char *note, const char *config, int how)
{
	/* HOW 0: CONFIG held with an identity it never had; 1: with its own
	 * (but an older change time); 2: not held, only readable as first
	 * read while the session ran. */
	FILE *f = fopen(note, "w");
	cr_assert_not_null(f, "%s: %s", note, strerror(errno));
	struct stat st = {.st_dev = 1, .st_ino = 1};
	if (how == 1)
		cr_assert_eq(stat(config, &st), 0);
	fprintf(f, "s%c%ct%c1:0%cw%c/%c", 0, 0, 0, 0, 0, 0);
	if (how != 2)
		fprintf(f, "c%c%s%c%llu:%llu:1:0%c", 0, config, 0, (unsigned long long)st.st_dev,
			(unsigned long long)st.st_ino, 0);
	cr_assert_eq(fclose(f), 0);
	if (w->as_user)
		cr_assert_eq(chown(note, w->uid, w->gid), 0);
}

BOTH_USERS(guards, a_planted_killed_launcher_note_moves_nothing_without_a_home, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "heldplant", "");
	if (who->user && passwd_home_is_theirs(&w))
		cr_skip_test("the test user has a home directory here: notes are kept there");
	char *state = path_join(w.dir, "state");
	if (!who->user) {
		char *kv = fmt("CORDON_TEST_REGISTRY=%s", state);
		world_setenv(&w, kv);
		free(kv);
	}
	char *victim = at(w.dir, "victim.json"), *aside = fmt("%s.cordon-disarmed", victim);
	free(write_file(w.dir, "victim.json", "{}"));
	world_give(&w);
	char *read_it[] = {CORDON_BIN, "run", "--config", victim, "--", "/bin/true", NULL};
	struct run_result r = world_run(&w, read_it, w.proj);
	cr_assert_eq(r.status, 0, "control: the config is not read: %s", r.err);
	run_free(&r);
	char *note = who->user
			     ? fmt("%s/.local/state/cordon/sessions/configs.held-999999-1", w.home)
			     : fmt("%s/configs.held-999999-1", state);
	for (int how = 1; who->user && how <= 2; how++) {
		/* The file it held, or one it may have written, unchanged since
		 * the note was written: no session of its could have changed
		 * it, and the note goes (round 39b F2). */
		plant_held_note(&w, note, victim, how);
		r = world_run(&w, read_it, w.proj);
		cr_expect_eq(r.status, 0, "%d: a config unchanged since the note was refused: %s",
			     how, r.err);
		run_free(&r);
		cr_expect_not(file_exists(note), "%d: a note naming nothing changed stayed", how);
	}
	/* Another file at its name, and changed since (round 39d G1: another
	 * identity counts, whatever its change time). */
	plant_held_note(&w, note, victim, 0);
	usleep(20000);
	free(write_file(w.dir, "victim.json", "{ }")); /* (changed since) */
	r = sh_in(&w, NULL, "true");
	if (!who->user) {
		cr_expect(file_exists(aside) && !file_exists(victim),
			  "control: root's note was not acted on: %s", r.err);
		cr_expect_not(file_exists(note), "control: root's note stayed");
		run_free(&r);
	} else {
		cr_expect(file_exists(victim) && !file_exists(aside),
			  "a planted note moved the user's config aside: %s", r.err);
		cr_expect_eq(r.status, 0, "a launch that does not read it was refused: %s", r.err);
		run_free(&r);
		/* The launch that reads it is refused, by any name that leads
		 * there (round 39b F1: through a linked directory). */
		char *alias = at(w.outside, "alias");
		cr_assert_eq(symlink(w.dir, alias), 0);
		char *by_alias = fmt("%s/victim.json", alias);
		char *read_alias[] = {CORDON_BIN, "run",       "--config", by_alias,
				      "--",       "/bin/true", NULL};
		for (int k = 0; k < 2; k++) {
			r = world_run(&w, k ? read_alias : read_it, w.proj);
			cr_expect_eq(r.status, 125, "%d: the launch that reads it: %d %s", k,
				     r.status, r.err);
			cr_expect(strstr(r.err, "check the config, then remove the note"),
				  "%d: not said: %s", k, r.err);
			run_free(&r);
		}
		cr_expect(file_exists(victim), "moved aside by the launch that reads it");
		free(by_alias), free(alias);
	}
	unlink(note);
	free(note), free(aside), free(victim), free(state);
	world_free(&w);
}

BOTH_USERS(guards, a_project_swapped_with_a_link_while_cordon_looks_is_never_its_target,
	   .timeout = 90)
{
	struct world w;
	char *priv, *b, *made, *argv[11];
	laid_project(&w, who, "projrace", "projrace-secret", "mkdir sub && ln -s $P subl", &priv,
		     &b, &made, argv);
	char *sub = fmt("%s/sub", w.proj), *subl = fmt("%s/subl", w.proj);
	char *ready = fmt("%s/ready", w.dir);
	cr_assert_gt(notes_of(&w, priv, true), 0, "control: the project named itself not noted");
	pid_t racer = fork();
	cr_assert(racer >= 0);
	if (racer == 0)
		swap_loop(sub, subl, ready);
	free(write_file(w.dir, "ready", ""));
	argv[5] = sub;
	int reached = 0, tries = 40;
	for (int i = 0; i < tries && !reached; i++) {
		struct run_result r = world_run(&w, argv, b);
		reached = strstr(r.out, "projrace-secret") || access(made, F_OK) == 0 ? i + 1 : 0;
		run_free(&r);
	}
	kill(racer, SIGKILL);
	waitpid(racer, NULL, 0);
	cr_expect_eq(reached, 0, "the private directory was the project at try %d", reached);
	/* Nor noted as a directory a session could write (36c F4). */
	cr_expect_eq(notes_of(&w, priv, false), 0, "the private directory was noted");
	unlink(made);
	sweep_forget(priv);
	free(priv), free(sub), free(subl), free(b), free(made), free(ready);
	world_free(&w);
}

/* Round 30b N3: an allowed .envrc of the user's in a shared directory
 * that sources its virtualenv's activate script; the session appended to
 * the script, which lies in dependencies (.venv) where no local name is
 * judged, and direnv outside ran it at the next cd. What an .envrc loads
 * by name is judged wherever it lies: the .envrc is moved aside.
 * Control: protected_paths []. */
BOTH_USERS(guards, what_an_envrc_loads_from_dependencies_is_judged, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "genvvenv");
	char *shared = shared_world(&w, "");
	char *work = fmt("%s/work", shared);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			free(shared_world(&w, ", \"protected_paths\": []"));
		struct run_result r = outside(
			&w,
			"rm -rf %s && mkdir -p %s/.venv/bin && cd %s && echo true > "
			".venv/bin/activate && echo 'source .venv/bin/activate' > .envrc && "
			"direnv allow . 2>&1",
			work, work, work);
		cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
		run_free(&r);
		char *vars = fmt("S=%s", shared);
		char *script = plant(&w, tags[ctl], vars,
				     "echo \"touch $M-venv\" >> \"$S/work/.venv/bin/activate\"; "
				     "echo venv $?\n");
		free(vars);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "venv 0"), "the plant did not land\n%s", diag);
		run_free(&r);
		char *judge = fmt("cd %s && direnv exec . true >/dev/null 2>&1; true", work);
		struct run_result v = sh_outside(&w, judge);
		run_free(&v);
		free(judge);
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "venv"), "control: direnv ran nothing\n%s",
				  diag);
		else
			cr_expect(!marked(&w, tags[ctl], "venv") &&
					  present(work, ".envrc.cordon-disarmed"),
				  "direnv outside ran what the session appended to the activate "
				  "script, or the .envrc was not moved aside\n%s",
				  diag);
		free(diag), free(script);
	}
	struct run_result r = outside(&w, "rm -rf %s", work);
	run_free(&r);
	free(work), free(shared);
	world_free(&w);
}

/* The entries of DIR (no . or ..), counted. */
static int entries_in(const char *dir)
{
	DIR *d = opendir(dir);
	int n = 0;
	for (struct dirent *de; d && (de = readdir(d));)
		n += strcmp(de->d_name, ".") != 0 && strcmp(de->d_name, "..") != 0;
	if (d)
		closedir(d);
	return d ? n : -1;
}

/* Round 30b N5: three sessions in a shared directory ended together,
 * each having made a repository with a core.fsmonitor there: the first's
 * sweep moved each aside, and the second's, judging from a record of
 * before that move, took each .git.cordon-disarmed for one made since and
 * moved it on (.git.cordon-disarmed.cordon-disarmed, and once more by the
 * third): nothing ran, but each line blamed the wrong session and named
 * the wrong path to move back. One that a sweep moved aside since the
 * session started is judged from that move, and sweeps take turns (the
 * first here ends alone, the other two together). A
 * repository the user made outside meanwhile with core.fsmonitor =
 * false (git's own way to say none) stays. Control: protected_paths []. */
BOTH_USERS(guards, sessions_ending_together_move_each_plant_once, .timeout = 90)
{
	struct world w;
	char *shared = shared_git_world(&w, who, "gtogether");
	char *go = fmt("%s/go", shared), *off = fmt("%s/off", shared);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			free(shared_world(&w, ", \"protected_paths\": []"));
		struct run_result r =
			outside(&w, "cd %s && rm -rf c0 c1 c2 off go* ready* out*", shared);
		run_free(&r);
		/* (A session that recorded the directory: the three keep that
		 * record as they start, and judge from it.) */
		r = sh_in(&w, NULL, "true");
		run_free(&r);
		let_time_pass();
		pid_t pids[3];
		for (int i = 0; i < 3; i++) {
			char *vars = fmt("S=%s I=%d", shared, i);
			char *body = plant(
				&w, tags[ctl], vars,
				"git init -q \"$S/c$I\" && printf '[core]\\n\\tfsmonitor = \"touch "
				"%s; false\"\\n' \"$M-c$I\" >> \"$S/c$I/.git/config\"; echo c$I $? > "
				"\"$S/out$I\"; touch \"$S/ready$I\"; while [ ! -e \"$S/go$I\" ]; do "
				"sleep 0.05; done\n");
			char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
					"/bin/sh",  "-c",  body,       NULL};
			pids[i] = world_spawn(&w, argv, w.proj);
			free(body), free(vars);
		}
		for (int i = 0; i < 3; i++) {
			char *ready = fmt("%s/ready%d", shared, i);
			cr_assert(wait_exists(ready, 20000), "%s: session %d did not start",
				  tags[ctl], i);
			free(ready);
		}
		r = outside(&w, "git init -q %s && git -C %s config core.fsmonitor false", off,
			    off);
		cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
		run_free(&r);
		/* The first ends, then the other two together. */
		for (int i = 0; i < 3; i++) {
			r = outside(&w, "touch %s%d", go, i);
			run_free(&r);
			int st;
			if (i == 0 || i == 2)
				for (int k = i == 0 ? 0 : 1; k <= i; k++)
					cr_assert_eq(waitpid(pids[k], &st, 0), pids[k]);
		}
		char *diag = fmt("%s:", tags[ctl]);
		for (int i = 0; i < 3; i++) {
			char *out = fmt("%s/out%d", shared, i), *said = slurp(out);
			char *was = diag;
			diag = fmt("%s %s", was, said ? said : "(nothing)");
			char *landed = fmt("c%d 0", i);
			cr_assert(said && strstr(said, landed), "the plant did not land\n%s", diag);
			free(was), free(out), free(said), free(landed);
		}
		char *judge = fmt("for i in 0 1 2; do (cd %s/c$i && git status); done >/dev/null "
				  "2>&1; true",
				  shared);
		struct run_result v = sh_outside(&w, judge);
		run_free(&v);
		free(judge);
		for (int i = 0; i < 3; i++) {
			char *c = fmt("%s/c%d", shared, i), *what = fmt("c%d", i);
			if (ctl) {
				cr_expect(marked(&w, tags[ctl], what),
					  "control: git status in %s ran nothing\n%s", c, diag);
			} else {
				cr_expect_not(marked(&w, tags[ctl], what),
					      "git status outside ran the fsmonitor in %s\n%s", c,
					      diag);
				cr_expect(present(c, ".git.cordon-disarmed") && entries_in(c) == 1,
					  "%s: not moved aside once, to .git.cordon-disarmed (%d "
					  "entries; moved on: %d)\n%s",
					  c, entries_in(c),
					  present(c, ".git.cordon-disarmed.cordon-disarmed"), diag);
			}
			free(c), free(what);
		}
		cr_expect(present(off, ".git") && !present(off, ".git.cordon-disarmed"),
			  "a repository the user made with core.fsmonitor = false was moved\n%s",
			  diag);
		free(diag);
	}
	struct run_result r = outside(&w, "cd %s && rm -rf c0 c1 c2 off go* ready* out*", shared);
	run_free(&r);
	free(go), free(off), free(shared);
	world_free(&w);
}

/* Round 30b N4: mise reads mise/config.toml and .config/mise/config.toml
 * in every directory from where it runs up (its hooks and tasks run at
 * each cd there); below a top, where protected_paths do not reach, only
 * names of one were judged, so both stayed, unsaid, in a directory of the
 * project's and one of a shared directory. A name of two is judged where
 * its first lies below the top (in the project, one level down: the top
 * ones are protected_paths). mise is not installed here: judged by where
 * the files are. What the user had there stays. Control:
 * protected_paths []. */
BOTH_USERS(guards, mise_s_configs_of_two_names_below_a_top_are_judged, .timeout = 60)
{
	struct world w;
	char *shared = shared_git_world(&w, who, "gmise");
	char *mx = fmt("%s/mx", shared), *sub = fmt("%s/sub", w.proj);
	char *mine = fmt("%s/mine", shared);
	/* (Round 31 F5: mise's own list has its local config and rtx's
	 * names too.) */
	static const char *const made[] = {"mise/config.toml", ".config/mise/config.toml",
					   "mise/config.local.toml", ".rtx.toml",
					   ".rtx.local.toml"};
	const char *dirs[] = {mx, sub, w.proj};
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			free(shared_world(&w, ", \"protected_paths\": []"));
		struct run_result r =
			outside(&w,
				"rm -rf %s %s %s && mkdir -p %s %s %s/mise && echo '[env]' > "
				"%s/mise/config.toml",
				mx, sub, mine, mx, sub, mine, mine);
		cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
		run_free(&r);
		char *vars = fmt("S=%s P=%s", shared, w.proj);
		char *script = plant(
			&w, tags[ctl], vars,
			"for d in \"$S/mx\" \"$P/sub\"; do mkdir -p \"$d/mise\" \"$d/.config/mise\" && "
			"printf '[hooks]\\nenter = \"touch %s\"\\n' \"$M-mise\" | tee "
			"\"$d/mise/config.toml\" > \"$d/.config/mise/config.toml\"; echo made $?; "
			"done\n"
			"for d in \"$S/mx\" \"$P/sub\" \"$P\"; do for f in mise/config.local.toml "
			".rtx.toml .rtx.local.toml; do mkdir -p \"$d/mise\" && echo '[env]' > \"$d/$f\" "
			"|| echo failed $d/$f; done; done\n");
		free(vars);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "made 0\nmade 0") && !strstr(r.out, "failed"),
			  "the plants did not land\n%s", diag);
		for (size_t d = 0; d < 3; d++)
			for (size_t k = d < 2 ? 0 : 2; k < 5; k++) {
				char *file = fmt("%s/%s", dirs[d], made[k]);
				bool there = access(file, F_OK) == 0;
				if (ctl)
					cr_expect(there, "control: %s is gone\n%s", file, diag);
				else
					cr_expect(!there && strstr(r.err, dirs[d]),
						  "%s stayed, or was not said\n%s", file, diag);
				free(file);
			}
		if (!ctl) {
			char *aside = fmt("%s/.config/mise.cordon-disarmed/config.toml", mx);
			cr_expect(present(mx, "mise/config.toml.cordon-disarmed") &&
					  access(aside, F_OK) == 0,
				  "not moved aside where the line says\n%s", diag);
			free(aside);
		}
		cr_expect(present(mine, "mise/config.toml") && !strstr(r.err, mine),
			  "the user's own mise config was moved or named\n%s", diag);
		run_free(&r);
		free(diag), free(script);
	}
	struct run_result r = outside(&w, "rm -rf %s %s %s", mx, sub, mine);
	run_free(&r);
	free(mx), free(sub), free(mine), free(shared);
	world_free(&w);
}

/* A repository world for mise's tests (TAG, "ctl" added in the control,
 * where protected_paths is []), with SETUP run outside in it. */
static void mise_world(struct world *w, const struct who *who, const char *tag, int ctl,
		       const char *setup)
{
	char *name = fmt("%s%s", tag, ctl ? "ctl" : "");
	git_world(w, who, name);
	free(name);
	if (ctl)
		set_config(w, ", \"protected_paths\": []");
	struct run_result r = outside(w, "%s", setup);
	cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
	run_free(&r);
}

/* A mise world whose project is R/a/p below R, writable (system_paths
 * read_write; protected_paths [] in the control, CTL), set up with SETUP
 * (run in the world's own project): R and R/a/p into *UP and *PROJ. */
static void above_world(struct world *w, const struct who *who, const char *tag, int ctl,
			const char *setup, char **up, char **proj)
{
	mise_world(w, who, tag, ctl, setup);
	*up = at(w->dir, "R");
	*proj = at(w->dir, "R/a/p");
	FILE *f = fopen(w->cfg, "w");
	cr_assert_not_null(f, "%s: %s", w->cfg, strerror(errno));
	fprintf(f,
		"{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/tty\", "
		"\"/dev/ptmx\", \"/dev/urandom\", \"/dev/zero\", \"%s\"]}%s}",
		*up, ctl ? ", \"protected_paths\": []" : "");
	cr_assert_eq(fclose(f), 0);
}

/* BODY (/bin/sh -c) in a session started in DIR, SIGKILLed once it has
 * made DIR/ready, then a second and a bit (change times). */
static void kill_when_ready(struct world *w, const char *dir, const char *body)
{
	char *argv[] = {CORDON_BIN, "run", "--config",   w->cfg, "--",
			"/bin/sh",  "-c",  (char *)body, NULL};
	pid_t pid = world_spawn(w, argv, dir);
	char *ready = at(dir, "ready");
	cr_assert(wait_exists(ready, 20000), "the killed session's steps did not land");
	cr_assert_eq(kill(pid, SIGKILL), 0);
	cr_expect(wait_gone(pid, 10000), "the launcher did not go");
	free(ready);
	let_time_pass();
}

/* Each of the N NAMES in DIR moved aside there (NAME.cordon-disarmed),
 * and named in SAID (may be NULL); in the control (CTL), left where it
 * was. */
static void expect_aside(const char *dir, const char *const *names, size_t n, int ctl,
			 const char *said, const char *diag)
{
	for (size_t k = 0; k < n; k++) {
		char *aside = fmt("%s.cordon-disarmed", names[k]);
		if (ctl)
			cr_expect(present(dir, names[k]), "control: %s/%s was moved\n%s", dir,
				  names[k], diag);
		else
			cr_expect(!present(dir, names[k]) && present(dir, aside) &&
					  (!said || strstr(said, names[k])),
				  "%s/%s stayed, or was not moved aside where the line says\n%s",
				  dir, names[k], diag);
		free(aside);
	}
}

/* mise's config environments: with MISE_ENV=staging (or an `env` a
 * .miserc.toml sets), mise reads mise.staging.toml and its kin in each
 * directory from where it runs up, hooks and tasks included; no default
 * protected name covered them, nor .miserc.toml (which picks the
 * environments), .config/miserc.toml or .config/mise.local.toml, mise's
 * own names. A session wrote the user's mise.staging.toml and made the
 * others, at the top and in a subdirectory. The environments named by
 * the launcher's environment and by the user's own .miserc.toml are
 * protected as mise.toml is: read-only inside, moved aside where made.
 * mise is not installed here: judged by the user's file's bytes and
 * where the files are. Control: protected_paths [], the write lands and
 * the files stay. */
static const char mise_env_plant[] =
	"echo '[hooks]' >> mise.staging.toml; echo append $?\n"
	"mkdir -p mise sub/mise .config && for f in mise.ci.toml .mise.review.local.toml "
	"mise/config.ci.toml .config/mise.review.toml .config/miserc.toml "
	".config/mise.local.toml sub/mise.staging.toml sub/mise/config.review.toml; do "
	"printf '[hooks]\\nenter = \"touch x\"\\n' > \"$f\" || echo failed $f; done; "
	"echo made\n";

BOTH_USERS(guards, mise_s_config_environments_are_protected, .timeout = 60)
{
	static const char *const made[] = {"mise.ci.toml",          ".mise.review.local.toml",
					   "mise/config.ci.toml",   ".config/mise.review.toml",
					   ".config/miserc.toml",   ".config/mise.local.toml",
					   "sub/mise.staging.toml", "sub/mise/config.review.toml"};
	for (int ctl = 0; ctl < 2; ctl++) {
		struct world w;
		mise_world(&w, who, "menv", ctl,
			   "printf '[env]\\nA = 1\\n' > mise.staging.toml && printf 'env = [ # the "
			   "team\\n  \"review\",\\n]\\n' > .miserc.toml");
		world_setenv(&w, "MISE_ENV=staging, ci");
		struct run_result r = sh_in(&w, NULL, "%s", mise_env_plant);
		char *diag =
			fmt("%s (%d): %s%s", ctl ? "control" : "inside", r.status, r.out, r.err);
		cr_assert(strstr(r.out, "made"), "the plant did not run\n%s", diag);
		char *file = at(w.proj, "mise.staging.toml"), *mine = read_file(file);
		free(file);
		if (!mine)
			mine = strdup("(missing)");
		if (ctl) {
			cr_expect(strstr(r.out, "append 0") && strstr(mine, "[hooks]"),
				  "control: the write to mise.staging.toml failed\n%s", diag);
			cr_expect(present(w.proj, "mise.ci.toml") &&
					  present(w.proj, "sub/mise.staging.toml"),
				  "control: an environment's file was moved\n%s", diag);
		} else {
			cr_expect(strstr(r.out, "append ") && !strstr(r.out, "append 0") &&
					  strcmp(mine, "[env]\nA = 1\n") == 0,
				  "the user's mise.staging.toml was written inside: %s\n%s", mine,
				  diag);
			for (size_t k = 0; k < sizeof(made) / sizeof(*made); k++)
				cr_expect(!present(w.proj, made[k]), "%s stayed\n%s", made[k],
					  diag);
			cr_expect(present(w.proj, "sub/mise.staging.toml.cordon-disarmed") &&
					  strstr(r.err, "sub/mise.staging.toml"),
				  "not moved aside where the line says\n%s", diag);
			cr_expect(present(w.proj, ".miserc.toml"), "the user's .miserc.toml went");
		}
		free(mine);
		free(diag);
		run_free(&r);
		world_free(&w);
	}
}

/* An environment no setting names as the session starts: the user runs
 * `mise -E prod` (or sets MISE_ENV in another terminal) later, outside.
 * Before, a session wrote the user's mise.prod.toml at the top, and any
 * mise.NAME.toml it made stayed. The user's files of an environment at
 * the top are read-only inside (what they name is protected as a named
 * environment is); one made or changed is moved aside, at the top and
 * below it. The user's own, below the top and left alone, stays. mise is
 * not installed here: judged by the user's file's bytes and where the
 * files are. Control: protected_paths [], the write lands and the files
 * stay. */
static const char *const mise_any_made[] = {"mise.evil.toml",
					    ".mise.evil.local.toml",
					    ".config/mise.evil.toml",
					    "mise/config.evil.toml",
					    "sub/mise.evil.toml",
					    "sub/.mise.evil.toml",
					    "sub/mise/config.evil.toml",
					    "sub/.config/mise.evil.local.toml",
					    "sub/mise.prod.toml"};

BOTH_USERS(guards, mise_s_unnamed_config_environments_are_protected, .timeout = 60)
{
	for (int ctl = 0; ctl < 2; ctl++) {
		struct world w;
		mise_world(&w, who, "many", ctl,
			   "mkdir -p sub .config && printf '[env]\\nA = 1\\n' | tee mise.prod.toml "
			   ".config/mise.qa.toml sub/mise.prod.toml > sub/mise.qa.toml");
		struct run_result r = sh_in(
			&w, NULL, "%s",
			"for f in mise.prod.toml .config/mise.qa.toml; do echo '[hooks]' >> $f; "
			"echo append $?; done\n"
			"mkdir -p mise sub/mise sub/.config && for f in mise.evil.toml "
			".mise.evil.local.toml .config/mise.evil.toml mise/config.evil.toml "
			"sub/mise.evil.toml sub/.mise.evil.toml sub/mise/config.evil.toml "
			"sub/.config/mise.evil.local.toml; do printf '[hooks]\\nenter = \"touch "
			"x\"\\n' > \"$f\" || echo failed $f; done; echo '[hooks]' >> "
			"sub/mise.prod.toml; echo made\n");
		char *diag =
			fmt("%s (%d): %s%s", ctl ? "control" : "inside", r.status, r.out, r.err);
		cr_assert(strstr(r.out, "made") && !strstr(r.out, "failed"),
			  "the plant did not run\n%s", diag);
		static const char *const mine[] = {"mise.prod.toml", ".config/mise.qa.toml"};
		for (size_t k = 0; k < 2; k++) {
			char *file = at(w.proj, mine[k]), *text = read_file(file);
			bool kept = text && strcmp(text, "[env]\nA = 1\n") == 0;
			if (ctl)
				cr_expect(!kept, "control: the write to %s failed\n%s", mine[k],
					  diag);
			else
				cr_expect(kept, "the user's %s was written inside: %s\n%s", mine[k],
					  text ? text : "(missing)", diag);
			free(text), free(file);
		}
		if (!ctl)
			cr_expect(!strstr(r.out, "append 0"), "a write said it landed\n%s", diag);
		expect_aside(w.proj, mise_any_made, sizeof(mise_any_made) / sizeof(*mise_any_made),
			     ctl, r.err, diag);
		cr_expect(present(w.proj, "sub/mise.qa.toml") && !strstr(r.err, "sub/mise.qa"),
			  "the user's own sub/mise.qa.toml was moved or named\n%s", diag);
		free(diag);
		run_free(&r);
		world_free(&w);
	}
}

/* An environment's file no setting named, made at the project's top
 * while the session runs, is moved aside as it appears: `mise -E evil`
 * outside meanwhile (a stand-in that runs each file mise would read)
 * runs nothing planted (before, only the session's end moved it). The
 * user's own mise.dev.toml stays. Control: protected_paths []. */
static const char plant_mise_envs[] =
	"mkdir -p .config mise; for f in mise.evil.toml .mise.evil.local.toml "
	".config/mise.evil.toml mise/config.evil.toml; do n=$(echo \"$f\" | tr / _); echo \"touch $M-$n\" > \"$f\"; "
	"echo made $?; done\n" WAIT_GO;

BOTH_USERS(guards, mise_s_unnamed_environments_are_moved_aside_while_it_runs, .timeout = 60)
{
	for (int ctl = 0; ctl < 2; ctl++) {
		struct world w;
		mise_world(&w, who, "envwatch", ctl, "echo '[env]' > mise.dev.toml");
		char *body = plant(&w, ctl ? "ctl" : "deny", "", plant_mise_envs);
		/* (The watch moves each as it sees it: given up to 3 s, as a
		 * user's mise would come later still; one made in a new
		 * directory was seen after the run, under load, in CI.) */
		char *mise =
			fmt("cd %s && i=0; while [ $i -lt 60 ]; do n=0; for f in mise.evil.toml "
			    ".mise.evil.local.toml .config/mise.evil.toml mise/config.evil.toml; "
			    "do [ -e \"$f\" ] && n=1; done; [ $n = 0 ] && break; sleep 0.05; "
			    "i=$((i+1)); done; for f in mise.evil.toml .mise.evil.local.toml "
			    ".config/mise.evil.toml mise/config.evil.toml; do [ -f \"$f\" ] && "
			    "sh \"$f\"; done; true",
			    w.proj);
		struct run_result r = world_while_outside(&w, w.cfg, body, mise);
		char *diag =
			fmt("%s (%d): %s%s", ctl ? "control" : "inside", r.status, r.out, r.err);
		cr_assert(strstr(r.out, "made 0"), "the plant did not run\n%s", diag);
		static const char *const files[] = {"mise.evil.toml", ".mise.evil.local.toml",
						    ".config/mise.evil.toml",
						    "mise/config.evil.toml"};
		for (size_t k = 0; k < sizeof(files) / sizeof(*files); k++) {
			char *ran =
				fmt("%s/pwned-%s-%s", w.outside, ctl ? "ctl" : "deny", files[k]);
			for (char *c = ran + strlen(w.outside) + 1; *c; c++)
				*c = *c == '/' ? '_' : *c;
			char *aside = fmt("%s.cordon-disarmed", files[k]);
			if (ctl) {
				cr_expect(access(ran, F_OK) == 0, "control: %s did not run\n%s",
					  files[k], diag);
			} else {
				cr_expect(access(ran, F_OK) < 0,
					  "mise outside ran %s, made while the session ran\n%s",
					  files[k], diag);
				cr_expect(present(w.proj, aside), "%s was not moved aside\n%s",
					  files[k], diag);
			}
			free(ran), free(aside);
		}
		cr_expect(present(w.proj, "mise.dev.toml") && !strstr(r.err, "mise.dev"),
			  "the user's own mise.dev.toml was moved or named\n%s", diag);
		free(diag), free(body), free(mise);
		run_free(&r);
		world_free(&w);
	}
}

/* Round 33: three ways an environment's file (mise -E NAME, later,
 * outside) stayed. J1: a mise directory a session left elsewhere, moved
 * to the top by the next (what it holds keeps its change times). J2: at
 * the top of another directory made writable (--allow-write), where
 * mise run there reads it. J4: one a session killed before its end made,
 * which the next launch took for the user's and guarded, so the next end
 * passed it by. Each is moved aside. Control: protected_paths [], each
 * stays. */
BOTH_USERS(guards, mise_s_environments_moved_in_killed_or_elsewhere_are_judged, .timeout = 90)
{
	for (int ctl = 0; ctl < 2; ctl++) {
		struct world w;
		mise_world(&w, who, "mlate", ctl,
			   "mkdir -p ../other .config && echo '[env]' > .config/mise.qa.toml");
		char *other = at(w.dir, "other"), *opts = fmt("--allow-write %s", other);
		struct run_result r =
			sh_in(&w, NULL, "%s",
			      "mkdir d2 d3 && echo '[hooks]' | tee d2/config.evil.toml > "
			      "d3/config.late.toml; echo a $?");
		char *diag = fmt("%s%s", r.out, r.err);
		run_free(&r);
		let_time_pass();
		r = sh_in(
			&w, opts,
			"mv d2 mise; echo b $?; O=%s; echo h > $O/mise.evil.toml && mkdir $O/mise && "
			"echo h > $O/mise/config.evil.toml; echo c $?",
			other);
		char *more = fmt("%s%s%s", diag, r.out, r.err);
		free(diag);
		diag = more;
		run_free(&r);
		/* (And the user's own .config/mise.qa.toml, beside which it
		 * made a file, stays: round 33b K1; and a mise put in place by
		 * the killed session is judged whole, 33c L1.) */
		plant_then_kill(&w, "echo h > mise.killed.toml && touch .config/other && mv mise "
				    "mise.old && mv d3 mise");
		let_time_pass();
		r = sh_in(&w, NULL, "%s", "true");
		more = fmt("%s%s%s", diag, r.out, r.err);
		free(diag);
		diag = more;
		run_free(&r);
		cr_assert(strstr(diag, "a 0") && strstr(diag, "b 0") && strstr(diag, "c 0"),
			  "the plants did not land\n%s", diag);
		static const char *const in_proj[] = {"mise.old/config.evil.toml",
						      "mise.killed.toml", "mise/config.late.toml"},
					 *in_other[] = {"mise.evil.toml", "mise/config.evil.toml"};
		expect_aside(w.proj, in_proj, 3, ctl, NULL, diag);
		expect_aside(other, in_other, 2, ctl, NULL, diag);
		cr_expect(present(w.proj, ".config/mise.qa.toml"),
			  "the user's own .config/mise.qa.toml was moved\n%s", diag);
		free(diag);
		sweep_forget(other);
		free(other), free(opts);
		world_free(&w);
	}
}

/* Round 33c L4: a write rule named through a link (--allow-write
 * /w/Lp, Lp -> the project; /w/Lx beside /w/x itself) was walked as a
 * root of its own beside its real name: a repository the first end moved
 * aside was taken for the session's at the next end and moved again
 * (.git.cordon-disarmed.cordon-disarmed). The user's write rules are
 * resolved: each directory is walked once. Control: the repository the
 * session made is moved aside, once. */
BOTH_USERS(guards, a_root_named_through_a_link_is_walked_once, .timeout = 60)
{
	struct world w;
	git_world(&w, who, "rootln");
	char *lp = at(w.dir, "Lp"), *lx = at(w.dir, "Lx"), *x = at(w.dir, "x");
	cr_assert(mkdir(x, 0755) == 0 && symlink(w.proj, lp) == 0 && symlink(x, lx) == 0);
	world_give(&w);
	char *opts = fmt("--allow-write %s --allow-write %s --allow-write %s", lp, lx, x);
	struct run_result r =
		sh_in(&w, opts,
		      "for d in . %s; do git init -q $d/r && git -C $d/r config core.fsmonitor "
		      "'touch %s/pwned'; done; echo made",
		      x, w.outside);
	char *diag = fmt("%s%s", r.out, r.err);
	run_free(&r);
	cr_assert(strstr(diag, "made"), "the plants did not land\n%s", diag);
	cr_expect(present(w.proj, "r/.git.cordon-disarmed") && present(x, "r/.git.cordon-disarmed"),
		  "control: the repositories made were not moved aside\n%s", diag);
	r = sh_in(&w, opts, "%s", "true");
	cr_expect(!present(w.proj, "r/.git.cordon-disarmed.cordon-disarmed") &&
			  !present(x, "r/.git.cordon-disarmed.cordon-disarmed") &&
			  present(w.proj, "r/.git.cordon-disarmed") &&
			  present(x, "r/.git.cordon-disarmed"),
		  "moved again by the next end: %s%s", r.out, r.err);
	cr_expect_null(strstr(r.err, "made the repository"), "%s", r.err);
	run_free(&r);
	sweep_forget(x);
	free(diag), free(opts), free(lp), free(lx), free(x);
	world_free(&w);
}

/* Round 33b K2: a write rule named with "..", `--allow-write ..` from
 * the project, kept its text (the kernel resolves rule paths in a run):
 * /w/p/.. was taken for a part of the project, so the parent, writable,
 * was never swept; a repository made there with a core.fsmonitor ran at
 * the next git status outside. It is resolved now, and swept as any
 * directory made writable. Control: protected_paths [], it runs. */
BOTH_USERS(guards, a_write_rule_named_with_dots_is_swept, .timeout = 60)
{
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		struct world w;
		git_world(&w, who, ctl ? "dotsctl" : "dots");
		if (ctl)
			set_config(&w, ", \"protected_paths\": []");
		char *up = at(w.dir, "w"), *proj = at(w.dir, "w/p"), *repo = at(w.dir, "w/r");
		struct run_result r = outside(&w, "mkdir -p %s", proj);
		cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
		run_free(&r);
		char *script =
			plant(&w, tags[ctl], "",
			      "git init -q ../r && fsmon >> ../r/.git/config; echo planted $?");
		char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--allow-write", "..", "--",
				"/bin/sh",  "-c",  script,     NULL};
		r = world_run(&w, argv, proj);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		run_free(&r);
		cr_assert(strstr(diag, "planted 0"), "the plant did not land\n%s", diag);
		git_outside(&w, repo, "after");
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "fsmonitor"),
				  "control: git outside ran nothing\n%s", diag);
		else
			cr_expect(!marked(&w, tags[ctl], "fsmonitor") &&
					  present(up, "r/.git.cordon-disarmed"),
				  "git outside ran the plant in the parent, or it was not moved "
				  "aside\n%s",
				  diag);
		free(diag), free(script);
		sweep_forget(up);
		sweep_forget(proj);
		free(up), free(proj), free(repo);
		world_free(&w);
	}
}

/* Round 33 J5 and 33d M2: mise reads its config in .config/mise (and
 * conf.d), .config and mise of every directory up from where it runs; in
 * a writable directory above the project that no walk looks into (a
 * system_paths.read_write rule's that is not sticky), what the session
 * made there stayed. Each is moved aside as it ends. Control:
 * protected_paths [], each stays. */
static const char *const mise_above_made[] = {
	"a/.config/mise/config.toml",   "a/.config/mise/config.evil.toml",
	"a/.config/mise/conf.d/x.toml", "a/.config/miserc.toml",
	"a/.config/mise.toml",          "a/.config/mise.evil.toml",
	"a/mise/config.toml",           "a/mise.evil.toml",
	"a/.config/mise/mise.toml"};

BOTH_USERS(guards, mise_s_config_above_the_project_is_judged, .timeout = 60)
{
	for (int ctl = 0; ctl < 2; ctl++) {
		struct world w;
		/* (The user's own there, untouched, stay: round 33e N1.) */
		char *up, *proj;
		above_world(&w, who, "mabove", ctl,
			    "mkdir -p ../R/a/p ../R/a/.config/mise/conf.d && echo '[env]' | tee "
			    "../R/a/.config/mise/conf.d/mine.toml > "
			    "../R/a/.config/mise/config.staging.toml",
			    &up, &proj);
		char *files = strdup("");
		for (size_t k = 0; k < sizeof(mise_above_made) / sizeof(*mise_above_made); k++) {
			char *more = fmt("%s %s", files, mise_above_made[k] + 2);
			free(files);
			files = more;
		}
		/* (And a link at R's .config, which mise would follow: 33f P4.) */
		char *script =
			fmt("cd .. && mkdir -p .config/mise/conf.d mise && for f in%s; do "
			    "echo '[hooks]' > $f || echo failed $f; done; mkdir ../x && "
			    "echo '[hooks]' > ../x/mise.toml && ln -s x ../.config && echo made",
			    files);
		free(files);
		char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
				"/bin/sh",  "-c",  script,     NULL};
		struct run_result r = world_run(&w, argv, proj);
		char *diag =
			fmt("%s (%d): %s%s", ctl ? "control" : "inside", r.status, r.out, r.err);
		run_free(&r);
		cr_assert(strstr(diag, "made") && !strstr(diag, "failed"),
			  "the plants did not land\n%s", diag);
		expect_aside(up, mise_above_made,
			     sizeof(mise_above_made) / sizeof(*mise_above_made), ctl, NULL, diag);
		cr_expect(present(up, "a/.config/mise/conf.d/mine.toml") &&
				  present(up, "a/.config/mise/config.staging.toml"),
			  "the user's own mise config above the project was moved\n%s", diag);
		static const char *const link[] = {".config"};
		expect_aside(up, link, 1, ctl, NULL, diag);
		free(diag), free(script);
		sweep_forget(proj);
		free(up), free(proj);
		world_free(&w);
	}
}

/* irb reads .config/irb/irbrc in the directory it starts in: made (or
 * reached through a link made) in a directory above the project, it is
 * moved aside as the session ends, and irb run there outside runs nothing
 * planted (round 36 F3: /tmp/.config/irb/irbrc ran). The user's own
 * there, untouched, stays. Control: protected_paths [], irb runs it. */
BOTH_USERS(guards, irb_s_config_above_the_project_is_judged, .timeout = 60)
{
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		struct world w;
		char *up, *proj;
		above_world(&w, who, "irbabove", ctl,
			    "mkdir -p ../R/a/p ../R/b/.config/irb && echo 1 > "
			    "../R/b/.config/irb/irbrc",
			    &up, &proj);
		char *marker = fmt("%s/irb-%s", w.outside, tags[ctl]);
		char *script = fmt("cd .. && mkdir -p .config/irb ../x && echo \"File.write('%s', "
				   "'x')\" | tee .config/irb/irbrc > ../x/irbrc && ln -s ../x "
				   "../b/.config/irb2 && echo made",
				   marker);
		char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--",
				"/bin/sh",  "-c",  script,     NULL};
		struct run_result r = world_run(&w, argv, proj);
		char *diag =
			fmt("%s (%d): %s%s", ctl ? "control" : "inside", r.status, r.out, r.err);
		run_free(&r);
		cr_assert(strstr(diag, "made"), "the plant did not land\n%s", diag);
		static const char *const made[] = {"a/.config/irb/irbrc"};
		expect_aside(up, made, 1, ctl, NULL, diag);
		cr_expect(present(up, "b/.config/irb/irbrc"), "the user's own irbrc was moved\n%s",
			  diag);
		char *irb = fmt("cd %s/a && echo exit | irb >/dev/null 2>&1; true", up);
		r = sh_outside(&w, irb);
		if (ctl)
			cr_expect(file_exists(marker), "control: irb did not run it\n%s", diag);
		else
			cr_expect_not(file_exists(marker), "irb outside ran the plant\n%s", diag);
		run_free(&r);
		free(irb), free(diag), free(script), free(marker);
		sweep_forget(proj);
		free(up), free(proj);
		world_free(&w);
	}
}

/* Round 33f P1: after a killed session that only made a file (or a
 * directory) beside the user's own mise config above the project, the
 * next end took that directory as made whole and moved the user's
 * config.toml and conf.d/u.toml aside. The project's mark holds the
 * directories above as they were: what the killed session made there is
 * moved, a mise it moved into place is judged whole, the user's own
 * files stay. Control: protected_paths [], nothing is moved. */
BOTH_USERS(guards, a_killed_session_s_change_above_leaves_the_user_s_mise_config, .timeout = 90)
{
	for (int ctl = 0; ctl < 2; ctl++) {
		struct world w;
		char *up, *proj;
		above_world(&w, who, "mkabove", ctl,
			    "mkdir -p ../R/a/p ../R/.config/mise ../R/a/.config/mise/conf.d "
			    "../R/stash/mise && echo '[env]' | tee ../R/.config/mise/config.toml "
			    "../R/a/.config/mise/conf.d/u.toml > ../R/stash/mise/config.toml",
			    &up, &proj);
		let_time_pass();
		kill_when_ready(&w, proj,
				"cd .. && echo x > ../.config/mise/notes.txt && mkdir "
				".config/mise/conf.d/sub && echo '[hooks]' > "
				".config/mise/config.dev.toml && mv ../stash/mise mise && touch "
				"p/ready && exec sleep 60");
		struct run_result r = sh_in_dir(&w, proj, "true");
		char *diag =
			fmt("%s (%d): %s%s", ctl ? "control" : "inside", r.status, r.out, r.err);
		run_free(&r);
		cr_expect(present(up, ".config/mise/config.toml") &&
				  present(up, "a/.config/mise/conf.d/u.toml") &&
				  present(up, ".config/mise/notes.txt"),
			  "the user's own mise config above the project was moved\n%s", diag);
		static const char *const made[] = {"a/.config/mise/config.dev.toml",
						   "a/mise/config.toml"};
		expect_aside(up, made, 2, ctl, NULL, diag);
		free(diag);
		sweep_forget(proj);
		free(up), free(proj);
		world_free(&w);
	}
}

/* Round 34 Q4: the mark's directories above the project were a set: a
 * killed session that moved R/a/.config (holding a config.toml an earlier
 * session left there, which no one judges) to R/a/.config/mise, where mise
 * reads it, had its identity taken for that slot's, and the file stayed.
 * Each is kept with its path. Control: protected_paths [], it stays. */
BOTH_USERS(guards, a_directory_moved_to_another_slot_above_is_judged_whole, .timeout = 90)
{
	for (int ctl = 0; ctl < 2; ctl++) {
		struct world w;
		char *up, *proj;
		above_world(&w, who, "mslot", ctl, "mkdir -p ../R/a/p", &up, &proj);
		struct run_result r = sh_in_dir(&w, proj,
						"mkdir -p ../.config && echo '[hooks]' > "
						"../.config/config.toml && echo made");
		char *diag = fmt("%s%s", r.out, r.err);
		run_free(&r);
		cr_assert(strstr(diag, "made") && present(up, "a/.config/config.toml"),
			  "the first session's file did not stay\n%s", diag);
		let_time_pass();
		kill_when_ready(&w, proj,
				"cd .. && mv .config tmpd && mkdir .config && mv tmpd .config/mise "
				"&& touch p/ready && exec sleep 60");
		r = sh_in_dir(&w, proj, "true");
		char *more = fmt("%s%s%s", diag, r.out, r.err);
		free(diag);
		diag = more;
		run_free(&r);
		static const char *const moved[] = {"a/.config/mise/config.toml"};
		expect_aside(up, moved, 1, ctl, NULL, diag);
		free(diag);
		sweep_forget(proj);
		free(up), free(proj);
		world_free(&w);
	}
}

/* Round 30b N5: while an ordinary user's session ran, root made a
 * repository with a core.fsmonitor and a .exrc in directories of its own
 * in the shared directory; the session's end named both as what "this
 * session changed", that "cordon could not move aside". The session
 * could have written neither: they are not said. What it could write in
 * a repository of root's (a config left writable to all, also in a .git
 * it may enter but not list: round 31 F3) still is, and so is root's
 * drop directory (1733), which holds a directory of the user's made
 * before the session (round 31 F4: what the session planted there does
 * not change the drop directory). */
Test(guards, what_another_user_changed_meanwhile_is_not_said, .timeout = 60)
{
	struct who user = {true};
	struct world w;
	char *shared = shared_git_world(&w, &user, "gother");
	char *ready = fmt("%s/ready", shared), *go = fmt("%s/go", shared);
	char *setup = fmt("cd %s && rm -rf rrepo rdir rdrop wrepo r711 && mkdir -p rdrop/mine && "
			  "chown %d:%d rdrop/mine && chmod 1733 rdrop && git init -q wrepo && "
			  "chmod 0666 wrepo/.git/config && git init -q r711 && chmod 0666 "
			  "r711/.git/config && chmod 0711 r711/.git",
			  shared, (int)w.uid, (int)w.gid);
	struct run_result r = run_cmd((char *[]){"/bin/sh", "-c", setup, NULL}, NULL, NULL, 20000);
	free(setup);
	cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
	run_free(&r);
	pid_t root = fork();
	cr_assert(root >= 0);
	if (root == 0) {
		while (access(ready, F_OK) < 0)
			usleep(10000);
		char *cmd = fmt("cd %s && git init -q rrepo && git -C rrepo config core.fsmonitor "
				"'touch %s/pwned-root-fsm; false' && mkdir rdir && echo \"call "
				"writefile([], '%s/pwned-root-exrc')\" > rdir/.exrc && touch %s",
				shared, w.outside, w.outside, go);
		_exit(system(cmd) == 0 ? 0 : 1);
	}
	char *vars = fmt("S=%s", shared);
	char *script = plant(&w, "deny", vars,
			     "fsmon >> \"$S/wrepo/.git/config\"; echo wrepo $?\n"
			     "fsmon >> \"$S/r711/.git/config\"; echo r711 $?\n"
			     "git init -q \"$S/rdrop/mine\" && fsmon >> "
			     "\"$S/rdrop/mine/.git/config\"; echo mine $?\n"
			     "touch \"$S/ready\"; while [ ! -e \"$S/go\" ]; do sleep 0.05; done\n");
	free(vars);
	r = sh_in(&w, NULL, "%s", script);
	int st;
	cr_assert_eq(waitpid(root, &st, 0), root);
	char *diag = fmt("(%d): %s%s", r.status, r.out, r.err);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(r.out, "wrepo 0") &&
			  strstr(r.out, "r711 0") && strstr(r.out, "mine 0"),
		  "root's changes or the plants did not land\n%s", diag);
	cr_expect_not(strstr(r.err, "rrepo") || strstr(r.err, "rdir"),
		      "what root changed was named\n%s", diag);
	cr_expect(strstr(r.err, "wrepo") && strstr(r.err, "r711") &&
			  strstr(r.err, "could not move it aside"),
		  "the plant in root's repository, in a config the session could write, was not "
		  "said\n%s",
		  diag);
	cr_expect(strstr(r.err, "could not look into") && strstr(r.err, "rdrop"),
		  "the drop directory holding the plant was not named\n%s", diag);
	cr_expect(present(shared, "rrepo/.git") && present(shared, "rdir/.exrc"),
		  "root's own were moved\n%s", diag);
	free(diag);
	run_free(&r);
	char *clean = fmt("cd %s && rm -rf rrepo rdir rdrop wrepo r711 ready go", shared);
	r = run_cmd((char *[]){"/bin/sh", "-c", clean, NULL}, NULL, NULL, 20000);
	free(clean);
	run_free(&r);
	free(ready), free(go), free(shared), free(script);
	world_free(&w);
}

/* Round 30 F2: a .exrc in a directory whose path is 4,090 bytes long
 * (vim started there reads it by its name) lay past the longest path the
 * sweep judges, and was left unsaid; round 31 F7: so did one planted, by
 * relative chdirs, at the bottom of a tree of the user's deeper than
 * PATH_MAX, made before the session. What lies past it is looked at by
 * descriptors: where it changed while the session ran, it is said (not
 * moved: cordon moves by path), naming the directory at the top; a
 * session that changed nothing there says nothing. Control:
 * protected_paths [] (no sweep). */
BOTH_USERS(guards, what_lies_past_the_longest_path_is_said, .timeout = 60)
{
	struct world w;
	char *shared = shared_git_world(&w, who, "gdeep");
	char *deep = fmt("%s/deep", shared), *deeper = fmt("%s/deeper", shared);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			free(shared_world(&w, ", \"protected_paths\": []"));
		/* (The user's tree, 18 directories of 250 bytes: 4,500 and more.) */
		struct run_result r =
			outside(&w,
				"rm -rf %s %s && a=$(printf '%%0250d' 0) && mkdir %s && "
				"cd %s && for i in $(seq 18); do mkdir $a && cd -P $a || exit "
				"1; done",
				deep, deeper, deeper, deeper);
		cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
		run_free(&r);
		let_time_pass();
		r = sh_in(&w, NULL, "true");
		cr_expect_not(strstr(r.err, "deeper than the longest path"),
			      "said by a session that changed nothing there\n%s%s", r.out, r.err);
		run_free(&r);
		char *vars = fmt("S=%s", shared);
		char *script = plant(
			&w, tags[ctl], vars,
			"a=$(printf '%0200d' 0); cd \"$S\" && mkdir deep && cd deep || exit 1\n"
			"while [ $((${#PWD} + 202)) -lt 4090 ]; do mkdir $a && cd $a || exit 1; done\n"
			"b=$(printf \"%0$((4090 - ${#PWD} - 1))d\" 0); mkdir $b && cd $b || exit 1\n"
			"echo \"call writefile([], '$M-deep')\" > .exrc; echo deep $? ${#PWD}\n"
			"a=$(printf '%0250d' 0); cd \"$S/deeper\" && for i in $(seq 18); do cd -P $a || "
			"exit 1; done\n"
			"echo \"call writefile([], '$M-deeper')\" > .exrc; echo deeper $?\n");
		free(vars);
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "deep 0 4090") && strstr(r.out, "deeper 0"),
			  "the plants did not land\n%s", diag);
		char *line = fmt("something below %s lies deeper", deep);
		char *line2 = fmt("something below %s lies deeper", deeper);
		bool said = strstr(r.err, line), said2 = strstr(r.err, line2);
		if (ctl)
			cr_expect_not(said || said2, "control: said with no sweep\n%s", diag);
		else
			cr_expect(said && said2,
				  "the .exrc past PATH_MAX was not said (in a tree made: %d; in "
				  "the user's: %d)\n%s",
				  said, said2, diag);
		run_free(&r);
		r = sh_in(&w, NULL, "true");
		cr_expect_not(strstr(r.err, "deeper than the longest path"),
			      "said again by a session that changed nothing there\n%s%s", r.out,
			      r.err);
		run_free(&r);
		free(diag), free(script), free(line), free(line2);
	}
	struct run_result r = outside(&w, "rm -rf %s %s", deep, deeper);
	run_free(&r);
	free(deep), free(deeper), free(shared);
	world_free(&w);
}

/* Once READY exists, the first of A and B the sweep lists (a close of it,
 * or of a directory in it) gets the other's plant, NAME, moved in (as
 * NAME-moved) before the walk reaches the other: the racer of round 30b
 * N1's other form, timed by an inotify watch. Exits 0 once moved. */
static void timed_mover(const char *a, const char *b, const char *ready, const char *const name[2])
{
	while (access(ready, F_OK) < 0)
		usleep(1000);
	int in = inotify_init1(IN_CLOEXEC);
	int wa = inotify_add_watch(in, a, IN_CLOSE_NOWRITE | IN_OPEN);
	int wb = inotify_add_watch(in, b, IN_CLOSE_NOWRITE | IN_OPEN);
	char buf[4096] __attribute__((aligned(__alignof__(struct inotify_event))));
	struct pollfd p = {.fd = in, .events = POLLIN};
	if (in < 0 || wa < 0 || wb < 0)
		_exit(1);
	/* (No walk, in the control: moved all the same, a while after.) */
	bool seen = poll(&p, 1, 5000) == 1 && read(in, buf, sizeof(buf)) > 0;
	const struct inotify_event *ev = (const void *)buf;
	bool first_a = !seen || ev->wd == wa;
	char *from = fmt("%s/%s", first_a ? b : a, name[first_a ? 1 : 0]);
	char *to = fmt("%s/%s-moved", first_a ? a : b, name[first_a ? 1 : 0]);
	_exit(rename(from, to) < 0 ? 2 : seen ? 0 : 3);
}

/* Round 30b N1's other form: while a session's end walked the shared
 * directory, a second session, told by an inotify watch which of two
 * directories the walk had listed first, moved a repository it planted
 * from the other, not yet walked, into it: the walk found nothing
 * missing (the directory it came from was listed after the move), so
 * the plant, in a directory it had listed, was never seen, and its times
 * were older than any later session's start. A directory listed after
 * the walk began that changed since has those the walk listed before
 * looked at again, where they changed too (catch_up): the moved
 * repository is judged. Control: protected_paths []. */
BOTH_USERS(guards, a_repository_moved_into_a_walked_directory_is_judged, .timeout = 90)
{
	struct world w;
	char *shared = shared_git_world(&w, who, "gtimed");
	char *a = fmt("%s/A", shared), *b = fmt("%s/B", shared), *ready = fmt("%s/ready", shared);
	static const char *const names[2] = {"za", "zb"};
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		if (ctl)
			free(shared_world(&w, ", \"protected_paths\": []"));
		unlink(ready);
		struct run_result r = outside(&w, "rm -rf %s %s", a, b);
		run_free(&r);
		pid_t mover = fork();
		cr_assert(mover >= 0);
		if (mover == 0)
			timed_mover(a, b, ready, names);
		char *vars = fmt("S=%s R=%s", shared, ready);
		/* (Many directories in each: the walk is a while in the first
		 * it lists, long enough for the mover.) */
		char *script = plant(
			&w, tags[ctl], vars,
			"for d in A B; do mkdir -p \"$S/$d\" && (cd \"$S/$d\" && mkdir $(seq 300)) || "
			"exit 1; done\n"
			"for z in A/za B/zb; do git init -q \"$S/$z\" && printf '[core]\\n\\tfsmonitor "
			"= \"touch %s; false\"\\n' \"$M-${z#*/}\" >> \"$S/$z/.git/config\"; echo $z $?; "
			"done\n"
			"touch \"$R\"; sleep 0.5\n");
		free(vars);
		r = sh_in(&w, NULL, "%s", script);
		int st;
		cr_assert_eq(waitpid(mover, &st, 0), mover);
		int moved = WIFEXITED(st) ? WEXITSTATUS(st) : -1;
		char *diag =
			fmt("%s (%d, mover %d): %s%s", tags[ctl], r.status, moved, r.out, r.err);
		cr_assert(strstr(r.out, "A/za 0") && strstr(r.out, "B/zb 0"),
			  "the plants did not land\n%s", diag);
		cr_assert(moved == 0 || (ctl && moved == 3),
			  "the mover did not move as the walk went\n%s", diag);
		run_free(&r);
		/* A later session, as any the user starts. */
		r = sh_in(&w, NULL, "true");
		run_free(&r);
		char *judge = fmt("for z in %s/z* %s/z*; do [ -d \"$z\" ] && (cd \"$z\" && git "
				  "status); done >/dev/null 2>&1; true",
				  a, b);
		struct run_result v = sh_outside(&w, judge);
		run_free(&v);
		free(judge);
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "za") && marked(&w, tags[ctl], "zb"),
				  "control: git status outside ran nothing\n%s", diag);
		else
			cr_expect_not(
				marked(&w, tags[ctl], "za") || marked(&w, tags[ctl], "zb"),
				"git status outside ran the fsmonitor of the repository moved "
				"while the walk went (za %d zb %d)\n%s",
				marked(&w, tags[ctl], "za"), marked(&w, tags[ctl], "zb"), diag);
		free(diag), free(script);
	}
	struct run_result r = outside(&w, "rm -rf %s %s", a, b);
	run_free(&r);
	unlink(ready);
	free(a), free(b), free(ready), free(shared);
	world_free(&w);
}

/* Round 31 F2: a session planted a hook in the user's repository in a
 * shared directory; a second session, started later, set a
 * core.fsmonitor there and ended first: its sweep moved the repository
 * aside, naming its own change. The first session's end found it moved
 * aside by another sweep meanwhile and judged it from that move only:
 * the hook, older than the move, was never named, and the user, moving
 * the repository back as told once they had undone the fsmonitor, ran
 * it. What changed since the session started, before another's move, is
 * said: alone, not moved on; with what the session changed after the
 * move (an alias), in the line that moves it on (round 31b G3). Control:
 * the hook lands and runs when the repository is moved back. */
BOTH_USERS(guards, what_a_session_planted_before_another_s_move_is_said, .timeout = 90)
{
	struct world w;
	char *shared = shared_git_world(&w, who, "gbefore");
	char *x = fmt("%s/x", shared), *ready = fmt("%s/ready", shared), *go = fmt("%s/go", shared);
	for (int later = 0; later < 2; later++) {
		unlink(go); /* (root's) */
		struct run_result r =
			outside(&w,
				"cd %s && rm -rf x ready && git init -q x && git -C x commit "
				"-q --allow-empty -m init",
				shared);
		cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
		run_free(&r);
		r = sh_in(&w, NULL, "true"); /* (a record of the directory) */
		run_free(&r);
		let_time_pass();
		pid_t other = fork();
		cr_assert(other >= 0);
		if (other == 0) {
			while (access(ready, F_OK) < 0)
				usleep(10000);
			char *set = fmt("touch %s/pwned-deny-fsm; false", w.outside);
			char *argv[] = {CORDON_BIN, "run", "--config", w.cfg,    "--",
					"git",      "-C",  x,          "config", "core.fsmonitor",
					set,        NULL};
			struct run_result a = world_run(&w, argv, w.proj);
			int fd = open(go, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
			_exit(a.status == 0 && fd >= 0 ? 0 : 1);
		}
		char *vars = fmt("S=%s", shared);
		char *script = plant(
			&w, "deny", vars,
			"hook post-checkout > \"$S/x/.git/hooks/post-checkout\" && chmod +x "
			"\"$S/x/.git/hooks/post-checkout\"; echo hook $?\n"
			"touch \"$S/ready\"; while [ ! -e \"$S/go\" ]; do sleep 0.05; done\n");
		char *after_move =
			later ? fmt("%s\ngit config -f \"$S/x/.git.cordon-disarmed/config\" alias.st "
				    "'!touch %s/pwned-deny-alias'; echo alias $?\n",
				    script, w.outside)
			      : strdup(script);
		free(vars);
		r = sh_in(&w, NULL, "%s", after_move);
		int st;
		cr_assert_eq(waitpid(other, &st, 0), other);
		char *diag = fmt("later %d (%d): %s%s", later, r.status, r.out, r.err);
		cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0 && strstr(r.out, "hook 0") &&
				  (!later || strstr(r.out, "alias 0")),
			  "the plants did not land, or the other session's end moved nothing\n%s",
			  diag);
		cr_expect(strstr(r.err, "post-checkout") && strstr(r.err, x),
			  "the hook planted before the other session's move was not said\n%s",
			  diag);
		const char *at =
			later ? ".git.cordon-disarmed.cordon-disarmed" : ".git.cordon-disarmed";
		cr_expect(present(x, at) && entries_in(x) == 1, "not where it should be (%s)\n%s",
			  at, diag);
		/* Control: moved back as the other's line tells (its fsmonitor
		 * and the alias undone), the hook runs. */
		char *back = fmt(
			"cd %s && git config -f %s/config --unset core.fsmonitor; git "
			"config -f %s/config --unset alias.st; mv %s .git && mv "
			".git/HEAD.cordon-disarmed .git/HEAD && git checkout -q -b t2 2>&1; true",
			x, at, at, at);
		struct run_result v = sh_outside(&w, back);
		run_free(&v);
		free(back);
		cr_expect(marked(&w, "deny", "post-checkout"),
			  "control: the hook moved back did not run at git checkout\n%s", diag);
		char *m = marker(&w, "deny", "post-checkout");
		unlink(m);
		free(m);
		free(diag);
		run_free(&r);
		free(script), free(after_move);
	}
	struct run_result r = outside(&w, "rm -rf %s %s", x, ready);
	run_free(&r);
	unlink(go); /* (root's) */
	free(x), free(ready), free(go), free(shared);
	world_free(&w);
}

/* Round 31b G1: all the links of a walk shared one reading budget (round
 * 31 F6's first answer to a session making its own end slow); 64 links
 * the session laid to a directory of 16,384 files spent it unsaid, and the
 * user's own older link, app/lib -> node_modules/pkg, was then judged
 * with nothing left: the .exrc planted in node_modules/pkg/sub (where
 * nothing is judged) ran at vim in app/lib/sub outside. Each directory a
 * link leads to is looked through once now, at the budget of one link.
 * Control: protected_paths []. */
BOTH_USERS(guards, decoy_links_do_not_hide_the_user_s_link, .timeout = 120)
{
	struct world w;
	exrc_world(&w, who, "gdecoy");
	char *sub = fmt("%s/app/lib/sub", w.proj);
	const char *tags[] = {"deny", "ctl"};
	for (int ctl = 0; ctl < 2; ctl++) {
		set_config(&w, ctl ? ", \"protected_paths\": []" : "");
		struct run_result r = outside(
			&w,
			"cd %s && rm -rf node_modules app assets k* a b d && mkdir -p node_modules/pkg/sub "
			"app && echo x > node_modules/pkg/index.js && ln -s ../node_modules/pkg "
			"app/lib",
			w.proj);
		cr_assert_eq(r.status, 0, "setup: %s%s", r.out, r.err);
		run_free(&r);
		r = sh_in(&w, NULL, "true"); /* (a record: the link is the user's) */
		run_free(&r);
		let_time_pass();
		char *script = plant(
			&w, tags[ctl], "",
			"mkdir assets && (cd assets && seq 1 16384 | xargs touch) && for i in "
			"$(seq 64); do ln -s assets k$i || exit 1; done; echo decoys $?\n"
			"echo \"call writefile([], '$M-decoy')\" > node_modules/pkg/sub/.exrc; "
			"echo exrc $?\n"
			/* (Round 31c H1: a .config link to the directory a mise
			 * link leads to, judged first, answered for both.) */
			"mkdir d a b && (cd d && seq 300 | xargs touch) && echo '[env]' > "
			"d/config.toml && ln -s ../d a/.config && ln -s ../d b/mise; echo pair $?\n");
		r = sh_in(&w, NULL, "%s", script);
		char *diag = fmt("%s (%d): %s%s", tags[ctl], r.status, r.out, r.err);
		cr_assert(strstr(r.out, "decoys 0") && strstr(r.out, "exrc 0") &&
				  strstr(r.out, "pair 0"),
			  "the plants did not land\n%s", diag);
		if (!ctl)
			cr_expect(present(w.proj, "b/mise.cordon-disarmed") &&
					  present(w.proj, "a/.config"),
				  "the mise link was not moved aside, or the .config one was\n%s",
				  diag);
		vim_in(&w, sub);
		if (ctl)
			cr_expect(marked(&w, tags[ctl], "decoy"), "control: vim ran nothing\n%s",
				  diag);
		else
			cr_expect(!marked(&w, tags[ctl], "decoy") &&
					  present(w.proj, "app/lib.cordon-disarmed"),
				  "vim outside ran the .exrc behind the user's link, or the link "
				  "was not moved aside\n%s",
				  diag);
		cr_expect_not(strstr(r.err, "/k1,") || strstr(r.err, "/k1 ") ||
				      present(w.proj, "k1.cordon-disarmed"),
			      "a link to a directory holding nothing obeyed was moved\n%s", diag);
		run_free(&r);
		free(diag), free(script);
	}
	free(sub);
	world_free(&w);
}
