/* ui_palette.c - the colours of every role in each colour theme, the heads'
 * colours, and the attributes of the monochrome screen.  The heatmap
 * scales live in colorscale.c, shared with the exports. */
#include <curses.h>

#include "ui/draw/ui_theme.h"

/* role, fg 256, bg 256, fg 8, bg 8, extra attributes */
#define R(role, f256, b256, f8, b8, attr) [role] = {true, f256, b256, f8, b8, attr}

/* Dark terminals: light text, amber for what is current, blue titles. */
static const struct ui_role_style dark[UI_ROLE_COUNT] = {
    R(UI_ROLE_NORMAL, -1, -1, -1, -1, 0),
    R(UI_ROLE_BAR, 252, 236, 7, 4, 0),
    R(UI_ROLE_BAR_CURRENT, 16, 214, 0, 3, A_BOLD),
    R(UI_ROLE_BAR_ARROW, 244, 236, 6, 4, 0),
    R(UI_ROLE_STATUS, 252, 238, 0, 7, 0),
    R(UI_ROLE_STATUS_KEY, 214, 238, 4, 7, A_BOLD),
    R(UI_ROLE_TITLE, 75, -1, 6, -1, A_BOLD),
    R(UI_ROLE_SHAPE, 244, -1, 7, -1, 0),
    R(UI_ROLE_LABEL, 250, -1, 7, -1, 0),
    R(UI_ROLE_LABEL_HOT, 214, -1, 3, -1, A_BOLD),
    R(UI_ROLE_CURSOR, 16, 214, 0, 3, A_BOLD),
    R(UI_ROLE_FORMULA, 222, -1, 3, -1, A_BOLD),
    R(UI_ROLE_PANE_TITLE, 16, 110, 0, 6, A_BOLD),
    R(UI_ROLE_BORDER, 240, -1, 4, -1, 0),
    R(UI_ROLE_INFO, 114, -1, 2, -1, 0),
    R(UI_ROLE_ERROR, 231, 124, 7, 1, A_BOLD),
    R(UI_ROLE_PROMPT, 214, -1, 3, -1, A_BOLD),
    R(UI_ROLE_MASKED, 240, -1, 7, -1, 0),
    R(UI_ROLE_HELP_KEY, 214, -1, 3, -1, A_BOLD),
    R(UI_ROLE_NOTICE, 231, 24, 7, 4, A_BOLD),
    R(UI_ROLE_CODE, 223, 236, 3, -1, 0),
    R(UI_ROLE_ANALOGY, 141, -1, 5, -1, A_BOLD),
    R(UI_ROLE_WHATIF, 209, -1, 1, -1, A_BOLD),
    R(UI_ROLE_INSIGHT, 114, -1, 2, -1, A_BOLD),
    R(UI_ROLE_QUIZ, 220, -1, 3, -1, A_BOLD),
    R(UI_ROLE_RIGHT, 114, -1, 2, -1, A_BOLD),
    R(UI_ROLE_WRONG, 209, -1, 1, -1, A_BOLD),
    R(UI_ROLE_BIG_TITLE, 75, -1, 6, -1, A_BOLD),
    R(UI_ROLE_PLAYING, 16, 114, 0, 2, A_BOLD),
};

