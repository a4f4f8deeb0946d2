/* Config parsing: defaults, every kind of error, discovery order. */
#include <criterion/criterion.h>
#include <criterion/parameterized.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>
#include <sys/stat.h>

#include "cordon/config.h"
#include "helpers.h"

static int parse(const char *json, struct cordon_config *cfg, struct cordon_error *err)
{
	return cordon_config_parse(json, strlen(json), "/cfg.json", cfg, err);
}

Test(config, empty_object_gives_defaults)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_eq(parse("{}", &cfg, &err), 0, "%s", err.msg);
	cr_expect(cfg.enabled);
	cr_expect_eq(cfg.apply_to, CORDON_KIND_TERMINAL | CORDON_KIND_TOOL);
	cr_expect(cfg.allow_network);
	cr_expect_eq(cfg.on_unsupported, CORDON_UNSUPPORTED_REFUSE);
	for (int c = 0; c < CORDON_CLASS_COUNT; c++) {
		cr_expect_not(cfg.has_system[c]);
		cr_expect_eq(cfg.additional[c].n, 0);
	}
	cr_expect_not(cfg.has_env);
	cr_expect_str_eq(cfg.origin, "/cfg.json");
	cordon_config_free(&cfg);
}

Test(config, every_key)
{
	const char *json = "{\n"
			   "  \"$schema\": \"https://example.invalid/cordon.schema.json\",\n"
			   "  \"enabled\": false,\n"
			   "  \"apply_to\": \"tool\",\n"
			   "  \"system_paths\": {\"executable\": [\"/usr/bin\"], \"read_only\": [],"
			   " \"read_write\": null},\n"
			   "  \"additional_executable_paths\": [\"~/bin\"],\n"
			   "  \"additional_read_only_paths\": [\"/opt/a\", \"/opt/b\"],\n"
			   "  \"additional_read_write_paths\": [\"~\"],\n"
			   "  \"allow_network\": false,\n"
			   "  \"allowed_env_vars\": [\"PATH\", \"LC_*\"],\n"
			   "  \"on_unsupported\": \"warn\"\n"
			   "}\n";
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_eq(parse(json, &cfg, &err), 0, "%s", err.msg);
	cr_expect_not(cfg.enabled);
	cr_expect_eq(cfg.apply_to, CORDON_KIND_TOOL);
	cr_expect(cfg.has_system[CORDON_CLASS_EXEC]);
	cr_expect_eq(cfg.system[CORDON_CLASS_EXEC].n, 1);
	cr_expect(cfg.has_system[CORDON_CLASS_RO]);
	cr_expect_eq(cfg.system[CORDON_CLASS_RO].n, 0);
	cr_expect_not(cfg.has_system[CORDON_CLASS_RW]);
	cr_expect_str_eq(cfg.additional[CORDON_CLASS_EXEC].v[0], "~/bin");
	cr_expect_eq(cfg.additional[CORDON_CLASS_RO].n, 2);
	cr_expect_str_eq(cfg.additional[CORDON_CLASS_RW].v[0], "~");
	cr_expect_not(cfg.allow_network);
	cr_expect(cfg.has_env);
	cr_expect_str_eq(cfg.allowed_env.v[1], "LC_*");
	cr_expect_eq(cfg.on_unsupported, CORDON_UNSUPPORTED_WARN);
	cordon_config_free(&cfg);
}

Test(config, apply_to_values)
{
	static const struct {
		const char *v;
		unsigned mask;
	} cases[] = {{"terminal", CORDON_KIND_TERMINAL},
		     {"tool", CORDON_KIND_TOOL},
		     {"both", CORDON_KIND_TERMINAL | CORDON_KIND_TOOL},
		     {"neither", 0}};
	for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		char json[64];
		snprintf(json, sizeof(json), "{\"apply_to\": \"%s\"}", cases[i].v);
		struct cordon_config cfg;
		struct cordon_error err = {0};
		cr_assert_eq(parse(json, &cfg, &err), 0, "%s", err.msg);
		cr_expect_eq(cfg.apply_to, cases[i].mask, "%s", cases[i].v);
		cordon_config_free(&cfg);
	}
}

struct bad_case {
	char json[160];
	char expect[96]; /* substring the one-line message must contain */
};

