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

export type BaselineActivities = typeof baselineActivities & typeof stampActivities;
