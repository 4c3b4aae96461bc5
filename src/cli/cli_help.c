/* cli_help.c - --help: what every option does, with the lists (stages,
 * formats, views, themes) from the program's own tables. */
#include <stdio.h>

#include "cli/cli.h"
#include "engine/stages.h"
#include "engine/train.h"
#include "engine/views.h"
#include "io/colorscale.h"
#include "io/format.h"
#include "io/view_desc.h"

/* Printed with printf, so a literal percent sign must be written %%.  The
 * lists come from the program's tables, in this order: the stage names
 * (stages.c), their numbers, the formats (format.c), the views (views.c),
 * the themes and the default theme (colorscale.c). */
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
    "                       %s\n"
    "                       all (or its number %s)\n"
    "  --format FMT         %s\n"
    "                       (default text); --print-lesson takes text or html\n"
    "  --stage STAGE        stage the explorer opens on (default input)\n"
    "\n"
    "Lessons:\n"
    "  --list-lessons       list the lessons: number, title, steps\n"
    "  --check-lessons [FILE]...  check the bundled lessons, or the files named;\n"
    "                       prints file:line: what is wrong, exit status 2 if any\n"
    "  --print-lesson N|FILE  print a lesson as text, every scene with its numbers\n"
    "  --lesson N|FILE      open the explorer on a lesson, where you left it\n"
    "  --step N             with --lesson: start on step N (1 = the first)\n"
    "  --reset-progress     forget the steps seen and the answers given in every\n"
    "                       lesson; with --lesson only in that one, which then\n"
    "                       opens on step 1\n"
    "\n"
    "Explorer:\n"
    "  --view NAME          open on a view instead of a stage: %s\n"
    "  --focus \"SPEC\"       put the cursor on a cell of the starting stage, e.g.\n"
    "                       \"weights, head 1, row 2, col 3\" (rows and columns by\n"
    "                       token or 0-based index)\n"
    "  --bench-frames N     no interaction and no terminal needed: redraw N frames\n"
    "                       off screen and print the median time\n"
    "  --no-mouse           leave the mouse to the terminal (for selecting text);\n"
    "                       otherwise a click picks a stage, a number or a lesson\n"
    "                       and the wheel scrolls, where the terminal reports them\n"
    "\n"
    "Teaching:\n"
    "  --present            presenter mode (P): the stage's title in big letters,\n"
    "                       roomy numbers, no key hints\n"
    "  --theme NAME         %s (default %s; T cycles);\n"
    "                       NO_COLOR turns colour off whatever the theme\n"
    "  --autoplay SECONDS   move on by itself every SECONDS (0.1..3600): the lesson's\n"
    "                       steps, else the stages round and round; a key pauses\n"
    "  --record FILE        save the keys of the session, with their timing, and\n"
    "                       the options, lesson step and terminal size it started with\n"
    "  --force              with --record: replace FILE if it exists\n"
    "  --replay FILE        play a recording into the explorer, which stays open\n"
    "                       after it; a key pauses it, Esc stops it, q quits; it\n"
    "                       opens as the recording started (options given win)\n"
    "  --speed X            with --replay: X times as fast (0.01..1000, default 1)\n"
    "  --follow FILE        follow a teacher's session while --record writes FILE: the\n"
    "                       same steps at your own size; a key of yours explores on\n"
    "                       your own, F rejoins the teacher (FILE - reads standard input)\n"
    "\n";

/* The training options (one string would pass the length C compilers must
 * take), printed with printf: the tasks from the task table (train_task.c). */
