/* Escape routes through the filesystem: links, renames, /proc, a directory
 * fd handed in from outside, and the config that governs the next session.
 * Judged from outside: is the secret anywhere inside, does the file outside
 * still hold what it held, did anything appear outside. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/wait.h>
#include <unistd.h>

#include "helpers.h"

Test(escape, symlink_route_out)
{
	struct world w;
	world_init(&w, "symlink", "");
	char *copy = path_join(w.proj, "copy");
	struct run_result r = sh_in(
		&w, NULL,
		"ln -s '%s' link && cat link > copy; ln -s '%s' dirlink && echo x > dirlink/planted",
		w.secret, w.outside);
	cr_expect_not(contains(copy, SECRET), "read through a symlink");
	char *planted = path_join(w.outside, "planted");
	cr_expect_not(file_exists(planted), "wrote through a directory symlink");
	run_free(&r);
	free(planted);
	free(copy);
	world_free(&w);
}

Test(escape, hardlink_route_out)
{
	struct world w;
	world_init(&w, "hardlink", "");
	char *hl = path_join(w.proj, "hl");
	struct run_result r = sh_in(&w, NULL, "ln '%s' hl; cat hl > copy", w.secret);
	struct stat st;
	cr_assert_eq(stat(w.secret, &st), 0);
	cr_expect_eq(st.st_nlink, 1, "a hard link to the secret was made");
	cr_expect_not(file_exists(hl));
	run_free(&r);
	free(hl);
	world_free(&w);
}

Test(escape, rename_routes)
{
	struct world w;
	world_init(&w, "rename", "");
	free(write_file(w.proj, "mine", "mine"));
	struct run_result r =
		sh_in(&w, NULL, "mv '%s' stolen; mv mine '%s/mine'; mv '%s/victim' '%s/gone'",
		      w.secret, w.outside, w.outside, w.outside);
	char *stolen = path_join(w.proj, "stolen");
	char *planted = path_join(w.outside, "mine");
	char *victim = path_join(w.outside, "victim/keep");
	cr_expect(file_exists(w.secret) && !file_exists(stolen),
		  "renamed a file out of its directory into the project");
	cr_expect_not(file_exists(planted), "renamed a project file to outside");
	cr_expect(file_exists(victim), "renamed a directory outside");
	run_free(&r);
	free(stolen);
	free(planted);
	free(victim);
	world_free(&w);
}

Test(escape, proc_self_root_route)
{
	struct world w;
	world_init(&w, "procroot", "");
	char *copy = path_join(w.proj, "copy");
	struct run_result r = sh_in(
		&w, NULL,
		"cat /proc/self/root'%s' > copy; cat /proc/$$/root'%s' >> copy; cat /proc/self/cwd/../outside/secret >> copy",
		w.secret, w.secret);
	cr_expect_not(contains(copy, SECRET));
	run_free(&r);
	free(copy);
	world_free(&w);
}

Test(escape, outside_process_proc_files)
{
	struct world w;
	world_init(&w, "procpid", "");
	pid_t pid = start_outside_process();
	char *copy = path_join(w.proj, "copy");
	struct run_result r = sh_in(
		&w, NULL,
		"for f in environ cmdline maps mem status; do cordon-probe read /proc/%d/$f >> copy; done;"
		"tr '\\0' ' ' < /proc/%d/environ >> copy; ps -ef >> copy; cat /proc/self/status > self.txt",
		pid, pid);
	cr_expect_not(contains(copy, "env-" SECRET), "outside environ was read");
	cr_expect_not(contains(copy, "r-xp"), "outside maps were read");
	if (geteuid() == 0)
		cr_expect_not(contains(copy, "cmdline-" SECRET),
			      "outside cmdline was read by root");
	char *self = path_join(w.proj, "self.txt");
	cr_expect(contains(self, "Name:"), "a process must read its own /proc/self: %s", r.err);
	run_free(&r);
	stop_process(pid);
	free(self);
	free(copy);
	world_free(&w);
}

Test(escape, policy_fd_is_closed_in_the_shell)
{
	struct world w;
	world_init(&w, "fdclosed", "");
	struct run_result r =
		sh_in(&w, NULL, "ls -l /proc/$$/fd/ > fds.txt; ls -l /proc/self/fd/ >> fds.txt");
	char *fds = path_join(w.proj, "fds.txt");
	cr_expect(contains(fds, "0 ->"), "%s", r.err);
	cr_expect_not(contains(fds, "cordon-policy"), "the policy fd leaked into the shell");
	run_free(&r);
	free(fds);
	world_free(&w);
}

/* Outside: accept one connection on the unix socket PATH and hand the
 * peer an open directory fd of DIR (SCM_RIGHTS). Returns the server's pid. */
