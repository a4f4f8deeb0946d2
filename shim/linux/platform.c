/* Linux enforcement: Landlock (best available ABI) after PR_SET_NO_NEW_PRIVS,
 * plus, for a caller with CAP_SYS_ADMIN (root), a private /proc and dropped
 * capabilities — see private_proc() and drop_caps(). */
#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <linux/capability.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <sched.h>
#include <sys/mount.h>
#include <stddef.h>
#include <stdlib.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/vfs.h>
#include <dirent.h>
#include <limits.h>
#include <linux/magic.h>
#include <linux/openat2.h>
#include <unistd.h>

#include "cordon/guard.h"
#include "cordon/sandbox.h"
#include "landlock-compat.h"
#include "linux.h"
#include "netns.h"
#include "seccomp-mark.h"
#include "util.h"

#define FS_ABI1                                                                                    \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |                              \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR |                              \
	 LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |                          \
	 LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |                              \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |                              \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |                            \
	 LANDLOCK_ACCESS_FS_MAKE_SYM)

#define FS_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* Write never includes MAKE_CHAR/MAKE_BLOCK: a root shell could otherwise
 * mknod a disk's block device in /tmp and read the disk through it. */
#define FS_WRITE                                                                                   \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |                           \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR |                            \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |                              \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER |   \
	 LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define FS_EXEC LANDLOCK_ACCESS_FS_EXECUTE

/* The newest ABI this code knows; newer kernels are used at this level. */
#define KNOWN_ABI 7

const bool cordon_shim_enforces = true;

void cordon_sandbox_probe(struct cordon_support *out)
{
	memset(out, 0, sizeof(*out));
	out->platform = "linux";
	long abi = cordon_landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 0) {
		out->landlock_errno = errno;
		out->landlock_abi = 0;
	} else {
		out->landlock_abi = (int)abi;
	}
	out->seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
	out->notify = out->seccomp && cordon_seccomp_notify_available();
}

bool cordon_sandbox_unix_in_kernel(const struct cordon_support *sup)
{
	return cordon_landlock_unix_in_kernel(sup->landlock_abi);
}

bool cordon_sandbox_needs_supervisor(const struct cordon_support *sup)
{
	/* Unix sockets move to the kernel with Landlock ABI 9; metadata,
	 * watches, System V IPC, calls on other processes and ptys made inside
	 * stay the supervisor's on every ABI. */
	(void)sup;
	return true;
}

/* seccomp(SET_MODE_FILTER, FLAGS, an empty program): the kernel refuses it
 * (EINVAL, or EACCES without no_new_privs) after the filters have had their
 * say. Nothing is ever loaded. */
bool cordon_sandbox_listener_refused(void)
{
	struct sock_fprog empty = {0};
	errno = 0;
	return syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
		       &empty) < 0 &&
	       errno == EPERM;
}

bool cordon_sandbox_nested(void)
{
	/* cordon's filter answers its mark (seccomp-mark.h); another filter
	 * that refuses listeners does not make this a session. */
	errno = 0;
	return syscall(SYS_seccomp, CORDON_SECCOMP_MARK_OP, 0, NULL) < 0 &&
	       errno == CORDON_SECCOMP_MARK_ERRNO;
}

int cordon_sandbox_nested_guards(const struct cordon_policy *p, struct cordon_strv *unkept,
				 struct cordon_error *err)
{
	return cordon_mountns_nested_check(p, unkept, err);
}

static uint64_t fs_rights(int abi)
{
	uint64_t r = FS_ABI1;
	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return r;
}

static void append(char *buf, size_t size, int *count, const char *what)
{
	size_t len = strlen(buf);
	snprintf(buf + len, size - len, "%s%s", *count ? ", " : "", what);
	(*count)++;
}

