/* The session held still while its job is stopped (see jobstop.h). */
#include "jobstop.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include "cordon/session.h"

static bool write_freeze(int cgroup_fd, const char *value)
{
	int fd = openat(cgroup_fd, "cgroup.freeze", O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	bool ok = write(fd, value, 1) == 1;
	close(fd);
	return ok;
}

/* Whether cgroup.events says "frozen 1". */
static bool frozen(int cgroup_fd)
{
	int fd = openat(cgroup_fd, "cgroup.events", O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return false;
	char buf[256];
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	if (n <= 0)
		return false;
	buf[n] = '\0';
	return strstr(buf, "frozen 1") != NULL;
}

void cordon_jobstop_hold(struct cordon_jobstop *j, const struct cordon_unix_policy *u)
{
	j->stopped = NULL;
	j->n = 0;
	if (j->cgroup_fd >= 0 && write_freeze(j->cgroup_fd, "1")) {
		/* (A task in a read is woken to freeze: some milliseconds.) */
		for (int i = 0; i < 200 && !frozen(j->cgroup_fd); i++)
			nanosleep(&(struct timespec){0, 1000L * 1000L}, NULL);
		return;
	}
	pid_t *pids = NULL;
	size_t n = 0;
	if (cordon_unix_session_pids(u, &pids, &n) < 0)
		return;
	j->stopped = calloc(n ? n : 1, sizeof(*j->stopped));
	for (size_t i = 0; j->stopped && i < n; i++) {
		/* (One the session's own job control stopped stays so.) */
		char state = cordon_proc_state(pids[i]);
		if (state == 'T' || state == 't' || pids[i] == u->root)
			continue;
		if (kill(pids[i], SIGSTOP) == 0)
			j->stopped[j->n++] = pids[i];
	}
	free(pids);
}

void cordon_jobstop_release(struct cordon_jobstop *j)
{
	if (j->cgroup_fd >= 0 && !j->stopped) {
		(void)write_freeze(j->cgroup_fd, "0");
		return;
	}
	for (size_t i = 0; i < j->n; i++)
		kill(j->stopped[i], SIGCONT);
	free(j->stopped);
	j->stopped = NULL;
	j->n = 0;
}
