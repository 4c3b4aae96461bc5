/* lesson_state.h - what the screen shows at a step of a lesson: the scenes
 * of steps 0..k applied in order, the example they describe, the cell to
 * point at, and the answers quizzes expect. */
#ifndef MHA_LESSON_STATE_H
#define MHA_LESSON_STATE_H

#include "io/view_desc.h"
#include <stdbool.h>
#include <stdint.h>

#include "lesson/lesson.h"
#include "engine/explain.h"
#include "engine/mha.h"

struct lesson_state {
    int stage;
    enum mha_view view;
    /* generated example (when load is NULL) */
    const char *tokens; /* NULL: "tok 0".."tok 3" */
    int d_model;
    uint32_t seed;
    /* or an example file, relative to the assets directory */
    const char *load;
    const char *words;    /* a model file's sentence (NULL: its own sample) */
    int heads;            /* 0: the file's own (loaded) */
    int causal;           /* -1: as the example has it, else 0/1 */
    int scaled;           /* -1: as the example has it, else 0/1 */
    const char *focus;    /* this step's focus, or NULL */
    const char *show;     /* this step's row shown for every head, or NULL */
    const char *scroll;   /* this step's view row to scroll to (its first cell), or NULL */
    long long batch, seq; /* seq 0: the token count */
    const char *preset;
    /* training: a task (NULL: none), its head counts (more than one: side
     * by side; or its layer counts, train_compare_layers), seed and step
     * limit (0: the task's, as --train takes it), d_model (0: the task's)
     * and layers */
    const char *train;
    int train_heads[4];
    int n_train_heads;
    bool train_compare_layers;   /* train_heads holds layer counts, each of 2 heads */
    bool train_compare_variants; /* the panes differ in train_variants, each of train_heads */
    struct train_variant train_variants[4];
    uint32_t train_seed;
    int train_steps;
    int train_d_model;
    int train_layers;
    /* a model of layers (loaded or training): the layer its stages show,
     * 0-based; -1: the last */
    int layer;
    /* the patching view: the clean sentence (NULL: the example's) and the
     * corrupted one (NULL: none) */
    const char *clean, *corrupt;
};

/* The sizes a lesson's training of task has where the scene gives none:
 * --train's for the task (its own d_model, vocabulary, context, step
 * limit and learning rate where it has them). */
struct train_task;
void lesson_train_sizes(const struct lesson_state *st, const struct train_task *task, int *d_model,
                        int *vocab, int *context, int *steps, float *lr);

/* The training st's scene asks for, of task (a built-in task or a
 * corpus's; NULL: none, and ask names no task): its panes, seed and
 * layers, and lesson_train_sizes's sizes. */
struct train_ask;
void lesson_train_ask(const struct lesson_state *st, const struct train_task *task,
                      struct train_ask *ask);

/* The state before any scene: the default example on the input stage. */
/* What a view scene's view is made from: the step's example, the sizes
 * its scene gave (batch, seq, preset) and the model file its load: names
 * (under assets_dir, written into path, n bytes: the inputs point there). */
struct view_inputs lesson_view_inputs(const struct lesson_state *st, const struct mha_example *ex,
                                      const char *assets_dir, char *path, size_t n);
void lesson_state_init(struct lesson_state *st);
void lesson_state_apply(struct lesson_state *st, const struct lesson_scene *sc);
/* Apply the scenes of steps 0..step (with the reveals of the steps before
 * step, as lesson_state_at_answered with answered false). */
void lesson_state_at(const struct lesson *l, int step, struct lesson_state *st);
/* Apply the scenes of steps 0..step as the screen shows them: every earlier
 * step's ```reveal included (it was answered, or passed), and step's own
 * when answered is true. */
void lesson_state_at_answered(const struct lesson *l, int step, bool answered,
                              struct lesson_state *st);

