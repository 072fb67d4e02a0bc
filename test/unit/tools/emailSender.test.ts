import emailSend from '../../../activities/tools/email_send';
import { validateToolInput } from '../../../lib/tools/validation';
import {
  looksLikePlatformName,
  organizationLabel,
  sanitizeOrganizationName,
  senderDisplayName,
  withHtmlFooter,
  withTextFooter,
} from '../../../activities/tools/support/emailSender';
import { safeHeaderValue, senderAddress } from '../../../lib/mailer';

const ID = '3f2a9c1e-0000-4000-8000-000000000000';

describe('organization name in tenant mail', () => {
  test.each([
    ['Acme Corp', 'Acme Corp'],
    ['Acme "Support" <security@loom.local>', 'Acme Support security loom.local'],
    ['Evil\r\nBcc: victim@example.com', 'Evil Bcc victim example.com'],
    ['A\u202eB\u200bC', 'A B C'],
    ['Ｆｕｌｌｗｉｄｔｈ', 'Fullwidth'],
    ["O'Brien & Sons", "O'Brien & Sons"],
    ['x'.repeat(100), 'x'.repeat(60)],
  ])('%j is sanitised to %j', (name, clean) => {
    expect(sanitizeOrganizationName(name)).toBe(clean);
  });

  test.each(['Loom', 'loom security', 'L00m', 'LOOM Team', 'LoomHQ', 'Lo0rn', 'ʟᴏᴏᴍ', 'Lоом', 'L o o m', 'L.O.O.M', 'Ｌｏｏｍ', 'Lóóm'])(
    '%j passes for the platform',
    (name) => {
      expect(looksLikePlatformName(sanitizeOrganizationName(name))).toBe(true);
      expect(organizationLabel({ id: ID, name })).toBe('Organization 3f2a9c1e');
    },
  );

  test.each(['Bloom', 'Gloomy Games', 'Acme', 'Heirloom Bakery'])('%j does not', (name) => {
    expect(looksLikePlatformName(name)).toBe(false);
    expect(organizationLabel({ id: ID, name })).toBe(name);
  });

  test('an empty name after sanitising falls back to the id', () => {
    expect(organizationLabel({ id: ID, name: '<<>>""' })).toBe('Organization 3f2a9c1e');
  });

  test('display name and footers', () => {
    expect(senderDisplayName('Acme')).toBe('Acme via Loom');
    expect(withTextFooter('Hello\n\n', 'Acme')).toBe('Hello\n\n-- \nSent by Acme through Loom workflow automation.\n');
    expect(withHtmlFooter('<html><body><p>Hi</p></body></html>', "O'Brien")).toBe(
      '<html><body><p>Hi</p><hr><p>Sent by O&#39;Brien through Loom workflow automation.</p></body></html>',
    );
    expect(withHtmlFooter('<p>Hi</p>', 'Acme')).toBe('<p>Hi</p><hr><p>Sent by Acme through Loom workflow automation.</p>');
  });
});

describe('mail helpers', () => {
  test('the platform address of MAIL_FROM', () => {
    expect(senderAddress('Loom <no-reply@loom.local>')).toBe('no-reply@loom.local');
    expect(senderAddress('no-reply@example.com')).toBe('no-reply@example.com');
  });

  test('header values keep visible ASCII only', () => {
    expect(safeHeaderValue('run\r\nBcc: x@example.com')).toBe('runBcc: x@example.com');
  });
});

describe('email_send input schema', () => {
  const base = { to: 'a@example.com', subject: 'Hi', text: 'Hello' };
  test('accepts plain text with an optional reply_to', () => {
    expect(validateToolInput(emailSend, base).ok).toBe(true);
    expect(validateToolInput(emailSend, { ...base, reply_to: 'help@acme.example' }).ok).toBe(true);
  });
  test.each([
    ['a subject over 200 characters', { ...base, subject: 's'.repeat(201) }],
    ['51 recipients', { ...base, to: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`) }],
    ['a recipient with a CRLF', { ...base, to: 'a@example.com\r\nBcc: b@example.com' }],
    ['a list in one string', { ...base, to: 'a@example.com, b@example.com' }],
    ['a bad reply_to', { ...base, reply_to: 'not an address' }],
  ])('refuses %s', (_label, input) => {
    expect(validateToolInput(emailSend, input).ok).toBe(false);
  });
});
