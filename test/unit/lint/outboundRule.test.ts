import { lintCases } from '../../helpers/lint';

/**
 * The lint rule behind the outbound policy: a raw network client planted in a domain, activity or worker file is
 * an error; the same code in lib/net (the guard's home) and type-only imports are not.
 */
const refused: [string, string][] = [
  ['activities/tools/planted.ts', "export const f = () => fetch('http://x/');\n"],
  ['activities/tools/planted.ts', "import { Client } from 'pg';\nexport const c = new Client({});\n"],
  ['activities/tools/planted.ts', "import pg from 'pg';\nexport const c = new pg.Client({});\n"],
  ['api/content/planted.ts', "import http from 'node:http';\nexport const r = http.request('http://x/');\n"],
  ['api/content/planted.ts', "import * as https from 'https';\nexport const r = https.get('https://x/');\n"],
  ['api/content/planted.ts', "import { request } from 'node:https';\nexport const r = request;\n"],
  ['lib/embeddings/planted.ts', "import net from 'node:net';\nexport const s = net.connect(5432, '127.0.0.1');\n"],
  ['lib/embeddings/planted.ts', "import { connect } from 'node:tls';\nexport const s = connect;\n"],
  ['worker/planted.ts', "import { fetch as f } from 'undici';\nexport const x = f;\n"],
  ['worker/planted.ts', "export const m = () => import('node:net');\n"],
  ['api/planted.ts', "// eslint-disable-next-line @typescript-eslint/no-require-imports\nexport const m = require('node:http2');\n"],
];
const allowed: [string, string][] = [
  ['lib/net/planted.ts', "import http from 'node:http';\nexport const r = http.request;\n"],
  ['activities/tools/planted.ts', "import type { Client } from 'pg';\nexport type C = Client;\n"],
  ['worker/planted.ts', "import { createServer } from 'node:http';\nexport const s = createServer();\n"],
  ['api/planted.ts', "import type { AddressInfo } from 'node:net';\nexport type A = AddressInfo;\n"],
];
let results: string[][] = [];

beforeAll(() => {
  results = lintCases([...refused, ...allowed]).map((messages) =>
    messages.filter((m) => /lib\/net|fetch/.test(m.message)).map((m) => m.ruleId ?? ''),
  );
}, 60_000);

const problems = (index: number): string[] => results[index] ?? ['missing'];

describe('outbound lint rule', () => {
  test.each(refused.map((c, i) => [...c, i] as const))('%s: %j is refused', (_file, _code, index) => {
    expect(problems(index)).not.toHaveLength(0);
  });

  test.each(allowed.map((c, i) => [...c, refused.length + i] as const))('%s: %j is allowed', (_file, _code, index) => {
    expect(problems(index)).toEqual([]);
  });
});
