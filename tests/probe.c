/* cordon-probe: attempts one operation and reports the result, for tests that
 * run it inside the sandbox (built dynamic and static). The test judges the
 * effect from outside; the printed result is only a diagnostic.
 *   cordon-probe read PATH          copy PATH to stdout
 *   cordon-probe write PATH TEXT    create/truncate PATH with TEXT
 *   cordon-probe kill PID           send SIGTERM to PID
 *   cordon-probe sleep SECONDS      sleep (a process that stays alive)
 *   cordon-probe tcp|udp|mptcp HOST PORT MSG   connect (or sendto) and send MSG
 *   cordon-probe raw HOST MSG       ICMP echo request carrying MSG (raw socket)
 *   cordon-probe uring HOST PORT MSG  create a UDP socket through io_uring, send MSG
 *   cordon-probe unix PATH MSG      connect to a unix socket and send MSG
 *   cordon-probe socketpair         create a unix socketpair and pass a byte
 *   cordon-probe tiocsti TEXT       push TEXT into the input queue of fd 0
 *   cordon-probe syscall NAME       call a dangerous syscall with harmless
 *                                   arguments; prints the errno name
 *   cordon-probe abstract NAME MSG  connect to the abstract unix socket @NAME, send MSG
 *   cordon-probe recvfd PATH NAME   connect to the unix socket PATH, receive a
 *                                   directory fd, read NAME under it to stdout
 *                                   and create "planted" next to it
 *   cordon-probe hold TEXT          keep TEXT in a global buffer and sleep
 *   cordon-probe peek PID           read a "hold" process's buffer through
 *                                   ptrace and process_vm_readv (both run
 *                                   without address randomisation)
 *   cordon-probe dgram PATH MSG     sendto MSG on an unconnected unix datagram
 *                                   socket to PATH
 *   cordon-probe dgrammsg PATH MSG  the same with sendmsg (msg_name)
 *   cordon-probe race-addr ALLOWED TARGET SECONDS
 *                                   connect (and send "race") in a loop while a
 *                                   second thread flips the address between the
 *                                   unix sockets ALLOWED and TARGET
 *   cordon-probe race-fd PORT TARGET SECONDS
 *                                   connect in a loop while a second thread
 *                                   dup2s a TCP and a unix socket onto the fd
 *                                   and flips the address between
 *                                   127.0.0.1:PORT and the unix socket TARGET
 *   cordon-probe wait-connect FILE PATH  wait for FILE to exist, then connect
 *                                   to the unix socket PATH and send "late";
 *                                   prints the errno name
 *   cordon-probe held-reader HOW LOG  read fd 0, each read logged to LOG
 *                                   ("began" first), SIGTSTP and SIGTTIN
 *                                   ignored; HOW "thread": in a thread, the
 *                                   main one gone (pthread_exit); "timer": in
 *                                   a session of its own (setsid), continued
 *                                   every 2 ms by a timer's SIGCONT
 *   cordon-probe no-listener CMD... exec CMD under a seccomp filter of its own
 *                                   that refuses a listener (EPERM), as a
 *                                   caller's sandbox might */
#include <arpa/inet.h>
#include <errno.h>
#include <mqueue.h>
#include <linux/filter.h>
#include <linux/io_uring.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <netinet/ip_icmp.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/personality.h>
#include <sys/prctl.h>
#include <sys/ptrace.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <fcntl.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <time.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

static int fail(const char *what, const char *arg)
{
	fprintf(stderr, "probe: %s %s: %s\n", what, arg, strerror(errno));
	return 1;
}

static socklen_t make_addr(const char *host, int port, struct sockaddr_storage *ss)
{
	memset(ss, 0, sizeof(*ss));
	struct sockaddr_in *in4 = (struct sockaddr_in *)ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)ss;
	if (inet_pton(AF_INET, host, &in4->sin_addr) == 1) {
		in4->sin_family = AF_INET;
		in4->sin_port = htons((uint16_t)port);
		return sizeof(*in4);
	}
	if (inet_pton(AF_INET6, host, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons((uint16_t)port);
		return sizeof(*in6);
	}
	return 0;
}

