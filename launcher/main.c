/* cordon — entry point: parse the command line and dispatch. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "launcher.h"

int main(int argc, char **argv)
{
	struct cordon_args a;
	struct cordon_error err = {0};
	if (cordon_args_parse(argc, argv, &a, &err) < 0) {
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	int rc;
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
