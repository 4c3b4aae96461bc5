/* export_html.c - one self-contained page walking through the stages: inline
 * CSS, coloured tables, no scripts and nothing fetched from elsewhere.  The
 * markup is XHTML-compatible (every element closed, attributes quoted, text
 * escaped) so that an XML parser reads it as well as a browser does. */
#include "io/export.h"

#include <stdlib.h>
#include <string.h>

#include "io/colorscale.h"

static const char page_css[] =
    ":root{color-scheme:light}\n"
    "*{box-sizing:border-box;-webkit-print-color-adjust:exact;print-color-adjust:exact}\n"
    "body{font-family:'DejaVu Sans',Verdana,Arial,sans-serif;color:#1a1a1a;background:#ffffff;"
    "max-width:1240px;margin:2em auto;padding:0 1.5em;line-height:1.5}\n"
    "h1{font-size:1.7em;margin:0 0 .2em}\n"
    "h2{font-size:1.3em;border-bottom:2px solid #1a1a1a;padding-bottom:.15em;margin:2em 0 .6em}\n"
    "h3{font-size:1.1em;margin:1.4em 0 .4em}\n"
    "code,pre{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;font-size:.92em}\n"
    "code{background:#f2f2f2;padding:0 .25em;border-radius:3px}\n"
    "pre{background:#f2f2f2;padding:.7em 1em;overflow-x:auto;border-radius:4px}\n"
    "pre code{background:none;padding:0}\n"
    ".summary{color:#4d4d4d;margin:.2em 0}\n"
    ".tokens span.tok{font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;"
    "border:1px solid #b3b3b3;border-radius:3px;padding:0 .3em;margin-right:.3em;"
    "white-space:pre}\n"
    ".formula{font-family:'DejaVu Serif',Georgia,serif;font-style:italic;font-size:1.08em;"
    "background:#f4f4f4;border-left:4px solid #808080;padding:.35em .8em;margin:.4em 0;"
    "display:inline-block;white-space:pre-wrap}\n"
    ".mats{display:flex;flex-wrap:wrap;gap:1.2em 2.2em;align-items:flex-start;margin:.8em 0}\n"
    "figure.mat{margin:0;overflow-x:auto;break-inside:avoid;page-break-inside:avoid}\n"
    "figure.mat figcaption{font-weight:bold;font-size:.95em;margin-bottom:.3em}\n"
    ".shape{font-weight:normal;color:#595959}\n"
    "table.m{border-collapse:collapse;font-family:'DejaVu Sans Mono',Menlo,Consolas,monospace;"
    "font-size:12px}\n"
    "table.m td{padding:2px 5px;text-align:right;min-width:4.8em;border:1px solid #ffffff}\n"
    "table.m th{font-weight:normal;color:#333333;padding:2px 5px;white-space:pre;"
    "text-align:center}\n"
    "table.m th.rl{text-align:right}\n"
    "table.m th.hb{background:#ececec;font-size:10px;padding:0 2px}\n"
    "table.m .g{border-left:2px solid #1a1a1a}\n"
    "table.m td.focus{outline:3px solid #1a1a1a;outline-offset:-1px;box-shadow:inset 0 0 0 2px "
    "#ffffff;font-weight:bold}\n"
    ".x{background:repeating-linear-gradient(45deg,#ececec 0 3px,#c4c4c4 3px 5px);"
    "color:#4d4d4d}\n"
    ".legend{border:1px solid #cccccc;border-radius:4px;padding:.4em .9em;margin:1em 0;"
    "font-size:.92em}\n"
    ".legend p{margin:.3em 0}\n"
    ".legend .lt{display:inline-block;min-width:10em;font-weight:bold}\n"
    ".sw{display:inline-block;width:1.5em;height:1em;vertical-align:middle;"
    "border:1px solid #b3b3b3}\n"
    "nav ol{columns:2;margin:.4em 0}\n"
    "footer{margin-top:3em;color:#595959;font-size:.85em;border-top:1px solid #cccccc}\n"
    "@media print{body{margin:0;max-width:none}h2{break-after:avoid;page-break-after:avoid}"
    "figure.mat{overflow:visible}nav{display:none}}\n";

