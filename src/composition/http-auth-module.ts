import { ContainerModule } from 'inversify';
import { JoseBearerAuthorizer } from '../adapters/http/jose-bearer-authorizer.js';
import type { JWSAlgorithm } from 'jose';
import { LocalAuthorizer } from '../adapters/node/local-authorizer.js';
import type { Authorizer } from '../ports/authorizer.js';
import type { Clock } from '../ports/clock.js';
import { resolveHttpAuth, type AuthSettings, type McpHttpEndpoint, type ResolvedHttpAuth } from './auth-settings.js';
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
    scopeHierarchy: auth.scopeHierarchy,
    ...(auth.algorithms ? { algorithms: auth.algorithms as JWSAlgorithm[] } : {}),
    ...(deps.clock ? { now: () => deps.clock!.now() } : {}),
    ...(deps.onKeyFailure ? { onKeyFailure: deps.onKeyFailure } : {}),
  });
}

/**
 * pm-mcp-http's authorization wiring. Load it after the adapter family; the HTTP entry point
 * binds IDS.HttpAuthSettings (from `authSettingsFromEnv`) before and IDS.McpHttpEndpoint once
 * the listening address is known (port 0 resolves at listen), then resolves IDS.HttpAuth and
 * IDS.Authorizer. IDS.Authorizer is rebound: jose bearer authorizer when tokens are required,
 * the local authorizer otherwise.
 */
export const httpAuthModule = new ContainerModule(({ bind, rebind }) => {
  bind(IDS.HttpAuth)
    .toResolvedValue((settings: AuthSettings, endpoint: McpHttpEndpoint) => resolveHttpAuth(endpoint, settings), [IDS.HttpAuthSettings, IDS.McpHttpEndpoint])
    .inSingletonScope();
  rebind(IDS.Authorizer)
    .toResolvedValue(
      (auth: ResolvedHttpAuth, settings: Settings, clock: Clock) =>
        createHttpAuthorizer(auth, {
          actor: settings.actor,
          clock,
          onKeyFailure: (error) => process.stderr.write(`pm-mcp-http: authorization keys unavailable: ${error instanceof Error ? error.message : String(error)}\n`),
        }),
      [IDS.HttpAuth, IDS.Settings, IDS.Clock],
    )
    .inSingletonScope();
});
