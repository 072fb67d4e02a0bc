import type { z } from 'zod';
import type { ErrorDetail } from './errors';

/**
 * zod issues as error details: the one way every layer reports them (HTTP input in api/http/mount.ts, workflow
 * bodies and definitions, node configs, parameter declarations, triggers), so a client sees one shape whatever
 * refused its input. Pure and free of imports with side effects: lib/dag (bundled into workflow code) uses it.
 *
 * - `path`: the prefix, then the issue's path; fields joined by `.`, array indexes as `[n]`
 *   (`dag.nodes.b.config.inputs[1].from`, `body.members[0].role`).
 * - An unrecognized key (strict objects) is one detail per key at its own path, `unknown field`, rather than
 *   zod's one message for all of them at the parent's path.
 */
export function zodIssueDetails(error: z.ZodError, prefix = ''): ErrorDetail[] {
  return error.issues.flatMap((issue) =>
    issue.code === 'unrecognized_keys'
      ? issue.keys.map((key) => ({ path: detailPath(prefix, [...issue.path, key]), problem: 'unknown field' }))
      : [{ path: detailPath(prefix, issue.path), problem: issue.message }],
  );
}

/** `prefix` and `segments` as a detail path: `a.b[0].c`; an empty prefix or segment adds nothing. */
export function detailPath(prefix: string, segments: readonly PropertyKey[]): string {
  return [prefix, ...segments.map((segment) => (typeof segment === 'number' ? `[${segment}]` : String(segment)))]
    .filter(Boolean)
    .join('.')
    .replace(/\.\[/g, '[');
}
