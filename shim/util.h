/* Internal helpers: scope-bound cleanup (systemd/bubblewrap style). */
#ifndef CORDON_UTIL_H
#define CORDON_UTIL_H

#include <errno.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdlib.h>
#include <unistd.h>

static inline void cordon_freep(void *p)
{
	free(*(void **)p);
}
static inline void cordon_closep(int *fd)
{
	if (*fd >= 0) {
		int saved = errno;
		close(*fd);
		errno = saved;
	}
}

#define cleanup_free  __attribute__((cleanup(cordon_freep)))
#define cleanup_close __attribute__((cleanup(cordon_closep)))

/* Hand ownership out of a cleanup-managed variable. */
#define TAKE_PTR(p)                                                                                \
	({                                                                                         \
		__typeof__(p) _tp = (p);                                                           \
		(p) = NULL;                                                                        \
		_tp;                                                                               \
	})
#define TAKE_FD(fd)                                                                                \
	({                                                                                         \
		int _tf = (fd);                                                                    \
		(fd) = -1;                                                                         \
		_tf;                                                                               \
	})

#define ARRAY_SIZE(a) (sizeof(a) / sizeof((a)[0]))

/* Make room for NEED bytes in the growing buffer *BUF of capacity *CAP
 * (doubling from FIRST). False when out of memory; *BUF is then unchanged. */
static inline bool cordon_reserve(char **buf, size_t *cap, size_t need, size_t first)
{
	if (need <= *cap)
		return true;
	size_t c = *cap ? *cap : first;
	while (c < need)
		c *= 2;
	char *b = realloc(*buf, c);
	if (!b)
		return false;
	*buf = b;
	*cap = c;
	return true;
}

#endif
