/* File metadata and inotify. chmod, chown, utimes and extended attributes
 * change a file only beneath a rule that grants write (the project), in
 * every form: by path, without following, through a descriptor, relative
 * to a directory descriptor, through an O_PATH descriptor; elsewhere they
 * are refused (EPERM or EACCES), on a file the session may read as on one
 * it may not. inotify watches only what the policy lets the session read.
 * Everything is judged from outside (stat, lstat, getxattr, the event names
 * an inside watcher wrote down), each refusal next to a control that makes
 * the same change unsandboxed; what tools do with metadata in the project
 * (cp -a, tar x, git) keeps working. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <linux/fs.h>
#include <sys/wait.h>
#include <sys/xattr.h>
#include <time.h>
#include <unistd.h>

#include "both.h"
#include "helpers.h"

#define OLD_TIME    946684800 /* 2000-01-01 00:00:00 UTC: every victim's mtime */
#define NEW_TIME    981173106 /* 2001-02-03 04:05:06 UTC: what the attempts set */
#define ROOT_TARGET 4242      /* the owner root's chown attempts give */

static void set_mtime(const char *path, time_t t, bool nofollow)
{
	struct timespec ts[2] = {{t, 0}, {t, 0}};
	cr_assert_eq(utimensat(AT_FDCWD, path, ts, nofollow ? AT_SYMLINK_NOFOLLOW : 0), 0,
		     "utimensat %s: %s", path, strerror(errno));
}

/* ---- metadata changes, every variant ---- */

/* What each victim file has on it, and the one thing its command changes. */
enum attr { A_MODE, A_OWNER, A_GROUP, A_MTIME, A_MTIME_NOW, A_XATTR, A_XATTR_GONE, A_NONE };
static const struct variant {
	const char *name;
	enum attr attr;
	bool link; /* a symlink to "target": the change is to the link itself */
} variants[] = {
	/* by path, from the command-line tools (meta.sh) */
	{"chmod", A_MODE, false},
	{"chown", A_OWNER, false},
	{"chgrp", A_GROUP, false},
	{"lchown", A_OWNER, true},
	{"touch", A_MTIME, false},
	{"touchm", A_MTIME_NOW, false},
	{"touchh", A_MTIME, true},
	{"setx", A_XATTR, false},
	{"rmx", A_XATTR_GONE, false},
	/* through a descriptor (meta.py) */
	{"fchmod", A_MODE, false},
	{"fchown", A_OWNER, false},
	{"futime", A_MTIME, false},
	{"fsetx", A_XATTR, false},
	{"fremovex", A_XATTR_GONE, false},
	{"lsetx", A_XATTR, false},
	/* relative to a directory descriptor */
	{"atchmod", A_MODE, false},
	{"atutime", A_MTIME, false},
	{"atlchown", A_OWNER, true},
	/* through an O_PATH descriptor: AT_EMPTY_PATH and /proc/self/fd */
	{"pchmod", A_MODE, false},
	{"pchown", A_OWNER, false},
	{"putime", A_MTIME, false},
	{"procchmod", A_MODE, false},
	/* what the links point to: never changed, not even in the project */
	{"target", A_NONE, false},
};
#define NVARIANTS (sizeof(variants) / sizeof(variants[0]))

/* meta.sh DIR UID GID: one attempt per victim in DIR, each on its own file,
 * whatever the others did. */
static const char meta_sh[] = "d=$1 u=$2 g=$3\n"
			      "chmod 600 $d/chmod\n"
			      "chown $u:$g $d/chown\n"
			      "chgrp $g $d/chgrp\n"
			      "chown -h $u:$g $d/lchown\n"
			      "touch -d @981173106 $d/touch\n"
			      "touch -m $d/touchm\n"
			      "touch -h -d @981173106 $d/touchh\n"
			      "setfattr -n user.x -v y $d/setx\n"
			      "setfattr -x user.old $d/rmx\n"
			      "python3 meta.py $d $u $g\n";

static const char meta_py[] =
	"import ctypes, os, sys\n"
	"c = ctypes.CDLL(None, use_errno=True)\n"
	"d, u, g, n = sys.argv[1], int(sys.argv[2]), int(sys.argv[3]), 981173106\n"
	"def p(x): return os.path.join(d, x)\n"
	"def attempt(what, f):\n"
	"    try:\n"
	"        r = f()\n"
	"        if isinstance(r, int) and r < 0:\n"
	"            print(d, what, os.strerror(ctypes.get_errno()), file=sys.stderr)\n"
	"        else: print(d, what, 'done', file=sys.stderr)\n"
	"    except OSError as e: print(d, what, e, file=sys.stderr)\n"
	"def ro(x): return os.open(p(x), os.O_RDONLY)\n"
	"def opath(x): return os.open(p(x), os.O_PATH)\n"
	"def dirfd():\n"
	"    try: return os.open(d, os.O_RDONLY | os.O_DIRECTORY)\n"
	"    except OSError: return os.open(d, os.O_PATH | os.O_DIRECTORY)\n"
	"attempt('fchmod', lambda: os.fchmod(ro('fchmod'), 0o600))\n"
	"attempt('fchown', lambda: os.fchown(ro('fchown'), u, g))\n"
	"attempt('futime', lambda: os.utime(ro('futime'), (n, n)))\n"
	"attempt('fsetx', lambda: os.setxattr(ro('fsetx'), 'user.x', b'y'))\n"
	"attempt('fremovex', lambda: os.removexattr(ro('fremovex'), 'user.old'))\n"
	"attempt('lsetx', lambda: os.setxattr(p('lsetx'), 'user.x', b'y', "
	"follow_symlinks=False))\n"
	"attempt('atchmod', lambda: os.chmod('atchmod', 0o600, dir_fd=dirfd()))\n"
	"attempt('atutime', lambda: os.utime('atutime', (n, n), dir_fd=dirfd()))\n"
	"attempt('atlchown', lambda: os.chown('atlchown', u, g, dir_fd=dirfd(), "
	"follow_symlinks=False))\n"
	"E = 0x1000  # AT_EMPTY_PATH\n"
	"attempt('pchmod', lambda: c.syscall(452, opath('pchmod'), b'', 0o600, E))  # fchmodat2\n"
	"attempt('pchown', lambda: c.fchownat(opath('pchown'), b'', u, g, E))\n"
	"ts = (ctypes.c_long * 4)(n, 0, n, 0)\n"
	"attempt('putime', lambda: c.utimensat(opath('putime'), b'', ts, E))\n"
	"attempt('procchmod', lambda: os.chmod('/proc/self/fd/%d' % opath('procchmod'), 0o600))\n";

