import { defineSearchAttributeKey, SearchAttributeType, type SearchAttributePair } from '@temporalio/common';

/** Typed keys of the custom search attributes registered by scripts/services (names: lib/temporal.ts). Pure. */
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
