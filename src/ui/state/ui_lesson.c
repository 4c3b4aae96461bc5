/* ui_lesson.c - the open lesson: steps, scenes applied to the state, the
 * checkpoint marked against the example on screen, progress kept. */
#include "ui/state/ui_lesson.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "engine/stages.h"
#include "lesson/lesson_state.h"
#include "ui/state/ui_mode.h"

void ui_lessons_init(struct ui_lessons *ls, const char *lessons_dir, const char *assets_dir,
                     char *warning, int warning_size)
{
    memset(ls, 0, sizeof *ls);
    snprintf(ls->lessons_dir, sizeof ls->lessons_dir, "%s", lessons_dir ? lessons_dir : "lessons");
    snprintf(ls->assets_dir, sizeof ls->assets_dir, "%s", assets_dir ? assets_dir : "assets");
    if (warning) /* NULL: a viewer's, who keeps no progress of their own */
        ls->progress = progress_load(NULL, warning, (size_t)warning_size);
}

void ui_lessons_done(struct ui_lessons *ls)
{
    lesson_free(ls->l);
    progress_free(ls->progress);
    for (int i = 0; i < ls->n_list; i++) {
        free(ls->list[i].path);
        free(ls->list[i].quiz_steps);
    }
    free(ls->list);
    memset(ls, 0, sizeof *ls);
}

static const char *base_name(const char *path)
{
    const char *slash = strrchr(path, '/');
    return slash ? slash + 1 : path;
}

/* Write the progress file; a failure is a message, never fatal. */
static void save(struct ui_lessons *ls, struct ui_state *st)
{
    struct mha_error err;
    mha_error_clear(&err);
    if (ls->progress && progress_save(ls->progress, &err) != 0)
        ui_state_say(st, true, "Your progress could not be saved: %s", err.text);
}

struct mha_cell ui_lesson_focus_cell(const struct lesson_focus *f, int stage,
                                     const struct mha_trace *t)
{
    struct mha_cell c = {f->matrix, f->head, f->row, f->col};
    const struct mha_stage_info *info = mha_stage_info((enum mha_stage)stage);
    const int i = mha_stage_find(info, f->matrix, MHA_SHOW_SCREEN);
    const enum mha_tensor heads = mha_tensor_desc(f->matrix)->heads;
    if (i < 0 || heads == MHA_TENSOR_COUNT)
        return c;
    if (info->tensors[i] == heads) { /* shown as its per-head tensor (Q as Q_h) */
        c.tensor = heads;
    } else if (info->show[i].form == MHA_FORM_SPLIT) { /* its columns cut into heads */
        c.tensor = heads;
        if (t->d_k > 0) {
            c.head = f->col / t->d_k;
            c.col = f->col % t->d_k;
        }
    }
    return c;
}

/* Put the screen in the state the scenes of steps 0..step describe (with
 * step's ```reveal when answered). */
static int apply_scene(struct ui_lessons *ls, struct ui_state *st, int step, bool answered)
{
    struct lesson_state s;
    lesson_state_at_answered(ls->l, step, answered, &s);
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = lesson_state_example(&s, ls->assets_dir, &err);
    if (!ex) {
        char buf[UI_MSG_MAX];
        ui_state_say(st, true, "Step %d cannot be shown: %s", step + 1,
                     mha_error_format(&err, buf, sizeof buf));
        return -1;
    }
    if (ui_state_set_example(st, ex, s.load == NULL, s.load ? base_name(s.load) : ""))
        return -1;
    char file[2 * PATH_MAX];
    snprintf(file, sizeof file, "%s/%s", ls->assets_dir, s.load ? s.load : "");
    ui_state_set_load_path(st, s.load ? file : NULL);
    st->view_batch = s.batch;
    st->view_seq = s.seq;
    snprintf(st->view_preset, sizeof st->view_preset, "%s", s.preset ? s.preset : "");
    snprintf(st->view_clean, sizeof st->view_clean, "%s", s.clean ? s.clean : "");
    snprintf(st->view_corrupt, sizeof st->view_corrupt, "%s", s.corrupt ? s.corrupt : "");
    ui_state_set_stage(st, s.stage);
    st->scroll = 0;
    st->focus = st->explain_open = st->focus_pending = st->show = st->scroll_pending = false;
    if (s.view != MHA_VIEW_NONE) {
        ui_state_set_view(st, s.view);
        snprintf(st->scroll_row, sizeof st->scroll_row, "%s", s.scroll ? s.scroll : "");
        st->scroll_pending = s.scroll != NULL;
        return 0;
    }
    struct lesson_show show;
    if (s.show && lesson_show_resolve(s.show, s.stage, st->ex, &show, &err) == 0) {
        const struct lesson_focus f = {show.matrix, 0, show.row, 0};
        st->show_cell = ui_lesson_focus_cell(&f, s.stage, st->tr);
        st->show = true;
    }
    if (s.focus) {
        struct lesson_focus f;
        if (lesson_focus_resolve(s.focus, s.stage, st->ex, &f, &err) == 0) {
            st->focus_cell = ui_lesson_focus_cell(&f, s.stage, st->tr);
            st->focus_pending = true;
        } else {
            ui_state_say(st, true, "%s", err.text);
        }
    }
    return 0;
}

