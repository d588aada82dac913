#!/usr/bin/env node
// `npm run bench:skills`: what building the skills registry costs, on the real node file
// system in a temp dir. Each scenario runs in a fresh child process (bench/lib/skills-load.mjs)
// so its peak RSS is its own:
//   package    a package-like tree: 4 skills, SKILL.md plus references and templates (~60 KB);
//   limits     a workspace at the limits: 100 skill directories of 512 files each (~30.7 MB,
//              just under the 32 MiB origin budget), files spread over 8 subdirectories;
//   over 1x    an over-budget workspace: 100 skills x 512 files of 1 KiB (50 MiB > 32 MiB);
//   over 10x   the same tree with bodies 10x larger (10 KiB files, 500 MiB).
// The two over-budget workspaces are refused from metadata (origin-bytes) before any body is
// read, so their cost must not depend on the size of the bodies they refused: the report
// prints the 10x/1x ratio of time and memory. Load times are the median and maximum of the
// samples, each from a collected heap; the page cache is warm (the trees were just written).
// Writes JSON to bench/results/. Options: --samples=N (default 5; the package tree runs 10x).
import { spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { fileURLToPath } from 'node:url';
import { prng, skewed, vocabulary } from './lib/dataset.mjs';
import { machineInfo, saveBenchResult } from './lib/results.mjs';
import { fmt, round, summarize, table } from './lib/stats.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const arg = (name) => process.argv.find((a) => a.startsWith(`--${name}=`))?.split('=')[1];
const SAMPLES = Number(arg('samples') ?? 5);
const MB = 1024 * 1024;

const dir = mkdtempSync(join(tmpdir(), 'pm-bench-skills-'));
const cleanup = () => rmSync(dir, { recursive: true, force: true });
process.on('SIGINT', () => { cleanup(); process.exit(130); });

const random = prng(2640);
const words = vocabulary(random);
const prose = (bytes) => {
  let out = '';
  while (out.length < bytes) out += `${skewed(random, words)}${random() < 0.08 ? '.\n' : ' '}`;
  return out.slice(0, bytes);
};

function write(path, content) {
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, content);
}

const skillMd = (name, body) => `---\nname: ${name}\ndescription: Use ${name} when working with pm.\nlicense: MIT\nmetadata:\n  version: "1"\n---\n# ${name}\n\n${body}`;

/** The package-like tree; returns its total bytes and file count. */
function packageTree(root) {
  let bytes = 0;
  let files = 0;
  for (const name of ['pm-review', 'pm-sdk', 'pm-triage', 'pm-workflow']) {
    const content = { 'SKILL.md': skillMd(name, prose(3000)), 'references/cli.md': prose(8000), 'references/concepts.md': prose(5000), 'references/errors.md': prose(2000), 'templates/item.md': prose(1000) };
    for (const [path, text] of Object.entries(content)) {
      write(join(root, name, path), text);
      bytes += Buffer.byteLength(text);
      files++;
    }
  }
  return { bytes, files };
}

/** 100 skills of one SKILL.md plus 511 files of `fileBytes` each, over 8 subdirectories. */
function workspaceTree(repo, fileBytes) {
  const root = join(repo, '.agents', 'skills');
  const body = Buffer.from(prose(fileBytes));
  let bytes = 0;
  for (let s = 0; s < 100; s++) {
    const name = `skill-${String(s).padStart(3, '0')}`;
    const md = skillMd(name, prose(200));
    write(join(root, name, 'SKILL.md'), md);
    bytes += Buffer.byteLength(md);
    for (let f = 0; f < 511; f++) {
      write(join(root, name, 'refs', `r${f % 8}`, `f${String(f).padStart(3, '0')}.md`), body);
      bytes += body.length;
    }
  }
  return { bytes, files: 100 * 512 };
}

function run(name, config, samples) {
  const child = spawnSync(process.execPath, ['--expose-gc', join(here, 'lib', 'skills-load.mjs'), JSON.stringify({ ...config, samples })], { encoding: 'utf8', maxBuffer: 16 * MB });
  if (child.status !== 0) throw new Error(`${name}: child failed: ${child.stderr}`);
  const result = JSON.parse(child.stdout.trim().split('\n').pop());
  return { ...result, load: summarize(result.samplesMs), samplesMs: result.samplesMs.map(round) };
}

const load = () => round(loadavg()[0]);
const benchStarted = performance.now();
try {
  process.stdout.write('writing the trees… ');
  const started = performance.now();
  const trees = {
    package: packageTree(join(dir, 'package', 'skills')),
    limits: workspaceTree(join(dir, 'limits'), 600),
    over1x: workspaceTree(join(dir, 'over-1x'), 1024),
    over10x: workspaceTree(join(dir, 'over-10x'), 10 * 1024),
  };
  console.log(`done in ${((performance.now() - started) / 1000).toFixed(1)} s`);
  const loadAtStart = load();
  const scenarios = [
    ['package', 'package tree (4 skills)', { packageSkillsDir: join(dir, 'package', 'skills') }, SAMPLES * 10],
    ['limits', 'workspace at the limits', { workspaceRoot: join(dir, 'limits') }, SAMPLES],
    ['over1x', 'over budget, 1 KiB files', { workspaceRoot: join(dir, 'over-1x') }, SAMPLES],
    ['over10x', 'over budget, 10 KiB files', { workspaceRoot: join(dir, 'over-10x') }, SAMPLES],
  ];
  const results = {};
  for (const [key, label, config, samples] of scenarios) {
    process.stdout.write(`${label}: `);
    results[key] = { label, tree: trees[key], ...run(key, config, samples) };
    console.log(`median ${fmt(results[key].load.median)} ms`);
  }
  const loadAtEnd = load();
  const header = ['scenario', 'on disk MB', 'files', 'served', 'bodies read', 'MB read', 'load med ms', 'load max ms', 'RSS before MB', 'peak RSS MB', 'retained MB'];
  const rows = Object.values(results).map((r) => [
    r.label, fmt(r.tree.bytes / MB), r.tree.files, `${r.skills} skills / ${r.files} files`, r.bodyReadsPerLoad, fmt(r.bodyBytesPerLoad / MB),
    fmt(r.load.median), fmt(r.load.p99), fmt(r.rssBeforeMb), fmt(r.peakRssMb), fmt(r.retainedHeapMb + r.retainedArrayBuffersMb),
  ]);
  console.log(`\n${cpus().length} CPUs, node ${process.version}, load average ${loadAtStart} at start, ${loadAtEnd} at end\n`);
  console.log(table(header, rows));
  for (const key of ['over1x', 'over10x']) console.log(`${results[key].label}: rejected ${results[key].rejected.join(', ')}`);
  const ratio = (pick) => (pick(results.over10x) / pick(results.over1x)).toFixed(2);
  const bodyRatio = (results.over10x.tree.bytes / results.over1x.tree.bytes).toFixed(1);
  console.log(`\nrefusing 10x larger bodies (${bodyRatio}x the bytes on disk): time ${ratio((r) => r.load.median)}x, peak RSS ${ratio((r) => r.peakRssMb)}x, bodies read ${results.over1x.bodyReadsPerLoad} and ${results.over10x.bodyReadsPerLoad}`);
  if (results.over1x.bodyReadsPerLoad + results.over10x.bodyReadsPerLoad !== 0) {
    console.log('INVALID: an over-budget workspace had bodies read');
    process.exitCode = 1;
  }
  const machine = machineInfo({ start: loadAtStart, end: loadAtEnd });
  saveBenchResult('skills', { date: new Date().toISOString(), machine, samples: SAMPLES, results }, benchStarted);
} finally {
  cleanup();
}
