/* test_rec_stream.c - a recording read while it grows: the same lines as a
 * whole recording, in any pieces; the teacher's clock and end from its
 * comments; a torn line waits for the rest; NUL, overlong lines, a stream
 * past the cap and bad keys stop it with the line named and no control
 * byte in the message; a followed file that grows, shrinks, is replaced or
 * removed, a FIFO that closes, and paths that are not recordings. */
#include <check.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "io/rec_stream.h"
#include "io/view_desc.h"
#include "test_tmp.h"
#include "check_run.h"

static const char *session = "mha-explorer-recording 2\n"
                             "size 80x24\n"
                             "arg --lesson\n"
                             "arg 3\n"
                             "# seconds key\n"
                             "# at 0.000\n"
                             "0.500 right\n"
                             "1.250 +\n"
                             "# at 3.000\n"
                             "3.400 click 5 7\n"
                             "# end\n";

/* text without its NUL */
#define FEED(s, text) rec_stream_feed((s), (text), strlen(text))

static void check_session(const struct rec_stream *s)
{
    ck_assert(!s->failed);
    ck_assert_int_eq(s->rec.version, 2);
    ck_assert_int_eq(s->rec.start.n_args, 2);
    ck_assert_str_eq(s->rec.start.args[1], "3");
    ck_assert_int_eq(s->rec.start.cols, 80);
    ck_assert_int_eq(s->rec.n, 3);
    ck_assert_int_eq(s->rec.events[0].key, REC_KEY_RIGHT);
    ck_assert_int_eq(s->rec.events[1].key, '+');
    ck_assert_int_eq(s->rec.events[2].key, REC_KEY_CLICK);
    ck_assert_int_eq(s->rec.events[2].x, 7);
    ck_assert(s->started && s->ended);
    ck_assert(s->clock == 3.4);
}

START_TEST(test_whole_and_in_pieces)
{
    const size_t len = strlen(session);
    for (size_t piece = 1; piece <= len; piece = piece < 8 ? piece + 1 : piece * 3) {
        struct rec_stream s;
        rec_stream_init(&s, "class.rec");
        int added = 0;
        for (size_t i = 0; i < len; i += piece) {
            const int r = rec_stream_feed(&s, session + i, i + piece > len ? len - i : piece);
            ck_assert_int_ge(r, 0);
            added += r;
        }
        ck_assert_int_eq(added, 3);
        check_session(&s);
        rec_stream_free(&s);
    }
}
END_TEST

START_TEST(test_start_and_clock)
{
    struct rec_stream s;
    rec_stream_init(&s, "class.rec");
    ck_assert_int_eq(FEED(&s, "mha-explorer-recording 2\nsize 80x24\n"), 0);
    ck_assert(!s.started); /* the start lines may go on */
    ck_assert_int_eq(FEED(&s, "# at 0.000\n"), 0);
    ck_assert(s.started);
    ck_assert_int_eq(FEED(&s, "0.75 ri"), 0); /* torn: waits */
    ck_assert_int_eq(s.rec.n, 0);
    ck_assert_int_eq(FEED(&s, "ght\n# at 9.5\n"), 1);
    ck_assert(s.clock == 9.5);
    /* a clock that goes back, or a comment that only looks like one, is a comment */
    ck_assert_int_eq(FEED(&s, "# at 2\n# at noon\n# ended\n"), 0);
    ck_assert(s.clock == 9.5 && !s.ended && !s.failed);
    rec_stream_free(&s);
}
END_TEST

static void expect_stop(const char *text, size_t len, const char *want, int line)
{
    struct rec_stream s;
    rec_stream_init(&s, "class.rec");
    int r = 0;
    for (size_t i = 0; i < len && r >= 0; i++)
        r = rec_stream_feed(&s, text + i, 1);
    ck_assert_int_eq(r, -1);
    ck_assert(s.failed);
    ck_assert_msg(strstr(s.err.text, want), "\"%s\" lacks \"%s\"", s.err.text, want);
    ck_assert_int_eq(s.err.line, line);
    for (const char *p = s.err.text; *p; p++)
        ck_assert_int_ge((unsigned char)*p, 0x20);
    ck_assert_int_eq(FEED(&s, "0 x\n"), -1); /* stopped for good */
    rec_stream_free(&s);
}

