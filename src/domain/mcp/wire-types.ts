/**
 * The subset of MCP 2026-07-28 wire shapes pm produces or reads (`schema/2026-07-28`). Field
 * names are the schema's; types are deliberately open (`Record<string, unknown>` members) where
 * the schema is open, so extensions can add fields without casts.
 */

/** A JSON object (`JSONObject` in the schema). */
export type JsonObject = Record<string, unknown>;

/** A JSON-RPC request id: string or integer, never null (2026-07-28 `RequestId`). */
export type JsonRpcId = string | number;

/** `Implementation`: client or server identity. */
export interface McpImplementation {
  readonly name: string;
  readonly version: string;
  readonly title?: string;
  readonly description?: string;
  readonly websiteUrl?: string;
  readonly icons?: readonly JsonObject[];
}

/** `ClientCapabilities` as declared on one request (open set). */
export interface McpClientCapabilities {
  readonly elicitation?: { readonly form?: JsonObject; readonly url?: JsonObject } & JsonObject;
  readonly sampling?: { readonly context?: JsonObject; readonly tools?: JsonObject } & JsonObject;
  readonly roots?: JsonObject;
  readonly experimental?: Readonly<Record<string, JsonObject>>;
  readonly extensions?: Readonly<Record<string, JsonObject>>;
  readonly [key: string]: unknown;
}

/** `ServerCapabilities` as advertised by `server/discover` (and, without `extensions`, by legacy `initialize`). */
export interface McpServerCapabilities {
  readonly experimental?: Readonly<Record<string, JsonObject>>;
  readonly logging?: JsonObject;
  readonly completions?: JsonObject;
  readonly prompts?: { readonly listChanged?: boolean };
  readonly resources?: { readonly subscribe?: boolean; readonly listChanged?: boolean };
  readonly tools?: { readonly listChanged?: boolean };
  readonly extensions?: Readonly<Record<string, JsonObject>>;
}

/** `ToolAnnotations` (all hints). */
export interface McpToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** A JSON Schema object with an object root, as `Tool.inputSchema` requires. */
export interface McpObjectSchema extends JsonObject {
  readonly type: 'object';
  readonly $schema?: string;
}

/** `Tool`, the advertised descriptor. */
export interface McpToolDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: McpObjectSchema;
  readonly outputSchema?: JsonObject;
  readonly annotations?: McpToolAnnotations;
  readonly icons?: readonly JsonObject[];
  readonly _meta?: JsonObject;
}

/** `Resource`, the advertised descriptor. */
export interface McpResourceDescriptor {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: JsonObject;
  readonly _meta?: JsonObject;
}

/** `ResourceTemplate`, the advertised descriptor (RFC 6570 `uriTemplate`). */
export interface McpResourceTemplateDescriptor {
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly annotations?: JsonObject;
  readonly _meta?: JsonObject;
}

/** `PromptArgument`. */
export interface McpPromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** `Prompt`, the advertised descriptor. */
export interface McpPromptDescriptor {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly McpPromptArgument[];
  readonly _meta?: JsonObject;
}

/** `TextResourceContents` / `BlobResourceContents`. */
export type McpResourceContents =
  | { readonly uri: string; readonly mimeType?: string; readonly text: string; readonly _meta?: JsonObject }
  | { readonly uri: string; readonly mimeType?: string; readonly blob: string; readonly _meta?: JsonObject };

/** `TextContent` (the content block pm emits; other `ContentBlock` kinds pass through as objects). */
export interface McpTextContent {
  readonly type: 'text';
  readonly text: string;
  readonly annotations?: JsonObject;
  readonly _meta?: JsonObject;
}

/** `ContentBlock`: text, or any other schema content block (image, audio, resource_link, resource). */
export type McpContentBlock = McpTextContent | (JsonObject & { readonly type: string });

/** `PromptMessage`. */
export interface McpPromptMessage {
  readonly role: 'user' | 'assistant';
  readonly content: McpContentBlock;
}

/** `cacheScope` of a cacheable result (2026-07-28 `CacheableResult`). */
export type McpCacheScope = 'public' | 'private';

/** Cache fields a modern list/read/discover result carries (`ttlMs` ≥ 0, integer). */
export interface McpCachePolicy {
  readonly ttlMs: number;
  readonly cacheScope: McpCacheScope;
}
