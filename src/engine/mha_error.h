/* mha_error.h - the error record every layer fills when something fails.
 *
 * Functions that can fail return a status (0 = ok, non-zero = failed) and fill
 * a struct mha_error owned by the caller; the caller decides how to show it.
 * file/line/column are optional: an empty file and zero line mean "no place".
 */
#ifndef MHA_ERROR_H
#define MHA_ERROR_H

#define MHA_ERROR_FILE_MAX 512
#define MHA_ERROR_TEXT_MAX 1024

struct mha_error {
    char file[MHA_ERROR_FILE_MAX]; /* where the bad input came from, "" if none */
    int line;                      /* 1-based, 0 = unknown */
    int column;                    /* 1-based, 0 = unknown */
    char text[MHA_ERROR_TEXT_MAX]; /* what was wrong and what was expected */
};

/* Clear an error record (all fields empty). err may be NULL. */
void mha_error_clear(struct mha_error *err);

/* printf-style: set err->text; leaves file/line/column untouched. err may be NULL.
 * Always returns -1 so callers can write `return mha_error_set(err, ...);`. */
int mha_error_set(struct mha_error *err, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* Set the place (file may be NULL to keep the current one). */
void mha_error_at(struct mha_error *err, const char *file, int line, int column);

/* Format as "file:line:column: text" (parts that are unknown are left out)
 * into buf of size n. Returns buf. */
char *mha_error_format(const struct mha_error *err, char *buf, unsigned long n);

#endif
