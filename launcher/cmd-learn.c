/* cordon learn: run a command sandboxed with the recorder library
 * (libcordon-learn.so) preloaded into every process, then report each
 * access the sandbox denied, with the config line that would allow it. */
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <libgen.h>
#include <limits.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "cordon/policy.h"
#include "cordon/guard.h"
#include "launcher.h"
#include "util.h"

struct denial {
	unsigned want; /* CORDON_ACCESS_READ / WRITE / EXEC */
	char *path;    /* canonical where it exists, else its canonical directory + name */
	char *target;  /* what to allow: the path, or its nearest existing ancestor */
	bool missing;  /* the path does not exist (a create that was refused) */
};

static int cmp_denial(const void *a, const void *b)
{
	const struct denial *x = a, *y = b;
	int c = strcmp(x->target, y->target);
	if (c)
		return c;
	c = strcmp(x->path, y->path);
	return c ? c : (int)x->want - (int)y->want;
}

/* Canonical PATH, or of its nearest existing ancestor (*MISSING set). */
static char *existing_target(const char *path, bool *missing)
{
	*missing = false;
	char *canon = realpath(path, NULL);
	if (canon)
		return canon;
	*missing = true;
	char *dir = strdup(path);
	while (dir && strcmp(dir, "/") != 0) {
		char *slash = strrchr(dir, '/');
		if (!slash)
			break;
		*(slash == dir ? slash + 1 : slash) = '\0';
		canon = realpath(dir, NULL);
		if (canon) {
			free(dir);
			return canon;
		}
	}
	free(dir);
	return strdup("/");
}

/* What to show for a recorded PATH: the canonical TARGET when it exists;
 * for a refused create, TARGET (its directory) + its name. */
static char *display_path(const char *path, const char *target, bool missing)
{
	if (!missing)
		return strdup(target);
	const char *name = strrchr(path, '/');
	char *out;
	if (asprintf(&out, "%s%s", strcmp(target, "/") ? target : "", name ? name : "/?") < 0)
		return NULL;
	return out;
}

/* The unix sockets the supervisor refused ("s\tPATH" records), once each. */
static void collect_sockets(const char *text, struct cordon_strv *out)
{
	for (const char *line = text; line && *line;) {
		const char *end = strchr(line, '\n');
		size_t len = end ? (size_t)(end - line) : strlen(line);
		if (len > 2 && line[0] == 's' && line[1] == '\t') {
			char *path = strndup(line + 2, len - 2);
			if (path && !cordon_strv_contains(out, path))
				(void)cordon_strv_push(out, path);
			free(path);
		}
		line = end ? end + 1 : NULL;
	}
}

static const char *kind_word(unsigned want)
{
	return want == CORDON_ACCESS_READ    ? "read"
	       : want == CORDON_ACCESS_WRITE ? "write"
					     : "execute";
}

/* Read the records; keep those the policy explains (the policy denies that
 * kind of access: the sandbox refused it), deduplicated. The refused
 * sockets go to SOCKETS. */
static size_t collect(int fd, const struct cordon_policy *p, const struct cordon_guard_plan *plan,
		      struct denial **out, struct cordon_strv *sockets, struct cordon_strv *guarded)
{
	struct stat st;
	*out = NULL;
	if (fstat(fd, &st) < 0 || st.st_size <= 0)
		return 0;
	size_t len = (size_t)st.st_size;
	char *text = malloc(len + 1);
	if (!text || pread(fd, text, len, 0) != (ssize_t)len) {
		free(text);
		return 0;
	}
	text[len] = '\0';
	collect_sockets(text, sockets);
	struct denial *d = NULL;
	size_t n = 0, cap = 0;
	char *save = NULL;
	for (char *line = strtok_r(text, "\n", &save); line; line = strtok_r(NULL, "\n", &save)) {
		if (strlen(line) < 3 || line[1] != '\t' || line[2] != '/')
			continue;
		unsigned want = line[0] == 'r'   ? CORDON_ACCESS_READ
				: line[0] == 'w' ? CORDON_ACCESS_WRITE
				: line[0] == 'x' ? CORDON_ACCESS_EXEC
						 : 0;
		if (!want)
			continue;
		bool missing;
		char *target = existing_target(line + 2, &missing);
		if (!target)
			continue;
		/* A create needs write on the directory; anything else, the right
		 * on the file. Granted by the policy: an ordinary permission error. */
		if (missing)
			want = CORDON_ACCESS_WRITE;
		/* Kept from the session on purpose: said, never proposed. A
		 * credential store too, though no mount was needed to hide it. */
		const struct cordon_mount *g = cordon_guard_plan_find(plan, target);
		const struct cordon_guard *secret = cordon_policy_hidden(p, line + 2);
		if ((g && (g->op == CORDON_MOUNT_HIDE || want == CORDON_ACCESS_WRITE)) || secret) {
			char *s = NULL;
			if (asprintf(&s, "    %-8s %s  (%s: %s)", kind_word(want), line + 2,
				     g ? cordon_mount_op_name(g->op) : "hidden",
				     g ? g->source : secret->source) > 0 &&
			    !cordon_strv_contains(guarded, s))
				(void)cordon_strv_push(guarded, s);
			free(s);
			free(target);
			continue;
		}
		char *path = NULL;
		if ((cordon_policy_access(p, target, NULL) & want) ||
		    !(path = display_path(line + 2, target, missing))) {
			free(target);
			continue;
		}
		/* The shown path determines the target: dedup on it and the kind. */
		bool dup = false;
		for (size_t i = 0; i < n && !dup; i++)
			dup = d[i].want == want && strcmp(d[i].path, path) == 0;
		if (dup) {
			free(path);
			free(target);
			continue;
		}
		if (n == cap) {
			cap = cap ? cap * 2 : 16;
			struct denial *nd = realloc(d, cap * sizeof(*d));
			if (!nd) {
				free(path);
				free(target);
				break;
			}
			d = nd;
		}
		d[n].want = want;
		d[n].path = path;
		d[n].target = target;
		d[n].missing = missing;
		n++;
	}
	free(text);
	if (n > 1)
		qsort(d, n, sizeof(*d), cmp_denial);
	*out = d;
	return n;
}

