import { PmMcpInvalidParamsError } from '../errors/index.js';
import { PmMcpPromptRegistry, type McpPromptDefinition } from '../mcp/prompt-registry.js';
import type { McpPromptMessage } from '../mcp/wire-types.js';
import { TERMINAL_STATUSES } from '../tracker/config.js';
import type { Item } from '../tracker/item.js';
import type { Tracker } from '../tracker/tracker.js';
import type { PmTrackerFor } from './tool-kit.js';
import { contextData } from './context-tool.js';
import { completeItemIds } from './item-completion.js';
import { renderContext, renderItem } from './render.js';
import { pmItemUri, PM_GUIDANCE_URI } from './tracker-resources.js';

/**
 * The tracker's prompts: orientation, claim-and-start (argument: item id) and
 * evidence-and-close (arguments: item id, evidence), the three moments of an agent's work
 * cycle that benefit from a prepared message. Each renders the live tracker state into
 * its messages; the id argument completes like the `pm://items/{id}` template. Unknown items and
 * over-long evidence are -32602 (2026-07-28 `server/prompts`).
 */

const MAX_EVIDENCE = 2000;
const text = (body: string): McpPromptMessage => ({ role: 'user', content: { type: 'text', text: body } });
const link = (item: Item): McpPromptMessage => ({
  role: 'user',
  content: { type: 'resource_link', uri: pmItemUri(item.id), name: item.id, title: item.title, mimeType: 'application/json' },
});
const json = (value: unknown) => JSON.stringify(value);

async function blockerLines(tracker: Tracker, item: Item): Promise<string[]> {
  const lines: string[] = [];
  for (const id of item.blockedBy) {
    const status = await tracker.get(id).then((b) => b.status, () => 'missing');
    lines.push(`  ${id}: ${status}${TERMINAL_STATUSES.has(status) ? '' : ' (unfinished)'}`);
  }
  return lines;
}

function orientation(trackerFor: PmTrackerFor): McpPromptDefinition {
  return {
    name: 'orientation',
    title: 'Orientation',
    description: 'Where the project stands and how to work with pm here.',
    async get(_args, ctx) {
      const tracker = trackerFor(ctx);
      const context = contextData(await tracker.context());
      return {
        description: 'Project orientation',
        messages: [
          text([
            'You are working in a project tracked with pm: work items live in the repository and every change is recorded.',
            '',
            renderContext(context),
            '',
            'How to work: pick an item with pm_next (or from above), claim it with pm_claim before starting, record progress and findings with pm_comment, and close it with pm_close and concrete evidence (a commit, a passing test, a link).',
            'When changing an item you read earlier, pass its revision as expectedRevision; pass an idempotencyKey when a call may be retried.',
            `The repository's own agent guidance is the resource ${PM_GUIDANCE_URI}.`,
          ].join('\n')),
        ],
      };
    },
  };
}

function claimAndStart(trackerFor: PmTrackerFor): McpPromptDefinition {
  return {
    name: 'claim-and-start',
    title: 'Claim and start',
    description: 'Claim an item and start work on it, with its live state, blockers and acceptance criteria.',
    arguments: [{ name: 'id', description: 'The item to start, e.g. pm-a1b2c3.', required: true }],
    async get(args, ctx) {
      const tracker = trackerFor(ctx);
      const item = await tracker.get(args.id ?? '');
      const blockers = await blockerLines(tracker, item);
      const unfinished = blockers.filter((l) => l.endsWith('(unfinished)')).length;
      const notes: string[] = [];
      if (TERMINAL_STATUSES.has(item.status)) notes.push(`${item.id} is ${item.status}. If work remains, reopen it with pm_reopen first.`);
      if (item.claim) notes.push(`It is claimed by ${item.claim.holder} until ${item.claim.expiresAt}. If that is not you, do not take it over without asking.`);
      if (unfinished) notes.push(`${unfinished} blocker(s) are unfinished; finish or discuss them first.`);
      return {
        description: `Claim and start ${item.id}`,
        messages: [
          text([
            `Claim and start work on ${item.id}.`,
            '',
            renderItem(item, 5),
            ...(blockers.length ? ['', 'blockers:', ...blockers] : []),
            ...(notes.length ? ['', ...notes] : []),
            '',
            'Steps:',
            `1. Claim it: pm_claim ${json({ id: item.id, expectedRevision: item.revision })}.`,
            '2. Read the description and acceptance criteria; plan the change.',
            '3. Do the work; record progress and findings with pm_comment.',
            '4. When every acceptance criterion is met, close it with pm_close and the evidence.',
          ].join('\n')),
          link(item),
        ],
      };
    },
    complete: (argument, value, _context, ctx) => (argument === 'id' ? completeItemIds(trackerFor(ctx), value) : []),
  };
}

function evidenceAndClose(trackerFor: PmTrackerFor): McpPromptDefinition {
  return {
    name: 'evidence-and-close',
    title: 'Evidence and close',
    description: 'Check an item against its acceptance criteria and close it with the given evidence.',
    arguments: [
      { name: 'id', description: 'The item to close.', required: true },
      { name: 'evidence', description: 'What shows the work is done: a commit, a passing test, a link.', required: true },
    ],
    async get(args, ctx) {
      const tracker = trackerFor(ctx);
      const evidence = (args.evidence ?? '').trim();
      if (evidence.length > MAX_EVIDENCE) throw new PmMcpInvalidParamsError(`evidence is ${evidence.length} characters; at most ${MAX_EVIDENCE}`, { name: 'evidence-and-close', argument: 'evidence' });
      const item = await tracker.get(args.id ?? '');
      const open = item.acceptance.map((c, i) => ({ ...c, n: i + 1 })).filter((c) => !c.done);
      const lines = [
        `Close ${item.id} "${item.title}" (${item.status}, revision ${item.revision}) with this evidence:`,
        evidence,
        '',
      ];
      if (TERMINAL_STATUSES.has(item.status)) {
        lines.push(`${item.id} is already ${item.status}${item.closure ? ` (by ${item.closure.by}: ${item.closure.evidence})` : ''}. Nothing to close; reopen it with pm_reopen if the work was not done.`);
      } else {
        if (item.acceptance.length) lines.push('acceptance criteria:', ...item.acceptance.map((c, i) => `  ${i + 1}. [${c.done ? 'x' : ' '}] ${c.text}`), '');
        if (open.length) {
          lines.push(`${open.length} criteria are not checked yet (${open.map((c) => c.n).join(', ')}). Verify each against the evidence; mark the met ones with pm_update ${json({ id: item.id, checkAcceptance: open.map((c) => c.n) })}; if one is not met, do not close — comment what is missing instead.`);
        }
        lines.push(`Then close it: pm_close ${json({ id: item.id, evidence, expectedRevision: item.revision })} (after a pm_update, use the new revision).`);
      }
      return { description: `Evidence and close ${item.id}`, messages: [text(lines.join('\n')), link(item)] };
    },
    complete: (argument, value, _context, ctx) => (argument === 'id' ? completeItemIds(trackerFor(ctx), value) : []),
  };
}

/** The prompt registry of a tracker server; prompts read through `trackerFor` (the request's tracker). */
export function createPmTrackerPrompts(tracker: Tracker, trackerFor: PmTrackerFor = () => tracker): PmMcpPromptRegistry {
  return new PmMcpPromptRegistry([orientation(trackerFor), claimAndStart(trackerFor), evidenceAndClose(trackerFor)]);
}
