/* cli_combinations.c - which options go together.  Each option's row
 * says where it applies (its scope: the explorer's screen, the training
 * screen, --dump STAGE, --generate, a lesson tool, ...; cli_opt_table.h),
 * and an option given where it does not apply is refused with exit status 2
 * and a message naming where it does.  The rules that are not about where
 * an option applies (two options that exclude each other, one that needs
 * another, values that conflict) are the tables and checks below; and the
 * files the program is to write are checked before any work. */
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_opt_table.h"
#include "engine/text_check.h"
#include "io/export_torch.h"
#include "io/format.h"
#include "io/model_io.h"
#include "io/safe_file.h"
#include "train/train.h"

static const char *prog = "mha-explorer";

/* A file the program is to write, checked before any work (safe_file.h):
 * CLI_CONTINUE, or CLI_EXIT_USAGE after "--save: m.json: ..." naming it. */
static int output_refused(const char *opt, const char *path)
{
    struct mha_error err;
    mha_error_clear(&err);
    if (safe_file_check_target(path, &err) == 0)
        return CLI_CONTINUE;
    char text[MHA_ERROR_TEXT_MAX + MHA_ERROR_FILE_MAX + 32], shown[sizeof text + 256];
    if (!path[0])
        snprintf(text, sizeof text, "%s", err.text);
    else
        mha_error_format(&err, text, sizeof text);
    fprintf(stderr, "%s: %s: %s\n", prog, opt, mha_text_escape(text, shown, sizeof shown));
    return CLI_EXIT_USAGE;
}

/* --load (path, or NULL) names no model file: why it cannot be read, as
 * reading it would ("m.json: cannot open: No such file or directory"), or
 * else what the option needs; CLI_EXIT_USAGE. */
static int no_model(const char *path, const char *needs)
{
    struct mha_error err;
    mha_error_clear(&err);
    const int fd = path ? safe_file_open(path, &err) : -1;
    if (fd >= 0)
        close(fd);
    if (fd >= 0 || !path)
        return cli_usage_error("%s", needs);
    cli_report(&err);
    return CLI_EXIT_USAGE;
}

/* --export-torch's script at path and its weights beside it: both new
 * files, neither there yet; CLI_CONTINUE or CLI_EXIT_USAGE. */
static int script_refused(const char *path)
{
    char weights[PATH_MAX], shown[3][4 * PATH_MAX];
    if (export_torch_weights_path(path, weights, sizeof weights))
        return cli_usage_error("--export-torch: %s: the name is too long for its weights' file "
                               "beside it",
                               path);
    if (output_refused("--export-torch", weights) != CLI_CONTINUE)
        return CLI_EXIT_USAGE;
    struct stat sb;
    const char *there = lstat(path, &sb) == 0 ? path : lstat(weights, &sb) == 0 ? weights : NULL;
    if (!there)
        return CLI_CONTINUE;
    fprintf(stderr,
            "%s: --export-torch: %s exists: the script %s and its weights %s are written as new "
            "files, never over one; remove it or give another name\n",
            prog, mha_text_escape(there, shown[0], sizeof shown[0]),
            mha_text_escape(path, shown[1], sizeof shown[1]),
            mha_text_escape(weights, shown[2], sizeof shown[2]));
    return CLI_EXIT_USAGE;
}

/* Whether path names the regular file standard output writes to (the
 * model saved there would be renamed over it, and what is printed lost). */
static bool is_stdout(const char *path)
{
    struct stat out, st;
    return fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) && stat(path, &st) == 0 &&
           st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

/* The row of option name (without its dashes), or -1. */
static int row_of(const char *name)
{
    int n;
    const struct cli_opt *t = cli_opt_table(&n);
    for (int i = 0; i < n; i++)
        if (t[i].name && !strcmp(t[i].name, name))
            return i;
    return -1;
}

/* Whether option name (without its dashes) was given. */
static bool given(const struct cli_options *o, const char *name)
{
    const int i = row_of(name);
    return i >= 0 && (o->given >> i & 1);
}

/* The mode the options given pick, one bit of enum cli_mode, in the order
 * main dispatches them. */
