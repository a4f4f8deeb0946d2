/* Linux enforcement: Landlock (best available ABI) after PR_SET_NO_NEW_PRIVS. */
#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/sandbox.h"
#include "landlock-compat.h"
#include "util.h"

#define FS_ABI1                                                                                    \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |                              \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR |                              \
	 LANDLOCK_ACCESS_FS_REMOVE_DIR | LANDLOCK_ACCESS_FS_REMOVE_FILE |                          \
	 LANDLOCK_ACCESS_FS_MAKE_CHAR | LANDLOCK_ACCESS_FS_MAKE_DIR |                              \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |                              \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_BLOCK |                            \
	 LANDLOCK_ACCESS_FS_MAKE_SYM)

/* Rights that make sense on a file (the rest only on directories). */
#define FS_FILE_RIGHTS                                                                             \
	(LANDLOCK_ACCESS_FS_EXECUTE | LANDLOCK_ACCESS_FS_WRITE_FILE |                              \
	 LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)

#define FS_READ (LANDLOCK_ACCESS_FS_READ_FILE | LANDLOCK_ACCESS_FS_READ_DIR)
/* Write never includes MAKE_CHAR/MAKE_BLOCK: a root shell could otherwise
 * mknod a disk's block device in /tmp and read the disk through it. */
#define FS_WRITE                                                                                   \
	(LANDLOCK_ACCESS_FS_WRITE_FILE | LANDLOCK_ACCESS_FS_REMOVE_DIR |                           \
	 LANDLOCK_ACCESS_FS_REMOVE_FILE | LANDLOCK_ACCESS_FS_MAKE_DIR |                            \
	 LANDLOCK_ACCESS_FS_MAKE_REG | LANDLOCK_ACCESS_FS_MAKE_SOCK |                              \
	 LANDLOCK_ACCESS_FS_MAKE_FIFO | LANDLOCK_ACCESS_FS_MAKE_SYM | LANDLOCK_ACCESS_FS_REFER |   \
	 LANDLOCK_ACCESS_FS_TRUNCATE | LANDLOCK_ACCESS_FS_IOCTL_DEV)
#define FS_EXEC LANDLOCK_ACCESS_FS_EXECUTE

/* The newest ABI this code knows; newer kernels are used at this level. */
#define KNOWN_ABI 7

void cordon_sandbox_probe(struct cordon_support *out)
{
	memset(out, 0, sizeof(*out));
	out->platform = "linux";
	long abi = cordon_landlock_create_ruleset(NULL, 0, LANDLOCK_CREATE_RULESET_VERSION);
	if (abi < 0) {
		out->landlock_errno = errno;
		out->landlock_abi = 0;
	} else {
		out->landlock_abi = (int)abi;
	}
	out->seccomp = prctl(PR_GET_SECCOMP, 0, 0, 0, 0) >= 0;
}

static uint64_t fs_rights(int abi)
{
	uint64_t r = FS_ABI1;
	if (abi >= 2)
		r |= LANDLOCK_ACCESS_FS_REFER;
	if (abi >= 3)
		r |= LANDLOCK_ACCESS_FS_TRUNCATE;
	if (abi >= 5)
		r |= LANDLOCK_ACCESS_FS_IOCTL_DEV;
	return r;
}

static void append(char *buf, size_t size, int *count, const char *what)
{
	size_t len = strlen(buf);
	snprintf(buf + len, size - len, "%s%s", *count ? ", " : "", what);
	(*count)++;
}

int cordon_sandbox_missing(const struct cordon_policy *policy, const struct cordon_support *sup,
			   char *buf, size_t size)
{
	int n = 0;
	if (size)
		buf[0] = '\0';
	if (!policy->sandbox)
		return 0;
	if (sup->landlock_abi < 1) {
		append(buf, size, &n, "Landlock (Linux 5.13+, enabled in the kernel's lsm= list)");
		return n;
	}
	if (sup->landlock_abi < 3)
		append(buf, size, &n, "Landlock truncate control (ABI 3, Linux 6.2)");
	if (sup->landlock_abi < 6)
		append(buf, size, &n,
		       "Landlock signal and abstract-socket scoping (ABI 6, Linux 6.12)");
	return n;
}

