import { z } from 'zod';
import { zodProblems } from './nodeConfig';
import { NODE_TYPE_SPECS } from './nodeTypes';
import type { Problem } from './problems';

/**
 * The spec's "workflow definition document", an authoring format (JSON or YAML) compiled to the same model as the
 * API's `dag` shape:
 *
 *   name, description, version (string), metadata {tags, category, estimatedDuration},
 *   parameters [{name, type, required, description, default, enum}],
 *   nodes [...], edges [{from, to}], error_handling {...}, triggers [...] (optional)
 *
 * A document node may write its type's keys at the top level (`tool`, `expression`, `branches`, `items`,
 * `workflow_id`, ...) instead of inside `config`, may list `depends_on: [ids]` instead of edges, and may give a tool
 * node's `inputs` as a map `name -> value` (values may be `${...}` templates, or `{ from: "<node>.<output>" }`).
 * Everything compiles to the model's node `{ id, type, name, config, inputs, outputs, retryPolicy }`; the compiled
 * definition is then validated like any other, so problems name `nodes.<id>.config.<field>`.
 */

const TYPE_KEYS: Record<string, readonly string[]> = Object.fromEntries(
  Object.entries(NODE_TYPE_SPECS).map(([type, spec]) => [type, spec.documentKeys]),
);

/** Other spellings a document may use for the model's keys (snake_case for camelCase and the reverse). */
const ALIASES: Record<string, string> = Object.fromEntries(
  Object.values(NODE_TYPE_SPECS).flatMap((spec) => Object.entries(spec.documentAliases ?? {})),
);

const documentNodeSchema = z
  .object({
    id: z.string(),
    type: z.string(),
    name: z.string().optional(),
    description: z.string().optional(),
    depends_on: z.array(z.string()).optional(),
    dependsOn: z.array(z.string()).optional(),
    retryPolicy: z.unknown().optional(),
    retry_policy: z.unknown().optional(),
  })
  .catchall(z.unknown());

export const definitionDocumentSchema = z.strictObject({
  name: z.string().min(1).max(255),
  description: z.string().max(10_000).optional(),
  version: z.union([z.string().max(50), z.number()]).optional(),
  metadata: z.record(z.string(), z.unknown()).optional(),
  parameters: z.array(z.unknown()).max(200).optional(),
  nodes: z.array(z.unknown()).min(1).max(2000),
  edges: z.array(z.unknown()).max(10_000).optional(),
  entryPoints: z.array(z.string()).optional(),
  exitPoints: z.array(z.string()).optional(),
  error_handling: z.record(z.string(), z.unknown()).optional(),
  flow: z.record(z.string(), z.unknown()).optional(),
  triggers: z.array(z.unknown()).max(50).optional(),
  tools: z.array(z.unknown()).max(200).optional(),
});
export type DefinitionDocument = z.output<typeof definitionDocumentSchema>;

export interface CompiledDocument {
  name: string;
  description: string;
  metadata: Record<string, unknown>;
  dag: { nodes: unknown[]; edges: unknown[]; entryPoints?: string[]; exitPoints?: string[] };
  tools?: unknown[];
  triggers?: unknown[];
  parameters?: unknown[];
  errorHandling?: unknown;
  flow?: unknown;
}

/** Whether a create/update body is a definition document rather than the API's `{ name, dag, ... }` shape. */
export function isDefinitionDocument(body: unknown): boolean {
  return Boolean(body && typeof body === 'object' && 'nodes' in body && !('dag' in body));
}

