import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';

/**
 * The custom search attributes of run executions: the one source of their names and types. Workflow code (child
 * runs, loop batches, scheduled starts) and the API's client (domain/runs/executions.ts) set them through
 * `runSearchAttributes`; the Temporal servers we start register `searchAttributeRegistrations()`: scripts/services,
 * docker-compose.yml and test/helpers/faults.ts (the first two are not TypeScript, so
 * test/unit/searchAttributes.test.ts checks they list exactly these), and the worker adds any a running server
 * lacks (worker/searchAttributes.ts). Operators query them (docs/operating.md).
 * Pure, only @temporalio/common: bundled into workflow code.
 */
export const RUN_SEARCH_ATTRIBUTES = {
  organizationId: defineSearchAttributeKey('LoomOrganizationId', SearchAttributeType.KEYWORD),
  workflowId: defineSearchAttributeKey('LoomWorkflowId', SearchAttributeType.KEYWORD),
  workflowVersion: defineSearchAttributeKey('LoomWorkflowVersion', SearchAttributeType.INT),
  runKind: defineSearchAttributeKey('LoomRunKind', SearchAttributeType.KEYWORD),
  trigger: defineSearchAttributeKey('LoomTrigger', SearchAttributeType.KEYWORD),
  workflowName: defineSearchAttributeKey('LoomWorkflowName', SearchAttributeType.KEYWORD),
};

export function runSearchAttributes(values: {
  organizationId: string;
  workflowId: string;
  workflowVersion: number;
  runKind: string;
  trigger: string;
  /** The workflow's name when it was started (absent on starts that do not know it: loop batches, older code). */
  workflowName?: string;
}): SearchAttributePair[] {
  const k = RUN_SEARCH_ATTRIBUTES;
  return [
    { key: k.organizationId, value: values.organizationId },
    { key: k.workflowId, value: values.workflowId },
    { key: k.workflowVersion, value: values.workflowVersion },
    { key: k.runKind, value: values.runKind },
    { key: k.trigger, value: values.trigger },
    ...(values.workflowName !== undefined ? [{ key: k.workflowName, value: keywordValue(values.workflowName) }] : []),
  ];
}

/** Keyword attributes are indexed whole; the SQL visibility stores keep up to 255 characters of one. */
const KEYWORD_MAX = 255;

function keywordValue(value: string): string {
  return value.length > KEYWORD_MAX ? value.slice(0, KEYWORD_MAX) : value;
}

/**
 * What Temporal Web and `temporal workflow describe` show of a run execution, besides its search attributes: a
 * one-line summary (`<workflow name> v<version> · <trigger>`), markdown details, and a memo with the names behind
 * the ids. Set once when the execution starts (the API's client, the schedule firing).
 */
export interface RunStartFacts {
  runId: string;
  organizationId: string;
  /** Absent where the starter does not know it (trigger paths other than the API). */
  organizationName?: string;
  workflowId: string;
  workflowName: string;
  workflowVersion: number;
  trigger: string;
  /** The API request (X-Request-Id) that started the run. */
  requestId?: string;
}

/** The memo of a run execution: plain values, read back by the worker's log lines (worker/logging.ts). */
// A type, not an interface: start options take a Record<string, unknown>.
export type RunMemo = {
  organizationId: string;
  organizationName?: string;
  workflowId: string;
  workflowName: string;
  workflowVersion: number;
  trigger: string;
  requestId?: string;
};

/** One line, no markdown surprises: control characters and line breaks become spaces, at most `max` characters. */
export function oneLine(text: string, max: number): string {
  // eslint-disable-next-line no-control-regex
  const flat = text.replace(/[\u0000-\u001f\u007f]+/g, ' ').trim();
  return flat.length > max ? `${flat.slice(0, max - 1)}…` : flat;
}

export function runStaticSummary(facts: Pick<RunStartFacts, 'workflowName' | 'workflowVersion' | 'trigger'>): string {
  return `${oneLine(facts.workflowName, 200)} v${facts.workflowVersion} · ${oneLine(facts.trigger, 40)}`;
}

export function runStaticDetails(facts: RunStartFacts): string {
  const organization = facts.organizationName
    ? `${oneLine(facts.organizationName, 200)} (\`${facts.organizationId}\`)`
    : `\`${facts.organizationId}\``;
  return [
    `- **Run** \`${facts.runId}\``,
    `- **Workflow** ${oneLine(facts.workflowName, 200)} (\`${facts.workflowId}\`), version ${facts.workflowVersion}`,
    `- **Organization** ${organization}`,
    // one line with the trigger: Temporal Web's details panel shows about four lines without scrolling
    `- **Trigger** ${oneLine(facts.trigger, 40)}${facts.requestId ? ` · **Request** \`${facts.requestId}\`` : ''}`,
  ].join('\n');
}

export function runMemo(facts: RunStartFacts): RunMemo {
  return {
    organizationId: facts.organizationId,
    ...(facts.organizationName !== undefined ? { organizationName: facts.organizationName } : {}),
    workflowId: facts.workflowId,
    workflowName: facts.workflowName,
    workflowVersion: facts.workflowVersion,
    trigger: facts.trigger,
    ...(facts.requestId !== undefined ? { requestId: facts.requestId } : {}),
  };
}

/** Everything a run execution's start sets for people and searches: summary, details, memo, search attributes. */
export function runStartMetadata(facts: RunStartFacts & { runKind: string }): {
  staticSummary: string;
  staticDetails: string;
  memo: RunMemo;
  typedSearchAttributes: SearchAttributePair[];
} {
  return {
    staticSummary: runStaticSummary(facts),
    staticDetails: runStaticDetails(facts),
    memo: runMemo(facts),
    typedSearchAttributes: runSearchAttributes({
      organizationId: facts.organizationId,
      workflowId: facts.workflowId,
      workflowVersion: facts.workflowVersion,
      runKind: facts.runKind,
      trigger: facts.trigger,
      workflowName: facts.workflowName,
    }),
  };
}

/** The Temporal CLI's names of the types (`--search-attribute Name=Type`, `search-attribute create --type`). */
const CLI_TYPE_NAMES: Record<SearchAttributeType, string> = {
  TEXT: 'Text',
  KEYWORD: 'Keyword',
  INT: 'Int',
  DOUBLE: 'Double',
  BOOL: 'Bool',
  DATETIME: 'Datetime',
  KEYWORD_LIST: 'KeywordList',
};

/** Every attribute as the CLI registers it, `Name=Type` (`LoomWorkflowVersion=Int`), in declaration order. */
export function searchAttributeRegistrations(): string[] {
  return Object.values(RUN_SEARCH_ATTRIBUTES).map((key) => `${key.name}=${CLI_TYPE_NAMES[key.type]}`);
}
