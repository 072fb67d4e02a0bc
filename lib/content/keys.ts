import { organizationPrefix } from '../storage';

/**
 * Object keys of content in MinIO. Every file of a content lives under one prefix, so deletion is "remove the
 * prefix": `org/<orgId>/content/<contentId>/<version>/original` and the derived files beside it
 * (`.../<version>/derived/<name>`).
 */
export function contentPrefix(organizationId: string, contentId: string): string {
  return `${organizationPrefix(organizationId)}content/${contentId}/`;
}

export function originalKey(organizationId: string, contentId: string, version: number): string {
  return `${contentPrefix(organizationId, contentId)}${version}/original`;
}

export function derivedKey(organizationId: string, contentId: string, version: number, name: string): string {
  return `${contentPrefix(organizationId, contentId)}${version}/derived/${name}`;
}
