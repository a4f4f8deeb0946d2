#include "jsonutil.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "util.h"

const char *cordon_json_type_name(struct json_object *v)
{
	switch (json_object_get_type(v)) {
	case json_type_null:
		return "null";
	case json_type_boolean:
		return "a boolean";
	case json_type_double:
	case json_type_int:
		return "a number";
	case json_type_object:
		return "an object";
	case json_type_array:
		return "an array";
	case json_type_string:
		return "a string";
	}
	return "an unknown type";
}

static void line_col(const char *text, size_t off, size_t *line, size_t *col)
{
	*line = 1;
	*col = 1;
	for (size_t i = 0; i < off; i++) {
		if (text[i] == '\n') {
			(*line)++;
			*col = 1;
		} else {
			(*col)++;
		}
	}
}

/* json-c's STRICT mode still accepts single-quoted strings and raw control
 * characters inside strings; RFC 8259 allows neither. Returns the offset of
 * the first such byte, or LEN. */
static size_t lenient_offset(const char *text, size_t len, const char **what)
{
	bool in_string = false;
	for (size_t i = 0; i < len; i++) {
		unsigned char ch = (unsigned char)text[i];
		if (in_string) {
			if (ch == '\\') {
				i++;
			} else if (ch == '"') {
				in_string = false;
			} else if (ch < 0x20) {
				*what = "control character inside a string";
				return i;
			}
		} else if (ch == '"') {
			in_string = true;
		} else if (ch == '\'') {
			*what = "single-quoted string";
			return i;
		}
	}
	return len;
}

int cordon_json_parse_strict(const char *text, size_t len, const char *origin,
			     struct json_object **out, struct cordon_error *err)
{
	if (len > INT_MAX)
		return cordon_err(err, EFBIG, "%s: too large to parse", origin);
	const char *nul = memchr(text, '\0', len);
	if (nul) {
		size_t line, col;
		line_col(text, (size_t)(nul - text), &line, &col);
		return cordon_err(err, EINVAL, "%s: line %zu, column %zu: malformed JSON: NUL byte",
				  origin, line, col);
	}
	/* (Some Windows editors save one: 45b F6.) */
	if (len >= 3 && memcmp(text, "\xef\xbb\xbf", 3) == 0)
		return cordon_err(err, EINVAL,
				  "%s: line 1, column 1: malformed JSON: a UTF-8 byte-order mark "
				  "(save the file without one)",
				  origin);
	const char *lenient = NULL;
	size_t bad = lenient_offset(text, len, &lenient);
	if (lenient) {
		size_t line, col;
		line_col(text, bad, &line, &col);
		return cordon_err(err, EINVAL, "%s: line %zu, column %zu: malformed JSON: %s",
				  origin, line, col, lenient);
	}
	struct json_tokener *tok = json_tokener_new();
	if (!tok)
		return cordon_err(err, ENOMEM, "%s: out of memory", origin);
	json_tokener_set_flags(tok, JSON_TOKENER_STRICT);
	struct json_object *obj = json_tokener_parse_ex(tok, text, (int)len);
	enum json_tokener_error jerr = json_tokener_get_error(tok);
	size_t end = json_tokener_get_parse_end(tok);
	if (jerr == json_tokener_continue) {
		/* A bare literal at the very end ("null", "true", "1") is only
		 * complete once the tokener sees the end: tell it with a NUL. */
		struct json_object *last = json_tokener_parse_ex(tok, "", 1);
		if (json_tokener_get_error(tok) == json_tokener_success) {
			obj = last;
			jerr = json_tokener_success;
		}
	}
	json_tokener_free(tok);

	const char *what = NULL;
	bool empty = true; /* nothing but whitespace before END: no value at all */
	for (size_t i = 0; i < end && i < len && empty; i++)
		empty = strchr(" \t\r\n", text[i]) != NULL;
	if (jerr == json_tokener_continue || (!obj && jerr == json_tokener_success && empty))
		what = "unexpected end of input";
	else if (jerr != json_tokener_success)
		what = json_tokener_error_desc(jerr);
	if (!what) {
		for (size_t i = end; i < len; i++) {
			if (!strchr(" \t\r\n", text[i])) {
				end = i;
				what = "unexpected bytes after the top-level value";
				break;
			}
		}
	}
	if (what) {
		json_object_put(obj);
		size_t line, col;
		line_col(text, end, &line, &col);
		return cordon_err(err, EINVAL, "%s: line %zu, column %zu: malformed JSON: %s",
				  origin, line, col, what);
	}
	*out = obj;
	return 0;
}

