/* The unix-socket policy (see unixsock.h): where a socket path leads, and
 * whether its listener is the session's own. */
#include "unixsock.h"
#include "sysnums.h"

#include <dirent.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/netlink.h>
#include <linux/openat2.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <linux/unix_diag.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/sysmacros.h>
#include <unistd.h>

#include "cordon/session.h"
#include "util.h"

int cordon_unix_policy_init(struct cordon_unix_policy *u, const struct cordon_policy *p,
			    const char *cgroup, pid_t root, struct cordon_error *err)
{
	memset(u, 0, sizeof(*u));
	pthread_mutex_init(&u->lock, NULL);
	pthread_mutex_init(&u->diag_lock, NULL);
	u->netns_diag = -1;
	/* A copy: the supervisor's threads outlive the caller's string. */
	if (cgroup && !(u->cgroup = strdup(cgroup)))
		return cordon_err(err, ENOMEM, "out of memory");
	u->root = root;
	if (p->n_sockets && !(u->allowed = calloc(p->n_sockets, sizeof(*u->allowed))))
		return cordon_err(err, ENOMEM, "out of memory");
	for (size_t i = 0; i < p->n_sockets; i++) {
		int fd = open(p->sockets[i].path, O_PATH | O_CLOEXEC);
		struct stat st;
		if (fd < 0)
			continue;
		if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode)) {
			close(fd);
			continue;
		}
		u->allowed[u->n_allowed++] = (struct cordon_unix_pin){st.st_dev, st.st_ino, fd};
	}
	return 0;
}

void cordon_unix_policy_free(struct cordon_unix_policy *u)
{
	for (size_t i = 0; i < u->n_allowed; i++)
		close(u->allowed[i].fd);
	for (size_t i = 0; i < u->n_inside; i++)
		close(u->inside[i].fd);
	free(u->allowed);
	free(u->cgroup);
	if (u->netns_diag >= 0)
		close(u->netns_diag);
	pthread_mutex_destroy(&u->lock);
	pthread_mutex_destroy(&u->diag_lock);
	memset(u, 0, sizeof(*u));
}