static uint64_t landlock_access(unsigned access)
{
	uint64_t r = 0;
	if (access & CORDON_ACCESS_READ)
		r |= FS_READ;
	if (access & CORDON_ACCESS_WRITE)
		r |= FS_WRITE;
	if (access & CORDON_ACCESS_EXEC)
		r |= FS_EXEC;
	return r;
}

static int add_path_rule(int ruleset, const char *path, uint64_t allowed,
			 struct cordon_error *err)
{
	_cleanup_close_ int fd = open(path, O_PATH | O_CLOEXEC);
	if (fd < 0) {
		/* Gone since the policy was resolved: no rule only means less access. */
		if (errno == ENOENT || errno == ENOTDIR || errno == EACCES || errno == ELOOP)
			return 0;
		return cordon_err(err, errno, "%s: cannot open for a Landlock rule: %s", path,
				  strerror(errno));
	}
	struct stat st;
	if (fstat(fd, &st) < 0)
		return cordon_err(err, errno, "%s: stat: %s", path, strerror(errno));
	if (!S_ISDIR(st.st_mode))
		allowed &= FS_FILE_RIGHTS;
	if (!allowed)
		return 0;
	struct landlock_path_beneath_attr pb = {.allowed_access = allowed, .parent_fd = fd};
	if (cordon_landlock_add_rule(ruleset, LANDLOCK_RULE_PATH_BENEATH, &pb, 0) < 0)
		return cordon_err(err, errno, "%s: landlock_add_rule: %s", path, strerror(errno));
	return 0;
}

static int landlock_apply(const struct cordon_policy *p, int abi, struct cordon_error *err)
{
	if (abi > KNOWN_ABI)
		abi = KNOWN_ABI;
	struct cordon_landlock_ruleset_attr attr = {.handled_access_fs = fs_rights(abi)};
	size_t size = sizeof(attr.handled_access_fs);
	if (abi >= 4) {
		size = offsetof(struct cordon_landlock_ruleset_attr, scoped);
		if (!p->allow_network)
			attr.handled_access_net =
				LANDLOCK_ACCESS_NET_BIND_TCP | LANDLOCK_ACCESS_NET_CONNECT_TCP;
	}
	if (abi >= 6) {
		size = sizeof(attr);
		attr.scoped = LANDLOCK_SCOPE_ABSTRACT_UNIX_SOCKET | LANDLOCK_SCOPE_SIGNAL;
	}
	_cleanup_close_ int ruleset = (int)cordon_landlock_create_ruleset(&attr, size, 0);
	if (ruleset < 0)
		return cordon_err(err, errno, "landlock_create_ruleset: %s", strerror(errno));
	for (size_t i = 0; i < p->n_rules; i++) {
		uint64_t allowed = landlock_access(p->rules[i].access) & attr.handled_access_fs;
		int r = add_path_rule(ruleset, p->rules[i].path, allowed, err);
		if (r < 0)
			return r;
	}
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0)
		return cordon_err(err, errno, "prctl(PR_SET_NO_NEW_PRIVS): %s", strerror(errno));
	if (cordon_landlock_restrict_self(ruleset, 0) < 0)
		return cordon_err(err, errno, "landlock_restrict_self: %s", strerror(errno));
	return 0;
}

int cordon_sandbox_apply(const struct cordon_policy *p, struct cordon_error *err)
{
	if (!p->sandbox)
		return 0;
	struct cordon_support sup;
	cordon_sandbox_probe(&sup);
	char missing[512];
	int n = cordon_sandbox_missing(p, &sup, missing, sizeof(missing));
	bool warn = p->on_unsupported == CORDON_UNSUPPORTED_WARN;
	if (n > 0 && !warn)
		return cordon_err(err, ENOTSUP,
				  "this kernel cannot enforce the sandbox: missing %s%s%s; refusing "
				  "to start (set \"on_unsupported\": \"warn\" to run anyway)",
				  missing, sup.landlock_abi < 1 ? ": " : "",
				  sup.landlock_abi < 1 ? strerror(sup.landlock_errno) : "");
	if (sup.landlock_abi >= 1) {
		int r = landlock_apply(p, sup.landlock_abi, err);
		if (r < 0)
			return r;
	}
	if (n > 0) {
		cordon_err(err, ENOTSUP, "sandbox not fully enforced: missing %s%s", missing,
			   sup.landlock_abi < 1 ? "; running WITHOUT a sandbox" : "");
		return 1;
	}
	return 0;
}
