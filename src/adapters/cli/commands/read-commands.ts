import { z } from 'zod';
import { parseWith } from '../argv.js';
import { idArgument } from '../argv-values.js';
import type { CliCommand } from '../command.js';
import { renderItem } from '../render/item-view.js';
import { renderContext, renderHistory, renderValidation } from '../render/report-view.js';
import { EXIT } from '../../../domain/errors/pm-error.js';
import { describeChanges } from '../../../domain/tracker/history-changes.js';

const idSchema = z.object({ id: idArgument });

/** `pm get <id>` (alias show): one item in full. */
export const getCommand: CliCommand = {
  name: 'get',
  aliases: ['show'],
  summary: 'Show one item in full',
  args: [{ name: 'id' }],
  options: {},
  examples: ['pm get pm-a1b2c3', 'pm show pm-a1b2c3 --json'],
  async run(args, { services }) {
    const { id } = parseWith(idSchema, { id: args.positionals[0] }, 'get', ['id']);
    const tracker = await services.tracker();
    const item = await tracker.get(id);
    const lease = tracker.leaseOf(item);
    // A parent that is missing or unreadable is still named by its id (pm validate reports it).
    const parentTitle = item.parent ? await tracker.get(item.parent).then((p) => p.title, () => undefined) : undefined;
    // --json marks a lapsed claim as pm_get and the human view do (docs/CLI.md "pm get"): `claimExpired: true`, absent while live.
    return { value: lease.state === 'expired' ? { ...item, claimExpired: true } : item, human: renderItem(item, lease, parentTitle) };
  },
};

/** `pm history <id>`: the append-only record of every change to an item. */
export const historyCommand: CliCommand = {
  name: 'history',
  summary: 'Show the recorded changes of an item',
  description: 'Every mutation is one line in .agents/pm/history/<id>.jsonl (receipt, actor, time, revisions, JSON patch), hash-chained so tampering is detectable: lines whose chain does not verify are marked with ! (verified: false under --json). Under each change, its fields with the old and the new value (replayed from the lines before; values over 80 characters are cut and say how much was left out; --json: changes: [{ field, before?, after?, added? }]). History outlives a deleted item.',
  args: [{ name: 'id' }],
  options: {},
  examples: ['pm history pm-a1b2c3', 'pm history pm-a1b2c3 --json'],
  async run(args, { services }) {
    const { id } = parseWith(idSchema, { id: args.positionals[0] }, 'history', ['id']);
    const { entries, faults } = await (await services.tracker()).verifiedHistory(id);
    const bad = new Set(faults.map((f) => f.line));
    const changes = describeChanges(entries);
    return { value: entries.map((e, n) => ({ ...e, changes: changes[n]!, ...(bad.has(e.seq) ? { verified: false } : {}) })), human: renderHistory(id, entries, faults, changes) };
  },
};

/** `pm context` (alias status): the project at a glance, for a person or an agent starting work. */
export const contextCommand: CliCommand = {
  name: 'context',
  aliases: ['status'],
  summary: 'Project overview: counts, next item, active claims, recent changes',
  args: [],
  options: {},
  examples: ['pm context', 'pm status --json'],
  async run(_args, { services }) {
    const context = await (await services.tracker()).context();
    return { value: context, human: renderContext(context) };
  },
};

const validateSchema = z.object({ fix: z.boolean().optional() });

/** `pm validate`: checks every file; exit 5 when it found errors, 0 with only warnings. */
export const validateCommand: CliCommand = {
  name: 'validate',
  summary: 'Check every item and history file (exit 5 when errors are found)',
  description: 'Checks that every item parses and fits config.yaml, references resolve, there are no dependency or parent cycles, and every history hash chain is intact. Exits 5 when it finds errors, 0 when it finds only warnings. --fix first settles what interrupted writes left (a history line torn by a full disk or a killed writer is completed when whole, cut off otherwise; history lines whose item file was never written are rolled forward), as the next write of each item would; JSON then adds repaired: [ids].',
  args: [],
  options: { fix: { type: 'boolean', description: 'settle interrupted writes first (interrupted_append, interrupted_write)' } },
  examples: ['pm validate', 'pm validate --json', 'pm validate --fix'],
  async run(args, { services }) {
    const { fix } = parseWith(validateSchema, { ...args.values }, 'validate');
    const tracker = await services.tracker();
    const repaired = fix ? await tracker.repairInterrupted() : undefined;
    const report = await tracker.validate();
    const human = `${repaired?.length ? `settled interrupted writes of ${repaired.join(', ')}\n` : ''}${renderValidation(report)}`;
    return { value: repaired ? { ...report, repaired } : report, human, exitCode: report.ok ? EXIT.ok : EXIT.invalid };
  },
};
