import type { PmMcpSkillRegistry } from './registry.js';

/** What one reload did. */
export interface PmSkillReload {
  readonly registry: PmMcpSkillRegistry;
  readonly previous: PmMcpSkillRegistry;
  /** True when the served skills differ (the digests differ): time to send `notifications/resources/list_changed`. */
  readonly changed: boolean;
}

/**
 * Holds the current skills registry and swaps in a freshly loaded one (seed 000 "Skills over
 * MCP": each read is resolved from the immutable registry that computed its digest). A request
 * takes `current` once and keeps using that registry, so a reload never changes a request
 * midway; only requests that start afterwards see the new one. Reloads run one at a time, in
 * the order asked; a failed load leaves the current registry in place and rejects that reload.
 */
export class PmMcpSkillRegistryHolder {
  private registry: PmMcpSkillRegistry;
  private queue: Promise<unknown> = Promise.resolve();

  constructor(
    initial: PmMcpSkillRegistry,
    private readonly loader: () => Promise<PmMcpSkillRegistry>,
  ) {
    this.registry = initial;
  }

  /** Loads the first registry and holds it. */
  static async open(loader: () => Promise<PmMcpSkillRegistry>): Promise<PmMcpSkillRegistryHolder> {
    return new PmMcpSkillRegistryHolder(await loader(), loader);
  }

  /** The registry new requests should use. */
  get current(): PmMcpSkillRegistry {
    return this.registry;
  }

  /** Loads a new registry and makes it current; says whether anything served changed. */
  reload(): Promise<PmSkillReload> {
    const run = this.queue.then(async () => {
      const next = await this.loader();
      const previous = this.registry;
      this.registry = next;
      return { registry: next, previous, changed: next.digest !== previous.digest };
    });
    this.queue = run.catch(() => undefined);
    return run;
  }
}
