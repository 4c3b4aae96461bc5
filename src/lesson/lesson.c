/* lesson.c - CommonMark (cmark) -> lesson steps, text blocks, scenes, quizzes. */
#include "lesson/lesson.h"

#include <cmark.h>
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson_parse.h"
#include "io/safe_file.h"
#include "engine/text_check.h"

#define LESSON_MAX_BYTES (1u << 20)

const char *lesson_callout_title(enum lesson_callout c)
{
    switch (c) {
    case LESSON_CALLOUT_ANALOGY:
        return "Analogy";
    case LESSON_CALLOUT_WHATIF:
        return "What if we didn't?";
    case LESSON_CALLOUT_INSIGHT:
        return "Key insight";
    case LESSON_CALLOUT_NONE:
        break;
    }
    return "";
}

void lesson_diag_add(struct lesson *l, int line, const char *fmt, ...)
{
    struct lesson_diag *d = realloc(l->diags, (size_t)(l->n_diags + 1) * sizeof *d);
    if (!d)
        return;
    l->diags = d;
    d += l->n_diags++;
    d->line = line;
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(d->text, sizeof d->text, fmt, ap);
    va_end(ap);
}

/* ---- growing arrays ---- */

/* While lesson_parse runs, where running out of memory goes: back to it,
 * and it frees the lesson so far and returns NULL.  (Parsing is not
 * reentrant and the program reads lessons on one thread.) */
static jmp_buf *oom_exit;

void lesson_out_of_memory(void)
{
    if (oom_exit)
        longjmp(*oom_exit, 1);
}

static void *grow(void *p, int n, size_t each)
{
    void *q = realloc(p, (size_t)(n + 1) * each);
    if (!q)
        lesson_out_of_memory();
    return q;
}

char *lesson_strdup(const char *s)
{
    char *c = strdup(s ? s : "");
    if (!c)
        lesson_out_of_memory();
    return c;
}

static struct lesson_step *new_step(struct lesson *l, int line)
{
    l->steps = grow(l->steps, l->n_steps, sizeof *l->steps);
    struct lesson_step *s = &l->steps[l->n_steps++];
    memset(s, 0, sizeof *s);
    s->line = line;
    return s;
}

static struct lesson_block *new_block(struct lesson_step *s, enum lesson_block_kind kind, int line)
{
    s->blocks = grow(s->blocks, s->n_blocks, sizeof *s->blocks);
    struct lesson_block *b = &s->blocks[s->n_blocks++];
    memset(b, 0, sizeof *b);
    b->kind = kind;
    b->line = line;
    return b;
}

static void add_span(struct lesson_block *b, const char *text, unsigned style)
{
    if (!text || !*text)
        return;
    /* join with the previous span when the style is the same */
    if (b->n_spans > 0 && b->spans[b->n_spans - 1].style == style && strcmp(text, "\n") != 0 &&
        strcmp(b->spans[b->n_spans - 1].text, "\n") != 0) {
        struct lesson_span *p = &b->spans[b->n_spans - 1];
        size_t a = strlen(p->text), c = strlen(text);
        char *j = realloc(p->text, a + c + 1);
        if (!j) {
            lesson_out_of_memory();
            return;
        }
        memcpy(j + a, text, c + 1);
        p->text = j;
        return;
    }
    b->spans = grow(b->spans, b->n_spans, sizeof *b->spans);
    b->spans[b->n_spans].text = lesson_strdup(text);
    b->spans[b->n_spans].style = style;
    b->n_spans++;
}

/* ---- inline content ---- */

