import { z } from 'zod';

/** The run picture's JSON (GET .../picture.json): the SVG and, per node, what the side panel shows. */

const valuePreviewSchema = z.object({
  text: z.string().describe('the value as indented JSON, cut to its first 2,000 characters when `truncated`'),
  truncated: z.boolean(),
  totalChars: z.number().int().describe('length of the whole JSON text'),
  downloadUrl: z.string().optional().describe('values kept in object storage: a presigned link to the whole value'),
});

const nodeDetailsSchema = z.object({
  id: z.string(),
  type: z.string(),
  name: z.string().optional(),
  tool: z.string().optional(),
  status: z.string(),
  attempts: z.number().int(),
  startedAt: z.string().nullable(),
  finishedAt: z.string().nullable(),
  error: z.object({ code: z.string(), message: z.string() }).nullable(),
  via: z.string().optional(),
  input: valuePreviewSchema
    .nullable()
    .describe('tool nodes: the tool config as declared (`${...}` unevaluated) with the values of its `from` bindings; other nodes: their config'),
  inputNote: z.string(),
  output: valuePreviewSchema.nullable().describe('null until the node has an output'),
  valuesOmitted: z.string().optional().describe('set when this node\'s values were left out to keep the picture small'),
  loop: z
    .object({
      total: z.number().int().nullable(),
      done: z.number().int().nullable(),
      failedItems: z.array(z.number().int()),
      text: z.string(),
    })
    .optional()
    .describe('loop nodes: items in the list (when known), items done, failed item positions'),
  parallel: z
    .object({
      joinStrategy: z.string(),
      n: z.number().int().optional(),
      branches: z.array(z.object({ id: z.string(), nodes: z.array(z.string()) })),
    })
    .optional(),
  branchOf: z.object({ parallel: z.string(), branch: z.string() }).optional(),
  childRun: z
    .object({ runId: z.string(), workflowId: z.string(), picture: z.string() })
    .optional()
    .describe('subworkflow nodes: the child run and its picture page'),
});

export const runPictureModelSchema = z.object({
  run: z.object({
    id: z.string(),
    workflow_id: z.string(),
    workflow_version: z.number().int(),
    status: z.string(),
    started_at: z.string().nullable(),
    completed_at: z.string().nullable(),
    duration: z.number().int().nullable(),
    temporal: z.string().nullable().describe('the execution in Temporal Web'),
    parent: z
      .object({ run_id: z.string(), workflow_id: z.string(), node_id: z.string(), picture: z.string() })
      .nullable()
      .describe('subworkflow runs: the run that started this one and its picture page'),
  }),
  title: z.string(),
  svg: z.string().describe('the picture (the same as picture.svg)'),
  nodes: z.record(z.string(), nodeDetailsSchema),
  now: z.string().describe('the server time the picture was drawn at (running durations count on from it)'),
});

export type RunPictureModel = z.infer<typeof runPictureModelSchema>;
