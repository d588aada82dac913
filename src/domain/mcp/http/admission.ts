import type { Principal } from '../../../ports/authorizer.js';
import type { AdmissionRequest } from '../../../ports/transport.js';
import { PmMcpHeaderMismatchError } from '../../errors/mcp-errors.js';
import { serializeJsonRpcError } from '../json-rpc.js';
import { negotiateMcpHttpResponse, type McpHttpResponseForms } from './accept.js';
import { mcpHttpRejection, type McpHttpRejection } from './http-status.js';
import { validateMcpHttpRequestHeaders, type McpHttpHeaders } from './request-headers.js';

/**
 * Which messages of a Streamable HTTP POST may run, decided before they do (seed 004 "Transport
 * behavior"; 2026-07-28 `basic/transports/streamable-http`, `basic/authorization`). The dispatcher
 * has already parsed the body, classified it and decided its era, and hands over what the
 * method declares (scope, `Mcp-Name` source, the called tool's header schema, streaming):
 *
 * 1. Authorization, when configured: every request and notification on its own, with the scope
 *    its operation needs; the principal reaches the request's context.
 * 2. A notification is admitted (the core defines none that act over HTTP: cancellation is
 *    closing the stream) and answered 202 by the transport.
 * 3. Modern requests: the MCP headers must agree with the body
 *    ({@link validateMcpHttpRequestHeaders}); a mismatch is 400 -32020 echoing the request id.
 *    Legacy (initialize-era) requests carry no `Mcp-Method` and are not checked: the era is
 *    decided from the body before any modern header rule.
 * 4. Accept must allow JSON or SSE (406 otherwise), and a streaming method needs SSE (406).
 */

/** Authorization of one message: the principal, or a rejection (401/403 with a challenge). */
export type McpHttpAuthorize = (input: { readonly authorization: string | undefined; readonly request: AdmissionRequest }) => Promise<{ readonly principal: Principal } | { readonly rejection: McpHttpRejection }>;

/** An admitted message: its principal (when authorized) and the response forms the client accepts. */
export interface McpHttpAdmitted {
  readonly principal: Principal | undefined;
  readonly forms: McpHttpResponseForms;
}

function headerText(headers: McpHttpHeaders, name: string): string | undefined {
  const raw = headers[name];
  return Array.isArray(raw) ? raw.join(', ') : (raw as string | undefined);
}

/** Admits one message (see the module comment): the admission, or the rejection to answer with. */
export async function admitMcpHttpMessage(request: AdmissionRequest, headers: McpHttpHeaders, authorize?: McpHttpAuthorize): Promise<McpHttpAdmitted | { readonly rejection: McpHttpRejection }> {
  let principal: Principal | undefined;
  if (authorize) {
    const outcome = await authorize({ authorization: headerText(headers, 'authorization'), request });
    if ('rejection' in outcome) return outcome;
    principal = outcome.principal;
  }
  const forms = negotiateMcpHttpResponse(headerText(headers, 'accept'));
  if (request.kind === 'notification') return { principal, forms };
  if (request.era === 'modern') {
    try {
      validateMcpHttpRequestHeaders(headers, request, { nameSource: request.nameSource ?? null, ...(request.headerSchema ? { toolInputSchema: request.headerSchema } : {}) });
    } catch (error) {
      if (!(error instanceof PmMcpHeaderMismatchError)) throw error;
      return { rejection: { status: 400, body: serializeJsonRpcError(request.id, error.toJsonRpcError()) } };
    }
  }
  if (!forms.json && !forms.sse) {
    return { rejection: mcpHttpRejection(406, 'Not acceptable: Accept must allow application/json or text/event-stream', { id: request.id }) };
  }
  if (request.streams && !forms.sse) {
    return { rejection: mcpHttpRejection(406, `Not acceptable: ${request.method} answers with an SSE stream; Accept must allow text/event-stream`, { id: request.id }) };
  }
  return { principal, forms };
}
