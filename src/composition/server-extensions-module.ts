import { ContainerModule } from 'inversify';
import { pmMcpToolDiscoveryExtension } from '../domain/discovery/discovery-extension.js';
import type { PmMcpServerExtension } from '../domain/mcp/server-extension.js';
import { resolvePmMcpToolSelection } from '../domain/mcp-tracker/profiles.js';
import { pmMcpSkillsExtension } from '../domain/skills/skills-extension.js';
import { PmMcpSkillsService } from '../domain/skills/skills-service.js';
import { PmMcpTaskService } from '../domain/tasks/task-service.js';
import { pmMcpTasksExtension } from '../domain/tasks/tasks-extension.js';
import type { Clock } from '../ports/clock.js';
import type { IdSource } from '../ports/id-source.js';
import type { TaskStore } from '../ports/task-store.js';
import type { TaskWorkers } from '../ports/task-workers.js';
import type { FileSystem } from '../ports/file-system.js';
import type { Hasher } from '../ports/hasher.js';
import type { ProcessLog } from './process-log.js';
import { pmAppsExtension } from './app-views.js';
import { IDS } from './service-ids.js';
import type { Settings } from './settings.js';
import { loadPmSkillRegistry, logPmSkillDiagnostics, workspaceRootOf } from './skills-composition.js';

/**
 * The server extensions pm itself registers on both MCP servers (seed 000: Skills and Apps;
 * seed 004: tasks, progressive tool discovery), each built from the ports it needs. The
 * process's own extra extensions (a host embedding a main) come after them.
 *
 * Skills: the package's skills (IDS.PackageSkillsDir; none in the memory family) and the
 * workspace's `.agents/skills/` beside the tracker, loaded while the server prepares, watched
 * for changes once skills are used, rejections logged on stderr.
 *
 * Tasks: the TaskStore (the runtime area's task files in the node family) and this process as
 * the worker of the tasks it starts.
 *
 * Progressive tool discovery: the profile-selected tools as the catalogue, pm's entry choice
 * and keywords, digests by the process's Hasher (docs/DISCOVERY.md).
 */
export const serverExtensionsModule = new ContainerModule(({ bind }) => {
  bind(IDS.SkillsService)
    .toResolvedValue(
      (fs: FileSystem, hasher: Hasher, clock: Clock, trackerRoot: string, packageSkillsDir: string | undefined, log: ProcessLog) => {
        const workspaceRoot = workspaceRootOf(trackerRoot);
        return new PmMcpSkillsService({
          load: () => loadPmSkillRegistry(fs, hasher, packageSkillsDir, workspaceRoot),
          watch: { fs, clock, workspaceRoot },
          onDiagnostics: (diagnostics) => logPmSkillDiagnostics(log, diagnostics),
          onReloadError: (error) => log.error('skills reload failed', error),
        });
      },
      [IDS.FileSystem, IDS.Hasher, IDS.Clock, IDS.TrackerRoot, IDS.PackageSkillsDir, IDS.Log],
    )
    .inSingletonScope();
  bind(IDS.TaskService)
    .toResolvedValue(
      (store: TaskStore, workers: TaskWorkers, clock: Clock, ids: IdSource, log: ProcessLog, settings: Settings) =>
        new PmMcpTaskService({ store, workers, clock, ids }, { ttlMs: settings.taskTtlMs, heartbeatMs: settings.taskHeartbeatMs, onInternalError: (error, taskId) => log.error(`task ${taskId} failed unexpectedly`, error) }),
      [IDS.TaskStore, IDS.TaskWorkers, IDS.Clock, IDS.IdSource, IDS.Log, IDS.Settings],
    )
    .inSingletonScope();
  bind(IDS.PmExtensions)
    .toResolvedValue(
      (skills: PmMcpSkillsService, settings: Settings, tasks: PmMcpTaskService, hasher: Hasher): readonly PmMcpServerExtension[] =>
        Object.freeze([
          pmMcpSkillsExtension({ skills, mode: settings.skillsDeclaration }),
          pmAppsExtension(),
          pmMcpTasksExtension({ tasks }),
          pmMcpToolDiscoveryExtension({ hasher, profile: resolvePmMcpToolSelection(settings.mcpProfile, settings.mcpTools).profile }),
        ]),
      [IDS.SkillsService, IDS.Settings, IDS.TaskService, IDS.Hasher],
    )
    .inSingletonScope();
});
