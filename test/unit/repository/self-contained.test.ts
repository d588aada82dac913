/**
 * The repository is self-contained: a fresh clone has nothing beside it, so no file may point
 * at a sibling shared folder or at an absolute path of the machine it was written on. Design
 * decisions live in docs/decisions/, the official MCP schemas in test/fixtures/mcp-schema/.
 *
 * The files are the ones git would commit (`git ls-files --cached --others --exclude-standard`);
 * without git (an unpacked tarball) the tree is walked instead. The patterns are built at run
 * time so that this file does not match itself.
 */
import { execFileSync } from 'node:child_process';
import { lstatSync, readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const REPO_ROOT = fileURLToPath(new URL('../../../', import.meta.url));
/** Not part of the repository when walking without git (`.git` is a file in a worktree). */
const SKIPPED = new Set(['node_modules', 'dist', '.tools', '.git', 'coverage']);

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\/]/g, '\\$&');
/** The parent folder's `shared` as a whole path segment (a sibling file named command-inputs.js is not it). */
const SIBLING_SHARED = new RegExp(`${escape(['..', 'shared'].join('/'))}(?![\\w-])`);
/** An absolute path under the machine's work folder (not `src/work/…`, not `/workspace`). */
const ABSOLUTE_WORK = new RegExp(`(?<![\\w.~-])${escape(['', 'work', ''].join('/'))}`);

interface Finding {
  readonly file: string;
  readonly line: number;
  readonly text: string;
  readonly why: string;
}

/** Every line of `text` that refers outside the repository. */
function findOutsideReferences(file: string, text: string): Finding[] {
  const found: Finding[] = [];
  text.split('\n').forEach((line, index) => {
    const why = SIBLING_SHARED.test(line) ? 'refers to the sibling shared folder' : ABSOLUTE_WORK.test(line) ? 'names an absolute work path' : undefined;
    if (why) found.push({ file, line: index + 1, text: line.trim().slice(0, 160), why });
  });
  return found;
}

function gitFiles(): string[] | undefined {
  try {
    const out = execFileSync('git', ['ls-files', '--cached', '--others', '--exclude-standard', '-z'], { cwd: REPO_ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'], maxBuffer: 64 * 1024 * 1024 });
    return out.split('\0').filter(Boolean);
  } catch {
    return undefined;
  }
}

function walkFiles(dir = '', out: string[] = []): string[] {
  for (const entry of readdirSync(path.join(REPO_ROOT, dir), { withFileTypes: true })) {
    if (SKIPPED.has(entry.name)) continue;
    const relative = dir ? `${dir}/${entry.name}` : entry.name;
    if (entry.isDirectory()) {
      walkFiles(relative, out);
    } else if (entry.isFile()) {
      out.push(relative);
    }
  }
  return out;
}

/** The text of a regular file, or undefined for a missing, special or binary (NUL-containing) one. */
function readText(file: string): string | undefined {
  const full = path.join(REPO_ROOT, file);
  try {
    if (!lstatSync(full).isFile()) return undefined;
    const bytes = readFileSync(full);
    if (bytes.subarray(0, 8000).includes(0)) return undefined;
    return bytes.toString('utf8');
  } catch {
    return undefined; // listed by git but deleted in the work tree
  }
}

describe('the repository is self-contained', () => {
  const files = gitFiles() ?? walkFiles();

  test('the file list covers the repository', () => {
    expect(files).toEqual(expect.arrayContaining(['package.json', 'README.md', 'test/unit/repository/self-contained.test.ts', 'docs/decisions/README.md']));
    expect(files.some((file) => file.startsWith('node_modules/') || file.startsWith('dist/'))).toBe(false);
  });

  test('no text file refers to a sibling shared folder or an absolute work path', () => {
    const findings = files.flatMap((file) => {
      const text = readText(file);
      return text === undefined ? [] : findOutsideReferences(file, text);
    });
    expect(findings.map((f) => `${f.file}:${f.line}: ${f.why}: ${f.text}`)).toEqual([]);
  });

  test('negative control: the matcher flags sample lines and passes look-alikes', () => {
    const sibling = ['..', 'shared'].join('/');
    const work = ['', 'work', ''].join('/');
    const sample = ['first line', `see ${sibling}/seeds/004.txt`, `open("${work}main/x")`, `(${sibling})`].join('\n');
    expect(findOutsideReferences('docs/sample.md', sample)).toEqual([
      expect.objectContaining({ file: 'docs/sample.md', line: 2, why: 'refers to the sibling shared folder' }),
      expect.objectContaining({ file: 'docs/sample.md', line: 3, why: 'names an absolute work path' }),
      expect.objectContaining({ file: 'docs/sample.md', line: 4, why: 'refers to the sibling shared folder' }),
    ]);
    const lookAlikes = [`import '${sibling}-inputs.js'`, `'${work.slice(0, -1)}space/.agents/pm'`, `src${work}x.ts`, `./work/x`, `~${work}x`].join('\n');
    expect(findOutsideReferences('src/x.ts', lookAlikes)).toEqual([]);
  });
});
