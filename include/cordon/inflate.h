/* cordon — a zlib stream's data (RFC 1950, 1951), for git's objects
 * (shim/inflate.c): cordon reads a repository's objects itself, outside
 * the sandbox, and links no compression library. */
#ifndef CORDON_INFLATE_H
#define CORDON_INFLATE_H

#include <stddef.h>

/* The zlib stream at IN (LEN bytes at most) inflated into a buffer of its
 * own, *OUT (malloc'd, *OUT_LEN bytes; freed by the caller). EXPECT is the
 * length the data must have (SIZE_MAX: any, up to MAX). *USED gets the
 * stream's length in IN (NULL: not wanted). 0; -EBADMSG the stream is
 * malformed, cut short or longer than EXPECT or MAX; -ENOMEM. */
int cordon_inflate(const unsigned char *in, size_t len, size_t expect, size_t max,
		   unsigned char **out, size_t *out_len, size_t *used);

#endif
