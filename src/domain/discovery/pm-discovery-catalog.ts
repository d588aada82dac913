/**
 * What discovery knows about pm's own tracker tools (seed 004 "Decision": negotiated clients
 * receive a stable five-tool entry catalogue): the four everyday tools beside pm_discover, each
 * with the reason it is there, and the words a need may use for each tool beyond its own
 * name and description. docs/DISCOVERY.md "The entry catalogue" explains the choice.
 */

/** One entry tool and why it is in the entry catalogue. */
export interface PmDiscoveryEntryTool {
  readonly name: string;
  readonly reason: string;
}

/**
 * The everyday four, most wanted first. All four are read-only (a host may run them without
 * asking), they are the ones an agent needs before it knows what to change, and their schemas
 * are small. Writes (claim, close, create, comment) each need one deliberate intent, which a
 * single pm_discover call turns into a schema; pm_next's answer already names the claim call.
 */
export const PM_TOOL_DISCOVERY_ENTRY: readonly PmDiscoveryEntryTool[] = Object.freeze([
  { name: 'pm_context', reason: 'orientation first: counts, the next ready item and why, active claims, recent changes' },
  { name: 'pm_next', reason: 'answers "what should I work on now" with one item, the reason and runners-up' },
  { name: 'pm_get', reason: 'every change starts from reading the item: its revision guards the change' },
  { name: 'pm_search', reason: 'agents refer to work by words; search turns words into item ids' },
]);

/** The entry tools' names, most wanted first. */
export const PM_TOOL_DISCOVERY_ENTRY_NAMES: readonly string[] = Object.freeze(PM_TOOL_DISCOVERY_ENTRY.map((t) => t.name));

/** Words a need may use for each tracker tool (synonyms its description does not spell). */
export const PM_TOOL_DISCOVERY_KEYWORDS: Readonly<Record<string, readonly string[]>> = Object.freeze({
  pm_context: ['overview', 'snapshot', 'summary', 'orient', 'dashboard', 'status', 'project', 'counts', 'begin'],
  pm_next: ['next', 'ready', 'pick', 'choose', 'recommend', 'priority', 'what', 'work', 'todo'],
  pm_list: ['list', 'filter', 'browse', 'backlog', 'assigned', 'mine', 'open', 'page', 'all', 'children', 'sort'],
  pm_get: ['read', 'show', 'view', 'details', 'fetch', 'body', 'acceptance', 'comments', 'revision', 'open'],
  pm_search: ['find', 'search', 'lookup', 'query', 'words', 'text', 'keyword', 'match'],
  pm_create: ['create', 'new', 'add', 'file', 'report', 'bug', 'issue', 'triage', 'capture', 'task', 'feature', 'epic', 'subtask'],
  pm_update: ['update', 'edit', 'change', 'set', 'modify', 'rename', 'retitle', 'priority', 'tag', 'label', 'reassign', 'assign', 'field', 'description', 'triage', 'move', 'parent', 'status'],
  pm_claim: ['claim', 'start', 'take', 'begin', 'grab', 'own', 'lease', 'lock', 'work', 'progress', 'renew'],
  pm_release: ['release', 'unclaim', 'give', 'hand', 'back', 'abandon', 'drop', 'free', 'stop', 'pause'],
  pm_close: ['close', 'finish', 'done', 'complete', 'resolve', 'evidence', 'ship', 'cancel', 'wontfix', 'duplicate'],
  pm_reopen: ['reopen', 'undo', 'revive', 'regression', 'again', 'restore'],
  pm_comment: ['comment', 'note', 'progress', 'remark', 'discuss', 'reply', 'record', 'update', 'log'],
  pm_deps: ['dependency', 'depend', 'block', 'blocker', 'blocked', 'waits', 'prerequisite', 'link', 'unlink', 'related', 'relate'],
  pm_graph: ['graph', 'tree', 'hierarchy', 'children', 'parent', 'descendants', 'ancestors', 'epic', 'structure', 'map', 'roadmap'],
  pm_history: ['history', 'log', 'audit', 'changes', 'changed', 'who', 'when', 'receipt', 'timeline', 'revisions', 'blame'],
  pm_delete: ['delete', 'remove', 'erase', 'purge', 'destroy', 'drop'],
  pm_validate: ['validate', 'check', 'verify', 'integrity', 'corrupt', 'broken', 'repair', 'lint', 'doctor', 'health'],
});
