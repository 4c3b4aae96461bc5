/* ui_train_heads.c - a model's heads on the training screen: the grid of
 * their heatmaps on the sample sequence, its cells as large as the room
 * allows, each head titled with what it was measured to do
 * (ui_train_draw.h). */
#include <stdio.h>
#include <string.h>

#include "ui/draw/ui_text.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"
#include "ui/train/ui_train_draw.h"
#include "train/trun.h"

/* The rows of a head's map (weights w, NULL: not yet) two to a line from
 * line y, each line labelled with its two tokens, cut at line max_y. */
static void draw_half_rows(WINDOW *win, int y, int x, const struct train_model *m, const float *w,
                           const struct ui_train_heads *g, int max_y, const struct ui_theme *th)
{
    const int len = m->sample_len;
    const bool spaced = g->label_w >= 5; /* "ab cd " */
    const int each = spaced ? (g->label_w - 2) / 2 : g->label_w / 2;
    for (int i = 0; i < len && y + i / 2 < max_y; i += 2) {
        const int line = y + i / 2;
        char lab[64];
        ui_cut_token(m->vocab_names[m->sample[i]], each, th->utf8, lab, sizeof lab);
        ui_put(win, line, x, lab, each, ui_role_attr(th, UI_ROLE_LABEL), th->utf8);
        if (i + 1 < len) {
            ui_cut_token(m->vocab_names[m->sample[i + 1]], each, th->utf8, lab, sizeof lab);
            ui_put(win, line, x + each + (spaced ? 1 : 0), lab, each,
                   ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
        }
        for (int j = 0; j < len; j++) {
            const bool last = i + 1 >= len;
            const float top = w ? w[(size_t)i * len + j] : 0.0f;
            const float bottom = w && !last ? w[(size_t)(i + 1) * len + j] : 0.0f;
            ui_half_cell(win, line, x + g->label_w + j, top, bottom, m->cfg.causal && j > i,
                         last || (m->cfg.causal && j > i + 1), th);
        }
    }
    wattrset(win, 0);
}

/* Cell sizes, the roomiest first; a terminal's character is about twice as
 * tall as wide, so w = 2h is square. */
static const struct {
    int w, h;
} cells[] = {{6, 3}, {5, 3}, {4, 2}, {3, 2}, {4, 1}, {3, 1}, {2, 1}, {1, 1}};
#define N_CELLS ((int)(sizeof cells / sizeof cells[0]))

/* The widest token of the sample (at most max columns) and a space. */
static int label_width(const struct train_model *m, bool utf8, int max)
{
    int w = 1;
    for (int i = 0; i < m->sample_len; i++) {
        const int tw = ui_text_width(m->vocab_names[m->sample[i]], utf8);
        w = tw > w ? tw : w;
    }
    return (w > max ? max : w) + 1;
}

/* Row labels cut to 3 columns unless there is room: a word's labels grow
 * to up to 9 columns where the grid of heads keeps its cells and its heads
 * across. */
#define LABEL_MIN 3
#define LABEL_MAX 9

/* A line of half cells is labelled with its two rows' tokens side by side
 * in the columns a row's label takes: "SM" on letters, the upper token
 * brighter (ui_train_heads.c's draw_half_rows), "magi" on words, "ma gi"
 * where the labels have room. */
static int half_label_w(const struct train_model *m, bool utf8)
{
    return label_width(m, utf8, LABEL_MIN);
}

/* Lines a head takes under its title: the key positions and one line per
 * query row; or, half, one line per two rows and no positions (the compact
 * form, for a screen too short for the other: the rows' tokens label it). */
static int map_lines(int len, int cell_h, bool half)
{
    return half ? (len + 1) / 2 : 1 + len * cell_h;
}

/* The grid of m's heads with cells c (half: two rows of 1 x 1 cells to a
 * line) and gap columns between heads, as many across as w allows; true
 * when the whole grid fits w x h. */
static bool heads_try(const struct train_model *m, int label_w, int c, bool half, int gap, int w,
                      int h, struct ui_train_heads *g)
{
    const int len = m->sample_len, heads = m->cfg.heads;
    const int hw = label_w + len * cells[c].w, hh = 1 + map_lines(len, cells[c].h, half);
    int across = (w + gap) / (hw + gap);
    across = across < 1 ? 1 : across > heads ? heads : across;
    const int rows = (heads + across - 1) / across;
    *g = (struct ui_train_heads){label_w,   cells[c].w, cells[c].h,
                                 half,      gap,        across,
                                 rows,      heads,      across * hw + (across - 1) * gap,
                                 rows * hh, w};
    return g->w <= w && g->h <= h;
}

/* The roomiest grid of m's heads that fits w x h (true); when none does,
 * the smallest, cut to the rows of heads that fit (false). */
/* g fits: its row labels as wide as the tokens ask (up to LABEL_MAX) where
 * the same cells and the same heads across still fit w x h. */
static void heads_wider_labels(const struct train_model *m, bool utf8, int w, int h,
                               struct ui_train_heads *g)
{
    int cell = 0;
    while (cell < N_CELLS - 1 && (cells[cell].w != g->cell_w || cells[cell].h != g->cell_h))
        cell++;
    struct ui_train_heads wide;
    for (int lw = label_width(m, utf8, LABEL_MAX); lw > g->label_w; lw--)
        if (heads_try(m, lw, cell, g->half, g->gap, w, h, &wide) && wide.across == g->across) {
            *g = wide;
            break;
        }
}

bool ui_train_heads_fit(const struct train_model *m, bool utf8, bool half, int w, int h,
                        struct ui_train_heads *g)
{
    const int label_w = label_width(m, utf8, LABEL_MIN);
    for (int c = 0; c < N_CELLS; c++)
        if (heads_try(m, label_w, c, false, 2, w, h, g)) {
            heads_wider_labels(m, utf8, w, h, g);
            return true;
        }
    if (heads_try(m, label_w, N_CELLS - 1, false, 1, w, h, g) ||
        (half && heads_try(m, half_label_w(m, utf8), N_CELLS - 1, true, 1, w, h, g))) {
        heads_wider_labels(m, utf8, w, h, g);
        return true;
    }
    /* cut: the grid that shows the most rows */
    if (half)
        heads_try(m, half_label_w(m, utf8), N_CELLS - 1, true, 1, w, h, g);
    else
        heads_try(m, label_w, N_CELLS - 1, false, 1, w, h, g);
    const int hh = 1 + map_lines(m->sample_len, 1, half);
    int rows = h / hh;
    rows = rows < 1 ? 1 : rows > g->rows ? g->rows : rows;
    g->rows = rows;
    g->shown = rows * g->across < g->shown ? rows * g->across : g->shown;
    g->h = rows * hh < h ? rows * hh : h;
    return false;
}

/* The smallest grid of m's heads in one row (or as few rows as w allows). */
void ui_train_heads_smallest(const struct train_model *m, bool utf8, bool half, int w,
                             struct ui_train_heads *g)
{
    if (half)
        heads_try(m, half_label_w(m, utf8), N_CELLS - 1, true, 1, w, 1 << 20, g);
    else
        heads_try(m, label_width(m, utf8, LABEL_MIN), N_CELLS - 1, false, 1, w, 1 << 20, g);
}

/* Head h of model m at (y, x) in the cells of g, cut at line max_y: its
 * title and what it was measured to do (role NULL: not measured) in title_w
 * columns (the last head of a row may take the room right of it), the key
 * positions above the columns, one row per query labelled with its token. */
static void draw_head(WINDOW *win, int y, int x, int h, int title_w, const struct train_model *m,
                      const struct train_head_stats *role, const char *jobs,
                      const struct ui_train_heads *g, int max_y, const struct ui_theme *th)
{
    const int len = m->sample_len, cw = g->cell_w, ch = g->cell_h;
    const int hw = g->label_w + len * cw;
    const float *w = train_head_weights(m, h);
    char title[64], what[72] = "";
    const bool narrow = hw < 16;
    snprintf(title, sizeof title, narrow ? "h%d" : "head %d", h);
    if (jobs && jobs[0]) { /* a text's jobs, measured by knocking it out: what it is for */
        snprintf(what, sizeof what, " %.46s", jobs);
    } else if (role && role->kind != TRAIN_HEAD_NONE) {
        /* "prev .97", "first .52 / prev .42"; short of room, the first
         * letters with the shares ("f.52/p.42", then "f52/p42"), then the
         * places alone */
        char label[64];
        train_head_label(role, label, sizeof label);
        snprintf(what, sizeof what, " %s", label);
        const int tw = ui_text_width(title, th->utf8);
        if (tw + ui_text_width(what, th->utf8) > title_w && role->kind2 != TRAIN_HEAD_NONE) {
            snprintf(what, sizeof what, " %.1s.%02d/%.1s.%02d", train_head_kind_short(role->kind),
                     (int)(role->share * 100.0f + 0.5f) % 100, train_head_kind_short(role->kind2),
                     (int)(role->share2 * 100.0f + 0.5f) % 100);
            if (tw + ui_text_width(what, th->utf8) > title_w) /* "f54/p43": in hundredths */
                snprintf(what, sizeof what, " %.1s%02d/%.1s%02d", train_head_kind_short(role->kind),
                         (int)(role->share * 100.0f + 0.5f) % 100,
                         train_head_kind_short(role->kind2),
                         (int)(role->share2 * 100.0f + 0.5f) % 100);
            if (tw + ui_text_width(what, th->utf8) > title_w)
                snprintf(what, sizeof what, " %s/%s", train_head_kind_short(role->kind),
                         train_head_kind_short(role->kind2));
        } else if (tw + ui_text_width(what, th->utf8) > title_w) {
            snprintf(what, sizeof what, " %s", train_head_kind_short(role->kind));
        }
    }
    const int used = ui_put(win, y, x, title, title_w, ui_head_attr(th, h), th->utf8);
    if (what[0])
        ui_put(win, y, x + used, what, title_w - used, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    const int label = ui_role_attr(th, UI_ROLE_SHAPE);
    if (g->half) {
        draw_half_rows(win, y + 1, x, m, w, g, max_y, th);
        return;
    }
    for (int j = 0; j < len && y + 1 < max_y; j++) {
        char num[8];
        snprintf(num, sizeof num, "%*d", cw, j % (cw >= 2 ? 100 : 10));
        ui_put(win, y + 1, x + g->label_w + j * cw, num, cw, label, th->utf8);
    }
    for (int i = 0; i < len; i++) {
        const int row_y = y + 2 + i * ch;
        const char *tok = m->vocab_names[m->sample[i]];
        /* a token as wide as the label's columns takes its space too: a
         * name whole ("hugo") reads better than one cut ("hu…") */
        char lab[16];
        const int lw = ui_text_width(tok, th->utf8) == g->label_w ? g->label_w : g->label_w - 1;
        ui_text_fit(tok, lw, th->utf8, lab, sizeof lab);
        if (row_y + ch / 2 < max_y)
            ui_put(win, row_y + ch / 2, x, lab, lw, ui_role_attr(th, UI_ROLE_LABEL), th->utf8);
        for (int r = 0; r < ch && row_y + r < max_y; r++)
            for (int j = 0; j < len; j++) {
                const bool masked = m->cfg.causal && j > i;
                ui_heat_cell(win, row_y + r, x + g->label_w + j * cw,
                             w ? w[(size_t)i * len + j] : 0.0f, cw, masked, r == ch / 2, th);
            }
    }
    wattrset(win, 0);
}

/* The query rows of a head's map that lines lines (from its title) show
 * whole, less the last line when some do not fit: it counts them. */
static int rows_cut(const struct train_model *m, const struct ui_train_heads *g, int lines)
{
    const int len = m->sample_len;
    if (lines >= 1 + map_lines(len, g->cell_h, g->half))
        return 0;
    const int room = lines - 1 - (g->half ? 0 : 1) - 1; /* title, positions, the count */
    const int shown = room < 0 ? 0 : g->half ? 2 * room : room / g->cell_h;
    return len - (shown < len ? shown : len);
}

/* The heads of m in the grid g from (y, x), cut at line max_y; heads that
 * did not fit are counted on the last line, and so are the rows of a
 * single row of heads too tall for its lines. */
void ui_train_draw_heads(WINDOW *win, int y, int x, const struct ui_train_heads *g, int max_y,
                         const struct train_model *m, const struct train_head_stats *roles,
                         char (*jobs)[TRUN_JOBS_LABEL], const struct ui_theme *th)
{
    const int hw = g->label_w + m->sample_len * g->cell_w;
    const int hh = 1 + map_lines(m->sample_len, g->cell_h, g->half);
    for (int i = 0; i < g->shown; i++) {
        const int at = (i % g->across) * (hw + g->gap);
        const bool last = i % g->across == g->across - 1 || i == g->shown - 1;
        draw_head(win, y + (i / g->across) * hh, x + at, i,
                  last && g->room > at + hw ? g->room - at : hw, m, roles ? &roles[i] : NULL,
                  jobs ? jobs[i] : NULL, g, max_y, th);
    }
    const int rest = m->cfg.heads - g->shown;
    const int cut = g->shown > 0 && max_y - y >= 3 ? rows_cut(m, g, max_y - y) : 0;
    if (cut > 0) { /* in place of the last row that shows */
        char more[160], heads[48] = "";
        if (rest > 0)
            snprintf(heads, sizeof heads, ", +%d head%s", rest, rest == 1 ? "" : "s");
        const int w = g->room > g->w ? g->room : g->w;
        const int n = snprintf(more, sizeof more, "%s%d more row%s of each head%s",
                               ui_more_arrow(true, th->utf8), cut, cut == 1 ? "" : "s", heads);
        const char *why = " (a taller terminal shows them)";
        if (ui_text_width(more, th->utf8) + ui_text_width(why, th->utf8) <= w)
            snprintf(more + n, sizeof more - (size_t)n, "%s", why);
        ui_fill(win, max_y - 1, x, w, 0);
        ui_put(win, max_y - 1, x, more, w, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
        return;
    }
    if (rest > 0) {
        char more[96];
        const int at = (g->shown % g->across) * (hw + g->gap);
        const int room = (g->room > g->w ? g->room : g->w) - at, w = room > 24 ? room : 24;
        const int n =
            snprintf(more, sizeof more, "+%d head%s not shown", rest, rest == 1 ? "" : "s");
        const char *why = " (a larger terminal shows them)";
        if (ui_text_width(more, th->utf8) + ui_text_width(why, th->utf8) <= w)
            snprintf(more + n, sizeof more - (size_t)n, "%s", why);
        ui_put(win, max_y - 1, x + at, more, w, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    }
}
