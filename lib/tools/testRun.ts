import type { ToolActivityInput } from '../runs/types';

/** A test run of one tool (workflows/tools/testRun.ts), as the tools service starts it and reads its answer. */
export interface ToolTestInput {
  toolId: string;
  activity: ToolActivityInput;
  /** the whole test, retries included (schedule-to-close), and each attempt */
  timeoutMs: number;
  maxAttempts: number;
  heartbeatTimeoutMs: number;
}

export type ToolTestResult =
  | { status: 'completed'; output: unknown; attempts: number }
  | { status: 'failed'; error: { code: string; message: string }; attempts: number };
