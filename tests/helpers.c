#include "cordon/sweep.h"
#include "sweep-fs.h"
#include "helpers.h"

#include <criterion/criterion.h>
#include <sys/xattr.h>
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <pwd.h>
#include <termios.h>

#include "cordon/error.h"
#include "cordon/session.h"

#include <errno.h>
#include <glob.h>
#include <limits.h>
#include <fcntl.h>
#include <ftw.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <sys/types.h>
#include <time.h>
#include <unistd.h>

char *path_join(const char *a, const char *b)
{
	char *p;
	if (asprintf(&p, "%s/%s", a, b) < 0)
		abort();
	return p;
}

/* Every directory tmp_dir made and tmp_cleanup has not removed yet, removed
 * at exit: a failed assertion leaves the test function at once (Criterion
 * jumps out of it), past its cleanup, and the directory used to stay in
 * /tmp. Only the process that made them removes them: a forked child that
 * calls exit() must not delete its parent's directories. */
#define MADE_MAX 16
static struct {
	char *dirs[MADE_MAX];
	pid_t owner;
} made;

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw);

static void remove_made(void)
{
	if (getpid() != made.owner)
		return;
	for (size_t i = 0; i < MADE_MAX; i++)
		if (made.dirs[i]) {
			nftw(made.dirs[i], rm_one, 16, FTW_DEPTH | FTW_PHYS);
			free(made.dirs[i]);
			made.dirs[i] = NULL;
		}
}

static void remember(const char *dir)
{
	if (made.owner != getpid()) { /* first in this process (a Criterion worker) */
		memset(made.dirs, 0, sizeof(made.dirs));
		made.owner = getpid();
		atexit(remove_made);
	}
	for (size_t i = 0; i < MADE_MAX; i++)
		if (!made.dirs[i]) {
			made.dirs[i] = strdup(dir);
			return;
		}
}

static void forget(const char *dir)
{
	if (made.owner != getpid())
		return;
	for (size_t i = 0; i < MADE_MAX; i++)
		if (made.dirs[i] && strcmp(made.dirs[i], dir) == 0) {
			free(made.dirs[i]);
			made.dirs[i] = NULL;
			return; /* DIR may be this very string */
		}
}

/* Where the worlds live: not /tmp, which the default policy makes read-write
 * (a world there would be "inside" for any test that uses the defaults).
 * /mnt/cordon-tests for root (short paths for unix sockets; not /run, which
 * is never a project from the cwd, nor /srv or /var, where learn never
 * proposes writing), else
 * the caller's runtime directory; /tmp only as a last resort. */
static const char *worlds_base(void)
{
	static char base[256];
	if (base[0])
		return base;
	const char *xdg = getenv("XDG_RUNTIME_DIR");
	if ((mkdir("/mnt/cordon-tests", 0755) == 0 || errno == EEXIST) &&
	    access("/mnt/cordon-tests", W_OK) == 0)
		snprintf(base, sizeof(base), "/mnt/cordon-tests");
	else if (xdg && xdg[0] == '/' && access(xdg, W_OK) == 0)
		snprintf(base, sizeof(base), "%s", xdg);
	else
		snprintf(base, sizeof(base), "/tmp");
	return base;
}

char *tmp_dir(const char *tag)
{
	char *tmpl;
	if (asprintf(&tmpl, "%s/cordon-test-%s-XXXXXX", worlds_base(), tag) < 0)
		abort();
	if (!mkdtemp(tmpl))
		abort();
	/* Canonical, so tests can compare with resolved policy paths. */
	char *canon = realpath(tmpl, NULL);
	free(tmpl);
	if (canon)
		remember(canon);
	return canon;
}

static int rm_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)flag;
	(void)ftw;
	return remove(path) < 0 && errno != ENOENT ? -1 : 0;
}

/* Sessions a test starts with the runner's own environment would keep
 * their shell history (launcher/history.c) under the runner's home: the
 * runner gets an XDG_STATE_HOME of its own instead, removed when the runner
 * itself exits (not when one of Criterion's workers, its forks, does). */
static char state_home[300];
static pid_t state_owner;

static void remove_state_home(void)
{
	if (state_home[0] && getpid() == state_owner) {
		sweep_forget_beneath(state_home); /* (the history directories' notes) */
		tmp_cleanup(state_home);
	}
}

__attribute__((constructor)) static void own_state_home(void)
{
	snprintf(state_home, sizeof(state_home), "%s/cordon-test-state-XXXXXX", worlds_base());
	if (!mkdtemp(state_home)) {
		state_home[0] = '\0';
		return;
	}
	state_owner = getpid();
	setenv("XDG_STATE_HOME", state_home, 1);
	atexit(remove_state_home);
}

void tmp_cleanup(const char *dir)
{
	char prefix[300];
	snprintf(prefix, sizeof(prefix), "%s/cordon-test-", worlds_base());
	if (dir && strncmp(dir, prefix, strlen(prefix)) == 0) {
		nftw(dir, rm_one, 16, FTW_DEPTH | FTW_PHYS);
		forget(dir);
	}
}

