/**
 * The option that lets a refused call through, carried as `data.remedy` on the refusal so each
 * edge names it in its own words (docs/CLI.md "How it behaves"; docs/MCP.md "Errors"): the
 * message holds the neutral words below (the SDK's and MCP's argument names), and the CLI swaps
 * them for its flags (`--force`, `--yes`, strict mode by `--strict` or config.yaml).
 */
export type RemedyOption = 'force' | 'strict' | 'consent';

/** `data.remedy` of a refusal: which option, and the exact words of it in the message. */
export interface Remedy {
  readonly option: RemedyOption;
  readonly words: string;
}

/** The neutral words of each remedy, as the domain writes them into a message. */
export const REMEDY_WORDS: Readonly<Record<RemedyOption, string>> = Object.freeze({
  force: 'pass force: true',
  strict: 'strict mode (the strict option, or strict: true in config.yaml) refuses it; without it, it is a warning',
  consent: 'This needs explicit consent.',
});

/** The `remedy` data of a refusal that `option` lets through. */
export function remedyData(option: RemedyOption): { remedy: Remedy } {
  return { remedy: { option, words: REMEDY_WORDS[option] } };
}
