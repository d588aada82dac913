import type { z } from 'zod';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { AnyMcpToolDefinition, McpToolOutput } from '../mcp/tool-registry.js';
import type { JsonObject, McpObjectSchema, McpToolAnnotations } from '../mcp/wire-types.js';
import type { MutationOptions } from '../tracker/inputs.js';
import type { Item } from '../tracker/item.js';
import type { MutationResult } from '../tracker/receipt.js';
import type { Tracker } from '../tracker/tracker.js';
import type { PmMcpConsentResolver } from './consent.js';
import { objectSchema, outputObject } from './json-schemas.js';
import { mcpToolArguments } from './tool-arguments.js';

/**
 * The frame every tracker tool is built in (2026-07-28 `server/tools`): a descriptor
 * with a bounded input schema and its zod twin side by side, an output schema, annotations,
 * strict argument parsing (docs/MCP.md "Strict arguments"), and results whose `structuredContent`
 * carries the data while the text is a short readable rendering (never a JSON dump; the legacy
 * path's duplicated JSON text is the core's business).
 */

/**
 * The tracker that serves one request: the plain tracker, or (tracing on) a view of it whose
 * reads and writes are child spans of that request's span. Handlers call the tracker through
 * this with their own request context, so the request's span travels with the request itself.
 */
export type PmTrackerFor = (ctx: McpRequestContext) => Tracker;

/** What the tools need: the tracker, who acts for a request, and how consent is obtained. */
export interface PmTrackerToolDeps {
  /** The tracker, for what does not belong to one request (its configuration, when the tools are built). */
  readonly tracker: Tracker;
  /** The tracker a request's operations go through (default: `tracker`); see {@link requestTracker}. */
  readonly trackerFor?: PmTrackerFor;
  /** The actor recorded for mutations made by this request (undefined: the tracker's default). */
  actorOf(ctx: McpRequestContext): string | undefined;
  readonly consent: PmMcpConsentResolver;
}

/** The tracker that serves the request `ctx` describes. */
export function requestTracker(deps: PmTrackerToolDeps, ctx: McpRequestContext): Tracker {
  return deps.trackerFor ? deps.trackerFor(ctx) : deps.tracker;
}

/** Longest actor name recorded from a principal or client identity. */
export const MAX_ACTOR_LENGTH = 200;

/**
 * The actor of a request (docs/MCP.md "Actor"): the authenticated principal (the bearer
 * token's subject), else the configured actor (`PM_ACTOR`, else the OS user), else undefined
 * (the tracker's own default). The client's declared name is not who is working — clients
 * send their own or a configured server name there — so it is recorded apart, as
 * {@link resolvePmMcpClient}.
 */
export function resolvePmMcpActor(ctx: Pick<McpRequestContext, 'principal'>, fallback: string | undefined): string | undefined {
  const raw = ctx.principal?.id?.trim() || fallback?.trim();
  return raw ? raw.slice(0, MAX_ACTOR_LENGTH) : undefined;
}

/**
 * The client software of a request as `name/version` (its `clientInfo`: per request on the
 * modern path, from `initialize` on the legacy path), recorded on receipts and history lines
 * beside the actor; undefined when the client named none.
 */
export function resolvePmMcpClient(ctx: Pick<McpRequestContext, 'clientInfo'>): string | undefined {
  const name = ctx.clientInfo?.name?.trim();
  if (!name) return undefined;
  const version = ctx.clientInfo?.version?.trim();
  return (version ? `${name}/${version}` : name).slice(0, MAX_ACTOR_LENGTH);
}

/** How a tool affects the tracker; decides the annotations. */
export type PmMcpToolEffect = 'read' | 'write' | 'destructive';

/** A tool's data and its readable rendering. */
export interface PmTrackerToolResult<O extends JsonObject = JsonObject> {
  readonly data: O;
  readonly text: string;
  /** Set when data and text depend only on the arguments and this key (see McpToolOutput.memoKey). */
  readonly memoKey?: string;
  /** What the tracker warned about a change that went through (`structuredContent.warnings`). */
  readonly warnings?: readonly string[];
}

/** Everything one tracker tool declares. `properties` and `shape` must name the same keys. */
export interface PmTrackerToolSpec<S extends z.ZodRawShape> {
  readonly name: string;
  readonly title: string;
  readonly description: string;
  /** JSON Schema 2020-12 of each argument (bounded). */
  readonly properties: Record<string, JsonObject>;
  readonly required?: readonly string[];
  /** The zod twin of `properties`. */
  readonly shape: S;
  /** Members of `structuredContent`. */
  readonly output: { readonly properties: Record<string, JsonObject>; readonly required: readonly string[] };
  readonly effect: PmMcpToolEffect;
  readonly idempotent: boolean;
  /** It reads or writes the whole tracker: a durable task when the request negotiated tasks. */
  readonly longRunning?: boolean;
  run(args: z.output<z.ZodObject<S>>, ctx: McpRequestContext): Promise<PmTrackerToolResult>;
}

