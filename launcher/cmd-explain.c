/* cordon explain: the resolved policy, and what given paths get. */
#include <errno.h>
#include <limits.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include <json-c/json.h>

#include "cordon/env.h"
#include "cordon/guard.h"
#include "cordon/sandbox.h"
#include "cordon/session.h"
#include "cordon/sweep.h"
#include "cordon/sbpl.h"
#include "launcher.h"
#include "suggest.h"
#include "util.h"

static const char *kind_name(unsigned kind)
{
	return kind == CORDON_KIND_TOOL ? "tool" : "terminal";
}

/* explain runs inside another cordon session: whatever this policy allows,
 * the outer session's rules hold too (cordon_sandbox_nested). */
static bool nested;

/* Why the rule at PATH is shared for a mount ("is also /tmp/src": policy.c
 * share_mounted_in_shared), or NULL. */
static const char *mounted_from(const struct cordon_policy *p, const char *path)
{
	size_t n = strlen(path);
	for (size_t i = 0; i < p->shared_mounts.n; i++) {
		const char *line = p->shared_mounts.v[i];
		if (strncmp(line, path, n) == 0 && line[n] == '\t')
			return line + n + 1;
	}
	return NULL;
}

/* TMPDIR as the session gets it from outside (the environment's filter
 * usually takes it out), or NULL. */
static const char *session_tmpdir(const struct cordon_policy *p)
{
	return cordon_env_allowed(&p->env_allow, "TMPDIR", 6) ? getenv("TMPDIR") : NULL;
}

/* The unix-socket rules: the session's own, the allowed ones, and a word
 * on the ssh agent, which is out of reach unless allowed. */
/* The sessions' TMPDIR as run makes it (cordon_session_tmp_dir's answer
 * T, the directory, or its OWNER where another user's). */
struct tmp_answer {
	int t;
	uid_t owner;
	char dir[PATH_MAX];
};

static void explain_sockets(const struct cordon_policy *p, const struct tmp_answer *tmp)
{
	char own[4096];
	printf("\nunix sockets: those whose server runs inside the session, and\n");
	if (!nested && cordon_session_socket_dir("ID", own, sizeof(own)) == 0)
		printf("  (servers started inside keep theirs in %s, made read-write for\n"
		       "  each session, TMUX_TMPDIR; the other sessions' beside it are read-only)\n",
		       own);
	if (tmp->t > 0)
		printf("  (and in %s%s, which the user's sessions share, pinned in\n"
		       "  place: none in /tmp or /var/tmp themselves, where clients outside look\n"
		       "  for their servers)\n",
		       tmp->dir, tmp->t == 1 ? " (TMPDIR)" : "");
	else if (tmp->t == -EPERM)
		printf("  (none in /tmp or /var/tmp, where clients outside look for their\n"
		       "  servers; and no TMPDIR: %s is uid %u's, not yours)\n",
		       tmp->dir, (unsigned)tmp->owner);
	for (size_t i = 0; i < p->n_sockets; i++)
		printf("  %s  (%s)\n", p->sockets[i].path, p->sockets[i].source);
	/* (What run says at launch: round 59 left "$UNSET" unsaid there.) */
	for (size_t i = 0; i < p->sockets_unapplied.n; i++)
		printf("  warning: %s\n", p->sockets_unapplied.v[i]);
	if (!p->n_sockets)
		printf("  (no others: %s)\n",
		       p->sockets_unapplied.n ? "none of those given allows one here (above)"
					      : "allowed_unix_sockets is empty");
	printf("  every other one is refused (EACCES), even under a read-write rule\n");
	const char *agent = getenv("SSH_AUTH_SOCK");
	bool allowed = false;
	for (size_t i = 0; i < p->n_sockets; i++)
		allowed |= strstr(p->sockets[i].source, "$SSH_AUTH_SOCK") != NULL;
	if (agent && *agent && !allowed)
		printf("  the ssh agent ($SSH_AUTH_SOCK) is not reachable; it signs as you (git push,\n"
		       "  ssh logins, commit signatures). To allow it: "
		       "\"allowed_unix_sockets\": [\"$SSH_AUTH_SOCK\"]\n");
}

/* What the session gives at rule R's path where that is more than R
 * gives (Landlock adds the rights of every rule above a name: round 58c
 * F7, a read-only rule beneath the project was listed r-- alone). */
