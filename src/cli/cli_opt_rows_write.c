/* cli_opt_rows_write.c - the option table's rows of writing with a
 * trained language model, of the exports, and the others (cli_opt_table.h
 * says what a row holds). */
#include "cli/cli_opt_rows.h"

/* In --help's order, group by group. */
const struct cli_opt cli_opt_rows_write[] = {
    {"generate", "N", OPT_GENERATE, CLI_GROUP_WRITING, NULL, NULL,
     "with --load MODEL: print N lines, no terminal needed;\n"
     "each starts from --tokens (else the model's sample's\n"
     "first word) and grows a word at a time until . ! ? or\n"
     "the context is full (<unk> is never written)",
     "with --load MODEL: print lines the language model writes", NULL, CODE, CLI_MODE_GENERATE,
     ".BI \\-\\-generate \" N\"\n"
     "With\n"
     ".BI \\-\\-load \" MODEL\"\n"
     "(a language model, one trained on a text, or a sentence file naming one; a task's model is\n"
     "refused, even one whose output predicts the next token, as the induction task's does): print "
     "N\n"
     "lines to standard output, no terminal needed. Each line starts from the words of\n"
     ".B \\-\\-tokens\n"
     "(else a sentence file's words, else the first word of the model's sample) and grows a word "
     "at\n"
     "a time: the model runs on the line so far, a word is chosen after its last word and "
     "appended,\n"
     "until the word is a sentence's end mark (one or more of . ! ?) or the line fills the "
     "model's\n"
     "context; words that already end a sentence or fill the context leave nothing to write and "
     "are\n"
     "refused. The word\n"
     ".B <unk>\n"
     "is never chosen, and a line that starts from the model's sample starts from its first word\n"
     "that is not\n"
     ".BR <unk> .\n"
     "It takes\n"
     ".BR \\-\\-tokens \", \" \\-\\-temperature \", \" \\-\\-top\\-k \", \" \\-\\-top\\-p \" and "
     "\" \\-\\-seed ;\n"
     "any other option is refused (exit status 2)."},
    {"temperature", "T", OPT_TEMPERATURE, CLI_GROUP_WRITING, NULL, "1",
     "0 writes the likeliest word each time; above 0 draws it\n"
     "from softmax(logits / T) (0..100, default 1)",
     "with --generate: 0 for the likeliest word, else how freely words are drawn (0..100)", NULL,
     CODE, CLI_MODE_GENERATE,
     ".BI \\-\\-temperature \" T\"\n"
     "With\n"
     ".BR \\-\\-generate :\n"
     "0 chooses the likeliest word every time (the same lines whatever the seed); above 0 the word "
     "is\n"
     "drawn from softmax(logits / T) (0..100, default 1): below 1 the likeliest words gain, above "
     "1\n"
     "the unlikely ones do."},
    {"top-k", "K", OPT_TOP_K, CLI_GROUP_WRITING, NULL, NULL,
     "draw only among the K likeliest words (default: all)",
     "with --generate: draw among the K likeliest words", NULL, CODE, CLI_MODE_GENERATE,
     ".BI \\-\\-top\\-k \" K\"\n"
     "With\n"
     ".BR \\-\\-generate :\n"
     "draw only among the K likeliest words, in proportion to their probabilities (default: every\n"
     "word); K more than the model's vocabulary is refused."},
    {"top-p", "P", OPT_TOP_P, CLI_GROUP_WRITING, NULL, NULL,
     "draw only among the fewest likeliest words whose\n"
     "probabilities sum to P or more (nucleus sampling;\n"
     "above 0, at most 1; default 1: every word); in the\n"
     "explorer, the top-p w starts at (the keys ( ) and\n"
     ":top-p change it)",
     "with --generate or the explorer: draw among the nucleus of probability P", NULL, CODE,
     CLI_MODE_GENERATE | CLI_MODE_EXPLORER,
     ".BI \\-\\-top\\-p \" P\"\n"
     "With\n"
     ".BR \\-\\-generate :\n"
     "nucleus sampling: the words but\n"
     ".BR <unk> ,\n"
     "likeliest first (the lower id on a tie; the K likeliest with\n"
     ".BR \\-\\-top\\-k ),\n"
     "are cut to the fewest whose probabilities sum to P times the sum of them all or more, and "
     "the\n"
     "word is drawn among those in proportion to their probabilities. P is above 0 and at most 1\n"
     "(default 1, every word); 0.5 keeps the words that make up half the probability, and a P "
     "small\n"
     "enough keeps the likeliest word alone, as\n"
     ".B \\-\\-temperature 0\n"
     "writes it.\n"
     "Given to the explorer (with a language model: a model file), the top-p\n"
     ".B w\n"
     "starts at, which\n"
     ".B (\n"
     "and\n"
     ".B )\n"
     "change (see KEYS)."},
    {NULL, NULL, 0, CLI_GROUP_WRITING, "--seed S", NULL,
     "with --generate: the draws' seed (default 42), so the\n"
     "same command writes the same lines",
     NULL, NULL, AGAIN, CLI_MODE_GENERATE,
     ".BI \\-\\-seed \" S\"\n"
     "With\n"
     ".BR \\-\\-generate \" and a temperature above 0:\"\n"
     "the seed of the draws (default 42); the same command and seed write the same lines. A seed "
     "with\n"
     ".B \\-\\-temperature 0\n"
     "is refused, as it would change nothing."},
    {"export-torch", "FILE.py", 0, CLI_GROUP_WRITING, NULL, NULL,
     "with --load MODEL: write a PyTorch module, its\n"
     "weights in FILE.safetensors beside it (new files);\n"
     "python3 FILE.py WORD... prints its next words (a\n"
     "task's predictions) as JSON, as --dump output",
     "with --load MODEL: write the model as a PyTorch script", "files", TEXT(export_torch),
     CLI_MODE_EXPORT_TORCH,
     ".BI \\-\\-export\\-torch \" FILE.py\"\n"
     "With\n"
     ".BI \\-\\-load \" MODEL\"\n"
     "(a model file, or a sentence file naming one): write a short PyTorch script, the same for\n"
     "every model, and the model's weights beside it,\n"
     ".I FILE.safetensors\n"
     "(FILE.py's name without its .py), the file\n"
     ".B \\-\\-export\\-safetensors\n"
     "writes. The script holds an\n"
     ".B nn.Module\n"
     "in TransformerLens's names and shapes (embedding plus positions; each layer's heads, softmax "
     "of\n"
     "their scaled, masked scores, added to the residual stream; the read-outs W_U, b_U), reads "
     "the\n"
     "file with a few lines of torch (no safetensors package needed) through\n"
     ".B Transformer.from_safetensors\n"
     "(or\n"
     ".B load_state_dict\n"
     "from tensors of the same names), and takes a batch of token ids (B, T), with a mask (B, T) "
     "for\n"
     "the padding after a shorter sequence, or one sequence (T,). Run as\n"
     ".BI \"python3 \" FILE.py \" WORD WORD ...\"\n"
     "(each argument one word of the model's vocabulary, lower-cased first when the model was "
     "trained\n"
     "so; with none, its sample, which\n"
     ".B \\-\\-tokens\n"
     "sets), a language model prints its ten likeliest next words after the last word as JSON in "
     "the\n"
     "shape of\n"
     ".BR \"\\-\\-dump output\" 's\n"
     "\"next_word\", [{\"word\", \"p\"}, ...], and a task's model prints each output's prediction "
     "at the\n"
     "last token, {\"name\": [class, p]}; both agree with the explorer's within 1e\\-5, run so or "
     "on a\n"
     "batch. Both are new files: a script or weights file already there is refused (exit status "
     "2),\n"
     "and neither is written over it. Each is written as \\-\\-save writes a model, through a "
     "temporary\n"
     "file beside it, and the two are put in place together: a failed write leaves neither (the\n"
     "script is taken back when its weights cannot be placed). The same weights file loads into\n"
     "TransformerLens as a HookedTransformer whose HookedTransformerConfig is the metadata's "
     "values\n"
     "(n_layers, d_model, n_heads, d_head, n_ctx, d_vocab, d_vocab_out, attn_only,\n"
     "normalization_type, positional_embedding_type, attention_dir, use_attn_scale), its\n"
     "load_state_dict(tensors, strict=False) taking the tensors as they are. It takes\n"
     ".B \\-\\-tokens\n"
     "and no other option (exit status 2)."},
    {"export-safetensors", "FILE", 0, CLI_GROUP_WRITING, NULL, NULL,
     "with --load MODEL: write the model as a safetensors\n"
     "file in TransformerLens's names (embed.W_E,\n"
     "blocks.0.attn.W_Q, unembed.W_U, ...), its vocabulary\n"
     "in the metadata; --load FILE.safetensors reads it back",
     "with --load MODEL: write the model as safetensors", "files", TEXT(export_safetensors),
     CLI_MODE_EXPORT_SAFETENSORS,
     ".BI \\-\\-export\\-safetensors \" FILE\"\n"
     "With\n"
     ".BI \\-\\-load \" MODEL\"\n"
     "(a model file, or a sentence file naming one): write the model as a safetensors file (8 "
     "bytes\n"
     "of header length, little-endian; a JSON header; the tensors' little-endian float32 numbers) "
     "in\n"
     "the names and shapes of TransformerLens's HookedTransformer with attn_only, no "
     "normalisation\n"
     "and standard positions:\n"
     ".B embed.W_E\n"
     "[d_vocab, d_model],\n"
     ".B pos_embed.W_pos\n"
     "[n_ctx, d_model],\n"
     ".BR blocks.L.attn.W_Q \", \" W_K \", \" W_V\n"
     "[n_heads, d_model, d_head],\n"
     ".BR b_Q \", \" b_K \", \" b_V\n"
     "[n_heads, d_head],\n"
     ".B W_O\n"
     "[n_heads, d_head, d_model],\n"
     ".B b_O\n"
     "[d_model],\n"
     ".B unembed.W_U\n"
     "[d_model, d_vocab_out] and\n"
     ".B unembed.b_U\n"
     "for the first output, and\n"
     ".BR outputs.NAME.W_U \" and \" outputs.NAME.b_U\n"
     "for each further one (a model without biases writes zeros). Each value of the header's\n"
     "__metadata__ is a JSON text: vocab (the token names), causal, scaled, context, task, words,\n"
     "sample, outputs, attention_biases, and the HookedTransformerConfig values n_layers, "
     "d_model,\n"
     "n_heads, d_head, n_ctx, d_vocab, d_vocab_out, attn_only, normalization_type,\n"
     "positional_embedding_type, attention_dir and use_attn_scale. The forward pass in those "
     "names\n"
     "(embedding plus positions, each layer's heads added, the unembedding) gives the explorer's\n"
     "probabilities.\n"
     ".BI \\-\\-load \" FILE\"\n"
     "reads such a file wherever a model file goes (told by its first bytes, whatever its name) "
     "and\n"
     "gives the model back bit for bit; every name, shape, dtype (F32 only), offset (inside the "
     "file,\n"
     "none shared, none left over) and number (finite, at most 1e6 in size) is checked, the "
     "header\n"
     "may take at most 1 MiB, and a bad file is refused with exit status 2 and a message naming "
     "the\n"
     "tensor or metadata field. Written as\n"
     ".B \\-\\-export\\-torch\n"
     "writes; it takes\n"
     ".B \\-\\-tokens\n"
     "(the sample written) and no other option."},
    {"help", NULL, OPT_HELP, CLI_GROUP_OTHER, "-h, --help", NULL, "show this help and exit",
     "show the help and exit", NULL, CODE, CLI_EVERYWHERE,
     ".BR \\-h \", \" \\-\\-help\n"
     "Show the options and exit."},
    {"man", NULL, OPT_MAN, CLI_GROUP_OTHER, NULL, NULL,
     "show the manual (every option, key and command) and exit", "show the manual and exit", NULL,
     CODE, CLI_EVERYWHERE,
     ".B \\-\\-man\n"
     "Show this manual page and exit, through\n"
     ".BR \"man \\-l\" :\n"
     "the page next to the program, which is the source tree's\n"
     ".I doc/mha\\-explorer.1\n"
     "for a program run from its build directory (so it works straight after\n"
     ".IR scripts/run ),\n"
     "and the installed one otherwise. Without\n"
     ".BR man (1)\n"
     "it says where the page is (exit status 1)."},
    {"version", NULL, OPT_VERSION, CLI_GROUP_OTHER, "-V, --version", NULL,
     "show the version and exit", "show the version and exit", NULL, CODE, CLI_EVERYWHERE,
     ".BR \\-V \", \" \\-\\-version\n"
     "Show the version and exit."},
};

const int cli_opt_rows_write_n = (int)(sizeof cli_opt_rows_write / sizeof cli_opt_rows_write[0]);
