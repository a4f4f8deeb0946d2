/* SHA-256 and SHA-1 against the examples of FIPS 180-4 (and NIST's long
 * message), given whole and in pieces of every size a block can split
 * into. */
#include <criterion/criterion.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cordon/sha256.h"

static void hex(const unsigned char *d, size_t n, char out[65])
{
	for (size_t i = 0; i < n; i++)
		snprintf(out + 2 * i, 3, "%02x", d[i]);
}

/* MSG hashed in pieces of STEP bytes (0: whole), by SHA-1 if SHA1. */
static void digest_by(int sha1, const char *msg, size_t len, size_t step, char out[65])
{
	struct cordon_sha256 c;
	unsigned char d[CORDON_SHA256_SIZE];
	if (sha1)
		cordon_sha1_init(&c);
	else
		cordon_sha256_init(&c);
	for (size_t at = 0; at < len;) {
		size_t n = step && len - at > step ? step : len - at;
		cordon_sha256_update(&c, msg + at, n);
		at += n;
	}
	if (sha1)
		cordon_sha1_final(&c, d);
	else
		cordon_sha256_final(&c, d);
	hex(d, sha1 ? CORDON_SHA1_SIZE : CORDON_SHA256_SIZE, out);
}

struct example {
	const char *msg, *want;
};

/* Each of CASES (N) hashed in pieces of every size up to a block and one
 * more, and a million a's in large pieces, by SHA-1 if SHA1. */
static void expect_examples(int sha1, const struct example *cases, size_t n, const char *million)
{
	char got[65];
	for (size_t i = 0; i < n; i++)
		for (size_t step = 0; step <= 65; step++) {
			digest_by(sha1, cases[i].msg, strlen(cases[i].msg), step, got);
			cr_expect_str_eq(got, cases[i].want, "\"%s\" in pieces of %zu",
					 cases[i].msg, step);
		}
	size_t len = 1000000;
	char *a = malloc(len);
	cr_assert_not_null(a);
	memset(a, 'a', len);
	for (size_t step = 0; step <= 4096; step += 1000) {
		digest_by(sha1, a, len, step ? step + 7 : 0, got);
		cr_expect_str_eq(got, million, "a million a's in pieces of %zu", step);
	}
	free(a);
}

Test(sha256, the_standards_examples)
{
	static const struct example cases[] = {
		{"", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		 "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		/* (55, 56 and 64 bytes: the padding's edges.) */
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		 "9f4390f8d30c2dd92ec9f095b65e2b9ae9b0a925a5258e241c9f1e910f734318"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		 "b35439a4ac6f0948b6d6f9e3c6af0f5f590ce20f1bde7090ef7970686ec6738a"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		 "ffe054fe7ae0cb6dc65c3af9b61d5209f439851db43d0ba5997337df154668eb"},
	};
	expect_examples(0, cases, sizeof(cases) / sizeof(*cases),
			"cdc76e5c9914fb9281a1c7e284d73e67f1809a48a497200e046d39ccc7112cd0");
}

Test(sha256, sha1_the_standards_examples)
{
	static const struct example cases[] = {
		{"", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
		{"abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq",
		 "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		 "c1c8bbdc22796e28c0e15163d20899b65621d65a"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		 "c2db330f6083854c99d4b5bfb6e8f29f201be699"},
		{"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa",
		 "0098ba824b5c16427bd7a1122a5a442a25ec644d"},
	};
	expect_examples(1, cases, sizeof(cases) / sizeof(*cases),
			"34aa973cd4c4daa4f61eeb2bdbad27316534016f");
}
