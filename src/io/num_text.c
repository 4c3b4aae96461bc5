/* num_text.c - "%.4f" and "%.9g" of a float without printf. */
#include "io/num_text.h"

#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

/* The decimal digits of v (at least min of them, zeros in front) at p,
 * which has room; returns how many. */
static int put_digits(char *p, uint64_t v, int min)
{
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char)('0' + v % 10);
        v /= 10;
    } while (v);
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
    p += put_digits(p, u / 10000, 1);
    *p++ = '.';
    p += put_digits(p, u % 10000, 4);
    *p = '\0';
    return (int)(p - buf);
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
    int ex;
    const float fr = frexpf(ax, &ex); /* ax = fr * 2^ex, fr in [0.5, 1) */
    const uint32_t m = (uint32_t)ldexpf(fr, 24);
    const int k = ex - 24; /* ax = m * 2^k, k in [-40, 6] here */
    int e10 = (int)floor(log10((double)ax));
    uint64_t n = 0;
    for (int tries = 0; tries < 3; tries++) {
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
    char d[9];
    put_digits(d, n, 9);
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
