/* The session registry: one small JSON file per live session, under
 * /run/cordon (root) or ~/.local/state/cordon/sessions; and where the
 * sweep keeps its records and notes (root: /var/lib/cordon). Portable. */
#include "cordon/session.h"

#include <dirent.h>
#include <errno.h>
#include <signal.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cordon/strv.h"
#include "jsonutil.h"
#include "util.h"

bool cordon_session_id_valid(const char *id)
{
	size_t n = strlen(id);
	if (n == 0 || n >= sizeof(((struct cordon_session_info *)0)->id))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
			return false;
	return true;
}

/* mkdir -p D, 0700 for its last component. */
static int make_dir(char *d, struct cordon_error *err)
{
	for (char *p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(d, 0755);
		*p = '/';
	}
	if (mkdir(d, 0700) < 0 && errno != EEXIST)
		return cordon_err(err, errno, "%s: %s", d, strerror(errno));
	return 0;
}

int cordon_registry_dir(char **dir, struct cordon_error *err)
{
	char *d;
	int r;
#ifdef CORDON_TEST_HOOKS
	/* Test builds: CORDON_TEST_REGISTRY names one (a test's sessions,
	 * apart from the suite's others, which would count as running; and
	 * its state, cordon_state_dir). */
	const char *test = getenv("CORDON_TEST_REGISTRY");
	if (test && test[0] == '/')
		r = asprintf(&d, "%s", test);
	else
#endif
		if (geteuid() == 0) {
		r = asprintf(&d, CORDON_ROOT_REGISTRY);
	} else {
		const char *state = getenv("XDG_STATE_HOME");
		const char *home = getenv("HOME");
		if (state && state[0] == '/')
			r = asprintf(&d, "%s/cordon/sessions", state);
		else if (home && home[0] == '/')
			r = asprintf(&d, "%s/.local/state/cordon/sessions", home);
		else
			return cordon_err(err, ENOENT, "no $HOME for the session registry");
	}
	if (r < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	if ((r = make_dir(d, err)) < 0) {
		free(d);
		return r;
	}
	*dir = d;
	return 0;
}

/* The sweep's records and the notes root's sessions kept in the registry
 * before they had a state directory of their own, copied into NEW
 * (a directory no one else sees yet): a link an earlier session laid
 * stays refused, a sweep that never ran is still done. */
static void take_legacy(int new)
{
	DIR *old = opendir(CORDON_ROOT_REGISTRY);
	struct dirent *e;
	while (old && (e = readdir(old))) {
		const char *dot = strchr(e->d_name, '.');
		if ((strncmp(e->d_name, "sweep-", 6) != 0 &&
		     strncmp(e->d_name, "wrote-", 6) != 0) ||
		    (dot && strncmp(dot, ".pending-", 9) != 0 && strncmp(dot, ".start-", 7) != 0))
			continue; /* (not a lock, nor what was being written) */
		int from = openat(dirfd(old), e->d_name,
				  O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC);
		struct stat st;
		int to = from >= 0 && fstat(from, &st) == 0 && S_ISREG(st.st_mode)
				 ? openat(new, e->d_name, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC,
					  0600)
				 : -1;
		char buf[65536];
		ssize_t n;
		while (to >= 0 && (n = read(from, buf, sizeof(buf))) > 0)
			if (cordon_write_full(to, buf, (size_t)n) < 0)
				break;
		if (to >= 0)
			close(to);
		if (from >= 0)
			close(from);
	}
	if (old)
		closedir(old);
}

int cordon_state_dir(char **dir, struct cordon_error *err)
{
	bool own = geteuid() != 0;
#ifdef CORDON_TEST_HOOKS
	/* Test builds: CORDON_TEST_REGISTRY holds root's state too, as it
	 * does an ordinary user's. A test's notes (a killed launcher's,
	 * planted) stay apart: any root launch beside it, the suite's or
	 * another suite's, judged them in /var/lib/cordon first. */
	const char *test = getenv("CORDON_TEST_REGISTRY");
	own = own || (test && test[0] == '/');
#endif
	if (own)
		return cordon_registry_dir(dir, err);
	/* Root's registry is in /run, which a reboot empties: its state
	 * is kept apart, where it lasts. Made whole, with what root's
	 * sessions kept in the registry before, then renamed into place. */
	char *d = strdup(CORDON_ROOT_STATE);
	if (!d)
		return cordon_err(err, ENOMEM, "out of memory");
	struct stat st;
	if (lstat(d, &st) < 0 && errno == ENOENT) {
		char tmp[sizeof(CORDON_ROOT_STATE) + 32];
		snprintf(tmp, sizeof(tmp), "%s.new-%d", CORDON_ROOT_STATE, (int)getpid());
		if (make_dir(tmp, err) == 0) {
			int fd = open(tmp, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
			if (fd >= 0) {
				take_legacy(fd);
				close(fd);
			}
#ifdef RENAME_NOREPLACE
			int moved = renameat2(AT_FDCWD, tmp, AT_FDCWD, d, RENAME_NOREPLACE);
#else
			int moved = rename(tmp, d); /* (not over one with anything in it) */
#endif
			if (moved < 0) {
				/* (Another launch made it first.) */
				DIR *t = opendir(tmp);
				struct dirent *e;
				while (t && (e = readdir(t)))
					(void)unlinkat(dirfd(t), e->d_name, 0);
				if (t)
					closedir(t);
				(void)rmdir(tmp);
			}
		}
	}
	int r = make_dir(d, err);
	if (r == 0 && (lstat(d, &st) < 0 || !S_ISDIR(st.st_mode)))
		r = cordon_err(err, ENOTDIR, "%s: not a directory", d);
	if (r < 0) {
		free(d);
		return r;
	}
	*dir = d;
	return 0;
}

static int registry_path(const char *id, char *out, size_t size, struct cordon_error *err)
{
	if (!cordon_session_id_valid(id))
		return cordon_err(err, EINVAL, "\"%s\": not a session id", id);
	cleanup_free char *dir = NULL;
	int r = cordon_registry_dir(&dir, err);
	if (r < 0)
		return r;
	snprintf(out, size, "%s/%s.json", dir, id);
	return 0;
}

int cordon_registry_write(const struct cordon_session_info *s, struct cordon_error *err)
{
	char path[PATH_MAX], tmp[PATH_MAX + 8];
	int r = registry_path(s->id, path, sizeof(path), err);
	if (r < 0)
		return r;
	struct json_object *o = json_object_new_object();
	json_object_object_add(o, "id", json_object_new_string(s->id));
	json_object_object_add(o, "shell", json_object_new_int64(s->shell));
	json_object_object_add(o, "watcher", json_object_new_int64(s->watcher));
	json_object_object_add(o, "keeper", json_object_new_int64(s->keeper));
	json_object_object_add(o, "started", json_object_new_int64(s->started));
	json_object_object_add(o, "cgroup", json_object_new_string(s->cgroup));
	json_object_object_add(o, "project", json_object_new_string(s->project));
	json_object_object_add(o, "sockets", json_object_new_string(s->sockets));
	if (s->userns)
		json_object_object_add(o, "userns", json_object_new_int64((int64_t)s->userns));
	if (s->tmpdir[0])
		json_object_object_add(o, "tmpdir", json_object_new_string(s->tmpdir));
	const char *text = json_object_to_json_string_ext(o, JSON_C_TO_STRING_PLAIN);
	snprintf(tmp, sizeof(tmp), "%s.tmp", path);
	FILE *f = fopen(tmp, "we");
	if (!f) {
		json_object_put(o);
		return cordon_err(err, errno, "%s: %s", tmp, strerror(errno));
	}
	bool written = fputs(text, f) != EOF;
	json_object_put(o);
	if (fclose(f) != 0 || !written || rename(tmp, path) < 0) {
		int e = errno ? errno : EIO;
		(void)unlink(tmp);
		return cordon_err(err, e, "%s: %s", path, strerror(e));
	}
	return 0;
}

static int get_int(struct json_object *o, const char *key, long long *out)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_int))
		return -EINVAL;
	*out = json_object_get_int64(v);
	return 0;
}

