import { parseDuration } from './duration';

/**
 * Rate limits on destinations (docs/runs.md#rate-limits-on-destinations), the pure part: which limits one tool call
 * is under, and what a call costs in each. The turns themselves are reserved in PostgreSQL
 * (domain/destinationLimits).
 *
 * A limit is a generic cell rate algorithm with no burst: each limit keeps the time its next call may start (the
 * "theoretical arrival time"), and a call takes the turn at that time or now, whichever is later, and moves it
 * `cost` further. So the calls under one limit start at least `cost` apart, and any `requests` + 1 of them span at
 * least `requests` × `cost`. With `cost` = (per + margin) / requests, no window of `per` holds more than `requests`
 * starts, and the margin is what a start may slip (a busy event loop, the way to the destination) without the
 * destination seeing more: a call that starts later than half the margin after its turn gives the turn up
 * (activities/runs/rateTurns.ts).
 */

/** A limit of the organization's settings (`integration.rateLimits[]`), as stored: `host` normalised. */
export interface HostRateLimit {
  /** a host name or IP address, lower case, with an optional `:port` (then only that port is limited) */
  host: string;
  requests: number;
  per: string;
}

/** A tool node's own limit (tool config `rate_limit`). */
export interface NodeRateLimit {
  requests: number;
  per: string;
  key?: string;
}

/** One limit a call takes a turn in: its key within the organization, and how far one call moves its next turn. */
export interface TurnLimit {
  key: string;
  costUs: number;
}

/** Where a call goes: the host name (as URL parsing gives it) and the port, explicit or the scheme's. */
export interface Destination {
  hostname: string;
  port: string;
}

const DEFAULT_PORTS: Record<string, string> = { 'http:': '80', 'https:': '443' };

/** The host a tool's input names: its `url` (http_request, webhook_send) or `webhook_url` (chat_message). */
export function destinationOf(toolInput: unknown): Destination | null {
  if (!toolInput || typeof toolInput !== 'object') return null;
  const input = toolInput as { url?: unknown; webhook_url?: unknown };
  const text = typeof input.url === 'string' ? input.url : typeof input.webhook_url === 'string' ? input.webhook_url : null;
  if (text === null) return null;
  try {
    const url = new URL(text);
    if (!url.hostname) return null;
    return { hostname: url.hostname, port: url.port || DEFAULT_PORTS[url.protocol] || '' };
  } catch {
    return null;
  }
}

const HOST_ENTRY = /^(\[[0-9A-Fa-f:.]+\]|[^\s:/?#@[\]\\]+)(?::(\d{1,5}))?$/;

/**
 * An organization limit's `host` as stored: the host name as URL parsing writes it (lower case, IDNs in punycode,
 * IPv4 in dotted decimal, IPv6 in brackets) and the port, if given. Null when it is not a host (a URL, a path, a
 * port out of range).
 */
export function normalizeLimitHost(text: string): string | null {
  const match = HOST_ENTRY.exec(text.trim());
  if (!match) return null;
  const port = match[2];
  if (port !== undefined && (Number(port) < 1 || Number(port) > 65_535)) return null;
  try {
    const url = new URL(`http://${match[1]}`);
    if (!url.hostname || url.pathname !== '/' || url.username || url.password) return null;
    return port !== undefined ? `${url.hostname}:${Number(port)}` : url.hostname;
  } catch {
    return null;
  }
}

/** The time one call moves its limit's next turn: (per + margin) / requests, rounded up to a microsecond. */
export function turnCostUs(limit: { requests: number; per: string }, marginMs: number): number {
  return Math.ceil(((parseDuration(limit.per) + marginMs) * 1000) / limit.requests);
}

/**
 * The turn a call takes in the limits it is under, given their next turns and the time now (µs), and their next
 * turns after it: the latest of now and their next turns, each then moved its own cost past the turn. The
 * arithmetic domain/destinationLimits/queries.ts performs, in SQL for one limit and here for several.
 */
export function takeTurnIn(nowUs: number, limits: readonly { nextTurnUs: number; costUs: number }[]): { atUs: number; nextTurnsUs: number[] } {
  const atUs = Math.max(nowUs, ...limits.map((l) => l.nextTurnUs));
  return { atUs, nextTurnsUs: limits.map((l) => atUs + l.costUs) };
}

/**
 * How far this process's monotonic clock is ahead of the database's, estimated as NTP does: the smallest (time an
 * answer was read here - the database's time in it) seen in the last `windowMs`. An answer is read after the database
 * wrote it, so the estimate is never below the true offset; it is above it by the fastest recent way back, a fraction
 * of a millisecond. A turn is then due here at its database time plus the offset, however long its own answer took
 * to be read (a busy event loop): that delay is lateness, not part of the wait. Samples age out so that the two
 * clocks' drift cannot accumulate; it assumes the database's clock is slewed, never stepped back.
 */
export class ClockOffset {
  /** Samples that can still be the smallest: times and offsets both increasing. */
  private readonly samples: { atMs: number; offsetMs: number }[] = [];

  constructor(private readonly windowMs = 10_000) {}

  /** An answer read here at `localMs` carried the database's `remoteMs`; answers the offset estimated from now on. */
  observe(localMs: number, remoteMs: number): number {
    const offsetMs = localMs - remoteMs;
    while (this.samples.length > 0 && this.samples[this.samples.length - 1]!.offsetMs >= offsetMs) this.samples.pop();
    this.samples.push({ atMs: localMs, offsetMs });
    while (this.samples[0]!.atMs < localMs - this.windowMs) this.samples.shift();
    return this.samples[0]!.offsetMs;
  }
}

/** How late after its turn a call may still start; later, it gives the turn up and queues again. */
export function lateToleranceMs(marginMs: number): number {
  return marginMs / 2;
}

/**
 * The limits one call is under, each once, sorted by key (the order rows are locked in): every organization limit
 * whose host (and port, when it names one) is the call's destination, and the node's own limit, keyed by its `key`,
 * else by the destination's host, else by the tool. A node's limit without a key and an organization limit on the
 * host share one key: the call costs the larger of the two there, which keeps both.
 */
export function limitsOfCall(input: {
  organizationLimits: readonly HostRateLimit[];
  nodeLimit: NodeRateLimit | undefined;
  toolId: string;
  destination: Destination | null;
  marginMs: number;
}): TurnLimit[] {
  const { destination, marginMs } = input;
  const costs = new Map<string, number>();
  const add = (key: string, limit: { requests: number; per: string }): void => {
    costs.set(key, Math.max(costs.get(key) ?? 0, turnCostUs(limit, marginMs)));
  };
  if (destination) {
    for (const limit of input.organizationLimits) {
      if (limit.host === destination.hostname || limit.host === `${destination.hostname}:${destination.port}`) add(`host:${limit.host}`, limit);
    }
  }
  const node = input.nodeLimit;
  if (node) add(node.key !== undefined ? `key:${node.key}` : destination ? `host:${destination.hostname}` : `tool:${input.toolId}`, node);
  return [...costs.entries()].map(([key, costUs]) => ({ key, costUs })).sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}
