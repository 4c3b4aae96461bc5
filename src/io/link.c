/* link.c - building the command line that reopens a state. */
#include "io/link.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/mha.h"

char *link_shell_quote(const char *s)
{
    bool plain = *s != '\0';
    for (const char *p = s; *p; p++)
        plain = plain && (strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ"
                                 "0123456789-_./=:,+@%",
                                 *p) != NULL);
    if (plain)
        return strdup(s);
    size_t n = 3;
    for (const char *p = s; *p; p++)
        n += *p == '\'' ? 4 : 1;
    char *q = malloc(n);
    if (!q)
        return NULL;
    char *o = q;
    *o++ = '\'';
    for (const char *p = s; *p; p++) {
        if (*p == '\'') {
            memcpy(o, "'\\''", 4);
            o += 4;
        } else {
            *o++ = *p;
        }
    }
    *o++ = '\'';
    *o = '\0';
    return q;
}

struct buf {
    char *s;
    size_t len, cap;
    bool oom;
};

static void put(struct buf *b, const char *text)
{
    size_t n = strlen(text);
    if (b->oom)
        return;
    if (b->len + n + 1 > b->cap) {
        size_t cap = (b->cap ? b->cap * 2 : 128) + n;
        char *s = realloc(b->s, cap);
        if (!s) {
            b->oom = true;
            return;
        }
        b->s = s;
        b->cap = cap;
    }
    memcpy(b->s + b->len, text, n + 1);
    b->len += n;
}

/* " --opt value" with value quoted. */
static void opt(struct buf *b, const char *name, const char *value)
{
    put(b, " ");
    put(b, name);
    if (value) {
        char *q = link_shell_quote(value);
        if (!q) {
            b->oom = true;
            return;
        }
        put(b, " ");
        put(b, q);
        free(q);
    }
}

static void opt_int(struct buf *b, const char *name, long long v)
{
    char num[32];
    snprintf(num, sizeof num, "%lld", v);
    opt(b, name, num);
}

/* --tokens with s's labels joined by spaces. */
static void opt_tokens(struct buf *b, const struct link_state *s)
{
    struct buf t = {0};
    for (int i = 0; i < s->n_tokens; i++) {
        if (i)
            put(&t, " ");
        put(&t, s->tokens[i]);
    }
    if (t.oom)
        b->oom = true;
    else
        opt(b, "--tokens", t.s);
    free(t.s);
}

char *link_command(const struct link_state *s)
{
    struct buf b = {0};
    put(&b, "mha-explorer");
    if (s->lesson) {
        opt(&b, "--lesson", s->lesson);
        if (s->lesson_step > 0)
            opt_int(&b, "--step", s->lesson_step + 1);
    }
    if (s->load) {
        opt(&b, "--load", s->load);
        if (s->model)
            opt_tokens(&b, s);
        if (s->model && s->has_layer)
            opt_int(&b, "--layer", s->layer);
        if (s->model && s->top_p > 0.0 && s->top_p < 1.0) {
            char num[32];
            snprintf(num, sizeof num, "%g", s->top_p);
            opt(&b, "--top-p", num);
        }
    } else {
        bool default_tokens = s->n_tokens == 4;
        for (int i = 0; default_tokens && i < 4; i++) {
            char want[16];
            snprintf(want, sizeof want, "tok %d", i);
            default_tokens = strcmp(s->tokens[i], want) == 0;
        }
        if (!default_tokens && s->n_tokens > 0)
            opt_tokens(&b, s);
        if (s->d_model != 6)
            opt_int(&b, "--d-model", s->d_model);
        if (s->seed != 42)
            opt_int(&b, "--seed", s->seed);
    }
    if (s->heads > 0 && !s->model && (s->load || s->heads != (s->d_model % 2 == 0 ? 2 : 1)))
        opt_int(&b, "--heads", s->heads);
    if (s->causal && !s->model)
        opt(&b, "--causal", NULL);
    if (!s->scaled && !s->model)
        opt(&b, "--no-scale", NULL);
    if (s->view)
        opt(&b, "--view", s->view);
    else if (s->stage > 0 && s->stage < MHA_STAGE_COUNT && !s->lesson) /* a step sets its own */
        opt(&b, "--stage", mha_stage_name((enum mha_stage)s->stage));
    if (s->focus && !s->view)
        opt(&b, "--focus", s->focus);
    if (s->corrupt && s->corrupt[0] && s->model && !s->lesson) /* a lesson's scene gives its own */
        opt(&b, "--corrupt", s->corrupt);
    if (s->theme)
        opt(&b, "--theme", s->theme);
    if (s->present)
        opt(&b, "--present", NULL);
    if (b.oom) {
        free(b.s);
        return NULL;
    }
    return b.s;
}
