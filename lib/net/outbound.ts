import type { Config } from '../config';
import { platformEndpoints } from './platformEndpoints';
import { createSsrfGuard, type SsrfGuard } from './ssrfGuard';

/**
 * The one outbound policy, per configuration: the guards every tenant-named destination goes through. They differ
 * only in the operator's allow-list (and so in the setting a refusal names); the platform's own services are
 * refused by all of them.
 * - `tools`: workflow tools (http_request, chat, db_query, LLM/classify, organization embedding providers).
 * - `webhooks`: outgoing webhook deliveries.
 * - `operator`: endpoints the operator configured (global LLM / embedding base URLs): their hosts are allowed
 *   whatever their address, the platform's services still are not.
 */
export interface OutboundGuards {
  tools: SsrfGuard;
  webhooks: SsrfGuard;
  operator: SsrfGuard;
}

const cache = new WeakMap<Config, OutboundGuards>();

export function outboundGuards(config: Config): OutboundGuards {
  let guards = cache.get(config);
  if (!guards) {
    const protectedEndpoints = platformEndpoints(config);
    const operatorHosts = [config.tools.llm.baseUrl, config.content.embedding.baseUrl]
      .map((u) => (u ? safeHostname(u) : null))
      .filter((h): h is string => h !== null);
    guards = {
      tools: createSsrfGuard({ allow: config.tools.http.allowedHosts, allowSetting: 'TOOLS_HTTP_ALLOWED_HOSTS', protectedEndpoints }),
      webhooks: createSsrfGuard({
        allow: config.triggers.delivery.allowedPrivateHosts,
        allowSetting: 'WEBHOOKS_ALLOWED_PRIVATE_HOSTS',
        protectedEndpoints,
      }),
      operator: createSsrfGuard({
        allow: [...config.tools.http.allowedHosts, ...operatorHosts],
        allowSetting: 'TOOLS_HTTP_ALLOWED_HOSTS',
        protectedEndpoints,
      }),
    };
    cache.set(config, guards);
  }
  return guards;
}

function safeHostname(url: string): string | null {
  try {
    return new URL(url).hostname.replace(/^\[|\]$/g, '');
  } catch {
    return null;
  }
}
