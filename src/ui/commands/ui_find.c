/* ui_find.c - finding a token's row (/word, n, :find). */
#include "ui/commands/ui_find.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engine/stages.h"
#include "ui/modes/ui_app.h"
#include "ui/commands/ui_cmd.h"

int ui_find_row(char *const *labels, int n, const char *word, int from)
{
    if (!labels || n <= 0 || !word[0])
        return -1;
    for (int pass = 0; pass < 2; pass++)
        for (int k = 1; k <= n; k++) {
            const int r = ((from + k) % n + n) % n;
            const char *l = labels[r] ? labels[r] : "";
            if (pass == 0 ? strcasecmp(l, word) == 0 : strstr(l, word) != NULL)
                return r;
        }
    return -1;
}

/* Does block i list tokens down its rows? */
static bool token_rows(const struct ui_app *app, int i)
{
    const struct ui_block *b = &app->blocks[i];
    const struct mha_example *ex = app->st.ex;
    return ui_block_selectable(b) && b->row_labels &&
           (b->row_labels == ex->tokens || b->row_labels == ex->key_tokens);
}

void ui_app_find(struct ui_app *app, const char *word, bool next)
{
    struct ui_state *st = &app->st;
    while (*word == ' ')
        word++;
    if (!word[0]) {
        ui_state_say(st, true, "Find what? Type a token after the /, as in /cat.");
        return;
    }
    if (word != app->find_word)
        snprintf(app->find_word, sizeof app->find_word, "%s", word);
    int block = -1;
    if (st->focus && st->block < app->n_blocks && token_rows(app, st->block))
        block = st->block;
    for (int i = 0; block < 0 && i < app->n_blocks; i++)
        if (token_rows(app, i))
            block = i;
    if (block < 0) {
        char range[16];
        ui_state_say(st, true, "No matrix here has a row per token%s%s%s.",
                     st->view != MHA_VIEW_NONE ? ": the views have none (" : "",
                     st->view != MHA_VIEW_NONE ? mha_stage_range(range, sizeof range) : "",
                     st->view != MHA_VIEW_NONE ? " goes to a stage)" : "");
        return;
    }
    const struct ui_block *b = &app->blocks[block];
    const int from = next && st->focus && st->block == block ? st->cur_r : -1;
    const int row = ui_find_row(b->row_labels, b->rows, app->find_word, from);
    if (row < 0) {
        ui_state_say(st, true, "No token \"%s\" in %s.", app->find_word, b->title);
        return;
    }
    st->focus = true;
    st->block = block;
    st->cur_r = row;
    if (st->cur_c >= b->cols || !next)
        st->cur_c = 0;
    ui_state_say(st, false, "\"%s\": row %d of %s%s", b->row_labels[row], row, b->title,
                 next ? "" : " (n: next match)");
}

int ui_cmd_find_word(struct ui_state *st, struct ui_app *app, const char *arg)
{
    ui_app_find(app, arg, false);
    return st->msg_error ? -1 : 0;
}
