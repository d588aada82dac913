import { stringify } from 'yaml';
import type { FileSystem } from '../../ports/file-system.js';
import { ConflictError, ValidationError } from '../errors/index.js';
import { trackerConfigSchema, type TrackerConfig } from './config.js';
import { PROJECT_FILE_READ } from './file-caps.js';
import { readTrackerConfig } from './config-file.js';
import { confinedFileSystem } from './confined-file-system.js';
import { TrackerPaths } from './tracker-paths.js';

export interface InitOptions {
  readonly idPrefix?: string;
  readonly types?: readonly string[];
}

export interface InitResult {
  readonly root: string;
  readonly created: boolean;
  readonly config: TrackerConfig;
}

const RUNTIME_GITIGNORE = '# pm runtime area: locks, derived index, idempotency ledger, task records.\n.runtime/\n';

/**
 * Creates `.agents/pm` with config.yaml, items/, history/ and a .gitignore for the runtime
 * area. Running it again on an existing tracker changes nothing (created: false); asking for
 * different settings than the existing config has is refused rather than overwritten.
 */
export async function initTracker(given: FileSystem, root: string, options: InitOptions = {}): Promise<InitResult> {
  const fs = confinedFileSystem(given, root);
  const paths = new TrackerPaths(root);
  // Custom types without 'Task' make the first one the default type (else the config is invalid).
  const types = options.types ? { types: options.types, ...(options.types.includes('Task') || !options.types[0] ? {} : { defaults: { type: options.types[0] } }) } : {};
  const parsed = trackerConfigSchema.safeParse({ ...(options.idPrefix ? { idPrefix: options.idPrefix } : {}), ...types });
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new ValidationError(`${issue.path.join('.')}: ${issue.message}`, { field: issue.path.join('.') });
  }
  const config = parsed.data;
  const existing = await fs.readText(paths.config, PROJECT_FILE_READ);
  if (existing !== undefined) {
    if (options.idPrefix || options.types) {
      throw new ConflictError(`${paths.config} already exists; edit it instead of re-running init with options`, 'exists', { file: paths.config });
    }
    return { root, created: false, config: await readTrackerConfig(fs, paths) };
  }
  await fs.ensureDir(paths.items);
  await fs.ensureDir(paths.history);
  await fs.ensureDir(paths.runtime);
  await fs.writeAtomic(paths.gitignore, RUNTIME_GITIGNORE);
  await fs.writeAtomic(paths.config, `# pm tracker configuration (see docs/TRACKER.md)\n${stringify(config, { lineWidth: 0 })}`);
  return { root, created: true, config };
}
