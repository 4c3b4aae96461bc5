/* ui_commands.c - what concerns the explorer as a whole rather than its
 * numbers: :link, :export and e, :theme and T, :present, :autoplay and a.
 * The table that dispatches them is in ui_cmd.c. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/colorscale.h"
#include "io/paths.h"
#include "io/safe_file.h"
#include "lesson/lesson.h"
#include "ui/modes/ui_app.h"
#include "ui/train/ui_train.h"
#include "ui/commands/ui_cmd.h"
#include "ui/commands/ui_find.h"
#include "ui/follow/ui_stream.h"
#include "ui/views/ui_export.h"
#include "ui/state/ui_examples.h"
#include "ui/state/ui_link.h"
#include "ui/commands/ui_popup.h"

/* The cell under the cursor into cell; false when there is none. */
static bool cursor_cell(const struct ui_app *app, struct mha_cell *cell)
{
    const struct ui_state *st = &app->st;
    if (!st->focus || st->block < 0 || st->block >= app->n_blocks ||
        !ui_block_selectable(&app->blocks[st->block]))
        return false;
    *cell = ui_block_cell(&app->blocks[st->block], st->cur_r, st->cur_c);
    return true;
}

/* The link and its note for the screen as it is; false when out of memory. */
static bool make_link(struct ui_app *app, char **command, char *note, size_t n)
{
    /* the stages of a model the training made (no file, no seed draws it):
     * only the training makes it again, and --train opens on its screen */
    const bool trained =
        app->training.train && !app->st.generated && !app->st.load_path[0] && !app->les.l;
    if (ui_train_on_screen(app) || trained) {
        note[0] = '\0';
        if (!ui_train_on_screen(app))
            snprintf(note, n,
                     "it trains the model again on the training screen, where a stage's key "
                     "(or v) shows what this screen shows");
        *command = ui_train_link_command(app);
        if (!*command)
            ui_state_say(&app->st, true, "out of memory");
        return *command != NULL;
    }
    struct mha_cell cell;
    const bool cursor = cursor_cell(app, &cell);
    struct ui_link *link = malloc(sizeof *link);
    *command = NULL;
    if (link) {
        ui_link_fill(&app->st, &app->les, cursor ? &cell : NULL, app->th.name, app->st.present,
                     link);
        *command = link_command(&link->ls);
        snprintf(note, n, "%s", link->note);
    }
    free(link);
    if (!*command)
        ui_state_say(&app->st, true, "out of memory");
    return *command != NULL;
}

void ui_app_link(struct ui_app *app)
{
    char *command, note[256], text[600];
    if (!make_link(app, &command, note, sizeof note))
        return;
    /* the stream's :link shows the line; the clipboard is the student's */
    const bool copied = !ui_stream_streamed(&app->stream) && ui_clip_osc52(command);
    snprintf(text, sizeof text, "%s%s%s%s", note[0] ? "It cannot say everything: " : "", note,
             note[0] ? ". " : "",
             copied ? "Copied to the clipboard where the terminal allows it (OSC 52). "
                      ":link FILE writes it to a file."
                    : ":link FILE writes it to a file.");
    ui_popup_open(&app->popup, "The command line that reopens this screen", command, text);
    if (ui_stream_streamed(&app->stream))
        ui_state_say(&app->st, false, "%s",
                     ui_stream_following(&app->stream)
                         ? "The teacher's :link (not copied to your clipboard)."
                         : "The recording's :link (not copied to your clipboard).");
    else
        ui_state_say(&app->st, false, "%s",
                     copied ? "The link is on the clipboard if the terminal "
                              "lets programs put it there."
                            : "");
}

