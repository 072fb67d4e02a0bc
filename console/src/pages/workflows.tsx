import { useState } from 'preact/hooks';
import { can } from '../../../lib/permissions';
import { diffLines } from '../../../lib/textDiff';
import { api } from '../api';
import { formatTime } from '../format';
import { href, navigate, type Route } from '../route';
import { useSession } from '../session';
import type { Page, Workflow, WorkflowVersion } from '../types';
import { ActionButton, ErrorNote, Loading, PageTitle, Pager, StatusBadge, ValueBlock, useLoad, usePager } from '../ui';
import { TriggerTable } from './triggers';

const STATUSES = ['draft', 'active', 'paused', 'archived'];

export function WorkflowsPage({ route }: { route: Route }) {
  const status = route.query.get('status') ?? '';
  const pager = usePager(status);
  const workflows = useLoad(
    () => api<Page<Workflow>>('/api/v1/workflows', { query: { limit: 25, cursor: pager.cursor, status: status || undefined } }),
    [status, pager.cursor],
  );
  return (
    <>
      <PageTitle>Workflows</PageTitle>
      <form class="filters" aria-label="Filter workflows" onSubmit={(e) => e.preventDefault()}>
        <label>
          Status
          <select value={status} onChange={(e) => navigate(href(['workflows'], { status: e.currentTarget.value }))}>
            <option value="">any</option>
            {STATUSES.map((s) => (
              <option key={s}>{s}</option>
            ))}
          </select>
        </label>
      </form>
      <ErrorNote error={workflows.error} />
      {!workflows.data ? (
        workflows.loading && <Loading what="workflows" />
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Name</th>
              <th scope="col">Status</th>
              <th scope="col">Version</th>
              <th scope="col">Updated</th>
              <th scope="col">Runs</th>
            </tr>
          </thead>
          <tbody>
            {workflows.data.data.map((w) => (
              <tr key={w.id}>
                <td>
                  <a href={href(['workflows', w.id])}>{w.name}</a>
                </td>
                <td>
                  <StatusBadge status={w.status} />
                </td>
                <td>{w.version}</td>
                <td>{formatTime(w.updatedAt)}</td>
                <td>
                  <a href={href(['runs'], { workflow: w.id })}>
                    Runs<span class="visually-hidden"> of {w.name}</span>
                  </a>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
      <Pager pager={pager} nextCursor={workflows.data?.nextCursor} />
    </>
  );
}

/** What a diff compares: the definition without the tools' descriptions (they change with the platform, not the workflow). */
function definitionText(v: Pick<WorkflowVersion, 'dag' | 'tools' | 'triggers' | 'parameters' | 'error_handling'>): string {
  return JSON.stringify(
    { dag: v.dag, tools: v.tools.map((t) => t.id), triggers: v.triggers, parameters: v.parameters, error_handling: v.error_handling },
    null,
    2,
  );
}

export function WorkflowPage({ workflowId, route }: { workflowId: string; route: Route }) {
  const session = useSession();
  const path = `/api/v1/workflows/${encodeURIComponent(workflowId)}`;
  const workflow = useLoad(() => api<Workflow>(path), [path]);
  const versions = useLoad(() => api<Page<WorkflowVersion>>(`${path}/versions`, { query: { limit: 100 } }), [path]);
  const mayWrite = session.role !== null && can(session.role, 'workflow:write');
  if (!workflow.data) return workflow.error ? <ErrorNote error={workflow.error} /> : <Loading what="the workflow" />;
  const w = workflow.data;
  const transition = (verb: 'activate' | 'pause' | 'archive') => async () => {
    await api(`${path}/${verb}`, { method: 'POST' });
    workflow.reload();
  };
  return (
    <>
      <p class="crumbs">
        <a href="#/workflows">Workflows</a>
      </p>
      <PageTitle>{w.name}</PageTitle>
      {w.description && <p>{w.description}</p>}
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={w.status} />
        </dd>
        <dt>Version</dt>
        <dd>{w.version}</dd>
        <dt>Updated</dt>
        <dd>{formatTime(w.updatedAt)}</dd>
        <dt>Runs</dt>
        <dd>
          <a href={href(['runs'], { workflow: w.id })}>Its runs</a>
        </dd>
      </dl>
      {mayWrite && (
        <div class="actions" role="group" aria-label="Workflow status">
          {w.status !== 'active' && w.status !== 'archived' && <ActionButton label="Activate" action={transition('activate')} />}
          {w.status === 'active' && <ActionButton label="Pause" confirm="Pause: its triggers stop firing until it is activated again." action={transition('pause')} />}
          {w.status !== 'archived' && <ActionButton label="Archive" danger confirm="Archive this workflow? Its triggers stop for good." action={transition('archive')} />}
        </div>
      )}
      <section aria-labelledby="triggers-title">
        <h2 id="triggers-title">Triggers</h2>
        <TriggerTable workflowId={w.id} />
      </section>
      <section aria-labelledby="versions-title">
        <h2 id="versions-title">Versions</h2>
        <ErrorNote error={versions.error} />
        {versions.data && <VersionDiff versions={versions.data.data} route={route} />}
      </section>
      <section aria-labelledby="definition-title">
        <h2 id="definition-title">Definition (version {w.version}, read-only)</h2>
        <ValueBlock label="Definition" text={definitionText(w)} />
      </section>
    </>
  );
}

function VersionDiff({ versions, route }: { versions: WorkflowVersion[]; route: Route }) {
  const numbers = versions.map((v) => v.version);
  const [from, setFrom] = useState(Number(route.query.get('from')) || numbers[1] || numbers[0] || 1);
  const [to, setTo] = useState(Number(route.query.get('to')) || numbers[0] || 1);
  const older = versions.find((v) => v.version === from);
  const newer = versions.find((v) => v.version === to);
  const diff = older && newer ? diffLines(definitionText(older), definitionText(newer)) : null;
  return (
    <>
      <table class="list compact">
        <thead>
          <tr>
            <th scope="col">Version</th>
            <th scope="col">Saved</th>
          </tr>
        </thead>
        <tbody>
          {versions.map((v) => (
            <tr key={v.version}>
              <td>{v.version}</td>
              <td>{formatTime(v.createdAt)}</td>
            </tr>
          ))}
        </tbody>
      </table>
      {versions.length > 1 && (
        <form class="filters" aria-label="Compare versions" onSubmit={(e) => e.preventDefault()}>
          <VersionSelect label="Compare version" numbers={numbers} value={from} onChange={setFrom} />
          <VersionSelect label="with version" numbers={numbers} value={to} onChange={setTo} />
        </form>
      )}
      {diff &&
        (diff.tooLarge ? (
          <p class="muted">These versions differ too much to show line by line.</p>
        ) : (
          <div class="diff" aria-label={`Changes from version ${from} to ${to}: ${diff.added} lines added, ${diff.removed} removed`}>
            <p>
              {diff.added} line(s) added, {diff.removed} removed.
            </p>
            <pre tabIndex={0}>
              {diff.lines.map((line, i) => (
                <span key={i} class={`line ${line.kind}`}>
                  {line.kind === 'added' ? '+ ' : line.kind === 'removed' ? '- ' : '  '}
                  {line.text}
                  {'\n'}
                </span>
              ))}
            </pre>
          </div>
        ))}
    </>
  );
}

function VersionSelect({ label, numbers, value, onChange }: { label: string; numbers: number[]; value: number; onChange: (n: number) => void }) {
  return (
    <label>
      {label}
      <select value={value} onChange={(e) => onChange(Number(e.currentTarget.value))}>
        {numbers.map((n) => (
          <option key={n} value={n}>
            {n}
          </option>
        ))}
      </select>
    </label>
  );
}
