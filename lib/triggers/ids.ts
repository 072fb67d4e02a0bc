import { createHash } from 'node:crypto';

/**
 * Name-based UUIDs (RFC 4122 version 5): the same name always gives the same id. Event dispatch, scheduled runs and
 * webhook deliveries derive their run ids this way, so a repeated attempt after a crash finds (and never duplicates)
 * what the first attempt created.
 */
const NAMESPACE = Buffer.from('6f3c1c2e8a9b4d5e9f0a1b2c3d4e5f60', 'hex');

export function uuidFrom(name: string): string {
  const hash = createHash('sha1').update(NAMESPACE).update(name, 'utf8').digest();
  const bytes = hash.subarray(0, 16);
  bytes[6] = (bytes[6]! & 0x0f) | 0x50;
  bytes[8] = (bytes[8]! & 0x3f) | 0x80;
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
