/* test_export.c - the export formats: SVG and HTML are well-formed XML whose
 * cells hold the trace's numbers in order, CSV parses back to the same labels
 * and numbers, markdown and LaTeX have the right rows, columns and escaping;
 * the colour scales; the lesson page.  Every case runs on three examples: the
 * default, a causal one with awkward tokens, and a cross-attention one with a
 * mask and biases. */
#include <check.h>
#include <ctype.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/colorscale.h"
#include "io/export.h"
#include "io/format.h"
#include "svg_fit.h"
#include "lesson/lesson_html.h"

#define N_EXAMPLES 3
#define TOKEN_XML "&<>\",é猫"
#define TOKEN_TEX "a&b%c$d#e_f{g}h~i^j\\k"

/* ---- examples ---------------------------------------------------------------- */

static struct mha_example *example(int which)
{
    struct mha_error err;
    struct mha_example *ex =
        which < 2 ? mha_example_default(&err) : mha_example_new(3, 5, 6, 2, true, &err);
    ck_assert_msg(ex != NULL, "%s", err.text);
    if (which == 1) {
        ex->causal = true;
        ck_assert(!mha_example_set_token(ex, false, 1, TOKEN_XML) &&
                  !mha_example_set_token(ex, false, 2, TOKEN_TEX));
    } else if (which == 2) {
        mha_example_generate(ex, 7);
        ck_assert(!mha_example_set_token(ex, true, 0, TOKEN_XML) &&
                  !mha_example_set_token(ex, false, 1, TOKEN_TEX) &&
                  !mha_example_set_token(ex, true, 4, "x,\"y\"\nz"));
        ex->has_bias = ex->has_mask = true;
        for (int i = 0; i < 6; i++)
            ex->b_q[i] = 0.25f * (float)i, ex->b_o[i] = -0.5f;
        memset(ex->mask, 0, 5); /* every key masked for query 0 */
        ex->mask[1 * 5 + 3] = 0;
    }
    return ex;
}

/* ---- the numbers each stage must show, straight from the trace ----------------- */

/* One export: the example, its trace, the text written, the numbers the
 * stage must show (in order) and the numbers read back from the text. */
struct run {
    struct mha_example *ex;
    struct mha_trace *t;
    char *doc;
    float *want;
    double *got;
    size_t n_want, n_got;
};

static void push(struct run *r, const float *src, size_t n)
{
    r->want = realloc(r->want, (r->n_want + n) * sizeof *r->want);
    ck_assert_ptr_nonnull(r->want);
    memcpy(r->want + r->n_want, src, n * sizeof *src);
    r->n_want += n;
}

static void expected(struct run *r, int s)
{
    const struct mha_example *ex = r->ex;
    const struct mha_trace *t = r->t;
    const size_t d = (size_t)t->d_model, q = (size_t)t->lq * d, k = (size_t)t->lk * d;
    const size_t dk = (size_t)t->d_k, att = (size_t)t->lq * (size_t)t->lk;
    const size_t cq = (size_t)t->lq * dk, ck = (size_t)t->lk * dk;
    if (s == 0) {
        const float *in[] = {ex->query, ex->key, ex->value, ex->w_q, ex->w_k, ex->w_v,
                             ex->w_o,   ex->b_q, ex->b_k,   ex->b_v, ex->b_o};
        const size_t len[] = {q, k, k, d * d, d * d, d * d, d * d, d, d, d, d};
        for (int i = 0; i < (ex->has_bias ? 11 : 7); i++)
            push(r, in[i], len[i]);
    } else if (s == 1 || s == 2) {
        push(r, t->q, q), push(r, t->k, k), push(r, t->v, k);
    }
    for (size_t h = 0; h < (size_t)t->heads; h++) {
        if (s == 3)
            push(r, t->qh + h * cq, cq), push(r, t->kh + h * ck, ck), push(r, t->vh + h * ck, ck);
        if (s == 4)
            push(r, t->scores + h * att, att), push(r, t->scaled_scores + h * att, att),
                push(r, t->weights + h * att, att);
        if (s == 4 || s == 5)
            push(r, t->context + h * cq, cq);
    }
    if (s == 5)
        push(r, t->merged, q);
    if (s == 6)
        push(r, t->output, q);
}

