/* cordon inside its own sessions: an installed cordon runs there (a tmux
 * started in a session opens every pane with `cordon run`; an agent wraps
 * its commands). The inner session stacks its rules on the outer one's,
 * whose supervisor keeps judging; judged from outside, with controls, as
 * root and as the test user. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "escape/both.h"
#include "helpers.h"

#define NESTED_SAID "cordon: inside another cordon session"

/* The installed layout (DIR/inst/bin/cordon, DIR/inst/lib/libcordon.so):
 * world_as_user made it; for root, made here. Returns DIR/inst/bin/cordon. */
static char *installed(struct world *w)
{
	char *inst = path_join(w->dir, "inst");
	char *bin = path_join(inst, "bin/cordon");
	if (!w->as_user) {
		char *ibin = path_join(inst, "bin"), *ilib = path_join(inst, "lib");
		char *lib = path_join(ilib, "libcordon.so");
		cr_assert(mkdir(inst, 0755) == 0 && mkdir(ibin, 0755) == 0 &&
			  mkdir(ilib, 0755) == 0);
		copy_exec(CORDON_BIN, bin);
		copy_exec(CORDON_SHIM_SO, lib);
		free(ibin);
		free(ilib);
		free(lib);
	}
	free(inst);
	return bin;
}

static char *allow_inst(struct world *w)
{
	char *opt;
	cr_assert(asprintf(&opt, "--allow-exec %s/inst", w->dir) > 0);
	return opt;
}

/* The inner session runs, writes in the project, and the outer walls stay:
 * the secret outside is not read. Control: it is readable outside. */
BOTH_USERS(nested, inner_session_runs_within_the_outer_walls, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nestrun", "");
	char *cordon = installed(&w);
	char *opt = allow_inst(&w);
	/* Both sessions with a shared directory to sweep as they end
	 * (/var/tmp), whose record the outer session keeps from the inner. */
	free(write_file(w.proj, "cordon.json", "{" WORLD_BASE_RW_WITH(", \"/var/tmp\"") "}"));
	struct run_result r =
		sh_in(&w, opt,
		      "%s run --config %s -- /bin/sh -c 'echo inner-wrote > inner.txt; "
		      "cat %s; sleep 1.2'",
		      cordon, w.cfg, w.secret);
	char *inner = path_join(w.proj, "inner.txt");
	cr_expect(contains(inner, "inner-wrote"), "the inner session did not run: %s", r.err);
	cr_expect_null(strstr(r.out, SECRET), "the inner session read the secret");
	cr_expect(strstr(r.err, NESTED_SAID) != NULL, "not said: %s", r.err);
	/* Listed or not (the registry is the outer session's), it says
	 * nothing more once the command has run a while; nor, as it ends,
	 * that the outer session's records of the shared directories are
	 * out of its reach (they are, by design). */
	cr_expect_null(strstr(r.err, "not listed"), "%s", r.err);
	cr_expect_null(strstr(r.err, "could not be read"), "%s", r.err);
	run_free(&r);
	char script[512];
	snprintf(script, sizeof(script), "cat %s", w.secret);
	r = sh_outside(&w, script);
	cr_expect(strstr(r.out, SECRET) != NULL, "control: the secret must be readable outside");
	run_free(&r);
	/* Outside any session, nothing is said about nesting. */
	char *plain[] = {"/bin/true", NULL};
	r = run_in(&w, NULL, plain);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.err, NESTED_SAID), "said outside: %s", r.err);
	run_free(&r);
	free(inner);
	free(opt);
	free(cordon);
	world_free(&w);
}

/* The inner session's own rules hold on top: --no-network blocks a connect
 * the outer session lets through, and a project below the outer one keeps
 * the inner session from writing beside it. Controls: the outer session
 * alone does both. */
