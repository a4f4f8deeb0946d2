/* Strict parsing of config.json into struct cordon_config. */
#include "cordon/config.h"
#include "cordon/domains.h"

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <json-c/json.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/env.h"
#include "cordon/toolchain.h"
#include "jsonutil.h"
#include "util.h"

static const char *const class_keys[CORDON_CLASS_COUNT] = {"executable", "read_only", "read_write"};
static const char *const class_extra_keys[CORDON_CLASS_COUNT] = {
	"additional_executable_paths", "additional_read_only_paths", "additional_read_write_paths"};

const char *cordon_class_key(enum cordon_class c)
{
	return c < CORDON_CLASS_COUNT ? class_keys[c] : "?";
}

const char *cordon_class_extra_key(enum cordon_class c)
{
	return c < CORDON_CLASS_COUNT ? class_extra_keys[c] : "?";
}

int cordon_config_init(struct cordon_config *cfg, const char *origin)
{
	memset(cfg, 0, sizeof(*cfg));
	cfg->origin = strdup(origin ? origin : "(built-in defaults)");
	if (!cfg->origin)
		return -ENOMEM;
	cfg->enabled = true;
	cfg->apply_to = CORDON_KIND_TERMINAL | CORDON_KIND_TOOL;
	cfg->allow_network = true;
	cfg->on_unsupported = CORDON_UNSUPPORTED_REFUSE;
	return 0;
}

void cordon_config_free(struct cordon_config *cfg)
{
	free(cfg->origin);
	free(cfg->file);
	for (int c = 0; c < CORDON_CLASS_COUNT; c++) {
		cordon_strv_free(&cfg->system[c]);
		cordon_strv_free(&cfg->additional[c]);
	}
	cordon_strv_free(&cfg->allowed_env);
	cordon_strv_free(&cfg->additional_env);
	cordon_strv_free(&cfg->unix_sockets);
	cordon_strv_free(&cfg->allowed_domains);
	cordon_strv_free(&cfg->denied_domains);
	cordon_strv_free(&cfg->protected_paths);
	cordon_strv_free(&cfg->hidden_paths);
	cordon_strv_free(&cfg->additional_protected);
	cordon_strv_free(&cfg->additional_hidden);
	cordon_strv_free(&cfg->toolchains);
	memset(cfg, 0, sizeof(*cfg));
}

static int parse_apply_to(struct json_object *v, const char *origin, unsigned *out,
			  struct cordon_error *err)
{
	static const struct {
		const char *name;
		unsigned mask;
	} values[] = {
		{"terminal", CORDON_KIND_TERMINAL},
		{"tool", CORDON_KIND_TOOL},
		{"both", CORDON_KIND_TERMINAL | CORDON_KIND_TOOL},
		{"neither", 0},
	};
	const char *s;
	int r = cordon_json_string(v, origin, "apply_to", &s, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < ARRAY_SIZE(values); i++)
		if (strcmp(s, values[i].name) == 0) {
			*out = values[i].mask;
			return 0;
		}
	return cordon_err(err, EINVAL,
			  "%s: apply_to: expected \"terminal\", \"tool\", \"both\" or \"neither\", "
			  "got \"%s\"",
			  origin, s);
}

static int parse_on_unsupported(struct json_object *v, const char *origin,
				enum cordon_on_unsupported *out, struct cordon_error *err)
{
	const char *s;
	int r = cordon_json_string(v, origin, "on_unsupported", &s, err);
	if (r < 0)
		return r;
	if (strcmp(s, "refuse") == 0)
		*out = CORDON_UNSUPPORTED_REFUSE;
	else if (strcmp(s, "warn") == 0)
		*out = CORDON_UNSUPPORTED_WARN;
	else
		return cordon_err(err, EINVAL,
				  "%s: on_unsupported: expected \"refuse\" or \"warn\", got \"%s\"",
				  origin, s);
	return 0;
}

