/* ui_history.c - lines run before, for the ':' and '/' lines. */
#include "ui/state/ui_history.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

void ui_history_add(struct ui_history *h, const char *line)
{
    if (!line[0] || (h->n > 0 && !strcmp(h->lines[h->n - 1], line)))
        return;
    char *copy = strdup(line);
    if (!copy)
        return;
    if (h->n == UI_HISTORY_MAX) {
        free(h->lines[0]);
        memmove(h->lines, h->lines + 1, (UI_HISTORY_MAX - 1) * sizeof h->lines[0]);
        h->n--;
    }
    h->lines[h->n++] = copy;
    h->at = h->n;
}

void ui_history_reset(struct ui_history *h)
{
    h->at = h->n;
    h->draft[0] = '\0';
}

const char *ui_history_step(struct ui_history *h, int dir, const char *current)
{
    const int to = h->at + (dir < 0 ? -1 : 1);
    if (to < 0 || to > h->n)
        return NULL;
    if (h->at == h->n)
        snprintf(h->draft, sizeof h->draft, "%s", current);
    h->at = to;
    return to == h->n ? h->draft : h->lines[to];
}

void ui_history_done(struct ui_history *h)
{
    for (int i = 0; i < h->n; i++)
        free(h->lines[i]);
    memset(h, 0, sizeof *h);
}