/* The refused unix sockets, and the ssh agent's warning. */
static void report_sockets(const struct cordon_strv *sockets)
{
	if (!sockets->n)
		return;
	const char *agent = getenv("SSH_AUTH_SOCK");
	fprintf(stderr,
		"\ncordon learn: the supervisor refused %zu unix socket%s outside the "
		"session:\n",
		sockets->n, sockets->n == 1 ? "" : "s");
	for (size_t i = 0; i < sockets->n; i++) {
		bool is_agent = agent && strcmp(agent, sockets->v[i]) == 0;
		fprintf(stderr, "    connect  %s%s  → allowed_unix_sockets\n", sockets->v[i],
			is_agent ? " (the ssh agent: $SSH_AUTH_SOCK)" : "");
		if (is_agent)
			fprintf(stderr, "             the agent signs as you: allow it only if the "
					"session may push, log in and sign as you\n");
	}
}

/* The allowed_unix_sockets line: "$SSH_AUTH_SOCK" for the agent's socket
 * (it moves with every login), the paths for the rest. */
static void socket_line(const struct cordon_strv *sockets, bool first)
{
	const char *agent = getenv("SSH_AUTH_SOCK");
	json_object *arr = json_object_new_array();
	for (size_t i = 0; arr && i < sockets->n; i++) {
		bool is_agent = agent && strcmp(agent, sockets->v[i]) == 0;
		json_object_array_add(
			arr, json_object_new_string(is_agent ? "$SSH_AUTH_SOCK" : sockets->v[i]));
	}
	fprintf(stderr, "%s  \"allowed_unix_sockets\": %s", first ? "" : ",\n",
		json_object_to_json_string_ext(arr, JSON_C_TO_STRING_SPACED |
							    JSON_C_TO_STRING_NOSLASHESCAPE));
	json_object_put(arr);
}

static void report(struct denial *d, size_t n, const struct cordon_strv *sockets,
		   const struct cordon_strv *guarded)
{
	if (guarded->n) {
		fprintf(stderr,
			"\ncordon learn: %zu access%s refused by protected_paths or hidden_paths "
			"(never proposed; `cordon explain PATH` says which entry):\n",
			guarded->n, guarded->n == 1 ? "" : "es");
		for (size_t i = 0; i < guarded->n; i++)
			fprintf(stderr, "%s\n", guarded->v[i]);
	}
	report_sockets(sockets);
	if (n == 0 && !sockets->n && !guarded->n) {
		fprintf(stderr, "\ncordon learn: the sandbox denied nothing that was seen "
				"(statically linked programs are not observed)\n");
		return;
	}
	if (n == 0 && !sockets->n)
		return;
	if (n == 0) {
		fprintf(stderr, "\nto allow them, add to your config:\n");
		socket_line(sockets, true);
		fprintf(stderr, "\n");
		return;
	}
	fprintf(stderr, "\ncordon learn: the sandbox denied %zu access%s:\n", n,
		n == 1 ? "" : "es");
	/* Grouped by the directory of each path. */
	char *last = NULL;
	for (size_t i = 0; i < n; i++) {
		char *copy = strdup(d[i].path);
		char *dir = copy ? dirname(copy) : NULL;
		if (dir && (!last || strcmp(last, dir) != 0)) {
			fprintf(stderr, "\n  %s/\n", strcmp(dir, "/") ? dir : "");
			free(last);
			last = strdup(dir);
		}
		const char *base = strrchr(d[i].path, '/');
		fprintf(stderr, "    %-8s %s", kind_word(d[i].want), base ? base + 1 : d[i].path);
		if (d[i].missing)
			fprintf(stderr, "  (does not exist: allow %s)", d[i].target);
		fprintf(stderr, "  → %s\n", cordon_config_key_for(d[i].want));
		free(copy);
	}
	free(last);

	/* The lines to paste: one array per key, each target once. */
	static const unsigned order[] = {CORDON_ACCESS_READ, CORDON_ACCESS_WRITE,
					 CORDON_ACCESS_EXEC};
	fprintf(stderr, "\nto allow them, add to your config:\n");
	bool first = true;
	for (size_t k = 0; k < ARRAY_SIZE(order); k++) {
		json_object *arr = json_object_new_array();
		for (size_t i = 0; arr && i < n; i++) {
			if (d[i].want != order[k])
				continue;
			/* Reading and executing are implied by a write rule on the
			 * same target (read-write grants execute). */
			bool covered = false;
			for (size_t j = 0; j < n && order[k] != CORDON_ACCESS_WRITE && !covered;
			     j++)
				covered = d[j].want == CORDON_ACCESS_WRITE &&
					  strcmp(d[j].target, d[i].target) == 0;
			bool seen = false;
			for (size_t j = 0; j < json_object_array_length(arr) && !seen; j++)
				seen = strcmp(json_object_get_string(
						      json_object_array_get_idx(arr, j)),
					      d[i].target) == 0;
			if (!covered && !seen)
				json_object_array_add(arr, json_object_new_string(d[i].target));
		}
		if (arr && json_object_array_length(arr) > 0) {
			fprintf(stderr, "%s  \"%s\": %s", first ? "" : ",\n",
				cordon_config_key_for(order[k]),
				json_object_to_json_string_ext(
					arr,
					JSON_C_TO_STRING_SPACED | JSON_C_TO_STRING_NOSLASHESCAPE));
			first = false;
		}
		json_object_put(arr);
	}
	if (sockets->n)
		socket_line(sockets, first);
	fprintf(stderr, "\n");
}