static struct bad_case bad_cases[] = {
	{"{", "/cfg.json: line 1, column 2: malformed JSON"},
	{"{\"enabled\": true,}", "malformed JSON"},
	{"{\"enabled\": true} x", "line 1, column 19: malformed JSON"},
	{"{\"enabled\": true}\n\n  {}", "line 3, column 3: malformed JSON"},
	{"{'enabled': true}", "line 1, column 2: malformed JSON: single-quoted string"},
	{"\xef\xbb\xbf{\"enabled\": true}",
	 "line 1, column 1: malformed JSON: a UTF-8 byte-order mark"},
	{"{\"additional_read_only_paths\": [\"/a\tb\"]}",
	 "malformed JSON: control character inside a string"},
	{"{\"enabled\": true /* c */}", "malformed JSON"},
	{"", "unexpected end of input"},
	{" \n", "unexpected end of input"},
	/* A value, only not an object: said as such. */
	{"null", "/cfg.json: (top level): expected an object, got null"},
	{" null\n", "/cfg.json: (top level): expected an object, got null"},
	{"true", "/cfg.json: (top level): expected an object, got a boolean"},
	{"[]", "/cfg.json: (top level): expected an object, got an array"},
	{"{\"enabeld\": true}", "/cfg.json: enabeld: unknown key"},
	{"{\"enabled\": \"yes\"}", "/cfg.json: enabled: expected true or false, got a string"},
	{"{\"enabled\": 1}", "/cfg.json: enabled: expected true or false, got a number"},
	{"{\"allow_network\": null}", "/cfg.json: allow_network: expected true or false, got null"},
	{"{\"apply_to\": \"all\"}", "/cfg.json: apply_to: expected \"terminal\", \"tool\""},
	{"{\"apply_to\": 3}", "/cfg.json: apply_to: expected a string, got a number"},
	{"{\"on_unsupported\": \"ignore\"}",
	 "/cfg.json: on_unsupported: expected \"refuse\" or \"warn\""},
	{"{\"system_paths\": []}", "/cfg.json: system_paths: expected an object, got an array"},
	{"{\"system_paths\": {\"exec\": []}}", "/cfg.json: system_paths.exec: unknown key"},
	/* Not the schema's (round 58c F10: taken as the defaults). */
	{"{\"system_paths\": null}", "/cfg.json: system_paths: expected an object, got null"},
	/* A key's bytes that are not printable ASCII, said as "?" (58c F10:
	 * echoed raw). */
	{"{\"a\xff\xc2\x9b\": 1}", "/cfg.json: a??: unknown key"},
	{"{\"system_paths\": {\"z\xff\": []}}", "/cfg.json: system_paths.z?: unknown key"},
	{"{\"q\xff\": 1, \"q\xff\": 2}", "/cfg.json: q?: duplicate key"},
	{"{\"system_paths\": {\"read_only\": \"/etc\"}}",
	 "/cfg.json: system_paths.read_only: expected an array of strings, got a string"},
	{"{\"system_paths\": {\"read_write\": [1]}}",
	 "/cfg.json: system_paths.read_write[0]: expected a string, got a number"},
	{"{\"additional_read_only_paths\": \"/x\"}",
	 "/cfg.json: additional_read_only_paths: expected an array of strings"},
	{"{\"additional_read_write_paths\": [\"/a\", null]}",
	 "/cfg.json: additional_read_write_paths[1]: expected a string, got null"},
	{"{\"additional_executable_paths\": [\"\"]}",
	 "/cfg.json: additional_executable_paths[0]: expected a path"},
	{"{\"additional_read_only_paths\": [\"~root/x\"]}",
	 "/cfg.json: additional_read_only_paths[0]: expected an absolute path, ~ or ~/..."},
	{"{\"additional_read_only_paths\": [\"/a\\u0000b\"]}",
	 "additional_read_only_paths[0]: string contains a NUL character"},
	{"{\"allowed_env_vars\": [\"A=B\"]}",
	 "/cfg.json: allowed_env_vars[0]: expected a variable name"},
	{"{\"allowed_env_vars\": [\"*\"]}",
	 "/cfg.json: allowed_env_vars[0]: expected a variable name"},
	{"{\"allowed_env_vars\": {}}",
	 "/cfg.json: allowed_env_vars: expected an array of strings, got an object"},
	{"{\"additional_env_vars\": [\"OK\", \"NOT-OK\"]}",
	 "/cfg.json: additional_env_vars[1]: expected a variable name"},
	{"{\"additional_env_vars\": \"TZ\"}",
	 "/cfg.json: additional_env_vars: expected an array of strings, got a string"},
	{"{\"$schema\": 1}", "/cfg.json: $schema: expected a string"},
	/* The schema says uniqueItems. */
	{"{\"toolchains\": [\"python\", \"rust\", \"python\"]}",
	 "/cfg.json: toolchains[2]: \"python\" is given twice (also toolchains[0])"},
	/* Names cordon removes whatever the list says: listed, they passed nothing. */
	{"{\"additional_env_vars\": [\"LD_PRELOAD\"]}",
	 "/cfg.json: additional_env_vars[0]: LD_PRELOAD never passes into a session"},
	{"{\"allowed_env_vars\": [\"PATH\", \"CORDON_CONFIG_FD\"]}",
	 "/cfg.json: allowed_env_vars[1]: CORDON_CONFIG_FD never passes into a session"},
	/* hidden_paths that would hide nothing, silently, or everything
	 * (round 10). */
	{"{\"hidden_paths\": [\"~/.a\", \"$HOME/.secrets\"]}",
	 "/cfg.json: hidden_paths[1]: \"$HOME/.secrets\": variables are not expanded"},
	{"{\"hidden_paths\": [\"${HOME}/.s\"]}", "hidden_paths[0]: \"${HOME}/.s\": variables"},
	{"{\"hidden_paths\": [\" ~/.s\"]}",
	 "hidden_paths[0]: \" ~/.s\": it begins or ends with a space"},
	{"{\"hidden_paths\": [\"~/.s \"]}",
	 "hidden_paths[0]: \"~/.s \": it begins or ends with a space"},
	{"{\"hidden_paths\": [\"file://~/.s\"]}", "hidden_paths[0]: \"file://~/.s\": a URL"},
	{"{\"hidden_paths\": [\"/\"]}", "hidden_paths[0]: \"/\": it would hide every file"},
	{"{\"hidden_paths\": [\"~/\"]}", "hidden_paths[0]: \"~/\": it would hide every file"},
	{"{\"hidden_paths\": [\"~/./\"]}", "hidden_paths[0]: \"~/./\": it would hide every file"},
	{"{\"hidden_paths\": [\".\"]}", "hidden_paths[0]: \".\": it would hide every file"},
	{"{\"hidden_paths\": [\"..\"]}", "hidden_paths[0]: \"..\": it would hide every file"},
	{"{\"hidden_paths\": [\"~/..\"]}", "hidden_paths[0]: \"~/..\": it would hide every file"},
	{"{\"additional_hidden_paths\": [\"~/\"]}",
	 "additional_hidden_paths[0]: \"~/\": it would hide every file"},
	{"{\"additional_hidden_paths\": [\"$HOME/.s\"]}",
	 "additional_hidden_paths[0]: \"$HOME/.s\": variables"},
	{"{\"additional_protected_paths\": \"deploy.json\"}", "additional_protected_paths"},
	/* No path list expands a variable: taken as a name in the project,
	 * each did nothing, unsaid (issue 20). */
	{"{\"additional_read_only_paths\": [\"/a\", \"$HOME/.x\"]}",
	 "/cfg.json: additional_read_only_paths[1]: \"$HOME/.x\": variables are not expanded"},
	{"{\"additional_read_write_paths\": [\"${XDG_CACHE_HOME}/x\"]}",
	 "additional_read_write_paths[0]: \"${XDG_CACHE_HOME}/x\": variables"},
	{"{\"additional_executable_paths\": [\"$UNSET\"]}",
	 "additional_executable_paths[0]: \"$UNSET\": variables"},
	{"{\"system_paths\": {\"read_only\": [\"/usr\", \"~/${X}\"]}}",
	 "system_paths.read_only[1]: \"~/${X}\": variables"},
	{"{\"protected_paths\": [\"$DEPLOY\"]}", "protected_paths[0]: \"$DEPLOY\": variables"},
	{"{\"additional_protected_paths\": [\"$X/y\"]}",
	 "additional_protected_paths[0]: \"$X/y\": variables"},
	{"{\"allowed_unix_sockets\": [\"${SSH_AUTH_SOCK}\"]}",
	 "allowed_unix_sockets[0]: expected a path or \"$NAME\""},
};

