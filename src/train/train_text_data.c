/* train_text_data.c - a text as a dataset for next-word prediction
 * (train_text.h): the words counted, the vocabulary chosen, the lines cut
 * into rows with their targets, a jobs file matched word for word, and
 * the held-out lines.  One allocation holds the dataset; the counting
 * tables are freed before it returns. */
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "train/train_text.h"

/* A different word of the text: where it first is, how often it comes. */
struct word_kind {
    size_t start, len;
    long count;
    long first; /* the index of its first occurrence */
};

/* The words of the text: every occurrence as its kind, line by line. */
struct words {
    char *buf; /* the text, lower-cased unless the case is kept */
    size_t len;
    struct word_kind *kinds;
    long n_kinds, kinds_cap;
    uint32_t *slots; /* hash table of kinds + 1 (0 = empty) */
    size_t n_slots;
    int *occ; /* (n_occ) the kind of each word */
    long n_occ, occ_cap;
    long *line_first; /* (lines + 1): the first occurrence of each line */
    int lines;
};

static uint32_t hash_bytes(const char *s, size_t n)
{
    uint32_t h = 2166136261u;
    for (size_t i = 0; i < n; i++) {
        h ^= (unsigned char)s[i];
        h *= 16777619u;
    }
    return h;
}

static int grow_slots(struct words *w)
{
    const size_t n = w->n_slots ? 2 * w->n_slots : 1024;
    uint32_t *s = calloc(n, sizeof *s);
    if (!s)
        return -1;
    for (long k = 0; k < w->n_kinds; k++) {
        const struct word_kind *e = &w->kinds[k];
        size_t i = hash_bytes(w->buf + e->start, e->len) & (n - 1);
        while (s[i])
            i = (i + 1) & (n - 1);
        s[i] = (uint32_t)(k + 1);
    }
    free(w->slots);
    w->slots = s;
    w->n_slots = n;
    return 0;
}

/* The kind of the word at buf[start .. start + len), added when new; -1
 * when out of memory. */
static long kind_of(struct words *w, size_t start, size_t len)
{
    if ((size_t)(w->n_kinds + 1) * 2 > w->n_slots && grow_slots(w))
        return -1;
    size_t i = hash_bytes(w->buf + start, len) & (w->n_slots - 1);
    for (; w->slots[i]; i = (i + 1) & (w->n_slots - 1)) {
        struct word_kind *e = &w->kinds[w->slots[i] - 1];
        if (e->len == len && !memcmp(w->buf + e->start, w->buf + start, len))
            return (long)w->slots[i] - 1;
    }
    if (w->n_kinds == w->kinds_cap) {
        const long cap = w->kinds_cap ? 2 * w->kinds_cap : 1024;
        struct word_kind *k = realloc(w->kinds, (size_t)cap * sizeof *k);
        if (!k)
            return -1;
        w->kinds = k;
        w->kinds_cap = cap;
    }
    w->kinds[w->n_kinds] = (struct word_kind){start, len, 0, w->n_occ};
    w->slots[i] = (uint32_t)(w->n_kinds + 1);
    return w->n_kinds++;
}

static void words_free(struct words *w)
{
    free(w->buf);
    free(w->kinds);
    free(w->slots);
    free(w->occ);
    free(w->line_first);
}

