/* A repository's objects and refs, as git keeps them on disk (see
 * cordon/gitobj.h): loose objects (objects/XX/REST, a zlib stream of
 * "KIND SIZE\0DATA"), packs (objects/pack/pack-*.idx, versions 1 and 2,
 * and the .pack beside each: an object whole, or as a delta against
 * another by offset or by name), alternates (objects/info/alternates),
 * loose refs and packed-refs. Written from git's documentation
 * (gitformat-pack, gitrepository-layout). Everything here was written by
 * a session that may be hostile: every read is bounded, files are read
 * with pread (never mapped: one cut short under a mapping would kill the
 * launcher), and what an object holds is taken only once it hashes to its
 * name. Runs outside the sandbox. */
#include "cordon/gitobj.h"

#include <dirent.h>
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/inflate.h"
#include "cordon/sha256.h"
#include "util.h"

#define OBJ_MAX     (32u << 20) /* an object larger is not read */
#define DELTA_DEPTH 512         /* deltas on deltas, deeper: not read */
#define PACKS_MAX   512         /* packs past these: the database is not read */
#define DIRS_MAX    16          /* object directories (its own and alternates) */
/* What a database inflates in all, past which it reads no more: a session
 * could otherwise hold the launcher at its end for hours with deep chains
 * of large deltas (cordon inflates ~50 MB/s here: 5 s at most). */
#define INFLATE_BUDGET (256ull << 20)

struct pack {
	FILE *idx, *pack;
	uint32_t fanout[256];
	int version; /* the index's: 1 or 2 */
	off_t pack_size;
};

struct cordon_git_odb {
	size_t hs;
	char *dirs[DIRS_MAX]; /* object directories */
	size_t n_dirs;
	struct pack *packs;
	size_t n_packs;
	bool broken;    /* more than is read, or an index not read */
	uint64_t spent; /* bytes inflated (INFLATE_BUDGET) */
};

/* N more bytes to inflate: 0, or -E2BIG past the budget. */
static int spend(struct cordon_git_odb *db, uint64_t n)
{
	if (n > INFLATE_BUDGET - db->spent)
		return -E2BIG;
	db->spent += n;
	return 0;
}

