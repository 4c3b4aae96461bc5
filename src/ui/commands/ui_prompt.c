/* ui_prompt.c - the ':' and '/' lines as a mode: editing, the history (state/ui_history.c), Tab. */
#include "ui/commands/ui_prompt.h"

#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <wchar.h>

#include "ui/state/ui_keymap.h"
#include "ui/commands/ui_complete.h"
#include "ui/state/ui_mode.h"
#include "ui/state/ui_state.h"
#include "ui/modes/ui_keymaps.h"

/* The lines run before with the lead of the line open. */
static struct ui_history *history(const struct ui_prompt_part *p, char lead)
{
    return lead == '/' ? p->find_hist : p->hist;
}

void ui_prompt_open(const struct ui_prompt_part *p, char lead)
{
    struct ui_state *st = p->st;
    st->cmd_active = true;
    st->cmd_lead = lead;
    st->cmd_len = 0;
    st->cmd[0] = '\0';
    st->msg[0] = '\0';
    ui_history_reset(history(p, lead));
}

static void set_line(struct ui_state *st, const char *text)
{
    snprintf(st->cmd, sizeof st->cmd, "%s", text);
    st->cmd_len = strlen(st->cmd);
}

/* Tab: complete the last word; several candidates are listed above the line. */
static void complete(struct ui_state *st, const char *assets)
{
    struct ui_completion *c = malloc(sizeof *c);
    if (!c)
        return;
    ui_complete(st->cmd, assets, c);
    char grown[UI_CMD_MAX];
    st->msg[0] = '\0';
    if (ui_complete_apply(st->cmd, c, grown, (int)sizeof grown)) {
        set_line(st, grown);
    } else if (c->n == 0) {
        ui_state_say(st, false, "Nothing to complete here.");
    }
    if (c->n > 1) { /* what is left to choose from */
        size_t used = 0;
        for (int i = 0; i < c->n && used + 4 < sizeof st->msg; i++) {
            const char *item = c->items[i];
            const char *slash = strrchr(item, '/');
            if (slash && slash[1] == '\0') /* a folder: its own name */
                while (slash > item && slash[-1] != '/')
                    slash--;
            else if (slash)
                slash++;
            used += (size_t)snprintf(st->msg + used, sizeof st->msg - used, "%s%s", i ? "  " : "",
                                     slash ? slash : item);
        }
        st->msg_error = false;
    }
    free(c);
}

/* Enter: the line closed and kept in its history, its text into line. */
static void take(const struct ui_prompt_part *p, char *line)
{
    struct ui_state *st = p->st;
    memcpy(line, st->cmd, st->cmd_len + 1);
    st->cmd_active = false;
    st->msg[0] = '\0';
    ui_history_add(history(p, st->cmd_lead), line);
}

enum prompt_act {
    PROMPT_CANCEL,
    PROMPT_RUN,
    PROMPT_OLDER,
    PROMPT_NEWER,
    PROMPT_COMPLETE,
    PROMPT_ERASE,
    PROMPT_CLEAR
};

static const struct ui_keymap_row prompt_rows[] = {
    {{27}, "Esc", PROMPT_CANCEL, "cancel: the line is dropped", NULL},
    {{KEY_ENTER, '\n', '\r'}, "Enter", PROMPT_RUN, "run the command, or find the word", NULL},
    {{KEY_UP}, "↑ ↓", PROMPT_OLDER, "the lines run before (: and / apart)", NULL},
    {{KEY_DOWN}, NULL, PROMPT_NEWER, NULL, NULL},
    {{'\t'}, "Tab", PROMPT_COMPLETE, "complete a command, name or file (:)", NULL},
    {{KEY_BACKSPACE, 127, 8},
     "Backspace",
     PROMPT_ERASE,
     "one character; on an empty line: close",
     NULL},
    {{21}, "^U", PROMPT_CLEAR, "clear the line", NULL},
};
const struct ui_keymap ui_keymap_prompt = UI_KEYMAP("On the command line (: and /)", prompt_rows);

/* A character typed into the line (other keys are taken and dropped). */
static void type_char(struct ui_state *st, int key)
{
    char mb[MB_LEN_MAX];
    mbstate_t ps;
    memset(&ps, 0, sizeof ps);
    const size_t n = wcrtomb(mb, (wchar_t)key, &ps);
    if (n == (size_t)-1 || st->cmd_len + n + 1 >= sizeof st->cmd)
        return;
    memcpy(st->cmd + st->cmd_len, mb, n);
    st->cmd_len += n;
    st->cmd[st->cmd_len] = '\0';
    st->msg[0] = '\0';
}

bool ui_prompt_key(const struct ui_prompt_part *p, int key, bool is_char, char *run)
{
    struct ui_state *st = p->st;
    struct ui_history *h = history(p, st->cmd_lead);
    const int code = ui_mode_keycode(key, is_char);
    const char *line;
    switch (ui_keymap_action(&ui_keymap_prompt, code, -1)) {
    case PROMPT_CANCEL:
        st->cmd_active = false;
        st->msg[0] = '\0';
        break;
    case PROMPT_RUN:
        take(p, run);
        return true;
    case PROMPT_OLDER:
    case PROMPT_NEWER:
        line = ui_history_step(h, code == KEY_UP ? -1 : +1, st->cmd);
        if (line)
            set_line(st, line);
        break;
    case PROMPT_COMPLETE:
        if (st->cmd_lead == ':')
            complete(st, p->assets);
        break;
    case PROMPT_ERASE:
        if (st->cmd_len == 0) {
            st->cmd_active = false;
            break;
        }
        /* drop one UTF-8 character */
        do
            st->cmd_len--;
        while (st->cmd_len > 0 && ((unsigned char)st->cmd[st->cmd_len] & 0xC0u) == 0x80u);
        st->cmd[st->cmd_len] = '\0';
        break;
    case PROMPT_CLEAR:
        st->cmd_len = 0;
        st->cmd[0] = '\0';
        break;
    default:
        if (is_char && key >= 32 && key != 127)
            type_char(st, key);
        break;
    }
    return false; /* the line takes every key while it is open */
}
