#!/usr/bin/env node
// Transpiles src/**/*.ts to dist/**/*.js with swc (fast, no type check: `npm run typecheck`
// does that). Used by `npm run build`, by `prepare` on install and by jest's global setup,
// so the real `pm` binaries always run the current sources.
import { readdirSync, mkdirSync, writeFileSync, readFileSync, rmSync, statSync } from 'node:fs';
import { join, dirname, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { transformSync } from '@swc/core';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const src = join(root, 'src');
const out = join(root, 'dist');
const options = JSON.parse(readFileSync(join(root, '.swcrc'), 'utf8'));
delete options.$schema;
options.sourceMaps = false;

function* walk(dir) {
  for (const entry of readdirSync(dir, { withFileTypes: true })) {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(path);
    else if (entry.name.endsWith('.ts') && !entry.name.endsWith('.d.ts')) yield path;
  }
}

export function build() {
  rmSync(out, { recursive: true, force: true });
  let count = 0;
  for (const file of walk(src)) {
    const target = join(out, relative(src, file)).replace(/\.ts$/, '.js');
    mkdirSync(dirname(target), { recursive: true });
    const { code } = transformSync(readFileSync(file, 'utf8'), { ...options, filename: file });
    writeFileSync(target, code);
    count++;
  }
  return count;
}

if (process.argv[1] && statSync(process.argv[1]).ino === statSync(fileURLToPath(import.meta.url)).ino) {
  const count = build();
  if (!process.argv.includes('--quiet')) console.log(`built ${count} files into dist/`);
}
