/* cli_opt_table.c - the option table: each option once, its value's name,
 * default, group and help lines; getopt's long options, --help and (through
 * scripts/gen-docs) the man page's option list and the shell completions
 * come from it. */
#include "cli/cli_opt_table.h"

#include <stddef.h>

/* In --help's order, group by group.  A row with no name is the help's
 * entry for an option named again in another group (or beside another). */
static const struct cli_opt table[] = {
    {"load", "FILE", OPT_LOAD, CLI_GROUP_EXAMPLE, NULL, NULL,
     "take the example from a JSON example file",
     "take the example from a JSON example file, or a model file", "json"},
    {"tokens", "\"T1 T2 ..\"", OPT_TOKENS, CLI_GROUP_EXAMPLE, NULL, NULL,
     "token labels, separated by spaces (1..1024 tokens)", "token labels, separated by spaces",
     NULL},
    {"d-model", "N", OPT_DMODEL, CLI_GROUP_EXAMPLE, NULL, "6",
     "model width d_model (1..2048, default 6)", "model width d_model (1..2048)", NULL},
    {"heads", "H", OPT_HEADS, CLI_GROUP_EXAMPLE, NULL, "2",
     "number of heads, a divisor of d_model (default 2, or 1\n"
     "when d_model is odd); each head gets d_k = d_model / H",
     "number of heads, a divisor of d_model", NULL},
    {"seed", "S", OPT_SEED, CLI_GROUP_EXAMPLE, NULL, "42",
     "seed for the generated numbers (default 42)", "seed for the generated numbers", NULL},
    {"causal", NULL, OPT_CAUSAL, CLI_GROUP_EXAMPLE, NULL, NULL,
     "mask every key after the query's own position",
     "mask every key after the query's own position", NULL},
    {"no-scale", NULL, OPT_NOSCALE, CLI_GROUP_EXAMPLE, NULL, NULL,
     "do not divide scores by sqrt(d_k)", "do not divide scores by sqrt(d_k)", NULL},
    {"dump", "STAGE", OPT_DUMP, CLI_GROUP_OUTPUT, NULL, NULL,
     "print STAGE and exit, no terminal needed; STAGE is one of\n"
     "@STAGES@\n"
     "all (or its number @RANGE@)",
     "print a stage and exit", "words:@stages@ all summary circuits"},
    {"format", "FMT", OPT_FORMAT, CLI_GROUP_OUTPUT, NULL, "text",
     "@FORMATS@\n"
     "(default text); --print-lesson takes text or html",
     "output format", "words:@formats@"},
    {"stage", "STAGE", OPT_STAGE, CLI_GROUP_OUTPUT, NULL, "input",
     "stage the explorer opens on (default input)", "stage the explorer opens on",
     "words:@stages@"},
    {"list-lessons", NULL, OPT_LIST_LESSONS, CLI_GROUP_LESSONS, NULL, NULL,
     "list the lessons: number, title, steps", "list the lessons", NULL},
    {"check-lessons", NULL, OPT_CHECK_LESSONS, CLI_GROUP_LESSONS, "--check-lessons [FILE]...", NULL,
     "check the bundled lessons, or the files named;\n"
     "prints file:line: what is wrong, exit status 2 if any",
     "check the bundled lessons, or the files named", "md"},
    {"print-lesson", "N|FILE", OPT_PRINT_LESSON, CLI_GROUP_LESSONS, NULL, NULL,
     "print a lesson as text, every scene with its numbers", "print a lesson as text", "lessons"},
    {"lesson", "N|FILE", OPT_LESSON, CLI_GROUP_LESSONS, NULL, NULL,
     "open the explorer on a lesson, where you left it", "open the explorer on a lesson",
     "lessons"},
    {"step", "N", OPT_STEP, CLI_GROUP_LESSONS, NULL, "1",
     "with --lesson: start on step N (1 = the first)", "with --lesson: start on step N", NULL},
    {"reset-progress", NULL, OPT_RESET_PROGRESS, CLI_GROUP_LESSONS, NULL, NULL,
     "forget the steps seen and the answers given in every\n"
     "lesson; with --lesson only in that one, which then\n"
     "opens on step 1",
     "forget the progress of every lesson (with --lesson: that one)", NULL},
    {"view", "NAME", OPT_VIEW, CLI_GROUP_EXPLORER, NULL, NULL,
     "open on a view instead of a stage: @VIEWS@", "open on a view", "words:@views@"},
    {"focus", "\"SPEC\"", OPT_FOCUS, CLI_GROUP_EXPLORER, NULL, NULL,
     "put the cursor on a cell of the starting stage, e.g.\n"
     "\"weights, head 1, row 2, col 3\" (rows and columns by\n"
     "token or 0-based index)",
     "put the cursor on a cell", NULL},
    {"bench-frames", "N", OPT_BENCH_FRAMES, CLI_GROUP_EXPLORER, NULL, NULL,
     "no interaction and no terminal needed: redraw N frames\n"
     "off screen and print the median time",
     "redraw N frames off screen and print the median time", NULL},
    {"no-mouse", NULL, OPT_NO_MOUSE, CLI_GROUP_EXPLORER, NULL, NULL,
     "leave the mouse to the terminal (for selecting text);\n"
     "otherwise a click picks a stage, a number or a lesson\n"
     "and the wheel scrolls, where the terminal reports them",
     "leave clicks and the wheel to the terminal", NULL},
    {"present", NULL, OPT_PRESENT, CLI_GROUP_TEACHING, NULL, NULL,
     "presenter mode (P): the stage's title in big letters,\n"
     "roomy numbers, no key hints",
     "presenter mode", NULL},
    {"theme", "NAME", OPT_THEME, CLI_GROUP_TEACHING, NULL, "dark",
     "@THEMES@ (default @THEME@; T cycles);\n"
     "NO_COLOR turns colour off whatever the theme",
     "colour theme", "words:@themes@"},
    {"autoplay", "SECONDS", OPT_AUTOPLAY, CLI_GROUP_TEACHING, NULL, NULL,
     "move on by itself every SECONDS (0.1..3600): the lesson's\n"
     "steps, else the stages round and round; a key pauses",
     "move on by itself every SECONDS", NULL},
    {"record", "FILE", OPT_RECORD, CLI_GROUP_TEACHING, NULL, NULL,
     "save the keys of the session, with their timing, and\n"
     "the options, lesson step and terminal size it started with",
     "save the keys of the session", "files"},
    {"force", NULL, OPT_FORCE, CLI_GROUP_TEACHING, NULL, NULL,
     "with --record: replace FILE if it exists", "with --record: replace an existing file", NULL},
    {"replay", "FILE", OPT_REPLAY, CLI_GROUP_TEACHING, NULL, NULL,
     "play a recording into the explorer, which stays open\n"
     "after it; a key pauses it, Esc stops it, q quits; it\n"
     "opens as the recording started (options given win)",
     "play a recording into the explorer", "files"},
    {"speed", "X", OPT_SPEED, CLI_GROUP_TEACHING, NULL, "1",
     "with --replay: X times as fast (0.01..1000, default 1)", "with --replay: X times as fast",
     NULL},
    {"follow", "FILE", OPT_FOLLOW, CLI_GROUP_TEACHING, NULL, NULL,
     "follow a teacher's session while --record writes FILE: the\n"
     "same steps at your own size; a key of yours explores on\n"
     "your own, F rejoins the teacher (FILE - reads standard input)",
     "follow a teacher's session as it is recorded", "files"},
    {"train", "TASK|FILE", OPT_TRAIN, CLI_GROUP_TRAINING, NULL, NULL,
     "train on a task, one of\n"
     "@TASKS@;\n"
     "a text to predict the next word of (the bundled\n"
     "corpora 'sentences' and 'names', or FILE.txt: one\n"
     "sentence a line,\n"
     "one line in ten held out; man mha-explorer, TEXT),\n"
     "or a task file (\"vocab\", \"outputs\", \"tokens\",\n"
     "\"targets\", optional \"causal\" and \"description\"; one\n"
     "row in five is held out: man mha-explorer, TASK FILES);\n"
     "with --dump summary it trains without a terminal and\n"
     "prints task, description, sizes, steps, seed, held-out\n"
     "loss, accuracy per output on sequences never trained\n"
     "on, why it stopped (the screen's rule: the held-out\n"
     "accuracy settled, or --steps) and ms_per_step; on a\n"
     "terminal without --dump it\n"
     "opens the training screen (the loss, accuracies and\n"
     "heads live; ? lists its keys)",
     "train an attention model on a task or a text", "words+files:@tasks@ @corpora@"},
    {NULL, NULL, OPT_DMODEL, CLI_GROUP_TRAINING, "--d-model N --heads H", NULL,
     "model width (default 8) and heads (default 2)", NULL, NULL},
    {"vocab", "N", OPT_VOCAB, CLI_GROUP_TRAINING, NULL, "16",
     "tokens in the vocabulary (2..512, default 16; a text's\n"
     "most frequent words, the rest <unk>: default 512)",
     "tokens in the vocabulary (2..512)", NULL},
    {"context", "T", OPT_CONTEXT, CLI_GROUP_TRAINING, NULL, "8",
     "longest sequence (1..64, default 8; a text's lines are\n"
     "cut at 16 words)",
     "longest sequence (1..64)", NULL},
    {"keep-case", NULL, OPT_KEEP_CASE, CLI_GROUP_TRAINING, NULL, NULL,
     "a text's words as written (default: lower-cased)",
     "a text's words as written, not lower-cased", NULL},
    {"steps", "N", OPT_STEPS, CLI_GROUP_TRAINING, NULL, "1500",
     "the step limit (default 1500; a text's 4000)", "training steps", NULL},
    {"layers", "N", OPT_LAYERS, CLI_GROUP_TRAINING, NULL, "1",
     "attention layers, each adding to the last (1..4,\n"
     "default 1); the heads shown are the last layer's",
     "attention layers, each adding to the last (1..4)", NULL},
    {"batch", "N", OPT_BATCH, CLI_GROUP_TRAINING, NULL, "64",
     "sequences per step (1..4096, default 64)", "sequences per step, or with --grad a batch file",
     "batch"},
    {"lr", "X", OPT_LR, CLI_GROUP_TRAINING, NULL, "0.01",
     "Adam's learning rate (default 0.01; a text's 0.02, or\n"
     "0.01 with --layers 2 or more)",
     "learning rate", NULL},
    {NULL, NULL, OPT_SEED, CLI_GROUP_TRAINING, "--seed S", NULL,
     "seed of the initial weights and the batches (default 1)", NULL, NULL},
    {"save", "FILE", OPT_SAVE, CLI_GROUP_TRAINING, NULL, NULL,
     "write the trained model to FILE (a model file); on the\n"
     "screen when it is left (--compare: FILE-headsH per pane)",
     "write the trained model to a file", "files"},
    {"compare", "H,H...", OPT_COMPARE, CLI_GROUP_TRAINING, NULL, NULL,
     "on the screen: the same task, d_model and seed trained\n"
     "side by side with these head counts (up to 4), e.g. 1,2;\n"
     "layers=1,2 compares layer counts instead",
     "with --train: head counts (or layers=N,N) trained side by side", NULL},
    {NULL, NULL, OPT_LOAD, CLI_GROUP_TRAINING, "--load MODEL --dump circuits", NULL,
     "what each head of a trained model does, read\n"
     "off its weights: where it looks, which word looks at\n"
     "which, which next words it raises (text or json)",
     NULL, NULL},
    {"grad", "MODEL", OPT_GRAD, CLI_GROUP_TRAINING, "--grad MODEL --batch BATCH", NULL,
     "print the loss and the gradient of every\n"
     "parameter of a model file on a batch file, as JSON",
     "print the loss and gradients of a model file on a batch", "files"},
    {"layer", "L", OPT_LAYER, CLI_GROUP_TRAINING, NULL, NULL,
     "with --load MODEL --dump STAGE: the stages of layer L\n"
     "(0 = the first; default the last), its input the\n"
     "residual stream after the layers below",
     "with --load MODEL --dump STAGE: which layer the stages show (0..3)", NULL},
    {NULL, NULL, OPT_LOAD, CLI_GROUP_TRAINING, "--load MODEL", NULL,
     "a model file opens the explorer on its sample sequence:\n"
     "the stages show the trained model's numbers; with\n"
     "--tokens \"the cat sat\" on that sentence (a text\n"
     "model's output ends in its next word)",
     NULL, NULL},
    {"generate", "N", OPT_GENERATE, CLI_GROUP_WRITING, NULL, NULL,
     "with --load MODEL: print N lines, no terminal needed;\n"
     "each starts from --tokens (else the model's sample's\n"
     "first word) and grows a word at a time until . ! ? or\n"
     "the context is full (<unk> is never written)",
     "with --load MODEL: print lines the language model writes", NULL},
    {"temperature", "T", OPT_TEMPERATURE, CLI_GROUP_WRITING, NULL, "1",
     "0 writes the likeliest word each time; above 0 draws it\n"
     "from softmax(logits / T) (0..100, default 1)",
     "with --generate: 0 for the likeliest word, else how freely words are drawn (0..100)", NULL},
    {"top-k", "K", OPT_TOP_K, CLI_GROUP_WRITING, NULL, NULL,
     "draw only among the K likeliest words (default: all)",
     "with --generate: draw among the K likeliest words", NULL},
    {NULL, NULL, OPT_SEED, CLI_GROUP_WRITING, "--seed S", NULL,
     "with --generate: the draws' seed (default 42), so the\n"
     "same command writes the same lines",
     NULL, NULL},
    {"export-torch", "FILE.py", OPT_EXPORT_TORCH, CLI_GROUP_WRITING, NULL, NULL,
     "with --load MODEL: write the model as a standalone\n"
     "PyTorch script; python3 FILE.py WORD... prints its next\n"
     "words (a task's predictions) as JSON, as --dump output",
     "with --load MODEL: write the model as a PyTorch script", "files"},
    {"help", NULL, OPT_HELP, CLI_GROUP_OTHER, "-h, --help", NULL, "show this help and exit",
     "show the help and exit", NULL},
    {"version", NULL, OPT_VERSION, CLI_GROUP_OTHER, "-V, --version", NULL,
     "show the version and exit", "show the version and exit", NULL},
};

const struct cli_opt *cli_opt_table(int *n)
{
    *n = (int)(sizeof table / sizeof table[0]);
    return table;
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