/* ---- duplicate keys ----
 *
 * json-c keeps the last of two equal keys in an object and drops the first
 * without a word; a config where that happens is refused instead. The scan
 * runs over text the strict parser has already accepted, so it only has to
 * follow strings (their escapes), nesting and which strings are keys. Keys
 * are compared as json-c stores them: escapes decoded, a lone surrogate as
 * U+FFFD, and cut at a \u0000 (json-c keeps the key as a C string). */

struct dup_key {
	size_t off; /* the decoded key in the scan's key bytes */
	size_t len;
	size_t at;     /* its opening quote in the text */
	const char *s; /* set just before a sort */
};

struct dup_frame {
	bool object;
	bool expect_key;  /* object: the next string is a key */
	size_t first;     /* object: its first entry in the scan's keys */
	size_t key_bytes; /* the scan's key bytes when it opened */
	size_t last;      /* object: the entry of the key whose value is open */
	size_t index;     /* array: the element being read */
};

struct dup_scan {
	const char *text;
	size_t len;
	const char *scope;
	struct dup_frame *frames;
	size_t n_frames, frames_cap;
	struct dup_key *keys;
	size_t n_keys, keys_cap;
	char *bytes; /* the decoded keys of the open objects, back to back */
	size_t n_bytes, bytes_cap;
	size_t best_at;   /* the earliest bad key found so far, or SIZE_MAX */
	char best[640];   /* its path ("system_paths.read_only") */
	const char *what; /* what is wrong with it: "duplicate key", ... */
};

static bool dup_put(struct dup_scan *s, const void *b, size_t n)
{
	if (!cordon_reserve(&s->bytes, &s->bytes_cap, s->n_bytes + n, 256))
		return false;
	memcpy(s->bytes + s->n_bytes, b, n);
	s->n_bytes += n;
	return true;
}

static int hex4(const char *t, size_t len, size_t i)
{
	int v = 0;
	if (i + 4 > len)
		return -1;
	for (size_t k = i; k < i + 4; k++) {
		char c = t[k];
		int d = c >= '0' && c <= '9'   ? c - '0'
			: c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10
					       : -1;
		if (d < 0)
			return -1;
		v = v * 16 + d;
	}
	return v;
}

static size_t utf8(unsigned cp, char out[4])
{
	if (cp < 0x80) {
		out[0] = (char)cp;
		return 1;
	}
	if (cp < 0x800) {
		out[0] = (char)(0xc0 | (cp >> 6));
		out[1] = (char)(0x80 | (cp & 0x3f));
		return 2;
	}
	if (cp < 0x10000) {
		out[0] = (char)(0xe0 | (cp >> 12));
		out[1] = (char)(0x80 | ((cp >> 6) & 0x3f));
		out[2] = (char)(0x80 | (cp & 0x3f));
		return 3;
	}
	out[0] = (char)(0xf0 | (cp >> 18));
	out[1] = (char)(0x80 | ((cp >> 12) & 0x3f));
	out[2] = (char)(0x80 | ((cp >> 6) & 0x3f));
	out[3] = (char)(0x80 | (cp & 0x3f));
	return 4;
}

/* The string whose opening quote is at TEXT[I]: decoded onto the scan's key
 * bytes when KEEP, up to a \u0000 (*CUT set then). Returns the index after
 * its closing quote (LEN if it has none), or 0 when out of memory. */
static size_t dup_string(struct dup_scan *s, size_t i, bool keep, bool *cut_out)
{
	const char *t = s->text;
	bool cut = false; /* a \u0000 ended the key as json-c keeps it */
	for (i++; i < s->len && t[i] != '"'; i++) {
		char out[8];
		size_t n = 1;
		out[0] = t[i];
		if (t[i] == '\\' && i + 1 < s->len) {
			char e = t[++i];
			static const char from[] = "\"\\/bfnrt", to[] = "\"\\/\b\f\n\r\t";
			const char *f = e ? strchr(from, e) : NULL;
			if (f) {
				out[0] = to[f - from];
			} else if (e == 'u') {
				int cp = hex4(t, s->len, i + 1);
				if (cp < 0)
					return s->len;
				i += 4;
				if (cp >= 0xd800 && cp <= 0xdbff && i + 2 < s->len &&
				    t[i + 1] == '\\' && t[i + 2] == 'u') {
					int lo = hex4(t, s->len, i + 3);
					if (lo >= 0xdc00 && lo <= 0xdfff) {
						cp = 0x10000 + ((cp - 0xd800) << 10) +
						     (lo - 0xdc00);
						i += 6;
					}
				}
				if (cp >= 0xd800 && cp <= 0xdfff)
					cp = 0xfffd; /* a lone surrogate, as json-c */
				if (cp == 0)
					cut = true;
				n = utf8((unsigned)cp, out);
			}
		}
		if (keep && !cut && !dup_put(s, out, n))
			return 0;
	}
	*cut_out = cut;
	return i < s->len ? i + 1 : s->len;
}