static uint32_t be32(const unsigned char *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

static bool pread_full(FILE *f, void *buf, size_t n, off_t at)
{
	for (size_t got = 0; got < n;) {
		ssize_t r = pread(fileno(f), (char *)buf + got, n - got, at + (off_t)got);
		if (r < 0 && errno == EINTR)
			continue;
		if (r <= 0)
			return false;
		got += (size_t)r;
	}
	return true;
}

static void pack_open(struct cordon_git_odb *db, const char *dir, const char *name)
{
	size_t n = strlen(name);
	char path[PATH_MAX];
	if (n < 9 || strcmp(name + n - 4, ".idx") != 0 ||
	    (size_t)snprintf(path, sizeof(path), "%s/pack/%s", dir, name) >= sizeof(path))
		return;
	if (db->n_packs >= PACKS_MAX) {
		db->broken = true;
		return;
	}
	struct pack p = {.idx = cordon_fopen_regular(path)};
	if ((size_t)snprintf(path, sizeof(path), "%s/pack/%.*s.pack", dir, (int)(n - 4), name) <
	    sizeof(path))
		p.pack = cordon_fopen_regular(path);
	struct stat st, ist;
	unsigned char head[8 + 1024];
	if (!p.idx || !p.pack) {
		/* (An index without its pack, or the pack without its index,
		 * git does not read either.) */
		goto drop;
	}
	if (fstat(fileno(p.pack), &st) < 0 || fstat(fileno(p.idx), &ist) < 0 ||
	    !pread_full(p.idx, head, sizeof(head), 0))
		goto broken;
	p.pack_size = st.st_size;
	const unsigned char *fan = head;
	p.version = 1;
	if (memcmp(head, "\377tOc", 4) == 0) {
		if (be32(head + 4) != 2)
			goto broken;
		p.version = 2;
		fan = head + 8;
	}
	for (size_t i = 0; i < 256; i++) {
		p.fanout[i] = be32(fan + 4 * i);
		if (i && p.fanout[i] < p.fanout[i - 1])
			goto broken;
	}
	/* (The index must be long enough for what its fanout counts.) */
	uint64_t entries = p.fanout[255];
	uint64_t need =
		p.version == 2 ? 8 + 1024 + entries * (db->hs + 8) : 1024 + entries * (db->hs + 4);
	if ((uint64_t)ist.st_size < need)
		goto broken;
	struct pack *grown = realloc(db->packs, (db->n_packs + 1) * sizeof(*grown));
	if (!grown)
		goto broken;
	db->packs = grown;
	db->packs[db->n_packs++] = p;
	return;
broken:
	db->broken = true;
drop:
	if (p.idx)
		(void)fclose(p.idx);
	if (p.pack)
		(void)fclose(p.pack);
}

static void add_dir(struct cordon_git_odb *db, const char *dir, int depth);

/* LINE, a C-style quoted path ("a\"b\101"), unquoted in place as git's
 * unquote_c_style does; false if it is not one. */
static bool unquote(char *line)
{
	char *in = line + 1, *out = line;
	for (; *in && *in != '"'; in++) {
		if (*in != '\\') {
			*out++ = *in;
			continue;
		}
		static const char from[] = "abfnrtv\\\"", to[] = "\a\b\f\n\r\t\v\\\"";
		const char *k = *++in ? strchr(from, *in) : NULL;
		if (k) {
			*out++ = to[k - from];
		} else if (in[0] >= '0' && in[0] <= '3' && in[1] >= '0' && in[1] <= '7' &&
			   in[2] >= '0' && in[2] <= '7') {
			*out++ = (char)((in[0] - '0') << 6 | (in[1] - '0') << 3 | (in[2] - '0'));
			in += 2;
		} else {
			return false;
		}
	}
	if (*in != '"')
		return false;
	*out = '\0';
	return true;
}

/* The alternates DIR's info/alternates names (git follows them six deep:
 * link_alt_odb_entries), each line a path or a quoted one. One cordon
 * cannot read whole leaves the database unread (broken). */
static void alternates(struct cordon_git_odb *db, const char *dir, int depth)
{
	char path[PATH_MAX];
	if ((size_t)snprintf(path, sizeof(path), "%s/info/alternates", dir) >= sizeof(path))
		return;
	size_t len;
	struct stat st;
	cleanup_free char *text = cordon_read_regular(path, 1u << 20, &len);
	if (text && (stat(path, &st) < 0 || (size_t)st.st_size != len || strlen(text) != len))
		db->broken = true;
	for (char *line = text, *next; line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		if (!*line || *line == '#')
			continue;
		if (*line == '"' && !unquote(line)) {
			db->broken = true;
			continue;
		}
		char alt[PATH_MAX];
		if ((size_t)snprintf(alt, sizeof(alt), "%s%s%s", *line == '/' ? "" : dir,
				     *line == '/' ? "" : "/", line) < sizeof(alt))
			add_dir(db, alt, depth + 1);
		else
			db->broken = true;
	}
}

static void add_dir(struct cordon_git_odb *db, const char *dir, int depth)
{
	char real[PATH_MAX];
	if (depth > 6 || !realpath(dir, real))
		return;
	for (size_t i = 0; i < db->n_dirs; i++)
		if (strcmp(db->dirs[i], real) == 0)
			return;
	if (db->n_dirs >= DIRS_MAX || !(db->dirs[db->n_dirs] = strdup(real))) {
		db->broken = true;
		return;
	}
	db->n_dirs++;
	char packs[PATH_MAX];
	DIR *d = (size_t)snprintf(packs, sizeof(packs), "%s/pack", real) < sizeof(packs)
			 ? opendir(packs)
			 : NULL;
	for (struct dirent *de; d && (de = readdir(d));)
		pack_open(db, real, de->d_name);
	if (d)
		closedir(d);
	alternates(db, real, depth);
}

struct cordon_git_odb *cordon_git_odb_open(const char *common, size_t hs)
{
	struct cordon_git_odb *db = calloc(1, sizeof(*db));
	if (!db)
		return NULL;
	db->hs = hs;
	char dir[PATH_MAX];
	snprintf(dir, sizeof(dir), "%s/objects", common);
	add_dir(db, dir, 0);
	return db;
}

void cordon_git_odb_free(struct cordon_git_odb *db)
{
	if (!db)
		return;
	for (size_t i = 0; i < db->n_packs; i++) {
		(void)fclose(db->packs[i].idx);
		(void)fclose(db->packs[i].pack);
	}
	free(db->packs);
	for (size_t i = 0; i < db->n_dirs; i++)
		free(db->dirs[i]);
	free(db);
}

static const char *const kinds[] = {NULL, "commit", "tree", "blob", "tag"};

/* The name (HS bytes) git gives KIND's DATA (LEN bytes), into OID. */
static void name_of(size_t hs, int kind, const void *data, size_t len,
		    unsigned char oid[CORDON_SHA256_SIZE])
{
	struct cordon_sha256 c;
	char head[32];
	int n = snprintf(head, sizeof(head), "%s %zu", kinds[kind], len);
	if (hs == CORDON_SHA1_SIZE)
		cordon_sha1_init(&c);
	else
		cordon_sha256_init(&c);
	cordon_sha256_update(&c, head, (size_t)n + 1);
	cordon_sha256_update(&c, data, len);
	if (hs == CORDON_SHA1_SIZE)
		cordon_sha1_final(&c, oid);
	else
		cordon_sha256_final(&c, oid);
}

/* Whether KIND's DATA (LEN bytes) is what OID names. */
static bool named(const struct cordon_git_odb *db, int kind, const unsigned char *data, size_t len,
		  const unsigned char *oid)
{
	unsigned char got[CORDON_SHA256_SIZE];
	name_of(db->hs, kind, data, len, got);
	return memcmp(got, oid, db->hs) == 0;
}

void cordon_git_blob_name(size_t hs, const void *data, size_t len, unsigned char *oid)
{
	unsigned char got[CORDON_SHA256_SIZE];
	name_of(hs, CORDON_GIT_BLOB, data, len, got);
	memcpy(oid, got, hs);
}

/* The loose object OID in DIR: 0 (into *TYPE, *DATA, *LEN, unchecked),
 * -ENOENT, or -EBADMSG (not one git reads whole). */
static int loose(struct cordon_git_odb *db, const char *dir, const unsigned char *oid, int *type,
		 unsigned char **data, size_t *len)
{
	char path[PATH_MAX], hex[2 * CORDON_SHA256_SIZE + 1];
	for (size_t i = 0; i < db->hs; i++)
		snprintf(hex + 2 * i, 3, "%02x", oid[i]);
	if ((size_t)snprintf(path, sizeof(path), "%s/%.2s/%s", dir, hex, hex + 2) >= sizeof(path))
		return -ENOENT;
	size_t n;
	errno = 0;
	cleanup_free char *raw = cordon_read_regular(path, OBJ_MAX + 4096, &n);
	if (!raw)
		return errno == ENOMEM ? -ENOMEM : -ENOENT;
	unsigned char *out;
	size_t out_len;
	uint64_t left = INFLATE_BUDGET - db->spent;
	int e = cordon_inflate((unsigned char *)raw, n, SIZE_MAX,
			       left < OBJ_MAX + 64 ? (size_t)left : OBJ_MAX + 64, &out, &out_len,
			       NULL);
	if (e == -EBADMSG && left < OBJ_MAX + 64)
		return -E2BIG; /* (perhaps only longer than the budget left) */
	if (e < 0)
		return e == -ENOMEM ? e : -EBADMSG;
	(void)spend(db, out_len);
	unsigned char *nul = memchr(out, '\0', out_len < 64 ? out_len : 64);
	char *sp = nul ? memchr(out, ' ', (size_t)(nul - out)) : NULL;
	int kind = 0;
	for (int k = 1; sp && k <= 4; k++)
		if ((size_t)(sp - (char *)out) == strlen(kinds[k]) &&
		    memcmp(out, kinds[k], strlen(kinds[k])) == 0)
			kind = k;
	char *end = NULL;
	unsigned long long size = kind ? strtoull(sp + 1, &end, 10) : 0;
	if (!kind || end != (char *)nul || size != out_len - (size_t)(nul + 1 - out)) {
		free(out);
		return -EBADMSG;
	}
	memmove(out, nul + 1, (size_t)size);
	*type = kind;
	*data = out;
	*len = (size_t)size;
	return 0;
}

/* Where pack P holds OID: its offset, 0 if it lists none, -1 if its
 * index cannot be read there. */
static off_t pack_find(const struct cordon_git_odb *db, const struct pack *p,
		       const unsigned char *oid)
{
	uint32_t lo = oid[0] ? p->fanout[oid[0] - 1] : 0, hi = p->fanout[oid[0]];
	uint32_t n = p->fanout[255];
	unsigned char at[CORDON_SHA256_SIZE + 8];
	while (lo < hi) {
		uint32_t mid = lo + (hi - lo) / 2;
		off_t where = p->version == 2 ? 8 + 1024 + (off_t)mid * (off_t)db->hs
					      : 1024 + (off_t)mid * (off_t)(db->hs + 4) + 4;
		if (!pread_full(p->idx, at, db->hs, where))
			return -1;
		int c = memcmp(oid, at, db->hs);
		if (c == 0) {
			if (p->version == 1) {
				if (!pread_full(p->idx, at, 4, where - 4))
					return -1;
				return be32(at) ? (off_t)be32(at) : -1;
			}
			off_t small = 8 + 1024 + (off_t)n * (off_t)(db->hs + 4) + (off_t)mid * 4;
			if (!pread_full(p->idx, at, 4, small))
				return -1;
			uint32_t off = be32(at);
			if (!(off & 0x80000000u))
				return off ? (off_t)off : -1;
			off_t large = 8 + 1024 + (off_t)n * (off_t)(db->hs + 8) +
				      (off_t)(off & 0x7fffffffu) * 8;
			if (!pread_full(p->idx, at, 8, large))
				return -1;
			uint64_t big = (uint64_t)be32(at) << 32 | be32(at + 4);
			return big && big < (uint64_t)INT64_MAX ? (off_t)big : -1;
		}
		if (c < 0)
			hi = mid;
		else
			lo = mid + 1;
	}
	return 0;
}

static int read_any(struct cordon_git_odb *db, const unsigned char *oid, int depth, bool all,
		    int *type, unsigned char **data, size_t *len);

/* DELTA (LEN bytes) applied to BASE (BASE_LEN): into *OUT, *OUT_LEN. */
static int patch(const unsigned char *base, size_t base_len, const unsigned char *delta, size_t len,
		 unsigned char **out, size_t *out_len)
{
	const unsigned char *p = delta, *end = delta + len;
	uint64_t sizes[2] = {0, 0};
	for (int k = 0; k < 2; k++)
		for (unsigned shift = 0;; shift += 7) {
			if (p == end || shift > 56)
				return -EBADMSG;
			sizes[k] |= (uint64_t)(*p & 0x7f) << shift;
			if (!(*p++ & 0x80))
				break;
		}
	if (sizes[1] > OBJ_MAX)
		return -E2BIG;
	if (sizes[0] != base_len)
		return -EBADMSG;
	size_t want = (size_t)sizes[1], at = 0;
	unsigned char *o = malloc(want ? want : 1);
	if (!o)
		return -ENOMEM;
	while (p < end) {
		unsigned op = *p++;
		if (op & 0x80) {
			size_t off = 0, n = 0;
			for (unsigned b = 0; b < 4; b++)
				if (op & (1u << b)) {
					if (p == end)
						goto bad;
					off |= (size_t)*p++ << (8 * b);
				}
			for (unsigned b = 0; b < 3; b++)
				if (op & (0x10u << b)) {
					if (p == end)
						goto bad;
					n |= (size_t)*p++ << (8 * b);
				}
			if (!n)
				n = 0x10000;
			if (off > base_len || n > base_len - off || n > want - at)
				goto bad;
			memcpy(o + at, base + off, n);
			at += n;
		} else if (op) {
			if (op > (size_t)(end - p) || op > want - at)
				goto bad;
			memcpy(o + at, p, op);
			p += op;
			at += op;
		} else {
			goto bad;
		}
	}
	if (at != want)
		goto bad;
	*out = o;
	*out_len = want;
	return 0;
bad:
	free(o);
	return -EBADMSG;
}

/* The object at OFF in pack P (a delta's base resolved), unchecked. */
static int pack_at(struct cordon_git_odb *db, struct pack *p, off_t off, int depth, int *type,
		   unsigned char **data, size_t *len)
{
	if (depth > DELTA_DEPTH)
		return -E2BIG;
	unsigned char head[64 + CORDON_SHA256_SIZE];
	if (off < 12 || off >= p->pack_size)
		return -EBADMSG;
	size_t got = (size_t)(p->pack_size - off) < sizeof(head) ? (size_t)(p->pack_size - off)
								 : sizeof(head);
	if (!pread_full(p->pack, head, got, off))
		return -EBADMSG;
	size_t at = 0;
	int kind = (head[0] >> 4) & 7;
	uint64_t size = head[0] & 15;
	for (unsigned shift = 4; head[at++] & 0x80; shift += 7) {
		if (at >= got || shift > 56)
			return -EBADMSG;
		size |= (uint64_t)(head[at] & 0x7f) << shift;
	}
	off_t base_off = 0;
	unsigned char base_oid[CORDON_SHA256_SIZE];
	if (kind == 6) { /* OFS_DELTA */
		if (at >= got)
			return -EBADMSG;
		uint64_t back = head[at] & 0x7f;
		while (head[at++] & 0x80) {
			if (at >= got || back > (UINT64_MAX >> 8))
				return -EBADMSG;
			back = ((back + 1) << 7) | (head[at] & 0x7f);
		}
		if (back == 0 || back >= (uint64_t)off)
			return -EBADMSG;
		base_off = off - (off_t)back;
	} else if (kind == 7) { /* REF_DELTA */
		if (got - at < db->hs)
			return -EBADMSG;
		memcpy(base_oid, head + at, db->hs);
		at += db->hs;
	} else if (kind < 1 || kind > 4) {
		return -EBADMSG;
	}
	if (size > OBJ_MAX || spend(db, size) < 0)
		return -E2BIG;
	/* (Deflate adds 5 bytes a stored block of 64 KiB, 11 in all.) */
	uint64_t most = size + size / 1024 + 64;
	uint64_t left = (uint64_t)(p->pack_size - off) - at;
	size_t clen = (size_t)(most < left ? most : left);
	unsigned char *z = malloc(clen ? clen : 1);
	if (!z)
		return -ENOMEM;
	unsigned char *raw = NULL;
	size_t raw_len = 0;
	int e = pread_full(p->pack, z, clen, off + (off_t)at) ? 0 : -EBADMSG;
	if (e == 0)
		e = cordon_inflate(z, clen, (size_t)size, OBJ_MAX, &raw, &raw_len, NULL);
	free(z);
	if (e < 0)
		return e == -ENOMEM ? e : -EBADMSG;
	if (kind <= 4) {
		*type = kind;
		*data = raw;
		*len = raw_len;
		return 0;
	}
	unsigned char *base;
	size_t base_len;
	e = kind == 6 ? pack_at(db, p, base_off, depth + 1, type, &base, &base_len)
		      : read_any(db, base_oid, depth + 1, false, type, &base, &base_len);
	if (e == 0) {
		e = patch(base, base_len, raw, raw_len, data, len);
		free(base);
		if (e == 0 && spend(db, *len) < 0) {
			free(*data);
			*data = NULL;
			e = -E2BIG;
		}
	}
	free(raw);
	return e == -ENOENT ? -EBADMSG : e;
}

/* Each copy of OID read and checked, the first kept; or (not ALL, a
 * delta's base: what is made of it is checked) the first that reads.
 * (Every copy of every base would cost K^D reads for a chain D deep in K
 * packs: minutes, round 54e F7.) */
static int read_any(struct cordon_git_odb *db, const unsigned char *oid, int depth, bool all,
		    int *type, unsigned char **data, size_t *len)
{
	if (db->broken)
		return -E2BIG;
	int found = -ENOENT;
	*data = NULL;
	for (size_t i = 0; i < db->n_dirs + db->n_packs; i++) {
		int kind;
		unsigned char *got = NULL;
		size_t n;
		int e;
		if (i < db->n_dirs) {
			e = loose(db, db->dirs[i], oid, &kind, &got, &n);
		} else {
			struct pack *p = &db->packs[i - db->n_dirs];
			off_t off = pack_find(db, p, oid);
			e = off == 0  ? -ENOENT
			    : off < 0 ? -EBADMSG
				      : pack_at(db, p, off, depth, &kind, &got, &n);
		}
		if (e == -ENOENT)
			continue;
		if (!all && e == 0) {
			*type = kind;
			*data = got;
			*len = n;
			return 0;
		}
		if (e == 0 && !named(db, kind, got, n, oid))
			e = -EBADMSG;
		if (e < 0 || *data) {
			free(got);
			if (e < 0) {
				free(*data);
				*data = NULL;
				return e;
			}
			continue;
		}
		*type = kind;
		*data = got;
		*len = n;
		found = 0;
	}
	return found;
}

int cordon_git_odb_read(struct cordon_git_odb *db, const unsigned char *oid, int *type,
			unsigned char **data, size_t *len)
{
	return read_any(db, oid, 0, true, type, data, len);
}

bool cordon_git_oid_parse(const char *hex, size_t hs, unsigned char *oid)
{
	for (size_t i = 0; i < hs; i++) {
		unsigned v = 0;
		for (int k = 0; k < 2; k++) {
			char c = hex[2 * i + (size_t)k];
			unsigned d = c >= '0' && c <= '9'   ? (unsigned)(c - '0')
				     : c >= 'a' && c <= 'f' ? (unsigned)(c - 'a' + 10)
							    : 16;
			if (d == 16)
				return false;
			v = v * 16 + d;
		}
		oid[i] = (unsigned char)v;
	}
	return true;
}

/* ---- refs ---- */

#define REFS_MAX        100000
#define PACKED_REFS_MAX (64u << 20)

/* A ref's TEXT as git's files backend parses it: "ref: NAME" (into
 * TARGET: a symbolic ref) or an object id in either case, then only
 * white space (into HEX, lower case). Whether it was either. */
static bool ref_text(const char *text, char hex[65], char *target, size_t size)
{
	hex[0] = '\0';
	if (target)
		target[0] = '\0';
	if (strncmp(text, "ref:", 4) == 0) {
		const char *t = text + 4 + strspn(text + 4, " \t\r\n\v\f");
		size_t n = strcspn(t, " \t\r\n");
		if (!target || !n || n >= size)
			return false;
		memcpy(target, t, n);
		target[n] = '\0';
		return true;
	}
	size_t n = strspn(text, "0123456789abcdefABCDEF");
	if ((n != 40 && n != 64) || (text[n] && !strchr(" \t\r\n\v\f", text[n])))
		return false;
	for (size_t i = 0; i < n; i++)
		hex[i] = (char)(text[i] >= 'A' && text[i] <= 'F' ? text[i] - 'A' + 'a' : text[i]);
	hex[n] = '\0';
	return true;
}

/* The loose refs under DIR (named PREFIX) into OUT ("NAME HEX"), and the
 * symbolic ones into SYMS ("NAME\tTARGET"), DEPTH levels at most. */
static int loose_refs(const char *dir, const char *prefix, int depth, struct cordon_strv *out,
		      struct cordon_strv *syms)
{
	DIR *d = depth > 64 ? NULL : opendir(dir);
	int e = 0;
	for (struct dirent *de; d && e == 0 && (de = readdir(d));) {
		if (de->d_name[0] == '.' || out->n + syms->n >= REFS_MAX)
			continue;
		char path[PATH_MAX], name[PATH_MAX];
		struct stat st;
		if ((size_t)snprintf(path, sizeof(path), "%s/%s", dir, de->d_name) >=
			    sizeof(path) ||
		    (size_t)snprintf(name, sizeof(name), "%s/%s", prefix, de->d_name) >=
			    sizeof(name) ||
		    lstat(path, &st) < 0)
			continue;
		if (S_ISDIR(st.st_mode)) {
			e = loose_refs(path, name, depth + 1, out, syms);
			continue;
		}
		char hex[65], target[PATH_MAX], *line = NULL;
		size_t len = 0;
		/* (A link is a symbolic ref where it names one, refs/...; else
		 * git reads through it.) */
		cleanup_free char *text = NULL;
		if (S_ISLNK(st.st_mode)) {
			ssize_t n = readlink(path, target, sizeof(target) - 1);
			target[n > 0 ? n : 0] = '\0';
			if (strncmp(target, "refs/", 5) == 0) {
				line = cordon_join3(name, "\t", target);
				e = line ? cordon_strv_push_take(syms, line) : -ENOMEM;
				continue;
			}
		}
		text = cordon_read_regular(path, 4096, &len);
		if (!text || !ref_text(text, hex, target, sizeof(target)))
			continue;
		line = hex[0] ? cordon_join3(name, " ", hex) : cordon_join3(name, "\t", target);
		e = line ? cordon_strv_push_take(hex[0] ? out : syms, line) : -ENOMEM;
	}
	if (d)
		closedir(d);
	return e;
}

/* The files git keeps beside the refs that name a commit an operation
 * goes back to or goes on with (git reset --hard ORIG_HEAD, rebase
 * --abort, a stash applied as a rebase or merge ends, cherry-pick
 * --abort): judged as refs (round 54e F2). */
static const char *const pseudo_refs[] = {
	"ORIG_HEAD", "MERGE_HEAD", "CHERRY_PICK_HEAD", "REVERT_HEAD", "AUTO_MERGE",
	"MERGE_AUTOSTASH", "FETCH_HEAD", "rebase-merge/orig-head", "rebase-merge/autostash",
	"rebase-merge/onto", "rebase-merge/stopped-sha", "rebase-merge/amend",
	"rebase-apply/orig-head", "rebase-apply/autostash", "rebase-apply/onto",
	"rebase-apply/abort-safety", "sequencer/head", "sequencer/abort-safety",
	/* (git bisect reset checks out what it names) */
	"BISECT_START", NULL};

static int by_ref(const void *a, const void *b)
{
	const char *x = *(const char *const *)a, *y = *(const char *const *)b;
	size_t nx = strcspn(x, " "), ny = strcspn(y, " ");
	int c = strncmp(x, y, nx < ny ? nx : ny);
	return c ? c : (nx > ny) - (nx < ny);
}

const char *cordon_git_ref_value(const struct cordon_strv *refs, const char *name)
{
	/* (HEAD first, as cordon_git_refs puts it; the rest sorted.) */
	size_t from = refs->n && strncmp(refs->v[0], "HEAD ", 5) == 0;
	if (from && strcmp(name, "HEAD") == 0)
		return refs->v[0] + 5;
	cleanup_free char *probe = cordon_join3(name, " ", "");
	const char *key = probe;
	char **at = probe && refs->n > from
			    ? bsearch(&key, refs->v + from, refs->n - from, sizeof(char *), by_ref)
			    : NULL;
	return at ? strchr(*at, ' ') + 1 : NULL;
}

int cordon_git_refs(const char *gitdir, const char *common, struct cordon_strv *out)
{
	char path[PATH_MAX], hex[65];
	struct stat st;
	snprintf(path, sizeof(path), "%s/reftable", common);
	if (lstat(path, &st) == 0)
		return -ENOTSUP;
	struct cordon_strv loose = {0}, all = {0}, syms = {0};
	snprintf(path, sizeof(path), "%s/refs", common);
	int e = loose_refs(path, "refs", 0, &loose, &syms);
	snprintf(path, sizeof(path), "%s/packed-refs", common);
	size_t len;
	cleanup_free char *packed = e ? NULL : cordon_read_regular(path, PACKED_REFS_MAX, &len);
	for (char *line = packed, *next; e == 0 && line && *line; line = next) {
		next = strchr(line, '\n');
		if (next)
			*next++ = '\0';
		else
			next = line + strlen(line);
		size_t hexlen = strspn(line, "0123456789abcdefABCDEF");
		/* (A tab after the id too, as git takes it: round 54i.) */
		if (*line == '#' || *line == '^' || (line[hexlen] != ' ' && line[hexlen] != '\t') ||
		    !ref_text(line, hex, NULL, 0) || all.n >= REFS_MAX)
			continue;
		char *ref = cordon_join3(line + hexlen + 1, " ", hex);
		e = ref ? cordon_strv_push_take(&all, ref) : -ENOMEM;
	}
	/* (Loose over packed: the packed ones sorted, each loose one put
	 * in its place.) */
	if (all.n)
		qsort(all.v, all.n, sizeof(char *), by_ref);
	for (size_t i = 0; e == 0 && i < loose.n; i++) {
		char **at =
			all.n ? bsearch(&loose.v[i], all.v, all.n, sizeof(char *), by_ref) : NULL;
		if (at) {
			free(*at);
			*at = loose.v[i];
			loose.v[i] = NULL;
		} else {
			e = cordon_strv_push(&all, loose.v[i]);
		}
	}
	cordon_strv_free(&loose);
	/* The pseudo-refs in the git dir (those its listing shows: most are
	 * missing, and a failed open for each cost 36 calls a repository). */
	struct cordon_strv names = {0};
	DIR *gd = e ? NULL : opendir(gitdir);
	for (struct dirent *de; gd && (de = readdir(gd));)
		if (de->d_name[0] != '.' && cordon_strv_push(&names, de->d_name) < 0)
			e = -ENOMEM;
	if (gd)
		closedir(gd);
	for (size_t i = 0; e == 0 && pseudo_refs[i]; i++) {
		char first[32];
		snprintf(first, sizeof(first), "%.*s", (int)strcspn(pseudo_refs[i], "/"),
			 pseudo_refs[i]);
		if (!cordon_strv_contains(&names, first))
			continue;
		snprintf(path, sizeof(path), "%s/%s", gitdir, pseudo_refs[i]);
		cleanup_free char *text = cordon_read_regular(path, 4096, &len);
		size_t word = text ? strcspn(text, " \t\r\n") : 0;
		char *ref = NULL;
		if (text && ref_text(text, hex, NULL, 0)) {
			ref = cordon_join3(pseudo_refs[i], " ", hex);
		} else if (word && strcmp(pseudo_refs[i], "BISECT_START") == 0 &&
			   text[word + strspn(text + word, "\r\n")] == '\0' &&
			   !strstr(text, "..") && text[0] != '/' && text[0] != '-') {
			/* (The branch git bisect reset checks out: refs/heads/NAME.) */
			text[word] = '\0';
			char *sym = cordon_join3(pseudo_refs[i], "\trefs/heads/", text);
			e = sym ? cordon_strv_push_take(&syms, sym) : -ENOMEM;
		} else if (word) {
			/* Any other form (an abbreviated id, a revision: git reads
			 * one as any revision, round 56b F6): one cordon cannot
			 * follow, "?", said where it changed. */
			ref = cordon_join3(pseudo_refs[i], " ", "?");
		}
		if (ref)
			e = cordon_strv_push_take(&all, ref);
	}
	cordon_strv_free(&names);
	if (all.n)
		qsort(all.v, all.n, sizeof(char *), by_ref);
	/* Symbolic refs (and HEAD), each to what it names, five deep. */
	snprintf(path, sizeof(path), "%s/HEAD", gitdir);
	cleanup_free char *head = e ? NULL : cordon_read_regular(path, 4096, &len);
	char target[PATH_MAX];
	if (head && ref_text(head, hex, target, sizeof(target))) {
		char *h = hex[0] ? cordon_join3("HEAD", "\t#", hex)
				 : cordon_join3("HEAD", "\t", target);
		e = h ? cordon_strv_push_take(&syms, h) : -ENOMEM;
	}
	struct cordon_strv resolved = {0};
	for (size_t i = 0; e == 0 && i < syms.n; i++) {
		char *tab = strchr(syms.v[i], '\t');
		const char *value = tab[1] == '#' ? tab + 2 : NULL;
		char name[PATH_MAX];
		snprintf(name, sizeof(name), "%s", tab + 1);
		char found[65];
		for (int hop = 0; !value && hop < 5; hop++) {
			value = cordon_git_ref_value(&all, name);
			bool next = false;
			for (size_t k = 0; !value && k < syms.n; k++) {
				size_t n = strcspn(syms.v[k], "\t");
				if (strlen(name) == n && strncmp(syms.v[k], name, n) == 0 &&
				    syms.v[k][n + 1] != '#') {
					snprintf(name, sizeof(name), "%s", syms.v[k] + n + 1);
					next = true;
					break;
				}
			}
			/* (A name git reads as a file in the git dir, a pseudo-ref
			 * of the session's own, EVIL_HEAD: round 54i.) */
			if (!value && !next && name[0] != '/' && !strstr(name, "..") &&
			    (size_t)snprintf(path, sizeof(path), "%s/%s", gitdir, name) <
				    sizeof(path)) {
				cleanup_free char *text = cordon_read_regular(path, 4096, &len);
				if (text && ref_text(text, found, target, sizeof(target)) &&
				    found[0])
					value = found;
				else if (text && target[0])
					snprintf(name, sizeof(name), "%s", target);
				else
					break;
			}
		}
		*tab = '\0';
		/* (One that leads where cordon cannot follow: "?", said if it
		 * changed, not left out.) */
		char *ref = cordon_join3(syms.v[i], " ", value ? value : "?");
		e = ref ? cordon_strv_push_take(&resolved, ref) : -ENOMEM;
	}
	cordon_strv_free(&syms);
	/* (HEAD first, the rest sorted.) */
	for (size_t i = 0; e == 0 && i < resolved.n; i++)
		if (strncmp(resolved.v[i], "HEAD ", 5) != 0)
			e = cordon_strv_push(&all, resolved.v[i]);
	if (all.n)
		qsort(all.v, all.n, sizeof(char *), by_ref);
	for (size_t i = 0; e == 0 && i < resolved.n; i++)
		if (strncmp(resolved.v[i], "HEAD ", 5) == 0) {
			e = cordon_strv_push(&all, resolved.v[i]);
			if (e == 0) {
				char *h = all.v[all.n - 1];
				memmove(all.v + 1, all.v, (all.n - 1) * sizeof(char *));
				all.v[0] = h;
			}
		}
	cordon_strv_free(&resolved);
	if (e < 0) {
		cordon_strv_free(&all);
		return e;
	}
	*out = all;
	return 0;
}
