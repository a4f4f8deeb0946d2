/* cordon — the other names a credential has: its copies beside a hidden
 * path, and the files git's and ssh's config name as keys
 * (shim/secret-names.c). */
#ifndef CORDON_SECRET_NAMES_H
#define CORDON_SECRET_NAMES_H

#include <stdbool.h>
#include <stddef.h>

/* Whether NAME is a copy of ENTRY that an editor, a package manager or a
 * user makes beside it (both names in one directory): ENTRY~,
 * ENTRY.~1~, #ENTRY#, .#ENTRY, vim's .ENTRY.swp (.swo, ..., .saa) and
 * .ENTRY.un~, kate's .ENTRY.kate-swp, and ENTRY followed by ".", "-", "_"
 * or " " and bak, backup, old, orig, save, sav, copy, prev, tmp, new, a
 * dpkg-, rpm-, ucf- or pac- suffix, or "(N)" (with anything after: a
 * date), or a number or a date (.2024-05-01), and ENTRY- alone (shadow-);
 * the same marks before ENTRY's extension (auth.bak.json); an archive of
 * ENTRY or of such a copy (gh.tar.gz, auth.json.gz). Not ENTRY itself. */
bool cordon_backup_name(const char *entry, const char *name);

/* Each regular file or directory that is a copy (cordon_backup_name) of one
 * of PATHS[0..N) (absolute) in its directory, as it is now: FN(COPY, I, ARG),
 * COPY absolute and I the index of the path it copies. Each directory is
 * read once. Stops at FN's first negative return and returns it; else 0
 * or -ENOMEM. */
int cordon_backups_of(const char *const *paths, size_t n,
		      int (*fn)(const char *copy, size_t i, void *arg), void *arg);

/* Each credential file the user's git and ssh config name, that their
 * defaults do not already put under a hidden path: git's (~/.gitconfig,
 * $XDG_CONFIG_HOME/git/config, $GIT_CONFIG_GLOBAL, /etc/gitconfig and
 * $GIT_CONFIG_SYSTEM, and the files they include, read by
 * cordon_gitcfg_read) credential.helper's store --file, http.cookieFile,
 * the token files a helper's shell text or script under the home names,
 * http.sslKey, http.proxySSLKey, http.sslCert and http.proxySSLCert (each
 * also per URL), core.sshCommand's ssh options (-i, -o IdentityFile, -F)
 * and core.askPass's script; ssh's (~/.ssh/config, /etc/ssh/ssh_config and
 * what they Include) IdentityFile; from GETENV_FN, $GIT_SSH_COMMAND,
 * $GIT_ASKPASS, $SSH_ASKPASS and the files $GOOGLE_APPLICATION_CREDENTIALS
 * and its kin name; the git config of CONFIG_HOMES (directories earlier
 * launches had as XDG_CONFIG_HOME: may be NULL), and of the repository
 * git finds from PROJECT (its config, config.worktree; PROJECT may be
 * NULL). FN(PATH, WHY, ARG): PATH absolute, a glob where
 * ssh fills a token in at run time (%h: each file it may be), WHY says
 * which file and key name it ("~/.gitconfig: credential.helper"). A name
 * relative to where the program runs, or built from a variable not set,
 * is not followed. Stops at FN's first negative return and returns it;
 * else 0 or -ENOMEM. */
struct cordon_strv;
int cordon_config_secrets(const char *home, const char *project,
			  const struct cordon_strv *config_homes, char *(*getenv_fn)(const char *),
			  int (*fn)(const char *path, const char *why, void *arg), void *arg);

#endif
