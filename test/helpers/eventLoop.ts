import { monitorEventLoopDelay } from 'node:perf_hooks';

const RESOLUTION_MS = 5;

/**
 * The largest delay of this process's event loop while `work` runs, in ms (perf_hooks). The histogram's timer
 * records a delay when it fires after it: work that blocks the loop just before it resolves is only counted once
 * the timer has had its turn, so the histogram is read after a few of its periods.
 */
export async function loopDelayDuring<T>(work: () => Promise<T>): Promise<{ result: T; delayMs: number }> {
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  try {
    const result = await work();
    await new Promise((resolve) => setTimeout(resolve, 3 * RESOLUTION_MS));
    return { result, delayMs: histogram.max / 1e6 };
  } finally {
    histogram.disable();
  }
}
