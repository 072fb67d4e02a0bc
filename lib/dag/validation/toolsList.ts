import type { NodeDef } from '../model';
import type { TypedConfig } from '../nodeConfig';
import type { Checked, ValidationEnv } from './types';
import { echo } from '../../echo';
import { didYouMean } from '../../suggest';

/** Tools the nodes call: tool nodes' and loop templates' (a template's tool id as written, valid or not). */
export function toolsUsed(nodes: readonly NodeDef[], configs: ReadonlyMap<string, TypedConfig>): Set<string> {
  const used = new Set<string>();
  for (const typed of configs.values()) if (typed.type === 'tool') used.add(typed.config.tool);
  for (const node of nodes) {
    const typed = configs.get(node.id);
    if (typed?.type === 'loop' && typed.config.template.type === 'tool') {
      const tool = (typed.config.template.config as { tool?: unknown }).tool;
      if (typeof tool === 'string') used.add(tool);
    }
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
