/* layout.c - greedy word wrapping of styled spans by display width. */
#include "lesson/layout.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson_parse.h"
#include "io/utf8.h"

static struct lesson_line *add_line(struct lesson_layout *lay, enum lesson_block_kind kind,
                                    enum lesson_callout callout, int indent)
{
    struct lesson_line *l = realloc(lay->lines, (size_t)(lay->n_lines + 1) * sizeof *l);
    if (!l) {
        lay->oom = true;
        memset(&lay->sink, 0, sizeof lay->sink);
        lay->sink.sink = true;
        return &lay->sink;
    }
    lay->lines = l;
    l += lay->n_lines++;
    memset(l, 0, sizeof *l);
    l->kind = kind;
    l->callout = callout;
    l->indent = indent;
    return l;
}

/* Append text to line; out of memory marks the line failed. */
static void add_seg(struct lesson_line *line, const char *text, size_t len, unsigned style)
{
    if (len == 0 || line->sink || line->failed)
        return;
    if (line->n_segs > 0 && line->segs[line->n_segs - 1].style == style) {
        struct lesson_seg *s = &line->segs[line->n_segs - 1];
        size_t a = strlen(s->text);
        char *j = realloc(s->text, a + len + 1);
        if (!j) {
            line->failed = true;
            return;
        }
        memcpy(j + a, text, len);
        j[a + len] = '\0';
        s->text = j;
        return;
    }
    char *copy = malloc(len + 1);
    struct lesson_seg *s =
        copy ? realloc(line->segs, (size_t)(line->n_segs + 1) * sizeof *s) : NULL;
    if (!s) {
        free(copy);
        line->failed = true;
        return;
    }
    line->segs = s;
    s += line->n_segs++;
    s->text = copy;
    memcpy(s->text, text, len);
    s->text[len] = '\0';
    s->style = style;
}

/* Put text (unstyled) in front of a line's segments. */
static void prepend_seg(struct lesson_line *line, const char *text)
{
    if (line->sink || line->failed)
        return;
    char *copy = strdup(text);
    struct lesson_seg *s =
        copy ? realloc(line->segs, (size_t)(line->n_segs + 1) * sizeof *s) : NULL;
    if (!s) {
        free(copy);
        line->failed = true;
        return;
    }
    memmove(s + 1, s, (size_t)line->n_segs * sizeof *s);
    s[0].text = copy;
    s[0].style = 0;
    line->segs = s;
    line->n_segs++;
}

static void blank(struct lesson_layout *lay)
{
    if (lay->n_lines > 0 && !lay->lines[lay->n_lines - 1].blank)
        add_line(lay, LESSON_PARAGRAPH, LESSON_CALLOUT_NONE, 0)->blank = true;
}

struct wrapper {
    struct lesson_layout *lay;
    enum lesson_block_kind kind;
    enum lesson_callout callout;
    int indent, width; /* first column and columns available */
    struct lesson_line *line;
    int col; /* columns used on line */
    bool pending_space;
    unsigned space_style;
};

static void new_line(struct wrapper *w)
{
    w->line = add_line(w->lay, w->kind, w->callout, w->indent);
    w->col = 0;
    w->pending_space = false;
}

/* Place one word (no spaces) of len bytes. */
static void place_word(struct wrapper *w, const char *word, size_t len, unsigned style)
{
    int ww = utf8_width_n(word, len);
    if (w->col > 0 && w->col + (w->pending_space ? 1 : 0) + ww > w->width)
        new_line(w);
    if (w->pending_space && w->col > 0) {
        add_seg(w->line, " ", 1, w->space_style);
        w->col++;
    }
    w->pending_space = false;
    /* a word longer than the line is cut between characters */
    while (ww > w->width - w->col) {
        size_t used = 0;
        int cols = 0, cw;
        size_t n;
        while ((n = utf8_next(word + used, len - used, &cw)) > 0 &&
               w->col + cols + cw <= w->width) {
            used += n;
            cols += cw;
        }
        if (used == 0) {
            if (w->col == 0) { /* a character wider than the whole line: take it anyway */
                used = utf8_next(word, len, &cw);
                cols = cw;
            } else {
                new_line(w);
                continue;
            }
        }
        add_seg(w->line, word, used, style);
        word += used;
        len -= used;
        ww -= cols;
        new_line(w);
    }
    add_seg(w->line, word, len, style);
    w->col += ww;
}

