import { useEffect, useState } from 'preact/hooks';
import { can } from '../../../lib/permissions';
import { api } from '../api';
import { formatDuration, formatTime, pretty, shortId } from '../format';
import { href, navigate } from '../route';
import { useSession } from '../session';
import type { Approval, Page, PictureModel, PictureNode, Run } from '../types';
import { ActionButton, ErrorNote, Loading, PageTitle, StatusBadge, ValueBlock, useLoad, usePoll } from '../ui';
import { ApprovalCard } from './approvalCard';

const OPEN = ['pending', 'running', 'cancelling'];

/** One run: its picture, each node's input, output, error and attempts, its approvals and the actions allowed. */
export function RunPage({ workflowId, runId }: { workflowId: string; runId: string }) {
  const session = useSession();
  const base = `/api/v1/workflows/${encodeURIComponent(workflowId)}/runs/${encodeURIComponent(runId)}`;
  const run = useLoad(() => api<Run>(base), [base]);
  const picture = useLoad(() => api<PictureModel>(`${base}/picture.json`), [base]);
  const approvals = useLoad(() => api<Page<Approval>>('/api/v1/approvals', { query: { run_id: runId, status: 'pending', limit: 20 } }), [runId]);
  const open = run.data ? OPEN.includes(run.data.status) : false;
  usePoll(
    () => {
      run.reload();
      picture.reload();
      approvals.reload();
    },
    2000,
    open,
  );
  const mayExecute = session.role !== null && can(session.role, 'run:execute');

  if (!run.data) return run.error ? <ErrorNote error={run.error} /> : <Loading what="the run" />;
  const r = run.data;
  const refresh = () => {
    run.reload();
    picture.reload();
    approvals.reload();
  };
  return (
    <>
      <p class="crumbs">
        <a href="#/runs">Runs</a> / <a href={href(['workflows', workflowId])}>{picture.data?.title ?? 'workflow'}</a>
      </p>
      <PageTitle>{`Run ${shortId(r.id)}`}</PageTitle>
      <dl class="facts">
        <dt>Status</dt>
        <dd>
          <StatusBadge status={r.status} />
        </dd>
        <dt>Version</dt>
        <dd>{r.workflow_version}</dd>
        <dt>Trigger</dt>
        <dd>{r.trigger.type}</dd>
        <dt>Started</dt>
        <dd>{formatTime(r.started_at)}</dd>
        <dt>Duration</dt>
        <dd>{formatDuration(r.duration)}</dd>
        <dt>Run id</dt>
        <dd class="mono">{r.id}</dd>
      </dl>
      {mayExecute && <RunActions run={r} base={base} onDone={refresh} />}
      <ErrorNote error={run.error} />
      {approvals.data && approvals.data.data.length > 0 && (
        <section aria-labelledby="approvals-title">
          <h2 id="approvals-title">Waiting for approval</h2>
          {approvals.data.data.map((a) => (
            <ApprovalCard key={a.id} approval={a} onDecided={refresh} />
          ))}
        </section>
      )}
      <section aria-labelledby="picture-title">
        <h2 id="picture-title">Picture</h2>
        {picture.data ? <Picture svg={picture.data.svg} title={picture.data.title} /> : <ErrorNote error={picture.error} />}
      </section>
      {picture.data && <NodeTable nodes={Object.values(picture.data.nodes)} />}
      {r.errors.length > 0 && (
        <section aria-labelledby="errors-title">
          <h2 id="errors-title">Errors</h2>
          <ul>
            {r.errors.map((e, i) => (
              <li key={i}>
                <span class="mono">{e.node ?? 'run'}</span>: {e.code}: {e.message} (attempt {e.attempt}, {formatTime(e.time)})
              </li>
            ))}
          </ul>
        </section>
      )}
      <section aria-labelledby="parameters-title">
        <h2 id="parameters-title">Parameters and results</h2>
        <ValueBlock label="Parameters" text={pretty(r.parameters)} />
        <ValueBlock label="Results" text={pretty(r.results)} />
      </section>
      <p>
        <a href={r.links.temporal} rel="noreferrer" target="_blank">
          Open in Temporal Web
        </a>{' '}
        (operators)
      </p>
    </>
  );
}

