import { parseDuration } from '../../duration';
import { MAX_WAIT_MS } from '../waits';
import type { ApprovalConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { misplacedSecretReferenceProblems } from '../secretReferences';
import { templateReferenceProblems, type ReferenceScope } from './references';
import type { ValidationEnv } from './types';

const BRANCH_FIELDS = ['approved_branch', 'rejected_branch', 'timed_out_branch'] as const;

/** The nodes an approval leads to: the branch of each outcome it names. */
export function approvalTargets(config: Pick<ApprovalConfig, (typeof BRANCH_FIELDS)[number]>): (string | undefined)[] {
  return BRANCH_FIELDS.map((field) => config[field]);
}

/**
 * An approval's body: who decides (a role, users or both; N of M cannot ask more approvals than listed users when
 * only users decide), a timeout from 1s to 366d, a form whose field names are distinct and whose `choice` fields
 * offer options (and only those), and a message whose names are checked like any template's (secrets refused:
 * people read it).
 */
export function approvalProblems(scope: ReferenceScope, env: ValidationEnv, nodeId: string, config: ApprovalConfig, base: string): Problem[] {
  const problems: Problem[] = [];
  const { approvers, required } = config;
  if (approvers.role === undefined && approvers.users === undefined) {
    problems.push({ path: `${base}.config.approvers`, problem: 'name who decides: a role (e.g. "admin": admins and owners), users (ids), or both' });
  }
  if (approvers.users !== undefined && new Set(approvers.users).size !== approvers.users.length) {
    problems.push({ path: `${base}.config.approvers.users`, problem: 'a user is listed twice' });
  }
  if (approvers.role === undefined && approvers.users !== undefined && required > approvers.users.length) {
    problems.push({ path: `${base}.config.required`, problem: `${required} approvals are needed but only ${approvers.users.length} users may decide` });
  }
  let timeoutMs = Number.NaN;
  try {
    timeoutMs = parseDuration(config.timeout);
  } catch (err) {
    problems.push({ path: `${base}.config.timeout`, problem: (err as Error).message });
  }
  if (Number.isFinite(timeoutMs) && (timeoutMs < 1000 || timeoutMs > MAX_WAIT_MS)) {
    problems.push({ path: `${base}.config.timeout`, problem: 'from 1s to 366d' });
  }
  const names = new Set<string>();
  config.form.forEach((field, i) => {
    const path = `${base}.config.form[${i}]`;
    if (names.has(field.name)) problems.push({ path: `${path}.name`, problem: `"${field.name}" is already a field of the form` });
    names.add(field.name);
    if (field.type === 'choice' && field.options === undefined) problems.push({ path: `${path}.options`, problem: 'required: the values a choice offers' });
    if (field.type !== 'choice' && field.options !== undefined) problems.push({ path: `${path}.options`, problem: 'only a choice field offers options' });
  });
  if (config.message !== undefined) {
    const path = `${base}.config.message`;
    problems.push(
      ...templateReferenceProblems(scope, env, nodeId, config.message, path, new Set()),
      ...misplacedSecretReferenceProblems(config.message, path, 'approval messages'),
    );
  }
  return problems;
}

/** The branches are other nodes of the graph, and `on_timeout: branch` names the one it takes. */
export function approvalBranchProblems(nodeId: string, config: ApprovalConfig, base: string, mentionedIds: ReadonlySet<string>): Problem[] {
  const problems: Problem[] = [];
  for (const field of BRANCH_FIELDS) {
    const target = config[field];
    if (target === undefined) continue;
    if (!mentionedIds.has(target)) problems.push({ path: `${base}.config.${field}`, problem: `"${target}" is not a node of the graph` });
    else if (target === nodeId) problems.push({ path: `${base}.config.${field}`, problem: 'an approval cannot branch to itself' });
  }
  if (config.on_timeout === 'branch' && config.timed_out_branch === undefined) {
    problems.push({ path: `${base}.config.timed_out_branch`, problem: 'required: on_timeout is branch' });
  }
  if (config.on_timeout !== 'branch' && config.timed_out_branch !== undefined) {
    problems.push({ path: `${base}.config.timed_out_branch`, problem: 'taken only with on_timeout: branch' });
  }
  return problems;
}
