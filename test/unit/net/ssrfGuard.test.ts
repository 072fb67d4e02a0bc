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
    // IPv4-compatible spellings (the URL parser writes [::127.0.0.1] as [::7f00:1], which ipaddr.js calls unicast)
    'http://[::127.0.0.1]/',
    'http://[::7f00:1]/',
    'http://[::a00:1]/',
    'http://[::ffff:0:7f00:1]/',
    'http://[64:ff9b:1::7f00:1]/',
    'http://[100::1]/',
    'http://[2001:db8::1]/',
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

  test('a refusal names the setting but never the address a name resolved to', async () => {
    const err = (await guard.vet('http://private.example/').catch((e: unknown) => e)) as Error;
    expect(err).toBeInstanceOf(SsrfRefusedError);
    expect(err.message).toContain('TOOLS_HTTP_ALLOWED_HOSTS');
    expect(err.message).not.toContain('10.0.0.5');
    const webhooks = createSsrfGuard({ allowSetting: 'WEBHOOKS_ALLOWED_PRIVATE_HOSTS', resolver: fakeDns({}) });
    await expect(webhooks.vet('http://127.0.0.1/')).rejects.toThrow(/WEBHOOKS_ALLOWED_PRIVATE_HOSTS/);
  });
});

describe('platform services', () => {
  // An operator allow-lists every private range; the platform's own services stay unreachable anyway.
  const guard = createSsrfGuard({
    allow: ['127.0.0.0/8', '::1/128', '10.0.0.0/8', '0.0.0.0/8', '::/128', 'db.internal'],
    resolver: fakeDns({ 'db.internal': ['10.9.9.9'], 'rebind.example': ['127.0.0.1'], postgres: ['10.9.9.9'] }),
    localAddresses: () => ['127.0.0.1', '::1', '10.20.30.40'],
    protectedEndpoints: [
      { host: '127.0.0.1', port: 5432, name: 'PostgreSQL' },
      { host: 'postgres', port: 6543, name: 'PostgreSQL' },
      { host: 'localhost.platform.invalid', port: 7233, name: 'Temporal frontend' },
    ],
  });

  test.each([
    ['127.0.0.1', 5432],
    ['127.0.0.2', 5432],
    ['::1', 5432],
    ['::ffff:127.0.0.1', 5432],
    ['::127.0.0.1', 5432],
    ['0.0.0.0', 5432],
    ['::', 5432],
    ['10.20.30.40', 5432], // this machine's own interface address
    ['rebind.example', 5432],
    ['db.internal', 6543], // the same address as the platform's `postgres` host
    ['10.9.9.9', 6543],
  ])('refuses %s:%d even though allow-listed', async (host, port) => {
    await expect(guard.vetHost(host, port)).rejects.toThrow(/platform's own PostgreSQL/);
  });

  test('the same hosts on other ports, and unresolvable platform names, do not block anything', async () => {
    await expect(guard.vetHost('127.0.0.1', 15432)).resolves.toMatchObject({ address: '127.0.0.1', port: 15432 });
    await expect(guard.vetHost('db.internal', 5432)).resolves.toMatchObject({ address: '10.9.9.9' });
    await expect(guard.vetHost('127.0.0.1', 7233)).resolves.toMatchObject({ port: 7233 });
  });

  test('URLs are checked with their port, default ports included', async () => {
    const web = createSsrfGuard({ allow: ['127.0.0.0/8'], resolver: fakeDns({}), protectedEndpoints: [{ host: '127.0.0.1', port: 80, name: 'API' }] });
    await expect(web.vet('http://127.0.0.1/')).rejects.toThrow(/platform's own API/);
    await expect(web.vet('http://127.0.0.5:80/')).rejects.toThrow(/platform's own API/);
    await expect(web.vet('https://127.0.0.1/')).resolves.toMatchObject({ port: 443 });
  });

  test('a platform name whose lookup failed is looked up again, not remembered as having no address', async () => {
    let platformLookups = 0;
    const flaky = createSsrfGuard({
      allow: ['10.0.0.0/8'],
      localAddresses: () => [],
      protectedEndpoints: [{ host: 'db.platform', port: 5432, name: 'PostgreSQL' }],
      resolver: async (host) => {
        if (host !== 'db.platform') return [{ address: '10.7.7.7', family: 4 }];
        platformLookups += 1;
        if (platformLookups === 1) throw new Error('EAI_AGAIN');
        return [{ address: '10.7.7.7', family: 4 }];
      },
    });
    await expect(flaky.vetHost('10.7.7.7', 5432)).resolves.toMatchObject({ address: '10.7.7.7' });
    await expect(flaky.vetHost('10.7.7.7', 5432)).rejects.toThrow(/platform's own PostgreSQL/);
    await expect(flaky.vetHost('10.7.7.7', 5432)).rejects.toThrow(/platform's own PostgreSQL/);
    expect(platformLookups).toBe(2);
  });

  test('a name is resolved once per check, so the address connected to is the address checked', async () => {
    const answers = [['93.184.216.34'], ['127.0.0.1']];
    let calls = 0;
    const rebinding = createSsrfGuard({ resolver: async () => (answers[calls++] ?? []).map((address) => ({ address, family: 4 })) });
    const target = await rebinding.vet('http://flip.example/');
    expect(target.address).toBe('93.184.216.34');
    expect(calls).toBe(1);
    await expect(rebinding.vet('http://flip.example/')).rejects.toThrow(SsrfRefusedError);
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