static int net_send(const char *kind, const char *host, int port, const char *msg)
{
	struct sockaddr_storage ss;
	socklen_t len = make_addr(host, port, &ss);
	if (!len) {
		errno = EINVAL;
		return fail("address", host);
	}
	bool udp = strcmp(kind, "udp") == 0;
	int proto = strcmp(kind, "mptcp") == 0 ? 262 /* IPPROTO_MPTCP */ : 0;
	int fd = socket(ss.ss_family, udp ? SOCK_DGRAM : SOCK_STREAM, proto);
	if (fd < 0)
		return fail("socket", kind);
	if (udp) {
		if (sendto(fd, msg, strlen(msg), 0, (struct sockaddr *)&ss, len) < 0)
			return fail("sendto", host);
	} else {
		if (connect(fd, (struct sockaddr *)&ss, len) < 0)
			return fail("connect", host);
		if (send(fd, msg, strlen(msg), 0) < 0)
			return fail("send", host);
	}
	close(fd);
	printf("sent\n");
	return 0;
}

static uint16_t icmp_sum(const void *data, size_t len)
{
	const uint8_t *p = data;
	uint32_t sum = 0;
	for (size_t i = 0; i + 1 < len; i += 2)
		sum += (uint32_t)(p[i] << 8 | p[i + 1]);
	if (len & 1)
		sum += (uint32_t)p[len - 1] << 8;
	while (sum >> 16)
		sum = (sum & 0xffff) + (sum >> 16);
	return htons((uint16_t)~sum);
}

static int raw_ping(const char *host, const char *msg)
{
	struct sockaddr_storage ss;
	if (!make_addr(host, 0, &ss) || ss.ss_family != AF_INET) {
		errno = EINVAL;
		return fail("address", host);
	}
	int fd = socket(AF_INET, SOCK_RAW, IPPROTO_ICMP);
	if (fd < 0)
		return fail("socket", "raw");
	unsigned char pkt[256] = {0};
	struct icmphdr *h = (struct icmphdr *)pkt;
	h->type = ICMP_ECHO;
	h->un.echo.id = htons(0x4242);
	size_t n = strlen(msg) < 200 ? strlen(msg) : 200;
	memcpy(pkt + sizeof(*h), msg, n);
	h->checksum = icmp_sum(pkt, sizeof(*h) + n);
	if (sendto(fd, pkt, sizeof(*h) + n, 0, (struct sockaddr *)&ss, sizeof(struct sockaddr_in)) <
	    0)
		return fail("sendto", host);
	printf("sent\n");
	return 0;
}

/* Create a UDP socket without calling socket(): IORING_OP_SOCKET. */
static int uring_send(const char *host, int port, const char *msg)
{
	struct io_uring_params p;
	memset(&p, 0, sizeof(p));
	int ring = (int)syscall(__NR_io_uring_setup, 4, &p);
	if (ring < 0)
		return fail("io_uring_setup", "");
	size_t sqsz = p.sq_off.array + p.sq_entries * sizeof(unsigned);
	size_t cqsz = p.cq_off.cqes + p.cq_entries * sizeof(struct io_uring_cqe);
	if (sqsz < cqsz)
		sqsz = cqsz;
	char *sq = mmap(NULL, sqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, ring,
			IORING_OFF_SQ_RING);
	char *cq = (p.features & IORING_FEAT_SINGLE_MMAP)
			   ? sq
			   : mmap(NULL, cqsz, PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE,
				  ring, IORING_OFF_CQ_RING);
	struct io_uring_sqe *sqes =
		mmap(NULL, p.sq_entries * sizeof(struct io_uring_sqe), PROT_READ | PROT_WRITE,
		     MAP_SHARED | MAP_POPULATE, ring, IORING_OFF_SQES);
	if (sq == MAP_FAILED || cq == MAP_FAILED || sqes == MAP_FAILED)
		return fail("mmap", "io_uring");
	unsigned *tail = (unsigned *)(sq + p.sq_off.tail);
	unsigned mask = *(unsigned *)(sq + p.sq_off.ring_mask);
	unsigned *array = (unsigned *)(sq + p.sq_off.array);
	unsigned t = *tail, idx = t & mask;
	struct sockaddr_storage ss;
	socklen_t alen = make_addr(host, port, &ss);
	memset(&sqes[idx], 0, sizeof(sqes[idx]));
	sqes[idx].opcode = IORING_OP_SOCKET;
	sqes[idx].fd = ss.ss_family;
	sqes[idx].off = SOCK_DGRAM;
	array[idx] = idx;
	__atomic_store_n(tail, t + 1, __ATOMIC_RELEASE);
	if (syscall(__NR_io_uring_enter, ring, 1, 1, IORING_ENTER_GETEVENTS, NULL, 0) < 0)
		return fail("io_uring_enter", "");
	unsigned *chead = (unsigned *)(cq + p.cq_off.head);
	unsigned cmask = *(unsigned *)(cq + p.cq_off.ring_mask);
	struct io_uring_cqe *cqes = (struct io_uring_cqe *)(cq + p.cq_off.cqes);
	int res = cqes[*chead & cmask].res;
	if (res < 0) {
		errno = -res;
		return fail("IORING_OP_SOCKET", "");
	}
	if (sendto(res, msg, strlen(msg), 0, (struct sockaddr *)&ss, alen) < 0)
		return fail("sendto", host);
	printf("sent\n");
	return 0;
}