static void mkparents(char *path)
{
	for (char *p = path + 1; *p; p++) {
		if (*p == '/') {
			*p = '\0';
			mkdir(path, 0755);
			*p = '/';
		}
	}
}

char *write_file(const char *dir, const char *name, const char *content)
{
	char *p = path_join(dir, name);
	mkparents(p);
	FILE *f = fopen(p, "w");
	if (!f)
		abort();
	fputs(content, f);
	fclose(f);
	return p;
}

char *read_file(const char *path)
{
	FILE *f = fopen(path, "r");
	if (!f)
		return NULL;
	size_t cap = 4096, len = 0;
	char *buf = malloc(cap);
	size_t n;
	while (buf && (n = fread(buf + len, 1, cap - len - 1, f)) > 0) {
		len += n;
		if (cap - len < 2) {
			char *nb = realloc(buf, cap *= 2);
			if (!nb)
				free(buf);
			buf = nb;
		}
	}
	if (!buf) {
		fclose(f);
		return NULL;
	}
	buf[len] = '\0';
	fclose(f);
	return buf;
}

bool file_exists(const char *path)
{
	struct stat st;
	return lstat(path, &st) == 0;
}

static void drain(int fd, char **buf, size_t *len, size_t *cap)
{
	char tmp[4096];
	ssize_t n = read(fd, tmp, sizeof(tmp));
	if (n <= 0)
		return;
	while (*len + (size_t)n + 1 > *cap)
		*buf = realloc(*buf, *cap *= 2);
	memcpy(*buf + *len, tmp, (size_t)n);
	*len += (size_t)n;
	(*buf)[*len] = '\0';
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

struct run_result run_cmd(char *const argv[], char *const envp[], const char *cwd, int timeout_ms)
{
	int out[2], err[2];
	if (pipe2(out, O_CLOEXEC) < 0 || pipe2(err, O_CLOEXEC) < 0)
		abort();
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		int devnull = open("/dev/null", O_RDONLY);
		dup2(devnull, 0);
		dup2(out[1], 1);
		dup2(err[1], 2);
		if (cwd && chdir(cwd) < 0)
			_exit(121);
		if (envp)
			execve(argv[0], argv, envp);
		else
			execv(argv[0], argv);
		_exit(122);
	}
	close(out[1]);
	close(err[1]);
	struct run_result r = {0};
	size_t olen = 0, ocap = 256, elen = 0, ecap = 256;
	r.out = calloc(1, ocap);
	r.err = calloc(1, ecap);
	long deadline = now_ms() + timeout_ms;
	struct pollfd p[2] = {{.fd = out[0], .events = POLLIN}, {.fd = err[0], .events = POLLIN}};
	int open_fds = 2;
	bool killed = false;
	while (open_fds > 0) {
		long left = deadline - now_ms();
		if (left <= 0) {
			kill(pid, SIGKILL);
			killed = true;
			break;
		}
		if (poll(p, 2, (int)left) < 0 && errno != EINTR)
			break;
		for (int i = 0; i < 2; i++) {
			if (p[i].fd < 0 || !(p[i].revents & (POLLIN | POLLHUP)))
				continue;
			size_t before = i ? elen : olen;
			if (i)
				drain(p[i].fd, &r.err, &elen, &ecap);
			else
				drain(p[i].fd, &r.out, &olen, &ocap);
			if ((i ? elen : olen) == before) {
				close(p[i].fd);
				p[i].fd = -1;
				open_fds--;
			}
		}
	}
	for (int i = 0; i < 2; i++)
		if (p[i].fd >= 0)
			close(p[i].fd);
	int st;
	waitpid(pid, &st, 0);
	r.status = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (killed)
		r.status = 128 + SIGKILL;
	return r;
}

void run_free(struct run_result *r)
{
	free(r->out);
	free(r->err);
	r->out = r->err = NULL;
}

struct run_result run_cordon(char *const envp[], const char *cwd, ...)
{
	char *argv[64];
	int n = 0;
	argv[n++] = (char *)CORDON_BIN;
	va_list ap;
	va_start(ap, cwd);
	char *a;
	while ((a = va_arg(ap, char *)) && n < 63)
		argv[n++] = a;
	va_end(ap);
	argv[n] = NULL;
	return run_cmd(argv, envp, cwd, 20000);
}

void copy_exec(const char *src, const char *dst)
{
	FILE *in = fopen(src, "rb");
	if (!in)
		abort();
	FILE *out = fopen(dst, "wb");
	if (!out)
		abort();
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof(buf), in)) > 0)
		fwrite(buf, 1, n, out);
	fclose(in);
	fclose(out);
	chmod(dst, 0755);
}

