import { boundedDetails, echo, ENVELOPE_LIMITS, MAX_ECHO_CHARS } from '../../lib/echo';
import { AppError, envelope } from '../../lib/errors';
import { z } from 'zod';
import { MAX_DETAILS, MAX_FIELD_HINTS, zodIssueDetails } from '../../lib/zodIssues';
import { MAX_OBJECT_FIELDS, parseJson } from '../../api/http/body';

describe('echoed input is bounded (docs/security.md, capacity model: API event loop)', () => {
  test('echo keeps short values and cuts long ones to a prefix', () => {
    expect(echo('name')).toBe('name');
    expect(echo('x'.repeat(1_000_000))).toBe(`${'x'.repeat(MAX_ECHO_CHARS)}…`);
  });

  test('zod details: a 1 MB unknown key is named by its prefix, without a hint', () => {
    const schema = z.strictObject({ name: z.string() });
    const key = 'k'.repeat(1_000_000);
    const result = schema.safeParse({ name: 'a', [key]: 1 });
    expect(result.success).toBe(false);
    const details = zodIssueDetails(result.error!, 'body', schema);
    expect(details).toEqual([{ path: `body.${'k'.repeat(MAX_ECHO_CHARS)}…`, problem: 'unknown field' }]);
  });

  test('zod details: only the first MAX_FIELD_HINTS unknown keys get a hint', () => {
    const schema = z.strictObject({ name: z.string() });
    // `nama`, `namb`, ...: each one edit from `name`, so each would get the hint.
    const keys = 'abcdfghijklmnopqrstuvwxyz'.split('').map((letter) => `nam${letter}`);
    expect(keys.length).toBeGreaterThan(MAX_FIELD_HINTS);
    const result = schema.safeParse({ name: 'a', ...Object.fromEntries(keys.map((key) => [key, 1])) });
    const details = zodIssueDetails(result.error!, 'body', schema);
    expect(details).toHaveLength(keys.length);
    expect(details.filter((d) => d.problem === 'unknown field (did you mean "name"?)')).toHaveLength(MAX_FIELD_HINTS);
  });

  test('the envelope bounds every message and details list, whoever built the error', () => {
    const details = Array.from({ length: ENVELOPE_LIMITS.details + 50 }, (_, i) => ({ path: `p${i}${'x'.repeat(10_000)}`, problem: 'y'.repeat(10_000) }));
    const rendered = envelope(new AppError('VALIDATION_ERROR', 'm'.repeat(100_000), details)).error;
    expect(rendered.message.length).toBeLessThanOrEqual(ENVELOPE_LIMITS.messageChars + 1);
    expect(rendered.details).toHaveLength(ENVELOPE_LIMITS.details + 1);
    expect(rendered.details![ENVELOPE_LIMITS.details]).toEqual({ path: '', problem: 'and 50 more problems' });
    expect(boundedDetails(details).every((d) => d.path.length <= ENVELOPE_LIMITS.pathChars + 1 && d.problem.length <= ENVELOPE_LIMITS.problemChars + 1)).toBe(true);
  });

  test('75,000 unknown keys give MAX_DETAILS details and one that counts the rest', () => {
    const schema = z.strictObject({ name: z.string() });
    const keys = Array.from({ length: 75_000 }, (_, i) => `k${i}`);
    const result = schema.safeParse({ name: 'a', ...Object.fromEntries(keys.map((key) => [key, 1])) });
    const details = zodIssueDetails(result.error!, 'body', schema);
    expect(details).toHaveLength(MAX_DETAILS + 1);
    expect(details[MAX_DETAILS]).toEqual({ path: 'body', problem: `and ${75_000 - MAX_DETAILS} more unknown fields` });
  });

  test('a request body object with more than MAX_OBJECT_FIELDS fields is refused while parsing', () => {
    const many = (n: number) => JSON.stringify({ nested: Object.fromEntries(Array.from({ length: n }, (_, i) => [`k${i}`, 1])) });
    expect(() => parseJson(many(MAX_OBJECT_FIELDS))).not.toThrow();
    expect(() => parseJson(many(MAX_OBJECT_FIELDS + 1))).toThrow(expect.objectContaining({ code: 'VALIDATION_ERROR' }));
  });
});
