/* cgroup v2 session tracking and the session registry. */
#include "cordon/session.h"

#include <dirent.h>
#include <stdbool.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include "cordon/strv.h"
#include "jsonutil.h"
#include "util.h"

/* Field 5 of a mountinfo line is the mount point, and after " - " comes the
 * filesystem type. Octal escapes (\040 for a space) are decoded. */
static void unescape(char *s)
{
	char *w = s;
	for (char *r = s; *r; r++) {
		if (r[0] == '\\' && r[1] >= '0' && r[1] <= '3' && r[2] >= '0' && r[2] <= '7' &&
		    r[3] >= '0' && r[3] <= '7') {
			*w++ = (char)((r[1] - '0') * 64 + (r[2] - '0') * 8 + (r[3] - '0'));
			r += 3;
		} else {
			*w++ = *r;
		}
	}
	*w = '\0';
}

static int find_mount(char **mount, struct cordon_error *err)
{
	FILE *f = fopen("/proc/self/mountinfo", "re");
	if (!f)
		return cordon_err(err, errno, "/proc/self/mountinfo: %s", strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	int r = cordon_err(err, ENOENT, "no cgroup2 filesystem is mounted (/proc/self/mountinfo)");
	while (getline(&line, &cap, f) > 0) {
		char *sep = strstr(line, " - ");
		if (!sep || strncmp(sep + 3, "cgroup2 ", 8) != 0)
			continue;
		char *save = NULL, *tok = strtok_r(line, " ", &save);
		for (int i = 1; tok && i < 5; i++)
			tok = strtok_r(NULL, " ", &save);
		if (!tok)
			continue;
		unescape(tok);
		*mount = strdup(tok);
		r = *mount ? 0 : cordon_err(err, ENOMEM, "out of memory");
		break;
	}
	free(line);
	(void)fclose(f); /* read only */
	return r;
}

static int own_cgroup(char **own, struct cordon_error *err)
{
	FILE *f = fopen("/proc/self/cgroup", "re");
	if (!f)
		return cordon_err(err, errno, "/proc/self/cgroup: %s", strerror(errno));
	char *line = NULL;
	size_t cap = 0;
	int r = cordon_err(err, ENOENT, "/proc/self/cgroup: no cgroup v2 (\"0::\") entry");
	ssize_t n;
	while ((n = getline(&line, &cap, f)) > 0) {
		if (strncmp(line, "0::", 3) != 0)
			continue;
		if (line[n - 1] == '\n')
			line[n - 1] = '\0';
		*own = strdup(line + 3);
		r = *own ? 0 : cordon_err(err, ENOMEM, "out of memory");
		break;
	}
	free(line);
	(void)fclose(f); /* read only */
	return r;
}

int cordon_cgroup_locate(char **mount, char **own, struct cordon_error *err)
{
	int r = find_mount(mount, err);
	if (r < 0)
		return r;
	r = own_cgroup(own, err);
	if (r < 0) {
		free(*mount);
		*mount = NULL;
	}
	return r;
}

int cordon_cgroup_create(const char *id, char **path, struct cordon_error *err)
{
	cleanup_free char *mount = NULL, *own = NULL;
	int r = cordon_cgroup_locate(&mount, &own, err);
	if (r < 0 || !mount || !own)
		return r < 0 ? r : cordon_err(err, ENOENT, "no cgroup2 mount");
	/* A process in "/" of a nested namespace may see "/.." style paths; only
	 * plain absolute paths are used. */
	if (own[0] != '/' || strstr(own, "/.."))
		return cordon_err(err, EINVAL, "/proc/self/cgroup: unusable path \"%s\"", own);
	char *p;
	if (asprintf(&p, "%s%s/cordon-%s", mount, strcmp(own, "/") == 0 ? "" : own, id) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	if (mkdir(p, 0755) < 0) {
		r = cordon_err(err, errno, "%s: cannot create the session cgroup: %s", p,
			       strerror(errno));
		free(p);
		return r;
	}
	*path = p;
	return 0;
}

static int write_file_str(const char *dir, const char *name, const char *val,
			  struct cordon_error *err)
{
	char path[PATH_MAX];
	snprintf(path, sizeof(path), "%s/%s", dir, name);
	cleanup_close int fd = open(path, O_WRONLY | O_CLOEXEC);
	if (fd < 0)
		return cordon_err(err, errno, "%s: %s", path, strerror(errno));
	size_t len = strlen(val);
	if (write(fd, val, len) != (ssize_t)len)
		return cordon_err(err, errno, "%s: writing \"%s\": %s", path, val, strerror(errno));
	return 0;
}

int cordon_cgroup_enter(const char *path, pid_t pid, struct cordon_error *err)
{
	char buf[32];
	snprintf(buf, sizeof(buf), "%d", pid ? (int)pid : 0);
	return write_file_str(path, "cgroup.procs", buf, err);
}

int cordon_read_pids(const char *file, pid_t **pids, size_t *n)
{
	cleanup_close int fd = open(file, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return -errno;
	cleanup_free char *text = NULL;
	size_t len = 0, cap = 0;
	for (;;) {
		if (cap - len < 4096) {
			cap = cap ? cap * 2 : 8192;
			char *nt = realloc(text, cap + 1);
			if (!nt)
				return -ENOMEM;
			text = nt;
		}
		ssize_t r = read(fd, text + len, cap - len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0)
			return -errno;
		if (r == 0)
			break;
		len += (size_t)r;
	}
	pid_t *out = NULL;
	size_t cnt = 0, room = 0;
	char *s = text;
	if (text)
		text[len] = '\0';
	while (s && *s) {
		char *end;
		errno = 0;
		long v = strtol(s, &end, 10);
		if (end == s)
			break;
		s = end;
		if (errno || v <= 0 || v > INT_MAX)
			continue;
		if (cnt == room) {
			room = room ? room * 2 : 64;
			pid_t *nv = realloc(out, room * sizeof(*nv));
			if (!nv) {
				free(out);
				return -ENOMEM;
			}
			out = nv;
		}
		out[cnt++] = (pid_t)v;
	}
	*pids = out;
	*n = cnt;
	return 0;
}

int cordon_cgroup_pids(const char *path, pid_t **pids, size_t *n, struct cordon_error *err)
{
	char file[PATH_MAX];
	snprintf(file, sizeof(file), "%s/cgroup.procs", path);
	int r = cordon_read_pids(file, pids, n);
	return r < 0 ? cordon_err(err, r, "%s: %s", file, strerror(-r)) : 0;
}

/* Whether the cgroup still has processes (cgroup.events "populated 0/1"). */
static int populated(int events_fd)
{
	char buf[256];
	ssize_t n = pread(events_fd, buf, sizeof(buf) - 1, 0);
	if (n < 0)
		return -errno;
	buf[n] = '\0';
	const char *p = strstr(buf, "populated ");
	return p ? p[10] == '1' : -EINVAL;
}

int cordon_cgroup_kill(const char *path, struct cordon_error *err)
{
	int r = write_file_str(path, "cgroup.kill", "1", err);
	return r == -ENOENT ? cordon_cgroup_freeze_kill(path, err) : r;
}

int cordon_cgroup_freeze_kill(const char *path, struct cordon_error *err)
{
	int r = write_file_str(path, "cgroup.freeze", "1", err);
	if (r < 0)
		return r;
	pid_t *pids = NULL;
	size_t n = 0;
	r = cordon_cgroup_pids(path, &pids, &n, err);
	if (r >= 0) {
		for (size_t i = 0; i < n; i++)
			kill(pids[i], SIGKILL);
		free(pids);
	}
	int t = write_file_str(path, "cgroup.freeze", "0", err);
	return r < 0 ? r : t;
}

int cordon_cgroup_destroy(const char *path, struct cordon_error *err)
{
	char events[PATH_MAX];
	snprintf(events, sizeof(events), "%s/cgroup.events", path);
	cleanup_close int fd = open(events, O_RDONLY | O_CLOEXEC);
	if (fd < 0)
		return cordon_err(err, errno, "%s: %s", events, strerror(errno));
	for (int round = 0;; round++) {
		int pop = populated(fd);
		if (pop < 0)
			return cordon_err(err, -pop, "%s: unreadable", events);
		if (!pop)
			break;
		/* cgroup.kill is one pass over the tree; repeating it covers the
		 * fallback loop (and anything that raced in). */
		if (round % 256 == 0) {
			int r = cordon_cgroup_kill(path, err);
			if (r < 0)
				return r;
		}
		/* The kernel notifies a change of cgroup.events with POLLPRI, but
		 * at most every ~12 ms (measured): re-check every millisecond so the
		 * session is gone as soon as the kernel is done. */
		struct pollfd p = {.fd = fd, .events = POLLPRI};
		poll(&p, 1, 1);
	}
	for (int i = 0; i < 1000; i++) {
		if (rmdir(path) == 0 || errno == ENOENT)
			return 0;
		if (errno != EBUSY)
			break;
		usleep(100); /* exiting tasks leave the cgroup a moment after "populated 0" */
	}
	return cordon_err(err, errno, "%s: cannot remove: %s", path, strerror(errno));
}

/* ---- registry ------------------------------------------------------------ */

static bool valid_id(const char *id)
{
	size_t n = strlen(id);
	if (n == 0 || n >= sizeof(((struct cordon_session_info *)0)->id))
		return false;
	for (size_t i = 0; i < n; i++)
		if (!((id[i] >= '0' && id[i] <= '9') || (id[i] >= 'a' && id[i] <= 'f')))
			return false;
	return true;
}

int cordon_registry_dir(char **dir, struct cordon_error *err)
{
	char *d;
	int r;
	if (geteuid() == 0) {
		r = asprintf(&d, "/run/cordon");
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
	/* mkdir -p, 0700 for the last component. */
	for (char *p = d + 1; *p; p++) {
		if (*p != '/')
			continue;
		*p = '\0';
		mkdir(d, 0755);
		*p = '/';
	}
	if (mkdir(d, 0700) < 0 && errno != EEXIST) {
		r = cordon_err(err, errno, "%s: %s", d, strerror(errno));
		free(d);
		return r;
	}
	*dir = d;
	return 0;
}

static int registry_path(const char *id, char *out, size_t size, struct cordon_error *err)
{
	if (!valid_id(id))
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
	json_object_object_add(o, "started", json_object_new_int64(s->started));
	json_object_object_add(o, "cgroup", json_object_new_string(s->cgroup));
	json_object_object_add(o, "project", json_object_new_string(s->project));
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
	long long shell = 0, watcher = 0, started = 0;
	memset(s, 0, sizeof(*s));
	if (get_str(o, "id", s->id, sizeof(s->id)) < 0 || get_int(o, "shell", &shell) < 0 ||
	    get_int(o, "watcher", &watcher) < 0 || get_int(o, "started", &started) < 0 ||
	    get_str(o, "cgroup", s->cgroup, sizeof(s->cgroup)) < 0 ||
	    get_str(o, "project", s->project, sizeof(s->project)) < 0 || strcmp(s->id, id) != 0)
		r = cordon_err(err, EINVAL, "%s: malformed session record", path);
	json_object_put(o);
	s->shell = (pid_t)shell;
	s->watcher = (pid_t)watcher;
	s->started = started;
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
	while ((e = readdir(d))) {
		size_t len = strlen(e->d_name);
		if (len < 6 || strcmp(e->d_name + len - 5, ".json") != 0)
			continue;
		char id[64];
		snprintf(id, sizeof(id), "%.*s", (int)(len - 5), e->d_name);
		if (valid_id(id) && cordon_strv_push(&sv, id) < 0) {
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
