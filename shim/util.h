/* Internal helpers: scope-bound cleanup (systemd/bubblewrap style). */
#ifndef CORDON_UTIL_H
#define CORDON_UTIL_H

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <sys/stat.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
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

/* NAME is "." or "..", a directory entry no walk takes. */
static inline bool cordon_dot_or_dotdot(const char *name)
{
	return name[0] == '.' && (name[1] == '\0' || (name[1] == '.' && name[2] == '\0'));
}

/* An array BUF of *CAP elements of ELEM bytes that must hold NEED: BUF when
 * it does, else BUF reallocated to the next doubling from FIRST, *CAP
 * updated. NULL when out of memory (or the size overflows); BUF is then
 * unchanged. Growing one slot at a time moved a launch's vectors through
 * every allocator size class on the way. */
static inline void *cordon_grow(void *buf, size_t *cap, size_t need, size_t elem, size_t first)
{
	if (need <= *cap)
		return buf;
	size_t c = *cap ? *cap : first;
	while (c < need) {
		if (c > SIZE_MAX / 2)
			return NULL;
		c *= 2;
	}
	if (c > SIZE_MAX / elem)
		return NULL;
	void *b = realloc(buf, c * elem);
	if (b)
		*cap = c;
	return b;
}

/* Make room for NEED bytes in the growing buffer *BUF of capacity *CAP
 * (doubling from FIRST). False when out of memory; *BUF is then unchanged. */
static inline bool cordon_reserve(char **buf, size_t *cap, size_t need, size_t first)
{
	char *b = cordon_grow(*buf, cap, need, 1, first);
	if (!b)
		return false;
	*buf = b;
	return true;
}

/* At most LEN bytes of S (up to its NUL) into BUF (SIZE bytes, cut to
 * fit), each one that is not printable ASCII as "?": a name a session
 * chose, about to be shown on a terminal, carries no escape sequence.
 * Returns BUF. */
static inline char *cordon_printable(const char *s, size_t len, char *buf, size_t size)
{
	size_t k = 0;
	for (; k < len && s[k] && k + 1 < size; k++) {
		unsigned char c = (unsigned char)s[k];
		buf[k] = s[k];
		if (c < 0x20 || c >= 0x7f)
			buf[k] = '?';
	}
	buf[k] = '\0';
	return buf;
}

/* PATH (relative to the directory AT, or AT_FDCWD) opened for reading if
 * it is a regular file (a final link is followed), else -1. For files a
 * session may have written: a FIFO in their place would make an ordinary
 * open wait for a writer forever, and a device would not end. */
static inline int cordon_open_regular_at(int at, const char *path)
{
	/* Nothing else is opened, not even for a moment: opening a device
	 * can act (a watchdog starts), and cordon may be root. */
	struct stat before, st;
#ifdef O_PATH
	int held = openat(at, path, O_PATH | O_CLOEXEC);
	if (held < 0)
		return -1;
	char proc[40];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", held);
	bool regular = fstat(held, &before) == 0 && S_ISREG(before.st_mode);
	int fd = regular ? open(proc, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC) : -1;
	close(held);
	if (regular && fd < 0 && errno == ENOENT) /* no /proc: checked after */
		fd = openat(at, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC);
#else
	int fd = fstatat(at, path, &before, 0) == 0 && S_ISREG(before.st_mode)
			 ? openat(at, path, O_RDONLY | O_NONBLOCK | O_NOCTTY | O_CLOEXEC)
			 : -1;
#endif
	if (fd < 0)
		return -1;
	if (fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_ino == before.st_ino &&
	    st.st_dev == before.st_dev)
		return fd;
	close(fd);
	return -1;
}

/* PATH opened for reading if it is a regular file (cordon_open_regular_at),
 * else NULL. */
static inline FILE *cordon_fopen_regular(const char *path)
{
	int fd = cordon_open_regular_at(AT_FDCWD, path);
	FILE *f = fd >= 0 ? fdopen(fd, "r") : NULL;
	if (!f && fd >= 0)
		close(fd);
	return f;
}

/* A, B and C joined (malloc'd), or NULL: asprintf("%s%s%s") without its
 * formatting, which musl runs twice (the launch builds ~1,000 paths so:
 * 18 % of its instructions). */
static inline char *cordon_join3(const char *a, const char *b, const char *c)
{
	size_t na = strlen(a), nb = strlen(b), nc = strlen(c);
	char *s = malloc(na + nb + nc + 1);
	if (s) {
		memcpy(s, a, na + 1);
		memcpy(s + na, b, nb + 1);
		memcpy(s + na + nb, c, nc + 1);
	}
	return s;
}

/* What the regular file PATH holds (cordon_fopen_regular), its first MAX
 * bytes at most, NUL-terminated, malloc'd, with its length in *LEN; NULL
 * with errno ENOMEM when out of memory, else NULL for no such file. */
static inline char *cordon_read_regular(const char *path, size_t max, size_t *len)
{
	/* (A descriptor, not a FILE: stdio's buffer is a mapping of its own,
	 * two more system calls a file, and cordon reads hundreds a launch.) */
	int fd = cordon_open_regular_at(AT_FDCWD, path);
	struct stat st;
	if (fd < 0 || fstat(fd, &st) < 0) {
		if (fd >= 0)
			close(fd);
		errno = ENOENT;
		return NULL;
	}
	size_t size = (size_t)st.st_size < max ? (size_t)st.st_size : max;
	char *text = malloc(size + 1);
	size_t got = 0;
	while (text && got < size) {
		ssize_t r = read(fd, text + got, size - got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			break;
		got += (size_t)r;
	}
	close(fd);
	if (!text) {
		errno = ENOMEM;
		return NULL;
	}
	*len = got;
	text[got] = '\0';
	return text;
}

/* read(2) and write(2) until LEN bytes are done, through EINTR: 0, -errno,
 * or -EPIPE when the other end is gone first. */
static inline int cordon_read_full(int fd, void *buf, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t n = read(fd, (char *)buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		off += (size_t)n;
	}
	return 0;
}

static inline int cordon_write_full(int fd, const void *buf, size_t len)
{
	for (size_t off = 0; off < len;) {
		ssize_t n = write(fd, (const char *)buf + off, len - off);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EPIPE;
		off += (size_t)n;
	}
	return 0;
}

/* CLOCK_MONOTONIC in milliseconds: the deadlines of waits and polls. */
static inline long cordon_now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

#endif
