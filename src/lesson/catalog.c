/* catalog.c - finding lessons and printing them as text. */
#include "lesson/catalog.h"

#include <dirent.h>
#include <stdlib.h>
#include <string.h>

#include "io/dump.h"
#include "lesson/layout.h"
#include "lesson/lesson_parse.h"
#include "lesson/lesson_state.h"

static int cmp_str(const void *a, const void *b)
{
    return strcmp(*(char *const *)a, *(char *const *)b);
}

int lesson_catalog_load(struct lesson_catalog *c, const char *dir)
{
    c->paths = NULL;
    c->n = 0;
    DIR *d = dir ? opendir(dir) : NULL;
    if (!d)
        return -1;
    struct dirent *e;
    while ((e = readdir(d))) {
        size_t len = strlen(e->d_name);
        if (len < 4 || e->d_name[0] < '0' || e->d_name[0] > '9' ||
            strcmp(e->d_name + len - 3, ".md") != 0)
            continue;
        char **p = realloc(c->paths, (size_t)(c->n + 1) * sizeof *p);
        if (!p)
            break;
        c->paths = p;
        size_t n = strlen(dir) + len + 2;
        c->paths[c->n] = malloc(n);
        if (!c->paths[c->n])
            break;
        snprintf(c->paths[c->n++], n, "%s/%s", dir, e->d_name);
    }
    closedir(d);
    qsort(c->paths, (size_t)c->n, sizeof *c->paths, cmp_str);
    return 0;
}

void lesson_catalog_done(struct lesson_catalog *c)
{
    for (int i = 0; i < c->n; i++)
        free(c->paths[i]);
    free(c->paths);
    c->paths = NULL;
    c->n = 0;
}

char *lesson_catalog_resolve(const struct lesson_catalog *c, const char *spec)
{
    bool digits = *spec != '\0';
    for (const char *p = spec; *p; p++)
        digits = digits && *p >= '0' && *p <= '9';
    if (!digits)
        return strdup(spec); /* NULL when out of memory */
    int want = atoi(spec);
    for (int i = 0; i < c->n; i++) {
        const char *base = strrchr(c->paths[i], '/');
        base = base ? base + 1 : c->paths[i];
        if (atoi(base) == want)
            return strdup(c->paths[i]);
    }
    return NULL;
}

static void print_rule(FILE *out, const char *glyph, int width)
{
    for (int i = 0; i < width; i++)
        fputs(glyph, out);
    fputc('\n', out);
}

static void print_layout(FILE *out, const struct lesson_layout *lay)
{
    for (int i = 0; i < lay->n_lines; i++) {
        const struct lesson_line *line = &lay->lines[i];
        if (line->blank) {
            fputc('\n', out);
            continue;
        }
        char *t = lesson_line_text(line);
        bool barred = line->kind == LESSON_CALLOUT || line->kind == LESSON_QUOTE;
        fprintf(out, "%s%s\n", barred ? "│" : "", t ? (barred ? t + 1 : t) : "");
        free(t);
    }
}

static const char *onoff(int v, bool dflt)
{
    return (v < 0 ? dflt : v) ? "on" : "off";
}

/* The screen of a step, as text, from the step's example and trace (either
 * NULL when it could not be built or run: err says why).  Returns 0, or -1
 * if it could not be built. */
static int print_scene(FILE *out, const struct lesson_state *st, const char *assets_dir,
                       const struct mha_example *ex, const struct mha_trace *t,
                       const struct mha_error *err)
{
    if (!ex) {
        char buf[1600];
        fprintf(out, "[screen: cannot be built: %s]\n\n", mha_error_format(err, buf, sizeof buf));
        return -1;
    }
    if (!t) {
        fprintf(out, "[screen: cannot be run: %s]\n\n", err->text);
        return -1;
    }
    fprintf(out, "[screen: ");
    if (st->view != MHA_VIEW_NONE)
        fprintf(out, "%s view", mha_view_name(st->view));
    else
        fprintf(out, "stage %d %s", st->stage, mha_stage_name((enum mha_stage)st->stage));
    fprintf(out, " · %d tokens · d_model %d · %d heads · d_k %d · causal %s · scale %s", ex->lq,
            ex->d_model, ex->heads, t->d_k, onoff(st->causal, ex->causal),
            onoff(st->scaled, ex->scaled));
    if (st->load)
        fprintf(out, " · example %s", st->load);
    if (st->focus && st->view == MHA_VIEW_NONE)
        fprintf(out, " · pointing at %s", st->focus);
    fputs("]\n\n", out);
    if (st->view == MHA_VIEW_NONE) {
        dump_text_stage(out, ex, t, st->stage);
        return 0;
    }
    char path[4096];
    const struct view_inputs in = lesson_view_inputs(st, ex, assets_dir, path, sizeof path);
    struct view_desc *vd = view_desc_new(st->view, &in);
    if (!vd) {
        fprintf(out, "[view: out of memory]\n\n");
        return -1;
    }
    view_desc_write_text(out, vd);
    fputc('\n', out);
    const int rc = vd->error[0] ? -1 : 0;
    view_desc_free(vd);
    return rc;
}

