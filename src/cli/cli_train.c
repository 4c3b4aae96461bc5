/* cli_train.c - training from the command line: the run the options
 * describe, --train ... --dump summary (headless, a progress bar on stderr
 * when it is a terminal), --grad MODEL --batch BATCH, and a model file
 * opened with --load. */
#include <errno.h>
#include <math.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "cli/cli.h"
#include "io/dump.h"
#include "io/model_io.h"
#include "engine/text_check.h"
#include "train/train.h"
#include "train/train_heads.h"
#include "train/train_text.h"

static const char *prog = "mha-explorer";

int cli_train_plan(const struct cli_options *o, struct cli_train_plan *p,
                   struct train_dataset **data, struct mha_error *err)
{
    *data = NULL;
    memset(p, 0, sizeof *p);
    const struct train_task *task = train_task_find(o->train);
    struct train_task *file_task = &p->file_task;
    bool is_text = false;
    if (!task) {
        *data = cli_text_dataset(o, &is_text, err);
        if (is_text && !*data)
            return -1;
    }
    if (o->keep_case && !is_text)
        return mha_error_set(err,
                             "--keep-case: '%s' is a task, not a text: its tokens are its own; "
                             "--keep-case keeps a text's words as written",
                             o->train);
    if (!task && *data) {
        train_task_from_dataset(file_task, *data);
        task = file_task;
    } else if (!task) {
        /* not a task's name: a task file, unless nothing of that name
         * exists (a path that exists but cannot be opened, a symbolic link
         * loop or a folder without permission, is reported as such by the
         * file reader) */
        struct stat st;
        if (lstat(o->train, &st) != 0 && (errno == ENOENT || errno == ENOTDIR)) {
            char names[256];
            mha_error_set(err,
                          "--train: unknown task '%s'; expected %s, or a task file (no file "
                          "of that name exists)",
                          o->train, train_task_names(names, sizeof names));
            return -1;
        }
        *data = model_io_load_dataset(o->train, err);
        if (!*data)
            return -1;
        train_task_from_dataset(file_task, *data);
        task = file_task;
    }
    struct train_run_options ro;
    train_run_options_default(&ro);
    if (o->steps)
        ro.steps = o->steps;
    if (o->layers)
        ro.layers = o->layers;
    ro.variant = o->variant;
    if (o->batch)
        ro.batch = o->batch;
    if (o->lr > 0)
        ro.lr = (float)o->lr;
    if (o->seed >= 0)
        ro.seed = (uint32_t)o->seed;
    if (is_text && !o->steps)
        ro.steps = TRAIN_TEXT_DEFAULT_STEPS;
    if (!is_text && !o->steps && task->default_steps)
        ro.steps = task->default_steps;
    if (!is_text && !(o->lr > 0) && task->default_lr > 0)
        ro.lr = task->default_lr;
    if (is_text && !(o->lr > 0))
        ro.lr = ro.layers > 1 ? TRAIN_TEXT_DEFAULT_LR_LAYERS : TRAIN_TEXT_DEFAULT_LR;
    const int d = o->d_model              ? o->d_model
                  : is_text               ? TRAIN_TEXT_DEFAULT_D_MODEL
                  : task->default_d_model ? task->default_d_model
                                          : TRAIN_DEFAULT_D_MODEL;
    const int h = o->heads ? o->heads : (d % TRAIN_DEFAULT_HEADS ? 1 : TRAIN_DEFAULT_HEADS);
    /* a text's --vocab and --context shaped its dataset, which sets both */
    const int vocab = is_text || !o->vocab ? (*data                 ? (*data)->vocab
                                              : task->default_vocab ? task->default_vocab
                                                                    : TRAIN_DEFAULT_VOCAB)
                                           : o->vocab;
    const int context = is_text || !o->context ? (*data                   ? (*data)->len
                                                  : task->default_context ? task->default_context
                                                                          : TRAIN_DEFAULT_CONTEXT)
                                               : o->context;
    struct mha_error sub;
    mha_error_clear(&sub);
    if (d > TRAIN_MAX_D_MODEL) {
        mha_error_set(err, "--d-model %d: a model that trains has d_model 1..%d", d,
                      TRAIN_MAX_D_MODEL);
    } else if (h > d || d % h) {
        mha_check_sizes(1, 1, d, h, &sub);
        mha_error_set(err, "--heads: %s", sub.text);
    } else if (train_variant_check(&ro.variant, d, h, &sub)) {
        mha_error_set(err, "%s: %s", o->compare_variants ? "--compare" : "--variant", sub.text);
    } else {
        p->task = task;
        p->d_model = d;
        p->heads = h;
        p->vocab = vocab;
        p->context = context;
        p->opt = ro;
        return 0;
    }
    train_dataset_free(*data);
    *data = NULL;
    return -1;
}

