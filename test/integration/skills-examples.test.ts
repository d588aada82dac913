/**
 * Every TypeScript example in the package's skills runs, as a host would run it: the code is
 * transpiled as written, imports `@unbrained/pm-cli/sdk` through the package's own `exports`
 * (the built dist/, as installed), and must exit 0. The examples throw when their outcome is not
 * the one they describe, so an example that drifted from the SDK fails here.
 */
import { spawn } from 'node:child_process';
import { mkdir, readFile, symlink, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { markdownCode } from '../support/markdown-code.js';
import { skillMarkdownFiles } from '../support/skill-accuracy.js';
import { useTempDir } from '../support/temp-dir.js';

const REPO = fileURLToPath(new URL('../../', import.meta.url));
const SKILLS = join(REPO, 'skills');

interface Example {
  readonly name: string;
  readonly code: string;
}

async function examples(): Promise<Example[]> {
  const found: Example[] = [];
  for (const file of skillMarkdownFiles(SKILLS)) {
    const { blocks } = markdownCode(await readFile(join(SKILLS, file), 'utf8'));
    for (const block of blocks) if (block.lang === 'ts' || block.lang === 'typescript') found.push({ name: `${file}:${block.line}`, code: block.text });
  }
  return found;
}

function runNode(cwd: string, file: string): Promise<{ code: number | null; stderr: string }> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [file], { cwd, stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    child.on('error', reject);
    child.on('close', (code) => resolve({ code, stderr }));
  });
}

/** Type errors of `files` (named `names` in the messages), with the SDK import mapped to its sources. */
function typeErrors(files: readonly string[], names: readonly string[]): string[] {
  const program = ts.createProgram(files, {
    target: ts.ScriptTarget.ES2022,
    lib: ['lib.es2023.d.ts'],
    module: ts.ModuleKind.ESNext,
    moduleResolution: ts.ModuleResolutionKind.Bundler,
    strict: true,
    noUncheckedIndexedAccess: true,
    skipLibCheck: true,
    noEmit: true,
    types: ['node'],
    typeRoots: [join(REPO, 'node_modules/@types')],
    paths: { '@unbrained/pm-cli/sdk': [join(REPO, 'src/sdk/index.ts')] },
  });
  return files.flatMap((file, index) =>
    ts.getPreEmitDiagnostics(program, program.getSourceFile(file)).map((d) => {
      const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
      return `${names[index]} (+${line}): ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`;
    }),
  );
}

describe('the TypeScript examples of the skills', () => {
  const dir = useTempDir('pm-skill-examples-');

  it('are there: one per SDK page that shows code', async () => {
    const names = (await examples()).map((e) => e.name.split(':')[0]);
    expect(new Set(names)).toEqual(new Set(['pm-sdk/SKILL.md', 'pm-sdk/references/custom-hosts.md', 'pm-sdk/references/embedding.md', 'pm-sdk/references/extensions.md', 'pm-sdk/references/tracker-api.md']));
  });

  it('run against the built SDK, resolved through the package exports', async () => {
    const root = dir();
    await mkdir(join(root, 'node_modules/@unbrained'), { recursive: true });
    await symlink(REPO, join(root, 'node_modules/@unbrained/pm-cli'), 'dir');
    await symlink(join(REPO, 'node_modules/zod'), join(root, 'node_modules/zod'), 'dir');
    await writeFile(join(root, 'package.json'), '{ "type": "module" }\n');
    const failures: string[] = [];
    for (const [index, example] of (await examples()).entries()) {
      const js = ts.transpileModule(example.code, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText;
      const file = join(root, `example-${index}.mjs`);
      await writeFile(file, js);
      const run = await runNode(root, file);
      if (run.code !== 0 || run.stderr !== '') failures.push(`${example.name}: exit ${run.code}\n${run.stderr}`);
    }
    expect(failures).toEqual([]);
  });

  it('type-check against the SDK sources under the repository\'s strict settings', async () => {
    const root = dir();
    await mkdir(join(root, 'node_modules'), { recursive: true });
    await symlink(join(REPO, 'node_modules/zod'), join(root, 'node_modules/zod'), 'dir');
    const all = await examples();
    const files = all.map((_, index) => join(root, `example-${index}.ts`));
    await Promise.all(all.map((example, index) => writeFile(files[index]!, `${example.code}\nexport {};\n`)));
    // Negative control, in the same program: an argument the API does not take is a type error.
    const wrong = join(root, 'wrong.ts');
    await writeFile(wrong, `${all.find((e) => e.name.startsWith('pm-sdk/SKILL.md'))!.code.replace('{ leaseMinutes: 30 }', '{ leaseMinutez: 30 }')}\nexport {};\n`);
    const problems = typeErrors([...files, wrong], [...all.map((e) => e.name), 'wrong']);
    expect(problems.filter((p) => !p.startsWith('wrong '))).toEqual([]);
    expect(problems.filter((p) => p.startsWith('wrong ')).join('\n')).toMatch(/leaseMinutez/);
  });

  it('fail when an example does not get what it expects (negative control)', async () => {
    const root = dir();
    await mkdir(join(root, 'node_modules/@unbrained'), { recursive: true });
    await symlink(REPO, join(root, 'node_modules/@unbrained/pm-cli'), 'dir');
    await writeFile(join(root, 'package.json'), '{ "type": "module" }\n');
    const embedding = (await examples()).find((e) => e.name.startsWith('pm-sdk/references/embedding.md'))!;
    const drifted = embedding.code.replace("name: 'pm_get', arguments: { id: item.id }", "name: 'pm_get', arguments: { id: 'pm-zzzzzz' }");
    expect(drifted).not.toBe(embedding.code);
    await writeFile(join(root, 'drifted.mjs'), ts.transpileModule(drifted, { compilerOptions: { module: ts.ModuleKind.ESNext, target: ts.ScriptTarget.ES2022 } }).outputText);
    const run = await runNode(root, join(root, 'drifted.mjs'));
    expect(run.code).not.toBe(0);
    expect(run.stderr).toMatch(/TypeError|unexpected answer/);
  });
});
