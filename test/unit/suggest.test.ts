import { closestName, didYouMean, editDistance } from '../../lib/suggest';

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