struct train_run *cli_train_build(const struct cli_options *o, struct train_dataset **data,
                                  struct mha_error *err)
{
    struct cli_train_plan p;
    if (cli_train_plan(o, &p, data, err) != 0)
        return NULL;
    struct train_run *run =
        train_run_new(p.task, p.d_model, p.heads, p.vocab, p.context, &p.opt, err);
    if (!run) {
        train_dataset_free(*data);
        *data = NULL;
    }
    return run;
}

static double now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec * 1e3 + (double)ts.tv_nsec / 1e6;
}

/* "[#####.....]  750/1500" on stderr, redrawn in place. */
static void progress(long done, long total)
{
    const int width = 30, fill = total ? (int)((long)done * width / total) : width;
    fprintf(stderr, "\rtraining [");
    for (int i = 0; i < width; i++)
        fputc(i < fill ? '#' : '.', stderr);
    fprintf(stderr, "] %ld/%ld", done, total);
    fflush(stderr);
}

/* The progress bar, after each evaluation (on a terminal). */
static void progress_at(long step, long limit, void *ctx)
{
    (void)ctx;
    progress(step, limit);
}

/* What each head was measured to do (train_heads.h) as JSON: its label
 * and the measures behind it. */
static void heads_json(FILE *f, const struct train_head_stats *roles, int heads)
{
    fprintf(f, "  \"heads\": [");
    for (int h = 0; h < heads; h++) {
        const struct train_head_stats *r = &roles[h];
        char label[64];
        train_head_label(r, label, sizeof label);
        fprintf(f,
                "%s\n    {\"label\": \"%s\", \"first\": %.4f, \"prev\": %.4f, \"self\": %.4f, "
                "\"copy\": %.4f, \"even\": %.4f}",
                h ? "," : "", label, (double)r->first, (double)r->prev, (double)r->self,
                (double)r->copy, (double)r->even);
    }
    fprintf(f, "\n  ],\n");
}

/* A run on a file: its held-out loss at its lowest and at the end beside
 * the training loss, and the signs that the file is too small to learn
 * from (train_fit.h), as JSON or a line each. */
static void fit_json(FILE *f, const struct train_run *run, const struct train_stopping *stop)
{
    const struct train_fit *fit = &stop->fit;
    const unsigned signs = train_run_fit_signs(stop, run);
    fprintf(f,
            "  \"fit\": {\"held_out_loss\": %.4f, \"training_loss\": %.4f, \"lowest\": %.4f, "
            "\"lowest_step\": %ld, \"min_words\": %d, \"too_small\": [",
            (double)fit->held, (double)fit->train, (double)fit->best, fit->best_step,
            TRAIN_FIT_MIN_WORDS);
    for (unsigned b = 1, n = 0; b <= TRAIN_FIT_RISING; b <<= 1)
        if (signs & b)
            fprintf(f, "%s\"%s\"", n++ ? ", " : "", train_fit_sign_name(b));
    fprintf(f, "]},\n");
}

static void fit_text(FILE *f, const struct train_run *run, const struct train_stopping *stop)
{
    const struct train_fit *fit = &stop->fit;
    const unsigned signs = train_run_fit_signs(stop, run);
    fprintf(f, "held out     loss %.4f at step %ld (lowest %.4f at step %ld); training %.4f\n",
            (double)fit->held, fit->step, (double)fit->best, fit->best_step, (double)fit->train);
    if (signs) {
        char why[512];
        train_fit_text(fit, signs, train_run_text_words(run), why, sizeof why);
        fprintf(f, "too small    %s\n", why + strlen("Too small to learn from: "));
    }
}

