/* quiz.c - ```quiz blocks: parsing, and the answer from the example on screen. */
#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lesson/lesson_parse.h"
#include "lesson/lesson_state.h"

static bool parse_double(const char *s, double *out)
{
    char *end;
    double v = strtod(s, &end);
    if (!*s || *end || !isfinite(v))
        return false;
    *out = v;
    return true;
}

bool lesson_quiz_number(const char *s, double *out)
{
    /* "2,359,296" is 2359296: a comma counts only between groups of three
     * digits before the point ("0,5" and "12,34" are not numbers) */
    char plain[64];
    size_t n = 0;
    const char *digits = s + (*s == '-' || *s == '+');
    const char *point = strpbrk(digits, ".eE");
    for (const char *c = s; *c; c++) {
        if (*c == ',') {
            const char *group = c + 1;
            int k = 0;
            while (group[k] >= '0' && group[k] <= '9')
                k++;
            const bool lead = c > digits && c[-1] >= '0' && c[-1] <= '9';
            if (!lead || k != 3 || (point && c > point) ||
                (group[k] && group[k] != ',' && group[k] != '.' && group[k] != 'e' &&
                 group[k] != 'E'))
                return false;
            continue;
        }
        if (n + 1 >= sizeof plain)
            return false;
        plain[n++] = *c;
    }
    plain[n] = '\0';
    return parse_double(plain, out);
}

static void quiz_kv(struct lesson *l, void *ctx, const char *key, const char *v, int line)
{
    struct lesson_quiz *q = ctx;
    char **slot = NULL;
    if (!strcmp(key, "question"))
        slot = &q->question;
    else if (!strcmp(key, "answer")) {
        slot = &q->answer;
        q->answer_line = line;
    } else if (!strcmp(key, "compute")) {
        slot = &q->compute;
        q->compute_line = line;
    } else if (!strcmp(key, "explain"))
        slot = &q->explain;
    else if (!strcmp(key, "hide")) {
        slot = &q->hide;
        q->hide_line = line;
    } else if (!strcmp(key, "tolerance")) {
        if (!parse_double(v, &q->tolerance) || q->tolerance < 0)
            lesson_diag_add(l, line, "tolerance: expected a number >= 0, got \"%s\"", v);
        return;
    } else if (!strcmp(key, "choices")) {
        if (q->choices) {
            lesson_diag_add(l, line, "choices is given twice in this quiz");
            return;
        }
        char *copy = lesson_strdup(v);
        for (char *save = NULL, *p = copy;; p = NULL) {
            char *c = strtok_r(p, "|", &save);
            if (!c)
                break;
            while (*c == ' ')
                c++;
            size_t n = strlen(c);
            while (n > 0 && c[n - 1] == ' ')
                c[--n] = '\0';
            if (!*c) {
                lesson_diag_add(l, line, "choices: an empty choice between two |");
                continue;
            }
            char **nc = realloc(q->choices, (size_t)(q->n_choices + 1) * sizeof *nc);
            if (!nc) {
                lesson_out_of_memory();
                break;
            }
            q->choices = nc;
            q->choices[q->n_choices++] = lesson_strdup(c);
        }
        free(copy);
        if (q->n_choices < 2)
            lesson_diag_add(l, line, "choices: give at least two, separated by |");
        if (q->n_choices > 9)
            lesson_diag_add(l, line, "choices: at most 9 (they are picked with the keys 1-9)");
        return;
    } else {
        lesson_diag_add(l, line,
                        "unknown quiz key \"%s\" (known: question, choices, answer, compute, "
                        "tolerance, explain, hide)",
                        key);
        return;
    }
    if (*slot) {
        lesson_diag_add(l, line, "%s is given twice in this quiz", key);
        return;
    }
    *slot = lesson_strdup(v);
}

