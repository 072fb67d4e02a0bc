import { sqlString, type VectorKind } from './schema';

/** LanceDB filters (SQL predicates). Every one carries the organization: all organizations share a model's table. */

export function andAll(parts: (string | null | undefined)[]): string {
  return parts.filter(Boolean).join(' AND ');
}

/** One organization's rows, or one content's when `contentId` is given. */
export function ownerFilter(organizationId: string, contentId?: string): string {
  return andAll([`organization_id = ${sqlString(organizationId)}`, contentId ? `content_id = ${sqlString(contentId)}` : null]);
}

export interface SearchFilter {
  organizationId: string;
  kind: VectorKind;
  /** Restrict to these contents (filters answered by PostgreSQL first). */
  contentIds?: string[];
  excludeContentId?: string;
}

/** The rows a search may return. */
export function searchFilter(options: SearchFilter): string {
  return andAll([
    `organization_id = ${sqlString(options.organizationId)}`,
    `kind = ${sqlString(options.kind)}`,
    options.contentIds ? `content_id IN (${options.contentIds.map(sqlString).join(', ')})` : null,
    options.excludeContentId ? `content_id != ${sqlString(options.excludeContentId)}` : null,
  ]);
}
