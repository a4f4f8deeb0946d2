/* A session's life on Linux, from the supervisor's side (the launcher's
 * process, which stays the session's parent): set-up, the hand-over of the
 * seccomp listener, the wait, the end. See cordon/session.h
 * (cordon_session_run) and spawn.h for the processes. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <link.h>
#include <linux/capability.h>
#include <linux/netlink.h>
#include <linux/sock_diag.h>
#include <poll.h>
#include <signal.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/signalfd.h>
#include <sys/stat.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/uio.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cordon/sandbox.h"
#include "sysnums.h"
#include "cordon/guard.h"
#include "cordon/session.h"
#include "cordon/sweep.h"
#include "cordon/wire.h"
#include "linux.h"
#include "jobstop.h"
#include "netns.h"
#include "reguard.h"
#include "spawn.h"
#include "proxy.h"
#include "ptyrelay.h"
#include "supervisor.h"
#include "ttystate.h"
#include "unixsock.h"
#include "util.h"
#include "watchwait.h"

#ifndef P_PIDFD
#define P_PIDFD 3
#endif

/* ---- the hand-over ----------------------------------------------------------- */

int cordon_session_confirm(int channel, int listener)
{
	/* The session's network namespace (netns.c): its socket diagnostics
	 * go first, to the supervisor only. */
	int diag = cordon_netns_take_diag();
	int r = 0;
	if (diag >= 0 && listener >= 0) {
		struct cordon_event_msg n = {.tag = CORDON_HANDOVER_NETNS, .value = diag};
		r = cordon_write_full(channel, &n, sizeof(n));
	}
	struct cordon_event_msg m = {
		.tag = listener >= 0 ? CORDON_HANDOVER_LISTENER : CORDON_HANDOVER_APPLIED,
		.value = listener,
	};
	if (r >= 0)
		r = cordon_write_full(channel, &m, sizeof(m));
	char ok = 0;
	if (r >= 0)
		r = cordon_read_full(channel, &ok, 1);
	/* Taken or not, this process's copy goes now: a listener left here
	 * would let the session answer its own calls. */
	if (listener >= 0)
		close(listener);
	if (diag >= 0)
		close(diag);
	if (r < 0)
		return r;
	return ok == CORDON_HANDOVER_OK ? 0 : -EPROTO;
}

void cordon_session_refuse(int channel)
{
	struct cordon_event_msg m = {.tag = CORDON_HANDOVER_FAILED};
	(void)cordon_write_full(channel, &m, sizeof(m));
}

/* ---- state --------------------------------------------------------------------- */

struct run {
	struct cordon_session *s;
	const struct cordon_launch *l;
	pid_t command;   /* its pid, once started */
	int command_fd;  /* a pidfd of it (not our child: the keeper's) */
	uint64_t userns; /* the id of its user namespace, if it made one */
	pid_t keeper;
	int keeper_fd;
	int event_r;    /* from the keeper */
	int control_w;  /* closed: the keeper ends the session */
	int chan;       /* our end of the policy channel */
	int chan_child; /* the command's end */
	int report_r;   /* errno of a failed exec */
	int listener;   /* the seccomp listener, once handed over */
	int diag;       /* its network namespace's socket diagnostics (netns.c), or -1 */
	int tty;        /* stdin's terminal, watched for the hang-up */
	int cgroup_fd;  /* the session's cgroup (O_PATH), or -1 */
	struct cordon_ttystate modes; /* the terminal's, as the session began */
	struct cordon_relay relay;    /* the session's own terminal (master -1: none) */
	int sig;                      /* signalfd: HUP INT TERM QUIT */
	int status;                   /* the command's, once it has exited */
	int stop_sig;                 /* the keeper said the command stopped (by this signal) */
	bool exited;
	bool keeper_died;
	/* A sandbox with its supervisor was asked for (not nested, the kernel
	 * has user notification, on_unsupported is not "warn"): a hand-over
	 * without the listener comes from code that is not the shim. */
	bool want_listener;
	bool direct; /* standalone: the command is our own child, no keeper */
	bool nested; /* inside another cordon session */
	/* Static (supervisor_state): the supervisor's threads use them until
	 * the process exits, after cordon_session_run has returned. */
	struct cordon_unix_policy *sockets;
	struct cordon_ipc_set *ipc; /* the session's System V objects, or NULL */
	struct cordon_meta *meta;   /* the rules for metadata and watches */
};

/* The command's end: from the keeper (one event), or (direct) our child's. */
static void take_event(struct run *r)
{
	if (r->direct) {
		siginfo_t si = {0};
		if (waitid(P_PIDFD, (id_t)r->command_fd, &si, WEXITED | WNOHANG) == 0 &&
		    si.si_pid) {
			r->status = si.si_code == CLD_EXITED ? si.si_status : 128 + si.si_status;
			r->exited = true;
		}
		return;
	}
	struct cordon_event_msg m;
	if (cordon_read_full(r->event_r, &m, sizeof(m)) < 0) {
		r->keeper_died = !r->exited;
		return;
	}
	if (m.tag == CORDON_EV_EXITED) {
		r->status = m.value;
		r->exited = true;
	}
	if (m.tag == CORDON_EV_STOPPED)
		r->stop_sig = m.value;
}

/* The fd that becomes readable when the command ends. */
static int end_fd(const struct run *r)
{
	return r->direct ? r->command_fd : r->event_r;
}

/* Its end, waited for up to MS: the keeper's words taken as they come (a
 * stop said first is not the end). */
static void take_end(struct run *r, int ms)
{
	long until = cordon_now_ms() + ms;
	do {
		long left = until - cordon_now_ms();
		struct pollfd q = {.fd = end_fd(r), .events = POLLIN};
		if (poll(&q, 1, left > 0 ? (int)left : 0) != 1)
			return;
		take_event(r);
	} while (!r->direct && !r->exited && !r->keeper_died);
}

/* The launcher's child applies the policy (a command the shim cannot enter),
 * in the command's process before its exec, with the launcher waiting. */
static int apply_here(void *arg)
{
	struct run *r = arg;
	struct cordon_error e = {0};
	int listener = -1;
	int rc = cordon_sandbox_apply(r->l->policy, &listener, &e);
	if (rc < 0) {
		cordon_say("cordon: %s\n", e.msg);
		cordon_session_refuse(r->chan_child);
		return CORDON_EXIT_FAILURE;
	}
	if (rc > 0)
		cordon_say("cordon: warning: %s\n", e.msg);
	if (cordon_session_confirm(r->chan_child, listener) < 0)
		return CORDON_EXIT_FAILURE;
	close(r->chan_child);
	return 0;
}

/* Send the frame, with the Landlock ruleset built here meanwhile. */
static void send_policy(struct run *r, const char *frame, size_t len, int ruleset)
{
	union {
		struct cmsghdr h;
		char buf[CMSG_SPACE(sizeof(int))];
	} c;
	struct iovec iov = {.iov_base = (void *)(uintptr_t)frame, .iov_len = len};
	struct msghdr m = {.msg_iov = &iov, .msg_iovlen = 1};
	if (ruleset >= 0) {
		memset(&c, 0, sizeof(c));
		m.msg_control = c.buf;
		m.msg_controllen = sizeof(c.buf);
		struct cmsghdr *h = CMSG_FIRSTHDR(&m);
		h->cmsg_level = SOL_SOCKET;
		h->cmsg_type = SCM_RIGHTS;
		h->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(h), &ruleset, sizeof(int));
	}
	for (size_t off = 0; off < len;) {
		ssize_t n = sendmsg(r->chan, &m, MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return; /* the command is gone: its exit says so next */
		off += (size_t)n;
		iov.iov_base = (char *)(uintptr_t)frame + off;
		iov.iov_len = len - off;
		m.msg_control = NULL; /* the ruleset went with the first bytes */
		m.msg_controllen = 0;
	}
}

