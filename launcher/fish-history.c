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
 * appends to the project's file each entry of this session's (its "when"
 * not before the session's start) that the project's file lacks among
 * what was added to it since (round 39a L2: read whole, a session's
 * 64 MiB of one-line entries cost the launcher 6 s and 400 MB, and a
 * project file past the bound refused every later merge). A note beside
 * the session's own directory (NAME.fish, where no session writes) says
 * where it goes, so a later launch merges what a killed launcher's
 * session saved before it removes the directory (round 39a L1). */
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

/* Larger parts are not merged (fish's own bound is 256k entries). */
#define FISH_HISTORY_MAX (16L << 20)

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

/* FD's content from FROM on (from 0 where it is shorter now: replaced),
 * NUL-ended, in *BUF: a regular file, no more than FISH_HISTORY_MAX of it.
 * Its length, or -errno. */
static ssize_t read_all(int fd, off_t from, char **buf)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode))
		return -EINVAL;
	if (from < 0 || from > st.st_size)
		from = 0;
	if (st.st_size - from > FISH_HISTORY_MAX)
		return -EFBIG;
	size_t cap = (size_t)(st.st_size - from) + 1, len = 0;
	char *b = malloc(cap + 1);
	if (!b)
		return -ENOMEM;
	for (;;) {
		ssize_t n = pread(fd, b + len, cap - len, from + (off_t)len);
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

/* Whether the entry E (N bytes) was run at SINCE or later ("  when: T"). */
static bool entry_since(const char *e, size_t n, long long since)
{
	for (const char *l = e; l && l < e + n;) {
		const char *nl = memchr(l, '\n', (size_t)(e + n - l));
		if ((size_t)(e + n - l) > 8 && memcmp(l, "  when: ", 8) == 0) {
			char *end;
			long long t = strtoll(l + 8, &end, 10);
			return end != l + 8 && t >= since;
		}
		l = nl ? nl + 1 : NULL;
	}
	return false;
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

/* What merge gathers: the entries to append (OUT), no more than
 * FISH_HISTORY_MAX. */
struct gather {
	const uint64_t *seen; /* what the project's file gained, sorted */
	size_t n_seen;
	long long since;
	char *out;
	size_t len;
};

/* The entry E (N bytes) added to G where it is this session's and new. */
static int gather_one(struct gather *g, const char *e, size_t n)
{
	uint64_t h = entry_hash(e, n);
	if (!entry_since(e, n, g->since) || bsearch(&h, g->seen, g->n_seen, sizeof(h), by_value))
		return 0;
	if (g->len + n + 1 > (size_t)FISH_HISTORY_MAX)
		return -EFBIG;
	memcpy(g->out + g->len, e, n);
	g->len += n;
	if (e[n - 1] != '\n')
		g->out[g->len++] = '\n';
	return 0;
}

/* The own file OWN read in pieces (fish's rewrite holds the whole
 * history, the project's older entries too), each entry given to G. */
static int gather_own(int own, struct gather *g)
{
	struct stat st;
	if (fstat(own, &st) < 0)
		return -errno;
	if (!S_ISREG(st.st_mode) || st.st_size > 16 * FISH_HISTORY_MAX)
		return -EFBIG;
	size_t cap = 1 << 20, len = 0;
	char *buf = malloc(cap);
	if (!buf)
		return -ENOMEM;
	int r = 0;
	for (off_t at = 0;;) {
		ssize_t got = len < cap ? pread(own, buf + len, cap - len, at) : 0;
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0) {
			r = -errno;
			break;
		}
		at += got;
		len += (size_t)got;
		bool end = got == 0 && len < cap;
		/* Whole entries: all but the last, which may go on (all at the
		 * end). */
		size_t pos = 0, keep = 0, n;
		while (r == 0 && (n = next_entry(buf, len, &pos))) {
			if (!end && pos == len)
				break; /* (the last: it may go on) */
			r = gather_one(g, buf + pos - n, n);
			keep = pos;
		}
		if (r < 0 || end)
			break;
		memmove(buf, buf + keep, len - keep);
		len -= keep;
		if (keep == 0 && len == cap) { /* one entry larger than the buffer */
			char *nb = cap < (size_t)FISH_HISTORY_MAX ? realloc(buf, cap * 2) : NULL;
			if (!nb) {
				r = -EFBIG;
				break;
			}
			buf = nb;
			cap *= 2;
		}
	}
	free(buf);
	return r;
}

/* Each entry of the own file OWN run since F's start and missing from
 * what PROJECT's file gained since, appended to it, as one write, under
 * fish's own lock (flock), waited for a second at most: a session's
 * process could hold it forever. */
static int merge(int project, const struct launcher_fish *f, int own)
{
	char *have = NULL;
	ssize_t have_len = read_all(project, (off_t)f->from, &have);
	if (have_len < 0)
		return (int)have_len;
	size_t n = 0, cap = 64;
	uint64_t *seen = malloc(cap * sizeof(*seen));
	if (!seen) {
		free(have);
		return -ENOMEM;
	}
	size_t pos = 0, len;
	while ((len = next_entry(have, (size_t)have_len, &pos))) {
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
	if ((size_t)pos < (size_t)have_len) {
		free(seen);
		return -ENOMEM;
	}
	qsort(seen, n, sizeof(*seen), by_value);
	struct gather g = {seen, n, f->since, malloc((size_t)FISH_HISTORY_MAX + 1), 0};
	int r = g.out ? 0 : -ENOMEM;
	if (r == 0 && !ends)
		g.out[g.len++] = '\n';
	if (r == 0)
		r = gather_own(own, &g);
	free(seen);
	if (r == 0 && g.len > (size_t)!ends) {
		for (int i = 0; i < 100 && flock(project, LOCK_EX | LOCK_NB) < 0; i++)
			nanosleep(&(struct timespec){0, 10L * 1000 * 1000}, NULL);
		for (size_t done = 0; done < g.len;) {
			ssize_t w = write(project, g.out + done, g.len - done);
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
	free(g.out);
	return r;
}

void launcher_fish_history_end(int own_dir, const struct launcher_fish *f)
{
	int fd = openat(own_dir, "fish", O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	int of =
		fd < 0 ? -1
		       : openat(fd, "fish_history", O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd >= 0)
		close(fd);
	if (of < 0)
		return; /* none, or a link laid there: nothing of fish's */
	int hf = launcher_fish_history_open(f->hist);
	struct stat a, b;
	int r = 0;
	if (hf < 0)
		r = hf;
	else if (fstat(of, &a) < 0 || fstat(hf, &b) < 0)
		r = -errno;
	else if (S_ISREG(a.st_mode) && (a.st_dev != b.st_dev || a.st_ino != b.st_ino))
		r = merge(hf, f, of); /* fish rewrote its file: what it holds alone goes back */
	if (r < 0) {
		char shown[PATH_MAX + 8];
		fprintf(stderr,
			"cordon: %s/fish/fish_history: fish's history of this session not kept: "
			"%s\n",
			cordon_printable(f->hist, SIZE_MAX, shown, sizeof(shown)), strerror(-r));
	}
	close(of);
	if (hf >= 0)
		close(hf);
}

int launcher_fish_note_write(const char *note, const struct launcher_fish *f)
{
	cleanup_free char *text = NULL;
	int n = asprintf(&text, "cordon-fish 1\n%lld\n%lld\n%s", f->from, f->since, f->hist);
	if (n < 0)
		return -ENOMEM;
	int fd = open(note, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0600);
	if (fd < 0)
		return -errno;
	int r = cordon_write_full(fd, text, (size_t)n) < 0 ? -EIO : 0;
	close(fd);
	if (r < 0)
		(void)unlink(note);
	return r;
}

void launcher_fish_note_end(int top, const char *name, int own_dir, const char *history)
{
	int fd = openat(top, name, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return;
	struct stat st;
	char text[PATH_MAX + 64];
	ssize_t got = fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_uid == geteuid()
			      ? read(fd, text, sizeof(text) - 1)
			      : -1;
	close(fd);
	if (got <= 0)
		return;
	text[got] = '\0';
	struct launcher_fish f = {0};
	char *end;
	if (strncmp(text, "cordon-fish 1\n", 14) != 0)
		return;
	f.from = strtoll(text + 14, &end, 10);
	if (*end != '\n')
		return;
	f.since = strtoll(end + 1, &end, 10);
	if (*end != '\n' || end[1] != '/')
		return;
	f.hist = end + 1;
	/* Only a project's directory of this state directory's history (round
	 * 39d G3: where a session could write the note, it named any
	 * DIR/fish/fish_history of the user's, the user's own fish's too). */
	size_t hn = strlen(history);
	const char *sub = f.hist + hn + 1;
	if (strncmp(f.hist, history, hn) != 0 || f.hist[hn] != '/' || !*sub || strchr(sub, '/') ||
	    strcmp(sub, ".") == 0 || strcmp(sub, "..") == 0)
		return;
	launcher_fish_history_end(own_dir, &f);
}
