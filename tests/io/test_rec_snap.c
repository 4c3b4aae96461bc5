/* test_rec_snap.c - snapshots of the teacher's training run in a
 * recording: base64 of float32 to the bit and back (NaN, infinities,
 * negative zero, subnormals); a snapshot written and read back whole, its
 * lines each within a recording's line; any one line broken drops that
 * snapshot only, never the next and never the stream; lines too long, out
 * of order or cut short; and the stream's caps: snapshot lines count apart
 * from the 8 MiB of keys, up to their own 64 MiB. */
#include <check.h>
#include <math.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/rec_snap.h"
#include "io/rec_stream.h"
#include "io/record.h"

static float from_bits(uint32_t u)
{
    float f;
    memcpy(&f, &u, sizeof f);
    return f;
}

START_TEST(test_b64_round_trip)
{
    const float special[] = {0.0f,
                             -0.0f,
                             1.0f,
                             -2.5f,
                             INFINITY,
                             -INFINITY,
                             from_bits(0x7fc00001u), /* a NaN with a payload */
                             from_bits(0x00000001u), /* the least subnormal */
                             3.4028235e38f,
                             1e-30f};
    const size_t n_all = sizeof special / sizeof special[0];
    for (size_t n = 0; n <= n_all; n++) {
        char text[64];
        rec_snap_b64_put(special, n, text);
        ck_assert_uint_eq(strlen(text), (n * 4 + 2) / 3 * 4);
        float back[16];
        ck_assert_int_eq(rec_snap_b64_get(text, back, 16), (long)n);
        ck_assert_mem_eq(back, special, n * sizeof(float));
    }
    /* little-endian, as the format says: 1.0f is 00 00 80 3f */
    char text[16];
    const float one = 1.0f;
    rec_snap_b64_put(&one, 1, text);
    ck_assert_str_eq(text, "AACAPw==");
}
END_TEST

START_TEST(test_b64_refused)
{
    float out[8];
    ck_assert_int_eq(rec_snap_b64_get("AACAPw=", out, 8), -1);      /* not whole quads */
    ck_assert_int_eq(rec_snap_b64_get("AACA", out, 8), -1);         /* 3 bytes: no whole float */
    ck_assert_int_eq(rec_snap_b64_get("AACAP!==", out, 8), -1);     /* not base64 */
    ck_assert_int_eq(rec_snap_b64_get("AA=APw==", out, 8), -1);     /* padding inside */
    ck_assert_int_eq(rec_snap_b64_get("AACAPwAACAPw", out, 8), -1); /* 9 bytes */
    ck_assert_int_eq(rec_snap_b64_get("AACAPw==", out, 0), -1);     /* more than max */
    ck_assert_int_eq(rec_snap_b64_get("", out, 8), 0);
}
END_TEST

/* A snapshot with every part, its numbers from i. */
static void fill(struct rec_snap *s, long n_loss, size_t n_params)
{
    memset(s, 0, sizeof *s);
    s->t = 12.345;
    s->pane = 1;
    s->kind = REC_SNAP_LIVE;
    s->step = 650;
    s->stop = 1;
    s->pace = 145;
    s->loss = 1.29f;
    s->n_outputs = 2;
    s->acc[0] = 0.5937f;
    s->acc[1] = NAN;
    s->layer = -1;
    s->loss_from = 600;
    s->n_loss = n_loss;
    s->losses = malloc((size_t)(n_loss ? n_loss : 1) * sizeof *s->losses);
    for (long i = 0; i < n_loss; i++)
        s->losses[i] = 1.0f / (float)(i + 3);
    s->n_evals = 3;
    s->evals = calloc(3, sizeof *s->evals);
    for (int i = 0; i < 3; i++) {
        s->evals[i].step = 550 + 50 * i;
        s->evals[i].train_loss = i == 0 ? NAN : 1.1f + (float)i / 7.0f;
        s->evals[i].loss = 1.3f - (float)i / 9.0f;
        s->evals[i].acc[0] = 0.1f * (float)i;
        s->evals[i].acc[1] = 0.3f / (float)(i + 1);
    }
    s->jobs_valid = true;
    s->jobs_heads = REC_SNAP_HEADS;
    s->n_jobs = REC_SNAP_JOBS;
    for (int h = 0; h < REC_SNAP_HEADS; h++) {
        s->does[h] = (unsigned)(h * 37) % 256u;
        for (int j = 0; j < REC_SNAP_JOBS; j++)
            s->knocked[h][j] = -1.0f / (float)(h * 8 + j + 1);
    }
    for (int j = 0; j < REC_SNAP_JOBS; j++)
        s->top1[j] = 1.0f / 3.0f * (float)j;
    s->roles_heads = REC_SNAP_HEADS;
    s->roles_per = 13;
    for (int i = 0; i < REC_SNAP_HEADS * 13; i++)
        s->roles[i] = (float)i / 11.0f - 7.0f;
    s->n_params = n_params;
    s->params = malloc((n_params ? n_params : 1) * sizeof *s->params);
    for (size_t i = 0; i < n_params; i++)
        s->params[i] = sinf((float)i) * 1e-3f;
}

