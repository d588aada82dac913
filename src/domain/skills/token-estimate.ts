/**
 * How pm estimates a skill's token cost: one token per four UTF-8 bytes, rounded up, per text
 * file. It is the usual rule of thumb for English prose and code under byte-pair tokenizers;
 * real counts vary by model (a few tens of percent either way), so hosts should treat it as
 * an order of magnitude for budgeting context, not a measurement. Binary files are not
 * counted: a host does not put them in the model's context as text.
 */
export const PM_SKILL_TOKEN_ESTIMATE_METHOD = 'ceil(utf8Bytes / 4) per text file';

const BYTES_PER_TOKEN = 4;

/** The estimated tokens of one text body of `byteLength` bytes. */
export function estimatePmSkillTokens(byteLength: number): number {
  return Math.ceil(byteLength / BYTES_PER_TOKEN);
}

/** A skill's estimated cost: SKILL.md alone (what activating it loads) and all its text files. */
export interface PmSkillTokenEstimate {
  readonly skillMd: number;
  readonly allText: number;
  readonly method: typeof PM_SKILL_TOKEN_ESTIMATE_METHOD;
}
