import type { ServiceIdentifier } from 'inversify';
import type { McpHttpListener } from '../adapters/http/mcp-http-server.js';
import type { StreamableHttpTransport } from '../adapters/http/mcp-http-transport.js';
import type { PmMcpDispatcher } from '../domain/mcp/dispatcher.js';
import type { PmMcpMethodRegistry } from '../domain/mcp/method-registry.js';
import type { PmMcpServerDescriptor } from '../domain/mcp/server-descriptor.js';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import type { PmMcpSubscriptionRegistry } from '../domain/mcp/subscriptions/subscription-registry.js';
import type { PmMcpSkillsService } from '../domain/skills/skills-service.js';
import type { Tracker } from '../domain/tracker/tracker.js';
import type { Authorizer } from '../ports/authorizer.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Hasher } from '../ports/hasher.js';
import type { IdSource } from '../ports/id-source.js';
import type { IndexFreshness } from '../ports/index-freshness.js';
import type { ItemIndexStore } from '../ports/item-index-store.js';
import type { Locker } from '../ports/locker.js';
import type { TaskStore } from '../ports/task-store.js';
import type { TaskWorkers } from '../ports/task-workers.js';
import type { PmMcpTaskService } from '../domain/tasks/task-service.js';
import type { MacKeyStore } from '../ports/mac-key-store.js';
import type { ReplayLedger } from '../ports/replay-ledger.js';
import type { PmMcpRequestStateSealer } from '../domain/mcp/interaction/request-state.js';
import type { Transport } from '../ports/transport.js';
import type { ChangeBus } from '../ports/change-bus.js';
import type { Telemetry } from '../ports/telemetry.js';
import type { McpRequestSpans } from '../domain/telemetry/request-spans.js';
import type { McpRequestObserver } from '../domain/mcp/request-observer.js';
import type { McpUsageCounter } from '../domain/telemetry/usage-counter.js';
import type { AuthSettings, McpHttpEndpoint, ResolvedHttpAuth } from './auth-settings.js';
import type { HttpSettings } from './http-settings.js';
import type { ProcessLog } from './process-log.js';
import type { Settings } from './settings.js';

/**
 * `check`: every query compares every item file's signature with the index (one-shot processes);
 * `watch`: a long-lived process does that once, then follows a directory watch; `progress`
 * (optional) is told how far a long rebuild has come.
 */
export interface TrackerIndexMode {
  readonly follow: 'check' | 'watch';
  readonly progress?: (done: number, total: number) => void;
  /**
   * One-shot processes: the index watcher to ask before checking every file
   * (composition/index-watcher.ts); `configured` gives config.yaml's `index.watcher`.
   */
  readonly witness?: (root: string, configured: () => Promise<'auto' | 'on' | 'off' | undefined>) => IndexFreshness;
}

/** What pm-mcp-http needs of a shared database: readiness, the listening connection, shutdown. */
export interface SharedDatabase {
  /** A short name of it for logs (`PostgreSQL 127.0.0.1:5432/pm, schema pm`). */
  readonly label: string;
  /** Whether it answers now (readiness). */
  ping(timeoutMs?: number): Promise<boolean>;
  /** Opens what must be open before serving (the schema migrated, the change listener); rejects when the database is unreachable. */
  open(): Promise<void>;
  /** Closes every connection. */
  close(): Promise<void>;
}

const id = <T>(name: string): ServiceIdentifier<T> => Symbol.for(`pm.${name}`);