static void check_same(const struct rec_snap *a, const struct rec_snap *b)
{
    ck_assert(fabs(a->t - b->t) < 1e-9);
    ck_assert_int_eq(a->pane, b->pane);
    ck_assert_int_eq(a->kind, b->kind);
    ck_assert_int_eq(a->step, b->step);
    ck_assert_int_eq(a->stop, b->stop);
    ck_assert_int_eq(a->pace, b->pace);
    ck_assert_mem_eq(&a->loss, &b->loss, sizeof a->loss);
    ck_assert_int_eq(a->n_outputs, b->n_outputs);
    ck_assert_mem_eq(a->acc, b->acc, (size_t)a->n_outputs * sizeof(float));
    ck_assert_int_eq(a->n_loss, b->n_loss);
    if (a->n_loss) {
        ck_assert_int_eq(a->loss_from, b->loss_from);
        ck_assert_mem_eq(a->losses, b->losses, (size_t)a->n_loss * sizeof(float));
    }
    ck_assert_int_eq(a->n_evals, b->n_evals);
    for (int i = 0; i < a->n_evals; i++) {
        ck_assert_int_eq(a->evals[i].step, b->evals[i].step);
        ck_assert_mem_eq(&a->evals[i].train_loss, &b->evals[i].train_loss, sizeof(float));
        ck_assert_mem_eq(&a->evals[i].loss, &b->evals[i].loss, sizeof(float));
        ck_assert_mem_eq(a->evals[i].acc, b->evals[i].acc, (size_t)a->n_outputs * sizeof(float));
    }
    ck_assert_int_eq(a->jobs_valid, b->jobs_valid);
    ck_assert_int_eq(a->jobs_heads, b->jobs_heads);
    ck_assert_int_eq(a->n_jobs, b->n_jobs);
    ck_assert_mem_eq(a->does, b->does, sizeof a->does);
    ck_assert_mem_eq(a->top1, b->top1, sizeof a->top1);
    ck_assert_mem_eq(a->knocked, b->knocked, sizeof a->knocked);
    ck_assert_int_eq(a->layer, b->layer);
    ck_assert_int_eq(a->roles_heads, b->roles_heads);
    ck_assert_int_eq(a->roles_per, b->roles_per);
    ck_assert_mem_eq(a->roles, b->roles, sizeof a->roles);
    ck_assert_uint_eq(a->n_params, b->n_params);
    if (a->n_params)
        ck_assert_mem_eq(a->params, b->params, a->n_params * sizeof(float));
}

/* s as the lines a teacher writes, newly allocated. */
static char *written(const struct rec_snap *s)
{
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    ck_assert_ptr_nonnull(out);
    ck_assert_int_eq(rec_snap_write(out, s), 0);
    fclose(out);
    return text;
}

/* Feed text a line at a time: the snapshots completed (into done[], at
 * most max). */
static int read_lines(struct rec_snap_reader *rd, const char *text, struct rec_snap *done, int max)
{
    int n = 0;
    for (const char *p = text; *p;) {
        const char *nl = strchr(p, '\n');
        const size_t len = nl ? (size_t)(nl - p) : strlen(p);
        char *line = strndup(p, len);
        ck_assert(rec_is_snap_line(line, len));
        struct rec_snap got;
        if (rec_snap_line(rd, line + strlen(REC_SNAP_PREFIX), &got) == 1) {
            ck_assert_int_lt(n, max);
            done[n++] = got;
        }
        free(line);
        p = nl ? nl + 1 : p + len;
    }
    return n;
}

