/* Names in /tmp that clients outside look for (round 42c F1): an ssh
 * ControlPath, PostgreSQL's /tmp/.s.PGSQL.5432, an agent's directory that an
 * outside shell's SSH_AUTH_SOCK still names. When no server holds one, a
 * server of the session's there would get what the client sends (ssh hands
 * a mux master its terminal, psql its password). So /tmp and /var/tmp take
 * no socket, symbolic link or directory moved in from inside; the sessions'
 * programs get a TMPDIR there instead (/tmp/cordon-tmp-UID), pinned in
 * place in every session, and a project in /tmp is pinned too. Judged outside: did a client outside connect, is there a
 * socket at the name afterwards, did the directory move? Each with a
 * control: the same unsandboxed, as root and as an ordinary user. */
#include <criterion/criterion.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "both.h"
#include "cordon/policy.h"
#include "cordon/strv.h"
#include "helpers.h"

/* A session's server, in the project: a listener in its TMPDIR (the
 * session's own, allowed), then the ways to have one at a name outside
 * (argv: DIRECT, CTL, GONE_DIR), each printed "WHAT ok" or "WHAT error";
 * then "ready" made, and once "go" is there, what each listener got. */
static const char fake_py[] =
	"import os, socket, sys, time\n"
	"direct, ctl, gone, sub = sys.argv[1:5]\n"
	"t = os.environ['TMPDIR']\n"
	"ls = []\n"
	"def listen(p):\n"
	"    s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen(8)\n"
	"    s.setblocking(False); ls.append(s)\n"
	"def attempt(what, f):\n"
	"    try:\n"
	"        f(); print(what, 'ok')\n"
	"    except OSError as e:\n"
	"        print(what, e.strerror)\n"
	"os.makedirs(t + '/' + sub, exist_ok=True)\n"
	"attempt('own', lambda: listen(t + '/' + sub + '/agent.1'))\n"
	"for p in (direct, ctl):\n"
	"    attempt('bind ' + p, lambda: listen(p))\n"
	"    attempt('link ' + p, lambda: os.symlink(t + '/' + sub + '/agent.1', p))\n"
	"attempt('move in', lambda: os.rename(t + '/' + sub, gone))\n"
	"attempt('rename TMPDIR', lambda: os.rename(t, gone))\n"
	"attempt('link in a new directory', lambda: (os.mkdir(gone),\n"
	"        os.symlink(t + '/' + sub + '/agent.1', gone + '/agent.1')))\n"
	"sys.stdout.flush()\n"
	"open('ready', 'w').close()\n"
	"while not os.path.exists('go'): time.sleep(0.05)\n"
	"for s in ls:\n"
	"    try:\n"
	"        c, _ = s.accept(); c.settimeout(1); print('got', c.recv(64))\n"
	"    except OSError:\n"
	"        pass\n";

/* The client outside: connects to each of argv[1:] and sends a secret. */
static const char client_py[] = "import socket, sys\n"
				"for p in sys.argv[1:]:\n"
				"    c = socket.socket(socket.AF_UNIX)\n"
				"    try:\n"
				"        c.connect(p); c.send(b'secret-42c'); print(p, 'REACHED')\n"
				"    except OSError as e:\n"
				"        print(p, 'not connected:', e.strerror)\n";

/* The client outside at the three names (the last in GONE), into OUT. */
static char *client_line(const char *client, const char *direct, const char *ctl, const char *gone,
			 const char *out)
{
	return fmt("/usr/bin/python3 %s %s %s %s/agent.1 > %s 2>&1", client, direct, ctl, gone,
		   out);
}

/* W's config: /tmp read-write, as by default, and little else (EXTRA:
 * more keys). */
static void tmp_config(struct world *w, const char *extra)
{
	FILE *f = fopen(w->cfg, "w");
	cr_assert_not_null(f);
	fprintf(f,
		"{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/urandom\", "
		"\"/tmp\"]}%s}",
		extra);
	cr_assert_eq(fclose(f), 0);
}

/* rm -rf each of the space-separated PATHS (the test's own). */
static void remove_all(const char *paths)
{
	char *rm = fmt("rm -rf %s", paths);
	char *argv[] = {"/bin/sh", "-c", rm, NULL};
	struct run_result r = run_cmd(argv, NULL, "/", 10000);
	run_free(&r);
	free(rm);
}

/* A shared directory of W's own (sticky, writable by all), read-write in
 * its config, where test builds put the sessions' TMPDIR
 * (CORDON_TEST_TMPBASE), apart from the other tests' sessions; TMPDIR
 * passes in. Its path (malloc'd). */
static char *own_shared(struct world *w)
{
	char *shared = path_join(w->dir, "shared");
	cr_assert(mkdir(shared, 0755) == 0 && chmod(shared, 01777) == 0);
	FILE *f = fopen(w->cfg, "w");
	cr_assert_not_null(f);
	fprintf(f,
		"{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/urandom\", "
		"\"/tmp\", \"%s\"]}, \"additional_env_vars\": [\"TMPDIR\"]}",
		shared);
	cr_assert_eq(fclose(f), 0);
	char *kv = fmt("CORDON_TEST_TMPBASE=%s", shared);
	world_setenv(w, kv);
	free(kv);
	return shared;
}

/* W's sessions registered apart (CORDON_TEST_REGISTRY, test builds): the
 * suite's other sessions do not count as running beside them. (W's config
 * must pass it in, for the sessions' own look at the registry:
 * REGISTRY_IN.) */
#define REGISTRY_IN ", \"additional_env_vars\": [\"CORDON_TEST_REGISTRY\"]"
static void own_registry(struct world *w)
{
	char *reg = path_join(w->home, "registry");
	char *kv = fmt("CORDON_TEST_REGISTRY=%s", reg);
	world_setenv(w, kv);
	free(kv);
	free(reg);
}

/* A script that makes DIR/ready, then waits (30 s at most, so that a
 * failed test leaves no session behind) for DIR/go: malloc'd, and the two
 * paths into READY and GO. */
static char *waits_in(const char *dir, char **ready, char **go)
{
	*ready = path_join(dir, "ready");
	*go = path_join(dir, "go");
	return fmt("touch %s; i=0; while [ ! -e %s ] && [ $i -lt 600 ]; do sleep 0.05; "
		   "i=$((i+1)); done",
		   *ready, *go);
}

/* Where nobody listens yet, a client outside that looks there meets no
 * server of the session's: neither one bound at the name, nor a link to one
 * of its own, nor its own directory (or TMPDIR) moved to the name of one a
 * client looks in. Judged outside: the client's connects all fail, nothing
 * is left at the names. Control: unsandboxed, the client connects to each
 * and the fake server gets the secret. */
