/**
 * What a person saw wrong in the five views, each reproduced in real Chromium (docs/APPS.md):
 * a merged history keeps every change in recorded order and says which fields changed; the
 * graph's links never run through a card, related links are drawn, and a narrow view shows a
 * list; bodies and comments render as Markdown with raw HTML off and unsafe links dropped; the
 * parent shows its title; the board keeps every column in view; subtitles are words, not tool
 * names; an item opened from anywhere offers the same buttons; and table cells line up.
 */
import type { Frame } from 'playwright-core';
import { textOf, useAppsFixture } from './support/apps-fixture.js';
import type { CallResult } from './support/pm-project.js';

const fixture = useAppsFixture();

const MARKDOWN_BODY = [
  '## Goal',
  '',
  'Pay with **one** click, see `POST /charges` and [the spec](https://example.com/spec).',
  '',
  '- saved cards',
  '- retries',
  '',
  '[bad](javascript:alert(1)) [worse](data:text/html,<b>x</b>) <b>raw</b> <img src=x onerror=alert(1)>',
].join('\n');

let markdownItem = '';
let canceledItem = '';

beforeAll(async () => {
  const { small } = fixture();
  markdownItem = (await small.tracker.create({ title: 'Markdown body', body: MARKDOWN_BODY, parent: small.ids.epic }, { actor: 'alice' })).item.id;
  await small.tracker.comment(markdownItem, 'A comment with *emphasis* and `code`.', { actor: 'bob' });
  canceledItem = (await small.tracker.create({ title: 'Dropped idea' }, { actor: 'alice' })).item.id;
  await small.tracker.close(canceledItem, { evidence: 'not needed', as: 'canceled' }, { actor: 'alice' });
  for (let i = 0; i < 12; i++) await small.tracker.create({ title: `Open work ${i + 1}` }, { actor: 'alice' });
  await small.tracker.update((await small.tracker.create({ title: 'Waiting on the vendor' }, { actor: 'alice' })).item.id, { status: 'blocked' }, { actor: 'alice' });
  await small.tracker.update((await small.tracker.create({ title: 'Rough idea' }, { actor: 'alice' })).item.id, { status: 'draft' }, { actor: 'alice' });
}, 60_000);

/** Every card's box in the graph drawing, relative to the drawing. */
async function geometry(frame: Frame) {
  return frame.evaluate(() => {
    const cards = [...document.querySelectorAll<HTMLElement>('.pm-node')].map((n) => ({ id: n.getAttribute('data-focus')!.slice(5), x: n.offsetLeft, y: n.offsetTop, w: n.offsetWidth, h: n.offsetHeight }));
    const edges = [...document.querySelectorAll<SVGPathElement>('path.pm-edge')].map((p) => {
      const length = p.getTotalLength();
      const points: [number, number][] = [];
      for (let at = 0; at <= length; at += 2) {
        const pt = p.getPointAtLength(at);
        points.push([pt.x, pt.y]);
      }
      return { kind: p.getAttribute('class')!, from: p.getAttribute('data-from'), to: p.getAttribute('data-to'), length, points };
    });
    return { cards, edges };
  });
}

/** The points of each link that fall inside a card (2 px in from its border). */
function crossings(g: Awaited<ReturnType<typeof geometry>>): string[] {
  const out: string[] = [];
  for (const e of g.edges) {
    for (const c of g.cards) {
      const inside = e.points.filter(([x, y]) => x > c.x + 2 && x < c.x + c.w - 2 && y > c.y + 2 && y < c.y + c.h - 2);
      if (inside.length) out.push(`${e.from}→${e.to} (${e.kind}) crosses ${c.id}`);
    }
  }
  return out;
}