/* The colour classes, written from the same tables the screen uses. */
static void palette_css(FILE *out)
{
    char fill[8], text[8];
    for (int l = 0; l < COLORSCALE_DIV_LEVELS; l++) {
        struct colorscale_rgb c = colorscale_div_fill(l);
        fprintf(out, ".d%d{background:%s;color:%s}\n", l, colorscale_hex(c, fill, 8),
                colorscale_hex(colorscale_text_on(c), text, 8));
    }
    for (int l = 0; l < COLORSCALE_SEQ_LEVELS; l++) {
        struct colorscale_rgb c = colorscale_seq_fill(l);
        fprintf(out, ".s%d{background:%s;color:%s}\n", l, colorscale_hex(c, fill, 8),
                colorscale_hex(colorscale_text_on(c), text, 8));
    }
}

void export_html_begin(FILE *out, const char *title, const char *extra_css)
{
    fputs("<!DOCTYPE html>\n"
          "<html xmlns=\"http://www.w3.org/1999/xhtml\" lang=\"en\" xml:lang=\"en\">\n<head>\n"
          "<meta charset=\"utf-8\"/>\n"
          "<meta name=\"viewport\" content=\"width=device-width, initial-scale=1\"/>\n"
          "<meta name=\"generator\" content=\"mha-explorer\"/>\n<title>",
          out);
    export_xml_text(out, title);
    fputs("</title>\n<style>\n", out);
    fputs(page_css, out);
    palette_css(out);
    if (extra_css)
        fputs(extra_css, out);
    fputs("</style>\n</head>\n<body>\n", out);
}

void export_html_end(FILE *out)
{
    fputs("<footer><p>Made by mha-explorer. Numbers are rounded to 4 decimals; the engine "
          "computes what PyTorch's nn.MultiheadAttention computes.</p></footer>\n"
          "</body>\n</html>\n",
          out);
}

void export_html_legend(FILE *out)
{
    fputs("<div class=\"legend\">\n<p><span class=\"lt\">Signed values</span> ", out);
    for (int l = 0; l < COLORSCALE_DIV_LEVELS; l++)
        fprintf(out, "<span class=\"sw d%d\"></span>", l);
    fputs(" from −max (blue) through 0 (white) to +max (red); max is the largest |v| of each "
          "tensor, over all its heads.</p>\n<p><span class=\"lt\">Attention weights</span> ",
          out);
    for (int l = 0; l < COLORSCALE_SEQ_LEVELS; l++)
        fprintf(out, "<span class=\"sw s%d\"></span>", l);
    fputs(" from 0 (white: exactly zero) through dark blue and green to 1 (yellow).</p>\n"
          "<p><span class=\"lt\">Masked</span> <span class=\"sw x\"></span> a key the query may "
          "not see: its score is −∞, so its weight is exactly 0.</p>\n</div>\n",
          out);
}

static bool is_marked(const struct export_mark *mark, const struct export_matrix *m, int i, int j)
{
    return mark && mark->on && mark->tensor == m->tensor && mark->head == m->head &&
           mark->row == i && mark->col == j;
}

static void matrix_table(FILE *out, const struct mha_example *ex, const struct export_matrix *m,
                         const struct export_mark *mark)
{
    char buf[64];
    fputs("<figure class=\"mat\">\n<figcaption>", out);
    export_xml_text(out, m->title);
    fputs(" <span class=\"shape\">(", out);
    export_xml_text(out, m->shape);
    fputs(")</span></figcaption>\n<table class=\"m\">\n<thead>\n", out);
    if (m->head_cols > 0) {
        fputs("<tr><th></th>", out);
        for (int h = 0; h * m->head_cols < m->cols; h++)
            fprintf(out, "<th class=\"hb%s\" colspan=\"%d\">head %d</th>", h ? " g" : "",
                    m->head_cols, h);
        fputs("</tr>\n", out);
    }
    fputs("<tr><th></th>", out);
    for (int j = 0; j < m->cols; j++) {
        const bool group = m->head_cols > 0 && j > 0 && j % m->head_cols == 0;
        fprintf(out, "<th scope=\"col\"%s>", group ? " class=\"g\"" : "");
        export_xml_text(out, export_col_label(m, ex, j, buf, sizeof buf));
        fputs("</th>", out);
    }
    fputs("</tr>\n</thead>\n<tbody>\n", out);
    for (int i = 0; i < m->rows; i++) {
        fputs("<tr><th class=\"rl\" scope=\"row\">", out);
        export_xml_text(out, export_row_label(m, ex, i, buf, sizeof buf));
        fputs("</th>", out);
        for (int j = 0; j < m->cols; j++) {
            const float v = m->data[(size_t)i * (size_t)m->cols + (size_t)j];
            char cls[16];
            if (export_cell_masked(m, i, j))
                snprintf(cls, sizeof cls, "x");
            else if (m->tint == EXPORT_TINT_PROB)
                snprintf(cls, sizeof cls, "s%d", colorscale_seq_level(v, COLORSCALE_SEQ_LEVELS));
            else
                snprintf(cls, sizeof cls, "d%d",
                         colorscale_div_level(v, m->range, COLORSCALE_DIV_LEVELS));
            export_number(buf, sizeof buf, v, "−∞");
            fprintf(out, "<td class=\"v %s%s%s\">%s</td>", cls,
                    m->head_cols > 0 && j > 0 && j % m->head_cols == 0 ? " g" : "",
                    is_marked(mark, m, i, j) ? " focus" : "", buf);
        }
        fputs("</tr>\n", out);
    }
    fputs("</tbody>\n</table>\n</figure>\n", out);
}

