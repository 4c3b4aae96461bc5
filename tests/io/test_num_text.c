/* test_num_text.c - num_fixed4 and num_g9 write what snprintf writes for
 * "%.4f" and "%.9g": every float whose bits a generator draws (two million
 * of them, all exponents), floats near the dumps' usual sizes, the ties a
 * float can hold (x * 10^4 ending in .5, where printf rounds to even), the
 * edges of the fast paths, zeros, infinities and NaN. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "io/num_text.h"
#include "check_run.h"

static void same(float x)
{
    char want[NUM_TEXT_MAX + 16], got[NUM_TEXT_MAX];
    int n = snprintf(want, sizeof want, "%.4f", (double)x);
    /* plain ifs: Check's assertions write to a pipe each time they pass */
    if (n < NUM_TEXT_MAX && (num_fixed4(got, x) != n || strcmp(got, want)))
        ck_abort_msg("%%.4f of %a: \"%s\", printf \"%s\"", (double)x, got, want);
    n = snprintf(want, sizeof want, "%.9g", (double)x);
    if (num_g9(got, x) != n || strcmp(got, want))
        ck_abort_msg("%%.9g of %a: \"%s\", printf \"%s\"", (double)x, got, want);
}

/* jansson's own text for the real, as json_dumps writes it (precision 9) */
static void same_json(float x)
{
    json_t *r = json_real((double)x);
    char *want = json_dumps(r, JSON_ENCODE_ANY | JSON_REAL_PRECISION(9));
    char got[NUM_TEXT_MAX + 2];
    if (num_g9_json(got, x) != (int)strlen(want) || strcmp(got, want))
        ck_abort_msg("json of %a: \"%s\", jansson \"%s\"", (double)x, got, want);
    free(want);
    json_decref(r);
}

static uint64_t state = 0x9E3779B97F4A7C15ull;
static uint32_t next(void)
{
    state ^= state << 13;
    state ^= state >> 7;
    state ^= state << 17;
    return (uint32_t)(state >> 16);
}

START_TEST(test_random_bits)
{
    for (int i = 0; i < 2000000; i++) {
        uint32_t bits = next();
        float x;
        memcpy(&x, &bits, sizeof x);
        if (isfinite(x) && fabsf(x) < 1e30f)
            same(x);
        if (isfinite(x) && i % 8 == 0)
            same_json(x);
    }
}
END_TEST

START_TEST(test_usual_sizes)
{
    for (int i = 0; i < 1000000; i++) {
        const float scale = ldexpf(1.0f, (int)(next() % 40) - 20);
        same(((float)next() / 4294967296.0f - 0.5f) * scale);
    }
}
END_TEST

START_TEST(test_ties_and_edges)
{
    for (int j = -20000; j <= 20000; j++) /* x * 10^4 = ...5 exactly */
        same((float)(2 * j + 1) / 32.0f);
    const float edges[] = {0.0f,          -0.0f,         1e-5f,           -1e-5f,
                           9.99999e-6f,   1e9f,          -1e9f,           999999936.0f,
                           1e5f,          99999.99f,     0.00005f,        -0.00005f,
                           0.000049999f,  1.0f,          -1.0f,           0.1f,
                           0.5f,          123456789.0f,  1.17549435e-38f, 1.4e-45f,
                           3.4028235e38f, 16777216.0f,   16777217.0f,     9.5f,
                           0.99999999f,   9.9999999e-5f, 0.0001f,         1e-4f,
                           99999.995f};
    for (size_t i = 0; i < sizeof edges / sizeof edges[0]; i++) {
        same(edges[i]);
        same_json(edges[i]);
        same(nextafterf(edges[i], INFINITY));
        same(nextafterf(edges[i], -INFINITY));
    }
    for (int e = -45; e <= 38; e++) /* powers of ten and their neighbours */
        for (int d = -3; d <= 3; d++) {
            float x = (float)pow(10.0, e);
            for (int s = 0; s < abs(d); s++)
                x = nextafterf(x, d > 0 ? INFINITY : 0.0f);
            same(x);
            same(-x);
        }
    char buf[NUM_TEXT_MAX];
    num_g9(buf, INFINITY);
    ck_assert_str_eq(buf, "inf");
    num_g9(buf, NAN);
    ck_assert(strstr(buf, "nan") != NULL);
    num_fixed4(buf, -INFINITY);
    ck_assert_str_eq(buf, "-inf");
}
END_TEST

int main(void)
{
    Suite *s = suite_create("num_text");
    TCase *tc = tcase_create("printf");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_random_bits);
    tcase_add_test(tc, test_usual_sizes);
    tcase_add_test(tc, test_ties_and_edges);
    suite_add_tcase(s, tc);
    return check_run(s);
}
