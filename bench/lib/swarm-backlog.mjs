// The backlog of `npm run bench:swarm` and its audit (docs/BENCHMARKS.md "bench:swarm"): M open
// items in dependency chains (each item blocked by the one before it in its chain), written as
// the tracker would (serializeItem and a create history line, as seed.mjs does); and the check
// of what the agents did, read from the history files alone.
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { NodeFileSystem } from '../../dist/adapters/node/node-file-system.js';
import { NodeHasher } from '../../dist/adapters/node/node-hasher.js';
import { encodeHistoryLine } from '../../dist/domain/tracker/history.js';
import { initTracker } from '../../dist/domain/tracker/init.js';
import { serializeItem } from '../../dist/domain/tracker/item-codec.js';
import { diffDocuments } from '../../dist/domain/tracker/json-patch.js';
import { newId, prng } from './dataset.mjs';

const hasher = new NodeHasher();

/**
 * Writes a tracker at `root` (strict: true) with `count` open items in chains of `chainLength` (item k of a
 * chain blocked by item k-1) and random priorities. Returns every id and each id's blockers.
 */
export async function seedSwarmBacklog(root, count, chainLength) {
  await initTracker(new NodeFileSystem(), root);
  // Agents sharing a backlog run strict (docs/TRACKER.md "Claims and leases"): one whose lease was taken over is refused its close.
  const configFile = join(root, 'config.yaml');
  const yaml = readFileSync(configFile, 'utf8');
  writeFileSync(configFile, /^strict:/m.test(yaml) ? yaml.replace(/^strict:.*$/m, 'strict: true') : `${yaml.trimEnd()}\nstrict: true\n`);
  mkdirSync(join(root, 'items'), { recursive: true });
  mkdirSync(join(root, 'history'), { recursive: true });
  const random = prng(20261207);
  const taken = new Set();
  const ids = [];
  const blockers = new Map();
  const created = '2026-06-01T00:00:00.000Z';
  for (let n = 0; n < count; n++) {
    const id = newId(random, taken);
    const previous = n % chainLength === 0 ? undefined : ids[n - 1];
    const item = {
      id, title: `swarm work ${n} (chain ${Math.floor(n / chainLength)}, step ${n % chainLength})`, type: 'Task', status: 'open',
      priority: Math.floor(random() * 5), tags: ['swarm'], blockedBy: previous ? [previous] : [], related: [], acceptance: [], files: [], tests: [], custom: {}, comments: [],
      created, updated: created, revision: 1, body: 'Backlog item of the swarm benchmark.',
    };
    const text = serializeItem(item);
    const { body, ...front } = item;
    const line = encodeHistoryLine({
      receiptId: `rcpt-swarm${n.toString(36)}`, op: 'create', itemId: id, actor: 'seed', at: created, seq: 1,
      revisionBefore: null, revisionAfter: 1, digestBefore: null, digestAfter: `sha256:${hasher.sha256Hex(text)}`,
      patch: diffDocuments({}, { ...front, body }), prev: null,
    });
    writeFileSync(join(root, 'items', `${id}.md`), text);
    writeFileSync(join(root, 'history', `${id}.jsonl`), `${line}\n`);
    ids.push(id);
    blockers.set(id, item.blockedBy);
  }
  return { ids, blockers };
}

/** The history of one item as entries, each with its expiresAt when it is a claim. */
function historyOf(root, id) {
  return readFileSync(join(root, 'history', `${id}.jsonl`), 'utf8').split('\n').filter(Boolean).map((line) => {
    const entry = JSON.parse(line);
    const expiresAt = entry.op === 'claim' ? /"expiresAt":"([^"]+)"/.exec(line)?.[1] : undefined;
    return { op: entry.op, actor: entry.actor, at: entry.at, takeover: entry.takeover, expiresAt };
  });
}

/**
 * Checks the invariants from the history files (never from what agents said):
 * - double claims: a claim by somebody else while the previous holder's lease was still live
 *   (no release or close between them) — must be 0; a claim after the lease ran out must be a
 *   recorded takeover (counted as takeovers);
 * - premature claims: an item claimed before every one of its blockers was closed — must be 0;
 * - closes: each item closed exactly once, by an agent that claimed it, never while somebody
 *   else held a live claim (bad closes); a close by an agent whose lease had run out and was
 *   taken over, after the new holder's lease ran out too, is allowed and counted (late closes);
 * - unclosed: items without a close — must be 0 once the leases of killed agents ran out;
 * - claimActors: how many actors the claims were recorded under — one per agent that claimed,
 *   or the checks above could not tell the agents apart.
 */
export function auditSwarm(root, ids, blockers) {
  const closedAt = new Map();
  const histories = new Map(ids.map((id) => [id, historyOf(root, id)]));
  for (const [id, entries] of histories) {
    const close = entries.find((e) => e.op === 'close');
    if (close) closedAt.set(id, close.at);
  }
  const out = { claims: 0, doubleClaims: [], untoldTakeovers: [], takeovers: 0, prematureClaims: [], closes: 0, badCloses: [], lateCloses: 0, unclosed: [], claimActors: new Set() };
  for (const [id, entries] of histories) {
    let holder;
    let expiresAt;
    let closes = 0;
    const claimers = new Set();
    for (const entry of entries) {
      if (entry.op === 'claim') {
        out.claims++;
        if (holder !== undefined && holder !== entry.actor) {
          if (entry.at < expiresAt) out.doubleClaims.push({ id, held: holder, until: expiresAt, by: entry.actor, at: entry.at });
          else if (!entry.takeover) out.untoldTakeovers.push({ id, from: holder, by: entry.actor });
          else out.takeovers++;
        }
        for (const blocker of blockers.get(id) ?? []) {
          const done = closedAt.get(blocker);
          if (done === undefined || done > entry.at) out.prematureClaims.push({ id, blocker, claimedAt: entry.at, blockerClosedAt: done ?? null });
        }
        holder = entry.actor;
        expiresAt = entry.expiresAt;
        claimers.add(entry.actor);
      } else if (entry.op === 'release') {
        holder = undefined;
      } else if (entry.op === 'close') {
        closes++;
        out.closes++;
        if (!claimers.has(entry.actor)) out.badCloses.push({ id, by: entry.actor, problem: 'closed without ever claiming it' });
        else if (holder !== undefined && holder !== entry.actor && entry.at < expiresAt) out.badCloses.push({ id, by: entry.actor, holder, until: expiresAt, problem: "closed under somebody else's live claim" });
        else if (holder !== entry.actor) out.lateCloses++;
        holder = undefined;
      }
    }
    if (closes === 0) out.unclosed.push(id);
    else if (closes > 1) out.badCloses.push({ id, closes });
    for (const actor of claimers) out.claimActors.add(actor);
  }
  return { ...out, claimActors: out.claimActors.size };
}
