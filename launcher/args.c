#include "args.h"

#include <errno.h>
#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cordon/domains.h"
#include "cordon/env.h"
#include "cordon/toolchain.h"

static const char usage_main[] =
	"Usage: cordon COMMAND [OPTIONS]\n"
	"\n"
	"Run a shell, and everything it starts, inside a kernel-enforced sandbox.\n"
	"\n"
	"Commands:\n"
	"  run       run a command (default: your login shell) in a sandboxed session\n"
	"  learn     run a command sandboxed, then list what the sandbox denied\n"
	"  explain   show the resolved policy, and what access given paths get\n"
	"  check     show what this machine can enforce\n"
	"  list      list live sessions\n"
	"  ps ID     list the processes of a session\n"
	"  kill ID   end a session: every process in it is killed\n"
	"  help      show help for a command\n"
	"\n"
	"Run 'cordon COMMAND --help' for a command's options.\n";

static const char usage_run[] =
	"Usage: cordon run [OPTIONS] [--] [COMMAND [ARG...]]\n"
	"\n"
	"Run COMMAND (default: your login shell with -l) in a sandboxed session.\n"
	"The project directory gets read, write and execute; the system paths, the\n"
	"additional paths and the shell dotfiles get what the config gives them.\n"
	"Started in $HOME, above it, in a system directory or in a hidden path\n"
	"without --project, the session has no project: nothing there is writable\n"
	"(one line says so).\n"
	"A rule naming a hidden path itself exposes it (one line says so).\n"
	"--config, --project, --kind and --tracking may each be given once.\n"
	"\n"
	"Options:\n"
	"  -c, --config FILE       config file (default: $CORDON_CONFIG, then\n"
	"                          $XDG_CONFIG_HOME/cordon/config.json, then built-in)\n"
	"  -p, --project DIR       project directory (default: the current directory,\n"
	"                          unless it is $HOME, above it, a system directory,\n"
	"                          in a hidden path, in ~/.config, ~/.local/bin or\n"
	"                          another place in the home that holds what runs\n"
	"                          outside, or where your dotfiles link to)\n"
	"      --kind KIND         terminal (default) or tool; matched against apply_to\n"
	"      --allow-read PATH   also allow reading PATH (repeatable)\n"
	"      --allow-write PATH  also allow reading, writing and executing PATH\n"
	"                          (repeatable; / is refused, and so is a path cordon\n"
	"                          keeps read-only inside: .git/hooks, its config)\n"
	"      --allow-exec PATH   also allow reading and executing PATH (repeatable)\n"
	"      --no-network        no network but the session's own loopback, whatever\n"
	"                          the config says (refused when the config turns the\n"
	"                          sandbox off for this session)\n"
	"      --allow-env NAME    also pass the environment variable NAME, or those\n"
	"                          starting with PREFIX for PREFIX* (repeatable)\n"
	"      --toolchain NAME    also grant toolchain NAME's directories, as the\n"
	"                          config's toolchains key: python, rust, node, go,\n"
	"                          local-bin (repeatable)\n"
	"      --allow-socket PATH also allow connecting to the unix socket PATH outside\n"
	"                          the session; '$SSH_AUTH_SOCK' names the ssh agent's\n"
	"                          (repeatable; sockets made inside are always reachable)\n"
	"      --allow-domain NAME reach only the hosts of allowed_domains and NAME, through\n"
	"                          cordon's proxy ('*.example.com': the names below it;\n"
	"                          repeatable; refused when the sandbox or the network\n"
	"                          is off)\n"
	"      --pass-fd N         let the command keep the inherited file descriptor N\n"
	"                          (repeatable; every other one above 2 is closed)\n"
	"      --tracking MODE     auto (default: a cgroup, else a subreaper),\n"
	"                          cgroup or subreaper\n"
	"  -v, --verbose           say what cordon does on stderr (sandbox, tracking)\n"
	"  -h, --help              show this help\n"
	"\n"
	"A COMMAND in no directory the policy lets execute is refused before it\n"
	"starts, with the config line that allows it.\n"
	"\n"
	"Exit status: the command's own; 125 if cordon failed or refused (nothing\n"
	"was run), 126 if COMMAND is not executable, 127 if it was not found.\n";

