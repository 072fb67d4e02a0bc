import type { ToolActivityInput } from '../../lib/runs/types';

/** A tool activity's input for unit tests of the tool wrapper: one node of run `r`, no inputs; `overrides` as needed. */
export function toolActivityInput(overrides: Partial<ToolActivityInput> = {}): ToolActivityInput {
  return {
    organizationId: 'o',
    workflowId: 'w',
    runId: 'r',
    nodeId: 'n',
    config: {},
    inputs: [],
    outputs: [],
    context: { params: {}, nodes: {} },
    attemptBase: 0,
    largeOutputBytes: 1024,
    ...overrides,
  };
}
