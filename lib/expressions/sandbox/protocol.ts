import type { ExpressionErrorCode } from '../errors';
import type { ExpressionLimits, JsonataLimits } from '../limits';
import type { ExtractJobRequest } from '../../content/extractJob';
import type { BulkTask } from './bulk';

/** Messages between the sandbox pool (pool.ts) and its processes (child.ts). Plain JSON over the IPC channel. */
export type SandboxTask =
  | { op: 'cel'; text: string; context: Record<string, unknown>; limits?: Partial<ExpressionLimits> }
  | { op: 'render'; value: unknown; context: Record<string, unknown>; limits?: Partial<ExpressionLimits> }
  /** `resultFile`: where a result larger than LARGE_RESULT_CHARS is written (as JSON) instead of sent back. */
  | { op: 'jsonata'; expression: string; data: unknown; bindings: Record<string, unknown>; limits: JsonataLimits; resultFile?: string }
  | { op: 'regex'; text: string; pattern: string; flags: string; maxMatches: number }
  | ({ op: 'bulk' } & BulkTask)
  | { op: 'extract'; request: ExtractJobRequest };

export type SandboxRequest = SandboxTask & { id: number };

export type SandboxReply =
  | { ready: true }
  | { id: number; started: true }
  | { id: number; ok: true; result: unknown }
  /** The result is in the task's `resultFile`, this many characters of JSON. */
  | { id: number; ok: true; written: number }
  | { id: number; ok: false; code: ExpressionErrorCode; message: string };

/**
 * Results past this many characters of JSON travel as a file, not over the channel: the channel's JSON is parsed on
 * the caller's event loop (a 5.6 MB JSONata result held the worker's loop ~60 ms, 50 MB ~70-200 ms), while a file is
 * read by libuv's thread pool and kept as bytes (lib/serializedJson.ts).
 */
export const LARGE_RESULT_CHARS = 64 * 1024;

/** What a task answers when its result went to its file (the pool hands it to the caller as it is). */
export class ResultInFile {
  constructor(readonly chars: number) {}
}