static const char usage_explain[] =
	"Usage: cordon explain [OPTIONS] [PATH...]\n"
	"\n"
	"Print the resolved policy: every path with its access (r = read,\n"
	"w = write, x = execute) and the rule it comes from. For each PATH given,\n"
	"print the access it gets and which rule grants it, or the config line\n"
	"that would allow it.\n"
	"\n"
	"Options: --config FILE, --project DIR, --kind KIND, --allow-read PATH,\n"
	"--allow-write PATH, --allow-exec PATH, --no-network, --allow-env NAME,\n"
	"--toolchain NAME, --allow-socket PATH, --allow-domain NAME, as for 'cordon run'; -h, --help.\n"
	"What 'cordon run' refuses, explain refuses (exit 125). The rules a run adds\n"
	"as it starts (shell history) are listed. Inside another cordon session it\n"
	"says so: the outer session's rules also apply.\n"
	"  --format sbpl   print the macOS Seatbelt profile for this policy instead,\n"
	"                  preceded by its parameter bindings as ';' comment lines\n";

static const char usage_check[] =
	"Usage: cordon check [--config FILE]\n"
	"\n"
	"Show what this machine can enforce (Landlock ABI and rights, seccomp), and\n"
	"parse the config a `cordon run` here would use (or FILE). Then list the PATH\n"
	"entries and what your shell rc files source or run that would not execute\n"
	"in a session under that config, and the config line that fixes them (a\n"
	"toolchain preset where one fits); nothing when everything executes.\n"
	"Exit 0 when the config parses and the default policy can be fully enforced\n"
	"here, 1 when it cannot be enforced or the shim is not this build's, 125 when\n"
	"the config does not parse (the error is the last line, on stderr). The list\n"
	"above never changes it.\n";

static const char usage_list[] =
	"Usage: cordon list\n"
	"\n"
	"List your live sessions: id, the command's pid, the number of processes,\n"
	"age, tracking (cgroup or subreaper; orphaned: its watcher and keeper were\n"
	"killed, and only `cordon kill` ends it; without a cgroup it is found by its\n"
	"user namespace) and project. Outside sessions only (125 inside one).\n";

static const char usage_learn[] =
	"Usage: cordon learn [RUN OPTIONS] [--] COMMAND [ARG...]\n"
	"\n"
	"Run COMMAND sandboxed as `cordon run` would, then list on stderr every file\n"
	"access the sandbox denied (path, kind, key), the unix sockets and network it\n"
	"refused, and one block to put in your config: each key once, with the\n"
	"config's current entries, proposing tool roots (~/.pyenv, ~/.cargo/registry,\n"
	"/opt/X) in the right class, never $HOME, /, a system directory, cordon's own\n"
	"config or a credential store, never writing a repository's hooks or config,\n"
	"what cordon keeps read-only, a cache programs outside run code from\n"
	"(~/.npm/_npx, ~/.cache/nvim, ~/.cache/p10k-*), a prefix's lib or shell\n"
	"completions, or a directory holding programs or shared objects. Paths\n"
	"that do not exist yet are listed to create first. File contents are never\n"
	"printed; ordinary permission errors are left out. A COMMAND the policy does\n"
	"not let execute runs as if its proposed rule were there, so one round sees\n"
	"what it does next.\n"
	"\n"
	"Seen: programs linked against the C library (open, fopen, opendir, mkdir,\n"
	"rename, unlink, exec, getaddrinfo and the like), in every child, also those\n"
	"started with their inherited fds closed. Not seen: statically linked\n"
	"programs and what libc does internally.\n"
	"\n"
	"Options: those of `cordon run` (see cordon run --help), and\n"
	"      --write             also update the config file itself (its other keys\n"
	"                          and entries stay); never with a unix socket, the\n"
	"                          network, a domain, a read rule on your own files\n"
	"                          (~/Documents) or a preset that makes a cache of\n"
	"                          code writable (printed apart, with why);\n"
	"                          not into a file with comments (a rewrite\n"
	"                          would lose them); refused inside a session\n"
	"Exit status: the command's own; 125 if cordon failed, or --write could\n"
	"not write the config.\n";