/** What the tracker warned about a change that went through (a blocked claim, somebody else's claim); present only when there are some. */
const WARNINGS_SCHEMA: JsonObject = { type: 'array', items: { type: 'string' } };

/**
 * The annotations of an effect: all four hints, openWorldHint false (pm touches only its own
 * tracker). No annotations.title: the descriptor's own title takes precedence anyway.
 */
export function annotationsFor(effect: PmMcpToolEffect, idempotent: boolean): McpToolAnnotations {
  return { readOnlyHint: effect === 'read', destructiveHint: effect === 'destructive', idempotentHint: idempotent, openWorldHint: false };
}

/** Builds the tool definition, checking once that the JSON Schema and the zod shape agree. */
export function defineTrackerTool<S extends z.ZodRawShape>(spec: PmTrackerToolSpec<S>): AnyMcpToolDefinition {
  const declared = Object.keys(spec.properties);
  const parsed = Object.keys(spec.shape);
  if (declared.join() !== parsed.join()) throw new RangeError(`tool ${spec.name}: JSON Schema properties (${declared.join()}) and zod shape (${parsed.join()}) differ`);
  for (const key of spec.required ?? []) if (!declared.includes(key)) throw new RangeError(`tool ${spec.name}: required argument ${key} is not declared`);
  if ('warnings' in spec.output.properties) throw new RangeError(`tool ${spec.name}: structuredContent.warnings is reserved for the tracker's warnings`);
  return {
    name: spec.name,
    title: spec.title,
    description: spec.description,
    inputSchema: objectSchema(spec.properties, spec.required) as McpObjectSchema,
    outputSchema: outputObject({ ...spec.output.properties, warnings: WARNINGS_SCHEMA }, spec.output.required) as McpObjectSchema,
    annotations: annotationsFor(spec.effect, spec.idempotent),
    args: mcpToolArguments(spec.shape),
    ...(spec.longRunning ? { longRunning: true } : {}),
    async handler(args: z.output<z.ZodObject<S>>, ctx: McpRequestContext): Promise<McpToolOutput> {
      const result = await spec.run(args, ctx);
      const warnings = result.warnings ?? [];
      if (!warnings.length) return { structuredContent: result.data, text: result.text, ...(result.memoKey !== undefined ? { memoKey: result.memoKey } : {}) };
      return {
        structuredContent: { ...result.data, warnings },
        text: `${result.text}\n${warnings.map((w) => `Warning: ${w}`).join('\n')}`,
      };
    },
  };
}

/** The mutation options of a call: the request's actor plus the optional guards. */
export function mutationOptions(deps: PmTrackerToolDeps, ctx: McpRequestContext, guards: { expectedRevision?: number; idempotencyKey?: string }): MutationOptions {
  const actor = deps.actorOf(ctx);
  const client = resolvePmMcpClient(ctx);
  return {
    ...(actor !== undefined ? { actor } : {}),
    ...(client !== undefined ? { client } : {}),
    ...(guards.expectedRevision !== undefined ? { expectedRevision: guards.expectedRevision } : {}),
    ...(guards.idempotencyKey !== undefined ? { idempotencyKey: guards.idempotencyKey } : {}),
  };
}

/** The item as a mutation left it, without body and comments. */
export function briefOf(item: Item): JsonObject {
  return {
    id: item.id,
    title: item.title,
    type: item.type,
    status: item.status,
    priority: item.priority,
    revision: item.revision,
    updated: item.updated,
    ...(item.parent ? { parent: item.parent } : {}),
    ...(item.assignee ? { assignee: item.assignee } : {}),
    ...(item.claim ? { claim: { ...item.claim } } : {}),
    ...(item.closure ? { closure: { ...item.closure } } : {}),
  };
}

/** The structured result of a mutation: brief item, receipt, changed, replayed. */
export function mutationData(result: MutationResult<Item | null>): JsonObject {
  return { item: result.item ? briefOf(result.item) : null, receipt: { ...result.receipt }, changed: result.changed, replayed: result.replayed };
}

/**
 * One readable line for a mutation: `done` says what happened ("Claimed pm-a1b2 for alice"),
 * followed by the item's state, revision and receipt; replays and no-ops say so.
 */
export function mutationText(done: string, result: MutationResult<Item | null>): string {
  const { item, receipt } = result;
  const state = item ? `${item.id} "${item.title}" is ${item.status}, P${item.priority}, revision ${item.revision}` : `${receipt.itemId} no longer exists`;
  if (result.replayed) return `Replay of idempotency key '${receipt.idempotencyKey ?? ''}': nothing written. ${state}. First receipt ${receipt.receiptId}.`;
  if (!result.changed) return `No change: ${receipt.itemId} already matched the request. ${state}.`;
  return `${done}. ${state}. Receipt ${receipt.receiptId}.`;
}