#ifdef CORDON_TEST_HOOKS
/* Test builds: CORDON_TEST_LOOK_AWAY=1 (see struct cordon_spawn). */
static bool look_away(void)
{
	const char *v = getenv("CORDON_TEST_LOOK_AWAY");
	return v && strcmp(v, "1") == 0;
}
#endif

/* Wait for the keeper's first word: the command started. */
static int wait_started(struct run *r, struct cordon_error *err)
{
	struct cordon_event_msg m;
	int rc = cordon_read_full(r->event_r, &m, sizeof(m));
	if (rc < 0)
		return cordon_err(err, EIO, "the session keeper died before the command started");
	if (m.tag == CORDON_EV_FAILED)
		return cordon_err(err, m.value, "starting the command: %s", strerror(m.value));
	r->command = m.value;
#ifdef CORDON_TEST_HOOKS
	if (look_away())
		usleep(400 * 1000);
#endif
	r->command_fd = (int)syscall(SYS_pidfd_open, r->command, 0);
	/* ESRCH: it ended already, and the keeper reaped it (its exit is
	 * the keeper's next word). */
	if (r->command_fd < 0 && errno != ESRCH)
		return cordon_err(err, errno, "pidfd_open: %s", strerror(errno));
	return 0;
}

/* SIG for the command, by its pidfd: never a pid the kernel gave out again
 * after the keeper reaped it. Nothing once it is gone. */
static void signal_command(const struct run *r, int sig)
{
	if (r->command_fd >= 0)
		(void)syscall(SYS_pidfd_send_signal, r->command_fd, sig, NULL, 0);
}

/* SIG for the command's process group (a command in a session of its own,
 * which the terminal's keys no longer reach), while the command lives:
 * judged by its pidfd, its group is then still one of the session's. */
static void signal_group(const struct run *r, int sig)
{
	if (r->command_fd < 0 || syscall(SYS_pidfd_send_signal, r->command_fd, 0, NULL, 0) < 0)
		return;
	pid_t group = getpgid(r->command);
	if (group > 0 && group != getpgrp() && group != r->keeper &&
	    getsid(r->command) != getsid(0))
		(void)kill(-group, sig);
	else
		signal_command(r, sig);
}

/* Why a command ended before confirming: its exec failed (S->exec_errno), or
 * it ran without the sandbox (killed: say so). 1: it refused, and said why
 * (its status is the refusal's). */
static int unconfirmed(struct run *r, const char *why, struct cordon_error *err)
{
	int e = 0;
	if (r->report_r >= 0 && read(r->report_r, &e, sizeof(e)) == (ssize_t)sizeof(e) && e > 0) {
		r->s->exec_errno = e;
		return cordon_err(err, e, "%s: %s", r->l->path, strerror(e));
	}
	if (r->exited && r->status == CORDON_EXIT_FAILURE)
		return 1;
	return cordon_err(err, EPROTO,
			  "session %s: the sandbox was not confirmed (%s); session killed",
			  r->s->id, why);
}

/* The socket diagnostics the command made in its network namespace
 * (netns.c), its fd number NR: taken, and checked to be one (anything else
 * would answer who listens inside). -errno. */
static int take_diag(int command_fd, int nr)
{
	int fd = (int)syscall(SYS_pidfd_getfd, command_fd, nr, 0);
	if (fd < 0)
		return -errno;
	int domain = 0, proto = 0;
	socklen_t len = sizeof(domain);
	bool ok = getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &domain, &len) == 0 && domain == AF_NETLINK;
	len = sizeof(proto);
	ok = ok && getsockopt(fd, SOL_SOCKET, SO_PROTOCOL, &proto, &len) == 0 &&
	     proto == NETLINK_SOCK_DIAG;
	if (!ok) {
		close(fd);
		return -EPROTO;
	}
	return fd;
}

/* The hand-over: the shim (or our child) says the sandbox is in place and
 * passes the listener's number; it is taken with pidfd_getfd (the command
 * is our descendant: Yama's scope 1 allows it) and confirmed. */
static int handover(struct run *r, struct cordon_error *err)
{
	long deadline = cordon_now_ms() + r->s->ack_timeout_ms;
	struct cordon_event_msg m = {0};
	int diag = -1; /* its number in the command (CORDON_HANDOVER_NETNS) */
	size_t got = 0;
	while (got < sizeof(m)) {
		long left = deadline - cordon_now_ms();
		if (left <= 0)
			return cordon_err(err, ETIMEDOUT,
					  "session %s: the sandbox was not confirmed within %d ms; "
					  "session killed",
					  r->s->id, r->s->ack_timeout_ms);
		struct pollfd p[2] = {{.fd = r->chan, .events = POLLIN},
				      {.fd = end_fd(r), .events = POLLIN}};
		int n = poll(p, 2, (int)left);
		if (n < 0 && errno != EINTR)
			return cordon_err(err, errno, "poll: %s", strerror(errno));
		if (n <= 0)
			continue;
		if (p[0].revents) {
			ssize_t k = read(r->chan, (char *)&m + got, sizeof(m) - got);
			if (k < 0 && errno == EINTR)
				continue;
			if (k <= 0) {
				/* Closed: the command exited or exec'd without the shim. */
				take_end(r, 200);
				return unconfirmed(r, "the shim did not load", err);
			}
			got += (size_t)k;
			if (got == sizeof(m) && m.tag == CORDON_HANDOVER_NETNS && diag < 0 &&
			    m.value >= 0) {
				diag = m.value;
				got = 0; /* the listener follows */
			}
		} else if (p[1].revents) {
			take_event(r);
			if (!r->direct && !r->exited && !r->keeper_died)
				continue; /* (stopped, said the keeper) */
			return unconfirmed(r, "the command exited first", err);
		}
	}
	if (m.tag == CORDON_HANDOVER_FAILED) {
		/* Said already: its own exit status (125) is the session's. */
		take_end(r, 1000);
		if (!r->exited) {
			r->status = CORDON_EXIT_FAILURE;
			r->exited = true;
		}
		return 1;
	}
	if (m.tag == CORDON_HANDOVER_LISTENER) {
		if (r->command_fd < 0)
			return unconfirmed(r, "the command exited first", err);
		int fd = (int)syscall(SYS_pidfd_getfd, r->command_fd, m.value, 0);
		if (fd < 0)
			return cordon_err(err, errno,
					  "session %s: cannot take the supervisor's end from the "
					  "command (pidfd_getfd: %s); session killed",
					  r->s->id, strerror(errno));
		r->listener = fd;
		if (diag >= 0 && (r->diag = take_diag(r->command_fd, diag)) < 0)
			return cordon_err(err, -r->diag,
					  "session %s: cannot take its network namespace's socket "
					  "diagnostics from the command (%s); session killed",
					  r->s->id, strerror(-r->diag));
	} else if (m.tag != CORDON_HANDOVER_APPLIED) {
		return cordon_err(err, EPROTO, "session %s: unexpected hand-over; session killed",
				  r->s->id);
	} else if (r->want_listener) {
		return unconfirmed(r, "it came without the supervisor's end", err);
	}
	/* Its user namespace, while only the shim has run in it: the mark an
	 * orphaned session is found by (userns-track.c). */
	if (r->l->policy->userns_made)
		r->userns = cordon_userns_id(r->command_fd);
	char ok = CORDON_HANDOVER_OK;
	if (cordon_write_full(r->chan, &ok, 1) < 0)
		return unconfirmed(r, "the command exited first", err);
	return 0;
}

