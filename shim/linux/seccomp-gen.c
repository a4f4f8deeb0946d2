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

/* Calls libseccomp 2.5 cannot place in the 32-bit x86 and x32 tables (it
 * knows no number past 462 there), refused ahead of its program:
 * setxattrat and removexattrat (which the native ABI gives the
 * supervisor), file_setattr (chattr's flags). ARCH, then the numbers. */
#define X32_BIT 0x40000000u
static const struct {
	uint32_t arch;
	uint32_t nr[3];
} ahead[] = {
	{0x40000003u /* AUDIT_ARCH_I386 */, {463, 466, 469}},
	{0xc000003eu /* AUDIT_ARCH_X86_64, the x32 numbers */,
	 {X32_BIT | 463, X32_BIT | 466, X32_BIT | 469}},
};

/* The instructions that refuse AHEAD's calls with EPERM and otherwise
 * fall through to what follows them (jumps are relative: the program
 * after them is unchanged). Into OUT; how many. */
static size_t refuse_ahead(struct sock_filter *out)
{
	size_t n = 0, na = sizeof(ahead) / sizeof(ahead[0]);
	size_t per = 1 + sizeof(ahead[0].nr) / sizeof(ahead[0].nr[0]); /* jeq arch, then nr's */
	/* 0: A = arch. Each arch: jeq ARCH ? its block : next arch. Then the
	 * blocks: A = nr; jeq each ? deny : on; ja past deny. Then deny. */
	out[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
						offsetof(struct seccomp_data, arch));
	size_t blocks = n + na + 1; /* after the arch tests and a jump past all */
	for (size_t i = 0; i < na; i++) {
		size_t block = blocks + i * (per + 1);
		out[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, ahead[i].arch,
						      (unsigned char)(block - n - 1), 0);
		n++;
	}
	size_t deny = blocks + na * (per + 1);
	out[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA, (unsigned)(deny + 1 - n - 1), 0, 0);
	n++;
	for (size_t i = 0; i < na; i++) {
		out[n++] = (struct sock_filter)BPF_STMT(BPF_LD | BPF_W | BPF_ABS,
							offsetof(struct seccomp_data, nr));
		for (size_t k = 0; k + 1 < per; k++) {
			out[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K,
							      ahead[i].nr[k],
							      (unsigned char)(deny - n - 1), 0);
			n++;
		}
		out[n] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA,
						      (unsigned)(deny + 1 - n - 1), 0, 0);
		n++;
	}
	out[n++] = (struct sock_filter)BPF_STMT(BPF_RET | BPF_K, SECCOMP_RET_ERRNO | EPERM);
	return n;
}

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
	struct sock_filter pre[64];
	size_t np = refuse_ahead(pre);
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
