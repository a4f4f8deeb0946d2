/* A shared library that loads and does nothing. Built three times:
 * - cordon-fakeshim, with the shim's note (CORDON_FAKESHIM_NOTE): the
 *   launcher takes it for the shim, which then never confirms the sandbox
 *   (CORDON_SHIM=...), to test the watcher;
 * - cordon-notshim, without: a loadable library that is not cordon's shim,
 *   which the launcher must refuse to preload;
 * - cordon-plantedshim, with the note and a constructor that creates
 *   ../outside/planted-shim-ran (a test world's outside, seen from its
 *   project): what a session could plant where it may write. */
#ifdef CORDON_FAKESHIM_NOTE
#include "linux/shim-note.h"

CORDON_SHIM_NOTE;
#endif

#ifdef CORDON_FAKESHIM_PLANTED
#include <fcntl.h>
#include <unistd.h>

__attribute__((constructor)) static void planted(void)
{
	int fd = open("../outside/planted-shim-ran", O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
	if (fd >= 0)
		close(fd);
}
#endif

int cordon_fakeshim_marker;
int cordon_fakeshim_marker = 1;