static void explain_more(const struct cordon_policy *p, const struct cordon_guard_plan *plan,
			 const struct cordon_rule *r)
{
	/* (/sys, /dev: round 59c F2, listed rwx.) */
	if ((r->access & CORDON_ACCESS_WRITE) && cordon_sandbox_view_read_only(r->path))
		printf("; the session's view keeps %s read-only%s", r->path,
		       cordon_path_under(r->path, "/dev")
			       ? ": its device nodes are written as their modes allow"
			       : "");
	const struct cordon_rule *why = NULL;
	unsigned all = cordon_policy_access(p, r->path, &why);
	if (all == r->access || !why)
		return;
	const struct cordon_mount *g = cordon_guard_plan_find(plan, r->path);
	unsigned left = !g ? all : g->op == CORDON_MOUNT_HIDE ? 0 : all & ~CORDON_ACCESS_WRITE;
	char buf[4];
	printf("; %s there: %s (%s) covers it too", cordon_access_str(left, buf), why->path,
	       why->source);
	if (g)
		printf(", %s by %s", cordon_mount_op_name(g->op), g->source);
}

/* The guards: what the session's mount namespace keeps read-only or
 * hidden although a rule reaches it, and the guards with nothing to do. */
static void explain_guards(const struct cordon_policy *p, const struct cordon_guard_plan *plan)
{
	printf("\nguarded (read-only or hidden although a rule reaches them):\n");
	for (size_t i = 0; i < plan->n; i++)
		printf("  %-9s %s  (%s)\n", cordon_mount_op_name(plan->v[i].op), plan->v[i].path,
		       plan->v[i].source);
	if (!plan->n)
		printf("  (nothing: no rule reaches a protected or hidden path)\n");
	if (plan->closed)
		printf("  %-9s %s  (the home, writable: no new name is made directly in it, so "
		       "that no missing dotfile is; its directories take new files)\n",
		       "closed", plan->closed);
	/* A root session's idmapped directories (mountns.c idmap_root). */
	struct cordon_root_cut cuts[16];
	size_t n_cuts = CORDON_OS_NATIVE == CORDON_OS_LINUX && p->sandbox && geteuid() == 0
				? cordon_guard_root_cuts(p, cuts, 16)
				: 0;
	for (size_t i = 0; i < n_cuts; i++)
		printf("  %-9s %s  (%s)\n", "idmapped", cuts[i].path,
		       cuts[i].id ? "root reads it as anyone does: its secrets are unread; "
				    "/etc/shadow reads as a copy without password fields, sudo's "
				    "files and a path a rule names as they are"
				  : "shared: root is an owner there, no more: the other users' "
				    "files are out of its capabilities' reach");
	struct cordon_sieve sieve;
	if (CORDON_OS_NATIVE == CORDON_OS_LINUX && p->sandbox &&
	    cordon_sieve_init(p, plan->closed, &sieve) == 0) {
		for (size_t i = 0; i < p->n_rules; i++) {
			const struct cordon_rule *r = &p->rules[i];
			bool writes = r->access & CORDON_ACCESS_WRITE;
			if (cordon_sieve_needed(&sieve, r) &&
			    (!writes || cordon_sieve_toward_closed(
						&sieve, cordon_sieve_rule_path(&sieve, r), writes)))
				printf("  %-9s %s  (%s: granted entry by entry, so that a name made "
				       "in it after the session starts, outside, gets no access "
				       "inside until the next session)\n",
				       "sieved", r->path, r->source);
		}
		cordon_sieve_free(&sieve);
	}
	if (cordon_sweep_applies(p)) {
		if (p->project)
			printf("  %-9s %s  (as the session ends, each repository in it made or "
			       "changed inside that would run a program outside is moved to "
			       ".git.cordon-disarmed)\n",
			       "swept", p->project);
		for (size_t i = 0; i < p->n_rules; i++)
			if (cordon_policy_writable_root(p, &p->rules[i]))
				printf("  %-9s %s  (writable too: swept as the project is)\n",
				       "swept", p->rules[i].path);
		for (size_t i = 0; i < p->shared.n; i++) {
			/* (The history directory: no rule of system_paths'.) */
			bool history = false;
			for (size_t k = 0; k < p->n_rules; k++)
				history =
					history || (strcmp(p->rules[k].path, p->shared.v[i]) == 0 &&
						    strcmp(p->rules[k].source, "history") == 0);
			printf(history ? "  %-9s %s  (the shell history directory: swept as the "
					 "project is, its top too)\n"
				       : "  %-9s %s  (shared, writable: below its top, swept as the "
					 "project is; at its top, the names looked for above are "
					 "kept)\n",
			       "swept", p->shared.v[i]);
		}
	}
	for (size_t i = 0; i < p->n_exposed; i++)
		printf("  %-9s %s  (in %s, but %s names it: not hidden)\n", "exposed",
		       p->exposed[i].path, p->exposed[i].source, p->exposed[i].by);
	if (plan->refuse)
		printf("  REFUSED: %s\n", plan->refuse);
	for (size_t i = 0; i < plan->notes.n; i++)
		printf("  note: %s\n", plan->notes.v[i]);
	for (size_t i = 0; i < plan->warnings.n; i++)
		printf("  warning: %s\n", plan->warnings.v[i]);
}

