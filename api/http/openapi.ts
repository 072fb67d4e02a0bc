import { exampleValue } from '../../lib/openapi/exampleValue';
import { z } from 'zod';
import { ERROR_CATALOG, type ErrorCode } from '../../lib/errors';
import { PERMISSIONS } from '../../lib/permissions';
import { SchemaComponents, type JsonSchema } from './openapiComponents';
import { errorExample, operationErrorExample, requestExamples, TAGS } from './openapiExamples';
import type { RouteDef } from './route';

/**
 * Builds the OpenAPI 3.1 document from the same route declarations that serve requests. Named zod schemas
 * (`.meta({ id })`) become components (api/http/openapiComponents.ts); examples and tag descriptions come from
 * api/http/openapiExamples.ts. `scripts/lint-openapi.ts` lints the result with Redocly (redocly.yaml).
 */

const errorEnvelopeSchema = z
  .object({
    error: z.object({
      code: z.enum(Object.keys(ERROR_CATALOG) as [ErrorCode, ...ErrorCode[]]),
      message: z.string(),
      details: z.array(z.object({ path: z.string(), problem: z.string() })).optional(),
      request_id: z.string().optional().describe('The X-Request-Id of the failing request: quote it when reporting a problem'),
    }),
  })
  .meta({ id: 'Error', description: 'The error envelope of every failed request; codes and statuses: lib/errors.ts' });

