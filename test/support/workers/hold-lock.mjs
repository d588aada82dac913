// Test worker: takes a FileLocker lock (argv[2]) in its own process, says "locked" and holds
// it until it is killed or reads "release" on stdin (then says "released" and exits).
import { FileLocker } from '../../../dist/adapters/node/file-locker.js';

const release = await new FileLocker().acquire(process.argv[2], { timeoutMs: 10_000 });
process.stdout.write('locked\n');
process.stdin.setEncoding('utf8');
process.stdin.on('data', async (chunk) => {
  if (!chunk.includes('release')) return;
  await release();
  process.stdout.write('released\n');
  process.exit(0);
});
