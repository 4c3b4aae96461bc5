/* num_text.c - "%.4f" and "%.9g" of a float without printf. */
#include "io/num_text.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The decimal digits of v (at least min of them, zeros in front) at p,
 * which has room; returns how many. */
static const char two_digits[] = "00010203040506070809101112131415161718192021222324252627282930"
                                 "31323334353637383940414243444546474849505152535455565758596061"
                                 "62636465666768697071727374757677787980818283848586878889909192"
                                 "93949596979899";

/* The decimal digits of v (at least min of them, zeros in front) at p,
 * which has room; returns how many. */
static int put_digits(char *p, uint64_t v, int min)
{
    char tmp[24];
    int n = 0;
    while (v >= 100) {
        const unsigned r = (unsigned)(v % 100);
        v /= 100;
        tmp[n++] = two_digits[2 * r + 1];
        tmp[n++] = two_digits[2 * r];
    }
    if (v >= 10) {
        tmp[n++] = two_digits[2 * v + 1];
        tmp[n++] = two_digits[2 * v];
    } else if (v > 0 || n == 0) {
        tmp[n++] = (char)('0' + v);
    }
    while (n < min)
        tmp[n++] = '0';
    for (int i = 0; i < n; i++)
        p[i] = tmp[n - 1 - i];
    return n;
}

int num_fixed4(char *buf, float x)
{
    /* x has 24 significant bits and 10^4 fewer than 14: the product is exact,
     * and nearbyint rounds it half to even, as printf rounds the exact value */
    const double y = (double)x * 10000.0;
    if (!(fabs(y) < 9e15))
        return snprintf(buf, NUM_TEXT_MAX, "%.4f", (double)x);
    const uint64_t u = (uint64_t)fabs(nearbyint(y));
    char *p = buf;
    if (signbit(x))
        *p++ = '-';
    const uint64_t whole = u / 10000;
    if (whole < 10)
        *p++ = (char)('0' + whole);
    else if (whole < 100) {
        memcpy(p, two_digits + 2 * whole, 2);
        p += 2;
    } else {
        p += put_digits(p, whole, 1);
    }
    const unsigned frac = (unsigned)(u % 10000);
    *p++ = '.';
    memcpy(p, two_digits + 2 * (frac / 100), 2);
    memcpy(p + 2, two_digits + 2 * (frac % 100), 2);
    p[4] = '\0';
    return (int)(p + 4 - buf);
}

static const uint64_t pow10_u64[] = {1,
                                     10,
                                     100,
                                     1000,
                                     10000,
                                     100000,
                                     1000000,
                                     10000000,
                                     100000000,
                                     1000000000,
                                     10000000000ull,
                                     100000000000ull,
                                     1000000000000ull,
                                     10000000000000ull,
                                     100000000000000ull};

__extension__ typedef unsigned __int128 u128; /* gcc and clang on 64-bit targets */

static const double pow10_double[] = {1e-6, 1e-5, 1e-4, 1e-3, 1e-2, 1e-1, 1e0, 1e1,
                                      1e2,  1e3,  1e4,  1e5,  1e6,  1e7,  1e8, 1e9};

/* round(a * 10^p / 2^s), half to even, for 0 <= p <= 14 and 0 <= s < 100. */
static uint64_t scaled(uint32_t m, int p, int s)
{
    const u128 a = (u128)m * pow10_u64[p];
    if (s == 0)
        return (uint64_t)a;
    const u128 n = a >> s, rem = a - (n << s), half = (u128)1 << (s - 1);
    return (uint64_t)(n + (rem > half || (rem == half && (n & 1))));
}