START_TEST(test_round_trip)
{
    static const struct {
        long losses;
        size_t params;
    } sizes[] = {{0, 0}, {1, 1}, {719, 720}, {1500, 17411}, {3, 721}};
    for (size_t c = 0; c < sizeof sizes / sizeof sizes[0]; c++) {
        struct rec_snap s;
        fill(&s, sizes[c].losses, sizes[c].params);
        if (c == 4) { /* a checkpoint: no losses, evaluations, roles nor jobs */
            s.kind = REC_SNAP_CKPT;
            s.n_evals = 0;
            s.jobs_valid = false;
            s.jobs_heads = s.n_jobs = 0;
            memset(s.does, 0, sizeof s.does);
            memset(s.top1, 0, sizeof s.top1);
            memset(s.knocked, 0, sizeof s.knocked);
            s.roles_heads = s.roles_per = 0;
            memset(s.roles, 0, sizeof s.roles);
            s.layer = 0; /* a checkpoint of a model of layers, its jobs of layer 0 */
        }
        if (c == 3)
            s.layer = 3; /* the jobs and roles of layer 3 */
        char *text = written(&s);
        /* every line fits a recording's line, with room to spare */
        for (const char *p = text; *p;) {
            const char *nl = strchr(p, '\n');
            ck_assert_ptr_nonnull(nl);
            ck_assert_int_lt(nl - p + 1, REC_SNAP_LINE);
            p = nl + 1;
        }
        struct rec_snap_reader rd = {0};
        struct rec_snap got[2];
        ck_assert_int_eq(read_lines(&rd, text, got, 2), 1);
        check_same(&s, &got[0]);
        rec_snap_free(&got[0]);
        rec_snap_reader_free(&rd);
        free(text);
        rec_snap_free(&s);
    }
}
END_TEST

/* Line k of text replaced by repl (NULL: left out), newly allocated. */
static char *with_line(const char *text, int k, const char *repl)
{
    size_t cap = strlen(text) + (repl ? strlen(repl) : 0) + 2;
    char *out = malloc(cap);
    size_t o = 0;
    int i = 0;
    for (const char *p = text; *p; i++) {
        const char *nl = strchr(p, '\n');
        const size_t len = (size_t)(nl - p) + 1;
        if (i != k) {
            memcpy(out + o, p, len);
            o += len;
        } else if (repl) {
            o += (size_t)sprintf(out + o, "%s\n", repl);
        }
        p += len;
    }
    out[o] = '\0';
    return out;
}

START_TEST(test_a_bad_line_drops_its_snapshot_only)
{
    struct rec_snap s;
    fill(&s, 800, 1500);
    char *good = written(&s);
    int lines = 0;
    for (const char *p = good; *p; p++)
        lines += *p == '\n';
    static const char *const breaks[] = {
        "# snap w 0 AACAPw=",                     /* base64 cut */
        "# snap w 5 AACAPwAACAPw",                /* a chunk out of order */
        "# snap eval x 1 2 0.1,0.2",              /* not a step */
        "# snap eval 600 1 2 0.1",                /* an output short */
        "# snap jobs 99 4 1,2 1,1,1,1 1",         /* too many heads */
        "# snap roles 2 13 1,2,3",                /* numbers short */
        "# snap loss 7 AACAPw==",                 /* not where the losses went on */
        "# snap begin t=1 pane=0 params=10",      /* no step: and its own parts do not add up */
        "# snap begin t=-5 step=1 params=0",      /* a time before the start */
        "# snap begin step=1 params=999999999",   /* more parameters than a snapshot holds */
        "# snap begin step=1 params=1500 pane=x", /* a known name that does not read */
        "# snap end extra",
    };
    for (int k = 0; k < lines; k++) {
        for (size_t b = 0; b <= sizeof breaks / sizeof breaks[0]; b++) {
            /* line k broken (or left out), then the same snapshot again whole */
            char *bad = with_line(good, k, b < sizeof breaks / sizeof breaks[0] ? breaks[b] : NULL);
            const size_t blen = strlen(bad), glen = strlen(good);
            char *both = malloc(blen + glen + 1);
            memcpy(both, bad, blen);
            memcpy(both + blen, good, glen + 1);
            struct rec_snap_reader rd = {0};
            struct rec_snap got[3];
            const int n = read_lines(&rd, both, got, 3);
            /* a line broken in place of one that matters drops the first;
             * the second always comes whole */
            ck_assert_int_ge(n, 1);
            ck_assert_int_le(n, 2);
            check_same(&s, &got[n - 1]);
            if (n == 2) /* the first came through: the break was harmless there */
                check_same(&s, &got[0]);
            for (int i = 0; i < n; i++)
                rec_snap_free(&got[i]);
            rec_snap_reader_free(&rd);
            free(both);
            free(bad);
        }
    }
    free(good);
    rec_snap_free(&s);
}
END_TEST

