# lib.sh - helpers for the screen tests: the explorer in a real terminal
# (tmux, on a private socket), keys sent with send-keys, the screen read with
# capture-pane.  Sourced by each test with the program's path as $1.  Skips
# (exit 77) without tmux.  Every check that holds counts as passed; the first
# that fails ends the test; the last line is "screen: N passed, M failed".
# Progress files go to a temporary XDG_STATE_HOME, never the user's, and
# the program runs in a temporary folder (the one the test went to with cd
# when that is inside $WORK), so a stray key's export never lands in the
# checkout.  SRC_ROOT is the source tree, for the files a test opens.

EXE=$(realpath "${1:?usage: $0 path/to/mha-explorer}")
if ! command -v tmux >/dev/null 2>&1; then
    echo "tmux is not installed: skipping the screen test"
    exit 77
fi

SRC_ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
SOCK=mha-test-$$
# the test's own folder, under /tmp: the paths the screens print (a saved
# file, a recording) must fit a status line, and a build's TMPDIR
# (tests/meson.build) is long; the program's own temporary files still go to
# TMPDIR, which the last test checks
WORK=$(mktemp -d /tmp/mha-screen-XXXXXX)
mkdir "$WORK/cwd"
# tmux keeps its socket in the test's folder, which goes with it (tmux
# leaves a server's socket file behind when the server ends)
export TMUX_TMPDIR=$WORK
PASSED=0
FAILED=0
T() { tmux -L "$SOCK" -f /dev/null "$@"; }
cleanup() {
    T kill-server >/dev/null 2>&1
    rm -rf "$WORK"
    echo "screen: $PASSED passed, $FAILED failed"
}
trap cleanup EXIT
pass() { PASSED=$((PASSED + 1)); }

