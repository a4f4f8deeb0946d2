/* cordon-probe: attempts one operation and reports the result, for tests that
 * run it inside the sandbox (built dynamic and static). The test judges the
 * effect from outside; the printed result is only a diagnostic.
 *   cordon-probe read PATH          copy PATH to stdout
 *   cordon-probe write PATH TEXT    create/truncate PATH with TEXT
 *   cordon-probe kill PID           send SIGTERM to PID
 *   cordon-probe sleep SECONDS      sleep (a process that stays alive) */
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what, const char *arg)
{
	fprintf(stderr, "probe: %s %s: %s\n", what, arg, strerror(errno));
	return 1;
}

int main(int argc, char **argv)
{
	if (argc >= 3 && strcmp(argv[1], "read") == 0) {
		int fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			return fail("open", argv[2]);
		char buf[4096];
		ssize_t n;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, stdout);
		return n < 0 ? fail("read", argv[2]) : 0;
	}
	if (argc >= 4 && strcmp(argv[1], "write") == 0) {
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return fail("open", argv[2]);
		if (write(fd, argv[3], strlen(argv[3])) < 0)
			return fail("write", argv[2]);
		return close(fd) < 0 ? fail("close", argv[2]) : 0;
	}
	if (argc >= 3 && strcmp(argv[1], "kill") == 0) {
		if (kill((pid_t)strtol(argv[2], NULL, 10), SIGTERM) < 0)
			return fail("kill", argv[2]);
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "sleep") == 0) {
		sleep((unsigned)strtoul(argv[2], NULL, 10));
		return 0;
	}
	fprintf(stderr, "usage: cordon-probe read|write|kill|sleep ...\n");
	return 2;
}
