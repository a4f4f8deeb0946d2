/* Test helpers: temporary worlds and real processes, judged from outside. */
#ifndef CORDON_TEST_HELPERS_H
#define CORDON_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>

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

#endif
