import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildContainer } from './dist/composition/container.js';
import { IDS } from './dist/composition/service-ids.js';
import { settingsFromEnv } from './dist/composition/settings.js';
import { seedBenchTracker } from './bench/lib/seed.mjs';
const dir = mkdtempSync(join(tmpdir(), 'nextprof-'));
const root = join(dir, '.agents', 'pm');
await seedBenchTracker(root, Number(process.env.N ?? 100000));
const container = await buildContainer(settingsFromEnv({ PM_ROOT: root, PM_ACTOR: 'bench' }, dir, 'bench'), 'node', { index: { follow: 'watch' } });
const tracker = await container.getAsync(IDS.Tracker);
await tracker.list({ status: ['open'], limit: 50 });
for (const [name, q] of [['plain', {}], ['assignee', { assignee: 'alice' }], ['type', { types: ['Task'] }]]) {
  for (let i = 0; i < 3; i++) await tracker.next(q);
  const t = performance.now(); for (let i = 0; i < 10; i++) await tracker.next(q); console.log(name, ((performance.now() - t) / 10).toFixed(1), 'ms');
}
process.exit(0);
