// Child process of the skills benchmark (run with --expose-gc): loads the skills registry from
// the package directory and/or workspace root given as JSON in argv[2], `samples` times, each
// load from a collected heap with the previous registry dropped, over the real node file system
// (counting body reads). Prints one JSON line: load times, what was served and rejected, body
// reads and bytes per load, RSS before the first load and at peak, and the heap and
// ArrayBuffer memory the last registry retains.
import { performance } from 'node:perf_hooks';
import { NodeFileSystem } from '../../dist/adapters/node/node-file-system.js';
import { NodeHasher } from '../../dist/adapters/node/node-hasher.js';
import { PmMcpSkillRegistry } from '../../dist/domain/skills/index.js';

const config = JSON.parse(process.argv[2]);
const MB = 1024 * 1024;

class CountingFileSystem extends NodeFileSystem {
  reads = 0;
  bytes = 0;
  async readBytes(path, expect) {
    const read = await super.readBytes(path, expect);
    this.reads++;
    if (read.status === 'read') this.bytes += read.bytes.length;
    return read;
  }
}

const fileSystem = new CountingFileSystem();
const options = { fileSystem, hasher: new NodeHasher(), package: { name: '@unbrained/pm-cli', version: 'bench' }, packageSkillsDir: config.packageSkillsDir, workspaceRoot: config.workspaceRoot };
globalThis.gc();
const before = process.memoryUsage();
const samples = [];
let registry;
for (let i = 0; i < config.samples; i++) {
  registry = undefined;
  globalThis.gc();
  fileSystem.reads = 0;
  fileSystem.bytes = 0;
  const start = performance.now();
  registry = await PmMcpSkillRegistry.load(options);
  samples.push(performance.now() - start);
}
// Twice, with a turn of the event loop between: ArrayBuffer backing stores are freed after the
// collection that finds them dead.
globalThis.gc();
await new Promise((resolve) => setImmediate(resolve));
globalThis.gc();
const after = process.memoryUsage();
const files = registry.entries().reduce((sum, entry) => sum + entry.resources.length, 0);
console.log(JSON.stringify({
  samplesMs: samples,
  skills: registry.size,
  files,
  rejected: registry.diagnostics.map((d) => `${d.origin}:${d.name ?? '*'}:${d.rule}`),
  bodyReadsPerLoad: fileSystem.reads,
  bodyBytesPerLoad: fileSystem.bytes,
  rssBeforeMb: before.rss / MB,
  peakRssMb: process.resourceUsage().maxRSS / 1024,
  retainedHeapMb: (after.heapUsed - before.heapUsed) / MB,
  retainedArrayBuffersMb: (after.arrayBuffers - before.arrayBuffers) / MB,
}));
