/* cli.h - the command line of mha-explorer: its options parsed into a
 * record (cli_options.c) and checked for those that do not go together
 * (cli_combinations.c), the example they describe, and the lesson tools
 * (cli_lessons.c).  main.c dispatches; the tests parse command lines with
 * the same code (a :link from the explorer is read back through cli_parse).
 * Messages go to stderr as "mha-explorer: ..."; nothing here touches the
 * terminal.
 *
 * The files of src/cli call one another one way only: cli_common.c
 * (errors, usage errors, JSON strings, the assets folder) and cli_exit.c at
 * the bottom, the options (cli_options.c, over cli_combinations.c) above the
 * text and lesson tools they use,
 * the dump, training, recording and explorer runners above them, main.c on
 * top.  tests/cli/cli_calls.py prints the order and fails on a call that goes
 * back (a circle). */
#ifndef MHA_CLI_H
#define MHA_CLI_H

#include <stdbool.h>

#include <limits.h>
#include <stdio.h>

#include "engine/mha.h"
#include "io/record.h"
#include "io/safe_file.h"
#include "train/train.h"

#define CLI_EXIT_USAGE 2
/* cli_parse's "go on": the options were read and the program has work to do. */
#define CLI_CONTINUE (-1)
/* dump_stage when there is no --dump. */
#define CLI_NO_DUMP (-2)
/* dump_stage for --dump summary (with --train). */
#define CLI_DUMP_SUMMARY (-3)
/* dump_stage for --dump circuits (with --load MODEL). */
#define CLI_DUMP_CIRCUITS (-4)
/* dump_stage for --dump lens (with --load MODEL). */
#define CLI_DUMP_LENS (-5)
/* dump_stage for --dump patching (with --load MODEL --corrupt). */
#define CLI_DUMP_PATCHING (-6)

struct cli_options {
    /* --follow, --replay: the options of the recording's start that name a
     * file (not opened: the screen says so), "" when none */
    char stream_note[600];

    /* the example */
    const char *load;
    const char *tokens;
    int d_model;    /* 0 = not given */
    int heads;      /* 0 = not given */
    long long seed; /* -1 = not given */
    bool causal;
    bool no_scale;

    /* output without a terminal */
    int dump_stage; /* CLI_NO_DUMP, DUMP_ALL or a stage */
    int format;     /* enum mha_format (format.h); MHA_FORMAT_TEXT unless given */
    bool format_given;

    /* lessons */
    const char *print_lesson;
    bool list_lessons;
    bool check_lessons;
    char **check_files; /* --check-lessons FILE...: points into argv */
    int n_check_files;
    const char *lesson;  /* --lesson N|FILE */
    int step;            /* --step N, 1-based; 0 = not given */
    bool reset_progress; /* --reset-progress: forget every lesson's progress (with --lesson,
                            that lesson's, then open it on step 1) */

    /* the explorer */
    int stage; /* 0 .. MHA_STAGE_COUNT - 1 */
    const char *view;
    const char *focus;
    int bench_frames;
    const char *theme;  /* --theme NAME (checked), or NULL */
    bool present;       /* --present */
    double autoplay;    /* --autoplay SECONDS; 0 = off */
    const char *record; /* --record FILE */
    bool force;         /* --force: --record may replace an existing file */
    const char *replay; /* --replay FILE */
    const char *follow; /* --follow FILE|- */
    double speed;       /* --speed X; 1 unless given */
    bool speed_given;
    bool no_mouse; /* --no-mouse */

    /* training (cli_train.c); d_model, heads and seed above apply too */
    const char *train;            /* --train TASK|FILE */
    const char *grad;             /* --grad MODEL */
    const char *batch_file;       /* --batch ARG as given: the BATCH file with --grad */
    const char *save;             /* --save FILE, with --train */
    int vocab;                    /* --vocab N; 0 = not given */
    int context;                  /* --context T; 0 = not given */
    int steps;                    /* --steps N; 0 = not given */
    int layers;                   /* --layers N; 0 = not given (one) */
    int layer;                    /* --layer L (0-based) of a model of layers; -1 = the last */
    int batch;                    /* --batch ARG as a number (sequences per step with
                                   * --train); 0 = not given or not a number */
    double lr;                    /* --lr X; 0 = not given */
    bool keep_case;               /* --keep-case: a text's words as written */
    const char *variant_text;     /* --variant NAME as given; NULL = not given */
    struct train_variant variant; /* --variant NAME; standard unless given */

