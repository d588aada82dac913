import type { PmMcpMethodRegistry } from './method-registry.js';
import type { PmMcpChangeSource } from './subscriptions/change-source.js';
import type { PmMcpServerDescriptor } from './server-descriptor.js';
import type { JsonObject } from './wire-types.js';

/**
 * One extension of an MCP server, plugged in by registration alone (seed 000 and seed 004:
 * extensions are optional and request-local; docs/ARCHITECTURE.md "How a request flows",
 * step 4). What it offers is advertised in `server/discover` under `capabilities.extensions`;
 * what it does is registered on the method registry: extra methods, list decorators,
 * interceptors, result shapers, drain hooks. Nothing else in the core changes.
 */
export interface PmMcpServerExtension {
  /** The extension id (e.g. `io.modelcontextprotocol/skills`), or a name for hooks that advertise nothing. */
  readonly id: string;
  /** Settings advertised under `capabilities.extensions[id]`; absent: nothing is advertised. */
  readonly offer?: JsonObject;
  /**
   * True when the offer is also declared in the legacy `initialize` result (an extension whose
   * specification covers initialize-era connections, as SEP-2640 does).
   */
  readonly legacyOffer?: boolean;
  /**
   * True when an initialize-era session that declares the extension in `initialize` has
   * negotiated it for the whole session (stdio process, sealed HTTP session): such a client has
   * no per-request capabilities, so the session is its request-local scope
   * (docs/decisions/005-apps-in-initialize-era-sessions.md). Requires `legacyOffer`.
   */
  readonly legacySession?: boolean;
  /** Work done while the server prepares (before anything but `beforeReady` methods is served). */
  prepare?(): Promise<unknown>;
  /** What the extension notices changing, for `subscriptions/listen` streams. */
  readonly changeSources?: readonly PmMcpChangeSource[];
  /** Registers the extension's methods and hooks, once, on the server's registry. */
  register(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor): void;
}

/** The `capabilities.extensions` entries the extensions offer (ids must be unique). */
export function mcpExtensionOffers(extensions: readonly PmMcpServerExtension[]): Readonly<Record<string, JsonObject>> {
  const offers: Record<string, JsonObject> = {};
  const seen = new Set<string>();
  for (const extension of extensions) {
    if (seen.has(extension.id)) throw new RangeError(`extension ${extension.id} is registered twice`);
    seen.add(extension.id);
    if (extension.offer !== undefined) offers[extension.id] = extension.offer;
  }
  return offers;
}

/** Registers every extension on `methods`, in order. */
export function registerMcpExtensions(methods: PmMcpMethodRegistry, server: PmMcpServerDescriptor, extensions: readonly PmMcpServerExtension[]): PmMcpMethodRegistry {
  for (const extension of extensions) extension.register(methods, server);
  return methods;
}

/** The ids of the extensions whose offer the legacy `initialize` result declares too. */
export function mcpLegacyExtensionIds(extensions: readonly PmMcpServerExtension[]): readonly string[] {
  return Object.freeze(extensions.filter((extension) => extension.legacyOffer === true && extension.offer !== undefined).map((extension) => extension.id));
}

/** The ids of the extensions an initialize-era session negotiates by declaring them in `initialize`. */
export function mcpLegacySessionExtensionIds(extensions: readonly PmMcpServerExtension[]): readonly string[] {
  return Object.freeze(extensions.filter((extension) => extension.legacySession === true && extension.legacyOffer === true && extension.offer !== undefined).map((extension) => extension.id));
}

/** Runs every extension's preparation, together. */
export async function prepareMcpExtensions(extensions: readonly PmMcpServerExtension[]): Promise<void> {
  await Promise.all(extensions.map((extension) => extension.prepare?.()));
}
