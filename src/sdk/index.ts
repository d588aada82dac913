/**
 * The public pm SDK (`@unbrained/pm-cli/sdk`): the tracker domain, the MCP protocol contracts
 * and the ports a host implements to embed them (seed 004 "Public SDK"). It re-exports domain
 * code only — no express, no jose, no node I/O — so any host (another server, an edge runtime,
 * a test) can run pm by providing its own ports, or the in-memory adapters exported here.
 */
export * from '../domain/errors/index.js';
export * from '../domain/tracker/index.js';
export * from '../domain/mcp/index.js';
export * from '../domain/mcp-tracker/index.js';
export * from '../domain/skills/index.js';
export * from '../domain/tasks/index.js';

export type { FileSystem, FileSignature, DirectoryEntry, WatchListener } from '../ports/file-system.js';
export type { Clock } from '../ports/clock.js';
export type { IdSource } from '../ports/id-source.js';
export type { Hasher } from '../ports/hasher.js';
export type { Locker, LockOptions, ReleaseLock } from '../ports/locker.js';
export type { TaskStore, TaskRecord, TaskStatus, TaskWorker, TaskError } from '../ports/task-store.js';
export type { TaskWorkers, TaskWorkerState } from '../ports/task-workers.js';
export type { MacKey, MacKeyStore } from '../ports/mac-key-store.js';
export type { ReplayLedger } from '../ports/replay-ledger.js';
export type { Authorizer, AuthorizationRequest, Principal } from '../ports/authorizer.js';
export type {
  Transport,
  TransportFacts,
  TransportPeer,
  TransportConnection,
  InboundExchange,
  AdmissionRequest,
  AdmissionDecision,
  DispatchOutcome,
  Cancellable,
  OperationScope,
} from '../ports/transport.js';
export type { MessageSink, MessageId, OutboundMessage, OutboundBytes } from '../ports/message-sink.js';

export { MemoryFileSystem } from '../adapters/memory/memory-file-system.js';
export { ManualClock } from '../adapters/memory/manual-clock.js';
export { SeededIdSource } from '../adapters/memory/seeded-id-source.js';
export { PureSha256Hasher } from '../adapters/memory/pure-hasher.js';
export { MemoryLocker } from '../adapters/memory/memory-locker.js';
export { MemoryTaskStore } from '../adapters/memory/memory-task-store.js';
export { MemoryTaskWorkers } from '../adapters/memory/memory-task-workers.js';
export { MemoryMacKeyStore } from '../adapters/memory/memory-mac-key-store.js';
export { MemoryReplayLedger } from '../adapters/memory/memory-replay-ledger.js';
export { StaticAuthorizer } from '../adapters/memory/static-authorizer.js';
export { MemoryTransport } from '../adapters/memory/memory-transport.js';

export * from '../domain/discovery/index.js';
export * from '../domain/apps/index.js';
export type { AppViewAssets, AppViewAsset } from '../ports/app-view-assets.js';
export { MemoryAppViewAssets } from '../adapters/memory/memory-app-view-assets.js';
export type { ItemIndexStore, IndexedItem, IndexedFile, IndexProblem, IndexChange, IndexFilter, IndexSortField, IndexPageQuery, IndexPage, ReadinessQuery, Readiness, SearchCandidatesQuery, SearchCandidate, IndexOverview, IndexOpening } from '../ports/item-index-store.js';
export { MemoryItemIndex } from '../adapters/memory/memory-item-index.js';
