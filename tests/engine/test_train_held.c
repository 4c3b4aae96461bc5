/* test_train_held.c - held out means never trained on: every task's count of
 * different sequences against a brute-force count of its draws, a generated
 * task's held-out set (different sequences, at most a fifth of the task's)
 * never drawn into a training batch, a task file's held-out rows (one in
 * five, at least one) never trained on, every task file that cannot be
 * split or has nothing to learn refused with its reason, and doc/files.md
 * and the man page documenting every task-file field with an example that
 * loads. */
#include <check.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "mha_config.h"
#include "train/train.h"
#include "io/model_io.h"

/* A sequence as one number, base vocab (the sizes here keep it small). */
static long encode(const int *tok, int len, int vocab)
{
    long v = 0;
    for (int t = 0; t < len; t++)
        v = v * vocab + tok[t];
    return v;
}

static const struct {
    const char *task;
    int vocab, len;
} small[] = {
    {"first-prev", 3, 4}, {"prev", 2, 3},      {"find-copy", 4, 4},
    {"find-copy", 5, 4},  {"majority", 16, 4}, {"majority", 3, 6},
};

START_TEST(test_sequence_counts)
{
    /* draws enough to see every sequence: the distinct ones are the count */
    const struct train_task *task = train_task_find(small[_i].task);
    const int V = small[_i].vocab, L = small[_i].len, draws = 40000;
    struct mha_error err;
    struct train_batch *b = train_batch_new(draws, L, task->n_outputs, &err);
    ck_assert_ptr_nonnull(b);
    struct rng r;
    rng_init(&r, 11);
    task->generate(task, b, V, &r);
    long space = 1;
    for (int t = 0; t < L; t++)
        space *= V;
    char *seen = calloc((size_t)space, 1);
    long distinct = 0;
    for (int s = 0; s < draws; s++) {
        const long v = encode(b->tokens + (size_t)s * (size_t)L, L, V);
        distinct += !seen[v];
        seen[v] = 1;
    }
    ck_assert_msg(fabs(task->sequences(V, L) - (double)distinct) < 0.5,
                  "%s at vocab %d, %d tokens: counted %.0f, drawn %ld different", task->name, V, L,
                  task->sequences(V, L), distinct);
    free(seen);
    train_batch_free(b);
}
END_TEST

/* Index of the held-out row equal to tokens, or -1. */
static int held_index(const struct train_batch *e, const int *tok)
{
    for (int s = 0; s < e->size; s++)
        if (!memcmp(e->tokens + (size_t)s * (size_t)e->len, tok, (size_t)e->len * sizeof(int)))
            return s;
    return -1;
}

static const struct {
    const char *task;
    int vocab, context, held;
} generated[] = {
    {"majority", 16, 8, 1024},  /* 6561 sequences: every one would be drawn in training */
    {"majority", 16, 5, 48},    /* 243: a fifth held out */
    {"prev", 2, 3, 1},          /* 8 */
    {"first-prev", 2, 4, 3},    /* 16 */
    {"find-copy", 4, 4, 14},    /* 72 */
    {"first-prev", 16, 8, 1024} /* 4 billion */
};

START_TEST(test_generated_never_trained_on)
{
    struct train_run_options o;
    train_run_options_default(&o);
    o.steps = 150;
    o.batch = 32;
    struct mha_error err;
    const struct train_task *task = train_task_find(generated[_i].task);
    struct train_run *run =
        train_run_new(task, 4, 1, generated[_i].vocab, generated[_i].context, &o, &err);
    ck_assert_msg(run != NULL, "%s", err.text);
    const struct train_batch *e = run->eval;
    ck_assert_int_eq(e->size, generated[_i].held);
    ck_assert_str_eq(train_run_held_out_source(run), "generated, disjoint from training");
    /* different sequences, each with the task's own targets */
    for (int s = 0; s < e->size; s++)
        ck_assert_int_eq(held_index(e, e->tokens + (size_t)s * (size_t)e->len), s);
    /* the sample shown is the first of them */
    ck_assert_mem_eq(run->model->sample, e->tokens, (size_t)e->len * sizeof(int));
    long drawn = 0;
    for (int step = 0; step < o.steps; step++) {
        ck_assert_int_eq(train_run_steps(run, 1), 1);
        for (int s = 0; s < run->batch->size; s++, drawn++) {
            const int *tok = run->batch->tokens + (size_t)s * (size_t)e->len;
            ck_assert_msg(held_index(e, tok) < 0,
                          "%s: step %d drew held-out sequence %d into training", task->name, step,
                          held_index(e, tok));
        }
    }
    ck_assert_int_eq(drawn, 150 * 32);
    train_run_free(run);
}
END_TEST

