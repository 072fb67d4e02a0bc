import { memoByKey } from '../../lib/memoByKey';

describe('memoByKey', () => {
  test('reads a key once, however many ask, and each key on its own', async () => {
    const reads: string[] = [];
    const lookup = memoByKey(async (key: string) => {
      reads.push(key);
      return `value of ${key}`;
    });
    const answers = await Promise.all([lookup('a'), lookup('a'), lookup('b'), lookup('a')]);
    expect(answers).toEqual(['value of a', 'value of a', 'value of b', 'value of a']);
    expect(await lookup('b')).toBe('value of b');
    expect(reads).toEqual(['a', 'b']);
  });

  test('a failed read does not stick: the callers that shared it see the failure, the next one reads again', async () => {
    let attempt = 0;
    const lookup = memoByKey(async (key: string) => {
      attempt += 1;
      if (attempt === 1) throw new Error(`${key} is unreachable`);
      return attempt;
    });
    const first = lookup('k');
    const sharing = lookup('k');
    await expect(first).rejects.toThrow('k is unreachable');
    await expect(sharing).rejects.toThrow('k is unreachable');
    expect(await lookup('k')).toBe(2);
    expect(await lookup('k')).toBe(2);
  });
});
