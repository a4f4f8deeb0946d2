/* Where the home's tools keep what cordon hides or keeps read-only, when
 * the user moved it: the XDG base directories set elsewhere
 * (XDG_CONFIG_HOME=~/cfg), and a tool's own variable (DOCKER_CONFIG,
 * KUBECONFIG, GNUPGHOME, ...: xdg-ninja's advice). Round 10 read six
 * credential stores moved so, and had fish and git outside run what a
 * session wrote in a moved XDG_CONFIG_HOME, while the same files in their
 * usual places held. Also the patterns of hidden_paths
 * ("~/.config/STAR/User/globalStorage": VS Code's forks to come). */
#include <errno.h>
#include <dirent.h>
#include <fnmatch.h>
#include <limits.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cordon/policy.h"
#include "util.h"

static const struct {
	const char *usual, *var;
} xdg_dirs[] = {{"~/.config", "XDG_CONFIG_HOME"},
		{"~/.local/share", "XDG_DATA_HOME"},
		{"~/.cache", "XDG_CACHE_HOME"},
		{"~/.local/state", "XDG_STATE_HOME"}};

/* V, a value of VAR, when it is an absolute path other than the usual
 * DIR ("~/..."), without trailing slashes, into OUT; false otherwise. */
static bool moved_dir(const char *v, const char *usual, const char *home, char *out, size_t size)
{
	if (!v || v[0] != '/' || !home || strlen(v) >= size)
		return false;
	size_t m = (size_t)snprintf(out, size, "%s", v);
	while (m > 1 && out[m - 1] == '/')
		out[--m] = '\0';
	char was[PATH_MAX];
	snprintf(was, sizeof(was), "%s/%s", home, usual + 2);
	return strcmp(was, out) != 0;
}

/* DIR (moved_dir's) with ENTRY's rest past the usual directory's N bytes
 * into OUT, once. */
static int push_at(const char *dir, const char *entry, size_t n, struct cordon_strv *out)
{
	char there[PATH_MAX * 2], lit[PATH_MAX * 2];
	/* (A pattern's directory, escaped: XDG_CONFIG_HOME=/x/cfg[1] is that
	 * name, not a pattern of its own.) */
	if (cordon_home_pattern(entry) && cordon_glob_escape(dir, lit, sizeof(lit)))
		dir = lit;
	if ((size_t)snprintf(there, sizeof(there), "%s%s", dir, entry + n) < PATH_MAX &&
	    cordon_strv_push_new(out, there) < 0)
		return -ENOMEM;
	return 0;
}

int cordon_home_xdg(const char *entry, const char *home, const struct cordon_context *ctx,
		    struct cordon_strv *out)
{
	for (size_t k = 0; k < ARRAY_SIZE(xdg_dirs); k++) {
		size_t n = strlen(xdg_dirs[k].usual);
		char dir[PATH_MAX];
		if (strncmp(entry, xdg_dirs[k].usual, n) != 0 ||
		    (entry[n] != '\0' && entry[n] != '/'))
			continue;
		const char *v = ctx && ctx->getenv_fn ? ctx->getenv_fn(xdg_dirs[k].var) : NULL;
		if (moved_dir(v, xdg_dirs[k].usual, home, dir, sizeof(dir)) &&
		    push_at(dir, entry, n, out) < 0)
			return -ENOMEM;
		/* Where earlier launches had it (round 51e F2: this launch's
		 * may lack the variable; cordon_sweep_known_xdg keeps those that
		 * are directories, the newest few). */
		size_t vn = strlen(xdg_dirs[k].var);
		for (size_t i = 0; ctx && ctx->known_xdg && i < ctx->known_xdg->n; i++) {
			const char *kv = ctx->known_xdg->v[i];
			if (strncmp(kv, xdg_dirs[k].var, vn) == 0 && kv[vn] == '=' &&
			    moved_dir(kv + vn + 1, xdg_dirs[k].usual, home, dir, sizeof(dir)) &&
			    push_at(dir, entry, n, out) < 0)
				return -ENOMEM;
		}
	}
	return 0;
}

