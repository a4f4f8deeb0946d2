/* The supervisor: answers the calls the session's filter sends it (see
 * supervisor.h). Threads of the process that supervises (the launcher, or
 * in standalone mode the shell's original process), each blocked in
 * SECCOMP_IOCTL_NOTIF_RECV; a call that may wait (a blocking connect, a send
 * to a full socket) first makes sure another thread is receiving.
 *
 * Rules kept on every path (seccomp_unotify(2), the kernel's user-trap
 * sample):
 *   - the caller's memory is read once, and SECCOMP_IOCTL_NOTIF_ID_VALID is
 *     asked after reading and before acting on it;
 *   - the call is performed here, from that one copy, on the caller's own
 *     socket taken with pidfd_getfd; never answered with CONTINUE (only
 *     the calls decided on registers alone go on: pidcall.h);
 *   - every notification is answered, with an errno where nothing else fits.
 * The filter has WAIT_KILLABLE_RECV: once a call is here only a fatal signal
 * interrupts its caller, so nothing performed here is performed twice by a
 * restart. Waits here look at the caller's pending signals every
 * WAIT_SLICE_MS and give the call back with -ERESTARTSYS, which the kernel
 * turns into a restart or EINTR as it would for the call itself. */
#include "supervisor.h"
#include "sysnums.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <linux/audit.h>
#include <linux/capability.h>
#include <linux/seccomp.h>
#include <poll.h>
#include <pthread.h>
#include <signal.h>
#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <termios.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <linux/netlink.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#include "call.h"
#include "linux.h"
#include "pidcall.h"
#include "util.h"
#include "watchwait.h"

#ifndef TIOCGPTPEER
#define TIOCGPTPEER 0x5441
#endif
#ifndef PIDFD_THREAD
#define PIDFD_THREAD O_EXCL /* Linux 6.9: a pidfd for one thread */
#endif
#define ERESTARTSYS 512               /* the kernel's: restart, or EINTR (no SA_RESTART) */
#ifndef SECCOMP_IOCTL_NOTIF_SET_FLAGS /* Linux 6.6; Debian 12's headers are 6.1 */
#define SECCOMP_IOCTL_NOTIF_SET_FLAGS SECCOMP_IOW(4, __u64)
#endif
#ifndef SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP
#define SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP (1UL << 0)
#endif

/* The most a send copies at once: a datagram larger fails (EMSGSIZE, above
 * any socket's buffer anyway), a stream send is cut there (the caller's
 * write loop sends the rest). */
#define SEND_MAX      (1u << 20)
#define CONTROL_MAX   (64u << 10)
#define IOV_MAX_CALL  1024 /* UIO_MAXIOV */
#define WAIT_SLICE_MS 50
#define MAX_THREADS   64
#define STATUS_MAX    16384 /* /proc/PID/status, 65536 groups aside */

static struct sup {
	struct cordon_supervisor_config cfg;
	struct seccomp_notif_sizes sizes;
	atomic_int idle;    /* threads waiting in NOTIF_RECV */
	atomic_int threads; /* threads started */
	/* The receivers start before the listener is there (while the
	 * command's loader runs) and wait for it here. */
	pthread_mutex_t gate_lock;
	pthread_cond_t gate;
	bool open;
	/* Root, or holding capabilities: calls are performed with the caller's
	 * credentials (cordon_call_assume), from these, to which each thread
	 * returns. */
	bool privileged;
	unsigned long long permitted, inheritable;
	struct stat userns; /* the supervisor's user namespace */
	gid_t gid;
	int n_groups;
	gid_t groups[256];
} S = {.gate_lock = PTHREAD_MUTEX_INITIALIZER, .gate = PTHREAD_COND_INITIALIZER};

enum kind {
	OTHER,
	CONNECT,
	SENDTO,
	SENDMSG,
	SENDMMSG,
	PTY_PEER,
	TTY_PGRP,
	PIDCALL,
	IPC,
	META,
	SOCKET,
	LISTEN
};

static enum kind kind_of(const struct seccomp_data *d)
{
#if defined(__x86_64__)
	if (d->arch == AUDIT_ARCH_I386)         /* 32-bit processes: only the calls whose */
		return d->nr == 362   ? CONNECT /* layout is the same; their msghdr */
		       : d->nr == 369 ? SENDTO  /* is not (refused) */
		       : d->nr == 363 ? LISTEN
		       : d->nr == 359 ? SOCKET
				      : OTHER;
	if (d->arch != AUDIT_ARCH_X86_64)
		return OTHER;
	if (d->nr & 0x40000000) { /* x32 */
		int nr = d->nr & ~0x40000000;
		return nr == 42   ? CONNECT
		       : nr == 44 ? SENDTO
		       : nr == 50 ? LISTEN
		       : nr == 41 ? SOCKET
				  : OTHER;
	}
#endif
	switch (d->nr) {
	case SYS_connect:
		return CONNECT;
	case SYS_sendto:
		return SENDTO;
	case SYS_sendmsg:
		return SENDMSG;
	case SYS_sendmmsg:
		return SENDMMSG;
	case SYS_listen: /* only by domain (seccomp-rules.c) */
		return LISTEN;
	case SYS_ioctl:
		return (d->args[1] & 0xffffffffu) == 0x5441                ? PTY_PEER
		       : (d->args[1] & 0xffffffffu) == (unsigned)TIOCSPGRP ? TTY_PGRP
									   : OTHER;
	case SYS_socket: /* not unix (seccomp-rules.c) */
		return SOCKET;
	default:
		return cordon_pidcall_is(d) ? PIDCALL
		       : cordon_ipc_is(d)   ? IPC
		       : cordon_meta_is(d)  ? META
					    : OTHER;
	}
}

/* MSG on stderr, the first time only (SAID). */
static void say_once(atomic_flag *said, const char *msg)
{
	if (!atomic_flag_test_and_set(said))
		(void)!write(STDERR_FILENO, msg, strlen(msg));
}

/* Offline, in a network namespace of its own (netns.c): the session's
 * internet sockets are the kernel's, made there, beside its loopback alone
 * (seccomp-rules.c CORDON_SECCOMP_OWN_NETNS). */
static bool own_loopback(void)
{
	return !S.cfg.allow_network && S.cfg.sockets && S.cfg.sockets->netns_cookie;
}

/* The first internet socket refused offline is said, once a session: a
 * name lookup's failure looks like flaky DNS (glibc turns any send error
 * into EAI_AGAIN), and tools retry it for minutes. */
static void say_offline(void)
{
	static atomic_flag said = ATOMIC_FLAG_INIT;
	say_once(
		&said,
		own_loopback()
			? "cordon: the network is off in this session (--no-network or "
			  "\"allow_network\": false): only its own loopback answers (servers it "
			  "starts on 127.0.0.1 or ::1), so name lookups and connections elsewhere "
			  "fail\n"
			: "cordon: the network is off in this session (--no-network or "
			  "\"allow_network\": false): internet sockets are refused, so name lookups "
			  "and connections fail\n");
}

/* Offline, the first connect to the session's own loopback that nothing
 * answers is said once: a database or dev server of the machine's on
 * 127.0.0.1 is out of reach, and "Connection refused" alone reads as one
 * that is down (review 45d N1). */
static void say_own_loopback(void)
{
	static atomic_flag said = ATOMIC_FLAG_INIT;
	say_once(&said, "cordon: offline, 127.0.0.1 and ::1 are the session's own loopback, "
			"where only servers it starts listen; the machine's own (a database, a "
			"dev server) are out of reach\n");
}

/* By domain, the first direct internet connection, lookup or UDP socket
 * refused is said once a session. */
