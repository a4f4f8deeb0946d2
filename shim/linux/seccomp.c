/* Loading the syscall filter. The BPF program is compiled from
 * seccomp-rules.c at build time (seccomp-gen); here it is only handed to the
 * kernel. */
#include <errno.h>
#include <linux/audit.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdint.h>
#include <string.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "linux.h"
#include "seccomp-filter.h" /* generated: CORDON_SECCOMP_BUILD_ARCH, the programs */

/* The programs check seccomp_data.arch against the build machine's ABIs: a
 * shim compiled for another architecture must not build at all. */
#if defined(__x86_64__) && defined(__ILP32__)
#define TARGET_ARCH AUDIT_ARCH_X86_64 /* x32 processes run the x86_64 filter */
#elif defined(__x86_64__)
#define TARGET_ARCH AUDIT_ARCH_X86_64
#elif defined(__i386__)
#define TARGET_ARCH AUDIT_ARCH_I386
#elif defined(__aarch64__)
#define TARGET_ARCH AUDIT_ARCH_AARCH64
#elif defined(__riscv) && __riscv_xlen == 64
#define TARGET_ARCH AUDIT_ARCH_RISCV64
#elif defined(__powerpc64__) && __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
#define TARGET_ARCH AUDIT_ARCH_PPC64LE
#elif defined(__s390x__)
#define TARGET_ARCH AUDIT_ARCH_S390X
#else
#error "cordon: no seccomp architecture mapping for this target; add it above"
#endif
_Static_assert(CORDON_SECCOMP_BUILD_ARCH == TARGET_ARCH,
	       "the seccomp filter was generated for another architecture (cross-compiling?)");

#define PROGRAM(a)                                                                                 \
	{                                                                                          \
		.len = (unsigned short)(sizeof(a) / sizeof((a)[0])),                               \
		.filter = (struct sock_filter *)(uintptr_t)(a)                                     \
	}

void cordon_seccomp_program(bool allow_network, bool supervised, struct sock_fprog *out)
{
	static const struct sock_fprog plain[2] = {PROGRAM(cordon_filter_offline),
						   PROGRAM(cordon_filter_online)};
	if (supervised)
		cordon_seccomp_program_supervised(allow_network, false, false, false, false, out);
	else
		*out = plain[allow_network];
}

void cordon_seccomp_program_supervised(bool allow_network, bool unix_in_kernel, bool domains,
				       bool meta_in_kernel, bool own_netns, struct sock_fprog *out)
{
	/* [kmeta][network][kunix], and by domain [kmeta] */
	static const struct sock_fprog programs[2][2][2] = {
		{{PROGRAM(cordon_filter_offline_supervised),
		  PROGRAM(cordon_filter_offline_supervised_kunix)},
		 {PROGRAM(cordon_filter_online_supervised),
		  PROGRAM(cordon_filter_online_supervised_kunix)}},
		{{PROGRAM(cordon_filter_offline_supervised_kmeta),
		  PROGRAM(cordon_filter_offline_supervised_kunix_kmeta)},
		 {PROGRAM(cordon_filter_online_supervised_kmeta),
		  PROGRAM(cordon_filter_online_supervised_kunix_kmeta)}},
	};
	static const struct sock_fprog by_domain[2] = {
		PROGRAM(cordon_filter_domains_supervised),
		PROGRAM(cordon_filter_domains_supervised_kmeta),
	};
	/* Offline in a network namespace of its own: [kmeta][kunix]. */
	static const struct sock_fprog own_netns_offline[2][2] = {
		{PROGRAM(cordon_filter_offline_supervised_netns),
		 PROGRAM(cordon_filter_offline_supervised_kunix_netns)},
		{PROGRAM(cordon_filter_offline_supervised_netns_kmeta),
		 PROGRAM(cordon_filter_offline_supervised_kunix_netns_kmeta)},
	};
	if (domains && allow_network)
		*out = by_domain[meta_in_kernel];
	else if (own_netns && !allow_network)
		*out = own_netns_offline[meta_in_kernel][unix_in_kernel];
	else
		*out = programs[meta_in_kernel][allow_network][unix_in_kernel];
}

bool cordon_seccomp_notify_available(void)
{
	unsigned action = SECCOMP_RET_USER_NOTIF;
	return syscall(SYS_seccomp, SECCOMP_GET_ACTION_AVAIL, 0, &action) == 0;
}

int cordon_seccomp_apply(const struct cordon_policy *p, int *listener, bool unix_in_kernel,
			 bool meta_in_kernel, bool own_netns, struct cordon_error *err)
{
	struct sock_fprog prog;
	/* By domain, connects must reach the supervisor, which the proxy is
	 * part of: without one nothing would hold TCP to it. */
	if (p->domains && p->allow_network && !listener)
		return cordon_err(err, ENOTSUP,
				  "allowed_domains needs cordon's supervisor (seccomp user "
				  "notification), which this session cannot have");
	if (listener)
		cordon_seccomp_program_supervised(p->allow_network, unix_in_kernel, p->domains,
						  meta_in_kernel, own_netns, &prog);
	else
		cordon_seccomp_program(p->allow_network, false, &prog);
	if (!listener) {
		if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
			return cordon_err(err, errno, "seccomp: loading the filter: %s",
					  strerror(errno));
		return 0;
	}
	/* WAIT_KILLABLE_RECV (5.19): once the supervisor has taken a call, only
	 * a fatal signal interrupts the caller, so a call the supervisor
	 * performed is never performed twice by a restart (SA_RESTART). The
	 * supervisor keeps its own waits interruptible (supervisor.c). */
	unsigned flags = SECCOMP_FILTER_FLAG_NEW_LISTENER | SECCOMP_FILTER_FLAG_WAIT_KILLABLE_RECV;
	long fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, flags, &prog);
	if (fd < 0 && errno == EINVAL)
		fd = syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, SECCOMP_FILTER_FLAG_NEW_LISTENER,
			     &prog);
	if (fd < 0 && errno == EBUSY)
		return cordon_err(err, EBUSY,
				  "seccomp: another supervisor already watches this process (a "
				  "sandbox inside a sandbox?): cordon's cannot be attached");
	if (fd < 0 && errno == EPERM)
		return cordon_err(err, EPERM,
				  "seccomp: a filter cordon was started under (not a cordon "
				  "session's) refuses the listener cordon's supervisor needs; "
				  "refusing to start without it");
	if (fd < 0)
		return cordon_err(err, errno, "seccomp: loading the supervised filter: %s",
				  strerror(errno));
	*listener = (int)fd;
	return 0;
}