export function compileDocument(raw: unknown): { ok: true; value: CompiledDocument } | { ok: false; problems: Problem[] } {
  const parsed = definitionDocumentSchema.safeParse(raw);
  if (!parsed.success) return { ok: false, problems: zodProblems(parsed.error, '', definitionDocumentSchema) };
  const doc = parsed.data;
  const problems: Problem[] = [];
  const nodes: unknown[] = [];
  const edges: unknown[] = [...(doc.edges ?? [])];
  doc.nodes.forEach((rawNode, i) => {
    const node = documentNodeSchema.safeParse(rawNode);
    if (!node.success) {
      problems.push(...zodProblems(node.error, `nodes[${i}]`, documentNodeSchema));
      return;
    }
    const compiled = compileNode(node.data, `nodes[${i}]`, problems);
    if (compiled) nodes.push(compiled);
    for (const from of node.data.depends_on ?? node.data.dependsOn ?? []) edges.push({ from, to: node.data.id });
  });
  if (problems.length) return { ok: false, problems };
  const metadata: Record<string, unknown> = { ...(doc.metadata ?? {}) };
  if (doc.version !== undefined) metadata.definitionVersion = String(doc.version);
  return {
    ok: true,
    value: {
      name: doc.name,
      description: doc.description ?? '',
      metadata,
      dag: {
        nodes,
        edges,
        ...(doc.entryPoints ? { entryPoints: doc.entryPoints } : {}),
        ...(doc.exitPoints ? { exitPoints: doc.exitPoints } : {}),
      },
      tools: doc.tools,
      triggers: doc.triggers,
      parameters: doc.parameters,
      errorHandling: doc.error_handling,
      flow: doc.flow,
    },
  };
}

type DocNode = z.output<typeof documentNodeSchema>;

function compileNode(node: DocNode, path: string, problems: Problem[]): Record<string, unknown> | null {
  const { id, type, name, description, depends_on: _d, dependsOn: _d2, retryPolicy, retry_policy, ...rest } = node;
  void _d;
  void _d2;
  const typeKeys = TYPE_KEYS[type];
  if (!typeKeys) {
    // Let the model's validation report the type with the node's other problems.
    return { id, type, config: (rest.config as Record<string, unknown> | undefined) ?? {} };
  }
  const out: Record<string, unknown> = { id, type };
  if (name ?? description) out.name = name ?? description;
  const retry = retryPolicy ?? retry_policy;
  if (retry !== undefined) out.retryPolicy = retry;

  if (type === 'tool') {
    const { tool, config, inputs, outputs, rate_limit: rateLimit, ...unknown } = rest;
    reportUnknown(unknown, path, problems);
    const toolConfig: Record<string, unknown> = { ...((config as Record<string, unknown> | undefined) ?? {}) };
    const bindings: unknown[] = [];
    if (Array.isArray(inputs)) bindings.push(...inputs);
    else if (inputs && typeof inputs === 'object') {
      for (const [key, value] of Object.entries(inputs as Record<string, unknown>)) {
        if (value && typeof value === 'object' && !Array.isArray(value) && 'from' in value) {
          bindings.push({ name: key, from: (value as { from: unknown }).from });
        } else toolConfig[key] = value;
      }
    } else if (inputs !== undefined) problems.push({ path: `${path}.inputs`, problem: 'a list of {name, from} or a map' });
    out.config = {
      tool,
      config: toolConfig,
      ...(bindings.length ? { inputs: bindings } : {}),
      ...(outputs ? { outputs } : {}),
      ...(rateLimit !== undefined ? { rate_limit: rateLimit } : {}),
    };
    return out;
  }

  // Other types: keys at the top level or inside `config` (top level wins), aliases normalised.
  const config: Record<string, unknown> = { ...((rest.config as Record<string, unknown> | undefined) ?? {}) };
  const { config: _c, outputs, ...others } = rest;
  void _c;
  if (outputs !== undefined) out.outputs = outputs;
  for (const [key, value] of Object.entries(others)) {
    if (type !== 'subworkflow' && key === 'inputs' && Array.isArray(value)) {
      out.inputs = value;
      continue;
    }
    if (!typeKeys.includes(key)) {
      problems.push({ path: `${path}.${key}`, problem: `unknown field for a ${type} node` });
      continue;
    }
    config[ALIASES[key] ?? key] = value;
  }
  for (const [alias, canonical] of Object.entries(ALIASES)) {
    if (alias in config) {
      config[canonical] ??= config[alias];
      delete config[alias];
    }
  }
  out.config = config;
  return out;
}

function reportUnknown(unknown: Record<string, unknown>, path: string, problems: Problem[]): void {
  for (const key of Object.keys(unknown)) problems.push({ path: `${path}.${key}`, problem: 'unknown field for a tool node' });
}
