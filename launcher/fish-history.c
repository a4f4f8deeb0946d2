/* fish's history in a session: the project's file, hard-linked into the
 * session's own data directory (fish keeps its history in its data
 * directory, which must be the session's own: launcher/history.c), and
 * what fish saved there alone merged back as the session ends.
 *
 * fish appends to the file it finds (through the link: the project's file
 * grows as the session runs). About one save in 25 it rewrites the file
 * instead: a new file in the data directory, renamed over the old. With a
 * symbolic link there fish renamed its new file to where the link led, in
 * another mount of the session's view (EXDEV), and dropped the commands
 * of that save. Through a hard link the rename stays in the session's own
 * directory, and the commands since are in that file only: the launcher
 * appends to the project's file each entry it does not hold. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/file.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "launcher.h"
#include "util.h"

/* Larger history files are not merged (fish keeps far fewer entries). */
#define FISH_HISTORY_MAX (64L << 20)

int launcher_fish_history_open(const char *hist)
{
	int hd = open(hist, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int fd = hd < 0 ? -1 : openat(hd, "fish", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int e = errno;
	if (hd >= 0)
		close(hd);
	if (fd < 0)
		return e == ENOTDIR || e == ELOOP ? -ELOOP : -e;
	int hf = openat(fd, "fish_history",
			O_RDWR | O_CREAT | O_APPEND | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC, 0600);
	e = errno;
	close(fd);
	struct stat st;
	if (hf >= 0 && (fstat(hf, &st) < 0 || !S_ISREG(st.st_mode))) {
		close(hf);
		return -ELOOP;
	}
	return hf < 0 ? -e : hf;
}

int launcher_fish_history_link(int hf, const char *fish_dir)
{
	char from[64];
	snprintf(from, sizeof(from), "/proc/self/fd/%d", hf);
	int dir = open(fish_dir, O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (dir < 0)
		return -errno;
	/* The very file opened (the name may have changed since). */
	int r = linkat(AT_FDCWD, from, dir, "fish_history", AT_SYMLINK_FOLLOW) < 0 ? -errno : 0;
	close(dir);
	return r;
}

/* FD's whole content (a regular file no larger than FISH_HISTORY_MAX),
 * NUL-ended, in *BUF; its length, or -errno. */
static ssize_t read_all(int fd, char **buf)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (st.st_size > FISH_HISTORY_MAX)
		return -EFBIG;
	size_t cap = (size_t)st.st_size + 1, len = 0;
	char *b = malloc(cap + 1);
	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t n = pread(fd, b + len, cap - len, (off_t)len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			free(b);
			return -errno;
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len == cap) { /* grew since: read no more than the bound */
			if (cap > (size_t)FISH_HISTORY_MAX) {
				free(b);
				return -EFBIG;
			}
			char *nb = realloc(b, cap * 2 + 1);
			if (!nb) {
				free(b);
				return -ENOMEM;
			}
			b = nb;
			cap *= 2;
		}
	}
	b[len] = '\0';
	*buf = b;
	return (ssize_t)len;
}

/* The entry of BUF (LEN long) at *POS: a line that does not start with a
 * space, and the lines after it that do ("- cmd: …", "  when: …",
 * "  paths:", "    - …"). Its length, with its newline; 0 at the end. */
static size_t next_entry(const char *buf, size_t len, size_t *pos)
{
	size_t start = *pos, i = start;
	if (i >= len)
		return 0;
	do {
		const char *nl = memchr(buf + i, '\n', len - i);
		i = nl ? (size_t)(nl - buf) + 1 : len;
	} while (i < len && buf[i] == ' ');
	*pos = i;
	return i - start;
}

static uint64_t entry_hash(const char *s, size_t n)
{
	uint64_t h = 1469598103934665603ULL; /* FNV-1a */
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 1099511628211ULL;
	return h;
}

static int by_value(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
	return x < y ? -1 : x > y;
}

/* Each entry of OWN missing from PROJECT's file appended to it, as one
 * write, under fish's own lock (flock), waited for a second at most: a
 * session's process could hold it forever. */
static int merge(int project, const char *own, size_t own_len)
{
	char *have = NULL;
	ssize_t have_len = read_all(project, &have);
	if (have_len < 0)
		return (int)have_len;
	size_t n = 0, cap = 64;
	uint64_t *seen = malloc(cap * sizeof(*seen));
	size_t pos = 0, len;
	while (seen && (len = next_entry(have, (size_t)have_len, &pos))) {
		if (n == cap) {
			uint64_t *ns = realloc(seen, 2 * cap * sizeof(*seen));
			if (!ns)
				break;
			seen = ns;
			cap *= 2;
		}
		seen[n++] = entry_hash(have + pos - len, len);
	}
	bool ends = have_len == 0 || have[have_len - 1] == '\n';
	free(have);
	if (!seen || (size_t)pos < (size_t)have_len) {
		free(seen);
		return -ENOMEM;
	}
	qsort(seen, n, sizeof(*seen), by_value);
	char *out = malloc(own_len + 2);
	size_t out_len = 0;
	if (!out) {
		free(seen);
		return -ENOMEM;
	}
	if (!ends)
		out[out_len++] = '\n';
	pos = 0;
	while ((len = next_entry(own, own_len, &pos))) {
		uint64_t h = entry_hash(own + pos - len, len);
		if (bsearch(&h, seen, n, sizeof(h), by_value))
			continue;
		memcpy(out + out_len, own + pos - len, len);
		out_len += len;
		if (own[pos - 1] != '\n')
			out[out_len++] = '\n';
	}
	free(seen);
	int r = 0;
	if (out_len > (size_t)!ends) {
		for (int i = 0; i < 100 && flock(project, LOCK_EX | LOCK_NB) < 0; i++)
			nanosleep(&(struct timespec){0, 10 * 1000 * 1000}, NULL);
		for (size_t done = 0; done < out_len;) {
			ssize_t w = write(project, out + done, out_len - done);
			if (w < 0 && errno == EINTR)
				continue;
			if (w <= 0) {
				r = w < 0 ? -errno : -EIO;
				break;
			}
			done += (size_t)w;
		}
		(void)flock(project, LOCK_UN);
	}
	free(out);
	return r;
}

void launcher_fish_history_end(int own_dir, const char *hist)
{
	int fd = openat(own_dir, "fish", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int of =
		fd < 0 ? -1
		       : openat(fd, "fish_history", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	if (of < 0)
		return; /* none, or a link laid there: nothing of fish's */
	int hf = launcher_fish_history_open(hist);
	struct stat a, b;
	char *own = NULL;
	ssize_t own_len = -1;
	int r = 0;
	if (hf < 0)
		r = hf;
	else if (fstat(of, &a) < 0 || fstat(hf, &b) < 0)
		r = -errno;
	else if (S_ISREG(a.st_mode) && (a.st_dev != b.st_dev || a.st_ino != b.st_ino)) {
		/* fish rewrote its file: what it holds alone goes back */
		own_len = read_all(of, &own);
		r = own_len < 0 ? (int)own_len : merge(hf, own, (size_t)own_len);
	}
	if (r < 0) {
		char shown[PATH_MAX + 8];
		fprintf(stderr,
			"cordon: %s/fish/fish_history: fish's history of this session "
			"not kept: %s\n",
			cordon_printable(hist, SIZE_MAX, shown, sizeof(shown)), strerror(-r));
	}
	free(own);
	close(of);
	if (hf >= 0)
		close(hf);
}
