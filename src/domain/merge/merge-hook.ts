import type { GitHooks } from '../../ports/git-hooks.js';

/** The git hook pm installs: git runs it after every merge it completes (`git merge`, `git pull`). */
export const MERGE_HOOK = 'post-merge';

const HEADER = [
  '#!/bin/sh',
  '# pm merge check (written by `pm merge install`; `pm merge uninstall` removes this file)',
  '# After a merge, names what it left to repair (dependency cycles, id collisions) and the commands.',
];

/** What install or uninstall did with the hook. */
export interface MergeHookReport {
  /** Where git looks for the hook (core.hooksPath honoured). */
  readonly file: string;
  /**
   * `written` (created or brought up to date), `unchanged` (already as pm writes it), `removed`,
   * `absent` (uninstall found none), `kept` (a hook pm did not write: left as it is).
   */
  readonly status: 'written' | 'unchanged' | 'removed' | 'absent' | 'kept';
  /** The line that runs the check; for a kept hook, the line to add to it. */
  readonly line: string;
  /** For a kept hook: whether it already runs `pm merge check`. */
  readonly runsCheck?: boolean;
}

/**
 * Installs and removes git's post-merge hook that runs `pm merge check --quiet` (docs/TRACKER.md
 * "Merges"): a merge can close a dependency cycle no branch had (each link in its own item file,
 * so no merge driver runs), and the hook names it right after the merge. A hook pm did not write
 * is never overwritten or removed: it is reported as kept, with the line to add to it. A merge
 * that stops on conflicts runs no post-merge hook; `pm merge check` is then run by hand.
 */
export class MergeHookInstaller {
  /**
   * @param projectDir the directory holding `.agents/pm`
   * @param command how git runs this pm: the argv prefix before `merge check`, shell-quoted
   */
  constructor(
    private readonly hooks: GitHooks,
    private readonly projectDir: string,
    private readonly command: string,
  ) {}

  /** The hook's command line: git runs hooks at the work tree's top, so it names the project by its path from there. */
  async line(): Promise<string> {
    const where = (await this.hooks.workTreePath(this.projectDir)) || '.';
    return `${this.command} merge check --quiet --root '${where.replace(/'/g, "'\\''")}'`;
  }

  async install(): Promise<MergeHookReport> {
    const file = await this.hooks.hookPath(this.projectDir, MERGE_HOOK);
    const line = await this.line();
    const wanted = hookText(line);
    const text = await this.hooks.read(file);
    if (text !== undefined && !isPmHook(text)) return { file, status: 'kept', line, runsCheck: runsCheck(text) };
    if (text === wanted) return { file, status: 'unchanged', line };
    await this.hooks.write(file, wanted);
    return { file, status: 'written', line };
  }

  async uninstall(): Promise<MergeHookReport> {
    const file = await this.hooks.hookPath(this.projectDir, MERGE_HOOK);
    const line = await this.line();
    const text = await this.hooks.read(file);
    if (text === undefined) return { file, status: 'absent', line };
    if (!isPmHook(text)) return { file, status: 'kept', line, runsCheck: runsCheck(text) };
    await this.hooks.remove(file);
    return { file, status: 'removed', line };
  }
}

function hookText(line: string): string {
  return `${[...HEADER, line].join('\n')}\n`;
}

/** Exactly what pm writes, for some pm command (an install from another pm, or another path, is still pm's). */
function isPmHook(text: string): boolean {
  const lines = text.split('\n');
  return lines.length === HEADER.length + 2 && HEADER.every((header, i) => lines[i] === header) && runsCheck(lines[HEADER.length]!) && lines[HEADER.length + 1] === '';
}

function runsCheck(text: string): boolean {
  return / merge check( |$)/m.test(text);
}
