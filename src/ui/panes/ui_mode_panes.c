/* ui_mode_panes.c - the small modes that are thin layers over the main
 * screen, each on the part it reads and changes (app/ui_mode_parts.c binds
 * them to the app): the presenter's layout and the explain panel (the
 * state), a checkpoint waiting for an answer (the lessons and the state),
 * and what those in front take of the main screen's keys (struct
 * ui_front). */
#include "ui/panes/ui_panes.h"

#include "ui/modes/ui_keymaps.h"
#include "ui/state/ui_keymap.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_mode.h"

/* ---- the presenter's layout: q and Esc go back to the usual one ---------------------------- */

bool ui_present_open(const struct ui_state *st)
{
    return st->present;
}

enum leave_act { LEAVE };

static const struct ui_keymap_row present_rows[] = {
    {{'q', 'Q', 27}, "q Q Esc", LEAVE, "back to the usual layout", NULL},
};
const struct ui_keymap ui_keymap_present = UI_KEYMAP("In presenter mode (P)", present_rows);

bool ui_present_key(struct ui_state *st, int key, bool is_char)
{
    if (ui_keymap_action(&ui_keymap_present, ui_mode_keycode(key, is_char), -1) != LEAVE)
        return false;
    st->present = false;
    ui_state_say(st, false, "Presenter mode off (P brings it back).");
    return true;
}

/* ---- the explain panel: q and Esc close it, the cursor stays -------------------------------- */

bool ui_explain_open(const struct ui_state *st)
{
    return st->explain_open && st->focus;
}

static const struct ui_keymap_row explain_rows[] = {
    {{'q', 'Q', 27}, "q Q Esc", LEAVE, "close it; the cursor stays on its number", NULL},
};
const struct ui_keymap ui_keymap_explain =
    UI_KEYMAP("With the explain panel open (Enter)", explain_rows);

bool ui_explain_key(struct ui_state *st, int key, bool is_char)
{
    if (ui_keymap_action(&ui_keymap_explain, ui_mode_keycode(key, is_char), -1) != LEAVE)
        return false;
    st->explain_open = false;
    st->msg[0] = '\0';
    return true;
}

/* ---- a checkpoint waiting for an answer ------------------------------------------------------ */

bool ui_checkpoint_open(const struct ui_lessons *ls)
{
    const struct ui_quiz *z = &ls->quiz;
    return ls->l && (ui_quiz_asking(z) || (z->q && z->phase == UI_QUIZ_ANSWERED && !z->revealed));
}

/* A checkpoint with choices over a lesson's training screen (train_shown)
 * leaves the training's own keys to it (p starts the run the question is
 * about). */
static bool train_passes(const struct ui_lessons *ls, bool train_shown, int key)
{
    const struct ui_quiz *z = &ls->quiz;
    return z->q && !ui_quiz_numeric(z) && train_shown && ui_keymap_find(&ui_keymap_train, key) &&
           ui_keymap_action(&ui_keymap_quiz_choice, key, -1) < 0;
}

/* The checkpoint's keys: a choice's number, or a typed answer (every
 * character typed once typing began, q included; with nothing typed q goes
 * on to the main screen, which leaves the lesson).  Once it is answered a
 * digit is still its own: a number typed after the answer never jumps to a
 * stage. */
bool ui_checkpoint_key(struct ui_lessons *ls, struct ui_state *st, bool train_shown, int key,
                       bool is_char)
{
    if (train_passes(ls, train_shown, ui_mode_keycode(key, is_char)))
        return false;
    if (!ui_quiz_asking(&ls->quiz))
        return ui_lesson_quiz_after_key(ls, st, key, is_char);
    return ui_lesson_quiz_key(ls, st, key, is_char);
}

bool ui_front_takes(int key, const void *ctx)
{
    const struct ui_front *f = ctx;
    if (ui_explain_open(f->st) && ui_keymap_find(&ui_keymap_explain, key))
        return true;
    if (ui_present_open(f->st) && ui_keymap_find(&ui_keymap_present, key))
        return true;
    return f->les->l && ui_quiz_takes(&f->les->quiz, key) &&
           !train_passes(f->les, f->train_shown, key);
}
