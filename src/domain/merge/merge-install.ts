import type { FileSystem } from '../../ports/file-system.js';
import type { GitConfig } from '../../ports/git-config.js';
import type { GitHooks } from '../../ports/git-hooks.js';
import { RefusedFileError, ValidationError } from '../errors/index.js';
import { PROJECT_FILE_READ } from '../tracker/file-caps.js';
import { TRACKER_DIR } from '../tracker/root-locator.js';
import { joinPath } from '../util/paths.js';
import { MergeHookInstaller, type MergeHookReport } from './merge-hook.js';

/** The git merge driver names pm registers (`merge=<name>` in .gitattributes). */
export const ITEM_DRIVER = 'pm-item';
export const HISTORY_DRIVER = 'pm-history';

const FENCE_START = '# >>> pm merge drivers (added by `pm merge install`; `pm merge uninstall` removes this block)';
const FENCE_END = '# <<< pm merge drivers';

/** What install or uninstall did (or found already done). */
export interface MergeInstallReport {
  readonly installed: boolean;
  /** False when everything already was as asked (running it again changes nothing). */
  readonly changed: boolean;
  readonly gitConfig: readonly { readonly key: string; readonly value: string | null }[];
  readonly attributesFile: string;
  /** Keys left in place because someone else changed them (uninstall only). */
  readonly kept: readonly string[];
  /** The post-merge hook that runs `pm merge check` (merge-hook.ts). */
  readonly hook: MergeHookReport;
}

/**
 * Registers and removes pm's semantic merge drivers (docs/TRACKER.md "Merges"): the driver
 * commands go into the clone-local `.git/config` (never committed: each clone runs its own pm),
 * the `merge=` attributes into a fenced block of the project's `.gitattributes` (committed, so
 * every clone merges the same files the same way). Uninstall removes exactly what install added:
 * the block, the keys it set (still with the values it set), and the file or sections when
 * nothing else is left in them. Install also writes git's post-merge hook, which runs `pm merge
 * check` after every merge (merge-hook.ts); uninstall removes it when it is still pm's.
 */
export class MergeInstaller {
  private readonly hook: MergeHookInstaller;

  /**
   * @param projectDir the directory holding `.agents/pm`
   * @param command how git runs this pm: the argv prefix before `merge driver ...`, each word
   *   already quoted for a POSIX shell
   */
  constructor(
    private readonly fs: FileSystem,
    private readonly git: GitConfig,
    hooks: GitHooks,
    private readonly projectDir: string,
    private readonly command: string,
  ) {
    this.hook = new MergeHookInstaller(hooks, projectDir, command);
  }

  get attributesFile(): string {
    return joinPath(this.projectDir, '.gitattributes');
  }

  /** The local config entries install writes. */
  wanted(): { key: string; value: string }[] {
    return [
      { key: `merge.${ITEM_DRIVER}.name`, value: 'pm item files: field-level three-way merge' },
      { key: `merge.${ITEM_DRIVER}.driver`, value: `${this.command} merge driver item %O %A %B %P %L` },
      { key: `merge.${HISTORY_DRIVER}.name`, value: 'pm history files: keep every line, join the chains' },
      { key: `merge.${HISTORY_DRIVER}.driver`, value: `${this.command} merge driver history %O %A %B %P` },
    ];
  }

  /** Whether both drivers are registered and the attributes block is present. */
  async installed(): Promise<boolean> {
    if (!(await this.git.isRepository(this.projectDir))) return false;
    const present = await this.presentEntries();
    let text: string;
    try {
      text = await this.attributes();
    } catch (error) {
      if (error instanceof RefusedFileError) return false;
      throw error;
    }
    return this.wanted().every(({ key }) => present.has(key.toLowerCase())) && text.includes(FENCE_START);
  }

  /**
   * The project's .gitattributes ('' when absent), read as a regular file only: a link or FIFO
   * in its place is refused (RefusedFileError) and never written through (docs/TRACKER.md "What
   * pm reads and writes").
   */
  private async attributes(): Promise<string> {
    return (await this.fs.readText(this.attributesFile, PROJECT_FILE_READ)) ?? '';
  }

