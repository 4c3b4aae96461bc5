/* ui_popup.c - the pop-up mode (:link's command line), and OSC 52. */
#include "ui/commands/ui_popup.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "ui/modes/ui_parts.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"
#include "ui/state/ui_keymap.h"
#include "ui/state/ui_mode.h"
#include "ui/modes/ui_keymaps.h"

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

/* Mark the spaces of cmd that separate arguments (outside quotes, not
 * escaped) in brk (strlen(cmd) bytes). */
static void breaks(const char *cmd, size_t n, char *brk)
{
    char quote = 0;
    for (size_t i = 0; i < n; i++) {
        const char c = cmd[i];
        brk[i] = 0;
        if (quote) {
            if (c == quote)
                quote = 0;
            else if (quote == '"' && c == '\\' && i + 1 < n)
                brk[++i] = 0;
        } else if (c == '\\' && i + 1 < n) {
            brk[++i] = 0;
        } else if (c == '\'' || c == '"') {
            quote = c;
        } else if (c == ' ') {
            brk[i] = 1;
        }
    }
}

int ui_popup_shell_lines(const char *cmd, int width, bool utf8, struct ui_line *lines, int max)
{
    const int room = width > 4 ? width - 2 : 2; /* " \" at the end */
    const size_t n = strlen(cmd);
    char *brk = malloc(n + 1);
    if (!brk)
        return 0;
    breaks(cmd, n, brk);
    int count = 0;
    size_t p = 0;
    while (p < n) {
        /* the last argument boundary that still fits */
        size_t end = 0;
        bool found = false;
        for (size_t q = p + 1; q <= n; q++)
            if (q == n || brk[q]) {
                if (width_n(cmd + p, q - p, utf8) > room)
                    break;
                end = q;
                found = true;
            }
        if (!found) { /* one argument longer than a line: cut it between characters */
            end = p;
            while (end < n && !(end > p && brk[end])) {
                size_t next = end + 1;
                while (next < n && ((unsigned char)cmd[next] & 0xC0u) == 0x80u)
                    next++;
                if (width_n(cmd + p, next - p, utf8) > room)
                    break;
                end = next;
            }
            if (end == p)
                end = p + 1;
        }
        if (count < max)
            lines[count] = (struct ui_line){cmd + p, end - p};
        count++;
        p = end;
        while (p < n && brk[p])
            p++;
    }
    free(brk);
    return count;
}

void ui_popup_open(struct ui_popup *p, const char *title, char *command, const char *text)
{
    ui_popup_close(p);
    p->command = command;
    snprintf(p->title, sizeof p->title, "%s", title);
    snprintf(p->text, sizeof p->text, "%s", text ? text : "");
    p->scroll = 0;
}

void ui_popup_close(struct ui_popup *p)
{
    free(p->command);
    p->command = NULL;
}

size_t ui_base64(const char *text, size_t n, char *out, size_t outsz)
{
    static const char digits[] = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
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

enum popup_act { POPUP_UP, POPUP_DOWN, POPUP_CLOSE };

static const struct ui_keymap_row popup_rows[] = {
    {{KEY_UP}, "↑ ↓", POPUP_UP, "scroll it", NULL},
    {{KEY_DOWN}, NULL, POPUP_DOWN, NULL, NULL},
    {{'q', 'Q', 27, '\n', '\r', ' ', KEY_ENTER},
     "q Q Esc Enter Space",
     POPUP_CLOSE,
     "close it",
     NULL},
};
const struct ui_keymap ui_keymap_popup = UI_KEYMAP("In a pop-up (:link)", popup_rows);

bool ui_popup_key(struct ui_popup *p, int key, bool is_char)
{
    switch (ui_keymap_action(&ui_keymap_popup, ui_mode_keycode(key, is_char), -1)) {
    case POPUP_UP:
    case POPUP_DOWN:
        p->scroll += key == KEY_UP ? -1 : 1;
        if (p->scroll < 0)
            p->scroll = 0;
        break;
    case POPUP_CLOSE:
        ui_popup_close(p);
        break;
    default:
        break;
    }
    return true; /* a pop-up takes every key while it shows */
}

bool ui_popup_mouse(struct ui_popup *p, const MEVENT *ev)
{
    if (ev->bstate & (BUTTON1_PRESSED | BUTTON1_CLICKED))
        ui_popup_close(p);
    return true;
}

#define POPUP_LINES 512

/* Line k of the command goes on into the next without a space between:
 * an argument cut in two. */
static bool cut_after(const struct ui_line *l, int k, int n)
{
    return k + 1 < n && l[k].start + l[k].len == l[k + 1].start;
}

void ui_popup_draw(const struct ui_popup *p, const struct ui_theme *th, int rows, int cols)
{
    const int w = cols - 2;
    if (w < 20 || rows < 6)
        return;
    const int inner = w - 4;
    static struct ui_line cmd[POPUP_LINES];
    struct ui_line text[16];
    int nc = ui_popup_shell_lines(p->command, inner, th->utf8, cmd, POPUP_LINES);
    nc = nc > POPUP_LINES ? POPUP_LINES : nc;
    char more[sizeof p->text + 160];
    bool cut = false;
    for (int k = 0; k < nc; k++)
        cut = cut || cut_after(cmd, k, nc);
    snprintf(more, sizeof more, "%s%s",
             cut ? "An argument too long for a line is cut across lines here: take it from the "
                   "clipboard or with :link FILE. "
                 : "",
             p->text);
    int nt = more[0] ? ui_text_wrap(more, inner, th->utf8, text, 16) : 0;
    nt = nt > 16 ? 16 : nt;
    const int body = nc + (nt ? nt + 1 : 0);
    int h = body + 4;
    if (h > rows)
        h = rows;
    const int shown = h - 4;
    const int scroll = p->scroll > body - shown ? (body - shown > 0 ? body - shown : 0) : p->scroll;
    WINDOW *win = newwin(h, w, (rows - h) / 2, 1);
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
            if (k + 1 < nc && !cut_after(cmd, k, nc))
                ui_put(win, y, 2 + cw, " \\", 2, ui_role_attr(th, UI_ROLE_CODE), th->utf8);
        } else if (k > nc && k - nc - 1 < nt) {
            const struct ui_line *l = &text[k - nc - 1]; /* in more[] */
            int tw = ui_text_fit_n(l->start, l->len, inner, th->utf8, buf, sizeof buf);
            ui_put(win, y, 2, buf, tw, 0, th->utf8);
        }
    }
    ui_put(win, h - 1, 2, body > shown ? " ↑ ↓ scroll · q Esc Enter close " : " q Esc Enter close ",
           w - 4, ui_role_attr(th, UI_ROLE_SHAPE), th->utf8);
    wnoutrefresh(win);
    delwin(win);
}
