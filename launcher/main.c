/* cordon — entry point: parse the command line and dispatch. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "launcher.h"

/* Started with stdin, stdout or stderr closed (`<&-`, an agent harness):
 * the next files cordon opens would take those numbers — its config, the
 * session's pipes — and be taken for stdio (read, written to, kept open for
 * the command). Each closed one holds /dev/null here instead, close-on-exec:
 * cordon's own files land above 2, and the command still starts with that
 * number closed, as its caller meant. */
static void hold_closed_stdio(void)
{
	for (int fd = 0; fd <= 2; fd++) {
		if (fcntl(fd, F_GETFD) >= 0 || errno != EBADF)
			continue;
		int n = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (n >= 0 && n != fd) { /* not so: the lower ones are open, n is fd */
			(void)dup3(n, fd, O_CLOEXEC);
			close(n);
		}
	}
}

int main(int argc, char **argv)
{
	hold_closed_stdio();
	struct cordon_args a;
	struct cordon_error err = {0};
	if (cordon_args_parse(argc, argv, &a, &err) < 0) {
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	int rc;
	bool paths = a.cmd == CORDON_CMD_RUN || a.cmd == CORDON_CMD_LEARN ||
		     a.cmd == CORDON_CMD_EXPLAIN || a.cmd == CORDON_CMD_CHECK;
	if (!a.help && paths && launcher_unpin_names(&a, &err) < 0) {
		launcher_error(&err);
		cordon_args_free(&a);
		return CORDON_EXIT_FAILURE;
	}
	if (a.help || a.cmd == CORDON_CMD_HELP) {
		(void)fputs(cordon_usage(a.cmd), stdout);
		rc = 0;
	} else {
		switch (a.cmd) {
		case CORDON_CMD_RUN:
			rc = cmd_run(&a);
			break;
		case CORDON_CMD_LEARN:
			rc = cmd_learn(&a);
			break;
		case CORDON_CMD_EXPLAIN:
			rc = cmd_explain(&a);
			break;
		case CORDON_CMD_CHECK:
			rc = cmd_check(&a);
			break;
		case CORDON_CMD_LIST:
			rc = cmd_list(&a);
			break;
		case CORDON_CMD_PS:
			rc = cmd_ps(&a);
			break;
		case CORDON_CMD_KILL:
			rc = cmd_kill(&a);
			break;
		case CORDON_CMD_VERSION:
			printf("cordon %s\n", CORDON_VERSION);
			rc = 0;
			break;
		case CORDON_CMD_NONE:
		case CORDON_CMD_HELP:
		default:
			(void)fputs(cordon_usage(CORDON_CMD_NONE), stderr);
			rc = CORDON_EXIT_FAILURE;
			break;
		}
	}
	cordon_args_free(&a);
	return rc;
}