/* What a connect from inside to the socket at ABS would get. */
static void explain_socket(const struct cordon_policy *p, const char *abs)
{
	for (size_t i = 0; i < p->n_sockets; i++)
		if (strcmp(p->sockets[i].path, abs) == 0) {
			printf("  socket: reachable (from %s)\n", p->sockets[i].source);
			return;
		}
	printf("  socket: refused unless its server runs inside the session\n"
	       "  to allow connecting to it, add to your config: ");
	launcher_print_config_line(stdout, "allowed_unix_sockets", abs);
	printf("\n");
}

/* ABS does not exist, and the nearest directory above it that does is
 * CLOSED: its first missing name would be made directly there. */
static bool made_in_closed(const char *abs, const char *closed)
{
	char buf[PATH_MAX];
	if (snprintf(buf, sizeof(buf), "%s", abs) >= (int)sizeof(buf))
		return false;
	size_t n = strlen(buf);
	while (n > 1 && buf[n - 1] == '/')
		buf[--n] = '\0';
	struct stat st;
	if (lstat(buf, &st) == 0 || errno != ENOENT)
		return false;
	for (char *slash; (slash = strrchr(buf, '/')) && slash != buf;) {
		*slash = '\0';
		if (lstat(buf, &st) == 0)
			return strcmp(buf, closed) == 0;
		if (errno != ENOENT)
			return false;
	}
	return false;
}

static void explain_proposal(const struct cordon_policy *p, const char *abs, unsigned acc);