/* allowed_env_vars or additional_env_vars (KEY): names and PREFIX* patterns. */
static int parse_env_list(struct json_object *v, const char *origin, const char *key,
			  struct cordon_strv *out, struct cordon_error *err)
{
	int r = cordon_json_strv(v, origin, key, out, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < out->n; i++) {
		if (!cordon_env_name_valid(out->v[i]))
			return cordon_err(err, EINVAL,
					  "%s: %s[%zu]: expected a variable name "
					  "(letters, digits, _; optional trailing *), got \"%s\"",
					  origin, key, i, out->v[i]);
		if (cordon_env_never_passed(out->v[i]))
			return cordon_err(err, EINVAL,
					  "%s: %s[%zu]: %s never passes into a session (cordon "
					  "removes it); drop it",
					  origin, key, i, out->v[i]);
	}
	return 0;
}

/* allowed_unix_sockets: paths, or "$NAME" for the socket an environment
 * variable names when the session starts ("$SSH_AUTH_SOCK"). */
static int parse_sockets(struct json_object *v, const char *origin, struct cordon_strv *out,
			 struct cordon_error *err)
{
	static const char key[] = "allowed_unix_sockets";
	size_t first = out->n;
	int r = cordon_json_paths(v, origin, key, out, err);
	if (r < 0)
		return r;
	for (size_t i = first; i < out->n; i++) {
		const char *s = out->v[i];
		if (s[0] == '$' && (!cordon_env_name_valid(s + 1) || strchr(s, '*')))
			return cordon_err(
				err, EINVAL,
				"%s: %s[%zu]: expected a path or \"$NAME\" (an environment "
				"variable holding a socket path), got \"%s\"",
				origin, key, i - first, s);
	}
	return 0;
}

/* A path list (system_paths.*, additional_*_paths, protected_paths): a
 * path spelled with a variable ("$HOME/.x", "${XDG_CONFIG_HOME}/x") is
 * not expanded, so it would be a name relative to the project that is
 * not there, skipped unsaid at every launch: refused, as hidden_paths
 * refuses it (issue 20: every setting applies or is refused). */
static int parse_paths(struct json_object *v, const char *origin, const char *key,
		       struct cordon_strv *out, struct cordon_error *err)
{
	size_t first = out->n;
	int r = cordon_json_paths(v, origin, key, out, err);
	for (size_t i = first; r >= 0 && i < out->n; i++)
		if (cordon_path_spells_variable(out->v[i]))
			return cordon_err(err, EINVAL,
					  "%s: %s[%zu]: \"%s\": variables are not expanded here: "
					  "write ~/... or the path itself",
					  origin, key, i - first, out->v[i]);
	return r;
}

/* hidden_paths: paths or patterns ("~/.config/STAR/User/globalStorage").
 * What would do nothing, silently, is an error (round 10: "$HOME/.secrets",
 * " ~/.secrets" and "file://~/.secrets" hid a name in the project that did
 * not exist), and so is what would hide everything ("/", "~", ".": the
 * root, the home, the project). */
static int parse_hidden(struct json_object *v, const char *origin, const char *key,
			struct cordon_strv *out, struct cordon_error *err)
{
	size_t first = out->n;
	int r = cordon_json_paths(v, origin, key, out, err);
	for (size_t i = first; r >= 0 && i < out->n; i++) {
		const char *s = out->v[i];
		size_t n = strlen(s);
		const char *why = NULL;
		if (isspace((unsigned char)s[0]) || isspace((unsigned char)s[n - 1]))
			why = "it begins or ends with a space";
		else if (strchr(s, '$'))
			why = "variables are not expanded here: write ~/... or the path itself";
		else if (strstr(s, "://"))
			why = "a URL: write ~/... or the path itself";
		char norm[PATH_MAX];
		snprintf(norm, sizeof(norm), "%s", s);
		for (bool again = true; again;) {
			n = strlen(norm);
			again = false;
			if (n > 1 && norm[n - 1] == '/')
				again = (norm[n - 1] = '\0', true);
			else if (n > 2 && strcmp(norm + n - 2, "/.") == 0)
				again = (norm[n - 2] = '\0', true);
		}
		const char *last = strrchr(norm, '/');
		last = last ? last + 1 : norm;
		if (!why && (strcmp(norm, "/") == 0 || strcmp(norm, "~") == 0 ||
			     strcmp(norm, ".") == 0 || norm[0] == '\0' || strcmp(last, "..") == 0))
			why = "it would hide every file beneath it, and leave nothing to run";
		if (why)
			return cordon_err(err, EINVAL, "%s: %s[%zu]: \"%s\": %s", origin, key,
					  i - first, s, why);
	}
	return r;
}

