/* ui_theme.h - colours by role, the colour scales, and the glyphs that stand
 * in for colour.
 *
 * One table (UI_ROLES) gives every role its colours for 256-colour and
 * 8-colour terminals and its attribute for a monochrome one.  Values are
 * shown on two scales: diverging (signed numbers: blue below zero, red above)
 * and sequential (probabilities 0..1).  Without colour (NO_COLOR set, or a
 * terminal without colours) heatmaps use the shade glyphs " ░▒▓█", and " .:*#"
 * in a non-UTF-8 locale.
 *
 * The level and palette functions are pure (testable without a terminal);
 * ui_theme_init and the attribute functions need curses.
 */
#ifndef UI_THEME_H
#define UI_THEME_H

#include <stdbool.h>

/* How many colours the screen can use. */
enum ui_depth { UI_DEPTH_MONO, UI_DEPTH_8, UI_DEPTH_256 };

/* role, fg 256, bg 256, fg 8, bg 8, extra attributes, attributes in mono.
 * -1 is the terminal's default colour. */
#define UI_ROLES(X)                                                                                \
    X(UI_ROLE_NORMAL, -1, -1, -1, -1, 0, 0)                                                        \
    X(UI_ROLE_BAR, 252, 236, 7, 4, 0, A_REVERSE)                                                   \
    X(UI_ROLE_BAR_CURRENT, 16, 214, 0, 3, A_BOLD, A_BOLD)                                          \
    X(UI_ROLE_BAR_ARROW, 244, 236, 6, 4, 0, A_REVERSE)                                             \
    X(UI_ROLE_STATUS, 252, 238, 0, 7, 0, A_REVERSE)                                                \
    X(UI_ROLE_STATUS_KEY, 214, 238, 4, 7, A_BOLD, A_REVERSE | A_BOLD)                              \
    X(UI_ROLE_TITLE, 75, -1, 6, -1, A_BOLD, A_BOLD)                                                \
    X(UI_ROLE_SHAPE, 244, -1, 7, -1, 0, A_DIM)                                                     \
    X(UI_ROLE_LABEL, 250, -1, 7, -1, 0, 0)                                                         \
    X(UI_ROLE_LABEL_HOT, 214, -1, 3, -1, A_BOLD, A_BOLD | A_UNDERLINE)                             \
    X(UI_ROLE_CURSOR, 16, 214, 0, 3, A_BOLD, A_REVERSE | A_BOLD)                                   \
    X(UI_ROLE_FORMULA, 222, -1, 3, -1, A_BOLD, A_BOLD)                                             \
    X(UI_ROLE_PANE_TITLE, 16, 110, 0, 6, A_BOLD, A_REVERSE)                                        \
    X(UI_ROLE_BORDER, 240, -1, 4, -1, 0, A_DIM)                                                    \
    X(UI_ROLE_INFO, 114, -1, 2, -1, 0, 0)                                                          \
    X(UI_ROLE_ERROR, 231, 124, 7, 1, A_BOLD, A_REVERSE | A_BOLD)                                   \
    X(UI_ROLE_PROMPT, 214, -1, 3, -1, A_BOLD, A_BOLD)                                              \
    X(UI_ROLE_MASKED, 240, -1, 7, -1, 0, A_DIM)                                                    \
    X(UI_ROLE_HELP_KEY, 214, -1, 3, -1, A_BOLD, A_BOLD)                                            \
    X(UI_ROLE_NOTICE, 231, 24, 7, 4, A_BOLD, A_REVERSE | A_BOLD)                                   \
    X(UI_ROLE_CODE, 223, 236, 3, -1, 0, A_BOLD)                                                    \
    X(UI_ROLE_ANALOGY, 141, -1, 5, -1, A_BOLD, A_BOLD)                                             \
    X(UI_ROLE_WHATIF, 209, -1, 1, -1, A_BOLD, A_BOLD)                                              \
    X(UI_ROLE_INSIGHT, 114, -1, 2, -1, A_BOLD, A_BOLD)                                             \
    X(UI_ROLE_QUIZ, 220, -1, 3, -1, A_BOLD, A_BOLD | A_UNDERLINE)                                  \
    X(UI_ROLE_RIGHT, 114, -1, 2, -1, A_BOLD, A_BOLD)                                               \
    X(UI_ROLE_WRONG, 209, -1, 1, -1, A_BOLD, A_BOLD | A_UNDERLINE)

#define UI_ROLE_ENUM(name, f256, b256, f8, b8, attr, mono) name,
enum ui_role { UI_ROLES(UI_ROLE_ENUM) UI_ROLE_COUNT };
#undef UI_ROLE_ENUM

/* Levels of each scale for a depth (odd for the diverging scale, whose middle
 * level is "about zero"). */
int ui_div_levels(enum ui_depth depth);
int ui_seq_levels(enum ui_depth depth);

/* Level of v on the diverging scale of range ±range: 0 for -range or less,
 * levels-1 for +range or more, the middle for |v| small against range.
 * NaN and a range <= 0 give the middle. */
int ui_div_level(float v, float range, int levels);

/* Level of a probability p on the sequential scale: 0 for p <= 0 (and NaN),
 * levels-1 for p >= 1. */
int ui_seq_level(float p, int levels);

/* Colours (xterm numbers, -1 = default) of a level: the cell's background
 * and a foreground legible on it.  Returns false for UI_DEPTH_MONO. */
bool ui_div_colour(enum ui_depth depth, int level, short *fg, short *bg);
bool ui_seq_colour(enum ui_depth depth, int level, short *fg, short *bg);

/* Foreground colour of head h (the heads' colours repeat after a few). */
short ui_head_colour(enum ui_depth depth, int h);
int ui_head_colours(enum ui_depth depth);

/* Shade glyph (a NUL-terminated string) for a sequential level out of 5:
 * " ░▒▓█", or " .:*#" without UTF-8. */
const char *ui_shade_glyph(int level5, bool utf8);

/* Which depth to use: mono when no_color or the terminal has no colours. */
enum ui_depth ui_depth_choose(bool no_color, bool has_colors, int colors);

/* ---- with curses -------------------------------------------------------------------- */

struct ui_theme {
    enum ui_depth depth;
    bool utf8;
};

/* Pick the depth (honouring NO_COLOR) and create the colour pairs.  Call
 * after initscr. */
void ui_theme_init(struct ui_theme *th, bool utf8);

/* Attributes (colour pair and flags) to draw with. */
int ui_role_attr(const struct ui_theme *th, enum ui_role role);
int ui_div_attr(const struct ui_theme *th, float v, float range);
int ui_seq_attr(const struct ui_theme *th, float p);
int ui_head_attr(const struct ui_theme *th, int h);

#endif
