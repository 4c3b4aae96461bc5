/* ui_theme.c - the role table, the colour scales and the colour pairs. */
#include "ui_theme.h"

#include <curses.h>
#include <math.h>
#include <stdlib.h>

struct role_colours {
    short f256, b256, f8, b8;
    int attr, mono;
};

#define UI_ROLE_ROW(name, f256, b256, f8, b8, attr, mono) {f256, b256, f8, b8, attr, mono},
static const struct role_colours roles[UI_ROLE_COUNT] = {UI_ROLES(UI_ROLE_ROW)};
#undef UI_ROLE_ROW

/* Diverging backgrounds, most negative first; the middle is "about zero" and
 * keeps the terminal's own colours.  Text is dark on light cells, light on
 * dark ones. */
static const short div256_bg[] = {25, 32, 68, 110, 153, -1, 224, 217, 210, 167, 124};
static const short div256_fg[] = {231, 231, 231, 16, 16, -1, 16, 16, 16, 231, 231};
static const short div8_bg[] = {COLOR_BLUE, COLOR_CYAN, -1, COLOR_YELLOW, COLOR_RED};
static const short div8_fg[] = {COLOR_WHITE, COLOR_BLACK, -1, COLOR_BLACK, COLOR_WHITE};

/* Sequential backgrounds for 0..1, dark blue through green to yellow. */
static const short seq256_bg[] = {-1, 17, 18, 25, 31, 37, 71, 149, 226};
static const short seq256_fg[] = {-1, 250, 231, 231, 231, 16, 16, 16, 16};
static const short seq8_bg[] = {-1, COLOR_BLUE, COLOR_CYAN, COLOR_GREEN, COLOR_YELLOW, COLOR_WHITE};
static const short seq8_fg[] = {-1,          COLOR_WHITE, COLOR_BLACK,
                                COLOR_BLACK, COLOR_BLACK, COLOR_BLACK};

static const short head256[] = {39, 208, 170, 114, 220, 203, 80, 141};
static const short head8[] = {COLOR_CYAN,  COLOR_YELLOW, COLOR_MAGENTA,
                              COLOR_GREEN, COLOR_RED,    COLOR_BLUE};

#define COUNT(a) ((int)(sizeof(a) / sizeof((a)[0])))

/* Colour pair numbers: roles first, then the scales, then the heads. */
enum {
    PAIR_ROLES = 1,
    PAIR_DIV = PAIR_ROLES + UI_ROLE_COUNT,
    PAIR_SEQ = PAIR_DIV + COUNT(div256_bg),
    PAIR_HEAD = PAIR_SEQ + COUNT(seq256_bg),
    PAIR_END = PAIR_HEAD + COUNT(head256)
};

int ui_div_levels(enum ui_depth depth)
{
    return depth == UI_DEPTH_256 ? COUNT(div256_bg) : depth == UI_DEPTH_8 ? COUNT(div8_bg) : 3;
}

int ui_seq_levels(enum ui_depth depth)
{
    return depth == UI_DEPTH_256 ? COUNT(seq256_bg) : depth == UI_DEPTH_8 ? COUNT(seq8_bg) : 5;
}

int ui_div_level(float v, float range, int levels)
{
    const int mid = levels / 2;
    if (levels < 2 || !(range > 0.0f) || isnan(v))
        return mid;
    double t = (double)v / (double)range; /* -1 .. 1 */
    if (t <= -1.0)
        return 0;
    if (t >= 1.0)
        return levels - 1;
    /* mid +- k, k = ceil(|t| * mid) but the smallest eighth stays neutral */
    if (fabs(t) < 0.5 / (double)(mid + 1))
        return mid;
    int k = (int)ceil(fabs(t) * (double)mid - 0.5);
    if (k < 1)
        k = 1;
    if (k > mid)
        k = mid;
    return t < 0 ? mid - k : mid + k;
}

int ui_seq_level(float p, int levels)
{
    if (levels < 2 || isnan(p) || p <= 0.0f)
        return 0;
    if (p >= 1.0f)
        return levels - 1;
    /* level 0 is exactly zero; the rest share (0, 1) evenly */
    int l = 1 + (int)((double)p * (double)(levels - 1));
    return l > levels - 1 ? levels - 1 : l;
}

