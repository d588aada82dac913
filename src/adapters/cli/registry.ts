import type { CliCommand } from './command.js';
import { blockedCommand, readyCommand, treeCommand } from './commands/backlog-commands.js';
import { claimCommand, releaseCommand } from './commands/claim-commands.js';
import { closeCommand, reopenCommand } from './commands/close-commands.js';
import { commentCommand } from './commands/comment-command.js';
import { completeCommand, completionCommand } from './commands/completion-command.js';
import { createCommand } from './commands/create-command.js';
import { deleteCommand } from './commands/delete-command.js';
import { editCommand } from './commands/edit-command.js';
import { depsAddCommand, depsCommand, depsRemoveCommand } from './commands/deps-commands.js';
import { exportCommand } from './commands/export-command.js';
import { uiCommand } from './commands/ui-command.js';
import { indexStatusCommand, indexStopCommand, indexWatchCommand } from './commands/index-commands.js';
import { initCommand } from './commands/init-command.js';
import { listCommand } from './commands/list-command.js';
import { nextCommand, searchCommand } from './commands/query-commands.js';
import { contextCommand, getCommand, historyCommand, validateCommand } from './commands/read-commands.js';
import { mcpRotateKeyCommand, mcpStatsCommand } from './commands/mcp-commands.js';
import { mergeCheckCommand, mergeCommand, mergeDriverCommand, mergeFixIdsCommand, mergeInstallCommand, mergeUninstallCommand } from './commands/merge-commands.js';
import { skillsCheckCommand, skillsCommand, skillsListCommand, skillsShowCommand } from './commands/skills-commands.js';
import { updateCommand } from './commands/update-command.js';
import { tagCommand } from './commands/tag-command.js';

/** Every `pm` subcommand, in the order the general help lists them. */
export const COMMANDS: readonly CliCommand[] = [
  initCommand,
  contextCommand,
  nextCommand,
  readyCommand,
  blockedCommand,
  listCommand,
  treeCommand,
  searchCommand,
  getCommand,
  createCommand,
  updateCommand,
  tagCommand,
  editCommand,
  claimCommand,
  releaseCommand,
  commentCommand,
  closeCommand,
  reopenCommand,
  depsCommand,
  depsAddCommand,
  depsRemoveCommand,
  historyCommand,
  validateCommand,
  exportCommand,
  deleteCommand,
  skillsCommand,
  skillsListCommand,
  skillsShowCommand,
  skillsCheckCommand,
  mcpRotateKeyCommand,
  mergeCommand,
  mergeInstallCommand,
  mergeUninstallCommand,
  mergeCheckCommand,
  mergeFixIdsCommand,
  mergeDriverCommand,
  mcpStatsCommand,
  indexStatusCommand,
  indexStopCommand,
  indexWatchCommand,
  uiCommand,
  completionCommand,
  completeCommand(() => COMMANDS),
];

const byName = new Map<string, CliCommand>();
for (const command of COMMANDS) {
  for (const name of [command.name, ...(command.aliases ?? [])]) byName.set(name, command);
}

/** The command called `name` (or one of its aliases). */
export function findCommand(name: string): CliCommand | undefined {
  return byName.get(name);
}

/** Every name and alias (for "did you mean" hints). */
export function commandNames(): string[] {
  return [...byName.keys()];
}
