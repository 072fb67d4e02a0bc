/**
 * Probes until `check` passes or `ms` elapse, every 20 ms, and returns the last answer either way: for changes that
 * reach another process a little later (PostgreSQL notices), asserted on the answer itself.
 */
export async function probeUntil<T>(ms: number, probe: () => Promise<T>, check: (value: T) => boolean): Promise<T> {
  const deadline = Date.now() + ms;
  let value = await probe();
  while (!check(value) && Date.now() < deadline) {
    await new Promise((r) => setTimeout(r, 20));
    value = await probe();
  }
  return value;
}