static void say_domains(void)
{
	static atomic_flag said = ATOMIC_FLAG_INIT;
	say_once(&said, "cordon: this session reaches the network only through cordon's proxy "
			"(allowed_domains): direct connections, TCP listeners, UDP and name "
			"lookups are refused; HTTP_PROXY, HTTPS_PROXY and ALL_PROXY point at the "
			"proxy\n");
}

bool cordon_call_waiting(const struct cordon_call *c)
{
	uint64_t id = c->req->id;
	return ioctl(S.cfg.listener, SECCOMP_IOCTL_NOTIF_ID_VALID, &id) == 0;
}

int cordon_call_peek(const struct cordon_call *c, uint64_t addr, void *buf, size_t len)
{
	if (!len)
		return 0;
	struct iovec l = {.iov_base = buf, .iov_len = len};
	struct iovec r = {.iov_base = (void *)(uintptr_t)addr, .iov_len = len};
	ssize_t n = process_vm_readv(c->tid, &l, 1, &r, 1, 0);
	if (n < 0)
		return errno == ESRCH ? -ESRCH : errno == EFAULT ? -EFAULT : -EACCES;
	return (size_t)n == len ? 0 : -EFAULT;
}

int cordon_call_string(const struct cordon_call *c, uint64_t addr, char *buf, size_t size)
{
	/* Page by page: the string may end just before an unmapped page. */
	size_t got = 0;
	while (got < size) {
		uint64_t at = addr + got;
		size_t chunk = 4096 - (size_t)(at & 4095);
		if (chunk > size - got)
			chunk = size - got;
		int r = cordon_call_peek(c, at, buf + got, chunk);
		if (r < 0)
			return r;
		char *nul = memchr(buf + got, '\0', chunk);
		if (nul)
			return 0;
		got += chunk;
	}
	return -ENAMETOOLONG;
}

static int poke(const struct cordon_call *c, uint64_t addr, const void *buf, size_t len)
{
	struct iovec l = {.iov_base = (void *)(uintptr_t)buf, .iov_len = len};
	struct iovec r = {.iov_base = (void *)(uintptr_t)addr, .iov_len = len};
	ssize_t n = process_vm_writev(c->tid, &l, 1, &r, 1, 0);
	return n == (ssize_t)len ? 0 : -EFAULT;
}

/* The caller's thread group id, from /proc (kernels before PIDFD_THREAD). */
/* ---- the caller's credentials ------------------------------------------------- */

/* The four ids after a "Uid:"/"Gid:" label at P. */
static int numbers(const char *p, unsigned out[4])
{
	for (int i = 0; i < 4; i++) {
		char *end;
		errno = 0;
		unsigned long v = strtoul(p, &end, 10);
		if (errno || end == p || v > UINT32_MAX)
			return -EINVAL;
		out[i] = (unsigned)v;
		p = end;
	}
	return 0;
}

/* /proc/TID/status into BUF (NUL-terminated, from a newline so that every
 * field can be found as "\nName:"). The whole file: a long Groups line
 * comes before the signal masks. false when TID is gone. */
static bool read_status(pid_t tid, char buf[STATUS_MAX])
{
	char path[64];
	snprintf(path, sizeof(path), "/proc/%d/status", (int)tid);
	cleanup_close int fd = openat(AT_FDCWD, path, O_RDONLY | O_CLOEXEC);
	buf[0] = '\n';
	ssize_t n = fd < 0 ? -1 : read(fd, buf + 1, STATUS_MAX - 2);
	if (n <= 0)
		return false;
	buf[n + 1] = '\0';
	return true;
}

/* The last number on BUF's line LABEL (the innermost pid namespace's), or
 * -1. */
static pid_t last_number(const char *buf, const char *label)
{
	const char *p = strstr(buf, label);
	if (!p)
		return -1;
	p += strlen(label);
	long v = -1;
	while (*p && *p != '\n') {
		char *end;
		long n = strtol(p, &end, 10);
		if (end == p)
			break;
		v = n;
		p = end;
	}
	return v > 0 && v <= INT32_MAX ? (pid_t)v : -1;
}

/* From /proc/TID/status: whom the call is from. 0 or -errno. */
static int read_creds(struct cordon_call *c)
{
	if (c->creds.read)
		return 0;
	char buf[STATUS_MAX];
	if (!read_status(c->tid, buf))
		return -ESRCH;
	struct cordon_creds *k = &c->creds;
	const char *u = strstr(buf, "\nUid:"), *g = strstr(buf, "\nGid:");
	const char *gs = strstr(buf, "\nGroups:"), *e = strstr(buf, "\nCapEff:");
	if (!u || !g || !gs || !e || numbers(u + 5, k->uid) < 0 || numbers(g + 5, k->gid) < 0)
		return -EACCES;
	char *end;
	errno = 0;
	k->cap_eff = strtoull(e + 8, &end, 16);
	if (errno || end == e + 8)
		return -EACCES;
	k->n_groups = 0;
	for (const char *p = gs + 9;
	     *p && *p != '\n' && k->n_groups < (int)ARRAY_SIZE(k->groups);) {
		char *next;
		unsigned long v = strtoul(p, &next, 10);
		if (next == p)
			break;
		k->groups[k->n_groups++] = (gid_t)v;
		p = next;
		while (*p == ' ' || *p == '\t')
			p++;
	}
	/* Capabilities count only in the supervisor's user namespace: a caller
	 * that made one of its own shows a full set there, which means nothing
	 * here. And never more than a session keeps. */
	char ns[64];
	snprintf(ns, sizeof(ns), "/proc/%d/ns/user", (int)c->tid);
	struct stat theirs;
	if (stat(ns, &theirs) < 0 || theirs.st_ino != S.userns.st_ino ||
	    theirs.st_dev != S.userns.st_dev)
		k->cap_eff = 0;
	k->cap_eff &= cordon_kept_caps();
	k->ns_tgid = last_number(buf, "\nNStgid:");
	k->ns_tid = last_number(buf, "\nNSpid:");
	k->read = true;
	return 0;
}

int cordon_call_creds(struct cordon_call *c)
{
	return read_creds(c);
}

/* What this thread changed for its caller, to be undone (restore_creds):
 * only what differs from the supervisor's own is switched, each a system
 * call (a root caller with root's groups costs two capsets). */
enum { MINE_GROUPS = 1, MINE_GID = 2, MINE_UID = 4, MINE_CAPS = 8 };
static __thread unsigned switched;

/* Effective capabilities EFF (within the supervisor's permitted set, read
 * once by cordon_supervisor_prepare, as its inheritable set), on this
 * thread. */
static int set_caps(unsigned long long eff)
{
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {
		{(uint32_t)(eff & S.permitted), (uint32_t)S.permitted, (uint32_t)S.inheritable},
		{(uint32_t)((eff & S.permitted) >> 32), (uint32_t)(S.permitted >> 32),
		 (uint32_t)(S.inheritable >> 32)}};
	return syscall(SYS_capset, &h, d) < 0 ? -errno : 0;
}

/* Back to the supervisor's own credentials, on this thread. Raw calls: the
 * C library's would change every thread. */
static void restore_creds(void)
{
	if (!S.privileged || !switched)
		return;
	/* The real and saved uids stayed 0: the effective one may return, and
	 * with it the effective capabilities (the kernel's setuid fix-up). */
	if (((switched & MINE_UID) && syscall(SYS_setresuid, -1, 0, -1) < 0) ||
	    ((switched & MINE_GID) && syscall(SYS_setresgid, -1, S.gid, -1) < 0) ||
	    ((switched & MINE_GROUPS) && syscall(SYS_setgroups, S.n_groups, S.groups) < 0) ||
	    set_caps(~0ULL) < 0) {
		/* A thread stuck with a caller's credentials would answer the next
		 * calls with them: better no supervisor (the session ends). */
		cordon_say("cordon: the supervisor cannot return to its credentials: %s\n",
			   strerror(errno));
		_exit(CORDON_EXIT_FAILURE);
	}
	switched = 0;
}

