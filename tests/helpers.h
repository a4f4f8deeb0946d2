/* Test helpers: temporary worlds and real processes, judged from outside. */
#ifndef CORDON_TEST_HELPERS_H
#define CORDON_TEST_HELPERS_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* A fresh directory (under /mnt/cordon-tests for root, never where the
 * default policy grants access), unique per test; removed by tmp_cleanup. */
char *tmp_dir(const char *tag);
/* rm -rf DIR (no symlink following). */
void tmp_cleanup(const char *dir);
/* Write CONTENT to DIR/NAME (path joined), creating parents. Returns the path. */
char *write_file(const char *dir, const char *name, const char *content);
/* Contents of PATH (NUL-terminated) or NULL if it cannot be read. */
char *read_file(const char *path);
/* Run FN(ARG, FD) in a forked child and return what it wrote to FD
 * (malloc'd, NUL-terminated, at most 4 KiB): the verdict is taken out here,
 * not from inside. The child must exit 0 (asserted, with WHAT in the
 * message); FN returning is a 0 exit. */
char *child_output(void (*fn)(void *arg, int fd), void *arg, const char *what);
bool file_exists(const char *path);
char *path_join(const char *a, const char *b);

struct run_result {
	int status; /* exit status, or 128+signal */
	char *out;  /* captured stdout */
	char *err;  /* captured stderr */
};

/* Run ARGV (argv[0] is a path) with environment ENVP (NULL: inherit) in CWD
 * (NULL: inherit), stdin from /dev/null, capturing stdout and stderr. Kills
 * the child after TIMEOUT_MS (status 128+SIGKILL). */
struct run_result run_cmd(char *const argv[], char *const envp[], const char *cwd, int timeout_ms);
void run_free(struct run_result *r);

/* Convenience: run `cordon ARGS...` (NULL-terminated) in CWD with ENVP. */
struct run_result run_cordon(char *const envp[], const char *cwd, ...);

/* Start ARGV (envp, cwd) in the background, stdin from /dev/null and
 * stdout/stderr to /dev/null. Returns the pid. */
pid_t spawn_cmd(char *const argv[], char *const envp[], const char *cwd);
/* Start ARGV with a new pty as its controlling terminal and stdio. *MASTER
 * is the master side; *SLAVE_NAME (malloc'd) the slave's path. */
pid_t pty_spawn(char *const argv[], char *const envp[], const char *cwd, int *master,
		char **slave_name);
/* Whether PID is gone (no such process, or a zombie), waiting up to MS. */
bool wait_gone(pid_t pid, int ms);
/* Wait up to MS for PATH to exist. */
bool wait_exists(const char *path, int ms);
/* Wait up to MS for PATH, which the session of the launcher PID (our
 * child, from world_spawn) makes as it starts: false at once where the
 * launcher ends first (refused: its stderr is /dev/null), with *SAID
 * naming why (malloc'd). The launcher is left to be reaped. */
bool wait_started(pid_t pid, const char *path, int ms, char **said);
/* PID (not our child) held still by ptrace (seized, interrupted), not by
 * SIGSTOP: the keeper leads a process group of its own, and the kernel
 * continues a stopped process whose group the launcher's death orphans
 * (SIGHUP, then SIGCONT). let_go lets it run again; kill_held kills it
 * where it is. */
void hold_still(pid_t pid);
void let_go(pid_t pid);
void kill_held(pid_t pid);

/* A temporary world for running cordon: DIR/proj (the project and cwd, with
 * bin/ holding copies of the test probes), DIR/outside (a secret and a victim
 * tree), DIR/home ($HOME, no cordon config). cfg is DIR/proj/cordon.json:
 * WORLD_BASE_RW plus EXTRA, so that /tmp, where DIR lives, is not granted and
 * "outside" is really outside. The environment has HOME, PATH (bin first),
 * TERM, SHELL=/bin/sh and SECRET_TOKEN=hunter2. */
#define SECRET        "s3cr3t-c0ntent"
#define WORLD_BASE_RW WORLD_BASE_RW_WITH("")
/* The same, with MORE read-write system paths (", \"/var/tmp\""). */
#define WORLD_BASE_RW_WITH(more)                                                                   \
	"\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/tty\", \"/dev/ptmx\", "         \
	"\"/dev/urandom\", \"/dev/zero\"" more "]}"

