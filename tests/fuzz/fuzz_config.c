/* libFuzzer target: the config parser (strict JSON, then every key's type
 * and value). Whatever the bytes, parsing must return 0 or a negative errno
 * with a message, never crash, leak or read out of bounds. A config that
 * parses must also resolve into a policy. */
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include "cordon/config.h"
#include "cordon/error.h"
#include "cordon/policy.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	if (cordon_config_parse((const char *)data, size, "fuzz.json", &cfg, &err) < 0) {
		if (!err.msg[0] || memchr(err.msg, '\0', sizeof(err.msg)) == NULL)
			__builtin_trap(); /* a failure always says why */
		return 0;
	}
	struct cordon_context ctx = {
		.project = "/tmp",
		.home = "/nonexistent-home",
		.uid = 1000,
		.kind = CORDON_KIND_TERMINAL,
		.os = CORDON_OS_LINUX,
		.session = "0123456789abcdef",
	};
	struct cordon_policy p;
	if (cordon_policy_resolve(&cfg, &ctx, &p, &err) == 0)
		cordon_policy_free(&p);
	cordon_config_free(&cfg);
	return 0;
}
