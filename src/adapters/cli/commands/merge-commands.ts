import { z } from 'zod';
import type { IdCollisionRepair } from '../../../domain/merge/id-collisions.js';
import type { MergeInstallReport } from '../../../domain/merge/merge-install.js';
import { parseWith } from '../argv.js';
import type { CliCommand } from '../command.js';
import { UsageError } from '../usage-error.js';

const driverSchema = z.object({
  kind: z.enum(['item', 'history'], { message: "the driver kind is 'item' or 'history'" }),
  base: z.string().min(1),
  ours: z.string().min(1),
  theirs: z.string().min(1),
  path: z.string().min(1),
  markerSize: z.coerce.number().int().min(1).max(64).optional(),
});

/**
 * `pm merge driver item|history %O %A %B %P [%L]`: the entry point git runs for a file marked
 * `merge=pm-item` or `merge=pm-history` (docs/TRACKER.md "Merges"). Writes the merge into %A;
 * exit 0 when merged, 1 when a person must decide (conflict markers in an item's body).
 */
export const mergeDriverCommand: CliCommand = {
  name: 'merge driver',
  summary: 'The git merge driver for item and history files (git runs it; see pm merge install)',
  description: "Git runs this with the three versions of a file: the common ancestor (%O), ours (%A, where the result is written), theirs (%B), the file's path in the work tree (%P) and the conflict marker size (%L). 'history' keeps every line of both sides and joins the two chains with a verifiable merge line; 'item' merges field by field. Exits 1 only when an item's body needs a person (conflict markers in the body alone).",
  args: [{ name: 'kind' }, { name: 'base' }, { name: 'ours' }, { name: 'theirs' }, { name: 'path' }, { name: 'marker-size', optional: true }],
  options: {},
  examples: ['pm merge driver history %O %A %B %P', 'pm merge driver item %O %A %B %P %L'],
  async run(args, { services, io }) {
    const [kind, base, ours, theirs, path, markerSize] = args.positionals;
    const input = parseWith(driverSchema, { kind, base, ours, theirs, path, markerSize }, 'merge driver', ['kind', 'base', 'ours', 'theirs', 'path', 'markerSize']);
    const drivers = await services.mergeDrivers();
    const files = { base: input.base, ours: input.ours, theirs: input.theirs, path: input.path, ...(input.markerSize ? { markerSize: input.markerSize } : {}) };
    const outcome = input.kind === 'item' ? await drivers.item(files) : await drivers.history(files);
    await io.writeError(`pm merge: ${outcome.summary}\n`);
    return { value: outcome, human: '', exitCode: outcome.exitCode };
  },
};

/** `pm merge install`: registers the drivers in .git/config and marks the files in .gitattributes. */
export const mergeInstallCommand: CliCommand = {
  name: 'merge install',
  summary: "Register pm's merge drivers for this clone (.git/config) and mark its files (.gitattributes)",
  description: "Adds the drivers pm-item and pm-history to this clone's .git/config (each clone installs its own: the command names this pm) and a fenced block to the project's .gitattributes (commit it) so git merges item files field by field and history files without losing a line. Running it again changes nothing; pm merge uninstall removes exactly what it added.",
  args: [],
  options: {},
  examples: ['pm merge install', 'git add .gitattributes && git commit -m "pm merge drivers"'],
  async run(_args, { services }) {
    const report = await (await services.mergeInstaller()).install();
    return { value: report, human: renderInstall(report) };
  },
};

/** `pm merge uninstall`: removes exactly what install added. */
export const mergeUninstallCommand: CliCommand = {
  name: 'merge uninstall',
  summary: 'Remove the merge drivers and the .gitattributes block pm merge install added',
  description: 'Removes the pm-item and pm-history entries from .git/config (entries someone changed are kept and named) and the fenced block from .gitattributes (the file too when nothing else is in it).',
  args: [],
  options: {},
  examples: ['pm merge uninstall'],
  async run(_args, { services }) {
    const report = await (await services.mergeInstaller()).uninstall();
    return { value: report, human: renderInstall(report) };
  },
};

/** `pm merge fix-ids`: gives items two branches created under one id distinct ids. */
export const mergeFixIdsCommand: CliCommand = {
  name: 'merge fix-ids',
  summary: 'Give items that two branches created under the same id distinct ids (after a merge)',
  description: "A merged history with two first lines (pm validate: id_collision) holds two items. The one created first keeps the id; the other is rebuilt from its own history lines and written under a fresh id, whose first history line (rename) names where it came from; the old history gets a rename line naming the moved chain. No history line is dropped. References to the old id (parent, blockedBy, related) are then pointed at the moved item where the merge tells: a reference that only the moved item's branch's version of the referring item has came with it, and is rewritten through a normal update (history line, receipt). References on both branches or neither, and all of them when HEAD is not a merge, keep the old id and are listed for review. JSON: [{ itemId, newId, movedReceipts, exact, referencesRewritten: [{ itemId, field, receiptIds }], referencesToReview }].",
  args: [],
  options: {},
  examples: ['pm merge fix-ids', 'pm merge fix-ids --json'],
  async run(_args, { services }) {
    const repairs = await services.repairIdCollisions();
    const lines = repairs.length === 0 ? ['No id collisions.'] : repairs.map(describeRepair);
    return { value: repairs, human: `${lines.join('\n')}\n` };
  },
};

function describeRepair(r: IdCollisionRepair): string {
  const rewritten = r.referencesRewritten.map((w) => `${w.itemId} ${w.field}`);
  return [
    `${r.itemId}: the later-created item is now ${r.newId} (${r.movedReceipts.length} history lines${r.exact ? '' : ', rebuilt from patches: check it'})`,
    ...(rewritten.length ? [`; now pointing at ${r.newId}: ${rewritten.join(', ')}`] : []),
    ...(r.referencesToReview.length ? [`; review references from ${r.referencesToReview.join(', ')} (the merge does not tell which item they meant)`] : []),
  ].join('');
}

/** `pm merge`: the group, which only points at its subcommands. */
export const mergeCommand: CliCommand = {
  name: 'merge',
  summary: 'Git merges of tracker files (subcommands: merge install, merge uninstall, merge fix-ids, merge driver)',
  args: [],
  options: {},
  examples: ['pm merge install', 'pm merge fix-ids'],
  async run() {
    throw new UsageError("missing subcommand: 'pm merge install', 'pm merge uninstall', 'pm merge fix-ids' or 'pm merge driver'", 'merge');
  },
};

function renderInstall(report: MergeInstallReport): string {
  const verb = report.installed ? 'installed' : 'uninstalled';
  const lines = [report.changed ? `Merge drivers ${verb}.` : `Merge drivers already ${verb}; nothing changed.`];
  for (const entry of report.gitConfig) lines.push(`  .git/config ${entry.key}${entry.value === null ? ' (removed)' : ` = ${entry.value}`}`);
  lines.push(`  ${report.attributesFile}${report.installed ? ': pm block present (commit it)' : ': pm block removed'}`);
  for (const key of report.kept) lines.push(`  kept ${key}: changed since install, not pm's to remove`);
  return `${lines.join('\n')}\n`;
}
