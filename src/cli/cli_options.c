/* cli_options.c - the options of mha-explorer: parsing and checking, and
 * the example they describe (--help's text is cli_help.c's). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "cli/cli.h"
#include "cli/cli_opt_table.h"
#include "io/colorscale.h"
#include "io/dump.h"
#include "io/export.h"
#include "io/example_io.h"
#include "io/format.h"
#include "engine/mat.h"
#include "engine/stages.h"
#include "engine/views.h"
#include "mha_config.h"
#include "io/model_io.h"
#include "io/safe_file.h"
#include "engine/text_check.h"
#include "train/train.h"

static const char *prog = "mha-explorer";

static int usage_error(const char *fmt, const char *arg)
{
    char shown[512];
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, mha_text_escape(arg, shown, sizeof shown));
    fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
    return CLI_EXIT_USAGE;
}

/* Parse a whole decimal number in [lo, hi]; 0 on success. */
static int parse_number(const char *opt, const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (s[0] == '\0' || *end != '\0' || errno == ERANGE) {
        char shown[256];
        fprintf(stderr, "%s: %s: '%s' is not a whole number\n", prog, opt,
                mha_text_escape(s, shown, sizeof shown));
        return -1;
    }
    if (v < lo || v > hi) {
        fprintf(stderr, "%s: %s: %lld is out of range; expected %lld..%lld\n", prog, opt, v, lo,
                hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* Parse a whole decimal number (fractions allowed) in [lo, hi]; 0 on success. */
static int parse_seconds(const char *opt, const char *s, double lo, double hi, double *out)
{
    char *end;
    errno = 0;
    double v = strtod(s, &end);
    if (s[0] == '\0' || *end != '\0' || errno == ERANGE || !isfinite(v)) {
        char shown[256];
        fprintf(stderr, "%s: %s: '%s' is not a number\n", prog, opt,
                mha_text_escape(s, shown, sizeof shown));
        return -1;
    }
    if (v < lo || v > hi) {
        fprintf(stderr, "%s: %s: %s is out of range; expected a number from %g to %g\n", prog, opt,
                s, lo, hi);
        return -1;
    }
    *out = v;
    return 0;
}

/* Split s on spaces and tabs into a new array of new strings. */
static char **split_tokens(const char *s, int *count)
{
    *count = 0;
    char *copy = strdup(s);
    if (!copy)
        return NULL;
    size_t cap = 8, n = 0;
    char **v = malloc(cap * sizeof *v);
    for (char *save = NULL, *tok = strtok_r(copy, " \t\n", &save); v && tok;
         tok = strtok_r(NULL, " \t\n", &save)) {
        if (n == cap) {
            char **nv = realloc(v, (cap *= 2) * sizeof *v);
            if (!nv)
                break;
            v = nv;
        }
        v[n] = strdup(tok);
        if (!v[n])
            break;
        n++;
    }
    free(copy);
    *count = (int)n;
    return v;
}

static void free_tokens(char **v, int n)
{
    for (int i = 0; v && i < n; i++)
        free(v[i]);
    free(v);
}

/* Put prefix in front of err's text (cut at the end if it gets too long). */
static void prefix_error(struct mha_error *err, const char *prefix)
{
    size_t p = strlen(prefix), t = strlen(err->text);
    if (p + t >= sizeof err->text)
        t = sizeof err->text - p - 1;
    memmove(err->text + p, err->text, t);
    memcpy(err->text, prefix, p);
    err->text[p + t] = '\0';
}

static struct mha_example *generated(const struct cli_options *o, struct mha_error *err)
{
    int n = 4;
    char **tokens = NULL;
    if (o->tokens) {
        tokens = split_tokens(o->tokens, &n);
        if (!tokens) {
            mha_error_set(err, "out of memory");
            return NULL;
        }
        if (n == 0) {
            free_tokens(tokens, n);
            mha_error_set(err, "--tokens: give at least one token, e.g. --tokens \"The cat "
                               "sat on\"");
            return NULL;
        }
        if (n > MHA_MAX_TOKENS) {
            free_tokens(tokens, n);
            mha_error_set(err, "--tokens: %d tokens; at most %d are allowed", n, MHA_MAX_TOKENS);
            return NULL;
        }
        for (int i = 0; i < n; i++)
            if (mha_label_check(tokens[i], i, err)) {
                free_tokens(tokens, n);
                prefix_error(err, "--tokens: ");
                return NULL;
            }
    }
    int d = o->d_model ? o->d_model : 6;
    int h = o->heads ? o->heads : (d % 2 == 0 ? 2 : 1);
    uint32_t seed = o->seed >= 0 ? (uint32_t)o->seed : 42u;
    struct mha_example *ex = mha_example_generated(n, (const char *const *)tokens, d, h, seed, err);
    free_tokens(tokens, n);
    if (!ex && o->heads)
        prefix_error(err, "--heads: ");
    return ex;
}

struct mha_example *cli_build_example(const struct cli_options *o, struct mha_error *err)
{
    struct mha_example *ex = NULL;
    if (o->load && model_io_is_model_file(o->load)) {
        if (o->heads || o->causal || o->no_scale) {
            mha_error_set(err, "%s cannot be combined with a model file: the model fixes it",
                          o->heads    ? "--heads"
                          : o->causal ? "--causal"
                                      : "--no-scale");
            return NULL;
        }
        return model_io_example_layer(o->load, o->tokens, 1.0f, "--tokens", o->layer, err);
    }
    if (o->load) {
        ex = mha_example_load(o->load, err);
        if (!ex)
            return NULL;
        if (o->heads && o->heads != ex->heads) {
            if (mha_check_sizes(ex->lq, ex->lk, ex->d_model, o->heads, err)) {
                prefix_error(err, "--heads: ");
                mha_example_free(ex);
                return NULL;
            }
            ex->heads = o->heads;
        }
    } else {
        ex = generated(o, err);
        if (!ex)
            return NULL;
    }
    if (o->causal)
        ex->causal = true;
    if (o->no_scale)
        ex->scaled = false;
    return ex;
}

/* --compare 1,2,4: head counts, comma-separated, 1..4 of them; --compare
 * layers=1,2: layer counts. */
static int compare_option(const char *arg, struct cli_options *o)
{
    const int max = (int)(sizeof o->compare / sizeof o->compare[0]);
    o->n_compare = 0;
    o->compare_layers = !strncmp(arg, "layers=", 7);
    const char *p = o->compare_layers ? arg + 7 : arg;
    const int most = o->compare_layers ? TRAIN_MAX_LAYERS : TRAIN_MAX_D_MODEL;
    while (*p) {
        char *end;
        errno = 0;
        const long h = strtol(p, &end, 10);
        if (end == p || errno || h < 1 || h > most || (*end && *end != ','))
            return usage_error(o->compare_layers
                                   ? "--compare: expected layer counts from 1 to 4 separated by "
                                     "commas, as in --compare layers=1,2; got '%s'"
                                   : "--compare: expected head counts separated by commas, as "
                                     "in --compare 1,2 (or layer counts: layers=1,2); got '%s'",
                               arg);
        if (o->n_compare == max)
            return usage_error("--compare: at most 4 runs side by side, got '%s'", arg);
        o->compare[o->n_compare++] = (int)h;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return usage_error("--compare: '%s' ends with a comma", arg);
    }
    if (o->n_compare == 0)
        return usage_error("--compare: expected %s", o->compare_layers
                                                         ? "layer counts such as layers=1,2"
                                                         : "head counts such as 1,2");
    return CLI_CONTINUE;
}

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
        return usage_error("%s cannot be combined with --follow: a follower's screen is the "
                           "teacher's recording",
                           o->record ? "--record" : "--replay");
    if (o->follow && o->save)
        return usage_error("%s cannot be combined with --follow: the teacher's stream never "
                           "writes on a student's machine",
                           "--save");
    if (o->record && o->dump_stage != CLI_NO_DUMP)
        return usage_error("%s cannot be combined with --dump: a recording holds the keys of "
                           "the explorer, and --dump opens none",
                           "--record");
    if (o->record && !o->bench_frames && output_refused("--record", o->record) != CLI_CONTINUE)
        return CLI_EXIT_USAGE;
    if (o->follow && (o->dump_stage != CLI_NO_DUMP || o->bench_frames > 0))
        return usage_error("%s cannot be combined with --follow, which needs a terminal",
                           o->dump_stage != CLI_NO_DUMP ? "--dump" : "--bench-frames");
    if (o->n_compare && !o->train)
        return usage_error("%s needs --train TASK|FILE", "--compare");
    if (o->n_compare && o->heads && !o->compare_layers)
        return usage_error("%s: --compare gives the head counts", "--heads");
    if (o->n_compare && o->layers && o->compare_layers)
        return usage_error("%s: --compare layers=... gives the layer counts", "--layers");
    if (o->n_compare && o->dump_stage == CLI_DUMP_SUMMARY)
        return usage_error("--compare trains on the screen; for the figures run --dump summary "
                           "once per %s",
                           o->compare_layers ? "--layers" : "--heads");
    if (o->train && (o->view || o->focus || o->stage))
        return usage_error("%s cannot be combined with --train: the training screen comes first",
                           o->view    ? "--view"
                           : o->focus ? "--focus"
                                      : "--stage");
    return CLI_CONTINUE;
}

/* The training options; CLI_CONTINUE or an exit status. */
static int train_option(int c, const char *arg, struct cli_options *o)
{
    long long n;
    switch (c) {
    case OPT_BATCH:
        /* a BATCH file with --grad, a number of sequences with --train */
        o->batch_file = arg;
        o->batch = 0;
        if (arg[0] >= '0' && arg[0] <= '9' && strspn(arg, "0123456789") == strlen(arg)) {
            if (parse_number("--batch", arg, 1, TRAIN_MAX_BATCH, &n))
                return CLI_EXIT_USAGE;
            o->batch = (int)n;
        }
        break;
    case OPT_VOCAB:
        if (parse_number("--vocab", arg, 2, TRAIN_MAX_VOCAB, &n))
            return CLI_EXIT_USAGE;
        o->vocab = (int)n;
        break;
    case OPT_CONTEXT:
        if (parse_number("--context", arg, 1, TRAIN_MAX_CONTEXT, &n))
            return CLI_EXIT_USAGE;
        o->context = (int)n;
        break;
    case OPT_STEPS:
        if (parse_number("--steps", arg, 0, 10000000, &n))
            return CLI_EXIT_USAGE;
        o->steps = (int)n;
        break;
    case OPT_LR:
        if (parse_seconds("--lr", arg, 1e-6, 10.0, &o->lr))
            return CLI_EXIT_USAGE;
        break;
    case OPT_COMPARE:
        return compare_option(arg, o);
    case OPT_GENERATE:
        if (parse_number("--generate", arg, 1, CLI_GENERATE_MAX, &n))
            return CLI_EXIT_USAGE;
        o->generate = (int)n;
        break;
    case OPT_TEMPERATURE:
        if (parse_seconds("--temperature", arg, 0.0, CLI_TEMPERATURE_MAX, &o->temperature))
            return CLI_EXIT_USAGE;
        o->temperature_given = true;
        break;
    case OPT_TOP_K:
        if (parse_number("--top-k", arg, 1, TRAIN_MAX_VOCAB, &n))
            return CLI_EXIT_USAGE;
        o->top_k = (int)n;
        break;
    case OPT_LAYERS:
        if (parse_number("--layers", arg, 1, TRAIN_MAX_LAYERS, &n))
            return CLI_EXIT_USAGE;
        o->layers = (int)n;
        break;
    case OPT_LAYER:
        if (parse_number("--layer", arg, 0, TRAIN_MAX_LAYERS - 1, &n))
            return CLI_EXIT_USAGE;
        o->layer = (int)n;
        break;
    }
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
        return usage_error("%s", needs);
    cli_report(&err);
    return CLI_EXIT_USAGE;
}

/* --export-torch: a model file and nothing that changes it; CLI_CONTINUE or
 * an exit status. */
static int export_torch_combinations(const struct cli_options *o)
{
    if (!o->export_torch)
        return CLI_CONTINUE;
    if (!o->load || !model_io_is_model_file(o->load))
        return no_model(o->load, "--export-torch writes a trained model: give --load MODEL, a "
                                 "model file --train ... --save wrote");
    static const char *const takes[] = {"export-torch", "load", "tokens", NULL};
    const char *other = given_option(o, takes, false);
    if (other)
        return usage_error("%s cannot be combined with --export-torch, which writes the "
                           "model as it is and opens no screen",
                           other);
    return output_refused("--export-torch", o->export_torch);
}

/* --generate and its sampling options; CLI_CONTINUE or an exit status. */
static int generate_combinations(const struct cli_options *o)
{
    if (!o->generate) {
        if (o->temperature_given || o->top_k)
            return usage_error("%s needs --generate N",
                               o->temperature_given ? "--temperature" : "--top-k");
        return CLI_CONTINUE;
    }
    if (!o->load || !model_io_is_model_file(o->load))
        return no_model(o->load, "--generate writes with a trained language model: give --load "
                                 "MODEL, a model file --train FILE.txt --save wrote");
    static const char *const takes[] = {"generate", "load",        "tokens", "seed",
                                        "top-k",    "temperature", NULL};
    const char *other = given_option(o, takes, false);
    if (other)
        return usage_error("%s cannot be combined with --generate, which prints lines and opens "
                           "no screen (and writes through every layer)",
                           other);
    if (o->temperature_given && o->temperature == 0.0 && (o->seed >= 0 || o->top_k))
        return usage_error("%s: --temperature 0 writes the likeliest word every time; a seed "
                           "and --top-k change only a sampled word",
                           o->seed >= 0 ? "--seed" : "--top-k");
    return CLI_CONTINUE;
}

/* Training options that do not go together; CLI_CONTINUE or an exit status. */
static int train_combinations(const struct cli_options *o)
{
    const char *train_only = o->vocab       ? "--vocab"
                             : o->context   ? "--context"
                             : o->keep_case ? "--keep-case"
                             : o->steps     ? "--steps"
                             : o->layers    ? "--layers"
                             : o->lr > 0    ? "--lr"
                             : o->save      ? "--save"
                                            : NULL;
    if (train_only && !o->train)
        return usage_error("%s needs --train TASK|FILE", train_only);
    if (o->dump_stage == CLI_DUMP_SUMMARY && !o->train)
        return usage_error("%s needs --train TASK|FILE", "--dump summary");
    if (o->train && o->dump_stage != CLI_DUMP_SUMMARY && o->dump_stage != CLI_NO_DUMP)
        return usage_error("%s: with --train the dump is 'summary'", "--dump");
    if (o->train && o->format_given && o->format != MHA_FORMAT_TEXT && o->format != MHA_FORMAT_JSON)
        return usage_error("%s: the training summary is text or json", "--format");
    if (o->train && o->format_given && o->dump_stage == CLI_NO_DUMP)
        return usage_error("%s needs --dump summary: the training screen has no format",
                           "--format");
    if (o->train && (o->grad || o->load || o->tokens || o->lesson || o->causal || o->no_scale))
        return usage_error("%s cannot be combined with --train", o->grad     ? "--grad"
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
            return usage_error("%s: with --train it opens the training screen on that layer; "
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
        return usage_error("--batch: with --train give the number of sequences per step, "
                           "not '%s'",
                           o->batch_file);
    if (o->grad && !o->batch_file)
        return usage_error("%s needs --batch BATCH (a batch file)", "--grad");
    if (o->batch_file && !o->grad && !o->train)
        return usage_error("%s needs --grad MODEL or --train TASK|FILE", "--batch");
    static const char *const grad_takes[] = {"grad", "batch", NULL};
    const char *other = o->grad ? given_option(o, grad_takes, false) : NULL;
    if (other)
        return usage_error("%s cannot be combined with --grad, which takes only --batch BATCH: "
                           "the model file fixes the rest",
                           other);
    /* an empty name, a FIFO, a device, a missing folder: refused before any
     * training; with --compare each pane's file */
    for (int i = 0; o->save && i < (o->n_compare ? o->n_compare : 1); i++) {
        for (int j = 0; j < i; j++)
            if (o->compare[j] == o->compare[i]) {
                fprintf(stderr,
                        "%s: --save: --compare gives %d %s%s twice, and the two runs would "
                        "be saved to one file; give each %s count once\n",
                        prog, o->compare[i], o->compare_layers ? "layer" : "head",
                        o->compare[i] == 1 ? "" : "s", o->compare_layers ? "layer" : "head");
                return CLI_EXIT_USAGE;
            }
        char name[PATH_MAX + 32];
        if (o->n_compare)
            model_io_pane_name(o->save, o->compare_layers, o->compare[i], name, sizeof name);
        else
            snprintf(name, sizeof name, "%s", o->save);
        if (output_refused("--save", name) != CLI_CONTINUE)
            return CLI_EXIT_USAGE;
    }
    return CLI_CONTINUE;
}

/* An unknown stage for option: the stage names from the table, joined by
 * ", " with last_sep before the last, and then more. */
static int unknown_stage(const char *option, const char *arg, const char *last_sep,
                         const char *more)
{
    char msg[256], names[128];
    snprintf(msg, sizeof msg, "%s: unknown stage '%%s'; expected %s%s", option,
             mha_stage_names(names, sizeof names, last_sep), more);
    return usage_error(msg, arg);
}

/* One option with its value; CLI_CONTINUE or an exit status. */
static int option(int c, const char *arg, struct cli_options *o)
{
    long long n;
    switch (c) {
    case OPT_HELP:
        cli_print_help();
        return 0;
    case OPT_VERSION:
        printf("mha-explorer %s (matrix multiply: %s)\n", MHA_VERSION,
               mat_backend_name(mat_get_backend()));
        return 0;
    case OPT_DUMP:
        if (strcmp(arg, "summary") == 0)
            o->dump_stage = CLI_DUMP_SUMMARY;
        else if (strcmp(arg, "all") == 0)
            o->dump_stage = DUMP_ALL;
        else if (strcmp(arg, "circuits") == 0)
            o->dump_stage = CLI_DUMP_CIRCUITS;
        else if ((o->dump_stage = mha_stage_from_name(arg)) < 0)
            return unknown_stage("--dump", arg, ", ", " or all");
        break;
    case OPT_FORMAT:
        if ((o->format = mha_format_from_name(arg)) < 0) {
            char msg[256], list[128];
            snprintf(msg, sizeof msg, "--format: unknown format '%%s'; expected %s",
                     mha_format_list(MHA_FORMAT_ANY, " or ", list, sizeof list));
            return usage_error(msg, arg);
        }
        o->format_given = true;
        break;
    case OPT_DMODEL:
        if (parse_number("--d-model", arg, 1, MHA_MAX_D_MODEL, &n))
            return CLI_EXIT_USAGE;
        o->d_model = (int)n;
        break;
    case OPT_HEADS:
        if (parse_number("--heads", arg, 1, MHA_MAX_D_MODEL, &n))
            return CLI_EXIT_USAGE;
        o->heads = (int)n;
        break;
    case OPT_SEED:
        if (parse_number("--seed", arg, 0, UINT32_MAX, &n))
            return CLI_EXIT_USAGE;
        o->seed = n;
        break;
    case OPT_STAGE:
        if ((o->stage = mha_stage_from_name(arg)) < 0)
            return unknown_stage("--stage", arg, " or ", "");
        break;
    case OPT_STEP:
        if (parse_number("--step", arg, 1, 10000, &n))
            return CLI_EXIT_USAGE;
        o->step = (int)n;
        break;
    case OPT_BENCH_FRAMES:
        if (parse_number("--bench-frames", arg, 1, 1000000, &n))
            return CLI_EXIT_USAGE;
        o->bench_frames = (int)n;
        break;
    case OPT_THEME:
        if (colorscale_theme_from_name(arg) < 0) {
            char msg[192], themes[96];
            snprintf(msg, sizeof msg, "--theme: unknown theme '%%s'; expected %s",
                     colorscale_theme_names(themes, sizeof themes, " or "));
            return usage_error(msg, arg);
        }
        o->theme = arg;
        break;
    case OPT_AUTOPLAY:
        if (parse_seconds("--autoplay", arg, 0.1, 3600.0, &o->autoplay))
            return CLI_EXIT_USAGE;
        break;
    case OPT_SPEED:
        if (parse_seconds("--speed", arg, 0.01, 1000.0, &o->speed))
            return CLI_EXIT_USAGE;
        o->speed_given = true;
        break;
    default:
        return train_option(c, arg, o);
    }
    return CLI_CONTINUE;
}

/* --dump circuits reads a trained model's weights and nothing else. */
static int circuits_combinations(const struct cli_options *o)
{
    if (o->dump_stage != CLI_DUMP_CIRCUITS)
        return CLI_CONTINUE;
    if (o->train)
        return usage_error("%s: with --train the dump is 'summary'; save the model (--save FILE) "
                           "and run --load FILE --dump circuits",
                           "--dump");
    if (!o->load || !model_io_is_model_file(o->load))
        return no_model(o->load, "--dump circuits reads a trained model: give --load MODEL, a "
                                 "model file --train ... --save wrote");
    if (o->tokens || o->d_model || o->heads || o->seed >= 0 || o->causal || o->no_scale)
        return usage_error("%s cannot be combined with --dump circuits, which reads the weights "
                           "alone",
                           o->tokens     ? "--tokens"
                           : o->d_model  ? "--d-model"
                           : o->heads    ? "--heads"
                           : o->causal   ? "--causal"
                           : o->no_scale ? "--no-scale"
                                         : "--seed");
    if (o->format != MHA_FORMAT_TEXT && o->format != MHA_FORMAT_JSON)
        return usage_error("%s: the circuits are text or json", "--format");
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
        return usage_error("%s cannot be combined with --dump, which prints and opens no "
                           "screen; --print-lesson N prints a lesson's scenes",
                           other);
    if (other)
        return usage_error("%s cannot be combined with --dump, which prints and opens no screen",
                           other);
    return CLI_CONTINUE;
}

/* Options that do not go together. */
static int combinations(const struct cli_options *o)
{
    int rc = export_torch_combinations(o);
    if (rc != CLI_CONTINUE || o->export_torch)
        return rc;
    rc = generate_combinations(o);
    if (rc != CLI_CONTINUE || o->generate)
        return rc;
    rc = screen_combinations(o);
    if (rc == CLI_CONTINUE)
        rc = dump_combinations(o);
    if (rc == CLI_CONTINUE)
        rc = circuits_combinations(o);
    if (rc == CLI_CONTINUE)
        rc = train_combinations(o);
    if (rc != CLI_CONTINUE || o->train || o->grad)
        return rc;
    const bool model = o->load && model_io_is_model_file(o->load);
    if (model && (o->d_model || o->seed >= 0))
        return usage_error("%s cannot be combined with --load MODEL: the model fixes its d_model "
                           "and numbers (--tokens sets its words, --seed the draws of --generate)",
                           o->d_model ? "--d-model" : "--seed");
    if (o->load && !model && (o->tokens || o->d_model || o->seed >= 0))
        return usage_error("%s cannot be combined with --load: the example file fixes its "
                           "tokens, d_model and numbers",
                           o->tokens    ? "--tokens"
                           : o->d_model ? "--d-model"
                                        : "--seed");
    if (o->step && !o->lesson && !o->replay) /* with --replay, the recording may name one */
        return usage_error("%s needs --lesson N|FILE", "--step");
    if (o->lesson && (o->load || o->tokens || o->d_model || o->heads || o->seed >= 0))
        return usage_error("%s cannot be combined with --lesson: the lesson's scenes set up "
                           "the example",
                           o->load      ? "--load"
                           : o->tokens  ? "--tokens"
                           : o->d_model ? "--d-model"
                           : o->heads   ? "--heads"
                                        : "--seed");
    if (o->layer >= 0 && (!o->load || !model_io_is_model_file(o->load)))
        return no_model(
            o->load,
            "--layer shows a layer of a model of layers: give --load MODEL (with --dump STAGE or "
            "circuits, or in the explorer), or --train TASK --layers N for the training screen");
    if (o->speed_given && !o->replay)
        return usage_error("%s needs --replay FILE", "--speed");
    if (o->force && !o->record)
        return usage_error("%s needs --record FILE", "--force");
    if (o->record && o->replay)
        return usage_error("%s cannot be combined with --replay: a replay is not recorded again",
                           "--record");
    if (o->format_given && o->dump_stage == CLI_NO_DUMP && !o->print_lesson)
        return usage_error("%s needs --dump STAGE or --print-lesson", "--format");
    return CLI_CONTINUE;
}

/* Option c (getopt's) with its value: kept or noted as the table says, or
 * handled by option(); CLI_CONTINUE or an exit status. */
static int table_option(int c, const char *arg, struct cli_options *o)
{
    int n;
    const struct cli_opt *t = cli_opt_table(&n);
    if (c < CLI_OPT_ROW || c >= CLI_OPT_ROW + n)
        return option(c, arg, o); /* -h, -V */
    const struct cli_opt *row = &t[c - CLI_OPT_ROW];
    o->given |= 1ULL << (c - CLI_OPT_ROW);
    char *field = (char *)o + row->field;
    switch (row->store) {
    case CLI_STORE_TEXT:
        memcpy(field, &arg, sizeof arg);
        return CLI_CONTINUE;
    case CLI_STORE_FLAG:
        *(bool *)(void *)field = true;
        return CLI_CONTINUE;
    case CLI_STORE_CODE:
        break;
    }
    return option(row->id, arg, o);
}

int cli_parse(int argc, char **argv, struct cli_options *o)
{
    memset(o, 0, sizeof *o);
    o->seed = -1;
    o->dump_stage = CLI_NO_DUMP;
    o->format = MHA_FORMAT_TEXT;
    o->speed = 1.0;
    o->temperature = 1.0;
    o->layer = -1;
    optind = 0; /* glibc: start again from argv[1], whatever an earlier call left */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hV", cli_opt_long_options(), NULL)) != -1) {
        if (c == ':')
            return usage_error("%s needs a value", argv[optind - 1]);
        if (c == '?')
            return usage_error("unknown option '%s'", argv[optind - 1]);
        const int rc = table_option(c, optarg, o);
        if (rc != CLI_CONTINUE)
            return rc;
    }
    /* --generate, --export-torch and --grad take only their own options:
     * with another tool's (--list-lessons, --reset-progress) they say so */
    const bool alone = o->generate || o->export_torch || o->grad;
    if (o->check_lessons && !alone) {
        o->check_files = argv + optind;
        o->n_check_files = argc - optind;
        return CLI_CONTINUE;
    }
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (!alone && (o->list_lessons || o->print_lesson || (o->reset_progress && !o->lesson)))
        return CLI_CONTINUE;
    return combinations(o);
}
