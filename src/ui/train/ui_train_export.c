/* ui_train_export.c - the training state as a picture for slides and
 * handouts (e, :export svg|html on the training screen): the task in
 * words, and for each run its loss curve, each output's held-out accuracy
 * over the steps, and one heatmap per head on the sample sequence, at the
 * step the screen shows.  SVG, or the same SVG in an HTML page.  No curses. */
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "io/colorscale.h"
#include "io/export.h"
#include "ui/modes/ui_parts.h"
#include "ui/train/ui_train.h"
#include "ui/views/ui_export.h"
#include "train/trun.h"

#define PANE_W 440.0
#define PLOT_W 360.0
#define PLOT_X 56.0
#define LOSS_H 120.0
#define ACC_H 80.0
#define CELL 16.0
#define MARGIN 24.0

static const char *const line_colours[] = {"#0072b2", "#d55e00", "#009e73", "#cc79a7"};

/* How wide text of n characters is at size px: a character of DejaVu Sans
 * taken as 0.62 em, 0.68 em in bold (a little over its averages, so the
 * picture is made wide enough for the font a viewer has). */
static double text_w(int n, double px, bool bold)
{
    return n * px * (bold ? 0.68 : 0.62);
}

/* Characters of s (UTF-8 code points). */
static int chars(const char *s)
{
    int n = 0;
    for (; *s; s++)
        n += ((unsigned char)*s & 0xC0) != 0x80;
    return n;
}

/* Head h's title: "head 0: first .54 / prev .43" (r NULL: not measured). */
static void head_title(int h, const struct train_head_stats *r, char *buf, size_t n)
{
    char label[64] = "";
    if (r && r->kind != TRAIN_HEAD_NONE)
        train_head_label(r, label, sizeof label);
    snprintf(buf, n, "head %d%s%s", h, label[0] ? ": " : "", label);
}

/* s with &, <, > and quotes escaped. */
static void text(FILE *out, const char *s)
{
    for (; *s; s++) {
        switch (*s) {
        case '&':
            fputs("&amp;", out);
            break;
        case '<':
            fputs("&lt;", out);
            break;
        case '>':
            fputs("&gt;", out);
            break;
        case '"':
            fputs("&quot;", out);
            break;
        default:
            fputc(*s, out);
        }
    }
}

/* A polyline of v over steps 0..n-1 on a plot (x0, y0, w, h) spanning span
 * steps and values lo..hi; at most 400 points (means of the steps). */
static void polyline(FILE *out, const float *v, long n, long span, float hi, double x0, double y0,
                     double w, double h, const char *colour)
{
    enum { POINTS = 400 };
    float col[POINTS];
    const int cols = n < POINTS ? (int)(n > 1 ? n : 1) : POINTS;
    trun_curve_columns(v, n, n, cols, col);
    fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"", colour);
    for (int c = 0; c < cols; c++) {
        if (!isfinite(col[c]))
            continue;
        const double step = (double)n * ((double)c + 0.5) / (double)cols;
        const double x = x0 + w * step / (double)span;
        const double y = y0 + h - h * (double)(col[c] / hi);
        fprintf(out, "%.1f,%.1f ", x, y < y0 ? y0 : y);
    }
    fputs("\"/>\n", out);
}

static void axes(FILE *out, double x0, double y0, double w, double h, const char *top,
                 const char *name, long span)
{
    fprintf(out,
            "<path d=\"M%.1f %.1fV%.1fH%.1f\" fill=\"none\" stroke=\"#595959\"/>\n"
            "<text class=\"s r\" x=\"%.1f\" y=\"%.1f\">%s</text>\n"
            "<text class=\"s r\" x=\"%.1f\" y=\"%.1f\">0</text>\n"
            "<text class=\"s r\" x=\"%.1f\" y=\"%.1f\">%s</text>\n"
            "<text class=\"s r\" x=\"%.1f\" y=\"%.1f\">step %ld</text>\n",
            x0, y0, y0 + h, x0 + w, x0 - 4, y0 + 10, top, x0 - 4, y0 + h, x0 - 4, y0 + h / 2 + 4,
            name, x0 + w, y0 + h + 14, span);
}

/* Head h of m as a heatmap at (x, y), titled with what it was measured
 * to do (r NULL: not measured). */
