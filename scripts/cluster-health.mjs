#!/usr/bin/env node
// Readiness of the Temporal cluster's processes for scripts/cluster (no Temporal CLI needed: the cluster may run
// where the dev server's CLI was never built).
//
//   node scripts/cluster-health.mjs <timeout-seconds> <name>=<host:port>=<check> ...
//
// <check> is `frontend`, `history` or `matching` (the gRPC health service each of those registers, SERVING once
// the process can take work: a history host only after it has acquired its first shards) or `tcp` (the port
// accepts connections: the worker service registers no health service, its membership port is the sign of life).
// Polls every check until all pass or the timeout ends. Exit 0 when all pass; else exit 1 with one line on stderr
// per check that did not pass and why. A timeout of 0 checks once. Stdout: one line per check, "<name> up|down".
import net from 'node:net';
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
const { Connection } = require('@temporalio/client');

// The names the services register with grpc.health.v1 (temporal server 1.29: service/*/handler.go).
const HEALTH_NAMES = {
  frontend: 'temporal.api.workflowservice.v1.WorkflowService',
  history: 'temporal.api.workflowservice.v1.HistoryService',
  matching: 'temporal.api.workflowservice.v1.MatchingService',
};
// HealthCheckResponse.ServingStatus
const SERVING = 1;

const [timeoutArg, ...specs] = process.argv.slice(2);
const timeoutMs = Number(timeoutArg) * 1000;
if (!Number.isFinite(timeoutMs) || !specs.length) {
  process.stderr.write('usage: cluster-health.mjs <timeout-seconds> <name>=<host:port>=<frontend|history|matching|tcp> ...\n');
  process.exit(2);
}

const checks = specs.map((spec) => {
  const [name, address, kind] = spec.split('=');
  if (!name || !address || !(kind === 'tcp' || kind in HEALTH_NAMES)) {
    process.stderr.write(`cluster-health: bad check "${spec}"\n`);
    process.exit(2);
  }
  return { name, address, kind, connection: null, problem: 'not checked yet', ok: false };
});

function tcpOpen(address) {
  const [host, port] = [address.slice(0, address.lastIndexOf(':')), Number(address.slice(address.lastIndexOf(':') + 1))];
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (ok, why) => {
      socket.destroy();
      resolve(ok ? null : why);
    };
    socket.setTimeout(2000, () => done(false, 'connect timed out'));
    socket.once('connect', () => done(true));
    socket.once('error', (err) => done(false, err.code ?? err.message));
  });
}

async function probe(check) {
  if (check.kind === 'tcp') return tcpOpen(check.address);
  // A lazy connection: no call is made until the health check itself, which any gRPC server answers.
  check.connection ??= Connection.lazy({ address: check.address, connectTimeout: 2000 });
  try {
    const res = await check.connection.withDeadline(Date.now() + 2000, () =>
      check.connection.healthService.check({ service: HEALTH_NAMES[check.kind] }),
    );
    return res.status === SERVING ? null : `health status ${res.status} (not serving yet)`;
  } catch (err) {
    return (err?.details || err?.message || String(err)).split('\n')[0];
  }
}

const deadline = Date.now() + timeoutMs;
for (;;) {
  await Promise.all(
    checks
      .filter((c) => !c.ok)
      .map(async (c) => {
        const problem = await probe(c);
        c.ok = problem === null;
        c.problem = problem;
      }),
  );
  if (checks.every((c) => c.ok) || Date.now() >= deadline) break;
  await new Promise((r) => setTimeout(r, 300));
}
await Promise.all(checks.map((c) => c.connection?.close().catch(() => undefined)));
for (const c of checks) process.stdout.write(`${c.name} ${c.ok ? 'up' : 'down'}\n`);
const failed = checks.filter((c) => !c.ok);
for (const c of failed) process.stderr.write(`cluster-health: ${c.name} (${c.address}) not ready: ${c.problem}\n`);
process.exit(failed.length ? 1 : 0);
