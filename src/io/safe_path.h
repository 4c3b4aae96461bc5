/* safe_path.h - the folder a file is to be written in, opened a part of
 * the path at a time (safe_file.c's writing goes through it).
 *
 * Each part of the path is opened with O_NOFOLLOW; a symbolic link met
 * anywhere on the way, a folder's or the file's own, is followed by hand,
 * and only where the kernel's protected_symlinks rule would follow it: in
 * a sticky folder anyone may write to (/tmp, a lab's shared folder), a link
 * belonging neither to the user nor to the folder's owner is refused, the
 * message naming the link and its owner.  So no link someone else planted
 * in a shared folder leads a write into a folder of the user's.
 */
#ifndef MHA_SAFE_PATH_H
#define MHA_SAFE_PATH_H

#include <limits.h>
#include <stdbool.h>

#include "engine/mha_error.h"

struct safe_path {
    int dir;                 /* the folder, open (O_PATH where there is one), or -1 */
    char base[NAME_MAX + 1]; /* the file's name in it ("" for a folder_only walk) */
    char folder[PATH_MAX];   /* the folder's name as walked (links followed), for messages */
    char target[PATH_MAX];   /* folder/base */
    bool no_folder;          /* the walk failed for want of a folder to write in */
};

/* Walk path: its folder into w->dir and its last part into w->base, links
 * followed as above (the last part's too: base names no link).  With
 * folder_only, path names the folder itself.  0; or -1 with err naming
 * path ("FOLDER is not a folder", "cannot write in FOLDER: no such folder",
 * "is a directory, not a file", a planted link, a loop of links) and
 * w->dir closed.  safe_path_done closes the folder. */
int safe_path_walk(const char *path, bool folder_only, struct safe_path *w, struct mha_error *err);
void safe_path_done(struct safe_path *w);

#endif
