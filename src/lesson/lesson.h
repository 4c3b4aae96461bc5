/* lesson.h - lessons: CommonMark files whose steps drive the explorer.
 *
 * A lesson is parsed (cmark) into steps; each step holds the blocks of text to
 * show, at most one scene (```mha: how to set up the screen) and at most one
 * quiz (```quiz: a predict-then-reveal checkpoint).  The format is described
 * for teachers in lessons/README.md.  Parsing never stops at the first
 * problem: every problem found is kept as a diagnostic with its line.
 */
#ifndef MHA_LESSON_H
#define MHA_LESSON_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "engine/mha.h"
#include "engine/views.h"
#include "train/train_variant.h"

/* ---- text ---- */

enum lesson_style { /* bit flags */
                    LESSON_EMPH = 1,
                    LESSON_STRONG = 2,
                    LESSON_CODE = 4,
                    LESSON_LINK = 8,
};

struct lesson_span {
    char *text;     /* UTF-8; "\n" alone is a hard line break */
    unsigned style; /* enum lesson_style bits */
};

enum lesson_block_kind {
    LESSON_PARAGRAPH,
    LESSON_HEADING,    /* level 1..6 */
    LESSON_ITEM,       /* list item: bullet holds "•" or "3."; level = nesting depth 1.. */
    LESSON_CODE_BLOCK, /* code holds the text */
    LESSON_CALLOUT,    /* callout kind; spans hold its text, "\n\n" between paragraphs */
    LESSON_TABLE,      /* cells: rows x cols strings, row 0 is the header */
    LESSON_QUOTE,      /* a plain block quote */
};

enum lesson_callout {
    LESSON_CALLOUT_NONE,
    LESSON_CALLOUT_ANALOGY,
    LESSON_CALLOUT_WHATIF,
    LESSON_CALLOUT_INSIGHT,
};

/* "Analogy", "What if we didn't?", "Key insight" */
const char *lesson_callout_title(enum lesson_callout c);

struct lesson_block {
    enum lesson_block_kind kind;
    int line;
    int level;
    enum lesson_callout callout;
    char bullet[16];
    struct lesson_span *spans;
    int n_spans;
    char *code;
    char **cells; /* rows * cols */
    int rows, cols;
};

/* ---- scenes ---- */

/* A scene's view is an enum mha_view (views.h): the screen's own enum. */

/* An on/off value, as scenes (causal:, scale:) and the explorer's commands
 * take it: "on", "yes", "true", "1" -> 1; "off", "no", "false", "0" -> 0;
 * anything else -1. */
int lesson_switch_from_name(const char *word);

/* The keys of a scene, in the order they are applied (scene_keys.c holds
 * one row per key: its name, how its value is read and applied, its doc). */
enum lesson_scene_key {
    SCENE_LOAD,
    SCENE_WORDS,
    SCENE_TOKENS,
    SCENE_D_MODEL,
    SCENE_SEED,
    SCENE_HEADS,
    SCENE_CAUSAL,
    SCENE_SCALE,
    SCENE_STAGE,
    SCENE_VIEW,
    SCENE_FOCUS,
    SCENE_SHOW,
    SCENE_SCROLL,
    SCENE_BATCH,
    SCENE_SEQ,
    SCENE_PRESET,
    SCENE_TRAIN,
    SCENE_COMPARE,
    SCENE_STEPS,
    SCENE_LAYERS,
    SCENE_LAYER,
    SCENE_CLEAN,
    SCENE_CORRUPT,
    SCENE_KEY_COUNT
};

/* Bytes a scene's scroll: may hold, with its NUL. */
#define LESSON_SCROLL_MAX 64

/* What lessons/README.md says of a key: its value and its meaning. */
struct lesson_scene_key_info {
    const char *name;  /* "stage" */
    const char *value; /* the values it takes, in Markdown */
    const char *doc;   /* what it does, in Markdown */
};

