/* ui_views_of.c - the small views of the app the panes are given
 * (ui_views_of.h): each names the parts a pane reads, so what a pane sees
 * is said here, and its file never opens struct ui_app. */
#include "ui/app/ui_views_of.h"

#include "ui/follow/ui_stream.h"
#include "ui/train/ui_train.h"

struct ui_front ui_app_front(const struct ui_app *app)
{
    return (struct ui_front){&app->st, &app->les, ui_train_on_screen(app)};
}

struct ui_lesson_view ui_lesson_view_of(const struct ui_app *app)
{
    return (struct ui_lesson_view){&app->les, &app->th, app->st.present, app->st.focus,
                                   ui_app_front(app)};
}

struct ui_side_view ui_side_view_of(const struct ui_app *app)
{
    return (struct ui_side_view){{&app->st, &app->th, app->blocks, app->n_blocks},
                                 ui_lesson_view_of(app)};
}

struct ui_msg_view ui_msg_view_of(const struct ui_app *app)
{
    return (struct ui_msg_view){ui_app_front(app), &app->th, ui_train_hint(app)};
}

void ui_play_status(const struct ui_app *app, char *buf, size_t n)
{
    ui_stream_play_status(&app->stream, &app->autoplay, ui_play_clock(), buf, n);
}
