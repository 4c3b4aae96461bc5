/* ui_driver.c - a small stand-alone way into ui_run, not installed: the
 * redraw benchmark runs through it, and so can the screen tests when the
 * real program is not built.  mha-explorer (src/main.c) is the program.
 *
 *   mha-ui-driver [--tokens "A B C"] [--d-model N] [--heads N] [--seed N]
 *                 [--causal] [--no-scale] [--stage N]
 *                 [--bench FRAMES] [--rows N] [--cols N]
 *                 [--train TASK [--compare H,H..] [--steps N]]
 *                 [--lesson-walk LESSON.md [--lessons-dir DIR --assets-dir DIR]] [--present] */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "ui/ui.h"
#include "train/trun.h"

#define MAX_TOKENS 1024

static int usage(void)
{
    fprintf(stderr, "usage: mha-ui-driver [--tokens \"A B C\" | --n-tokens N] [--d-model N] "
                    "[--heads N] [--seed N] [--causal] [--no-scale] [--stage N] "
                    "[--bench FRAMES] [--rows N] [--cols N]\n");
    return 2;
}

int main(int argc, char **argv)
{
    struct ui_options opt = {0};
    int d_model = 6, heads = 2, n = 4;
    unsigned long seed = 42;
    bool causal = false, no_scale = false;
    char *tokens_text = NULL;
    const char *train = NULL, *compare = NULL;
    int steps = TRAIN_DEFAULT_STEPS;
    for (int i = 1; i < argc; i++) {
        const char *a = argv[i];
        const char *v = i + 1 < argc ? argv[i + 1] : NULL;
        if (!strcmp(a, "--causal")) {
            causal = true;
            continue;
        }
        if (!strcmp(a, "--present")) {
            opt.present = true;
            continue;
        }
        if (!strcmp(a, "--no-scale")) {
            no_scale = true;
            continue;
        }
        if (!v)
            return usage();
        i++;
        if (!strcmp(a, "--tokens"))
            tokens_text = argv[i];
        else if (!strcmp(a, "--n-tokens"))
            n = atoi(v);
        else if (!strcmp(a, "--d-model"))
            d_model = atoi(v);
        else if (!strcmp(a, "--heads"))
            heads = atoi(v);
        else if (!strcmp(a, "--seed"))
            seed = strtoul(v, NULL, 10);
        else if (!strcmp(a, "--stage"))
            opt.stage = atoi(v);
        else if (!strcmp(a, "--bench"))
            opt.bench_frames = atoi(v);
        else if (!strcmp(a, "--rows"))
            opt.bench_rows = atoi(v);
        else if (!strcmp(a, "--cols"))
            opt.bench_cols = atoi(v);
        else if (!strcmp(a, "--train"))
            train = v;
        else if (!strcmp(a, "--compare"))
            compare = v;
        else if (!strcmp(a, "--lesson-walk")) {
            opt.lesson_path = v;
            opt.lesson_step = 1;
            opt.lesson_walk = true;
        } else if (!strcmp(a, "--assets-dir"))
            opt.assets_dir = v;
        else if (!strcmp(a, "--lessons-dir"))
            opt.lessons_dir = v;
        else if (!strcmp(a, "--steps"))
            steps = atoi(v);
        else
            return usage();
    }

    struct trun_setup setup = {0};
    if (train) {
        setup.task = train_task_find(train);
        if (!setup.task) {
            fprintf(stderr, "mha-ui-driver: no task %s\n", train);
            return 2;
        }
        setup.d_model = d_model == 6 ? TRAIN_DEFAULT_D_MODEL : d_model;
        setup.vocab = TRAIN_DEFAULT_VOCAB;
        setup.context = TRAIN_DEFAULT_CONTEXT;
        train_run_options_default(&setup.opt);
        setup.opt.steps = steps;
        setup.opt.seed = (uint32_t)(seed == 42 ? TRAIN_DEFAULT_SEED : seed);
        setup.n_heads = 1;
        setup.heads[0] = heads;
        if (compare) {
            setup.compare = true;
            setup.n_heads = 0;
            for (const char *p = compare; *p && setup.n_heads < TRUN_MAX_PANES; p++)
                if (*p >= '1' && *p <= '9')
                    setup.heads[setup.n_heads++] = *p - '0';
        }
        struct mha_error err;
        mha_error_clear(&err);
        if (!(opt.train = trun_new(&setup, &err))) {
            fprintf(stderr, "mha-ui-driver: %s\n", err.text);
            return 2;
        }
        return ui_run(NULL, &opt);
    }
    static const char *tokens[MAX_TOKENS];
    char *copy = tokens_text ? strdup(tokens_text) : NULL;
    if (copy) {
        n = 0;
        for (char *p = strtok(copy, " "); p && n < MAX_TOKENS; p = strtok(NULL, " "))
            tokens[n++] = p;
    }
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex =
        mha_example_generated(n, copy ? tokens : NULL, d_model, heads, (uint32_t)seed, &err);
    free(copy);
    if (!ex) {
        fprintf(stderr, "mha-ui-driver: %s\n", err.text);
        return 2;
    }
    ex->causal = causal;
    ex->scaled = !no_scale;
    return ui_run(ex, &opt);
}
