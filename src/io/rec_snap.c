/* rec_snap.c - snapshots of the teacher's training run in a recording:
 * written as comment lines of base64 and text, read back a line at a time,
 * a bad line dropping only its own snapshot. */
#include "io/rec_snap.h"

#include <errno.h>
#include <math.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

void rec_snap_free(struct rec_snap *s)
{
    free(s->losses);
    free(s->evals);
    free(s->params);
    memset(s, 0, sizeof *s);
}

void rec_snap_reader_free(struct rec_snap_reader *rd)
{
    rec_snap_free(&rd->s);
    memset(rd, 0, sizeof *rd);
}

/* ---- base64 of little-endian float32 -------------------------------------------------- */

static const char b64[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

static uint32_t bits_of(float f)
{
    uint32_t u;
    memcpy(&u, &f, sizeof u);
    return u;
}

void rec_snap_b64_put(const float *v, size_t n, char *out)
{
    size_t o = 0;
    uint32_t acc = 0;
    int have = 0; /* bytes in acc */
    for (size_t i = 0; i < n; i++) {
        const uint32_t u = bits_of(v[i]);
        for (int b = 0; b < 4; b++) {
            acc = acc << 8 | ((u >> (8 * b)) & 0xffu);
            if (++have == 3) {
                out[o++] = b64[(acc >> 18) & 63];
                out[o++] = b64[(acc >> 12) & 63];
                out[o++] = b64[(acc >> 6) & 63];
                out[o++] = b64[acc & 63];
                acc = 0;
                have = 0;
            }
        }
    }
    if (have == 1) {
        acc <<= 16;
        out[o++] = b64[(acc >> 18) & 63];
        out[o++] = b64[(acc >> 12) & 63];
        out[o++] = '=';
        out[o++] = '=';
    } else if (have == 2) {
        acc <<= 8;
        out[o++] = b64[(acc >> 18) & 63];
        out[o++] = b64[(acc >> 12) & 63];
        out[o++] = b64[(acc >> 6) & 63];
        out[o++] = '=';
    }
    out[o] = '\0';
}

static int b64_value(char c)
{
    const char *p = c ? strchr(b64, c) : NULL;
    return p ? (int)(p - b64) : -1;
}

long rec_snap_b64_get(const char *text, float *out, size_t max)
{
    const size_t len = strlen(text);
    if (len % 4 != 0)
        return -1;
    size_t bytes = len / 4 * 3;
    if (len && text[len - 1] == '=')
        bytes -= len > 1 && text[len - 2] == '=' ? 2 : 1;
    if (bytes % 4 != 0 || bytes / 4 > max)
        return -1;
    uint32_t word = 0;
    size_t nb = 0; /* bytes decoded */
    for (size_t i = 0; i < len; i += 4) {
        int q[4];
        for (int k = 0; k < 4; k++) {
            const bool pad = text[i + k] == '=' && i + 4 == len && k >= 2;
            q[k] = pad ? 0 : b64_value(text[i + k]);
            if (q[k] < 0)
                return -1;
        }
        if (text[i + 2] == '=' && text[i + 3] != '=')
            return -1;
        const uint32_t v =
            (uint32_t)q[0] << 18 | (uint32_t)q[1] << 12 | (uint32_t)q[2] << 6 | (uint32_t)q[3];
        for (int k = 0; k < 3 && nb < bytes; k++, nb++) {
            word |= ((v >> (16 - 8 * k)) & 0xffu) << (8 * (nb % 4));
            if (nb % 4 == 3) {
                memcpy(&out[nb / 4], &word, sizeof word);
                word = 0;
            }
        }
    }
    return (long)(bytes / 4);
}

/* ---- writing -------------------------------------------------------------------------- */

int rec_snap_write_on(FILE *out)
{
    return fprintf(out, "%son\n", REC_SNAP_PREFIX) < 0 ? -1 : 0;
}

/* "name=a,b,c" of n floats. */
static void floats_text(char *buf, size_t size, const float *v, int n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < n && used < size; i++)
        used += (size_t)snprintf(buf + used, size - used, "%s%.9g", i ? "," : "", (double)v[i]);
}

/* A base64 line of the floats v[0..n) after head ("loss 600", "w 0"). */
static int chunk_line(FILE *out, const char *head, const float *v, size_t n)
{
    char text[(REC_SNAP_CHUNK * 4 + 2) / 3 * 4 + 8];
    rec_snap_b64_put(v, n, text);
    return fprintf(out, "%s%s %s\n", REC_SNAP_PREFIX, head, text) < 0 ? -1 : 0;
}

