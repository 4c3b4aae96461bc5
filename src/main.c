/* main.c - the command line: parse options, build the example, then print a
 * stage (--dump) or open the explorer. */
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <locale.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "catalog.h"
#include "dump.h"
#include "export.h"
#include "lesson_html.h"
#include "lesson_state.h"
#include "example_io.h"
#include "mat.h"
#include "mha.h"
#include "mha_config.h"
#include "paths.h"
#if MHA_HAVE_UI
#include "ui.h"
#endif

#define EXIT_USAGE 2

static const char *prog = "mha-explorer";

static const char usage_text[] =
    "Usage: mha-explorer [OPTION]...\n"
    "Explore transformer multi-head attention step by step, with real numbers.\n"
    "\n"
    "With no --dump, opens the interactive explorer in the terminal on the\n"
    "step-by-step example (4 tokens, d_model 6, 2 heads, seed 42).\n"
    "\n"
    "Example:\n"
    "  --load FILE          take the example from a JSON example file\n"
    "  --tokens \"T1 T2 ..\"  token labels, separated by spaces (1..1024 tokens)\n"
    "  --d-model N          model width d_model (1..2048, default 6)\n"
    "  --heads H            number of heads, a divisor of d_model (default 2, or 1\n"
    "                       when d_model is odd); each head gets d_k = d_model / H\n"
    "  --seed S             seed for the generated numbers (default 42)\n"
    "  --causal             mask every key after the query's own position\n"
    "  --no-scale           do not divide scores by sqrt(d_k)\n"
    "\n"
    "Output:\n"
    "  --dump STAGE         print STAGE and exit, no terminal needed; STAGE is one of\n"
    "                       input projection split transpose attention merge output\n"
    "                       all (or its number 0..6)\n"
    "  --format FMT         text (default), json, svg, html, markdown, csv or latex;\n"
    "                       --print-lesson takes text or html\n"
    "  --stage STAGE        stage the explorer opens on (default input)\n"
    "\n"
    "Lessons:\n"
    "  --list-lessons       list the lessons: number, title, steps\n"
    "  --check-lessons [FILE]...  check the bundled lessons, or the files named;\n"
    "                       prints file:line: what is wrong, exit status 2 if any\n"
    "  --print-lesson N|FILE  print a lesson as text, every scene with its numbers\n"
    "  --lesson N|FILE      open the explorer on a lesson, where you left it\n"
    "  --step N             with --lesson: start on step N (1 = the first)\n"
    "\n"
    "Explorer:\n"
    "  --view NAME          open on a view instead of a stage: shapes, cost, heads\n"
    "  --focus \"SPEC\"       put the cursor on a cell of the starting stage, e.g.\n"
    "                       \"weights, head 1, row 2, col 3\" (rows and columns by\n"
    "                       token or 0-based index)\n"
    "  --bench-frames N     no interaction and no terminal needed: redraw N frames\n"
    "                       off screen and print the median time\n"
    "\n"
    "  -h, --help           show this help and exit\n"
    "  -V, --version        show the version and exit\n"
    "\n"
    "--tokens, --d-model and --seed describe a generated example and cannot be\n"
    "combined with --load; --heads, --causal and --no-scale apply to either.\n"
    "\n"
    "Exit status: 0 on success, 1 on an internal failure, 2 on a usage or input error.\n";

struct options {
    const char *load;
    const char *tokens;
    int d_model;        /* 0 = not given */
    int heads;          /* 0 = not given */
    long long seed;     /* -1 = not given */
    bool causal;
    bool no_scale;
    int dump_stage;     /* -2 = no dump */
    int format;
    int stage;
    const char *print_lesson;
    bool list_lessons;
    bool check_lessons;
    const char *lesson; /* --lesson N|FILE */
    int step;           /* --step N, 1-based; 0 = not given */
    const char *view;
    const char *focus;
    int bench_frames;
};

static int usage_error(const char *fmt, const char *arg)
{
    fprintf(stderr, "%s: ", prog);
    fprintf(stderr, fmt, arg);
    fprintf(stderr, "\nTry '%s --help' for more information.\n", prog);
    return EXIT_USAGE;
}