START_TEST(test_garbage_never_crashes)
{
    struct rec_snap s;
    fill(&s, 100, 300);
    char *good = written(&s);
    const size_t len = strlen(good);
    unsigned r = 12345u;
    for (int round = 0; round < 300; round++) {
        char *bad = strdup(good);
        for (int k = 0; k < 1 + round % 7; k++) {
            r = r * 1103515245u + 12345u;
            const size_t at = (r >> 8) % len;
            r = r * 1103515245u + 12345u;
            const char c = (char)(0x20 + (r >> 8) % 0x5f);
            if (bad[at] != '\n')
                bad[at] = c;
        }
        struct rec_snap_reader rd = {0};
        struct rec_snap got[2];
        int n = 0;
        for (char *p = bad; *p;) {
            char *nl = strchr(p, '\n');
            *nl = '\0';
            struct rec_snap one;
            if (!strncmp(p, REC_SNAP_PREFIX, strlen(REC_SNAP_PREFIX)) &&
                rec_snap_line(&rd, p + strlen(REC_SNAP_PREFIX), &one) == 1)
                got[n++] = one;
            p = nl + 1;
        }
        ck_assert_int_le(n, 1);
        if (n == 1) { /* what came is whole: its parameters all there */
            ck_assert_ptr_nonnull(got[0].params);
            rec_snap_free(&got[0]);
        }
        rec_snap_reader_free(&rd);
        free(bad);
    }
    free(good);
    rec_snap_free(&s);
}
END_TEST

START_TEST(test_long_lines)
{
    /* a snapshot line longer than REC_SNAP_LINE drops the snapshot it is in */
    struct rec_snap s;
    fill(&s, 10, 10);
    char *good = written(&s);
    char *huge = malloc(REC_SNAP_LINE + 64);
    memset(huge, 'A', REC_SNAP_LINE + 63);
    memcpy(huge, "# snap w 0 ", 11);
    huge[REC_SNAP_LINE + 63] = '\0';
    char *bad = with_line(good, 3, huge);
    struct rec_snap_reader rd = {0};
    struct rec_snap got[2];
    ck_assert_int_eq(read_lines(&rd, bad, got, 2), 0);
    rec_snap_reader_free(&rd);
    /* in a stream, a line longer than a recording's stops it, as before */
    struct rec_stream st;
    rec_stream_init(&st, "class.rec");
    const char head[] = "mha-explorer-recording 2\n# snap on\n";
    ck_assert_int_ge(rec_stream_feed(&st, head, strlen(head)), 0);
    char *line = malloc(REC_MAX_LINE + 32);
    memset(line, 'A', REC_MAX_LINE + 31);
    memcpy(line, "# snap w 0 ", 11);
    line[REC_MAX_LINE + 30] = '\n';
    ck_assert_int_eq(rec_stream_feed(&st, line, REC_MAX_LINE + 31), -1);
    ck_assert_ptr_nonnull(strstr(st.err.text, "too long"));
    rec_stream_free(&st);
    free(line);
    free(bad);
    free(huge);
    free(good);
    rec_snap_free(&s);
}
END_TEST

/* The stream: snapshots go into the recording after the events before
 * them, their clock moves the teacher's, and their bytes count apart. */
