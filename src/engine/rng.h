/* rng.h - mulberry32, the small public-domain 32-bit generator the
 * step-by-step page draws its numbers from. */
#ifndef MHA_RNG_H
#define MHA_RNG_H

#include <stdint.h>

struct rng {
    uint32_t state;
};

void rng_init(struct rng *r, uint32_t seed);
/* Next number in [0, 1): the mixed 32-bit state divided by 2^32. */
double rng_next(struct rng *r);
/* Uniform in [lo, hi). */
double rng_uniform(struct rng *r, double lo, double hi);

#endif
