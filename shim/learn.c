/* libcordon-learn.so: the recorder behind `cordon learn`. Preloaded next to
 * the shim (and kept in LD_PRELOAD for every descendant), it wraps the libc
 * functions through which programs touch files and, when one fails with
 * EACCES or EPERM, appends "KIND<TAB>ABSOLUTE-PATH\n" to the record (KIND: r
 * read, w write, c a write that creates a file, x execute; n a failed name
 * lookup: "n<TAB>lookup HOST"). It
 * records paths only, never contents, and changes no result: errno is
 * preserved.
 *
 * The record is a file `cordon learn` made for this run, named by
 * CORDON_LEARN_FILE; the session may write that one file and nothing more
 * (a single-file rule). CORDON_LEARN_FD is learn's inherited descriptor of
 * it: used while it is still that file (same device and inode). A process
 * whose parent closed it (Python's subprocess closes every fd above 2), or
 * that reused its number, reopens the file O_WRONLY|O_APPEND|O_CLOEXEC.
 *
 * `cordon learn` decides afterwards which of these the sandbox caused (the
 * policy denies that kind of access) and which were ordinary permission
 * errors. This library is loaded only by `cordon learn`; it is not part of
 * the sandbox and grants nothing. Statically linked programs, and calls that
 * libc makes internally, are not seen. */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <spawn.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <stddef.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <netdb.h>
#include <stdbool.h>
#include <sys/syscall.h>
#include <unistd.h>

#define EXPORT __attribute__((visibility("default")))

extern char **environ;
static int learn_fd = -1;
static const char *learn_file; /* CORDON_LEARN_FILE: the record's path */
static dev_t learn_dev;
static ino_t learn_ino;

static const char *env_value(const char *name)
{
	size_t n = strlen(name);
	for (char **e = environ; e && *e; e++)
		if (strncmp(*e, name, n) == 0 && (*e)[n] == '=')
			return *e + n + 1;
	return NULL;
}

/* Whether FD is the record (not a file that took its number). */
static bool is_record(int fd)
{
	struct stat st;
	return fd >= 0 && fstat(fd, &st) == 0 && S_ISREG(st.st_mode) && st.st_dev == learn_dev &&
	       st.st_ino == learn_ino;
}

__attribute__((constructor)) static void learn_init(void)
{
	const char *file = env_value("CORDON_LEARN_FILE");
	struct stat st;
	/* The file names the record; without it nothing is recorded. */
	if (!file || file[0] != '/' || stat(file, &st) < 0 || !S_ISREG(st.st_mode))
		return;
	learn_file = file;
	learn_dev = st.st_dev;
	learn_ino = st.st_ino;
	const char *v = env_value("CORDON_LEARN_FD");
	if (v) {
		char *end;
		errno = 0;
		long n = strtol(v, &end, 10);
		if (!errno && end != v && *end == '\0' && n > 2 && n < INT_MAX && is_record((int)n))
			learn_fd = (int)n;
	}
}

/* One write of LINE to the record: the inherited fd while it is still the
 * record, else the file opened again (and kept, close-on-exec). */
static void put(const char *line, size_t n)
{
	if (!learn_file)
		return;
	if (!is_record(learn_fd)) {
		/* A raw openat: the wrapped open would record its own failure. */
		int fd = (int)syscall(SYS_openat, AT_FDCWD, learn_file,
				      O_WRONLY | O_APPEND | O_CLOEXEC | O_NOFOLLOW | O_NOCTTY);
		if (fd < 0)
			return;
		if (!is_record(fd)) {
			close(fd);
			return;
		}
		learn_fd = fd;
	}
	(void)!write(learn_fd, line, n); /* one write: lines never interleave */
}

/* The shim's own start-up, in the first process (its CORDON_CONFIG_FD,
 * wire.h, is in the environment until it has handed the session over):
 * its probes are not the command's (46b F3: an ordinary user's `learn --
 * true` listed reads of /etc/shadow, the shim's redacted copies; nested,
 * every hidden path, and a toolchain preset to widen the policy). */
