/* ui_explain_panel.c - "explain this number": the arithmetic behind the
 * cell under the cursor, written by the engine (explain.c), shown here.
 *
 * The panel lists as many terms of a sum as its height allows (the engine
 * sums and counts the rest in one line), keeps the term table a table in a
 * narrow pane (padding squeezed out of every row alike, never a row wrapped
 * in two), and always shows the result line "= value" on its last row. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "engine/explain.h"
#include "ui/panes/ui_panes.h"
#include "ui/draw/ui_pane_text.h"
#include "ui/draw/ui_text.h"
#include "ui/draw/ui_widget.h"

#define TABLE_ROWS 64
#define ROW_CHARS 256

/* What the panel shows, laid out for one width. */
struct panel {
    struct mha_explain e;
    char rows[MHA_EXPLAIN_TEXT_MAX + TABLE_ROWS]; /* the table rows, squeezed */
    struct ui_pane_text p;
};

/* The cell under the cursor; false when there is none. */
static bool cursor_cell(const struct ui_explain_view *v, struct mha_cell *cell)
{
    const struct ui_state *st = v->st;
    if (!st->focus || st->block < 0 || st->block >= v->n_blocks)
        return false;
    const struct ui_block *b = &v->blocks[st->block];
    if (!ui_block_selectable(b))
        return false;
    *cell = ui_block_cell(b, st->cur_r, st->cur_c);
    if (lesson_hide_covers(&st->hide, cell))
        return false; /* a checkpoint asks for it: no arithmetic until answered */
    return mha_cell_valid(st->tr, cell);
}

/* A row of a term table: two spaces, then an index and a space
 * ("   12 tok …"), or "  m=3 …". */
static bool table_row(const char *s, size_t len)
{
    if (len < 3 || s[0] != ' ' || s[1] != ' ')
        return false;
    if (len > 3 && s[2] == 'm' && s[3] == '=')
        return true;
    size_t i = 2;
    while (i < len && s[i] == ' ')
        i++;
    const size_t digits = i;
    while (i < len && s[i] >= '0' && s[i] <= '9')
        i++;
    return i > digits && i < len && s[i] == ' ';
}

static int wide_width(const wchar_t *w)
{
    int n = wcswidth(w, wcslen(w));
    return n >= 0 ? n : (int)wcslen(w);
}

/* Drop columns of padding (a space after a space in every row) from the
 * right until the widest row fits width, so the rows stay aligned. */
static void squeeze(wchar_t rows[][ROW_CHARS], int n, int width)
{
    for (;;) {
        int widest = 0;
        size_t longest = 0;
        for (int r = 0; r < n; r++) {
            const int w = wide_width(rows[r]);
            widest = w > widest ? w : widest;
            longest = wcslen(rows[r]) > longest ? wcslen(rows[r]) : longest;
        }
        if (widest <= width)
            return;
        size_t col = 0;
        for (size_t i = longest; i-- > 2 && !col;) {
            bool padding = true;
            for (int r = 0; r < n && padding; r++)
                padding = i >= wcslen(rows[r]) || (rows[r][i] == L' ' && rows[r][i - 1] == L' ');
            if (padding)
                col = i;
        }
        if (!col)
            return;
        for (int r = 0; r < n; r++)
            if (col < wcslen(rows[r]))
                wmemmove(rows[r] + col, rows[r] + col + 1, wcslen(rows[r]) - col);
    }
}

/* The explanation's lines: the title wrapped, then the text, its table rows
 * squeezed to the width and the rest wrapped. */