/* ---- the wait --------------------------------------------------------------------- */

static int drop_segment_pages(struct dl_phdr_info *info, size_t size, void *data)
{
	(void)size;
	(void)data;
	if (info->dlpi_name && strstr(info->dlpi_name, "vdso"))
		return 0; /* the kernel's own mapping: leave it */
	long page = sysconf(_SC_PAGESIZE);
	for (int i = 0; i < info->dlpi_phnum; i++) {
		const ElfW(Phdr) *ph = &info->dlpi_phdr[i];
		/* Only segments never written: code and read-only data. */
		if (ph->p_type != PT_LOAD || (ph->p_flags & PF_W) || page <= 0)
			continue;
		uintptr_t start = (info->dlpi_addr + ph->p_vaddr) & ~(uintptr_t)(page - 1);
		uintptr_t end =
			(info->dlpi_addr + ph->p_vaddr + ph->p_memsz + (uintptr_t)page - 1) &
			~(uintptr_t)(page - 1);
		(void)madvise((void *)start, end - start, MADV_DONTNEED);
	}
	return 0;
}

/* The supervisor waits for the whole session (hours) and needs little of
 * the code it has run: let go of the pages of every read-only segment
 * (demand-paged back from the page cache when needed; nothing is lost). */
void cordon_drop_code_pages(void)
{
	dl_iterate_phdr(drop_segment_pages, NULL);
}

/* The session in the registry, before anything of the command's runs:
 * listed 20 ms in (to spare short commands the write), a server a session
 * started in the shared TMPDIR was a server of nobody's to a session
 * started meanwhile, which removed it (a flaky test under load:
 * tmpdir::a_server_of_another_session_keeps_its_name). The write costs
 * about 0.1 ms. */
static void list_session(struct run *r)
{
	struct cordon_session_info info = {.shell = r->command,
					   .watcher = getpid(),
					   .keeper = r->keeper,
					   .started = (long long)time(NULL),
					   .userns = r->userns};
	snprintf(info.id, sizeof(info.id), "%s", r->s->id);
	snprintf(info.cgroup, sizeof(info.cgroup), "%s", r->s->cgroup ? r->s->cgroup : "");
	snprintf(info.project, sizeof(info.project), "%s",
		 r->l->policy->project ? r->l->policy->project : "");
	snprintf(info.sockets, sizeof(info.sockets), "%s",
		 r->l->policy->sandbox && r->l->policy->socket_dir ? r->l->policy->socket_dir : "");
	snprintf(info.tmpdir, sizeof(info.tmpdir), "%s",
		 r->l->policy->sandbox && r->l->policy->tmp_id ? r->l->policy->tmp_id : "");
	struct cordon_error e = {0};
	/* Inside another session the registry is read-only: the outer
	 * session is listed, and ending it ends this one. */
	if (r->nested)
		(void)cordon_registry_write(&info, &e);
	else
		cordon_list_session(&info);
}

/* The main stack below this frame given back to the system: the launch
 * went deep (the policy, the plans, the sweep's snapshot: ~150 KiB of it
 * stays resident), and the wait that follows needs a few pages (what it
 * touches again comes back zeroed, as below the stack pointer it is
 * dead). */
static void trim_stack(void)
{
	char maps[16384];
	int fd = open("/proc/self/maps", O_RDONLY | O_CLOEXEC);
	ssize_t n = fd >= 0 ? read(fd, maps, sizeof(maps) - 1) : -1, got;
	while (fd >= 0 && n > 0 && (size_t)n < sizeof(maps) - 1 &&
	       (got = read(fd, maps + n, sizeof(maps) - 1 - (size_t)n)) > 0)
		n += got;
	if (fd >= 0)
		close(fd);
	/* (The main thread's alone: [stack] is its.) */
	if (n <= 0 || syscall(SYS_gettid) != getpid())
		return;
	maps[n] = '\0';
	char *line = strstr(maps, " [stack]");
	while (line && line > maps && line[-1] != '\n')
		line--;
	unsigned long lo = line ? strtoul(line, NULL, 16) : 0;
	long page = sysconf(_SC_PAGESIZE);
	uintptr_t sp = (uintptr_t)__builtin_frame_address(0);
	uintptr_t keep = (sp & ~((uintptr_t)page - 1)) - 8 * (uintptr_t)page;
	if (lo && page > 0 && keep > lo && keep < sp)
		(void)madvise((void *)lo, keep - lo, MADV_DONTNEED);
}

/* The job stops (^Z, or the kernel's SIGTTIN or SIGTTOU to our process
 * group): the session held first (jobstop.h), then we stop as the signal
 * would have stopped us (not where our group is orphaned: the kernel drops
 * it then), and as we go on, so does it. */
static void job_stop(struct run *r, int sig)
{
	struct cordon_jobstop j = {
		.cgroup_fd = r->cgroup_fd, .cmd_fd = r->command_fd, .relay = &r->relay};
	cordon_jobstop_stop(&j, r->sockets, sig);
	/* A command held in the middle of stopping itself (top's ^Z: its
	 * handler then raises SIGSTOP) missed the shell's SIGCONT, which came
	 * while it was held, and stops as it goes on (round 59h M2): the
	 * job's group is continued again once, as the shell's fg would. */
	for (int i = 0; i < 10 && r->command > 0; i++) {
		char state = cordon_proc_state(r->command);
		if (state == 'T') {
			(void)kill(-getpgrp(), SIGCONT);
			break;
		}
		nanosleep(&(struct timespec){0, 5L * 1000L * 1000L}, NULL);
	}
}

/* The terminal is gone: the command first hears of it as a shell would,
 * then the whole session ends. */
static void hang_up(struct run *r)
{
	if (r->exited)
		return;
	signal_command(r, SIGHUP);
	take_end(r, 100);
	if (!r->exited) {
		r->status = 128 + SIGHUP;
		r->exited = true;
	}
}

/* Until the command exits, the terminal hangs up or the keeper dies; the
 * terminating signals sent to us go on to the command. */
