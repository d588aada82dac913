
/**
 * Starts `launcher index watch --root <root>` as a detached process with its stdio ignored and
 * unreferenced, so this one-shot process exits at once and the watcher outlives it (it ends on
 * its own: idle timeout, tracker gone, `pm index stop`).
 */
export function launchIndexWatcher(launcher: readonly string[], root: string, env: NodeJS.ProcessEnv): void {
  const [command, ...args] = launcher;
  if (!command) return;
  // Loaded here: only a query that just swept a large tracker starts a watcher.
  const child = process.getBuiltinModule('node:child_process').spawn(command, [...args, 'index', 'watch', '--root', root], { detached: true, stdio: 'ignore', env });
  child.on('error', () => undefined);
  child.unref();
}
