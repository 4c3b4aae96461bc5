#!/usr/bin/env bash
# bench/dump_speed.sh - how fast --dump writes its numbers: --dump all as text
# and as JSON at (1024 tokens, d_model 768, 12 heads), written to /dev/null,
# best of three runs each (the forward pass and the start included).
#   bench/dump_speed.sh build/src/mha-explorer
set -euo pipefail
exe=${1:?usage: $0 path/to/mha-explorer}
tokens=$(python3 -c "print(' '.join('t%d' % i for i in range(1024)))")
for fmt in text json; do
    bytes=$("$exe" --tokens "$tokens" --d-model 768 --heads 12 --dump all --format "$fmt" | wc -c)
    best=
    for _ in 1 2 3; do
        start=$(date +%s.%N)
        "$exe" --tokens "$tokens" --d-model 768 --heads 12 --dump all --format "$fmt" >/dev/null
        end=$(date +%s.%N)
        t=$(python3 -c "print($end - $start)")
        best=$(python3 -c "print(min(float('$t'), float('${best:-1e9}')))")
    done
    python3 -c "print('--dump all --format $fmt: %.0f MB in %.2f s, %.0f MB/s' % ($bytes / 1e6, $best, $bytes / 1e6 / $best))"
done
