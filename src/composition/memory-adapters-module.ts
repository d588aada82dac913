import { ContainerModule } from 'inversify';
import { ManualClock } from '../adapters/memory/manual-clock.js';
import { MemoryFileSystem } from '../adapters/memory/memory-file-system.js';
import { MemoryItemIndex } from '../adapters/memory/memory-item-index.js';
import { MemoryLocker } from '../adapters/memory/memory-locker.js';
import { MemoryMacKeyStore } from '../adapters/memory/memory-mac-key-store.js';
import { MemoryReplayLedger } from '../adapters/memory/memory-replay-ledger.js';
import { MemoryTaskWorkers } from '../adapters/memory/memory-task-workers.js';
import { MemoryTaskStore } from '../adapters/memory/memory-task-store.js';
import { PureSha256Hasher } from '../adapters/memory/pure-hasher.js';
import { SeededIdSource } from '../adapters/memory/seeded-id-source.js';
import { StaticAuthorizer } from '../adapters/memory/static-authorizer.js';
import type { Clock } from '../ports/clock.js';
import { IDS } from './service-ids.js';

/** In-memory adapters for every port: embedding, tests and demos with no disk. */
export const memoryAdaptersModule = new ContainerModule(({ bind }) => {
  bind(IDS.FileSystem).toResolvedValue(() => new MemoryFileSystem()).inSingletonScope();
  bind(IDS.PlainFileSystem).toService(IDS.FileSystem);
  bind(IDS.Clock).toResolvedValue(() => new ManualClock(Date.now())).inSingletonScope();
  bind(IDS.IdSource).toResolvedValue(() => new SeededIdSource()).inSingletonScope();
  bind(IDS.Hasher).toResolvedValue(() => new PureSha256Hasher()).inSingletonScope();
  bind(IDS.Locker).toResolvedValue((clock: Clock) => new MemoryLocker(clock), [IDS.Clock]).inSingletonScope();
  bind(IDS.Authorizer).toResolvedValue(() => new StaticAuthorizer()).inSingletonScope();
  bind(IDS.TaskStore).toResolvedValue(() => new MemoryTaskStore()).inSingletonScope();
  bind(IDS.TaskWorkers).toResolvedValue(() => new MemoryTaskWorkers()).inSingletonScope();
  bind(IDS.MacKeyStore).toResolvedValue((clock: Clock) => new MemoryMacKeyStore(clock), [IDS.Clock]).inSingletonScope();
  bind(IDS.ReplayLedger).toResolvedValue(() => new MemoryReplayLedger()).inSingletonScope();
  bind(IDS.ItemIndex).toResolvedValue(() => new MemoryItemIndex()).inSingletonScope();
  bind(IDS.ChangeBus).toConstantValue(undefined);
  bind(IDS.SharedDatabase).toConstantValue(undefined);
});
