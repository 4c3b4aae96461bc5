/* ui_bar.c - the three one-line bars: the pipeline bar at the top, the
 * status line at the bottom, and the message / command line above it. */
#include <math.h>
#include <stdio.h>
#include <string.h>

#include "engine/stages.h"
#include "ui/panes/ui_panes.h"
#include "ui/draw/ui_layout.h"
#include "ui/draw/ui_widget.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_quiz.h"
#include "ui/draw/ui_text.h"
#include "ui/modes/ui_keymaps.h"
#include "ui/state/ui_keymap.h"
#include "ui/views/ui_views.h"

void ui_bar_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th, int width)
{
    struct ui_bar_slot slots[MHA_STAGE_COUNT];
    const char *full[MHA_STAGE_COUNT], *brief[MHA_STAGE_COUNT];
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        full[s] = mha_stage_info((enum mha_stage)s)->title;
        brief[s] = mha_stage_info((enum mha_stage)s)->short_title;
    }
    const int bar = ui_role_attr(th, UI_ROLE_BAR);
    ui_fill(win, 0, 0, width, bar);
    int used = ui_bar_fit(width, full, brief, st->stage, slots);
    for (int s = 0; s < MHA_STAGE_COUNT; s++) {
        char text[32];
        if (slots[s].digit_only)
            snprintf(text, sizeof text, " %d ", s);
        else
            snprintf(text, sizeof text, " %d %s ", s, slots[s].full_name ? full[s] : brief[s]);
        if (slots[s].x >= width)
            break;
        const bool cur = s == st->stage && st->view == MHA_VIEW_NONE;
        const int attr = cur ? ui_role_attr(th, UI_ROLE_BAR_CURRENT) : bar;
        ui_put(win, 0, slots[s].x, text, width - slots[s].x, attr, th->utf8);
        if (s < MHA_STAGE_COUNT - 1 && slots[s].x + slots[s].w < width)
            ui_put(win, 0, slots[s].x + slots[s].w, "›", 1, ui_role_attr(th, UI_ROLE_BAR_ARROW),
                   th->utf8);
    }
    /* the view beyond the stages, or the program's name, at the right */
    char name[48];
    if (st->view != MHA_VIEW_NONE)
        snprintf(name, sizeof name, " %s view ", ui_view_mode_name(st->view));
    else
        snprintf(name, sizeof name, " mha-explorer ");
    const int nw = (int)strlen(name);
    if (used + nw + 2 <= width)
        ui_put(
            win, 0, width - nw, name, nw,
            ui_role_attr(th, st->view != MHA_VIEW_NONE ? UI_ROLE_BAR_CURRENT : UI_ROLE_BAR_ARROW),
            th->utf8);
    wnoutrefresh(win);
}

/* The sizes line of a view ("batch B = 2, seq L = 10, d_model d = 512, ...")
 * as status parts, one per comma-separated piece (at most 8). */
static void status_view_parts(const char *line, char part[8][96], int *n)
{
    char buf[256];
    snprintf(buf, sizeof buf, "%s", line);
    for (char *save = NULL, *p = strtok_r(buf, ",:", &save); p && *n < 8;
         p = strtok_r(NULL, ",:", &save)) {
        while (*p == ' ')
            p++;
        if (*p)
            snprintf(part[(*n)++], 96, "%.95s", p);
    }
}

/* The status line's parts, each in full and in brief (for a narrow
 * screen: the layer and the sizes before the mask and the scaling). */
struct status_parts {
    char full[8][96], brief[8][96];
    int n;
    int whole; /* the first parts to keep whole: briefly where they do not fit in full */
};

static void status_add(struct status_parts *p, const char *full, const char *brief)
{
    if (p->n >= 8)
        return;
    snprintf(p->full[p->n], sizeof p->full[0], "%s", full);
    snprintf(p->brief[p->n], sizeof p->brief[0], "%s", brief ? brief : full);
    p->n++;
}

/* The example's parts: its sizes, the layer shown, mask, scaling, seed
 * and where it came from. */
