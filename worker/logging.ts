import { IllegalStateError, type LogLevel, type LogMetadata, type Logger as TemporalLogger } from '@temporalio/common';
import {
  makeTelemetryFilterString,
  Runtime,
  type ActivityInterceptorsFactory,
  type InjectedSinkFunction,
  type InjectedSinks,
  type RuntimeOptions,
} from '@temporalio/worker';
import type { WorkflowInfo } from '@temporalio/workflow';
import type { Logger } from '../lib/logger';
import { RUN_WORKFLOW_TYPE } from '../domain/runs/executions';

/**
 * The worker's log lines are pino's JSON lines (docs/operating.md#logs), the Temporal SDK's included: its Runtime
 * logger (worker lifecycle, activity and workflow lines, and the Rust core's lines, forwarded) writes through
 * `temporalLogger`. Lines about a run name it in Loom's terms: `runId` (the Loom run id), `organizationId`,
 * `nodeId`, `workflowId` (the Loom workflow), `requestId` (the API request that started the run). Temporal's own
 * ids keep their meaning under other names: `temporalWorkflowId`, `temporalRunId`.
 */

/**
 * The attribute that carries Loom's fields of a line to `temporalLogger`, which writes them after renaming Temporal's
 * (so `runId` there is Loom's run id). A string key: the SDK's metadata merging keeps only those.
 */
export const LOOM_FIELDS = 'loomFields';

export interface LoomLogFields {
  runId?: string;
  organizationId?: string;
  nodeId?: string;
  workflowId?: string;
  requestId?: string;
}

const PINO_METHOD: Record<LogLevel, 'trace' | 'debug' | 'info' | 'warn' | 'error'> = {
  TRACE: 'trace',
  DEBUG: 'debug',
  INFO: 'info',
  WARN: 'warn',
  ERROR: 'error',
};

/** Temporal's attribute names that mean something else in Loom's lines. */
const RENAMED: Record<string, string> = {
  workflowId: 'temporalWorkflowId',
  runId: 'temporalRunId',
  workflowRunId: 'temporalRunId',
};

/** Never written: a task token completes the activity it belongs to. */
const DROPPED = new Set(['taskToken']);

function fieldsOf(meta: LogMetadata | undefined): Record<string, unknown> {
  if (!meta) return {};
  const fields: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(meta)) {
    if (key === LOOM_FIELDS || DROPPED.has(key) || value === undefined) continue;
    // pino serializes an Error (message, stack, type) under `err` only
    if (key === 'error' && value instanceof Error) fields.err = value;
    else fields[RENAMED[key] ?? key] = value;
  }
  const loom = meta[LOOM_FIELDS] as LoomLogFields | undefined;
  if (loom && typeof loom === 'object') {
    for (const [key, value] of Object.entries(loom)) if (value !== undefined) fields[key] = value;
  }
  return fields;
}

/** A Temporal `Logger` that writes pino JSON lines. */
export function temporalLogger(logger: Logger): TemporalLogger {
  const log = (level: LogLevel, message: string, meta?: LogMetadata): void => {
    const method = PINO_METHOD[level] ?? 'info';
    if (!logger.isLevelEnabled(method)) return;
    logger[method](fieldsOf(meta), message);
  };
  return {
    log,
    trace: (message, meta) => log('TRACE', message, meta),
    debug: (message, meta) => log('DEBUG', message, meta),
    info: (message, meta) => log('INFO', message, meta),
    warn: (message, meta) => log('WARN', message, meta),
    error: (message, meta) => log('ERROR', message, meta),
  };
}

/**
 * The level the Rust core forwards at: one step quieter than ours (its INFO lines are per poll and per task), WARN
 * at our default `info`.
 */
export function coreLogLevel(level: string): LogLevel {
  switch (level) {
    case 'trace':
      return 'DEBUG';
    case 'debug':
      return 'INFO';
    case 'fatal':
    case 'error':
    case 'silent':
      return 'ERROR';
    default:
      return 'WARN';
  }
}

/**
 * Installs the process's Temporal Runtime with `temporalLogger` (and the SDK's Prometheus exporter when
 * `prometheusBindAddress` is given). Must run before the first connection or worker of the process; false when a
 * Runtime exists already (then its logger stays). Throws what the Runtime throws (e.g. the exporter's port in use).
 */
export function installTemporalRuntime(logger: Logger, options: { prometheusBindAddress?: string } = {}): boolean {
  const runtimeOptions: RuntimeOptions = {
    logger: temporalLogger(logger),
    telemetryOptions: {
      logging: { filter: makeTelemetryFilterString({ core: coreLogLevel(logger.level) }), forward: {} },
      ...(options.prometheusBindAddress
        ? { metrics: { prometheus: { bindAddress: options.prometheusBindAddress, useSecondsForDurations: true } } }
        : {}),
    },
  };
  try {
    Runtime.install(runtimeOptions);
    return true;
  } catch (err) {
    if (err instanceof IllegalStateError) return false;
    throw err;
  }
}

