/* export.h - the stages of a trace as pictures, pages and tables for slides,
 * handouts, notes, spreadsheets and papers.
 *
 * The command line and :export write through format.h's table of all the
 * formats (mha_format_write), which calls the writers of these:
 *   --dump STAGE --format svg|html|markdown|csv|latex
 *       stage = mha_stage_from_name(STAGE), or DUMP_ALL for "all";
 *       fmt = mha_format_from_name(FORMAT) ("text" and "json" are dump.h's).
 * and --print-lesson N --format html maps onto lesson_print_html (lesson_html.h).
 *
 * What each format writes (every one takes one stage or DUMP_ALL):
 *   svg       one standalone picture (xmlns, width, height, viewBox): a header
 *             with the example's sizes, then per stage its heading, formula and
 *             matrices, each cell coloured and showing its number, token labels
 *             on both axes, titles with shapes, and a colour legend.  DUMP_ALL
 *             is one tall picture with the stages one under the other.
 *   html      one self-contained page (inline CSS; no scripts, links to other
 *             sites, fonts or images), XHTML-compatible markup: the example,
 *             a legend, then each stage with heading, formula, a sentence on
 *             what it does and its matrices as coloured tables.  Prints well.
 *   markdown  per stage a "### Stage N · name" heading and its formula, then per
 *             matrix a bold title line with the shape and a pipe table whose
 *             header row holds the column labels.
 *   csv       per matrix one block: a comment line "# stage: title (rows x
 *             cols)", e.g. "# attention: head 0 · scores = Q·Kᵀ (4 x 4)", a
 *             header row (empty first field, then the column labels), one
 *             record per matrix row (its label, then the numbers), and an
 *             empty line after the block.  Lines end in CRLF; fields are quoted
 *             as RFC 4180 says when they hold a comma, a quote, CR or LF
 *             (quotes doubled); labels are UTF-8 as given, except that a
 *             label starting with =, +, -, @, tab or CR, which a spreadsheet
 *             would run as a formula, is quoted with a leading ' ("'=cmd").
 *   latex     per stage a "% ---- stage N: name ----" comment; per matrix a
 *             comment with its title, then a center environment with a bold
 *             title, the shape and a tabular (l|rrr, with | between heads where
 *             the columns are grouped by head); & % $ # _ { } ~ ^ \ < > in
 *             labels escaped, ·, ᵀ, √, ÷, × written as math, negative numbers
 *             with a math minus ("$-$0.4336").
 * Numbers have 4 decimals as in the text dump (%.4g beyond 1e5).  A masked
 * score (-inf) is written "−∞" (svg, html; the cell hatched grey), "-inf"
 * (markdown, csv) or "$-\infty$" (latex); a masked weight is 0 and hatched.
 *
 * The matrices of each stage, in the order every format writes them:
 *   0 input       query, key, value, W_q, W_k, W_v, W_o (and b_q, b_k, b_v,
 *                 b_o as 1 x d when the example has biases)
 *   1 projection  Q, K, V
 *   2 split       Q, K, V as (L, d) with columns h<i>.<j> grouped by head
 *   3 transpose   for each head h: Q_h, K_h, V_h            (L, d_k)
 *   4 attention   for each head h: scores, scaled (-inf where masked),
 *                 weights, context
 *   5 merge       for each head h: context; then merged (columns by head)
 *   6 output      output
 */
#ifndef MHA_EXPORT_H
#define MHA_EXPORT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#include "io/dump.h"
#include "engine/explain.h"
#include "io/format.h"
#include "engine/mha.h"

/* Pictures and pages with more numbers than this are refused (a 1024-token
 * example would give a picture no one can open); tables have no limit. */
#define EXPORT_MAX_CELLS 100000

/* Write stage (a stage) or DUMP_ALL of t, computed from ex, to out in fmt.
 * Returns 0; or -1 with err filled, writing nothing, for an unknown format or
 * stage or a picture with more than EXPORT_MAX_CELLS numbers; or -1 with err
 * "write error" when out fails part-way.  err may be NULL. */
int export_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage,
                 enum mha_format fmt, struct mha_error *err);

/* ---- shared by the exporters and the lesson page ---------------------------- */

/* How a matrix is coloured. */
enum export_tint {
    EXPORT_TINT_SIGNED, /* diverging scale over -range .. +range */
    EXPORT_TINT_PROB,   /* sequential scale over 0 .. 1 */
};

