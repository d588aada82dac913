import { z } from 'zod';
import { parseWith } from '../argv.js';
import { commaList } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { renderInit } from '../render/report-view.js';

const schema = z.object({
  prefix: z.string().optional(),
  types: commaList,
  'merge-drivers': z.boolean().optional(),
});

/** `pm init`: creates .agents/pm here (or under --root); re-running it changes nothing. */
export const initCommand: CliCommand = {
  name: 'init',
  summary: 'Create a tracker (.agents/pm) in this directory',
  description: 'Writes .agents/pm/config.yaml, items/, history/ and a .gitignore for the runtime area. Running it again on an existing tracker changes nothing.',
  args: [],
  options: {
    prefix: { type: 'string', value: 'P', description: 'Id prefix, 1-12 lowercase letters or digits (default: pm)' },
    types: { type: 'string', multiple: true, value: 'A,B', description: 'Item types (default: Epic,Feature,Task,Chore,Issue,Decision)' },
    'merge-drivers': { type: 'boolean', description: "Also run 'pm merge install' (git merges item and history files losslessly)" },
  },
  examples: ['pm init', 'pm init --merge-drivers', 'pm init --prefix web --types Feature,Bug,Chore'],
  async run(args, { services }) {
    const input = parseWith(schema, { ...args.values }, 'init');
    const result = await services.initialize({ ...(input.prefix !== undefined ? { idPrefix: input.prefix } : {}), ...(input.types ? { types: input.types } : {}) });
    if (input['merge-drivers']) {
      const merge = await (await services.mergeInstaller()).install();
      return { value: { ...result, merge }, human: `${renderInit(result)}Merge drivers installed (commit .gitattributes).\n` };
    }
    const hint = result.created ? "Working on branches? 'pm merge install' makes git merge item and history files without losing a change.\n" : '';
    return { value: result, human: `${renderInit(result)}${hint}` };
  },
};
