#!/bin/bash
# Every figure doc/variant-figures.md gives of the attention block's variants
# is the program's own: re-train a sample of the runs scripts/variant-figures
# measured (every 56th of the grid: five of each task, across the variants)
# and check they train to the committed data, and that the page is what the
# data gives.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
exec python3 "$here/../../scripts/variant-figures" "$1" --check 56
