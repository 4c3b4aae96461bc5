/* cli_options.c - the options of mha-explorer: parsing and checking each
 * value, and the example they describe (which options go together is
 * cli_combinations.c's, --help's text cli_help.c's). */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

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
#include "engine/text_check.h"
#include "train/train.h"

static const char *prog = "mha-explorer";

/* Parse a whole decimal number in [lo, hi]; 0 on success. */
static int parse_number(const char *opt, const char *s, long long lo, long long hi, long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    char shown[256];
    if (s[0] == '\0' || *end != '\0') {
        fprintf(stderr, "%s: %s: '%s' is not a whole number\n", prog, opt,
                mha_text_escape(s, shown, sizeof shown));
        return -1;
    }
    if (errno == ERANGE) { /* a whole number, past what any option takes */
        fprintf(stderr, "%s: %s: %s is too %s; expected %lld..%lld\n", prog, opt,
                mha_text_escape(s, shown, sizeof shown), v < 0 ? "small" : "large", lo, hi);
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
    char shown[256];
    if (s[0] == '\0' || *end != '\0' || isnan(v)) {
        fprintf(stderr, "%s: %s: '%s' is not a number\n", prog, opt,
                mha_text_escape(s, shown, sizeof shown));
        return -1;
    }
    if (errno == ERANGE || !isfinite(v)) { /* a number, past what a double holds */
        const bool tiny = isfinite(v) && fabs(v) < 1.0;
        fprintf(stderr, "%s: %s: %s is too %s%s; expected a number from %g to %g\n", prog, opt,
                mha_text_escape(s, shown, sizeof shown),
                tiny    ? "close to 0"
                : v < 0 ? "far below 0"
                        : "large",
                tiny ? " to be held exactly (below 2.2e-308)" : "", lo, hi);
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
        return model_io_example_top_p(o->load, o->tokens, 1.0f, o->top_p, "--tokens", o->layer,
                                      err);
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

/* --compare variants=standard,no-wo: attention blocks, 1..4 of them. */
static int compare_variants(const char *arg, struct cli_options *o)
{
    const int max = (int)(sizeof o->compare / sizeof o->compare[0]);
    const char *p = arg + 9;
    while (*p) {
        char one[TRAIN_VARIANT_NAME_MAX];
        const size_t len = strcspn(p, ",");
        struct mha_error err;
        if (len == 0 || len >= sizeof one)
            return cli_usage_error("--compare: expected variants separated by commas, as in "
                                   "--compare variants=standard,no-wo; got '%s'",
                                   arg);
        snprintf(one, sizeof one, "%.*s", (int)len, p);
        if (o->n_compare < max && train_variant_parse(one, &o->compare_variant[o->n_compare], &err))
            return cli_usage_error("--compare: %s", err.text);
        if (o->n_compare == max)
            return cli_usage_error("--compare: at most 4 runs side by side, got '%s'", arg);
        o->compare[o->n_compare++] = 0;
        p += len;
        if (*p && !*++p)
            return cli_usage_error("--compare: '%s' ends with a comma", arg);
    }
    if (o->n_compare == 0)
        return cli_usage_error("--compare: expected variants such as %s",
                               "variants=standard,no-wo");
    return CLI_CONTINUE;
}

/* --compare 1,2,4: head counts, comma-separated, 1..4 of them; --compare
 * layers=1,2: layer counts; variants=...: attention blocks. */
static int compare_option(const char *arg, struct cli_options *o)
{
    const int max = (int)(sizeof o->compare / sizeof o->compare[0]);
    o->n_compare = 0;
    o->compare_variants = !strncmp(arg, "variants=", 9);
    if (o->compare_variants) {
        o->compare_layers = false;
        return compare_variants(arg, o);
    }
    o->compare_layers = !strncmp(arg, "layers=", 7);
    const char *p = o->compare_layers ? arg + 7 : arg;
    const int most = o->compare_layers ? TRAIN_MAX_LAYERS : TRAIN_MAX_D_MODEL;
    while (*p) {
        char *end;
        errno = 0;
        const long h = strtol(p, &end, 10);
        if (end == p || errno || h < 1 || h > most || (*end && *end != ','))
            return cli_usage_error(
                o->compare_layers ? "--compare: expected layer counts from 1 to 4 separated by "
                                    "commas, as in --compare layers=1,2; got '%s'"
                                  : "--compare: expected head counts separated by commas, as "
                                    "in --compare 1,2 (or layer counts: layers=1,2); got '%s'",
                arg);
        if (o->n_compare == max)
            return cli_usage_error("--compare: at most 4 runs side by side, got '%s'", arg);
        o->compare[o->n_compare++] = (int)h;
        p = *end ? end + 1 : end;
        if (*end && !*p)
            return cli_usage_error("--compare: '%s' ends with a comma", arg);
    }
    if (o->n_compare == 0)
        return cli_usage_error("--compare: expected %s", o->compare_layers
                                                             ? "layer counts such as layers=1,2"
                                                             : "head counts such as 1,2");
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
    case OPT_TOP_P:
        if (parse_seconds("--top-p", arg, -HUGE_VAL, HUGE_VAL, &o->top_p))
            return CLI_EXIT_USAGE;
        if (!(o->top_p > 0.0 && o->top_p <= 1.0)) {
            fprintf(stderr,
                    "%s: --top-p: %s is out of range; expected a number above 0 and at most 1 "
                    "(the share of the probability the words drawn among hold)\n",
                    prog, arg);
            return CLI_EXIT_USAGE;
        }
        o->top_p_given = true;
        break;
    case OPT_LAYERS:
        if (parse_number("--layers", arg, 1, TRAIN_MAX_LAYERS, &n))
            return CLI_EXIT_USAGE;
        o->layers = (int)n;
        break;
    case OPT_VARIANT: {
        struct mha_error err;
        if (train_variant_parse(arg, &o->variant, &err))
            return cli_usage_error("--variant: %s", err.text);
        o->variant_text = arg;
        break;
    }
    case OPT_LAYER:
        if (parse_number("--layer", arg, 0, TRAIN_MAX_LAYERS - 1, &n))
            return CLI_EXIT_USAGE;
        o->layer = (int)n;
        break;
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
    return cli_usage_error(msg, arg);
}

/* One option with its value; CLI_CONTINUE or an exit status. */
static int option(int c, const char *arg, struct cli_options *o)
{
    long long n;
    switch (c) {
    case OPT_HELP:
        cli_print_help();
        return 0;
    case OPT_MAN:
        return cli_show_man();
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
        else if (strcmp(arg, "lens") == 0)
            o->dump_stage = CLI_DUMP_LENS;
        else if (strcmp(arg, "patching") == 0)
            o->dump_stage = CLI_DUMP_PATCHING;
        else if ((o->dump_stage = mha_stage_from_name(arg)) < 0)
            return unknown_stage("--dump", arg, ", ", " or all");
        break;
    case OPT_FORMAT:
        if ((o->format = mha_format_from_name(arg)) < 0) {
            char msg[256], list[128];
            snprintf(msg, sizeof msg, "--format: unknown format '%%s'; expected %s",
                     mha_format_list(MHA_FORMAT_ANY, " or ", list, sizeof list));
            return cli_usage_error(msg, arg);
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
            return cli_usage_error(msg, arg);
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
    o->top_p = 1.0;
    o->layer = -1;
    optind = 0; /* glibc: start again from argv[1], whatever an earlier call left */
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hV", cli_opt_long_options(), NULL)) != -1) {
        if (c == ':')
            return cli_usage_error("%s needs a value", argv[optind - 1]);
        if (c == '?')
            return cli_usage_error("unknown option '%s'", argv[optind - 1]);
        const int rc = table_option(c, optarg, o);
        if (rc != CLI_CONTINUE)
            return rc;
    }
    /* --check-lessons takes files, but with --generate, an export or --grad,
     * which take only their own options, they are unexpected */
    const bool alone = o->generate || o->export_torch || o->export_safetensors || o->grad;
    if (o->check_lessons && !alone) {
        o->check_files = argv + optind;
        o->n_check_files = argc - optind;
        return cli_combinations(o);
    }
    if (optind < argc)
        return cli_usage_error("unexpected argument '%s'", argv[optind]);
    return cli_combinations(o);
}
