#!/bin/bash
# A key storm: random keys, `:` commands and resizes, from a fixed seed, for
# a bounded time inside a lesson, in presenter mode and under autoplay.  The
# explorer must live through it, quit, and leave the terminal as it was
# (main screen, cursor shown, typed keys echoed), and under the sanitizers
# (AddressSanitizer, UndefinedBehaviorSanitizer, LeakSanitizer) report
# nothing.  The same gusts every run (a seeded generator): 160 a mode, about
# a minute in all, on the sanitizer build; 45 a mode on other builds, where
# only surviving and the terminal are checked.  Each mode stops after twice
# its expected time whatever it reached.
#
# STORM_GUSTS=N sends N gusts a mode; STORM_SEED=N picks other ones.
. "$(dirname "$0")/lib.sh"

if ldd "$EXE" 2>/dev/null | grep -q 'libasan'; then
    SANITIZED=1
    GUSTS=${STORM_GUSTS:-160}
else
    SANITIZED=0
    GUSTS=${STORM_GUSTS:-45}
fi
SEED=${STORM_SEED:-20261123}

# a small linear congruential generator: the same keys on every run
rng=$SEED
rand() { # rand N -> $R in 0..N-1
    rng=$(((rng * 1103515245 + 12345) % 2147483648))
    R=$(((rng / 65536) % $1))
}

KEYS=(Left Right Up Down Tab BTab Enter Escape Space BSpace PageUp PageDown Home End F1
    0 1 2 3 4 5 6 + - '[' ']' c s r v L P a T J K g G h j k l '?' C-l 1 2 3 7 9 . x y)
COMMANDS=("heads 3" "heads 1" "heads 0" "heads 999" "d_model 12" "d_model 40" "d_model 0"
    "tokens The cat sat on the mat" "tokens 猫 が 座った" "tokens a" "seed 7" "seed 99999999999"
    "load /nonexistent/example.json" "stage 4" "stage output" "stage bogus" "view cost"
    "view heads" "view shapes" "view none" "causal on" "causal off" "scale off" "scale on"
    "theme projector" "theme mono" "theme light" "theme dark" "autoplay 0.2" "autoplay off"
    "present" "link" "zzz" "" "heads" "d_model -5" "tokens")
SIZES=("120 40" "80 24" "200 60" "40 12" "20 6" "100 30" "60 50" "12 4" "150 20")

# storm NAME READY ARGS...: the explorer with ARGS, once READY shows, under
# GUSTS gusts of keys, commands and resizes
storm() {
    local asan="$WORK/asan-$1" ubsan="$WORK/ubsan-$1" ready=$2
    shift 2
    start 120 40 "ASAN_OPTIONS=detect_leaks=1:log_path=$asan" \
        "UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1:log_path=$ubsan" \
        "LSAN_OPTIONS=log_path=$asan" -- "$@"
    wait_for "$ready" 20
    local end=$((SECONDS + 2 * (GUSTS / 11 + 1))) n=0 i batch
    while [ $n -lt "$GUSTS" ] && [ $SECONDS -lt $end ]; do
        rand 10
        if [ $R -eq 0 ]; then # a command, sometimes abandoned half-typed
            rand ${#COMMANDS[@]}
            local cmd=${COMMANDS[$R]}
            keys :
            type_text "$cmd"
            rand 4
            if [ $R -eq 0 ]; then keys Escape; else keys Enter; fi
        elif [ $R -eq 1 ]; then
            rand ${#SIZES[@]}
            local w h
            read -r w h <<<"${SIZES[$R]}"
            T resize-window -x "$w" -y "$h" 2>/dev/null
        else
            batch=()
            for i in 1 2 3 4 5 6; do
                rand ${#KEYS[@]}
                batch+=("${KEYS[$R]}")
            done
            keys "${batch[@]}"
        fi
        n=$((n + 1))
        sleep 0.03
        if [ $((n % 25)) -eq 0 ] && [ -s "$WORK/status" ]; then
            fail "the explorer ended in the storm ($*, seed $SEED, gust $n) with status $(cat "$WORK/status")"
        fi
    done
    T resize-window -x 120 -y 40
    sleep 1
    [ -s "$WORK/status" ] && fail "the explorer ended in the storm ($*) with status $(cat "$WORK/status")"
    pass
    # out of any prompt, overlay or answer, then quit; Ctrl-C if q is taken
    keys Escape Escape Escape
    sleep 0.3
    keys q
    local w=0
    while [ ! -s "$WORK/status" ] && [ $w -lt 40 ]; do
        sleep 0.1
        w=$((w + 1))
        [ $((w % 10)) -eq 0 ] && keys Escape q
    done
    [ -s "$WORK/status" ] || keys C-c
    w=0
    while [ ! -s "$WORK/status" ] && [ $w -lt 100 ]; do
        sleep 0.1
        w=$((w + 1))
    done
    [ -s "$WORK/status" ] || fail "the explorer did not quit after the storm ($*)"
    local status
    status=$(cat "$WORK/status")
    if [ -n "$(cat "$asan".* "$ubsan".* 2>/dev/null)" ]; then
        echo "---- sanitizer report ($*) ----"
        cat "$asan".* "$ubsan".* 2>/dev/null | head -60
        fail "the sanitizers reported a problem in the storm ($*)"
    fi
    pass
    check "a clean exit after the storm ($*): status $status" test "$status" = 0 -o "$status" = 130
    wait_for EXPLORER-EXITED
    check "the main screen is back ($*)" test "$(T display -p '#{alternate_on}')" = 0
    check "the cursor is shown ($*)" test "$(T display -p '#{cursor_flag}')" = 1
    type_text "echo-is-on"
    wait_for "echo-is-on"
    echo "storm ($*): $n of $GUSTS gusts (seed $SEED), exit status $status"
    T kill-server
}

storm lesson "Lesson 7" --lesson 7
storm present "Attention" --present --stage attention
storm autoplay "Lesson 2" --autoplay 0.2 --lesson 2
if [ "$SANITIZED" = 0 ]; then
    echo "not a sanitizer build: $GUSTS gusts a mode, for survival and the terminal"
fi
