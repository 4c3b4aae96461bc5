/* cli_opt_table.h - the option table: every option of the command line
 * once, with what --help, getopt and the completions (scripts/gen-docs)
 * read from it. */
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
    size_t field; /* offsetof(struct cli_options, ...) for TEXT and FLAG */
};

/* The table, n rows (*n). */
const struct cli_opt *cli_opt_table(int *n);

/* getopt_long's options, from the table: each returns CLI_OPT_ROW + its row. */
enum { CLI_OPT_ROW = 1024 };
struct option;
const struct option *cli_opt_long_options(void);

/* A group's heading line, and the text printed before its entries (or ""). */
const char *cli_opt_group_heading(enum cli_opt_group g);
const char *cli_opt_group_intro(enum cli_opt_group g);

#endif
