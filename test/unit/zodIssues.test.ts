import { z } from 'zod';
import { detailPath, zodIssueDetails } from '../../lib/zodIssues';

function issuesOf(schema: z.ZodType, value: unknown): z.ZodError {
  const result = schema.safeParse(value);
  if (result.success) throw new Error('expected the value to be refused');
  return result.error;
}

const body = z.strictObject({
  name: z.string(),
  members: z.array(z.strictObject({ role: z.enum(['owner', 'member']) })),
});

describe('zodIssueDetails', () => {
  test('each unknown key is its own detail at its own path, nested ones included', () => {
    const error = issuesOf(body, { name: 'a', members: [{ role: 'owner', colour: 'red' }], extra: 1, other: 2 });
    expect(zodIssueDetails(error, 'body')).toEqual([
      { path: 'body.members[0].colour', problem: 'unknown field' },
      { path: 'body.extra', problem: 'unknown field' },
      { path: 'body.other', problem: 'unknown field' },
    ]);
  });

  test('other issues keep zod message at the field path; array indexes in brackets', () => {
    const details = zodIssueDetails(issuesOf(body, { name: 5, members: [{ role: 'owner' }, { role: 'boss' }] }), 'body');
    expect(details.map((d) => d.path)).toEqual(['body.name', 'body.members[1].role']);
    expect(details.every((d) => d.problem.length > 0 && d.problem !== 'unknown field')).toBe(true);
  });

  test('without a prefix the path starts at the field; a root issue has the prefix alone', () => {
    expect(zodIssueDetails(issuesOf(body, { name: 'a', members: [], x: 1 }))).toEqual([{ path: 'x', problem: 'unknown field' }]);
    expect(zodIssueDetails(issuesOf(body, 'not an object'), 'query').map((d) => d.path)).toEqual(['query']);
  });
});

describe('detailPath', () => {
  test('joins fields with dots and indexes with brackets, also after a bracketed prefix', () => {
    expect(detailPath('dag.nodes.b.config', ['inputs', 1, 'from'])).toBe('dag.nodes.b.config.inputs[1].from');
    expect(detailPath('nodes[0]', ['colour'])).toBe('nodes[0].colour');
    expect(detailPath('', [0, 'a'])).toBe('[0].a');
    expect(detailPath('', [])).toBe('');
  });
});

describe('zodIssueDetails with the schema: did you mean', () => {
  const nested = z.strictObject({
    name: z.string(),
    retry: z.strictObject({ max_attempts: z.number(), backoff: z.string() }).optional(),
    items: z.array(z.union([z.strictObject({ kind: z.literal('a'), colour: z.string() }), z.strictObject({ kind: z.literal('b'), size: z.number() })])),
  });

  test('names the closest known field, nested through optional, arrays and unions', () => {
    const error = issuesOf(nested, { nmae: 'x', retry: { max_atempts: 3, backoff: 'x' }, items: [{ kind: 'a', color: 'red' }] });
    const details = zodIssueDetails(error, 'body', nested);
    expect(details).toEqual(
      expect.arrayContaining([
        { path: 'body.nmae', problem: 'unknown field (did you mean "name"?)' },
        { path: 'body.retry.max_atempts', problem: 'unknown field (did you mean "max_attempts"?)' },
      ]),
    );
  });

  test('no hint when nothing is close, and none without the schema', () => {
    const error = issuesOf(nested, { name: 'x', items: [], zebra: 1 });
    expect(zodIssueDetails(error, 'body', nested)).toEqual([{ path: 'body.zebra', problem: 'unknown field' }]);
    const typo = issuesOf(nested, { nmae: 'x', items: [] });
    expect(zodIssueDetails(typo, 'body').find((d) => d.path === 'body.nmae')?.problem).toBe('unknown field');
  });
});