/* ---- task files ---- */

static char dir[512];

static void make_dir(void)
{
    snprintf(dir, sizeof dir, "/tmp/mha-held-XXXXXX");
    ck_assert_ptr_nonnull(mkdtemp(dir));
}

static void remove_dir(void)
{
    char path[768];
    snprintf(path, sizeof path, "%s/task.json", dir);
    remove(path);
    rmdir(dir);
}

/* A task file of text, loaded: the dataset or NULL + err. */
static struct train_dataset *load(const char *text, struct mha_error *err)
{
    char path[768];
    snprintf(path, sizeof path, "%s/task.json", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    fclose(f);
    return model_io_load_dataset(path, err);
}

/* rows rows of 3 tokens (row i: i in base 3, so up to 27 different rows)
 * with target "token + 1 mod 3" everywhere, output "next". */
static char *file_of_rows(int rows, const char *extra)
{
    static char text[8192];
    size_t n = (size_t)snprintf(text, sizeof text,
                                "{\"vocab\": [\"a\", \"b\", \"c\"], \"outputs\": [\"next\"], %s "
                                "\"tokens\": [",
                                extra);
    for (int i = 0; i < rows; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s[%d, %d, %d]", i ? ", " : "", i % 3,
                              (i / 3) % 3, (i / 9) % 3);
    n += (size_t)snprintf(text + n, sizeof text - n, "], \"targets\": [[");
    for (int i = 0; i < rows; i++)
        n += (size_t)snprintf(text + n, sizeof text - n, "%s[%d, %d, %d]", i ? ", " : "",
                              (i % 3 + 1) % 3, ((i / 3) % 3 + 1) % 3, ((i / 9) % 3 + 1) % 3);
    snprintf(text + n, sizeof text - n, "]]}");
    return text;
}

START_TEST(test_file_rows_held_out)
{
    make_dir();
    static const struct {
        int rows, held[4], n_held;
    } want[] = {{2, {1}, 1}, {4, {3}, 1}, {5, {4}, 1}, {12, {4, 9}, 2}, {20, {4, 9, 14, 19}, 4}};
    struct mha_error err;
    for (size_t c = 0; c < sizeof want / sizeof want[0]; c++) {
        struct train_dataset *d = load(file_of_rows(want[c].rows, ""), &err);
        ck_assert_msg(d != NULL, "%s", err.text);
        ck_assert_int_eq(d->n_held, want[c].n_held);
        ck_assert_int_eq(d->n_train, d->rows - d->n_held);
        for (int h = 0; h < d->n_held; h++)
            ck_assert_int_eq(d->order[d->n_train + h], want[c].held[h]);
        /* a run trains only on the others and measures on the held-out rows */
        struct train_task task;
        train_task_from_dataset(&task, d);
        struct train_run_options o;
        train_run_options_default(&o);
        o.steps = 40;
        o.batch = 16;
        struct train_run *run = train_run_new(&task, 4, 1, 3, 3, &o, &err);
        ck_assert_msg(run != NULL, "%s", err.text);
        ck_assert_int_eq(run->eval->size, d->n_held);
        ck_assert_str_eq(train_run_held_out_source(run), "task file rows");
        for (int h = 0; h < d->n_held; h++)
            ck_assert_mem_eq(run->eval->tokens + 3 * h, d->tokens + 3 * want[c].held[h],
                             3 * sizeof(int));
        for (int step = 0; step < o.steps; step++) {
            train_run_steps(run, 1);
            for (int s = 0; s < run->batch->size; s++)
                ck_assert_int_lt(held_index(run->eval, run->batch->tokens + 3 * s), 0);
        }
        train_run_free(run);
        train_dataset_free(d);
    }
    /* a row kept for training that repeats a held-out row's tokens is not
     * trained on either: rows 0 and 4 both "a a a" */
    struct train_dataset *d = load("{\"vocab\": [\"a\", \"b\"], \"outputs\": [\"o\"],"
                                   " \"tokens\": [[0, 0], [0, 1], [1, 0], [1, 1], [0, 0]],"
                                   " \"targets\": [[[1, 1], [0, 1], [1, 0], [0, 0], [0, 1]]]}",
                                   &err);
    ck_assert_msg(d != NULL, "%s", err.text);
    ck_assert_int_eq(d->n_held, 1);
    ck_assert_int_eq(d->order[d->n_train], 4);
    ck_assert_int_eq(d->n_train, 3);
    for (int i = 0; i < d->n_train; i++)
        ck_assert_int_ne(d->order[i], 0);
    train_dataset_free(d);
    remove_dir();
}
END_TEST

START_TEST(test_file_description)
{
    make_dir();
    struct mha_error err;
    struct train_dataset *d =
        load(file_of_rows(6, "\"description\": \"Name the letter after each one.\","), &err);
    ck_assert_msg(d != NULL, "%s", err.text);
    struct train_task task;
    train_task_from_dataset(&task, d);
    ck_assert_str_eq(task.description, "Name the letter after each one.");
    ck_assert_str_eq(task.name, "task");
    train_dataset_free(d);
    d = load(file_of_rows(6, ""), &err);
    ck_assert_ptr_nonnull(d);
    train_task_from_dataset(&task, d);
    ck_assert_ptr_nonnull(strstr(task.description, "from a file"));
    train_dataset_free(d);
    ck_assert_ptr_null(load(file_of_rows(6, "\"description\": \"bell\\u0007\","), &err));
    ck_assert_ptr_nonnull(strstr(err.text, "\"description\" contains"));
    ck_assert_ptr_null(load(file_of_rows(6, "\"description\": 3,"), &err));
    ck_assert_ptr_nonnull(strstr(err.text, "\"description\" must be a string"));
    remove_dir();
}
END_TEST

START_TEST(test_file_refused)
{
    static const struct {
        const char *tokens, *targets, *expect;
    } bad[] = {
        /* one row: nothing to hold out */
        {"[[0, 1]]", "[[[1, 0]]]", "\"tokens\" has 1 row: too few to hold any out"},
        /* no target at all */
        {"[[0, 1], [1, 0]]", "[[[-1, -1], [-1, -1]]]",
         "no targets to learn: every target in \"targets\" is -1"},
        /* one output without any */
        {"[[0, 1], [1, 0]]", "[[[1, -1], [0, -1]], [[-1, -1], [-1, -1]]]",
         "\"targets[1] (y)\": no targets to learn"},
        /* targets only in the held-out row */
        {"[[0, 1], [1, 0], [1, 1]]", "[[[-1, -1], [-1, -1], [0, 1]]]",
         "only the held-out rows (2) have targets"},
        /* none in the held-out rows: accuracy could not be measured */
        {"[[0, 1], [1, 0], [1, 1]]", "[[[0, 1], [1, 0], [-1, -1]]]",
         "the held-out rows (2, one row in 5) have no target"},
        /* every training row repeats the held-out one */
        {"[[0, 1], [0, 1]]", "[[[1, 0], [1, 0]]]", "nothing is left to train on"},
    };
    make_dir();
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char text[512];
        const bool two = strstr(bad[i].targets, "]], [[") != NULL;
        snprintf(text, sizeof text,
                 "{\"vocab\": [\"a\", \"b\"], \"outputs\": [\"x\"%s], \"tokens\": %s,"
                 " \"targets\": %s}",
                 two ? ", \"y\"" : "", bad[i].tokens, bad[i].targets);
        struct mha_error err;
        struct train_dataset *d = load(text, &err);
        ck_assert_msg(d == NULL, "case %zu was accepted", i);
        ck_assert_msg(strstr(err.text, bad[i].expect) != NULL, "case %zu: '%s' lacks '%s'", i,
                      err.text, bad[i].expect);
        ck_assert_ptr_nonnull(strstr(err.file, "task.json"));
    }
    remove_dir();
}
END_TEST