static int unix_send(const char *path, const char *msg)
{
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);
	if (fd < 0)
		return fail("socket", "unix");
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
	if (connect(fd, (struct sockaddr *)&un, sizeof(un)) < 0)
		return fail("connect", path);
	if (send(fd, msg, strlen(msg), 0) < 0)
		return fail("send", path);
	printf("sent\n");
	return 0;
}

static int pair(void)
{
	int sv[2];
	char c = 0;
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		return fail("socketpair", "unix");
	if (write(sv[0], "p", 1) != 1 || read(sv[1], &c, 1) != 1 || c != 'p')
		return fail("socketpair", "io");
	printf("pair ok\n");
	return 0;
}

static int tiocsti(const char *text)
{
	for (const char *p = text; *p; p++)
		if (ioctl(0, TIOCSTI, p) < 0)
			return fail("ioctl", "TIOCSTI");
	printf("injected\n");
	return 0;
}

static int dangerous(const char *name)
{
	static const struct {
		const char *name;
		long nr;
	} calls[] = {
		{"kexec_load", SYS_kexec_load},
		{"kexec_file_load", SYS_kexec_file_load},
		{"init_module", SYS_init_module},
		{"finit_module", SYS_finit_module},
		{"delete_module", SYS_delete_module},
		{"bpf", SYS_bpf},
		{"userfaultfd", SYS_userfaultfd},
		{"reboot", SYS_reboot},
		{"swapon", SYS_swapon},
		{"swapoff", SYS_swapoff},
		{"mount", SYS_mount},
		{"umount2", SYS_umount2},
		{"pivot_root", SYS_pivot_root},
		{"move_mount", SYS_move_mount},
		{"open_tree", SYS_open_tree},
		{"fsopen", SYS_fsopen},
		{"fsmount", SYS_fsmount},
		{"keyctl", SYS_keyctl},
		{"add_key", SYS_add_key},
		{"request_key", SYS_request_key},
		{"fanotify_init", SYS_fanotify_init},
		{"vhangup", SYS_vhangup},
	};
	for (size_t i = 0; i < sizeof(calls) / sizeof(calls[0]); i++) {
		if (strcmp(calls[i].name, name) != 0)
			continue;
		if (strcmp(name, "vhangup") == 0)
			signal(SIGHUP, SIG_IGN); /* to live to say so */
		/* NULL pointers, fd -1, zero magic: harmless wherever the call is allowed. */
		long r = syscall(calls[i].nr,
				 strcmp(name, "fsmount") == 0 || strcmp(name, "move_mount") == 0 ||
						 strcmp(name, "finit_module") == 0 ||
						 strcmp(name, "open_tree") == 0
					 ? -1L
					 : 0L,
				 0L, 0L, 0L, 0L, 0L);
		if (r >= 0) {
			printf("%s: ok\n", name);
			if (strcmp(name, "userfaultfd") == 0 || strcmp(name, "fanotify_init") == 0)
				close((int)r);
			return 0;
		}
		printf("%s: %s\n", name, errno == EPERM ? "EPERM" : strerror(errno));
		return 0;
	}
	fprintf(stderr, "probe: unknown syscall %s\n", name);
	return 2;
}

static int abstract_send(const char *name, const char *msg)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (s < 0)
		return fail("socket", "AF_UNIX");
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	size_t n = strlen(name);
	if (n + 1 > sizeof(un.sun_path))
		n = sizeof(un.sun_path) - 1;
	memcpy(un.sun_path + 1, name, n);
	socklen_t len = (socklen_t)(offsetof(struct sockaddr_un, sun_path) + 1 + n);
	if (connect(s, (struct sockaddr *)&un, len) < 0)
		return fail("connect", name);
	if (write(s, msg, strlen(msg)) < 0)
		return fail("write", name);
	printf("abstract: sent\n");
	return 0;
}