static bool same_groups(const struct cordon_creds *k)
{
	return k->n_groups == S.n_groups &&
	       memcmp(k->groups, S.groups, (size_t)S.n_groups * sizeof(gid_t)) == 0;
}

int cordon_call_assume(struct cordon_call *c)
{
	if (!S.privileged)
		return 0; /* the caller's uid, and nothing the caller lacks */
	int r = read_creds(c);
	if (r < 0)
		return r;
	const struct cordon_creds *k = &c->creds;
	/* Groups first (that needs CAP_SETGID), the uid last: the real and
	 * saved uids stay, to come back by (restore_creds). Whatever is set,
	 * the capabilities are always set (a switch to another uid has
	 * cleared them; root keeps its own otherwise). */
	switched = MINE_CAPS;
	if (!same_groups(k)) {
		switched |= MINE_GROUPS;
		if (syscall(SYS_setgroups, k->n_groups, k->groups) < 0)
			goto fail;
	}
	if (k->gid[1] != S.gid) {
		switched |= MINE_GID;
		if (syscall(SYS_setresgid, -1, k->gid[1], -1) < 0)
			goto fail;
	}
	if (k->uid[1] != 0) {
		switched |= MINE_UID;
		if (syscall(SYS_setresuid, -1, k->uid[1], -1) < 0)
			goto fail;
	}
	if ((r = set_caps(k->cap_eff)) < 0) {
		errno = -r;
		goto fail;
	}
	return 0;
fail:
	r = -errno;
	restore_creds();
	return r ? r : -EPERM;
}

void cordon_call_restore(void)
{
	restore_creds();
}

int cordon_call_dir(const struct cordon_call *c, const char *which)
{
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/%s", (int)c->tid, which);
	int fd = openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	return fd >= 0 ? fd : errno == ENOENT ? -ESRCH : -EACCES;
}

pid_t cordon_tgid_of(pid_t tid)
{
	char buf[STATUS_MAX];
	if (!read_status(tid, buf))
		return -1;
	const char *t = strstr(buf, "\nTgid:");
	return t ? (pid_t)strtol(t + 6, NULL, 10) : -1;
}

/* A copy of the caller's fd FD (close-on-exec), or -errno. */
int cordon_call_take_fd(struct cordon_call *c, int fd)
{
	if (c->pidfd < 0) {
		int p = (int)syscall(SYS_pidfd_open, c->tid, PIDFD_THREAD);
		if (p < 0 && errno == EINVAL) {
			pid_t tgid = cordon_tgid_of(c->tid);
			p = tgid > 0 ? (int)syscall(SYS_pidfd_open, tgid, 0) : -1;
		}
		if (p < 0)
			return errno == ESRCH ? -ESRCH : -EACCES;
		c->pidfd = p;
		/* While the call waits its thread cannot exit, so the id was not
		 * reused: the pidfd is the caller's. */
		if (!cordon_call_waiting(c))
			return -ESRCH;
	}
	int r = (int)syscall(SYS_pidfd_getfd, c->pidfd, fd, 0);
	if (r >= 0)
		return r;
	return errno == EBADF ? -EBADF : errno == ESRCH ? -ESRCH : -EACCES;
}

/* Whether the caller has a signal to handle (pending, not blocked, not
 * ignored; a fatal one has already ended the wait: WAIT_KILLABLE_RECV), as
 * the errno to give the call back with: -ERESTARTSYS when the signal will be
 * handled by this very thread (the kernel then restarts the call or says
 * EINTR, as for the call itself), -EINTR when another thread of the process
 * may take it (-ERESTARTSYS would then reach the program as errno 512), 0
 * when there is none. */
static int signal_pending(pid_t tid)
{
	char buf[STATUS_MAX];
	if (!read_status(tid, buf))
		return 0;
	static const char *const names[] = {"\nSigPnd:", "\nShdPnd:", "\nSigBlk:", "\nSigIgn:"};
	unsigned long long v[4] = {0};
	for (size_t i = 0; i < ARRAY_SIZE(names); i++) {
		const char *t = strstr(buf, names[i]);
		if (t)
			v[i] = strtoull(t + strlen(names[i]), NULL, 16);
	}
	const char *t = strstr(buf, "\nThreads:");
	long threads = t ? strtol(t + 9, NULL, 10) : 0;
	unsigned long long mine = v[0] & ~v[2] & ~v[3], shared = v[1] & ~v[2] & ~v[3];
	if (mine || (shared && threads == 1))
		return -ERESTARTSYS;
	return shared ? -EINTR : 0;
}

/* Between two tries of a call that waits: 0 to go on, -ESRCH when the caller
 * is gone, or the errno signal_pending gives (nothing has been done yet). */
static int caller_still_waits(const struct cordon_call *c)
{
	if (!cordon_call_waiting(c))
		return -ESRCH;
	return signal_pending(c->tid);
}

static void *receiver(void *arg);

static int spawn_receiver(void)
{
	pthread_attr_t a;
	pthread_t t;
	pthread_attr_init(&a);
	pthread_attr_setdetachstate(&a, PTHREAD_CREATE_DETACHED);
	pthread_attr_setstacksize(&a, (size_t)128 * 1024);
	atomic_fetch_add(&S.threads, 1);
	int r = pthread_create(&t, &a, receiver, NULL);
	if (r != 0)
		atomic_fetch_sub(&S.threads, 1);
	pthread_attr_destroy(&a);
	return r;
}

/* Before a wait: keep one thread receiving, so that one slow call never
 * holds up the session's others. */
static void ensure_spare(void)
{
	if (atomic_load(&S.idle) > 0 || atomic_load(&S.threads) >= MAX_THREADS)
		return;
	(void)spawn_receiver();
}

/* The socket's SO_SNDTIMEO (connect and send time out on it) in ms, 0: none. */
static long send_timeout_ms(int sock)
{
	struct timeval tv = {0};
	socklen_t len = sizeof(tv);
	if (getsockopt(sock, SOL_SOCKET, SO_SNDTIMEO, &tv, &len) < 0)
		return 0;
	return tv.tv_sec * 1000 + tv.tv_usec / 1000;
}

/* Wait up to one slice for EVENTS on SOCK (or just sleep a few ms when
 * SPIN, for what poll cannot see). */
static void wait_slice(int sock, short events, bool spin)
{
	if (spin) {
		struct timespec ts = {0, 5L * 1000 * 1000};
		nanosleep(&ts, NULL);
		return;
	}
	struct pollfd p = {.fd = sock, .events = events};
	(void)poll(&p, 1, WAIT_SLICE_MS);
}

/* ---- where a call may lead ------------------------------------------------ */

struct dest {
	struct sockaddr_storage ss;
	socklen_t len;
	int pin;       /* a pathname socket, pinned (its address rewritten to it), or -1 */
	bool proxy;    /* by domain: the proxy's address (allowed on a TCP socket only) */
	bool abstract; /* an abstract unix name, judged where the session's are */
	bool loopback; /* offline: the session's own loopback (own_loopback) */
};

