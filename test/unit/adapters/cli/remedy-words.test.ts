import type { PmError } from '../../../../src/domain/errors/index.js';
import { cliMessage } from '../../../../src/adapters/cli/remedy-words.js';
import { memoryTracker } from '../../../support/memory-tracker.js';

const refusal = (promise: Promise<unknown>) => promise.then(() => { throw new Error('expected a refusal'); }, (e: unknown) => e as PmError);

describe('refusals in CLI words', () => {
  it('names --force where the domain names force: true', async () => {
    const { tracker } = await memoryTracker();
    const { item } = await tracker.create({ title: 'x' });
    await tracker.claim(item.id);
    const claim = await refusal(tracker.claim(item.id, {}, { actor: 'bob' }));
    expect(claim.message).toContain('ask them to release it, or pass force: true');
    expect(cliMessage(claim)).toMatch(/ask them to release it, or pass --force$/);
    const release = await refusal(tracker.release(item.id, {}, { actor: 'bob' }));
    expect(cliMessage(release)).toBe(`${item.id} is claimed by alice, not bob; pass --force to release somebody else's claim`);
  });

  it('names --strict and config.yaml for a strict refusal, and --yes for consent', async () => {
    const { tracker } = await memoryTracker();
    const a = (await tracker.create({ title: 'a' })).item.id;
    const c = (await tracker.create({ title: 'c', blockedBy: [a] })).item.id;
    const strict = await refusal(tracker.claim(c, {}, { strict: true }));
    expect(cliMessage(strict)).toBe(`${c} is blocked by unfinished work: ${a} (open); finish or close it first; strict mode (--strict, or strict: true in config.yaml) refuses it; without it, it is a warning`);
    const consent = await refusal(tracker.delete((await tracker.create({ title: 'd' })).item.id));
    expect(cliMessage(consent)).toMatch(/This needs explicit consent: pass --yes \(-y\)\.$/);
    expect(cliMessage(consent)).not.toMatch(/CLI:|force: true/);
  });

  it('leaves a message without a remedy as it is', async () => {
    const { tracker } = await memoryTracker();
    const missing = await refusal(tracker.get('pm-zzzzzz'));
    expect(cliMessage(missing)).toBe(missing.message);
  });
});