/* toolchains: preset names (shim/toolchain.c), each known. */
static int parse_toolchains(struct json_object *v, const char *origin, struct cordon_strv *out,
			    struct cordon_error *err)
{
	static const char key[] = "toolchains";
	int r = cordon_json_strv(v, origin, key, out, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < out->n; i++) {
		if (!cordon_toolchain_known(out->v[i]))
			return cordon_err(err, EINVAL,
					  "%s: %s[%zu]: unknown toolchain \"%s\" (expected one of "
					  "%s)",
					  origin, key, i, out->v[i], cordon_toolchain_names_text());
		/* The schema says uniqueItems: a second one is a slip (a
		 * pasted block), refused as the schema's readers would. */
		for (size_t j = 0; j < i; j++)
			if (strcmp(out->v[j], out->v[i]) == 0)
				return cordon_err(
					err, EINVAL,
					"%s: %s[%zu]: \"%s\" is given twice (also %s[%zu])", origin,
					key, i, out->v[i], key, j);
	}
	return 0;
}

/* allowed_domains or denied_domains (KEY): rules of cordon/domains.h. */
static int parse_domains(struct json_object *v, const char *origin, const char *key,
			 struct cordon_strv *out, struct cordon_error *err)
{
	int r = cordon_json_strv(v, origin, key, out, err);
	if (r < 0)
		return r;
	for (size_t i = 0; i < out->n; i++) {
		const char *why = cordon_domain_invalid(out->v[i]);
		if (!why && strcmp(key, "allowed_domains") == 0)
			why = cordon_domain_unreached(out->v[i]);
		if (why)
			return cordon_err(err, EINVAL, "%s: %s[%zu]: %s, got \"%s\"", origin, key,
					  i, why, out->v[i]);
	}
	return 0;
}

static int parse_system_paths(struct json_object *v, struct cordon_config *cfg,
			      struct cordon_error *err)
{
	/* (null for the object itself is not the schema's: round 58c F10.) */
	if (!json_object_is_type(v, json_type_object))
		return cordon_err(err, EINVAL, "%s: system_paths: expected an object, got %s",
				  cfg->origin, cordon_json_type_name(v));
	json_object_object_foreach(v, key, val)
	{
		int c;
		for (c = 0; c < CORDON_CLASS_COUNT; c++)
			if (strcmp(key, class_keys[c]) == 0)
				break;
		char shown[256];
		if (c == CORDON_CLASS_COUNT)
			return cordon_err(err, EINVAL,
					  "%s: system_paths.%s: unknown key (expected executable, "
					  "read_only or read_write)",
					  cfg->origin,
					  cordon_json_shown(key, shown, sizeof(shown)));
		if (json_object_is_type(val, json_type_null))
			continue;
		char name[64];
		snprintf(name, sizeof(name), "system_paths.%s", key);
		cordon_strv_free(&cfg->system[c]);
		int r = parse_paths(val, cfg->origin, name, &cfg->system[c], err);
		if (r < 0)
			return r;
		cfg->has_system[c] = true;
	}
	return 0;
}

