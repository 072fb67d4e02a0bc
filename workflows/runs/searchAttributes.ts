import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';

/**
 * The custom search attributes of run executions: the one source of their names and types. Workflow code (child
 * runs, loop batches, scheduled starts) and the API's client (domain/runs/executions.ts) set them through
 * `runSearchAttributes`; the Temporal servers we start register `searchAttributeRegistrations()`: scripts/services,
 * docker-compose.yml and test/helpers/faults.ts (the first two are not TypeScript, so
 * test/unit/searchAttributes.test.ts checks they list exactly these). Operators query them (docs/operating.md).
 * Pure, only @temporalio/common: bundled into workflow code.
 */
export const RUN_SEARCH_ATTRIBUTES = {
  organizationId: defineSearchAttributeKey('LoomOrganizationId', SearchAttributeType.KEYWORD),
  workflowId: defineSearchAttributeKey('LoomWorkflowId', SearchAttributeType.KEYWORD),
  workflowVersion: defineSearchAttributeKey('LoomWorkflowVersion', SearchAttributeType.INT),
  runKind: defineSearchAttributeKey('LoomRunKind', SearchAttributeType.KEYWORD),
  trigger: defineSearchAttributeKey('LoomTrigger', SearchAttributeType.KEYWORD),
};

export function runSearchAttributes(values: {
  organizationId: string;
  workflowId: string;
  workflowVersion: number;
  runKind: string;
  trigger: string;
}): SearchAttributePair[] {
  const k = RUN_SEARCH_ATTRIBUTES;
  return [
    { key: k.organizationId, value: values.organizationId },
    { key: k.workflowId, value: values.workflowId },
    { key: k.workflowVersion, value: values.workflowVersion },
    { key: k.runKind, value: values.runKind },
    { key: k.trigger, value: values.trigger },
  ];
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
