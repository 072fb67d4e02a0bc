import type { Config } from '../config';
import type { ProtectedEndpoint } from './ssrfGuard';

/**
 * The platform's own services, which no tenant destination may reach (by address and port, whatever the operator
 * allow-lists): derived from the configuration the processes themselves use, plus the operator's extra list
 * (OUTBOUND_PROTECTED_ENDPOINTS, e.g. the MinIO console or a cache that only the platform talks to).
 */
export function platformEndpoints(config: Config): ProtectedEndpoint[] {
  const endpoints: ProtectedEndpoint[] = [];
  const add = (host: string | undefined, port: number | undefined, name: string) => {
    if (host && port) endpoints.push({ host, port, name });
  };
  const fromUrl = (raw: string, name: string, defaultPort: number) => {
    try {
      const url = new URL(raw);
      add(url.hostname, url.port ? Number(url.port) : defaultPort, name);
    } catch {
      // an unparseable URL is refused by lib/config.ts before this runs
    }
  };
  fromUrl(config.database.url, 'PostgreSQL', 5432);
  add(config.minio.endPoint, config.minio.port, 'object storage (MinIO)');
  fromUrl(`grpc://${config.temporal.address}`, 'Temporal frontend', 7233);
  fromUrl(config.temporal.uiUrl, 'Temporal Web', 80);
  add(config.http.host, config.http.port, 'API');
  fromUrl(config.http.publicUrl, 'API', 80);
  add(config.mail.host, config.mail.port, 'SMTP relay');
  add(config.metrics.workerHost, config.metrics.workerPort, 'worker metrics');
  add(config.metrics.workerHost, config.metrics.workerSdkPort, 'worker metrics');
  add(config.metrics.api?.host, config.metrics.api?.port, 'API metrics');
  for (const extra of config.outbound.protectedEndpoints) fromUrl(`tcp://${extra}`, 'internal service', 0);
  return endpoints;
}