/* Cut the text into lines and words. 0, or -1 (out of memory). */
static int read_words(struct words *w)
{
    int lines = 1;
    for (size_t i = 0; i < w->len; i++)
        lines += w->buf[i] == '\n';
    if (w->len && w->buf[w->len - 1] == '\n')
        lines--; /* a last newline ends a line; it does not start one */
    w->line_first = malloc(((size_t)lines + 1) * sizeof *w->line_first);
    if (!w->line_first)
        return -1;
    size_t at = 0;
    for (int l = 0; l < lines; l++) {
        const char *nl = memchr(w->buf + at, '\n', w->len - at);
        const size_t end = nl ? (size_t)(nl - w->buf) : w->len;
        w->line_first[l] = w->n_occ;
        size_t p = at, start, wlen;
        while (train_text_next_word(w->buf, end, &p, &start, &wlen)) {
            const long k = kind_of(w, start, wlen);
            if (k < 0)
                return -1;
            if (w->n_occ == w->occ_cap) {
                const long cap = w->occ_cap ? 2 * w->occ_cap : 4096;
                int *o = realloc(w->occ, (size_t)cap * sizeof *o);
                if (!o)
                    return -1;
                w->occ = o;
                w->occ_cap = cap;
            }
            w->occ[w->n_occ++] = (int)k;
            w->kinds[k].count++;
        }
        at = end + 1;
    }
    w->line_first[lines] = w->n_occ;
    w->lines = lines;
    return 0;
}

static int line_words(const struct words *w, int l)
{
    return (int)(w->line_first[l + 1] - w->line_first[l]);
}

/* A kind's place in the vocabulary's order: by count (more first), then
 * by first occurrence. */
struct ranked {
    long count, first, kind;
};

static int by_count(const void *a, const void *b)
{
    const struct ranked *x = a, *y = b;
    if (x->count != y->count)
        return x->count > y->count ? -1 : 1;
    return (x->first > y->first) - (x->first < y->first);
}

/* ---- the jobs file ---- */

static bool tag_char(char c)
{
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_' || c == '-';
}

/* The job of every word (-1 for "-") into job (n_occ), names into t.
 * 0, or -1 + err at the jobs file's line. */
static int read_jobs(const struct words *w, const char *jobs, size_t len, const char *name,
                     signed char *job, struct train_text *t, struct mha_error *err)
{
    if (train_text_check(jobs, len, name, err))
        return -1;
    size_t at = 0;
    int l = 0;
    for (; at < len || l < w->lines; l++) {
        const char *nl = at < len ? memchr(jobs + at, '\n', len - at) : NULL;
        const size_t end = at >= len ? len : nl ? (size_t)(nl - jobs) : len;
        if (l >= w->lines) {
            for (size_t i = at; i < end; i++)
                if (jobs[i] != ' ' && jobs[i] != '\r' && jobs[i] != '\t') {
                    mha_error_set(err, "the jobs file has more lines than the text's %d", w->lines);
                    mha_error_at(err, name, l + 1, 0);
                    return -1;
                }
            at = end + 1;
            continue;
        }
        const int want = line_words(w, l);
        int n = 0;
        for (size_t i = at; i < end;) {
            while (i < end && (jobs[i] == ' ' || jobs[i] == '\t' || jobs[i] == '\r'))
                i++;
            if (i >= end)
                break;
            size_t j = i;
            while (j < end && jobs[j] != ' ' && jobs[j] != '\t' && jobs[j] != '\r')
                j++;
            int id = -1;
            if (!(j - i == 1 && jobs[i] == '-')) {
                bool ok = j - i < TRAIN_NAME_MAX;
                for (size_t c = i; c < j && ok; c++)
                    ok = tag_char(jobs[c]);
                if (!ok) {
                    mha_error_set(err,
                                  "word %d: a job is '-' or 1 to %d of a-z, 0-9, _ and -, not "
                                  "\"%.*s\"",
                                  n + 1, TRAIN_NAME_MAX - 1, (int)(j - i > 40 ? 40 : j - i),
                                  jobs + i);
                    mha_error_at(err, name, l + 1, 0);
                    return -1;
                }
                for (id = 0; id < t->n_jobs; id++)
                    if (strlen(t->job_names[id]) == j - i &&
                        !memcmp(t->job_names[id], jobs + i, j - i))
                        break;
                if (id == t->n_jobs) {
                    if (t->n_jobs == TRAIN_TEXT_MAX_JOBS) {
                        mha_error_set(err, "more than %d different jobs", TRAIN_TEXT_MAX_JOBS);
                        mha_error_at(err, name, l + 1, 0);
                        return -1;
                    }
                    memcpy(t->job_names[id], jobs + i, j - i);
                    t->job_names[id][j - i] = '\0';
                    t->n_jobs++;
                }
            }
            if (n < want)
                job[w->line_first[l] + n] = (signed char)id;
            n++;
            i = j;
        }
        if (n != want) {
            mha_error_set(err,
                          "%d job%s for the %d word%s of line %d of the text; give one job "
                          "('-' for none) per word",
                          n, n == 1 ? "" : "s", want, want == 1 ? "" : "s", l + 1);
            mha_error_at(err, name, l + 1, 0);
            return -1;
        }
        at = end + 1;
    }
    return 0;
}

