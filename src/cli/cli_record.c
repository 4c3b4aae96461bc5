/* cli_record.c - the files of --record and --replay on the command line: a
 * recording is written to a temporary file beside its name (safe_file.h)
 * and put there once its start lines are written, so a class can follow it
 * as it grows (never over an existing file without --force); it starts
 * with the options that reproduce the start, and a replay opens with the
 * options its recording carries. */
#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cli/cli.h"
#include "engine/mha.h"
#include "train/train.h"
#include "io/paths.h"

static const char *prog = "mha-explorer";

int cli_record_open(const char *path, bool force, struct cli_record *r)
{
    memset(r, 0, sizeof *r);
    r->force = force;
    struct stat sb;
    if (stat(path, &sb) == 0 && !force) {
        fprintf(stderr,
                "%s: --record: %s exists; a recording never replaces a file unless given "
                "--force\n",
                prog, path);
        return CLI_EXIT_USAGE;
    }
    /* refuses a FIFO or a device and a link planted in a shared folder; a
     * symbolic link stays one (its target is what gets replaced); the
     * temporary file has no name until it is placed (safe_file.h) */
    struct mha_error err;
    char msg[MHA_ERROR_FILE_MAX + MHA_ERROR_TEXT_MAX];
    if (safe_file_create(&r->sf, path, &err) != 0 || !(r->f = safe_file_stream(&r->sf, &err))) {
        safe_file_discard(&r->sf);
        fprintf(stderr, "%s: --record: %s\n", prog, mha_error_format(&err, msg, sizeof msg));
        return CLI_EXIT_USAGE;
    }
    return 0;
}

void cli_record_started(void *record)
{
    struct cli_record *r = record;
    if (!r->f || r->placed)
        return;
    struct mha_error err;
    if (fflush(r->f) == 0 && safe_file_place(&r->sf, NULL, r->force, &err) == 0)
        r->placed = true; /* from here the keys go straight into the file at its name */
}

int cli_record_finish(struct cli_record *r, const char *name, int status)
{
    if (!r->f)
        return status;
    bool bad = ferror(r->f) != 0 || r->error != 0;
    int e = r->error;
    if (fflush(r->f) != 0) {
        e = e ? e : errno;
        bad = true;
    }
    if (bad && !e) /* a write failed and its reason was not kept */
        e = EIO;
    const long size = ftell(r->f);
    struct mha_error err;
    if (safe_file_finish(&r->sf, &err) != 0) { /* fsync and close */
        e = e ? e : errno;
        bad = true;
    }
    r->f = NULL;
    if (r->placed) { /* at its name since the start */
        if (bad)
            fprintf(stderr,
                    "%s: --record: %s is incomplete: writing it failed (%s); the keys before the "
                    "failure are kept\n",
                    prog, name, safe_file_reason(e));
        return bad && !status ? EXIT_FAILURE : status;
    }
    if (size <= 0) { /* the explorer never started: nothing to keep */
        safe_file_discard(&r->sf);
        if (bad && status == 0) {
            fprintf(stderr, "%s: --record: cannot write %s: %s\n", prog, name, safe_file_reason(e));
            return EXIT_FAILURE;
        }
        return status;
    }
    /* what was written is kept, even after a write error: replay plays the
     * complete lines of a recording that was cut short */
    const int placed = safe_file_place(&r->sf, NULL, r->force, &err);
    if (placed != 0) {
        /* kept under a new name beside it (FILE.kept-XXXXXX) */
        char kept[PATH_MAX];
        if (safe_file_keep(&r->sf, kept, sizeof kept) != 0) {
            fprintf(stderr, "%s: --record: cannot put the recording at %s: %s; it is lost\n", prog,
                    name, placed == 1 ? strerror(EEXIST) : err.text);
            safe_file_discard(&r->sf);
            return status ? status : EXIT_FAILURE;
        }
        fprintf(stderr, "%s: --record: cannot put the recording at %s: %s; it is in %s\n", prog,
                name, placed == 1 ? strerror(EEXIST) : err.text, kept);
        return status ? status : EXIT_FAILURE;
    }
    if (bad) {
        fprintf(stderr,
                "%s: --record: %s is incomplete: writing it failed (%s); the keys before the "
                "failure are kept\n",
                prog, name, safe_file_reason(e));
        return status ? status : EXIT_FAILURE;
    }
    return status;
}

