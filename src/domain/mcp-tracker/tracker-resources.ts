import type { FileSystem } from '../../ports/file-system.js';
import { NotFoundError, PmMcpInvalidParamsError, ValidationError } from '../errors/index.js';
import {
  PmMcpResourceRegistry,
  type McpResourceDefinition,
  type McpResourceLister,
  type McpResourceTemplateDefinition,
} from '../mcp/resource-registry.js';
import type { McpCachePolicy, McpResourceDescriptor } from '../mcp/wire-types.js';
import type { ItemSummary } from '../tracker/index-entry.js';
import { ITEM_ID_PATTERN } from '../tracker/item.js';
import type { Tracker } from '../tracker/tracker.js';
import type { PmTrackerFor } from './tool-kit.js';
import { readContext } from './context-tool.js';
import { readPmGuidance } from './guidance.js';
import { completeItemIds } from './item-completion.js';

/**
 * The tracker's resources (2026-07-28 `server/resources`): pm://context (project snapshot),
 * pm://items/{id} (template, with completion of ids), pm://claims (active claims) and
 * pm://guidance, with cursor pagination wherever a list can grow. `resources/list` lists the
 * fixed resources and then one `pm://items/<id>` per item, paged with the tracker's keyset
 * cursors (one index pass per page, so it stays cheap at 100k items). Everything read here is
 * tracker data: private.
 */

/** Cache policy of tracker data: reads and the item listing (seed 004: "Tool and resource data stay private"). */
export const PM_TRACKER_DATA_CACHE: McpCachePolicy = Object.freeze({ ttlMs: 5_000, cacheScope: 'private' });
/** Cache policy of the repository guidance (changes only with the repository). */
export const PM_GUIDANCE_CACHE: McpCachePolicy = Object.freeze({ ttlMs: 60_000, cacheScope: 'private' });

export const PM_CONTEXT_URI = 'pm://context';
export const PM_CLAIMS_URI = 'pm://claims';
export const PM_GUIDANCE_URI = 'pm://guidance';
export const PM_ITEM_URI_TEMPLATE = 'pm://items/{id}';
const JSON_MIME = 'application/json';

/** The resource URI of one item. */
export function pmItemUri(id: string): string {
  return `pm://items/${id}`;
}

function itemDescriptor(s: ItemSummary): McpResourceDescriptor {
  return { uri: pmItemUri(s.id), name: s.id, title: s.title, description: `${s.type}, ${s.status}, P${s.priority}`, mimeType: JSON_MIME };
}

/** Lists one resource per item, ordered by id, with the tracker's cursors (bad cursors are -32602). */
export function pmItemResourceLister(trackerFor: PmTrackerFor): McpResourceLister {
  return {
    cache: PM_TRACKER_DATA_CACHE,
    async list(cursor, limit, ctx) {
      try {
        const page = await trackerFor(ctx).list({ all: true, sort: 'id', limit: Math.min(Math.max(limit, 1), 500), ...(cursor !== undefined ? { cursor } : {}) });
        return { resources: page.items.map(itemDescriptor), ...(page.nextCursor !== undefined ? { nextCursor: page.nextCursor } : {}) };
      } catch (error) {
        if (error instanceof ValidationError && error.data.field === 'cursor') throw new PmMcpInvalidParamsError(`Invalid cursor: ${error.message}`, { cursor });
        throw error;
      }
    },
  };
}

/** The fixed resources: context, claims, guidance. */
export function pmFixedResources(tracker: Tracker, fs: FileSystem, trackerFor: PmTrackerFor = () => tracker): McpResourceDefinition[] {
  return [
    {
      uri: PM_CONTEXT_URI,
      name: 'context',
      title: 'Project context',
      description: 'Snapshot: counts by status and type, the next ready item, active claims, recent changes.',
      mimeType: JSON_MIME,
      cache: PM_TRACKER_DATA_CACHE,
      read: async (ctx) => [{ uri: PM_CONTEXT_URI, mimeType: JSON_MIME, text: JSON.stringify(await readContext(trackerFor(ctx))) }],
    },
    {
      uri: PM_CLAIMS_URI,
      name: 'claims',
      title: 'Active claims',
      description: 'Items someone holds a live claim on, soonest expiry first.',
      mimeType: JSON_MIME,
      cache: PM_TRACKER_DATA_CACHE,
      read: async (ctx) => {
        const { claims } = await trackerFor(ctx).context();
        return [{ uri: PM_CLAIMS_URI, mimeType: JSON_MIME, text: JSON.stringify({ claims, total: claims.length }) }];
      },
    },
    {
      uri: PM_GUIDANCE_URI,
      name: 'guidance',
      title: 'Agent guidance',
      description: "The repository's agent guidance (AGENTS.md, else CLAUDE.md, else pm's built-in workflow).",
      mimeType: 'text/markdown',
      cache: PM_GUIDANCE_CACHE,
      read: async () => {
        const guidance = await readPmGuidance(fs, tracker.paths.projectDir);
        return [{ uri: PM_GUIDANCE_URI, mimeType: 'text/markdown', text: guidance.text, _meta: { 'dev.unbrained.pm/source': guidance.source } }];
      },
    },
  ];
}

/** The `pm://items/{id}` template: reads one item as JSON; completes ids by prefix. */
export function pmItemTemplate(trackerFor: PmTrackerFor): McpResourceTemplateDefinition {
  return {
    uriTemplate: PM_ITEM_URI_TEMPLATE,
    name: 'item',
    title: 'Work item',
    description: 'One work item as JSON: fields, description, acceptance criteria, links, claim, closure, comments.',
    mimeType: JSON_MIME,
    cache: PM_TRACKER_DATA_CACHE,
    async read(uri, variables, ctx) {
      const id = variables.id ?? '';
      if (!ITEM_ID_PATTERN.test(id)) throw new NotFoundError(`no item ${id}`, { itemId: id });
      return [{ uri, mimeType: JSON_MIME, text: JSON.stringify(await trackerFor(ctx).get(id)) }];
    },
    complete: (argument, value, _context, ctx) => (argument === 'id' ? completeItemIds(trackerFor(ctx), value) : []),
  };
}

/** The resource registry of a tracker server; reads go through `trackerFor` (the request's tracker). */
export function createPmTrackerResources(tracker: Tracker, fs: FileSystem, trackerFor: PmTrackerFor = () => tracker): PmMcpResourceRegistry {
  return new PmMcpResourceRegistry(pmFixedResources(tracker, fs, trackerFor), [pmItemTemplate(trackerFor)], pmItemResourceLister(trackerFor));
}