static struct ui_lesson_shown shown_of(const struct mha_example *ex)
{
    return (struct ui_lesson_shown){true,       ex->heads,  ex->d_model, ex->lq,
                                    ex->causal, ex->scaled, ex->seed};
}

/* "heads 2 (you had 3)" for every setting the reader changed since the
 * scene set it up (before) and that the new scene sets differently from
 * theirs (now), into note; false when there is none. */
static bool undone_note(const struct ui_lesson_shown *scene, const struct ui_lesson_shown *mine,
                        const struct ui_lesson_shown *now, char *note, size_t n)
{
    size_t used = 0;
    note[0] = '\0';
#define UNDONE(field, fmt, name, show)                                                             \
    if (scene->field != mine->field && now->field != mine->field && used < n)                      \
        used += (size_t)snprintf(note + used, n - used, "%s" name " " fmt " (you had " fmt ")",    \
                                 used ? ", " : "", show(now->field), show(mine->field));
#define PLAIN(x) (x)
#define ONOFF(x) ((x) ? "on" : "off")
    UNDONE(heads, "%d", "heads", PLAIN)
    UNDONE(d_model, "%d", "d_model", PLAIN)
    UNDONE(lq, "%d", "tokens", PLAIN)
    UNDONE(causal, "%s", "causal mask", ONOFF)
    UNDONE(scaled, "%s", "scaling", ONOFF)
    UNDONE(seed, "%u", "seed", (unsigned)PLAIN)
#undef UNDONE
#undef PLAIN
#undef ONOFF
    return used > 0;
}

int ui_lesson_goto(struct ui_lessons *ls, struct ui_state *st, int step)
{
    if (!ls->l || step < 0 || step >= ls->l->n_steps)
        return -1;
    st->msg[0] = '\0';
    st->hide.active = false;
    const struct ui_lesson_shown scene = ls->shown, mine = shown_of(st->ex);
    if (apply_scene(ls, st, step, false))
        return -1;
    ls->shown = shown_of(st->ex);
    /* a step that trains shows its model, not the explorer's example: what
     * the scene did to the example is not on screen, so not worth a word */
    struct lesson_state at;
    lesson_state_at(ls->l, step, &at);
    const bool trains = at.train != NULL;
    char note[400];
    if (scene.valid && !trains && !st->msg[0] &&
        undone_note(&scene, &mine, &ls->shown, note, sizeof note))
        ui_state_say(st, false, "Step %d's scene set %s.", step + 1, note);
    ls->step = step;
    ls->scroll = 0;
    ls->fold = false;
    ls->scroll_to_prompt = true; /* if the step has a checkpoint, it asks */
    const struct lesson_step *s = &ls->l->steps[step];
    const int previous = ls->progress ? progress_quiz(ls->progress, ls->id, step) : -1;
    ui_quiz_start(&ls->quiz, s->has_quiz ? &s->quiz : NULL, previous);
    if (s->has_quiz) {
        struct mha_error err;
        mha_error_clear(&err);
        if (lesson_quiz_hide(&s->quiz, st->ex, &st->hide, &err))
            st->hide.active = false; /* --check-lessons reports it; show the cells */
    }
    if (ls->progress) {
        progress_mark_seen(ls->progress, ls->id, step);
        progress_set_last_step(ls->progress, ls->id, step);
        save(ls, st);
    }
    return 0;
}