/* A generated task of two sequences holds one out; of one, it is refused. */
START_TEST(test_generated_too_small)
{
    const struct train_task *prev = train_task_find("prev");
    struct train_task t = *prev;
    t.name = "tiny";
    t.min_vocab = 1;
    t.min_context = 1;
    struct train_run_options o;
    train_run_options_default(&o);
    o.steps = 5;
    struct mha_error err;
    /* vocab 2, one token: 2 sequences, one held out, the other trained on */
    struct train_run *run = train_run_new(&t, 4, 1, 2, 1, &o, &err);
    ck_assert_msg(run != NULL, "%s", err.text);
    ck_assert_int_eq(run->eval->size, 1);
    train_run_steps(run, 5);
    for (int s = 0; s < run->batch->size; s++)
        ck_assert_int_ne(run->batch->tokens[s], run->eval->tokens[0]);
    train_run_free(run);
    ck_assert_ptr_null(train_run_new(&t, 4, 1, 1, 1, &o, &err));
    ck_assert_pstr_eq(err.text, "task tiny has only 1 different sequence at vocab 1 and context "
                                "1: too few to hold one out; use a larger --vocab or --context");
}
END_TEST

/* ---- the docs ---- */

/* A file of the source tree as a string, roff's "\-" read as "-". */
static char *source_file(const char *name)
{
    char path[512];
    snprintf(path, sizeof path, "%s/%s", MHA_SOURCE_ROOT, name);
    FILE *f = fopen(path, "r");
    ck_assert_msg(f != NULL, "cannot read %s", path);
    static char buf[1 << 18];
    const size_t n = fread(buf, 1, sizeof buf - 1, f);
    fclose(f);
    buf[n] = '\0';
    char *text = malloc(n + 1), *o = text;
    ck_assert_ptr_nonnull(text);
    for (const char *c = buf; *c; c++) {
        if (c[0] == '\\' && c[1] == '-')
            c++;
        *o++ = *c;
    }
    *o = '\0';
    return text;
}