/* What its row and column labels are. */
enum export_axis {
    EXPORT_AXIS_QUERY, /* ex->tokens */
    EXPORT_AXIS_KEY,   /* ex->key_tokens */
    EXPORT_AXIS_DIM,   /* d0, d1, ... */
    EXPORT_AXIS_HEAD,  /* h0.0, h0.1, ... (head . dimension); head_cols wide groups */
    EXPORT_AXIS_OUT,   /* out 0, out 1, ...: rows of a weight matrix */
    EXPORT_AXIS_IN,    /* in 0, in 1, ...: its columns */
    EXPORT_AXIS_NONE,  /* a single unnamed row (a bias) */
};

/* One matrix of a stage: rows x cols numbers, row-major from data. */
struct export_matrix {
    int stage;
    char title[96]; /* "head 0 · weights = softmax(scaled)"; ·, ᵀ, √, ÷ only */
    char shape[48]; /* "4 × 4", or "4 × 2 × 3" for a split */
    const float *data;
    int rows, cols;
    enum export_axis row_axis, col_axis;
    int head_cols; /* > 0: the columns come in groups of this many, one per head */
    enum export_tint tint;
    float range;            /* largest finite |v| of the whole tensor (every head), for SIGNED */
    const float *masked_by; /* weights: the scaled scores; a cell is masked where -inf */
    bool new_row;           /* start a new row of pictures with this matrix */
    enum mha_tensor tensor; /* the tensor shown, and its head (0 when it has none) */
    int head;
};

/* The matrices of stage (a stage), newly allocated (free() them); *n gets their
 * count.  NULL when out of memory. */
struct export_matrix *export_stage_matrices(const struct mha_example *ex, const struct mha_trace *t,
                                            int stage, int *n);

/* Labels of row i / column j into buf (tokens are returned as they are). */
const char *export_row_label(const struct export_matrix *m, const struct mha_example *ex, int i,
                             char *buf, size_t n);
const char *export_col_label(const struct export_matrix *m, const struct mha_example *ex, int j,
                             char *buf, size_t n);

/* True when cell (i, j) is masked: -inf, or a weight whose score was -inf. */
bool export_cell_masked(const struct export_matrix *m, int i, int j);

/* A number with 4 decimals as the text dump writes it ("0.0000" for tiny
 * values, %.4g from 1e5); -inf is written as inf_text. */
void export_number(char *buf, size_t n, float x, const char *inf_text);

/* Stage texts: title ("Attention"), formula (Unicode math) and one sentence
 * on what the stage does. */
const char *export_stage_title(int stage);
const char *export_stage_formula(int stage);
const char *export_stage_sentence(int stage);

/* "4 tokens · d_model 6 · 2 heads · d_k 3 · mask none · scaled by 1/√3"
 * (and " · layer 1 of 0–1" for a model of layers) */
void export_summary(char *buf, size_t n, const struct mha_example *ex, const struct mha_trace *t);

/* A trained model of layers: "layer 1 of 0–1" (the layer its stages are
 * of, as the status line says it); "" for any other example. */
const char *export_layer_words(char *buf, size_t n, const struct mha_example *ex);

/* Total numbers the stage (or DUMP_ALL) shows. */
size_t export_cell_count(const struct mha_example *ex, const struct mha_trace *t, int stage);

/* Text for XML (svg and html): & < > " ' as entities, invalid UTF-8 bytes
 * and control characters as U+FFFD, everything else as it is (UTF-8). */
void export_xml_text(FILE *out, const char *s);
/* At most max_cols display columns of s, cut with "…" when longer. */
void export_xml_text_fit(FILE *out, const char *s, int max_cols);

/* The writers of the pictures and tables, each declared by its row of
 * format.h's MHA_FORMATS (export_write checks stage and limits first). */

/* ---- HTML pieces, for pages built elsewhere (lessons) ---- */

/* A cell to outline: the tensor, head, row and column a lesson points at. */
struct export_mark {
    bool on;
    enum mha_tensor tensor;
    int head, row, col;
};

/* <!DOCTYPE html>, <html>, <head> with the title and the page's CSS (then
 * extra_css when not NULL: rules only, no '<' or '&'), <body>. */
void export_html_begin(FILE *out, const char *title, const char *extra_css);
/* </body></html> */
void export_html_end(FILE *out);
/* The legend: both scales with their ends, and the masked pattern. */
void export_html_legend(FILE *out);
/* The matrices of stage as coloured tables (a <div class="mats">), the
 * marked cell outlined when mark is non-NULL and on. */
void export_html_matrices(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                          int stage, const struct export_mark *mark);

#endif
