/* The session registry: one small JSON file per live session, under
 * /run/cordon (root) or ~/.local/state/cordon/sessions. Portable. */
#include "cordon/session.h"

#include <dirent.h>
#include <errno.h>
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
	long long shell = 0, watcher = 0, keeper = 0, started = 0;
	memset(s, 0, sizeof(*s));
	if (get_str(o, "id", s->id, sizeof(s->id)) < 0 || get_int(o, "shell", &shell) < 0 ||
	    get_int(o, "watcher", &watcher) < 0 || get_int(o, "started", &started) < 0 ||
	    get_str(o, "cgroup", s->cgroup, sizeof(s->cgroup)) < 0 ||
	    get_str(o, "project", s->project, sizeof(s->project)) < 0 || strcmp(s->id, id) != 0)
		r = cordon_err(err, EINVAL, "%s: malformed session record", path);
	(void)get_int(o, "keeper", &keeper); /* absent on macOS */
	(void)get_str(o, "sockets", s->sockets, sizeof(s->sockets));
	json_object_put(o);
	s->shell = (pid_t)shell;
	s->watcher = (pid_t)watcher;
	s->keeper = (pid_t)keeper;
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

/* /proc/PID/stat from field 3 on (the state), after the command name, which
 * may hold ')' and spaces; NULL where it cannot be read. */
static const char *proc_stat(pid_t pid, char buf[512])
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/stat", (int)pid);
	FILE *f = fopen(path, "re");
	if (!f)
		return NULL;
	size_t n = fread(buf, 1, 511, f);
	(void)fclose(f); /* read only */
	buf[n] = '\0';
	const char *p = strrchr(buf, ')');
	return p && p[1] == ' ' ? p + 2 : NULL;
}

char cordon_proc_state(pid_t pid)
{
	char buf[512];
	const char *p = proc_stat(pid, buf);
	if (!p)
		return '\0';
	return p[0];
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
