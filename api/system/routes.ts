import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import type { AppDeps } from '../../domain/deps';
import { checkReadiness } from './readiness';

const serviceStatus = z.object({ ok: z.boolean(), latencyMs: z.number(), error: z.string().optional() });
const readiness = z.object({
  status: z.enum(['ready', 'unavailable']),
  services: z.object({ postgres: serviceStatus, temporal: serviceStatus, minio: serviceStatus }),
});

export function systemRoutes(deps: AppDeps, openApi: () => unknown): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/healthz',
      operationId: 'health',
      summary: 'Liveness: the process answers',
      tags: ['system'],
      auth: 'public',
      responses: { 200: { description: 'alive', schema: z.object({ status: z.literal('ok') }) } },
      handler: async () => ({ body: { status: 'ok' } }),
    }),
    defineRoute({
      method: 'get',
      path: '/readyz',
      operationId: 'readiness',
      summary: 'Readiness: PostgreSQL, Temporal and MinIO each reported',
      description: 'Answers 503 (with the error envelope beside the report) while any backing service is down.',
      tags: ['system'],
      auth: 'public',
      responses: {
        200: { description: 'all services reachable', schema: readiness },
        503: { description: 'at least one service unreachable', schema: readiness },
      },
      handler: async () => {
        const services = await checkReadiness(deps);
        const ok = Object.values(services).every((s) => s.ok);
        if (ok) return { body: { status: 'ready', services } };
        const down = Object.entries(services)
          .filter(([, s]) => !s.ok)
          .map(([name]) => name);
        return {
          status: 503,
          body: {
            status: 'unavailable',
            services,
            error: { code: 'SERVICE_UNAVAILABLE', message: `unavailable: ${down.join(', ')}` },
          },
        };
      },
    }),
    defineRoute({
      method: 'get',
      path: '/openapi.json',
      operationId: 'openApiDocument',
      summary: 'This OpenAPI 3.1 document',
      tags: ['system'],
      auth: 'public',
      responses: { 200: { description: 'the document', schema: z.record(z.string(), z.unknown()) } },
      handler: async () => ({ body: openApi() }),
    }),
  ];
}
