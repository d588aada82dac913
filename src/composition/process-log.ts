/** Where a process writes its diagnostics: stderr lines with the process name in front. */
export interface ProcessLog {
  readonly name: string;
  line(text: string): void;
  /** An unexpected failure, with its stack when there is one. */
  error(what: string, error: unknown): void;
}

/** The stderr log of process `name` (stdout stays for protocol messages and the CLI's output). */
export function stderrLog(name: string): ProcessLog {
  const line = (text: string) => void process.stderr.write(`${name}: ${text}\n`);
  return {
    name,
    line,
    error: (what, error) => line(`${what}: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`),
  };
}