BOTH_USERS(nested, inner_rules_stack_on_the_outer, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "neststack", "");
	char *cordon = installed(&w);
	char *opt = allow_inst(&w);
	char *sub = path_join(w.proj, "sub"), *side = path_join(w.proj, "side");
	cr_assert(mkdir(sub, 0755) == 0 && mkdir(side, 0755) == 0);
	world_give(&w);
	struct listener l = listen_on(AF_INET, true);

	struct run_result r = sh_in(
		&w, opt, "cordon-probe tcp 127.0.0.1 %d outer-conn; echo o > outer.txt", l.port);
	char *got = received(&l, 2000);
	cr_expect(strstr(got, "outer-conn") != NULL, "control: the outer session connects: %s",
		  r.err);
	char *outer = path_join(w.proj, "outer.txt");
	cr_expect(file_exists(outer), "control: the outer session writes the project: %s", r.err);
	free(got);
	run_free(&r);

	/* (And a rule of the inner one's: opened following no link, where
	 * openat2 is refused, round 34b R4.) */
	r = sh_in(&w, opt,
		  "%s run --config %s --project %s --no-network --allow-write %s -- /bin/sh -c "
		  "'cordon-probe tcp 127.0.0.1 %d inner-conn; echo i > %s/inner-beside.txt; "
		  "echo i > %s/inner-in.txt; echo i > %s/inner-side.txt'",
		  cordon, w.cfg, sub, side, l.port, w.proj, sub, side);
	got = received(&l, 500);
	cr_expect_null(strstr(got, "inner-conn"), "the inner --no-network session connected");
	char *beside = path_join(w.proj, "inner-beside.txt");
	char *in = path_join(sub, "inner-in.txt");
	cr_expect(!file_exists(beside), "the inner session wrote outside its project");
	cr_expect(file_exists(in), "the inner session did not run: %s", r.err);
	char *in_side = path_join(side, "inner-side.txt");
	cr_expect(file_exists(in_side), "the inner --allow-write did not hold: %s", r.err);
	free(in_side);
	free(got);
	run_free(&r);
	close(l.fd);
	free(beside);
	free(in);
	free(outer);
	free(sub);
	free(side);
	free(opt);
	free(cordon);
	world_free(&w);
}

/* check and explain answer inside a session. */
BOTH_USERS(nested, check_and_explain_work_inside, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nestcheck", "");
	char *cordon = installed(&w);
	char *opt = allow_inst(&w);
	struct run_result r = sh_in(&w, opt, "%s check --config %s", cordon, w.cfg);
	cr_expect(strstr(r.out, "landlock:") != NULL && r.status != 125, "%d %s%s", r.status, r.out,
		  r.err);
	cr_expect(strstr(r.out, "nested:    this shell is inside a cordon session") != NULL, "%s",
		  r.out);
	run_free(&r);
	/* Control: outside, check says nothing of it. */
	char *check[] = {CORDON_BIN, "check", "--config", w.cfg, NULL};
	r = world_run(&w, check, w.proj);
	cr_expect(strstr(r.out, "landlock:") != NULL, "%s", r.out);
	cr_expect_null(strstr(r.out, "nested:"), "%s", r.out);
	run_free(&r);
	r = sh_in(&w, opt, "%s explain --config %s %s", cordon, w.cfg, w.proj);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.out, w.proj) != NULL, "%s", r.out);
	run_free(&r);
	free(opt);
	free(cordon);
	world_free(&w);
}

/* By domain inside a session: refused (125), never run with the outer
 * session's supervisor performing any connect its policy allows. Control:
 * the outer session connects. */
BOTH_USERS(nested, inner_by_domain_is_refused, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nestdom", "");
	char *cordon = installed(&w);
	char *opt = allow_inst(&w);
	struct listener l = listen_on(AF_INET, true);
	struct run_result r =
		sh_in(&w, opt,
		      "%s run --config %s --allow-domain good.test -- cordon-probe tcp "
		      "127.0.0.1 %d inner-dom; echo rc=$?",
		      cordon, w.cfg, l.port);
	char *got = received(&l, 500);
	cr_expect_null(strstr(got, "inner-dom"), "the inner by-domain session connected");
	cr_expect(strstr(r.out, "rc=125") != NULL, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "allowed_domains cannot be kept inside another cordon session") !=
			  NULL,
		  "%s", r.err);
	free(got);
	run_free(&r);
	r = sh_in(&w, opt, "cordon-probe tcp 127.0.0.1 %d outer-dom", l.port);
	got = received(&l, 2000);
	cr_expect(strstr(got, "outer-dom") != NULL, "control: the outer session connects: %s",
		  r.err);
	free(got);
	run_free(&r);
	close(l.fd);
	free(opt);
	free(cordon);
	world_free(&w);
}