START_TEST(test_stream_and_caps)
{
    struct rec_snap s;
    fill(&s, 50, 17411); /* a sentences model: about 93 KB of lines */
    s.t = 2.5;
    char *one = written(&s);
    const size_t len = strlen(one);
    struct rec_stream st;
    rec_stream_init(&st, "class.rec");
    const char head[] =
        "mha-explorer-recording 2\nsize 80x24\n# snap on\n# at 0.000\n0.500 right\n";
    ck_assert_int_eq(rec_stream_feed(&st, head, strlen(head)), 1);
    ck_assert(st.rec.snaps_on);
    /* 12 MiB of snapshots: past the keys' 8 MiB, within their own cap */
    size_t fed = 0;
    int n = 0;
    while (fed < ((size_t)12 << 20)) {
        ck_assert_int_ge(rec_stream_feed(&st, one, len), 0);
        fed += len;
        n++;
    }
    ck_assert(!st.failed);
    ck_assert_int_eq(st.rec.n_snaps, n);
    ck_assert_int_eq(st.rec.snaps[n - 1].at, 1);
    ck_assert(st.clock == 2.5);
    ck_assert_uint_lt(st.bytes, (size_t)1 << 20); /* the prefixes only */
    const char key[] = "3.000 left\n";
    ck_assert_int_eq(rec_stream_feed(&st, key, strlen(key)), 1);
    /* on to the snapshots' cap: there it stops, the line named */
    int r = 0;
    while (r >= 0 && fed < REC_MAX_SNAP_BYTES + ((size_t)2 << 20)) {
        r = rec_stream_feed(&st, one, len);
        fed += len;
    }
    ck_assert_int_eq(r, -1);
    ck_assert_ptr_nonnull(strstr(st.err.text, "64 MiB"));
    ck_assert_uint_le(st.rec.snap_bytes, REC_MAX_SNAP_BYTES + 1);
    rec_stream_free(&st);
    free(one);
    rec_snap_free(&s);
}
END_TEST

/* A whole recording: the same snapshots, after the events before them;
 * older lines around them read as before. */
START_TEST(test_parse)
{
    struct rec_snap s;
    fill(&s, 20, 30);
    char *one = written(&s);
    char *text = NULL;
    size_t len = 0;
    FILE *out = open_memstream(&text, &len);
    fprintf(out,
            "mha-explorer-recording 2\nsize 80x24\n# snap on\n# at 0.000\n%s0.500 right\n"
            "# state stage=1 train=650 paused=1 scrub=600\n%s# snap begin step=9\n",
            one, one);
    fclose(out);
    struct recording rec;
    struct mha_error err;
    mha_error_clear(&err);
    ck_assert_int_eq(rec_parse(text, "t.rec", &rec, &err), 0);
    ck_assert(rec.snaps_on);
    ck_assert_int_eq(rec.n, 1);
    ck_assert_int_eq(rec.n_snaps, 2);
    ck_assert_int_eq(rec.snaps[0].at, 0);
    ck_assert_int_eq(rec.snaps[1].at, 1);
    check_same(&s, &rec.snaps[1]);
    ck_assert_int_eq(rec.n_states, 1);
    ck_assert_int_eq(rec.states[0].s.train, 650);
    ck_assert_int_eq(rec.states[0].s.paused, 1);
    ck_assert_int_eq(rec.states[0].s.scrub, 600);
    rec_free(&rec);
    free(text);
    free(one);
    rec_snap_free(&s);
}
END_TEST

/* A snapshot's numbers are finite: an infinity anywhere, or a NaN anywhere
 * but what is not known yet (the begin line's loss and accuracies, an
 * evaluation's training loss), refuses the recording at that line. */
