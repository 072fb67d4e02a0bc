import { compileSpec } from '../../helpers/runs';
import { isCredentialHeader, isCredentialKey, scanDefinitionCredentials, scanInlineCredentials } from '../../../lib/dag/inlineCredentials';
import {
  definitionSecretReferences,
  findSecretReferences,
  hasSecretReferences,
  replaceSecretReferences,
  secretReferenceProblems,
} from '../../../lib/dag/secretReferences';

describe('secret references', () => {
  test('whole values and references inside strings are found, with their paths', () => {
    const config = {
      url: 'https://api.example.com/v1',
      headers: { authorization: 'Bearer {{secret.API_TOKEN}}', 'x-two': '{{ secret.A }}:{{secret.B_2}}' },
      list: ['{{secret.IN_LIST}}'],
    };
    expect(findSecretReferences(config, 'cfg')).toEqual([
      { name: 'API_TOKEN', path: 'cfg.headers.authorization' },
      { name: 'A', path: 'cfg.headers.x-two' },
      { name: 'B_2', path: 'cfg.headers.x-two' },
      { name: 'IN_LIST', path: 'cfg.list[0]' },
    ]);
    expect(hasSecretReferences(config)).toBe(true);
    expect(hasSecretReferences({ a: '${params.x}', b: '{{other}}' })).toBe(false);
    expect(secretReferenceProblems(config, 'cfg')).toEqual([]);
  });

  test('malformed references are problems; plain braces are not', () => {
    const problems = secretReferenceProblems(
      { a: '{{secret.lower}}', b: '{{secrets.X}}', c: '{{secret.X', d: '{{ other }}', e: 'x {{secret.OK}} y' },
      'cfg',
    );
    expect(problems.map((p) => p.path)).toEqual(['cfg.a', 'cfg.b', 'cfg.c']);
    expect(hasSecretReferences({ a: '{{secret.lower}}' })).toBe(true);
  });

  test('replace substitutes each reference and leaves the rest', () => {
    expect(replaceSecretReferences('postgres://app:{{secret.DB}}@h/{{ secret.NAME }}', (n) => `<${n}>`)).toBe('postgres://app:<DB>@h/<NAME>');
  });

  test('definition references include fallback handler configs', () => {
    const definition = compileSpec({
      nodes: [{ id: 'call', type: 'tool', config: { tool: 'http_request', config: { url: 'https://x/{{secret.PATH_KEY}}' } } }],
      errorHandling: { node_overrides: { call: { strategy: 'fallback', handler: 'webhook_send', handler_config: { secret: '{{secret.HOOK}}' } } } },
    });
    expect(definitionSecretReferences(definition)).toEqual([
      { name: 'PATH_KEY', path: 'dag.nodes.call.config.config.url' },
      { name: 'HOOK', path: 'error_handling.node_overrides.call.handler_config.secret' },
    ]);
  });
});

describe('inline credential detector', () => {
  test('passwords in URLs and connection strings are found and redacted', () => {
    const { problems, redacted } = scanInlineCredentials(
      {
        connection_string: 'postgres://app:hunter2@db.example.com:5432/app',
        dsn: 'host=db.example.com user=app password=hunter2 dbname=app',
        odbc: 'Server=x;Uid=app;Pwd=hunter2;',
        url: 'https://api.example.com/v1?api_key=abc123&q=1',
      },
      'cfg',
    );
    expect(problems.map((p) => p.path)).toEqual(['cfg.connection_string', 'cfg.dsn', 'cfg.odbc', 'cfg.url']);
    expect(JSON.stringify(redacted)).not.toContain('hunter2');
    expect(JSON.stringify(redacted)).not.toContain('abc123');
    expect(redacted).toMatchObject({
      connection_string: 'postgres://app:****@db.example.com:5432/app',
      url: 'https://api.example.com/v1?api_key=****&q=1',
    });
  });

  test('credential headers and credential-named keys with literal values', () => {
    const { problems, redacted } = scanInlineCredentials(
      {
        headers: { Authorization: 'Bearer abc', 'X-API-Key': 'k', Cookie: 'sid=1', 'Content-Type': 'application/json', 'Idempotency-Key': 'x' },
        api_key: 'k2',
        clientSecret: 'k3',
        password: 1234,
        max_tokens: 50,
        nested: { refresh_token: 'k4' },
      },
      'cfg',
    );
    expect(problems.map((p) => p.path).sort()).toEqual(
      ['cfg.api_key', 'cfg.clientSecret', 'cfg.headers.Authorization', 'cfg.headers.Cookie', 'cfg.headers.X-API-Key', 'cfg.nested.refresh_token', 'cfg.password'].sort(),
    );
    expect(redacted).toMatchObject({ headers: { Authorization: '****', 'Content-Type': 'application/json', 'Idempotency-Key': 'x' }, max_tokens: 50 });
  });

  test('secret references, templates and empty values are not literal credentials', () => {
    const clean = {
      connection_string: 'postgres://app:{{secret.DB_PASSWORD}}@db.example.com/app',
      other: 'postgres://app:${params.password}@db.example.com/app',
      nouser: 'postgres://db.example.com/app',
      headers: { authorization: 'Bearer {{secret.TOKEN}}', 'x-api-key': '${params.key}', cookie: '' },
      token: '{{secret.TOKEN}}',
      dsn: 'host=x password={{secret.DB_PASSWORD}}',
    };
    const { problems, redacted } = scanInlineCredentials(clean, 'cfg');
    expect(problems).toEqual([]);
    expect(redacted).toBe(clean);
  });

  test('names: credential headers and keys', () => {
    expect(['authorization', 'Proxy-Authorization', 'x-api-key', 'api-key', 'X-Auth-Token', 'cookie', 'Ocp-Apim-Subscription-Key'].every(isCredentialHeader)).toBe(true);
    expect(['content-type', 'idempotency-key', 'accept', 'x-request-id'].some(isCredentialHeader)).toBe(false);
    expect(['api_key', 'apiKey', 'password', 'token', 'secret', 'access_token', 'aws_secret_access_key', 'private_key', 'pwd'].every(isCredentialKey)).toBe(true);
    expect(['max_tokens', 'idempotency_key', 'key', 'path', 'tool', 'secret_name'].some(isCredentialKey)).toBe(false);
  });

  test('a stored definition is redacted node by node and in fallback handler configs', () => {
    const definition = compileSpec({
      nodes: [
        { id: 'db', type: 'tool', config: { tool: 'db_query', config: { connection_string: 'postgres://u:pw@h/d', sql: 'select 1' } } },
        { id: 'ok', type: 'tool', config: { tool: 'json_transform', config: { input: 1, expression: '$' } } },
      ],
      errorHandling: { node_overrides: { db: { strategy: 'fallback', handler: 'webhook_send', handler_config: { secret: 'whsec_literal' } } } },
    });
    const { problems, redacted } = scanDefinitionCredentials(definition);
    expect(problems.map((p) => p.path)).toEqual(['dag.nodes.db.config.config.connection_string', 'error_handling.node_overrides.db.handler_config.secret']);
    expect(JSON.stringify(redacted)).not.toMatch(/:pw@|whsec_literal/);
    expect(redacted.dag.nodes[1]).toBe(definition.dag.nodes[1]);
    expect(JSON.stringify(definition)).toContain(':pw@');
  });
});
