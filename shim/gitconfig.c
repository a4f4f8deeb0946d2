/* git's config syntax, read as git 2.39's config.c reads it
 * (git_parse_source, get_base_var, get_value, parse_value). Before this
 * file each reader had its own line-at-a-time parser, and each missed a
 * form git takes (round 50h: "[include] path = F" on one line; a value
 * carried on by a final backslash, or quoted mid-way, as
 * path = ../."team", which git reads as ../.team): the file a user's
 * include or core.hooksPath names went unguarded. */
#include "cordon/gitconfig.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "cordon/guard.h"
#include "cordon/strv.h"
#include "util.h"

/* git's ctype (sane_ctype): ASCII only, whatever the locale. */
static bool git_space(int c)
{
	return c == ' ' || c == '\t' || c == '\n' || c == '\r';
}

static bool git_alpha(int c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z');
}

static bool key_char(int c)
{
	return git_alpha(c) || (c >= '0' && c <= '9') || c == '-';
}

static int lower(int c)
{
	return c >= 'A' && c <= 'Z' ? c + ('a' - 'A') : c;
}

struct source {
	const unsigned char *p, *end;
	bool eof;
	const unsigned char *line_end; /* where the last '\n' given began */
};

/* git's get_next_char: CRLF as one '\n', the end as '\n' (again and
 * again) with EOF set. */
static int next_char(struct source *s)
{
	if (s->p >= s->end) {
		s->eof = true;
		s->line_end = s->end;
		return '\n';
	}
	const unsigned char *at = s->p;
	int c = *s->p++;
	if (c == '\r' && s->p < s->end && *s->p == '\n') {
		s->p++;
		c = '\n';
	}
	if (c == '\n')
		s->line_end = at;
	return c;
}

struct buf {
	char *s;
	size_t n, cap;
};

static int add(struct buf *b, int c)
{
	if (b->n + 2 > b->cap) {
		size_t cap = b->cap ? b->cap * 2 : 64;
		char *s = realloc(b->s, cap);
		if (!s)
			return -ENOMEM;
		b->s = s;
		b->cap = cap;
	}
	b->s[b->n++] = (char)c;
	b->s[b->n] = '\0';
	return 0;
}

/* The header after its '[' into NAME ("section" or "section.sub", the
 * section and an old-style ".sub" lowercased): 0, or -EINVAL. */
static int header(struct source *s, struct buf *name)
{
	for (;;) {
		int c = next_char(s);
		if (s->eof)
			return -EINVAL;
		if (c == ']')
			return name->n ? 0 : -EINVAL;
		if (git_space(c)) {
			/* [section "sub"]: blanks, then the quoted name. */
			do {
				if (c == '\n')
					return -EINVAL;
				c = next_char(s);
			} while (git_space(c));
			if (c != '"' || add(name, '.') < 0)
				return c != '"' ? -EINVAL : -ENOMEM;
			for (;;) {
				c = next_char(s);
				if (c == '\n')
					return -EINVAL;
				if (c == '"')
					break;
				if (c == '\\' && (c = next_char(s)) == '\n')
					return -EINVAL;
				if (add(name, c) < 0)
					return -ENOMEM;
			}
			return next_char(s) == ']' && name->n > 0 ? 0 : -EINVAL;
		}
		if (!key_char(c) && c != '.')
			return -EINVAL;
		if (add(name, lower(c)) < 0)
			return -ENOMEM;
	}
}

/* The value after '=' into VALUE: 0, or -EINVAL (an unknown escape, a
 * line end inside quotes). */
