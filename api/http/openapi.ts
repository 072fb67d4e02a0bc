import { z } from 'zod';
import { ERROR_CATALOG, type ErrorCode } from '../../lib/errors';
import { PERMISSIONS } from '../../lib/permissions';
import type { RouteDef } from './route';

/** Builds the OpenAPI 3.1 document from the same route declarations that serve requests. */

type JsonSchema = Record<string, unknown>;

function toSchema(schema: z.ZodType, io: 'input' | 'output'): JsonSchema {
  const json = z.toJSONSchema(schema, { io, unrepresentable: 'any', target: 'draft-2020-12' }) as JsonSchema;
  delete json.$schema;
  return json;
}

const errorEnvelopeSchema: JsonSchema = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['code', 'message'],
      properties: {
        code: { type: 'string', enum: Object.keys(ERROR_CATALOG) },
        message: { type: 'string' },
        details: {
          type: 'array',
          items: {
            type: 'object',
            required: ['path', 'problem'],
            properties: { path: { type: 'string' }, problem: { type: 'string' } },
          },
        },
        request_id: { type: 'string', description: 'The X-Request-Id of the failing request: quote it when reporting a problem' },
      },
    },
  },
};

function parametersOf(route: RouteDef): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = toSchema(schema, 'input');
    const properties = (json.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((json.required as string[] | undefined) ?? []);
    for (const [name, prop] of Object.entries(properties)) {
      out.push({
        name,
        in: location,
        required: location === 'path' || required.has(name),
        schema: prop,
        ...(prop.description ? { description: prop.description } : {}),
      });
    }
  }
  if (route.idempotent) {
    out.push({
      name: 'Idempotency-Key',
      in: 'header',
      required: false,
      schema: { type: 'string', minLength: 1, maxLength: 255 },
      description:
        'Repeat the request safely: the same key with the same request within 24 hours answers the first response ' +
        '(header `Idempotent-Replayed: true`); the same key with a different request answers 409 IDEMPOTENCY_CONFLICT.',
    });
  }
  return out;
}

function defaultErrors(route: RouteDef): ErrorCode[] {
  const codes: ErrorCode[] = ['VALIDATION_ERROR', 'SERVICE_UNAVAILABLE'];
  if (route.body) codes.push('INVALID_JSON', 'PAYLOAD_TOO_LARGE', 'UNSUPPORTED_MEDIA_TYPE');
  if (route.auth !== 'public') codes.push('UNAUTHORIZED', 'INVALID_TOKEN', 'SESSION_EXPIRED');
  if (route.auth === 'org') {
    codes.push('FORBIDDEN', 'NOT_FOUND', 'NO_ACTIVE_ORGANIZATION', 'RATE_LIMITED', 'IP_NOT_ALLOWED', 'QUOTA_EXCEEDED', 'TWO_FACTOR_REQUIRED');
  }
  if (route.idempotent) codes.push('IDEMPOTENCY_CONFLICT');
  return codes;
}

function errorResponses(route: RouteDef): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of new Set([...defaultErrors(route), ...(route.errors ?? [])])) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, JsonSchema> = {};
  for (const [status, codes] of byStatus) {
    out[String(status)] = {
      description: codes.map((c) => `${c}: ${ERROR_CATALOG[c].description}`).join('; '),
      content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
    };
  }
  return out;
}

function requestBodyOf(route: RouteDef): JsonSchema | undefined {
  if (route.rawBodyDoc) {
    return {
      required: true,
      ...(route.rawBodyDoc.description ? { description: route.rawBodyDoc.description } : {}),
      content: { [route.rawBodyDoc.contentType]: { schema: route.rawBodyDoc.schema } },
    };
  }
  if (!route.body) return undefined;
  const schema = toSchema(route.body, 'input');
  const content: Record<string, JsonSchema> = { 'application/json': { schema } };
  if (route.bodyFormats?.includes('yaml')) content['application/yaml'] = { schema };
  return { required: true, content };
}

function securityOf(route: RouteDef): JsonSchema[] | undefined {
  if (route.auth === 'public') return [];
  if (route.auth === 'user') return [{ bearerAuth: [] }];
  return [{ bearerAuth: [] }, { apiKeyHeader: [] }];
}

function roleNote(route: RouteDef): string {
  if (route.auth === 'public') return 'Authentication: none.';
  if (route.auth === 'user') return 'Authentication: bearer access token.';
  const roles = route.permission ? PERMISSIONS[route.permission].join(', ') : 'any member';
  const scope =
    route.organizationFrom === 'path'
      ? 'the organization in the path'
      : "the session's active organization (or the API key's organization)";
  return `Authentication: bearer access token or API key. Acts on ${scope}. Roles: ${roles}${
    route.permission ? ` (permission \`${route.permission}\`)` : ''
  }.`;
}

export function buildOpenApiDocument(routes: RouteDef[], info: { version: string; serverUrl: string }): JsonSchema {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const route of routes) {
    const responses: Record<string, JsonSchema> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      responses[status] = {
        description: spec.description,
        ...(spec.schema
          ? { content: { [spec.contentType ?? 'application/json']: { schema: toSchema(spec.schema, 'output') } } }
          : spec.contentType
            ? { content: { [spec.contentType]: {} } }
            : {}),
      };
    }
    Object.assign(responses, errorResponses(route));
    const requestBody = requestBodyOf(route);
    const parameters = parametersOf(route);
    (paths[route.path] ??= {})[route.method] = {
      operationId: route.operationId,
      summary: route.summary,
      description: [route.description, roleNote(route)].filter(Boolean).join('\n\n'),
      tags: route.tags,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
      security: securityOf(route),
      ...(route.permission ? { 'x-permission': route.permission } : {}),
    };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Loom API',
      version: info.version,
      description:
        'Multi-tenant workflow platform. Errors always use the envelope `{ "error": { "code", "message", "details"? } }`. ' +
        'Lists take `limit` (default 20, max 100) and an opaque `cursor`, and answer `{ data, nextCursor }`.',
    },
    servers: [{ url: info.serverUrl }],
    paths,
    components: {
      schemas: { Error: errorEnvelopeSchema },
      securitySchemes: {
        bearerAuth: {
          type: 'http',
          scheme: 'bearer',
          bearerFormat: 'JWT',
          description: 'Access token from /api/auth/login, or an organization API key (prefix `loom_`).',
        },
        apiKeyHeader: { type: 'apiKey', in: 'header', name: 'X-API-Key' },
      },
    },
  };
}