/* A checkpoint and its answer on the step's example and trace (t NULL: err
 * says why there is none). */
/* A checkpoint's text as plain text: its `inline code` without backticks. */
static void put_plain(FILE *out, const char *s)
{
    for (; *s; s++)
        if (*s != '`')
            fputc(*s, out);
}

static void print_quiz(FILE *out, const struct lesson_quiz *q, const struct mha_example *ex,
                       const struct mha_trace *t, struct mha_error *err)
{
    fputs("Checkpoint: ", out);
    put_plain(out, q->question ? q->question : "");
    fputc('\n', out);
    for (int i = 0; i < q->n_choices; i++) {
        fprintf(out, "  %d) ", i + 1);
        put_plain(out, q->choices[i]);
        fputc('\n', out);
    }
    struct lesson_answer a;
    if (t && lesson_quiz_expected(q, ex, t, &a, err) == 0) {
        if (a.numeric)
            fprintf(out, "Answer: %.10g\n", a.number);
        else {
            fputs("Answer: ", out);
            put_plain(out, a.text);
            fputc('\n', out);
        }
    } else {
        fprintf(out, "Answer: cannot be computed: %s\n", err->text);
    }
    fputs("Why: ", out);
    put_plain(out, q->explain ? q->explain : "");
    fputs("\n\n", out);
}

int lesson_print_text(FILE *out, const struct lesson *l, const char *assets_dir, int width)
{
    int rc = 0;
    const char *title = l->title ? l->title : "(untitled lesson)";
    if (l->number)
        fprintf(out, "Lesson %d: %s\n", l->number, title);
    else
        fprintf(out, "%s\n", title);
    print_rule(out, "═", width < 60 ? width : 60);
    fputc('\n', out);
    struct lesson_state st;
    for (int s = 0; s < l->n_steps; s++) {
        const struct lesson_step *step = &l->steps[s];
        lesson_state_at(l, s, &st); /* the earlier steps' reveals included */
        fprintf(out, "Step %d of %d%s%s\n", s + 1, l->n_steps, step->title ? ": " : "",
                step->title ? step->title : "");
        print_rule(out, "─", width < 60 ? width : 60);
        /* the step's title is in the header line already */
        struct lesson_step body = *step;
        if (step->title && body.n_blocks > 0 && body.blocks[0].kind == LESSON_HEADING) {
            body.blocks++;
            body.n_blocks--;
        }
        struct lesson_layout lay;
        if (lesson_layout_step(&body, width, &lay) != 0)
            fputs("(out of memory while laying out this step)\n", out);
        print_layout(out, &lay);
        lesson_layout_done(&lay);
        fputc('\n', out);
        if (step->train_note)
            fprintf(out, "Trained: %s\n\n", step->train_note);
        /* one example and trace serve the step's screen and its checkpoint:
         * the trained model's when the step shows one, else the scenes' */
        struct mha_error err;
        mha_error_clear(&err);
        struct mha_example *own =
            step->train_example ? NULL : lesson_state_example(&st, assets_dir, &err);
        const struct mha_example *ex = step->train_example ? step->train_example : own;
        struct mha_trace *t = ex ? mha_run(ex, &err) : NULL;
        if (step->train_example)
            lesson_state_for_trained(&st);
        /* a step that trains shows the training (its note above), not a stage */
        if ((!step->train_note || step->train_example) &&
            print_scene(out, &st, assets_dir, ex, t, &err))
            rc = -1;
        if (step->has_quiz)
            print_quiz(out, &step->quiz, ex, t, &err);
        mha_trace_free(t);
        mha_example_free(own);
    }
    return rc;
}
