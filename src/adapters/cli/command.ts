import type { InitOptions, InitResult } from '../../domain/tracker/init.js';
import type { MergeDrivers } from '../../domain/merge/merge-drivers.js';
import type { MergeInstaller } from '../../domain/merge/merge-install.js';
import type { IdCollisionRepair } from '../../domain/merge/id-collisions.js';
import type { PmMcpSkillRegistry } from '../../domain/skills/registry.js';
import type { PmMcpRequestStateSealer } from '../../domain/mcp/interaction/request-state.js';
import type { Tracker } from '../../domain/tracker/tracker.js';

/**
 * What a command may ask of its host. The tracker is resolved lazily so `pm init`, `--help`
 * and `--version` work where no tracker exists yet; the composition root decides how both
 * are built (the CLI adapter never sees the container).
 */
export interface CliServices {
  tracker(): Promise<Tracker>;
  initialize(options: InitOptions): Promise<InitResult>;
  /** The skills registry the MCP servers over this tracker serve (package and workspace skills). */
  skills(): Promise<PmMcpSkillRegistry>;
  /** The sealer of MRTR requestState the MCP servers over this tracker use (`pm mcp rotate-key`). */
  requestStates(): Promise<PmMcpRequestStateSealer>;
  /** The git merge drivers (`pm merge driver`); they need no tracker, only the files git names. */
  mergeDrivers(): Promise<MergeDrivers>;
  /** Registers pm's merge drivers in the project holding the tracker (`pm merge install`). */
  mergeInstaller(): Promise<MergeInstaller>;
  /** Gives items created under one id on two branches distinct ids (`pm merge fix-ids`). */
  repairIdCollisions(): Promise<IdCollisionRepair[]>;
  /** The tracker's index watcher (`pm index status|stop|watch`). */
  indexWatcher(): Promise<IndexWatcherControl>;
  /** The loopback pm-mcp-http that serves this tracker's live board (`pm ui`). */
  browserBoard(): Promise<BrowserBoardControl>;
}

/** What `pm ui` did (docs/CLI.md "pm ui"). */
export interface BrowserBoardReport {
  /** The board page, `http://127.0.0.1:<port>/`. */
  readonly url: string;
  /** True when a board server of this tracker was already running and answered. */
  readonly reused: boolean;
  readonly pid: number;
  /** Whether a browser was asked to open the page (false with `--no-open`). */
  readonly opened: boolean;
  /** Why the browser could not be opened (the URL is printed either way). */
  readonly openError?: string;
}

/** Starts or finds the board server of this tracker, and opens the page. */
export interface BrowserBoardControl {
  open(options: { readonly browser: boolean }): Promise<BrowserBoardReport>;
  /** Stops a running board server; resolves with its pid, or undefined when none ran. */
  stop(): Promise<number | undefined>;
}

/** A running index watcher as `pm index status` shows it. */
export interface IndexWatcherState {
  readonly pid: number;
  readonly socket: string;
  readonly root: string;
  readonly build: string;
  readonly startedAt: string;
  readonly uptimeMs: number;
  readonly requests: number;
  /** Watch events received since the watcher started. */
  readonly events: number;
  /** Full checks of the items directory (the first one, then after an overflow, error or replaced directory). */
  readonly sweeps: number;
  readonly lastSweepAt: string | null;
  readonly idleTimeoutMs: number;
}

/** What `pm index status` and `pm index stop` learn from the watcher's socket. */
export interface IndexWatcherReport {
  readonly running: boolean;
  readonly socket: string;
  readonly status?: IndexWatcherState;
  /** Why a watcher there did not answer usefully (another build of pm, no reply in time). */
  readonly detail?: string;
}

/** The tracker's index watcher, as the `pm index` commands use it. */
export interface IndexWatcherControl {
  status(): Promise<IndexWatcherReport>;
  stop(): Promise<IndexWatcherReport>;
  /** Runs the watcher in this process until it ends; resolves with why it ended. */
  run(): Promise<string>;
}

/**
 * The terminal as commands see it: output streams, stdin and files for --body-file, and a
 * yes/no prompt for consent. A port-shaped seam so commands run over fakes in unit tests.
 */
export interface CliIo {
  /** Writes to stdout; resolves once the text is handed to the OS. */
  write(text: string): Promise<void>;
  /** Writes to stderr. */
  writeError(text: string): Promise<void>;
  /** All of stdin as UTF-8 (for `--body-file -`). */
  readStdin(): Promise<string>;
  /** A UTF-8 file, relative paths taken from the working directory. */
  readFile(path: string): Promise<string>;
  /** True when stdout is a terminal that may get colors (not a pipe, no NO_COLOR). */
  readonly color?: boolean;
  /** True when a person can answer a prompt (stdin is a terminal). */
  readonly interactive: boolean;
  /** Asks a yes/no question; only called when `interactive` is true. */
  confirm(question: string): Promise<boolean>;
  /** The user's editor and private drafts (`pm edit`); absent where there is none. */
  readonly editor?: CliEditor;
}