/** The SVG drawn as an image from a blob: markup from the server never becomes part of this page's DOM. */
function Picture({ svg, title }: { svg: string; title: string }) {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    const next = URL.createObjectURL(new Blob([svg], { type: 'image/svg+xml' }));
    setUrl(next);
    return () => URL.revokeObjectURL(next);
  }, [svg]);
  return url ? <img class="picture" src={url} alt={`The DAG of ${title}, each node coloured by its state (listed in the table below)`} /> : null;
}

function NodeTable({ nodes }: { nodes: PictureNode[] }) {
  const [openNode, setOpenNode] = useState<string | null>(null);
  return (
    <section aria-labelledby="nodes-title">
      <h2 id="nodes-title">Nodes</h2>
      <table class="list">
        <thead>
          <tr>
            <th scope="col">Node</th>
            <th scope="col">Type</th>
            <th scope="col">Status</th>
            <th scope="col">Attempts</th>
            <th scope="col">Duration</th>
            <th scope="col">
              <span class="visually-hidden">Details</span>
            </th>
          </tr>
        </thead>
        <tbody>
          {nodes.map((node) => (
            <NodeRow key={node.id} node={node} open={openNode === node.id} toggle={() => setOpenNode(openNode === node.id ? null : node.id)} />
          ))}
        </tbody>
      </table>
    </section>
  );
}

function NodeRow({ node, open, toggle }: { node: PictureNode; open: boolean; toggle: () => void }) {
  const duration = node.startedAt && node.finishedAt ? Date.parse(node.finishedAt) - Date.parse(node.startedAt) : null;
  const panelId = `node-${node.id}`;
  return (
    <>
      <tr>
        <td class="mono">{node.name ? `${node.id} (${node.name})` : node.id}</td>
        <td>{node.tool ?? node.type}</td>
        <td>
          <StatusBadge status={node.status} />
        </td>
        <td>{node.attempts}</td>
        <td>{formatDuration(duration)}</td>
        <td>
          <button type="button" aria-expanded={open} aria-controls={panelId} onClick={toggle}>
            {open ? 'Hide' : 'Details'}
            <span class="visually-hidden"> of {node.id}</span>
          </button>
        </td>
      </tr>
      {open && (
        <tr id={panelId} class="details">
          <td colSpan={6}>
            {node.error && (
              <p class="error">
                {node.error.code}: {node.error.message}
              </p>
            )}
            {node.loop && <p>{node.loop.text}</p>}
            {node.childRun && (
              <p>
                Child run: <a href={href(['runs', node.childRun.workflowId, node.childRun.runId])}>{shortId(node.childRun.runId)}</a>
              </p>
            )}
            <p class="muted">
              Started {formatTime(node.startedAt)}, finished {formatTime(node.finishedAt)}. {node.inputNote}
            </p>
            {node.valuesOmitted && <p class="muted">{node.valuesOmitted}</p>}
            {node.input && <ValueBlock label={`Input${node.input.truncated ? ` (first 2,000 of ${node.input.totalChars} characters)` : ''}`} text={node.input.text} />}
            {node.output && <ValueBlock label={`Output${node.output.truncated ? ` (first 2,000 of ${node.output.totalChars} characters)` : ''}`} text={node.output.text} />}
          </td>
        </tr>
      )}
    </>
  );
}

function RunActions({ run, base, onDone }: { run: Run; base: string; onDone: () => void }) {
  const [fromNode, setFromNode] = useState('');
  const finished = !OPEN.includes(run.status);
  const goTo = (next: Run) => navigate(href(['runs', next.workflow_id, next.id]));
  return (
    <div class="actions" role="group" aria-label="Run actions">
      {!finished && (
        <ActionButton label="Cancel run" confirm="Cancel this run?" danger action={async () => { await api(`${base}/cancel`, { method: 'POST' }); onDone(); }} />
      )}
      {(run.status === 'failed' || run.status === 'cancelled') && (
        <ActionButton label="Retry" action={async () => goTo(await api<Run>(`${base}/retry`, { method: 'POST' }))} />
      )}
      {finished && (
        <span class="rerun">
          <label>
            Rerun from
            <select value={fromNode} onChange={(e) => setFromNode(e.currentTarget.value)}>
              <option value="">the start</option>
              {Object.keys(run.node_states).map((id) => (
                <option key={id} value={id}>
                  {id}
                </option>
              ))}
            </select>
          </label>
          <ActionButton label="Rerun" action={async () => goTo(await api<Run>(`${base}/rerun`, { method: 'POST', body: fromNode ? { from_node: fromNode } : {} }))} />
        </span>
      )}
    </div>
  );
}
