/**
 * A tool-schema portability check: the rule set the official MCP Inspector applies to
 * `inputSchema` and `outputSchema` (its "schema portability" findings), written here from the
 * rules it documents, not from its code. It is not a JSON Schema validator (the schemas are
 * valid 2020-12 either way); it flags constructs that consumers translating tool schemas into a
 * narrower dialect reject or mangle:
 *
 * - `type-union` (warning): `type` spelled as an array (`["string", "null"]`). Portable form:
 *   `anyOf` branches with one `type` each.
 * - `boolean-schema` (error): a bare `true`/`false` where a schema object is expected
 *   (boolean-valued keywords such as `additionalProperties: false` are fine).
 * - `root-type` (error): a tool schema whose root is not `type: "object"`.
 *
 * Every subschema position of 2020-12 is walked (properties, items, prefixItems, anyOf/oneOf/
 * allOf, not, if/then/else, $defs, patternProperties, additionalProperties,
 * dependentSchemas, contains, propertyNames, unevaluated*).
 */

export interface PortabilityFinding {
  readonly rule: 'type-union' | 'boolean-schema' | 'root-type';
  readonly severity: 'warning' | 'error';
  /** JSON Pointer of the offending schema. */
  readonly path: string;
}

/** Keywords whose value is a single subschema. */
const ONE = ['items', 'not', 'if', 'then', 'else', 'contains', 'propertyNames', 'additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems'];
/** Keywords whose value is a list of subschemas. */
const LIST = ['anyOf', 'oneOf', 'allOf', 'prefixItems'];
/** Keywords whose value maps names to subschemas. */
const MAP = ['properties', 'patternProperties', '$defs', 'definitions', 'dependentSchemas'];
/** Keywords where a boolean is an ordinary value, not a stand-in for a schema. */
const BOOLEAN_VALUED = new Set(['additionalProperties', 'unevaluatedProperties', 'unevaluatedItems', 'additionalItems']);

/** The findings for one tool schema (empty: portable). */
export function schemaPortabilityFindings(schema: unknown): PortabilityFinding[] {
  const findings: PortabilityFinding[] = [];
  const root = schema as Record<string, unknown> | undefined;
  if (!root || typeof root !== 'object' || root.type !== 'object') findings.push({ rule: 'root-type', severity: 'error', path: '#' });
  walk(schema, '#', undefined, findings);
  return findings;
}

function walk(node: unknown, path: string, keyword: string | undefined, findings: PortabilityFinding[]): void {
  if (typeof node === 'boolean') {
    if (keyword === undefined || !BOOLEAN_VALUED.has(keyword)) findings.push({ rule: 'boolean-schema', severity: 'error', path });
    return;
  }
  if (!node || typeof node !== 'object' || Array.isArray(node)) return;
  const s = node as Record<string, unknown>;
  if (Array.isArray(s.type)) findings.push({ rule: 'type-union', severity: 'warning', path: `${path}/type` });
  for (const key of ONE) if (key in s) walk(s[key], `${path}/${key}`, key, findings);
  for (const key of LIST) if (Array.isArray(s[key])) (s[key] as unknown[]).forEach((sub, i) => walk(sub, `${path}/${key}/${i}`, key, findings));
  for (const key of MAP) {
    const members = s[key];
    if (members && typeof members === 'object') for (const [name, sub] of Object.entries(members)) walk(sub, `${path}/${key}/${name}`, key, findings);
  }
}
