import { closestName, didYouMean, editDistance, MAX_HINT_CANDIDATES, MAX_HINT_NAME_CHARS } from '../../lib/suggest';

describe('closestName', () => {
  test('edit distance counts an adjacent swap as one edit', () => {
    expect(editDistance('nmae', 'name')).toBe(1);
    expect(editDistance('kitten', 'sitting')).toBe(3);
    expect(editDistance('', 'abc')).toBe(3);
  });

  test('finds a mistyped, swapped or differently written name', () => {
    const tools = ['http_request', 'json_transform', 'send_email', 'delay'];
    expect(closestName('http_requst', tools)).toBe('http_request');
    expect(closestName('json_tranfsorm', tools)).toBe('json_transform');
    expect(closestName('send-email', tools)).toBe('send_email');
    expect(closestName('Delay', tools)).toBe('delay');
  });

  test('stays silent when nothing is close: a wrong hint is worse than none', () => {
    expect(closestName('banana', ['http_request', 'delay'])).toBeNull();
    expect(closestName('ab', ['xy'])).toBeNull();
    expect(didYouMean('banana', ['delay'])).toBe('');
    expect(didYouMean('dealy', ['delay'])).toBe(' (did you mean "delay"?)');
  });
});

describe('bounded by input size (docs/security.md, capacity model: API event loop)', () => {
  test('no hint for a name longer than MAX_HINT_NAME_CHARS, whatever the candidates', () => {
    const long = 'n'.repeat(MAX_HINT_NAME_CHARS + 1);
    expect(closestName(long, [long.slice(1), 'name'])).toBeNull();
    expect(closestName('a'.repeat(1_000_000), ['name', 'email', 'password'])).toBeNull();
  });

  test('candidates that long, or past MAX_HINT_CANDIDATES, are not compared', () => {
    expect(closestName('nmae', ['x'.repeat(100_000), 'name'])).toBe('name');
    const many = [...Array.from({ length: MAX_HINT_CANDIDATES }, (_, i) => `zz${i}zzzzzz`), 'name'];
    expect(closestName('nmae', many)).toBeNull();
  });

  test('a length difference past the allowed distance decides without computing', () => {
    expect(closestName('name', ['names', 'nameless'])).toBe('names');
    expect(editDistance('abcdef', 'badcfe')).toBe(3);
  });
});