# start W H [VAR=value ...] [-- args]: run the explorer in a W x H terminal
# (under the command in the array WRAP, when a test sets one).
WRAP=()
start() {
    local w=$1 h=$2
    shift 2
    local envs=() args=()
    while [ $# -gt 0 ]; do
        if [ "$1" = "--" ]; then shift; args=("$@"); break; fi
        envs+=("$1")
        shift
    done
    {
        echo "export TERM=xterm-256color LANG=C.UTF-8 LC_ALL=C.UTF-8"
        echo "export XDG_STATE_HOME='$WORK/state'"
        echo "unset NO_COLOR"
        case $PWD/ in
        "$WORK"/*) printf 'cd %q\n' "$PWD" ;;
        *) printf 'cd %q\n' "$WORK/cwd" ;;
        esac
        for e in "${envs[@]}"; do printf 'export %q\n' "$e"; done
        printf '%q ' "${WRAP[@]}" "$EXE" "${args[@]}"
        echo
        echo "echo \$? > '$WORK/status'"
        echo "echo EXPLORER-EXITED"
        echo "sleep 600"
    } >"$WORK/run.sh"
    rm -f "$WORK/status"
    new_session "$w" "$h" "bash '$WORK/run.sh'"
}

# new_session W H COMMAND: a tmux session running COMMAND in a W x H
# terminal.  A server just told to quit (T kill-server) may still be going
# away when the new session reaches it ("server exited unexpectedly"): try
# again.
new_session() {
    local i
    for i in 1 2 3 4 5; do
        T new-session -d -x "$1" -y "$2" "$3" 2>/dev/null && return 0
        sleep 0.3
    done
    T new-session -d -x "$1" -y "$2" "$3"
}

screen() { T capture-pane -p "$@"; }

fail() {
    FAILED=$((FAILED + 1))
    echo "FAIL: $*"
    echo "---- screen ----"
    screen
    echo "----------------"
    exit 1
}

# shows TEXT: whether the screen read from stdin holds TEXT on one line, or
# wrapped over lines (a message wraps where its words, a long path among
# them, pass the width): the lines joined, runs of blanks read as one
shows() {
    local text=$1 shot
    shot=$(cat)
    grep -qF -- "$text" <<<"$shot" && return 0
    tr -s ' \n' '  ' <<<"$shot" | grep -qF -- "$(tr -s ' ' <<<"$text")"
}

# wait_for TEXT [seconds]: poll the screen until TEXT shows.
wait_for() {
    local text=$1 limit=${2:-10} i=0
    while [ $i -lt $((limit * 20)) ]; do
        screen | shows "$text" && pass && return 0
        sleep 0.05
        i=$((i + 1))
    done
    fail "\"$text\" did not appear within ${limit}s"
}

# wait_gone TEXT [seconds]: poll until TEXT is no longer on the screen.
wait_gone() {
    local text=$1 limit=${2:-10} i=0
    while [ $i -lt $((limit * 20)) ]; do
        screen | grep -qF -- "$text" || { pass; return 0; }
        sleep 0.05
        i=$((i + 1))
    done
    fail "\"$text\" still on the screen after ${limit}s"
}

keys() { T send-keys "$@"; }

# explorer_pid: the program this test's terminal runs (the child of its
# pane's shell), never another test's explorer running beside it
explorer_pid() {
    local shell
    shell=$(T display -p '#{pane_pid}') || return 1
    pgrep -P "$shell" -x "$(basename "$EXE")"
}

# settle BEFORE [seconds]: for keys whose effect has no text of its own to
# wait for: poll until the screen differs from BEFORE (a `screen -e` taken
# before the keys were sent), then until it holds still for a quarter second.
settle() {
    local before=$1 limit=${2:-10} prev=$1 cur same=0 i=0
    while [ $i -lt $((limit * 20)) ]; do
        cur=$(screen -e)
        if [ "$cur" != "$prev" ]; then
            prev=$cur
            same=0
        elif [ "$cur" != "$before" ]; then
            same=$((same + 1))
            [ $same -ge 5 ] && return 0
        fi
        sleep 0.05
        i=$((i + 1))
    done
    fail "the screen did not change and settle within ${limit}s"
}

# type TEXT: literal text, no key names.
type_text() { T send-keys -l -- "$1"; }

# stage_names: the program's stages, one a line, in order (from the list its
# --dump refusal gives: the stage table's); last_stage: the last one's number.
stage_names() {
    "$EXE" --dump "?" 2>&1 | sed -n "s/.*unknown stage '?'; expected \(.*\) or all\$/\1/p" |
        sed 's/, /\n/g'
}
last_stage() { echo $(($(stage_names | wc -l) - 1)); }

# stage_titles: the stages' titles ("Input"), one a line, in order: the stage
# table's, as the build's tests/cli/option_tables prints it.
stage_titles() {
    "$(dirname "$EXE")/../tests/cli/option_tables" |
        python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)["stage_titles"]))'
}

# lesson_steps N: how many steps bundled lesson N has (from --list-lessons:
# a test names a step by its number, never the lesson's count of them).
lesson_steps() {
    "$EXE" --list-lessons | awk -v n="$1" '$1 == n { print $(NF - 1); exit }'
}

# view_names: the program's views, one a line, in the order v goes through
# them (from the list its --view refusal gives: the view table's).
view_names() {
    "$EXE" --view "?" 2>&1 | sed -n "s/.*unknown view '?'; expected \(.*\) or none\$/\1/p" |
        sed 's/, /\n/g'
}

# wait_exit STATUS: the explorer ended with STATUS and the terminal is back.
wait_exit() {
    local want=$1 i=0
    while [ ! -s "$WORK/status" ] && [ $i -lt 200 ]; do
        sleep 0.05
        i=$((i + 1))
    done
    [ -s "$WORK/status" ] || fail "the explorer did not exit"
    local got
    got=$(cat "$WORK/status")
    [ "$got" = "$want" ] || fail "exit status $got, expected $want"
    wait_for EXPLORER-EXITED
    # the alternate screen is gone: nothing of the explorer is left
    screen | grep -qF "? help" && fail "the explorer's screen was left behind"
    pass
    return 0
}

# check DESCRIPTION COMMAND...: one check that holds or fails the test.
check() {
    local what=$1
    shift
    "$@" && pass && return 0
    fail "$what"
}

# bar_current: the stage the pipeline bar highlights ("4 Attention"), read
# from the colours (256-colour terminal).
bar_current() {
    screen -e | head -1 | grep -oP '\e\[48;5;214m\K[^\e]+' | head -1 | sed 's/^ *//; s/ *$//'
}

# wait_bar TEXT: poll until the pipeline bar highlights TEXT.
wait_bar() {
    local i=0
    while [ $i -lt 200 ]; do
        [ "$(bar_current)" = "$1" ] && pass && return 0
        sleep 0.05
        i=$((i + 1))
    done
    fail "the pipeline bar highlights \"$(bar_current)\", expected \"$1\""
}

# space_until TEXT: press Space (reading on through a long step) until TEXT shows.
space_until() {
    local n=0
    while [ $n -lt 6 ]; do
        keys Space
        local i=0
        while [ $i -lt 10 ]; do
            screen | grep -qF -- "$1" && pass && return 0
            sleep 0.05
            i=$((i + 1))
        done
        n=$((n + 1))
    done
    fail "\"$1\" did not appear after pressing Space"
}

# has_colour: the screen (with attributes) holds colour escapes.
has_colour() {
    screen -e | grep -qP '\e\[[0-9;]*(?<![0-9])(3[0-7]|4[0-7]|38;5;[0-9]+|48;5;[0-9]+)[;m]'
}

# quit_lesson: in a lesson q leaves the lesson (the explorer says so and
# stays open); a second q quits.
# answer_checkpoint: a waiting checkpoint of choices answered (1, then 2
# if 1 was wrong: a second try settles it either way), so that a training
# step's run, which waits for the answer, may start
answer_checkpoint() {
    local k i
    for k in 1 2; do
        screen | grep -qF "Press 1-" || return 0
        keys "$k"
        i=0
        while screen | grep -qF "Press 1-" && [ $i -lt 10 ]; do
            sleep 0.05
            i=$((i + 1))
        done
    done
}

quit_lesson() {
    keys q
    wait_for "Left the lesson"
    keys q
    wait_exit 0
}

# quit_recording: q on an explorer that records asks first (or the checkpoint
# asks: one question a q); the second q quits.
quit_recording() {
    keys q
    wait_for "q again quits" 5
    keys q
}

# faster: the training screen's pace at its fastest (> three times from the
# default), so a run reaches its last step as soon as the machine can train it;
# the steps and what they give do not depend on the pace.
faster() {
    keys '>' '>' '>'
    wait_for "1000 steps a second"
}
