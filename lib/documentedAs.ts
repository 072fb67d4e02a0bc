import { z } from 'zod';

/**
 * Documentation-only typing (api/http/openapi.ts). Some fields validate loosely on purpose, because a service
 * validates them afterwards and names every problem at its own path (a workflow's `dag`, its definition document):
 * `z.unknown()` there is right for validation, and useless in the OpenAPI document and the typed client.
 *
 * `documentedAs(loose, typed)` keeps `loose` as the validating schema and tells the OpenAPI document to show `typed`
 * in its place (a named schema becomes a `$ref` to its component). Nothing is parsed with `typed`.
 * `io` pins the side shown (`input`: as the client writes it, defaults optional), e.g. for a stored value that is
 * answered exactly as it was accepted.
 *
 * Mark the finished loose schema: `.optional()`, `.describe()` and `.meta()` keep the mark, while a check added
 * afterwards (`.max()`, `.min()`...) makes a new schema without it.
 */
export interface DocumentedAs {
  schema: z.core.$ZodType;
  io?: 'input' | 'output';
}

const documented = new WeakMap<z.core.$ZodType, DocumentedAs>();

export function documentedAs<T extends z.core.$ZodType>(loose: T, typed: z.core.$ZodType, io?: 'input' | 'output'): T {
  documented.set(loose, { schema: typed, ...(io ? { io } : {}) });
  return loose;
}

/** How `schema` is documented, if it (or the schema it was cloned from by `.describe()`/`.meta()`) was marked. */
export function documentationOf(schema: z.core.$ZodType): DocumentedAs | undefined {
  for (let s: z.core.$ZodType | undefined = schema; s; s = s._zod.parent) {
    const found = documented.get(s);
    if (found) return found;
  }
  return undefined;
}