static int value(struct source *s, struct buf *value)
{
	bool quote = false, comment = false;
	size_t spaces = 0;
	if (add(value, 'x') < 0) /* an empty one is "" */
		return -ENOMEM;
	value->n = 0;
	value->s[0] = '\0';
	for (;;) {
		int c = next_char(s);
		if (c == '\n')
			return quote ? -EINVAL : 0;
		if (comment)
			continue;
		if (git_space(c) && !quote) {
			if (value->n)
				spaces++;
			continue;
		}
		if (!quote && (c == ';' || c == '#')) {
			comment = true;
			continue;
		}
		for (; spaces; spaces--)
			if (add(value, ' ') < 0)
				return -ENOMEM;
		if (c == '\\') {
			switch (c = next_char(s)) {
			case '\n':
				continue; /* the value goes on on the next line */
			case 't':
				c = '\t';
				break;
			case 'b':
				c = '\b';
				break;
			case 'n':
				c = '\n';
				break;
			case '\\':
			case '"':
				break;
			default:
				return -EINVAL;
			}
		} else if (c == '"') {
			quote = !quote;
			continue;
		}
		if (add(value, c) < 0)
			return -ENOMEM;
	}
}

int cordon_gitcfg_parse(const char *text, size_t len, cordon_gitcfg_fn fn, void *arg)
{
	static const unsigned char bom[] = {0xef, 0xbb, 0xbf};
	struct source s = {(const unsigned char *)text, (const unsigned char *)text + len, false,
			   NULL};
	struct buf name = {0}, val = {0};
	const char *hdr = "";
	size_t hdr_len = 0, sect_len = 0;
	int e = 0;
	if (len >= 3 && memcmp(text, bom, 3) == 0)
		s.p += 3;
	else if (len && *s.p == bom[0])
		e = -EINVAL; /* a partial one git does not take */
	for (bool comment = false; e == 0;) {
		const unsigned char *at = s.p;
		int c = next_char(&s);
		if (c == '\n') {
			if (s.eof)
				break;
			comment = false;
			continue;
		}
		if (comment || git_space(c))
			continue;
		if (c == '#' || c == ';') {
			comment = true;
			continue;
		}
		if (c == '[') {
			name.n = 0;
			if (name.s)
				name.s[0] = '\0';
			e = header(&s, &name);
			hdr = (const char *)at;
			hdr_len = (size_t)(s.p - at);
			sect_len = name.n;
			continue;
		}
		if (!git_alpha(c)) {
			e = -EINVAL;
			break;
		}
		/* section.sub, then the key (lowercased) after it. */
		name.n = sect_len;
		if (name.s)
			name.s[sect_len] = '\0';
		if (add(&name, '.') < 0 || add(&name, lower(c)) < 0) {
			e = -ENOMEM;
			break;
		}
		while ((c = next_char(&s)), !s.eof && key_char(c))
			if (add(&name, lower(c)) < 0) {
				e = -ENOMEM;
				break;
			}
		while (e == 0 && (c == ' ' || c == '\t'))
			c = next_char(&s);
		bool has_value = c != '\n';
		if (e == 0 && has_value) {
			free(val.s);
			val = (struct buf){0};
			e = c != '=' ? -EINVAL : value(&s, &val);
		}
		if (e != 0)
			break;
		const char *end = s.line_end ? (const char *)s.line_end : (const char *)s.p;
		/* Split section[.sub].key: the section ends at the first dot,
		 * the key begins after the last. */
		char *full = strdup(name.s);
		if (!full) {
			e = -ENOMEM;
			break;
		}
		char *first = strchr(full, '.'), *last = strrchr(full, '.');
		*last = '\0';
		const char *sub = NULL;
		if (first != last) {
			*first = '\0';
			sub = first + 1;
		}
		struct cordon_gitcfg_entry entry = {
			.section = full,
			.sub = sub,
			.key = last + 1,
			.value = has_value ? val.s : NULL,
			.header = hdr,
			.header_len = hdr_len,
			.text = (const char *)at,
			.text_len = end > (const char *)at ? (size_t)(end - (const char *)at) : 0,
		};
		int r = fn(&entry, arg);
		free(full);
		if (r < 0)
			e = r;
	}
	free(name.s);
	free(val.s);
	return e;
}