static const char usage_ps[] = "Usage: cordon ps ID\n"
			       "\n"
			       "List every process of session ID: pid and command line.\n"
			       "Outside sessions only (125 inside one).\n";

static const char usage_kill[] =
	"Usage: cordon kill ID\n"
	"\n"
	"End session ID: every process in it is killed, including those that\n"
	"called setsid or double-forked. Outside sessions only (125 inside one).\n";

const char *cordon_usage(enum cordon_cmd cmd)
{
	switch (cmd) {
	case CORDON_CMD_LIST:
		return usage_list;
	case CORDON_CMD_PS:
		return usage_ps;
	case CORDON_CMD_KILL:
		return usage_kill;
	case CORDON_CMD_RUN:
		return usage_run;
	case CORDON_CMD_LEARN:
		return usage_learn;
	case CORDON_CMD_EXPLAIN:
		return usage_explain;
	case CORDON_CMD_CHECK:
		return usage_check;
	case CORDON_CMD_NONE:
	case CORDON_CMD_HELP:
	case CORDON_CMD_VERSION:
		break;
	}
	return usage_main;
}

static const struct {
	const char *name;
	enum cordon_cmd cmd;
} commands[] = {
	{"run", CORDON_CMD_RUN},           {"learn", CORDON_CMD_LEARN},
	{"explain", CORDON_CMD_EXPLAIN},   {"check", CORDON_CMD_CHECK},
	{"list", CORDON_CMD_LIST},         {"ps", CORDON_CMD_PS},
	{"kill", CORDON_CMD_KILL},         {"help", CORDON_CMD_HELP},
	{"--help", CORDON_CMD_HELP},       {"-h", CORDON_CMD_HELP},
	{"--version", CORDON_CMD_VERSION}, {"version", CORDON_CMD_VERSION},
};

enum {
	OPT_KIND = 0x100,
	OPT_ALLOW_READ,
	OPT_ALLOW_WRITE,
	OPT_ALLOW_EXEC,
	OPT_NO_NETWORK,
	OPT_ALLOW_ENV,
	OPT_ALLOW_SOCKET,
	OPT_PASS_FD,
	OPT_ALLOW_DOMAIN,
	OPT_TRACKING,
	OPT_FORMAT,
	OPT_WRITE,
	OPT_TOOLCHAIN,
};

static const struct option run_options[] = {
	{"config", required_argument, NULL, 'c'},
	{"project", required_argument, NULL, 'p'},
	{"kind", required_argument, NULL, OPT_KIND},
	{"allow-read", required_argument, NULL, OPT_ALLOW_READ},
	{"allow-write", required_argument, NULL, OPT_ALLOW_WRITE},
	{"allow-exec", required_argument, NULL, OPT_ALLOW_EXEC},
	{"no-network", no_argument, NULL, OPT_NO_NETWORK},
	{"allow-env", required_argument, NULL, OPT_ALLOW_ENV},
	{"allow-socket", required_argument, NULL, OPT_ALLOW_SOCKET},
	{"allow-domain", required_argument, NULL, OPT_ALLOW_DOMAIN},
	{"pass-fd", required_argument, NULL, OPT_PASS_FD},
	{"tracking", required_argument, NULL, OPT_TRACKING},
	{"format", required_argument, NULL, OPT_FORMAT},
	{"write", no_argument, NULL, OPT_WRITE},
	{"toolchain", required_argument, NULL, OPT_TOOLCHAIN},
	{"verbose", no_argument, NULL, 'v'},
	{"help", no_argument, NULL, 'h'},
	{NULL, 0, NULL, 0},
};

