/* ui_theme.c - the colour scales of the screen (from colorscale.c), the
 * choice of depth and theme, and the colour pairs. */
#include "ui/draw/ui_theme.h"

#include <curses.h>
#include <math.h>
#include <stdlib.h>

/* Colour pair numbers: roles first, then the scales, then the heads. */
enum {
    PAIR_ROLES = 1,
    PAIR_DIV = PAIR_ROLES + UI_ROLE_COUNT,
    PAIR_SEQ = PAIR_DIV + COLORSCALE_DIV_LEVELS,
    PAIR_HEAD = PAIR_SEQ + COLORSCALE_SEQ_LEVELS,
    /* then two levels of the sequential scale in one cell (ui_seq_half_attr),
     * the upper as the foreground, the lower, or the screen's own
     * background (the last of each row), as the background: levels x
     * (levels + 1) pairs, made where the terminal has them */
    PAIR_HALF = PAIR_HEAD + 8
};

/* The terminal colours a depth stands for, for colorscale's palettes. */
static int colours(enum ui_depth depth)
{
    return depth == UI_DEPTH_256 ? 256 : depth == UI_DEPTH_8 ? 8 : 0;
}

int ui_div_levels(enum ui_depth depth)
{
    const int n = colorscale_div_palette(COLORSCALE_THEME_DARK, colours(depth)).levels;
    return n > 0 ? n : 3;
}

int ui_seq_levels(enum ui_depth depth)
{
    const int n = colorscale_seq_palette(COLORSCALE_THEME_DARK, colours(depth)).levels;
    return n > 0 ? n : 5;
}

static bool level_colour(struct colorscale_palette p, int level, short *fg, short *bg)
{
    if (level < 0 || level >= p.levels)
        return false;
    *fg = p.fg[level];
    *bg = p.bg[level];
    return true;
}

bool ui_div_colour(enum colorscale_theme theme, enum ui_depth depth, int level, short *fg,
                   short *bg)
{
    return level_colour(colorscale_div_palette(theme, colours(depth)), level, fg, bg);
}

bool ui_seq_colour(enum colorscale_theme theme, enum ui_depth depth, int level, short *fg,
                   short *bg)
{
    return level_colour(colorscale_seq_palette(theme, colours(depth)), level, fg, bg);
}

const char *ui_shade_glyph(int level5, bool utf8)
{
    static const char *const shades[] = {" ", "░", "▒", "▓", "█"};
    static const char *const ascii[] = {" ", ".", ":", "*", "#"};
    if (level5 < 0)
        level5 = 0;
    if (level5 > 4)
        level5 = 4;
    return utf8 ? shades[level5] : ascii[level5];
}

enum ui_depth ui_depth_choose(bool no_color, bool has_colors, int colors)
{
    if (no_color || !has_colors || colors < 8)
        return UI_DEPTH_MONO;
    return colors >= 256 ? UI_DEPTH_256 : UI_DEPTH_8;
}

enum ui_depth ui_theme_depth(enum colorscale_theme theme, enum ui_depth terminal)
{
    return theme == COLORSCALE_THEME_MONO ? UI_DEPTH_MONO : terminal;
}

/* ---- curses ------------------------------------------------------------------------- */

/* Make every colour pair of the theme (nothing for a monochrome screen). */
static void make_pairs(const struct ui_theme *th)
{
    short fg, bg;
    ui_theme_defaults(th->name, th->depth, &fg, &bg);
    if (th->terminal != UI_DEPTH_MONO)
        assume_default_colors(fg, bg); /* -1, -1: the terminal's own */
    if (th->depth == UI_DEPTH_MONO)
        return;
    const bool c256 = th->depth == UI_DEPTH_256;
    for (int r = 0; r < UI_ROLE_COUNT; r++) {
        const struct ui_role_style *s = ui_role_style(th->name, (enum ui_role)r);
        init_pair((short)(PAIR_ROLES + r), c256 ? s->f256 : s->f8, c256 ? s->b256 : s->b8);
    }
    for (int l = 0; l < ui_div_levels(th->depth); l++)
        if (ui_div_colour(th->name, th->depth, l, &fg, &bg))
            init_pair((short)(PAIR_DIV + l), fg, bg);
    for (int l = 0; l < ui_seq_levels(th->depth); l++)
        if (ui_seq_colour(th->name, th->depth, l, &fg, &bg))
            init_pair((short)(PAIR_SEQ + l), fg, bg);
    for (int h = 0; h < ui_head_colours(th->depth); h++)
        init_pair((short)(PAIR_HEAD + h), ui_head_colour(th->name, th->depth, h), -1);
    const int levels = ui_seq_levels(th->depth);
    short top, bottom, unused;
    for (int a = 0; th->half && a < levels; a++)
        for (int b = 0; b <= levels && ui_seq_colour(th->name, th->depth, a, &unused, &top); b++)
            if (b == levels || ui_seq_colour(th->name, th->depth, b, &unused, &bottom))
                init_pair((short)(PAIR_HALF + a * (levels + 1) + b), top,
                          b == levels ? (short)-1 : bottom);
}