int cmd_learn(const struct cordon_args *a)
{
	struct cordon_error err = {0};
	struct cordon_policy p = {0};
	if (launcher_policy(a, NULL, false, &p, &err, NULL) < 0) {
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	cleanup_free char *shim = NULL;
	cleanup_free char *lib = NULL;
	if (launcher_find_shim(&shim, &err) < 0) {
		launcher_error(&err);
		cordon_policy_free(&p);
		return CORDON_EXIT_FAILURE;
	}
	char *slash = strrchr(shim, '/');
	if (asprintf(&lib, "%.*s/libcordon-learn.so", (int)(slash ? slash - shim : 0), shim) < 0 ||
	    access(lib, R_OK) < 0) {
		fprintf(stderr, "cordon: %s: the learn library is missing\n", lib ? lib : "?");
		cordon_policy_free(&p);
		return CORDON_EXIT_FAILURE;
	}
	/* The records: a memfd this process reads afterwards; the command writes
	 * through its own O_APPEND description of it. */
	int fd = memfd_create("cordon-learn", MFD_CLOEXEC);
	char self[64];
	snprintf(self, sizeof(self), "/proc/self/fd/%d", fd);
	int wfd = fd < 0 ? -1 : open(self, O_WRONLY | O_APPEND);
	if (wfd >= 0 && wfd < 3) {
		int hi = fcntl(wfd, F_DUPFD, 3);
		close(wfd);
		wfd = hi;
	}
	if (fd < 0 || wfd < 0) {
		fprintf(stderr, "cordon: the learn log: %s\n", strerror(errno));
		cordon_policy_free(&p);
		return CORDON_EXIT_FAILURE;
	}
	/* Like system(): the command owns the terminal's signals meanwhile. */
	struct sigaction ign = {.sa_handler = SIG_IGN}, old_int, old_quit;
	sigaction(SIGINT, &ign, &old_int);
	sigaction(SIGQUIT, &ign, &old_quit);
	pid_t pid = fork();
	if (pid < 0) {
		fprintf(stderr, "cordon: fork: %s\n", strerror(errno));
		cordon_policy_free(&p);
		return CORDON_EXIT_FAILURE;
	}
	if (pid == 0) {
		sigaction(SIGINT, &old_int, NULL);
		sigaction(SIGQUIT, &old_quit, NULL);
		struct run_learn learn = {.lib = lib, .fd = wfd};
		_exit(cmd_run_learn(a, &learn));
	}
	close(wfd);
	int st = 0;
	while (waitpid(pid, &st, 0) < 0 && errno == EINTR)
		;
	sigaction(SIGINT, &old_int, NULL);
	sigaction(SIGQUIT, &old_quit, NULL);
	int rc = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
	if (p.sandbox) {
		struct denial *d;
		struct cordon_strv sockets = {0}, guarded = {0};
		struct cordon_guard_plan plan = {0};
		(void)cordon_guard_plan(&p, false, &plan); /* none on failure: only less said */
		size_t n = collect(fd, &p, &plan, &d, &sockets, &guarded);
		report(d, n, &sockets, &guarded);
		cordon_guard_plan_free(&plan);
		cordon_strv_free(&sockets);
		cordon_strv_free(&guarded);
		for (size_t i = 0; i < n; i++) {
			free(d[i].path);
			free(d[i].target);
		}
		free(d);
	} else {
		fprintf(stderr, "\ncordon learn: the sandbox is off for this config and kind\n");
	}
	close(fd);
	cordon_policy_free(&p);
	return rc;
}