static void wait_for_end(struct run *r)
{
	long list_at = cordon_now_ms() + CORDON_CONFIRM_DELAY_MS;
	bool listed = false;
	while (!r->exited && !r->keeper_died) {
		struct pollfd p[6] = {{.fd = end_fd(r), .events = POLLIN},
				      {.fd = r->keeper_fd, .events = POLLIN},
				      {.fd = r->tty, .events = 0},
				      {.fd = r->sig, .events = POLLIN}};
		/* (Held keys whose time came go in first: then the user's
		 * terminal is read again.) */
		int held = cordon_relay_timeout(&r->relay);
		cordon_relay_poll(&r->relay, &p[4]);
		int timeout =
			listed ? -1
			       : (int)(list_at - cordon_now_ms() > 0 ? list_at - cordon_now_ms()
								     : 0);
		/* In the background, the foreground is looked at now and then
		 * (a shell's fg need not send SIGCONT to a job that runs). */
		if (r->relay.input && !r->relay.raw && (timeout < 0 || timeout > 500))
			timeout = 500;
		/* With no process holding the session's terminal, it is looked
		 * at again now and then (one may open it again: /dev/tty). */
		if (r->relay.hung && (timeout < 0 || timeout > 250))
			timeout = 250;
		if (held >= 0 && (timeout < 0 || timeout > held))
			timeout = held;
		int n = poll(p, 6, timeout);
		if (n < 0 && errno != EINTR)
			break;
		if (!listed && cordon_now_ms() >= list_at) {
			listed = true;
			cordon_drop_code_pages();
			trim_stack();
		}
		if (n == 0 && r->relay.input && !r->relay.raw)
			cordon_relay_resume(&r->relay);
		if (n == 0)
			r->relay.hung = false;
		if (n <= 0)
			continue;
		cordon_relay_pump(&r->relay, &p[4]);
		if (p[0].revents)
			take_event(r);
		if (p[1].revents && !r->exited) {
			/* The keeper is gone: the command died with it. */
			take_end(r, 0);
			r->keeper_died = !r->exited;
		}
		if (p[2].revents & (POLLHUP | POLLERR | POLLNVAL))
			hang_up(r);
		if (p[3].revents) {
			struct signalfd_siginfo si;
			while (read(r->sig, &si, sizeof(si)) == (ssize_t)sizeof(si)) {
				if (si.ssi_signo == SIGTSTP || si.ssi_signo == SIGTTIN ||
				    si.ssi_signo == SIGTTOU) {
					job_stop(r, (int)si.ssi_signo);
					continue;
				}
				if (si.ssi_signo == SIGWINCH) {
					cordon_relay_resize(&r->relay);
					continue;
				}
				if (si.ssi_signo == SIGCONT) { /* fg, or bg */
					cordon_relay_resume(&r->relay);
					continue;
				}
				if (si.ssi_signo == SIGUSR1) { /* cordon kill */
					r->status = 128 + SIGKILL;
					r->exited = true;
					continue;
				}
				/* (Being ended: what it writes in the background of a
				 * tostop terminal is dropped, not stopped for again,
				 * as a writer outside would die with it: kill %1.) */
				r->relay.tostopped = true;
				/* The terminal hung up (the kernel's SIGHUP to the
				 * session leader or the foreground group; round 59a
				 * F3: with no terminal to poll, it only went on to
				 * the command, which ignored it): the session ends. */
				if (si.ssi_signo == SIGHUP && si.ssi_code == SI_KERNEL &&
				    !cordon_hangup_ignored()) {
					hang_up(r);
					continue;
				}
				/* Sent by a process (kill): for the command. From the
				 * terminal (^C, ^\): the command's group had it
				 * already, unless it left our session (ptyrelay.h):
				 * then its group gets it from us. */
				if (si.ssi_code != SI_KERNEL)
					signal_command(r, (int)si.ssi_signo);
				else if (r->relay.detach)
					signal_group(r, (int)si.ssi_signo);
			}
		}
		/* (After the signals: a ^Z stops the job once, there.) */
		if (r->stop_sig && !r->exited && !r->keeper_died) {
			struct cordon_jobstop j = {.cgroup_fd = r->cgroup_fd,
						   .cmd_fd = r->command_fd,
						   .relay = &r->relay};
			int sig = r->stop_sig;
			r->stop_sig = 0;
			(void)cordon_jobstop_follow(&j, r->sockets, r->command,
						    r->relay.master >= 0 ? r->relay.master : r->tty,
						    sig);
		}
	}
}

/* Every process that came to us as their subreaper (standalone mode, or
 * the keeper died): kill and reap until none is left (true), or give up
 * after some ten seconds (false). Orphans hang on any thread of the
 * subreaper: every task's children are read. */
static bool kill_descendants(void)
{
	for (int round = 0; round < 10000; round++) {
		pid_t *pids = NULL;
		size_t n = 0;
		int any = 0;
		if (cordon_unix_session_pids(&(struct cordon_unix_policy){.root = getpid()}, &pids,
					     &n) == 0) {
			for (size_t i = 0; i < n; i++)
				kill(pids[i], SIGKILL);
			any = n > 0;
			free(pids);
		}
		while (waitpid(-1, NULL, WNOHANG | __WALL) > 0)
			any = 1;
		if (!any && waitpid(-1, NULL, WNOHANG | __WALL) < 0 && errno == ECHILD)
			return true;
		if (!any)
			usleep(1000);
	}
	return false;
}

/* Whether the keeper, told to end the session, says that every process
 * of it is gone (CORDON_EV_GONE; an EOF alone is a keeper that was killed,
 * or gave up). Waited for as long as the keeper tries: what the sweep
 * judges after must not change under it (a review kept fork chains alive
 * past a 10 s wait on a loaded machine, and one armed a repository right
 * after the sweep). Said after 10 s. */
static bool keeper_done(struct run *r)
{
	long said_at = cordon_now_ms() + 10000;
	while (r->event_r >= 0 && r->keeper_fd >= 0) {
		long left = said_at - cordon_now_ms();
		struct pollfd p = {.fd = r->event_r, .events = POLLIN};
		int n = poll(&p, 1, said_at && left > 0 ? (int)left : said_at ? 0 : -1);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0)
			return false;
		if (n == 0) {
			static const char slow[] = "cordon: the session's processes take long to "
						   "end: waiting for them before cordon looks at "
						   "the project\n";
			said_at = 0;
			cordon_closing_line();
			(void)!write(STDERR_FILENO, slow, sizeof(slow) - 1);
			continue;
		}
		struct cordon_event_msg m;
		if (cordon_read_full(r->event_r, &m, sizeof(m)) < 0)
			return false;
		if (m.tag == CORDON_EV_GONE)
			return true;
	}
	return false;
}

/* The end: the keeper kills every process of the session and removes its
 * cgroup, record and socket directory; we need not wait for it (the
 * command's status is known), so the caller has it at once, unless it
 * asked to (wait_end: the keeper exits once it has reaped them all). Only
 * when the keeper itself is gone do we do it all here. */
static void end_session(struct run *r)
{
	if (r->control_w >= 0 && !r->keeper_died) {
		/* Told in words, so that it can tell this from our death (the
		 * pipe closing alone). */
		(void)!write(r->control_w, "E", 1);
		close(r->control_w);
		r->control_w = -1;
		if (!r->s->wait_end)
			return;
		r->s->ended = keeper_done(r);
		/* A keeper killed meanwhile left its orphans to us. */
		struct pollfd k = {.fd = r->keeper_fd, .events = POLLIN};
		if (!r->s->ended && r->keeper_fd >= 0 && poll(&k, 1, 0) > 0)
			r->s->ended = kill_descendants();
		return;
	}
	r->s->ended = kill_descendants();
	cordon_ipc_remove_all(r->ipc);
	struct cordon_error e = {0};
	if (r->s->cgroup && cordon_cgroup_destroy(r->s->cgroup, &e) < 0)
		cordon_say("cordon: session %s: cleanup failed: %s\n", r->s->id, e.msg);
	cordon_registry_remove(r->s->id);
	if (r->l->policy->sandbox && r->l->policy->socket_dir)
		cordon_remove_tree(r->l->policy->socket_dir);
}

