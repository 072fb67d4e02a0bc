import { respondConfigSchema } from '../../../lib/dag/model';
import { respondProblems } from '../../../lib/dag/validation/respondNode';
import type { ReferenceScope } from '../../../lib/dag/validation/references';
import { respondHeaderProblem, respondHeaderValueProblem } from '../../../lib/runs/webhookResponse';
import { fakeEnv } from '../dag/validation/fakeEnv';

/** What a respond node may put in an answer served from the API's own origin. */

test('headers: x- headers and a few named ones; nothing that sets cookies, redirects or changes the policies', () => {
  for (const allowed of ['X-Order-Id', 'x-a', 'Cache-Control', 'retry-after', 'ETag']) expect(respondHeaderProblem(allowed)).toBeNull();
  for (const refused of ['Set-Cookie', 'Location', 'Content-Type', 'Content-Security-Policy', 'X-Frame-Options', 'x-content-type-options', 'Access-Control-Allow-Origin', 'Refresh', 'Link', 'x-', 'x_y']) {
    expect(respondHeaderProblem(refused)).toEqual(expect.any(String));
  }
});

test('header values: one line of text, bounded', () => {
  expect(respondHeaderValueProblem('max-age=60')).toBeNull();
  expect(respondHeaderValueProblem('a\r\nSet-Cookie: x=1')).toMatch(/one line/);
  expect(respondHeaderValueProblem('a\u0000b')).toMatch(/one line/);
  expect(respondHeaderValueProblem(12)).toMatch(/text/);
  expect(respondHeaderValueProblem('x'.repeat(1001))).toMatch(/at most/);
});

test('save-time: refused headers, a header twice in two cases, secrets and unknown references', () => {
  const scope: ReferenceScope = { hasNode: (id) => id === 'a', ancestors: () => new Set(['a']), outputsOf: () => null, parameters: [] };
  const config = respondConfigSchema.parse({
    headers: { 'Set-Cookie': 'x=1', 'X-Id': '1', 'x-id': '2' },
    body: { token: '{{secret.API_KEY}}', v: '${ghost.out}' },
  });
  expect(respondProblems(scope, fakeEnv, 'r', config, 'dag.nodes.r').map((p) => p.path)).toEqual([
    'dag.nodes.r.config.headers.Set-Cookie',
    'dag.nodes.r.config.headers.x-id',
    'dag.nodes.r.config.body.v',
    'dag.nodes.r.config.body.token',
  ]);
  expect(() => respondConfigSchema.parse({ content_type: 'text/html' })).toThrow();
  expect(() => respondConfigSchema.parse({ status: 302 })).not.toThrow();
});