/* A "$" further in is a name's (a Windows drive's $Recycle.Bin under WSL,
 * a Java class file's Outer$1.class), taken as it is; so is one that
 * begins a name in other letters than capitals (irb reads a file named
 * "$irbrc": round 60f F4, refused for a while). */
Test(config, a_dollar_inside_a_name_is_a_name)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	int r = parse("{\"additional_read_only_paths\": [\"/mnt/c/$Recycle.Bin\", "
		      "\"build/Outer$1.class\", \"a$b\", \"$Recycle.Bin\"], "
		      "\"additional_protected_paths\": [\"$irbrc\"]}",
		      &cfg, &err);
	cr_assert_eq(r, 0, "%s", err.msg);
	cr_expect_eq(cfg.additional[CORDON_CLASS_RO].n, 4);
	cr_expect_eq(cfg.additional_protected.n, 1);
	cordon_config_free(&cfg);
}

ParameterizedTestParameters(config, bad)
{
	return cr_make_param_array(struct bad_case, bad_cases,
				   sizeof(bad_cases) / sizeof(bad_cases[0]));
}

ParameterizedTest(struct bad_case *c, config, bad)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	int r = parse(c->json, &cfg, &err);
	cr_assert_lt(r, 0, "accepted: %s", c->json);
	cr_expect(strstr(err.msg, c->expect) != NULL, "for %s\n got: %s\n want: %s", c->json,
		  err.msg, c->expect);
	cr_expect_null(strchr(err.msg, '\n'), "message is not one line: %s", err.msg);
}

Test(config, embedded_nul_in_text)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_lt(cordon_config_parse("{}\0{}", 5, "/c", &cfg, &err), 0);
	cr_expect(strstr(err.msg, "NUL byte") != NULL, "%s", err.msg);
}