/* The text between the first from after start and the next to: a new
 * string. */
static char *between(const char *text, const char *start, const char *from, const char *to)
{
    const char *a = strstr(text, start);
    ck_assert_msg(a != NULL, "no \"%s\"", start);
    a = strstr(a, from);
    ck_assert_msg(a != NULL, "no \"%s\" after \"%s\"", from, start);
    a += strlen(from);
    const char *b = strstr(a, to);
    ck_assert_ptr_nonnull(b);
    return strndup(a, (size_t)(b - a));
}

/* The example as next-letter.json loads, holds out its row 4, and keeps its
 * description. */
static void example_loads(const char *json, const char *where)
{
    char path[768];
    make_dir();
    snprintf(path, sizeof path, "%s/next-letter.json", dir);
    FILE *f = fopen(path, "w");
    ck_assert_ptr_nonnull(f);
    fputs(json, f);
    fclose(f);
    struct mha_error err;
    struct train_dataset *d = model_io_load_dataset(path, &err);
    ck_assert_msg(d != NULL, "%s's example: %s", where, err.text);
    ck_assert_str_eq(d->name, "next-letter");
    ck_assert_int_eq(d->n_outputs, 2);
    ck_assert_int_eq(d->n_held, 1);
    ck_assert_int_eq(d->order[d->n_train], 4);
    ck_assert_ptr_nonnull(strstr(d->description, "letter after each one"));
    train_dataset_free(d);
    remove(path);
    rmdir(dir);
}

START_TEST(test_docs_every_field)
{
    char *files = source_file("doc/files.md"), *man = source_file("doc/mha-explorer.1");
    char *fpart = between(files, "## Task files", "\n", "\n## ");
    char *mpart = between(man, ".SH TASK FILES", "\n", "\n.SH ");
    for (const char *const *k = model_io_task_file_fields; *k; k++) {
        char row[64], entry[64];
        snprintf(row, sizeof row, "| `%s` |", *k);
        snprintf(entry, sizeof entry, "\n.B %s\n", *k);
        ck_assert_msg(strstr(fpart, row), "doc/files.md: task-file field %s has no row", *k);
        ck_assert_msg(strstr(mpart, entry), "mha-explorer.1: task-file field %s has no entry", *k);
    }
    char *json = between(fpart, "```json", "\n", "\n```");
    example_loads(json, "doc/files.md");
    free(json);
    json = between(mpart, ".nf", "\n", "\n.fi");
    example_loads(json, "mha-explorer.1");
    free(json);
    free(fpart);
    free(mpart);
    free(files);
    free(man);
}
END_TEST

static Suite *held_suite(void)
{
    Suite *s = suite_create("train_held");
    TCase *tc = tcase_create("held");
    tcase_add_loop_test(tc, test_sequence_counts, 0, (int)(sizeof small / sizeof small[0]));
    tcase_add_loop_test(tc, test_generated_never_trained_on, 0,
                        (int)(sizeof generated / sizeof generated[0]));
    tcase_add_test(tc, test_file_rows_held_out);
    tcase_add_test(tc, test_file_description);
    tcase_add_test(tc, test_file_refused);
    tcase_add_test(tc, test_generated_too_small);
    tcase_add_test(tc, test_docs_every_field);
    tcase_set_timeout(tc, 120);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(held_suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