/* The inner session's own guards apply or it refuses: no mount can be made
 * inside another session, so a protected path the outer session does not
 * keep (the .git of a repository below its project) refuses the inner
 * session (125, naming it) unless on_unsupported is "warn", which runs it
 * and says so; a hidden path beneath the inner session's read rules stays
 * hidden by its Landlock rules alone. Controls: the outer session alone
 * writes that .git and reads that file. */
BOTH_USERS(nested, inner_guards_apply_or_refuse, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nestguard", ", \"additional_read_only_paths\": [\"~\"]");
	char *cordon = installed(&w);
	char *opt = allow_inst(&w);
	free(write_file(w.home, "notes.txt", "notes-" SECRET));
	char *strict = write_file(w.home, "inner.json",
				  "{\"additional_read_only_paths\": [\"~\"], "
				  "\"hidden_paths\": [\"~/notes.txt\"]}");
	char *warn = write_file(w.home, "warn.json", "{\"on_unsupported\": \"warn\"}");
	world_give(&w);
	struct run_result r = sh_outside(&w, "git init -q sub");
	run_free(&r);
	char *hook = path_join(w.proj, "sub/.git/hooks/pre-commit");

	r = sh_in(&w, opt, "echo x > sub/.git/hooks/outer.sample && cat ~/notes.txt");
	char *outer = path_join(w.proj, "sub/.git/hooks/outer.sample");
	cr_expect(file_exists(outer), "control: the outer session writes sub/.git: %s", r.err);
	cr_expect(strstr(r.out, SECRET) != NULL, "control: the outer session reads it: %s", r.err);
	run_free(&r);

	r = sh_in(&w, opt,
		  "%s run --config %s --project sub -- /bin/sh -c 'echo planted > "
		  ".git/hooks/pre-commit'; echo rc=$?",
		  cordon, strict);
	cr_expect(strstr(r.out, "rc=125") != NULL, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "sub/.git") && strstr(r.err, "inside another cordon session"),
		  "not said: %s", r.err);
	/* (the outer session's sweep may have moved sub/.git aside since) */
	char *aside = path_join(w.proj, "sub/.git.cordon-disarmed/hooks/pre-commit");
	cr_expect_not(file_exists(hook) || file_exists(aside), "the inner session planted a hook");
	free(aside);
	run_free(&r);

	r = sh_in(&w, opt, "%s run --config %s --project sub -- /bin/sh -c 'echo ran'", cordon,
		  warn);
	cr_expect(strstr(r.out, "ran") != NULL, "warn did not run it: %s", r.err);
	cr_expect(strstr(r.err, "not fully enforced") != NULL, "not said: %s", r.err);
	run_free(&r);

	/* Where the inner session's guards are only hidden paths beneath read
	 * rules, it runs, and they hold. */
	r = sh_in(&w, opt, "rm -rf sub/.git; %s run --config %s -- /bin/sh -c 'cat ~/notes.txt'",
		  cordon, strict);
	cr_expect_null(strstr(r.out, SECRET), "the inner session read its hidden path: %s", r.out);
	cr_expect_null(strstr(r.err, "inside another cordon session, whose guards"), "refused: %s",
		       r.err);
	run_free(&r);
	free(outer);
	free(hook);
	free(strict);
	free(warn);
	free(opt);
	free(cordon);
	world_free(&w);
}

/* An inner interactive shell the sandbox refuses (a tmux pane's `cordon
 * run` in a session) keeps its reason on the screen until Enter, as a
 * broken config does (46b F2: the pane closed at once). Then 125. */
