/* The syscall filter's rules (see seccomp-rules.h).
 *
 * Landlock covers files, TCP bind/connect and (ABI 6) signals and abstract
 * sockets. It does not cover UDP, raw, SCTP, MPTCP or packet sockets, nor
 * io_uring (which can create and connect sockets without calling socket()),
 * nor the ioctls that push characters into a terminal's input queue, nor
 * pathname unix sockets (before Landlock ABI 9): those calls go to the
 * session's supervisor (supervisor.c). A refused call fails at once with an
 * errno; nothing is killed. */
#include "seccomp-rules.h"
#include "seccomp-mark.h"

#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/seccomp.h>
#include <sys/socket.h>
#include <sys/stat.h>

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

#define COUNT(a) (sizeof(a) / sizeof((a)[0]))

/* Refused with EPERM whenever the sandbox is on. ptrace and perf_event_open
 * are not here: Landlock scopes ptrace to the session and the kernel's own
 * checks (perf_event_paranoid, CAP_PERFMON dropped) cover perf, so gdb,
 * strace and perf on one's own programs keep working. */
static const char *const blocked[] = {
	"kexec_load",
	"kexec_file_load",
	"init_module",
	"finit_module",
	"delete_module",
	"bpf",
	"userfaultfd",
	"reboot",
	"swapon",
	"swapoff",
	"mount",
	"umount",
	"umount2",
	"pivot_root",
	"move_mount",
	"open_tree",
	"fsopen",
	"fsmount",
	"fsconfig",
	"fspick",
	"mount_setattr",
	/* Kernel keyrings: the user's and the inherited session keyring hold
	 * secrets (keyctl read), and a key added inside would outlive the
	 * session. */
	"keyctl",
	"add_key",
	"request_key",
	/* Hang up the terminal the session shares with the shell outside. */
	"vhangup",
	/* Watching whole mounts or file systems reports outside names. */
	"fanotify_init",
	/* POSIX message queues: the host's are other programs' (Landlock
	 * refuses only the open, after mq_open has made a new queue, and never
	 * sees mq_unlink); one made inside would outlive the session. */
	"mq_open",
	"mq_unlink",
	"mq_timedsend",
	"mq_timedreceive",
	"mq_notify",
	"mq_getsetattr",
};

static const char *const sysv_ipc[] = {"shmget", "shmat",  "shmctl",     "semget",
				       "semop",  "semctl", "msgget",     "msgsnd",
				       "msgrcv", "msgctl", "semtimedop", "semtimedop_time64"};

/* Metadata and watches (metadata.h); by number where libseccomp 2.5 has
 * no name: fchmodat2 (Linux 6.6), setxattrat and removexattrat (6.13).
 * Mode, owner and times (to the kernel under the read-only view): */
static const char *const metadata[] = {
	"chmod", "fchmod", "fchmodat", "chown", "fchown", "lchown", "fchownat", "utime", "utimes",
	"futimesat", "utimensat",
	/* The 32-bit ABI's own names (the supervisor refuses them: EACCES). */
	"chown32", "lchown32", "fchown32", "utimensat_time64"};
/* Extended attributes (a name to judge: only user.* and the ACLs) and
 * watches (what may be read), always the supervisor's. */
static const char *const attributes[] = {"setxattr",         "lsetxattr",    "fsetxattr",
					 "removexattr",      "lremovexattr", "fremovexattr",
					 "inotify_add_watch"};
/* setxattrat and removexattrat: libseccomp 2.5 cannot place them in the
 * x86 and x32 tables, so they are added to the native one only, before the
 * other ABIs are (a 32-bit process can still set user.* attributes with
 * them: docs/internals.md). */
static const int metadata_native[] = {463, 466};

/* Refused, by number (libseccomp 2.5 has no name for them). */
static const struct {
	int nr;
	const char *name;
} by_number[] = {{469, "file_setattr"}, {467, "open_tree_attr"}};

static const char *const io_uring[] = {"io_uring_setup", "io_uring_enter", "io_uring_register"};

