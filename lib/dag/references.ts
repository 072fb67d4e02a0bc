import { REFERENCE } from './model';
import { isParameterRoot, RESERVED_ROOTS } from './parameterRoots';

/**
 * A `from` reference: `<node_id>.<output_name>`, or `params.<name>` (alias `parameters.<name>`, see
 * ./parameterRoots.ts) for a workflow parameter.
 */
export type StaticReference = { kind: 'param'; name: string } | { kind: 'node'; nodeId: string; output: string };

export function parseReference(text: string): StaticReference | null {
  const match = REFERENCE.exec(text);
  if (!match) return null;
  const [, root, name] = match as unknown as [string, string, string];
  return isParameterRoot(root) ? { kind: 'param', name } : { kind: 'node', nodeId: root, output: name };
}

/** Names that cannot be node ids or loop iterators because expressions use them for something else. */
export const RESERVED_NAMES: ReadonlySet<string> = RESERVED_ROOTS;
