/* Internal: system-call numbers newer than Debian 12's headers (Linux 6.1)
 * know, in one place. These are the same on every architecture (the
 * unified numbering since 5.1). */
#ifndef CORDON_SYSNUMS_H
#define CORDON_SYSNUMS_H

#include <sys/syscall.h>

#ifndef SYS_pidfd_send_signal
#define SYS_pidfd_send_signal 424
#endif
#ifndef SYS_pidfd_open
#define SYS_pidfd_open 434
#endif
#ifndef SYS_clone3
#define SYS_clone3 435
#endif
#ifndef SYS_close_range
#define SYS_close_range 436
#endif
#ifndef SYS_openat2
#define SYS_openat2 437
#endif
#ifndef SYS_pidfd_getfd
#define SYS_pidfd_getfd 438
#endif
#ifndef SYS_fchmodat2
#define SYS_fchmodat2 452
#endif

#endif
