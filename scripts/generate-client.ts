/**
 * Writes the typed client's schema, `client/generated/schema.d.ts`, from the OpenAPI document the route
 * declarations produce. Nothing external is started or contacted: the app is built in-process with a throwaway
 * configuration, and its clients (PostgreSQL, Temporal, MinIO, SMTP) are lazy, so they never connect.
 *
 *   npm run generate:client                 # regenerate the committed file
 *   tsx scripts/generate-client.ts --out D  # write into directory D instead (the staleness test does this)
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { createApp } from '../api/app';
import { closeDeps, createDeps } from '../domain/runtime';
import { loadConfig } from '../lib/config';

const HEADER = `/**
 * Generated from the Loom OpenAPI document by \`npm run generate:client\` (scripts/generate-client.ts).
 * Do not edit by hand: change the route declarations and regenerate. A test fails when this file is stale.
 */

`;

/** The OpenAPI document, built without any environment so the output depends on the code alone. */
export function buildDocument(): Record<string, unknown> {
  const config = loadConfig({
    NODE_ENV: 'development',
    LOG_LEVEL: 'silent',
    SERVICE_JWT_SECRET: 'generate-client-placeholder-secret-0123456789',
    SERVICE_ENCRYPTION_KEY: 'generate-client-placeholder-key-0123456789ab',
  });
  const deps = createDeps(config);
  const document = createApp(deps).openApi();
  void closeDeps(deps);
  return document;
}

export async function generateSchema(): Promise<string> {
  // Loaded here, not at the top: scripts/lint-openapi.ts (and its jest test) use buildDocument alone, and this
  // package's ESM dependencies do not load under jest's CommonJS runtime.
  const { default: openapiTS, astToString } = await import('openapi-typescript');
  const ast = await openapiTS(buildDocument() as unknown as Parameters<typeof openapiTS>[0], {
    alphabetize: true,
    exportType: false,
    // A request field with a default may be left out: keep it optional (answers list such fields as required).
    defaultNonNullable: false,
  });
  return HEADER + astToString(ast);
}

async function main(): Promise<void> {
  const outIndex = process.argv.indexOf('--out');
  const dir = outIndex > 0 ? path.resolve(process.argv[outIndex + 1] ?? '.') : path.join(__dirname, '..', 'client', 'generated');
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, 'schema.d.ts');
  writeFileSync(file, await generateSchema());
  console.log(`wrote ${path.relative(process.cwd(), file)}`);
  // Domains may hold timers (usage meter flushes); this is a one-shot command.
  process.exit(0);
}

if (require.main === module) {
  main().catch((err: unknown) => {
    console.error(`generate-client: ${(err as Error).stack ?? String(err)}`);
    process.exit(1);
  });
}
