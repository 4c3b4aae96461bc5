/* json_max.h - the largest |number| in a jansson tree, for the tests that
 * compare gradients with a tolerance scaled to the reference's size. */
#ifndef JSON_MAX_H
#define JSON_MAX_H

#include <jansson.h>
#include <math.h>

/* The largest |number| in nested arrays and objects. */
static inline double tree_max_abs(json_t *t)
{
    double m = 0.0;
    const char *key;
    size_t i;
    json_t *v;
    if (json_is_object(t)) {
        json_object_foreach(t, key, v) m = fmax(m, tree_max_abs(v));
    } else if (json_is_array(t)) {
        json_array_foreach(t, i, v) m = fmax(m, tree_max_abs(v));
    } else {
        m = fabs(json_number_value(t));
    }
    return m;
}

#endif