/* EXTRA: more top-level config keys (with a leading comma), or "". */
void world_init(struct world *w, const char *tag, const char *extra)
{
	memset(w, 0, sizeof(*w));
	w->dir = tmp_dir(tag);
	w->proj = path_join(w->dir, "proj");
	if (asprintf(&w->popt, "-p %s", w->proj) < 0)
		abort();
	w->outside = path_join(w->dir, "outside");
	w->home = path_join(w->dir, "home");
	w->bin = path_join(w->proj, "bin");
	mkdir(w->proj, 0755);
	mkdir(w->outside, 0755);
	mkdir(w->home, 0755);
	mkdir(w->bin, 0755);
	w->secret = write_file(w->outside, "secret", SECRET);
	free(write_file(w->outside, "victim/keep", "keep"));
	char *p = path_join(w->bin, "cordon-probe");
	copy_exec(CORDON_PROBE, p);
	free(p);
	p = path_join(w->bin, "cordon-probe-static");
	copy_exec(CORDON_PROBE_STATIC, p);
	free(p);
	char *json;
	asprintf(&json, "{" WORLD_BASE_RW "%s}", extra);
	w->cfg = write_file(w->proj, "cordon.json", json);
	free(json);
	int n = 0;
	asprintf(&w->env[n++], "HOME=%s", w->home);
	asprintf(&w->env[n++], "PATH=%s:/usr/bin:/bin", w->bin);
	w->env[n++] = strdup("TERM=xterm");
	w->env[n++] = strdup("SECRET_TOKEN=hunter2");
	w->env[n++] = strdup("SHELL=/bin/sh");
	w->env[n] = NULL;
}

void sweep_forget(const char *root)
{
	char *record = cordon_sweep_record_path(root);
	if (record) {
		unlink(record);
		char *lock = fmt("%s" CORDON_SWEEP_LOCK, record);
		unlink(lock);
		free(lock);
	}
	/* and the marks of sessions whose sweep never ran (killed ones), and
	 * the records they kept as they started */
	static const char *const kinds[] = {"pending", "start"};
	for (size_t k = 0; record && k < sizeof(kinds) / sizeof(*kinds); k++) {
		char *marks = fmt("%s.%s-*", record, kinds[k]);
		glob_t g = {0};
		if (glob(marks, 0, NULL, &g) == 0)
			for (size_t i = 0; i < g.gl_pathc; i++)
				unlink(g.gl_pathv[i]);
		globfree(&g);
		free(marks);
	}
	free(record);
}

/* The sweep's records (and marks) of every root beneath DIR: the
 * project's, and those of the directories a test made writable besides
 * it, or took for the project (root's records are outside the world: 1,416
 * of them had piled up in /run/cordon by session 21). */