static int jobs_line(FILE *out, const struct rec_snap *s)
{
    char line[REC_SNAP_LINE];
    size_t used = (size_t)snprintf(line, sizeof line, "%sjobs %d %d ", REC_SNAP_PREFIX,
                                   s->jobs_heads, s->n_jobs);
    for (int h = 0; h < s->jobs_heads && used < sizeof line; h++)
        used += (size_t)snprintf(line + used, sizeof line - used, "%s%u", h ? "," : "", s->does[h]);
    if (used < sizeof line)
        line[used++] = ' ';
    if (used < sizeof line)
        floats_text(line + used, sizeof line - used, s->top1, s->n_jobs);
    used += strlen(line + used);
    for (int h = 0; h < s->jobs_heads && used < sizeof line; h++)
        for (int j = 0; j < s->n_jobs && used < sizeof line; j++)
            used += (size_t)snprintf(line + used, sizeof line - used, "%c%.9g",
                                     h == 0 && j == 0 ? ' ' : ',', (double)s->knocked[h][j]);
    if (used + 1 >= sizeof line)
        return 0; /* cannot happen at REC_SNAP_HEADS x REC_SNAP_JOBS; left out if it did */
    return fprintf(out, "%s\n", line) < 0 ? -1 : 0;
}

static bool has_roles(const struct rec_snap *s)
{
    return s->roles_heads > 0 && s->roles_per > 0 && s->roles_heads <= REC_SNAP_HEADS &&
           s->roles_per <= REC_SNAP_ROLE_VALUES;
}

int rec_snap_write(FILE *out, const struct rec_snap *s)
{
    char acc[REC_SNAP_OUTPUTS * 20];
    const int n_out = s->n_outputs < REC_SNAP_OUTPUTS ? s->n_outputs : REC_SNAP_OUTPUTS;
    floats_text(acc, sizeof acc, s->acc, n_out);
    char layer[24] = ""; /* a model of layers: the layer its heads' figures are of */
    if (s->layer >= 0)
        snprintf(layer, sizeof layer, " layer=%d", s->layer);
    if (fprintf(out,
                "%sbegin t=%.3f pane=%d kind=%s step=%ld stop=%d pace=%d params=%zu loss=%.9g "
                "acc=%s losses=%ld evals=%d jobs=%d roles=%d%s\n",
                REC_SNAP_PREFIX, s->t, s->pane, s->kind == REC_SNAP_CKPT ? "ckpt" : "live", s->step,
                s->stop, s->pace, s->n_params, (double)s->loss, acc, s->n_loss, s->n_evals,
                s->jobs_valid ? 1 : 0, has_roles(s) ? 1 : 0, layer) < 0)
        return -1;
    char head[48];
    for (long i = 0; i < s->n_loss; i += REC_SNAP_CHUNK) {
        const long n = s->n_loss - i < REC_SNAP_CHUNK ? s->n_loss - i : REC_SNAP_CHUNK;
        snprintf(head, sizeof head, "loss %ld", s->loss_from + i);
        if (chunk_line(out, head, s->losses + i, (size_t)n) != 0)
            return -1;
    }
    for (int i = 0; i < s->n_evals; i++) {
        const struct rec_snap_eval *e = &s->evals[i];
        floats_text(acc, sizeof acc, e->acc, n_out);
        if (fprintf(out, "%seval %ld %.9g %.9g %s\n", REC_SNAP_PREFIX, e->step,
                    (double)e->train_loss, (double)e->loss, acc) < 0)
            return -1;
    }
    if (s->jobs_valid && jobs_line(out, s) != 0)
        return -1;
    if (has_roles(s)) {
        char line[REC_SNAP_LINE];
        floats_text(line, sizeof line, s->roles, s->roles_heads * s->roles_per);
        if (fprintf(out, "%sroles %d %d %s\n", REC_SNAP_PREFIX, s->roles_heads, s->roles_per,
                    line) < 0)
            return -1;
    }
    for (size_t i = 0; i < s->n_params; i += REC_SNAP_CHUNK) {
        const size_t n = s->n_params - i < REC_SNAP_CHUNK ? s->n_params - i : REC_SNAP_CHUNK;
        snprintf(head, sizeof head, "w %zu", i);
        if (chunk_line(out, head, s->params + i, n) != 0)
            return -1;
    }
    return fprintf(out, "%send\n", REC_SNAP_PREFIX) < 0 || fflush(out) ? -1 : 0;
}