/* Under the read-only view the kernel judges chown, but not one that
 * gives a file to root (uid or gid 0): CAP_CHOWN passes it for a file
 * whose owner a root session's idmapped /tmp leaves unmapped (round 53g
 * G1), which the supervisor refuses (metadata.c judge). Only those go to
 * it: a root chown to root is what tar x and cp -a of root's own files
 * do; any other owner an idmap maps not at all (EOVERFLOW). */
static int chown_to_root(scmp_filter_ctx ctx, const char **what)
{
	static const struct {
		const char *name;
		unsigned uid_arg;
	} calls[] = {{"chown", 1},   {"lchown", 1},   {"fchown", 1},  {"fchownat", 2},
		     {"chown32", 1}, {"lchown32", 1}, {"fchown32", 1}};
	for (size_t i = 0; i < COUNT(calls); i++) {
		int nr = seccomp_syscall_resolve_name(calls[i].name);
		if (nr == __NR_SCMP_ERROR)
			continue;
		for (unsigned k = 0; k < 2; k++) {
			struct scmp_arg_cmp zero = {calls[i].uid_arg + k, SCMP_CMP_MASKED_EQ,
						    0xffffffffu, 0};
			int r = seccomp_rule_add_array(ctx, SCMP_ACT_NOTIFY, nr, 1, &zero);
			if (r < 0) {
				*what = calls[i].name;
				return r;
			}
		}
	}
	return 0;
}

/* Socket families above this are refused by the kernel (EAFNOSUPPORT). */
#define FAMILY_LIMIT 64

static int deny_names(scmp_filter_ctx ctx, const char *const *names, size_t n, int errnum,
		      const char **what)
{
	for (size_t i = 0; i < n; i++) {
		int nr = seccomp_syscall_resolve_name(names[i]);
		if (nr == __NR_SCMP_ERROR)
			continue; /* not a syscall on this architecture */
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(errnum), nr, 0);
		if (r < 0) {
			*what = names[i];
			return r;
		}
	}
	return 0;
}

static int notify_names(scmp_filter_ctx ctx, const char *const *names, size_t n, const char **what)
{
	for (size_t i = 0; i < n; i++) {
		int nr = seccomp_syscall_resolve_name(names[i]);
		if (nr == __NR_SCMP_ERROR)
			continue;
		int r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, nr, 0);
		if (r < 0) {
			*what = names[i];
			return r;
		}
	}
	return 0;
}

/* What becomes of AF_INET and AF_INET6 in deny_families. */
enum inet_fate {
	INET_REFUSED,
	/* To the supervisor, which refuses them the same way and says once
	 * that the network is off (decided on a register: nothing is read
	 * from the caller). */
	INET_NOTIFIED,
	/* The kernel's: made in the session's own network namespace, where
	 * only its loopback is (CORDON_SECCOMP_OWN_NETNS). */
	INET_KERNEL,
};

static int deny_families(scmp_filter_ctx ctx, int nr, const char *name, enum inet_fate inet_fate,
			 const char **what)
{
	for (int fam = 0; fam < FAMILY_LIMIT; fam++) {
		if (fam == AF_UNIX || fam == AF_NETLINK)
			continue;
		bool inet = fam == AF_INET || fam == AF_INET6;
		if (inet && inet_fate == INET_KERNEL)
			continue;
		/* The kernel takes the family as an int: compare the low 32 bits. */
		int r = seccomp_rule_add(
			ctx,
			inet && inet_fate == INET_NOTIFIED ? SCMP_ACT_NOTIFY
							   : SCMP_ACT_ERRNO(EACCES),
			nr, 1, SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, (scmp_datum_t)fam));
		if (r < 0) {
			*what = name;
			return r;
		}
	}
	return 0;
}

/* Network by domain: socket() for the internet families goes to the
 * supervisor, which makes a TCP socket (SOCK_STREAM, any protocol number but
 * SCTP's and MPTCP's, whose own calls could connect past connect()) in the
 * host's network namespace, and refuses every other type, saying once why.
 * The families other than unix and netlink are refused as offline.
 * Registers only. */