BOTH_USERS(tmpdir, a_client_outside_meets_no_server_of_the_session_s, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "freename", "");
	tmp_config(&w, "");
	int pid = (int)getpid();
	char *direct = fmt("/tmp/.s.CORDONFREE.%d.%u", pid, (unsigned)uid);
	char *ctl_dir = fmt("/tmp/cordon-test-ctl-%d-%u", pid, (unsigned)uid);
	char *ctl = fmt("%s/master", ctl_dir);
	char *gone = fmt("/tmp/cordon-test-gone-%d-%u", pid, (unsigned)uid);
	cr_assert(mkdir(ctl_dir, 0700) == 0 && chown(ctl_dir, uid, gid) == 0);
	free(write_file(w.proj, "fake.py", fake_py));
	char *client = write_file(w.outside, "client.py", client_py);
	char *out = path_join(w.outside, "client.out");
	char *cl = client_line(client, direct, ctl, gone, out);
	char *sub = fmt("cordon-test-d-%d", pid);
	char *body = fmt("/usr/bin/python3 fake.py %s %s %s %s", direct, ctl, gone, sub);
	struct run_result r = world_while_outside(&w, w.cfg, body, cl);
	char *seen = read_file(out);
	char *diag = fmt("inside (%d): %s%s\noutside: %s", r.status, r.out, r.err,
			 seen ? seen : "(nothing)");
	cr_expect(strstr(r.out, "own ok"), "the session's TMPDIR took no socket\n%s", diag);
	cr_expect(seen && !strstr(seen, "REACHED"),
		  "a client outside connected to a server of the session's\n%s", diag);
	cr_expect_null(strstr(r.out, "secret-42c"), "the session got the client's secret\n%s",
		       diag);
	struct stat st;
	char *gone_sock = fmt("%s/agent.1", gone);
	const char *names[] = {direct, ctl, gone_sock};
	for (size_t i = 0; i < 3; i++)
		cr_expect_neq(lstat(names[i], &st), 0, "something was left at %s\n%s", names[i],
			      diag);
	run_free(&r);
	free(diag);
	free(seen);
	unlink(out);
	rmdir(gone);

	/* Control: unsandboxed, with a TMPDIR of the test's. */
	char *own_tmp = fmt("/tmp/cordon-test-owntmp-%d-%u", pid, (unsigned)uid);
	cr_assert(mkdir(own_tmp, 0700) == 0 && chown(own_tmp, uid, gid) == 0);
	char *kv = fmt("TMPDIR=%s", own_tmp);
	world_setenv(&w, kv);
	char *ctl_body = fmt("cd %s && %s > fake.out 2>&1", w.proj, body);
	char *fake_argv[] = {"/bin/sh", "-c", ctl_body, NULL};
	pid_t fake = world_spawn(&w, fake_argv, w.proj);
	char *ready = path_join(w.proj, "ready"), *go = path_join(w.proj, "go");
	cr_assert(wait_exists(ready, 10000), "control: the fake server did not start");
	char *cl_argv[] = {"/bin/sh", "-c", cl, NULL};
	struct run_result c = world_run(&w, cl_argv, w.home);
	run_free(&c);
	free(write_file(w.proj, "go", ""));
	int status;
	cr_assert_eq(waitpid(fake, &status, 0), fake);
	char *fake_out_path = path_join(w.proj, "fake.out");
	char *fake_out = read_file(fake_out_path);
	seen = read_file(out);
	cr_assert(seen && fake_out && strstr(seen, direct) && strstr(fake_out, "secret-42c") &&
			  !strstr(seen, "not connected"),
		  "control: unsandboxed, the client outside did not reach each fake server:\n"
		  "%s\n%s",
		  seen ? seen : "", fake_out ? fake_out : "");
	unlink(ready);
	unlink(go);
	unlink(out);
	unlink(fake_out_path);
	unlink(direct);
	unlink(ctl);
	rmdir(ctl_dir);
	char *rm = fmt("%s %s /tmp/cordon-tmp-%u/%s", gone, own_tmp, (unsigned)uid, sub);
	remove_all(rm);
	free(rm);
	free(fake_out);
	free(fake_out_path);
	free(seen);
	free(ready);
	free(go);
	free(ctl_body);
	free(kv);
	free(own_tmp);
	free(gone_sock);
	free(body);
	free(sub);
	free(cl);
	free(out);
	free(client);
	free(gone);
	free(ctl);
	free(ctl_dir);
	free(direct);
	world_free(&w);
}

/* The sessions' TMPDIR, in /tmp: their programs' servers work there (an
 * ssh-agent started inside answers ssh-add), and a file made there by
 * mktemp stays after the session, for the next one to read and write (an
 * agent's tool runs one session a command). */
BOTH_USERS(tmpdir, the_sessions_take_their_servers_and_keep_their_files, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "owntmp", "");
	tmp_config(&w, "");
	char *srv = fmt("srv-%d", (int)getpid());
	struct run_result r =
		sh_in(&w, NULL,
		      "echo \"$TMPDIR\" > tmpdir.txt; f=$(mktemp); echo kept > \"$f\"; "
		      "echo \"$f\" > file.txt; eval \"$(ssh-agent -s)\" >/dev/null; "
		      "ssh-add -l; echo \"ssh-add: $?\"; ssh-agent -k >/dev/null; "
		      "mkdir \"$TMPDIR/%s\"; /usr/bin/python3 -c 'import socket, os, "
		      "time; s = socket.socket(socket.AF_UNIX); "
		      "s.bind(os.environ[\"TMPDIR\"] + \"/%s/left\"); s.listen(1); "
		      "time.sleep(60)' & sleep 0.5; ls \"$TMPDIR/%s\"",
		      srv, srv, srv);
	char *tmpdir_txt = path_join(w.proj, "tmpdir.txt"),
	     *file_txt = path_join(w.proj, "file.txt");
	char *tmp = read_file(tmpdir_txt), *file = read_file(file_txt);
	cr_assert(tmp && file, "inside (%d): %s%s", r.status, r.out, r.err);
	tmp[strcspn(tmp, "\n")] = '\0';
	file[strcspn(file, "\n")] = '\0';
	char *want = fmt("/tmp/cordon-tmp-%u", (unsigned)uid);
	cr_assert_str_eq(tmp, want, "TMPDIR inside\n%s%s", r.out, r.err);
	cr_expect(strstr(r.out, "ssh-add: 1") && strstr(r.out, "left"),
		  "a server inside did not work in TMPDIR: %s%s", r.out, r.err);
	cr_expect(strncmp(file, tmp, strlen(tmp)) == 0, "mktemp made %s, not in TMPDIR", file);
	run_free(&r);
	/* The next session. */
	r = sh_in(&w, NULL, "echo \"$TMPDIR\" > tmpdir.txt; echo again >> %s", file);
	char *tmp2 = read_file(tmpdir_txt);
	char *kept = read_file(file);
	cr_expect(tmp2 && strncmp(tmp2, want, strlen(want)) == 0, "TMPDIR the next time: %s",
		  tmp2 ? tmp2 : "");
	cr_expect(kept && strstr(kept, "kept") && strstr(kept, "again"),
		  "the file made in TMPDIR was lost, or not written the next time: %s\n%s",
		  kept ? kept : "(gone)", r.err);
	unlink(file);
	char *rm = fmt("%s/%s", tmp, srv);
	remove_all(rm);
	run_free(&r);
	free(rm);
	free(kept);
	free(tmp2);
	free(want);
	free(srv);
	free(tmp);
	free(file);
	free(tmpdir_txt);
	free(file_txt);
	world_free(&w);
}

/* Round 52d F1 and F2: node keeps a compile cache in os.tmpdir() (the
 * outside's TMPDIR, else /tmp) and in the sessions' shared TMPDIR, and
 * loads an entry there without looking at its code: one a session planted
 * ran at tsc outside, and at tsc in a later session with a write rule the
 * first lacked. The outside's node-compile-cache stays read-only inside,
 * and node inside keeps none (NODE_DISABLE_COMPILE_CACHE=1). Judged from
 * outside: nothing written there. Control: the same write outside lands. */
