import { MockActivityEnvironment } from '@temporalio/testing';
import { ApplicationFailure } from '@temporalio/common';
import { z } from 'zod';
import type { ActivityDeps } from '../../../activities/deps';
import { defineTool } from '../../../activities/tools/types';
import { runTool } from '../../../activities/runs/toolActivities';
import { SerializedJson } from '../../../lib/serializedJson';
import { toolActivityInput } from '../../helpers/toolInput';

/**
 * The wrapper checks every tool's answer before it is stored: an output outside the tool's schema fails with
 * INVALID_OUTPUT, a declared output the answer lacks with OUTPUT_MISSING, whether the answer is an object or, for a
 * large parse, its serialization (lib/serializedJson.ts: its keys are checked).
 */
const input = toolActivityInput({ outputs: ['result'], largeOutputBytes: 16 });
const deps = {} as ActivityDeps;

const answering = (answer: unknown) =>
  defineTool({
    id: 'answers',
    name: 'answers',
    category: 'custom',
    description: 'answers what it is given',
    input: z.object({}),
    output: z.object({ result: z.number() }).partial(),
    sideEffect: 'none',
    execute: () => Promise.resolve(answer as { result?: number }),
  });

async function failureOf(answer: unknown): Promise<string | undefined> {
  const err = await new MockActivityEnvironment().run(runTool, deps, answering(answer), input).then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ApplicationFailure);
  return (err as ApplicationFailure).type ?? undefined;
}

test('an answer outside the schema is INVALID_OUTPUT; a missing declared output is OUTPUT_MISSING', async () => {
  expect(await failureOf({ result: 'not a number' })).toBe('INVALID_OUTPUT');
  expect(await failureOf({})).toBe('OUTPUT_MISSING');
});

test('a serialized answer: small ones are parsed and checked, large ones are checked by their keys', async () => {
  const small = Buffer.from('{"other":1}');
  expect(small.length).toBeLessThanOrEqual(input.largeOutputBytes);
  expect(await failureOf(new SerializedJson(small, ['other']))).toBe('OUTPUT_MISSING');
  expect(await failureOf(new SerializedJson(Buffer.from('{"result":"x"}'), ['result']))).toBe('INVALID_OUTPUT');
  const large = Buffer.from(JSON.stringify({ other: 'x'.repeat(100) }));
  expect(await failureOf(new SerializedJson(large, ['other']))).toBe('OUTPUT_MISSING');
});
