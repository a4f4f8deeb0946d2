/* cordon — error reporting shared by the library, the launcher and the shim.
 *
 * Library functions never print. A failing function returns a negative errno
 * value and fills a caller-owned `struct cordon_error` with a one-line message
 * that names the file, key or path involved ("<file>: <key>: expected ...").
 * Programs print it as "cordon: <msg>". */
#ifndef CORDON_ERROR_H
#define CORDON_ERROR_H

#include <stddef.h>

#define CORDON_EXIT_FAILURE  125 /* cordon itself failed; nothing ran */
#define CORDON_EXIT_NOEXEC   126 /* command found but not executable */
#define CORDON_EXIT_NOTFOUND 127

struct cordon_error {
	int code;       /* positive errno-style code, 0 when unset */
	char msg[1024]; /* one line, no trailing newline */
};

/* Fill ERR (may be NULL) with a formatted message and CODE. Returns -CODE
 * (or -EINVAL when CODE is 0), so callers can write `return cordon_err(...)`. */
int cordon_err(struct cordon_error *err, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
