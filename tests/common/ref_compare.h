/* ref_compare.h - a test's floats against a reference's numbers (PyTorch's,
 * read from JSON): every number of ref, a list of numbers or of rows of
 * them, in order against the n floats at got, each within abs_tol plus
 * 2e-4 of its size; what names the tensor in a failure. */
#ifndef REF_COMPARE_H
#define REF_COMPARE_H

#include <check.h>
#include <jansson.h>
#include <math.h>
#include <stddef.h>

static inline void ref_compare(json_t *ref, const float *got, size_t n, const char *what,
                               double abs_tol)
{
    ck_assert_msg(ref != NULL, "%s: not in the reference", what);
    size_t i = 0, r, c;
    json_t *row, *v;
    json_array_foreach(ref, r, row)
    {
        if (json_is_array(row)) {
            json_array_foreach(row, c, v)
            {
                ck_assert_uint_lt(i, n);
                const double want = json_number_value(v);
                ck_assert_msg(fabs(got[i] - want) <= abs_tol + 2e-4 * fabs(want),
                              "%s[%zu][%zu]: %.9g, torch says %.9g", what, r, c, (double)got[i],
                              want);
                i++;
            }
        } else {
            ck_assert_uint_lt(i, n);
            const double want = json_number_value(row);
            ck_assert_msg(fabs(got[i] - want) <= abs_tol + 2e-4 * fabs(want),
                          "%s[%zu]: %.9g, torch says %.9g", what, r, (double)got[i], want);
            i++;
        }
    }
    ck_assert_uint_eq(i, n);
}

#endif