static pid_t serve_dir_fd(const char *path, const char *dir)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
	unlink(path);
	cr_assert_eq(bind(s, (struct sockaddr *)&un, sizeof(un)), 0, "bind %s: %s", path,
		     strerror(errno));
	cr_assert_eq(listen(s, 1), 0);
	pid_t pid = fork();
	cr_assert_geq(pid, 0);
	if (pid == 0) {
		alarm(20);
		int c = accept(s, NULL, NULL);
		int d = open(dir, O_RDONLY | O_DIRECTORY);
		char byte = 'x';
		union {
			char buf[CMSG_SPACE(sizeof(int))];
			struct cmsghdr align;
		} u;
		memset(&u, 0, sizeof(u));
		struct iovec io = {.iov_base = &byte, .iov_len = 1};
		struct msghdr m = {.msg_iov = &io,
				   .msg_iovlen = 1,
				   .msg_control = u.buf,
				   .msg_controllen = sizeof(u.buf)};
		struct cmsghdr *cm = CMSG_FIRSTHDR(&m);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &d, sizeof(int));
		_exit(c >= 0 && d >= 0 && sendmsg(c, &m, 0) == 1 ? 0 : 1);
	}
	close(s);
	return pid;
}

/* A cooperating (or careless) process outside hands a directory fd in. The
 * fd gives no rights Landlock did not grant: the policy follows the file,
 * not the path the caller used to reach it. */
Test(escape, directory_fd_passed_in_from_outside)
{
	struct world w;
	world_init(&w, "fdpass", "");
	char *sock = path_join(w.proj, "fdsock");
	char *planted = path_join(w.outside, "planted");
	/* Control: unsandboxed, the route reads the secret and writes outside. */
	pid_t server = serve_dir_fd(sock, w.outside);
	char *plain[] = {CORDON_PROBE, "recvfd", sock, "secret", NULL};
	struct run_result r = run_cmd(plain, w.env, w.proj, 20000);
	cr_assert(strstr(r.out, SECRET) && file_exists(planted),
		  "control: the route must work unsandboxed: %s", r.err);
	waitpid(server, NULL, 0);
	run_free(&r);
	unlink(planted);
	free(write_file(w.outside, "secret", SECRET));

	server = serve_dir_fd(sock, w.outside);
	char *args[] = {"cordon-probe", "recvfd", sock, "secret", NULL};
	char *opt;
	asprintf(&opt, "--allow-socket %s", sock); /* the user lets it in */
	r = run_in(&w, opt, args);
	free(opt);
	cr_expect(strstr(r.out, "got fd") != NULL,
		  "the fd must arrive (else the test proves nothing): %s", r.err);
	cr_expect_null(strstr(r.out, SECRET), "read the secret through a passed fd");
	cr_expect_not(file_exists(planted), "created a file through a passed fd");
	cr_expect(contains(w.secret, SECRET), "removed the secret through a passed fd");
	waitpid(server, NULL, 0);
	run_free(&r);
	free(planted);
	free(sock);
	world_free(&w);
}

/* A hostile command rewrites every config it can reach so that the next
 * session starts wider: the user's config (read-only inside), files in the
 * project that look like configs (never read by discovery), and the running
 * session's own config file (the policy was fixed when the session began). */
Test(escape, config_tampering_from_inside)
{
	struct world w;
	world_init(&w, "tamper", "");
	char *cfgdir = path_join(w.home, ".config/cordon");
	char *json = read_file(w.cfg);
	char *user_cfg = write_file(cfgdir, "config.json", json);
	const char *wide =
		"{\"enabled\": false, \"terminal\": {\"sandbox\": {\"enabled\": false}}}";
	char *a = path_join(w.outside, "a");
	struct run_result r = sh_in(
		&w, NULL,
		"echo '%s' > '%s'; for f in cordon.json .cordon.json .config/cordon/config.json "
		".vscode/settings.json .zed/settings.json; do mkdir -p \"$(dirname $f)\"; echo '%s' > $f; done;"
		"cordon-probe write '%s' pwned",
		wide, user_cfg, wide, a);
	cr_expect_not(file_exists(a), "rewriting the session's config widened the running session");
	char *now = read_file(user_cfg);
	cr_expect_str_eq(now, json, "the user's config was rewritten from inside");
	run_free(&r);
	/* The next session, started from outside in the same project, finds the
	 * user's config by discovery and ignores the planted ones. */
	char *argv[] = {CORDON_BIN, "run", "--", "cordon-probe", "write", a, "pwned", NULL};
	r = run_cmd(argv, w.env, w.proj, 20000);
	cr_expect_not(file_exists(a), "a planted config widened the next session: %s", r.err);
	run_free(&r);
	free(now);
	free(a);
	free(user_cfg);
	free(json);
	free(cfgdir);
	world_free(&w);
}

