import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { createApp } from '../../api/app';
import { documentedErrors } from '../../api/http/openapi';
import { errorExampleCodes, requestExampleOperations, requestExamples, TAGS } from '../../api/http/openapiExamples';
import type { RouteDef } from '../../api/http/route';
import type { components, paths } from '../../client/generated/schema';
import { closeDeps, createDeps } from '../../domain/runtime';
import { loadConfig } from '../../lib/config';
import { ERROR_CATALOG } from '../../lib/errors';

/**
 * The OpenAPI document (api/http/openapi.ts) as clients see it: named components for the platform's payloads,
 * an example for every request body and every documented error code, every tag declared. A route added without
 * its examples or with a new tag fails here with the fix named (api/http/openapiExamples.ts).
 */

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

let routes: RouteDef[];
let doc: Json;

beforeAll(() => {
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    SERVICE_JWT_SECRET: 'openapi-test-placeholder-secret-0123456789',
    SERVICE_ENCRYPTION_KEY: 'openapi-test-placeholder-key-0123456789ab',
  });
  const deps = createDeps(config);
  const app = createApp(deps);
  routes = app.routes;
  doc = app.openApi();
  void closeDeps(deps);
  void app.shutdown();
});

const schemas = (): Json => doc.components.schemas;
const ref = (name: string): Json => ({ $ref: `#/components/schemas/${name}` });
const operations = (): Json[] => Object.values(doc.paths as Json).flatMap((ops) => Object.values(ops as Json));

describe('named components', () => {
  test('the platform payloads are components, referenced where they are used', () => {
    for (const name of ['Workflow', 'Node', 'Edge', 'Run', 'NodeState', 'Tool', 'Trigger', 'Error', 'Dag', 'CompiledDag']) {
      expect(schemas()[name]).toEqual(expect.any(Object));
    }
    const getWorkflow = doc.paths['/api/v1/workflows/{id}'].get;
    expect(getWorkflow.responses['200'].content['application/json'].schema).toEqual(ref('Workflow'));
    expect(doc.paths['/api/v1/workflows/{id}/runs/{run_id}'].get.responses['200'].content['application/json'].schema).toEqual(ref('Run'));
    expect(schemas().Run.properties.node_states.additionalProperties).toEqual(ref('NodeState'));
    for (const response of Object.entries(getWorkflow.responses as Json).filter(([status]) => Number(status) >= 400)) {
      expect(response[1].content['application/json'].schema).toEqual(ref('Error'));
    }
  });

  test('dag is typed: nodes are a union discriminated by type, each with its own config', () => {
    const workflowDag = schemas().Workflow.properties.dag;
    expect(workflowDag).toMatchObject(ref('CompiledDag'));
    expect(schemas().CompiledDag.properties.nodes.items).toEqual(ref('Node'));
    expect(schemas().CompiledDag.properties.edges.items).toEqual(ref('Edge'));
    expect(schemas().CompiledDag.required).toEqual(expect.arrayContaining(['nodes', 'edges', 'entryPoints', 'exitPoints']));

    const node = schemas().Node;
    const members = ['ToolNode', 'ConditionNode', 'SwitchNode', 'WaitNode', 'WaitForEventNode', 'ApprovalNode', 'RespondNode', 'ParallelNode', 'LoopNode', 'RepeatNode', 'SubworkflowNode'];
    expect(node.oneOf).toEqual(members.map(ref));
    expect(node.discriminator).toEqual({
      propertyName: 'type',
      mapping: Object.fromEntries(
        ['tool', 'condition', 'switch', 'wait', 'wait_for_event', 'approval', 'respond', 'parallel', 'loop', 'repeat', 'subworkflow'].map((type, i) => [type, `#/components/schemas/${members[i]}`]),
      ),
    });
    expect(schemas().ToolNode.properties.type).toMatchObject({ const: 'tool' });
    expect(schemas().ToolNode.properties.config).toEqual(ref('ToolNodeConfig'));
    expect(schemas().ToolNodeConfig.required).toEqual(['tool']);
    expect(schemas().LoopNodeConfig.properties.template).toEqual(ref('LoopTemplate'));
    expect(schemas().ConditionNodeConfig.properties.expression).toMatchObject({ type: 'string' });
    expect(schemas().ParallelNodeConfig.properties.joinStrategy).toMatchObject({ enum: ['wait_all', 'wait_any', 'wait_n'] });
    expect(schemas().SwitchNodeConfig.properties.cases.items).toEqual(ref('SwitchCase'));
    expect(schemas().SwitchNodeConfig.required).toEqual(['cases']);
  });

  test('the create body shows both accepted shapes, with the typed dag', () => {
    const body = doc.paths['/api/v1/workflows'].post.requestBody.content['application/json'].schema;
    expect(body.anyOf).toEqual([ref('WorkflowCreate'), ref('WorkflowDefinitionDocument')]);
    expect(schemas().WorkflowCreate.properties.dag).toMatchObject(ref('Dag'));
    expect(schemas().WorkflowCreate.required).toEqual(['name', 'dag']);
    expect(schemas().Dag.properties.nodes.items).toEqual(ref('Node'));
    const update = doc.paths['/api/v1/workflows/{id}'].put.requestBody.content['application/json'].schema;
    expect(update.anyOf).toEqual([ref('WorkflowUpdate'), ref('WorkflowDefinitionDocument')]);
    expect(schemas().WorkflowUpdate.required ?? []).toEqual([]);
  });

  test('a schema read differently as a request and as an answer is two components (defaults are optional in requests)', () => {
    // Trigger: `enabled` and `config` have defaults, so an answer always has them and a request may leave them out.
    expect(schemas().Trigger.required).toEqual(expect.arrayContaining(['type', 'config', 'enabled']));
    expect(schemas().TriggerInput.required).toEqual(['type']);
    expect(schemas().WorkflowCreate.properties.triggers.items).toEqual(ref('TriggerInput'));
    expect(schemas().Workflow.properties.triggers.items).toEqual(ref('Trigger'));
    // Edge has no defaults: one component serves both sides.
    expect(schemas().EdgeInput).toBeUndefined();
  });

  test('every reference points at a component (schemas, and the error examples)', () => {
    const refs = new Set<string>();
    const walk = (value: unknown): void => {
      if (Array.isArray(value)) value.forEach(walk);
      else if (value && typeof value === 'object') {
        const r = (value as Json).$ref;
        if (typeof r === 'string') refs.add(r);
        Object.values(value).forEach(walk);
      }
    };
    walk(doc);
    const dangling = [...refs].filter((r) => {
      const [hash, components, kind, name, ...rest] = r.split('/');
      return hash !== '#' || components !== 'components' || rest.length > 0 || !doc.components[kind!]?.[name!];
    });
    expect(dangling).toEqual([]);
    expect([...refs].some((r) => r.startsWith('#/components/examples/'))).toBe(true);
  });
});

