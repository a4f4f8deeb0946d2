/* cordon learn as a new user meets it: children that close their inherited
 * fds are still seen, refused network is named with its line, and the
 * proposals converge (tool roots, the right class, nothing risky) in at most
 * two rounds on fake toolchain trees (pyenv, cargo, nvm) in the world's home;
 * and what the learned command asks for to get out is never written.
 * Judged from outside: what learn printed, the marker files the commands
 * write, the listener's bytes. */
#include <criterion/criterion.h>
#include <json-c/json.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <unistd.h>

#include "helpers.h"

#define BLOCK  "to allow them, add to your config:\n"
#define REVIEW "never in the block below, and never written by --write"

/* Python's subprocess closes every fd above 2 in the child: the cat it runs
 * is still recorded (through the record file), and was really refused. */
static void learn_through_close_fds(bool as_user)
{
	struct world w;
	world_init(&w, "learnfds", "");
	if (as_user)
		world_as_user(&w);
	char *code;
	asprintf(&code, "import subprocess; subprocess.run(['cat', '%s'], close_fds=True)",
		 w.secret);
	char *argv[] = {CORDON_BIN,         "learn", "--config", w.cfg, "--",
			"/usr/bin/python3", "-c",    code,       NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.err, "secret: Permission denied") != NULL, "the child was refused: %s",
		  r.err);
	cr_expect(strstr(r.err, "    read     secret") != NULL, "learn missed the child: %s",
		  r.err);
	cr_expect_null(strstr(r.out, SECRET), "the secret leaked");
	run_free(&r);
	/* The control: outside, the same child reads it. */
	char *plain[] = {"/usr/bin/python3", "-c", code, NULL};
	r = world_run(&w, plain, w.proj);
	cr_expect(strstr(r.out, SECRET) != NULL, "the control failed: %s", r.err);
	run_free(&r);
	free(code);
	world_free(&w);
}

Test(learn, sees_children_that_close_inherited_fds_as_root, .timeout = 60)
{
	learn_through_close_fds(false);
}

Test(learn, sees_children_that_close_inherited_fds_as_user, .timeout = 60)
{
	learn_through_close_fds(true);
}

/* Offline, the refused socket and name lookup are named, with the line
 * (apart from the block: never written); the control: online, the same
 * connect reaches the listener and nothing is said about the network. */
