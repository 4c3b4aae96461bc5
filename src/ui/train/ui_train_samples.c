/* ui_train_samples.c - o on the training screen of a text: the lines the
 * model shown writes (trun_samples.c), in the heatmaps' place, so that the
 * writing is seen to improve as the model learns (ui_train_draw.h). */
#include <stdio.h>

#include "ui/draw/ui_text.h"
#include "ui/draw/ui_theme.h"
#include "ui/draw/ui_widget.h"
#include "ui/train/ui_train_draw.h"
#include "train/trun.h"

void ui_train_draw_samples(WINDOW *win, int y, int x, int h, int w, const struct trun *t,
                           const struct trun_pane *p, const struct ui_theme *th)
{
    const int shape = ui_role_attr(th, UI_ROLE_SHAPE);
    if (h < 1 || w < 8)
        return;
    if (!trun_pane_writes(p)) {
        ui_put(win, y, x, "This model writes no lines: the lines are a text's.", w, shape,
               th->utf8);
        return;
    }
    const struct trun_samples *s = trun_pane_samples(p);
    if (s->n < 1) {
        ui_put(win, y, x, "The lines come with the next evaluation.", w, shape, th->utf8);
        return;
    }
    /* "At step 340 it writes (temperature 1):", shorter where it must */
    static const char *const live[] = {"At step %ld it writes (temperature %g):",
                                       "Step %ld writes (temperature %g):", "step %ld, T %g:"};
    static const char *const kept[] = {
        "The checkpoint at step %ld writes (temperature %g):",
        "Checkpoint at step %ld (temperature %g):", "checkpoint %ld, T %g:"};
    const char *const *forms = t->scrub >= 0 ? kept : live;
    char title[96];
    for (int f = 0; f < 3; f++) {
        snprintf(title, sizeof title, forms[f], s->step, (double)s->temperature);
        if (ui_text_width(title, th->utf8) <= w)
            break;
    }
    ui_put(win, y, x, title, w, ui_role_attr(th, UI_ROLE_TITLE), th->utf8);
    /* each line wrapped, its next lines indented, as many whole lines as fit */
    int row = y + 1;
    for (int i = 0; i < s->n && row < y + h; i++) {
        struct ui_line lines[8];
        int n = ui_text_wrap(s->line[i], w - 2, th->utf8, lines, 8);
        n = n > 8 ? 8 : n;
        if (i > 0 && row + n > y + h)
            break;
        for (int l = 0; l < n && row < y + h; l++) {
            char buf[TRUN_SAMPLE_BYTES];
            const int tw =
                ui_text_fit_n(lines[l].start, lines[l].len, w - 2, th->utf8, buf, sizeof buf);
            ui_put(win, row, x, l ? "  " : th->utf8 ? "› " : "> ", 2, shape, th->utf8);
            ui_put(win, row++, x + 2, buf, tw, 0, th->utf8);
        }
    }
    wattrset(win, 0);
}