/** Every service id in the container, in one place (the composition root is the only place that knows concrete classes). */
export const IDS = {
  Settings: id<Settings>('Settings'),
  /** The process's diagnostics on stderr. */
  Log: id<ProcessLog>('Log'),
  FileSystem: id<FileSystem>('FileSystem'),
  /** The FileSystem without decoration (what locates the tracker; the FileSystem may announce writes on the ChangeBus). */
  PlainFileSystem: id<FileSystem>('PlainFileSystem'),
  /** The channel of change announcements between instances (PostgreSQL LISTEN/NOTIFY), or undefined with the embedded stores. */
  ChangeBus: id<ChangeBus | undefined>('ChangeBus'),
  /** The shared database (PM_MCP_TASK_STORE=postgres://…), or undefined with the embedded stores. */
  SharedDatabase: id<SharedDatabase | undefined>('SharedDatabase'),
  Clock: id<Clock>('Clock'),
  IdSource: id<IdSource>('IdSource'),
  Hasher: id<Hasher>('Hasher'),
  Locker: id<Locker>('Locker'),
  Authorizer: id<Authorizer>('Authorizer'),
  TrackerRoot: id<string>('TrackerRoot'),
  /** The derived index of the tracker (SQLite for the node family, in memory otherwise). */
  ItemIndex: id<ItemIndexStore>('ItemIndex'),
  /** How the tracker follows changes to its files (see TrackerIndexMode). */
  TrackerIndexMode: id<TrackerIndexMode>('TrackerIndexMode'),
  Tracker: id<Tracker>('Tracker'),
  /** The tracker with config.yaml read and checked (the CLI's commands need it). */
  ReadyTracker: id<Tracker>('ReadyTracker'),
  TaskStore: id<TaskStore>('TaskStore'),
  TaskWorkers: id<TaskWorkers>('TaskWorkers'),
  TaskService: id<PmMcpTaskService>('TaskService'),
  /** The keys that seal MRTR requestState, and the ledger of one-time states already used. */
  MacKeyStore: id<MacKeyStore>('MacKeyStore'),
  ReplayLedger: id<ReplayLedger>('ReplayLedger'),
  /** Seals and opens MRTR requestState. */
  RequestStates: id<PmMcpRequestStateSealer>('RequestStates'),
  /** The published package's `skills/` directory (undefined in the memory family: no package on disk). */
  PackageSkillsDir: id<string | undefined>('PackageSkillsDir'),
  /** The skills the servers serve: registry holder and workspace watch. */
  SkillsService: id<PmMcpSkillsService>('SkillsService'),
  /** The server extensions pm registers itself (Skills, Apps, …), in order. */
  PmExtensions: id<readonly PmMcpServerExtension[]>('PmExtensions'),
  /** Further extensions a host embedding a main adds, after pm's own. */
  McpExtensions: id<readonly PmMcpServerExtension[]>('McpExtensions'),
  McpServer: id<PmMcpServerDescriptor>('McpServer'),
  McpSubscriptions: id<PmMcpSubscriptionRegistry>('McpSubscriptions'),
  McpMethods: id<PmMcpMethodRegistry>('McpMethods'),
  McpDispatcher: id<PmMcpDispatcher>('McpDispatcher'),
  /** OpenTelemetry, when the OTEL_* settings turn it on (undefined otherwise). */
  Telemetry: id<Telemetry | undefined>('Telemetry'),
  /** The per-era, revision and client request counts (legacy-use evidence). */
  McpUsage: id<McpUsageCounter>('McpUsage'),
  /** Whether the usage counts are written to the log as `mcp-usage` lines. */
  UsageLog: id<boolean>('UsageLog'),
  /** Each traced request's span, bound to its context (undefined when tracing is off). */
  McpRequestSpans: id<McpRequestSpans | undefined>('McpRequestSpans'),
  /** The dispatcher's request observers: the usage counts, and tracing when it is on. */
  McpObservers: id<readonly McpRequestObserver[]>('McpObservers'),
  /** The process's MCP transport (stdio, or Streamable HTTP). */
  Transport: id<Transport>('Transport'),
  /** pm-mcp-http: transport settings, the bound listener, authorization settings, the endpoint, the resolution, the transport. */
  HttpSettings: id<HttpSettings>('HttpSettings'),
  HttpListener: id<McpHttpListener>('HttpListener'),
  HttpAuthSettings: id<AuthSettings>('HttpAuthSettings'),
  McpHttpEndpoint: id<McpHttpEndpoint>('McpHttpEndpoint'),
  HttpAuth: id<ResolvedHttpAuth>('HttpAuth'),
  HttpTransport: id<StreamableHttpTransport>('HttpTransport'),
} as const;
