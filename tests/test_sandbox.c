/* Enforcement end to end: real cordon runs on the real kernel, each in a
 * temporary world, judged from outside — file contents, whether a file
 * exists, whether a process is alive — never by the exit code of the command
 * that was meant to fail.
 *
 * The world: DIR/proj (the project and cwd), DIR/outside (a secret and a
 * victim tree), DIR/home ($HOME). The config narrows system_paths.read_write
 * so that /tmp, where DIR lives, is not granted: "outside" is outside. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon/sandbox.h"
#include "helpers.h"
#include "linux/landlock-compat.h"
#include "linux/linux.h"

#define BASE_RW WORLD_BASE_RW

Test(sandbox, rm_rf_outside_is_blocked)
{
	struct world w;
	world_init(&w, "rmrf", "");
	struct run_result r = sh_in(&w, NULL, "rm -rf '%s'", w.outside);
	char *keep = path_join(w.outside, "victim/keep");
	cr_expect(file_exists(w.secret) && file_exists(keep), "rm -rf reached outside: %s", r.err);
	/* Landlock's EACCES, or (root, the read-only view) the kernel's EROFS,
	 * which it checks first. */
	cr_expect(strstr(r.err, "Permission denied") || strstr(r.err, "Read-only file system"),
		  "a denial is a permission error: %s", r.err);
	run_free(&r);
	free(keep);
	world_free(&w);
}

Test(sandbox, rm_rf_outside_allowed_when_disabled)
{
	struct world w;
	world_init(&w, "rmrfoff", ", \"enabled\": false");
	struct run_result r = sh_in(&w, NULL, "rm -rf '%s'", w.outside);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_not(file_exists(w.outside), "enabled: false must not restrict");
	run_free(&r);
	world_free(&w);
}

Test(sandbox, project_is_writable)
{
	struct world w;
	world_init(&w, "projw", "");
	struct run_result r = sh_in(
		&w, NULL,
		"mkdir -p sub/dir && echo data > sub/dir/f && mv sub/dir/f sub/g && ln -s g sub/l && rm -r sub/dir");
	cr_expect_eq(r.status, 0, "%s", r.err);
	char *g = path_join(w.proj, "sub/g");
	cr_expect(contains(g, "data"));
	run_free(&r);
	free(g);
	world_free(&w);
}

Test(sandbox, reading_outside_is_blocked)
{
	struct world w;
	world_init(&w, "readout", "");
	char *copy = path_join(w.proj, "copy");
	struct run_result r =
		sh_in(&w, NULL, "cat '%s' > copy; cordon-probe read '%s' >> copy; ls '%s' >> copy",
		      w.secret, w.secret, w.outside);
	cr_expect_not(contains(copy, SECRET), "the secret was read");
	cr_expect_not(contains(copy, "victim"), "the outside directory was listed");
	run_free(&r);
	free(copy);
	world_free(&w);
}

Test(sandbox, additional_read_write_grants_write)
{
	struct world w;
	world_init(&w, "addrw", "");
	char *json;
	asprintf(&json, "{" BASE_RW ", \"additional_read_write_paths\": [\"%s\"]}", w.outside);
	free(w.cfg);
	w.cfg = write_file(w.proj, "cordon.json", json);
	struct run_result r =
		sh_in(&w, NULL, "echo new > '%s/created' && rm '%s'", w.outside, w.secret);
	char *created = path_join(w.outside, "created");
	cr_expect(contains(created, "new"), "%s", r.err);
	cr_expect_not(file_exists(w.secret));
	run_free(&r);
	free(created);
	free(json);
	world_free(&w);
}