static const char usage_tail[] =
    "Training (an attention model that learns a task):\n"
    "  --train TASK|FILE    train on a task, one of\n"
    "                       %s;\n"
    "                       a text to predict the next word of (the bundled\n"
    "                       corpora 'sentences' and 'names', or FILE.txt: one\n"
    "                       sentence a line, one different line in ten held out;\n"
    "                       man mha-explorer, TEXT), or a task file (\"vocab\",\n"
    "                       \"outputs\", \"tokens\", \"targets\", optional \"causal\"\n"
    "                       and \"description\"; one\n"
    "                       row in five is held out: man mha-explorer, TASK FILES);\n"
    "                       with --dump summary it trains without a terminal and\n"
    "                       prints task, description, sizes, steps, seed, held-out\n"
    "                       loss, accuracy per output on sequences never trained\n"
    "                       on, why it stopped (the screen's rule: the held-out\n"
    "                       accuracy settled, or --steps) and ms_per_step; on a\n"
    "                       terminal without --dump it\n"
    "                       opens the training screen (the loss, accuracies and\n"
    "                       heads live; ? lists its keys)\n"
    "  --d-model N --heads H  model width (default 8) and heads (default 2)\n"
    "  --vocab N            tokens in the vocabulary (2..512, default 16; a text's\n"
    "                       most frequent words, the rest <unk>: default 512)\n"
    "  --context T          longest sequence (1..64, default 8; a text's lines are\n"
    "                       cut at 16 words)\n"
    "  --keep-case          a text's words as written (default: lower-cased)\n"
    "  --steps N            the step limit (default 1500; a text's 4000)\n"
    "  --layers N           attention layers, each adding to the last (1..4,\n"
    "                       default 1); the heads shown are the last layer's\n"
    "  --batch N            sequences per step (1..4096, default 64)\n"
    "  --lr X               Adam's learning rate (default 0.01; a text's 0.02, or\n"
    "                       0.01 with --layers 2 or more)\n"
    "  --seed S             seed of the initial weights and the batches (default 1)\n"
    "  --save FILE          write the trained model to FILE (a model file); on the\n"
    "                       screen when it is left (--compare: FILE-headsH per pane)\n"
    "  --compare H,H...     on the screen: the same task, d_model and seed trained\n"
    "                       side by side with these head counts (up to 4), e.g. 1,2;\n"
    "                       layers=1,2 compares layer counts instead\n"
    "  --load MODEL --dump circuits  what each head of a trained model does, read\n"
    "                       off its weights: where it looks, which word looks at\n"
    "                       which, which next words it raises (text or json)\n"
    "  --grad MODEL --batch BATCH  print the loss and the gradient of every\n"
    "                       parameter of a model file on a batch file, as JSON\n"
    "  --layer L            with --load MODEL --dump STAGE: the stages of layer L\n"
    "                       (0 = the first; default the last), its input the\n"
    "                       residual stream after the layers below\n"
    "  --load MODEL         a model file opens the explorer on its sample sequence:\n"
    "                       the stages show the trained model's numbers; with\n"
    "                       --tokens \"the cat sat\" on that sentence (a text\n"
    "                       model's output ends in its next word)\n"
    "\n";

/* The end of --help. */
static const char usage_end[] =
    "In the explorer, :link shows the options that reopen the screen as it is\n"
    "(:link FILE writes them), and e writes the stage as an SVG picture.\n"
    "\n"
    "  -h, --help           show this help and exit\n"
    "  -V, --version        show the version and exit\n"
    "\n"
    "--tokens, --d-model and --seed describe a generated example and cannot be\n"
    "combined with --load of an example file (--tokens can with a model file,\n"
    "and --seed with --generate);\n"
    "--heads, --causal and --no-scale apply to either.\n"
    "\n"
    "Exit status: 0 on success, 1 on an internal failure, 2 on a usage or input error.\n";

/* Writing and exporting, between the training options and the rest. */
static const char usage_writing[] =
    "Writing (a trained language model continues a sentence) and exporting:\n"
    "  --generate N         with --load MODEL: print N lines, no terminal needed;\n"
    "                       each starts from --tokens (else the model's sample's\n"
    "                       first word) and grows a word at a time until . ! ? or\n"
    "                       the context is full (<unk> is never written)\n"
    "  --temperature T      0 writes the likeliest word each time; above 0 draws it\n"
    "                       from softmax(logits / T) (0..100, default 1)\n"
    "  --top-k K            draw only among the K likeliest words (default: all)\n"
    "  --seed S             with --generate: the draws' seed (default 42), so the\n"
    "                       same command writes the same lines\n"
    "  --export-torch FILE.py  with --load MODEL: write the model as a standalone\n"
    "                       PyTorch script; python3 FILE.py WORD... prints its next\n"
    "                       words (a task's predictions) as JSON, as --dump output\n"
    "\n";

/* "a, b, c" -> "a b c", in place: a list as the help's columns show it. */
static char *spaced(char *list)
{
    char *o = list;
    for (const char *p = list; *p; p++)
        if (!(p[0] == ',' && p[1] == ' '))
            *o++ = *p;
    *o = '\0';
    return list;
}

void cli_print_help(void)
{
    char stages[128], range[16], list[128], views[96], themes[96];
    mha_stage_names(stages, sizeof stages, ", ");
    printf(usage_text, spaced(stages), mha_stage_range(range, sizeof range),
           mha_format_list(MHA_FORMAT_ANY, " or ", list, sizeof list),
           mha_view_names(views, sizeof views, ", "),
           colorscale_theme_names(themes, sizeof themes, " or "),
           colorscale_theme_name(COLORSCALE_THEME_DARK));
    char tasks[256];
    printf(usage_tail, train_task_names(tasks, sizeof tasks));
    fputs(usage_writing, stdout);
    fputs(usage_end, stdout);
}
