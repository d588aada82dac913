// Child process of the benchmark: opens the tracker at argv[2] through the real composition
// and times the first query (the cost a fresh `pm list` pays), then one warm query. Like a
// one-shot CLI call it exits without dispose() (no snapshot rewrite on the way out).
// Prints one JSON line: { openMs, firstQueryMs, secondQueryMs, rssMb }.
import { performance } from 'node:perf_hooks';
import { buildContainer } from '../../dist/composition/container.js';
import { IDS } from '../../dist/composition/service-ids.js';
import { settingsFromEnv } from '../../dist/composition/settings.js';

const root = process.argv[2];
const t0 = performance.now();
const container = await buildContainer(settingsFromEnv({ PM_ROOT: root, PM_ACTOR: 'bench' }, root, 'bench'));
const tracker = await container.getAsync(IDS.Tracker);
const t1 = performance.now();
await tracker.list({ status: ['open'], limit: 50 });
const t2 = performance.now();
await tracker.list({ status: ['open'], limit: 50 });
const t3 = performance.now();
console.log(JSON.stringify({ openMs: t1 - t0, firstQueryMs: t2 - t1, secondQueryMs: t3 - t2, rssMb: process.resourceUsage().maxRSS / 1024 }));
