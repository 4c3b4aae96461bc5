/* paths.h - where the program finds its lessons and assets: next to the
 * binary in the source tree, or in the installed data directory. */
#ifndef MHA_PATHS_H
#define MHA_PATHS_H

/* The directory that holds lessons/ and assets/: $MHA_DATA_DIR if set, the
 * source tree when the program runs from its build directory, the installed
 * data directory otherwise.  The string is static; NULL if none exists. */
const char *mha_data_dir(void);

/* "<data dir>/<sub>" into a static buffer (NULL when there is no data dir). */
const char *mha_data_path(const char *sub);

#endif
