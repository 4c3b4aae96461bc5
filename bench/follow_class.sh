#!/usr/bin/env bash
# follow_class.sh - N followers (default 30, 80x24 each, in tmux) of one
# teacher (100x30) recording: the followers' CPU (per follower and in all,
# as % of one core), their memory, how far they lag, and the teacher's
# training pace, for four sessions: idle on lesson 7, a key a second on
# lesson 7, and the teacher training first-prev and sentences.  The runs
# are given --steps 100000 so that neither stops within the measure (first-
# prev at its default 120 steps a second; sentences slowed with one '<' to
# 500, the pace of its default run).  Lag is the teacher's training step
# minus a follower's, over the teacher's steps a second, sampled on a few
# followers; the teacher's pace is also measured alone.  The load average
# is printed before and after: other work on the machine shows there.
# Runs in a temporary folder that goes with it.
#   bench/follow_class.sh build/src/mha-explorer [N] [SECONDS]
EXE=$(realpath "${1:?usage: $0 path/to/mha-explorer [N] [SECONDS]}")
N=${2:-30}
SECS=${3:-15}
D=$(mktemp -d)
cd "$D" || exit 1
export TMUX_TMPDIR=$D # its socket goes with the folder
T() { tmux -L class$$ -f /dev/null "$@"; }
trap 'T kill-server 2>/dev/null; cd /; rm -rf "$D"' EXIT
hz=$(getconf CLK_TCK)
export XDG_STATE_HOME=$D/state

pids_of() { # the explorers of the sessions named $1*
    local s p
    for s in $(T list-sessions -F '#{session_name}' | grep "^$1"); do
        p=$(T list-panes -t "$s" -F '#{pane_pid}')
        pgrep -P "$p" -x mha-explorer
    done
}
ticks() { local s=0 p f; for p in "$@"; do read -r -a f <"/proc/$p/stat" && s=$((s + f[13] + f[14])); done; echo $s; }
# the training step a screen shows
step_of() { T capture-pane -p -t "$1" | grep -oP 'step \K[0-9]+' | head -1; }

# case NAME KEYS_A_SECOND PACE_KEYS TEACHER_ARGS...
run_case() {
    local name=$1 keys=$2 pace_keys=$3 train=0 st1=
    shift 3
    [ "$1" = --train ] && train=1
    rm -f class.rec
    T new-session -d -s teach -x 100 -y 30 "cd $D && TERM=xterm-256color $EXE --record class.rec $*; sleep 600"
    sleep 1
    [ -n "$pace_keys" ] && T send-keys -t teach "$pace_keys"
    local i
    for i in $(seq 1 "$N"); do
        T new-session -d -s "s$i" -x 80 -y 24 "cd $D && TERM=xterm-256color $EXE --follow class.rec; sleep 600"
    done
    sleep 1
    local followers teacher
    followers=$(pids_of s)
    teacher=$(pids_of teach)
    local c0 t0 st0 c1 t1 st1
    c0=$(ticks $followers)
    t0=$(ticks $teacher)
    st0=
    [ "$train" = 1 ] && st0=$(step_of teach)
    local lags=() k moving=0 last=$st0 now
    for k in $(seq 1 "$SECS"); do
        [ "$keys" = 1 ] && T send-keys -t teach Space
        sleep 1
        now=$(step_of teach)
        # the teacher's pace: the seconds in which the run moved on
        [ "$train" = 1 ] && [ -n "$now" ] && [ "$now" != "$last" ] && { moving=$((moving + 1)); st1=$now; }
        last=$now
        if [ "$train" = 1 ] && [ $((k % 3)) -eq 0 ]; then
            for i in 1 $((N / 2)) "$N"; do
                local a b
                a=$(step_of teach)
                b=$(step_of "s$i")
                [ -n "$a" ] && [ -n "$b" ] && lags+=($((a - b)))
            done
        fi
    done
    c1=$(ticks $followers)
    t1=$(ticks $teacher)
    local n rss=0 p
    n=$(echo $followers | wc -w)
    for p in $followers; do rss=$((rss + $(awk '/VmRSS/{print $2}' "/proc/$p/status"))); done
    python3 - "$name" "$n" "$((c1 - c0))" "$((t1 - t0))" "$hz" "$SECS" "$rss" "${st0:-}" "${st1:-}" "$moving" "${lags[@]}" <<'PY'
import sys
name, n, fc, tc, hz, secs, rss, st0, st1, moving = sys.argv[1:11]
lags = [max(int(x), 0) for x in sys.argv[11:]]
n, fc, tc, hz, secs, rss = int(n), int(fc), int(tc), int(hz), int(secs), int(rss)
allc = fc / hz / secs * 100
pace = (int(st1) - int(st0)) / int(moving) if st0 and st1 and int(moving) else None
line = f"| {name} | {n} | {allc / max(n, 1):.2f}% | {allc:.1f}% | {tc / hz / secs * 100:.1f}% | {rss / 1024 / max(n, 1):.1f} MB ({rss / 1024:.0f} MB) |"
if pace:
    lag = max(lags) / pace if lags else float('nan')
    mean = sum(lags) / len(lags) / pace if lags else float('nan')
    line += f" {pace:.0f} | {mean:.2f} s ({lag:.2f} s) |"
else:
    line += " - | - |"
print(line)
PY
    T kill-server 2>/dev/null
    sleep 1
}

# the teacher's pace alone (recording, as in class), for comparison
pace_alone() {
    local pace_keys=$1
    shift
    rm -f class.rec
    T new-session -d -s teach -x 100 -y 30 "cd $D && TERM=xterm-256color $EXE --record class.rec $*; sleep 600"
    sleep 1
    [ -n "$pace_keys" ] && T send-keys -t teach "$pace_keys"
    sleep 1
    local a b k moving=0 now last
    a=$(step_of teach)
    last=$a
    for k in $(seq 1 "$SECS"); do
        sleep 1
        now=$(step_of teach)
        [ -n "$now" ] && [ "$now" != "$last" ] && { moving=$((moving + 1)); b=$now; }
        last=$now
    done
    echo "| teacher alone: $* | | | | | | $(((b - a) / (moving > 0 ? moving : 1))) | |"
    T kill-server 2>/dev/null
    sleep 1
}

echo "load average before: $(cut -d' ' -f1-3 /proc/loadavg)"
echo "| session | followers | CPU a follower | CPU all followers | CPU teacher | memory a follower (all) | teacher steps/s | lag mean (worst) |"
echo "|---|---:|---:|---:|---:|---:|---:|---:|"
run_case "idle, lesson 7" 0 "" --lesson 7
run_case "a key a second, lesson 7" 1 "" --lesson 7
pace_alone "" --train first-prev --steps 100000
run_case "training first-prev" 0 "" --train first-prev --steps 100000
pace_alone "<" --train sentences --steps 100000
run_case "training sentences" 0 "<" --train sentences --steps 100000
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg)"
