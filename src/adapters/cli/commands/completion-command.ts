import { z } from 'zod';
import { parseWith } from '../argv.js';
import { GLOBAL_OPTIONS } from '../argv.js';
import type { CliCommand } from '../command.js';

const SHELLS = ['bash', 'zsh', 'fish'] as const;
const schema = z.object({ shell: z.enum(SHELLS) });

/** Item ids for completion: the ids of `pm list --all --json`, read without a JSON tool. */
const IDS = `pm list --all --limit 500 --json 2>/dev/null | sed -n 's/^      "id": "\\([^"]*\\)",$/\\1/p'`;

/**
 * `pm completion bash|zsh|fish`: a completion script for the shell, generated from the command
 * registry (commands, each command's flags) and completing item ids from the tracker, so it
 * never goes stale as commands change.
 */
export function completionCommand(commands: () => readonly CliCommand[]): CliCommand {
  return {
    name: 'completion',
    summary: 'Print a shell completion script (bash, zsh or fish)',
    description: 'Completes commands, their flags and item ids. Load it with: source <(pm completion bash); zsh: source <(pm completion zsh); fish: pm completion fish | source.',
    args: [{ name: 'shell' }],
    options: {},
    examples: ['source <(pm completion bash)', 'pm completion fish > ~/.config/fish/completions/pm.fish'],
    async run(args) {
      const { shell } = parseWith(schema, { shell: args.positionals[0] }, 'completion', ['shell']);
      const table = commands().map((c) => ({ name: c.name.split(' ')[0]!, flags: [...Object.keys(c.options), ...Object.keys(GLOBAL_OPTIONS)].map((o) => `--${o}`) }));
      const unique = [...new Map(table.map((c) => [c.name, c])).values()];
      const script = shell === 'fish' ? fish(unique) : shell === 'zsh' ? `autoload -U +X bashcompinit && bashcompinit\n${bash(unique)}` : bash(unique);
      return { value: { shell, script }, human: script };
    },
  };
}

interface Entry {
  readonly name: string;
  readonly flags: readonly string[];
}

function bash(entries: readonly Entry[]): string {
  const cases = entries.map((e) => `    ${e.name}) flags="${[...new Set(e.flags)].join(' ')}" ;;`).join('\n');
  return `# pm completion for bash (source <(pm completion bash))
_pm() {
  local cur="\${COMP_WORDS[COMP_CWORD]}" cmd="\${COMP_WORDS[1]}" flags=""
  if [ "$COMP_CWORD" -eq 1 ]; then
    COMPREPLY=($(compgen -W "${entries.map((e) => e.name).join(' ')}" -- "$cur")); return
  fi
  case "$cmd" in
${cases}
  esac
  if [[ "$cur" == -* ]]; then COMPREPLY=($(compgen -W "$flags" -- "$cur")); return; fi
  COMPREPLY=($(compgen -W "$(${IDS})" -- "$cur"))
}
complete -o default -F _pm pm
`;
}

function fish(entries: readonly Entry[]): string {
  const lines = ['# pm completion for fish (pm completion fish | source)', 'complete -c pm -f'];
  for (const e of entries) lines.push(`complete -c pm -n __fish_use_subcommand -a ${e.name}`);
  for (const e of entries) {
    for (const flag of new Set(e.flags)) lines.push(`complete -c pm -n '__fish_seen_subcommand_from ${e.name}' -l ${flag.slice(2)}`);
  }
  lines.push(`complete -c pm -n 'not __fish_use_subcommand' -a '(${IDS.replace(/'/g, "\\'")})'`);
  return `${lines.join('\n')}\n`;
}