Test(config, oversized_file_refused)
{
	char *dir = tmp_dir("cfgbig");
	size_t n = CORDON_CONFIG_MAX_BYTES + 10;
	char *big = malloc(n + 1);
	memset(big, ' ', n);
	big[0] = '{';
	big[n - 1] = '}';
	big[n] = '\0';
	char *path = write_file(dir, "config.json", big);
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_expect_lt(cordon_config_load_file(path, &cfg, &err), 0);
	cr_expect(strstr(err.msg, path) && strstr(err.msg, "too large"), "%s", err.msg);
	tmp_cleanup(dir);
	free(big);
	free(path);
	free(dir);
}

/* Any settings.json (Zed's keys have no dots) without the block is an
 * editor's file; a cordon config named otherwise keeps "unknown key". */
Test(config, settings_json_without_a_block)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	const char *zed = "{\"theme\": \"One Dark\", \"ui_font_size\": 16}";
	cr_assert_lt(
		cordon_config_parse(zed, strlen(zed), "/u/.config/zed/settings.json", &cfg, &err),
		0);
	cr_expect_str_eq(err.msg,
			 "/u/.config/zed/settings.json: no terminal.sandbox block (an editor "
			 "settings file: cordon reads only that block; \"terminal.sandbox\": {} "
			 "is the defaults)");
	cr_assert_lt(cordon_config_parse(zed, strlen(zed), "/u/cordon.json", &cfg, &err), 0);
	cr_expect(strstr(err.msg, "/u/cordon.json: theme: unknown key") != NULL, "%s", err.msg);
	const char *ok = "{\"allow_network\": false}";
	cr_assert_eq(cordon_config_parse(ok, strlen(ok), "/u/settings.json", &cfg, &err), 0, "%s",
		     err.msg);
	cr_expect_not(cfg.allow_network, "a cordon config named settings.json still works");
	cordon_config_free(&cfg);
}

/* A FIFO given as the config: refused at once, never waited on (opening it
 * for reading blocked until a writer came). */
Test(config, fifo_is_refused_without_waiting, .timeout = 10)
{
	char *dir = tmp_dir("cfgfifo");
	char *fifo = path_join(dir, "config.json");
	cr_assert_eq(mkfifo(fifo, 0600), 0);
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_expect_lt(cordon_config_load_file(fifo, &cfg, &err), 0);
	cr_expect(strstr(err.msg, "not a regular file") != NULL, "%s", err.msg);
	tmp_cleanup(dir);
	free(fifo);
	free(dir);
}

Test(config, missing_and_non_regular_file)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_expect_lt(cordon_config_load_file("/nonexistent/cordon.json", &cfg, &err), 0);
	cr_expect(strstr(err.msg, "/nonexistent/cordon.json: cannot open") != NULL, "%s", err.msg);
	cr_expect_lt(cordon_config_load_file("/tmp", &cfg, &err), 0);
	cr_expect(strstr(err.msg, "/tmp: not a regular file") != NULL, "%s", err.msg);
}

/* Discovery: a fake environment per test. */
static const char *fake_env[8][2];
static char *fake_getenv(const char *name)
{
	for (int i = 0; i < 8 && fake_env[i][0]; i++)
		if (strcmp(fake_env[i][0], name) == 0)
			return (char *)fake_env[i][1];
	return NULL;
}

Test(config, discovery_order)
{
	char *dir = tmp_dir("disc");
	char *explicit = write_file(dir, "explicit.json", "{}");
	char *envcfg = write_file(dir, "env.json", "{}");
	char *xdg = path_join(dir, "xdg");
	char *xdgcfg = write_file(xdg, "cordon/config.json", "{}");
	char *home = path_join(dir, "home");
	char *homecfg = write_file(home, ".config/cordon/config.json", "{}");
	char *found = NULL;
	struct cordon_error err = {0};

	fake_env[0][0] = "CORDON_CONFIG";
	fake_env[0][1] = envcfg;
	fake_env[1][0] = "XDG_CONFIG_HOME";
	fake_env[1][1] = xdg;
	fake_env[2][0] = "HOME";
	fake_env[2][1] = home;

	cr_assert_eq(cordon_config_discover(explicit, fake_getenv, &found, &err), 0, "%s", err.msg);
	cr_expect_str_eq(found, explicit, "--config wins");
	free(found);
	cr_assert_eq(cordon_config_discover(NULL, fake_getenv, &found, &err), 0, "%s", err.msg);
	cr_expect_str_eq(found, envcfg, "then $CORDON_CONFIG");
	free(found);
	fake_env[0][0] = "UNUSED";
	cr_assert_eq(cordon_config_discover(NULL, fake_getenv, &found, &err), 0, "%s", err.msg);
	cr_expect_str_eq(found, xdgcfg, "then $XDG_CONFIG_HOME/cordon/config.json");
	free(found);
	fake_env[1][0] = "UNUSED2";
	cr_assert_eq(cordon_config_discover(NULL, fake_getenv, &found, &err), 0, "%s", err.msg);
	cr_expect_str_eq(found, homecfg, "then ~/.config/cordon/config.json");
	free(found);
	unlink(homecfg);
	cr_assert_eq(cordon_config_discover(NULL, fake_getenv, &found, &err), 0, "%s", err.msg);
	cr_expect_null(found, "then built-in defaults");

	/* A named file that does not exist is an error, never "use defaults". */
	cr_expect_lt(cordon_config_discover("/nonexistent.json", fake_getenv, &found, &err), 0);
	cr_expect(strstr(err.msg, "/nonexistent.json: config file given by --config") != NULL, "%s",
		  err.msg);
	fake_env[0][0] = "CORDON_CONFIG";
	fake_env[0][1] = "/nonexistent2.json";
	cr_expect_lt(cordon_config_discover(NULL, fake_getenv, &found, &err), 0);
	cr_expect(strstr(err.msg, "/nonexistent2.json: config file given by CORDON_CONFIG") != NULL,
		  "%s", err.msg);
	/* Set but empty (a wrapper's unset variable): an error too. */
	fake_env[0][1] = "";
	cr_expect_lt(cordon_config_discover(NULL, fake_getenv, &found, &err), 0);
	cr_expect(strstr(err.msg, "CORDON_CONFIG is set but empty") != NULL, "%s", err.msg);
	tmp_cleanup(dir);
	free(explicit);
	free(envcfg);
	free(xdg);
	free(xdgcfg);
	free(home);
	free(homecfg);
	free(dir);
}

