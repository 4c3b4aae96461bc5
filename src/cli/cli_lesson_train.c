/* cli_lesson_train.c - lessons that train: what --print-lesson says they
 * reach.  Each step whose scene trains is trained headless, with the same
 * runs (src/train) and the same steps as the training screen, and its note
 * says what the run reached. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"
#include "train/train.h"
#include "lesson/lesson.h"
#include "lesson/lesson_state.h"
#include "train/trun.h"
#include "io/text_io.h"

/* "first 100.0%, prev 99.6%; head 0 first token 1.00, head 1 previous token 0.98" */
static void pane_figures(const struct trun *t, const struct trun_pane *p, char *buf, size_t n)
{
    const struct train_model *m = p->run->model;
    size_t used = 0;
    char why[256];
    trun_stop_text(p, why, sizeof why);
    used += (size_t)snprintf(buf + used, n - used, "%s Held-out accuracy:", why);
    for (int k = 0; k < m->cfg.n_outputs && used < n; k++)
        used +=
            (size_t)snprintf(buf + used, n - used, "%s %s %.1f%%", k ? "," : "",
                             m->cfg.outputs[k].name, 100.0 * (double)trun_pane_accuracy(t, p, k));
    struct train_head_stats roles[TRAIN_MAX_D_MODEL];
    bool first = true;
    for (int h = 0; h < m->cfg.heads && used < n && trun_pane_heads(p, t->scrub, roles); h++) {
        char what[256];
        train_head_describe(h, &roles[h], what, sizeof what);
        if (!what[0])
            continue;
        used += (size_t)snprintf(buf + used, n - used, "%s %s", first ? "." : ",", what);
        first = false;
    }
    if (used < n)
        snprintf(buf + used, n - used, ".");
}

/* A later step of the training trained: the model (its first pane, as the
 * screen shows it) as it is at the end of that training, on its sample:
 * the step's note says which model, train_example holds it. */
static int trained_stage_step(struct lesson_step *step, const struct trun *t, int stage)
{
    const struct train_model *m = trun_pane_model(&t->panes[0], -1);
    struct mha_error err;
    mha_error_clear(&err);
    struct mha_example *ex = train_model_to_example(m, &err);
    if (!ex) {
        fprintf(stderr, "mha-explorer: %s\n", err.text);
        return -1;
    }
    char title[32], text[512], layer[32] = "";
    trun_pane_title(&t->panes[0], title, sizeof title);
    if (train_layers(&m->cfg) > 1)
        snprintf(layer, sizeof layer, ", layer %d,", m->shown_layer);
    const int n = snprintf(text, sizeof text,
                           "this step shows stage %d%s of the %s model trained above (%s, seed "
                           "%u) at the end of its training, step %ld, on its sample sequence:",
                           stage, layer, t->task->name, title, (unsigned)t->opt.seed, m->step);
    for (int i = 0; i < m->sample_len && n > 0 && (size_t)n < sizeof text; i++) {
        const size_t used = strlen(text);
        snprintf(text + used, sizeof text - used, " %s", m->vocab_names[m->sample[i]]);
    }
    if (strlen(text) + 1 < sizeof text)
        strcat(text, ".");
    free(step->train_note);
    mha_example_free(step->train_example);
    step->train_example = ex;
    if (!(step->train_note = strdup(text))) {
        fprintf(stderr, "mha-explorer: out of memory\n");
        return -1;
    }
    return 0;
}