/* ":link FILE": the command line into a new file, never over one. */
static int link_to_file(struct ui_app *app, const char *arg)
{
    struct ui_state *st = &app->st;
    char path[PATH_MAX], *command, note[256];
    if (ui_path_expand(arg, path, sizeof path) != 0) {
        ui_state_say(st, true, "Nothing written: %s is not a file name I can use.", arg);
        return -1;
    }
    if (!make_link(app, &command, note, sizeof note))
        return -1;
    /* written whole beside its name, then linked there: never over a file */
    char folder[PATH_MAX];
    safe_file_folder(path, folder, sizeof folder);
    struct mha_error err;
    mha_error_clear(&err);
    struct safe_file sf;
    FILE *f = NULL;
    int placed = -1;
    if (safe_file_check_target(path, &err) == 0 && safe_file_create_in(&sf, folder, &err) == 0) {
        if ((f = safe_file_stream(&sf, &err)) && fputs(command, f) >= 0 && fputc('\n', f) != EOF &&
            safe_file_finish(&sf, &err) == 0)
            placed = safe_file_place(&sf, path, false, &err);
        else if (!err.text[0])
            mha_error_set(&err, "%s", strerror(errno));
        safe_file_discard(&sf);
    }
    free(command);
    if (placed != 0) {
        if (placed == 1)
            ui_state_say(st, true,
                         "Nothing written: %s exists (:link writes a new file, never "
                         "over one).",
                         path);
        else
            ui_state_say(st, true, "Nothing written: %s: %s.", path, err.text);
        return -1;
    }
    ui_state_say(st, false, "Wrote the command line to %s%s%s.", path,
                 note[0] ? "; it cannot say everything: " : "", note);
    return 0;
}

int ui_cmd_link(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)st;
    if (*arg && ui_stream_refuses(&app->stream, st, "wrote its :link to a file"))
        return 0;
    if (*arg)
        return link_to_file(app, arg);
    ui_app_link(app);
    return 0;
}

void ui_app_export(struct ui_app *app, int fmt, const char *path)
{
    struct ui_state *st = &app->st;
    if (ui_train_on_screen(app)) { /* which refuses a key of the stream itself */
        ui_train_export(app->training.train, st, &app->stream, fmt, path);
        return;
    }
    if (ui_stream_refuses(&app->stream, st, "exported the stage"))
        return;
    char written[PATH_MAX + 64];
    struct mha_error err;
    mha_error_clear(&err);
    if (ui_export_write(st, fmt, ".", path, written, sizeof written, &err) != 0) {
        ui_state_say(st, true, "Nothing written: %s.", err.text);
        return;
    }
    if (st->view != MHA_VIEW_NONE)
        ui_state_say(st, false, "Wrote %s (the %s view's table as text).", written,
                     ui_view_mode_name(st->view));
    else
        ui_state_say(st, false, "Wrote %s", written);
}

void ui_app_set_theme(struct ui_app *app, enum colorscale_theme theme)
{
    static const char *const what[COLORSCALE_THEME_COUNT] = {
        "for dark terminals", "for light terminals: dark text, light fills",
        "for a projector: black on white, bold, deep colours", "no colour: shade glyphs"};
    struct ui_theme *th = &app->th;
    ui_theme_switch(th, theme);
    clearok(curscr, TRUE);
    const char *name = colorscale_theme_name(th->name);
    if (th->no_color)
        ui_state_say(&app->st, false,
                     "Theme %s. NO_COLOR is set, so the screen stays without colour.", name);
    else if (th->terminal == UI_DEPTH_MONO)
        ui_state_say(&app->st, false, "Theme %s. This terminal shows no colours.", name);
    else
        ui_state_say(&app->st, false, "Theme %s: %s. T switches on.", name, what[th->name]);
}

void ui_app_toggle_autoplay(struct ui_app *app)
{
    struct ui_autoplay *a = &app->autoplay;
    if (a->on) {
        ui_autoplay_stop(a, false);
        ui_state_say(&app->st, false, "Autoplay off.");
        return;
    }
    ui_autoplay_start(a, ui_play_clock());
    ui_state_say(&app->st, false,
                 app->les.l ? "Autoplay: the next step every %gs (a checkpoint shows its answer "
                              "first). Any key pauses, a plays on."
                            : "Autoplay: the next stage every %gs, round and round. Any key "
                              "pauses, a plays on.",
                 a->interval);
}