static void learn_network(bool as_user)
{
	struct world w;
	world_init(&w, "learnnet", ", \"allow_network\": false");
	if (as_user)
		world_as_user(&w);
	struct listener l = listen_on(AF_INET, true);
	char *code;
	/* (Offline, 127.0.0.1 is the session's own loopback, where nothing
	 * listens: no refusal to name. TEST-NET-1's 192.0.2.1 is the internet,
	 * and online it is never reached.) */
	asprintf(&code,
		 "import socket, sys\n"
		 "try: socket.getaddrinfo('cordon-learn.invalid', 80)\n"
		 "except OSError: pass\n"
		 "try: socket.create_connection(('192.0.2.1', 9), timeout=0.5)\n"
		 "except OSError: pass\n"
		 "s = socket.create_connection(('127.0.0.1', %d)); s.sendall(b'reached')\n",
		 l.port);
	char *argv[] = {CORDON_BIN,         "learn", "--config", w.cfg, "--",
			"/usr/bin/python3", "-c",    code,       NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	char *got = received(&l, 300);
	cr_expect_null(strstr(got, "reached"), "offline, yet it connected");
	free(got);
	cr_expect(strstr(r.err, "network: refused connect 192.0.2.1:9") != NULL, "%s", r.err);
	cr_expect(strstr(r.err, "network: refused name lookup of cordon-learn.invalid") != NULL,
		  "%s", r.err);
	/* Said with its line, for the user to add: never in the block. */
	const char *review = strstr(r.err, REVIEW);
	cr_expect(review && strstr(review, "\"allow_network\": true  ("), "%s", r.err);
	const char *block = strstr(r.err, BLOCK);
	cr_expect(!block || !strstr(block, "allow_network"), "%s", r.err);
	run_free(&r);
	/* The control: the network on. */
	char *on = path_join(w.dir, "online.json");
	free(write_file(w.dir, "online.json", "{" WORLD_BASE_RW ", \"allow_network\": true}"));
	if (as_user)
		world_give(&w);
	char *argv2[] = {CORDON_BIN,         "learn", "--config", on,  "--",
			 "/usr/bin/python3", "-c",    code,       NULL};
	r = world_run(&w, argv2, w.proj);
	got = received(&l, 3000);
	cr_expect(strstr(got, "reached") != NULL, "the control did not connect: %s", r.err);
	cr_expect_null(strstr(r.err, "network: refused"), "%s", r.err);
	free(got);
	run_free(&r);
	close(l.fd);
	free(on);
	free(code);
	world_free(&w);
}

Test(learn, names_refused_network_as_root, .timeout = 60)
{
	learn_network(false);
}

Test(learn, names_refused_network_as_user, .timeout = 60)
{
	learn_network(true);
}

/* ---- convergence on fake toolchains -------------------------------------- */

static void mkdirs(const char *path)
{
	char *cmd;
	asprintf(&cmd, "mkdir -p '%s'", path);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
}

static void put(const char *home, const char *rel, const char *text, mode_t mode)
{
	char *path = path_join(home, rel);
	char *dir = strdup(path);
	*strrchr(dir, '/') = '\0';
	mkdirs(dir);
	FILE *f = fopen(path, "w");
	cr_assert_not_null(f, "%s", path);
	fputs(text, f);
	fclose(f);
	chmod(path, mode);
	free(dir);
	free(path);
}

/* A pyenv layout: bin/pyenv, shims/python exec'ing versions/3.12/bin/python,
 * which reads its lib and writes the marker. */
static const char *fake_pyenv(const char *home)
{
	put(home, ".pyenv/bin/pyenv", "#!/bin/sh\necho 3.12\n", 0755);
	put(home, ".pyenv/shims/python",
	    "#!/bin/sh\nexec \"$HOME/.pyenv/versions/3.12/bin/python\" \"$@\"\n", 0755);
	put(home, ".pyenv/versions/3.12/bin/python",
	    "#!/bin/sh\nd=\"$HOME/.pyenv/versions/3.12/lib/python3.12\"\n"
	    "cat \"$d/os.py\" \"$d/encodings/__init__.py\" >/dev/null || exit 1\n"
	    "ls \"$d/lib-dynload\" >/dev/null || exit 1\n"
	    "echo ok > \"$1\"\n",
	    0755);
	put(home, ".pyenv/versions/3.12/lib/python3.12/os.py", "# os\n", 0644);
	put(home, ".pyenv/versions/3.12/lib/python3.12/encodings/__init__.py", "# enc\n", 0644);
	put(home, ".pyenv/versions/3.12/lib/python3.12/lib-dynload/_ssl.so", "elf\n", 0755);
	return ".pyenv/shims/python";
}

/* A cargo layout: bin/cargo writes its registry cache (created on first
 * use) and never needs credentials.toml (hidden: tried, refused, fine). */
static const char *fake_cargo(const char *home)
{
	put(home, ".cargo/bin/cargo",
	    "#!/bin/sh\nc=\"$HOME/.cargo\"\ncat \"$c/credentials.toml\" 2>/dev/null\n"
	    "cat \"$c/config.toml\" >/dev/null || exit 1\n"
	    "mkdir -p \"$c/registry/cache/index\" || exit 1\n"
	    "echo crate > \"$c/registry/cache/index/x.crate\" || exit 1\n"
	    "mkdir -p \"$c/registry/index\" && echo i > \"$c/registry/index/i\" || exit 1\n"
	    "echo ok > \"$1\"\n",
	    0755);
	put(home, ".cargo/config.toml", "[build]\n", 0644);
	put(home, ".cargo/credentials.toml", "token = \"" SECRET "\"\n", 0600);
	put(home, ".cargo/registry/.keep", "", 0644);
	return ".cargo/bin/cargo";
}

/* An nvm layout: npm (in versions/node/v20/bin) runs node, which reads its
 * lib and writes npm's cache ~/.npm, which does not exist yet. */
static const char *fake_nvm(const char *home)
{
	put(home, ".nvm/nvm.sh", "# nvm\n", 0644);
	put(home, ".nvm/versions/node/v20/bin/node",
	    "#!/bin/sh\ncat \"$HOME/.nvm/versions/node/v20/lib/node_modules/npm/index.js\" "
	    ">/dev/null || exit 1\nmkdir -p \"$HOME/.npm/_cacache\" \"$HOME/.npm/_logs\"; r=$?\n"
	    ": > \"$HOME/.npm/_update-notifier-last-checked\" || r=1\n[ $r = 0 ] || exit 1\n"
	    "echo log > \"$HOME/.npm/_logs/debug.log\" || exit 1\necho ok > \"$1\"\n",
	    0755);
	put(home, ".nvm/versions/node/v20/bin/npm",
	    "#!/bin/sh\nexec \"$(dirname \"$0\")/node\" \"$@\"\n", 0755);
	put(home, ".nvm/versions/node/v20/lib/node_modules/npm/index.js", "//\n", 0644);
	return ".nvm/versions/node/v20/bin/npm";
}

/* Put learn's block into CFG: each key replaced (the block carries the
 * config's own entries too). */
static void apply_block(struct json_object *cfg, const char *err)
{
	const char *b = strstr(err, BLOCK);
	if (!b)
		return;
	char *text;
	asprintf(&text, "{%s}", b + strlen(BLOCK));
	struct json_object *add = json_tokener_parse(text);
	cr_assert_not_null(add, "learn's block is not JSON: %s", text);
	json_object_object_foreach(add, key, val)
	{
		cr_expect(!json_object_object_get_ex(cfg, key, NULL) ||
				  json_object_is_type(val, json_type_array) ||
				  json_object_is_type(val, json_type_boolean),
			  "%s", key);
		json_object_object_add(cfg, key, json_object_get(val));
	}
	json_object_put(add);
	free(text);
}

/* The "create first" lines, done. */
static void create_first(const char *err)
{
	const char *c = strstr(err, "create first");
	for (const char *line = c ? strchr(c, '\n') + 1 : NULL;
	     line && strncmp(line, "    ", 4) == 0;) {
		const char *end = strchr(line, '\n');
		char *cmd = strndup(line + 4, (size_t)(end - line - 4));
		char *q;
		const char *sp = strchr(cmd, ' ');
		if (strncmp(cmd, "mkdir -p ", 9) == 0)
			asprintf(&q, "mkdir -p '%s'", cmd + 9);
		else
			asprintf(&q, "touch '%s'", sp + 1);
		cr_expect_eq(system(q), 0, "%s", q);
		free(q);
		free(cmd);
		line = end + 1;
	}
}

/* What learn must never propose, whatever it saw. */
static void never_proposed(const struct world *w, const char *err)
{
	const char *b = strstr(err, BLOCK);
	if (!b)
		return;
	const char *bad[] = {"\"~\"",    "\"/\"",       "\"/root\"",   "\"/usr\"",
			     "\"/etc\"", "~/.config\"", "credentials", "/sys/fs/cgroup"};
	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++)
		cr_expect_null(strstr(b, bad[i]), "proposed %s: %s", bad[i], b);
	char *home;
	asprintf(&home, "\"%s\"", w->home);
	cr_expect_null(strstr(b, home), "proposed $HOME: %s", b);
	free(home);
	const char *rw = strstr(b, "\"additional_read_write_paths\"");
	if (rw) {
		size_t n = strcspn(rw, "\n");
		char *line = strndup(rw, n);
		cr_expect_null(strstr(line, "/bin"), "a bin directory writable: %s", line);
		cr_expect_null(strstr(line, "/shims"), "shims writable: %s", line);
		cr_expect_null(strstr(line, "\"~/.cargo\""), "~/.cargo writable: %s", line);
		cr_expect_null(strstr(line, "\"~/.pyenv\""), "~/.pyenv writable: %s", line);
		free(line);
	}
	cr_expect_null(strstr(err, SECRET), "learn printed a credential");
}

