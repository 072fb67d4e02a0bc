import { NamespaceNotFoundError, type Client } from '@temporalio/client';
import { RUN_SEARCH_ATTRIBUTES } from './runs/searchAttributes';

/**
 * What Loom needs of its Temporal namespace besides a reachable frontend (docs/operating.md#readiness): the namespace
 * itself, Loom's search attributes with their types, and a history service that answers. A start refused for the
 * first two keeps failing until an operator acts, so it is told apart from an outage (engineMisconfiguration).
 */

/** temporal.api.enums.v1.IndexedValueType by the SDK's type names. */
export const INDEXED_VALUE_TYPE = { TEXT: 1, KEYWORD: 2, INT: 3, DOUBLE: 4, BOOL: 5, DATETIME: 6, KEYWORD_LIST: 7 } as const;

const GRPC_INVALID_ARGUMENT = 3;
const GRPC_NOT_FOUND = 5;

function grpcCode(err: unknown): number | undefined {
  const e = err as { code?: unknown; cause?: { code?: unknown } };
  const code = typeof e.code === 'number' ? e.code : e.cause?.code;
  return typeof code === 'number' ? code : undefined;
}

/** Why a start was refused for the engine's set-up, or null when the refusal is something else (an outage). */
export function engineMisconfiguration(err: unknown): string | null {
  if (err instanceof NamespaceNotFoundError) return `namespace ${err.namespace} does not exist`;
  const details = String((err as { cause?: { details?: unknown } }).cause?.details ?? (err as Error).message ?? '');
  const unmapped = /has no mapping defined for search attribute (\S+)/.exec(details);
  if (grpcCode(err) === GRPC_INVALID_ARGUMENT && unmapped) return `search attribute ${unmapped[1]} is not registered in the namespace`;
  if (grpcCode(err) === GRPC_NOT_FOUND && /namespace/i.test(details) && /not found/i.test(details)) return 'the namespace does not exist';
  return null;
}

export type SetupCheck = { ok: true } | { ok: false; kind: 'configuration' | 'unreachable'; problem: string };

/** The namespace exists. */
export async function checkNamespace(client: Client, namespace: string): Promise<SetupCheck> {
  try {
    await client.connection.workflowService.describeNamespace({ namespace });
    return { ok: true };
  } catch (err) {
    if (err instanceof NamespaceNotFoundError || grpcCode(err) === GRPC_NOT_FOUND) {
      return { ok: false, kind: 'configuration', problem: `namespace ${namespace} does not exist` };
    }
    throw err;
  }
}

/** Loom's run search attributes against a namespace's registered ones (name → IndexedValueType). */
export function compareSearchAttributes(registered: Record<string, unknown>): { missing: string[]; mistyped: string[] } {
  const missing: string[] = [];
  const mistyped: string[] = [];
  for (const key of Object.values(RUN_SEARCH_ATTRIBUTES)) {
    const present = registered[key.name];
    if (present === undefined || present === null) missing.push(key.name);
    else if (Number(present) !== INDEXED_VALUE_TYPE[key.type]) mistyped.push(key.name);
  }
  return { missing, mistyped };
}

/** Every run search attribute is registered with its type. */
export async function checkSearchAttributes(client: Client, namespace: string): Promise<SetupCheck> {
  const registered = (await client.connection.operatorService.listSearchAttributes({ namespace })).customAttributes ?? {};
  const { missing, mistyped } = compareSearchAttributes(registered);
  if (!missing.length && !mistyped.length) return { ok: true };
  const problems = [
    ...(missing.length ? [`not registered: ${missing.join(', ')}`] : []),
    ...(mistyped.length ? [`registered with another type: ${mistyped.join(', ')}`] : []),
  ];
  return { ok: false, kind: 'configuration', problem: `search attributes ${problems.join('; ')}` };
}

/**
 * The history service answers: a workflow that never exists is looked up, which the frontend hands to the history
 * shard owning it; "not found" is the answer of a working history service.
 */
export async function checkHistory(client: Client, namespace: string): Promise<SetupCheck> {
  try {
    await client.connection.workflowService.describeWorkflowExecution({ namespace, execution: { workflowId: 'loom-readiness-probe' } });
    return { ok: true };
  } catch (err) {
    if (grpcCode(err) === GRPC_NOT_FOUND) return { ok: true };
    throw err;
  }
}
