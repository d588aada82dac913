import type { BlockedResult, ReadyResult, TreeNode, TreeResult } from '../../../domain/tracker/backlog-views.js';
import { explainNone } from '../../../domain/tracker/next-query.js';
import { summaryTable } from './list-view.js';
import { columns, indent, lines, oneLine, plural } from './text.js';

/** `pm ready`: every ready item in next's order, each with why it is ready. */
export function renderReady(result: ReadyResult): string {
  if (result.items.length === 0) return lines('Nothing is ready to start.', indent(result.counts.ready > 0 ? 'No ready item matches the filters.' : explainNone(result.counts)));
  const table = summaryTable(result.items);
  const rows = [table[0]!, ...result.items.flatMap((item, n) => [table[n + 1]!, `    why: ${item.reason}`])];
  const shown = result.items.length < result.total ? `${result.items.length} of ${result.total} ready items (--limit N for more)` : plural(result.total, 'ready item');
  return lines(rows, '', `${shown}; take the first with: pm next --claim`);
}

/** `pm blocked`: each blocked item and, under it, the open blockers holding it back. */
export function renderBlocked(result: BlockedResult): string {
  if (result.items.length === 0) return lines(result.total === 0 ? 'Nothing is blocked.' : 'No more items.');
  const table = summaryTable(result.items);
  const rows = [table[0]!];
  result.items.forEach((item, n) => {
    rows.push(table[n + 1]!);
    for (const id of item.activeBlockers ?? item.blockedBy) {
      const blocker = result.blockers[id];
      if (!blocker) continue;
      rows.push('missing' in blocker ? `    waits on ${id} (missing: deleted or unreadable; pm deps remove ${item.id} --blocked-by ${id})` : `    waits on ${id} ${blocker.status} "${oneLine(blocker.title)}"`);
    }
  });
  const shown = result.items.length < result.total ? `${result.items.length} of ${result.total} blocked items` : plural(result.total, 'blocked item');
  return lines(rows, '', result.nextCursor ? `${shown}; next page: --after ${result.items[result.items.length - 1]!.id}` : shown);
}

/** `pm tree`: items under their parents, indented, with the progress of each parent's children. */
export function renderTree(result: TreeResult): string {
  if (result.roots.length === 0) return lines('No open item has children. (pm tree <id> shows one item\'s children.)');
  const rows: string[][] = [];
  const walk = (node: TreeNode, depth: number) => {
    const { item, progress } = node;
    const done = progress.total ? `  ${progress.done}/${progress.total} done` : '';
    const parent = depth === 0 && item.parent ? `  (in ${item.parent}${item.parentTitle !== undefined ? ` "${oneLine(item.parentTitle)}"` : ''})` : '';
    rows.push([`${'  '.repeat(depth)}${item.id}`, `P${item.priority}`, item.status, item.type, `${oneLine(item.title)}${done}${parent}`]);
    for (const child of node.children) walk(child, depth + 1);
  };
  for (const root of result.roots) walk(root, 0);
  return lines(columns([['ID', 'PRI', 'STATUS', 'TYPE', 'TITLE'], ...rows]));
}
