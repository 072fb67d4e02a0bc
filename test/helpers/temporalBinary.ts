import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';

/**
 * The Temporal CLI scripts/services runs: `TEMPORAL_BIN` when scripts/lib.sh exported it (scripts/test), else the
 * same path it derives, for a jest run started by hand: the cache folder keyed by the first 12 hex digits of the
 * SHA-256 of scripts/temporal-dev-server/go.sum.
 */
export function temporalBinary(): string {
  if (process.env.TEMPORAL_BIN) return process.env.TEMPORAL_BIN;
  const goSum = readFileSync(path.join(__dirname, '..', '..', 'scripts', 'temporal-dev-server', 'go.sum'));
  const key = createHash('sha256').update(goSum).digest('hex').slice(0, 12);
  return path.join(process.env.LOOM_CACHE_DIR ?? path.join(homedir(), '.cache', 'loom'), `temporal-${key}`, 'temporal');
}
