#!/usr/bin/zsh -f
# SPDX-License-Identifier: GPL-2.0-or-later
# Drive zsh's completion system for real: an interactive zsh in a pseudo
# terminal (zsh/zpty) with compinit and the completion dir in $fpath types
# each query line and presses Tab.  A compadd wrapper records every
# candidate the completion functions add, as it would appear on the line.
#
# Usage: zsh-complete.zsh COMPLETION_DIR WORKDIR < queries
# Prints one line per query: the query, a tab, the sorted candidates
# separated by spaces (the query itself has no tab in it).  What the
# terminal showed is left in WORKDIR/zscreen.
emulate -L zsh
zmodload zsh/zpty || { print -u2 "zsh-complete: no zsh/zpty"; exit 1 }
compdir=${1:A} work=${2:A}
cap=$work/zcap

cat >$work/zinit <<EOF
bindkey -e
unsetopt auto_list auto_menu list_ambiguous menu_complete beep
fpath=($compdir \$fpath)
autoload -Uz compinit && compinit -u -D
zstyle ':completion:*' list-prompt ''
zstyle ':completion:*' select-prompt ''

# Record what the completion functions add, then add it as usual.  Calls
# that only compute (-O, -A, -D) are passed through untouched.
compadd() {
  local -a __got __ignore
  local __hidden= __shown= __i
  for (( __i = 1; __i <= \$#; __i++ )); do
    case \${argv[__i]} in
      (-|--) break ;;
      (-[OAD]) builtin compadd "\$@"; return ;;
      (-p) __hidden=\${argv[__i+1]}; (( __i++ )) ;;
      (-P) __shown=\${argv[__i+1]}; (( __i++ )) ;;
      (-F) # words matching these patterns are not added (_sequence's dedup)
        if [[ \${argv[__i+1]} == \(* ]]; then eval "__ignore=\${argv[__i+1]}"
        else __ignore=("\${(@P)argv[__i+1]}"); fi
        (( __i++ )) ;;
      (-[SsiIWdJVXxrRME]) (( __i++ )) ;;
    esac
  done
  builtin compadd -O __got "\$@"
  local __w
  for __w in \$__got; do
    (( \${__ignore[(I)\$__w]} )) && continue
    print -r -- "\$IPREFIX\$__hidden\$__shown\$__w" >>$cap
  done
  builtin compadd "\$@"
}

# Tab: complete, say so in a file, then clear the line for the next query.
_zc_tab() {
  zle complete-word
  print -r -- done >|$cap.done
  BUFFER=
}
zle -N _zc_tab
bindkey '^I' _zc_tab
PS1='> '
print -r -- ready >|$cap.done
EOF

rm -f $cap $cap.done $work/zscreen
local __screen
zpty -b zc zsh -f -i
zpty -w zc "source ${(q)work}/zinit"

# Polled until the completion is written; the 120 s bound only ends a wait
# for a completion gone wrong (a loaded machine only makes it later).
wait_done() {
  # wait(a): the completion wrote its file (zsh started, then each query), polled every 0.05 s; 120
  #   s.
  local end=$(( SECONDS + 120 ))
  while (( SECONDS < end )); do
    [[ -e $cap.done ]] && { rm -f $cap.done; return 0 }
    sleep 0.05
    # Keep the terminal's output from filling up, and keep it: what a
    # completion function prints on error shows up only there.
    zpty -rt zc __screen 2>/dev/null && print -rn -- "$__screen" >>$work/zscreen
  done
  return 1
}
wait_done || { print -u2 "zsh-complete: the interactive zsh did not start"; exit 1 }

local q
while IFS= read -r q; do
  : >|$cap
  zpty -w -n zc "$q"$'\t'
  if ! wait_done; then
    print -r -- "$q"$'\t'"<timeout>"
    zpty -w -n zc $'\C-u'
    continue
  fi
  local -a got=(${(f)"$(<$cap)"})
  print -r -- "$q"$'\t'"${(j: :)${(ou)got}}"
done
while zpty -rt zc __screen 2>/dev/null; do print -rn -- "$__screen" >>$work/zscreen; done
zpty -d zc
