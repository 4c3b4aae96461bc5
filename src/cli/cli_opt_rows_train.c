/* cli_opt_rows_train.c - the option table's rows of training, and of
 * what a trained model's file is read for (cli_opt_table.h says what a row
 * holds). */
#include "cli/cli_opt_rows.h"

/* In --help's order, group by group. */
const struct cli_opt cli_opt_rows_train[] = {
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
     "train an attention model on a task or a text", "words+files:@tasks@ @corpora@", TEXT(train),
     CLI_TRAINING,
     ".BI \\-\\-train \" TASK\\fR|\\fIFILE\"\n"
     "Train on a task:\n"
     ".\\\" gen-docs: tasks begin (written from the task table by scripts/gen-docs)\n"
     ".\\\" gen-docs: tasks end\n"
     "or a task file (see\n"
     ".BR \"TASK FILES\" ).\n"
     "With\n"
     ".B \\-\\-dump summary\n"
     "it trains without a terminal (a progress bar on standard error when that is a terminal) and\n"
     "prints task, description, d_model, num_heads, vocab, context, steps, batch, lr, seed, the "
     "loss\n"
     "and each output's accuracy on the held-out sequences, that accuracy with each head knocked "
     "out\n"
     "alone (its output replaced by its mean over the held-out sequences: \"knocked_out\" in "
     "JSON), why\n"
     "it stopped, what each head was measured to do, and ms_per_step (the run's time over its "
     "steps),\n"
     "all of the model it keeps: the model of its best held-out evaluation (its best accuracy; on "
     "a\n"
     "text or a task file its lowest held-out loss), with the step kept (\"kept_step\" in "
     "\"stopped\" in\n"
     "JSON) and, where that is not the last step, the last step's accuracy and loss beside it\n"
     "(\"last step\" in text, \"last\" in JSON); \\-\\-save writes that model,\n"
     "as text or, with\n"
     ".BR \"\\-\\-format json\" ,\n"
     "JSON, whose held_out says what the accuracy was measured on:\n"
     "{\"sequences\": 1024, \"source\": \"generated, disjoint from training\"} or\n"
     "{\"sequences\": N, \"source\": \"task file rows\"}.\n"
     "The same command prints the same summary, byte for byte, but for ms_per_step.\n"
     "Held out means never trained on: a generated task holds out 1024 different sequences (a "
     "fifth\n"
     "of all the sequences it has, when that is fewer: majority at context 8 has 6561) and draws\n"
     "again any training sequence that equals one of them; a task file holds out its own rows."},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--d-model N --heads H", NULL,
     "model width (default 8) and heads (default 2)", NULL, NULL, AGAIN, CLI_TRAINING,
     ".BI \\-\\-d\\-model \" N\" \"\\fR, \\fP\" \\-\\-heads \" H\"\n"
     "With\n"
     ".BR \\-\\-train :\n"
     "model width (default 8) and heads (default 2)."},
    {"vocab", "N", OPT_VOCAB, CLI_GROUP_TRAINING, NULL, NULL,
     "tokens in the vocabulary (2..512, default 16; a text's\n"
     "most frequent words, the rest <unk>: default 512)",
     "tokens in the vocabulary (2..512)", NULL, CODE, CLI_TRAINING,
     ".BI \\-\\-vocab \" N\"\n"
     "Tokens in the vocabulary, 2 to 512 (default 16; a text's most frequent words, the rest "
     "<unk>: default 512)."},
    {"context", "T", OPT_CONTEXT, CLI_GROUP_TRAINING, NULL, NULL,
     "longest sequence (1..64, default 8; a text's lines are\n"
     "cut at 16 words)",
     "longest sequence (1..64)", NULL, CODE, CLI_TRAINING,
     ".BI \\-\\-context \" T\"\n"
     "Longest sequence, 1 to 64 (default 8)."},
    {"keep-case", NULL, 0, CLI_GROUP_TRAINING, NULL, NULL,
     "a text's words as written (default: lower-cased)",
     "a text's words as written, not lower-cased", NULL, FLAG(keep_case), CLI_TRAINING,
     ".B \\-\\-keep\\-case\n"
     "With\n"
     ".B \\-\\-train\n"
     "on a text: keep its words as written, so that\n"
     ".I The\n"
     "and\n"
     ".I the\n"
     "are two words of the vocabulary (without it they are lower-cased, and\n"
     ".B python3\n"
     ".I FILE.py\n"
     "lower-cases the words it is given; see\n"
     ".BR TEXT ).\n"
     "A task's tokens are its own: with a task it is refused (exit status 2)."},
    {"steps", "N", OPT_STEPS, CLI_GROUP_TRAINING, NULL, NULL,
     "the step limit (default 1500; a text's 4000)", "training steps", NULL, CODE, CLI_TRAINING,
     ".BI \\-\\-steps \" N\"\n"
     "Training steps (default 1500)."},
    {"layers", "N", OPT_LAYERS, CLI_GROUP_TRAINING, NULL, "1",
     "attention layers, each adding to the last (1..4,\n"
     "default 1); the heads shown are the last layer's\n"
     "(y on the screen shows the others)",
     "attention layers, each adding to the last (1..4)", NULL, CODE, CLI_TRAINING,
     ".BI \\-\\-layers \" N\"\n"
     "With\n"
     ".BR \\-\\-train :\n"
     "attention layers, 1 to 4 (default 1). Each layer is the same multi-head attention with "
     "weights\n"
     "of its own, and adds its output to what it read: x = embedding + positions, then for each "
     "layer\n"
     "x = x + MHA(x), and the read-outs read the last x. Every layer has as many heads as\n"
     ".BR \\-\\-heads .\n"
     "A model file of two or more layers holds\n"
     ".B\n"
     "\"layers\": [{\"w_q\", \"w_k\", \"w_v\", \"w_o\", optional \"b_q\" .. \"b_o\"}, ...]\n"
     "in place of the top-level weights (a one-layer model keeps them at the top level), and\n"
     ".B \\-\\-grad\n"
     "gives its gradients the same way, under \"grad\": {\"layers\": [...]}. The heads the "
     "training\n"
     "screen, the summary and the knock-outs measure are the last layer's; the explorer shows the "
     "last\n"
     "layer's attention, its input the residual stream after the layers below."},
    {"variant", "NAME", OPT_VARIANT, CLI_GROUP_TRAINING, NULL, "standard",
     "the attention block: standard, shared-qk (one W for\n"
     "queries and keys), low-rank-qk:R, no-wo (no output\n"
     "projection), low-rank-wo:R, mqa (one head's keys and\n"
     "values for all), gqa:G (G groups share them)",
     "the attention block's design (standard, shared-qk, no-wo, mqa, gqa:G, ...)",
     "words:standard shared-qk low-rank-qk:2 no-wo low-rank-wo:2 mqa gqa:2", CODE, CLI_TRAINING,
     ".BI \\-\\-variant \" NAME\"\n"
     "With\n"
     ".BR \\-\\-train :\n"
     "the design of every layer's attention block (default\n"
     ".BR standard ).\n"
     ".B shared-qk\n"
     "gives queries and keys one matrix and bias (the scores are symmetric before the mask);\n"
     ".BI low-rank-qk: R\n"
     "makes W_q and W_k each the product of a d_model x R and an R x d_model matrix;\n"
     ".B no-wo\n"
     "has no output projection (the merged heads are the block's output);\n"
     ".BI low-rank-wo: R\n"
     "makes W_O such a product (R from 1 to d_model \\- 1);\n"
     ".B mqa\n"
     "gives every head its own queries and one head's keys and values;\n"
     ".BI gqa: G\n"
     "gives each of G groups of heads (G divides the heads) one set of keys and values, heads\n"
     "g\\(mu(H/G) to (g+1)\\(mu(H/G) \\- 1 in group g, as PyTorch's repeat_interleave lays them "
     "out.\n"
     "A variant trains in the same parameter block as the standard block, and its model file "
     "keeps\n"
     "w_q, w_k, w_v, w_o and the biases as full matrices holding what it means (w_k = w_q; w_o "
     "the\n"
     "identity and b_o zero; each head's rows of w_k and w_v its group's), plus\n"
     ".B \"\"\"variant\"\"\"\n"
     "and, for a low-rank variant, the factors (w_q_left, d_model x R, and w_q_right, R x "
     "d_model;\n"
     "w_k_..., w_o_...), so every reader of a model file shows the real numbers;\n"
     ".B \\-\\-load\n"
     "checks that the full matrices agree with the variant and says where they do not.\n"
     ".B \\-\\-dump summary\n"
     "names the variant, the parameters it learns and, for a causal task, the keys and values a\n"
     "decoder caches per token and layer."},
    {"batch", "N", OPT_BATCH, CLI_GROUP_TRAINING, NULL, NULL,
     "sequences per step (1..4096, default 64)", "sequences per step, or with --grad a batch file",
     "batch", CODE, CLI_TRAINING | CLI_MODE_GRAD,
     ".BI \\-\\-batch \" N\"\n"
     "With\n"
     ".BR \\-\\-train :\n"
     "sequences per step, 1 to 4096 (default 64)."},
    {"lr", "X", OPT_LR, CLI_GROUP_TRAINING, NULL, NULL,
     "Adam's learning rate (default 0.01; a text's 0.02, or\n"
     "0.01 with --layers 2 or more)",
     "learning rate", NULL, CODE, CLI_TRAINING,
     ".BI \\-\\-lr \" X\"\n"
     "Adam's learning rate (default 0.01; a text's 0.02, and 0.01 for a text with two layers or "
     "more;\n"
     ".B induction\n"
     "takes 0.005)."},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--seed S", NULL,
     "seed of the initial weights and the batches (default 1)", NULL, NULL, AGAIN, CLI_TRAINING,
     ".BI \\-\\-seed \" S\"\n"
     "With\n"
     ".BR \\-\\-train :\n"
     "seed of the initial weights and of the batches (default 1)."},
    {"save", "FILE", 0, CLI_GROUP_TRAINING, NULL, NULL,
     "write the trained model to FILE (a model file); on the\n"
     "screen when it is left (--compare: FILE-headsH per pane)",
     "write the trained model to a file", "files", TEXT(save), CLI_TRAINING,
     ".BI \\-\\-save \" FILE\"\n"
     "Write the trained model to\n"
     ".I FILE\n"
     "as a model file: after\n"
     ".B \\-\\-dump summary\n"
     "when training ends, and on the training screen when the screen is left (the\n"
     "step it shows; after a scrub, the checkpoint scrubbed to).\n"
     "With\n"
     ".BR \\-\\-compare ,\n"
     "each pane is written to its own file, its heads before the extension\n"
     ".RI ( m.json\n"
     "gives\n"
     ".I m\\-heads1.json\n"
     "and\n"
     ".IR m\\-heads2.json ;\n"
     "a head count given twice is refused; with\n"
     ".BR \"\\-\\-compare layers=\" ...\n"
     "the layers are in the name,\n"
     ".IR m\\-layers1.json ).\n"
     "See\n"
     ".B FILES WRITTEN\n"
     "for how it is written and which paths are refused (exit status 2, before\n"
     "training); a save that fails on the way (a full disk) exits with status 1.\n"
     "Cannot be combined with\n"
     ".B \\-\\-follow\n"
     "or\n"
     ".B \\-\\-replay\n"
     "(neither writes a model)."},
    {"compare", "H,H...", OPT_COMPARE, CLI_GROUP_TRAINING, NULL, NULL,
     "on the screen: the same task, d_model and seed trained\n"
     "side by side with these head counts (up to 4), e.g. 1,2;\n"
     "layers=1,2 compares layer counts instead, and\n"
     "variants=standard,no-wo the attention blocks (--variant)",
     "with --train: head counts (or layers=N,N, variants=V,V) trained side by side", NULL, CODE,
     CLI_MODE_TRAIN_SCREEN,
     ".BI \\-\\-compare \" H,H...\"\n"
     "With\n"
     ".BR \\-\\-train ,\n"
     "on the training screen: the same task, d_model and seed trained side by side with each head\n"
     "count (up to four), or with\n"
     ".BR \"layers=\" N,N\n"
     "each layer count, or with\n"
     ".BR \"variants=\" V,V\n"
     "each attention block of\n"
     ".B \\-\\-variant\n"
     "(see\n"
     ".BR \"TRAINING SCREEN\" ).\n"
     ".B \\-\\-dump summary\n"
     "trains one model: run it once per count."},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--load MODEL --dump circuits", NULL,
     "what each head of a trained model does, read\n"
     "off its weights: where it looks, which word looks at\n"
     "which, which next words it raises (text or json)",
     NULL, NULL, AGAIN, CLI_MODE_CIRCUITS,
     ".BI \"\\-\\-load \" MODEL \" \\-\\-dump circuits\"\n"
     "What each head of a trained model does, read off its weights alone: where it looks by\n"
     "position, which word looks at which, and which next words its output raises through the\n"
     "read-outs, along its direct path (the last layer's heads, or those of\n"
     ".BR \\-\\-layer ;\n"
     "see\n"
     ".BR LAYERS ).\n"
     "Text, or with\n"
     ".B \\-\\-format json\n"
     "JSON. It takes\n"
     ".BR \\-\\-layer \" and \" \\-\\-format ;\n"
     "the example's options are refused (exit status 2)."},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--load MODEL --dump lens", NULL,
     "the logit lens: the residual stream after each\n"
     "layer (\"layer 0\", \"layer 1\", ...) at the last word\n"
     "of --tokens (else the sample) read through the\n"
     "read-out: its likeliest next words (text or json)",
     NULL, NULL, AGAIN, CLI_MODE_LENS,
     ".BI \"\\-\\-load \" MODEL \" \\-\\-dump lens\"\n"
     "The logit lens: the model runs once on the words of\n"
     ".B \\-\\-tokens\n"
     "(else a sentence file's, else its sample), and the residual stream after each layer, at the\n"
     "last word, is read through the model's own read-out, softmax(r_l Uᵀ + bias): the five\n"
     "likeliest next words (a task's classes) it would give if it stopped there, for every "
     "output,\n"
     "by layer (\"layer 0\", \"layer 1\", ...). The last layer's are the model's output, as\n"
     ".B \\-\\-dump output\n"
     "gives them. Of a two-layer induction model, \"layer 0\" does not yet hold the token to copy "
     "and\n"
     "\"layer 1\" does. Text, or with\n"
     ".B \\-\\-format json\n"
     "{\"lens\": {\"model\", \"layers\", \"tokens\", \"position\", \"outputs\": [{\"output\", "
     "\"by_layer\":\n"
     "[{\"layer\", \"name\", \"next\": [{\"word\", \"p\"}, ...]}, ...]}]}}. It takes\n"
     ".BR \\-\\-tokens \" and \" \\-\\-format ;\n"
     "any other option is refused (exit status 2)."},
    {"corrupt", "\"W1 W2 ..\"", 0, CLI_GROUP_TRAINING, NULL, NULL,
     "with --load MODEL --tokens CLEAN --dump patching:\n"
     "the corrupted run's words, as many as CLEAN's; each\n"
     "head's output patched from the clean run into it,\n"
     "(d_patched - d_corrupt) / (d_clean - d_corrupt) of\n"
     "the logit difference A - B (text or json); with\n"
     "--load MODEL alone: the explorer's patching view",
     "the corrupted run's words (--dump patching, the patching view)", NULL, TEXT(corrupt),
     CLI_MODE_PATCHING | CLI_MODE_EXPLORER,
     ".BI \"\\-\\-load \" MODEL \" \\-\\-tokens \" CLEAN \" \\-\\-corrupt \" CORRUPTED \" "
     "\\-\\-dump patching\"\n"
     "Activation patching, as TransformerLens measures it: the model runs on the clean words and "
     "on\n"
     "the corrupted ones (as many of them: a different count is refused with exit status 2), and "
     "the\n"
     "output (the one named next with a word per class, else the first) is read at the last word.\n"
     "A is the clean run's likeliest answer and B the corrupted run's, or those of\n"
     ".BI \\-\\-answer \" A,B\"\n"
     "(words of the vocabulary, or class numbers of a task's output); the logit difference A \\- B "
     "is\n"
     "d_clean on the clean run and d_corrupt on the corrupted one. Then, for each layer and head, "
     "the\n"
     "corrupted run again with that head's output (its columns of the merged heads at every "
     "position,\n"
     "so what it adds to the residual stream) replaced by the clean run's, the layers above "
     "running on\n"
     "it: (d_patched \\- d_corrupt) / (d_clean \\- d_corrupt), 1 where the head alone brings the "
     "clean\n"
     "answer back, 0 where it brings nothing. Where |d_clean \\- d_corrupt| is under 0.001 (the "
     "runs\n"
     "answer alike) it says so and gives each d_patched instead. Text, or with\n"
     ".B \\-\\-format json\n"
     "{\"patching\": {\"model\", \"output\", \"position\", \"clean\", \"corrupt\", \"answer\": [A, "
     "B],\n"
     "\"answer_given\", \"d_clean\", \"d_corrupt\", \"measurable\", \"heads\": [{\"layer\", "
     "\"head\",\n"
     "\"d_patched\", \"score\" (null when not measurable)}, ...]}}. It takes\n"
     ".BR \\-\\-tokens \", \" \\-\\-corrupt \", \" \\-\\-answer \" and \" \\-\\-format ;\n"
     "any other option is refused, and so are\n"
     ".B \\-\\-corrupt\n"
     "and\n"
     ".B \\-\\-answer\n"
     "without it; without\n"
     ".BR \\-\\-dump ,\n"
     ".B \\-\\-load\n"
     ".I MODEL\n"
     ".B \\-\\-corrupt\n"
     ".I CORRUPTED\n"
     "opens the explorer on the\n"
     ".B patching\n"
     "view of the model, its corrupted sentence given (see\n"
     ".BR VIEWS )."},
    {"answer", "A,B", 0, CLI_GROUP_TRAINING, NULL, NULL,
     "with --dump patching: the answers compared (default:\n"
     "the clean run's likeliest next word, the corrupted's)",
     "with --dump patching: the two answers compared", NULL, TEXT(answer), CLI_MODE_PATCHING,
     ".BI \\-\\-answer \" A,B\"\n"
     "With\n"
     ".BR \"\\-\\-dump patching\" :\n"
     "the two answers whose logit difference A \\- B is measured, words of the vocabulary or "
     "class\n"
     "numbers of a task's output (default: the clean run's likeliest next word and the corrupted\n"
     "run's)."},
    {"grad", "MODEL", 0, CLI_GROUP_TRAINING, "--grad MODEL --batch BATCH", NULL,
     "print the loss and the gradient of every\n"
     "parameter of a model file on a batch file, as JSON",
     "print the loss and gradients of a model file on a batch", "files", TEXT(grad), CLI_MODE_GRAD,
     ".BI \\-\\-grad \" MODEL\" \" \\-\\-batch\" \" BATCH\"\n"
     "Print {\"loss\", \"grad\"} as JSON: the loss of the model file\n"
     ".I MODEL\n"
     "on the batch file\n"
     ".I BATCH\n"
     "and the gradient of every parameter (embedding, positions, w_q .. w_o, the b_* the model "
     "has,\n"
     "and per output unembed and bias). Any other option is refused (exit status 2)."},
    {"layer", "L", OPT_LAYER, CLI_GROUP_TRAINING, NULL, NULL,
     "with --load MODEL: the stages of layer L (0 = the\n"
     "first; default the last), its input the residual\n"
     "stream after the layers below, in the explorer or\n"
     "--dump STAGE; with --dump circuits: that layer's\n"
     "heads, their direct path; with --train TASK\n"
     "--layers N: the training screen opens on layer L",
     "which layer the stages, circuits or training screen show (0..3)", NULL, CODE,
     CLI_MODE_EXPLORER | CLI_MODE_DUMP | CLI_MODE_CIRCUITS | CLI_MODE_TRAIN_SCREEN,
     ".BI \\-\\-layer \" L\"\n"
     "With\n"
     ".BI \\-\\-load \" MODEL\"\n"
     "(in the explorer, where\n"
     ".B y\n"
     "then shows the others, or with\n"
     ".BR \"\\-\\-dump \" STAGE ):\n"
     "the stages of layer L of a model of layers (0 the first; default the last): its attention "
     "on\n"
     "the sample or the words of\n"
     ".BR \\-\\-tokens ,\n"
     "its input the residual stream after the layers below (embedding + positions for layer 0). "
     "With\n"
     ".BR \"\\-\\-dump circuits\" :\n"
     "the circuits of layer L's heads, along their direct path (see\n"
     ".BR LAYERS ).\n"
     "With\n"
     ".BI \"\\-\\-train \" TASK\n"
     "and\n"
     ".BI \"\\-\\-layers \" N\n"
     "(or\n"
     ".BR \"\\-\\-compare layers=\" ...):\n"
     "the training screen opens on layer L (one every pane has; not with\n"
     ".BR \"\\-\\-dump summary\" ,\n"
     "which gives every layer's heads).\n"
     ".BR \\-\\-generate ,\n"
     ".BR \\-\\-export\\-torch ,\n"
     ".B \\-\\-export\\-safetensors\n"
     "and\n"
     ".B \\-\\-dump lens\n"
     "run through every layer and refuse it.\n"
     "A dump, and a stage the explorer exports\n"
     ".RB ( e ,\n"
     ".BR :export ),\n"
     "name the layer in its heading (\"layer 1 of 0\\(en1\", as the status line\n"
     "says it; in json,\n"
     ".B layers\n"
     "and\n"
     ".B layer\n"
     "in\n"
     ".BR config );\n"
     ".B \\-\\-stage\n"
     "and\n"
     ".B \\-\\-focus\n"
     "open on that layer's stage.\n"
     "A layer the model does not have is refused with exit status 2."},
    {NULL, NULL, 0, CLI_GROUP_TRAINING, "--load MODEL", NULL,
     "a model file opens the explorer on its sample sequence:\n"
     "the stages show the trained model's numbers; with\n"
     "--tokens \"the cat sat\" on that sentence (a text\n"
     "model's output ends in its next word)",
     NULL, NULL, AGAIN, CLI_MODE_EXPLORER | CLI_MODE_DUMP,
     ".BI \\-\\-load \" MODEL\"\n"
     "A model file (it has\n"
     ".B embedding\n"
     "and\n"
     ".BR outputs )\n"
     "opens the explorer, or\n"
     ".BR \\-\\-dump ,\n"
     "on the model's sample sequence: the stages show the trained model's numbers, the input\n"
     "being embedding + positions labelled with the vocabulary's names."},
};

const int cli_opt_rows_train_n = (int)(sizeof cli_opt_rows_train / sizeof cli_opt_rows_train[0]);