/* Parse a whole decimal number in [lo, hi]; 0 on success. */
static int parse_number(const char *opt, const char *s, long long lo, long long hi,
                        long long *out)
{
    char *end;
    errno = 0;
    long long v = strtoll(s, &end, 10);
    if (s[0] == '\0' || *end != '\0' || errno == ERANGE) {
        fprintf(stderr, "%s: %s: '%s' is not a whole number\n", prog, opt, s);
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

static void report(const struct mha_error *err)
{
    char buf[MHA_ERROR_FILE_MAX + MHA_ERROR_TEXT_MAX + 64];
    fprintf(stderr, "%s: %s\n", prog, mha_error_format(err, buf, sizeof buf));
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

static struct mha_example *build_example(const struct options *o, struct mha_error *err)
{
    struct mha_example *ex = NULL;
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
                mha_error_set(err, "--tokens: %d tokens; at most %d are allowed", n,
                              MHA_MAX_TOKENS);
                return NULL;
            }
        }
        int d = o->d_model ? o->d_model : 6;
        int h = o->heads ? o->heads : (d % 2 == 0 ? 2 : 1);
        uint32_t seed = o->seed >= 0 ? (uint32_t)o->seed : 42u;
        ex = mha_example_generated(n, (const char *const *)tokens, d, h, seed, err);
        free_tokens(tokens, n);
        if (!ex) {
            if (o->heads)
                prefix_error(err, "--heads: ");
            return NULL;
        }
    }
    if (o->causal)
        ex->causal = true;
    if (o->no_scale)
        ex->scaled = false;
    return ex;
}

/* Formats above this are export formats (svg, html, ...). */
#define FORMAT_EXPORT 100

/* Print the stage to a buffer first so a failure leaves stdout untouched. */
static int run_dump(const struct options *o, const struct mha_example *ex)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_trace *t = mha_run(ex, &err);
    if (!t) {
        report(&err);
        return EXIT_USAGE;
    }
    char *buf = NULL;
    size_t len = 0;
    FILE *mem = open_memstream(&buf, &len);
    int rc = 0;
    if (!mem) {
        fprintf(stderr, "%s: out of memory while formatting the output\n", prog);
        rc = EXIT_FAILURE;
    } else if (o->format >= FORMAT_EXPORT) {
        if (export_write(mem, ex, t, o->dump_stage,
                         (enum export_format)(o->format - FORMAT_EXPORT), &err) != 0) {
            report(&err);
            rc = EXIT_USAGE;
        }
    } else if (dump_write(mem, ex, t, o->dump_stage, (enum dump_format)o->format) != 0) {
        fprintf(stderr, "%s: out of memory while formatting the output\n", prog);
        rc = EXIT_FAILURE;
    }
    if (mem && fclose(mem) != 0 && rc == 0) {
        fprintf(stderr, "%s: out of memory while formatting the output\n", prog);
        rc = EXIT_FAILURE;
    }
    if (rc == 0 && (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0)) {
        fprintf(stderr, "%s: cannot write the output: %s\n", prog, strerror(errno));
        rc = EXIT_FAILURE;
    }
    free(buf);
    mha_trace_free(t);
    return rc;
}

static const char *lessons_dir(void)
{
    return mha_data_path("lessons");
}

static char *assets_dir(void)
{
    const char *p = mha_data_path("assets");
    return strdup(p ? p : "assets");
}

static int list_lessons(void)
{
    struct lesson_catalog cat;
    if (lesson_catalog_load(&cat, lessons_dir()) != 0) {
        fprintf(stderr, "%s: cannot find the lessons folder (set MHA_DATA_DIR to the folder "
                        "that holds lessons/)\n",
                prog);
        return EXIT_USAGE;
    }
    for (int i = 0; i < cat.n; i++) {
        struct lesson *l = lesson_load(cat.paths[i]);
        if (!l)
            continue;
        printf("%2d  %-48s %2d steps%s\n", l->number, l->title ? l->title : "(no title)",
               l->n_steps, l->n_diags ? "  (has problems: see --check-lessons)" : "");
        lesson_free(l);
    }
    lesson_catalog_done(&cat);
    return 0;
}