describe('history', () => {
  const entry = (seq: number, op: string, actor: string, at: string, patch?: { op: string; path: string; value?: unknown }[]) => ({ seq, receiptId: `r-${seq}-${actor}`, op, actor, at, revisionBefore: seq - 1, revisionAfter: seq, ...(patch ? { patch } : {}) });

  test('after a merge two lines share a seq: both are shown, in recorded order, and nothing claims to be missing', async () => {
    const { show, small } = fixture();
    const entries = [
      ...Array.from({ length: 13 }, (_, i) => entry(i + 1, 'update', 'alice', `2026-01-0${1 + Math.floor(i / 5)}T10:${String(i).padStart(2, '0')}:00Z`)),
      entry(14, 'close', 'alice', '2026-01-04T10:00:00Z'),
      entry(14, 'update', 'bob', '2026-01-04T09:00:00Z'),
      entry(15, 'merge', 'alice', '2026-01-05T10:00:00Z'),
    ];
    const result: CallResult = { content: [{ type: 'text', text: `History of ${small.ids.perf}: 16 changes` }], structuredContent: { id: small.ids.perf, entries, total: 16 } };
    const frame = await show('history', { id: small.ids.perf, limit: 100 }, { result });
    const heads = await frame.evaluate(() => [...document.querySelectorAll('.pm-entry h3')].map((h) => h.textContent));
    expect(heads).toHaveLength(16);
    // Newest first is the reverse of the order pm recorded them in, whatever their seq.
    expect(heads.slice(0, 3)).toEqual(['#15 · merge', '#14 · update', '#14 · close']);
    expect(await textOf(frame)).not.toContain('Showing');
  });

  test('each entry says which fields it changed, and from what to what when the history has it', async () => {
    const { show, small } = fixture();
    const frame = await show('history', { id: small.ids.perf, patches: true, limit: 30 });
    const changes = await frame.evaluate(() => [...document.querySelectorAll('.pm-entry')].map((e) => e.querySelector('.pm-changed')?.textContent ?? ''));
    expect(changes.filter((c) => c.includes('priority: 4 → 3')).length).toBeGreaterThan(0);
    expect(changes.filter((c) => /body/.test(c)).length).toBeGreaterThan(0);
    expect(changes.filter((c) => /comment added/.test(c)).length).toBe(12);
    expect(changes.every((c) => c.length > 0)).toBe(true);
  });

  test('an item’s “Show history” shows what each change did', async () => {
    const { show, small } = fixture();
    const frame = await show('item', { id: small.ids.perf });
    await frame.click(`[data-focus="history:${small.ids.perf}"]`);
    await frame.waitForSelector('.pm-history');
    await frame.waitForSelector('.pm-changed');
    expect(await textOf(frame)).toMatch(/priority: [34] → [34]/);
  });
});

describe('graph', () => {
  test('no link runs through a card, and the related link of the item graph is drawn, dashed', async () => {
    const { show, small } = fixture();
    for (const id of [small.ids.epic, small.ids.ui, small.ids.api, small.ids.docs]) {
      const frame = await show('graph', { id, depth: 2 }, { width: 1280 });
      const g = await geometry(frame);
      expect(g.edges.length).toBeGreaterThan(0);
      expect(crossings(g)).toEqual([]);
    }
    const frame = await show('graph', { id: small.ids.copy, depth: 1 }, { width: 1280 });
    const g = await geometry(frame);
    const related = g.edges.filter((e) => e.kind.includes('pm-edge-related'));
    expect(related).toHaveLength(1);
    expect(related[0]!.length).toBeGreaterThan(20);
    expect(await frame.evaluate(() => getComputedStyle(document.querySelector('path.pm-edge-related')!).strokeDasharray)).not.toBe('none');
    expect(crossings(g)).toEqual([]);
  });

  test('the project graph of 200 items: no link crosses a card at 1280 px', async () => {
    const { show, large } = fixture();
    const { projectGraphResult } = await import('./support/pm-project.js');
    const result = await projectGraphResult(large, 200);
    const frame = await show('graph', { maxNodes: 200 }, { project: large, width: 1280, result });
    expect(crossings(await geometry(frame))).toEqual([]);
  });

  test('at 400 px the graph is a readable list of items and their links, not a single merged line', async () => {
    const { show, small } = fixture();
    const frame = await show('graph', { id: small.ids.api, depth: 2 }, { width: 400 });
    expect(await frame.locator('.pm-graph').count()).toBe(0);
    const rows = frame.locator('.pm-graph-list:not(details) li');
    expect(await rows.count()).toBeGreaterThan(4);
    expect(await textOf(frame)).toContain(`blocks ${small.ids.ui}`);
  });
});

