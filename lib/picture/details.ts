import { REFERENCE, type NodeDef, type NodeType } from '../dag/model';
import { isParameterRoot } from '../dag/parameterRoots';

/**
 * What the run picture's side panel shows for each node, derived from the workflow version and the run view alone
 * (pure: no I/O). Values (input, output) travel as pretty-printed JSON text cut to a preview, so a page never
 * receives a run's full outputs and never has to build markup from them: the page puts the text in the DOM as text.
 */

/** Characters of one value (a node's input or output) shown in the panel. */
export const VALUE_PREVIEW_CHARS = 2000;
/** Characters of values one picture carries in all; nodes past it show a note instead of their values. */
export const PICTURE_VALUE_BUDGET = 200_000;

export interface NodeStateLike {
  status: string;
  attempts: number;
  startedAt: string | null;
  finishedAt: string | null;
  output?: unknown;
  error?: { code: string; message: string } | null;
  via?: string;
  child_run_id?: string;
  /** loop nodes: items in all and finished, kept up to date by the interpreter while the loop runs */
  items?: { total: number; done: number };
  /** wait, wait_for_event and approval nodes: until when they wait (for an event or approval: its timeout) */
  waiting_until?: string;
  /** approval nodes: the approval they wait for */
  approval_id?: string;
  /** tool nodes: why they wait (their turn under rate limits), with `waiting_until` */
  waiting_for?: { reason: string; limits: string[] };
}

export interface ValuePreview {
  /** JSON, indented; cut to VALUE_PREVIEW_CHARS characters when `truncated`. */
  text: string;
  truncated: boolean;
  /** Length of the whole JSON text. */
  totalChars: number;
  /** Set when the value is kept in object storage: a presigned link to the whole value. */
  downloadUrl?: string;
}

export interface LoopProgress {
  /**
   * Items in the loop's list, when known (the node state's live `items`, the finished output's count, or the list its
   * `items` reference reads).
   */
  total: number | null;
  /** Items finished: live while the loop runs, all of them once it completed; null while unknown. */
  done: number | null;
  /** Positions (from 0) of failed items: the loop stops at its first failure, whose message names it. */
  failedItems: number[];
  /** One line for people: `3 of 3 items`, `item [1] failed · 3 items`, `2 of 5 items · running`. */
  text: string;
}

export interface NodeDetails {
  id: string;
  type: string;
  name?: string;
  tool?: string;
  status: string;
  attempts: number;
  startedAt: string | null;
  finishedAt: string | null;
  error: { code: string; message: string } | null;
  via?: string;
  input: ValuePreview | null;
  /** How to read `input`: it is the node as declared, with the values its `from` bindings read in this run. */
  inputNote: string;
  output: ValuePreview | null;
  /** Set when the values were left out (PICTURE_VALUE_BUDGET), with what to do instead. */
  valuesOmitted?: string;
  loop?: LoopProgress;
  parallel?: { joinStrategy: string; n?: number; branches: { id: string; nodes: string[] }[] };
  branchOf?: { parallel: string; branch: string };
  childRun?: { runId: string; workflowId: string; picture: string };
  /** a wait or wait_for_event node while it waits: until when, as the picture shows it */
  waiting?: { until: string; text: string };
}

export function toolOf(node: Pick<NodeDef, 'type' | 'config'>): string | undefined {
  const config = node.config as { tool?: unknown; template?: { config?: { tool?: unknown } } };
  const tool = node.type === 'loop' ? config.template?.config?.tool : config.tool;
  return typeof tool === 'string' ? tool : undefined;
}

export interface ParallelBranch {
  parallel: string;
  branch: string;
  nodes: string[];
}

/** Every branch of every parallel node, members limited to nodes of the graph. */
export function parallelBranches(nodes: Pick<NodeDef, 'id' | 'type' | 'config'>[]): ParallelBranch[] {
  const known = new Set(nodes.map((n) => n.id));
  const out: ParallelBranch[] = [];
  for (const node of nodes) {
    if (node.type !== 'parallel') continue;
    const branches = (node.config as { branches?: { id?: unknown; nodes?: unknown }[] }).branches;
    for (const branch of Array.isArray(branches) ? branches : []) {
      const members = Array.isArray(branch.nodes) ? branch.nodes.filter((m): m is string => typeof m === 'string' && known.has(m)) : [];
      if (members.length) out.push({ parallel: node.id, branch: String(branch.id ?? ''), nodes: members });
    }
  }
  return out;
}

function jsonText(value: unknown): string {
  try {
    return JSON.stringify(value, null, 2) ?? 'null';
  } catch {
    return '"(not representable as JSON)"';
  }
}

/** A value as preview text; a value kept in object storage (`{ $ref, download_url }`) keeps its link. */
export function previewValue(value: unknown, limit = VALUE_PREVIEW_CHARS): ValuePreview {
  const text = jsonText(value === undefined ? null : value);
  let cut = text.length > limit ? text.slice(0, limit) : text;
  // Never end on half of a surrogate pair.
  if (cut.length < text.length && /[\uD800-\uDBFF]$/.test(cut)) cut = cut.slice(0, -1);
  const preview: ValuePreview = { text: cut, truncated: cut.length < text.length, totalChars: text.length };
  const link = (value as { $ref?: unknown; download_url?: unknown } | null)?.download_url;
  if (value && typeof value === 'object' && typeof (value as { $ref?: unknown }).$ref === 'string' && typeof link === 'string' && /^https?:\/\//i.test(link)) {
    preview.downloadUrl = link;
  }
  return preview;
}

