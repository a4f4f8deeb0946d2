/* Inflate (RFC 1951) inside a zlib wrapper (RFC 1950), written from the
 * two RFCs: stored, fixed and dynamic Huffman blocks. Each code is decoded
 * bit by bit against its canonical code's counts (3.2.2), which is slow
 * next to zlib's tables but cordon inflates only a few small objects a
 * session (git's commits and trees on the way to a protected file). The
 * data's own check (Adler-32) is not looked at: a git object is checked
 * whole, against its name. Runs outside the sandbox, on input a session
 * wrote: every read and write is bounded. */
#include "cordon/inflate.h"

#include <errno.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

struct in {
	const unsigned char *p;
	size_t len, at; /* bytes */
	uint32_t bits;  /* not yet used, low first */
	unsigned have;  /* in BITS */
};

struct out {
	unsigned char *p;
	size_t len, cap, max;
};

/* N bits (N <= 16), the first in the lowest; -1 past the end. */
static int32_t take(struct in *in, unsigned n)
{
	while (in->have < n) {
		if (in->at >= in->len)
			return -1;
		in->bits |= (uint32_t)in->p[in->at++] << in->have;
		in->have += 8;
	}
	int32_t v = (int32_t)(in->bits & ((1u << n) - 1));
	in->bits >>= n;
	in->have -= n;
	return v;
}

static int put(struct out *o, unsigned char c)
{
	if (o->len == o->cap) {
		if (o->cap >= o->max)
			return -EBADMSG;
		size_t cap = o->cap ? o->cap * 2 : 4096;
		if (cap > o->max)
			cap = o->max;
		unsigned char *p = realloc(o->p, cap);
		if (!p)
			return -ENOMEM;
		o->p = p;
		o->cap = cap;
	}
	o->p[o->len++] = c;
	return 0;
}

/* A canonical Huffman code (3.2.2): how many codes of each length, and
 * the symbols in the order of their codes. */
struct code {
	uint16_t count[16];
	uint16_t symbol[288];
};

/* The code of N symbols whose lengths are LENS. 0, or -EBADMSG: more
 * codes of a length than there is room for. */
static int build(struct code *c, const uint8_t *lens, unsigned n)
{
	uint16_t first[16];
	memset(c->count, 0, sizeof(c->count));
	for (unsigned s = 0; s < n; s++)
		c->count[lens[s]]++;
	int32_t left = 1;
	for (unsigned l = 1; l < 16; l++) {
		left = left * 2 - c->count[l];
		if (left < 0)
			return -EBADMSG;
	}
	first[1] = 0;
	for (unsigned l = 1; l < 15; l++)
		first[l + 1] = (uint16_t)(first[l] + c->count[l]);
	for (unsigned s = 0; s < n; s++)
		if (lens[s])
			c->symbol[first[lens[s]]++] = (uint16_t)s;
	return 0;
}

/* The next symbol of code C; -1 past the end or on no code. */
static int32_t decode(struct in *in, const struct code *c)
{
	int32_t code = 0, first = 0, index = 0;
	for (unsigned l = 1; l < 16; l++) {
		int32_t bit = take(in, 1);
		if (bit < 0)
			return -1;
		code |= bit;
		int32_t count = c->count[l];
		if (code - first < count)
			return c->symbol[index + code - first];
		index += count;
		first = (first + count) << 1;
		code <<= 1;
	}
	return -1;
}

/* (3.2.5) */
static const uint16_t len_base[29] = {3,  4,  5,  6,   7,   8,   9,   10,  11, 13,
				      15, 17, 19, 23,  27,  31,  35,  43,  51, 59,
				      67, 83, 99, 115, 131, 163, 195, 227, 258};
static const uint8_t len_extra[29] = {0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2,
				      2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0};
static const uint16_t dist_base[30] = {
	1,   2,   3,   4,   5,   7,    9,    13,   17,   25,   33,   49,   65,    97,    129,
	193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577};
static const uint8_t dist_extra[30] = {0, 0, 0, 0, 1, 1, 2, 2,  3,  3,  4,  4,  5,  5,  6,
				       6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13};

/* A compressed block's data, by its literal/length and distance codes. */
static int codes(struct in *in, struct out *o, const struct code *lit, const struct code *dist)
{
	for (;;) {
		int32_t s = decode(in, lit);
		if (s < 0)
			return -EBADMSG;
		if (s < 256) {
			int e = put(o, (unsigned char)s);
			if (e < 0)
				return e;
			continue;
		}
		if (s == 256)
			return 0;
		s -= 257;
		if (s >= 29)
			return -EBADMSG;
		int32_t extra = take(in, len_extra[s]);
		int32_t d = decode(in, dist);
		if (extra < 0 || d < 0 || d >= 30)
			return -EBADMSG;
		size_t n = len_base[s] + (size_t)extra;
		int32_t dx = take(in, dist_extra[d]);
		if (dx < 0)
			return -EBADMSG;
		size_t back = dist_base[d] + (size_t)dx;
		if (back > o->len)
			return -EBADMSG;
		for (size_t i = 0; i < n; i++) {
			int e = put(o, o->p[o->len - back]);
			if (e < 0)
				return e;
		}
	}
}