static void add_inlines(struct lesson_block *b, cmark_node *parent, unsigned style)
{
    for (cmark_node *n = cmark_node_first_child(parent); n; n = cmark_node_next(n)) {
        switch (cmark_node_get_type(n)) {
        case CMARK_NODE_TEXT:
        case CMARK_NODE_HTML_INLINE:
            add_span(b, cmark_node_get_literal(n), style);
            break;
        case CMARK_NODE_CODE:
            add_span(b, cmark_node_get_literal(n), style | LESSON_CODE);
            break;
        case CMARK_NODE_SOFTBREAK:
            add_span(b, " ", style);
            break;
        case CMARK_NODE_LINEBREAK:
            add_span(b, "\n", style);
            break;
        case CMARK_NODE_EMPH:
            add_inlines(b, n, style | LESSON_EMPH);
            break;
        case CMARK_NODE_STRONG:
            add_inlines(b, n, style | LESSON_STRONG);
            break;
        case CMARK_NODE_LINK:
        case CMARK_NODE_IMAGE:
            add_inlines(b, n, style | LESSON_LINK);
            break;
        default:
            break;
        }
    }
}

/* Plain text of a node's inlines (for titles). */
static void plain_text(cmark_node *parent, char *buf, size_t n, size_t *used)
{
    for (cmark_node *c = cmark_node_first_child(parent); c && *used + 1 < n;
         c = cmark_node_next(c)) {
        const char *lit = NULL;
        switch (cmark_node_get_type(c)) {
        case CMARK_NODE_TEXT:
        case CMARK_NODE_CODE:
            lit = cmark_node_get_literal(c);
            break;
        case CMARK_NODE_SOFTBREAK:
        case CMARK_NODE_LINEBREAK:
            lit = " ";
            break;
        default:
            plain_text(c, buf, n, used);
            break;
        }
        if (lit)
            *used += (size_t)snprintf(buf + *used, n - *used, "%s", lit);
    }
    if (*used >= n)
        *used = n - 1;
}

/* ---- tables (pipe tables, which plain CommonMark reads as a paragraph) ---- */

static const char *line_start(const char *text, size_t len, int line)
{
    const char *p = text, *end = text + len;
    for (int l = 1; l < line && p < end; p++)
        if (*p == '\n')
            l++;
    return p < end ? p : NULL;
}

static bool is_delimiter_row(const char *s, size_t n)
{
    bool dash = false;
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '-')
            dash = true;
        else if (s[i] != '|' && s[i] != ':' && s[i] != ' ' && s[i] != '\t' && s[i] != '\r')
            return false;
    }
    return dash;
}

/* Split one "| a | b |" line into trimmed cells with `code` and ** marks dropped. */
static int split_row(const char *s, size_t n, char ***cells_out)
{
    char **cells = NULL;
    int count = 0;
    size_t i = 0;
    while (i < n && (s[i] == ' ' || s[i] == '\t'))
        i++;
    if (i < n && s[i] == '|')
        i++;
    while (i < n) {
        char cell[512];
        size_t c = 0;
        while (i < n && s[i] != '|') {
            if (s[i] == '\\' && i + 1 < n && s[i + 1] == '|')
                i++;
            if (s[i] != '`' && s[i] != '*' && s[i] != '\r' && c + 1 < sizeof cell)
                cell[c++] = s[i];
            i++;
        }
        while (c > 0 && (cell[c - 1] == ' ' || cell[c - 1] == '\t'))
            c--;
        cell[c] = '\0';
        char *t = cell;
        while (*t == ' ' || *t == '\t')
            t++;
        bool last = i >= n;
        if (!(last && *t == '\0')) {
            cells = grow(cells, count, sizeof *cells);
            cells[count++] = lesson_strdup(t);
        }
        i++; /* past '|' */
    }
    *cells_out = cells;
    return count;
}

