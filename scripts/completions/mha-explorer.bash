# bash completion for mha-explorer: options, and the names their values take
# (stages, views, themes, formats, tasks, lesson numbers, files).
# Written by scripts/gen-docs from the option table; edit the table, not this file.
# Installed as share/bash-completion/completions/mha-explorer.

_mha_explorer() {
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    local options="--load --tokens --d-model --heads --seed --causal --no-scale --dump --format
        --stage --list-lessons --check-lessons --print-lesson --lesson --step --reset-progress
        --view --focus --bench-frames --no-mouse --present --theme --autoplay --record --force
        --replay --speed --follow --train --vocab --context --keep-case --steps --layers
        --variant --batch --lr --save --compare --corrupt --answer --grad --layer --generate
        --temperature --top-k --top-p --export-torch --export-safetensors --help --man
        --version"

    case $prev in
    --load)
        mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur")
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur")
        return
        ;;
    --tokens | --d-model | --heads | --seed | --step | --focus | --bench-frames | --autoplay | --speed | --vocab | --context | --steps | --layers | --lr | --compare | --corrupt | --answer | --layer | --generate | --temperature | --top-k | --top-p)
        return # a value of the user's own
        ;;
    --dump)
        mapfile -t COMPREPLY < <(compgen -W "input projection split transpose attention merge output all summary circuits lens patching" -- "$cur")
        return
        ;;
    --format)
        mapfile -t COMPREPLY < <(compgen -W "text json svg html markdown csv latex" -- "$cur")
        return
        ;;
    --stage)
        mapfile -t COMPREPLY < <(compgen -W "input projection split transpose attention merge output" -- "$cur")
        return
        ;;
    --print-lesson | --lesson)
        local numbers
        numbers=$("${COMP_WORDS[0]}" --list-lessons 2>/dev/null | awk '{print $1}')
        mapfile -t COMPREPLY < <(compgen -W "$numbers" -- "$cur")
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.md' -- "$cur")
        return
        ;;
    --view)
        mapfile -t COMPREPLY < <(compgen -W "shapes cost heads circuits composition model patching" -- "$cur")
        return
        ;;
    --theme)
        mapfile -t COMPREPLY < <(compgen -W "dark light projector mono" -- "$cur")
        return
        ;;
    --record | --replay | --follow | --save | --grad | --export-torch | --export-safetensors)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    --train)
        mapfile -t COMPREPLY < <(compgen -W "first-prev prev find-copy majority induction sentences names" -- "$cur")
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    --variant)
        mapfile -t COMPREPLY < <(compgen -W "standard shared-qk low-rank-qk:2 no-wo low-rank-wo:2 mqa gqa:2" -- "$cur")
        return
        ;;
    --batch)
        [[ $cur == [0-9]* ]] && return # a number of sequences; else a batch file
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    esac
    local w
    for w in "${COMP_WORDS[@]}"; do
        if [ "$w" = --check-lessons ] && [[ $cur != -* ]]; then
            mapfile -t COMPREPLY < <(compgen -f -X '!*.md' -- "$cur")
            return
        fi
    done
    mapfile -t COMPREPLY < <(compgen -W "$options" -- "$cur")
}
complete -o filenames -F _mha_explorer mha-explorer