function parametersOf(route: RouteDef, components: SchemaComponents): JsonSchema[] {
  const out: JsonSchema[] = [];
  for (const [location, schema] of [
    ['path', route.params],
    ['query', route.query],
  ] as const) {
    if (!schema) continue;
    const json = components.convert(schema, 'input');
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
  // Account writes pass the per-user write gate (api/http/writeGate.ts); organization routes list it below.
  if (route.auth === 'user' && route.method !== 'get') codes.push('RATE_LIMITED');
  if (route.auth === 'org') {
    codes.push('FORBIDDEN', 'NOT_FOUND', 'NO_ACTIVE_ORGANIZATION', 'RATE_LIMITED', 'IP_NOT_ALLOWED', 'QUOTA_EXCEEDED', 'TWO_FACTOR_REQUIRED');
  }
  if (route.idempotent) codes.push('IDEMPOTENCY_CONFLICT');
  return codes;
}

/** The error codes an operation documents: its auth mode's, its body's and its own `errors`. */
export function documentedErrors(route: RouteDef): ErrorCode[] {
  return [...new Set([...defaultErrors(route), ...(route.errors ?? [])])];
}

/**
 * The error answers of an operation, by status, with an example per code: the operation's own when it has one, else a
 * reference to the code's example in `components.examples` (added to `usedExamples`).
 */
function errorResponses(route: RouteDef, errorSchema: JsonSchema, usedExamples: Set<ErrorCode>): Record<string, JsonSchema> {
  const byStatus = new Map<number, ErrorCode[]>();
  for (const code of documentedErrors(route)) {
    const status = ERROR_CATALOG[code].status;
    byStatus.set(status, [...(byStatus.get(status) ?? []), code]);
  }
  const out: Record<string, JsonSchema> = {};
  for (const [status, codes] of [...byStatus].sort(([a], [b]) => a - b)) {
    out[String(status)] = {
      description: codes.map((c) => `${c}: ${ERROR_CATALOG[c].description}`).join('; '),
      content: {
        'application/json': {
          schema: { ...errorSchema },
          examples: Object.fromEntries(
            codes.map((code) => {
              const own = operationErrorExample(route.operationId, code);
              if (own) return [code, { summary: ERROR_CATALOG[code].description, value: own }];
              usedExamples.add(code);
              return [code, { $ref: `#/components/examples/${code}` }];
            }),
          ),
        },
      },
    };
  }
  return out;
}

function requestBodyOf(route: RouteDef, components: SchemaComponents): JsonSchema | undefined {
  const examples = requestExamples(route.operationId);
  const withExamples = (media: JsonSchema): JsonSchema => (examples ? { ...media, examples } : media);
  if (route.rawBodyDoc) {
    return {
      required: true,
      ...(route.rawBodyDoc.description ? { description: route.rawBodyDoc.description } : {}),
      content: { [route.rawBodyDoc.contentType]: withExamples({ schema: route.rawBodyDoc.schema }) },
    };
  }
  if (!route.body) return undefined;
  const schema = components.convert(route.body, 'input');
  const content: Record<string, JsonSchema> = { 'application/json': withExamples({ schema }) };
  if (route.bodyFormats?.includes('yaml')) content['application/yaml'] = withExamples({ schema });
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

/**
 * An example on every success answer with a JSON body that has none: made from its schema and property names
 * (lib/openapi/exampleValue.ts), so Swagger UI and generated clients show plausible values.
 */
function addSuccessExamples(paths: Record<string, Record<string, JsonSchema>>, schemas: Record<string, JsonSchema>): void {
  for (const operations of Object.values(paths)) {
    for (const operation of Object.values(operations)) {
      for (const [status, response] of Object.entries(operation.responses as Record<string, JsonSchema>)) {
        if (!/^2\d\d$/.test(status)) continue;
        for (const media of Object.values((response.content ?? {}) as Record<string, JsonSchema>)) {
          if (!media.schema || media.examples) continue;
          media.examples = { answer: { summary: 'An example answer', value: exampleValue(media.schema as JsonSchema, schemas) } };
        }
      }
    }
  }
}

export function buildOpenApiDocument(routes: RouteDef[], info: { version: string; serverUrl: string }): JsonSchema {
  const components = new SchemaComponents();
  const errorSchema = components.convert(errorEnvelopeSchema, 'output');
  const paths: Record<string, Record<string, JsonSchema>> = {};
  const tagsUsed = new Set<string>();
  const errorExamplesUsed = new Set<ErrorCode>();
  for (const route of routes) {
    const responses: Record<string, JsonSchema> = {};
    for (const [status, spec] of Object.entries(route.responses)) {
      responses[status] = {
        description: spec.description,
        ...(spec.schema
          ? { content: { [spec.contentType ?? 'application/json']: { schema: components.convert(spec.schema, 'output') } } }
          : spec.contentType
            ? { content: { [spec.contentType]: {} } }
            : {}),
      };
    }
    Object.assign(responses, errorResponses(route, errorSchema, errorExamplesUsed));
    const requestBody = requestBodyOf(route, components);
    const parameters = parametersOf(route, components);
    for (const tag of route.tags) tagsUsed.add(tag);
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
  const schemas = components.finish(paths);
  addSuccessExamples(paths, schemas);
  // Declared tags in their declared order; a tag without a description is still listed (the linter flags it).
  const tags = [
    ...Object.entries(TAGS)
      .filter(([name]) => tagsUsed.has(name))
      .map(([name, description]) => ({ name, description })),
    ...[...tagsUsed].filter((name) => !(name in TAGS)).map((name) => ({ name })),
  ];
  return {
    openapi: '3.1.0',
    info: {
      title: 'Loom API',
      version: info.version,
      description:
        'Multi-tenant workflow platform. Errors always use the envelope `{ "error": { "code", "message", "details"? } }`. ' +
        'Lists take `limit` (default 20, max 100) and an opaque `cursor`, and answer `{ data, nextCursor }`.\n\n' +
        '**Getting a token.** `POST /api/auth/register` (or `POST /api/auth/login` for an existing account) answers ' +
        '`tokens.accessToken` (valid 15 minutes) and `tokens.refreshToken` (single use: `POST /api/auth/refresh` trades ' +
        'it for a new pair). Send the access token as `Authorization: Bearer <accessToken>` (in Swagger UI: Authorize, ' +
        'bearerAuth). Organization routes act on the session\'s active organization: create one with ' +
        '`POST /api/v1/organizations`, then `POST /api/auth/switch-organization` answers a token pair scoped to it. ' +
        'For scripts and servers, an owner or admin creates an API key (`POST /api/v1/organizations/{id}/api-keys`, ' +
        'shown once) and sends it as `X-API-Key: loom_...` (apiKeyHeader). A user with two-factor sign-in gets a ' +
        '`challenge` from login instead of tokens: answer it at `POST /api/auth/login/2fa`.',
      license: { name: 'Proprietary', identifier: 'LicenseRef-Proprietary' },
    },
    servers: [{ url: info.serverUrl }],
    tags,
    paths,
    components: {
      schemas,
      examples: Object.fromEntries(
        (Object.keys(ERROR_CATALOG) as ErrorCode[])
          .filter((code) => errorExamplesUsed.has(code))
          .map((code) => [code, { summary: ERROR_CATALOG[code].description, value: errorExample(code) }]),
      ),
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
