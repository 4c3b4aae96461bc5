/* ui_cmd.h - the ':' commands as one table.  Each row names a command, its
 * aliases, how it is written, what it does and the function that runs it;
 * the dispatch (ui_cmd_run), the help screen, Tab completion and the "did
 * you mean" on a typo all read this table, so they cannot disagree.
 *
 * Adding a command is one row in ui_cmd_table (ui_cmd.c) and its handler.
 * A handler gets the state, the explorer (NULL when a command line runs
 * without one, as in the tests: rows marked app_only are then refused) and
 * the argument (the rest of the line, leading spaces dropped).  It returns 0
 * when done and -1 when refused, leaving what happened in the message line. */
#ifndef UI_CMD_H
#define UI_CMD_H

#include <stdbool.h>
#include <stddef.h>

#include "io/colorscale.h"
#include "ui/state/ui_state.h"

struct ui_app;
struct ui_stream;

/* What a command's argument is, for Tab completion. */
enum ui_cmd_arg {
    UI_ARG_NONE,    /* no argument */
    UI_ARG_TEXT,    /* free text or a number: nothing to complete */
    UI_ARG_STAGE,   /* a stage name */
    UI_ARG_VIEW,    /* a view name */
    UI_ARG_SWITCH,  /* on / off */
    UI_ARG_FORMAT,  /* an export format, then a file */
    UI_ARG_THEME,   /* a theme name */
    UI_ARG_FILE,    /* a file path */
    UI_ARG_EXAMPLE, /* a bundled example's name or a file path */
    UI_ARG_COMMAND  /* a command name */
};

#define UI_CMD_MAX_ALIASES 4

struct ui_cmd {
    const char *name;
    const char *aliases[UI_CMD_MAX_ALIASES]; /* NULL-terminated (or full) */
    const char *usage;                       /* "heads N", for the help screen */
    const char *help;                        /* what it does (lists: ui_words.h) */
    enum ui_cmd_arg arg;
    bool app_only; /* needs the explorer (windows, theme, lessons) */
    int (*run)(struct ui_state *st, struct ui_app *app, const char *arg);
};

extern const struct ui_cmd ui_cmd_table[];
extern const int ui_cmd_count;

/* The row whose name or alias is word exactly; NULL when none. */
const struct ui_cmd *ui_cmd_find(const char *word);

/* Run one command line (a leading ':' is allowed) with the explorer app
 * (NULL: the state alone).  An unknown command gets the closest known one
 * suggested.  Returns the handler's 0 / -1. */
/* Run one command line ("heads 3", "tokens The cat sat", ...; a leading ':'
 * is allowed) without the explorer: the commands of ui_cmd_table that need
 * no windows.  Returns 0 or -1 as the changes do. */
int ui_state_command(struct ui_state *st, const char *line);
/* Split a command line: its first word (after any ':' and spaces) into word
 * (size n, cut to fit); returns its argument, the rest of the line without
 * leading spaces. */
const char *ui_command_split(const char *line, char *word, size_t n);
int ui_cmd_run(struct ui_state *st, struct ui_app *app, const char *line);

/* Edit distance between a and b (insertions, deletions, substitutions and
 * swaps of two neighbours each count 1), over bytes. */
int ui_cmd_distance(const char *a, const char *b);

/* The command name closest to word when it is close enough to be a typo
 * (distance at most 2, and less than the word's length); NULL otherwise. */
const char *ui_cmd_suggest(const char *word);

/* ---- handlers that live with what they change ---------------------------------------- */

/* ui_state.c: the numbers and where the screen is. */
int ui_cmd_heads(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_d_model(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_tokens(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_seed(struct ui_state *st, struct ui_app *app, const char *arg);
/* :layer N: a model of layers shown at layer N (ui_app_show_layer, or
 * without the explorer ui_state_show_layer). */
int ui_cmd_layer(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_top_p(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_stage(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_view(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_corrupt(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_causal(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_scale(struct ui_state *st, struct ui_app *app, const char *arg);
/* :find WORD (ui_commands.c, on ui_find.h) */
int ui_cmd_find_word(struct ui_state *st, struct ui_app *app, const char *arg);

/* ui_commands.c: the explorer as a whole. */
int ui_cmd_link(struct ui_state *st, struct ui_app *app, const char *arg);
/* :class, :save and :save! (ui_commands.c, on ui_stream.h's ui_follow_class and
 * ui_train.h's ui_train_save). */
int ui_cmd_class(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_save(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_save_over(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_export(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_theme(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_present(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_autoplay(struct ui_state *st, struct ui_app *app, const char *arg);

/* :load and :examples (ui_commands.c), of the lesson's assets (off screen,
 * app NULL: the installed ones). */
int ui_cmd_load(struct ui_state *st, struct ui_app *app, const char *arg);
int ui_cmd_examples(struct ui_state *st, struct ui_app *app, const char *arg);
/* ui_load.c: :load arg into st, a bundled example of assets (NULL: none)
 * by name or a file; a key of the stream (stream NULL: none) loads only a
 * bundled example by name, never a path.  :examples: their names, said. */
int ui_load_example(struct ui_state *st, const char *assets, const struct ui_stream *stream,
                    const char *arg);
int ui_load_list(struct ui_state *st, const char *assets);

/* The explorer's own commands (ui_commands.c): :link, :export (and e),
 * :theme (and T), :present, :autoplay (and a); the others go on to
 * ui_state_command.  Each leaves what happened in the message line. */
int ui_app_command(struct ui_app *app, const char *line);
void ui_app_link(struct ui_app *app);

/* fmt: an export format or enum mha_format; path NULL: a new
 * mha-<stage>-<n> file in the current folder. */
void ui_app_export(struct ui_app *app, int fmt, const char *path);
void ui_app_set_theme(struct ui_app *app, enum colorscale_theme theme);
void ui_app_toggle_autoplay(struct ui_app *app);

#endif