BOTH_USERS(tmpdir, node_s_compile_cache_outside_stays_unwritten, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "nodecc", "");
	/* The outside's TMPDIR a directory of the user's in /tmp, as
	 * pam_tmpdir makes (/tmp's own cache may be another user's), and one
	 * elsewhere that a rule makes writable (round 52f F1: /var/tmp and
	 * the runtime directory were not looked at). */
	char *outers[2] = {fmt("/tmp/cordontest-nodecc-%d-%u", (int)getpid(), (unsigned)uid),
			   path_join(w.dir, "ttmp")};
	char *extra = fmt(", \"additional_read_write_paths\": [\"%s\"]", outers[1]);
	tmp_config(&w, extra);
	/* (jiti's, one name for every user in /tmp, is made 0755 as jiti
	 * makes it, not 0700: round 59d F7. Judged where it was missing.) */
	struct stat jst;
	bool jiti_missing = lstat("/tmp/node-jiti", &jst) < 0;
	for (int k = 0; k < 2; k++) {
		const char *outer = outers[k];
		cr_assert_eq(mkdir(outer, 0700), 0, "%s: %s", outer, strerror(errno));
		cr_assert_eq(chown(outer, uid, gid), 0);
		char *kv = fmt("TMPDIR=%s", outer);
		world_setenv(&w, kv);
		/* (And yarn 1's v8-compile-cache and tsx's, round 52e F1, F2.) */
		char *entry = fmt("%s/node-compile-cache/v0-x64-0-%u/k", outer, (unsigned)uid);
		char *v8 = fmt("%s/v8-compile-cache-%u/10.0/k.BLOB", outer, (unsigned)uid);
		char *tsx = fmt("%s/tsx-%u/k.js", outer, (unsigned)uid);
		/* (jest's, the uid in base 36, and jiti 1's: round 59b F1.) */
		char b36[16];
		size_t at = sizeof(b36) - 1;
		b36[at] = '\0';
		for (unsigned u = (unsigned)uid; at == sizeof(b36) - 1 || u; u /= 36)
			b36[--at] = "0123456789abcdefghijklmnopqrstuvwxyz"[u % 36];
		char *jest = fmt("%s/jest_%s/jest-transform-cache-x/k", outer, b36 + at);
		char *jiti = fmt("%s/node-jiti/tailwind.config.k.cjs", outer);
		char *plant =
			fmt("for f in %s %s %s %s %s; do mkdir -p $(dirname $f) 2>/dev/null; "
			    "echo planted > $f 2>/dev/null; done; "
			    "echo \"nocache=$NODE_DISABLE_COMPILE_CACHE$DISABLE_V8_COMPILE_CACHE"
			    "$TSX_DISABLE_CACHE\"",
			    entry, v8, tsx, jest, jiti);
		struct run_result r = sh_in(&w, NULL, "%s", plant);
		cr_expect(strstr(r.out, "nocache=111"),
			  "node's tools keep a code cache inside: %s%s", r.out, r.err);
		cr_expect_not(file_exists(entry), "%s: node's compile cache was written", outer);
		cr_expect_not(file_exists(v8), "%s: v8-compile-cache was written", outer);
		cr_expect_not(file_exists(tsx), "%s: tsx's cache was written", outer);
		cr_expect_not(file_exists(jest), "%s: jest's cache was written", outer);
		cr_expect_not(file_exists(jiti), "%s: jiti's cache was written", outer);
		run_free(&r);
		r = sh_outside(&w, plant);
		cr_expect(file_exists(entry) && file_exists(v8) && file_exists(tsx) &&
				  file_exists(jest) && file_exists(jiti),
			  "control: the writes outside did not land in %s: %s", outer, r.err);
		run_free(&r);
		remove_all(outer);
		free(plant), free(tsx), free(v8), free(entry), free(kv), free(jest), free(jiti);
	}
	if (jiti_missing)
		cr_expect(lstat("/tmp/node-jiti", &jst) == 0 && (jst.st_mode & 0777) == 0755,
			  "/tmp/node-jiti was not made 0755: %o", (unsigned)jst.st_mode);
	free(extra), free(outers[0]), free(outers[1]);
	world_free(&w);
}

/* A project in /tmp takes sockets, as a project does; renamed to where a
 * client outside looks for a server's directory, its sockets would be
 * there. It and the directory above it stay where they are. Judged
 * outside: both still at their names, nothing at the new ones. Control:
 * unsandboxed, both moves work. */
BOTH_USERS(tmpdir, a_project_in_tmp_stays_in_place, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "tmpproj", "");
	/* (No protected path: their mounts would pin it too.) */
	tmp_config(&w, ", \"protected_paths\": []" REGISTRY_IN);
	own_registry(&w);
	int pid = (int)getpid();
	char *top = fmt("/tmp/cordon-test-top-%d-%u", pid, (unsigned)uid);
	char *proj = fmt("%s/proj", top);
	char *moved_top = fmt("/tmp/cordon-test-moved-%d-%u", pid, (unsigned)uid);
	char *moved_proj = fmt("%s/agent-dir", top);
	cr_assert(mkdir(top, 0700) == 0 && chown(top, uid, gid) == 0 && mkdir(proj, 0700) == 0 &&
		  chown(proj, uid, gid) == 0);
	char *opts = fmt("--project %s", proj);
	char *script = fmt("mv %s %s; mv %s %s; /usr/bin/python3 -c 'import socket; "
			   "socket.socket(socket.AF_UNIX).bind(\"%s/s.sock\")' && echo bound",
			   proj, moved_proj, top, moved_top, proj);
	struct run_result r = sh_in(&w, opts, "%s", script);
	char *diag = fmt("inside (%d): %s%s", r.status, r.out, r.err);
	struct stat st;
	cr_expect(stat(proj, &st) == 0 && lstat(moved_proj, &st) != 0,
		  "the project in /tmp was moved\n%s", diag);
	cr_expect(stat(top, &st) == 0 && lstat(moved_top, &st) != 0,
		  "the directory above the project was moved\n%s", diag);
	cr_expect(strstr(r.out, "bound"), "the project took no socket\n%s", diag);
	run_free(&r);
	char *sock = fmt("%s/s.sock", proj);
	unlink(sock);
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	r = world_run(&w, argv, "/");
	cr_assert(lstat(moved_top, &st) == 0 && lstat(proj, &st) != 0,
		  "control: unsandboxed, the moves failed: %s%s", r.out, r.err);
	run_free(&r);
	char *rm = fmt("%s %s", top, moved_top);
	remove_all(rm);
	sweep_forget_beneath(top);
	sweep_forget_beneath(moved_top);
	free(rm);
	free(sock);
	free(diag);
	free(script);
	free(opts);
	free(moved_proj);
	free(moved_top);
	free(proj);
	free(top);
	world_free(&w);
}

/* The sessions' TMPDIR is out of reach of a move from any of them: moved
 * to where a client outside looks (their programs make sockets there), it
 * would carry their sockets there. Session A moves it while session B
 * runs: it is pinned in each one's view (43a F1, 43b F1: it was pinned in
 * its own session's only), also in one whose own TMPDIR lies elsewhere
 * (43c F1: that one pinned nothing). Here it lies in a shared directory of
 * the test's own, so that the control's move disturbs no other test.
 * Judged outside while B runs: the directory is still at its name.
 * Control: the same move, unsandboxed, works. */