void lesson_parse_quiz(struct lesson *l, struct lesson_quiz *q, const char *body, int fence_line)
{
    memset(q, 0, sizeof *q);
    q->line = fence_line;
    q->tolerance = 0.01;
    lesson_each_kv(l, body, fence_line, true, quiz_kv, q);
    if (!q->question || !*q->question)
        lesson_diag_add(l, fence_line, "the quiz has no question: add \"question: ...\"");
    if (!q->explain || !*q->explain)
        lesson_diag_add(l, fence_line,
                        "the quiz has no explanation: add \"explain: ...\" (shown after the "
                        "reader answers)");
    if (!q->answer || !*q->answer) {
        lesson_diag_add(l, fence_line, "the quiz has no answer: add \"answer: ...\"");
        return;
    }
    q->computed = strcmp(q->answer, "computed") == 0;
    if (q->computed) {
        struct lesson_compute c;
        if (!q->compute)
            lesson_diag_add(l, q->answer_line, "answer: computed needs a \"compute: ...\" line");
        else if (lesson_compute_parse(q->compute, &c) != 0)
            lesson_diag_add(l, q->compute_line,
                            "compute: \"%s\" is not understood; expected argmax head H row R, "
                            "weight head H row R col C, d_k, d_model, heads, tokens, params or "
                            "next",
                            q->compute);
        else if (c.kind == COMPUTE_ARGMAX && q->n_choices == 0)
            lesson_diag_add(l, q->compute_line,
                            "compute: argmax gives a token; list the tokens in \"choices:\"");
        else if (c.kind == COMPUTE_NEXT && q->n_choices == 0)
            lesson_diag_add(l, q->compute_line,
                            "compute: next gives a word; list the words in \"choices:\"");
        return;
    }
    if (q->compute)
        lesson_diag_add(l, q->compute_line,
                        "compute is given but the answer is not "
                        "\"computed\"");
    if (q->n_choices > 0) {
        bool found = false;
        for (int i = 0; i < q->n_choices; i++)
            found = found || strcmp(q->choices[i], q->answer) == 0;
        if (!found)
            lesson_diag_add(l, q->answer_line, "answer: \"%s\" is not one of the choices",
                            q->answer);
    } else {
        double v;
        if (!parse_double(q->answer, &v))
            lesson_diag_add(l, q->answer_line,
                            "answer: \"%s\" is not a number; give choices, a number or "
                            "\"computed\"",
                            q->answer);
    }
}

void lesson_quiz_done(struct lesson_quiz *q)
{
    free(q->question);
    for (int i = 0; i < q->n_choices; i++)
        free(q->choices[i]);
    free(q->choices);
    free(q->answer);
    free(q->compute);
    free(q->explain);
    free(q->hide);
    memset(q, 0, sizeof *q);
}

/* ---- compute forms ---- */

/* Read "word VALUE" pairs: value may hold spaces up to the next keyword. */
static bool take(const char **p, const char *word)
{
    size_t n = strlen(word);
    while (**p == ' ')
        (*p)++;
    if (strncmp(*p, word, n) != 0 || ((*p)[n] != ' ' && (*p)[n] != '\0'))
        return false;
    *p += n;
    while (**p == ' ')
        (*p)++;
    return true;
}

/* Copy text up to " <stop>" (or the end) into out. */
static bool value_until(const char **p, const char *stop, char *out, size_t n)
{
    const char *end = NULL;
    if (stop) {
        char pat[16];
        snprintf(pat, sizeof pat, " %s ", stop);
        end = strstr(*p, pat);
    }
    if (!end)
        end = *p + strlen(*p);
    size_t len = (size_t)(end - *p);
    while (len > 0 && (*p)[len - 1] == ' ')
        len--;
    if (len == 0 || len >= n)
        return false;
    memcpy(out, *p, len);
    out[len] = '\0';
    *p = end;
    return true;
}

int lesson_compute_parse(const char *text, struct lesson_compute *c)
{
    memset(c, 0, sizeof *c);
    const char *p = text;
    static const struct {
        const char *word;
        enum lesson_compute_kind kind;
    } simple[] = {{"d_k", COMPUTE_D_K},       {"d_model", COMPUTE_D_MODEL},
                  {"heads", COMPUTE_HEADS},   {"tokens", COMPUTE_TOKENS},
                  {"params", COMPUTE_PARAMS}, {"next", COMPUTE_NEXT}};
    for (size_t i = 0; i < sizeof simple / sizeof simple[0]; i++)
        if (strcmp(text, simple[i].word) == 0) {
            c->kind = simple[i].kind;
            return 0;
        }
    char head[32];
    if (take(&p, "argmax"))
        c->kind = COMPUTE_ARGMAX;
    else if (take(&p, "weight"))
        c->kind = COMPUTE_WEIGHT;
    else
        return -1;
    if (!take(&p, "head") || !value_until(&p, "row", head, sizeof head))
        return -1;
    char *end;
    c->head = (int)strtol(head, &end, 10);
    if (*end || c->head < 0)
        return -1;
    if (!take(&p, "row") ||
        !value_until(&p, c->kind == COMPUTE_WEIGHT ? "col" : NULL, c->row, sizeof c->row))
        return -1;
    if (c->kind == COMPUTE_WEIGHT &&
        (!take(&p, "col") || !value_until(&p, NULL, c->col, sizeof c->col)))
        return -1;
    return 0;
}