/* cordon learn's record: "KIND\tWHAT\n" (s a unix socket, n the network). */
static void note_learn(char kind, const char *what)
{
	if (S.cfg.learn_fd < 0)
		return;
	char line[PATH_MAX + 8];
	int n = snprintf(line, sizeof(line), "%c\t%s\n", kind, what);
	if (n > 0 && (size_t)n < sizeof(line))
		(void)!write(S.cfg.learn_fd, line, (size_t)n);
}

static void note_refused(const char *what)
{
	note_learn('s', what);
}

/* An internet connect or send refused offline, with its address. */
static void note_offline_dest(const struct sockaddr_storage *ss)
{
	if (S.cfg.learn_fd < 0)
		return;
	char host[INET6_ADDRSTRLEN] = "?", what[INET6_ADDRSTRLEN + 32];
	unsigned port = 0;
	if (ss->ss_family == AF_INET) {
		const struct sockaddr_in *in = (const struct sockaddr_in *)ss;
		(void)inet_ntop(AF_INET, &in->sin_addr, host, sizeof(host));
		port = ntohs(in->sin_port);
		snprintf(what, sizeof(what), "connect %s:%u", host, port);
	} else {
		const struct sockaddr_in6 *in6 = (const struct sockaddr_in6 *)ss;
		(void)inet_ntop(AF_INET6, &in6->sin6_addr, host, sizeof(host));
		port = ntohs(in6->sin6_port);
		snprintf(what, sizeof(what), "connect [%s]:%u", host, port);
	}
	note_learn('n', what);
}

static int judge_unix(const struct cordon_call *c, struct dest *d)
{
	struct sockaddr_un *un = (struct sockaddr_un *)&d->ss;
	size_t off = offsetof(struct sockaddr_un, sun_path);
	if (d->len <= off)
		return 0; /* no name: the kernel refuses it */
	size_t plen = d->len - off;
	if (plen > sizeof(un->sun_path))
		plen = sizeof(un->sun_path);
	if (un->sun_path[0] == '\0') {
		d->abstract = true;
		char name[sizeof(un->sun_path) + 2];
		int r = cordon_unix_judge_abstract(S.cfg.sockets, un->sun_path + 1, plen - 1);
		if (r == -EPERM) {
			snprintf(name, sizeof(name), "@%.*s", (int)(plen - 1), un->sun_path + 1);
			note_refused(name);
		}
		return r;
	}
	char path[sizeof(un->sun_path) + 1];
	memcpy(path, un->sun_path, plen);
	path[plen] = '\0'; /* the kernel, too, ends the name at its first NUL */
	if (!cordon_call_waiting(c))
		return -ESRCH;
	int pin = cordon_unix_open(c->tid, path);
	if (pin < 0)
		return pin;
	int r = cordon_unix_judge(S.cfg.sockets, pin);
	if (r < 0) {
		if (r == -EACCES)
			note_refused(path);
		close(pin);
		return r;
	}
	/* Connect to the inode that was judged, not to the path again. */
	memset(un->sun_path, 0, sizeof(un->sun_path));
	int n = snprintf(un->sun_path, sizeof(un->sun_path), "/proc/self/fd/%d", pin);
	d->len = (socklen_t)(off + (size_t)n + 1);
	d->pin = pin;
	return 0;
}

/* Whether SS (LEN bytes, an internet address) is loopback, or the
 * unspecified address, which connect and sendto take for it. */
static bool loopback_addr(const struct sockaddr_storage *ss, socklen_t len)
{
	if (ss->ss_family == AF_INET && len >= sizeof(struct sockaddr_in)) {
		uint32_t a = ntohl(((const struct sockaddr_in *)ss)->sin_addr.s_addr);
		return (a >> 24) == 127 || a == INADDR_ANY;
	}
	if (ss->ss_family != AF_INET6 || len < sizeof(struct sockaddr_in6))
		return false;
	const struct in6_addr *a = &((const struct sockaddr_in6 *)ss)->sin6_addr;
	static const uint8_t mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xff, 0xff};
	return IN6_IS_ADDR_LOOPBACK(a) || IN6_IS_ADDR_UNSPECIFIED(a) ||
	       (memcmp(a->s6_addr, mapped, sizeof(mapped)) == 0 && a->s6_addr[12] == 127);
}

/* Read the address the caller gave (ULEN bytes at UADDR) into D and decide:
 * 0 allowed (D is what to use), -errno refused. */
static int judge_addr(const struct cordon_call *c, uint64_t uaddr, uint64_t ulen, struct dest *d)
{
	memset(d, 0, sizeof(*d));
	d->pin = -1;
	if (ulen > sizeof(d->ss))
		return -EINVAL; /* as the kernel (move_addr_to_kernel) */
	int r = cordon_call_peek(c, uaddr, &d->ss, (size_t)ulen);
	if (r < 0)
		return r;
	d->len = (socklen_t)ulen;
	if (ulen < sizeof(sa_family_t))
		return 0;
	switch (d->ss.ss_family) {
	case AF_UNIX:
		return judge_unix(c, d);
	case AF_INET:
	case AF_INET6:
		/* The call happens here, out of Landlock's sight: the network
		 * setting is applied here too (offline, IP sockets only come in
		 * from outside: seccomp refuses to create them). */
		if (!S.cfg.allow_network) {
			if (own_loopback() && loopback_addr(&d->ss, d->len)) {
				d->loopback = true; /* (on a socket made inside: fits) */
				return 0;
			}
			say_offline();
			note_offline_dest(&d->ss);
			return -EACCES;
		}
		if (!S.cfg.domains)
			return 0;
		/* By domain: the proxy, its exact address and port, and nothing
		 * else (a name that resolves to the proxy's port elsewhere, an
		 * IPv6 form of it: refused). */
		if (d->ss.ss_family == AF_INET && ulen >= sizeof(struct sockaddr_in)) {
			const struct sockaddr_in *in = (const struct sockaddr_in *)&d->ss;
			d->proxy = in->sin_addr.s_addr == S.cfg.proxy.sin_addr.s_addr &&
				   in->sin_port == S.cfg.proxy.sin_port;
		}
		if (!d->proxy) {
			say_domains();
			note_offline_dest(&d->ss);
		}
		return d->proxy ? 0 : -EACCES;
	default:
		return 0; /* AF_UNSPEC, netlink, ...: no destination outside */
	}
}

/* Whether SOCK was made in the session's own network namespace. */
static bool in_session_netns(int sock)
{
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);
	return S.cfg.sockets && S.cfg.sockets->netns_cookie &&
	       getsockopt(sock, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) == 0 &&
	       cookie == S.cfg.sockets->netns_cookie;
}

/* Offline, no destination at all on an IP socket (one passed in with
 * --pass-fd): the kernel reads an AF_UNSPEC address on a UDP socket as
 * AF_INET. One made in the session's own namespace (own_loopback) reaches
 * nothing but its loopback whatever the address (judge_addr refused the
 * internet's, saying why). 0 or -EACCES. */
static int offline_ip(int sock, bool named, const struct dest *d)
{
	if ((S.cfg.allow_network && !S.cfg.domains) || !named)
		return 0;
	int domain = 0, proto = 0;
	socklen_t len = sizeof(domain);
	if (getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0)
		return -errno;
	if (domain == AF_UNIX || domain == AF_NETLINK)
		return 0;
	if (!S.cfg.allow_network) {
		if (own_loopback() && in_session_netns(sock))
			return 0;
		note_learn('n', "send on an internet socket");
		return -EACCES;
	}
	/* By domain: to the proxy, on a TCP socket only (a UDP socket passed
	 * in takes an AF_UNSPEC or unix address as an internet one). */
	len = sizeof(proto);
	if (!d->proxy || getsockopt(sock, SOL_SOCKET, SO_PROTOCOL, &proto, &len) < 0 ||
	    proto != IPPROTO_TCP || (domain != AF_INET && domain != AF_INET6)) {
		say_domains();
		note_learn('n', "send on an internet socket");
		return -EACCES;
	}
	return 0;
}