START_TEST(test_hostile)
{
    expect_stop("mha-explorer-recording 2\n0.1 a\n0.2 \0b\n", 38, "NUL", 3);
    expect_stop("mha-explorer-recording 2\n0.1 \x1b[2J\n", 34, "unknown key", 2);
    expect_stop("mha-explorer-recording 2\n0.5 a\n0.2 b\n", 37, "backwards", 3);
    expect_stop("\x1b]0;owned\x07\n", 11, "not a recording", 1);
    static char longline[REC_MAX_LINE + 40];
    memcpy(longline, "mha-explorer-recording 2\n", 25);
    memset(longline + 25, 'x', sizeof longline - 25);
    expect_stop(longline, sizeof longline, "too long", 2);
}
END_TEST

START_TEST(test_cap)
{
    struct rec_stream s;
    rec_stream_init(&s, "class.rec");
    ck_assert_int_eq(FEED(&s, "mha-explorer-recording 2\n"), 0);
    static char comments[1 << 16];
    for (size_t i = 0; i < sizeof comments; i += 64) {
        memset(comments + i, ' ', 64);
        comments[i] = '#';
        comments[i + 63] = '\n';
    }
    int r = 0;
    for (size_t n = 0; r >= 0 && n < 2 * REC_MAX_BYTES; n += sizeof comments)
        r = rec_stream_feed(&s, comments, sizeof comments);
    ck_assert_int_eq(r, -1);
    ck_assert_ptr_nonnull(strstr(s.err.text, "past 8 MiB"));
    ck_assert_uint_le(s.bytes, REC_MAX_BYTES + 1);
    rec_stream_free(&s);
}
END_TEST

static char dir[512], file[768];

static void append(const char *text)
{
    FILE *f = fopen(file, "a");
    ck_assert_ptr_nonnull(f);
    fputs(text, f);
    ck_assert_int_eq(fclose(f), 0);
}

START_TEST(test_follow_file)
{
    test_tmp_dir(dir, sizeof dir, "mha-follow");
    snprintf(file, sizeof file, "%s/class.rec", dir);
    append("mha-explorer-recording 2\nsize 80x24\n");
    struct rec_follow f;
    struct mha_error err;
    ck_assert_int_eq(rec_follow_open(&f, file, 0.0, &err), 0);
    ck_assert_int_eq(rec_follow_poll(&f, 0.1, 1 << 20), 0);
    ck_assert(!f.s.started);
    append("# at 0.000\n0.2 right\n0.4 le");
    ck_assert_int_eq(rec_follow_poll(&f, 0.5, 1 << 20), 1);
    append("ft\n");
    ck_assert_int_eq(rec_follow_poll(&f, 0.6, 1 << 20), 1);
    ck_assert_int_eq(f.state, REC_FOLLOW_LIVE);
    char why[2048];
    rec_follow_why(&f, 0.7, why, sizeof why);
    ck_assert_str_eq(why, "");
    rec_follow_why(&f, 0.6 + REC_QUIET_AFTER, why, sizeof why);
    ck_assert_ptr_nonnull(strstr(why, "nothing from the teacher"));
    /* a small budget reads a little at a time */
    append("1.0 a\n1.1 b\n1.2 c\n");
    ck_assert_int_eq(rec_follow_poll(&f, 1.0, 6), 1);
    ck_assert_int_eq(rec_follow_poll(&f, 1.0, 1 << 20), 2);
    /* shorter than what was read */
    ck_assert_int_eq(truncate(file, 10), 0);
    ck_assert_int_eq(rec_follow_poll(&f, 2.0, 1 << 20), 0);
    ck_assert_int_eq(f.state, REC_FOLLOW_SHRANK);
    rec_follow_close(&f);

    /* another file put at the path, then the path removed */
    ck_assert_int_eq(rec_follow_open(&f, file, 0.0, &err), 0);
    char other[2048];
    snprintf(other, sizeof other, "%s/new.rec", dir);
    FILE *o = fopen(other, "w");
    fputs("mha-explorer-recording 2\n", o);
    fclose(o);
    ck_assert_int_eq(rename(other, file), 0);
    rec_follow_poll(&f, 1.0, 1 << 20);
    ck_assert_int_eq(f.state, REC_FOLLOW_REPLACED);
    rec_follow_close(&f);
    ck_assert_int_eq(rec_follow_open(&f, file, 0.0, &err), 0);
    ck_assert_int_eq(unlink(file), 0);
    rec_follow_poll(&f, 1.0, 1 << 20);
    ck_assert_int_eq(f.state, REC_FOLLOW_GONE);
    rec_follow_why(&f, 1.0, why, sizeof why);
    ck_assert_ptr_nonnull(strstr(why, "was removed"));
    rec_follow_close(&f);
    test_tmp_remove(dir);
}
END_TEST