static int domain_families(scmp_filter_ctx ctx, const char **what)
{
	int r = 0;
	for (int fam = 0; r >= 0 && fam < FAMILY_LIMIT; fam++) {
		if (fam == AF_UNIX || fam == AF_NETLINK)
			continue;
		bool inet = fam == AF_INET || fam == AF_INET6;
		r = seccomp_rule_add(ctx, inet ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EACCES),
				     SCMP_SYS(socket), 1,
				     SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, (scmp_datum_t)fam));
	}
	if (r < 0)
		*what = "socket (allowed_domains)";
	return r;
}

/* The netlink families refused online too (registers()). */
static bool netlink_refused(int proto)
{
	return proto == NETLINK_SOCK_DIAG || proto == NETLINK_USERSOCK ||
	       proto == NETLINK_CONNECTOR;
}

/* Online and supervised, the session lives in a network namespace of its
 * own (netns.c: an abstract unix name bound inside is out of reach from
 * outside), and every socket but a unix one is made by the supervisor, in
 * the host's: the internet families, and netlink but for the families
 * refused in registers(). Registers only. */
static int host_families(scmp_filter_ctx ctx, const char **what)
{
	int r = 0;
	for (int fam = 0; r >= 0 && fam < FAMILY_LIMIT; fam++)
		if (fam != AF_UNIX && fam != AF_NETLINK)
			r = seccomp_rule_add(
				ctx, SCMP_ACT_NOTIFY, SCMP_SYS(socket), 1,
				SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, (scmp_datum_t)fam));
	for (int proto = 0; r >= 0 && proto < 32; proto++)
		if (!netlink_refused(proto))
			r = seccomp_rule_add(
				ctx, SCMP_ACT_NOTIFY, SCMP_SYS(socket), 2,
				SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, AF_NETLINK),
				SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffffu, (scmp_datum_t)proto));
	if (r < 0)
		*what = "socket (the host's network namespace)";
	return r;
}

/* The calls whose pointed-to arguments decide where a socket leads: the
 * supervisor reads them once and performs the call itself. sendto without an
 * address (send) goes where the socket is already connected, and is left
 * alone: decided on a register. */
static int supervise(scmp_filter_ctx ctx, bool sockets, const char **what)
{
	static const char *const always[] = {"connect", "sendmsg", "sendmmsg"};
	int r = sockets ? notify_names(ctx, always, COUNT(always), what) : 0;
	if (r < 0)
		return r;
	if (sockets)
		r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(sendto), 1,
				     SCMP_A4(SCMP_CMP_NE, 0));
	if (r < 0) {
		*what = "sendto";
		return r;
	}
	/* A pty made inside: Landlock checks the open TIOCGPTPEER does, and
	 * /dev/pts holds only the session's own terminal. The supervisor opens
	 * the peer and hands it over (the caller's master decides which). */
	r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(ioctl), 1,
			     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, 0x5441 /* TIOCGPTPEER */));
	if (r < 0) {
		*what = "ioctl TIOCGPTPEER";
		return r;
	}
	/* Joining another process group, and handing a terminal's foreground
	 * to one: both only within the session (pidcall.h; round 59a F2, a
	 * process that joined a group of the caller's outside and read the
	 * terminal from the background had the kernel stop that group). A
	 * new group of one's own (setpgid(PID, 0)) stays in the kernel. */
	r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(setpgid), 1, SCMP_A1(SCMP_CMP_NE, 0));
	if (r >= 0)
		r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, TIOCSPGRP));
	if (r < 0) {
		*what = "setpgid/ioctl TIOCSPGRP";
		return r;
	}
	/* A process that makes itself non-dumpable (ssh-agent, gpg-agent)
	 * closes its memory and its /proc/PID/fd to a supervisor of the same
	 * user: its own connects could not be judged, and a listener it holds
	 * could not be seen as the session's (its clients would be refused).
	 * The call succeeds and changes nothing. What it would guard against,
	 * another process of the same user reading its memory, is left to
	 * Landlock's scope inside; outside, that user is the owner anyway. */
	r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(0), SCMP_SYS(prctl), 2,
			     SCMP_A0(SCMP_CMP_EQ, PR_SET_DUMPABLE), SCMP_A1(SCMP_CMP_EQ, 0));
	if (r < 0)
		*what = "prctl";
	return r;
}

