import { spawn } from 'node:child_process';
import { mkdtemp, rm, rmdir, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { basename, dirname, join } from 'node:path';
import type { CliEditor } from './command.js';

const DRAFT_DIR_PREFIX = 'pm-edit-';

/**
 * The user's editor: `$VISUAL`, else `$EDITOR` (the order git and most Unix tools use), run
 * through the shell so a value with arguments (`code --wait`) works, on the terminal pm runs
 * on; `pm edit` decides what runs when neither is set (docs/CLI.md "pm edit"). Drafts live in a fresh directory under the temp dir, mode 0700 (an
 * item can hold anything its author wrote).
 */
export class NodeCliEditor implements CliEditor {
  constructor(private readonly env: NodeJS.ProcessEnv = process.env) {}

  async createDraft(name: string, text: string): Promise<string> {
    const dir = await mkdtemp(join(tmpdir(), DRAFT_DIR_PREFIX));
    const path = join(dir, name);
    await writeFile(path, text, { mode: 0o600 });
    return path;
  }

  get configured(): string | undefined {
    return this.env.VISUAL?.trim() || this.env.EDITOR?.trim() || undefined;
  }

  edit(path: string, editor: string): Promise<number> {
    return new Promise((done, fail) => {
      const child = process.platform === 'win32'
        ? spawn(`${editor} "${path}"`, { stdio: 'inherit', shell: true, env: this.env })
        : spawn('/bin/sh', ['-c', `${editor} "$1"`, 'pm-edit', path], { stdio: 'inherit', env: this.env });
      child.on('error', fail);
      child.on('close', (code, signal) => done(code ?? (signal ? 128 : 1)));
    });
  }

  async removeDraft(path: string): Promise<void> {
    await rm(path, { force: true });
    if (basename(dirname(path)).startsWith(DRAFT_DIR_PREFIX)) await rmdir(dirname(path)).catch(() => undefined);
  }
}