int cordon_sandbox_missing(const struct cordon_policy *policy, const struct cordon_support *sup,
			   char *buf, size_t size)
{
	int n = 0;
	if (size)
		buf[0] = '\0';
	if (!policy->sandbox)
		return 0;
	if (sup->landlock_abi < 1) {
		append(buf, size, &n, "Landlock (Linux 5.13+, enabled in the kernel's lsm= list)");
		return n;
	}
	if (sup->landlock_abi < 3)
		append(buf, size, &n, "Landlock truncate control (ABI 3, Linux 6.2)");
	if (sup->landlock_abi < 6)
		append(buf, size, &n,
		       "Landlock signal and abstract-socket scoping (ABI 6, Linux 6.12)");
	if (!sup->seccomp)
		append(buf, size, &n, "seccomp (CONFIG_SECCOMP_FILTER)");
	else if (!sup->notify && cordon_sandbox_needs_supervisor(sup))
		append(buf, size, &n,
		       "seccomp user notification (Linux 5.0; the supervisor that keeps unix "
		       "sockets outside the session out of reach)");
	return n;
}

void cordon_sandbox_describe(const struct cordon_support *sup, char *buf, size_t size)
{
	int abi = sup->landlock_abi;
	size_t len = 0;
#define LINE(...)                                                                                  \
	do {                                                                                       \
		if (len < size)                                                                    \
			len += (size_t)snprintf(buf + len, size - len, __VA_ARGS__);               \
	} while (0)
	if (size)
		buf[0] = '\0';
	if (abi < 1) {
		LINE("files:     nothing (no Landlock)\n");
	} else {
		LINE("files:     read, write, execute, create/remove, read directories%s%s%s\n",
		     abi >= 2 ? ", link/rename across directories" : "",
		     abi >= 3 ? ", truncate" : " (NOT truncate: ABI 3)",
		     abi >= 5 ? ", device ioctls" : "");
	}
	LINE("network:   %s%s\n",
	     abi >= 4 ? "TCP bind/connect (Landlock)" : "TCP (seccomp only: Landlock ABI < 4)",
	     sup->seccomp ? "; other families refused by seccomp when offline; io_uring refused"
			  : "; NOT UDP/raw/other families (no seccomp)");
	bool sysadmin = cordon_effective_cap(CAP_SYS_ADMIN) == 1;
	char why[128];
	/* Abstract names bound inside: the session's own network namespace
	 * (netns.c; its internet and netlink sockets the supervisor makes in
	 * the host's). */
	char names[256] = ", and names bound inside too (own network namespace)";
	if (!sup->notify)
		snprintf(names, sizeof(names), "; NOT names bound inside (no supervisor)");
	else if (!cordon_netns_possible(sysadmin, why, sizeof(why)))
		snprintf(names, sizeof(names),
			 "; NOT names bound inside (no network namespace: %s; on_unsupported "
			 "decides)",
			 why);
	LINE("scopes:    %s%s\n",
	     abi >= 6 ? "signals and abstract unix sockets stay inside"
		      : "NONE (Landlock ABI 6): a process inside can signal and "
			"connect to abstract sockets outside",
	     names);
	LINE("syscalls:  %s\n", sup->seccomp ? "TIOCSTI/TIOCLINUX, kexec, modules, bpf, "
					       "userfaultfd, mount, swap, reboot refused"
					     : "NOT filtered (no seccomp)");
	/* Root: the shared directories and /etc idmapped (mountns.c idmap_root). */
	static const struct {
		const char *path;
		bool shared; /* cut only where it is one (else /etc) */
	} cuts[] = {{"/tmp", true}, {"/var/tmp", true}, {"/etc", false}};
	char held[64] = "", unheld[240] = "";
	for (size_t i = 0; sysadmin && getuid() == 0 && i < sizeof(cuts) / sizeof(*cuts); i++) {
		struct stat st;
		if (stat(cuts[i].path, &st) < 0 ||
		    (cuts[i].shared && !cordon_guard_shared_dir(cuts[i].path, &st)))
			continue;
		bool ok = cordon_mountns_idmap_possible(cuts[i].path, why, sizeof(why));
		char *to = ok ? held : unheld;
		size_t room = ok ? sizeof(held) : sizeof(unheld);
		snprintf(to + strlen(to), room - strlen(to), "%s%s%s%s%s", to[0] ? ", " : "",
			 cuts[i].path, ok ? "" : " (", ok ? "" : why, ok ? "" : ")");
	}
	if (cordon_mountns_possible(sysadmin, why, sizeof(why)))
		LINE("guards:    the session's own mount namespace%s: protected_paths "
		     "read-only,\n           hidden_paths hidden, every mount read-only but the "
		     "write rules%s%s%s\n",
		     sysadmin ? "" : " (in a user namespace of its own)",
		     held[0] ? "; root's " : "", held, held[0] ? " idmapped" : "");
	else
		LINE("guards:    NOT possible: no mount namespace (%s): protected_paths and\n"
		     "           hidden_paths cannot be kept (on_unsupported decides); the\n"
		     "           supervisor judges chmod/chown/utimes\n",
		     why);
	if (unheld[0])
		LINE("shared:    NOT possible: %s cannot be mounted idmapped: a root session is\n"
		     "           refused (on_unsupported decides)\n",
		     unheld);
	LINE("/proc:     %s\n",
	     sysadmin ? "a private /proc with only the session's processes (root)"
		      : "other users' processes hidden by Landlock's ptrace rule; "
			"command lines of your own processes outside stay readable");
#undef LINE
}

