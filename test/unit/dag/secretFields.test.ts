import { getTool, listTools, toolShapeProblems } from '../../../activities/tools/registry';
import { inUserinfo, parseSecretField, secretFieldAt, secretFieldProblems, SECRET_FIELD } from '../../../lib/dag/secretFields';

/** Where tools accept `{{secret.NAME}}` (lib/dag/secretFields.ts, docs/secrets.md#where-references-are-accepted). */

const HTTP = ['headers.*', 'url:userinfo'];

describe('secret fields', () => {
  test('patterns: a dot path, `*` for any key, `:userinfo` for a URL', () => {
    expect(parseSecretField('headers.*')).toEqual({ segments: ['headers', '*'], part: 'value' });
    expect(parseSecretField('url:userinfo')).toEqual({ segments: ['url'], part: 'userinfo' });
    for (const bad of ['', '.a', 'a..b', 'a.', 'a:b', 'a b', 'a:userinfo:userinfo']) expect(parseSecretField(bad)).toBeNull();
    expect(secretFieldAt(HTTP, ['headers', 'X.Custom'])).toEqual({ segments: ['headers', '*'], part: 'value' });
    expect(secretFieldAt(HTTP, ['headers'])).toBeNull();
    expect(secretFieldAt(HTTP, ['headers', 'a', 'b'])).toBeNull();
    expect(secretFieldAt(HTTP, ['body'])).toBeNull();
  });

  test('user information: after scheme:// and before the @ that ends it, nowhere else', () => {
    const at = (text: string): boolean => {
      const start = text.indexOf('<S>');
      return inUserinfo(text, start, start + 3);
    };
    expect(at('https://<S>@h.example/')).toBe(true);
    expect(at('https://user:<S>@h.example/')).toBe(true);
    expect(at('postgres://app:<S>@db.example.com:5432/app')).toBe(true);
    expect(at('https://${params.user}:<S>@h.example/')).toBe(true);
    for (const text of ['https://h.example/<S>', 'https://h.example/?k=<S>', 'https://<S>.example/', 'https://h.example/#<S>',
      'https://h.example/p@<S>', 'https://h.example/<S>@x', '<S>', 'https://a@b:<S>@h/', '${"https://u:" & "<S>"}@h', 'https:/<S>@h']) {
      expect([text, at(text)]).toEqual([text, false]);
    }
  });

  test("the finding: json_transform takes no references anywhere, nor do other tools' non-credential fields", () => {
    const json = getTool('json_transform')!;
    expect(json.secretFields ?? []).toEqual([]);
    const refused = secretFieldProblems('json_transform', json.secretFields ?? [], {
      expression: '$base64encode("{{secret.SEC_TOKEN}}")',
      data: { token: '{{ secret.SEC_TOKEN }}' },
      bindings: { s: '{{secret.SEC_TOKEN}}' },
    }, 'body.config');
    expect(refused.map((p) => p.path)).toEqual(['body.config.expression', 'body.config.data.token', 'body.config.bindings.s']);
    expect(refused[0]!.problem).toContain('the json_transform tool accepts no secret references');

    const http = secretFieldProblems('http_request', getTool('http_request')!.secretFields ?? [], {
      url: 'https://u:{{secret.PW}}@api.example.com/v1/{{secret.A}}?k={{secret.B}}',
      headers: { authorization: 'Bearer {{secret.T}}', 'x-two': '${params.x} {{secret.T}}' },
      query: { k: '{{secret.Q}}' },
      body: { t: '{{secret.T}}' },
    }, 'c');
    expect(http.map((p) => p.path)).toEqual(['c.url', 'c.query.k', 'c.body.t']);
    const db = getTool('db_query')!.secretFields ?? [];
    expect(secretFieldProblems('db_query', db, { connection_string: 'postgres://app:{{secret.PW}}@db.example.com/app' }, 'c')).toEqual([]);
    expect(secretFieldProblems('db_query', db, { connection_string: 'postgres://app@db.example.com/{{secret.PW}}' }, 'c')).toEqual([
      { path: 'c.connection_string', problem: expect.stringContaining("connection_string (in the URL's user information") },
    ]);
  });

  test('every built-in tool declares only well-formed fields; a custom tool with malformed ones does not load', () => {
    for (const tool of listTools()) for (const field of tool.secretFields ?? []) expect([tool.id, SECRET_FIELD.test(field)]).toEqual([tool.id, true]);
    const declaring = Object.fromEntries(listTools().filter((t) => t.secretFields?.length).map((t) => [t.id, t.secretFields]));
    expect(declaring).toEqual({
      chat_message: ['webhook_url'],
      db_query: ['connection_string:userinfo'],
      http_request: ['headers.*'],
      webhook_send: ['secret', 'headers.*'],
    });
    const tool = { ...getTool('json_transform')!, secretFields: ['expression.'] };
    expect(toolShapeProblems(tool)).toEqual([expect.stringContaining('secretFields')]);
  });
});
