import { networkOf } from '../../lib/net/networkPrefix';
import { deviceFingerprint } from '../../domain/auth/securityNotices';
import { renderNotice } from '../../lib/emails/notice';
import { newSignInNotice } from '../../lib/emails/security';

describe('the network of a sign-in', () => {
  test.each([
    ['203.0.113.77', '203.0.113.0/24'],
    ['::ffff:203.0.113.77', '203.0.113.0/24'],
    ['2001:db8:abcd:12::1', '2001:db8:abcd::/48'],
    ['2001:0db8:0000:0012::1', '2001:db8:0::/48'],
    ['::1', '0:0:0::/48'],
    ['', null],
    ['not-an-ip', null],
  ])('%s -> %s', (ip, network) => {
    expect(networkOf(ip)).toBe(network);
  });
});

describe('the device of a sign-in', () => {
  const firefox = (version: string) => `Mozilla/5.0 (X11; Linux x86_64; rv:${version}) Gecko/20100101 Firefox/${version}`;
  test('a browser update is the same device; another browser or network is not', () => {
    const base = deviceFingerprint({ ip: '203.0.113.7', userAgent: firefox('128.0') });
    expect(deviceFingerprint({ ip: '203.0.113.99', userAgent: firefox('129.0.1') }).fingerprint).toBe(base.fingerprint);
    expect(deviceFingerprint({ ip: '203.0.113.7', userAgent: 'curl/8.5.0' }).fingerprint).not.toBe(base.fingerprint);
    expect(deviceFingerprint({ ip: '198.51.100.7', userAgent: firefox('128.0') }).fingerprint).not.toBe(base.fingerprint);
    expect(base.network).toBe('203.0.113.0/24');
  });
});

describe('notices', () => {
  test('text first, HTML with every value escaped; the client text is one line without links', () => {
    const notice = newSignInNotice({ at: new Date('2026-11-29T00:00:00Z'), ip: '203.0.113.7', userAgent: 'x<img src=y onerror=z>\nhttps://evil.example/login', method: 'password' });
    expect(notice.text.split('\n')[0]).toBe('A new device signed in to your account');
    expect(notice.text).toMatch(/^Device: x<img src=y onerror=z> \[link removed\]$/m);
    expect(notice.html).toContain('x&lt;img src=y onerror=z&gt;');
    expect(notice.html).not.toMatch(/<img|https:\/\/evil/);
  });
  test('an action is the only link, escaped', () => {
    const rendered = renderNotice({ subject: 's', heading: 'h', paragraphs: ['a & b'], action: { label: 'Open', url: 'https://loom.example/x?a=1&b="2"' } });
    expect(rendered.html).toContain('href="https://loom.example/x?a=1&amp;b=&quot;2&quot;"');
    expect(rendered.html).toContain('<p style="margin:0 0 12px;line-height:1.5">a &amp; b</p>');
    expect(rendered.text).toContain('Open: https://loom.example/x?a=1&b="2"');
  });
});
