import type { Client } from '@temporalio/client';
import { RUN_SEARCH_ATTRIBUTES } from '../lib/runs/searchAttributes';
import { compareSearchAttributes, INDEXED_VALUE_TYPE } from '../lib/temporalSetup';

export interface SearchAttributesReport {
  added: string[];
  /** present with another type: runs fail to start until an operator fixes it */
  conflicting: string[];
}

/**
 * Adds the run search attributes (lib/runs/searchAttributes.ts) that the namespace lacks. A server started by
 * scripts/services or docker-compose.yml has them, but one started before an attribute was added does not, and a
 * run start naming an unknown attribute is refused. Idempotent; two workers adding the same one at once is fine.
 */
export async function ensureSearchAttributes(client: Client, namespace: string): Promise<SearchAttributesReport> {
  const operator = client.connection.operatorService;
  const listed = async () => (await operator.listSearchAttributes({ namespace })).customAttributes ?? {};
  const existing = await listed();
  const compared = compareSearchAttributes(existing);
  const report: SearchAttributesReport = { added: [], conflicting: compared.mistyped };
  const missing = Object.fromEntries(
    Object.values(RUN_SEARCH_ATTRIBUTES)
      .filter((key) => compared.missing.includes(key.name))
      .map((key) => [key.name, INDEXED_VALUE_TYPE[key.type]]),
  );
  if (Object.keys(missing).length === 0) return report;
  try {
    await operator.addSearchAttributes({ namespace, searchAttributes: missing });
  } catch (err) {
    // Another worker may have added them meanwhile: only what is still missing is an error.
    const now = await listed();
    if (Object.keys(missing).some((name) => now[name] === undefined)) throw err;
  }
  report.added.push(...Object.keys(missing));
  return report;
}