/* Who owns the victims before (initial) and what the attempts give
 * (target): root gives them away; the user, who may only give a file it
 * owns to a group it is in, moves its file from group 0 to its own. */
struct owners {
	uid_t iu, tu;
	gid_t ig, tg;
};

static const char *as(const struct who *who)
{
	return who->user ? "as the user" : "as root";
}

static struct owners owners_for(const struct world *w, const struct who *who)
{
	if (who->user)
		return (struct owners){.iu = w->uid, .ig = 0, .tu = w->uid, .tg = w->gid};
	return (struct owners){.iu = 0, .ig = 0, .tu = ROOT_TARGET, .tg = ROOT_TARGET};
}

/* DIR with one victim per variant: mode 0644, the initial owner, OLD_TIME,
 * user.old set; the links point to "target". */
static void make_victims(const char *dir, const struct owners *o, const struct variant *vs,
			 size_t n)
{
	cr_assert(mkdir(dir, 0755) == 0 || errno == EEXIST, "mkdir %s", dir);
	cr_assert_eq(chown(dir, o->iu, o->ig), 0);
	for (size_t i = 0; i < n; i++) {
		char *path = path_join(dir, vs[i].name);
		if (vs[i].link) {
			cr_assert_eq(symlink("target", path), 0, "symlink %s", path);
			cr_assert_eq(lchown(path, o->iu, o->ig), 0);
			set_mtime(path, OLD_TIME, true);
		} else {
			free(write_file(dir, vs[i].name, "victim"));
			cr_assert_eq(chmod(path, 0644), 0);
			cr_assert_eq(chown(path, o->iu, o->ig), 0);
			cr_assert_eq(setxattr(path, "user.old", "1", 1, 0), 0, "setxattr %s: %s",
				     path, strerror(errno));
			set_mtime(path, OLD_TIME, false);
		}
		free(path);
	}
}

/* The lines of DIAG about NAME in DIR (what the attempt said), malloc'd. */
static char *said_about(const char *diag, const char *dir, const char *name)
{
	char *path, *tag;
	asprintf(&path, "%s/%s", dir, name);
	asprintf(&tag, "%s %s ", dir, name);
	size_t len = 0, cap = strlen(diag) + 1;
	char *out = calloc(1, cap);
	for (const char *p = diag; *p;) {
		const char *end = strchrnul(p, '\n');
		size_t n = (size_t)(end - p);
		char *line = strndup(p, n);
		char *hit = strstr(line, path);
		/* DIR/NAME itself, not DIR/NAMEmore (strchr finds the NUL too) */
		bool ok = (hit && strchr("' :", hit[strlen(path)])) || strstr(line, tag) == line;
		if (ok) {
			memcpy(out + len, p, n);
			len += n;
			out[len++] = '\n';
		}
		free(line);
		p = *end ? end + 1 : end;
	}
	free(path);
	free(tag);
	return out;
}

/* Whether VARIANT's victim in DIR shows its change (CHANGED) or is just as
 * make_victims left it (everything checked), per cr_expect; WHERE names the
 * place in the messages, DIAG (what the attempts said on stderr) gives
 * the lines about each victim. START:
 * when the test began (touch -m's "now"). Returns how many were not. */
static int check_victims(const char *dir, const struct who *who, const struct owners *o,
			 const struct variant *vs, size_t n, bool changed, const char *where,
			 time_t start, const char *diag)
{
	int wrong = 0;
	for (size_t i = 0; i < n; i++) {
		const struct variant *v = &vs[i];
		char *path = path_join(dir, v->name);
		struct stat st;
		cr_assert_eq(lstat(path, &st), 0, "%s: %s is gone", where, v->name);
		char val[16] = "";
		ssize_t x = v->link ? -1 : getxattr(path, "user.x", val, sizeof(val) - 1);
		bool has_old = v->link || getxattr(path, "user.old", NULL, 0) >= 0;
		char *said = said_about(diag, dir, v->name);
		if (changed && v->attr != A_NONE) {
			bool ok = false;
			switch (v->attr) {
			case A_MODE:
				ok = (st.st_mode & 07777) == 0600;
				break;
			case A_OWNER:
				ok = st.st_uid == o->tu && st.st_gid == o->tg;
				break;
			case A_GROUP:
				ok = st.st_gid == o->tg;
				break;
			case A_MTIME:
				ok = st.st_mtime == NEW_TIME;
				break;
			case A_MTIME_NOW:
				ok = st.st_mtime >= start - 5;
				break;
			case A_XATTR:
				ok = x == 1 && val[0] == 'y';
				break;
			case A_XATTR_GONE:
				ok = !has_old;
				break;
			case A_NONE:
				break;
			}
			wrong += !ok;
			cr_expect(ok,
				  "%s %s: %s did not change (mode %o, owner %u:%u, mtime %lld, "
				  "user.x %zd, user.old %d)\n%s",
				  where, as(who), v->name, st.st_mode & 07777, (unsigned)st.st_uid,
				  (unsigned)st.st_gid, (long long)st.st_mtime, x, has_old, said);
		} else {
			bool same = st.st_uid == o->iu && st.st_gid == o->ig &&
				    st.st_mtime == OLD_TIME &&
				    (v->link || ((st.st_mode & 07777) == 0644 && x < 0 && has_old));
			wrong += !same;
			cr_expect(
				same,
				"%s %s: %s changed (mode %o, owner %u:%u, mtime %lld, user.x %zd, "
				"user.old %d)\n%s",
				where, as(who), v->name, st.st_mode & 07777, (unsigned)st.st_uid,
				(unsigned)st.st_gid, (long long)st.st_mtime, x, has_old, said);
		}
		free(said);
		free(path);
	}
	return wrong;
}

/* Every variant, as root and as the user: in the project it changes the
 * file; on a file outside that the session may read (w.outside under
 * --allow-read), and on one under no rule at all, it changes nothing. The
 * control runs the same attempts outside the sandbox and sees every change. */
