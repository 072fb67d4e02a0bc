import { eventTriggerMatches, subscriptionMatches } from '../../../lib/events/catalog';
import { approvalForManualRun } from '../../../lib/triggers/approval';
import { parseTriggers, triggerConfigProblems } from '../../../lib/triggers/config';
import { cronProblem, isTimeZone, nextCronTimes, toTemporalCron } from '../../../lib/triggers/cron';
import { uuidFrom } from '../../../lib/triggers/ids';
import { mapParameters } from '../../../lib/triggers/mapping';
import { generateSigningSecret, sign, signatureHeaders, verify } from '../../../lib/triggers/standardWebhooks';
import type { Trigger } from '../../../lib/dag/model';

describe('cron and time zones', () => {
  test('valid and invalid expressions', () => {
    expect(cronProblem('*/5 * * * *')).toBeNull();
    expect(cronProblem('0 30 9 * * MON-FRI')).toBeNull();
    expect(cronProblem('* * * *')).toMatch(/5 fields/);
    expect(cronProblem('0 24 * * *')).toBe('invalid cron expression: hour 24 is out of range 0–23');
    expect(cronProblem('0 9 ? * *')).toMatch(/unsupported/);
    expect(cronProblem('0 9 1W * *')).toMatch(/unsupported/);
  });

  test.each([
    ['0 0 * * 8', 'day of week 8 is out of range 0–7 (0 and 7 are Sunday)'],
    ['0 0 * * 1,8', 'day of week 8 is out of range 0–7 (0 and 7 are Sunday)'],
    ['0 0 * * 1-9', 'day of week 9 is out of range 0–7 (0 and 7 are Sunday)'],
    ['0 0 * * fri-mon', 'day of week range "fri-mon" runs backwards: write the lower bound first (a range does not wrap around)'],
    ['0 0 * * 5-2', 'day of week range "5-2" runs backwards: write the lower bound first (a range does not wrap around)'],
    ['0 0 * * jan', 'day of week "jan" is not one of its names (sun–sat)'],
    ['60 * * * *', 'minute 60 is out of range 0–59'],
    ['5-70 * * * *', 'minute 70 is out of range 0–59'],
    ['*/0 * * * *', 'minute "*/0": a step is at least 1'],
    ['0 24 * * *', 'hour 24 is out of range 0–23'],
    ['0 0 0 * *', 'day of month 0 is out of range 1–31'],
    ['0 0 1-40/2 * *', 'day of month 40 is out of range 1–31'],
    ['0 0 * 13 *', 'month 13 is out of range 1–12 (or jan–dec)'],
    ['0 0 * 0 *', 'month 0 is out of range 1–12 (or jan–dec)'],
    ['0 0 * mon *', 'month "mon" is not one of its names (jan–dec)'],
    ['61 0 0 * * *', 'second 61 is out of range 0–59'],
    ['0 61 0 * * *', 'minute 61 is out of range 0–59'],
    ['0 0 30 2 *', 'day of month 30 never occurs in month 2: the schedule would never fire'],
    ['0 0 31 apr *', 'day of month 31 never occurs in month apr: the schedule would never fire'],
  ])('%s: our own words, naming the field and what it takes', (cron, problem) => {
    expect(cronProblem(cron)).toBe(`invalid cron expression: ${problem}`);
  });

  test.each(['0 0 * * 7', '0 0 * * 0', '0 0 * * mon-fri', '0 0 * JAN-mar 1', '0 0 29 2 *', '*/15 0-6,20-23 1-31/2 * *', '0 0 0 1 1 *'])(
    '%s is accepted',
    (cron) => expect(cronProblem(cron)).toBeNull(),
  );

  test('IANA zones', () => {
    expect(isTimeZone('Europe/Paris')).toBe(true);
    expect(isTimeZone('UTC')).toBe(true);
    expect(isTimeZone('America/Argentina/Buenos_Aires')).toBe(true);
    expect(isTimeZone('Europe/Atlantis')).toBe(false);
    expect(isTimeZone('+02:00')).toBe(false);
  });

  test('next fire times follow daylight saving time (Paris, spring forward and fall back)', () => {
    // 09:00 Paris is 08:00Z in winter and 07:00Z in summer; 2026-03-29 and 2026-10-25 are the switch days.
    expect(nextCronTimes('0 9 * * *', 'Europe/Paris', 3, new Date('2026-03-27T12:00:00Z'))).toEqual([
      '2026-03-28T08:00:00.000Z',
      '2026-03-29T07:00:00.000Z',
      '2026-03-30T07:00:00.000Z',
    ]);
    expect(nextCronTimes('0 9 * * *', 'Europe/Paris', 2, new Date('2026-10-24T12:00:00Z'))).toEqual([
      '2026-10-25T08:00:00.000Z',
      '2026-10-26T08:00:00.000Z',
    ]);
    // 02:30 does not exist in Paris on 2026-03-29: the firing moves to the next valid instant, once.
    const spring = nextCronTimes('30 2 * * *', 'Europe/Paris', 3, new Date('2026-03-28T00:00:00Z'));
    expect(new Set(spring).size).toBe(3);
  });

  test('six fields (seconds first) become Temporal seven-field cron strings', () => {
    expect(toTemporalCron('0 9 * * *')).toBe('0 9 * * *');
    expect(toTemporalCron('15 0 9 * * *')).toBe('15 0 9 * * * *');
  });
});