/* ":export FMT [FILE]" */
static int export_command(struct ui_app *app, const char *arg)
{
    char fmt_name[32] = "svg";
    size_t n = 0;
    while (arg[n] && !isspace((unsigned char)arg[n]) && n < sizeof fmt_name - 1)
        n++;
    if (n > 0)
        snprintf(fmt_name, sizeof fmt_name, "%.*s", (int)n, arg);
    const char *file = arg + n;
    while (isspace((unsigned char)*file))
        file++;
    const int fmt = mha_format_from_name(fmt_name);
    if (fmt < 0) {
        char list[96];
        ui_state_say(&app->st, true,
                     ":export %s: the formats are %s, as in :export html or :export csv "
                     "notes.csv.",
                     fmt_name, mha_format_list(MHA_FORMAT_ANY, " and ", list, sizeof list));
        return -1;
    }
    ui_app_export(app, fmt, *file ? file : NULL);
    return app->st.msg_error ? -1 : 0;
}

/* ":autoplay [SECONDS|on|off]" */
static int autoplay_command(struct ui_app *app, const char *arg)
{
    struct ui_autoplay *a = &app->autoplay;
    if (!strcmp(arg, "off")) {
        ui_autoplay_stop(a, false);
        ui_state_say(&app->st, false, "Autoplay off.");
        return 0;
    }
    if (*arg && strcmp(arg, "on") != 0) {
        char *end;
        errno = 0;
        const double s = strtod(arg, &end);
        if (end == arg || *end || errno || !isfinite(s) || s < 0.1 || s > 3600.0) {
            ui_state_say(&app->st, true, ":autoplay takes seconds from 0.1 to 3600, or off.");
            return -1;
        }
        a->interval = s;
    }
    ui_autoplay_stop(a, false);
    ui_app_toggle_autoplay(app);
    return 0;
}

int ui_cmd_export(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)st;
    return export_command(app, arg);
}

int ui_cmd_autoplay(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)st;
    return autoplay_command(app, arg);
}

int ui_cmd_theme(struct ui_state *st, struct ui_app *app, const char *arg)
{
    const int t = colorscale_theme_from_name(arg);
    if (t < 0) {
        char names[96];
        ui_state_say(st, true, ":theme %s: the themes are %s.", arg,
                     colorscale_theme_names(names, sizeof names, " and "));
        return -1;
    }
    ui_app_set_theme(app, (enum colorscale_theme)t);
    return 0;
}

int ui_cmd_present(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)app;
    const int want = lesson_switch_from_name(arg);
    const bool on = want < 0 ? !st->present : want;
    st->present = on;
    ui_state_say(st, false, on ? "Presenter mode: P goes back." : "Presenter mode off.");
    return 0;
}

int ui_app_command(struct ui_app *app, const char *line)
{
    return ui_cmd_run(&app->st, app, line);
}

/* The bundled examples' folder: the lesson's, or off screen (no app) the
 * installed one. */
static const char *assets_of(const struct ui_app *app)
{
    return app ? app->les.assets_dir : mha_data_path("assets");
}

int ui_cmd_load(struct ui_state *st, struct ui_app *app, const char *arg)
{
    return ui_load_example(st, assets_of(app), app ? &app->stream : NULL, arg);
}

int ui_cmd_examples(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)arg;
    return ui_load_list(st, assets_of(app));
}

int ui_cmd_find_word(struct ui_state *st, struct ui_app *app, const char *arg)
{
    ui_find_token(st, app->blocks, app->n_blocks, app->find_word, sizeof app->find_word, arg,
                  false);
    return st->msg_error ? -1 : 0;
}

int ui_cmd_class(struct ui_state *st, struct ui_app *app, const char *arg)
{
    (void)arg;
    return ui_follow_class(st, &app->stream);
}

int ui_cmd_save(struct ui_state *st, struct ui_app *app, const char *arg)
{
    return ui_train_save(st, &app->training, &app->stream, arg, false);
}

int ui_cmd_save_over(struct ui_state *st, struct ui_app *app, const char *arg)
{
    return ui_train_save(st, &app->training, &app->stream, arg, true);
}
