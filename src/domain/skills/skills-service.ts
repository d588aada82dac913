import type { Clock } from '../../ports/clock.js';
import type { FileSystem } from '../../ports/file-system.js';
import type { PmSkillDiagnostic } from './diagnostics.js';
import { PmMcpSkillRegistryHolder, type PmSkillReload } from './registry-holder.js';
import type { PmMcpSkillRegistry } from './registry.js';
import { PmMcpSkillsReloader } from './skills-reloader.js';

/** What a {@link PmMcpSkillsService} is built from. */
export interface PmMcpSkillsServiceOptions {
  /** Loads one registry (package and workspace skills). */
  readonly load: () => Promise<PmMcpSkillRegistry>;
  /** Watching the workspace: absent, the registry never reloads. */
  readonly watch?: { readonly fs: FileSystem; readonly clock: Clock; readonly workspaceRoot: string; readonly debounceMs?: number };
  /** Told the diagnostics of the first load and of every reload that changed them (stderr). */
  readonly onDiagnostics?: (diagnostics: readonly PmSkillDiagnostic[]) => void;
  readonly onReloadError?: (error: unknown) => void;
}

/**
 * The skills a server serves (seed 000 "Skills over MCP"): the registry holder, loaded once
 * when the server prepares, and the workspace watch that reloads it — started by the first
 * skills request or listen stream, stopped when the transport drains.
 */
export class PmMcpSkillsService {
  private holder: PmMcpSkillRegistryHolder | undefined;
  private loading: Promise<void> | undefined;
  private reloader: PmMcpSkillsReloader | undefined;
  private readonly pendingListeners = new Set<(reload: PmSkillReload) => void>();

  constructor(private readonly options: PmMcpSkillsServiceOptions) {}

  /** Loads the first registry (once while it succeeds). */
  prepare(): Promise<void> {
    this.loading ??= PmMcpSkillRegistryHolder.open(this.options.load).then(
      (holder) => {
        this.holder = holder;
        this.options.onDiagnostics?.(holder.current.diagnostics);
        const watch = this.options.watch;
        if (watch) {
          this.reloader = new PmMcpSkillsReloader(watch.fs, watch.clock, holder, watch.workspaceRoot, {
            ...(watch.debounceMs !== undefined ? { debounceMs: watch.debounceMs } : {}),
            onReload: (reload) => {
              if (reload.changed) this.options.onDiagnostics?.(reload.registry.diagnostics);
            },
            ...(this.options.onReloadError ? { onReloadError: this.options.onReloadError } : {}),
          });
          for (const listener of this.pendingListeners) this.reloader.onChange(listener);
        }
      },
      (error: unknown) => {
        this.loading = undefined;
        throw error;
      },
    );
    return this.loading;
  }

  /** The registry new requests use (only after {@link prepare}). */
  get current(): PmMcpSkillRegistry {
    if (!this.holder) throw new Error('the skills registry is read before the server was prepared');
    return this.holder.current;
  }

  /** Starts the workspace watch, if there is one (idempotent). */
  watch(): void {
    this.reloader?.start();
  }

  /** Stops the workspace watch. */
  stop(): void {
    this.reloader?.stop();
  }

  /** True while the workspace watch runs. */
  get watching(): boolean {
    return this.reloader?.watching ?? false;
  }

  /** Reloads now (tests, `pm skills` after an edit); rejects before {@link prepare}. */
  reloadNow(): Promise<PmSkillReload> {
    if (!this.reloader) return Promise.reject(new Error('the skills registry has no workspace watch'));
    return this.reloader.reloadNow();
  }

  /** Hears every reload that changed what is served. */
  onChange(listener: (reload: PmSkillReload) => void): () => void {
    if (this.reloader) return this.reloader.onChange(listener);
    this.pendingListeners.add(listener);
    return () => this.pendingListeners.delete(listener);
  }
}