static int get_str(struct json_object *o, const char *key, char *out, size_t size)
{
	struct json_object *v;
	if (!json_object_object_get_ex(o, key, &v) || !json_object_is_type(v, json_type_string) ||
	    (size_t)json_object_get_string_len(v) >= size)
		return -EINVAL;
	memcpy(out, json_object_get_string(v), (size_t)json_object_get_string_len(v) + 1);
	return 0;
}

int cordon_registry_read(const char *id, struct cordon_session_info *s, struct cordon_error *err)
{
	char path[PATH_MAX];
	int r = registry_path(id, path, sizeof(path), err);
	if (r < 0)
		return r;
	cleanup_free char *buf = NULL;
	size_t len;
	r = cordon_read_file(path, (size_t)64 * 1024, &buf, &len, err);
	if (r < 0)
		return r == -ENOENT ? cordon_err(err, ENOENT, "%s: no such session", id) : r;
	struct json_object *o = NULL;
	r = cordon_json_parse_strict(buf, len, path, &o, err);
	if (r < 0)
		return r;
	long long shell = 0, watcher = 0, keeper = 0, started = 0, userns = 0;
	memset(s, 0, sizeof(*s));
	if (get_str(o, "id", s->id, sizeof(s->id)) < 0 || get_int(o, "shell", &shell) < 0 ||
	    get_int(o, "watcher", &watcher) < 0 || get_int(o, "started", &started) < 0 ||
	    get_str(o, "cgroup", s->cgroup, sizeof(s->cgroup)) < 0 ||
	    get_str(o, "project", s->project, sizeof(s->project)) < 0 || strcmp(s->id, id) != 0)
		r = cordon_err(err, EINVAL, "%s: malformed session record", path);
	(void)get_int(o, "keeper", &keeper); /* absent on macOS */
	(void)get_str(o, "sockets", s->sockets, sizeof(s->sockets));
	(void)get_int(o, "userns", &userns); /* absent: none made, or not known */
	(void)get_str(o, "tmpdir", s->tmpdir, sizeof(s->tmpdir));
	json_object_put(o);
	s->shell = (pid_t)shell;
	s->watcher = (pid_t)watcher;
	s->keeper = (pid_t)keeper;
	s->started = started;
	s->userns = userns > 0 ? (uint64_t)userns : 0;
	/* The record names a cgroup that cordon will kill: accept only a leaf
	 * named after this very session. */
	if (r >= 0 && s->cgroup[0]) {
		const char *base = strrchr(s->cgroup, '/');
		char want[64];
		snprintf(want, sizeof(want), "/cordon-%s", id);
		if (s->cgroup[0] != '/' || !base || strcmp(base, want) != 0 ||
		    strstr(s->cgroup, "/.."))
			r = cordon_err(err, EINVAL, "%s: session record names an unexpected cgroup",
				       path);
	}
	return r;
}