/* A word made of pieces from neighbouring spans with no space between them
 * (`tok 1` and the "." after it): it wraps as one. */
struct word_piece {
    const char *text;
    size_t len;
    unsigned style;
};

static void place_pieces(struct wrapper *w, const struct word_piece *p, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += utf8_width_n(p[i].text, p[i].len);
    /* break before the whole word when it fits on a line of its own */
    if (n > 1 && w->col > 0 && total <= w->width &&
        w->col + (w->pending_space ? 1 : 0) + total > w->width)
        new_line(w);
    for (int i = 0; i < n; i++)
        place_word(w, p[i].text, p[i].len, p[i].style);
}

static void wrap_spans(struct wrapper *w, const struct lesson_span *spans, int n)
{
    enum { MAX_PIECES = 16 };
    struct word_piece word[MAX_PIECES];
    int pieces = 0;
    new_line(w);
    for (int i = 0; i < n; i++) {
        const char *t = spans[i].text;
        if (!strcmp(t, "\n") || !strcmp(t, "\n\n")) {
            place_pieces(w, word, pieces);
            pieces = 0;
            new_line(w);
            if (t[1] == '\n') {
                w->line->blank = false;
                new_line(w);
            }
            continue;
        }
        while (*t) {
            if (*t == ' ' || *t == '\n') {
                place_pieces(w, word, pieces);
                pieces = 0;
                w->pending_space = true;
                w->space_style = spans[i].style & LESSON_CODE ? spans[i].style : 0;
                t++;
                continue;
            }
            size_t len = strcspn(t, " \n");
            if (pieces == MAX_PIECES) {
                place_pieces(w, word, pieces);
                pieces = 0;
            }
            word[pieces++] = (struct word_piece){t, len, spans[i].style};
            t += len;
        }
    }
    place_pieces(w, word, pieces);
}

static void layout_table(struct lesson_layout *lay, const struct lesson_block *b, int width)
{
    int *cw = calloc((size_t)(b->cols > 0 ? b->cols : 1), sizeof *cw);
    if (!cw) {
        lay->oom = true;
        return;
    }
    for (int r = 0; r < b->rows; r++)
        for (int c = 0; c < b->cols; c++) {
            int w = utf8_width(b->cells[r * b->cols + c]);
            cw[c] = w > cw[c] ? w : cw[c];
        }
    /* shrink the widest columns until the table fits */
    int total = 0;
    for (int c = 0; c < b->cols; c++)
        total += cw[c] + (c ? 2 : 0);
    while (total > width) {
        int widest = 0;
        for (int c = 1; c < b->cols; c++)
            widest = cw[c] > cw[widest] ? c : widest;
        if (cw[widest] <= 3)
            break;
        cw[widest]--;
        total--;
    }
    for (int r = 0; r < b->rows; r++) {
        struct lesson_line *line = add_line(lay, LESSON_TABLE, LESSON_CALLOUT_NONE, 0);
        line->title = r == 0;
        for (int c = 0; c < b->cols; c++) {
            const char *cell = b->cells[r * b->cols + c];
            size_t fit = utf8_fit(cell, cw[c]);
            if (fit < strlen(cell) && cw[c] > 1) {
                fit = utf8_fit(cell, cw[c] - 1);
                add_seg(line, cell, fit, r == 0 ? LESSON_STRONG : 0);
                add_seg(line, "…", strlen("…"), r == 0 ? LESSON_STRONG : 0);
                fit = 0;
                for (int p = utf8_width_n(cell, utf8_fit(cell, cw[c] - 1)) + 1; p < cw[c]; p++)
                    add_seg(line, " ", 1, r == 0 ? LESSON_STRONG : 0);
            } else {
                add_seg(line, cell, fit, r == 0 ? LESSON_STRONG : 0);
                for (int p = utf8_width_n(cell, fit); p < cw[c]; p++)
                    add_seg(line, " ", 1, r == 0 ? LESSON_STRONG : 0);
            }
            if (c + 1 < b->cols)
                add_seg(line, "  ", 2, r == 0 ? LESSON_STRONG : 0);
        }
    }
    free(cw);
}

