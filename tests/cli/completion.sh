#!/bin/bash
# Shell completion: the bash and zsh files know every option --help lists
# (and no other), and the bash one completes options, stages, views, themes,
# formats and lesson numbers, the lists as the tables (option_tables) and
# --list-lessons give them.  zsh's file is syntax-checked where zsh is.
EXE=$(realpath "${1:?usage: $0 path/to/mha-explorer path/to/option_tables}")
TABLES=${2:?usage: $0 path/to/mha-explorer path/to/option_tables}
DIR=$(dirname "$0")/../../scripts/completions
BASH_FILE=$DIR/mha-explorer.bash
ZSH_FILE=$DIR/_mha-explorer
passed=0
failed=0
ok() { passed=$((passed + 1)); }
bad() { failed=$((failed + 1)); echo "FAIL: $*"; }
# check CONDITION-COMMAND... -- MESSAGE
check() {
    local args=()
    while [ "$1" != -- ]; do args+=("$1"); shift; done
    shift
    if "${args[@]}"; then ok; else bad "$*"; fi
}

help_opts=$("$EXE" --help | grep -oE '^ +(-[a-zA-Z], )?--[a-z-]+' | grep -oE -- '--[a-z-]+' | sort -u)
[ -n "$help_opts" ] || bad "--help lists no options"
for f in "$BASH_FILE" "$ZSH_FILE"; do
    file_opts=$(grep -oE -- "(^|[ '\"{,])--[a-z][a-z-]+" "$f" | grep -oE -- '--[a-z-]+' | sort -u)
    missing=$(comm -23 <(echo "$help_opts") <(echo "$file_opts"))
    extra=$(comm -13 <(echo "$help_opts") <(echo "$file_opts"))
    check [ -z "$missing" ] -- "$(basename "$f") lacks: $missing"
    check [ -z "$extra" ] -- "$(basename "$f") has options --help does not: $extra"
done

# complete LINE: what bash offers for the last word of LINE
complete_line() {
    (
        # shellcheck disable=SC1090
        . "$BASH_FILE"
        read -r -a COMP_WORDS <<<"$1"
        [[ $1 == *" " ]] && COMP_WORDS+=("")
        COMP_WORDS[0]=$EXE
        COMP_CWORD=$((${#COMP_WORDS[@]} - 1))
        _mha_explorer
        printf '%s\n' "${COMPREPLY[@]}"
    )
}
expect() {
    local got
    got=$(complete_line "$1" | sort | tr '\n' ' ')
    check [ "$got" = "$2" ] -- "\"$1\" completes to \"$got\", expected \"$2\""
}
# list NAME: the table's list NAME (stages, views, ...), a word a line
list() { "$TABLES" | python3 -c 'import json, sys; print("\n".join(json.load(sys.stdin)[sys.argv[1]]))' "$1"; }
sorted() { sort | tr '\n' ' '; }
expect "mha-explorer --st" "--stage --step --steps "
expect "mha-explorer --stage a" "attention "
expect "mha-explorer --dump " "$( (list stages; printf '%s\n' all summary circuits lens patching) | sorted)"
expect "mha-explorer --view " "$(list views | sorted)"
expect "mha-explorer --theme p" "projector "
expect "mha-explorer --format s" "svg "
expect "mha-explorer --lesson 1" "$("$EXE" --list-lessons | awk '$1 ~ /^1/ {print $1}' | sorted)"
expect "mha-explorer --reset" "--reset-progress "
expect "mha-explorer --train first" "first-prev "

if command -v zsh >/dev/null 2>&1; then
    check zsh -n "$ZSH_FILE" -- "zsh -n $ZSH_FILE"
fi
echo "completion: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