/* An abstract name judged in the session's network namespace (netns.c) is
 * reached on a socket of that namespace only: one from outside (passed in)
 * would reach the host's name of that spelling. 0 or -EPERM. */
static int same_netns(int sock, const struct dest *d)
{
	if (!d->abstract || !S.cfg.sockets->netns_cookie)
		return 0;
	return in_session_netns(sock) ? 0 : -EPERM;
}

/* What the caller's socket SOCK may do with D (NAMED: an address was given). */
static int fits(int sock, bool named, const struct dest *d)
{
	int r = offline_ip(sock, named, d);
	return r < 0 ? r : same_netns(sock, d);
}

static void dest_free(struct dest *d)
{
	if (d->pin >= 0)
		close(d->pin);
	d->pin = -1;
}

/* ---- performing the calls ------------------------------------------------- */

/* connect, as the caller: its peer sees the caller's credentials. */
static int connect_as(struct cordon_call *c, int sock, const struct sockaddr *sa, socklen_t len)
{
	int r = cordon_call_assume(c);
	if (r < 0)
		return r;
	r = connect(sock, sa, len) < 0 ? -errno : 0;
	cordon_call_restore();
	return r;
}

static int64_t connect_here(struct cordon_call *c, int sock, const struct dest *d)
{
	int fl = fcntl(sock, F_GETFL);
	if (fl < 0)
		return -errno;
	const struct sockaddr *sa = (const struct sockaddr *)&d->ss;
	if (fl & O_NONBLOCK)
		return connect_as(c, sock, sa, d->len);
	/* A blocking connect, started without blocking (the flag is the
	 * caller's too, for these few instructions) and then waited for here,
	 * where the caller's signals can be seen. */
	long deadline = -1; /* read when it first has to wait */
	for (;;) {
		(void)fcntl(sock, F_SETFL, fl | O_NONBLOCK);
		int r = connect_as(c, sock, sa, d->len);
		(void)fcntl(sock, F_SETFL, fl);
		/* EAGAIN: a unix listener's backlog is full; try again.
		 * EINPROGRESS/EALREADY: an IP connect under way; wait for it. */
		if (r != -EAGAIN && r != -EINPROGRESS && r != -EALREADY)
			return r;
		if (deadline < 0) {
			long timeout = send_timeout_ms(sock);
			deadline = timeout ? cordon_now_ms() + timeout : 0;
		}
		ensure_spare();
		for (;;) {
			wait_slice(sock, POLLOUT, r == -EAGAIN);
			if (r != -EAGAIN) {
				struct pollfd p = {.fd = sock, .events = POLLOUT};
				if (poll(&p, 1, 0) == 1) {
					int e = 0;
					socklen_t el = sizeof(e);
					if (getsockopt(sock, SOL_SOCKET, SO_ERROR, &e, &el) < 0)
						return -errno;
					return -e;
				}
			}
			int w = caller_still_waits(c);
			if (w < 0)
				return w;
			if (deadline && cordon_now_ms() >= deadline)
				return r == -EAGAIN ? -EAGAIN : -EINPROGRESS;
			if (r == -EAGAIN)
				break; /* try the connect again */
		}
	}
}

static void raise_sigpipe(const struct cordon_call *c)
{
	if (c->pidfd >= 0)
		(void)syscall(SYS_pidfd_send_signal, c->pidfd, SIGPIPE, NULL, 0);
}

/* sendmsg(SOCK, M, FLAGS) for the caller, waiting as a blocking socket would
 * (unless MSG_DONTWAIT or O_NONBLOCK) while looking at its signals. */
static int64_t send_here(struct cordon_call *c, int sock, struct msghdr *m, int flags)
{
	int fl = fcntl(sock, F_GETFL);
	if (fl < 0)
		return -errno;
	bool wait = !(flags & MSG_DONTWAIT) && !(fl & O_NONBLOCK);
	long deadline = -1; /* read when it first has to wait */
	bool spin = false;
	for (;;) {
		int e = cordon_call_assume(c);
		ssize_t n = -1;
		if (e == 0) {
			n = sendmsg(sock, m, flags | MSG_DONTWAIT | MSG_NOSIGNAL);
			e = n < 0 ? errno : 0;
			cordon_call_restore();
		} else {
			e = -e;
		}
		if (n >= 0)
			return n;
		if (e == EPIPE && !(flags & MSG_NOSIGNAL))
			raise_sigpipe(c);
		if (!wait || (e != EAGAIN && e != EWOULDBLOCK))
			return -e;
		if (deadline < 0) {
			long timeout = send_timeout_ms(sock);
			deadline = timeout ? cordon_now_ms() + timeout : 0;
		}
		ensure_spare();
		wait_slice(sock, POLLOUT, spin);
		/* Writable but refused again: a datagram to a full queue poll
		 * cannot see; sleep between the next tries. */
		spin = true;
		int w = caller_still_waits(c);
		if (w < 0)
			return w;
		if (deadline && cordon_now_ms() >= deadline)
			return -EAGAIN;
	}
}

/* The caller's data: the iovecs at UIOV (IOVLEN of them), copied into *BUF.
 * STREAM: more than SEND_MAX is cut there; else it is refused. */
static int64_t copy_data(const struct cordon_call *c, uint64_t uiov, uint64_t iovlen, bool stream,
			 char **buf, size_t *len)
{
	*buf = NULL;
	*len = 0;
	if (iovlen > IOV_MAX_CALL)
		return -EMSGSIZE;
	if (!iovlen)
		return 0;
	cleanup_free struct iovec *riov = calloc((size_t)iovlen, sizeof(*riov));
	if (!riov)
		return -ENOMEM;
	int r = cordon_call_peek(c, uiov, riov, (size_t)iovlen * sizeof(*riov));
	if (r < 0)
		return r;
	size_t total = 0;
	for (size_t i = 0; i < iovlen; i++) {
		if (riov[i].iov_len > SSIZE_MAX - total)
			return -EINVAL;
		total += riov[i].iov_len;
	}
	if (total > SEND_MAX) {
		if (!stream)
			return -EMSGSIZE;
		total = SEND_MAX;
	}
	if (!total)
		return 0;
	char *b = malloc(total);
	if (!b)
		return -ENOMEM;
	struct iovec l = {.iov_base = b, .iov_len = total};
	ssize_t n = process_vm_readv(c->tid, &l, 1, riov, (unsigned long)iovlen, 0);
	if (n != (ssize_t)total) {
		free(b);
		return n < 0 && errno == ESRCH ? -ESRCH : -EFAULT;
	}
	*buf = b;
	*len = total;
	return 0;
}

struct control {
	char *buf;
	size_t len;
	int *fds; /* our copies of the fds in SCM_RIGHTS, to close */
	size_t n_fds;
};

static void control_free(struct control *k)
{
	for (size_t i = 0; i < k->n_fds; i++)
		close(k->fds[i]);
	free(k->fds);
	free(k->buf);
	memset(k, 0, sizeof(*k));
}

static bool has_cap(const struct cordon_creds *k, int cap)
{
	return (k->cap_eff >> cap) & 1;
}

/* SCM_CREDENTIALS in H: only what the kernel would let the caller claim
 * (its own pid, one of its uids and gids, unless its capabilities say
 * otherwise); the caller's pid becomes ours, as the kernel requires of the
 * process that sends (the receiver sees the supervisor's pid, outside). */