static void explain_path(const struct cordon_policy *p, const struct cordon_guard_plan *plan,
			 const char *arg)
{
	cleanup_free char *abs = launcher_absolute(arg, p->home);
	if (!abs) {
		printf("%s: cannot resolve\n", arg);
		return;
	}
	struct stat st;
	if (p->sandbox && stat(abs, &st) == 0 && S_ISSOCK(st.st_mode)) {
		printf("%s\n", abs);
		explain_socket(p, abs);
		return;
	}
	const struct cordon_rule *why = NULL;
	unsigned acc = p->sandbox ? cordon_policy_access(p, abs, &why) : CORDON_ACCESS_ALL;
	const struct cordon_mount *g = p->sandbox ? cordon_guard_plan_find(plan, abs) : NULL;
	if (g) {
		char buf[4];
		unsigned left = g->op == CORDON_MOUNT_HIDE ? 0 : acc & ~CORDON_ACCESS_WRITE;
		printf("%s\n  access: %s (%s by %s: %s; a rule would give %s)\n", abs,
		       cordon_access_str(left, buf), cordon_mount_op_name(g->op), g->source,
		       g->path, cordon_access_str(acc, (char[4]){0}));
		if (strncmp(g->source, "hidden_paths", 12) == 0 ||
		    strncmp(g->source, "protected_paths", 15) == 0)
			printf("  to change this, edit %s in your config\n",
			       g->op == CORDON_MOUNT_HIDE ? "hidden_paths" : "protected_paths");
		else
			printf("  kept so by cordon itself (%s): edit it outside; \"Protected "
			       "and hidden paths\" in the README says what else changes it\n",
			       g->source);
		return;
	}
	char buf[4];
	if (p->sandbox && (acc & CORDON_ACCESS_WRITE) && cordon_sandbox_view_read_only(abs)) {
		printf("%s\n  access: %s (from %s: %s; the session's view keeps it read-only: "
		       "every mount is, but for the write rules' own copies, which %s gets none "
		       "of)\n",
		       abs, cordon_access_str(acc & ~CORDON_ACCESS_WRITE, buf),
		       why ? why->source : "?", why ? why->path : "?",
		       cordon_path_under(abs, "/sys") ? "/sys" : "/dev");
		return;
	}
	/* A new name directly in a writable home (round 58c F5), or beneath
	 * one (59d F4: ~/missing/x, ~/newdir/): none is made (explain_guards'
	 * "closed"). */
	if (p->sandbox && plan->closed && (acc & CORDON_ACCESS_WRITE) &&
	    made_in_closed(abs, plan->closed)) {
		printf("%s\n  access: none to make it (the home is closed: no new name is made "
		       "directly in it, so that no missing dotfile is; make it outside, or in a "
		       "directory of the home)\n",
		       abs);
		return;
	}
	printf("%s\n  access: %s", abs, cordon_access_str(acc, buf));
	if (!p->sandbox)
		printf(" (sandbox off%s)\n",
		       nested ? " here; the outer session's rules still apply" : "");
	else if (why)
		printf(" (from %s: %s)\n", why->source, why->path);
	else
		printf(" (no rule covers it)\n");
	const char *alias = why && why->shared ? mounted_from(p, why->path) : NULL;
	if (p->sandbox && alias)
		printf("  %s %s (a bind mount), in a directory every user shares: no socket\n"
		       "  or symbolic link is made there, and nothing is moved in from another\n"
		       "  directory\n",
		       why->path, alias);
	else if (p->sandbox && why && why->shared && CORDON_OS_NATIVE == CORDON_OS_LINUX)
		printf("  shared with servers outside: no socket or symbolic link is made there, and\n"
		       "  nothing is moved in from another directory (make them in $TMPDIR or the\n"
		       "  project; naming %s in additional_read_write_paths allows it)\n",
		       why->path);
	if (p->sandbox && nested)
		printf("  inside another cordon session: what the outer session denies stays "
		       "denied\n");
	struct stat node;
	if (p->sandbox && acc && lstat(abs, &node) == 0 &&
	    (S_ISCHR(node.st_mode) || S_ISBLK(node.st_mode)))
		printf("  a device: its mode decides too, and a session has no capabilities (a "
		       "root session reads no disk and no kernel log)\n");
	const struct cordon_guard *secret = p->sandbox ? cordon_policy_hidden(p, abs) : NULL;
	if (secret && secret->by) {
		printf("  %s is in %s, but %s names it: not hidden in this session; a "
		       "credential store: cordon proposes nothing more for it\n",
		       secret->path, secret->source, secret->by);
		return;
	}
	if (secret) {
		printf("  in hidden_paths (%s): it holds credentials, or copies that may hold "
		       "them; cordon does not propose it.\n"
		       "  Only if the session must use it: name %s itself in a rule (--allow-read, "
		       "or --allow-write for an editor's swap or undo directory)\n",
		       secret->path, secret->path);
		return;
	}
	if (p->sandbox && acc != CORDON_ACCESS_ALL)
		explain_proposal(p, abs, acc);
}

/* The one line that gives ABS (absolute) the next right it lacks: read (as
 * executable when it is a program or a library), execute for a program,
 * else write; never for what learn would never propose (suggest.h), and
 * never write on a program, a library, a system path or a cache programs
 * outside run code from. */
static void explain_proposal(const struct cordon_policy *p, const char *abs, unsigned acc)
{
	struct stat st = {0};
	bool program = stat(abs, &st) == 0 && S_ISREG(st.st_mode) &&
		       ((st.st_mode & 0111) || suggest_is_library(abs));
	unsigned want = !(acc & CORDON_ACCESS_READ)              ? CORDON_ACCESS_READ
			: program && !(acc & CORDON_ACCESS_EXEC) ? CORDON_ACCESS_EXEC
								 : CORDON_ACCESS_WRITE;
	if (want == CORDON_ACCESS_READ && program)
		want = CORDON_ACCESS_EXEC;
	cleanup_free char *dir = strdup(abs);
	char *slash = dir ? strrchr(dir, '/') : NULL;
	if (slash)
		slash[slash == dir ? 1 : 0] = '\0';
	const char *why = suggest_never(p, NULL, abs), *dir_why = NULL;
	char in_dir[160];
	if (!why && want == CORDON_ACCESS_WRITE) {
		if (program)
			why = "a program or library: making it writable would let the session "
			      "change what runs outside";
		else if (dir && (dir_why = suggest_never(p, NULL, dir))) {
			/* (The directory's own reason: "your home directory"
			 * was told as a system directory, round 58c F9.) */
			snprintf(in_dir, sizeof(in_dir), "it is in %s", dir_why);
			why = in_dir;
		} else if (suggest_holds_programs(S_ISDIR(st.st_mode) ? abs : dir, false))
			why = suggest_holds_programs(S_ISDIR(st.st_mode) ? abs : dir, false);
		else {
			bool beneath;
			why = suggest_code_cache(p->home, abs, &beneath);
		}
	}
	if (why) {
		printf("  cordon does not propose %s it: %s\n",
		       want == CORDON_ACCESS_WRITE ? "writing" : "allowing", why);
		return;
	}
	const char *what = want == CORDON_ACCESS_READ    ? "reading"
			   : want == CORDON_ACCESS_WRITE ? "writing"
							 : "executing";
	printf("  to allow %s, add to your config: ", what);
	launcher_print_config_line(stdout, cordon_config_key_for(want), abs);
	printf("\n");
}

