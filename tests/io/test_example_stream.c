/* test_example_stream.c - an example file read in two passes without a
 * tree for its numbers (example_stream.h) gives exactly what the tree gives:
 * the same example, or the same message at the same line and column.  Every
 * example file the tests and the program carry, and a few hundred variants of
 * one made here: every shape, number, mask and bias mistake the two passes
 * read themselves, and the mistakes they leave to jansson (strings and
 * nesting in a matrix, escaped keys, syntax errors before and inside a
 * matrix, numbers jansson refuses, a file past the limits scanner). */
#include <check.h>
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/example_io.h"
#include "test_tmp.h"
#include "check_run.h"

static char dir[512];

/* The example as text, or the message, for comparing. */
static char *outcome(struct mha_example *ex, const struct mha_error *err)
{
    if (ex) {
        char *s = mha_example_to_string(ex);
        mha_example_free(ex);
        return s;
    }
    char msg[MHA_ERROR_TEXT_MAX + MHA_ERROR_FILE_MAX + 32];
    return strdup(mha_error_format(err, msg, sizeof msg));
}

/* Both ways agree on path; returns whether the two passes read it
 * themselves. */
static bool same(const char *path)
{
    struct mha_error e1, e2;
    /* files under 1 MiB go through jansson's tree */
    char *whole = outcome(mha_example_load(path, &e1), &e1);
    bool streamed;
    char *passes = outcome(mha_example_load_streamed(path, &e2, &streamed), &e2);
    ck_assert_msg(!strcmp(whole, passes), "%s:\n tree:   %.300s\n passes: %.300s", path, whole,
                  passes);
    free(whole);
    free(passes);
    return streamed;
}

static const char *put(const char *name, const char *text)
{
    static char path[2048];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    ck_assert_int_eq(test_tmp_put(path, text, 0644), 0);
    return path;
}

START_TEST(test_carried_files)
{
    const char *const folders[] = {"tests/data/examples", "tests/data/bad", "tests/data/hostile",
                                   "assets/examples"};
    const char *root = getenv("MHA_DATA_DIR");
    int n = 0;
    for (size_t i = 0; i < sizeof folders / sizeof folders[0]; i++) {
        char folder[4096];
        snprintf(folder, sizeof folder, "%s/%s", root ? root : ".", folders[i]);
        DIR *d = opendir(folder);
        ck_assert_ptr_nonnull(d);
        struct dirent *e;
        while ((e = readdir(d))) {
            const size_t len = strlen(e->d_name);
            if (len < 5 || strcmp(e->d_name + len - 5, ".json"))
                continue;
            char path[4400];
            snprintf(path, sizeof path, "%s/%s", folder, e->d_name);
            same(path);
            n++;
        }
        closedir(d);
    }
    ck_assert_int_ge(n, 30);
}
END_TEST

/* An example of 3 tokens, d_model 4, with each part replaceable. */
struct parts {
    const char *head, *query, *w_q, *b_q, *mask, *tail;
};

static const char *build(const struct parts *p)
{
    static char text[8192];
    snprintf(text, sizeof text,
             "{%s\"tokens\": [\"a\", \"b\", \"c\"], \"d_model\": 4, \"num_heads\": 2,\n"
             " \"query\": %s,\n \"w_q\": %s,\n \"b_q\": %s,\n \"mask\": %s%s}\n",
             p->head, p->query, p->w_q, p->b_q, p->mask, p->tail);
    return text;
}

static const struct parts good = {
    "",
    "[[0.5, -1.25, 3, 4e-2], [1, 2, 3, 4], [-0.0, 0, 1E+2, 999999.5]]",
    "[[1, 0, 0, 0], [0, 1, 0, 0], [0, 0, 1, 0], [0.1, 0.2, 0.3, 0.4]]",
    "[0.5, 0.25, -0.125, 1e-7]",
    "[[1, 0, 0], [true, false, 1], [1, 1, -0]]",
    ""};

