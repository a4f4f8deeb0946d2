/* socket(), for the programs the shim is preloaded into (Linux).
 *
 * Online, socket() for every family but unix waits on the supervisor
 * (netns.c, supervisor.c do_socket). The kernel lets a signal end that wait
 * until the supervisor has taken the call; the call then fails with EINTR,
 * unless the handler was installed with SA_RESTART. socket(2) never does
 * that otherwise, and programs do not retry it (Python's socket.socket()
 * raised InterruptedError under a timer: review 44b F1). The handler has
 * run by then: the call is simply made again. Only what links socket()
 * from the C library comes here (not a static program, nor the C
 * library's own resolver). */
#include <errno.h>
#include <sys/syscall.h>
#include <unistd.h>

__attribute__((visibility("default"))) int socket(int domain, int type, int protocol);

int socket(int domain, int type, int protocol)
{
	long r;
	do
		r = syscall(SYS_socket, domain, type, protocol);
	while (r < 0 && errno == EINTR);
	return (int)r;
}