static unsigned mode_of(const struct cli_options *o)
{
    if (o->export_torch)
        return CLI_MODE_EXPORT_TORCH;
    if (o->export_safetensors)
        return CLI_MODE_EXPORT_SAFETENSORS;
    if (o->generate)
        return CLI_MODE_GENERATE;
    if (o->grad)
        return CLI_MODE_GRAD;
    if (o->check_lessons)
        return CLI_MODE_CHECK_LESSONS;
    if (o->list_lessons)
        return CLI_MODE_LIST_LESSONS;
    if (o->print_lesson)
        return CLI_MODE_PRINT_LESSON;
    if (o->reset_progress && !o->lesson)
        return CLI_MODE_RESET_PROGRESS;
    if (o->train && o->dump_stage == CLI_DUMP_SUMMARY)
        return CLI_MODE_SUMMARY;
    if (o->dump_stage == CLI_DUMP_CIRCUITS)
        return CLI_MODE_CIRCUITS;
    if (o->dump_stage == CLI_DUMP_LENS)
        return CLI_MODE_LENS;
    if (o->dump_stage == CLI_DUMP_PATCHING)
        return CLI_MODE_PATCHING;
    if (o->train)
        return CLI_MODE_TRAIN_SCREEN;
    if (o->dump_stage != CLI_NO_DUMP)
        return CLI_MODE_DUMP;
    return CLI_MODE_EXPLORER;
}

/* What opens no screen and takes only its own options: its refusals come first. */
#define TOOL_MODES                                                                                 \
    (CLI_MODE_GRAD | CLI_MODE_GENERATE | CLI_MODE_EXPORT_TORCH | CLI_MODE_EXPORT_SAFETENSORS |     \
     CLI_MODE_CHECK_LESSONS | CLI_MODE_LIST_LESSONS | CLI_MODE_PRINT_LESSON |                      \
     CLI_MODE_RESET_PROGRESS)

/* What to add to mode's options to get to mode to ("--train TASK|FILE
 * --dump summary" from the explorer), into buf; false when to is not one
 * more option or two away from mode. */
static bool needs_from(unsigned mode, unsigned to, char *buf, size_t n)
{
    const struct cli_mode_info *t = cli_mode_info(to);
    if (!t || !t->base)
        return false;
    if (t->base == mode) {
        snprintf(buf, n, "%s", t->needs);
        return true;
    }
    char first[256];
    if (!needs_from(mode, t->base, first, sizeof first))
        return false;
    const size_t used = strlen(first);
    if (used + 1 + strlen(t->needs) >= n)
        return false;
    memcpy(buf, first, used);
    buf[used] = ' ';
    strcpy(buf + used + 1, t->needs);
    return true;
}

/* What a refused option's user most likely wanted instead, said after
 * where it applies: the option, the modes it is refused in, the words. */
static const struct scope_hint {
    const char *option;
    unsigned modes;
    const char *hint;
} scope_hints[] = {
    {"lesson", CLI_MODE_DUMP, "--print-lesson N prints a lesson's scenes"},
    {"layer", CLI_MODE_SUMMARY, "the summary gives every layer's heads"},
};

/* The hint for option refused in mode, or NULL. */
static const char *scope_hint(const char *option, unsigned mode)
{
    for (size_t i = 0; i < sizeof scope_hints / sizeof *scope_hints; i++)
        if ((scope_hints[i].modes & mode) && !strcmp(scope_hints[i].option, option))
            return scope_hints[i].hint;
    return NULL;
}

/* The first option given, in the table's order, that does not apply to
 * mode: refused naming where it applies.  CLI_CONTINUE or CLI_EXIT_USAGE. */
static int scope_refusal(const struct cli_options *o, unsigned mode)
{
    int n;
    const struct cli_opt *t = cli_opt_table(&n);
    for (int i = 0; i < n; i++) {
        if (!(o->given >> i & 1) || (t[i].scope & mode))
            continue;
        char where[512], needs[256], msg[1024];
        cli_scope_words(t[i].scope, where, sizeof where);
        /* the first mode it applies to that one more option or two would pick */
        bool more = false;
        for (int b = 0; b < CLI_MODE_COUNT && !more; b++)
            more = (t[i].scope >> b & 1) && needs_from(mode, 1u << b, needs, sizeof needs);
        const struct cli_mode_info *m = cli_mode_info(mode);
        if (more)
            snprintf(msg, sizeof msg, "--%s needs %s (it applies to %s)", t[i].name, needs, where);
        else
            snprintf(msg, sizeof msg,
                     "--%s cannot be combined with %s, which %s; --%s applies to %s", t[i].name,
                     m->option, m->does, t[i].name, where);
        const char *hint = scope_hint(t[i].name, mode);
        if (hint) {
            const size_t used = strlen(msg);
            snprintf(msg + used, sizeof msg - used, "; %s", hint);
        }
        return cli_usage_error("%s", msg);
    }
    return CLI_CONTINUE;
}

