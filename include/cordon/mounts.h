/* Other names a path has through the mount table (shim/mounts.c). */
#ifndef CORDON_MOUNTS_H
#define CORDON_MOUNTS_H

#include "cordon/strv.h"

/* Decode mountinfo's octal escapes (\040 for a space) in place. */
void cordon_mountinfo_unescape(char *s);

/* For each of PATHS (absolute, existing), the other paths at which the
 * same file is reached through another mount of its file system (a bind
 * of it, or of a directory above it): each pushed to OUT, and the path it
 * stands for (as given) to OF (may be NULL), when stat there gives the
 * same file. Only paths on a device mounted twice so are resolved; nothing
 * without /proc/self/mountinfo. 0 or -ENOMEM. */
int cordon_mount_aliases(const struct cordon_strv *paths, struct cordon_strv *out,
			 struct cordon_strv *of);

/* cordon_mount_aliases, and a path that is missing as the other names of
 * its nearest existing directory above would hold it (the rest of it
 * appended): what a session could make there under each name; and the
 * other names of each mount point below one of BELOW (may be NULL; OF:
 * that mount point then). */
int cordon_mount_aliases_up(const struct cordon_strv *paths, const struct cordon_strv *below,
			    struct cordon_strv *out, struct cordon_strv *of);

/* cordon_mount_aliases of each of DIRS (absolute, canonical) and of each
 * mount point below one of them (OF: that mount point then), with the
 * mount table read once. */
int cordon_mount_aliases_below(const struct cordon_strv *dirs, struct cordon_strv *out,
			       struct cordon_strv *of);
/* The mount points below DIR (absolute, canonical; not DIR itself),
 * relative to it, pushed to OUT once each: what a walk of DIR leaves be
 * (a FUSE file system in the runtime directory, the document portal's or
 * gvfs's, answers from its server). 0 or -ENOMEM. */
int cordon_mount_points_below(const char *dir, struct cordon_strv *out);
#endif