int lesson_layout_step(const struct lesson_step *step, int width, struct lesson_layout *out)
{
    memset(out, 0, sizeof *out);
    if (width < 10)
        width = 10;
    out->width = width;
    for (int i = 0; i < step->n_blocks; i++) {
        const struct lesson_block *b = &step->blocks[i];
        struct wrapper w = {.lay = out, .kind = b->kind, .callout = b->callout};
        switch (b->kind) {
        case LESSON_PARAGRAPH:
        case LESSON_HEADING:
            w.width = width;
            wrap_spans(&w, b->spans, b->n_spans);
            if (b->kind == LESSON_HEADING)
                for (int l = out->n_lines - 1;
                     l >= 0 && out->lines[l].kind == LESSON_HEADING && !out->lines[l].blank; l--)
                    for (int s = 0; s < out->lines[l].n_segs; s++)
                        out->lines[l].segs[s].style |= LESSON_STRONG;
            break;
        case LESSON_ITEM: {
            int lead = 2 * (b->level > 0 ? b->level - 1 : 0);
            int bw = utf8_width(b->bullet) + 1;
            w.indent = lead + bw;
            w.width = width - w.indent > 8 ? width - w.indent : 8;
            int first = out->n_lines;
            wrap_spans(&w, b->spans, b->n_spans);
            /* the bullet goes in the indent of the item's first line */
            if (first >= out->n_lines)
                break; /* no line could be made (out of memory) */
            struct lesson_line *l = &out->lines[first];
            char bullet[24];
            snprintf(bullet, sizeof bullet, "%s ", b->bullet);
            prepend_seg(l, bullet);
            l->indent = lead;
            break;
        }
        case LESSON_CALLOUT: {
            struct lesson_line *t = add_line(out, LESSON_CALLOUT, b->callout, 2);
            t->title = true;
            const char *title = lesson_callout_title(b->callout);
            add_seg(t, title, utf8_fit(title, width - 2), LESSON_STRONG);
            w.indent = 2;
            w.width = width - 2;
            wrap_spans(&w, b->spans, b->n_spans);
            break;
        }
        case LESSON_QUOTE:
            w.indent = 2;
            w.width = width - 2;
            wrap_spans(&w, b->spans, b->n_spans);
            break;
        case LESSON_CODE_BLOCK: {
            const char *p = b->code;
            while (p) {
                const char *nl = strchr(p, '\n');
                size_t len = nl ? (size_t)(nl - p) : strlen(p);
                struct lesson_line *l = add_line(out, LESSON_CODE_BLOCK, LESSON_CALLOUT_NONE, 2);
                add_seg(l, p, utf8_fit(p, width - 2) < len ? utf8_fit(p, width - 2) : len,
                        LESSON_CODE);
                p = nl ? nl + 1 : NULL;
            }
            break;
        }
        case LESSON_TABLE:
            layout_table(out, b, width);
            break;
        }
        /* list items stay together; everything else is followed by a blank line */
        bool next_item = i + 1 < step->n_blocks && step->blocks[i + 1].kind == LESSON_ITEM;
        if (!(b->kind == LESSON_ITEM && next_item))
            blank(out);
    }
    /* drop a trailing blank line */
    if (out->n_lines > 0 && out->lines[out->n_lines - 1].blank)
        out->n_lines--;
    for (int i = 0; i < out->n_lines && !out->oom; i++)
        out->oom = out->lines[i].failed;
    if (out->oom) {
        lesson_layout_done(out);
        out->oom = true;
        return -1;
    }
    return 0;
}

void lesson_layout_done(struct lesson_layout *lay)
{
    for (int i = 0; i < lay->n_lines; i++) {
        for (int s = 0; s < lay->lines[i].n_segs; s++)
            free(lay->lines[i].segs[s].text);
        free(lay->lines[i].segs);
    }
    /* the dropped trailing blank line (if any) has no segments */
    free(lay->lines);
    memset(lay, 0, sizeof *lay);
}

char *lesson_line_text(const struct lesson_line *line)
{
    size_t len = (size_t)line->indent;
    for (int s = 0; s < line->n_segs; s++)
        len += strlen(line->segs[s].text);
    char *t = malloc(len + 1);
    if (!t)
        return NULL;
    memset(t, ' ', (size_t)line->indent);
    size_t o = (size_t)line->indent;
    for (int s = 0; s < line->n_segs; s++) {
        size_t n = strlen(line->segs[s].text);
        memcpy(t + o, line->segs[s].text, n);
        o += n;
    }
    t[o] = '\0';
    return t;
}
