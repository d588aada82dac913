import { periodicYield, yieldToEventLoop } from '../../../../src/domain/util/yield.js';

describe('yieldToEventLoop', () => {
  it('lets a macrotask queued before it run first', async () => {
    const order: string[] = [];
    setImmediate(() => order.push('other work'));
    await yieldToEventLoop();
    order.push('after the yield');
    expect(order).toEqual(['other work', 'after the yield']);
  });
});

describe('periodicYield', () => {
  it('yields once every n steps and otherwise costs nothing', () => {
    const pause = periodicYield(3);
    const yielded = Array.from({ length: 7 }, () => pause() !== undefined);
    expect(yielded).toEqual([false, false, true, false, false, true, false]);
  });
});