BOTH_USERS(metadata, changes_need_a_writable_rule, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "meta", "");
	need_user_xattrs(&w);
	time_t start = time(NULL);
	struct owners o = owners_for(&w, who);
	free(write_file(w.proj, "meta.sh", meta_sh));
	free(write_file(w.proj, "meta.py", meta_py));
	char *control = path_join(w.dir, "control");
	char *proj = path_join(w.proj, "victims");
	char *readable = path_join(w.outside, "victims");
	char *unread = path_join(w.dir, "unread");
	make_victims(control, &o, variants, NVARIANTS);
	make_victims(proj, &o, variants, NVARIANTS);
	make_victims(readable, &o, variants, NVARIANTS);
	make_victims(unread, &o, variants, NVARIANTS);

	/* Control: outside, every attempt changes its file. */
	char *script;
	asprintf(&script, "sh meta.sh %s %u %u", control, (unsigned)o.tu, (unsigned)o.tg);
	struct run_result r = sh_outside(&w, script);
	cr_assert_eq(check_victims(control, who, &o, variants, NVARIANTS, true, "control, outside",
				   start, r.err),
		     0, "control: not every change was made outside");
	run_free(&r);
	free(script);

	char *opts;
	asprintf(&opts, "--allow-read %s", w.outside);
	r = sh_in(&w, opts,
		  "sh meta.sh %1$s %4$u %5$u; sh meta.sh %2$s %4$u %5$u; sh meta.sh %3$s %4$u %5$u",
		  proj, readable, unread, (unsigned)o.tu, (unsigned)o.tg);
	/* Inside: the project's files change ... */
	check_victims(proj, who, &o, variants, NVARIANTS, true, "inside, the project", start,
		      r.err);
	/* ... the readable file outside and the unreadable one do not. */
	check_victims(readable, who, &o, variants, NVARIANTS, false, "inside, readable outside",
		      start, r.err);
	check_victims(unread, who, &o, variants, NVARIANTS, false, "inside, unreadable outside",
		      start, r.err);
	run_free(&r);
	free(opts);
	free(control);
	free(proj);
	free(readable);
	free(unread);
	world_free(&w);
}

/* ---- symlinks in the project to files outside ---- */

/* What the links in the project lead to: the attempts follow them. */
static const struct variant through[] = {
	{"chmod", A_MODE, false}, {"chown", A_OWNER, false}, {"touch", A_MTIME, false},
	{"setx", A_XATTR, false}, {"fchmod", A_MODE, false}, {"viadir", A_MODE, false},
	{"viafd", A_MODE, false},
};
#define NTHROUGH (sizeof(through) / sizeof(through[0]))

/* links.sh LINKS UID GID: LINKS/NAME is a symlink to the victim NAME,
 * LINKS/dir one to the victims' directory. */
static const char links_sh[] =
	"l=$1 u=$2 g=$3\n"
	"chmod 600 $l/chmod\n"
	"chown $u:$g $l/chown\n"
	"touch -d @981173106 $l/touch\n"
	"setfattr -n user.x -v y $l/setx\n"
	"chmod 600 $l/dir/viadir\n"
	"python3 -c 'import os, sys; os.fchmod(os.open(sys.argv[1] + \"/fchmod\", os.O_RDONLY), "
	"0o600)' $l\n"
	"python3 -c 'import os, sys; os.chmod(\"viafd\", 0o600, dir_fd=os.open(sys.argv[1] + "
	"\"/dir\", os.O_RDONLY | os.O_DIRECTORY))' $l\n";

/* LINKS (made here) with a symlink to each victim in VICTIMS and "dir" to
 * VICTIMS itself. */
static void make_links(const char *links, const char *victims)
{
	cr_assert_eq(mkdir(links, 0755), 0, "mkdir %s", links);
	for (size_t i = 0; i <= NTHROUGH; i++) {
		const char *name = i < NTHROUGH ? through[i].name : "dir";
		char *link = path_join(links, name);
		char *to = i < NTHROUGH ? path_join(victims, name) : strdup(victims);
		cr_assert_eq(symlink(to, link), 0, "symlink %s", link);
		free(link);
		free(to);
	}
}

/* A symlink in the project leads the change to where it points: a file
 * outside, readable or not, stays as it was; the control, through links
 * outside, changes every one. */
BOTH_USERS(metadata, symlinks_in_the_project_change_nothing_outside, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "metalink", "");
	need_user_xattrs(&w);
	time_t start = time(NULL);
	struct owners o = owners_for(&w, who);
	free(write_file(w.proj, "links.sh", links_sh));
	char *control = path_join(w.dir, "control"), *control_links = path_join(w.dir, "clinks");
	char *readable = path_join(w.outside, "victims"), *unread = path_join(w.dir, "unread");
	char *to_readable = path_join(w.proj, "to-readable");
	char *to_unread = path_join(w.proj, "to-unread");
	make_victims(control, &o, through, NTHROUGH);
	make_victims(readable, &o, through, NTHROUGH);
	make_victims(unread, &o, through, NTHROUGH);
	make_links(control_links, control);
	make_links(to_readable, readable);
	make_links(to_unread, unread);

	/* Control: outside, through links, every attempt changes its file. */
	char *script;
	asprintf(&script, "sh links.sh %s %u %u", control_links, (unsigned)o.tu, (unsigned)o.tg);
	struct run_result r = sh_outside(&w, script);
	cr_assert_eq(check_victims(control, who, &o, through, NTHROUGH, true, "control, outside",
				   start, r.err),
		     0, "control: not every change was made outside");
	run_free(&r);
	free(script);

	char *opts;
	asprintf(&opts, "--allow-read %s", w.outside);
	r = sh_in(&w, opts, "sh links.sh to-readable %1$u %2$u; sh links.sh to-unread %1$u %2$u",
		  (unsigned)o.tu, (unsigned)o.tg);
	check_victims(readable, who, &o, through, NTHROUGH, false, "inside, readable outside",
		      start, r.err);
	check_victims(unread, who, &o, through, NTHROUGH, false, "inside, unreadable outside",
		      start, r.err);
	run_free(&r);
	free(opts);
	free(control);
	free(control_links);
	free(readable);
	free(unread);
	free(to_readable);
	free(to_unread);
	world_free(&w);
}

/* ---- what keeps working in the project ---- */

static void expect_mode_time(const char *dir, const char *name, mode_t mode, time_t mtime,
			     const char *diag)
{
	char *path = path_join(dir, name);
	struct stat st;
	cr_expect_eq(lstat(path, &st), 0, "%s is missing\n%s", name, diag);
	cr_expect_eq(st.st_mode & 07777, mode, "%s: mode %o, not %o\n%s", name, st.st_mode & 07777,
		     mode, diag);
	if (mtime)
		cr_expect_eq(st.st_mtime, mtime, "%s: mtime %lld, not %lld\n%s", name,
			     (long long)st.st_mtime, (long long)mtime, diag);
	free(path);
}

static void expect_xattr(const char *dir, const char *name, const char *want, const char *diag)
{
	char *path = path_join(dir, name);
	char val[64] = "";
	ssize_t n = getxattr(path, "user.k", val, sizeof(val) - 1);
	cr_expect(n == (ssize_t)strlen(want) && memcmp(val, want, strlen(want)) == 0,
		  "%s: user.k is \"%s\" (%zd), not \"%s\"\n%s", name, n > 0 ? val : "", n, want,
		  diag);
	free(path);
}

