/* view_desc.h - a view described once: what the shapes, cost, heads and
 * circuits views show, as titled rows of text cells, matrices of numbers,
 * notes and the words of the text pane, made from engine data.  The screen
 * (src/ui/views), its exports, --print-lesson's text and the lesson HTML
 * all render this one description.
 *
 * Adding a view: its row in MHA_VIEWS (engine/views.h), and one file
 * view_<name>.c (with its line in meson.build) holding its make function
 * and its struct view_kind view_<name>_kind: its name, its make function,
 * its message and extension. */
#ifndef MHA_VIEW_DESC_H
#define MHA_VIEW_DESC_H

#include <stdbool.h>
#include <stdio.h>

#include "engine/mha.h"
#include "engine/views.h"

struct train_model;
struct train_layer_measures;

#define VIEW_TABLE_MAX_COLS 6
#define VIEW_MATRIX_MAX 32
#define VIEW_TITLED_HEADS 16 /* heads given a measured title at most */
#define VIEW_HEAD_TITLE 48   /* bytes of one: "prev .97", "agree+content" */

/* A matrix of numbers shown as a heatmap: signed values on the diverging
 * scale over -range .. range. */
struct view_matrix {
    char title[128];  /* in files */
    char short_t[64]; /* on screen, where a block is narrow */
    int rows, cols;
    float *data;       /* rows x cols, owned */
    char **row_labels; /* rows strings, owned */
    char **col_labels; /* cols strings, owned */
    float range;
    bool cosine; /* cosines, on the scale -1 .. 1 */
    /* weights of a softmax, on the sequential scale 0 .. 1 (an attention
     * map), where masked cells (rows x cols, owned; NULL: none) got 0 */
    bool prob;
    unsigned char *masked;
};

/* A table of text: row 0 is the header. */
struct view_table {
    int rows, cols;
    char **cells;                    /* rows * cols strings, owned */
    bool right[VIEW_TABLE_MAX_COLS]; /* right-aligned columns (numbers) */
    int bar_col;                     /* a column drawn as a bar in head colours, or -1 */
};

/* What a view is made from: the example and the sizes a lesson or the
 * screen asked for. */
struct view_inputs {
    const struct mha_example *ex;
    const struct mha_example *baseline; /* a model in training: its step 0, or NULL */
    const char *trained;                /* what it was trained on ("" or NULL: not trained) */
    long long batch;                    /* shapes: the batch (0: 2) */
    long long seq;                      /* shapes and cost: sequence length (0: the tokens) */
    const char *preset;                 /* cost: a published model's id (NULL or "": none) */
    /* circuits: the trained model ex shows (a run in training), else the
     * model file ex was loaded from (read again); NULL / "": none */
    const struct train_model *model;
    const char *model_path;
    /* circuits: what each head of a model in training was measured to do on
     * held-out sequences, as the training screen titles it ("prev .97",
     * "agree"; "" for none); titled_heads 0: nothing measured */
    const char (*head_titles)[VIEW_HEAD_TITLE];
    int titled_heads;
    /* composition: a model of layers in training, every layer's heads
     * measured and knocked out at its last evaluation; NULL: none */
    const struct train_layer_measures *layer_measures;
    /* patching: the clean sentence's words (NULL or "": the example's
     * tokens) and the corrupted one's (NULL or "": none given) */
    const char *clean;
    const char *corrupt;
};

struct view_desc {
    enum mha_view mode;
    char name[32];    /* "Shapes", "Cost", "Heads" */
    char line[256];   /* the sizes it was made for */
    char error[1100]; /* why there is nothing to show ("" when there is) */

    /* the text pane: heading, formula (lines apart by '\n') and words */
    char heading[96];
    char formula[256];
    char text[800];

    /* matrices of numbers above the table (heads: the cosines of their
     * forms; circuits: each head's QK and OV circuits); none when
     * n_matrices is 0 */
    struct view_matrix *matrices;
    int n_matrices;
    /* the matrices are small maps in a grid, as many as the screen has
     * room for at a time (the rest a page on); no table */
    bool paged;
    int heads, d_k;
    double *rank; /* heads: each head's effective rank */

