/* ui_write.c - a loaded language model's next words on the screen: the
 * temperature and top-p they are read at (< > and ( ), :top-p), and w
 * writing a word drawn from them (ui_state.h). */
#include <stdio.h>
#include <string.h>

#include "train/train_text.h"
#include "ui/state/ui_state.h"

/* The temperatures < and > step through. */
static const float temperatures[] = {0.25f, 0.5f, 0.75f, 1.0f, 1.5f, 2.0f, 4.0f};
#define N_TEMPERATURES ((int)(sizeof temperatures / sizeof temperatures[0]))

static bool is_model(const struct ui_state *st)
{
    return st->load_model;
}

/* True, said, when the loaded model's next words went with a change of its
 * numbers: what brings them back (does: "w writes with"). */
static bool words_lost_say(struct ui_state *st, const char *does)
{
    if (!st->words_lost || !is_model(st))
        return false;
    ui_state_say(st, true,
                 "%s the language model as loaded: its next words went when its numbers "
                 "changed (its heads, its size or its mask); :load %s brings them back.",
                 does, st->load_path);
    return true;
}

int ui_state_step_temperature(struct ui_state *st, int dir)
{
    if (!st->ex->has_next_word || !is_model(st)) {
        if (!words_lost_say(st, "< > change the temperature of"))
            ui_state_say(st, true,
                         "< > change a language model's temperature: load one (--load MODEL, or "
                         "lesson 18).");
        return -1;
    }
    const float now = st->ex->next_word.temperature;
    int at = 0;
    while (at + 1 < N_TEMPERATURES && temperatures[at] < now)
        at++;
    if (temperatures[at] == now)
        at += dir;
    else if (dir < 0 || temperatures[at] < now) /* between two steps: the nearer one that way */
        at += dir < 0 ? -1 : 1;
    if (at < 0 || at >= N_TEMPERATURES) {
        ui_state_say(st, true, "Temperature %g is the %s here.", (double)now,
                     dir < 0 ? "lowest" : "highest");
        return -1;
    }
    /* the same words through the model again, softmax(logits / temperature) */
    char words[4096];
    ui_state_joined_tokens(st, 0, words, sizeof words);
    const float keep = st->temperature;
    st->temperature = temperatures[at];
    if (ui_state_run_model(st, words, dir < 0 ? "<" : ">")) {
        st->temperature = keep;
        return -1;
    }
    ui_state_say(st, false,
                 "Temperature %g: softmax(logits / %g), %s; \"%s\" first with %.2f. < > change "
                 "it.",
                 (double)st->temperature, (double)st->temperature,
                 st->temperature < 1.0f   ? "sharper than the model's own"
                 : st->temperature > 1.0f ? "flatter than the model's own"
                                          : "the model's own probabilities",
                 st->ex->next_word.word[0], (double)st->ex->next_word.p[0]);
    return 0;
}

int ui_state_write_word(struct ui_state *st, int dir)
{
    if (!st->ex->has_next_word || !is_model(st)) {
        if (!words_lost_say(st, "w writes with"))
            ui_state_say(st, true,
                         "w writes with a language model, a word at a time: load one (--load "
                         "MODEL, or lesson 18).");
        return -1;
    }
    char words[4096];
    if (dir < 0) {
        if (st->ex->lq < 2) {
            ui_state_say(st, true,
                         "One word is left: W takes back only words w wrote or you typed "
                         "after it.");
            return -1;
        }
        ui_state_joined_tokens(st, 1, words, sizeof words);
        if (ui_state_run_model(st, words, "W"))
            return -1;
        ui_state_say(st, false, "Back to \"%s\"; w writes again.", words);
        return 0;
    }
    /* drawn among the words shown but <unk>, which a line never holds, and
     * with a top-p below 1 among those of its nucleus */
    const struct mha_next_word *nw = &st->ex->next_word;
    bool in[MHA_NEXT_WORD_MAX];
    ui_state_nucleus_rows(nw, in);
    double sum = 0.0;
    int pick = -1;
    for (int i = 0; i < nw->n; i++)
        if (in[i]) {
            sum += nw->p[i];
            pick = i;
        }
    if (pick < 0) {
        ui_state_say(st, true,
                     "w: the model's likeliest next words are all %s, which it never "
                     "writes.",
                     TRAIN_TEXT_UNKNOWN);
        return -1;
    }
    double u = rng_next(&st->draws) * sum;
    for (int i = 0; i < nw->n; i++) {
        if (!in[i])
            continue;
        u -= nw->p[i];
        if (u < 0.0) {
            pick = i;
            break;
        }
    }
    char word[sizeof nw->word[0]];
    snprintf(word, sizeof word, "%s", nw->word[pick]);
    const float top_p = nw->top_p;
    const int nucleus = nw->nucleus;
    const double p = nw->p[pick];
    ui_state_joined_tokens(st, 0, words, sizeof words);
    const size_t used = strlen(words);
    snprintf(words + used, sizeof words - used, " %s", word);
    if (ui_state_run_model(st, words, "w")) { /* the context is full: the message says so */
        char said[sizeof st->msg];
        snprintf(said, sizeof said, "%s", st->msg);
        ui_state_say(st, true, "%s; W takes a word back.", said);
        return -1;
    }
    char from[96];
    if (top_p < 1.0f && nucleus <= MHA_NEXT_WORD_MAX)
        snprintf(from, sizeof from, "drawn from its nucleus at top-p %g, %d word%s", (double)top_p,
                 nucleus, nucleus == 1 ? "" : "s");
    else if (top_p < 1.0f)
        snprintf(from, sizeof from, "drawn from the ten likeliest of its nucleus of %d at top-p %g",
                 nucleus, (double)top_p);
    else
        snprintf(from, sizeof from, "drawn from its ten likeliest");
    ui_state_say(st, false,
                 "The model wrote \"%s\" (%.2f at temperature %g), %s; every stage now has %d "
                 "words. w writes the next, W takes it back.",
                 word, p, (double)st->temperature, from, st->ex->lq);
    return 0;
}

