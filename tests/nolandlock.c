/* cordon-nolandlock [--enosys NAME]... COMMAND [ARG...]: run COMMAND as if
 * the kernel lacked some syscalls — a seccomp filter makes them fail with
 * ENOSYS, as on a kernel built without them. Default: the three Landlock
 * syscalls; with --enosys, only the ones named. */
#include <errno.h>
#include <seccomp.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <unistd.h>

int main(int argc, char **argv)
{
	if (argc < 2) {
		fprintf(stderr, "usage: cordon-nolandlock COMMAND [ARG...]\n");
		return 2;
	}
	scmp_filter_ctx ctx = seccomp_init(SCMP_ACT_ALLOW);
	if (!ctx)
		return 1;
	const char *calls[16] = {"landlock_create_ruleset", "landlock_add_rule",
				 "landlock_restrict_self"};
	int ncalls = 3, first = 1;
	if (argc > 2 && strcmp(argv[1], "--enosys") == 0) {
		ncalls = 0;
		while (first + 1 < argc && strcmp(argv[first], "--enosys") == 0 && ncalls < 16) {
			calls[ncalls++] = argv[first + 1];
			first += 2;
		}
	}
	if (first >= argc) {
		fprintf(stderr, "nolandlock: no command\n");
		return 2;
	}
	for (int i = 0; i < ncalls; i++) {
		int nr = seccomp_syscall_resolve_name(calls[i]);
		if (nr == __NR_SCMP_ERROR ||
		    seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0) < 0) {
			fprintf(stderr, "nolandlock: cannot filter %s\n", calls[i]);
			return 1;
		}
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || seccomp_load(ctx) < 0) {
		fprintf(stderr, "nolandlock: cannot load the filter: %s\n", strerror(errno));
		return 1;
	}
	seccomp_release(ctx);
	execvp(argv[first], argv + first);
	fprintf(stderr, "nolandlock: %s: %s\n", argv[first], strerror(errno));
	return 127;
}
