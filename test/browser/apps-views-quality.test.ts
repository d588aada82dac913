/**
 * Accessibility and layout of the five views in real Chromium (seed 000 "MCP Apps": responsive,
 * visible keyboard focus, reduced motion honoured): an axe-core scan of each rendered view in
 * both themes, every control reached by Tab with a visible focus ring, no sideways scrolling
 * from 320 px up, transitions off under prefers-reduced-motion, and screenshots at 375 and
 * 1280 px, light and dark, written to .ci/artifacts/apps/ (PM_APPS_ARTIFACTS overrides).
 */
import { mkdirSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { Frame } from 'playwright-core';
import type { PmMcpAppView } from '../../src/domain/apps/app-contracts.js';
import { AXE_SOURCE } from './support/browser-host.js';
import { readPng, sampleColours } from './support/png.js';
import { useAppsFixture } from './support/apps-fixture.js';
import { projectGraphResult, type SmallProjectIds } from './support/pm-project.js';

const fixture = useAppsFixture();
const ARTIFACTS = resolve(process.env.PM_APPS_ARTIFACTS ?? fileURLToPath(new URL('../../.ci/artifacts/apps/', import.meta.url)));
const VIEWS: readonly PmMcpAppView[] = ['context', 'board', 'item', 'graph', 'history'];

function argsOf(view: PmMcpAppView, ids: Readonly<Record<SmallProjectIds, string>>): Record<string, unknown> {
  if (view === 'item') return { id: ids.api };
  if (view === 'history') return { id: ids.perf };
  if (view === 'graph') return { id: ids.api };
  return {};
}

interface AxeViolation {
  readonly id: string;
  readonly impact: string | null;
  readonly help: string;
  readonly nodes: { readonly target: unknown; readonly failureSummary?: string }[];
}

async function axe(frame: Frame): Promise<AxeViolation[]> {
  await frame.addScriptTag({ content: AXE_SOURCE });
  const result = await frame.evaluate(async () => {
    const run = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: AxeViolation[] }> } }).axe.run;
    return run(document, { runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa', 'best-practice'] }, resultTypes: ['violations'] });
  });
  return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.slice(0, 3).map((n) => ({ target: n.target, failureSummary: n.failureSummary })) }));
}