int cordon_home_xdg_list(const char *const *list, const char *home,
			 const struct cordon_context *ctx, struct cordon_strv *out)
{
	for (size_t i = 0; list && list[i]; i++) /* (a path twice is guarded once) */
		if (cordon_strv_push(out, list[i]) < 0 ||
		    cordon_home_xdg(list[i], home, ctx, out) < 0)
			return -ENOMEM;
	return 0;
}

/* A hidden_paths entry, and the variable with which its tool moves it:
 * its value names the store itself, or (FILE) the directory FILE is in;
 * LIST: a ':'-separated list of them. */
static const struct {
	const char *entry, *var, *file;
	bool list;
} moved_stores[] = {
	{"~/.docker", "DOCKER_CONFIG", NULL, false},
	{"~/.kube", "KUBECONFIG", NULL, true},
	{"~/.aws", "AWS_SHARED_CREDENTIALS_FILE", NULL, false},
	{"~/.aws", "AWS_CONFIG_FILE", NULL, false},
	{"~/.azure", "AZURE_CONFIG_DIR", NULL, false},
	{"~/.gnupg", "GNUPGHOME", NULL, false},
	{"~/.password-store", "PASSWORD_STORE_DIR", NULL, false},
	{"~/.npmrc", "NPM_CONFIG_USERCONFIG", NULL, false},
	{"~/.npmrc", "npm_config_userconfig", NULL, false},
	{"~/.pgpass", "PGPASSFILE", NULL, false},
	{"~/.pg_service.conf", "PGSERVICEFILE", NULL, false},
	{"~/.netrc", "NETRC", NULL, false},
	{"~/.mylogin.cnf", "MYSQL_TEST_LOGIN_FILE", NULL, false},
	{"~/.terraformrc", "TF_CLI_CONFIG_FILE", NULL, false},
	{"~/.oci", "OCI_CLI_CONFIG_FILE", NULL, false},
	{"~/.boto", "BOTO_CONFIG", NULL, false},
	{"~/.databrickscfg", "DATABRICKS_CONFIG_FILE", NULL, false},
	{"~/.kaggle", "KAGGLE_CONFIG_DIR", NULL, false},
	{"~/.minikube", "MINIKUBE_HOME", NULL, false},
	{"~/.talos", "TALOSCONFIG", NULL, false},
	{"~/.cargo/credentials.toml", "CARGO_HOME", "credentials.toml", false},
	{"~/.cargo/credentials", "CARGO_HOME", "credentials", false},
	{"~/.dbt/profiles.yml", "DBT_PROFILES_DIR", "profiles.yml", false},
	{"~/.cache/huggingface/token", "HF_HOME", "token", false},
	{"~/.cache/huggingface/token", "HF_TOKEN_PATH", NULL, false},
	{"~/.claude/.credentials.json", "CLAUDE_CONFIG_DIR", ".credentials.json", false},
	{"~/.codex/auth.json", "CODEX_HOME", "auth.json", false},
	{"~/.pulumi/credentials.json", "PULUMI_HOME", "credentials.json", false},
	{"~/.config/gh", "GH_CONFIG_DIR", NULL, false},
	{"~/.config/gcloud", "CLOUDSDK_CONFIG", NULL, false},
	{"~/.config/rclone", "RCLONE_CONFIG", NULL, false},
	{"~/.config/op", "OP_CONFIG_DIR", NULL, false},
	{"~/.config/hcloud", "HCLOUD_CONFIG", NULL, false},
	{"~/.config/glab-cli", "GLAB_CONFIG_DIR", NULL, false},
	{"~/.config/io.datasette.llm", "LLM_USER_PATH", NULL, false},
	{"~/.config/sops", "SOPS_AGE_KEY_FILE", NULL, false},
	{"~/.config/containers/auth.json", "REGISTRY_AUTH_FILE", NULL, false},
	{"~/.config/helm/registry", "HELM_REGISTRY_CONFIG", NULL, false},
	{"~/.config/helm/repositories.yaml", "HELM_REPOSITORY_CONFIG", NULL, false},
};

