/* A shared library that loads and does nothing. Built three times:
 * - cordon-fakeshim, with the shim's note (CORDON_FAKESHIM_NOTE): the
 *   launcher takes it for the shim, which then never confirms the sandbox
 *   (CORDON_SHIM=...), to test the watcher;
 * - cordon-notshim, without: a loadable library that is not cordon's shim,
 *   which the launcher must refuse to preload;
 * - cordon-plantedshim, with the note and a constructor that creates
 *   ../outside/planted-shim-ran (a test world's outside, seen from its
 *   project): what a session could plant where it may write;
 * - cordon-forgedshim, with the note and a constructor that confirms the
 *   sandbox without applying any (the "applied, no supervisor" message on
 *   CORDON_CONFIG_FD): what a program the shim never loaded into could
 *   send; cordon-forgedfailed, the same saying "failed". */
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

#ifdef CORDON_FAKESHIM_FORGED
#include <errno.h>
#include <stdlib.h>
#include <unistd.h>

#include "cordon/session.h"
#include "linux/spawn.h"

__attribute__((constructor)) static void forged(void)
{
	const char *fd = getenv("CORDON_CONFIG_FD");
	if (!fd)
		return;
	int chan = atoi(fd);
	/* The policy frame first, as the shim reads it (a length, then that
	 * much): its first byte was once taken for the answer. */
	unsigned char hdr[4], skip[4096];
	size_t got = 0;
	while (got < 4) {
		ssize_t n = read(chan, hdr + got, 4 - got);
		if (n <= 0)
			return;
		got += (size_t)n;
	}
	unsigned long left = hdr[0] | (unsigned long)hdr[1] << 8 | (unsigned long)hdr[2] << 16 |
			     (unsigned long)hdr[3] << 24;
	while (left > 0) {
		ssize_t n = read(chan, skip, left < sizeof(skip) ? left : sizeof(skip));
		if (n <= 0)
			return;
		left -= (unsigned long)n;
	}
#ifdef CORDON_FAKESHIM_FORGED_FAILED
	struct cordon_event_msg m = {.tag = CORDON_HANDOVER_FAILED};
#else
	struct cordon_event_msg m = {.tag = CORDON_HANDOVER_APPLIED};
#endif
	if (write(chan, &m, sizeof(m)) != (ssize_t)sizeof(m))
		return;
	/* Runs on at the answer, or once the channel closes: the launcher
	 * must give none, and kill it before it closes. */
	for (char ok;;) {
		ssize_t n = read(chan, &ok, 1);
		if (n >= 0 || errno != EINTR)
			return;
	}
}
#endif
