/* The keeper and the command's start (see spawn.h). Everything the keeper
 * runs, and the command until its exec, is a raw system call: the keeper
 * shares the launcher's memory and thread area (errno included), and the
 * command's copy of that memory was taken while the launcher ran on. */
#include "spawn.h"
#include "sysnums.h"
#include "util.h"

#include "cordon/error.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/capability.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/signalfd.h>
#include <sys/ioctl.h>
#include <sys/ipc.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#ifndef CLONE_PIDFD
#define CLONE_PIDFD 0x00001000
#endif
#define CLONE_INTO_CGROUP_FLAG 0x200000000ULL

#if defined(__SANITIZE_ADDRESS__)
#define KEEPER_FORKS 1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define KEEPER_FORKS 1
#endif
#endif

/* clone3's argument (Linux 5.7 with cgroup), declared here: <linux/sched.h>
 * clashes with the C library's <sched.h>. */
struct clone3_args {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
		set_tid_size, cgroup;
};

/* A system call that returns -errno and never touches errno. */
static inline long rsys(long n, long a, long b, long c, long d, long e, long f)
{
#if defined(__x86_64__)
	register long r10 __asm__("r10") = d;
	register long r8 __asm__("r8") = e;
	register long r9 __asm__("r9") = f;
	long ret;
	__asm__ volatile("syscall"
			 : "=a"(ret)
			 : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
			 : "rcx", "r11", "memory");
	return ret;
#elif defined(__aarch64__)
	register long x8 __asm__("x8") = n;
	register long x0 __asm__("x0") = a;
	register long x1 __asm__("x1") = b;
	register long x2 __asm__("x2") = c;
	register long x3 __asm__("x3") = d;
	register long x4 __asm__("x4") = e;
	register long x5 __asm__("x5") = f;
	__asm__ volatile("svc 0"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x2), "r"(x3), "r"(x4), "r"(x5)
			 : "memory", "cc");
	return x0;
#else
	/* Elsewhere the C library's: errno may be written (the launcher's),
	 * which only ever follows a failed call here. */
	long r = syscall(n, a, b, c, d, e, f);
	return r < 0 ? -errno : r;
