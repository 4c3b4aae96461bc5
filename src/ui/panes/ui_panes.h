/* ui_panes.h - the panes of the main screen and the modes over it, as the
 * rest of the explorer calls them: the pipeline bar, the status and message
 * lines, the text pane (a stage's words, the explain panel, a lesson), the
 * help screen and the presenter.  Each takes what it draws from (a part of
 * the app, or a small view of parts made at the top, app/ui_views_of.c);
 * none sees struct ui_app. */
#ifndef UI_PANES_H
#define UI_PANES_H

#include <curses.h>
#include <stdbool.h>
#include <stddef.h>

#include "ui/draw/ui_block.h"
#include "ui/draw/ui_theme.h"
#include "ui/state/ui_state.h"

struct trun;
struct ui_layout;
struct ui_lessons;

/* Pieces of the drawing, one file each. */
void ui_bar_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th, int width);
/* The status line: the example's sizes and where it came from (or a
 * sized view's own), play (what plays by itself, "" when nothing does) in
 * a chip, and "? help". */
void ui_status_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th,
                    const char *play, int width);

/* Lines the message line needs at this width (1..4). */
int ui_msg_lines(const struct ui_state *st, bool utf8, int width);

/* What the modes in front of the main screen (a waiting checkpoint, the
 * explain panel, the presenter's layout) read to say whether one takes a
 * key: the state, the lessons, and whether the training screen shows. */
struct ui_front {
    const struct ui_state *st;
    const struct ui_lessons *les;
    bool train_shown;
};

/* True when a mode in front of the main screen takes key (ctx: a struct
 * ui_front): the hints name only keys that reach what they say
 * (ui_key_names_for). */
bool ui_front_takes(int key, const void *ctx);

/* The small modes over the main screen, each on its part (ui_mode_panes.c;
 * app/ui_mode_parts.c binds them): open while st (or ls) says so, and a
 * key (true when used). */
bool ui_present_open(const struct ui_state *st);
bool ui_present_key(struct ui_state *st, int key, bool is_char);
bool ui_explain_open(const struct ui_state *st);
bool ui_explain_key(struct ui_state *st, int key, bool is_char);
/* A checkpoint waiting for an answer, or answered and not yet shown; its
 * keys, over the training screen when train_shown. */
bool ui_checkpoint_open(const struct ui_lessons *ls);
bool ui_checkpoint_key(struct ui_lessons *ls, struct ui_state *st, bool train_shown, int key,
                       bool is_char);

/* The lesson pane (in the text pane's place while a lesson is open), on
 * what it reads: the open lesson, the theme and whether the presenter's
 * layout is on (its narrower column); its hints, drawn, also the main
 * screen's focus and front (what ui_front_takes reads to say whether a
 * mode in front takes a key). */
struct ui_lesson_view {
    const struct ui_lessons *les;
    const struct ui_theme *th;
    bool present;
    bool focus;
    struct ui_front front;
};

/* The lines its text takes at this width (title included), the lines of
 * text it shows at this height, and the drawing. */
int ui_lesson_pane_lines(const struct ui_lesson_view *v, int width);

/* Content lines of the lesson pane up to and including the waiting
 * checkpoint's answer line; 0 when no checkpoint waits. */
int ui_lesson_pane_prompt_end(const struct ui_lesson_view *v, int width);

/* Lines of a waiting checkpoint, from its first line to its answer line
 * (0: none waits); the training's layout leaves them to the pane. */
int ui_lesson_pane_quiz_lines(const struct ui_lesson_view *v, int width);

/* A step's checkpoint has just started to wait: scroll the lesson pane of
 * ls (in lay's side pane) so its answer line shows, with as much of the
 * text above as fits (once, so the reader can scroll back up). */
void ui_lesson_pane_follow_prompt(struct ui_lessons *ls, const struct ui_theme *th, bool present,
                                  const struct ui_layout *lay);
int ui_lesson_pane_body(int height, int lines);
void ui_lesson_pane_draw(WINDOW *win, const struct ui_lesson_view *v, int width, int height);