Test(nested, a_refused_inner_shell_waits_for_enter, .timeout = 60)
{
	struct world w;
	world_init(&w, "nesthold", "");
	char *cordon = installed(&w);
	char *inst = path_join(w.dir, "inst");
	struct run_result r = sh_outside(&w, "git init -q sub");
	run_free(&r);
	char *argv[] = {CORDON_BIN, "run",  "--config", w.cfg,       "--allow-exec", inst,
			"--",       cordon, "run",      "--project", "sub",          NULL};
	int master;
	char *name;
	pid_t pid = world_pty_spawn(&w, argv, &master, &name);
	char out[16384] = "";
	cr_expect(pty_read_until(master, "press Enter", 20000, out, sizeof(out), false), "%s", out);
	cr_expect(strstr(out, "inside another cordon session"), "the reason was not said: %s", out);
	bool held = false;
	int st = pty_held_until_enter(pid, master, out, sizeof(out), &held);
	cr_expect(held, "closed before Enter: %s", out);
	cr_expect(WIFEXITED(st) && WEXITSTATUS(st) == 125, "status %d: %s", st, out);
	close(master);
	free(name);
	free(inst);
	free(cordon);
	world_free(&w);
}

/* list, ps and kill inside a session, where the registry is out of reach,
 * say so in one line (46b F6: a bare "Permission denied", and "no such
 * session" of the live one). Control: outside, list runs. */
BOTH_USERS(nested, session_commands_inside_say_why_not, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nestlist", "");
	char *cordon = installed(&w);
	char *opt = allow_inst(&w);
	struct run_result r =
		sh_in(&w, opt,
		      "%1$s list; echo rc=$?; %1$s ps \"$CORDON_SESSION\"; echo rc=$?; "
		      "%1$s kill \"$CORDON_SESSION\"; echo rc=$?; echo alive",
		      cordon);
	cr_expect(strstr(r.out, "rc=125\nrc=125\nrc=125\nalive"), "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "cordon: list runs outside sessions only") &&
			  strstr(r.err, "cordon: ps runs outside sessions only") &&
			  strstr(r.err, "cordon: kill runs outside sessions only"),
		  "not said: %s", r.err);
	run_free(&r);
	char *list[] = {cordon, "list", NULL};
	r = world_run(&w, list, w.proj);
	cr_expect(r.status == 0 && strstr(r.out, "SESSION"), "control: outside: %s", r.err);
	run_free(&r);
	free(opt);
	free(cordon);
	world_free(&w);
}

/* Hidden paths in the inner session's writable project, which the outer
 * session's guards do not cover: explain refuses as run does (125, naming
 * each), and with on_unsupported "warn" says that a run starts without
 * them and does not call them hidden; the warning of the run names both
 * (round 8: explain said "hidden", run read it, and only the first was
 * named). Judged by what the inner run read. */