struct world {
	char *dir, *proj, *outside, *home, *bin, *secret, *cfg;
	/* "-p PROJ", for sh_in: the project named, where the home's dotfiles
	 * link into it (a dotfiles project is not taken from the cwd). */
	char *popt;
	char *env[16];
	bool as_user; /* world_as_user: its commands run as the test user */
	/* world_as_user: cordon and its shim copied into the world, where the
	 * test user reaches them wherever the build tree is (it may be under a
	 * directory only root may enter), and "LD_PRELOAD=" that shim. */
	char *user_cordon, *user_preload;
	uid_t uid;
	gid_t gid;
};

void world_init(struct world *w, const char *tag, const char *extra);
void world_free(struct world *w);
/* Remove the sweep's record of ROOT, and its marks (world_free does it
 * for the project; a test that makes another root does it for that). */
void sweep_forget(const char *root);
/* The same for every root at or beneath DIR, and the notes of the
 * directories sessions wrote there (wrote-*). */
void sweep_forget_beneath(const char *dir);
/* Add NAME=VALUE to the world's environment (replacing NAME if present). */
void world_setenv(struct world *w, const char *kv);
void copy_exec(const char *src, const char *dst);
/* cordon run --config CFG [OPTS, split on spaces] -- CMD... in the project. */
struct run_result run_in(struct world *w, const char *opts, char *const cmd[]);
/* cordon run --config CFG -- /bin/sh -c SCRIPT, started in DIR (no
 * --project: the project is what DIR makes it). */
struct run_result sh_in_dir(struct world *w, const char *dir, const char *script);
/* run_in with /bin/sh -c SCRIPT (a format). */
struct run_result sh_in(struct world *w, const char *opts, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));
/* The ordinary user the tests run cordon as ("cordon-test"), made with
 * useradd (a system user, no home) where it is missing. */
void test_user(uid_t *uid, gid_t *gid);
/* From now on W's commands (run_in, sh_in, world_run, world_spawn) run as
 * the test user, through setpriv; W's files become its own. */
void world_as_user(struct world *w);
/* ARGV as W's commands run (setpriv first, when as the user; then
 * CORDON_BIN, CORDON_PROBE and "LD_PRELOAD=" CORDON_SHIM_SO stand for the
 * world's copies): a malloc'd array of borrowed strings. */
char **world_argv(const struct world *w, char *const argv[]);
/* Everything in W made so far becomes W's user's, when W runs as it: a
 * victim the session's user may not write by its mode would prove nothing. */
void world_give(struct world *w);
/* Skip the test where W's filesystem takes no user.* xattrs. */
void need_user_xattrs(struct world *w);

/* UID's runtime directory, /run/user/UID (owned by UID:GID, mode 0700),
 * made when the machine has none; runtime_dir_free frees PATH, and what
 * was made stays until scripts/test removes it as the run ends (tests
 * beside use it meanwhile). */
struct runtime_dir {
	char *path;
	bool made_base, made;
};
void runtime_dir_make(struct runtime_dir *r, uid_t uid, gid_t gid);
void runtime_dir_free(struct runtime_dir *r);
/* A malloc'd printf (aborts when out of memory). */
char *fmt(const char *f, ...) __attribute__((format(printf, 1, 2)));
/* CLOCK_MONOTONIC in milliseconds. */
long ms_now(void);
/* Waits until a change made before is told, by its time, from what a
 * session started after makes: a few ticks of the coarse clock where the
 * worlds' file system keeps fine times, past the second elsewhere. */
void let_time_pass(void);
/* Read the terminal MASTER into BUF (NUL-terminated, appended to, at most
 * SIZE - 1 bytes) until NEEDLE shows up (true) or MS pass; NEEDLE NULL:
 * until MS pass or the terminal closes. KEEP_TAIL: past half of SIZE, keep
 * only the last quarter (long sessions); else what does not fit is read
 * and dropped. */
bool pty_read_until(int master, const char *needle, int ms, char *buf, size_t size, bool keep_tail);
/* PID on the pty MASTER said "press Enter": whether it still runs half a
 * second later (*HELD); then Enter is sent. Its wait status, once gone
 * (10 s at most; OUT gets what it prints meanwhile). */
int pty_held_until_enter(pid_t pid, int master, char *out, size_t size, bool *held);
/* run_cmd and spawn_cmd of ARGV as W's commands run, in CWD, with W's
 * environment. */