static int own_credentials(struct cordon_call *c, struct cmsghdr *h)
{
	struct ucred u;
	if (h->cmsg_len != CMSG_LEN(sizeof(u)))
		return -EINVAL;
	int r = read_creds(c);
	if (r < 0)
		return r;
	memcpy(&u, CMSG_DATA(h), sizeof(u));
	const struct cordon_creds *k = &c->creds;
	pid_t tgid = cordon_tgid_of(c->tid);
	bool pid_ok = u.pid == tgid || has_cap(k, CAP_SYS_ADMIN);
	bool uid_ok = u.uid == k->uid[0] || u.uid == k->uid[1] || u.uid == k->uid[2] ||
		      has_cap(k, CAP_SETUID);
	bool gid_ok = u.gid == k->gid[0] || u.gid == k->gid[1] || u.gid == k->gid[2] ||
		      has_cap(k, CAP_SETGID);
	if (!pid_ok || !uid_ok || !gid_ok)
		return -EPERM;
	if (u.pid == tgid) {
		u.pid = getpid();
		memcpy(CMSG_DATA(h), &u, sizeof(u));
	}
	return 0;
}

/* The caller's ancillary data, with the fds of SCM_RIGHTS replaced by copies
 * of them (the receiver gets the same open files). */
static int copy_control(struct cordon_call *c, uint64_t uctl, uint64_t len, struct control *k)
{
	memset(k, 0, sizeof(*k));
	if (!uctl || !len)
		return 0;
	if (len > CONTROL_MAX)
		return -ENOBUFS;
	if (!(k->buf = malloc((size_t)len)))
		return -ENOMEM;
	k->len = (size_t)len;
	int r = cordon_call_peek(c, uctl, k->buf, k->len);
	if (r < 0)
		return r;
	struct msghdr m = {.msg_control = k->buf, .msg_controllen = k->len};
	for (struct cmsghdr *h = CMSG_FIRSTHDR(&m); h; h = CMSG_NXTHDR(&m, h)) {
		if (h->cmsg_len < CMSG_LEN(0) || (char *)h + h->cmsg_len > k->buf + k->len)
			return -EINVAL;
		if (h->cmsg_level == SOL_SOCKET && h->cmsg_type == SCM_CREDENTIALS) {
			r = own_credentials(c, h);
			if (r < 0)
				return r;
			continue;
		}
		if (h->cmsg_level != SOL_SOCKET || h->cmsg_type != SCM_RIGHTS)
			continue;
		size_t n = (h->cmsg_len - CMSG_LEN(0)) / sizeof(int);
		int *nf = realloc(k->fds, (k->n_fds + n) * sizeof(int));
		if (!nf)
			return -ENOMEM;
		k->fds = nf;
		for (size_t i = 0; i < n; i++) {
			int theirs;
			memcpy(&theirs, CMSG_DATA(h) + i * sizeof(int), sizeof(int));
			int ours = cordon_call_take_fd(c, theirs);
			if (ours < 0)
				return ours == -ESRCH ? -ESRCH : -EBADF;
			k->fds[k->n_fds++] = ours;
			memcpy(CMSG_DATA(h) + i * sizeof(int), &ours, sizeof(int));
		}
	}
	return 0;
}

static bool is_stream(int sock)
{
	int type = 0;
	socklen_t len = sizeof(type);
	return getsockopt(sock, SOL_SOCKET, SO_TYPE, &type, &len) == 0 && type == SOCK_STREAM;
}

/* One message of sendmsg/sendmmsg: the msghdr at UMSG, on SOCK. */
static int64_t send_one(struct cordon_call *c, int sock, uint64_t umsg, int flags)
{
	struct msghdr um;
	int64_t r = cordon_call_peek(c, umsg, &um, sizeof(um));
	if (r < 0)
		return r;
	struct dest d = {.pin = -1};
	bool named = um.msg_name && um.msg_namelen;
	if (named && (r = judge_addr(c, (uint64_t)(uintptr_t)um.msg_name, um.msg_namelen, &d)) < 0)
		return r;
	if ((r = fits(sock, named, &d)) < 0) {
		dest_free(&d);
		return r;
	}
	char *data = NULL;
	size_t len = 0;
	struct control k = {0};
	r = copy_data(c, (uint64_t)(uintptr_t)um.msg_iov, um.msg_iovlen, is_stream(sock), &data,
		      &len);
	if (r >= 0)
		r = copy_control(c, (uint64_t)(uintptr_t)um.msg_control, um.msg_controllen, &k);
	if (r >= 0 && !cordon_call_waiting(c))
		r = -ESRCH;
	if (r >= 0) {
		struct iovec iov = {.iov_base = data, .iov_len = len};
		struct msghdr m = {
			.msg_name = named ? &d.ss : NULL,
			.msg_namelen = named ? d.len : 0,
			.msg_iov = &iov,
			.msg_iovlen = 1,
			.msg_control = k.len ? k.buf : NULL,
			.msg_controllen = k.len,
		};
		r = send_here(c, sock, &m, flags);
	}
	control_free(&k);
	free(data);
	dest_free(&d);
	return r;
}

/* By domain: listen on the caller's socket, performed here on the socket
 * itself (the number may name another one by the time the caller would
 * run it), unless it is an internet socket: a listener there is reachable
 * from anywhere, and the project with it. */
static int64_t do_listen(struct cordon_call *c)
{
	const __u64 *a = c->req->data.args;
	int sock = cordon_call_take_fd(c, (int)a[0]);
	if (sock < 0)
		return sock;
	int domain = 0;
	socklen_t len = sizeof(domain);
	int64_t r = getsockopt(sock, SOL_SOCKET, SO_DOMAIN, &domain, &len) < 0 ? -errno : 0;
	if (r >= 0 && (domain == AF_INET || domain == AF_INET6)) {
		say_domains();
		note_learn('n', "listen on an internet socket");
		r = -EACCES;
	} else if (r >= 0) {
		r = listen(sock, (int)a[1]) < 0 ? -errno : 0;
	}
	close(sock);
	return r;
}

static int64_t do_connect(struct cordon_call *c)
{
	const __u64 *a = c->req->data.args;
	struct dest d;
	int64_t r = judge_addr(c, a[1], (uint32_t)a[2], &d);
	if (r < 0)
		return r;
	int sock = cordon_call_take_fd(c, (int)a[0]);
	r = sock < 0 ? sock : fits(sock, true, &d);
	if (r >= 0)
		r = connect_here(c, sock, &d);
	/* (Without blocking, the loopback's refusal is there at once: seen
	 * here by poll, which leaves the error for the caller.) */
	struct pollfd p = {.fd = sock, .events = POLLOUT};
	if (d.loopback && (r == -ECONNREFUSED || (r == -EINPROGRESS && poll(&p, 1, 0) == 1 &&
						  (p.revents & (POLLERR | POLLHUP)))))
		say_own_loopback();
	if (sock >= 0)
		close(sock);
	dest_free(&d);
	return r;
}