static int check_lessons(char **files, int n_files)
{
    struct lesson_catalog cat = {0};
    if (n_files == 0) {
        if (lesson_catalog_load(&cat, lessons_dir()) != 0 || cat.n == 0) {
            fprintf(stderr, "%s: no lessons found to check\n", prog);
            lesson_catalog_done(&cat);
            return EXIT_USAGE;
        }
        files = cat.paths;
        n_files = cat.n;
    }
    char *assets = assets_dir();
    int problems = 0;
    for (int i = 0; i < n_files; i++) {
        struct lesson *l = lesson_load(files[i]);
        if (!l) {
            fprintf(stderr, "%s: out of memory\n", prog);
            problems++;
            continue;
        }
        if (l->n_diags == 0 || l->steps)
            lesson_check(l, assets);
        for (int d = 0; d < l->n_diags; d++) {
            if (l->diags[d].line > 0)
                printf("%s:%d: %s\n", files[i], l->diags[d].line, l->diags[d].text);
            else
                printf("%s: %s\n", files[i], l->diags[d].text);
        }
        problems += l->n_diags;
        lesson_free(l);
    }
    fprintf(stderr, "%d %s checked, %d %s\n", n_files, n_files == 1 ? "lesson" : "lessons",
            problems, problems == 1 ? "problem" : "problems");
    free(assets);
    lesson_catalog_done(&cat);
    return problems ? EXIT_USAGE : 0;
}

/* A lesson named by number (bundled) or by path; NULL + message if not found. */
static char *find_lesson(const char *spec)
{
    struct lesson_catalog cat = {0};
    lesson_catalog_load(&cat, lessons_dir());
    char *path = lesson_catalog_resolve(&cat, spec);
    lesson_catalog_done(&cat);
    if (!path)
        fprintf(stderr, "%s: there is no lesson %s (see --list-lessons)\n", prog, spec);
    return path;
}

static int print_lesson(const char *spec, int format)
{
    bool html = format == FORMAT_EXPORT + EXPORT_FORMAT_HTML;
    if (format != DUMP_FORMAT_TEXT && !html) {
        fprintf(stderr, "%s: --print-lesson prints text or html\n", prog);
        return EXIT_USAGE;
    }
    char *path = find_lesson(spec);
    if (!path)
        return EXIT_USAGE;
    struct lesson *l = lesson_load(path);
    char *assets = assets_dir();
    int rc = 0;
    if (l && l->n_diags == 0)
        lesson_check(l, assets);
    if (!l || l->n_diags) {
        for (int d = 0; l && d < l->n_diags; d++)
            fprintf(stderr, "%s:%d: %s\n", path, l->diags[d].line, l->diags[d].text);
        fprintf(stderr, "%s: %s has problems; nothing printed\n", prog, path);
        rc = EXIT_USAGE;
    } else {
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);
        int printed = -1;
        if (mem) {
            printed = html ? lesson_print_html(mem, l, assets)
                           : lesson_print_text(mem, l, assets, 78);
            if (fclose(mem) != 0)
                printed = -1;
        }
        if (printed != 0) {
            fprintf(stderr, "%s: cannot format the lesson\n", prog);
            rc = EXIT_FAILURE;
        } else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
            fprintf(stderr, "%s: cannot write the output: %s\n", prog, strerror(errno));
            rc = EXIT_FAILURE;
        }
        free(buf);
    }
    lesson_free(l);
    free(assets);
    free(path);
    return rc;
}

/* --lesson, --step, --view and --focus checked before the terminal is
 * touched; *path gets the lesson's file (free it).  0, or an exit status. */
static int check_explorer_options(const struct options *o, const struct mha_example *ex,
                                  char **path)
{
    *path = NULL;
    if (o->view) {
        bool known = false;
        for (int v = LESSON_VIEW_NONE; v <= LESSON_VIEW_HEADS; v++)
            known = known || !strcmp(o->view, lesson_view_name((enum lesson_view)v));
        if (!known)
            return usage_error("--view: unknown view '%s'; expected shapes, cost, heads or none",
                               o->view);
    }
    if (o->focus && !o->lesson) {
        struct lesson_focus f;
        struct mha_error err;
        mha_error_clear(&err);
        if (lesson_focus_resolve(o->focus, o->stage, ex, &f, &err) != 0) {
            fprintf(stderr, "%s: --%s\n", prog, err.text); /* "focus: ..." */
            return EXIT_USAGE;
        }
    }
    if (!o->lesson)
        return 0;
    *path = find_lesson(o->lesson);
    if (!*path)
        return EXIT_USAGE;
    struct lesson *l = lesson_load(*path);
    char *assets = assets_dir();
    int rc = 0;
    if (l && l->n_diags == 0)
        lesson_check(l, assets);
    if (!l || l->n_diags || l->n_steps == 0) {
        for (int d = 0; l && d < l->n_diags; d++)
            fprintf(stderr, "%s:%d: %s\n", *path, l->diags[d].line, l->diags[d].text);
        fprintf(stderr, "%s: %s has problems; it cannot be opened\n", prog, *path);
        rc = EXIT_USAGE;
    } else if (o->step > l->n_steps) {
        fprintf(stderr, "%s: --step %d: %s has %d steps\n", prog, o->step, *path, l->n_steps);
        rc = EXIT_USAGE;
    }
    lesson_free(l);
    free(assets);
    if (rc) {
        free(*path);
        *path = NULL;
    }
    return rc;
}