/* Index of a label (first match) or a 0-based number; -1 if neither.
 * labels may be NULL (rows known by index only). */
int lesson_find_label(char *const *labels, int n, const char *want)
{
    for (int i = 0; labels && i < n; i++)
        if (strcmp(labels[i], want) == 0)
            return i;
    char *end;
    long v = strtol(want, &end, 10);
    if (*want && !*end && v >= 0 && v < n)
        return (int)v;
    return -1;
}

int lesson_quiz_expected(const struct lesson_quiz *q, const struct mha_example *ex,
                         const struct mha_trace *t, struct lesson_answer *out,
                         struct mha_error *err)
{
    memset(out, 0, sizeof *out);
    if (!q->answer)
        return mha_error_set(err, "the quiz has no answer");
    if (!q->computed) {
        double v;
        if (q->n_choices == 0 && parse_double(q->answer, &v)) {
            out->numeric = true;
            out->number = v;
        }
        snprintf(out->text, sizeof out->text, "%s", q->answer);
        return 0;
    }
    struct lesson_compute c;
    if (lesson_compute_parse(q->compute ? q->compute : "", &c))
        return mha_error_set(err, "compute: \"%s\" is not understood", q->compute);
    out->numeric = c.kind != COMPUTE_ARGMAX && c.kind != COMPUTE_NEXT;
    switch (c.kind) {
    case COMPUTE_NEXT:
        if (!ex->has_next_word || ex->next_word.n < 1)
            return mha_error_set(err, "compute: next needs a trained language model (load: "
                                      "models/sentences.json)");
        snprintf(out->text, sizeof out->text, "%s", ex->next_word.word[0]);
        return 0;
    case COMPUTE_D_K:
        out->number = t->d_k;
        break;
    case COMPUTE_D_MODEL:
        out->number = t->d_model;
        break;
    case COMPUTE_HEADS:
        out->number = t->heads;
        break;
    case COMPUTE_TOKENS:
        out->number = t->lq;
        break;
    case COMPUTE_PARAMS:
        out->number = 4.0 * t->d_model * t->d_model + (ex->has_bias ? 4.0 * t->d_model : 0.0);
        break;
    case COMPUTE_ARGMAX:
    case COMPUTE_WEIGHT: {
        if (c.head >= t->heads)
            return mha_error_set(err, "compute: head %d does not exist (heads 0..%d)", c.head,
                                 t->heads - 1);
        int row = lesson_find_label(ex->tokens, ex->lq, c.row);
        if (row < 0)
            return mha_error_set(err, "compute: row \"%s\" is not a token of the example", c.row);
        const float *w = t->weights + mha_idx3(t->lq, t->lk, c.head, row, 0);
        if (c.kind == COMPUTE_WEIGHT) {
            int col = lesson_find_label(ex->key_tokens, ex->lk, c.col);
            if (col < 0)
                return mha_error_set(err, "compute: col \"%s\" is not a key token", c.col);
            out->number = w[col];
            break;
        }
        int best = 0;
        for (int j = 1; j < t->lk; j++)
            if (w[j] > w[best])
                best = j;
        snprintf(out->text, sizeof out->text, "%s", ex->key_tokens[best]);
        return 0;
    }
    }
    snprintf(out->text, sizeof out->text, "%g", out->number);
    return 0;
}

bool lesson_quiz_is_right(const struct lesson_quiz *q, const struct lesson_answer *expected,
                          const char *given)
{
    if (expected->numeric) {
        double v;
        return lesson_quiz_number(given, &v) && fabs(v - expected->number) <= q->tolerance;
    }
    return strcmp(given, expected->text) == 0;
}