/* The Seatbelt profile, after its bindings as comment lines with JSON
 * string values (a newline in a path stays inside its comment). */
static int print_sbpl(const struct cordon_policy *p, struct cordon_error *err)
{
	struct cordon_sbpl s;
	int r = cordon_sbpl_generate(p, NULL, &s, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < s.n_params; i++) {
		json_object *v = json_object_new_string(s.params[2 * i + 1]);
		printf("; %s = %s\n", s.params[2 * i],
		       v ? json_object_to_json_string_ext(v, JSON_C_TO_STRING_NOSLASHESCAPE) : "?");
		json_object_put(v);
	}
	(void)fputs(s.profile, stdout);
	cordon_sbpl_free(&s);
	return 0;
}

/* The domain rules, in the order they are judged. */
static void explain_domains(const struct cordon_policy *p)
{
	printf("domains:        ");
	if (!p->allowed_domains.n)
		printf("none allowed (allowed_domains is empty)");
	for (size_t i = 0; i < p->allowed_domains.n; i++)
		printf("%s%s", i ? " " : "", p->allowed_domains.v[i]);
	printf("\n");
	if (p->denied_domains.n) {
		printf("denied (wins):  ");
		for (size_t i = 0; i < p->denied_domains.n; i++)
			printf("%s%s", i ? " " : "", p->denied_domains.v[i]);
		printf("\n");
	}
}

#ifndef SO_NETNS_COOKIE
#define SO_NETNS_COOKIE 71
#endif

/* The network namespace cookie of socket FD, or 0. */
static uint64_t netns_cookie(int fd)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);
	return getsockopt(fd, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) == 0 ? cookie : 0;
}

/* Whether this process's network namespace has no device but lo (a
 * session's own: /proc/net follows the namespace). */
static bool lone_loopback(void)
{
	FILE *f = fopen("/proc/self/net/dev", "r");
	if (!f)
		return false;
	char line[256];
	int devices = 0;
	bool lo = false;
	while (fgets(line, sizeof(line), f))
		if (strchr(line, ':')) {
			devices++;
			lo |= strncmp(line + strspn(line, " "), "lo:", 3) == 0;
		}
	(void)fclose(f);
	return devices == 1 && lo;
}

/* Whether the outer session blocks the network: cordon's filter refuses
 * every socket but a unix one with EACCES; or (its own network namespace,
 * offline) the kernel makes internet sockets in this process's namespace,
 * which holds lo alone, where online the supervisor makes them in the
 * host's. */
static bool outer_offline(void)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return errno == EACCES || errno == EPERM;
	int u = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	uint64_t inet = netns_cookie(fd), own = u >= 0 ? netns_cookie(u) : 0;
	close(fd);
	if (u >= 0)
		close(u);
	return inet && inet == own && lone_loopback();
}

/* The network line: what a run here gets. */
static const char *network_text(const struct cordon_policy *p)
{
	if (nested && outer_offline())
		return "blocked (by the outer session, whatever this policy says)";
	if (!p->sandbox)
		return nested ? "allowed (sandbox off here; the outer session's rules still apply)"
			      : "allowed (sandbox off)";
	/* (Not nested, the session has a loopback of its own: netns.c.) */
	if (!p->allow_network)
		return nested || CORDON_OS_NATIVE != CORDON_OS_LINUX
			       ? "blocked (npm, cargo, go, pip, uv and yarn are told to work offline)"
			       : "blocked but the session's own loopback (npm, cargo, go, pip, uv "
				 "and yarn are told to work offline)";
	if (p->domains)
		return "by domain (TCP only through cordon's proxy; UDP, direct connections and "
		       "name lookups refused)";
	return nested ? "allowed, as far as the outer session allows it" : "allowed";
}

