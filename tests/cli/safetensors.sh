#!/bin/bash
# --export-safetensors and --load FILE.safetensors from the command line:
# the bundled language model written and read back gives the model file's
# stages byte for byte (every stage, --dump all, text and json) and its
# next words; a sentence file may name the exported file; a file that is
# not whole, or holds a NaN, is refused with exit status 2, the tensor
# named and nothing on stdout; the options it does not take are refused.
EXE=$(realpath "${1:?usage: $0 path/to/mha-explorer path/to/source}")
ROOT=$(realpath "${2:?usage: $0 path/to/mha-explorer path/to/source}")
LM=$ROOT/assets/models/sentences.json
WORK=$(mktemp -d)
trap 'rm -rf "$WORK"' EXIT
cd "$WORK" || exit 1
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
check() {
    local args=()
    while [ "$1" != -- ]; do args+=("$1"); shift; done
    shift
    if "${args[@]}"; then ok; else bad "$*"; fi
}
# refused ARGS... -- PATTERN: exit 2, stderr matches, nothing on stdout
refused() {
    local args=()
    while [ "$1" != -- ]; do args+=("$1"); shift; done
    shift
    "$EXE" "${args[@]}" >out.txt 2>err.txt
    local rc=$?
    check [ "$rc" -eq 2 ] -- "${args[*]}: exit $rc, not 2 ($(head -c 300 err.txt))"
    check grep -qE -e "$1" err.txt -- "${args[*]}: message lacks /$1/: $(head -c 300 err.txt)"
    check [ ! -s out.txt ] -- "${args[*]}: wrote to stdout"
}

"$EXE" --load "$LM" --export-safetensors lm.safetensors 2>said.txt
check [ $? -eq 0 ] -- "--export-safetensors failed: $(cat said.txt)"
check grep -q "wrote lm.safetensors" said.txt -- "no word of the file written: $(cat said.txt)"
for fmt in text json; do
    for words in "" "the cat sat on the"; do
        set -- --dump all --format "$fmt"
        [ -n "$words" ] && set -- "$@" --tokens "$words"
        "$EXE" --load "$LM" "$@" >a.out
        "$EXE" --load lm.safetensors "$@" >b.out
        check cmp -s a.out b.out -- "--dump all --format $fmt ${words:+--tokens $words}: differs"
    done
done
"$EXE" --load "$LM" --layer 0 --dump output >a.out
"$EXE" --load lm.safetensors --layer 0 --dump output >b.out
check cmp -s a.out b.out -- "--layer 0 --dump output differs"
printf '{"model": "lm.safetensors", "words": "the dog sat on the"}\n' >sentence.json
"$EXE" --load sentence.json --dump output >a.out
"$EXE" --load "$LM" --tokens "the dog sat on the" --dump output >b.out
check cmp -s a.out b.out -- "a sentence file naming the safetensors file differs"
"$EXE" --load lm.safetensors --generate 2 --temperature 0 >a.out
"$EXE" --load "$LM" --generate 2 --temperature 0 >b.out
check cmp -s a.out b.out -- "--generate differs"

# hostile files: cut short, a NaN, a header length past the end
size=$(stat -c %s lm.safetensors)
head -c $((size - 3)) lm.safetensors >cut.safetensors
refused --load cut.safetensors --dump output -- 'cut.safetensors: tensor "unembed.b_U".*pass the end'
python3 - <<'PY'
import json, struct
raw = bytearray(open("lm.safetensors", "rb").read())
(n,) = struct.unpack("<Q", raw[:8])
e = json.loads(raw[8:8 + n])["blocks.0.attn.W_K"]
at = 8 + n + e["data_offsets"][0] + 4 * 7
raw[at:at + 4] = struct.pack("<f", float("nan"))
open("nan.safetensors", "wb").write(raw)
raw = bytearray(open("lm.safetensors", "rb").read())
raw[0:8] = struct.pack("<Q", len(raw))
open("long.safetensors", "wb").write(raw)
PY
refused --load nan.safetensors --dump output -- 'tensor "blocks.0.attn.W_K" \[0, 0, 7\] is NaN'
refused --load long.safetensors --dump output -- "header's length.*passes the end of the file"

# what --export-safetensors does not take
refused --export-safetensors x.safetensors -- '--export-safetensors writes a trained model'
refused --load "$LM" --export-safetensors x.safetensors --dump output -- \
    '--dump cannot be combined with --export-safetensors'
refused --load "$LM" --export-safetensors /dev/null -- '/dev/null: is a character device'
check [ ! -e x.safetensors ] -- "a refused export wrote its file"

echo "safetensors: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
