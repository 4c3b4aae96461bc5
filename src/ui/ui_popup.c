/* ui_popup.c - the pop-up mode (:link's command line), and OSC 52. */
#include "ui_popup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui_app.h"
#include "ui_mode.h"

/* Columns of bytes [s, s + n). */
static int width_n(const char *s, size_t n, bool utf8)
{
    char buf[2048];
    if (n >= sizeof buf)
        n = sizeof buf - 1;
    memcpy(buf, s, n);
    buf[n] = '\0';
    return ui_text_width(buf, utf8);
}

int ui_popup_shell_lines(const char *cmd, int width, bool utf8, struct ui_line *lines, int max)
{
    const int room = width > 4 ? width - 2 : 2; /* " \" at the end */
    int count = 0;
    const char *p = cmd;
    while (*p) {
        /* take arguments while they fit */
        const char *end = p, *q = p;
        char quote = 0;
        for (;;) {
            if (*q == '\0' || (*q == ' ' && !quote)) {
                if (end != p && width_n(p, (size_t)(q - p), utf8) > room)
                    break; /* this argument goes on the next line */
                end = q;
                if (*q == '\0')
                    break;
            } else if (*q == '\\' && !quote && q[1]) {
                q++;
            } else if ((*q == '\'' || *q == '"') && (!quote || quote == *q)) {
                quote = quote ? 0 : *q;
            }
            q++;
        }
        if (width_n(p, (size_t)(end - p), utf8) > room) { /* one long argument: cut it */
            const char *c = p;
            while (c < end && width_n(p, (size_t)(c - p + 1), utf8) <= room) {
                c++;
                while (c < end && ((unsigned char)*c & 0xC0u) == 0x80u)
                    c++;
            }
            end = c > p ? c : p + 1;
        }
        if (count < max)
            lines[count] = (struct ui_line){p, (size_t)(end - p)};
        count++;
        p = end;
        while (*p == ' ')
            p++;
    }
    return count;
}

void ui_popup_open(struct ui_app *app, const char *title, char *command, const char *text)
{
    ui_popup_close(app);
    app->popup.command = command;
    snprintf(app->popup.title, sizeof app->popup.title, "%s", title);
    snprintf(app->popup.text, sizeof app->popup.text, "%s", text ? text : "");
    app->popup.scroll = 0;
}

void ui_popup_close(struct ui_app *app)
{
    free(app->popup.command);
    app->popup.command = NULL;
}

size_t ui_base64(const char *text, size_t n, char *out, size_t outsz)
{
    static const char digits[] =
        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
    const size_t need = (n + 2) / 3 * 4;
    if (need + 1 > outsz)
        return 0;
    const unsigned char *s = (const unsigned char *)text;
    size_t o = 0;
    for (size_t i = 0; i < n; i += 3) {
        const unsigned v = (unsigned)s[i] << 16 | (i + 1 < n ? (unsigned)s[i + 1] << 8 : 0) |
                           (i + 2 < n ? s[i + 2] : 0);
        out[o++] = digits[v >> 18 & 63];
        out[o++] = digits[v >> 12 & 63];
        out[o++] = i + 1 < n ? digits[v >> 6 & 63] : '=';
        out[o++] = i + 2 < n ? digits[v & 63] : '=';
    }
    out[o] = '\0';
    return o;
}

bool ui_clip_osc52(const char *text)
{
    const char *term = getenv("TERM");
    if (!isatty(STDOUT_FILENO) || !term || !*term || !strcmp(term, "dumb"))
        return false;
    const size_t n = strlen(text);
    const size_t size = (n + 2) / 3 * 4 + 16;
    char *buf = malloc(size);
    if (!buf)
        return false;
    memcpy(buf, "\033]52;c;", 7);
    size_t len = 7 + ui_base64(text, n, buf + 7, size - 9);
    buf[len++] = '\a';
    fflush(stdout);
    bool ok = write(STDOUT_FILENO, buf, len) == (ssize_t)len;
    free(buf);
    return ok;
}

