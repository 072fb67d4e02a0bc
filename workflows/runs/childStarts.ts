/**
 * Child run starts of this execution whose start the server has not confirmed yet, in bytes of their inputs (the
 * child's compiled definition, up to the API's body limit, and its parameters). Every start asked for in one
 * workflow task travels in that task's completion: a loop of 10 children of a 400 kB workflow sent 4 MB, which the
 * server refuses (GRPC_MESSAGE_TOO_LARGE) at every retry, for ever. Held to the payload budget, a start waits until
 * enough of those in flight have been confirmed; one larger than the budget goes alone. Module state is per
 * execution: each workflow execution has its own module instances.
 *
 * Admission is counted when it is granted, in first-come order, and granted only when a start settles: both are
 * driven by the history's events alone. (`condition()` is not: every waiter whose predicate holds at the end of an
 * activation is released together, before any of them has counted its bytes, so how many went depended on how
 * the activation's jobs were grouped, which is not the same live and in replay.)
 */
let inFlightBytes = 0;
const waiting: { bytes: number; admit: () => void }[] = [];

function fits(bytes: number, budgetBytes: number): boolean {
  return inFlightBytes === 0 || inFlightBytes + bytes <= budgetBytes;
}

export async function startWithinBudget<T>(bytes: number, budgetBytes: number, start: () => Promise<T>): Promise<T> {
  if (waiting.length === 0 && fits(bytes, budgetBytes)) inFlightBytes += bytes;
  else await new Promise<void>((admit) => waiting.push({ bytes, admit }));
  try {
    return await start();
  } finally {
    inFlightBytes -= bytes;
    while (waiting.length > 0 && fits(waiting[0]!.bytes, budgetBytes)) {
      const next = waiting.shift()!;
      inFlightBytes += next.bytes;
      next.admit();
    }
  }
}
