/** A JSON value as it travels on the wire. */
export type PmJsonValue = string | number | boolean | null | readonly PmJsonValue[] | { readonly [key: string]: PmJsonValue };

/** A SKILL.md front matter mapping, verbatim (SEP-2640 "Frontmatter"). */
export type PmSkillFrontMatter = { readonly [key: string]: PmJsonValue };

/**
 * Why value would not survive a JSON round trip unchanged (as a deep strict comparison sees
 * it), or undefined when it would: only plain objects, arrays, strings, booleans, null and
 * finite numbers other than -0 do.
 */
export function pmJsonValueProblem(value: unknown, path = ''): string | undefined {
  if (value === null || typeof value === 'string' || typeof value === 'boolean') return undefined;
  if (typeof value === 'number') {
    if (!Number.isFinite(value)) return `holds ${value} at ${where(path)}`;
    if (Object.is(value, -0)) return `holds -0 at ${where(path)}`;
    return undefined;
  }
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) {
      const problem = pmJsonValueProblem(value[i], `${path}[${i}]`);
      if (problem) return problem;
    }
    return undefined;
  }
  if (typeof value === 'object' && Object.getPrototypeOf(value) === Object.prototype) {
    for (const [key, inner] of Object.entries(value)) {
      const problem = pmJsonValueProblem(inner, path ? `${path}.${key}` : key);
      if (problem) return problem;
    }
    return undefined;
  }
  const kind = typeof value === 'object' ? (value as object).constructor?.name ?? 'object' : typeof value;
  return `holds a ${kind} at ${where(path)}`;
}

function where(path: string): string {
  return path || 'the top level';
}