/* Options that exclude each other wherever both apply: option with any of
 * others is refused, naming the other and why. */
static const struct conflict {
    const char *option;
    const char *others[8];
    const char *why;
} conflicts[] = {
    {"follow", {"record", "replay"}, "a follower's screen is the teacher's recording"},
    {"follow", {"save"}, "the teacher's stream never writes on a student's machine"},
    {"follow", {"bench-frames"}, "it follows the teacher on a terminal"},
    {"replay", {"save"}, "a replay never writes a model (the recording's own run wrote its file)"},
    {"replay", {"record"}, "a replay is not recorded again"},
    {"bench-frames",
     {"record", "replay", "autoplay", "no-mouse", "save"},
     "it draws frames off screen after simulated keys, prints their times and exits"},
    {"lesson",
     {"load", "tokens", "d-model", "heads", "seed", "causal", "no-scale"},
     "the lesson's scenes set up the example"},
    {"lesson", {"stage"}, "each step shows the stage its scene names (--step N opens on a step)"},
};

/* Options that need another (any of needs) given with them. */
static const struct need {
    const char *option;
    const char *needs[2];
    const char *says;
} needs[] = {
    {"step",
     {"lesson", "replay"},
     "--lesson N|FILE"}, /* with --replay, the recording may name one */
    {"speed", {"replay"}, "--replay FILE"},
    {"force", {"record"}, "--record FILE"},
};

static int table_refusal(const struct cli_options *o)
{
    for (size_t i = 0; i < sizeof conflicts / sizeof conflicts[0]; i++) {
        const struct conflict *c = &conflicts[i];
        for (int k = 0; given(o, c->option) && k < 8 && c->others[k]; k++)
            if (given(o, c->others[k])) {
                char msg[512];
                snprintf(msg, sizeof msg, "--%s cannot be combined with --%s: %s", c->others[k],
                         c->option, c->why);
                return cli_usage_error("%s", msg);
            }
    }
    return CLI_CONTINUE;
}

static int need_refusal(const struct cli_options *o)
{
    for (size_t i = 0; i < sizeof needs / sizeof needs[0]; i++) {
        const struct need *d = &needs[i];
        if (!given(o, d->option) || given(o, d->needs[0]) || (d->needs[1] && given(o, d->needs[1])))
            continue;
        char msg[256];
        snprintf(msg, sizeof msg, "--%s needs %s", d->option, d->says);
        return cli_usage_error("%s", msg);
    }
    return CLI_CONTINUE;
}

/* What a dump of a trained model reads: a model file; its format, text or json. */
static int model_dump_values(const struct cli_options *o, const char *what, const char *reads)
{
    char needs[256];
    if (!o->load || !model_io_is_model_file(o->load)) {
        snprintf(needs, sizeof needs,
                 "--dump %s %s: give --load MODEL, a model file --train ... --save wrote", what,
                 reads);
        return no_model(o->load, needs);
    }
    if (o->format != MHA_FORMAT_TEXT && o->format != MHA_FORMAT_JSON) {
        snprintf(needs, sizeof needs, "%%s: the %s is text or json",
                 !strcmp(what, "circuits") ? "circuits" : what);
        return cli_usage_error(needs, "--format");
    }
    return CLI_CONTINUE;
}

/* The values of the modes that read or write a trained model. */
static int model_values(const struct cli_options *o, unsigned mode)
{
    if (mode == CLI_MODE_EXPORT_TORCH || mode == CLI_MODE_EXPORT_SAFETENSORS) {
        const char *opt = o->export_torch ? "--export-torch" : "--export-safetensors";
        const char *path = o->export_torch ? o->export_torch : o->export_safetensors;
        if (!o->load || !model_io_is_model_file(o->load)) {
            char needs[160];
            snprintf(needs, sizeof needs,
                     "%s writes a trained model: give --load MODEL, a model file --train ... "
                     "--save wrote",
                     opt);
            return no_model(o->load, needs);
        }
        const int rc = output_refused(opt, path);
        return rc != CLI_CONTINUE || !o->export_torch ? rc : script_refused(path);
    }
    if (mode == CLI_MODE_GENERATE) {
        if (!o->load || !model_io_is_model_file(o->load))
            return no_model(o->load, "--generate writes with a trained language model: give "
                                     "--load MODEL, a model file --train FILE.txt --save wrote");
        if (o->temperature_given && o->temperature == 0.0 &&
            (o->seed >= 0 || o->top_k || o->top_p_given))
            return cli_usage_error("%s: --temperature 0 writes the likeliest word every time; a "
                                   "seed, --top-k and --top-p change only a sampled word",
                                   o->seed >= 0 ? "--seed"
                                   : o->top_k   ? "--top-k"
                                                : "--top-p");
        return CLI_CONTINUE;
    }
    if (mode == CLI_MODE_GRAD && !o->batch_file)
        return cli_usage_error("%s needs --batch BATCH (a batch file)", "--grad");
    if (mode == CLI_MODE_LENS)
        return model_dump_values(o, "lens", "reads a trained model's layers");
    if (mode == CLI_MODE_CIRCUITS)
        return model_dump_values(o, "circuits", "reads a trained model");
    if (mode == CLI_MODE_PATCHING) {
        if (!o->load || !model_io_is_model_file(o->load))
            return no_model(o->load, "--dump patching runs a trained model: give --load MODEL, a "
                                     "model file --train ... --save wrote");
        if (!o->corrupt)
            return cli_usage_error("%s needs --corrupt CORRUPTED: the words of the corrupted run",
                                   "--dump patching");
        return model_dump_values(o, "patching", "runs a trained model");
    }
    return CLI_CONTINUE;
}