static const char *const stage_names[] = {"input",     "projection", "split", "transpose",
                                          "attention", "merge",      "output"};

/* add the option, and its value when there is one */
static int add(struct rec_start *s, const char *opt, const char *value)
{
    if (value && strlen(value) >= REC_MAX_ARG) {
        fprintf(stderr, "%s: --record: the value of %s is too long to record (%d bytes at most)\n",
                prog, opt, REC_MAX_ARG - 1);
        return CLI_EXIT_USAGE;
    }
    if (rec_start_add(s, opt) != 0 || (value && rec_start_add(s, value) != 0)) {
        fprintf(stderr, "%s: out of memory\n", prog);
        return EXIT_FAILURE;
    }
    return 0;
}

/* A file named on the command line as an absolute path (so a replay from
 * another folder opens the same file); path itself when it names no file
 * here (a lesson's number, a task's name). */
static const char *absolute(const char *path, char *buf)
{
    return path[0] != '/' && realpath(path, buf) ? buf : path;
}

/* The options of --train and --compare that reproduce the run: the task
 * (a task file's absolute path), the head counts side by side, and the
 * sizes, pace and words (--keep-case) of the training (d_model, heads and
 * seed are added with the example's). */
static int add_training(const struct cli_options *o, struct rec_start *s)
{
    char path[PATH_MAX], num[32];
    int rc = 0;
    if (!o->train)
        return 0;
    rc = add(s, "--train", train_task_find(o->train) ? o->train : absolute(o->train, path));
    if (!rc && o->n_compare) {
        char list[128] = "";
        size_t used = o->compare_layers     ? (size_t)snprintf(list, sizeof list, "layers=")
                      : o->compare_variants ? (size_t)snprintf(list, sizeof list, "variants=")
                                            : 0;
        for (int i = 0; i < o->n_compare && used < sizeof list; i++) {
            char v[TRAIN_VARIANT_NAME_MAX];
            if (o->compare_variants)
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", i ? "," : "",
                                         train_variant_name(&o->compare_variant[i], v, sizeof v));
            else
                used += (size_t)snprintf(list + used, sizeof list - used, "%s%d", i ? "," : "",
                                         o->compare[i]);
        }
        rc = add(s, "--compare", list);
    }
    const struct {
        const char *opt;
        int value;
    } ints[] = {{"--vocab", o->vocab},
                {"--context", o->context},
                {"--steps", o->steps},
                {"--layers", o->layers},
                {"--batch", o->batch}};
    for (size_t i = 0; !rc && i < sizeof ints / sizeof ints[0]; i++)
        if (ints[i].value > 0) {
            snprintf(num, sizeof num, "%d", ints[i].value);
            rc = add(s, ints[i].opt, num);
        }
    if (!rc && o->lr > 0.0) {
        snprintf(num, sizeof num, "%.17g", o->lr);
        rc = add(s, "--lr", num);
    }
    if (!rc && o->keep_case)
        rc = add(s, "--keep-case", NULL);
    if (!rc && o->variant_text)
        rc = add(s, "--variant", o->variant_text);
    return rc;
}