static int parse_key(const char *key, struct json_object *val, struct cordon_config *cfg,
		     struct cordon_error *err)
{
	const char *origin = cfg->origin;
	if (strcmp(key, "enabled") == 0)
		return cordon_json_bool(val, origin, key, &cfg->enabled, err);
	if (strcmp(key, "allow_network") == 0)
		return cordon_json_bool(val, origin, key, &cfg->allow_network, err);
	if (strcmp(key, "apply_to") == 0)
		return parse_apply_to(val, origin, &cfg->apply_to, err);
	if (strcmp(key, "on_unsupported") == 0)
		return parse_on_unsupported(val, origin, &cfg->on_unsupported, err);
	if (strcmp(key, "share_terminal") == 0)
		return cordon_json_bool(val, origin, key, &cfg->share_terminal, err);
	if (strcmp(key, "system_paths") == 0)
		return parse_system_paths(val, cfg, err);
	if (strcmp(key, "allowed_env_vars") == 0) {
		cordon_strv_free(&cfg->allowed_env);
		cfg->has_env = true;
		return parse_env_list(val, origin, key, &cfg->allowed_env, err);
	}
	if (strcmp(key, "additional_env_vars") == 0) {
		cordon_strv_free(&cfg->additional_env);
		return parse_env_list(val, origin, key, &cfg->additional_env, err);
	}
	if (strcmp(key, "allowed_unix_sockets") == 0) {
		cordon_strv_free(&cfg->unix_sockets);
		return parse_sockets(val, origin, &cfg->unix_sockets, err);
	}
	if (strcmp(key, "allowed_domains") == 0) {
		cordon_strv_free(&cfg->allowed_domains);
		cfg->has_domains = true;
		return parse_domains(val, origin, key, &cfg->allowed_domains, err);
	}
	if (strcmp(key, "denied_domains") == 0) {
		cordon_strv_free(&cfg->denied_domains);
		return parse_domains(val, origin, key, &cfg->denied_domains, err);
	}
	if (strcmp(key, "protected_paths") == 0) {
		cordon_strv_free(&cfg->protected_paths);
		cfg->has_protected = true;
		return parse_paths(val, origin, key, &cfg->protected_paths, err);
	}
	if (strcmp(key, "hidden_paths") == 0) {
		cordon_strv_free(&cfg->hidden_paths);
		cfg->has_hidden = true;
		return parse_hidden(val, origin, key, &cfg->hidden_paths, err);
	}
	if (strcmp(key, "additional_protected_paths") == 0) {
		cordon_strv_free(&cfg->additional_protected);
		return parse_paths(val, origin, key, &cfg->additional_protected, err);
	}
	if (strcmp(key, "additional_hidden_paths") == 0) {
		cordon_strv_free(&cfg->additional_hidden);
		return parse_hidden(val, origin, key, &cfg->additional_hidden, err);
	}
	if (strcmp(key, "toolchains") == 0) {
		cordon_strv_free(&cfg->toolchains);
		return parse_toolchains(val, origin, &cfg->toolchains, err);
	}
	for (int c = 0; c < CORDON_CLASS_COUNT; c++)
		if (strcmp(key, class_extra_keys[c]) == 0) {
			cordon_strv_free(&cfg->additional[c]);
			return parse_paths(val, origin, key, &cfg->additional[c], err);
		}
	if (strcmp(key, "$schema") == 0) {
		const char *ignored;
		return cordon_json_string(val, origin, key, &ignored, err);
	}
	/* (As printable text: round 58c F10 echoed a key's raw bytes.) */
	char shown[256];
	cordon_json_shown(key, shown, sizeof(shown));
	return cordon_err(
		err, EINVAL,
		"%s: %s: unknown key (expected one of enabled, apply_to, system_paths, "
		"additional_executable_paths, additional_read_only_paths, "
		"additional_read_write_paths, allow_network, allowed_env_vars, "
		"additional_env_vars, allowed_unix_sockets, allowed_domains, denied_domains, "
		"protected_paths, additional_protected_paths, hidden_paths, "
		"additional_hidden_paths, toolchains, on_unsupported, share_terminal)",
		origin, shown);
}