static int rounds_until_it_works(struct world *w, const char *(*make)(const char *),
				 char **last_block, char **said)
{
	*said = strdup("");
	const char *rel = make(w->home);
	if (w->as_user)
		world_give(w);
	char *cmd = path_join(w->home, rel);
	char *marker = path_join(w->proj, "marker");
	char *cfg_path = path_join(w->dir, "learned.json");
	struct json_object *cfg = json_tokener_parse("{" WORLD_BASE_RW "}");
	int rounds = 0;
	bool done = false;
	*last_block = NULL;
	/* A round: learn, then its block applied. Done when the command worked
	 * and learn had nothing more to propose. */
	while (rounds < 4 && !done) {
		rounds++;
		unlink(marker);
		json_object_to_file(cfg_path, cfg);
		if (w->as_user)
			world_give(w);
		char *argv[] = {CORDON_BIN, "learn", "--config", cfg_path, "--", cmd, marker, NULL};
		struct run_result r = world_run(w, argv, w->proj);
		never_proposed(w, r.err);
		char *all = fmt("%s%s", *said, r.err);
		free(*said);
		*said = all;
		const char *b = strstr(r.err, BLOCK);
		if (b) {
			free(*last_block);
			*last_block = strdup(b);
			create_first(r.err);
			apply_block(cfg, r.err);
		}
		done = file_exists(marker) && !b;
		cr_expect(done || b, "round %d failed and learn proposed nothing: %s", rounds,
			  r.err);
		if (!done && !b)
			rounds = 99;
		run_free(&r);
	}
	/* And a plain run with the learned config works. */
	unlink(marker);
	char *argv[] = {CORDON_BIN, "run", "--config", cfg_path, "--", cmd, marker, NULL};
	struct run_result r = world_run(w, argv, w->proj);
	cr_expect(file_exists(marker), "cordon run with the learned config failed: %s", r.err);
	run_free(&r);
	json_object_put(cfg);
	free(cfg_path);
	free(marker);
	free(cmd);
	return rounds;
}

/* At most ROUNDS rounds; each of EXPECT in the last block, each of SAID
 * in what some round printed. */
static void converges(const char *tag, const char *(*make)(const char *), bool as_user,
		      int rounds_max, const char *const expect[], const char *const said[])
{
	struct world w;
	world_init(&w, tag, "");
	if (as_user)
		world_as_user(&w);
	char *block = NULL, *all = NULL;
	int rounds = rounds_until_it_works(&w, make, &block, &all);
	cr_expect_leq(rounds, rounds_max, "%d rounds; the last block: %s", rounds,
		      block ? block : "-");
	for (size_t i = 0; expect[i]; i++)
		cr_expect(block && strstr(block, expect[i]), "no %s in %s", expect[i],
			  block ? block : "-");
	for (size_t i = 0; said && said[i]; i++)
		cr_expect(strstr(all, said[i]), "%s was not said: %s", said[i], all);
	free(all);
	free(block);
	world_free(&w);
}

static const char *const pyenv_expect[] = {"\"toolchains\": [ \"python\" ]", NULL};
static const char *const cargo_expect[] = {"\"toolchains\": [ \"rust\" ]", NULL};
/* The node preset makes ~/.npm writable, and npx's packages in it: only
 * said; the directories npm writes are proposed instead, in a third round
 * (~/.npm, missing, is made first: a rule on it would hold ~/.npm/_npx). */
/* npm's update stamp, a file it makes (46b F4: "mkdir -p"'d). */
static const char *const nvm_expect[] = {"\"~/.npm/_cacache\"", "\"~/.npm/_logs\"",
					 "\"~/.npm/_update-notifier-last-checked\"", NULL};
static const char *const nvm_said[] = {"\"toolchains\": add \"node\"", "~/.npm/_npx", "mkdir -p ",
				       "touch ", NULL};

Test(learn, converges_for_pyenv_python_as_root, .timeout = 90)
{
	converges("learnpy", fake_pyenv, false, 2, pyenv_expect, NULL);
}

Test(learn, converges_for_pyenv_python_as_user, .timeout = 90)
{
	converges("learnpyu", fake_pyenv, true, 2, pyenv_expect, NULL);
}

Test(learn, converges_for_cargo_as_root, .timeout = 90)
{
	converges("learncargo", fake_cargo, false, 2, cargo_expect, NULL);
}

Test(learn, converges_for_cargo_as_user, .timeout = 90)
{
	converges("learncargou", fake_cargo, true, 2, cargo_expect, NULL);
}

Test(learn, converges_for_nvm_node_as_root, .timeout = 90)
{
	converges("learnnvm", fake_nvm, false, 3, nvm_expect, nvm_said);
}

Test(learn, converges_for_nvm_node_as_user, .timeout = 90)
{
	converges("learnnvmu", fake_nvm, true, 3, nvm_expect, nvm_said);
}

/* explain /usr/bin/python3 (a symlink to python3.11, r-x by default) never
 * proposes making the program writable; the control: a plain file outside
 * gets its line. */
Test(learn, explain_never_proposes_writing_a_system_program)
{
	struct world w;
	world_init(&w, "explainprog", "");
	struct run_result r =
		run_cordon(w.env, w.proj, "explain", "--config", w.cfg, "/usr/bin/python3", NULL);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect_null(strstr(r.out, "additional_read_write_paths\": [\"/usr"), "%s", r.out);
	cr_expect(strstr(r.out, "cordon does not propose writing it") != NULL, "%s", r.out);
	run_free(&r);
	r = run_cordon(w.env, w.proj, "explain", "--config", w.cfg, w.secret, NULL);
	cr_expect(strstr(r.out, "to allow reading, add to your config: ") != NULL, "%s", r.out);
	run_free(&r);
	world_free(&w);
}

/* What the shim does as it starts is not the command's (46b F3): an
 * ordinary user's `learn -- true` listed reads of /etc/shadow and
 * /etc/gshadow (the shim's redacted copies, which it may not read).
 * Control: the same first process refused a read is listed. */
Test(learn, the_shim_s_own_start_is_not_the_command_s, .timeout = 60)
{
	struct world w;
	world_init(&w, "learnquiet", "");
	world_as_user(&w);
	char *argv[] = {CORDON_BIN, "learn", "--config", w.cfg, "--", "/bin/true", NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.err, "denied nothing that was seen"), "learn -- true listed: %s", r.err);
	cr_expect_null(strstr(r.err, "shadow"), "learn -- true listed: %s", r.err);
	run_free(&r);
	char *ctl[] = {CORDON_BIN, "learn", "--config", w.cfg, "--", "/bin/cat", w.secret, NULL};
	r = world_run(&w, ctl, w.proj);
	cr_expect(strstr(r.err, "    read     secret"),
		  "control: the command's read not listed: %s", r.err);
	run_free(&r);
	world_free(&w);
}

