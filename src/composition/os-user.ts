import { userInfo } from 'node:os';

/**
 * The operating-system user a process runs as: who mutations are recorded as when PM_ACTOR is
 * unset. Falls back to USER/USERNAME, then `unknown` (a container without a passwd entry).
 */
export function osUser(env: NodeJS.ProcessEnv = process.env): string {
  try {
    return userInfo().username;
  } catch {
    return env.USER ?? env.USERNAME ?? 'unknown';
  }
}
