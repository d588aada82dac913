import { z } from 'zod';
import {
  enumSchema, GUARD_PROPERTIES, guardShape, idSchema, integerSchema, MAX_TEXT, MUTATION_PROPERTIES, MUTATION_REQUIRED, stringSchema,
  zId, zInt, zText,
} from './json-schemas.js';
import { explainMcpConsent } from './consent.js';
import { defineTrackerTool, mutationData, mutationOptions, mutationText, type PmTrackerToolDeps, requestTracker } from './tool-kit.js';

/**
 * The work-cycle tools: `pm_claim`, `pm_release`, `pm_close`, `pm_reopen`, `pm_comment`.
 * Each takes expectedRevision and idempotencyKey and returns the receipt (docs/TRACKER.md
 * "Mutations"). Canceling an item somebody else holds a live claim on needs consent, obtained
 * through the same resolver as pm_delete (by default `confirm: true`).
 */

const MAX_EVIDENCE = 2000;
const FORCE = { type: 'boolean' } as const;
const mutation = { properties: MUTATION_PROPERTIES, required: MUTATION_REQUIRED };

export function pmClaimTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_claim',
    title: 'Claim item',
    description: 'Claims an item with a lease (in_progress, you the assignee). Claiming again or renew (heartbeat) renews it; an expired claim is taken over (in history). A live claim of someone else needs force and consent. To take the best ready item use pm_next {"claim":true}.',
    properties: {
      id: idSchema(),
      leaseMinutes: integerSchema(1, 10080, `Lease length; default ${deps.tracker.config.claimLeaseMinutes}.`),
      leaseSeconds: integerSchema(1, 604800, 'Lease in seconds instead.'),
      force: { ...FORCE, description: "Take over someone else's live claim." },
      renew: { type: 'boolean', description: 'Only renew your own lease.' },
      ...GUARD_PROPERTIES,
    },
    required: ['id'],
    shape: { id: zId(), leaseMinutes: zInt(1, 10080).optional(), leaseSeconds: zInt(1, 604800).optional(), force: z.boolean().optional(), renew: z.boolean().optional(), ...guardShape() },
    output: mutation,
    effect: 'write',
    idempotent: false,
    async run({ id, leaseMinutes, leaseSeconds, force, renew, ...guards }, ctx) {
      // Taking over a live claim needs consent: the host is asked on the modern path; on the legacy path `force` is the explicit consent.
      const consent = force ? deps.consent({ tool: 'pm_claim', confirm: force, ctx }) : undefined;
      try {
        const result = await requestTracker(deps, ctx).claim(id, { ...(leaseMinutes !== undefined ? { leaseMinutes } : {}), ...(leaseSeconds !== undefined ? { leaseSeconds } : {}), ...(force !== undefined ? { force } : {}), ...(renew ? { renew } : {}) }, { ...mutationOptions(deps, ctx, guards), ...(consent ? { consent } : {}) });
        const claim = result.item.claim;
        const takeover = result.receipt.takeover ? ` (took over from ${result.receipt.takeover.from}, whose lease expired ${result.receipt.takeover.expiredAt})` : '';
        return { data: mutationData(result), text: mutationText(`Claimed ${id}${claim ? ` for ${claim.holder} until ${claim.expiresAt}` : ''}${takeover}`, result), ...(result.warnings ? { warnings: result.warnings } : {}) };
      } catch (error) {
        throw explainMcpConsent(error, 'pm_claim');
      }
    },
  });
}

export function pmReleaseTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_release',
    title: 'Release claim',
    description: 'Gives up your claim on an item without closing it (in_progress goes back to open). force releases a claim held by someone else.',
    properties: { id: idSchema(), force: { ...FORCE, description: "Release someone else's claim." }, ...GUARD_PROPERTIES },
    required: ['id'],
    shape: { id: zId(), force: z.boolean().optional(), ...guardShape() },
    output: mutation,
    effect: 'write',
    idempotent: true,
    async run({ id, force, ...guards }, ctx) {
      const result = await requestTracker(deps, ctx).release(id, force !== undefined ? { force } : {}, mutationOptions(deps, ctx, guards));
      return { data: mutationData(result), text: mutationText(`Released ${id}`, result) };
    },
  });
}

export function pmCloseTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_close',
    title: 'Close item',
    description: 'Closes an item with evidence that the work is done (a commit, a passing test, a link), or cancels it with as: "canceled". Releases the claim. Canceling an item someone else has claimed needs consent: a 2026-07-28 host is asked to confirm (elicitation); initialize-era clients pass confirm: true.',
    properties: {
      id: idSchema(),
      evidence: stringSchema(MAX_EVIDENCE, 'What shows the work is done, or why it is canceled.'),
      as: enumSchema(['closed', 'canceled'], 'Default closed.'),
      confirm: { type: 'boolean', description: "Consent to cancel someone else's claimed item." },
      ...GUARD_PROPERTIES,
    },
    required: ['id', 'evidence'],
    shape: { id: zId(), evidence: zText(MAX_EVIDENCE), as: z.enum(['closed', 'canceled']).optional(), confirm: z.boolean().optional(), ...guardShape() },
    output: mutation,
    effect: 'write',
    idempotent: true,
    async run({ id, evidence, as, confirm, ...guards }, ctx) {
      const consent = deps.consent({ tool: 'pm_close', confirm, ctx });
      try {
        const result = await requestTracker(deps, ctx).close(id, { evidence, ...(as ? { as } : {}) }, { ...mutationOptions(deps, ctx, guards), ...(consent ? { consent } : {}) });
        return { data: mutationData(result), text: mutationText(`${as === 'canceled' ? 'Canceled' : 'Closed'} ${id}`, result), ...(result.warnings ? { warnings: result.warnings } : {}) };
      } catch (error) {
        throw explainMcpConsent(error, 'pm_close');
      }
    },
  });
}

export function pmReopenTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_reopen',
    title: 'Reopen item',
    description: 'Reopens a closed or canceled item (status open, closure removed); the reason is kept as a comment.',
    properties: { id: idSchema(), reason: stringSchema(MAX_EVIDENCE), ...GUARD_PROPERTIES },
    required: ['id'],
    shape: { id: zId(), reason: zText(MAX_EVIDENCE).optional(), ...guardShape() },
    output: mutation,
    effect: 'write',
    idempotent: true,
    async run({ id, reason, ...guards }, ctx) {
      const result = await requestTracker(deps, ctx).reopen(id, reason, mutationOptions(deps, ctx, guards));
      return { data: mutationData(result), text: mutationText(`Reopened ${id}`, result) };
    },
  });
}

export function pmCommentTool(deps: PmTrackerToolDeps) {
  return defineTrackerTool({
    name: 'pm_comment',
    title: 'Comment on item',
    description: 'Adds a comment to an item: progress notes, findings, decisions, hand-off context.',
    properties: { id: idSchema(), text: stringSchema(MAX_TEXT), ...GUARD_PROPERTIES },
    required: ['id', 'text'],
    shape: { id: zId(), text: zText(MAX_TEXT), ...guardShape() },
    output: mutation,
    effect: 'write',
    idempotent: false,
    async run({ id, text, ...guards }, ctx) {
      const result = await requestTracker(deps, ctx).comment(id, text, mutationOptions(deps, ctx, guards));
      return { data: mutationData(result), text: mutationText(`Commented on ${id}`, result) };
    },
  });
}
