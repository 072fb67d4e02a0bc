import type { Trigger } from './model';
import type { Problem } from './problems';

/**
 * Save-time checks of trigger configs by type (spec: schedule cron+timezone, webhook path/method/authentication,
 * event source/event/bucket, manual requireApproval/approvers). Scheduling itself belongs to the triggers domain.
 */
const CRON_FIELD = /^[\d*/,\-A-Za-z?LW#]+$/;
const METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'];
const APPROVER_ROLES = ['owner', 'admin', 'member', 'viewer'];

export function triggerProblems(trigger: Trigger, path: string): Problem[] {
  const c = trigger.config;
  const problems: Problem[] = [];
  const str = (key: string, required: boolean): void => {
    if (c[key] === undefined) {
      if (required) problems.push({ path: `${path}.config.${key}`, problem: 'required' });
    } else if (typeof c[key] !== 'string' || !c[key]) problems.push({ path: `${path}.config.${key}`, problem: 'must be a non-empty string' });
  };
  switch (trigger.type) {
    case 'schedule': {
      str('cron', true);
      str('timezone', false);
      if (typeof c.cron === 'string') {
        const fields = c.cron.trim().split(/\s+/);
        if (fields.length < 5 || fields.length > 6 || !fields.every((f) => CRON_FIELD.test(f))) {
          problems.push({ path: `${path}.config.cron`, problem: 'not a cron expression (5 or 6 fields)' });
        }
      }
      if (typeof c.timezone === 'string' && !isTimeZone(c.timezone)) {
        problems.push({ path: `${path}.config.timezone`, problem: `unknown IANA time zone "${c.timezone}"` });
      }
      break;
    }
    case 'webhook':
      str('path', false);
      str('authentication', false);
      if (c.method !== undefined && !METHODS.includes(String(c.method).toUpperCase())) {
        problems.push({ path: `${path}.config.method`, problem: `one of ${METHODS.join(', ')}` });
      }
      break;
    case 'event':
      str('source', true);
      str('event', true);
      str('bucket', false);
      break;
    case 'manual':
      if (c.requireApproval !== undefined && typeof c.requireApproval !== 'boolean') {
        problems.push({ path: `${path}.config.requireApproval`, problem: 'must be a boolean' });
      }
      if (c.approvers !== undefined && (!Array.isArray(c.approvers) || c.approvers.some((r) => !APPROVER_ROLES.includes(r as string)))) {
        problems.push({ path: `${path}.config.approvers`, problem: `a list of roles (${APPROVER_ROLES.join(', ')})` });
      }
      break;
  }
  return problems;
}

function isTimeZone(zone: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: zone });
    return true;
  } catch {
    return false;
  }
}
