/* ui_find.c - finding a token's row (/word, n, :find). */
#include "ui/commands/ui_find.h"

#include <stdio.h>
#include <string.h>
#include <strings.h>

#include "engine/stages.h"
#include "ui/views/ui_view.h"

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

/* Does block b list tokens of ex down its rows? */
static bool token_rows(const struct ui_block *b, const struct mha_example *ex)
{
    return ui_block_selectable(b) && b->row_labels &&
           (b->row_labels == ex->tokens || b->row_labels == ex->key_tokens);
}

void ui_find_token(struct ui_state *st, const struct ui_block *blocks, int n_blocks, char *last,
                   size_t last_size, const char *word, bool next)
{
    while (*word == ' ')
        word++;
    if (!word[0]) {
        ui_state_say(st, true, "Find what? Type a token after the /, as in /cat.");
        return;
    }
    if (word != last)
        snprintf(last, last_size, "%s", word);
    int block = -1;
    if (st->focus && st->block < n_blocks && token_rows(&blocks[st->block], st->ex))
        block = st->block;
    for (int i = 0; block < 0 && i < n_blocks; i++)
        if (token_rows(&blocks[i], st->ex))
            block = i;
    if (block < 0) {
        char range[16];
        ui_state_say(st, true, "No matrix here has a row per token%s%s%s.",
                     st->view != MHA_VIEW_NONE ? ": the views have none (" : "",
                     st->view != MHA_VIEW_NONE ? mha_stage_range(range, sizeof range) : "",
                     st->view != MHA_VIEW_NONE ? " goes to a stage)" : "");
        return;
    }
    const struct ui_block *b = &blocks[block];
    const int from = next && st->focus && st->block == block ? st->cur_r : -1;
    const int row = ui_find_row(b->row_labels, b->rows, last, from);
    if (row < 0) {
        ui_state_say(st, true, "No token \"%s\" in %s.", last, b->title);
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