/* learn --write puts the merged keys into the config file itself: the
 * user's entries and other keys stay, no key twice, and the command then
 * works with plain run. */
Test(learn, write_updates_the_config_keeping_the_users_entries, .timeout = 60)
{
	struct world w;
	world_init(&w, "learnwrite", "");
	char *mine = path_join(w.outside, "mine");
	mkdirs(mine);
	char *cfg_text;
	asprintf(&cfg_text,
		 "{" WORLD_BASE_RW ", \"additional_read_only_paths\": [\"%s\"], "
		 "\"allow_network\": false}",
		 mine);
	char *cfg = write_file(w.dir, "mine.json", cfg_text);
	char *script;
	asprintf(&script, "cat '%s' > /dev/null && echo ok > done", w.secret);
	char *argv[] = {CORDON_BIN, "learn",   "--write", "--config", cfg,
			"--",       "/bin/sh", "-c",      script,     NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.err, "cordon learn: updated ") != NULL, "%s", r.err);
	run_free(&r);
	struct json_object *o = json_object_from_file(cfg);
	cr_assert_not_null(o, "the config is no longer JSON");
	struct json_object *ro, *net;
	cr_assert(json_object_object_get_ex(o, "additional_read_only_paths", &ro));
	cr_expect_eq(json_object_array_length(ro), 2, "%s", json_object_to_json_string(ro));
	cr_expect_str_eq(json_object_get_string(json_object_array_get_idx(ro, 0)), mine);
	cr_expect(json_object_object_get_ex(o, "allow_network", &net) &&
			  !json_object_get_boolean(net),
		  "another key was lost or changed");
	cr_expect(json_object_object_get_ex(o, "system_paths", NULL));
	json_object_put(o);
	char *done = path_join(w.proj, "done");
	unlink(done);
	char *run[] = {CORDON_BIN, "run", "--config", cfg, "--", "/bin/sh", "-c", script, NULL};
	r = world_run(&w, run, w.proj);
	cr_expect(file_exists(done), "the written config does not work: %s", r.err);
	run_free(&r);
	free(done);
	free(script);
	free(cfg);
	free(cfg_text);
	free(mine);
	world_free(&w);
}

/* learn --write on an editor's settings (46b F1): the keys go into the
 * terminal.sandbox block in the nested spelling too (Zed's; they went to
 * the top level, where every later session refused the file), and the
 * block printed merges its entries. Settings with comments are not
 * rewritten (every comment was dropped): said, the file unchanged, and
 * learn's status 125, as for any --write that did not happen (F7). */
