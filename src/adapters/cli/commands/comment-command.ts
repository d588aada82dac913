import { z } from 'zod';
import { parseWith } from '../argv.js';
import { GUARD_OPTIONS, guardShape, guardsFrom, idArgument } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { renderMutation } from '../render/item-view.js';

const schema = z.object({ id: idArgument, text: z.array(z.string()), ...guardShape });

/** `pm comment <id> <text...>`: adds a comment; the words are joined, '-' reads stdin. */
export const commentCommand: CliCommand = {
  name: 'comment',
  summary: 'Add a comment to an item',
  description: "The words after the id are joined with spaces. A single '-' reads the comment from stdin. Put -- before text that starts with '-'.",
  args: [{ name: 'id' }, { name: 'text', variadic: true }],
  options: { ...GUARD_OPTIONS },
  examples: ['pm comment pm-a1b2c3 Repro only on Safari 17', 'pm comment pm-a1b2c3 - < notes.md'],
  async run(args, { io, services }) {
    const input = parseWith(schema, { ...args.values, id: args.positionals[0], text: args.positionals.slice(1) }, 'comment', ['id', 'text']);
    const text = input.text.length === 1 && input.text[0] === '-' ? await io.readStdin() : input.text.join(' ');
    const result = await (await services.tracker()).comment(input.id, text, guardsFrom(input));
    return { value: result, human: renderMutation('Commented on', result) };
  },
};