static int64_t do_sendto(struct cordon_call *c)
{
	const __u64 *a = c->req->data.args;
	struct dest d;
	int64_t r = judge_addr(c, a[4], (uint32_t)a[5], &d);
	if (r < 0)
		return r;
	int sock = cordon_call_take_fd(c, (int)a[0]);
	char *data = NULL;
	if (sock < 0) {
		r = sock;
	} else if ((r = fits(sock, true, &d)) < 0) {
		close(sock);
	} else {
		struct iovec one = {.iov_base = (void *)(uintptr_t)a[1], .iov_len = (size_t)a[2]};
		/* One remote iovec, read straight from the caller's buffer. */
		bool stream = is_stream(sock);
		size_t want = one.iov_len > SEND_MAX ? SEND_MAX : one.iov_len;
		if (one.iov_len > SEND_MAX && !stream)
			r = -EMSGSIZE;
		else if (want && !(data = malloc(want)))
			r = -ENOMEM;
		if (r >= 0 && want) {
			struct iovec l = {.iov_base = data, .iov_len = want};
			one.iov_len = want;
			if (process_vm_readv(c->tid, &l, 1, &one, 1, 0) != (ssize_t)want)
				r = -EFAULT;
		}
		if (r >= 0 && !cordon_call_waiting(c))
			r = -ESRCH;
		if (r >= 0) {
			struct iovec iov = {.iov_base = data, .iov_len = want};
			struct msghdr m = {.msg_name = &d.ss,
					   .msg_namelen = d.len,
					   .msg_iov = &iov,
					   .msg_iovlen = 1};
			r = send_here(c, sock, &m, (int)a[3]);
		}
		close(sock);
	}
	free(data);
	dest_free(&d);
	return r;
}

static int64_t do_sendmsg(struct cordon_call *c)
{
	const __u64 *a = c->req->data.args;
	int sock = cordon_call_take_fd(c, (int)a[0]);
	if (sock < 0)
		return sock;
	int64_t r = send_one(c, sock, a[1], (int)a[2]);
	close(sock);
	return r;
}

static int64_t do_sendmmsg(struct cordon_call *c)
{
	const __u64 *a = c->req->data.args;
	unsigned vlen = (unsigned)a[2];
	if (vlen > IOV_MAX_CALL)
		vlen = IOV_MAX_CALL; /* as the kernel */
	int sock = cordon_call_take_fd(c, (int)a[0]);
	if (sock < 0)
		return sock;
	int64_t sent = 0, r = 0;
	for (unsigned i = 0; i < vlen; i++) {
		uint64_t at = a[1] + (uint64_t)i * sizeof(struct mmsghdr);
		r = send_one(c, sock, at + offsetof(struct mmsghdr, msg_hdr), (int)a[3]);
		if (r < 0)
			break;
		unsigned len = (unsigned)r;
		/* Written by tid: only while that thread still waits (its pid
		 * cannot have gone to another process). */
		if (!cordon_call_waiting(c) ||
		    poke(c, at + offsetof(struct mmsghdr, msg_len), &len, sizeof(len)) < 0) {
			r = -EFAULT;
			break;
		}
		sent++;
	}
	close(sock);
	/* As the kernel: the count once anything went, else the error. */
	return sent > 0 ? sent : r;
}

/* Answer the call with FD, placed in the caller's fd table (its number is
 * the call's result, SECCOMP_ADDFD_FLAG_SEND; NEWFD_FLAGS O_CLOEXEC or 0).
 * FD is closed here. 1: answered; else -errno to answer. */
static int64_t answer_with_fd(struct cordon_call *c, int fd, int newfd_flags)
{
	if (!cordon_call_waiting(c)) {
		close(fd);
		return -ESRCH;
	}
	struct seccomp_notif_addfd add = {
		.id = c->req->id,
		.flags = SECCOMP_ADDFD_FLAG_SEND,
		.srcfd = (__u32)fd,
		.newfd_flags = (__u32)newfd_flags,
	};
	int r = ioctl(S.cfg.listener, SECCOMP_IOCTL_NOTIF_ADDFD, &add);
	int e = errno;
	close(fd);
	return r >= 0 ? 1 : e == ENOENT ? 1 /* the caller is gone */ : -e;
}

/* TIOCGPTPEER: the peer of the caller's pty master, opened here (outside
 * Landlock, which allows the session's own terminal only) and placed in the
 * caller's fd table; the reply is its number (SECCOMP_ADDFD_FLAG_SEND). 1:
 * answered that way; else -errno to answer. */
static int64_t do_pty_peer(struct cordon_call *c)
{
	const __u64 *a = c->req->data.args;
	int master = cordon_call_take_fd(c, (int)a[0]);
	if (master < 0)
		return master;
	int flags = (int)a[2];
	if (flags & ~(O_ACCMODE | O_NOCTTY | O_CLOEXEC | O_NONBLOCK)) {
		close(master);
		return -EINVAL;
	}
	/* O_NOCTTY always: the terminal must never become this process's
	 * controlling one; the caller can still take it with TIOCSCTTY. */
	int e = -cordon_call_assume(c), peer = -1;
	if (e == 0) {
		peer = ioctl(master, TIOCGPTPEER, flags | O_NOCTTY | O_CLOEXEC);
		e = errno;
		cordon_call_restore();
	}
	close(master);
	if (peer < 0)
		return -e;
	return answer_with_fd(c, peer, flags & O_CLOEXEC);
}

/* Whether a socket of this kind asks nothing of its maker when it is made
 * (no capability, no group): the internet's stream and datagram sockets but
 * ping's, and netlink's routing family. Later calls on it ask the caller. */
static bool asks_nothing(int family, int type, int proto)
{
	int t = type & 0xf;
	if (family == AF_NETLINK)
		return proto == NETLINK_ROUTE;
	return (family == AF_INET || family == AF_INET6) && (t == SOCK_STREAM || t == SOCK_DGRAM) &&
	       proto != IPPROTO_ICMP && proto != IPPROTO_ICMPV6;
}

/* Whether the caller runs with root's uid (its /proc directory's owner, the
 * effective uid; a race with a setuid only changes who owns the socket). */
static bool root_caller(const struct cordon_call *c)
{
	char path[32];
	struct stat st;
	snprintf(path, sizeof(path), "/proc/%d", (int)c->tid);
	return stat(path, &st) == 0 && st.st_uid == 0;
}

/* The caller's socket(): made here, where the supervisor's network
 * namespace is the host's (the session has one of its own, netns.c: its
 * unix sockets, whose abstract names no client outside can reach, are the
 * caller's own; the filter never sends them here). Decided on registers
 * alone. 1: answered with the socket; else -errno. */
static int64_t do_socket(struct cordon_call *c)
{
	const __u64 *a = c->req->data.args;
	int family = (int)a[0], type = (int)a[1], proto = (int)a[2];
	bool inet = family == AF_INET || family == AF_INET6;
	/* Offline, the internet families come here to be refused; by domain,
	 * TCP alone is made (seccomp-rules.c domain_families). */
	bool tcp = inet && (type & 0xf) == SOCK_STREAM && proto != IPPROTO_SCTP &&
		   proto != 262 /* MPTCP */;
	/* Netlink's routing family whatever the setting (read-only inside:
	 * changes need CAP_NET_ADMIN, which the session has not got). */
	bool route = family == AF_NETLINK && proto == NETLINK_ROUTE;
	if (!route && (!S.cfg.allow_network || (S.cfg.domains && !tcp))) {
		if (S.cfg.allow_network)
			say_domains();
		else
			say_offline();
		note_learn('n', family == AF_INET6 ? "socket AF_INET6" : "socket AF_INET");
		return -EACCES;
	}
	/* As the caller: its capabilities decide a raw socket, its groups a
	 * ping socket, and the socket is its own (owner, netlink's checks).
	 * Taking on its credentials costs a root supervisor ~40 us; a socket
	 * that asks nothing of its maker is made as is for a caller of root's
	 * uid (review 44b F2). */
	bool as_is = S.privileged && asks_nothing(family, type, proto) && root_caller(c);
	int e = as_is ? 0 : -cordon_call_assume(c), sock = -1;
	if (e == 0) {
		sock = socket(family, (type & ~SOCK_CLOEXEC) | SOCK_CLOEXEC, proto);
		e = errno;
		if (!as_is)
			cordon_call_restore();
	}
	if (sock < 0)
		return -e;
	return answer_with_fd(c, sock, (type & SOCK_CLOEXEC) ? O_CLOEXEC : 0);
}