int cli_train_lesson_notes(struct lesson *l)
{
    struct lesson_state st;
    lesson_state_init(&st);
    struct trun *last = NULL; /* the training the steps since its scene show */
    /* the bundled corpus it trains on (NULL: a built-in task), kept while it lasts */
    struct train_dataset *corpus = NULL;
    struct train_task corpus_task;
    int rc = 0;
    for (int s = 0; s < l->n_steps && rc == 0; s++) {
        struct lesson_step *step = &l->steps[s];
        if (step->has_scene)
            lesson_state_apply(&st, &step->scene);
        if (!st.train) {
            trun_free(last);
            last = NULL;
            train_dataset_free(corpus);
            corpus = NULL;
            continue;
        }
        if (!step->has_scene || !(step->scene.set & (1u << SCENE_TRAIN))) {
            if (!last) /* a training the scenes ask for without a train: (cannot happen) */
                continue;
            struct mha_error lerr;
            mha_error_clear(&lerr);
            if (trun_show_layers(last, st.layer, &lerr)) {
                fprintf(stderr, "mha-explorer: %s:%d: layer: %s\n", l->path, step->scene.line,
                        lerr.text);
                rc = -1;
                break;
            }
            if (step->has_scene && (step->scene.set & (1u << SCENE_VIEW)) &&
                st.view != MHA_VIEW_NONE) {
                char text[256];
                snprintf(text, sizeof text,
                         "this step shows the %s view of the %s model trained above (on the "
                         "screen, at the end of its training).",
                         mha_view_name(st.view), last->task->name);
                free(step->train_note);
                if (!(step->train_note = strdup(text))) {
                    fprintf(stderr, "mha-explorer: out of memory\n");
                    rc = -1;
                }
            } else if (step->has_scene && (step->scene.set & (1u << SCENE_STAGE))) {
                rc = trained_stage_step(step, last, st.stage);
            } else {
                /* the training screen stays */
                free(step->train_note);
                if (!(step->train_note = strdup("the training screen of the step above stays "
                                                "on the screen."))) {
                    fprintf(stderr, "mha-explorer: out of memory\n");
                    rc = -1;
                }
            }
            continue;
        }
        trun_free(last);
        last = NULL;
        train_dataset_free(corpus);
        corpus = NULL;
        struct trun_setup setup;
        struct mha_error err;
        mha_error_clear(&err);
        struct trun *t = NULL;
        if (!train_task_find(st.train)) { /* a corpus under the assets */
            char *assets = cli_assets_dir();
            corpus = assets ? text_io_load_corpus(assets, st.train, &err) : NULL;
            if (!assets)
                mha_error_set(&err, "out of memory");
            free(assets);
            if (corpus)
                train_task_from_dataset(&corpus_task, corpus);
        }
        struct train_ask ask;
        lesson_train_ask(&st, corpus ? &corpus_task : train_task_find(st.train), &ask);
        if (ask.task && trun_setup_task(&setup, &ask, &err) == 0)
            t = trun_new(&setup, &err);
        if (!t) {
            fprintf(stderr, "mha-explorer: %s:%d: %s\n", l->path, step->scene.line, err.text);
            rc = -1;
            break;
        }
        /* the same steps the screen takes, whatever its pace */
        while (!trun_done(t))
            trun_step_once(t);
        if (trun_show_layers(t, st.layer, &err)) { /* the layer the scene shows */
            fprintf(stderr, "mha-explorer: %s:%d: layer: %s\n", l->path, step->scene.line,
                    err.text);
            trun_free(t);
            rc = -1;
            break;
        }
        char text[2048];
        size_t used = (size_t)snprintf(text, sizeof text, "%s, d_model %d, seed %u.",
                                       setup.task->name, setup.d_model, (unsigned)setup.opt.seed);
        for (int i = 0; i < t->n_panes && used < sizeof text; i++) {
            char title[32], fig[900];
            trun_pane_title(&t->panes[i], title, sizeof title);
            pane_figures(t, &t->panes[i], fig, sizeof fig);
            used += (size_t)snprintf(text + used, sizeof text - used, " %s: %s", title, fig);
        }
        last = t;
        free(step->train_note);
        step->train_note = strdup(text);
        if (!step->train_note) {
            fprintf(stderr, "mha-explorer: out of memory\n");
            rc = -1;
        }
        /* a train: scene that also names a stage shows the model's stages */
        if (rc == 0 && (step->scene.set & (1u << SCENE_STAGE)))
            rc = trained_stage_step(step, t, st.stage);
    }
    trun_free(last);
    train_dataset_free(corpus);
    return rc;
}