/* ---- the mode ------------------------------------------------------------------------------- */

static bool popup_open(const struct ui_app *app)
{
    return app->popup.command != NULL;
}

static bool popup_key(struct ui_app *app, int key, bool is_char)
{
    if (!is_char && (key == KEY_UP || key == KEY_DOWN)) {
        app->popup.scroll += key == KEY_UP ? -1 : 1;
        if (app->popup.scroll < 0)
            app->popup.scroll = 0;
        return true;
    }
    if (ui_mode_is_leave_key(key, is_char) || (is_char && (key == '\n' || key == '\r' || key == ' ')) ||
        (!is_char && key == KEY_ENTER))
        ui_popup_close(app);
    return true; /* a pop-up takes every key while it shows */
}

static bool popup_mouse(struct ui_app *app, const MEVENT *ev)
{
    if (ev->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
        ui_popup_close(app);
    return true;
}

#define POPUP_LINES 64

static void popup_draw(const struct ui_app *app)
{
    const struct ui_theme *th = &app->th;
    const struct ui_popup *p = &app->popup;
    const int w = app->cols - 2;
    if (w < 20 || app->rows < 6)
        return;
    const int inner = w - 4;
    struct ui_line cmd[POPUP_LINES], text[16];
    int nc = ui_popup_shell_lines(p->command, inner, th->utf8, cmd, POPUP_LINES);
    int nt = p->text[0] ? ui_text_wrap(p->text, inner, th->utf8, text, 16) : 0;
    nc = nc > POPUP_LINES ? POPUP_LINES : nc;
    nt = nt > 16 ? 16 : nt;
    const int body = nc + (nt ? nt + 1 : 0);
    int h = body + 4;
    if (h > app->rows)
        h = app->rows;
    const int shown = h - 4;
    const int scroll = p->scroll > body - shown ? (body - shown > 0 ? body - shown : 0) : p->scroll;
    WINDOW *win = newwin(h, w, (app->rows - h) / 2, 1);
    if (!win)
        return;
    wattrset(win, ui_role_attr(th, UI_ROLE_BORDER));
    if (th->utf8)
        wborder_set(win, WACS_VLINE, WACS_VLINE, WACS_HLINE, WACS_HLINE, WACS_ULCORNER,
                    WACS_URCORNER, WACS_LLCORNER, WACS_LRCORNER);
    else
        wborder(win, '|', '|', '-', '-', '+', '+', '+', '+');
    wattrset(win, 0);
    char title[80];
    snprintf(title, sizeof title, " %s ", p->title);
    ui_put(win, 0, 2, title, w - 4, ui_role_attr(th, UI_ROLE_PANE_TITLE), th->utf8);
    for (int i = 0; i < shown; i++) {
        const int k = scroll + i, y = 2 + i;
        char buf[2048];
        if (k < nc) {
            int cw = ui_text_fit_n(cmd[k].start, cmd[k].len, inner, th->utf8, buf, sizeof buf);
            cw = ui_put(win, y, 2, buf, cw, ui_role_attr(th, UI_ROLE_CODE), th->utf8);
            if (k + 1 < nc)
                ui_put(win, y, 2 + cw, " \\", 2, ui_role_attr(th, UI_ROLE_CODE), th->utf8);
        } else if (k > nc && k - nc - 1 < nt) {
            const struct ui_line *l = &text[k - nc - 1];
            int tw = ui_text_fit_n(l->start, l->len, inner, th->utf8, buf, sizeof buf);
            ui_put(win, y, 2, buf, tw, 0, th->utf8);
        }
    }
    ui_put(win, h - 1, 2, body > shown ? " ↑ ↓ scroll · q Esc Enter close " : " q Esc Enter close ",
           w - 4, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    wnoutrefresh(win);
    delwin(win);
}

const struct ui_mode ui_mode_popup = {"pop-up", popup_open, popup_key, popup_mouse, popup_draw,
                                      false};