static int recv_fd(const char *path, const char *name)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un un = {.sun_family = AF_UNIX};
	snprintf(un.sun_path, sizeof(un.sun_path), "%s", path);
	if (s < 0 || connect(s, (struct sockaddr *)&un, sizeof(un)) < 0)
		return fail("connect", path);
	char byte;
	union {
		char buf[CMSG_SPACE(sizeof(int))];
		struct cmsghdr align;
	} u;
	struct iovec io = {.iov_base = &byte, .iov_len = 1};
	struct msghdr m = {.msg_iov = &io,
			   .msg_iovlen = 1,
			   .msg_control = u.buf,
			   .msg_controllen = sizeof(u.buf)};
	if (recvmsg(s, &m, 0) <= 0)
		return fail("recvmsg", path);
	struct cmsghdr *c = CMSG_FIRSTHDR(&m);
	if (!c || c->cmsg_type != SCM_RIGHTS) {
		fprintf(stderr, "probe: no fd received\n");
		return 1;
	}
	int dir;
	memcpy(&dir, CMSG_DATA(c), sizeof(int));
	printf("recvfd: got fd %d\n", dir);
	int rc = 0;
	int fd = openat(dir, name, O_RDONLY | O_CLOEXEC);
	if (fd < 0) {
		rc = fail("openat", name);
	} else {
		char buf[4096];
		ssize_t n;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, stdout);
		close(fd);
	}
	fd = openat(dir, "planted", O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
	if (fd < 0)
		rc = fail("openat", "planted");
	else if (write(fd, "pwned", 5) < 0 || close(fd) < 0)
		rc = fail("write", "planted");
	if (fchdir(dir) < 0)
		rc = fail("fchdir", "received fd");
	else if (unlink(name) < 0)
		rc = fail("unlink", name);
	return rc;
}

static const char *held_log;

static void *held_read(void *arg)
{
	(void)arg;
	FILE *log = fopen(held_log, "a");
	if (!log)
		return NULL;
	fprintf(log, "began\n");
	fflush(log);
	for (;;) {
		char buf[512];
		ssize_t n = read(0, buf, sizeof(buf) - 1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0) {
			fprintf(log, "refused %d\n", n < 0 ? errno : 0);
			fflush(log);
			if (n == 0)
				return NULL;
			usleep(20000);
			continue;
		}
		buf[n] = '\0';
		fprintf(log, "read %s\n", buf);
		fflush(log);
	}
}

static void held_cont(int sig)
{
	(void)sig;
}

/* A reader the job's hold must stop (round 60g H1, H2). */
static int held_reader(const char *how, const char *log)
{
	held_log = log;
	signal(SIGTSTP, SIG_IGN);
	signal(SIGTTIN, SIG_IGN);
	if (strcmp(how, "timer") == 0) {
		(void)setsid();
		/* (Caught, not ignored: the kernel parks a timer whose signal
		 * is ignored.) */
		struct sigaction cont = {.sa_handler = held_cont, .sa_flags = SA_RESTART};
		sigaction(SIGCONT, &cont, NULL);
		timer_t t;
		struct sigevent ev = {.sigev_notify = SIGEV_SIGNAL, .sigev_signo = SIGCONT};
		struct itimerspec every = {{0, 2000000}, {0, 2000000}};
		if (timer_create(CLOCK_MONOTONIC, &ev, &t) < 0 ||
		    timer_settime(t, 0, &every, NULL) < 0)
			return fail("timer_create", how);
		held_read(NULL);
		return 0;
	}
	pthread_t th;
	if (pthread_create(&th, NULL, held_read, NULL) != 0)
		return fail("pthread_create", how);
	pthread_exit(NULL);
}

/* Exec ARGV under a filter that refuses seccomp listeners with EPERM and
 * allows everything else (no architecture check: a test's stand-in for
 * a caller's own sandbox, not a sandbox). */
static int no_listener(char **argv)
{
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SYS_seccomp, 0, 5),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[0])),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, SECCOMP_SET_MODE_FILTER, 0, 3),
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, args[1])),
		BPF_JUMP(BPF_JMP | BPF_JSET | BPF_K, SECCOMP_FILTER_FLAG_NEW_LISTENER, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {.len = sizeof(f) / sizeof(f[0]), .filter = f};
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return fail("seccomp", "no-listener");
	execvp(argv[0], argv);
	return fail("exec", argv[0]);
}

static char held[64];

static int hold(const char *text)
{
	snprintf(held, sizeof(held), "%s", text);
	printf("hold: %p\n", (void *)held);
	for (int i = 0; i < 600 && held[0]; i++)
		usleep(50000);
	return 0;
}

