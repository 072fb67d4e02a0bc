import { MAX_RESPOND_HEADERS, respondHeaderProblem } from '../../runs/webhookResponse';
import type { RespondConfig } from '../nodeConfig';
import type { Problem } from '../problems';
import { misplacedSecretReferenceProblems } from '../secretReferences';
import { templateReferenceProblems, type ReferenceScope } from './references';
import type { ValidationEnv } from './types';

/**
 * A respond node: headers it may set (lib/runs/webhookResponse.ts), at most 20, each name once whatever its case;
 * the templates of header values and body checked like any template's; secrets refused (the sender reads them).
 */
export function respondProblems(scope: ReferenceScope, env: ValidationEnv, nodeId: string, config: RespondConfig, base: string): Problem[] {
  const problems: Problem[] = [];
  const names = Object.keys(config.headers);
  if (names.length > MAX_RESPOND_HEADERS) problems.push({ path: `${base}.config.headers`, problem: `at most ${MAX_RESPOND_HEADERS} headers` });
  const seen = new Set<string>();
  for (const name of names) {
    const path = `${base}.config.headers.${name}`;
    const refused = respondHeaderProblem(name);
    if (refused) problems.push({ path, problem: refused });
    if (seen.has(name.toLowerCase())) problems.push({ path, problem: 'the same header twice (names are case-insensitive)' });
    seen.add(name.toLowerCase());
    problems.push(...templateReferenceProblems(scope, env, nodeId, config.headers[name]!, path, new Set()));
  }
  if (config.body !== undefined) problems.push(...templateReferenceProblems(scope, env, nodeId, config.body, `${base}.config.body`, new Set()));
  problems.push(...misplacedSecretReferenceProblems({ headers: config.headers, body: config.body }, `${base}.config`, 'webhook answers'));
  return problems;
}