static bool try_table(struct lesson *l, struct lesson_step *st, cmark_node *para, const char *text,
                      size_t len)
{
    int first = cmark_node_get_start_line(para), last = cmark_node_get_end_line(para);
    if (last - first < 1)
        return false;
    const char *end = text + len;
    const char *lines[256];
    size_t lens[256];
    int n = 0;
    for (int ln = first; ln <= last && n < 256; ln++) {
        const char *s = line_start(text, len, ln);
        if (!s)
            return false;
        const char *e = memchr(s, '\n', (size_t)(end - s));
        lens[n] = e ? (size_t)(e - s) : (size_t)(end - s);
        lines[n] = s;
        const char *t = s;
        while (t < s + lens[n] && (*t == ' ' || *t == '\t'))
            t++;
        if (t >= s + lens[n] || *t != '|')
            return false;
        n++;
    }
    if (!is_delimiter_row(lines[1], lens[1]))
        return false;
    struct lesson_block *b = new_block(st, LESSON_TABLE, first);
    for (int r = 0; r < n; r++) {
        if (r == 1)
            continue;
        char **cells;
        int count = split_row(lines[r], lens[r], &cells);
        if (b->rows == 0)
            b->cols = count;
        if (count != b->cols)
            lesson_diag_add(l, first + r, "table row has %d cells; the header has %d", count,
                            b->cols);
        char **grown =
            realloc(b->cells, (size_t)(b->rows + 1) * (size_t)b->cols * sizeof *b->cells);
        if (!grown) {
            lesson_out_of_memory();
            return true;
        }
        b->cells = grown;
        for (int c = 0; c < b->cols; c++)
            b->cells[b->rows * b->cols + c] = lesson_strdup(c < count ? cells[c] : "");
        for (int c = 0; c < count; c++)
            free(cells[c]);
        free(cells);
        b->rows++;
    }
    return true;
}

/* ---- blocks ---- */

struct parse_ctx {
    struct lesson *l;
    const char *text;
    size_t len;
};

static void add_blocks(struct parse_ctx *cx, struct lesson_step *st, cmark_node *n, int depth);

static enum lesson_callout callout_of(cmark_node *quote, cmark_node **para_out,
                                      cmark_node **strong_out)
{
    cmark_node *para = cmark_node_first_child(quote);
    if (!para || cmark_node_get_type(para) != CMARK_NODE_PARAGRAPH)
        return LESSON_CALLOUT_NONE;
    cmark_node *strong = cmark_node_first_child(para);
    if (!strong || cmark_node_get_type(strong) != CMARK_NODE_STRONG)
        return LESSON_CALLOUT_NONE;
    char label[80];
    size_t used = 0;
    label[0] = '\0';
    plain_text(strong, label, sizeof label, &used);
    /* drop a trailing colon and spaces */
    while (used > 0 && (label[used - 1] == ':' || label[used - 1] == ' '))
        label[--used] = '\0';
    *para_out = para;
    *strong_out = strong;
    if (strcasecmp(label, "Analogy") == 0)
        return LESSON_CALLOUT_ANALOGY;
    if (strcasecmp(label, "What if we didn't?") == 0 ||
        strcasecmp(label, "What if we didn’t?") == 0)
        return LESSON_CALLOUT_WHATIF;
    if (strcasecmp(label, "Key insight") == 0)
        return LESSON_CALLOUT_INSIGHT;
    return LESSON_CALLOUT_NONE;
}

/* Text after the bold label of a callout: skip a leading ":" and spaces. */
static void add_callout(struct parse_ctx *cx, struct lesson_step *st, cmark_node *quote,
                        enum lesson_callout kind, cmark_node *first_para, cmark_node *strong)
{
    struct lesson_block *b = new_block(st, LESSON_CALLOUT, cmark_node_get_start_line(quote));
    b->callout = kind;
    bool first = true;
    for (cmark_node *p = cmark_node_first_child(quote); p; p = cmark_node_next(p)) {
        if (cmark_node_get_type(p) != CMARK_NODE_PARAGRAPH) {
            lesson_diag_add(cx->l, cmark_node_get_start_line(p),
                            "a call-out holds paragraphs only (found a %s)",
                            cmark_node_get_type_string(p));
            continue;
        }
        if (!first)
            add_span(b, "\n\n", 0);
        if (p == first_para) {
            /* everything after the label; a text node starting with ':' loses it */
            struct lesson_block tmp = {0};
            cmark_node *after = cmark_node_next(strong);
            cmark_node *wrap = cmark_node_new(CMARK_NODE_PARAGRAPH);
            while (after) {
                cmark_node *next = cmark_node_next(after);
                cmark_node_unlink(after);
                cmark_node_append_child(wrap, after);
                after = next;
            }
            add_inlines(&tmp, wrap, 0);
            cmark_node_free(wrap);
            for (int i = 0; i < tmp.n_spans; i++) {
                char *t = tmp.spans[i].text;
                if (i == 0) {
                    while (*t == ':' || *t == ' ')
                        t++;
                }
                add_span(b, t, tmp.spans[i].style);
                free(tmp.spans[i].text);
            }
            free(tmp.spans);
        } else {
            add_inlines(b, p, 0);
        }
        first = false;
    }
    if (b->n_spans == 0)
        lesson_diag_add(cx->l, b->line, "the \"%s\" call-out has no text after its label",
                        lesson_callout_title(kind));
}