/* ---- set-up ------------------------------------------------------------------------ */

/* P's rule on PATH exactly (rules are merged by path: one at most), or
 * NULL. */
static struct cordon_rule *rule_at(struct cordon_policy *p, const char *path)
{
	for (size_t i = 0; path && i < p->n_rules; i++)
		if (strcmp(p->rules[i].path, path) == 0)
			return &p->rules[i];
	return NULL;
}

/* RULE shared as the shared directories' are (no socket, link or move in:
 * platform.c), and so built by the shim, not the watcher. */
static void mark_shared(struct cordon_rule *rule)
{
	rule->shared = true;
	rule->prepared = false;
}

/* A start that failed: the session's socket directory removed (still
 * empty), and its lock closed. */
static void unmake_dirs(const char *sockdir, int socket_lock)
{
	if (sockdir)
		(void)rmdir(sockdir);
	if (socket_lock >= 0)
		close(socket_lock);
}

static int fd_above_stdio(int fd)
{
	if (fd < 0 || fd > STDERR_FILENO)
		return fd;
	int hi = fcntl(fd, F_DUPFD_CLOEXEC, 3);
	close(fd);
	return hi;
}

static int start_tracking(struct cordon_session *s, enum cordon_tracking want, int *cgroup_fd,
			  struct cordon_error *err)
{
	*cgroup_fd = -1;
	s->mode = CORDON_TRACKING_SUBREAPER;
	if (want != CORDON_TRACKING_SUBREAPER) {
		struct cordon_error e = {0};
		int r = cordon_cgroup_create(s->id, &s->cgroup, &e);
		if (r >= 0) {
			*cgroup_fd = open(s->cgroup, O_PATH | O_DIRECTORY | O_CLOEXEC);
			if (*cgroup_fd < 0) {
				r = cordon_err(&e, errno, "%s: %s", s->cgroup, strerror(errno));
				(void)rmdir(s->cgroup);
				free(s->cgroup);
				s->cgroup = NULL;
			}
		}
		if (r >= 0)
			s->mode = CORDON_TRACKING_CGROUP;
		else if (want == CORDON_TRACKING_CGROUP)
			return cordon_err(err, -r, "%s", e.msg);
	}
	/* Orphans come to the keeper; should it die, to us. */
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0)
		return cordon_err(err, errno, "PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	return 0;
}

static int block_signals(struct run *r, struct cordon_error *err)
{
	sigset_t set;
	sigemptyset(&set);
	sigaddset(&set, SIGHUP);
	sigaddset(&set, SIGINT);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGQUIT);
	sigaddset(&set, SIGUSR1); /* cordon kill: end the session */
	sigaddset(&set, SIGTSTP); /* the job stops: job_stop */
	sigaddset(&set, SIGTTIN);
	sigaddset(&set, SIGTTOU);
	sigaddset(&set, SIGWINCH); /* the relay's: the size copied */
	sigaddset(&set, SIGCONT);  /* the relay's: raw again in the foreground */
	if (sigprocmask(SIG_BLOCK, &set, NULL) < 0 ||
	    (r->sig = signalfd(-1, &set, SFD_CLOEXEC | SFD_NONBLOCK)) < 0)
		return cordon_err(err, errno, "signalfd: %s", strerror(errno));
	return 0;
}

static void env_free(char **env, char *owned)
{
	free(owned); /* CORDON_CONFIG_FD=N, or NULL */
	free(env);
}

/* The command's environment: L's, with CORDON_CONFIG_FD for the shim (in
 * *OWNED) and, by domain, the proxy's variables in place of any the
 * environment had (PROXY: its address, or NULL). */
static char **command_env(const struct cordon_launch *l, int chan_child,
			  const struct sockaddr_in *proxy, char **owned)
{
	char **env = cordon_proxy_environ(l->envp, proxy, 1);
	if (!env)
		return NULL;
	size_t k = 0;
	while (env[k])
		k++;
	*owned = NULL;
	if (l->preload && asprintf(owned, CORDON_ENV_CONFIG_FD "=%d", chan_child) < 0) {
		free(env);
		*owned = NULL;
		return NULL;
	}
	env[k] = *owned;
	return env;
}

static void run_free(struct run *r)
{
	int *fds[] = {&r->command_fd, &r->keeper_fd,  &r->event_r,  &r->control_w,
		      &r->chan,       &r->chan_child, &r->report_r, &r->listener,
		      &r->tty,        &r->sig,        &r->diag};
	for (size_t i = 0; i < ARRAY_SIZE(fds); i++)
		if (*fds[i] >= 0) {
			close(*fds[i]);
			*fds[i] = -1;
		}
}

/* One session per process: what its supervisor's threads read. */
static struct cordon_unix_policy supervisor_sockets;
static struct cordon_meta supervisor_meta;

