import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ScheduleNotFoundError, WorkflowNotFoundError } from '@temporalio/client';
import { ensureEventDispatcher } from '../../domain/events/dispatcher';
import { dispatcherWorkflowId } from '../../domain/events/dispatcher';
import { createDb } from '../../db/knex';
import { loadConfig } from '../../lib/config';
import { closeTemporalClient, createTemporalClient } from '../../lib/temporal';
import type { TestApi } from './stack';

/** Helpers of the triggers, events and outgoing-webhook tests. */

export async function startDispatcher(api: TestApi): Promise<void> {
  await ensureEventDispatcher(api.deps.temporal, api.config.temporal.taskQueue);
}

/** Called by globalTeardown: the run's Temporal Schedules and its event dispatcher would otherwise live on. */
export async function removeTriggerInfrastructure(): Promise<void> {
  const config = loadConfig(process.env);
  const db = createDb(config.database.url, 1);
  const client = createTemporalClient(config.temporal);
  try {
    const rows = (await db('trigger_schedules').select('schedule_id')) as { schedule_id: string }[];
    for (const { schedule_id } of rows) {
      await client.schedule.getHandle(schedule_id).delete().catch((err: unknown) => {
        if (!(err instanceof ScheduleNotFoundError)) throw err;
      });
    }
    await client.workflow
      .getHandle(dispatcherWorkflowId(config.temporal.taskQueue))
      .terminate('test run finished')
      .catch((err: unknown) => {
        if (!(err instanceof WorkflowNotFoundError)) throw err;
      });
  } finally {
    await db.destroy();
    await closeTemporalClient(client);
  }
}

export interface ReceivedRequest {
  method: string;
  url: string;
  headers: IncomingMessage['headers'];
  body: string;
}

/** A local HTTP receiver standing in for a customer's webhook endpoint; `respond` decides the status per request. */
export interface Receiver {
  url: string;
  requests: ReceivedRequest[];
  respond: (req: ReceivedRequest) => number;
  close(): Promise<void>;
}

export async function startReceiver(): Promise<Receiver> {
  const receiver = { requests: [] as ReceivedRequest[], respond: (() => 204) as (req: ReceivedRequest) => number };
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const entry = { method: req.method ?? '', url: req.url ?? '', headers: req.headers, body: Buffer.concat(chunks).toString('utf8') };
      receiver.requests.push(entry);
      res.statusCode = receiver.respond(entry);
      res.end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return Object.assign(receiver, {
    url: `http://127.0.0.1:${port}`,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  });
}

/** Polls `check` until it returns a value other than undefined (or fails after `timeoutMs`). */
export async function eventually<T>(check: () => Promise<T | undefined>, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 150));
  }
}