/* A link at the default path whose file is gone (a dotfiles repository
 * moved away) is refused, naming it, as --config naming a missing file is;
 * it never means the built-in defaults. A link to a file is followed. */
Test(config, dangling_link_at_the_default_path_is_refused)
{
	char *dir = tmp_dir("dangle");
	char *xdg = path_join(dir, "xdg");
	char *home = path_join(dir, "home");
	char *link = write_file(xdg, "cordon/config.json", "{}");
	char *hlink = write_file(home, ".config/cordon/config.json", "{}");
	char *gone = path_join(dir, "moved-away.json");
	cr_assert_eq(unlink(link), 0);
	cr_assert_eq(symlink(gone, link), 0);
	cr_assert_eq(unlink(hlink), 0);
	cr_assert_eq(symlink(gone, hlink), 0);
	char *found = NULL;
	struct cordon_error err = {0};
	fake_env[0][0] = "XDG_CONFIG_HOME";
	fake_env[0][1] = xdg;
	fake_env[1][0] = "HOME";
	fake_env[1][1] = home;
	char *want = fmt("%s: a symbolic link to %s, which does not exist; fix or remove the link",
			 link, gone);
	cr_expect_lt(cordon_config_discover(NULL, fake_getenv, &found, &err), 0);
	cr_expect_str_eq(err.msg, want);
	struct cordon_config cfg;
	cr_expect_lt(cordon_config_load(NULL, fake_getenv, &cfg, &err), 0, "loaded the defaults");
	free(want);
	fake_env[0][0] = "UNUSED";
	want = fmt("%s: a symbolic link to %s", hlink, gone);
	cr_expect_lt(cordon_config_discover(NULL, fake_getenv, &found, &err), 0);
	cr_expect(strncmp(err.msg, want, strlen(want)) == 0, "%s", err.msg);
	/* Control: the file back in place, the link is the config. */
	free(write_file(dir, "moved-away.json", "{\"allow_network\": false}"));
	cr_assert_eq(cordon_config_load(NULL, fake_getenv, &cfg, &err), 0, "%s", err.msg);
	cr_expect_not(cfg.allow_network);
	cordon_config_free(&cfg);
	free(want);
	tmp_cleanup(dir);
	free(gone);
	free(hlink);
	free(link);
	free(home);
	free(xdg);
	free(dir);
}

Test(config, load_defaults_when_nothing_found)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	fake_env[0][0] = "HOME";
	fake_env[0][1] = "/nonexistent-home";
	cr_assert_eq(cordon_config_load(NULL, fake_getenv, &cfg, &err), 0, "%s", err.msg);
	cr_expect_str_eq(cfg.origin, "(built-in defaults)");
	cr_expect(cfg.enabled);
	cordon_config_free(&cfg);
}

/* Editor settings: JSON with comments and trailing commas; only the
 * terminal.sandbox block counts, and inside it the usual strict rules. */
Test(config, editor_settings_nested_block)
{
	const char *json = "// Zed settings\n"
			   "{\n"
			   "  \"theme\": \"http://example.invalid/*not-a-comment*/x\", // a URL\n"
			   "  \"unknown_editor_key\": [1, 2, 3,],\n"
			   "  \"terminal\": {\n"
			   "    \"font_size\": 13, /* ignored: not in the block */\n"
			   "    \"sandbox\": {\n"
			   "      \"allow_network\": false,\n"
			   "      \"additional_read_only_paths\": [\"/a//b\", \"c,]d\",],\n"
			   "    },\n"
			   "  },\n"
			   "}\n";
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_eq(parse(json, &cfg, &err), 0, "%s", err.msg);
	cr_expect_not(cfg.allow_network);
	cr_assert_eq(cfg.additional[CORDON_CLASS_RO].n, 2);
	cr_expect_str_eq(cfg.additional[CORDON_CLASS_RO].v[1], "c,]d", "strings are left alone");
	cr_expect_str_eq(cfg.origin, "/cfg.json: terminal.sandbox");
	cordon_config_free(&cfg);
}

