import Ajv, { type ErrorObject, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import type { ErrorDetail } from '../errors';
import { useFastStringLengths } from './stringLength';
import { CONFIG_EXAMPLES, placeholderFor } from './configExamples';
import type { ToolDescriptor } from './descriptor';

/** A node config or a tool's answer against the tool's JSON Schemas (ajv, compiled once per descriptor). */
const ajv = new Ajv({ allErrors: true, strict: false, allowUnionTypes: true });
addFormats(ajv);
useFastStringLengths(ajv);

interface Validators {
  input: ValidateFunction;
  output: ValidateFunction;
}
const validators = new WeakMap<ToolDescriptor, Validators>();

/** Compiled once per descriptor object (keep descriptors that did not change: the catalogue does). */
function compiledValidators(tool: ToolDescriptor): Validators {
  let v = validators.get(tool);
  if (!v) {
    v = { input: ajv.compile(tool.inputSchema), output: ajv.compile(tool.outputSchema) };
    validators.set(tool, v);
  }
  return v;
}

/** Compiles a tool's schemas now: a module whose schema ajv cannot compile fails the worker's start, not a run. */
export function compileToolSchemas(tool: ToolDescriptor): void {
  compiledValidators(tool);
}

export type SchemaCheck = { ok: true } | { ok: false; problems: ErrorDetail[] };

/** A missing top-level key of a tool's input: the key named, with a minimal config of the tool as an example. */
function missingKeyProblem(tool: ToolDescriptor, key: string): string {
  const schema = tool.inputSchema as { required?: string[]; properties?: Record<string, unknown> };
  const example =
    CONFIG_EXAMPLES[tool.id] ?? Object.fromEntries((schema.required ?? []).map((k) => [k, placeholderFor(schema.properties?.[k])]));
  return `required: the ${tool.id} tool needs "${key}"; for example ${JSON.stringify(example)}`;
}

function toDetails(errors: ErrorObject[] | null | undefined, prefix: string, tool?: ToolDescriptor): ErrorDetail[] {
  return (errors ?? []).slice(0, 50).map((e) => {
    const missing = e.keyword === 'required' ? `.${(e.params as { missingProperty: string }).missingProperty}` : '';
    const extra =
      e.keyword === 'additionalProperties'
        ? `.${(e.params as { additionalProperty: string }).additionalProperty}`
        : '';
    const pointer = e.instancePath.split('/').filter(Boolean).join('.');
    const missingKey = e.keyword === 'required' && pointer === '' && tool ? missing.slice(1) : null;
    return {
      path: [prefix, pointer].filter(Boolean).join('.') + missing + extra,
      problem:
        e.keyword === 'additionalProperties'
          ? 'unknown property'
          : missingKey && tool
            ? missingKeyProblem(tool, missingKey)
            : (e.message ?? 'invalid'),
    };
  });
}

/** Pure check of a tool's input against its input schema. `prefix` starts each problem's path. */
export function validateToolInput(tool: ToolDescriptor, input: unknown, prefix = 'input'): SchemaCheck {
  const validate = compiledValidators(tool).input;
  return validate(input) ? { ok: true } : { ok: false, problems: toDetails(validate.errors, prefix, tool) };
}

/** Pure check of a tool's output against its output schema. */
export function validateToolOutput(tool: ToolDescriptor, output: unknown, prefix = 'output'): SchemaCheck {
  const validate = compiledValidators(tool).output;
  return validate(output) ? { ok: true } : { ok: false, problems: toDetails(validate.errors, prefix) };
}
