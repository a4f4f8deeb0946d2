/* The ELF note by which the launcher knows libcordon.so as the shim built
 * with it (cordon_shim_check, elf.c): name "cordon", type
 * CORDON_SHIM_NOTE_TYPE, and as its descriptor the build tree's token
 * (cordon-build-token.h, generated). Only libcordon.so defines the note
 * (CORDON_SHIM_NOTE, in preload.c; the tests' stand-in for a shim that
 * loads but never confirms, too). */
#ifndef CORDON_SHIM_NOTE_H
#define CORDON_SHIM_NOTE_H

#include <stdint.h>

#include "cordon-build-token.h"

#define CORDON_SHIM_NOTE_NAME "cordon"
#define CORDON_SHIM_NOTE_TYPE 0x6d696873u /* "shim" */
#define CORDON_SHIM_TOKEN_LEN 16

struct cordon_shim_note {
	uint32_t namesz, descsz, type;
	char name[8]; /* "cordon", NUL-terminated, padded to 4 */
	unsigned char desc[CORDON_SHIM_TOKEN_LEN];
};

/* An allocated note section: the linker puts it in a PT_NOTE segment, which
 * the launcher reads through the program headers. */
#define CORDON_SHIM_NOTE                                                                           \
	__attribute__((section(".note.cordon"), used,                                              \
		       aligned(4))) static const struct cordon_shim_note cordon_shim_note = {      \
		sizeof(CORDON_SHIM_NOTE_NAME),                                                     \
		CORDON_SHIM_TOKEN_LEN,                                                             \
		CORDON_SHIM_NOTE_TYPE,                                                             \
		CORDON_SHIM_NOTE_NAME,                                                             \
		{CORDON_BUILD_TOKEN_BYTES}}

#endif
