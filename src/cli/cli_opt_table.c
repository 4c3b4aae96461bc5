/* cli_opt_table.c - the option table: each option once, its value's name,
 * default, group and help lines; getopt's long options, --help and (through
 * scripts/gen-docs) the man page's option list and the shell completions
 * come from it. */
#include "cli/cli_opt_table.h"

#include <getopt.h>
#include <stddef.h>

#include "cli/cli.h"

/* What parsing does with an option's value: keeps it (a string) or notes
 * the option (a flag) in struct cli_options, or leaves it to the code of
 * cli_options.c (FIELD_OF checks the field's type); AGAIN for a help entry of an option named
 * again. */
#define FIELD_OF(f, type) /* its offset; a field of another type does not compile */               \
    (offsetof(struct cli_options, f) + 0 * sizeof(&((struct cli_options *)0)->f == (type *)0))
#define TEXT(f) CLI_STORE_TEXT, FIELD_OF(f, const char *)
#define FLAG(f) CLI_STORE_FLAG, FIELD_OF(f, bool)
#define CODE CLI_STORE_CODE, 0
#define AGAIN CLI_STORE_CODE, 0

/* In --help's order, group by group.  A row with no name is the help's
 * entry for an option named again in another group (or beside another). */
static const struct cli_opt table[] = {
    {"load", "FILE", 0, CLI_GROUP_EXAMPLE, NULL, NULL, "take the example from a JSON example file",
     "take the example from a JSON example file, or a model file", "json", TEXT(load)},
    {"tokens", "\"T1 T2 ..\"", 0, CLI_GROUP_EXAMPLE, NULL, NULL,
     "token labels, separated by spaces (1..1024 tokens)", "token labels, separated by spaces",
     NULL, TEXT(tokens)},
    {"d-model", "N", OPT_DMODEL, CLI_GROUP_EXAMPLE, NULL, NULL,
     "model width d_model (1..2048, default 6)", "model width d_model (1..2048)", NULL, CODE},
    {"heads", "H", OPT_HEADS, CLI_GROUP_EXAMPLE, NULL, NULL,
     "number of heads, a divisor of d_model (default 2, or 1\n"
     "when d_model is odd); each head gets d_k = d_model / H",
     "number of heads, a divisor of d_model", NULL, CODE},
    {"seed", "S", OPT_SEED, CLI_GROUP_EXAMPLE, NULL, NULL,
     "seed for the generated numbers (default 42)", "seed for the generated numbers", NULL, CODE},
    {"causal", NULL, 0, CLI_GROUP_EXAMPLE, NULL, NULL,
     "mask every key after the query's own position",
     "mask every key after the query's own position", NULL, FLAG(causal)},
    {"no-scale", NULL, 0, CLI_GROUP_EXAMPLE, NULL, NULL, "do not divide scores by sqrt(d_k)",
     "do not divide scores by sqrt(d_k)", NULL, FLAG(no_scale)},
    {"dump", "STAGE", OPT_DUMP, CLI_GROUP_OUTPUT, NULL, NULL,
     "print STAGE and exit, no terminal needed; STAGE is one of\n"
     "@STAGES@\n"
     "all (or its number @RANGE@)",
     "print a stage and exit", "words:@stages@ all summary circuits lens patching", CODE},
    {"format", "FMT", OPT_FORMAT, CLI_GROUP_OUTPUT, NULL, "text",
     "@FORMATS@\n"
     "(default text); --print-lesson takes text or html",
     "output format", "words:@formats@", CODE},
    {"stage", "STAGE", OPT_STAGE, CLI_GROUP_OUTPUT, NULL, "input",
     "stage the explorer opens on (default input)", "stage the explorer opens on", "words:@stages@",
     CODE},
    {"list-lessons", NULL, 0, CLI_GROUP_LESSONS, NULL, NULL,
     "list the lessons: number, title, steps", "list the lessons", NULL, FLAG(list_lessons)},
    {"check-lessons", NULL, 0, CLI_GROUP_LESSONS, "--check-lessons [FILE]...", NULL,
     "check the bundled lessons, or the files named;\n"
     "prints file:line: what is wrong, exit status 2 if any",
     "check the bundled lessons, or the files named", "md", FLAG(check_lessons)},
    {"print-lesson", "N|FILE", 0, CLI_GROUP_LESSONS, NULL, NULL,
     "print a lesson as text, every scene with its numbers", "print a lesson as text", "lessons",
     TEXT(print_lesson)},
    {"lesson", "N|FILE", 0, CLI_GROUP_LESSONS, NULL, NULL,
     "open the explorer on a lesson, where you left it", "open the explorer on a lesson", "lessons",
     TEXT(lesson)},
    {"step", "N", OPT_STEP, CLI_GROUP_LESSONS, NULL, "1",
     "with --lesson: start on step N (1 = the first)", "with --lesson: start on step N", NULL,
     CODE},
    {"reset-progress", NULL, 0, CLI_GROUP_LESSONS, NULL, NULL,
     "forget the steps seen and the answers given in every\n"
     "lesson; with --lesson only in that one, which then\n"
     "opens on step 1",
     "forget the progress of every lesson (with --lesson: that one)", NULL, FLAG(reset_progress)},
    {"view", "NAME", 0, CLI_GROUP_EXPLORER, NULL, NULL,
     "open on a view instead of a stage, one of\n"
     "@VIEWS@",
     "open on a view", "words:@views@", TEXT(view)},
    {"focus", "\"SPEC\"", 0, CLI_GROUP_EXPLORER, NULL, NULL,
     "put the cursor on a cell of the starting stage, e.g.\n"
     "\"weights, head 1, row 2, col 3\" (rows and columns by\n"
     "token or 0-based index)",
     "put the cursor on a cell", NULL, TEXT(focus)},
    {"bench-frames", "N", OPT_BENCH_FRAMES, CLI_GROUP_EXPLORER, NULL, NULL,
     "no interaction and no terminal needed: redraw N frames\n"
     "off screen and print the median time",
     "redraw N frames off screen and print the median time", NULL, CODE},
    {"no-mouse", NULL, 0, CLI_GROUP_EXPLORER, NULL, NULL,
     "leave the mouse to the terminal (for selecting text);\n"
     "otherwise a click picks a stage, a number or a lesson\n"
     "and the wheel scrolls, where the terminal reports them",
     "leave clicks and the wheel to the terminal", NULL, FLAG(no_mouse)},
    {"present", NULL, 0, CLI_GROUP_TEACHING, NULL, NULL,
     "presenter mode (P): the stage's title in big letters,\n"
     "roomy numbers, no key hints",
     "presenter mode", NULL, FLAG(present)},
    {"theme", "NAME", OPT_THEME, CLI_GROUP_TEACHING, NULL, "dark",
     "@THEMES@ (default @THEME@; T cycles);\n"
     "NO_COLOR turns colour off whatever the theme",
     "colour theme", "words:@themes@", CODE},
    {"autoplay", "SECONDS", OPT_AUTOPLAY, CLI_GROUP_TEACHING, NULL, NULL,
     "move on by itself every SECONDS (0.1..3600): the lesson's\n"
     "steps, else the stages round and round; a key pauses",
     "move on by itself every SECONDS", NULL, CODE},
    {"record", "FILE", 0, CLI_GROUP_TEACHING, NULL, NULL,
     "save the keys of the session, with their timing, and the\n"
     "options, lesson step and terminal size it started with",
     "save the keys of the session", "files", TEXT(record)},
    {"force", NULL, 0, CLI_GROUP_TEACHING, NULL, NULL, "with --record: replace FILE if it exists",
     "with --record: replace an existing file", NULL, FLAG(force)},
    {"replay", "FILE", 0, CLI_GROUP_TEACHING, NULL, NULL,
     "play a recording into the explorer, which stays open\n"
     "after it; a key pauses it, Esc stops it, q quits; it\n"
     "opens as the recording started (options given win)",
     "play a recording into the explorer", "files", TEXT(replay)},
    {"speed", "X", OPT_SPEED, CLI_GROUP_TEACHING, NULL, "1",
     "with --replay: X times as fast (0.01..1000, default 1)", "with --replay: X times as fast",
     NULL, CODE},
    {"follow", "FILE", 0, CLI_GROUP_TEACHING, NULL, NULL,
     "follow a teacher's session while --record writes FILE:\n"
     "the same steps at your own size; a key of yours explores\n"
     "on your own, F rejoins the teacher (FILE - reads\n"
     "standard input)",
     "follow a teacher's session as it is recorded", "files", TEXT(follow)},
    {"train", "TASK|FILE", 0, CLI_GROUP_TRAINING, NULL, NULL,
     "train on a task, one of\n"
     "@TASKS@;\n"
     "a text to predict the next word of (the bundled\n"
     "corpora 'sentences' and 'names', or FILE.txt: one\n"
     "sentence a line, one different line in ten held out;\n"
     "the manual's TEXT), or a task file (\"vocab\",\n"
     "\"outputs\", \"tokens\", \"targets\", optional \"causal\"\n"
     "and \"description\"; one\n"
     "row in five is held out: the manual's TASK FILES);\n"
     "with --dump summary it trains without a terminal and\n"
     "prints task, description, sizes, steps, seed, held-out\n"
     "loss, accuracy per output on sequences never trained\n"
     "on, why it stopped (the screen's rule: the held-out\n"
     "accuracy settled, or --steps) and ms_per_step; on a\n"
     "terminal without --dump it\n"
     "opens the training screen (the loss, accuracies and\n"
     "heads live; ? lists its keys)",
     "train an attention model on a task or a text", "words+files:@tasks@ @corpora@", TEXT(train)},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--d-model N --heads H", NULL,
     "model width (default 8) and heads (default 2)", NULL, NULL, AGAIN},
    {"vocab", "N", OPT_VOCAB, CLI_GROUP_TRAINING, NULL, NULL,
     "tokens in the vocabulary (2..512, default 16; a text's\n"
     "most frequent words, the rest <unk>: default 512)",
     "tokens in the vocabulary (2..512)", NULL, CODE},
    {"context", "T", OPT_CONTEXT, CLI_GROUP_TRAINING, NULL, NULL,
     "longest sequence (1..64, default 8; a text's lines are\n"
     "cut at 16 words)",
     "longest sequence (1..64)", NULL, CODE},
    {"keep-case", NULL, 0, CLI_GROUP_TRAINING, NULL, NULL,
     "a text's words as written (default: lower-cased)",
     "a text's words as written, not lower-cased", NULL, FLAG(keep_case)},
    {"steps", "N", OPT_STEPS, CLI_GROUP_TRAINING, NULL, NULL,
     "the step limit (default 1500; a text's 4000)", "training steps", NULL, CODE},
    {"layers", "N", OPT_LAYERS, CLI_GROUP_TRAINING, NULL, "1",
     "attention layers, each adding to the last (1..4,\n"
     "default 1); the heads shown are the last layer's\n"
     "(y on the screen shows the others)",
     "attention layers, each adding to the last (1..4)", NULL, CODE},
    {"variant", "NAME", OPT_VARIANT, CLI_GROUP_TRAINING, NULL, "standard",
     "the attention block: standard, shared-qk (one W for\n"
     "queries and keys), low-rank-qk:R, no-wo (no output\n"
     "projection), low-rank-wo:R, mqa (one head's keys and\n"
     "values for all), gqa:G (G groups share them)",
     "the attention block's design (standard, shared-qk, no-wo, mqa, gqa:G, ...)",
     "words:standard shared-qk low-rank-qk:2 no-wo low-rank-wo:2 mqa gqa:2", CODE},
    {"batch", "N", OPT_BATCH, CLI_GROUP_TRAINING, NULL, NULL,
     "sequences per step (1..4096, default 64)", "sequences per step, or with --grad a batch file",
     "batch", CODE},
    {"lr", "X", OPT_LR, CLI_GROUP_TRAINING, NULL, NULL,
     "Adam's learning rate (default 0.01; a text's 0.02, or\n"
     "0.01 with --layers 2 or more)",
     "learning rate", NULL, CODE},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--seed S", NULL,
     "seed of the initial weights and the batches (default 1)", NULL, NULL, AGAIN},
    {"save", "FILE", 0, CLI_GROUP_TRAINING, NULL, NULL,
     "write the trained model to FILE (a model file); on the\n"
     "screen when it is left (--compare: FILE-headsH per pane)",
     "write the trained model to a file", "files", TEXT(save)},
    {"compare", "H,H...", OPT_COMPARE, CLI_GROUP_TRAINING, NULL, NULL,
     "on the screen: the same task, d_model and seed trained\n"
     "side by side with these head counts (up to 4), e.g. 1,2;\n"
     "layers=1,2 compares layer counts instead, and\n"
     "variants=standard,no-wo the attention blocks (--variant)",
     "with --train: head counts (or layers=N,N, variants=V,V) trained side by side", NULL, CODE},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--load MODEL --dump circuits", NULL,
     "what each head of a trained model does, read\n"
     "off its weights: where it looks, which word looks at\n"
     "which, which next words it raises (text or json)",
     NULL, NULL, AGAIN},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--load MODEL --dump lens", NULL,
     "the logit lens: the residual stream after each\n"
     "layer (\"layer 0\", \"layer 1\", ...) at the last word\n"
     "of --tokens (else the sample) read through the\n"
     "read-out: its likeliest next words (text or json)",
     NULL, NULL, AGAIN},
    {"corrupt", "\"W1 W2 ..\"", 0, CLI_GROUP_TRAINING, NULL, NULL,
     "with --load MODEL --tokens CLEAN --dump patching:\n"
     "the corrupted run's words, as many as CLEAN's; each\n"
     "head's output patched from the clean run into it,\n"
     "(d_patched - d_corrupt) / (d_clean - d_corrupt) of\n"
     "the logit difference A - B (text or json); with\n"
     "--load MODEL alone: the explorer's patching view",
     "the corrupted run's words (--dump patching, the patching view)", NULL, TEXT(corrupt)},
    {"answer", "A,B", 0, CLI_GROUP_TRAINING, NULL, NULL,
     "with --dump patching: the answers compared (default:\n"
     "the clean run's likeliest next word, the corrupted's)",
     "with --dump patching: the two answers compared", NULL, TEXT(answer)},
    {"grad", "MODEL", 0, CLI_GROUP_TRAINING, "--grad MODEL --batch BATCH", NULL,
     "print the loss and the gradient of every\n"
     "parameter of a model file on a batch file, as JSON",
     "print the loss and gradients of a model file on a batch", "files", TEXT(grad)},
    {"layer", "L", OPT_LAYER, CLI_GROUP_TRAINING, NULL, NULL,
     "with --load MODEL: the stages of layer L (0 = the\n"
     "first; default the last), its input the residual\n"
     "stream after the layers below, in the explorer or\n"
     "--dump STAGE; with --dump circuits: that layer's\n"
     "heads, their direct path; with --train TASK\n"
     "--layers N: the training screen opens on layer L",
     "which layer the stages, circuits or training screen show (0..3)", NULL, CODE},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--load MODEL", NULL,
     "a model file opens the explorer on its sample sequence:\n"
     "the stages show the trained model's numbers; with\n"
     "--tokens \"the cat sat\" on that sentence (a text\n"
     "model's output ends in its next word)",
     NULL, NULL, AGAIN},
    {"generate", "N", OPT_GENERATE, CLI_GROUP_WRITING, NULL, NULL,
     "with --load MODEL: print N lines, no terminal needed;\n"
     "each starts from --tokens (else the model's sample's\n"
     "first word) and grows a word at a time until . ! ? or\n"
     "the context is full (<unk> is never written)",
     "with --load MODEL: print lines the language model writes", NULL, CODE},
    {"temperature", "T", OPT_TEMPERATURE, CLI_GROUP_WRITING, NULL, "1",
     "0 writes the likeliest word each time; above 0 draws it\n"
     "from softmax(logits / T) (0..100, default 1)",
     "with --generate: 0 for the likeliest word, else how freely words are drawn (0..100)", NULL,
     CODE},
    {"top-k", "K", OPT_TOP_K, CLI_GROUP_WRITING, NULL, NULL,
     "draw only among the K likeliest words (default: all)",
     "with --generate: draw among the K likeliest words", NULL, CODE},
    {"top-p", "P", OPT_TOP_P, CLI_GROUP_WRITING, NULL, NULL,
     "draw only among the fewest likeliest words whose\n"
     "probabilities sum to P or more (nucleus sampling;\n"
     "above 0, at most 1; default 1: every word)",
     "with --generate: draw among the nucleus of probability P", NULL, CODE},
    {NULL, NULL, 0, CLI_GROUP_WRITING, "--seed S", NULL,
     "with --generate: the draws' seed (default 42), so the\n"
     "same command writes the same lines",
     NULL, NULL, AGAIN},
    {"export-torch", "FILE.py", 0, CLI_GROUP_WRITING, NULL, NULL,
     "with --load MODEL: write a PyTorch module, its\n"
     "weights in FILE.safetensors beside it (new files);\n"
     "python3 FILE.py WORD... prints its next words (a\n"
     "task's predictions) as JSON, as --dump output",
     "with --load MODEL: write the model as a PyTorch script", "files", TEXT(export_torch)},
    {"export-safetensors", "FILE", 0, CLI_GROUP_WRITING, NULL, NULL,
     "with --load MODEL: write the model as a safetensors\n"
     "file in TransformerLens's names (embed.W_E,\n"
     "blocks.0.attn.W_Q, unembed.W_U, ...), its vocabulary\n"
     "in the metadata; --load FILE.safetensors reads it back",
     "with --load MODEL: write the model as safetensors", "files", TEXT(export_safetensors)},
    {"help", NULL, OPT_HELP, CLI_GROUP_OTHER, "-h, --help", NULL, "show this help and exit",
     "show the help and exit", NULL, CODE},
    {"man", NULL, OPT_MAN, CLI_GROUP_OTHER, NULL, NULL,
     "show the manual (every option, key and command) and exit", "show the manual and exit", NULL,
     CODE},
    {"version", NULL, OPT_VERSION, CLI_GROUP_OTHER, "-V, --version", NULL,
     "show the version and exit", "show the version and exit", NULL, CODE},
};

/* cli_parse notes each option given as a bit of struct cli_options' given */
_Static_assert(sizeof table / sizeof table[0] <= 8 * sizeof(unsigned long long),
               "the option table has more rows than cli_options' given has bits");

const struct cli_opt *cli_opt_table(int *n)
{
    *n = (int)(sizeof table / sizeof table[0]);
    return table;
}

const struct option *cli_opt_long_options(void)
{
    static struct option opts[sizeof table / sizeof table[0] + 1];
    if (!opts[0].name) {
        int k = 0;
        for (int i = 0; i < (int)(sizeof table / sizeof table[0]); i++)
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