/* Append KEY (LEN bytes) to BUF, control characters as \xNN. */
static void dup_append(char *buf, size_t size, const char *key, size_t len)
{
	size_t at = strlen(buf);
	for (size_t i = 0; i < len && at + 5 < size; i++) {
		unsigned char c = (unsigned char)key[i];
		if (c < 0x20 || c == 0x7f)
			at += (size_t)snprintf(buf + at, size - at, "\\x%02x", c);
		else
			buf[at++] = (char)c;
	}
	buf[at] = '\0';
}

/* The path of the innermost open object, then KEY: "terminal.sandbox.enabled". */
static void dup_path(const struct dup_scan *s, const struct dup_key *key, char *buf, size_t size)
{
	buf[0] = '\0';
	for (size_t f = 0; f + 1 < s->n_frames; f++) {
		const struct dup_frame *fr = &s->frames[f];
		if (fr->object) {
			const struct dup_key *k = &s->keys[fr->last];
			if (buf[0])
				dup_append(buf, size, ".", 1);
			dup_append(buf, size, s->bytes + k->off, k->len);
		} else {
			char idx[32];
			snprintf(idx, sizeof(idx), "[%zu]", fr->index);
			dup_append(buf, size, idx, strlen(idx));
		}
	}
	if (buf[0])
		dup_append(buf, size, ".", 1);
	dup_append(buf, size, s->bytes + key->off, key->len);
}

/* PATH is SCOPE, inside it, or on the way to it. */
static bool in_scope(const char *path, const char *scope)
{
	if (!scope)
		return true;
	size_t p = strlen(path), n = strlen(scope);
	if (p <= n)
		return strncmp(scope, path, p) == 0 && (scope[p] == '\0' || scope[p] == '.');
	return strncmp(path, scope, n) == 0 && (path[n] == '.' || path[n] == '[');
}

static int dup_key_cmp(const void *a, const void *b)
{
	const struct dup_key *x = a, *y = b;
	size_t n = x->len < y->len ? x->len : y->len;
	int c = memcmp(x->s, y->s, n);
	if (c)
		return c;
	if (x->len != y->len)
		return x->len < y->len ? -1 : 1;
	return x->at < y->at ? -1 : x->at > y->at;
}

/* KEY (at AT in the text, PATH its path) is wrong in WHAT way: it becomes
 * the one reported when it comes before the best found so far and is in
 * scope. */
static void dup_offer(struct dup_scan *s, size_t at, const char *path, const char *what)
{
	if (at < s->best_at && in_scope(path, s->scope)) {
		s->best_at = at;
		snprintf(s->best, sizeof(s->best), "%s", path);
		s->what = what;
	}
}

static bool dup_same(const struct dup_key *a, const struct dup_key *b)
{
	return a->len == b->len && memcmp(a->s, b->s, a->len) == 0;
}

/* The innermost object closes: each key repeated in it, at its second
 * occurrence, is offered. Every one is: the earliest repeat may be an
 * editor's own key, out of scope, with cordon's block repeated after it. */
static void dup_close_object(struct dup_scan *s)
{
	struct dup_frame *fr = &s->frames[s->n_frames - 1];
	size_t n = s->n_keys - fr->first;
	if (n < 2)
		return;
	struct dup_key *k = s->keys + fr->first;
	for (size_t i = 0; i < n; i++)
		k[i].s = s->bytes + k[i].off;
	qsort(k, n, sizeof(*k), dup_key_cmp);
	for (size_t i = 1; i < n; i++) {
		/* Sorted by key, then place: K[I] is a second occurrence when it
		 * repeats K[I - 1] and K[I - 1] is a first. */
		if (!dup_same(&k[i], &k[i - 1]) || (i > 1 && dup_same(&k[i - 1], &k[i - 2])) ||
		    k[i].at >= s->best_at)
			continue;
		char path[sizeof(s->best)];
		dup_path(s, &k[i], path, sizeof(path));
		dup_offer(s, k[i].at, path, "duplicate key");
	}
}

static bool dup_open(struct dup_scan *s, bool object)
{
	struct dup_frame *f =
		cordon_grow(s->frames, &s->frames_cap, s->n_frames + 1, sizeof(*f), 16);
	if (!f)
		return false;
	s->frames = f;
	f[s->n_frames++] = (struct dup_frame){.object = object,
					      .expect_key = object,
					      .first = s->n_keys,
					      .key_bytes = s->n_bytes,
					      .last = SIZE_MAX};
	return true;
}