/* Export stage (0 .. MHA_STAGE_COUNT - 1 or DUMP_ALL) of example which in fmt. */
static struct run run_open(int which, int stage, enum mha_format fmt)
{
    struct run r = {example(which), NULL, NULL, NULL, NULL, 0, 0};
    struct mha_error err;
    r.t = mha_run(r.ex, &err);
    ck_assert_msg(r.t != NULL, "%s", err.text);
    size_t len = 0;
    FILE *f = open_memstream(&r.doc, &len);
    ck_assert_msg(export_write(f, r.ex, r.t, stage, fmt, &err) == 0, "%s", err.text);
    fclose(f);
    for (int s = 0; s < MHA_STAGE_COUNT; s++)
        if (stage == DUMP_ALL || stage == s)
            expected(&r, s);
    r.got = malloc((r.n_want + 1) * sizeof *r.got);
    return r;
}

/* A cell's text: "−∞", "-inf" or "$-\infty$" for -inf, a number otherwise
 * ("$-$" is LaTeX's minus). */
static void got_cell(struct run *r, const char *s)
{
    ck_assert_msg(r->n_got <= r->n_want, "more numbers than the stage has");
    double v = -INFINITY;
    if (strncmp(s, "−∞", strlen("−∞")) && strncmp(s, "-inf", 4) && strncmp(s, "$-\\infty$", 9)) {
        const bool tex_minus = !strncmp(s, "$-$", 3);
        char *end;
        v = strtod(tex_minus ? s + 3 : s, &end);
        ck_assert_msg(end != (tex_minus ? s + 3 : s), "not a number: \"%.20s\"", s);
        v = tex_minus ? -v : v;
    }
    r->got[r->n_got++] = v;
}

/* The numbers read back equal the trace's, in order; then free everything. */
static void run_close(struct run *r, const char *what)
{
    ck_assert_msg(r->n_got == r->n_want, "%s: %zu numbers, expected %zu", what, r->n_got,
                  r->n_want);
    for (size_t i = 0; i < r->n_got; i++)
        if (isinf(r->want[i]))
            ck_assert_msg(r->got[i] == -INFINITY, "%s: number %zu should be -inf", what, i);
        else
            ck_assert_double_eq_tol(r->got[i], (double)r->want[i], 5e-5);
    mha_trace_free(r->t);
    mha_example_free(r->ex);
    free(r->doc);
    free(r->want);
    free(r->got);
}

/* ---- a small XML checker --------------------------------------------------------- */

static bool entity_at(const char *p, size_t *len)
{
    static const char *const names[] = {"&amp;", "&lt;", "&gt;", "&quot;", "&apos;"};
    for (size_t i = 0; i < 5; i++)
        if (!strncmp(p, names[i], strlen(names[i])))
            return *len = strlen(names[i]), true;
    if (p[1] != '#')
        return false;
    const size_t start = p[2] == 'x' ? 3 : 2;
    const size_t i =
        start + strspn(p + start, start == 3 ? "0123456789abcdefABCDEF" : "0123456789");
    return i > start && p[i] == ';' ? (*len = i + 1, true) : false;
}

static bool name_char(char c)
{
    return isalnum((unsigned char)c) || (c && strchr("-_:.", c));
}

#define XML_FAIL(...) (snprintf(msg, 200, __VA_ARGS__), false)

/* Well-formed: valid UTF-8, one root, balanced tags, quoted attributes, only
 * known entities, no raw & < > in text or attribute values. */