describe('examples', () => {
  test('every request body has an example (api/http/openapiExamples.ts REQUEST_EXAMPLES, by operationId)', () => {
    const missing = routes
      .filter((r) => (r.body || r.rawBodyDoc) && !requestExamples(r.operationId))
      .map((r) => `${r.operationId} (${r.method.toUpperCase()} ${r.path})`);
    expect(missing).toEqual([]);
  });

  test('no request example is kept for an operation that has no body', () => {
    const withBody = new Set(routes.filter((r) => r.body || r.rawBodyDoc).map((r) => r.operationId));
    expect(requestExampleOperations().filter((id) => !withBody.has(id))).toEqual([]);
  });

  test("each request example is accepted by the route's own schema", () => {
    const refused: string[] = [];
    for (const route of routes.filter((r) => r.body)) {
      for (const [name, example] of Object.entries(requestExamples(route.operationId) ?? {})) {
        const parsed = route.body!.safeParse(example.value);
        if (!parsed.success) refused.push(`${route.operationId}/${name}: ${parsed.error.message}`);
      }
    }
    expect(refused).toEqual([]);
  });

  test('the document carries the examples on every request media type', () => {
    for (const op of operations().filter((o) => o.requestBody)) {
      for (const [type, media] of Object.entries(op.requestBody.content as Json)) {
        expect([op.operationId, type, Object.keys(media.examples ?? {}).length > 0]).toEqual([op.operationId, type, true]);
      }
    }
  });

  test('every error code of the catalogue has an example answer (api/http/openapiExamples.ts ERROR_EXAMPLES)', () => {
    const covered = new Set(errorExampleCodes());
    expect(Object.keys(ERROR_CATALOG).filter((code) => !covered.has(code as never))).toEqual([]);
  });

  test('each documented error code of each operation has its own example, carrying that code', () => {
    const byId = new Map(routes.map((r) => [r.operationId, r]));
    for (const op of operations()) {
      const route = byId.get(op.operationId)!;
      const documented = new Map<string, string>(); // code -> status
      for (const [status, response] of Object.entries(op.responses as Json)) {
        if (Number(status) < 400) continue;
        const examples = response.content['application/json'].examples as Json;
        for (const [name, given] of Object.entries(examples)) {
          const example = given.$ref ? doc.components.examples[String(given.$ref).replace('#/components/examples/', '')] : given;
          expect([op.operationId, name, example?.value.error.code]).toEqual([op.operationId, name, name]);
          expect(ERROR_CATALOG[name as keyof typeof ERROR_CATALOG].status).toBe(Number(status));
          documented.set(name, status);
        }
      }
      expect([op.operationId, [...documented.keys()].sort()]).toEqual([op.operationId, [...documentedErrors(route)].sort()]);
    }
  });
});

