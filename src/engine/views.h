/* views.h - the numbers behind the views beyond the stages: the shapes
 * a tensor takes through view/transpose/contiguous/merge, the cost of the
 * block (parameters, multiply-adds), and how the heads of a weight set
 * differ (similarity of W_qᵢᵀW_kᵢ, effective rank).  Pure computation. */
#ifndef MHA_VIEWS_H
#define MHA_VIEWS_H

#include <stdbool.h>
#include <stddef.h>

#include "engine/mha.h"

/* ---- which view ---- */

/* The views beyond the stages, in the order v goes through them: one row
 * each, X(ID, name), giving its value MHA_VIEW_ID of enum mha_view and
 * naming its row view_<name>_kind, which its own file io/view_<name>.c
 * defines (its name, how it is made, its words; io/view_desc.h).  Adding a
 * view is a row here, that file and its line in io/meson.build. */
#define MHA_VIEWS(X)                                                                               \
    X(SHAPES, shapes)                                                                              \
    X(COST, cost)                                                                                  \
    X(HEADS, heads)                                                                                \
    X(CIRCUITS, circuits)                                                                          \
    X(COMPOSITION, composition)                                                                    \
    X(MODEL, model)                                                                                \
    X(PATCHING, patching)

/* One enum for the screen and the lessons.  MHA_VIEW_NONE is the stage
 * itself. */
#define MHA_VIEW_VALUE(id, name) MHA_VIEW_##id,
enum mha_view { MHA_VIEW_NONE, MHA_VIEWS(MHA_VIEW_VALUE) MHA_VIEW_COUNT };
#undef MHA_VIEW_VALUE

/* ---- shapes ---- */

#define VIEWS_SHAPE_ROWS 10

struct views_shape_row {
    const char *step;  /* "input", "after W_q", ... */
    const char *code;  /* the PyTorch expression that produces it */
    long long dims[4]; /* the shape; unused dims are 0 */
    int n_dims;
    const char *note; /* what changed in memory, or "" */
};

/* Fill rows (VIEWS_SHAPE_ROWS of them) for batch, seq, d_model, heads.
 * heads must divide d_model. Returns the number of rows. */
int views_shapes(long long batch, long long seq, long long d_model, long long heads,
                 struct views_shape_row *rows);

/* "(2, 10, 512)" into buf. Returns buf. */
char *views_shape_string(const struct views_shape_row *row, char *buf, size_t n);

/* ---- cost ---- */

struct views_cost {
    long long d_model, heads, d_k, seq_q, seq_k;
    bool bias;
    long long params_weights; /* 4·d_model² */
    long long params_bias;    /* 4·d_model when bias */
    /* multiply-adds per stage for one sequence */
    long long macs_projection; /* (seq_q + 2·seq_k)·d_model² */
    long long macs_scores;     /* heads·seq_q·seq_k·d_k = seq_q·seq_k·d_model */
    long long exps_softmax;    /* heads·seq_q·seq_k exponentials */
    long long macs_context;    /* heads·seq_q·seq_k·d_k */
    long long macs_output;     /* seq_q·d_model² */
    long long macs_total;
    long long attn_floats; /* heads·seq_q·seq_k attention weights kept */
};

void views_cost(long long seq_q, long long seq_k, long long d_model, long long heads, bool bias,
                struct views_cost *out);

/* The cost table's rows as data: what is counted, one head's count and
 * the heads' count.  The screen, the text dump and the lesson HTML render
 * these rows; the biases' row only when the block has biases. */
#define VIEWS_COST_ROWS 9

struct views_cost_row {
    const char *what;
    long long one, many;
};

/* Fill rows (VIEWS_COST_ROWS of them) from one head's cost and the heads'.
 * Returns the number of rows. */
int views_cost_rows(const struct views_cost *one, const struct views_cost *many,
                    struct views_cost_row *rows);

/* 1234567 -> "1,234,567" into buf (size n), as the cost tables show counts.
 * Returns buf. */
char *views_group_digits(long long v, char *buf, size_t n);

struct views_preset {
    const char *id;   /* "bert-base" */
    const char *name; /* "BERT base" */
    long long d_model, heads, d_k;
    const char *note;
};

/* The published configurations; *n gets their count. */
const struct views_preset *views_presets(int *n);
/* A preset by id, NULL if unknown. */
const struct views_preset *views_preset_find(const char *id);

/* ---- heads ---- */

/* Per-head analysis of the current weights.  A_i = W_q,iᵀ·W_k,i (d × d), the
 * bilinear form head i scores tokens with, where W_q,i are the d_k rows of
 * W_q that belong to head i.  similarity[i·H + j] is the cosine (Frobenius)
 * of A_i and A_j; rank[i] = exp(entropy of A_i's normalised singular values),
 * between 1 and d_k; sv holds each head's d_k singular values, largest first
 * (H·d_k floats).  Returns 0, or -1 + err when d_model is above VIEWS_HEADS_MAX_D
 * (the work grows as d_model³) or memory runs out. */
#define VIEWS_HEADS_MAX_D 512
int views_heads(const struct mha_example *ex, double *similarity, double *rank, double *sv,
                struct mha_error *err);

/* The same analysis in one allocation: similarity (H·H), rank (H) and sv
 * (H·d_k) point into it.  NULL + err as views_heads.  Free with
 * views_heads_free. */
struct views_heads_result {
    int heads, d_k;
    double *similarity, *rank, *sv;
};
struct views_heads_result *views_heads_new(const struct mha_example *ex, struct mha_error *err);
void views_heads_free(struct views_heads_result *r);

#endif
