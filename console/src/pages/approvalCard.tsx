import { useState } from 'preact/hooks';
import { api } from '../api';
import { formatTime, shortId } from '../format';
import { href } from '../route';
import type { Approval } from '../types';
import { ErrorNote, StatusBadge, useAction } from '../ui';

type FormValue = string | number | boolean;

/** One approval: what it asks, the decisions so far, and the decision form when the caller may decide. */
export function ApprovalCard({ approval, onDecided }: { approval: Approval; onDecided: () => void }) {
  const [comment, setComment] = useState('');
  const [values, setValues] = useState<Record<string, FormValue>>({});
  const { busy, error, run } = useAction();
  const decide = (decision: 'approve' | 'reject') =>
    run(async () => {
      await api(`/api/v1/approvals/${encodeURIComponent(approval.id)}/decision`, {
        method: 'POST',
        body: { decision, ...(comment.trim() ? { comment: comment.trim() } : {}), values },
      });
      onDecided();
    });
  const titleId = `approval-${approval.id}`;
  return (
    <section class="card approval" aria-labelledby={titleId}>
      <h3 id={titleId}>
        Approval of <span class="mono">{approval.node_id}</span> in{' '}
        <a href={href(['runs', approval.workflow_id, approval.run_id])}>
          {approval.workflow_name ?? 'a run'} ({shortId(approval.run_id)})
        </a>{' '}
        <StatusBadge status={approval.status} />
      </h3>
      {approval.message && <p class="message">{approval.message}</p>}
      <p class="muted">
        Asked {formatTime(approval.created_at)}; expires {formatTime(approval.expires_at)}; {approval.decisions.length} of {approval.required}{' '}
        approval(s) given.
      </p>
      {approval.decisions.length > 0 && (
        <ul class="decisions">
          {approval.decisions.map((d) => (
            <li key={`${d.user_id}-${d.at}`}>
              {d.decision} by {shortId(d.user_id)} at {formatTime(d.at)}
              {d.comment ? `: “${d.comment}”` : ''}
            </li>
          ))}
        </ul>
      )}
      {approval.can_decide && (
        <form class="decide" onSubmit={(e) => e.preventDefault()} aria-label="Decide">
          {approval.form.map((field) => (
            <FormField key={field.name} field={field} value={values[field.name]} onChange={(v) => setValues((all) => ({ ...all, [field.name]: v }))} />
          ))}
          <label>
            Comment
            <textarea rows={2} maxLength={2000} value={comment} onInput={(e) => setComment(e.currentTarget.value)} />
          </label>
          <div class="buttons">
            <button type="button" class="primary" disabled={busy} onClick={() => void decide('approve')}>
              Approve
            </button>
            <button type="button" class="danger" disabled={busy} onClick={() => void decide('reject')}>
              Reject
            </button>
          </div>
          <ErrorNote error={error} />
        </form>
      )}
    </section>
  );
}

function FormField({
  field,
  value,
  onChange,
}: {
  field: Approval['form'][number];
  value: FormValue | undefined;
  onChange: (value: FormValue) => void;
}) {
  const label = `${field.label ?? field.name}${field.required ? ' (required)' : ''}`;
  if (field.type === 'boolean') {
    return (
      <label class="inline">
        <input type="checkbox" checked={value === true} onChange={(e) => onChange(e.currentTarget.checked)} /> {label}
      </label>
    );
  }
  if (field.type === 'choice') {
    return (
      <label>
        {label}
        <select value={String(value ?? '')} onChange={(e) => onChange(e.currentTarget.value)}>
          <option value="">—</option>
          {(field.options ?? []).map((o) => (
            <option key={o}>{o}</option>
          ))}
        </select>
      </label>
    );
  }
  return (
    <label>
      {label}
      <input
        type={field.type === 'number' ? 'number' : 'text'}
        value={value === undefined ? '' : String(value)}
        onInput={(e) => onChange(field.type === 'number' ? Number(e.currentTarget.value) : e.currentTarget.value)}
      />
    </label>
  );
}
