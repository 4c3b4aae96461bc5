/* ui_train_circuits.c - w on the training screen: in place of the heatmaps,
 * what each head of the model shown does, read off its weights
 * (train/train_circuits.h): its reading in words (where it looks by
 * position, by content, what it raises, and what it was measured doing),
 * and for the words it can attend to the next word (or class) each raises
 * most, with its z-score over the row.  The same reading as --load MODEL
 * --dump circuits gives. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_circuits.h"
#include "train/trun.h"
#include "ui/train/ui_train_circuits.h"
#include "ui/draw/ui_text.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"

/* Output k's pairs "cat→mat z 4.1" (top: n_top attended words, their z
 * over the attended word's row of ov, (V, C)) on up to
 * lines lines of w columns from (y, x), as many as fit, the first line
 * led by the output's name. */
static void draw_pairs(WINDOW *win, int y, int x, int lines, int w, const struct train_model *m,
                       int k, const struct train_circuit_pair *top, int n_top, const float *ov,
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
            const int C = m->cfg.outputs[k].classes;
            snprintf(pair, sizeof pair, " %s%s%s z %.1f", m->vocab_names[p->from],
                     th->utf8 ? "→" : "->", name,
                     (double)train_circuit_z(ov + (size_t)p->from * (size_t)C, C, p->to));
            if (on_line > 0 && ui_text_width(buf, th->utf8) + ui_text_width(pair, th->utf8) > w)
                break;
            used += (size_t)snprintf(buf + used, sizeof buf - used, "%s", pair);
        }
        ui_put(win, y + l, x, buf, w, 0, th->utf8);
    }
}

void ui_train_draw_circuits(WINDOW *win, int y, int x, int h, int w, const struct train_model *m,
                            const struct train_head_stats *roles, char (*jobs)[TRUN_JOBS_LABEL],
                            char (*measured)[UI_TRAIN_MEASURED], const struct ui_theme *th)
{
    const int V = m->cfg.vocab, T = m->cfg.context, H = m->cfg.heads, K = m->cfg.n_outputs;
    if (h <= 0 || w <= 0)
        return;
    int C = 0;
    for (int k = 0; k < K; k++)
        C = m->cfg.outputs[k].classes > C ? m->cfg.outputs[k].classes : C;
    float *pos = malloc((size_t)T * (size_t)T * sizeof *pos);
    float *qk = malloc((size_t)V * (size_t)V * sizeof *qk);
    float *ov = malloc((size_t)V * (size_t)C * sizeof *ov);
    float *scratch = malloc(train_circuit_scratch(m) * sizeof *scratch);
    const int shape = ui_role_attr(th, UI_ROLE_SHAPE), label = ui_role_attr(th, UI_ROLE_LABEL);
    int line = y;
    if (!pos || !qk || !ov || !scratch) {
        ui_put(win, line, x, "Out of memory for the circuits (w shows the heatmaps again).", w,
               shape, th->utf8);
        goto done;
    }
    ui_put(win, line++, x,
           th->utf8 ? "What each head writes, from its weights: attended word → what it raises "
                      "most, z over the row"
                    : "What each head writes, from its weights: attended word -> what it raises "
                      "most, z over the row",
           w, shape, th->utf8);
    /* each head's reading: what its weights and its measures say, in words */
    /* a reading takes up to READ_MAX lines, as many as let the heads all
     * fit (the last that shows cut with "…") */
    enum { READ_MAX = 8 };
    static char reading[TRAIN_MAX_D_MODEL][1024];
    int need = 1; /* lines the longest reading wraps to, at most READ_MAX */
    for (int hd = 0; hd < H; hd++) {
        struct train_circuit_reading rd;
        reading[hd][0] = '\0';
        if (train_circuit_read(m, hd, qk, pos, ov, scratch, &rd, NULL) == 0)
            train_circuit_reading_text(m, &rd, measured ? measured[hd] : "", reading[hd],
                                       sizeof reading[hd]);
        struct ui_line wl[READ_MAX + 1];
        const int nl = ui_text_wrap(reading[hd], w - 2, th->utf8, wl, READ_MAX + 1);
        need = nl > need ? nl : need;
    }
    need = need > READ_MAX ? READ_MAX : need;
    /* every head whole (its reading whole and two lines an output when there
     * is room; else one line an output, then as many of its reading's lines
     * as fit, at least one), else as many heads as leave a line to count
     * the rest */
    const int room = y + h - line;
    int read_lines = need, out_lines = 2;
    if (H * (1 + read_lines + out_lines * K) > room)
        out_lines = 1;
    if (H * (1 + read_lines + out_lines * K) > room) {
        const int fit = room / H - 1 - out_lines * K;
        read_lines = fit < 1 ? 1 : fit;
    }
    const int per = 1 + read_lines + out_lines * K;
    const int h_shown = H * per <= room ? H : room > per ? (room - 1) / per : 0;
    for (int hd = 0; hd < h_shown; hd++) {
        char title[160], role[64] = "";
        if (jobs && jobs[hd][0]) /* a text's jobs first: what the head is for */
            snprintf(role, sizeof role, "%s", jobs[hd]);
        else if (roles && roles[hd].kind != TRAIN_HEAD_NONE)
            train_head_label(&roles[hd], role, sizeof role);
        const int tw = ui_put(win, line, x, "head ", w, ui_head_attr(th, hd), th->utf8);
        snprintf(title, sizeof title, "%d%s%s", hd, role[0] ? " " : "", role);
        ui_put(win, line++, x + tw, title, w - tw, label, th->utf8);
        struct ui_line wl[READ_MAX + 1];
        const int nl = ui_text_wrap(reading[hd], w - 2, th->utf8, wl, READ_MAX + 1);
        for (int l = 0; l < read_lines && l < nl; l++) {
            char cut[1024];
            if (l == read_lines - 1 && nl > read_lines) /* the last line that fits ends in "…" */
                ui_text_fit(wl[l].start, w - 2, th->utf8, cut, sizeof cut);
            else
                ui_text_fit_n(wl[l].start, wl[l].len, w - 2, th->utf8, cut, sizeof cut);
            ui_put(win, line + l, x + 2, cut, w - 2, ui_role_attr(th, UI_ROLE_INSIGHT), th->utf8);
        }
        line += read_lines;
        for (int k = 0; k < K; k++) {
            struct train_circuit_pair top[TRAIN_CIRCUIT_TOP * TRAIN_CIRCUIT_RAISES];
            const int n = train_circuit_ov(m, hd, k, ov, scratch, NULL) != 0
                              ? 0
                              : train_circuit_top_ov(ov, V, m->cfg.outputs[k].classes,
                                                     TRAIN_CIRCUIT_TOP, TRAIN_CIRCUIT_RAISES, top);
            draw_pairs(win, line, x, out_lines, w, m, k, top, n, ov, th);
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
    free(qk);
    free(ov);
    free(scratch);
}