static int run_explorer(const struct options *o, struct mha_example *ex)
{
    char *lesson_path = NULL;
    int rc = check_explorer_options(o, ex, &lesson_path);
    if (rc) {
        mha_example_free(ex);
        return rc;
    }
    if (o->bench_frames <= 0 && (!isatty(STDOUT_FILENO) || !isatty(STDIN_FILENO))) {
        free(lesson_path);
        fprintf(stderr,
                "%s: the explorer needs a terminal, but standard %s is not one.\n"
                "To print stages without a terminal use --dump STAGE, e.g.\n"
                "  %s --dump attention --format text\n",
                prog, isatty(STDIN_FILENO) ? "output" : "input", prog);
        mha_example_free(ex);
        return EXIT_USAGE;
    }
#if MHA_HAVE_UI
    struct ui_options uo = {.stage = o->stage,
                            .load_path = o->load,
                            .bench_frames = o->bench_frames,
                            .lesson_path = lesson_path,
                            .lesson_step = o->step,
                            .view = o->view,
                            .focus = o->focus};
    rc = ui_run(ex, &uo);
    free(lesson_path);
    return rc;
#else
    free(lesson_path);
    fprintf(stderr, "%s: this build has no interactive explorer (ncursesw was not found); "
                    "use --dump STAGE\n",
            prog);
    mha_example_free(ex);
    return EXIT_USAGE;
#endif
}

