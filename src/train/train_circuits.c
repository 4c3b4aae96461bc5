/* train_circuits.c - a head's QK and OV circuits from a model's weights,
 * and the readable tops of them (train_circuits.h). */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/mat.h"
#include "train/train_circuits.h"

size_t train_circuit_scratch(const struct train_model *m)
{
    const size_t V = (size_t)m->cfg.vocab, T = (size_t)m->cfg.context, d = (size_t)m->cfg.d_model;
    const size_t dk = d / (size_t)m->cfg.heads, rows = V > T ? V : T;
    const size_t qk = 2 * rows * dk, ov = V * dk + d * dk + V * d;
    return qk > ov ? qk : ov;
}

static int check_head(const struct train_model *m, int h, struct mha_error *err)
{
    if (h < 0 || h >= m->cfg.heads)
        return mha_error_set(err, "head %d: the model has heads 1 to %d", h + 1, m->cfg.heads);
    return 0;
}

/* (rows (n, d)·W_q,hᵀ + b_q,h)·(rows·W_k,hᵀ)ᵀ / s into out (n, n). */
static void scores(const struct train_model *m, int h, const float *rows, int n, bool query_bias,
                   float *out, float *scratch)
{
    const int d = m->cfg.d_model, dk = d / m->cfg.heads;
    const size_t off = (size_t)h * (size_t)dk;
    const struct mha_params *a = &m->p.attn[m->shown_layer];
    float *q = scratch, *k = scratch + (size_t)n * (size_t)dk;
    mat_linear(rows, a->w_q + off * (size_t)d, query_bias ? a->b_q + off : NULL, q, n, dk, d);
    mat_linear(rows, a->w_k + off * (size_t)d, NULL, k, n, dk, d);
    mat_mul(q, k, out, n, n, dk, true);
    if (m->cfg.scaled) {
        const float s = 1.0f / sqrtf((float)dk);
        for (size_t i = 0; i < (size_t)n * (size_t)n; i++)
            out[i] *= s;
    }
}

int train_circuit_qk(const struct train_model *m, int h, float *out, float *scratch,
                     struct mha_error *err)
{
    if (check_head(m, h, err))
        return -1;
    scores(m, h, m->p.embedding, m->cfg.vocab, true, out, scratch);
    return 0;
}

int train_circuit_qk_pos(const struct train_model *m, int h, float *out, float *scratch,
                         struct mha_error *err)
{
    if (check_head(m, h, err))
        return -1;
    scores(m, h, m->p.positions, m->cfg.context, false, out, scratch);
    return 0;
}

int train_circuit_ov(const struct train_model *m, int h, int k, float *out, float *scratch,
                     struct mha_error *err)
{
    if (h != -1 && check_head(m, h, err))
        return -1;
    if (k < 0 || k >= m->cfg.n_outputs)
        return mha_error_set(err, "output %d: the model has %d", k + 1, m->cfg.n_outputs);
    const int V = m->cfg.vocab, d = m->cfg.d_model, dk = d / m->cfg.heads;
    const int C = m->cfg.outputs[k].classes;
    if (h < 0) {
        mat_mul(m->p.embedding, m->p.unembed[k], out, V, C, d, true);
        return 0;
    }
    const size_t off = (size_t)h * (size_t)dk;
    float *ve = scratch, *wo = ve + (size_t)V * (size_t)dk, *o = wo + (size_t)d * (size_t)dk;
    /* what each word's value is, then what the head's share of the output
     * projection makes of it, then the logits that raises */
    const struct mha_params *a = &m->p.attn[m->shown_layer];
    mat_linear(m->p.embedding, a->w_v + off * (size_t)d, NULL, ve, V, dk, d);
    for (int r = 0; r < d; r++)
        memcpy(wo + (size_t)r * (size_t)dk, a->w_o + (size_t)r * (size_t)d + off,
               (size_t)dk * sizeof *wo);
    mat_mul(ve, wo, o, V, d, dk, true);
    mat_mul(o, m->p.unembed[k], out, V, C, d, true);
    return 0;
}

/* ---- readable ---- */

void train_circuit_class_name(const struct train_model *m, int k, int o, char *buf, size_t n)
{
    if (m->cfg.outputs[k].classes == m->cfg.vocab)
        snprintf(buf, n, "%s", m->vocab_names[o]);
    else
        snprintf(buf, n, "%d", o);
}

static double row_mean(const float *row, int n)
{
    double s = 0.0;
    for (int i = 0; i < n; i++)
        s += row[i];
    return n ? s / n : 0.0;
}