/* Re-exec without address randomisation, so that &held is the address it
 * has in the "hold" process (same binary, same layout). */
static int peek(char **argv)
{
	int pers = personality(0xffffffff);
	if (pers >= 0 && !(pers & ADDR_NO_RANDOMIZE)) {
		if (personality((unsigned long)pers | ADDR_NO_RANDOMIZE) < 0)
			return fail("personality", "ADDR_NO_RANDOMIZE");
		execv("/proc/self/exe", argv);
		return fail("execv", "/proc/self/exe");
	}
	pid_t pid = (pid_t)strtol(argv[2], NULL, 10);
	int rc = 1;
	char got[sizeof(held) + 1] = {0};
	struct iovec local = {.iov_base = got, .iov_len = sizeof(held)};
	struct iovec remote = {.iov_base = held, .iov_len = sizeof(held)};
	if (process_vm_readv(pid, &local, 1, &remote, 1, 0) > 0) {
		printf("process_vm_readv: %s\n", got);
		rc = 0;
	} else {
		fail("process_vm_readv", argv[2]);
	}
	if (ptrace(PTRACE_ATTACH, pid, NULL, NULL) < 0) {
		fail("ptrace attach", argv[2]);
		return rc;
	}
	waitpid(pid, NULL, __WALL);
	memset(got, 0, sizeof(got));
	for (size_t off = 0; off < sizeof(held); off += sizeof(long)) {
		errno = 0;
		long word = ptrace(PTRACE_PEEKDATA, pid, held + off, NULL);
		if (errno)
			break;
		memcpy(got + off, &word, sizeof(word));
	}
	printf("ptrace: %s\n", got);
	ptrace(PTRACE_DETACH, pid, NULL, NULL);
	return 0;
}

static socklen_t unix_addr(const char *path, struct sockaddr_un *un)
{
	memset(un, 0, sizeof(*un));
	un->sun_family = AF_UNIX;
	snprintf(un->sun_path, sizeof(un->sun_path), "%s", path);
	return (socklen_t)(offsetof(struct sockaddr_un, sun_path) + strlen(un->sun_path) + 1);
}

static int dgram_send(const char *path, const char *msg, bool use_sendmsg)
{
	int fd = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return fail("socket", "dgram");
	struct sockaddr_un un;
	socklen_t len = unix_addr(path, &un);
	struct iovec io = {.iov_base = (void *)(uintptr_t)msg, .iov_len = strlen(msg)};
	struct msghdr m = {.msg_name = &un, .msg_namelen = len, .msg_iov = &io, .msg_iovlen = 1};
	ssize_t n = use_sendmsg ? sendmsg(fd, &m, 0)
				: sendto(fd, msg, strlen(msg), 0, (struct sockaddr *)&un, len);
	if (n < 0)
		return fail(use_sendmsg ? "sendmsg" : "sendto", path);
	printf("sent\n");
	return 0;
}

/* The races: a second thread rewrites what the main thread's connect
 * reads, as fast as it can. */
static struct {
	union {
		struct sockaddr_un un;
		struct sockaddr_in in;
		struct sockaddr_storage ss;
	} addr, a, b;
	socklen_t len_a, len_b;
	volatile int fd_no, fd_a, fd_b;
	volatile bool stop;
} race;

static void *flip(void *arg)
{
	bool with_fds = arg != NULL;
	for (unsigned long i = 0; !race.stop; i++) {
		memcpy(&race.addr, i & 1 ? &race.a : &race.b, sizeof(race.addr));
		if (with_fds && race.fd_a >= 0)
			dup2(i & 1 ? race.fd_a : race.fd_b, race.fd_no);
	}
	return NULL;
}

