import { useState } from 'preact/hooks';
import { navigate, type Route } from '../route';
import { completeTwoFactor, signIn, ssoSignInUrl, useSession } from '../session';
import type { TwoFactorChallenge } from '../types';
import { ErrorNote, useAction } from '../ui';

/**
 * Password (then the second step when two-factor sign-in is on) or the organization's SSO. After an SSO sign-in
 * the API sends the browser to #/sign-in/two-factor (challenge in an HttpOnly cookie) or with `sso_error`.
 */
export function SignInPage({ route }: { route: Route }) {
  const session = useSession();
  const ssoSecondStep = route.path[1] === 'two-factor';
  const [challenge, setChallenge] = useState<TwoFactorChallenge | null>(null);
  const ssoError = route.query.get('sso_error');

  return (
    <main id="main" class="sign-in">
      <h1>Sign in to Loom</h1>
      {session.notice && <p class="notice" role="status">{session.notice}</p>}
      {ssoError && (
        <p class="error" role="alert">
          Single sign-on failed: {ssoError}
        </p>
      )}
      {challenge || ssoSecondStep ? (
        <TwoFactorForm challenge={challenge} onCancel={() => { setChallenge(null); navigate('#/sign-in', true); }} />
      ) : (
        <>
          <PasswordForm onChallenge={setChallenge} />
          <SsoForm />
        </>
      )}
    </main>
  );
}

function PasswordForm({ onChallenge }: { onChallenge: (c: TwoFactorChallenge) => void }) {
  const [email, setEmail] = useState('');
  const [password, setPassword] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      const challenge = await signIn(email.trim(), password);
      if (challenge) onChallenge(challenge);
    });
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="password-title">
      <h2 id="password-title">With your password</h2>
      <label>
        E-mail
        <input type="email" name="email" autoComplete="username" required value={email} onInput={(e) => setEmail(e.currentTarget.value)} />
      </label>
      <label>
        Password
        <input type="password" name="password" autoComplete="current-password" required value={password} onInput={(e) => setPassword(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary" disabled={busy}>
        Sign in
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

function TwoFactorForm({ challenge, onCancel }: { challenge: TwoFactorChallenge | null; onCancel: () => void }) {
  const [code, setCode] = useState('');
  const { busy, error, run } = useAction();
  const submit = (event: Event) => {
    event.preventDefault();
    void run(async () => {
      await completeTwoFactor(challenge?.challengeToken ?? null, code.trim());
      navigate('#/runs', true);
    });
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="two-factor-title">
      <h2 id="two-factor-title">Second step</h2>
      <p>Enter the code of your authenticator app, or one of your recovery codes.</p>
      <label>
        Code
        <input name="code" autoComplete="one-time-code" inputMode="text" required value={code} onInput={(e) => setCode(e.currentTarget.value)} />
      </label>
      <button type="submit" class="primary" disabled={busy}>
        Verify
      </button>
      <button type="button" onClick={onCancel}>
        Start again
      </button>
      <ErrorNote error={error} />
    </form>
  );
}

function SsoForm() {
  const [slug, setSlug] = useState('');
  const submit = (event: Event) => {
    event.preventDefault();
    if (slug.trim()) location.assign(ssoSignInUrl(slug.trim()));
  };
  return (
    <form class="card" onSubmit={submit} aria-labelledby="sso-title">
      <h2 id="sso-title">With your organization's single sign-on</h2>
      <label>
        Organization (its slug)
        <input name="organization" required value={slug} onInput={(e) => setSlug(e.currentTarget.value)} />
      </label>
      <button type="submit">Continue with SSO</button>
    </form>
  );
}
