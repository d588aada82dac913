/** One RFC 6902 operation, as recorded in history lines. */
export type JsonPatchOp =
  | { readonly op: 'add'; readonly path: string; readonly value: unknown }
  | { readonly op: 'remove'; readonly path: string }
  | { readonly op: 'replace'; readonly path: string; readonly value: unknown };

type Doc = Record<string, unknown>;

/**
 * The patch turning `before` into `after`, per top-level key. Arrays that only grew at the
 * end (comments, tags) become `add .../-` operations so history lines stay small.
 */
export function diffDocuments(before: Doc, after: Doc): JsonPatchOp[] {
  const ops: JsonPatchOp[] = [];
  const keys = new Set([...Object.keys(before), ...Object.keys(after)]);
  for (const key of keys) {
    const path = `/${escapeToken(key)}`;
    const a = before[key];
    const b = after[key];
    if (b === undefined) {
      if (a !== undefined) ops.push({ op: 'remove', path });
    } else if (a === undefined) {
      ops.push({ op: 'add', path, value: b });
    } else if (!deepEqual(a, b)) {
      if (Array.isArray(a) && Array.isArray(b) && b.length > a.length && a.every((v, i) => deepEqual(v, b[i]))) {
        for (const value of b.slice(a.length)) ops.push({ op: 'add', path: `${path}/-`, value });
      } else {
        ops.push({ op: 'replace', path, value: b });
      }
    }
  }
  return ops;
}

/** Applies a patch produced by diffDocuments (top-level keys and appends) to a copy of doc. */
export function applyPatch(doc: Doc, patch: readonly JsonPatchOp[]): Doc {
  const out: Doc = structuredClone(doc);
  for (const op of patch) {
    const [key, tail] = op.path.slice(1).split('/').map(unescapeToken) as [string, string | undefined];
    if (op.op === 'remove') delete out[key];
    else if (tail === '-') (out[key] = [...((out[key] as unknown[]) ?? []), structuredClone(op.value)]);
    else out[key] = structuredClone(op.value);
  }
  return out;
}

export function deepEqual(a: unknown, b: unknown): boolean {
  if (a === b) return true;
  if (typeof a !== 'object' || typeof b !== 'object' || a === null || b === null) return false;
  if (Array.isArray(a) !== Array.isArray(b)) return false;
  // Lists of JSON values hold no undefined entries: lengths that differ decide at once (an item's 1,000 comments).
  if (Array.isArray(a) && a.length !== (b as unknown[]).length) return false;
  const ka = Object.keys(a).filter((k) => (a as Doc)[k] !== undefined);
  const kb = Object.keys(b).filter((k) => (b as Doc)[k] !== undefined);
  if (ka.length !== kb.length) return false;
  return ka.every((k) => deepEqual((a as Doc)[k], (b as Doc)[k]));
}

function escapeToken(token: string): string {
  return token.replace(/~/g, '~0').replace(/\//g, '~1');
}

function unescapeToken(token: string): string {
  return token.replace(/~1/g, '/').replace(/~0/g, '~');
}