/* The explain panel (in the text pane's place while it is open), on what it
 * reads: the screen's state (the cursor, the example and its trace), the
 * theme and the current view's blocks (the cursor's cell is in one). */
struct ui_explain_view {
    const struct ui_state *st;
    const struct ui_theme *th;
    const struct ui_block *blocks;
    int n_blocks;
};
void ui_explain_panel_draw(WINDOW *win, const struct ui_explain_view *v, int width, int height);
int ui_explain_panel_lines(const struct ui_explain_view *v, int width);

/* How far the text pane (stage text or explain panel, not a lesson) can
 * scroll at its size. */
int ui_explain_panel_max_scroll(const struct ui_explain_view *v, int width, int height);

/* The text pane (ui_describe.c) on what it reads: the explain panel's view
 * (the state, the theme, the blocks; the stage's words are read off the
 * state and the theme too) and the lesson pane's. */
struct ui_side_view {
    struct ui_explain_view explain;
    struct ui_lesson_view lesson;
};
/* Lines it would like at this width; how far it scrolls at its size (a
 * lesson's text scrolls on its own: 0); the drawing. */
int ui_side_lines(const struct ui_side_view *v, int width);
int ui_side_max_scroll(const struct ui_side_view *v, int width, int height);
void ui_side_draw(WINDOW *win, const struct ui_side_view *v);

/* The message line (ui_bar.c) on what it reads: the mode in front (its
 * state and lessons), the theme, and the training screen's hint
 * (ui_train_hint, or NULL) for when nothing else is said. */
struct ui_msg_view {
    struct ui_front front;
    const struct ui_theme *th;
    const char *train_hint;
};
void ui_msg_draw(WINDOW *win, const struct ui_msg_view *v, int width, int height);

/* A pane's title bar on its first line. */
void ui_pane_title(WINDOW *win, const char *title, int width, const struct ui_theme *th);
void ui_help_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th, int rows,
                  int cols);

/* Lines the help screen takes (for scrolling). */
int ui_help_lines(void);
/* The help screen as a mode (bound to the state and the screen's rows in
 * app/ui_mode_parts.c; open while st->help_open): a key (it takes every
 * one while it shows) and the wheel, scrolling it on a screen of rows. */
bool ui_help_key(struct ui_state *st, int rows, int key, bool is_char);
bool ui_help_mouse(struct ui_state *st, int rows, const MEVENT *ev);

/* The help's line of the heading text (0 when it has none). */
int ui_help_heading_line(const char *heading);

/* The help's line i: its keys and its words (headings: key ""); false past
 * the end. */
bool ui_help_line(int i, char *key, size_t kn, char *text, size_t tn);

/* The heading of the text pane ("4 · Attention: who looks at whom") and
 * the formula (lines apart by '\n') of the current stage or view. */
void ui_describe_heading(const struct ui_state *st, char *head, size_t hn, char *formula,
                         size_t fn);

/* The presenter's pieces (ui_present.c): the title in big letters, the
 * caption and formula that go with it, the header drawn, and the minimal
 * status line. */
struct ui_present_text {
    char title[64];       /* "4 ATTENTION" */
    char name[64];        /* "Attention · stage 4 of 0-6" (mha_stage_range) */
    char subtitle[128];   /* "who looks at whom" */
    char formula[2][256]; /* one line, or two */
    int formula_lines;
    int caption_w;
};
void ui_present_text(const struct ui_state *st, bool utf8, int width, struct ui_present_text *out);
/* The presenter's header on the training screen of t: "TRAINING" and the
 * task (pt unchanged when t is NULL or not on screen). */
void ui_train_present_text(const struct trun *t, bool utf8, struct ui_present_text *pt);
/* The header of st's stage (t's training when it is on screen; NULL:
 * none), its title in big letters of scale (the layout's big). */
void ui_present_head_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th,
                          int scale, const struct trun *t);

/* The presenter's status line: the example's sizes, the lesson's step in
 * les, and play (ui_play_status) in a chip. */
void ui_present_status_draw(WINDOW *win, const struct ui_state *st, const struct ui_theme *th,
                            const struct ui_lessons *les, const char *play, int width);

#endif