static bool xml_ok(const char *doc, char *msg)
{
    for (const unsigned char *u = (const unsigned char *)doc; *u;) {
        int n = *u < 0x80 ? 1 : (*u >> 5) == 6 ? 2 : (*u >> 4) == 14 ? 3 : (*u >> 3) == 30 ? 4 : 0;
        for (int i = 1; i < n; i++)
            if ((u[i] & 0xC0) != 0x80)
                n = 0;
        if (n == 0)
            return XML_FAIL("invalid UTF-8 at byte %td", (const char *)u - doc);
        u += n;
    }
    char stack[64][32];
    int depth = 0, roots = 0;
    const char *p = doc;
    if (!strncmp(p, "<?xml", 5))
        p = strstr(p, "?>") + 2;
    while (*p) {
        size_t len = 0;
        if (*p == '&') {
            if (!entity_at(p, &len))
                return XML_FAIL("raw & at %td: %.20s", p - doc, p);
            p += len;
        } else if (*p == '>') {
            return XML_FAIL("raw > at %td", p - doc);
        } else if (*p != '<') {
            if (depth == 0 && !strchr(" \n\r\t", *p))
                return XML_FAIL("text outside the root at %td", p - doc);
            p++;
        } else if (!strncmp(p, "<!--", 4)) {
            p = strstr(p, "-->") ? strstr(p, "-->") + 3 : p + strlen(p);
        } else if (!strncmp(p, "<!DOCTYPE", 9) && roots == 0) {
            p = strchr(p, '>') + 1;
        } else if (p[1] == '/') {
            const char *name = p + 2;
            for (p = name; name_char(*p); p++) {
            }
            if (depth == 0 || strlen(stack[depth - 1]) != (size_t)(p - name) ||
                strncmp(stack[depth - 1], name, (size_t)(p - name)) || *p != '>')
                return XML_FAIL("bad close tag at %td: %.20s", name - doc, name - 2);
            depth--;
            p++;
        } else {
            const char *name = ++p;
            while (name_char(*p))
                p++;
            if (p == name || p - name >= 32 || depth >= 64)
                return XML_FAIL("bad tag at %td: %.20s", name - doc, name - 1);
            if (depth == 0 && roots++)
                return XML_FAIL("a second root element at %td", name - doc);
            memcpy(stack[depth], name, (size_t)(p - name));
            stack[depth++][p - name] = '\0';
            for (;;) {
                while (strchr(" \n\t", *p) && *p)
                    p++;
                if (*p == '>' || (p[0] == '/' && p[1] == '>')) {
                    depth -= *p == '/';
                    p += *p == '/' ? 2 : 1;
                    break;
                }
                const char *attr = p;
                while (name_char(*p))
                    p++;
                if (p == attr || *p != '=' || (p[1] != '"' && p[1] != '\''))
                    return XML_FAIL("unquoted or bad attribute at %td: %.30s", attr - doc, attr);
                const char quote = p[1];
                for (p += 2; *p != quote; p += *p == '&' ? len : 1)
                    if (!*p || *p == '<' || *p == '>' || (*p == '&' && !entity_at(p, &len)))
                        return XML_FAIL("bad attribute value at %td: %.30s", attr - doc, attr);
                p++;
            }
        }
    }
    if (depth != 0 || roots != 1)
        return XML_FAIL("%d elements left open, %d roots", depth, roots);
    return true;
}

/* The texts of every element whose class list starts with "v", read back. */
static void cell_numbers(struct run *r)
{
    for (const char *p = r->doc; (p = strstr(p, "class=\"v")) != NULL; p++)
        if (p[8] == '"' || p[8] == ' ')
            got_cell(r, strchr(p, '>') + 1);
}

/* ---- svg and html ------------------------------------------------------------- */

/* Every stage and DUMP_ALL of example which: well-formed, tokens escaped,
 * nothing fetched or run, and the cells hold the trace's numbers in order. */
