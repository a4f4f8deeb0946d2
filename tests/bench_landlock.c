/* cordon-bench-landlock [--seccomp] COMMAND [ARG...]: the kernel's floor for
 * the benchmarks. It resolves the same policy cordon would (the config found
 * as usual, the current directory as the project), applies ONLY a Landlock
 * ruleset with those rules (ABI 5 file rights, no network rules, no seccomp,
 * no session, no environment filtering), and execs COMMAND. Whatever cordon
 * costs beyond this is cordon's own overhead.
 *
 * --seccomp also loads cordon's own syscall filter (the same BPF program the
 * shim loads), so the bench can tell the kernel's per-syscall cost of any
 * seccomp filter apart from the rest of cordon's overhead. --seccomp-plain
 * loads the program cordon uses without a supervisor instead: the calls the
 * supervisor would judge (metadata, for the metadata row) go through. */
#include <errno.h>
#include <fcntl.h>
#include <linux/landlock.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/config.h"
#include "cordon/policy.h"
#include "linux.h"
#include "landlock-compat.h"

#define READ_RIGHTS (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
#define WRITE_RIGHTS                                                                               \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |                           \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR |                            \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |                              \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER |   \
	 LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define FILE_RIGHTS                                                                                \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |                              \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE |                              \
	 LANDLOCK_ACCESS_FS_IOCTL_DEV)

int main(int argc, char **argv)
{
	int plain = argc > 1 && strcmp(argv[1], "--seccomp-plain") == 0;
	int with_seccomp = plain || (argc > 1 && strcmp(argv[1], "--seccomp") == 0);
	argv += with_seccomp;
	argc -= with_seccomp;
	if (argc < 2) {
		fprintf(stderr,
			"usage: cordon-bench-landlock [--seccomp|--seccomp-plain] COMMAND [ARG...]\n");
		return 2;
	}
	struct cordon_config cfg;
	struct cordon_error err = {0};
	char session[] = "0000000000000000";
	if (cordon_config_load(NULL, getenv, &cfg, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 125;
	}
	struct cordon_context ctx = {.project = ".",
				     .home = getenv("HOME"),
				     .uid = getuid(),
				     .kind = CORDON_KIND_TERMINAL,
				     .os = CORDON_OS_LINUX,
				     .session = session};
	struct cordon_policy p;
	if (cordon_policy_resolve(&cfg, &ctx, &p, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 125;
	}
	struct cordon_landlock_ruleset_attr attr = {
		.handled_access_fs = READ_RIGHTS | WRITE_RIGHTS | LANDLOCK_ACCESS_FS_EXECUTE};
	int rs = (int)cordon_landlock_create_ruleset(&attr, sizeof(attr.handled_access_fs), 0);
	if (rs < 0) {
		perror("landlock_create_ruleset");
		return 125;
	}
	for (size_t i = 0; i < p.n_rules; i++) {
		struct landlock_path_beneath_attr pb = {0};
		unsigned a = p.rules[i].access;
		pb.allowed_access = (a & CORDON_ACCESS_READ ? READ_RIGHTS : 0) |
				    (a & CORDON_ACCESS_WRITE ? WRITE_RIGHTS : 0) |
				    (a & CORDON_ACCESS_EXEC ? LANDLOCK_ACCESS_FS_EXECUTE : 0);
		pb.parent_fd = open(p.rules[i].path, O_PATH | O_CLOEXEC);
		if (pb.parent_fd < 0)
			continue;
		struct stat st;
		if (fstat(pb.parent_fd, &st) == 0 && !S_ISDIR(st.st_mode))
			pb.allowed_access &= FILE_RIGHTS;
		if (cordon_landlock_add_rule(rs, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
			perror(p.rules[i].path);
		close(pb.parent_fd);
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    cordon_landlock_restrict_self(rs, 0) < 0) {
		perror("landlock_restrict_self");
		return 125;
	}
	close(rs);
	/* The supervised program cordon loads, listener and all: the calls it
	 * would hand to a supervisor (none in these benchmarks) fail here. */
	int listener = -1;
	if (with_seccomp &&
	    cordon_seccomp_apply(&p, plain ? NULL : &listener, false, false, false, &err) < 0) {
		fprintf(stderr, "%s\n", err.msg);
		return 125;
	}
	if (listener >= 0)
		close(listener);
	execvp(argv[1], argv + 1);
	perror(argv[1]);
	return 127;
}
