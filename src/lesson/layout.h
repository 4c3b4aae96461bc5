/* layout.h - a step's blocks wrapped to a width: lines of styled segments,
 * the same for the lesson pane and for printed lessons. */
#ifndef MHA_LESSON_LAYOUT_H
#define MHA_LESSON_LAYOUT_H

#include "lesson/lesson.h"

struct lesson_seg {
    char *text;     /* UTF-8, no newlines */
    unsigned style; /* enum lesson_style bits */
};

struct lesson_line {
    enum lesson_block_kind kind; /* the block the line belongs to */
    enum lesson_callout callout;
    bool title; /* the call-out's title line, or a table's header */
    bool blank; /* an empty separator line */
    int indent; /* columns before the first segment */
    struct lesson_seg *segs;
    int n_segs;
    bool failed; /* out of memory while filling it */
    bool sink;   /* not a line: where text goes when no line could be made */
};

struct lesson_layout {
    struct lesson_line *lines;
    int n_lines;
    int width;
    bool oom;                /* out of memory: lesson_layout_step returns -1 */
    struct lesson_line sink; /* takes what would have gone to a line that could not be made */
};

/* Wrap the blocks of step to width columns (at least 10).  Call-outs and
 * quotes leave 2 columns on the left for a bar the renderer draws.  Returns
 * 0, or -1 when memory ran out (out is then empty); either way out is freed
 * with lesson_layout_done. */
int lesson_layout_step(const struct lesson_step *step, int width, struct lesson_layout *out);
void lesson_layout_done(struct lesson_layout *lay);

/* Plain text of a line (indent as spaces), newly allocated. */
char *lesson_line_text(const struct lesson_line *line);

#endif