static void check_xml_format(int which, enum mha_format fmt)
{
    for (int stage = DUMP_ALL; stage < MHA_STAGE_COUNT; stage++) {
        struct run r = run_open(which, stage, fmt);
        const bool svg = fmt == MHA_FORMAT_SVG;
        char msg[200];
        ck_assert_msg(xml_ok(r.doc, msg), "%s, example %d, stage %d: %s", mha_format_get(fmt)->name,
                      which, stage, msg);
        size_t hatched = 0; /* masked: −∞ scores and 0 weights (6 of each per head) */
        for (const char *p = r.doc; (p = strstr(p, svg ? "\"v m\"" : "\"v x")) != NULL; p++)
            hatched++;
        if (which == 1 && stage == 4)
            ck_assert_uint_eq(hatched, 2 * 6 * 2);
        if (which == 1 && (stage == 4 || stage == DUMP_ALL))
            ck_assert_ptr_nonnull(strstr(r.doc, "&amp;&lt;&gt;&quot;,é猫"));
        static const char *const never[] = {TOKEN_XML, "<script", "src=\"", "<link", "href=\"http"};
        for (size_t i = 0; i < sizeof never / sizeof never[0]; i++)
            ck_assert_msg(!strstr(r.doc, never[i]), "%s has %s", mha_format_get(fmt)->name,
                          never[i]);
        ck_assert_ptr_nonnull(strstr(r.doc, svg ? "<svg xmlns=\"http://www.w3.org/2000/svg\" w"
                                                : "<!DOCTYPE html>\n<html xmlns=\""));
        ck_assert_ptr_nonnull(strstr(r.doc, svg ? "viewBox=\"0 0 " : "class=\"legend\""));
        const char *last = r.doc;
        for (int s = 0; s < MHA_STAGE_COUNT && stage == DUMP_ALL; s++) { /* in order */
            char id[64];
            snprintf(id, sizeof id, fmt == MHA_FORMAT_SVG ? ">%d · " : "<section id=\"stage-%d\">",
                     s);
            const char *at = strstr(last, id);
            ck_assert_msg(at != NULL, "%s: stage %d missing or out of order",
                          mha_format_get(fmt)->name, s);
            last = at;
        }
        cell_numbers(&r);
        run_close(&r, mha_format_get(fmt)->name);
    }
}

/* Every text of the stages' SVG lies inside the picture (svg_fit.h), at
 * sizes from 1 head of 2 to 8 heads of 8 and from 2 tokens to 16, with a
 * long token name, with and without the causal mask. */
START_TEST(svg_text_fits_at_every_size)
{
    static const struct {
        int tokens, d_model, heads;
    } sizes[] = {{2, 2, 1}, {4, 6, 2}, {6, 16, 4}, {16, 8, 8}, {3, 6, 6}};
    for (size_t i = 0; i < sizeof sizes / sizeof sizes[0]; i++)
        for (int causal = 0; causal < 2; causal++) {
            struct mha_error err;
            mha_error_clear(&err);
            struct mha_example *ex = mha_example_generated(sizes[i].tokens, NULL, sizes[i].d_model,
                                                           sizes[i].heads, 3, &err);
            ck_assert_msg(ex != NULL, "%s", err.text);
            ex->causal = causal;
            ck_assert(!mha_example_set_token(ex, false, 0, "an-unusually-long-token-name"));
            struct mha_trace *t = mha_run(ex, &err);
            ck_assert_msg(t != NULL, "%s", err.text);
            const int stages[] = {DUMP_ALL, 4}; /* all in one picture, and one alone */
            for (int si = 0; si < 2; si++) {
                const int stage = stages[si];
                char *doc = NULL;
                size_t len = 0;
                FILE *f = open_memstream(&doc, &len);
                ck_assert_int_eq(export_write(f, ex, t, stage, MHA_FORMAT_SVG, &err), 0);
                fclose(f);
                const char *why = svg_text_outside(doc);
                ck_assert_msg(why == NULL, "%d tokens, d_model %d, %d heads, stage %d: %s",
                              sizes[i].tokens, sizes[i].d_model, sizes[i].heads, stage, why);
                free(doc);
            }
            mha_trace_free(t);
            mha_example_free(ex);
        }
}
END_TEST

START_TEST(svg_is_standalone_well_formed_with_the_numbers)
{
    check_xml_format(_i, MHA_FORMAT_SVG);
}
END_TEST

START_TEST(html_is_one_self_contained_page_with_the_numbers)
{
    check_xml_format(_i, MHA_FORMAT_HTML);
}
END_TEST

/* ---- csv ---------------------------------------------------------------------- */

