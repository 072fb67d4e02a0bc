import { api } from '../api';
import { href, type Route } from '../route';
import type { Approval, Page } from '../types';
import { ErrorNote, Loading, PageTitle, Pager, useLoad, usePager, usePoll } from '../ui';
import { ApprovalCard } from './approvalCard';

/** What waits for the caller's decision (default), or every pending approval of the organization. */
export function ApprovalsPage({ route }: { route: Route }) {
  const all = route.query.get('show') === 'all';
  const pager = usePager(String(all));
  const approvals = useLoad(
    () => api<Page<Approval>>('/api/v1/approvals', { query: { limit: 20, cursor: pager.cursor, status: 'pending', awaiting: all ? undefined : 'me' } }),
    [all, pager.cursor],
  );
  usePoll(approvals.reload, 5000, pager.page === 1);
  return (
    <>
      <PageTitle>Approvals</PageTitle>
      <p class="tabs" role="group" aria-label="Which approvals">
        <a href={href(['approvals'])} aria-current={!all ? 'page' : undefined}>
          Awaiting me
        </a>
        <a href={href(['approvals'], { show: 'all' })} aria-current={all ? 'page' : undefined}>
          All pending
        </a>
      </p>
      <ErrorNote error={approvals.error} />
      {!approvals.data ? (
        approvals.loading && <Loading what="approvals" />
      ) : approvals.data.data.length === 0 ? (
        <p class="muted">{all ? 'No approval is pending.' : 'Nothing awaits your decision.'}</p>
      ) : (
        approvals.data.data.map((a) => <ApprovalCard key={a.id} approval={a} onDecided={approvals.reload} />)
      )}
      <Pager pager={pager} nextCursor={approvals.data?.nextCursor} />
    </>
  );
}
