/* svg_fit.c - the texts of an SVG against its width: the <style> rules give
 * each class its font size, weight, face and anchor; each <text> is measured
 * by its characters and placed by its x, anchor and rotation. */
#include "svg_fit.h"

#include <math.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* strstr by hand: the sanitizers' strstr measures the whole rest of the
 * picture at every call, which makes a walk over its texts quadratic. */
static const char *find(const char *s, const char *needle)
{
    const size_t n = strlen(needle);
    for (; *s; s++)
        if (*s == *needle && strncmp(s, needle, n) == 0)
            return s;
    return NULL;
}

struct font {
    double size;
    bool bold, mono;
    int anchor; /* 0 start, 1 middle, 2 end */
};

/* Apply the declarations of one rule body (up to '}') to f. */
static void declarations(const char *rule_body, struct font *f)
{
    char body[512]; /* the rule alone, so no search runs on into the picture */
    const char *close = strchr(rule_body, '}');
    const size_t n = close ? (size_t)(close - rule_body) : strlen(rule_body);
    snprintf(body, sizeof body, "%.*s", (int)(n < sizeof body ? n : sizeof body - 1), rule_body);
    const char *p;
    if ((p = strstr(body, "font-size:")))
        f->size = strtod(p + 10, NULL);
    if ((p = strstr(body, "font-weight:")))
        f->bold = strncmp(p + 12, "bold", 4) == 0;
    if ((p = strstr(body, "font-family:")))
        f->mono = strstr(p, "Mono") || strstr(p, "monospace");
    if ((p = strstr(body, "text-anchor:")))
        f->anchor = !strncmp(p + 12, "middle", 6) ? 1 : !strncmp(p + 12, "end", 3) ? 2 : 0;
}

/* The rule for selector sel (".x" or "text") in the first <style>: its body,
 * or NULL.  A rule may list several selectors ("l,.v{"). */
static const char *rule(const char *svg, const char *sel)
{
    const char *style = find(svg, "<style>"), *stop = style ? find(style, "</style>") : NULL;
    if (!style || !stop)
        return NULL;
    const size_t n = strlen(sel);
    for (const char *p = style; p < stop; p++) {
        if (strncmp(p, sel, n) != 0 || (p[n] != '{' && p[n] != ','))
            continue;
        if (p > style && p[-1] != '\n' && p[-1] != ',' && p[-1] != '}')
            continue;
        const char *b = strchr(p, '{');
        return b && b < stop ? b + 1 : NULL;
    }
    return NULL;
}

/* The font of a text whose class attribute is classes ("s r"). */
static struct font font_of(const char *svg, const char *classes, size_t len)
{
    struct font f = {12.0, false, false, 0};
    const char *base = rule(svg, "text");
    if (base)
        declarations(base, &f);
    for (size_t i = 0; i < len;) {
        while (i < len && classes[i] == ' ')
            i++;
        size_t j = i;
        while (j < len && classes[j] != ' ')
            j++;
        if (j > i) {
            char sel[32];
            snprintf(sel, sizeof sel, ".%.*s", (int)(j - i), classes + i);
            const char *body = rule(svg, sel);
            if (body)
                declarations(body, &f);
        }
        i = j;
    }
    return f;
}

/* The value of attribute name in the tag from tag to its '>' (NULL: none). */
static const char *attr(const char *tag, const char *name, size_t *len)
{
    const char *end = strchr(tag, '>');
    char key[32];
    snprintf(key, sizeof key, " %s=\"", name);
    const size_t kl = strlen(key);
    const char *p = tag;
    while (p < end && strncmp(p, key, kl) != 0) /* within the tag only */
        p++;
    if (!end || p >= end)
        return NULL;
    p += kl;
    const char *q = strchr(p, '"');
    *len = q ? (size_t)(q - p) : 0;
    return p;
}

/* Characters of the text between > and </text>: tags left out, an entity
 * one character, UTF-8 counted by code points. */
static int characters(const char *s, const char *end)
{
    int n = 0;
    while (s < end) {
        if (*s == '<') {
            const char *q = strchr(s, '>');
            s = q ? q + 1 : end;
            continue;
        }
        if (*s == '&') {
            const char *q = strchr(s, ';');
            s = q && q < end ? q + 1 : s + 1;
            n++;
            continue;
        }
        if (((unsigned char)*s & 0xC0) != 0x80)
            n++;
        s++;
    }
    return n;
}

const char *svg_text_outside(const char *svg)
{
    static char why[512];
    const char *root = find(svg, "<svg ");
    size_t len;
    const char *w = root ? attr(root, "width", &len) : NULL;
    if (!w) {
        snprintf(why, sizeof why, "no <svg width=...>");
        return why;
    }
    const double width = strtod(w, NULL);
    for (const char *t = find(root, "<text"); t; t = find(t + 1, "<text")) {
        const char *open_end = strchr(t, '>'), *close = find(t, "</text>");
        if (!open_end || !close) {
            snprintf(why, sizeof why, "a <text> that does not end");
            return why;
        }
        size_t cl = 0;
        const char *classes = attr(t, "class", &cl);
        struct font f = font_of(svg, classes ? classes : "", classes ? cl : 0);
        size_t sl;
        const char *style = attr(t, "style", &sl);
        for (size_t i = 0; style && i + 15 <= sl; i++)
            if (!strncmp(style + i, "text-anchor:end", 15))
                f.anchor = 2;
        double x = 0.0, angle = 0.0;
        size_t xl;
        const char *xs = attr(t, "x", &xl), *tr = attr(t, "transform", &xl);
        if (xs)
            x = strtod(xs, NULL);
        if (tr && !strncmp(tr, "translate(", 10)) {
            x += strtod(tr + 10, NULL);
            const char *rot = find(tr, "rotate(");
            if (rot && rot < tr + xl)
                angle = strtod(rot + 7, NULL) * M_PI / 180.0;
        }
        const int n = characters(open_end + 1, close);
        const double em = f.mono ? 0.6 : f.bold ? 0.68 : 0.62;
        const double tw = n * f.size * em * fabs(cos(angle));
        const double left = f.anchor == 0 ? x : f.anchor == 1 ? x - tw / 2 : x - tw;
        if (left < -0.5 || left + tw > width + 0.5) {
            snprintf(why, sizeof why,
                     "\"%.*s\" (%d characters, %.0f px at %.0fpx%s) spans %.1f .. %.1f of a "
                     "picture %.0f wide",
                     (int)(close - open_end - 1 < 120 ? close - open_end - 1 : 120), open_end + 1,
                     n, tw, f.size, f.bold ? " bold" : "", left, left + tw, width);
            return why;
        }
    }
    return NULL;
}
