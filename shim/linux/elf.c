/* Whether the shim can load into a target: ELF inspection (Linux). */
#include "cordon/exec.h"
#include <elf.h>
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>
#include "util.h"

/* Our own ELF class and machine, the ones the shim is built for. */
#if defined(__LP64__)
#define OUR_CLASS ELFCLASS64
typedef Elf64_Ehdr Ehdr;
typedef Elf64_Phdr Phdr;
#else
#define OUR_CLASS ELFCLASS32
typedef Elf32_Ehdr Ehdr;
typedef Elf32_Phdr Phdr;
#endif
#if defined(__x86_64__)
#define OUR_MACHINE EM_X86_64
#elif defined(__aarch64__)
#define OUR_MACHINE EM_AARCH64
#elif defined(__i386__)
#define OUR_MACHINE EM_386
#elif defined(__arm__)
#define OUR_MACHINE EM_ARM
#elif defined(__riscv)
#define OUR_MACHINE EM_RISCV
#else
#define OUR_MACHINE EM_NONE
#endif

static bool elf_has_interp(int fd, const Ehdr *eh)
{
	if (eh->e_phentsize != sizeof(Phdr) || eh->e_phnum == 0 || eh->e_phnum > 512)
		return false;
	for (unsigned i = 0; i < eh->e_phnum; i++) {
		Phdr ph;
		off_t off = (off_t)eh->e_phoff + (off_t)i * (off_t)sizeof(Phdr);
		if (pread(fd, &ph, sizeof(ph), off) != (ssize_t)sizeof(ph))
			return false;
		if (ph.p_type == PT_INTERP)
			return true;
	}
	return false;
}

static bool preloadable(const char *path, int depth, const char **why)
{
	if (depth > 4) {
		*why = "interpreter chain too deep";
		return false;
	}
	struct stat st;
	if (stat(path, &st) < 0) {
		*why = "cannot stat the command";
		return false;
	}
	if (st.st_mode & (S_ISUID | S_ISGID)) {
		*why = "set-user/group-ID program (the loader ignores LD_PRELOAD)";
		return false;
	}
	cleanup_close int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY);
	if (fd < 0) {
		*why = "command is not readable";
		return false;
	}
	char head[256];
	ssize_t n = pread(fd, head, sizeof(head) - 1, 0);
	if (n < 0) {
		*why = "command is not readable";
		return false;
	}
	head[n] = '\0';
	if (n >= 2 && head[0] == '#' && head[1] == '!') {
		char *p = head + 2;
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t\n");
		if (len == 0 || p[0] != '/') {
			*why = "script without an absolute interpreter";
			return false;
		}
		p[len] = '\0';
		return preloadable(p, depth + 1, why);
	}
	if ((size_t)n < sizeof(Ehdr) || memcmp(head, ELFMAG, SELFMAG) != 0) {
		/* Neither ELF nor #!: execve fails with ENOEXEC, nothing runs. */
		return true;
	}
	Ehdr eh;
	memcpy(&eh, head, sizeof(eh));
	if (eh.e_ident[EI_CLASS] != OUR_CLASS || eh.e_machine != OUR_MACHINE) {
		*why = "program built for another architecture";
		return false;
	}
	if (!elf_has_interp(fd, &eh)) {
		*why = "statically linked program";
		return false;
	}
	return true;
}

bool cordon_exec_preloadable(const char *path, const char **why)
{
	const char *dummy;
	return preloadable(path, 0, why ? why : &dummy);
}

bool cordon_exec_chain_any(const char *path, bool (*test)(const char *canon, void *arg), void *arg)
{
	char cur[PATH_MAX];
	snprintf(cur, sizeof(cur), "%s", path);
	for (int depth = 0; depth <= 4; depth++) {
		cleanup_free char *canon = realpath(cur, NULL);
		if (!canon || test(canon, arg))
			return true;
		cleanup_close int fd = open(canon, O_RDONLY | O_CLOEXEC | O_NOCTTY);
		char head[256];
		ssize_t n = fd < 0 ? -1 : pread(fd, head, sizeof(head) - 1, 0);
		if (n < 2 || head[0] != '#' || head[1] != '!')
			return false;
		head[n] = '\0';
		char *p = head + 2;
		p += strspn(p, " \t");
		size_t len = strcspn(p, " \t\n");
		if (len == 0 || p[0] != '/')
			return false; /* not run at all (see preloadable) */
		p[len] = '\0';
		snprintf(cur, sizeof(cur), "%s", p);
	}
	return true; /* too deep to follow: as if it held */
}