Test(learn, write_into_an_editor_s_settings_keeps_them_whole, .timeout = 60)
{
	struct world w;
	world_init(&w, "learneditor", "");
	char *mine = path_join(w.outside, "mine");
	mkdirs(mine);
	char *text = fmt("{\"editor\": 1, \"terminal\": {\"font\": 2, \"sandbox\": {" WORLD_BASE_RW
			 ", \"additional_read_only_paths\": [\"%s\"]}}}",
			 mine);
	char *cfg = write_file(w.dir, "zed.json", text);
	char *script = fmt("cat '%s' > /dev/null && echo ok > done", w.secret);
	char *argv[] = {CORDON_BIN, "learn",   "--write", "--config", cfg,
			"--",       "/bin/sh", "-c",      script,     NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect(strstr(r.err, "cordon learn: updated ") != NULL, "%s", r.err);
	cr_expect_neq(r.status, 125, "%s", r.err); /* (the command's: its read was refused) */
	run_free(&r);
	struct json_object *o = json_object_from_file(cfg), *t, *sb, *ro, *v;
	cr_assert_not_null(o, "the settings are no longer JSON");
	cr_expect_not(json_object_object_get_ex(o, "additional_read_only_paths", NULL),
		      "the key went to the top level: %s", json_object_to_json_string(o));
	cr_assert(json_object_object_get_ex(o, "terminal", &t) &&
		  json_object_object_get_ex(t, "sandbox", &sb) &&
		  json_object_object_get_ex(sb, "additional_read_only_paths", &ro));
	cr_expect_eq(json_object_array_length(ro), 2, "%s", json_object_to_json_string(ro));
	cr_expect(json_object_object_get_ex(o, "editor", &v) &&
			  json_object_object_get_ex(t, "font", &v),
		  "the editor's own keys were lost");
	json_object_put(o);
	char *done = path_join(w.proj, "done");
	unlink(done);
	char *run[] = {CORDON_BIN, "run", "--config", cfg, "--", "/bin/sh", "-c", script, NULL};
	r = world_run(&w, run, w.proj);
	cr_expect(file_exists(done), "the written settings do not work: %s", r.err);
	run_free(&r);

	char *commented =
		fmt("{\n  // the user's note\n  \"terminal.sandbox\": {" WORLD_BASE_RW "}\n}\n");
	free(cfg);
	cfg = write_file(w.dir, "code.json", commented);
	char *argv2[] = {CORDON_BIN, "learn",   "--write", "--config", cfg,
			 "--",       "/bin/sh", "-c",      script,     NULL};
	r = world_run(&w, argv2, w.proj);
	cr_expect(strstr(r.err, "has comments") && strstr(r.err, "terminal.sandbox block"),
		  "not said: %s", r.err);
	cr_expect_eq(r.status, 125, "a --write not done was not told by the status: %d", r.status);
	run_free(&r);
	char *now = read_file(cfg);
	cr_expect_str_eq(now, commented, "the commented settings were rewritten");
	free(now);
	free(commented);
	free(done);
	free(script);
	free(cfg);
	free(text);
	free(mine);
	world_free(&w);
}

/* learn --write never makes writable what programs outside the session
 * obey or run: git's global config in the home (a planted fsmonitor runs
 * at every git status), a system directory (a stand-in made under /etc
 * for the test, as root). Each is said with its reason. Control: a
 * cache in the home, written the same way, is proposed and written into
 * the config. */
static void learn_never_widens(bool as_user)
{
	struct world w;
	world_init(&w, as_user ? "learnnwu" : "learnnw", "");
	if (as_user)
		world_as_user(&w);
	char *gitdir = path_join(w.home, ".config/git");
	mkdirs(gitdir);
	free(write_file(gitdir, "config", "[user]\n\tname = t\n"));
	char *data = path_join(w.home, ".cache/tool");
	mkdirs(data);
	char sys[64] = "";
	if (!as_user) {
		snprintf(sys, sizeof(sys), "/etc/cordon-test-learn-%d", (int)getpid());
		mkdirs(sys);
	}
	if (as_user)
		world_give(&w);
	char *cfg = write_file(w.dir, "never.json", "{" WORLD_BASE_RW "}");
	char *script;
	asprintf(&script, "echo x >> '%s/config'; touch '%s/d'; %s%s%s true", gitdir, data,
		 sys[0] ? "touch '" : "", sys, sys[0] ? "/x';" : "");
	char *argv[] = {CORDON_BIN, "learn",   "--write", "--config", cfg,
			"--",       "/bin/sh", "-c",      script,     NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	char *text = read_file(cfg);
	cr_assert_not_null(text);
	cr_expect(strstr(text, "~/.cache/tool"), "control: the cache was not proposed: %s\n%s",
		  text, r.err);
	cr_expect_null(strstr(text, ".config/git"), "git's config made writable: %s", text);
	cr_expect(strstr(r.err, ".config/git: not proposed: programs outside"), "%s", r.err);
	if (sys[0]) {
		cr_expect_null(strstr(text, sys), "a system directory made writable: %s", text);
		cr_expect(strstr(r.err, "not proposed: a system directory"), "%s", r.err);
		rmdir(sys);
	}
	run_free(&r);
	free(text);
	free(script);
	free(cfg);
	free(data);
	free(gitdir);
	world_free(&w);
}

Test(learn, write_never_widens_to_what_runs_outside_as_root, .timeout = 60)
{
	learn_never_widens(false);
}

Test(learn, write_never_widens_to_what_runs_outside_as_user, .timeout = 60)
{
	learn_never_widens(true);
}

/* A report piped into a reader that stops early (`learn … 2>&1 | head -1`)
 * still removes learn's record: the record directory (in $XDG_RUNTIME_DIR,
 * here the world's) is empty afterwards. Control: the record was made
 * there (the session read a denied file, so there was a report to cut). */
Test(learn, record_removed_when_the_report_pipe_closes, .timeout = 60)
{
	struct world w;
	world_init(&w, "learnpipe", "");
	char *run = path_join(w.dir, "xdg-run");
	cr_assert_eq(mkdir(run, 0700), 0);
	char *kv;
	cr_assert(asprintf(&kv, "XDG_RUNTIME_DIR=%s", run) > 0);
	world_setenv(&w, kv);
	char *script;
	cr_assert(
		asprintf(
			&script,
			"%s learn --config %s -- /bin/sh -c 'echo $CORDON_LEARN_FILE > %s/seen; cat %s' "
			"2>&1 | head -c 1 >/dev/null; sleep 1",
			CORDON_BIN, w.cfg, w.proj, w.secret) > 0);
	char *argv[] = {"/bin/sh", "-c", script, NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	char *seen = path_join(w.proj, "seen");
	cr_expect(contains(seen, run) && contains(seen, "/record"), "control: no record in %s: %s",
		  run, r.err);
	char *ls;
	cr_assert(asprintf(&ls, "ls -A %s | wc -l", run) > 0);
	char *lsargv[] = {"/bin/sh", "-c", ls, NULL};
	struct run_result l = run_cmd(lsargv, NULL, NULL, 10000);
	cr_expect(strncmp(l.out, "0", 1) == 0, "learn left its record: %s entries", l.out);
	run_free(&l);
	run_free(&r);
	free(ls);
	free(seen);
	free(script);
	free(kv);
	free(run);
	world_free(&w);
}

/* A session that never starts (the config refuses it: a .git/config that
 * is a link in the project leads where the session could write) has
 * nothing to learn from: learn says so, not that nothing was denied.
 * Control: a command that runs and is denied nothing is said to be. */
Test(learn, says_when_the_session_did_not_start, .timeout = 60)
{
	struct world w;
	world_init(&w, "learnfail", "");
	char *git = path_join(w.proj, ".git");
	cr_assert_eq(mkdir(git, 0755), 0);
	char *link = path_join(git, "config");
	cr_assert_eq(symlink("../elsewhere", link), 0);
	char *argv[] = {CORDON_BIN, "learn", "--config", w.cfg, "--", "/bin/true", NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	cr_expect_eq(r.status, 125, "%s", r.err);
	cr_expect(strstr(r.err, "cordon learn: the session did not start"), "%s", r.err);
	cr_expect_null(strstr(r.err, "denied nothing"), "%s", r.err);
	char *rm[] = {"/bin/rm", "-rf", git, NULL};
	run_free(&r);
	r = run_cmd(rm, NULL, NULL, 10000);
	cr_assert(r.status == 0 && !file_exists(git), "%s", r.err);
	run_free(&r);
	r = world_run(&w, argv, w.proj);
	cr_expect_eq(r.status, 0, "%s", r.err);
	cr_expect(strstr(r.err, "cordon learn: the sandbox denied nothing that was seen"), "%s",
		  r.err);
	cr_expect_null(strstr(r.err, "did not start"), "%s", r.err);
	run_free(&r);
	free(link);
	free(git);
	world_free(&w);
}

/* ---- what the learned command asks for ------------------------------------ */

/* A script that connects to the unix socket SOCK and to PORT on loopback,
 * sending WHAT on each, and writes the git hook HOOK. */
static char *attempts(const char *sock, int port, const char *hook, const char *what)
{
	return fmt("/usr/bin/python3 -c 'import socket,sys\n"
		   "try:\n"
		   "  s = socket.socket(socket.AF_UNIX); s.connect(sys.argv[1]); "
		   "s.sendall(sys.argv[3].encode())\n"
		   "except OSError as e: print(e)\n"
		   "try:\n"
		   "  s = socket.create_connection((\"127.0.0.1\", int(sys.argv[2]))); "
		   "s.sendall(sys.argv[3].encode())\n"
		   "except OSError as e: print(e)' '%s' %d %s\n"
		   "echo '#!/bin/sh' > '%s'\n",
		   sock, port, what, hook);
}

/* A command learn runs is one the user does not trust yet (`npm install`).
 * This one forges lines in learn's record (it may write that file) and
 * makes real refused accesses: a unix socket outside (a server that would
 * run commands, as tmux does), the network with allow_network false, a
 * hook in another repository (and in a bare one, in the directory
 * core.hooksPath names, in a directory holding a repository). After
 * `learn --write`, the config (read here, outside) holds none of them, and
 * a plain run with it still cannot reach the socket (judged by the server:
 * it got nothing), the network or the hook. Controls: outside the sandbox
 * each attempt works; a cache and a plain directory outside the command
 * wrote are written into the config (--write did write). */
static void learn_never_writes_escapes(bool as_user)
{
	struct world w;
	world_init(&w, as_user ? "learnescu" : "learnesc", "");
	if (as_user)
		world_as_user(&w);
	char *cache = path_join(w.home, ".cache/tool");
	mkdirs(cache);
	char *other = path_join(w.outside, "other");
	char *cmd = fmt("git init -q '%s'", other);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	char *hook = path_join(other, ".git/hooks/pre-commit");
	/* More of what git runs outside, written the same way: a bare
	 * repository's hooks, the directory core.hooksPath names (husky), a
	 * directory holding a repository; and the control, a plain one. */
	cmd = fmt("cd '%s' && git init -q --bare bare.git && git init -q husky && "
		  "git -C husky config core.hooksPath .husky/_ && mkdir -p husky/.husky/_ "
		  "repos/r data && git init -q repos/r",
		  w.outside);
	cr_assert_eq(system(cmd), 0);
	free(cmd);
	char *more = fmt("echo x > '%s/bare.git/hooks/pre-commit'\n"
			 "echo x > '%s/husky/.husky/pre-commit'\n"
			 "echo x > '%s/repos/f'\n"
			 "echo x > '%s/data/f'\n",
			 w.outside, w.outside, w.outside, w.outside);
	char *sock = path_join(w.dir, "server.sock");
	char *forged = path_join(w.dir, "forged.sock");
	char *cfg =
		write_file(w.dir, "learned.json", "{" WORLD_BASE_RW ", \"allow_network\": false}");
	if (as_user)
		world_give(&w);
	struct listener server = listen_unix(&w, sock, true);
	struct listener net = listen_on(AF_INET, true);
	char *learned = attempts(sock, net.port, hook, "learned");
	char *script = fmt("printf 's\\t%s\\ns\\t%s\\nn\\tsocket AF_INET\\n"
			   "w\\t%s\\nw\\t%s/.bashrc\\n' >> \"$CORDON_LEARN_FILE\"\n"
			   "touch '%s/x'\n%s%s",
			   forged, sock, hook, w.home, cache, more, learned);
	char *learn_argv[] = {CORDON_BIN, "learn",   "--write", "--config", cfg,
			      "--",       "/bin/sh", "-c",      script,     NULL};
	struct run_result r = world_run(&w, learn_argv, w.proj);
	char *got = received(&server, 300);
	cr_expect_eq(got[0], '\0', "the socket's server was reached while learning: %s", got);
	free(got);
	got = received(&net, 300);
	cr_expect_eq(got[0], '\0', "the network was reached while learning: %s", got);
	free(got);
	/* What learn said: the real refusal, never the forged one. */
	char *refused = fmt("refused connect to %s", sock);
	cr_expect(strstr(r.err, refused) != NULL, "the real refusal was not seen: %s", r.err);
	free(refused);
	cr_expect(strstr(r.err, REVIEW) != NULL, "%s", r.err);
	cr_expect_null(strstr(r.err, "forged.sock"), "a forged line was believed: %s", r.err);
	cr_expect(strstr(r.err, "cordon learn: updated ") != NULL, "%s", r.err);
	run_free(&r);

	/* The config, from outside. */
	char *text = read_file(cfg);
	cr_assert_not_null(text);
	cr_expect(strstr(text, "~/.cache/tool") != NULL, "control: the cache was not written: %s",
		  text);
	cr_expect_null(strstr(text, "server.sock"), "the socket was written: %s", text);
	cr_expect_null(strstr(text, "allowed_unix_sockets"), "%s", text);
	cr_expect_null(strstr(text, "allowed_domains"), "%s", text);
	cr_expect_null(strstr(text, ".git"), "a repository's hooks were written: %s", text);
	cr_expect_null(strstr(text, "other"), "the other repository was written: %s", text);
	cr_expect_null(strstr(text, ".bashrc"), "%s", text);
	cr_expect_null(strstr(text, "bare.git"), "a bare repository's hooks: %s", text);
	cr_expect_null(strstr(text, "husky"), "core.hooksPath's directory: %s", text);
	cr_expect_null(strstr(text, "repos"), "a directory holding a repository: %s", text);
	char *data = fmt("\"%s/data\"", w.outside);
	cr_expect(strstr(text, data) != NULL, "control: a plain directory was not written: %s",
		  text);
	free(data);
	struct json_object *o = json_tokener_parse(text), *on;
	cr_assert_not_null(o, "the config is no longer JSON: %s", text);
	cr_expect(json_object_object_get_ex(o, "allow_network", &on) &&
			  !json_object_get_boolean(on),
		  "the network was turned on: %s", text);
	json_object_put(o);
	free(text);

	/* A plain run with the learned config: the same attempts. */
	char *after = attempts(sock, net.port, hook, "after");
	char *run_argv[] = {CORDON_BIN, "run", "--config", cfg, "--", "/bin/sh", "-c", after, NULL};
	r = world_run(&w, run_argv, w.proj);
	got = received(&server, 300);
	cr_expect_eq(got[0], '\0', "a later session reached the socket's server: %s\n%s", got,
		     r.out);
	free(got);
	got = received(&net, 300);
	cr_expect_eq(got[0], '\0', "a later session reached the network: %s", got);
	free(got);
	cr_expect(!file_exists(hook), "a later session wrote the other repository's hook: %s",
		  r.err);
	run_free(&r);

	/* The controls: outside, each attempt works. */
	char *control = attempts(sock, net.port, hook, "control");
	char *plain[] = {"/bin/sh", "-c", control, NULL};
	r = world_run(&w, plain, w.proj);
	got = received(&server, 3000);
	cr_expect(strstr(got, "control") != NULL, "control: the socket was not reached: %s", r.err);
	free(got);
	got = received(&net, 3000);
	cr_expect(strstr(got, "control") != NULL, "control: the network was not reached: %s",
		  r.err);
	free(got);
	cr_expect(file_exists(hook), "control: the hook was not written: %s", r.err);
	run_free(&r);

	close(server.fd);
	close(net.fd);
	free(script);
	free(more);
	free(learned);
	free(after);
	free(control);
	free(cfg);
	free(forged);
	free(sock);
	free(hook);
	free(other);
	free(cache);
	world_free(&w);
}

Test(learn, write_never_takes_what_the_command_asks_for_as_root, .timeout = 90)
{
	learn_never_writes_escapes(false);
}

Test(learn, write_never_takes_what_the_command_asks_for_as_user, .timeout = 90)
{
	learn_never_writes_escapes(true);
}

/* ---- caches that hold code, personal files, a prefix's libraries --------- */

/* What the learned command claims (forged lines in learn's record) and
 * really tries: writes to caches programs outside run code from (p10k's
 * instant prompt, Neovim's byte-compiled Lua, pre-commit's hook
 * environments, npx's packages, compinit's dump), to a Homebrew-style
 * prefix outside the home (its lib, a Cellar's lib, its bash and zsh
 * completions, fish's vendor completions), to a directory holding a shared
 * object and one holding a program, and a read of ~/Documents. After
 * `learn --write`, the config (read outside) holds none of them, nor the
 * node preset (it would make ~/.npm/_npx writable), and a plain run with
 * it still writes none and reads no document (judged from outside: the
 * files as they were). Controls: a plain cache, npm's own cache beside
 * npx's and a plain directory outside ARE written into the config;
 * outside the sandbox every write lands. */
static void learn_never_writes_code(bool as_user)
{
	struct world w;
	world_init(&w, as_user ? "learncodeu" : "learncode", "");
	if (as_user)
		world_as_user(&w);
	const char *name = as_user ? "cordon-test" : "root";
	char *prompt = fmt("%s/.cache/p10k-instant-prompt-%s.zsh", w.home, name);
	char *brew = path_join(w.outside, "linuxbrew/.linuxbrew");
	char *cmd = fmt(
		"cd '%s' && mkdir -p .cache/nvim/luac .cache/jedi/CPython-311-18 .cache/black/24 "
		".npm/_npx/1/node_modules/.bin "
		".npm/_cacache .cache/pre-commit/repo1 .cache/tool Documents && "
		"echo prompt > '%s' && echo dump > .zcompdump && echo taxes-secret > "
		"Documents/taxes.txt && mkdir -p '%s' && cd '%s' && mkdir -p bin lib Cellar/jq/1.7/lib "
		"etc/bash_completion.d share/zsh/site-functions "
		"share/fish/vendor_completions.d && cp /bin/true bin/jq && "
		"echo elf > lib/libonig.so.5 && echo elf > Cellar/jq/1.7/lib/libjq.so.1 && "
		"cd '%s' && mkdir -p plugins tools data && echo x > plugins/libx.so && "
		"cp /bin/true tools/run",
		w.home, prompt, brew, brew, w.outside);
	cr_assert_eq(system(cmd), 0, "%s", cmd);
	free(cmd);
	/* Each a file the command writes (or makes), refused. */
	char *targets[] = {
		prompt,
		fmt("%s/.cache/nvim/luac/init.luac", w.home),
		fmt("%s/.cache/jedi/CPython-311-18/os.pkl", w.home),
		fmt("%s/.cache/black/24/cache.pickle", w.home),
		fmt("%s/.cache/pre-commit/repo1/hook.py", w.home),
		fmt("%s/.npm/_npx/1/node_modules/.bin/cowsay", w.home),
		fmt("%s/.zcompdump", w.home),
		fmt("%s/lib/libonig.so.5", brew),
		fmt("%s/Cellar/jq/1.7/lib/libjq.so.1", brew),
		fmt("%s/etc/bash_completion.d/brew", brew),
		fmt("%s/share/zsh/site-functions/_brew", brew),
		fmt("%s/share/fish/vendor_completions.d/brew.fish", brew),
		fmt("%s/plugins/liby.so", w.outside),
		fmt("%s/tools/new", w.outside),
		NULL,
	};
	char *doc = fmt("%s/Documents/taxes.txt", w.home);
	char *lines = strdup(""), *tries = strdup("");
	for (size_t i = 0; targets[i]; i++) {
		char *l = fmt("%sw\\t%s\\n", lines, targets[i]);
		char *t = fmt("%secho evil >> '%s'\n", tries, targets[i]);
		free(lines);
		free(tries);
		lines = l;
		tries = t;
	}
	char *script =
		fmt("printf '%sr\\t%s\\nw\\t%s/.npm/_cacache/x\\n' >> \"$CORDON_LEARN_FILE\"\n"
		    "%scat '%s'\necho c > '%s/.cache/tool/c'\necho c > '%s/.npm/_cacache/c'\n"
		    "echo d > '%s/data/d'\n",
		    lines, doc, w.home, tries, doc, w.home, w.home, w.outside);
	char *cfg = write_file(w.dir, "learned.json", "{" WORLD_BASE_RW "}");
	if (as_user)
		world_give(&w);
	char *learn_argv[] = {CORDON_BIN, "learn",   "--write", "--config", cfg,
			      "--",       "/bin/sh", "-c",      script,     NULL};
	struct run_result r = world_run(&w, learn_argv, w.proj);
	cr_expect_null(strstr(r.out, "taxes-secret"), "the document was read while learning");
	cr_expect(strstr(r.err, "cordon learn: updated ") != NULL, "%s", r.err);
	cr_expect(strstr(r.err, REVIEW) != NULL, "%s", r.err);
	cr_expect(strstr(r.err, "\"additional_read_only_paths\": add \"~/Documents\""),
		  "the document was not shown for review: %s", r.err);
	cr_expect(strstr(r.err, "\"toolchains\": add \"node\""),
		  "the node preset was not shown for review: %s", r.err);
	cr_expect(strstr(r.err, "p10k-* (powerlevel10k"), "no reason said: %s", r.err);

	/* The config, from outside. */
	char *text = read_file(cfg);
	cr_assert_not_null(text);
	cr_expect(strstr(text, "\"~/.cache/tool\""), "control: the cache was not written: %s\n%s",
		  text, r.err);
	cr_expect(strstr(text, "\"~/.npm/_cacache\""),
		  "control: npm's cache was not written: %s\n%s", text, r.err);
	char *data = fmt("\"%s/data\"", w.outside);
	cr_expect(strstr(text, data), "control: a plain directory was not written: %s\n%s", text,
		  r.err);
	free(data);
	static const char *const never[] = {"p10k",       "nvim",    "jedi",       "black",
					    "pre-commit", "_npx",    "\"~/.npm\"", "zcompdump",
					    "linuxbrew",  "plugins", "tools",      "Documents",
					    "toolchains", NULL};
	for (size_t i = 0; never[i]; i++)
		cr_expect_null(strstr(text, never[i]), "%s was written: %s\n%s", never[i], text,
			       r.err);
	free(text);
	run_free(&r);

	/* A plain run with the learned config: the same writes, and the read. */
	char *after = fmt("%scat '%s'\n", tries, doc);
	char *run_argv[] = {CORDON_BIN, "run", "--config", cfg, "--", "/bin/sh", "-c", after, NULL};
	r = world_run(&w, run_argv, w.proj);
	cr_expect_null(strstr(r.out, "taxes-secret"), "a later session read the document");
	for (size_t i = 0; targets[i]; i++)
		cr_expect_not(contains(targets[i], "evil"), "a later session wrote %s\n%s",
			      targets[i], r.err);
	run_free(&r);

	/* Controls: outside, each write lands and the document is read. */
	char *plain[] = {"/bin/sh", "-c", after, NULL};
	r = world_run(&w, plain, w.proj);
	cr_expect(strstr(r.out, "taxes-secret"), "control: the document was not read: %s", r.err);
	for (size_t i = 0; targets[i]; i++)
		cr_expect(contains(targets[i], "evil"), "control: %s was not written: %s",
			  targets[i], r.err);
	run_free(&r);

	for (size_t i = 0; targets[i]; i++)
		if (targets[i] != prompt)
			free(targets[i]);
	free(after);
	free(cfg);
	free(script);
	free(lines);
	free(tries);
	free(doc);
	free(brew);
	free(prompt);
	world_free(&w);
}

Test(learn, write_never_makes_code_or_documents_reachable_as_root, .timeout = 90)
{
	learn_never_writes_code(false);
}

Test(learn, write_never_makes_code_or_documents_reachable_as_user, .timeout = 90)
{
	learn_never_writes_code(true);
}

/* What a shared directory (/tmp) takes none of, refused there, is said
 * with where to make it instead, and never proposed (43b F4: learn said
 * "the sandbox denied nothing"): a symbolic link, a unix socket, a move
 * from another of its directories. Judged outside: nothing was made at
 * those names. Control: unsandboxed, all three are made. */
static void learn_shared(bool as_user)
{
	struct world w;
	world_init(&w, "learnshared", "");
	FILE *f = fopen(w.cfg, "w");
	cr_assert_not_null(f);
	fprintf(f, "{\"system_paths\": {\"read_write\": [\"/dev/null\", \"/dev/urandom\", "
		   "\"/tmp\"]}}");
	cr_assert_eq(fclose(f), 0);
	if (as_user)
		world_as_user(&w);
	int pid = (int)getpid();
	char *link = fmt("/tmp/cordon-test-lnk-%d-%d", pid, as_user);
	char *sock = fmt("/tmp/cordon-test-sock-%d-%d", pid, as_user);
	char *a = fmt("/tmp/cordon-test-a-%d-%d", pid, as_user);
	char *b = fmt("/tmp/cordon-test-b-%d-%d", pid, as_user);
	char *script =
		fmt("ln -s /nowhere %s; /usr/bin/python3 -c 'import socket; "
		    "socket.socket(socket.AF_UNIX).bind(\"%s\")'; mkdir -p %s %s; touch %s/f; "
		    "/usr/bin/python3 -c 'import os; os.rename(\"%s/f\", \"%s/f\")'",
		    link, sock, a, b, a, a, b);
	char *argv[] = {CORDON_BIN, "learn", "--config", w.cfg, "--",
			"/bin/sh",  "-c",    script,     NULL};
	struct run_result r = world_run(&w, argv, w.proj);
	char *moved = fmt("%s/f", b);
	const char *names[] = {link, sock, moved};
	struct stat st;
	for (size_t i = 0; i < 3; i++) {
		char *line = fmt("%s  (shared with servers outside", names[i]);
		cr_expect(strstr(r.err, line), "not said: %s\n%s", names[i], r.err);
		cr_expect_neq(lstat(names[i], &st), 0, "%s was made", names[i]);
		free(line);
	}
	const char *block = strstr(r.err, BLOCK);
	cr_expect(!block || !strstr(block, "/tmp"), "proposed: %s", r.err);
	run_free(&r);
	char *ctl[] = {"/bin/sh", "-c", script, NULL};
	r = world_run(&w, ctl, w.proj);
	for (size_t i = 0; i < 3; i++)
		cr_assert_eq(lstat(names[i], &st), 0, "control: %s not made: %s", names[i], r.err);
	run_free(&r);
	char *rm = fmt("rm -rf %s %s %s %s", link, sock, a, b);
	char *rm_argv[] = {"/bin/sh", "-c", rm, NULL};
	r = run_cmd(rm_argv, NULL, "/", 10000);
	run_free(&r);
	free(rm);
	free(moved);
	free(script);
	free(b);
	free(a);
	free(sock);
	free(link);
	world_free(&w);
}

Test(learn, says_what_a_shared_directory_refuses_as_root, .timeout = 60)
{
	learn_shared(false);
}

Test(learn, says_what_a_shared_directory_refuses_as_user, .timeout = 60)
{
	learn_shared(true);
}
