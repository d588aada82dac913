import type { Clock } from '../../ports/clock.js';
import type { FileSystem } from '../../ports/file-system.js';
import { joinPath } from '../util/paths.js';
import type { PmMcpSkillRegistryHolder, PmSkillReload } from './registry-holder.js';
import { PM_WORKSPACE_SKILLS_DIR } from './registry-load.js';

/** Tuning of {@link PmMcpSkillsReloader}. */
export interface PmMcpSkillsReloaderOptions {
  /** Quiet time after a change before the registry is reloaded (default 100 ms): a checkout touches many files. */
  readonly debounceMs?: number;
  /** Told about every reload (for the diagnostics log) and every failed one. */
  readonly onReload?: (reload: PmSkillReload) => void;
  readonly onReloadError?: (error: unknown) => void;
}

/**
 * Keeps the skills registry in step with the workspace (seed 000 "Skills over MCP": a
 * repository may override or add skills below `.agents/skills/`). It watches `.agents/` for
 * the skills directory to appear or go and, while it exists, the whole tree below it
 * (FileSystem.watchTree); a burst of changes is reloaded once, after `debounceMs` of quiet,
 * through the Clock port. The holder swaps in the new registry (requests in flight finish
 * against theirs) and listeners hear about reloads that changed what is served. The package's
 * own skills never change while a server runs and are not watched.
 */
export class PmMcpSkillsReloader {
  private readonly agentsDir: string;
  private readonly skillsDir: string;
  private readonly debounceMs: number;
  private readonly listeners = new Set<(reload: PmSkillReload) => void>();
  private stopAgents: (() => void) | undefined;
  private stopTree: (() => void) | undefined;
  private pending = false;
  private running = false;

  constructor(
    private readonly fs: FileSystem,
    private readonly clock: Clock,
    private readonly holder: PmMcpSkillRegistryHolder,
    /** The repository root: `.agents/skills/` is below it. */
    workspaceRoot: string,
    private readonly options: PmMcpSkillsReloaderOptions = {},
  ) {
    this.skillsDir = joinPath(workspaceRoot, PM_WORKSPACE_SKILLS_DIR);
    this.agentsDir = joinPath(workspaceRoot, '.agents');
    this.debounceMs = options.debounceMs ?? 100;
  }

  /** True while the watch runs. */
  get watching(): boolean {
    return this.running;
  }

  /** Starts watching (idempotent). */
  start(): void {
    if (this.running) return;
    this.running = true;
    this.stopAgents = this.fs.watch(this.agentsDir, (name) => {
      if (name === undefined || name === 'skills') {
        this.armTree();
        this.schedule();
      }
    });
    this.armTree();
  }

  /** Stops watching; a reload already scheduled still runs, nothing new is scheduled. */
  stop(): void {
    this.running = false;
    this.stopAgents?.();
    this.stopTree?.();
    this.stopAgents = this.stopTree = undefined;
  }

  /** Hears every reload that changed what is served; returns the function that stops listening. */
  onChange(listener: (reload: PmSkillReload) => void): () => void {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  }

  /** Reloads now and tells the listeners when something changed. */
  async reloadNow(): Promise<PmSkillReload> {
    const reload = await this.holder.reload();
    this.options.onReload?.(reload);
    if (reload.changed) for (const listener of this.listeners) listener(reload);
    return reload;
  }

  private armTree(): void {
    this.stopTree?.();
    this.stopTree = this.running ? this.fs.watchTree(this.skillsDir, () => this.schedule()) : undefined;
  }

  private schedule(): void {
    if (this.pending) return;
    this.pending = true;
    void this.clock.sleep(this.debounceMs).then(async () => {
      this.pending = false;
      try {
        await this.reloadNow();
      } catch (error) {
        this.options.onReloadError?.(error);
      }
    });
  }
}
