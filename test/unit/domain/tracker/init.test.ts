import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { initTracker } from '../../../../src/domain/tracker/init.js';
import { ConflictError, ValidationError } from '../../../../src/domain/errors/index.js';

const ROOT = '/repo/.agents/pm';

describe('initTracker', () => {
  it('creates config, directories and the runtime .gitignore', async () => {
    const fs = new MemoryFileSystem();
    const result = await initTracker(fs, ROOT, { idPrefix: 'web' });
    expect(result).toMatchObject({ created: true, config: { idPrefix: 'web' } });
    expect(await fs.readText(`${ROOT}/.gitignore`)).toContain('.runtime/');
    expect(await fs.readText(`${ROOT}/config.yaml`)).toContain('idPrefix: web');
    expect(await fs.isDirectory(`${ROOT}/items`)).toBe(true);
  });

  it('makes the first custom type the default when Task is not among them', async () => {
    const result = await initTracker(new MemoryFileSystem(), ROOT, { types: ['Story', 'Bug'] });
    expect(result.config.defaults.type).toBe('Story');
  });

  it('is a no-op on an existing tracker and reports the config on disk', async () => {
    const fs = new MemoryFileSystem();
    await initTracker(fs, ROOT, { idPrefix: 'abc' });
    const before = await fs.readText(`${ROOT}/config.yaml`);
    const again = await initTracker(fs, ROOT);
    expect(again).toMatchObject({ created: false, config: { idPrefix: 'abc' } });
    expect(await fs.readText(`${ROOT}/config.yaml`)).toBe(before);
    await expect(initTracker(fs, ROOT, { idPrefix: 'xyz' })).rejects.toThrow(ConflictError);
  });

  it('refuses an invalid prefix', async () => {
    await expect(initTracker(new MemoryFileSystem(), ROOT, { idPrefix: 'Bad_Prefix' })).rejects.toThrow(ValidationError);
  });
});