/* ---- rows and the held-out lines ---- */

/* Rows of a line of n words cut at context T (a last piece of one word has
 * nothing to predict). */
static int rows_of(int n, int T)
{
    if (n < 2)
        return 0;
    const int rows = (n + T - 1) / T;
    return n - (rows - 1) * T == 1 ? rows - 1 : rows;
}

static uint32_t hash_row(const int *tok, int len)
{
    return hash_bytes((const char *)tok, (size_t)len * sizeof *tok);
}

/* order: the training rows (not held out, not repeating a held-out row),
 * then the held-out ones.  0, or -1 (out of memory). */
static int split_rows(struct train_dataset *d, const bool *held)
{
    const int len = d->len;
    size_t cap = 16;
    while (cap < 2 * (size_t)d->rows)
        cap *= 2;
    int *set = calloc(cap, sizeof *set); /* held-out rows + 1 */
    if (!set)
        return -1;
    int n_held = 0, n_train = 0;
    for (int r = 0; r < d->rows; r++) {
        if (!held[r])
            continue;
        size_t i = hash_row(d->tokens + (size_t)r * (size_t)len, len) & (cap - 1);
        while (set[i])
            i = (i + 1) & (cap - 1);
        set[i] = r + 1;
        n_held++;
    }
    for (int r = 0, h = d->rows - n_held; r < d->rows; r++) {
        if (held[r]) {
            d->order[h++] = r;
            continue;
        }
        const int *tok = d->tokens + (size_t)r * (size_t)len;
        bool seen = false;
        for (size_t i = hash_row(tok, len) & (cap - 1); set[i] && !seen; i = (i + 1) & (cap - 1))
            seen = !memcmp(d->tokens + (size_t)(set[i] - 1) * (size_t)len, tok,
                           (size_t)len * sizeof *tok);
        if (!seen)
            d->order[n_train++] = r;
    }
    memmove(d->order + n_train, d->order + d->rows - n_held, (size_t)n_held * sizeof(int));
    d->n_train = n_train;
    d->n_held = n_held;
    free(set);
    return 0;
}

/* kind[l]: which different line line l is (0, 1, .. in the order they
 * first come), for the lines with a word to predict; -1 for the others.
 * first[l]: line l is the first copy of its kind.  The number of different
 * lines, or -1 (out of memory). */
static int line_kinds(const struct words *w, int *kind, bool *first)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)w->lines)
        cap *= 2;
    int *set = calloc(cap, sizeof *set); /* first copies + 1 */
    if (!set)
        return -1;
    int n_kinds = 0;
    for (int l = 0; l < w->lines; l++) {
        const int n = line_words(w, l);
        kind[l] = -1;
        first[l] = false;
        if (n < 2)
            continue;
        const int *occ = w->occ + w->line_first[l];
        size_t i = hash_bytes((const char *)occ, (size_t)n * sizeof *occ) & (cap - 1);
        for (; set[i]; i = (i + 1) & (cap - 1)) {
            const int o = set[i] - 1;
            if (line_words(w, o) == n &&
                !memcmp(w->occ + w->line_first[o], occ, (size_t)n * sizeof *occ)) {
                kind[l] = kind[o];
                break;
            }
        }
        if (kind[l] >= 0)
            continue;
        set[i] = l + 1;
        kind[l] = n_kinds++;
        first[l] = true;
    }
    free(set);
    return n_kinds;
}

