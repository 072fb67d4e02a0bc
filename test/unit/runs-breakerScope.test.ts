import { breakerScope, NOT_THE_DESTINATION } from '../../activities/runs/circuitBreaker';

const settings = { threshold: 1, timeoutMs: 1000, halfOpenRequests: 1 };

test('a breaker is scoped by an explicit key, else the destination host, else the tool as a whole', () => {
  expect(breakerScope({ ...settings, key: 'partner' }, { url: 'https://a.example.com/x' })).toBe('key:partner');
  expect(breakerScope(settings, { url: 'https://API.Example.com:8443/v1?q=1' })).toBe('api.example.com:8443');
  expect(breakerScope(settings, { url: 'https://a.example.com/x' })).toBe('a.example.com');
  expect(breakerScope(settings, { url: 'not a url' })).toBe('');
  expect(breakerScope(settings, { mode: 'always' })).toBe('');
  expect(breakerScope(settings, null)).toBe('');
});

test('a refusal of the outbound policy is not a failure of the destination', () => {
  expect(NOT_THE_DESTINATION.has('URL_REFUSED')).toBe(true);
  expect(NOT_THE_DESTINATION.has('HTTP_ERROR')).toBe(false);
});
