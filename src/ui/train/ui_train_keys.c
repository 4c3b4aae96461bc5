/* ui_train_keys.c - the training screen's keys: one table for the handling
 * and the help's section, and what each does (the hand-over to the
 * explorer's stages and back included). */
#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "engine/stages.h"
#include "io/export.h"
#include "lesson/lesson_state.h"
#include "ui/train/ui_train.h"
#include "ui/train/ui_train_draw.h"
#include "ui/state/ui_keymap.h"
#include "ui/state/ui_mode.h"
#include "ui/state/ui_state.h"
#include "ui/draw/ui_text.h"
#include "train/train_text.h"
#include "train/trun.h"
#include "ui/modes/ui_keymaps.h"

enum train_act {
    TACT_PAUSE,
    TACT_STEP,
    TACT_SLOWER,
    TACT_FASTER,
    TACT_RESEED,
    TACT_HEADS_MORE,
    TACT_HEADS_FEWER,
    TACT_BACK,
    TACT_FORWARD,
    TACT_FIRST,
    TACT_LIVE,
    TACT_STAGE,
    TACT_EXPORT,
    TACT_CIRCUITS, /* w: what each head writes / the heatmaps */
    TACT_SAMPLES,  /* o: a text's lines the model writes / the heatmaps */
    TACT_SCREEN,   /* t: the training screen (back) */
    TACT_FOCUS,    /* --compare: the next pane */
    TACT_LAYER,    /* y: a model of layers, the next layer's heads */
    TACT_SWALLOW
};

static const struct ui_keymap_row table[] = {
    /* the hints, in this order, are the training screen's key hint line */
    {{' ', 'p'}, "Space p", TACT_PAUSE, "pause / train on (p in a lesson)", "Space pause"},
    {{'n'}, "n", TACT_STEP, "one step (pauses)", "n step"},
    {{'<', ','}, "< ,", TACT_SLOWER, "slower", "< > pace"},
    {{'>', '.'}, "> .", TACT_FASTER, "faster", NULL},
    {{KEY_LEFT, 'h'}, "← h → l", TACT_BACK, "back / on through the checkpoints", "← → checkpoints"},
    {{KEY_RIGHT, 'l'}, NULL, TACT_FORWARD, NULL, NULL},
    /* hinted for a model of layers only (ui_train_keys_hint) */
    {{'y'}, "y", TACT_LAYER, "a model of layers: the next layer's heads", "y layer"},
    {{'r'}, "r", TACT_RESEED, "train again from step 0 with the next seed", "r reseed"},
    {{'+', '='}, "+ = - _", TACT_HEADS_MORE, "train again with more / fewer heads", "+ - heads"},
    {{'-', '_'}, NULL, TACT_HEADS_FEWER, NULL, NULL},
    {{KEY_HOME, 'g'}, "Home g End G", TACT_FIRST, "step 0 / the model as it is now", NULL},
    {{KEY_END, 'G'}, NULL, TACT_LIVE, NULL, NULL},
    {UI_STAGE_KEYS, UI_STAGE_KEYS_LABEL, TACT_STAGE, "the stages of the model shown (t comes back)",
     "{range} stages"},
    {{'w'}, "w", TACT_CIRCUITS, "what each head writes (its weights) / the heatmaps", NULL},
    {{'o'}, "o", TACT_SAMPLES, "a text: lines the model writes / the heatmaps", NULL},
    {{'e'}, "e", TACT_EXPORT, "write the training state as SVG (:export html too)", NULL},
    {{'t'}, "t", TACT_SCREEN, "the training screen again (after --train)", NULL},
    {{'\t', KEY_BTAB},
     "Tab S-Tab",
     TACT_FOCUS,
     "--compare: focus the next pane (or click one)",
     NULL},
    {{'c', 's', '[', ']'},
     "c s [ ]",
     TACT_SWALLOW,
     "nothing here: 0 … {last_stage} show the stages first",
     NULL},
    {{'v', KEY_ENTER, '\n', '\r', 'j', 'k'},
     "v Enter j k",
     TACT_SWALLOW,
     "nothing here either",
     NULL},
    {{KEY_UP, KEY_DOWN, KEY_NPAGE, KEY_PPAGE},
     "↑ ↓ PgDn PgUp",
     TACT_SWALLOW,
     "nothing here (in a lesson: its text)",
     NULL},
};
const struct ui_keymap ui_keymap_train =
    UI_KEYMAP("On the training screen (--train, --compare)", table);

char *ui_train_keys_hint(const struct trun *t, char *buf, size_t n)
{
    const bool layers = train_layers(&t->panes[t->focus].run->model->cfg) > 1;
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < ui_keymap_train.n && used < n; i++) {
        const struct ui_keymap_row *r = &ui_keymap_train.rows[i];
        if (r->hint && (layers || r->action != TACT_LAYER))
            used += (size_t)snprintf(buf + used, n - used, "%s%s", used ? " · " : "", r->hint);
    }
    return buf;
}

