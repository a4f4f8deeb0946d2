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

void cordon_seccomp_program(bool allow_network, struct sock_fprog *out)
{
	static const struct sock_fprog online = PROGRAM(cordon_filter_online);
	static const struct sock_fprog offline = PROGRAM(cordon_filter_offline);
	*out = allow_network ? online : offline;
}

int cordon_seccomp_apply(const struct cordon_policy *p, struct cordon_error *err)
{
	struct sock_fprog prog;
	cordon_seccomp_program(p->allow_network, &prog);
	if (syscall(SYS_seccomp, SECCOMP_SET_MODE_FILTER, 0, &prog) < 0)
		return cordon_err(err, errno, "seccomp: loading the filter: %s", strerror(errno));
	return 0;
}