/* One CSV record from *p (RFC 4180: quoted fields, "" for a quote), fields
 * into f[]; returns the count, moves *p past the CRLF. */
static int csv_record(const char **p, char f[][64], int max)
{
    int n = 0;
    for (;;) {
        size_t o = 0;
        if (**p == '"') {
            for ((*p)++; !(**p == '"' && (*p)[1] != '"'); (*p)++) {
                ck_assert_msg(**p, "unterminated quoted field");
                *p += **p == '"';
                f[n][o++] = **p;
            }
            (*p)++;
        } else {
            while (**p && **p != ',' && **p != '\r')
                f[n][o++] = *(*p)++;
        }
        f[n++][o] = '\0';
        ck_assert_int_le(n, max);
        if (**p != ',')
            break;
        (*p)++;
    }
    ck_assert_msg(!strncmp(*p, "\r\n", 2), "record does not end in CRLF");
    *p += 2;
    return n;
}

START_TEST(csv_parses_back_to_the_labels_and_numbers)
{
    static char f[32][64];
    for (int stage = DUMP_ALL; stage < MHA_STAGE_COUNT; stage++) {
        struct run r = run_open(_i, stage, MHA_FORMAT_CSV);
        for (const char *p = r.doc; *p;) {
            int rows, cols;
            ck_assert_msg(*p == '#', "a block starts with its comment: %.30s", p);
            const char *eol = strchr(p, '\r'), *open = eol;
            while (*open != '(')
                open--;
            ck_assert_int_eq(sscanf(open, "(%d x %d)", &rows, &cols), 2);
            char head[200]; /* scores, scaled and weights: queries down, keys across */
            snprintf(head, sizeof head, "%.*s", (int)(eol - p), p);
            const bool by_token = strstr(head, "scores") || strstr(head, "weights =");
            p = eol + 2;
            ck_assert_int_eq(csv_record(&p, f, 32), cols + 1);
            ck_assert_str_eq(f[0], "");
            for (int j = 0; by_token && j < cols; j++)
                ck_assert_str_eq(f[j + 1], r.ex->key_tokens[j]);
            for (int i = 0; i < rows; i++) {
                ck_assert_int_eq(csv_record(&p, f, 32), cols + 1);
                if (by_token)
                    ck_assert_str_eq(f[0], r.ex->tokens[i]);
                for (int j = 0; j < cols; j++)
                    got_cell(&r, f[j + 1]);
            }
            ck_assert_msg(!strncmp(p, "\r\n", 2), "blocks are separated by a blank line");
            p += 2;
        }
        if (_i == 1 && stage == 4)
            ck_assert_ptr_nonnull(strstr(r.doc, "\r\n\"&<>\"\",é猫\","));
        if (_i == 2 && stage == 4)
            ck_assert_ptr_nonnull(strstr(r.doc, ",\"x,\"\"y\"\"\nz\"\r\n"));
        run_close(&r, "csv");
    }
}
END_TEST

/* ---- markdown and latex ------------------------------------------------------------ */

/* Cells of a table line (unescaped pipes minus one), each number read back. */
static int md_cells(struct run *r, const char *line, bool numbers)
{
    int pipes = 0;
    for (const char *p = line; *p && *p != '\n'; p++) {
        if (*p == '\\')
            p++;
        else if (*p == '|' && ++pipes >= 2 && numbers && p[1] == ' ')
            got_cell(r, p + 2); /* the cells after the row's label */
    }
    return pipes - 1;
}

