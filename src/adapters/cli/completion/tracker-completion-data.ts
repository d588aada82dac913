import { TERMINAL_STATUSES } from '../../../domain/tracker/config.js';
import type { ItemSummary } from '../../../domain/tracker/index-entry.js';
import type { Tracker } from '../../../domain/tracker/tracker.js';
import type { Candidate, CompletionData } from './complete-words.js';

/** The largest page `list` serves; completion reads every page (no cap on ids or tags). */
const PAGE = 500;

/**
 * Completion's view of a tracker: config.yaml's statuses and types, and what the index holds
 * (tags, assignees, ids with titles, open items first). Reads the index, never item files, so
 * a TAB stays fast on a large tracker.
 */
export function trackerCompletionData(tracker: Tracker): CompletionData {
  let all: Promise<ItemSummary[]> | undefined;
  const everything = () => (all ??= summaries(tracker, {}));
  return {
    statuses: async () => (await tracker.ready()).statuses,
    types: async () => (await tracker.ready()).types,
    tags: async () => [...new Set((await everything()).flatMap((i) => i.tags))].sort(),
    assignees: async () => [...new Set((await everything()).flatMap((i) => (i.assignee ? [i.assignee] : [])))].sort(),
    async ids(prefix) {
      const items = await summaries(tracker, prefix ? { idPrefix: prefix } : {});
      const open = items.filter((i) => !TERMINAL_STATUSES.has(i.status));
      const done = items.filter((i) => TERMINAL_STATUSES.has(i.status));
      return [...open, ...done].map((i): Candidate => ({ value: i.id, description: `${i.status} · ${i.title}` }));
    },
  };
}

async function summaries(tracker: Tracker, query: { idPrefix?: string }): Promise<ItemSummary[]> {
  const items: ItemSummary[] = [];
  let cursor: string | undefined;
  do {
    const page = await tracker.list({ ...query, all: true, limit: PAGE, ...(cursor ? { cursor } : {}) });
    items.push(...page.items);
    cursor = page.nextCursor;
  } while (cursor);
  return items;
}
