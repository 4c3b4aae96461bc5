/* ui_keymap.c - looking keys up in a mode's table, the checks the tests run
 * over every table, the names the help gives keys. */
#include "ui/state/ui_keymap.h"

#include <curses.h>
#include <stdio.h>
#include <string.h>

#include "ui/state/ui_words.h"

static bool row_has(const struct ui_keymap_row *r, int key)
{
    for (int k = 0; k < UI_KEY_MAX_KEYS && r->keys[k]; k++)
        if (r->keys[k] == key)
            return true;
    return false;
}

const struct ui_keymap_row *ui_keymap_find(const struct ui_keymap *m, int key)
{
    if (key == 0)
        return NULL;
    for (int i = 0; i < m->n; i++)
        if (row_has(&m->rows[i], key))
            return &m->rows[i];
    return NULL;
}

int ui_keymap_action(const struct ui_keymap *m, int key, int none)
{
    const struct ui_keymap_row *r = ui_keymap_find(m, key);
    return r ? r->action : none;
}

int ui_keymap_find_double(const struct ui_keymap *m, const struct ui_keymap_row **first,
                          const struct ui_keymap_row **second)
{
    for (int i = 0; i < m->n; i++)
        for (int k = 0; k < UI_KEY_MAX_KEYS && m->rows[i].keys[k]; k++) {
            const int key = m->rows[i].keys[k];
            for (int k2 = k + 1; k2 < UI_KEY_MAX_KEYS && m->rows[i].keys[k2]; k2++)
                if (m->rows[i].keys[k2] == key) {
                    *first = *second = &m->rows[i];
                    return key;
                }
            for (int j = i + 1; j < m->n; j++)
                if (row_has(&m->rows[j], key)) {
                    *first = &m->rows[i];
                    *second = &m->rows[j];
                    return key;
                }
        }
    return 0;
}

char *ui_keymap_hint(const struct ui_keymap *m, char *buf, size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < m->n && used < n; i++) {
        if (!m->rows[i].hint)
            continue;
        const int w = snprintf(buf + used, n - used, "%s%s", used ? " · " : "", m->rows[i].hint);
        if (w < 0)
            break;
        used += (size_t)w;
    }
    return buf;
}

bool ui_keymap_help_line(const struct ui_keymap *m, int i, char *label, size_t n, const char **text)
{
    const struct ui_keymap_row *r = &m->rows[i];
    if (!r->label)
        return false;
    snprintf(label, n, "%s", r->label);
    *text = r->help;
    return true;
}

const char *ui_key_name(int key, char *buf, size_t n)
{
    static const struct {
        int key;
        const char *name;
    } named[] = {
        {KEY_LEFT, "←"},      {KEY_RIGHT, "→"}, {KEY_UP, "↑"},       {KEY_DOWN, "↓"},
        {KEY_HOME, "Home"},   {KEY_END, "End"}, {KEY_PPAGE, "PgUp"}, {KEY_NPAGE, "PgDn"},
        {KEY_ENTER, "Enter"}, {'\n', "Enter"},  {'\r', "Enter"},     {KEY_BACKSPACE, "Backspace"},
        {127, "Backspace"},   {8, "Backspace"}, {27, "Esc"},         {'\t', "Tab"},
        {KEY_BTAB, "S-Tab"},  {' ', "Space"},
    };
    for (size_t i = 0; i < sizeof named / sizeof named[0]; i++)
        if (named[i].key == key) {
            snprintf(buf, n, "%s", named[i].name);
            return buf;
        }
    if (key >= KEY_F(1) && key <= KEY_F(12))
        snprintf(buf, n, "F%d", key - KEY_F(0));
    else if (key > 0 && key < 32)
        snprintf(buf, n, "^%c", key + 64);
    else if (key > 32 && key < 127)
        snprintf(buf, n, "%c", key);
    else
        snprintf(buf, n, "U+%04X", (unsigned)key);
    return buf;
}

char *ui_key_names_for(enum ui_action act, bool focus, bool lesson,
                       bool (*taken)(int key, const void *ctx), const void *ctx, char *buf,
                       size_t n)
{
    size_t used = 0;
    buf[0] = '\0';
    for (int i = 0; i < ui_key_count; i++) {
        const struct ui_key_binding *b = &ui_key_table[i];
        if (b->action != act)
            continue;
        for (int k = 0; k < UI_KEY_MAX_KEYS && b->keys[k]; k++) {
            const int key = b->keys[k];
            if (ui_key_lookup(key, focus, lesson) != b || (taken && taken(key, ctx)))
                continue;
            char name[16];
            ui_key_name(key, name, sizeof name);
            /* Enter has three codes; a name once */
            char padded[sizeof name + 2];
            snprintf(padded, sizeof padded, " %s ", name);
            char have[256];
            snprintf(have, sizeof have, " %s ", buf);
            if (strstr(have, padded))
                continue;
            const int w = snprintf(buf + used, n - used, "%s%s", used ? " " : "", name);
            if (w < 0 || (size_t)w >= n - used) {
                buf[used] = '\0';
                return buf;
            }
            used += (size_t)w;
        }
    }
    return buf;
}

bool ui_key_label_names(const char *label, int key)
{
    char name[16], copy[64];
    ui_key_name(key, name, sizeof name);
    ui_words_expand(label ? label : "", copy, sizeof copy); /* "0 … {last_stage}" */
    const char *words[16];
    int n = 0;
    char *save = NULL;
    for (char *w = strtok_r(copy, " ", &save); w && n < 16; w = strtok_r(NULL, " ", &save))
        words[n++] = w;
    for (int i = 0; i < n; i++) {
        if (!strcmp(words[i], name))
            return true;
        /* "0 … 6": the characters from one to the other */
        if (!strcmp(words[i], "…") && i > 0 && i + 1 < n && strlen(words[i - 1]) == 1 &&
            strlen(words[i + 1]) == 1 && key >= words[i - 1][0] && key <= words[i + 1][0])
            return true;
    }
    return false;
}