static int push_nonempty(struct cordon_strv *sv, const char *opt, const char *val,
			 struct cordon_error *err)
{
	if (!val || !*val)
		return cordon_err(err, EINVAL, "%s: expected a non-empty value", opt);
	if (cordon_strv_push(sv, val) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	return 0;
}

/* --allow-read/-write/-exec PATH: as the config takes a path (~user is
 * not taken as a relative name, round 8). */
static int push_path(struct cordon_strv *sv, const char *opt, const char *val,
		     struct cordon_error *err)
{
	if (val && val[0] == '~' && val[1] != '\0' && val[1] != '/')
		return cordon_err(err, EINVAL,
				  "%s: expected a path, ~ or ~/..., got \"%s\" (~user is not "
				  "supported)",
				  opt, val);
	/* (Quoted, '$HOME/x' reaches cordon as it is: a name relative to
	 * the current directory that is not there, skipped unsaid.) */
	if (val && cordon_path_spells_variable(val))
		return cordon_err(err, EINVAL,
				  "%s: \"%s\": variables are not expanded here: write the path "
				  "itself (unquoted, the shell expands it)",
				  opt, val);
	return push_nonempty(sv, opt, val, err);
}

/* --allow-domain VAL: a rule of cordon/domains.h. */
static int push_domain(struct cordon_strv *sv, const char *val, struct cordon_error *err)
{
	int r = push_nonempty(sv, "--allow-domain", val, err);
	if (r < 0)
		return r;
	const char *why = cordon_domain_invalid(sv->v[sv->n - 1]);
	if (!why)
		why = cordon_domain_unreached(sv->v[sv->n - 1]);
	if (why)
		return cordon_err(err, EINVAL, "--allow-domain: %s, got \"%s\"", why,
				  sv->v[sv->n - 1]);
	return 0;
}

/* --allow-env VAL: a name or a "PREFIX*" pattern, as the config's
 * additional_env_vars takes ("*" alone would pass everything). */
static int push_env(struct cordon_strv *sv, const char *val, struct cordon_error *err)
{
	if (!cordon_env_name_valid(val))
		return cordon_err(err, EINVAL,
				  "--allow-env: expected a variable name (letters, digits, _; "
				  "optional trailing *), got \"%s\"",
				  val);
	if (cordon_env_never_passed(val))
		return cordon_err(err, EINVAL,
				  "--allow-env: %s never passes into a session (cordon removes it)",
				  val);
	return push_nonempty(sv, "--allow-env", val, err);
}

/* A single-valued option given again: the first one would be dropped
 * without a word (a restrictive --config by a permissive one). */
static int once(const void *set, const char *opt, struct cordon_error *err)
{
	return set ? cordon_err(err, EINVAL, "%s: given twice", opt) : 0;
}

/* The option whose argument is missing, as the user wrote it: getopt
 * leaves optind past argc when a short option ends the line (argv[optind - 1]
 * was NULL: "(null): missing argument"), and a long option's val may be no
 * character at all. */
static const char *missing_name(int argc, char **argv, int opt, char *buf, size_t size)
{
	if (optind >= 1 && optind <= argc && argv[optind - 1] &&
	    strncmp(argv[optind - 1], "--", 2) == 0) {
		(void)snprintf(buf, size, "%.*s", (int)strcspn(argv[optind - 1], "="),
			       argv[optind - 1]);
		return buf;
	}
	if (opt > 0 && opt < 0x100) {
		(void)snprintf(buf, size, "-%c", opt);
		return buf;
	}
	for (size_t i = 0; run_options[i].name; i++)
		if (run_options[i].val == opt) {
			(void)snprintf(buf, size, "--%s", run_options[i].name);
			return buf;
		}
	return "an option";
}

static int parse_options(int argc, char **argv, struct cordon_args *a, struct cordon_error *err)
{
	/* '+': stop at the first non-option, so `cordon run ls -l` passes -l to ls.
	 * ':': report missing arguments ourselves. */
	bool bare = a->cmd == CORDON_CMD_CHECK || a->cmd == CORDON_CMD_LIST ||
		    a->cmd == CORDON_CMD_PS || a->cmd == CORDON_CMD_KILL;
	/* check takes --config: it parses the config a run would use. */
	bool check = a->cmd == CORDON_CMD_CHECK;
	const char *shortopts = check ? "+:c:vh" : bare ? "+:vh" : "+:c:p:vh";
	optind = 0; /* full re-initialisation (GNU), so parsing can run again */
	opterr = 0;
	bool kind_set = false, tracking_set = false;
	for (;;) {
		int longidx = -1;
		int c = getopt_long(argc, argv, shortopts, run_options, &longidx);
		if (c == -1)
			break;
		const char *opt = longidx >= 0 ? run_options[longidx].name : NULL;
		char optbuf[64];
		if (!opt) {
			(void)snprintf(optbuf, sizeof(optbuf), "-%c", optopt ? optopt : c);
			opt = optbuf;
		}
		/* check/list/ps/kill take none of the policy options. */
		if (bare && c != 'v' && c != 'h' && c != '?' && c != ':' && !(check && c == 'c'))
			return cordon_err(err, EINVAL, "%s: unknown option --%s", argv[0], opt);
		int r = 0;
		switch (c) {
		case 'c':
			if (!*optarg)
				return cordon_err(err, EINVAL, "--config: expected a file");
			if (once(a->config, "--config", err) < 0)
				return -EINVAL;
			a->config = optarg;
			break;
		case 'p':
			if (!*optarg)
				return cordon_err(err, EINVAL, "--project: expected a directory");
			if (once(a->project, "--project", err) < 0)
				return -EINVAL;
			a->project = optarg;
			break;
		case OPT_KIND:
			if (once(kind_set ? "" : NULL, "--kind", err) < 0)
				return -EINVAL;
			kind_set = true;
			if (strcmp(optarg, "terminal") == 0)
				a->kind = CORDON_KIND_TERMINAL;
			else if (strcmp(optarg, "tool") == 0)
				a->kind = CORDON_KIND_TOOL;
			else
				return cordon_err(
					err, EINVAL,
					"--kind: expected \"terminal\" or \"tool\", got \"%s\"",
					optarg);
			break;
		case OPT_ALLOW_READ:
			r = push_path(&a->extra[CORDON_CLASS_RO], "--allow-read", optarg, err);
			break;
		case OPT_ALLOW_WRITE:
			r = push_path(&a->extra[CORDON_CLASS_RW], "--allow-write", optarg, err);
			break;
		case OPT_ALLOW_EXEC:
			r = push_path(&a->extra[CORDON_CLASS_EXEC], "--allow-exec", optarg, err);
			break;
		case OPT_NO_NETWORK:
			a->no_network = true;
			break;
		case OPT_ALLOW_ENV:
			r = push_env(&a->extra_env, optarg, err);
			break;
		case OPT_TOOLCHAIN:
			if (!cordon_toolchain_known(optarg))
				return cordon_err(
					err, EINVAL,
					"--toolchain: unknown toolchain \"%s\" (expected one "
					"of %s)",
					optarg, cordon_toolchain_names_text());
			if (cordon_strv_contains(&a->toolchains, optarg))
				return cordon_err(err, EINVAL, "--toolchain: \"%s\" is given twice",
						  optarg);
			r = push_nonempty(&a->toolchains, "--toolchain", optarg, err);
			break;
		case OPT_ALLOW_SOCKET:
			r = push_nonempty(&a->extra_sockets, "--allow-socket", optarg, err);
			break;
		case OPT_ALLOW_DOMAIN:
			r = push_domain(&a->extra_domains, optarg, err);
			break;
		case OPT_PASS_FD: {
			char *end;
			errno = 0;
			long fd = strtol(optarg, &end, 10);
			if (!*optarg || *end || errno || fd < 3 || fd > 1 << 20)
				return cordon_err(
					err, EINVAL,
					"--pass-fd: expected a file descriptor number above 2, "
					"got \"%s\"",
					optarg);
			if (a->n_pass_fds == sizeof(a->pass_fds) / sizeof(a->pass_fds[0]))
				return cordon_err(err, EINVAL, "--pass-fd: at most %zu",
						  a->n_pass_fds);
			a->pass_fds[a->n_pass_fds++] = (int)fd;
			break;
		}
		case OPT_TRACKING:
			if (once(tracking_set ? "" : NULL, "--tracking", err) < 0)
				return -EINVAL;
			tracking_set = true;
			if (strcmp(optarg, "auto") == 0)
				a->tracking = CORDON_TRACKING_AUTO;
			else if (strcmp(optarg, "cgroup") == 0)
				a->tracking = CORDON_TRACKING_CGROUP;
			else if (strcmp(optarg, "subreaper") == 0)
				a->tracking = CORDON_TRACKING_SUBREAPER;
			else
				return cordon_err(err, EINVAL,
						  "--tracking: expected \"auto\", \"cgroup\" or "
						  "\"subreaper\", got \"%s\"",
						  optarg);
			break;
		case OPT_WRITE:
			if (a->cmd != CORDON_CMD_LEARN)
				return cordon_err(err, EINVAL, "--write: only for cordon learn");
			a->learn_write = true;
			break;
		case OPT_FORMAT:
			if (a->cmd != CORDON_CMD_EXPLAIN)
				return cordon_err(err, EINVAL, "--format: only for cordon explain");
			if (strcmp(optarg, "sbpl") == 0)
				a->format_sbpl = true;
			else if (strcmp(optarg, "text") != 0)
				return cordon_err(
					err, EINVAL,
					"--format: expected \"text\" or \"sbpl\", got \"%s\"",
					optarg);
			break;
		case 'v':
			a->verbose = true;
			break;
		case 'h':
			a->help = true;
			break;
		case ':':
			return cordon_err(err, EINVAL, "%s: missing argument",
					  missing_name(argc, argv, optopt, optbuf, sizeof(optbuf)));
		case '?':
		default:
			return cordon_err(err, EINVAL, "unknown option '%s'", argv[optind - 1]);
		}
		if (r < 0)
			return r;
	}
	a->rest = argv + optind;
	a->n_rest = argc - optind;
	if ((a->cmd == CORDON_CMD_CHECK || a->cmd == CORDON_CMD_LIST) && a->n_rest > 0 && !a->help)
		return cordon_err(err, EINVAL, "%s: unexpected argument '%s'", argv[0], a->rest[0]);
	if ((a->cmd == CORDON_CMD_PS || a->cmd == CORDON_CMD_KILL) && a->n_rest != 1 && !a->help)
		return cordon_err(err, EINVAL, "%s: expected one session id", argv[0]);
	return 0;
}

int cordon_args_parse(int argc, char **argv, struct cordon_args *out, struct cordon_error *err)
{
	struct cordon_args a = {0};
	a.kind = CORDON_KIND_TERMINAL;
	if (argc < 2) {
		*out = a;
		return 0;
	}
	const char *name = argv[1];
	for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
		if (strcmp(name, commands[i].name) == 0)
			a.cmd = commands[i].cmd;
	if (a.cmd == CORDON_CMD_NONE)
		return cordon_err(err, EINVAL, "unknown command '%s' (try 'cordon --help')", name);
	if (a.cmd == CORDON_CMD_HELP || a.cmd == CORDON_CMD_VERSION) {
		/* (46b F8: `cordon help --help` said "unknown command", and
		 * `cordon --version --bogus` took no notice.) */
		bool self = argc == 3 && a.cmd == CORDON_CMD_HELP &&
			    (strcmp(argv[2], "--help") == 0 || strcmp(argv[2], "-h") == 0 ||
			     strcmp(argv[2], "help") == 0);
		if (argc > (a.cmd == CORDON_CMD_HELP ? 3 : 2))
			return cordon_err(err, EINVAL, "%s: unexpected argument '%s'", name,
					  argv[a.cmd == CORDON_CMD_HELP ? 3 : 2]);
		/* `cordon help run` is `cordon run --help`. */
		if (a.cmd == CORDON_CMD_HELP && argc > 2 && !self) {
			for (size_t i = 0; i < sizeof(commands) / sizeof(commands[0]); i++)
				if (strcmp(argv[2], commands[i].name) == 0)
					a.cmd = commands[i].cmd;
			if (a.cmd == CORDON_CMD_HELP)
				return cordon_err(err, EINVAL, "help: unknown command '%s'",
						  argv[2]);
			a.help = true;
		}
		*out = a;
		return 0;
	}
	int r = parse_options(argc - 1, argv + 1, &a, err);
	if (r < 0) {
		cordon_args_free(&a);
		return r;
	}
	*out = a;
	return 0;
}

void cordon_args_free(struct cordon_args *a)
{
	for (int c = 0; c < CORDON_CLASS_COUNT; c++)
		cordon_strv_free(&a->extra[c]);
	cordon_strv_free(&a->extra_env);
	cordon_strv_free(&a->extra_sockets);
	cordon_strv_free(&a->toolchains);
	cordon_strv_free(&a->extra_domains);
}