/* ---- the hint in a lesson: from this table and the main screen's ---------------------- */

/* The first key of each row bound to one of acts, less Space (a lesson
 * reads on with it), appended to buf as "keys words". */
static void lesson_part(const int *acts, int n_acts, const char *words, char *buf, size_t n,
                        size_t *used)
{
    char keys[48] = "";
    for (int a = 0; a < n_acts; a++)
        for (int i = 0; i < ui_keymap_train.n; i++) {
            const struct ui_keymap_row *r = &ui_keymap_train.rows[i];
            if (r->action != acts[a])
                continue;
            for (int k = 0; k < UI_KEY_MAX_KEYS && r->keys[k]; k++) {
                if (r->keys[k] == ' ')
                    continue;
                char name[16];
                ui_key_name(r->keys[k], name, sizeof name);
                if (strlen(keys) + strlen(name) + 2 < sizeof keys)
                    strcat(strcat(keys, keys[0] ? " " : ""), name);
                break;
            }
        }
    if (keys[0] && *used < n)
        *used +=
            (size_t)snprintf(buf + *used, n - *used, "%s%s %s", *used ? " · " : "", keys, words);
}

/* The main screen's first key for act in a lesson, appended the same way. */
static void main_part(bool focus, enum ui_action act, const char *words, char *buf, size_t n,
                      size_t *used)
{
    char keys[48];
    ui_key_names_for(act, focus, true, NULL, NULL, keys, sizeof keys);
    keys[strcspn(keys, " ")] = '\0';
    if (keys[0] && *used < n)
        *used +=
            (size_t)snprintf(buf + *used, n - *used, "%s%s %s", *used ? " · " : "", keys, words);
}

const char *ui_train_lesson_hint(const struct trun *t, bool focus, char *buf, size_t n)
{
    static const int scrub[] = {TACT_BACK, TACT_FORWARD}, first[] = {TACT_FIRST},
                     live[] = {TACT_LIVE}, reseed[] = {TACT_RESEED}, pause[] = {TACT_PAUSE},
                     step[] = {TACT_STEP}, pace[] = {TACT_SLOWER, TACT_FASTER},
                     layer[] = {TACT_LAYER};
    size_t used = 0;
    buf[0] = '\0';
    if (t->scrub >= 0) {
        lesson_part(scrub, 2, "checkpoints", buf, n, &used);
        lesson_part(first, 1, "step 0", buf, n, &used);
        lesson_part(live, 1, "now", buf, n, &used);
    } else if (trun_done(t)) {
        lesson_part(scrub, 2, "checkpoints", buf, n, &used);
        lesson_part(reseed, 1, "train again", buf, n, &used);
    } else {
        lesson_part(pause, 1, t->paused ? "trains on" : "pause", buf, n, &used);
        lesson_part(step, 1, "step", buf, n, &used);
        if (!t->paused)
            lesson_part(pace, 2, "pace", buf, n, &used);
        lesson_part(scrub, 2, "checkpoints", buf, n, &used);
    }
    /* running, the pace takes the room the layer key would (80 columns) */
    if (train_layers(&t->panes[t->focus].run->model->cfg) > 1 &&
        (t->paused || t->scrub >= 0 || trun_done(t)))
        lesson_part(layer, 1, "layer", buf, n, &used);
    main_part(focus, UI_ACT_LESSON_NEXT, "read on", buf, n, &used);
    if (t->scrub < 0 && trun_done(t))
        main_part(focus, UI_ACT_LESSON_PREV, "back", buf, n, &used);
    main_part(focus, UI_ACT_HELP, "help", buf, n, &used);
    return buf;
}

/* ---- keys ---------------------------------------------------------------------------- */

static void restart(const struct ui_train_keys *k, uint32_t seed, int heads)
{
    struct trun *t = k->t;
    struct mha_error err;
    mha_error_clear(&err);
    /* other heads make new models, on their last layer: back to the layer shown */
    const int layer = t->panes[t->focus].run->model->shown_layer;
    if (trun_restart(t, seed, heads, &err) != 0) {
        ui_state_say(k->st, true, "Not restarted: %s", err.text);
        return;
    }
    if (t->panes[t->focus].run->model->shown_layer != layer &&
        trun_show_layer(t, t->focus, layer, &err) != 0) {
        ui_state_say(k->st, true, "Restarted, on another layer: %s", err.text);
        ui_train_sync(k->st, t);
        return;
    }
    ui_train_sync(k->st, t);
    if (heads > 0)
        ui_state_say(k->st, false, "Training again with %d head%s, seed %u.", heads,
                     heads == 1 ? "" : "s", (unsigned)seed);
    else
        ui_state_say(k->st, false, "Training again from step 0 with seed %u.", (unsigned)seed);
}