int cordon_gitcfg_read(const char *file, cordon_gitcfg_fn fn, void *arg)
{
	FILE *f = cordon_fopen_regular(file);
	struct stat st;
	if (!f)
		return -ENOENT;
	if (fstat(fileno(f), &st) < 0 || st.st_size > CORDON_GIT_CONFIG_MAX) {
		(void)fclose(f); /* read only */
		return -EFBIG;
	}
	size_t cap = (size_t)st.st_size, n;
	char *text = malloc(cap + 1);
	n = text ? fread(text, 1, cap, f) : 0;
	(void)fclose(f); /* read only */
	if (!text)
		return -ENOMEM;
	int e = cordon_gitcfg_parse(text, n, fn, arg);
	free(text);
	return e;
}

static const struct cordon_strv *env_given;

void cordon_gitcfg_env_from(const struct cordon_strv *kv)
{
	env_given = kv;
}

const char *cordon_gitcfg_getenv(const char *name)
{
	if (!env_given)
		return getenv(name);
	size_t n = strlen(name);
	for (size_t i = 0; i < env_given->n; i++)
		if (strncmp(env_given->v[i], name, n) == 0 && env_given->v[i][n] == '=')
			return env_given->v[i] + n + 1;
	return NULL;
}

int cordon_gitcfg_known_homes(struct cordon_strv *out)
{
	size_t n = strlen(CORDON_GITCFG_KNOWN_HOME);
	int e = 0;
	for (size_t i = 0; env_given && e >= 0 && i < env_given->n; i++)
		if (strncmp(env_given->v[i], CORDON_GITCFG_KNOWN_HOME, n) == 0 &&
		    env_given->v[i][n] == '=' && env_given->v[i][n + 1] == '/')
			e = cordon_strv_push_new(out, env_given->v[i] + n + 1);
	return e;
}

/* NAME=VALUE from GETENV_FN into OUT, where it is set: 0, or -ENOMEM. */
static int capture(char *(*getenv_fn)(const char *), const char *name, struct cordon_strv *out)
{
	const char *v = getenv_fn(name);
	char *kv = NULL;
	if (!v)
		return 0;
	return asprintf(&kv, "%s=%s", name, v) < 0 ? -ENOMEM : cordon_strv_push_take(out, kv);
}

int cordon_gitcfg_env_capture(char *(*getenv_fn)(const char *), struct cordon_strv *out)
{
	static const char *const names[] = {"GIT_CONFIG_GLOBAL", "GIT_CONFIG_SYSTEM",
					    "GIT_CONFIG_COUNT", "GIT_CONFIG_PARAMETERS"};
	int e = 0;
	for (size_t i = 0; getenv_fn && e >= 0 && i < sizeof(names) / sizeof(names[0]); i++)
		e = capture(getenv_fn, names[i], out);
	const char *count = getenv_fn ? getenv_fn("GIT_CONFIG_COUNT") : NULL;
	long n = count ? strtol(count, NULL, 10) : 0;
	for (long i = 0; e >= 0 && i < n && i < 1000; i++) {
		char name[48];
		snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%ld", i);
		e = capture(getenv_fn, name, out);
		snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%ld", i);
		if (e >= 0)
			e = capture(getenv_fn, name, out);
	}
	return e;
}

/* One 'single-quoted' word at *AT as git's sq_dequote_step reads it
 * ('\\'' and '\\!' outside the quotes go on with it), in place; *AT after
 * it (NULL at the end). NULL where it is none. */
static char *sq_word(char **at)
{
	char *src = *at, *dst = src, *start = src;
	if (*src != '\'')
		return NULL;
	for (;;) {
		char c = *++src;
		if (!c)
			return NULL;
		if (c != '\'') {
			*dst++ = c;
			continue;
		}
		if (src[1] == '\\' && (src[2] == '\'' || src[2] == '!') && src[3] == '\'') {
			*dst++ = src[2];
			src += 3;
			continue;
		}
		*dst = '\0';
		*at = src[1] ? src + 1 : NULL;
		return start;
	}
}

