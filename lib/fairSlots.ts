import { FairQueue } from './fairQueue';
import { ServiceUnavailableError } from './unavailable';

export interface FairSlotsOptions {
  /** work items that run at once */
  slots: number;
  /** of those, one key (organization) holds at most this many */
  perKey: number;
  /** items waiting, over every key and per key; past either, ServiceUnavailableError (503, or an activity retry) */
  maxWaiting: number;
  maxWaitingPerKey: number;
  /** what the slots are, for the 503's message ("file readers") */
  what: string;
}

/**
 * A few slots of costly work (threads, child processes) shared by every organization of a process: a free slot goes
 * to the organization holding the fewest (lib/fairQueue.ts), one organization holds at most `perKey`, and waiting is
 * bounded overall and per organization, so one tenant's burst neither takes every slot nor fills the queue.
 */
export function createFairSlots(options: FairSlotsOptions): { acquire(key: string): Promise<() => void> } {
  const waiting = new FairQueue<() => void>(options.perKey);
  let running = 0;

  function pump(): void {
    while (running < options.slots) {
      const next = waiting.take();
      if (!next) return;
      running += 1;
      next.item();
    }
  }

  return {
    async acquire(key) {
      if (running >= options.slots || waiting.held(key) >= options.perKey) {
        if (waiting.size >= options.maxWaiting || waiting.waitingFor(key) >= options.maxWaitingPerKey) {
          throw new ServiceUnavailableError(options.what, `${waiting.size} jobs are already waiting for the ${options.what}; retry later`);
        }
      }
      await new Promise<void>((resolve) => {
        waiting.push(key, resolve);
        pump();
      });
      let released = false;
      return () => {
        if (released) return;
        released = true;
        running -= 1;
        waiting.release(key);
        pump();
      };
    },
  };
}