START_TEST(markdown_tables_have_every_row_and_column)
{
    for (int stage = DUMP_ALL; stage < MHA_STAGE_COUNT; stage++) {
        struct run r = run_open(_i, stage, MHA_FORMAT_MARKDOWN);
        for (const char *p = r.doc; (p = strstr(p, "\n**")) != NULL;) {
            int rows, cols, dk;
            const char *shape = strstr(p, "** (");
            int got = sscanf(shape, "** (%d × %d × %d", &rows, &cols, &dk);
            ck_assert_int_ge(got, 2);
            cols *= got == 3 ? dk : 1; /* a split: (L, H, d_k) shown as L rows of H·d_k */
            p = strstr(shape, "\n\n|") + 2;
            ck_assert_int_eq(md_cells(&r, p, false), cols + 1);
            p = strchr(p, '\n') + 1;
            ck_assert_msg(!strncmp(p, "|---|", 5), "separator row");
            for (int i = 0; i < rows; i++) {
                p = strchr(p, '\n') + 1;
                ck_assert_int_eq(md_cells(&r, p, true), cols + 1);
            }
            ck_assert_msg(!strncmp(strchr(p, '\n'), "\n\n", 2), "a blank line after a table");
        }
        if (_i == 1 && stage == 4) {
            ck_assert_ptr_nonnull(strstr(r.doc, "| \\&\\<\\>\",é猫 |"));
            ck_assert_ptr_nonnull(strstr(r.doc, "**head 0 · weights = softmax(scaled)** (4 × 4)"));
            ck_assert_ptr_nonnull(strstr(r.doc, " -inf |"));
        }
        run_close(&r, "markdown");
    }
}
END_TEST

START_TEST(latex_tabulars_are_escaped_and_complete)
{
    for (int stage = DUMP_ALL; stage < MHA_STAGE_COUNT; stage++) {
        struct run r = run_open(_i, stage, MHA_FORMAT_LATEX);
        for (const char *p = r.doc; (p = strstr(p, "\\begin{tabular}")) != NULL;) {
            const char *end = strstr(p, "\\end{tabular}");
            int cols = 0;
            for (const char *c = strchr(p, '|'); *c != '}'; c++)
                cols += *c == 'r';
            p = strstr(strstr(p, "\\hline"), "\n") + 1;
            for (; p < end; p = strstr(p, "\\\\\n") + 3) {
                int amps = 0;
                for (const char *c = p; c < strstr(p, "\\\\\n"); c++) {
                    if (*c == '\\')
                        c++;
                    else if (*c == '&')
                        amps++, got_cell(&r, c + 2);
                }
                ck_assert_int_eq(amps, cols);
            }
        }
        if (_i == 1 && (stage == 4 || stage == 0))
            ck_assert_ptr_nonnull(strstr(r.doc, "a\\&b\\%c\\$d\\#e\\_f\\{g\\}h\\textasciitilde{}i"
                                                "\\textasciicircum{}j\\textbackslash{}k &"));
        run_close(&r, "latex");
    }
}
END_TEST

/* ---- names, refusals, escaping, colours ------------------------------------------------ */

