/* A library whose constructor starts a thread that lives on (for the test
 * that the shim refuses a process it could only sandbox one thread of).
 * Preloaded after libcordon.so, its constructor runs first. */
#include <pthread.h>
#include <unistd.h>

static void *idle(void *arg)
{
	(void)arg;
	for (;;)
		pause();
	return NULL;
}

__attribute__((constructor)) static void start_thread(void)
{
	pthread_t t;
	if (pthread_create(&t, NULL, idle, NULL) == 0)
		pthread_detach(t);
}
