import { PmMcpInvalidParamsError } from '../../../../src/domain/errors/index.js';
import { PmMcpSkillRegistryHolder, type PmMcpSkillRegistry, type PmSkillPageParams } from '../../../../src/domain/skills/index.js';
import { load, newFs, PACKAGE_DIR, WORKSPACE_DIR, writeSkill } from '../../../support/skill-fixtures.js';

/** Pages a list to its end, checking every page for the pagination rules. */
function pageAll<T>(fetch: (params: PmSkillPageParams) => { items: readonly T[]; nextCursor?: string }): { items: T[]; pages: number } {
  const items: T[] = [];
  const seen = new Set<string>();
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = fetch(cursor === undefined ? {} : { cursor });
    pages++;
    items.push(...page.items);
    expect('nextCursor' in page && page.nextCursor === undefined).toBe(false);
    if (page.nextCursor !== undefined) {
      expect(page.nextCursor).not.toBe('');
      expect(seen.has(page.nextCursor)).toBe(false);
      seen.add(page.nextCursor);
    }
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages < 100);
  return { items, pages };
}

async function many(count: number): Promise<{ registry: PmMcpSkillRegistry; fs: ReturnType<typeof newFs> }> {
  const fs = newFs();
  // Written out of order: the listing must not depend on the order the file system returns.
  for (let i = count - 1; i >= 0; i--) writeSkill(fs, i % 2 ? PACKAGE_DIR : WORKSPACE_DIR, `skill-${String(i).padStart(3, '0')}`);
  return { registry: await load(fs, { pageSizes: { skills: 4, directory: 3, resources: 5 } }), fs };
}

describe('PmMcpSkillRegistry ordering and pagination', () => {
  it('lists skills by name across both origins, each exactly once, with no empty or repeated cursor', async () => {
    const { registry } = await many(10);
    const { items, pages } = pageAll((p) => {
      const body = registry.list(p);
      return { items: body.skills, ...(body.nextCursor === undefined ? {} : { nextCursor: body.nextCursor }) };
    });
    expect(pages).toBe(3);
    expect(items.map((e) => e.frontmatter.name)).toEqual(Array.from({ length: 10 }, (_, i) => `skill-${String(i).padStart(3, '0')}`));
  });

  it('omits nextCursor on the last page and when everything fits on one page', async () => {
    const { registry } = await many(3);
    expect(registry.list()).not.toHaveProperty('nextCursor');
    expect(registry.list({ limit: 2 })).toHaveProperty('nextCursor');
    const last = registry.list({ limit: 2, cursor: registry.list({ limit: 2 }).nextCursor! });
    expect(last.skills).toHaveLength(1);
    expect(last).not.toHaveProperty('nextCursor');
    const empty = await load(newFs());
    expect(empty.list()).toEqual({ skills: [] });
  });

  it('honours a caller page size and refuses a bad one', async () => {
    const { registry } = await many(5);
    expect(registry.list({ limit: 1 }).skills).toHaveLength(1);
    for (const limit of [0, -1, 1.5, Number.NaN]) expect(() => registry.list({ limit })).toThrow(PmMcpInvalidParamsError);
  });

  it('pages a directory read and the resources/list part the same way', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'wide', Object.fromEntries(Array.from({ length: 8 }, (_, i) => [`f${i}.md`, `${i}`])));
    const registry = await load(fs, { pageSizes: { directory: 3 } });
    const dir = pageAll((p) => {
      const body = registry.readDirectory('skill://wide', p);
      return { items: body.resources, ...(body.nextCursor === undefined ? {} : { nextCursor: body.nextCursor }) };
    });
    expect(dir.pages).toBe(3);
    expect(dir.items.map((r) => r.name)).toEqual(['SKILL.md', 'f0.md', 'f1.md', 'f2.md', 'f3.md', 'f4.md', 'f5.md', 'f6.md', 'f7.md']);
    const { registry: big } = await many(12);
    const resources = pageAll((p) => {
      const body = big.listResources(p);
      return { items: body.resources, ...(body.nextCursor === undefined ? {} : { nextCursor: body.nextCursor }) };
    });
    expect(resources.pages).toBe(3);
    expect(resources.items).toEqual(big.resources());
  });

  it('refuses a cursor of one list on another (skills/list vs a directory, one directory vs another)', async () => {
    const fs = newFs();
    for (const name of ['a', 'b']) writeSkill(fs, PACKAGE_DIR, name, { 'x.md': 'x', 'y.md': 'y' });
    writeSkill(fs, PACKAGE_DIR, 'c');
    const registry = await load(fs, { pageSizes: { skills: 1, directory: 1 } });
    const listCursor = registry.list().nextCursor!;
    const dirCursor = registry.readDirectory('skill://a').nextCursor!;
    expect(() => registry.readDirectory('skill://a', { cursor: listCursor })).toThrow(/different list/);
    expect(() => registry.readDirectory('skill://b', { cursor: dirCursor })).toThrow(/different list/);
    expect(() => registry.list({ cursor: dirCursor })).toThrow(/different list/);
    expect(() => registry.list({ cursor: '' })).toThrow(PmMcpInvalidParamsError);
    expect(() => registry.list({ cursor: 'garbage' })).toThrow(PmMcpInvalidParamsError);
  });

  it('refuses a cursor from before a reload as stale (-32602), and the new registry has a new digest', async () => {
    const fs = newFs();
    for (const name of ['a', 'b', 'c']) writeSkill(fs, PACKAGE_DIR, name);
    const options = { pageSizes: { skills: 2 } };
    const holder = await PmMcpSkillRegistryHolder.open(() => load(fs, options));
    const before = holder.current;
    const cursor = before.list().nextCursor!;
    writeSkill(fs, WORKSPACE_DIR, 'aa');
    const reload = await holder.reload();
    expect(reload.changed).toBe(true);
    expect(reload.registry.digest).not.toBe(before.digest);
    let refusal: unknown;
    try {
      holder.current.list({ cursor });
    } catch (error) {
      refusal = error;
    }
    expect(refusal).toBeInstanceOf(PmMcpInvalidParamsError);
    expect((refusal as PmMcpInvalidParamsError).toJsonRpcError()).toEqual({ code: -32602, message: expect.stringMatching(/^Stale cursor/), data: { cursor } });
    // The registry the cursor came from still pages it, unchanged.
    expect(before.list({ cursor }).skills.map((e) => e.frontmatter.name)).toEqual(['c']);
  });

  it('keeps the digest when nothing served changed, and changes it for any byte', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'a', { 'x.md': 'x' });
    const first = await load(fs);
    expect((await load(fs)).digest).toBe(first.digest);
    fs.writeBytes(`${PACKAGE_DIR}/a/x.md`, new TextEncoder().encode('y'));
    expect((await load(fs)).digest).not.toBe(first.digest);
    expect(first.digest).toMatch(/^sha256:[0-9a-f]{64}$/);
  });
});