START_TEST(test_follow_fifo_and_refusals)
{
    test_tmp_dir(dir, sizeof dir, "mha-follow");
    snprintf(file, sizeof file, "%s/class.fifo", dir);
    ck_assert_int_eq(mkfifo(file, 0600), 0);
    struct rec_follow f;
    struct mha_error err;
    ck_assert_int_eq(rec_follow_open(&f, file, 0.0, &err), 0); /* no writer yet: no hang */
    const int w = open(file, O_WRONLY);
    ck_assert_int_ge(w, 0);
    const char *text = "mha-explorer-recording 2\n# at 0\n0.1 x\n# end\n";
    ck_assert_int_eq(write(w, text, strlen(text)), (ssize_t)strlen(text));
    ck_assert_int_eq(rec_follow_poll(&f, 0.2, 1 << 20), 1);
    ck_assert_int_eq(f.state, REC_FOLLOW_ENDED);
    close(w);
    rec_follow_close(&f);

    ck_assert_int_eq(rec_follow_open(&f, "/dev/null", 0.0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "character device"));
    ck_assert_int_eq(rec_follow_open(&f, dir, 0.0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "folder"));
    char missing[2048];
    snprintf(missing, sizeof missing, "%s/none.rec", dir);
    ck_assert_int_eq(rec_follow_open(&f, missing, 0.0, &err), -1);
    ck_assert_ptr_nonnull(strstr(err.text, "cannot open"));
    unlink(file);
    test_tmp_remove(dir);
}
END_TEST

/* State lines: each merged into the whole after the events before it (one
 * kept a place), written as what changed, skipped as comments by a reader
 * that does not know them, and a keys-only recording has none. */