int cli_record_start_args(const struct cli_options *o, struct rec_start *s)
{
    char path[PATH_MAX];
    memset(s, 0, sizeof *s);
    char num[3][32];
    snprintf(num[0], sizeof num[0], "%d", o->d_model);
    snprintf(num[1], sizeof num[1], "%d", o->heads);
    snprintf(num[2], sizeof num[2], "%lld", o->seed);
    char autoplay[32];
    snprintf(autoplay, sizeof autoplay, "%.17g", o->autoplay);
    int rc = 0;
    /* the lesson's step is added by the explorer, as the lesson opened */
    if (!rc && o->lesson)
        rc =
            add(s, "--lesson",
                o->lesson[strspn(o->lesson, "0123456789")] ? absolute(o->lesson, path) : o->lesson);
    if (!rc && o->load)
        rc = add(s, "--load", absolute(o->load, path));
    if (!rc)
        rc = add_training(o, s);
    if (!rc && o->tokens)
        rc = add(s, "--tokens", o->tokens);
    if (!rc && o->d_model)
        rc = add(s, "--d-model", num[0]);
    if (!rc && o->heads)
        rc = add(s, "--heads", num[1]);
    if (!rc && o->seed >= 0)
        rc = add(s, "--seed", num[2]);
    if (!rc && o->causal)
        rc = add(s, "--causal", NULL);
    if (!rc && o->no_scale)
        rc = add(s, "--no-scale", NULL);
    if (!rc && o->stage > 0 && o->stage < MHA_STAGE_COUNT)
        rc = add(s, "--stage", stage_names[o->stage]);
    if (!rc && o->view)
        rc = add(s, "--view", o->view);
    if (!rc && o->focus)
        rc = add(s, "--focus", o->focus);
    if (!rc && o->corrupt)
        rc = add(s, "--corrupt", o->corrupt);
    if (!rc && o->theme)
        rc = add(s, "--theme", o->theme);
    if (!rc && o->present)
        rc = add(s, "--present", NULL);
    if (!rc && o->autoplay > 0.0)
        rc = add(s, "--autoplay", autoplay);
    if (rc)
        rec_start_free(s);
    return rc;
}

/* The options a recording's start may carry, and what their value may be:
 * nothing else of a start is used, and none names a file to open (a
 * bundled lesson or example, a task by name, are not files of the
 * student's choosing). */
enum start_value { SV_NONE, SV_ANY, SV_LESSON, SV_TASK, SV_EXAMPLE };
static const struct {
    const char *opt;
    enum start_value value;
} start_options[] = {
    {"--lesson", SV_LESSON}, {"--step", SV_ANY},       {"--load", SV_EXAMPLE},
    {"--train", SV_TASK},    {"--compare", SV_ANY},    {"--vocab", SV_ANY},
    {"--context", SV_ANY},   {"--steps", SV_ANY},      {"--batch", SV_ANY},
    {"--lr", SV_ANY},        {"--keep-case", SV_NONE}, {"--tokens", SV_ANY},
    {"--d-model", SV_ANY},   {"--heads", SV_ANY},      {"--seed", SV_ANY},
    {"--causal", SV_NONE},   {"--no-scale", SV_NONE},  {"--stage", SV_ANY},
    {"--view", SV_ANY},      {"--focus", SV_ANY},      {"--theme", SV_ANY},
    {"--present", SV_NONE},  {"--autoplay", SV_ANY},   {"--layers", SV_ANY},
    {"--corrupt", SV_ANY},
};

/* path is a file directly in the data directory's sub folder (a bundled
 * lesson or example). */
static bool bundled(const char *path, const char *sub)
{
    const char *dir = mha_data_path(sub);
    char want[PATH_MAX], real[PATH_MAX];
    if (!dir || !realpath(dir, want) || !realpath(path, real))
        return false;
    const size_t n = strlen(want);
    return strncmp(real, want, n) == 0 && real[n] == '/' && !strchr(real + n + 1, '/');
}

/* name is a bundled corpus ("sentences"). */
static bool is_corpus(const char *name)
{
    char names[256];
    cli_text_corpus_names(names, sizeof names);
    for (const char *p = names; *p;) {
        const size_t len = strcspn(p, ",");
        if (len == strlen(name) && !strncmp(p, name, len))
            return true;
        p += len;
        while (*p == ',' || *p == ' ')
            p++;
    }
    return false;
}

static bool value_fits(enum start_value v, const char *value)
{
    switch (v) {
    case SV_LESSON:
        return (value[0] && !value[strspn(value, "0123456789")]) || bundled(value, "lessons");
    case SV_TASK:
        return train_task_find(value) != NULL || is_corpus(value);
    case SV_EXAMPLE:
        return bundled(value, "assets/examples");
    default:
        return true;
    }
}