/* Rules of values before where each option applies: what a dump with
 * --train is, and what --compare shows. */
static int early_values(const struct cli_options *o)
{
    if (o->dump_stage == CLI_DUMP_SUMMARY && !o->train)
        return cli_usage_error("%s needs --train TASK|FILE", "--dump summary");
    if (o->train && o->dump_stage != CLI_DUMP_SUMMARY && o->dump_stage != CLI_NO_DUMP) {
        char msg[256];
        if (o->dump_stage == CLI_DUMP_CIRCUITS || o->dump_stage == CLI_DUMP_LENS ||
            o->dump_stage == CLI_DUMP_PATCHING)
            snprintf(msg, sizeof msg,
                     "%%s: with --train the dump is 'summary'; save the model (--save FILE) and "
                     "run --load FILE --dump %s",
                     o->dump_stage == CLI_DUMP_CIRCUITS ? "circuits"
                     : o->dump_stage == CLI_DUMP_LENS   ? "lens"
                                                        : "patching");
        else
            snprintf(msg, sizeof msg, "%%s: with --train the dump is 'summary'");
        return cli_usage_error(msg, "--dump");
    }
    if (o->n_compare && o->dump_stage == CLI_DUMP_SUMMARY)
        return cli_usage_error("--compare trains on the screen; for the figures run --dump summary "
                               "once per %s",
                               o->compare_layers     ? "--layers"
                               : o->compare_variants ? "--variant"
                                                     : "--heads");
    return CLI_CONTINUE;
}

/* Training's values that do not go together, and the files it writes. */
static int train_values(const struct cli_options *o)
{
    if (o->n_compare && o->heads && !o->compare_layers && !o->compare_variants)
        return cli_usage_error("%s: --compare gives the head counts", "--heads");
    if (o->n_compare && o->variant_text && o->compare_variants)
        return cli_usage_error("%s: --compare variants=... gives the variants", "--variant");
    if (o->n_compare && o->layers && o->compare_layers)
        return cli_usage_error("%s: --compare layers=... gives the layer counts", "--layers");
    if (o->format_given && o->format != MHA_FORMAT_TEXT && o->format != MHA_FORMAT_JSON)
        return cli_usage_error("%s: the training summary is text or json", "--format");
    if (o->layer >= 0) {
        /* the training screen opens on that layer: one every pane has */
        int fewest = o->layers > 1 ? o->layers : 1;
        for (int i = 0; o->compare_layers && i < o->n_compare; i++)
            fewest = i == 0 || o->compare[i] < fewest ? o->compare[i] : fewest;
        if (o->layer >= fewest) {
            char has[48];
            if (fewest == 1)
                snprintf(has, sizeof has, "one layer, layer 0");
            else
                snprintf(has, sizeof has, "layers 0 to %d", fewest - 1);
            fprintf(stderr,
                    "%s: --layer %d: %s %s; a training of --layers N opens on any of its "
                    "layers, and --load MODEL on any of the model's\n"
                    "Try '%s --help' for more information.\n",
                    prog, o->layer,
                    o->compare_layers ? "the pane of fewest layers trains"
                                      : "the model trained has",
                    has, prog);
            return CLI_EXIT_USAGE;
        }
    }
    if (o->batch_file && !o->batch)
        return cli_usage_error("--batch: with --train give the number of sequences per step, "
                               "not '%s'",
                               o->batch_file);
    /* an empty name, a FIFO, a device, a missing folder: refused before any
     * training; with --compare each pane's file */
    for (int i = 0; o->save && i < (o->n_compare ? o->n_compare : 1); i++) {
        for (int j = 0; j < i; j++)
            if (o->compare_variants && !memcmp(&o->compare_variant[j], &o->compare_variant[i],
                                               sizeof o->compare_variant[i])) {
                fprintf(stderr,
                        "%s: --save: --compare gives a variant twice, and the two runs would "
                        "be saved to one file; give each variant once\n",
                        prog);
                return CLI_EXIT_USAGE;
            } else if (!o->compare_variants && o->compare[j] == o->compare[i]) {
                fprintf(stderr,
                        "%s: --save: --compare gives %d %s%s twice, and the two runs would "
                        "be saved to one file; give each %s count once\n",
                        prog, o->compare[i], o->compare_layers ? "layer" : "head",
                        o->compare[i] == 1 ? "" : "s", o->compare_layers ? "layer" : "head");
                return CLI_EXIT_USAGE;
            }
        char name[PATH_MAX + 32];
        if (o->n_compare && o->compare_variants)
            model_io_variant_pane_name(o->save, &o->compare_variant[i], name, sizeof name);
        else if (o->n_compare)
            model_io_pane_name(o->save, o->compare_layers, o->compare[i], name, sizeof name);
        else
            snprintf(name, sizeof name, "%s", o->save);
        if (output_refused("--save", name) != CLI_CONTINUE)
            return CLI_EXIT_USAGE;
        if (o->dump_stage == CLI_DUMP_SUMMARY && is_stdout(name)) {
            char shown[PATH_MAX + 64];
            fprintf(stderr,
                    "%s: --save: %s is the file standard output goes to: the model would "
                    "replace it, and the summary --dump prints there would be lost; give "
                    "the model a file of its own\n",
                    prog, mha_text_escape(name, shown, sizeof shown));
            return CLI_EXIT_USAGE;
        }
    }
    return CLI_CONTINUE;
}