describe('trigger configs', () => {
  const problems = (triggers: Trigger[]) => triggerConfigProblems(triggers.map((trigger, index) => ({ trigger, index, path: `triggers[${index}]` })));
  const t = (type: Trigger['type'], config: Record<string, unknown>, id?: string): Trigger => ({ type, config, enabled: true, ...(id ? { id } : {}) });

  test('defaults and keys', () => {
    const [schedule, webhook, manual] = parseTriggers([t('schedule', { cron: '0 9 * * *' }), t('webhook', { path: '/in/' }, 'hook'), t('manual', {})]);
    expect(schedule).toMatchObject({ key: 'schedule-0', config: { timezone: 'UTC', overlap: 'skip', parameters: {} } });
    expect(webhook).toMatchObject({ key: 'hook', config: { path: 'in', method: 'POST', authentication: 'bearer', allowUnauthenticated: false } });
    expect(manual).toMatchObject({ config: { requireApproval: false, approvers: ['owner', 'admin'], allowSelfApproval: false, onApprovalTimeout: 'fail' } });
  });

  test('problems name the trigger and the field', () => {
    expect(problems([t('webhook', { path: 'x', authentication: 'none' }, 'open')])).toEqual([
      { path: 'triggers[0].config.authentication', problem: expect.stringMatching(/^trigger "open": none needs allowUnauthenticated/) },
    ]);
    expect(problems([t('webhook', { path: 'same' }), t('webhook', { path: 'same' })])[0]).toMatchObject({ path: 'triggers[1].config.path' });
    expect(problems([t('event', { source: 'content', event: 'exploded' })])[0]!.problem).toMatch(/no event content.exploded/);
    expect(problems([t('event', { source: 'run', event: 'completed', bucket: 'b' })])[0]!.path).toBe('triggers[0].config.bucket');
    expect(problems([t('event', { source: 'content', event: 'content.uploaded', bucket: 'b' })])).toEqual([]);
    expect(problems([t('manual', { approvers: ['boss'] })])[0]!.path).toBe('triggers[0].config.approvers[0]');
    expect(problems([t('schedule', { cron: '0 9 * * *', extra: 1 }, 'x')])).toEqual([{ path: 'triggers[0].config.extra', problem: 'trigger "x": unknown field' }]);
    expect(problems([t('schedule', { cron: '0 9 * * *' }, 'a'), t('manual', {}, 'a')])[0]!.path).toBe('triggers[1].id');
  });

  test('approval requirement of manual runs', () => {
    expect(approvalForManualRun([t('manual', {})], 1000, 'u')).toBeNull();
    const approval = approvalForManualRun([t('manual', { requireApproval: true, approvalTimeout: '2m', onApprovalTimeout: 'cancel' })], 1000, 'u', 0);
    expect(approval).toEqual({
      record: { status: 'pending', approvers: ['owner', 'admin'], allowSelfApproval: false, requestedBy: 'u', timeoutMs: 120_000, onTimeout: 'cancel', expiresAt: new Date(120_000).toISOString() },
      wait: { timeoutMs: 120_000, onTimeout: 'cancel' },
    });
  });
});

