/* ui_state.h - everything the explorer shows, and the changes a key or a
 * command makes to it.
 *
 * The state owns the example and its trace.  Every change that touches the
 * numbers builds a new example and asks the engine for a new trace
 * (mha_run); the explorer never computes attention itself.  A change the
 * engine refuses leaves the state as it was and puts the engine's
 * explanation in the message line.
 */
#ifndef UI_STATE_H
#define UI_STATE_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/explain.h"
#include "lesson/lesson_state.h"
#include "engine/mha.h"
#include "engine/rng.h"
#include "engine/views.h"
#include "io/view_desc.h"

#define UI_MSG_MAX 1200
#define UI_CMD_MAX 512

/* What the visualisation shows is an enum mha_view (views.h, the one enum
 * lessons use too): the current stage (MHA_VIEW_NONE) or a view beyond the
 * stages (described in io/view_desc.h, shown through views/ui_views.h). */

/* "shapes", "cost", "heads" (and "none" / "stage" for MHA_VIEW_NONE); -1 if unknown. */
int ui_view_mode_from_name(const char *name);
const char *ui_view_mode_name(enum mha_view v);

struct view_desc;
struct train_model;
struct train_layer_measures;

struct ui_state {
    struct mha_example *ex; /* owned */
    struct mha_trace *tr;   /* owned, made by mha_run from ex */
    bool generated;         /* ex's numbers were drawn from ex->seed */
    unsigned ex_gen;        /* counts the examples shown (each change of the numbers) */
    /* ex is a model in training: the same model at step 0 (the training's; the heads
     * view compares the two) and what was trained; NULL / "" for any other example */
    const struct mha_example *baseline;
    const struct train_model *model; /* that model (the circuits view reads it) */
    /* a model of layers: every layer's heads measured and knocked out at its
     * last evaluation (the composition view reads it), NULL when not */
    const struct train_layer_measures *layer_measures;
    /* what its heads were measured to do, as the training screen titles them */
    char head_titles[VIEW_TITLED_HEADS][VIEW_HEAD_TITLE];
    int titled_heads;
    char trained[128];
    char source[256];         /* where ex came from, for the status line */
    char load_path[PATH_MAX]; /* the file ex came from (absolute when known), "" if none */
    bool load_model;          /* that file is a trained model (its embeddings, its weights) */
    bool words_lost;          /* its next words went with a change of its numbers (+ - [ ]) */
    float temperature;        /* a language model's next words: softmax(logits / this) */
    double top_p;             /* ... and w draws from their nucleus of this share (1: all) */
    struct rng draws;         /* the words w draws (seeded once: a session repeats) */

    int stage; /* 0 .. MHA_STAGE_COUNT - 1 */
    enum mha_view view;
    long long view_batch;    /* shapes view: batch size (default 2) */
    long long view_seq;      /* shapes and cost views: sequence length, 0 = the token count */
    char view_preset[32];    /* cost view: a published configuration's id, "" = none */
    char view_clean[1024];   /* patching view: a lesson's clean sentence, "" = the example's */
    char view_corrupt[1024]; /* patching view: the corrupted sentence, "" = none given */
    struct view_desc *vd;    /* owned: the view's numbers (NULL on the stage view), made
                                  again by ui_views_sync after the view or the example changed */
    bool vd_stale;           /* vd is to be made again */
    int view_first;          /* a paged view (the model view): its first map shown */
    int view_shown;          /* ... and how many the screen had room for (the layout sets it) */
    bool focus;              /* the cell cursor is in the visualisation */
    int block;               /* focused block of the current stage's view */
    int cur_r, cur_c;        /* cursor inside that block */
    int scroll;              /* first line of the visualisation canvas shown */
    int side_scroll;         /* first line of the text pane shown (stage text, explain panel) */
    bool focus_pending;      /* put the cursor on focus_cell once the view is built */
    struct mha_cell focus_cell;
    bool show;                 /* a lesson's show: row show_cell.row of its matrix in every head */
    char scroll_row[64];       /* a lesson's scroll: a view's table row to bring to the top */
    bool scroll_pending;       /* ... not yet done (the view's blocks are laid out first) */
    struct mha_cell show_cell; /* head 0's cell of that row */
    bool explain_open;         /* the explain panel replaces the description */
    bool help_open;
    int help_scroll;
    bool present; /* the presenter's layout (P, --present) */

    bool cmd_active; /* the ':' command line (or the '/' search line) is open */
    char cmd_lead;   /* ':' or '/' */
    char cmd[UI_CMD_MAX];
    size_t cmd_len;

    char msg[UI_MSG_MAX]; /* last message ("" = none) */
    bool msg_error;

    bool quit;

    /* largest |value| of each tensor (finite values), for the colour scales */
    float range[MHA_TENSOR_COUNT];

