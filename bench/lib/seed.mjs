// Bulk seeding for the benchmark: writes item files and their first history line directly
// (the same bytes the tracker would write: serializeItem and a canonical create line with a
// valid hash chain), so 100k items take seconds instead of minutes. Creates measured as
// samples go through the real Tracker API instead.
import { mkdirSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { performance } from 'node:perf_hooks';
import { encodeHistoryLine } from '../../dist/domain/tracker/history.js';
import { serializeItem } from '../../dist/domain/tracker/item-codec.js';
import { diffDocuments } from '../../dist/domain/tracker/json-patch.js';
import { NodeHasher } from '../../dist/adapters/node/node-hasher.js';
import { NodeFileSystem } from '../../dist/adapters/node/node-file-system.js';
import { initTracker } from '../../dist/domain/tracker/init.js';
import { makeItem, newId, prng, vocabulary } from './dataset.mjs';
import { round } from './stats.mjs';

const hasher = new NodeHasher();
const digest = (text) => `sha256:${hasher.sha256Hex(text)}`;

/**
 * Adds `count` items to the tracker at `root` (.agents/pm). `state` carries the PRNG, the
 * vocabulary and every id so far across calls, so each scale builds on the previous one.
 */
export function seedItems(root, count, state) {
  mkdirSync(`${root}/items`, { recursive: true });
  mkdirSync(`${root}/history`, { recursive: true });
  const nowMs = Date.parse('2026-06-01T00:00:00.000Z');
  for (let i = 0; i < count; i++) {
    const id = newId(state.random, state.taken);
    const item = makeItem(state.random, state.words, id, state.ids, state.epics, nowMs);
    const text = serializeItem(item);
    const { body: _body, ...front } = item;
    const line = encodeHistoryLine({
      receiptId: `rcpt-seed${state.ids.length.toString(36)}`,
      op: 'create',
      itemId: id,
      actor: 'seed',
      at: item.created,
      seq: 1,
      revisionBefore: null,
      revisionAfter: 1,
      digestBefore: null,
      digestAfter: digest(text),
      patch: diffDocuments({}, { ...front, body: item.body }),
      prev: null,
    });
    writeFileSync(`${root}/items/${id}.md`, text);
    writeFileSync(`${root}/history/${id}.jsonl`, `${line}\n`);
    state.ids.push(id);
    if (item.type === 'Epic' && item.status !== 'closed' && item.status !== 'canceled') state.epics.push(id);
  }
}

/**
 * Creates a tracker at `root` holding `count` deterministic items (the same seed every run) and
 * returns the id of one of them: the servers benchmarked by bench:mcp and bench:http read it.
 */
export async function seedBenchTracker(root, count) {
  await initTracker(new NodeFileSystem(), root);
  const random = prng(20260728);
  const state = { random, words: vocabulary(random), ids: [], epics: [], taken: new Set(), count: 0 };
  seedItems(root, count, state);
  return state.ids[Math.floor(count / 2)];
}

/**
 * The start of a server benchmark's run: notes the time and the load average, then seeds the
 * tracker at `root` with `count` items, saying so on stdout. Returns { started, loadAtStart, itemId }.
 */
export async function startSeededRun(root, count) {
  const started = performance.now();
  const loadAtStart = loadavg().map((v) => round(v));
  process.stdout.write(`seeding ${count} items… `);
  const itemId = await seedBenchTracker(root, count);
  console.log('done');
  return { started, loadAtStart, itemId };
}
