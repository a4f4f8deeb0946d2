/* Escape routes through other processes and through what the sandbox is
 * made of: signals and ptrace towards outside processes, the environment,
 * a static binary the shim cannot enter, a program with code before main,
 * a nested cordon. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/personality.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "both.h"
#include "helpers.h"

Test(escape, signals_to_outside_process)
{
	struct world w;
	world_init(&w, "signal", "");
	pid_t pid = start_outside_process();
	struct run_result r = sh_in(&w, NULL, "kill -TERM %d; kill -KILL %d; cordon-probe kill %d",
				    pid, pid, pid);
	usleep(50000);
	cr_expect_eq(waitpid(pid, NULL, WNOHANG), 0, "the outside process was killed from inside");
	cr_expect_eq(kill(pid, 0), 0);
	run_free(&r);
	stop_process(pid);
	world_free(&w);
}

Test(escape, static_binary_as_the_command)
{
	struct world w;
	world_init(&w, "static", "");
	char *probe = path_join(w.bin, "cordon-probe-static");
	char *inside = path_join(w.proj, "inside");
	char *out = path_join(w.outside, "x");
	char *argv[] = {CORDON_BIN, "run",   "--config", w.cfg,   "--",
			probe,      "write", out,        "pwned", NULL};
	struct run_result r = run_cmd(argv, w.env, w.proj, 20000);
	cr_expect_not(file_exists(out), "a static binary wrote outside");
	run_free(&r);
	char *argv2[] = {CORDON_BIN, "run",   "--config", w.cfg, "--",
			 probe,      "write", inside,     "ok",  NULL};
	r = run_cmd(argv2, w.env, w.proj, 20000);
	cr_expect(contains(inside, "ok"), "the static binary must still run: %s", r.err);
	run_free(&r);
	char *argv3[] = {CORDON_BIN, "run", "--config", w.cfg, "--", probe, "read", w.secret, NULL};
	r = run_cmd(argv3, w.env, w.proj, 20000);
	cr_expect_null(strstr(r.out, SECRET), "a static binary read outside");
	run_free(&r);
	free(probe);
	free(inside);
	free(out);
	world_free(&w);
}

/* A program the session could have built (in the project) as the command:
 * its .preinit_array runs before any library's constructor, the shim's
 * included, so it gets the sandbox before its exec. Control: run outside,
 * the same program writes outside. */
BOTH_USERS(escape, a_project_program_runs_nothing_before_the_sandbox, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "early", "");
	char *prog = path_join(w.proj, "early");
	copy_exec(CORDON_EARLY, prog);
	char *out = path_join(w.outside, "early-inside");
	char *ctl = path_join(w.outside, "early-outside");
	world_give(&w);
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", prog, out, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.out, "main ran"), "the program did not run: %s%s", r.out, r.err);
	cr_expect_not(file_exists(out), "code before main wrote outside: %s", r.err);
	run_free(&r);
	char *plain[] = {prog, ctl, NULL};
	r = world_run(&w, plain, w.proj);
	cr_expect(file_exists(ctl), "control: outside, it did not write: %s", r.err);
	run_free(&r);
	free(prog);
	free(out);
	free(ctl);
	world_free(&w);
}

Test(escape, env_u_ld_preload_does_not_escape)
{
	struct world w;
	world_init(&w, "envu", "");
	char *out = path_join(w.outside, "x");
	char *argv[] = {CORDON_BIN, "run",        "--config",     w.cfg,   "--", "/usr/bin/env",
			"-u",       "LD_PRELOAD", "cordon-probe", "write", out,  "pwned",
			NULL};
	struct run_result r = run_cmd(argv, w.env, w.proj, 20000);
	cr_expect_not(file_exists(out), "env -u LD_PRELOAD escaped");
	run_free(&r);
	free(out);
	world_free(&w);
}

Test(escape, nested_cordon_cannot_widen)
{
	struct world w;
	world_init(&w, "nested", "");
	char *cordon = path_join(w.bin, "cordon");
	copy_exec(CORDON_BIN, cordon);
	char *lib = path_join(w.proj, "lib");
	mkdir(lib, 0755);
	char *shim = path_join(lib, "libcordon.so");
	copy_exec(CORDON_SHIM_SO, shim);
	char *nested_cfg = write_file(w.proj, "wide.json", "{\"enabled\": false}");
	struct run_result r = sh_in(
		&w, NULL,
		"cordon run --config cordon.json --allow-write '%s' -- cordon-probe write '%s/a' x;"
		"cordon run --config wide.json -- cordon-probe write '%s/b' x; cordon run --config wide.json -- cat '%s' > copy",
		w.outside, w.outside, w.outside, w.secret);
	char *a = path_join(w.outside, "a");
	char *b = path_join(w.outside, "b");
	char *copy = path_join(w.proj, "copy");
	cr_expect_not(file_exists(a), "a nested cordon widened write access");
	cr_expect_not(file_exists(b), "a nested disabled cordon lifted the sandbox");
	cr_expect_not(contains(copy, SECRET));
	run_free(&r);
	free(a);
	free(b);
	free(copy);
	free(nested_cfg);
	free(shim);
	free(lib);
	free(cordon);
	world_free(&w);
}