/* Light terminals: dark text, no pale greys or yellows on the background. */
static const struct ui_role_style light[UI_ROLE_COUNT] = {
    R(UI_ROLE_NORMAL, -1, -1, -1, -1, 0),
    R(UI_ROLE_BAR, 236, 252, 0, 7, 0),
    R(UI_ROLE_BAR_CURRENT, 231, 25, 7, 4, A_BOLD),
    R(UI_ROLE_BAR_ARROW, 240, 252, 4, 7, 0),
    R(UI_ROLE_STATUS, 236, 252, 0, 7, 0),
    R(UI_ROLE_STATUS_KEY, 25, 252, 4, 7, A_BOLD),
    R(UI_ROLE_TITLE, 25, -1, 4, -1, A_BOLD),
    R(UI_ROLE_SHAPE, 240, -1, 0, -1, 0),
    R(UI_ROLE_LABEL, 238, -1, 0, -1, 0),
    R(UI_ROLE_LABEL_HOT, 166, -1, 1, -1, A_BOLD),
    R(UI_ROLE_CURSOR, 231, 166, 0, 3, A_BOLD),
    R(UI_ROLE_FORMULA, 90, -1, 5, -1, A_BOLD),
    R(UI_ROLE_PANE_TITLE, 231, 67, 7, 4, A_BOLD),
    R(UI_ROLE_BORDER, 246, -1, 4, -1, 0),
    R(UI_ROLE_INFO, 28, -1, 2, -1, 0),
    R(UI_ROLE_ERROR, 231, 124, 7, 1, A_BOLD),
    R(UI_ROLE_PROMPT, 166, -1, 1, -1, A_BOLD),
    R(UI_ROLE_MASKED, 246, -1, 6, -1, 0),
    R(UI_ROLE_HELP_KEY, 25, -1, 4, -1, A_BOLD),
    R(UI_ROLE_NOTICE, 231, 25, 7, 4, A_BOLD),
    R(UI_ROLE_CODE, 88, 254, 1, -1, 0),
    R(UI_ROLE_ANALOGY, 91, -1, 5, -1, A_BOLD),
    R(UI_ROLE_WHATIF, 166, -1, 1, -1, A_BOLD),
    R(UI_ROLE_INSIGHT, 28, -1, 2, -1, A_BOLD),
    R(UI_ROLE_QUIZ, 130, -1, 5, -1, A_BOLD),
    R(UI_ROLE_RIGHT, 28, -1, 2, -1, A_BOLD),
    R(UI_ROLE_WRONG, 160, -1, 1, -1, A_BOLD),
    R(UI_ROLE_BIG_TITLE, 25, -1, 4, -1, A_BOLD),
    R(UI_ROLE_PLAYING, 231, 28, 7, 2, A_BOLD),
};

/* A projector: black on white, navy and dark red, everything that labels
 * something bold, and no grey text at all. */
static const struct ui_role_style projector[UI_ROLE_COUNT] = {
    R(UI_ROLE_NORMAL, -1, -1, -1, -1, 0),
    R(UI_ROLE_BAR, 231, 18, 7, 4, A_BOLD),
    R(UI_ROLE_BAR_CURRENT, 16, 220, 0, 3, A_BOLD),
    R(UI_ROLE_BAR_ARROW, 231, 18, 7, 4, A_BOLD),
    R(UI_ROLE_STATUS, 231, 18, 7, 4, A_BOLD),
    R(UI_ROLE_STATUS_KEY, 220, 18, 3, 4, A_BOLD),
    R(UI_ROLE_TITLE, 18, -1, 4, -1, A_BOLD),
    R(UI_ROLE_SHAPE, 16, -1, 0, -1, 0),
    R(UI_ROLE_LABEL, 16, -1, 0, -1, A_BOLD),
    R(UI_ROLE_LABEL_HOT, 160, -1, 1, -1, A_BOLD | A_UNDERLINE),
    R(UI_ROLE_CURSOR, 231, 16, 7, 0, A_BOLD),
    R(UI_ROLE_FORMULA, 88, -1, 1, -1, A_BOLD),
    R(UI_ROLE_PANE_TITLE, 231, 18, 7, 4, A_BOLD),
    R(UI_ROLE_BORDER, 18, -1, 4, -1, 0),
    R(UI_ROLE_INFO, 22, -1, 2, -1, A_BOLD),
    R(UI_ROLE_ERROR, 231, 160, 7, 1, A_BOLD),
    R(UI_ROLE_PROMPT, 88, -1, 1, -1, A_BOLD),
    R(UI_ROLE_MASKED, 18, -1, 4, -1, 0),
    R(UI_ROLE_HELP_KEY, 18, -1, 4, -1, A_BOLD),
    R(UI_ROLE_NOTICE, 231, 18, 7, 4, A_BOLD),
    R(UI_ROLE_CODE, 88, 255, 1, -1, A_BOLD),
    R(UI_ROLE_ANALOGY, 54, -1, 5, -1, A_BOLD),
    R(UI_ROLE_WHATIF, 124, -1, 1, -1, A_BOLD),
    R(UI_ROLE_INSIGHT, 22, -1, 2, -1, A_BOLD),
    R(UI_ROLE_QUIZ, 18, -1, 4, -1, A_BOLD | A_UNDERLINE),
    R(UI_ROLE_RIGHT, 22, -1, 2, -1, A_BOLD),
    R(UI_ROLE_WRONG, 160, -1, 1, -1, A_BOLD | A_UNDERLINE),
    R(UI_ROLE_BIG_TITLE, 18, -1, 4, -1, A_BOLD),
    R(UI_ROLE_PLAYING, 231, 22, 7, 2, A_BOLD),
};