static double now_s(void)
{
	struct timespec t;
	clock_gettime(CLOCK_MONOTONIC, &t);
	return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

static int race_addr(const char *allowed, const char *target, double seconds)
{
	signal(SIGPIPE, SIG_IGN); /* the listener closes at once */
	race.len_a = unix_addr(allowed, &race.a.un);
	race.len_b = unix_addr(target, &race.b.un);
	socklen_t len = sizeof(struct sockaddr_un);
	memcpy(&race.addr, &race.a, sizeof(race.addr));
	pthread_t t;
	pthread_create(&t, NULL, flip, NULL);
	unsigned long tries = 0, ok = 0;
	for (double end = now_s() + seconds; now_s() < end; tries++) {
		int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		if (connect(s, (struct sockaddr *)&race.addr, len) == 0) {
			ok++;
			(void)!write(s, "race", 4);
		}
		close(s);
	}
	race.stop = true;
	pthread_join(t, NULL);
	printf("attempts %lu connected %lu\n", tries, ok);
	return 0;
}

static int race_fd(int port, const char *target, double seconds)
{
	signal(SIGPIPE, SIG_IGN);
	race.a.in.sin_family = AF_INET;
	race.a.in.sin_port = htons((uint16_t)port);
	race.a.in.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	race.len_a = sizeof(race.a.in);
	race.len_b = unix_addr(target, &race.b.un);
	memcpy(&race.addr, &race.a, sizeof(race.addr));
	race.fd_no = 100;
	race.fd_a = race.fd_b = -1;
	pthread_t t;
	pthread_create(&t, NULL, flip, &race);
	unsigned long tries = 0, ok = 0;
	for (double end = now_s() + seconds; now_s() < end; tries++) {
		int u = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
		int i = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
		race.fd_b = u;
		race.fd_a = i;
		socklen_t len = tries & 1 ? race.len_a : race.len_b;
		if (connect(race.fd_no, (struct sockaddr *)&race.addr, len) == 0) {
			ok++;
			(void)!write(race.fd_no, "race-fd", 7);
		}
		race.fd_a = race.fd_b = -1;
		close(u);
		close(i);
	}
	race.stop = true;
	pthread_join(t, NULL);
	printf("attempts %lu connected %lu\n", tries, ok);
	return 0;
}

static int wait_connect(const char *file, const char *path)
{
	while (access(file, F_OK) < 0)
		usleep(10000);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un un;
	socklen_t len = unix_addr(path, &un);
	if (connect(fd, (struct sockaddr *)&un, len) < 0) {
		printf("connect: %s\n", errno == ENOSYS ? "ENOSYS" : strerror(errno));
		return 1;
	}
	(void)!write(fd, "late", 4);
	printf("connect: ok\n");
	return 0;
}

#if defined(__x86_64__)
/* A call through the 32-bit ABI (int 0x80): -errno or the result. Its
 * pointers must lie below 4 GiB (low()). The sixth argument goes in ebp,
 * saved around the call (past the red zone). */
static long call32(long nr, long a, long b, long c, long d, long e, long f)
{
	long r;
	register long r8 __asm__("r8") = f;
	__asm__ volatile("sub $128, %%rsp\n\tpush %%rbp\n\tmov %%r8, %%rbp\n\tint $0x80\n\t"
			 "pop %%rbp\n\tadd $128, %%rsp"
			 : "=a"(r)
			 : "a"(nr), "b"(a), "c"(b), "d"(c), "S"(d), "D"(e), "r"(r8)
			 : "memory");
	return r;
}

/* A page below 4 GiB, for the 32-bit calls' strings and structs. */
static char *low(void)
{
	void *m = mmap(NULL, 65536, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS | MAP_32BIT,
		       -1, 0);
	return m == MAP_FAILED ? NULL : m;
}
#endif

struct cordon_file_attr {
	uint64_t xflags;
	uint32_t extsize, nextents, projid, cowextsize;
};

/* attrs OP FILE [...]: the calls a filter must judge on every ABI, each
 * printing "OP 0" or "OP <errno text>":
 * - lease32 FILE SECONDS: a read lease through the 32-bit fcntl64, held;
 * - setattr FILE / setattr32 FILE: file_setattr adding FS_XFLAG_NODUMP;
 * - xattr32 FILE NAME VALUE: the 32-bit setxattrat;
 * - opentree DIR / opentree32 DIR: open_tree_attr (Linux 6.15) cloning DIR,
 *   in a user and mount namespace of its own (where it holds the rights
 *   the call asks for). */
static int attrs(int argc, char **argv)
{
#if defined(__x86_64__)
	const char *op = argv[2];
	char *m = low();
	if (!m || strlen(argv[3]) >= 4096)
		return 2;
	strcpy(m, argv[3]);
	long r = -ENOSYS;
	if (strcmp(op, "lease32") == 0 && argc >= 5) {
		signal(SIGIO, SIG_IGN);
		int fd = open(argv[3], O_RDONLY | O_CLOEXEC);
		r = fd < 0 ? -errno
			   : call32(221 /* fcntl64 */, fd, 1024 /* F_SETLEASE */, F_RDLCK, 0, 0, 0);
		printf("%s %s\n", op, r == 0 ? "0" : strerror((int)-r));
		if (r == 0)
			sleep((unsigned)atoi(argv[4]));
		return r == 0 ? 0 : 1;
	}
	if (strncmp(op, "setattr", 7) == 0) {
		struct cordon_file_attr *fa = (void *)(m + 16384);
		memset(fa, 0, sizeof(*fa));
		if (syscall(468 /* file_getattr */, AT_FDCWD, m, fa, sizeof(*fa), 0) < 0) {
			printf("%s %s\n", op, strerror(errno));
			return 1;
		}
		fa->xflags |= 0x80; /* FS_XFLAG_NODUMP */
		r = strcmp(op, "setattr32") == 0
			    ? call32(469, AT_FDCWD, (long)m, (long)fa, sizeof(*fa), 0, 0)
			    : (syscall(469, AT_FDCWD, m, fa, sizeof(*fa), 0) < 0 ? -errno : 0);
	} else if (strncmp(op, "opentree", 8) == 0) {
		if (unshare(CLONE_NEWUSER | CLONE_NEWNS) < 0) {
			printf("%s unshare: %s\n", op, strerror(errno));
			return 1;
		}
		r = strcmp(op, "opentree32") == 0
			    ? call32(467, AT_FDCWD, (long)m,
				     0x8001 /* OPEN_TREE_CLONE | AT_RECURSIVE */, 0, 0, 0)
			    : syscall(467, AT_FDCWD, m, 0x8001, NULL, 0);
		r = r >= 0 ? 0 : strcmp(op, "opentree32") == 0 ? r : -errno;
	} else if (strcmp(op, "xattr32") == 0 && argc >= 6) {
		char *name = m + 4096, *value = m + 8192;
		uint32_t *args = (uint32_t *)(void *)(m + 12288);
		snprintf(name, 4096, "%s", argv[4]);
		snprintf(value, 4096, "%s", argv[5]);
		/* struct xattr_args: value (u64), size, flags */
		uint64_t v = (uintptr_t)value;
		memcpy(args, &v, sizeof(v));
		args[2] = (uint32_t)strlen(value);
		args[3] = 0;
		r = call32(463 /* setxattrat */, AT_FDCWD, (long)m, 0, (long)name, (long)args, 16);
	}
	printf("%s %s\n", op, r == 0 ? "0" : strerror((int)-r));
	return r == 0 ? 0 : 1;
#else
	(void)argc;
	printf("%s %s\n", argv[2], strerror(ENOSYS));
	return 1;
#endif
}

/* lexit FILE: a thread appends a line to FILE every 50 ms, for 5 minutes,
 * while the main thread exits at once (the process reads as a zombie in
 * /proc/PID/stat, and lives on). Its pid in FILE.pid. */
static void *appender(void *arg)
{
	for (int i = 0; i < 6000; i++) {
		FILE *f = fopen(arg, "a");
		if (f) {
			fputs("tick\n", f);
			fclose(f);
		}
		usleep(50000);
	}
	_exit(0);
	return NULL;
}

static int leader_exits(char *file)
{
	char pidfile[4096];
	snprintf(pidfile, sizeof(pidfile), "%s.pid", file);
	FILE *f = fopen(pidfile, "w");
	if (f) {
		fprintf(f, "%d\n", (int)getpid());
		fclose(f);
	}
	pthread_t t;
	if (pthread_create(&t, NULL, appender, file) != 0)
		return 1;
	usleep(100000);
	syscall(SYS_exit, 0); /* this thread only */
	return 0;
}

/* hop FILE: for 20 s, fork every 500 us, the parent exiting at once (its
 * pid changes all the time), a line appended to FILE every 50 ms. */
static int hop(const char *file)
{
	struct timespec t0, now;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	long next = 0;
	for (;;) {
		clock_gettime(CLOCK_MONOTONIC, &now);
		long ms = (now.tv_sec - t0.tv_sec) * 1000 + (now.tv_nsec - t0.tv_nsec) / 1000000;
		if (ms > 20000)
			return 0;
		if (ms >= next) {
			FILE *f = fopen(file, "a");
			if (f) {
				fputs("hop\n", f);
				fclose(f);
			}
			next = ms + 50;
		}
		usleep(500);
		pid_t p = fork();
		if (p > 0)
			_exit(0);
		if (p < 0)
			usleep(1000);
	}
}

/* mq create NAME (O_CREAT|O_EXCL) or mq unlink NAME: "mq 0" or the error. */
static int mq(const char *op, const char *name)
{
	int r;
	if (strcmp(op, "create") == 0) {
		mqd_t q = mq_open(name, O_CREAT | O_EXCL | O_RDWR, 0600, NULL);
		r = q == (mqd_t)-1 ? -1 : 0;
		if (q != (mqd_t)-1)
			mq_close(q);
	} else {
		r = mq_unlink(name);
	}
	printf("mq %s\n", r == 0 ? "0" : strerror(errno));
	return r == 0 ? 0 : 1;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 5 && (strcmp(argv[1], "tcp") == 0 || strcmp(argv[1], "udp") == 0 ||
			  strcmp(argv[1], "mptcp") == 0))
		return net_send(argv[1], argv[2], atoi(argv[3]), argv[4]);
	if (argc >= 4 && strcmp(argv[1], "raw") == 0)
		return raw_ping(argv[2], argv[3]);
	if (argc >= 5 && strcmp(argv[1], "uring") == 0)
		return uring_send(argv[2], atoi(argv[3]), argv[4]);
	if (argc >= 4 && strcmp(argv[1], "unix") == 0)
		return unix_send(argv[2], argv[3]);
	if (argc >= 2 && strcmp(argv[1], "socketpair") == 0)
		return pair();
	if (argc >= 3 && strcmp(argv[1], "tiocsti") == 0)
		return tiocsti(argv[2]);
	if (argc >= 4 && strcmp(argv[1], "attrs") == 0)
		return attrs(argc, argv);
	if (argc >= 4 && strcmp(argv[1], "mq") == 0)
		return mq(argv[2], argv[3]);
	if (argc >= 3 && strcmp(argv[1], "syscall") == 0)
		return dangerous(argv[2]);
	if (argc >= 4 && strcmp(argv[1], "abstract") == 0)
		return abstract_send(argv[2], argv[3]);
	if (argc >= 4 && strcmp(argv[1], "recvfd") == 0)
		return recv_fd(argv[2], argv[3]);
	if (argc >= 3 && strcmp(argv[1], "hold") == 0)
		return hold(argv[2]);
	if (argc >= 4 && strcmp(argv[1], "dgram") == 0)
		return dgram_send(argv[2], argv[3], false);
	if (argc >= 4 && strcmp(argv[1], "dgrammsg") == 0)
		return dgram_send(argv[2], argv[3], true);
	if (argc >= 5 && strcmp(argv[1], "race-addr") == 0)
		return race_addr(argv[2], argv[3], atof(argv[4]));
	if (argc >= 5 && strcmp(argv[1], "race-fd") == 0)
		return race_fd(atoi(argv[2]), argv[3], atof(argv[4]));
	if (argc >= 4 && strcmp(argv[1], "wait-connect") == 0)
		return wait_connect(argv[2], argv[3]);
	if (argc >= 3 && strcmp(argv[1], "peek") == 0)
		return peek(argv);
	if (argc >= 4 && strcmp(argv[1], "held-reader") == 0)
		return held_reader(argv[2], argv[3]);
	if (argc >= 3 && strcmp(argv[1], "no-listener") == 0)
		return no_listener(argv + 2);
	if (argc >= 3 && strcmp(argv[1], "read") == 0) {
		int fd = open(argv[2], O_RDONLY);
		if (fd < 0)
			return fail("open", argv[2]);
		char buf[4096];
		ssize_t n;
		while ((n = read(fd, buf, sizeof(buf))) > 0)
			fwrite(buf, 1, (size_t)n, stdout);
		return n < 0 ? fail("read", argv[2]) : 0;
	}
	if (argc >= 4 && strcmp(argv[1], "write") == 0) {
		int fd = open(argv[2], O_WRONLY | O_CREAT | O_TRUNC, 0644);
		if (fd < 0)
			return fail("open", argv[2]);
		if (write(fd, argv[3], strlen(argv[3])) < 0)
			return fail("write", argv[2]);
		return close(fd) < 0 ? fail("close", argv[2]) : 0;
	}
	if (argc >= 3 && strcmp(argv[1], "kill") == 0) {
		if (kill((pid_t)strtol(argv[2], NULL, 10), SIGTERM) < 0)
			return fail("kill", argv[2]);
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "sleep") == 0) {
		sleep((unsigned)strtoul(argv[2], NULL, 10));
		return 0;
	}
	if (argc >= 3 && strcmp(argv[1], "lexit") == 0)
		return leader_exits(argv[2]);
	if (argc >= 3 && strcmp(argv[1], "hop") == 0)
		return hop(argv[2]);
	fprintf(stderr, "usage: cordon-probe read|write|kill|sleep ...\n");
	return 2;
}