static int dup_walk(struct dup_scan *s)
{
	const char *t = s->text;
	for (size_t i = 0; i < s->len;) {
		struct dup_frame *top = s->n_frames ? &s->frames[s->n_frames - 1] : NULL;
		char c = t[i];
		if (c == '"') {
			bool key = top && top->object && top->expect_key;
			size_t start = s->n_bytes;
			if (key) {
				struct dup_key *k = cordon_grow(s->keys, &s->keys_cap,
								s->n_keys + 1, sizeof(*k), 32);
				if (!k)
					return -ENOMEM;
				s->keys = k;
			}
			bool cut = false;
			size_t next = dup_string(s, i, key, &cut);
			if (!next)
				return -ENOMEM;
			if (key) {
				top->last = s->n_keys;
				top->expect_key = false;
				s->keys[s->n_keys++] = (struct dup_key){
					.off = start, .len = s->n_bytes - start, .at = i};
			}
			/* json-c keeps such a key only up to the NUL: read as its
			 * prefix ("enabled\u0000 (ignore me)" as "enabled"), which no
			 * reader of the file, the schema or another tool sees. */
			if (key && cut && i < s->best_at) {
				char path[sizeof(s->best)];
				dup_path(s, &s->keys[s->n_keys - 1], path, sizeof(path));
				dup_offer(s, i, path, "key contains a NUL character (\\u0000)");
			}
			i = next;
			continue;
		}
		if (c == '{' || c == '[') {
			if (!dup_open(s, c == '{'))
				return -ENOMEM;
		} else if ((c == '}' || c == ']') && top) {
			if (top->object)
				dup_close_object(s);
			s->n_keys = top->first;
			s->n_bytes = top->key_bytes;
			s->n_frames--;
		} else if (c == ',' && top) {
			if (top->object)
				top->expect_key = true;
			else
				top->index++;
		}
		i++;
	}
	return 0;
}

/* The length of the UTF-8 character at S (1 to 4) and its code point, or
 * 0 where S holds no valid one (overlong, a surrogate, past U+10FFFF). */
static size_t utf8_char(const unsigned char *s, unsigned *cp)
{
	size_t n = s[0] < 0x80             ? 1
		   : (s[0] & 0xe0) == 0xc0 ? 2
		   : (s[0] & 0xf0) == 0xe0 ? 3
		   : (s[0] & 0xf8) == 0xf0 ? 4
					   : 0;
	if (!n)
		return 0;
	unsigned c = n == 1 ? s[0] : s[0] & (0x7f >> n);
	for (size_t i = 1; i < n; i++) {
		if ((s[i] & 0xc0) != 0x80)
			return 0;
		c = c << 6 | (s[i] & 0x3f);
	}
	static const unsigned least[] = {0, 0, 0x80, 0x800, 0x10000};
	if (c < least[n] || c > 0x10ffff || (c >= 0xd800 && c <= 0xdfff))
		return 0;
	*cp = c;
	return n;
}

char *cordon_json_shown(const char *key, char *buf, size_t size)
{
	const unsigned char *s = (const unsigned char *)key;
	size_t k = 0;
	while (*s && size) {
		unsigned cp = 0;
		size_t n = utf8_char(s, &cp);
		bool shown = n && cp >= 0x20 && cp != 0x7f && !(cp >= 0x80 && cp < 0xa0) &&
			     cp != 0x2028 && cp != 0x2029;
		size_t w = shown ? n : 1;
		if (k + w + 1 > size)
			break;
		if (shown)
			memcpy(buf + k, s, n);
		else
			buf[k] = '?';
		k += w;
		s += n ? n : 1;
	}
	if (size)
		buf[k] = '\0';
	return buf;
}

int cordon_json_check_duplicates(const char *text, size_t len, const char *origin,
				 const char *scope, struct cordon_error *err)
{
	struct dup_scan s = {.text = text, .len = len, .scope = scope, .best_at = SIZE_MAX};
	/* Allocated up front: empty keys point into it too. */
	int r = cordon_reserve(&s.bytes, &s.bytes_cap, 1, 256) ? dup_walk(&s) : -ENOMEM;
	free(s.frames);
	free(s.keys);
	free(s.bytes);
	if (r < 0)
		return cordon_err(err, -r, "%s: out of memory", origin);
	if (s.best_at == SIZE_MAX)
		return 0;
	size_t line, col;
	line_col(text, s.best_at, &line, &col);
	char shown[sizeof(s.best)];
	return cordon_err(err, EINVAL, "%s: %s: %s (line %zu)", origin,
			  cordon_json_shown(s.best, shown, sizeof(shown)), s.what, line);
}