/* Different line k of n is held out (train_text.h). */
static bool held_kind(int k, int n)
{
    return n < TRAIN_TEXT_HELD_OUT_EVERY
               ? k == n - 1
               : k % TRAIN_TEXT_HELD_OUT_EVERY == TRAIN_TEXT_HELD_OUT_EVERY - 1;
}

/* "sentences.txt" -> "sentences" (at most TRAIN_NAME_MAX - 1 bytes). */
static void task_name(const char *file, char *out)
{
    size_t n = strlen(file);
    if (n > 4 && !strcmp(file + n - 4, ".txt"))
        n -= 4;
    n = n < TRAIN_NAME_MAX ? n : TRAIN_NAME_MAX - 1;
    memcpy(out, file, n);
    out[n] = '\0';
}

static size_t align64(size_t n)
{
    return (n + 63u) & ~(size_t)63u;
}

struct train_dataset *train_text_dataset_new(const char *text, size_t len, const char *name,
                                             const char *jobs, size_t jobs_len,
                                             const char *jobs_name,
                                             const struct train_text_options *o,
                                             struct mha_error *err)
{
    if (o->vocab < 2 || o->vocab > TRAIN_MAX_VOCAB || o->context < 2 ||
        o->context > TRAIN_MAX_CONTEXT) {
        mha_error_set(err, "a text needs a vocabulary of 2 to %d and a context of 2 to %d",
                      TRAIN_MAX_VOCAB, TRAIN_MAX_CONTEXT);
        return NULL;
    }
    if (len > TRAIN_TEXT_MAX_BYTES) {
        mha_error_set(err, "%zu bytes; a text file holds at most %zu", len, TRAIN_TEXT_MAX_BYTES);
        mha_error_at(err, name, 0, 0);
        return NULL;
    }
    if (train_text_check(text, len, name, err))
        return NULL;
    struct words w = {0};
    struct train_dataset *d = NULL;
    signed char *job = NULL;
    struct ranked *rank = NULL;
    int *vocab_id = NULL;
    bool *held = NULL;
    int *kind = NULL;
    bool *first = NULL;
    const size_t bom = len >= 3 && !memcmp(text, "\xEF\xBB\xBF", 3) ? 3 : 0;
    w.len = len - bom;
    w.buf = malloc(w.len + 1);
    if (!w.buf)
        goto oom;
    memcpy(w.buf, text + bom, w.len);
    w.buf[w.len] = '\0';
    if (!o->keep_case)
        train_text_lower(w.buf, w.len);
    if (read_words(&w))
        goto oom;
    if (w.n_occ == 0) {
        mha_error_set(err,
                      "%s: no words to learn from (one sentence a line, words "
                      "separated by spaces)",
                      len ? "only spaces and empty lines" : "the file is empty");
        mha_error_at(err, name, 0, 0);
        goto fail;
    }
    struct train_text t;
    memset(&t, 0, sizeof t);
    if (jobs) {
        job = malloc((size_t)w.n_occ);
        if (!job)
            goto oom;
        if (read_jobs(&w, jobs, jobs_len, jobs_name, job, &t, err))
            goto fail;
    }

    /* the vocabulary: <unk>, then the most frequent words that fit a label */
    rank = malloc((size_t)w.n_kinds * sizeof *rank);
    vocab_id = malloc((size_t)w.n_kinds * sizeof *vocab_id);
    if (!rank || !vocab_id)
        goto oom;
    for (long k = 0; k < w.n_kinds; k++)
        rank[k] = (struct ranked){w.kinds[k].count, w.kinds[k].first, k};
    qsort(rank, (size_t)w.n_kinds, sizeof *rank, by_count);
    int vocab = 1;
    for (long r = 0; r < w.n_kinds; r++) {
        const long k = rank[r].kind;
        const bool fits = w.kinds[k].len < TRAIN_LABEL_MAX && vocab < o->vocab;
        vocab_id[k] = fits ? vocab++ : 0;
        t.unknown += fits ? 0 : w.kinds[k].count;
        t.unknown_kinds += !fits;
    }
    vocab = vocab < 2 ? 2 : vocab; /* <unk> and one word at least */

