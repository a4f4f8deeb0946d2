/* Whether the shim can load into a target, and whether a library is the
 * shim built with this cordon: ELF inspection (Linux). */
#include "cordon/exec.h"
#include "cordon/sandbox.h"
#include <dirent.h>
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/xattr.h>
#include <unistd.h>
#include "cordon/strv.h"
#include "shim-note.h"
#include "util.h"

/* Our own ELF class and machine, the ones the shim is built for. */
#if defined(__LP64__)
#define OUR_CLASS ELFCLASS64
typedef Elf64_Ehdr Ehdr;
typedef Elf64_Phdr Phdr;
typedef Elf64_Dyn Dyn;
#else
#define OUR_CLASS ELFCLASS32
typedef Elf32_Ehdr Ehdr;
typedef Elf32_Phdr Phdr;
typedef Elf32_Dyn Dyn;
#endif
#if defined(__x86_64__)
#define OUR_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define OUR_MACHINE EM_AARCH64
#elif defined(__i386__)
#define OUR_MACHINE EM_386
#elif defined(__arm__)
#define OUR_MACHINE EM_ARM
#elif defined(__riscv)
#define OUR_MACHINE EM_RISCV
#else
#define OUR_MACHINE EM_NONE
#endif
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define OUR_DATA ELFDATA2LSB
#else
#define OUR_DATA ELFDATA2MSB
#endif

/* The program's loader (PT_INTERP) into BUF: 1, 0 when it has none
 * (statically linked), -1 when it cannot be read or does not fit. */
static int elf_interp(int fd, const Ehdr *eh, char *buf, size_t size)
{
	if (eh->e_phentsize != sizeof(Phdr) || eh->e_phnum == 0 || eh->e_phnum > 512)
		return 0;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Phdr ph;
		off_t off = (off_t)eh->e_phoff + (off_t)i * (off_t)sizeof(Phdr);
		if (pread(fd, &ph, sizeof(ph), off) != (ssize_t)sizeof(ph))
			return 0;
		if (ph.p_type != PT_INTERP)
			continue;
		if (ph.p_filesz < 2 || ph.p_filesz > size ||
		    pread(fd, buf, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
			return -1;
		buf[ph.p_filesz - 1] = '\0';
		return 1;
	}
	return 0;
}

/* Whether binfmt_misc has handlers registered (an entry in its directory
 * besides "register" and "status"), which the kernel runs for a file that
 * is neither ELF nor #!. */
static bool binfmt_handlers(void)
{
	DIR *d = opendir("/proc/sys/fs/binfmt_misc");
	if (!d)
		return false;
	bool any = false;
	for (struct dirent *e; !any && (e = readdir(d));)
		any = !cordon_dot_or_dotdot(e->d_name) && strcmp(e->d_name, "register") != 0 &&
		      strcmp(e->d_name, "status") != 0;
	closedir(d);
	return any;
}

static bool preloadable(const char *path, int depth, const char **why)
{
	if (depth > 4) {
		*why = "interpreter chain too deep";
		return false;
	}
	struct stat st;
	if (stat(path, &st) < 0) {
		*why = "cannot stat the command";
		return false;
	}
	if (st.st_mode & (S_ISUID | S_ISGID)) {
		*why = "set-user/group-ID program (the loader ignores LD_PRELOAD)";
		return false;
	}
	/* File capabilities make the exec a secure one as well (AT_SECURE, for
	 * anyone but root): the loader skips LD_PRELOAD without a word, and
	 * the program would run with no sandbox until the confirmation's
	 * timeout. Any security.capability at all (an empty or malformed one
	 * fails the exec), or one that cannot be read, counts. */
	if (getxattr(path, "security.capability", NULL, 0) >= 0 ||
	    (errno != ENODATA && errno != ENOTSUP)) {
		*why = "program with file capabilities (the loader ignores LD_PRELOAD)";
		return false;
	}
	cleanup_close int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*why = "command is not readable";
		return false;
	}
	char head[256];
	ssize_t n = pread(fd, head, sizeof(head) - 1, 0);
	if (n < 0) {
		*why = "command is not readable";
		return false;
	}
	head[n] = '\0';
	if (n >= 2 && head[0] == '#' && head[1] == '!') {
		char *p = head + 2;
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t\n");
		if (len == 0 || p[0] != '/') {
			*why = "script without an absolute interpreter";
			return false;
		}
		p[len] = '\0';
		return preloadable(p, depth + 1, why);
	}
	if ((size_t)n < sizeof(Ehdr) || memcmp(head, ELFMAG, SELFMAG) != 0) {
		/* Neither ELF nor #!: execve fails with ENOEXEC and nothing
		 * runs, unless a binfmt_misc handler takes it (a static
		 * qemu-user one ignores the preload). */
		if (binfmt_handlers()) {
			*why = "neither ELF nor #!, and binfmt_misc handlers are registered";
			return false;
		}
		return true;
	}
	Ehdr eh;
	memcpy(&eh, head, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != OUR_CLASS || eh.e_machine != OUR_MACHINE) {
		*why = "program built for another architecture";
		return false;
	}
	char interp[PATH_MAX];
	int k = elf_interp(fd, &eh, interp, sizeof(interp));
	if (k == 0) {
		*why = "statically linked program";
		return false;
	}
	if (k < 0) {
		*why = "its loader (PT_INTERP) cannot be read";
		return false;
	}
#ifdef CORDON_SHIM_LOADER
	/* Another C library's loader cannot load the shim (musl's stops at its
	 * symbols; one that ignores LD_PRELOAD, or is no loader at all, would
	 * run the program as it is). */
	const char *base = strrchr(interp, '/');
	base = base ? base + 1 : interp;
	if (strncmp(base, CORDON_SHIM_LOADER, strlen(CORDON_SHIM_LOADER)) != 0) {
		*why = "its loader (PT_INTERP) is not the one the shim is built for";
		return false;
	}
#endif
	return true;
}

