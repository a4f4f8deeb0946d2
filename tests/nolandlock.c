/* cordon-nolandlock COMMAND [ARG...]: run COMMAND as if the kernel had no
 * Landlock — a seccomp filter makes the three Landlock syscalls fail with
 * ENOSYS, as they do on a kernel built without it. */
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
	const char *calls[] = {"landlock_create_ruleset", "landlock_add_rule",
			       "landlock_restrict_self"};
	for (int i = 0; i < 3; i++) {
		int nr = seccomp_syscall_resolve_name(calls[i]);
		if (nr == __NR_SCMP_ERROR || seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS), nr, 0) < 0) {
			fprintf(stderr, "nolandlock: cannot filter %s\n", calls[i]);
			return 1;
		}
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 || seccomp_load(ctx) < 0) {
		fprintf(stderr, "nolandlock: cannot load the filter: %s\n", strerror(errno));
		return 1;
	}
	seccomp_release(ctx);
	execvp(argv[1], argv + 1);
	fprintf(stderr, "nolandlock: %s: %s\n", argv[1], strerror(errno));
	return 127;
}
