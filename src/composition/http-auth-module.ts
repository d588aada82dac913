import { ContainerModule } from 'inversify';
import type { JWSAlgorithm } from 'jose';
import { JoseBearerAuthorizer } from '../adapters/http/jose-bearer-authorizer.js';
import type { McpHttpListener } from '../adapters/http/mcp-http-server.js';
import { LocalAuthorizer } from '../adapters/node/local-authorizer.js';
import type { Authorizer } from '../ports/authorizer.js';
import type { Clock } from '../ports/clock.js';
import { resolveHttpAuth, type AuthSettings, type McpHttpEndpoint, type ResolvedHttpAuth } from './auth-settings.js';
import type { HttpSettings } from './http-settings.js';
import type { ProcessLog } from './process-log.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';

/**
 * Builds the Authorizer for a resolved configuration: the jose bearer authorizer when tokens
 * are required, the local authorizer (the configured actor, every scope) when they are not.
 * Key material is loaded and validated here, so a bad JWKS file or secret fails at startup.
 */
export async function createHttpAuthorizer(auth: ResolvedHttpAuth, deps: { readonly actor: string; readonly clock?: Clock; readonly onKeyFailure?: (error: unknown) => void }): Promise<Authorizer> {
  if (auth.mode === 'off') return new LocalAuthorizer(deps.actor);
  return JoseBearerAuthorizer.create(auth.keys, {
    issuer: auth.issuer,
    audience: auth.audience,
    resourceMetadataUrl: auth.resourceMetadataUrl,
    clockToleranceSec: auth.clockToleranceSec,
    requireAccessTokenType: auth.requireAccessTokenType,
    scopeHierarchy: auth.scopeHierarchy,
    ...(auth.algorithms ? { algorithms: auth.algorithms as JWSAlgorithm[] } : {}),
    ...(deps.clock ? { now: () => deps.clock!.now() } : {}),
    ...(deps.onKeyFailure ? { onKeyFailure: deps.onKeyFailure } : {}),
  });
}

/**
 * pm-mcp-http's authorization (docs/AUTH.md). Its inputs are constants of the process
 * (IDS.HttpAuthSettings, IDS.HttpSettings, and the bound IDS.HttpListener, whose address is the
 * resource URI when PM_MCP_AUTH_RESOURCE is unset); it binds the endpoint, the resolved
 * authorization, and IDS.Authorizer (jose bearer tokens when required, the local authorizer
 * otherwise).
 */
export const httpAuthModule = new ContainerModule(({ bind }) => {
  bind(IDS.McpHttpEndpoint)
    .toResolvedValue((listener: McpHttpListener, http: HttpSettings): McpHttpEndpoint => ({ host: http.host, resourceUri: listener.url(http.path) }), [IDS.HttpListener, IDS.HttpSettings])
    .inSingletonScope();
  bind(IDS.HttpAuth)
    .toResolvedValue((settings: AuthSettings, endpoint: McpHttpEndpoint) => resolveHttpAuth(endpoint, settings), [IDS.HttpAuthSettings, IDS.McpHttpEndpoint])
    .inSingletonScope();
  bind(IDS.Authorizer)
    .toResolvedValue(
      (auth: ResolvedHttpAuth, settings: Settings, clock: Clock, log: ProcessLog) =>
        createHttpAuthorizer(auth, {
          actor: settings.actor,
          clock,
          onKeyFailure: (error) => log.line(`authorization keys unavailable: ${error instanceof Error ? error.message : String(error)}`),
        }),
      [IDS.HttpAuth, IDS.Settings, IDS.Clock, IDS.Log],
    )
    .inSingletonScope();
});
