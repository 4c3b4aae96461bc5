/* ui_lesson.h - lessons inside the explorer: the open lesson and its step,
 * going from step to step (each step's scene sets up the screen), the
 * step's checkpoint, the reader's progress, and the list of lessons (L).
 *
 * A step's scene is applied by replaying the scenes of steps 0..k
 * (lesson_state_at), building that example and handing it to the state, so
 * whatever the reader changed in between, a step always looks the same.
 * No curses here (the pane and the list are in panes/ui_lesson_pane.c and
 * panes/ui_lesson_menu.h), so all of it can be tested without a terminal. */
#ifndef UI_LESSON_H
#define UI_LESSON_H

#include <limits.h>
#include <stdbool.h>

#include "lesson/lesson.h"
#include "lesson/progress.h"
#include "ui/state/ui_quiz.h"
#include "ui/state/ui_state.h"

#define UI_LESSON_ID_MAX 128

/* One line of the lesson list. */
struct ui_lesson_entry {
    char *path;
    char id[UI_LESSON_ID_MAX]; /* the file's base name: the key of its progress */
    int number;
    char title[160];
    int n_steps;
    int *quiz_steps; /* steps with a checkpoint */
    int n_quizzes;
    bool broken; /* the file has problems (--check-lessons says which) */
};

struct ui_lessons {
    char lessons_dir[PATH_MAX], assets_dir[PATH_MAX];
    struct progress *progress; /* owned; NULL when out of memory */

    /* the lesson list (L), read when first opened */
    struct ui_lesson_entry *list;
    int n_list;
    bool list_loaded;
    bool menu_open;
    int menu_sel;          /* selected row; n_list is "leave the lesson" */
    bool menu_reset_armed; /* R was pressed once: a second R forgets all progress */

    /* the open lesson */
    struct lesson *l; /* owned; NULL: no lesson */
    char id[UI_LESSON_ID_MAX];
    char path[PATH_MAX]; /* its file, absolute when it can be */
    int step;            /* 0-based */
    struct ui_lesson_shown {
        bool valid;
        int heads, d_model, lq;
        bool causal, scaled;
        uint32_t seed;
    } shown;               /* what the step's scene set up, to tell the reader when the next
                              scene undoes a change they made */
    int scroll;            /* first line of the lesson pane shown */
    bool scroll_to_prompt; /* a checkpoint waits: bring its answer line into the pane */
    bool fold;             /* it was brought in under the step's first lines, with the lines
                              between folded away (until the text is scrolled) */
    struct ui_quiz quiz;
};

/* Where lessons and example files are (NULL: "lessons" and "assets"), and
 * the reader's progress (progress_load with the default path).  A progress
 * file that could not be read is set aside: warning says so ("" otherwise).
 * warning NULL: no progress is read (a follower's or a replay's lessons are
 * the teacher's; ls->progress stays NULL, so none is written either). */
void ui_lessons_init(struct ui_lessons *ls, const char *lessons_dir, const char *assets_dir,
                     char *warning, int warning_size);
void ui_lessons_done(struct ui_lessons *ls);

/* Open the lesson file at path on step (0-based; negative: where the reader
 * left it, or the start).  A lesson with problems is refused: -1 with the
 * reason in the message line, and the state as it was. */
int ui_lesson_open(struct ui_lessons *ls, struct ui_state *st, const char *path, int step);

/* Go to step k of the open lesson and apply its scene.  -1 (message) when
 * the scene's example cannot be built. */
int ui_lesson_goto(struct ui_lessons *ls, struct ui_state *st, int step);

/* The next step; an unanswered checkpoint first asks once for an answer
 * (a second call skips it).  At the last step only says so.  Returns 1
 * when the step changed, else 0. */
int ui_lesson_next(struct ui_lessons *ls, struct ui_state *st);
/* The previous step (its scene replayed from the start).  1 when moved. */
int ui_lesson_prev(struct ui_lessons *ls, struct ui_state *st);

/* Leave lesson mode (the screen stays as it is). */
void ui_lesson_close(struct ui_lessons *ls, struct ui_state *st);

/* A key for the open step's checkpoint while it asks; marks a given answer
 * against the example on screen and records it.  Returns true when the
 * key was used. */
bool ui_lesson_quiz_key(struct ui_lessons *ls, struct ui_state *st, int key, bool is_char);
/* A key after the step's checkpoint was answered: a digit is still the
 * checkpoint's (it says so and takes it, so a number typed one too many
 * never moves the stage); false for the others. */
bool ui_lesson_quiz_after_key(struct ui_lessons *ls, struct ui_state *st, int key, bool is_char);

/* Show the open step's checkpoint answered by no one (autoplay): the
 * answer and its explanation, nothing recorded.  True when there was a
 * checkpoint asking. */
bool ui_lesson_reveal(struct ui_lessons *ls, struct ui_state *st);

/* The cell a lesson focus points at on stage, as the trace knows it. */
struct mha_cell ui_lesson_focus_cell(const struct lesson_focus *f, int stage,
                                     const struct mha_trace *t);

#endif
