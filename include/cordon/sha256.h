/* cordon — SHA-256 (FIPS 180-4), for digests a session must not be able
 * to forge, and SHA-1 for the names of git's objects (shim/sha256.c). */
#ifndef CORDON_SHA256_H
#define CORDON_SHA256_H

#include <stddef.h>
#include <stdint.h>

#define CORDON_SHA256_SIZE 32
#define CORDON_SHA1_SIZE   20

struct cordon_sha256 {
	uint32_t h[8];
	uint64_t bytes; /* hashed so far */
	unsigned char block[64];
	size_t used; /* of BLOCK */
	int sha1;    /* SHA-1's state (h[0..4]), not SHA-256's */
};

void cordon_sha256_init(struct cordon_sha256 *c);
void cordon_sha256_update(struct cordon_sha256 *c, const void *data, size_t n);
/* The digest of all that was given to C, into OUT (C is spent). */
void cordon_sha256_final(struct cordon_sha256 *c, unsigned char out[CORDON_SHA256_SIZE]);

/* SHA-1 (6.1), in the same state: git names its objects by it (and a
 * repository made with objectFormat sha256, by SHA-256). */
void cordon_sha1_init(struct cordon_sha256 *c);
/* The digest of all that was given to C (cordon_sha256_update), into OUT. */
void cordon_sha1_final(struct cordon_sha256 *c, unsigned char out[CORDON_SHA1_SIZE]);

#endif