    /* the rows: their number, length and the lines held out */
    const int T = o->context;
    int rows = 0, longest = 0, used = 0;
    for (int l = 0; l < w.lines; l++) {
        const int n = line_words(&w, l), r = rows_of(n, T);
        if (r > TRAIN_TEXT_MAX_ROWS - rows) {
            /* a larger --context makes fewer rows only of lines longer than it */
            const bool split = t.split_lines + (n > T) > 0;
            mha_error_set(err,
                          "more than %d rows of at most %d words: the text is too long to "
                          "train on; use %s",
                          TRAIN_TEXT_MAX_ROWS, T,
                          split ? "a larger --context or a shorter text"
                                : "a shorter text (each line is one row: none is longer than "
                                  "--context)");
            mha_error_at(err, name, l + 1, 0);
            goto fail;
        }
        rows += r;
        used += r > 0;
        t.split_lines += n > T;
        const int row_len = n > T ? T : n;
        longest = r && row_len > longest ? row_len : longest;
    }
    if (used == 0) {
        mha_error_set(err, "no line has two words or more, so there is no next word to predict "
                           "(one sentence a line, words separated by spaces)");
        mha_error_at(err, name, 0, 0);
        goto fail;
    }
    kind = malloc((size_t)w.lines * sizeof *kind);
    first = malloc((size_t)w.lines * sizeof *first);
    if (!kind || !first)
        goto oom;
    const int kinds = line_kinds(&w, kind, first);
    if (kinds < 0)
        goto oom;
    if (kinds == 1) {
        mha_error_set(err,
                      "%d line%s with two words or more, and only 1 different line among "
                      "them: one different line in %d (at least one) is held out with every "
                      "copy of it, so nothing is left to train on; give the text 2 different "
                      "lines or more",
                      used, used == 1 ? "" : "s", TRAIN_TEXT_HELD_OUT_EVERY);
        mha_error_at(err, name, 0, 0);
        goto fail;
    }
    if ((size_t)rows * (size_t)longest > TRAIN_TEXT_MAX_CELLS) {
        mha_error_set(err,
                      "%d rows of %d words: more than %d word places to train on; use a "
                      "shorter --context or a shorter text",
                      rows, longest, TRAIN_TEXT_MAX_CELLS);
        mha_error_at(err, name, 0, 0);
        goto fail;
    }
    const size_t cells = (size_t)rows * (size_t)longest;
    const size_t bytes = align64(sizeof *d) + align64(sizeof(struct train_text)) +
                         align64((size_t)vocab * TRAIN_LABEL_MAX) +
                         align64(cells * sizeof(int)) * 2 +
                         align64((size_t)rows * sizeof(int)) * 3 + align64(cells);
    char *block = calloc(1, bytes);
    held = calloc((size_t)rows, sizeof *held);
    if (!block || !held) {
        free(block);
        goto oom;
    }
    d = (struct train_dataset *)(void *)block;
    d->block = block;
    char *p = block + align64(sizeof *d);
    d->text = (struct train_text *)(void *)p;
    p += align64(sizeof(struct train_text));
    d->vocab_names = (char(*)[TRAIN_LABEL_MAX])(void *)p;
    p += align64((size_t)vocab * TRAIN_LABEL_MAX);
    d->tokens = (int *)(void *)p;
    p += align64(cells * sizeof(int));
    d->targets[0] = (int *)(void *)p;
    p += align64(cells * sizeof(int));
    d->order = (int *)(void *)p;
    p += align64((size_t)rows * sizeof(int));
    t.row_len = (int *)(void *)p;
    p += align64((size_t)rows * sizeof(int));
    t.line_of = (int *)(void *)p;
    p += align64((size_t)rows * sizeof(int));
    t.jobs = (signed char *)p;

