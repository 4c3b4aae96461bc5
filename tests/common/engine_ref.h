/* engine_ref.h - what the engine's tests (test_engine*.c, one executable)
 * share: the reference numbers of tests/data/engine_cases.json, written by
 * tests/reference/generate_engine.py (torch.nn.MultiheadAttention plus a
 * numpy stage-by-stage path), read into examples and compared with the
 * engine's traces.
 *
 * Where the data is: argv[1] (the JSON file), else $MHA_TEST_DATA (a folder
 * holding engine_cases.json, or the file itself).
 *
 * Tolerance: a stored float32 reference e and an engine value g agree when
 *     |g - e| < TOL_REL * |e| + TOL_ABS * scale
 * where scale = max(1, largest |e| of that stage in that case).  Both sides
 * are float32 computations that differ only in summation order, so the
 * error grows with the size of the terms, not of the one result; the stage
 * scale covers results that are small through cancellation (raw scores in the
 * thousands whose scaled difference is a weight near 0.5). */
#ifndef ENGINE_REF_H
#define ENGINE_REF_H

#include <check.h>
#include <jansson.h>
#include <stdbool.h>
#include <stddef.h>

#include "engine/mat.h"
#include "engine/mha.h"

extern json_t *eref_doc;   /* the whole reference file */
extern json_t *eref_cases; /* doc["cases"] */

/* Load the reference file (argv[1], else $MHA_TEST_DATA); 0, or -1 with a
 * message on stderr. */
int eref_load(int argc, char **argv);

/* obj[key] as a new array of exactly count floats (the caller frees). */
float *eref_read_floats(const json_t *obj, const char *key, size_t count);
int eref_read_int(const json_t *obj, const char *key);
bool eref_read_bool(const json_t *obj, const char *key);
const char *eref_case_name(const json_t *c);
/* The case of that name (the test fails when there is none). */
const json_t *eref_case_named(const char *name);
/* An engine example holding case c's inputs and flags. */
struct mha_example *eref_build_case(const json_t *c);
struct mha_trace *eref_run_example(const struct mha_example *ex, const char *name);
/* Compare n engine values with the stored stage key of case c.  A null in
 * the reference (a masked scaled score) must be -INFINITY in the engine. */
void eref_compare_stage(const json_t *c, const char *key, const float *got, size_t n,
                        enum mat_backend backend);
void eref_compare_all_stages(const json_t *c, const struct mha_trace *t, enum mat_backend backend);
bool eref_all_not_nan(const float *x, size_t n);
bool eref_any_nonzero(const float *x, size_t n);
/* _i of a loop test over both backends: even = plain, odd = CBLAS. */
enum mat_backend eref_backend_for(int i);

/* The topics' test cases, added to the engine's suite by test_engine.c. */
void engine_add_generated(Suite *s); /* test_engine_generator.c */
void engine_add_masking(Suite *s);   /* test_engine_masking.c: masking, huge */
void engine_add_long(Suite *s);      /* test_engine_long.c: heads of more than 64 keys */
void engine_add_sizes(Suite *s);     /* test_engine_sizes.c: sizes, stages */
void engine_add_generator(Suite *s); /* test_engine_generator.c */

#endif