void sweep_forget_beneath(const char *dir)
{
	char *one = cordon_sweep_record_path(dir);
	char *slash = one ? strrchr(one, '/') : NULL;
	if (!slash) {
		free(one);
		return;
	}
	*slash = '\0';
	char *pattern = fmt("%s/sweep-*", one);
	glob_t g = {0};
	size_t n = strlen(dir);
	if (glob(pattern, 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char head[PATH_MAX + 64] = {0};
			int fd = open(g.gl_pathv[i], O_RDONLY | O_CLOEXEC);
			ssize_t got = fd >= 0 ? read(fd, head, sizeof(head) - 1) : -1;
			if (fd >= 0)
				close(fd);
			/* A mark holds its root on its second line (one left by a
			 * session killed in a root with no record of its own). */
			bool mark = strstr(g.gl_pathv[i], ".pending-") != NULL;
			const char *top = got <= 0 ? NULL
					  : mark   ? memchr(head, '\n', (size_t)got)
						   : memchr(head, '\0', (size_t)got);
			if (top && mark)
				head[strcspn(head, "\n") + 1 + strcspn(top + 1, "\n")] = '\0';
			if (!top || strncmp(top + 1, dir, n) != 0 ||
			    (top[1 + n] != '/' && top[1 + n] != '\0'))
				continue;
			if (mark)
				unlink(g.gl_pathv[i]);
			else
				sweep_forget(top + 1);
		}
	globfree(&g);
	free(pattern);
	/* And the notes of the directories sessions could write there. */
	pattern = fmt("%s/wrote-*", one);
	if (glob(pattern, 0, NULL, &g) == 0)
		for (size_t i = 0; i < g.gl_pathc; i++) {
			char *noted = read_file(g.gl_pathv[i]);
			if (noted && strncmp(noted, dir, n) == 0 &&
			    (noted[n] == '/' || noted[n] == '\0'))
				unlink(g.gl_pathv[i]);
			free(noted);
		}
	globfree(&g);
	free(pattern);
	free(one);
}

void world_free(struct world *w)
{
	/* The sweep's records of the project and the other roots in the
	 * world (root's are outside it). */
	if (w->proj)
		sweep_forget(w->proj);
	if (w->dir)
		sweep_forget_beneath(w->dir);
	tmp_cleanup(w->dir);
	for (int i = 0; w->env[i]; i++)
		free(w->env[i]);
	free(w->dir);
	free(w->proj);
	free(w->popt);
	free(w->outside);
	free(w->home);
	free(w->bin);
	free(w->secret);
	free(w->cfg);
	free(w->user_cordon);
	free(w->user_preload);
}

/* cordon run --config CFG [OPTS...] -- /bin/sh -c SCRIPT; SCRIPT is a format. */
struct run_result run_in(struct world *w, const char *opts, char *const cmd[])
{
	char *argv[64];
	int n = 0;
	argv[n++] = CORDON_BIN;
	argv[n++] = "run";
	argv[n++] = "--config";
	argv[n++] = w->cfg;
	char *optcopy = opts ? strdup(opts) : NULL;
	for (char *tok = optcopy ? strtok(optcopy, " ") : NULL; tok && n < 40;
	     tok = strtok(NULL, " "))
		argv[n++] = tok;
	argv[n++] = "--";
	for (int i = 0; cmd[i] && n < 63; i++)
		argv[n++] = cmd[i];
	argv[n] = NULL;
	struct run_result r = world_run(w, argv, w->proj);
	free(optcopy);
	return r;
}

struct run_result sh_in_dir(struct world *w, const char *dir, const char *script)
{
	char *argv[] = {CORDON_BIN, "run", "--config",     w->cfg, "--",
			"/bin/sh",  "-c",  (char *)script, NULL};
	return world_run(w, argv, dir);
}

void test_user(uid_t *uid, gid_t *gid)
{
	struct passwd *pw = getpwnam("cordon-test");
	if (!pw) {
		/* Concurrent tests may both try: one wins, the other finds it. */
		(void)!system("useradd --system --no-create-home --user-group "
			      "--shell /usr/sbin/nologin cordon-test >/dev/null 2>&1");
		pw = getpwnam("cordon-test");
	}
	cr_assert_not_null(pw, "no test user (useradd cordon-test failed)");
	*uid = pw->pw_uid;
	*gid = pw->pw_gid;
}

static uid_t chown_uid;
static gid_t chown_gid;
static char chown_failed[PATH_MAX + 64];
static int chown_one(const char *path, const struct stat *st, int flag, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (flag == FTW_DNR || flag == FTW_NS)
		snprintf(chown_failed, sizeof(chown_failed), "%s: unread (%d)", path, flag);
	if (lchown(path, chown_uid, chown_gid) == 0)
		return 0;
	snprintf(chown_failed, sizeof(chown_failed), "%s: %s", path, strerror(errno));
	return -1;
}

void world_give(struct world *w)
{
	if (!w->as_user)
		return;
	chown_uid = w->uid;
	chown_gid = w->gid;
	chown_failed[0] = '\0';
	int r = nftw(w->dir, chown_one, 16, FTW_PHYS);
	cr_assert_eq(r, 0, "chown %s: %s (%s)", w->dir, chown_failed, strerror(errno));
}

void runtime_dir_make(struct runtime_dir *r, uid_t uid, gid_t gid)
{
	r->path = fmt("/run/user/%u", (unsigned)uid);
	r->made_base = mkdir("/run/user", 0755) == 0;
	r->made = mkdir(r->path, 0700) == 0;
	cr_assert(r->made || errno == EEXIST, "%s: %s", r->path, strerror(errno));
	if (r->made)
		cr_assert_eq(chown(r->path, uid, gid), 0);
}

void runtime_dir_free(struct runtime_dir *r)
{
	/* What was made stays until the run ends (scripts/test removes it, and
	 * what sessions made there): a session beside that chose
	 * /run/user/UID/cordon for its socket directory found it gone a moment
	 * later (125), and one guarding dbus-1/ would find that gone. */
	free(r->path);
	r->path = NULL;
}

void need_user_xattrs(struct world *w)
{
	char *f = write_file(w->dir, "xattr-probe", "x");
	int r = setxattr(f, "user.probe", "1", 1, 0);
	int e = errno;
	unlink(f);
	free(f);
	if (r < 0)
		cr_skip_test("%s does not take user xattrs (%s)", w->dir, strerror(e));
}

long ms_now(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return t.tv_sec * 1000 + t.tv_nsec / 1000000;
}

void let_time_pass(void)
{
	static int fine = -1;
	if (fine < 0)
		fine = cordon_fs_fine_times(worlds_base());
	usleep(fine ? 60 * 1000 : 1100 * 1000);
}

bool pty_read_until(int master, const char *needle, int ms, char *buf, size_t size, bool keep_tail)
{
	size_t len = strlen(buf);
	for (long end = ms_now() + ms; ms_now() < end;) {
		if (needle && strstr(buf, needle))
			return true;
		struct pollfd p = {.fd = master, .events = POLLIN};
		if (poll(&p, 1, 50) <= 0)
			continue;
		/* KEEP_TAIL: never more than fits (the rest waits for the next
		 * read); else what does not fit is read and dropped. */
		char chunk[4096];
		size_t room = size - 1 - len;
		ssize_t n = read(master, chunk,
				 keep_tail && room < sizeof(chunk) ? room : sizeof(chunk));
		if (n <= 0)
			break;
		size_t k = (size_t)n < room ? (size_t)n : room;
		memcpy(buf + len, chunk, k);
		len += k;
		buf[len] = '\0';
		if (keep_tail && len > size / 2) {
			memmove(buf, buf + len - size / 4, size / 4 + 1);
			len = size / 4;
		}
	}
	return needle && strstr(buf, needle);
}

void world_as_user(struct world *w)
{
	test_user(&w->uid, &w->gid);
	chown_uid = w->uid;
	chown_gid = w->gid;
	char *inst = path_join(w->dir, "inst"), *ibin = path_join(inst, "bin"),
	     *ilib = path_join(inst, "lib");
	cr_assert(mkdir(inst, 0755) == 0 && mkdir(ibin, 0755) == 0 && mkdir(ilib, 0755) == 0);
	w->user_cordon = path_join(ibin, "cordon");
	copy_exec(CORDON_BIN, w->user_cordon);
	char *lib = path_join(ilib, "libcordon.so");
	copy_exec(CORDON_SHIM_SO, lib);
	asprintf(&w->user_preload, "LD_PRELOAD=%s", lib);
	free(lib);
	/* cordon learn's recorder, next to the shim as installed. */
	char *learn_src = strdup(CORDON_SHIM_SO), *slash = strrchr(learn_src, '/');
	char *learn_lib = path_join(ilib, "libcordon-learn.so");
	*slash = '\0';
	char *src = path_join(learn_src, "libcordon-learn.so");
	if (file_exists(src))
		copy_exec(src, learn_lib);
	free(src);
	free(learn_lib);
	free(learn_src);
	free(inst);
	free(ibin);
	free(ilib);
	w->as_user = true;
	world_give(w);
}

char **world_argv(const struct world *w, char *const argv[])
{
	size_t n = 0;
	while (argv[n])
		n++;
	char **out = calloc(n + 8, sizeof(*out));
	size_t k = 0;
	if (w->as_user) {
		static char reuid[32], regid[32];
		snprintf(reuid, sizeof(reuid), "--reuid=%u", (unsigned)w->uid);
		snprintf(regid, sizeof(regid), "--regid=%u", (unsigned)w->gid);
		out[k++] = "/usr/bin/setpriv";
		out[k++] = reuid;
		out[k++] = regid;
		out[k++] = "--clear-groups";
		out[k++] = "--pdeathsig=keep";
		out[k++] = "--";
	}
	static char probe[4096];
	for (size_t i = 0; i < n; i++) {
		const char *a = argv[i];
		if (w->as_user && strcmp(a, CORDON_BIN) == 0)
			a = w->user_cordon;
		else if (w->as_user && strcmp(a, CORDON_PROBE) == 0) {
			snprintf(probe, sizeof(probe), "%s/cordon-probe", w->bin);
			a = probe;
		} else if (w->as_user && strncmp(a, "LD_PRELOAD=", 11) == 0 &&
			   strcmp(a + 11, CORDON_SHIM_SO) == 0)
			a = w->user_preload;
		out[k++] = (char *)a;
	}
	out[k] = NULL;
	return out;
}

struct run_result world_run(const struct world *w, char *const argv[], const char *cwd)
{
	char **a = world_argv(w, argv);
	struct run_result r = run_cmd(a, w->env, cwd, 20000);
	free(a);
	return r;
}

pid_t world_spawn(const struct world *w, char *const argv[], const char *cwd)
{
	char **a = world_argv(w, argv);
	pid_t pid = spawn_cmd(a, w->env, cwd);
	free(a);
	return pid;
}

struct listener listen_unix(const struct world *w, const char *path, bool stream)
{
	struct listener l = {.stream = stream};
	l.fd = socket(AF_UNIX, (stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK | SOCK_CLOEXEC,
		      0);
	cr_assert_geq(l.fd, 0, "listener socket: %s", strerror(errno));
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	cr_assert_lt(strlen(path), sizeof(un.sun_path), "socket path too long: %s", path);
	snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
	unlink(path);
	cr_assert_eq(bind(l.fd, (struct sockaddr *)&un, sizeof(un)), 0, "bind %s: %s", path,
		     strerror(errno));
	if (stream)
		cr_assert_eq(listen(l.fd, 64), 0);
	if (w->as_user)
		cr_assert_eq(lchown(path, w->uid, w->gid), 0);
	return l;
}

struct run_result sh_in(struct world *w, const char *opts, const char *fmt, ...)
{
	char *script;
	va_list ap;
	va_start(ap, fmt);
	if (vasprintf(&script, fmt, ap) < 0)
		abort();
	va_end(ap);
	char *cmd[] = {"/bin/sh", "-c", script, NULL};
	struct run_result r = run_in(w, opts, cmd);
	free(script);
	return r;
}

bool contains(const char *path, const char *needle)
{
	char *s = read_file(path);
	bool found = s && strstr(s, needle);
	free(s);
	return found;
}

void world_setenv(struct world *w, const char *kv)
{
	size_t n = strcspn(kv, "=") + 1;
	int i = 0;
	for (; w->env[i]; i++)
		if (strncmp(w->env[i], kv, n) == 0) {
			free(w->env[i]);
			w->env[i] = strdup(kv);
			return;
		}
	w->env[i] = strdup(kv);
	w->env[i + 1] = NULL;
}

pid_t spawn_cmd(char *const argv[], char *const envp[], const char *cwd)
{
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		/* A daemon the test started goes with the test, even when an
		 * assertion ends it before its clean-up. */
		prctl(PR_SET_PDEATHSIG, SIGKILL);
		int devnull = open("/dev/null", O_RDWR);
		dup2(devnull, 0);
		dup2(devnull, 1);
		dup2(devnull, 2);
		if (cwd && chdir(cwd) < 0)
			_exit(121);
		execve(argv[0], argv, envp);
		_exit(122);
	}
	return pid;
}

static pid_t pty_spawn_owned(char *const argv[], char *const envp[], const char *cwd, int *master,
			     char **slave_name, uid_t uid, gid_t gid)
{
	int m = posix_openpt(O_RDWR | O_NOCTTY | O_CLOEXEC);
	if (m < 0 || grantpt(m) < 0 || unlockpt(m) < 0)
		abort();
	char *name = strdup(ptsname(m));
	if (uid != (uid_t)-1 && chown(name, uid, gid) < 0)
		abort();
	pid_t pid = fork();
	if (pid < 0)
		abort();
	if (pid == 0) {
		setsid();
		int slave = open(name, O_RDWR);
		if (slave < 0 || ioctl(slave, TIOCSCTTY, 0) < 0)
			_exit(120);
		dup2(slave, 0);
		dup2(slave, 1);
		dup2(slave, 2);
		if (cwd && chdir(cwd) < 0)
			_exit(121);
		execve(argv[0], argv, envp);
		_exit(122);
	}
	*master = m;
	*slave_name = name;
	return pid;
}

pid_t pty_spawn(char *const argv[], char *const envp[], const char *cwd, int *master,
		char **slave_name)
{
	return pty_spawn_owned(argv, envp, cwd, master, slave_name, (uid_t)-1, (gid_t)-1);
}

pid_t world_pty_spawn(const struct world *w, char *const argv[], int *master, char **slave_name)
{
	char **args = world_argv(w, argv);
	pid_t pid = pty_spawn_owned(args, (char *const *)w->env, w->proj, master, slave_name,
				    w->as_user ? w->uid : (uid_t)-1, w->gid);
	free(args);
	return pid;
}

static bool gone_now(pid_t pid)
{
	if (kill(pid, 0) < 0 && errno == ESRCH)
		return true;
	/* A zombie is dead: its parent (init, or a test) just has not reaped it. */
	char state = cordon_proc_state(pid);
	return state == 0 || state == 'Z' || state == 'X';
}

/* Whether NOW(ARG) holds within MS, asked every 5 ms. */
static bool wait_for(bool (*now)(const void *arg), const void *arg, int ms)
{
	long deadline = now_ms() + ms;
	do {
		if (now(arg))
			return true;
		usleep(5000);
	} while (now_ms() < deadline);
	return now(arg);
}

static bool gone_at(const void *pid)
{
	return gone_now(*(const pid_t *)pid);
}

bool wait_gone(pid_t pid, int ms)
{
	return wait_for(gone_at, &pid, ms);
}

void hold_still(pid_t pid)
{
	cr_assert_eq(ptrace(PTRACE_SEIZE, pid, 0, 0), 0, "PTRACE_SEIZE %d: %s", (int)pid,
		     strerror(errno));
	cr_assert_eq(ptrace(PTRACE_INTERRUPT, pid, 0, 0), 0, "PTRACE_INTERRUPT: %s",
		     strerror(errno));
	int st;
	cr_assert_eq(waitpid(pid, &st, __WALL), pid, "waitpid (held): %s", strerror(errno));
}

void let_go(pid_t pid)
{
	cr_assert_eq(ptrace(PTRACE_DETACH, pid, 0, 0), 0, "PTRACE_DETACH: %s", strerror(errno));
}

void kill_held(pid_t pid)
{
	cr_assert_eq(kill(pid, SIGKILL), 0);
	int st;
	(void)waitpid(pid, &st, __WALL); /* (the tracer hears of it first) */
}

static bool exists_at(const void *path)
{
	return file_exists(path);
}

bool wait_exists(const char *path, int ms)
{
	return wait_for(exists_at, path, ms);
}

bool wait_started(pid_t pid, const char *path, int ms, char **said)
{
	*said = NULL;
	long deadline = now_ms() + ms;
	do {
		if (file_exists(path))
			return true;
		/* (WNOWAIT: the test still reaps it, or kills it, as before.) */
		siginfo_t si = {0};
		if (waitid(P_PID, (id_t)pid, &si, WEXITED | WNOHANG | WNOWAIT) == 0 &&
		    si.si_pid == pid) {
			if (file_exists(path))
				return true;
			*said = fmt("its launcher ended first (%s %d: refused?)",
				    si.si_code == CLD_EXITED ? "exit" : "signal", si.si_status);
			return false;
		}
		usleep(5000);
	} while (now_ms() < deadline);
	if (file_exists(path))
		return true;
	*said = fmt("not within %d ms, its launcher still running", ms);
	return false;
}

/* ---- loopback listeners ---- */

struct listener listen_on(int family, bool stream)
{
	struct listener l = {.stream = stream};
	l.fd = socket(family, (stream ? SOCK_STREAM : SOCK_DGRAM) | SOCK_NONBLOCK | SOCK_CLOEXEC,
		      0);
	cr_assert_geq(l.fd, 0, "listener socket: %s", strerror(errno));
	struct sockaddr_storage ss = {0};
	socklen_t len;
	if (family == AF_INET) {
		struct sockaddr_in *a = (struct sockaddr_in *)&ss;
		a->sin_family = AF_INET;
		a->sin_addr.s_addr = htonl(INADDR_LOOPBACK);
		len = sizeof(*a);
	} else {
		struct sockaddr_in6 *a = (struct sockaddr_in6 *)&ss;
		a->sin6_family = AF_INET6;
		a->sin6_addr = in6addr_loopback;
		len = sizeof(*a);
	}
	cr_assert_eq(bind(l.fd, (struct sockaddr *)&ss, len), 0, "bind: %s", strerror(errno));
	if (stream)
		cr_assert_eq(listen(l.fd, 16), 0);
	cr_assert_eq(getsockname(l.fd, (struct sockaddr *)&ss, &len), 0);
	l.port = ntohs(family == AF_INET ? ((struct sockaddr_in *)&ss)->sin_port
					 : ((struct sockaddr_in6 *)&ss)->sin6_port);
	return l;
}

/* Everything the listener got within WAIT_MS (connections already queued
 * are accepted and drained). */
char *received(struct listener *l, int wait_ms)
{
	char *out = calloc(1, 8192);
	size_t len = 0;
	struct pollfd p = {.fd = l->fd, .events = POLLIN};
	while (poll(&p, 1, wait_ms) > 0) {
		if (l->stream) {
			int c = accept4(l->fd, NULL, NULL, SOCK_CLOEXEC);
			if (c < 0)
				break;
			struct pollfd pc = {.fd = c, .events = POLLIN};
			while (poll(&pc, 1, 500) > 0) {
				ssize_t n = read(c, out + len, 8191 - len);
				if (n <= 0)
					break;
				len += (size_t)n;
			}
			close(c);
		} else {
			ssize_t n = recv(l->fd, out + len, 8191 - len, 0);
			if (n <= 0)
				break;
			len += (size_t)n;
		}
		wait_ms = 50;
	}
	out[len] = '\0';
	return out;
}

/* ---- the terminal ---- */

/* Run ARGV with a new pty as its controlling terminal (stdin/out/err); after
 * it exits, return whatever is waiting in the terminal's input queue — what
 * a shell reading the terminal would take as typed. */
char *pty_input_after(char *const argv[], char *const envp[], const char *cwd)
{
	int master;
	char *name;
	pid_t pid = pty_spawn(argv, envp, cwd, &master, &name);
	int slave = open(name, O_RDWR | O_NOCTTY | O_NONBLOCK | O_CLOEXEC);
	cr_assert_geq(slave, 0);
	/* Drain the child's output so it never blocks on a full pty. */
	int st;
	char sink[4096];
	for (int i = 0; i < 400 && waitpid(pid, &st, WNOHANG) == 0; i++) {
		struct pollfd p = {.fd = master, .events = POLLIN};
		if (poll(&p, 1, 25) > 0)
			(void)!read(master, sink, sizeof(sink));
	}
	kill(pid, SIGKILL);
	waitpid(pid, &st, 0);
	struct termios t;
	tcgetattr(slave, &t);
	t.c_lflag &= ~(tcflag_t)ICANON;
	tcsetattr(slave, TCSANOW, &t);
	char *out = calloc(1, 4096);
	ssize_t n = read(slave, out, 4095);
	if (n < 0)
		n = 0;
	out[n] = '\0';
	close(slave);
	close(master);
	free(name);
	return out;
}

/* ---- processes outside the sandbox ---- */

/* A process outside the sandbox, started by the test, with a secret in its
 * environment and on its command line. */
pid_t start_outside_process(void)
{
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		char *argv[] = {CORDON_PROBE, "sleep", "30", "cmdline-" SECRET, NULL};
		char *envp[] = {"OUTSIDE_TOKEN=env-" SECRET, NULL};
		execve(CORDON_PROBE, argv, envp);
		_exit(127);
	}
	wait_exec(pid, CORDON_PROBE);
	return pid;
}

