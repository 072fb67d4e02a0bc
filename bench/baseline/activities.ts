import { Pool } from 'pg';
import jsonTransform from '../../activities/tools/json_transform';
import type { ToolContext } from '../../activities/tools/types';

/** The baseline's only activity: the json_transform tool's own execute function, nothing around it. */
export const baselineActivities = {
  async transform(input: { expression: string; data: unknown }): Promise<{ result: unknown }> {
    // json_transform's execute reads only its input; the context is the tool contract's, unused here.
    return (await jsonTransform.execute(input, {} as ToolContext)) as { result: unknown };
  },
};

/** The waiting baseline's activity: when it started (the resume latency's end). */
export const stampActivities = {
  async stamp(): Promise<{ at: number }> {
    return { at: Date.now() };
  },
};

/** The baseline worker's database pool, opened on first use: only the recorded run baseline writes to PostgreSQL. */
let pool: Pool | undefined;

function database(): Pool {
  if (!process.env.DATABASE_URL) throw new Error('DATABASE_URL is required by the recorded run baseline');
  return (pool ??= new Pool({ connectionString: process.env.DATABASE_URL, max: Number(process.env.DATABASE_POOL_MAX ?? 10) }));
}

export async function closeBaselineDatabase(): Promise<void> {
  await pool?.end();
  pool = undefined;
}

/**
 * The recorded run baseline's activity (bench/baseline/fairServer.ts starts the run): the same json_transform
 * execute as `transform`, then one UPDATE that records the run's completion and result in the row the endpoint
 * inserted.
 */
export const recordedRunActivities = {
  async transformAndRecord(input: { runId: string; expression: string; data: unknown }): Promise<{ result: unknown }> {
    const output = (await jsonTransform.execute({ expression: input.expression, data: input.data }, {} as ToolContext)) as { result: unknown };
    const { rowCount } = await database().query(
      `UPDATE bench_baseline_runs SET status = 'completed', result = $2, completed_at = now() WHERE id = $1`,
      [input.runId, JSON.stringify(output.result)],
    );
    if (rowCount !== 1) throw new Error(`baseline run ${input.runId} has no row`);
    return output;
  },
};

export type BaselineActivities = typeof baselineActivities & typeof stampActivities & typeof recordedRunActivities;