/* Rules that hold with or without the supervisor: decided on registers. */
static int registers(scmp_filter_ctx ctx, bool network, bool chmod_notified, const char **what)
{
	int r = 0;
	/* chattr (immutable, append-only: outside files a root session may
	 * not write), also through the 32-bit number. */
	static const unsigned long flag_ioctls[] = {
		0x40086602UL, /* FS_IOC_SETFLAGS */
		0x40046602UL, /* FS_IOC32_SETFLAGS */
		0x401c5820UL, /* FS_IOC_FSSETXATTR */
	};
	for (size_t i = 0; r >= 0 && i < COUNT(flag_ioctls); i++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
				     SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, flag_ioctls[i]));
	/* A read lease on a file the session may only read holds up every
	 * writer outside. */
	if (r >= 0)
		r = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fcntl), 1,
			SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, 1024 /* F_SETLEASE */));
	/* (And the 32-bit ABI's fcntl64, which a review leased through.) */
	if (r >= 0)
		r = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(fcntl64), 1,
			SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, 1024 /* F_SETLEASE */));
	if (r < 0) {
		*what = "ioctl/fcntl";
		return r;
	}
	/* Set-user-ID and set-group-ID bits mean nothing under no_new_privs,
	 * and take effect outside: never set from inside. The mode is a
	 * register; with open/openat/creat only when a file is created. The
	 * chmod calls go to the supervisor when there is one (metadata.h),
	 * which refuses these bits itself. */
	static const uint64_t id_bits[] = {S_ISUID, S_ISGID};
	struct {
		const char *name;
		unsigned mode_arg;
		int flags_arg; /* -1: the call always sets the mode */
	} modes[] = {
		{"chmod", 1, -1},   {"fchmod", 1, -1}, {"fchmodat", 2, -1}, {"mknod", 1, -1},
		{"mknodat", 2, -1}, {"creat", 1, -1},  {"open", 2, 1},      {"openat", 3, 2},
	};
	/* A mode with O_CREAT or O_TMPFILE: without them the register holds
	 * whatever the caller left there. */
	static const uint64_t creating[] = {O_CREAT, 020000000 /* __O_TMPFILE */};
	for (size_t i = 0; r >= 0 && i < COUNT(modes); i++) {
		if (chmod_notified && strstr(modes[i].name, "chmod"))
			continue;
		int nr = seccomp_syscall_resolve_name(modes[i].name);
		for (size_t b = 0; r >= 0 && nr != __NR_SCMP_ERROR && b < COUNT(id_bits); b++) {
			struct scmp_arg_cmp mode = {modes[i].mode_arg, SCMP_CMP_MASKED_EQ,
						    id_bits[b], id_bits[b]};
			if (modes[i].flags_arg < 0) {
				r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), nr, 1,
							   &mode);
				continue;
			}
			for (size_t k = 0; r >= 0 && k < COUNT(creating); k++) {
				struct scmp_arg_cmp c[2] = {mode,
							    {(unsigned)modes[i].flags_arg,
							     SCMP_CMP_MASKED_EQ, creating[k],
							     creating[k]}};
				r = seccomp_rule_add_array(ctx, SCMP_ACT_ERRNO(EPERM), nr, 2, c);
			}
		}
		if (r < 0)
			*what = modes[i].name;
	}
	/* fchmodat2 (Linux 6.6, 452 on every architecture): libseccomp 2.5
	 * does not know it by name. */
	for (size_t b = 0; r >= 0 && !chmod_notified && b < COUNT(id_bits); b++)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), 452, 1,
				     SCMP_A2(SCMP_CMP_MASKED_EQ, id_bits[b], id_bits[b]));
	/* openat2's mode is inside a struct no filter can read: callers fall
	 * back to openat. */
	int o2 = seccomp_syscall_resolve_name("openat2");
	if (r >= 0 && o2 != __NR_SCMP_ERROR)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), o2, 0);
	if (r < 0) {
		*what = "fchmodat2/openat2";
		return r;
	}
	/* Netlink: the socket diagnostics list every socket of the host (an
	 * outside listener's port or path), the user-socket family lets any
	 * process send to any other's port (round 37b F1: a session's
	 * datagram reached root's listener outside), and the connector's
	 * process events tell every fork, exec, exit, uid change and new name
	 * of every process of the host, to anyone who binds to them (round
	 * 61b: a root session, whose /proc shows none of them, heard an
	 * outside process name itself); offline, only the routing family
	 * (what getifaddrs and ip read) is left. */
	for (int proto = 1; r >= 0 && proto < 32; proto++) {
		if (network && !netlink_refused(proto))
			continue;
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EACCES), SCMP_SYS(socket), 2,
				     SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, AF_NETLINK),
				     SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffffu, (scmp_datum_t)proto));
		if (r < 0)
			*what = "netlink";
	}
	return r;
}

