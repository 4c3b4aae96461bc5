/* colorscale.c - the diverging and sequential scales, their levels and RGB. */
#include "io/colorscale.h"

#include <math.h>
#include <stdio.h>
#include <string.h>

/* Diverging, most negative first; the middle keeps the background.  Text is
 * dark on light cells and light on dark ones. */
const short colorscale_div256_bg[COLORSCALE_DIV_LEVELS] = {25,  32,  68,  110, 153, -1,
                                                           224, 217, 210, 167, 124};
const short colorscale_div256_fg[COLORSCALE_DIV_LEVELS] = {231, 231, 231, 16,  16, -1,
                                                           16,  16,  16,  231, 231};
/* Sequential for 0..1: level 0 (exactly zero) keeps the background, then dark
 * blue through teal and green to yellow. */
const short colorscale_seq256_bg[COLORSCALE_SEQ_LEVELS] = {-1, 17, 18, 25, 31, 37, 71, 149, 226};
const short colorscale_seq256_fg[COLORSCALE_SEQ_LEVELS] = {-1, 250, 231, 231, 231, 16, 16, 16, 16};

/* ANSI numbers: 0 black, 1 red, 2 green, 3 yellow, 4 blue, 5 magenta, 6 cyan, 7 white. */
const short colorscale_div8_bg[COLORSCALE_DIV8_LEVELS] = {4, 6, -1, 3, 1};
const short colorscale_div8_fg[COLORSCALE_DIV8_LEVELS] = {7, 0, -1, 0, 7};
const short colorscale_seq8_bg[COLORSCALE_SEQ8_LEVELS] = {-1, 4, 6, 2, 3, 7};
const short colorscale_seq8_fg[COLORSCALE_SEQ8_LEVELS] = {-1, 7, 0, 0, 0, 0};

/* The light theme: the terminal's own light background, saturated blue and
 * red at the ends, pale fills in between; weights from pale yellow through
 * green to dark blue (ColorBrewer's YlGnBu, readable with any colour
 * vision).  Text is whichever of black and white contrasts more. */
static const short light_div256_bg[COLORSCALE_DIV_LEVELS] = {25,  32,  74,  117, 189, -1,
                                                             224, 217, 210, 167, 124};
static const short light_div256_fg[COLORSCALE_DIV_LEVELS] = {231, 16, 16, 16, 16, -1,
                                                             16,  16, 16, 16, 231};
static const short light_seq256_bg[COLORSCALE_SEQ_LEVELS] = {-1, 230, 193, 150, 114,
                                                             72, 30,  24,  17};
static const short light_seq256_fg[COLORSCALE_SEQ_LEVELS] = {-1, 16, 16, 16, 16, 16, 16, 231, 231};

/* The projector theme (black on white): the same forms with deeper ends, so
 * that a washed-out beamer still shows navy and dark red. */
static const short proj_div256_bg[COLORSCALE_DIV_LEVELS] = {18,  20,  33,  75,  153, -1,
                                                            217, 210, 203, 160, 88};
static const short proj_div256_fg[COLORSCALE_DIV_LEVELS] = {231, 231, 16, 16,  16, -1,
                                                            16,  16,  16, 231, 231};
static const short proj_seq256_bg[COLORSCALE_SEQ_LEVELS] = {-1, 229, 192, 149, 71, 36, 31, 25, 18};
static const short proj_seq256_fg[COLORSCALE_SEQ_LEVELS] = {-1, 16, 16, 16, 16, 16, 16, 231, 231};

/* Eight colours on a light background: no white at the top of the scale. */
static const short light_seq8_bg[COLORSCALE_SEQ8_LEVELS] = {-1, 3, 2, 6, 4, 0};
static const short light_seq8_fg[COLORSCALE_SEQ8_LEVELS] = {-1, 0, 0, 0, 7, 7};

static const char *const theme_names[COLORSCALE_THEME_COUNT] = {"dark", "light", "projector",
                                                                "mono"};

int colorscale_theme_from_name(const char *name)
{
    for (int t = 0; name && t < COLORSCALE_THEME_COUNT; t++)
        if (strcmp(name, theme_names[t]) == 0)
            return t;
    return -1;
}

const char *colorscale_theme_name(enum colorscale_theme theme)
{
    return theme >= 0 && theme < COLORSCALE_THEME_COUNT ? theme_names[theme] : NULL;
}