void wait_exec(pid_t pid, const char *exe)
{
	/* /proc/PID/cmdline is NUL-separated (a string search sees argv[0]
	 * only): compare the executable instead. */
	char path[64], target[4096];
	snprintf(path, sizeof(path), "/proc/%d/exe", pid);
	for (int i = 0; i < 400; i++) {
		ssize_t n = readlink(path, target, sizeof(target) - 1);
		if (n > 0) {
			target[n] = '\0';
			if (strcmp(target, exe) == 0)
				return;
		}
		usleep(2500);
	}
}

void stop_process(pid_t pid)
{
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
}

/* ---- sessions ---- */

size_t read_pids(const char *path, pid_t *out, size_t max)
{
	FILE *f = fopen(path, "r");
	size_t n = 0;
	int pid;
	while (f && n < max && fscanf(f, "%d", &pid) == 1)
		out[n++] = pid;
	if (f)
		fclose(f);
	return n;
}

size_t wait_pids(const char *path, pid_t *out, size_t want, int ms)
{
	long deadline = now_ms() + ms;
	size_t n;
	while ((n = read_pids(path, out, want)) < want && now_ms() < deadline)
		usleep(5000);
	return n;
}

char *session_id(struct world *w)
{
	char *p = path_join(w->proj, "sid");
	char *s = read_file(p);
	free(p);
	if (s)
		s[strcspn(s, "\n")] = '\0';
	return s;
}

