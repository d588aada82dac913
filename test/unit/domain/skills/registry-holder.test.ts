import { PmMcpSkillRegistryHolder, type PmMcpSkillRegistry } from '../../../../src/domain/skills/index.js';
import { load, names, newFs, PACKAGE_DIR, WORKSPACE_DIR, writeSkill } from '../../../support/skill-fixtures.js';

describe('PmMcpSkillRegistryHolder', () => {
  it('swaps in a new registry and reports whether anything served changed', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'a');
    const holder = await PmMcpSkillRegistryHolder.open(() => load(fs));
    const first = holder.current;
    const same = await holder.reload();
    expect(same).toMatchObject({ changed: false, previous: first });
    expect(holder.current).toBe(same.registry);
    writeSkill(fs, WORKSPACE_DIR, 'b');
    const changed = await holder.reload();
    expect(changed.changed).toBe(true);
    expect(names(holder.current)).toEqual(['a', 'b']);
  });

  it('lets a request that took the old registry finish against it, bytes and digests included', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'a', { 'x.md': 'old' });
    const holder = await PmMcpSkillRegistryHolder.open(() => load(fs));
    const inFlight = holder.current;
    const oldDigest = inFlight.get('skill://a/SKILL.md').skill.resources[1]!.digest;
    fs.writeBytes(`${PACKAGE_DIR}/a/x.md`, new TextEncoder().encode('new'));
    await holder.reload();
    expect(inFlight.read('skill://a/x.md').contents[0]).toMatchObject({ text: 'old' });
    expect(inFlight.get('skill://a/SKILL.md').skill.resources[1]!.digest).toBe(oldDigest);
    expect(holder.current.read('skill://a/x.md').contents[0]).toMatchObject({ text: 'new' });
    expect(holder.current.get('skill://a/SKILL.md').skill.resources[1]!.digest).not.toBe(oldDigest);
  });

  it('runs reloads one at a time, in the order asked', async () => {
    const fs = newFs();
    const order: string[] = [];
    let calls = 0;
    const releases: (() => void)[] = [];
    const loader = async (): Promise<PmMcpSkillRegistry> => {
      const n = ++calls;
      order.push(`start ${n}`);
      if (n > 1) await new Promise<void>((resolve) => releases.push(resolve));
      order.push(`end ${n}`);
      return load(fs);
    };
    const holder = await PmMcpSkillRegistryHolder.open(loader);
    const second = holder.reload();
    const third = holder.reload();
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['start 1', 'end 1', 'start 2']);
    releases.shift()!();
    await second;
    await new Promise((resolve) => setImmediate(resolve));
    expect(order).toEqual(['start 1', 'end 1', 'start 2', 'end 2', 'start 3']);
    releases.shift()!();
    await third;
    expect(order.at(-1)).toBe('end 3');
  });

  it('keeps the current registry when a load fails, and later reloads still run', async () => {
    const fs = newFs();
    writeSkill(fs, PACKAGE_DIR, 'a');
    let fail = false;
    const holder = await PmMcpSkillRegistryHolder.open(() => (fail ? Promise.reject(new Error('disk gone')) : load(fs)));
    const first = holder.current;
    fail = true;
    await expect(holder.reload()).rejects.toThrow('disk gone');
    expect(holder.current).toBe(first);
    fail = false;
    writeSkill(fs, PACKAGE_DIR, 'b');
    expect((await holder.reload()).changed).toBe(true);
  });
});