/** Editing a draft file in the user's editor (`pm edit`, docs/CLI.md). */
export interface CliEditor {
  /** Writes `text` to a new draft only the user can read, named `name`; resolves to its path. */
  createDraft(name: string, text: string): Promise<string>;
  /** The editor the user configured ($VISUAL, else $EDITOR), or undefined when neither is set. */
  readonly configured: string | undefined;
  /** Runs `command` (a shell command line, e.g. `code --wait`) on `path` and waits for it; resolves to its exit code. */
  edit(path: string, command: string): Promise<number>;
  /** Removes a draft (and the private directory createDraft made for it). */
  removeDraft(path: string): Promise<void>;
}

/** Options every command accepts, wherever they appear on the command line. */
export interface GlobalOptions {
  readonly json: boolean;
  readonly help: boolean;
  readonly version: boolean;
  readonly actor?: string;
  readonly root?: string;
}

/** Everything a running command gets. */
export interface CliContext {
  readonly io: CliIo;
  readonly services: CliServices;
  readonly globals: GlobalOptions;
}

/** One option of a command, as given to node:util parseArgs and shown by --help. */
export interface OptionSpec {
  readonly type: 'string' | 'boolean';
  readonly short?: string;
  readonly multiple?: boolean;
  /** Placeholder shown in help, e.g. 'N' for `--limit N`. */
  readonly value?: string;
  readonly description: string;
  /** An empty value means something (`--body ""` empties the body); otherwise it is refused, never ignored. */
  readonly allowEmpty?: boolean;
  /** What to do instead of passing an empty value, e.g. 'to remove the assignee, use --unassign'. */
  readonly emptyHint?: string;
  /**
   * What completes this option's value (`pm completion`), when its name does not say it: a
   * closed set of words, or one of the tracker's sources. By name: --status, --type, --tag,
   * --parent, --blocked-by… (completion/complete-words.ts).
   */
  readonly complete?: readonly string[] | CompletionSource;
}

/** Where a completed value comes from: the tracker's statuses, types, tags or item ids, or the file system. */
export type CompletionSource = 'status' | 'type' | 'tag' | 'id' | 'assignee' | 'file' | 'none';

/** A positional argument; required unless `optional` (or the option `orOption` is given), `variadic` takes the rest. */
export interface PositionalSpec {
  readonly name: string;
  readonly optional?: boolean;
  readonly variadic?: boolean;
  /** What completes it, when its name does not say it (`id`, `ids` complete item ids). */
  readonly complete?: readonly string[] | CompletionSource;
  /** An option that stands in for the argument (`--filter` for the ids of a bulk command). */
  readonly orOption?: string;
}

/** Raw argv values after parseArgs; each command validates them with its own zod schema. */
export type OptionValues = Readonly<Record<string, string | boolean | (string | boolean)[] | undefined>>;

/** argv after parseArgs: option values and positionals, not yet validated. */
export interface ParsedArgs {
  readonly values: OptionValues;
  readonly positionals: readonly string[];
}

/**
 * What a command produced: `value` is the domain result, printed verbatim as JSON under
 * --json; `human` is the readable rendering. `exitCode` lets a successful run report a
 * finding (validate exits 5 when it found errors) without pretending it failed.
 */
export interface CommandOutcome {
  readonly value: unknown;
  readonly human: string;
  readonly exitCode?: number;
  /** Printed to stderr as `pm: warning: ...` (a change that went through but needs a look). */
  readonly warnings?: readonly string[];
  /** The command wrote its output itself (a document on stdout: `pm export --stdout`); nothing more is printed, not even under --json. */
  readonly written?: boolean;
}

/** A `pm` subcommand: its help, its options and what it does. */
export interface CliCommand {
  /** 'list', or 'deps add' for a subcommand of a group. */
  readonly name: string;
  readonly aliases?: readonly string[];
  readonly summary: string;
  readonly description?: string;
  readonly args: readonly PositionalSpec[];
  readonly options: Readonly<Record<string, OptionSpec>>;
  readonly examples?: readonly string[];
  /**
   * Options people type that this command does not have, mapped to the hint to give: an
   * unknown `--tag` on update suggests `--add-tag`, not the edit-distance neighbour `--tags`.
   */
  readonly optionHints?: Readonly<Record<string, string>>;
  /** Left out of the general help and of completion (the completion engine itself). */
  readonly hidden?: boolean;
  /**
   * The command takes argv as it is, unparsed (only `--root`/`--actor` are read from it): the
   * completion engine gets the half-typed command line of another command.
   */
  readonly rawArgs?: boolean;
  run(args: ParsedArgs, context: CliContext): Promise<CommandOutcome>;
}
