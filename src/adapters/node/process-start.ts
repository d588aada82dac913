import { readFileSync } from 'node:fs';

/**
 * When a process started, in epoch milliseconds, or undefined where that cannot be told (no
 * Linux /proc, the process is gone). Used to tell a lock holder that died, and whose pid a
 * later process reused, from a holder still alive: a process that started after the lock was
 * taken cannot be the one that took it.
 *
 * /proc/<pid>/stat field 22 is the start time in clock ticks since boot (USER_HZ, 100 on Linux
 * ABIs node supports); /proc/stat `btime` is the boot time in whole seconds, so the result is
 * accurate to about a second.
 */
export function processStartMs(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'latin1');
    // The command name (field 2) is parenthesized and may itself hold spaces or parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    const ticks = Number(fields[19]);
    const boot = bootTimeMs();
    if (!Number.isFinite(ticks) || boot === undefined) return undefined;
    return boot + (ticks * 1000) / USER_HZ;
  } catch {
    return undefined;
  }
}

const USER_HZ = 100;
let bootMs: number | undefined;

function bootTimeMs(): number | undefined {
  if (bootMs === undefined) {
    const line = readFileSync('/proc/stat', 'latin1').split('\n').find((l) => l.startsWith('btime '));
    const seconds = line ? Number(line.slice(6)) : NaN;
    if (Number.isFinite(seconds)) bootMs = seconds * 1000;
  }
  return bootMs;
}
