import path from 'node:path';
import autocannon from 'autocannon';
import type { BenchContext } from '../lib/context';
import { closedLoop } from '../lib/load';
import { summarizeProfiles, type ProfileWindow } from '../lib/profile';
import { Stack } from '../lib/stack';
import { round } from '../lib/stats';
import { connectTemporal, createWorkflow, linearDag, runOurs } from './runs';

/**
 * Where the time goes: a fresh API and one worker started with `--cpu-prof`, driven first with 1-node runs at the
 * ceiling concurrency, then (API only) with authenticated GET /api/auth/me, then stopped: V8 writes the profiles
 * on exit. Each phase is summarized from its own time window, so start-up (module loading, the workflow bundle)
 * and shutdown are left out. The unprofiled workers are stopped first so the profiled one gets all the work, and one
 * is started again at the end.
 */
export async function profileScenario(ctx: BenchContext): Promise<void> {
  const { params, scratch } = ctx;
  await ctx.stack.stopWorkers(0);
  const profileDir = path.join(scratch.dir, 'profiles');
  const profiled = new Stack(scratch, { ...ctx.stackOptions, profileDir });
  const driver = await connectTemporal(ctx);
  const marks: Record<string, number> = {};
  let apiExit = 0;
  let workerExit = 0;
  try {
    await profiled.startApi();
    await profiled.startWorker();
    const profiledCtx: BenchContext = { ...ctx, stack: profiled };
    const workflowId = await createWorkflow(profiledCtx, 'bench profile 1-node', linearDag(1));
    await runOurs(profiledCtx, driver, workflowId);
    marks.runsStart = performance.now();
    const result = await closedLoop(params.ceilingConcurrency, params.profileSeconds, async () => void (await runOurs(profiledCtx, driver, workflowId)));
    marks.runsEnd = performance.now();
    ctx.log(`  profiled run load: ${round(result.perSecond)} runs/s over ${round(result.seconds)} s (${result.failed} failed)`);
    // The worker is done: stop it now, so its profile ends here.
    await profiled.workers[0]!.stop();
    workerExit = performance.now();
    marks.meStart = performance.now();
    const me = await autocannon({
      url: `${profiled.apiUrl}/api/auth/me`,
      connections: params.httpConnections,
      duration: params.profileSeconds,
      headers: { authorization: `Bearer ${ctx.session.token}` },
    });
    marks.meEnd = performance.now();
    ctx.log(`  profiled /me load: ${round(me.requests.average)} req/s`);
  } finally {
    await driver.connection.close();
    await profiled.stopAll();
    apiExit = performance.now();
    // Scenarios after this one (peer, soak) run on the bench's own stack: it gets its worker back.
    await ctx.stack.startWorker();
  }
  const windowOf = (start: number, end: number, exit: number): ProfileWindow => ({ fromEndMs: exit - start, toEndMs: exit - end });
  for (const [name, dir, window] of [
    ['api under run load', path.join(profileDir, 'api'), windowOf(marks.runsStart!, marks.runsEnd!, apiExit)],
    ['worker under run load', path.join(profileDir, 'worker-1'), windowOf(marks.runsStart!, marks.runsEnd!, workerExit)],
    ['api under GET /api/auth/me load', path.join(profileDir, 'api'), windowOf(marks.meStart!, marks.meEnd!, apiExit)],
  ] as const) {
    const summary = summarizeProfiles(name, dir, window);
    if (summary.samplesMs === 0) throw new Error(`no CPU profile samples for ${name} in ${dir}`);
    ctx.addProfile(summary);
    ctx.log(`  ${name}, top self time: ${summary.top.slice(0, 3).map((t) => `${t.name} (${t.where}) ${t.share}%`).join('; ')}`);
  }
}