BOTH_USERS(nested, explain_inside_refuses_what_run_refuses, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nestexpl", "");
	char *cordon = installed(&w);
	char *opt = allow_inst(&w);
	free(write_file(w.proj, "token.txt", "tok-" SECRET));
	free(write_file(w.proj, "other.txt", "other"));
	char *strict = write_file(w.proj, "strict.json",
				  "{\"hidden_paths\": [\"token.txt\", \"other.txt\"]}");
	char *warn = write_file(w.proj, "warn.json",
				"{\"hidden_paths\": [\"token.txt\", \"other.txt\"], "
				"\"on_unsupported\": \"warn\"}");
	world_give(&w);
	struct run_result r =
		sh_in(&w, opt, "%s explain --config %s token.txt; echo rc=$?", cordon, strict);
	cr_expect(strstr(r.out, "rc=125"), "explain did not refuse: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "token.txt (hidden_paths)") && strstr(r.err, "other.txt"),
		  "not both named: %s", r.err);
	run_free(&r);
	r = sh_in(&w, opt, "%s run --config %s -- cat token.txt; echo rc=$?", cordon, strict);
	cr_expect(strstr(r.out, "rc=125") && !strstr(r.out, SECRET), "run: %s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, opt, "%s explain --config %s token.txt; echo rc=$?", cordon, warn);
	cr_expect(strstr(r.out, "rc=0"), "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "a run here starts without them"), "no warning: %s", r.out);
	cr_expect_null(strstr(r.out, "hidden by hidden_paths"), "still said hidden: %s", r.out);
	run_free(&r);
	r = sh_in(&w, opt, "%s run --config %s -- cat token.txt", cordon, warn);
	cr_expect(strstr(r.out, SECRET), "control: the warned run reads it: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "token.txt") && strstr(r.err, "other.txt"),
		  "the warning does not name both: %s", r.err);
	run_free(&r);
	free(strict);
	free(warn);
	free(opt);
	free(cordon);
	world_free(&w);
}

/* explain inside a session says so, and tells what a run there gets: with
 * the outer session offline, the network blocked (a run's connect is
 * refused: judged by a loopback listener), and by domain refused with 125
 * as a run is. Control: under an outer session with the network, the inner
 * explain does not say blocked and the inner run connects; outside any
 * session, explain says nothing of nesting. */
BOTH_USERS(nested, explain_inside_tells_what_holds, .timeout = 90)
{
	struct world w;
	world_for(&w, who, "nestexpl", "");
	char *cordon = installed(&w);
	char *opt = allow_inst(&w);
	char *offline = fmt("%s --no-network", opt);
	struct listener l = listen_on(AF_INET, true);

	struct run_result r =
		sh_in(&w, offline,
		      "%s explain --config %s; %s run --config %s -- cordon-probe tcp "
		      "127.0.0.1 %d inner-off",
		      cordon, w.cfg, cordon, w.cfg, l.port);
	char *got = received(&l, 500);
	cr_expect_null(strstr(got, "inner-off"), "the inner session connected");
	cr_expect(strstr(r.out, "nested:         inside another cordon session: the outer "
				"session's rules also apply") != NULL,
		  "%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "network:        blocked (by the outer session") != NULL, "%s",
		  r.out);
	free(got);
	run_free(&r);

	r = sh_in(&w, offline, "%s explain --config %s --allow-domain good.test; echo rc=$?",
		  cordon, w.cfg);
	cr_expect(strstr(r.out, "rc=125") != NULL, "%s%s", r.out, r.err);
	cr_expect(strstr(r.err, "allowed_domains cannot be kept inside another cordon session") !=
			  NULL,
		  "%s", r.err);
	run_free(&r);

	/* Control: the outer session with the network. */
	r = sh_in(&w, opt,
		  "%s explain --config %s; %s run --config %s -- cordon-probe tcp 127.0.0.1 %d "
		  "inner-on",
		  cordon, w.cfg, cordon, w.cfg, l.port);
	got = received(&l, 2000);
	cr_expect(strstr(got, "inner-on") != NULL, "control: the inner session connects: %s",
		  r.err);
	cr_expect(strstr(r.out, "nested:") != NULL, "%s", r.out);
	cr_expect_null(strstr(r.out, "network:        blocked"), "%s", r.out);
	free(got);
	run_free(&r);
	char *plain[] = {CORDON_BIN, "explain", "--config", w.cfg, NULL};
	r = world_run(&w, plain, w.proj);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.out, "nested:"), "said outside: %s", r.out);
	cr_expect(strstr(r.out, "network:        allowed\n") != NULL, "%s", r.out);
	run_free(&r);
	close(l.fd);
	free(offline);
	free(opt);
	free(cordon);
	world_free(&w);
}

/* The inner session's check of what the outer session keeps is not fooled
 * by a file whose own mode refuses writes (0555: its owner can chmod it
 * back) nor by any mount at a hidden path (only the outer session's empty
 * cover counts). A file protected by the inner config alone, 0555, refuses
 * the inner session, and stays as it was. Control: the outer session alone
 * makes it writable and writes it. */
BOTH_USERS(nested, inner_check_is_not_fooled_by_a_mode, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nestmode", ", \"additional_read_only_paths\": [\"~\"]");
	char *cordon = installed(&w);
	char *opt = allow_inst(&w);
	char *deploy = write_file(w.proj, "deploy.sh", "echo deploying\n");
	char *inner = write_file(w.home, "inner.json", "{\"protected_paths\": [\"deploy.sh\"]}");
	world_give(&w);
	cr_assert_eq(chmod(deploy, 0555), 0);
	struct run_result r = sh_in(&w, opt,
				    "%s run --config %s -- /bin/sh -c 'chmod u+w deploy.sh; echo "
				    "planted >> deploy.sh'; echo rc=$?",
				    cordon, inner);
	char *now = read_file(deploy);
	cr_expect(strstr(r.out, "rc=125") != NULL, "%s%s", r.out, r.err);
	cr_expect_str_eq(now, "echo deploying\n", "the inner session wrote it: %s", r.err);
	free(now);
	run_free(&r);
	r = sh_in(&w, opt, "%s", "chmod u+w deploy.sh && echo outer >> deploy.sh");
	now = read_file(deploy);
	cr_expect(now && strstr(now, "outer"), "control: the outer session did not write: %s",
		  r.err);
	free(now);
	run_free(&r);
	free(deploy);
	free(inner);
	free(opt);
	free(cordon);
	world_free(&w);
}

