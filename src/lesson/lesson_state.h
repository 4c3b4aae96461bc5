/* lesson_state.h - what the screen shows at a step of a lesson: the scenes
 * of steps 0..k applied in order, the example they describe, the cell to
 * point at, and the answers quizzes expect. */
#ifndef MHA_LESSON_STATE_H
#define MHA_LESSON_STATE_H

#include <stdbool.h>
#include <stdint.h>

#include "lesson.h"
#include "mha.h"

struct lesson_state {
    int stage;
    enum mha_view view;
    /* generated example (when load is NULL) */
    const char *tokens; /* NULL: "tok 0".."tok 3" */
    int d_model;
    uint32_t seed;
    /* or an example file, relative to the assets directory */
    const char *load;
    int heads;  /* 0: the file's own (loaded) */
    int causal; /* -1: as the example has it, else 0/1 */
    int scaled; /* -1: as the example has it, else 0/1 */
    const char *focus; /* this step's focus, or NULL */
    long long batch, seq; /* seq 0: the token count */
    const char *preset;
};

/* The state before any scene: the default example on the input stage. */
void lesson_state_init(struct lesson_state *st);
void lesson_state_apply(struct lesson_state *st, const struct lesson_scene *sc);
/* Apply the scenes of steps 0..step. */
void lesson_state_at(const struct lesson *l, int step, struct lesson_state *st);

/* Build the example the state describes; assets_dir is where "load" paths
 * are found.  NULL + err (naming the file for a bad example file). */
struct mha_example *lesson_state_example(const struct lesson_state *st, const char *assets_dir,
                                         struct mha_error *err);

/* Matrices a focus can name. */
enum lesson_matrix {
    LM_QUERY, LM_KEY, LM_VALUE, LM_W_Q, LM_W_K, LM_W_V, LM_W_O,
    LM_Q, LM_K, LM_V,
    LM_SCORES, LM_SCALED, LM_WEIGHTS, LM_CONTEXT,
    LM_MERGED, LM_OUTPUT,
    LM_COUNT
};
const char *lesson_matrix_name(enum lesson_matrix m);

struct lesson_focus {
    enum lesson_matrix matrix;
    int head; /* 0 where the matrix has no heads */
    int row, col;
};

/* Resolve "weights, head 1, row it, col mat" for stage against ex.  A
 * missing matrix means the stage's first; missing head/row/col mean 0. */
int lesson_focus_resolve(const char *spec, int stage, const struct mha_example *ex,
                         struct lesson_focus *out, struct mha_error *err);

/* ---- quiz answers ---- */

enum lesson_compute_kind {
    COMPUTE_D_K, COMPUTE_D_MODEL, COMPUTE_HEADS, COMPUTE_TOKENS, COMPUTE_PARAMS,
    COMPUTE_ARGMAX, COMPUTE_WEIGHT
};

struct lesson_compute {
    enum lesson_compute_kind kind;
    int head;
    char row[128], col[128];
};

int lesson_compute_parse(const char *text, struct lesson_compute *c);

struct lesson_answer {
    bool numeric;
    double number;
    char text[256];
};

/* The answer q expects on this example. */
int lesson_quiz_expected(const struct lesson_quiz *q, const struct mha_example *ex,
                         const struct mha_trace *t, struct lesson_answer *out,
                         struct mha_error *err);
/* given: the choice's text, or the number typed. */
bool lesson_quiz_is_right(const struct lesson_quiz *q, const struct lesson_answer *expected,
                          const char *given);

/* Index of a label (first match) or a 0-based index given as digits; -1. */
int lesson_find_label(char *const *labels, int n, const char *want);

/* Check everything that needs the examples: each step's example builds,
 * heads divide d_model, focus resolves, computed answers compute, files
 * load.  Adds diagnostics to l; returns the total number of diagnostics. */
int lesson_check(struct lesson *l, const char *assets_dir);

#endif
