import { joinPath } from '../util/paths.js';

/** Where everything of one tracker lives (the layout in docs/TRACKER.md). */
export class TrackerPaths {
  readonly root: string;
  readonly config: string;
  readonly items: string;
  readonly history: string;
  readonly runtime: string;
  readonly gitignore: string;
  /** The derived index (an SQLite database for the node adapters). */
  readonly indexDatabase: string;
  readonly idempotencyLedger: string;
  readonly tasks: string;
  /** The lock name passed to the Locker port for every tracker write. */
  readonly writeLock: string;

  /** @param root the `.agents/pm` directory */
  constructor(root: string) {
    this.root = root;
    this.config = joinPath(root, 'config.yaml');
    this.items = joinPath(root, 'items');
    this.history = joinPath(root, 'history');
    this.runtime = joinPath(root, '.runtime');
    this.gitignore = joinPath(root, '.gitignore');
    this.indexDatabase = joinPath(this.runtime, 'index.sqlite');
    this.idempotencyLedger = joinPath(this.runtime, 'idempotency.jsonl');
    this.tasks = joinPath(this.runtime, 'tasks');
    this.writeLock = joinPath(this.runtime, 'write.lock');
  }

  itemFile(id: string): string {
    return joinPath(this.items, `${id}.md`);
  }

  historyFile(id: string): string {
    return joinPath(this.history, `${id}.jsonl`);
  }

  /** The project directory that holds `.agents/pm`. */
  get projectDir(): string {
    return this.root.replace(/\/\.agents\/pm\/?$/, '');
  }
}
