/* export_torch.c - a trained model as a standalone PyTorch script: an
 * nn.Module written in the explorer's notation, the model file's JSON
 * inline, and a command line that prints what the explorer's output stage
 * says (a language model's ten likeliest next words, a task's prediction
 * per output). */
#include <stdlib.h>
#include <string.h>

#include "io/example_io.h"
#include "io/export_torch.h"
#include "io/model_io.h"

/* The script around the model's JSON: head, then the JSON, then tail. */
static const char script_head[] =
    "#!/usr/bin/env python3\n"
    "\"\"\"A trained attention model from mha-explorer, as a PyTorch nn.Module.\n"
    "\n"
    "Run:  python3 THIS_FILE.py WORD WORD ...\n"
    "\n"
    "Each argument is one token of the model's vocabulary (lower-cased first when\n"
    "the model was trained on lower-cased text); with none, the model's own sample.\n"
    "A language model prints its ten likeliest next words after the last token,\n"
    "likeliest first, as JSON: [{\"word\": w, \"p\": p}, ...]. A model of a task\n"
    "prints each output's prediction at the last token: {\"output\": [class, p]}.\n"
    "\n"
    "The model, in the explorer's notation (a weight is [out][in], a row a token):\n"
    "    x        = embedding[tokens] + positions[:T]\n"
    "    for each layer (one, or those of MODEL[\"layers\"] in order):\n"
    "      q, k, v  = x W_q^T + b_q, x W_k^T + b_k, x W_v^T + b_v, each split\n"
    "                 into num_heads heads of d_k = d_model / num_heads columns\n"
    "      weights  = softmax(q_h k_h^T / sqrt(d_k)), the keys after the query's\n"
    "                 own position masked when the model is causal\n"
    "      merged   = the heads' weights_h v_h side by side\n"
    "      x        = x + merged W_o^T + b_o\n"
    "    logits_k = x U_k^T + bias_k, one read-out per output\n"
    "\"\"\"\n"
    "import json\n"
    "import math\n"
    "import sys\n"
    "\n"
    "import torch\n"
    "from torch import nn\n"
    "\n"
    "MODEL = json.loads(r'''";