/* A task's accuracy per output with each head knocked out alone
 * (train_heads_ablate, on the held-out batch), as JSON ("knocked_out") or
 * text lines: what each head's label can be checked against.  Nothing when
 * a measure fails. */
static void knocked_outputs(FILE *f, struct train_run *run, int format)
{
    const struct train_config *c = &run->model->cfg;
    static float acc[TRAIN_MAX_D_MODEL][TRAIN_MAX_OUTPUTS];
    for (int h = 0; h < c->heads; h++) {
        bool knock[TRAIN_MAX_D_MODEL] = {false};
        knock[h] = true;
        if (train_heads_ablate(run->model, run->eval, knock, acc[h], NULL))
            return;
    }
    if (format == MHA_FORMAT_JSON)
        fprintf(f, "  \"knocked_out\": [");
    for (int h = 0; h < c->heads; h++) {
        if (format == MHA_FORMAT_JSON)
            fprintf(f, "%s\n    {\"head\": %d, \"accuracy\": {", h ? "," : "", h);
        else
            fprintf(f, "knocked out  head %d:", h);
        for (int k = 0; k < c->n_outputs; k++) {
            const double a = (double)acc[h][k];
            if (format == MHA_FORMAT_JSON) {
                fprintf(f, "%s", k ? ", " : "");
                cli_json_string(f, c->outputs[k].name); /* a task file's: any text */
                if (isnan(a))
                    fprintf(f, ": null");
                else
                    fprintf(f, ": %.4f", a);
            } else
                fprintf(f, "%s %s %.4f", k ? "," : "", c->outputs[k].name, a);
        }
        fprintf(f, format == MHA_FORMAT_JSON ? "}}" : "\n");
    }
    if (format == MHA_FORMAT_JSON)
        fprintf(f, "\n  ],\n");
}

/* The last step's figures beside the kept model's, when the run went back
 * to its best evaluation (train_run_keep_best). */
static void last_step_out(FILE *f, const struct train_run *run, const struct train_stopping *stop,
                          bool json)
{
    const struct train_config *c = &run->model->cfg;
    if (stop->last_step < 0) {
        if (!json)
            fprintf(f, "kept         the last step's model, %s\n",
                    run->model->step == stop->best_step ? "its best held-out evaluation"
                                                        : "its lowest held-out loss");
        return;
    }
    if (json) {
        fprintf(f, "  \"last\": {\"step\": %ld, \"accuracy\": {", stop->last_step);
        for (int k = 0; k < c->n_outputs; k++) {
            fprintf(f, "%s", k ? ", " : "");
            cli_json_string(f, c->outputs[k].name);
            fprintf(f, ": %.4f", (double)stop->last_accuracy[k]);
        }
        fprintf(f, "}, \"loss\": %.6f},\n", (double)stop->last_eval_loss);
        return;
    }
    fprintf(f, "kept         the model of step %ld, %s (the figures above)\n", run->model->step,
            run->model->step == stop->best_step ? "its best held-out evaluation"
                                                : "its lowest held-out loss");
    fprintf(f, "last step    %ld: accuracy", stop->last_step);
    for (int k = 0; k < c->n_outputs; k++)
        fprintf(f, "%s %s %.4f", k ? "," : "", c->outputs[k].name, (double)stop->last_accuracy[k]);
    fprintf(f, "; loss %.6f (held out)\n", (double)stop->last_eval_loss);
}

