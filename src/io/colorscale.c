/* colorscale.c - the diverging and sequential scales, their levels and RGB. */
#include "colorscale.h"

#include <math.h>
#include <stdio.h>

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