/* ---- reading -------------------------------------------------------------------------- */

static bool whole(const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    const long long n = strtoll(v, &end, 10);
    if (end == v || *end || errno || n < lo || n > hi)
        return false;
    *out = n;
    return true;
}

/* A float of text up to a ',' or the end; *p moves past it. */
static bool one_float(const char **p, float *out)
{
    char *end;
    errno = 0;
    const float f = strtof(*p, &end);
    if (end == *p || (*end && *end != ',') || (errno && !isfinite(f) && !isnan(f)))
        return false;
    *out = f;
    *p = *end == ',' ? end + 1 : end;
    return true;
}

/* Every one of v[0..n) finite (a snapshot's numbers are; NaN stands only
 * for what is not known yet, the run's loss and accuracies on its begin
 * line and an evaluation's training loss, checked apart). */
static bool all_finite(const float *v, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (!isfinite(v[i]))
            return false;
    return true;
}

/* "a,b,c": exactly n floats (at most max); n < 0: as many as there are,
 * their count returned.  -1 when malformed. */
static int float_list(const char *text, float *out, int n, int max)
{
    const char *p = text;
    int k = 0;
    if (!*p)
        return n <= 0 ? 0 : -1;
    while (*p) {
        if (k == max || !one_float(&p, &out[k]))
            return -1;
        k++;
    }
    return n < 0 || k == n ? k : -1;
}

/* The words of text (changed in place), at most max. */
static int words(char *text, char **w, int max)
{
    int n = 0;
    char *save = NULL;
    for (char *p = strtok_r(text, " ", &save); p; p = strtok_r(NULL, " ", &save)) {
        if (n == max)
            return -1;
        w[n++] = p;
    }
    return n;
}

static bool begin(struct rec_snap_reader *rd, char **w, int n)
{
    struct rec_snap *s = &rd->s;
    s->pace = -1;
    s->loss = NAN;
    s->layer = -1;
    bool have_params = false, have_step = false;
    for (int i = 1; i < n; i++) {
        char *v = strchr(w[i], '=');
        if (!v)
            return false;
        *v++ = '\0';
        long long k;
        if (!strcmp(w[i], "t")) {
            char *end;
            s->t = strtod(v, &end);
            if (end == v || *end || !(s->t >= 0.0 && s->t <= 86400.0))
                return false;
        } else if (!strcmp(w[i], "pane") && whole(v, 0, 15, &k)) {
            s->pane = (int)k;
        } else if (!strcmp(w[i], "kind") && (!strcmp(v, "live") || !strcmp(v, "ckpt"))) {
            s->kind = !strcmp(v, "ckpt") ? REC_SNAP_CKPT : REC_SNAP_LIVE;
        } else if (!strcmp(w[i], "step") && whole(v, 0, REC_SNAP_MAX_LOSSES, &k)) {
            s->step = (long)k;
            have_step = true;
        } else if (!strcmp(w[i], "stop") && whole(v, 0, 2, &k)) {
            s->stop = (int)k;
        } else if (!strcmp(w[i], "pace") && whole(v, -1, 100000000, &k)) {
            s->pace = (int)k;
        } else if (!strcmp(w[i], "params") && whole(v, 0, (long long)REC_SNAP_MAX_PARAMS, &k)) {
            s->n_params = (size_t)k;
            have_params = true;
        } else if (!strcmp(w[i], "loss")) {
            const char *p = v;
            if (!one_float(&p, &s->loss) || *p)
                return false;
            if (isinf(s->loss))
                rd->not_finite = true;
        } else if (!strcmp(w[i], "losses") && whole(v, 0, REC_SNAP_MAX_LOSSES, &k)) {
            rd->want_losses = (long)k;
        } else if (!strcmp(w[i], "evals") && whole(v, 0, REC_SNAP_MAX_EVALS, &k)) {
            rd->want_evals = (int)k;
        } else if (!strcmp(w[i], "jobs") && whole(v, 0, 1, &k)) {
            rd->want_jobs = k == 1;
        } else if (!strcmp(w[i], "roles") && whole(v, 0, 1, &k)) {
            rd->want_roles = k == 1;
        } else if (!strcmp(w[i], "layer") && whole(v, 0, REC_SNAP_LAYERS - 1, &k)) {
            s->layer = (int)k;
        } else if (!strcmp(w[i], "acc")) {
            const int k2 = float_list(v, s->acc, -1, REC_SNAP_OUTPUTS);
            if (k2 < 0)
                return false;
            s->n_outputs = k2;
            for (int k = 0; k < k2; k++) /* NaN: not measured yet */
                if (isinf(s->acc[k]))
                    rd->not_finite = true;
        } /* a name a later build adds is skipped; a known one that does not read fails */
        else if (!strcmp(w[i], "pane") || !strcmp(w[i], "kind") || !strcmp(w[i], "step") ||
                 !strcmp(w[i], "stop") || !strcmp(w[i], "pace") || !strcmp(w[i], "params") ||
                 !strcmp(w[i], "losses") || !strcmp(w[i], "evals") || !strcmp(w[i], "jobs") ||
                 !strcmp(w[i], "roles") || !strcmp(w[i], "layer"))
            return false;
    }
    if (!have_params || !have_step)
        return false;
    if (s->n_params) {
        s->params = malloc(s->n_params * sizeof *s->params);
        if (!s->params)
            return false;
    }
    rd->open = true;
    return true;
}

