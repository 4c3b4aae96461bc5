/* ui_play.c - autoplay's moves and timer, the replay's clock, and the keys
 * of a recording in curses' terms. */
#include "ui/state/ui_play.h"

#include <curses.h>
#include <math.h>
#include <stdio.h>
#include <string.h>
#include <time.h>

double ui_play_clock(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec / 1e9;
}

void ui_autoplay_start(struct ui_autoplay *a, double now)
{
    if (!(a->interval > 0.0))
        a->interval = UI_AUTOPLAY_DEFAULT;
    a->on = true;
    a->paused = false;
    a->due = now + a->interval;
}

void ui_autoplay_stop(struct ui_autoplay *a, bool paused)
{
    a->paused = paused && a->on;
    a->on = false;
}

enum ui_move ui_autoplay_next(bool lesson, bool text_below, bool quiz_asking, bool last_step)
{
    if (!lesson)
        return UI_MOVE_STAGE;
    if (text_below)
        return UI_MOVE_SCROLL;
    if (quiz_asking)
        return UI_MOVE_REVEAL;
    return last_step ? UI_MOVE_END : UI_MOVE_STEP;
}

enum ui_move ui_autoplay_tick(struct ui_autoplay *a, struct ui_lessons *ls, struct ui_state *st,
                              bool text_below, double now)
{
    if (!a->on || now < a->due)
        return UI_MOVE_WAIT;
    a->due = now + a->interval;
    const bool lesson = ls->l != NULL;
    const enum ui_move m = ui_autoplay_next(lesson, text_below, lesson && ui_quiz_asking(&ls->quiz),
                                            lesson && ls->step + 1 >= ls->l->n_steps);
    switch (m) {
    case UI_MOVE_REVEAL:
        ui_lesson_reveal(ls, st);
        break;
    case UI_MOVE_STEP:
        ui_lesson_goto(ls, st, ls->step + 1);
        break;
    case UI_MOVE_STAGE:
        st->msg[0] = '\0';
        ui_state_set_stage(st, st->view != MHA_VIEW_NONE ? st->stage
                                                         : (st->stage + 1) % MHA_STAGE_COUNT);
        break;
    case UI_MOVE_END:
        ui_autoplay_stop(a, false);
        ui_state_say(st, false, "Autoplay stopped: that was the last step. a plays again.");
        break;
    default:
        break;
    }
    return m;
}

/* ---- replay -------------------------------------------------------------------------- */

void ui_replay_start(struct ui_replay *r, const struct recording *rec, const char *name,
                     double speed, double now)
{
    char copy[sizeof r->name];
    snprintf(copy, sizeof copy, "%s", name ? name : ""); /* name may be r->name */
    memset(r, 0, sizeof *r);
    r->rec = rec;
    memcpy(r->name, copy, sizeof r->name);
    r->speed = speed > 0.0 ? speed : 1.0;
    r->start = now;
    r->active = rec != NULL;
}

/* When the next event is due; INFINITY when nothing plays. */
static double next_due(const struct ui_replay *r)
{
    if (!r->active || r->paused || !r->rec || r->next >= r->rec->n)
        return INFINITY;
    return r->start + r->rec->events[r->next].t / r->speed;
}

bool ui_replay_due(struct ui_replay *r, double now, int *key)
{
    if (now < next_due(r))
        return false;
    *key = r->rec->events[r->next++].key;
    return true;
}

void ui_replay_toggle(struct ui_replay *r, double now)
{
    if (!r->active)
        return;
    if (r->paused)
        r->start += now - r->paused_at; /* the keys keep their spacing */
    else
        r->paused_at = now;
    r->paused = !r->paused;
}

void ui_replay_stop(struct ui_replay *r)
{
    r->active = false;
    r->paused = false;
}

double ui_replay_time(const struct ui_replay *r, double now)
{
    return ((r->paused ? r->paused_at : now) - r->start) * r->speed;
}

bool ui_replay_finished(const struct ui_replay *r)
{
    return r->rec && r->next >= r->rec->n;
}

int ui_play_wait_ms(const struct ui_autoplay *a, const struct ui_replay *r, double now, int cap)
{
    double due = next_due(r);
    if (a->on && a->due < due)
        due = a->due;
    if (!isfinite(due))
        return cap;
    const double ms = ceil((due - now) * 1000.0 - 1e-6); /* rounding must not wait 1 ms more */
    return ms <= 0.0 ? 0 : ms >= cap ? cap : (int)ms;
}

void ui_play_status_text(const struct ui_autoplay *a, const struct ui_replay *r, char *buf,
                         size_t n)
{
    char replay[64] = "", autoplay[64] = "";
    if (r->active && r->rec) {
        if (r->paused)
            snprintf(replay, sizeof replay, "replay paused");
        else
            snprintf(replay, sizeof replay, "replay %d/%d", r->next, r->rec->n);
    }
    if (a->on)
        snprintf(autoplay, sizeof autoplay, "autoplay %gs", a->interval);
    else if (a->paused)
        snprintf(autoplay, sizeof autoplay, "paused");
    snprintf(buf, n, "%s%s%s", replay, replay[0] && autoplay[0] ? " · " : "", autoplay);
}

/* ---- keys ---------------------------------------------------------------------------- */

static const struct {
    int rec, curses;
} codes[] = {
    {REC_KEY_LEFT, KEY_LEFT},
    {REC_KEY_RIGHT, KEY_RIGHT},
    {REC_KEY_UP, KEY_UP},
    {REC_KEY_DOWN, KEY_DOWN},
    {REC_KEY_PAGEUP, KEY_PPAGE},
    {REC_KEY_PAGEDOWN, KEY_NPAGE},
    {REC_KEY_HOME, KEY_HOME},
    {REC_KEY_END, KEY_END},
    {REC_KEY_DELETE, KEY_DC},
    {REC_KEY_RESIZE, KEY_RESIZE},
    {REC_KEY_BACKSPACE, KEY_BACKSPACE},
    {REC_KEY_BACKTAB, KEY_BTAB},
    {REC_KEY_ENTER, KEY_ENTER},
};

int ui_rec_from_curses(int key, bool is_char)
{
    if (!is_char) {
        if (key == KEY_F(1))
            return REC_KEY_F1;
        for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
            if (codes[i].curses == key)
                return codes[i].rec;
        return -1;
    }
    switch (key) {
    case '\r':
    case '\n':
        return REC_KEY_ENTER;
    case '\t':
        return REC_KEY_TAB;
    case 8:
    case 127:
        return REC_KEY_BACKSPACE;
    case 27:
        return REC_KEY_ESCAPE;
    default:
        return key > 0 && key <= 0x10FFFF && !(key >= 0xD800 && key <= 0xDFFF) ? key : -1;
    }
}

bool ui_rec_to_curses(int rec, int *key, bool *is_char)
{
    *is_char = true;
    switch (rec) {
    case REC_KEY_ENTER:
        *key = '\r'; /* what Enter sends with nonl() */
        return true;
    case REC_KEY_TAB:
        *key = '\t';
        return true;
    case REC_KEY_ESCAPE:
        *key = 27;
        return true;
    case REC_KEY_F1:
        *is_char = false;
        *key = KEY_F(1);
        return true;
    default:
        break;
    }
    for (size_t i = 0; i < sizeof codes / sizeof codes[0]; i++)
        if (codes[i].rec == rec) {
            *is_char = false;
            *key = codes[i].curses;
            return true;
        }
    if (rec > 0 && rec <= 0x10FFFF) {
        *key = rec;
        return true;
    }
    return false;
}
