/**
 * Validates MCP JSON-RPC messages against the official JSON Schemas, vendored unmodified in
 * test/fixtures/mcp-schema/<revision>/schema.json (source, commit and sha256 in that folder's
 * README.md), picking the definitions for the message's era: 2026-07-28 for modern traffic, 2025-11-25 / 2025-06-18
 * for the legacy adapter. Beyond the schema it checks the seed 004 rules the schema cannot:
 * every modern result carries resultType (negative control: a result without it is reported),
 * legacy results carry none, and modern errors never use the removed codes -32002 / -32042.
 */
import { checkTasksResult } from './tasks-schema.js';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { Ajv, type ValidateFunction } from 'ajv';
import { Ajv2020 } from 'ajv/dist/2020.js';
import addFormatsImport from 'ajv-formats';
import type { FormatsPlugin } from 'ajv-formats';

export type McpSchemaRevision = '2026-07-28' | '2025-11-25' | '2025-06-18';

/** The vendored schemas: test/fixtures/mcp-schema/<revision>/schema.json, inside the repository. */
export const MCP_SCHEMA_DIR = fileURLToPath(new URL('../fixtures/mcp-schema/', import.meta.url));

/** The vendored schema file of `revision`. */
export function mcpSchemaPath(revision: McpSchemaRevision): string {
  return path.join(MCP_SCHEMA_DIR, revision, 'schema.json');
}

const addFormats = ((addFormatsImport as unknown as { default?: FormatsPlugin }).default ?? addFormatsImport) as FormatsPlugin;

interface Loaded {
  readonly ajv: Ajv | Ajv2020;
  readonly id: string;
  readonly defsKey: '$defs' | 'definitions';
  readonly defs: Record<string, unknown>;
  readonly cache: Map<string, ValidateFunction>;
}

const loaded = new Map<McpSchemaRevision, Loaded>();

function load(revision: McpSchemaRevision): Loaded {
  const hit = loaded.get(revision);
  if (hit) return hit;
  const schema = JSON.parse(readFileSync(mcpSchemaPath(revision), 'utf8')) as Record<string, unknown>;
  const draft7 = String(schema.$schema).includes('draft-07');
  const ajv = draft7 ? new Ajv({ strict: false, allErrors: true }) : new Ajv2020({ strict: false, allErrors: true });
  addFormats(ajv);
  const id = `mcp-${revision}.json`;
  ajv.addSchema(schema, id);
  const defsKey = draft7 ? 'definitions' : '$defs';
  const entry: Loaded = { ajv, id, defsKey, defs: schema[defsKey] as Record<string, unknown>, cache: new Map() };
  loaded.set(revision, entry);
  return entry;
}

/** The compiled validator for `definition` of `revision` (throws when the definition does not exist). */
export function mcpDefinition(revision: McpSchemaRevision, definition: string): ValidateFunction {
  const entry = load(revision);
  if (!(definition in entry.defs)) throw new Error(`${revision} schema has no definition ${definition}`);
  let validate = entry.cache.get(definition);
  if (!validate) {
    validate = entry.ajv.compile({ $ref: `${entry.id}#/${entry.defsKey}/${definition}` });
    entry.cache.set(definition, validate);
  }
  return validate;
}

function run(revision: McpSchemaRevision, definition: string, value: unknown, where: string): string[] {
  const validate = mcpDefinition(revision, definition);
  if (validate(value)) return [];
  return (validate.errors ?? []).slice(0, 8).map((e) => `${where} ${revision}#${definition}${e.instancePath} ${e.message ?? ''}`.trim());
}

const RESULT_DEFS: Record<string, string> = {
  'server/discover': 'DiscoverResult',
  initialize: 'InitializeResult',
  ping: 'EmptyResult',
  'tools/list': 'ListToolsResult',
  'tools/call': 'CallToolResult',
  'resources/list': 'ListResourcesResult',
  'resources/templates/list': 'ListResourceTemplatesResult',
  'resources/read': 'ReadResourceResult',
  'prompts/list': 'ListPromptsResult',
  'prompts/get': 'GetPromptResult',
  'completion/complete': 'CompleteResult',
  'subscriptions/listen': 'SubscriptionsListenResult',
};

