import { describeTool } from '../../../lib/tools/descriptor';
import { listTools } from '../../../activities/tools/registry';
import { validateDefinition } from '../../../lib/dag/validate';
import { ServiceUnavailableError } from '../../../lib/unavailable';
import { validationEnv } from '../../../domain/workflows/validationEnv';
import { credentialFindings } from '../../../domain/workflows/credentialFindings';
import { createOffLoopValidator, isLargeDefinition, LARGE_EXPRESSION_CHARS, LARGE_NODES } from '../../../domain/workflows/validationThread';

const tools = listTools().map(describeTool);

function chain(length: number, options: { cycle?: boolean } = {}) {
  const nodes = Array.from({ length }, (_, i) => ({
    id: `n${i}`,
    type: 'tool',
    config: { tool: 'json_transform', config: { expression: '$', data: { previous: i ? `{{n${i - 1}.result}}` : 0 } } },
  }));
  const edges = nodes.slice(1).map((node, i) => ({ from: `n${i}`, to: node.id }));
  if (options.cycle) edges.push({ from: `n${length - 1}`, to: 'n0' });
  return { dag: { nodes, edges } };
}

const validator = createOffLoopValidator();
afterAll(() => validator.close());

test('only definitions past LARGE_NODES nodes or edges count as large', () => {
  expect(isLargeDefinition(chain(LARGE_NODES))).toBe(false);
  expect(isLargeDefinition(chain(LARGE_NODES + 1))).toBe(true);
  expect(isLargeDefinition({ dag: 'not a graph' })).toBe(false);
  expect(isLargeDefinition({ dag: { nodes: {}, edges: Array.from({ length: LARGE_NODES + 1 }) } })).toBe(true);
});

test('a few nodes with long expressions count as large too: their JSONata is parsed in the thread', () => {
  const withExpressions = (chars: number) => {
    const input = chain(5);
    for (const node of input.dag.nodes) node.config.config.expression = `"${'x'.repeat(Math.ceil(chars / 5))}"`;
    return input;
  };
  expect(isLargeDefinition(withExpressions(LARGE_EXPRESSION_CHARS - 100))).toBe(false);
  expect(isLargeDefinition(withExpressions(LARGE_EXPRESSION_CHARS + 100))).toBe(true);
});

test('JSONata syntax errors are found at save, in the thread as on the loop', async () => {
  const input = chain(3);
  input.dag.nodes[1]!.config.config.expression = '{ "a": $sum(price }';
  const onLoop = validateDefinition(input, validationEnv, { dagPath: 'dag' });
  expect(onLoop.ok).toBe(false);
  expect(onLoop.ok ? [] : onLoop.problems).toEqual([{ path: 'dag.nodes.n1.config.config.expression', problem: expect.stringContaining('invalid JSONata at character 19') }]);
  expect((await validator.validate('org-a', { input, dagPath: 'dag', tools })).result).toEqual(onLoop);
});

test('the thread answers as the validator on the loop does, valid and invalid', async () => {
  for (const input of [chain(2000), chain(500, { cycle: true })]) {
    const inThread = await validator.validate('org-a', { input, dagPath: 'dag', tools });
    const onLoop = validateDefinition(input, validationEnv, { dagPath: 'dag' });
    expect(inThread.result).toEqual(onLoop);
    // A valid one comes with its credential findings, as the service would compute them.
    expect(inThread.credentials).toEqual(onLoop.ok ? credentialFindings(onLoop.definition, 'dag') : undefined);
  }
  const broken = await validator.validate('org-a', { input: chain(300, { cycle: true }), dagPath: 'dag', tools });
  expect(broken.result.ok).toBe(false);
}, 60_000);

test('an organization with four definitions waiting gets 503 for a fifth; another organization is still queued', async () => {
  const input = chain(2000);
  const first = validator.validate('org-a', { input, dagPath: 'dag', tools });
  const waiting = Array.from({ length: 4 }, () => validator.validate('org-a', { input, dagPath: 'dag', tools }));
  await expect(validator.validate('org-a', { input, dagPath: 'dag', tools })).rejects.toBeInstanceOf(ServiceUnavailableError);
  const other = validator.validate('org-b', { input, dagPath: 'dag', tools });
  for (const checked of await Promise.all([first, ...waiting, other])) expect(checked.result.ok).toBe(true);
}, 60_000);
