import type { ExpressionErrorCode } from '../errors';
import type { ExpressionLimits, JsonataLimits } from '../limits';
import type { ExtractJobRequest } from '../../content/extractJob';
import type { BulkTask } from './bulk';

/** Messages between the sandbox pool (pool.ts) and its processes (child.ts). Plain JSON over the IPC channel. */
export type SandboxTask =
  | { op: 'cel'; text: string; context: Record<string, unknown>; limits?: Partial<ExpressionLimits> }
  | { op: 'render'; value: unknown; context: Record<string, unknown>; limits?: Partial<ExpressionLimits> }
  | { op: 'jsonata'; expression: string; data: unknown; bindings: Record<string, unknown>; limits: JsonataLimits }
  | { op: 'regex'; text: string; pattern: string; flags: string; maxMatches: number }
  | ({ op: 'bulk' } & BulkTask)
  | { op: 'extract'; request: ExtractJobRequest };

export type SandboxRequest = SandboxTask & { id: number };

export type SandboxReply =
  | { ready: true }
  | { id: number; started: true }
  | { id: number; ok: true; result: unknown }
  | { id: number; ok: false; code: ExpressionErrorCode; message: string };
