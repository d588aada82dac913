import { z } from 'zod';
import { EXIT } from '../../../domain/errors/pm-error.js';
import type { IdCollisionRepair } from '../../../domain/merge/id-collisions.js';
import { mergeCheck, type MergeCheckReport } from '../../../domain/merge/merge-check.js';
import type { MergeHookReport } from '../../../domain/merge/merge-hook.js';
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
  summary: "Register pm's merge drivers and post-merge check for this clone (.git/config, hook) and mark its files (.gitattributes)",
  description: "Adds the drivers pm-item and pm-history to this clone's .git/config (each clone installs its own: the command names this pm) and a fenced block to the project's .gitattributes (commit it) so git merges item files field by field and history files without losing a line. Also writes git's post-merge hook (where git rev-parse --git-path hooks says, so core.hooksPath is honoured), which runs 'pm merge check --quiet' after every merge git completes; a post-merge hook pm did not write is kept as it is, and the line to add to it is printed. Running it again changes nothing; pm merge uninstall removes exactly what it added (the hook only while it is still pm's).",
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
  summary: 'Remove the merge drivers, the .gitattributes block and the post-merge hook pm merge install added',
  description: "Removes the pm-item and pm-history entries from .git/config (entries someone changed are kept and named), the fenced block from .gitattributes (the file too when nothing else is in it) and the post-merge hook when it is still the one pm wrote (anyone else's is kept).",
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

const checkSchema = z.object({ quiet: z.boolean().optional() });

/**
 * `pm merge check`: what a merge left to repair (docs/TRACKER.md "Merges"), with the commands
 * that repair it; exit 5 (as pm validate) when the tracker has errors. Git's post-merge hook
 * that `pm merge install` writes runs it with --quiet.
 */
export const mergeCheckCommand: CliCommand = {
  name: 'merge check',
  summary: 'After a merge: report dependency/parent cycles, id collisions and other merge damage, with the commands that repair them',
  description: "Runs pm validate's checks and reports what a merge can leave although each branch was valid: dependency or parent cycles (the link to remove, the newest by the items' histories, and the command that removes it), ids created on two branches (pm merge fix-ids), links to an item the other branch deleted, files or bodies with conflict markers. Other errors are counted (pm validate names them). Exits 5 when the tracker has errors, 0 otherwise. The post-merge hook pm merge install writes runs it after every merge git completes; after a merge that stopped on conflicts, run it yourself once they are resolved. JSON: { ok, problems: [finding], commands, otherErrors }.",
  args: [],
  options: { quiet: { type: 'boolean', description: 'print nothing when there is nothing to repair (for hooks)' } },
  examples: ['pm merge check', 'pm merge check --json'],
  async run(args, { services }) {
    const { quiet } = parseWith(checkSchema, { ...args.values }, 'merge check');
    const report = mergeCheck(await (await services.tracker()).validate());
    return { value: report, human: quiet && report.ok ? '' : renderCheck(report), exitCode: report.ok ? EXIT.ok : EXIT.invalid };
  },
};

function renderCheck(report: MergeCheckReport): string {
  if (report.ok) return 'pm merge check: nothing to repair (no cycles, id collisions, dangling links or conflicts).\n';
  const lines = report.problems.length === 0
    ? ['pm merge check: nothing a merge left to repair.']
    : [`pm merge check: the merge left ${report.problems.length === 1 ? '1 problem' : `${report.problems.length} problems`}:`, ...report.problems.map((f) => `  ${f.code}: ${f.message}`)];
  if (report.commands.length > 0) lines.push('Repair with:', ...report.commands.map((command) => `  ${command}`));
  if (report.otherErrors > 0) lines.push(`${report.otherErrors === 1 ? '1 other error' : `${report.otherErrors} other errors`}: run 'pm validate' for ${report.otherErrors === 1 ? 'it' : 'them'}.`);
  else lines.push("Then run 'pm merge check' again.");
  return `${lines.join('\n')}\n`;
}

/** `pm merge`: the group, which only points at its subcommands. */
export const mergeCommand: CliCommand = {
  name: 'merge',
  summary: 'Git merges of tracker files (subcommands: merge install, merge uninstall, merge check, merge fix-ids, merge driver)',
  args: [],
  options: {},
  examples: ['pm merge install', 'pm merge check', 'pm merge fix-ids'],
  async run() {
    throw new UsageError("missing subcommand: 'pm merge install', 'pm merge uninstall', 'pm merge check', 'pm merge fix-ids' or 'pm merge driver'", 'merge');
  },
};

function renderInstall(report: MergeInstallReport): string {
  const verb = report.installed ? 'installed' : 'uninstalled';
  const lines = [report.changed ? `Merge drivers ${verb}.` : `Merge drivers already ${verb}; nothing changed.`];
  for (const entry of report.gitConfig) lines.push(`  .git/config ${entry.key}${entry.value === null ? ' (removed)' : ` = ${entry.value}`}`);
  lines.push(`  ${report.attributesFile}${report.installed ? ': pm block present (commit it)' : ': pm block removed'}`);
  for (const key of report.kept) lines.push(`  kept ${key}: changed since install, not pm's to remove`);
  lines.push(...renderHook(report.hook));
  return `${lines.join('\n')}\n`;
}

function renderHook(hook: MergeHookReport): string[] {
  switch (hook.status) {
    case 'written': return [`  ${hook.file}: runs 'pm merge check' after every merge`];
    case 'unchanged': return [`  ${hook.file}: runs 'pm merge check' after every merge (unchanged)`];
    case 'removed': return [`  ${hook.file}: removed`];
    case 'absent': return [];
    case 'kept':
      if (hook.runsCheck) return [`  kept ${hook.file}: not written by pm; it already runs pm merge check`];
      return [`  kept ${hook.file}: not written by pm, left as it is; to check merges, add this line to it:`, `    ${hook.line}`];
  }
}
