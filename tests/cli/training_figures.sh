#!/bin/bash
# Every training figure README.md, doc/training.md and the lessons quote is
# the program's
# own: re-train a sample of the runs scripts/training-figures measured (every
# 40th of the grid) and check they train to the committed data, that
# doc/training-figures.md is what the data gives, and that every quoted
# figure is in the text that quotes it.  Then the check itself, on a copy
# of the checkout with one quoted figure and one run of the data made wrong:
# it names both and fails, without a traceback.
set -uo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$here/../..
script=$root/scripts/training-figures
python3 "$script" "$1" --check 40 || exit 1

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/doc"
cp -r "$root/README.md" "$root/lessons" "$work/"
cp "$root/doc/training-figures.json" "$root/doc/training-figures.md" "$root/doc/training.md" \
    "$work/doc/"
# README's "stops at step 550" (the two heads of seed 1) now says 505; the
# first run of the grid (first-prev, d_model 6, 1 head, seed 1) 7 steps more
python3 - "$work" <<'PY'
import json, os, sys
work = sys.argv[1]
readme = os.path.join(work, "README.md")
text = open(readme, encoding="utf-8").read()
assert "stops at step 550" in text
open(readme, "w", encoding="utf-8").write(text.replace("stops at step 550", "stops at step 505"))
path = os.path.join(work, "doc", "training-figures.json")
data = json.load(open(path, encoding="utf-8"))
run = [r for r in data if (r["task"], r["d_model"], r["heads"], r["seed"]) == ("first-prev", 6, 1, 1)]
run[0]["steps"] += 7
open(path, "w", encoding="utf-8").write(
    "[\n" + ",\n".join(json.dumps(r, sort_keys=True) for r in data) + "\n]\n")
PY
python3 "$script" "$1" --check 400 --root "$work" --jobs 1 >"$work/out.txt" 2>&1
rc=$?
failed=0
want() {
    if ! grep -qF -- "$1" "$work/out.txt"; then
        echo "FAIL: the check of a wrong copy does not say: $1"
        failed=1
    fi
}
[ "$rc" -eq 1 ] || { echo "FAIL: the check of a wrong copy exits $rc, not 1"; failed=1; }
want 'README.md does not say "stops at step 550"'
want "first-prev d_model 6, 1 head, seed 1: trains to"
if grep -q "Traceback" "$work/out.txt"; then
    echo "FAIL: the check of a wrong copy crashed"
    failed=1
fi
[ "$failed" -eq 0 ] || { cat "$work/out.txt"; exit 1; }
echo "training figures: a wrong quote and a wrong run are reported"
