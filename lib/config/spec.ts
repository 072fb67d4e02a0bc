import { z } from 'zod';
import { setting } from './settings';
import { auth, http, jwt, rateLimits } from './keys/api';
import { content } from './keys/content';
import { organizations } from './keys/organizations';
import { database, mail, minio, outbound, runAdmission, runs, runWait, temporal } from './keys/platform';
import { tools } from './keys/tools';
import { triggers } from './keys/triggers';
import { metrics, worker } from './keys/worker';

export { DEFAULT_MINIO_ACCESS_KEY, DEFAULT_MINIO_SECRET_KEY } from './keys/platform';
export type { PlanQuotas } from './keys/organizations';

/**
 * Every configuration key, once: its environment variable, schema, default and documentation, at the place its value
 * takes in `Config` (lib/config.ts), with the field's doc comment. The sections live in lib/config/keys/, one file
 * per part of the platform. The README's configuration table and `.env.example` are generated from the keys' docs
 * (`npm run generate:config-docs`; test/unit/configKeys.test.ts checks they are current).
 */
export const spec = {
  env: setting('NODE_ENV', z.enum(['development', 'test', 'production']).optional().default('development'), {
    meaning: 'one of `development`, `test`, `production`; `production` requires `SERVICE_ENCRYPTION_KEY` and non-default MinIO credentials, and warns when `/metrics` is public without a token',
    example: 'development',
  }),
  logLevel: setting('LOG_LEVEL', z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).optional().default('info'), {
    meaning: 'pino level',
    example: 'info',
  }),
  http,
  jwt,
  auth,
  rateLimits,
  organizations,
  database,
  temporal,
  runs,
  runAdmission,
  runWait,
  minio,
  mail,
  outbound,
  tools,
  metrics,
  worker,
  content,
  triggers,
};
