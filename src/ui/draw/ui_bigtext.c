/* ui_bigtext.c - a 3 x 5 pixel font and its half-block lines. */
#include "ui/draw/ui_bigtext.h"

#include <ctype.h>
#include <stdbool.h>
#include <string.h>

#define GLYPH_W 3
#define GLYPH_H 5

/* Five rows of three pixels each, '#' lit. */
/* clang-format off */
static const struct {
    char c;
    const char *px;
} font[] = {
    {'0', "###" "#.#" "#.#" "#.#" "###"}, {'1', ".#." "##." ".#." ".#." "###"},
    {'2', "###" "..#" "###" "#.." "###"}, {'3', "###" "..#" ".##" "..#" "###"},
    {'4', "#.#" "#.#" "###" "..#" "..#"}, {'5', "###" "#.." "###" "..#" "###"},
    {'6', "###" "#.." "###" "#.#" "###"}, {'7', "###" "..#" ".#." ".#." ".#."},
    {'8', "###" "#.#" "###" "#.#" "###"}, {'9', "###" "#.#" "###" "..#" "###"},
    {'A', ".#." "#.#" "###" "#.#" "#.#"}, {'B', "##." "#.#" "##." "#.#" "##."},
    {'C', ".##" "#.." "#.." "#.." ".##"}, {'D', "##." "#.#" "#.#" "#.#" "##."},
    {'E', "###" "#.." "##." "#.." "###"}, {'F', "###" "#.." "##." "#.." "#.."},
    {'G', ".##" "#.." "#.#" "#.#" ".##"}, {'H', "#.#" "#.#" "###" "#.#" "#.#"},
    {'I', "###" ".#." ".#." ".#." "###"}, {'J', "..#" "..#" "..#" "#.#" ".#."},
    {'K', "#.#" "#.#" "##." "#.#" "#.#"}, {'L', "#.." "#.." "#.." "#.." "###"},
    {'M', "#.#" "###" "###" "#.#" "#.#"}, {'N', "##." "#.#" "#.#" "#.#" "#.#"},
    {'O', ".#." "#.#" "#.#" "#.#" ".#."}, {'P', "##." "#.#" "##." "#.." "#.."},
    {'Q', ".#." "#.#" "#.#" "##." ".##"}, {'R', "##." "#.#" "##." "#.#" "#.#"},
    {'S', ".##" "#.." ".#." "..#" "##."}, {'T', "###" ".#." ".#." ".#." ".#."},
    {'U', "#.#" "#.#" "#.#" "#.#" "###"}, {'V', "#.#" "#.#" "#.#" "#.#" ".#."},
    {'W', "#.#" "#.#" "###" "###" "#.#"}, {'X', "#.#" "#.#" ".#." "#.#" "#.#"},
    {'Y', "#.#" "#.#" ".#." ".#." ".#."}, {'Z', "###" "..#" ".#." "#.." "###"},
    {'.', "..." "..." "..." "..." ".#."}, {':', "..." ".#." "..." ".#." "..."},
    {'-', "..." "..." "###" "..." "..."},
};
/* clang-format on */

static const char *glyph(char c)
{
    c = (char)toupper((unsigned char)c);
    for (size_t i = 0; i < sizeof font / sizeof font[0]; i++)
        if (font[i].c == c)
            return font[i].px;
    return NULL; /* a blank letter */
}

static bool lit(const char *px, int x, int y)
{
    return px && y >= 0 && y < GLYPH_H && px[y * GLYPH_W + x] == '#';
}

int ui_big_rows(int scale)
{
    return scale >= 2 ? 5 : scale == 1 ? 3 : 1;
}

int ui_big_width(const char *text, int scale)
{
    const int n = (int)strlen(text);
    if (n == 0)
        return 0;
    if (scale <= 0)
        return 2 * n - 1;
    const int s = scale >= 2 ? 2 : 1;
    return n * GLYPH_W * s + (n - 1) * s;
}

/* Append s (a string) to buf if it fits. */
static void put(char *buf, size_t n, size_t *used, const char *s)
{
    const size_t len = strlen(s);
    if (*used + len + 1 > n)
        return;
    memcpy(buf + *used, s, len + 1);
    *used += len;
}

int ui_big_line(const char *text, int scale, int row, char *buf, size_t n)
{
    size_t used = 0;
    if (n > 0)
        buf[0] = '\0';
    const int len = (int)strlen(text);
    if (scale <= 0) { /* "A T T E N T I O N" */
        for (int i = 0; i < len; i++) {
            const char c[3] = {(char)toupper((unsigned char)text[i]), i + 1 < len ? ' ' : '\0',
                               '\0'};
            put(buf, n, &used, c);
        }
        return ui_big_width(text, 0);
    }
    const int s = scale >= 2 ? 2 : 1;
    for (int i = 0; i < len; i++) {
        const char *px = glyph(text[i]);
        for (int x = 0; x < GLYPH_W; x++) {
            /* scale 1: a line holds two pixel rows (upper and lower half);
             * scale 2: a line is one pixel row, each pixel two columns wide */
            const bool top = s == 1 ? lit(px, x, 2 * row) : lit(px, x, row);
            const bool bottom = s == 1 ? lit(px, x, 2 * row + 1) : top;
            const char *cell = top && bottom ? "█" : top ? "▀" : bottom ? "▄" : " ";
            for (int k = 0; k < s; k++)
                put(buf, n, &used, cell);
        }
        for (int k = 0; i + 1 < len && k < s; k++)
            put(buf, n, &used, " ");
    }
    return ui_big_width(text, scale);
}