function isStoredRef(value: unknown): boolean {
  return !!value && typeof value === 'object' && !Array.isArray(value) && typeof (value as { $ref?: unknown }).$ref === 'string';
}

interface Binding {
  name?: string;
  from: string;
}

function bindingsOf(node: NodeDef): Binding[] {
  const config = node.config as { inputs?: unknown };
  const own = Array.isArray(config.inputs) ? (config.inputs as Binding[]) : [];
  return [...own, ...(node.inputs ?? [])].filter((b) => b && typeof b.from === 'string');
}

/** A `from` reference read from this run: a parameter or an upstream node's output; `undefined` when not there (yet). */
function readReference(
  reference: string,
  parameters: Record<string, unknown>,
  states: Record<string, NodeStateLike | undefined>,
): { found: boolean; value?: unknown } {
  const match = REFERENCE.exec(reference.trim());
  if (!match) return { found: false };
  const [, head, name] = match as unknown as [string, string, string];
  if (isParameterRoot(head)) return name in parameters ? { found: true, value: parameters[name] } : { found: false };
  const state = states[head];
  if (!state || state.status !== 'completed') return { found: false };
  const output = state.output;
  if (!output || typeof output !== 'object' || isStoredRef(output)) return { found: false };
  return name in output ? { found: true, value: (output as Record<string, unknown>)[name] } : { found: false };
}

/**
 * A node's input as far as the picture can tell without evaluating anything: for a tool node what its tool is
 * given (its `config`, with each `from` binding set by name to the value it reads in this run); for other nodes
 * their configuration. `${...}` templates stay as written.
 */
export function nodeInput(
  node: NodeDef,
  parameters: Record<string, unknown>,
  states: Record<string, NodeStateLike | undefined>,
): { value: unknown; note: string } {
  if (node.type !== 'tool') {
    return { value: node.config, note: `the ${node.type} node's configuration as declared` };
  }
  const config = node.config as { config?: unknown };
  const base = config.config && typeof config.config === 'object' && !Array.isArray(config.config) ? (config.config as Record<string, unknown>) : {};
  const input: Record<string, unknown> = { ...base };
  const waiting: string[] = [];
  for (const binding of bindingsOf(node)) {
    const name = binding.name ?? binding.from.split('.')[1] ?? binding.from;
    const read = readReference(binding.from, parameters, states);
    if (read.found) input[name] = read.value;
    else waiting.push(`${name} (from ${binding.from})`);
  }
  const notes = ['the tool config as declared (${...} templates unevaluated), with its bound inputs from this run'];
  if (waiting.length) notes.push(`not available here: ${waiting.join(', ')}`);
  return { value: input, note: notes.join('; ') };
}

/** How far a loop node got, from what the run view tells (see LoopProgress). */
export function loopProgress(
  node: NodeDef,
  state: NodeStateLike | undefined,
  parameters: Record<string, unknown>,
  states: Record<string, NodeStateLike | undefined>,
): LoopProgress {
  const status = state?.status ?? 'pending';
  const output = state?.output as { count?: unknown } | null | undefined;
  const live = state?.items;
  let total: number | null = live ? live.total : null;
  if (total === null && status === 'completed' && output && !isStoredRef(output) && typeof output.count === 'number') total = output.count;
  if (total === null) {
    const items = (node.config as { items?: unknown }).items;
    if (typeof items === 'string') {
      const read = readReference(items, parameters, states);
      if (read.found && Array.isArray(read.value)) total = read.value.length;
    }
  }
  const failed = status === 'failed' ? /^item (\d+): /.exec(state?.error?.message ?? '') : null;
  const failedItems = failed ? [Number(failed[1])] : [];
  const done = status === 'completed' ? total : status === 'pending' || status === 'skipped' ? 0 : (live?.done ?? null);
  const of = total === null ? 'items' : `${total} item${total === 1 ? '' : 's'}`;
  let text: string;
  if (status === 'completed') text = total === null ? 'all items done' : `${total} of ${total} items`;
  else if (failedItems.length) text = `item [${failedItems[0]}] failed · ${of}`;
  else if (status === 'running') text = total === null ? 'items running' : done === null ? `${of} · running` : `${done} of ${of} · running`;
  else if (status === 'failed' || status === 'cancelled') text = `${status} · ${of}`;
  else text = total === null ? '' : of;
  return { total, done, failedItems, text };
}

