/* link.h - the command line that reopens the explorer in a given state, for
 * the explorer's :link command (a teacher pastes it into notes or slides). */
#ifndef MHA_LINK_H
#define MHA_LINK_H

#include <stdbool.h>
#include <stdint.h>

struct link_state {
    const char *load; /* example file, or NULL for a generated example */
    bool model;       /* load is a trained model: its sentence as --tokens, and the
                         model's own heads, mask and scaling (none given) */
    bool has_layer;   /* a model of layers shown at a layer not its last: --layer */
    int layer;
    double top_p;        /* a model: the top-p w draws at, --top-p when in (0, 1) */
    char *const *tokens; /* generated or a model: the token labels (n_tokens of them) */
    int n_tokens;
    int d_model;   /* generated only */
    uint32_t seed; /* generated only */
    int heads;
    bool causal, scaled;
    int stage;           /* 0 .. MHA_STAGE_COUNT - 1; not given with a lesson, whose step
                            shows its scene's stage */
    const char *view;    /* a view's name, or NULL */
    const char *focus;   /* e.g. "weights, head 1, row 2, col 3", or NULL */
    const char *corrupt; /* a loaded model's corrupted sentence (the patching view), or NULL */
    const char *lesson;  /* lesson number or file, or NULL */
    int lesson_step;     /* 0-based step within the lesson */
    const char *theme;   /* or NULL for the default */
    bool present;
};

/* "mha-explorer --tokens 'The cat' ..." with every argument quoted for a
 * POSIX shell where needed.  Options that equal the defaults are left out.
 * Newly allocated (free it); NULL when out of memory. */
char *link_command(const struct link_state *s);

/* s quoted for a POSIX shell (as is when it needs no quoting). Newly
 * allocated. */
char *link_shell_quote(const char *s);

#endif
