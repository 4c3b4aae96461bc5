/* view_heads.c - the heads view: how alike the heads' score forms are
 * (a heatmap of cosines) and how many directions each really uses (its
 * effective rank); for a model in training, each head against step 0. */
#include "io/view_desc.h"

#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/views.h"
#include "engine/views_drift.h"

/* A model in training: each head's effective rank at step 0 and now, and
 * how alike its score form is to the one it started with. */
static bool heads_since_start(struct view_desc *vd, const struct view_inputs *in,
                              const struct mha_example *start)
{
    const int H = vd->heads, dk = vd->d_k;
    struct mha_error err;
    mha_error_clear(&err);
    struct views_heads_result *r0 = views_heads_new(start, &err);
    double cos[64];
    if (!r0 || H > 64 || views_heads_drift(in->ex, start, cos) != 0) {
        views_heads_free(r0);
        snprintf(vd->error, sizeof vd->error, "%s", r0 ? "too many heads to compare" : err.text);
        return true;
    }
    snprintf(vd->line, sizeof vd->line, "d_model %d, %d heads of d_k %d: %s against step 0",
             in->ex->d_model, H, dk, in->trained);
    snprintf(vd->table_title, sizeof vd->table_title, "Each head at step 0 and now");
    bool ok = view_table_alloc(&vd->table, H + 1, 5);
    if (!ok) {
        views_heads_free(r0);
        return false;
    }
    vd->table.right[1] = vd->table.right[2] = vd->table.right[4] = true;
    vd->table.bar_col = 3;
    char of[48];
    snprintf(of, sizeof of, "now, of d_k = %d", dk);
    const char *head[] = {"head", "rank at step 0", "rank now", of, "form like step 0"};
    ok = view_table_set_row(&vd->table, 0, head);
    double least = 1.0;
    for (int i = 0; i < H; i++) {
        char r0s[32], rs[32], frac[32], cs[32];
        snprintf(r0s, sizeof r0s, "%.2f", r0->rank[i]);
        snprintf(rs, sizeof rs, "%.2f", vd->rank[i]);
        snprintf(frac, sizeof frac, "%.4f", dk > 0 ? vd->rank[i] / dk : 0.0);
        snprintf(cs, sizeof cs, "%.2f", cos[i]);
        least = cos[i] < least ? cos[i] : least;
        const char *row[] = {vd->matrices[0].row_labels[i], r0s, rs, frac, cs};
        ok = view_table_set_row(&vd->table, i + 1, row) && ok;
    }
    snprintf(vd->note, sizeof vd->note,
             "Measured on the learned weights: the heatmap compares the heads' score forms "
             "now; the table gives each head's effective rank at step 0 and now, and the "
             "cosine between its form now and at step 0 (1: unchanged, near 0: it looks for "
             "something else). The least alike here is %.2f.",
             least);
    views_heads_free(r0);
    return ok;
}