describe('matching and mapping', () => {
  test('endpoint subscriptions', () => {
    expect(subscriptionMatches('*', 'run.failed')).toBe(true);
    expect(subscriptionMatches('run.*', 'run.failed')).toBe(true);
    expect(subscriptionMatches('run.*', 'runner.failed')).toBe(false);
    expect(subscriptionMatches('run.failed', 'run.completed')).toBe(false);
  });

  test('event triggers on source, event and bucket', () => {
    const payload = { bucket: 'media' };
    expect(eventTriggerMatches({ source: 'content', event: 'uploaded' }, 'content.uploaded', payload)).toBe(true);
    expect(eventTriggerMatches({ source: 'content', event: 'uploaded', bucket: 'media' }, 'content.uploaded', payload)).toBe(true);
    expect(eventTriggerMatches({ source: 'content', event: 'uploaded', bucket: 'other' }, 'content.uploaded', payload)).toBe(false);
    expect(eventTriggerMatches({ source: 'content', event: '*' }, 'content.deleted', payload)).toBe(true);
    expect(eventTriggerMatches({ source: 'custom', event: 'order.paid' }, 'custom.order.paid', {})).toBe(true);
    expect(eventTriggerMatches({ source: 'run', event: 'completed' }, 'content.completed', {})).toBe(false);
  });

  test('parameter mapping: explicit references, else declared names from the body', () => {
    const roots = { body: { order: { id: 7, lines: [{ sku: 'a' }] } }, query: { src: 'shop' }, headers: { 'x-id': 'h' } };
    expect(mapParameters({ id: 'body.order.id', sku: 'body.order.lines.0.sku', src: 'query.src', h: 'headers.x-id', none: 'body.missing' }, roots, roots.body, [])).toEqual({
      id: 7,
      sku: 'a',
      src: 'shop',
      h: 'h',
    });
    expect(mapParameters(undefined, roots, { a: 1, b: 2, constructor: 3 }, ['a', 'c'])).toEqual({ a: 1 });
    expect(mapParameters(undefined, roots, 'text body', ['a'])).toEqual({});
  });

  test('derived ids are stable UUIDs', () => {
    expect(uuidFrom('event:1:2')).toBe(uuidFrom('event:1:2'));
    expect(uuidFrom('event:1:2')).not.toBe(uuidFrom('event:1:3'));
    expect(uuidFrom('x')).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-5[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
  });
});

describe('Standard Webhooks', () => {
  test('sign and verify; the reference vector of the specification', () => {
    // https://github.com/standard-webhooks/standard-webhooks/blob/main/spec/standard-webhooks.md (example values)
    const secret = 'whsec_MfKQ9r8GKYqrTwjUPD8ILPZIo2LaLaSw';
    const body = '{"test": 2432232314}';
    expect(sign(secret, 'msg_p5jXN8AQM9LWM0D4loKWxJek', 1614265330, body)).toBe('v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=');
    const now = 1614265330 * 1000;
    const headers = { id: 'msg_p5jXN8AQM9LWM0D4loKWxJek', timestamp: '1614265330', signature: 'v1,bad v1,g0hM9SsE+OTPJTGt/tmIKtSyZlE3uFJELVlNIOLJ1OE=' };
    expect(verify(secret, headers, Buffer.from(body), 300_000, now)).toMatchObject({ ok: true });
    expect(verify(secret, headers, Buffer.from(body), 300_000, now + 301_000)).toMatchObject({ ok: false, problem: expect.stringMatching(/tolerance/) });
    expect(verify(secret, { ...headers, id: 'msg_other' }, Buffer.from(body), 300_000, now)).toMatchObject({ ok: false });
  });

  test('generated secrets round-trip', () => {
    const secret = generateSigningSecret();
    const h = signatureHeaders(secret, 'id-1', 'body');
    expect(verify(secret, { id: h['webhook-id'], timestamp: h['webhook-timestamp'], signature: h['webhook-signature'] }, Buffer.from('body'), 1000)).toMatchObject({ ok: true });
  });
});
