// A real OpenID Provider (oidc-provider 9) for the SSO tests, run as a child process (the library is ESM only).
// Config comes in OIDC_TEST_CLIENTS (JSON array of client metadata). Prints `issuer <url>` on stdout once listening.
// Accounts: any e-mail; the subject is the e-mail, verified. Interactions are finished without a form: the test
// follows /interaction/<uid>?login=<e-mail> and the provider signs that account in and grants the requested scopes.
import http from 'node:http';
import Provider from 'oidc-provider';

const clients = JSON.parse(process.env.OIDC_TEST_CLIENTS ?? '[]');
const server = http.createServer();
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const issuer = `http://127.0.0.1:${server.address().port}`;

const provider = new Provider(issuer, {
  clients,
  findAccount: (_ctx, id) => ({
    accountId: id,
    claims: () => ({ sub: id, email: id, email_verified: true, name: id.split('@')[0] }),
  }),
  claims: { openid: ['sub'], email: ['email', 'email_verified'], profile: ['name'] },
  interactions: { url: (_ctx, interaction) => `/interaction/${interaction.uid}` },
  features: { devInteractions: { enabled: false } },
  cookies: { keys: ['oidc-test-cookie-key-0123456789'] },
  pkce: { required: () => true },
});
const callback = provider.callback();

server.on('request', async (req, res) => {
  const url = new URL(req.url ?? '/', issuer);
  const match = /^\/interaction\/([^/]+)$/.exec(url.pathname);
  if (!match) return callback(req, res);
  try {
    const details = await provider.interactionDetails(req, res);
    if (details.prompt.name === 'login') {
      const login = url.searchParams.get('login');
      await provider.interactionFinished(req, res, { login: { accountId: login } }, { mergeWithLastSubmission: false });
      return;
    }
    const grant = details.grantId
      ? await provider.Grant.find(details.grantId)
      : new provider.Grant({ accountId: details.session.accountId, clientId: details.params.client_id });
    if (details.prompt.details.missingOIDCScope) grant.addOIDCScope(details.prompt.details.missingOIDCScope.join(' '));
    if (details.prompt.details.missingOIDCClaims) grant.addOIDCClaims(details.prompt.details.missingOIDCClaims);
    await provider.interactionFinished(req, res, { consent: { grantId: await grant.save() } }, { mergeWithLastSubmission: true });
  } catch (err) {
    res.statusCode = 500;
    res.end(String(err));
  }
});

process.stdout.write(`issuer ${issuer}\n`);
process.on('SIGTERM', () => server.close(() => process.exit(0)));
