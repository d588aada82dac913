import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { defaultTrackerConfig, trackerConfigSchema } from '../../../../src/domain/tracker/config.js';
import { Tracker } from '../../../../src/domain/tracker/tracker.js';
import { ROOT, memoryTracker } from '../../../support/memory-tracker.js';

describe('tracker config', () => {
  it('has the documented defaults', () => {
    const config = defaultTrackerConfig();
    expect(config.idPrefix).toBe('pm');
    expect(config.types).toEqual(['Epic', 'Feature', 'Task', 'Chore', 'Issue', 'Decision']);
    expect(config.statuses).toEqual(['draft', 'open', 'in_progress', 'blocked', 'closed', 'canceled']);
    expect(config.defaults).toEqual({ type: 'Task', status: 'open', priority: 2 });
  });

  it.each([
    [{ idPrefix: 'Bad-Prefix' }, 'idPrefix'],
    [{ statuses: ['open', 'closed'] }, "core status 'draft'"],
    [{ types: ['Bug'], defaults: { type: 'Task', status: 'open', priority: 2 } }, "default type 'Task'"],
    [{ customFields: { size: { type: 'color' } } }, 'customFields'],
    [{ surprise: 1 }, 'surprise'],
  ])('rejects %j', (input, message) => {
    const result = trackerConfigSchema.safeParse(input);
    expect(result.success).toBe(false);
    expect(JSON.stringify(result.error!.issues)).toContain(message);
  });
});

describe('Tracker.openDeferred reads config.yaml on first need', () => {
  async function deferred() {
    const { fs, clock, ids, hasher, locker, tracker: seeded } = await memoryTracker();
    const { item } = await seeded.create({ title: 'Seeded' });
    const readText = fs.readText.bind(fs);
    const reads = { config: 0 };
    fs.readText = async (path: string) => {
      if (path === `${ROOT}/config.yaml`) reads.config++;
      return readText(path);
    };
    const tracker = Tracker.openDeferred({ fs, clock, ids, hasher, locker, index: new MemoryItemIndex() }, ROOT, { defaultActor: 'alice' });
    return { fs, tracker, item, reads };
  }

  it('serves reads without it and loads it once for what needs it', async () => {
    const { tracker, item, reads } = await deferred();
    expect(() => tracker.config).toThrow(/Tracker.ready\(\)/);
    expect((await tracker.get(item.id)).title).toBe('Seeded');
    expect((await tracker.list()).items).toHaveLength(1);
    expect(reads.config).toBe(0);
    const { item: created } = await tracker.create({ title: 'Second' });
    expect(created.id).toMatch(/^pm-/);
    expect(tracker.config.idPrefix).toBe('pm');
    await tracker.update(created.id, { title: 'Second, renamed' });
    await tracker.context();
    expect(reads.config).toBe(1);
  });

  it('reports an unusable file to each caller and picks up the fixed file', async () => {
    const { fs, tracker, reads } = await deferred();
    const good = (await fs.readText(`${ROOT}/config.yaml`))!;
    await fs.writeAtomic(`${ROOT}/config.yaml`, `${good}idPrefix: [broken\n`);
    await expect(tracker.create({ title: 'Refused' })).rejects.toMatchObject({ reason: 'corrupt_data' });
    await expect(tracker.ready()).rejects.toMatchObject({ reason: 'corrupt_data' });
    await fs.writeAtomic(`${ROOT}/config.yaml`, good);
    expect((await tracker.create({ title: 'Accepted' })).item.title).toBe('Accepted');
    expect(reads.config).toBe(4);
  });
});