START_TEST(format_names_and_refusals)
{
    for (int f = 0; f < MHA_FORMAT_EXPORTS; f++) {
        ck_assert_int_eq(mha_format_from_name(mha_format_get(f)->name), f);
        ck_assert(mha_format_get(f)->kind != MHA_FORMAT_DUMP); /* the exports come first */
    }
    ck_assert_int_eq(mha_format_from_name("md"), MHA_FORMAT_MARKDOWN);
    ck_assert_int_eq(mha_format_get(mha_format_from_name("text"))->kind, MHA_FORMAT_DUMP);
    ck_assert_int_eq(mha_format_from_name(NULL), -1);
    ck_assert_str_eq(mha_format_get(MHA_FORMAT_LATEX)->extension, "tex");
    struct mha_error err;
    struct mha_example *ex = mha_example_generated(200, NULL, 256, 8, 1, &err);
    struct mha_trace *t = mha_run(ex, &err);
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    ck_assert_int_ne(export_write(f, ex, t, 0, MHA_FORMAT_SVG, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "too many"));
    ck_assert_int_ne(export_write(f, ex, t, MHA_STAGE_COUNT, MHA_FORMAT_CSV, &err), 0);
    ck_assert_ptr_nonnull(strstr(err.text, "stage"));
    ck_assert_int_ne(export_write(f, ex, t, 0, MHA_FORMAT_EXPORTS, &err), 0);
    fflush(f);
    ck_assert_uint_eq(len, 0); /* nothing half-written */
    ck_assert_int_eq(export_write(f, ex, t, 0, MHA_FORMAT_CSV, &err), 0);
    fclose(f);
    ck_assert_uint_gt(len, 4 * 256 * 256 * 6);
    free(buf);
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

/* A trained model of layers shown at one of them: every format's heading
 * (and json's config) names the layer, as the screen's status line says
 * it; an example of one layer names none. */
START_TEST(every_format_names_the_layer_of_a_model_of_layers)
{
    struct mha_error err;
    struct mha_example *ex = example(0);
    struct mha_trace *t = mha_run(ex, &err);
    ck_assert_ptr_nonnull(t);
    for (int layers = 0; layers <= 3; layers += 3) {
        ex->layers = layers;
        ex->layer = layers ? 1 : 0;
        for (int f = 0; f < MHA_FORMAT_COUNT; f++) {
            const int stages[] = {4, DUMP_ALL};
            for (int k = 0; k < 2; k++) {
                char *buf = NULL;
                size_t len = 0;
                FILE *out = open_memstream(&buf, &len);
                ck_assert_int_eq(mha_format_write(out, ex, t, stages[k], f, &err), 0);
                fclose(out);
                const char *want =
                    f == MHA_FORMAT_JSON ? "\"layers\":3,\"layer\":1}" : "layer 1 of 0–2";
                if (layers)
                    ck_assert_msg(strstr(buf, want), "%s at stage %d names no layer",
                                  mha_format_get(f)->name, stages[k]);
                else
                    ck_assert_msg(!strstr(buf, "layer 1 of") && !strstr(buf, "\"layers\""),
                                  "%s of a one-layer example names a layer",
                                  mha_format_get(f)->name);
                free(buf);
            }
        }
    }
    mha_trace_free(t);
    mha_example_free(ex);
}
END_TEST

START_TEST(xml_text_escapes_and_repairs)
{
    char *buf = NULL, msg[200];
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    fputs("<p>", f);
    export_xml_text(f, "a&b<c>d\"e'f é\x01\xff\xc3 ok");
    fputs(" ", f);
    export_xml_text_fit(f, "猫猫猫猫", 5);
    fputs("</p>", f);
    fclose(f);
    ck_assert_str_eq(buf, "<p>a&amp;b&lt;c&gt;d&quot;e&apos;f é\xEF\xBF\xBD\xEF\xBF\xBD"
                          "\xEF\xBF\xBD ok 猫猫…</p>");
    ck_assert(xml_ok(buf, msg));
    static const char *const bad[] = {"<a><b></a></b>", "<a x=1></a>",  "<a>&nbsp;</a>",
                                      "<a>x & y</a>",   "<a>x > y</a>", "<a/><b/>"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++)
        ck_assert_msg(!xml_ok(bad[i], msg), "the checker accepts %s", bad[i]);
    free(buf);
}
END_TEST

#define RGB_IS(c, R, G, B) ((c).r == (R) && (c).g == (G) && (c).b == (B))

START_TEST(colour_scales_match_the_screen_and_stay_legible)
{
    /* value, range, diverging level; probability, sequential level */
    static const float div[][3] = {{0, 2, 5},    {-2, 2, 0},   {5, 2, 10},   {1, 0, 5},
                                   {0.1f, 2, 5}, {0.2f, 2, 6}, {-1.1f, 2, 2}};
    static const float seq[][2] = {{0, 0}, {1e-9f, 1}, {0.5f, 5}, {0.99f, 8}, {1, 8}, {-1, 0}};
    for (size_t i = 0; i < sizeof div / sizeof div[0]; i++)
        ck_assert_int_eq(colorscale_div_level(div[i][0], div[i][1], 11), (int)div[i][2]);
    for (size_t i = 0; i < sizeof seq / sizeof seq[0]; i++)
        ck_assert_int_eq(colorscale_seq_level(seq[i][0], 9), (int)seq[i][1]);
    ck_assert(RGB_IS(colorscale_xterm_rgb(25), 0, 95, 175));
    ck_assert(RGB_IS(colorscale_xterm_rgb(226), 255, 255, 0));
    ck_assert(RGB_IS(colorscale_xterm_rgb(244), 128, 128, 128));
    ck_assert(RGB_IS(colorscale_div_fill(10), 175, 0, 0));
    ck_assert(RGB_IS(colorscale_div_fill(5), 255, 255, 255));
    ck_assert_str_eq(colorscale_hex(colorscale_seq_fill(1), (char[8]){0}, 8), "#00005f");
    for (int l = 0; l < COLORSCALE_DIV_LEVELS + COLORSCALE_SEQ_LEVELS; l++) {
        struct colorscale_rgb fill = l < COLORSCALE_DIV_LEVELS
                                         ? colorscale_div_fill(l)
                                         : colorscale_seq_fill(l - COLORSCALE_DIV_LEVELS);
        ck_assert_double_gt(colorscale_contrast(fill, colorscale_text_on(fill)), 4.0);
    }
}
END_TEST

/* ---- the lesson page --------------------------------------------------------------- */

START_TEST(lesson_page_is_well_formed_with_text_screens_and_quizzes)
{
    const char *root = getenv("MHA_DATA_DIR");
    char path[PATH_MAX], assets[PATH_MAX], msg[200];
    snprintf(path, sizeof path, "%s/lessons/13-specialised-heads.md", root ? root : ".");
    snprintf(assets, sizeof assets, "%s/assets", root ? root : ".");
    struct lesson *l = lesson_load(path);
    ck_assert_ptr_nonnull(l);
    ck_assert_msg(l->n_diags == 0, "%s", l->n_diags ? l->diags[0].text : "");
    char *doc = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&doc, &len);
    ck_assert_int_eq(lesson_print_html(f, l, assets), 0);
    fclose(f);
    ck_assert_msg(xml_ok(doc, msg), "lesson page: %s", msg);
    static const char *const want[] = {"Lesson 13: Heads that specialise</title>",
                                       "<h1>Heads that specialise</h1>",
                                       "callout analogy",
                                       "<em>on the</em>",
                                       "<code>d_k</code>",
                                       "Show the answer</summary>",
                                       "v s8 focus\">0.9998</td>",
                                       "Step 6 of 6"};
    for (size_t i = 0; i < sizeof want / sizeof want[0]; i++)
        ck_assert_msg(strstr(doc, want[i]), "the lesson page has no %s", want[i]);
    ck_assert_ptr_null(strstr(doc, "<script"));
    free(doc);
    lesson_free(l);
}
END_TEST

