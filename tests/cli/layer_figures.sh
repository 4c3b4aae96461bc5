#!/bin/bash
# Every figure doc/training.md and the lessons quote about heads in two layers
# is the program's own: re-train a sample of the runs scripts/layer-figures
# measured (every 40th of the grid: two runs of each task and layer count, one
# of seeds 1-40 and one of 41-80) and check they train to the committed data,
# that doc/layer-figures.md is what the data gives, and that every quoted
# figure is in the text that quotes it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/../../scripts/layer-figures" "$1" --check 40