/* The example's values: a model file or an example file fixes some. */
static int example_values(const struct cli_options *o)
{
    const bool model = o->load && model_io_is_model_file(o->load);
    if (model && (o->d_model || o->seed >= 0))
        return cli_usage_error(
            "%s cannot be combined with --load MODEL: the model fixes its d_model "
            "and numbers (--tokens sets its words, --seed the draws of --generate)",
            o->d_model ? "--d-model" : "--seed");
    if (o->load && !model && (o->tokens || o->d_model || o->seed >= 0))
        return cli_usage_error("%s cannot be combined with --load: the example file fixes its "
                               "tokens, d_model and numbers",
                               o->tokens    ? "--tokens"
                               : o->d_model ? "--d-model"
                                            : "--seed");
    if (o->layer >= 0 && !model)
        return no_model(
            o->load,
            "--layer shows a layer of a model of layers: give --load MODEL (with --dump STAGE or "
            "circuits, or in the explorer), or --train TASK --layers N for the training screen");
    return CLI_CONTINUE;
}

int cli_combinations(const struct cli_options *o)
{
    const unsigned mode = mode_of(o);
    int rc = CLI_CONTINUE;
    if (mode & TOOL_MODES) {
        rc = scope_refusal(o, mode);
    } else {
        rc = early_values(o);
        if (rc == CLI_CONTINUE)
            rc = table_refusal(o);
        if (rc == CLI_CONTINUE)
            rc = scope_refusal(o, mode);
    }
    if (rc == CLI_CONTINUE)
        rc = need_refusal(o);
    if (rc != CLI_CONTINUE)
        return rc;
    if (mode == CLI_MODE_PRINT_LESSON && o->format != MHA_FORMAT_TEXT &&
        o->format != MHA_FORMAT_HTML)
        return cli_usage_error("%s: --print-lesson prints text or html", "--format");
    if (mode & TOOL_MODES)
        return model_values(o, mode);
    if (o->record && output_refused("--record", o->record) != CLI_CONTINUE)
        return CLI_EXIT_USAGE;
    if (mode & (CLI_MODE_CIRCUITS | CLI_MODE_LENS | CLI_MODE_PATCHING))
        return model_values(o, mode);
    if (mode & CLI_TRAINING)
        return train_values(o);
    if (o->corrupt && (!o->load || !model_io_is_model_file(o->load)))
        return no_model(o->load, "--corrupt opens the explorer's patching view of a trained model: "
                                 "give --load MODEL (or --load MODEL --tokens CLEAN --corrupt "
                                 "CORRUPTED --dump patching)");
    return example_values(o);
}