Test(sandbox, additional_read_only_reads_but_does_not_write)
{
	struct world w;
	world_init(&w, "addro", "");
	char *json;
	asprintf(&json, "{" BASE_RW ", \"additional_read_only_paths\": [\"%s\"]}", w.outside);
	free(w.cfg);
	w.cfg = write_file(w.proj, "cordon.json", json);
	char *copy = path_join(w.proj, "copy");
	char *created = path_join(w.outside, "created");
	struct run_result r = sh_in(
		&w, NULL, "cat '%s' > copy; echo x > '%s'; echo y >> '%s'; : > '%s'; rm -f '%s'",
		w.secret, created, w.secret, w.secret, w.secret);
	cr_expect(contains(copy, SECRET), "read-only must be readable: %s", r.err);
	cr_expect_not(file_exists(created), "created a file in a read-only path");
	cr_expect(contains(w.secret, SECRET), "appended to, truncated or removed a read-only file");
	char *s = read_file(w.secret);
	cr_expect_str_eq(s, SECRET);
	run_free(&r);
	free(s);
	free(copy);
	free(created);
	free(json);
	world_free(&w);
}

Test(sandbox, command_line_allow_write)
{
	struct world w;
	world_init(&w, "cliallow", "");
	char *opt;
	asprintf(&opt, "--allow-write %s", w.outside);
	struct run_result r = sh_in(&w, opt, "echo cli > '%s/cli'", w.outside);
	char *f = path_join(w.outside, "cli");
	cr_expect(contains(f, "cli"), "%s", r.err);
	run_free(&r);
	free(f);
	free(opt);
	world_free(&w);
}

Test(sandbox, children_read_their_own_proc_self)
{
	struct world w;
	world_init(&w, "procself", "");
	struct run_result r = sh_in(
		&w, NULL,
		"sh -c 'sh -c \"cat /proc/self/maps > maps.txt; ls /proc/self/fd > fds.txt; cat /proc/self/mountinfo > mi.txt\"'");
	char *maps = path_join(w.proj, "maps.txt");
	char *mi = path_join(w.proj, "mi.txt");
	cr_expect(contains(maps, "r-xp"), "a grandchild could not read its /proc/self/maps: %s",
		  r.err);
	cr_expect(contains(mi, " / "), "%s", r.err);
	run_free(&r);
	free(maps);
	free(mi);
	world_free(&w);
}

Test(sandbox, standalone_preload_mode)
{
	struct world w;
	world_init(&w, "standalone", "");
	char *out = path_join(w.outside, "x");
	char *inside = path_join(w.proj, "y");
	char *envtxt = path_join(w.proj, "env.txt");
	char *pre, *cfg;
	asprintf(&pre, "LD_PRELOAD=%s", CORDON_SHIM_SO);
	asprintf(&cfg, "CORDON_CONFIG=%s", w.cfg);
	char *envp[] = {w.env[0], w.env[1], w.env[2], w.env[3], pre, cfg, NULL};
	char *script;
	asprintf(&script,
		 "cordon-probe write '%s' pwned; cordon-probe write '%s' ok; env > env.txt", out,
		 inside);
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct run_result r = run_cmd(argv, envp, w.proj, 20000);
	cr_expect_not(file_exists(out), "standalone mode did not sandbox: %s", r.err);
	cr_expect(contains(inside, "ok"), "the cwd is the project: %s", r.err);
	cr_expect_not(contains(envtxt, "SECRET_TOKEN"),
		      "standalone mode did not filter the environment");
	cr_expect_not(contains(envtxt, "LD_PRELOAD"));
	cr_expect(contains(envtxt, "CORDON_SANDBOX=1"));
	run_free(&r);
	/* A bad config in standalone mode: exit 125 before main, nothing runs. */
	free(write_file(w.proj, "cordon.json", "{\"nope\": 1}"));
	unlink(inside);
	r = run_cmd(argv, envp, w.proj, 20000);
	cr_expect_eq(r.status, 125);
	cr_expect(strstr(r.err, "nope: unknown key") != NULL, "%s", r.err);
	cr_expect_not(file_exists(inside), "the program ran despite a bad config");
	run_free(&r);
	free(script);
	free(pre);
	free(cfg);
	free(envtxt);
	free(out);
	free(inside);
	world_free(&w);
}

/* Landlock and seccomp bind the calling thread only: a process in which an
 * earlier constructor has already started a thread is refused (125) before
 * main, not half sandboxed. In a single-threaded one (the library left out),
 * the same command runs. */
