import { readFileSync } from 'node:fs';
import { createPrivateKey, X509Certificate } from 'node:crypto';
import type { TLSConfig } from '@temporalio/client';
import type { Config } from './config';

/**
 * How the API, the worker and the scripts reach Temporal's frontend beyond its address (docs/scaling.md#temporal-connection):
 * TLS with the frontend's CA, mTLS with a client certificate, an API key (Temporal Cloud). Read and checked once
 * at start, so that a wrong path, an expired certificate or a key of another certificate stops the process with a
 * sentence naming the setting, instead of connections that fail later as "Temporal is unavailable".
 */
export interface TemporalTransport {
  tls?: TLSConfig;
  apiKey?: string;
}

/** Stops the API and the worker at start with its message, as an invalid setting does (loadConfigOrExit). */
export class TemporalTransportError extends Error {}

type Settings = Pick<Config['temporal'], 'tls' | 'tlsCaFile' | 'tlsCertFile' | 'tlsKeyFile' | 'tlsServerName' | 'apiKey'>;

function readPem(setting: string, file: string): Buffer {
  let body: Buffer;
  try {
    body = readFileSync(file);
  } catch (err) {
    throw new TemporalTransportError(`${setting}: cannot read ${file} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`);
  }
  if (!body.toString('utf8').includes('-----BEGIN ')) throw new TemporalTransportError(`${setting}: ${file} is not a PEM file`);
  return body;
}

function certificates(setting: string, file: string, pem: Buffer, now: Date): X509Certificate[] {
  const blocks = pem.toString('utf8').match(/-----BEGIN CERTIFICATE-----[\s\S]+?-----END CERTIFICATE-----/g) ?? [];
  if (!blocks.length) throw new TemporalTransportError(`${setting}: ${file} holds no certificate`);
  return blocks.map((block) => {
    let cert: X509Certificate;
    try {
      cert = new X509Certificate(block);
    } catch (err) {
      throw new TemporalTransportError(`${setting}: a certificate in ${file} does not parse (${(err as Error).message})`);
    }
    if (new Date(cert.validTo) < now) throw new TemporalTransportError(`${setting}: the certificate ${cert.subject.replace(/\n/g, ', ')} in ${file} expired on ${cert.validTo}`);
    return cert;
  });
}

export function temporalTransport(settings: Settings, now = new Date()): TemporalTransport {
  const { tlsCaFile, tlsCertFile, tlsKeyFile, tlsServerName, apiKey } = settings;
  if (Boolean(tlsCertFile) !== Boolean(tlsKeyFile)) {
    throw new TemporalTransportError('TEMPORAL_TLS_CERT_FILE and TEMPORAL_TLS_KEY_FILE: mTLS needs both the client certificate and its key');
  }
  const wantsTls = settings.tls || Boolean(tlsCaFile || tlsCertFile || tlsServerName || apiKey);
  if (!wantsTls) return {};
  const tls: TLSConfig = {};
  if (tlsCaFile) {
    tls.serverRootCACertificate = readPem('TEMPORAL_TLS_CA_FILE', tlsCaFile);
    certificates('TEMPORAL_TLS_CA_FILE', tlsCaFile, tls.serverRootCACertificate as Buffer, now);
  }
  if (tlsCertFile && tlsKeyFile) {
    const crt = readPem('TEMPORAL_TLS_CERT_FILE', tlsCertFile);
    const key = readPem('TEMPORAL_TLS_KEY_FILE', tlsKeyFile);
    const [leaf] = certificates('TEMPORAL_TLS_CERT_FILE', tlsCertFile, crt, now);
    let privateKey;
    try {
      privateKey = createPrivateKey(key);
    } catch (err) {
      throw new TemporalTransportError(`TEMPORAL_TLS_KEY_FILE: ${tlsKeyFile} is not a usable private key (${(err as Error).message}; an encrypted key is not supported)`);
    }
    if (!leaf!.checkPrivateKey(privateKey)) {
      throw new TemporalTransportError(`TEMPORAL_TLS_KEY_FILE: ${tlsKeyFile} is not the key of the certificate in ${tlsCertFile}`);
    }
    tls.clientCertPair = { crt, key };
  }
  if (tlsServerName) tls.serverNameOverride = tlsServerName;
  return { tls, ...(apiKey ? { apiKey } : {}) };
}
