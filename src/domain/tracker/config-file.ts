import { parseDocument } from 'yaml';
import type { FileSystem } from '../../ports/file-system.js';
import { CorruptDataError, NotFoundError } from '../errors/index.js';
import { trackerConfigSchema, type TrackerConfig } from './config.js';
import { PROJECT_FILE_READ } from './file-caps.js';
import type { TrackerPaths } from './tracker-paths.js';

/** Reads and validates `.agents/pm/config.yaml`; a broken file names itself and the problem. */
export async function readTrackerConfig(fs: FileSystem, paths: TrackerPaths): Promise<TrackerConfig> {
  const text = await fs.readText(paths.config, PROJECT_FILE_READ);
  if (text === undefined) throw new NotFoundError(`no config.yaml in ${paths.root}; run 'pm init'`, { file: paths.config });
  const doc = parseDocument(text, { uniqueKeys: true, schema: 'core' });
  if (doc.errors.length) throw new CorruptDataError(`${paths.config}: YAML error: ${doc.errors[0]!.message}`, { file: paths.config });
  let raw: unknown;
  try {
    raw = doc.toJS({ maxAliasCount: 0 }) ?? {};
  } catch (error) {
    throw new CorruptDataError(`${paths.config}: YAML error: ${(error as Error).message}`, { file: paths.config });
  }
  const parsed = trackerConfigSchema.safeParse(raw, { jitless: true }); // once per process: no compiled fast path
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new CorruptDataError(`${paths.config}: ${issue.path.join('.') || 'config'}: ${issue.message}`, { file: paths.config });
  }
  return parsed.data;
}