BOTH_USERS(tmpdir, another_session_cannot_move_it, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "othertmp", "");
	char *shared = own_shared(&w);
	char *dir = fmt("%s/cordon-tmp-%u", shared, (unsigned)uid);
	char *apart = path_join(w.dir, "apart");
	cr_assert(mkdir(apart, 0700) == 0 && chown(apart, uid, gid) == 0);
	char *result = path_join(w.outside, "result");
	const char *cordon = w.as_user ? w.user_cordon : CORDON_BIN;
	const char *body = "echo \"$TMPDIR\" > btmp.txt\n" WAIT_GO;
	char *move = fmt("mv %s %s/moved", dir, shared);
	char *judge = fmt("{ grep -qx %s %s/btmp.txt || echo \"not B's TMPDIR\"; "
			  "test -d %s && echo kept; } >> %s 2>&1",
			  dir, w.proj, dir, result);
	/* Session A twice: as B is, and with a TMPDIR of its own apart. */
	char *saves = fmt("cd %s && for t in '' %s; do TMPDIR=$t %s run --config %s --project %s "
			  "-- /bin/sh -c '%s' >>%s/a.out 2>&1; %s; done",
			  w.proj, apart, cordon, w.cfg, w.proj, move, w.outside, judge);
	struct run_result r = world_while_outside(&w, w.cfg, body, saves);
	char *seen = read_file(result);
	char *a_out_path = path_join(w.outside, "a.out");
	char *a_out = read_file(a_out_path);
	char *diag = fmt("B (%d): %s%s\nA: %s\noutside: %s", r.status, r.out, r.err,
			 a_out ? a_out : "", seen ? seen : "");
	cr_expect(seen && strstr(seen, "kept\nkept") && !strstr(seen, "not B's"),
		  "the sessions' TMPDIR was moved\n%s", diag);
	run_free(&r);
	free(diag);
	free(seen);
	unlink(result);

	/* Control: the move, unsandboxed, while B runs. */
	char *ctl = fmt("%s; %s", move, judge);
	r = world_while_outside(&w, w.cfg, body, ctl);
	seen = read_file(result);
	cr_assert(seen && !strstr(seen, "kept") && !strstr(seen, "not B's"),
		  "control: unsandboxed, the move failed: %s", seen ? seen : "(nothing)");
	run_free(&r);
	remove_all(shared);
	unlink(result);
	unlink(a_out_path);
	char *btmp = path_join(w.proj, "btmp.txt");
	unlink(btmp);
	sweep_forget_beneath(shared);
	free(btmp);
	free(a_out);
	free(a_out_path);
	free(seen);
	free(ctl);
	free(saves);
	free(judge);
	free(move);
	free(result);
	free(apart);
	free(dir);
	free(shared);
	world_free(&w);
}

/* /tmp as the project (a terminal opened there, or named) would lift what
 * keeps sockets out of it (review 43a F2). Started there, the session has
 * no writable project and says so; named, /tmp stays shared. Judged
 * outside: no socket at the name either way. Control: unsandboxed, the
 * bind works. */
/* The default protected names at a directory's top ("x/" or "x": not
 * ".git/hooks") missing from /tmp now, into MISSING (malloc'd strings): a
 * session whose project is /tmp stands an empty directory in for each
 * while it runs. Two such sessions at once (root's and the user's here)
 * leave root's to a process of root's that waits for the user's session
 * to end (stand_ins_in_a_shared_project_go_with_the_last_session), which
 * may come after this test: removed by stand_ins_gone. */
static void stand_ins_missing(struct cordon_strv *missing)
{
	for (size_t i = 0; cordon_default_protected[i]; i++) {
		const char *name = cordon_default_protected[i];
		size_t n = strcspn(name, "/");
		if (name[n] && name[n + 1])
			continue; /* (beneath a directory: .git/hooks) */
		char *path = fmt("/tmp/%.*s", (int)n, name);
		struct stat st;
		if (lstat(path, &st) != 0)
			cr_assert_eq(cordon_strv_push(missing, path), 0);
		free(path);
	}
}

static void stand_ins_gone(struct cordon_strv *missing)
{
	for (size_t i = 0; i < missing->n; i++)
		(void)rmdir(missing->v[i]); /* (an empty directory only) */
	cordon_strv_free(missing);
}

BOTH_USERS(tmpdir, tmp_as_the_project_takes_no_socket, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct cordon_strv missing = {0};
	stand_ins_missing(&missing);
	struct world w;
	world_for(&w, who, "tmpisproj", "");
	tmp_config(&w, "");
	char *name = fmt("/tmp/.s.CORDONPROJ.%d.%u", (int)getpid(), (unsigned)uid);
	char *py = fmt("import socket; socket.socket(socket.AF_UNIX).bind('%s')", name);
	const char *cordon = w.as_user ? w.user_cordon : CORDON_BIN;
	char *from_cwd[] = {(char *)cordon,     "run", "--config", w.cfg, "--",
			    "/usr/bin/python3", "-c",  py,         NULL};
	struct run_result r = world_run(&w, from_cwd, "/tmp");
	struct stat st;
	cr_expect_neq(lstat(name, &st), 0, "a session started in /tmp bound %s: %s%s", name, r.out,
		      r.err);
	cr_expect(strstr(r.err, "every user shares") && strstr(r.err, "no writable project"),
		  "not said: %s", r.err);
	unlink(name);
	run_free(&r);
	char *named[] = {(char *)cordon,     "run", "--config", w.cfg, "--project", "/tmp", "--",
			 "/usr/bin/python3", "-c",  py,         NULL};
	r = world_run(&w, named, "/tmp");
	cr_expect_neq(lstat(name, &st), 0, "a session with --project /tmp bound %s: %s%s", name,
		      r.out, r.err);
	unlink(name);
	run_free(&r);
	char *ctl[] = {"/usr/bin/python3", "-c", py, NULL};
	r = world_run(&w, ctl, "/tmp");
	cr_assert(lstat(name, &st) == 0 && S_ISSOCK(st.st_mode),
		  "control: unsandboxed, no socket at %s: %s", name, r.err);
	unlink(name);
	run_free(&r);
	sweep_forget("/tmp");
	stand_ins_gone(&missing);
	free(py);
	free(name);
	world_free(&w);
}

/* Stand-ins in a shared project (sticky, writable by all: `--project
 * /tmp`) go with the last session that holds them, whoever's it is. Root's
 * session makes them (root's, where only root may remove them), a user's
 * session beside it holds them too, root's ends first: they were left
 * for good, since the user's session, ending last, may not remove them.
 * The project is a sticky directory of the test's, not /tmp. Judged from
 * outside: while the user's session runs they are there (the control),
 * after it they are gone. */