/* KEY (section[.sub].key) and VALUE (NULL: a key alone) to FN as an entry. */
static int env_entry(const char *k, const char *v, cordon_gitcfg_fn fn, void *arg)
{
	const char *first = strchr(k, '.'), *last = strrchr(k, '.');
	if (!first || !last[1])
		return -EINVAL;
	/* section.sub.key: the section and the key in any case, the
	 * subsection as written. */
	char *full = strdup(k);
	if (!full)
		return -ENOMEM;
	char *f = full + (first - k), *l = full + (last - k);
	for (char *c = full; c < f; c++)
		*c = (char)lower(*c);
	for (char *c = l + 1; *c; c++)
		*c = (char)lower(*c);
	*l = '\0';
	*f = '\0';
	struct cordon_gitcfg_entry e = {
		.section = full,
		.sub = f == l ? NULL : f + 1,
		.key = l + 1,
		.value = v,
		.header = "",
		.text = k,
		.text_len = strlen(k),
	};
	int r = fn(&e, arg);
	free(full);
	return r;
}

/* GIT_CONFIG_PARAMETERS ('key'='value' 'key2'= or the old 'key=value',
 * what git -c hands its children) to FN, as git's parse_config_env_list
 * reads it. */
static int env_parameters(cordon_gitcfg_fn fn, void *arg)
{
	const char *env = cordon_gitcfg_getenv("GIT_CONFIG_PARAMETERS");
	char *copy = env ? strdup(env) : NULL;
	if (env && !copy)
		return -ENOMEM;
	int e = 0;
	for (char *cur = copy; e >= 0 && cur && *cur;) {
		char *key = sq_word(&cur), *value = NULL;
		if (key && (!cur || git_space(*cur))) { /* 'key=value' */
			value = strchr(key, '=');
			if (value)
				*value++ = '\0';
			e = env_entry(key, value, fn, arg);
		} else if (key && *cur == '=') { /* 'key'='value', or 'key'= */
			cur++;
			if (*cur == '\'') {
				value = sq_word(&cur);
				e = !value || (cur && !git_space(*cur)) ? -EINVAL : 0;
			} else if (*cur && !git_space(*cur)) {
				e = -EINVAL;
			}
			if (e >= 0)
				e = env_entry(key, value, fn, arg);
		} else {
			e = -EINVAL;
		}
		while (cur && git_space(*cur))
			cur++;
	}
	free(copy);
	return e;
}

int cordon_gitcfg_env(cordon_gitcfg_fn fn, void *arg)
{
	const char *count = cordon_gitcfg_getenv("GIT_CONFIG_COUNT");
	if (!count || !count[0])
		return env_parameters(fn, arg);
	char *end;
	errno = 0;
	long n = strtol(count, &end, 10);
	if (*end || errno || n < 0 || n > 100000)
		return -EINVAL;
	for (long i = 0; i < n; i++) {
		char name[48];
		snprintf(name, sizeof(name), "GIT_CONFIG_KEY_%ld", i);
		const char *k = cordon_gitcfg_getenv(name);
		snprintf(name, sizeof(name), "GIT_CONFIG_VALUE_%ld", i);
		const char *v = cordon_gitcfg_getenv(name);
		if (!k || !v)
			return -EINVAL;
		int r = env_entry(k, v, fn, arg);
		if (r < 0)
			return r;
	}
	return env_parameters(fn, arg);
}

bool cordon_gitcfg_path(const char *value, const char *home, const char *base, char *out,
			size_t size)
{
	int n;
	if (value[0] == '~') {
		const char *rest = value + 1 + strcspn(value + 1, "/");
		size_t un = (size_t)(rest - value - 1);
		const char *dir = home;
		char user[256];
		if (un) {
			struct passwd *pw = NULL;
			if (un < sizeof(user)) {
				memcpy(user, value + 1, un);
				user[un] = '\0';
				pw = getpwnam(user);
			}
			dir = pw ? pw->pw_dir : NULL;
		}
		if (!dir)
			return false;
		n = snprintf(out, size, "%s%s", dir, rest);
	} else if (value[0] == '/') {
		n = snprintf(out, size, "%s", value);
	} else if (base && value[0] && strncmp(value, "%(prefix)/", 10) != 0) {
		n = snprintf(out, size, "%s/%s", base, value);
	} else {
		/* None, or one in git's own prefix (/usr): no session writes
		 * there. */
		return false;
	}
	return n > 0 && (size_t)n < size;
}
