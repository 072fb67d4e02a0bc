import { Resolver } from 'node:dns/promises';

/**
 * TXT lookups for proofs of ownership (an organization's e-mail domain, domain/organizations/domainsService.ts),
 * beside the guard's address resolution (ssrfGuard.ts). Nothing connects to the name looked up: only the DNS
 * servers are asked, the operator's (`servers`, `host` or `host:port`) or the system's when none are configured.
 * One attempt per server with a deadline, so a proof never waits on a dead resolver for long.
 */

export class DnsTxtError extends Error {
  constructor(
    /** `NOT_FOUND`: the name or its TXT records do not exist; `FAILED`: no answer (timeout, refused, server failure). */
    readonly kind: 'NOT_FOUND' | 'FAILED',
    message: string,
  ) {
    super(message);
    this.name = 'DnsTxtError';
  }
}

export type TxtLookup = (name: string) => Promise<string[]>;

const NOT_FOUND_CODES = new Set(['ENOTFOUND', 'ENODATA', 'NXDOMAIN']);

export function createTxtLookup(options: { servers: readonly string[]; timeoutMs: number }): TxtLookup {
  return async (name) => {
    // A Resolver per lookup: its servers and deadline are this lookup's, and cancel() ends it cleanly.
    const resolver = new Resolver({ timeout: options.timeoutMs, tries: 1 });
    if (options.servers.length > 0) resolver.setServers([...options.servers]);
    const deadline = setTimeout(() => resolver.cancel(), options.timeoutMs * Math.max(1, options.servers.length) + 500);
    try {
      // Each record may come in several character-strings (RFC 7208 3.3): joined, as a record's value.
      return (await resolver.resolveTxt(name)).map((parts) => parts.join(''));
    } catch (err) {
      const code = (err as { code?: string }).code ?? 'lookup failed';
      if (NOT_FOUND_CODES.has(code)) throw new DnsTxtError('NOT_FOUND', `${name} has no TXT record`);
      throw new DnsTxtError('FAILED', `the TXT lookup of ${name} failed: ${code}`);
    } finally {
      clearTimeout(deadline);
    }
  };
}
