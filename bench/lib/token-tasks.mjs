// The fixed task script of `npm run bench:tokens` (docs/BENCHMARKS.md "bench:tokens"): a seeded
// tracker of a small product team and 20 realistic agent tasks over it. Each task is a list of
// steps; a step names the tool it calls, the words an agent would use to look for that tool
// (its `need`, used by the discovering host when the tool is not known yet), and its arguments,
// computed from the seeded ids and the values of earlier steps of the same task (`last`) or of
// earlier tasks (`memo`). Committed so the figures can be reproduced.

/** Filler work so lists and searches have realistic content. */
const FILLER = [
  'Cache the product catalogue responses', 'Add a health check to the order service', 'Rotate the payment provider API keys',
  'Translate the checkout page into German', 'Move the nightly report job to the queue', 'Add tracing to the basket service',
  'Write the runbook for failed payouts', 'Show delivery estimates on the product page', 'Audit the admin role permissions',
  'Compress product images on upload', 'Add rate limiting to the public API', 'Fix flaky end-to-end checkout test',
  'Split the monolith settings module', 'Archive orders older than seven years', 'Add keyboard navigation to the menu',
  'Measure time to first byte on mobile', 'Retry webhook deliveries with backoff', 'Show the order history page',
  'Migrate feature flags to the new service', 'Remove unused CSS from the storefront',
];

/**
 * Seeds the tracker through the SDK: epics, features, tasks, bugs, a decision, chores, links,
 * claims, comments and closed items. Returns the ids by key.
 */
export async function seedTaskTracker(tracker) {
  const ids = {};
  const as = (actor) => ({ actor });
  const make = async (key, input, actor = 'lead') => (ids[key] = (await tracker.create(input, as(actor))).item.id);
  await make('E1', { title: 'Checkout v2', type: 'Epic', priority: 1, body: 'A faster checkout with card payments and 3-D Secure.' });
  await make('F1', { title: 'Card payments with 3-D Secure', type: 'Feature', priority: 1, parent: ids.E1, tags: ['payments'] });
  await make('T1', { title: 'Add the payment intent endpoint', type: 'Task', priority: 1, parent: ids.F1, tags: ['payments', 'backend'], acceptance: ['returns 201 with an intent id', 'idempotent on retries'], body: 'POST /payments/intents creates an intent with the provider and stores its id on the order.' });
  await make('T2', { title: 'Render the card form', type: 'Task', priority: 2, parent: ids.F1, tags: ['payments', 'frontend'], blockedBy: [ids.T1] });
  await make('T3', { title: 'Handle 3-D Secure redirects', type: 'Task', priority: 2, parent: ids.F1, tags: ['payments'], blockedBy: [ids.T1, ids.T2], acceptance: ['the order resumes after the bank page'] });
  await make('B1', { title: 'Checkout times out when the basket has 50+ lines', type: 'Issue', priority: 1, parent: ids.E1, tags: ['bug', 'checkout'], body: 'Baskets above 50 lines take over 30 s to price; the gateway gives up at 30 s.' });
  await make('T4', { title: 'Load test the checkout API', type: 'Task', priority: 3, parent: ids.E1, tags: ['perf'] });
  await make('E2', { title: 'Search revamp', type: 'Epic', priority: 2 });
  await make('T5', { title: 'Index item comments', type: 'Task', priority: 2, parent: ids.E2, tags: ['search'] });
  await make('T6', { title: 'Rank exact id matches first', type: 'Task', priority: 2, parent: ids.E2, tags: ['search'] });
  await make('B2', { title: 'Search returns stale results after an edit', type: 'Issue', priority: 1, parent: ids.E2, tags: ['bug', 'search'] });
  await make('T7', { title: 'Document the search syntax', type: 'Task', priority: 3, parent: ids.E2, tags: ['docs'] });
  await make('D1', { title: 'Use Stripe for card payments', type: 'Decision', priority: 2, parent: ids.E1 });
  await make('B3', { title: 'Login fails with an expired refresh token', type: 'Issue', priority: 2, tags: ['bug', 'auth'], body: 'After 30 days the refresh token expires and the app loops on the login page.' });
  await make('B4', { title: 'Avatar upload rejects PNG files', type: 'Issue', priority: 3, tags: ['bug'] });
  await make('C1', { title: 'Upgrade Node to 22', type: 'Chore', priority: 3 });
  await make('C2', { title: 'Remove the legacy export job', type: 'Chore', priority: 4, tags: ['export'] });
  await make('C3', { title: 'Delete the old export cron', type: 'Chore', priority: 4, tags: ['export'] });
  for (const [i, title] of FILLER.entries()) await make(`X${i}`, { title, type: 'Task', priority: 2 + (i % 3), tags: [i % 2 ? 'backend' : 'frontend'] });
  await tracker.comment(ids.T1, 'The provider sandbox needs the new API version header.', as('carol'));
  await tracker.comment(ids.T1, 'Intent creation works; retries still create duplicates.', as('lead'));
  await tracker.claim(ids.T4, { holder: 'carol' }, as('carol'));
  await tracker.close(ids.T6, { evidence: 'Merged in commit 8c1d2e0; ranking tests pass' }, as('lead'));
  await tracker.close(ids.B2, { evidence: 'Fixed by invalidating the index on write (commit 51aa9f3)' }, as('lead'));
  await tracker.close(ids.D1, { evidence: 'Agreed in the payments review' }, as('lead'));
  return ids;
}

