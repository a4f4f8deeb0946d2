/* The gitlinks of a git index (see gitindex.h): what `git status` goes down
 * into, whatever .gitmodules says (review 46c F1: a gitlink with no entry
 * there, or one its line reader took otherwise than git's config parser,
 * was not guarded).
 *
 * The index (Documentation/gitformat-index.txt): "DIRC", a version (2, 3
 * or 4) and an entry count, all big-endian; each entry 40 bytes of stat
 * data (its mode at offset 24), the object name (20 bytes, 32 where the
 * repository's object format is sha256), 2 bytes of flags (0x4000: 2 more
 * follow, version 3 and up; the low 12 bits the name's length, 0xfff past
 * it), then the name: NUL-terminated and padded to a multiple of 8 bytes
 * (versions 2 and 3), or in version 4 a varint of the bytes to drop from
 * the previous name's end, then the rest, NUL-terminated, unpadded. A
 * split index ("link" extension after the entries) keeps the rest of the
 * entries in sharedindex.<object name> beside it. */
#include "gitindex.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <unistd.h>

#define GITLINK 0160000

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* The object names' length in GITDIR's repository: 32 where its config
 * sets extensions.objectformat = sha256 (a line of it, any case), else 20. */
static size_t oid_len(const char *gitdir)
{
	char path[PATH_MAX], line[512];
	if ((size_t)snprintf(path, sizeof(path), "%s/config", gitdir) >= sizeof(path))
		return 20;
	FILE *f = fopen(path, "re");
	size_t n = 20;
	while (f && fgets(line, sizeof(line), f)) {
		char *s = line + strspn(line, " \t");
		if (strncasecmp(s, "objectformat", 12) == 0 && strstr(s + 12, "sha256"))
			n = 32;
	}
	if (f)
		(void)fclose(f); /* read only */
	return n;
}

/* The entries of the index MAP (LEN bytes): each gitlink's name to EACH.
 * Into LINK (OID bytes, when not NULL) the shared index a split one names.
 * 0, the callback's negative value, or -EINVAL for a map that is not an
 * index (what was read before it stands). */
static int entries(const unsigned char *map, size_t len, size_t oid,
		   int (*each)(const char *name, void *arg), void *arg, unsigned char *link)
{
	if (len < 12 || memcmp(map, "DIRC", 4) != 0)
		return -EINVAL;
	uint32_t version = be32(map + 4), count = be32(map + 8);
	if (version < 2 || version > 4)
		return -EINVAL;
	size_t at = 12;
	char name[PATH_MAX] = "";
	size_t name_len = 0;
	for (uint32_t i = 0; i < count; i++) {
		size_t start = at, flags_at = at + 40 + oid;
		if (flags_at + 2 > len)
			return -EINVAL;
		uint32_t mode = be32(map + at + 24);
		unsigned flags = (unsigned)map[flags_at] << 8 | map[flags_at + 1];
		at = flags_at + 2 + ((flags & 0x4000) && version >= 3 ? 2 : 0);
		if (version == 4) {
			size_t drop = 0;
			unsigned char c;
			do { /* git's offset varint: 7 bits a byte, +1 for each more */
				if (at >= len)
					return -EINVAL;
				c = map[at++];
				drop = (drop << 7) | (c & 0x7f);
				if (c & 0x80)
					drop++;
			} while ((c & 0x80) && drop < PATH_MAX);
			if (drop > name_len)
				return -EINVAL;
			name_len -= drop;
		} else {
			name_len = 0;
		}
		const unsigned char *nul = at < len ? memchr(map + at, '\0', len - at) : NULL;
		if (!nul)
			return -EINVAL;
		size_t rest = (size_t)(nul - (map + at));
		if (name_len + rest >= sizeof(name))
			return -EINVAL;
		memcpy(name + name_len, map + at, rest);
		name_len += rest;
		name[name_len] = '\0';
		at += rest + 1;
		if (version != 4) /* padded: the entry a multiple of 8 bytes */
			at = start + ((at - start + 7) & ~(size_t)7);
		if ((mode & 0170000) == GITLINK) {
			int e = each(name, arg);
			if (e < 0)
				return e;
		}
	}
	/* Extensions: a 4-byte signature, a 4-byte size, the data; the file
	 * ends with the checksum (OID bytes). */
	while (link && at + 8 + oid <= len) {
		uint32_t size = be32(map + at + 4);
		if (size > len - at - 8)
			break;
		if (memcmp(map + at, "link", 4) == 0 && size >= oid) {
			memcpy(link, map + at + 8, oid);
			return 1;
		}
		at += 8 + (size_t)size;
	}
	return 0;
}

/* The index file PATH mapped and read (see entries). -errno where it
 * cannot be opened: no index is no gitlink. */
static int read_index(const char *path, size_t oid, int (*each)(const char *name, void *arg),
		      void *arg, unsigned char *link)
{
	int fd = open(path, O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	struct stat st;
	int e = fstat(fd, &st) < 0 ? -errno : S_ISREG(st.st_mode) ? 0 : -EINVAL;
	void *map = e == 0 && st.st_size > 0
			    ? mmap(NULL, (size_t)st.st_size, PROT_READ, MAP_PRIVATE, fd, 0)
			    : MAP_FAILED;
	close(fd);
	if (map == MAP_FAILED)
		return e < 0 ? e : -EINVAL;
	e = entries(map, (size_t)st.st_size, oid, each, arg, link);
	munmap(map, (size_t)st.st_size);
	return e;
}

int cordon_git_index_gitlinks(const char *gitdir, int (*each)(const char *name, void *arg),
			      void *arg)
{
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof(path), "%s/index", gitdir) >= sizeof(path))
		return -ENAMETOOLONG;
	size_t oid = oid_len(gitdir);
	unsigned char link[32];
	int e = read_index(path, oid, each, arg, link);
	if (e != 1)
		return e == -ENOENT ? 0 : e;
	/* Split: the shared index holds the rest (what the link's bitmaps
	 * drop is read too: only more guarded). */
	int n = snprintf(path, sizeof(path), "%s/sharedindex.", gitdir);
	for (size_t i = 0; i < oid && n > 0 && (size_t)n + 3 < sizeof(path); i++)
		n += snprintf(path + n, sizeof(path) - (size_t)n, "%02x", link[i]);
	e = read_index(path, oid, each, arg, NULL);
	return e == -ENOENT ? 0 : e;
}