static bool loss_chunk(struct rec_snap_reader *rd, char **w, int n)
{
    struct rec_snap *s = &rd->s;
    long long from;
    if (n != 3 || !whole(w[1], 0, REC_SNAP_MAX_LOSSES, &from))
        return false;
    if (s->n_loss == 0)
        s->loss_from = (long)from;
    else if (from != s->loss_from + s->n_loss)
        return false; /* the chunks go on where the last ended */
    const size_t room = (strlen(w[2]) / 4 + 1) * 3 / 4 + 1;
    if (s->n_loss + (long)room > REC_SNAP_MAX_LOSSES)
        return false;
    if (s->n_loss + (long)room > rd->loss_cap) {
        const long cap = (s->n_loss + (long)room) * 2;
        float *g = realloc(s->losses, (size_t)cap * sizeof *g);
        if (!g)
            return false;
        s->losses = g;
        rd->loss_cap = cap;
    }
    const long got = rec_snap_b64_get(w[2], s->losses + s->n_loss, (size_t)room);
    if (got <= 0)
        return false;
    if (!all_finite(s->losses + s->n_loss, (size_t)got))
        rd->not_finite = true;
    s->n_loss += got;
    return true;
}

static bool eval_line(struct rec_snap_reader *rd, char **w, int n)
{
    struct rec_snap *s = &rd->s;
    long long step;
    if ((n != 5 && n != 4) || !whole(w[1], 0, REC_SNAP_MAX_LOSSES, &step) ||
        s->n_evals == REC_SNAP_MAX_EVALS)
        return false;
    if (s->n_evals == rd->eval_cap) {
        const int cap = rd->eval_cap ? 2 * rd->eval_cap : 8;
        struct rec_snap_eval *g = realloc(s->evals, (size_t)cap * sizeof *g);
        if (!g)
            return false;
        s->evals = g;
        rd->eval_cap = cap;
    }
    struct rec_snap_eval *e = &s->evals[s->n_evals];
    memset(e, 0, sizeof *e);
    e->step = (long)step;
    const char *p = w[2];
    if (!one_float(&p, &e->train_loss) || *p)
        return false;
    p = w[3];
    if (!one_float(&p, &e->loss) || *p)
        return false;
    if (float_list(n == 5 ? w[4] : "", e->acc, s->n_outputs, REC_SNAP_OUTPUTS) < 0)
        return false;
    if (isinf(e->train_loss) || !isfinite(e->loss) || !all_finite(e->acc, (size_t)s->n_outputs))
        rd->not_finite = true;
    s->n_evals++;
    return true;
}

static bool jobs(struct rec_snap_reader *rd, char **w, int n)
{
    struct rec_snap *s = &rd->s;
    long long heads, jobs;
    if (n != 6 || s->jobs_valid || !whole(w[1], 1, REC_SNAP_HEADS, &heads) ||
        !whole(w[2], 1, REC_SNAP_JOBS, &jobs))
        return false;
    s->jobs_heads = (int)heads;
    s->n_jobs = (int)jobs;
    const char *p = w[3];
    for (int h = 0; h < s->jobs_heads; h++) {
        char *end;
        errno = 0;
        const unsigned long d = strtoul(p, &end, 10);
        if (end == p || errno || d >= (1ul << REC_SNAP_JOBS) || (*end != ',' && *end) ||
            (h + 1 < s->jobs_heads) != (*end == ','))
            return false;
        s->does[h] = (unsigned)d;
        p = *end ? end + 1 : end;
    }
    if (float_list(w[4], s->top1, s->n_jobs, REC_SNAP_JOBS) < 0)
        return false;
    float knocked[REC_SNAP_HEADS * REC_SNAP_JOBS];
    if (float_list(w[5], knocked, s->jobs_heads * s->n_jobs, REC_SNAP_HEADS * REC_SNAP_JOBS) < 0)
        return false;
    for (int h = 0; h < s->jobs_heads; h++)
        for (int j = 0; j < s->n_jobs; j++)
            s->knocked[h][j] = knocked[h * s->n_jobs + j];
    if (!all_finite(s->top1, (size_t)s->n_jobs) ||
        !all_finite(knocked, (size_t)(s->jobs_heads * s->n_jobs)))
        rd->not_finite = true;
    s->jobs_valid = true;
    return true;
}