int cordon_json_bool(struct json_object *v, const char *origin, const char *key, bool *out,
		     struct cordon_error *err)
{
	if (!json_object_is_type(v, json_type_boolean))
		return cordon_err(err, EINVAL, "%s: %s: expected true or false, got %s", origin,
				  key, cordon_json_type_name(v));
	*out = json_object_get_boolean(v);
	return 0;
}

int cordon_json_string(struct json_object *v, const char *origin, const char *key, const char **out,
		       struct cordon_error *err)
{
	if (!json_object_is_type(v, json_type_string))
		return cordon_err(err, EINVAL, "%s: %s: expected a string, got %s", origin, key,
				  cordon_json_type_name(v));
	const char *s = json_object_get_string(v);
	if (strlen(s) != (size_t)json_object_get_string_len(v))
		return cordon_err(err, EINVAL, "%s: %s: string contains a NUL character", origin,
				  key);
	*out = s;
	return 0;
}

int cordon_json_strv(struct json_object *v, const char *origin, const char *key,
		     struct cordon_strv *out, struct cordon_error *err)
{
	if (!json_object_is_type(v, json_type_array))
		return cordon_err(err, EINVAL, "%s: %s: expected an array of strings, got %s",
				  origin, key, cordon_json_type_name(v));
	size_t n = json_object_array_length(v);
	for (size_t i = 0; i < n; i++) {
		char name[160];
		snprintf(name, sizeof(name), "%s[%zu]", key, i);
		const char *s = NULL;
		int r = cordon_json_string(json_object_array_get_idx(v, i), origin, name, &s, err);
		if (r < 0)
			return r;
		if (cordon_strv_push(out, s) < 0)
			return cordon_err(err, ENOMEM, "%s: out of memory", origin);
	}
	return 0;
}

int cordon_json_paths(struct json_object *v, const char *origin, const char *key,
		      struct cordon_strv *out, struct cordon_error *err)
{
	size_t first = out->n;
	int r = cordon_json_strv(v, origin, key, out, err);
	if (r < 0)
		return r;
	for (size_t i = first; i < out->n; i++) {
		const char *p = out->v[i];
		if (!*p)
			return cordon_err(err, EINVAL, "%s: %s[%zu]: expected a path, got \"\"",
					  origin, key, i - first);
		if (p[0] == '~' && p[1] != '\0' && p[1] != '/')
			return cordon_err(err, EINVAL,
					  "%s: %s[%zu]: expected an absolute path, ~ or ~/..., got "
					  "\"%s\" (~user is not supported)",
					  origin, key, i - first, p);
	}
	return 0;
}

/* Skip a string starting at TEXT[I] == '"'; returns the index after it. */
static size_t skip_string(const char *text, size_t len, size_t i)
{
	for (i++; i < len; i++) {
		if (text[i] == '\\')
			i++;
		else if (text[i] == '"')
			return i + 1;
	}
	return len;
}

int cordon_jsonc_blank(char *text, size_t len, size_t *bad)
{
	int blanked = 0;
	/* Comments first, so that a comma before a comment and a closing
	 * bracket is seen as trailing. */
	for (size_t i = 0; i < len;) {
		if (text[i] == '"') {
			i = skip_string(text, len, i);
		} else if (text[i] == '/' && i + 1 < len && text[i + 1] == '/') {
			for (; i < len && text[i] != '\n'; i++)
				text[i] = ' ';
			blanked++;
		} else if (text[i] == '/' && i + 1 < len && text[i + 1] == '*') {
			size_t start = i;
			for (i += 2; i + 1 < len && !(text[i] == '*' && text[i + 1] == '/'); i++)
				;
			if (i + 1 >= len) {
				*bad = start;
				return -EINVAL;
			}
			for (size_t j = start; j <= i + 1; j++)
				if (text[j] != '\n')
					text[j] = ' ';
			i += 2;
			blanked++;
		} else {
			i++;
		}
	}
	for (size_t i = 0; i < len;) {
		if (text[i] == '"') {
			i = skip_string(text, len, i);
			continue;
		}
		if (text[i] == ',') {
			size_t j = i + 1;
			while (j < len && strchr(" \t\r\n", text[j]))
				j++;
			if (j < len && (text[j] == '}' || text[j] == ']')) {
				text[i] = ' ';
				blanked++;
			}
		}
		i++;
	}
	return blanked;
}