/* VALUE (one path of VAR) for ENTRY, into PATHS, and "ENTRY, moved by
 * $VAR" into WHY. */
static int push_moved(const char *entry, const char *var, const char *value, size_t len,
		      const char *file, struct cordon_strv *paths, struct cordon_strv *why)
{
	char path[PATH_MAX];
	/* (Not a device: DOCKER_CONFIG=/dev/null, a CI idiom, stores nothing.) */
	if (len == 0 || value[0] != '/' || (len >= 5 && strncmp(value, "/dev/", 5) == 0) ||
	    (len >= 6 && strncmp(value, "/proc/", 6) == 0) ||
	    (size_t)snprintf(path, sizeof(path), "%.*s%s%s", (int)len, value, file ? "/" : "",
			     file ? file : "") >= sizeof(path) ||
	    cordon_strv_contains(paths, path))
		return 0;
	cleanup_free char *label = NULL;
	if (asprintf(&label, "%s, moved by $%s", entry, var) < 0)
		return -ENOMEM;
	if (cordon_strv_push(paths, path) < 0 || (why && cordon_strv_push(why, label) < 0))
		return -ENOMEM;
	return 0;
}

int cordon_home_moved(const char *entry, char *(*getenv_fn)(const char *),
		      struct cordon_strv *paths, struct cordon_strv *why)
{
	for (size_t i = 0; getenv_fn && i < ARRAY_SIZE(moved_stores); i++) {
		if (strcmp(entry, moved_stores[i].entry) != 0)
			continue;
		const char *v = getenv_fn(moved_stores[i].var);
		for (const char *s = v; s && *s;) {
			size_t len = moved_stores[i].list ? strcspn(s, ":") : strlen(s);
			if (push_moved(entry, moved_stores[i].var, s, len, moved_stores[i].file,
				       paths, why) < 0)
				return -ENOMEM;
			s += len;
			s += *s == ':';
		}
	}
	return 0;
}

bool cordon_home_pattern(const char *entry)
{
	return strpbrk(entry, "*?[") != NULL;
}

bool cordon_glob_escape(const char *literal, char *out, size_t size)
{
	size_t n = 0;
	for (const char *c = literal; *c; c++) {
		if (n + 3 > size)
			return false;
		if (strchr("*?[\\", *c))
			out[n++] = '\\';
		out[n++] = *c;
	}
	if (n + 1 > size)
		return false;
	out[n] = '\0';
	return true;
}

bool cordon_glob_unescape(const char *in, size_t n, char *out, size_t size)
{
	size_t k = 0;
	for (size_t i = 0; i < n && in[i]; i++) {
		if (in[i] == '\\' && i + 1 < n && in[i + 1])
			i++;
		if (k + 1 >= size)
			return false;
		out[k++] = in[i];
	}
	out[k] = '\0';
	return true;
}

bool cordon_glob_literal_part(const char *part, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (part[i] == '\\') {
			i++;
			continue;
		}
		if (part[i] == '*' || part[i] == '?' || part[i] == '[')
			return false;
	}
	return true;
}

/* PATTERN's parts from REST on, matched beneath the directory PATH's
 * first LEN bytes name ("" for "/"), into OUT: a part without a pattern
 * taken as it is, one with a pattern against each name in the directory
 * but "." and ".." (fnmatch, no FNM_PERIOD: a name that starts with a
 * dot too, ~/.config/.app/Cookies: 54g G1; glibc's GLOB_PERIOD does so
 * only for the last part, musl's for each). */
