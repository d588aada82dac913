/**
 * The five pm views in real headless Chromium under the official host bridge (seed 000 "MCP
 * Apps"; MCP Apps 2026-01-26): each loads from its ui:// resource into a sandboxed iframe,
 * completes the handshake, and draws a real result of a real pm tracker; large results say how
 * much is shown; cancellation, partial input, theme changes and teardown reach the view;
 * drill-down goes through the host to read-only tools only; and no view ever attempts a
 * network request.
 */
import type { Frame } from 'playwright-core';
import { PM_MCP_APP_CONTRACTS } from '../../src/domain/apps/app-contracts.js';
import { textOf, useAppsFixture } from './support/apps-fixture.js';
import { APPS_AND_DISCOVERY_META, APPS_META, projectGraphResult, type PmAppsClient } from './support/pm-project.js';

const fixture = useAppsFixture();

/** A drill-down call the view made, less the item page's lookups of its parent's title (pm_get with comments: 0). */
const drillCall = (e: { type: string; name?: string; args?: Record<string, unknown> }) => e.type === 'tool-call' && !(e.name === 'pm_get' && e.args?.comments === 0);

/** How many elements match `selector` in the view. */
const countOf = (frame: Frame, selector: string) => frame.evaluate((s) => document.querySelectorAll(s).length, selector);

/** A compromised view posting raw tools/call requests to its host, bypassing its own code entirely; resolves to each reply. */
function postRawToolCalls(frame: Frame, calls: Record<string, Record<string, unknown>>): Promise<Record<string, unknown>> {
  return frame.evaluate(async (attempts) => {
    const out: Record<string, unknown> = {};
    let id = 9000;
    for (const [name, args] of Object.entries(attempts)) {
      const requestId = id++;
      out[name] = await new Promise((resolve) => {
        const listen = (event: MessageEvent) => {
          if (event.data?.id !== requestId) return;
          window.removeEventListener('message', listen);
          resolve(event.data);
        };
        window.addEventListener('message', listen);
        window.parent.postMessage({ jsonrpc: '2.0', id: requestId, method: 'tools/call', params: { name, arguments: args } }, '*');
      });
    }
    return out;
  }, calls);
}

