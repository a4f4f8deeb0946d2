/* Tools' configs that hold a secret beside what the tool needs inside
 * (round 61a). cargo reads ~/.cargo/config.toml for its registries, source
 * replacement, aliases and build settings, and a registry's token may sit
 * there too ([registries.X] token); hatch's config.toml holds the publish
 * password (publish.index.auth) beside its settings, and hatch refuses to
 * run without a readable config; pdm's the repository and index
 * passwords beside the index it installs from; go's env (go env -w) may
 * hold GOPROXY with a user and password beside GOPRIVATE and GOFLAGS.
 * Hidden whole, each tool breaks or goes to the public index; read whole,
 * the session reads the secret. So where one holds a secret, the session
 * reads a copy without it, as it reads the shadow files without their
 * password fields (shim/linux/mountns.c): each value of a token, auth or
 * password key made "", each URL's user and password left out. */
#include "redact.h"

#include <errno.h>
#include <fcntl.h>
#include <stddef.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#define LINE_MAX_LEN 8192

bool cordon_redact_config(const char *path)
{
	static const char *const tails[] = {"/.cargo/config.toml", "/.cargo/config",
					    "/hatch/config.toml", "/pdm/config.toml", "/go/env"};
	size_t n = strlen(path);
	for (size_t i = 0; i < sizeof(tails) / sizeof(*tails); i++) {
		size_t t = strlen(tails[i]);
		if (n > t && strcmp(path + n - t, tails[i]) == 0)
			return true;
	}
	return false;
}

/* Where a secret key's value starts in IN[0..N) when a key named token,
 * auth or password (a dotted key's last part, quoted or not) starts at I:
 * past its "=" and the blanks after it; 0 where none does. */
static size_t key_value_at(const char *in, size_t n, size_t i)
{
	static const char *const keys[] = {"token", "auth", "password"};
	if (i > 0 && !strchr(" \t.{,\"'", in[i - 1]))
		return 0;
	for (size_t k = 0; k < sizeof(keys) / sizeof(*keys); k++) {
		size_t len = strlen(keys[k]);
		if (n - i < len || strncasecmp(in + i, keys[k], len) != 0)
			continue;
		size_t j = i + len;
		if (j < n && (in[j] == '"' || in[j] == '\''))
			j++;
		while (j < n && (in[j] == ' ' || in[j] == '\t'))
			j++;
		if (j >= n || in[j] != '=')
			continue;
		for (j++; j < n && (in[j] == ' ' || in[j] == '\t');)
			j++;
		return j;
	}
	return 0;
}

/* Past the value at IN[J..N) (a string, a multi-line one ending on this
 * line, or a bare word); *MULTI set to its quote where a multi-line
 * string goes on past this line (N returned). */
static size_t value_end(const char *in, size_t n, size_t j, char *multi)
{
	char q = in[j];
	if ((q == '"' || q == '\'') && n - j >= 3 && in[j + 1] == q && in[j + 2] == q) {
		for (size_t k = j + 3; k + 2 < n; k++)
			if (in[k] == q && in[k + 1] == q && in[k + 2] == q)
				return k + 3;
		*multi = q;
		return n;
	}
	if (q == '"' || q == '\'') {
		size_t k = j + 1;
		while (k < n && in[k] != q && in[k] != '\n')
			k += q == '"' && in[k] == '\\' ? 2 : 1;
		return k < n && in[k] == q ? k + 1 : k;
	}
	size_t k = j;
	while (k < n && !strchr(",}]# \t\r\n", in[k]))
		k++;
	return k;
}

/* The line IN[0..N) (its newline included, if it has one) into OUT (2N+2
 * bytes at least) without its secrets; its length. *MULTI: the quote of
 * a multi-line secret value still open, whose lines are left out;
 * *CHANGED set where anything was left out. */
static size_t redact_line(const char *in, size_t n, char *out, char *multi, bool *changed)
{
	size_t i = 0, o = 0;
	if (*multi) {
		for (; i + 2 < n; i++)
			if (in[i] == *multi && in[i + 1] == *multi && in[i + 2] == *multi)
				break;
		*changed = true;
		if (i + 2 >= n)
			return 0; /* (still inside it) */
		i += 3;
		*multi = 0;
	}
	while (i < n) {
		if (n - i >= 3 && memcmp(in + i, "://", 3) == 0) {
			out[o++] = ':';
			out[o++] = '/';
			out[o++] = '/';
			i += 3;
			size_t e = i, at = 0;
			while (e < n && !strchr("/?#\"' \t,;}]\r\n", in[e])) {
				if (in[e] == '@')
					at = e + 1;
				e++;
			}
			if (at) {
				i = at; /* (the user and password left out) */
				*changed = true;
			}
			continue;
		}
		size_t v = key_value_at(in, n, i);
		if (v) {
			memcpy(out + o, in + i, v - i);
			o += v - i;
			size_t end = value_end(in, n, v, multi);
			if (end - v > 2 || (end - v == 2 && in[v] != in[v + 1]) ||
			    (end - v == 1 && in[v] != '"' && in[v] != '\'') || *multi)
				*changed = true;
			out[o++] = '"';
			out[o++] = '"';
			i = end;
			if (*multi && n && in[n - 1] == '\n')
				out[o++] = '\n';
			continue;
		}
		out[o++] = in[i++];
	}
	return o;
}

static int write_all(int fd, const char *b, size_t n)
{
	while (n > 0) {
		ssize_t k = write(fd, b, n);
		if (k < 0 && errno == EINTR)
			continue;
		if (k <= 0)
			return k < 0 ? -errno : -EIO;
		b += k;
		n -= (size_t)k;
	}
	return 0;
}

/* FROM's lines without their secrets, into TO (where TO >= 0); whether
 * anything was left out into *CHANGED. */
static int redact_stream(int from, int to, bool *changed)
{
	char buf[4096], line[LINE_MAX_LEN], out[2 * LINE_MAX_LEN + 2];
	size_t len = 0;
	bool overlong = false;
	char multi = 0;
	ssize_t got;
	*changed = false;
	for (;;) {
		got = read(from, buf, sizeof(buf));
		if (got < 0 && errno == EINTR)
			continue;
		if (got < 0)
			return -errno;
		for (ssize_t i = 0; i <= got; i++) {
			bool end = i == got;
			if (end && got > 0)
				break; /* (more to read) */
			if (!end) {
				if (len < sizeof(line))
					line[len++] = buf[i];
				else
					overlong = true;
				if (buf[i] != '\n')
					continue;
			}
			if (overlong) {
				/* Not judged: left out, its line kept. */
				*changed = true;
				if (to >= 0 && write_all(to, "\n", 1) < 0)
					return -errno;
			} else if (len) {
				size_t o = redact_line(line, len, out, &multi, changed);
				int e = to >= 0 ? write_all(to, out, o) : 0;
				if (e < 0)
					return e;
			}
			len = 0;
			overlong = false;
		}
		if (got == 0)
			return 0;
	}
}

int cordon_redact_copy(int from, int to)
{
	bool changed;
	return redact_stream(from, to, &changed);
}

bool cordon_redact_needed(const char *path)
{
	int fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK);
	if (fd < 0)
		return false;
	bool changed = false;
	int e = redact_stream(fd, -1, &changed);
	close(fd);
	return e == 0 && changed;
}
