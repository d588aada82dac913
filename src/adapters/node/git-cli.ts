import { execFile } from 'node:child_process';

/** How one `git` run ended: its exit code (1 when it could not start or was killed) and output. */
export interface GitRun {
  readonly code: number;
  readonly stdout: string;
  readonly stderr: string;
}

/**
 * Runs the system `git` in a directory (`git -C <dir>`), for the adapters that leave every
 * repository layout (worktrees, `core.worktree`, …) to git itself. Never throws: a failed run is
 * a {@link GitRun} with a non-zero code, for the caller to judge.
 */
export function runGit(gitBinary: string, env: NodeJS.ProcessEnv, dir: string, args: readonly string[], maxBuffer: number): Promise<GitRun> {
  return new Promise((resolve) => {
    execFile(gitBinary, ['-C', dir, ...args], { encoding: 'utf8', maxBuffer, env }, (error, stdout, stderr) => {
      const code = error ? (typeof (error as { code?: unknown }).code === 'number' ? (error as { code: number }).code : 1) : 0;
      resolve({ code, stdout, stderr });
    });
  });
}
