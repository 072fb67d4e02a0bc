import { monitorEventLoopDelay } from 'node:perf_hooks';

/** The largest delay of this process's event loop while `work` runs, in ms (perf_hooks, 5 ms resolution). */
export async function loopDelayDuring<T>(work: () => Promise<T>): Promise<{ result: T; delayMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: 5 });
  histogram.enable();
  try {
    const result = await work();
    return { result, delayMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