static void write_summary(FILE *f, struct train_run *run, const struct train_stopping *stop,
                          int format, double ms)
{
    /* a text's held-out loss, perplexity and top-1 / top-3 per word */
    const bool text = run->task->data && run->task->data->text;
    struct train_text_eval ev;
    if (text && cli_text_measure(run, &ev))
        memset(&ev, 0, sizeof ev);
    const char *rule = stop->stop == TRAIN_STOP_SETTLED ? "settled" : "limit";
    const struct train_model *m = run->model;
    const struct train_config *c = &m->cfg;
    const bool file = run->task->data != NULL;
    /* what the heads do, measured on held-out sequences as the screen measures them */
    struct train_head_stats roles[TRAIN_MAX_D_MODEL];
    const int n_seq =
        run->eval->size < TRAIN_HEADS_SEQUENCES ? run->eval->size : TRAIN_HEADS_SEQUENCES;
    const bool measured = train_heads_measure(m, run->eval, n_seq, roles, NULL) == 0;
    /* the attention block, what it learns, and the keys and values a causal
     * decoder keeps per token and layer */
    char variant[TRAIN_VARIANT_NAME_MAX];
    const size_t cache = train_variant_cache_floats(&c->variant, c->d_model, c->heads);
    if (format == MHA_FORMAT_JSON) {
        fprintf(f, "{\n  \"task\": ");
        cli_json_string(f, run->task->name);
        fprintf(f, ",\n  \"description\": ");
        cli_json_string(f, run->task->description);
        fprintf(f, ",\n");
        fprintf(f, "  \"d_model\": %d,\n  \"num_heads\": %d,\n  \"vocab\": %d,\n", c->d_model,
                c->heads, c->vocab);
        if (train_layers(c) > 1) /* the heads measured below are the last layer's */
            fprintf(f, "  \"layers\": %d,\n", train_layers(c));
        fprintf(f, "  \"variant\": \"%s\",\n  \"parameters\": %zu,\n",
                train_variant_name(&c->variant, variant, sizeof variant),
                train_variant_parameters(c));
        if (c->causal)
            fprintf(f, "  \"kv_cache\": {\"floats\": %zu, \"bytes\": %zu},\n", cache,
                    cache * sizeof(float));
        fprintf(f, "  \"context\": %d,\n  \"steps\": %ld,\n  \"batch\": %d,\n", c->context,
                train_stopping_last_step(stop, run), run->opt.batch);
        fprintf(f, "  \"lr\": %g,\n  \"seed\": %u,\n", (double)run->opt.lr, run->opt.seed);
        if (text) {
            cli_text_summary_json(f, run, &ev);
        } else {
            fprintf(f, "  \"loss\": %.6f,\n  \"accuracy\": {", (double)run->eval_loss);
            for (int k = 0; k < c->n_outputs; k++) {
                fprintf(f, "%s", k ? ", " : "");
                cli_json_string(f, c->outputs[k].name);
                fprintf(f, ": %.4f", (double)run->accuracy[k]);
            }
            fprintf(f, "},\n  \"held_out\": {\"sequences\": %d, \"source\": \"%s\"},\n",
                    run->eval->size, train_run_held_out_source(run));
            knocked_outputs(f, run, format);
        }
        fprintf(f,
                "  \"stopped\": {\"step\": %ld, \"rule\": \"%s\", \"limit\": %d, "
                "\"best\": %.4f, \"best_step\": %ld, \"patience\": %ld, \"kept_step\": %ld},\n",
                train_stopping_last_step(stop, run), rule, run->opt.steps, (double)stop->best,
                stop->best_step, stop->patience, m->step);
        last_step_out(f, run, stop, true);
        if (file)
            fit_json(f, run, stop);
        if (measured)
            heads_json(f, roles, c->heads);
        cli_layers_summary(f, run, n_seq, true, NULL);
        fprintf(f, "  \"ms_per_step\": %.4f\n}\n", ms);
        return;
    }
    fprintf(f, "task         %s\n", run->task->name);
    fprintf(f, "description  %s\n", run->task->description);
    fprintf(f, "d_model      %d\nnum_heads    %d\nvocab        %d\ncontext      %d\n", c->d_model,
            c->heads, c->vocab, c->context);
    if (train_layers(c) > 1)
        fprintf(f, "layers       %d (the heads below are the last layer's)\n", train_layers(c));
    fprintf(f, "variant      %s\nparameters   %zu\n",
            train_variant_name(&c->variant, variant, sizeof variant), train_variant_parameters(c));
    if (c->causal)
        fprintf(f, "kv_cache     %zu floats (%zu bytes) per token and layer\n", cache,
                cache * sizeof(float));
    fprintf(f, "steps        %ld\nbatch        %d\nlr           %g\nseed         %u\n",
            train_stopping_last_step(stop, run), run->opt.batch, (double)run->opt.lr,
            run->opt.seed);
    if (text)
        cli_text_summary_text(f, run, &ev);
    else
        fprintf(f, "loss         %.6f (held out)\n", (double)run->eval_loss);
    for (int k = 0; k < c->n_outputs && !text; k++)
        fprintf(f, "accuracy     %-8s %.4f on %d held-out %s\n", c->outputs[k].name,
                (double)run->accuracy[k], run->eval->size,
                file ? (run->eval->size == 1 ? "row of the file" : "rows of the file")
                : run->eval->size == 1 ? "sequence, never drawn in training"
                                       : "sequences, never drawn in training");
    if (!text)
        knocked_outputs(f, run, format);
    char why[256];
    train_stopping_text(stop, train_stopping_last_step(stop, run), why, sizeof why);
    fprintf(f, "stopped      %s\n", why);
    last_step_out(f, run, stop, false);
    if (file)
        fit_text(f, run, stop);
    for (int h = 0; h < c->heads && measured; h++) {
        char label[64];
        train_head_label(&roles[h], label, sizeof label);
        fprintf(f, "head %-7d %s\n", h, label[0] ? label : "(no label)");
    }
    cli_layers_summary(f, run, n_seq, false, NULL);
    fprintf(f, "ms_per_step  %.4f\n", ms);
}

