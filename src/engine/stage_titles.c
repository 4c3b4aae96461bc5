/* stage_titles.c - what kind of numbers each tensor holds, and the title
 * templates of the stage table (stages.h). */
#include <stdio.h>
#include <string.h>

#include "engine/stages.h"

/* Each tensor's description, from its row of MHA_TENSORS (engine/explain.h). */
#define MHA_TENSOR_DESC(id, name, focus, kind, rows, cols, json_key, from, weight, heads, mask_of) \
    [MHA_TENSOR_##id] = {name,                                                                     \
                         focus,                                                                    \
                         MHA_KIND_##kind,                                                          \
                         MHA_SIDE_##rows,                                                          \
                         MHA_SIDE_##cols,                                                          \
                         json_key,                                                                 \
                         MHA_TENSOR_##from,                                                        \
                         MHA_TENSOR_##weight,                                                      \
                         MHA_TENSOR_##heads,                                                       \
                         MHA_TENSOR_##mask_of},
static const struct mha_tensor_desc descs[MHA_TENSOR_COUNT] = {MHA_TENSORS(MHA_TENSOR_DESC)};
#undef MHA_TENSOR_DESC

const struct mha_tensor_desc *mha_tensor_desc(enum mha_tensor x)
{
    return &descs[x >= 0 && x < MHA_TENSOR_COUNT ? x : 0];
}

struct mha_title_ctx mha_title_ctx_make(const struct mha_example *ex, const struct mha_trace *t,
                                        int head, int rows, bool wide)
{
    return (struct mha_title_ctx){
        .head = head,
        .rows = rows,
        .lq = t->lq,
        .lk = t->lk,
        .d_model = t->d_model,
        .heads = t->heads,
        .d_k = t->d_k,
        .scaled = t->scaled,
        .causal = ex->causal,
        .wide = wide,
        .mask = ex->causal ? (ex->has_mask ? "causal + explicit" : "causal")
                           : (ex->has_mask ? "explicit" : "none"),
    };
}

/* The text buffer being filled. */
struct out {
    char *buf;
    size_t n, used;
};

static void put(struct out *o, const char *s, size_t len)
{
    for (size_t i = 0; i < len && o->used + 1 < o->n; i++)
        o->buf[o->used++] = s[i];
    o->buf[o->used] = '\0';
}

static void put_int(struct out *o, int v)
{
    char num[16];
    const int w = snprintf(num, sizeof num, "%d", v);
    put(o, num, w > 0 ? (size_t)w : 0);
}

/* The end of the {...} opening at s (the matching '}'), or NULL. */
static const char *closing(const char *s, const char *end)
{
    int depth = 0;
    for (; s < end; s++) {
        depth += *s == '{';
        depth -= *s == '}';
        if (depth == 0)
            return s;
    }
    return NULL;
}

/* The '|' of a choice's body [s, end) at depth 0, or end. */
static const char *bar(const char *s, const char *end)
{
    int depth = 0;
    for (; s < end; s++) {
        depth += *s == '{';
        depth -= *s == '}';
        if (depth == 0 && *s == '|')
            return s;
    }
    return end;
}

static bool same(const char *s, size_t len, const char *word)
{
    return strlen(word) == len && strncmp(s, word, len) == 0;
}

static void expand(struct out *o, const char *s, const char *end, const struct mha_title_ctx *c);

/* "heads>N" or "heads==N" against heads; anything else is false. */
static bool heads_test(const char *s, size_t len, int heads)
{
    char cond[24];
    if (len >= sizeof cond)
        return false;
    memcpy(cond, s, len);
    cond[len] = '\0';
    int n, used = 0;
    if (sscanf(cond, "heads>%d%n", &n, &used) == 1 && (size_t)used == len)
        return heads > n;
    if (sscanf(cond, "heads==%d%n", &n, &used) == 1 && (size_t)used == len)
        return heads == n;
    return false;
}

/* One {name} or {cond?A|B} whose text is [s, end) without the braces. */
static void field(struct out *o, const char *s, const char *end, const struct mha_title_ctx *c)
{
    const char *q = memchr(s, '?', (size_t)(end - s));
    if (q) {
        const size_t len = (size_t)(q - s);
        const bool yes = same(s, len, "scaled")   ? c->scaled
                         : same(s, len, "causal") ? c->causal
                         : same(s, len, "wide")   ? c->wide
                                                  : heads_test(s, len, c->heads);
        const char *mid = bar(q + 1, end);
        if (yes)
            expand(o, q + 1, mid, c);
        else if (mid < end)
            expand(o, mid + 1, end, c);
        return;
    }
    const size_t len = (size_t)(end - s);
    static const char *const names[] = {"h", "L", "Lq", "Lk", "d", "H", "d_k", "d_k-1"};
    const int values[] = {c->head, c->rows, c->lq, c->lk, c->d_model, c->heads, c->d_k, c->d_k - 1};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++)
        if (same(s, len, names[i])) {
            put_int(o, values[i]);
            return;
        }
    if (same(s, len, "mask") && c->mask)
        put(o, c->mask, strlen(c->mask));
}

static void expand(struct out *o, const char *s, const char *end, const struct mha_title_ctx *c)
{
    while (s < end) {
        const char *open = memchr(s, '{', (size_t)(end - s));
        if (!open) {
            put(o, s, (size_t)(end - s));
            return;
        }
        put(o, s, (size_t)(open - s));
        const char *close = closing(open, end);
        if (!close) { /* not a field: the rest as it is */
            put(o, open, (size_t)(end - open));
            return;
        }
        field(o, open + 1, close, c);
        s = close + 1;
    }
}

char *mha_title_expand(char *buf, size_t n, const char *tmpl, const struct mha_title_ctx *c)
{
    if (!n)
        return buf;
    struct out o = {buf, n, 0};
    buf[0] = '\0';
    if (tmpl)
        expand(&o, tmpl, tmpl + strlen(tmpl), c);
    return buf;
}
