import { CorruptDataError, ValidationError } from '../../../../src/domain/errors/index.js';
import { itemLimitProblems, MAX_TITLE_LENGTH, textProblem } from '../../../../src/domain/tracker/field-limits.js';
import { MAX_FRONT_MATTER_NESTING, parseItem } from '../../../../src/domain/tracker/item-codec.js';
import { memoryTracker, ROOT } from '../../../support/memory-tracker.js';

const itemPath = (id: string) => `${ROOT}/items/${id}.md`;

async function refusal(promise: Promise<unknown>): Promise<ValidationError> {
  const error = await promise.then(() => undefined, (e: unknown) => e);
  expect(error).toBeInstanceOf(ValidationError);
  return error as ValidationError;
}

describe('strict write: every mutation checks the text it sets', () => {
  it('refuses a title longer than the limit and writes nothing; the limit itself is accepted', async () => {
    const { tracker, fs } = await memoryTracker();
    const error = await refusal(tracker.create({ title: 'a'.repeat(MAX_TITLE_LENGTH + 1) }));
    expect(error.message).toBe(`title is ${MAX_TITLE_LENGTH + 1} characters long; at most ${MAX_TITLE_LENGTH} are allowed`);
    expect(error.data).toMatchObject({ field: 'title' });
    expect(await fs.scan(`${ROOT}/items`)).toEqual([]);
    expect(await fs.scan(`${ROOT}/history`)).toEqual([]);
    const { item } = await tracker.create({ title: 'a'.repeat(MAX_TITLE_LENGTH) });
    expect((await tracker.get(item.id)).title).toHaveLength(MAX_TITLE_LENGTH);
    await refusal(tracker.update(item.id, { title: 'b'.repeat(MAX_TITLE_LENGTH + 1) }));
    expect((await tracker.get(item.id)).revision).toBe(1);
  });

  it.each([
    ['newline', 'two\nlines', 'U+000A'],
    ['tab', 'a\tb', 'U+0009'],
    ['ESC', 'evil \u001b[31mred', 'U+001B'],
    ['NUL', 'a\u0000b', 'U+0000'],
    ['DEL', 'a\u007fb', 'U+007F'],
    ['C1 (NEL)', 'a\u0085b', 'U+0085'],
    ['C1 (CSI)', 'a\u009b31m', 'U+009B'],
    ['lone surrogate', 'a\ud800b', 'U+D800'],
  ])('refuses a title with %s', async (_, title, name) => {
    const { tracker } = await memoryTracker();
    const error = await refusal(tracker.create({ title }));
    expect(error.message).toContain(`control character ${name}`);
  });

  it('bodies and comments take newlines and tabs but no other control characters', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a', body: 'line one\n\tindented\r\nthree' });
    expect((await tracker.comment(item.id, 'see:\n\tthis')).item.comments[0]!.text).toBe('see:\n\tthis');
    expect((await refusal(tracker.update(item.id, { body: 'bell \u0007' }))).message).toMatch(/^body holds the control character U\+0007 at position 6; text takes newline and tab/);
    expect((await refusal(tracker.comment(item.id, 'colour \u001b[0m'))).data).toMatchObject({ field: 'comment' });
    expect((await refusal(tracker.close(item.id, { evidence: 'commit \u001b]8;;x' }))).data).toMatchObject({ field: 'evidence' });
  });

  it('one-line fields refuse newlines: tags, assignee, files, tests, criteria, custom strings, the actor', async () => {
    const { tracker } = await memoryTracker({ configYaml: 'customFields:\n  team:\n    type: string\n' });
    const { item } = await tracker.create({ title: 'a' });
    const field = async (promise: Promise<unknown>) => (await refusal(promise)).data.field;
    expect(await field(tracker.update(item.id, { addTags: ['x\ny'] }))).toBe('tags');
    expect(await field(tracker.update(item.id, { assignee: 'bob\tx' }))).toBe('assignee');
    expect(await field(tracker.update(item.id, { addFiles: ['a\n.ts'] }))).toBe('files');
    expect(await field(tracker.update(item.id, { addTests: ['t\u001b'] }))).toBe('tests');
    expect(await field(tracker.update(item.id, { addAcceptance: ['done\nwhen'] }))).toBe('acceptance');
    expect(await field(tracker.update(item.id, { custom: { team: 'a\nb' } }))).toBe('custom.team');
    expect(await field(tracker.comment(item.id, 'hi', { actor: 'eve\u001b[2J' }))).toBe('comment.author');
    expect(await field(tracker.claim(item.id, { holder: 'eve\n' }))).toBe('assignee'); // a claim sets the assignee first
    expect((await tracker.get(item.id)).revision).toBe(1);
  });

  it('refuses the empty text the item file cannot hold (an SDK caller setting assignee to ""), but not an empty body', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'a', body: 'x' });
    expect((await refusal(tracker.update(item.id, { assignee: '' }))).message).toBe('assignee must not be empty');
    expect((await tracker.update(item.id, { body: '' })).item.body).toBe('');
    expect((await tracker.get(item.id)).assignee).toBeUndefined();
  });

  it('textProblem names the first offending character; within limits there is none', () => {
    expect(textProblem('title', 'fine title', 'line', 10)).toBeUndefined();
    expect(textProblem('body', 'a\n\tb\r\n', 'text')).toBeUndefined();
    expect(textProblem('title', 'x\ty', 'line')).toEqual({ field: 'title', message: expect.stringContaining('U+0009 at position 2') });
  });
});