Test(tmpdir, stand_ins_in_a_shared_project_go_with_the_last_session, .timeout = 60)
{
	struct world wr, wu;
	world_init(&wr, "standinsr", "");
	world_init(&wu, "standinsu", "");
	world_as_user(&wu);
	tmp_config(&wr, "");
	tmp_config(&wu, "");
	char *shared = path_join(wu.dir, "shared");
	cr_assert(mkdir(shared, 0755) == 0 && chmod(shared, 01777) == 0);
	char *vscode = path_join(shared, ".vscode"), *b_on = path_join(shared, "b.on");
	char *root_cmd[] = {
		CORDON_BIN, "run", "--config", wr.cfg, "--project",
		shared,     "--",  "/bin/sh",  "-c",   "while [ ! -e a.go ]; do sleep 0.05; done",
		NULL};
	pid_t a = world_spawn(&wr, root_cmd, shared);
	cr_assert(wait_exists(vscode, 10000), "root's session made no stand-in");
	char *user_cmd[] = {wu.user_cordon,
			    "run",
			    "--config",
			    wu.cfg,
			    "--project",
			    shared,
			    "--",
			    "/bin/sh",
			    "-c",
			    "touch b.on; while [ ! -e b.go ]; do sleep 0.05; done",
			    NULL};
	pid_t b = world_spawn(&wu, user_cmd, shared);
	bool b_runs = wait_exists(b_on, 10000);
	free(write_file(shared, "a.go", ""));
	bool a_gone = wait_gone(a, 10000);
	struct stat st;
	bool held = lstat(vscode, &st) == 0 && S_ISDIR(st.st_mode) && st.st_uid == 0;
	free(write_file(shared, "b.go", ""));
	bool b_gone = wait_gone(b, 10000);
	long until = ms_now() + 5000;
	while (lstat(vscode, &st) == 0 && ms_now() < until)
		usleep(20000);
	bool left = lstat(vscode, &st) == 0;
	char *ls = fmt("ls -A %s", shared);
	char *ls_argv[] = {"/bin/sh", "-c", ls, NULL};
	struct run_result r = run_cmd(ls_argv, NULL, "/", 10000);
	if (!a_gone)
		kill(a, SIGKILL);
	if (!b_gone)
		kill(b, SIGKILL);
	cr_expect(b_runs && a_gone && b_gone, "the sessions did not run their course");
	cr_expect(held, "control: root's stand-in was not there while the user's session ran");
	cr_expect_not(left, "the stand-ins were left in the shared project: %s", r.out);
	run_free(&r);
	free(ls);
	remove_all(shared);
	sweep_forget(shared);
	free(b_on);
	free(vscode);
	free(shared);
	world_free(&wu);
	world_free(&wr);
}

/* A user's session whose project is a shared directory (`--project /tmp`)
 * says only the directories there it could have written in and could not
 * look into: not root's private ones (every user's session in /tmp said
 * the directories of every other user there), but one it may go through
 * (0711) to a directory it may write (46c F2). Control: a drop directory
 * (1733) it may write in, and not list, is said. */
Test(tmpdir, a_user_s_shared_project_says_only_what_it_could_write, .timeout = 60)
{
	struct world w;
	world_init(&w, "sharedsaid", "");
	world_as_user(&w);
	tmp_config(&w, "");
	char *shared = path_join(w.dir, "shared"), *priv = path_join(shared, "private"),
	     *drop = path_join(shared, "drop");
	cr_assert(mkdir(shared, 0755) == 0 && chmod(shared, 01777) == 0);
	cr_assert(mkdir(priv, 0700) == 0 && mkdir(drop, 0755) == 0 && chmod(drop, 01733) == 0);
	/* (One it may go through to a directory it may write: said, 46c F2.) */
	char *through = path_join(shared, "through"), *pub = path_join(shared, "through/pub");
	cr_assert(mkdir(through, 0711) == 0 && mkdir(pub, 0777) == 0 && chmod(pub, 0777) == 0);
	char *cmd[] = {w.user_cordon, "run", "--config",  w.cfg, "--project",
		       shared,        "--",  "/bin/true", NULL};
	struct run_result r = world_run(&w, cmd, shared);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.err, "/private"), "root's private directory was said: %s", r.err);
	cr_expect(strstr(r.err, "could not look into") && strstr(r.err, "/drop"),
		  "control: the drop directory was not said: %s", r.err);
	cr_expect(strstr(r.err, "/through for what"), "one it may go through was not said: %s",
		  r.err);
	run_free(&r);
	free(pub);
	free(through);
	remove_all(shared);
	sweep_forget(shared);
	free(drop);
	free(priv);
	free(shared);
	world_free(&w);
}

/* Another user made the sessions' TMPDIR first: its owner could move it,
 * with the sockets made there. The session runs on without one (no
 * refusal that any user could cause), says so, and still makes no socket
 * in the shared directory. Isolated as above. Judged outside: the
 * command ran, TMPDIR was not the other user's, no socket was made. */
BOTH_USERS(tmpdir, another_user_s_directory_is_not_used, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "squattmp", "");
	char *shared = own_shared(&w);
	char *squat = fmt("%s/cordon-tmp-%u", shared, (unsigned)uid);
	cr_assert(mkdir(squat, 0777) == 0 && chown(squat, 12345, 12345) == 0);
	char *sock = fmt("%s/s.sock", shared);
	struct run_result r = sh_in(&w, NULL,
				    "echo \"$TMPDIR\" > tmpdir.txt; /usr/bin/python3 -c 'import "
				    "socket; socket.socket(socket.AF_UNIX).bind(\"%s\")'",
				    sock);
	char *tmpdir_txt = path_join(w.proj, "tmpdir.txt");
	char *seen = read_file(tmpdir_txt);
	cr_expect(seen && !strstr(seen, squat), "the session ran with TMPDIR %s: %s",
		  seen ? seen : "(did not run)", r.err);
	cr_expect(strstr(r.err, "is uid 12345's, not yours"), "not said: %s", r.err);
	struct stat st;
	cr_expect_neq(lstat(sock, &st), 0, "a socket was made at %s", sock);
	run_free(&r);
	remove_all(shared);
	sweep_forget_beneath(shared);
	unlink(tmpdir_txt);
	free(tmpdir_txt);
	free(seen);
	free(sock);
	free(squat);
	free(shared);
	world_free(&w);
}

/* The sessions' TMPDIR removed outside while one runs (a cleaner of /tmp)
 * takes that session's pin with it: the directory made again is not in
 * place in its view, and it could move it where a client looks (43c F2).
 * A session started then gets it with no socket or link in it, and says
 * so, until the older one ends. Isolated as above. Judged outside: no
 * socket was made in it while the older session ran. Control: once that
 * one has ended, the same bind works. */
