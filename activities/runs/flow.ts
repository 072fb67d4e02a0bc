import { Context } from '@temporalio/activity';
import { FLOW_ARRIVE_SIGNAL, flowTaskQueue, type FlowTicket } from '../../lib/runs/flowGate';
import { oneLine, runSearchAttributes } from '../../lib/runs/searchAttributes';
import { tenantPriority } from '../../lib/tenantPriority';
import { openRunIds } from '../../domain/runs/queries';
import type { ActivityDeps } from '../deps';

export interface FlowJoinInput {
  organizationId: string;
  workflowId: string;
  /** of the joining run: the gate's search attributes and summary, for Temporal Web */
  workflowName: string;
  workflowVersion: number;
  gateId: string;
  ticket: FlowTicket;
}

/** Most run ids one reconciliation asks about per query. */
const OPEN_RUNS_CHUNK = 1000;

/** The activities of flow control (workflows/flow/gate.ts, workflows/runs/flowWait.ts). */
export function createFlowActivities(deps: ActivityDeps) {
  return {
    /**
     * Hands a run's ticket to its workflow's gate, starting the gate if it is not running (signal-with-start).
     * Repeating it is harmless: the gate answers a repeated ticket as the first.
     */
    async flowJoin(input: FlowJoinInput): Promise<void> {
      const { client } = Context.current();
      await client.workflow.signalWithStart('flowGateWorkflow', {
        workflowId: input.gateId,
        taskQueue: flowTaskQueue(deps.config.temporal.taskQueue),
        args: [{ organizationId: input.organizationId, workflowId: input.workflowId }],
        signal: FLOW_ARRIVE_SIGNAL,
        signalArgs: [input.ticket],
        priority: tenantPriority(input.organizationId),
        staticSummary: `Flow gate · ${oneLine(input.workflowName, 200)}`,
        typedSearchAttributes: runSearchAttributes({
          organizationId: input.organizationId,
          workflowId: input.workflowId,
          workflowVersion: input.workflowVersion,
          workflowName: input.workflowName,
          runKind: 'flow_gate',
          trigger: 'flow',
        }),
      });
    },

    /** Which of these runs are still open (pending or running). */
    async flowOpenRuns(input: { organizationId: string; runIds: string[] }): Promise<string[]> {
      const open: string[] = [];
      for (let i = 0; i < input.runIds.length; i += OPEN_RUNS_CHUNK) {
        open.push(...(await openRunIds(deps.db, input.organizationId, input.runIds.slice(i, i + OPEN_RUNS_CHUNK))));
      }
      return open;
    },
  };
}
