/* A shared library that loads and does nothing. Built twice:
 * - cordon-fakeshim, with the shim's note (CORDON_FAKESHIM_NOTE): the
 *   launcher takes it for the shim, which then never confirms the sandbox
 *   (CORDON_SHIM=...), to test the watcher;
 * - cordon-notshim, without: a loadable library that is not cordon's shim,
 *   which the launcher must refuse to preload. */
#ifdef CORDON_FAKESHIM_NOTE
#include "linux/shim-note.h"

CORDON_SHIM_NOTE;
#endif

int cordon_fakeshim_marker;
int cordon_fakeshim_marker = 1;