bool cordon_landlock_unix_in_kernel(int abi)
{
	return abi >= 9;
}

/* No class ever carries RESOLVE_UNIX: a read-write /tmp or /run/user/UID
 * would make the tmux, D-Bus and agent sockets there reachable again. Only
 * the allowed sockets get it (cordon_landlock_socket_rights). */
static uint64_t landlock_access(unsigned access)
{
	uint64_t r = 0;
	if (access & CORDON_ACCESS_READ)
		r |= FS_READ;
	if (access & CORDON_ACCESS_WRITE)
		r |= FS_WRITE;
	if (access & CORDON_ACCESS_EXEC)
		r |= FS_EXEC;
	return r;
}

/* What a directory shared with the outside's servers (the runtime
 * directory) does not take: a socket (bind, or a rename or link of one
 * into it), a symlink (one in a socket's place, leading to a socket of the
 * session's elsewhere), or anything moved in from another directory
 * (REFER: a directory holding such a socket, from the session's socket
 * directory on the same file system). Renames within one directory stay. */
#define FS_NOT_SHARED                                                                              \
	(LANDLOCK_ACCESS_FS_MAKE_SOCK | LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER)

/* RULE's rights. */
static uint64_t rule_access(const struct cordon_rule *rule)
{
	uint64_t r = landlock_access(rule->access);
	return rule->shared ? r & ~(uint64_t)FS_NOT_SHARED : r;
}

uint64_t cordon_landlock_rights(int abi, unsigned access)
{
	uint64_t handled = fs_rights(abi > KNOWN_ABI ? KNOWN_ABI : abi);
	return landlock_access(access) & handled;
}

uint64_t cordon_landlock_socket_rights(int abi)
{
	return cordon_landlock_unix_in_kernel(abi) ? LANDLOCK_ACCESS_FS_RESOLVE_UNIX : 0;
}

int cordon_landlock_add_fd_rule(int ruleset, int fd, const char *path, uint64_t allowed,
				struct cordon_error *err)
{
	/* Directory rights on a file are refused with EINVAL: then the same
	 * rule with the file rights alone. (Most rules are directories; this is
	 * cheaper than an fstat per rule.) */
	struct landlock_path_beneath_attr pb = {.allowed_access = allowed, .parent_fd = fd};
	long r =
		allowed ? cordon_landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) : 0;
	if (r < 0 && errno == EINVAL && (allowed & ~(uint64_t)FS_FILE_RIGHTS)) {
		pb.allowed_access = allowed & FS_FILE_RIGHTS;
		r = pb.allowed_access
			    ? cordon_landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0)
			    : 0;
	}
	/* A pipe or a socket (--allow-write /dev/stdout onto one) is on no
	 * file system Landlock takes a rule on (EBADFD), nor one it judges
	 * an open of: nothing to grant (round 34c S3). */
	if (r < 0 && errno != EBADFD)
		return cordon_err(err, errno, "%s: landlock_add_rule: %s", path, strerror(errno));
	return 0;
}

