import { useState } from 'preact/hooks';
import { can } from '../../../lib/permissions';
import { api } from '../api';
import { formatTime, pretty, shortId } from '../format';
import { href, navigate, type Route } from '../route';
import { useSession } from '../session';
import type { DeadLetter, Page, Run } from '../types';
import { ActionButton, ErrorNote, Loading, PageTitle, Pager, StatusBadge, ValueBlock, useLoad, usePager } from '../ui';

/** Node inputs parked by the dead_letter_queue strategy: inspect, replay as a new run, or discard. */
export function DeadLettersPage({ route }: { route: Route }) {
  const status = route.query.get('status') === 'replayed' ? 'replayed' : 'pending';
  const pager = usePager(status);
  const letters = useLoad(() => api<Page<DeadLetter>>('/api/v1/dead-letters', { query: { limit: 20, cursor: pager.cursor, status } }), [status, pager.cursor]);
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <>
      <PageTitle>Dead letters</PageTitle>
      <p class="tabs" role="group" aria-label="Which dead letters">
        <a href={href(['dead-letters'])} aria-current={status === 'pending' ? 'page' : undefined}>
          Waiting
        </a>
        <a href={href(['dead-letters'], { status: 'replayed' })} aria-current={status === 'replayed' ? 'page' : undefined}>
          Replayed
        </a>
      </p>
      <ErrorNote error={letters.error} />
      {!letters.data ? (
        letters.loading && <Loading what="dead letters" />
      ) : (
        <table class="list">
          <thead>
            <tr>
              <th scope="col">Node</th>
              <th scope="col">Tool</th>
              <th scope="col">Run</th>
              <th scope="col">Attempts</th>
              <th scope="col">Parked</th>
              <th scope="col">Status</th>
              <th scope="col">
                <span class="visually-hidden">Details</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {letters.data.data.map((letter) => (
              <LetterRow
                key={letter.id}
                letter={letter}
                open={openId === letter.id}
                toggle={() => setOpenId(openId === letter.id ? null : letter.id)}
                onChanged={letters.reload}
              />
            ))}
            {letters.data.data.length === 0 && (
              <tr>
                <td colSpan={7} class="muted">
                  No dead letters.
                </td>
              </tr>
            )}
          </tbody>
        </table>
      )}
      <Pager pager={pager} nextCursor={letters.data?.nextCursor} />
    </>
  );
}

function LetterRow({ letter, open, toggle, onChanged }: { letter: DeadLetter; open: boolean; toggle: () => void; onChanged: () => void }) {
  const session = useSession();
  const mayExecute = session.role !== null && can(session.role, 'run:execute');
  const panelId = `letter-${letter.id}`;
  const path = `/api/v1/dead-letters/${encodeURIComponent(letter.id)}`;
  return (
    <>
      <tr>
        <td class="mono">{letter.node_id}</td>
        <td>{letter.tool ?? '—'}</td>
        <td>
          <a href={href(['runs', letter.workflow_id, letter.run_id])}>{shortId(letter.run_id)}</a>
        </td>
        <td>{letter.attempts}</td>
        <td>{formatTime(letter.created_at)}</td>
        <td>
          <StatusBadge status={letter.status} />
        </td>
        <td>
          <button type="button" aria-expanded={open} aria-controls={panelId} onClick={toggle}>
            {open ? 'Hide' : 'Inspect'}
            <span class="visually-hidden"> dead letter of {letter.node_id}</span>
          </button>
        </td>
      </tr>
      {open && (
        <tr id={panelId} class="details">
          <td colSpan={7}>
            <ValueBlock label="Error" text={pretty(letter.error)} />
            <ValueBlock label="Input" text={pretty(letter.input)} />
            <p class="muted">Kept until {formatTime(letter.expires_at)}.</p>
            {letter.replay_run_id && (
              <p>
                Replayed as <a href={href(['runs', letter.workflow_id, letter.replay_run_id])}>{shortId(letter.replay_run_id)}</a> at{' '}
                {formatTime(letter.replayed_at)}
              </p>
            )}
            {mayExecute && letter.status === 'pending' && (
              <div class="actions">
                <ActionButton
                  label="Replay"
                  confirm="Start a new run that reuses the finished nodes and runs this node again?"
                  action={async () => {
                    const answer = await api<{ run: Run }>(`${path}/replay`, { method: 'POST' });
                    navigate(href(['runs', answer.run.workflow_id, answer.run.id]));
                  }}
                />
                <ActionButton
                  label="Discard"
                  danger
                  confirm="Delete this dead letter for good?"
                  action={async () => {
                    await api(path, { method: 'DELETE' });
                    onChanged();
                  }}
                />
              </div>
            )}
          </td>
        </tr>
      )}
    </>
  );
}