static bool shim_starting(void)
{
	return env_value("CORDON_CONFIG_FD") != NULL;
}

static void record(char kind, int dirfd, const char *path)
{
	if (!learn_file || !path || !*path || strchr(path, '\n') || shim_starting())
		return;
	char base[PATH_MAX] = "";
	if (path[0] != '/') {
		if (dirfd == AT_FDCWD) {
			if (!getcwd(base, sizeof(base)))
				return;
		} else {
			char link[64];
			(void)snprintf(link, sizeof(link), "/proc/self/fd/%d", dirfd);
			ssize_t n = readlink(link, base, sizeof(base) - 1);
			if (n <= 0)
				return;
			base[n] = '\0';
		}
	}
	char line[PATH_MAX * 2 + 8];
	int n = snprintf(line, sizeof(line), "%c\t%s%s%s\n", kind, base,
			 base[0] && path[0] != '/' ? "/" : "", path);
	if (n > 0 && (size_t)n < sizeof(line))
		put(line, (size_t)n);
}

/* Record when R (the wrapped call's result) says a permission error (or
 * a read-only file system: a protected path, which learn then names). */
#define DENIED(failed) ((failed) && (errno == EACCES || errno == EPERM || errno == EROFS))
#define NOTE(failed, kind, dirfd, path)                                                            \
	do {                                                                                       \
		if (DENIED(failed)) {                                                              \
			int saved_ = errno;                                                        \
			record(kind, dirfd, path);                                                 \
			errno = saved_;                                                            \
		}                                                                                  \
	} while (0)
#define REAL(type, name, ...)                                                                      \
	static type (*real)(__VA_ARGS__);                                                          \
	if (!real)                                                                                 \
		real = (type(*)(__VA_ARGS__))dlsym(RTLD_NEXT, name);                               \
	if (!real) {                                                                               \
		errno = ENOSYS;                                                                    \
		return (type)-1;                                                                   \
	}

/* c: a write that makes a file where none is (learn proposes a file then,
 * not a directory: 46b F4). */
static char open_kind(int flags)
{
	if (flags & O_CREAT)
		return 'c';
	return (flags & (O_WRONLY | O_RDWR | O_TRUNC)) ? 'w' : 'r';
}

/* Whether open's variadic mode argument is there. */
static int has_mode(int flags)
{
	return (flags & O_CREAT) || (flags & O_TMPFILE) == O_TMPFILE;
}