int cordon_open_rule_path(const char *path, int flags, bool nofollow)
{
	if (!nofollow)
		return open(path, flags);
	struct open_how how = {.flags = (uint64_t)flags, .resolve = RESOLVE_NO_SYMLINKS};
	int fd = (int)syscall(SYS_openat2, AT_FDCWD, path, &how, sizeof(how));
	if (fd >= 0 || errno != ENOSYS)
		return fd;
	/* Inside another session openat2 is refused (ENOSYS: its mode is in
	 * a struct no filter reads, round 34b R4): opened, then asked where
	 * it is; PATH is canonical, so any other name there was a link. */
	fd = open(path, flags);
	char proc[64], at[PATH_MAX];
	snprintf(proc, sizeof(proc), "/proc/self/fd/%d", fd);
	ssize_t n = fd >= 0 ? readlink(proc, at, sizeof(at) - 1) : -1;
	if (fd >= 0 && (n < 0 || (size_t)n != strlen(path) || memcmp(at, path, (size_t)n) != 0)) {
		close(fd);
		errno = ELOOP;
		return -1;
	}
	return fd;
}

int cordon_landlock_open_failed(const char *path, struct cordon_error *err)
{
	if (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == ELOOP)
		return 0;
	return cordon_err(err, errno, "%s: cannot open for a Landlock rule: %s", path,
			  strerror(errno));
}

/* Add PATH's rule to RULESET. FOR_SHIM: built in the session watcher
 * (cordon_sandbox_prepare): a path that opens into a procfs is left alone,
 * *DONE false — the shell's /proc may be a private one (root), and
 * /proc/self would be the watcher's. */
static int add_path_rule(int ruleset, const char *path, uint64_t allowed, bool for_shim,
			 bool nofollow, bool *done, struct cordon_error *err)
{
	*done = true;
	cleanup_close int fd = cordon_open_rule_path(path, O_PATH | O_CLOEXEC, nofollow);
	if (fd < 0)
		return cordon_landlock_open_failed(path, err);
	struct statfs fs;
	if (for_shim && (fstatfs(fd, &fs) < 0 || fs.f_type == PROC_SUPER_MAGIC)) {
		*done = false;
		return 0;
	}
	return cordon_landlock_add_fd_rule(ruleset, fd, path, allowed, err);
}

/* RULE's rule: as a whole, or sieved (sieve.c) where it reaches a hidden
 * path or the closed directory. */
static int add_rule(int ruleset, const struct cordon_rule *rule, uint64_t allowed,
		    const struct cordon_sieve *sieve, struct cordon_error *err)
{
	bool done;
	if (cordon_sieve_needed(sieve, rule))
		return cordon_sieve_add(ruleset, sieve, rule, allowed, err);
	return add_path_rule(ruleset, rule->path, allowed, false, rule->nofollow, &done, err);
}

static int capget3(struct __user_cap_data_struct data[2])
{
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	return syscall(SYS_capget, &hdr, data) < 0 ? -errno : 0;
}

int cordon_effective_cap(int cap)
{
	struct __user_cap_data_struct data[2] = {{0}};
	int r = capget3(data);
	return r < 0 ? r : (int)((data[cap / 32].effective >> (cap % 32)) & 1);
}

/* What a root session keeps: Docker's default set without MKNOD (a disk's
 * block device made in the project reads the disk), NET_RAW (packet sockets
 * see the host's traffic) and SETFCAP (file capabilities planted in the
 * project would work when run outside). Each acts within what Landlock and
 * the supervisor allow:
 *   CHOWN, DAC_OVERRIDE, FOWNER, FSETID  root's own files and the project's
 *                                        (chown, chmod, reading what mode bits
 *                                        would refuse): package builds, tar
 *   SETUID, SETGID, SETPCAP              dropping privileges (su-style tools,
 *                                        test suites); never gaining any back
 *   KILL                                 signals: Landlock scopes them to the
 *                                        session
 *   NET_BIND_SERVICE                     dev servers on ports below 1024
 *   SYS_CHROOT                           build tools (debootstrap, mock)
 *   AUDIT_WRITE                          PAM-using tools that log
 * Everything else is cleared from every set, bounding and ambient included:
 * SYS_ADMIN, NET_ADMIN, SYS_TIME, SYS_MODULE, LINUX_IMMUTABLE, IPC_OWNER,
 * SYS_NICE, SYS_RESOURCE, SYSLOG, SYS_TTY_CONFIG, SYS_PTRACE, PERFMON, BPF,
 * ... */
static const int kept_caps[] = {CAP_CHOWN,      CAP_DAC_OVERRIDE, CAP_FOWNER,
				CAP_FSETID,     CAP_SETUID,       CAP_SETGID,
				CAP_SETPCAP,    CAP_KILL,         CAP_NET_BIND_SERVICE,
				CAP_SYS_CHROOT, CAP_AUDIT_WRITE};