int main(int argc, char **argv)
{
    setlocale(LC_ALL, "");
    enum { OPT_LOAD = 256, OPT_DUMP, OPT_FORMAT, OPT_TOKENS, OPT_DMODEL, OPT_HEADS, OPT_SEED,
           OPT_CAUSAL, OPT_NOSCALE, OPT_STAGE, OPT_LIST_LESSONS, OPT_CHECK_LESSONS,
           OPT_PRINT_LESSON, OPT_LESSON, OPT_STEP, OPT_VIEW, OPT_FOCUS, OPT_BENCH_FRAMES };
    static const struct option longopts[] = {
        {"load", required_argument, NULL, OPT_LOAD},
        {"dump", required_argument, NULL, OPT_DUMP},
        {"format", required_argument, NULL, OPT_FORMAT},
        {"tokens", required_argument, NULL, OPT_TOKENS},
        {"d-model", required_argument, NULL, OPT_DMODEL},
        {"heads", required_argument, NULL, OPT_HEADS},
        {"seed", required_argument, NULL, OPT_SEED},
        {"causal", no_argument, NULL, OPT_CAUSAL},
        {"no-scale", no_argument, NULL, OPT_NOSCALE},
        {"stage", required_argument, NULL, OPT_STAGE},
        {"list-lessons", no_argument, NULL, OPT_LIST_LESSONS},
        {"check-lessons", no_argument, NULL, OPT_CHECK_LESSONS},
        {"print-lesson", required_argument, NULL, OPT_PRINT_LESSON},
        {"lesson", required_argument, NULL, OPT_LESSON},
        {"step", required_argument, NULL, OPT_STEP},
        {"view", required_argument, NULL, OPT_VIEW},
        {"focus", required_argument, NULL, OPT_FOCUS},
        {"bench-frames", required_argument, NULL, OPT_BENCH_FRAMES},
        {"help", no_argument, NULL, 'h'},
        {"version", no_argument, NULL, 'V'},
        {NULL, 0, NULL, 0},
    };
    struct options o = {.seed = -1, .dump_stage = -2, .format = DUMP_FORMAT_TEXT};
    bool format_given = false;
    long long n;
    opterr = 0;
    int c;
    while ((c = getopt_long(argc, argv, ":hV", longopts, NULL)) != -1) {
        switch (c) {
        case 'h':
            fputs(usage_text, stdout);
            return 0;
        case 'V':
            printf("mha-explorer %s (matrix multiply: %s)\n", MHA_VERSION,
                   mat_backend_name(mat_get_backend()));
            return 0;
        case OPT_LOAD:
            o.load = optarg;
            break;
        case OPT_DUMP:
            if (strcmp(optarg, "all") == 0)
                o.dump_stage = DUMP_ALL;
            else if ((o.dump_stage = mha_stage_from_name(optarg)) < 0)
                return usage_error("--dump: unknown stage '%s'; expected input, projection, "
                                   "split, transpose, attention, merge, output or all",
                                   optarg);
            break;
        case OPT_FORMAT:
            if ((o.format = dump_format_from_name(optarg)) < 0) {
                int e = export_format_from_name(optarg);
                if (e < 0)
                    return usage_error("--format: unknown format '%s'; expected text, json, "
                                       "svg, html, markdown, csv or latex",
                                       optarg);
                o.format = FORMAT_EXPORT + e;
            }
            format_given = true;
            break;
        case OPT_TOKENS:
            o.tokens = optarg;
            break;
        case OPT_DMODEL:
            if (parse_number("--d-model", optarg, 1, MHA_MAX_D_MODEL, &n))
                return EXIT_USAGE;
            o.d_model = (int)n;
            break;
        case OPT_HEADS:
            if (parse_number("--heads", optarg, 1, MHA_MAX_D_MODEL, &n))
                return EXIT_USAGE;
            o.heads = (int)n;
            break;
        case OPT_SEED:
            if (parse_number("--seed", optarg, 0, UINT32_MAX, &n))
                return EXIT_USAGE;
            o.seed = n;
            break;
        case OPT_CAUSAL:
            o.causal = true;
            break;
        case OPT_NOSCALE:
            o.no_scale = true;
            break;
        case OPT_STAGE:
            if ((o.stage = mha_stage_from_name(optarg)) < 0)
                return usage_error("--stage: unknown stage '%s'; expected input, projection, "
                                   "split, transpose, attention, merge or output",
                                   optarg);
            break;
        case OPT_LIST_LESSONS:
            o.list_lessons = true;
            break;
        case OPT_CHECK_LESSONS:
            o.check_lessons = true;
            break;
        case OPT_PRINT_LESSON:
            o.print_lesson = optarg;
            break;
        case OPT_LESSON:
            o.lesson = optarg;
            break;
        case OPT_STEP:
            if (parse_number("--step", optarg, 1, 10000, &n))
                return EXIT_USAGE;
            o.step = (int)n;
            break;
        case OPT_VIEW:
            o.view = optarg;
            break;
        case OPT_FOCUS:
            o.focus = optarg;
            break;
        case OPT_BENCH_FRAMES:
            if (parse_number("--bench-frames", optarg, 1, 1000000, &n))
                return EXIT_USAGE;
            o.bench_frames = (int)n;
            break;
        case ':':
            return usage_error("%s needs a value", argv[optind - 1]);
        default:
            return usage_error("unknown option '%s'", argv[optind - 1]);
        }
    }
    if (o.check_lessons)
        return check_lessons(argv + optind, argc - optind);
    if (optind < argc)
        return usage_error("unexpected argument '%s'", argv[optind]);
    if (o.list_lessons)
        return list_lessons();
    if (o.print_lesson)
        return print_lesson(o.print_lesson, o.format);
    if (o.load && (o.tokens || o.d_model || o.seed >= 0))
        return usage_error("%s cannot be combined with --load: the example file fixes its "
                           "tokens, d_model and numbers",
                           o.tokens ? "--tokens" : o.d_model ? "--d-model" : "--seed");
    if (o.step && !o.lesson)
        return usage_error("%s needs --lesson N|FILE", "--step");
    if (o.lesson && (o.load || o.tokens || o.d_model || o.heads || o.seed >= 0))
        return usage_error("%s cannot be combined with --lesson: the lesson's scenes set up "
                           "the example",
                           o.load     ? "--load"
                           : o.tokens ? "--tokens"
                           : o.d_model ? "--d-model"
                           : o.heads  ? "--heads"
                                      : "--seed");
    if (format_given && o.dump_stage == -2 && !o.print_lesson)
        return usage_error("%s needs --dump STAGE or --print-lesson", "--format");

    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = build_example(&o, &err);
    if (!ex) {
        report(&err);
        return EXIT_USAGE;
    }
    if (o.dump_stage != -2) {
        int rc = run_dump(&o, ex);
        mha_example_free(ex);
        return rc;
    }
    return run_explorer(&o, ex);
}
