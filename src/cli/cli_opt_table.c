/* cli_opt_table.c - the option table: each option once, its value's name,
 * default, group, help lines, the modes it applies to and its man
 * paragraph (the rows are in cli_opt_rows*.c); getopt's long options,
 * --help, the combination refusals and (through scripts/gen-docs) the man
 * page's OPTIONS and the shell completions come from it. */
#include "cli/cli_opt_table.h"

#include <getopt.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cli/cli.h"

/* The rows of the files, one after another, as one table. */
static struct cli_opt table[64];
static int n_table;

/* cli_parse notes each option given as a bit of struct cli_options' given */
_Static_assert(sizeof table / sizeof table[0] <= 8 * sizeof(unsigned long long),
               "the option table has more rows than cli_options' given has bits");

static void put_rows(const struct cli_opt *rows, int n)
{
    if (n_table + n > (int)(sizeof table / sizeof table[0])) {
        fprintf(stderr, "%s:%d: the option table has more rows than cli_options' given has bits\n",
                __FILE__, __LINE__);
        abort();
    }
    memcpy(table + n_table, rows, (size_t)n * sizeof *rows);
    n_table += n;
}

const struct cli_opt *cli_opt_table(int *n)
{
    if (!n_table) {
        put_rows(cli_opt_rows_screen, cli_opt_rows_screen_n);
        put_rows(cli_opt_rows_train, cli_opt_rows_train_n);
        put_rows(cli_opt_rows_write, cli_opt_rows_write_n);
    }
    *n = n_table;
    return table;
}

const struct option *cli_opt_long_options(void)
{
    static struct option opts[sizeof table / sizeof table[0] + 1];
    if (!opts[0].name) {
        int n, k = 0;
        cli_opt_table(&n);
        for (int i = 0; i < n; i++)
            if (table[i].name)
                opts[k++] =
                    (struct option){table[i].name, table[i].arg ? required_argument : no_argument,
                                    NULL, CLI_OPT_ROW + i};
    }
    return opts;
}

static const char *const headings[CLI_GROUP_COUNT] = {
    [CLI_GROUP_EXAMPLE] = "Example:",
    [CLI_GROUP_OUTPUT] = "Output:",
    [CLI_GROUP_LESSONS] = "Lessons:",
    [CLI_GROUP_EXPLORER] = "Explorer:",
    [CLI_GROUP_TEACHING] = "Teaching:",
    [CLI_GROUP_TRAINING] = "Training (an attention model that learns a task):",
    [CLI_GROUP_WRITING] = "Writing (a trained language model continues a sentence) and exporting:",
    [CLI_GROUP_OTHER] = "",
};

const char *cli_opt_group_heading(enum cli_opt_group g)
{
    return g >= 0 && g < CLI_GROUP_COUNT ? headings[g] : "";
}

const char *cli_opt_group_intro(enum cli_opt_group g)
{
    return g == CLI_GROUP_OTHER ? "In the explorer, :link shows the options that reopen the screen "
                                  "as it is\n(:link FILE writes them), and e writes the stage as "
                                  "an SVG picture.\n\n"
                                : "";
}

/* The man page's words for the groups, before and after their entries. */
static const char *const man_intros[CLI_GROUP_COUNT] = {
    [CLI_GROUP_TRAINING] =
        "A one-layer model trains on a task: x = embedding[tokens] + positions, a = MHA(x, x, x) "
        "(the\n"
        "explorer's attention), r = x + a, one read-out logits = r\\(pcU^T + bias per output;\n"
        "the loss is the sum over outputs of the mean cross-entropy over targets that are not "
        "\\-1\n"
        "(through log-sum-exp: exact at any size of the logits).\n"
        "Gradients come from the engine's backward pass, Adam (0.9, 0.999, 1e\\-8) updates them, "
        "each\n"
        "step draws a fresh batch, and a seed gives the same numbers every time.",
};
static const char *const man_outros[CLI_GROUP_COUNT] = {
    [CLI_GROUP_LESSONS] =
        ".PP\n"
        "\\-\\-list\\-lessons, \\-\\-check\\-lessons, \\-\\-print\\-lesson and\n"
        "\\-\\-reset\\-progress without \\-\\-lesson print or forget and exit: any other\n"
        "option given with one of them (but \\-\\-format, text or html, with\n"
        "\\-\\-print\\-lesson) is refused with exit status 2, as is a second of them.",
    [CLI_GROUP_TRAINING] =
        ".PP\n"
        "A model file holds vocab, d_model, num_heads, context, causal, scaled, embedding [V][d],\n"
        "positions [T][d], w_q .. w_o [d][d], optional b_q .. b_o [d], outputs (name, classes, "
        "unembed\n"
        "[C][d], optional bias [C]), and optional task and sample. A batch file holds tokens "
        "(B\\(muT ids)\n"
        "and targets (one B\\(muT list per output, \\-1 for no target). A bad file ends with exit "
        "status\n"
        "2 and a message naming the file and the field, row and column; a targets list of the "
        "wrong\n"
        "shape is named with the shape expected.\n"
        ".PP\n"
        "A sentence file is a model on a sentence of its own, by reference:\n"
        "{\"model\": \"PATH\", \"words\": \"SENTENCE\", optional \"description\"}, PATH beside the "
        "file unless\n"
        "absolute and naming a model file (not another sentence file).\n"
        "It goes wherever a model file goes (\\-\\-load, :load, a lesson's load:, \\-\\-dump "
        "circuits)\n"
        "and opens on its words; the bundled\n"
        ".I examples/cat\\-sat.json\n"
        "is one, the trained language model on \"the cat sat on the mat because it was soft\".",
};