function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value.length > 0 ? value : undefined;
}

/**
 * Loom's fields of a workflow's lines, from its memo (run executions since docs/operating.md#temporal-web: the
 * organization, Loom workflow and request) and its type (a run execution's workflow id is the run id).
 */
export function workflowLogFields(info: Pick<WorkflowInfo, 'workflowId' | 'workflowType' | 'memo'>): LoomLogFields {
  const memo = (info.memo ?? {}) as Record<string, unknown>;
  return {
    runId: info.workflowType === RUN_WORKFLOW_TYPE ? info.workflowId : undefined,
    organizationId: stringField(memo.organizationId),
    workflowId: stringField(memo.workflowId),
    requestId: stringField(memo.requestId),
  };
}

/** The SDK's lifecycle lines of a workflow (debug) and what they say about a run's execution. */
const LIFECYCLE: Record<string, string> = {
  'Workflow started': 'started',
  'Workflow completed': 'completed',
  'Workflow completed as cancelled': 'cancelled',
  'Workflow continued as new': 'continued_as_new',
  'Workflow failed': 'failed',
};

type WorkflowLogFn = (message: string, attrs?: Record<string, unknown>) => void;
type WorkflowLogSink = Record<'trace' | 'debug' | 'info' | 'warn' | 'error', WorkflowLogFn>;

/**
 * The sink behind workflow code's `log` (registered under its compatible name `defaultWorkerLogger`, which replaces
 * the SDK's own): the same lines, with Loom's fields from the workflow's info, which only the worker side sees. A run
 * execution also gets an info line when it starts and when it ends (`run execution started` / `run execution
 * closed`, with `outcome`), so a run and the request that started it show at the default level. Like the SDK's
 * sink, not called while a workflow replays its history.
 */
export function workflowLogSinks(logger: Logger): InjectedSinks<{ defaultWorkerLogger: WorkflowLogSink }> {
  const target = temporalLogger(logger);
  const sink = (level: LogLevel): InjectedSinkFunction<WorkflowLogFn> => ({
    fn(info, message, attrs) {
      const fields = workflowLogFields(info);
      const meta: LogMetadata = { sdkComponent: 'workflow', ...attrs, [LOOM_FIELDS]: fields };
      target.log(level, message, meta);
      const outcome = LIFECYCLE[message];
      if (outcome && info.workflowType === RUN_WORKFLOW_TYPE) {
        const line = { temporalWorkflowId: info.workflowId, temporalRunId: info.runId, taskQueue: info.taskQueue };
        if (outcome === 'started') logger.info({ ...line, ...definedOnly(fields) }, 'run execution started');
        else logger.info({ ...line, ...definedOnly(fields), outcome }, 'run execution closed');
      }
    },
  });
  return {
    defaultWorkerLogger: { trace: sink('TRACE'), debug: sink('DEBUG'), info: sink('INFO'), warn: sink('WARN'), error: sink('ERROR') },
  };
}

function definedOnly(fields: LoomLogFields): LoomLogFields {
  return Object.fromEntries(Object.entries(fields).filter(([, v]) => v !== undefined)) as LoomLogFields;
}

/** Loom's fields an activity's input names (tool and run activities take one object with them). */
export function activityLogFields(input: unknown): LoomLogFields {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) return {};
  const args = input as Record<string, unknown>;
  return {
    runId: stringField(args.runId),
    organizationId: stringField(args.organizationId),
    nodeId: stringField(args.nodeId),
    workflowId: stringField(args.workflowId),
  };
}

/**
 * Adds the run, node and organization of an activity to its lines (the SDK's "Activity completed/failed" and what
 * the activity logs through its context). The activity's first argument names them; an activity of a run
 * execution without one is still about that run (its workflow id).
 */
export const activityLogInterceptor: ActivityInterceptorsFactory = (ctx) => {
  let fields: LoomLogFields =
    ctx.info.workflowType === RUN_WORKFLOW_TYPE && ctx.info.workflowExecution ? { runId: ctx.info.workflowExecution.workflowId } : {};
  return {
    inbound: {
      async execute(input, next) {
        fields = { ...fields, ...definedOnly(activityLogFields(input.args[0])) };
        return next(input);
      },
    },
    outbound: {
      getLogAttributes(attributes, next) {
        return next({ ...attributes, [LOOM_FIELDS]: fields });
      },
    },
  };
};