/* cp -a of a tree keeps its modes, times and xattrs; tar x keeps the mode
 * and time it recorded; chmod +x, touch -d and setfattr work on project
 * files. As root and as the user. */
BOTH_USERS(metadata, project_tools_keep_metadata, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "metatools", "");
	need_user_xattrs(&w);
	/* Made outside, as the world's user (the tar's owner is the user). */
	struct run_result r = sh_outside(
		&w, "mkdir -p src/sub && echo a > src/a && echo b > src/sub/b && "
		    "chmod 640 src/a && chmod 755 src/sub/b && chmod 750 src/sub && "
		    "setfattr -n user.k -v kept src/a && "
		    "touch -d @946684800 src/a src/sub/b && touch -d @946684801 src/sub && "
		    "mkdir t && echo t > t/f && chmod 750 t/f && touch -d @946684800 t/f && "
		    "tar cf t.tar -C t f && rm -r t && tar tvf t.tar && "
		    "echo x > tool && chmod 644 tool && echo s > stamp && echo k > attr && "
		    "date -d '2001-02-03 04:05:06' +%s");
	cr_assert_eq(r.status, 0, "setting up: %s", r.err);
	cr_assert(strstr(r.out, "-rwxr-x---") && strstr(r.out, "2000-01-01"),
		  "the tar does not hold mode 0750 and 2000-01-01: %s", r.out);
	/* The last line: what touch -d will make of that date here. */
	size_t len = strlen(r.out);
	while (len && r.out[len - 1] == '\n')
		r.out[--len] = '\0';
	char *last = strrchr(r.out, '\n');
	time_t stamp_time = (time_t)strtoll(last ? last + 1 : r.out, NULL, 10);
	run_free(&r);
	cr_assert_gt(stamp_time, 0);

	r = sh_in(&w, NULL,
		  "cp -a src dst; mkdir x && tar xf t.tar -C x; chmod +x tool; "
		  "touch -d '2001-02-03 04:05:06' stamp; setfattr -n user.k -v v attr; "
		  "getfattr -d attr");
	char *diag;
	asprintf(&diag, "inside: %s%s", r.out, r.err);
	char *dst = path_join(w.proj, "dst"), *x = path_join(w.proj, "x");
	expect_mode_time(dst, "a", 0640, OLD_TIME, diag);
	expect_mode_time(dst, "sub", 0750, OLD_TIME + 1, diag);
	expect_mode_time(dst, "sub/b", 0755, OLD_TIME, diag);
	expect_xattr(dst, "a", "kept", diag);
	expect_mode_time(x, "f", 0750, OLD_TIME, diag);
	expect_mode_time(w.proj, "tool", 0755, 0, diag);
	expect_mode_time(w.proj, "stamp", 0644, stamp_time, diag);
	expect_xattr(w.proj, "attr", "v", diag);
	cr_expect(strstr(r.out, "user.k=\"v\""), "getfattr inside: %s", diag);
	run_free(&r);
	free(diag);
	free(dst);
	free(x);
	world_free(&w);
}

/* git records an executable file as 100755 and checks it out (in place and
 * in a clone) with mode 0755. */
BOTH_USERS(metadata, git_keeps_the_executable_bit, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "metagit", "");
	struct run_result r =
		sh_in(&w, NULL,
		      "set -e; git init -q repo; cd repo; printf '#!/bin/sh\\necho hi\\n' > tool; "
		      "chmod 755 tool; git add tool; "
		      "git -c user.name=a -c user.email=b commit -qm tool; "
		      "rm tool; git checkout -- tool; cd ..; git clone -q repo copy; "
		      "git -C repo ls-files -s");
	char *diag;
	asprintf(&diag, "inside (%d): %s%s", r.status, r.out, r.err);
	cr_expect(strstr(r.out, "100755"), "the commit does not record 100755: %s", diag);
	char *repo = path_join(w.proj, "repo"), *copy = path_join(w.proj, "copy");
	expect_mode_time(repo, "tool", 0755, 0, diag);
	expect_mode_time(copy, "tool", 0755, 0, diag);
	run_free(&r);
	free(diag);
	free(repo);
	free(copy);
	world_free(&w);
}

/* ---- inotify ---- */

/* watch.py DIR OUT READY GO [MAKE]: watch DIR for IN_CREATE, write what
 * inotify_add_watch said to OUT and touch READY; make DIR/MAKE if asked;
 * then write every event name to OUT until GO exists (everything created
 * before GO is queued by then), at most 5 s. */
static const char watch_py[] =
	"import ctypes, errno, os, struct, sys, time\n"
	"c = ctypes.CDLL(None, use_errno=True)\n"
	"d, out, ready, go = sys.argv[1:5]\n"
	"f = open(out, 'w')\n"
	"fd = c.inotify_init1(os.O_NONBLOCK)\n"
	"wd = c.inotify_add_watch(fd, d.encode(), 0x100)  # IN_CREATE\n"
	"e = ctypes.get_errno()\n"
	"print('watch', wd, errno.errorcode.get(e, e) if wd < 0 else '', file=f, flush=True)\n"
	"open(ready, 'w').close()\n"
	"if len(sys.argv) > 5: open(os.path.join(d, sys.argv[5]), 'w').close()\n"
	"end, last = time.time() + 5, False\n"
	"while time.time() < end:\n"
	"    last = os.path.exists(go)\n"
	"    try:\n"
	"        buf = os.read(fd, 4096)\n"
	"        i = 0\n"
	"        while i + 16 <= len(buf):\n"
	"            n = struct.unpack_from('iIII', buf, i)[3]\n"
	"            name = buf[i + 16:i + 16 + n].rstrip(b'\\0').decode()\n"
	"            print('event', name, file=f, flush=True)\n"
	"            i += 16 + n\n"
	"        continue\n"
	"    except BlockingIOError: pass\n"
	"    except OSError as x: print('read', x, file=f); break\n"
	"    if last: break\n"
	"    time.sleep(0.01)\n"
	"print('done', file=f)\n";

#define SECRET_NAME "secret-name-123"

/* Wait up to MS for PID (a child) to exit; kill it past that. */
static bool reap_within(pid_t pid, int ms)
{
	for (int i = 0; i < ms / 10; i++) {
		if (waitpid(pid, NULL, WNOHANG) == pid)
			return true;
		usleep(10 * 1000);
	}
	kill(pid, SIGKILL);
	waitpid(pid, NULL, 0);
	return false;
}

/* Watcher TAG on DIR: inside (with the cordon option OPT VAL when OPT) or
 * outside; it stops once the project's file GO exists, after making MAKE in
 * DIR when MAKE. */
