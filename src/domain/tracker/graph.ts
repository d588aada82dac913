/** Looks up an item's outgoing edges (blockedBy ids, or the parent as a one-element list). */
export type Edges = (id: string) => readonly string[];

/**
 * The path from `from` to `to` following edges, or undefined when `to` is unreachable.
 * Adding an edge to -> from closes a cycle exactly when such a path exists.
 */
export function findPath(from: string, to: string, edges: Edges): string[] | undefined {
  const previous = new Map<string, string | null>([[from, null]]);
  const queue = [from];
  while (queue.length > 0) {
    const node = queue.shift()!;
    if (node === to) {
      const path: string[] = [];
      for (let at: string | null = node; at !== null; at = previous.get(at) ?? null) path.unshift(at);
      return path;
    }
    for (const next of edges(node)) {
      if (!previous.has(next)) {
        previous.set(next, node);
        queue.push(next);
      }
    }
  }
  return undefined;
}

/** Every cycle-closing edge in a graph, as the cycle's node list (each cycle reported once). */
export function findCycles(nodes: Iterable<string>, edges: Edges): string[][] {
  const state = new Map<string, 1 | 2>();
  const cycles: string[][] = [];
  const stack: string[] = [];
  const visit = (node: string): void => {
    state.set(node, 1);
    stack.push(node);
    for (const next of edges(node)) {
      const s = state.get(next);
      if (s === 1) cycles.push([...stack.slice(stack.indexOf(next)), next]);
      else if (s === undefined) visit(next);
    }
    stack.pop();
    state.set(node, 2);
  };
  for (const node of nodes) if (!state.has(node)) visit(node);
  return cycles;
}