/* What a root session does to the other users' files in /tmp (granted
 * read-write, as by default): a secret of theirs (a Kerberos ticket's
 * mode), a script they run, a directory of theirs, each mode 0600/0755/0700
 * and the test user's. Root's capabilities pass every mode and the sticky
 * bit; in the session /tmp is idmapped, so the kernel grants them on none
 * of these, and gives none away (a chown to root, round 53g G1). Judged
 * outside: the secret is not printed, the script and the directory are as
 * they were, the mode and owner did not change. Root's own file
 * there works as before. Control: the same script outside as root reads,
 * rewrites and moves them. */
Test(escape, other_users_files_in_tmp_are_out_of_a_root_session_s_reach, .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	test_user(&uid, &gid);
	struct world w;
	world_init(&w, "idmap", ", \"additional_read_write_paths\": [\"/tmp\"]");
	char *base = fmt("/tmp/cordon-idmap-%d", (int)getpid());
	char *secret = fmt("%s-ticket", base), *script = fmt("%s-run.sh", base);
	char *dir = fmt("%s-dir", base), *mine = fmt("%s-mine", base);
	free(write_file("/tmp", strrchr(secret, '/') + 1, "tgt-" SECRET));
	free(write_file("/tmp", strrchr(script, '/') + 1, "echo theirs\n"));
	cr_assert_eq(mkdir(dir, 0700), 0);
	cr_assert(chown(secret, uid, gid) == 0 && chmod(secret, 0600) == 0 &&
		  chown(script, uid, gid) == 0 && chmod(script, 0755) == 0 &&
		  chown(dir, uid, gid) == 0);
	/* (Round 53g G1: chown first. The idmap leaves their owner unmapped,
	 * and the kernel lets CAP_CHOWN give such a file to root.) */
	char *probe = fmt("chown 0:0 %s %s %s; chown :0 %s; "
			  "cat %s; echo; echo 'echo PLANTED' >> %s; mv %s %s.moved; chmod 666 %s; "
			  "echo mine > %s && chown 0:0 %s && cat %s",
			  secret, script, dir, secret, secret, script, dir, dir, secret, mine, mine,
			  mine);
	struct run_result in = sh_in(&w, NULL, "%s", probe);
	char *after_script = read_file(script);
	struct stat st_secret, st_mine;
	bool secret_there = stat(secret, &st_secret) == 0, mine_there = stat(mine, &st_mine) == 0;
	bool dir_there = file_exists(dir);
	unlink(mine);
	/* The control, on the same files. */
	char *argv[] = {"/bin/sh", "-c", probe, NULL};
	struct run_result out = world_run(&w, argv, w.proj);
	char *moved = fmt("%s.moved", dir);
	char *after_outside = read_file(script);
	bool moved_outside = file_exists(moved);
	struct stat st_out;
	bool chmod_outside = stat(secret, &st_out) == 0 && (st_out.st_mode & 07777) == 0666;
	unlink(secret);
	unlink(script);
	unlink(mine);
	rmdir(dir);
	rmdir(moved);
	cr_assert(strstr(out.out, "tgt-" SECRET) && after_outside &&
			  strstr(after_outside, "PLANTED") && moved_outside && chmod_outside,
		  "control: root outside did not read, rewrite, move and chmod them: %s%s", out.out,
		  out.err);
	cr_expect_null(strstr(in.out, SECRET), "the other user's secret in /tmp was read: %s%s",
		       in.out, in.err);
	cr_expect(after_script && !strstr(after_script, "PLANTED"),
		  "the other user's script in /tmp was rewritten: %s", after_script);
	cr_expect(dir_there, "the other user's directory in /tmp was moved");
	cr_expect(secret_there && (st_secret.st_mode & 07777) == 0600,
		  "the other user's file in /tmp changed mode: %o", st_secret.st_mode & 07777);
	cr_expect(secret_there && st_secret.st_uid == uid && st_secret.st_gid == gid,
		  "the other user's file in /tmp changed owner: %d:%d", (int)st_secret.st_uid,
		  (int)st_secret.st_gid);
	cr_expect(mine_there && st_mine.st_uid == 0 && strstr(in.out, "mine"),
		  "root's own file in /tmp did not work as before: %s%s", in.out, in.err);
	run_free(&in);
	run_free(&out);
	free(after_script);
	free(after_outside);
	free(moved);
	free(probe);
	free(base);
	free(secret);
	free(script);
	free(dir);
	free(mine);
	sweep_forget("/tmp"); /* (root's record of /tmp, made writable here) */
	world_free(&w);
}