Test(sandbox, a_second_thread_before_the_shim_is_refused)
{
	struct world w;
	world_init(&w, "threads", "");
	char *marker = path_join(w.proj, "ran");
	char *pre, *pre_alone, *cfg, *script;
	asprintf(&pre, "LD_PRELOAD=%s:%s", CORDON_SHIM_SO, CORDON_THREADER);
	asprintf(&pre_alone, "LD_PRELOAD=%s", CORDON_SHIM_SO);
	asprintf(&cfg, "CORDON_CONFIG=%s", w.cfg);
	asprintf(&script, "echo yes > '%s'", marker);
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	char *envp[] = {w.env[0], w.env[1], w.env[2], w.env[3], pre, cfg, NULL};
	struct run_result r = run_cmd(argv, envp, w.proj, 20000);
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect(strstr(r.err, "already runs 2 threads") != NULL, "%s", r.err);
	cr_expect_not(file_exists(marker), "the command ran with a thread outside the sandbox");
	run_free(&r);
	envp[4] = pre_alone;
	r = run_cmd(argv, envp, w.proj, 20000);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(contains(marker, "yes"), "%s", r.err);
	run_free(&r);
	free(script);
	free(cfg);
	free(pre_alone);
	free(pre);
	free(marker);
	world_free(&w);
}

struct sandboxed_read {
	struct cordon_policy *p;
	bool prepare; /* the ruleset built ahead, in the child too */
	const char *path;
};

/* In a child: apply the policy, read the path, send what was read. */
static void read_sandboxed(void *arg, int out)
{
	const struct sandboxed_read *a = arg;
	struct cordon_error err = {0};
	int ruleset = a->prepare ? cordon_sandbox_prepare(a->p) : -1;
	if ((a->prepare && ruleset < 0) ||
	    cordon_sandbox_apply_prepared(a->p, ruleset, NULL, &err) != 0)
		_exit(1);
	char buf[256];
	int fd = open(a->path, O_RDONLY | O_CLOEXEC);
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf));
	if (n > 0)
		(void)!write(out, buf, (size_t)n);
}

/* What a child sandboxed by P (with or without the ruleset built ahead)
 * read of PATH, judged here: "" when nothing reached us. */
static char *sandboxed(struct cordon_policy *p, bool prepare, const char *path)
{
	struct sandboxed_read a = {.p = p, .prepare = prepare, .path = path};
	return child_output(read_sandboxed, &a, path);
}

static void expect_read(struct cordon_policy *p, bool prepare, const char *path, const char *want)
{
	char *got = sandboxed(p, prepare, path);
	cr_expect_str_eq(got, want, "%s (ruleset built ahead: %d)", path, prepare);
	free(got);
}

/* The session watcher builds the Landlock ruleset ahead and marks the rules
 * it holds; the shim adds only the others. Marks without a ruleset (the
 * watcher could not build one) must not drop a rule: every rule is added. */
Test(sandbox, prepared_ruleset_and_marks_without_one)
{
	struct world w;
	world_init(&w, "prepared", "");
	char *in = write_file(w.proj, "in", "inside");
	char *out = write_file(w.outside, "out", "outside");
	struct cordon_policy p = {.sandbox = true, .allow_network = true};
	cr_assert_eq(cordon_policy_add_rule(&p, w.proj, CORDON_ACCESS_READ, "project"), 0);
	cr_assert_eq(cordon_policy_add_rule(&p, "/proc", CORDON_ACCESS_READ, "proc"), 0);
	/* Built ahead: the project is in the ruleset, /proc left to the applier. */
	expect_read(&p, true, in, "inside");
	expect_read(&p, true, out, "");
	char *status = sandboxed(&p, true, "/proc/self/status");
	cr_expect(strncmp(status, "Name:", 5) == 0, "/proc left unreadable: \"%s\"", status);
	free(status);
	/* What the watcher leaves to the shim: /proc, and whatever opens into a
	 * procfs (/dev/fd is /proc/self/fd: in the watcher, its own). */
	struct cordon_policy q = {.sandbox = true, .allow_network = true};
	cr_assert_eq(cordon_policy_add_rule(&q, w.proj, CORDON_ACCESS_READ, "project"), 0);
	cr_assert_eq(cordon_policy_add_rule(&q, "/dev/fd", CORDON_ACCESS_WRITE, "dev"), 0);
	cr_assert_eq(cordon_policy_add_rule(&q, "/proc/self", CORDON_ACCESS_READ, "proc"), 0);
	int ruleset = cordon_sandbox_prepare(&q);
	cr_assert_geq(ruleset, 0);
	close(ruleset);
	cr_expect(q.rules[0].prepared);
	cr_expect_not(q.rules[1].prepared, "/dev/fd resolved in the watcher");
	cr_expect_not(q.rules[2].prepared);
	cordon_policy_free(&q);
	/* Marked, but no ruleset comes with the marks. */
	for (size_t i = 0; i < p.n_rules; i++)
		p.rules[i].prepared = true;
	expect_read(&p, false, in, "inside"); /* a marked rule dropped: "" */
	expect_read(&p, false, out, "");
	cordon_policy_free(&p);
	free(in);
	free(out);
	world_free(&w);
}

