// Test worker for the index freshness test: `node index-writer.mjs <root> <name> <count>`.
// Waits for "go" on stdin, then creates <count> items tagged <name> through the real
// composition, printing "done <n>" after each write has returned.
import { openTracker, waitForGo } from './open-tracker.mjs';

const [root, name, count] = process.argv.slice(2);
const tracker = await openTracker(root, name);
process.stdout.write('ready\n');
await waitForGo();
for (let n = 1; n <= Number(count); n++) {
  await tracker.create({ title: `${name} item ${n}`, tags: [name] });
  process.stdout.write(`done ${n}\n`);
}
await tracker.dispose();
process.exit(0);