/* Key k's row (NULL outside 0..SCENE_KEY_COUNT-1). */
const struct lesson_scene_key_info *lesson_scene_key_info(int k);
/* "load, tokens, d_model, ..." into buf (n bytes); returns buf. */
const char *lesson_scene_key_list(char *buf, size_t n);

struct lesson_scene {
    int line;     /* line of the ```mha fence */
    unsigned set; /* bit (1u << key) for every key given */
    int key_line[SCENE_KEY_COUNT];
    int stage;
    char *tokens;
    int d_model, heads;
    uint32_t seed;
    bool causal, scaled;
    char *load;   /* relative to the assets directory */
    char *words;  /* the sentence a loaded model file runs on */
    char *focus;  /* unparsed, resolved against an example later */
    char *show;   /* a row every head's matrix shows (unparsed, as focus) */
    char *scroll; /* a view's table row to bring to the top: its first cell's text */
    enum mha_view view;
    long long batch, seq;
    char *preset;
    /* training (train: TASK|off, compare: 1,2 or layers=1,2, steps: N,
     * layers: N; heads and seed in a scene with train: are the model's) */
    char *train; /* a built-in task's name, or "off" */
    int compare[4];
    int n_compare;
    bool compare_layers;   /* compare: layers=...: layer counts, not head counts */
    bool compare_variants; /* compare: variants=...: attention blocks (compare_variant) */
    struct train_variant compare_variant[4];
    int steps;
    int layers;
    int layer; /* layer: the layer shown of a model of layers */
    /* the patching view's clean sentence (NULL: the example's) and its
     * corrupted one */
    char *clean, *corrupt;
};

/* ---- quizzes ---- */

struct lesson_quiz {
    int line;
    char *question;
    char **choices;
    int n_choices;
    char *answer; /* a choice, a number, or "computed" */
    int answer_line;
    bool computed;
    char *compute;
    int compute_line;
    double tolerance;
    char *explain;
    char *hide; /* cells hidden until answered ("weights, head 0, row tok 0"), or NULL */
    int hide_line;
};

/* ---- lessons ---- */

struct lesson_step {
    int line;    /* first line of the step */
    char *title; /* text of the step's first heading, or NULL */
    struct lesson_block *blocks;
    int n_blocks;
    bool has_scene;
    struct lesson_scene scene;
    bool has_quiz;
    struct lesson_quiz quiz;
    char *train_note; /* what the step's training reached, set by --print-lesson, or NULL */
    /* the trained model on its sample, for a step that shows the stages of
     * a model trained above: set (owned) by --print-lesson, or NULL */
    struct mha_example *train_example;
    /* ```reveal: a scene applied once the step's checkpoint is answered (a
     * setting that would give the answer away, such as scale: off for "what
     * happens without the scale?"); later steps start from it. */
    bool has_reveal;
    struct lesson_scene reveal;
};

struct lesson_diag {
    int line;
    char text[400];
};

struct lesson {
    char *path;  /* as given */
    char *title; /* first level-1 heading */
    int number;  /* NN of NN-slug.md, 0 if the name has none */
    struct lesson_step *steps;
    int n_steps;
    struct lesson_diag *diags; /* problems found while parsing (and checking) */
    int n_diags;
};

/* Parse the lesson file at path.  Always returns a lesson (NULL only when
 * out of memory) whose diags list every problem with its line; a file that
 * cannot be read gives one diagnostic at line 0.  Free with lesson_free. */
struct lesson *lesson_load(const char *path);
/* Same from text in memory; path is used in messages. */
struct lesson *lesson_parse(const char *text, size_t len, const char *path);
void lesson_free(struct lesson *l);

/* Add a diagnostic (printf-style). */
void lesson_diag_add(struct lesson *l, int line, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;

/* Scene keys by name ("stage" -> SCENE_STAGE), -1 if unknown. */
int lesson_scene_key_from_name(const char *name);

#endif
