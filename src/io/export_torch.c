/* export_torch.c - a trained model for PyTorch: a short script holding an
 * nn.Module in TransformerLens's names and shapes, whose weights and
 * settings are the safetensors file written beside it (safetensors.h), and
 * a command line that prints what the explorer's output stage says (a
 * language model's ten likeliest next words, a task's prediction per
 * output).  The script is the same for every model: all it knows of one
 * it reads from the file. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "io/export_torch.h"
#include "io/safe_file.h"
#include "io/safetensors.h"

/* The script, in parts within the length C compilers must take of a
 * string. */
static const char *const script[] = {
    "#!/usr/bin/env python3\n"
    "\"\"\"An attention-only transformer trained in mha-explorer, as a PyTorch module.\n"
    "\n"
    "Its weights are in the safetensors file beside this one (this file's name with\n"
    ".safetensors for .py), in TransformerLens's names and shapes; the file's\n"
    "metadata holds the vocabulary and the settings.  In Python:\n"
    "\n"
    "    model = Transformer.from_safetensors(\"NAME.safetensors\")\n"
    "    logits = model(tokens)        # (B, T) or (T,) token ids\n"
    "    logits[\"next\"]                # (B, T, classes), or (T, classes)\n"
    "\n"
    "or Transformer(config).load_state_dict(tensors) from tensors of those names.\n"
    "\n"
    "Run:  python3 THIS_FILE.py WORD WORD ...\n"
    "\n"
    "Each argument is one token of the model's vocabulary (lower-cased first when\n"
    "the model was trained on lower-cased text); with none, the model's own sample.\n"
    "A language model prints its ten likeliest next words after the last token,\n"
    "likeliest first, as JSON: [{\"word\": w, \"p\": p}, ...].  A model of a task\n"
    "prints each output's prediction at the last token: {\"output\": [class, p]}.\n"
    "\"\"\"\n"
    "import json\n"
    "import math\n"
    "import os\n"
    "import sys\n"
    "\n"
    "import torch\n"
    "from torch import nn\n"
    "\n"
    "\n"
    "def load_safetensors(path):\n"
    "    \"\"\"({name: tensor}, {key: value}) of a safetensors file of F32 tensors,\n"
    "    read with torch alone: 8 bytes of header length (little-endian), the JSON\n"
    "    header, the raw numbers; each metadata value is a JSON text.\"\"\"\n"
    "    with open(path, \"rb\") as f:\n"
    "        data = bytearray(f.read())\n"
    "    n = int.from_bytes(data[:8], \"little\")\n"
    "    header = json.loads(data[8:8 + n])\n"
    "    meta = {k: json.loads(v) for k, v in header.pop(\"__metadata__\", {}).items()}\n"
    "    if sys.byteorder != \"little\":\n"
    "        raise ValueError(\"%s: the numbers are little-endian, this machine is not\" % path)\n"
    "    tensors = {}\n"
    "    for name, t in header.items():\n"
    "        if t[\"dtype\"] != \"F32\":\n"
    "            raise ValueError(\"%s: %s is %s, not F32\" % (path, name, t[\"dtype\"]))\n"
    "        begin, end = t[\"data_offsets\"]\n"
    "        x = torch.frombuffer(data, dtype=torch.float32, offset=8 + n + begin,\n"
    "                             count=(end - begin) // 4)\n"
    "        tensors[name] = x.reshape(t[\"shape\"]).clone()\n"
    "    return tensors, meta\n"
    "\n"
    "\n",
    "def parameters(**shapes):\n"
    "    \"\"\"A module of zero parameters of these names and shapes.\"\"\"\n"
    "    m = nn.Module()\n"
    "    for name, shape in shapes.items():\n"
    "        m.register_parameter(name, nn.Parameter(torch.zeros(shape)))\n"
    "    return m\n"
    "\n"
    "\n"
    "class Attention(nn.Module):\n"
    "    \"\"\"One layer's heads: W_Q, W_K, W_V (n_heads, d_model, d_head), b_Q .. b_V\n"
    "    (n_heads, d_head), W_O (n_heads, d_head, d_model), b_O (d_model).\"\"\"\n"
    "\n"
    "    def __init__(self, cfg):\n"
    "        super().__init__()\n"
    "        h, d, e = cfg[\"n_heads\"], cfg[\"d_model\"], cfg[\"d_head\"]\n"
    "        for p in \"QKV\":\n"
    "            self.register_parameter(\"W_\" + p, nn.Parameter(torch.zeros(h, d, e)))\n"
    "            self.register_parameter(\"b_\" + p, nn.Parameter(torch.zeros(h, e)))\n"
    "        self.W_O = nn.Parameter(torch.zeros(h, e, d))\n"
    "        self.b_O = nn.Parameter(torch.zeros(d))\n"
    "        self.scale = math.sqrt(e) if cfg[\"use_attn_scale\"] else 1.0\n"
    "\n"
    "    def forward(self, x, keep):\n"
    "        \"\"\"x: (B, T, d_model); keep: (B, 1, T, T), True where a query sees a\n"
    "        key -> the heads' outputs summed, (B, T, d_model).\"\"\"\n"
    "        q = torch.einsum(\"btd,hde->bhte\", x, self.W_Q) + self.b_Q[:, None]\n"
    "        k = torch.einsum(\"btd,hde->bhte\", x, self.W_K) + self.b_K[:, None]\n"
    "        v = torch.einsum(\"btd,hde->bhte\", x, self.W_V) + self.b_V[:, None]\n"
    "        scores = q @ k.transpose(-1, -2) / self.scale\n"
    "        pattern = scores.masked_fill(~keep, float(\"-inf\")).softmax(dim=-1)\n"
    "        return torch.einsum(\"bhte,hed->btd\", pattern @ v, self.W_O) + self.b_O\n"
    "\n"
    "\n",
    "class Transformer(nn.Module):\n"
    "    \"\"\"Embedding plus positions, each layer's heads added to the residual\n"
    "    stream, and the read-outs: unembed (the first output) and outputs.NAME\n"
    "    (each further one of a task), each x W_U + b_U.\"\"\"\n"
    "\n"
    "    def __init__(self, cfg):\n"
    "        super().__init__()\n"
    "        self.cfg, d = cfg, cfg[\"d_model\"]\n"
    "        self.causal = cfg[\"attention_dir\"] == \"causal\"\n"
    "        self.embed = parameters(W_E=(cfg[\"d_vocab\"], d))\n"
    "        self.pos_embed = parameters(W_pos=(cfg[\"n_ctx\"], d))\n"
    "        self.blocks = nn.ModuleList(\n"
    "            nn.ModuleDict({\"attn\": Attention(cfg)}) for _ in range(cfg[\"n_layers\"]))\n"
    "        self.names = [o[\"name\"] for o in cfg[\"outputs\"]]\n"
    "        readout = [parameters(W_U=(d, o[\"classes\"]), b_U=(o[\"classes\"],))\n"
    "                   for o in cfg[\"outputs\"]]\n"
    "        self.unembed = readout[0]\n"
    "        self.outputs = nn.ModuleDict(zip(self.names[1:], readout[1:]))\n"
    "\n"
    "    @classmethod\n"
    "    def from_safetensors(cls, path):\n"
    "        tensors, cfg = load_safetensors(path)\n"
    "        model = cls(cfg)\n"
    "        model.load_state_dict(tensors)\n"
    "        return model\n"
    "\n"
    "    def forward(self, tokens, mask=None):\n"
    "        \"\"\"tokens: (B, T) ids, or one sequence (T,); mask: (B, T), True at a\n"
    "        batch's tokens and False at the padding after a shorter one's ->\n"
    "        {output name: logits (B, T, classes)}, (T, classes) for one sequence.\"\"\"\n"
    "        one = tokens.dim() == 1\n"
    "        if one:\n"
    "            tokens = tokens[None]\n"
    "            mask = None if mask is None else mask[None]\n"
    "        T = tokens.shape[1]\n"
    "        x = self.embed.W_E[tokens] + self.pos_embed.W_pos[:T]\n"
    "        keep = torch.ones(T, T, dtype=torch.bool)\n"
    "        if self.causal:\n"
    "            keep = keep.tril()\n"
    "        keep = keep.expand(tokens.shape[0], 1, T, T)\n"
    "        if mask is not None:\n"
    "            keep = keep & mask.bool()[:, None, None, :]\n"
    "        for block in self.blocks:\n"
    "            x = x + block[\"attn\"](x, keep)\n"
    "        heads = [self.unembed] + [self.outputs[n] for n in self.names[1:]]\n"
    "        out = {n: x @ u.W_U + u.b_U for n, u in zip(self.names, heads)}\n"
    "        return {n: y[0] for n, y in out.items()} if one else out\n"
    "\n"
    "\n",
    "def token_ids(cfg, words):\n"
    "    vocab = cfg[\"vocab\"]\n"
    "    if not words:\n"
    "        return list(cfg.get(\"sample\", []))\n"
    "    if cfg.get(\"words\") == \"lower\":\n"
    "        words = [w.lower() for w in words]\n"
    "    unknown = [w for w in words if w not in vocab]\n"
    "    if unknown:\n"
    "        sys.exit(\"not in the model's vocabulary of %d: %s\"\n"
    "                 % (len(vocab), \" \".join(unknown)))\n"
    "    return [vocab.index(w) for w in words]\n"
    "\n"
    "\n"
    "def main():\n"
    "    here = os.path.abspath(__file__)\n"
    "    weights = (here[:-3] if here.endswith(\".py\") else here) + \".safetensors\"\n"
    "    try:\n"
    "        model = Transformer.from_safetensors(weights)\n"
    "    except OSError as e:\n"
    "        sys.exit(\"%s: cannot read the model's weights: %s\" % (weights, e.strerror))\n"
    "    cfg, vocab = model.cfg, model.cfg[\"vocab\"]\n"
    "    ids = token_ids(cfg, sys.argv[1:])\n"
    "    if not ids or len(ids) > cfg[\"n_ctx\"]:\n"
    "        sys.exit(\"give 1 to %d words of the model's vocabulary\" % cfg[\"n_ctx\"])\n"
    "    with torch.no_grad():\n"
    "        logits = model(torch.tensor(ids))\n"
    "    out = {}\n"
    "    for o in cfg[\"outputs\"]:\n"
    "        p = torch.softmax(logits[o[\"name\"]][-1].double(), dim=-1).tolist()\n"
    "        order = sorted(range(len(p)), key=lambda j: (-p[j], j))\n"
    "        if o[\"name\"] == \"next\" and o[\"classes\"] == len(vocab):\n"
    "            print(json.dumps([{\"word\": vocab[j], \"p\": float(\"%.9g\" % p[j])}\n"
    "                              for j in order[:10]]))\n"
    "            return\n"
    "        best = order[0]\n"
    "        label = vocab[best] if o[\"classes\"] == len(vocab) else best\n"
    "        out[o[\"name\"]] = [label, float(\"%.9g\" % p[best])]\n"
    "    print(json.dumps(out))\n"
    "\n"
    "\n"
    "if __name__ == \"__main__\":\n"
    "    main()\n",
};