START_TEST(test_variants)
{
    test_tmp_dir(dir, sizeof dir, "mha-ex-stream");
    ck_assert(same(put("good.json", build(&good))));
    const char *queries[] = {
        "[[0.5, -1.25, 3, 4e-2], [1, 2, 3, 4]]",                                /* rows */
        "[[0.5, -1.25, 3], [1, 2, 3, 4], [1, 2, 3, 4]]",                        /* a short row */
        "[[0.5, -1.25, 3, 4], [1, 2, 3, 4, 5], [1, 2, 3, 4]]",                  /* a long row */
        "[[0.5, -1.25, 3, 4], 7, [1, 2, 3, 4]]",                                /* an integer row */
        "[[0.5, -1.25, 3, 4], 7.5, [1, 2, 3, 4]]",                              /* a real row */
        "[[0.5, -1.25, 3, 4], [1, 2, 1234567, 4], [1, 2, 3, 4]]",               /* too large */
        "[[0.5, -1.25, 3, 4], [1, 2, -1000000.5, 4], [1, 2, 3, 2e6]]",          /* two */
        "[[0.5, -1.25, 3, 4], [1, 2, 1e6, 4], [1, 2, 3, 1000000]]",             /* the edge */
        "[[0.5, \"x\", 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                     /* a string */
        "[[0.5, null, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                      /* null */
        "[[0.5, true, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                      /* a boolean */
        "[[0.5, [1], 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                       /* nesting */
        "[[0.5, {}, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                        /* an object */
        "[[01, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                          /* 01 */
        "[[1., 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                          /* 1. */
        "[[.5, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                          /* .5 */
        "[[1e, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                          /* 1e */
        "[[-, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                           /* - */
        "[[1-2, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                         /* 1-2 */
        "[[+1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                          /* +1 */
        "[[1e400, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                       /* overflow */
        "[[12345678901234567890, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",        /* 2^64 */
        "[[0.1234567890123456789012345, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]", /* long */
        "[[1e-400, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",                      /* underflow */
        "[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4],]",                          /* a comma */
        "[[1, 2, 3, 4] [1, 2, 3, 4], [1, 2, 3, 4]]",                            /* no comma */
        "[[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]",                            /* unclosed */
        "[]",
        "[[], [], []]",
        "[[0.5,-1.25,3,4e-2],[1,2,3,4],[\t-0.0 ,\n0 , 1E+2,999999.5 ]]",
        "5",
        "\"query\"",
        "{\"a\": 1}",
    };
    int n = 0;
    for (size_t i = 0; i < sizeof queries / sizeof queries[0]; i++) {
        struct parts p = good;
        p.query = queries[i];
        char name[32];
        snprintf(name, sizeof name, "q%zu.json", i);
        same(put(name, build(&p)));
        p = good;
        p.w_q = queries[i]; /* the same mistakes in a weight: other rows expected */
        snprintf(name, sizeof name, "w%zu.json", i);
        same(put(name, build(&p)));
        n += 2;
    }
    const char *biases[] = {"[0.5, 0.25]",
                            "[0.5, 0.25, 1, 2, 3]",
                            "[0.5, 2e6, 1, 3e6]",
                            "[0.5, [1], 1, 2]",
                            "[0.5, \"x\", 1, 2]",
                            "[]",
                            "7",
                            "[0.5 0.25 1 2]"};
    for (size_t i = 0; i < sizeof biases / sizeof biases[0]; i++) {
        struct parts p = good;
        p.b_q = biases[i];
        char name[32];
        snprintf(name, sizeof name, "b%zu.json", i);
        same(put(name, build(&p)));
        n++;
    }
    const char *masks[] = {"[[1, 0, 0], [1, 1, 0]]",
                           "[[1, 0, 0], [1, 1], [1, 1, 1]]",
                           "[[1, 0, 0], 1, [1, 1, 1]]",
                           "[[1, 0, 2], [1, 1, 0], [1, 1, 1]]",
                           "[[1, 0, 1.0], [1, 1, 0], [1, 1, 1]]",
                           "[[1, 0, -1], [1, 1, 0], [1, 1, 1]]",
                           "[[1, 0, null], [1, 1, 0], [1, 1, 1]]",
                           "[[1, 0, \"1\"], [1, 1, 0], [1, 1, 1]]",
                           "[[1, 0, tru], [1, 1, 0], [1, 1, 1]]",
                           "[[1, 0, [1]], [1, 1, 0], [1, 1, 1]]",
                           "[[true, false, true], [false, true, false], [1, 0, 1]]",
                           "[]"};
    for (size_t i = 0; i < sizeof masks / sizeof masks[0]; i++) {
        struct parts p = good;
        p.mask = masks[i];
        char name[32];
        snprintf(name, sizeof name, "m%zu.json", i);
        same(put(name, build(&p)));
        n++;
    }
    /* around the matrices: what only jansson reads */
    const char *heads[] = {"\"q\\u0075ery\": [[9, 9, 9, 9]], ",
                           "\"query\": [[1, 2, 3, 4]], ",
                           "\"tokens\": 3, ",
                           "\"seed\": 7, \"causal\": true, ",
                           "\"x\": 1, ",
                           "\"description\": \"d\", ",
                           "\"d_model\": 4, ",
                           "\"tokens\": [\"a\" ,"};
    for (size_t i = 0; i < sizeof heads / sizeof heads[0]; i++) {
        struct parts p = good;
        p.head = heads[i];
        char name[32];
        snprintf(name, sizeof name, "h%zu.json", i);
        same(put(name, build(&p)));
        n++;
    }
    const char *tails[] = {", \"w_q\": [[1]]",
                           ", \"key\": [[1, 2, 3, 4]]",
                           "} trailing",
                           ",",
                           ", \"value\": [[1, 2, 3, 4], [1, 2, 3, 4], [1, 2, 3, 4]]",
                           ", \"key_tokens\": [\"x\"], \"key\": [[1, 2, 3, 4]]"};
    for (size_t i = 0; i < sizeof tails / sizeof tails[0]; i++) {
        struct parts p = good;
        p.tail = tails[i];
        char name[32];
        snprintf(name, sizeof name, "t%zu.json", i);
        same(put(name, build(&p)));
        n++;
    }
    /* no d_model: the tree reads it from the query */
    same(put("nod.json", "{\"tokens\": [\"a\"], \"num_heads\": 1, \"query\": [[1, 2]]}"));
    /* cut short anywhere */
    const char *full = build(&good);
    const size_t len = strlen(full);
    for (size_t cut = 0; cut < len; cut += 7) {
        char text[8192];
        memcpy(text, full, cut);
        text[cut] = '\0';
        same(put("cut.json", text));
        n++;
    }
    ck_assert_int_ge(n, 100);
    test_tmp_remove(dir);
}
END_TEST

