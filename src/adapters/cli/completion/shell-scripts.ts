/**
 * The completion scripts `pm completion bash|zsh|fish` prints. Each is a thin shell function
 * that hands the half-typed command line to `pm __complete` and shows what it prints (one
 * `word<TAB>description` a line; `:files` asks the shell to complete a path): what completes
 * lives in one place (complete-words.ts), derived from the command registry and the tracker,
 * so the scripts never go stale (docs/CLI.md "pm completion").
 */

export const SHELLS = ['bash', 'zsh', 'fish'] as const;
export type Shell = (typeof SHELLS)[number];

const BASH = `# pm completion for bash: source <(pm completion bash)
_pm() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" IFS=$'\\n' line
  local -a lines
  lines=($(pm __complete "\${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null))
  COMPREPLY=()
  for line in "\${lines[@]}"; do
    if [[ $line == :files ]]; then
      compopt -o filenames 2>/dev/null
      COMPREPLY=($(compgen -f -- "$cur"))
      return
    fi
    COMPREPLY+=("\${line%%$'\\t'*}")
  done
}
complete -F _pm pm
`;

const ZSH = `#compdef pm
# pm completion for zsh: source <(pm completion zsh) after compinit, or save as _pm on $fpath
_pm() {
  local -a lines described
  local line
  lines=("\${(@f)$(pm __complete "\${(@)words[2,CURRENT]}" 2>/dev/null)}")
  for line in "\${lines[@]}"; do
    [[ -z $line ]] && continue
    if [[ $line == :files ]]; then _files; return; fi
    if [[ $line == *$'\\t'* ]]; then
      described+=("\${\${line%%$'\\t'*}//:/\\\\:}:\${line#*$'\\t'}")
    else
      described+=("\${line//:/\\\\:}")
    fi
  done
  (( \${#described} )) && _describe -t values 'pm' described
}
if (( $+functions[compdef] )); then compdef _pm pm; fi
`;

const FISH = `# pm completion for fish: pm completion fish | source (or save as ~/.config/fish/completions/pm.fish)
function __pm_complete
    set -l tokens (commandline -opc)
    set -l current (commandline -ct)
    set -l lines (pm __complete $tokens[2..-1] "$current" 2>/dev/null)
    if test "$lines" = ":files"
        __fish_complete_path "$current"
        return
    end
    printf '%s\\n' $lines
end
complete -c pm -f -k -a '(__pm_complete)'
`;

/** The script for `shell`. */
export function completionScript(shell: Shell): string {
  return shell === 'bash' ? BASH : shell === 'zsh' ? ZSH : FISH;
}