int ui_lesson_open(struct ui_lessons *ls, struct ui_state *st, const char *path, int step)
{
    struct lesson *l = lesson_load(path);
    if (!l) {
        ui_state_say(st, true, "out of memory while reading %s", path);
        return -1;
    }
    if (l->n_diags == 0)
        lesson_check(l, ls->assets_dir);
    if (l->n_diags > 0 || l->n_steps == 0) {
        if (l->n_diags > 0)
            ui_state_say(st, true,
                         "%s:%d: %s (%d problem%s; mha-explorer --check-lessons %s "
                         "lists them)",
                         path, l->diags[0].line, l->diags[0].text, l->n_diags,
                         l->n_diags == 1 ? "" : "s", path);
        else
            ui_state_say(st, true, "%s has no steps.", path);
        lesson_free(l);
        return -1;
    }
    lesson_free(ls->l);
    ls->l = l;
    ls->shown.valid = false; /* nothing of the reader's to undo yet */
    snprintf(ls->id, sizeof ls->id, "%s", base_name(path));
    char *abs = realpath(path, NULL);
    snprintf(ls->path, sizeof ls->path, "%s", abs ? abs : path);
    free(abs);
    if (step < 0)
        step = ls->progress ? progress_last_step(ls->progress, ls->id) : 0;
    if (step >= l->n_steps)
        step = l->n_steps - 1;
    if (step < 0)
        step = 0;
    if (ui_lesson_goto(ls, st, step)) {
        char why[UI_MSG_MAX];
        snprintf(why, sizeof why, "%s", st->msg);
        lesson_free(ls->l);
        ls->l = NULL;
        ui_state_say(st, true, "%s", why);
        return -1;
    }
    return 0;
}

int ui_lesson_next(struct ui_lessons *ls, struct ui_state *st)
{
    if (!ls->l)
        return 0;
    struct ui_quiz *z = &ls->quiz;
    if (ui_quiz_asking(z) && z->previous < 0 && !z->nagged) {
        z->nagged = true;
        if (ui_quiz_numeric(z))
            ui_state_say(st, false,
                         "Predict first: type your answer to the checkpoint and press "
                         "Enter (or Space again to skip it).");
        else
            ui_state_say(st, false,
                         "Predict first: press 1-%d to answer the checkpoint (or "
                         "Space again to skip it).",
                         z->q->n_choices < 9 ? z->q->n_choices : 9);
        return 0;
    }
    if (ls->step + 1 >= ls->l->n_steps) {
        ui_state_say(st, false,
                     "That was the last step of \"%s\". L picks another lesson; Esc "
                     "leaves this one.",
                     ls->l->title ? ls->l->title : ls->id);
        return 0;
    }
    return ui_lesson_goto(ls, st, ls->step + 1) == 0;
}

int ui_lesson_prev(struct ui_lessons *ls, struct ui_state *st)
{
    if (!ls->l)
        return 0;
    if (ls->step == 0) {
        ui_state_say(st, false, "This is the first step.");
        return 0;
    }
    return ui_lesson_goto(ls, st, ls->step - 1) == 0;
}

void ui_lesson_close(struct ui_lessons *ls, struct ui_state *st)
{
    if (!ls->l)
        return;
    ui_state_say(st, false, "Left the lesson \"%s\" at step %d; L opens it there again, q quits.",
                 ls->l->title ? ls->l->title : ls->id, ls->step + 1);
    lesson_free(ls->l);
    ls->l = NULL;
    ls->id[0] = '\0';
    ls->shown.valid = false;
    ui_quiz_start(&ls->quiz, NULL, -1);
    st->hide.active = false;
    st->show = false;
}

/* The checkpoint was answered (or shown): its cells show again, and the
 * step's ```reveal, if it has one, is applied.  The message stays. */
static void answered(struct ui_lessons *ls, struct ui_state *st)
{
    st->hide.active = false;
    if (!ls->l->steps[ls->step].has_reveal)
        return;
    char msg[UI_MSG_MAX];
    const bool error = st->msg_error;
    snprintf(msg, sizeof msg, "%s", st->msg);
    if (apply_scene(ls, st, ls->step, true) != 0)
        return;
    ls->shown = shown_of(st->ex);
    if (msg[0])
        ui_state_say(st, error, "%s", msg);
}

/* The answer the checkpoint expects: from the example on screen, or, when
 * the reader changed it so that it has no answer, from the step's own. */