static void status_example_parts(const struct ui_state *st, struct status_parts *p)
{
    const struct mha_example *ex = st->ex;
    char full[96], brief[96];
    if (ex->cross) {
        snprintf(full, sizeof full, "%d queries, %d keys", ex->lq, ex->lk);
        snprintf(brief, sizeof brief, "%dq %dk", ex->lq, ex->lk);
    } else {
        snprintf(full, sizeof full, "%d token%s", ex->lq, ex->lq == 1 ? "" : "s");
        snprintf(brief, sizeof brief, "%d tok", ex->lq);
    }
    status_add(p, full, brief);
    snprintf(full, sizeof full, "d_model %d", ex->d_model);
    snprintf(brief, sizeof brief, "d %d", ex->d_model);
    status_add(p, full, brief);
    snprintf(full, sizeof full, "heads %d", ex->heads);
    snprintf(brief, sizeof brief, "h %d", ex->heads);
    status_add(p, full, brief);
    if (ex->layers > 1) { /* counted from 0, as --layer and the summary count them */
        snprintf(full, sizeof full, "layer %d of 0–%d", ex->layer, ex->layers - 1);
        status_add(p, full, NULL);
    }
    p->whole = p->n; /* the sizes and the layer */
    snprintf(full, sizeof full, "d_k %d", st->tr->d_k);
    status_add(p, full, NULL);
    const char *mask =
        ex->causal ? (ex->has_mask ? "causal+file" : "causal") : (ex->has_mask ? "file" : "off");
    snprintf(full, sizeof full, "mask %s", mask);
    status_add(p, full, ex->causal || ex->has_mask ? mask : "no mask");
    if (ex->scaled) {
        snprintf(full, sizeof full, "scaling ÷√%d", st->tr->d_k);
        snprintf(brief, sizeof brief, "÷√%d", st->tr->d_k);
        status_add(p, full, brief);
    } else
        status_add(p, "scaling off", "unscaled");
    if (st->generated) {
        snprintf(full, sizeof full, "seed %u", (unsigned)ex->seed);
        status_add(p, full, NULL);
    }
    if (st->source[0]) {
        snprintf(full, sizeof full, "%.60s", st->source);
        status_add(p, full, NULL);
    }
}

/* Columns the first n parts take, " │ " between them. */
static int status_width(char part[][96], int n, bool utf8)
{
    int w = 0;
    for (int i = 0; i < n; i++)
        w += (i ? ui_text_width(" │ ", utf8) : 0) + ui_text_width(part[i], utf8);
    return w;
}

void ui_status_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th,
                    const char *play, int width)
{
    const int base = ui_role_attr(th, UI_ROLE_STATUS), key = ui_role_attr(th, UI_ROLE_STATUS_KEY);
    ui_fill(win, 0, 0, width, base);
    struct status_parts p = {.n = 0};
    const struct view_kind *view = view_kind(st->view);
    const bool sized_view =
        view && view->own_sizes && st->vd && st->vd->line[0] && !st->vd->error[0];
    if (sized_view) {
        /* the shapes and cost views have sizes of their own (a batch, a
         * sequence length, a published model): say those, not the example's */
        status_view_parts(st->vd->line, p.full, &p.n);
        memcpy(p.brief, p.full, sizeof p.brief);
    } else
        status_example_parts(st, &p);

    char help[96];
    snprintf(help, sizeof help, " ? help ");
    const int play_w = play[0] ? ui_text_width(play, th->utf8) + 2 : 0;
    const int help_w = (int)strlen(help) + play_w;
    const int room = width - help_w - 2;
    /* in full, unless the sizes and the layer would not fit whole: then
     * every part in brief */
    char(*part)[96] = status_width(p.full, p.whole, th->utf8) > room ? p.brief : p.full;
    int x = 1;
    for (int i = 0; i < p.n; i++) {
        const char *sep = i ? " │ " : "";
        const int sep_w = ui_text_width(sep, th->utf8);
        const char *text = part[i];
        /* a part that does not fit is given in brief, or left out: never cut */
        if (i && x + sep_w + ui_text_width(text, th->utf8) > width - help_w - 1)
            text = p.brief[i];
        if (i && x + sep_w + ui_text_width(text, th->utf8) > width - help_w - 1)
            break;
        x += ui_put(win, 0, x, sep, width - help_w - x, base, th->utf8);
        x += ui_put(win, 0, x, text, width - help_w - x, base, th->utf8);
    }
    if (play_w) {
        char chip[80];
        snprintf(chip, sizeof chip, " %s ", play);
        ui_put(win, 0, width - help_w, chip, play_w, ui_role_attr(th, UI_ROLE_PLAYING), th->utf8);
    }
    ui_put(win, 0, width - help_w + play_w, help, help_w - play_w, key, th->utf8);
    wnoutrefresh(win);
}