int cordon_config_apply_object(struct json_object *root, struct cordon_config *cfg,
			       struct cordon_error *err)
{
	if (!json_object_is_type(root, json_type_object))
		return cordon_err(err, EINVAL, "%s: (top level): expected an object, got %s",
				  cfg->origin, cordon_json_type_name(root));
	json_object_object_foreach(root, key, val)
	{
		int r = parse_key(key, val, cfg, err);
		if (r < 0)
			return r;
	}
	return 0;
}

const char *const cordon_config_keys[] = {"enabled",
					  "apply_to",
					  "system_paths",
					  "additional_executable_paths",
					  "additional_read_only_paths",
					  "additional_read_write_paths",
					  "allow_network",
					  "allowed_env_vars",
					  "additional_env_vars",
					  "allowed_unix_sockets",
					  "allowed_domains",
					  "denied_domains",
					  "protected_paths",
					  "additional_protected_paths",
					  "hidden_paths",
					  "additional_hidden_paths",
					  "toolchains",
					  "on_unsupported",
					  "share_terminal",
					  "$schema",
					  NULL};

static bool cordon_key(const char *key)
{
	for (size_t i = 0; cordon_config_keys[i]; i++)
		if (strcmp(key, cordon_config_keys[i]) == 0)
			return true;
	return false;
}

/* ROOT (an object without a terminal block) is an editor's settings, not a
 * cordon config with a typo: a key of VS Code's kind ("editor.fontSize",
 * "[python]": cordon's keys have no dots), or a file named settings.json
 * (VS Code, Zed, Cursor) with a key cordon does not know. */
static bool editor_settings(struct json_object *root, const char *origin)
{
	const char *base = strrchr(origin, '/');
	bool named = strcmp(base ? base + 1 : origin, "settings.json") == 0;
	json_object_object_foreach(root, key, val)
	{
		(void)val;
		if (strchr(key, '.') || key[0] == '[' || (named && !cordon_key(key)))
			return true;
	}
	return false;
}

/* An editor settings file keeps cordon's keys in a terminal.sandbox block,
 * nested ({"terminal": {"sandbox": {...}}}, Zed) or as a dotted key
 * ({"terminal.sandbox": {...}}, VS Code style). *FOUND: ROOT has one, then
 * *BLOCK is it (borrowed; NULL for a JSON null). *MISSING: ROOT is an
 * editor settings file without one. Neither: ROOT is a cordon config.
 * Both spellings in one file are an error: one of them would be dropped. */
static int editor_block(struct json_object *root, const char *origin, struct json_object **block,
			bool *found, bool *missing, struct cordon_error *err)
{
	struct json_object *t, *dotted = NULL, *nested = NULL;
	*block = NULL;
	*found = *missing = false;
	if (!json_object_is_type(root, json_type_object))
		return 0;
	bool has_dotted = json_object_object_get_ex(root, "terminal.sandbox", &dotted);
	bool has_terminal = json_object_object_get_ex(root, "terminal", &t);
	bool has_nested = has_terminal && json_object_is_type(t, json_type_object) &&
			  json_object_object_get_ex(t, "sandbox", &nested);
	if (has_dotted && has_nested)
		return cordon_err(err, EINVAL,
				  "%s: both \"terminal.sandbox\" and \"terminal\": {\"sandbox\": "
				  "...}: cordon reads one block; keep one of them",
				  origin);
	if (has_dotted || has_nested) {
		*block = has_dotted ? dotted : nested;
		*found = true;
	} else {
		*missing = has_terminal || editor_settings(root, origin);
	}
	return 0;
}