#endif
}
#define SYS0(n)             rsys(SYS_##n, 0, 0, 0, 0, 0, 0)
#define SYS1(n, a)          rsys(SYS_##n, (long)(a), 0, 0, 0, 0, 0)
#define SYS2(n, a, b)       rsys(SYS_##n, (long)(a), (long)(b), 0, 0, 0, 0)
#define SYS3(n, a, b, c)    rsys(SYS_##n, (long)(a), (long)(b), (long)(c), 0, 0, 0)
#define SYS4(n, a, b, c, d) rsys(SYS_##n, (long)(a), (long)(b), (long)(c), (long)(d), 0, 0)
#define SYS5(n, a, b, c, d, e)                                                                     \
	rsys(SYS_##n, (long)(a), (long)(b), (long)(c), (long)(d), (long)(e), 0)

static __attribute__((noreturn)) void die(int status)
{
	for (;;)
		SYS1(exit_group, status);
}

static void put(int fd, const void *buf, size_t len)
{
	while (SYS3(write, fd, buf, len) == -EINTR)
		;
}

static void event(const struct cordon_spawn *sp, int tag, int value)
{
	struct cordon_event_msg m = {.tag = tag, .value = value};
	put(sp->event_w, &m, sizeof(m));
}

/* Close every fd but the KEEP ones: the keeper has a copy of the
 * supervisor's table, and a copy of a pipe's write end held here would keep
 * the supervisor's own end from ever closing. close_range over the gaps. */
static void keep_only(const int *keep, size_t n)
{
	int sorted[24];
	size_t k = 0;
	for (size_t i = 0; i < n && k < 24; i++)
		if (keep[i] >= 0)
			sorted[k++] = keep[i];
	for (size_t i = 1; i < k; i++)
		for (size_t j = i; j > 0 && sorted[j - 1] > sorted[j]; j--) {
			int t = sorted[j];
			sorted[j] = sorted[j - 1];
			sorted[j - 1] = t;
		}
	unsigned from = 0;
	for (size_t i = 0; i <= k; i++) {
		unsigned to = i < k ? (unsigned)sorted[i] : ~0U;
		if (to > from)
			SYS3(close_range, from, to - 1, 0);
		if (i < k)
			from = (unsigned)sorted[i] + 1;
	}
}

struct dirent64_raw {
	uint64_t ino;
	int64_t off;
	unsigned short reclen;
	unsigned char type;
	char name[];
};

/* rm -rf NAME in the directory PARENT, never following a link (what the
 * session left in its socket directory: tmux-UID/, sockets). */
static void remove_tree(int parent, const char *name, int depth)
{
	long fd = depth < 16 ? SYS4(openat, parent, name,
				    O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0)
			     : -ELOOP;
	/* Entries removed while the directory is read may hide others: read
	 * it again until a pass removes nothing. */
	for (int pass = 0; fd >= 0 && pass < 64; pass++) {
		bool removed = false;
		SYS3(lseek, fd, 0, SEEK_SET);
		char buf[2048] __attribute__((aligned(8))) = {0};
		long n;
		while ((n = SYS3(getdents64, fd, buf, sizeof(buf))) > 0) {
			for (long off = 0; off < n;) {
				struct dirent64_raw *d = (struct dirent64_raw *)(buf + off);
				off += d->reclen;
				if (cordon_dot_or_dotdot(d->name))
					continue;
				if (SYS3(unlinkat, fd, d->name, 0) == -EISDIR)
					remove_tree((int)fd, d->name, depth + 1);
				removed = true;
			}
		}
		if (!removed)
			break;
	}
	if (fd >= 0)
		SYS1(close, fd);
	SYS3(unlinkat, parent, name, AT_REMOVEDIR);
}

/* rmdir NAME, a cgroup in the directory PARENT, its child cgroups first: a
 * cordon started inside the session made one of its own beneath ours, and
 * the group kill may have ended its keeper before that keeper removed it
 * (or its registry record: ID.json in REGISTRY, for a child cgroup named
 * cordon-ID). Cgroup directories hold only interface files and child
 * cgroups. */
static long remove_cgroup(int parent, const char *name, int registry, int depth)
{
	long r = SYS3(unlinkat, parent, name, AT_REMOVEDIR);
	if (r != -EBUSY || depth >= 16)
		return r;
	long fd = SYS4(openat, parent, name, O_RDONLY | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC, 0);
	if (fd < 0)
		return r;
	char buf[2048] __attribute__((aligned(8))) = {0};
	long n;
	bool any = false;
	while ((n = SYS3(getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n;) {
			struct dirent64_raw *d = (struct dirent64_raw *)(buf + off);
			off += d->reclen;
			if (d->type != DT_DIR || cordon_dot_or_dotdot(d->name))
				continue;
			any = true;
			(void)remove_cgroup((int)fd, d->name, registry, depth + 1);
			size_t len = 0;
			while (d->name[len])
				len++;
			char record[300];
			if (registry >= 0 && len > 7 && len < 250 &&
			    !memcmp(d->name, "cordon-", 7)) {
				memcpy(record, d->name + 7, len - 7);
				memcpy(record + len - 7, ".json", 6);
				SYS3(unlinkat, registry, record, 0);
			}
		}
	}
	SYS1(close, fd);
	return any ? SYS3(unlinkat, parent, name, AT_REMOVEDIR) : r;
}

/* Once every descendant is gone: remove the session's cgroup (empty now),
 * its registry record and its socket directory. The supervisor does not wait
 * for this (nor can it, when it was killed). */
static void clean_up_after(const struct cordon_spawn *sp)
{
	if (sp->socket_dir)
		remove_tree(AT_FDCWD, sp->socket_dir, 0);
	for (int i = 0; sp->cgroup_parent_fd >= 0 && sp->cgroup_name && i < 1000; i++) {
		long r = remove_cgroup(sp->cgroup_parent_fd, sp->cgroup_name, sp->registry_fd, 0);
		if (r != -EBUSY)
			break;
		struct timespec ts = {0, 100L * 1000}; /* exiting tasks leave it a moment later */
		SYS4(clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, 0);
	}
	if (sp->registry_fd >= 0 && sp->record)
		SYS3(unlinkat, sp->registry_fd, sp->record, 0);
}

/* The System V objects the session made. After the supervisor is gone
 * (it exits as soon as it has told us to end the session): none of its
 * threads can be adding one meanwhile. */
static void remove_ipc(const struct cordon_spawn *sp)
{
	struct cordon_ipc_set *set = sp->ipc;
	if (!set)
		return;
	if (sp->parent_fd >= 0) {
		struct pollfd p = {.fd = sp->parent_fd, .events = POLLIN};
		struct timespec wait = {2, 0};
		SYS5(ppoll, &p, 1, &wait, NULL, 0);
	}
	for (unsigned i = 0; i < set->n && i < CORDON_IPC_MAX; i++) {
		int id = set->v[i].id;
		switch (set->v[i].kind) {
		case CORDON_IPC_SHM:
			SYS3(shmctl, id, IPC_RMID, 0);
			break;
		case CORDON_IPC_SEM:
			SYS4(semctl, id, 0, IPC_RMID, 0);
			break;
		case CORDON_IPC_MSG:
			SYS3(msgctl, id, IPC_RMID, 0);
			break;
		default:
			break;
		}
		set->v[i].kind = 0;
	}
	set->n = 0;
}

/* ---- the command ------------------------------------------------------------ */

static long write_proc(const char *path, const char *text)
{
	long fd = SYS4(openat, AT_FDCWD, path, O_WRONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return fd;
	size_t n = 0;
	while (text[n])
		n++;
	long r = SYS3(write, fd, text, n);
	SYS1(close, fd);
	return r < 0 ? r : 0;
}

/* In the user namespace the clone made: the caller's own uid and gid
 * mapped (no other), and CAP_SYS_ADMIN there kept across the exec
 * (inheritable and ambient: no secure-exec, LD_PRELOAD holds), for the
 * shim's mounts and network namespace, CAP_NET_ADMIN, for that namespace's
 * loopback (offline: netns.c), with CAP_SETPCAP, for it to empty the
 * bounding set as it drops them all. 0 or -errno. */
static long enter_own_userns(const struct cordon_spawn *sp)
{
	long r = write_proc("/proc/self/setgroups", "deny");
	if (r == 0)
		r = write_proc("/proc/self/uid_map", sp->uid_map);
	if (r == 0)
		r = write_proc("/proc/self/gid_map", sp->gid_map);
	if (r < 0)
		return r;
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {{0}};
	if ((r = SYS2(capget, &h, d)) < 0)
		return r;
	static const int keep[] = {CAP_SYS_ADMIN, CAP_SETPCAP, CAP_NET_ADMIN};
	const size_t n = sizeof(keep) / sizeof(keep[0]);
	for (size_t i = 0; i < n; i++)
		d[keep[i] / 32].inheritable |= 1u << (keep[i] % 32);
	if ((r = SYS2(capset, &h, d)) < 0)
		return r;
	for (size_t i = 0; i < n && r == 0; i++)
		r = SYS5(prctl, PR_CAP_AMBIENT, PR_CAP_AMBIENT_RAISE, keep[i], 0, 0);
	return r;
}

static __attribute__((noreturn)) void command(struct cordon_spawn *sp, long keeper)
{
	/* Dies with the keeper; and if the keeper is gone already, goes. */
	SYS2(prctl, PR_SET_PDEATHSIG, SIGKILL);
	if (SYS0(getppid) != keeper)
		die(127);
	/* stdio, what crosses exec, and (for apply) the channel until then. */
	int open_fds[3 + sizeof(sp->keep) / sizeof(sp->keep[0]) + 3];
	size_t n = 0;
	open_fds[n++] = 0;
	open_fds[n++] = 1;
	open_fds[n++] = 2;
	for (size_t i = 0; i < sizeof(sp->keep) / sizeof(sp->keep[0]); i++)
		if (sp->keep[i] >= 0) {
			SYS3(fcntl, sp->keep[i], F_SETFD, 0);
			open_fds[n++] = sp->keep[i];
		}
	open_fds[n++] = sp->hold;
	open_fds[n++] = sp->report_w; /* close-on-exec: says why an exec failed */
	open_fds[n++] = sp->tty;
	keep_only(open_fds, n);
	if (sp->detach) {
		/* In the keeper's session (keeper()), in a group of its own,
		 * which has the session's terminal's foreground (with SIGTTOU
		 * blocked for the change: the keeper's group had it). A group
		 * whose parent is in the same session, so not orphaned: the
		 * stop ^Z makes there stops it (a session leader's would be
		 * dropped, as the kernel drops it for every orphaned group). */
		SYS2(setpgid, 0, 0);
		if (sp->tty >= 0) {
			if (sp->tty_ctty) {
				uint64_t ttou = 1ULL << (SIGTTOU - 1), was = 0;
				long me = SYS0(getpid);
				int group = (int)me;
				SYS4(rt_sigprocmask, SIG_BLOCK, &ttou, &was, sizeof(ttou));
				SYS3(ioctl, sp->tty, TIOCSPGRP, &group);
				SYS4(rt_sigprocmask, SIG_SETMASK, &was, 0, sizeof(was));
			}
			for (int fd = 0; fd <= 2; fd++)
				if (sp->tty_std & (1u << fd))
					SYS3(dup3, sp->tty, fd, 0);
			SYS1(close, sp->tty);
		}
	}
	if (sp->in_userns && enter_own_userns(sp) < 0) {
		/* Not the command's fault (a caller that forbids ambient
		 * capabilities, say): cordon's failure, 125, never a start
		 * without the sandbox. */
		static const char msg[] = "cordon: cannot set up the session's user namespace "
					  "(its uid map or the capabilities the shim needs there); "
					  "refusing to start\n";
		put(2, msg, sizeof(msg) - 1);
		die(CORDON_EXIT_FAILURE);
	}
	if (sp->apply) {
		int st = sp->apply(sp->apply_arg);
		if (st)
			die(st);
	}
	/* The launcher ignores SIGPIPE (its stderr may be a pipe closed
	 * early, and what the sandbox says here goes there too); an ignored
	 * signal stays ignored across exec, and the command's must be what the
	 * launcher's caller left it. The kernel's struct sigaction, all zero,
	 * is SIG_DFL with no flags and an empty mask on every layout. */
	unsigned long dfl[4] = {0};
	if (!sp->sigpipe_ignored)
		SYS4(rt_sigaction, SIGPIPE, dfl, 0, 8);
	long r = SYS3(execve, sp->path, sp->argv, sp->envp);
	int e = (int)-r;
	put(sp->report_w, &e, sizeof(e));
	die(127);
}

#if (defined(__x86_64__) || defined(__aarch64__)) && !defined(KEEPER_FORKS)
#define CLONE3_VM 1
/* The command sharing the keeper's (the launcher's) memory until its exec:
 * started on a stack of its own by clone3_vm, with only raw calls above. */
static struct {
	struct cordon_spawn *sp;
	long keeper;
} vm_child;

static __attribute__((noreturn)) void command_vm(void *arg)
{
	(void)arg;
	command(vm_child.sp, vm_child.keeper);
}

/* Its stack: used by one command's start at a time (the keeper waits,
 * CLONE_VFORK, until the exec). */
static _Alignas(16) char command_stack[64 * 1024];

/* clone3 with CLONE_VM: the child starts on CA's stack, where a C function
 * cannot simply return from the system call; it calls FN there instead
 * (FN never returns). */
static long clone3_vm(struct clone3_args *ca, void (*fn)(void *))
{
#if defined(__x86_64__)
	register long rax __asm__("rax") = SYS_clone3;
	register struct clone3_args *rdi __asm__("rdi") = ca;
	register long rsi __asm__("rsi") = (long)sizeof(*ca);
	register void (*r12)(void *) __asm__("r12") = fn;
	__asm__ volatile("syscall\n\t"
			 "test %%rax, %%rax\n\t"
			 "jnz 1f\n\t"
			 "xor %%ebp, %%ebp\n\t"
			 "xor %%edi, %%edi\n\t"
			 "call *%%r12\n\t"
			 "hlt\n"
			 "1:"
			 : "+r"(rax)
			 : "r"(rdi), "r"(rsi), "r"(r12)
			 : "rcx", "r11", "memory");
	return rax;
#else
	register long x8 __asm__("x8") = SYS_clone3;
	register long x0 __asm__("x0") = (long)ca;
	register long x1 __asm__("x1") = (long)sizeof(*ca);
	register void (*x19)(void *) __asm__("x19") = fn;
	__asm__ volatile("svc 0\n\t"
			 "cbnz x0, 1f\n\t"
			 "mov x29, xzr\n\t"
			 "mov x0, xzr\n\t"
			 "blr x19\n\t"
			 "brk #0\n"
			 "1:"
			 : "+r"(x0)
			 : "r"(x8), "r"(x1), "r"(x19)
			 : "memory", "cc");
	return x0;
#endif
}
#endif

/* ---- the keeper --------------------------------------------------------------- */

/* The decimal digits of V (> 0, or 0) at OUT; how many. */
static size_t put_num(char *out, long v)
{
	char num[24] = {0};
	size_t d = 0;
	for (; v > 0 || d == 0; v /= 10)
		num[d++] = (char)('0' + v % 10);
	for (size_t i = 0; i < d; i++)
		out[i] = num[d - 1 - i];
	return d;
}

/* The pids in the children file at PATH, into OUT. Returns how many. */
static size_t children_in(const char *path, int *out, size_t max)
{
	long fd = SYS4(openat, AT_FDCWD, path, O_RDONLY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	char buf[4096] = {0}; /* (the analyzer does not know the raw read fills it) */
	long n = SYS3(read, fd, buf, sizeof(buf) - 1);
	SYS1(close, fd);
	size_t cnt = 0;
	long v = -1;
	for (long i = 0; i < (n > 0 ? n : 0) + 1 && cnt < max; i++) {
		int ch = i < n ? (unsigned char)buf[i] : ' ';
		if (ch >= '0' && ch <= '9') {
			v = (v < 0 ? 0 : v * 10) + (ch - '0');
		} else if (v > 0) {
			out[cnt++] = (int)v;
			v = -1;
		}
	}
	return cnt;
}

/* The children of every thread of PID (/proc/PID/task/TID/children: a
 * child hangs on the thread that forked it, round 53a W1), into OUT.
 * Returns how many. */
static size_t children(long pid, int *out, size_t max)
{
	char path[96] = "/proc/";
	size_t p = 6 + put_num(path + 6, pid);
	memcpy(path + p, "/task", 6);
	long fd = SYS4(openat, AT_FDCWD, path, O_RDONLY | O_DIRECTORY | O_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	path[p + 5] = '/';
	size_t cnt = 0;
	char buf[2048] __attribute__((aligned(8))) = {0};
	long n;
	while (cnt < max && (n = SYS3(getdents64, fd, buf, sizeof(buf))) > 0) {
		for (long off = 0; off < n && cnt < max;) {
			struct dirent64_raw *d = (struct dirent64_raw *)(buf + off);
			off += d->reclen;
			size_t len = 0;
			while (d->name[len] >= '0' && d->name[len] <= '9' && len < 20)
				len++;
			if (len == 0 || d->name[len])
				continue;
			memcpy(path + p + 6, d->name, len);
			memcpy(path + p + 6 + len, "/children", 10);
			cnt += children_in(path, out + cnt, max - cnt);
		}
	}
	SYS1(close, fd);
	return cnt;
}

/* SELF's descendants (those its threads and theirs forked, and the
 * orphans it took). Breadth first into OUT. */
static size_t tree(long self, int *out, size_t max)
{
	size_t n = children(self, out, max);
	for (size_t i = 0; i < n && n < max; i++)
		n += children(out[i], out + n, max - n);
	return n;
}

/* Reap what has exited; the command's end is reported. */
/* A child of ours that asked to be traced by its parent (PTRACE_TRACEME:
 * the command, or an orphan given to us) stopped at a signal or its exec,
 * for a tracer that never comes: the session hung, SIGTERM held back from
 * it (round 61b). Let go of, with the signal it stopped at passed on (not
 * the SIGTRAP of its exec, which would kill it). */
static void untrace(long pid, int sig)
{
	SYS4(ptrace, PTRACE_DETACH, pid, 0, sig == SIGTRAP ? 0 : sig);
}

static void reap(const struct cordon_spawn *sp, long cmd)
{
	for (;;) {
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (SYS5(waitid, P_ALL, 0, &si, WEXITED | WNOHANG, 0) < 0 || si.si_pid == 0)
			return;
		/* (A tracer is told of its tracees' stops whatever it asks.) */
		if (si.si_code == CLD_TRAPPED) {
			untrace(si.si_pid, si.si_status);
			continue;
		}
		if (si.si_pid == cmd)
			event(sp, CORDON_EV_EXITED,
			      si.si_code == CLD_EXITED ? si.si_status : 128 + si.si_status);
	}
}

/* The command stopped (its parent alone is told): said, so that the
 * launcher can stop as its job (round 59h M1: bash's suspend stopped it
 * alone, and the user's shell never had the terminal back). Stops the
 * launcher's hold made are said too; the launcher tells them apart. */
static void stopped(const struct cordon_spawn *sp, long cmd)
{
	siginfo_t si;
	memset(&si, 0, sizeof(si));
	if (SYS5(waitid, P_PID, cmd, &si, WSTOPPED | WNOHANG, 0) == 0 && si.si_pid == cmd &&
	    si.si_code == CLD_STOPPED)
		event(sp, CORDON_EV_STOPPED, si.si_status);
	else if (si.si_pid == cmd && si.si_code == CLD_TRAPPED)
		untrace(cmd, si.si_status);
}

/* Kill every descendant (orphans come to the keeper, their subreaper)
 * until none is left; in a cgroup, the whole cgroup first. */
static bool end_session(const struct cordon_spawn *sp, long self, long cmd)
{
	if (sp->cgroup_fd >= 0) {
		long fd = SYS4(openat, sp->cgroup_fd, "cgroup.kill", O_WRONLY | O_CLOEXEC, 0);
		if (fd >= 0) {
			put((int)fd, "1", 1);
			SYS1(close, fd);
		}
	}
	for (int round = 0; round < 100000; round++) {
		/* The whole tree each round: a chain that forks as it dies is
		 * not eaten one level at a time. */
		int pids[4096];
		size_t n = tree(self, pids, sizeof(pids) / sizeof(pids[0]));
		for (size_t i = 0; i < n; i++)
			SYS2(kill, pids[i], SIGKILL);
		reap(sp, cmd);
		siginfo_t si;
		memset(&si, 0, sizeof(si));
		if (n == 0 && SYS5(waitid, P_ALL, 0, &si, WEXITED | WNOHANG, 0) == -ECHILD)
			return true;
		struct timespec ts = {0, 1000L * 1000};
		SYS4(clock_nanosleep, CLOCK_MONOTONIC, 0, &ts, 0);
	}
	return false;
}

/* A string of the launcher's, into the keeper's own BUF (empty if too long). */
static const char *keep_string(const char *s, char *buf, size_t size)
{
	if (!s)
		return NULL;
	size_t n = 0;
	while (n < size && s[n])
		n++;
	if (n == size)
		return NULL;
	for (size_t i = 0; i <= n; i++)
		buf[i] = s[i];
	return buf;
}

/* The clone made no user namespace (the system refused one): CA tries
 * again without it, and the shim unshares what it can after the exec. */
static void without_userns(struct cordon_spawn *sp, struct clone3_args *ca)
{
	sp->in_userns = false;
	ca->flags &= ~(uint64_t)(CLONE_NEWUSER | CLONE_NEWNS);
	ca->set_tid = ca->set_tid_size = 0;
}

static int keeper(void *arg)
{
	/* The supervisor does not wait for the keeper's end, so its memory
	 * (ARG lives on its stack) may be gone by then: what the keeper needs
	 * after the command's start is copied onto its own stack. */
	struct cordon_spawn own = *(struct cordon_spawn *)arg;
	char names[3][512]; /* on its own stack: one page touched, not three */
	own.cgroup_name = keep_string(own.cgroup_name, names[0], sizeof(names[0]));
	own.record = keep_string(own.record, names[1], sizeof(names[1]));
	own.socket_dir = keep_string(own.socket_dir, names[2], sizeof(names[2]));
	struct cordon_spawn *sp = &own;
	long self = SYS0(getpid);
	SYS2(prctl, PR_SET_CHILD_SUBREAPER, 1);
	sp->in_userns = sp->newns && sp->newuser;
	struct clone3_args ca = {
		.flags = (sp->cgroup_fd >= 0 ? CLONE_INTO_CGROUP_FLAG : 0) |
			 (sp->newns ? (uint64_t)CLONE_NEWNS : 0) |
			 (sp->in_userns ? (uint64_t)CLONE_NEWUSER : 0),
		.exit_signal = SIGCHLD,
		.cgroup = (uint64_t)(sp->cgroup_fd >= 0 ? sp->cgroup_fd : 0),
	};
	long cmd = -ENOSYS;
	/* A session of the keeper's own, the command's (ptyrelay.h): out of
	 * the user's terminal's, with the session's terminal, where it has
	 * one for stdin, as its controlling terminal. */
	if (sp->detach) {
		SYS0(setsid);
		if (sp->tty >= 0 && sp->tty_ctty)
			SYS3(ioctl, sp->tty, TIOCSCTTY, 0);
	}
	/* A pid asked for (set_tid) without CAP_CHECKPOINT_RESTORE: EPERM, a
	 * refusal like the system's. */
	static const int32_t asked_tid = 1;
	if (sp->in_userns && sp->refuse_userns) {
		ca.set_tid = (uint64_t)(uintptr_t)&asked_tid;
		ca.set_tid_size = 1;
	}
#ifdef CLONE3_VM
	/* A command that execs at once shares this memory until then (no copy
	 * of the launcher's pages: ~1-3 ms here, where a page fault is dear);
	 * the keeper waits meanwhile. One sandboxed before exec needs a copy
	 * of its own, made below. */
	if (!sp->apply) {
		struct clone3_args vm = ca;
		vm.flags |= CLONE_VM | CLONE_VFORK;
		vm.stack = (uint64_t)(uintptr_t)command_stack;
		vm.stack_size = sizeof(command_stack);
		vm_child.sp = sp;
		vm_child.keeper = self;
		cmd = clone3_vm(&vm, command_vm);
		if (cmd < 0 && cmd != -ENOSYS && sp->in_userns) {
			without_userns(sp, &vm);
			without_userns(sp, &ca);
			cmd = clone3_vm(&vm, command_vm);
		}
	}
#endif
	if (cmd == -ENOSYS) /* sandboxed before exec, or not built for it: a copy */
		cmd = SYS2(clone3, &ca, sizeof(ca));
	if (cmd < 0 && cmd != -ENOSYS && sp->in_userns) {
		without_userns(sp, &ca);
		cmd = SYS2(clone3, &ca, sizeof(ca));
	}
	bool move = false;
	if (cmd == -ENOSYS || cmd == -E2BIG || cmd == -EINVAL) {
		/* Before Linux 5.7 (no clone3 into a cgroup): a plain fork, moved
		 * in before the supervisor hears of it, so before anything of the
		 * command's own runs (the shim waits for the supervisor's frame;
		 * a command sandboxed before exec, for its confirmation). */
		sp->in_userns = false;
		cmd = SYS5(clone, SIGCHLD | (sp->newns && !sp->newuser ? CLONE_NEWNS : 0), 0, 0, 0,
			   0);
		move = sp->cgroup_fd >= 0;
	}
	if (cmd == 0)
		command(sp, self);
	if (cmd > 0 && move) {
		char num[24];
		size_t d = put_num(num, cmd);
		long fd = SYS4(openat, sp->cgroup_fd, "cgroup.procs", O_WRONLY | O_CLOEXEC, 0);
		long w = fd < 0 ? fd : SYS3(write, fd, num, d);
		if (fd >= 0)
			SYS1(close, fd);
		if (w < 0) {
			SYS2(kill, cmd, SIGKILL);
			cmd = w;
		}
	}
	if (cmd < 0) {
		event(sp, CORDON_EV_FAILED, (int)-cmd);
		die(0);
	}
	event(sp, CORDON_EV_STARTED, (int)cmd);
	/* A session and process group of its own, the command left in the
	 * launcher's (the terminal's ^C, job control): a group SIGKILL
	 * (timeout -s KILL, timeout -k, a harness's killpg) took the
	 * launcher and the keeper at once, and the session's processes that
	 * had left the group (setsid) lived on, untracked, to plant after
	 * the next launch's catch-up (round 38b F1); so did a kill of the
	 * whole terminal session (pkill -s, 38d L1). Now the keeper outlives
	 * such a kill and ends the session. */
	SYS0(setsid);
	int mine[] = {sp->event_w,          sp->control_r,   sp->parent_fd,      sp->cgroup_fd,
		      sp->cgroup_parent_fd, sp->registry_fd, sp->socket_lock_fd, sp->tty_user};
	keep_only(mine, sizeof(mine) / sizeof(mine[0]));
	if (sp->look_away) {
		struct timespec look_away = {0, 200L * 1000 * 1000};
		SYS4(clock_nanosleep, CLOCK_MONOTONIC, 0, &look_away, 0);
	}
	/* From now on nothing interrupts the keeper but SIGKILL: a terminal's
	 * ^C or a group kill is for the command; SIGCHLD is read below. */
	uint64_t all = ~0ULL;
	SYS4(rt_sigprocmask, SIG_SETMASK, &all, 0, sizeof(all));
	uint64_t chld = 1ULL << (SIGCHLD - 1);
	long sfd = SYS4(signalfd4, -1, &chld, sizeof(chld), SFD_CLOEXEC | SFD_NONBLOCK);
	/* A command that ended before SIGCHLD was blocked left no signal to
	 * read (its default is to be dropped): look once before waiting. */
	reap(sp, cmd);
	for (;;) {
		struct pollfd p[3] = {{.fd = sp->parent_fd, .events = POLLIN},
				      {.fd = sp->control_r, .events = POLLIN},
				      {.fd = (int)sfd, .events = POLLIN}};
		/* Without a signalfd (it failed): look every 10 ms instead. */
		struct timespec tick = {0, 10L * 1000 * 1000};
		long n = SYS5(ppoll, p, sfd >= 0 ? 3 : 2, sfd >= 0 ? NULL : &tick, NULL, 0);
		if (sfd >= 0 && (p[2].revents & POLLIN)) {
			char buf[128 * 8];
			SYS3(read, sfd, buf, sizeof(buf));
		}
		stopped(sp, cmd);
		reap(sp, cmd);
		if (n > 0 && (p[0].revents || p[1].revents))
			break; /* the supervisor ended the session, or is gone */
	}
	/* Told to (a word on the control pipe), or the supervisor died (its end
	 * closed with nothing said, or its pidfd says so): it can no longer
	 * answer the session's calls (they now fail with ENOSYS), and the
	 * session must not outlive it. */
	/* A supervisor that died without a word (killed) left the user's
	 * terminal raw if it relayed: its modes put back (its memory, ours,
	 * holds them; its frame is whole, as it died in the middle of the
	 * session). After the word, it put them back itself. */
	char word = 0;
	if (sp->tty_user >= 0 && sp->tty_raw && SYS3(read, sp->control_r, &word, 1) != 1 &&
	    __atomic_load_n(sp->tty_raw, __ATOMIC_RELAXED))
		SYS3(ioctl, sp->tty_user, TCSETS, sp->tty_modes);
	/* Every process of the session is gone: said in words (an EOF alone
	 * is also what a killed keeper leaves), which the supervisor may wait
	 * for (wait_end) before it removes what the session kept read-only. */
	if (end_session(sp, self, cmd))
		event(sp, CORDON_EV_GONE, 0);
	SYS1(close, sp->event_w);
	clean_up_after(sp);
	remove_ipc(sp);
	die(0);
}

#ifndef KEEPER_FORKS
/* The keeper's stack, for its whole life; the command's copy of it is
 * where a command that is sandboxed before exec runs the C library (see
 * APPLY): room for that too. Pages never touched cost nothing. */
static _Alignas(16) char keeper_stack[256 * 1024];
#endif

pid_t cordon_spawn_keeper(struct cordon_spawn *sp, int *keeper_fd)
{
#ifdef KEEPER_FORKS
	/* ASan cannot follow a process onto a stack of its own: in a sanitizer
	 * build the keeper is a copy (a fork) instead. */
	pid_t pid = (pid_t)syscall(SYS_clone, SIGCHLD, 0, 0, 0, 0);
	if (pid == 0)
		die(keeper(sp));
	if (pid < 0)
		return -errno;
	*keeper_fd = (int)syscall(SYS_pidfd_open, pid, 0);
	return pid;
#else
	int pidfd = -1;
	pid_t pid = clone(keeper, keeper_stack + sizeof(keeper_stack),
			  CLONE_VM | CLONE_PIDFD | SIGCHLD, sp, &pidfd);
	if (pid < 0)
		return -errno;
	*keeper_fd = pidfd;
	return pid;
#endif
}
