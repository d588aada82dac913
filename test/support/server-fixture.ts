/**
 * What an integration suite that drives both servers sets up the same way: the pm-mcp and
 * pm-mcp-http processes it starts and the temp trackers it makes, all stopped and removed after
 * the suite (registered with jest's afterAll when called inside a describe block).
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterAll } from '@jest/globals';
import { serializeItem } from '../../src/domain/tracker/item-codec.js';
import type { Item } from '../../src/domain/tracker/item.js';
import { McpHttpProcesses } from './mcp-http.js';
import { makeTempTracker, McpProcesses } from './mcp-stdio.js';

export interface ServerFixture {
  readonly stdio: McpProcesses;
  readonly http: McpHttpProcesses;
  /** A new temp tracker (`root` is its .agents/pm), removed after the suite. */
  tracker(): Promise<{ dir: string; root: string }>;
}

export function serverFixture(prefix: string): ServerFixture {
  const stdio = new McpProcesses();
  const http = new McpHttpProcesses();
  const cleanups: (() => Promise<void>)[] = [];
  afterAll(async () => {
    await stdio.killAll();
    await http.killAll();
    for (const cleanup of cleanups) await cleanup();
  });
  return {
    stdio,
    http,
    async tracker() {
      const t = await makeTempTracker(prefix);
      cleanups.push(t.remove);
      return { dir: t.dir, root: t.root };
    },
  };
}

/** Writes `count` plain open items straight into a tracker's item files (a tracker big enough that reading it takes a while). */
export async function fillTracker(root: string, count: number): Promise<void> {
  const at = '2026-11-01T10:00:00.000Z';
  await Promise.all(
    Array.from({ length: count }, (_, i) => {
      const id = `pm-${i.toString(36).padStart(6, '0')}`;
      const item: Item = { id, title: `Item ${i}`, type: 'Task', status: 'open', priority: 2, tags: [], blockedBy: [], related: [], acceptance: [], files: [], tests: [], custom: {}, comments: [], created: at, updated: at, revision: 1, body: 'x'.repeat(400) };
      return writeFile(join(root, 'items', `${id}.md`), serializeItem(item));
    }),
  );
}