uint64_t cordon_kept_caps(void)
{
	uint64_t m = 0;
	for (size_t i = 0; i < ARRAY_SIZE(kept_caps); i++)
		m |= 1ULL << kept_caps[i];
	return m;
}

/* Clear every capability but the kept ones from every set, for good. A
 * caller without capabilities (an ordinary user) has nothing to drop, and
 * no_new_privs keeps file capabilities from adding any at exec. The
 * securebits stay as they are: what they could keep across a setuid or put
 * in the ambient set is bounded by the bounding set (locking KEEP_CAPS broke
 * setpriv dropping to another user). */
static int drop_caps(uint64_t keep, struct cordon_error *err)
{
	for (int cap = 0; cap < 64; cap++) {
		int in = prctl(PR_CAPBSET_READ, cap, 0, 0, 0);
		if (in < 0)
			break; /* past the kernel's last capability */
		if (in == 1 && !(keep & (1ULL << cap)) &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0 && errno != EPERM)
			return cordon_err(err, errno,
					  "dropping capability %d from the bounding set: %s", cap,
					  strerror(errno));
	}
	struct __user_cap_data_struct data[2] = {{0}};
	int r = capget3(data);
	if (r < 0)
		return cordon_err(err, -r, "capget: %s", strerror(-r));
	for (int i = 0; i < 2; i++) {
		uint32_t k = (uint32_t)(keep >> (32 * i));
		data[i].effective &= k;
		data[i].permitted &= k;
		data[i].inheritable &= k;
	}
	struct __user_cap_header_struct hdr = {.version = _LINUX_CAPABILITY_VERSION_3};
	if (syscall(SYS_capset, &hdr, data) < 0)
		return cordon_err(err, errno, "capset: %s", strerror(errno));
	if (prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0) < 0 && errno != EINVAL)
		return cordon_err(err, errno, "clearing ambient capabilities: %s", strerror(errno));
	/* Verify, rather than trust: a capability still there is a leak. */
	r = capget3(data);
	if (r < 0)
		return cordon_err(err, -r, "capget: %s", strerror(-r));
	uint64_t perm = data[0].permitted | (uint64_t)data[1].permitted << 32;
	if (perm & ~keep)
		return cordon_err(err, EPERM, "capabilities %#llx could not be dropped",
				  (unsigned long long)(perm & ~keep));
	return 0;
}

/* The ruleset's attributes for P at ABI (at most KNOWN_ABI; RESOLVE_UNIX at
 * ABI 9 and above, see unix_in_kernel). OWN_NETNS: the session is to have a
 * network namespace of its own (netns.c). */
static size_t ruleset_attr(const struct cordon_policy *p, int abi, bool own_netns,
			   struct cordon_landlock_ruleset_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	attr->handled_access_fs = fs_rights(abi);
	if (cordon_landlock_unix_in_kernel(abi))
		attr->handled_access_fs |= LANDLOCK_ACCESS_FS_RESOLVE_UNIX;
	if (abi > KNOWN_ABI)
		abi = KNOWN_ABI;
	size_t size = sizeof(attr->handled_access_fs);
	if (abi >= 4) {
		size = offsetof(struct cordon_landlock_ruleset_attr, scoped);
		/* Offline; or by domain: no TCP connect or bind of the session's
		 * own at all; the supervisor (outside the domain) makes the one
		 * connect to the proxy on the caller's socket, and refuses listen
		 * on an internet socket (listen binds one that is not, out of
		 * Landlock's sight). A second wall behind seccomp's. Offline in
		 * a network namespace of its own, that namespace is the wall: the
		 * session's sockets are made there, beside its loopback alone,
		 * and its servers there must bind (netns.c). */
		if ((!p->allow_network && !own_netns) || p->domains)
			attr->handled_access_net =
				LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
	}
	if (abi >= 6) {
		size = sizeof(*attr);
		attr->scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL;
	}
	return size;
}

static bool under_proc(const char *path)
{
	return strncmp(path, "/proc", 5) == 0 && (path[5] == '\0' || path[5] == '/');
}

/* PREPARED: the ruleset the session watcher built (cordon_sandbox_prepare),
 * or -1; either way the rules not marked prepared are added here. */