    /* the training screen (cli_train_screen.c) */
    int compare[4];        /* --compare 1,2: head counts trained side by side */
    int n_compare;         /* 0 = not given */
    bool compare_layers;   /* --compare layers=1,2: compare[] holds layer counts */
    bool compare_variants; /* --compare variants=standard,no-wo: compare_variant[] */
    struct train_variant compare_variant[4];

    /* writing with a language model (cli_generate.c); --load, --tokens and
     * --seed above apply too */
    int generate;       /* --generate N: lines to write; 0 = not given */
    double temperature; /* --temperature T; 1 unless given, 0 = the likeliest word */
    bool temperature_given;
    int top_k;    /* --top-k K: draw among the K likeliest; 0 = every word */
    double top_p; /* --top-p P: draw among the nucleus of share P; 1 unless given */
    bool top_p_given;

    /* a trained model as a PyTorch script (cli_torch.c), with --load */
    const char *export_torch;       /* --export-torch FILE.py */
    const char *export_safetensors; /* --export-safetensors FILE (io/safetensors.h) */

    /* activation patching (cli_patching.c), with --load and --dump patching */
    const char *corrupt; /* --corrupt WORDS: the corrupted run's */
    const char *answer;  /* --answer A,B: the answers compared */

    unsigned long long given; /* bit i: row i of the option table was given (cli_opt_table) */
};

/* Most lines --generate writes, and the highest --temperature. */
#define CLI_GENERATE_MAX 10000
#define CLI_TEMPERATURE_MAX 100.0

/* Read argv into o.  Returns CLI_CONTINUE when there is work to do, 0 after
 * --help or --version (printed to stdout), or CLI_EXIT_USAGE after a
 * message on stderr.  Strings in o point into argv.  Can be called again
 * (getopt is reset). */
int cli_parse(int argc, char **argv, struct cli_options *o);

/* The options of o that do not go together, or that the mode they ask for
 * would ignore, by each option's scope in the option table
 * (cli_combinations.c): CLI_CONTINUE, or CLI_EXIT_USAGE after a message
 * naming the option and where it applies.  cli_parse calls it. */
int cli_combinations(const struct cli_options *o);

/* The example the options describe (a file, or generated), with --heads,
 * --causal and --no-scale applied.  NULL + err ("--heads: ..." and the like). */
struct mha_example *cli_build_example(const struct cli_options *o, struct mha_error *err);

/* --generate N: N lines written by the language model of --load, each
 * continuing --tokens (or the model's sample's first word) a word at a time
 * until a sentence's end mark or the context is full, on stdout.  Exit
 * status (2 with a message on a bad model or words). */
int cli_generate(const struct cli_options *o);

/* --export-torch FILE.py: the model of --load as a standalone PyTorch
 * script (io/export_torch.h).  Exit status (2 with a message: a bad model
 * or words, or a file that cannot be written). */
int cli_export_torch(const struct cli_options *o);

/* --export-safetensors FILE: the model of --load as a safetensors file in
 * TransformerLens's names (io/safetensors.h); exit status as above. */
int cli_export_safetensors(const struct cli_options *o);

/* --dump summary of a model of two or more layers (cli_layers.c): every
 * layer's heads labelled and knocked out alone, measured on the first n_seq
 * held-out sequences of run, and the Q, K, V composition of every later
 * head with every earlier one; as text lines, or JSON members
 * ("layers_heads", "composition") each followed by a comma.  Nothing for
 * one layer.  0, or -1 + err. */
struct train_run;
int cli_layers_summary(FILE *f, struct train_run *run, int n_seq, bool json, struct mha_error *err);

/* The model of path (a model file, or a sentence file naming one), read
 * for one sequence at a time; NULL after the reason on stderr (cli_common.c). */
struct train_model;
struct train_model *cli_load_model(const char *path);

/* The words of --tokens, else the sentence file's own (--load), as m's ids
 * into ids (TRAIN_MAX_CONTEXT of room), *n of them; *n 0 when neither gives
 * any.  0, or -1 + err naming an unknown word (cli_common.c). */
int cli_model_words(const struct cli_options *o, struct train_model *m, int *ids, int *n,
                    struct mha_error *err);

/* --help on stdout (cli_help.c). */
void cli_print_help(void);

/* --man: the man page shown by man -l, the one next to the program (the
 * source tree's doc/mha-explorer.1 for a build, PREFIX/share/man's once
 * installed); returns only when that fails: 1 after a message (cli_help.c). */
int cli_show_man(void);

/* "mha-explorer: <err formatted>" on stderr (cli_common.c). */
void cli_report(const struct mha_error *err);

