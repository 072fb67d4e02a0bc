import { z } from 'zod';
import { RATE_LIMIT_MAX_REQUESTS, ratePeriodSchema } from '../../lib/dag/model';
import { normalizeLimitHost } from '../../lib/destinationLimits';
import { echo } from '../../lib/echo';

/** At most this many limits in an organization's settings. */
export const MAX_HOST_RATE_LIMITS = 100;

/**
 * One limit of the organization's settings (`integration.rateLimits`, docs/runs.md#rate-limits-on-destinations):
 * every tool call to `host` in every run of the organization, at most `requests` starting per `per`.
 */
export const hostRateLimitSchema = z
  .strictObject({
    host: z
      .string()
      .min(1)
      .max(300)
      .transform((text, ctx) => {
        const host = normalizeLimitHost(text);
        if (host !== null) return host;
        ctx.addIssue({ code: 'custom', message: 'a host name or IP address, with an optional :port, such as api.partner.example or 203.0.113.7:8443 (no scheme, no path)' });
        return z.NEVER;
      })
      .describe('the destination: a host name or IP address, with `:port` to limit that port only; stored lower case (IDNs in punycode)'),
    requests: z.number().int().min(1).max(RATE_LIMIT_MAX_REQUESTS).describe('calls that may start per period, 1-10,000'),
    per: ratePeriodSchema.describe('the period, from 100ms to 1h: 1s, 1m, 1h'),
  })
  .meta({ id: 'HostRateLimitInput', description: 'A rate limit on one destination host, shared by every run of the organization' });

export const hostRateLimitsSchema = z
  .array(hostRateLimitSchema)
  .max(MAX_HOST_RATE_LIMITS)
  .superRefine((limits, ctx) => {
    const seen = new Map<string, number>();
    limits.forEach((limit, i) => {
      const first = seen.get(limit.host);
      if (first !== undefined) ctx.addIssue({ code: 'custom', path: [i, 'host'], message: `${echo(limit.host)} has a limit already (at ${first}): one limit per host` });
      else seen.set(limit.host, i);
    });
  });

export type HostRateLimitInput = z.output<typeof hostRateLimitSchema>;