START_TEST(test_not_finite_refused)
{
    const float good[2] = {0.5f, -1.25f}, nan2[2] = {0.5f, NAN}, inf2[2] = {INFINITY, 1.0f};
    char w_good[32], w_nan[32], w_inf[32];
    rec_snap_b64_put(good, 2, w_good);
    rec_snap_b64_put(nan2, 2, w_nan);
    rec_snap_b64_put(inf2, 2, w_inf);
    const char *begin_ok = "begin t=0.5 pane=0 kind=live step=3 stop=0 pace=-1 params=2 loss=nan "
                           "acc=nan losses=2 evals=1 jobs=0 roles=0";
    const char *begin_inf = "begin t=0.5 pane=0 kind=live step=3 stop=0 pace=-1 params=2 loss=inf "
                            "acc=0.5 losses=2 evals=1 jobs=0 roles=0";
    const char *begin_acc = "begin t=0.5 pane=0 kind=live step=3 stop=0 pace=-1 params=2 loss=1 "
                            "acc=0.5,inf losses=2 evals=1 jobs=0 roles=0";
    /* begin, losses, eval, weights: the line of each that is broken */
    struct {
        const char *begin, *loss, *eval, *w;
        int bad_line; /* 0: read whole */
    } cases[] = {
        {begin_ok, w_good, "3 nan 1.5 0.25", w_good, 0},
        {begin_inf, w_good, "3 nan 1.5 0.25", w_good, 4},
        {begin_acc, w_good, "3 nan 1.5 0.25", w_good, 4},
        {begin_ok, w_nan, "3 nan 1.5 0.25", w_good, 5},
        {begin_ok, w_inf, "3 nan 1.5 0.25", w_good, 5},
        {begin_ok, w_good, "3 inf 1.5 0.25", w_good, 6},
        {begin_ok, w_good, "3 1 nan 0.25", w_good, 6},
        {begin_ok, w_good, "3 1 1.5 nan", w_good, 6},
        {begin_ok, w_good, "3 1 1.5 -inf", w_good, 6},
        {begin_ok, w_good, "3 1 1.5 0.25", w_nan, 7},
        {begin_ok, w_good, "3 1 1.5 0.25", w_inf, 7},
    };
    for (size_t c = 0; c < sizeof cases / sizeof cases[0]; c++) {
        char text[1024];
        snprintf(text, sizeof text,
                 "mha-explorer-recording 2\n# snap on\n# at 0.000\n# snap %s\n# snap loss 1 %s\n"
                 "# snap eval %s\n# snap w 0 %s\n# snap end\n0.600 right\n",
                 cases[c].begin, cases[c].loss, cases[c].eval, cases[c].w);
        struct recording rec;
        struct mha_error err;
        mha_error_clear(&err);
        const int r = rec_parse(text, "t.rec", &rec, &err);
        if (cases[c].bad_line == 0) {
            ck_assert_int_eq(r, 0);
            ck_assert_int_eq(rec.n_snaps, 1);
            ck_assert(isnan(rec.snaps[0].loss));
            rec_free(&rec);
            continue;
        }
        ck_assert_msg(r != 0, "case %zu was read", c);
        ck_assert_int_eq(err.line, cases[c].bad_line);
        ck_assert_ptr_nonnull(strstr(err.text, "not finite"));
    }
}
END_TEST

/* The layer a snapshot's heads' figures are of: said only for a model of
 * layers; a begin line without it (an older build's, or one layer) says
 * none; one out of range drops its snapshot only. */
START_TEST(test_layer)
{
    struct rec_snap s;
    fill(&s, 2, 3);
    char *text = written(&s);
    ck_assert_ptr_null(strstr(text, "layer="));
    s.layer = 1;
    char *one = written(&s);
    ck_assert_ptr_nonnull(strstr(one, " layer=1\n"));
    struct rec_snap_reader rd = {0};
    struct rec_snap got[2];
    ck_assert_int_eq(read_lines(&rd, one, got, 2), 1);
    ck_assert_int_eq(got[0].layer, 1);
    rec_snap_free(&got[0]);
    ck_assert_int_eq(read_lines(&rd, text, got, 2), 1);
    ck_assert_int_eq(got[0].layer, -1);
    rec_snap_free(&got[0]);
    char *bad = strdup(one);
    memcpy(strstr(bad, " layer=1\n"), " layer=x", 8);
    ck_assert_int_eq(read_lines(&rd, bad, got, 2), 0);
    ck_assert_int_eq(read_lines(&rd, one, got, 2), 1); /* and the next reads */
    rec_snap_free(&got[0]);
    rec_snap_reader_free(&rd);
    free(bad);
    free(one);
    free(text);
    rec_snap_free(&s);
}
END_TEST

static Suite *suite(void)
{
    Suite *s = suite_create("rec_snap");
    TCase *tc = tcase_create("snapshots");
    tcase_set_timeout(tc, 60);
    tcase_add_test(tc, test_b64_round_trip);
    tcase_add_test(tc, test_b64_refused);
    tcase_add_test(tc, test_round_trip);
    tcase_add_test(tc, test_a_bad_line_drops_its_snapshot_only);
    tcase_add_test(tc, test_garbage_never_crashes);
    tcase_add_test(tc, test_long_lines);
    tcase_add_test(tc, test_stream_and_caps);
    tcase_add_test(tc, test_parse);
    tcase_add_test(tc, test_layer);
    tcase_add_test(tc, test_not_finite_refused);
    suite_add_tcase(s, tc);
    return s;
}

int main(void)
{
    SRunner *sr = srunner_create(suite());
    srunner_run_all(sr, CK_NORMAL);
    const int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed ? EXIT_FAILURE : EXIT_SUCCESS;
}