    /* cells a lesson's checkpoint hides until it is answered (drawn as ?,
     * not explained) */
    struct lesson_hide hide;
};

/* Take ownership of ex and run it.  generated: its numbers came from its
 * seed; source names where it came from.  Returns 0, or -1 with the engine's
 * message in err (ex is then freed). */
int ui_state_init(struct ui_state *st, struct mha_example *ex, bool generated, const char *source,
                  struct mha_error *err);
void ui_state_done(struct ui_state *st);
/* The view's numbers are out of date: freed, and marked to be made again
 * (views/ui_views.h: ui_views_sync). */
void ui_state_drop_view(struct ui_state *st);

/* Set the message line (printf-style).  error selects the error colour. */
void ui_state_say(struct ui_state *st, bool error, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Changes.  Each returns 0 when applied, -1 when refused (with the reason in
 * the message line) and leaves the message line describing what happened. */
int ui_state_set_heads(struct ui_state *st, int heads);
int ui_state_step_heads(struct ui_state *st, int dir); /* next / previous divisor */
int ui_state_set_d_model(struct ui_state *st, int d_model);
int ui_state_toggle_causal(struct ui_state *st);
int ui_state_toggle_scaled(struct ui_state *st);
int ui_state_set_seed(struct ui_state *st, unsigned long seed);
int ui_state_set_tokens(struct ui_state *st, const char *text);
/* A loaded language model's next words again at the next temperature down
 * (dir -1) or up (+1) of 0.25, 0.5, 0.75, 1, 1.5, 2, 4; -1 with a message
 * when the example is no language model or the end is reached. */
int ui_state_step_temperature(struct ui_state *st, int dir);
/* A loaded language model writes: a word drawn from its next-word table
 * (the ten likeliest at st->temperature, in proportion to their
 * probabilities) appended to the sentence and the model run again (w), or
 * the last word taken back (W, dir -1).  -1 with a message when the example
 * is no language model, the context is full or one word is left. */
int ui_state_write_word(struct ui_state *st, int dir);
/* The top-p w draws at: a loaded language model's next words read again
 * with their nucleus at top_p (in (0, 1]), or kept for the next one; what:
 * the key or command, for the messages.  -1 with a message when out of
 * range or the words cannot be read. */
int ui_state_set_top_p(struct ui_state *st, double top_p, const char *what);
/* The next top-p down (dir -1) or up (+1) of 0.1, 0.25, 0.5, 0.75, 0.9,
 * 0.95, 1. */
int ui_state_step_top_p(struct ui_state *st, int dir);
/* Which of nw's listed words are in its nucleus (in: nw->n of them): every
 * word but <unk> while top-p is 1. */
void ui_state_nucleus_rows(const struct mha_next_word *nw, bool *in);
/* For the files of this folder: the loaded model run on words at st's
 * temperature and top-p, shown (-1 with the message said after what), and
 * the example's tokens joined with spaces, the last drop left out. */
int ui_state_run_model(struct ui_state *st, const char *words, const char *what);
void ui_state_joined_tokens(const struct ui_state *st, int drop, char *words, size_t n);
/* A loaded model of layers shown at layer (0-based): the same words
 * through it, that layer's attention on screen.  -1 with a message when
 * the model has one layer, is no model or has no such layer. */
int ui_state_show_layer(struct ui_state *st, int layer);
/* The message line says which layer of a model of layers is shown and
 * what its heads read. */
void ui_state_say_layer(struct ui_state *st);
int ui_state_load(struct ui_state *st, const char *path);
/* Take ownership of ex and show it (a lesson's scene).  source: for the
 * status line ("" for a generated example).  On failure ex is freed. */
int ui_state_set_example(struct ui_state *st, struct mha_example *ex, bool generated,
                         const char *source);
/* The example's numbers were changed in place (a model that trains): run
 * it again into the same trace, no allocation, and redraw from that. */
void ui_state_refresh(struct ui_state *st);
/* Remember the file the example came from (made absolute when it can be;
 * NULL: none), for :link. */
void ui_state_set_load_path(struct ui_state *st, const char *path);
/* The stage view of stage (a view beyond the stages is closed). */
int ui_state_set_stage(struct ui_state *st, int stage);
/* Show a view (MHA_VIEW_NONE: back to the stage).  The shapes and cost views
 * use view_batch, view_seq and view_preset; set them first. */
int ui_state_set_view(struct ui_state *st, enum mha_view view);

/* Divisors of n in increasing order (at most max); returns how many. */
int ui_divisors(int n, int *out, int max);
/* The divisors of n as words: "1, 2, 3, 6". */
void ui_divisor_list(int n, char *buf, size_t size);
/* The divisor of n closest to h (the smaller one on a tie). */
int ui_nearest_divisor(int n, int h);

#endif
