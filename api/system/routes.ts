import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import type { AppDeps } from '../../domain/deps';
import { checkReadiness } from './readiness';

const checkStatus = z.object({
  ok: z.boolean(),
  error: z.string().optional().describe('`unreachable`, or the configuration problem (the namespace or search attributes to create)'),
  kind: z.enum(['configuration', 'unreachable']).optional(),
});
const serviceStatus = checkStatus.extend({
  latencyMs: z.number(),
  checks: z
    .record(z.string(), checkStatus)
    .optional()
    .describe('temporal: `frontend`, `namespace`, `searchAttributes` (Loom\'s run attributes registered with their types), `history`'),
});
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
      summary: 'Readiness: a run can start now; PostgreSQL, Temporal and MinIO each reported',
      description:
        'Answers 503 (with the error envelope beside the report) while any backing service is down or Temporal is ' +
        'not set up for runs: for Temporal, the frontend, the namespace, Loom\'s search attributes and the history ' +
        'service are each checked (`services.temporal.checks`). The error code tells an outage ' +
        '(`SERVICE_UNAVAILABLE`) from a configuration an operator must fix (`ENGINE_MISCONFIGURED`, the message ' +
        'names what).',
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
        const failing = Object.entries(services).filter(([, s]) => !s.ok);
        const misconfigured = failing.filter(([, s]) => s.kind === 'configuration');
        const error = misconfigured.length
          ? { code: 'ENGINE_MISCONFIGURED', message: `not set up: ${misconfigured.map(([name, s]) => `${name}: ${s.error}`).join('; ')}` }
          : { code: 'SERVICE_UNAVAILABLE', message: `unavailable: ${failing.map(([name]) => name).join(', ')}` };
        return { status: 503, body: { status: 'unavailable', services, error } };
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