/* Larger than a 64 KiB block: numbers across block edges, and the limits
 * scanner's excess (too many rows) with and without a syntax error before. */
START_TEST(test_blocks_and_limits)
{
    test_tmp_dir(dir, sizeof dir, "mha-ex-stream");
    const int d = 64, rows = 1024;
    size_t cap = (size_t)rows * d * 24 + 4096, at = 0;
    char *text = malloc(cap);
    at += (size_t)snprintf(text + at, cap - at, "{\"tokens\": [");
    for (int i = 0; i < rows; i++)
        at += (size_t)snprintf(text + at, cap - at, "%s\"t%d\"", i ? ", " : "", i);
    at += (size_t)snprintf(text + at, cap - at,
                           "], \"d_model\": %d, \"num_heads\": 4,\n\"query\": [", d);
    unsigned v = 1;
    for (int i = 0; i < rows; i++) {
        at += (size_t)snprintf(text + at, cap - at, "%s[", i ? ",\n" : "");
        for (int j = 0; j < d; j++) {
            v = v * 1103515245u + 12345u;
            at += (size_t)snprintf(text + at, cap - at, "%s%.9g", j ? ", " : "",
                                   ((double)(v >> 8) / (1 << 24) - 0.5) * (j % 7 ? 2.0 : 2e-6));
        }
        at += (size_t)snprintf(text + at, cap - at, "]");
    }
    memcpy(text + at, "]}\n", 4);
    ck_assert(same(put("big.json", text)));
    /* one number somewhere in the middle made a mistake of each kind */
    char *mid = strstr(text + at / 2, ", ") + 2;
    const char *bad[] = {"\"s\"", "1e999", "2e6", "nul"};
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        char saved[8];
        memcpy(saved, mid, sizeof saved);
        const size_t n = strcspn(mid, ",]");
        char *copy = malloc(at + 64);
        memcpy(copy, text, (size_t)(mid - text));
        size_t k = (size_t)(mid - text);
        k += (size_t)sprintf(copy + k, "%s", bad[i]);
        strcpy(copy + k, mid + n);
        same(put("bigbad.json", copy));
        free(copy);
    }
    /* a list longer than any an example holds: the limits scanner's message,
     * unless a mistake before it comes first */
    for (int early = 0; early < 3; early++) {
        at = (size_t)sprintf(text,
                             "{\"tokens\": [\"a\"%s], \"d_model\": 4, \"num_heads\": 1, "
                             "\"query\": [[",
                             early == 1   ? " \"b\""
                             : early == 2 ? ", 5"
                                          : "");
        for (int j = 0; j < 70000; j++)
            at += (size_t)sprintf(text + at, "%s0.25", j ? ", " : "");
        memcpy(text + at, "]]}\n", 5);
        same(put("long.json", text));
    }
    /* empty rows past the limit, in the query and in the mask */
    for (int field = 0; field < 2; field++) {
        at = (size_t)sprintf(text,
                             "{\"tokens\": [\"a\"], \"num_heads\": 1, \"d_model\": 2, \"%s\": [",
                             field ? "mask" : "query");
        for (int j = 0; j < 90000; j++)
            at += (size_t)sprintf(text + at, "%s[]", j ? "," : "");
        memcpy(text + at, "]}\n", 4);
        same(put("empty.json", text));
    }
    free(text);
    test_tmp_remove(dir);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("example_stream");
    TCase *tc = tcase_create("same");
    tcase_set_timeout(tc, 120);
    tcase_add_test(tc, test_carried_files);
    tcase_add_test(tc, test_variants);
    tcase_add_test(tc, test_blocks_and_limits);
    suite_add_tcase(s, tc);
    return check_run(s);
}