struct watcher {
	char *argv[24];
	char *out, *ready, *go;
};

static void watcher_init(struct watcher *x, struct world *w, const char *tag, const char *dir,
			 bool inside, const char *opt, const char *val, const char *go,
			 const char *make)
{
	memset(x, 0, sizeof(*x));
	asprintf(&x->out, "%s/out-%s", w->proj, tag);
	asprintf(&x->ready, "%s/ready-%s", w->proj, tag);
	x->go = path_join(w->proj, go);
	int n = 0;
	if (inside) {
		x->argv[n++] = CORDON_BIN;
		x->argv[n++] = "run";
		x->argv[n++] = "--config";
		x->argv[n++] = w->cfg;
		if (opt) {
			x->argv[n++] = (char *)opt;
			x->argv[n++] = (char *)val;
		}
		x->argv[n++] = "--";
	}
	x->argv[n++] = "/usr/bin/python3";
	x->argv[n++] = "watch.py";
	x->argv[n++] = (char *)dir;
	x->argv[n++] = x->out;
	x->argv[n++] = x->ready;
	x->argv[n++] = x->go;
	if (make)
		x->argv[n++] = (char *)make;
	x->argv[n] = NULL;
}

/* What the watcher wrote ("" if nothing). */
static char *watcher_said(const struct watcher *x)
{
	char *s = read_file(x->out);
	return s ? s : strdup("");
}

static void watcher_free(struct watcher *x)
{
	free(x->out);
	free(x->ready);
	free(x->go);
}

/* inotify: watching the project works (a file made inside is seen);
 * watching a directory the policy does not let the session read is
 * refused, and a name created there from outside after the attempt never
 * reaches the session; under --allow-read the directory can be watched.
 * The control, the same watcher outside, sees the name. */
BOTH_USERS(metadata, inotify_watches_only_what_is_readable, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "metanotify", "");
	free(write_file(w.proj, "watch.py", watch_py));

	/* The project, inside: the watcher makes the file itself, and that
	 * file is its GO. */
	struct watcher proj;
	watcher_init(&proj, &w, "proj", w.proj, true, NULL, NULL, "made-inside", "made-inside");
	struct run_result r = world_run(&w, proj.argv, w.proj);
	char *out = watcher_said(&proj);
	cr_expect(strstr(out, "event made-inside"), "the project could not be watched: %s %s", out,
		  r.err);
	run_free(&r);
	free(out);
	watcher_free(&proj);

	/* w.outside: the control (outside), inside without a rule for it,
	 * inside with --allow-read; all three watch before the name is made. */
	struct watcher x[3];
	watcher_init(&x[0], &w, "control", w.outside, false, NULL, NULL, "go", NULL);
	watcher_init(&x[1], &w, "unreadable", w.outside, true, NULL, NULL, "go", NULL);
	watcher_init(&x[2], &w, "readable", w.outside, true, "--allow-read", w.outside, "go", NULL);
	pid_t pid[3];
	for (int i = 0; i < 3; i++)
		pid[i] = world_spawn(&w, x[i].argv, w.proj);
	for (int i = 0; i < 3; i++)
		cr_expect(wait_exists(x[i].ready, 5000), "watcher %s never got ready", x[i].out);
	free(write_file(w.outside, SECRET_NAME, "x"));
	free(write_file(w.proj, "go", "go"));
	for (int i = 0; i < 3; i++)
		cr_expect(reap_within(pid[i], 8000), "watcher %s hung", x[i].out);

	/* Control: outside, the name is seen. */
	out = watcher_said(&x[0]);
	cr_assert(strstr(out, "event " SECRET_NAME), "control: the outside watcher saw: %s", out);
	free(out);
	/* No rule for it inside: refused, and the name never arrives. */
	out = watcher_said(&x[1]);
	cr_expect_null(strstr(out, SECRET_NAME),
		       "a name in an unreadable directory reached the session: %s", out);
	cr_expect(strstr(out, "watch -1 EACCES") || strstr(out, "watch -1 EPERM"),
		  "inotify_add_watch on an unreadable directory was not refused: %s", out);
	free(out);
	/* Readable inside (--allow-read): it can be watched. */
	out = watcher_said(&x[2]);
	cr_expect(strstr(out, "event " SECRET_NAME),
		  "a readable directory could not be watched: %s", out);
	free(out);
	for (int i = 0; i < 3; i++)
		watcher_free(&x[i]);
	world_free(&w);
}

/* A root session whose process drops to nobody (and makes a user namespace
 * of its own, where it shows every capability): the supervisor performs its
 * metadata calls as nobody, with no capability, and walks the path as
 * nobody. The control is root inside doing the same, which works. */
