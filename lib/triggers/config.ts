import { runPrioritySchema } from '../dag/flowControl';
import { z } from 'zod';
import type { Trigger } from '../dag/model';
import { parseDuration } from '../duration';
import { parseRateRule } from '../rateRule';
import { CUSTOM_EVENT_TYPE, isCatalogEvent, EVENT_SOURCES } from '../events/catalog';
import { cronProblem, isTimeZone } from './cron';
import { DST_POLICIES } from './dst';
import { zodIssueDetails } from '../zodIssues';

/**
 * The trigger configs the triggers domain understands (docs/triggers.md), on top of the spec's keys. Parsed with
 * defaults by `parseTriggerConfig`; checked at save time through the validation env (`triggerConfigProblems`), so
 * a bad cron, zone, path or mapping is a 422 WORKFLOW_INVALID naming the trigger. Pure (no I/O).
 */

const durationText = z.string().refine((v) => {
  try {
    parseDuration(v);
    return true;
  } catch {
    return false;
  }
}, 'a duration such as 30s, 5m, 1h or 7d');

const rateText = z.string().refine((v) => {
  try {
    parseRateRule(v);
    return true;
  } catch {
    return false;
  }
}, 'a rate such as 60/1m (hits per window) or off');

/** `body`, `body.a.b`, `query.x`, `headers.x-y` (webhooks); `event`, `data`, `data.a`, `type`, `id` (events). */
const SOURCE_REF = /^[A-Za-z_][A-Za-z0-9_-]*(\.[A-Za-z0-9_-]+)*$/;
const mappingSchema = z.record(
  z.string().regex(/^[A-Za-z_][A-Za-z0-9_]{0,63}$/, 'a parameter name'),
  z.string().max(300).regex(SOURCE_REF, 'a dotted reference such as body.order.id'),
);

/** The priority of the runs a trigger starts (docs/runs.md#priority): 1 first to 5 last; unset, the workflow's. */
const runPriority = runPrioritySchema.optional();

export const OVERLAP_POLICIES = ['skip', 'buffer_one', 'buffer_all', 'cancel_other', 'terminate_other', 'allow_all'] as const;

export const scheduleConfigSchema = z.strictObject({
  cron: z.string().min(1),
  timezone: z.string().optional().default('UTC'),
  overlap: z.enum(OVERLAP_POLICIES).optional().default('skip'),
  catchupWindow: durationText.optional(),
  parameters: z.record(z.string(), z.unknown()).optional().default({}),
  /**
   * Daylight-saving changes in `timezone`: `adjust` (default) runs a time the clocks skip at the end of the gap and
   * a time they repeat once; `exact` follows the cron to the letter (a skipped time never runs, a repeated one runs
   * twice). docs/triggers.md#daylight-saving-time.
   */
  dst: z.enum(DST_POLICIES).optional().default('adjust'),
  priority: runPriority,
});

export const WEBHOOK_METHODS = ['GET', 'POST', 'PUT', 'PATCH', 'DELETE'] as const;
export const WEBHOOK_PATH = /^[A-Za-z0-9][A-Za-z0-9._~-]{0,99}$/;

export const webhookConfigSchema = z.strictObject({
  /** One URL segment; leading and trailing slashes are ignored. Defaults to the trigger's key. */
  path: z.string().max(102).optional(),
  method: z
    .string()
    .optional()
    .default('POST')
    .transform((m) => m.toUpperCase())
    .pipe(z.enum(WEBHOOK_METHODS)),
  authentication: z.enum(['bearer', 'hmac', 'none']).optional().default('bearer'),
  allowUnauthenticated: z.boolean().optional().default(false),
  parameters: mappingSchema.optional(),
  rateLimit: rateText.optional(),
  /**
   * A custom event type (`custom.<word>...`): each delivery publishes that event instead of starting a run, its data
   * the mapped fields (`parameters`, any names) or else the body; runs waiting for it (wait_for_event) wake.
   */
  publish: z.string().max(100).regex(CUSTOM_EVENT_TYPE, 'a custom event type: custom.<word>(.<word>)*, lower case').optional(),
  priority: runPriority,
});

export const eventConfigSchema = z.strictObject({
  source: z.string().min(1),
  event: z.string().min(1),
  bucket: z.string().min(1).optional(),
  parameters: mappingSchema.optional(),
  priority: runPriority,
});

export const APPROVER_ROLES = ['owner', 'admin', 'member', 'viewer'] as const;

export const manualConfigSchema = z.strictObject({
  requireApproval: z.boolean().optional().default(false),
  approvers: z.array(z.enum(APPROVER_ROLES)).min(1).optional().default(['owner', 'admin']),
  allowSelfApproval: z.boolean().optional().default(false),
  approvalTimeout: durationText.optional(),
  onApprovalTimeout: z.enum(['fail', 'cancel']).optional().default('fail'),
});

export type ScheduleConfig = z.output<typeof scheduleConfigSchema>;
export type WebhookConfig = z.output<typeof webhookConfigSchema> & { path: string };
export type EventConfig = z.output<typeof eventConfigSchema>;
export type ManualConfig = z.output<typeof manualConfigSchema>;