Test(config, editor_settings_dotted_key)
{
	const char *json =
		"{\"editor.fontSize\": 12, \"terminal.sandbox\": {\"enabled\": false,},}";
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_eq(parse(json, &cfg, &err), 0, "%s", err.msg);
	cr_expect_not(cfg.enabled);
	cordon_config_free(&cfg);
}

struct editor_bad {
	char json[200];
	char want[120];
};
static struct editor_bad editor_bad_cases[] = {
	{"{\"terminal\": {\"sandbox\": {\"allow_network\": \"no\"}}}",
	 "/cfg.json: terminal.sandbox: allow_network: expected true or false"},
	{"{\"terminal\": {\"sandbox\": {\"font_size\": 3}}}",
	 "/cfg.json: terminal.sandbox: font_size: unknown key"},
	{"// no block\n{\"terminal\": {\"font_size\": 3}}", "/cfg.json: no terminal.sandbox block"},
	/* VS Code settings with no block at all: not "malformed JSON" (its
	 * comments) nor "editor.fontSize: unknown key". */
	{"{\"editor.fontSize\": 12}", "/cfg.json: no terminal.sandbox block"},
	{"// VS Code\n{\n  \"editor.fontSize\": 12, /* big */\n  \"files.exclude\": {},\n}",
	 "/cfg.json: no terminal.sandbox block"},
	{"{\"[python]\": {\"editor.tabSize\": 4}}", "/cfg.json: no terminal.sandbox block"},
	{"{\"terminal\": {\"sandbox\": []}}",
	 "/cfg.json: terminal.sandbox: (top level): expected an object"},
	{"{\"terminal\": {\"sandbox\": {}} /* unterminated", "malformed JSON"},
	/* Both spellings of the block: one would be dropped without a word. */
	{"{\"editor.tabSize\": 2, \"terminal\": {\"sandbox\": {\"allow_network\": false}},"
	 " \"terminal.sandbox\": {}}",
	 "/cfg.json: both \"terminal.sandbox\" and \"terminal\": {\"sandbox\": ...}"},
	{"{\"terminal.sandbox\": {}, \"terminal\": {\"font_size\": 3, \"sandbox\": {}}}",
	 "/cfg.json: both \"terminal.sandbox\" and \"terminal\": {\"sandbox\": ...}"},
	/* cordon's keys beside the block, where cordon would not read them. */
	{"{\"allow_network\": false, \"terminal.sandbox\": {}}",
	 "/cfg.json: allow_network: outside the terminal.sandbox block"},
	{"// zed\n{\"hidden_paths\": [], \"terminal\": {\"sandbox\": {}}}",
	 "/cfg.json: hidden_paths: outside the terminal.sandbox block"},
	{"{\"editor.x\": 1, \"terminal.sandbox.allow_network\": false, \"terminal.sandbox\": {}}",
	 "/cfg.json: terminal.sandbox.allow_network: outside the terminal.sandbox block"},
	/* And beside the nested block, in the "terminal" object, or a
	 * block of another spelling (round 58c F1: the network stayed on). */
	{"{\"terminal\": {\"sandbox\": {}, \"allow_network\": false}}",
	 "/cfg.json: terminal.allow_network: outside the terminal.sandbox block"},
	{"{\"terminal\": {\"sandbox\": {}, \"sandbox.allow_network\": false}}",
	 "/cfg.json: terminal.sandbox.allow_network: outside the terminal.sandbox block"},
	{"{\"terminal.sandbox\": {}, \"terminal\": {\"integrated\": {}, "
	 "\"sandbox.hidden_paths\": []}}",
	 "/cfg.json: terminal.sandbox.hidden_paths: outside the terminal.sandbox block"},
	{"{\"terminal.sandbox\": {}, \"sandbox\": {\"allow_network\": false}}",
	 "/cfg.json: sandbox: not the terminal.sandbox block"},
	{"{\"Terminal.Sandbox\": {\"allow_network\": false}, \"terminal.sandbox\": {}}",
	 "/cfg.json: Terminal.Sandbox: not the terminal.sandbox block"},
	/* A null block: not "editor.x: unknown key". */
	{"{\"editor.x\": 1, \"terminal.sandbox\": null}",
	 "/cfg.json: terminal.sandbox: (top level): expected an object, got null"},
	{"{\"terminal\": {\"sandbox\": null}}",
	 "/cfg.json: terminal.sandbox: (top level): expected an object, got null"},
	/* A cordon config (no terminal key) stays strict: no comments. */
	{"{\"enabled\": true // comment\n}", "/cfg.json: line 1, column 18: malformed JSON"},
};

ParameterizedTestParameters(config, editor_settings_errors)
{
	return cr_make_param_array(struct editor_bad, editor_bad_cases,
				   sizeof(editor_bad_cases) / sizeof(editor_bad_cases[0]));
}