/* The same other user's secret where review 42a found root's capabilities
 * still reached it: in a project inside /tmp (bound on its own before /tmp
 * was idmapped), and in /tmp granted read-only (no write rule to idmap).
 * Judged outside: not printed, not appended to. Control: root outside
 * reads and appends. */
Test(escape, other_users_files_in_a_project_in_tmp_or_a_read_only_tmp_stay_out_of_reach,
     .timeout = 60)
{
	uid_t uid;
	gid_t gid;
	test_user(&uid, &gid);
	struct world w;
	world_init(&w, "idmap2", ", \"additional_read_write_paths\": [\"/tmp\"]");
	char *proj = fmt("/tmp/cordon-idmap2-%d-proj", (int)getpid());
	char *secret = fmt("/tmp/cordon-idmap2-%d-secret", (int)getpid());
	/* (Shared itself, root's: still the session's to write, as a project.) */
	cr_assert(mkdir(proj, 0755) == 0 && chmod(proj, 01777) == 0);
	char *their = write_file(proj, "their.txt", "tgt-" SECRET);
	free(write_file("/tmp", strrchr(secret, '/') + 1, "ro-" SECRET));
	cr_assert(chown(their, uid, gid) == 0 && chmod(their, 0600) == 0 &&
		  chown(secret, uid, gid) == 0 && chmod(secret, 0600) == 0);
	char *opts = fmt("--project %s", proj);
	struct run_result in_proj = sh_in(&w, opts,
					  "cat %s; echo PLANTED >> %s; ls -ln %s; "
					  "echo own > %s/own && cat %s/own",
					  their, their, their, proj, proj);
	char *own = path_join(proj, "own");
	char *after = read_file(their);
	/* /tmp read-only: a config of its own. */
	char *cfg = fmt("{" WORLD_BASE_RW ", \"additional_read_only_paths\": [\"/tmp\"]}");
	free(write_file(w.proj, "cordon.json", cfg));
	struct run_result in_ro = sh_in(&w, NULL, "cat %s", secret);
	char *script = fmt("cat %s %s; echo CONTROL >> %s", their, secret, their);
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct run_result out = world_run(&w, argv, w.proj);
	char *after_out = read_file(their);
	unlink(their);
	unlink(secret);
	unlink(own);
	rmdir(proj);
	sweep_forget_beneath(proj);
	cr_assert(strstr(out.out, "tgt-" SECRET) && strstr(out.out, "ro-" SECRET) && after_out &&
			  strstr(after_out, "CONTROL"),
		  "control: root outside did not read and append: %s%s", out.out, out.err);
	cr_expect_null(strstr(in_proj.out, SECRET),
		       "another user's file in a project in /tmp was read: %s%s", in_proj.out,
		       in_proj.err);
	cr_expect(after && !strstr(after, "PLANTED"),
		  "another user's file in a project in /tmp was appended to: %s", after);
	cr_expect_null(strstr(in_ro.out, SECRET),
		       "another user's file in a read-only /tmp was read: %s%s", in_ro.out,
		       in_ro.err);
	cr_expect(strstr(in_proj.out, "own"),
		  "the project, a shared directory of root's in /tmp, was not writable: %s%s",
		  in_proj.out, in_proj.err);
	free(own);
	run_free(&in_proj);
	run_free(&in_ro);
	run_free(&out);
	free(after);
	free(after_out);
	free(script);
	free(cfg);
	free(opts);
	free(their);
	free(secret);
	free(proj);
	sweep_forget("/tmp"); /* (root's record of /tmp, made writable here) */
	world_free(&w);
}
