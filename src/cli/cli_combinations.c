/* cli_combinations.c - which options go together: each mode (the explorer,
 * a dump, training, --grad, --generate, the exports, the lesson tools)
 * refuses, with exit status 2 and a message naming it, an option it would
 * ignore; and the files the program is to write, checked before any work. */
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

/* --compare and the training screen's other limits; CLI_CONTINUE or an exit status. */
static int screen_combinations(const struct cli_options *o)
{
    if (o->follow && (o->record || o->replay))
        return cli_usage_error("%s cannot be combined with --follow: a follower's screen is the "
                               "teacher's recording",
                               o->record ? "--record" : "--replay");
    if (o->follow && o->save)
        return cli_usage_error("%s cannot be combined with --follow: the teacher's stream never "
                               "writes on a student's machine",
                               "--save");
    if (o->replay && o->save)
        return cli_usage_error("%s cannot be combined with --replay: a replay never writes a "
                               "model (the recording's own run wrote its file)",
                               "--save");
    if (o->record && o->dump_stage != CLI_NO_DUMP)
        return cli_usage_error("%s cannot be combined with --dump: a recording holds the keys of "
                               "the explorer, and --dump opens none",
                               "--record");
    if (o->record && output_refused("--record", o->record) != CLI_CONTINUE)
        return CLI_EXIT_USAGE;
    if (o->follow && (o->dump_stage != CLI_NO_DUMP || o->bench_frames > 0))
        return cli_usage_error("%s cannot be combined with --follow, which needs a terminal",
                               o->dump_stage != CLI_NO_DUMP ? "--dump" : "--bench-frames");
    if (o->n_compare && !o->train)
        return cli_usage_error("%s needs --train TASK|FILE", "--compare");
    if (o->n_compare && o->heads && !o->compare_layers && !o->compare_variants)
        return cli_usage_error("%s: --compare gives the head counts", "--heads");
    if (o->n_compare && o->variant_text && o->compare_variants)
        return cli_usage_error("%s: --compare variants=... gives the variants", "--variant");
    if (o->n_compare && o->layers && o->compare_layers)
        return cli_usage_error("%s: --compare layers=... gives the layer counts", "--layers");
    if (o->n_compare && o->dump_stage == CLI_DUMP_SUMMARY)
        return cli_usage_error("--compare trains on the screen; for the figures run --dump summary "
                               "once per %s",
                               o->compare_layers     ? "--layers"
                               : o->compare_variants ? "--variant"
                                                     : "--heads");
    if (o->train && (o->view || o->focus || o->stage))
        return cli_usage_error(
            "%s cannot be combined with --train: the training screen comes first",
            o->view    ? "--view"
            : o->focus ? "--focus"
                       : "--stage");
    return CLI_CONTINUE;
}

/* The first option given, in the table's order, that is (listed) or is
 * not (!listed) one of names (without their dashes, NULL-terminated):
 * "--name", or NULL. */
