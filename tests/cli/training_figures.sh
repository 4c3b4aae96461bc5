#!/bin/bash
# Every training figure README.md and the lessons quote is the program's
# own: re-train a sample of the runs scripts/training-figures measured (every
# 40th of the grid) and check they train to the committed data, that
# doc/training-figures.md is what the data gives, and that every quoted
# figure is in the text that quotes it.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/../../scripts/training-figures" "$1" --check 40