static bool roles(struct rec_snap_reader *rd, char **w, int n)
{
    struct rec_snap *s = &rd->s;
    long long heads, per;
    if (n != 4 || s->roles_heads > 0 || !whole(w[1], 1, REC_SNAP_HEADS, &heads) ||
        !whole(w[2], 1, REC_SNAP_ROLE_VALUES, &per) ||
        float_list(w[3], s->roles, (int)(heads * per), REC_SNAP_HEADS * REC_SNAP_ROLE_VALUES) < 0)
        return false;
    s->roles_heads = (int)heads;
    s->roles_per = (int)per;
    if (!all_finite(s->roles, (size_t)(heads * per)))
        rd->not_finite = true;
    return true;
}

static bool params_chunk(struct rec_snap_reader *rd, char **w, int n)
{
    struct rec_snap *s = &rd->s;
    long long at;
    if (n != 3 || !whole(w[1], 0, (long long)REC_SNAP_MAX_PARAMS, &at) ||
        (size_t)at != rd->got_params)
        return false; /* in order, each once */
    const long got =
        rec_snap_b64_get(w[2], s->params + rd->got_params, s->n_params - rd->got_params);
    if (got <= 0)
        return false;
    if (!all_finite(s->params + rd->got_params, (size_t)got))
        rd->not_finite = true;
    rd->got_params += (size_t)got;
    return true;
}

/* A snapshot whose end came: whole when every part it announced came. */
static bool end(const struct rec_snap_reader *rd)
{
    const struct rec_snap *s = &rd->s;
    return rd->got_params == s->n_params && s->n_loss == rd->want_losses &&
           s->n_evals == rd->want_evals && s->jobs_valid == rd->want_jobs &&
           (s->roles_heads > 0) == rd->want_roles;
}

static void drop(struct rec_snap_reader *rd)
{
    rec_snap_reader_free(rd);
}

int rec_snap_line(struct rec_snap_reader *rd, const char *text, struct rec_snap *done)
{
    char buf[REC_SNAP_LINE + 1];
    const size_t len = strlen(text);
    if (len >= sizeof buf) {
        drop(rd);
        return 0;
    }
    memcpy(buf, text, len + 1);
    char *w[24];
    const int n = words(buf, w, 24);
    if (n <= 0) {
        drop(rd);
        return 0;
    }
    if (!strcmp(w[0], "on") && n == 1)
        return 2;
    if (!strcmp(w[0], "begin")) {
        drop(rd); /* one that never ended */
        const bool ok = begin(rd, w, n);
        if (rd->not_finite) {
            drop(rd);
            return -1;
        }
        if (!ok)
            drop(rd);
        return 0;
    }
    if (!rd->open)
        return 0; /* the rest of a snapshot dropped, or a line a later build adds */
    bool ok;
    if (!strcmp(w[0], "loss"))
        ok = loss_chunk(rd, w, n);
    else if (!strcmp(w[0], "eval"))
        ok = eval_line(rd, w, n);
    else if (!strcmp(w[0], "jobs"))
        ok = jobs(rd, w, n);
    else if (!strcmp(w[0], "roles"))
        ok = roles(rd, w, n);
    else if (!strcmp(w[0], "w"))
        ok = params_chunk(rd, w, n);
    else if (!strcmp(w[0], "end") && n == 1) {
        if (!end(rd)) {
            drop(rd);
            return 0;
        }
        *done = rd->s;
        memset(rd, 0, sizeof *rd);
        return 1;
    } else
        ok = true;        /* a part a later build adds */
    if (rd->not_finite) { /* refused whole, as a model file with such a number is */
        drop(rd);
        return -1;
    }
    if (!ok)
        drop(rd);
    return 0;
}
