/* Rules for network by domain (see cordon/domains.h): what a rule may be,
 * and whether a host matches. Pure string work, shared by the config
 * parser, explain and the proxy. */
#include "cordon/domains.h"

#include <arpa/inet.h>
#include <ctype.h>
#include <stdio.h>
#include <string.h>

bool cordon_host_is_ipv4(const char *host)
{
	struct in_addr a;
	/* inet_pton, not inet_aton: only the four-decimal form ("127.1" and
	 * "0x7f.0.0.1" are no literals here, and no names either). */
	return inet_pton(AF_INET, host, &a) == 1;
}

/* Whether NAME (canonical) is a host name: labels of letters, digits and
 * hyphens (and underscores, which real names carry: _dmarc), 1..63 bytes,
 * no hyphen at either end, and a last label that is not all digits (that
 * would read as a number: only a whole IPv4 literal is taken). */
static bool valid_name(const char *name)
{
	size_t len = strlen(name);
	if (len == 0 || len > CORDON_HOST_MAX)
		return false;
	const char *label = name;
	for (;;) {
		const char *dot = strchr(label, '.');
		size_t n = dot ? (size_t)(dot - label) : strlen(label);
		if (n == 0 || n > 63 || label[0] == '-' || label[n - 1] == '-')
			return false;
		bool digits = true;
		for (size_t i = 0; i < n; i++) {
			unsigned char c = (unsigned char)label[i];
			if (!(islower(c) || isdigit(c) || c == '-' || c == '_'))
				return false;
			if (!isdigit(c))
				digits = false;
		}
		if (!dot)
			return !digits;
		label = dot + 1;
	}
}

bool cordon_host_canonical(const char *host, size_t len, char out[CORDON_HOST_MAX + 1])
{
	if (len && host[len - 1] == '.')
		len--;
	if (len == 0 || len > CORDON_HOST_MAX)
		return false;
	for (size_t i = 0; i < len; i++) {
		unsigned char c = (unsigned char)host[i];
		if (c == '\0')
			return false;
		out[i] = (char)tolower(c);
	}
	out[len] = '\0';
	return cordon_host_is_ipv4(out) || valid_name(out);
}

const char *cordon_domain_invalid(const char *rule)
{
	/* (A URL pasted in: its host alone, review 45b F2, 45d N5.) */
	const char *scheme = strstr(rule, "://");
	const char *host = scheme ? scheme + 3 : rule;
	if (scheme || strchr(rule, '/')) {
		static __thread char said[CORDON_HOST_MAX + 96];
		size_t n = strcspn(host, ":/?#");
		snprintf(said, sizeof(said), "%s: give the host name alone (\"%.*s\")",
			 scheme ? "a URL" : "a path",
			 n > CORDON_HOST_MAX ? CORDON_HOST_MAX : (int)n, host);
		return said;
	}
	if (strchr(rule, ':'))
		return "IPv6 literals and ports are not supported (a host name or IPv4 address)";
	if (strcmp(rule, "*") == 0 || strcmp(rule, "*.") == 0)
		return "\"*\" would allow every host: use \"allow_network\": true without "
		       "allowed_domains";
	const char *name = strncmp(rule, "*.", 2) == 0 ? rule + 2 : rule;
	if (strchr(name, '*'))
		return "\"*\" is only allowed as a leading \"*.\"";
	char canon[CORDON_HOST_MAX + 1];
	size_t len = strlen(name);
	if (len && name[len - 1] == '.')
		return "expected a name without a trailing dot";
	if (!cordon_host_canonical(name, len, canon))
		return "expected a host name (letters, digits, '-', '_', labels joined by '.'), "
		       "\"*.\" and a name, or an IPv4 address";
	if (strcmp(canon, name) != 0)
		return "expected lower case";
	if (name != rule && cordon_host_is_ipv4(canon))
		return "\"*.\" before an IP address";
	return NULL;
}

const char *cordon_domain_unreached(const char *rule)
{
	const char *name = strncmp(rule, "*.", 2) == 0 ? rule + 2 : rule;
	size_t n = strlen(name);
	bool local = strcmp(name, "localhost") == 0 ||
		     (n > 10 && strcmp(name + n - 10, ".localhost") == 0);
	bool loop = cordon_host_is_ipv4(name) &&
		    (strncmp(name, "127.", 4) == 0 || strncmp(name, "0.", 2) == 0 ||
		     strncmp(name, "169.254.", 8) == 0);
	if (local || loop)
		return "a loopback, link-local or unspecified host, which cordon's proxy never "
		       "reaches (a server of the session's own is reached directly)";
	return NULL;
}

bool cordon_domain_match(const struct cordon_strv *rules, const char *host, const char **which)
{
	bool ip = cordon_host_is_ipv4(host);
	size_t hl = strlen(host);
	for (size_t i = 0; i < rules->n; i++) {
		const char *r = rules->v[i];
		bool hit;
		if (strncmp(r, "*.", 2) == 0) {
			size_t sl = strlen(r + 1); /* ".example.com" */
			hit = !ip && hl > sl && strcmp(host + hl - sl, r + 1) == 0;
		} else {
			hit = strcmp(host, r) == 0;
		}
		if (hit) {
			if (which)
				*which = r;
			return true;
		}
	}
	return false;
}

enum cordon_domain_verdict cordon_domain_judge(const struct cordon_strv *allowed,
					       const struct cordon_strv *denied, const char *host)
{
	if (cordon_domain_match(denied, host, NULL))
		return CORDON_DOMAIN_DENIED;
	return cordon_domain_match(allowed, host, NULL) ? CORDON_DOMAIN_ALLOWED
							: CORDON_DOMAIN_NOT_LISTED;
}
