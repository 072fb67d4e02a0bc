import type { Problem } from '../problems';
import { secretFieldProblems } from '../secretFields';
import { hasSecretReferences } from '../secretReferences';
import type { ValidationEnv } from './types';
import { echo } from '../../echo';
import { didYouMean } from '../../suggest';

/**
 * A tool's config against the tool's input schema, ignoring the fields that input bindings (`boundNames`),
 * templates or secret references fill at run time: those are checked then. Secret references only in the fields
 * the tool declares (lib/dag/secretFields.ts). `path` is the tool config's
 * (`<node>.config`): the tool id is at `<path>.tool`, its config at `<path>.config`.
 */
export function toolConfigProblems(
  toolId: string,
  config: Record<string, unknown>,
  boundNames: readonly string[],
  path: string,
  env: Pick<ValidationEnv, 'tool' | 'toolIds' | 'hasTemplates'>,
): Problem[] {
  const tool = env.tool(toolId);
  if (!tool) return [{ path: `${path}.tool`, problem: `unknown tool "${echo(toolId)}"${didYouMean(toolId, env.toolIds?.() ?? [])}` }];
  const dynamic = new Set(boundNames);
  const fixed: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(config)) {
    if (env.hasTemplates(value) || hasSecretReferences(value)) dynamic.add(key);
    else fixed[key] = value;
  }
  const prefix = `${path}.config`;
  return [
    ...secretFieldProblems(toolId, tool.secretFields ?? [], config, prefix),
    ...tool.configProblems(fixed, prefix).filter((p) => !dynamic.has(topField(p.path, prefix))),
  ];
}

/** The config field a problem's path names: `<prefix>.headers.x` -> `headers`. */
export function topField(path: string, prefix: string): string {
  return path.slice(prefix.length + 1).split(/[.[]/)[0] ?? '';
}
