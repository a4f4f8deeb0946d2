/* Escape tests that run once as root and once as the ordinary test user. */
#ifndef CORDON_TEST_BOTH_H
#define CORDON_TEST_BOTH_H

#include <criterion/criterion.h>
#include <criterion/parameterized.h>

#include <signal.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

struct who {
	bool user;
};

static struct who both[] = {{false}, {true}};

/* A parameterized test run as root ({false}) and as the test user ({true});
 * its body sees WHO. */
#define BOTH_USERS(suite, name, ...)                                                               \
	ParameterizedTestParameters(suite, name)                                                   \
	{                                                                                          \
		return cr_make_param_array(struct who, both, 2);                                   \
	}                                                                                          \
	ParameterizedTest(struct who *who, suite, name, __VA_ARGS__)

/* A world for WHO: its files the test user's when WHO->user. EXTRA as for
 * world_init. */
static inline void world_for(struct world *w, const struct who *who, const char *tag,
			     const char *extra)
{
	world_init(w, tag, extra);
	if (who->user)
		world_as_user(w);
}

/* The ids WHO runs as: root's, or the test user's. */
static inline void who_ids(const struct who *who, uid_t *uid, gid_t *gid)
{
	*uid = 0;
	*gid = 0;
	if (who->user)
		test_user(uid, gid);
}

/* SCRIPT with /bin/sh, outside the sandbox as W's user: the control. */
static inline struct run_result sh_outside(struct world *w, const char *script)
{
	char *argv[] = {"/bin/sh", "-c", (char *)script, NULL};
	return world_run(w, argv, w->proj);
}

/* As root, W's launches keep their notes of XDG directories in a list of
 * W's own (CORDON_TEST_XDG_HOMES): the machine's would have the suite's
 * other root sessions guard W's config directories meanwhile. */
static inline void world_xdg_notes_apart(struct world *w, const struct who *who)
{
	if (who->user)
		return;
	char *dir = path_join(w->dir, "xdg-notes");
	cr_assert_eq(mkdir(dir, 0700), 0, "%s", dir);
	char *kv = fmt("CORDON_TEST_XDG_HOMES=%s", dir);
	world_setenv(w, kv);
	free(kv);
	free(dir);
}

/* W's config with "share_terminal": true added, as W's project's
 * shared.json: the session on the user's terminal itself (the control of
 * the tests of a terminal of its own). Its path, malloc'd. */
static inline char *world_shared_terminal_config(struct world *w)
{
	char *text = read_file(w->cfg);
	cr_assert(text && text[0] == '{', "%s", w->cfg);
	char *json = fmt("{\"share_terminal\": true, %s", text + 1);
	char *path = write_file(w->proj, "shared.json", json);
	free(json);
	free(text);
	return path;
}

/* The interactive shell PID on the terminal MASTER ended, and reaped. */
static inline void end_shell(pid_t pid, int master)
{
	kill(pid, SIGKILL);
	int st;
	waitpid(pid, &st, 0);
	close(master);
}

#endif
