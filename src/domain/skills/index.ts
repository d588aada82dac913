/**
 * Skills over MCP (seed 000 "Skills over MCP"; SEP-2640 at the pinned draft revision): the
 * immutable skills registry, the link-free and budget-first loading behind it, and the plain
 * JSON bodies of `skills/list`, `skills/get`, `resources/read`, `resources/directory/read` and
 * the skill part of `resources/list`.
 */
export * from './registry.js';
export * from './registry-holder.js';
export { PM_WORKSPACE_SKILLS_DIR, pmSkillOrigins, type PmSkillRegistryOptions } from './registry-load.js';
export * from './types.js';
export * from './diagnostics.js';
export * from './limits.js';
export type { PmJsonValue, PmSkillFrontMatter } from './json-value.js';
export { isValidPmSkillName, pmSkillNameProblem } from './skill-name.js';
export { parsePmSkillFrontMatter } from './front-matter.js';
export { estimatePmSkillTokens, PM_SKILL_TOKEN_ESTIMATE_METHOD, type PmSkillTokenEstimate } from './token-estimate.js';
export { isPmSkillUri, PM_SKILL_MD, PM_SKILL_URI_SCHEME, pmSkillFileUri, pmSkillRootUri } from './skill-uri.js';
export { PM_DIRECTORY_MIME_TYPE, PM_SKILL_MD_MIME_TYPE } from './mime-types.js';
export { pmSkillDigest } from './skill-digest.js';
export type { PmSkillOriginSource } from './origin-plan.js';
export * from './skills-capability.js';
export * from './skills-method-specs.js';
export * from './skills-extension.js';
export * from './skills-reloader.js';
export * from './skills-change-source.js';
export * from './skills-service.js';
