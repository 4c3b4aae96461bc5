/* rng.c - mulberry32: add the Weyl constant, then two xorshift-multiply
 * rounds and a final xorshift; the 32-bit result over 2^32 is in [0, 1). */
#include "engine/rng.h"

void rng_init(struct rng *r, uint32_t seed)
{
    r->state = seed;
}

double rng_next(struct rng *r)
{
    r->state += 0x6D2B79F5u;
    uint32_t t = r->state;
    t = (t ^ (t >> 15)) * (t | 1u);
    t ^= t + (t ^ (t >> 7)) * (t | 61u);
    t ^= t >> 14;
    return (double)t / 4294967296.0;
}

double rng_uniform(struct rng *r, double lo, double hi)
{
    return lo + (hi - lo) * rng_next(r);
}