describe('axe-core finds no serious or critical violation', () => {
  test.each(VIEWS.flatMap((view) => (['light', 'dark'] as const).map((theme) => [view, theme] as const)))('%s, %s theme', async (view, theme) => {
    const { show, small } = fixture();
    const frame = await show(view, argsOf(view, small.ids), { hostContext: { theme } });
    const violations = await axe(frame);
    expect(violations.filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });

  test('a drill-down page and the dashboard with every section, too', async () => {
    const { show, small } = fixture();
    const frame = await show('board');
    await frame.click(`[data-focus="board:${small.ids.api}"]`);
    await frame.waitForSelector('.pm-item');
    expect((await axe(frame)).filter((v) => v.impact === 'serious' || v.impact === 'critical')).toEqual([]);
  });
});

describe('keyboard', () => {
  test.each(VIEWS)('%s: Tab reaches every control, and each shows a visible focus ring', async (view) => {
    const { show, small, host } = fixture();
    const frame = await show(view, argsOf(view, small.ids));
    // Every control a pointer could use once each disclosure is open: buttons, links, summaries, anything focusable.
    const controls = await frame.evaluate(() => {
      for (const details of document.querySelectorAll('details')) details.open = true;
      const all = [...document.querySelectorAll<HTMLElement>('button, a[href], summary, [tabindex]:not([tabindex="-1"]), input, select, textarea')];
      return all.filter((el) => el.checkVisibility({ checkVisibilityCSS: true, contentVisibilityAuto: true })).map((el, i) => {
        el.dataset.pmControl = String(i);
        return String(i);
      });
    });
    expect(controls.length).toBeGreaterThan(2);
    await frame.evaluate(() => {
      const sink = document.createElement('span');
      sink.tabIndex = -1;
      sink.id = 'pm-test-start';
      document.body.prepend(sink);
      sink.focus();
    });
    const reached = new Set<string>();
    const invisible: string[] = [];
    for (let press = 0; press < controls.length + 5; press++) {
      await host.page.keyboard.press('Tab');
      const state = await frame.evaluate(() => {
        const el = document.activeElement as HTMLElement | null;
        if (!el || el === document.body) return undefined;
        const style = getComputedStyle(el);
        const ring = style.outlineStyle !== 'none' && parseFloat(style.outlineWidth) >= 2;
        return { control: el.dataset.pmControl, ring, visible: el.matches(':focus-visible'), what: `${el.tagName} ${el.textContent?.slice(0, 40)}` };
      });
      if (!state?.control) continue;
      reached.add(state.control);
      if (!state.ring || !state.visible) invisible.push(state.what);
    }
    expect(controls.filter((c) => !reached.has(c))).toEqual([]);
    expect(invisible).toEqual([]);
  });
});

describe('layout', () => {
  test.each(VIEWS)('%s: no sideways scrolling at 320 px, and none at 1920 px', async (view) => {
    const { show, small } = fixture();
    for (const width of [320, 1920]) {
      const frame = await show(view, argsOf(view, small.ids), { width });
      const overflow = await frame.evaluate(() => ({ scroll: document.documentElement.scrollWidth, client: document.documentElement.clientWidth }));
      expect({ width, fits: overflow.scroll <= overflow.client }).toEqual({ width, fits: true });
    }
  });

  test('prefers-reduced-motion turns transitions and the loading pulse off', async () => {
    const { show, host } = fixture();
    const motion = async () => {
      const frame = await show('context');
      return frame.evaluate(() => {
        const button = document.querySelector('.pm-button, .pm-card')!;
        const probe = document.createElement('p');
        probe.className = 'pm-status pm-loading';
        document.body.appendChild(probe);
        const pulse = getComputedStyle(probe, '::after').animationDuration;
        probe.remove();
        return { transition: getComputedStyle(button).transitionDuration.split(',')[0]!.trim(), pulse };
      });
    };
    expect(await motion()).toEqual({ transition: '0.15s', pulse: '1s' });
    await host.page.emulateMedia({ reducedMotion: 'reduce' });
    try {
      expect(await motion()).toEqual({ transition: '0s', pulse: '0s' });
    } finally {
      await host.page.emulateMedia({ reducedMotion: 'no-preference' });
    }
  });
});

/** The host page's own background (#888): a screenshot mostly of it shows no view. */
const HOST_GREY = [0x88, 0x88, 0x88] as const;
const BACKGROUND = { light: [0xff, 0xff, 0xff], dark: [0x16, 0x18, 0x1d] } as const;

/** Screenshots the view (at most `maxHeight` px of it) and checks that it shows a drawn view. */
async function shoot(name: string, theme: 'light' | 'dark', maxHeight = Infinity): Promise<string> {
  const { host } = fixture();
  mkdirSync(ARTIFACTS, { recursive: true });
  const path = join(ARTIFACTS, `${name}.png`);
  const frame = host.page.locator('iframe.pm-view-frame');
  const box = (await frame.boundingBox())!;
  // No hover highlight left over from an earlier click: the pointer rests above the view.
  await host.page.mouse.move(box.x + box.width - 1, box.y + 1);
  if (box.height <= maxHeight) await frame.screenshot({ path });
  else await host.page.screenshot({ path, fullPage: true, clip: { x: box.x, y: box.y, width: box.width, height: maxHeight } });
  // A drawn view: its own background, title and text at the top; never the empty host behind it.
  const pixels = readPng(path, 240);
  expect(sampleColours(pixels, HOST_GREY).share).toBeLessThan(0.01);
  const colours = sampleColours(pixels, BACKGROUND[theme]);
  expect(colours.share).toBeGreaterThan(0.4);
  expect(colours.distinct).toBeGreaterThan(8);
  expect(statSync(path).size).toBeGreaterThan(0);
  return path;
}

describe('screenshots', () => {
  test.each(VIEWS)('%s at 375 and 1280 px, light and dark', async (view) => {
    const { show, small } = fixture();
    for (const width of [375, 1280]) {
      for (const theme of ['light', 'dark'] as const) {
        await show(view, argsOf(view, small.ids), { width, hostContext: { theme } });
        await shoot(`${view}-${width}-${theme}`, theme);
      }
    }
  });

  test('the 200-item project graph and the 100-item board, at 375 and 1280 px (their first 3000 px)', async () => {
    const { show, large } = fixture();
    for (const width of [375, 1280]) {
      await show('graph', { maxNodes: 200 }, { project: large, width, result: await projectGraphResult(large, 200) });
      await shoot(`graph-large-${width}-light`, 'light', 3000);
      await show('board', { limit: 100 }, { project: large, width, hostContext: { theme: 'dark' } });
      await shoot(`board-large-${width}-dark`, 'dark', 3000);
    }
  });
});