static int expected_answer(struct ui_lessons *ls, const struct ui_state *st,
                           struct lesson_answer *out)
{
    struct mha_error err;
    mha_error_clear(&err);
    if (lesson_quiz_expected(ls->quiz.q, st->ex, st->tr, out, &err) == 0)
        return 0;
    struct lesson_state s;
    lesson_state_at(ls->l, ls->step, &s);
    struct mha_example *ex = lesson_state_example(&s, ls->assets_dir, &err);
    struct mha_trace *t = ex ? mha_run(ex, &err) : NULL;
    int rc = t ? lesson_quiz_expected(ls->quiz.q, ex, t, out, &err) : -1;
    mha_trace_free(t);
    mha_example_free(ex);
    return rc;
}

bool ui_lesson_quiz_key(struct ui_lessons *ls, struct ui_state *st, int key, bool is_char)
{
    if (!ls->l || !ui_quiz_asking(&ls->quiz))
        return false;
    const enum ui_quiz_input in = ui_quiz_key(&ls->quiz, key, is_char);
    if (in == UI_QUIZ_TAKEN && !ui_quiz_numeric(&ls->quiz)) {
        const int n = ls->quiz.q->n_choices < 9 ? ls->quiz.q->n_choices : 9;
        if (ls->quiz.retry && is_char && key >= '1' && key - '1' < n)
            ui_state_say(st, false, "You tried \"%s\" already: pick another one.", ls->quiz.first);
        else
            ui_state_say(st, false,
                         "The checkpoint has %d choices: press 1-%d (or Space to go on).", n, n);
    }
    if (in != UI_QUIZ_SUBMIT)
        return in == UI_QUIZ_TAKEN;
    double number;
    if (ui_quiz_numeric(&ls->quiz) && !lesson_quiz_number(ls->quiz.given, &number)) {
        /* not a number: no try spent, what was typed stays to mend */
        ui_state_say(st, false,
                     "\"%s\" is not a number: type it in digits (2,359,296 or 2359296), then "
                     "Enter.",
                     ls->quiz.given);
        ls->quiz.given[0] = '\0';
        return true;
    }
    struct lesson_answer expected;
    if (expected_answer(ls, st, &expected)) {
        ui_state_say(st, true, "This checkpoint's answer cannot be worked out here.");
        return true;
    }
    if (!ui_quiz_mark(&ls->quiz, &expected)) {
        ui_state_say(st, false, "Not quite. One more try: %s",
                     ui_quiz_numeric(&ls->quiz) ? "type another number and press Enter."
                                                : "pick another choice.");
        return true;
    }
    answered(ls, st);
    if (ls->progress) {
        progress_set_quiz(ls->progress, ls->id, ls->step, ls->quiz.right);
        progress_set_quiz_first(ls->progress, ls->id, ls->step, ls->quiz.right && !ls->quiz.retry);
        save(ls, st);
    }
    ls->scroll = 1 << 20; /* down to the verdict (clamped when drawn) */
    if (!st->msg_error)
        ui_state_say(st, false, "%s Space goes on.",
                     ls->quiz.right ? "Right."
                                    : "Not quite: the explanation is in the lesson pane.");
    return true;
}

bool ui_lesson_quiz_after_key(struct ui_lessons *ls, struct ui_state *st, int key, bool is_char)
{
    const struct ui_quiz *z = &ls->quiz;
    const struct ui_keymap *own =
        ui_quiz_numeric(z) ? &ui_keymap_quiz_number : &ui_keymap_quiz_choice;
    if (!ls->l || !z->q || z->phase != UI_QUIZ_ANSWERED || z->revealed || !is_char || key < '0' ||
        key > '9' || ui_keymap_action(own, ui_mode_keycode(key, is_char), -1) < 0)
        return false;
    ui_state_say(st, false,
                 "The checkpoint is answered (%s): Space goes on, %s move through the stages.",
                 z->answer, st->focus ? "Esc, then ← →," : "← →");
    return true;
}

bool ui_lesson_reveal(struct ui_lessons *ls, struct ui_state *st)
{
    if (!ls->l || !ui_quiz_asking(&ls->quiz))
        return false;
    struct lesson_answer expected;
    if (expected_answer(ls, st, &expected)) {
        ui_state_say(st, true, "This checkpoint's answer cannot be worked out here.");
        return false;
    }
    ui_quiz_reveal(&ls->quiz, &expected);
    answered(ls, st);
    ls->scroll = 1 << 20; /* down to the answer (clamped when drawn) */
    return true;
}
