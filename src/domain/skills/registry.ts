import { PmMcpInvalidParamsError, PmMcpResourceNotFoundError } from '../errors/mcp-errors.js';
import { decodeUtf8Exactly, encodeBase64 } from './byte-codec.js';
import { decodePmSkillCursor, encodePmSkillCursor } from './cursor.js';
import type { PmSkillDiagnostic } from './diagnostics.js';
import { loadPmSkills, type PmSkillRegistryOptions } from './registry-load.js';
import type { PmSkillIndex } from './registry-index.js';
import { isPmSkillUri } from './skill-uri.js';
import type { PmSkillEntry, PmSkillReadBody, PmSkillResource, PmSkillResourcePage, PmSkillsGetBody, PmSkillsListBody } from './types.js';

/** Entries per page when the caller does not say (the server's choice, 2026-07-28 pagination). */
export interface PmSkillPageSizes {
  readonly skills: number;
  readonly directory: number;
  readonly resources: number;
}

export const PM_SKILL_PAGE_SIZES: PmSkillPageSizes = Object.freeze({ skills: 50, directory: 100, resources: 100 });

const MAX_PAGE = 1000;

/** Paging parameters: an opaque cursor from a previous page, and an optional page size. */
export interface PmSkillPageParams {
  readonly cursor?: string;
  readonly limit?: number;
}

/**
 * The skills registry (seed 000 "Skills over MCP"; SEP-2640 at the pinned revision): an
 * immutable, in-memory snapshot of every served skill. Digests, sizes, front matter and the
 * bodies `read` returns all come from the same bytes read once at load, so a reader always
 * gets exactly what the entry's digest describes. A workspace change means loading a new
 * registry (see PmMcpSkillRegistryHolder); requests already holding this one finish against
 * it. Every operation returns a plain JSON body; the MCP layer adds `resultType` and the
 * cache fields. Lists are ordered by name and paged with cursors bound to `digest`.
 */
export class PmMcpSkillRegistry {
  private constructor(
    private readonly index: PmSkillIndex,
    /** `sha256:<hex>` over every served entry: changes whenever anything served changes. */
    readonly digest: string,
    /** Every rejection of this load, for stderr and `pm skills check`. */
    readonly diagnostics: readonly PmSkillDiagnostic[],
    private readonly pageSizes: PmSkillPageSizes,
  ) {}

  /**
   * Loads the package's skills and the workspace's `.agents/skills/` (overrides win), reserving
   * every budget from metadata before reading a body. Never throws for bad content: each
   * rejection is a diagnostic, and the other skills are served.
   */
  static async load(options: PmSkillRegistryOptions): Promise<PmMcpSkillRegistry> {
    const { index, digest, diagnostics } = await loadPmSkills(options);
    return new PmMcpSkillRegistry(index, digest, diagnostics, { ...PM_SKILL_PAGE_SIZES, ...options.pageSizes });
  }

  /** How many skills are served. */
  get size(): number {
    return this.index.entries.length;
  }

  /** Every entry, by name (unpaged; for `pm skills check` and hosts embedding the registry). */
  entries(): readonly PmSkillEntry[] {
    return this.index.entries;
  }

  /** `skills/list`: one page of entries by name; `nextCursor` only when more follow. */
  list(params: PmSkillPageParams = {}): PmSkillsListBody {
    const { items, nextCursor } = this.page(this.index.entries, 'skills/list', params, this.pageSizes.skills);
    return nextCursor === undefined ? { skills: items } : { skills: items, nextCursor };
  }

  /** `skills/get`: the entry whose SKILL.md URI is exactly `uri`; -32602 for anything else. */
  get(uri: string): PmSkillsGetBody {
    const skill = this.index.entryByUri.get(uri);
    if (!skill) throw new PmMcpInvalidParamsError(`Unknown skill ${JSON.stringify(uri)}: skills/get takes the SKILL.md URI of a served skill`, { uri });
    return { skill };
  }

  /** Whether `uri` is a file this registry serves (so `resources/read` can route it here). */
  hasResource(uri: string): boolean {
    return this.index.files.has(uri);
  }

  /** Whether `uri` is in the skill namespace at all (served or not). */
  ownsUri(uri: string): boolean {
    return isPmSkillUri(uri);
  }

  /**
   * `resources/read` of one skill file: UTF-8 bodies as `text` exactly as stored (BOM and CRLF
   * kept), anything else as base64 `blob`; SKILL.md as `text/markdown`. Unknown URIs
   * (directories included) are PmMcpResourceNotFoundError (-32602 with `data.uri`).
   */
  read(uri: string): PmSkillReadBody {
    const file = this.index.files.get(uri);
    if (!file) throw new PmMcpResourceNotFoundError(uri);
    const text = file.isText ? decodeUtf8Exactly(file.bytes) : undefined;
    return { contents: [text === undefined ? { uri, mimeType: file.mimeType, blob: encodeBase64(file.bytes) } : { uri, mimeType: file.mimeType, text }] };
  }

  /** Whether `uri` is a directory of a served skill (its root included). */
  isDirectory(uri: string): boolean {
    return this.index.directories.has(uri);
  }

  /**
   * `resources/directory/read`: the direct children of one skill directory (files with their
   * MIME type and size, subdirectories as `inode/directory`), by name, paged. A URI that is not
   * a served skill directory (a file, an unknown path) is -32602.
   */
  readDirectory(uri: string, params: PmSkillPageParams = {}): PmSkillResourcePage {
    const children = this.index.directories.get(uri);
    if (!children) throw new PmMcpInvalidParamsError(`Not a skill directory: ${JSON.stringify(uri)}`, { uri });
    const { items, nextCursor } = this.page(children, `resources/directory/read ${uri}`, params, this.pageSizes.directory);
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }

  /** Each SKILL.md as a `resources/list` item (name and description from its front matter), by name, unpaged. */
  resources(): readonly PmSkillResource[] {
    return this.index.skillMdResources;
  }

  /** One page of {@link resources}, with this registry's own cursor. */
  listResources(params: PmSkillPageParams = {}): PmSkillResourcePage {
    const { items, nextCursor } = this.page(this.index.skillMdResources, 'resources/list', params, this.pageSizes.resources);
    return nextCursor === undefined ? { resources: items } : { resources: items, nextCursor };
  }

  private page<T>(all: readonly T[], list: string, params: PmSkillPageParams, pageSize: number): { items: readonly T[]; nextCursor: string | undefined } {
    const limit = params.limit === undefined ? pageSize : params.limit;
    if (!Number.isSafeInteger(limit) || limit < 1) throw new PmMcpInvalidParamsError('Invalid limit: it must be a positive integer', { limit });
    const offset = params.cursor === undefined ? 0 : decodePmSkillCursor(params.cursor, list, this.digest, all.length);
    const end = Math.min(all.length, offset + Math.min(limit, MAX_PAGE));
    const items = offset === 0 && end === all.length ? all : all.slice(offset, end);
    return { items, nextCursor: end < all.length ? encodePmSkillCursor(list, this.digest, end) : undefined };
  }
}
