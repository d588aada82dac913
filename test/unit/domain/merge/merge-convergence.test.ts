import { ManualClock } from '../../../../src/adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { MemoryItemIndex } from '../../../../src/adapters/memory/memory-item-index.js';
import { MemoryLocker } from '../../../../src/adapters/memory/memory-locker.js';
import { PureSha256Hasher } from '../../../../src/adapters/memory/pure-hasher.js';
import { SeededIdSource } from '../../../../src/adapters/memory/seeded-id-source.js';
import { mergeHistories } from '../../../../src/domain/merge/history-merge.js';
import { mergeItemFiles } from '../../../../src/domain/merge/item-merge.js';
import { verifyHistoryChain } from '../../../../src/domain/tracker/history.js';
import { initTracker } from '../../../../src/domain/tracker/init.js';
import { parseItem } from '../../../../src/domain/tracker/item-codec.js';
import { Tracker } from '../../../../src/domain/tracker/tracker.js';

// Randomized: seeded operation sequences on three branches of one tracker, merged the way git
// merges a tree (per file, three-way, pm's drivers where both sides changed a file) in every
// order. Sets, comments and history lines must come out the same whatever the order, nothing
// may be lost, and every merged history chain must verify.

const ROOT = '/p/.agents/pm';
const hasher = new PureSha256Hasher();
const digest = (line: string) => `sha256:${hasher.sha256Hex(line)}`;
type Tree = Map<string, string>;

function rng(seed: number): () => number {
  let s = seed >>> 0;
  return () => {
    s = (s + 0x6d2b79f5) >>> 0;
    let t = Math.imul(s ^ (s >>> 15), 1 | s);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

async function open(tree: Tree, seed: number, start: string, actor: string) {
  const fs = new MemoryFileSystem();
  await initTracker(fs, ROOT);
  for (const [path, text] of tree) await fs.writeAtomic(path, text);
  const clock = new ManualClock(start);
  const tracker = await Tracker.open({ fs, clock, ids: new SeededIdSource(seed), hasher, locker: new MemoryLocker(clock), index: new MemoryItemIndex() }, ROOT, { defaultActor: actor });
  return { fs, clock, tracker };
}

async function snapshot(fs: MemoryFileSystem): Promise<Tree> {
  const tree: Tree = new Map();
  for (const dir of ['items', 'history']) {
    for (const { name } of await fs.scan(`${ROOT}/${dir}`)) tree.set(`${ROOT}/${dir}/${name}`, (await fs.readText(`${ROOT}/${dir}/${name}`))!);
  }
  return tree;
}

/** Git's tree merge, per file: one-sided changes taken, both-sided changes through pm's drivers. */
function mergeTrees(base: Tree, ours: Tree, theirs: Tree): Tree {
  const out: Tree = new Map();
  for (const path of new Set([...base.keys(), ...ours.keys(), ...theirs.keys()])) {
    const [b, o, t] = [base.get(path), ours.get(path), theirs.get(path)];
    if (o === t || t === b) { if (o !== undefined) out.set(path, o); continue; }
    if (o === b) { if (t !== undefined) out.set(path, t); continue; }
    const id = path.slice(path.lastIndexOf('/') + 1).replace(/\.(md|jsonl)$/, '');
    out.set(path, path.endsWith('.jsonl') ? mergeHistories(o!, t!, id, digest).text : mergeItemFiles(b ?? '', o!, t!, path, { ours: 'ours', theirs: 'theirs' }).text);
  }
  return out;
}

async function branch(base: Tree, ids: readonly string[], seed: number, minute: number): Promise<Tree> {
  const random = rng(seed);
  const pick = <T>(list: readonly T[]) => list[Math.floor(random() * list.length)]!;
  const { fs, clock, tracker } = await open(base, seed, `2026-03-01T10:${String(minute).padStart(2, '0')}:00.000Z`, `actor${seed}`);
  const tags = ['red', 'green', 'blue', 'x', 'y'];
  for (let n = 0; n < 8; n++) {
    clock.advance(1000 + Math.floor(random() * 5000));
    const id = pick(ids);
    const kind = Math.floor(random() * 5);
    if (kind === 0) await tracker.comment(id, `comment ${seed}.${n}`);
    else if (kind === 1) await tracker.update(id, { addTags: [pick(tags)] });
    else if (kind === 2) await tracker.update(id, { removeTags: [pick(tags)] });
    else if (kind === 3) await tracker.update(id, { priority: Math.floor(random() * 5) });
    else {
      const other = pick(ids);
      if (other !== id) await tracker.addDependency(id, { kind: 'related', target: other });
    }
  }
  return snapshot(fs);
}

function semantic(tree: Tree) {
  const out: Record<string, unknown> = {};
  for (const [path, text] of [...tree].sort(([a], [b]) => (a < b ? -1 : 1))) {
    if (path.endsWith('.md')) {
      const item = parseItem(text, path);
      out[path] = { tags: [...item.tags].sort(), related: [...item.related].sort(), comments: item.comments.map((c) => c.id) };
    } else {
      out[path] = text.split('\n').filter((line) => line && JSON.parse(line).op !== 'merge').sort();
    }
  }
  return out;
}

describe('randomized merges converge', () => {
  it.each([1, 2, 3, 4, 5, 6])('seed %i: every merge order of three branches gives the same sets, comments and history lines', async (seed) => {
    const { fs, tracker } = await open(new Map(), seed * 100, '2026-03-01T09:00:00.000Z', 'base');
    const ids: string[] = [];
    for (let n = 0; n < 3; n++) ids.push((await tracker.create({ title: `item ${n}`, tags: ['red'] })).item.id);
    const base = await snapshot(fs);
    const sides = [await branch(base, ids, seed * 10 + 1, 10), await branch(base, ids, seed * 10 + 2, 20), await branch(base, ids, seed * 10 + 3, 30)];
    const orders = [[0, 1, 2], [0, 2, 1], [1, 2, 0], [2, 1, 0]];
    const results = orders.map(([a, b, c]) => mergeTrees(base, mergeTrees(base, sides[a!]!, sides[b!]!), sides[c!]!));
    const first = semantic(results[0]!);
    for (const result of results.slice(1)) expect(semantic(result)).toEqual(first);
    for (const result of results) {
      for (const [path, text] of result) {
        if (path.endsWith('.jsonl')) expect(verifyHistoryChain(text, path.slice(path.lastIndexOf('/') + 1, -6), digest).faults).toEqual([]);
      }
      for (const side of sides) {
        for (const [path, text] of side) {
          if (!path.endsWith('.jsonl')) continue;
          for (const line of text.split('\n').filter(Boolean)) expect(result.get(path)).toContain(line);
        }
      }
      // Every comment any branch wrote survives.
      const comments = new Set(sides.flatMap((side) => [...side].filter(([p]) => p.endsWith('.md')).flatMap(([p, t]) => parseItem(t, p).comments.map((c) => c.id))));
      const merged = new Set([...result].filter(([p]) => p.endsWith('.md')).flatMap(([p, t]) => parseItem(t, p).comments.map((c) => c.id)));
      expect([...comments].filter((c) => !merged.has(c))).toEqual([]);
    }
  });
});
