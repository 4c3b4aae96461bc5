/* ui_app.h - the explorer as a whole: the state, the screen's layout, the
 * curses windows, and the blocks of the current view placed on a canvas.
 *
 * The loop is: read a key -> ui_app_key changes the state -> ui_app_reflow
 * derives the layout and the view from it -> ui_app_draw draws everything
 * from that (a pure function of the app; it changes nothing) -> doupdate.
 *
 * Its parts that are not a layer's own (the pop-up, the windows, the
 * stream, the training part) are in ui_parts.h; only app/ and the few files
 * tests/ui/ui_layers.py names include this header. */
#ifndef UI_APP_H
#define UI_APP_H

#include <curses.h>
#include <stdbool.h>

#include <stdio.h>

#include "ui/draw/ui_layout.h"
#include "ui/state/ui_lesson.h"
#include "ui/state/ui_mode.h"
#include "ui/state/ui_play.h"
#include "ui/state/ui_history.h"
#include "ui/state/ui_state.h"
#include "ui/draw/ui_theme.h"
#include "ui/views/ui_view.h"
#include "ui/draw/ui_widget.h"
#include "ui/modes/ui_parts.h"

struct ui_app {
    struct ui_state st;
    struct ui_lessons les; /* the open lesson, the lesson list, progress */
    struct ui_theme th;
    struct ui_layout lay;
    struct ui_windows win;

    /* what plays by itself */
    struct ui_autoplay autoplay;
    struct ui_stream stream; /* recording, replaying, following */

    /* the modes open over the main screen (ui_mode.h), and theirs */
    struct ui_mode_stack modes;
    bool quit_armed;             /* following: a q asked whether to leave the class */
    struct ui_popup popup;       /* :link's command line */
    struct ui_history hist;      /* the ':' lines run before */
    struct ui_history find_hist; /* the '/' words looked for before */
    char find_word[UI_CMD_MAX];  /* the last /word, for n */
    bool mouse;                  /* the terminal reports clicks (--no-mouse: off) */

    /* the current view, derived from st and lay by ui_app_reflow */
    struct ui_block blocks[UI_VIEW_MAX_BLOCKS];
    struct ui_block_geom geoms[UI_VIEW_MAX_BLOCKS];
    struct ui_rect pos[UI_VIEW_MAX_BLOCKS]; /* on the canvas */
    int n_blocks;
    int canvas_h;

    struct ui_train_part training;
    bool screen_up; /* the terminal was the explorer's (ui_app_interactive got it) */
};

/* The canvas lines the visualisation shows numbers on: when the blocks do
 * not all fit, the last line is the marker's (how much more there is). */
static inline int ui_app_view_h(const struct ui_app *app)
{
    int h = app->lay.vis.h - UI_VIS_HEADER;
    if (app->canvas_h > h && h > 2)
        h--;
    return h > 1 ? h : 1;
}

#endif
