// Test worker for the group-commit tests: `node batch-writer.mjs <root> <name> <ids,comma,separated> <writes|forever>`.
// Keeps 16 comment calls in flight at once (so they queue and share batches), each on the next
// id in turn, and prints "ack <id> <text>" when a call is answered; "finished" after <writes>
// answered calls. Waits for "go" on stdin before it starts writing.
import { openTracker, waitForGo } from './open-tracker.mjs';

const [root, name, idList, limit] = process.argv.slice(2);
const ids = idList.split(',');
const total = limit === 'forever' ? Infinity : Number(limit);
const tracker = await openTracker(root, name);
process.stdout.write('ready\n');
await waitForGo();
let next = 0;
let answered = 0;
async function caller() {
  while (next < total) {
    const n = next++;
    const id = ids[n % ids.length];
    const text = `${name} comment ${n}`;
    await tracker.comment(id, text);
    answered++;
    process.stdout.write(`ack ${id} ${text}\n`);
  }
}
await Promise.all(Array.from({ length: 16 }, caller));
process.stdout.write(`finished ${answered}\n`);
await tracker.dispose();
process.exit(0);
