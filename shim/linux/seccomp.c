/* The syscall filter (libseccomp, linked statically into the shim).
 *
 * Landlock covers files, TCP bind/connect and (ABI 6) signals and abstract
 * sockets. It does not cover UDP, raw, SCTP, MPTCP or packet sockets, nor
 * io_uring (which can create and connect sockets without calling socket()),
 * nor the ioctls that push characters into a terminal's input queue. A
 * refused call fails at once with an errno; nothing is killed. */
#include <errno.h>
#include <seccomp.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include "linux.h"
#include "util.h"

#ifndef TIOCLINUX
#define TIOCLINUX 0x541C
#endif

/* Refused with EPERM whenever the sandbox is on. ptrace and perf_event_open
 * are not here: Landlock scopes ptrace to the session and the kernel's own
 * checks (perf_event_paranoid, CAP_PERFMON dropped) cover perf, so gdb,
 * strace and perf on one's own programs keep working. */
static const char *const blocked[] = {
	"kexec_load",    "kexec_file_load", "init_module", "finit_module", "delete_module",
	"bpf",           "userfaultfd",     "reboot",      "swapon",       "swapoff",
	"mount",         "umount",          "umount2",     "pivot_root",   "move_mount",
	"open_tree",     "fsopen",          "fsmount",     "fsconfig",     "fspick",
	"mount_setattr",
};

static const char *const io_uring[] = {"io_uring_setup", "io_uring_enter", "io_uring_register"};

/* Socket families above this are refused by the kernel (EAFNOSUPPORT). */
#define FAMILY_LIMIT 64

static int deny_names(scmp_filter_ctx ctx, const char *const *names, size_t n, int errnum,
		      struct cordon_error *err)
{
	for (size_t i = 0; i < n; i++) {
		int nr = seccomp_syscall_resolve_name(names[i]);
		if (nr == __NR_SCMP_ERROR)
			continue; /* not a syscall on this architecture */
		int r = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(errnum), nr, 0);
		if (r < 0)
			return cordon_err(err, -r, "seccomp: refusing %s: %s", names[i],
					  strerror(-r));
	}
	return 0;
}

static int deny_families(scmp_filter_ctx ctx, int nr, const char *name, struct cordon_error *err)
{
	for (int fam = 0; fam < FAMILY_LIMIT; fam++) {
		if (fam == AF_UNIX || fam == AF_NETLINK)
			continue;
		/* The kernel takes the family as an int: compare the low 32 bits. */
		int r = seccomp_rule_add(
			ctx, SCMP_ACT_ERRNO(EACCES), nr, 1,
			SCMP_A0(SCMP_CMP_MASKED_EQ, 0xffffffffu, (scmp_datum_t)fam));
		if (r < 0)
			return cordon_err(err, -r, "seccomp: %s family %d: %s", name, fam,
					  strerror(-r));
	}
	return 0;
}

static int build(scmp_filter_ctx ctx, const struct cordon_policy *p, struct cordon_error *err)
{
	/* Cover the other ABIs a 64-bit x86 process can enter the kernel by. */
#if defined(__x86_64__)
	int r = seccomp_arch_add(ctx, SCMP_ARCH_X86);
	if (r < 0 && r != -EEXIST)
		return cordon_err(err, -r, "seccomp: adding x86: %s", strerror(-r));
	r = seccomp_arch_add(ctx, SCMP_ARCH_X32);
	if (r < 0 && r != -EEXIST)
		return cordon_err(err, -r, "seccomp: adding x32: %s", strerror(-r));
#endif
	static const unsigned long ioctls[] = {TIOCSTI, TIOCLINUX};
	for (size_t i = 0; i < ARRAY_SIZE(ioctls); i++) {
		int ret = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(EPERM), SCMP_SYS(ioctl), 1,
					   SCMP_A1(SCMP_CMP_MASKED_EQ, 0xffffffffu, ioctls[i]));
		if (ret < 0)
			return cordon_err(err, -ret, "seccomp: ioctl rule: %s", strerror(-ret));
	}
	int ret = deny_names(ctx, blocked, ARRAY_SIZE(blocked), EPERM, err);
	if (ret < 0)
		return ret;
	if (!p->allow_network) {
		if ((ret = deny_families(ctx, SCMP_SYS(socket), "socket", err)) < 0 ||
		    (ret = deny_families(ctx, SCMP_SYS(socketpair), "socketpair", err)) < 0 ||
		    (ret = deny_names(ctx, io_uring, ARRAY_SIZE(io_uring), EPERM, err)) < 0)
			return ret;
	}
	return 0;
}

int cordon_seccomp_apply(const struct cordon_policy *p, struct cordon_error *err)
{
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return cordon_err(err, ENOMEM, "seccomp_init failed");
	int r = build(ctx, p, err);
	if (r >= 0) {
		int lr = seccomp_load(ctx);
		if (lr < 0)
			r = cordon_err(err, -lr, "seccomp: loading the filter: %s", strerror(-lr));
	}
	seccomp_release(ctx);
	return r;
}