/* Calls that name another process by pid and ask only for its uid
 * (pidcall.h): on the caller itself (pid 0, both registers zero) they go
 * through; the rest go to the supervisor (ACTION), or without one are
 * refused. A register compared whole: what the kernel reads as 0 from a
 * register whose high half is not zero still goes to the supervisor, which
 * reads it as the kernel does. */
static int pid_calls(scmp_filter_ctx ctx, uint32_t action, const char **what)
{
	static const char *const by_pid[] = {"prlimit64", "sched_setaffinity", "sched_setscheduler",
					     "sched_setparam", "sched_setattr"};
	int r = 0;
	for (size_t i = 0; r >= 0 && i < COUNT(by_pid); i++) {
		int nr = seccomp_syscall_resolve_name(by_pid[i]);
		if (nr != __NR_SCMP_ERROR)
			r = seccomp_rule_add(ctx, action, nr, 1, SCMP_A0(SCMP_CMP_NE, 0));
		if (r < 0)
			*what = by_pid[i];
	}
	/* setpriority(PRIO_PROCESS = 0, 0) and ioprio_set(IOPRIO_WHO_PROCESS =
	 * 1, 0) are the caller itself. */
	struct {
		const char *name;
		scmp_datum_t self;
	} which[] = {{"setpriority", 0}, {"ioprio_set", 1}};
	for (size_t i = 0; r >= 0 && i < COUNT(which); i++) {
		int nr = seccomp_syscall_resolve_name(which[i].name);
		if (nr == __NR_SCMP_ERROR)
			continue;
		r = seccomp_rule_add(ctx, action, nr, 1, SCMP_A0(SCMP_CMP_NE, which[i].self));
		if (r >= 0)
			r = seccomp_rule_add(ctx, action, nr, 1, SCMP_A1(SCMP_CMP_NE, 0));
		if (r < 0)
			*what = which[i].name;
	}
	return r;
}

/* The rules for CTX's architectures: the native one (and on x86_64 x32,
 * added here), or (COMPAT32) the 32-bit x86 ABI alone. */
static int build(scmp_filter_ctx ctx, unsigned flags, bool compat32, const char **what)
{
	for (size_t i = 0;
	     !compat32 && (flags & CORDON_SECCOMP_SUPERVISED) && i < COUNT(metadata_native); i++) {
		int r = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, metadata_native[i], 0);
		if (r < 0) {
			*what = "setxattrat/removexattrat";
			return r;
		}
	}
	/* file_setattr (Linux 6.17): chattr's flags by path, as the refused
	 * FS_IOC_FSSETXATTR sets them by fd. By number, before the x32 ABI is
	 * added (libseccomp 2.5 cannot place it there, nor in the 32-bit
	 * table: seccomp-gen refuses it for both ahead of this program). */
	/* open_tree_attr (Linux 6.15), the rest of the mount calls' family:
	 * in a user namespace of the session's own, a detached copy of an
	 * outside tree (review 40c L1). */
	for (size_t i = 0; !compat32 && i < COUNT(by_number); i++) {
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), by_number[i].nr, 0);
		if (r < 0) {
			*what = by_number[i].name;
			return r;
		}
	}
