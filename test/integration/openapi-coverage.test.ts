import type Router from '@koa/router';
import { startApi, type TestApi } from '../helpers/stack';

/**
 * Every route the API answers must be described by /openapi.json: routes declared with defineRoute are by
 * construction, so this catches anything mounted on the router some other way.
 */
let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api.close();
});

function mountedRouters(): Router[] {
  return api.app.koa.middleware
    .map((mw) => (mw as unknown as { router?: Router }).router)
    .filter((r): r is Router => r !== undefined);
}

const toOpenApiPath = (koaPath: string | RegExp): string => String(koaPath).replace(/:(\w+)/g, '{$1}');

test('every mounted route is in the OpenAPI document, with an operationId, a summary and responses', async () => {
  const res = await api.request('GET', '/openapi.json');
  const paths = res.body.paths as Record<string, Record<string, { operationId?: string; summary?: string; responses?: object }>>;
  const routers = mountedRouters();
  expect(routers.length).toBeGreaterThan(0);

  const undocumented: string[] = [];
  let checked = 0;
  for (const router of routers) {
    for (const layer of router.stack) {
      // The 405 guards of literal paths (api/http/shadowedPaths.ts) answer every method but are no routes.
      if (layer.stack.every((fn) => (fn as { methodGuard?: boolean }).methodGuard)) continue;
      for (const method of layer.methods.filter((m) => m !== 'HEAD')) {
        checked += 1;
        const op = paths[toOpenApiPath(layer.path)]?.[method.toLowerCase()];
        if (!op) {
          undocumented.push(`${method} ${layer.path}`);
          continue;
        }
        expect(op.operationId).toEqual(expect.any(String));
        expect(op.summary).toEqual(expect.any(String));
        expect(Object.keys(op.responses ?? {}).length).toBeGreaterThan(0);
      }
    }
  }
  expect(undocumented).toEqual([]);
  expect(checked).toBe(api.app.routes.length);
});

test('operation ids are unique', async () => {
  const ids = api.app.routes.map((r) => r.operationId);
  expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
});

test('the served document names its payloads, declares its tags and carries request examples', async () => {
  const res = await api.request('GET', '/openapi.json');
  const doc = res.body as {
    tags: { name: string; description?: string }[];
    components: { schemas: Record<string, unknown> };
    paths: Record<string, Record<string, { operationId: string; requestBody?: { content: Record<string, { examples?: object }> } }>>;
  };
  expect(Object.keys(doc.components.schemas)).toEqual(
    expect.arrayContaining(['Workflow', 'Node', 'Edge', 'Run', 'NodeState', 'Tool', 'Trigger', 'Error']),
  );
  const used = new Set(api.app.routes.flatMap((r) => r.tags));
  expect(doc.tags.map((t) => t.name).sort()).toEqual([...used].sort());
  expect(doc.tags.filter((t) => !t.description)).toEqual([]);
  const withoutExamples = Object.values(doc.paths)
    .flatMap((ops) => Object.values(ops))
    .filter((op) => op.requestBody && Object.values(op.requestBody.content).some((media) => !media.examples))
    .map((op) => op.operationId);
  expect(withoutExamples).toEqual([]);
});