int export_torch_weights_path(const char *path, char *out, size_t n)
{
    size_t len = strlen(path);
    if (len >= 3 && !strcmp(path + len - 3, ".py"))
        len -= 3;
    return snprintf(out, n, "%.*s.safetensors", (int)len, path) < (int)n ? 0 : -1;
}

/* The n parts of text (len bytes of each, or its strlen where len is
 * NULL) into sf's temporary, finished: 0, or -1 + err. */
static int write_whole(struct safe_file *sf, const void *const *parts, const size_t *len, int n,
                       struct mha_error *err)
{
    FILE *f = safe_file_stream(sf, err);
    if (!f)
        return -1;
    for (int i = 0; i < n; i++)
        fwrite(parts[i], 1, len ? len[i] : strlen(parts[i]), f);
    return safe_file_finish(sf, err);
}

/* A name that is there already: refused, nothing written. */
static int exists(const char *path, struct mha_error *err)
{
    mha_error_clear(err);
    mha_error_set(err, "exists: --export-torch never replaces a file; nothing was written");
    mha_error_at(err, path, 0, 0);
    return -1;
}

int export_torch_save(const struct train_model *m, const char *path, struct mha_error *err)
{
    mha_error_clear(err);
    char weights[PATH_MAX];
    if (export_torch_weights_path(path, weights, sizeof weights)) {
        mha_error_set(err, "the name is too long for its weights' file beside it");
        mha_error_at(err, path, 0, 0);
        return -1;
    }
    size_t len = 0;
    unsigned char *bytes = safetensors_bytes(m, &len);
    if (!bytes) {
        mha_error_set(err, "out of memory");
        mha_error_at(err, path, 0, 0);
        return -1;
    }
    /* both written whole, then put in place, the script held until its
     * weights are there too: removed again when they cannot be */
    struct safe_file_signals held;
    safe_file_hold_signals(&held);
    struct safe_file py, st;
    int rc = -1;
    if (safe_file_create(&py, path, err))
        goto done;
    if (safe_file_create(&st, weights, err)) {
        safe_file_discard(&py);
        goto done;
    }
    py.hold = true;
    const int n_parts = (int)(sizeof script / sizeof script[0]);
    if (write_whole(&py, (const void *const *)script, NULL, n_parts, err) ||
        write_whole(&st, (const void *const *)&bytes, &len, 1, err))
        goto drop;
    rc = safe_file_place(&py, NULL, false, err);
    if (rc == 1)
        rc = exists(path, err);
    if (rc)
        goto drop;
    rc = safe_file_place(&st, NULL, false, err);
    if (rc == 1)
        rc = exists(weights, err);
    if (rc) {
        safe_file_unplace(&py);
        safe_file_discard(&st);
        goto done;
    }
drop:
    safe_file_discard(&py);
    safe_file_discard(&st);
done:
    safe_file_release_signals(&held);
    free(bytes);
    return rc;
}
