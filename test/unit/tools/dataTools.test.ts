import { createHmac } from 'node:crypto';
import csvParse from '../../../activities/tools/csv_parse';
import delay from '../../../activities/tools/delay';
import fail from '../../../activities/tools/fail';
import xmlParse from '../../../activities/tools/xml_parse';
import { signStandardWebhook, webhookMessageId } from '../../../activities/tools/webhook_send';
import { workflowFileKey } from '../../../activities/tools/support/files';
import { failForStatus } from '../../../activities/tools/support/net';
import type { ToolContext } from '../../../activities/tools/types';

const ctx = (attempt = 1): ToolContext =>
  ({ attempt, organizationId: 'o', runId: 'r', nodeId: 'n', idempotencyKey: 'r:n', heartbeat: () => undefined, signal: new AbortController().signal }) as unknown as ToolContext;

describe('csv_parse', () => {
  test('rows keyed by header, or arrays', async () => {
    expect(await csvParse.execute({ text: 'a,b\n1,2\n\n3,4\n' }, ctx())).toEqual({
      rows: [{ a: '1', b: '2' }, { a: '3', b: '4' }],
      count: 2,
      columns: ['a', 'b'],
    });
    expect(await csvParse.execute({ text: 'x;y\n', delimiter: ';', header: false }, ctx())).toMatchObject({ rows: [['x', 'y']], columns: null });
  });
  test('bad CSV and too many rows fail without retry', async () => {
    await expect(csvParse.execute({ text: 'a,b\n1,2,3\n' }, ctx())).rejects.toMatchObject({ code: 'INVALID_CSV' });
    await expect(csvParse.execute({ text: 'a\n1\n2\n3\n', max_rows: 2 }, ctx())).rejects.toMatchObject({ code: 'TOO_MANY_ROWS' });
  });
});

describe('xml_parse', () => {
  test('parses with attributes and always-array tags', async () => {
    const out = await xmlParse.execute({ text: '<r><i id="1">a</i></r>', always_array: ['i'] }, ctx());
    expect(out).toEqual({ result: { r: { i: [{ '#text': 'a', '@_id': '1' }] } } });
  });
  test('entity expansion is off and DOCTYPE refused (billion laughs, XXE)', async () => {
    const laughs = '<?xml version="1.0"?><!DOCTYPE lolz [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;">]><r>&lol2;</r>';
    await expect(xmlParse.execute({ text: laughs }, ctx())).rejects.toMatchObject({ code: 'INVALID_XML' });
    const out = (await xmlParse.execute({ text: '<r>&amp;x</r>' }, ctx())) as { result: { r: string } };
    expect(out.result.r).toBe('&amp;x');
    await expect(xmlParse.execute({ text: '<r><a></r>' }, ctx())).rejects.toMatchObject({ code: 'INVALID_XML' });
  });
});

describe('fail (test tool)', () => {
  test('modes', async () => {
    await expect(fail.execute({ mode: 'always' }, ctx())).rejects.toMatchObject({ code: 'TOOL_FAILED' });
    await expect(fail.execute({ mode: 'non_retryable', code: 'NOPE' }, ctx())).rejects.toMatchObject({ name: 'NonRetryableToolError', code: 'NOPE' });
    await expect(fail.execute({ mode: 'times', times: 2 }, ctx(2))).rejects.toBeDefined();
    expect(await fail.execute({ mode: 'times', times: 2, value: 7 }, ctx(3))).toEqual({ attempt: 3, value: 7 });
    expect(await fail.execute({ mode: 'never' }, ctx())).toEqual({ attempt: 1, value: null });
  });
});

describe('delay (test tool)', () => {
  test('waits and can be cancelled', async () => {
    expect(await delay.execute({ ms: 5, value: 'v' }, ctx())).toMatchObject({ value: 'v' });
    const controller = new AbortController();
    const c = { ...ctx(), signal: controller.signal } as ToolContext;
    const running = delay.execute({ ms: 60_000 }, c);
    controller.abort(new Error('cancelled'));
    await expect(running).rejects.toThrow('cancelled');
  });
});

describe('webhook signing (Standard Webhooks)', () => {
  test('signature over id.timestamp.body with whsec_ and raw secrets', () => {
    const key = Buffer.from('0123456789abcdef0123456789abcdef');
    const secret = `whsec_${key.toString('base64')}`;
    const expected = createHmac('sha256', key).update('msg_1.1700000000.{"a":1}').digest('base64');
    expect(signStandardWebhook(secret, 'msg_1', 1700000000, '{"a":1}')).toBe(`v1,${expected}`);
    const raw = createHmac('sha256', Buffer.from('plain-secret-value')).update('m.1.b').digest('base64');
    expect(signStandardWebhook('plain-secret-value', 'm', 1, 'b')).toBe(`v1,${raw}`);
  });
  test('the message id is stable per run and node', () => {
    expect(webhookMessageId('run:node')).toBe(webhookMessageId('run:node'));
    expect(webhookMessageId('run:node')).not.toBe(webhookMessageId('run:other'));
    expect(webhookMessageId('run:node')).toMatch(/^msg_[A-Za-z0-9_-]{27}$/);
  });
});

describe('support', () => {
  test('workflow file keys stay under the organization prefix', () => {
    expect(workflowFileKey('org1', 'reports/a.json')).toBe('org/org1/workflow-files/reports/a.json');
    expect(workflowFileKey('org1', '/x.txt')).toBe('org/org1/workflow-files/x.txt');
    for (const bad of ['../x', 'a/../../b', '', 'a//b', 'a/./b', '.hidden', 'a\\b']) {
      expect(() => workflowFileKey('org1', bad)).toThrow(/paths are/);
    }
  });
  test('failForStatus: 5xx/429 retryable, 4xx not', () => {
    expect(() => failForStatus(200, '', 'x')).not.toThrow();
    expect(() => failForStatus(503, 'down', 'x')).toThrow(expect.objectContaining({ code: 'HTTP_503' }));
    expect(() => failForStatus(404, '', 'x')).toThrow(expect.objectContaining({ name: 'NonRetryableToolError', code: 'HTTP_404' }));
  });
});