char *cgroup_of(const char *id)
{
	char *mount, *own, *path;
	struct cordon_error err = {0};
	if (cordon_cgroup_locate(&mount, &own, &err) < 0)
		return NULL;
	asprintf(&path, "%s%s/cordon-%s", mount, strcmp(own, "/") ? own : "", id);
	free(mount);
	free(own);
	return path;
}

static bool cgroup_empty_now(const void *cg)
{
	pid_t *pids = NULL;
	size_t n = 0;
	bool empty = cordon_cgroup_pids(cg, &pids, &n, NULL) == 0 && n == 0;
	free(pids);
	return empty;
}

bool wait_cgroup_empty(const char *cg, int ms)
{
	return wait_for(cgroup_empty_now, cg, ms);
}

void expect_session_gone(struct world *w, size_t want_pids)
{
	pid_t pids[512];
	char *pf = path_join(w->proj, "pids");
	size_t n = read_pids(pf, pids, 512);
	cr_expect_geq(n, want_pids, "only %zu escapees started", n);
	for (size_t i = 0; i < n; i++)
		cr_expect(wait_gone(pids[i], 5000), "process %d survived the session", pids[i]);
	char *id = session_id(w);
	cr_assert_not_null(id, "the session did not record its id");
	char *cg = cgroup_of(id);
	if (cg) {
		for (int i = 0; i < 500 && file_exists(cg); i++)
			usleep(10000);
		cr_expect_not(file_exists(cg), "cgroup %s left behind", cg);
	}
	struct cordon_session_info info;
	for (int i = 0; i < 500 && cordon_registry_read(id, &info, NULL) == 0; i++)
		usleep(10000);
	cr_expect_neq(cordon_registry_read(id, &info, NULL), 0, "registry entry left behind");
	free(cg);
	free(id);
	free(pf);
}

