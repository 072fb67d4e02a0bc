import { organizationPrefix } from '../../../lib/storage';
import { NonRetryableToolError } from '../types';

/** Workflow files live under `org/<orgId>/workflow-files/<path>`: a tool can never name another prefix. */
const SEGMENT = /^[A-Za-z0-9][A-Za-z0-9._ -]{0,199}$/;

export function workflowFileKey(organizationId: string, path: string): string {
  const segments = path.replace(/^\/+/, '').split('/');
  if (!path || segments.length > 20 || segments.some((s) => !SEGMENT.test(s) || s === '..' || s.endsWith('.'))) {
    throw new NonRetryableToolError(
      'INVALID_PATH',
      'paths are 1-20 segments of letters, digits, ".", "_", "-" and spaces, separated by "/" (no "..")',
    );
  }
  return `${organizationPrefix(organizationId)}workflow-files/${segments.join('/')}`;
}

export const MAX_FILE_BYTES = 10 * 1024 * 1024;
