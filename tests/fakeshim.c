/* A shared library that loads and does nothing: stands in for a shim that
 * never confirms the sandbox (CORDON_SHIM=...), to test the watcher. */
int cordon_fakeshim_marker;
int cordon_fakeshim_marker = 1;
