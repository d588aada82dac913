/** What an install script printed and how it exited. */
export interface ScriptRun {
  readonly status: number;
  readonly stdout: string;
  readonly stderr: string;
}

/** The tools .tools/ holds (scripts/tools.mjs ensureTools). */
export interface ProvisionedTools {
  readonly nodes: Readonly<Record<number, { readonly path: string; readonly version: string }>>;
  readonly bun: { readonly path: string; readonly version: string };
}

/** Thrown when something the tests need could not be provisioned; the message says what and how. */
export declare class ProvisionError extends Error {}

/** Makes nginx, PostgreSQL's binaries and .tools/ available; returns the variables pointing the tests at them. */
export declare function provision(options?: {
  readonly log?: (line: string) => void;
  readonly run?: (script: string) => ScriptRun;
  readonly tools?: () => ProvisionedTools;
}): Record<string, string>;
