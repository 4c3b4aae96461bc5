#!/bin/bash
# Every figure doc/training.md quotes about heads in two layers is the program's
# own: re-train a sample of the runs scripts/layer-figures measured (every
# 20th of the grid: two runs of each task and layer count) and check they
# train to the committed data, that doc/layer-figures.md is what the data
# gives, and that every quoted figure is in the text that quotes it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/../../scripts/layer-figures" "$1" --check 20
