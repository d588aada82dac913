import type { Clock } from '../../ports/clock.js';
import type { FileSystem } from '../../ports/file-system.js';
import type { Hasher } from '../../ports/hasher.js';
import { CorruptDataError } from '../errors/index.js';
import { confinedFileSystem } from '../tracker/confined-file-system.js';
import { digestOf } from '../tracker/digests.js';
import { ITEM_ID_PATTERN } from '../tracker/item.js';
import { joinPath, parentPath } from '../util/paths.js';
import { mergeHistories } from './history-merge.js';
import { mergeItemFiles, type ItemMergeReceipt } from './item-merge.js';

/**
 * What a merge that stops on conflicts must be told (docs/TRACKER.md "Merges"): git runs no
 * post-merge hook for it, so the check that hook runs is left to the person finishing it.
 */
const AFTER_CONFLICTS = "; once resolved and committed, run 'pm merge check' (a merge that stops runs no post-merge hook)";

/** The files git hands a merge driver (`%O %A %B %P`); relative paths are taken from the driver's cwd. */
export interface DriverFiles {
  /** The common ancestor's version (empty when both sides added the file). */
  readonly base: string;
  /** Our version; the driver writes the merged result here. */
  readonly ours: string;
  readonly theirs: string;
  /** Where the file lives in the work tree (`%P`), absolute. */
  readonly path: string;
  /** Conflict marker width (`%L`). */
  readonly markerSize?: number;
}

/** What one driver run did: the exit code git gets (0 merged, 1 a person must decide) and a summary. */
export interface DriverOutcome {
  readonly exitCode: 0 | 1;
  readonly summary: string;
  readonly receipt?: ItemMergeReceipt;
}

/**
 * The two git merge drivers (docs/TRACKER.md "Merges"): pure merges of file contents, run by
 * git with the three versions of a file. The history driver never fails (every line of both
 * sides is kept); the item driver fails only when a body needs a person. Receipts of item
 * merges are appended to `.runtime/merge-receipts.jsonl` of the tracker the file belongs to.
 */
export class MergeDrivers {
  /** @param cwd the directory relative paths are taken from (git runs drivers at the work tree's top) */
  constructor(
    private readonly fs: FileSystem,
    private readonly hasher: Hasher,
    private readonly clock: Clock,
    private readonly cwd: string,
  ) {}

  async history(given: DriverFiles): Promise<DriverOutcome> {
    const files = this.absolute(given);
    const itemId = idFromPath(files.path, '.jsonl');
    const ours = await this.read(files.ours);
    const theirs = await this.read(files.theirs);
    const result = mergeHistories(ours, theirs, itemId, (line) => digestOf(this.hasher, line));
    await this.fs.writeAtomic(files.ours, result.text);
    const how = result.mergeLine ? `joined both branches with a merge line (seq ${result.mergeLine.seq})` : 'one side contained the other';
    return { exitCode: 0, summary: `${itemId} history: kept ${result.added.ours} + ${result.added.theirs} new lines, ${how}` };
  }

  async item(given: DriverFiles): Promise<DriverOutcome> {
    const files = this.absolute(given);
    const itemId = idFromPath(files.path, '.md');
    const result = mergeItemFiles(await this.read(files.base), await this.read(files.ours), await this.read(files.theirs), files.path, { ours: 'ours', theirs: 'theirs', ...(files.markerSize ? { markerSize: files.markerSize } : {}) });
    await this.fs.writeAtomic(files.ours, result.text);
    if (result.fallback) return { exitCode: 1, summary: `${itemId}: a side does not parse (${result.fallback}); merged as plain text with conflict markers${AFTER_CONFLICTS}` };
    const receipt = result.receipt!;
    await this.record(files.path, receipt);
    const parts = receipt.decisions.map((d) => `${d.field}: both changed, took ${d.took}`);
    if (receipt.collision) parts.push(`id collision: both branches created ${itemId}; kept the one created first, run 'pm merge fix-ids'`);
    if (receipt.bodyConflicts > 0) parts.push(`body: ${receipt.bodyConflicts} conflicting region(s) marked for you to resolve`);
    const after = result.conflicted ? AFTER_CONFLICTS : '';
    return { exitCode: result.conflicted ? 1 : 0, summary: `${itemId} merged (revision ${receipt.revision})${parts.length ? `: ${parts.join('; ')}` : ''}${after}`, receipt };
  }

  private absolute(files: DriverFiles): DriverFiles {
    const at = (path: string) => (path.startsWith('/') ? path : joinPath(this.cwd, path.replace(/^\.\//, '')));
    return { ...files, base: at(files.base), ours: at(files.ours), theirs: at(files.theirs), path: at(files.path) };
  }

  private async read(path: string): Promise<string> {
    return (await this.fs.readText(path)) ?? '';
  }

  /** Appends the receipt to the runtime area of the tracker holding `path` (items/<id>.md). */
  private async record(path: string, receipt: ItemMergeReceipt): Promise<void> {
    const root = parentPath(parentPath(path));
    const runtime = joinPath(root, '.runtime');
    // Never through a linked .runtime/ (docs/TRACKER.md "What pm reads and writes").
    const fs = confinedFileSystem(this.fs, root);
    await fs.ensureDir(runtime);
    await fs.append(joinPath(runtime, 'merge-receipts.jsonl'), `${JSON.stringify({ at: new Date(this.clock.now()).toISOString(), file: path, ...receipt })}\n`);
  }
}

function idFromPath(path: string, extension: string): string {
  const name = path.slice(path.lastIndexOf('/') + 1);
  const id = name.endsWith(extension) ? name.slice(0, -extension.length) : name;
  if (!ITEM_ID_PATTERN.test(id)) throw new CorruptDataError(`${path} is not a pm ${extension === '.md' ? 'item' : 'history'} file (<id>${extension})`, { file: path });
  return id;
}