/* A rule whose path was canonical as the policy was resolved (the user's,
 * a preset's: cordon_rule.nofollow) is opened following no link: one a
 * concurrent session lays on its way after the launcher looked (round 34
 * Q5) leaves the rule ungranted, in the watcher's ruleset and in the
 * shim's, and where a hidden path beneath it has the rule granted entry by
 * entry too (the sieve resolved the rule again, following the link: 34b
 * R2). Control: the same rule without the mark follows the link laid; on
 * a path with no link it reads. */
Test(sandbox, a_rule_opened_following_no_link)
{
	struct world w;
	world_init(&w, "nofollow", "");
	char *dir = path_join(w.outside, "dir"), *old = path_join(w.outside, "dir.old");
	char *other = path_join(w.outside, "other");
	cr_assert(mkdir(dir, 0755) == 0 && mkdir(other, 0755) == 0);
	char *mine = write_file(dir, "f", "mine"), *elsewhere = write_file(other, "f", "elsewhere");
	char *hidden = write_file(dir, "secret", "hidden");
	for (int prepare = 0; prepare < 2; prepare++) {
		for (int mark = 0; mark < 4; mark++) {
			bool nofollow = mark % 2, sieved = mark >= 2;
			struct cordon_policy p = {.sandbox = true, .allow_network = true};
			cr_assert_eq(
				cordon_policy_add_rule(&p, dir, CORDON_ACCESS_READ, "--allow-read"),
				0);
			if (sieved)
				cr_assert_eq(cordon_policy_add_guard(&p, hidden, CORDON_GUARD_HIDE,
								     "hidden_paths"),
					     0);
			p.rules[0].nofollow = nofollow;
			expect_read(&p, prepare, mine, "mine");
			/* The link laid after the policy was resolved. */
			cr_assert(rename(dir, old) == 0 && symlink(other, dir) == 0);
			expect_read(&p, prepare, elsewhere, nofollow ? "" : "elsewhere");
			cr_assert(unlink(dir) == 0 && rename(old, dir) == 0);
			cordon_policy_free(&p);
		}
	}
	free(dir), free(old), free(other), free(mine), free(elsewhere), free(hidden);
	world_free(&w);
}

struct nolandlock_case {
	char on_unsupported[8];
	char command[24]; /* "sh" or "static" */
};

static struct nolandlock_case nl_cases[] = {
	{"refuse", "sh"}, {"refuse", "static"}, {"warn", "sh"}, {"warn", "static"}};

ParameterizedTestParameters(sandbox, kernel_without_landlock)
{
	return cr_make_param_array(struct nolandlock_case, nl_cases,
				   sizeof(nl_cases) / sizeof(nl_cases[0]));
}

