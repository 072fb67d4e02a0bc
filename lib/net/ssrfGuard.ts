import { lookup as dnsLookup } from 'node:dns/promises';
import { networkInterfaces } from 'node:os';
import ipaddr from 'ipaddr.js';
import { isLocalMachineAddress, matchesRange, nonPublicReason, parseAddress, sameAddress, type Address } from './addressPolicy';

/**
 * The outbound guard: every destination a tenant can name (HTTP tool, outgoing webhooks, chat and e-mail targets,
 * embedding / LLM / classify providers, the database tool) is vetted here before anything connects to it.
 *
 * - The host is resolved here, once; every address it resolves to must be public (lib/net/addressPolicy.ts), else
 *   the destination is refused (a mixed answer is refused too, so DNS cannot hide a private address behind a
 *   public one). The caller then connects to the vetted address (`pinnedLookup` in httpClient.ts, the pinned host
 *   of postgresTarget.ts), so there is no second resolution for DNS rebinding to use.
 * - `allow` entries (host names, IP addresses or CIDR blocks) are the operator's exceptions to the address rule.
 * - `protectedEndpoints` are the platform's own services (its PostgreSQL, MinIO, Temporal, the API, SMTP, metrics):
 *   refused by address *and* port whatever `allow` says, so allow-listing a private range never opens them. An
 *   endpoint on this machine (loopback or unspecified) is matched on every address of this machine.
 * - Messages name the operator setting that would allow a refused destination, and never show the address a name
 *   resolved to (that would map the internal network for the caller).
 * - For URLs: only http(s), no credentials in the URL. Ports are not restricted (public APIs use 8080, 8443...).
 *   Odd IPv4 spellings (2130706433, 0x7f.1, 0177.0.0.1, 127.1) are normalised by the WHATWG URL parser first.
 */

export class SsrfRefusedError extends Error {
  readonly code = 'SSRF_REFUSED';
  constructor(message: string) {
    super(message);
    this.name = 'SsrfRefusedError';
  }
}

/** A host and port vetted for one connection. */
export interface VettedHost {
  /** the host as the tenant wrote it (for Host headers and TLS SNI) */
  hostname: string;
  /** the address to connect to */
  address: string;
  family: 4 | 6;
  port: number;
}

export interface VettedTarget extends VettedHost {
  url: URL;
}

export interface ProtectedEndpoint {
  host: string;
  port: number;
  /** what it is, for messages and docs (e.g. "PostgreSQL") */
  name: string;
}

export type Resolver = (hostname: string) => Promise<{ address: string; family: number }[]>;

const defaultResolver: Resolver = (hostname) => dnsLookup(hostname, { all: true, verbatim: true });

export { nonPublicReason } from './addressPolicy';

export interface SsrfGuard {
  /** Parses and vets an http(s) URL: throws SsrfRefusedError, or answers the address to connect to. */
  vet(url: string | URL): Promise<VettedTarget>;
  /** Vets a host and port for a non-HTTP protocol (the database tool). */
  vetHost(hostname: string, port: number): Promise<VettedHost>;
  /** Whether the guard has exceptions for this host (used in messages and tests). */
  isAllowlisted(hostname: string, address?: string): boolean;
}

export interface SsrfGuardOptions {
  allow?: string[];
  /** The operator setting that holds `allow`, named in refusals. */
  allowSetting?: string;
  protectedEndpoints?: ProtectedEndpoint[];
  resolver?: Resolver;
  /** Addresses of this machine's interfaces (tests inject them). */
  localAddresses?: () => string[];
}

const DEFAULT_PORTS: Record<string, number> = { 'http:': 80, 'https:': 443 };

function machineInterfaceAddresses(): string[] {
  return Object.values(networkInterfaces()).flatMap((list) => (list ?? []).map((i) => i.address));
}

function dnsFailure(message: string): Error {
  return Object.assign(new Error(message), { code: 'DNS_FAILED' });
}

