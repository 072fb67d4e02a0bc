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
  // Schemes of any length (a regex that bounded it at 64 characters let a longer one keep its password).
  const scheme = `x${'-y'.repeat(50)}`;
  expect(scanInlineCredentials({ url: `${scheme}://u:p@h` }, 'c').redacted).toEqual({ url: `${scheme}://u:****@h` });
  const longScheme = `${'a'.repeat(MB)}://u:p@h`;
  expect(scanInlineCredentials({ url: longScheme }, 'c').redacted).toEqual({ url: `${'a'.repeat(MB)}://u:****@h` });
  // Many `://` in a row, each with a scheme, a user or a password that runs on: no scan restarts over them.
  for (const many of ['://'.repeat(MB / 3), 'a://b:'.repeat(MB / 6), 'a://b'.repeat(MB / 5), 'a.a://:'.repeat(MB / 7)]) {
    expect(scanInlineCredentials({ note: many }, 'c').problems).toEqual([]);
  }
  expect(scanInlineCredentials({ url: `${'a://b:c@'.repeat(3)}` }, 'c').redacted).toEqual({ url: 'a://b:****@'.repeat(3) });
});

test('URL passwords are found where the regex found them: a scheme starts with a letter at a word boundary', () => {
  const redact = (url: string) => (scanInlineCredentials({ url }, 'c').redacted as { url: string }).url;
  expect(redact('_abc://u:p@h')).toBe('_abc://u:p@h'); // no boundary before `a`, and no other letter after one
  expect(redact('_a.b://u:p@h')).toBe('_a.b://u:****@h'); // the scheme starts at `b`
  expect(redact('1a://u:p@h')).toBe('1a://u:p@h');
  expect(redact('HTTPS://u:p:q@h')).toBe('HTTPS://u:****@h'); // a password may hold `:`
  expect(redact('https://u@h:p@x')).toBe('https://u@h:p@x'); // no `:` before the first `@`
  expect(redact('https://u:p/x@h')).toBe('https://u:p/x@h');
  expect(redact('https://u:${p}@h https://v:w@h')).toBe('https://u:${p}@h https://v:****@h');
});