/* "mha-explorer: " and fmt with arg (escaped, as any text a user gave) in
 * its one %s, then the pointer to --help, on stderr; CLI_EXIT_USAGE
 * (cli_common.c). */
int cli_usage_error(const char *fmt, const char *arg);

/* At exit, flush and close stdout; if anything printed was lost, say so on
 * stderr and exit with status 1 instead (cli_exit.c).  Call once, first. */
void cli_check_stdout_at_exit(void);
/* "mha-explorer: cannot write the output: <strerror(code)>" on stderr, once
 * however often it is called (code 0: no reason known). */
void cli_output_error(int code);

/* ---- lessons (cli_lessons.c) ---- */

/* --list-lessons, --check-lessons [FILE]..., --print-lesson N|FILE (format:
 * text or html, as cli_parse allows): exit statuses. */
int cli_list_lessons(void);
int cli_check_lessons(char **files, int n_files);
int cli_print_lesson(const char *spec, int format);

/* --reset-progress: forget what the reader did in the lesson named by
 * lesson_spec, or in every lesson when it is NULL (cli_progress.c).
 * Returns 0, or an exit status with the reason on stderr. */
int cli_reset_progress(const char *lesson_spec);

/* The lesson named by number (bundled) or path, newly allocated; NULL with
 * a message when there is none. */
char *cli_find_lesson(const char *spec);

/* A lesson the explorer is asked to open: it loads, passes its checks and
 * has step (1-based; 0 = any).  0, or CLI_EXIT_USAGE with the problems on
 * stderr as file:line: messages. */
int cli_check_lesson_file(const char *path, int step);

/* The data directory's assets/ (or "assets"), newly allocated (cli_common.c). */
char *cli_assets_dir(void);

/* Fills the train_note of every step of l whose scene trains, with what the
 * training reached: each is trained headless, with the training screen's
 * runs (src/train) and steps (cli_lesson_train.c).  0, or -1 with a message
 * on stderr. */
struct lesson;
int cli_train_lesson_notes(struct lesson *l);

/* ---- recordings (cli_record.c) ---- */

/* The file --record writes: a temporary file beside it (a symbolic link's
 * target), put in its place by cli_record_finish. */
struct cli_record {
    struct safe_file sf;
    FILE *f; /* sf's stream; NULL: not recording */
    bool force;
    bool placed; /* at its name since its start lines (a class may follow it) */
    int error;   /* the errno of the explorer's write that failed, 0: none */
    const char *name;
};

/* Refuse an existing path unless force, then create the temporary file.
 * 0, or CLI_EXIT_USAGE with a message ("--record: ...").  Before the
 * terminal is touched. */
int cli_record_open(const char *path, bool force, struct cli_record *r);
/* The explorer wrote the recording's start lines (ui_options'
 * record_started): the file goes to its name now, so students can follow
 * it as it grows (--follow); a failure is said and it goes there at the end. */
void cli_record_started(void *record);
/* Close the file and put it in place (nothing is created when the explorer
 * wrote nothing).  A write error keeps what was written, says so, and makes
 * the exit status 1.  Returns the exit status, status unless that failed. */
int cli_record_finish(struct cli_record *r, const char *name, int status);

/* The options of o that set up the explorer's start (example, lesson,
 * stage, view, focus, theme, presenter mode, autoplay) as arguments, into a
 * new start (rec_start_free it).  0, or an exit status after a message. */
int cli_record_start_args(const struct cli_options *o, struct rec_start *s);

/* A recording that carries its start: argv parsed again into o with the
 * recorded options in front (those given now win).  CLI_CONTINUE (also for
 * a recording without a start, o left alone), or an exit status after a
 * message.  o's strings then point into argv and rec: keep rec. */
int cli_replay_options(int argc, char **argv, const char *name, const struct recording *rec,
                       struct cli_options *o);

/* ---- following a class (cli_follow.c) ---- */

struct rec_follow;
/* --follow: open the teacher's recording, wait until its start lines are
 * whole (saying so once when that takes a while), and parse argv again with
 * the teacher's options in front, as --replay does.  CLI_CONTINUE with *f
 * open (rec_follow_close it), or an exit status after a message. */
int cli_follow_begin(int argc, char **argv, struct cli_options *o, struct rec_follow *f);
/* F after a new recording was put at the followed path: *f follows the new
 * file from its start (its start lines are whole, as --record places a
 * file only then).  false, with *f as it was, when the new file cannot be
 * opened or does not start within a few seconds. */
bool cli_follow_reopen(struct rec_follow *f);

/* ---- training (cli_train.c) ---- */