/* Round 59g F4: a session was told by its filter's refusal of a seccomp
 * listener alone. cordon started under a filter of the caller's own that
 * refuses listeners (a container's, a service manager's) took itself for
 * a session inside another: with on_unsupported "warn" it started no
 * supervisor, and the command's connect to an outside unix socket went
 * through, with a warning about an outer session that did not exist.
 * Now only cordon's own mark makes a session nested; there, cordon says
 * the caller's filter refuses what its supervisor needs, exits 125, and
 * the listener gets nothing. Control: the same connect, under the same
 * filter without cordon, delivers. */
BOTH_USERS(nested, a_caller_s_own_seccomp_filter_is_no_session, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "nestfake", "");
	char *warn =
		write_file(w.dir, "warn.json", "{\"on_unsupported\": \"warn\", " WORLD_BASE_RW "}");
	char *sock = path_join(w.outside, "daemon.sock");
	char *marker = path_join(w.proj, "ran");
	char *script = fmt("touch %s; cordon-probe unix %s in-session", marker, sock);
	const char *cfgs[] = {w.cfg, warn};
	for (int i = 0; i < 2; i++) {
		struct listener l = listen_unix(&w, sock, true);
		char *argv[] = {CORDON_PROBE, "no-listener",   CORDON_BIN, "run",
				"--config",   (char *)cfgs[i], "--",       "/bin/sh",
				"-c",         script,          NULL};
		struct run_result r = world_run(&w, argv, w.proj);
		char *got = received(&l, 300);
		cr_expect_null(strstr(got, "in-session"),
			       "%s: an outside socket reached (exit %d): %s", cfgs[i], r.status,
			       r.err);
		cr_expect_null(strstr(r.err, NESTED_SAID), "taken for a session inside: %s", r.err);
		cr_expect_eq(r.status, 125, "%s: %s", cfgs[i], r.err);
		cr_expect(strstr(r.err, "refuses the listener"), "%s", r.err);
		cr_expect_not(file_exists(marker), "the command ran");
		unlink(marker);
		free(got);
		close(l.fd);
		run_free(&r);
	}
	/* check says so, and that no session starts. */
	char *check[] = {CORDON_PROBE, "no-listener", CORDON_BIN, "check", NULL};
	struct run_result k = world_run(&w, check, w.proj);
	cr_expect(strstr(k.out, "refuses the listener") && strstr(k.out, "no session starts here"),
		  "check: %s%s", k.out, k.err);
	run_free(&k);
	struct listener l = listen_unix(&w, sock, true);
	char *plain[] = {CORDON_PROBE, "no-listener", CORDON_PROBE, "unix", sock, "outside", NULL};
	struct run_result r = world_run(&w, plain, w.proj);
	char *got = received(&l, 2000);
	cr_expect(strstr(got, "outside"), "control: nothing delivered: %s", r.err);
	free(got);
	close(l.fd);
	run_free(&r);
	unlink(sock);
	free(script), free(marker), free(sock), free(warn);
	world_free(&w);
}
