import { ContainerModule } from 'inversify';
import type { McpHttpListener } from '../adapters/http/mcp-http-server.js';
import { createBrowserBoardHandler } from '../adapters/http/browser-board-handler.js';
import { StreamableHttpTransport } from '../adapters/http/mcp-http-transport.js';
import { PmMcpAppDocuments } from '../domain/apps/app-documents.js';
import { pmMcpScopeName } from '../domain/mcp/auth/scopes.js';
import { createMcpHttpAuthorize } from '../domain/mcp/http/authorize.js';
import { createMcpHttpSecurityPolicy } from '../domain/mcp/http/http-security.js';
import { PmMcpLegacySessions } from '../domain/mcp/http/legacy-session.js';
import type { Authorizer } from '../ports/authorizer.js';
import type { Hasher } from '../ports/hasher.js';
import type { MacKeyStore } from '../ports/mac-key-store.js';
import type { AuthSettings, ResolvedHttpAuth } from './auth-settings.js';
import type { McpServerApp, McpServerComposeOptions } from './compose-server.js';
import { pmAppViewAssets } from './app-views.js';
import { buildContainer } from './container.js';
import { httpAuthModule } from './http-auth-module.js';
import type { HttpSettings } from './http-settings.js';
import type { ProcessLog } from './process-log.js';
import { IDS, type SharedDatabase } from './service-ids.js';
import type { PmMcpTaskService } from '../domain/tasks/task-service.js';
import type { Settings } from './settings.js';

/**
 * pm-mcp-http's transport over the bound listener: the security policy of its address and
 * allowed origins/hosts, the body bound, and — when tokens are required — bearer authorization
 * of every message with the scope its method declares, plus the RFC 9728 metadata document.
 */
export const httpTransportModule = new ContainerModule(({ bind }) => {
  bind(IDS.HttpTransport)
    .toResolvedValue(
      (listener: McpHttpListener, http: HttpSettings, auth: ResolvedHttpAuth, authorizer: Authorizer, log: ProcessLog, settings: Settings, hasher: Hasher, keys: MacKeyStore) => {
        const onError = (error: unknown) => log.error('internal error', error);
        const security = createMcpHttpSecurityPolicy({ host: http.host, port: listener.port, allowedOrigins: http.allowedOrigins, allowedHosts: http.allowedHosts });
        const jwt = auth.mode === 'jwt' ? auth : undefined;
        return new StreamableHttpTransport(listener, {
          path: http.path,
          security,
          maxBodyBytes: http.maxBodyBytes,
          onError,
          // The live board at `/` (docs/APPS.md "The board in the browser"), over the same built views.
          board: createBrowserBoardHandler({ assets: pmAppViewAssets(), documents: new PmMcpAppDocuments(pmAppViewAssets()), mcpPath: http.path }),
          // Legacy clients get a sealed Mcp-Session-Id carrying their identity (docs/HTTP.md); with the adapter off none is issued or read.
          ...(settings.legacyAdapter === 'on' ? { legacySessions: new PmMcpLegacySessions({ hasher, keys }) } : {}),
          ...(jwt
            ? {
                // Every POST is authorized on its own and its principal reaches the handlers;
                // with authorization off no principal is set, exactly as on stdio.
                authorize: createMcpHttpAuthorize(authorizer, (request) => [pmMcpScopeName(request.scope, jwt.scopes)], { onInternalError: onError }),
                protectedResourceMetadata: { document: jwt.metadata, paths: jwt.metadataPaths },
              }
            : {}),
        });
      },
      [IDS.HttpListener, IDS.HttpSettings, IDS.HttpAuth, IDS.Authorizer, IDS.Log, IDS.Settings, IDS.Hasher, IDS.MacKeyStore],
    )
    .inSingletonScope();
  bind(IDS.Transport).toService(IDS.HttpTransport);
});

/** pm-mcp-http's graph; `auth` is its resolved authorization (the startup banner reports it). */
export interface HttpServerApp extends McpServerApp<StreamableHttpTransport> {
  readonly auth: ResolvedHttpAuth;
  /** The durable tasks this process runs (failed with a clear status on shutdown). */
  readonly tasks: PmMcpTaskService;
  /** The database shared with other instances (PM_MCP_TASK_STORE=postgres://…), if any. */
  readonly shared: SharedDatabase | undefined;
}

/**
 * pm-mcp-http's graph over an already bound `listener` (it answers 503 until the transport
 * starts; see compose-server.ts): the resource URI of authorization is the bound address when
 * none is configured.
 */
export async function composeHttpServer(
  settings: Settings,
  http: { readonly settings: HttpSettings; readonly auth: AuthSettings; readonly listener: McpHttpListener },
  options: McpServerComposeOptions,
): Promise<HttpServerApp> {
  const constants = new ContainerModule(({ bind }) => {
    bind(IDS.HttpSettings).toConstantValue(http.settings);
    bind(IDS.HttpAuthSettings).toConstantValue(http.auth);
    bind(IDS.HttpListener).toConstantValue(http.listener);
  });
  const container = await buildContainer(settings, 'node', {
    index: { follow: 'watch' },
    log: options.log,
    ...(options.extensions ? { extensions: options.extensions } : {}),
    ...(options.telemetry ? { telemetry: options.telemetry } : {}),
    usageLog: true,
    authorization: httpAuthModule,
    modules: [constants, httpTransportModule],
  });
  return {
    tracker: await container.getAsync(IDS.Tracker),
    server: await container.getAsync(IDS.McpServer),
    dispatcher: await container.getAsync(IDS.McpDispatcher),
    usage: await container.getAsync(IDS.McpUsage),
    auth: await container.getAsync(IDS.HttpAuth),
    transport: await container.getAsync(IDS.HttpTransport),
    tasks: await container.getAsync(IDS.TaskService),
    shared: await container.getAsync(IDS.SharedDatabase),
  };
}