static TCase *tcase(Suite *s, const char *name)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, 60);
    suite_add_tcase(s, tc);
    return tc;
}

int main(void)
{
    Suite *s = suite_create("export");
    /* the formats with a test of their own, each on every example */
    const struct {
        const char *format;
        const TTest *test;
    } each[] = {{"svg", svg_is_standalone_well_formed_with_the_numbers},
                {"html", html_is_one_self_contained_page_with_the_numbers},
                {"markdown", markdown_tables_have_every_row_and_column},
                {"csv", csv_parses_back_to_the_labels_and_numbers},
                {"latex", latex_tabulars_are_escaped_and_complete}};
    for (size_t i = 0; i < sizeof each / sizeof each[0]; i++)
        tcase_add_loop_test(tcase(s, each[i].format), each[i].test, 0, N_EXAMPLES);
    TCase *api = tcase(s, "api");
    tcase_add_test(api, format_names_and_refusals);
    TCase *fit = tcase(s, "fit");
    tcase_set_timeout(fit, 120);
    tcase_add_test(fit, svg_text_fits_at_every_size);
    tcase_add_test(api, xml_text_escapes_and_repairs);
    tcase_add_test(api, every_format_names_the_layer_of_a_model_of_layers);
    tcase_add_test(tcase(s, "colorscale"), colour_scales_match_the_screen_and_stay_legible);
    tcase_add_test(tcase(s, "lesson"), lesson_page_is_well_formed_with_text_screens_and_quizzes);
    SRunner *sr = srunner_create(s);
    srunner_run_all(sr, CK_NORMAL);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
