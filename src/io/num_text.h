/* num_text.h - floats as text, fast: the same characters printf writes for
 * "%.4f" and "%.9g" of a float, without going through printf for the values
 * the dumps hold (a float times 10^4 is exact in a double, and 9 digits of a
 * float come from one 128-bit product), falling back to snprintf elsewhere.
 * tests/io/test_num_text.c holds each to snprintf over millions of floats. */
#ifndef MHA_NUM_TEXT_H
#define MHA_NUM_TEXT_H

/* Room enough for either form of any float, with its NUL. */
#define NUM_TEXT_MAX 48

/* snprintf(buf, NUM_TEXT_MAX, "%.4f", (double)x); returns the length. */
int num_fixed4(char *buf, float x);
/* snprintf(buf, NUM_TEXT_MAX, "%.9g", (double)x); returns the length. */
int num_g9(char *buf, float x);
/* num_g9 as jansson writes a real of precision 9: ".0" after a number that
 * reads as an integer, no '+' or zeros leading the exponent (buf needs
 * NUM_TEXT_MAX + 2 bytes); returns the length. */
int num_g9_json(char *buf, float x);

/* A number as every table shows it: inf_text for -inf (a masked score),
 * "0.0000" below 0.00005 in size (never "-0.0000"), "%.4g" from 1e5 up,
 * else "%.4f"; returns the length. */
int num_cell(char *buf, float x, const char *inf_text);

#endif