static void add_list(struct parse_ctx *cx, struct lesson_step *st, cmark_node *list, int depth)
{
    bool ordered = cmark_node_get_list_type(list) == CMARK_ORDERED_LIST;
    int number = cmark_node_get_list_start(list);
    for (cmark_node *item = cmark_node_first_child(list); item; item = cmark_node_next(item)) {
        bool first = true;
        for (cmark_node *c = cmark_node_first_child(item); c; c = cmark_node_next(c)) {
            if (first && cmark_node_get_type(c) == CMARK_NODE_PARAGRAPH) {
                struct lesson_block *b = new_block(st, LESSON_ITEM, cmark_node_get_start_line(c));
                b->level = depth;
                if (ordered)
                    snprintf(b->bullet, sizeof b->bullet, "%d.", number);
                else
                    snprintf(b->bullet, sizeof b->bullet, "%s", depth > 1 ? "◦" : "•");
                add_inlines(b, c, 0);
            } else {
                add_blocks(cx, st, c, depth + 1);
            }
            first = false;
        }
        number++;
    }
}

static void add_paragraph(struct parse_ctx *cx, struct lesson_step *st, cmark_node *n, int depth)
{
    if (try_table(cx->l, st, n, cx->text, cx->len))
        return;
    struct lesson_block *b =
        new_block(st, depth > 0 ? LESSON_ITEM : LESSON_PARAGRAPH, cmark_node_get_start_line(n));
    b->level = depth;
    add_inlines(b, n, 0);
}

/* A heading; the step's first names the step. */
static void add_heading(struct lesson_step *st, cmark_node *n)
{
    struct lesson_block *b = new_block(st, LESSON_HEADING, cmark_node_get_start_line(n));
    b->level = cmark_node_get_heading_level(n);
    add_inlines(b, n, 0);
    if (!st->title) {
        char buf[256];
        size_t used = 0;
        buf[0] = '\0';
        plain_text(n, buf, sizeof buf, &used);
        st->title = lesson_strdup(buf);
    }
}

/* A fenced block: the step's ```mha scene, ```reveal scene or ```quiz
 * (one of each), else code shown as it is. */
static void add_code_block(struct parse_ctx *cx, struct lesson_step *st, cmark_node *n)
{
    const int line = cmark_node_get_start_line(n);
    const char *info = cmark_node_get_fence_info(n);
    const char *lit = cmark_node_get_literal(n);
    if (info && strcmp(info, "mha") == 0) {
        if (st->has_scene)
            lesson_diag_add(cx->l, line,
                            "a second ```mha scene in one step (the first is at line %d); "
                            "end the step with --- first",
                            st->scene.line);
        else {
            st->has_scene = true;
            lesson_parse_scene(cx->l, &st->scene, lit ? lit : "", line);
        }
    } else if (info && strcmp(info, "reveal") == 0) {
        if (st->has_reveal)
            lesson_diag_add(cx->l, line,
                            "a second ```reveal scene in one step (the first is at line %d)",
                            st->reveal.line);
        else {
            st->has_reveal = true;
            lesson_parse_scene(cx->l, &st->reveal, lit ? lit : "", line);
        }
    } else if (info && strcmp(info, "quiz") == 0) {
        if (st->has_quiz)
            lesson_diag_add(cx->l, line, "a second ```quiz in one step (the first is at line %d)",
                            st->quiz.line);
        else {
            st->has_quiz = true;
            lesson_parse_quiz(cx->l, &st->quiz, lit ? lit : "", line);
        }
    } else {
        struct lesson_block *b = new_block(st, LESSON_CODE_BLOCK, line);
        b->code = lesson_strdup(lit);
        size_t cl = strlen(b->code);
        if (cl > 0 && b->code[cl - 1] == '\n')
            b->code[cl - 1] = '\0';
    }
}

