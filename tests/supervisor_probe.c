/* cordon-supervisor-probe: attempts against the supervisor, for
 * tests/escape/supervisor.c, which runs it inside the sandbox (and outside,
 * as the control) and judges the effect from outside. What it prints is
 * only a diagnostic.
 *   nest GO SOCK MSG        wait for the file GO, then install a seccomp
 *                           listener of its own (NEW_LISTENER, retried while
 *                           EBUSY) that answers CONTINUE to connect, and
 *                           connect to the unix socket SOCK and send MSG
 *   clone3 CGDIR PIDFILE    clone3(CLONE_INTO_CGROUP) into the cgroup CGDIR;
 *                           where refused, fork as a C library falls back;
 *                           the child writes its pid to PIDFILE and sleeps
 *   sendto FD inet|unspec PORT MSG
 *                           sendto MSG on the (inherited) socket FD to
 *                           127.0.0.1:PORT, the address's family AF_INET or
 *                           AF_UNSPEC
 *   creds SOCK UID          connect to the unix socket SOCK, send
 *                           "claim-UID" with SCM_CREDENTIALS claiming its own
 *                           pid, UID and its gid; where refused, send
 *                           "plain" without them
 *   mmsg PATH N             sendmmsg N datagrams "mmsg-I" to the unix datagram
 *                           socket PATH; prints each msg_len */
#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <netinet/in.h>
#include <pthread.h>
#include <signal.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/un.h>
#include <time.h>
#include <unistd.h>

#ifndef CLONE_INTO_CGROUP
#define CLONE_INTO_CGROUP 0x200000000ULL
#endif

static const char *err_name(int e)
{
	switch (e) {
	case 0:
		return "ok";
	case EPERM:
		return "EPERM";
	case EACCES:
		return "EACCES";
	case ENOSYS:
		return "ENOSYS";
	case EBUSY:
		return "EBUSY";
	case EINVAL:
		return "EINVAL";
	case ECONNREFUSED:
		return "ECONNREFUSED";
	case EBADF:
		return "EBADF";
	default:
		return strerror(e);
	}
}

static socklen_t unix_addr(const char *path, struct sockaddr_un *un)
{
	memset(un, 0, sizeof(*un));
	un->sun_family = AF_UNIX;
	snprintf(un->sun_path, sizeof(un->sun_path), "%s", path);
	return (socklen_t)sizeof(*un);
}

static long now_ms(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

/* ---- nest ---- */

static volatile int listener_fd = -1;

static void *responder(void *arg)
{
	(void)arg;
	while (listener_fd < 0)
		usleep(1000);
	for (;;) {
		struct seccomp_notif req;
		struct seccomp_notif_resp resp;
		memset(&req, 0, sizeof(req));
		if (ioctl(listener_fd, SECCOMP_IOCTL_NOTIF_RECV, &req) < 0) {
			if (errno == EINTR || errno == ENOENT)
				continue;
			return NULL;
		}
		memset(&resp, 0, sizeof(resp));
		resp.id = req.id;
		resp.flags = SECCOMP_USER_NOTIF_FLAG_CONTINUE;
		ioctl(listener_fd, SECCOMP_IOCTL_NOTIF_SEND, &resp);
	}
}

static int nest(const char *go, const char *sock, const char *msg)
{
	for (long end = now_ms() + 10000; access(go, F_OK) < 0 && now_ms() < end;)
		usleep(5000);
	/* An unprivileged process needs no_new_privs for a filter of its own. */
	prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0);
	struct sock_filter f[] = {
		BPF_STMT(BPF_LD | BPF_W | BPF_ABS, offsetof(struct seccomp_data, nr)),
		BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, __NR_connect, 0, 1),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_USER_NOTIF),
		BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ALLOW),
	};
	struct sock_fprog prog = {sizeof(f) / sizeof(f[0]), f};
	pthread_t t;
	pthread_create(&t, NULL, responder, NULL);
	/* EBUSY while a listener is still attached (one per filter chain). */
	int fd = -1, e = 0;
	for (long end = now_ms() + 3000;;) {
		fd = (int)syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER,
				  SECCOMP_FILTER_FLAG_NEW_LISTENER, &prog);
		e = fd < 0 ? errno : 0;
		if (fd >= 0 || e != EBUSY || now_ms() > end)
			break;
		usleep(2000);
	}
	printf("listener: %s\n", err_name(e));
	if (fd >= 0)
		listener_fd = fd;
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un un;
	socklen_t len = unix_addr(sock, &un);
	int r = connect(s, (struct sockaddr *)&un, len);
	printf("connect: %s\n", err_name(r < 0 ? errno : 0));
	if (r == 0 && write(s, msg, strlen(msg)) < 0)
		printf("write: %s\n", err_name(errno));
	close(s);
	return 0;
}

/* ---- clone3 ---- */

struct clone_args_v2 {
	uint64_t flags, pidfd, child_tid, parent_tid, exit_signal, stack, stack_size, tls, set_tid,
		set_tid_size, cgroup;
};