static const char script_tail[] =
    "''')\n"
    "\n"
    "\n"
    "def weight(value):\n"
    "    return nn.Parameter(torch.tensor(value, dtype=torch.float32))\n"
    "\n"
    "\n"
    "class Layer(nn.Module):\n"
    "    \"\"\"One layer's projections: w_q .. w_o [out][in] and b_q .. b_o.\"\"\"\n"
    "\n"
    "    def __init__(self, a, d):\n"
    "        super().__init__()\n"
    "        for name in (\"q\", \"k\", \"v\", \"o\"):\n"
    "            setattr(self, \"w_\" + name, weight(a[\"w_\" + name]))\n"
    "            setattr(self, \"b_\" + name, weight(a.get(\"b_\" + name, [0.0] * d)))\n"
    "\n"
    "\n"
    "class Attention(nn.Module):\n"
    "    \"\"\"Layers of multi-head attention on a residual stream, and read-outs.\"\"\"\n"
    "\n"
    "    def __init__(self, m):\n"
    "        super().__init__()\n"
    "        d = m[\"d_model\"]\n"
    "        self.heads, self.causal = m[\"num_heads\"], m[\"causal\"]\n"
    "        self.scaled = m.get(\"scaled\", True)\n"
    "        self.embedding = weight(m[\"embedding\"])\n"
    "        self.positions = weight(m[\"positions\"])\n"
    "        self.layers = nn.ModuleList(Layer(a, d) for a in m.get(\"layers\", [m]))\n"
    "        self.names = [o[\"name\"] for o in m[\"outputs\"]]\n"
    "        self.unembed = nn.ParameterList(weight(o[\"unembed\"]) for o in m[\"outputs\"])\n"
    "        self.bias = nn.ParameterList(\n"
    "            weight(o.get(\"bias\", [0.0] * o[\"classes\"])) for o in m[\"outputs\"])\n"
    "\n"
    "    def forward(self, tokens):\n"
    "        \"\"\"tokens: (T,) ids -> {output name: logits (T, classes)}.\"\"\"\n"
    "        T, d = len(tokens), self.embedding.shape[1]\n"
    "        h = self.heads\n"
    "        dk = d // h\n"
    "        x = self.embedding[tokens] + self.positions[:T]\n"
    "\n"
    "        def split(y):  # (T, d) -> (h, T, d_k)\n"
    "            return y.reshape(T, h, dk).transpose(0, 1)\n"
    "\n"
    "        later = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)\n"
    "        for a in self.layers:\n"
    "            q = split(x @ a.w_q.T + a.b_q)\n"
    "            k = split(x @ a.w_k.T + a.b_k)\n"
    "            v = split(x @ a.w_v.T + a.b_v)\n"
    "            scores = q @ k.transpose(1, 2)\n"
    "            if self.scaled:\n"
    "                scores = scores / math.sqrt(dk)\n"
    "            if self.causal:\n"
    "                scores = scores.masked_fill(later, float(\"-inf\"))\n"
    "            weights = torch.softmax(scores, dim=-1)\n"
    "            merged = (weights @ v).transpose(0, 1).reshape(T, d)\n"
    "            x = x + merged @ a.w_o.T + a.b_o\n"
    "        return {n: x @ u.T + b for n, u, b in zip(self.names, self.unembed, self.bias)}\n"
    "\n"
    "\n"
    "def token_ids(words):\n"
    "    vocab = MODEL[\"vocab\"]\n"
    "    if not words:\n"
    "        return list(MODEL.get(\"sample\", []))\n"
    "    if MODEL.get(\"words\") == \"lower\":\n"
    "        words = [w.lower() for w in words]\n"
    "    unknown = [w for w in words if w not in vocab]\n"
    "    if unknown:\n"
    "        sys.exit(\"not in the model's vocabulary of %d: %s\" % (len(vocab), \" "
    "\".join(unknown)))\n"
    "    return [vocab.index(w) for w in words]\n"
    "\n"
    "\n"
    "def main():\n"
    "    ids = token_ids(sys.argv[1:])\n"
    "    if not ids or len(ids) > MODEL[\"context\"]:\n"
    "        sys.exit(\"give 1 to %d words of the model's vocabulary\" % MODEL[\"context\"])\n"
    "    model = Attention(MODEL)\n"
    "    with torch.no_grad():\n"
    "        logits = model(torch.tensor(ids))\n"
    "    vocab, out = MODEL[\"vocab\"], {}\n"
    "    for o in MODEL[\"outputs\"]:\n"
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
    "    main()\n";

char *export_torch_script(const struct train_model *m)
{
    char *json = model_io_to_string(m);
    if (!json)
        return NULL;
    /* JSON has apostrophes only inside strings, where \u0027 means the
     * same: the raw ''' string then cannot end early */
    size_t quotes = 0, n = strlen(json);
    for (size_t i = 0; i < n; i++)
        quotes += json[i] == '\'';
    const size_t size = sizeof script_head + n + quotes * 5 + sizeof script_tail;
    char *s = malloc(size);
    if (s) {
        char *p = s;
        memcpy(p, script_head, sizeof script_head - 1);
        p += sizeof script_head - 1;
        for (size_t i = 0; i < n; i++) {
            if (json[i] == '\'') {
                memcpy(p, "\\u0027", 6);
                p += 6;
            } else {
                *p++ = json[i];
            }
        }
        memcpy(p, script_tail, sizeof script_tail);
        p[sizeof script_tail - 2] = '\0'; /* io_save_text ends the file's last line */
    }
    free(json);
    return s;
}

int export_torch_save(const struct train_model *m, const char *path, struct mha_error *err)
{
    char *text = export_torch_script(m);
    if (!text)
        return mha_error_set(err, "%s: out of memory", path);
    return io_save_text(path, text, err);
}
