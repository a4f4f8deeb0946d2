/* cordon — a repository's objects and refs, read by cordon itself and
 * checked against their names (shim/gitobj.c). The launcher judges, as a
 * session ends, what git outside would write from them; it runs no git
 * there (a session may have planted what git would run). */
#ifndef CORDON_GITOBJ_H
#define CORDON_GITOBJ_H

#include <stdbool.h>
#include <stddef.h>

#include "cordon/strv.h"

enum { CORDON_GIT_COMMIT = 1, CORDON_GIT_TREE = 2, CORDON_GIT_BLOB = 3, CORDON_GIT_TAG = 4 };

struct cordon_git_odb;

/* The object database of the repository whose common directory is COMMON
 * (its objects/, its packs and their alternates), with object names of HS
 * bytes (20: SHA-1, 32: SHA-256); NULL when out of memory. */
struct cordon_git_odb *cordon_git_odb_open(const char *common, size_t hs);
void cordon_git_odb_free(struct cordon_git_odb *db);

/* Object OID: every copy the database holds (a loose file, each pack that
 * lists it) read, and checked against its name, as git does not check it
 * (it reads the first it finds). 0, its kind into *TYPE and its data
 * into *DATA (malloc'd, *LEN bytes); -ENOENT none; -EBADMSG a copy that
 * is not what its name says, or that cannot be read whole; -E2BIG larger
 * (or its deltas deeper) than cordon reads; -ENOMEM. */
int cordon_git_odb_read(struct cordon_git_odb *db, const unsigned char *oid, int *type,
			unsigned char **data, size_t *len);

/* The name git gives a blob holding DATA (LEN bytes), into OID (HS). */
void cordon_git_blob_name(size_t hs, const void *data, size_t len, unsigned char *oid);

/* The refs of the repository whose git dir is GITDIR (common directory
 * COMMON), into OUT as "NAME HEX", loose ones over packed ones, sorted,
 * with HEAD's commit first as "HEAD HEX" (missing on an unborn branch).
 * Symbolic refs other than HEAD are left out. 0; -ENOTSUP refs kept in a
 * form cordon does not read (reftable); -ENOMEM. */
int cordon_git_refs(const char *gitdir, const char *common, struct cordon_strv *out);

/* The value of ref NAME among REFS as cordon_git_refs gives them (HEAD's
 * first, the rest sorted), or NULL: a binary search, not a walk (a
 * repository may hold tens of thousands of tags). */
const char *cordon_git_ref_value(const struct cordon_strv *refs, const char *name);

/* HEX (2 * HS digits) into OID; false if it is not that. */
bool cordon_git_oid_parse(const char *hex, size_t hs, unsigned char *oid);

#endif
