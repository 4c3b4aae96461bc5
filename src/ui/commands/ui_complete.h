/* ui_complete.h - Tab completion on the ':' line: command names, then the
 * argument the command's row in ui_cmd_table says it takes (a stage, view,
 * format, theme, on/off, a bundled example or a file path).  No curses. */
#ifndef UI_COMPLETE_H
#define UI_COMPLETE_H

#define UI_COMPLETE_MAX 64
#define UI_COMPLETE_LEN 256

struct ui_completion {
    int start; /* byte offset in the line of the word being completed */
    int n;     /* candidates kept in items (the first UI_COMPLETE_MAX, sorted) */
    char items[UI_COMPLETE_MAX][UI_COMPLETE_LEN];
    char common[UI_COMPLETE_LEN]; /* the longest prefix they share (whole UTF-8 characters) */
};

/* The candidates for the last word of line (the cursor is at its end);
 * assets_dir: where the bundled examples are (NULL: none).  Returns c->n. */
int ui_complete(const char *line, const char *assets_dir, struct ui_completion *c);

/* Line completed with c into out (size n): the word replaced by the common
 * prefix, and a space after a single candidate that is not a folder.
 * Returns 1 when the line grew, 0 when it stayed as it was. */
int ui_complete_apply(const char *line, const struct ui_completion *c, char *out, int n);

#endif
