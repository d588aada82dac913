import type { PmMcpChangeSource } from '../mcp/subscriptions/change-source.js';
import { PmMcpToolCatalog, type PmMcpToolCatalogOptions } from './tool-catalog.js';

/**
 * Where the discovery extension reads its catalogue from, and how a change reaches listeners
 * (seed 004 "Decision": the SDK owns cache invalidation). pm's own servers select their tools
 * once per process (the profile and config.yaml are read at start), so their source is static
 * and its digest only differs between processes. A host whose surface changes while it runs
 * uses {@link PmMcpMutableToolCatalogSource}: every update with a new digest is reported to
 * `subscriptions/listen` streams as `notifications/tools/list_changed`, and everything keyed
 * by the old digest (cursors, memoized lists and answers) stops matching.
 */
export interface PmMcpToolCatalogSource {
  /** The catalogue in effect now. */
  current(): PmMcpToolCatalog;
  /** Dynamic sources: calls `listener` after each change of digest; returns the unsubscribe. */
  subscribe?(listener: () => void): () => void;
}

/** A catalogue built once, on first use (the tool registry it reads is itself built on first use). */
export function staticPmMcpToolCatalogSource(options: () => PmMcpToolCatalogOptions): PmMcpToolCatalogSource {
  let catalog: PmMcpToolCatalog | undefined;
  return { current: () => (catalog ??= new PmMcpToolCatalog(options())) };
}

/** A catalogue a host replaces while the server runs (a profile or contract change). */
export class PmMcpMutableToolCatalogSource implements PmMcpToolCatalogSource {
  private catalog: PmMcpToolCatalog | undefined;
  private readonly listeners = new Set<() => void>();

  constructor(private options: () => PmMcpToolCatalogOptions) {}

  current(): PmMcpToolCatalog {
    return (this.catalog ??= new PmMcpToolCatalog(this.options()));
  }

  /** Replaces the catalogue; returns true (and tells listeners) when its digest changed. */
  update(options: PmMcpToolCatalogOptions): boolean {
    const before = this.current().digest;
    const next = new PmMcpToolCatalog(options);
    this.options = () => options;
    this.catalog = next;
    if (next.digest === before) return false;
    for (const listener of [...this.listeners]) listener();
    return true;
  }

  subscribe(listener: () => void): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }
}

/** The change source reporting a dynamic catalogue's changes as `toolsListChanged` (none for a static one). */
export function pmToolCatalogChangeSource(source: PmMcpToolCatalogSource): PmMcpChangeSource | undefined {
  const subscribe = source.subscribe?.bind(source);
  if (!subscribe) return undefined;
  return {
    coversUri: () => false,
    start: (emit) => subscribe(() => emit([{ kind: 'toolsListChanged' }])),
  };
}
