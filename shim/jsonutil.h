/* Internal: strict, type-checked access to json-c values. json-c's getters
 * coerce silently (get_int on a string parses it), so every read goes through
 * these, which check the type first and name ORIGIN and KEY on failure. */
#ifndef CORDON_JSONUTIL_H
#define CORDON_JSONUTIL_H

#include <json-c/json.h>
#include <stdbool.h>

#include "cordon/config.h"
#include "cordon/error.h"
#include "cordon/strv.h"

/* Parse exactly LEN bytes as one JSON value (JSON_TOKENER_STRICT); only
 * whitespace may follow it. *OUT is a new reference, or NULL for `null`. */
int cordon_json_parse_strict(const char *text, size_t len, const char *origin,
			     struct json_object **out, struct cordon_error *err);
/* A key repeated in one object of TEXT (LEN bytes of JSON that
 * cordon_json_parse_strict accepted) is an error: "ORIGIN: PATH: duplicate
 * key (line N)", PATH the dotted path of the key ("system_paths.read_only"),
 * N the line of its second occurrence. Keys compare as decoded ("a" and
 * "\u0061" are the same). SCOPE NULL: every object counts; else only keys
 * whose path is SCOPE, inside it, or on the way to it (for an editor
 * settings file, "terminal.sandbox": the editor's own keys are its
 * business). A key with a \u0000 in it is an error too (json-c would keep
 * only what comes before it): "ORIGIN: PATH: key contains a NUL character
 * (\u0000) (line N)", PATH cut at the NUL. Of several, the earliest in the
 * text is named. Returns 0 or a negative errno. */
int cordon_json_check_duplicates(const char *text, size_t len, const char *origin,
				 const char *scope, struct cordon_error *err);
/* KEY (a config's key, as json-c decoded it) as text a terminal shows as
 * written: valid UTF-8 kept, each byte of an invalid sequence, a control
 * character (C0, DEL, C1) or U+2028/U+2029 as "?". Into BUF (SIZE bytes,
 * cut at a character's end); returns BUF. */
char *cordon_json_shown(const char *key, char *buf, size_t size);
const char *cordon_json_type_name(struct json_object *v);
int cordon_json_bool(struct json_object *v, const char *origin, const char *key, bool *out,
		     struct cordon_error *err);
/* *OUT points into V; strings with an embedded NUL are refused. */
int cordon_json_string(struct json_object *v, const char *origin, const char *key, const char **out,
		       struct cordon_error *err);
/* An array of strings, appended to OUT. */
int cordon_json_strv(struct json_object *v, const char *origin, const char *key,
		     struct cordon_strv *out, struct cordon_error *err);
/* Like cordon_json_strv, each element a non-empty path: absolute, "~", "~/..."
 * or relative. */
int cordon_json_paths(struct json_object *v, const char *origin, const char *key,
		      struct cordon_strv *out, struct cordon_error *err);

/* Editor settings are JSON with comments and trailing commas ("JSONC"):
 * blank every // and block comment and every trailing comma in TEXT with
 * spaces (newlines kept, so line and column numbers still point into the
 * file). Strings are left alone. Returns how many comments and commas were
 * blanked (0: TEXT was plain JSON), or -EINVAL with *BAD the offset of an
 * unterminated block comment. */
int cordon_jsonc_blank(char *text, size_t len, size_t *bad);

/* Read a regular file of at most MAX bytes; *OUT is NUL-terminated. */

int cordon_read_file(const char *path, size_t max, char **out, size_t *len_out,
		     struct cordon_error *err);

/* Apply the keys of ROOT (a parsed config object) to CFG. */
int cordon_config_apply_object(struct json_object *root, struct cordon_config *cfg,
			       struct cordon_error *err);

#endif
