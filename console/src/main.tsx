import { render } from 'preact';
import { useEffect } from 'preact/hooks';
import { Layout } from './layout';
import { ApprovalsPage } from './pages/approvals';
import { ChartsPage } from './pages/charts';
import { DeadLettersPage } from './pages/deadLetters';
import { RunPage } from './pages/run';
import { RunsPage } from './pages/runs';
import { SignInPage } from './pages/signIn';
import { TriggersPage } from './pages/triggers';
import { WorkflowPage, WorkflowsPage } from './pages/workflows';
import { navigate, useRoute, type Route } from './route';
import { restoreSession, useSession } from './session';
import { Loading } from './ui';

function Page({ route }: { route: Route }) {
  const [section, first, second] = route.path;
  switch (section) {
    case 'runs':
      return first && second ? <RunPage workflowId={first} runId={second} /> : <RunsPage route={route} />;
    case 'approvals':
      return <ApprovalsPage route={route} />;
    case 'dead-letters':
      return <DeadLettersPage route={route} />;
    case 'workflows':
      return first ? <WorkflowPage workflowId={first} route={route} /> : <WorkflowsPage route={route} />;
    case 'triggers':
      return <TriggersPage />;
    case 'charts':
      return <ChartsPage route={route} />;
    default:
      return <p>There is no page at this address. <a href="#/runs">Go to the runs</a>.</p>;
  }
}

/** Only an address of this console: `next` comes from the address bar. */
function safeNext(next: string | null): string {
  return next && /^#\/[a-z]/.test(next) && !next.startsWith('#/sign-in') ? next : '#/runs';
}

function App() {
  const session = useSession();
  const route = useRoute();
  useEffect(() => void restoreSession(), []);
  const onSignIn = route.path[0] === 'sign-in';
  useEffect(() => {
    // Signed in on the sign-in page (or at the bare address): go to the runs; signed out elsewhere: the sign-in page,
    // keeping the address asked for to come back to.
    if (session.status === 'signed-in' && (onSignIn || route.path.length === 0)) navigate(safeNext(route.query.get('next')), true);
    if (session.status === 'signed-out' && !onSignIn) navigate(`#/sign-in?next=${encodeURIComponent(location.hash || '#/runs')}`, true);
  }, [session.status, onSignIn]);

  if (session.status === 'loading') return <Loading what="the console" />;
  if (session.status === 'signed-out' || onSignIn) return <SignInPage route={route} />;
  return (
    <Layout route={route}>
      <Page route={route} />
    </Layout>
  );
}

render(<App />, document.getElementById('app')!);
