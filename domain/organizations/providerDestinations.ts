import type { Config } from '../../lib/config';
import { AppError } from '../../lib/errors';
import { outboundGuards } from '../../lib/net/outbound';
import { SsrfRefusedError } from '../../lib/net/ssrfGuard';
import type { SettingsUpdate } from './settingsModel';

/** Config keys of a third-party integration that name an endpoint the platform calls (`baseUrl` of `llm`, `embeddings`). */
const ENDPOINT_KEY = /url$/i;

/**
 * Checks the provider endpoints an update sets (`integration.thirdParty.<name>.config.baseUrl`, and any other
 * `...Url` key) with the outbound policy their calls go through (lib/net/outbound.ts `tools`: LLM, classify and
 * embedding providers): a URL that could never be called is refused when it is saved, 422 naming the field and the
 * operator setting that would allow it (TOOLS_HTTP_ALLOWED_HOSTS), instead of failing every run and every upload
 * later, as webhook endpoints already are (webhookEndpoints.ts). A host that does not resolve (yet) is accepted: DNS
 * can change, the policy cannot. The check happens again at every call.
 */
export async function vetProviderDestinations(config: Config, thirdParty: NonNullable<SettingsUpdate['integration']>['thirdParty']): Promise<void> {
  if (!thirdParty) return;
  const guard = outboundGuards(config).tools;
  for (const [name, integration] of Object.entries(thirdParty)) {
    for (const [key, value] of Object.entries(integration?.config ?? {})) {
      if (!ENDPOINT_KEY.test(key)) continue;
      try {
        await guard.vet(value);
      } catch (err) {
        if (!(err instanceof SsrfRefusedError)) continue;
        throw new AppError('UNPROCESSABLE', `the ${name} endpoint ${value} can never be called: ${err.message}`, [
          { path: `body.integration.thirdParty.${name}.config.${key}`, problem: err.message },
        ]);
      }
    }
  }
}
