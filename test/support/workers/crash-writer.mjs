// Test worker for the crash test: `node crash-writer.mjs <root>`. Mutates the tracker in a
// tight loop (creates, updates, comments, closes, deletes of its own items) until it is
// killed, printing "done <n>" after each mutation so the parent can kill it mid-stream.
import { openTracker } from './open-tracker.mjs';

const root = process.argv[2];
const tracker = await openTracker(root, `writer-${process.pid}`);
const known = (await tracker.list({ all: true, limit: 500 })).items.filter((i) => i.status !== 'closed').map((i) => i.id);
const pick = () => known[Math.floor(Math.random() * known.length)];
process.stdout.write('ready\n');
for (let n = 1; ; n++) {
  const roll = Math.random();
  if (known.length < 5 || roll < 0.25) {
    const { item } = await tracker.create({ title: `crash item ${process.pid}-${n}`, body: `written by ${process.pid}\n\n${'lorem ipsum '.repeat(1 + (n % 40))}`, tags: [`w${n % 7}`] });
    known.push(item.id);
  } else if (roll < 0.7) {
    await tracker.update(pick(), { title: `updated ${process.pid}-${n}`, addTags: [`t${n % 11}`], priority: n % 5 });
  } else if (roll < 0.85) {
    await tracker.comment(pick(), `comment ${n} from ${process.pid} ✓`);
  } else if (roll < 0.93) {
    const id = known.splice(Math.floor(Math.random() * known.length), 1)[0];
    await tracker.close(id, { evidence: `closed by ${process.pid}` });
  } else {
    const id = known.splice(Math.floor(Math.random() * known.length), 1)[0];
    await tracker.delete(id, { consent: () => true });
  }
  process.stdout.write(`done ${n}\n`);
}