int cordon_config_block(struct json_object *root, struct json_object **block)
{
	struct cordon_error err = {0};
	bool found = false, missing = false;
	*block = NULL;
	if (!root || !json_object_is_type(root, json_type_object))
		return -1;
	if (editor_block(root, "", block, &found, &missing, &err) < 0 || missing ||
	    (found && !json_object_is_type(*block, json_type_object))) {
		*block = NULL;
		return -1;
	}
	if (found)
		return 1;
	*block = root;
	return 0;
}

/* Beside the block, at the top level of ROOT: a key of cordon's own
 * ("allow_network", or VS Code's flattened "terminal.sandbox.allow_network")
 * is a setting in the wrong place, which cordon would not read. The
 * editor's other keys are its business. */
static int misplaced_in(struct json_object *obj, const char *origin, const char *where,
			const char *prefix, struct cordon_error *err)
{
	size_t pn = strlen(prefix);
	json_object_object_foreach(obj, key, val)
	{
		bool flat = strncmp(key, prefix, pn) == 0;
		/* (A block spelt in another case, or a "sandbox" of its own at
		 * the top: cordon would read neither.) */
		bool other = !where[0] && ((strcasecmp(key, "terminal.sandbox") == 0 &&
					    strcmp(key, "terminal.sandbox") != 0) ||
					   (strcmp(key, "sandbox") == 0 &&
					    json_object_is_type(val, json_type_object)));
		if (other)
			return cordon_err(
				err, EINVAL,
				"%s: %s: not the terminal.sandbox block (an editor settings "
				"file: cordon reads only that block, spelt so; move these "
				"settings into it)",
				origin, key);
		if (flat || (cordon_key(key) && strcmp(key, "$schema") != 0))
			return cordon_err(err, EINVAL,
					  "%s: %s%s: outside the terminal.sandbox block (an editor "
					  "settings file: cordon reads only that block; move %s "
					  "into it)",
					  origin, where, key, flat ? key + pn : key);
	}
	return 0;
}

static int misplaced_key(struct json_object *root, const char *origin, struct cordon_error *err)
{
	/* And beside "sandbox" in the "terminal" object (round 58c F1:
	 * {"terminal": {"sandbox": {}, "allow_network": false}} kept the
	 * network, unsaid). */
	struct json_object *t = NULL;
	int r = misplaced_in(root, origin, "", "terminal.sandbox.", err);
	if (r >= 0 && json_object_object_get_ex(root, "terminal", &t) &&
	    json_object_is_type(t, json_type_object))
		r = misplaced_in(t, origin, "terminal.", "sandbox.", err);
	return r;
}

/* TEXT is parsed once, as JSONC. An editor settings file (a "terminal" key)
 * gives its terminal.sandbox block; anything else is a cordon config, which
 * must be strict JSON: if the JSONC pass had to blank anything (or could
 * not parse), the strict parser runs on the original text to say where. */
