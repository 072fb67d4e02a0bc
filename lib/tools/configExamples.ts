/**
 * A minimal config of each tool that has required fields: what a "missing key" problem shows as an example
 * (registry.ts validateToolInput). Every example validates against its tool's input schema
 * (test/unit/tools/configExamples.test.ts). A tool missing here gets an example built from its schema's types.
 */
export const CONFIG_EXAMPLES: Readonly<Record<string, Record<string, unknown>>> = {
  chat_message: { webhook_url: 'https://hooks.slack.com/services/T000/B000/XXXX', text: 'Run {{run.id}} finished' },
  classify: { text: '{{nodes.fetch.body}}', labels: ['billing', 'support', 'sales'] },
  content_read: { path: 'reports/latest.json' },
  content_write: { path: 'reports/latest.json', content: { ok: true } },
  csv_parse: { text: 'name,amount\nAda,42' },
  db_query: { sql: 'SELECT id, name FROM customers WHERE id = $1' },
  delay: { ms: 5000 },
  email_send: { to: 'ops@example.com', subject: 'Nightly report', text: 'All runs finished.' },
  embedding_generate: { input: 'the text to embed' },
  fail: { mode: 'always' },
  http_request: { url: 'https://api.example.com/items' },
  json_transform: { expression: '$.items[price > 10].name' },
  webhook_send: { url: 'https://hooks.example.com/loom', payload: { event: 'run.finished' }, secret: '{{secret.WEBHOOK_SECRET}}' },
  xml_parse: { text: '<order id="1"><item>book</item></order>' },
};

/** A placeholder value of a JSON schema's type, for a tool without an example here. */
export function placeholderFor(schema: unknown): unknown {
  const s = (schema ?? {}) as { type?: unknown; enum?: unknown[]; anyOf?: unknown[]; default?: unknown };
  if (s.default !== undefined) return s.default;
  if (Array.isArray(s.enum) && s.enum.length) return s.enum[0];
  if (Array.isArray(s.anyOf) && s.anyOf.length) return placeholderFor(s.anyOf[0]);
  switch (s.type) {
    case 'integer':
    case 'number':
      return 1;
    case 'boolean':
      return true;
    case 'array':
      return [];
    case 'object':
      return {};
    default:
      return '...';
  }
}