static void lay_out(struct panel *pn, int width, const struct ui_theme *th)
{
    static wchar_t wide[TABLE_ROWS][ROW_CHARS];
    const char *at[TABLE_ROWS];
    size_t at_len[TABLE_ROWS];
    int n_rows = 0;
    bool wide_ok = true;
    for (const char *s = pn->e.text; *s;) {
        const char *nl = strchr(s, '\n');
        const size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (table_row(s, len) && n_rows < TABLE_ROWS) {
            char one[ROW_CHARS * 4];
            snprintf(one, sizeof one, "%.*s", (int)len, s);
            if (mbstowcs(wide[n_rows], one, ROW_CHARS - 1) == (size_t)-1)
                wide_ok = false;
            wide[n_rows][ROW_CHARS - 1] = L'\0';
            at[n_rows] = s, at_len[n_rows] = len;
            n_rows++;
        }
        s += len + (nl ? 1 : 0);
    }
    if (wide_ok && th->utf8)
        squeeze(wide, n_rows, width);
    /* the squeezed rows, one after another in pn->rows */
    const char *row_s[TABLE_ROWS];
    size_t row_len[TABLE_ROWS], used = 0;
    for (int r = 0; r < n_rows; r++) {
        size_t k = wide_ok && th->utf8 ? wcstombs(pn->rows + used, wide[r], sizeof pn->rows - used)
                                       : (size_t)-1;
        if (k == (size_t)-1 || used + k + 1 > sizeof pn->rows) {
            row_s[r] = at[r], row_len[r] = at_len[r]; /* as the engine wrote it */
            continue;
        }
        row_s[r] = pn->rows + used, row_len[r] = k;
        used += k + 1;
    }

    pn->p.n = 0;
    pn->p.pin_last = true;
    struct ui_line lines[4];
    const int nt = ui_text_wrap(pn->e.title, width, th->utf8, lines, 4);
    for (int i = 0; i < nt && i < 4; i++)
        ui_pane_text_line(&pn->p, lines[i].start, lines[i].len, ui_role_attr(th, UI_ROLE_TITLE));
    int r = 0;
    for (const char *s = pn->e.text; *s;) {
        const char *nl = strchr(s, '\n');
        const size_t len = nl ? (size_t)(nl - s) : strlen(s);
        if (r < n_rows && s == at[r]) {
            ui_pane_text_line(&pn->p, row_s[r], row_len[r], ui_role_attr(th, UI_ROLE_LABEL));
            r++;
        } else {
            char one[1024];
            snprintf(one, sizeof one, "%.*s", (int)len, s);
            const int attr = s[0] == '=' ? ui_role_attr(th, UI_ROLE_FORMULA)
                             : len > 1 && s[0] == ' ' && s[1] == ' '
                                 ? ui_role_attr(th, UI_ROLE_LABEL)
                                 : 0;
            /* wrapped lines point into the engine's text, not into one */
            struct ui_line wl[32];
            const int nw = ui_text_wrap(one, width, th->utf8, wl, 32);
            for (int i = 0; i < nw && i < 32; i++)
                ui_pane_text_line(&pn->p, s + (wl[i].start - one), wl[i].len, attr);
        }
        s += len + (nl ? 1 : 0);
    }
}

/* Explain the cursor cell with as many terms listed (most) as fit body
 * lines (at least 3; the panel scrolls when even those do not fit). */
static bool build(const struct ui_explain_view *v, int width, int body, int most, struct panel *pn)
{
    struct mha_cell cell;
    if (!cursor_cell(v, &cell))
        return false;
    for (int max_terms = most;;) {
        struct mha_explain_options opt = {
            .ascii = !v->th->utf8,
            .generated = v->st->generated,
            .model = !v->st->generated && !v->st->baseline && v->st->load_model,
            .max_terms = max_terms,
        };
        if (mha_explain_cell(v->st->ex, v->st->tr, &cell, &opt, &pn->e, NULL) != 0)
            return false;
        lay_out(pn, width, v->th);
        if (pn->p.n <= body || max_terms <= 3 || pn->e.n_terms == 0)
            return true;
        max_terms = (pn->e.n_terms < max_terms ? pn->e.n_terms : max_terms) - 1;
    }
}

static struct panel *the_panel(void)
{
    static struct panel pn; /* 20 KiB: not on the stack of every caller */
    return &pn;
}

int ui_explain_panel_lines(const struct ui_explain_view *v, int width)
{
    struct panel *pn = the_panel();
    if (!build(v, width - 2, 1 << 20, 12, pn))
        return 3;
    return 1 + pn->p.n;
}

int ui_explain_panel_max_scroll(const struct ui_explain_view *v, int width, int height)
{
    struct panel *pn = the_panel();
    if (!build(v, width - 2, height - 1, 24, pn))
        return 0;
    return ui_pane_text_max_scroll(&pn->p, height - 1);
}

void ui_explain_panel_draw(WINDOW *win, const struct ui_explain_view *v, int width, int height)
{
    struct panel *pn = the_panel();
    const struct ui_theme *th = v->th;
    if (!build(v, width - 2, height - 1, 24, pn)) {
        ui_pane_title(win, "Explain", width, th);
        ui_put(win, 1, 1, "No number under the cursor.", width - 2, 0, th->utf8);
        return;
    }
    ui_pane_title(win, "Explain this number", width, th);
    ui_pane_text_draw(win, 1, height - 1, width - 2, &pn->p, v->st->side_scroll, th);
    if (1 + pn->p.n < height - 1)
        ui_put(win, height - 1, 1, "Esc closes · arrows move to another number", width - 2,
               ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
}