/** A waiting node's line in the picture (details and SVG): while it runs, until when it waits (UTC, to the second). */
export function waitingOf(node: Pick<NodeDef, 'type' | 'config'>, state: NodeStateLike | undefined): { waiting?: { until: string; text: string } } {
  if (!['wait', 'wait_for_event', 'approval', 'tool'].includes(node.type) || state?.status !== 'running' || !state.waiting_until) return {};
  if (node.type === 'tool' && !state.waiting_for) return {};
  const what =
    node.type === 'tool'
      ? `waits for its turn (${(state.waiting_for?.limits ?? []).join(', ')}) until`
      : node.type === 'wait'
      ? 'waits until'
      : node.type === 'approval'
        ? 'awaits approval until'
        : `waits for ${String((node.config as { event?: unknown }).event ?? 'an event')} until`;
  const until = state.waiting_until;
  return { waiting: { until, text: `${what} ${until.slice(0, 19).replace('T', ' ')}Z` } };
}

interface TypeDetailsInput {
  node: NodeDef;
  state: NodeStateLike | undefined;
  parameters: Record<string, unknown>;
  states: Record<string, NodeStateLike | undefined>;
  branches: ParallelBranch[];
  picturePath: DetailsInput['picturePath'];
}

/**
 * What the picture shows of a node beyond its status, input and output, by type: a loop's progress, a parallel
 * node's join and branches, the child run of a subworkflow. A type of NODE_TYPES without an entry does not compile
 * (docs/conventions.md#a-new-node-type).
 */
const TYPE_DETAILS: { readonly [T in NodeType]: (input: TypeDetailsInput) => Partial<NodeDetails> } = {
  tool: () => ({}),
  condition: () => ({}),
  switch: () => ({}),
  wait: ({ node, state }) => waitingOf(node, state),
  wait_for_event: ({ node, state }) => waitingOf(node, state),
  approval: ({ node, state }) => waitingOf(node, state),
  respond: () => ({}),
  repeat: () => ({}),
  loop: ({ node, state, parameters, states }) => ({ loop: loopProgress(node, state, parameters, states) }),
  parallel: ({ node, branches }) => {
    const config = node.config as { joinStrategy?: unknown; n?: unknown };
    return {
      parallel: {
        joinStrategy: typeof config.joinStrategy === 'string' ? config.joinStrategy : 'wait_all',
        ...(typeof config.n === 'number' ? { n: config.n } : {}),
        branches: branches.filter((b) => b.parallel === node.id).map((b) => ({ id: b.branch, nodes: b.nodes })),
      },
    };
  },
  subworkflow: ({ node, state, picturePath }) => {
    const childWorkflow = (node.config as { workflow_id?: unknown }).workflow_id;
    if (!state?.child_run_id || typeof childWorkflow !== 'string') return {};
    return { childRun: { runId: state.child_run_id, workflowId: childWorkflow, picture: picturePath(childWorkflow, state.child_run_id) } };
  },
};

export interface DetailsInput {
  nodes: NodeDef[];
  parameters: Record<string, unknown>;
  states: Record<string, NodeStateLike | undefined>;
  /** The picture page of a run of a workflow (relative to this origin). */
  picturePath: (workflowId: string, runId: string) => string;
  previewChars?: number;
  budget?: number;
}

export function nodeDetails(input: DetailsInput): Record<string, NodeDetails> {
  const { nodes, parameters, states } = input;
  const previewChars = input.previewChars ?? VALUE_PREVIEW_CHARS;
  let budget = input.budget ?? PICTURE_VALUE_BUDGET;
  const branches = parallelBranches(nodes);
  const branchOf = new Map<string, { parallel: string; branch: string }>();
  for (const b of branches) for (const id of b.nodes) if (!branchOf.has(id)) branchOf.set(id, { parallel: b.parallel, branch: b.branch });

  const out: Record<string, NodeDetails> = {};
  for (const node of nodes) {
    const state = states[node.id];
    const status = state?.status ?? 'pending';
    const details: NodeDetails = {
      id: node.id,
      type: node.type,
      ...(node.name ? { name: node.name } : {}),
      ...(toolOf(node) ? { tool: toolOf(node) } : {}),
      status,
      attempts: state?.attempts ?? 0,
      startedAt: state?.startedAt ?? null,
      finishedAt: state?.finishedAt ?? null,
      error: state?.error ?? null,
      ...(state?.via ? { via: state.via } : {}),
      input: null,
      inputNote: '',
      output: null,
    };
    const declared = nodeInput(node, parameters, states);
    const inputPreview = previewValue(declared.value, previewChars);
    const hasOutput = state?.status === 'completed' || (state?.output !== null && state?.output !== undefined);
    const outputPreview = hasOutput ? previewValue(state?.output, previewChars) : null;
    const cost = inputPreview.text.length + (outputPreview?.text.length ?? 0);
    if (cost <= budget) {
      budget -= cost;
      details.input = inputPreview;
      details.inputNote = declared.note;
      details.output = outputPreview;
    } else {
      details.valuesOmitted = 'values not included: this picture already carries its share; read the node in the run (GET .../runs/{run_id})';
    }
    Object.assign(details, TYPE_DETAILS[node.type]({ node, state, parameters, states, branches, picturePath: input.picturePath }));
    const member = branchOf.get(node.id);
    if (member) details.branchOf = member;
    out[node.id] = details;
  }
  return out;
}