static int glob_from(char *path, size_t len, const char *rest, struct cordon_strv *out)
{
	rest += strspn(rest, "/");
	size_t n = strcspn(rest, "/");
	bool last = rest[n + strspn(rest + n, "/")] == '\0';
	if (!n || len + 1 + n >= PATH_MAX)
		return 0;
	struct stat st;
	char part[NAME_MAX + 1];
	if (cordon_glob_literal_part(rest, n)) {
		if (!cordon_glob_unescape(rest, n, part, sizeof(part)))
			return 0;
		size_t k = strlen(part);
		if (len + 1 + k >= PATH_MAX)
			return 0;
		path[len] = '/';
		memcpy(path + len + 1, part, k + 1);
		int e = last ? (lstat(path, &st) == 0 ? cordon_strv_push_new(out, path) : 0)
			     : glob_from(path, len + 1 + k, rest + n, out);
		path[len] = '\0';
		return e;
	}
	if (n > NAME_MAX)
		return 0;
	memcpy(part, rest, n);
	part[n] = '\0';
	DIR *d = opendir(len ? path : "/");
	int e = 0;
	for (struct dirent *de; d && e >= 0 && (de = readdir(d));) {
		size_t k = strlen(de->d_name);
		if (cordon_dot_or_dotdot(de->d_name) || fnmatch(part, de->d_name, 0) != 0 ||
		    len + 1 + k >= PATH_MAX)
			continue;
		path[len] = '/';
		memcpy(path + len + 1, de->d_name, k + 1);
		if (last)
			e = cordon_strv_push_new(out, path);
		else if (stat(path, &st) == 0 && S_ISDIR(st.st_mode))
			e = glob_from(path, len + 1 + k, rest + n, out);
		path[len] = '\0';
	}
	if (d)
		closedir(d);
	return e;
}

int cordon_home_glob(const char *pattern, const char *as_written, struct cordon_strv *out)
{
	/* A name that is what it says ("~/My Keys [old]": round 11 found it
	 * hid nothing once patterns came), and what the pattern matches but
	 * "." and ".." ("~/.*" would hide the home). */
	struct stat st;
	int e = as_written && lstat(as_written, &st) == 0 ? cordon_strv_push_new(out, as_written)
							  : 0;
	char path[PATH_MAX] = "";
	return e < 0 || pattern[0] != '/' ? e : glob_from(path, 0, pattern, out);
}

enum cordon_glob_meet cordon_glob_meet(const char *glob, const char *path)
{
	char gp[NAME_MAX + 1], pp[NAME_MAX + 1];
	for (;;) {
		glob += strspn(glob, "/");
		path += strspn(path, "/");
		if (!*path)
			return *glob ? CORDON_GLOB_ABOVE : CORDON_GLOB_AT;
		if (!*glob)
			return CORDON_GLOB_BELOW;
		size_t gn = strcspn(glob, "/"), pn = strcspn(path, "/");
		if (gn > NAME_MAX || pn > NAME_MAX)
			return CORDON_GLOB_NONE;
		memcpy(gp, glob, gn);
		gp[gn] = '\0';
		memcpy(pp, path, pn);
		pp[pn] = '\0';
		if (fnmatch(gp, pp, 0) != 0)
			return CORDON_GLOB_NONE;
		glob += gn;
		path += pn;
	}
}

int cordon_passwd_entry(uid_t uid, char **dir, char **shell)
{
	*dir = NULL;
	if (shell)
		*shell = NULL;
	FILE *f = fopen("/etc/passwd", "re");
	if (!f)
		return -ENOENT;
	int r = -ENOENT;
	for (struct passwd *pw; (pw = fgetpwent(f));)
		if (pw->pw_uid == uid) {
			*dir = pw->pw_dir ? strdup(pw->pw_dir) : NULL;
			if (shell)
				*shell = pw->pw_shell ? strdup(pw->pw_shell) : NULL;
			r = 0;
			break;
		}
	(void)fclose(f); /* read only */
	return r;
}

char *cordon_passwd_home(uid_t uid)
{
	char *dir;
	if (cordon_passwd_entry(uid, &dir, NULL) < 0 || !dir || dir[0] != '/') {
		free(dir);
		return NULL;
	}
	return dir;
}
