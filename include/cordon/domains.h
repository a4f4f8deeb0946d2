/* cordon — network by domain: the names a session may reach through
 * cordon's proxy (allowed_domains, denied_domains, --allow-domain).
 *
 * A rule is a host name ("registry.npmjs.org"), a host name with a leading
 * "*." for every name below it ("*.example.com": a.example.com,
 * b.a.example.com, not example.com itself), or a dotted IPv4 literal
 * ("192.0.2.7", reached only when written so). Names are compared without
 * case and without a trailing dot. A denied rule wins over an allowed one. */
#ifndef CORDON_DOMAINS_H
#define CORDON_DOMAINS_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon/strv.h"

#define CORDON_HOST_MAX 253 /* the longest DNS name, without its trailing dot */

/* NULL when RULE is a valid rule; else why not (a static string, for a
 * message that names the key and the value). */
const char *cordon_domain_invalid(const char *rule);
/* NULL when the valid RULE can be reached through cordon's proxy; else why
 * not (localhost, a loopback, link-local or unspecified IPv4 address):
 * refused in allowed_domains and --allow-domain (round 58c F3: accepted,
 * and listed by explain, it let nothing through). */
const char *cordon_domain_unreached(const char *rule);

/* HOST (as a client wrote it) made canonical into OUT (CORDON_HOST_MAX + 1
 * bytes): lower case, no trailing dot. false when it is no host name or
 * IPv4 literal at all (an IPv6 literal, empty, bad characters, too long). */
bool cordon_host_canonical(const char *host, size_t len, char out[CORDON_HOST_MAX + 1]);

/* Whether the canonical HOST is a dotted IPv4 literal. */
bool cordon_host_is_ipv4(const char *host);

/* Whether the canonical HOST matches one of RULES; the rule that did in
 * *WHICH (may be NULL). An IPv4 literal matches only itself. */
bool cordon_domain_match(const struct cordon_strv *rules, const char *host, const char **which);

enum cordon_domain_verdict {
	CORDON_DOMAIN_ALLOWED = 0,
	CORDON_DOMAIN_NOT_LISTED, /* in no allowed rule */
	CORDON_DOMAIN_DENIED,     /* in a denied rule (which wins) */
};

/* The verdict on the canonical HOST. */
enum cordon_domain_verdict cordon_domain_judge(const struct cordon_strv *allowed,
					       const struct cordon_strv *denied, const char *host);

#endif
