import { mkdir, mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { runToEnd, type Run } from './child-processes.js';

const BIN = fileURLToPath(new URL('../../bin/pm.cjs', import.meta.url));

export type { Run } from './child-processes.js';

/**
 * A git repository in a temp dir with a pm tracker, driven through the system `git` and the
 * real `pm` process. Every process gets a temp HOME and no global or system git config, so a
 * test reads and writes nothing outside its temp dir.
 */
export class GitProject {
  private constructor(
    readonly top: string,
    readonly dir: string,
    readonly env: NodeJS.ProcessEnv,
  ) {}

  /** A fresh repository on branch main with `pm init` committed (drivers installed unless told otherwise). */
  static async create(options: { drivers?: boolean } = {}): Promise<GitProject> {
    const top = await mkdtemp(join(tmpdir(), 'pm-git-'));
    const home = join(top, 'home');
    const dir = join(top, 'project');
    await mkdir(home);
    await mkdir(dir);
    const env: NodeJS.ProcessEnv = { ...process.env, HOME: home, GIT_CONFIG_GLOBAL: join(home, 'gitconfig'), GIT_CONFIG_NOSYSTEM: '1', GIT_CEILING_DIRECTORIES: top, GIT_AUTHOR_NAME: 't', GIT_AUTHOR_EMAIL: 't@example.com', GIT_COMMITTER_NAME: 't', GIT_COMMITTER_EMAIL: 't@example.com', GIT_MERGE_AUTOEDIT: 'no', PM_ACTOR: 'tester' };
    for (const key of ['PM_ROOT', 'PM_DEBUG', 'GIT_DIR', 'GIT_WORK_TREE', 'GIT_INDEX_FILE']) delete env[key];
    const project = new GitProject(top, dir, env);
    await project.gitOk('init', '-q', '-b', 'main');
    await project.pmOk('init');
    if (options.drivers !== false) await project.pmOk('merge', 'install');
    await project.commitAll('init');
    return project;
  }

  async remove(): Promise<void> {
    await rm(this.top, { recursive: true, force: true });
  }

  run(command: string, args: readonly string[], env: NodeJS.ProcessEnv = {}): Promise<Run> {
    return runToEnd(command, args, { cwd: this.dir, env: { ...this.env, ...env } });
  }


  git(...args: string[]): Promise<Run> {
    return this.run('git', args);
  }

  async gitOk(...args: string[]): Promise<string> {
    const run = await this.git(...args);
    if (run.code !== 0) throw new Error(`git ${args.join(' ')} exited ${run.code}: ${run.stderr}${run.stdout}`);
    return run.stdout;
  }

  pm(...args: string[]): Promise<Run> {
    return this.run(process.execPath, [BIN, ...args]);
  }

  async pmOk(...args: string[]): Promise<string> {
    const run = await this.pm(...args);
    if (run.code !== 0) throw new Error(`pm ${args.join(' ')} exited ${run.code}: ${run.stderr}${run.stdout}`);
    return run.stdout;
  }

  /** Runs a pm command with --json and returns its parsed result. */
  async pmJson<T = any>(...args: string[]): Promise<T> { // eslint-disable-line @typescript-eslint/no-explicit-any
    return JSON.parse(await this.pmOk(...args, '--json')) as T;
  }

  /** Creates an item and returns its id. */
  async create(title: string, ...args: string[]): Promise<string> {
    return (await this.pmJson<{ item: { id: string } }>('create', title, ...args)).item.id;
  }

  async item(id: string): Promise<any> { // eslint-disable-line @typescript-eslint/no-explicit-any
    return this.pmJson('get', id);
  }

  async history(id: string): Promise<any[]> { // eslint-disable-line @typescript-eslint/no-explicit-any
    return this.pmJson('history', id);
  }

  async validate(): Promise<{ ok: boolean; findings: { code: string; severity: string; message: string }[] }> {
    const run = await this.pm('validate', '--json');
    return JSON.parse(run.stdout) as { ok: boolean; findings: { code: string; severity: string; message: string }[] };
  }

  async commitAll(message: string): Promise<void> {
    await this.gitOk('add', '-A');
    await this.gitOk('commit', '-q', '--allow-empty', '-m', message);
  }

  async checkout(...args: string[]): Promise<void> {
    await this.gitOk('checkout', '-q', ...args);
  }

  file(relative: string): Promise<string> {
    return readFile(join(this.dir, relative), 'utf8');
  }

  /** The raw lines of an item's history file. */
  async historyLines(id: string): Promise<string[]> {
    return (await this.file(`.agents/pm/history/${id}.jsonl`)).split('\n').filter(Boolean);
  }
}