static void heatmap(FILE *out, const struct train_model *m, int h, const struct train_head_stats *r,
                    double x, double y)
{
    const int len = m->sample_len;
    const float *w = train_head_weights(m, h);
    char title[96];
    head_title(h, r, title, sizeof title);
    fprintf(out, "<text class=\"t\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", x, y + 12, title);
    const double gx = x + 28, gy = y + 20;
    for (int i = 0; i < len; i++) {
        fprintf(out, "<text class=\"l r\" x=\"%.1f\" y=\"%.1f\">", gx - 4, gy + CELL * i + 12);
        text(out, m->vocab_names[m->sample[i]]);
        fputs("</text>\n", out);
        for (int j = 0; j < len; j++) {
            const bool masked = m->cfg.causal && j > i;
            const float p = w ? w[(size_t)i * (size_t)len + (size_t)j] : 0.0f;
            char hex[8];
            colorscale_hex(
                masked ? (struct colorscale_rgb){242, 242, 242}
                       : colorscale_seq_fill(colorscale_seq_level(p, COLORSCALE_SEQ_LEVELS)),
                hex, sizeof hex);
            fprintf(out,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\" "
                    "stroke=\"#d9d9d9\"><title>%.4f</title></rect>\n",
                    gx + CELL * j, gy + CELL * i, CELL, CELL, hex, (double)p);
        }
    }
}

/* The room one head takes across: its grid or its title, whichever is wider. */
static double heads_w(const struct train_model *m, const struct train_head_stats *roles)
{
    double w = 28 + CELL * m->sample_len + 24;
    for (int h = 0; h < m->cfg.heads; h++) {
        char title[96];
        head_title(h, roles ? &roles[h] : NULL, title, sizeof title);
        const double tw = text_w(chars(title), 13.0, true) + 24;
        w = tw > w ? tw : w;
    }
    return w;
}

/* A pane's width: PANE_W, or one head's room when that is wider. */
static double pane_w(const struct trun *t, const struct trun_pane *p)
{
    struct train_head_stats roles[TRAIN_MAX_D_MODEL];
    const struct train_model *m = trun_pane_model(p, t->scrub);
    const double w = heads_w(m, trun_pane_heads(p, t->scrub, roles) ? roles : NULL);
    return w > PANE_W ? w : PANE_W;
}