/* A call-out, else a quote: its paragraphs quoted, anything else as blocks. */
static void add_quote(struct parse_ctx *cx, struct lesson_step *st, cmark_node *n, int depth)
{
    cmark_node *para = NULL, *strong = NULL;
    enum lesson_callout kind = callout_of(n, &para, &strong);
    if (kind != LESSON_CALLOUT_NONE) {
        add_callout(cx, st, n, kind, para, strong);
        return;
    }
    for (cmark_node *c = cmark_node_first_child(n); c; c = cmark_node_next(c)) {
        if (cmark_node_get_type(c) == CMARK_NODE_PARAGRAPH) {
            struct lesson_block *b = new_block(st, LESSON_QUOTE, cmark_node_get_start_line(c));
            add_inlines(b, c, 0);
        } else {
            add_blocks(cx, st, c, depth);
        }
    }
}

static void add_blocks(struct parse_ctx *cx, struct lesson_step *st, cmark_node *n, int depth)
{
    switch (cmark_node_get_type(n)) {
    case CMARK_NODE_PARAGRAPH:
        add_paragraph(cx, st, n, depth);
        break;
    case CMARK_NODE_HEADING:
        add_heading(st, n);
        break;
    case CMARK_NODE_LIST:
        add_list(cx, st, n, depth + 1);
        break;
    case CMARK_NODE_CODE_BLOCK:
        add_code_block(cx, st, n);
        break;
    case CMARK_NODE_BLOCK_QUOTE:
        add_quote(cx, st, n, depth);
        break;
    case CMARK_NODE_HTML_BLOCK:
        lesson_diag_add(cx->l, cmark_node_get_start_line(n),
                        "raw HTML is not shown in the terminal; write it as Markdown");
        break;
    case CMARK_NODE_THEMATIC_BREAK:
        break;
    default:
        break;
    }
}

/* Report the first byte that is not valid UTF-8, with its line. */
static void check_utf8(struct lesson *l, const unsigned char *s, size_t n)
{
    int line = 1;
    for (size_t i = 0; i < n;) {
        unsigned char c = s[i];
        size_t k = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        bool ok = k > 0 && i + k <= n;
        for (size_t j = 1; ok && j < k; j++)
            ok = (s[i + j] & 0xC0) == 0x80;
        if (!ok) {
            lesson_diag_add(l, line, "the text is not valid UTF-8 (byte 0x%02x)", c);
            return;
        }
        if (c == '\n')
            line++;
        i += k;
    }
}

/* Report each line that holds a character a terminal would obey (ESC, the
 * other controls, C1, bidirectional overrides): titles, text, quiz choices
 * and scene values are all printed, so none may carry them.  Bytes that
 * are not UTF-8 are check_utf8's. */
static void check_controls(struct lesson *l, const char *s, size_t n)
{
    int line = 1, reported = 0;
    for (size_t i = 0; i < n && reported < 20; line++) {
        const char *nl = memchr(s + i, '\n', n - i);
        size_t end = nl ? (size_t)(nl - s) : n;
        char what[64];
        size_t at = mha_text_find_unsafe(s + i, end - i, true, what, sizeof what);
        if (at < end - i && strncmp(what, "a byte", 6) != 0) {
            lesson_diag_add(l, line,
                            "the text holds %s, which a terminal would obey instead of "
                            "showing; remove it",
                            what);
            reported++;
        }
        i = end + 1;
    }
}

