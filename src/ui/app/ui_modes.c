/* ui_modes.c - the stack of modes (ui_mode.h): every mode in the order they
 * stack, keeping the stack in line with the state, passing keys and clicks
 * down it, drawing it. */
#include "ui/app/ui_modes.h"

#include <string.h>

#include "ui/app/ui_top.h"

/* Every mode but the main screen, in the order they go on the stack when
 * several open at once. */
static const struct ui_mode *const ui_mode_registry[] = {
    &ui_mode_train, &ui_mode_present, &ui_mode_explain, &ui_mode_quiz,
    &ui_mode_menu,  &ui_mode_prompt,  &ui_mode_popup,   &ui_mode_help,
};
#define REGISTRY_N ((int)(sizeof ui_mode_registry / sizeof ui_mode_registry[0]))

static bool on_stack(const struct ui_mode_stack *s, const struct ui_mode *m)
{
    for (int i = 0; i < s->n; i++)
        if (s->modes[i] == m)
            return true;
    return false;
}

void ui_modes_sync(struct ui_app *app)
{
    struct ui_mode_stack *s = &app->modes;
    s->modes[0] = &ui_mode_main;
    int k = 1;
    for (int i = 1; i < s->n; i++)
        if (s->modes[i]->open(app))
            s->modes[k++] = s->modes[i];
    s->n = k;
    for (int i = 0; i < REGISTRY_N && s->n < UI_MODE_MAX; i++)
        if (!on_stack(s, ui_mode_registry[i]) && ui_mode_registry[i]->open(app))
            s->modes[s->n++] = ui_mode_registry[i];
}

const struct ui_mode *ui_modes_top(const struct ui_app *app)
{
    return app->modes.n > 0 ? app->modes.modes[app->modes.n - 1] : &ui_mode_main;
}

bool ui_modes_key(struct ui_app *app, int key, bool is_char)
{
    ui_modes_sync(app);
    const bool armed = app->quit_armed;
    app->quit_armed = false; /* a q that asks for a second one holds only for the next key */
    for (int i = app->modes.n - 1; i >= 0; i--) {
        const struct ui_mode *m = app->modes.modes[i];
        if (m == &ui_mode_main)
            app->quit_armed = armed; /* the main screen, while recording, decides about a
                                        second q */
        if (m->key && m->key(app, key, is_char))
            return true;
    }
    return false;
}

bool ui_modes_mouse(struct ui_app *app, const MEVENT *ev)
{
    ui_modes_sync(app);
    for (int i = app->modes.n - 1; i >= 0; i--) {
        const struct ui_mode *m = app->modes.modes[i];
        if (m->mouse && m->mouse(app, ev))
            return true;
        if (m->covers)
            return false; /* nothing below it shows, so nothing below is clicked */
    }
    return false;
}

void ui_modes_draw(const struct ui_app *app)
{
    const struct ui_mode_stack *s = &app->modes;
    int first = 0;
    for (int i = s->n - 1; i > 0; i--)
        if (s->modes[i]->covers) {
            first = i;
            break;
        }
    if (s->n == 0) {
        ui_mode_main.draw(app);
        return;
    }
    for (int i = first; i < s->n; i++)
        if (s->modes[i]->draw)
            s->modes[i]->draw(app);
}
