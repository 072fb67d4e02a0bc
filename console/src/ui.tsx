import type { ComponentChildren } from 'preact';
import { useCallback, useEffect, useRef, useState } from 'preact/hooks';
import { ApiError } from './api';

/** Small building blocks every page uses: loading with errors, polling, status badges, paging, confirmation. */

export interface Loaded<T> {
  data: T | null;
  error: Error | null;
  loading: boolean;
  reload: () => void;
}

/** Runs `load` when `deps` change (and on reload); a late answer of an older request never overwrites a newer one. */
export function useLoad<T>(load: () => Promise<T>, deps: unknown[]): Loaded<T> {
  const [data, setData] = useState<T | null>(null);
  const [error, setError] = useState<Error | null>(null);
  const [loading, setLoading] = useState(true);
  const [tick, setTick] = useState(0);
  const latest = useRef(0);
  useEffect(() => {
    const request = ++latest.current;
    setLoading(true);
    load().then(
      (value) => {
        if (request !== latest.current) return;
        setData(value);
        setError(null);
        setLoading(false);
      },
      (err: unknown) => {
        if (request !== latest.current) return;
        setError(err instanceof Error ? err : new Error(String(err)));
        setLoading(false);
      },
    );
  }, [...deps, tick]);
  const reload = useCallback(() => setTick((t) => t + 1), []);
  return { data, error, loading, reload };
}

/** Calls `poll` every `ms` while `active` and the tab is visible: live rows without a socket per tab. */
export function usePoll(poll: () => void, ms: number, active: boolean): void {
  const saved = useRef(poll);
  saved.current = poll;
  useEffect(() => {
    if (!active) return;
    const timer = setInterval(() => {
      if (document.visibilityState === 'visible') saved.current();
    }, ms);
    return () => clearInterval(timer);
  }, [active, ms]);
}

export function ErrorNote({ error }: { error: Error | null }) {
  if (!error) return null;
  const code = error instanceof ApiError ? `${error.code}: ` : '';
  return (
    <p class="error" role="alert">
      {code}
      {error.message}
    </p>
  );
}

export function Loading({ what }: { what: string }) {
  return (
    <p class="muted" aria-live="polite">
      Loading {what}…
    </p>
  );
}

export function StatusBadge({ status }: { status: string }) {
  return <span class={`badge status-${status}`}>{status}</span>;
}

export function PageTitle({ children }: { children: ComponentChildren }) {
  useEffect(() => {
    const text = typeof children === 'string' ? children : Array.isArray(children) ? children.join('') : '';
    if (text) document.title = `${text} · Loom console`;
  }, [children]);
  return (
    <h1 id="page-title" tabIndex={-1}>
      {children}
    </h1>
  );
}

/** Forward-only keyset paging with a way back: the cursors of the pages seen so far. */
export function usePager(resetKey: string): {
  cursor: string | undefined;
  next: (cursor: string) => void;
  previous: () => void;
  hasPrevious: boolean;
  page: number;
} {
  const [stack, setStack] = useState<(string | undefined)[]>([undefined]);
  useEffect(() => setStack([undefined]), [resetKey]);
  return {
    cursor: stack[stack.length - 1],
    next: (cursor) => setStack((s) => [...s, cursor]),
    previous: () => setStack((s) => (s.length > 1 ? s.slice(0, -1) : s)),
    hasPrevious: stack.length > 1,
    page: stack.length,
  };
}

export function Pager({ pager, nextCursor }: { pager: ReturnType<typeof usePager>; nextCursor: string | null | undefined }) {
  return (
    <nav class="pager" aria-label="Pages">
      <button type="button" disabled={!pager.hasPrevious} onClick={pager.previous}>
        ← Newer
      </button>
      <span class="muted">Page {pager.page}</span>
      <button type="button" disabled={!nextCursor} onClick={() => nextCursor && pager.next(nextCursor)}>
        Older →
      </button>
    </nav>
  );
}

/** One user action at a time: `busy` while it runs, its error kept to show; `run` answers whether it succeeded. */
export function useAction(): { busy: boolean; error: Error | null; run: (action: () => Promise<unknown>) => Promise<boolean> } {
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<Error | null>(null);
  const run = async (action: () => Promise<unknown>): Promise<boolean> => {
    setBusy(true);
    setError(null);
    try {
      await action();
      return true;
    } catch (err) {
      setError(err instanceof Error ? err : new Error(String(err)));
      return false;
    } finally {
      setBusy(false);
    }
  };
  return { busy, error, run };
}

/** A button that asks once more before acting; the action's error shows beside it. */
export function ActionButton({
  label,
  confirm,
  action,
  danger,
}: {
  label: string;
  confirm?: string;
  action: () => Promise<unknown>;
  danger?: boolean;
}) {
  const [asking, setAsking] = useState(false);
  const { busy, error, run: start } = useAction();
  const run = async () => {
    if (await start(action)) setAsking(false);
  };
  return (
    <span class="action">
      {asking ? (
        <>
          <span class="confirm-text">{confirm}</span>
          <button type="button" class={danger ? 'danger' : 'primary'} disabled={busy} onClick={run}>
            Yes, {label.toLowerCase()}
          </button>
          <button type="button" onClick={() => setAsking(false)}>
            Keep
          </button>
        </>
      ) : (
        <button type="button" class={danger ? 'danger' : ''} disabled={busy} onClick={() => (confirm ? setAsking(true) : void run())}>
          {label}
        </button>
      )}
      <ErrorNote error={error} />
    </span>
  );
}

export function ValueBlock({ label, text }: { label: string; text: string }) {
  return (
    <div class="value">
      <h4>{label}</h4>
      <pre tabIndex={0} aria-label={label}>
        {text}
      </pre>
    </div>
  );
}
