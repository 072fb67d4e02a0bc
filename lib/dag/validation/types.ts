import type { StoredDefinition, Trigger } from '../model';
import type { Problem } from '../problems';

/** The types validateDefinition takes and returns; the API wires a `ValidationEnv` (domain/workflows/validationEnv.ts). */

export interface ToolInfo {
  /** names of the tool's outputs (its output schema's properties) */
  outputs: Record<string, OutputType>;
  /** problems of a (template-free) config against the tool's input schema, paths starting with `prefix` */
  configProblems(config: Record<string, unknown>, prefix: string): Problem[];
  /** the config fields that accept `{{secret.NAME}}` (the descriptor's `secretFields`; none when absent) */
  secretFields?: readonly string[];
}

export type OutputType = 'string' | 'number' | 'integer' | 'boolean' | 'object' | 'array' | 'any';

/** A reference found in a `${...}` template (see lib/expressions findReferences). */
export type TemplateReference =
  | { kind: 'param'; name: string | null; path: string }
  | { kind: 'node'; nodeId: string; output: string | null; path: string }
  | { kind: 'name'; name: string; field: string | null; path: string };

export interface ValidationEnv {
  tool(id: string): ToolInfo | null;
  /** every tool id a definition may name: the "did you mean" for an unknown one */
  toolIds?(): readonly string[];
  /** problems of a CEL expression (condition expressions) */
  expressionProblems(text: string): string[];
  /** problems of every `${...}` template in a value, paths starting with `basePath` */
  templateProblems(value: unknown, basePath: string): Problem[];
  templateReferences(value: unknown, basePath: string): TemplateReference[];
  hasTemplates(value: unknown): boolean;
  /** Deeper checks of the triggers' configs (cron, zone, paths, mappings...), wired by the triggers domain. */
  triggerProblems?(entries: { trigger: Trigger; path: string; index: number }[]): Problem[];
}

export interface DefinitionInput {
  dag: unknown;
  tools?: unknown;
  triggers?: unknown;
  parameters?: unknown;
  errorHandling?: unknown;
  flow?: unknown;
}

export interface SubworkflowReference {
  path: string;
  workflowId: string;
  /** the call's `inputs` (checked against the child's declared parameters once the child is loaded) */
  inputs?: { path: string; values: Record<string, unknown>; inheritContext: boolean };
}

export type ValidationResult =
  | { ok: true; definition: StoredDefinition; subworkflows: SubworkflowReference[] }
  | { ok: false; problems: Problem[]; subworkflows: SubworkflowReference[] };

export interface ValidateOptions {
  /** path prefix of the graph in problems: `dag` for the API shape, `` for the definition document */
  dagPath?: string;
  errorHandlingPath?: string;
}

/** A part of the definition as far as it could be read, with the problems found reading it. */
export interface Checked<T> {
  value: T;
  problems: Problem[];
}
