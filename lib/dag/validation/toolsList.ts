import type { NodeDef } from '../model';
import type { TypedConfig } from '../nodeConfig';
import { specOf } from '../nodeTypes';
import type { Checked, ValidationEnv } from './types';
import { echo } from '../../echo';
import { didYouMean } from '../../suggest';

/** Tools the nodes call, as their types' entries say (lib/dag/nodeTypes.ts): tool nodes first, then loop templates. */
export function toolsUsed(nodes: readonly NodeDef[], configs: ReadonlyMap<string, TypedConfig>): Set<string> {
  const used = new Set<string>();
  for (const node of nodes) {
    const typed = configs.get(node.id);
    const called = typed && specOf(typed.type).toolsCalled;
    if (typed && called) for (const tool of called(typed.config)) used.add(tool);
  }
  return used;
}

/** The workflow-level `tools` list: known tool ids, written as strings or as objects with an id. */
export function checkDeclaredTools(raw: unknown, env: Pick<ValidationEnv, 'tool' | 'toolIds'>): Checked<string[]> {
  const list = raw ?? [];
  if (!Array.isArray(list)) return { value: [], problems: [{ path: 'tools', problem: 'must be an array of tool ids' }] };
  const declared: string[] = [];
  const problems = list.flatMap((item, i) => {
    const id = typeof item === 'string' ? item : (item as { id?: unknown } | null)?.id;
    if (typeof id !== 'string') return [{ path: `tools[${i}]`, problem: 'a tool id (or an object with an id)' }];
    if (!env.tool(id)) return [{ path: `tools[${i}]`, problem: `unknown tool "${echo(id)}"${didYouMean(id, env.toolIds?.() ?? [])}` }];
    declared.push(id);
    return [];
  });
  return { value: declared, problems };
}