/* ---- a signal that ends a run while training headless ----
 * SIGINT (Ctrl-C), SIGTERM, SIGHUP (the terminal or the session gone) and
 * SIGQUIT (Ctrl-\) alike: the first ends the run after the step under way,
 * and the model reached is saved (--save) before the program exits as the
 * signal asks (130, 143, 129, 131); a second one ends the program at once,
 * saving nothing.  A SIGHUP ignored from the start (nohup) stays ignored. */
static const int stop_signals_caught[] = {SIGINT, SIGTERM, SIGHUP, SIGQUIT};
#define N_STOP_SIGNALS (sizeof stop_signals_caught / sizeof stop_signals_caught[0])

static volatile sig_atomic_t stop_signal;

static void on_stop_signal(int sig)
{
    if (stop_signal) { /* the second: as the signal does by default */
        signal(sig, SIG_DFL);
        raise(sig);
        return;
    }
    stop_signal = sig;
}

static bool stop_asked(void *ctx)
{
    (void)ctx;
    return stop_signal != 0;
}

struct stop_signals {
    struct sigaction old[N_STOP_SIGNALS];
};

/* The signals above, into set. */
static void stop_set(sigset_t *set)
{
    sigemptyset(set);
    for (size_t i = 0; i < N_STOP_SIGNALS; i++)
        sigaddset(set, stop_signals_caught[i]);
}

static void catch_stop_signals(struct stop_signals *old)
{
    struct sigaction sa;
    memset(&sa, 0, sizeof sa);
    sa.sa_handler = on_stop_signal;
    /* one handler at a time: a SIGTERM waiting with the first Ctrl-C is the
     * second signal, never one that interrupts the first's handler */
    stop_set(&sa.sa_mask);
    stop_signal = 0;
    for (size_t i = 0; i < N_STOP_SIGNALS; i++) {
        sigaction(stop_signals_caught[i], &sa, &old->old[i]);
        /* nohup asked for a run that outlives its terminal: SIGHUP stays
         * ignored */
        if (stop_signals_caught[i] == SIGHUP && old->old[i].sa_handler == SIG_IGN)
            sigaction(SIGHUP, &old->old[i], NULL);
    }
}

static void restore_stop_signals(const struct stop_signals *old)
{
    for (size_t i = 0; i < N_STOP_SIGNALS; i++)
        sigaction(stop_signals_caught[i], &old->old[i], NULL);
}

/* Save the model with those signals held back, so a second one waits
 * for the file to be whole (or the old one kept) rather than leaving a
 * temporary behind. */
