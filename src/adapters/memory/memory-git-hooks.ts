import type { GitHooks } from '../../ports/git-hooks.js';

/**
 * In-memory git hooks: repositories by their work tree's top, each with its hooks directory
 * (`<top>/.git/hooks`, or the `core.hooksPath` it was given), and hook files with their mode.
 */
export class MemoryGitHooks implements GitHooks {
  private readonly repos = new Map<string, string>();
  private readonly files = new Map<string, { text: string; executable: boolean }>();

  /** Makes `top` a repository (what `git init` does), its hooks in `hooksDir` (absolute; default `<top>/.git/hooks`). */
  addRepository(top: string, hooksDir = `${top}/.git/hooks`): void {
    this.repos.set(top, hooksDir);
  }

  /** Whether the hook at `path` is executable (git runs only executable hooks). */
  isExecutable(path: string): boolean {
    return this.files.get(path)?.executable ?? false;
  }

  /** Puts a hook someone else wrote. */
  put(path: string, text: string): void {
    this.files.set(path, { text, executable: true });
  }

  async hookPath(dir: string, name: string): Promise<string> {
    return `${this.repoOf(dir).hooksDir}/${name}`;
  }

  async workTreePath(dir: string): Promise<string> {
    const { top } = this.repoOf(dir);
    return dir === top ? '' : dir.slice(top.length + 1);
  }

  async read(path: string): Promise<string | undefined> {
    return this.files.get(path)?.text;
  }

  async write(path: string, text: string): Promise<void> {
    this.files.set(path, { text, executable: true });
  }

  async remove(path: string): Promise<void> {
    this.files.delete(path);
  }

  private repoOf(dir: string): { top: string; hooksDir: string } {
    for (const [top, hooksDir] of this.repos) if (dir === top || dir.startsWith(`${top}/`)) return { top, hooksDir };
    throw new Error(`${dir} is not in a git repository`);
  }
}