#if defined(__x86_64__)
	if (!compat32) {
		*what = "adding the x32 ABI";
		int r = seccomp_arch_add(ctx, SCMP_ARCH_X32);
		if (r < 0 && r != -EEXIST)
			return r;
	} else {
		/* socketcall and ipc take their arguments in memory, where no
		 * rule can look (libseccomp would compare the wrong registers):
		 * refused, so that 32-bit programs use the direct calls (Linux
		 * 4.3 and 5.1), judged like the 64-bit ones. First, so that the
		 * socket and IPC rules below go to the direct calls only. */
		static const char *const multiplexed[] = {"socketcall", "ipc"};
		int r = deny_names(ctx, multiplexed, COUNT(multiplexed), ENOSYS, what);
		if (r < 0)
			return r;
	}
#else
	(void)compat32;
#endif
	/* A listener of the session's own would take the calls meant for the
	 * supervisor once its listener is gone (the session's last moments),
	 * and answer "continue"; and clone3's struct (in memory) could name
	 * another cgroup (CLONE_INTO_CGROUP): callers fall back to clone. */
	int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(seccomp), 2,
				 SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, 1 /* SET_MODE_FILTER */),
				 SCMP_A1(SCMP_CMP_MASKED_EQ, 8, 8 /* FLAG_NEW_LISTENER */));
	/* The mark a session inside looks for (cordon_sandbox_nested). */
	if (r >= 0)
		r = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(CORDON_SECCOMP_MARK_ERRNO), SCMP_SYS(seccomp), 1,
			SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, CORDON_SECCOMP_MARK_OP));
	if (r >= 0 && seccomp_syscall_resolve_name("clone3") != __NR_SCMP_ERROR)
		r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), SCMP_SYS(clone3), 0);
	if (r < 0) {
		*what = "seccomp/clone3";
		return r;
	}
	/* The terminal the session shares with the shell outside: typing into
	 * it; the console's; its line discipline (N_NULL left the user's
	 * terminal dead once the session ended, and a discipline may load a
	 * module); exclusive mode (the user's next sudo or ssh prompt there
	 * failed with EBUSY). */
	static const unsigned long ioctls[] = {TIOCSTI, TIOCLINUX, TIOCSETD, TIOCEXCL, TCXONC};
	for (size_t i = 0; i < COUNT(ioctls); i++) {
		int ret = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
					   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, ioctls[i]));
		if (ret < 0) {
			*what = "ioctl";
			return ret;
		}
	}
	/* TCXONC: tcflow(TCOOFF) left the user's shell unable to write its
	 * prompt once the session ended (round 59e F2). And a virtual
	 * console's own calls, KD*, GIO_/PIO_* ('K') and VT_* ('V'): the
	 * keyboard switched off, the console in graphics mode, the screen map
	 * of every console rewritten, all outliving the session (59e F1). */
	static const unsigned long families[] = {0x4b00, 0x5600};
	for (size_t i = 0; i < COUNT(families); i++) {
		int ret = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
					   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffff00u, families[i]));
		if (ret < 0) {
			*what = "ioctl (console)";
			return ret;
		}
	}
	int ret = deny_names(ctx, blocked, COUNT(blocked), EPERM, what);
	if (ret < 0)
		return ret;
	bool supervised = flags & CORDON_SECCOMP_SUPERVISED;
	/* Mode, owner and times: the supervisor's, or the kernel's under the
	 * read-only view. */
	bool kmeta = supervised && (flags & CORDON_SECCOMP_META_IN_KERNEL);
	/* By domain: the supervised filter only (the proxy is the
	 * supervisor's); offline's netlink and families, TCP aside. */
	bool domains =
		supervised && (flags & CORDON_SECCOMP_NETWORK) && (flags & CORDON_SECCOMP_DOMAINS);
	if ((ret = registers(ctx, (flags & CORDON_SECCOMP_NETWORK) && !domains,
			     supervised && !kmeta, what)) < 0)
		return ret;
	if (domains) {
		/* A listener on an internet socket is a way in from anywhere:
		 * listen goes to the supervisor, which refuses it there (the
		 * socket's family is not in a register). */
		static const char *const inbound[] = {"listen"};
		if ((ret = notify_names(ctx, inbound, COUNT(inbound), what)) < 0 ||
		    (ret = domain_families(ctx, what)) < 0 ||
		    (ret = deny_families(ctx, SCMP_SYS(socketpair), "socketpair", INET_REFUSED,
					 what)) < 0)
			return ret;
	} else if (!(flags & CORDON_SECCOMP_NETWORK)) {
		enum inet_fate fate = !supervised                          ? INET_REFUSED
				      : (flags & CORDON_SECCOMP_OWN_NETNS) ? INET_KERNEL
									   : INET_NOTIFIED;
		if ((ret = deny_families(ctx, SCMP_SYS(socket), "socket", fate, what)) < 0 ||
		    (ret = deny_families(ctx, SCMP_SYS(socketpair), "socketpair", INET_REFUSED,
					 what)) < 0)
			return ret;
	} else if (supervised && (ret = host_families(ctx, what)) < 0) {
		return ret;
	}
	/* Offline and by domain, the routing family alone is left of netlink
	 * (registers()): the supervisor makes it in the host's namespace, so
	 * that getifaddrs, ip and os.networkInterfaces() see the host's
	 * interfaces as before, not the session's lone lo (review 44b F3). */
	if (supervised && (!(flags & CORDON_SECCOMP_NETWORK) || domains) &&
	    (ret = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, SCMP_SYS(socket), 2,
				    SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, AF_NETLINK),
				    SCMP_A2(SCMP_CMP_MASKED_EQ, 0xffffffffu, NETLINK_ROUTE))) < 0) {
		*what = "socket (netlink's routing family)";
		return ret;
	}
	if (supervised || !(flags & CORDON_SECCOMP_NETWORK)) {
		if ((ret = deny_names(ctx, io_uring, COUNT(io_uring), EPERM, what)) < 0)
			return ret;
	}
	ret = pid_calls(ctx, supervised ? SCMP_ACT_NOTIFY : SCMP_ACT_ERRNO(EPERM), what);
	if (ret < 0)
		return ret;
	if (supervised) {
		ret = notify_names(ctx, attributes, COUNT(attributes), what);
		if (ret >= 0 && !kmeta)
			ret = notify_names(ctx, metadata, COUNT(metadata), what);
		if (ret >= 0 && !kmeta &&
		    (ret = seccomp_rule_add(ctx, SCMP_ACT_NOTIFY, 452, 0)) < 0)
			*what = "fchmodat2";
		if (ret >= 0 && kmeta)
			ret = chown_to_root(ctx, what);
		if (ret < 0)
			return ret;
	}
	/* System V IPC: the session's own objects only (sysvipc.h), which only
	 * the supervisor can tell. */
	ret = supervised ? notify_names(ctx, sysv_ipc, COUNT(sysv_ipc), what)
			 : deny_names(ctx, sysv_ipc, COUNT(sysv_ipc), EPERM, what);
	if (ret < 0)
		return ret;
	/* Offline, the internet's sockets are judged there too, unix ones in
	 * the kernel or not: one passed in from the host's namespace reaches
	 * nothing (Landlock does not see UDP, nor TCP in a namespace of the
	 * session's own: review 45c F1). */
	bool sockets = domains || !(flags & CORDON_SECCOMP_UNIX_IN_KERNEL) ||
		       !(flags & CORDON_SECCOMP_NETWORK);
	return supervised ? supervise(ctx, sockets, what) : 0;
}