static bool view_heads_make(struct view_desc *vd, const struct view_inputs *in)
{
    const struct mha_example *ex = in->ex;
    const int H = ex->heads, dk = ex->d_model / ex->heads;
    snprintf(vd->name, sizeof vd->name, "Heads");
    snprintf(vd->heading, sizeof vd->heading, "Heads: do they differ?");
    snprintf(vd->formula, sizeof vd->formula, "A_i = W_q,iᵀ · W_k,i   (d × d, rank ≤ d_k = %d)",
             dk);
    snprintf(vd->text, sizeof vd->text,
             "Each head scores token pairs with its own form A_i. The heatmap compares "
             "every two heads: the cosine of their forms, 1 when they rank token pairs "
             "alike, near 0 when they look for different things. The effective rank (the "
             "entropy of A_i's singular values) says how many of its d_k directions a head "
             "really uses. %s",
             in->baseline ? "These weights were learned: the table sets each head beside "
                            "itself at step 0, and shows how far training moved it."
                          : "These weights were not trained, so any difference between "
                            "the heads is chance; a model trained with --train (or lesson "
                            "16) shows heads that learned different jobs.");
    snprintf(vd->line, sizeof vd->line, "d_model %d, %d heads of d_k %d, the current weights",
             ex->d_model, H, dk);
    struct mha_error err;
    mha_error_clear(&err);
    struct views_heads_result *r = views_heads_new(ex, &err);
    if (!r && ex->d_model > VIEWS_HEADS_MAX_D) { /* the engine says why */
        snprintf(vd->error, sizeof vd->error,
                 "%s (the work grows as d_model³). Try :d_model %d or less.", err.text,
                 VIEWS_HEADS_MAX_D);
        vd->error[0] = (char)toupper((unsigned char)vd->error[0]);
        return true;
    }
    vd->heads = H;
    vd->d_k = dk;
    vd->rank = malloc((size_t)H * sizeof *vd->rank);
    struct view_matrix *x = view_matrix_add(
        vd, H, H, "similarity of the heads' score forms (cosine)", "similarity of the heads");
    bool ok = vd->rank && x;
    if (x)
        x->cosine = true;
    if (!r)
        snprintf(vd->error, sizeof vd->error, "%s", err.text);
    for (int i = 0; ok && r && i < H * H; i++)
        x->data[i] = (float)r->similarity[i];
    for (int i = 0; ok && r && i < H; i++)
        vd->rank[i] = r->rank[i];
    for (int i = 0; ok && i < H; i++) {
        char text[32];
        snprintf(text, sizeof text, "head %d", i);
        ok = view_matrix_label(x, true, i, text);
        snprintf(text, sizeof text, "h%d", i);
        ok = ok && view_matrix_label(x, false, i, text);
    }
    views_heads_free(r);
    if (!ok || vd->error[0])
        return ok;
    const struct mha_example *b = in->baseline;
    if (b && b->d_model == ex->d_model && b->heads == H)
        return heads_since_start(vd, in, b);
    snprintf(vd->table_title, sizeof vd->table_title, "Effective rank of each head");
    if (!view_table_alloc(&vd->table, H + 1, 3))
        return false;
    vd->table.right[1] = true;
    vd->table.bar_col = 2;
    char of[48];
    snprintf(of, sizeof of, "1 … d_k = %d", dk);
    const char *head[] = {"head", "rank", of};
    ok = view_table_set_row(&vd->table, 0, head);
    for (int i = 0; i < H; i++) {
        char r[32];
        snprintf(r, sizeof r, "%.2f", vd->rank[i]);
        /* the bar column holds the fraction of d_k, drawn by the table widget */
        char frac[32];
        snprintf(frac, sizeof frac, "%.4f", dk > 0 ? vd->rank[i] / dk : 0.0);
        const char *row[] = {vd->matrices[0].row_labels[i], r, frac};
        ok = view_table_set_row(&vd->table, i + 1, row) && ok;
    }
    return ok; /* the text pane says what the numbers mean */
}

/* The view's row (engine/views.h's MHA_VIEWS names it): v, :view, a
 * lesson's view: and --view read it. */
const struct view_kind view_heads_kind = {
    .id = MHA_VIEW_HEADS,
    .name = "heads",
    .make = view_heads_make,
    .cycle_msg = "Heads view: how the heads' score forms differ, and the effective rank "
                 "of each.",
    .extension = "txt",
    .man = "How the heads of the current weights differ: a heatmap of the cosine similarity of "
           "each two heads' score forms W_q,i^T·W_k,i, and each head's effective rank (the entropy "
           "of the form's singular values, from 1 to d_k) as a number and a bar. Above a d_model "
           "of 512 the view says why it is not computed. On a model that is training (the stage "
           "keys of the training screen) the table gives each head's effective rank at step 0 and "
           "now, and the cosine of its form now with its form at step 0.",
    .own_sizes = false,
};
