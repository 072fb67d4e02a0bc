import { errorHandlingSchema } from '../../lib/dag/model';
import { buildGraph, GraphError, mentionedIds, mentionedParams } from '../../workflows/runs/graph';
import { checkParameters } from '../../lib/runs/parameters';
import { planAttempts, strategyFor } from '../../workflows/runs/strategy';
import { compiledOf } from './runs-scheduler/fixtures';

/** Pure parts of the run interpreter: retry mapping, strategies, parameters, graph analysis. */


describe('planAttempts (retry mapping)', () => {
  const eh = (retry: object) => errorHandlingSchema.parse({ retry_config: retry });

  test('exponential maps to backoff coefficient 2, fixed to 1', () => {
    expect(planAttempts(undefined, eh({ max_attempts: 4, backoff: 'exponential', initial_delay: 500 }), 'retry', 1000)).toMatchObject({
      mode: 'temporal',
      retry: { maximumAttempts: 4, initialInterval: 500, backoffCoefficient: 2 },
      timeoutMs: 1000,
    });
    expect(planAttempts(undefined, eh({ backoff: 'fixed' }), 'retry', 1000).retry.backoffCoefficient).toBe(1);
  });

  test('linear is emulated: one attempt per activity call', () => {
    const plan = planAttempts(undefined, eh({ max_attempts: 5, backoff: 'linear', initial_delay: 100 }), 'retry', 1000);
    expect(plan).toMatchObject({ mode: 'linear', maxAttempts: 5, initialDelayMs: 100, retry: { maximumAttempts: 1 } });
  });

  test('the node retryPolicy overrides the definition; fail_fast means one attempt unless the node asks', () => {
    const plan = planAttempts({ max_attempts: 2, timeout: 5000, non_retryable_errors: ['X'] }, eh({ max_attempts: 9 }), 'retry', 1000);
    expect(plan).toMatchObject({ maxAttempts: 2, timeoutMs: 5000, retry: { nonRetryableErrorTypes: ['X'] } });
    expect(planAttempts(undefined, eh({ max_attempts: 9 }), 'fail_fast', 1000).maxAttempts).toBe(1);
    expect(planAttempts({ max_attempts: 3 }, undefined, 'fail_fast', 1000).maxAttempts).toBe(3);
    expect(planAttempts(undefined, undefined, 'retry', 1000)).toMatchObject({ maxAttempts: 3, initialDelayMs: 1000 });
    expect(planAttempts({ initial_delay: 0 }, undefined, 'retry', 1000).retry.initialInterval).toBe(1);
  });
});

describe('strategyFor', () => {
  test('node overrides win over the default; settings fall back to the definition, then to the spec values', () => {
    const eh = errorHandlingSchema.parse({
      default_strategy: 'fail_fast',
      circuit_breaker: { threshold: 7 },
      node_overrides: { a: { strategy: 'dead_letter_queue', dead_letter_queue: { retention: '2d' } }, b: { strategy: 'fallback', handler: 'h' } },
    });
    expect(strategyFor(eh, 'a')).toMatchObject({ name: 'dead_letter_queue', deadLetter: { queue: 'default', retentionMs: 2 * 86_400_000 } });
    expect(strategyFor(eh, 'b')).toMatchObject({ name: 'fallback', handler: 'h' });
    expect(strategyFor(eh, 'c')).toMatchObject({ name: 'fail_fast', breaker: { threshold: 7, timeoutMs: 30_000, halfOpenRequests: 3 } });
    expect(strategyFor(undefined, 'x')).toMatchObject({ name: 'retry', deadLetter: { retentionMs: 7 * 86_400_000 } });
  });
});

describe('checkParameters', () => {
  const declared = [
    { name: 'a', type: 'string' as const, required: true },
    { name: 'b', type: 'integer' as const, required: false, default: 5 },
    { name: 'c', type: 'string' as const, required: false, enum: ['x', 'y'] },
    { name: 'd', type: 'object' as const, required: false },
  ];

  test('applies defaults and accepts valid values', () => {
    expect(checkParameters(declared, { a: 'hi', c: 'y' })).toEqual({ values: { a: 'hi', b: 5, c: 'y' }, problems: [] });
  });

  test('reports every problem', () => {
    const { problems } = checkParameters(declared, { b: 1.5, c: 'z', d: [], e: 1 });
    expect(problems.map((p) => p.path).sort()).toEqual(['parameters.a', 'parameters.b', 'parameters.c', 'parameters.d', 'parameters.e']);
  });
});

describe('buildGraph', () => {
  const tool = (id: string, config: Record<string, unknown> = {}) => ({ id, type: 'tool', config: { tool: 'json_transform', config } });

  test('conditions imply edges to their branches; parallel members wait for the parallel node to start', () => {
    const graph = buildGraph(
      compiledOf([
        { id: 'c', type: 'condition', config: { expression: 'true', trueBranch: 't', falseBranch: 'f' } },
        tool('t'),
        tool('f'),
        { id: 'p', type: 'parallel', config: { branches: [{ id: 'b', nodes: ['m'] }] } },
        tool('m', { data: '${nodes.t.result}' }),
      ]),
    );
    expect(graph.preds.get('t')).toEqual(['c']);
    expect(graph.preds.get('f')).toEqual(['c']);
    expect(graph.startPreds.get('m')).toEqual(['p']);
    expect(graph.reads.get('m')).toEqual({ nodes: ['t'], params: [] });
  });

  test('a cycle and an unknown edge are refused', () => {
    expect(() => buildGraph(compiledOf([tool('a'), tool('b')], [{ from: 'a', to: 'b' }, { from: 'b', to: 'a' }]))).toThrow(GraphError);
    expect(() => buildGraph(compiledOf([tool('a')], [{ from: 'a', to: 'zz' }]))).toThrow(/unknown node/);
  });

  test('mentionedParams names the parameters a config reads, or all when params is used whole', () => {
    expect(mentionedParams({ a: '${params.x + params.y}', b: "${params['z']}" }).toString()).toBe(['x', 'y', 'z'].toString());
    expect(mentionedParams({ a: '${params}' })).toBe('all');
    expect(mentionedParams({ a: '${parameters.x}', b: '${size(params)}' })).toBe('all');
    expect(mentionedParams({ a: 'no templates' })).toEqual([]);
  });

  test('a loop reads for its items what `items` mentions and, per item, only what the template mentions', () => {
    const graph = buildGraph(
      compiledOf([
        tool('make'),
        tool('rate'),
        { id: 'each', type: 'loop', config: { items: 'make.result', template: { type: 'tool', config: { tool: 'json_transform', config: { data: '${item * nodes.rate.result + params.k}' } } } } },
      ]),
    );
    expect(graph.reads.get('each')).toEqual({ nodes: ['make'], params: [] });
    expect(graph.templateReads.get('each')).toEqual({ nodes: ['rate'], params: ['k'] });
  });

  test('mentionedIds finds node ids in templates, bare or under nodes.', () => {
    const known = new Set(['fetch', 'parse-json', 'other']);
    expect(mentionedIds({ a: '${nodes.fetch.body}', b: "${nodes['parse-json'].x}" }, known).sort()).toEqual(['fetch', 'parse-json']);
    expect(mentionedIds({ a: '${fetch.body}' }, known, 'fetch')).toEqual([]);
  });
});
