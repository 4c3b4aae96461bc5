/* svg_fit.h - whether every text of an SVG lies inside its picture, by an
 * estimate of the font's metrics (a character of the sans-serif faces the
 * exports name is taken as 0.62 em wide, 0.68 em in bold, 0.6 em in the
 * monospaced face: a little more than DejaVu's averages, so text that fits
 * the estimate fits the fonts). */
#ifndef SVG_FIT_H
#define SVG_FIT_H

/* NULL when the extent of every <text> of svg (its x, anchor and rotation,
 * its characters at its class's font size) lies within 0 .. the width the
 * <svg> element gives; else a description of the first that does not (a
 * static buffer). */
const char *svg_text_outside(const char *svg);

#endif
