/* ui_heatmap.c - the heatmap widget's cells (colour, or shade glyphs without
 * colour) and the legend line that explains every colour on screen. */
#include <stdio.h>
#include <string.h>

#include "ui/draw/ui_layout.h"
#include "ui/draw/ui_widget.h"

int ui_heatmap_cell_w(const struct ui_theme *th)
{
    /* " 0.42" on a coloured background; " ▒0.42" with a glyph in mono */
    return th->depth == UI_DEPTH_MONO ? 6 : 5;
}

void ui_heatmap_cell(WINDOW *win, int y, int x, float p, int cell_w, bool compact, bool cursor,
                     bool masked, const struct ui_theme *th)
{
    const bool mono = th->depth == UI_DEPTH_MONO;
    const char *glyph = ui_shade_glyph(colorscale_seq_level(p, 5), th->utf8);
    char num[16];
    ui_num_format(num, sizeof num, p, (struct ui_numfmt){2, 4});
    int attr = ui_seq_attr(th, p);
    if (masked)
        attr = ui_role_attr(th, UI_ROLE_MASKED);
    if (cursor)
        attr = ui_role_attr(th, UI_ROLE_CURSOR);
    wattrset(win, attr);
    wmove(win, y, x);
    if (compact) {
        if (cursor)
            waddstr(win, "[]");
        else if (mono || masked)
            for (int i = 0; i < cell_w; i++)
                waddstr(win, masked ? (th->utf8 ? "·" : ".") : glyph);
        else
            waddstr(win, "  ");
        return;
    }
    if (masked) {
        /* masked keys get exactly 0: say so quietly */
        for (int i = 0; i < cell_w - 1; i++)
            waddch(win, ' ');
        waddstr(win, th->utf8 ? "·" : ".");
        return;
    }
    /* right-aligned: " 0.42" on a coloured background, " ▒0.42" in mono */
    for (int i = mono ? 6 : 5; i < cell_w + 1; i++)
        waddch(win, ' ');
    if (mono)
        waddstr(win, glyph);
    waddstr(win, num);
}

/* A run of colour swatches for the diverging scale, most negative first. */
static int signed_swatches(WINDOW *win, int y, int x, const struct ui_theme *th)
{
    const int levels = ui_div_levels(th->depth);
    int used = 0;
    for (int l = 0; l < levels; l++) {
        /* a value in the middle of level l, on a scale of ±1 */
        float v = levels > 1 ? -1.0f + 2.0f * (float)l / (float)(levels - 1) : 0.0f;
        wattrset(win, ui_div_attr(th, v, 1.0f));
        mvwaddstr(win, y, x + used, "  ");
        used += 2;
    }
    return used;
}

static int prob_swatches(WINDOW *win, int y, int x, const struct ui_theme *th)
{
    int used = 0;
    if (th->depth == UI_DEPTH_MONO) {
        for (int l = 0; l < 5; l++) {
            wattrset(win, 0);
            mvwaddstr(win, y, x + used, ui_shade_glyph(l, th->utf8));
            used += 1;
        }
        return used;
    }
    const int levels = ui_seq_levels(th->depth);
    for (int l = 0; l < levels; l++) {
        float p = l == 0 ? 0.0f : ((float)l - 0.5f) / (float)(levels - 1);
        wattrset(win, ui_seq_attr(th, p));
        mvwaddstr(win, y, x + used, "  ");
        used += 2;
    }
    return used;
}

int ui_legend_prob_width(const struct ui_theme *th)
{
    /* "weight 0 " + the swatches + " 1" */
    return 9 + (th->depth == UI_DEPTH_MONO ? 5 : 2 * ui_seq_levels(th->depth)) + 2;
}

void ui_legend_draw(WINDOW *win, int y, int x, int maxw, unsigned parts, int heads,
                    const struct ui_theme *th)
{
    const int label = ui_role_attr(th, UI_ROLE_SHAPE);
    int used = 0;
    if (parts & UI_LEGEND_SIGNED) {
        if (th->depth == UI_DEPTH_MONO) {
            used += ui_put(win, y, x + used, "bold: |value| ≥ half of the matrix's largest",
                           maxw - used, label, th->utf8);
        } else if (maxw - used > 40) {
            used += ui_put(win, y, x + used, "−max ", maxw - used, label, th->utf8);
            used += signed_swatches(win, y, x + used, th);
            used += ui_put(win, y, x + used, " +max (each matrix its own max)", maxw - used, label,
                           th->utf8);
        }
    }
    if (parts & UI_LEGEND_COSINE) {
        if (th->depth == UI_DEPTH_MONO) {
            used += ui_put(win, y, x + used, "bold: |cosine| ≥ 0.5", maxw - used, label, th->utf8);
        } else if (maxw - used > 30) {
            used += ui_put(win, y, x + used, "cosine −1 ", maxw - used, label, th->utf8);
            used += signed_swatches(win, y, x + used, th);
            used +=
                ui_put(win, y, x + used, " +1 (1 = the same form)", maxw - used, label, th->utf8);
        }
    }
    if ((parts & UI_LEGEND_PROB) && maxw - used > 24) {
        used += ui_put(win, y, x + used, used ? "   weight 0 " : "weight 0 ", maxw - used, label,
                       th->utf8);
        used += prob_swatches(win, y, x + used, th);
        used += ui_put(win, y, x + used, " 1", maxw - used, label, th->utf8);
    }
    if (parts & UI_LEGEND_HEADS) {
        used += ui_put(win, y, x + used, used ? "   " : "", maxw - used, label, th->utf8);
        for (int h = 0; h < heads && h < 8 && maxw - used > 8; h++) {
            char text[24];
            snprintf(text, sizeof text, "head %d ", h);
            used += ui_put(win, y, x + used, text, maxw - used, ui_head_attr(th, h), th->utf8);
        }
        if (heads > 8)
            ui_put(win, y, x + used, "…", maxw - used, label, th->utf8);
    }
    wattrset(win, 0);
}