    /* the table and the paragraph under it */
    char table_title[96];
    struct view_table table;
    char note[3072]; /* circuits: each head's reading, then the key */
};

/* A view: how it is made, what the message line says when it comes up (a
 * %d gets the heads), the extension of its export, and whether its sizes
 * are its own (a batch, a sequence length, a published model) rather than
 * the example's. */
struct view_kind {
    enum mha_view id;
    const char *name; /* "shapes": what :view, a lesson's view: and the files say */
    /* fill d for in; false only when out of memory (a view that cannot be
     * made says why in d->error) */
    bool (*make)(struct view_desc *d, const struct view_inputs *in);
    const char *cycle_msg;
    const char *extension;
    /* what the man page's VIEWS says of it (scripts/gen-docs writes it
     * there): sentences of plain UTF-8, **bold** where a name is bold */
    const char *man;
    bool own_sizes;
    /* it runs a model on a corrupted sentence (view_inputs' corrupt), the
     * view :corrupt and --corrupt open */
    bool corrupt;
};

/* Each view's row, defined in its own file view_<name>.c. */
#define VIEW_KIND_DECLARE(id, name) extern const struct view_kind view_##name##_kind;
MHA_VIEWS(VIEW_KIND_DECLARE)
#undef VIEW_KIND_DECLARE

/* The row of view v; NULL for MHA_VIEW_NONE (the stage) or no view. */
const struct view_kind *view_kind(enum mha_view v);

/* The view that runs a model on a corrupted sentence (its row's corrupt);
 * MHA_VIEW_NONE when none does. */
enum mha_view view_of_corrupt(void);

/* "none", "shapes", "cost", "heads", "circuits"; "none" for anything else. */
const char *mha_view_name(enum mha_view v);
/* The view of that name ("none" and "stage" give MHA_VIEW_NONE); -1 if
 * unknown. */
int mha_view_from_name(const char *name);
/* "shapes, cost, heads, circuits": the views' names (not "none") joined by ", ",
 * last_sep before the last one (" or ", " and ", ", ").  Returns buf. */
const char *mha_view_names(char *buf, size_t n, const char *last_sep);

/* View v made for in: a new description (free with view_desc_free), NULL
 * only when out of memory or v is not a view. */
struct view_desc *view_desc_new(enum mha_view v, const struct view_inputs *in);
void view_desc_free(struct view_desc *d);

/* The trained model a view of a model reads when the inputs hold none of
 * their own (in->model NULL): the model file the example came from,
 * loaded, for the caller to free (train_model_free), with vd's sizes line
 * saying which.  NULL when the example came from no model file (vd->error
 * then says `none`, and vd->text `what` unless NULL) or the file cannot be
 * read (vd->error says why). */
struct train_model *view_model_file(struct view_desc *vd, const struct view_inputs *in,
                                    const char *none, const char *what);

/* The sequence lengths a view uses: in->seq, else the example's queries
 * (keys: its keys). */
long long view_seq_len(const struct view_inputs *in, bool keys);

/* A new matrix of d (at most VIEW_MATRIX_MAX), rows x cols of zeros with
 * empty labels and its titles; NULL when out of memory or full. */
struct view_matrix *view_matrix_add(struct view_desc *d, int rows, int cols, const char *title,
                                    const char *short_t);

/* Label i of x's rows (or columns) set to a copy of text; false when out
 * of memory. */
bool view_matrix_label(struct view_matrix *x, bool row, int i, const char *text);

/* A table of rows x cols empty cells; a row's texts copied in. */
bool view_table_alloc(struct view_table *t, int rows, int cols);
bool view_table_set_row(struct view_table *t, int r, const char *const *texts);

/* The description as text: "<Name> view: <line>", then the error, or the
 * matrix, the table with a rule under its header, and the note. */
void view_desc_write_text(FILE *out, const struct view_desc *d);

/* The same as HTML for a lesson page: a paragraph with the sizes, the
 * matrix and the table as <table class="lt">, the note (nothing here is
 * trusted: every text is escaped). */
void view_desc_write_html(FILE *out, const struct view_desc *d);

#endif