int cordon_session_run(struct cordon_session *s, enum cordon_tracking want,
		       const struct cordon_launch *l, int *status, struct cordon_error *err)
{
	if (s->ack_timeout_ms <= 0)
		s->ack_timeout_ms = 5000;
	s->exec_errno = 0;
	s->ended = true; /* until the keeper starts: nothing of it runs */
	struct run r = {.s = s,
			.l = l,
			.sockets = &supervisor_sockets,
			.meta = &supervisor_meta,
			.command_fd = -1,
			.keeper_fd = -1,
			.event_r = -1,
			.control_w = -1,
			.chan = -1,
			.chan_child = -1,
			.report_r = -1,
			.listener = -1,
			.diag = -1,
			.tty = -1,
			.cgroup_fd = -1,
			.modes = {.fd = -1},
			.relay = {.user = -1, .master = -1, .slave = -1},
			.sig = -1};
	bool sandbox = l->policy->sandbox;
	int cgroup_fd = -1, event[2] = {-1, -1}, control[2] = {-1, -1}, report[2] = {-1, -1};
	int chan[2] = {-1, -1}, self = -1, registry_fd = -1, cgroup_parent_fd = -1, rc;
	int socket_lock = -1;
	char **env = NULL, *env_owned = NULL;
	cleanup_free char *frame = NULL;
	struct sockaddr_in proxy = {0};
	bool domains = sandbox && l->policy->domains && l->policy->allow_network;
	cleanup_free char *regdir = NULL;
	size_t frame_len = 0;

	const char *sockdir = sandbox ? l->policy->socket_dir : NULL;
	if (sockdir) {
		/* Held (shared) by us and the keeper to the end. */
		if ((socket_lock = cordon_socket_dir_make(sockdir, err)) < 0)
			return socket_lock;
		if (cordon_policy_add_rule(l->policy, sockdir,
					   CORDON_ACCESS_READ | CORDON_ACCESS_WRITE,
					   CORDON_SOCKETS_SOURCE) < 0) {
			unmake_dirs(sockdir, socket_lock);
			return cordon_err(err, ENOMEM, "out of memory");
		}
	}
	const char *tmpdir = sandbox ? l->policy->tmp_dir : NULL;
	char tmp_id[4200] = "";
	int alone = tmpdir ? cordon_tmp_dir_make(tmpdir, tmp_id, err) : 1;
	if (alone >= 0 && tmpdir) {
		free(l->policy->tmp_id);
		if (!(l->policy->tmp_id = strdup(tmp_id)))
			alone = cordon_err(err, ENOMEM, "out of memory");
	}
	if (alone < 0) {
		unmake_dirs(sockdir, socket_lock);
		return alone;
	}
	if (tmpdir && cordon_policy_add_rule(l->policy, tmpdir, CORDON_ACCESS_ALL,
					     CORDON_TMPDIR_SOURCE) < 0) {
		unmake_dirs(sockdir, socket_lock);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	/* A project in a shared directory (/tmp/x), while other sessions of
	 * the user's run: they could move it, with its sockets, to where a
	 * client outside looks (they pin it only when they start after it:
	 * guard.c pin_others), so it takes no socket or link this time
	 * (pinned all the same). Review 43d F1. */
	struct cordon_rule *rule = sandbox ? rule_at(l->policy, l->policy->project) : NULL;
	int live = 0;
	if (rule && !rule->shared && cordon_policy_in_shared(l->policy, rule->path, false) &&
	    (live = cordon_registry_any_live(s->id)) != 0) {
		mark_shared(rule);
		char why[160] = "other sessions of yours run, which could move it";
		if (live < 0)
			snprintf(
				why, sizeof(why),
				"which sessions of yours run cannot be told (%s): one could move it",
				strerror(-live));
		fprintf(stderr,
			"cordon: the project %s lies in a directory every user shares, and %s: no "
			"socket or symbolic link is made in it this time (keep projects out of "
			"/tmp, or run this one alone)\n",
			rule->path, why);
	}
	/* Made again while sessions ran that pin the one removed: they could
	 * move this one, so it takes no socket or link for now (pinned all
	 * the same: guard.c in_shared). Review 43c F2. */
	if (alone != 1 && (rule = rule_at(l->policy, tmpdir))) {
		mark_shared(rule);
		fprintf(stderr,
			alone == 2
				? "cordon: %s was made now, and which sessions of yours run cannot "
				  "be told: an earlier one may not keep it in place, so no socket "
				  "or symbolic link is made in it this time\n"
				: "cordon: %s was removed and made again while other sessions "
				  "ran, which do not keep it in place: no socket or symbolic link "
				  "is made in it until they end\n",
			tmpdir);
	}
	if ((rc = start_tracking(s, want, &cgroup_fd, err)) < 0) {
		unmake_dirs(sockdir, socket_lock);
		return rc;
	}
	r.cgroup_fd = cgroup_fd;
	if (l->verbose)
		cordon_say("cordon: session %s: tracked by %s%s\n", s->id,
			   s->mode == CORDON_TRACKING_CGROUP ? "cgroup " : "a subreaper keeper",
			   s->cgroup ? s->cgroup : "");
	/* The keeper follows us, and we the command, by pidfd. */
	if ((self = (int)syscall(SYS_pidfd_open, getpid(), 0)) < 0) {
		rc = cordon_err(err, errno,
				"pidfd_open: %s (Linux 5.3+ is needed to follow the session)",
				strerror(errno));
		goto fail;
	}
	if (pipe2(event, O_CLOEXEC) < 0 || pipe2(control, O_CLOEXEC) < 0 ||
	    pipe2(report, O_CLOEXEC) < 0 ||
	    (sandbox && socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, chan) < 0)) {
		rc = cordon_err(err, errno, "setting up the session: %s", strerror(errno));
		goto fail;
	}
	/* Shared with the keeper, which removes what is in it at the end: never
	 * unmapped here (with CLONE_VM that would unmap it for the keeper). */
	if (sandbox && !(r.ipc = cordon_ipc_set_new())) {
		rc = cordon_err(err, errno, "setting up the session: mmap: %s", strerror(errno));
		goto fail;
	}
	/* A terminal of its own (ptyrelay.h), named in its rules in place of
	 * the user's, which it never holds. */
	if (sandbox && l->policy->own_terminal) {
		if ((rc = cordon_relay_open(&r.relay, err)) < 0)
			goto fail;
		if (r.relay.master >= 0 &&
		    cordon_policy_add_rule(l->policy, r.relay.name,
					   CORDON_ACCESS_READ | CORDON_ACCESS_WRITE,
					   "the session's terminal") < 0) {
			rc = cordon_err(err, ENOMEM, "out of memory");
			goto fail;
		}
	}
	r.event_r = event[0];
	r.control_w = control[1];
	r.report_r = report[0];
	r.chan = chan[0];
	r.chan_child = chan[1] = fd_above_stdio(chan[1]);
	/* By domain: the proxy first, its address goes into the environment. */
	if (domains && (rc = cordon_proxy_start(l->policy, l->learn_sup_fd, &proxy, err)) < 0)
		goto fail;
	if (domains && l->verbose)
		cordon_say("cordon: session %s: network by domain, through cordon's proxy on "
			   "127.0.0.1:%u\n",
			   s->id, (unsigned)ntohs(proxy.sin_port));
	if (!(env = command_env(l, r.chan_child, domains ? &proxy : NULL, &env_owned))) {
		rc = cordon_err(err, ENOMEM, "out of memory");
		goto fail;
	}
	/* Where the keeper cleans up if we are killed. */
	char record[64];
	snprintf(record, sizeof(record), "%s.json", s->id);
	struct cordon_error ignored;
	if (cordon_registry_dir(&regdir, &ignored) == 0)
		registry_fd = open(regdir, O_PATH | O_DIRECTORY | O_CLOEXEC);
	const char *leaf = s->cgroup ? strrchr(s->cgroup, '/') : NULL;
	if (leaf) {
		char parent[PATH_MAX];
		snprintf(parent, sizeof(parent), "%.*s", (int)(leaf - s->cgroup), s->cgroup);
		cgroup_parent_fd = open(parent, O_PATH | O_DIRECTORY | O_CLOEXEC);
	}
	/* Root: the command starts in its mount namespace, which the shim
	 * then sets up (mountns.c). Its executable is that namespace's file,
	 * which the read-only view covers; one exec'd before an unshare would
	 * stay the host's (chmod /proc/self/exe). */
	bool sysadmin = cordon_effective_cap(CAP_SYS_ADMIN) == 1;
	bool nested = sandbox && cordon_sandbox_nested();
	r.nested = nested;
	l->policy->mountns_made = sandbox && (sysadmin || (geteuid() != 0 && !nested));
	struct cordon_support sup;
	cordon_sandbox_probe(&sup);
	r.want_listener = sandbox && !nested && sup.notify &&
			  cordon_sandbox_needs_supervisor(&sup) &&
			  l->policy->on_unsupported != CORDON_UNSUPPORTED_WARN;
	/* An ordinary user: in a user namespace of its own, made by the same
	 * clone (the shim would otherwise unshare one after the exec). */
	l->policy->userns_made = l->policy->mountns_made && !sysadmin;
	struct cordon_spawn sp = {
		.cgroup_parent_fd = cgroup_parent_fd,
		.cgroup_name = leaf ? leaf + 1 : NULL,
		.registry_fd = registry_fd,
		.record = record,
		.socket_dir = sockdir,
		.socket_lock_fd = socket_lock,
		.ipc = r.ipc,
		.path = l->path,
		.argv = l->argv,
		.envp = env,
		.keep = {l->preload ? r.chan_child : -1, l->learn_fd, l->preload ? l->shim_fd : -1},
		.hold = !l->preload ? r.chan_child : -1,
		.detach = r.relay.detach,
		.tty = r.relay.slave,
		.tty_std = r.relay.std,
		.tty_ctty = r.relay.input,
		.tty_user = r.relay.user,
		.tty_raw = &r.relay.raw,
		.tty_modes = &r.relay.modes,
		.sigpipe_ignored = l->sigpipe_ignored,
		.apply = sandbox && !l->preload ? apply_here : NULL,
		.apply_arg = &r,
		.cgroup_fd = cgroup_fd,
		.newns = l->policy->mountns_made,
		.newuser = l->policy->userns_made,
#ifdef CORDON_TEST_HOOKS
		.refuse_userns = getenv("CORDON_TEST_REFUSE_USERNS") &&
				 strcmp(getenv("CORDON_TEST_REFUSE_USERNS"), "1") == 0,
		.look_away = look_away(),
#endif
		.report_w = report[1],
		.event_w = event[1],
		.control_r = control[0],
		.parent_fd = self,
	};
	snprintf(sp.uid_map, sizeof(sp.uid_map), "%u %u 1\n", (unsigned)geteuid(),
		 (unsigned)geteuid());
	snprintf(sp.gid_map, sizeof(sp.gid_map), "%u %u 1\n", (unsigned)getegid(),
		 (unsigned)getegid());
	for (size_t i = 3; i < ARRAY_SIZE(sp.keep); i++)
		sp.keep[i] = i - 3 < l->n_pass_fds ? l->pass_fds[i - 3] : -1;
	if (l->n_pass_fds > ARRAY_SIZE(sp.keep) - 3) {
		rc = cordon_err(err, EINVAL, "--pass-fd: at most %zu", ARRAY_SIZE(sp.keep) - 3);
		goto fail;
	}
	/* The frame first: the keeper shares this memory and the command's
	 * copy of it is taken any moment now. */
	if (sandbox && l->preload && cordon_wire_encode(l->policy, &frame, &frame_len, err) < 0) {
		rc = -ENOMEM;
		goto fail;
	}
	/* (Before anything of the command's runs.) */
	cordon_ttystate_save(&r.modes);
	r.keeper = cordon_spawn_keeper(&sp, &r.keeper_fd);
	if (r.keeper < 0) {
		cordon_ttystate_restore(&r.modes);
		rc = cordon_err(err, -r.keeper, "starting the session keeper: %s",
				strerror(-r.keeper));
		goto fail;
	}
	s->ended = false;
	/* The keeper's and the command's ends are theirs now. */
	close(event[1]);
	close(control[0]);
	close(report[1]);
	close(self);
	event[1] = control[0] = report[1] = -1;

	int ruleset = -1;
	if (sandbox && l->preload) {
		/* While the command's loader runs: the ruleset, built here. */
		ruleset = cordon_sandbox_prepare(l->policy);
		if (ruleset >= 0) {
			char *marked = NULL;
			size_t mlen;
			if (cordon_wire_encode(l->policy, &marked, &mlen, err) == 0) {
				free(frame);
				frame = marked;
				frame_len = mlen;
			} else {
				close(ruleset);
				ruleset = -1;
			}
		}
	}
	/* For a command that applies the policy before exec, this waits with
	 * nothing else running: its copy of our memory must be whole. */
	rc = wait_started(&r, err);
	if (rc >= 0 && sandbox && l->preload)
		send_policy(&r, frame, frame_len, ruleset);
	if (ruleset >= 0)
		close(ruleset);
	if (r.chan_child >= 0) {
		close(r.chan_child);
		r.chan_child = -1;
	}
	/* (The command has the slave now.) */
	cordon_relay_start(&r.relay);
	if (rc >= 0 && (rc = block_signals(&r, err)) >= 0)
		r.tty = cordon_tty_watch_fd();
	/* While the command's loader runs: the supervisor's threads and the
	 * allowed sockets, pinned. */
	if (rc >= 0 && sandbox && (rc = cordon_supervisor_prepare(err)) >= 0)
		rc = cordon_unix_policy_init(r.sockets, l->policy, s->cgroup, r.keeper, err);
	if (rc >= 0 && sandbox)
		rc = cordon_meta_init(r.meta, l->policy, err);
	bool refused = false;
	/* The watch's instance, before anything of the command's own runs
	 * (it waits in the hand-over): it could use up the user's first. */
	if (rc >= 0 && sandbox && r.command > 0)
		rc = cordon_reguard_prepare(err);
	if (rc >= 0 && sandbox && (rc = handover(&r, err)) == 1)
		refused = s->refused = true; /* said why; it exits with 125 */
	/* For learn: the command runs sandboxed (what ended earlier has
	 * nothing to learn from). */
	if (rc >= 0 && !refused && sandbox && l->learn_sup_fd >= 0)
		(void)!write(l->learn_sup_fd, CORDON_LEARN_STARTED, strlen(CORDON_LEARN_STARTED));
	if (rc >= 0 && !refused && r.listener >= 0) {
		cordon_unix_policy_netns(r.sockets, r.diag);
		r.diag = -1;
		struct cordon_supervisor_config cfg = {.listener = r.listener,
						       .allow_network = l->policy->allow_network,
						       .domains = domains,
						       .proxy = proxy,
						       .sockets = r.sockets,
						       .learn_fd = l->learn_sup_fd,
						       .ipc = r.ipc,
						       .meta = r.meta};
		cordon_supervisor_start(&cfg);
	}
	/* The guards a save outside may end, put back while it runs. */
	if (rc >= 0 && !refused && sandbox)
		(void)cordon_reguard_start(l->policy, r.command, l->ways, l->sweep, l->standins);
	/* A hand-over refused, or failed: the command, which waits for our
	 * word on the channel, is killed before the channel closes (closed
	 * first, code that confirmed without a sandbox read its end and ran
	 * on until the session's end killed it: a forged confirmation's touch
	 * landed; round 39e H2, a forged "failed"). */
	if (rc < 0 || refused) {
		signal_command(&r, SIGKILL);
	} else if (r.chan >= 0) {
		list_session(&r);
		close(r.chan);
		r.chan = -1;
	}
	/* While the command runs, off its path: the cgroups killed sessions
	 * left beside ours. */
	if (rc >= 0 && s->cgroup)
		(void)cordon_cgroup_sweep(s->cgroup, CORDON_SWEEP_AGE_S);
	if (rc >= 0 && sockdir)
		(void)cordon_socket_dirs_sweep(sockdir, CORDON_SWEEP_AGE_S);
	if (rc >= 0 && !refused)
		wait_for_end(&r);
	cordon_relay_end(&r.relay);
	cordon_say_after_session();
	/* A command sandboxed before its exec confirms first: its exec can
	 * still fail afterwards. */
	int e = 0;
	if (rc >= 0 && r.exited && r.status == 127 && r.report_r >= 0 &&
	    read(r.report_r, &e, sizeof(e)) == (ssize_t)sizeof(e) && e > 0) {
		s->exec_errno = e;
		rc = cordon_err(err, e, "%s: %s", l->path, strerror(e));
	}
	if (r.keeper_died)
		cordon_say("cordon: session %s: its keeper process was killed; session ended\n",
			   s->id);
	cordon_reguard_stop();
	end_session(&r);
	cordon_ttystate_restore(&r.modes);
	env_free(env, env_owned);
	run_free(&r);
	if (cgroup_fd >= 0)
		close(cgroup_fd);
	if (cgroup_parent_fd >= 0)
		close(cgroup_parent_fd);
	if (registry_fd >= 0)
		close(registry_fd);
	if (socket_lock >= 0)
		close(socket_lock);
	if (rc < 0)
		return rc;
	*status = r.exited ? r.status : 128 + SIGKILL;
	return 0;

fail:
	cordon_relay_end(&r.relay);
	for (int i = 0; i < 2; i++) {
		int *fds[] = {&event[i], &control[i], &report[i], &chan[i]};
		for (size_t k = 0; k < ARRAY_SIZE(fds); k++)
			if (*fds[k] >= 0)
				close(*fds[k]);
	}
	if (self >= 0)
		close(self);
	if (cgroup_fd >= 0)
		close(cgroup_fd);
	if (cgroup_parent_fd >= 0)
		close(cgroup_parent_fd);
	if (registry_fd >= 0)
		close(registry_fd);
	if (socket_lock >= 0)
		close(socket_lock);
	if (s->cgroup) {
		(void)rmdir(s->cgroup);
		free(s->cgroup);
		s->cgroup = NULL;
	}
	if (sockdir)
		cordon_remove_tree(sockdir);
	env_free(env, env_owned);
	return rc;
}