describe('each view draws a real result', () => {
  test('context: counts, the next item and why, claims, recent items', async () => {
    const { show, host } = fixture();
    const frame = await show('context');
    const text = await textOf(frame);
    expect(text).toContain('Project dashboard');
    expect(text).toMatch(/10 items · 9 unfinished/);
    expect(text).toContain('Next up');
    expect(text).toMatch(/Why: /);
    expect(text).toContain('Active claims (2)');
    expect(text).toMatch(/bob/);
    expect(text).toMatch(/carol/);
    expect(text).toContain('Recently updated');
    expect(await countOf(frame, 'table.pm-counts')).toBe(2);
    const events = await host.events();
    expect(events[0]).toMatchObject({ type: 'initialized', appVersion: { name: 'pm-context-view' }, appCapabilities: { availableDisplayModes: ['inline'] } });
  });

  test('board: one column per status, a card per item, closed work hidden', async () => {
    const { show, small } = fixture();
    const frame = await show('board');
    const columns = await frame.evaluate(() => [...document.querySelectorAll('.pm-column')].map((c) => [c.getAttribute('data-status'), c.querySelectorAll('.pm-card').length]));
    expect(columns).toEqual([['open', 7], ['in_progress', 2]]);
    const text = await textOf(frame);
    expect(text).toContain('9 items');
    expect(text).toContain('Saved-card API');
    expect(text).not.toContain('Spike: card vault vendors');
    expect(await frame.locator(`[data-focus="board:${small.ids.api}"]`).innerText()).toMatch(/@bob/);
  });

  test('item: description, acceptance, comments, links and dependencies', async () => {
    const { show, small } = fixture();
    const frame = await show('item', { id: small.ids.api });
    const text = await textOf(frame);
    expect(text).toContain('Saved-card API');
    expect(text).toContain('It must be idempotent: a retried request never charges twice.');
    expect(text).toContain('1 of 3 criteria done');
    expect(await frame.evaluate(() => [...document.querySelectorAll('.pm-checks li')].map((li) => li.getAttribute('data-done')))).toEqual(['true', 'false', 'false']);
    expect(text).toContain('Comments (14)');
    expect(await countOf(frame, '.pm-comments > li')).toBe(10);
    expect(text).toContain('Showing 10 of 14 comments.');
    expect(text).toContain(`Parent: ${small.ids.epic}`);
    expect(text).toContain('src/charges.ts');
    expect(text).toContain('Show blockers, blocked items and children');
  });

  test('graph: every node and link of the item graph, parents above children, blockers above what they block', async () => {
    const { show, small } = fixture();
    const result = await small.client.call('pm_graph', { id: small.ids.api });
    const frame = await show('graph', { id: small.ids.api }, { result });
    const structured = result.structuredContent as { nodes: { id: string }[]; edges: { from: string; to: string; kind: string }[] };
    expect(await countOf(frame, '.pm-node')).toBe(structured.nodes.length);
    expect(await countOf(frame, 'path.pm-edge')).toBe(structured.edges.length);
    expect(structured.edges).toEqual(expect.arrayContaining([{ from: small.ids.epic, to: small.ids.api, kind: 'parent' }, { from: small.ids.api, to: small.ids.ui, kind: 'blocks' }]));
    expect(await frame.getAttribute(`[data-focus="node:${small.ids.api}"]`, 'data-focus-node')).toBe('true');
    const top = (id: string) => frame.evaluate((i) => (document.querySelector(`[data-focus="node:${i}"]`) as HTMLElement).offsetTop, id);
    for (const edge of structured.edges.filter((e) => e.kind !== 'related')) expect({ edge, above: (await top(edge.from)) < (await top(edge.to)) }).toEqual({ edge, above: true });
    // Its accessible name is its visible id and title, then what only a screen reader needs spelled out.
    expect(await frame.locator(`[data-focus="node:${small.ids.ui}"]`).textContent()).toBe(`${small.ids.ui} One-step pay button. open, priority 2, waits for 1.`);
  });

  test('history: the receipts newest first, with the latest twenty of more', async () => {
    const { show, small } = fixture();
    const frame = await show('history', { id: small.ids.perf });
    const text = await textOf(frame);
    expect(text).toContain('25 changes in all, newest first.');
    expect(text).toContain('Showing 20 of 25 changes.');
    const seqs = await frame.evaluate(() => [...document.querySelectorAll('.pm-entry h3')].map((h) => Number(/#(\d+)/.exec(h.textContent ?? '')![1])));
    expect(seqs).toEqual([...seqs].sort((a, b) => b - a));
    expect(seqs).toHaveLength(20);
    expect(text).toMatch(/receipt \S+/);
  });

  test('every view keeps the tool text as its text version', async () => {
    const { show, small } = fixture();
    const result = await small.client.call('pm_get', { id: small.ids.ui });
    const frame = await show('item', { id: small.ids.ui }, { result });
    expect(await frame.locator('details.pm-fallback pre').textContent()).toBe(result.content[0]!.text);
  });
});

describe('large results are bounded with an explicit message', () => {
  test('board: the page pm fits into its result budget, of 230 items, then the next page through the host', async () => {
    const { show, large, host } = fixture();
    const first = await large.client.call('pm_list', { limit: 100 });
    const page = first.structuredContent as { items: unknown[]; nextCursor: string; omitted?: { reason: string; tokenBudget: number } };
    // pm's bounded reads cut this page of long titles below the asked-for 100.
    expect(page.omitted).toMatchObject({ reason: 'token_budget' });
    const n = page.items.length;
    expect(n).toBeGreaterThan(20);
    expect(n).toBeLessThan(100);
    const second = ((await large.client.call('pm_list', { limit: 100, cursor: page.nextCursor })).structuredContent as { items: unknown[] }).items.length;
    const frame = await show('board', { limit: 100 }, { project: large, result: first });
    const text = await textOf(frame);
    expect(text).toContain(`Showing ${n} of 230 items.`);
    expect(text).toContain(`pm fitted this result into its ${page.omitted!.tokenBudget.toLocaleString('en-US')}-token result budget.`);
    expect(await countOf(frame, '.pm-card')).toBe(n);
    await frame.click('[data-focus="board:more"]');
    await frame.waitForFunction((want) => document.querySelectorAll('.pm-card').length === want, n + second);
    expect(await textOf(frame)).toContain(`Showing ${n + second} of 230 items.`);
    expect((await host.events()).filter(drillCall)).toEqual([{ type: 'tool-call', name: 'pm_list', args: { limit: 100, cursor: page.nextCursor } }]);
  });

  test('graph: pm_graph’s own result, cut at its result budget, says so and counts the rest', async () => {
    const { show, large } = fixture();
    const result = await large.client.call('pm_graph', { maxNodes: 200 });
    const graph = result.structuredContent as { nodes: unknown[]; truncated: boolean; total: number; omitted?: { reason: string } };
    expect(graph).toMatchObject({ truncated: true, total: 230, omitted: { reason: 'token_budget' } });
    const frame = await show('graph', { maxNodes: 200 }, { project: large, result });
    const text = await textOf(frame);
    expect(text).toContain(`Showing ${graph.nodes.length} of 230 items. pm fitted this result into its 8,000-token result budget.`);
    expect(text).not.toContain('maxNodes bound');
    expect(await countOf(frame, '.pm-node')).toBe(graph.nodes.length);
  });

  test('graph: the 200-item graph of the project, laid out without a single overlapping label at 1280 px, and as a list at 375 px', async () => {
    const { show, large } = fixture();
    const result = await projectGraphResult(large, 200);
    expect(result.structuredContent).toMatchObject({ truncated: true, total: 230 });
    expect((result.structuredContent as { nodes: unknown[]; edges: unknown[] }).nodes).toHaveLength(200);
    expect((result.structuredContent as { edges: unknown[] }).edges.length).toBeGreaterThan(150);
    const list = await show('graph', { maxNodes: 200 }, { project: large, width: 375, result });
    expect(await list.locator('section.pm-graph-list li').count()).toBe(200);
    for (const width of [1280]) {
      const frame = await show('graph', { maxNodes: 200 }, { project: large, width, result });
      expect(await textOf(frame)).toContain('Showing 200 of 230 items.');
      const overlaps = await frame.evaluate(() => {
        const boxes = [...document.querySelectorAll('.pm-node-title, .pm-node-id')].map((el) => el.getBoundingClientRect());
        let count = 0;
        for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
          const a = boxes[i]!, b = boxes[j]!;
          if (a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom) count++;
        }
        return { labels: boxes.length, count, wide: document.documentElement.scrollWidth > document.documentElement.clientWidth };
      });
      expect(overlaps).toEqual({ labels: 400, count: 0, wide: false });
    }
  });

  test('graph: a result beyond the view bound draws 200 items and counts the rest', async () => {
    const { show, large } = fixture();
    const graph = await projectGraphResult(large, 200);
    const nodes = (graph.structuredContent as { nodes: { id: string }[] }).nodes;
    const rest = await large.tracker.list({ limit: 100, sort: 'created', order: 'desc' });
    const extra = rest.items.filter((i) => !nodes.some((n) => n.id === i.id));
    const oversized = { ...graph, structuredContent: { ...graph.structuredContent, nodes: [...nodes, ...extra.map(({ id, title, type, status, priority }) => ({ id, title, type, status, priority }))], truncated: false } };
    // The result carries more than the view draws (220), and pm's own total (230) more still: the note counts pm's.
    expect(nodes.length + extra.length).toBeGreaterThan(200);
    const frame = await show('graph', {}, { project: large, result: oversized });
    expect(await countOf(frame, '.pm-node')).toBe(200);
    expect(await textOf(frame)).toContain('Showing 200 of 230 items.');
    expect(await textOf(frame)).toContain('This view draws at most 200 items');
  });

  test('history: older changes load in place through the host, with pm_history’s cursor', async () => {
    const { show, host, small } = fixture();
    const frame = await show('history', { id: small.ids.perf });
    expect(await countOf(frame, '.pm-entry')).toBe(20);
    expect(await textOf(frame)).toContain('Showing 20 of 25 changes. Load older changes below.');
    await frame.click(`[data-focus="older:${small.ids.perf}"]`);
    await frame.waitForFunction(() => document.querySelectorAll('.pm-entry').length === 25);
    const seqs = await frame.evaluate(() => [...document.querySelectorAll('.pm-entry h3')].map((el) => Number(/#(\d+)/.exec(el.textContent ?? '')![1])));
    expect(seqs).toEqual(Array.from({ length: 25 }, (_, i) => 25 - i));
    expect(await textOf(frame)).not.toContain('Showing');
    const calls = (await host.events()).filter(drillCall);
    expect(calls).toEqual([{ type: 'tool-call', name: 'pm_history', args: { id: small.ids.perf, limit: 50, patches: false, cursor: expect.any(String) } }]);
  });
});

describe('a host that also negotiated progressive tool discovery', () => {
  // Its results are canonical: the value once, as structuredContent.result, and a text pointer.
  const canonically = async <T>(client: PmAppsClient, run: () => Promise<T>): Promise<T> => {
    client.meta = APPS_AND_DISCOVERY_META;
    try {
      return await run();
    } finally {
      client.meta = APPS_META;
    }
  };

  test.each(['context', 'board', 'item', 'graph', 'history'] as const)('%s: a canonical result draws the same page, with its value as the text version', async (view) => {
    const { show, small } = fixture();
    const args = view === 'item' || view === 'history' ? { id: small.ids.api } : view === 'graph' ? { id: small.ids.epic } : {};
    const tool = PM_MCP_APP_CONTRACTS.find((c) => c.view === view)!.tool;
    const pageOf = (frame: Frame) => frame.locator('.pm-page').innerText();
    const plain = await pageOf(await show(view, args));
    const result = await canonically(small.client, () => small.client.call(tool, args));
    expect(result.content).toEqual([{ type: 'text', text: 'Result in structuredContent.result.' }]);
    expect(Object.keys(result.structuredContent!)).toEqual(['result']);
    const frame = await show(view, args, { result });
    expect(await pageOf(frame)).toBe(plain);
    expect(JSON.parse((await frame.locator('details.pm-fallback pre').textContent())!)).toEqual(result.structuredContent!.result);
  });

  test('a host that knows only the entry catalogue: the view drills down through pm_get, and reaches no mutating tool', async () => {
    const { show, host, small } = fixture();
    const full = small.client.tools;
    const entry = (await small.client.request('tools/list', {}, APPS_AND_DISCOVERY_META)).result.tools as typeof full;
    // Every tool a view could be allowed to call is read-only; the mutating tools are not even listed.
    expect(entry.filter((t) => (t._meta?.ui?.visibility ?? ['model', 'app']).includes('app')).every((t) => t.annotations?.readOnlyHint === true)).toBe(true);
    expect(entry.map((t) => t.name)).toEqual(['pm_discover', 'pm_context', 'pm_next', 'pm_get', 'pm_search']);
    const before = await small.client.call('pm_history', { id: small.ids.ui });
    small.client.tools = entry;
    try {
      await canonically(small.client, async () => {
        const frame = await show('item', { id: small.ids.ui });
        const replies = await postRawToolCalls(frame, { pm_update: { id: small.ids.ui, title: 'Changed from a view' }, pm_close: { id: small.ids.ui, evidence: 'none' } });
        for (const name of ['pm_update', 'pm_close']) expect({ name, reply: replies[name] }).toEqual({ name, reply: expect.objectContaining({ error: expect.objectContaining({ message: `unknown tool ${name}` }) }) });
        await frame.locator(`button.pm-link[data-focus$=":${small.ids.api}"]`).first().click();
        await frame.waitForFunction((id) => document.querySelector('.pm-item h2')?.textContent?.includes(id), small.ids.api);
      });
    } finally {
      small.client.tools = full;
    }
    expect((await host.events()).filter(drillCall)).toEqual([{ type: 'tool-call', name: 'pm_get', args: { id: small.ids.api } }]);
    expect(await small.client.call('pm_history', { id: small.ids.ui })).toEqual(before);
  });

  test('drill-down over canonical results: board → item, and the next page of a board', async () => {
    const { show, small, large } = fixture();
    await canonically(small.client, async () => {
      const frame = await show('board');
      await frame.click(`[data-focus="board:${small.ids.api}"]`);
      await frame.waitForSelector('.pm-item');
      expect(await textOf(frame)).toContain('It must be idempotent');
    });
    await canonically(large.client, async () => {
      const frame = await show('board', { limit: 30 }, { project: large });
      expect(await countOf(frame, '.pm-card')).toBe(30);
      await frame.click('[data-focus="board:more"]');
      await frame.waitForFunction(() => document.querySelectorAll('.pm-card').length === 60);
    });
  });
});

describe('the lifecycle reaches the view', () => {
  test('partial input, then input, then cancellation', async () => {
    const { mount, host, small } = fixture();
    const frame = await mount('item');
    await host.partial({ id: small.ids.api.slice(0, 4) });
    await frame.waitForFunction(() => document.body.innerText.includes('Receiving the arguments of pm_get'));
    await host.input({ id: small.ids.api });
    await frame.waitForFunction(() => document.body.innerText.includes('Running pm_get'));
    await host.cancelled('the user stopped it');
    await frame.waitForSelector('.pm-cancelled');
    expect(await frame.locator('.pm-cancelled').innerText()).toContain('pm_get was cancelled: the user stopped it. Nothing was changed');
    expect(await frame.getAttribute('.pm-cancelled', 'role')).toBe('alert');
  });

  test('a tool error shows pm’s own message', async () => {
    const { show } = fixture();
    const frame = await show('item', { id: 'pm-nothere' });
    expect(await frame.locator('.pm-error').innerText()).toMatch(/pm refused the call:[\s\S]*pm-nothere/);
  });

  test('a result without the data a view draws falls back to pm’s text', async () => {
    const { show, small } = fixture();
    const real = await small.client.call('pm_context');
    const frame = await show('board', {}, { result: { content: real.content, structuredContent: { unexpected: true } } });
    const notice = await frame.locator('.pm-error').innerText();
    expect(notice).toContain('This result carries no data this view can draw');
    expect(notice).toContain(real.content[0]!.text!.split('\n')[0]!);
  });

  test('a host that lets views call no tools gets the same drawing without drill-down controls', async () => {
    const { show, small } = fixture();
    const frame = await show('item', { id: small.ids.api }, { hostCapabilities: { openLinks: {} } });
    expect(await textOf(frame)).toContain('It must be idempotent');
    expect(await countOf(frame, '.pm-link, [data-focus^="deps:"], [data-focus^="history:"], [data-focus^="comments:"]')).toBe(0);
    expect(await textOf(frame)).toContain(`Parent: ${small.ids.epic}`);
  });

  test('host context changes: theme, style variables, locale', async () => {
    const { show, host } = fixture();
    const frame = await show('board');
    const colours = () => frame.evaluate(() => [document.documentElement.dataset.theme, getComputedStyle(document.documentElement).backgroundColor, getComputedStyle(document.body).color]);
    expect(await colours()).toEqual(['light', 'rgb(255, 255, 255)', 'rgb(21, 23, 28)']);
    await host.changeContext({ theme: 'dark' });
    await frame.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
    expect(await colours()).toEqual(['dark', 'rgb(22, 24, 29)', 'rgb(236, 238, 242)']);
    await host.changeContext({ styles: { variables: { '--color-background-primary': 'rgb(10, 20, 30)', '--color-text-primary': 'rgb(250, 250, 240)' } } });
    await frame.waitForFunction(() => getComputedStyle(document.documentElement).backgroundColor === 'rgb(10, 20, 30)');
    expect(await colours()).toEqual(['dark', 'rgb(10, 20, 30)', 'rgb(250, 250, 240)']);
    await host.changeContext({ locale: 'de-DE' });
    await frame.waitForFunction(() => document.documentElement.lang === 'de-DE');
  });

  test('teardown is answered, and the view says it closed', async () => {
    const { show, host } = fixture();
    const frame = await show('context');
    expect(await host.teardown()).toEqual({});
    expect(await textOf(frame)).toContain('This view was closed.');
  });
});

describe('drill-down goes through the host, to read-only tools only', () => {
  test('board → item → back: the host calls pm_get, focus returns to the card', async () => {
    const { show, host, small } = fixture();
    const frame = await show('board');
    await frame.focus(`[data-focus="board:${small.ids.api}"]`);
    await frame.press(`[data-focus="board:${small.ids.api}"]`, 'Enter');
    await frame.waitForSelector('.pm-item');
    expect(await textOf(frame)).toContain('It must be idempotent');
    expect(await frame.evaluate(() => document.activeElement?.tagName)).toBe('H2');
    await frame.click('.pm-back');
    await frame.waitForSelector('.pm-board');
    expect(await frame.evaluate(() => document.activeElement?.getAttribute('data-focus'))).toBe(`board:${small.ids.api}`);
    expect((await host.events()).filter(drillCall)).toEqual([{ type: 'tool-call', name: 'pm_get', args: { id: small.ids.api } }]);
  });

  test('graph → select a node → expand the graph around it', async () => {
    const { show, host, small } = fixture();
    const frame = await show('graph', { id: small.ids.epic });
    await frame.click(`[data-focus="node:${small.ids.api}"]`);
    await frame.waitForSelector('.pm-selection');
    expect(await frame.evaluate(() => document.activeElement?.id)).toBe('pm-selected');
    await frame.click(`[data-focus="expand:${small.ids.api}"]`);
    await frame.waitForFunction((id) => document.querySelector('.pm-graph-wrap h2')?.textContent?.startsWith(`Graph of ${id}`), small.ids.api);
    expect((await host.events()).filter(drillCall)).toEqual([{ type: 'tool-call', name: 'pm_graph', args: { id: small.ids.api, depth: 2 } }]);
  });

  test('history → what each change did: the JSON Patch of every receipt', async () => {
    const { show, host, small } = fixture();
    const frame = await show('history', { id: small.ids.api });
    await frame.click(`[data-focus="patches:${small.ids.api}"]`);
    await frame.waitForSelector('.pm-patch');
    await frame.click('.pm-entry:last-child .pm-patch summary');
    expect(await frame.locator('.pm-entry:last-child .pm-patch').innerText()).toMatch(/add \/|replace \//);
    expect((await host.events()).filter(drillCall)).toEqual([{ type: 'tool-call', name: 'pm_history', args: { id: small.ids.api, limit: 20, patches: true } }]);
  });

  test('a view cannot reach a mutating tool through the bridge, whatever it sends', async () => {
    const { show, host, small } = fixture();
    const mutating = small.client.tools.filter((t) => t.annotations?.readOnlyHint !== true);
    expect(mutating.map((t) => t.name)).toEqual(expect.arrayContaining(['pm_create', 'pm_update', 'pm_claim', 'pm_close', 'pm_comment', 'pm_delete', 'pm_deps']));
    for (const tool of small.client.tools) {
      const visibility = tool._meta?.ui?.visibility ?? ['model', 'app'];
      expect({ tool: tool.name, app: visibility.includes('app') }).toEqual({ tool: tool.name, app: tool.annotations?.readOnlyHint === true });
    }
    const before = await small.client.call('pm_history', { id: small.ids.ui });
    const frame = await show('item', { id: small.ids.ui });
    const attempts: Record<string, Record<string, unknown>> = {
      pm_update: { id: small.ids.ui, title: 'Changed from a view' },
      pm_claim: { id: small.ids.ui },
      pm_comment: { id: small.ids.ui, text: 'written by a view' },
      pm_close: { id: small.ids.ui, evidence: 'none' },
      pm_create: { title: 'Made by a view' },
      pm_delete: { id: small.ids.ui, confirm: true },
      pm_deps: { id: small.ids.ui, action: 'remove', kind: 'blockedBy', target: small.ids.api },
    };
    const replies = await postRawToolCalls(frame, attempts);
    for (const name of Object.keys(attempts)) expect({ name, reply: replies[name] }).toEqual({ name, reply: expect.objectContaining({ error: expect.objectContaining({ message: expect.stringContaining('not available to views') }) }) });
    const events = await host.events();
    expect(events.filter(drillCall)).toEqual([]);
    expect(events.filter((e) => e.type === 'tool-call-refused').map((e) => e.name)).toEqual(Object.keys(attempts));
    expect(await small.client.call('pm_history', { id: small.ids.ui })).toEqual(before);
    const context = await small.client.call('pm_context');
    expect((context.structuredContent as { total: number }).total).toBe(10);
  });
});

describe('no view attempts a network request', () => {
  // Runs last: the request and CSP records cover every test of this file.
  test.each(['context', 'board', 'item', 'graph', 'history'] as const)('%s: drawn, drilled into, re-themed: no request, no CSP refusal, no script error (in this test or any before)', async (view) => {
    const { show, host, small } = fixture();
    const args = view === 'item' || view === 'history' ? { id: small.ids.api } : view === 'graph' ? { id: small.ids.epic } : {};
    const frame = await show(view, args);
    const first = frame.locator('.pm-card, .pm-node, .pm-link').first();
    if (await first.count()) await first.click();
    await host.changeContext({ theme: 'dark' });
    await host.settled();
    expect({ requests: host.requests, csp: host.cspViolations, errors: host.pageErrors }).toEqual({ requests: [], csp: [], errors: [] });
  });

  test('the monitor does see an attempt (positive control)', async () => {
    const { show, host } = fixture();
    const frame = await show('board');
    const refused = host.page.waitForEvent('console', (m) => /Content Security Policy/.test(m.text()));
    const outcome = await frame.evaluate(() => fetch('http://127.0.0.1:9/probe').then(() => 'fetched', (e: Error) => `refused: ${e.message}`));
    expect(outcome).toMatch(/^refused/);
    await refused;
    expect(host.cspViolations.join('\n')).toContain("connect-src 'none'");
  });
});
