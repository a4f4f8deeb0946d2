/* Internal: System V IPC for the session (sysvipc.c).
 *
 * Shared memory, semaphores and message queues are named by a key or an id
 * that anyone may try, and are guarded by their owner's uid alone: from
 * inside, an outside process's shared memory could be read and overwritten,
 * its queue drained and its semaphores set. So the session reaches only the
 * objects it created:
 *   - shmget/semget/msgget are performed by the supervisor, which records the
 *     id of an object it created; a key that names an object from outside is
 *     answered ENOENT (lookup) or EACCES (create);
 *   - a call on an id (shmat, *ctl, semop, msgsnd, ...) goes on (CONTINUE:
 *     decided on registers, the id and the command) only for a recorded id;
 *     IPC_RMID is performed here, and forgets the id; the *_STAT commands,
 *     which take an index into every object of the host, are refused;
 *   - when the session ends, whatever it left is removed.
 * A process inside that made an IPC namespace of its own (with a user
 * namespace) is let through: nothing from outside is in it. Without a
 * supervisor, the filter refuses all of these. */
#ifndef CORDON_SYSVIPC_H
#define CORDON_SYSVIPC_H

#include <linux/seccomp.h>
#include <pthread.h>
#include <stdbool.h>
#include <sys/types.h>

#include "call.h"

#define CORDON_IPC_MAX 1024

enum cordon_ipc_kind { CORDON_IPC_SHM = 1, CORDON_IPC_SEM, CORDON_IPC_MSG };

/* The session's objects, in memory shared with the keeper, which removes
 * them at the end (after the supervisor is gone). */
struct cordon_ipc_set {
	pthread_mutex_t lock;
	unsigned n;
	struct {
		int kind; /* enum cordon_ipc_kind; 0: a free slot */
		int id;
	} v[CORDON_IPC_MAX];
};

/* A set in a shared mapping (survives a fork), or NULL. */
struct cordon_ipc_set *cordon_ipc_set_new(void);
/* Remove every object in SET (IPC_RMID) and forget it. No locking: the
 * supervisor must be gone, or not answering any more. */
void cordon_ipc_remove_all(struct cordon_ipc_set *set);

/* Whether D is one of the System V IPC calls. */
bool cordon_ipc_is(const struct seccomp_data *d);
/* Answer C's call: *GO_ON true means let the call go on (CONTINUE); else
 * the result (an id, 0) or -errno, performed with C's credentials. SET may
 * be NULL (all refused). */
long cordon_ipc_handle(struct cordon_ipc_set *set, struct cordon_call *c, bool *go_on);

#endif
