/* stages.h - the stage table: what each stage is called, its
 * formula and sentence, the legend its numbers need, the text pane's words,
 * and the tensors it shows in order, each with the form it takes there, its
 * titles and where it is shown.  One row per stage; the screen's blocks, the
 * pipeline bar, the text pane, the presenter, the exports, both dumps and a
 * lesson's focus read it, so a stage is described once: a builder walks the
 * row's tensors (mha_stage_walk) and draws each by its form and its kind
 * (struct mha_tensor_desc), with no case per stage.  Pure data (no I/O). */
#ifndef MHA_STAGES_H
#define MHA_STAGES_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/explain.h"
#include "engine/mha.h"

/* Which colour scales a stage's numbers need explained. */
enum mha_legend {
    MHA_LEGEND_SIGNED,     /* signed numbers, each matrix its own max */
    MHA_LEGEND_HEADS,      /* columns in their head's colour */
    MHA_LEGEND_SIGNED_PROB /* signed scores and 0..1 weights */
};

#define MHA_STAGE_MAX_TENSORS 8

/* ---- the tensors: what kind of numbers each holds ---- */

/* How a tensor is laid out, which decides how every builder labels and
 * colours it. */
enum mha_tensor_kind {
    MHA_KIND_SEQUENCE, /* (L, d): a row per token */
    MHA_KIND_WEIGHT,   /* (d, d), stored [out][in] as nn.Linear keeps it */
    MHA_KIND_PER_HEAD, /* (H, L, d_k): a matrix per head */
    MHA_KIND_SCORES,   /* (H, Lq, Lk): a query row against every key, any real */
    MHA_KIND_PROBS     /* (H, Lq, Lk): weights in 0..1 that sum to 1 along a row */
};

/* Whose tokens label a tensor's rows (or, for scores, its columns). */
enum mha_side { MHA_SIDE_NONE, MHA_SIDE_QUERY, MHA_SIDE_KEY };

struct mha_tensor_desc {
    const char *name;  /* "Q_h": as the screen and the explanations write it */
    const char *focus; /* "q": as --focus and a lesson's focus name it (NULL: a per-head
                          tensor, named by the (L, d) tensor it splits into) */
    enum mha_tensor_kind kind;
    enum mha_side rows;      /* the tokens of the rows (NONE: numbered, out i for weights) */
    enum mha_side cols;      /* the tokens of the columns (NONE: dimensions d0.., in j) */
    const char *json_key;    /* "q": its key in the JSON dump's stage object */
    enum mha_tensor from;    /* a product x·Wᵀ (+ b): x, else MHA_TENSOR_COUNT */
    enum mha_tensor weight;  /* ... and W */
    enum mha_tensor heads;   /* an (L, d) tensor whose columns split into this per-head one */
    enum mha_tensor mask_of; /* probabilities: the scores whose -inf mark masked cells */
};

/* The description of tensor x (x must be a tensor). */
const struct mha_tensor_desc *mha_tensor_desc(enum mha_tensor x);

/* ---- how a stage shows a tensor ---- */

/* The form a tensor takes in a stage; each builder renders every form. */
enum mha_form {
    MHA_FORM_WHOLE,     /* as stored */
    MHA_FORM_PRODUCT,   /* a product: the screen shows x · Wᵀ = result where it fits */
    MHA_FORM_SPLIT,     /* an (L, d) tensor read as (L, H, d_k): columns h<i>.<j> */
    MHA_FORM_HEAD_COLS, /* an (L, d) tensor whose columns are the heads side by side */
    MHA_FORM_HEADS      /* a per-head tensor as one matrix per head */
};

/* Where a tensor of a stage appears, and how it sits. */
enum {
    MHA_SHOW_SCREEN = 1u << 0,     /* the explorer's blocks */
    MHA_SHOW_EXPORT = 1u << 1,     /* svg, html, markdown, csv, latex */
    MHA_SHOW_DUMP = 1u << 2,       /* the text and JSON dumps */
    MHA_SHOW_EVERYWHERE = 7u,      /* all three */
    MHA_SHOW_NEW_ROW = 1u << 3,    /* starts a new row of the screen and the pictures */
    MHA_SHOW_FACTORS = 1u << 4,    /* PRODUCT: a narrow screen still shows x and Wᵀ */
    MHA_SHOW_HEAD_LABELS = 1u << 5 /* the screen labels its columns h<head>.<j> */
};

/* Titles are templates: {h} the head, {L} the tensor's rows, {Lq}, {Lk},
 * {d}, {H}, {d_k}, {d_k-1}, {mask} ("causal", "none", ..) and choices
 * {scaled?A|B}, {causal?A|B}, {heads>N?A|B}, {heads==N?A|B}, {wide?A|B}
 * (wide: the screen has room for whole products); "|B" may be left out.
 * A PRODUCT's screen titles come from the tensors' names ("Q = query · W_qᵀ"). */