void export_html_matrices(FILE *out, const struct mha_example *ex, const struct mha_trace *t,
                          int stage, const struct export_mark *mark)
{
    int n;
    struct export_matrix *m = export_stage_matrices(ex, t, stage, &n);
    fputs("<div class=\"mats\">\n", out);
    for (int i = 0; i < n; i++)
        matrix_table(out, ex, &m[i], mark);
    fputs("</div>\n", out);
    free(m);
}

/* The example: sizes, and the tokens each in a box (spaces show). */
static void example_header(FILE *out, const struct mha_example *ex, const struct mha_trace *t)
{
    char summary[256];
    export_summary(summary, sizeof summary, ex, t);
    fputs("<p class=\"summary\">", out);
    export_xml_text(out, summary);
    fputs("</p>\n<p class=\"tokens\">Tokens: ", out);
    for (int i = 0; i < ex->lq; i++) {
        fputs("<span class=\"tok\">", out);
        export_xml_text(out, ex->tokens[i]);
        fputs("</span>", out);
    }
    fputs("</p>\n", out);
    if (ex->cross) {
        fputs("<p class=\"tokens\">Key tokens: ", out);
        for (int i = 0; i < ex->lk; i++) {
            fputs("<span class=\"tok\">", out);
            export_xml_text(out, ex->key_tokens[i]);
            fputs("</span>", out);
        }
        fputs("</p>\n", out);
    }
}

int export_html_write(FILE *out, const struct mha_example *ex, const struct mha_trace *t, int stage)
{
    char title[160], layer[48];
    export_layer_words(layer, sizeof layer, ex);
    if (stage == DUMP_ALL)
        snprintf(title, sizeof title, "Multi-head attention, %sstage by stage",
                 layer[0] ? strcat(layer, ", ") : "");
    else
        snprintf(title, sizeof title, "Multi-head attention, %sstage %d: %s",
                 layer[0] ? strcat(layer, ", ") : "", stage, export_stage_title(stage));
    export_html_begin(out, title, NULL);
    fputs("<header>\n<h1>", out);
    export_xml_text(out, title);
    fputs("</h1>\n", out);
    example_header(out, ex, t);
    fputs("</header>\n", out);
    if (stage == DUMP_ALL) {
        fputs("<nav>\n<ol start=\"0\">\n", out);
        for (int s = 0; s < MHA_STAGE_COUNT; s++)
            fprintf(out, "<li><a href=\"#stage-%d\">%s</a></li>\n", s, export_stage_title(s));
        fputs("</ol>\n</nav>\n", out);
    }
    export_html_legend(out);
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        if (stage != DUMP_ALL && stage != s)
            continue;
        fprintf(out, "<section id=\"stage-%d\">\n<h2>%d · %s</h2>\n<p class=\"formula\">", s, s,
                export_stage_title(s));
        export_xml_text(out, export_stage_formula(s));
        fputs("</p>\n<p>", out);
        export_xml_text(out, export_stage_sentence(s));
        fputs("</p>\n", out);
        export_html_matrices(out, ex, t, s, NULL);
        fputs("</section>\n", out);
    }
    export_html_end(out);
    return ferror(out) ? -1 : 0;
}