BOTH_USERS(tmpdir, made_again_while_a_session_runs_takes_no_socket, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "againtmp", "");
	char *shared = own_shared(&w);
	char *dir = fmt("%s/cordon-tmp-%u", shared, (unsigned)uid);
	char *sock = fmt("%s/c.sock", dir);
	char *out = path_join(w.outside, "c.out");
	const char *cordon = w.as_user ? w.user_cordon : CORDON_BIN;
	char *bind = fmt("%s run --config %s --project %s -- /usr/bin/python3 -c 'import socket, "
			 "os; socket.socket(socket.AF_UNIX).bind(os.environ[\"TMPDIR\"] + "
			 "\"/c.sock\")'",
			 cordon, w.cfg, w.proj);
	char *saves = fmt("rm -rf %s; cd %s && %s > %s 2>&1; test -S %s && echo BOUND >> %s", dir,
			  w.proj, bind, out, sock, out);
	struct run_result r = world_while_outside(&w, w.cfg, WAIT_GO, saves);
	char *seen = read_file(out);
	cr_expect(seen && !strstr(seen, "BOUND"),
		  "a session bound in the TMPDIR made again while another ran: %s",
		  seen ? seen : "(nothing)");
	cr_expect(seen && strstr(seen, "removed and made again"), "not said: %s",
		  seen ? seen : "(nothing)");
	run_free(&r);
	free(seen);
	unlink(sock);
	/* Control: the older session gone. */
	char *ctl[] = {"/bin/sh", "-c", bind, NULL};
	r = world_run(&w, ctl, w.proj);
	struct stat st;
	cr_assert(lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode),
		  "control: alone, no socket in the TMPDIR: %s", r.err);
	run_free(&r);
	remove_all(shared);
	sweep_forget_beneath(shared);
	unlink(out);
	free(saves);
	free(bind);
	free(out);
	free(sock);
	free(dir);
	free(shared);
	world_free(&w);
}

/* INNER as W's commands run, in a mount namespace of the test's where
 * "$0" (FROM) is bind-mounted on "$1" (TO), then SCRIPT's rest ("cd"...)
 * and the command: a malloc'd argv (its strings borrowed), freed with
 * free. */
static char **in_mount_ns(const struct world *w, const char *from, const char *to, const char *then,
			  char *const inner[])
{
	static char script[256];
	snprintf(script, sizeof(script),
		 "mount --bind \"$0\" \"$1\" || exit 9; %sshift; exec \"$@\"", then);
	char **as = world_argv(w, inner);
	size_t n = 0;
	while (as[n])
		n++;
	char **argv = calloc(n + 10, sizeof(*argv));
	cr_assert_not_null(argv);
	char *head[] = {"/usr/bin/unshare", "-m", "--propagation", "private",
			"/bin/sh",          "-c", script,          (char *)from,
			(char *)to};
	memcpy(argv, head, sizeof(head));
	memcpy(argv + 9, as, n * sizeof(*argv));
	free(as);
	return argv;
}

/* A session in a private /tmp (a service's PrivateTmp, a container,
 * unshare) has a directory at the same path, but in another /tmp: it
 * cannot move the host's, so a host session started while it runs gets
 * its TMPDIR as usual (43e F3: it was told the directory had been "removed
 * and made again", and took no socket). The private /tmp is the test's
 * shared directory with another bind-mounted on it, in a mount namespace
 * of the test's. Judged outside: the host session's socket is there. */
BOTH_USERS(tmpdir, a_session_in_a_private_tmp_leaves_the_host_s_alone, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "privtmp", "");
	char *shared = own_shared(&w);
	char *priv = path_join(w.dir, "private");
	cr_assert(mkdir(priv, 0755) == 0 && chmod(priv, 01777) == 0);
	char *ready, *go;
	char *wait = waits_in(w.proj, &ready, &go);
	char *inner[] = {CORDON_BIN, "run",     "--config", w.cfg, "--project", w.proj,
			 "--",       "/bin/sh", "-c",       wait,  NULL};
	char **argv = in_mount_ns(&w, priv, shared, "", inner);
	pid_t a = spawn_cmd(argv, w.env, w.proj);
	for (int i = 0; i < 400 && access(ready, F_OK) != 0; i++)
		usleep(50000);
	cr_assert(access(ready, F_OK) == 0, "the session in a private /tmp did not start");
	char *in_priv = fmt("%s/cordon-tmp-%u", priv, (unsigned)uid);
	struct stat st;
	cr_assert(lstat(in_priv, &st) == 0 && S_ISDIR(st.st_mode),
		  "the private session made no TMPDIR in its /tmp");

	char *dir = fmt("%s/cordon-tmp-%u", shared, (unsigned)uid);
	char *sock = fmt("%s/c.sock", dir);
	struct run_result r = sh_in(&w, "",
				    "/usr/bin/python3 -c 'import socket, os; "
				    "socket.socket(socket.AF_UNIX).bind(os.environ[\"TMPDIR\"] + "
				    "\"/c.sock\")'");
	cr_expect(lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode),
		  "the host session took no socket in its TMPDIR while one in a private /tmp "
		  "ran (%d): %s%s",
		  r.status, r.out, r.err);
	cr_expect_null(strstr(r.err, "made again"), "a false warning: %s", r.err);
	run_free(&r);
	close(open(go, O_CREAT | O_WRONLY | O_CLOEXEC, 0644));
	int status;
	cr_expect_eq(waitpid(a, &status, 0), a);
	cr_expect(WIFEXITED(status) && WEXITSTATUS(status) == 0,
		  "the session in a private /tmp: status %d", status);
	char *trees = fmt("%s %s", shared, priv);
	remove_all(trees);
	free(trees);
	sweep_forget_beneath(shared);
	sweep_forget_beneath(priv);
	unlink(ready), unlink(go);
	free(sock), free(dir), free(in_priv), free(argv), free(wait), free(ready), free(go);
	free(priv), free(shared);
	world_free(&w);
}

/* A project that is a bind mount of a directory in /tmp: its rights follow
 * the directory, which any session may rename there, with the sockets made
 * in it, to where a client outside looks (43e F4). So it is shared too: no
 * socket or link made in it, said. The bind is made in a mount namespace of
 * the test's (the shared directory of W's own stands for /tmp). Judged
 * outside: no socket at the directory's name in the shared one. Control:
 * the same bind in a project of its own works. */
BOTH_USERS(tmpdir, a_project_mounted_from_tmp_takes_no_socket, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "bindproj", "");
	char *shared = own_shared(&w);
	char *src = path_join(shared, "src");
	char *proj = path_join(w.dir, "mounted");
	cr_assert(mkdir(src, 0755) == 0 && chown(src, uid, gid) == 0);
	cr_assert(mkdir(proj, 0755) == 0 && chown(proj, uid, gid) == 0);
	const char *bind_py = "import socket; s = socket.socket(socket.AF_UNIX)\n"
			      "try:\n    s.bind('server'); print('BOUND')\n"
			      "except OSError as e:\n    print('bind:', e.strerror)\n";
	char *inner[] = {CORDON_BIN,         "run", "--config",      w.cfg, "--project", proj, "--",
			 "/usr/bin/python3", "-c",  (char *)bind_py, NULL};
	char **argv = in_mount_ns(&w, src, proj, "cd \"$1\" || exit 9; ", inner);
	struct run_result r = run_cmd(argv, w.env, "/", 20000);
	char *sock = path_join(src, "server");
	struct stat st;
	cr_expect_neq(lstat(sock, &st), 0,
		      "a socket was made in a project mounted from the shared directory (%d): %s%s",
		      r.status, r.out, r.err);
	cr_expect_null(strstr(r.out, "BOUND"), "%s", r.out);
	cr_expect(strstr(r.err, "is also") && strstr(r.err, "src"), "not said: %s", r.err);
	run_free(&r);
	unlink(sock);

	/* The same mounted below the project (45e F2): Landlock cannot take
	 * rights away there, so the whole project takes no socket. */
	char *sub = path_join(proj, "sub"), *at_top = path_join(proj, "server");
	cr_assert(mkdir(sub, 0755) == 0 && chown(sub, uid, gid) == 0);
	const char *both_py =
		"import socket\n"
		"for n in ('server', 'sub/server'):\n"
		"    try:\n        socket.socket(socket.AF_UNIX).bind(n); print('BOUND', n)\n"
		"    except OSError as e:\n        print('bind:', n, e.strerror)\n";
	inner[9] = (char *)both_py;
	char **below = in_mount_ns(&w, src, sub, "cd \"$1\"/.. || exit 9; ", inner);
	r = run_cmd(below, w.env, "/", 20000);
	cr_expect(lstat(sock, &st) != 0 && lstat(at_top, &st) != 0,
		  "a socket was made in a project holding a mount of the shared directory (%d): "
		  "%s%s",
		  r.status, r.out, r.err);
	cr_expect(strstr(r.out, "bind: server") && strstr(r.out, "bind: sub/server"),
		  "the binds were not tried: %s%s", r.out, r.err);
	cr_expect(strstr(r.err, "holds") && strstr(r.err, "which is also"), "not said: %s", r.err);
	run_free(&r);
	unlink(sock), unlink(at_top);
	free(below), free(sub), free(at_top);

	/* Control: the same in a project of its own. */
	char *own[] = {"/usr/bin/python3", "-c", (char *)bind_py, NULL};
	r = run_in(&w, NULL, own);
	cr_expect(strstr(r.out, "BOUND"), "control: %s%s", r.out, r.err);
	run_free(&r);
	char *trees = fmt("%s %s", shared, proj);
	remove_all(trees);
	sweep_forget_beneath(shared);
	free(trees), free(sock), free(argv), free(proj), free(src), free(shared);
	world_free(&w);
}

