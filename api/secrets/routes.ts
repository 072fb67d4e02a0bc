import { z } from 'zod';
import { defineRoute, type RouteDef } from '../http/route';
import { putSecretBody, secretNameParams, secretSchema } from '../../domain/secrets/schemas';
import { serializeSecret } from '../../domain/secrets/serializers';
import type { SecretsService } from '../../domain/secrets/service';

const tags = ['secrets'];
const reference =
  'Node configs use a secret as `{{secret.NAME}}`, resolved by the worker right before the tool runs (docs/secrets.md).';

export function secretRoutes(s: SecretsService): RouteDef[] {
  return [
    defineRoute({
      method: 'get',
      path: '/api/v1/secrets',
      operationId: 'listSecrets',
      summary: "List the organization's secrets (names and metadata, never values)",
      description: `Sorted by name; not paginated (an organization holds at most 500). ${reference}`,
      tags,
      auth: 'org',
      permission: 'secrets:read',
      responses: {
        200: { description: 'every secret', schema: z.object({ data: z.array(secretSchema), nextCursor: z.null() }) },
      },
      handler: async ({ organization }) => ({
        body: { data: (await s.list(organization.organizationId)).map(serializeSecret), nextCursor: null },
      }),
    }),
    defineRoute({
      method: 'put',
      path: '/api/v1/secrets/{name}',
      operationId: 'putSecret',
      summary: 'Create or replace a secret (write-only: its value is never returned)',
      description: `Answers 201 when created, 200 when replaced; audited as secret.created / secret.updated. ${reference}`,
      tags,
      auth: 'org',
      permission: 'secrets:write',
      params: secretNameParams,
      body: putSecretBody,
      responses: {
        200: { description: 'replaced', schema: secretSchema },
        201: { description: 'created', schema: secretSchema },
      },
      errors: ['CONFLICT'],
      handler: async ({ organization, actor, params, body }) => {
        const { row, created } = await s.put(organization.organizationId, actor, params.name, body.value);
        return { status: created ? 201 : 200, body: serializeSecret(row) };
      },
    }),
    defineRoute({
      method: 'delete',
      path: '/api/v1/secrets/{name}',
      operationId: 'deleteSecret',
      summary: 'Delete a secret',
      description:
        'Audited as secret.deleted. Workflows that still reference it can no longer be saved, and their runs fail ' +
        'with UNKNOWN_SECRET at the node that uses it.',
      tags,
      auth: 'org',
      permission: 'secrets:write',
      params: secretNameParams,
      responses: { 204: { description: 'deleted' } },
      handler: async ({ organization, actor, params }) => {
        await s.remove(organization.organizationId, actor, params.name);
        return { status: 204 };
      },
    }),
  ];
}
