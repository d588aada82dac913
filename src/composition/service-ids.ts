import type { Authorizer } from '../ports/authorizer.js';
import type { Clock } from '../ports/clock.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Hasher } from '../ports/hasher.js';
import type { IdSource } from '../ports/id-source.js';
import type { Locker } from '../ports/locker.js';
import type { TaskStore } from '../ports/task-store.js';
import type { Tracker } from '../domain/tracker/tracker.js';
import type { Settings } from './settings.js';
import type { AuthSettings, McpHttpEndpoint, ResolvedHttpAuth } from './auth-settings.js';
import type { ServiceIdentifier } from 'inversify';
import type { PmMcpDispatcher } from '../domain/mcp/dispatcher.js';
import type { PmMcpMethodRegistry } from '../domain/mcp/method-registry.js';
import type { PmMcpServerDescriptor } from '../domain/mcp/server-descriptor.js';
import type { PmMcpSubscriptionRegistry } from '../domain/mcp/subscriptions/subscription-registry.js';

const id = <T>(name: string): ServiceIdentifier<T> => Symbol.for(`pm.${name}`);

/** Every service id in the container, in one place (DEVELOPERS.md rule 2). */
export const IDS = {
  Settings: id<Settings>('Settings'),
  FileSystem: id<FileSystem>('FileSystem'),
  Clock: id<Clock>('Clock'),
  IdSource: id<IdSource>('IdSource'),
  Hasher: id<Hasher>('Hasher'),
  Locker: id<Locker>('Locker'),
  Authorizer: id<Authorizer>('Authorizer'),
  TrackerRoot: id<string>('TrackerRoot'),
  Tracker: id<Tracker>('Tracker'),
  TaskStore: id<TaskStore>('TaskStore'),
  McpServer: id<PmMcpServerDescriptor>('McpServer'),
  McpSubscriptions: id<PmMcpSubscriptionRegistry>('McpSubscriptions'),
  McpMethods: id<PmMcpMethodRegistry>('McpMethods'),
  McpDispatcher: id<PmMcpDispatcher>('McpDispatcher'),
  /** pm-mcp-http authorization: parsed PM_MCP_AUTH* settings, the bound endpoint, the resolution. */
  HttpAuthSettings: id<AuthSettings>('HttpAuthSettings'),
  McpHttpEndpoint: id<McpHttpEndpoint>('McpHttpEndpoint'),
  HttpAuth: id<ResolvedHttpAuth>('HttpAuth'),
} as const;