Test(metadata, a_process_that_dropped_root_gains_nothing, .timeout = 60)
{
	if (geteuid() != 0)
		cr_skip_test("needs root");
	struct world w;
	world_init(&w, "metadrop", "");
	char *f = write_file(w.proj, "f", "x");
	char *g = path_join(w.proj, "g");
	cr_assert_eq(mkdir(g, 0700), 0);
	char *h = write_file(g, "h", "x");
	cr_assert_eq(chmod(f, 0600), 0);
	cr_assert_eq(chmod(h, 0666), 0);
	struct timespec old[2] = {{978307200, 0}, {978307200, 0}}; /* 2001-01-01 */
	cr_assert_eq(utimensat(AT_FDCWD, h, old, 0), 0);
	const char *attempt = "chmod 0666 f; touch g/h; setfattr -n user.x -v y f; "
			      "chown 65534 f";

	/* In one process (an exec would drop the namespace's capabilities):
	 * drop to nobody, make a user namespace, then the calls. */
	const char *py =
		"import ctypes, os\n"
		"os.setgroups([]); os.setresgid(65534, 65534, 65534); os.setresuid(65534, 65534, 65534)\n"
		"assert ctypes.CDLL(None, use_errno=True).unshare(0x10000000) == 0\n"
		"for f in (lambda: os.chmod('f', 0o666), lambda: os.chown('f', 65534, -1),\n"
		"          lambda: os.setxattr('f', 'user.x', b'y'), lambda: os.utime('g/h')):\n"
		"    try: f(); print('changed?!')\n"
		"    except OSError as e: print(e)\n";
	char *argv[] = {"/usr/bin/python3", "-c", (char *)py, NULL};
	struct run_result r = run_in(&w, NULL, argv);
	cr_expect_null(strstr(r.out, "changed?!"), "%s", r.out);
	cr_expect(strstr(r.err, "AssertionError") == NULL, "no user namespace: %s", r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "setpriv --reuid=65534 --regid=65534 --clear-groups -- sh -c '%s'",
		  attempt);
	struct stat st;
	cr_assert_eq(stat(f, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0600, "chmod as nobody took effect: %s", r.err);
	cr_expect_eq(st.st_uid, 0, "chown as nobody took effect: %s", r.err);
	cr_expect_lt(getxattr(f, "user.x", NULL, 0), 0, "setfattr as nobody took effect");
	cr_assert_eq(stat(h, &st), 0);
	cr_expect_eq(st.st_mtim.tv_sec, 978307200,
		     "touch as nobody behind a directory it cannot search took effect: %s", r.err);
	run_free(&r);

	/* Control: root inside changes all of them. */
	r = sh_in(&w, NULL, "%s", attempt);
	cr_assert_eq(stat(f, &st), 0);
	cr_assert_eq(st.st_mode & 07777, 0666, "control: %s", r.err);
	cr_assert_eq(st.st_uid, 65534, "control: %s", r.err);
	cr_assert_gt(getxattr(f, "user.x", NULL, 0), 0, "control: %s", r.err);
	cr_assert_eq(stat(h, &st), 0);
	cr_assert_neq(st.st_mtim.tv_sec, 978307200, "control: %s", r.err);
	run_free(&r);
	free(f);
	free(g);
	free(h);
	world_free(&w);
}

/* ---- what was opened before the sandbox ---- */

/* The session's first program was started outside the sandbox, and an fd
 * the caller passes (--pass-fd) was opened there too: the files they name
 * stay outside the rules. As root the kernel refuses metadata outside the
 * write rules (the read-only view, when nothing of the caller's leads out),
 * as the user the supervisor does; either way the executable, reached by
 * /proc/PID/exe, and the passed file and directory stay as they were. The
 * control makes every change outside. */
static const char exe_attempts[] =
	"chmod 700 /proc/$$/exe; touch -d @981173106 /proc/$$/exe; "
	"/usr/bin/python3 -c \"import os; os.fchmod(os.open('/proc/%%d/exe' %% os.getppid(), "
	"os.O_RDONLY), 0o700)\"; chmod 600 %s/outside-file";
static const char fd_attempts[] =
	"/usr/bin/python3 -c 'import os; os.fchmod(47, 0o600)'; "
	"/usr/bin/python3 -c 'import os; os.chmod(\"/proc/self/fd/47\", 0o600)'; "
	"/usr/bin/python3 -c 'import os; os.chmod(\"inner\", 0o600, dir_fd=48)'; "
	"/usr/bin/python3 -c 'import os; os.utime(\"inner\", (981173106, 981173106), dir_fd=48)'";

static mode_t mode_of(const char *path)
{
	struct stat st;
	cr_assert_eq(stat(path, &st), 0, "%s: %s", path, strerror(errno));
	return st.st_mode & 07777;
}

BOTH_USERS(metadata, what_was_opened_outside_stays_the_hosts, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "metaout", "");
	char *exe = path_join(w.outside, "dash-copy");
	copy_exec("/bin/dash", exe);
	char *file = path_join(w.outside, "outside-file");
	char *dir = path_join(w.outside, "passdir");
	cr_assert_eq(mkdir(dir, 0755), 0);
	char *inner = path_join(dir, "inner");
	free(write_file(w.outside, "outside-file", "x"));
	free(write_file(dir, "inner", "x"));
	cr_assert_eq(chmod(exe, 0755), 0);
	cr_assert_eq(chmod(file, 0644), 0);
	cr_assert_eq(chmod(inner, 0644), 0);
	set_mtime(exe, OLD_TIME, false);
	set_mtime(inner, OLD_TIME, false);
	world_give(&w);
	int f = open(file, O_RDONLY);
	int d = open(dir, O_RDONLY | O_DIRECTORY);
	cr_assert(f >= 0 && d >= 0);
	cr_assert_eq(dup2(f, 47), 47);
	cr_assert_eq(dup2(d, 48), 48);
	close(f);
	close(d);

	/* Control: every attempt takes effect outside. */
#pragma GCC diagnostic push
#pragma GCC diagnostic ignored "-Wformat-nonliteral"
	char *exe_script = fmt(exe_attempts, w.outside);
#pragma GCC diagnostic pop
	char *argv[] = {exe, "-c", exe_script, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_assert_eq(mode_of(exe), 0700, "control: %s", r.err);
	cr_assert_eq(mode_of(file), 0600, "control: %s", r.err);
	run_free(&r);
	char *fd_script = fmt("%s", fd_attempts);
	char *sh_argv[] = {"/bin/sh", "-c", fd_script, NULL};
	r = world_run(&w, sh_argv, w.proj);
	cr_assert_eq(mode_of(inner), 0600, "control: %s", r.err);
	run_free(&r);
	cr_assert_eq(chmod(exe, 0755), 0);
	cr_assert_eq(chmod(file, 0644), 0);
	cr_assert_eq(chmod(inner, 0644), 0);
	set_mtime(exe, OLD_TIME, false);
	set_mtime(inner, OLD_TIME, false);

	/* Inside, the first program being the copy: its executable stays. */
	char *opts = fmt("--allow-exec %s", w.outside);
	r = run_in(&w, opts, argv);
	struct stat st;
	cr_assert_eq(stat(exe, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0755, "%s: the first program's executable changed: %s",
		     as(who), r.err);
	cr_expect_eq(st.st_mtime, OLD_TIME, "%s: its times changed: %s", as(who), r.err);
	cr_expect_eq(mode_of(file), 0644, "%s: %s", as(who), r.err);
	/* As root, that was the kernel refusing, not the supervisor. */
	if (!who->user)
		cr_expect(strstr(r.err, "Read-only file system"),
			  "as root, the read-only view did not decide: %s", r.err);
	run_free(&r);
	free(opts);

	/* Inside, with the outside file and directory passed. */
	r = sh_in(&w, "--pass-fd 47 --pass-fd 48", "%s", fd_attempts);
	cr_expect_eq(mode_of(file), 0644, "%s: the passed file changed: %s", as(who), r.err);
	cr_assert_eq(stat(inner, &st), 0);
	cr_expect_eq(st.st_mode & 07777, 0644, "%s: a file beside the passed directory changed: %s",
		     as(who), r.err);
	cr_expect_eq(st.st_mtime, OLD_TIME, "%s: its times changed: %s", as(who), r.err);
	run_free(&r);
	close(47);
	close(48);
	free(exe_script);
	free(fd_script);
	free(exe);
	free(file);
	free(dir);
	free(inner);
	world_free(&w);
}

/* A terminal or a FIFO the session inherits (stdin) was opened on the
 * host's mount: chmod 666 /proc/self/fd/0 inside changed the user's own
 * terminal, which anyone could then open and read (review 40c F1). Both
 * keep their mode and times; the terminal's, judged on the pty the test
 * made. Control: outside, both change. */
BOTH_USERS(metadata, an_inherited_terminal_or_fifo_keeps_its_mode, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "ttyfifo", "");
	char *fifo = path_join(w.outside, "fifo");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	world_give(&w);
	int hold = open(fifo, O_RDWR | O_CLOEXEC); /* (a writer: the open does not wait) */
	cr_assert_geq(hold, 0);
	const char *bin = who->user ? w.user_cordon : CORDON_BIN;
	const char *change = "chmod 666 /proc/self/fd/0; touch /proc/self/fd/0; echo done";
	for (int inside = 0; inside < 2; inside++) {
		cr_assert_eq(chmod(fifo, 0600), 0);
		set_mtime(fifo, OLD_TIME, false);
		char *script = inside ? fmt("%s run --config %s -- /bin/sh -c '%s' <%s", bin, w.cfg,
					    change, fifo)
				      : fmt("/bin/sh -c '%s' <%s", change, fifo);
		char *argv[] = {"/bin/sh", "-c", script, NULL};
		struct run_result r = world_run(&w, argv, w.proj);
		struct stat st;
		cr_assert_eq(stat(fifo, &st), 0);
		if (inside) {
			cr_expect_eq(st.st_mode & 07777, 0600, "the FIFO's mode changed: %s",
				     r.err);
			cr_expect_eq(st.st_mtime, OLD_TIME, "the FIFO's times changed: %s", r.err);
		} else {
			cr_assert_eq(st.st_mode & 07777, 0666, "control: %s", r.err);
		}
		run_free(&r);
		free(script);

		/* The terminal. */
		char *cmd =
			inside ? fmt("%s run --config %s -- /bin/sh -c '%s'", bin, w.cfg, change)
			       : fmt("/bin/sh -c '%s'", change);
		char *targv[] = {"/bin/sh", "-c", cmd, NULL};
		int master;
		char *name = NULL;
		pid_t pid = world_pty_spawn(&w, targv, &master, &name);
		struct stat before;
		cr_assert_eq(stat(name, &before), 0);
		char buf[4096] = "";
		pty_read_until(master, "done", 20000, buf, sizeof(buf), false);
		int status;
		waitpid(pid, &status, 0);
		struct stat after;
		bool seen = stat(name, &after) == 0;
		if (inside)
			cr_expect(!seen || (after.st_mode & 07777) == (before.st_mode & 07777),
				  "the terminal's mode changed: %o -> %o: %s",
				  before.st_mode & 07777, after.st_mode & 07777, buf);
		else
			cr_assert(seen && (after.st_mode & 07777) == 0666,
				  "control: the terminal kept its mode: %s", buf);
		close(master);
		free(name);
		free(cmd);
	}
	close(hold);
	free(fifo);
	world_free(&w);
}

/* Where the system refuses an ordinary user the user namespace (here a
 * test build's hook makes the keeper's first clone fail as it would), the
 * command starts without it: the shim unshares one after its exec, as
 * before the read-only view, so there is no view and the supervisor judges
 * (EPERM, not EROFS). The executable and an outside file stay as they
 * were; the project still changes. */
Test(metadata, without_a_user_namespace_the_supervisor_judges, .timeout = 60)
{
#ifndef CORDON_TEST_HOOKS
	cr_skip_test("needs a CORDON_TEST_HOOKS build (scripts/build)");
#endif
	struct world w;
	struct who user = {true};
	world_for(&w, &user, "metanons", "");
	world_setenv(&w, "CORDON_TEST_REFUSE_USERNS=1");
	char *exe = path_join(w.outside, "dash-copy");
	copy_exec("/bin/dash", exe);
	char *file = path_join(w.outside, "outside-file");
	free(write_file(w.outside, "outside-file", "x"));
	free(write_file(w.proj, "mine", "x"));
	cr_assert_eq(chmod(exe, 0755), 0);
	cr_assert_eq(chmod(file, 0644), 0);
	world_give(&w);
	char *exe_script = fmt("chmod 700 /proc/$$/exe; chmod 600 %s; chmod 600 mine", file);
	char *argv[] = {exe, "-c", exe_script, NULL};
	char *opts = fmt("--allow-exec %s", w.outside);
	struct run_result r = run_in(&w, opts, argv);
	cr_expect_eq(mode_of(exe), 0755, "the executable changed: %s", r.err);
	cr_expect_eq(mode_of(file), 0644, "the outside file changed: %s", r.err);
	char *mine = path_join(w.proj, "mine");
	cr_expect_eq(mode_of(mine), 0600, "the project's file did not change: %s", r.err);
	cr_expect(strstr(r.err, "Operation not permitted") != NULL, "%s", r.err);
	cr_expect_null(strstr(r.err, "Read-only file system"), "a view without the namespace: %s",
		       r.err);
	run_free(&r);
	/* The control: without the hook the same session has the view. */
	world_setenv(&w, "CORDON_TEST_REFUSE_USERNS=");
	r = run_in(&w, opts, argv);
	cr_expect(strstr(r.err, "Read-only file system") != NULL, "control: %s", r.err);
	run_free(&r);
	free(opts);
	free(exe_script);
	free(exe);
	free(file);
	free(mine);
	world_free(&w);
}

/* FS_IOC_GETFLAGS of PATH, as outside sees it (-1: unknown). */
static long flags_of(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC);
	long flags = -1;
	int f;
	if (fd >= 0 && ioctl(fd, FS_IOC_GETFLAGS, &f) == 0)
		flags = f;
	if (fd >= 0)
		close(fd);
	return flags;
}

