/* Test helpers: temporary worlds and real processes, judged from outside. */
#ifndef CORDON_TEST_HELPERS_H
#define CORDON_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A fresh directory under /tmp, unique per test; removed by tmp_cleanup. */
char *tmp_dir(const char *tag);
/* rm -rf DIR (no symlink following). */
void tmp_cleanup(const char *dir);
/* Write CONTENT to DIR/NAME (path joined), creating parents. Returns the path. */
char *write_file(const char *dir, const char *name, const char *content);
/* Contents of PATH (NUL-terminated) or NULL if it cannot be read. */
char *read_file(const char *path);
bool file_exists(const char *path);
char *path_join(const char *a, const char *b);

struct run_result {
	int status;  /* exit status, or 128+signal */
	char *out;   /* captured stdout */
	char *err;   /* captured stderr */
};

/* Run ARGV (argv[0] is a path) with environment ENVP (NULL: inherit) in CWD
 * (NULL: inherit), stdin from /dev/null, capturing stdout and stderr. Kills
 * the child after TIMEOUT_MS (status 128+SIGKILL). */
struct run_result run_cmd(char *const argv[], char *const envp[], const char *cwd,
			  int timeout_ms);
void run_free(struct run_result *r);

/* Convenience: run `cordon ARGS...` (NULL-terminated) in CWD with ENVP. */
struct run_result run_cordon(char *const envp[], const char *cwd, ...);

/* Start ARGV (envp, cwd) in the background, stdin from /dev/null and
 * stdout/stderr to /dev/null. Returns the pid. */
pid_t spawn_cmd(char *const argv[], char *const envp[], const char *cwd);
/* Start ARGV with a new pty as its controlling terminal and stdio. *MASTER
 * is the master side; *SLAVE_NAME (malloc'd) the slave's path. */
pid_t pty_spawn(char *const argv[], char *const envp[], const char *cwd, int *master,
		char **slave_name);
/* Whether PID is gone (no such process, or a zombie), waiting up to MS. */
bool wait_gone(pid_t pid, int ms);
/* Wait up to MS for PATH to exist. */
bool wait_exists(const char *path, int ms);

/* A temporary world for running cordon: DIR/proj (the project and cwd, with
 * bin/ holding copies of the test probes), DIR/outside (a secret and a victim
 * tree), DIR/home ($HOME, no cordon config). cfg is DIR/proj/cordon.json:
 * WORLD_BASE_RW plus EXTRA, so that /tmp, where DIR lives, is not granted and
 * "outside" is really outside. The environment has HOME, PATH (bin first),
 * TERM, SHELL=/bin/sh and SECRET_TOKEN=hunter2. */
#define SECRET "s3cr3t-c0ntent"
#define WORLD_BASE_RW                                                                              \
	"\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/tty\", \"/dev/pts\", "               \
	"\"/dev/ptmx\", \"/dev/urandom\", \"/dev/zero\"]}"

struct world {
	char *dir, *proj, *outside, *home, *bin, *secret, *cfg;
	char *env[16];
};

void world_init(struct world *w, const char *tag, const char *extra);
void world_free(struct world *w);
/* Add NAME=VALUE to the world's environment (replacing NAME if present). */
void world_setenv(struct world *w, const char *kv);
void copy_exec(const char *src, const char *dst);
/* cordon run --config CFG [OPTS, split on spaces] -- CMD... in the project. */
struct run_result run_in(struct world *w, const char *opts, char *const cmd[]);
/* run_in with /bin/sh -c SCRIPT (a format). */
struct run_result sh_in(struct world *w, const char *opts, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* Whether the file at PATH exists and contains NEEDLE. */
bool contains(const char *path, const char *needle);

#endif
