import type { PmMcpChange, PmMcpChangeSource } from '../mcp/subscriptions/change-source.js';
import type { PmSkillReload } from './registry-holder.js';
import type { PmMcpSkillRegistry } from './registry.js';
import { isPmSkillUri } from './skill-uri.js';
import type { PmMcpSkillsService } from './skills-service.js';

/** Every served file's URI and digest. */
function digestsOf(registry: PmMcpSkillRegistry): Map<string, string> {
  const out = new Map<string, string>();
  for (const entry of registry.entries()) for (const resource of entry.resources) out.set(resource.uri, resource.digest);
  return out;
}

/** What a reload means for listen streams: the list changed, and each added, removed or changed file was updated. */
export function pmMcpSkillChanges(reload: PmSkillReload): PmMcpChange[] {
  const before = digestsOf(reload.previous);
  const after = digestsOf(reload.registry);
  const changes: PmMcpChange[] = [{ kind: 'resourcesListChanged' }];
  for (const [uri, digest] of after) if (before.get(uri) !== digest) changes.push({ kind: 'resourceUpdated', uri });
  for (const uri of before.keys()) if (!after.has(uri)) changes.push({ kind: 'resourceUpdated', uri });
  return changes;
}

/**
 * The skills' change source for `subscriptions/listen` (2026-07-28 `basic/patterns/subscriptions`;
 * seed 000 "Skills over MCP": a registry reload notifies `resources/list_changed` subscribers):
 * while a listen stream is open, the workspace watch runs and every reload that changed what is
 * served becomes `resources/list_changed` plus `resources/updated` for each changed `skill://`
 * file (so a host holding a skill can re-read it).
 */
export function pmMcpSkillsChangeSource(skills: PmMcpSkillsService): PmMcpChangeSource {
  return {
    coversUri: (uri) => isPmSkillUri(uri),
    start(emit) {
      skills.watch();
      return skills.onChange((reload) => emit(pmMcpSkillChanges(reload)));
    },
  };
}