scmp_filter_ctx cordon_seccomp_rules(unsigned flags, const char **what, int *errnum)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx) {
		*what = "seccomp_init";
		*errnum = ENOMEM;
		return NULL;
	}
	/* A binary tree of syscall numbers rather than a chain of comparisons:
	 * fewer instructions on every syscall's path, and on the kernel's
	 * emulation of the filter for each syscall number when it is loaded
	 * (seccomp's action cache): 89 us for the chain, measured. */
	int r = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_OPTIMIZE, 2);
	if (r < 0)
		*what = "SCMP_FLTATR_CTL_OPTIMIZE";
	else
		r = build(ctx, flags, false, what);
#if defined(__x86_64__)
	/* The 32-bit ABI, built apart (its multiplexed calls are refused
	 * before any other rule) and merged in. */
	scmp_filter_ctx x86 = r < 0 ? NULL : seccomp_init(SCMP_ACT_ALLOW);
	if (r >= 0 && !x86)
		r = -ENOMEM;
	if (r >= 0 && ((r = seccomp_attr_set(x86, SCMP_FLTATR_CTL_OPTIMIZE, 2)) < 0 ||
		       (r = seccomp_arch_remove(x86, seccomp_arch_native())) < 0 ||
		       (r = seccomp_arch_add(x86, SCMP_ARCH_X86)) < 0))
		*what = "the x86 ABI";
	if (r >= 0)
		r = build(x86, flags, true, what);
	if (r >= 0 && (r = seccomp_merge(ctx, x86)) < 0)
		*what = "merging the x86 ABI";
	if (r >= 0)
		x86 = NULL; /* merged: CTX owns it */
	if (x86)
		seccomp_release(x86);
