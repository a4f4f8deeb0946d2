/* cordon-bench-cleanup N ROUNDS: time to an empty session for N processes
 * (half of them setsid escapees), measured two ways in the same run:
 *   raw:    a cgroup we make, N processes in it, write cgroup.kill, wait for
 *           "populated 0", rmdir — the kernel's own cost;
 *   cordon: `cordon run` starts the same tree; from the shell's exit until
 *           the session's cgroup directory is gone. The shell stamps the
 *           wall clock (date +%s%N) just before it exits, so a late wake-up
 *           of this process cannot shorten the measurement; the stamp comes a
 *           little before the exit, so the figure errs on the long side.
 * Prints one line per method: median, min, max in milliseconds. */
#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "bench.h"

#include "cordon/policy.h"
#include "cordon/session.h"

static double now(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static double wall(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_REALTIME, &ts);
	return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

static void report(const char *name, double *v, int n)
{
	qsort(v, (size_t)n, sizeof(*v), bench_cmp_double);
	printf("%-8s median %8.2f ms  (min %.2f, max %.2f, %d rounds)\n", name, v[n / 2], v[0],
	       v[n - 1], n);
}

/* The tree, as the shell script that `cordon run` also runs. */
static const char *tree_script(int n, const char *ready)
{
	static char buf[8192];
	snprintf(buf, sizeof(buf),
		 "i=0; while [ $i -lt %d ]; do sleep 600 & setsid sleep 600 & i=$((i+1)); done; "
		 "touch %s",
		 n / 2, ready);
	return buf;
}

static void wait_file(const char *p)
{
	struct stat st;
	while (stat(p, &st) < 0)
		usleep(1000);
}

static int populated(const char *cg)
{
	char p[4200], buf[256];
	snprintf(p, sizeof(p), "%s/cgroup.events", cg);
	int fd = open(p, O_RDONLY);
	ssize_t n = read(fd, buf, sizeof(buf) - 1);
	close(fd);
	buf[n > 0 ? n : 0] = '\0';
	char *s = strstr(buf, "populated ");
	return s && s[10] == '1';
}

static double raw_round(int n, const char *dir)
{
	char id[CORDON_SESSION_ID_LEN + 1], *cg, ready[4200];
	struct cordon_error err = {0};
	cordon_session_id(id);
	if (cordon_cgroup_create(id, &cg, &err) < 0) {
		fprintf(stderr, "bench: %s\n", err.msg);
		exit(1);
	}
	snprintf(ready, sizeof(ready), "%s/ready-raw", dir);
	unlink(ready);
	pid_t pid = fork();
	if (pid == 0) {
		cordon_cgroup_enter(cg, 0, &err);
		execl("/bin/sh", "sh", "-c", tree_script(n, ready), (char *)NULL);
		_exit(127);
	}
	wait_file(ready);
	waitpid(pid, NULL, 0);
	double t0 = now();
	char k[4200];
	snprintf(k, sizeof(k), "%s/cgroup.kill", cg);
	int fd = open(k, O_WRONLY);
	(void)!write(fd, "1", 1);
	close(fd);
	while (populated(cg))
		;
	while (rmdir(cg) < 0 && errno == EBUSY)
		;
	double t = now() - t0;
	free(cg);
	return t;
}

static double cordon_round(int n, const char *cordon, const char *dir)
{
	char ready[4200], script[8192 + 4400];
	snprintf(ready, sizeof(ready), "%s/ready-cordon", dir);
	unlink(ready);
	/* The shell writes its session id, builds the tree, then exits. */
	snprintf(script, sizeof(script), "echo $CORDON_SESSION > %s/sid; %s; date +%%s%%N > %s/t0",
		 dir, tree_script(n, ready), dir);
	pid_t pid = fork();
	if (pid == 0) {
		int dn = open("/dev/null", O_RDWR);
		dup2(dn, 0);
		dup2(dn, 1);
		execl(cordon, cordon, "run", "--project", dir, "--", "/bin/sh", "-c", script,
		      (char *)NULL);
		_exit(127);
	}
	waitpid(pid, NULL, 0); /* the shell has exited */
	char sidp[4200], sid[64] = "";
	snprintf(sidp, sizeof(sidp), "%s/sid", dir);
	FILE *f = fopen(sidp, "r");
	if (!f || !fgets(sid, sizeof(sid), f)) {
		fprintf(stderr, "bench: no session id\n");
		exit(1);
	}
	fclose(f);
	sid[strcspn(sid, "\n")] = '\0';
	char *mount, *own, cg[4200];
	struct cordon_error err = {0};
	cordon_cgroup_locate(&mount, &own, &err);
	snprintf(cg, sizeof(cg), "%s%s/cordon-%s", mount, strcmp(own, "/") ? own : "", sid);
	struct stat st;
	while (stat(cg, &st) == 0)
		;
	double t1 = wall();
	snprintf(sidp, sizeof(sidp), "%s/t0", dir);
	f = fopen(sidp, "r");
	long long ns = 0;
	if (!f || fscanf(f, "%lld", &ns) != 1) {
		fprintf(stderr, "bench: no exit time\n");
		exit(1);
	}
	fclose(f);
	double t = t1 - (double)ns / 1e6;
	free(mount);
	free(own);
	return t;
}

int main(int argc, char **argv)
{
	if (argc < 4) {
		fprintf(stderr, "usage: cordon-bench-cleanup CORDON N ROUNDS\n");
		return 2;
	}
	const char *cordon = argv[1];
	int n = atoi(argv[2]), rounds = atoi(argv[3]);
	char dir[] = "/tmp/cordon-bench-XXXXXX";
	if (!mkdtemp(dir))
		return 1;
	double raw[64] = {0}, cor[64] = {0};
	if (rounds > 64)
		rounds = 64;
	if (rounds < 1)
		rounds = 1;
	/* The order alternates: the round that goes second starts while the
	 * first one's 1,000 exits are still being reaped and freed (init reaps
	 * the escapees), and with a fixed order that always fell on cordon. */
	for (int i = 0; i < rounds; i++) {
		if (i % 2 == 0) {
			raw[i] = raw_round(n, dir);
			cor[i] = cordon_round(n, cordon, dir);
		} else {
			cor[i] = cordon_round(n, cordon, dir);
			raw[i] = raw_round(n, dir);
		}
	}
	printf("cleanup of %d processes (%d setsid escapees):\n", n, n / 2);
	report("raw", raw, rounds);
	report("cordon", cor, rounds);
	qsort(raw, (size_t)rounds, sizeof(double), bench_cmp_double);
	qsort(cor, (size_t)rounds, sizeof(double), bench_cmp_double);
	printf("ratio    %.2fx the raw cgroup.kill time (goal <= 1.2x)\n",
	       cor[rounds / 2] / raw[rounds / 2]);
	char cmd[200];
	snprintf(cmd, sizeof(cmd), "rm -rf %s", dir);
	return system(cmd) == 0 ? 0 : 1;
}