const char *cli_opt_group_man_intro(enum cli_opt_group g)
{
    return g >= 0 && g < CLI_GROUP_COUNT && man_intros[g] ? man_intros[g] : "";
}

const char *cli_opt_group_man_outro(enum cli_opt_group g)
{
    return g >= 0 && g < CLI_GROUP_COUNT && man_outros[g] ? man_outros[g] : "";
}

/* The modes, by bit: what picks each, where an option applies in it, and
 * why another is refused there. */
static const struct cli_mode_info modes[CLI_MODE_COUNT] = {
    {"", "the explorer's screen", "", "", 0},
    {"--train", "the training screen", "opens the training screen", "--train TASK|FILE",
     CLI_MODE_EXPLORER},
    {"--dump", "--dump STAGE", "prints and opens no screen", "--dump STAGE", CLI_MODE_EXPLORER},
    {"--dump summary", "--train --dump summary", "trains without a terminal and prints the summary",
     "--dump summary", CLI_MODE_TRAIN_SCREEN},
    {"--dump circuits", "--dump circuits", "reads the weights alone",
     "--load MODEL --dump circuits", CLI_MODE_EXPLORER},
    {"--dump lens", "--dump lens", "reads every layer of the model on its words (--tokens)",
     "--load MODEL --dump lens", CLI_MODE_EXPLORER},
    {"--dump patching", "--dump patching", "runs every layer of the model on two sentences",
     "--load MODEL --tokens CLEAN --corrupt CORRUPTED --dump patching", CLI_MODE_EXPLORER},
    {"--grad", "--grad", "takes only --batch BATCH: the model file fixes the rest",
     "--grad MODEL --batch BATCH", CLI_MODE_EXPLORER},
    {"--generate", "--generate",
     "prints lines and opens no screen (and writes through every layer)", "--generate N",
     CLI_MODE_EXPLORER},
    {"--export-torch", "--export-torch", "writes the model as it is and opens no screen",
     "--export-torch FILE.py", CLI_MODE_EXPLORER},
    {"--export-safetensors", "--export-safetensors",
     "writes the model as it is and opens no screen", "--export-safetensors FILE",
     CLI_MODE_EXPLORER},
    {"--check-lessons", "--check-lessons", "checks lesson files and exits", "--check-lessons",
     CLI_MODE_EXPLORER},
    {"--list-lessons", "--list-lessons", "lists the lessons and exits", "--list-lessons",
     CLI_MODE_EXPLORER},
    {"--print-lesson", "--print-lesson",
     "prints the lesson as its own scenes set it up (text, or --format html) and exits",
     "--print-lesson N|FILE", CLI_MODE_EXPLORER},
    {"--reset-progress", "--reset-progress",
     "forgets every lesson's progress and exits (with --lesson N: that lesson's, then opens it)",
     "--reset-progress", CLI_MODE_EXPLORER},
};

const struct cli_mode_info *cli_mode_info(unsigned bit)
{
    for (int i = 0; i < CLI_MODE_COUNT; i++)
        if (bit == 1u << i)
            return &modes[i];
    return NULL;
}

const char *cli_scope_words(unsigned scope, char *buf, size_t n)
{
    int count = 0, k = 0;
    for (int i = 0; i < CLI_MODE_COUNT; i++)
        count += scope >> i & 1;
    buf[0] = '\0';
    if (!scope) {
        snprintf(buf, n, "nothing (its row in the option table gives no scope)");
        return buf;
    }
    if ((scope & CLI_EVERYWHERE) == CLI_EVERYWHERE) {
        snprintf(buf, n, "everything the program does");
        return buf;
    }
    for (int i = 0; i < CLI_MODE_COUNT; i++) {
        if (!(scope >> i & 1))
            continue;
        const size_t used = strlen(buf);
        snprintf(buf + used, n - used, "%s%s",
                 k == 0           ? ""
                 : k == count - 1 ? " and "
                                  : ", ",
                 modes[i].where);
        k++;
    }
    return buf;
}
