import { describeChanges, bounded } from '../../../../src/domain/tracker/history-changes.js';
import { cliHarness } from '../../../support/cli-harness.js';

describe('history with old and new values', () => {
  it('replays the lines to name each field\'s old and new value', async () => {
    const cli = await cliHarness();
    const id = (await cli.json<{ item: { id: string } }>(['create', 'Ship it', '-p', '2'])).item.id;
    await cli.run(['update', id, '-p', '0', '--title', 'Ship it now', '--assignee', 'bob']);
    await cli.run(['comment', id, 'looks good']);
    await cli.run(['update', id, '--unassign']);
    const changes = describeChanges(await cli.tracker.historyOf(id));
    expect(changes[0]).toEqual([]);
    expect(changes[1]).toEqual(expect.arrayContaining([
      { field: 'priority', before: '2', after: '0' },
      { field: 'title', before: '"Ship it"', after: '"Ship it now"' },
      { field: 'assignee', after: '"bob"' },
    ]));
    expect(changes[2]).toEqual([{ field: 'comments', added: ['"looks good"'] }]);
    expect(changes[3]).toEqual([{ field: 'assignee', before: '"bob"' }]);
    const text = (await cli.run(['history', id])).stdout;
    expect(text).toContain('      priority: 2 -> 0\n');
    expect(text).toContain('      assignee: (none) -> "bob"\n');
    expect(text).toContain('      comments: + "looks good"\n');
    expect(text).toContain('      assignee: "bob" -> (none)\n');
    const json = await cli.json<{ changes: unknown[] }[]>(['history', id]);
    expect(json[3]!.changes).toEqual([{ field: 'assignee', before: '"bob"' }]);
  });

  it('cuts long values and says how much was left out', () => {
    expect(bounded('x'.repeat(100), 20)).toBe(`"${'x'.repeat(19)}… (82 more characters)`);
    expect(bounded(['a'], 20)).toBe('["a"]');
  });
});
