/**
 * The strongly connected components of a graph of references (`$defs`
 * entries, `$ref` strings), without recursion, so a chain of thousands of
 * definitions cannot run out of stack, and in time linear in the edges, where
 * a search from every node for a way back to itself was quadratic.
 */

/**
 * Tarjan's algorithm over `nodes`, following `edgesOf` (edges to nodes not in
 * `nodes` are ignored). Components come out in reverse topological order: a
 * component after every component it reaches, so a caller can compute a
 * value per component from the values of the ones it refers to.
 */
export function stronglyConnected<T>(nodes: Iterable<T>, edgesOf: (node: T) => readonly T[]): T[][] {
  const known = new Set(nodes);
  const index = new Map<T, number>();
  const low = new Map<T, number>();
  const stack: T[] = [];
  const onStack = new Set<T>();
  const components: T[][] = [];
  let counter = 0;
  const enter = (node: T, frames: { node: T; edges: readonly T[]; next: number }[]): void => {
    index.set(node, counter);
    low.set(node, counter++);
    stack.push(node);
    onStack.add(node);
    frames.push({ node, edges: edgesOf(node), next: 0 });
  };
  for (const start of known) {
    if (index.has(start)) continue;
    const frames: { node: T; edges: readonly T[]; next: number }[] = [];
    enter(start, frames);
    while (frames.length > 0) {
      const frame = frames[frames.length - 1];
      if (frame.next < frame.edges.length) {
        const to = frame.edges[frame.next++];
        if (!known.has(to)) continue;
        if (!index.has(to)) enter(to, frames);
        else if (onStack.has(to)) low.set(frame.node, Math.min(low.get(frame.node) as number, index.get(to) as number));
        continue;
      }
      frames.pop();
      const parent = frames[frames.length - 1];
      if (parent !== undefined) low.set(parent.node, Math.min(low.get(parent.node) as number, low.get(frame.node) as number));
      if (low.get(frame.node) !== index.get(frame.node)) continue;
      const component: T[] = [];
      let member: T;
      do {
        member = stack.pop() as T;
        onStack.delete(member);
        component.push(member);
      } while (member !== frame.node);
      components.push(component);
    }
  }
  return components;
}

/** The nodes that can reach themselves: members of a component of two or more, or with an edge to itself. */
export function nodesOnCycles<T>(nodes: Iterable<T>, edgesOf: (node: T) => readonly T[]): Set<T> {
  const onCycle = new Set<T>();
  for (const component of stronglyConnected(nodes, edgesOf)) {
    const [only] = component;
    if (component.length > 1 || edgesOf(only as T).includes(only as T)) for (const node of component) onCycle.add(node);
  }
  return onCycle;
}