int cordon_config_parse(const char *text, size_t len, const char *origin, struct cordon_config *cfg,
			struct cordon_error *err)
{
	int r = cordon_config_init(cfg, origin);
	if (r < 0)
		return cordon_err(err, -r, "%s: out of memory", origin);
	cleanup_free char *copy = malloc(len ? len : 1);
	if (!copy) {
		cordon_config_free(cfg);
		return cordon_err(err, ENOMEM, "%s: out of memory", origin);
	}
	if (len)
		memcpy(copy, text, len);
	size_t bad = 0;
	int blanked = cordon_jsonc_blank(copy, len, &bad);
	struct json_object *root = NULL;
	/* PARSED with ROOT NULL: the text is `null`. */
	bool parsed =
		blanked >= 0 && cordon_json_parse_strict(copy, len, cfg->origin, &root, err) >= 0;
	bool missing = false, found = false;
	struct json_object *block = NULL;
	/* Repeated keys: anywhere in a cordon config; in an editor settings
	 * file, those that decide what cordon reads. */
	r = 0;
	if (parsed && root)
		r = editor_block(root, cfg->origin, &block, &found, &missing, err);
	if (r >= 0 && parsed && (found || missing || blanked == 0))
		r = cordon_json_check_duplicates(copy, len, cfg->origin,
						 found || missing ? "terminal.sandbox" : NULL, err);
	if (r >= 0 && found)
		r = misplaced_key(root, cfg->origin, err);
	if (r < 0) {
		json_object_put(root);
		cordon_config_free(cfg);
		return r;
	}
	if (missing) {
		r = cordon_err(err, EINVAL,
			       "%s: no terminal.sandbox block (an editor settings file: cordon "
			       "reads only that block; \"terminal.sandbox\": {} is the defaults)",
			       cfg->origin);
	} else if (found) {
		char *o;
		if (asprintf(&o, "%s: terminal.sandbox", cfg->origin) < 0) {
			r = cordon_err(err, ENOMEM, "out of memory");
		} else {
			free(cfg->origin);
			cfg->origin = o;
			r = cordon_config_apply_object(block, cfg, err);
		}
	} else if (parsed && blanked == 0) {
		r = cordon_config_apply_object(root, cfg, err);
	} else {
		/* Not plain JSON: the strict parse fails and says where. */
		json_object_put(root);
		root = NULL;
		r = cordon_json_parse_strict(text, len, cfg->origin, &root, err);
		if (r >= 0)
			r = cordon_json_check_duplicates(text, len, cfg->origin, NULL, err);
		if (r >= 0)
			r = cordon_config_apply_object(root, cfg, err);
	}
	json_object_put(root);
	if (r < 0)
		cordon_config_free(cfg);
	return r < 0 ? r : 0;
}

int cordon_config_load_file(const char *path, struct cordon_config *cfg, struct cordon_error *err)
{
	cleanup_free char *buf = NULL;
	size_t len = 0;
	int r = cordon_read_file(path, CORDON_CONFIG_MAX_BYTES, &buf, &len, err);
	if (r < 0)
		return r;
	r = cordon_config_parse(buf, len, path, cfg, err);
	if (r >= 0 && !(cfg->file = strdup(path))) {
		cordon_config_free(cfg);
		return cordon_err(err, ENOMEM, "out of memory");
	}
	return r;
}

