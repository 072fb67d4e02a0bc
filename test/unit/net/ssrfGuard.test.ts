import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { guardedRequest, HttpClientError } from '../../../lib/net/httpClient';
import { createSsrfGuard, SsrfRefusedError } from '../../../lib/net/ssrfGuard';

const fakeDns = (table: Record<string, string[]>) => async (host: string) => {
  const list = table[host];
  if (!list) throw new Error('ENOTFOUND');
  return list.map((address) => ({ address, family: address.includes(':') ? 6 : 4 }));
};

describe('SSRF guard', () => {
  const guard = createSsrfGuard({
    resolver: fakeDns({
      'public.example': ['93.184.216.34'],
      'private.example': ['10.0.0.5'],
      'mixed.example': ['93.184.216.34', '127.0.0.1'],
      'v6.example': ['2606:2800:220:1:248:1893:25c8:1946'],
      'meta.example': ['169.254.169.254'],
      'allowed.internal': ['10.1.2.3'],
    }),
    allow: ['allowed.internal', '192.168.50.0/24'],
  });

  test('public hosts and addresses pass, with the address to connect to', async () => {
    await expect(guard.vet('https://public.example/x')).resolves.toMatchObject({ address: '93.184.216.34', family: 4, hostname: 'public.example' });
    await expect(guard.vet('http://8.8.8.8/')).resolves.toMatchObject({ address: '8.8.8.8' });
    await expect(guard.vet('https://v6.example/')).resolves.toMatchObject({ family: 6 });
  });

  test.each([
    'http://127.0.0.1/',
    'http://localhost.localdomain.invalid/',
    'http://0.0.0.0/',
    'http://10.1.1.1/',
    'http://172.16.0.1/',
    'http://192.168.1.1/',
    'http://100.64.0.1/',
    'http://169.254.169.254/latest/meta-data/',
    'http://[::1]/',
    'http://[fd00:ec2::254]/',
    'http://[fe80::1]/',
    'http://[::ffff:127.0.0.1]/',
    'http://[::ffff:a9fe:a9fe]/',
    'http://[64:ff9b::7f00:1]/',
    'http://[2002:7f00:1::]/',
    'http://2130706433/',
    'http://0x7f.1/',
    'http://0177.0.0.1/',
    'http://127.1/',
    'http://224.0.0.1/',
    'http://255.255.255.255/',
    'http://private.example/',
    'http://mixed.example/',
    'http://meta.example/',
  ])('refuses %s', async (url) => {
    await expect(guard.vet(url)).rejects.toThrow(url.includes('invalid') ? /cannot resolve/ : SsrfRefusedError);
  });

  test('refuses other schemes and credentials', async () => {
    await expect(guard.vet('file:///etc/passwd')).rejects.toThrow(/scheme file/);
    await expect(guard.vet('gopher://x/')).rejects.toThrow(SsrfRefusedError);
    await expect(guard.vet('http://user:pw@public.example/')).rejects.toThrow(/credentials/);
    await expect(guard.vet('not a url')).rejects.toThrow(/not a valid URL/);
  });

  test('allowlisted hosts and CIDRs pass', async () => {
    await expect(guard.vet('http://allowed.internal/')).resolves.toMatchObject({ address: '10.1.2.3' });
    await expect(guard.vet('http://192.168.50.7/')).resolves.toMatchObject({ address: '192.168.50.7' });
    await expect(guard.vet('http://192.168.51.7/')).rejects.toThrow(SsrfRefusedError);
    expect(guard.isAllowlisted('ALLOWED.internal')).toBe(true);
  });
});

describe('guardedRequest', () => {
  let server: http.Server;
  let base: string;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (req.url === '/big') {
        res.write('x'.repeat(5000));
        res.end('y'.repeat(5000));
      } else if (req.url === '/redirect-local') {
        res.writeHead(302, { location: 'http://10.0.0.1/' }).end();
      } else if (req.url === '/redirect-ok') {
        res.writeHead(303, { location: '/echo' }).end();
      } else if (req.url === '/loop') {
        res.writeHead(302, { location: '/loop' }).end();
      } else if (req.url === '/slow') {
        setTimeout(() => res.end('late'), 400).unref();
      } else {
        let body = '';
        req.on('data', (c) => (body += c));
        req.on('end', () => res.end(JSON.stringify({ method: req.method, body, host: req.headers.host })));
      }
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', () => r()));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => {
    server.closeAllConnections();
    server.close();
  });

  const guard = createSsrfGuard({ allow: ['127.0.0.1'] });
  const opts = { timeoutMs: 1000, maxResponseBytes: 8000, maxRedirects: 3 };

  test('loopback is refused unless allowlisted', async () => {
    await expect(guardedRequest(createSsrfGuard(), { url: `${base}/echo`, ...opts })).rejects.toThrow(SsrfRefusedError);
    const res = await guardedRequest(guard, { url: `${base}/echo`, method: 'POST', body: 'hi', ...opts });
    expect(JSON.parse(res.body.toString())).toMatchObject({ method: 'POST', body: 'hi' });
  });

  test('redirects are followed and re-checked', async () => {
    const ok = await guardedRequest(guard, { url: `${base}/redirect-ok`, method: 'POST', body: 'x', ...opts });
    expect(JSON.parse(ok.body.toString())).toMatchObject({ method: 'GET', body: '' });
    expect(ok.redirects).toBe(1);
    await expect(guardedRequest(guard, { url: `${base}/redirect-local`, ...opts })).rejects.toThrow(SsrfRefusedError);
    await expect(guardedRequest(guard, { url: `${base}/loop`, ...opts })).rejects.toMatchObject({ code: 'TOO_MANY_REDIRECTS' });
  });

  test('response size cap and deadline', async () => {
    await expect(guardedRequest(guard, { url: `${base}/big`, ...opts })).rejects.toMatchObject({ code: 'RESPONSE_TOO_LARGE' });
    await expect(guardedRequest(guard, { url: `${base}/slow`, ...opts, timeoutMs: 100 })).rejects.toEqual(expect.any(HttpClientError));
  });
});
