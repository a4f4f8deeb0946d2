/* The policy frame on a sealed memfd (Linux): the fd the launcher hands
 * to the shim across exec. */
#include <errno.h>
#include <fcntl.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

#include "cordon/wire.h"
#include "util.h"

int cordon_wire_to_memfd(const struct cordon_policy *p, struct cordon_error *err)
{
	cleanup_free char *buf = NULL;
	size_t len = 0;
	int r = cordon_wire_encode(p, &buf, &len, err);
	if (r < 0)
		return r;
	/* Not MFD_CLOEXEC: this is the one fd that crosses exec. */
	cleanup_close int fd = memfd_create("cordon-policy", MFD_ALLOW_SEALING);
	if (fd < 0)
		return cordon_err(err, errno, "memfd_create: %s", strerror(errno));
	for (size_t off = 0; off < len;) {
		ssize_t w = write(fd, buf + off, len - off);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return cordon_err(err, errno ? errno : EIO, "writing policy: %s",
					  strerror(errno));
		off += (size_t)w;
	}
	if (fcntl(fd, F_ADD_SEALS, F_SEAL_SHRINK | F_SEAL_GROW | F_SEAL_WRITE | F_SEAL_SEAL) < 0)
		return cordon_err(err, errno, "sealing policy memfd: %s", strerror(errno));
	if (lseek(fd, 0, SEEK_SET) < 0)
		return cordon_err(err, errno, "lseek on policy memfd: %s", strerror(errno));
	return TAKE_FD(fd);
}
