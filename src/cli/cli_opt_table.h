/* cli_opt_table.h - the option table: every option of the command line
 * once, with what --help, getopt, the combination refusals
 * (cli_combinations.c) and, through scripts/gen-docs, the man page's
 * OPTIONS and the completions read from it.  The rows are in
 * cli_opt_rows*.c, by group; the table is their concatenation. */
#ifndef MHA_CLI_OPT_TABLE_H
#define MHA_CLI_OPT_TABLE_H

#include <stddef.h>

/* What getopt returns for each long option (-h and -V are their letters). */
enum cli_opt_id {
    OPT_DUMP = 256,
    OPT_FORMAT,
    OPT_DMODEL,
    OPT_HEADS,
    OPT_SEED,
    OPT_STAGE,
    OPT_STEP,
    OPT_BENCH_FRAMES,
    OPT_THEME,
    OPT_AUTOPLAY,
    OPT_SPEED,
    OPT_BATCH,
    OPT_VOCAB,
    OPT_CONTEXT,
    OPT_STEPS,
    OPT_LR,
    OPT_COMPARE,
    OPT_GENERATE,
    OPT_TEMPERATURE,
    OPT_TOP_K,
    OPT_TOP_P,
    OPT_LAYERS,
    OPT_LAYER,
    OPT_VARIANT,
    OPT_MAN,
    OPT_HELP = 'h',
    OPT_VERSION = 'V'
};

/* The groups of --help, in its order. */
enum cli_opt_group {
    CLI_GROUP_EXAMPLE,
    CLI_GROUP_OUTPUT,
    CLI_GROUP_LESSONS,
    CLI_GROUP_EXPLORER,
    CLI_GROUP_TEACHING,
    CLI_GROUP_TRAINING,
    CLI_GROUP_WRITING,
    CLI_GROUP_OTHER,
    CLI_GROUP_COUNT
};

/* What parsing does with an option (cli_parse). */
enum cli_opt_store {
    CLI_STORE_CODE, /* cli_options.c's switch handles it, by id */
    CLI_STORE_TEXT, /* the value is kept: a const char * at field */
    CLI_STORE_FLAG  /* the option is noted: a bool at field set true */
};

/* What a run does, decided by the options given (cli_mode, as main
 * dispatches): an option's scope is the set of these it applies to, and
 * given where it does not apply it is refused (cli_combinations.c). */
enum cli_mode {
    CLI_MODE_EXPLORER = 1 << 0,            /* the explorer's screen (no option picks it) */
    CLI_MODE_TRAIN_SCREEN = 1 << 1,        /* --train TASK|FILE: the training screen */
    CLI_MODE_DUMP = 1 << 2,                /* --dump STAGE */
    CLI_MODE_SUMMARY = 1 << 3,             /* --train TASK|FILE --dump summary */
    CLI_MODE_CIRCUITS = 1 << 4,            /* --dump circuits */
    CLI_MODE_LENS = 1 << 5,                /* --dump lens */
    CLI_MODE_PATCHING = 1 << 6,            /* --dump patching */
    CLI_MODE_GRAD = 1 << 7,                /* --grad MODEL */
    CLI_MODE_GENERATE = 1 << 8,            /* --generate N */
    CLI_MODE_EXPORT_TORCH = 1 << 9,        /* --export-torch FILE.py */
    CLI_MODE_EXPORT_SAFETENSORS = 1 << 10, /* --export-safetensors FILE */
    CLI_MODE_CHECK_LESSONS = 1 << 11,      /* --check-lessons */
    CLI_MODE_LIST_LESSONS = 1 << 12,       /* --list-lessons */
    CLI_MODE_PRINT_LESSON = 1 << 13,       /* --print-lesson N|FILE */
    CLI_MODE_RESET_PROGRESS = 1 << 14,     /* --reset-progress without --lesson */
    CLI_MODE_COUNT = 15                    /* how many bits */
};
/* Scopes the rows share. */
#define CLI_SCREENS (CLI_MODE_EXPLORER | CLI_MODE_TRAIN_SCREEN)
#define CLI_TRAINING (CLI_MODE_TRAIN_SCREEN | CLI_MODE_SUMMARY)
#define CLI_EVERYWHERE ((1u << CLI_MODE_COUNT) - 1)

/* What the messages and the docs say of a mode. */
struct cli_mode_info {
    const char *option; /* the option that picks it, as a refusal names it: "--dump" */
    const char *where;  /* "the explorer's screen", "--dump STAGE": where an option applies */
    const char *does;   /* "prints and opens no screen": why another option is refused */
    const char *needs;  /* what to add to base's options to get here: "--dump summary" */
    unsigned base;      /* the mode one more option makes this one of (0 for the explorer) */
};

/* Mode bit's information (bit one of enum cli_mode), or NULL. */
const struct cli_mode_info *cli_mode_info(unsigned bit);

/* "the explorer's screen and the training screen": where scope applies,
 * into buf (n bytes); returns buf. */
const char *cli_scope_words(unsigned scope, char *buf, size_t n);

struct cli_opt {
    const char *name; /* "d-model"; NULL: the help's entry for an option named again */
    const char *arg;  /* "N": the value's name; NULL: the option takes none */
    int id;           /* enum cli_opt_id of a CODE row; 0 for the others */
    enum cli_opt_group group;
    const char *usage;  /* the help's left column when it is not "--name ARG" */
    const char *def;    /* the default, in words; NULL: none, or one that depends on the
                           other options (the help lines say) */
    const char *help;   /* --help's lines, '\n' apart; @STAGES@, @RANGE@, @FORMATS@,
                           @VIEWS@, @THEMES@, @THEME@ and @TASKS@ stand for the lists */
    const char *brief;  /* one line for the completions; NULL: the entry of a named-again option */
    const char *values; /* what completes the value (scripts/gen-docs): "files", "json", "md",
                           "lessons", "batch", "words:W..." or "words+files:W..." (@stages@,
                           @views@, @themes@, @formats@, @tasks@, @corpora@ the lists);
                           NULL: a value of the user's own, or none */
    enum cli_opt_store store;
    size_t field;    /* offsetof(struct cli_options, ...) for TEXT and FLAG */
    unsigned scope;  /* the modes it applies to (enum cli_mode bits); given in another, it is
                        refused naming these; a row without one fails option_tables */
    const char *man; /* its entry in the man page's OPTIONS, roff, after its .TP: the tag
                        line naming the option, then the paragraph; scripts/gen-docs writes
                        the section from these, and a row without one fails option_tables */
};

/* The rows of each file, in --help's order (cli_opt_rows*.c). */
extern const struct cli_opt cli_opt_rows_screen[], cli_opt_rows_train[], cli_opt_rows_write[];
extern const int cli_opt_rows_screen_n, cli_opt_rows_train_n, cli_opt_rows_write_n;

/* The table, n rows (*n). */
const struct cli_opt *cli_opt_table(int *n);

/* getopt_long's options, from the table: each returns CLI_OPT_ROW + its row. */
enum { CLI_OPT_ROW = 1024 };
struct option;
const struct option *cli_opt_long_options(void);

/* A group's heading line, and the text printed before its entries (or ""). */
const char *cli_opt_group_heading(enum cli_opt_group g);
const char *cli_opt_group_intro(enum cli_opt_group g);

/* The man page's words for a group, roff: before its entries and after
 * them (.PP paragraphs), each "" when it has none. */
const char *cli_opt_group_man_intro(enum cli_opt_group g);
const char *cli_opt_group_man_outro(enum cli_opt_group g);

#endif