describe('markdown', () => {
  test('bodies and comments render as Markdown, raw HTML stays text and unsafe links are dropped', async () => {
    const { show } = fixture();
    const frame = await show('item', { id: markdownItem });
    const body = await frame.evaluate(() => {
      const el = document.querySelector('.pm-item .pm-body')!;
      return {
        heading: el.querySelector('h4')?.textContent,
        items: [...el.querySelectorAll('li')].map((li) => li.textContent),
        strong: el.querySelector('strong')?.textContent,
        code: el.querySelector('code')?.textContent,
        links: [...el.querySelectorAll('a')].map((a) => a.getAttribute('href')),
        elements: [...el.querySelectorAll('*')].map((e) => e.tagName.toLowerCase()).filter((t) => ['b', 'img', 'script'].includes(t)),
        text: el.textContent,
      };
    });
    expect(body.heading).toBe('Goal');
    expect(body.items).toEqual(['saved cards', 'retries']);
    expect(body.strong).toBe('one');
    expect(body.code).toBe('POST /charges');
    expect(body.links).toEqual(['https://example.com/spec']);
    expect(body.elements).toEqual([]);
    expect(body.text).toContain('<b>raw</b>');
    expect(body.text).not.toContain('## Goal');
    const comment = await frame.evaluate(() => document.querySelector('.pm-comments .pm-body em')?.textContent);
    expect(comment).toBe('emphasis');
  });
});

describe('items and the board', () => {
  test('the parent is shown with its title', async () => {
    const { show, small } = fixture();
    const frame = await show('item', { id: small.ids.api });
    await frame.waitForFunction(() => document.querySelector('.pm-linkrow')?.textContent?.includes('Checkout redesign'));
    expect(await frame.locator('.pm-linkrow').first().innerText()).toContain(`${small.ids.epic} Checkout redesign`);
  });

  test('every column of a long board stays in one row at 1280 px', async () => {
    const { show } = fixture();
    const frame = await show('board', { all: true, limit: 100 }, { width: 1280 });
    const columns = await frame.evaluate(() => [...document.querySelectorAll<HTMLElement>('.pm-column')].map((c) => ({ status: c.getAttribute('data-status'), top: c.getBoundingClientRect().top, right: c.getBoundingClientRect().right })));
    expect(columns.map((c) => c.status)).toEqual(['draft', 'open', 'in_progress', 'blocked', 'closed', 'canceled']);
    expect(new Set(columns.map((c) => c.top)).size).toBe(1);
    for (const c of columns) expect(c.right).toBeLessThanOrEqual(1280);
  });

  test('subtitles say what the view shows in words, not tool names', async () => {
    const { show, small } = fixture();
    for (const [view, args] of [['context', {}], ['board', {}], ['item', { id: small.ids.api }], ['graph', { id: small.ids.api }], ['history', { id: small.ids.api }]] as const) {
      const frame = await show(view, args);
      const sub = await frame.locator('.pm-sub').innerText();
      expect({ view, sub }).toEqual({ view, sub: expect.not.stringMatching(/pm_/) });
      expect(sub.length).toBeGreaterThan(5);
    }
  });

  test('an item opened from the board, the dashboard or the graph has the same buttons as the item view', async () => {
    const { show, small } = fixture();
    const buttons = (frame: Frame) => frame.evaluate(() => [...document.querySelectorAll('.pm-item .pm-actions button')].map((b) => b.textContent));
    const direct = await buttons(await show('item', { id: small.ids.api }));
    expect(direct).toEqual(expect.arrayContaining(['Show blockers, blocked items and children', 'Show history']));
    const board = await show('board');
    await board.click(`[data-focus="board:${small.ids.api}"]`);
    await board.waitForSelector('.pm-item');
    expect(await buttons(board)).toEqual(direct);
    const context = await show('context');
    await context.click(`[data-focus="claim:${small.ids.api}"]`);
    await context.waitForSelector('.pm-item');
    expect(await buttons(context)).toEqual(direct);
  });

  test('the claims table’s cells line up on one baseline', async () => {
    const { show } = fixture();
    const frame = await show('context');
    const rows = await frame.evaluate(() =>
      [...document.querySelectorAll('.pm-section .pm-table tbody tr')].map((tr) => [...tr.children].map((td) => {
        const range = document.createRange();
        range.selectNodeContents(td);
        const first = [...td.childNodes].find((n) => (n.textContent ?? '').trim());
        const r = document.createRange();
        r.selectNodeContents(first!);
        return Math.round(r.getClientRects()[0]!.top);
      })),
    );
    expect(rows.length).toBeGreaterThan(0);
    for (const tops of rows) expect(new Set(tops).size).toBe(1);
  });
});