static void handle(const struct seccomp_notif *req, struct seccomp_notif_resp *resp)
{
	struct cordon_call c = {.req = req, .tid = (pid_t)req->pid, .pidfd = -1};
	/* Judging may take a while (a session with many sockets to look
	 * through): another thread takes the next call meanwhile. */
	ensure_spare();
	int64_t r;
	enum kind kind = kind_of(&req->data);
	switch (kind) {
	case CONNECT:
		r = do_connect(&c);
		break;
	case LISTEN:
		r = do_listen(&c);
		break;
	case SENDTO:
		r = do_sendto(&c);
		break;
	case SENDMSG:
		r = do_sendmsg(&c);
		break;
	case SENDMMSG:
		r = do_sendmmsg(&c);
		break;
	case PTY_PEER:
	case SOCKET:
		r = kind == PTY_PEER ? do_pty_peer(&c) : do_socket(&c);
		if (r == 1) {
			resp->id = 0; /* answered with the fd */
			if (c.pidfd >= 0)
				close(c.pidfd);
			return;
		}
		break;
	case TTY_PGRP:
		r = cordon_pidcall_tty_pgrp(S.cfg.sockets, &c);
		if (r == 1)
			goto go_on;
		break;
	case PIDCALL:
		r = cordon_pidcall_judge(S.cfg.sockets, c.tid, &req->data);
		if (r == 0)
			goto go_on;
		break;
	case META:
		r = S.cfg.meta ? cordon_meta_handle(S.cfg.meta, &c) : -EPERM;
		break;
	case IPC: {
		bool on;
		r = cordon_ipc_handle(S.cfg.ipc, &c, &on);
		if (on)
			goto go_on;
		break;
	}
	case OTHER:
	default:
		r = -EACCES; /* a 32-bit msghdr, socketcall: not taken */
		break;
	}
	if (c.pidfd >= 0)
		close(c.pidfd);
	if (r == -ESRCH)
		r = -EACCES; /* the caller is gone (nobody sees it), or unreadable */
	resp->id = req->id;
	resp->flags = 0;
	if (r < 0) {
		resp->error = (int32_t)r;
		resp->val = 0;
	} else {
		resp->error = 0;
		resp->val = r;
	}
	return;
go_on: /* decided on registers alone: the call goes on */
	resp->id = req->id;
	resp->flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
	resp->error = 0;
	resp->val = 0;
}

static void *receiver(void *arg)
{
	(void)arg;
	pthread_mutex_lock(&S.gate_lock);
	while (!S.open)
		pthread_cond_wait(&S.gate, &S.gate_lock);
	pthread_mutex_unlock(&S.gate_lock);
	size_t nsz = S.sizes.seccomp_notif > sizeof(struct seccomp_notif)
			     ? S.sizes.seccomp_notif
			     : sizeof(struct seccomp_notif);
	size_t rsz = S.sizes.seccomp_notif_resp > sizeof(struct seccomp_notif_resp)
			     ? S.sizes.seccomp_notif_resp
			     : sizeof(struct seccomp_notif_resp);
	struct seccomp_notif *req = malloc(nsz);
	struct seccomp_notif_resp *resp = malloc(rsz);
	if (!req || !resp) {
		free(req);
		free(resp);
		atomic_fetch_sub(&S.threads, 1);
		return NULL;
	}
	/* A thread starts with its creator's credentials: perhaps a caller's. */
	switched = MINE_GROUPS | MINE_GID | MINE_UID | MINE_CAPS;
	restore_creds();
	for (;;) {
		memset(req, 0, nsz);
		atomic_fetch_add(&S.idle, 1);
		int r = ioctl(S.cfg.listener, SECCOMP_IOCTL_NOTIF_RECV, req);
		atomic_fetch_sub(&S.idle, 1);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0 && errno == ENOENT) {
			/* The caller was gone before it could be read; or nobody is
			 * left under the filter (the listener then hangs up). */
			struct pollfd p = {.fd = S.cfg.listener, .events = POLLIN};
			if (poll(&p, 1, 0) == 1 && (p.revents & POLLHUP))
				break;
			continue;
		}
		if (r < 0)
			break; /* the listener is gone: nothing left to answer */
		memset(resp, 0, rsz);
		handle(req, resp);
		/* ENOENT: the caller was interrupted (a fatal signal) meanwhile.
		 * id 0: answered already (an fd handed over). */
		if (resp->id)
			(void)ioctl(S.cfg.listener, SECCOMP_IOCTL_NOTIF_SEND, resp);
	}
	free(req);
	free(resp);
	atomic_fetch_sub(&S.threads, 1);
	return NULL;
}

int cordon_supervisor_prepare(struct cordon_error *err)
{
	if (syscall(SYS_seccomp, SECCOMP_GET_NOTIF_SIZES, 0, &S.sizes) < 0)
		return cordon_err(err, errno, "seccomp(SECCOMP_GET_NOTIF_SIZES): %s",
				  strerror(errno));
	/* A send to a peer that is gone must come back as EPIPE here, and be
	 * raised in the caller instead (send_here). */
	(void)signal(SIGPIPE, SIG_IGN);
	/* One receiver: a call that has to wait starts another first
	 * (ensure_spare). Every task costs a launch a kernel stack (measured:
	 * clear_page in copy_process was 6 % of a launch's CPU with four). */
	struct __user_cap_header_struct h = {_LINUX_CAPABILITY_VERSION_3, 0};
	struct __user_cap_data_struct d[2] = {{0}};
	bool caps = syscall(SYS_capget, &h, d) == 0 && (d[0].permitted || d[1].permitted);
	S.privileged = geteuid() == 0 || caps;
	if (S.privileged) {
		S.permitted = (unsigned long long)d[1].permitted << 32 | d[0].permitted;
		S.inheritable = (unsigned long long)d[1].inheritable << 32 | d[0].inheritable;
		if (stat("/proc/self/ns/user", &S.userns) < 0)
			return cordon_err(err, errno,
					  "starting the supervisor: /proc/self/ns/user: %s",
					  strerror(errno));
		S.gid = getegid();
		S.n_groups = getgroups((int)ARRAY_SIZE(S.groups), S.groups);
		if (S.n_groups < 0 || geteuid() != 0)
			return cordon_err(err, EPERM,
					  "starting the supervisor: capabilities without root "
					  "(or more than %zu groups) are not supported",
					  ARRAY_SIZE(S.groups));
	}
	int r = spawn_receiver();
	if (r != 0)
		return cordon_err(err, r, "starting the supervisor: %s", strerror(r));
	return 0;
}

void cordon_supervisor_start(const struct cordon_supervisor_config *cfg)
{
	/* The caller sleeps while its call is answered: wake the receiver on
	 * the caller's CPU, and the caller on ours (Linux 6.6; the flag is
	 * passed by value). Where the kernel lacks it, nothing changes. */
	(void)ioctl(cfg->listener, SECCOMP_IOCTL_NOTIF_SET_FLAGS,
		    SECCOMP_USER_NOTIF_FD_SYNC_WAKE_UP, 0);
	pthread_mutex_lock(&S.gate_lock);
	S.cfg = *cfg;
	S.open = true;
	pthread_cond_broadcast(&S.gate);
	pthread_mutex_unlock(&S.gate_lock);
}
