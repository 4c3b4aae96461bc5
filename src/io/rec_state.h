/* rec_state.h - the teacher's state in a recording: where the teacher is,
 * not only what the teacher pressed, so a follower or a replay of another
 * terminal size (where the same key may scroll instead of moving on) ends
 * on the teacher's lesson step, stage and settings.
 *
 * A state line is a comment (older builds skip it, as they skip "# at"):
 *
 *   # state lesson=07-cost.md step=4 stage=2 view=none present=1 autoplay=0
 *           heads=2 d_model=6 seed=42 causal=0 scale=1
 *
 * and on a --compare training screen pane=1 (the pane in focus: a click at
 * the teacher's size chose it; the runs train to the teacher's clock), and
 * on any training screen train=650 paused=1 scrub=live (the run's step as
 * the last snapshot of it gave it, rec_snap.h; whether it is paused; the
 * checkpoint shown, by its step, or live: the model as it is)
 *
 * and, where the model shown has layers (a loaded model or the training
 * run's in focus), layer=1 (the layer shown, from 0; a one-layer model
 * writes none; older builds skip it)
 *
 * and, once the top-p w draws at is other than 1 (or was), top_p=0.9 (in
 * (0, 1], kept to three decimals; older builds skip it)
 *
 * (one line).  It follows the event it came after and lists only what
 * changed since the line before (the first lists everything), so a class's
 * stream grows by a few bytes a key.  Unknown names are skipped (a later
 * build may add some); a value that does not read is left as it was.
 * Steps count from 0.  lesson=- : no lesson is open; a lesson's name never
 * holds a '/' nor starts with '.' (it names a file in the lessons folder). */
#ifndef MHA_REC_STATE_H
#define MHA_REC_STATE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdio.h>

#define REC_STATE_PREFIX "# state "
#define REC_STATE_LESSON_MAX 64

/* Every field may be unknown (-1, or "" for the lesson): a state line
 * names only some. */
struct rec_state {
    char lesson[REC_STATE_LESSON_MAX]; /* the lesson file's name, "-" none */
    int step;                          /* the lesson's step, from 0 */
    int stage;
    int view; /* enum mha_view */
    int present, autoplay;
    int heads, d_model;
    long long seed;
    int causal, scale;
    int pane;   /* a training screen's pane in focus */
    long train; /* the training run's step */
    int paused; /* the training run is paused */
    long scrub; /* the checkpoint shown, REC_STATE_LIVE: the live model */
    int layer;  /* the layer shown of a model of layers, from 0 */
    int top_p;  /* a language model's top-p on the screen, in thousandths (1..1000) */
};
#define REC_STATE_LIVE (-2L)
#define REC_STATE_MAX_STEP 10000000L

/* Every field unknown. */
void rec_state_clear(struct rec_state *s);
/* The fields a state line's text (after "# state ") names, into s (the
 * others stay). */
void rec_state_merge(struct rec_state *s, const char *text);
/* "# state ..." for what now differs from was (was NULL: everything known
 * in now), written to out; nothing when nothing differs.  0, or -1 on a
 * write error. */
int rec_state_write(FILE *out, const struct rec_state *was, const struct rec_state *now);
/* Two states name the same (the fields known in both). */
bool rec_state_same(const struct rec_state *a, const struct rec_state *b);

#endif