#define WRAP_OPEN(name)                                                                            \
	EXPORT int name(const char *path, int flags, ...)                                          \
	{                                                                                          \
		va_list ap;                                                                        \
		va_start(ap, flags);                                                               \
		mode_t mode = has_mode(flags) ? va_arg(ap, mode_t) : 0;                            \
		va_end(ap);                                                                        \
		REAL(int, #name, const char *, int, ...)                                           \
		int r = real(path, flags, mode);                                                   \
		NOTE(r < 0, open_kind(flags), AT_FDCWD, path);                                     \
		return r;                                                                          \
	}
#define WRAP_OPENAT(name)                                                                          \
	EXPORT int name(int dirfd, const char *path, int flags, ...)                               \
	{                                                                                          \
		va_list ap;                                                                        \
		va_start(ap, flags);                                                               \
		mode_t mode = has_mode(flags) ? va_arg(ap, mode_t) : 0;                            \
		va_end(ap);                                                                        \
		REAL(int, #name, int, const char *, int, ...)                                      \
		int r = real(dirfd, path, flags, mode);                                            \
		NOTE(r < 0, open_kind(flags), dirfd, path);                                        \
		return r;                                                                          \
	}
WRAP_OPEN(open)
WRAP_OPEN(open64)
WRAP_OPENAT(openat)
WRAP_OPENAT(openat64)

/* _FORTIFY_SOURCE builds call these when the flags are not constant. */
#define WRAP_OPEN_2(name)                                                                          \
	EXPORT int name(const char *path, int flags)                                               \
	{                                                                                          \
		REAL(int, #name, const char *, int)                                                \
		int r = real(path, flags);                                                         \
		NOTE(r < 0, open_kind(flags), AT_FDCWD, path);                                     \
		return r;                                                                          \
	}
WRAP_OPEN_2(__open_2)
WRAP_OPEN_2(__open64_2)

EXPORT int creat(const char *path, mode_t mode)
{
	REAL(int, "creat", const char *, mode_t)
	int r = real(path, mode);
	NOTE(r < 0, 'c', AT_FDCWD, path);
	return r;
}

#define WRAP_FOPEN(name)                                                                           \
	EXPORT FILE *name(const char *path, const char *mode)                                      \
	{                                                                                          \
		static FILE *(*real)(const char *, const char *);                                  \
		if (!real)                                                                         \
			real = (FILE * (*)(const char *, const char *)) dlsym(RTLD_NEXT, #name);   \
		if (!real) {                                                                       \
			errno = ENOSYS;                                                            \
			return NULL;                                                               \
		}                                                                                  \
		FILE *f = real(path, mode);                                                        \
		NOTE(!f,                                                                           \
		     strpbrk(mode, "wa") ? 'c'                                                     \
		     : strchr(mode, '+') ? 'w'                                                     \
					 : 'r',                                                    \
		     AT_FDCWD, path);                                                              \
		return f;                                                                          \
	}
WRAP_FOPEN(fopen)
WRAP_FOPEN(fopen64)

EXPORT DIR *opendir(const char *path)
{
	static DIR *(*real)(const char *);
	if (!real)
		real = (DIR * (*)(const char *)) dlsym(RTLD_NEXT, "opendir");
	if (!real) {
		errno = ENOSYS;
		return NULL;
	}
	DIR *d = real(path);
	NOTE(!d, 'r', AT_FDCWD, path);
	return d;
}

/* Changes to names: the directory is written. */
#define WRAP_PATH1(name, kind)                                                                     \
	EXPORT int name(const char *path)                                                          \
	{                                                                                          \
		REAL(int, #name, const char *)                                                     \
		int r = real(path);                                                                \
		NOTE(r < 0, kind, AT_FDCWD, path);                                                 \
		return r;                                                                          \
	}
WRAP_PATH1(unlink, 'w')
WRAP_PATH1(rmdir, 'w')

EXPORT int mkdir(const char *path, mode_t mode)
{
	REAL(int, "mkdir", const char *, mode_t)
	int r = real(path, mode);
	NOTE(r < 0, 'w', AT_FDCWD, path);
	return r;
}

EXPORT int mkdirat(int dirfd, const char *path, mode_t mode)
{
	REAL(int, "mkdirat", int, const char *, mode_t)
	int r = real(dirfd, path, mode);
	NOTE(r < 0, 'w', dirfd, path);
	return r;
}

EXPORT int unlinkat(int dirfd, const char *path, int flags)
{
	REAL(int, "unlinkat", int, const char *, int)
	int r = real(dirfd, path, flags);
	NOTE(r < 0, 'w', dirfd, path);
	return r;
}

/* A move (rename, link) that failed with EXDEV between two directories of
 * one file system: Landlock's refusal to move anything into a shared
 * directory from another (cordon's /tmp), not a device boundary. */
static bool moved_within(int olddirfd, const char *from, int newdirfd, const char *to)
{
	char dir[PATH_MAX];
	const char *slash = strrchr(to, '/');
	(void)snprintf(dir, sizeof(dir), "%.*s", slash ? (int)(slash - to) + 1 : 1,
		       slash ? to : ".");
	struct stat a, b;
	return fstatat(olddirfd, from, &a, AT_SYMLINK_NOFOLLOW) == 0 &&
	       fstatat(newdirfd, dir, &b, 0) == 0 && a.st_dev == b.st_dev;
}

#define NOTE_MOVE(failed, olddirfd, from, newdirfd, to)                                            \
	do {                                                                                       \
		int moved_errno_ = errno;                                                          \
		if ((failed) && errno == EXDEV && moved_within(olddirfd, from, newdirfd, to))      \
			record('w', newdirfd, to);                                                 \
		errno = moved_errno_;                                                              \
		NOTE(failed, 'w', newdirfd, to);                                                   \
	} while (0)

#define WRAP_PATH2(name, move)                                                                     \
	EXPORT int name(const char *from, const char *to)                                          \
	{                                                                                          \
		REAL(int, #name, const char *, const char *)                                       \
		int r = real(from, to);                                                            \
		if (move)                                                                          \
			NOTE_MOVE(r < 0, AT_FDCWD, from, AT_FDCWD, to);                            \
		else                                                                               \
			NOTE(r < 0, 'w', AT_FDCWD, to);                                            \
		return r;                                                                          \
	}
WRAP_PATH2(rename, true)
WRAP_PATH2(link, true)
WRAP_PATH2(symlink, false)

EXPORT int renameat(int olddirfd, const char *from, int newdirfd, const char *to)
{
	REAL(int, "renameat", int, const char *, int, const char *)
	int r = real(olddirfd, from, newdirfd, to);
	NOTE_MOVE(r < 0, olddirfd, from, newdirfd, to);
	return r;
}

EXPORT int renameat2(int olddirfd, const char *from, int newdirfd, const char *to, unsigned flags)
{
	REAL(int, "renameat2", int, const char *, int, const char *, unsigned)
	int r = real(olddirfd, from, newdirfd, to, flags);
	NOTE_MOVE(r < 0, olddirfd, from, newdirfd, to);
	return r;
}

/* A unix socket's path that bind refused (a shared directory takes none). */
EXPORT int bind(int fd, const struct sockaddr *addr, socklen_t len)
{
	REAL(int, "bind", int, const struct sockaddr *, socklen_t)
	int r = real(fd, addr, len);
	size_t off = offsetof(struct sockaddr_un, sun_path);
	if (r < 0 && addr && addr->sa_family == AF_UNIX && len > off) {
		const struct sockaddr_un *un = (const struct sockaddr_un *)addr;
		char path[sizeof(un->sun_path) + 1];
		size_t n = len - off < sizeof(un->sun_path) ? len - off : sizeof(un->sun_path);
		memcpy(path, un->sun_path, n);
		path[n] = '\0';
		if (path[0])
			NOTE(true, 'w', AT_FDCWD, path);
	}
	return r;
}

EXPORT int linkat(int olddirfd, const char *from, int newdirfd, const char *to, int flags)
{
	REAL(int, "linkat", int, const char *, int, const char *, int)
	int r = real(olddirfd, from, newdirfd, to, flags);
	NOTE_MOVE(r < 0, olddirfd, from, newdirfd, to);
	return r;
}

EXPORT int symlinkat(const char *target, int dirfd, const char *path)
{
	REAL(int, "symlinkat", const char *, int, const char *)
	int r = real(target, dirfd, path);
	NOTE(r < 0, 'w', dirfd, path);
	return r;
}

#define WRAP_TRUNCATE(name)                                                                        \
	EXPORT int name(const char *path, off_t len)                                               \
	{                                                                                          \
		REAL(int, #name, const char *, off_t)                                              \
		int r = real(path, len);                                                           \
		NOTE(r < 0, 'w', AT_FDCWD, path);                                                  \
		return r;                                                                          \
	}
WRAP_TRUNCATE(truncate)
WRAP_TRUNCATE(truncate64)

/* Execution. execvp and friends search PATH; record the file they would
 * have run (the first candidate that exists). */
static void note_exec(const char *file, int search)
{
	if (!search || strchr(file, '/')) {
		record('x', AT_FDCWD, file);
		return;
	}
	const char *path = getenv("PATH");
	for (const char *p = path ? path : "/usr/bin:/bin"; *p;) {
		const char *colon = strchrnul(p, ':');
		char cand[PATH_MAX];
		(void)snprintf(cand, sizeof(cand), "%.*s/%s", (int)(colon - p), p, file);
		struct stat st;
		if (stat(cand, &st) == 0 && S_ISREG(st.st_mode)) {
			record('x', AT_FDCWD, cand);
			return;
		}
		p = *colon ? colon + 1 : colon;
	}
}

#define NOTE_EXEC(failed, file, search)                                                            \
	do {                                                                                       \
		if (DENIED(failed)) {                                                              \
			int saved_ = errno;                                                        \
			note_exec(file, search);                                                   \
			errno = saved_;                                                            \
		}                                                                                  \
	} while (0)

EXPORT int execve(const char *file, char *const argv[], char *const envp[])
{
	REAL(int, "execve", const char *, char *const[], char *const[])
	int r = real(file, argv, envp);
	NOTE_EXEC(1, file, 0);
	return r;
}

EXPORT int execv(const char *file, char *const argv[])
{
	REAL(int, "execv", const char *, char *const[])
	int r = real(file, argv);
	NOTE_EXEC(1, file, 0);
	return r;
}

EXPORT int execvp(const char *file, char *const argv[])
{
	REAL(int, "execvp", const char *, char *const[])
	int r = real(file, argv);
	NOTE_EXEC(1, file, 1);
	return r;
}

EXPORT int execvpe(const char *file, char *const argv[], char *const envp[])
{
	REAL(int, "execvpe", const char *, char *const[], char *const[])
	int r = real(file, argv, envp);
	NOTE_EXEC(1, file, 1);
	return r;
}

/* posix_spawn returns the error instead of setting errno. */
#define WRAP_SPAWN(name, search)                                                                   \
	EXPORT int name(pid_t *pid, const char *file, const posix_spawn_file_actions_t *fa,        \
			const posix_spawnattr_t *attr, char *const argv[], char *const envp[])     \
	{                                                                                          \
		static int (*real)(pid_t *, const char *, const posix_spawn_file_actions_t *,      \
				   const posix_spawnattr_t *, char *const[], char *const[]);       \
		if (!real)                                                                         \
			real = (int (*)(pid_t *, const char *, const posix_spawn_file_actions_t *, \
					const posix_spawnattr_t *, char *const[],                  \
					char *const[]))dlsym(RTLD_NEXT, #name);                    \
		if (!real)                                                                         \
			return ENOSYS;                                                             \
		int r = real(pid, file, fa, attr, argv, envp);                                     \
		if (r == EACCES || r == EPERM || r == EROFS)                                       \
			note_exec(file, search);                                                   \
		return r;                                                                          \
	}
WRAP_SPAWN(posix_spawn, 0)
WRAP_SPAWN(posix_spawnp, 1)

/* A name lookup that failed the way a refused socket makes it fail (glibc
 * says EAI_AGAIN for any send error): learn names the host when the
 * session's network is off. */
EXPORT int getaddrinfo(const char *node, const char *service, const struct addrinfo *hints,
		       struct addrinfo **res)
{
	static int (*real)(const char *, const char *, const struct addrinfo *, struct addrinfo **);
	if (!real)
		real = (int (*)(const char *, const char *, const struct addrinfo *,
				struct addrinfo **))dlsym(RTLD_NEXT, "getaddrinfo");
	if (!real)
		return EAI_SYSTEM;
	int r = real(node, service, hints, res);
	if ((r == EAI_AGAIN || r == EAI_SYSTEM || r == EAI_FAIL) && node && *node &&
	    !strpbrk(node, "\n\t") && strlen(node) < 256) {
		char line[300];
		int n = snprintf(line, sizeof(line), "n\tlookup %s\n", node);
		int e = errno;
		if (n > 0 && (size_t)n < sizeof(line))
			put(line, (size_t)n);
		errno = e;
	}
	return r;
}
