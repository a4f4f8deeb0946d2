/* shim/gitobj.c and shim/inflate.c, judged against git itself: every
 * object of real repositories (loose, packed with deltas by offset and by
 * name, compressed at levels 0, 1 and 9, SHA-1 and SHA-256) read and
 * matched with what git cat-file lists, a forged copy refused, and the
 * refs matched with git for-each-ref. */
#include <criterion/criterion.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cordon/gitobj.h"
#include "cordon/strv.h"
#include "helpers.h"

static char *sh(const char *dir, const char *script)
{
	char *argv[] = {"/bin/sh", "-ec", (char *)script, NULL};
	char *envp[] = {"PATH=/usr/bin:/bin",      "HOME=/nonexistent",
			"GIT_CONFIG_NOSYSTEM=1",   "GIT_AUTHOR_NAME=t",
			"GIT_AUTHOR_EMAIL=t@t",    "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@t", NULL};
	struct run_result r = run_cmd(argv, envp, dir, 60000);
	cr_assert_eq(r.status, 0, "%s: %s", script, r.err);
	char *out = r.out;
	r.out = NULL;
	run_free(&r);
	return out;
}

/* A repository in DIR with history: text edited over many commits (for
 * deltas), incompressible bytes, a tree of directories, tags. */
static void make_history(const char *dir, const char *init)
{
	char *script = fmt("git init -q -b main .\n%s\n"
			   "mkdir -p a/b/c && printf 'x\\n' > a/b/c/deep\n"
			   "for i in $(seq 1 30); do\n"
			   "  seq 1 $((i * 40)) | sed \"s/$/ line of text $i/\" > text\n"
			   "  head -c $((i * 300)) /dev/urandom > noise\n"
			   "  printf '%%s\\n' \"$i\" > a/b/n\n"
			   "  git add -A && git commit -qm \"c$i\"\n"
			   "  [ $((i %% 10)) -ne 0 ] || git tag -a -m t t$i\n"
			   "done\n"
			   "git branch side HEAD~3\n",
			   init);
	free(sh(dir, script));
	free(script);
}

/* Each object git lists in DIR read by cordon: kind and size as git
 * says. How many were. */
static size_t read_all(const char *dir, size_t hs)
{
	char *list = sh(dir, "git cat-file --batch-all-objects "
			     "--batch-check='%(objectname) %(objecttype) %(objectsize)'");
	char *common = path_join(dir, ".git");
	struct cordon_git_odb *db = cordon_git_odb_open(common, hs);
	cr_assert_not_null(db);
	size_t n = 0;
	for (char *line = strtok(list, "\n"); line; line = strtok(NULL, "\n")) {
		char hex[65], kind[16];
		size_t size;
		cr_assert_eq(sscanf(line, "%64s %15s %zu", hex, kind, &size), 3, "%s", line);
		unsigned char oid[32];
		cr_assert(cordon_git_oid_parse(hex, hs, oid), "%s", hex);
		int type;
		unsigned char *data;
		size_t len;
		int e = cordon_git_odb_read(db, oid, &type, &data, &len);
		cr_assert_eq(e, 0, "%s: %d", line, e);
		static const char *const kinds[] = {"", "commit", "tree", "blob", "tag"};
		cr_expect_str_eq(kinds[type], kind, "%s", line);
		cr_expect_eq(len, size, "%s", line);
		free(data);
		n++;
	}
	cordon_git_odb_free(db);
	free(common);
	free(list);
	return n;
}

Test(gitobj, every_object_of_a_repository_is_read_as_git_lists_it)
{
	static const struct {
		const char *init, *repack;
		size_t hs;
	} cases[] = {
		{"", "git gc -q --aggressive", 20},
		{"git config core.compression 0", "git -c pack.compression=0 repack -adfq", 20},
		{"git config core.compression 1",
		 "git -c repack.useDeltaBaseOffset=false repack -adfq", 20},
		{"rm -rf .git && git init -q --object-format=sha256 -b main .",
		 "git repack -adfq --depth=200 --window=50", 32},
	};
	for (size_t i = 0; i < sizeof(cases) / sizeof(*cases); i++) {
		char *dir = tmp_dir("gitobj");
		make_history(dir, cases[i].init);
		/* (Loose first, then packed.) */
		size_t loose = read_all(dir, cases[i].hs);
		free(sh(dir, cases[i].repack));
		char *packs = sh(dir, "ls .git/objects/pack | grep -c idx; "
				      "git count-objects -v | grep '^count:'");
		cr_expect(strstr(packs, "count: 0"), "%s: loose left: %s", cases[i].repack, packs);
		size_t packed = read_all(dir, cases[i].hs);
		cr_expect_geq(packed, 150, "%zu", packed);
		cr_expect_eq(loose, packed);
		free(packs);
		tmp_cleanup(dir);
		free(dir);
	}
}

Test(gitobj, a_copy_that_is_not_what_its_name_says_is_refused)
{
	char *dir = tmp_dir("gitobj");
	make_history(dir, "");
	char *hex = sh(dir, "git rev-parse HEAD:text");
	hex[40] = '\0';
	unsigned char oid[20];
	cr_assert(cordon_git_oid_parse(hex, 20, oid));
	char *common = path_join(dir, ".git");
	int type;
	unsigned char *data;
	size_t len;
	struct cordon_git_odb *db = cordon_git_odb_open(common, 20);
	cr_assert_eq(cordon_git_odb_read(db, oid, &type, &data, &len), 0);
	free(data);
	cordon_git_odb_free(db);
	/* Another blob's bytes as the loose file of its name: git does not
	 * check it. */
	char *script =
		fmt("other=$(printf 'forged\\n' | git hash-object -w --stdin)\n"
		    "f=.git/objects/%.2s/%s\n"
		    "rm -f $f\n"
		    "cp .git/objects/$(echo $other | cut -c1-2)/$(echo $other | cut -c3-) $f\n"
		    "git cat-file -p %s",
		    hex, hex + 2, hex);
	char *shown = sh(dir, script);
	cr_assert_str_eq(shown, "forged\n", "git reads the forged copy: %s", shown);
	db = cordon_git_odb_open(common, 20);
	cr_expect_eq(cordon_git_odb_read(db, oid, &type, &data, &len), -EBADMSG);
	cordon_git_odb_free(db);
	free(shown);
	free(script);
	free(hex);
	free(common);
	tmp_cleanup(dir);
	free(dir);
}

Test(gitobj, refs_are_read_as_git_lists_them)
{
	char *dir = tmp_dir("gitobj");
	make_history(dir, "");
	/* Packed, then one moved loose over its packed value, one only loose. */
	free(sh(dir, "git pack-refs --all && git branch -f side HEAD~5 && git branch late"));
	char *want =
		sh(dir, "echo \"HEAD $(git rev-parse HEAD)\"; "
			"git for-each-ref --format='%(refname) %(objectname)' | LC_ALL=C sort");
	struct cordon_strv refs = {0};
	char *git = path_join(dir, ".git");
	cr_assert_eq(cordon_git_refs(git, git, &refs), 0);
	char *got = calloc(1, 65536);
	for (size_t i = 0; i < refs.n; i++)
		snprintf(got + strlen(got), 65536 - strlen(got), "%s\n", refs.v[i]);
	cr_expect_str_eq(got, want);
	cordon_strv_free(&refs);
	free(got);
	free(want);
	free(git);
	tmp_cleanup(dir);
	free(dir);
}