/* ---- standalone mode ------------------------------------------------------------------ */

int cordon_session_supervise_fork(const struct cordon_policy *p, int *channel,
				  struct cordon_error *err)
{
	/* By domain, the proxy is the launcher's: started before the
	 * environment is made, which here is already the program's. */
	if (p->sandbox && p->domains && p->allow_network)
		return cordon_err(err, ENOTSUP,
				  "allowed_domains needs the launcher: start the shell with "
				  "`cordon run` rather than LD_PRELOAD alone");
	/* A thread an earlier constructor started would go on in the parent,
	 * outside the sandbox, for the whole session. */
	int rc = cordon_single_threaded(err);
	if (rc < 0)
		return rc;
	/* The protected directories that are missing, made and held here,
	 * for as long as this process supervises, as the launcher does. */
	struct cordon_placeholders held = {0};
	struct cordon_sweep sweep = {0};
	rc = cordon_sweep_start(p, &held, &sweep, err);
	if (rc < 0) {
		cordon_sweep_cancel(&sweep);
		return rc;
	}
	int chan[2];
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, chan) < 0) {
		cordon_placeholders_release(&held, true, NULL);
		cordon_sweep_cancel(&sweep);
		return cordon_err(err, errno, "socketpair: %s", strerror(errno));
	}
	if (prctl(PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0) < 0) {
		cordon_placeholders_release(&held, true, NULL);
		cordon_sweep_cancel(&sweep);
		close(chan[0]);
		close(chan[1]);
		return cordon_err(err, errno, "PR_SET_CHILD_SUBREAPER: %s", strerror(errno));
	}
	pid_t parent = getpid();
	struct cordon_ttystate modes;
	cordon_ttystate_save(&modes);
	pid_t pid = fork();
	if (pid < 0) {
		int e = errno;
		cordon_ttystate_restore(&modes);
		close(chan[0]);
		close(chan[1]);
		cordon_placeholders_release(&held, true, NULL);
		cordon_sweep_cancel(&sweep);
		return cordon_err(err, e, "fork: %s", strerror(e));
	}
	if (pid == 0) {
		/* The program goes on here, sandboxed; it dies with its supervisor. */
		prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
		if (getppid() != parent)
			_exit(CORDON_EXIT_FAILURE);
		cordon_placeholders_forget(&held);
		cordon_sweep_free(&sweep);
		if (modes.fd >= 0)
			close(modes.fd);
		close(chan[0]);
		*channel = chan[1];
		return 0;
	}
	/* The supervisor: this process, the terminal's child, until the end. */
	close(chan[1]);
	struct cordon_session s = {.ack_timeout_ms = 5000};
	snprintf(s.id, sizeof(s.id), "%s", p->session ? p->session : "");
	struct cordon_launch l = {.path = "the program",
				  .shim_fd = -1,
				  .policy = (struct cordon_policy *)(uintptr_t)p};
	struct run r = {.s = &s,
			.l = &l,
			.sockets = &supervisor_sockets,
			.meta = &supervisor_meta,
			.command = pid,
			.keeper_fd = -1,
			.event_r = -1,
			.control_w = -1,
			.chan = chan[0],
			.chan_child = -1,
			.report_r = -1,
			.listener = -1,
			.diag = -1,
			.tty = -1,
			.sig = -1,
			.relay = {.user = -1, .master = -1, .slave = -1},
			.direct = true};
	struct cordon_error e = {0};
	r.command_fd = (int)syscall(SYS_pidfd_open, pid, 0);
	rc = r.command_fd < 0 ? cordon_err(&e, errno, "pidfd_open: %s", strerror(errno)) : 0;
	if (rc >= 0 && (rc = block_signals(&r, &e)) >= 0)
		r.tty = cordon_tty_watch_fd();
	bool refused = false;
	if (rc >= 0 && !(r.ipc = cordon_ipc_set_new()))
		rc = cordon_err(&e, errno, "mmap: %s", strerror(errno));
	if (rc >= 0 && (rc = cordon_supervisor_prepare(&e)) >= 0)
		rc = cordon_unix_policy_init(r.sockets, p, NULL, getpid(), &e);
	if (rc >= 0)
		rc = cordon_meta_init(r.meta, p, &e);
	if (rc >= 0 && (sweep.names.n || sweep.n_above))
		rc = cordon_reguard_prepare(&e);
	if (rc >= 0 && (rc = handover(&r, &e)) == 1)
		refused = true;
	if (rc >= 0 && !refused && r.listener >= 0) {
		cordon_unix_policy_netns(r.sockets, r.diag);
		r.diag = -1;
		struct cordon_supervisor_config cfg = {.listener = r.listener,
						       .allow_network = p->allow_network,
						       .domains = p->domains, /* refused above */
						       .sockets = r.sockets,
						       .learn_fd = -1,
						       .ipc = r.ipc,
						       .meta = r.meta};
		cordon_supervisor_start(&cfg);
	}
	/* The protected names made while it runs, moved aside as they
	 * appear (its guards are its own: the program sandboxed itself). */
	if (rc >= 0 && !refused)
		(void)cordon_reguard_start(p, pid, NULL, &sweep, &held);
	if (rc >= 0 && !refused)
		list_session(&r);
	close(r.chan);
	r.chan = -1;
	if (rc < 0) {
		cordon_say("cordon: %s\n", e.msg);
		kill(pid, SIGKILL);
	} else if (!refused) {
		wait_for_end(&r);
	}
	cordon_say_after_session();
	cordon_reguard_stop();
	struct cordon_strv filled = {0}, said = {0};
	bool ended = kill_descendants();
	cordon_ttystate_restore(&modes);
	cordon_placeholders_release(&held, ended, &filled);
	cordon_placeholders_say(&filled);
	cordon_strv_free(&filled);
	if (ended) /* (before the walk: it judges what git will find) */
		cordon_guard_restore_heads(&sweep, &said);
	cordon_sweep_end(&sweep, ended, &said);
	for (size_t i = 0; i < said.n; i++)
		cordon_say("%s\n", said.v[i]);
	cordon_strv_free(&said);
	cordon_sweep_free(&sweep);
	cordon_ipc_remove_all(r.ipc);
	cordon_registry_remove(s.id);
	_exit(rc < 0 ? CORDON_EXIT_FAILURE : r.exited ? r.status : 128 + SIGKILL);
}
