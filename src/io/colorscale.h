/* colorscale.h - the two colour scales every picture of a matrix uses, in one
 * place for the screen and the exports.
 *
 * Signed numbers (inputs, projections, scores, contexts, outputs) use a
 * diverging blue-white-red scale over a symmetric range -max|v| .. +max|v|:
 * blue below zero, the page's own colour near zero, red above.  Weights
 * (probabilities) use a sequential scale from dark blue through green to
 * yellow; level 0 is kept for p == 0 exactly (a masked key).  Neither scale
 * runs from red to green, so both read for colour-blind viewers.
 *
 * The palettes are given as xterm-256 colour numbers (the screen) and as RGB
 * through the xterm 6x6x6 cube, whose components are 0, 95, 135, 175, 215 and
 * 255 (the exports).  The 8-colour tables use the ANSI numbers curses calls
 * COLOR_BLACK (0) .. COLOR_WHITE (7).  COLORSCALE_DEFAULT (-1) is "the
 * background's own colour": the terminal's default on screen, white on a page.
 * Pure functions over constant tables; nothing to free.
 */
#ifndef MHA_COLORSCALE_H
#define MHA_COLORSCALE_H

#include <stddef.h>

#define COLORSCALE_DEFAULT (-1)

#define COLORSCALE_DIV_LEVELS 11 /* 256 colours: 5 blues, neutral, 5 reds */
#define COLORSCALE_SEQ_LEVELS 9  /* 256 colours: zero, then 8 steps up to 1 */
#define COLORSCALE_DIV8_LEVELS 5 /* 8 colours */
#define COLORSCALE_SEQ8_LEVELS 6 /* 8 colours */

/* Backgrounds and the text drawn on them, most negative (or zero) first. */
extern const short colorscale_div256_bg[COLORSCALE_DIV_LEVELS];
extern const short colorscale_div256_fg[COLORSCALE_DIV_LEVELS];
extern const short colorscale_seq256_bg[COLORSCALE_SEQ_LEVELS];
extern const short colorscale_seq256_fg[COLORSCALE_SEQ_LEVELS];
extern const short colorscale_div8_bg[COLORSCALE_DIV8_LEVELS];
extern const short colorscale_div8_fg[COLORSCALE_DIV8_LEVELS];
extern const short colorscale_seq8_bg[COLORSCALE_SEQ8_LEVELS];
extern const short colorscale_seq8_fg[COLORSCALE_SEQ8_LEVELS];

/* The looks of the explorer (--theme).  The exports draw on a white page
 * with the dark theme's 256-colour scales (colorscale_div_fill and
 * colorscale_seq_fill), the scales the screen shows by default. */
enum colorscale_theme {
    COLORSCALE_THEME_DARK,      /* for dark terminals: the default */
    COLORSCALE_THEME_LIGHT,     /* for light terminals: dark text, light fills */
    COLORSCALE_THEME_PROJECTOR, /* black on white whatever the terminal, saturated ends */
    COLORSCALE_THEME_MONO,      /* no colour: attributes and shade glyphs */
    COLORSCALE_THEME_COUNT
};

/* "dark", "light", "projector", "mono" -> theme; -1 for anything else. */
int colorscale_theme_from_name(const char *name);
/* The theme's name; NULL out of range. */
const char *colorscale_theme_name(enum colorscale_theme theme);
/* "dark, light, projector or mono": the names joined by ", ", last_sep
 * before the last one (" or ", ", ").  Into buf (n bytes); returns buf. */
const char *colorscale_theme_names(char *buf, size_t n, const char *last_sep);

/* One scale of a theme: levels backgrounds and the text drawn on each. */
struct colorscale_palette {
    const short *bg, *fg;
    int levels;
};

/* The diverging and sequential scales of theme for a terminal of colours
 * colours (256 or more: the 256-colour tables; 8 to 255: the 8-colour ones).
 * Levels are COLORSCALE_DIV_LEVELS / COLORSCALE_SEQ_LEVELS or the 8-colour
 * counts for every theme; the mono theme (or fewer than 8 colours) has
 * none (levels 0, NULL tables).  The dark theme's 256-colour scales are the
 * colorscale_div256_* and colorscale_seq256_* tables above. */
struct colorscale_palette colorscale_div_palette(enum colorscale_theme theme, int colours);
struct colorscale_palette colorscale_seq_palette(enum colorscale_theme theme, int colours);

/* Level of v on a diverging scale of `levels` steps over -range .. +range:
 * 0 at -range or below, levels-1 at +range or above, levels/2 around zero
 * (the smallest 1/(2(levels/2+1)) of the range on either side stays neutral).
 * A range of 0, NaN or fewer than 2 levels give the neutral level. */
int colorscale_div_level(float v, float range, int levels);

/* Level of a probability p: 0 when p <= 0 (or NaN), levels-1 when p >= 1,
 * otherwise 1 + floor(p * (levels - 1)), so (0, 1) is shared evenly. */
int colorscale_seq_level(float p, int levels);

struct colorscale_rgb {
    unsigned char r, g, b;
};

/* RGB of xterm colour index 0..255 (16 system colours, the 6x6x6 cube, the
 * 24 greys); COLORSCALE_DEFAULT and anything out of range give white. */
struct colorscale_rgb colorscale_xterm_rgb(int index);

/* Fill of a level of the 256-colour scales on a light page (the neutral
 * level and level 0 of the sequential scale are white). */
struct colorscale_rgb colorscale_div_fill(int level);
struct colorscale_rgb colorscale_seq_fill(int level);

/* WCAG contrast ratio of two colours, 1 .. 21. */
double colorscale_contrast(struct colorscale_rgb a, struct colorscale_rgb b);

/* The text colour to draw on fill: near-black (#1a1a1a) or white, whichever
 * contrasts more. */
struct colorscale_rgb colorscale_text_on(struct colorscale_rgb fill);

/* "#rrggbb" into buf (at least 8 bytes).  Returns buf. */
char *colorscale_hex(struct colorscale_rgb c, char *buf, size_t n);

#endif
