/* cli_opt_rows.c - the option table's rows of the example, the output,
 * the lessons, the explorer and teaching (cli_opt_table.h says what a row
 * holds); cli_opt_table.c puts the files' rows together. */
#include "cli/cli_opt_rows.h"

/* In --help's order, group by group. */
const struct cli_opt cli_opt_rows_screen[] = {
    {"load", "FILE", 0, CLI_GROUP_EXAMPLE, NULL, NULL, "take the example from a JSON example file",
     "take the example from a JSON example file, or a model file", "json", TEXT(load),
     CLI_MODE_EXPLORER | CLI_MODE_DUMP | CLI_MODE_CIRCUITS | CLI_MODE_LENS | CLI_MODE_PATCHING |
         CLI_MODE_GENERATE | CLI_MODE_EXPORT_TORCH | CLI_MODE_EXPORT_SAFETENSORS,
     ".BI \\-\\-load \" FILE\"\n"
     "Take the example from a JSON example file, a trained model file or a sentence file (see\n"
     "Training)."},
    {"tokens", "\"T1 T2 ..\"", 0, CLI_GROUP_EXAMPLE, NULL, NULL,
     "token labels, separated by spaces (1..1024 tokens)", "token labels, separated by spaces",
     NULL, TEXT(tokens),
     CLI_MODE_EXPLORER | CLI_MODE_DUMP | CLI_MODE_LENS | CLI_MODE_PATCHING | CLI_MODE_GENERATE |
         CLI_MODE_EXPORT_TORCH | CLI_MODE_EXPORT_SAFETENSORS,
     ".BI \\-\\-tokens \" \\(dqT1 T2 ...\\(dq\"\n"
     "Token labels separated by spaces (1 to 1024 tokens, any UTF-8 text)."},
    {"d-model", "N", OPT_DMODEL, CLI_GROUP_EXAMPLE, NULL, NULL,
     "model width d_model (1..2048, default 6)", "model width d_model (1..2048)", NULL, CODE,
     CLI_MODE_EXPLORER | CLI_MODE_DUMP | CLI_TRAINING,
     ".BI \\-\\-d\\-model \" N\"\n"
     "Model width\n"
     ".I d_model\n"
     "(1 to 2048, default 6)."},
    {"heads", "H", OPT_HEADS, CLI_GROUP_EXAMPLE, NULL, NULL,
     "number of heads, a divisor of d_model (default 2, or 1\n"
     "when d_model is odd); each head gets d_k = d_model / H",
     "number of heads, a divisor of d_model", NULL, CODE,
     CLI_MODE_EXPLORER | CLI_MODE_DUMP | CLI_TRAINING,
     ".BI \\-\\-heads \" H\"\n"
     "Number of heads, a divisor of\n"
     ".I d_model\n"
     "(default 2, or 1 when\n"
     ".I d_model\n"
     "is odd). Each head gets\n"
     ".I d_k\n"
     "=\n"
     ".I d_model\n"
     "/\n"
     ".IR H ."},
    {"seed", "S", OPT_SEED, CLI_GROUP_EXAMPLE, NULL, NULL,
     "seed for the generated numbers (default 42)", "seed for the generated numbers", NULL, CODE,
     CLI_MODE_EXPLORER | CLI_MODE_DUMP | CLI_TRAINING | CLI_MODE_GENERATE,
     ".BI \\-\\-seed \" S\"\n"
     "Seed for the generated numbers (default 42).\n"
     "Inputs are drawn uniform in [\\-2, 2).\n"
     "Weights are drawn uniform in [\\-1, 1) only for the page's example (4 tokens,\n"
     ".I d_model\n"
     "6, seed 42, any number of heads); every other generated example draws them as\n"
     ".B nn.Linear\n"
     "initialises its weights, uniform in \\(+-1/\\(sr\\fId_model\\fR."},
    {"causal", NULL, 0, CLI_GROUP_EXAMPLE, NULL, NULL,
     "mask every key after the query's own position",
     "mask every key after the query's own position", NULL, FLAG(causal),
     CLI_MODE_EXPLORER | CLI_MODE_DUMP,
     ".B \\-\\-causal\n"
     "Mask every key after the query's own position."},
    {"no-scale", NULL, 0, CLI_GROUP_EXAMPLE, NULL, NULL, "do not divide scores by sqrt(d_k)",
     "do not divide scores by sqrt(d_k)", NULL, FLAG(no_scale), CLI_MODE_EXPLORER | CLI_MODE_DUMP,
     ".B \\-\\-no\\-scale\n"
     "Do not divide the scores by \\(sr\\fId_k\\fR."},
    {"dump", "STAGE", OPT_DUMP, CLI_GROUP_OUTPUT, NULL, NULL,
     "print STAGE and exit, no terminal needed; STAGE is one of\n"
     "@STAGES@\n"
     "all (or its number @RANGE@)",
     "print a stage and exit", "words:@stages@ all summary circuits lens patching", CODE,
     CLI_MODE_DUMP | CLI_MODE_SUMMARY | CLI_MODE_CIRCUITS | CLI_MODE_LENS | CLI_MODE_PATCHING,
     ".BI \\-\\-dump \" STAGE\"\n"
     "Print\n"
     ".I STAGE\n"
     "and exit; no terminal needed.\n"
     ".I STAGE\n"
     "is one of @STAGES@, all,\n"
     "or the stage's number 0 to @LAST_STAGE@.\n"
     "The options of the screens (\\-\\-stage, \\-\\-lesson and those of the Explorer and\n"
     "Teaching groups) are refused with it (exit status 2)."},
    {"format", "FMT", OPT_FORMAT, CLI_GROUP_OUTPUT, NULL, "text",
     "@FORMATS@\n"
     "(default text); --print-lesson takes text or html",
     "output format", "words:@formats@", CODE,
     CLI_MODE_DUMP | CLI_MODE_SUMMARY | CLI_MODE_CIRCUITS | CLI_MODE_LENS | CLI_MODE_PATCHING |
         CLI_MODE_PRINT_LESSON,
     ".BI \\-\\-format \" FMT\"\n"
     ".\\\" gen-docs: formats begin (written from the format table by scripts/gen-docs)\n"
     ".\\\" gen-docs: formats end\n"
     "The pictures are for slides and handouts:\n"
     ".B svg\n"
     "a standalone picture with the screen's colours,\n"
     ".B html\n"
     "one self-contained page.\n"
     "The tables are for notes; in\n"
     ".B csv\n"
     "a label starting with =, +, \\-, @, tab or CR is quoted with a leading\n"
     "\\(aq so that spreadsheets show it as text, not a formula.\n"
     ".B \\-\\-print\\-lesson\n"
     "takes\n"
     ".B text\n"
     "or\n"
     ".BR html ."},
    {"stage", "STAGE", OPT_STAGE, CLI_GROUP_OUTPUT, NULL, "input",
     "stage the explorer opens on (default input)", "stage the explorer opens on", "words:@stages@",
     CODE, CLI_MODE_EXPLORER,
     ".BI \\-\\-stage \" STAGE\"\n"
     "The stage the explorer opens on (default input)."},
    {"list-lessons", NULL, 0, CLI_GROUP_LESSONS, NULL, NULL,
     "list the lessons: number, title, steps", "list the lessons", NULL, FLAG(list_lessons),
     CLI_MODE_LIST_LESSONS,
     ".B \\-\\-list\\-lessons\n"
     "List the lessons: number, title, steps."},
    {"check-lessons", NULL, 0, CLI_GROUP_LESSONS, "--check-lessons [FILE]...", NULL,
     "check the bundled lessons, or the files named;\n"
     "prints file:line: what is wrong, exit status 2 if any",
     "check the bundled lessons, or the files named", "md", FLAG(check_lessons),
     CLI_MODE_CHECK_LESSONS,
     ".BR \\-\\-check\\-lessons \" [\" \\fIFILE ]...\n"
     "Check the bundled lessons, or the files named; prints\n"
     ".IR file : line :\n"
     "what is wrong; exit status 2 if anything is."},
    {"print-lesson", "N|FILE", 0, CLI_GROUP_LESSONS, NULL, NULL,
     "print a lesson as text, every scene with its numbers", "print a lesson as text", "lessons",
     TEXT(print_lesson), CLI_MODE_PRINT_LESSON,
     ".BI \\-\\-print\\-lesson \" N|FILE\"\n"
     "Print a lesson as text, every scene with its numbers."},
    {"lesson", "N|FILE", 0, CLI_GROUP_LESSONS, NULL, NULL,
     "open the explorer on a lesson, where you left it", "open the explorer on a lesson", "lessons",
     TEXT(lesson), CLI_MODE_EXPLORER,
     ".BI \\-\\-lesson \" N|FILE\"\n"
     "Open the explorer on a lesson: a bundled one by its number, or a lesson file.\n"
     "It opens where you left it (or on its first step).\n"
     "A lesson that does not exist, or whose file has problems, is an error\n"
     "(exit status 2, with the problems as\n"
     ".IR file : line :\n"
     "messages) before the terminal is touched.\n"
     "Each step puts the screen in its scene's state, the example and the stage, so\n"
     "\\-\\-load, \\-\\-tokens, \\-\\-d\\-model, \\-\\-heads, \\-\\-seed, \\-\\-causal,\n"
     "\\-\\-no\\-scale and \\-\\-stage are refused with it (exit status 2); \\-\\-view and\n"
     "\\-\\-focus apply to the step it opens on."},
    {"step", "N", OPT_STEP, CLI_GROUP_LESSONS, NULL, "1",
     "with --lesson: start on step N (1 = the first)", "with --lesson: start on step N", NULL, CODE,
     CLI_SCREENS,
     ".BI \\-\\-step \" N\"\n"
     "With\n"
     ".BR \\-\\-lesson :\n"
     "start on step\n"
     ".I N\n"
     "(1 is the first)."},
    {"reset-progress", NULL, 0, CLI_GROUP_LESSONS, NULL, NULL,
     "forget the steps seen and the answers given in every\n"
     "lesson; with --lesson only in that one, which then\n"
     "opens on step 1",
     "forget the progress of every lesson (with --lesson: that one)", NULL, FLAG(reset_progress),
     CLI_MODE_RESET_PROGRESS | CLI_MODE_EXPLORER,
     ".B \\-\\-reset\\-progress\n"
     "Forget the steps seen and the answers given in every lesson, and exit.\n"
     "With\n"
     ".BR \\-\\-lesson ,\n"
     "forget only that lesson's, then open it on step 1."},
    {"view", "NAME", 0, CLI_GROUP_EXPLORER, NULL, NULL,
     "open on a view instead of a stage, one of\n"
     "@VIEWS@",
     "open on a view", "words:@views@", TEXT(view), CLI_MODE_EXPLORER,
     ".BI \\-\\-view \" NAME\"\n"
     "Open on a view instead of a stage:\n"
     ".\\\" gen-docs: views begin (written from the view table by scripts/gen-docs)\n"
     ".\\\" gen-docs: views end\n"
     "(see\n"
     ".BR VIEWS )."},
    {"focus", "\"SPEC\"", 0, CLI_GROUP_EXPLORER, NULL, NULL,
     "put the cursor on a cell of the starting stage, e.g.\n"
     "\"weights, head 1, row 2, col 3\" (rows and columns by\n"
     "token or 0-based index)",
     "put the cursor on a cell", NULL, TEXT(focus), CLI_MODE_EXPLORER,
     ".BI \\-\\-focus \" SPEC\"\n"
     "Put the cursor on a cell of the starting stage, written as in a lesson's\n"
     "scene: an optional matrix, then\n"
     ".BI head \" N\"\\fR,\n"
     ".BI row \" R\"\n"
     "and\n"
     ".BI col \" C\"\n"
     "(a token or a 0-based index), e.g.\n"
     ".BR \"\\(dqweights, head 1, row it, col mat\\(dq\" .\n"
     "A cell the stage does not show is an error (exit status 2)."},
    {"bench-frames", "N", OPT_BENCH_FRAMES, CLI_GROUP_EXPLORER, NULL, NULL,
     "no interaction and no terminal needed: redraw N frames\n"
     "off screen and print the median time",
     "redraw N frames off screen and print the median time", NULL, CODE, CLI_SCREENS,
     ".BI \\-\\-bench\\-frames \" N\"\n"
     "Do not interact: draw\n"
     ".I N\n"
     "frames off screen, each after a simulated keypress, print the median and\n"
     "largest redraw time and exit. Needs no terminal.\n"
     "It takes no keys, clicks or time and leaves no screen, so \\-\\-record,\n"
     "\\-\\-replay, \\-\\-autoplay, \\-\\-no\\-mouse and \\-\\-save are refused with it\n"
     "(exit status 2)."},
    {"no-mouse", NULL, 0, CLI_GROUP_EXPLORER, NULL, NULL,
     "leave the mouse to the terminal (for selecting text);\n"
     "otherwise a click picks a stage, a number or a lesson\n"
     "and the wheel scrolls, where the terminal reports them",
     "leave clicks and the wheel to the terminal", NULL, FLAG(no_mouse), CLI_SCREENS,
     ".B \\-\\-no\\-mouse\n"
     "Leave the mouse to the terminal, for selecting text as usual. Otherwise, where\n"
     "the terminal reports the mouse, a click on a stage in the pipeline bar goes\n"
     "there, a click on a number explains it, a click on a lesson in the list opens\n"
     "it, and the wheel scrolls as the arrow keys do (see\n"
     ".BR MOUSE )."},
    {"present", NULL, 0, CLI_GROUP_TEACHING, NULL, NULL,
     "presenter mode (P): the stage's title in big letters,\n"
     "roomy numbers, no key hints",
     "presenter mode", NULL, FLAG(present), CLI_SCREENS,
     ".B \\-\\-present\n"
     "Open in the presenter's layout (see\n"
     ".BR \"PRESENTING\" ;\n"
     ".B P\n"
     "switches it in the explorer)."},
    {"theme", "NAME", OPT_THEME, CLI_GROUP_TEACHING, NULL, "dark",
     "@THEMES@ (default @THEME@; T cycles);\n"
     "NO_COLOR turns colour off whatever the theme",
     "colour theme", "words:@themes@", CODE, CLI_SCREENS,
     ".BI \\-\\-theme \" NAME\"\n"
     ".B dark\n"
     "(the default, for dark terminals),\n"
     ".B light\n"
     "(for light terminal backgrounds: dark text, light cell fills),\n"
     ".B projector\n"
     "(black on white whatever the terminal's colours, bold labels, colour scales\n"
     "with deep ends that survive a washed-out beamer) or\n"
     ".B mono\n"
     "(no colour at all; heatmaps in shade glyphs).\n"
     ".B T\n"
     "goes round them in the explorer.\n"
     ".B NO_COLOR\n"
     "turns colour off whatever the theme."},
    {"autoplay", "SECONDS", OPT_AUTOPLAY, CLI_GROUP_TEACHING, NULL, NULL,
     "move on by itself every SECONDS (0.1..3600): the lesson's\n"
     "steps, else the stages round and round; a key pauses",
     "move on by itself every SECONDS", NULL, CODE, CLI_SCREENS,
     ".BI \\-\\-autoplay \" SECONDS\"\n"
     "Start with autoplay on, a move every\n"
     ".I SECONDS\n"
     "(0.1 to 3600; see\n"
     ".BR PRESENTING ).\n"
     "Anything else is an error (exit status 2)."},
    {"record", "FILE", 0, CLI_GROUP_TEACHING, NULL, NULL,
     "save the keys of the session, with their timing, and the\n"
     "options, lesson step and terminal size it started with",
     "save the keys of the session", "files", TEXT(record), CLI_SCREENS,
     ".BI \\-\\-record \" FILE\"\n"
     "Save the keys of the session in\n"
     ".I FILE\n"
     "with the time of each, written as they are pressed, after the options, lesson\n"
     "step and terminal size the session started with (see\n"
     ".BR RECORDINGS ).\n"
     "An existing\n"
     ".I FILE\n"
     "is not replaced unless\n"
     ".B \\-\\-force\n"
     "is given; a file that cannot be written is an error (exit status 2) before the\n"
     "terminal is touched (see\n"
     ".BR \"FILES WRITTEN\" ),\n"
     "and so is\n"
     ".B \\-\\-record\n"
     "with\n"
     ".BR \\-\\-dump ,\n"
     "which opens no explorer to record.\n"
     "The start lines are written whole to a temporary file beside\n"
     ".IR FILE ,\n"
     "which is renamed to\n"
     ".I FILE\n"
     "as soon as the explorer is up; from then on each key is written there as it is\n"
     "pressed (with a comment line carrying the session's clock each second it is\n"
     "quiet, and one at the end), so students can follow the file while it grows\n"
     ".RB ( \\-\\-follow ).\n"
     "If writing fails on the way (a full disk), the status line says\n"
     "\\(lqrecording stopped\\(rq, the keys written before are kept, and the explorer\n"
     "says so on exit and exits with status 1."},
    {"force", NULL, 0, CLI_GROUP_TEACHING, NULL, NULL, "with --record: replace FILE if it exists",
     "with --record: replace an existing file", NULL, FLAG(force), CLI_SCREENS,
     ".B \\-\\-force\n"
     "With\n"
     ".BR \\-\\-record :\n"
     "replace\n"
     ".I FILE\n"
     "if it exists (a symbolic link stays one: the file it points to is replaced)."},
    {"replay", "FILE", 0, CLI_GROUP_TEACHING, NULL, NULL,
     "play a recording into the explorer, which stays open\n"
     "after it; a key pauses it, Esc stops it, q quits; it\n"
     "opens as the recording started (options given win)",
     "play a recording into the explorer", "files", TEXT(replay), CLI_SCREENS,
     ".BI \\-\\-replay \" FILE\"\n"
     "Play a recording into the explorer with its timing.\n"
     "The whole file is read first (a regular file; reading stops at its first bad\n"
     "line, a line holding a NUL byte, or the line where its 8 MiB of keys and state\n"
     "lines, or its 64 MiB of training snapshots, run out): a\n"
     "malformed one is reported as\n"
     ".IR file : line :\n"
     "what is wrong, with exit status 2, and nothing is played; a last line cut short\n"
     "(a recording that was never finished) is left out with a warning and the keys\n"
     "before it play.\n"
     "The explorer opens as the recording started: its example, lesson and step,\n"
     "stage, view, theme, presenter mode and autoplay, and a training run's\n"
     ".BR \\-\\-train ,\n"
     ".BR \\-\\-compare ,\n"
     ".BR \\-\\-steps ,\n"
     ".BR \\-\\-vocab ,\n"
     ".BR \\-\\-context ,\n"
     ".BR \\-\\-batch \" and \" \\-\\-lr\n"
     "(so it trains the same run), with options given on the\n"
     "command line taking precedence; if the terminal is not the size the recording\n"
     "was made in, the message line says so.\n"
     "A file the recording's start names\n"
     ".RB ( \"\\-\\-load FILE\" ,\n"
     ".BR \"\\-\\-lesson FILE\" ,\n"
     ".BR \"\\-\\-train FILE\" ,\n"
     ".BR \\-\\-save ,\n"
     ".BR \\-\\-record )\n"
     "is not opened: the message line names it, and it opens when given on the\n"
     "command line (a lesson by number, a bundled example, a task by name open as\n"
     "recorded).\n"
     "No key of a replay writes or reads a file or sets the clipboard:\n"
     ".BR e ,\n"
     ".BR :export ,\n"
     ".B \":link FILE\"\n"
     "and\n"
     ".B \":load PATH\"\n"
     "say what the recording did instead,\n"
     ".B :link\n"
     "shows its line without copying it, and\n"
     ".B \":load NAME\"\n"
     "of a bundled example loads it.\n"
     "The lessons' progress file is neither read nor written until the replay stops\n"
     "or ends.\n"
     "While it plays, any key pauses it and the next plays on;\n"
     ".B Esc\n"
     "stops it and\n"
     ".B q\n"
     "quits.\n"
     "At the end the explorer stays open and says the replay finished."},
    {"speed", "X", OPT_SPEED, CLI_GROUP_TEACHING, NULL, "1",
     "with --replay: X times as fast (0.01..1000, default 1)", "with --replay: X times as fast",
     NULL, CODE, CLI_SCREENS,
     ".BI \\-\\-speed \" X\"\n"
     "With\n"
     ".BR \\-\\-replay :\n"
     "play\n"
     ".I X\n"
     "times as fast (0.01 to 1000, default 1)."},
    {"follow", "FILE", 0, CLI_GROUP_TEACHING, NULL, NULL,
     "follow a teacher's session while --record writes FILE:\n"
     "the same steps at your own size; a key of yours explores\n"
     "on your own, F rejoins the teacher (FILE - reads\n"
     "standard input)",
     "follow a teacher's session as it is recorded", "files", TEXT(follow), CLI_SCREENS,
     ".BI \\-\\-follow \" FILE\"\n"
     "Follow a teacher's session while the teacher's\n"
     ".B \\-\\-record\n"
     "writes\n"
     ".IR FILE :\n"
     "the explorer opens as the teacher's did (as with\n"
     ".BR \\-\\-replay ,\n"
     "options given win) and applies each of the teacher's keys within a second of\n"
     "its being written; a student who joins late plays the keys so far at once.\n"
     "Training screens, lessons,\n"
     ".B \\-\\-compare\n"
     "and presenter mode follow step for step.\n"
     "A follower does not train the teacher's run again: the teacher's explorer\n"
     "writes snapshots of the run into the stream (see\n"
     ".BR RECORDINGS )\n"
     "and the follower draws the curve, accuracies, labels, heatmaps and circuits\n"
     "from the last of them, training nothing; it shows the teacher's step, pause and\n"
     "checkpoint within a second, and a student who explores on their own trains on\n"
     "from the model the last snapshot gave.\n"
     "Each student keeps their own terminal size and theme; the teacher's resizes are\n"
     "not applied, and the teacher's clicks only where the student's terminal has the\n"
     "teacher's size.\n"
     "A student's own key starts exploring alone (the status line says\n"
     "\\(lqexploring on your own \\(bu F rejoins the teacher\\(rq);\n"
     ".B F\n"
     "goes back to the teacher's present from any screen (only a\n"
     ".B :\n"
     "or\n"
     ".B /\n"
     "line being typed takes it as a letter), and after the teacher starts again\n"
     "over the same file it follows the new recording from its start;\n"
     ".B q\n"
     "asks before it leaves.\n"
     ".I FILE\n"
     ".B \\-\n"
     "reads the stream from standard input (keys then come from /dev/tty):\n"
     ".B \"ssh HOST tail \\-c +1 \\-f class.rec | mha\\-explorer \\-\\-follow \\-\" .\n"
     "The stream is data only, as a replay's is (see\n"
     ".BR \\-\\-replay ):\n"
     "no file its start names is opened, no key of the teacher's writes or reads a\n"
     "file on the student's machine or sets their clipboard (the message line says\n"
     "what the teacher did), and the student's lesson progress is neither read nor\n"
     "written until they explore on their own.\n"
     "A line that is not a recording's (a NUL byte, a line\n"
     "longer than a recording allows, more than 8 MiB of keys and state lines or\n"
     "64 MiB of training snapshots, an unknown key) stops\n"
     "following with the line named; a file that is removed, replaced, or gets\n"
     "shorter, a pipe that closes, the teacher's end, and ten seconds without a\n"
     "line (within 12 s, whether or not the screen changes otherwise) are said on\n"
     "the status line, and the screen stays as it was.\n"
     "A path that is not a regular file or a pipe, or a stream that stops before\n"
     "the teacher's session started, is an error (exit status 2)."},
};

const int cli_opt_rows_screen_n = (int)(sizeof cli_opt_rows_screen / sizeof cli_opt_rows_screen[0]);