/* The state as the screen shows a trained model's stages (a stage: step
 * after a train: step): the stage and focus kept; no view, no example file
 * or tokens, and the model's own mask and scale. */
void lesson_state_for_trained(struct lesson_state *st);

/* Build the example the state describes; assets_dir is where "load" paths
 * are found.  NULL + err (naming the file for a bad example file). */
struct mha_example *lesson_state_example(const struct lesson_state *st, const char *assets_dir,
                                         struct mha_error *err);

struct lesson_focus {
    enum mha_tensor matrix; /* one of the tensors a focus names ("query", "w_q", "weights" ...) */
    int head;               /* 0 where the matrix has no heads */
    int row, col;
};

/* Cells a checkpoint hides until it is answered: one tensor, and a head, a
 * row and a column, each -1 for all of them. */
struct lesson_hide {
    bool active;
    enum mha_tensor tensor;
    int head, row, col;
    bool attention; /* hide: attention: the scores, scaled scores and weights alike */
};

/* What quiz q hides on ex: its hide: spec ("weights, head 0, row tok 0";
 * head, row and col optional), else what its compute: asks about (weight:
 * that cell of the weights; argmax: that row of the weights), else nothing
 * (active false).  -1 with err when the spec does not fit ex. */
int lesson_quiz_hide(const struct lesson_quiz *q, const struct mha_example *ex,
                     struct lesson_hide *out, struct mha_error *err);
/* True when h hides cell c (a tensor the screen shows, Q_h counting as Q;
 * under hide: attention, the scores, scaled scores and weights counting as
 * one: each gives the others' order away). */
bool lesson_hide_covers(const struct lesson_hide *h, const struct mha_cell *c);

/* The names a focus may give a matrix of stage (0 .. MHA_STAGE_COUNT - 1),
 * its default first, the rest in the order of enum mha_tensor, into names
 * (room for max; the stage table's strings); *per_head is set when they
 * take a head.  Returns their count.  lessons/README.md's table of them is
 * written from this by scripts/gen-docs. */
int lesson_stage_matrices(int stage, const char **names, int max, bool *per_head);

/* Resolve "weights, head 1, row it, col mat" for stage against ex.  A
 * missing matrix means the stage's focus (its row of the stage table);
 * missing head/row/col mean 0. */
int lesson_focus_resolve(const char *spec, int stage, const struct mha_example *ex,
                         struct lesson_focus *out, struct mha_error *err);

/* A show: a matrix and a row of it, seen in every head. */
struct lesson_show {
    enum mha_tensor matrix;
    int row;
};

/* Resolve "weights, row now" for stage against ex: a matrix (default the
 * stage's focus) and a row, no head and no column. */
int lesson_show_resolve(const char *spec, int stage, const struct mha_example *ex,
                        struct lesson_show *out, struct mha_error *err);

/* ---- quiz answers ---- */

enum lesson_compute_kind {
    COMPUTE_D_K,
    COMPUTE_D_MODEL,
    COMPUTE_HEADS,
    COMPUTE_TOKENS,
    COMPUTE_PARAMS,
    COMPUTE_ARGMAX,
    COMPUTE_WEIGHT,
    COMPUTE_NEXT /* a language model's likeliest next word after the sentence */
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
/* The number a reader typed: as strtod reads it, with commas allowed
 * between groups of three digits ("2,359,296").  false when s is no number. */
bool lesson_quiz_number(const char *s, double *out);
bool lesson_quiz_is_right(const struct lesson_quiz *q, const struct lesson_answer *expected,
                          const char *given);

/* Index of a label (first match) or a 0-based index given as digits; -1. */
int lesson_find_label(char *const *labels, int n, const char *want);

/* Check everything that needs the examples: each step's example builds,
 * heads divide d_model, focus resolves, computed answers compute, files
 * load.  Adds diagnostics to l; returns the total number of diagnostics. */
int lesson_check(struct lesson *l, const char *assets_dir);

#endif
