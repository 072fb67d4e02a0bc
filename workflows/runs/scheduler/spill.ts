/**
 * Which inline values the interpreter moves to object storage so that what it assembles from them stays within the
 * run's payload budget (RunOptions.payloadBudgetBytes, docs/runs.md#the-payload-budget). Every inline output is under the
 * large-output threshold, but Temporal takes at most 2 MB in one payload and a few MB in one workflow task, and a
 * node reading a dozen outputs, twenty nodes reading one, a join, a loop's outputs or a run's results add up past
 * that (the server then terminates the execution). Pure: unit-tested without Temporal.
 */

/** What a stored value's reference costs in place of the value (`{ "$ref": "s3://…/<run>/<name>.json", "bytes": n }`). */
export const REF_BYTES = 200;

/** Values this small stay inline whatever the total: storing them would save next to nothing. */
export const MIN_SPILL_BYTES = 1024;

/** An inline value and how many copies of it the assembled payloads hold. */
export interface SpillCandidate<K> {
  key: K;
  bytes: number;
  uses: number;
}

const NON_ASCII = /[\u0080-\uffff]/;

/** UTF-8 bytes of the value's JSON, what Temporal's payload limits count (`undefined` is sent as nothing). */
export function jsonBytes(value: unknown): number {
  const text = JSON.stringify(value);
  return text === undefined ? 0 : utf8Bytes(text);
}

/** UTF-8 bytes of a text (for a caller that has serialized the value already). */
export function utf8Bytes(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const unit = text.charCodeAt(i);
    // 2 bytes below U+0800, 3 above; a surrogate pair is 4 bytes for its 2 units.
    if (unit >= 0x80) bytes += unit < 0x800 ? 1 : unit >= 0xd800 && unit <= 0xdfff ? 1 : 2;
  }
  return bytes;
}

/**
 * The candidates to store, largest share (`bytes × uses`) first, until `totalBytes` is within `budget`. Empty when it
 * already is. When storing every candidate worth storing is not enough, all of those are chosen: the payloads are as
 * small as they can be made. Ties keep the candidates' order, so the choice is deterministic.
 */
export function chooseSpills<K>(candidates: SpillCandidate<K>[], totalBytes: number, budget: number): K[] {
  if (totalBytes <= budget) return [];
  const ordered = candidates
    .filter((c) => c.bytes >= MIN_SPILL_BYTES)
    .map((c, index) => ({ c, index }))
    .sort((a, b) => b.c.bytes * b.c.uses - a.c.bytes * a.c.uses || a.index - b.index);
  const chosen: K[] = [];
  let total = totalBytes;
  for (const { c } of ordered) {
    if (total <= budget) break;
    chosen.push(c.key);
    total -= (c.bytes - REF_BYTES) * c.uses;
  }
  return chosen;
}

/**
 * Splits values, in order, into groups whose bytes add up to at most `budget` (a value larger than the budget is a
 * group of its own): one group's store activities are scheduled in one workflow task.
 */
export function groupWithin<T extends { bytes: number }>(values: T[], budget: number): T[][] {
  const groups: T[][] = [];
  let current: T[] = [];
  let bytes = 0;
  for (const value of values) {
    if (current.length > 0 && bytes + value.bytes > budget) {
      groups.push(current);
      current = [];
      bytes = 0;
    }
    current.push(value);
    bytes += value.bytes;
  }
  if (current.length > 0) groups.push(current);
  return groups;
}

/** A value the interpreter may store: a node's output (stored, it replaces the output) or a run parameter. */
export type SpillKey = { node: string } | { param: string };

/** What a node's context reads (graph.ts `Reads`; absent: every parameter and no output). */
export interface ContextReads {
  nodes: string[];
  params: string[] | 'all';
}

/** One scheduling pass, as the scheduler decided it (scheduler/decide.ts) and the values it would assemble. */
export interface PassInput {
  /** completed joins with their outputs, in the pass's order */
  joins: { node: string; output: { branches: Record<string, Record<string, unknown>> } }[];
  /**
   * nodes starting, each with the contexts its regular activities carry and how many carry one at once (a loop's
   * template: its batch child's input, plus `concurrency` item activities when the template is a regular tool)
   */
  starts: { node: string; contexts: { reads: ContextReads | undefined; copies: number }[] }[];
  /** the output of a completed node */
  outputOf(node: string): unknown;
  params: Record<string, unknown>;
  /** parameters already stored (their reference travels instead) */
  storedParams: { has(name: string): boolean };
  isStored(value: unknown): boolean;
  bytesOf(value: unknown): number;
  budget: number;
}

export interface PassPlan {
  spills: SpillKey[];
  /**
   * What to leave out of this pass when the value to store is the output of a join completing in it (not stored yet:
   * apply the rest, then plan again): all starts of the pass, and the outer joins a nested join belongs to.
   */
  holdStarts: boolean;
  holdJoins: string[];
}

/**
 * What to store before the pass is applied. A join whose output is over the budget stores its largest members first
 * (the join's output is rebuilt from them). The contexts of the nodes starting together are one workflow task's
 * commands: their total, each copy counted, is held to the budget by storing the outputs and parameters with the
 * largest share.
 */
export function planPass(pass: PassInput): PassPlan {
  const completing = new Map(pass.joins.map((j) => [j.node, j.output] as const));
  const spills: SpillKey[] = [];
  const holdJoins: string[] = [];
  for (const join of pass.joins) {
    const members: SpillCandidate<{ node: string }>[] = [];
    for (const outputs of Object.values(join.output.branches)) {
      for (const [node, value] of Object.entries(outputs)) {
        if (!pass.isStored(value)) members.push({ key: { node }, bytes: pass.bytesOf(value), uses: 1 });
      }
    }
    const chosen = chooseSpills(members, pass.bytesOf(join.output), pass.budget);
    // A member that is itself a parallel node completing in this pass has no output to store yet.
    if (chosen.some((key) => completing.has(key.node))) holdJoins.push(join.node);
    else spills.push(...chosen);
  }
  if (spills.length > 0) return { spills, holdStarts: false, holdJoins: [] };
  if (holdJoins.length > 0) return { spills: [], holdStarts: true, holdJoins };

  const candidates = new Map<string, SpillCandidate<SpillKey>>();
  const count = (id: string, key: SpillKey, value: unknown, copies: number): void => {
    if (pass.isStored(value)) return;
    const seen = candidates.get(id);
    if (seen) seen.uses += copies;
    else candidates.set(id, { key, bytes: pass.bytesOf(value), uses: copies });
  };
  for (const start of pass.starts) {
    for (const { reads, copies } of start.contexts) {
      for (const node of reads?.nodes ?? []) {
        const value = completing.has(node) ? completing.get(node) : pass.outputOf(node);
        if (value !== undefined) count(`node:${node}`, { node }, value, copies);
      }
      const names = !reads || reads.params === 'all' ? Object.keys(pass.params) : reads.params.filter((name) => name in pass.params);
      for (const name of names) {
        if (!pass.storedParams.has(name)) count(`param:${name}`, { param: name }, pass.params[name], copies);
      }
    }
  }
  const all = [...candidates.values()];
  const total = all.reduce((sum, c) => sum + c.bytes * c.uses, 0);
  const chosen = chooseSpills(all, total, pass.budget);
  if (chosen.some((key) => 'node' in key && completing.has(key.node))) return { spills: [], holdStarts: true, holdJoins: [] };
  return { spills: chosen, holdStarts: false, holdJoins: [] };
}
