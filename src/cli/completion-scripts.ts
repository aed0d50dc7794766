// The shell scripts `mcpwire completion bash|zsh|fish` prints. Each is small: it hands the words
// typed so far to `mcpwire completion --words -- WORD…` (completion-verb.ts), which answers with
// what to offer — a first line `words`, `files` or `directories`, then the words — so that which
// verb takes what is decided once, in TypeScript, from the verbs' own option tables. Each calls
// the command the user typed (its first word), so the program that answers is the one completed.

/** The shells `mcpwire completion` has a script for. */
export const SHELLS = ["bash", "zsh", "fish"] as const;
/** One of SHELLS. */
export type Shell = (typeof SHELLS)[number];

// bash 4+ (mapfile, compopt), with or without the bash-completion package.
const BASH = `# bash completion for mcpwire (printed by: mcpwire completion bash); bash 4 or later.
# Install: mcpwire completion bash > ~/.local/share/bash-completion/completions/mcpwire
#      or, in ~/.bashrc: source <(mcpwire completion bash)
_mcpwire() {
  local cur=\${COMP_WORDS[COMP_CWORD]} cmd=\${COMP_WORDS[0]} word i n
  local -a words=() lines=()
  [[ $cmd == "~/"* ]] && cmd=$HOME/\${cmd:2}
  # bash splits --name=value at "=" (COMP_WORDBREAKS): put such words back together.
  for ((i = 1; i <= COMP_CWORD; i++)); do
    word=\${COMP_WORDS[i]}
    n=\${#words[@]}
    if ((n > 0 && i > 1)) && [[ $word == "=" || \${COMP_WORDS[i - 1]} == "=" ]]; then
      words[n - 1]+=$word
    else
      words+=("$word")
    fi
  done
  local full=\${words[\${#words[@]} - 1]}
  # What precedes bash's current word in the word completed (--name for "=value"), taken off each answer.
  local prefix=\${full%"$cur"}
  mapfile -t lines < <("$cmd" completion --words -- "\${words[@]}" 2>/dev/null)
  COMPREPLY=()
  case \${lines[0]-} in
    files | directories)
      compopt -o filenames 2>/dev/null
      local kind=-f
      [[ \${lines[0]} == directories ]] && kind=-d
      mapfile -t COMPREPLY < <(compgen "$kind" -- "\${cur#=}")
      [[ $cur == "="* ]] && COMPREPLY=("\${COMPREPLY[@]/#/=}")
      ;;
    words)
      for ((i = 1; i < \${#lines[@]}; i++)); do COMPREPLY+=("\${lines[i]#"$prefix"}"); done
      ;;
  esac
  return 0
}
complete -F _mcpwire mcpwire
`;

// zsh: `#compdef` makes it an autoloaded function when saved as _mcpwire in $fpath; sourced, it
// registers itself with compdef (compinit must have run).
const ZSH = `#compdef mcpwire
# zsh completion for mcpwire (printed by: mcpwire completion zsh).
# Install: in ~/.zshrc, after compinit: source <(mcpwire completion zsh)
#      or: mcpwire completion zsh > DIR/_mcpwire for a DIR in $fpath, then start a new zsh
_mcpwire() {
  local -a lines candidates
  lines=("\${(@f)$(\${words[1]} completion --words -- "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  candidates=("\${(@)lines[2,-1]}")
  case \${lines[1]} in
    files)
      [[ $PREFIX == --*=* ]] && compset -P '*='
      _files
      ;;
    directories)
      [[ $PREFIX == --*=* ]] && compset -P '*='
      _files -/
      ;;
    words)
      (( \${#candidates} )) && compadd -- "\${candidates[@]}"
      ;;
  esac
}
if [[ \${funcstack[1]-} == _mcpwire ]]; then
  _mcpwire "$@"
else
  compdef _mcpwire mcpwire
fi
`;

// fish 3+: `commandline -opc` is the words before the cursor, `-ct` the one at it.
const FISH = `# fish completion for mcpwire (printed by: mcpwire completion fish).
# Install: mcpwire completion fish > ~/.config/fish/completions/mcpwire.fish
function __mcpwire_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l command $tokens[1]
    set -e tokens[1]
    set -l lines (command $command completion --words -- $tokens "$current" 2>/dev/null)
    set -l directive $lines[1]
    set -e lines[1]
    set -l prefix ''
    set -l value $current
    if string match -qr -- '^--[^=]+=' $current
        set prefix (string replace -r -- '=.*' '=' $current)
        set value (string replace -r -- '^[^=]*=' '' $current)
    end
    switch "$directive"
        case files
            for path in (__fish_complete_path $value)
                echo $prefix$path
            end
        case directories
            for path in (__fish_complete_directories $value)
                echo $prefix$path
            end
        case words
            for line in $lines
                echo $line
            end
    end
end
complete -c mcpwire -f -a '(__mcpwire_complete)'
`;

/** The completion script for `shell`. */
export function completionScript(shell: Shell): string {
  return shell === "bash" ? BASH : shell === "zsh" ? ZSH : FISH;
}
