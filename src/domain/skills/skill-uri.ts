/** The URI scheme of skill resources (SEP-2640 "Resource Mapping", SHOULD-level). */
export const PM_SKILL_URI_SCHEME = 'skill://';
/** The entry point of every skill. */
export const PM_SKILL_MD = 'SKILL.md';

/**
 * `skill://<name>`: a skill's root directory, with no trailing slash (SEP-2640 "Resource
 * Mapping"). pm's skills sit directly below an origin, so the skill path is the name itself.
 */
export function pmSkillRootUri(name: string): string {
  return `${PM_SKILL_URI_SCHEME}${name}`;
}

/** Paths made only of characters that stand for themselves in a URI path. */
const PLAIN_PATH = /^[A-Za-z0-9._~/-]*$/;

/** `skill://<name>/<file-path>`, each path segment percent-encoded as a URI path segment. */
export function pmSkillFileUri(name: string, relativePath: string): string {
  if (relativePath === '') return pmSkillRootUri(name);
  const path = PLAIN_PATH.test(relativePath) ? relativePath : relativePath.split('/').map(encodeURIComponent).join('/');
  return `${pmSkillRootUri(name)}/${path}`;
}

/** Whether uri is in the skill namespace, so a `resources/read` router can send it here. */
export function isPmSkillUri(uri: string): boolean {
  return uri.startsWith(PM_SKILL_URI_SCHEME);
}