const NOTIFICATION_DEFS: Record<string, string> = {
  'notifications/progress': 'ProgressNotification',
  'notifications/message': 'LoggingMessageNotification',
  'notifications/cancelled': 'CancelledNotification',
  'notifications/subscriptions/acknowledged': 'SubscriptionsAcknowledgedNotification',
  'notifications/resources/updated': 'ResourceUpdatedNotification',
  'notifications/resources/list_changed': 'ResourceListChangedNotification',
  'notifications/tools/list_changed': 'ToolListChangedNotification',
  'notifications/prompts/list_changed': 'PromptListChangedNotification',
};

const MODERN_ERROR_DEFS: Record<number, { def: string; whole: boolean }> = {
  [-32700]: { def: 'ParseError', whole: false },
  [-32600]: { def: 'InvalidRequestError', whole: false },
  [-32601]: { def: 'MethodNotFoundError', whole: false },
  [-32602]: { def: 'InvalidParamsError', whole: false },
  [-32603]: { def: 'InternalError', whole: false },
  [-32020]: { def: 'HeaderMismatchError', whole: true },
  [-32021]: { def: 'MissingRequiredClientCapabilityError', whole: true },
  [-32022]: { def: 'UnsupportedProtocolVersionError', whole: true },
};

/** Options for {@link checkMcpMessage}. */
export interface McpMessageCheckOptions {
  /** The request method a response answers (selects the result definition). */
  readonly method?: string;
}

function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Returns every problem found in one server-written message (an empty list means valid).
 * `message` may be the serialized text (one line) or the parsed value.
 */
export function checkMcpMessage(message: unknown, revision: McpSchemaRevision, options: McpMessageCheckOptions = {}): string[] {
  const problems: string[] = [];
  let value = message;
  if (typeof message === 'string') {
    if (message.includes('\n')) problems.push('message contains an embedded newline');
    value = JSON.parse(message);
  }
  const modern = revision === '2026-07-28';
  problems.push(...run(revision, 'JSONRPCMessage', value, 'message'));
  if (!isObject(value)) return problems;
  if ('result' in value) {
    const result = value.result;
    if (modern && (!isObject(result) || typeof result.resultType !== 'string')) problems.push('modern result has no resultType');
    if (!modern && isObject(result) && 'resultType' in result) problems.push('legacy result carries resultType');
    const resultType = isObject(result) ? result.resultType : undefined;
    // Interim results have their own shape (MRTR InputRequiredResult); extension types (task) are not in the core schema.
    const def = modern && resultType === 'input_required' ? 'InputRequiredResult' : modern && resultType !== 'complete' ? undefined : options.method ? RESULT_DEFS[options.method] : undefined;
    if (def) problems.push(...run(revision, def, result, 'result'));
    const taskProblems = modern && isObject(result) ? checkTasksResult(options.method, result) : undefined;
    if (taskProblems) problems.push(...taskProblems);
    else if (modern && resultType !== 'complete' && resultType !== 'input_required') problems.push(`unknown resultType ${JSON.stringify(resultType)}`);
    if (modern && resultType === 'input_required' && isObject(result) && !('inputRequests' in result) && !('requestState' in result)) {
      problems.push('input_required result needs inputRequests or requestState');
    }
  } else if ('error' in value && isObject(value.error)) {
    const code = value.error.code as number;
    if (modern && (code === -32002 || code === -32042)) problems.push(`modern error uses removed code ${code}`);
    const def = modern ? MODERN_ERROR_DEFS[code] : undefined;
    if (def) problems.push(...run(revision, def.def, def.whole ? value : value.error, 'error'));
    if (!modern && revision === '2025-06-18' && !('id' in value)) problems.push('2025-06-18 error responses need an id');
  } else if (typeof value.method === 'string') {
    const def = NOTIFICATION_DEFS[value.method];
    if (def) problems.push(...run(revision, def, value, 'notification'));
  }
  return problems;
}

/** Throws (failing the test) when {@link checkMcpMessage} finds a problem. */
export function expectValidMcpMessage(message: unknown, revision: McpSchemaRevision, options: McpMessageCheckOptions = {}): void {
  const problems = checkMcpMessage(message, revision, options);
  if (problems.length) throw new Error(`invalid MCP message for ${revision}:\n  ${problems.join('\n  ')}\n${typeof message === 'string' ? message : JSON.stringify(message)}`);
}

/** Problems with `schema` as a JSON Schema 2020-12 document (tool input/output schemas). */
export function checkJsonSchema2020(schema: unknown): string[] {
  const ajv = load('2026-07-28').ajv;
  if (ajv.validateSchema(schema as object)) return [];
  return (ajv.errors ?? []).map((e) => `${e.instancePath} ${e.message ?? ''}`);
}
