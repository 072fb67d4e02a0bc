import { sessionIdleLimitMs } from '../../domain/auth/idleLimit';

test("an organization's session timeout shortens the platform idle timeout and never extends it", () => {
  const platform = 30 * 60_000;
  expect(sessionIdleLimitMs(platform, null)).toBe(platform);
  expect(sessionIdleLimitMs(platform, undefined)).toBe(platform);
  expect(sessionIdleLimitMs(platform, 5)).toBe(5 * 60_000);
  expect(sessionIdleLimitMs(platform, 30)).toBe(platform);
  expect(sessionIdleLimitMs(platform, 600)).toBe(platform);
});
