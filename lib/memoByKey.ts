/**
 * `read` once per key: later calls with the key share the first call's promise. A promise that rejects is dropped
 * when it settles, so the next call for its key reads again (a failed read must not stick).
 */
export function memoByKey<T>(read: (key: string) => Promise<T>): (key: string) => Promise<T> {
  const kept = new Map<string, Promise<T>>();
  return (key) => {
    let value = kept.get(key);
    if (!value) {
      value = read(key);
      kept.set(key, value);
      value.catch(() => kept.delete(key));
    }
    return value;
  };
}
