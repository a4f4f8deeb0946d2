/* seccomp-gen OUT.h: compile the syscall filter's rules (seccomp-rules.c) to
 * classic BPF with libseccomp, once per network setting and supervision, and write them as C
 * arrays for the shim. Run at build time, so the shim loads a ready program
 * with one seccomp() call instead of compiling ~130 rules in every shell it
 * starts (about 250 us per launch, measured) — and carries no libseccomp. */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <linux/filter.h>
#include <linux/seccomp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "seccomp-rules.h"

static void emit_insn(FILE *out, const struct sock_filter *insn)
{
	(void)fprintf(out, "\t{0x%04x, %u, %u, 0x%08xu},\n", insn->code, insn->jt, insn->jf,
		      insn->k);
}

static int emit(FILE *out, const char *name, unsigned flags)
{
	const char *what = "";
	int errnum = 0;
	scmp_filter_ctx ctx = cordon_seccomp_rules(flags, &what, &errnum);
	if (!ctx) {
		(void)fprintf(stderr, "seccomp-gen: %s: %s\n", what, strerror(errnum));
		return -1;
	}
	FILE *tmp = tmpfile();
	int r = tmp ? seccomp_export_bpf(ctx, fileno(tmp)) : -errno;
	seccomp_release(ctx);
	if (r < 0) {
		(void)fprintf(stderr, "seccomp-gen: exporting the filter: %s\n", strerror(-r));
		if (tmp)
			(void)fclose(tmp);
		return -1;
	}
	rewind(tmp);
	struct sock_filter insn;
	size_t n = 0;
	(void)fprintf(out, "static const struct sock_filter %s[] = {\n", name);
#if defined(__x86_64__)
	struct sock_filter pre[CORDON_SECCOMP_AHEAD_MAX];
	size_t np = cordon_seccomp_ahead(pre);
	for (size_t i = 0; i < np; i++)
		emit_insn(out, &pre[i]);
	n += np;
#endif
	while (fread(&insn, sizeof(insn), 1, tmp) == 1) {
		emit_insn(out, &insn);
		n++;
	}
	(void)fprintf(out, "};\n\n");
	(void)fclose(tmp);
	if (n == 0 || n > BPF_MAXINSNS) {
		(void)fprintf(stderr, "seccomp-gen: %s: %zu instructions\n", name, n);
		return -1;
	}
	return 0;
}

int main(int argc, char **argv)
{
	if (argc != 2) {
		(void)fprintf(stderr, "usage: seccomp-gen OUT.h\n");
		return 2;
	}
	FILE *out = fopen(argv[1], "w");
	if (!out) {
		(void)fprintf(stderr, "seccomp-gen: %s: %s\n", argv[1], strerror(errno));
		return 1;
	}
	uint32_t arch = seccomp_arch_native();
	(void)fprintf(out,
		      "/* Generated at build time by seccomp-gen from shim/linux/seccomp-rules.c\n"
		      " * (libseccomp %u.%u.%u). Do not edit. */\n\n",
		      seccomp_version()->major, seccomp_version()->minor, seccomp_version()->micro);
	(void)fprintf(out, "#define CORDON_SECCOMP_BUILD_ARCH 0x%08xu\n\n", arch);
	static const struct {
		const char *name;
		unsigned flags;
	} programs[] = {
		{"cordon_filter_online", CORDON_SECCOMP_NETWORK},
		{"cordon_filter_offline", 0},
		{"cordon_filter_online_supervised",
		 CORDON_SECCOMP_NETWORK | CORDON_SECCOMP_SUPERVISED},
		{"cordon_filter_offline_supervised", CORDON_SECCOMP_SUPERVISED},
		{"cordon_filter_online_supervised_kunix", CORDON_SECCOMP_NETWORK |
								  CORDON_SECCOMP_SUPERVISED |
								  CORDON_SECCOMP_UNIX_IN_KERNEL},
		{"cordon_filter_offline_supervised_kunix",
		 CORDON_SECCOMP_SUPERVISED | CORDON_SECCOMP_UNIX_IN_KERNEL},
		{"cordon_filter_domains_supervised",
		 CORDON_SECCOMP_NETWORK | CORDON_SECCOMP_SUPERVISED | CORDON_SECCOMP_DOMAINS},
		{"cordon_filter_offline_supervised_netns",
		 CORDON_SECCOMP_SUPERVISED | CORDON_SECCOMP_OWN_NETNS},
		{"cordon_filter_offline_supervised_kunix_netns",
		 CORDON_SECCOMP_SUPERVISED | CORDON_SECCOMP_UNIX_IN_KERNEL |
			 CORDON_SECCOMP_OWN_NETNS},
	};
	int r = 0;
	for (size_t i = 0; r == 0 && i < sizeof(programs) / sizeof(programs[0]); i++) {
		r = emit(out, programs[i].name, programs[i].flags);
		/* Each supervised one again, with metadata left to the kernel. */
		if (r == 0 && (programs[i].flags & CORDON_SECCOMP_SUPERVISED)) {
			char name[96];
			(void)snprintf(name, sizeof(name), "%s_kmeta", programs[i].name);
			r = emit(out, name, programs[i].flags | CORDON_SECCOMP_META_IN_KERNEL);
		}
	}
	if (ferror(out) || fclose(out) != 0 || r < 0) {
		unlink(argv[1]);
		return 1;
	}
	return 0;
}