  async install(): Promise<MergeInstallReport> {
    await this.requireRepository();
    // Read first: a .gitattributes pm may not touch refuses the install before git config changes.
    const text = await this.attributes();
    const present = await this.presentEntries();
    let changed = false;
    for (const { key, value } of this.wanted()) {
      if (present.get(key.toLowerCase()) === value) continue;
      await this.git.set(this.projectDir, key, value);
      changed = true;
    }
    const block = this.block();
    const without = removeBlock(text);
    const next = `${without}${without === '' || without.endsWith('\n') ? '' : '\n'}${block}`;
    if (removeBlock(text) === text || extractBlock(text) !== block) {
      await this.fs.writeAtomic(this.attributesFile, next);
      changed = true;
    }
    const hook = await this.hook.install();
    return { installed: true, changed: changed || hook.status === 'written', gitConfig: this.wanted(), attributesFile: this.attributesFile, kept: [], hook };
  }

  async uninstall(): Promise<MergeInstallReport> {
    await this.requireRepository();
    const text = await this.attributes();
    let changed = false;
    const kept: string[] = [];
    const removed: { key: string; value: null }[] = [];
    for (const driver of [ITEM_DRIVER, HISTORY_DRIVER]) {
      const section = `merge.${driver}`;
      const entries = await this.git.entries(this.projectDir, section);
      if (entries.length === 0) continue;
      const ours = this.wanted().filter(({ key }) => key.startsWith(`${section}.`));
      const mine = entries.filter((entry) => ours.some((w) => w.key.toLowerCase() === entry.key.toLowerCase() && w.value === entry.value));
      if (mine.length === entries.length) await this.git.removeSection(this.projectDir, section);
      else for (const entry of mine) await this.git.unset(this.projectDir, entry.key);
      for (const entry of entries) {
        if (mine.includes(entry)) removed.push({ key: entry.key, value: null });
        else kept.push(entry.key);
      }
      changed ||= mine.length > 0;
    }
    if (removeBlock(text) !== text) {
      const rest = removeBlock(text);
      if (rest.trim() === '') await this.fs.remove(this.attributesFile);
      else await this.fs.writeAtomic(this.attributesFile, rest);
      changed = true;
    }
    const hook = await this.hook.uninstall();
    return { installed: false, changed: changed || hook.status === 'removed', gitConfig: removed, attributesFile: this.attributesFile, kept, hook };
  }

  private block(): string {
    const dir = `/${TRACKER_DIR}`;
    return `${FENCE_START}\n${dir}/items/*.md merge=${ITEM_DRIVER}\n${dir}/history/*.jsonl merge=${HISTORY_DRIVER}\n${FENCE_END}\n`;
  }

  private async presentEntries(): Promise<Map<string, string>> {
    const out = new Map<string, string>();
    for (const driver of [ITEM_DRIVER, HISTORY_DRIVER]) {
      for (const entry of await this.git.entries(this.projectDir, `merge.${driver}`)) out.set(entry.key.toLowerCase(), entry.value);
    }
    return out;
  }

  private async requireRepository(): Promise<void> {
    if (!(await this.git.isRepository(this.projectDir))) {
      throw new ValidationError(`${this.projectDir} is not in a git repository: run 'git init' first (merge drivers are git configuration)`, { dir: this.projectDir });
    }
  }
}

/** The text without pm's fenced block. */
function removeBlock(text: string): string {
  const start = text.indexOf(FENCE_START);
  if (start < 0) return text;
  const endMark = text.indexOf(FENCE_END, start);
  const end = endMark < 0 ? text.length : endMark + FENCE_END.length + (text[endMark + FENCE_END.length] === '\n' ? 1 : 0);
  return text.slice(0, start) + text.slice(end);
}

function extractBlock(text: string): string | undefined {
  const start = text.indexOf(FENCE_START);
  if (start < 0) return undefined;
  return text.slice(start, text.length - removeBlock(text).length + start);
}
