/* rec_state.c - the teacher's state lines: written as what changed, read
 * back into the whole. */
#include "io/rec_state.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "io/view_desc.h"

/* The fields that are numbers, by name. */
#define INT_FIELDS(X)                                                                              \
    X(step)                                                                                        \
    X(stage)                                                                                       \
    X(present) X(autoplay) X(heads) X(d_model) X(causal) X(scale) X(pane) X(paused) X(layer)

void rec_state_clear(struct rec_state *s)
{
    memset(s, 0, sizeof *s);
#define CLEAR(f) s->f = -1;
    INT_FIELDS(CLEAR)
#undef CLEAR
    s->view = -1;
    s->seed = -1;
    s->train = -1;
    s->scrub = -1;
    s->top_p = -1;
}

static bool number(const char *v, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    const long long n = strtoll(v, &end, 10);
    if (end == v || *end || errno || n < lo || n > hi)
        return false;
    *out = n;
    return true;
}

/* One "name=value". */
static void field(struct rec_state *s, const char *name, const char *v)
{
    long long n;
    if (!strcmp(name, "lesson")) {
        if (strlen(v) < sizeof s->lesson && v[0] != '.' && !strchr(v, '/'))
            snprintf(s->lesson, sizeof s->lesson, "%s", v);
    } else if (!strcmp(name, "view")) {
        const int k = mha_view_from_name(v);
        if (k >= 0)
            s->view = k;
    } else if (!strcmp(name, "seed")) {
        if (number(v, 0, 0xffffffffLL, &n))
            s->seed = n;
    } else if (!strcmp(name, "top_p")) {
        char *end;
        const double p = strtod(v, &end);
        if (end != v && !*end && p > 0.0 && p <= 1.0)
            s->top_p = (int)(p * 1000.0 + 0.5) > 0 ? (int)(p * 1000.0 + 0.5) : 1;
    } else if (!strcmp(name, "train")) {
        if (number(v, 0, REC_STATE_MAX_STEP, &n))
            s->train = (long)n;
    } else if (!strcmp(name, "scrub")) {
        if (!strcmp(v, "live"))
            s->scrub = REC_STATE_LIVE;
        else if (number(v, 0, REC_STATE_MAX_STEP, &n))
            s->scrub = (long)n;
    }
#define READ(f)                                                                                    \
    else if (!strcmp(name, #f))                                                                    \
    {                                                                                              \
        if (number(v, 0, 1000000, &n))                                                             \
            s->f = (int)n;                                                                         \
    }
    INT_FIELDS(READ)
#undef READ
}

void rec_state_merge(struct rec_state *s, const char *text)
{
    char word[REC_STATE_LESSON_MAX + 32];
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t')
            p++;
        const size_t len = strcspn(p, " \t");
        if (len && len < sizeof word) {
            memcpy(word, p, len);
            word[len] = '\0';
            char *eq = strchr(word, '=');
            if (eq) {
                *eq = '\0';
                field(s, word, eq + 1);
            }
        }
        p += len;
    }
}

int rec_state_write(FILE *out, const struct rec_state *was, const struct rec_state *now)
{
    char line[512];
    size_t n = 0;
#define PUT(...) n += (size_t)snprintf(line + n, n < sizeof line ? sizeof line - n : 0, __VA_ARGS__)
    if (now->lesson[0] && (!was || strcmp(was->lesson, now->lesson)))
        PUT(" lesson=%s", now->lesson);
#define WRITE(f)                                                                                   \
    if (now->f >= 0 && (!was || was->f != now->f))                                                 \
        PUT(" " #f "=%d", now->f);
    INT_FIELDS(WRITE)
#undef WRITE
    if (now->view >= 0 && (!was || was->view != now->view))
        PUT(" view=%s", mha_view_name(now->view));
    if (now->seed >= 0 && (!was || was->seed != now->seed))
        PUT(" seed=%lld", now->seed);
    /* 1 is the default (and what an unknown one was): written once it is another */
    if (now->top_p > 0 && now->top_p != (was && was->top_p > 0 ? was->top_p : 1000))
        PUT(" top_p=%g", now->top_p / 1000.0);
    if (now->train >= 0 && (!was || was->train != now->train))
        PUT(" train=%ld", now->train);
    if (now->scrub != -1 && (!was || was->scrub != now->scrub)) {
        if (now->scrub == REC_STATE_LIVE)
            PUT(" scrub=live");
        else
            PUT(" scrub=%ld", now->scrub);
    }
#undef PUT
    if (n == 0 || n >= sizeof line)
        return 0;
    return fprintf(out, "# state%s\n", line) < 0 || fflush(out) ? -1 : 0;
}

bool rec_state_same(const struct rec_state *a, const struct rec_state *b)
{
    return !strcmp(a->lesson, b->lesson) && a->step == b->step && a->stage == b->stage &&
           a->view == b->view && a->present == b->present && a->autoplay == b->autoplay &&
           a->heads == b->heads && a->d_model == b->d_model && a->seed == b->seed &&
           a->causal == b->causal && a->scale == b->scale && a->pane == b->pane &&
           a->train == b->train && a->paused == b->paused && a->scrub == b->scrub &&
           a->layer == b->layer && a->top_p == b->top_p;
}
