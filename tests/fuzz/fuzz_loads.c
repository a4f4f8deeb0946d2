/* libFuzzer target: the readers of what a project's files name beside
 * themselves (shim/lefthook.c, lefthook's config as YAML, TOML or JSON;
 * shim/dotfile-refs.c, an .envrc as shell). Whatever the bytes: 0 or a
 * negative errno, never a crash, a leak or a read out of bounds. The
 * input is written to a file, as the readers take a path. */
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "cordon/guard.h"
#include "cordon/strv.h"
#include "dotfile-refs.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static int count(const char *path, const char *file, void *arg)
{
	(void)path;
	(void)file;
	++*(size_t *)arg;
	return 0;
}

static char dir[] = "/tmp/cordon-fuzz-loads-XXXXXX";
static char file[sizeof(dir) + 16];

/* (The file and its directory go as the fuzzer exits.) */
static void remove_file(void)
{
	(void)unlink(file);
	(void)rmdir(dir);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (!file[0]) {
		if (!mkdtemp(dir))
			__builtin_trap();
		snprintf(file, sizeof(file), "%s/.envrc", dir);
		atexit(remove_file);
	}
	FILE *f = fopen(file, "w");
	if (!f || fwrite(data, 1, size, f) != size || fclose(f) != 0)
		__builtin_trap();
	struct cordon_strv out = {0};
	if (cordon_lefthook_refs(file, dir, &out) < 0)
		__builtin_trap(); /* only -ENOMEM, which a fuzzer does not see */
	cordon_strv_free(&out);
	size_t n = 0;
	char dynamic[128];
	if (cordon_envrc_refs(file, "/nonexistent-home", count, &n, dynamic, sizeof(dynamic)) < 0)
		__builtin_trap();
	return 0;
}