#undef R

#define UI_ROLE_MONO(name, mono) [name] = mono,
static const int mono[UI_ROLE_COUNT] = {UI_ROLES(UI_ROLE_MONO)};
#undef UI_ROLE_MONO

const struct ui_role_style *ui_role_style(enum colorscale_theme theme, enum ui_role role)
{
    if (role < 0 || role >= UI_ROLE_COUNT)
        return NULL;
    switch (theme) {
    case COLORSCALE_THEME_DARK:
        return &dark[role];
    case COLORSCALE_THEME_LIGHT:
        return &light[role];
    case COLORSCALE_THEME_PROJECTOR:
        return &projector[role];
    default:
        return NULL;
    }
}

int ui_role_mono(enum ui_role role)
{
    return role >= 0 && role < UI_ROLE_COUNT ? mono[role] : 0;
}

void ui_theme_defaults(enum colorscale_theme theme, enum ui_depth depth, short *fg, short *bg)
{
    *fg = *bg = -1;
    if (theme != COLORSCALE_THEME_PROJECTOR || depth == UI_DEPTH_MONO)
        return;
    *fg = depth == UI_DEPTH_256 ? 16 : COLOR_BLACK;
    *bg = depth == UI_DEPTH_256 ? 231 : COLOR_WHITE;
}

/* Heads: distinct hues that read on the theme's background. */
#define HEAD_COLOURS 8
#define HEAD_COLOURS_8 6
static const short head256_dark[HEAD_COLOURS] = {39, 208, 170, 114, 220, 203, 80, 141};
static const short head256_light[HEAD_COLOURS] = {25, 166, 127, 28, 94, 160, 30, 91};
static const short head8_dark[HEAD_COLOURS_8] = {COLOR_CYAN,  COLOR_YELLOW, COLOR_MAGENTA,
                                                 COLOR_GREEN, COLOR_RED,    COLOR_BLUE};
static const short head8_light[HEAD_COLOURS_8] = {COLOR_BLUE,  COLOR_RED,  COLOR_MAGENTA,
                                                  COLOR_GREEN, COLOR_CYAN, COLOR_BLACK};

int ui_head_colours(enum ui_depth depth)
{
    return depth == UI_DEPTH_256 ? HEAD_COLOURS : depth == UI_DEPTH_8 ? HEAD_COLOURS_8 : 2;
}

short ui_head_colour(enum colorscale_theme theme, enum ui_depth depth, int h)
{
    if (depth == UI_DEPTH_MONO || theme == COLORSCALE_THEME_MONO || h < 0)
        return -1;
    const bool on_dark = theme == COLORSCALE_THEME_DARK;
    if (depth == UI_DEPTH_256)
        return (on_dark ? head256_dark : head256_light)[h % HEAD_COLOURS];
    return (on_dark ? head8_dark : head8_light)[h % HEAD_COLOURS_8];
}
