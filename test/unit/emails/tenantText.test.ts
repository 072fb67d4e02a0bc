import { tenantName } from '../../../lib/emails/tenantText';

/** Tenant-chosen names in the platform's mail (lib/emails/tenantText.ts): one line, no link, short, no hidden text. */

test.each([
  ['Acme', 'Acme'],
  ['Acme Inc.', 'Acme Inc.'],
  ['Ünïcode & Co — 株式会社', 'Ünïcode & Co — 株式会社'],
  ['visit https://evil.example/login now', 'visit [link removed] now'],
  ['www.evil.example', '[link removed]'],
  ['evil.example', 'evil[.]example'],
  ['ｅｖｉｌ．ｅｘａｍｐｌｅ', 'evil[.]example'],
  ['mail support@evil.example', 'mail support[at]evil[.]example'],
  ['mailto:x@y', '[link removed]'],
  ['a\r\nBcc: b', 'a Bcc: b'],
  ['moc.live\u202e', 'moc[.]live'],
  ['zero\u200bwidth', 'zero width'],
  ['say "hi"', "say 'hi'"],
  ['  \t ', '(unnamed)'],
])('%j -> %j', (input, expected) => {
  expect(tenantName(input)).toBe(expected);
});

test('cut to the limit on a code point, with an ellipsis', () => {
  const cut = tenantName('😀'.repeat(100), 10);
  expect(Array.from(cut)).toHaveLength(10);
  expect(cut.endsWith('😀…')).toBe(true);
});