static void change_heads(const struct ui_train_keys *k, int dir)
{
    struct trun *t = k->t;
    if (t->n_panes > 1) {
        ui_state_say(k->st, true,
                     "The panes keep their heads (--compare chose them); r trains them all again.");
        return;
    }
    const int d = t->d_model, now = t->heads[0];
    int h = now;
    do
        h += dir;
    while (h >= 1 && h <= d && d % h != 0);
    if (h < 1 || h > d) {
        ui_state_say(k->st, true, "%s: %d head%s with d_model %d.",
                     dir > 0 ? "No more heads" : "No fewer heads", now, now == 1 ? "" : "s", d);
        return;
    }
    restart(k, t->opt.seed, h);
}

/* The keys that pause and train on here: Space reads on in a lesson. */
static const char *pause_keys(bool lesson)
{
    return lesson ? "p" : "Space";
}

void ui_train_scrub_say(struct ui_state *st, const struct trun *t, bool lesson)
{
    if (t->scrub < 0) {
        ui_state_say(st, false, "The model as it is now, step %ld.", trun_shown_step(t));
        return;
    }
    ui_state_say(st, false,
                 "Checkpoint at step %ld (one every %ld steps) · ← → move · End: now · %s "
                 "trains on.",
                 t->scrub, t->panes[0].ring.every, pause_keys(lesson));
}

void ui_train_focus_pane(struct ui_state *st, struct trun *t, int pane)
{
    if (t->n_panes < 2) {
        ui_state_say(st, false,
                     "One model trains here; --compare 1,2 trains several side by side.");
        return;
    }
    t->focus = pane < 0 ? 0 : pane >= t->n_panes ? t->n_panes - 1 : pane;
    ui_train_sync(st, t);
    char title[32];
    trun_pane_title(&t->panes[t->focus], title, sizeof title);
    ui_state_say(st, false,
                 "The %s pane: the stage keys and the heads view show its model (Tab: the next "
                 "pane).",
                 title);
}

void ui_train_leave_screen(struct ui_state *st, struct trun *t)
{
    ui_train_sync(st, t);
    t->shown = false;
}

static void to_stage(const struct ui_train_keys *k, int stage)
{
    struct trun *t = k->t;
    ui_train_leave_screen(k->st, t);
    ui_state_set_stage(k->st, stage);
    char title[40] = "";
    if (t->compare) {
        title[0] = ' ';
        trun_pane_title(&t->panes[t->focus], title + 1, sizeof title - 1);
    }
    ui_state_say(k->st, false,
                 "The %s%s model at step %ld%s: its stages, with Enter to explain a number. t "
                 "goes back to the training.",
                 t->task->name, title, trun_shown_step(t),
                 t->scrub >= 0               ? " (a checkpoint)"
                 : trun_done(t) || t->paused ? ""
                                             : ", still training");
}

/* o: the lines the model writes shown in the heatmaps' place, or the
 * heatmaps again; a task of letters says the lines are a text's. */
static void samples_key(const struct ui_train_keys *k)
{
    struct trun *t = k->t;
    struct mha_error err;
    mha_error_clear(&err);
    if (trun_samples_show(t, !t->samples, k->st->temperature, &err) != 0) {
        ui_state_say(k->st, true, "o: %s; a text's model does (--train sentences).", err.text);
        return;
    }
    if (!t->samples) {
        ui_state_say(k->st, false,
                     "The heads' attention on the sample. o: lines the model "
                     "writes.");
        return;
    }
    t->circuits = false;
    const struct train_model *m = t->panes[t->focus].run->model;
    ui_state_say(k->st, false,
                 "Written from \"%s\" at temperature %g, anew at each evaluation. o: the "
                 "heatmaps.",
                 m->vocab_names[train_model_first_word(m)], (double)t->temperature);
}

