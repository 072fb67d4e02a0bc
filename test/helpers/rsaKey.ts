import { execFileSync } from 'node:child_process';
import { createPrivateKey, createPublicKey, type KeyObject } from 'node:crypto';

/**
 * An RSA key pair for tests of tokens signed with one, made by the openssl command. Not Node's
 * `generateKeyPairSync('rsa')`: on Node 20 it can deadlock (gdb on a jest worker hung for good in a full test run: the
 * new key's details are read under the key's mutex, the ArrayBuffer allocated for them starts a garbage collection,
 * and the collector's finalizer of the key-generation job waits on that same mutex).
 */
export function rsaKeyPair(): { privateKey: KeyObject; publicKey: KeyObject } {
  const pem = execFileSync('openssl', ['genpkey', '-algorithm', 'RSA', '-pkeyopt', 'rsa_keygen_bits:2048'], { stdio: ['ignore', 'pipe', 'pipe'] });
  const privateKey = createPrivateKey(pem);
  return { privateKey, publicKey: createPublicKey(privateKey) };
}