ParameterizedTest(struct nolandlock_case *c, sandbox, kernel_without_landlock)
{
	struct world w;
	char extra[64];
	snprintf(extra, sizeof(extra), ", \"on_unsupported\": \"%s\"", c->on_unsupported);
	world_init(&w, "nolandlock", extra);
	char *out = path_join(w.outside, "x");
	char *probe = path_join(w.bin, strcmp(c->command, "static") == 0 ? "cordon-probe-static"
									 : "cordon-probe");
	char *argv[] = {CORDON_NOLANDLOCK, CORDON_BIN, "run", "--config", w.cfg, "--", probe,
			"write",           out,        "ran", NULL};
	struct run_result r = run_cmd(argv, w.env, w.proj, 20000);
	if (strcmp(c->on_unsupported, "refuse") == 0) {
		cr_expect_eq(r.status, 125, "%s", r.err);
		cr_expect(strstr(r.err, "cordon: ") == r.err && strstr(r.err, "Landlock"),
			  "must name Landlock: %s", r.err);
		cr_expect_eq(strchr(r.err, '\n'), r.err + strlen(r.err) - 1,
			     "one line, not a second from the watcher: %s", r.err);
		cr_expect_not(file_exists(out), "the command ran without a sandbox");
	} else {
		cr_expect_eq(r.status, 0, "%s", r.err);
		cr_expect(strstr(r.err, "cordon: warning:") && strstr(r.err, "Landlock"),
			  "must warn: %s", r.err);
		cr_expect(contains(out, "ran"), "warn mode runs the command");
	}
	run_free(&r);
	free(out);
	free(probe);
	world_free(&w);
}

/* The built-in defaults must keep a developer's shell working. Each tool
 * writes "ok NAME" to a file in the project only if it did its job; the test
 * reads that file from outside. */
Test(sandbox, default_policy_keeps_tools_working, .timeout = 120)
{
	struct world w;
	world_init(&w, "tools", "");
	free(write_file(w.proj, "hello.c",
			"#include <stdio.h>\nint main(void){puts(\"hello\");return 0;}\n"));
	free(write_file(w.proj, "Makefile", "hello: hello.c\n\tgcc -o hello hello.c\n"));
	const char *script =
		"r=$PWD/results.txt; : > $r\n"
		"ok() { echo \"ok $1\" >> $r; }\n"
		"bash -lc 'echo login' 2>/dev/null | grep -q login && ok bash\n"
		"if command -v zsh >/dev/null; then zsh -lc 'echo login' | grep -q login && ok zsh; else ok zsh; fi\n"
		"if command -v fish >/dev/null; then fish -lc 'echo login' | grep -q login && ok fish; else ok fish; fi\n"
		"git init -q repo && cd repo && echo a > a && git add a && git -c user.name=t -c user.email=t@t commit -qm m && git log --oneline | grep -q m && ok git; cd ..\n"
		"make -s >/dev/null && ./hello | grep -q hello && ok gcc_make\n"
		"python3 -c 'import json,ssl,sqlite3; print(6*7)' | grep -q 42 && ok python\n"
		"perl -MPOSIX -e 'print 6*7' | grep -q 42 && ok perl\n"
		"if command -v node >/dev/null; then node -e 'console.log(6*7)' | grep -q 42 && ok node; else ok node; fi\n"
		"ps -e -o pid,comm | grep -q ps && ok ps\n"
		"top -bn1 | grep -q PID && ok top\n"
		"[ \"$(nproc)\" -ge 1 ] && ok nproc\n"
		"[ \"$(whoami)\" = \"$(id -un)\" ] && ok whoami\n"
		"d=$(mktemp -d) && tar -cf \"$d/a.tar\" hello.c && tar -tf \"$d/a.tar\" | grep -q hello.c && rm -r \"$d\" && ok tar_tmp\n"
		"ssh-keygen -q -t ed25519 -N '' -f ./key && [ -s key.pub ] && ok ssh_keygen\n"
		"openssl rand -hex 4 | grep -Eq '^[0-9a-f]{8}$' && openssl sha256 hello.c | grep -q SHA2 && ok openssl\n"
		"LANG=C.UTF-8 locale 2>&1 | grep -q 'LC_CTYPE=\"C.UTF-8\"' && ok locale\n"
		"TZ=Europe/Paris date +%Z | grep -Eq 'CES?T' && ok timezone\n"
		"infocmp xterm | grep -q xterm && [ \"$(TERM=xterm tput cols)\" -gt 0 ] && ok terminfo\n"
		"ls -l /dev/null /dev/tty >/dev/null 2>&1; echo x > /dev/null && head -c4 /dev/urandom | wc -c | grep -q 4 && ok dev\n"
		"echo t > /tmp/cordon-tools-$$ && rm /tmp/cordon-tools-$$ && ok tmp\n";
	char *argv[] = {CORDON_BIN, "run", "--", "/bin/sh", "-c", (char *)script, NULL};
	struct run_result r = run_cmd(argv, w.env, w.proj, 110000);
	char *results_path = path_join(w.proj, "results.txt");
	char *results = read_file(results_path);
	cr_assert_not_null(results, "%s", r.err);
	const char *tools[] = {"bash",   "zsh",      "fish",     "git",        "gcc_make",
			       "python", "perl",     "node",     "ps",         "top",
			       "nproc",  "whoami",   "tar_tmp",  "ssh_keygen", "openssl",
			       "locale", "timezone", "terminfo", "dev",        "tmp"};
	for (size_t i = 0; i < sizeof(tools) / sizeof(tools[0]); i++) {
		char want[64];
		snprintf(want, sizeof(want), "ok %s\n", tools[i]);
		cr_expect(strstr(results, want) != NULL,
			  "%s failed inside the sandbox; stderr:\n%s", tools[i], r.err);
	}
	run_free(&r);
	free(results);
	free(results_path);
	world_free(&w);
}