const char *colorscale_theme_names(char *buf, size_t n, const char *last_sep)
{
    size_t used = 0;
    if (n)
        buf[0] = '\0';
    for (int t = 0; t < COLORSCALE_THEME_COUNT && used < n; t++) {
        const char *sep = t == 0 ? "" : t == COLORSCALE_THEME_COUNT - 1 ? last_sep : ", ";
        const int w = snprintf(buf + used, n - used, "%s%s", sep, theme_names[t]);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}

static struct colorscale_palette palette(const short *bg, const short *fg, int levels)
{
    return (struct colorscale_palette){bg, fg, levels};
}

struct colorscale_palette colorscale_div_palette(enum colorscale_theme theme, int colours)
{
    if (theme < 0 || theme >= COLORSCALE_THEME_MONO || colours < 8)
        return palette(NULL, NULL, 0);
    if (colours < 256)
        return palette(colorscale_div8_bg, colorscale_div8_fg, COLORSCALE_DIV8_LEVELS);
    if (theme == COLORSCALE_THEME_LIGHT)
        return palette(light_div256_bg, light_div256_fg, COLORSCALE_DIV_LEVELS);
    if (theme == COLORSCALE_THEME_PROJECTOR)
        return palette(proj_div256_bg, proj_div256_fg, COLORSCALE_DIV_LEVELS);
    return palette(colorscale_div256_bg, colorscale_div256_fg, COLORSCALE_DIV_LEVELS);
}

struct colorscale_palette colorscale_seq_palette(enum colorscale_theme theme, int colours)
{
    if (theme < 0 || theme >= COLORSCALE_THEME_MONO || colours < 8)
        return palette(NULL, NULL, 0);
    if (colours < 256)
        return theme == COLORSCALE_THEME_DARK
                   ? palette(colorscale_seq8_bg, colorscale_seq8_fg, COLORSCALE_SEQ8_LEVELS)
                   : palette(light_seq8_bg, light_seq8_fg, COLORSCALE_SEQ8_LEVELS);
    if (theme == COLORSCALE_THEME_LIGHT)
        return palette(light_seq256_bg, light_seq256_fg, COLORSCALE_SEQ_LEVELS);
    if (theme == COLORSCALE_THEME_PROJECTOR)
        return palette(proj_seq256_bg, proj_seq256_fg, COLORSCALE_SEQ_LEVELS);
    return palette(colorscale_seq256_bg, colorscale_seq256_fg, COLORSCALE_SEQ_LEVELS);
}

int colorscale_div_level(float v, float range, int levels)
{
    const int mid = levels / 2;
    if (levels < 2 || !(range > 0.0f) || isnan(v))
        return mid;
    double t = (double)v / (double)range; /* -1 .. 1 */
    if (t <= -1.0)
        return 0;
    if (t >= 1.0)
        return levels - 1;
    /* mid +- k with k = round(|t| * mid), but the smallest slice stays neutral */
    if (fabs(t) < 0.5 / (double)(mid + 1))
        return mid;
    int k = (int)ceil(fabs(t) * (double)mid - 0.5);
    if (k < 1)
        k = 1;
    if (k > mid)
        k = mid;
    return t < 0 ? mid - k : mid + k;
}

int colorscale_seq_level(float p, int levels)
{
    if (levels < 2 || isnan(p) || p <= 0.0f)
        return 0;
    if (p >= 1.0f)
        return levels - 1;
    int l = 1 + (int)((double)p * (double)(levels - 1));
    return l > levels - 1 ? levels - 1 : l;
}

struct colorscale_rgb colorscale_xterm_rgb(int index)
{
    static const unsigned char system16[16][3] = {
        {0, 0, 0},       {128, 0, 0},   {0, 128, 0},   {128, 128, 0},
        {0, 0, 128},     {128, 0, 128}, {0, 128, 128}, {192, 192, 192},
        {128, 128, 128}, {255, 0, 0},   {0, 255, 0},   {255, 255, 0},
        {0, 0, 255},     {255, 0, 255}, {0, 255, 255}, {255, 255, 255},
    };
    static const unsigned char cube[6] = {0, 95, 135, 175, 215, 255};
    struct colorscale_rgb c = {255, 255, 255};
    if (index < 0 || index > 255)
        return c;
    if (index < 16) {
        c.r = system16[index][0];
        c.g = system16[index][1];
        c.b = system16[index][2];
    } else if (index < 232) {
        int i = index - 16;
        c.r = cube[i / 36];
        c.g = cube[(i / 6) % 6];
        c.b = cube[i % 6];
    } else {
        unsigned char grey = (unsigned char)(8 + 10 * (index - 232));
        c.r = c.g = c.b = grey;
    }
    return c;
}

struct colorscale_rgb colorscale_div_fill(int level)
{
    if (level < 0 || level >= COLORSCALE_DIV_LEVELS)
        return colorscale_xterm_rgb(COLORSCALE_DEFAULT);
    return colorscale_xterm_rgb(colorscale_div256_bg[level]);
}

struct colorscale_rgb colorscale_seq_fill(int level)
{
    if (level < 0 || level >= COLORSCALE_SEQ_LEVELS)
        return colorscale_xterm_rgb(COLORSCALE_DEFAULT);
    return colorscale_xterm_rgb(colorscale_seq256_bg[level]);
}

/* Relative luminance (WCAG 2): linearised sRGB, weighted. */
static double luminance(struct colorscale_rgb c)
{
    const unsigned char comp[3] = {c.r, c.g, c.b};
    const double weight[3] = {0.2126, 0.7152, 0.0722};
    double y = 0.0;
    for (int i = 0; i < 3; i++) {
        double s = comp[i] / 255.0;
        s = s <= 0.04045 ? s / 12.92 : pow((s + 0.055) / 1.055, 2.4);
        y += weight[i] * s;
    }
    return y;
}

double colorscale_contrast(struct colorscale_rgb a, struct colorscale_rgb b)
{
    double la = luminance(a), lb = luminance(b);
    double hi = la > lb ? la : lb, lo = la > lb ? lb : la;
    return (hi + 0.05) / (lo + 0.05);
}

struct colorscale_rgb colorscale_text_on(struct colorscale_rgb fill)
{
    const struct colorscale_rgb dark = {26, 26, 26}, light = {255, 255, 255};
    return colorscale_contrast(fill, dark) >= colorscale_contrast(fill, light) ? dark : light;
}

char *colorscale_hex(struct colorscale_rgb c, char *buf, size_t n)
{
    snprintf(buf, n, "#%02x%02x%02x", c.r, c.g, c.b);
    return buf;
}