int cordon_read_file(const char *path, size_t max, char **out, size_t *len_out,
		     struct cordon_error *err)
{
	/* O_NONBLOCK: opening a FIFO for reading would wait for a writer
	 * (forever); a regular file ignores the flag. */
	cleanup_close int fd = open(path, O_RDONLY | O_CLOEXEC | O_NOCTTY | O_NONBLOCK);
	if (fd < 0)
		return cordon_err(err, errno, "%s: cannot open: %s", path, strerror(errno));
	struct stat st;
	if (fstat(fd, &st) < 0)
		return cordon_err(err, errno, "%s: cannot stat: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode))
		return cordon_err(err, EINVAL, "%s: not a regular file", path);
	if ((size_t)st.st_size > max)
		return cordon_err(err, EFBIG, "%s: file too large (%lld bytes, at most %zu)", path,
				  (long long)st.st_size, max);
	/* A buffer of the size fstat gave and one byte more, so that a file
	 * that grew under us is seen and read on (never beyond max+1 bytes,
	 * which is caught). Not max+1 from the start: that was a 1 MiB mapping
	 * made and unmapped on every launch. */
	size_t cap = (size_t)st.st_size + 1;
	cleanup_free char *buf = malloc(cap + 1);
	if (!buf)
		return cordon_err(err, ENOMEM, "%s: out of memory", path);
	size_t len = 0;
	for (;;) {
		if (len == cap) {
			size_t more = cap * 2 < max + 1 ? cap * 2 : max + 1;
			char *nb = realloc(buf, more + 1);
			if (!nb)
				return cordon_err(err, ENOMEM, "%s: out of memory", path);
			buf = nb;
			cap = more;
		}
		ssize_t n = read(fd, buf + len, cap - len);
		if (n < 0) {
			if (errno == EINTR)
				continue;
			return cordon_err(err, errno, "%s: read error: %s", path, strerror(errno));
		}
		if (n == 0)
			break;
		len += (size_t)n;
		if (len > max)
			return cordon_err(err, EFBIG, "%s: file too large (more than %zu bytes)",
					  path, max);
	}
	buf[len] = '\0';
	*out = TAKE_PTR(buf);
	*len_out = len;
	return 0;
}

static int discover_xdg(char *(*getenv_fn)(const char *), char **path_out, struct cordon_error *err)
{
	const char *xdg = getenv_fn("XDG_CONFIG_HOME");
	const char *home = getenv_fn("HOME");
	char *p = NULL;
	/* XDG says a relative XDG_CONFIG_HOME is invalid and must be ignored. */
	if (xdg && xdg[0] == '/') {
		if (asprintf(&p, "%s/cordon/config.json", xdg) < 0)
			return -ENOMEM;
	} else if (home && home[0] == '/') {
		if (asprintf(&p, "%s/.config/cordon/config.json", home) < 0)
			return -ENOMEM;
	} else {
		*path_out = NULL;
		return 0;
	}
	struct stat st;
	if (stat(p, &st) < 0 && errno == ENOENT) {
		/* A link whose file is gone (a dotfiles repository moved away)
		 * is a config the user meant, not "no config": refused, as
		 * --config naming a missing file is. */
		char target[4096];
		ssize_t n = readlink(p, target, sizeof(target) - 1);
		if (n >= 0) {
			target[n] = '\0';
			int r = cordon_err(err, ENOENT,
					   "%s: a symbolic link to %s, which does not exist; fix "
					   "or remove the link",
					   p, target);
			free(p);
			return r;
		}
		free(p);
		p = NULL;
	}
	*path_out = p; /* exists (or is unreadable: loading will say so) */
	return 0;
}

int cordon_config_discover(const char *explicit_path, char *(*getenv_fn)(const char *),
			   char **path_out, struct cordon_error *err)
{
	if (!getenv_fn)
		getenv_fn = getenv;
	const char *chosen = explicit_path;
	const char *how = "--config";
	if (!chosen || !*chosen) {
		chosen = getenv_fn("CORDON_CONFIG");
		how = "CORDON_CONFIG";
		/* Set, but empty: a wrapper's CORDON_CONFIG=$CFG with CFG
		 * unset would have lost its config unsaid (round 58c F8), as
		 * --config "" does not. */
		if (chosen && !*chosen)
			return cordon_err(err, EINVAL,
					  "CORDON_CONFIG is set but empty: name a config file, or "
					  "unset it for the usual one");
	}
	if (chosen && *chosen) {
		/* Named explicitly: it must exist (a typo must not mean "defaults"). */
		if (access(chosen, F_OK) < 0)
			return cordon_err(err, errno, "%s: config file given by %s: %s", chosen,
					  how, strerror(errno));
		*path_out = strdup(chosen);
		return *path_out ? 0 : cordon_err(err, ENOMEM, "out of memory");
	}
	int r = discover_xdg(getenv_fn, path_out, err);
	if (r == -ENOMEM)
		return cordon_err(err, -r, "out of memory");
	return r < 0 ? r : 0;
}

int cordon_config_load(const char *explicit_path, char *(*getenv_fn)(const char *),
		       struct cordon_config *cfg, struct cordon_error *err)
{
	cleanup_free char *path = NULL;
	int r = cordon_config_discover(explicit_path, getenv_fn, &path, err);
	if (r < 0)
		return r;
	if (!path) {
		r = cordon_config_init(cfg, NULL);
		return r < 0 ? cordon_err(err, -r, "out of memory") : 0;
	}
	return cordon_config_load_file(path, cfg, err);
}