/* Landlock ABI 9 (Linux 7.1, not on this machine) decides unix sockets in
 * the kernel (RESOLVE_UNIX): the supervised filter there leaves connect and
 * the sends alone (the supervisor is still needed for metadata, SysV and
 * the rest), only the allowed sockets get the right, and no class of paths
 * ever carries it (a read-write /tmp or /run/user/UID would reopen tmux,
 * D-Bus and agents). */
Test(sandbox, abi9_resolve_unix_only_on_allowed_sockets)
{
	struct cordon_support sup = {.landlock_abi = 7, .seccomp = true, .notify = true};
	cr_expect(cordon_sandbox_needs_supervisor(&sup));
	cr_expect_not(cordon_sandbox_unix_in_kernel(&sup));
	sup.landlock_abi = 9;
	cr_expect(cordon_sandbox_needs_supervisor(&sup));
	cr_expect(cordon_sandbox_unix_in_kernel(&sup));
	/* Online: offline, the internet's connects and sends still go to the
	 * supervisor (45c F1: test_network.c
	 * offline_internet_sends_always_reach_the_supervisor). */
	struct sock_fprog sup_prog, kunix;
	cordon_seccomp_program(true, true, &sup_prog);
	cordon_seccomp_program_supervised(true, true, false, false, false, &kunix);
	cr_expect_lt(kunix.len, sup_prog.len, "the ABI 9 program still traps sockets");
	cr_expect_not(cordon_landlock_unix_in_kernel(8));
	cr_expect(cordon_landlock_unix_in_kernel(9));
	const unsigned classes[] = {CORDON_ACCESS_READ, CORDON_ACCESS_READ | CORDON_ACCESS_EXEC,
				    CORDON_ACCESS_READ | CORDON_ACCESS_WRITE, CORDON_ACCESS_ALL};
	for (int abi = 1; abi <= 10; abi++)
		for (size_t i = 0; i < sizeof(classes) / sizeof(classes[0]); i++)
			cr_expect_eq(cordon_landlock_rights(abi, classes[i]) &
					     LANDLOCK_ACCESS_FS_RESOLVE_UNIX,
				     0, "ABI %d, access %u carries RESOLVE_UNIX", abi, classes[i]);
	cr_expect_eq(cordon_landlock_socket_rights(7), 0);
	cr_expect_eq(cordon_landlock_socket_rights(9), LANDLOCK_ACCESS_FS_RESOLVE_UNIX);
	/* And without notification (before Linux 5.0) the default policy is
	 * not enforceable: the supervisor is missing. */
	sup.landlock_abi = 7;
	sup.notify = false;
	struct cordon_policy def = {.sandbox = true, .allow_network = true};
	char missing[512];
	cr_expect_gt(cordon_sandbox_missing(&def, &sup, missing, sizeof(missing)), 0);
	cr_expect(strstr(missing, "user notification") != NULL, "%s", missing);
}