describe('tags and answers', () => {
  test('every tag an operation uses is declared with a description (api/http/openapiExamples.ts TAGS)', () => {
    const used = new Set(routes.flatMap((r) => r.tags));
    expect([...used].filter((t) => !TAGS[t])).toEqual([]);
    expect(doc.tags.map((t: Json) => t.name).sort()).toEqual([...used].sort());
    for (const tag of doc.tags) expect(tag.description).toEqual(expect.any(String));
  });

  test('every operation has a success or redirect answer (redocly.yaml turns operation-2xx-response off for the SSO redirect)', () => {
    const without = operations()
      .filter((op) => !Object.keys(op.responses).some((s) => /^[23]/.test(s)))
      .map((op) => op.operationId);
    expect(without).toEqual([]);
  });
});

describe('the typed client (client/generated/schema.d.ts, checked by the typecheck)', () => {
  type Schemas = components['schemas'];
  type CreateBody = paths['/api/v1/workflows']['post']['requestBody']['content']['application/json'];

  test('the dag is typed: nodes by type, each config by its type', () => {
    const body: CreateBody = {
      name: 'typed',
      dag: {
        nodes: [
          { id: 'a', type: 'tool', config: { tool: 'json_transform', config: { expression: '1' } } },
          { id: 'b', type: 'condition', config: { expression: 'true', trueBranch: 'c' } },
          { id: 'c', type: 'loop', config: { items: 'a.items', template: { type: 'tool', config: { tool: 'json_transform' } } } },
        ],
        edges: [{ from: 'a', to: 'b' }],
      },
    };
    // @ts-expect-error a tool node's config needs its tool
    const noTool: Schemas['Node'] = { id: 'a', type: 'tool', config: { config: {} } };
    // @ts-expect-error a condition node's config is not a tool node's
    const wrongConfig: Schemas['Node'] = { id: 'a', type: 'condition', config: { tool: 'json_transform' } };
    // @ts-expect-error no such node type
    const badType: Schemas['Node'] = { id: 'a', type: 'teleport', config: {} };

    const workflow = {} as Schemas['Workflow'];
    const entryPoints: string[] = workflow.dag?.entryPoints ?? [];
    const firstType: 'tool' | 'condition' | 'switch' | 'wait' | 'wait_for_event' | 'approval' | 'respond' | 'parallel' | 'loop' | 'repeat' | 'subworkflow' | undefined = workflow.dag?.nodes[0]?.type;
    expect([body.name, noTool.id, wrongConfig.id, badType.id, entryPoints, firstType]).toEqual(['typed', 'a', 'a', 'a', [], undefined]);
  });
});

describe('success examples', () => {
  test('every success answer with a JSON body has an example that validates against its schema, with plausible values', () => {
    const ajv = new Ajv2020({ strict: false, allErrors: true, validateFormats: true });
    addFormats(ajv);
    ajv.addSchema({ $id: 'doc', components: doc.components }, 'doc');
    const problems: string[] = [];
    let checked = 0;
    for (const [path, ops] of Object.entries(doc.paths as Json)) {
      for (const [method, op] of Object.entries(ops as Json)) {
        for (const [status, response] of Object.entries(op.responses as Json)) {
          if (!/^2\d\d$/.test(status)) continue;
          for (const [type, media] of Object.entries((response.content ?? {}) as Json)) {
            if (!media.schema) continue;
            const where = `${method.toUpperCase()} ${path} ${status} ${type}`;
            const examples = Object.values((media.examples ?? {}) as Json);
            if (!examples.length) {
              problems.push(`${where}: no example`);
              continue;
            }
            const schema = JSON.parse(JSON.stringify(media.schema).replace(/"#\/components\//g, '"doc#/components/'));
            const validate = ajv.compile(schema);
            for (const example of examples) {
              checked += 1;
              if (!validate(example.value)) problems.push(`${where}: ${ajv.errorsText(validate.errors?.slice(0, 3), { separator: '; ' })}`);
              if (/9007199254740991/.test(JSON.stringify(example.value))) problems.push(`${where}: a placeholder value`);
            }
          }
        }
      }
    }
    expect(problems).toEqual([]);
    expect(checked).toBeGreaterThan(100);
  });
});