/* opt ("--load") is among the replay's own arguments, as "--load FILE" or
 * "--load=FILE". */
static bool given_again(const char *opt, int argc, char **argv)
{
    const size_t len = strlen(opt);
    for (int i = 1; i < argc; i++)
        if (!strncmp(argv[i], opt, len) && (argv[i][len] == '\0' || argv[i][len] == '='))
            return true;
    return false;
}

/* The start's arguments that are used (into keep, *n_keep of them), and
 * the ones left out named in note, but for those the replay's own command
 * line (argc, argv) gives again. */
static void start_filter(const struct rec_start *start, int argc, char **argv, char **keep,
                         int *n_keep, char *note, size_t n)
{
    size_t used = 0;
    *n_keep = 0;
    note[0] = '\0';
    for (int i = 0; i < start->n_args; i++) {
        const char *a = start->args[i];
        int k = -1;
        for (int j = 0; j < (int)(sizeof start_options / sizeof start_options[0]); j++)
            if (!strcmp(a, start_options[j].opt))
                k = j;
        const bool has_value = k >= 0 && start_options[k].value != SV_NONE;
        const char *value = has_value && i + 1 < start->n_args ? start->args[i + 1] : NULL;
        if (k >= 0 && (!has_value || (value && value_fits(start_options[k].value, value)))) {
            keep[(*n_keep)++] = start->args[i];
            if (has_value)
                keep[(*n_keep)++] = start->args[++i];
            continue;
        }
        /* left out, with the value that follows it */
        if (k < 0 && i + 1 < start->n_args && start->args[i + 1][0] != '-')
            value = start->args[i + 1];
        if (used < n && !given_again(a, argc, argv))
            used += (size_t)snprintf(note + used, n - used, "%s%s%s%s", used ? ", " : "", a,
                                     value ? " " : "", value ? value : "");
        if (value)
            i++;
    }
    /* nothing of the stream reaches the terminal as a control byte */
    for (char *p = note; *p; p++)
        if ((unsigned char)*p < 0x20 || *p == 0x7f)
            *p = '?';
}

int cli_replay_options(int argc, char **argv, const char *name, const struct recording *rec,
                       struct cli_options *o)
{
    if (rec->version < 2 || rec->start.n_args == 0) {
        if (!o->step || o->lesson)
            return CLI_CONTINUE;
        fprintf(stderr, "%s: --step needs --lesson N|FILE (%s does not name a lesson)\n", prog,
                name);
        return CLI_EXIT_USAGE;
    }
    /* the recorded options first, so those given now take precedence;
     * those that name a file are left out and said on the screen */
    char **keep = calloc((size_t)rec->start.n_args + 1, sizeof *keep);
    char **args = calloc((size_t)argc + (size_t)rec->start.n_args + 1, sizeof *args);
    if (!args || !keep) {
        free(keep);
        free(args);
        fprintf(stderr, "%s: out of memory\n", prog);
        return EXIT_FAILURE;
    }
    char note[sizeof o->stream_note];
    int n_keep;
    start_filter(&rec->start, argc, argv, keep, &n_keep, note, sizeof note);
    const int n = argc + n_keep;
    args[0] = argv[0];
    for (int i = 0; i < n_keep; i++)
        args[1 + i] = keep[i];
    for (int i = 1; i < argc; i++)
        args[n_keep + i] = argv[i];
    const int rc = cli_parse(n, args, o);
    free(args); /* o points into argv and the recording, not into args */
    free(keep);
    memcpy(o->stream_note, note, sizeof note);
    if (rc == CLI_CONTINUE && o->step && !o->lesson) {
        fprintf(stderr, "%s: --step needs --lesson N|FILE (%s does not name a lesson)\n", prog,
                name);
        return CLI_EXIT_USAGE;
    }
    if (rc != CLI_CONTINUE)
        fprintf(stderr, "%s: --replay: (the options include those %s was recorded with)\n", prog,
                name);
    return rc;
}