START_TEST(test_state_lines)
{
    struct rec_state a, b;
    rec_state_clear(&a);
    rec_state_merge(&a, "lesson=07-attention.md step=2 stage=4 view=heads present=1 heads=3 "
                        "seed=42 causal=0 scale=1 future=9 step=x");
    ck_assert_str_eq(a.lesson, "07-attention.md");
    ck_assert_int_eq(a.step, 2); /* "step=x" does not read: the last good value stays */
    ck_assert_int_eq(a.stage, 4);
    ck_assert_str_eq(mha_view_name((enum mha_view)a.view), "heads");
    ck_assert_int_eq(a.present, 1);
    ck_assert_int_eq(a.autoplay, -1); /* not named: unknown */
    ck_assert_int_eq((int)a.seed, 42);
    rec_state_merge(&a, "lesson=../x.md"); /* a path is no lesson name */
    rec_state_merge(&a, "lesson=..");
    ck_assert_str_eq(a.lesson, "07-attention.md");
    ck_assert_int_eq(a.layer, -1); /* an older build's line: no layer said */

    /* the layer shown of a model of layers: written when it changes, read back */
    {
        char *lb = NULL;
        size_t ll = 0;
        FILE *lf = open_memstream(&lb, &ll);
        struct rec_state l1 = a, l0 = a;
        l1.layer = 1;
        l0.layer = 0;
        ck_assert(!rec_state_same(&l1, &l0));
        ck_assert_int_eq(rec_state_write(lf, &a, &l1), 0);
        ck_assert_int_eq(rec_state_write(lf, &l1, &l0), 0);
        fclose(lf);
        ck_assert_str_eq(lb, "# state layer=1\n# state layer=0\n");
        struct rec_state r = a;
        rec_state_merge(&r, "layer=1");
        ck_assert_int_eq(r.layer, 1);
        rec_state_merge(&r, "layer=-3 layer=y"); /* does not read: stays */
        ck_assert_int_eq(r.layer, 1);
        free(lb);
    }

    /* a language model's top-p: written once it is other than 1, read back */
    {
        char *pb = NULL;
        size_t pl = 0;
        FILE *pf = open_memstream(&pb, &pl);
        struct rec_state p1 = a, p9 = a;
        p1.top_p = 1000;
        p9.top_p = 900;
        ck_assert(!rec_state_same(&p1, &p9));
        ck_assert_int_eq(rec_state_write(pf, &a, &p1), 0); /* unknown to 1: nothing to say */
        ck_assert_int_eq(rec_state_write(pf, &p1, &p9), 0);
        ck_assert_int_eq(rec_state_write(pf, &p9, &p1), 0);
        fclose(pf);
        ck_assert_str_eq(pb, "# state top_p=0.9\n# state top_p=1\n");
        struct rec_state r = a;
        ck_assert_int_eq(r.top_p, -1);
        rec_state_merge(&r, "top_p=0.25");
        ck_assert_int_eq(r.top_p, 250);
        rec_state_merge(&r, "top_p=0 top_p=1.5 top_p=x"); /* out of range: stays */
        ck_assert_int_eq(r.top_p, 250);
        free(pb);
    }

    /* written as what changed, read back into the same whole */
    char *buf = NULL;
    size_t len = 0;
    FILE *f = open_memstream(&buf, &len);
    b = a;
    b.step = 3;
    b.autoplay = 1;
    ck_assert_int_eq(rec_state_write(f, NULL, &a), 0);
    ck_assert_int_eq(rec_state_write(f, &a, &b), 0);
    ck_assert_int_eq(rec_state_write(f, &b, &b), 0); /* nothing changed: no line */
    fclose(f);
    ck_assert_ptr_nonnull(strstr(buf, "\n# state step=3 autoplay=1\n"));
    ck_assert_int_eq(
        (int)(strchr(buf, '\n') - buf + 1) + (int)strlen("# state step=3 autoplay=1\n"), (int)len);

    /* in a recording: the state after each place, the last line there winning */
    char text[1024];
    snprintf(text, sizeof text,
             "mha-explorer-recording 2\n# at 0\n%s0.1 space\n# state step=1\n# state step=2\n"
             "0.2 space\n0.3 space\n# state step=4 stage=2\n",
             buf);
    free(buf);
    struct rec_stream s;
    rec_stream_init(&s, "class.rec");
    ck_assert_int_eq(FEED(&s, text), 3);
    ck_assert_int_eq(s.rec.n_states, 3);
    ck_assert_int_eq(s.rec.states[0].at, 0);
    ck_assert_int_eq(s.rec.states[0].s.step, 3);
    ck_assert_int_eq(s.rec.states[1].at, 1);
    ck_assert_int_eq(s.rec.states[1].s.step, 2);
    ck_assert_str_eq(s.rec.states[1].s.lesson, "07-attention.md");
    ck_assert_int_eq(s.rec.states[2].at, 3);
    ck_assert_int_eq(s.rec.states[2].s.stage, 2);
    ck_assert_int_eq(s.rec.states[2].s.heads, 3);
    ck_assert_int_eq((int)s.rec.state_lines, 5);
    rec_stream_free(&s);

    /* moves no key made (autoplay): an entry each, at the "# at" before it
     * (one that goes back or past a day is not the clock) */
    rec_stream_init(&s, "class.rec");
    ck_assert_int_eq(FEED(&s, "mha-explorer-recording 2\n# at 0\n# state step=0\n"
                              "# at 1.5\n# state step=1\n# at 3.0\n# state step=2\n"
                              "# at 2.0\n# state step=3\n3.5 space\n# state step=4\n"
                              "# at 999999\n# state step=5\n"),
                     1);
    ck_assert_int_eq(s.rec.n_states, 4);
    const double at_t[] = {0.0, 1.5, 3.0, 3.5};
    const int at_step[] = {0, 1, 3, 5};
    for (int i = 0; i < 4; i++) {
        ck_assert_double_eq(s.rec.states[i].t, at_t[i]);
        ck_assert_int_eq(s.rec.states[i].s.step, at_step[i]);
    }
    ck_assert_int_eq(s.rec.states[2].at, 0);
    ck_assert_int_eq(s.rec.states[3].at, 1);
    ck_assert_int_eq((int)s.rec.state_lines, 6);
    rec_stream_free(&s);

    /* keys only: none */
    struct recording r;
    struct mha_error err;
    ck_assert_int_eq(rec_parse("mha-explorer-recording 1\n0.1 right\n", "k.rec", &r, &err), 0);
    ck_assert_int_eq(r.n_states, 0);
    ck_assert_int_eq(r.n, 1);
    rec_free(&r);
}
END_TEST

int main(void)
{
    Suite *s = suite_create("rec_stream");
    TCase *tc = tcase_create("stream");
    tcase_add_test(tc, test_whole_and_in_pieces);
    tcase_add_test(tc, test_start_and_clock);
    tcase_add_test(tc, test_hostile);
    tcase_add_test(tc, test_cap);
    tcase_add_test(tc, test_follow_file);
    tcase_add_test(tc, test_follow_fifo_and_refusals);
    tcase_add_test(tc, test_state_lines);
    suite_add_tcase(s, tc);
    return check_run(s);
}
