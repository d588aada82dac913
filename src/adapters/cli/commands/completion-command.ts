import { z } from 'zod';
import { parseWith } from '../argv.js';
import type { CliCommand } from '../command.js';
import { completeWords, type Completion } from '../completion/complete-words.js';
import { SHELLS, completionScript } from '../completion/shell-scripts.js';
import { trackerCompletionData } from '../completion/tracker-completion-data.js';

const schema = z.object({ shell: z.enum(SHELLS) });

/**
 * `pm completion bash|zsh|fish`: a completion script for the shell. The script asks
 * `pm __complete` for every completion, so commands added to the registry complete with no
 * change to it (docs/CLI.md "pm completion").
 */
export const completionCommand: CliCommand = {
  name: 'completion',
  summary: 'Print a shell completion script (bash, zsh or fish)',
  description: 'Completes commands, subcommands, flags (long and short) and their values: statuses and types from config.yaml, tags in use, item ids (open items first, with their titles). Load it with: source <(pm completion bash); zsh: source <(pm completion zsh) after compinit; fish: pm completion fish | source.',
  args: [{ name: 'shell', complete: SHELLS }],
  options: {},
  examples: ['source <(pm completion bash)', 'pm completion fish > ~/.config/fish/completions/pm.fish'],
  async run(args) {
    const { shell } = parseWith(schema, { shell: args.positionals[0] }, 'completion', ['shell']);
    const script = completionScript(shell);
    return { value: { shell, script }, human: script };
  },
};

/**
 * `pm __complete <words...>`: what completes the last word of a half-typed `pm` command line,
 * one `word<TAB>description` a line (`:files` for a path). The scripts call it; it never fails
 * a TAB: without a tracker, only commands and flags complete.
 */
export function completeCommand(commands: () => readonly CliCommand[]): CliCommand {
  return {
    name: '__complete',
    summary: 'Completions for a half-typed command line (used by the completion scripts)',
    args: [{ name: 'words', optional: true, variadic: true }],
    options: {},
    hidden: true,
    rawArgs: true,
    async run(args, { services }) {
      const words = args.positionals.length > 0 ? args.positionals : [''];
      const data = await services.tracker().then(trackerCompletionData, () => undefined);
      const completion = await completeWords(words, commands(), data);
      return { value: completion, human: render(completion) };
    },
  };
}

function render(completion: Completion): string {
  if (completion.files) return ':files\n';
  const clean = (text: string) => text.replace(/[\t\r\n]+/g, ' ');
  return completion.candidates.map((c) => `${clean(c.value)}${c.description ? `\t${clean(c.description)}` : ''}\n`).join('');
}