static int landlock_apply(const struct cordon_policy *p, int abi, int prepared, bool nested,
			  bool netns, char *missing, size_t size_missing, int *n_missing,
			  bool *view, struct cordon_error *err)
{
	cleanup_close int ruleset = prepared;
	struct cordon_landlock_ruleset_attr attr;
	size_t size = ruleset_attr(p, abi, netns, &attr);
	/* Before the rules are opened: they must name what the session sees
	 * (the new procfs, the guards' mounts). */
	bool userns = false;
	/* Nested, the outer session refuses every mount: its guards stay, in
	 * the mount namespace this process already has, and this session's
	 * must be among them. */
	int r = nested ? cordon_mountns_nested_check(p, NULL, err)
		       : cordon_mountns_enter(p, cordon_effective_cap(CAP_SYS_ADMIN) == 1, &userns,
					      view, err);
	if (r == -ENOTSUP && p->on_unsupported == CORDON_UNSUPPORTED_WARN) {
		char what[sizeof(err->msg) + 96];
		snprintf(what, sizeof(what),
			 "protected and hidden paths, and other sessions' socket directories (%s)",
			 err->msg);
		append(missing, size_missing, n_missing, what);
	} else if (r == -ENOTSUP && nested) {
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		return cordon_err(err, ENOTSUP,
				  "%s: start this session outside it, or set \"on_unsupported\": "
				  "\"warn\" to run without that guard",
				  why);
	} else if (r < 0) {
		return r;
	}
	/* While this process holds capabilities (root's, or its user
	 * namespace's): its own network namespace (netns.c), and the unix
	 * sockets handed in given names there and then. */
	if (netns && cordon_netns_enter(!p->allow_network, err) == 0) {
		if ((r = cordon_netns_settle(err)) < 0)
			return r;
	} else if (netns) {
		char why[sizeof(err->msg)];
		snprintf(why, sizeof(why), "%s", err->msg);
		if (p->on_unsupported != CORDON_UNSUPPORTED_WARN)
			return cordon_err(
				err, ENOTSUP,
				"%s: without it, an abstract unix socket name bound "
				"inside is reachable from outside; set \"on_unsupported\": "
				"\"warn\" to run without it",
				why);
		char what[sizeof(why) + 96];
		snprintf(what, sizeof(what),
			 "%s: abstract unix socket names bound inside are reachable from outside",
			 why);
		append(missing, size_missing, n_missing, what);
	}
	if (ruleset < 0 && (ruleset = (int)cordon_landlock_create_ruleset(&attr, size, 0)) < 0)
		return cordon_err(err, errno, "landlock_create_ruleset: %s", strerror(errno));
	cleanup_free char *closed = cordon_guard_closed_dir(p);
	if (!closed && errno == ENOMEM)
		return cordon_err(err, ENOMEM, "out of memory");
	struct cordon_sieve sieve;
	if (cordon_sieve_init(p, closed, &sieve) < 0)
		return cordon_err(err, ENOMEM, "out of memory");
	r = 0; /* a namespace nested cannot make is not an error here */
	for (size_t i = 0; r >= 0 && i < p->n_rules; i++) {
		if (prepared >= 0 && p->rules[i].prepared) {
			/* The watcher sieved nothing: never such a rule whole. */
			if (cordon_sieve_needed(&sieve, &p->rules[i]))
				r = cordon_err(
					err, EINVAL,
					"%s: the prepared Landlock rule reaches a hidden path "
					"or the closed directory %s",
					p->rules[i].path, closed ? closed : "");
			continue;
		}
		uint64_t allowed = rule_access(&p->rules[i]) & attr.handled_access_fs;
		r = add_rule(ruleset, &p->rules[i], allowed, &sieve, err);
	}
	cordon_sieve_free(&sieve);
	if (r < 0)
		return r;
	/* ABI 9: the kernel itself keeps outside sockets out of reach but for
	 * these (never the prepared ruleset's: the watcher leaves them here). */
	for (size_t i = 0; i < p->n_sockets && cordon_landlock_socket_rights(abi); i++) {
		bool done;
		r = add_path_rule(ruleset, p->sockets[i].path, cordon_landlock_socket_rights(abi),
				  false, false, &done, err);
		if (r < 0)
			return r;
	}
	/* In a user namespace of its own, every capability it gave goes. */
	r = drop_caps(userns ? 0 : cordon_kept_caps(), err);
	if (r < 0)
		return r;
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return cordon_err(err, errno, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
	if (cordon_landlock_restrict_self(ruleset, 0) < 0)
		return cordon_err(err, errno, "landlock_restrict_self: %s", strerror(errno));
	return 0;
}

int cordon_sandbox_prepare(struct cordon_policy *p)
{
	struct cordon_support sup;
	cordon_sandbox_probe(&sup);
	if (!p->sandbox || sup.landlock_abi < 1)
		return -1;
	struct cordon_landlock_ruleset_attr attr;
	/* (As the shim decides it: landlock_apply's NETNS. Under "warn" a
	 * namespace that cannot be made leaves seccomp refusing the
	 * internet's sockets: review 45c F2.) */
	bool netns = sup.seccomp && sup.notify && cordon_sandbox_needs_supervisor(&sup) &&
		     !cordon_sandbox_nested();
	size_t size = ruleset_attr(p, sup.landlock_abi, netns, &attr);
	int ruleset = (int)cordon_landlock_create_ruleset(&attr, size, 0);
	if (ruleset < 0)
		return -1;
	cleanup_free char *closed = cordon_guard_closed_dir(p);
	struct cordon_sieve sieve;
	if ((!closed && errno == ENOMEM) || cordon_sieve_init(p, closed, &sieve) < 0) {
		close(ruleset);
		return -1;
	}
	for (size_t i = 0; i < p->n_rules; i++) {
		struct cordon_rule *rule = &p->rules[i];
		struct cordon_error ignored;
		/* /proc and /dev/shm may be the session's own (mountns.c):
		 * their rules are the shim's, on what it mounted. A sieved rule
		 * is the shim's too: it looks in there once the session's
		 * mounts (and what the plan made) are in place. */
		bool done = false, proc = under_proc(rule->path) ||
					  strcmp(rule->path, "/dev/shm") == 0 ||
					  cordon_sieve_needed(&sieve, rule);
		uint64_t allowed = rule_access(rule) & attr.handled_access_fs;
		if (!proc && add_path_rule(ruleset, rule->path, allowed, true, rule->nofollow,
					   &done, &ignored) < 0) {
			/* The shim meets the same error and says so. */
			for (size_t j = 0; j < i; j++)
				p->rules[j].prepared = false;
			cordon_sieve_free(&sieve);
			close(ruleset);
			return -1;
		}
		rule->prepared = done && !proc;
	}
	cordon_sieve_free(&sieve);
	return ruleset;
}

/* Landlock and seccomp apply to the calling thread; a thread started before
 * (by another library's constructor) would stay unsandboxed.
 *
 * The quick answer: procfs gives /proc/PID/task a link count of 2 plus the
 * number of threads (proc_task_getattr, since Linux 2.6), so 3 is one thread;
 * a stat is ~2 us where reading /proc/self/stat is ~15 us. Any other count
 * (other threads, or a procfs that counts differently) takes the exact way. */
int cordon_single_threaded(struct cordon_error *err)
{
	struct stat task;
	if (stat("/proc/self/task", &task) == 0 && task.st_nlink == 3)
		return 0;
	cleanup_close int fd = open("/proc/self/stat", O_RDONLY | O_CLOEXEC);
	char buf[1024];
	ssize_t n = fd < 0 ? -1 : read(fd, buf, sizeof(buf) - 1);
	if (n <= 0)
		return cordon_err(err, errno ? errno : EIO, "/proc/self/stat: cannot read: %s",
				  strerror(errno ? errno : EIO));
	buf[n] = '\0';
	/* Field 20 (num_threads), counted after the ")" that ends the name. */
	const char *p = strrchr(buf, ')');
	int field = 2;
	for (; p && *p && field < 20; p++)
		if (*p == ' ')
			field++;
	long threads = p ? strtol(p, NULL, 10) : 0;
	if (threads != 1)
		return cordon_err(err, EBUSY,
				  "this process already runs %ld threads; the sandbox can only be "
				  "applied to a single-threaded process",
				  threads);
	return 0;
}

int cordon_sandbox_apply(const struct cordon_policy *p, int *listener, struct cordon_error *err)
{
	return cordon_sandbox_apply_prepared(p, -1, listener, err);
}

int cordon_sandbox_apply_prepared(const struct cordon_policy *p, int prepared, int *listener,
				  struct cordon_error *err)
{
	cleanup_close int ruleset = prepared;
	if (listener)
		*listener = -1;
	if (!p->sandbox)
		return 0;
	int tr = cordon_single_threaded(err);
	if (tr < 0)
		return tr;
	struct cordon_support sup;
	cordon_sandbox_probe(&sup);
	char missing[1536];
	int n = cordon_sandbox_missing(p, &sup, missing, sizeof(missing));
	bool warn = p->on_unsupported == CORDON_UNSUPPORTED_WARN;
	if (n > 0 && !warn)
		return cordon_err(
			err, ENOTSUP,
			"this kernel cannot enforce the sandbox: missing %s%s%s; refusing "
			"to start (set \"on_unsupported\": \"warn\" to run anyway)",
			missing, sup.landlock_abi < 1 ? ": " : "",
			sup.landlock_abi < 1 ? strerror(sup.landlock_errno) : "");
	bool nested = cordon_sandbox_nested();
	bool view = false; /* the read-only view (mountns.c) */
	/* By domain, only the session's own supervisor performs the one
	 * connect to the proxy; the outer one would perform any its policy
	 * allows. */
	if (nested && p->allow_network && p->domains)
		return cordon_err(err, ENOTSUP, "%s", CORDON_NESTED_DOMAINS_REFUSED);
	if (nested)
		fprintf(stderr,
			"cordon: inside another cordon session: its rules stay, and this one's "
			"apply on top (cordon explain says what differs)\n");
	if (sup.landlock_abi >= 1) {
		/* Supervised (a listener is asked for, and the kernel has user
		 * notification): the supervisor makes the sockets that must be
		 * the host's. Nested, the outer session's namespace is there. */
		bool netns = listener && !nested && sup.seccomp && sup.notify &&
			     cordon_sandbox_needs_supervisor(&sup);
		int r = landlock_apply(p, sup.landlock_abi, TAKE_FD(ruleset), nested, netns,
				       missing, sizeof(missing), &n, &view, err);
		if (r < 0)
			return r;
		/* What was handed in, now that the sandbox decides (inherited.c). */
		if ((r = cordon_inherited_judge_files(err)) < 0)
			return r;
	} else if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0) {
		return cordon_err(err, errno, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
	}
	if (sup.seccomp) {
		/* The supervised filter wherever a supervisor is needed and the
		 * kernel has one (else "warn" took us here: the plain filter). */
		bool supervised = sup.notify && cordon_sandbox_needs_supervisor(&sup);
		int fd = -1;
		bool kunix = cordon_landlock_unix_in_kernel(sup.landlock_abi);
		/* Nested: one supervisor per process, the outer session's. */
		/* chmod, chown and utimes: the kernel's, where the view holds. */
		bool kmeta = view && cordon_mountns_view_holds(p);
		/* Offline in its own network namespace: internet sockets made
		 * there, reaching its loopback alone. */
		bool own_netns = supervised && !nested && cordon_netns_entered();
		int r = cordon_seccomp_apply(p, supervised && !nested ? &fd : NULL, kunix, kmeta,
					     own_netns, err);
		if (r == -EBUSY && warn) {
			/* Inside another supervisor (a sandbox in a sandbox): "warn"
			 * runs without cordon's, and says so below. */
			r = cordon_seccomp_apply(p, NULL, false, false, false, err);
			append(missing, sizeof(missing), &n,
			       "the supervisor (another one already watches this process): unix "
			       "sockets outside the session, file metadata and watches are NOT "
			       "mediated; System V IPC, calls on other processes and ptys made "
			       "inside are refused; the session's network namespace has no "
			       "network");
		}
		if (r < 0)
			return r;
		if (listener)
			*listener = fd;
		else if (fd >= 0)
			close(fd); /* no supervisor: its calls fail with ENOSYS */
	}
	if (n > 0) {
		cordon_err(err, ENOTSUP, "sandbox not fully enforced: missing %s%s", missing,
			   sup.landlock_abi < 1 ? "; running WITHOUT a sandbox" : "");
		return 1;
	}
	return 0;
}
