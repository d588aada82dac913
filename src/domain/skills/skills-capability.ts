import { PmMcpMissingClientCapabilityError } from '../errors/mcp-errors.js';
import type { McpRequestContext } from '../mcp/request-context.js';
import type { JsonObject } from '../mcp/wire-types.js';
import { PM_SKILLS_EXTENSION_ID, PM_SKILLS_EXTENSION_REVISION } from './types.js';

/**
 * Negotiation of the Skills extension (seed 000 "Skills over MCP"; SEP-2640 at the pinned
 * revision, "Capability Declaration").
 *
 * What pm advertises, under `capabilities.extensions["io.modelcontextprotocol/skills"]` of
 * `server/discover` (and of the legacy `initialize` result): directory reads, the draft status
 * and the exact revision.
 *
 * What a request must declare: the seed requires every `skills/list`, `skills/get`, skill
 * `resources/read` and `resources/directory/read` request to declare the extension itself with
 * that exact revision (and `directoryRead: true` for directory reads). The pinned SEP defines
 * no client-side declaration and standard SEP-2640 clients send none, so an operator chooses:
 * - `required` (the default, as the seed decides): a missing or incompatible declaration fails
 *   closed with -32021 and a capability map naming exactly what is required;
 * - `optional`: a missing declaration is served; an incompatible one still fails closed.
 * A declaration is incompatible when it names another revision, or, for a directory read,
 * says `directoryRead` is anything but `true`. `{}` names no revision: it is missing in
 * `required` mode and acceptable in `optional` mode.
 */

/** `capabilities.extensions["io.modelcontextprotocol/skills"]` as pm advertises it. */
export const PM_MCP_SKILLS_SERVER_CAPABILITY = Object.freeze({ directoryRead: true, status: 'draft', revision: PM_SKILLS_EXTENSION_REVISION } as const);

/** How strictly requests must declare the extension (PM_MCP_SKILLS_DECLARATION). */
export type PmSkillsDeclarationMode = 'required' | 'optional';

/** The declaration modes, `required` first (the default). */
export const PM_SKILLS_DECLARATION_MODES: readonly PmSkillsDeclarationMode[] = Object.freeze(['required', 'optional']);

/** What one skills request needs. */
export interface PmSkillsRequirement {
  /** The method, for the error message. */
  readonly method: string;
  readonly mode: PmSkillsDeclarationMode;
  /** True for `resources/directory/read`: the declaration must say `directoryRead: true`. */
  readonly directoryRead?: boolean;
}

function declarationOf(ctx: Pick<McpRequestContext, 'clientCapabilities'>): JsonObject | undefined | null {
  const extensions = ctx.clientCapabilities.extensions;
  if (!extensions || !Object.prototype.hasOwnProperty.call(extensions, PM_SKILLS_EXTENSION_ID)) return undefined;
  const declared = extensions[PM_SKILLS_EXTENSION_ID];
  return declared && typeof declared === 'object' && !Array.isArray(declared) ? declared : null;
}

/**
 * Throws -32021 (PmMcpMissingClientCapabilityError, `data.requiredCapabilities` naming the
 * exact declaration) when this request may not use the Skills extension under `mode` (see the
 * module comment). The request's declaration is its own: modern requests declare in
 * `_meta["io.modelcontextprotocol/clientCapabilities"]`, initialize-era requests in the
 * capabilities their `initialize` sent on the same stdio connection.
 */
export function assertPmMcpSkillsCapability(ctx: Pick<McpRequestContext, 'clientCapabilities'>, requirement: PmSkillsRequirement): void {
  const needed: JsonObject = { revision: PM_SKILLS_EXTENSION_REVISION, ...(requirement.directoryRead ? { directoryRead: true } : {}) };
  const declared = declarationOf(ctx);
  const refuse = (why: string): never => {
    throw new PmMcpMissingClientCapabilityError({ extensions: { [PM_SKILLS_EXTENSION_ID]: needed } }, `${requirement.method} ${why}: declare ${JSON.stringify({ [PM_SKILLS_EXTENSION_ID]: needed })} in clientCapabilities.extensions`);
  };
  if (declared === null) return refuse(`needs the ${PM_SKILLS_EXTENSION_ID} declaration to be an object`);
  if (declared === undefined) {
    if (requirement.mode === 'required') refuse(`needs the ${PM_SKILLS_EXTENSION_ID} extension declared on the request`);
    return;
  }
  const revision = declared.revision;
  if (revision === undefined) {
    if (requirement.mode === 'required') refuse(`needs the ${PM_SKILLS_EXTENSION_ID} declaration to name revision ${PM_SKILLS_EXTENSION_REVISION}`);
  } else if (revision !== PM_SKILLS_EXTENSION_REVISION) {
    refuse(`serves ${PM_SKILLS_EXTENSION_REVISION} only, not ${JSON.stringify(revision)}`);
  }
  if (requirement.directoryRead && declared.directoryRead !== true && (requirement.mode === 'required' || declared.directoryRead !== undefined)) {
    refuse('needs directoryRead: true in the declaration');
  }
}