export function createSsrfGuard(options: SsrfGuardOptions = {}): SsrfGuard {
  const hosts = new Set<string>();
  const ranges: [Address, number][] = [];
  for (const raw of options.allow ?? []) {
    const entry = raw.trim().toLowerCase();
    if (!entry) continue;
    try {
      if (entry.includes('/')) ranges.push(ipaddr.parseCIDR(entry));
      else if (ipaddr.isValid(entry)) {
        const a = parseAddress(entry)!;
        ranges.push([a, a.kind() === 'ipv4' ? 32 : 128]);
      } else hosts.add(entry);
    } catch {
      hosts.add(entry);
    }
  }
  const resolver = options.resolver ?? defaultResolver;
  const allowSetting = options.allowSetting ?? 'TOOLS_HTTP_ALLOWED_HOSTS';
  const localAddresses = options.localAddresses ?? machineInterfaceAddresses;

  const addressAllowed = (address: Address): boolean => ranges.some((range) => matchesRange(address, range));

  const isAllowlisted = (hostname: string, address?: string): boolean => {
    if (hosts.has(hostname.toLowerCase())) return true;
    const parsed = address ? parseAddress(address) : null;
    return parsed ? addressAllowed(parsed) : false;
  };

  const resolve = async (hostname: string): Promise<{ address: string; family: number }[]> => {
    const literal = parseAddress(hostname);
    if (literal) return [{ address: literal.toString(), family: literal.kind() === 'ipv4' ? 4 : 6 }];
    let answers: { address: string; family: number }[];
    try {
      answers = await resolver(hostname);
    } catch (err) {
      throw dnsFailure(`cannot resolve ${hostname}: ${(err as { code?: string }).code ?? 'lookup failed'}`);
    }
    if (answers.length === 0) throw dnsFailure(`${hostname} has no address`);
    return answers;
  };

  // The platform's endpoints as addresses, resolved on first use (a name such as `postgres` in compose) and kept
  // once every name resolved; a failed lookup is tried again at the next check rather than cached as "no address".
  let platform: Promise<{ addresses: Address[]; local: boolean; port: number; name: string }[]> | null = null;
  const platformEndpoints = () => {
    if (platform) return platform;
    let complete = true;
    const resolving = Promise.all(
      (options.protectedEndpoints ?? []).map(async (e) => {
        const answers = await resolve(e.host.replace(/^\[|\]$/g, '')).catch(() => {
          complete = false;
          return [];
        });
        const addresses = answers.map((a) => parseAddress(a.address)).filter((a): a is Address => a !== null);
        return { addresses, local: addresses.some(isLocalMachineAddress), port: e.port, name: e.name };
      }),
    );
    platform = resolving.then((endpoints) => {
      if (!complete) platform = null;
      return endpoints;
    });
    return platform;
  };
  let ownAddresses: Address[] | null = null;
  const isThisMachine = (address: Address): boolean => {
    if (isLocalMachineAddress(address)) return true;
    ownAddresses ??= localAddresses().map(parseAddress).filter((a): a is Address => a !== null);
    return ownAddresses.some((own) => sameAddress(own, address));
  };

  async function vetHost(rawHostname: string, port: number): Promise<VettedHost> {
    const hostname = rawHostname.replace(/^\[|\]$/g, '').toLowerCase();
    if (!hostname) throw new SsrfRefusedError('the destination has no host');
    const answers = await resolve(hostname);
    const hostAllowed = hosts.has(hostname);
    const endpoints = await platformEndpoints();
    for (const { address } of answers) {
      const parsed = parseAddress(address);
      if (!parsed) throw new SsrfRefusedError(`${hostname} resolved to an unparseable address`);
      const service = endpoints.find(
        (e) => e.port === port && (e.addresses.some((a) => sameAddress(a, parsed)) || (e.local && isThisMachine(parsed))),
      );
      if (service) {
        throw new SsrfRefusedError(`${hostname}:${port} is the platform's own ${service.name}, which workflows and integrations may never reach`);
      }
      const reason = nonPublicReason(parsed);
      if (reason && !hostAllowed && !addressAllowed(parsed)) {
        throw new SsrfRefusedError(
          `${hostname} is not a public address (${reason}); an operator can allow it with ${allowSetting} if it is meant to be reachable`,
        );
      }
    }
    const first = parseAddress(answers[0]!.address)!;
    return { hostname, address: first.toString(), family: first.kind() === 'ipv6' ? 6 : 4, port };
  }

  return {
    isAllowlisted,
    vetHost,
    async vet(input) {
      let url: URL;
      try {
        url = typeof input === 'string' ? new URL(input) : new URL(input.toString());
      } catch {
        throw new SsrfRefusedError('not a valid URL');
      }
      if (url.protocol !== 'http:' && url.protocol !== 'https:') {
        throw new SsrfRefusedError(`scheme ${url.protocol.replace(':', '')} is not allowed (http and https only)`);
      }
      if (url.username || url.password) throw new SsrfRefusedError('credentials in the URL are not allowed');
      if (!url.hostname) throw new SsrfRefusedError('the URL has no host');
      const port = url.port ? Number(url.port) : DEFAULT_PORTS[url.protocol]!;
      return { ...(await vetHost(url.hostname, port)), url };
    },
  };
}