ParameterizedTest(struct editor_bad *c, config, editor_settings_errors)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_lt(parse(c->json, &cfg, &err), 0, "accepted: %s", c->json);
	cr_expect(strstr(err.msg, c->want) != NULL, "message '%s' lacks '%s'", err.msg, c->want);
}

/* Duplicate keys: json-c keeps the last value and drops the first; a
 * pasted block must not silently replace the user's own list. */
struct dup_case {
	char json[240];
	char want[120]; /* the whole message */
};

static struct dup_case dup_cases[] = {
	{"{\n  \"additional_read_only_paths\": [\"/a\"],\n  \"enabled\": true,\n"
	 "  \"additional_read_only_paths\": [\"/b\"]\n}",
	 "/cfg.json: additional_read_only_paths: duplicate key (line 4)"},
	/* Nested: system_paths.read_only twice. */
	{"{\"system_paths\": {\"read_only\": [],\n\"read_only\": [\"/etc\"]}}",
	 "/cfg.json: system_paths.read_only: duplicate key (line 2)"},
	/* Decoded keys: \u0061 is "a", \/ is "/", a surrogate pair is one code point. */
	{"{\"en\\u0061bled\": true, \"enabled\": false}",
	 "/cfg.json: enabled: duplicate key (line 1)"},
	{"{\"$schema\": \"x\", \"\\u0024schema\": \"y\"}",
	 "/cfg.json: $schema: duplicate key (line 1)"},
	{"{\"a\\/b\": 1, \"a/b\": 2}", "/cfg.json: a/b: duplicate key (line 1)"},
	{"{\"\\ud83d\\ude00\": 1, \"\xf0\x9f\x98\x80\": 2}",
	 "/cfg.json: \xf0\x9f\x98\x80: duplicate key (line 1)"},
	/* json-c keeps a key only up to a \u0000: such a key is refused, never
	 * read as its prefix. Lone surrogates are U+FFFD. */
	{"{\"x\\u0000a\": 1, \"x\\u0000b\": 2}",
	 "/cfg.json: x: key contains a NUL character (\\u0000) (line 1)"},
	{"{\"allow_network\": true,\n\"enabled\\u0000 (ignore me)\": false}",
	 "/cfg.json: enabled: key contains a NUL character (\\u0000) (line 2)"},
	{"{\"system_paths\": {\"read_only\\u0000\": []}}",
	 "/cfg.json: system_paths.read_only: key contains a NUL character (\\u0000) (line 1)"},
	{"{\"editor.x\": 1, \"terminal.sandbox\": {\"enabled\\u0000x\": false}}",
	 "/cfg.json: terminal.sandbox.enabled: key contains a NUL character (\\u0000) (line 1)"},
	{"{\"terminal\\u0000\": {\"sandbox\": {\"enabled\": false}}}",
	 "/cfg.json: terminal: key contains a NUL character (\\u0000) (line 1)"},
	{"{\"\\ud800\": 1, \"\\udc00\": 2}", "/cfg.json: \xef\xbf\xbd: duplicate key (line 1)"},
	/* A control character in a key is shown escaped: the message stays one line. */
	{"{\"a\\nb\": 1, \"a\\u000ab\": 2}", "/cfg.json: a\\x0ab: duplicate key (line 1)"},
	/* The first repeat in the text is named, inner or outer. */
	{"{\"enabled\": true,\n\"system_paths\": {\"executable\": [], \"executable\": []},\n"
	 "\"enabled\": false}",
	 "/cfg.json: system_paths.executable: duplicate key (line 2)"},
	{"{\"enabled\": true, \"enabled\": false,\n"
	 "\"system_paths\": {\"executable\": [], \"executable\": []}}",
	 "/cfg.json: enabled: duplicate key (line 1)"},
	/* Three times: the second is named. */
	{"{\"apply_to\": \"tool\",\n\"apply_to\": \"both\",\n\"apply_to\": \"neither\"}",
	 "/cfg.json: apply_to: duplicate key (line 2)"},
	/* Editor settings: inside the block, in either style, and the keys
	 * that lead to it. */
	{"// zed\n{\"terminal\": {\"sandbox\": {\n  \"enabled\": true, // on\n"
	 "  \"enabled\": false,\n}}}",
	 "/cfg.json: terminal.sandbox.enabled: duplicate key (line 4)"},
	{"{\"terminal.sandbox\": {\"system_paths\": {\"read_write\": [], \"read_write\": []}}}",
	 "/cfg.json: terminal.sandbox.system_paths.read_write: duplicate key (line 1)"},
	{"{\"terminal\": {\"sandbox\": {\"enabled\": false}},\n\"terminal\": {\"font_size\": 3}}",
	 "/cfg.json: terminal: duplicate key (line 2)"},
	{"{\"terminal\": {\"sandbox\": {}, /* c */ \"sandbox\": {\"enabled\": false}}}",
	 "/cfg.json: terminal.sandbox: duplicate key (line 1)"},
	{"{\"terminal.sandbox\": {}, \"terminal.sandbox\": {\"enabled\": false},}",
	 "/cfg.json: terminal.sandbox: duplicate key (line 1)"},
	/* An editor's own key repeated before the block's repeat: the block's
	 * is still named (json-c kept the last block, and the first, with
	 * allow_network false, was dropped without a word). */
	{"// VS Code\n{\"editor.fontSize\": 12,\n\"terminal.sandbox\": {\"allow_network\": false},\n"
	 "\"editor.fontSize\": 13,\n\"terminal.sandbox\": {}}",
	 "/cfg.json: terminal.sandbox: duplicate key (line 5)"},
	{"{\"terminal\": {\"fontSize\": 1, \"sandbox\": {\"allow_network\": false},"
	 " \"fontSize\": 2, \"sandbox\": {}}}",
	 "/cfg.json: terminal.sandbox: duplicate key (line 1)"},
	{"{\"terminal.sandbox\": {\"enabled\": false}, \"editor.x\": 1, \"editor.x\": 2,\n"
	 "\"terminal.sandbox\": {}}",
	 "/cfg.json: terminal.sandbox: duplicate key (line 2)"},
	/* Several in scope: the earliest in the text. */
	{"{\"b\": 1, \"a\": 1,\n\"a\": 2,\n\"b\": 2}", "/cfg.json: a: duplicate key (line 2)"},
};