const step = (tool, need, args) => ({ tool, need, args: typeof args === 'function' ? args : () => args });

/** The 20 tasks. Tools: the standard profile (the one that has every tool they need). */
export const TOKEN_TASKS = [
  { name: 'orient in the project', steps: [step('pm_context', 'project overview', {})] },
  { name: 'find the next item', steps: [step('pm_next', 'what should I work on next', {})] },
  {
    name: 'claim the next item',
    steps: [
      step('pm_next', 'what should I work on next', {}),
      step('pm_claim', 'claim an item to start working on it', ({ last, memo }) => ((memo.claimed = last.item.id), { id: last.item.id })),
    ],
  },
  {
    name: "read an item's dependencies",
    steps: [step('pm_search', 'find an item by words', { query: '3-D Secure redirects' }), step('pm_deps', 'show what an item depends on and what blocks it', ({ last }) => ({ id: last.results[0].id }))],
  },
  {
    name: 'close with evidence',
    steps: [
      step('pm_get', 'read an item', ({ memo }) => ({ id: memo.claimed })),
      step('pm_close', 'close an item with evidence that the work is done', ({ last }) => ({ id: last.item.id, evidence: 'Merged in commit 4f2a9c1; the payment intent tests pass', expectedRevision: last.item.revision })),
    ],
  },
  {
    name: 'triage a new bug',
    steps: [
      step('pm_search', 'find an item by words', { query: 'export fails commas' }),
      step('pm_create', 'report a new bug', { title: 'CSV export fails for titles with commas', type: 'Issue', priority: 1, tags: ['bug', 'export'], body: 'Steps: export the backlog to CSV with an item titled "a, b". Expected: one row. Actual: the row splits in two.' }),
    ],
  },
  { name: 'record progress', steps: [step('pm_comment', 'add a progress comment to an item', ({ ids }) => ({ id: ids.T5, text: 'Comment indexing works for new items; the backfill of old comments is still to do.' }))] },
  {
    name: 'raise a priority',
    steps: [step('pm_get', 'read an item', ({ ids }) => ({ id: ids.B3 })), step('pm_update', "raise an item's priority and tag it", ({ last }) => ({ id: last.item.id, priority: 0, addTags: ['urgent'], expectedRevision: last.item.revision }))],
  },
  { name: 'see what blocks an item', steps: [step('pm_deps', 'what is blocking this item', ({ ids }) => ({ id: ids.T2 }))] },
  { name: 'link a blocker', steps: [step('pm_deps', 'mark an item as blocked by another item', ({ ids }) => ({ action: 'add', id: ids.T7, kind: 'blockedBy', target: ids.T5 }))] },
  { name: 'list my work in progress', steps: [step('pm_list', 'list my items in progress', { status: ['in_progress'], assignee: 'agent' })] },
  {
    name: 'pick up and hand back',
    steps: [
      step('pm_claim', 'claim an item to start working on it', ({ ids }) => ({ id: ids.B4 })),
      step('pm_release', 'give up my claim on an item', ({ ids }) => ({ id: ids.B4 })),
    ],
  },
  {
    name: 'reopen a regression',
    steps: [step('pm_search', 'find an item by words', { query: 'stale results after edit' }), step('pm_reopen', 'reopen a closed item that regressed', ({ last }) => ({ id: last.results[0].id, reason: 'Stale results are back after the cache change.' }))],
  },
  { name: "review an epic's tree", steps: [step('pm_graph', 'show the tree of an epic with its children', ({ ids }) => ({ id: ids.E1 }))] },
  { name: 'who changed an item', steps: [step('pm_history', 'who changed this item and when', ({ ids }) => ({ id: ids.T1 }))] },
  { name: 'list open bugs', steps: [step('pm_list', 'list open bugs', { type: ['Issue'] })] },
  { name: 'split off a subtask', steps: [step('pm_create', 'create a task under a feature', ({ ids }) => ({ title: 'Retry failed 3-D Secure callbacks', parent: ids.F1, priority: 2, acceptance: ['retries three times', 'logs each failure'] }))] },
  {
    name: 'cancel a duplicate',
    steps: [
      step('pm_search', 'find an item by words', { query: 'export cron' }),
      step('pm_close', 'cancel a duplicate item', ({ ids }) => ({ id: ids.C3, as: 'canceled', evidence: `Duplicate of ${ids.C2}` })),
    ],
  },
  {
    name: 'add an acceptance criterion',
    steps: [step('pm_get', 'read an item', ({ ids }) => ({ id: ids.T3 })), step('pm_update', 'add acceptance criteria to an item', ({ last }) => ({ id: last.item.id, addAcceptance: ['works with Safari redirects'], expectedRevision: last.item.revision }))],
  },
  {
    name: 'write a handoff note',
    steps: [
      step('pm_context', 'project overview', {}),
      step('pm_get', 'read an item', ({ ids }) => ({ id: ids.B1 })),
      step('pm_comment', 'add a note to an item', ({ ids }) => ({ id: ids.B1, text: 'Handoff: pricing is slow in the tax call; next step is batching the tax lookups.' })),
    ],
  },
];
