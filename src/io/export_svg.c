/* export_svg.c - a stage (or all seven) as one standalone SVG picture, and
 * the XML text escaping the pictures and pages share. */
#include "io/export.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

#include "io/colorscale.h"
#include "io/utf8.h"

/* ---- XML text ------------------------------------------------------------------ */

static void xml_text_n(FILE *out, const char *s, size_t len)
{
    const char *p = s;
    while (len > 0 && *p) {
        unsigned long cp = 0;
        size_t n = utf8_decode(p, len, &cp);
        bool allowed = n > 0 && (cp >= 0x20 || cp == '\t' || cp == '\n' || cp == '\r') &&
                       cp != 0xFFFE && cp != 0xFFFF;
        if (!allowed) {
            fputs("\xEF\xBF\xBD", out); /* U+FFFD */
            n = n ? n : 1;
        } else if (cp == '&') {
            fputs("&amp;", out);
        } else if (cp == '<') {
            fputs("&lt;", out);
        } else if (cp == '>') {
            fputs("&gt;", out);
        } else if (cp == '"') {
            fputs("&quot;", out);
        } else if (cp == '\'') {
            fputs("&apos;", out);
        } else {
            fwrite(p, 1, n, out);
        }
        p += n;
        len -= n;
    }
}

void export_xml_text(FILE *out, const char *s)
{
    xml_text_n(out, s, strlen(s));
}

void export_xml_text_fit(FILE *out, const char *s, int max_cols)
{
    if (utf8_width(s) <= max_cols) {
        export_xml_text(out, s);
        return;
    }
    xml_text_n(out, s, utf8_fit(s, max_cols - 1));
    fputs("…", out);
}

/* ---- geometry ------------------------------------------------------------------ */

#define MARGIN 24.0
#define CHAR_W 7.3 /* advance of a 12px monospace character */
#define CELL_H 22.0
#define TITLE_H 22.0
#define BAND_H 16.0 /* the "head h" band over grouped columns */
#define GAP_X 36.0
#define GAP_Y 28.0
#define MAX_ROW_W 1500.0
#define LABEL_COLS 16 /* longer labels are cut with … */
#define LEGEND_H 64.0

struct box {
    double x, y, w, h;
    double cell_w, label_w, header_h;
    bool rotated;
};

static int label_cols(const char *s)
{
    int w = utf8_width(s);
    return w > LABEL_COLS ? LABEL_COLS : w;
}

static void measure(const struct export_matrix *m, const struct mha_example *ex, struct box *b)
{
    char buf[64];
    int num = 6, rl = 1, cl = 1;
    for (size_t i = 0; i < (size_t)m->rows * (size_t)m->cols; i++) {
        export_number(buf, sizeof buf, m->data[i], "−∞");
        int w = utf8_width(buf);
        num = w > num ? w : num;
    }
    for (int i = 0; i < m->rows; i++) {
        int w = label_cols(export_row_label(m, ex, i, buf, sizeof buf));
        rl = w > rl ? w : rl;
    }
    for (int j = 0; j < m->cols; j++) {
        int w = label_cols(export_col_label(m, ex, j, buf, sizeof buf));
        cl = w > cl ? w : cl;
    }
    b->cell_w = num * CHAR_W + 14.0;
    b->label_w = rl * CHAR_W + 12.0;
    b->rotated = cl * CHAR_W > b->cell_w - 6.0;
    b->header_h = b->rotated ? cl * CHAR_W * 0.71 + 14.0 : 18.0;
    if (m->head_cols > 0)
        b->header_h += BAND_H;
    double grid = b->label_w + m->cols * b->cell_w;
    if (b->rotated)
        grid +=
            cl * CHAR_W * 0.71 - b->cell_w / 2.0 > 0 ? cl * CHAR_W * 0.71 - b->cell_w / 2.0 : 0.0;
    /* the title in 13px bold and its shape in 12px after a gap of 7 (a
     * character of DejaVu Sans taken as 0.68 em bold, 0.62 em plain) */
    double title =
        utf8_width(m->title) * 13.0 * 0.68 + (utf8_width(m->shape) + 2) * 12.0 * 0.62 + 7.0;
    b->w = grid > title ? grid : title;
    b->h = TITLE_H + b->header_h + m->rows * CELL_H;
}

/* Place the boxes of a stage from (MARGIN, y) on; returns the y below them. */
static double flow(const struct export_matrix *m, struct box *b, int n, double y, double *width)
{
    double x = MARGIN, row_h = 0.0;
    for (int i = 0; i < n; i++) {
        if (x > MARGIN && (m[i].new_row || x + b[i].w > MAX_ROW_W)) {
            y += row_h + GAP_Y;
            x = MARGIN;
            row_h = 0.0;
        }
        b[i].x = x;
        b[i].y = y;
        x += b[i].w + GAP_X;
        row_h = b[i].h > row_h ? b[i].h : row_h;
        if (b[i].x + b[i].w + MARGIN > *width)
            *width = b[i].x + b[i].w + MARGIN;
    }
    return y + row_h;
}

