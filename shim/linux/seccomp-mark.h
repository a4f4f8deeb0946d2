/* How a process tells that it runs in a cordon session: cordon's syscall
 * filter answers seccomp(CORDON_SECCOMP_MARK_OP, ...), an operation the
 * kernel does not have (it says EINVAL), with CORDON_SECCOMP_MARK_ERRNO.
 * Before, a session was told by its refusal of a seccomp listener (EPERM)
 * alone, and a caller's own filter that refused listeners made cordon
 * think it was nested: it then started no supervisor of its own, and
 * pathname unix sockets went unjudged (round 59g F4). */
#ifndef CORDON_SECCOMP_MARK_H
#define CORDON_SECCOMP_MARK_H

#include <errno.h>

#define CORDON_SECCOMP_MARK_OP    0x636f7264u /* "cord" */
#define CORDON_SECCOMP_MARK_ERRNO EBADSLT

#endif