    d->rows = rows;
    d->len = longest;
    d->vocab = vocab;
    d->n_outputs = 1;
    d->causal = true;
    snprintf(d->outputs[0].name, TRAIN_NAME_MAX, "next");
    d->outputs[0].classes = vocab;
    d->outputs[0].has_bias = true;
    snprintf(d->vocab_names[0], TRAIN_LABEL_MAX, "%s", TRAIN_TEXT_UNKNOWN);
    for (long k = 0; k < w.n_kinds; k++)
        if (vocab_id[k])
            snprintf(d->vocab_names[vocab_id[k]], TRAIN_LABEL_MAX, "%.*s", (int)w.kinds[k].len,
                     w.buf + w.kinds[k].start);
    if (vocab == 2 && !d->vocab_names[1][0]) /* every word too long: a label never used */
        snprintf(d->vocab_names[1], TRAIN_LABEL_MAX, "<none>");

    /* pass: the rows, line by line; held out: the first copy of every
     * HELD_OUT_EVERY-th different line with a word to predict */
    memset(t.jobs, -1, cells);
    for (size_t i = 0; i < cells; i++)
        d->targets[0][i] = -1;
    int row = 0;
    for (int l = 0; l < w.lines; l++) {
        const int n = line_words(&w, l), r = rows_of(n, T);
        if (!r)
            continue;
        const bool hold = first[l] && held_kind(kind[l], kinds);
        t.held_lines += hold;
        const long first = w.line_first[l];
        for (int c = 0; c < r; c++, row++) {
            const int s = c * T, m = n - s < T ? n - s : T;
            int *tok = d->tokens + (size_t)row * (size_t)longest;
            int *tgt = d->targets[0] + (size_t)row * (size_t)longest;
            signed char *jb = t.jobs + (size_t)row * (size_t)longest;
            for (int i = 0; i < m; i++) {
                tok[i] = vocab_id[w.occ[first + s + i]];
                if (s + i + 1 < n) {
                    tgt[i] = vocab_id[w.occ[first + s + i + 1]];
                    jb[i] = job ? job[first + s + i + 1] : -1;
                }
            }
            t.row_len[row] = m;
            t.line_of[row] = l;
            held[row] = hold;
        }
    }
    if (split_rows(d, held))
        goto oom;
    t.dropped_rows = d->rows - d->n_held - d->n_train;
    if (d->n_train == 0) {
        mha_error_set(err,
                      "every one of the %d rows kept for training repeats a held-out row "
                      "(words read as <unk> make rows alike): nothing is left to train on; "
                      "give the text more different lines or a larger --vocab",
                      t.dropped_rows);
        mha_error_at(err, name, 0, 0);
        goto fail;
    }
    const char *base = strrchr(name, '/');
    base = base ? base + 1 : name;
    snprintf(t.file, sizeof t.file, "%s", base);
    task_name(t.file, d->name);
    t.lowercase = !o->keep_case;
    t.lines = w.lines;
    t.used_lines = used;
    t.different_lines = kinds;
    t.context = T;
    t.words = w.n_occ;
    t.distinct = w.n_kinds;
    *d->text = t;
    snprintf(d->description, sizeof d->description,
             "Next-word prediction on %s: after each word, say the word that follows. %d "
             "lines, %d different (%d held out, never trained on), %ld words, a vocabulary of "
             "%d (%ld word%s read as <unk>)%s.",
             t.file, used, kinds, t.held_lines, t.words, vocab, t.unknown,
             t.unknown == 1 ? "" : "s", t.split_lines ? "; long lines cut" : "");
    free(rank);
    free(vocab_id);
    free(held);
    free(kind);
    free(first);
    free(job);
    words_free(&w);
    return d;
oom:
    mha_error_set(err, "out of memory reading the text");
    mha_error_at(err, name, 0, 0);
fail:
    if (d)
        free(d->block);
    free(rank);
    free(vocab_id);
    free(held);
    free(kind);
    free(first);
    free(job);
    words_free(&w);
    return NULL;
}
