import { describeTool } from '../../lib/tools/descriptor';
import { getTool } from '../../activities/tools/registry';
import { validateToolInput } from '../../lib/tools/validation';
import { codePointLength, longerThan, shorterThan } from '../../lib/tools/stringLength';

/**
 * Tool schemas are written in zod and checked by ajv (lib/tools/validation.ts) with string length keywords of our own
 * (lib/tools/stringLength.ts: characters counted only when the code units do not decide). A length must mean the same
 * to ajv and zod: characters (code points), a surrogate pair counting once.
 */
describe('string lengths in tool schemas', () => {
  const tool = getTool('chat_message')!;
  const descriptor = describeTool(tool);
  const input = (fields: Record<string, string>) => ({ webhook_url: 'https://chat.example/hook', text: 'hi', ...fields });

  test('maxLength counts characters, as zod does', () => {
    for (const [username, ok] of [
      ['😀'.repeat(100), true], // 200 code units, 100 characters: the limit
      ['😀'.repeat(101), false],
      ['u'.repeat(100), true],
      ['u'.repeat(101), false],
    ] as const) {
      expect({ username: username.length, ok: validateToolInput(descriptor, input({ username })).ok }).toEqual({ username: username.length, ok });
      expect(tool.input!.safeParse(input({ username })).success).toBe(ok);
    }
  });

  test('minLength counts characters, with the same error as ajv', () => {
    expect(validateToolInput(descriptor, input({ text: '' }))).toEqual({
      ok: false,
      problems: [{ path: 'input.text', problem: 'must NOT have fewer than 1 characters' }],
    });
    expect(validateToolInput(descriptor, input({ text: '😀' })).ok).toBe(true);
    const over = validateToolInput(descriptor, input({ username: 'u'.repeat(101) }));
    expect(over).toEqual({ ok: false, problems: [{ path: 'input.username', problem: 'must NOT have more than 100 characters' }] });
  });

  test('the counting functions', () => {
    expect(codePointLength('a😀é\ud800x')).toBe(5); // a pair counts once, a lone surrogate once
    expect(longerThan('😀😀', 2)).toBe(false);
    expect(longerThan('😀😀😀', 2)).toBe(true);
    expect(shorterThan('😀😀', 2)).toBe(false);
    expect(shorterThan('😀', 2)).toBe(true);
    expect(shorterThan('abc', 2)).toBe(false);
  });
});