#endif
	if (r < 0) {
		seccomp_release(ctx);
		*errnum = -r;
		return NULL;
	}
	return ctx;
}

#if defined(__x86_64__)
/* Calls libseccomp 2.5 cannot place in the 32-bit x86 and x32 tables (it
 * knows no number past 462 there), refused ahead of its program:
 * setxattrat and removexattrat (which the native ABI gives the
 * supervisor), file_setattr (chattr's flags), open_tree_attr (the mount
 * calls'). ARCH, then the numbers. */
#define X32_BIT 0x40000000u
static const struct {
	uint32_t arch;
	uint32_t nr[4];
} ahead[] = {
	{0x40000003u /* AUDIT_ARCH_I386 */, {463, 466, 469, 467}},
	{0xc000003eu /* AUDIT_ARCH_X86_64, the x32 numbers */,
	 {X32_BIT | 463, X32_BIT | 466, X32_BIT | 469, X32_BIT | 467}},
};

size_t cordon_seccomp_ahead(struct sock_filter *out)
{
	size_t n = 0, na = sizeof(ahead) / sizeof(ahead[0]);
	size_t per = 1 + sizeof(ahead[0].nr) / sizeof(ahead[0].nr[0]); /* jeq arch, then nr's */
	/* 0: A = arch. Each arch: jeq ARCH ? its block : next arch. Then the
	 * blocks: A = nr; jeq each ? deny : on; ja past deny. Then deny. */
	out[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						offsetof(struct seccomp_data, arch));
	size_t blocks = n + na + 1; /* after the arch tests and a jump past all */
	for (size_t i = 0; i < na; i++) {
		size_t block = blocks + i * (per + 1);
		out[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ahead[i].arch,
						      (unsigned char)(block - n - 1), 0);
		n++;
	}
	size_t deny = blocks + na * (per + 1);
	out[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, (unsigned)(deny + 1 - n - 1), 0, 0);
	n++;
	for (size_t i = 0; i < na; i++) {
		out[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							offsetof(struct seccomp_data, nr));
		for (size_t k = 0; k + 1 < per; k++) {
			out[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      ahead[i].nr[k],
							      (unsigned char)(deny - n - 1), 0);
			n++;
		}
		out[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA,
						      (unsigned)(deny + 1 - n - 1), 0, 0);
		n++;
	}
	out[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	return n;
}
#endif