/* ---- drawing ---------------------------------------------------------------------- */

static void cell_colours(const struct export_matrix *m, float v, struct colorscale_rgb *fill)
{
    if (m->tint == EXPORT_TINT_PROB)
        *fill = colorscale_seq_fill(colorscale_seq_level(v, COLORSCALE_SEQ_LEVELS));
    else
        *fill = colorscale_div_fill(colorscale_div_level(v, m->range, COLORSCALE_DIV_LEVELS));
}

static void draw_matrix(FILE *out, const struct export_matrix *m, const struct mha_example *ex,
                        const struct box *b)
{
    char buf[64], hex[8];
    fprintf(out, "<g>\n<text class=\"t\" x=\"%.1f\" y=\"%.1f\">", b->x, b->y + 14.0);
    export_xml_text(out, m->title);
    fputs("<tspan class=\"s\" dx=\"7\">(", out);
    export_xml_text(out, m->shape);
    fputs(")</tspan></text>\n", out);
    const double gx = b->x + b->label_w, gy = b->y + TITLE_H + b->header_h;
    if (m->head_cols > 0)
        for (int h = 0; h * m->head_cols < m->cols; h++) {
            double hx = gx + h * m->head_cols * b->cell_w;
            fprintf(out,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>"
                    "<text class=\"b\" x=\"%.1f\" y=\"%.1f\">head %d</text>\n",
                    hx + 1.0, b->y + TITLE_H, m->head_cols * b->cell_w - 2.0, BAND_H - 3.0,
                    h % 2 ? "#d9d9d9" : "#ececec", hx + m->head_cols * b->cell_w / 2.0,
                    b->y + TITLE_H + 10.0, h);
        }
    for (int j = 0; j < m->cols; j++) {
        double cx = gx + (j + 0.5) * b->cell_w;
        const char *label = export_col_label(m, ex, j, buf, sizeof buf);
        if (b->rotated)
            fprintf(out, "<text class=\"l\" transform=\"translate(%.1f %.1f) rotate(-45)\">",
                    cx - 2.0, gy - 6.0);
        else
            fprintf(out, "<text class=\"l c\" x=\"%.1f\" y=\"%.1f\">", cx, gy - 6.0);
        export_xml_text_fit(out, label, LABEL_COLS);
        fputs("</text>\n", out);
    }
    for (int i = 0; i < m->rows; i++) {
        const double cy = gy + i * CELL_H;
        fprintf(out, "<text class=\"l r\" x=\"%.1f\" y=\"%.1f\">", gx - 6.0, cy + 15.0);
        export_xml_text_fit(out, export_row_label(m, ex, i, buf, sizeof buf), LABEL_COLS);
        fputs("</text>\n", out);
        for (int j = 0; j < m->cols; j++) {
            const float v = m->data[(size_t)i * (size_t)m->cols + (size_t)j];
            const double x = gx + j * b->cell_w;
            const bool masked = export_cell_masked(m, i, j);
            struct colorscale_rgb fill;
            cell_colours(m, v, &fill);
            const bool light = colorscale_text_on(fill).r > 128;
            export_number(buf, sizeof buf, v, "−∞");
            fprintf(out,
                    "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"%s\"/>"
                    "<text class=\"v%s\" x=\"%.1f\" y=\"%.1f\">%s</text>\n",
                    x, cy, b->cell_w, CELL_H, masked ? "url(#hatch)" : colorscale_hex(fill, hex, 8),
                    masked  ? " m"
                    : light ? " w"
                            : "",
                    x + b->cell_w / 2.0, cy + 15.0, buf);
        }
    }
    /* the grid's outline, and rules between the heads' column groups */
    fprintf(out,
            "<rect x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\" fill=\"none\" "
            "stroke=\"#808080\"/>\n",
            gx, gy, m->cols * b->cell_w, m->rows * CELL_H);
    for (int h = 1; m->head_cols > 0 && h * m->head_cols < m->cols; h++)
        fprintf(out,
                "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1a1a1a\" "
                "stroke-width=\"2\"/>\n",
                gx + h * m->head_cols * b->cell_w, gy - 18.0, gx + h * m->head_cols * b->cell_w,
                gy + m->rows * CELL_H);
    fputs("</g>\n", out);
}

