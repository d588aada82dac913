import type { PmError } from '../../domain/errors/pm-error.js';
import type { Remedy, RemedyOption } from '../../domain/errors/remedy.js';

/** The CLI's words for each remedy (docs/CLI.md "How it behaves"). */
const CLI_WORDS: Readonly<Record<RemedyOption, string>> = {
  force: 'pass --force',
  strict: 'strict mode (--strict, or strict: true in config.yaml) refuses it; without it, it is a warning',
  consent: 'This needs explicit consent: pass --yes (-y).',
};

/**
 * An error's message in CLI words: a refusal carrying `data.remedy` names the CLI flag that
 * lets it through instead of the SDK/MCP argument (domain/errors/remedy.ts).
 */
export function cliMessage(error: PmError): string {
  const remedy = error.data.remedy as Remedy | undefined;
  if (!remedy || !(remedy.option in CLI_WORDS) || !error.message.includes(remedy.words)) return error.message;
  return error.message.replace(remedy.words, CLI_WORDS[remedy.option]);
}