/* A project in /tmp is out of other sessions' reach (43d F1): moved to
 * where a client outside looks, its sockets would be there. A session
 * started while it runs pins it too; one with its project in /tmp started
 * while another runs (which does not pin it) makes no socket or link in
 * it, and says so. Judged outside: the project still at its name while
 * the later session tried to move it; no socket in the later project.
 * Controls: unsandboxed, the move works; alone, the bind works. */
BOTH_USERS(tmpdir, a_project_in_tmp_is_out_of_other_sessions_reach, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "tmpothers", "");
	tmp_config(&w, ", \"protected_paths\": []" REGISTRY_IN);
	own_registry(&w);
	int pid = (int)getpid();
	char *proj = fmt("/tmp/cordon-test-others-%d-%u", pid, (unsigned)uid);
	char *moved = fmt("/tmp/cordon-test-othersmoved-%d-%u", pid, (unsigned)uid);
	cr_assert(mkdir(proj, 0700) == 0 && chown(proj, uid, gid) == 0);
	const char *cordon = w.as_user ? w.user_cordon : CORDON_BIN;
	/* (Each waits in its own project.) */
	char *ready, *go, *ready2, *go2;
	char *wait_go = waits_in(proj, &ready, &go);
	char *wait_go2 = waits_in(w.proj, &ready2, &go2);
	/* 1. The project's session first; another moves it. */
	char *first[] = {(char *)cordon, "run",     "--config", w.cfg,   "--project", proj,
			 "--",           "/bin/sh", "-c",       wait_go, NULL};
	pid_t p1 = world_spawn(&w, first, proj);
	cr_assert(wait_exists(ready, 10000), "the project's session did not start");
	usleep(200 * 1000); /* (a session is listed 20 ms after it starts) */
	char *mv = fmt("mv %s %s", proj, moved);
	char *later[] = {(char *)cordon, "run", "--config", w.cfg, "--", "/bin/sh", "-c", mv, NULL};
	struct run_result r = world_run(&w, later, w.proj);
	struct stat st;
	cr_expect(stat(proj, &st) == 0 && lstat(moved, &st) != 0,
		  "a later session moved the project in /tmp: %s", r.err);
	run_free(&r);
	free(write_file(proj, "go", ""));
	int status;
	cr_assert_eq(waitpid(p1, &status, 0), p1);
	unlink(ready);
	unlink(go);
	/* 2. Another session first; the project's binds. */
	char *other[] = {(char *)cordon, "run", "--config", w.cfg, "--",
			 "/bin/sh",      "-c",  wait_go2,   NULL};
	pid_t p2 = world_spawn(&w, other, w.proj);
	cr_assert(wait_exists(ready2, 10000), "the other session did not start");
	usleep(200 * 1000);
	char *sock = fmt("%s/s.sock", proj);
	char *py = fmt("import socket; socket.socket(socket.AF_UNIX).bind('%s')", sock);
	char *bind[] = {(char *)cordon,     "run", "--config", w.cfg, "--project", proj, "--",
			"/usr/bin/python3", "-c",  py,         NULL};
	r = world_run(&w, bind, proj);
	cr_expect_neq(lstat(sock, &st), 0,
		      "the project in /tmp took a socket beside another "
		      "session: %s",
		      r.err);
	cr_expect(strstr(r.err, "other sessions of yours run"), "not said: %s", r.err);
	run_free(&r);
	free(write_file(w.proj, "go", ""));
	cr_assert_eq(waitpid(p2, &status, 0), p2);
	unlink(ready2);
	unlink(go2);
	/* Controls. */
	r = world_run(&w, bind, proj);
	cr_assert(lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode),
		  "control: alone, the project took no socket: %s", r.err);
	run_free(&r);
	char *ctl[] = {"/bin/sh", "-c", mv, NULL};
	r = world_run(&w, ctl, "/");
	cr_assert(lstat(moved, &st) == 0, "control: unsandboxed, the move failed: %s", r.err);
	run_free(&r);
	char *rm = fmt("%s %s", proj, moved);
	remove_all(rm);
	sweep_forget_beneath(proj);
	sweep_forget_beneath(moved);
	free(rm);
	free(py);
	free(sock);
	free(mv);
	free(wait_go);
	free(wait_go2);
	free(ready);
	free(go);
	free(ready2);
	free(go2);
	free(moved);
	free(proj);
	world_free(&w);
}

/* Where no session can be listed (a home that cannot be written: the
 * registry cannot be made), whether another runs is not known: a project
 * in /tmp, and a TMPDIR this launch made, take no socket, and it is said
 * (43e F1: an earlier session, unlisted, moved them). Judged outside: no
 * socket in either. Control: with a registry, alone, both binds work. */