/* /proc/PID/stat from field 3 on (the state), after the command name, which
 * may hold ')' and spaces; NULL where it cannot be read. */
/* The fields after the command's name in the stat file at PATH, read
 * into BUF, or NULL. */
static const char *stat_at(const char *path, char buf[512])
{
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, 511, f);
	(void)fclose(f); /* read only */
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p + 2 : NULL;
}

static const char *proc_stat(pid_t pid, char buf[512])
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	return stat_at(path, buf);
}

bool cordon_registry_live(const struct cordon_session_info *s)
{
	/* A watcher that was killed stays a zombie until its parent (the
	 * session's shell) exits: kill(pid, 0) still succeeds for it, so its
	 * state is read too (0 without procfs: kill() said it is there). */
	pid_t pid = s->watcher;
	if (pid <= 0 || (kill(pid, 0) < 0 && errno != EPERM))
		return false;
	char state = cordon_proc_state(pid);
	if (state == 'Z' || state == 'X')
		return false;
	/* A process that started after the session did is not its supervisor:
	 * a survivor of the session that took the dead one's pid (a program
	 * named cordon ignoring SIGUSR1: kill then ended nothing), or another
	 * session's launcher steered onto it (kill then ended that one;
	 * round 40f N1, N2). Not known (no procfs): taken as there. */
	long long t = cordon_proc_started(pid);
	return t < 0 || t <= s->started + 2;
}

int cordon_registry_each_live(bool (*fn)(const struct cordon_session_info *, void *), void *arg)
{
	char **ids = NULL;
	size_t n = 0;
	struct cordon_error e = {0};
	int r = cordon_registry_list(&ids, &n, &e);
	if (r < 0)
		return r;
	for (size_t i = 0; i < n; i++) {
		struct cordon_session_info info;
		if (r == 0 && cordon_registry_read(ids[i], &info, &e) == 0 &&
		    cordon_registry_live(&info) && fn(&info, arg))
			r = 1;
		free(ids[i]);
	}
	free(ids);
	return r;
}

static bool other_than(const struct cordon_session_info *s, void *arg)
{
	const char *except = *(const char **)arg;
	return !except || strcmp(s->id, except) != 0;
}