/* The training run the options describe, before anything is built:
 * --train TASK (built-in) or FILE (a teacher's task file or a text), and
 * the sizes and options --d-model, --heads, --vocab, --context, --steps,
 * --batch, --lr, --seed and --layers give it or the task's defaults. */
struct cli_train_plan {
    const struct train_task *task; /* a built-in task, or &file_task */
    struct train_task file_task;   /* a file's task (it points into the dataset) */
    int d_model, heads, vocab, context;
    struct train_run_options opt;
};

/* Fill p from o, its sizes checked (d_model, and heads that divide it), a
 * file read into *data (which must outlive every run of p's task: free it
 * with train_dataset_free after them; NULL for a built-in task).  p's task
 * may point into p itself: use p where it was filled.  0, or -1 + err
 * naming the option (*data NULL then). */
int cli_train_plan(const struct cli_options *o, struct cli_train_plan *p,
                   struct train_dataset **data, struct mha_error *err);

/* The run of cli_train_plan built: NULL + err naming the option (*data NULL
 * then).  Used by --train --dump summary. */
struct train_run *cli_train_build(const struct cli_options *o, struct train_dataset **data,
                                  struct mha_error *err);

/* --train TASK|FILE --dump summary: train headless, print the summary,
 * --save the model.  Exit status. */
int cli_train_summary(const struct cli_options *o);

/* --grad MODEL --batch BATCH: print {"loss", "grad"} JSON.  Exit status. */
int cli_grad(const struct cli_options *o);

/* --dump STAGE: the stage of ex (every check done before the first byte,
 * so a refusal leaves stdout untouched) in o->format (cli_dump.c).  Exit
 * status. */
int cli_dump(const struct cli_options *o, const struct mha_example *ex);

/* --replay FILE read whole before anything is played into rec (zeroed
 * when there is none): 0, or CLI_EXIT_USAGE with file:line: what is wrong
 * (cli_explorer.c). */
struct recording;
int cli_load_replay(const struct cli_options *o, struct recording *rec);

/* The explorer on a terminal: ex's stages, or (train not NULL) the
 * training screen on train->run (ex may be NULL then), which it takes
 * (train->run is NULL after; a follower that rejoins the teacher starts a
 * run of train->setup again); rec: the recording to replay
 * (cli_load_replay); follow: the teacher's stream (--follow), or NULL.
 * Takes ex.  Exit status (cli_explorer.c, built with the program). */
struct cli_train_screen;
struct rec_follow;
int cli_run_explorer(const struct cli_options *o, struct mha_example *ex,
                     const struct recording *rec, struct cli_train_screen *train,
                     struct rec_follow *follow);

/* --load MODEL --dump circuits: each head's QK and OV circuits, read off
 * the weights (cli_circuits.c).  Exit status. */
int cli_dump_circuits(const struct cli_options *o);

/* --load MODEL --dump lens: the logit lens, each layer's residual stream at
 * the last word read through the read-out (cli_lens.c).  Exit status. */
int cli_dump_lens(const struct cli_options *o);

/* --load MODEL --tokens CLEAN --corrupt CORRUPTED --dump patching: each
 * head's output patched from the clean run into the corrupted one
 * (cli_patching.c).  Exit status. */
int cli_dump_patching(const struct cli_options *o);

/* s as a JSON string, quotes and escapes included (cli_common.c). */
void cli_json_string(FILE *f, const char *s);

/* ---- text (cli_text.c) ---- */

/* The dataset --train NAME|FILE names when it is text: a bundled corpus
 * (assets/corpus/NAME.txt) or a text file (text_io_is_text), read with
 * --vocab, --context and --keep-case.  *is_text false (and NULL returned)
 * when it is neither; NULL + err when it is text and cannot be used. */
struct train_dataset *cli_text_dataset(const struct cli_options *o, bool *is_text,
                                       struct mha_error *err);

/* The bundled corpora's names, "sentences", into buf; returns buf. */
const char *cli_text_corpus_names(char *buf, size_t n);

/* The parts of --dump summary that a text run adds (a run whose dataset
 * has text): measured on the held-out lines into *ev first.  JSON: the
 * members after "loss" up to "held_out" (their lines end in ",\n"); text:
 * lines in the summary's columns. */
struct train_text_eval;
int cli_text_measure(struct train_run *run, struct train_text_eval *ev);
void cli_text_summary_json(FILE *f, const struct train_run *run, const struct train_text_eval *ev);
void cli_text_summary_text(FILE *f, const struct train_run *run, const struct train_text_eval *ev);

#endif