BOTH_USERS(tmpdir, no_registry_no_socket_in_tmp, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "noregistry", "");
	char *shared = own_shared(&w);
	char *proj = fmt("%s/proj", shared);
	cr_assert(mkdir(proj, 0700) == 0 && chown(proj, uid, gid) == 0);
	world_setenv(&w, "CORDON_TEST_REGISTRY=/proc/cordon-test-none");
	char *in_proj = fmt("%s/p.sock", proj);
	char *in_tmp = fmt("%s/cordon-tmp-%u/t.sock", shared, (unsigned)uid);
	const char *cordon = w.as_user ? w.user_cordon : CORDON_BIN;
	char *py = fmt("import socket, sys\n"
		       "for p in sys.argv[1:]:\n"
		       "    try: socket.socket(socket.AF_UNIX).bind(p)\n"
		       "    except OSError as e: print(p, e.strerror)\n");
	char *argv[] = {(char *)cordon,     "run", "--config", w.cfg,   "--project", proj, "--",
			"/usr/bin/python3", "-c",  py,         in_proj, in_tmp,      NULL};
	struct run_result r = world_run(&w, argv, proj);
	struct stat st;
	cr_expect_neq(lstat(in_proj, &st), 0, "the project in /tmp took a socket: %s", r.err);
	cr_expect_neq(lstat(in_tmp, &st), 0, "the TMPDIR made here took a socket: %s", r.err);
	cr_expect(strstr(r.err, "which sessions of yours run cannot be told (") &&
			  strstr(r.err, "was made now, and which sessions of yours run cannot be"),
		  "not said (as it is: the registry cannot be read): %s", r.err);
	run_free(&r);
	unlink(in_proj);
	unlink(in_tmp);
	/* Control: a registry of the test's own, nothing else running. */
	own_registry(&w);
	r = world_run(&w, argv, proj);
	cr_assert(lstat(in_proj, &st) == 0 && lstat(in_tmp, &st) == 0,
		  "control: with a registry, alone, no socket: %s%s", r.out, r.err);
	run_free(&r);
	remove_all(shared);
	sweep_forget_beneath(shared);
	free(py);
	free(in_tmp);
	free(in_proj);
	free(proj);
	free(shared);
	world_free(&w);
}

/* A session that found the sessions' TMPDIR squatted pins none; once the
 * squat is gone, a session that makes it anew must not make sockets in it
 * while that one runs (43e F2: it moved the new one to where a client
 * looked). Its record says it pins none at that path. Judged outside: no
 * socket in the directory made anew. Control: once it has ended, the
 * bind works. */
BOTH_USERS(tmpdir, a_squatted_session_leaves_no_socket_to_take, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "squatfree", "");
	char *shared = own_shared(&w);
	own_registry(&w);
	char *dir = fmt("%s/cordon-tmp-%u", shared, (unsigned)uid);
	cr_assert(mkdir(dir, 0777) == 0 && chown(dir, 12345, 12345) == 0);
	const char *cordon = w.as_user ? w.user_cordon : CORDON_BIN;
	char *ready, *go;
	char *wait_go = waits_in(w.proj, &ready, &go);
	char *first[] = {(char *)cordon, "run", "--config", w.cfg, "--",
			 "/bin/sh",      "-c",  wait_go,    NULL};
	pid_t p1 = world_spawn(&w, first, w.proj);
	cr_assert(wait_exists(ready, 10000), "the squatted session did not start");
	usleep(200 * 1000); /* (a session is listed 20 ms after it starts) */
	cr_assert_eq(rmdir(dir), 0);
	char *sock = fmt("%s/t.sock", dir);
	char *py = fmt("import socket; socket.socket(socket.AF_UNIX).bind('%s')", sock);
	char *bind[] = {(char *)cordon,     "run", "--config", w.cfg, "--",
			"/usr/bin/python3", "-c",  py,         NULL};
	struct run_result r = world_run(&w, bind, w.proj);
	struct stat st;
	cr_expect_neq(lstat(sock, &st), 0,
		      "a socket in the TMPDIR made anew beside a squatted "
		      "session: %s",
		      r.err);
	run_free(&r);
	free(write_file(w.proj, "go", ""));
	int status;
	cr_assert_eq(waitpid(p1, &status, 0), p1);
	unlink(sock);
	r = world_run(&w, bind, w.proj);
	cr_assert(lstat(sock, &st) == 0 && S_ISSOCK(st.st_mode),
		  "control: alone, no socket in the TMPDIR: %s", r.err);
	run_free(&r);
	unlink(ready);
	unlink(go);
	remove_all(shared);
	sweep_forget_beneath(shared);
	free(py);
	free(sock);
	free(wait_go);
	free(ready);
	free(go);
	free(dir);
	free(shared);
	world_free(&w);
}

/* A server of session A's in the sessions' TMPDIR: listening at argv[1]
 * there, then "ready", then it waits for "go". */
static const char tmp_server_py[] = "import os, socket, time, sys\n"
				    "p = os.environ['TMPDIR'] + '/' + sys.argv[1]\n"
				    "s = socket.socket(socket.AF_UNIX); s.bind(p); s.listen(4)\n"
				    "open('ready', 'w').close()\n"
				    "i = 0\n"
				    "while not os.path.exists('go') and i < 600:\n"
				    "    time.sleep(0.05); i += 1\n";

/* Each session lives in a network namespace of its own, where the host's
 * /proc/net/unix does not list its listeners; for session B, a server of
 * A's is a server outside all the same, and keeps its name: B neither
 * removes nor renames it (a server of B's there would get A's clients
 * from outside). Judged outside while A runs: the socket is at its name.
 * Control: unsandboxed, the removal works. */
BOTH_USERS(tmpdir, a_server_of_another_session_keeps_its_name, .timeout = 90)
{
	uid_t uid;
	gid_t gid;
	who_ids(who, &uid, &gid);
	struct world w;
	world_for(&w, who, "othersrv", "");
	tmp_config(&w, "");
	char *name = fmt("cordon-test-srv-%d.sock", (int)getpid());
	char *sock = fmt("/tmp/cordon-tmp-%u/%s", (unsigned)uid, name);
	free(write_file(w.proj, "server.py", tmp_server_py));
	char *body = fmt("/usr/bin/python3 server.py %s", name);
	char *result = path_join(w.outside, "result");
	const char *cordon = w.as_user ? w.user_cordon : CORDON_BIN;
	char *judge = fmt("{ test -S %s && echo kept; test -e %s.x && echo moved; } >> %s 2>&1",
			  sock, sock, result);
	char *saves = fmt("cd %s && %s run --config %s --project %s -- /bin/sh -c "
			  "'rm -f \"$TMPDIR/%s\"; mv \"$TMPDIR/%s\" \"$TMPDIR/%s.x\"' "
			  ">>%s/b.out 2>&1; %s",
			  w.proj, cordon, w.cfg, w.proj, name, name, name, w.outside, judge);
	struct run_result r = world_while_outside(&w, w.cfg, body, saves);
	char *seen = read_file(result);
	char *b_out_path = path_join(w.outside, "b.out");
	char *b_out = read_file(b_out_path);
	char *diag = fmt("A (%d): %s%s\nB: %s\noutside: %s", r.status, r.out, r.err,
			 b_out ? b_out : "", seen ? seen : "");
	cr_expect(seen && strstr(seen, "kept") && !strstr(seen, "moved"),
		  "session B removed or moved A's server\n%s", diag);
	run_free(&r);
	free(diag);
	free(seen);
	unlink(result);

	/* Control: the removal, unsandboxed, while A runs. */
	char *ctl = fmt("rm -f %s; %s", sock, judge);
	r = world_while_outside(&w, w.cfg, body, ctl);
	seen = read_file(result);
	cr_assert(seen && !strstr(seen, "kept"), "control: unsandboxed, the removal failed: %s%s",
		  seen ? seen : "(nothing)", r.err);
	run_free(&r);
	char *rm = fmt("%s %s.x", sock, sock);
	remove_all(rm);
	free(rm);
	unlink(result);
	unlink(b_out_path);
	free(b_out);
	free(b_out_path);
	free(seen);
	free(ctl);
	free(saves);
	free(judge);
	free(result);
	free(body);
	free(sock);
	free(name);
	world_free(&w);
}