/* An outside process holding a secret in memory, without address
 * randomisation, so that a "peek" probe finds the buffer at its own
 * address. */
static pid_t start_holder(const char *text)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		personality(ADDR_NO_RANDOMIZE);
		char *argv[] = {CORDON_PROBE, "hold", (char *)text, NULL};
		char *envp[] = {NULL};
		int null = open("/dev/null", O_WRONLY);
		dup2(null, STDOUT_FILENO);
		execve(CORDON_PROBE, argv, envp);
		_exit(127);
	}
	wait_exec(pid, CORDON_PROBE);
	usleep(20000); /* and has copied the text into its buffer */
	return pid;
}

static int tracer_of(pid_t pid)
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", pid);
	char *s = read_file(path);
	char *t = s ? strstr(s, "TracerPid:") : NULL;
	int tracer = t ? atoi(t + 10) : -1;
	free(s);
	return tracer;
}

Test(escape, ptrace_and_process_vm_readv_of_outside_process)
{
	struct world w;
	world_init(&w, "ptrace", "");
	pid_t holder = start_holder("mem-" SECRET);
	/* Control: unsandboxed, the same probe reads the outside memory. */
	char *plain[] = {CORDON_PROBE, "peek", NULL, NULL};
	char pidstr[16];
	snprintf(pidstr, sizeof(pidstr), "%d", holder);
	plain[2] = pidstr;
	struct run_result r = run_cmd(plain, w.env, w.proj, 20000);
	cr_assert(strstr(r.out, "mem-" SECRET) != NULL, "control: peek must work unsandboxed: %s%s",
		  r.out, r.err);
	run_free(&r);
	char *args[] = {"cordon-probe", "peek", pidstr, NULL};
	r = run_in(&w, NULL, args);
	cr_expect_null(strstr(r.out, "mem-" SECRET), "read an outside process's memory: %s", r.out);
	cr_expect_eq(tracer_of(holder), 0, "an outside process stayed traced from inside");
	cr_expect_eq(waitpid(holder, NULL, WNOHANG), 0, "the outside process died");
	run_free(&r);
	stop_process(holder);
	world_free(&w);
}

/* Secrets in the caller's environment reach nothing inside: not the
 * environment of the shell or its children, not /proc/PID/environ of the
 * shell (whose initial environment area the kernel keeps), in launcher mode
 * and in standalone (LD_PRELOAD) mode, where the shim filters in place. */
Test(escape, environment_leakage)
{
	struct world w;
	world_init(&w, "envleak", "");
	/* /proc environ files are NUL-separated: tr, so that the check sees it all. */
	const char *script =
		"env > e.txt; tr '\\0' '\\n' < /proc/$$/environ >> e.txt;"
		"tr '\\0' '\\n' < /proc/self/environ >> e.txt;"
		"sh -c 'env; tr \"\\0\" \"\\n\" < /proc/$PPID/environ' >> e.txt; bash -c env >> e.txt";
	char *out = path_join(w.proj, "e.txt");
	struct run_result r = sh_in(&w, NULL, "%s", script);
	cr_assert(contains(out, "CORDON_SESSION="), "%s", r.err);
	cr_expect_not(contains(out, "hunter2"), "launcher mode leaked SECRET_TOKEN");
	cr_expect_not(contains(out, "LD_PRELOAD"), "launcher mode leaked LD_PRELOAD");
	cr_expect_not(contains(out, "CORDON_CONFIG_FD"));
	run_free(&r);
	unlink(out);
	char *pre, *cfg;
	asprintf(&pre, "LD_PRELOAD=%s", CORDON_SHIM_SO);
	asprintf(&cfg, "CORDON_CONFIG=%s", w.cfg);
	char *envp[] = {w.env[0], w.env[1], w.env[2], w.env[3], w.env[4], pre, cfg, NULL};
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	r = run_cmd(argv, envp, w.proj, 20000);
	cr_assert(contains(out, "CORDON_SESSION="), "standalone mode did not run: %s", r.err);
	cr_expect_not(contains(out, "hunter2"), "standalone mode leaked SECRET_TOKEN");
	cr_expect_not(contains(out, "LD_PRELOAD"), "standalone mode leaked LD_PRELOAD");
	run_free(&r);
	free(pre);
	free(cfg);
	free(out);
	world_free(&w);
}
