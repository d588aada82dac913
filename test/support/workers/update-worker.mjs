// Test worker for the concurrency test: `node update-worker.mjs <root> <itemId> <name> <count>`.
// After "go" on stdin it performs <count> updates of one item, each adding the tag
// `<name>-<i>` with expectedRevision set to the revision it just read, and re-reads and
// retries whenever the revision went stale. Prints one JSON line: the revision each update
// produced and how many retries it needed.
import { openTracker, waitForGo } from './open-tracker.mjs';

const [root, itemId, name, countText] = process.argv.slice(2);
const count = Number(countText);
const tracker = await openTracker(root, name);
process.stdout.write('ready\n');
await waitForGo();
const revisions = [];
let retries = 0;
for (let i = 0; i < count; i++) {
  for (;;) {
    const current = await tracker.get(itemId);
    try {
      const { receipt } = await tracker.update(itemId, { addTags: [`${name}-${i}`] }, { expectedRevision: current.revision });
      revisions.push(receipt.revisionAfter);
      break;
    } catch (error) {
      if (error?.reason !== 'stale_revision') throw error;
      retries++;
    }
  }
}
process.stdout.write(`${JSON.stringify({ name, revisions, retries })}\n`);
process.exit(0);