/* A lesson's hint parts: what a key does, and the actions whose keys
 * (as the main screen's table binds them, less those the mode in front
 * takes) say it. */
static const struct hint_part {
    enum ui_action acts[2];
    const char *words;
} lesson_parts[] =
    {
        {{UI_ACT_LESSON_NEXT, UI_ACT_NONE}, "read on"},
        {{UI_ACT_LESSON_PREV, UI_ACT_NONE}, "back"},
        {{UI_ACT_LESSON_LINE_DOWN, UI_ACT_LESSON_LINE_UP}, "scroll"},
        {{UI_ACT_LESSONS, UI_ACT_NONE}, "lessons"},
        {{UI_ACT_QUIT, UI_ACT_NONE}, "leave"},
        {{UI_ACT_HELP, UI_ACT_NONE}, "help"},
},
  quiz_parts[] = {
      {{UI_ACT_LESSON_NEXT, UI_ACT_NONE}, "read on"},
      {{UI_ACT_QUIT, UI_ACT_NONE}, "leave"},
      {{UI_ACT_HELP, UI_ACT_NONE}, "help"},
};

/* The parts whose keys reach them, each "key words" (the first key of
 * each action), joined by " · "
 * after lead (NULL: none) into buf. */
static const char *hint_from(const struct ui_front *front, const char *lead,
                             const struct hint_part *parts, int n, char *buf, size_t size)
{
    size_t used = (size_t)snprintf(buf, size, "%s", lead ? lead : "");
    for (int i = 0; i < n && used < size; i++) {
        char keys[64] = "", more[64];
        for (int a = 0; a < 2 && parts[i].acts[a] != UI_ACT_NONE; a++) {
            ui_key_names_for(parts[i].acts[a], front->st->focus, true, ui_front_takes, front, more,
                             sizeof more);
            more[strcspn(more, " ")] = '\0'; /* the first of them: the line is short */
            if (more[0] && strlen(keys) + strlen(more) + 2 < sizeof keys)
                strcat(strcat(keys, keys[0] ? " " : ""), more);
        }
        if (keys[0])
            used += (size_t)snprintf(buf + used, size - used, "%s%s %s", used ? " · " : "", keys,
                                     parts[i].words);
    }
    return buf;
}