/* Whether /proc/locks holds a lease on PATH's inode. */
static bool leased(const char *path)
{
	struct stat st;
	char *locks = read_file("/proc/locks");
	if (!locks || stat(path, &st) < 0) {
		free(locks);
		return false;
	}
	char ino[64];
	snprintf(ino, sizeof(ino), ":%llu ", (unsigned long long)st.st_ino);
	bool found = false;
	for (char *line = locks; line && *line && !found;) {
		char *end = strchr(line, '\n');
		if (end)
			*end = '\0';
		found = strstr(line, "LEASE") && strstr(line, ino);
		line = end ? end + 1 : NULL;
	}
	free(locks);
	return found;
}

/* What the filter refuses through one ABI it refuses through the others:
 * chattr's flags set with file_setattr (Linux 6.17), natively and through
 * the 32-bit ABI (libseccomp 2.5 cannot name it there), and a read lease
 * through the 32-bit fcntl64 (it held up every writer outside for 45 s).
 * Control: outside, each lands. */
BOTH_USERS(metadata, every_abi_is_judged, .timeout = 60)
{
#if !defined(__x86_64__)
	cr_skip_test("the 32-bit ABI is x86's");
#endif
	struct world w;
	world_for(&w, who, "abis", "");
	static const char *const names[] = {"a", "b", "l", "ca", "cb", "cl", NULL};
	for (size_t i = 0; names[i]; i++)
		free(write_file(w.proj, names[i], "x"));
	world_give(&w);
	char *ca = path_join(w.proj, "ca"), *cb = path_join(w.proj, "cb"),
	     *cl = path_join(w.proj, "cl"), *a = path_join(w.proj, "a"),
	     *b = path_join(w.proj, "b"), *l = path_join(w.proj, "l");
	struct run_result r =
		sh_outside(&w, "cordon-probe attrs setattr ca; cordon-probe attrs setattr32 cb; "
			       "(cordon-probe attrs lease32 cl 3 > lease.out 2>&1 &) ; sleep 1");
	cr_assert(flags_of(ca) > 0 && (flags_of(ca) & FS_NODUMP_FL) &&
			  (flags_of(cb) & FS_NODUMP_FL),
		  "control: outside, the flags were not set: %s%s", r.out, r.err);
	cr_assert(leased(cl), "control: outside, no lease was taken: %s%s", r.out, r.err);
	run_free(&r);
	char *body = "cordon-probe attrs setattr a; cordon-probe attrs setattr32 b; "
		     "cordon-probe attrs lease32 l 3 & sleep 1; touch started; wait";
	char *argv[] = {CORDON_BIN, "run", "--config", w.cfg, "--", "/bin/sh", "-c", body, NULL};
	pid_t pid = world_spawn(&w, argv, w.proj);
	char *started = path_join(w.proj, "started");
	cr_assert(wait_exists(started, 20000), "the session did not start");
	cr_expect_not(leased(l), "a lease was taken inside through fcntl64");
	int st;
	waitpid(pid, &st, 0);
	cr_expect_eq(flags_of(a) & FS_NODUMP_FL, 0, "file_setattr set a flag inside");
	cr_expect_eq(flags_of(b) & FS_NODUMP_FL, 0, "the 32-bit file_setattr set a flag inside");
	free(started);
	free(ca), free(cb), free(cl), free(a), free(b), free(l);
	world_free(&w);
}

