/* ui_commands.c - what concerns the explorer as a whole rather than its
 * numbers: :link, :export and e, :theme and T, :present, :autoplay and a.
 * Every other command goes to ui_state_command. */
#include <ctype.h>
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lesson.h"
#include "ui_app.h"
#include "ui_export.h"
#include "ui_link.h"

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

void ui_app_link(struct ui_app *app)
{
    struct mha_cell cell;
    const bool cursor = cursor_cell(app, &cell);
    struct ui_link *link = malloc(sizeof *link);
    char *text = NULL;
    if (link) {
        ui_link_fill(&app->st, &app->les, cursor ? &cell : NULL, app->th.name, app->st.present,
                     link);
        text = ui_link_text(link);
    }
    if (text)
        ui_state_say(&app->st, false, "%s", text);
    else
        ui_state_say(&app->st, true, "out of memory");
    free(text);
    free(link);
}

void ui_app_export(struct ui_app *app, int fmt, const char *path)
{
    struct ui_state *st = &app->st;
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
    const int fmt = ui_export_format_from_name(fmt_name);
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

int ui_app_command(struct ui_app *app, const char *line)
{
    struct ui_state *st = &app->st;
    char word[32];
    const char *arg = ui_command_split(line, word, sizeof word);
    if (!strcmp(word, "link")) {
        ui_app_link(app);
        return 0;
    }
    if (!strcmp(word, "export"))
        return export_command(app, arg);
    if (!strcmp(word, "autoplay"))
        return autoplay_command(app, arg);
    if (!strcmp(word, "theme")) {
        const int t = colorscale_theme_from_name(arg);
        if (t < 0) {
            ui_state_say(st, true, ":theme %s: the themes are dark, light, projector and mono.",
                         arg);
            return -1;
        }
        ui_app_set_theme(app, (enum colorscale_theme)t);
        return 0;
    }
    if (!strcmp(word, "present")) {
        const int want = lesson_switch_from_name(arg);
        const bool on = want < 0 ? !st->present : want;
        st->present = on;
        ui_state_say(st, false, on ? "Presenter mode: P goes back." : "Presenter mode off.");
        return 0;
    }
    return ui_state_command(st, line);
}
