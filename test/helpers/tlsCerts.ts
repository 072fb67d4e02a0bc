import { execFileSync } from 'node:child_process';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

/**
 * A throw-away PKI made with the openssl command (EC P-256): a CA, a server certificate for 127.0.0.1 and localhost,
 * a client certificate for mTLS, and a key of nothing. Leaf certificates are valid for `leafDays` days.
 */
export interface TestPki {
  dir: string;
  caCert: string;
  caKey: string;
  serverCert: string;
  serverKey: string;
  clientCert: string;
  clientKey: string;
  strayKey: string;
}

function openssl(dir: string, args: string[]): void {
  execFileSync('openssl', args, { cwd: dir, stdio: 'pipe' });
}

const EC = ['-newkey', 'ec', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-nodes'];

function leaf(dir: string, name: string, subject: string, extensions: string, leafDays: number): void {
  writeFileSync(path.join(dir, `${name}.ext`), extensions);
  openssl(dir, ['req', ...EC, '-keyout', `${name}.key`, '-out', `${name}.csr`, '-subj', subject]);
  openssl(dir, ['x509', '-req', '-in', `${name}.csr`, '-CA', 'ca.pem', '-CAkey', 'ca.key', '-CAcreateserial', '-out', `${name}.pem`, '-days', String(leafDays), '-extfile', `${name}.ext`]);
}

export function makeTestPki(leafDays = 30): TestPki {
  const dir = mkdtempSync(path.join(tmpdir(), 'loom-pki-'));
  openssl(dir, ['req', '-x509', ...EC, '-keyout', 'ca.key', '-out', 'ca.pem', '-subj', '/CN=Loom test CA', '-days', '3650']);
  leaf(dir, 'server', '/CN=localhost', 'subjectAltName=DNS:localhost,IP:127.0.0.1\nextendedKeyUsage=serverAuth\n', leafDays);
  leaf(dir, 'client', '/CN=loom-worker', 'extendedKeyUsage=clientAuth\n', leafDays);
  openssl(dir, ['genpkey', '-algorithm', 'EC', '-pkeyopt', 'ec_paramgen_curve:prime256v1', '-out', 'stray.key']);
  const at = (file: string) => path.join(dir, file);
  return {
    dir,
    caCert: at('ca.pem'),
    caKey: at('ca.key'),
    serverCert: at('server.pem'),
    serverKey: at('server.key'),
    clientCert: at('client.pem'),
    clientKey: at('client.key'),
    strayKey: at('stray.key'),
  };
}
