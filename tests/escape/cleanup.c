/* Escape routes out of the session: setsid, double fork, nohup, ignored
 * signals. Judged from outside: are the pids, the cgroup and the registry
 * entry gone after the shell exits. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
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
