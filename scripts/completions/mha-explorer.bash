# bash completion for mha-explorer: options, and the names their values take
# (stages, views, themes, formats, lesson numbers, files).
# Installed as share/bash-completion/completions/mha-explorer.

_mha_explorer() {
    local cur prev
    cur=${COMP_WORDS[COMP_CWORD]}
    prev=${COMP_WORDS[COMP_CWORD - 1]}
    local options="--load --tokens --d-model --heads --seed --causal --no-scale
        --dump --format --stage --list-lessons --check-lessons --print-lesson --lesson
        --step --reset-progress --view --focus --bench-frames --present --theme --autoplay
        --record --replay --follow --speed --train --vocab --context --keep-case --steps --layers --layer --batch --lr --save
        --grad --compare --generate --temperature --top-k --export-torch --force --no-mouse --help --version"
    local stages="input projection split transpose attention merge output"

    case $prev in
    --stage)
        mapfile -t COMPREPLY < <(compgen -W "$stages" -- "$cur")
        return
        ;;
    --dump)
        mapfile -t COMPREPLY < <(compgen -W "$stages all summary circuits" -- "$cur")
        return
        ;;
    --train)
        mapfile -t COMPREPLY < <(compgen -W "first-prev prev find-copy majority induction sentences names" -- "$cur")
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    --grad | --save)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    --batch)
        [[ $cur == [0-9]* ]] && return # a number of sequences; else a batch file
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    --view)
        mapfile -t COMPREPLY < <(compgen -W "shapes cost heads circuits" -- "$cur")
        return
        ;;
    --theme)
        mapfile -t COMPREPLY < <(compgen -W "dark light projector mono" -- "$cur")
        return
        ;;
    --format)
        mapfile -t COMPREPLY < <(compgen -W "text json svg html markdown csv latex" -- "$cur")
        return
        ;;
    --lesson | --print-lesson)
        local numbers
        numbers=$("${COMP_WORDS[0]}" --list-lessons 2>/dev/null | awk '{print $1}')
        mapfile -t COMPREPLY < <(compgen -W "$numbers" -- "$cur")
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -f -X '!*.md' -- "$cur")
        return
        ;;
    --load)
        mapfile -t COMPREPLY < <(compgen -f -X '!*.json' -- "$cur")
        mapfile -t -O "${#COMPREPLY[@]}" COMPREPLY < <(compgen -d -- "$cur")
        return
        ;;
    --record | --replay | --follow | --export-torch)
        mapfile -t COMPREPLY < <(compgen -f -- "$cur")
        return
        ;;
    --tokens | --d-model | --heads | --seed | --step | --focus | --bench-frames | \
        --autoplay | --speed | --vocab | --context | --steps | --layers | --layer | --lr | --compare | \
        --generate | --temperature | --top-k)
        return # a value of the user's own
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