static void legend(FILE *out, double y, bool masked)
{
    char hex[8];
    double x = MARGIN;
    fprintf(out, "<g>\n<text class=\"s\" x=\"%.1f\" y=\"%.1f\">signed values</text>\n", x,
            y + 12.0);
    for (int l = 0; l < COLORSCALE_DIV_LEVELS; l++)
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"16\" fill=\"%s\" "
                "stroke=\"#b3b3b3\" stroke-width=\"0.5\"/>\n",
                x + l * 20.0, y + 18.0, colorscale_hex(colorscale_div_fill(l), hex, 8));
    fprintf(out,
            "<text class=\"s\" x=\"%.1f\" y=\"%.1f\">−max</text>"
            "<text class=\"s c\" x=\"%.1f\" y=\"%.1f\">0</text>"
            "<text class=\"s r\" x=\"%.1f\" y=\"%.1f\">+max</text>\n",
            x, y + 48.0, x + 110.0, y + 48.0, x + 220.0, y + 48.0);
    fprintf(out,
            "<text class=\"s\" x=\"%.1f\" y=\"%.1f\">max = largest |v| of each tensor, "
            "all heads</text>\n",
            x + 232.0, y + 31.0);
    x += 560.0;
    fprintf(out, "<text class=\"s\" x=\"%.1f\" y=\"%.1f\">attention weights</text>\n", x, y + 12.0);
    for (int l = 0; l < COLORSCALE_SEQ_LEVELS; l++)
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"20\" height=\"16\" fill=\"%s\" "
                "stroke=\"#b3b3b3\" stroke-width=\"0.5\"/>\n",
                x + l * 20.0, y + 18.0, colorscale_hex(colorscale_seq_fill(l), hex, 8));
    fprintf(out,
            "<text class=\"s\" x=\"%.1f\" y=\"%.1f\">0</text>"
            "<text class=\"s r\" x=\"%.1f\" y=\"%.1f\">1</text>\n",
            x, y + 48.0, x + 180.0, y + 48.0);
    if (masked) {
        x += 220.0;
        fprintf(out,
                "<rect x=\"%.1f\" y=\"%.1f\" width=\"32\" height=\"16\" fill=\"url(#hatch)\" "
                "stroke=\"#b3b3b3\" stroke-width=\"0.5\"/>\n"
                "<text class=\"s\" x=\"%.1f\" y=\"%.1f\">masked: −∞ before softmax, "
                "weight exactly 0</text>\n",
                x, y + 18.0, x + 40.0, y + 31.0);
    }
    fputs("</g>\n", out);
}

/* "label" and the first 24 tokens, each cut to LABEL_COLS, "…" for the rest. */
static void token_list(FILE *out, const char *label, char *const *tokens, int n)
{
    fputs(label, out);
    for (int i = 0; i < n && i < 24; i++) {
        fputs(" ", out);
        export_xml_text_fit(out, tokens[i], LABEL_COLS);
    }
    if (n > 24)
        fputs(" …", out);
}

/* Columns token_list writes. */
static int token_list_cols(const char *label, char *const *tokens, int n)
{
    int cols = utf8_width(label);
    for (int i = 0; i < n && i < 24; i++) {
        const int w = utf8_width(tokens[i]);
        cols += 1 + (w < LABEL_COLS ? w : LABEL_COLS);
    }
    return cols + (n > 24 ? 2 : 0);
}

static const char svg_style[] =
    "<style>\n"
    "text{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;font-size:12px;fill:#1a1a1a}\n"
    ".h{font-size:20px;font-weight:bold}\n"
    ".g{font-size:16px;font-weight:bold}\n"
    ".f{font-family:'DejaVu Serif',Georgia,serif;font-size:14px;font-style:italic}\n"
    ".t{font-size:13px;font-weight:bold}\n"
    ".s{font-size:12px;font-weight:normal;fill:#595959}\n"
    ".b{font-size:10px;text-anchor:middle;fill:#333333}\n"
    ".l,.v{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:12px}\n"
    ".l{fill:#333333}\n"
    ".v{text-anchor:middle}\n"
    ".w{fill:#ffffff}\n"
    ".m{fill:#4d4d4d}\n"
    ".c{text-anchor:middle}\n"
    ".r{text-anchor:end}\n"
    "</style>\n";

struct stage_layout {
    struct export_matrix *m;
    struct box *b;
    int n;
    double head_y; /* where the stage's heading goes */
};