/* What the message line says when nothing else is going on. */
static const char *hint(const struct ui_msg_view *v)
{
    static char buf[256];
    const struct ui_front *front = &v->front;
    const struct ui_state *st = front->st;
    const struct ui_lessons *ls = front->les;
    if (ls->menu_open)
        return "↑ ↓ choose a lesson · Enter opens it · Esc closes the list";
    if (ls->l && ui_quiz_asking(&ls->quiz)) {
        char lead[96];
        if (ui_quiz_numeric(&ls->quiz))
            snprintf(lead, sizeof lead, "Type your answer, Enter checks it");
        else
            snprintf(lead, sizeof lead, "Checkpoint: press 1-%d",
                     ls->quiz.q->n_choices < 9 ? ls->quiz.q->n_choices : 9);
        return hint_from(front, lead, quiz_parts, (int)(sizeof quiz_parts / sizeof quiz_parts[0]),
                         buf, sizeof buf);
    }
    if (ls->l && front->train_shown) /* the training's keys, as a lesson has them */
        return v->train_hint;
    if (ls->l && st->explain_open && st->focus) { /* the panel's key first */
        char lead[64], key[16];
        snprintf(lead, sizeof lead, "%s close",
                 ui_key_name(ui_keymap_explain.rows[0].keys[0], key, sizeof key));
        return hint_from(front, lead, lesson_parts,
                         (int)(sizeof lesson_parts / sizeof lesson_parts[0]), buf, sizeof buf);
    }
    if (ls->l)
        return hint_from(front, NULL, lesson_parts,
                         (int)(sizeof lesson_parts / sizeof lesson_parts[0]), buf, sizeof buf);
    if (v->train_hint)
        return v->train_hint;
    if (st->focus)
        return "↑ ↓ ← → move · Enter explains the number · Tab next matrix · Esc back";
    return "← → stages · Tab numbers · + - heads · [ ] d_model · v views · L lessons · ? help";
}

int ui_msg_lines(const struct ui_state *st, bool utf8, int width)
{
    if (!st->msg[0])
        return 1;
    struct ui_line lines[4];
    int n = ui_text_wrap(st->msg, width - 2, utf8, lines, 4);
    if (st->cmd_active) /* the prompt, with what Tab offers above it */
        return 1 + (n < 1 ? 0 : n > 3 ? 3 : n);
    return n < 1 ? 1 : n > 4 ? 4 : n;
}

void ui_msg_draw(WINDOW *win, const struct ui_msg_view *v, int width, int height)
{
    const struct ui_state *st = v->front.st;
    const struct ui_theme *th = v->th;
    werase(win);
    if (st->cmd_active) {
        const int prompt = ui_role_attr(th, UI_ROLE_PROMPT);
        const int y = height - 1;
        struct ui_line lines[3];
        const int n = st->msg[0] ? ui_text_wrap(st->msg, width - 2, th->utf8, lines, 3) : 0;
        for (int i = 0; i < n && i < 3 && i < y; i++) {
            char buf[1024];
            int w =
                ui_text_fit_n(lines[i].start, lines[i].len, width - 2, th->utf8, buf, sizeof buf);
            ui_put(win, i, 1, buf, w, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
        }
        const char lead[2] = {st->cmd_lead ? st->cmd_lead : ':', '\0'};
        ui_put(win, y, 0, lead, 1, prompt, th->utf8);
        /* show the end of a long command line, whole characters */
        const char *text = st->cmd;
        while (ui_text_width(text, th->utf8) > width - 3 && *text) {
            text++;
            while (((unsigned char)*text & 0xC0u) == 0x80u)
                text++;
        }
        int w = ui_put(win, y, 1, text, width - 2, 0, th->utf8);
        ui_put(win, y, 1 + w, " ", 1, A_REVERSE, th->utf8);
    } else if (st->msg[0]) {
        const int attr = ui_role_attr(th, st->msg_error ? UI_ROLE_ERROR : UI_ROLE_INFO);
        struct ui_line lines[4];
        const int all = ui_text_wrap(st->msg, width - 2, th->utf8, lines, 4);
        const int n = all > height ? height : all;
        for (int i = 0; i < n; i++) {
            char buf[1024];
            /* a message cut to its lines ends with "…" on the last */
            int w = i == n - 1 && n < all
                        ? ui_text_fit(lines[i].start, width - 2, th->utf8, buf, sizeof buf)
                        : ui_text_fit_n(lines[i].start, lines[i].len, width - 2, th->utf8, buf,
                                        sizeof buf);
            if (st->msg_error)
                ui_fill(win, i, 0, width, attr);
            ui_put(win, i, 1, buf, w, attr, th->utf8);
        }
    } else {
        ui_put(win, 0, 1, hint(v), width - 2, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    }
    wattrset(win, 0);
    wnoutrefresh(win);
}
