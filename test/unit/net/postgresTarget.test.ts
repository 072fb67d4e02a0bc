import { ConnectionStringError, parsePostgresUrl, vettedPostgresConfig } from '../../../lib/net/postgresTarget';
import { createSsrfGuard, SsrfRefusedError } from '../../../lib/net/ssrfGuard';

/** Every way pg's own connection-string parser lets a string pick another host, a socket or local files. */
describe('tenant PostgreSQL connection strings', () => {
  test('a plain URL becomes explicit fields', () => {
    expect(parsePostgresUrl('postgresql://app:s%40cret@db.example.com:6543/sales?sslmode=verify-full')).toEqual({
      hostname: 'db.example.com',
      port: 6543,
      user: 'app',
      password: 's@cret',
      database: 'sales',
      sslMode: 'verify-full',
    });
    expect(parsePostgresUrl('postgres://app@[2606:4700::1]/x')).toMatchObject({ hostname: '2606:4700::1', port: 5432, password: '' });
  });

  test.each([
    ['postgres://postgres@93.184.216.34:5432/loom?host=127.0.0.1', /"host" is not allowed/],
    ['postgres://postgres@93.184.216.34/loom?host=/var/run/postgresql', /"host" is not allowed/],
    ['postgres://postgres@93.184.216.34/loom?hostaddr=127.0.0.1', /"hostaddr" is not allowed/],
    ['postgres://postgres@93.184.216.34/loom?port=5433', /"port" is not allowed/],
    ['postgres://u@93.184.216.34/loom?sslmode=require&sslcert=/etc/passwd', /"sslcert" is not allowed/],
    ['postgres://u@93.184.216.34/loom?sslkey=/etc/shadow', /"sslkey" is not allowed/],
    ['postgres://u@93.184.216.34/loom?sslrootcert=/etc/ssl/private/x', /"sslrootcert" is not allowed/],
    ['postgres://u@93.184.216.34/loom?options=-c%20search_path%3Devil', /"options" is not allowed/],
    ['postgres://u@93.184.216.34/loom?ssl=true', /"ssl" is not allowed/],
    ['postgres://u@93.184.216.34/loom?sslmode=prefer', /sslmode must be one of/],
    ['postgres://u@93.184.216.34/loom?sslmode=no-verify', /sslmode must be one of/],
    ['socket:/var/run/postgresql?db=loom', /scheme socket/],
    ['postgres:///loom?host=/var/run/postgresql', /no host/],
    ['postgres://%2Fvar%2Frun%2Fpostgresql/loom', /host name or an IP address/],
    ['postgres://u@%2Ftmp/loom', /host name or an IP address/],
    ['postgres://u@h/', /names no database/],
    ['postgres://h/loom', /names no user/],
    ['postgres://u@h:99999/loom', /not a postgres/],
    ['mysql://u@h/loom', /scheme mysql/],
    ['not a url', /not a postgres/],
  ])('refuses %s', (raw, message) => {
    expect(() => parsePostgresUrl(raw)).toThrow(ConnectionStringError);
    expect(() => parsePostgresUrl(raw)).toThrow(message);
  });

  test('the driver gets the vetted address, explicit credentials and TLS, never the string', async () => {
    const guard = createSsrfGuard({ resolver: async () => [{ address: '93.184.216.34', family: 4 }] });
    const config = await vettedPostgresConfig('postgres://app@db.example.com/sales?sslmode=verify-full', guard);
    expect(config).toMatchObject({ host: '93.184.216.34', port: 5432, user: 'app', database: 'sales', ssl: { rejectUnauthorized: true, servername: 'db.example.com' } });
    expect(config.connectionString).toBeUndefined();
    // an empty password is a function answering '' (pg would otherwise fall back to PGPASSWORD / ~/.pgpass)
    expect(typeof config.password).toBe('function');
    expect(await (config.password as () => string)()).toBe('');
    expect((await vettedPostgresConfig('postgres://app@db.example.com/sales', guard)).ssl).toBe(false);
  });

  test('hosts go through the outbound guard: private, IPv6 spellings, the platform database', async () => {
    const guard = createSsrfGuard({
      allow: ['127.0.0.0/8'],
      resolver: async () => [{ address: '10.0.0.9', family: 4 }],
      protectedEndpoints: [{ host: '127.0.0.1', port: 5432, name: 'PostgreSQL' }],
      localAddresses: () => [],
    });
    for (const raw of ['postgres://u@[::1]/x', 'postgres://u@[::127.0.0.1]/x', 'postgres://u@[::ffff:10.0.0.1]/x', 'postgres://u@internal.example/x']) {
      await expect(vettedPostgresConfig(raw, guard)).rejects.toThrow(SsrfRefusedError);
    }
    await expect(vettedPostgresConfig('postgres://u@127.0.0.1:5432/loom', guard)).rejects.toThrow(/platform's own PostgreSQL/);
    await expect(vettedPostgresConfig('postgres://u@localhost:5432/loom', createSsrfGuard({ allow: ['localhost'], protectedEndpoints: [{ host: '127.0.0.1', port: 5432, name: 'PostgreSQL' }] }))).rejects.toThrow(/platform's own PostgreSQL/);
    await expect(vettedPostgresConfig('postgres://u@127.0.0.1:15432/tenant', guard)).resolves.toMatchObject({ host: '127.0.0.1', port: 15432 });
  });
});
