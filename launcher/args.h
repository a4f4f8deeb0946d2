/* Command-line parsing for `cordon`, split from main() so tests can call it. */
#ifndef CORDON_ARGS_H
#define CORDON_ARGS_H

#include <stdbool.h>

#include "cordon/config.h"
#include "cordon/error.h"
#include "cordon/session.h"
#include "cordon/strv.h"

enum cordon_cmd {
	CORDON_CMD_NONE = 0, /* no subcommand: print usage */
	CORDON_CMD_RUN,
	CORDON_CMD_LEARN,
	CORDON_CMD_EXPLAIN,
	CORDON_CMD_CHECK,
	CORDON_CMD_LIST,
	CORDON_CMD_PS,
	CORDON_CMD_KILL,
	CORDON_CMD_HELP,
	CORDON_CMD_VERSION,
};

struct cordon_args {
	enum cordon_cmd cmd;
	bool help; /* --help given for CMD */
	const char *config;
	const char *project;
	unsigned kind; /* CORDON_KIND_TERMINAL unless --kind tool */
	struct cordon_strv extra[CORDON_CLASS_COUNT];
	struct cordon_strv extra_env;
	struct cordon_strv extra_sockets; /* --allow-socket */
	struct cordon_strv toolchains;    /* --toolchain */
	struct cordon_strv extra_domains; /* --allow-domain */
	int pass_fds[14];                 /* --pass-fd */
	size_t n_pass_fds;
	bool no_network;
	bool verbose;
	bool learn_write;              /* learn --write: update the config file */
	bool format_sbpl;              /* explain --format sbpl */
	enum cordon_tracking tracking; /* --tracking; AUTO by default */
	char **rest; /* the command (run) or the PATHs (explain); points into argv */
	int n_rest;
};

/* Parse ARGV (argv[0] is the program). On error, ERR names the option. */
int cordon_args_parse(int argc, char **argv, struct cordon_args *out, struct cordon_error *err);
void cordon_args_free(struct cordon_args *a);

/* Usage text for CMD (CORDON_CMD_NONE: the overview). */
const char *cordon_usage(enum cordon_cmd cmd);

#endif