static int save_held(const struct train_model *m, const char *path, struct mha_error *err)
{
    sigset_t both, before;
    stop_set(&both);
    sigprocmask(SIG_BLOCK, &both, &before);
    const int rc = model_io_save(m, path, err);
    sigprocmask(SIG_SETMASK, &before, NULL);
    return rc;
}

/* The run was stopped by a signal at its step: save what it reached, say
 * so, and the status the signal asks for. */
static int interrupted(const struct cli_options *o, const struct train_run *run, int sig)
{
    struct mha_error err;
    mha_error_clear(&err);
    const int status = 128 + sig; /* 130 for SIGINT, 143 for SIGTERM */
    if (o->save && save_held(run->model, o->save, &err)) {
        cli_report(&err);
        fprintf(stderr, "%s: stopped at step %ld of %d; not saved\n", prog, run->model->step,
                run->opt.steps);
        return status;
    }
    char shown[4 * PATH_MAX];
    if (o->save)
        fprintf(stderr, "%s: stopped at step %ld of %d; saved %s\n", prog, run->model->step,
                run->opt.steps, mha_text_escape(o->save, shown, sizeof shown));
    else
        fprintf(stderr, "%s: stopped at step %ld of %d\n", prog, run->model->step, run->opt.steps);
    return status;
}

int cli_train_summary(const struct cli_options *o)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct train_dataset *data;
    struct train_run *run = cli_train_build(o, &data, &err);
    if (!run) {
        cli_report(&err);
        return CLI_EXIT_USAGE;
    }
    const bool bar = isatty(STDERR_FILENO);
    /* the screen's rule: until the held-out score settles, or the limit */
    struct train_stopping stop;
    train_stopping_init(&stop, run->opt.steps);
    struct stop_signals old;
    catch_stop_signals(&old);
    const double t0 = now_ms();
    train_run_until_stopped(run, &stop, bar ? progress_at : NULL, stop_asked, NULL);
    const double ms = now_ms() - t0;
    if (bar)
        fputc('\n', stderr);
    if (stop_signal) {
        const int status = interrupted(o, run, stop_signal);
        restore_stop_signals(&old);
        train_run_free(run);
        train_dataset_free(data);
        return status;
    }
    const long total = train_stopping_last_step(&stop, run);
    int rc = 0;
    if (o->save && save_held(run->model, o->save, &err)) {
        cli_report(&err); /* the path was checked before training: the output could not be
                             written (a full disk) */
        rc = EXIT_FAILURE;
    }
    if (!rc) {
        write_summary(stdout, run, &stop, o->format, total ? ms / (double)total : 0.0);
        if (fflush(stdout) != 0) {
            fprintf(stderr, "%s: cannot write the output: %s\n", prog, strerror(errno));
            rc = EXIT_FAILURE;
        }
    }
    if (!rc && stop_signal) /* it came while the model was saved: the run was whole */
        rc = 128 + stop_signal;
    restore_stop_signals(&old);
    train_run_free(run);
    train_dataset_free(data);
    return rc;
}

int cli_grad(const struct cli_options *o)
{
    struct mha_error err;
    mha_error_clear(&err);
    struct train_model *probe = model_io_load(o->grad, 1, &err), *m = NULL;
    struct train_batch *b = probe ? model_io_load_batch(o->batch_file, probe, &err) : NULL;
    if (b)
        m = train_model_new(&probe->cfg, b->size, &err);
    int rc = CLI_EXIT_USAGE;
    if (m && !train_model_copy_params(m, probe, &err) && !train_forward(m, b, &err)) {
        train_backward(m, b);
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);
        rc = !mem || model_io_write_grad(mem, m) != 0;
        rc = (mem && fclose(mem) != 0) || rc;
        if (!rc && (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0)) {
            fprintf(stderr, "%s: cannot write the output: %s\n", prog, strerror(errno));
            rc = EXIT_FAILURE;
        } else if (rc) {
            fprintf(stderr, "%s: out of memory while formatting the output\n", prog);
            rc = EXIT_FAILURE;
        }
        free(buf);
    } else {
        cli_report(&err);
    }
    train_model_free(m);
    train_batch_free(b);
    train_model_free(probe);
    return rc;
}