/* open_tree_attr (Linux 6.15), of the mount calls' family, which libseccomp
 * 2.5 cannot name: refused natively and through the 32-bit ABI (review 40c
 * L1: in a user and mount namespace of the session's own it gave a detached
 * copy of an outside tree; the kernel kept it read-only, so no more came of
 * it). The call is the door: its answer is what is judged. Control:
 * outside, it clones. */
BOTH_USERS(metadata, open_tree_attr_is_refused_on_every_abi, .timeout = 60)
{
#if !defined(__x86_64__)
	cr_skip_test("the 32-bit ABI is x86's");
#endif
	struct world w;
	world_for(&w, who, "ota", "");
	struct run_result r = sh_outside(&w, "cordon-probe attrs opentree /; "
					     "cordon-probe attrs opentree32 /");
	cr_assert(strstr(r.out, "opentree 0") && strstr(r.out, "opentree32 0"),
		  "control: outside, open_tree_attr did not clone: %s%s", r.out, r.err);
	run_free(&r);
	r = sh_in(&w, NULL, "%s", "cordon-probe attrs opentree /; cordon-probe attrs opentree32 /");
	cr_expect(strstr(r.out, "opentree Operation not permitted") &&
			  strstr(r.out, "opentree32 Operation not permitted"),
		  "open_tree_attr inside: %s%s", r.out, r.err);
	run_free(&r);
	world_free(&w);
}

/* Where the supervisor judges metadata (an ordinary user refused the
 * user namespace), the 32-bit setxattrat, which libseccomp 2.5 cannot
 * give the supervisor, is refused: an attribute on an outside file (a
 * POSIX ACL rewrites its mode) is not set. Control: outside it is. */
Test(metadata, the_32bit_setxattrat_is_refused, .timeout = 60)
{
#if !defined(__x86_64__) || !defined(CORDON_TEST_HOOKS)
	cr_skip_test("the 32-bit ABI is x86's; needs a CORDON_TEST_HOOKS build");
#endif
	struct world w;
	struct who user = {true};
	world_for(&w, &user, "xattr32", "");
	world_setenv(&w, "CORDON_TEST_REFUSE_USERNS=1");
	char *file = path_join(w.outside, "f"), *ctl = path_join(w.outside, "ctl");
	free(write_file(w.outside, "f", "x"));
	free(write_file(w.outside, "ctl", "x"));
	world_give(&w);
	char *script = fmt("cordon-probe attrs xattr32 %s user.t hi", ctl);
	struct run_result r = sh_outside(&w, script);
	free(script);
	char v[8] = "";
	cr_assert(getxattr(ctl, "user.t", v, sizeof(v)) == 2, "control: %s%s", r.out, r.err);
	run_free(&r);
	script = fmt("cordon-probe attrs xattr32 %s user.t hi", file);
	r = sh_in(&w, NULL, "%s", script);
	free(script);
	cr_expect(getxattr(file, "user.t", v, sizeof(v)) < 0 && errno == ENODATA,
		  "an attribute was set outside: %s%s", r.out, r.err);
	run_free(&r);
	free(file);
	free(ctl);
	world_free(&w);
}

/* A write rule beneath another on the same file system (a directory of
 * the project named again, a project in /tmp with /tmp read-write) is one
 * mount with it in the read-only view: a rename from one into the other
 * works, as it does without the view (a mount boundary between them would
 * make it EXDEV). (A project whose parent is writable and that holds a
 * protected path is pinned, a mount boundary of the guards' own.) */
BOTH_USERS(metadata, nested_write_rules_are_one_mount, .timeout = 60)
{
	struct world w;
	world_for(&w, who, "metanest", "");
	char *sub = path_join(w.proj, "sub");
	cr_assert_eq(mkdir(sub, 0755), 0);
	free(write_file(w.proj, "moved", "x"));
	world_give(&w);
	char *opts = fmt("--allow-write %s", sub);
	struct run_result r = sh_in(&w, opts,
				    "/usr/bin/python3 -c 'import os; os.rename(\"moved\", "
				    "\"sub/here\"); print(\"renamed\")'");
	cr_expect(strstr(r.out, "renamed") != NULL, "%s: %s", as(who), r.err);
	char *here = path_join(sub, "here");
	cr_expect(file_exists(here), "%s: %s", as(who), r.err);
	run_free(&r);
	free(here);
	free(sub);
	free(opts);
	world_free(&w);
}
