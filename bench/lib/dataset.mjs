// Deterministic synthetic work items for the tracker benchmark: a seeded PRNG, a skewed
// vocabulary (so searches hit realistic numbers of items), and a status/priority/link mix
// that gives list, next and search real work to do (blockers, parents, claims, comments).
const ALPHABET = '0123456789abcdefghijklmnopqrstuvwxyz';
const STATUSES = ['open', 'open', 'open', 'open', 'in_progress', 'blocked', 'draft', 'closed', 'closed', 'canceled'];
const TYPES = ['Task', 'Task', 'Task', 'Feature', 'Issue', 'Chore', 'Epic', 'Decision'];
const TAGS = ['backend', 'frontend', 'cli', 'mcp', 'docs', 'perf', 'security', 'ux', 'infra', 'tests', 'bug', 'debt'];
const PEOPLE = ['alice', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi'];
const SYLLABLES = ['ka', 'lo', 'mi', 'nu', 'pe', 'ra', 'si', 'to', 'va', 'ze', 'dri', 'gon', 'ment', 'ion', 'ex', 'qua', 'bel', 'cor'];
const COMMON = ['index', 'cache', 'parser', 'server', 'client', 'schema', 'migration', 'lock', 'history', 'search', 'query', 'config', 'release', 'timeout', 'retry', 'token', 'session', 'render', 'export', 'import'];

/** mulberry32: small, fast and reproducible. */
export function prng(seed) {
  let s = seed >>> 0;
  return () => {
    let t = (s += 0x6d2b79f5);
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A vocabulary of ~2000 words: common tech words first, then syllable compounds. */
export function vocabulary(random) {
  const words = new Set(COMMON);
  while (words.size < 2000) {
    const n = 2 + Math.floor(random() * 3);
    let w = '';
    for (let i = 0; i < n; i++) w += SYLLABLES[Math.floor(random() * SYLLABLES.length)];
    words.add(w);
  }
  return [...words];
}

/** Picks with a skew towards the front (word frequencies in real text are far from uniform). */
export function skewed(random, list) {
  const r = random();
  return list[Math.floor(r * r * r * list.length)];
}

const pick = (random, list) => list[Math.floor(random() * list.length)];

function sentence(random, words, count) {
  const out = [];
  for (let i = 0; i < count; i++) out.push(skewed(random, words));
  return out.join(' ');
}

/** A fresh id in the tracker's format (prefix + 8 base36 characters). */
export function newId(random, taken) {
  for (;;) {
    let id = 'pm-';
    for (let i = 0; i < 8; i++) id += ALPHABET[Math.floor(random() * 36)];
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/**
 * One item as the tracker stores it. `earlier` is the list of ids created before it, so
 * parents and blockers always point at existing items (no dangling references, no cycles).
 */
export function makeItem(random, words, id, earlier, epics, nowMs) {
  const status = pick(random, STATUSES);
  const created = new Date(nowMs - Math.floor(random() * 365 * 86_400_000)).toISOString();
  const tags = [...new Set([pick(random, TAGS), ...(random() < 0.5 ? [pick(random, TAGS)] : [])])];
  const item = {
    id,
    title: sentence(random, words, 3 + Math.floor(random() * 6)),
    type: pick(random, TYPES),
    status,
    priority: Math.floor(random() * 5),
    tags,
    blockedBy: random() < 0.15 && earlier.length ? [pick(random, earlier)] : [],
    related: random() < 0.05 && earlier.length ? [pick(random, earlier)] : [],
    acceptance: random() < 0.4 ? [{ text: sentence(random, words, 6), done: false }] : [],
    files: [],
    tests: [],
    custom: {},
    comments: [],
    created,
    updated: created,
    revision: 1,
    body: `${sentence(random, words, 20 + Math.floor(random() * 40))}\n\n${sentence(random, words, 10 + Math.floor(random() * 20))}`,
  };
  if (random() < 0.3 && epics.length) item.parent = pick(random, epics);
  if (random() < 0.4) item.assignee = pick(random, PEOPLE);
  if (status === 'in_progress') item.claim = { holder: item.assignee ?? 'alice', claimedAt: created, expiresAt: new Date(nowMs + 3_600_000).toISOString() };
  if (status === 'closed' || status === 'canceled') item.closure = { at: created, by: 'alice', evidence: 'merged' };
  if (random() < 0.2) item.comments = [{ id: `c-${id.slice(3)}`, author: pick(random, PEOPLE), at: created, text: sentence(random, words, 12) }];
  return item;
}

export const FILTERS = [
  { status: ['open'], limit: 50 },
  { status: ['open', 'in_progress'], tag: ['backend'], limit: 50 },
  { type: ['Feature'], sort: 'updated', limit: 50 },
  { assignee: 'carol', limit: 50 },
  { tag: ['perf'], sort: 'created', limit: 50 },
];
export { TAGS, PEOPLE };