export type ParsedTrigger =
  | { key: string; index: number; enabled: boolean; type: 'schedule'; config: ScheduleConfig }
  | { key: string; index: number; enabled: boolean; type: 'webhook'; config: WebhookConfig }
  | { key: string; index: number; enabled: boolean; type: 'event'; config: EventConfig }
  | { key: string; index: number; enabled: boolean; type: 'manual'; config: ManualConfig };

/** A trigger's stable name: its `id`, else `<type>-<position>` (positions count per definition). */
export function triggerKey(trigger: Pick<Trigger, 'id' | 'type'>, index: number): string {
  return trigger.id ?? `${trigger.type}-${index}`;
}

export function normalizePath(path: string): string {
  return path.replace(/^\/+|\/+$/g, '');
}

/** Parses one stored trigger with defaults; null when it does not parse (cannot happen for saved definitions). */
export function parseTrigger(trigger: Trigger, index: number): ParsedTrigger | null {
  const key = triggerKey(trigger, index);
  const base = { key, index, enabled: trigger.enabled !== false };
  switch (trigger.type) {
    case 'schedule': {
      const r = scheduleConfigSchema.safeParse(trigger.config);
      return r.success ? { ...base, type: 'schedule', config: r.data } : null;
    }
    case 'webhook': {
      const r = webhookConfigSchema.safeParse(trigger.config);
      return r.success ? { ...base, type: 'webhook', config: { ...r.data, path: normalizePath(r.data.path ?? key) } } : null;
    }
    case 'event': {
      const r = eventConfigSchema.safeParse(trigger.config);
      return r.success ? { ...base, type: 'event', config: r.data } : null;
    }
    case 'manual': {
      const r = manualConfigSchema.safeParse(trigger.config);
      return r.success ? { ...base, type: 'manual', config: r.data } : null;
    }
  }
}

export function parseTriggers(triggers: Trigger[] | undefined): ParsedTrigger[] {
  return (triggers ?? []).map((t, i) => parseTrigger(t, i)).filter((t): t is ParsedTrigger => t !== null);
}

export interface TriggerProblem {
  path: string;
  problem: string;
}

const SCHEMAS = { schedule: scheduleConfigSchema, webhook: webhookConfigSchema, event: eventConfigSchema, manual: manualConfigSchema };

/** Save-time problems of a definition's triggers, each naming the trigger (`trigger "<key>": ...`). */
export function triggerConfigProblems(entries: { trigger: Trigger; path: string; index: number }[]): TriggerProblem[] {
  const problems: TriggerProblem[] = [];
  const keys = new Map<string, string>();
  const routes = new Map<string, string>();
  for (const { trigger, path, index } of entries) {
    const key = triggerKey(trigger, index);
    const say = (where: string, problem: string): void => {
      problems.push({ path: `${path}${where}`, problem: `trigger "${key}": ${problem}` });
    };
    if (keys.has(key)) say('.id', `the id is already used by ${keys.get(key)}`);
    keys.set(key, path);
    const parsed = SCHEMAS[trigger.type].safeParse(trigger.config);
    if (!parsed.success) {
      for (const detail of zodIssueDetails(parsed.error, 'config')) say(`.${detail.path}`, detail.problem);
      continue;
    }
    const c = trigger.config;
    switch (trigger.type) {
      case 'schedule': {
        const problem = cronProblem(String(c.cron));
        if (problem) say('.config.cron', problem);
        const zone = (c.timezone as string | undefined) ?? 'UTC';
        if (!isTimeZone(zone)) say('.config.timezone', `unknown IANA time zone "${zone}"`);
        break;
      }
      case 'webhook': {
        const cfg = parsed.data as z.output<typeof webhookConfigSchema>;
        const routePath = normalizePath(cfg.path ?? key);
        if (!WEBHOOK_PATH.test(routePath)) say('.config.path', 'one URL segment of letters, digits, ., _, ~ and - (at most 100)');
        if (cfg.authentication === 'none' && !cfg.allowUnauthenticated) {
          say('.config.authentication', 'none needs allowUnauthenticated: true (anyone who knows the URL can start runs)');
        }
        const route = `${cfg.method} ${routePath}`;
        if (routes.has(route)) say('.config.path', `${route} is already used by ${routes.get(route)}`);
        routes.set(route, path);
        break;
      }
      case 'event': {
        const cfg = parsed.data as EventConfig;
        const name = cfg.event.startsWith(`${cfg.source}.`) ? cfg.event.slice(cfg.source.length + 1) : cfg.event;
        if (!(EVENT_SOURCES as readonly string[]).includes(cfg.source)) {
          say('.config.source', `one of ${EVENT_SOURCES.join(', ')}`);
        } else if (name !== '*' && cfg.source !== 'custom' && !isCatalogEvent(`${cfg.source}.${name}`)) {
          say('.config.event', `no event ${cfg.source}.${name} in the catalog (docs/events.md)`);
        } else if (cfg.source === 'custom' && !/^[a-z0-9_]+(\.[a-z0-9_]+)*$/.test(name) && name !== '*') {
          say('.config.event', 'custom event names are lower-case words separated by dots');
        }
        if (cfg.bucket !== undefined && cfg.source !== 'content') say('.config.bucket', 'only content events carry a bucket');
        break;
      }
      case 'manual':
        break;
    }
  }
  return problems;
}