int export_svg_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage)
{
    struct stage_layout st[MHA_STAGE_COUNT];
    memset(st, 0, sizeof st);
    double y = MARGIN + (stage == DUMP_ALL ? 64.0 : 50.0), width = 760.0;
    bool any_masked = false;
    int rc = 0;
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        if (stage != DUMP_ALL && stage != s)
            continue;
        st[s].m = export_stage_matrices(ex, t, s, &st[s].n);
        st[s].b = st[s].m ? calloc((size_t)st[s].n, sizeof *st[s].b) : NULL;
        if (!st[s].b) {
            rc = -1;
            goto done;
        }
        st[s].head_y = y;
        for (int i = 0; i < st[s].n; i++) {
            measure(&st[s].m[i], ex, &st[s].b[i]);
            for (int c = 0; c < st[s].m[i].rows * st[s].m[i].cols; c++)
                any_masked = any_masked || export_cell_masked(&st[s].m[i], 0, c);
        }
        y = flow(st[s].m, st[s].b, st[s].n, y + 46.0, &width) + 44.0;
    }
    const double height = y + LEGEND_H + MARGIN;
    char summary[256];
    export_summary(summary, sizeof summary, ex, t);
    /* the summary line (12px, a character taken as 0.62 em) fits too */
    int line = utf8_width(summary) + token_list_cols(" · tokens:", ex->tokens, ex->lq);
    if (ex->cross)
        line += token_list_cols(" · keys:", ex->key_tokens, ex->lk);
    if (2 * MARGIN + line * 12.0 * 0.62 > width)
        width = 2 * MARGIN + line * 12.0 * 0.62;
    fprintf(out,
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n"
            "<svg xmlns=\"http://www.w3.org/2000/svg\" width=\"%.0f\" height=\"%.0f\" "
            "viewBox=\"0 0 %.0f %.0f\">\n<title>",
            width, height, width, height);
    char layer[48]; /* a model of layers: "layer 1 of 0–1, " */
    if (export_layer_words(layer, sizeof layer - 2, ex)[0])
        strcat(layer, ", ");
    if (stage == DUMP_ALL)
        fprintf(out, "Multi-head attention, %sstage by stage", layer);
    else
        fprintf(out, "Multi-head attention, %sstage %d: %s", layer, stage,
                export_stage_title(stage));
    fputs("</title>\n", out);
    fputs(svg_style, out);
    fputs("<defs><pattern id=\"hatch\" width=\"6\" height=\"6\" patternUnits=\"userSpaceOnUse\" "
          "patternTransform=\"rotate(45)\"><rect width=\"6\" height=\"6\" fill=\"#ececec\"/>"
          "<line x1=\"0\" y1=\"0\" x2=\"0\" y2=\"6\" stroke=\"#b3b3b3\" stroke-width=\"3\"/>"
          "</pattern></defs>\n",
          out);
    fputs("<rect width=\"100%\" height=\"100%\" fill=\"#ffffff\"/>\n", out);
    fprintf(out, "<text class=\"h\" x=\"%.1f\" y=\"%.1f\">", MARGIN, MARGIN + 16.0);
    if (stage == DUMP_ALL)
        fprintf(out, "Multi-head attention, %sstage by stage", layer);
    else if (layer[0]) /* "Layer 1 of 0–1, stage 4 · Attention" */
        fprintf(out, "L%sstage %d · %s", layer + 1, stage, export_stage_title(stage));
    else
        fprintf(out, "Stage %d · %s", stage, export_stage_title(stage));
    fprintf(out, "</text>\n<text class=\"s\" x=\"%.1f\" y=\"%.1f\">", MARGIN, MARGIN + 38.0);
    export_xml_text(out, summary);
    token_list(out, " · tokens:", ex->tokens, ex->lq);
    if (ex->cross)
        token_list(out, " · keys:", ex->key_tokens, ex->lk);
    fputs("</text>\n", out);
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        if (!st[s].m)
            continue;
        double hy = st[s].head_y;
        if (stage == DUMP_ALL)
            fprintf(out,
                    "<line x1=\"%.1f\" y1=\"%.1f\" x2=\"%.1f\" y2=\"%.1f\" stroke=\"#1a1a1a\" "
                    "stroke-width=\"1.5\"/>\n"
                    "<text class=\"g\" x=\"%.1f\" y=\"%.1f\">%d · %s</text>\n",
                    MARGIN, hy - 12.0, width - MARGIN, hy - 12.0, MARGIN, hy + 14.0, s,
                    export_stage_title(s));
        fprintf(out, "<text class=\"f\" xml:space=\"preserve\" x=\"%.1f\" y=\"%.1f\">", MARGIN,
                hy + (stage == DUMP_ALL ? 34.0 : 22.0));
        export_xml_text(out, export_stage_formula(s));
        fputs("</text>\n", out);
        for (int i = 0; i < st[s].n; i++)
            draw_matrix(out, &st[s].m[i], ex, &st[s].b[i]);
    }
    legend(out, y, any_masked);
    fputs("</svg>\n", out);
done:
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        free(st[s].m);
        free(st[s].b);
    }
    return rc ? rc : ferror(out) ? -1 : 0;
}
