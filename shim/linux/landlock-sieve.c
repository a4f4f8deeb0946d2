/* The sieve (Linux): a Landlock rule that reaches hidden paths, or the
 * closed directory, granted entry by entry.
 *
 * Landlock only adds access, and a rule on a directory covers whatever is
 * made in it later. The default read rule on ~/.config reaches
 * ~/.config/gh: the mount that hides it (guard.c) holds the inode it was
 * put on, so a ~/.config/gh made outside while the session runs (a first
 * `gh auth login`), one removed and made again, or a credential file
 * replaced by a rename (a credential helper's save) was readable, and the
 * watch that puts the mount back (reguard.c) comes a moment late: time
 * enough to open it, and an open directory reads what is written in it
 * later.
 *
 * Sieved, a directory's own rule keeps only the rights on the names in it
 * (FS_NAMES: list them; in a writable rule, remove them and move them), and
 * each entry in it gets the rule's rights of its own, but a hidden one,
 * which gets none, and one on the way to a hidden path or to the closed
 * directory, which is sieved the same. So a name made in a sieved
 * directory after the rules were added has no rule: nothing of it can be
 * read or written inside (until the next session). That is harmless only
 * where the session itself makes no names: under a read-only rule, on a
 * read-only mount (the guards' ~/.config in a writable home), and in the
 * closed directory and the directories on the way to it. A writable
 * directory on the way to a hidden path keeps its whole rule: there the
 * mount and the watch keep the hidden path, as before. */
#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include "cordon/guard.h"
#include "landlock-compat.h"
#include "linux.h"
#include "util.h"

/* What a sieved directory's own rule keeps: the rights on the names in it,
 * never those on what its files hold. */
#define FS_NAMES                                                                                   \
	(LANDLOCK_ACCESS_FS_READ_DIR | LANDLOCK_ACCESS_FS_REMOVE_DIR |                             \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_REFER)

/* Whether no name can be made in DIR (DFD) inside, so that sieving it takes
 * nothing the session could make: see the top of this file. */
static bool names_made_outside_only(const struct cordon_sieve *s, const char *dir, int dfd,
				    bool writes)
{
	struct statvfs vfs;
	return !writes || cordon_sieve_toward_closed(s, dir, writes) ||
	       (fstatvfs(dfd, &vfs) == 0 && (vfs.f_flag & ST_RDONLY));
}

static int sieve_dir(int ruleset, const struct cordon_sieve *s, const char *dir, uint64_t allowed,
		     bool writes, bool nofollow, struct cordon_error *err)
{
	int dfd = cordon_open_rule_path(dir, O_RDONLY | O_DIRECTORY | O_CLOEXEC, nofollow);
	if (dfd < 0)
		return cordon_landlock_open_failed(dir, err);
	if (!names_made_outside_only(s, dir, dfd, writes)) {
		int r = cordon_landlock_add_fd_rule(ruleset, dfd, dir, allowed, err);
		close(dfd);
		return r;
	}
	int r = cordon_landlock_add_fd_rule(ruleset, dfd, dir, allowed & FS_NAMES, err);
	DIR *d = r < 0 ? NULL : fdopendir(dfd);
	if (!d) {
		close(dfd);
		return r < 0 ? r : cordon_landlock_open_failed(dir, err);
	}
	struct dirent *e;
	while (r >= 0 && (e = readdir(d))) {
		if (cordon_dot_or_dotdot(e->d_name))
			continue;
		char path[PATH_MAX];
		if (snprintf(path, sizeof(path), "%s/%s", strcmp(dir, "/") ? dir : "", e->d_name) >=
		    (int)sizeof(path))
			continue;
		if (cordon_sieve_hidden(s, path))
			continue;
		unsigned char type = e->d_type;
		struct stat st;
		if (type == DT_UNKNOWN && fstatat(dfd, e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
			type = S_ISDIR(st.st_mode) ? DT_DIR : S_ISLNK(st.st_mode) ? DT_LNK : DT_REG;
		/* A link gets none: Landlock judges the path it leads to. */
		if (type == DT_LNK)
			continue;
		if (type == DT_DIR && (cordon_sieve_hides_beneath(s, path) ||
				       cordon_sieve_toward_closed(s, path, writes))) {
			r = sieve_dir(ruleset, s, path, allowed, writes, nofollow, err);
			continue;
		}
		/* (A file's rights alone on what is no directory: the kernel
		 * refuses a directory's there, which cost a second call for
		 * each of the thousands of files a pattern's directories
		 * hold.) */
		int fd = openat(dfd, e->d_name, O_PATH | O_NOFOLLOW | O_CLOEXEC);
		r = fd < 0 ? cordon_landlock_open_failed(path, err)
			   : cordon_landlock_add_fd_rule(
				     ruleset, fd, path,
				     type == DT_DIR ? allowed : allowed & FS_FILE_RIGHTS, err);
		if (fd >= 0)
			close(fd);
	}
	closedir(d);
	return r;
}

int cordon_sieve_add(int ruleset, const struct cordon_sieve *s, const struct cordon_rule *rule,
		     uint64_t allowed, struct cordon_error *err)
{
	return sieve_dir(ruleset, s, cordon_sieve_rule_path(s, rule), allowed,
			 rule->access & CORDON_ACCESS_WRITE, rule->nofollow, err);
}