ParameterizedTestParameters(config, duplicate_keys)
{
	return cr_make_param_array(struct dup_case, dup_cases,
				   sizeof(dup_cases) / sizeof(dup_cases[0]));
}

ParameterizedTest(struct dup_case *c, config, duplicate_keys)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_lt(parse(c->json, &cfg, &err), 0, "accepted: %s", c->json);
	cr_expect_str_eq(err.msg, c->want, "for %s", c->json);
}

/* The same key in two objects, a key's name as a string value, quotes and
 * braces inside strings, and keys that only look alike are no duplicates. */
static struct dup_case no_dup_cases[] = {
	{"{\"system_paths\": {\"read_only\": [\"/etc\"], \"read_write\": [\"read_only\"]},"
	 " \"additional_read_only_paths\": [\"read_only\", \"{\\\"read_only\\\": 1}\"]}",
	 ""},
	{"{\"allowed_env_vars\": [\"enabled\", \"enabled\"], \"enabled\": true}", ""},
	{"{\"additional_read_only_paths\": [\"\\\"enabled\\\": 1, \\\"enabled\\\"\"],"
	 " \"enabled\": true}",
	 ""},
	{"{\"additional_read_only_paths\": [\"a\\\\\"], \"additional_read_write_paths\": "
	 "[\"\\\\\", \"enabled\"], \"enabled\": true}",
	 ""},
	{"{\"enabled\": true, \"system_paths\": {\"executable\": null, \"read_only\": null,"
	 " \"read_write\": null}}",
	 ""},
	/* An editor's own keys may repeat: they are its business, not cordon's. */
	{"// vscode\n{\"editor.fontSize\": 12, \"editor.fontSize\": 13,\n"
	 " \"terminal.integrated\": {\"a\": 1, \"a\": 2},\n"
	 " \"terminal.sandbox\": {\"enabled\": false}}",
	 ""},
	{"{\"terminal\": {\"font_size\": 1, \"font_size\": 2, \"sandbox\": {\"enabled\": false}},"
	 " \"terminals\": 1, \"terminals\": 2}",
	 ""},
	/* An editor's own key with a \u0000, and a $schema beside the block:
	 * the editor's business. */
	{"{\"editor.x\\u0000y\": 1, \"$schema\": \"x\", \"terminal.sandbox\": {}}", ""},
};

ParameterizedTestParameters(config, no_false_duplicates)
{
	return cr_make_param_array(struct dup_case, no_dup_cases,
				   sizeof(no_dup_cases) / sizeof(no_dup_cases[0]));
}

ParameterizedTest(struct dup_case *c, config, no_false_duplicates)
{
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_eq(parse(c->json, &cfg, &err), 0, "refused %s: %s", c->json, err.msg);
	cordon_config_free(&cfg);
}

/* A file read from disk names its path; the earlier list is not silently
 * kept or dropped either way. */
Test(config, duplicate_key_in_a_file)
{
	char *dir = tmp_dir("cfgdup");
	char *path = write_file(dir, "config.json",
				"{\n"
				"  \"additional_read_only_paths\": [\"~/notes\"],\n"
				"  \"allow_network\": false,\n"
				"  \"additional_read_only_paths\": [\"/opt/sdk\"]\n"
				"}\n");
	struct cordon_config cfg;
	struct cordon_error err = {0};
	cr_assert_lt(cordon_config_load_file(path, &cfg, &err), 0);
	char *want;
	cr_assert(asprintf(&want, "%s: additional_read_only_paths: duplicate key (line 4)", path) >
		  0);
	cr_expect_str_eq(err.msg, want);
	free(want);
	tmp_cleanup(dir);
	free(path);
	free(dir);
}
