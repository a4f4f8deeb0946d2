/* SHA-256 and SHA-1, as FIPS 180-4 defines them (sections 6.2 and 6.1):
 * written from the standard, checked against its examples
 * (tests/test_sha256.c). */
#include "cordon/sha256.h"

#include <string.h>

static const uint32_t K[64] = {
	0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4,
	0xab1c5ed5, 0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe,
	0x9bdc06a7, 0xc19bf174, 0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f,
	0x4a7484aa, 0x5cb0a9dc, 0x76f988da, 0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7,
	0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967, 0x27b70a85, 0x2e1b2138, 0x4d2c6dfc,
	0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85, 0xa2bfe8a1, 0xa81a664b,
	0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070, 0x19a4c116,
	0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
	0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7,
	0xc67178f2};

static uint32_t rotr(uint32_t x, unsigned n)
{
	return (x >> n) | (x << (32 - n));
}

/* One 64-byte block into C's state (6.2.2). */
static void compress(struct cordon_sha256 *c, const unsigned char *b)
{
	uint32_t w[64];
	for (size_t t = 0; t < 16; t++)
		w[t] = (uint32_t)b[4 * t] << 24 | (uint32_t)b[4 * t + 1] << 16 |
		       (uint32_t)b[4 * t + 2] << 8 | (uint32_t)b[4 * t + 3];
	for (size_t t = 16; t < 64; t++) {
		uint32_t s0 = rotr(w[t - 15], 7) ^ rotr(w[t - 15], 18) ^ (w[t - 15] >> 3);
		uint32_t s1 = rotr(w[t - 2], 17) ^ rotr(w[t - 2], 19) ^ (w[t - 2] >> 10);
		w[t] = w[t - 16] + s0 + w[t - 7] + s1;
	}
	uint32_t a = c->h[0], bb = c->h[1], cc = c->h[2], d = c->h[3], e = c->h[4], f = c->h[5],
		 g = c->h[6], h = c->h[7];
	for (size_t t = 0; t < 64; t++) {
		uint32_t t1 = h + (rotr(e, 6) ^ rotr(e, 11) ^ rotr(e, 25)) + ((e & f) ^ (~e & g)) +
			      K[t] + w[t];
		uint32_t t2 = (rotr(a, 2) ^ rotr(a, 13) ^ rotr(a, 22)) +
			      ((a & bb) ^ (a & cc) ^ (bb & cc));
		h = g;
		g = f;
		f = e;
		e = d + t1;
		d = cc;
		cc = bb;
		bb = a;
		a = t1 + t2;
	}
	c->h[0] += a;
	c->h[1] += bb;
	c->h[2] += cc;
	c->h[3] += d;
	c->h[4] += e;
	c->h[5] += f;
	c->h[6] += g;
	c->h[7] += h;
}

static uint32_t rotl(uint32_t x, unsigned n)
{
	return (x << n) | (x >> (32 - n));
}

/* One 64-byte block into C's SHA-1 state (6.1.2). */
static void compress1(struct cordon_sha256 *c, const unsigned char *b)
{
	uint32_t w[80];
	for (size_t t = 0; t < 16; t++)
		w[t] = (uint32_t)b[4 * t] << 24 | (uint32_t)b[4 * t + 1] << 16 |
		       (uint32_t)b[4 * t + 2] << 8 | (uint32_t)b[4 * t + 3];
	for (size_t t = 16; t < 80; t++)
		w[t] = rotl(w[t - 3] ^ w[t - 8] ^ w[t - 14] ^ w[t - 16], 1);
	uint32_t a = c->h[0], bb = c->h[1], cc = c->h[2], d = c->h[3], e = c->h[4];
	for (size_t t = 0; t < 80; t++) {
		uint32_t f, k;
		if (t < 20)
			f = (bb & cc) ^ (~bb & d), k = 0x5a827999;
		else if (t < 40)
			f = bb ^ cc ^ d, k = 0x6ed9eba1;
		else if (t < 60)
			f = (bb & cc) ^ (bb & d) ^ (cc & d), k = 0x8f1bbcdc;
		else
			f = bb ^ cc ^ d, k = 0xca62c1d6;
		uint32_t tmp = rotl(a, 5) + f + e + k + w[t];
		e = d;
		d = cc;
		cc = rotl(bb, 30);
		bb = a;
		a = tmp;
	}
	c->h[0] += a;
	c->h[1] += bb;
	c->h[2] += cc;
	c->h[3] += d;
	c->h[4] += e;
}

void cordon_sha256_init(struct cordon_sha256 *c)
{
	static const uint32_t h0[8] = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
				       0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
	memcpy(c->h, h0, sizeof(h0));
	c->bytes = 0;
	c->used = 0;
	c->sha1 = 0;
}

void cordon_sha1_init(struct cordon_sha256 *c)
{
	static const uint32_t h0[5] = {0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0};
	memset(c, 0, sizeof(*c));
	memcpy(c->h, h0, sizeof(h0));
	c->sha1 = 1;
}

void cordon_sha256_update(struct cordon_sha256 *c, const void *data, size_t n)
{
	const unsigned char *p = data;
	c->bytes += n;
	if (c->used) {
		size_t take = sizeof(c->block) - c->used < n ? sizeof(c->block) - c->used : n;
		memcpy(c->block + c->used, p, take);
		c->used += take;
		p += take;
		n -= take;
		if (c->used < sizeof(c->block))
			return;
		(c->sha1 ? compress1 : compress)(c, c->block);
		c->used = 0;
	}
	for (; n >= sizeof(c->block); p += sizeof(c->block), n -= sizeof(c->block))
		(c->sha1 ? compress1 : compress)(c, p);
	memcpy(c->block, p, n);
	c->used = n;
}

/* The padding (5.1.1: a 1 bit, zeros to 56 bytes of a block, the length
 * in bits, big-endian), then WORDS words of C's state into OUT. */
static void finish(struct cordon_sha256 *c, unsigned char *out, size_t words)
{
	uint64_t bits = c->bytes * 8;
	unsigned char pad[72] = {0x80};
	size_t zeros = (c->used < 56 ? 56 : 120) - c->used;
	for (size_t i = 0; i < 8; i++)
		pad[zeros + i] = (unsigned char)(bits >> (56 - 8 * i));
	cordon_sha256_update(c, pad, zeros + 8);
	for (size_t i = 0; i < words; i++) {
		out[4 * i] = (unsigned char)(c->h[i] >> 24);
		out[4 * i + 1] = (unsigned char)(c->h[i] >> 16);
		out[4 * i + 2] = (unsigned char)(c->h[i] >> 8);
		out[4 * i + 3] = (unsigned char)c->h[i];
	}
}

void cordon_sha1_final(struct cordon_sha256 *c, unsigned char out[CORDON_SHA1_SIZE])
{
	finish(c, out, 5);
}

void cordon_sha256_final(struct cordon_sha256 *c, unsigned char out[CORDON_SHA256_SIZE])
{
	finish(c, out, 8);
}
