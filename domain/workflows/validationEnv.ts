import { BUILT_IN_TOOLS } from '../../lib/tools/builtIn.generated';
import { validateToolInput } from '../../lib/tools/validation';
import type { ToolDescriptor } from '../../lib/tools/descriptor';
import type { OutputType, ToolInfo, ValidationEnv } from '../../lib/dag/validate';
import { triggerConfigProblems } from '../../lib/triggers/config';
import { checkExpression, checkTemplates, findReferences, hasTemplates } from '../../lib/expressions';
import { jsonataSyntaxProblem } from '../../lib/expressions/jsonataSyntax';
import type { ErrorDetail } from '../../lib/errors';

/**
 * Wires the pure validator (lib/dag) to a set of tools and the expression checker. The API's set is the tool catalogue
 * its workers published (domain/tools/catalogue.ts); `validationEnv` is the built-in tools' descriptors (lib/tools/builtIn.generated.ts), test tools included.
 */

const OUTPUT_TYPES = new Set(['string', 'number', 'integer', 'boolean', 'object', 'array']);

function outputsOf(tool: ToolDescriptor): Record<string, OutputType> {
  const properties = (tool.outputSchema.properties ?? {}) as Record<string, { type?: unknown }>;
  const out: Record<string, OutputType> = {};
  for (const [name, schema] of Object.entries(properties)) {
    const type = typeof schema?.type === 'string' && OUTPUT_TYPES.has(schema.type) ? schema.type : 'any';
    out[name] = type as OutputType;
  }
  return out;
}

/** The tool's `syntaxFields` that parse wrongly (template-free values only: a template is rendered at run time). */
function syntaxProblems(tool: ToolDescriptor, config: Record<string, unknown>, prefix: string): ErrorDetail[] {
  const problems: ErrorDetail[] = [];
  for (const [field, language] of Object.entries(tool.syntaxFields ?? {})) {
    const value = config[field];
    if (language !== 'jsonata' || typeof value !== 'string' || hasTemplates(value)) continue;
    const problem = jsonataSyntaxProblem(value);
    if (problem) problems.push({ path: `${prefix}.${field}`, problem });
  }
  return problems;
}

const infoCache = new WeakMap<ToolDescriptor, ToolInfo>();

export function toolInfo(tool: ToolDescriptor): ToolInfo {
  let info = infoCache.get(tool);
  if (!info) {
    info = {
      outputs: outputsOf(tool),
      secretFields: tool.secretFields ?? [],
      configProblems: (config, prefix) => {
        const check = validateToolInput(tool, config, prefix);
        return check.ok ? syntaxProblems(tool, config, prefix) : check.problems;
      },
    };
    infoCache.set(tool, info);
  }
  return info;
}

/** Where a validation environment finds tools: read at each lookup, so a refreshed catalogue is seen at once. */
export interface ToolSource {
  get(id: string): ToolDescriptor | undefined;
  list(): readonly ToolDescriptor[];
}

export function createValidationEnv(tools: ToolSource): ValidationEnv {
  return {
    tool(id) {
      const tool = tools.get(id);
      return tool ? toolInfo(tool) : null;
    },
    toolIds: () => tools.list().map((tool) => tool.id),
    expressionProblems: (text) => checkExpression(text).problems,
    templateProblems: (value, basePath) => checkTemplates(value, basePath),
    templateReferences: (value, basePath) => findReferences(value, basePath),
    hasTemplates: (value) => hasTemplates(value),
    triggerProblems: (entries) => triggerConfigProblems(entries),
  };
}

const builtInById = new Map(BUILT_IN_TOOLS.map((tool) => [tool.id, tool]));

/** The built-in tools (test tools included), as data: unit tests and callers without a catalogue. */
export const validationEnv: ValidationEnv = createValidationEnv({ get: (id) => builtInById.get(id), list: () => BUILT_IN_TOOLS });
