/* views_drift.c - each head's score form in two weight sets compared. */
#include "engine/views_drift.h"

#include <math.h>

static double dot(const float *x, const float *y, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += (double)x[i] * (double)y[i];
    return s;
}

/* <A_i(x), A_i(y)> = Σ_ab (q_xa·q_yb)(k_yb·k_xa) over head h's rows a, b */
static double form_dot(const struct mha_example *x, const struct mha_example *y, int h, int dk)
{
    const int d = x->d_model;
    const size_t off = (size_t)h * (size_t)dk * (size_t)d;
    const float *qx = x->w_q + off, *qy = y->w_q + off;
    const float *kx = x->w_k + off, *ky = y->w_k + off;
    double s = 0.0;
    for (int a = 0; a < dk; a++)
        for (int b = 0; b < dk; b++)
            s += dot(qx + (size_t)a * d, qy + (size_t)b * d, d) *
                 dot(ky + (size_t)b * d, kx + (size_t)a * d, d);
    return s;
}

int views_heads_drift(const struct mha_example *a, const struct mha_example *b, double *cos)
{
    if (a->d_model != b->d_model || a->heads != b->heads || a->heads < 1)
        return -1;
    const int dk = a->d_model / a->heads;
    for (int h = 0; h < a->heads; h++) {
        const double na = form_dot(a, a, h, dk), nb = form_dot(b, b, h, dk);
        cos[h] = na > 0.0 && nb > 0.0 ? form_dot(a, b, h, dk) / sqrt(na * nb) : 0.0;
    }
    return 0;
}