/* The environment line: with the sandbox on, the allowed names (less those
 * cordon always removes: the config refuses to list them); off, all of it. */
static void explain_env(const struct cordon_policy *p)
{
	if (!p->sandbox) {
		printf("environment:    all of it (sandbox off), but LD_PRELOAD and "
		       "DYLD_INSERT_LIBRARIES\n");
		return;
	}
	printf("environment:   ");
	for (size_t i = 0; i < p->env_allow.n; i++)
		if (!cordon_env_never_passed(p->env_allow.v[i]))
			printf(" %s", p->env_allow.v[i]);
	printf(" (plus TERM COLORTERM TERM_PROGRAM TERM_PROGRAM_VERSION)\n");
}

int cmd_explain(const struct cordon_args *a)
{
	struct cordon_error err = {0};
	struct cordon_policy p = {0};
	cleanup_free char *origin = NULL;
	if (launcher_policy(a, NULL, false, &p, &err, &origin) < 0) {
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	nested = cordon_sandbox_nested();
	launcher_say_off_flags(&p); /* (as run says it) */
	/* What a run here refuses, explain refuses the same way. */
	if (nested && p.sandbox && p.allow_network && p.domains) {
		cordon_policy_free(&p);
		launcher_error(&(struct cordon_error){ENOTSUP, CORDON_NESTED_DOMAINS_REFUSED});
		return CORDON_EXIT_FAILURE;
	}
	/* The rules a run adds as it starts the session: the project's shell
	 * history, and inside another session the outer one's sockets. */
	if (p.sandbox &&
	    (launcher_history(&p, launcher_login_shell(), NULL, NULL, NULL, &err) < 0 ||
	     (nested && launcher_outer_sockets(&p, NULL) < 0))) {
		cordon_policy_free(&p);
		launcher_error(&(struct cordon_error){ENOMEM, "out of memory"});
		return CORDON_EXIT_FAILURE;
	}
	/* Inside another session, guards the outer one does not keep: refused
	 * as run refuses them, or (on_unsupported "warn") shown as what they
	 * are there, not kept (round 8: explain said "hidden" of a file the
	 * session then read). */
	struct cordon_strv unkept = {0};
	int nr = nested && p.sandbox ? cordon_sandbox_nested_guards(&p, &unkept, &err) : 0;
	if (nr == -ENOTSUP && p.on_unsupported != CORDON_UNSUPPORTED_WARN) {
		cordon_strv_free(&unkept);
		cordon_policy_free(&p);
		fprintf(stderr,
			"cordon: %s: start this session outside it, or set \"on_unsupported\": "
			"\"warn\" to run without that guard\n",
			err.msg);
		return CORDON_EXIT_FAILURE;
	}
	if (nr == -ENOTSUP) {
		printf("warning:        %s: a run here starts without %s\n", err.msg,
		       unkept.n > 1 ? "them" : "it");
		cordon_policy_drop_guards(&p, &unkept);
	} else if (nr < 0) {
		cordon_strv_free(&unkept);
		cordon_policy_free(&p);
		launcher_error(&err);
		return CORDON_EXIT_FAILURE;
	}
	cordon_strv_free(&unkept);
	if (a->format_sbpl) {
		int r = print_sbpl(&p, &err);
		cordon_policy_free(&p);
		if (r < 0) {
			launcher_error(&err);
			return CORDON_EXIT_FAILURE;
		}
		return 0;
	}
	/* The sessions' TMPDIR, granted as the session starts (43d F2: a path
	 * in it was explained by /tmp's rule). */
	struct tmp_answer tmp = {0};
	if (p.sandbox && !nested)
		tmp.t = cordon_session_tmp_dir(&p, session_tmpdir(&p), tmp.dir, sizeof(tmp.dir),
					       &tmp.owner);
	if (tmp.t > 0 &&
	    cordon_policy_add_rule(&p, tmp.dir, CORDON_ACCESS_ALL, CORDON_TMPDIR_SOURCE) < 0) {
		cordon_policy_free(&p);
		launcher_error(&(struct cordon_error){ENOMEM, "out of memory"});
		return CORDON_EXIT_FAILURE;
	}
	struct cordon_guard_plan plan = {0};
	if (p.sandbox && cordon_guard_plan(&p, false, &plan) < 0) {
		cordon_policy_free(&p);
		launcher_error(&(struct cordon_error){ENOMEM, "out of memory"});
		return CORDON_EXIT_FAILURE;
	}
	printf("config:         %s\n", origin);
	if (p.project)
		printf("project:        %s\n", p.project);
	else
		printf("project:        none (%s; pass --project DIR to choose one)\n",
		       p.no_project ? p.no_project : "?");
	printf("kind:           %s\n", kind_name(a->kind));
	if (nested)
		printf("nested:         inside another cordon session: the outer session's rules "
		       "also apply (what it denies stays denied: files, network, environment)\n");
	printf("sandbox:        %s%s\n",
	       p.sandbox ? "on" : "off (enabled is false, or apply_to does not cover this kind)",
	       !p.sandbox && nested ? "; the outer session's sandbox still holds" : "");
	/* What this system can enforce of it (round 59g F3: explain said on,
	 * where run refused, or under "warn" ran with none). */
	if (p.sandbox) {
		struct cordon_support sup;
		char missing[512];
		cordon_sandbox_probe(&sup);
		if (cordon_sandbox_missing(&p, &sup, missing, sizeof(missing)) > 0)
			printf("                NOT enforceable here: missing %s; `cordon run` %s\n",
			       missing,
			       p.on_unsupported == CORDON_UNSUPPORTED_WARN
				       ? "warns and runs WITHOUT that (on_unsupported is warn): "
					 "what follows does not hold"
				       : "refuses (exit 125)");
	}
	/* With the sandbox off nothing of this session's blocks it, whatever
	 * allow_network says (--no-network is refused then: launcher_policy
	 * failed above). */
	printf("network:        %s\n", network_text(&p));
	if (p.sandbox && p.allow_network && p.domains)
		explain_domains(&p);
	printf("on_unsupported: %s\n",
	       p.on_unsupported == CORDON_UNSUPPORTED_WARN ? "warn" : "refuse");
	if (p.sandbox && CORDON_OS_NATIVE == CORDON_OS_LINUX)
		printf("terminal:       %s\n",
		       p.own_terminal ? "its own: cordon copies what you type in while the job has "
					"your terminal (share_terminal: true gives it yours)"
				      : "yours (share_terminal is true)");
	explain_env(&p);
	if (p.sandbox) {
		printf("\naccess  path  (rule)\n");
		for (size_t i = 0; i < p.n_rules; i++) {
			char buf[4], as[PATH_MAX + 8];
			printf("%s     %s  (%s", cordon_access_str(p.rules[i].access, buf),
			       p.rules[i].path, p.rules[i].source);
			/* (Named through a link: 35b.) */
			if (p.rules[i].written)
				printf(", written %s: through a link",
				       cordon_printable(p.rules[i].written, SIZE_MAX, as,
							sizeof(as)));
			if (p.rules[i].shared && CORDON_OS_NATIVE == CORDON_OS_LINUX)
				printf("; shared with servers outside: no socket or symbolic "
				       "link made, nothing moved in");
			explain_more(&p, &plan, &p.rules[i]);
			printf(")\n");
		}
		explain_sockets(&p, &tmp);
		explain_guards(&p, &plan);
		if (p.skipped.n) {
			printf("\nskipped (cannot be resolved):\n");
			for (size_t i = 0; i < p.skipped.n; i++)
				printf("  %s\n", p.skipped.v[i]);
		}
		if (p.unfollowed.n) {
			printf("\nnot granted (a link a session could lay):\n");
			for (size_t i = 0; i < p.unfollowed.n; i++)
				printf("  %s\n", p.unfollowed.v[i]);
		}
	}
	for (int i = 0; i < a->n_rest; i++) {
		printf("\n");
		explain_path(&p, &plan, a->rest[i]);
	}
	/* What run refuses (exit 125), explain refuses too, after showing
	 * why: a script that asks explain first is not told all is well
	 * (round 10). */
	int rc = 0;
	if (plan.refuse) {
		(void)fflush(stdout);
		(void)fprintf(stderr, "cordon: %s\n", plan.refuse);
		rc = CORDON_EXIT_FAILURE;
	}
	cordon_guard_plan_free(&plan);
	cordon_policy_free(&p);
	return rc;
}
