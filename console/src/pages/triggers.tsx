import { api } from '../api';
import { formatTime } from '../format';
import { href } from '../route';
import type { Page, TriggerView, Workflow } from '../types';
import { ErrorNote, Loading, PageTitle, StatusBadge, useLoad } from '../ui';

interface WorkflowTriggers {
  workflow_id: string;
  status: string;
  data: TriggerView[];
}

function nextFire(trigger: TriggerView): string {
  const times = trigger.nextFireTimes ?? trigger.schedule?.nextFireTimes ?? [];
  return times.length ? formatTime(times[0]) : '—';
}

function describe(trigger: TriggerView): string {
  const config = trigger.config as Record<string, unknown>;
  if (trigger.type === 'schedule') return String(config.cron ?? config.interval ?? '');
  if (trigger.type === 'webhook') return trigger.url ?? '';
  if (trigger.type === 'event') return String(config.event ?? config.type ?? '');
  return '';
}

/** The triggers of one workflow (on its page). */
export function TriggerTable({ workflowId }: { workflowId: string }) {
  const triggers = useLoad(() => api<WorkflowTriggers>(`/api/v1/workflows/${encodeURIComponent(workflowId)}/triggers`), [workflowId]);
  if (!triggers.data) return triggers.error ? <ErrorNote error={triggers.error} /> : <Loading what="triggers" />;
  return <TriggerRows rows={triggers.data.data.map((t) => ({ trigger: t }))} />;
}

function TriggerRows({ rows }: { rows: { trigger: TriggerView; workflow?: Workflow }[] }) {
  if (rows.length === 0) return <p class="muted">No triggers.</p>;
  const withWorkflow = rows.some((r) => r.workflow);
  return (
    <table class="list">
      <thead>
        <tr>
          {withWorkflow && <th scope="col">Workflow</th>}
          <th scope="col">Trigger</th>
          <th scope="col">Type</th>
          <th scope="col">State</th>
          <th scope="col">Next fire time</th>
          <th scope="col">Schedule, URL or event</th>
        </tr>
      </thead>
      <tbody>
        {rows.map(({ trigger, workflow }) => (
          <tr key={`${workflow?.id ?? ''}:${trigger.key}`}>
            {withWorkflow && <td>{workflow && <a href={href(['workflows', workflow.id])}>{workflow.name}</a>}</td>}
            <td class="mono">{trigger.key}</td>
            <td>{trigger.type}</td>
            <td>
              <StatusBadge status={trigger.state} />
            </td>
            <td>{nextFire(trigger)}</td>
            <td class="mono wrap">{describe(trigger)}</td>
          </tr>
        ))}
      </tbody>
    </table>
  );
}

/** Every trigger of the organization's workflows (the first 100 workflows), soonest schedule first. */
export function TriggersPage() {
  const all = useLoad(async () => {
    const workflows = await api<Page<Workflow>>('/api/v1/workflows', { query: { limit: 100 } });
    const rows: { trigger: TriggerView; workflow: Workflow }[] = [];
    // A few at a time: each answer asks Temporal for the schedules' next fire times.
    const queue = workflows.data.filter((w) => w.status !== 'archived');
    const worker = async () => {
      for (let w = queue.shift(); w; w = queue.shift()) {
        const answer = await api<WorkflowTriggers>(`/api/v1/workflows/${encodeURIComponent(w.id)}/triggers`);
        for (const trigger of answer.data) if (trigger.type !== 'manual') rows.push({ trigger, workflow: w });
      }
    };
    await Promise.all([worker(), worker(), worker(), worker()]);
    const soonest = (r: { trigger: TriggerView }) => (r.trigger.nextFireTimes ?? r.trigger.schedule?.nextFireTimes ?? [])[0] ?? '9999';
    return rows.sort((a, b) => soonest(a).localeCompare(soonest(b)) || a.workflow.name.localeCompare(b.workflow.name));
  }, []);
  return (
    <>
      <PageTitle>Triggers</PageTitle>
      <ErrorNote error={all.error} />
      {all.data ? <TriggerRows rows={all.data} /> : all.loading && <Loading what="triggers" />}
    </>
  );
}