/* Put p into the sorted list top (count of n kept, the larger value first;
 * an equal value keeps its place after the earlier ones). */
static int keep_top(struct train_circuit_pair *top, int count, int n, struct train_circuit_pair p)
{
    if (count == n && !(p.value > top[n - 1].value))
        return count;
    int at = count < n ? count : n - 1;
    while (at > 0 && p.value > top[at - 1].value) {
        top[at] = top[at - 1];
        at--;
    }
    top[at] = p;
    return count < n ? count + 1 : count;
}

int train_circuit_top_qk(const float *qk, int V, int n, struct train_circuit_pair *out)
{
    int count = 0;
    if (n <= 0)
        return 0;
    for (int i = 0; i < V; i++) {
        const float *row = qk + (size_t)i * (size_t)V;
        const double mean = row_mean(row, V);
        for (int j = 0; j < V; j++)
            count =
                keep_top(out, count, n, (struct train_circuit_pair){i, j, (float)(row[j] - mean)});
    }
    return count;
}

int train_circuit_top_ov(const float *ov, int V, int C, int n, int r,
                         struct train_circuit_pair *out)
{
    if (n <= 0 || r <= 0)
        return 0;
    if (r > C)
        r = C;
    /* the attended words by their strongest raise */
    struct train_circuit_pair best[64];
    if (n > 64)
        n = 64;
    int count = 0;
    for (int j = 0; j < V; j++) {
        const float *row = ov + (size_t)j * (size_t)C;
        const double mean = row_mean(row, C);
        float top = -INFINITY;
        for (int o = 0; o < C; o++)
            if (row[o] > top)
                top = row[o];
        count = keep_top(best, count, n, (struct train_circuit_pair){j, -1, (float)(top - mean)});
    }
    for (int w = 0; w < count; w++) {
        const int j = best[w].from;
        const float *row = ov + (size_t)j * (size_t)C;
        const double mean = row_mean(row, C);
        int got = 0;
        for (int o = 0; o < C; o++)
            got = keep_top(out + (size_t)w * (size_t)r, got, r,
                           (struct train_circuit_pair){j, o, (float)(row[o] - mean)});
    }
    return count;
}

void train_circuit_offset(const float *qk_pos, int T, bool causal, struct train_circuit_place *out)
{
    /* offsets a - b run from -(T - 1) to T - 1 */
    int wins[2 * TRAIN_MAX_CONTEXT];
    memset(wins, 0, sizeof wins);
    memset(out, 0, sizeof *out);
    for (int a = 1; a < T; a++) {
        const float *row = qk_pos + (size_t)a * (size_t)T;
        const int last = causal ? a : T - 1;
        int at = 0;
        for (int b = 1; b <= last; b++)
            if (row[b] > row[at])
                at = b;
        wins[a - at + TRAIN_MAX_CONTEXT - 1]++;
        out->first += at == 0;
        out->rows++;
    }
    /* the smaller distance first: 0, 1, -1, 2, -2, ... */
    for (int dist = 0; dist < T; dist++)
        for (int sign = 1; sign >= -1; sign -= 2) {
            const int off = dist * sign;
            const int c = wins[off + TRAIN_MAX_CONTEXT - 1];
            if (c > out->count) {
                out->count = c;
                out->offset = off;
            }
            if (dist == 0)
                break;
        }
}

void train_circuit_place_text(const struct train_circuit_place *p, char *buf, size_t n)
{
    if (p->rows == 0)
        snprintf(buf, n, "%s", "");
    else if (p->first > p->count)
        snprintf(buf, n, "the first (%d of %d)", p->first, p->rows);
    else if (p->offset == 0)
        snprintf(buf, n, "itself (%d of %d)", p->count, p->rows);
    else
        snprintf(buf, n, "%d %s (%d of %d)", p->offset > 0 ? p->offset : -p->offset,
                 p->offset > 0 ? "back" : "ahead", p->count, p->rows);
}

/* ---- a scale that reads, and a head in one line ---- */

float train_circuit_z(const float *row, int n, int at)
{
    if (n < 2 || at < 0 || at >= n)
        return 0.0f;
    double mean = 0.0, var = 0.0;
    for (int i = 0; i < n; i++)
        mean += row[i];
    mean /= n;
    for (int i = 0; i < n; i++)
        var += (row[i] - mean) * (row[i] - mean);
    var /= n;
    return var > 0.0 ? (float)((row[at] - mean) / sqrt(var)) : 0.0f;
}

