import { trimEndChars, trimStartChars } from '../../lib/trimChars';
import { scanInlineCredentials } from '../../lib/dag/inlineCredentials';
import { withTextFooter } from '../../activities/tools/support/emailSender';

/**
 * Trims and scans that tenants' strings reach, on the inputs that made their regular expressions quadratic: each
 * case below took from minutes to hours with the regex it replaced (`/\/+$/`, `/\s+$/`, a scheme of `*`), so
 * Jest's timeout fails them there. No time is asserted: they finish, with the right answer.
 */
const MB = 1_000_000;

test('trimEndChars and trimStartChars trim the given characters only, from their end only', () => {
  expect(trimEndChars('https://issuer.example/realm//', '/')).toBe('https://issuer.example/realm');
  expect(trimEndChars('a\0\0', '\0')).toBe('a');
  expect(trimEndChars('///', '/')).toBe('');
  expect(trimEndChars('', '/')).toBe('');
  expect(trimStartChars('"`\'label".', '"\'`')).toBe('label".');
  expect(trimEndChars(trimStartChars('"label".', '"\'`'), '"\'`.')).toBe('label');
  const run = `${'/'.repeat(MB)}x`; // the run is not at the end: nothing to trim, and no rescanning of it
  expect(trimEndChars(run, '/')).toBe(run);
  expect(trimEndChars(`x${'/'.repeat(MB)}`, '/')).toBe('x');
});

test("an e-mail's text ending in a megabyte of spaces before its last word gets its footer at once", () => {
  const text = `${' '.repeat(MB)}x`;
  expect(withTextFooter(text, 'Acme').startsWith(`${text}\n\n-- \n`)).toBe(true);
  expect(withTextFooter('hello \n\t ', 'Acme').startsWith('hello\n\n-- \n')).toBe(true);
});

test('credentials in URLs are still found; a megabyte of `a.a.a.` is scanned in one pass', () => {
  const found = scanInlineCredentials({ url: 'see x.postgres://app:hunter2@db:5432/app and https://u:p@h' }, 'config');
  expect(found.redacted).toEqual({ url: 'see x.postgres://app:****@db:5432/app and https://u:****@h' });
  expect(found.problems).toHaveLength(2);
  const long = 'a.'.repeat(MB / 2);
  expect(scanInlineCredentials({ note: long }, 'config')).toEqual({ problems: [], redacted: { note: long } });
});