describe('lenient read: a file over a limit stays readable and repairable', () => {
  it('an existing 600-character title reads, lists, takes other changes, is reported by validate and is fixed by update', async () => {
    const { tracker, fs } = await memoryTracker();
    const { item } = await tracker.create({ title: 'short' });
    const long = 'L'.repeat(600);
    await fs.writeAtomic(itemPath(item.id), (await fs.readText(itemPath(item.id)))!.replace('title: short', `title: ${long}`));
    expect((await tracker.get(item.id)).title).toBe(long);
    expect((await tracker.list()).items.map((i) => i.title)).toEqual([long]);
    const report = await tracker.validate();
    expect(report.findings).toContainEqual(expect.objectContaining({ severity: 'error', code: 'field_limit', itemId: item.id, message: expect.stringContaining('title is 600 characters long; at most 500 are allowed') }));
    // Another field changes without touching the long title.
    expect((await tracker.update(item.id, { priority: 1 })).item.title).toBe(long);
    expect((await tracker.update(item.id, { title: 'fixed' })).item.title).toBe('fixed');
    expect((await tracker.validate()).findings.filter((f) => f.code === 'field_limit')).toEqual([]);
  });

  it('itemLimitProblems lists every offending field of an item', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'ok', tags: ['t'] });
    expect(itemLimitProblems({ ...item, title: 'a\u001bb', tags: ['x\ny'], body: 'ok\n' }).map((p) => p.field)).toEqual(['title', 'tags']);
  });
});

describe('deeply nested front matter', () => {
  const head = '---\nid: pm-deep01\ntitle: x\ntype: Task\nstatus: open\npriority: 2\n';
  const tail = 'created: 2026-01-01T00:00:00.000Z\nupdated: 2026-01-01T00:00:00.000Z\nrevision: 1\n---\n';

  it('a 3,000-deep block map is a corrupt item with its position, never a stack overflow', () => {
    const lines = Array.from({ length: 3000 }, (_, i) => `${' '.repeat(2 * (i + 1))}k:`);
    const text = `${head}custom:\n${lines.join('\n')} 1\n${tail}`;
    const error = (() => { try { parseItem(text, 'pm-deep01.md'); } catch (e) { return e; } return undefined; })();
    expect(error).toBeInstanceOf(CorruptDataError);
    // custom: is file line 7; its first nested line is 8; the 129th (indent 258 > 256) is line 136.
    expect((error as CorruptDataError).message).toBe(`pm-deep01.md:136:1: YAML error: nested more than ${MAX_FRONT_MATTER_NESTING} levels deep`);
    expect((error as CorruptDataError).data).toMatchObject({ line: 136, column: 1 });
  });

  it('3,000 open flow brackets too; validate reports a corrupt_item finding with the line', async () => {
    const { tracker, fs } = await memoryTracker();
    await fs.writeAtomic(itemPath('pm-deep01'), `${head}tags: ${'['.repeat(3000)}${']'.repeat(3000)}\n${tail}`);
    const report = await tracker.validate();
    expect(report.findings).toContainEqual(expect.objectContaining({ code: 'corrupt_item', itemId: 'pm-deep01', line: 7, column: 1 }));
    await expect(tracker.get('pm-deep01')).rejects.toBeInstanceOf(CorruptDataError);
  });

  it('nesting within the limit still parses through the general parser', () => {
    const text = `${head}# a comment sends the file to the general parser\ntags: [[a]]\n${tail}`;
    expect(() => parseItem(text, 'x.md')).toThrow(/tags\.0/); // parsed, then refused by the schema: not a nesting error
  });
});