int cordon_registry_any_live(const char *except)
{
	return cordon_registry_each_live(other_than, &except);
}

char cordon_proc_state(pid_t pid)
{
	char buf[512];
	const char *p = proc_stat(pid, buf);
	if (!p)
		return '\0';
	return p[0];
}

char cordon_proc_task_state(pid_t pid, pid_t tid)
{
	char path[96], buf[512];
	snprintf(path, sizeof(path), "/proc/%d/task/%d/stat", (int)pid, (int)tid);
	const char *p = stat_at(path, buf);
	if (!p)
		return '\0';
	return p[0];
}

bool cordon_proc_in_cgroup(pid_t pid, const char *cgroup)
{
	const char *leaf = strrchr(cgroup, '/');
	char path[64], line[512];
	snprintf(path, sizeof(path), "/proc/%d/cgroup", (int)pid);
	FILE *f = leaf ? fopen(path, "re") : NULL;
	bool inside = false;
	size_t ln = leaf ? strlen(leaf) : 0;
	while (f && !inside && fgets(line, sizeof(line), f)) {
		const char *at = strstr(line, leaf);
		inside = at && (at[ln] == '\n' || at[ln] == '/' || at[ln] == '\0');
	}
	if (f)
		(void)fclose(f); /* read only */
	return inside;
}

long cordon_proc_stat_field(pid_t pid, int field)
{
	char buf[512];
	const char *p = proc_stat(pid, buf);
	for (int i = 3; p && i < field; i++)
		if ((p = strchr(p, ' ')))
			p++;
	return p && field > 3 ? strtol(p, NULL, 10) : -1;
}

int cordon_registry_remove(const char *id)
{
	char path[PATH_MAX];
	if (registry_path(id, path, sizeof(path), NULL) < 0)
		return -EINVAL;
	return unlink(path) < 0 ? -errno : 0;
}

int cordon_registry_list(char ***ids, size_t *n, struct cordon_error *err)
{
	cleanup_free char *dir = NULL;
	int r = cordon_registry_dir(&dir, err);
	if (r < 0 || !dir)
		return r < 0 ? r : cordon_err(err, ENOENT, "no registry directory");
	DIR *d = opendir(dir);
	if (!d)
		return cordon_err(err, errno, "%s: %s", dir, strerror(errno));
	struct cordon_strv sv = {0};
	struct dirent *e;
	time_t now = time(NULL);
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		/* A record a killed launcher never finished (written and renamed
		 * within microseconds otherwise): gone after a minute. */
		struct stat st;
		if (len > 9 && strcmp(e->d_name + len - 9, ".json.tmp") == 0 &&
		    fstatat(dirfd(d), e->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0 &&
		    S_ISREG(st.st_mode) && st.st_mtime < now - 60)
			(void)unlinkat(dirfd(d), e->d_name, 0);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		char id[64];
		snprintf(id, sizeof(id), "%.*s", (int)(len - 5), e->d_name);
		if (cordon_session_id_valid(id) && cordon_strv_push(&sv, id) < 0) {
			closedir(d);
			cordon_strv_free(&sv);
			return cordon_err(err, ENOMEM, "out of memory");
		}
	}
	closedir(d);
	if (!sv.v && !(sv.v = calloc(1, sizeof(char *)))) /* empty, still NULL-terminated */
		return cordon_err(err, ENOMEM, "out of memory");
	*ids = sv.v;
	*n = sv.n;
	return 0;
}

/* rm -rf below the directory fd DIR (closed here), never following a link. */
static void remove_below(int dir)
{
	DIR *d = fdopendir(dir);
	if (!d) {
		close(dir);
		return;
	}
	struct dirent *e;
	while ((e = readdir(d))) {
		if (strcmp(e->d_name, ".") == 0 || strcmp(e->d_name, "..") == 0)
			continue;
		if (unlinkat(dirfd(d), e->d_name, 0) == 0 || errno != EISDIR)
			continue;
		int sub = openat(dirfd(d), e->d_name,
				 O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
		if (sub >= 0)
			remove_below(sub);
		(void)unlinkat(dirfd(d), e->d_name, AT_REMOVEDIR);
	}
	closedir(d);
}

void cordon_remove_tree(const char *path)
{
	int fd = open(path, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC);
	if (fd >= 0)
		remove_below(fd);
	(void)rmdir(path);
}