int cordon_unix_open(pid_t tid, const char *sun_path)
{
	bool abs = sun_path[0] == '/';
	char dir[64];
	snprintf(dir, sizeof(dir), "/proc/%d/%s", (int)tid, abs ? "root" : "cwd");
	cleanup_close int base = openat(AT_FDCWD, dir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	if (base < 0)
		return errno == ENOENT ? -ESRCH : -errno;
	/* In the caller's root (a private mount namespace, a chroot): absolute
	 * paths and ".." stay inside it. No magic links: /proc/self/fd/N would
	 * name the supervisor's own fds, and /proc/PID/root another view. */
	struct open_how how = {
		.flags = O_PATH | O_CLOEXEC,
		.resolve = RESOLVE_NO_MAGICLINKS | (abs ? RESOLVE_IN_ROOT : 0),
	};
	int fd = (int)syscall(SYS_openat2, base, sun_path, &how, sizeof(how));
	if (fd < 0)
		return -errno;
	struct stat st;
	if (fstat(fd, &st) < 0 || !S_ISSOCK(st.st_mode)) {
		close(fd);
		return -ECONNREFUSED; /* what connect says of a file that is no socket */
	}
	return fd;
}

static bool pin_matches(const struct cordon_unix_pin *pins, size_t n, dev_t dev, ino_t ino)
{
	for (size_t i = 0; i < n; i++)
		if (pins[i].dev == dev && pins[i].ino == ino)
			return true;
	return false;
}

/* ---- who listens: NETLINK_SOCK_DIAG ------------------------------------ */

/* What to look for in the dump: sockets bound to a file (INO on the file
 * system whose superblock device is SB_DEV), or to the
 * abstract NAME. Found socket inodes go to SOCKS (at most ARRAY_SIZE). */
struct diag_query {
	bool abstract;
	ino_t ino;
	dev_t sb_dev;
	const char *name;
	size_t name_len;
	uint32_t socks[16];
	size_t n_socks;
	bool overflow;
};

static void diag_match(struct diag_query *q, const struct unix_diag_msg *m, size_t len)
{
	const struct rtattr *a = (const struct rtattr *)(m + 1);
	int left = (int)(len - NLMSG_ALIGN(sizeof(*m)));
	bool hit = false;
	for (; RTA_OK(a, left); a = RTA_NEXT(a, left)) {
		if (!q->abstract && a->rta_type == UNIX_DIAG_VFS &&
		    RTA_PAYLOAD(a) >= sizeof(struct unix_diag_vfs)) {
			const struct unix_diag_vfs *v = RTA_DATA(a);
			/* The dump has 32 bits of the inode and the superblock's
			 * device (not stat's on btrfs, where a subvolume has one of
			 * its own). Another file's socket that shares those bits
			 * adds a candidate, which must then be inside as well
			 * (cordon_unix_judge asks for all of them). */
			hit = v->udiag_vfs_ino == (uint32_t)q->ino &&
			      makedev(v->udiag_vfs_dev >> 20, v->udiag_vfs_dev & 0xfffff) ==
				      q->sb_dev;
		}
		if (q->abstract && a->rta_type == UNIX_DIAG_NAME) {
			const char *nm = RTA_DATA(a);
			size_t nl = RTA_PAYLOAD(a);
			hit = nl == q->name_len + 1 && nm[0] == '\0' &&
			      memcmp(nm + 1, q->name, q->name_len) == 0;
		}
	}
	/* The listener, not the connections it accepted (which carry its
	 * name too: a busy server would overflow SOCKS). A datagram socket
	 * has no listening state. */
	if (!hit || (m->udiag_type != SOCK_DGRAM && m->udiag_state != 10 /* TCP_LISTEN */))
		return;
	if (q->n_socks < ARRAY_SIZE(q->socks))
		q->socks[q->n_socks++] = m->udiag_ino;
	else
		q->overflow = true;
}

/* Dump every unix socket of NL's network namespace and collect Q's. */
static int diag_dump_on(int nl, struct diag_query *q)
{
	struct {
		struct nlmsghdr h;
		struct unix_diag_req r;
	} req = {
		.h = {.nlmsg_len = sizeof(req),
		      .nlmsg_type = SOCK_DIAG_BY_FAMILY,
		      .nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP},
		.r = {.sdiag_family = AF_UNIX,
		      .udiag_states = ~0U,
		      .udiag_show = q->abstract ? UDIAG_SHOW_NAME : UDIAG_SHOW_VFS},
	};
	if (send(nl, &req, sizeof(req), 0) < 0)
		return -errno;
	enum { BUF = 32768 };
	cleanup_free char *buf = malloc(BUF);
	if (!buf)
		return -ENOMEM;
	for (;;) {
		ssize_t n = recv(nl, buf, BUF, 0);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return n < 0 ? -errno : -EIO;
		int left = (int)n;
		for (struct nlmsghdr *h = (struct nlmsghdr *)buf; NLMSG_OK(h, left);
		     h = NLMSG_NEXT(h, left)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return 0;
			if (h->nlmsg_type == NLMSG_ERROR)
				return -EIO;
			if (h->nlmsg_len >= NLMSG_LENGTH(sizeof(struct unix_diag_msg)))
				diag_match(q, NLMSG_DATA(h), h->nlmsg_len - NLMSG_HDRLEN);
		}
	}
}

/* Q's sockets, looked for in the session's network namespace (where it has
 * one) and, unless SESSION_ONLY, in ours. */
static int diag_dump(struct cordon_unix_policy *u, struct diag_query *q, bool session_only)
{
	int r = 0;
	if (u->netns_diag >= 0) {
		pthread_mutex_lock(&u->diag_lock);
		/* Nothing left of a dump given up on: the answer is this one's. */
		char drain[512];
		while (recv(u->netns_diag, drain, sizeof(drain), MSG_DONTWAIT) > 0)
			;
		r = diag_dump_on(u->netns_diag, q);
		pthread_mutex_unlock(&u->diag_lock);
		if (r < 0 || session_only)
			return r;
	}
	cleanup_close int nl = socket(AF_NETLINK, SOCK_DGRAM | SOCK_CLOEXEC, NETLINK_SOCK_DIAG);
	if (nl < 0)
		return -errno;
	return diag_dump_on(nl, q);
}

void cordon_unix_policy_netns(struct cordon_unix_policy *u, int diag)
{
	if (diag < 0)
		return;
	uint64_t cookie = 0;
	socklen_t len = sizeof(cookie);
	if (getsockopt(diag, SOL_SOCKET, SO_NETNS_COOKIE, &cookie, &len) < 0)
		cookie = 0; /* before Linux 5.14: every socket is taken as its */
	if (u->netns_diag >= 0)
		close(u->netns_diag);
	u->netns_diag = diag;
	u->netns_cookie = cookie;
}

/* ---- who holds it: the session's /proc/PID/fd --------------------------- */

static int push_pid(pid_t **v, size_t *n, size_t *cap, pid_t pid)
{
	pid_t *nv = cordon_grow(*v, cap, *n + 1, sizeof(**v), 64);
	if (!nv)
		return -ENOMEM;
	*v = nv;
	(*v)[(*n)++] = pid;
	return 0;
}

/* Subreaper tracking: ROOT's descendants, through every thread's children. */
static int descendants(pid_t root, pid_t **out, size_t *n_out)
{
	pid_t *v = NULL;
	size_t n = 0, cap = 0;
	if (push_pid(&v, &n, &cap, root) < 0)
		return -ENOMEM;
	for (size_t next = 0; next < n; next++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/task", (int)v[next]);
		DIR *d = opendir(path);
		if (!d)
			continue; /* gone meanwhile */
		struct dirent *e;
		while ((e = readdir(d))) {
			if (e->d_name[0] == '.')
				continue;
			char file[sizeof(e->d_name) + 64];
			snprintf(file, sizeof(file), "/proc/%d/task/%s/children", (int)v[next],
				 e->d_name);
			pid_t *kids = NULL;
			size_t nk = 0;
			if (cordon_read_pids(file, &kids, &nk) < 0)
				continue;
			for (size_t i = 0; i < nk; i++)
				if (push_pid(&v, &n, &cap, kids[i]) < 0) {
					free(kids);
					closedir(d);
					free(v);
					return -ENOMEM;
				}
			free(kids);
		}
		closedir(d);
	}
	memmove(v, v + 1, (n - 1) * sizeof(*v)); /* not the root itself */
	*out = v;
	*n_out = n - 1;
	return 0;
}

int cordon_unix_session_pids(const struct cordon_unix_policy *u, pid_t **pids, size_t *n)
{
	if (u->cgroup) {
		char file[4200];
		snprintf(file, sizeof(file), "%s/cgroup.procs", u->cgroup);
		return cordon_read_pids(file, pids, n);
	}
	return descendants(u->root, pids, n);
}

/* Whether every socket inode in Q is held open by a process of the
 * session. A session process whose fds cannot be listed counts as holding
 * none of them: the answer errs towards refusing. */
static bool held_inside(const struct cordon_unix_policy *u, const struct diag_query *q)
{
	pid_t *pids = NULL;
	size_t n = 0;
	if (q->overflow || cordon_unix_session_pids(u, &pids, &n) < 0)
		return false;
	bool found[ARRAY_SIZE(q->socks)] = {false};
	size_t left = q->n_socks;
	for (size_t i = 0; i < n && left; i++) {
		char path[64];
		snprintf(path, sizeof(path), "/proc/%d/fd", (int)pids[i]);
		int dfd = open(path, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
		DIR *d = dfd < 0 ? NULL : fdopendir(dfd);
		if (!d) {
			if (dfd >= 0)
				close(dfd);
			continue;
		}
		struct dirent *e;
		while (left && (e = readdir(d))) {
			char link[64];
			ssize_t l = readlinkat(dfd, e->d_name, link, sizeof(link) - 1);
			if (l < 9)
				continue;
			link[l] = '\0';
			if (strncmp(link, "socket:[", 8) != 0)
				continue;
			char *end;
			unsigned long ino = strtoul(link + 8, &end, 10);
			if (*end != ']')
				continue;
			for (size_t k = 0; k < q->n_socks; k++)
				if (!found[k] && q->socks[k] == ino) {
					found[k] = true;
					left--;
				}
		}
		closedir(d);
	}
	free(pids);
	return left == 0;
}

static void remember_inside(struct cordon_unix_policy *u, int pinned, dev_t dev, ino_t ino)
{
	int fd = fcntl(pinned, F_DUPFD_CLOEXEC, 3);
	if (fd < 0)
		return;
	pthread_mutex_lock(&u->lock);
	if (pin_matches(u->inside, u->n_inside, dev, ino)) {
		close(fd);
	} else if (u->n_inside < CORDON_UNIX_CACHE) {
		u->inside[u->n_inside++] = (struct cordon_unix_pin){dev, ino, fd};
	} else {
		struct cordon_unix_pin *slot = &u->inside[u->next_inside++ % CORDON_UNIX_CACHE];
		close(slot->fd);
		*slot = (struct cordon_unix_pin){dev, ino, fd};
	}
	pthread_mutex_unlock(&u->lock);
}

/* The device of the superblock FD's file is on, as the socket dump gives
 * it: stat's, except where a file system gives its subvolumes devices of
 * their own (btrfs); then mountinfo's, for FD's mount. */
static int superblock_dev(int fd, dev_t *out)
{
	struct stat st;
	if (fstat(fd, &st) < 0)
		return -errno;
	*out = st.st_dev;
	/* FD's mount, from its fdinfo; then that mount's line. */
	char path[64], line[4096];
	snprintf(path, sizeof(path), "/proc/self/fdinfo/%d", fd);
	FILE *f = fopen(path, "re");
	long mnt = -1;
	while (f && fgets(line, sizeof(line), f))
		if (strncmp(line, "mnt_id:", 7) == 0)
			mnt = strtol(line + 7, NULL, 10);
	if (f)
		(void)fclose(f);
	if (mnt < 0 || !(f = fopen("/proc/self/mountinfo", "re")))
		return 0;
	while (fgets(line, sizeof(line), f)) {
		char *end;
		long id = strtol(line, &end, 10);
		if (end == line || id != mnt)
			continue;
		char *p = strchr(end + 1, ' '); /* past the parent's id */
		unsigned long maj = 0, min = 0;
		if (p) {
			maj = strtoul(p + 1, &end, 10);
			if (*end == ':')
				min = strtoul(end + 1, &end, 10);
			if (*end == ' ')
				*out = makedev(maj, min);
		}
		break;
	}
	(void)fclose(f);
	return 0;
}

int cordon_unix_judge(struct cordon_unix_policy *u, int pinned)
{
	struct stat st;
	if (fstat(pinned, &st) < 0)
		return -EACCES;
	if (pin_matches(u->allowed, u->n_allowed, st.st_dev, st.st_ino))
		return 0;
	pthread_mutex_lock(&u->lock);
	bool known = pin_matches(u->inside, u->n_inside, st.st_dev, st.st_ino);
	pthread_mutex_unlock(&u->lock);
	if (known)
		return 0;
	struct diag_query q = {.ino = st.st_ino};
	if (superblock_dev(pinned, &q.sb_dev) < 0 || diag_dump(u, &q, false) < 0)
		return -EACCES; /* cannot tell: refuse */
	/* No socket of this network namespace is bound to it: nothing could
	 * answer (a dead server's file), and the kernel says so. */
	if (q.n_socks == 0)
		return -ECONNREFUSED;
	if (!held_inside(u, &q))
		return -EACCES;
	/* A socket file is bound once: the listener stays the session's while
	 * the pinned inode lives. */
	remember_inside(u, pinned, st.st_dev, st.st_ino);
	return 0;
}

int cordon_unix_judge_abstract(struct cordon_unix_policy *u, const char *name, size_t len)
{
	struct diag_query q = {.abstract = true, .name = name, .name_len = len};
	if (diag_dump(u, &q, true) < 0)
		return -EPERM;
	if (q.n_socks == 0)
		return -ECONNREFUSED;
	return held_inside(u, &q) ? 0 : -EPERM;
}