static const char *given_option(const struct cli_options *o, const char *const *names, bool listed)
{
    static char shown[64];
    int n;
    const struct cli_opt *t = cli_opt_table(&n);
    for (int i = 0; i < n; i++) {
        if (!(o->given >> i & 1))
            continue;
        const char *const *p = names;
        while (*p && strcmp(*p, t[i].name) != 0)
            p++;
        if ((*p != NULL) == listed) {
            snprintf(shown, sizeof shown, "--%s", t[i].name);
            return shown;
        }
    }
    return NULL;
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

/* --export-torch and --export-safetensors: a model file and nothing that
 * changes it; CLI_CONTINUE or an exit status. */
static int export_combinations(const struct cli_options *o)
{
    const char *path = o->export_torch ? o->export_torch : o->export_safetensors;
    if (!path)
        return CLI_CONTINUE;
    const char *opt = o->export_torch ? "--export-torch" : "--export-safetensors";
    if (!o->load || !model_io_is_model_file(o->load)) {
        char needs[160];
        snprintf(needs, sizeof needs,
                 "%s writes a trained model: give --load MODEL, a model file --train ... "
                 "--save wrote",
                 opt);
        return no_model(o->load, needs);
    }
    const char *const takes[] = {opt + 2, "load", "tokens", NULL};
    const char *other = given_option(o, takes, false);
    if (other) {
        char msg[160];
        snprintf(msg, sizeof msg,
                 "%%s cannot be combined with %s, which writes the model as it is and opens no "
                 "screen",
                 opt);
        return cli_usage_error(msg, other);
    }
    const int rc = output_refused(opt, path);
    return rc != CLI_CONTINUE || !o->export_torch ? rc : script_refused(path);
}

/* --generate and its sampling options; CLI_CONTINUE or an exit status. */
static int generate_combinations(const struct cli_options *o)
{
    if (!o->generate) {
        if (o->temperature_given || o->top_k || o->top_p_given)
            return cli_usage_error("%s needs --generate N", o->temperature_given ? "--temperature"
                                                            : o->top_k           ? "--top-k"
                                                                                 : "--top-p");
        return CLI_CONTINUE;
    }
    if (!o->load || !model_io_is_model_file(o->load))
        return no_model(o->load, "--generate writes with a trained language model: give --load "
                                 "MODEL, a model file --train FILE.txt --save wrote");
    static const char *const takes[] = {"generate", "load",  "tokens",      "seed",
                                        "top-k",    "top-p", "temperature", NULL};
    const char *other = given_option(o, takes, false);
    if (other)
        return cli_usage_error(
            "%s cannot be combined with --generate, which prints lines and opens "
            "no screen (and writes through every layer)",
            other);
    if (o->temperature_given && o->temperature == 0.0 &&
        (o->seed >= 0 || o->top_k || o->top_p_given))
        return cli_usage_error("%s: --temperature 0 writes the likeliest word every time; a seed, "
                               "--top-k and --top-p change only a sampled word",
                               o->seed >= 0 ? "--seed"
                               : o->top_k   ? "--top-k"
                                            : "--top-p");
    return CLI_CONTINUE;
}

/* Whether path names the regular file standard output writes to (the
 * model saved there would be renamed over it, and what is printed lost). */
static bool is_stdout(const char *path)
{
    struct stat out, st;
    return fstat(STDOUT_FILENO, &out) == 0 && S_ISREG(out.st_mode) && stat(path, &st) == 0 &&
           st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

/* Training options that do not go together; CLI_CONTINUE or an exit status. */
static int train_combinations(const struct cli_options *o)
{
    const char *train_only = o->vocab          ? "--vocab"
                             : o->context      ? "--context"
                             : o->keep_case    ? "--keep-case"
                             : o->steps        ? "--steps"
                             : o->layers       ? "--layers"
                             : o->variant_text ? "--variant"
                             : o->lr > 0       ? "--lr"
                             : o->save         ? "--save"
                                               : NULL;
    if (train_only && !o->train)
        return cli_usage_error("%s needs --train TASK|FILE", train_only);
    if (o->dump_stage == CLI_DUMP_SUMMARY && !o->train)
        return cli_usage_error("%s needs --train TASK|FILE", "--dump summary");
    if (o->train && o->dump_stage != CLI_DUMP_SUMMARY && o->dump_stage != CLI_NO_DUMP)
        return cli_usage_error("%s: with --train the dump is 'summary'", "--dump");
    if (o->train && o->format_given && o->format != MHA_FORMAT_TEXT && o->format != MHA_FORMAT_JSON)
        return cli_usage_error("%s: the training summary is text or json", "--format");
    if (o->train && o->format_given && o->dump_stage == CLI_NO_DUMP)
        return cli_usage_error("%s needs --dump summary: the training screen has no format",
                               "--format");
    if (o->train && (o->grad || o->load || o->tokens || o->lesson || o->causal || o->no_scale))
        return cli_usage_error("%s cannot be combined with --train", o->grad     ? "--grad"
                                                                     : o->load   ? "--load"
                                                                     : o->tokens ? "--tokens"
                                                                     : o->lesson ? "--lesson"
                                                                     : o->causal ? "--causal"
                                                                                 : "--no-scale");
    if (o->train && o->layer >= 0) {
        /* the training screen opens on that layer: one every pane has */
        int fewest = o->layers > 1 ? o->layers : 1;
        for (int i = 0; o->compare_layers && i < o->n_compare; i++)
            fewest = i == 0 || o->compare[i] < fewest ? o->compare[i] : fewest;
        if (o->dump_stage != CLI_NO_DUMP)
            return cli_usage_error("%s: with --train it opens the training screen on that layer; "
                                   "the summary gives every layer's heads",
                                   "--layer");
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
    if (o->train && o->batch_file && !o->batch)
        return cli_usage_error("--batch: with --train give the number of sequences per step, "
                               "not '%s'",
                               o->batch_file);
    if (o->grad && !o->batch_file)
        return cli_usage_error("%s needs --batch BATCH (a batch file)", "--grad");
    if (o->batch_file && !o->grad && !o->train)
        return cli_usage_error("%s needs --grad MODEL or --train TASK|FILE", "--batch");
    static const char *const grad_takes[] = {"grad", "batch", NULL};
    const char *other = o->grad ? given_option(o, grad_takes, false) : NULL;
    if (other)
        return cli_usage_error("%s cannot be combined with --grad, which takes only --batch BATCH: "
                               "the model file fixes the rest",
                               other);
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

/* --dump lens runs a trained model on its words and reads each layer out. */
static int lens_combinations(const struct cli_options *o)
{
    if (o->train)
        return cli_usage_error(
            "%s: with --train the dump is 'summary'; save the model (--save FILE) "
            "and run --load FILE --dump lens",
            "--dump");
    if (!o->load || !model_io_is_model_file(o->load))
        return no_model(o->load, "--dump lens reads a trained model's layers: give --load MODEL, "
                                 "a model file --train ... --save wrote");
    static const char *const takes[] = {"load", "tokens", "dump", "format", NULL};
    const char *other = given_option(o, takes, false);
    if (other)
        return cli_usage_error("%s cannot be combined with --dump lens, which reads every layer "
                               "of the model on its words (--tokens)",
                               other);
    if (o->format != MHA_FORMAT_TEXT && o->format != MHA_FORMAT_JSON)
        return cli_usage_error("%s: the lens is text or json", "--format");
    return CLI_CONTINUE;
}

/* --dump patching runs a trained model on two sentences of as many words. */
static int patching_combinations(const struct cli_options *o)
{
    if (o->dump_stage != CLI_DUMP_PATCHING) {
        /* the explorer's patching view of a loaded model takes --corrupt */
        if (o->corrupt && !o->answer && o->dump_stage == CLI_NO_DUMP && !o->train && o->load &&
            model_io_is_model_file(o->load))
            return CLI_CONTINUE;
        return o->corrupt || o->answer
                   ? cli_usage_error("%s needs --load MODEL --tokens CLEAN --corrupt CORRUPTED "
                                     "--dump patching (or, for the explorer's patching view, "
                                     "--load MODEL --corrupt CORRUPTED)",
                                     o->answer ? "--answer" : "--corrupt")
                   : CLI_CONTINUE;
    }
    if (o->train)
        return cli_usage_error(
            "%s: with --train the dump is 'summary'; save the model (--save FILE) "
            "and run --load FILE --dump patching",
            "--dump");
    if (!o->load || !model_io_is_model_file(o->load))
        return no_model(o->load, "--dump patching runs a trained model: give --load MODEL, a "
                                 "model file --train ... --save wrote");
    if (!o->corrupt)
        return cli_usage_error("%s needs --corrupt CORRUPTED: the words of the corrupted run",
                               "--dump patching");
    static const char *const takes[] = {"load", "tokens", "corrupt", "answer",
                                        "dump", "format", NULL};
    const char *other = given_option(o, takes, false);
    if (other)
        return cli_usage_error("%s cannot be combined with --dump patching, which runs every "
                               "layer of the model on two sentences",
                               other);
    if (o->format != MHA_FORMAT_TEXT && o->format != MHA_FORMAT_JSON)
        return cli_usage_error("%s: the patching is text or json", "--format");
    return CLI_CONTINUE;
}

/* --dump circuits reads a trained model's weights and nothing else. */
static int circuits_combinations(const struct cli_options *o)
{
    if (o->dump_stage == CLI_DUMP_LENS)
        return lens_combinations(o);
    if (o->dump_stage == CLI_DUMP_PATCHING || o->corrupt || o->answer)
        return patching_combinations(o);
    if (o->dump_stage != CLI_DUMP_CIRCUITS)
        return CLI_CONTINUE;
    if (o->train)
        return cli_usage_error(
            "%s: with --train the dump is 'summary'; save the model (--save FILE) "
            "and run --load FILE --dump circuits",
            "--dump");
    if (!o->load || !model_io_is_model_file(o->load))
        return no_model(o->load, "--dump circuits reads a trained model: give --load MODEL, a "
                                 "model file --train ... --save wrote");
    if (o->tokens || o->d_model || o->heads || o->seed >= 0 || o->causal || o->no_scale)
        return cli_usage_error(
            "%s cannot be combined with --dump circuits, which reads the weights "
            "alone",
            o->tokens     ? "--tokens"
            : o->d_model  ? "--d-model"
            : o->heads    ? "--heads"
            : o->causal   ? "--causal"
            : o->no_scale ? "--no-scale"
                          : "--seed");
    if (o->format != MHA_FORMAT_TEXT && o->format != MHA_FORMAT_JSON)
        return cli_usage_error("%s: the circuits are text or json", "--format");
    return CLI_CONTINUE;
}

/* --dump prints and opens no screen: the explorer's options are refused. */
static int dump_combinations(const struct cli_options *o)
{
    static const char *const screen[] = {
        "stage",        "view",     "focus",  "present", "theme", "autoplay",
        "bench-frames", "no-mouse", "replay", "lesson",  NULL};
    const char *other = o->dump_stage != CLI_NO_DUMP ? given_option(o, screen, true) : NULL;
    if (other && !strcmp(other, "--lesson"))
        return cli_usage_error("%s cannot be combined with --dump, which prints and opens no "
                               "screen; --print-lesson N prints a lesson's scenes",
                               other);
    if (other)
        return cli_usage_error(
            "%s cannot be combined with --dump, which prints and opens no screen", other);
    return CLI_CONTINUE;
}

/* The options of another option (--step of --lesson, --speed of --replay,
 * --force of --record), on the explorer's screen and the training screen
 * alike; CLI_CONTINUE or an exit status. */
static int session_combinations(const struct cli_options *o)
{
    if (o->step && !o->lesson && !o->replay) /* with --replay, the recording may name one */
        return cli_usage_error("%s needs --lesson N|FILE", "--step");
    if (o->speed_given && !o->replay)
        return cli_usage_error("%s needs --replay FILE", "--speed");
    if (o->force && !o->record)
        return cli_usage_error("%s needs --record FILE", "--force");
    if (o->record && o->replay)
        return cli_usage_error(
            "%s cannot be combined with --replay: a replay is not recorded again", "--record");
    return CLI_CONTINUE;
}

/* --bench-frames draws frames off screen, each after a simulated key
 * that moves the stage, prints their times and exits: what takes keys,
 * clicks or time, or writes a file when the screen is left, is refused. */
static int bench_combinations(const struct cli_options *o)
{
    static const char *const ignored[] = {"record", "replay", "autoplay", "no-mouse", "save", NULL};
    const char *other = o->bench_frames > 0 ? given_option(o, ignored, true) : NULL;
    if (other)
        return cli_usage_error("%s cannot be combined with --bench-frames, which draws frames off "
                               "screen after simulated keys, prints their times and exits",
                               other);
    return CLI_CONTINUE;
}

/* The lesson tools, in the order main runs them: each prints or forgets
 * and exits, opening no screen, so an option it does not take would be
 * ignored.  takes: its own option and those it reads; a tool given with
 * its unless option is part of opening the explorer instead. */
static const struct lesson_tool {
    const char *const takes[3];
    const char *unless;
    const char *does;
} lesson_tools[] = {
    {{"check-lessons", NULL}, NULL, "checks lesson files and exits"},
    {{"list-lessons", NULL}, NULL, "lists the lessons and exits"},
    {{"print-lesson", "format", NULL},
     NULL,
     "prints the lesson as its own scenes set it up (text, or --format html) and exits"},
    {{"reset-progress", NULL},
     "lesson",
     "forgets every lesson's progress and exits (with --lesson N: that lesson's, then opens it)"},
};

/* Whether option name (without its dashes) was given. */
static bool given(const struct cli_options *o, const char *name)
{
    const char *const names[] = {name, NULL};
    return given_option(o, names, true) != NULL;
}

int cli_lesson_tool_combinations(const struct cli_options *o)
{
    for (size_t i = 0; i < sizeof lesson_tools / sizeof lesson_tools[0]; i++) {
        const struct lesson_tool *t = &lesson_tools[i];
        if (!given(o, t->takes[0]) || (t->unless && given(o, t->unless)))
            continue;
        const char *other = given_option(o, t->takes, false);
        if (other) {
            char msg[256];
            snprintf(msg, sizeof msg, "%%s cannot be combined with --%s, which %s", t->takes[0],
                     t->does);
            return cli_usage_error(msg, other);
        }
        if (o->print_lesson && o->format != MHA_FORMAT_TEXT && o->format != MHA_FORMAT_HTML)
            return cli_usage_error("%s: --print-lesson prints text or html", "--format");
        return CLI_CONTINUE;
    }
    return CLI_CONTINUE;
}

int cli_combinations(const struct cli_options *o)
{
    int rc = export_combinations(o);
    if (rc != CLI_CONTINUE || o->export_torch || o->export_safetensors)
        return rc;
    rc = generate_combinations(o);
    if (rc != CLI_CONTINUE || o->generate)
        return rc;
    rc = bench_combinations(o);
    if (rc == CLI_CONTINUE)
        rc = screen_combinations(o);
    if (rc == CLI_CONTINUE)
        rc = dump_combinations(o);
    if (rc == CLI_CONTINUE)
        rc = circuits_combinations(o);
    if (rc == CLI_CONTINUE)
        rc = train_combinations(o);
    if (rc == CLI_CONTINUE)
        rc = session_combinations(o);
    if (rc != CLI_CONTINUE || o->train || o->grad)
        return rc;
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
    /* each step of a lesson puts the screen in its scene's state: the
     * example (tokens, sizes, seed, mask and scaling) and the stage */
    static const char *const scene_sets[] = {"load", "tokens", "d-model",  "heads",
                                             "seed", "causal", "no-scale", NULL};
    const char *other = o->lesson ? given_option(o, scene_sets, true) : NULL;
    if (other)
        return cli_usage_error("%s cannot be combined with --lesson: the lesson's scenes set up "
                               "the example",
                               other);
    if (o->lesson && given(o, "stage"))
        return cli_usage_error("%s cannot be combined with --lesson: each step shows the stage its "
                               "scene names (--step N opens on a step)",
                               "--stage");
    if (o->layer >= 0 && (!o->load || !model_io_is_model_file(o->load)))
        return no_model(
            o->load,
            "--layer shows a layer of a model of layers: give --load MODEL (with --dump STAGE or "
            "circuits, or in the explorer), or --train TASK --layers N for the training screen");
    if (o->format_given && o->dump_stage == CLI_NO_DUMP && !o->print_lesson)
        return cli_usage_error("%s needs --dump STAGE or --print-lesson", "--format");
    return CLI_CONTINUE;
}