struct mha_stage_show {
    enum mha_form form;
    unsigned flags;           /* MHA_SHOW_* */
    const char *screen;       /* the block's title on the screen */
    const char *export_title; /* the exports' title */
    const char *dump;         /* the text dump's title */
};

/* How the per-head matrices of a stage are ordered: each tensor's heads in
 * a row (Q head 0, Q head 1, then K ...), or each head's tensors in a row
 * (head 0: scores, scaled ..., then head 1). */
enum mha_order { MHA_ORDER_BY_TENSOR, MHA_ORDER_BY_HEAD };

/* Values a title template reads. */
struct mha_title_ctx {
    int head, rows, lq, lk, d_model, heads, d_k;
    bool scaled, causal, wide;
    const char *mask; /* "causal", "causal + explicit", "explicit", "none" */
};

/* Expand template tmpl into buf (n bytes, always terminated).  Returns buf. */
char *mha_title_expand(char *buf, size_t n, const char *tmpl, const struct mha_title_ctx *c);

/* A context for trace t of example ex with head h, rows and wide set. */
struct mha_title_ctx mha_title_ctx_make(const struct mha_example *ex, const struct mha_trace *t,
                                        int head, int rows, bool wide);

struct mha_stage_info {
    const char *name;         /* "split": options, commands, scene keys, JSON keys */
    const char *title;        /* "Split": the screen's heading and the pipeline bar */
    const char *short_title;  /* "Split": the bar when it is short of room */
    const char *subtitle;     /* "a slice per head": the text pane and the presenter */
    const char *heading;      /* "Split into heads": the exports' headings */
    const char *formula;      /* the exports' formula, with symbols for the sizes */
    const char *sentence;     /* the exports' one-sentence explanation */
    const char *dump_heading; /* the text dump's "== 2 split: ... ==" line */
    enum mha_legend legend;
    int n_tensors;
    enum mha_tensor tensors[MHA_STAGE_MAX_TENSORS];    /* what the stage computes or takes in,
                                                          in the order the exports show it */
    struct mha_stage_show show[MHA_STAGE_MAX_TENSORS]; /* how tensors[i] is shown */
    enum mha_order screen_order, export_order; /* the per-head matrices (dumps: export_order) */
    bool with_params;         /* the example's biases (and, in JSON, its mask) follow */
    bool next_word;           /* a language model's next word follows (ex->has_next_word) */
    const char *shape_line;   /* the screen's line of shapes (a template) */
    const char *dump_note;    /* the text dump's paragraph before the matrices, or NULL */
    enum mha_tensor focus;    /* what a lesson's focus on the stage means when it names none */
    const char *pane_formula; /* the screen's text pane: the formula with the sizes (a template,
                                 lines apart by '\n') */
    const char *pane_text;    /* ... and what the stage does and why (a template) */
};

/* Called for every matrix of a stage a builder shows: the stage's i-th
 * tensor, head h (0 for a tensor shown whole), and whether it starts a row. */
typedef void (*mha_stage_fn)(void *arg, int i, int h, bool new_row);

/* Walk the tensors of info that have flag where (MHA_SHOW_SCREEN, ..) in
 * order: by tensor, a per-head tensor's heads (0 .. heads-1) follow each
 * other and start a row; by head, the whole tensors before the per-head
 * ones come first, then each head's matrices (starting a row), then the
 * rest.  A whole tensor starts a row when its flags say so. */
void mha_stage_walk(const struct mha_stage_info *info, enum mha_order order, int heads,
                    unsigned where, mha_stage_fn fn, void *arg);

/* The entry of info showing tensor x where (MHA_SHOW_SCREEN, ..): x itself,
 * or the per-head tensor x splits into (Q shown as Q_h).  Its index, or -1
 * when the stage does not show x there. */
int mha_stage_find(const struct mha_stage_info *info, enum mha_tensor x, unsigned where);

/* The row of stage s (s must be a stage: 0 <= s < MHA_STAGE_COUNT). */
const struct mha_stage_info *mha_stage_info(enum mha_stage s);

/* "0-6": the stage numbers as a range, for messages and key hints.
 * Returns buf. */
const char *mha_stage_range(char *buf, size_t n);

/* "input, projection, split, transpose, attention, merge, output": the
 * names joined by ", " (last_sep before the last one, e.g. " or ").
 * Returns buf. */
const char *mha_stage_names(char *buf, size_t n, const char *last_sep);

#endif
