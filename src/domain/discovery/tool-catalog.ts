import type { Hasher } from '../../ports/hasher.js';
import { canonicalJson } from '../util/canonical-json.js';
import type { McpToolDescriptor } from '../mcp/wire-types.js';
import { PM_DISCOVER_TOOL_NAME, PM_TOOL_DISCOVERY_LIMITS } from './discovery-capability.js';
import { PmToolRankingIndex } from './tool-ranking.js';

/**
 * One tool catalogue as discovery sees it (seed 004 "Decision": the SDK owns cursor binding and
 * cache invalidation): the profile-selected tools in advertisement order, the everyday tools
 * of the entry catalogue, the ranking index, and a digest over everything a discovery answer
 * depends on. The digest changes whenever the profile, a tool's contract (the schemas
 * config.yaml shapes: types, statuses, custom fields), the entry choice, the keywords or the
 * ranking rules change, so cursors, memoized answers and hosts' caches of the old catalogue
 * are told apart from the new one.
 */

/** Bumped when the ranking rules change (old cursors would page a different order). */
export const PM_TOOL_DISCOVERY_RANKING_VERSION = 1;

/** What a catalogue is built from. */
export interface PmMcpToolCatalogOptions {
  /** The profile that selected the tools (e.g. `core`); part of every cursor. */
  readonly profile: string;
  /** The profile-selected tool descriptors, in advertisement order. */
  readonly tools: readonly McpToolDescriptor[];
  /** The everyday tools wanted in the entry catalogue beside pm_discover, most wanted first. */
  readonly entry: readonly string[];
  /** Curated words per tool name that a need may use for it (e.g. "start" for a claim tool). */
  readonly keywords?: Readonly<Record<string, readonly string[]>>;
  readonly hasher: Hasher;
}

/** An immutable catalogue (see the module comment). */
export class PmMcpToolCatalog {
  readonly profile: string;
  /** `sha256:<hex>` over the profile, the descriptors, the entry choice, the keywords and the ranking version. */
  readonly digest: string;
  /** The digest's first 16 hex digits: how receipts and cursors name the catalogue. */
  readonly id: string;
  readonly tools: readonly McpToolDescriptor[];
  /** The everyday tools of the entry catalogue (pm_discover excluded), in advertisement order. */
  readonly entryNames: readonly string[];
  readonly index: PmToolRankingIndex;
  private readonly byName: ReadonlyMap<string, { readonly tool: McpToolDescriptor; readonly order: number }>;

  constructor(options: PmMcpToolCatalogOptions) {
    if (options.tools.some((t) => t.name === PM_DISCOVER_TOOL_NAME)) throw new RangeError(`${PM_DISCOVER_TOOL_NAME} is the discovery tool; the catalogue must not define it`);
    this.profile = options.profile;
    this.tools = options.tools;
    this.byName = new Map(options.tools.map((tool, order) => [tool.name, { tool, order }]));
    this.entryNames = chooseEntry(options.tools, options.entry);
    const keywords = options.keywords ?? {};
    this.index = new PmToolRankingIndex(options.tools.map((descriptor) => ({ descriptor, keywords: keywords[descriptor.name] ?? [] })));
    const hashed = canonicalJson({ v: PM_TOOL_DISCOVERY_RANKING_VERSION, profile: options.profile, tools: options.tools, entry: this.entryNames, keywords });
    this.digest = `sha256:${options.hasher.sha256Hex(hashed)}`;
    this.id = this.digest.slice('sha256:'.length, 'sha256:'.length + 16);
  }

  get(name: string): McpToolDescriptor | undefined {
    return this.byName.get(name)?.tool;
  }

  /** Position in advertisement order (-1 when absent). */
  orderOf(name: string): number {
    return this.byName.get(name)?.order ?? -1;
  }

  isEntry(name: string): boolean {
    return this.entryNames.includes(name);
  }
}

/**
 * The entry tools: the wanted ones the profile offers, then (when a custom profile lacks some)
 * the profile's other tools in advertisement order, up to four; returned in advertisement order
 * so the list is stable whatever order the wishes were given in.
 */
function chooseEntry(tools: readonly McpToolDescriptor[], wanted: readonly string[]): string[] {
  const size = PM_TOOL_DISCOVERY_LIMITS.entryCatalogSize - 1;
  const names = tools.map((t) => t.name);
  const chosen = wanted.filter((n, i) => names.includes(n) && wanted.indexOf(n) === i).slice(0, size);
  for (const name of names) {
    if (chosen.length >= size) break;
    if (!chosen.includes(name)) chosen.push(name);
  }
  return names.filter((n) => chosen.includes(n));
}