bool cordon_exec_preloadable(const char *path, const char **why)
{
	const char *dummy;
	if (!why)
		why = &dummy;
	/* Real and effective ids that differ (cordon started by a set-user-ID
	 * program that kept both): every exec is then a secure one, whatever
	 * the file, and the loader ignores LD_PRELOAD. */
	if (getuid() != geteuid() || getgid() != getegid()) {
		*why = "cordon runs with real and effective user or group IDs that differ (every "
		       "program then starts in secure mode, where the loader ignores LD_PRELOAD)";
		return false;
	}
	return preloadable(path, 0, why);
}

/* Whether TEST holds for a symbolic link met on the way to PATH (asked by
 * the link's own path: TEST judges the directory it lies in; round 36e F2:
 * asked by that directory, its parent was judged) (as the kernel walks it
 * at exec): a link in a directory the
 * session can write could be swapped between this check and the exec, so
 * that the exec runs a program nobody looked at (a virtualenv's
 * .venv/bin/python, node_modules/.bin/X). Also true when the walk cannot
 * be followed (too many links, a name too long). */
static bool links_any(const char *path, bool (*test)(const char *canon, void *arg), void *arg)
{
	char done[PATH_MAX], todo[PATH_MAX * 2];
	if (path[0] == '/')
		snprintf(done, sizeof(done), "/");
	else if (!getcwd(done, sizeof(done)))
		return true;
	if (snprintf(todo, sizeof(todo), "%s", path) >= (int)sizeof(todo))
		return true;
	for (int hops = 0; todo[0];) {
		char *name = todo + strspn(todo, "/");
		size_t len = strcspn(name, "/");
		char rest[PATH_MAX * 2];
		snprintf(rest, sizeof(rest), "%s", name + len);
		name[len] = '\0';
		if (len == 0 || strcmp(name, ".") == 0) {
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (strcmp(name, "..") == 0) {
			char *slash = strrchr(done, '/');
			if (slash)
				*(slash == done ? slash + 1 : slash) = '\0';
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		char next[PATH_MAX];
		if (snprintf(next, sizeof(next), "%s%s%s", done, strcmp(done, "/") ? "/" : "",
			     name) >= (int)sizeof(next))
			return true;
		struct stat st;
		if (lstat(next, &st) < 0)
			return false; /* nothing there: the exec fails */
		if (!S_ISLNK(st.st_mode)) {
			snprintf(done, sizeof(done), "%s", next);
			memmove(todo, rest, strlen(rest) + 1);
			continue;
		}
		if (++hops > 40 || test(next, arg))
			return true;
		char target[PATH_MAX];
		ssize_t n = readlink(next, target, sizeof(target) - 1);
		if (n <= 0)
			return true;
		target[n] = '\0';
		if (target[0] == '/')
			snprintf(done, sizeof(done), "/");
		if (snprintf(todo, sizeof(todo), "%s%s", target, rest) >= (int)sizeof(todo))
			return true;
	}
	return false;
}

#define DYN_MAX     4096u    /* dynamic entries looked at */
#define STRING_MAX  PATH_MAX /* a search path or name longer: as if TEST held */
#define OBJECTS_MAX 64       /* libraries followed: more, as if TEST held */

/* The file offset of the virtual address V in FD's loaded segments, or -1. */
static off_t file_offset(int fd, const Ehdr *eh, unsigned long long v)
{
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Phdr ph;
		off_t off = (off_t)eh->e_phoff + (off_t)i * (off_t)sizeof(Phdr);
		if (pread(fd, &ph, sizeof(ph), off) != (ssize_t)sizeof(ph))
			return -1;
		if (ph.p_type == PT_LOAD && v >= ph.p_vaddr && v - ph.p_vaddr < ph.p_filesz)
			return (off_t)(ph.p_offset + (v - ph.p_vaddr));
	}
	return -1;
}

/* An ELF object's dynamic section: its entries, and where its string
 * table lies in FD (read a string at a time: node's is 5 MB, 36e F6). */
struct dyn {
	Dyn *d;
	size_t n;
	int fd;
	off_t str;
	unsigned long long strsz;
	char buf[STRING_MAX + 1];
};

static void dyn_free(struct dyn *y)
{
	free(y->d);
}

/* FD's dynamic section into Y: 1, 0 where it has none, -1 where it cannot
 * be read whole (or is past the bounds). */
static int dyn_read(int fd, const Ehdr *eh, struct dyn *y)
{
	*y = (struct dyn){0};
	if (eh->e_phentsize != sizeof(Phdr) || eh->e_phnum > 512)
		return -1;
	Phdr dyn = {0};
	for (unsigned i = 0; i < eh->e_phnum && dyn.p_type != PT_DYNAMIC; i++) {
		off_t off = (off_t)eh->e_phoff + (off_t)i * (off_t)sizeof(Phdr);
		if (pread(fd, &dyn, sizeof(dyn), off) != (ssize_t)sizeof(dyn))
			return -1;
	}
	if (dyn.p_type != PT_DYNAMIC)
		return 0;
	y->n = dyn.p_filesz / sizeof(Dyn);
	if (y->n > DYN_MAX || !(y->d = calloc(y->n ? y->n : 1, sizeof(Dyn))) ||
	    pread(fd, y->d, y->n * sizeof(Dyn), (off_t)dyn.p_offset) !=
		    (ssize_t)(y->n * sizeof(Dyn)))
		return -1;
	unsigned long long strtab = 0;
	for (size_t i = 0; i < y->n && y->d[i].d_tag != DT_NULL; i++) {
		if (y->d[i].d_tag == DT_STRTAB)
			strtab = y->d[i].d_un.d_ptr;
		else if (y->d[i].d_tag == DT_STRSZ)
			y->strsz = y->d[i].d_un.d_val;
	}
	y->fd = fd;
	y->str = strtab ? file_offset(fd, eh, strtab) : -1;
	return y->str < 0 || y->strsz == 0 ? -1 : 1;
}

/* The string of entry I of Y (in Y's buffer, until the next call), or NULL
 * where it lies past the table or is longer than STRING_MAX. */
static const char *dyn_string(struct dyn *y, size_t i)
{
	unsigned long long v = y->d[i].d_un.d_val;
	if (v >= y->strsz)
		return NULL;
	size_t want = y->strsz - v < STRING_MAX + 1 ? (size_t)(y->strsz - v) : STRING_MAX + 1;
	ssize_t n = pread(y->fd, y->buf, want, y->str + (off_t)v);
	if (n <= 0 || !memchr(y->buf, '\0', (size_t)n))
		return NULL;
	return y->buf;
}

/* The search path LIST ($ORIGIN: ORIGIN) pushed onto DIRS, as the loader
 * will walk them (not resolved: a link on the way is looked at), each
 * once: false where one uses another $ token, is empty (the working
 * directory), is relative, or there are more than DIRS_MAX. */
#define DIRS_MAX 64
static bool push_dirs(const char *list, const char *origin, struct cordon_strv *dirs)
{
	for (const char *e = list; *e;) {
		size_t len = strcspn(e, ":");
		char dir[PATH_MAX];
		size_t k = 0;
		for (size_t j = 0; j < len && k < sizeof(dir) - 1;) {
			size_t o = strncmp(e + j, "$ORIGIN", 7) == 0     ? 7
				   : strncmp(e + j, "${ORIGIN}", 9) == 0 ? 9
									 : 0;
			if (!o && e[j] == '$')
				return false; /* $LIB, $PLATFORM: not followed here */
			if (!o) {
				dir[k++] = e[j++];
				continue;
			}
			k += (size_t)snprintf(dir + k, sizeof(dir) - k, "%s", origin);
			j += o;
		}
		if (k >= sizeof(dir) - 1 || k == 0 || dir[0] != '/')
			return false;
		dir[k] = '\0';
		e += len + (e[len] == ':');
		bool seen = false;
		for (size_t i = 0; !seen && i < dirs->n; i++)
			seen = strcmp(dirs->v[i], dir) == 0;
		if (!seen && (dirs->n >= DIRS_MAX || cordon_strv_push(dirs, dir) < 0))
			return false;
	}
	return true;
}

/* Whether TEST holds for a name in the directory DIR (as the loader walks
 * it: a link on the way is looked at, round 36d F3; missing: a session
 * may make it), or in one below it within DEPTH levels that the loader
 * looks in first (DIR/glibc-hwcaps/x86-64-v3 and the like: round 36c F3,
 * through a link too: 36d F2), *BUDGET entries at most (past it: as if it
 * held). */
static bool dir_any(const char *dir, int depth, int *budget,
		    bool (*test)(const char *canon, void *arg), void *arg)
{
	cleanup_free char *real = realpath(dir, NULL);
	char name[PATH_MAX + 16];
	if (!real)
		return true;
	snprintf(name, sizeof(name), "%s/%s", real, strcmp(real, "/") ? "lib" : "");
	if (test(name, arg) || links_any(dir, test, arg))
		return true;
	/* (The subdirectories glibc looks in: glibc-hwcaps/LEVEL, and
	 * before 2.37 the legacy ones, combined: tls/haswell/x86_64.) */
	static const char *const hwcaps[] = {"glibc-hwcaps", "tls",       "haswell",   "x86_64",
					     "avx512_1",     "x86-64-v2", "x86-64-v3", "x86-64-v4",
					     "i686",         "sse2",      "aarch64",   NULL};
	DIR *d = depth > 0 ? opendir(real) : NULL;
	bool any = false;
	for (struct dirent *e; !any && d && (e = readdir(d));) {
		size_t k = 0;
		while (hwcaps[k] && strcmp(hwcaps[k], e->d_name) != 0)
			k++;
		if (!hwcaps[k])
			continue;
		snprintf(name, sizeof(name), "%s/%s", strcmp(real, "/") ? real : "", e->d_name);
		any = --*budget < 0 || dir_any(name, depth - 1, budget, test, arg);
	}
	if (d)
		closedir(d);
	return any;
}

#define LOOKUPS_MAX 4096 /* libraries looked for in directories: more, as if TEST held */

struct objects {
	struct cordon_strv seen;
	int lookups;
	bool (*test)(const char *canon, void *arg);
	void *arg;
};

/* Where the loader looks for a library below a directory of its search
 * path, before the directory itself: glibc-hwcaps, and before glibc 2.37
 * the legacy subdirectories (x86_64; "" last: the directory). */
static const char *const hwcaps_sub[] = {"glibc-hwcaps/x86-64-v4/",
					 "glibc-hwcaps/x86-64-v3/",
					 "glibc-hwcaps/x86-64-v2/",
					 "glibc-hwcaps/power10/",
					 "glibc-hwcaps/power9/",
					 "glibc-hwcaps/z16/",
					 "glibc-hwcaps/z15/",
					 "glibc-hwcaps/z14/",
					 "glibc-hwcaps/z13/",
					 "tls/haswell/x86_64/",
					 "tls/haswell/",
					 "tls/x86_64/",
					 "tls/avx512_1/x86_64/",
					 "tls/avx512_1/",
					 "tls/",
					 "haswell/x86_64/",
					 "haswell/",
					 "avx512_1/x86_64/",
					 "avx512_1/",
					 "x86_64/",
					 "",
					 NULL};

static bool object_any(struct objects *o, const char *canon, const char *at, bool program,
		       const struct cordon_strv *chain);

/* Whether TEST holds for the library the loader finds at AT (as named:
 * the library itself, a link on the way to it, 36d F1), or for what it
 * loads in turn (CHAIN: the RPATHs it inherits). */
static bool library_any(struct objects *o, const char *at, const struct cordon_strv *chain)
{
	cleanup_free char *lib = realpath(at, NULL);
	return !lib || o->test(lib, o->arg) || links_any(at, o->test, o->arg) ||
	       object_any(o, lib, at, false, chain);
}

/* Whether TEST holds for a directory the loader searches for the
 * libraries of the ELF object CANON (found at AT: $ORIGIN is AT's
 * directory, as glibc takes it for a library, 36d F4; the program's, its
 * own resolved) (its DT_RUNPATH; or its DT_RPATH and those of the objects
 * that loaded it, CHAIN, as glibc inherits them), or the libraries it
 * finds there (or a link on the way to one, 36d F1), theirs and so on (a
 * library's own RUNPATH: 36c F1), or a library named by path: a library
 * there runs its constructors before the preloaded shim's (round 36: a
 * program whose RUNPATH led into a project an earlier session wrote). Also
 * true for an object with an audit library (DT_AUDIT, DT_DEPAUDIT: loaded
 * before the shim, 36c F2), a dynamic section that cannot be read, a
 * search path not followed here, and past OBJECTS_MAX objects or
 * LOOKUPS_MAX lookups. A library not found in those directories is the
 * system's (ld.so.cache, /lib, /usr/lib): not followed. (Followed depth
 * first, where glibc loads breadth first: the RPATH a library inherits is
 * that of the first object here that needs it.) */
static bool object_any(struct objects *o, const char *canon, const char *at, bool program,
		       const struct cordon_strv *chain)
{
	for (size_t i = 0; i < o->seen.n; i++)
		if (strcmp(o->seen.v[i], canon) == 0)
			return false;
	if (o->seen.n >= OBJECTS_MAX || cordon_strv_push(&o->seen, canon) < 0)
		return true;
	cleanup_close int fd = open(canon, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	Ehdr eh;
	if (fd < 0 || pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
	    memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0 || eh.e_ident[EI_CLASS] != OUR_CLASS)
		return !program; /* (a library the loader would refuse to load) */
	struct dyn y;
	int k = dyn_read(fd, &eh, &y);
	if (k <= 0) {
		dyn_free(&y);
		return k < 0;
	}
	char origin[PATH_MAX];
	snprintf(origin, sizeof(origin), "%s", at);
	char *slash = strrchr(origin, '/');
	if (slash)
		slash[slash == origin] = '\0';
	/* DIRS: where this object's libraries are looked for: its RUNPATH;
	 * or its RPATH, then CHAIN. NEXT: the chain of the libraries it
	 * loads. */
	bool any = false, runpath = false;
	struct cordon_strv dirs = {0}, next = {0};
	for (size_t i = 0; i < y.n && y.d[i].d_tag != DT_NULL; i++)
		runpath = runpath || y.d[i].d_tag == DT_RUNPATH;
	for (size_t i = 0; !any && i < y.n && y.d[i].d_tag != DT_NULL; i++) {
		Elf64_Sxword tag = (Elf64_Sxword)y.d[i].d_tag;
		const char *v = dyn_string(&y, i);
		/* (An audit library loads before the shim, 36c F2; a filter's
		 * library too, 36e F3.) */
		any = tag == DT_AUDIT || tag == DT_DEPAUDIT || tag == DT_AUXILIARY ||
		      tag == DT_FILTER ||
		      ((tag == DT_RUNPATH || (tag == DT_RPATH && !runpath)) &&
		       (!v || !push_dirs(v, origin, &dirs)));
	}
	for (size_t i = 0; !any && !runpath && i < dirs.n; i++)
		any = cordon_strv_push(&next, dirs.v[i]) < 0;
	for (size_t i = 0; !any && chain && i < chain->n; i++)
		any = cordon_strv_push(&next, chain->v[i]) < 0 ||
		      (!runpath && cordon_strv_push(&dirs, chain->v[i]) < 0);
	int budget = 64;
	for (size_t i = 0; !any && i < dirs.n; i++)
		any = dir_any(dirs.v[i], 3, &budget, o->test, o->arg) || budget < 0;
	for (size_t i = 0; !any && i < y.n && y.d[i].d_tag != DT_NULL; i++) {
		if (y.d[i].d_tag != DT_NEEDED)
			continue;
		const char *got = dyn_string(&y, i);
		char v[STRING_MAX + 1];
		/* (A $ token in a name: expanded by the loader, 36e F4.) */
		if (!got || !*got || strchr(got, '$')) {
			any = true;
			continue;
		}
		snprintf(v, sizeof(v), "%s", got);
		if (strchr(v, '/')) {
			any = library_any(o, v, &next);
			continue;
		}
		/* Each candidate the loader may take (a library of another
		 * machine is skipped for the next one, 36e F5), in each
		 * directory and the hwcaps ones below it (36e F1). */
		for (size_t j = 0; !any && j < dirs.n; j++)
			for (size_t h = 0; !any && hwcaps_sub[h]; h++) {
				char found[PATH_MAX * 3];
				any = ++o->lookups > LOOKUPS_MAX;
				snprintf(found, sizeof(found), "%s/%s%s", dirs.v[j], hwcaps_sub[h],
					 v);
				struct stat st;
				if (!any && lstat(found, &st) == 0)
					any = library_any(o, found, &next);
			}
	}
	cordon_strv_free(&dirs);
	cordon_strv_free(&next);
	dyn_free(&y);
	return any;
}

/* object_any of the program CANON. */
static bool runpath_any(const char *canon, bool (*test)(const char *canon, void *arg), void *arg)
{
	struct objects o = {.test = test, .arg = arg};
	bool any = object_any(&o, canon, canon, true, NULL);
	cordon_strv_free(&o.seen);
	return any;
}

bool cordon_exec_chain_any(const char *path, bool (*test)(const char *canon, void *arg), void *arg)
{
	char cur[PATH_MAX];
	snprintf(cur, sizeof(cur), "%s", path);
	for (int depth = 0; depth <= 4; depth++) {
		cleanup_free char *canon = realpath(cur, NULL);
		if (!canon || test(canon, arg) || links_any(cur, test, arg))
			return true;
		cleanup_close int fd = open(canon, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		char head[256];
		ssize_t n = fd < 0 ? -1 : pread(fd, head, sizeof(head) - 1, 0);
		if (n >= (ssize_t)sizeof(Ehdr) && memcmp(head, ELFMAG, SELFMAG) == 0) {
			/* Its loader runs first, and the shim loads after it: the
			 * loader is part of the chain (the kernel follows no
			 * further). A relative one is found from the working
			 * directory, the project: as if it held. */
			Ehdr eh;
			memcpy(&eh, head, sizeof(eh));
			char interp[PATH_MAX];
			int k = eh.e_ident[EI_CLASS] == OUR_CLASS
					? elf_interp(fd, &eh, interp, sizeof(interp))
					: 0;
			if (k <= 0)
				return false;
			if (interp[0] != '/')
				return true;
			cleanup_free char *loader = realpath(interp, NULL);
			return !loader || test(loader, arg) || links_any(interp, test, arg) ||
			       runpath_any(canon, test, arg);
		}
		if (n < 2 || head[0] != '#' || head[1] != '!')
			return false;
		head[n] = '\0';
		char *p = head + 2;
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t\n");
		if (len == 0 || p[0] != '/')
			return false; /* not run at all (see preloadable) */
		p[len] = '\0';
		snprintf(cur, sizeof(cur), "%s", p);
	}
	return true; /* too deep to follow: as if it held */
}

/* ---- the shim ------------------------------------------------------------------ */

static const unsigned char our_token[CORDON_SHIM_TOKEN_LEN] = {CORDON_BUILD_TOKEN_BYTES};

/* The notes in NOTES[0, LEN), padded to ALIGN (4, or 8 for an 8-aligned
 * segment): 1 ours with our token, -1 ours with another token, 0 none. */
static int scan_notes(const unsigned char *notes, size_t len, size_t align)
{
	int found = 0;
	size_t off = 0;
	while (len - off >= 3 * sizeof(uint32_t)) {
		uint32_t h[3];
		memcpy(h, notes + off, sizeof(h));
		off += sizeof(h);
		/* LEN is small (see cordon_shim_check): no sum below overflows. */
		if (h[0] > len || h[1] > len)
			break;
		size_t name = off, namesz = (h[0] + align - 1) & ~(align - 1);
		if (namesz > len - off)
			break;
		off += namesz;
		size_t desc = off, descsz = (h[1] + align - 1) & ~(align - 1);
		if (descsz > len - off)
			break;
		off += descsz;
		if (h[0] != sizeof(CORDON_SHIM_NOTE_NAME) || h[2] != CORDON_SHIM_NOTE_TYPE ||
		    memcmp(notes + name, CORDON_SHIM_NOTE_NAME, sizeof(CORDON_SHIM_NOTE_NAME)) != 0)
			continue;
		if (h[1] == CORDON_SHIM_TOKEN_LEN &&
		    memcmp(notes + desc, our_token, CORDON_SHIM_TOKEN_LEN) == 0)
			return 1;
		found = -1;
	}
	return found;
}

/* Whether FD (opened from PATH) is the shim: 0, or -errno with ERR. */
static int shim_judge(int fd, const char *path, struct cordon_error *err)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return cordon_err(err, errno, "%s: %s", path, strerror(errno));
	const char *why = NULL;
	Ehdr eh;
	if (!S_ISREG(st.st_mode))
		why = "not a regular file";
	else if (pread(fd, &eh, sizeof(eh), 0) != (ssize_t)sizeof(eh) ||
		 memcmp(eh.e_ident, ELFMAG, SELFMAG) != 0)
		why = "not an ELF file";
	else if (eh.e_ident[EI_CLASS] != OUR_CLASS || eh.e_ident[EI_DATA] != OUR_DATA ||
		 eh.e_machine != OUR_MACHINE || eh.e_type != ET_DYN)
		why = "not a shared library for this machine";
	else if (eh.e_phentsize != sizeof(Phdr) || eh.e_phnum == 0 || eh.e_phnum > 512)
		why = "no cordon build note in it";
	int found = 0;
	for (unsigned i = 0; !why && i < eh.e_phnum && found <= 0; i++) {
		Phdr ph;
		off_t off = (off_t)eh.e_phoff + (off_t)i * (off_t)sizeof(Phdr);
		if (pread(fd, &ph, sizeof(ph), off) != (ssize_t)sizeof(ph))
			break;
		/* Ours is a few dozen bytes, in a segment of a few notes. */
		if (ph.p_type != PT_NOTE || ph.p_filesz == 0 || ph.p_filesz > 4096)
			continue;
		unsigned char notes[4096];
		if (pread(fd, notes, ph.p_filesz, (off_t)ph.p_offset) != (ssize_t)ph.p_filesz)
			continue;
		int r = scan_notes(notes, ph.p_filesz, ph.p_align == 8 ? 8 : 4);
		if (r != 0)
			found = r;
	}
	/* On a file system mounted noexec the loader maps no code from it: it
	 * says "cannot be preloaded ... ignored" and runs the command with no
	 * sandbox until the confirmation times out (round 59g F1). */
	struct statvfs vfs;
	if (!why && found > 0 && fstatvfs(fd, &vfs) == 0 && (vfs.f_flag & ST_NOEXEC))
		return cordon_err(err, ENOEXEC,
				  "%s: on a file system mounted noexec: the loader would not "
				  "load it, and the command would start unsandboxed",
				  path);
	if (!why && found > 0)
		return 0;
	if (!why)
		why = found < 0 ? "the shim of another build of cordon: its build token differs"
				: "no cordon build note in it";
	return cordon_err(err, ENOEXEC, "%s: not the libcordon.so built with this cordon (%s)",
			  path, why);
}

int cordon_shim_open(const char *path, struct cordon_error *err)
{
	/* Non-blocking: a FIFO named here must not hang the launch. */
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return cordon_err(err, errno, "%s: %s", path, strerror(errno));
	/* Above stdio: it crosses the command's exec at this number, and one
	 * of 0-2 (a caller that closed stdin) would be the command's stdio. */
	if (fd <= STDERR_FILENO) {
		int hi = fcntl(fd, F_DUPFD_CLOEXEC, STDERR_FILENO + 1);
		int e = errno;
		close(fd);
		if (hi < 0)
			return cordon_err(err, e, "%s: %s", path, strerror(e));
		fd = hi;
	}
	int r = shim_judge(fd, path, err);
	if (r < 0) {
		close(fd);
		return r;
	}
	return fd;
}

int cordon_shim_check(const char *path, struct cordon_error *err)
{
	int fd = cordon_shim_open(path, err);
	if (fd < 0)
		return fd;
	close(fd);
	return 0;
}