bool ui_div_colour(enum ui_depth depth, int level, short *fg, short *bg)
{
    if (depth == UI_DEPTH_MONO || level < 0 || level >= ui_div_levels(depth))
        return false;
    *fg = depth == UI_DEPTH_256 ? div256_fg[level] : div8_fg[level];
    *bg = depth == UI_DEPTH_256 ? div256_bg[level] : div8_bg[level];
    return true;
}

bool ui_seq_colour(enum ui_depth depth, int level, short *fg, short *bg)
{
    if (depth == UI_DEPTH_MONO || level < 0 || level >= ui_seq_levels(depth))
        return false;
    *fg = depth == UI_DEPTH_256 ? seq256_fg[level] : seq8_fg[level];
    *bg = depth == UI_DEPTH_256 ? seq256_bg[level] : seq8_bg[level];
    return true;
}

int ui_head_colours(enum ui_depth depth)
{
    return depth == UI_DEPTH_256 ? COUNT(head256) : depth == UI_DEPTH_8 ? COUNT(head8) : 2;
}

short ui_head_colour(enum ui_depth depth, int h)
{
    if (depth == UI_DEPTH_MONO || h < 0)
        return -1;
    return depth == UI_DEPTH_256 ? head256[h % COUNT(head256)] : head8[h % COUNT(head8)];
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

/* ---- curses ------------------------------------------------------------------------- */

void ui_theme_init(struct ui_theme *th, bool utf8)
{
    const char *nc = getenv("NO_COLOR");
    th->utf8 = utf8;
    const bool no_color = nc && nc[0];
    /* COLORS is known only after start_color */
    const bool colour = !no_color && has_colors() && start_color() != ERR;
    th->depth = ui_depth_choose(no_color, colour, colour ? COLORS : 0);
    if (th->depth != UI_DEPTH_MONO && COLOR_PAIRS < PAIR_END)
        th->depth = UI_DEPTH_MONO;
    if (th->depth == UI_DEPTH_MONO)
        return;
    use_default_colors();
    const bool c256 = th->depth == UI_DEPTH_256;
    for (int r = 0; r < UI_ROLE_COUNT; r++)
        init_pair((short)(PAIR_ROLES + r), c256 ? roles[r].f256 : roles[r].f8,
                  c256 ? roles[r].b256 : roles[r].b8);
    short fg, bg;
    for (int l = 0; l < ui_div_levels(th->depth); l++)
        if (ui_div_colour(th->depth, l, &fg, &bg))
            init_pair((short)(PAIR_DIV + l), fg, bg);
    for (int l = 0; l < ui_seq_levels(th->depth); l++)
        if (ui_seq_colour(th->depth, l, &fg, &bg))
            init_pair((short)(PAIR_SEQ + l), fg, bg);
    for (int h = 0; h < ui_head_colours(th->depth); h++)
        init_pair((short)(PAIR_HEAD + h), ui_head_colour(th->depth, h), -1);
}

int ui_role_attr(const struct ui_theme *th, enum ui_role role)
{
    if (role < 0 || role >= UI_ROLE_COUNT)
        return 0;
    if (th->depth == UI_DEPTH_MONO)
        return roles[role].mono;
    return (int)COLOR_PAIR(PAIR_ROLES + (int)role) | roles[role].attr;
}

int ui_div_attr(const struct ui_theme *th, float v, float range)
{
    if (th->depth == UI_DEPTH_MONO) /* large magnitudes stand out */
        return (range > 0.0f && fabsf(v) >= 0.5f * range) ? A_BOLD : 0;
    return (int)COLOR_PAIR(PAIR_DIV + ui_div_level(v, range, ui_div_levels(th->depth)));
}

int ui_seq_attr(const struct ui_theme *th, float p)
{
    const int l = ui_seq_level(p, ui_seq_levels(th->depth));
    if (th->depth == UI_DEPTH_MONO)
        return l >= 4 ? A_BOLD : 0;
    return (int)COLOR_PAIR(PAIR_SEQ + l);
}

int ui_head_attr(const struct ui_theme *th, int h)
{
    if (th->depth == UI_DEPTH_MONO)
        return (h % 2) ? A_BOLD : 0;
    return (int)COLOR_PAIR(PAIR_HEAD + h % ui_head_colours(th->depth)) | A_BOLD;
}