struct run_result world_run(const struct world *w, char *const argv[], const char *cwd);
/* pty_spawn of ARGV as W's commands run, in W's project; the terminal is
 * the test user's when W runs as it. */
pid_t world_pty_spawn(const struct world *w, char *const argv[], int *master, char **slave_name);
pid_t world_spawn(const struct world *w, char *const argv[], const char *cwd);
/* The session (BODY, /bin/sh -c, in the project, named, with config CFG)
 * and, outside, once BODY has made the file "ready" in the project, SAVES
 * (run by /bin/sh as W's user, in the home), then "go": the session's
 * output. BODY waits for "go" with WAIT_GO. */
struct run_result world_while_outside(struct world *w, const char *cfg, const char *body,
				      const char *saves);
#define WAIT_GO "touch ready; while [ ! -e go ]; do sleep 0.05; done; sleep 0.3\n"
/* A unix listener (stream or datagram) at PATH, outside the sandbox, that
 * W's user may connect to (it is chowned to it). */
struct listener listen_unix(const struct world *w, const char *path, bool stream);

/* Whether the file at PATH exists and contains NEEDLE. */
bool contains(const char *path, const char *needle);

/* A loopback listener outside the sandbox (TCP or UDP, IPv4 or IPv6, an
 * ephemeral port). */
struct listener {
	int fd;
	int port;
	bool stream;
};
struct listener listen_on(int family, bool stream);
/* Everything the listener got within WAIT_MS (queued connections are accepted
 * and drained). malloc'd, NUL-terminated. */
char *received(struct listener *l, int wait_ms);

/* Run ARGV with a new pty as its controlling terminal; after it exits, what
 * waits in the terminal's input queue (what a shell would read as typed). */
char *pty_input_after(char *const argv[], char *const envp[], const char *cwd);

/* A process outside the sandbox (cordon-probe sleep) with a secret in its
 * environment ("env-" SECRET) and on its command line ("cmdline-" SECRET). */
pid_t start_outside_process(void);
/* Wait (up to 1 s) until PID runs the executable EXE (absolute). */
void wait_exec(pid_t pid, const char *exe);
/* SIGKILL and reap PID. */
void stop_process(pid_t pid);

/* Every kind of escapee writes its pid to PIDS; the shell writes its session
 * id to SID and then exits (or waits for GO, when given). */
#define ESCAPEES                                                                                   \
	"echo $CORDON_SESSION > sid\n"                                                             \
	"(setsid sh -c 'echo $$ >> pids; exec sleep 300' &)\n"                                     \
	"(sh -c 'sh -c \"echo \\$\\$ >> pids; exec sleep 300\" &' &)\n"                            \
	"nohup sh -c 'echo $$ >> pids; exec sleep 300' >/dev/null 2>&1 &\n"                        \
	"sh -c 'trap \"\" HUP TERM INT; echo $$ >> pids; while :; do sleep 1; done' &\n"           \
	"(setsid sh -c 'trap \"\" HUP TERM; echo $$ >> pids; exec sleep 300' &)\n"                 \
	"n=0; while [ $(wc -l < pids 2>/dev/null || echo 0) -lt 5 ] && [ $n -lt 200 ]; do sleep 0.01; n=$((n+1)); done\n"

/* The pids in the file PATH, one per line. */
size_t read_pids(const char *path, pid_t *out, size_t max);
/* Wait up to MS for the file PATH to hold WANT pids, and read them: a file
 * that exists may not have been written yet (the shell opens it first). */
size_t wait_pids(const char *path, pid_t *out, size_t want, int ms);
/* The session id the shell wrote to the project's "sid" file. */
char *session_id(struct world *w);
/* The cgroup directory of session ID (NULL if no cgroup2 mount). */
char *cgroup_of(const char *id);
/* Wait up to MS for cgroup CG to hold no process (true then). */
bool wait_cgroup_empty(const char *cg, int ms);
/* Every pid in the project's "pids" file is gone (at least WANT_PIDS of
 * them), and so are the session's cgroup and registry entry. */
void expect_session_gone(struct world *w, size_t want_pids);

/* PROG, as embedded (seccomp-gen's instructions ahead, then libseccomp's
 * program), is what libseccomp compiles the rules for FLAGS to now
 * (test_network.c). */
struct sock_fprog;
void expect_embedded(unsigned flags, const struct sock_fprog *prog);

#endif