/* The column of row's largest value (the first of equal ones). */
static int arg_max(const float *row, int n)
{
    int best = 0;
    for (int i = 1; i < n; i++)
        if (row[i] > row[best])
            best = i;
    return best;
}

int train_circuit_read(const struct train_model *m, int h, float *qk, float *pos, float *ov,
                       float *scratch, struct train_circuit_reading *out, struct mha_error *err)
{
    const int V = m->cfg.vocab, T = m->cfg.context;
    memset(out, 0, sizeof *out);
    out->copy_k = -1;
    if (train_circuit_qk(m, h, qk, scratch, err) || train_circuit_qk_pos(m, h, pos, scratch, err))
        return -1;
    train_circuit_offset(pos, T, m->cfg.causal, &out->place);
    for (int i = 0; i < V; i++)
        out->same += arg_max(qk + (size_t)i * (size_t)V, V) == i;
    out->same_of = V;
    struct train_circuit_pair top[1];
    if (train_circuit_top_qk(qk, V, 1, top) == 1) {
        out->has_look = true;
        out->look = top[0];
        out->look_z = train_circuit_z(qk + (size_t)top[0].from * (size_t)V, V, top[0].to);
    }
    for (int k = 0; k < m->cfg.n_outputs; k++) {
        const int C = m->cfg.outputs[k].classes;
        if (train_circuit_ov(m, h, k, ov, scratch, err))
            return -1;
        if (train_circuit_top_ov(ov, V, C, 1, 1, top) == 1) {
            const float z = train_circuit_z(ov + (size_t)top[0].from * (size_t)C, C, top[0].to);
            if (!out->has_raise || z > out->raise_z) {
                out->has_raise = true;
                out->raise = top[0];
                out->raise_z = z;
                out->raise_k = k;
            }
        }
        if (C != V)
            continue;
        /* a class per word: does attending to a word raise that word? */
        int copies = 0;
        for (int j = 0; j < V; j++)
            copies += arg_max(ov + (size_t)j * (size_t)C, C) == j;
        if (copies > out->copies || out->copy_k < 0) {
            out->copies = copies;
            out->copy_of = V;
            out->copy_k = k;
        }
    }
    return 0;
}

void train_circuit_reading_text(const struct train_model *m, const struct train_circuit_reading *r,
                                const char *measured, char *buf, size_t n)
{
    size_t used = 0;
    char where[64];
    if (n)
        buf[0] = '\0';
    const char *unit = m->words != TRAIN_WORDS_NONE ? "word" : "token";
    if (measured && measured[0])
        used += (size_t)snprintf(buf, n, "%s", measured);
    train_circuit_place_text(&r->place, where, sizeof where);
    if (where[0] && used < n)
        used += (size_t)snprintf(buf + used, n - used, "%sby position it favours %s",
                                 used ? "; " : "", where);
    if (r->same_of > 0 && 2 * r->same >= r->same_of && used < n)
        used += (size_t)snprintf(buf + used, n - used,
                                 "%sby its %ss it looks at the same %s (%d of %d)",
                                 used ? "; " : "", unit, unit, r->same, r->same_of);
    else if (r->has_look && r->look_z >= TRAIN_CIRCUIT_Z_STANDS && used < n)
        used +=
            (size_t)snprintf(buf + used, n - used, "%sfrom \"%s\" it looks most at \"%s\" (z %.1f)",
                             used ? "; " : "", m->vocab_names[r->look.from],
                             m->vocab_names[r->look.to], (double)r->look_z);
    const bool many = m->cfg.n_outputs > 1;
    if (r->copy_k >= 0 && 2 * r->copies >= r->copy_of && used < n) {
        used += (size_t)snprintf(buf + used, n - used,
                                 "%sraises %s%s%sthe %s it attends to (%d of %d)", used ? "; " : "",
                                 many ? "for " : "", many ? m->cfg.outputs[r->copy_k].name : "",
                                 many ? " " : "", unit, r->copies, r->copy_of);
    } else if (r->has_raise && r->raise_z >= TRAIN_CIRCUIT_Z_STANDS && used < n) {
        char name[TRAIN_LABEL_MAX];
        train_circuit_class_name(m, r->raise_k, r->raise.to, name, sizeof name);
        used += (size_t)snprintf(
            buf + used, n - used, "%sattending to \"%s\" raises \"%s\"%s%s most (z %.1f)",
            used ? "; " : "", m->vocab_names[r->raise.from], name, many ? " for " : "",
            many ? m->cfg.outputs[r->raise_k].name : "", (double)r->raise_z);
    }
}
