/* ui_quiz.h - a lesson's checkpoint as the explorer asks it: predict first
 * (a numbered choice, or a number typed in), then see whether it was right
 * and why.  A small state machine without curses or examples: the caller
 * feeds it keys and, when an answer is given, the expected answer. */
#ifndef UI_QUIZ_H
#define UI_QUIZ_H

#include <stdbool.h>

#include "lesson/lesson.h"
#include "ui/state/ui_keymap.h"
#include "lesson/lesson_state.h"

enum ui_quiz_phase {
    UI_QUIZ_NONE,    /* the step has no checkpoint */
    UI_QUIZ_ASKING,  /* waiting for the reader's prediction */
    UI_QUIZ_ANSWERED /* marked; the explanation shows */
};

struct ui_quiz {
    const struct lesson_quiz *q; /* the step's quiz (owned by the lesson), or NULL */
    enum ui_quiz_phase phase;
    int previous;     /* from an earlier visit: -1 not answered, 0 wrong, 1 right */
    bool nagged;      /* "answer first" was said once; the next Space skips */
    char typed[32];   /* a number being typed */
    char given[256];  /* the answer given, as text */
    char answer[256]; /* the expected answer, as shown */
    bool right;
    bool revealed;   /* answered by no one: autoplay showed the answer */
    bool retry;      /* the first answer was wrong: one more try before the answer shows */
    char first[256]; /* that first answer */
};

/* Start asking q (NULL: no checkpoint).  previous: as progress_quiz says. */
void ui_quiz_start(struct ui_quiz *z, const struct lesson_quiz *q, int previous);

/* True while the checkpoint waits for an answer. */
bool ui_quiz_asking(const struct ui_quiz *z);
/* True when the answer is a number typed in (no choices). */
bool ui_quiz_numeric(const struct ui_quiz *z);

enum ui_quiz_input {
    UI_QUIZ_IGNORED, /* not a key of the checkpoint: handle it as usual */
    UI_QUIZ_TAKEN,   /* used (typing, or a key that does nothing yet) */
    UI_QUIZ_SUBMIT   /* an answer is in given: mark it with ui_quiz_mark */
};

/* One key while asking (is_char: a character, else a curses key code).
 * Choices: 1..9 picks one.  Numbers: digits, '.', '-' type, Backspace
 * deletes, Enter submits. */
enum ui_quiz_input ui_quiz_key(struct ui_quiz *z, int key, bool is_char);
/* True when the checkpoint, asking, takes key (a key code as
 * ui_mode_keycode gives it) before the explorer sees it: the hints leave
 * such keys out. */
bool ui_quiz_takes(const struct ui_quiz *z, int key);
/* True for the keys the number checkpoint's table binds to quitting (q Q):
 * with nothing typed they leave the lesson. */
bool ui_quiz_is_quit(int key, bool is_char);

/* Mark given against expected (lesson_quiz_expected's answer).  A first
 * wrong answer keeps asking (retry set, first holds it, the answer stays
 * hidden) and returns false; otherwise sets right, answer and the phase
 * and returns true. */
bool ui_quiz_mark(struct ui_quiz *z, const struct lesson_answer *expected);

/* Show expected without an answer (autoplay going past a checkpoint):
 * answered, neither right nor wrong. */
void ui_quiz_reveal(struct ui_quiz *z, const struct lesson_answer *expected);

/* A number as the checkpoint shows it: whole numbers without decimals,
 * others to 4 significant digits. */
void ui_quiz_format_number(double v, char *buf, int n);

/* The checkpoint's key tables: a choice's number, a typed answer. */
extern const struct ui_keymap ui_keymap_quiz_choice;
extern const struct ui_keymap ui_keymap_quiz_number;

#endif
