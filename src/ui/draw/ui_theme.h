/* ui_theme.h - colours by role, the colour scales, and the glyphs that stand
 * in for colour, for each theme (--theme, T).
 *
 * UI_ROLES names every role with its attributes on a monochrome screen.
 * Each colour theme (dark, light, projector) gives every role its colours
 * for 256- and 8-colour terminals (ui_palette.c); the heatmap scales come
 * from colorscale.c, the same tables the exports use.  Values are shown on
 * two scales: diverging (signed numbers: blue below zero, red above) and
 * sequential (probabilities 0..1).  Without colour (the mono theme, NO_COLOR
 * set, or a terminal without colours) heatmaps use the shade glyphs " ░▒▓█",
 * and " .:*#" in a non-UTF-8 locale.  NO_COLOR wins over every theme.
 *
 * The tables and level functions are pure (testable without a terminal);
 * ui_theme_init, ui_theme_switch and the attribute functions of colour
 * themes need curses.
 */
#ifndef UI_THEME_H
#define UI_THEME_H

#include <stdbool.h>

#include "io/colorscale.h"

/* How many colours the screen uses. */
enum ui_depth { UI_DEPTH_MONO, UI_DEPTH_8, UI_DEPTH_256 };

/* role, attributes on a monochrome screen */
#define UI_ROLES(X)                                                                                \
    X(UI_ROLE_NORMAL, 0)                                                                           \
    X(UI_ROLE_BAR, A_REVERSE)                                                                      \
    X(UI_ROLE_BAR_CURRENT, A_BOLD)                                                                 \
    X(UI_ROLE_BAR_ARROW, A_REVERSE)                                                                \
    X(UI_ROLE_STATUS, A_REVERSE)                                                                   \
    X(UI_ROLE_STATUS_KEY, A_REVERSE | A_BOLD)                                                      \
    X(UI_ROLE_TITLE, A_BOLD)                                                                       \
    X(UI_ROLE_SHAPE, A_DIM)                                                                        \
    X(UI_ROLE_LABEL, 0)                                                                            \
    X(UI_ROLE_LABEL_HOT, A_BOLD | A_UNDERLINE)                                                     \
    X(UI_ROLE_CURSOR, A_REVERSE | A_BOLD)                                                          \
    X(UI_ROLE_FORMULA, A_BOLD)                                                                     \
    X(UI_ROLE_PANE_TITLE, A_REVERSE)                                                               \
    X(UI_ROLE_BORDER, A_DIM)                                                                       \
    X(UI_ROLE_INFO, 0)                                                                             \
    X(UI_ROLE_ERROR, A_REVERSE | A_BOLD)                                                           \
    X(UI_ROLE_PROMPT, A_BOLD)                                                                      \
    X(UI_ROLE_MASKED, A_DIM)                                                                       \
    X(UI_ROLE_HELP_KEY, A_BOLD)                                                                    \
    X(UI_ROLE_NOTICE, A_REVERSE | A_BOLD)                                                          \
    X(UI_ROLE_CODE, A_BOLD)                                                                        \
    X(UI_ROLE_ANALOGY, A_BOLD)                                                                     \
    X(UI_ROLE_WHATIF, A_BOLD)                                                                      \
    X(UI_ROLE_INSIGHT, A_BOLD)                                                                     \
    X(UI_ROLE_QUIZ, A_BOLD | A_UNDERLINE)                                                          \
    X(UI_ROLE_RIGHT, A_BOLD)                                                                       \
    X(UI_ROLE_WRONG, A_BOLD | A_UNDERLINE)                                                         \
    X(UI_ROLE_BIG_TITLE, A_BOLD)                                                                   \
    X(UI_ROLE_PLAYING, A_REVERSE | A_BOLD)

#define UI_ROLE_ENUM(name, mono) name,
enum ui_role { UI_ROLES(UI_ROLE_ENUM) UI_ROLE_COUNT };
#undef UI_ROLE_ENUM

/* A role's look in a colour theme: foreground and background for 256 and
 * 8 colours (xterm numbers; -1 is the theme's default colour) and extra
 * attributes.  set is false only for a role the theme forgot (a test checks
 * that none does). */
struct ui_role_style {
    bool set;
    short f256, b256, f8, b8;
    int attr;
};

/* The style of role in theme; NULL for the mono theme or out of range. */
const struct ui_role_style *ui_role_style(enum colorscale_theme theme, enum ui_role role);
/* Attributes of role on a monochrome screen. */
int ui_role_mono(enum ui_role role);

/* The colours theme paints where the terminal's default would show (fg, bg;
 * -1 = the terminal's own): the projector theme is black on white whatever
 * the terminal's colours are. */
void ui_theme_defaults(enum colorscale_theme theme, enum ui_depth depth, short *fg, short *bg);

/* Levels of each scale for a depth (odd for the diverging scale, whose middle
 * level is "about zero"); the same for every colour theme. */
int ui_div_levels(enum ui_depth depth);
int ui_seq_levels(enum ui_depth depth);

/* Colours (xterm numbers, -1 = default) of a level in a theme: the cell's
 * background and a foreground legible on it.  False for UI_DEPTH_MONO, the
 * mono theme, or a level out of range. */
bool ui_div_colour(enum colorscale_theme theme, enum ui_depth depth, int level, short *fg,
                   short *bg);
bool ui_seq_colour(enum colorscale_theme theme, enum ui_depth depth, int level, short *fg,
                   short *bg);

/* Foreground colour of head h (the heads' colours repeat after a few);
 * -1 without colour. */
short ui_head_colour(enum colorscale_theme theme, enum ui_depth depth, int h);
int ui_head_colours(enum ui_depth depth);

/* Shade glyph (a NUL-terminated string) for a sequential level out of 5:
 * " ░▒▓█", or " .:*#" without UTF-8. */
const char *ui_shade_glyph(int level5, bool utf8);

/* What the terminal offers: mono when no_color or it has no colours. */
enum ui_depth ui_depth_choose(bool no_color, bool has_colors, int colors);
/* What theme draws with on such a terminal: mono for the mono theme. */
enum ui_depth ui_theme_depth(enum colorscale_theme theme, enum ui_depth terminal);

/* ---- with curses -------------------------------------------------------------------- */

struct ui_theme {
    enum colorscale_theme name; /* the theme asked for */
    enum ui_depth terminal;     /* what the terminal offers (mono under NO_COLOR) */
    enum ui_depth depth;        /* what is drawn with */
    bool no_color;              /* NO_COLOR is set */
    bool utf8;
    int pairs; /* the terminal's colour pairs */
    bool half; /* two rows of a heatmap to a line: "▀" in two colours
                  (UTF-8, colour and the pairs for it) */
};

/* Find what the terminal offers (honouring NO_COLOR) and set theme up.
 * Call after initscr. */
void ui_theme_init(struct ui_theme *th, bool utf8, enum colorscale_theme theme);
/* Change to another theme: the colour pairs are made again (the caller
 * redraws everything). */
void ui_theme_switch(struct ui_theme *th, enum colorscale_theme theme);

/* Attributes (colour pair and flags) to draw with. */
int ui_role_attr(const struct ui_theme *th, enum ui_role role);
int ui_div_attr(const struct ui_theme *th, float v, float range);
int ui_seq_attr(const struct ui_theme *th, float p);
int ui_head_attr(const struct ui_theme *th, int h);
/* With th->half: "▀" drawn in it shows level top above level bottom (or
 * above the screen's background where bottom_blank).  Without, top's. */
int ui_seq_half_attr(const struct ui_theme *th, float top, float bottom, bool bottom_blank);

#endif
