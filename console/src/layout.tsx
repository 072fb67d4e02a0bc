import type { ComponentChildren } from 'preact';
import { signOut, switchOrganization, useSession } from './session';
import type { Route } from './route';
import { ErrorNote, useAction } from './ui';

const SECTIONS = [
  { path: 'runs', label: 'Runs' },
  { path: 'approvals', label: 'Approvals' },
  { path: 'dead-letters', label: 'Dead letters' },
  { path: 'workflows', label: 'Workflows' },
  { path: 'triggers', label: 'Triggers' },
  { path: 'charts', label: 'Charts' },
];

/** The frame of every signed-in page: a skip link, the sections, the organization switch and sign-out. */
export function Layout({ route, children }: { route: Route; children: ComponentChildren }) {
  const session = useSession();
  const { error, run } = useAction();
  const current = route.path[0] ?? 'runs';
  const change = (organizationId: string) =>
    run(async () => {
      await switchOrganization(organizationId);
      location.hash = '#/runs';
    });
  return (
    <>
      <a class="skip" href="#main" onClick={(e) => { e.preventDefault(); document.getElementById('main')?.focus(); }}>
        Skip to content
      </a>
      <header class="top">
        <span class="brand">Loom</span>
        <nav aria-label="Sections">
          <ul>
            {SECTIONS.map((s) => (
              <li key={s.path}>
                <a href={`#/${s.path}`} aria-current={current === s.path ? 'page' : undefined}>
                  {s.label}
                </a>
              </li>
            ))}
          </ul>
        </nav>
        <div class="who">
          <label>
            <span class="visually-hidden">Organization</span>
            <select value={session.organizationId ?? ''} onChange={(e) => void change(e.currentTarget.value)}>
              {session.organizationId === null && <option value="">No organization</option>}
              {session.organizations.map((o) => (
                <option key={o.id} value={o.id}>
                  {o.name}
                </option>
              ))}
            </select>
          </label>
          <span class="muted" title={session.user?.email}>
            {session.user?.name ?? session.user?.email} ({session.role ?? 'no role'})
          </span>
          <button type="button" onClick={() => void signOut()}>
            Sign out
          </button>
        </div>
      </header>
      <ErrorNote error={error} />
      <main id="main" tabIndex={-1}>
        {session.organizationId ? children : <p>You are not a member of an organization yet: create one or accept an invitation first.</p>}
      </main>
    </>
  );
}
