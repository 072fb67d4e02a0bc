import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatDuration, formatTime, shortId } from '../format';
import { href, navigate, type Route } from '../route';
import type { Page, RunSummary, Workflow } from '../types';
import { ErrorNote, Loading, PageTitle, Pager, StatusBadge, useLoad, usePager, usePoll } from '../ui';

const STATUSES = ['pending', 'running', 'completed', 'failed', 'cancelled'];
const TRIGGERS = ['manual', 'webhook', 'schedule', 'event', 'retry', 'dead_letter_replay', 'subworkflow'];
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** Filters live in the address, so a filtered list can be reloaded and shared. */
interface Filters {
  status?: string;
  workflow?: string;
  trigger?: string;
  from?: string;
  to?: string;
  search?: string;
}

function filtersOf(route: Route): Filters {
  const q = route.query;
  return {
    status: q.get('status') ?? undefined,
    workflow: q.get('workflow') ?? undefined,
    trigger: q.get('trigger') ?? undefined,
    from: q.get('from') ?? undefined,
    to: q.get('to') ?? undefined,
    search: q.get('search') ?? undefined,
  };
}

/** The search box takes a run id or `parameter=value`. */
function searchQuery(search: string | undefined): { run_id?: string; parameter?: string } {
  const text = search?.trim();
  if (!text) return {};
  return UUID.test(text) ? { run_id: text } : { parameter: text };
}

/** `datetime-local` values are local times: the API takes instants. */
function instant(local: string | undefined): string | undefined {
  return local ? new Date(local).toISOString() : undefined;
}

export function RunsPage({ route }: { route: Route }) {
  const filters = filtersOf(route);
  const key = JSON.stringify(filters);
  const pager = usePager(key);
  const workflows = useLoad(() => api<Page<Workflow>>('/api/v1/workflows', { query: { limit: 100 } }), []);
  const runs = useLoad(
    () =>
      api<Page<RunSummary>>('/api/v1/runs', {
        query: {
          limit: 25,
          cursor: pager.cursor,
          status: filters.status,
          workflow_id: filters.workflow,
          trigger: filters.trigger,
          created_after: instant(filters.from),
          created_before: instant(filters.to),
          ...searchQuery(filters.search),
        },
      }),
    [key, pager.cursor],
  );
  const open = runs.data?.data.some((r) => r.status === 'pending' || r.status === 'running' || r.status === 'cancelling') ?? false;
  // Live: open rows (and, on the first page, new runs) refresh every 3 seconds.
  usePoll(runs.reload, 3000, open || pager.page === 1);

  return (
    <>
      <PageTitle>Runs</PageTitle>
      <RunFilters key={key} filters={filters} workflows={workflows.data?.data ?? []} />
      <ErrorNote error={runs.error} />
      {!runs.data && runs.loading ? (
        <Loading what="runs" />
      ) : (
        <table class="list">
          <caption class="visually-hidden">Runs, newest first</caption>
          <thead>
            <tr>
              <th scope="col">Run</th>
              <th scope="col">Workflow</th>
              <th scope="col">Status</th>
              <th scope="col">Trigger</th>
              <th scope="col">Created</th>
              <th scope="col">Duration</th>
            </tr>
          </thead>
          <tbody>
            {runs.data?.data.map((run) => (
              <tr key={run.id}>
                <td>
                  <a href={href(['runs', run.workflow_id, run.id])} class="mono">
                    {shortId(run.id)}
                  </a>
                </td>
                <td>{run.workflow_name ?? shortId(run.workflow_id)}</td>
                <td>
                  <StatusBadge status={run.status} />
                </td>
                <td>{run.trigger.type}</td>
                <td>{formatTime(run.created_at)}</td>
                <td>{formatDuration(run.duration)}</td>
              </tr>
            ))}
            {runs.data?.data.length === 0 && (
              <tr>
                <td colSpan={6} class="muted">
                  No runs match.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      <Pager pager={pager} nextCursor={runs.data?.nextCursor} />
    </>
  );
}

function RunFilters({ filters, workflows }: { filters: Filters; workflows: Workflow[] }) {
  const [draft, setDraft] = useState<Filters>(filters);
  const set = (field: keyof Filters) => (e: { currentTarget: HTMLInputElement | HTMLSelectElement }) =>
    setDraft((d) => ({ ...d, [field]: e.currentTarget.value || undefined }));
  const apply = (event: Event) => {
    event.preventDefault();
    navigate(href(['runs'], { ...draft }));
  };
  return (
    <form class="filters" onSubmit={apply} aria-label="Filter runs">
      <label>
        Status
        <select value={draft.status ?? ''} onChange={set('status')}>
          <option value="">any</option>
          {STATUSES.map((s) => (
            <option key={s}>{s}</option>
          ))}
        </select>
      </label>
      <label>
        Workflow
        <select value={draft.workflow ?? ''} onChange={set('workflow')}>
          <option value="">any</option>
          {workflows.map((w) => (
            <option key={w.id} value={w.id}>
              {w.name}
            </option>
          ))}
        </select>
      </label>
      <label>
        Trigger
        <select value={draft.trigger ?? ''} onChange={set('trigger')}>
          <option value="">any</option>
          {TRIGGERS.map((t) => (
            <option key={t}>{t}</option>
          ))}
        </select>
      </label>
      <label>
        From
        <input type="datetime-local" value={draft.from ?? ''} onInput={set('from')} />
      </label>
      <label>
        Until
        <input type="datetime-local" value={draft.to ?? ''} onInput={set('to')} />
      </label>
      <label class="grow">
        Run id or parameter=value
        <input type="search" name="search" value={draft.search ?? ''} placeholder="e.g. customer=acme" onInput={set('search')} />
      </label>
      <button type="submit" class="primary">
        Apply
      </button>
      <a href="#/runs" class="button-link">
        Clear
      </a>
    </form>
  );
}