int num_g9(char *buf, float x)
{
    const float ax = fabsf(x);
    /* the fast path: 1e-5 <= |x| < 1e9, where the products fit 128 bits */
    if (!(ax >= 1e-5f && ax < 1e9f))
        return snprintf(buf, NUM_TEXT_MAX, "%.9g", (double)x);
    uint32_t bits;
    memcpy(&bits, &ax, sizeof bits); /* a normal float here */
    const uint32_t m = (bits & 0x7FFFFFu) | 0x800000u;
    const int k = (int)(bits >> 23) - 150; /* ax = m * 2^k, k in [-40, 6] here */
    /* 10^e10 <= ax: log10(2) * (k + 23) is within one of it; the loop corrects */
    int e10 = ((k + 23) * 78913) >> 18;
    if (e10 + 1 >= -6 && e10 + 1 <= 9 && (double)ax >= pow10_double[e10 + 1 + 6])
        e10++; /* most often right now; the loop makes sure */
    uint64_t n = 0;
    for (int tries = 0; tries < 4; tries++) {
        const int p = 8 - e10; /* n = round(ax * 10^p): 9 digits */
        if (p < 0 || p > 14)
            return snprintf(buf, NUM_TEXT_MAX, "%.9g", (double)x);
        n = k >= 0 ? ((uint64_t)m * pow10_u64[p]) << k : scaled(m, p, -k);
        if (n >= 1000000000ull)
            e10++;
        else if (n < 100000000ull)
            e10--;
        else
            break;
    }
    if (n >= 1000000000ull || n < 100000000ull) /* rounding carried over: 10^9 */
        return snprintf(buf, NUM_TEXT_MAX, "%.9g", (double)x);
    char d[9]; /* n's nine digits: 10^8 <= n < 10^9 */
    uint32_t v = (uint32_t)n;
    d[0] = (char)('0' + v / 100000000u);
    v %= 100000000u;
    for (int i = 7; i >= 1; i -= 2) {
        memcpy(d + i, two_digits + 2 * (v % 100), 2);
        v /= 100;
    }
    int last = 8; /* %g drops the fraction's trailing zeros */
    while (last > 0 && d[last] == '0')
        last--;
    char *p = buf;
    if (signbit(x))
        *p++ = '-';
    if (e10 < -4 || e10 >= 9) { /* d.ddde-05 */
        *p++ = d[0];
        if (last > 0) {
            *p++ = '.';
            memcpy(p, d + 1, (size_t)last);
            p += last;
        }
        *p++ = 'e';
        *p++ = e10 < 0 ? '-' : '+';
        p += put_digits(p, (uint64_t)(e10 < 0 ? -e10 : e10), 2);
    } else if (e10 >= 0) { /* ddd.ddd */
        memcpy(p, d, (size_t)e10 + 1);
        p += e10 + 1;
        if (last > e10) {
            *p++ = '.';
            memcpy(p, d + e10 + 1, (size_t)(last - e10));
            p += last - e10;
        }
    } else { /* 0.000ddd */
        *p++ = '0';
        *p++ = '.';
        for (int i = 0; i < -e10 - 1; i++)
            *p++ = '0';
        memcpy(p, d, (size_t)last + 1);
        p += last + 1;
    }
    *p = '\0';
    return (int)(p - buf);
}

int num_g9_json(char *buf, float x)
{
    int len = num_g9(buf, x);
    char *e = NULL, *dot = NULL;
    for (char *p = buf; *p; p++) {
        if (*p == 'e')
            e = p;
        else if (*p == '.')
            dot = p;
    }
    if (!e && !dot) {
        memcpy(buf + len, ".0", 3);
        return len + 2;
    }
    if (e) { /* no '+' and no zeros in front of the exponent's digits */
        char *start = e + 1, *end = e + 2;
        if (*start == '-')
            start++;
        while (*end == '0')
            end++;
        if (end != start) {
            memmove(start, end, strlen(end) + 1);
            len -= (int)(end - start);
        }
    }
    return len;
}

int num_cell(char *buf, float x, const char *inf_text)
{
    if (x == -INFINITY)
        return snprintf(buf, NUM_TEXT_MAX, "%s", inf_text);
    if (fabsf(x) < 0.00005f) {
        memcpy(buf, "0.0000", 7); /* no "-0.0000" */
        return 6;
    }
    if (fabsf(x) >= 1e5f)
        return snprintf(buf, NUM_TEXT_MAX, "%.4g", (double)x);
    return num_fixed4(buf, x);
}
