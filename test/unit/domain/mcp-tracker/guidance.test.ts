import { MemoryFileSystem } from '../../../../src/adapters/memory/memory-file-system.js';
import { PM_BUILTIN_GUIDANCE, PM_MAX_GUIDANCE_LENGTH, readPmGuidance } from '../../../../src/domain/mcp-tracker/guidance.js';

describe('readPmGuidance', () => {
  it('serves AGENTS.md, else CLAUDE.md, else the built-in text', async () => {
    const fs = new MemoryFileSystem();
    expect(await readPmGuidance(fs, '/p')).toEqual({ source: 'builtin', text: PM_BUILTIN_GUIDANCE });
    await fs.writeAtomic('/p/CLAUDE.md', '# claude');
    expect(await readPmGuidance(fs, '/p')).toEqual({ source: 'CLAUDE.md', text: '# claude' });
    await fs.writeAtomic('/p/AGENTS.md', '# agents');
    expect(await readPmGuidance(fs, '/p')).toEqual({ source: 'AGENTS.md', text: '# agents' });
  });

  it('never follows a linked guidance file: the next one is served, saying which file was not read and why', async () => {
    const fs = new MemoryFileSystem();
    await fs.writeAtomic('/secret/id_rsa', 'PRIVATE KEY');
    fs.symlink('/secret/id_rsa', '/p/AGENTS.md');
    await fs.writeAtomic('/p/CLAUDE.md', '# claude');
    const served = await readPmGuidance(fs, '/p');
    expect(served.source).toBe('CLAUDE.md');
    expect(served.text).toBe('# claude\n\n[pm did not read AGENTS.md: is a symbolic link, not a regular file; pm does not read it]\n');
    fs.makeSpecial('/p/CLAUDE.md');
    const builtin = await readPmGuidance(fs, '/p');
    expect(builtin.source).toBe('builtin');
    expect(builtin.text).toContain('[pm did not read CLAUDE.md: is a FIFO, not a regular file; pm does not read it]');
    expect(builtin.text).not.toContain('PRIVATE KEY');
  });

  it('cuts a long file at the character limit', async () => {
    const fs = new MemoryFileSystem();
    await fs.writeAtomic('/p/AGENTS.md', 'x'.repeat(PM_MAX_GUIDANCE_LENGTH + 10));
    const served = await readPmGuidance(fs, '/p');
    expect(served.text.startsWith('x'.repeat(PM_MAX_GUIDANCE_LENGTH))).toBe(true);
    expect(served.text).toContain(`[AGENTS.md continues; cut at ${PM_MAX_GUIDANCE_LENGTH} characters]`);
  });
});
