/* Escape routes out of the session: setsid, double fork, nohup, ignored
 * signals. Judged from outside: are the pids, the cgroup and the registry
 * entry gone after the shell exits. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cordon/error.h"
#include "cordon/session.h"
#include "helpers.h"

struct track_case {
	char mode[16];
};
static struct track_case track_cases[] = {{"cgroup"}, {"subreaper"}};

ParameterizedTestParameters(escape, escapees_die_when_the_shell_exits)
{
	return cr_make_param_array(struct track_case, track_cases, 2);
}

ParameterizedTest(struct track_case *c, escape, escapees_die_when_the_shell_exits, .timeout = 60)
{
	struct world w;
	world_init(&w, "escape", "");
	char opt[64];
	snprintf(opt, sizeof(opt), "--tracking %s", c->mode);
	struct run_result r = sh_in(&w, opt, "%s", ESCAPEES);
	cr_expect_eq(r.status, 0, "%s", r.err);
	expect_session_gone(&w, 5);
	run_free(&r);
	world_free(&w);
}

/* A process that moves itself out of the session's cgroup, into the cgroup
 * the session was created under (as root the write would be allowed by the
 * cgroup permissions; Landlock does not grant /sys/fs/cgroup). */
Test(escape, cgroup_migration_out_of_the_session, .timeout = 60)
{
	char *mount, *own;
	struct cordon_error err = {0};
	if (cordon_cgroup_locate(&mount, &own, &err) < 0)
		cr_skip_test("no cgroup2 mount: %s", err.msg);
	struct world w;
	world_init(&w, "cgmove", "");
	char procs[4096];
	snprintf(procs, sizeof(procs), "%s%s/cgroup.procs", mount, strcmp(own, "/") ? own : "");
	struct run_result r = sh_in(
		&w, NULL,
		"echo $CORDON_SESSION > sid\n"
		"sh -c 'echo $$ > \"%s\"; echo $$ > \"%s/cgroup.procs\"; echo $$ >> pids; exec sleep 300' &\n"
		"n=0; while [ ! -s pids ] && [ $n -lt 200 ]; do sleep 0.01; n=$((n+1)); done\n",
		procs, mount);
	cr_expect_eq(r.status, 0, "%s", r.err);
	expect_session_gone(&w, 1);
	run_free(&r);
	free(mount);
	free(own);
	world_free(&w);
}

/* A launcher killed while it wrote a note in the state directory
 * (written aside as NAME.tmp-PID, then renamed) left that file, and
 * nothing removed it. The next launch removes the ones a minute old whose
 * writer is gone, and leaves a live writer's and a fresh one. */
Test(cleanup, notes_killed_launchers_left_aside_go, .timeout = 60)
{
	pid_t dead = fork();
	if (dead == 0)
		_exit(0);
	cr_assert_gt(dead, 0);
	cr_assert_eq(waitpid(dead, NULL, 0), dead);
	const char *dir = "/var/lib/cordon";
	char *stale = fmt("%s/wrote-cordontest%d.tmp-%d", dir, (int)getpid(), (int)dead);
	char *fresh = fmt("%s/wrote-cordontest%d-fresh.tmp-%d", dir, (int)getpid(), (int)dead);
	char *live = fmt("%s/wrote-cordontest%d-live.tmp-%d", dir, (int)getpid(), (int)getpid());
	const char *files[] = {stale, fresh, live};
	for (size_t i = 0; i < 3; i++) {
		FILE *f = fopen(files[i], "w");
		cr_assert_not_null(f, "%s", files[i]);
		cr_assert_eq(fclose(f), 0);
	}
	struct timespec old[2] = {{time(NULL) - 120, 0}, {time(NULL) - 120, 0}};
	cr_assert_eq(utimensat(AT_FDCWD, stale, old, 0), 0);
	cr_assert_eq(utimensat(AT_FDCWD, live, old, 0), 0);
	struct world w;
	world_init(&w, "leftaside", "");
	struct run_result r = sh_in(&w, NULL, "true");
	struct stat st;
	cr_expect_neq(stat(stale, &st), 0, "%s stayed\n%s", stale, r.err);
	cr_expect_eq(stat(fresh, &st), 0, "a fresh %s was removed", fresh);
	cr_expect_eq(stat(live, &st), 0, "a live writer's %s was removed", live);
	run_free(&r);
	for (size_t i = 0; i < 3; i++)
		unlink(files[i]);
	free(stale);
	free(fresh);
	free(live);
	world_free(&w);
}