/* One run's pane at (x, y); returns its height. */
static double pane(FILE *out, const struct trun *t, const struct trun_pane *p, double x, double y)
{
    const struct train_model *m = trun_pane_model(p, t->scrub);
    const struct train_model *live = p->run->model;
    const long span = trun_span(t);
    char title[64], top[32];
    trun_pane_title(p, title, sizeof title);
    fprintf(out, "<text class=\"g\" x=\"%.1f\" y=\"%.1f\">%s</text>\n", x, y + 16, title);
    y += 30;
    float hi = 0.0f;
    for (long s = 0; s < p->hist.n; s++)
        if (isfinite(p->hist.loss[s]) && p->hist.loss[s] > hi)
            hi = p->hist.loss[s];
    hi = p->hist.eval_top > hi ? p->hist.eval_top : hi;
    hi = hi > 0.0f ? hi : 1.0f;
    snprintf(top, sizeof top, "%.1f", (double)hi);
    axes(out, x + PLOT_X, y, PLOT_W, LOSS_H, top, "loss", span);
    polyline(out, p->hist.loss, p->hist.n, span, hi, x + PLOT_X, y, PLOT_W, LOSS_H, "#1a1a1a");
    /* the held-out loss at each evaluation, dashed, and what each line is */
    fprintf(out,
            "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" "
            "stroke-dasharray=\"4 2\" points=\"",
            line_colours[1]);
    for (int e = 0; e < p->hist.evals; e++)
        if (isfinite(p->hist.eval_loss[e]))
            fprintf(out, "%.1f,%.1f ",
                    x + PLOT_X + PLOT_W * (double)p->hist.eval_step[e] / (double)span,
                    y + LOSS_H - LOSS_H * (double)(p->hist.eval_loss[e] / hi));
    fputs("\"/>\n", out);
    fprintf(out,
            "<text class=\"s\" x=\"%.1f\" y=\"%.1f\">training</text>\n"
            "<text class=\"s\" x=\"%.1f\" y=\"%.1f\" style=\"fill:%s\">held-out</text>\n",
            x + PLOT_X + PLOT_W - 130, y + 10, x + PLOT_X + PLOT_W - 60, y + 10, line_colours[1]);
    if (t->scrub >= 0)
        fprintf(out, "<path d=\"M%.1f %.1fV%.1f\" stroke=\"#d55e00\" stroke-dasharray=\"4 3\"/>\n",
                x + PLOT_X + PLOT_W * (double)t->scrub / (double)span, y, y + LOSS_H);
    y += LOSS_H + 28;
    /* held-out accuracy at each evaluation */
    axes(out, x + PLOT_X, y, PLOT_W, ACC_H, "100%", "held-out", span);
    for (int k = 0; k < live->cfg.n_outputs; k++) {
        fprintf(out, "<polyline fill=\"none\" stroke=\"%s\" stroke-width=\"1.5\" points=\"",
                line_colours[k % 4]);
        for (int e = 0; e < p->hist.evals; e++)
            fprintf(out, "%.1f,%.1f ",
                    x + PLOT_X + PLOT_W * (double)p->hist.eval_step[e] / (double)span,
                    y + ACC_H -
                        ACC_H * (double)p->hist.eval_acc[(size_t)e * TRUN_MAX_OUTPUTS + (size_t)k]);
        fputs("\"/>\n", out);
        fprintf(out, "<text class=\"s\" x=\"%.1f\" y=\"%.1f\" style=\"fill:%s\">", x + PLOT_X,
                y + ACC_H + 30 + 14 * k, line_colours[k % 4]);
        text(out, live->cfg.outputs[k].name);
        fprintf(out, " %.1f%%</text>\n", 100.0 * (double)trun_pane_accuracy(t, p, k));
    }
    y += ACC_H + 30 + 14 * live->cfg.n_outputs + 8;
    /* the heads, as many to a row as the pane holds */
    struct train_head_stats roles[TRAIN_MAX_D_MODEL];
    const bool measured = trun_pane_heads(p, t->scrub, roles);
    const double head_w = heads_w(m, measured ? roles : NULL);
    const double pw = pane_w(t, p);
    const int across = (int)(pw / head_w) > 0 ? (int)(pw / head_w) : 1;
    const double head_h = 20 + CELL * m->sample_len + 16;
    for (int h = 0; h < m->cfg.heads; h++)
        heatmap(out, m, h, measured ? &roles[h] : NULL, x + head_w * (h % across),
                y + head_h * (h / across));
    y += head_h * ((m->cfg.heads + across - 1) / across);
    return y;
}

static const char style[] =
    "<style>\n"
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;font-size:12px;fill:#1a1a1a}\n"
    ".h{font-size:20px;font-weight:bold}\n"
    ".g{font-size:16px;font-weight:bold}\n"
    ".t{font-size:13px;font-weight:bold}\n"
    ".s{font-size:12px;fill:#595959}\n"
    ".l{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:12px;fill:#333333}\n"
    ".r{text-anchor:end}\n"
    "</style>\n";

/* The task's words in lines of at most cols characters at (x, y); returns
 * the y under them. */
static double words(FILE *out, const char *s, int cols, double x, double y)
{
    cols = cols < 20 ? 20 : cols > 200 ? 200 : cols;
    while (*s) {
        /* the longest start of at most cols characters that ends at a space */
        size_t n = 0, cut = 0;
        int c = 0;
        while (s[n] && c < cols) {
            n++;
            while (((unsigned char)s[n] & 0xC0) == 0x80)
                n++;
            c++;
            if (s[n] == ' ' || !s[n])
                cut = n;
        }
        if (!s[n])
            cut = n;
        else if (cut == 0)
            cut = n;
        n = cut;
        fprintf(out, "<text x=\"%.1f\" y=\"%.1f\">", x, y);
        char line[1024];
        snprintf(line, sizeof line, "%.*s", (int)n, s);
        text(out, line);
        fputs("</text>\n", out);
        y += 16;
        s += n;
        while (*s == ' ')
            s++;
    }
    return y;
}