bool ui_train_key(const struct ui_train_keys *k, int key, bool is_char)
{
    struct trun *t = k->t;
    struct ui_state *st = k->st;
    if (!t)
        return false;
    const struct ui_keymap_row *b = ui_keymap_find(&ui_keymap_train, ui_mode_keycode(key, is_char));
    if (!t->shown) { /* the explorer's stages: only t comes back, from the numbers too */
        if (b && b->action == TACT_SCREEN) {
            t->shown = true;
            st->focus = st->explain_open = false;
            st->msg[0] = '\0';
            ui_train_sync(st, t); /* the status line describes the model training again */
            return true;
        }
        return false;
    }
    if (!b)
        return false;
    /* Tab chooses a pane only when there are several */
    const int act = b->action == TACT_FOCUS && t->n_panes < 2 ? TACT_SWALLOW : b->action;
    /* in a lesson Space reads on and the page keys scroll its text */
    if (k->lesson && ((is_char && key == ' ') || act == TACT_SWALLOW))
        return false;
    st->msg[0] = '\0';
    /* predict, then see: a paused run would give the checkpoint's answer away */
    if (k->asking && t->paused && !trun_done(t) && (act == TACT_PAUSE || act == TACT_STEP)) {
        ui_state_say(st, false,
                     "Predict first: %s, then %s trains (the run would show the answer).",
                     k->quiz_here ? "answer the checkpoint"
                                  : "read on to the next step's checkpoint and answer it",
                     pause_keys(k->lesson));
        return true;
    }
    char range[16];
    switch (act) {
    case TACT_PAUSE:
        if (trun_done(t)) {
            ui_state_say(st, false, "Training has stopped; r trains again with a new seed.");
        } else {
            t->paused = !t->paused || t->scrub >= 0;
            trun_scrub_live(t);
            if (t->paused)
                ui_state_say(st, false, "Paused: n steps once, %s trains on.",
                             pause_keys(k->lesson));
            else
                ui_state_say(st, false, "Training on.");
        }
        break;
    case TACT_STEP:
        if (trun_done(t))
            ui_state_say(st, false, "Training has stopped; r trains again with a new seed.");
        else
            trun_step_once(t);
        break;
    case TACT_SLOWER:
    case TACT_FASTER:
        t->rate += b->action == TACT_FASTER ? 1 : -1;
        t->rate = t->rate < 0 ? 0 : t->rate >= TRUN_RATE_COUNT ? TRUN_RATE_COUNT - 1 : t->rate;
        ui_state_say(st, false, "%d steps a second.", trun_rates[t->rate]);
        break;
    case TACT_RESEED:
        restart(k, t->opt.seed + 1u, 0);
        break;
    case TACT_HEADS_MORE:
    case TACT_HEADS_FEWER:
        change_heads(k, b->action == TACT_HEADS_MORE ? +1 : -1);
        break;
    case TACT_BACK:
    case TACT_FORWARD:
        trun_scrub(t, b->action == TACT_BACK ? -1 : +1);
        ui_train_scrub_say(st, t, k->lesson);
        break;
    case TACT_FIRST:
        trun_scrub_first(t);
        ui_train_scrub_say(st, t, k->lesson);
        break;
    case TACT_LIVE:
        trun_scrub_live(t);
        ui_train_scrub_say(st, t, k->lesson);
        break;
    case TACT_STAGE:
        to_stage(k, key - '0');
        break;
    case TACT_EXPORT:
        ui_train_export(t, st, k->stream, MHA_FORMAT_SVG, NULL);
        break;
    case TACT_SAMPLES:
        samples_key(k);
        break;
    case TACT_CIRCUITS:
        t->circuits = !t->circuits;
        trun_samples_show(t, false, 0.0f, NULL); /* in the heatmaps' place too */
        if (t->circuits && train_layers(&t->panes[t->focus].run->model->cfg) > 1)
            ui_state_say(st, false,
                         "What attending to a word makes each head of this layer raise, along "
                         "its direct path only (y: another layer). w: the heatmaps again.");
        else
            ui_state_say(st, false,
                         t->circuits
                             ? "What attending to a word makes each head raise. "
                               "w: the heatmaps again."
                             : "The heads' attention on the sample. w: what each head writes.");
        break;
    case TACT_SCREEN:
        ui_state_say(st, false, "This is the training screen; %s show the model's stages.",
                     mha_stage_range(range, sizeof range));
        break;
    case TACT_LAYER:
        ui_train_show_layer(st, t, k->stream, -1);
        break;
    case TACT_FOCUS:
        ui_train_focus_pane(st, t,
                            (t->focus + (key == KEY_BTAB ? t->n_panes - 1 : 1)) % t->n_panes);
        break;
    case TACT_SWALLOW:
        ui_state_say(st, false, "Not on the training screen: %s show the model's stages.",
                     mha_stage_range(range, sizeof range));
        break;
    }
    return true;
}

/* A click on a pane of --compare focuses it. */
bool ui_train_mouse(const struct ui_train_keys *k, const MEVENT *ev)
{
    const struct trun *t = k->t;
    if (!t || !t->shown || !(ev->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED)))
        return false;
    const struct ui_train_view v = {t, k->th, k->st->present};
    const int pane = ui_train_view_pane_at(&v, k->lay, ev->y, ev->x);
    if (pane < 0)
        return false;
    ui_train_focus_pane(k->st, k->t, pane);
    return true;
}
