import { defaultTrackerConfig, trackerConfigSchema } from '../../../../src/domain/tracker/config.js';

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