static int fixed(struct in *in, struct out *o)
{
	/* (3.2.6; built each time, a few hundred steps: no state shared
	 * between threads.) */
	struct code lit, dist;
	uint8_t lens[288];
	unsigned s = 0;
	for (; s < 144; s++)
		lens[s] = 8;
	for (; s < 256; s++)
		lens[s] = 9;
	for (; s < 280; s++)
		lens[s] = 7;
	for (; s < 288; s++)
		lens[s] = 8;
	(void)build(&lit, lens, 288);
	memset(lens, 5, 30);
	(void)build(&dist, lens, 30);
	return codes(in, o, &lit, &dist);
}

/* (3.2.7) */
static int dynamic(struct in *in, struct out *o)
{
	static const uint8_t order[19] = {16, 17, 18, 0, 8,  7, 9,  6, 10, 5,
					  11, 4,  12, 3, 13, 2, 14, 1, 15};
	int32_t hlit = take(in, 5), hdist = take(in, 5), hclen = take(in, 4);
	if (hlit < 0 || hdist < 0 || hclen < 0 || hlit + 257 > 286 || hdist + 1 > 30)
		return -EBADMSG;
	uint8_t lens[320] = {0};
	for (int32_t i = 0; i < hclen + 4; i++) {
		int32_t l = take(in, 3);
		if (l < 0)
			return -EBADMSG;
		lens[order[i]] = (uint8_t)l;
	}
	struct code lencode, lit, dist;
	if (build(&lencode, lens, 19) < 0)
		return -EBADMSG;
	unsigned n = (unsigned)(hlit + 257 + hdist + 1);
	memset(lens, 0, sizeof(lens));
	for (unsigned at = 0; at < n;) {
		int32_t s = decode(in, &lencode);
		if (s < 0)
			return -EBADMSG;
		if (s < 16) {
			lens[at++] = (uint8_t)s;
			continue;
		}
		uint8_t l = 0;
		int32_t rep;
		if (s == 16) {
			if (at == 0)
				return -EBADMSG;
			l = lens[at - 1];
			rep = take(in, 2);
			rep = rep < 0 ? -1 : rep + 3;
		} else if (s == 17) {
			rep = take(in, 3);
			rep = rep < 0 ? -1 : rep + 3;
		} else {
			rep = take(in, 7);
			rep = rep < 0 ? -1 : rep + 11;
		}
		if (rep < 0 || at + (unsigned)rep > n)
			return -EBADMSG;
		while (rep--)
			lens[at++] = l;
	}
	if (lens[256] == 0 || build(&lit, lens, (unsigned)hlit + 257) < 0 ||
	    build(&dist, lens + hlit + 257, (unsigned)hdist + 1) < 0)
		return -EBADMSG;
	return codes(in, o, &lit, &dist);
}

static int stored(struct in *in, struct out *o)
{
	in->bits = 0;
	in->have = 0; /* (to the next byte) */
	if (in->len - in->at < 4)
		return -EBADMSG;
	const unsigned char *p = in->p + in->at;
	unsigned n = p[0] | (unsigned)p[1] << 8, nn = p[2] | (unsigned)p[3] << 8;
	in->at += 4;
	if ((n ^ 0xffffu) != nn || in->len - in->at < n)
		return -EBADMSG;
	for (unsigned i = 0; i < n; i++) {
		int e = put(o, in->p[in->at + i]);
		if (e < 0)
			return e;
	}
	in->at += n;
	return 0;
}

int cordon_inflate(const unsigned char *data, size_t len, size_t expect, size_t max,
		   unsigned char **out, size_t *out_len, size_t *used)
{
	*out = NULL;
	*out_len = 0;
	/* (RFC 1950 2.2: deflate, a window of 32 KiB at most, no preset
	 * dictionary, and a header that is a multiple of 31.) */
	if (len < 2 || (data[0] & 0x0f) != 8 || (data[0] >> 4) > 7 || (data[1] & 0x20) ||
	    ((unsigned)data[0] << 8 | data[1]) % 31 != 0)
		return -EBADMSG;
	struct in in = {data, len, 2, 0, 0};
	struct out o = {NULL, 0, 0, expect != SIZE_MAX ? expect : max};
	if (expect != SIZE_MAX && expect > max)
		return -EBADMSG;
	if (expect != SIZE_MAX) {
		o.p = malloc(expect ? expect : 1);
		if (!o.p)
			return -ENOMEM;
		o.cap = expect;
	}
	int e = 0;
	for (int32_t last = 0; e == 0 && !last;) {
		last = take(&in, 1);
		int32_t type = last < 0 ? -1 : take(&in, 2);
		switch (type) {
		case 0:
			e = stored(&in, &o);
			break;
		case 1:
			e = fixed(&in, &o);
			break;
		case 2:
			e = dynamic(&in, &o);
			break;
		default: /* (3 is reserved; -1, the stream cut short) */
			e = -EBADMSG;
		}
	}
	/* (The Adler-32 after it: its 4 bytes must be there.) */
	if (e == 0 && (in.len - in.at < 4 || (expect != SIZE_MAX && o.len != expect)))
		e = -EBADMSG;
	if (e < 0) {
		free(o.p);
		return e;
	}
	*out = o.p ? o.p : malloc(1);
	if (!*out)
		return -ENOMEM;
	*out_len = o.len;
	if (used)
		*used = in.at + 4;
	return 0;
}
