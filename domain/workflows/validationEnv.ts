import { getTool, listTools, validateToolInput } from '../../activities/tools/registry';
import type { ToolDefinition } from '../../activities/tools/types';
import type { OutputType, ToolInfo, ValidationEnv } from '../../lib/dag/validate';
import { triggerConfigProblems } from '../../lib/triggers/config';
import { checkExpression, checkTemplates, findReferences, hasTemplates } from '../../lib/expressions';

/** Wires the pure validator (lib/dag) to the tool registry and the expression checker. */

const OUTPUT_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array']);

function outputsOf(tool: ToolDefinition): Record<string, OutputType> {
  const properties = (tool.outputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const out: Record<string, OutputType> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const type = typeof schema?.type === 'string' && OUTPUT_TYPES.has(schema.type) ? schema.type : 'any';
    out[name] = type as OutputType;
  }
  return out;
}

const infoCache = new WeakMap<ToolDefinition, ToolInfo>();

export function toolInfo(tool: ToolDefinition): ToolInfo {
  let info = infoCache.get(tool);
  if (!info) {
    info = {
      outputs: outputsOf(tool),
      configProblems: (config, prefix) => {
        const check = validateToolInput(tool, config, prefix);
        return check.ok ? [] : check.problems;
      },
    };
    infoCache.set(tool, info);
  }
  return info;
}

export const validationEnv: ValidationEnv = {
  tool(id) {
    const tool = getTool(id);
    return tool ? toolInfo(tool) : null;
  },
  toolIds: () => listTools().map((tool) => tool.id),
  expressionProblems: (text) => checkExpression(text).problems,
  templateProblems: (value, basePath) => checkTemplates(value, basePath),
  templateReferences: (value, basePath) => findReferences(value, basePath),
  hasTemplates: (value) => hasTemplates(value),
  triggerProblems: (entries) => triggerConfigProblems(entries),
};