static int clone_into(const char *cgdir, const char *pidfile)
{
	int cg = open(cgdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (cg < 0)
		printf("open %s: %s\n", cgdir, err_name(errno));
	struct clone_args_v2 ca = {.flags = CLONE_INTO_CGROUP,
				   .exit_signal = SIGCHLD,
				   .cgroup = (uint64_t)(cg < 0 ? 0 : cg)};
	long pid = cg < 0 ? -1 : syscall(SYS_clone3, &ca, sizeof(ca));
	if (pid < 0) {
		printf("clone3: %s\n", err_name(errno));
		pid = fork(); /* the C library's fallback */
	} else if (pid > 0) {
		printf("clone3: ok\n");
	}
	if (pid < 0) {
		printf("fork: %s\n", err_name(errno));
		return 1;
	}
	if (pid == 0) {
		setsid();
		/* Nothing of the caller's output held open: it waits for EOF. */
		int null = open("/dev/null", O_RDWR | O_CLOEXEC);
		if (null >= 0) {
			dup2(null, 0);
			dup2(null, 1);
			dup2(null, 2);
		}
		char tmp[4200];
		snprintf(tmp, sizeof(tmp), "%s.tmp", pidfile);
		FILE *o = fopen(tmp, "w");
		if (o) {
			fprintf(o, "%d\n", (int)getpid());
			fclose(o);
			rename(tmp, pidfile);
		}
		alarm(30);
		for (;;)
			pause();
	}
	return 0;
}

/* ---- sendto on an inherited socket ---- */

static int send_to(int fd, const char *family, int port, const char *msg)
{
	struct sockaddr_in a = {.sin_family = strcmp(family, "unspec") == 0 ? AF_UNSPEC : AF_INET,
				.sin_port = htons((uint16_t)port),
				.sin_addr.s_addr = htonl(INADDR_LOOPBACK)};
	ssize_t n = sendto(fd, msg, strlen(msg), 0, (struct sockaddr *)&a, sizeof(a));
	printf("sendto %s: %s\n", family, err_name(n < 0 ? errno : 0));
	return 0;
}

/* ---- SCM_CREDENTIALS ---- */

static int creds(const char *sock, unsigned uid)
{
	int s = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un un;
	socklen_t len = unix_addr(sock, &un);
	if (connect(s, (struct sockaddr *)&un, len) < 0) {
		printf("connect: %s\n", err_name(errno));
		return 0;
	}
	char data[64];
	snprintf(data, sizeof(data), "claim-%u", uid);
	struct iovec iov = {data, strlen(data)};
	union {
		struct cmsghdr h;
		char b[CMSG_SPACE(sizeof(struct ucred))];
	} c;
	memset(&c, 0, sizeof(c));
	struct msghdr m = {.msg_iov = &iov,
			   .msg_iovlen = 1,
			   .msg_control = c.b,
			   .msg_controllen = sizeof(c.b)};
	struct cmsghdr *h = CMSG_FIRSTHDR(&m);
	h->cmsg_level = SOL_SOCKET;
	h->cmsg_type = SCM_CREDENTIALS;
	h->cmsg_len = CMSG_LEN(sizeof(struct ucred));
	struct ucred u = {.pid = getpid(), .uid = uid, .gid = getgid()};
	memcpy(CMSG_DATA(h), &u, sizeof(u));
	ssize_t r = sendmsg(s, &m, 0);
	printf("sendmsg claiming uid %u: %s\n", uid, err_name(r < 0 ? errno : 0));
	if (r < 0 && write(s, "plain", 5) < 0)
		printf("write: %s\n", err_name(errno));
	close(s);
	return 0;
}

/* ---- sendmmsg ---- */

static int mmsg(const char *path, unsigned n)
{
	if (n > 8)
		n = 8;
	int s = socket(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0);
	struct sockaddr_un un;
	socklen_t len = unix_addr(path, &un);
	struct mmsghdr v[8];
	struct iovec io[8];
	char text[8][16];
	memset(v, 0, sizeof(v));
	for (unsigned i = 0; i < n; i++) {
		snprintf(text[i], sizeof(text[i]), "mmsg-%u%.*s", i, (int)i, "xxxxxxxx");
		io[i] = (struct iovec){text[i], strlen(text[i])};
		v[i].msg_hdr = (struct msghdr){
			.msg_name = &un, .msg_namelen = len, .msg_iov = &io[i], .msg_iovlen = 1};
		v[i].msg_len = 0xdead;
	}
	int r = sendmmsg(s, v, n, 0);
	printf("sendmmsg: %d %s; msg_len", r, err_name(r < 0 ? errno : 0));
	for (unsigned i = 0; i < n; i++)
		printf(" %u", v[i].msg_len);
	printf("\n");
	return 0;
}

int main(int argc, char **argv)
{
	setvbuf(stdout, NULL, _IONBF, 0);
	if (argc >= 5 && strcmp(argv[1], "nest") == 0)
		return nest(argv[2], argv[3], argv[4]);
	if (argc >= 4 && strcmp(argv[1], "clone3") == 0)
		return clone_into(argv[2], argv[3]);
	if (argc >= 6 && strcmp(argv[1], "sendto") == 0)
		return send_to(atoi(argv[2]), argv[3], atoi(argv[4]), argv[5]);
	if (argc >= 4 && strcmp(argv[1], "creds") == 0)
		return creds(argv[2], (unsigned)strtoul(argv[3], NULL, 10));
	if (argc >= 4 && strcmp(argv[1], "mmsg") == 0)
		return mmsg(argv[2], (unsigned)strtoul(argv[3], NULL, 10));
	fprintf(stderr, "usage: cordon-supervisor-probe nest|clone3|sendto|creds|mmsg ...\n");
	return 2;
}