char *child_output(void (*fn)(void *arg, int fd), void *arg, const char *what)
{
	int fds[2];
	cr_assert_eq(pipe(fds), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		close(fds[0]);
		fn(arg, fds[1]);
		_exit(0);
	}
	close(fds[1]);
	char buf[4096];
	size_t got = 0;
	ssize_t n;
	while (got < sizeof(buf) - 1 && (n = read(fds[0], buf + got, sizeof(buf) - 1 - got)) > 0)
		got += (size_t)n;
	close(fds[0]);
	int st;
	waitpid(pid, &st, 0);
	cr_assert(WIFEXITED(st) && WEXITSTATUS(st) == 0, "%s: the child failed (%d)", what, st);
	buf[got] = '\0';
	return strdup(buf);
}

char *fmt(const char *f, ...)
{
	va_list ap;
	va_start(ap, f);
	char *s;
	if (vasprintf(&s, f, ap) < 0)
		abort();
	va_end(ap);
	return s;
}

struct run_result world_while_outside(struct world *w, const char *cfg, const char *body,
				      const char *saves)
{
	char *outside_script = fmt("i=0; while [ ! -e %s/ready ] && [ $i -lt 300 ]; do sleep 0.05; "
				   "i=$((i+1)); done; %s; touch %s/go",
				   w->proj, saves, w->proj);
	char *outside_argv[] = {"/bin/sh", "-c", outside_script, NULL};
	pid_t saver = world_spawn(w, outside_argv, w->home);
	/* (The project named: a dotfiles project is not taken from the cwd.) */
	char *argv[] = {CORDON_BIN, "run",     "--config", (char *)cfg,  "--project", w->proj,
			"--",       "/bin/sh", "-c",       (char *)body, NULL};
	struct run_result r = world_run(w, argv, w->proj);
	int st;
	cr_expect_eq(waitpid(saver, &st, 0), saver);
	free(outside_script);
	char *ready = path_join(w->proj, "ready"), *go = path_join(w->proj, "go");
	unlink(ready), unlink(go);
	free(ready), free(go);
	return r;
}

int pty_held_until_enter(pid_t pid, int master, char *out, size_t size, bool *held)
{
	int st = 0;
	pty_read_until(master, NULL, 500, out, size, false);
	*held = waitpid(pid, &st, WNOHANG) == 0;
	cr_assert_eq(write(master, "\r", 1), 1);
	for (long end = ms_now() + 10000; ms_now() < end && waitpid(pid, &st, WNOHANG) == 0;)
		pty_read_until(master, NULL, 50, out, size, false);
	return st;
}
