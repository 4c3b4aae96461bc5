/* cli_lessons.c - the lesson tools of the command line: --list-lessons,
 * --check-lessons, --print-lesson, and the check of a lesson before the
 * explorer opens it. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>

#include "lesson/catalog.h"
#include "cli/cli.h"
#include "io/dump.h"
#include "io/export.h"
#include "lesson/lesson_html.h"
#include "lesson/lesson_state.h"
#include "io/paths.h"
#include "engine/text_check.h"

static const char *prog = "mha-explorer";

/* "file:line: text" (or "file: text" without a line) on out, with any
 * character a terminal would obey written as <U+XXXX>: lessons and their
 * paths come from someone else. */
static void print_diag(FILE *out, const char *file, int line, const char *text)
{
    char f[1024], t[2048];
    mha_text_escape(file, f, sizeof f);
    mha_text_escape(text, t, sizeof t);
    if (line > 0)
        fprintf(out, "%s:%d: %s\n", f, line, t);
    else
        fprintf(out, "%s: %s\n", f, t);
}

static const char *lessons_dir(void)
{
    return mha_data_path("lessons");
}

int cli_list_lessons(void)
{
    struct lesson_catalog cat;
    if (lesson_catalog_load(&cat, lessons_dir()) != 0) {
        fprintf(stderr,
                "%s: cannot find the lessons folder (set MHA_DATA_DIR to the folder "
                "that holds lessons/)\n",
                prog);
        return CLI_EXIT_USAGE;
    }
    for (int i = 0; i < cat.n; i++) {
        struct lesson *l = lesson_load(cat.paths[i]);
        if (!l)
            continue;
        char title[512];
        mha_text_escape(l->title ? l->title : "(no title)", title, sizeof title);
        printf("%2d  %-48s %2d step%s%s\n", l->number, title, l->n_steps,
               l->n_steps == 1 ? "" : "s",
               l->n_diags ? "  (has problems: see --check-lessons)" : "");
        lesson_free(l);
    }
    lesson_catalog_done(&cat);
    return 0;
}

int cli_check_lessons(char **files, int n_files)
{
    struct lesson_catalog cat = {0};
    if (n_files == 0) {
        if (lesson_catalog_load(&cat, lessons_dir()) != 0 || cat.n == 0) {
            fprintf(stderr, "%s: no lessons found to check\n", prog);
            lesson_catalog_done(&cat);
            return CLI_EXIT_USAGE;
        }
        files = cat.paths;
        n_files = cat.n;
    }
    char *assets = cli_assets_dir();
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
        for (int d = 0; d < l->n_diags; d++)
            print_diag(stdout, files[i], l->diags[d].line, l->diags[d].text);
        problems += l->n_diags;
        lesson_free(l);
    }
    fprintf(stderr, "%d %s checked, %d %s\n", n_files, n_files == 1 ? "lesson" : "lessons",
            problems, problems == 1 ? "problem" : "problems");
    free(assets);
    lesson_catalog_done(&cat);
    return problems ? CLI_EXIT_USAGE : 0;
}

char *cli_find_lesson(const char *spec)
{
    struct lesson_catalog cat = {0};
    lesson_catalog_load(&cat, lessons_dir());
    char *path = lesson_catalog_resolve(&cat, spec);
    lesson_catalog_done(&cat);
    if (!path) {
        char shown[512];
        fprintf(stderr, "%s: there is no lesson %s (see --list-lessons)\n", prog,
                mha_text_escape(spec, shown, sizeof shown));
    }
    return path;
}

int cli_print_lesson(const char *spec, int format)
{
    char shown[1024];
    const bool html = format == MHA_FORMAT_HTML; /* else text (cli_parse refused the rest) */
    char *path = cli_find_lesson(spec);
    if (!path)
        return CLI_EXIT_USAGE;
    struct lesson *l = lesson_load(path);
    char *assets = cli_assets_dir();
    int rc = 0;
    if (l && l->n_diags == 0)
        lesson_check(l, assets);
    if (!l || l->n_diags) {
        for (int d = 0; l && d < l->n_diags; d++)
            print_diag(stderr, path, l->diags[d].line, l->diags[d].text);
        fprintf(stderr, "%s: %s has problems; nothing printed\n", prog,
                mha_text_escape(path, shown, sizeof shown));
        rc = CLI_EXIT_USAGE;
    } else if (cli_train_lesson_notes(l) != 0) {
        rc = EXIT_FAILURE;
    } else {
        char *buf = NULL;
        size_t len = 0;
        FILE *mem = open_memstream(&buf, &len);
        int printed = -1;
        if (mem) {
            printed =
                html ? lesson_print_html(mem, l, assets) : lesson_print_text(mem, l, assets, 78);
            if (fclose(mem) != 0)
                printed = -1;
        }
        if (printed != 0) {
            fprintf(stderr, "%s: cannot format the lesson\n", prog);
            rc = EXIT_FAILURE;
        } else if (fwrite(buf, 1, len, stdout) != len || fflush(stdout) != 0) {
            cli_output_error(errno);
            rc = EXIT_FAILURE;
        }
        free(buf);
    }
    lesson_free(l);
    free(assets);
    free(path);
    return rc;
}

int cli_check_lesson_file(const char *path, int step)
{
    char shown[1024];
    struct lesson *l = lesson_load(path);
    char *assets = cli_assets_dir();
    int rc = 0;
    if (l && l->n_diags == 0)
        lesson_check(l, assets);
    if (!l || l->n_diags || l->n_steps == 0) {
        for (int d = 0; l && d < l->n_diags; d++)
            print_diag(stderr, path, l->diags[d].line, l->diags[d].text);
        fprintf(stderr, "%s: %s has problems; it cannot be opened\n", prog,
                mha_text_escape(path, shown, sizeof shown));
        rc = CLI_EXIT_USAGE;
    } else if (step > l->n_steps) {
        fprintf(stderr, "%s: --step %d: %s has %d step%s\n", prog, step,
                mha_text_escape(path, shown, sizeof shown), l->n_steps, l->n_steps == 1 ? "" : "s");
        rc = CLI_EXIT_USAGE;
    }
    lesson_free(l);
    free(assets);
    return rc;
}
