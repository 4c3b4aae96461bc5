/* ui_train_circuits.c - w on the training screen: in place of the heatmaps,
 * what each head of the model shown writes, read off its weights
 * (engine/train_circuits.h): where it looks by position, and for the words
 * it can attend to the next word (or class) each raises most.  The same
 * numbers as --load MODEL --dump circuits. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/train_circuits.h"
#include "train/trun.h"
#include "ui/draw/ui_train_circuits.h"
#include "ui/draw/ui_text.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"

/* "by position: 1 back (12 of 15)", "" (one position). */
static void position_text(const float *pos, const struct train_model *m, char *buf, size_t n)
{
    struct train_circuit_place pl;
    char where[64];
    train_circuit_offset(pos, m->cfg.context, m->cfg.causal, &pl);
    train_circuit_place_text(&pl, where, sizeof where);
    snprintf(buf, n, "%s%s", where[0] ? "by position: " : "", where);
}

/* Output k's pairs "cat→mat +7.8" (top: n_top attended words) on up to
 * lines lines of w columns from (y, x), as many as fit, the first line
 * led by the output's name. */
static void draw_pairs(WINDOW *win, int y, int x, int lines, int w, const struct train_model *m,
                       int k, const struct train_circuit_pair *top, int n_top,
                       const struct ui_theme *th)
{
    int i = 0;
    for (int l = 0; l < lines && i < n_top; l++) {
        char buf[1024];
        const char *name = m->cfg.outputs[k].name;
        size_t used = l ? (size_t)snprintf(buf, sizeof buf, "  %*s", (int)strlen(name) + 1, "")
                        : (size_t)snprintf(buf, sizeof buf, "  %s:", name);
        for (int on_line = 0; i < n_top && used < sizeof buf; i++, on_line++) {
            const struct train_circuit_pair *p = &top[(size_t)i * TRAIN_CIRCUIT_RAISES];
            char name[TRAIN_LABEL_MAX], pair[3 * TRAIN_LABEL_MAX];
            train_circuit_class_name(m, k, p->to, name, sizeof name);
            snprintf(pair, sizeof pair, " %s%s%s %+.1f", m->vocab_names[p->from],
                     th->utf8 ? "→" : "->", name, (double)p->value);
            if (on_line > 0 && ui_text_width(buf, th->utf8) + ui_text_width(pair, th->utf8) > w)
                break;
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s", pair);
        }
        ui_put(win, y + l, x, buf, w, 0, th->utf8);
    }
}

void ui_train_draw_circuits(WINDOW *win, int y, int x, int h, int w, const struct train_model *m,
                            const struct train_head_stats *roles, char (*jobs)[TRUN_JOBS_LABEL],
                            const struct ui_theme *th)
{
    const int V = m->cfg.vocab, T = m->cfg.context, H = m->cfg.heads, K = m->cfg.n_outputs;
    if (h <= 0 || w <= 0)
        return;
    int C = 0;
    for (int k = 0; k < K; k++)
        C = m->cfg.outputs[k].classes > C ? m->cfg.outputs[k].classes : C;
    float *pos = malloc((size_t)T * (size_t)T * sizeof *pos);
    float *ov = malloc((size_t)V * (size_t)C * sizeof *ov);
    float *scratch = malloc(train_circuit_scratch(m) * sizeof *scratch);
    const int shape = ui_role_attr(th, UI_ROLE_SHAPE), label = ui_role_attr(th, UI_ROLE_LABEL);
    int line = y;
    if (!pos || !ov || !scratch) {
        ui_put(win, line, x, "Out of memory for the circuits (w shows the heatmaps again).", w,
               shape, th->utf8);
        goto done;
    }
    ui_put(win, line++, x,
           th->utf8
               ? "What each head writes, from its weights: attended word → what it raises most"
               : "What each head writes, from its weights: attended word -> what it raises most",
           w, shape, th->utf8);
    /* every head whole (two lines an output when there is room), else as
     * many as leave a line to count the rest */
    const int room = y + h - line;
    const int out_lines = H * (1 + 2 * K) <= room ? 2 : 1, per = 1 + out_lines * K;
    const int h_shown = H * per <= room ? H : room > per ? (room - 1) / per : 0;
    for (int hd = 0; hd < h_shown; hd++) {
        char title[160], where[80] = "", role[64] = "";
        if (train_circuit_qk_pos(m, hd, pos, scratch, NULL) == 0)
            position_text(pos, m, where, sizeof where);
        if (jobs && jobs[hd][0]) /* a text's jobs first: what the head is for */
            snprintf(role, sizeof role, "%s", jobs[hd]);
        else if (roles && roles[hd].kind != TRAIN_HEAD_NONE)
            train_head_label(&roles[hd], role, sizeof role);
        const int tw = ui_put(win, line, x, "head ", w, ui_head_attr(th, hd), th->utf8);
        snprintf(title, sizeof title, "%d%s%s  %s", hd, role[0] ? " " : "", role, where);
        ui_put(win, line++, x + tw, title, w - tw, label, th->utf8);
        for (int k = 0; k < K; k++) {
            struct train_circuit_pair top[TRAIN_CIRCUIT_TOP * TRAIN_CIRCUIT_RAISES];
            const int n = train_circuit_ov(m, hd, k, ov, scratch, NULL) != 0
                              ? 0
                              : train_circuit_top_ov(ov, V, m->cfg.outputs[k].classes,
                                                     TRAIN_CIRCUIT_TOP, TRAIN_CIRCUIT_RAISES, top);
            draw_pairs(win, line, x, out_lines, w, m, k, top, n, th);
            line += out_lines;
        }
    }
    if (h_shown < H && room > 0) {
        char more[96];
        snprintf(more, sizeof more, "+%d head%s not shown (a larger terminal shows them)",
                 H - h_shown, H - h_shown == 1 ? "" : "s");
        ui_put(win, y + h - 1, x, more, w, shape, th->utf8);
    }
done:
    wattrset(win, 0);
    free(pos);
    free(ov);
    free(scratch);
}
