// Test worker: starts a first build of the SQLite index at argv[2] in its own process (it holds
// the build lock, as a process reading every item file does), says "building" and stays mid-build
// until it is killed or reads "abort" on stdin (then drops the build, says "aborted" and exits).
import { SqliteItemIndex } from '../../../dist/adapters/node/sqlite-item-index.js';

const index = new SqliteItemIndex(process.argv[2]);
index.open();
const build = index.startBuild();
if (typeof build === 'string') {
  process.stdout.write(`refused: ${build}\n`);
  process.exit(1);
}
process.stdout.write('building\n');
process.stdin.setEncoding('utf8');
process.stdin.on('data', (chunk) => {
  if (!chunk.includes('abort')) return;
  build.abort();
  index.close();
  process.stdout.write('aborted\n');
  process.exit(0);
});
