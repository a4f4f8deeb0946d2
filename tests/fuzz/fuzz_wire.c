/* libFuzzer target: the wire decoder the shim runs on the config FD before
 * anything else. Whatever the bytes: 0 or a negative errno, never a crash. A
 * frame that decodes must encode again and decode to the same frame. */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cordon/error.h"
#include "cordon/policy.h"
#include "cordon/wire.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cordon_policy p;
	struct cordon_error err = {0};
	if (cordon_wire_decode((const char *)data, size, &p, &err) < 0)
		return 0;
	char *a = NULL, *b = NULL;
	size_t alen = 0, blen = 0;
	struct cordon_policy q;
	if (cordon_wire_encode(&p, &a, &alen, &err) < 0)
		__builtin_trap();
	if (cordon_wire_decode(a, alen, &q, &err) < 0)
		__builtin_trap(); /* what we encode, we must decode */
	if (cordon_wire_encode(&q, &b, &blen, &err) < 0 || alen != blen || memcmp(a, b, alen) != 0)
		__builtin_trap(); /* and it is stable */
	free(a);
	free(b);
	cordon_policy_free(&q);
	cordon_policy_free(&p);
	return 0;
}
