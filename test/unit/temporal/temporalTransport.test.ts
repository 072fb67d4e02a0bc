import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadConfig } from '../../../lib/config';
import { temporalTransport, TemporalTransportError } from '../../../lib/temporalTransport';
import { makeTestPki, type TestPki } from '../../helpers/tlsCerts';

/** The Temporal connection settings (docs/scaling.md#temporal-connection): read and checked once, errors naming the setting. */

let pki: TestPki;
beforeAll(() => {
  pki = makeTestPki(1);
});

const settings = (extra: Record<string, string>) => loadConfig({ SERVICE_JWT_SECRET: 'x'.repeat(40), ...extra }).temporal;

test('nothing set: a plain connection, as for the dev server', () => {
  expect(temporalTransport(settings({}))).toEqual({});
});

test('mTLS: the CA, the client pair and the server name are read', () => {
  const transport = temporalTransport(
    settings({
      TEMPORAL_TLS_CA_FILE: pki.caCert,
      TEMPORAL_TLS_CERT_FILE: pki.clientCert,
      TEMPORAL_TLS_KEY_FILE: pki.clientKey,
      TEMPORAL_TLS_SERVER_NAME: 'localhost',
    }),
  );
  expect(Buffer.from(transport.tls!.serverRootCACertificate!).equals(readFileSync(pki.caCert))).toBe(true);
  expect(Buffer.from(transport.tls!.clientCertPair!.crt).equals(readFileSync(pki.clientCert))).toBe(true);
  expect(transport.tls!.serverNameOverride).toBe('localhost');
  expect(transport.apiKey).toBeUndefined();
});

test('an API key (Temporal Cloud) implies TLS with the system CAs; TEMPORAL_TLS alone too', () => {
  expect(temporalTransport(settings({ TEMPORAL_API_KEY: 'k-123' }))).toEqual({ tls: {}, apiKey: 'k-123' });
  expect(temporalTransport(settings({ TEMPORAL_TLS: 'true' }))).toEqual({ tls: {} });
});

test('each mistake is refused with the setting named', () => {
  const refusal = (extra: Record<string, string>, now?: Date) => {
    try {
      temporalTransport(settings(extra), now);
    } catch (err) {
      expect(err).toBeInstanceOf(TemporalTransportError);
      return (err as Error).message;
    }
    throw new Error('accepted');
  };
  const notPem = path.join(pki.dir, 'not.pem');
  writeFileSync(notPem, 'hello');
  expect(refusal({ TEMPORAL_TLS_CERT_FILE: pki.clientCert })).toMatch(/^TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE: mTLS needs both/);
  expect(refusal({ TEMPORAL_TLS_CA_FILE: path.join(pki.dir, 'missing.pem') })).toMatch(/^TEMPORAL_TLS_CA_FILE: cannot read .*missing\.pem \(ENOENT\)/);
  expect(refusal({ TEMPORAL_TLS_CA_FILE: notPem })).toMatch(/^TEMPORAL_TLS_CA_FILE: .* is not a PEM file/);
  expect(refusal({ TEMPORAL_TLS_CA_FILE: pki.caKey })).toMatch(/^TEMPORAL_TLS_CA_FILE: .* holds no certificate/);
  expect(refusal({ TEMPORAL_TLS_CERT_FILE: pki.clientCert, TEMPORAL_TLS_KEY_FILE: pki.strayKey })).toMatch(
    /^TEMPORAL_TLS_KEY_FILE: .*stray\.key is not the key of the certificate in .*client\.pem/,
  );
  expect(refusal({ TEMPORAL_TLS_CERT_FILE: pki.clientCert, TEMPORAL_TLS_KEY_FILE: notPem })).toMatch(/^TEMPORAL_TLS_KEY_FILE: .* is not a PEM file/);
  // The leaf certificates are valid for one day: two days on, the client certificate has expired.
  const later = new Date(Date.now() + 2 * 86_400_000);
  expect(refusal({ TEMPORAL_TLS_CERT_FILE: pki.clientCert, TEMPORAL_TLS_KEY_FILE: pki.clientKey }, later)).toMatch(
    /^TEMPORAL_TLS_CERT_FILE: the certificate CN=loom-worker in .* expired on /,
  );
});
