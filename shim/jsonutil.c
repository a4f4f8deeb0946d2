#include "jsonutil.h"

#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

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
	json_tokener_free(tok);

	const char *what = NULL;
	if (jerr == json_tokener_continue || (!obj && jerr == json_tokener_success))
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
