import type { Client, FetchOptions } from 'openapi-fetch';
import { unwrap } from './errors';
import type { paths } from './generated/schema';

type GetOperation<P extends keyof paths> = paths[P] extends { get: infer Operation } ? Operation : never;
type OkBody<Operation> = Operation extends { responses: { 200: { content: { 'application/json': infer Body } } } } ? Body : never;
type ItemOfPage<Body> = Body extends { data: (infer Item)[]; nextCursor: string | null } ? Item : never;

/** The GET paths that answer a page, `{ data: [...], nextCursor }` (docs/conventions.md#lists). */
export type PaginatedPath = {
  [P in keyof paths]: [ItemOfPage<OkBody<GetOperation<P>>>] extends [never] ? never : P;
}[keyof paths];

/** One element of `data` on the pages of `P`. */
export type PageItem<P extends PaginatedPath> = ItemOfPage<OkBody<GetOperation<P>>>;

/** The options of a GET of `P` (path and query parameters, headers, signal), plus how many items to take at most. */
export type PaginateOptions<P extends PaginatedPath> = FetchOptions<GetOperation<P>> & {
  /** Stop after this many items, without asking for another page. */
  maxItems?: number;
};

/** The options are required exactly when the path has required parameters (`/api/v1/workflows/{id}/runs`). */
export type PaginateArgs<P extends PaginatedPath> =
  Record<never, never> extends FetchOptions<GetOperation<P>> ? [options?: PaginateOptions<P>] : [options: PaginateOptions<P>];

interface Page {
  data: unknown[];
  nextCursor: string | null;
}

interface LooseGetInit {
  params?: { query?: Record<string, unknown> } & Record<string, unknown>;
  maxItems?: number;
  [option: string]: unknown;
}

// openapi-fetch checks each call against one literal path; the path here is a type parameter, which its overloads
// cannot resolve. The public signatures above carry the precise types; inside, a GET is a GET.
type LooseGet = (path: string, init: LooseGetInit) => Promise<{ data?: Page; error?: unknown; response: Response }>;

/**
 * Every item of a list, page after page: follows `nextCursor` until it is null (or `maxItems` were yielded).
 * A page the API refuses throws `LoomApiError`. `params.query.limit` sets the page size, `params.query.cursor` the
 * first page.
 *
 *   for await (const run of paginate(loom, '/api/v1/runs', { params: { query: { status: 'completed' } } })) { ... }
 */
export async function* paginate<P extends PaginatedPath>(
  client: Client<paths>,
  path: P,
  ...[options]: PaginateArgs<P>
): AsyncGenerator<PageItem<P>, void, undefined> {
  const { maxItems = Number.POSITIVE_INFINITY, ...init } = (options ?? {}) as LooseGetInit;
  const get = client.GET.bind(client) as unknown as LooseGet;
  const query = init.params?.query ?? {};
  let cursor = typeof query.cursor === 'string' ? query.cursor : undefined;
  let yielded = 0;
  while (yielded < maxItems) {
    const page = unwrap(
      await get(path, { ...init, params: { ...init.params, query: { ...query, ...(cursor === undefined ? {} : { cursor }) } } }),
    );
    for (const item of page.data) {
      yield item as PageItem<P>;
      yielded += 1;
      if (yielded >= maxItems) return;
    }
    if (page.nextCursor === null) return;
    // A server answering the cursor it was given would make this loop forever.
    if (page.nextCursor === cursor) throw new Error(`${path}: the API answered the same cursor again`);
    cursor = page.nextCursor;
  }
}

/** Every item of a list in one array (see `paginate`); mind `maxItems` on long lists. */
export async function collect<P extends PaginatedPath>(
  client: Client<paths>,
  path: P,
  ...args: PaginateArgs<P>
): Promise<PageItem<P>[]> {
  const items: PageItem<P>[] = [];
  for await (const item of paginate(client, path, ...args)) items.push(item);
  return items;
}