void ui_theme_init(struct ui_theme *th, bool utf8, enum colorscale_theme theme)
{
    const char *nc = getenv("NO_COLOR");
    th->utf8 = utf8;
    th->no_color = nc && nc[0];
    /* COLORS is known only after start_color */
    const bool colour = !th->no_color && has_colors() && start_color() != ERR;
    th->terminal = ui_depth_choose(th->no_color, colour, colour ? COLORS : 0);
    /* the half cells' pairs are the last: a terminal short of them keeps
     * its colours and draws a row to a line */
    if (th->terminal != UI_DEPTH_MONO && COLOR_PAIRS < PAIR_HALF)
        th->terminal = UI_DEPTH_MONO;
    th->pairs = COLOR_PAIRS;
    ui_theme_switch(th, theme);
}

void ui_theme_switch(struct ui_theme *th, enum colorscale_theme theme)
{
    th->name = theme >= 0 && theme < COLORSCALE_THEME_COUNT ? theme : COLORSCALE_THEME_DARK;
    th->depth = ui_theme_depth(th->name, th->terminal);
    const int levels = ui_seq_levels(th->depth);
    th->half =
        th->utf8 && th->depth != UI_DEPTH_MONO && th->pairs >= PAIR_HALF + levels * (levels + 1);
    make_pairs(th);
}

int ui_role_attr(const struct ui_theme *th, enum ui_role role)
{
    if (role < 0 || role >= UI_ROLE_COUNT)
        return 0;
    if (th->depth == UI_DEPTH_MONO)
        return ui_role_mono(role);
    return (int)COLOR_PAIR(PAIR_ROLES + (int)role) | ui_role_style(th->name, role)->attr;
}

int ui_div_attr(const struct ui_theme *th, float v, float range)
{
    if (th->depth == UI_DEPTH_MONO) /* large magnitudes stand out */
        return (range > 0.0f && fabsf(v) >= 0.5f * range) ? A_BOLD : 0;
    const int l = colorscale_div_level(v, range, ui_div_levels(th->depth));
    return (int)COLOR_PAIR(PAIR_DIV + l) | (th->name == COLORSCALE_THEME_PROJECTOR ? A_BOLD : 0);
}

int ui_seq_attr(const struct ui_theme *th, float p)
{
    const int l = colorscale_seq_level(p, ui_seq_levels(th->depth));
    if (th->depth == UI_DEPTH_MONO)
        return l >= 4 ? A_BOLD : 0;
    return (int)COLOR_PAIR(PAIR_SEQ + l) | (th->name == COLORSCALE_THEME_PROJECTOR ? A_BOLD : 0);
}

int ui_seq_half_attr(const struct ui_theme *th, float top, float bottom, bool bottom_blank)
{
    if (!th->half)
        return ui_seq_attr(th, top);
    const int levels = ui_seq_levels(th->depth);
    const int a = colorscale_seq_level(top, levels);
    const int b = bottom_blank ? levels : colorscale_seq_level(bottom, levels);
    return (int)COLOR_PAIR(PAIR_HALF + a * (levels + 1) + b);
}

int ui_head_attr(const struct ui_theme *th, int h)
{
    if (th->depth == UI_DEPTH_MONO)
        return (h % 2) ? A_BOLD : 0;
    return (int)COLOR_PAIR(PAIR_HEAD + h % ui_head_colours(th->depth)) | A_BOLD;
}