void ui_state_nucleus_rows(const struct mha_next_word *nw, bool *in)
{
    /* the nucleus is the likeliest words but <unk>, and the rows are the
     * likeliest words: row i is in it while fewer than nucleus others are */
    const bool cut = nw->top_p > 0.0f && nw->top_p < 1.0f;
    int before = 0;
    for (int i = 0; i < nw->n && i < MHA_NEXT_WORD_MAX; i++) {
        in[i] = strcmp(nw->word[i], TRAIN_TEXT_UNKNOWN) != 0 && (!cut || before < nw->nucleus);
        before += strcmp(nw->word[i], TRAIN_TEXT_UNKNOWN) != 0;
    }
}

/* The top-ps ( and ) step through. */
static const float top_ps[] = {0.1f, 0.25f, 0.5f, 0.75f, 0.9f, 0.95f, 1.0f};
#define N_TOP_PS ((int)(sizeof top_ps / sizeof top_ps[0]))

int ui_state_set_top_p(struct ui_state *st, double top_p, const char *what)
{
    if (!(top_p > 0.0 && top_p <= 1.0)) {
        ui_state_say(st, true, "%s: top-p %g is out of range: above 0 and at most 1.", what, top_p);
        return -1;
    }
    if (!st->ex->has_next_word || !is_model(st)) {
        st->top_p = top_p; /* kept for the next language model */
        if (!words_lost_say(st, "top-p is kept for"))
            ui_state_say(st, false,
                         "Top-p %g is kept for a language model (--load MODEL, or lesson 18): "
                         "w then writes from the fewest likeliest words whose probabilities "
                         "sum to %g or more.",
                         top_p, top_p);
        return 0;
    }
    char words[4096];
    ui_state_joined_tokens(st, 0, words, sizeof words);
    const double keep = st->top_p;
    st->top_p = top_p;
    if (ui_state_run_model(st, words, what)) {
        st->top_p = keep;
        return -1;
    }
    const struct mha_next_word *nw = &st->ex->next_word;
    ui_state_say(st, false,
                 "Top-p %g: w draws from the nucleus, the fewest likeliest words whose "
                 "probabilities sum to %g or more: %d word%s, %.2f together. ( ) change it.",
                 top_p, top_p, nw->nucleus, nw->nucleus == 1 ? "" : "s", (double)nw->nucleus_p);
    return 0;
}

int ui_state_step_top_p(struct ui_state *st, int dir)
{
    const float now = (float)st->top_p;
    int at = 0;
    while (at + 1 < N_TOP_PS && top_ps[at] < now)
        at++;
    if (top_ps[at] == now)
        at += dir;
    else if (dir < 0 || top_ps[at] < now) /* between two steps: the nearer one that way */
        at += dir < 0 ? -1 : 1;
    if (at < 0 || at >= N_TOP_PS) {
        ui_state_say(st, true, "Top-p %g is the %s here.", (double)now,
                     dir < 0 ? "lowest" : "highest");
        return -1;
    }
    return ui_state_set_top_p(st, top_ps[at], dir < 0 ? "(" : ")");
}