struct lesson *lesson_parse(const char *text, size_t len, const char *path)
{
    struct lesson *volatile l = calloc(1, sizeof *l);
    if (!l)
        return NULL;
    jmp_buf here;
    cmark_node *volatile doc = NULL;
    if (setjmp(here)) { /* out of memory somewhere below */
        oom_exit = NULL;
        cmark_node_free(doc);
        lesson_free(l);
        return NULL;
    }
    oom_exit = &here;
    l->path = lesson_strdup(path);
    const char *base = strrchr(path, '/');
    base = base ? base + 1 : path;
    if (base[0] >= '0' && base[0] <= '9')
        l->number = atoi(base);
    check_utf8(l, (const unsigned char *)text, len);
    check_controls(l, text, len);

    doc = cmark_parse_document(text, len, CMARK_OPT_VALIDATE_UTF8);
    struct parse_ctx cx = {l, text, len};
    struct lesson_step *st = NULL;
    for (cmark_node *n = cmark_node_first_child(doc); n; n = cmark_node_next(n)) {
        int line = cmark_node_get_start_line(n);
        if (cmark_node_get_type(n) == CMARK_NODE_THEMATIC_BREAK) {
            if (!st && l->n_steps == 0)
                lesson_diag_add(l, line, "the lesson starts with ---; put its title first");
            else if (!st)
                lesson_diag_add(l, line, "this --- ends an empty step (two breaks in a row?)");
            else if (st->n_blocks == 0 && !st->has_scene && !st->has_quiz)
                lesson_diag_add(l, line, "this --- ends an empty step (two breaks in a row?)");
            st = NULL;
            continue;
        }
        if (!l->title && cmark_node_get_type(n) == CMARK_NODE_HEADING &&
            cmark_node_get_heading_level(n) == 1) {
            char buf[256];
            size_t used = 0;
            buf[0] = '\0';
            plain_text(n, buf, sizeof buf, &used);
            l->title = lesson_strdup(buf);
            if (!st)
                st = new_step(l, line);
            continue;
        }
        if (!st)
            st = new_step(l, line);
        add_blocks(&cx, st, n, 0);
    }
    cmark_node_free(doc);
    doc = NULL;
    if (st && st->n_blocks == 0 && !st->has_scene && !st->has_quiz && l->n_steps > 1)
        lesson_diag_add(l, st->line, "the last step is empty (a --- at the end of the file?)");
    if (!l->title)
        lesson_diag_add(l, 1,
                        "the lesson has no title: start it with a level-1 heading "
                        "(# Title)");
    if (l->n_steps == 0)
        lesson_diag_add(l, 1, "the lesson has no steps");
    oom_exit = NULL;
    return l;
}

struct lesson *lesson_load(const char *path)
{
    struct mha_error err;
    char *buf;
    size_t n;
    if (safe_file_read(path, LESSON_MAX_BYTES, "lesson", &buf, &n, &err) != 0) {
        struct lesson *l = lesson_parse("", 0, path);
        if (l) {
            l->n_diags = 0;
            lesson_diag_add(l, 0, "%s", err.text);
        }
        return l;
    }
    struct lesson *l = lesson_parse(buf, n, path);
    free(buf);
    return l;
}

static void free_block(struct lesson_block *b)
{
    for (int i = 0; i < b->n_spans; i++)
        free(b->spans[i].text);
    free(b->spans);
    free(b->code);
    for (int i = 0; i < b->rows * b->cols; i++)
        free(b->cells[i]);
    free(b->cells);
}

void lesson_free(struct lesson *l)
{
    if (!l)
        return;
    for (int s = 0; s < l->n_steps; s++) {
        struct lesson_step *st = &l->steps[s];
        for (int b = 0; b < st->n_blocks; b++)
            free_block(&st->blocks[b]);
        free(st->blocks);
        free(st->title);
        lesson_scene_done(&st->scene);
        free(st->train_note);
        mha_example_free(st->train_example);
        lesson_scene_done(&st->reveal);
        lesson_quiz_done(&st->quiz);
    }
    free(l->steps);
    free(l->diags);
    free(l->title);
    free(l->path);
    free(l);
}