int ui_train_svg_write(FILE *out, const struct trun *t)
{
    double xs[TRUN_MAX_PANES + 1];
    xs[0] = MARGIN;
    for (int i = 0; i < t->n_panes; i++)
        xs[i + 1] = xs[i] + pane_w(t, &t->panes[i]);
    double width = xs[t->n_panes] + MARGIN;
    /* the height: measured by drawing once into nothing */
    FILE *null = fopen("/dev/null", "w");
    double height = 0.0;
    if (null) {
        for (int i = 0; i < t->n_panes; i++) {
            const double h = pane(null, t, &t->panes[i], 0.0, 0.0);
            height = h > height ? h : height;
        }
        fclose(null);
    }
    const struct train_model *m = t->panes[0].run->model;
    char head[256], stop[256] = "";
    snprintf(head, sizeof head, "Training %s: d_model %d, %d token%s, step %ld%s", t->task->name,
             m->cfg.d_model, m->sample_len, m->sample_len == 1 ? "" : "s", trun_shown_step(t),
             t->scrub >= 0 ? " (a checkpoint)" : "");
    if (!t->compare)
        trun_stop_text(&t->panes[0], stop, sizeof stop);
    /* the title (20px bold) on one line, the words wrapped to the width */
    const double head_w = 2 * MARGIN + text_w(chars(head), 20.0, true);
    width = head_w > width ? head_w : width;
    const int cols = (int)((width - 2 * MARGIN) / text_w(1, 12.0, false));
    FILE *null2 = fopen("/dev/null", "w");
    double text_h = 16 * 4;
    if (null2) {
        text_h = words(null2, t->task->description, cols, 0.0, 0.0);
        if (stop[0])
            text_h = words(null2, stop, cols, 0.0, text_h);
        fclose(null2);
    }
    const double top = MARGIN + 28 + text_h + 8;
    fprintf(out,
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\">\n%s<rect width=\"100%%\" height=\"100%%\" "
            "fill=\"#ffffff\"/>\n",
            width, top + height + MARGIN, width, top + height + MARGIN, style);
    fprintf(out, "<text class=\"h\" x=\"%.1f\" y=\"%.1f\">", MARGIN, MARGIN + 8);
    text(out, head);
    fputs("</text>\n", out);
    double y = words(out, t->task->description, cols, MARGIN, MARGIN + 32);
    if (stop[0])
        y = words(out, stop, cols, MARGIN, y);
    (void)y;
    for (int i = 0; i < t->n_panes; i++)
        pane(out, t, &t->panes[i], xs[i], top);
    fputs("</svg>\n", out);
    return ferror(out) ? -1 : 0;
}

/* The SVG in a page of its own. */
static int html_write(FILE *out, const struct trun *t)
{
    fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>", out);
    fprintf(out, "mha-explorer: training %s", t->task->name);
    fputs("</title>\n</head>\n<body>\n", out);
    const int rc = ui_train_svg_write(out, t);
    fputs("</body>\n</html>\n", out);
    return rc;
}

void ui_train_export(const struct trun *t, struct ui_state *st, const struct ui_stream *stream,
                     int fmt, const char *path)
{
    if (ui_stream_refuses(stream, st, "exported the training screen"))
        return;
    if (fmt != MHA_FORMAT_SVG && fmt != MHA_FORMAT_HTML) {
        char range[16];
        ui_state_say(st, true,
                     "The training screen is written as svg or html (:export svg, :export html); "
                     "%s show the model's stages, which take every format.",
                     mha_stage_range(range, sizeof range));
        return;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc = mem ? (fmt == MHA_FORMAT_SVG ? ui_train_svg_write(mem, t) : html_write(mem, t)) : -1;
    if (mem && fclose(mem) != 0)
        rc = -1;
    if (rc != 0) {
        free(buf);
        ui_state_say(st, true, "Nothing written: out of memory.");
        return;
    }
    char written[PATH_MAX + 64];
    struct mha_error err;
    mha_error_clear(&err);
    if (ui_export_write_buffer(buf, len, "train", fmt == MHA_FORMAT_SVG ? "svg" : "html", ".", path,
                               written, sizeof written, &err) != 0) {
        ui_state_say(st, true, "Nothing written: %s.", err.text);
        return;
    }
    ui_state_say(st, false, "Wrote %s (the training at step %ld).", written, trun_shown_step(t));
}
