/**
 * Generated from the Loom OpenAPI document by `npm run generate:client` (scripts/generate-client.ts).
 * Do not edit by hand: change the route declarations and regenerate. A test fails when this file is stale.
 */

export interface paths {
    "/api/auth/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Whether the current user's two-factor sign-in is on
         * @description Authentication: bearer access token.
         */
        get: operations["getTwoFactorStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/2fa/disable": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn two-factor sign-in off
         * @description Needs the current password (when the account has one) and a current code or a recovery code.
         *
         *     Authentication: bearer access token.
         */
        post: operations["disableTwoFactor"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/2fa/enrolment": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Start enrolling an authenticator app (TOTP)
         * @description Answers a new secret as an otpauth URI and a QR code. Nothing changes for sign-in until the first code is confirmed with POST /api/auth/2fa/enrolment/confirm; starting again replaces an unconfirmed secret.
         *
         *     Authentication: bearer access token.
         */
        post: operations["startTwoFactorEnrolment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/2fa/enrolment/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Turn two-factor sign-in on with a first code
         * @description Answers ten single-use recovery codes (shown once) and a new token pair: every session of the user ends, this one included, since they were opened with the password alone.
         *
         *     Authentication: bearer access token.
         */
        post: operations["confirmTwoFactorEnrolment"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/2fa/recovery-codes": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replace the recovery codes
         * @description Needs a current code; the previous recovery codes stop working.
         *
         *     Authentication: bearer access token.
         */
        post: operations["regenerateRecoveryCodes"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/email-verification/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Confirm the e-mail address with an e-mailed code
         * @description Authentication: none.
         */
        post: operations["confirmEmailVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/email-verification/send": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a verification code to the current user
         * @description Authentication: bearer access token.
         */
        post: operations["sendEmailVerification"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/identities": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The external identities linked to your account
         * @description Every identity (issuer, subject) that signs this account in with single sign-on, oldest first.
         *
         *     Authentication: bearer access token.
         */
        get: operations["listIdentities"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/identities/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Unlink an external identity from your account
         * @description From a session opened with the password (not one opened by SSO). Refused with 409 LAST_SIGN_IN_METHOD when the account has no password and this is its only identity. Sessions already open stay open; revoke them at DELETE /api/auth/sessions/{id}.
         *
         *     Authentication: bearer access token.
         */
        delete: operations["unlinkIdentity"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Sign in with e-mail and password
         * @description Opens a new session (the oldest is evicted past the per-user maximum). A wrong password and an unknown e-mail give the same answer. A user with two-factor sign-in on gets `challenge` instead of `tokens`: send it with a code to POST /api/auth/login/2fa. With `X-Refresh-Token-Transport: cookie` (browser mode) the refresh token is set as an HttpOnly cookie instead of answered (docs/auth.md#browser-clients-refresh-cookie).
         *
         *     Authentication: none.
         */
        post: operations["login"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/login/2fa": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Second sign-in step: the challenge and a code give the tokens
         * @description The challenge comes from POST /api/auth/login (or an SSO callback) when the user has two-factor sign-in on. A code works once; five wrong codes end the challenge; every check counts against SERVICE_RATE_LIMIT_TWO_FACTOR_ACCOUNT.
         *
         *     Authentication: none.
         */
        post: operations["completeTwoFactorLogin"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/logout": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * End the current session
         * @description Both of the session's tokens stop working at once.
         *
         *     Authentication: bearer access token.
         */
        post: operations["logout"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/me": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user and session
         * @description Authentication: bearer access token.
         */
        get: operations["getCurrentUser"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the password
         * @description Needs the current password. Every session of the user ends; the caller receives a fresh token pair.
         *
         *     Authentication: bearer access token.
         */
        post: operations["changePassword"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset/confirm": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Set a new password with an e-mailed reset code
         * @description Single use. Confirms the e-mail address and ends every session of the user.
         *
         *     Authentication: none.
         */
        post: operations["confirmPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/password-reset/request": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * E-mail a password reset code
         * @description The same answer whether or not the address is registered. The code is valid for one hour (configurable) and once; asking again invalidates the previous code.
         *
         *     Authentication: none.
         */
        post: operations["requestPasswordReset"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/profile": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Update name and avatar image
         * @description Authentication: bearer access token.
         */
        put: operations["updateProfile"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/refresh": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Exchange a refresh token for a new token pair
         * @description The refresh token is single use: the answer carries its successor. Presenting a spent refresh token revokes its session (reuse detection). Browser mode: send no refreshToken; the refresh cookie is used and the X-CSRF-Token header is required (403 without it); the answer sets the rotated cookie.
         *
         *     Authentication: none.
         */
        post: operations["refreshToken"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/register": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Create an account and sign in
         * @description Creates the user, opens a session and returns a token pair. A verification e-mail is sent in the background.
         *
         *     Authentication: none.
         */
        post: operations["register"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/security-events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the security events of your own account, newest first
         * @description Account events, which belong to no organization: `auth.login_succeeded`, `auth.login_failed` (also attempts by others with your e-mail), `auth.refresh_reuse_detected`, `auth.password_changed`, `auth.password_reset_requested`, `auth.password_reset_completed`, `auth.logout`, `auth.session_revoked`, `auth.sessions_revoked`; each with actor, IP and user agent. Filter with `action` (exact, or `auth.*`).
         *
         *     Authentication: bearer access token.
         */
        get: operations["listSecurityEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The current user's live sessions
         * @description Live: not expired, and used within the platform's idle timeout and within the idle policy (security.sessionTimeoutMinutes) of the session's active organization, the rule every request applies.
         *
         *     Authentication: bearer access token.
         */
        get: operations["listSessions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sessions/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * End one of your sessions
         * @description Authentication: bearer access token.
         */
        delete: operations["revokeSession"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sso/{slug}/authorize": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start signing in with the organization's OpenID Connect provider
         * @description Redirects (302) to the provider with the authorization-code flow: PKCE (S256), a single-use `state` and a `nonce`; the body carries the same URL for clients that do not follow redirects. The provider sends the browser back to GET /api/auth/sso/callback. `client=console`: the callback signs the browser in to the web console (browser-mode cookies) and sends it there instead of answering JSON.
         *
         *     Authentication: none.
         */
        get: operations["startSsoSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sso/{slug}/link": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Link your account to your identity at the organization's OpenID Connect provider
         * @description From a session opened with the password (not one opened by SSO), by a member of the organization: starts the same flow as authorize and answers the URL to open; the callback then links the identity (issuer, subject) to this account instead of signing in. Afterwards SSO signs this account in. An account that existed before is never joined to an identity by its e-mail alone: this is how it is linked.
         *
         *     Authentication: bearer access token.
         */
        post: operations["startSsoLink"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/sso/callback": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Where the OpenID Connect provider sends the browser back
         * @description Spends the state (a replayed or unknown state is refused), exchanges the code with the PKCE verifier, verifies the ID token (signature, issuer, audience, expiry, nonce) and the e-mail domain, then finds the user by the linked identity (issuer, subject), never by the e-mail alone: an existing account whose identity is not linked is refused (SSO_ACCOUNT_EXISTS); just-in-time provisioning creates accounts only in the organization's verified domains (SSO_DOMAIN_NOT_VERIFIED). Signs in with a session scoped to the organization: tokens, or a two-factor challenge. A flow started with .../link links the identity instead.
         *
         *     Authentication: none.
         */
        get: operations["completeSsoSignIn"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/auth/switch-organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Change the session's active organization
         * @description Only an organization the user is a member of. Returns a new token pair whose access token carries the new organization (with `X-Refresh-Token-Transport: cookie`, in browser mode as for login); the previous refresh token is spent. A session opened by an organization's single sign-on stays in that organization (403 SSO_SESSION_SCOPED).
         *
         *     Authentication: bearer access token.
         */
        post: operations["switchOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/hooks/{organization}/{path}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Start a run through a webhook trigger (GET)
         * @description Public URL of an active workflow's webhook trigger; only the trigger's `method` is answered (others: 405). Authentication by the trigger: `bearer` (Authorization: Bearer <secret>), `hmac` (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature; 5 minute tolerance; a replayed webhook-id starts nothing), or `none` (explicit opt-in). Body (JSON, form or text), query and mapped headers become run parameters (docs/triggers.md#parameter-mapping). `Idempotency-Key` (or the webhook-id) makes retries start one run: the repeat answers 200 with the first run id and `Idempotent-Replayed: true`. **Run and wait**: with `Prefer: wait=<seconds>` (capped at RUN_WAIT_MAX) the answer waits for the run, a repeat included: 200 with its `status`, `results` and `errors` once it has finished (`Preference-Applied: wait=N`), else 202 with its current `status` (docs/triggers.md#run-and-wait).
         *
         *     Authentication: none.
         */
        get: operations["receiveWebhookGet"];
        /**
         * Start a run through a webhook trigger (PUT)
         * @description Public URL of an active workflow's webhook trigger; only the trigger's `method` is answered (others: 405). Authentication by the trigger: `bearer` (Authorization: Bearer <secret>), `hmac` (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature; 5 minute tolerance; a replayed webhook-id starts nothing), or `none` (explicit opt-in). Body (JSON, form or text), query and mapped headers become run parameters (docs/triggers.md#parameter-mapping). `Idempotency-Key` (or the webhook-id) makes retries start one run: the repeat answers 200 with the first run id and `Idempotent-Replayed: true`. **Run and wait**: with `Prefer: wait=<seconds>` (capped at RUN_WAIT_MAX) the answer waits for the run, a repeat included: 200 with its `status`, `results` and `errors` once it has finished (`Preference-Applied: wait=N`), else 202 with its current `status` (docs/triggers.md#run-and-wait).
         *
         *     Authentication: none.
         */
        put: operations["receiveWebhookPut"];
        /**
         * Start a run through a webhook trigger (POST)
         * @description Public URL of an active workflow's webhook trigger; only the trigger's `method` is answered (others: 405). Authentication by the trigger: `bearer` (Authorization: Bearer <secret>), `hmac` (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature; 5 minute tolerance; a replayed webhook-id starts nothing), or `none` (explicit opt-in). Body (JSON, form or text), query and mapped headers become run parameters (docs/triggers.md#parameter-mapping). `Idempotency-Key` (or the webhook-id) makes retries start one run: the repeat answers 200 with the first run id and `Idempotent-Replayed: true`. **Run and wait**: with `Prefer: wait=<seconds>` (capped at RUN_WAIT_MAX) the answer waits for the run, a repeat included: 200 with its `status`, `results` and `errors` once it has finished (`Preference-Applied: wait=N`), else 202 with its current `status` (docs/triggers.md#run-and-wait).
         *
         *     Authentication: none.
         */
        post: operations["receiveWebhookPost"];
        /**
         * Start a run through a webhook trigger (DELETE)
         * @description Public URL of an active workflow's webhook trigger; only the trigger's `method` is answered (others: 405). Authentication by the trigger: `bearer` (Authorization: Bearer <secret>), `hmac` (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature; 5 minute tolerance; a replayed webhook-id starts nothing), or `none` (explicit opt-in). Body (JSON, form or text), query and mapped headers become run parameters (docs/triggers.md#parameter-mapping). `Idempotency-Key` (or the webhook-id) makes retries start one run: the repeat answers 200 with the first run id and `Idempotent-Replayed: true`. **Run and wait**: with `Prefer: wait=<seconds>` (capped at RUN_WAIT_MAX) the answer waits for the run, a repeat included: 200 with its `status`, `results` and `errors` once it has finished (`Preference-Applied: wait=N`), else 202 with its current `status` (docs/triggers.md#run-and-wait).
         *
         *     Authentication: none.
         */
        delete: operations["receiveWebhookDelete"];
        options?: never;
        head?: never;
        /**
         * Start a run through a webhook trigger (PATCH)
         * @description Public URL of an active workflow's webhook trigger; only the trigger's `method` is answered (others: 405). Authentication by the trigger: `bearer` (Authorization: Bearer <secret>), `hmac` (Standard Webhooks headers webhook-id, webhook-timestamp, webhook-signature; 5 minute tolerance; a replayed webhook-id starts nothing), or `none` (explicit opt-in). Body (JSON, form or text), query and mapped headers become run parameters (docs/triggers.md#parameter-mapping). `Idempotency-Key` (or the webhook-id) makes retries start one run: the repeat answers 200 with the first run id and `Idempotent-Replayed: true`. **Run and wait**: with `Prefer: wait=<seconds>` (capped at RUN_WAIT_MAX) the answer waits for the run, a repeat included: 200 with its `status`, `results` and `errors` once it has finished (`Preference-Applied: wait=N`), else 202 with its current `status` (docs/triggers.md#run-and-wait).
         *
         *     Authentication: none.
         */
        patch: operations["receiveWebhookPatch"];
        trace?: never;
    };
    "/api/v1/approvals": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's approvals, newest first; `awaiting=me`: what the caller may decide now
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["listApprovals"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One approval: who may decide, its form, the decisions so far, and whether the caller may decide
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["getApproval"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/approvals/{id}/decision": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve or reject an approval (a person: API keys get HUMAN_REQUIRED)
         * @description The caller must be among the approvers (a role at least the approval's `role`, or a listed user), must not have started the run unless `allow_self_approval`, and decides once. To approve, the form's required fields are given in `values` (each of its type; a choice among its options). N of M: the approval is approved when `required` people approved; one rejection rejects. The final decision resumes the run. Audited as approval.approved / approval.rejected.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        post: operations["decideApproval"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/circuit-breakers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Circuit breaker state per tool for the active organization
         * @description One breaker per tool that a `circuit_breaker` node has called. Shared by every run and worker: `threshold` consecutive failures open it for `timeout` ms (calls fail at once with CIRCUIT_OPEN), then `half_open_requests` trial calls decide whether it closes or opens again.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["listCircuitBreakers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/circuit-breakers/{tool}/reset": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Close a tool's circuit breaker now (admins)
         * @description Breakers are kept per tool and scope (a destination host, or a node's `circuit_breaker.key`). With `scope` the breaker of that scope is closed; without, every breaker of the tool is, and the answer shows the first.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `operations:manage`).
         */
        post: operations["resetCircuitBreaker"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Upload content (multipart: file, title, tags, metadata)
         * @description Creates content with version 1. Processing (text and metadata extraction, conversion, thumbnail, chunking, embedding) starts at once when CONTENT_PROCESS_ON_UPLOAD is on; follow it at /{id}/status. Emits `content.uploaded`.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `content:write`).
         */
        post: operations["uploadContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get content details
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        get: operations["getContent"];
        /**
         * Update title, metadata and tags
         * @description Each given field replaces the stored one (metadata and tags are replaced whole, not merged); omitted fields stay. Members may update only content they uploaded. A new file is a new version: POST /{id}/versions.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `content:write`).
         */
        put: operations["updateContent"];
        post?: never;
        /**
         * Delete content
         * @description The record (with its versions and processing history) is deleted at once and `content.deleted` is recorded; the stored files, derived files and vectors are removed by a Temporal workflow (`cleanup.workflowId`) that survives restarts.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `content:write`).
         */
        delete: operations["deleteContent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/{id}/download": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Download a version (streamed; Range and ETag supported)
         * @description Streams the file through the API (no redirect, so the bucket never needs to be reachable by clients). Content-Type is the sniffed type, Content-Disposition carries the original file name (RFC 6266), the ETag is the SHA-256 of the bytes (If-None-Match answers 304), and a single `Range: bytes=a-b` answers 206; with `If-Range`, only while it names the current ETag (else 200 with the whole file, RFC 9110). `variant` selects a derived file: thumbnail (WebP), text (extracted), converted (WebP for images, Markdown for documents).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        get: operations["downloadContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/{id}/embed": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate the embedding (runs extract_text, chunk and embed)
         * @description Embeds the current version with the organization's provider (integration settings `embeddings`, else the global one; the built-in default is the offline lexical-hash-384-v2). Answers 202 with the job; the vector is at GET /{id}/embedding when the job has succeeded.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `content:write`).
         */
        post: operations["embedContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/{id}/embedding": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get the content's document vector with its model and dimension
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        get: operations["getContentEmbedding"];
        /**
         * Set the document vector (bring your own embedding)
         * @description Replaces the content's document vector (used by similar search). Without `model` the organization's model is assumed and its dimension enforced; a custom model name keeps the dimension of its first vector (a new name is registered within CONTENT_EMBEDDING_MODELS_MAX: 409 past it). Re-processing computes a fresh vector again.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `content:write`).
         */
        put: operations["putContentEmbedding"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/{id}/extract": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Extract specific data on demand
         * @description `type`: text (optionally a PDF page range), jsonata (an expression over JSON, CSV rows or XML), fields (paths such as `a.b[0].c`, or CSV column names), regex (matches over the extracted text), metadata (what the metadata step recorded). Files past the processing size limit answer 422.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        post: operations["extractContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/{id}/process": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run processing steps (default: all) on a version
         * @description Steps run in pipeline order as Temporal activities: extract_text, extract_metadata, convert, thumbnail, chunk, embed. A step that depends on a failed one is skipped. 409 while a job is running. Emits `content.processed` when the job ends.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `content:write`).
         */
        post: operations["processContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/{id}/status": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Processing status: every step with its state, attempts and error
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        get: operations["contentStatus"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the versions of a content (newest first)
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        get: operations["listContentVersions"];
        put?: never;
        /**
         * Upload a new file as the next version
         * @description Same multipart form as the upload; given title, tags and metadata replace the stored ones. The new version becomes current and is processed like an upload. Older versions stay downloadable (`?version=`).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `content:write`).
         */
        post: operations["uploadContentVersion"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/query": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Advanced query over metadata, tags, type, size and dates
         * @description Answered from PostgreSQL. `filter` conditions all apply (tags: all of; tagsAny: any of; metadata: JSON containment; type: media type or MIME type with `image/*` wildcards). Sorted by `sort.field` (createdAt, updatedAt, size, title) then id; keyset pagination with `cursor` from `nextCursor` (keep the same sort).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        post: operations["queryContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/reembeddings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's re-embedding operations, newest first
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        get: operations["listContentReembeddings"];
        put?: never;
        /**
         * Re-embed the organization's content with its current embedding model, in the background
         * @description After a change of embedding provider (or to move from the lexical model to the semantic default): every content embedded by another model is embedded again, in batches, by a durable workflow that survives restarts. Search keeps finding content of both models meanwhile (keyword search over all of them, semantic search with each built-in model). 202 with the operation; follow it with GET /content/reembeddings/{id}. One at a time per organization (409 CONFLICT naming the running one). Configuration: admins and owners. Audited at start, end and cancel.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `integrations:manage`).
         */
        post: operations["startContentReembedding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/reembeddings/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A re-embedding operation: its progress (done, skipped, failed, remaining of total)
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        get: operations["getContentReembedding"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/reembeddings/{id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Stop a running re-embedding before its next batch (what was re-embedded stays)
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `integrations:manage`).
         */
        post: operations["cancelContentReembedding"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/search": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Search content: semantic, keyword (full-text) or hybrid
         * @description semantic: the query is embedded with the organization's embedding model and compared (cosine) with the chunk vectors made by that same model. keyword: BM25 full-text over the chunk text. hybrid (default): both, fused by reciprocal rank (k = 60). Results are contents (best chunk wins) with their best chunks as highlights. Filters are the ones of POST /query. Only the caller's organization is ever searched.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        post: operations["searchContent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/content/similar/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Contents most similar to this one
         * @description Nearest neighbours (cosine) of the content's document vector, among contents of the same organization embedded with the same model.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        get: operations["similarContent"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dead-letters": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List dead letters of the active organization, newest first
         * @description Nodes whose strategy is `dead_letter_queue` park their input, error and attempts here after their last attempt. Entries expire after the queue's retention (7 days by default) and are purged by a schedule.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["listDeadLetters"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dead-letters/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get one dead letter
         * @description The parked node with its input, error and attempts, until its retention ends (then 404).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["getDeadLetter"];
        put?: never;
        post?: never;
        /**
         * Delete a dead letter
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `run:execute`).
         */
        delete: operations["deleteDeadLetter"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/dead-letters/{id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a dead letter
         * @description Starts a new run of the same workflow version with the original parameters, reusing every node that completed in the original run: the dead-lettered node runs again, then its descendants. The entry is marked `replayed` with the new run's id. Per organization, API starts are limited to RUN_START_RATE_LIMIT attempts per window and RUN_MAX_ACTIVE_PER_ORGANIZATION open (pending or running) runs: over either, 429 RATE_LIMITED with Retry-After, and no run is created (docs/runs.md#fairness).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `run:execute`).
         */
        post: operations["replayDeadLetter"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embedding-models": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's custom embedding models
         * @description Sorted by name; not paginated (at most CONTENT_EMBEDDING_MODELS_MAX, default 10, per organization). Only this organization's: another organization may use the same name with another dimension, and neither sees the other's.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `content:read`).
         */
        get: operations["listEmbeddingModels"];
        put?: never;
        /**
         * Register a custom embedding model (name, dimension, provider)
         * @description Vectors stored with PUT /content/{id}/embedding under this name must have this dimension (422 otherwise). A model used there without registration is registered with the dimension of its first vector. 409 when the name is taken in this organization or is the organization's provider model, or when the organization already has CONTENT_EMBEDDING_MODELS_MAX models (default 10). Registering is configuration: admins and owners.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `integrations:manage`).
         */
        post: operations["registerEmbeddingModel"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/embedding-models/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a custom embedding model no content uses
         * @description 409 INVALID_STATE while content holds vectors of the model (re-embed or delete it first). The organization's vectors of the model are removed with it, and its place counts again.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `integrations:manage`).
         */
        delete: operations["deleteEmbeddingModel"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Publish a custom event to the organization
         * @description Names must be `custom.<word>(.<word>)*`. The event goes through the outbox like every event: it starts the runs of active workflows with a matching event trigger (`source: custom`, `event: <rest of the name>`) and is delivered to subscribed webhook endpoints. `data` at most 64 KiB.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `events:publish`).
         */
        post: operations["publishEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/catalog": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The events the service emits, with payload JSON Schemas
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `workflow:read`).
         */
        get: operations["getEventCatalog"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/quarantine": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the events quarantined after their last dispatch attempt, newest first
         * @description An event whose dispatch (starting the runs of event triggers, creating webhook deliveries) keeps failing is retried with a doubling backoff and set aside after EVENTS_DISPATCH_MAX_ATTEMPTS attempts (default 8), so it no longer holds anything up. Each entry has the payload, the attempts and the last error. Replayed entries stay listed (`status: replayed`, `dispatchedAt` once dispatched).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `operations:manage`).
         */
        get: operations["listQuarantinedEvents"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/quarantine/{event_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Discard a quarantined event (it is never dispatched)
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `operations:manage`).
         */
        delete: operations["discardQuarantinedEvent"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/events/quarantine/{event_id}/replay": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Replay a quarantined event
         * @description After fixing the cause: the event becomes dispatchable again with a fresh count of attempts; the dispatcher picks it up within EVENTS_DISPATCH_INTERVAL. Runs and webhook deliveries it had already started are not started twice. If it still fails it is quarantined again. 409 when the event is not quarantined.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `operations:manage`).
         */
        post: operations["replayQuarantinedEvent"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Accept an invitation with the token from the e-mail
         * @description The signed-in user's e-mail must be the invited address. The organization is not made active; switch to it.
         *
         *     Authentication: bearer access token.
         */
        post: operations["acceptInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/invitations/lookup": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * What an invitation token is for, before signing in
         * @description For the page the invitation e-mail links to: the organization, the invited address (the account that may accept), the role and the expiry, i.e. what the e-mail itself says. Changes nothing. The token goes in the body so that it reaches no access log.
         *
         *     Authentication: none.
         */
        post: operations["lookupInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organization": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization the request acts on: the session's active organization or the API key's
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `organization:read`).
         */
        get: operations["getCurrentOrganization"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the caller's organizations, with the caller's role in each
         * @description A session opened by an organization's single sign-on lists that organization only.
         *
         *     Authentication: bearer access token.
         */
        get: operations["listOrganizations"];
        put?: never;
        /**
         * Create an organization; the caller becomes its owner
         * @description Creates the organization, its default settings and the owner membership in one transaction and answers with the organization. Billing initialisation (free plan) and the welcome e-mail follow in the Temporal workflow `org-create-<id>`. The slug is derived from the name when absent. A user may belong to at most SERVICE_MAX_ORGANIZATIONS_PER_USER (default 10) organizations.
         *
         *     Authentication: bearer access token.
         */
        post: operations["createOrganization"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get an organization
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin, member, viewer (permission `organization:read`).
         */
        get: operations["getOrganization"];
        /**
         * Update the organization's name or slug
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `organization:update`).
         */
        put: operations["updateOrganization"];
        post?: never;
        /**
         * Delete the organization (owner, confirmed with the password)
         * @description The organization is unusable from this moment (it answers 404). The Temporal workflow `org-delete-<id>` then exports the data when asked (a time-limited link in the confirmation e-mail), cancels subscriptions, deletes every resource (content, workflows, schedules, runs, vectors, objects), removes the members and sends the confirmation. Follow it at the `Location` header (GET .../deletion). A second request answers 404: the organization is already gone for the API.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner (permission `organization:delete`).
         */
        delete: operations["deleteOrganization"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/api-keys": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List live (not revoked) API keys
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `integrations:manage`).
         */
        get: operations["listApiKeys"];
        put?: never;
        /**
         * Create an API key (the key is in this response only)
         * @description Present it as `Authorization: Bearer loom_...` or `X-API-Key: loom_...`. It acts on this organization with its role (admin, member or viewer; at most the creator's role). An admin key is created by a person only: an API key gets HUMAN_REQUIRED.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `integrations:manage`).
         */
        post: operations["createApiKey"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/api-keys/{keyId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke an API key (it stops working at once)
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `integrations:manage`).
         */
        delete: operations["revokeApiKey"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/audit-logs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List audit log entries of the organization, newest first
         * @description Every mutating action with its actor (user or API key), action, target, IP, user agent and time; changed settings carry a before/after with secrets masked. Filter with `action` (exact, or a family such as `member.*`), `actor` (user or API key id) and the time range [`from`, `to`).
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `audit:read`).
         */
        get: operations["listAuditLogs"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/billing": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's billing state: `active`, or `past_due` after a failed renewal
         * @description A failed renewal reported by the billing provider makes the state `past_due` (the owners are alerted by e-mail and the audit log has `billing.payment_failed`); the next successful payment (a renewal or an upgrade) makes it `active` again (`billing.payment_recovered`). Roles with the billing permission (owner) also see the recent payments.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin, member, viewer (permission `organization:read`).
         */
        get: operations["getOrganizationBilling"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/deletion": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Progress of an organization deletion (for the owner who asked for it)
         * @description Authentication: bearer access token.
         */
        get: operations["getOrganizationDeletion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/domains": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's e-mail domains, pending and verified
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `integrations:manage`).
         */
        get: operations["listOrganizationDomains"];
        put?: never;
        /**
         * Register an e-mail domain to prove with a DNS TXT record
         * @description Answers the TXT record to publish (`_loom-verification.<domain>` = `loom-verification=<token>`); then POST .../domains/{domainId}/verify. Single sign-on creates or joins accounts by e-mail only in verified domains.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `integrations:manage`).
         */
        post: operations["registerOrganizationDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/domains/{domainId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Delete a domain (a verified one is released)
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `integrations:manage`).
         */
        delete: operations["deleteOrganizationDomain"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/domains/{domainId}/verify": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check the domain's TXT record and mark it verified
         * @description Looks up the TXT record once. 422 DOMAIN_NOT_VERIFIED while it is missing; 409 DOMAIN_CLAIMED when another organization verified the domain first; a verified domain answers as it is.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `integrations:manage`).
         */
        post: operations["verifyOrganizationDomain"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/exports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's exports, newest first (the latest 50)
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner (permission `organization:transfer`).
         */
        get: operations["listOrganizationExports"];
        put?: never;
        /**
         * Export the organization's data as one archive, in the background
         * @description The archive of the deletion export (docs/organizations.md#deletion-export: content with every version's bytes, workflows with their versions, members, invitations, secret names, custom embedding models and caller-supplied vectors, run summaries, audit log; secrets masked), written to object storage and kept for SERVICE_ORGANIZATION_EXPORT_TTL. Follow it at GET .../exports/{exportId}, which gives the download link. One at a time per organization (409 while one is written). Owners only. It can be imported into a new organization (POST .../imports).
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner (permission `organization:transfer`).
         */
        post: operations["startOrganizationExport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/exports/{exportId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An export: its state, and once written its download link, size and SHA-256
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner (permission `organization:transfer`).
         */
        get: operations["getOrganizationExport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/imports": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Import an organization archive (an export) into this new organization, in the background
         * @description multipart/form-data with one `file` part: the `.tar.gz` of an export (on demand or of a deletion). The organization must hold no content and no workflows (409 otherwise). Streamed to object storage (413 past SERVICE_ORGANIZATION_IMPORT_MAX_BYTES), then imported by a workflow: content with every version, title, tags and metadata (processed as uploads are); workflows with every version, as drafts (their triggers inactive until an admin enables them); members and pending invitations as invitations; custom embedding models and caller-supplied vectors; secret names listed in the report (never values). Each record passes the same checks and quotas as through the API; a refused one is listed in the report's problems. Owners only.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner (permission `organization:transfer`).
         */
        post: operations["startOrganizationImport"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/imports/{importId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An import: its state and report (updated as it goes)
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner (permission `organization:transfer`).
         */
        get: operations["getOrganizationImport"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/invitations": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List pending invitations
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `members:manage`).
         */
        get: operations["listInvitations"];
        put?: never;
        /**
         * Invite someone by e-mail
         * @description Sends an e-mail with a token valid 7 days (SERVICE_INVITATION_TTL). Pending invitations count toward the plan's members quota (QUOTA_EXCEEDED). Only an owner invites an owner.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `members:manage`).
         */
        post: operations["inviteMember"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/invitations/{invitationId}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        post?: never;
        /**
         * Revoke a pending invitation
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `members:manage`).
         */
        delete: operations["revokeInvitation"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/invitations/{invitationId}/resend": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Send the invitation again with a new token and expiry (the old token stops working)
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `members:manage`).
         */
        post: operations["resendInvitation"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/members": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List members (newest first)
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin, member, viewer (permission `members:read`).
         */
        get: operations["listMembers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/members/{userID}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change a member's role
         * @description Only an owner grants the owner role or changes an owner; the last owner cannot be demoted (LAST_OWNER). The change applies at once to tokens already issued.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `members:manage`).
         */
        put: operations["changeMemberRole"];
        post?: never;
        /**
         * Remove a member, or leave (your own user id)
         * @description Removing others needs `members:manage`; anyone may leave. Only an owner removes an owner; the last owner cannot leave or be removed (LAST_OWNER). The member loses access at once.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin, member, viewer (permission `members:read`).
         */
        delete: operations["removeMember"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/plan": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Change the plan (owner), through the billing provider
         * @description An upgrade is charged by the billing provider (SERVICE_BILLING_PROVIDER). When the charge fails the plan is unchanged and the answer is 402 `PAYMENT_FAILED` naming the reason; the failed payment is in the audit log (`billing.payment_failed`). A downgrade must fit the members and pending invitations (429 `QUOTA_EXCEEDED`).
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner (permission `organization:billing`).
         */
        put: operations["changeOrganizationPlan"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/settings": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Get settings (general, security, integration); secrets are masked
         * @description Members see general and security; the integration group is shown to owners and admins.
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin, member (permission `settings:read`).
         */
        get: operations["getSettings"];
        /**
         * Update settings: any subset of groups, any subset of fields in a group
         * @description Fields left out keep their value. Secrets (webhook signing secrets, third-party secrets, SSO client secret) are encrypted at rest and never returned. An IP allowlist that excludes the caller is refused (UNPROCESSABLE) so nobody locks themselves out, and so is requireTwoFactor from a user without two-factor sign-in. Changes that weaken a protection (requireTwoFactor off, an IP allowlist emptied or widened, a longer or no session timeout, SSO enabled or re-pointed) are for people: API keys get HUMAN_REQUIRED (docs/organizations.md#human-acts). The document GET answers can be sent back (read-modify-write): a secret given as the mask a read showed keeps the stored secret (another mask is UNPROCESSABLE naming the field), and the read-only integration.apiKeys is ignored when unchanged (UNPROCESSABLE when changed).
         *
         *     Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin (permission `settings:update`).
         */
        put: operations["updateSettings"];
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/transfer-ownership": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Make another member the owner; the caller becomes admin
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner (permission `organization:transfer`).
         */
        post: operations["transferOwnership"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/organizations/{id}/usage": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Members, storage and API calls this month against the plan limits
         * @description Authentication: bearer access token or API key. Acts on the organization in the path. Roles: owner, admin, member, viewer (permission `usage:read`).
         */
        get: operations["getOrganizationUsage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's runs across all its workflows, newest first
         * @description Every run of the active organization, whatever its workflow and trigger (subworkflow children included, `trigger: subworkflow`), filtered by `status`, `workflow_id`, `trigger` (the trigger type) and a creation time range (`created_after` inclusive, `created_before` exclusive). Read from PostgreSQL only, like the per-workflow list; rows as there (without node states).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["listAllRuns"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/runs/stats": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Runs per day by status and p50/p95 duration per workflow over the last days
         * @description What the console charts: for the last `days` days (today included; days begin at midnight in `time_zone`), the organization's runs per day and status, and per workflow its runs by status and the median and 95th-percentile duration of its completed runs. Read from PostgreSQL only. A `workflow_id` that is not one of the organization's answers 404.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["getRunStats"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/secrets": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the organization's secrets (names and metadata, never values)
         * @description Sorted by name; not paginated (an organization holds at most 500). Node configs use a secret as `{{secret.NAME}}`, resolved by the worker right before the tool runs (docs/secrets.md).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `secrets:read`).
         */
        get: operations["listSecrets"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/secrets/{name}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        /**
         * Create or replace a secret (write-only: its value is never returned)
         * @description Answers 201 when created, 200 when replaced; audited as secret.created / secret.updated. Node configs use a secret as `{{secret.NAME}}`, resolved by the worker right before the tool runs (docs/secrets.md).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `secrets:write`).
         */
        put: operations["putSecret"];
        post?: never;
        /**
         * Delete a secret
         * @description Audited as secret.deleted. Workflows that still reference it can no longer be saved, and their runs fail with UNKNOWN_SECRET at the node that uses it.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `secrets:write`).
         */
        delete: operations["deleteSecret"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the registered tools with their input and output schemas
         * @description The tools the workers of this API's task queue run, as the last worker started published them (a tool added to a worker appears once it restarts; docs/adding-a-tool.md). Test tools (delay, fail) only where TOOLS_TEST_TOOLS_ENABLED. Not paginated: the list is small.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `workflow:read`).
         */
        get: operations["listTools"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/tools/{tool}/test": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Run one tool with sample input, as a node of a run would
         * @description Runs the tool's activity through Temporal on a worker, with the config and sample input given: templates, `{{secret.NAME}}` references, the outbound policy and the schema checks work as in a run. Answers 200 with the output, or with the tool's error (`status: failed`, the code a run would record) and the attempts made. Literal credentials, unknown secrets and a config the tool's input schema refuses are 4xx, as at workflow save. Rate limited per organization (TOOLS_TEST_RUN_RATE_LIMIT); audited as tool.tested.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `run:execute`).
         */
        post: operations["testTool"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The organization's outgoing webhook endpoints with their delivery health
         * @description Endpoints are configured in the integration settings; an endpoint is disabled automatically after WEBHOOKS_DISABLE_AFTER_FAILURES failed deliveries in a row (deliveries the outbound policy refused are counted apart, in policyRefusals, and never disable it).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `integrations:manage`).
         */
        get: operations["listWebhookEndpoints"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{endpoint_id}/deliveries": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * An endpoint's delivery log, newest first
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `integrations:manage`).
         */
        get: operations["listWebhookDeliveries"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * One delivery with every attempt and the signed body
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `integrations:manage`).
         */
        get: operations["getWebhookDelivery"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/webhooks/{endpoint_id}/deliveries/{delivery_id}/redeliver": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Deliver the same event again (a new delivery in the log)
         * @description Same body and webhook-id (receivers deduplicate on it), fresh signature, the endpoint's current URL and secret.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin (permission `integrations:manage`).
         */
        post: operations["redeliverWebhook"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List workflows, newest first
         * @description Filters: status, tag (one of metadata.tags), category (metadata.category).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `workflow:read`).
         */
        get: operations["listWorkflows"];
        put?: never;
        /**
         * Create a workflow (status draft, version 1)
         * @description Accepts the API shape `{ name, description, dag, tools, triggers, metadata, parameters, error_handling }` or a workflow definition document (`nodes` at the top level; JSON, or YAML with Content-Type application/yaml). Entry and exit points are derived when absent. Every problem of the definition is returned at once: 422 WORKFLOW_INVALID with `details` [{ path, problem }], path naming the node and field.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `workflow:write`).
         */
        post: operations["createWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a workflow (its current version)
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `workflow:read`).
         */
        get: operations["getWorkflow"];
        /**
         * Update a workflow
         * @description Fields given replace the current ones; fields left out stay. A change of dag, tools, triggers, parameters or error_handling creates a new version (old versions stay readable and runs keep the version they started with); name, description and metadata edits do not. Accepts a definition document too. Members manage the workflows they created; admins and owners manage all; viewers only read. Archived workflows are read-only.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `workflow:write`).
         */
        put: operations["updateWorkflow"];
        post?: never;
        /**
         * Delete a workflow, its versions and its runs
         * @description Refused with 409 INVALID_STATE while runs are pending or running. Members manage the workflows they created; admins and owners manage all; viewers only read. Archived workflows are read-only.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `workflow:write`).
         */
        delete: operations["deleteWorkflow"];
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/activate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Activate a workflow (draft or paused -> active)
         * @description draft -> active, paused -> active. Any other transition answers 409 INVALID_STATE. Members manage the workflows they created; admins and owners manage all; viewers only read. Archived workflows are read-only.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `workflow:write`).
         */
        post: operations["activateWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/archive": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Archive a workflow (final)
         * @description any -> archived; archived is final and read-only. Any other transition answers 409 INVALID_STATE. Members manage the workflows they created; admins and owners manage all; viewers only read. Archived workflows are read-only.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `workflow:write`).
         */
        post: operations["archiveWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/flow": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * What the workflow's flow control holds now: running, queued and debounced runs per key
         * @description Asked of the workflow's flow gate (a Temporal query, docs/runs.md#flow-control): per concurrency key, the runs it admitted that have not ended, the runs queued for concurrency or throttle, and the runs waiting for their debounce period. Empty groups when the gate holds nothing; 503 when the workflow engine does not answer.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["getFlowState"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/pause": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Pause a workflow (active -> paused)
         * @description active -> paused; paused workflows refuse new runs. Any other transition answers 409 INVALID_STATE. Members manage the workflows they created; admins and owners manage all; viewers only read. Archived workflows are read-only.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `workflow:write`).
         */
        post: operations["pauseWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/runs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List runs of a workflow, newest first
         * @description Read from PostgreSQL only (never from Temporal), so old runs stay listed after Temporal retention. Runs started by another workflow's subworkflow node are listed here too, under the child workflow, with `trigger.type: "subworkflow"` and `parent` naming the parent run and node (docs/runs.md#subworkflow-runs).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["listRuns"];
        put?: never;
        /**
         * Start a run of the workflow's current version
         * @description Parameters are checked against the declared parameters (unknown names, required, type, enum; defaults applied): 422 INVALID_PARAMETERS lists every problem. Draft (test runs) and active workflows run; paused and archived ones answer 409 INVALID_STATE. The run is a Temporal execution whose workflow id is the run id. Per organization, API starts are limited to RUN_START_RATE_LIMIT attempts per window and RUN_MAX_ACTIVE_PER_ORGANIZATION open (pending or running) runs: over either, 429 RATE_LIMITED with Retry-After, and no run is created (docs/runs.md#fairness). **Run and wait**: with `?wait=30s` (or `Prefer: wait=30`) the answer waits for the run to finish, at most that long (RUN_WAIT_MAX caps it): 200 with the finished run, whatever its status, exactly as GET run shows it (results, errors); else 202 with the run as it is then and `Location`. With an Idempotency-Key, a repeat starts nothing and waits for the first request's run in the same way (docs/runs.md#run-and-wait). **Flow control** (the workflow's `flow`, docs/runs.md#flow-control): a queued or debounced run is created `pending` and starts when its gate admits it; `priority` orders queued runs; a singleton hit answers the open run (200, `Loom-Singleton: existing`); a key expression that fails answers 422 FLOW_KEY_INVALID.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `run:execute`).
         */
        post: operations["startRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/runs/{run_id}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read a run: status, node states, results and errors
         * @description While the run is open, node states are live (a Temporal query; the stored row when the query cannot be answered). Once it has finished, everything comes from PostgreSQL. `duration` is in milliseconds. Outputs larger than RUN_LARGE_OUTPUT_BYTES, and those stored to keep what the run assembles within RUN_PAYLOAD_BUDGET_BYTES, appear as `{ $ref, bytes, download_url }` (a presigned link, 15 minutes).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["getRun"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/runs/{run_id}/approve": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Approve a run that awaits approval
         * @description For manual runs whose trigger has `requireApproval`. A person decides: API keys get HUMAN_REQUIRED. The caller's role must be one of the trigger's `approvers`; the user who started the run (for a run started with an API key, the key's creator) may not decide unless `allowSelfApproval`. The run then starts its nodes. Audited as run.approved / run.rejected.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        post: operations["approveRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/runs/{run_id}/cancel": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Cancel a pending or running run
         * @description Running tool activities receive the cancellation with their next heartbeat (at most WORKER_HEARTBEAT_THROTTLE, 500 ms, apart) and stop. The answer waits up to 0.8 s for the run to close and shows it: `cancelled`, or `cancelling` while its nodes are still stopping (the run view shows `cancelling` until it ends `cancelled`). 409 when the run has already finished.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `run:execute`).
         */
        post: operations["cancelRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/runs/{run_id}/picture.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The run picture with, per node, its input, output, error, attempts, times, loop progress and child run
         * @description What the picture page shows: the SVG (as picture.svg) and per node the side panel's content. Inputs and outputs are indented JSON text cut to 2,000 characters (`truncated`, `totalChars`); a picture carries at most 200,000 characters of them. Answers carry a weak `ETag` that changes when the run's state does: send it as `If-None-Match` to get 304 (no body) while nothing moved. Durations of running nodes are not part of the ETag: count them on from `startedAt` and `now`.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["getRunPictureModel"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/runs/{run_id}/picture.svg": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The run's DAG as SVG, each node coloured by its state with attempts and duration
         * @description Nodes are `<g class="node" data-node-id data-status data-attempts>`; colours: pending grey, running blue, completed green, failed red, skipped dashed, cancelled orange. Header `X-Run-Status` gives the run status (poll until completed, failed or cancelled) and `X-Temporal-Url` its Temporal Web page. The HTML page `/ui/workflows/{id}/runs/{run_id}/picture` shows it and refreshes it while the run is live.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        get: operations["getRunPicture"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/runs/{run_id}/reject": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Reject a run that awaits approval
         * @description For manual runs whose trigger has `requireApproval`. A person decides: API keys get HUMAN_REQUIRED. The caller's role must be one of the trigger's `approvers`; the user who started the run (for a run started with an API key, the key's creator) may not decide unless `allowSelfApproval`. The run ends `cancelled` (error APPROVAL_REJECTED). Audited as run.approved / run.rejected.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `run:read`).
         */
        post: operations["rejectRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/runs/{run_id}/rerun": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Rerun a finished run from a node, with edited parameters, on a chosen version
         * @description Starts a new run from a finished one (completed, failed or cancelled). The node named in `from_node` and everything downstream of it run again; so does any node that reads a parameter you change, any node the chosen version defines differently, and what depends on them. Every other node that completed keeps its output (node state `via: "reused"`). `version`: the original run's (default), `latest`, or a number. The new run has `retry_of` set to the original and `trigger.type: "rerun"` (docs/runs.md#rerun). Per organization, API starts are limited to RUN_START_RATE_LIMIT attempts per window and RUN_MAX_ACTIVE_PER_ORGANIZATION open (pending or running) runs: over either, 429 RATE_LIMITED with Retry-After, and no run is created (docs/runs.md#fairness).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `run:execute`).
         */
        post: operations["rerunRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/runs/{run_id}/retry": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Retry a failed or cancelled run
         * @description Starts a new run of the same workflow version with the same parameters. Nodes that completed in the original run are reused (node state `via: "reused"`), only what failed or never ran executes. The new run has `retry_of` set to the original. Per organization, API starts are limited to RUN_START_RATE_LIMIT attempts per window and RUN_MAX_ACTIVE_PER_ORGANIZATION open (pending or running) runs: over either, 429 RATE_LIMITED with Retry-After, and no run is created (docs/runs.md#fairness).
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `run:execute`).
         */
        post: operations["retryRun"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/triggers": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The workflow's triggers with their state, next fire times and webhook URLs
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `workflow:read`).
         */
        get: operations["listWorkflowTriggers"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/triggers/{key}/secret": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Generate or rotate a webhook trigger's secret (shown once)
         * @description The answer holds the new secret (`whsec_...`); it is never shown again. The previous secret stops working at once. Owners and admins, or the member who created the workflow.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `workflow:write`).
         */
        post: operations["rotateWebhookTriggerSecret"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/triggers/sync": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Re-create the workflow's Temporal Schedules from its status and current version
         * @description Repairs schedules after a failed change notification (e.g. Temporal was unreachable). Idempotent.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `workflow:write`).
         */
        post: operations["syncWorkflowTriggers"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/versions": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * List the versions of a workflow, newest first
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `workflow:read`).
         */
        get: operations["listWorkflowVersions"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/{id}/versions/{version}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Read one version of a workflow
         * @description Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member, viewer (permission `workflow:read`).
         */
        get: operations["getWorkflowVersion"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/api/v1/workflows/validate": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        get?: never;
        put?: never;
        /**
         * Check a workflow without saving it (dry run)
         * @description Takes the same body as create (API shape or definition document, JSON or YAML), or, with `workflow_id`, the same body as an update of that workflow (fields not given keep their current value). Runs every check a save runs, subworkflow references and secret references included, and stores, audits and announces nothing. 200 with the definition exactly as a save would store it (entry and exit points derived, defaults applied); otherwise the answer the save would give: 400 VALIDATION_ERROR, 422 WORKFLOW_INVALID / INLINE_CREDENTIAL / UNKNOWN_SECRET with `details`.
         *
         *     Authentication: bearer access token or API key. Acts on the session's active organization (or the API key's organization). Roles: owner, admin, member (permission `workflow:write`).
         */
        post: operations["validateWorkflow"];
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/approvals/decide": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * HTML page: approve or reject an approval (the link of the approval e-mail)
         * @description Reads `?organization=` and `?approval=` (ids, no secret), lets the person sign in (two-factor step included), switches the session to that organization, shows the approval (GET /api/v1/approvals/{id}) with its form, and sends the decision (POST /api/v1/approvals/{id}/decision); then signs that session out again. The session lives in the page's memory only. Strict CSP with a per-response nonce, no Referer, never cached.
         *
         *     Authentication: none.
         */
        get: operations["decideApprovalPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The web console (HTML): runs, approvals, dead letters, workflows, triggers and charts
         * @description A single page for people; it signs in with POST /api/auth/login in browser mode (the refresh token in an HttpOnly cookie) and reads everything else from /api/v1 with the roles of the API. See docs/console.md.
         *
         *     Authentication: none.
         */
        get: operations["consolePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/console/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The console's script, style sheet or icon (names carry a hash of their content)
         * @description Authentication: none.
         */
        get: operations["consoleAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Interactive API reference (HTML) rendering /openapi.json
         * @description Authentication: none.
         */
        get: operations["apiReferencePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/docs/assets/{file}": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * A static file of the reference page
         * @description Only these files exist: `swagger-ui.css`, `swagger-ui-bundle.js`, `swagger-ui-standalone-preset.js`, `favicon-32x32.png`, `favicon-16x16.png`, `init.js`.
         *
         *     Authentication: none.
         */
        get: operations["apiReferenceAsset"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/healthz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Liveness: the process answers
         * @description Authentication: none.
         */
        get: operations["health"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/invitations/accept": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * HTML page: accept an invitation (the link of the invitation e-mail)
         * @description Reads `?token=` in the browser, shows the invitation (POST /api/v1/invitations/lookup), lets the person sign in (two-factor step included) or create an account with the invited address, then calls POST /api/v1/invitations/accept and signs that session out again. The token never reaches the server in a GET: the page removes it from the address (history.replaceState) and posts it. Strict CSP with a per-response nonce, no Referer, never cached.
         *
         *     Authentication: none.
         */
        get: operations["acceptInvitationPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/metrics": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Prometheus metrics of this API process
         * @description Prometheus text exposition: `loom_http_request_duration_seconds{method,route,status}`, `loom_runs{status}`, `loom_events_quarantined`, `loom_task_queue_backlog{type,queue}` and process metrics (`loom_api_*`). When SERVICE_METRICS_TOKEN is set, send `Authorization: Bearer <token>`; when SERVICE_METRICS_PORT is set, this page is served on that port instead of this one. The worker serves its own metrics (activity durations, worker state) on WORKER_METRICS_PORT (docs/operating.md).
         *
         *     Authentication: none.
         */
        get: operations["prometheusMetrics"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/openapi.json": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * This OpenAPI 3.1 document
         * @description Authentication: none.
         */
        get: operations["openApiDocument"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/readyz": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * Readiness: a run can start now; PostgreSQL, Temporal and MinIO each reported
         * @description Answers 503 (with the error envelope beside the report) while any backing service is down or Temporal is not set up for runs: for Temporal, the frontend, the namespace, Loom's search attributes and the history service are each checked (`services.temporal.checks`). The error code tells an outage (`SERVICE_UNAVAILABLE`) from a configuration an operator must fix (`ENGINE_MISCONFIGURED`, the message names what).
         *
         *     Authentication: none.
         */
        get: operations["readiness"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/reset-password": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * HTML page: choose a new password (the link of the password reset e-mail)
         * @description Reads `?token=` in the browser; a form with the new password twice calls POST /api/auth/password-reset/confirm and shows the policy problems (WEAK_PASSWORD details). Without a token, or with an expired one, it offers to e-mail a new link (POST /api/auth/password-reset/request). The token never reaches the server in a GET: the page removes it from the address (history.replaceState) and posts it. Strict CSP with a per-response nonce, no Referer, never cached.
         *
         *     Authentication: none.
         */
        get: operations["resetPasswordPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ui/assets/account-pages.css": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account pages' stylesheet
         * @description Authentication: none.
         */
        get: operations["accountPagesStylesheet"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ui/assets/account-pages.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The account pages' script
         * @description Authentication: none.
         */
        get: operations["accountPagesScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ui/assets/run-picture.js": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * The run picture page's script
         * @description Authentication: none.
         */
        get: operations["runPictureScript"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/ui/workflows/{id}/runs/{run_id}/picture": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * HTML page showing a run picture, refreshed while the run is live
         * @description A static page with no data of its own: it reads an access token or API key from the URL fragment (`#token=...`, never sent to the server) or asks for one, then loads `.../picture.svg` with it.
         *
         *     Authentication: none.
         */
        get: operations["runPicturePage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
    "/verify-email": {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        /**
         * HTML page: confirm an e-mail address (the link of the verification e-mail)
         * @description Reads `?token=` in the browser; one button calls POST /api/auth/email-verification/confirm. An expired or used link offers to sign in and have a new one sent. The token never reaches the server in a GET: the page removes it from the address (history.replaceState) and posts it. Strict CSP with a per-response nonce, no Referer, never cached.
         *
         *     Authentication: none.
         */
        get: operations["verifyEmailPage"];
        put?: never;
        post?: never;
        delete?: never;
        options?: never;
        head?: never;
        patch?: never;
        trace?: never;
    };
}
export type webhooks = Record<string, never>;
export interface components {
    schemas: {
        /** @description An approval node's request: who may decide, the form, the decisions so far and its state */
        Approval: {
            allow_self_approval: boolean;
            approvers: {
                role: string | null;
                users: string[];
            };
            /** @description whether the caller may decide on it now */
            can_decide: boolean;
            created_at: string;
            decided_at: string | null;
            decisions: {
                at: string;
                comment: string | null;
                /** @enum {string} */
                decision: "approved" | "rejected";
                user_id: string;
                values: {
                    [key: string]: unknown;
                };
            }[];
            expires_at: string;
            form: {
                label?: string;
                name: string;
                options?: string[];
                required: boolean;
                /** @enum {string} */
                type: "string" | "number" | "boolean" | "choice";
            }[];
            id: string;
            message: string | null;
            node_id: string;
            requested_by: string | null;
            required: number;
            run_id: string;
            /** @enum {string} */
            status: "pending" | "approved" | "rejected" | "timed_out" | "cancelled";
            workflow_id: string;
            workflow_name: string | null;
        };
        /** @description A field the approver fills in; its value is in the node output `form.<name>` */
        ApprovalFormField: {
            label?: string;
            name: string;
            options?: string[];
            /** @default false */
            required?: boolean;
            /** @enum {string} */
            type: "string" | "number" | "boolean" | "choice";
        };
        /** @description Waits durably for people to approve or reject, with a timeout; the decision and its form are its output */
        ApprovalNode: {
            config: components["schemas"]["ApprovalNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "approval";
        };
        /** @description Waits durably for people to approve or reject (roles or users, N of M, four eyes, a form), with a timeout; approvers are notified by mail and by the approval.requested event */
        ApprovalNodeConfig: {
            /** @default false */
            allow_self_approval?: boolean;
            approved_branch?: string;
            approvers: {
                /** @enum {string} */
                role?: "owner" | "admin" | "member" | "viewer";
                users?: string[];
            };
            /** @default [] */
            form?: components["schemas"]["ApprovalFormField"][];
            message?: string;
            /**
             * @default fail
             * @enum {string}
             */
            on_timeout?: "fail" | "reject" | "branch";
            rejected_branch?: string;
            /** @default 1 */
            required?: number;
            timed_out_branch?: string;
            /** @default 24h */
            timeout?: string;
        };
        /** @description Opens after `threshold` consecutive failures of a tool, for `timeout` milliseconds */
        CircuitBreakerConfig: {
            /** @default 3 */
            half_open_requests: number;
            key?: string;
            /** @default 5 */
            threshold: number;
            /** @default 30000 */
            timeout: number;
        };
        /** @description Opens after `threshold` consecutive failures of a tool, for `timeout` milliseconds */
        CircuitBreakerConfigInput: {
            /** @default 3 */
            half_open_requests?: number;
            key?: string;
            /** @default 5 */
            threshold?: number;
            /** @default 30000 */
            timeout?: number;
        };
        /** @description The graph as stored: entry and exit points derived when they were not given */
        CompiledDag: {
            edges: components["schemas"]["Edge"][];
            entryPoints: string[];
            exitPoints: string[];
            nodes: components["schemas"]["Node"][];
        };
        /** @description At most `limit` runs at once, optionally per key */
        ConcurrencyControl: {
            /** @description CEL over `params` and `trigger` naming the group (a string, number or boolean); without it, one group */
            key?: string;
            /** @description round_robin only: runs at once per key */
            key_limit?: number;
            /** @description runs at once: per key, or (round_robin) across all keys */
            limit: number;
            /**
             * @description when full: queue (in priority, then arrival order), cancel_oldest (the oldest running run of the key is cancelled; the new one starts once it has ended), drop_newest (the new run is cancelled, FLOW_DROPPED), round_robin (`limit` across keys, queued runs started in turn across keys)
             * @default queue
             * @enum {string}
             */
            strategy: "queue" | "cancel_oldest" | "drop_newest" | "round_robin";
        };
        /** @description At most `limit` runs at once, optionally per key */
        ConcurrencyControlInput: {
            /** @description CEL over `params` and `trigger` naming the group (a string, number or boolean); without it, one group */
            key?: string;
            /** @description round_robin only: runs at once per key */
            key_limit?: number;
            /** @description runs at once: per key, or (round_robin) across all keys */
            limit: number;
            /**
             * @description when full: queue (in priority, then arrival order), cancel_oldest (the oldest running run of the key is cancelled; the new one starts once it has ended), drop_newest (the new run is cancelled, FLOW_DROPPED), round_robin (`limit` across keys, queued runs started in turn across keys)
             * @default queue
             * @enum {string}
             */
            strategy?: "queue" | "cancel_oldest" | "drop_newest" | "round_robin";
        };
        /** @description Chooses a branch by a CEL expression */
        ConditionNode: {
            config: components["schemas"]["ConditionNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "condition";
        };
        /** @description A CEL expression; the branch not taken is skipped */
        ConditionNodeConfig: {
            expression: string;
            falseBranch?: string;
            trueBranch?: string;
        };
        /** @description DirectedAcyclicGraph: nodes and edges; entryPoints and exitPoints are derived when absent (docs/workflows.md) */
        Dag: {
            /** @default [] */
            edges?: components["schemas"]["Edge"][];
            entryPoints?: string[];
            exitPoints?: string[];
            nodes: components["schemas"]["Node"][];
        };
        /** @description Of a burst of runs with one key, only the last (or the first) runs, with its parameters */
        DebounceControl: {
            /** @description CEL over `params` and `trigger` naming the group (a string, number or boolean); without it, one group */
            key?: string;
            /** @description last only: the waiting run starts at most this long after the first of its burst, however often it is replaced */
            max_wait?: string;
            /**
             * @description last: a run waits `period` and is replaced by a newer one of its key meanwhile; first: the first runs, later ones within `period` are dropped
             * @default last
             * @enum {string}
             */
            mode: "last" | "first";
            period: string;
        };
        /** @description Of a burst of runs with one key, only the last (or the first) runs, with its parameters */
        DebounceControlInput: {
            /** @description CEL over `params` and `trigger` naming the group (a string, number or boolean); without it, one group */
            key?: string;
            /** @description last only: the waiting run starts at most this long after the first of its burst, however often it is replaced */
            max_wait?: string;
            /**
             * @description last: a run waits `period` and is replaced by a newer one of its key meanwhile; first: the first runs, later ones within `period` are dropped
             * @default last
             * @enum {string}
             */
            mode?: "last" | "first";
            period: string;
        };
        /** @description `to` waits for `from` */
        Edge: {
            from: string;
            to: string;
        };
        /** @description The error envelope of every failed request; codes and statuses: lib/errors.ts */
        Error: {
            error: {
                /** @enum {string} */
                code: "VALIDATION_ERROR" | "INVALID_JSON" | "UNSUPPORTED_MEDIA_TYPE" | "PAYLOAD_TOO_LARGE" | "NOT_FOUND" | "METHOD_NOT_ALLOWED" | "CONFLICT" | "INVALID_STATE" | "UNPROCESSABLE" | "IDEMPOTENCY_CONFLICT" | "INVALID_CREDENTIALS" | "USER_EXISTS" | "INVALID_TOKEN" | "TOKEN_EXPIRED" | "SESSION_EXPIRED" | "UNAUTHORIZED" | "FORBIDDEN" | "WEAK_PASSWORD" | "INVALID_TWO_FACTOR_CODE" | "SSO_FAILED" | "LAST_SIGN_IN_METHOD" | "SSO_ACCOUNT_EXISTS" | "SSO_DOMAIN_NOT_VERIFIED" | "SSO_IDENTITY_LINKED" | "SSO_SESSION_SCOPED" | "TWO_FACTOR_REQUIRED" | "HUMAN_REQUIRED" | "NO_ACTIVE_ORGANIZATION" | "ORGANIZATION_LIMIT" | "SLUG_TAKEN" | "QUOTA_EXCEEDED" | "PAYMENT_FAILED" | "RATE_LIMITED" | "IP_NOT_ALLOWED" | "LAST_OWNER" | "INVITATION_EXPIRED" | "DOMAIN_CLAIMED" | "DOMAIN_NOT_VERIFIED" | "WORKFLOW_INVALID" | "INVALID_PARAMETERS" | "FLOW_KEY_INVALID" | "RUN_NOT_RETRYABLE" | "INLINE_CREDENTIAL" | "UNKNOWN_SECRET" | "TOOL_INPUT_INVALID" | "RANGE_NOT_SATISFIABLE" | "UPSTREAM_ERROR" | "INVALID_REGEX" | "EXPRESSION_TIMEOUT" | "EXPRESSION_TOO_COMPLEX" | "SERVICE_UNAVAILABLE" | "ENGINE_MISCONFIGURED" | "INTERNAL_ERROR";
                details?: {
                    path: string;
                    problem: string;
                }[];
                message: string;
                /** @description The X-Request-Id of the failing request: quote it when reporting a problem */
                request_id?: string;
            };
        };
        /** @description What happens when a node fails: the default strategy and per-node overrides */
        ErrorHandling: {
            circuit_breaker?: components["schemas"]["CircuitBreakerConfig"];
            dead_letter_queue?: {
                /** @default default */
                queue: string;
                /** @default 7d */
                retention: string;
            };
            /**
             * @default retry
             * @enum {string}
             */
            default_strategy: "retry" | "fail_fast" | "dead_letter_queue" | "circuit_breaker" | "fallback";
            /** @default {} */
            node_overrides: {
                [key: string]: components["schemas"]["NodeErrorStrategy"];
            };
            retry_config?: {
                /**
                 * @default exponential
                 * @enum {string}
                 */
                backoff: "exponential" | "linear" | "fixed";
                /** @default 1000 */
                initial_delay: number;
                /** @default 3 */
                max_attempts: number;
            };
        };
        /** @description What happens when a node fails: the default strategy and per-node overrides */
        ErrorHandlingInput: {
            circuit_breaker?: components["schemas"]["CircuitBreakerConfigInput"];
            dead_letter_queue?: {
                /** @default default */
                queue?: string;
                /** @default 7d */
                retention?: string;
            };
            /**
             * @default retry
             * @enum {string}
             */
            default_strategy?: "retry" | "fail_fast" | "dead_letter_queue" | "circuit_breaker" | "fallback";
            /** @default {} */
            node_overrides?: {
                [key: string]: components["schemas"]["NodeErrorStrategyInput"];
            };
            retry_config?: {
                /**
                 * @default exponential
                 * @enum {string}
                 */
                backoff?: "exponential" | "linear" | "fixed";
                /** @default 1000 */
                initial_delay?: number;
                /** @default 3 */
                max_attempts?: number;
            };
        };
        /** @description Flow control of the workflow's runs (docs/runs.md#flow-control) */
        FlowControl: {
            concurrency?: components["schemas"]["ConcurrencyControl"];
            debounce?: components["schemas"]["DebounceControl"];
            /** @description default priority of the runs (1 first, 5 last; 3 when unset); a start or a trigger may set its own */
            priority?: number;
            singleton?: components["schemas"]["SingletonControl"];
            throttle?: components["schemas"]["ThrottleControl"];
        };
        /** @description Flow control of the workflow's runs (docs/runs.md#flow-control) */
        FlowControlInput: {
            concurrency?: components["schemas"]["ConcurrencyControlInput"];
            debounce?: components["schemas"]["DebounceControlInput"];
            /** @description default priority of the runs (1 first, 5 last; 3 when unset); a start or a trigger may set its own */
            priority?: number;
            singleton?: components["schemas"]["SingletonControl"];
            throttle?: components["schemas"]["ThrottleControl"];
        };
        /** @description What a workflow's flow control holds now: running, queued and debounced runs per key */
        FlowState: {
            /** @description the current version's flow control; null: none (runs of older versions may still be held) */
            flow: components["schemas"]["FlowControl"] | null;
            /** @description what the flow gate holds now, per key; empty when it holds nothing */
            groups: {
                /** @description runs waiting for their burst to end (debounce `last`) */
                debouncing: number;
                /** @description the concurrency group ('' for the workflow's one group) */
                key: string;
                /** @description runs admitted and not yet ended */
                running: number;
                /** @description runs queued for concurrency or throttle */
                waiting: number;
            }[];
            /** Format: uuid */
            workflow_id: string;
        };
        /** @description A rate limit on one destination host, shared by every run of the organization */
        HostRateLimit: {
            host: string;
            per: string;
            requests: number;
        };
        /** @description A rate limit on one destination host, shared by every run of the organization */
        HostRateLimitInput: {
            /** @description the destination: a host name or IP address, with `:port` to limit that port only; stored lower case (IDNs in punycode) */
            host: string;
            /** @description the period, from 100ms to 1h: 1s, 1m, 1h */
            per: string;
            /** @description calls that may start per period, 1-10,000 */
            requests: number;
        };
        /** @description Feeds a tool input from another node's output (`<node_id>.<output>`) or a parameter (`params.<name>`) */
        InputBinding: {
            from: string;
            name?: string;
        };
        /** @description A declared output (or input) of a node: its name and type */
        IoDeclaration: {
            description?: string;
            name: string;
            /**
             * @default any
             * @enum {string}
             */
            type?: "string" | "number" | "integer" | "boolean" | "object" | "array" | "any";
        };
        /** @description Runs a template node once per item of a list */
        LoopNode: {
            config: components["schemas"]["LoopNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "loop";
        };
        /** @description Runs the template once per item of `items`, `${<iterator>}` bound to the item */
        LoopNodeConfig: {
            /** @default 10 */
            concurrency?: number;
            /** @default false */
            continue_on_error?: boolean;
            items: string;
            /** @default item */
            iterator?: string;
            /** @default 10000 */
            maxItems?: number;
            template: components["schemas"]["LoopTemplate"];
        };
        /** @description The node run once per item (a tool or subworkflow node without an id) */
        LoopTemplate: {
            config: {
                [key: string]: unknown;
            };
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /** @enum {string} */
            type: "tool" | "subworkflow";
        };
        /** @description A node of the graph; `type` decides the shape of `config` */
        Node: components["schemas"]["ToolNode"] | components["schemas"]["ConditionNode"] | components["schemas"]["SwitchNode"] | components["schemas"]["WaitNode"] | components["schemas"]["WaitForEventNode"] | components["schemas"]["ApprovalNode"] | components["schemas"]["RespondNode"] | components["schemas"]["ParallelNode"] | components["schemas"]["LoopNode"] | components["schemas"]["RepeatNode"] | components["schemas"]["SubworkflowNode"];
        /** @description The error strategy of one node (error_handling.node_overrides) */
        NodeErrorStrategy: {
            circuit_breaker?: components["schemas"]["CircuitBreakerConfig"];
            dead_letter_queue?: {
                /** @default default */
                queue: string;
                /** @default 7d */
                retention: string;
            };
            handler?: string;
            handler_config?: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            strategy: "retry" | "fail_fast" | "dead_letter_queue" | "circuit_breaker" | "fallback";
        };
        /** @description The error strategy of one node (error_handling.node_overrides) */
        NodeErrorStrategyInput: {
            circuit_breaker?: components["schemas"]["CircuitBreakerConfigInput"];
            dead_letter_queue?: {
                /** @default default */
                queue?: string;
                /** @default 7d */
                retention?: string;
            };
            handler?: string;
            handler_config?: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            strategy: "retry" | "fail_fast" | "dead_letter_queue" | "circuit_breaker" | "fallback";
        };
        /** @description Where one node of a run stands: status, attempts, times, output or error */
        NodeState: {
            /** @description approval nodes: the approval it waits for (GET /api/v1/approvals/{id}) */
            approval_id?: string;
            attempts: number;
            /**
             * Format: uuid
             * @description subworkflow nodes: the child run (a run of the child workflow, GET /api/v1/workflows/{child}/runs/{child_run_id})
             */
            child_run_id?: string;
            error: {
                code: string;
                message: string;
            } | null;
            finishedAt: string | null;
            /** @description loop nodes: how many items the loop has and how many finished, live while it runs (large loops count by batch) */
            items?: {
                done: number;
                total: number;
            };
            /** @description the node's outputs; values kept in object storage appear as { $ref, bytes, download_url } */
            output: unknown;
            startedAt: string | null;
            /** @enum {string} */
            status: "pending" | "running" | "completed" | "failed" | "skipped" | "cancelled";
            /** @enum {string} */
            via?: "fallback" | "reused" | "dead_letter";
            /** @description tool nodes, while they wait for their turn under rate limits on destinations (docs/runs.md#rate-limits-on-destinations): the limits (`host:<host>`, `key:<key>`, `tool:<tool>`); removed, with waiting_until, when the call starts */
            waiting_for?: {
                limits: string[];
                /** @enum {string} */
                reason: "rate_limit";
            };
            /** @description wait, wait_for_event and approval nodes: the time the node waits (or waited) until, ISO 8601; tool nodes: the time of their turn under a rate limit, while they wait for it */
            waiting_until?: string;
        };
        OrganizationDomain: {
            createdAt: string;
            domain: string;
            /** Format: uuid */
            id: string;
            /** @enum {string} */
            status: "pending" | "verified";
            /** @description publish this record, then POST .../verify */
            verification: {
                /** @description the DNS name to publish the TXT record at */
                recordName: string;
                /** @constant */
                recordType: "TXT";
                /** @description the TXT record value */
                recordValue: string;
            };
            verifiedAt: string | null;
        };
        /** @description Starts branches together and joins them */
        ParallelNode: {
            config: components["schemas"]["ParallelNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "parallel";
        };
        /** @description Branches of node ids started together, finished by the join strategy */
        ParallelNodeConfig: {
            branches: {
                id: string;
                nodes: string[];
            }[];
            /**
             * @default wait_all
             * @enum {string}
             */
            joinStrategy?: "wait_all" | "wait_any" | "wait_n";
            n?: number;
        };
        /** @description A declared run parameter */
        Parameter: {
            default?: unknown;
            description?: string;
            enum?: unknown[];
            name: string;
            /** @default false */
            required: boolean;
            /** @enum {string} */
            type: "string" | "number" | "integer" | "boolean" | "object" | "array";
        };
        /** @description A declared run parameter */
        ParameterInput: {
            default?: unknown;
            description?: string;
            enum?: unknown[];
            name: string;
            /** @default false */
            required?: boolean;
            /** @enum {string} */
            type: "string" | "number" | "integer" | "boolean" | "object" | "array";
        };
        /** @description Runs a template node while (or until) a condition holds, up to a maximum number of iterations */
        RepeatNode: {
            config: components["schemas"]["RepeatNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "repeat";
        };
        /** @description Runs a template node again and again while (or until) a condition holds, up to a maximum number of iterations */
        RepeatNodeConfig: {
            /** @default 100 */
            max_iterations?: number;
            template: components["schemas"]["LoopTemplate"];
            until?: string;
            while?: string;
        };
        /** @description How to rerun a finished run: from which node, with which parameters, on which version */
        RerunRequest: {
            /** @description the node to run again, with everything after it; absent: every node runs again */
            from_node?: string;
            /** @description with from_node (a tool node): that node's input for this rerun, exactly as the tool receives it (its config and bindings are replaced); literal values, checked against the tool's input schema; secret references only where the tool takes them */
            node_input?: {
                [key: string]: unknown;
            };
            /** @description parameters to change: merged over the original run's, then checked */
            parameters?: {
                [key: string]: unknown;
            };
            /** @description the workflow version to run: the original run's (default), the latest, or a number */
            version?: "original" | "latest" | number;
        };
        /** @description Gives the sender of the webhook that started the run its HTTP answer, before the run ends */
        RespondNode: {
            config: components["schemas"]["RespondNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "respond";
        };
        /** @description For webhook-started runs: the HTTP answer (status, headers, body) the webhook's sender gets as soon as this node runs */
        RespondNodeConfig: {
            body?: unknown;
            /**
             * @default application/json
             * @enum {string}
             */
            content_type?: "application/json" | "text/plain" | "text/csv";
            /** @default {} */
            headers?: {
                [key: string]: string;
            };
            /** @default 200 */
            status?: number;
        };
        /** @description How a node retries: attempts, backoff, delays and timeout in milliseconds */
        RetryPolicy: {
            /** @enum {string} */
            backoff?: "exponential" | "linear" | "fixed";
            initial_delay?: number;
            max_attempts?: number;
            max_delay?: number;
            non_retryable_errors?: string[];
            timeout?: number;
        };
        /** @description A run of one version of a workflow, with its node states and results */
        Run: {
            /** @description true while a manual run waits for an approver (trigger.approval holds the details) */
            awaiting_approval: boolean;
            completed_at: string | null;
            created_at: string;
            created_by: string | null;
            /** @description milliseconds from started_at to completed_at (to now while open) */
            duration: number | null;
            errors: components["schemas"]["RunError"][];
            /** @description runs of a workflow with flow control (docs/runs.md#flow-control); null for others */
            flow: {
                /** @description the groups the workflow's flow control put the run in (absent: the workflow's one group) */
                keys: {
                    concurrency?: string;
                    debounce?: string;
                    singleton?: string;
                    throttle?: string;
                };
                /** @description a pending run held by its flow control: why (in a single run's view; null in lists and once it started) */
                waiting_for: ("debounce" | "concurrency" | "throttle") | null;
                waiting_since: string | null;
            } | null;
            /** Format: uuid */
            id: string;
            links: {
                /** @description the run in the web console (docs/console.md): picture, node details and actions, after signing in */
                console: string;
                /** @description the run picture: an HTML page of the DAG, each node coloured by its state (it asks for a token, or takes one as `#token=...`); the SVG alone is GET /api/v1/workflows/{id}/runs/{run_id}/picture.svg */
                picture: string;
                /** @description the execution in Temporal Web */
                temporal: string;
            };
            node_states: {
                [key: string]: components["schemas"]["NodeState"];
            };
            parameters: {
                [key: string]: unknown;
            };
            /** @description subworkflow runs (`trigger.type: "subworkflow"`): the run that started this one; null for other runs and once the parent run was deleted */
            parent: {
                /** @description the parent's subworkflow node (`<loop>[<i>]` for an item of a loop whose template is a subworkflow) */
                node_id: string;
                /** Format: uuid */
                run_id: string;
                /** Format: uuid */
                workflow_id: string;
            } | null;
            /** @description 1 (first) to 5 (last), as the start, its trigger or the workflow set it; null: the default, 3 */
            priority: number | null;
            /** @description outputs of the exit nodes that completed */
            results: {
                [key: string]: unknown;
            };
            retry_of: string | null;
            started_at: string | null;
            /**
             * @description `cancelling`: a cancel was asked for and the run is stopping its running nodes; it ends `cancelled`
             * @enum {string}
             */
            status: "pending" | "running" | "completed" | "failed" | "cancelled" | "cancelling";
            trigger: {
                type: string;
            } & {
                [key: string]: unknown;
            };
            /** Format: uuid */
            workflow_id: string;
            workflow_version: number;
        };
        /** @description An error of a run: the node (null for the run itself), code, message, attempt and time */
        RunError: {
            attempt: number;
            code: string;
            message: string;
            node: string | null;
            time: string;
        };
        /** @description Runs per day by status and duration percentiles per workflow */
        RunStats: {
            days: number;
            /** @description the first instant counted: midnight of the first day in time_zone (ISO 8601) */
            from: string;
            /** @description one entry per day, oldest first, days without runs included */
            per_day: {
                cancelled: number;
                completed: number;
                /** @description YYYY-MM-DD in time_zone */
                date: string;
                failed: number;
                pending: number;
                running: number;
                total: number;
            }[];
            time_zone: string;
            /** @description workflows with runs in the period, most runs first (at most 100) */
            workflows: {
                cancelled: number;
                completed: number;
                failed: number;
                /** @description median duration of its completed runs (started_at to completed_at) */
                p50_ms: number | null;
                /** @description 95th percentile of the same durations */
                p95_ms: number | null;
                pending: number;
                running: number;
                runs: number;
                /** Format: uuid */
                workflow_id: string;
                workflow_name: string | null;
            }[];
        };
        /** @description A run as listed: without parameters, node states and results */
        RunSummary: {
            /** @description true while a manual run waits for an approver (trigger.approval holds the details) */
            awaiting_approval: boolean;
            completed_at: string | null;
            created_at: string;
            created_by: string | null;
            /** @description milliseconds from started_at to completed_at (to now while open) */
            duration: number | null;
            errors: components["schemas"]["RunError"][];
            /** @description runs of a workflow with flow control (docs/runs.md#flow-control); null for others */
            flow: {
                /** @description the groups the workflow's flow control put the run in (absent: the workflow's one group) */
                keys: {
                    concurrency?: string;
                    debounce?: string;
                    singleton?: string;
                    throttle?: string;
                };
                /** @description a pending run held by its flow control: why (in a single run's view; null in lists and once it started) */
                waiting_for: ("debounce" | "concurrency" | "throttle") | null;
                waiting_since: string | null;
            } | null;
            /** Format: uuid */
            id: string;
            links: {
                /** @description the run in the web console (docs/console.md): picture, node details and actions, after signing in */
                console: string;
                /** @description the run picture: an HTML page of the DAG, each node coloured by its state (it asks for a token, or takes one as `#token=...`); the SVG alone is GET /api/v1/workflows/{id}/runs/{run_id}/picture.svg */
                picture: string;
                /** @description the execution in Temporal Web */
                temporal: string;
            };
            /** @description subworkflow runs (`trigger.type: "subworkflow"`): the run that started this one; null for other runs and once the parent run was deleted */
            parent: {
                /** @description the parent's subworkflow node (`<loop>[<i>]` for an item of a loop whose template is a subworkflow) */
                node_id: string;
                /** Format: uuid */
                run_id: string;
                /** Format: uuid */
                workflow_id: string;
            } | null;
            /** @description 1 (first) to 5 (last), as the start, its trigger or the workflow set it; null: the default, 3 */
            priority: number | null;
            retry_of: string | null;
            started_at: string | null;
            /**
             * @description `cancelling`: a cancel was asked for and the run is stopping its running nodes; it ends `cancelled`
             * @enum {string}
             */
            status: "pending" | "running" | "completed" | "failed" | "cancelled" | "cancelling";
            trigger: {
                type: string;
            } & {
                [key: string]: unknown;
            };
            /** Format: uuid */
            workflow_id: string;
            /** @description the workflow's name now (runs of a renamed workflow show its new name) */
            workflow_name: string | null;
            workflow_version: number;
        };
        /** @description A start whose key matches an open run of the workflow returns that run instead of a new one */
        SingletonControl: {
            /** @description CEL over `params` and `trigger` naming the group (a string, number or boolean); without it, one group */
            key?: string;
        };
        /** @description Runs another workflow as a child run */
        SubworkflowNode: {
            config: components["schemas"]["SubworkflowNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "subworkflow";
        };
        /** @description Runs another workflow of the organization as a child run */
        SubworkflowNodeConfig: {
            /** @default false */
            inherit_context?: boolean;
            /** @default {} */
            inputs?: {
                [key: string]: unknown;
            };
            /** Format: uuid */
            workflow_id: string;
        };
        /** @description One branch of a switch: `equals` (value mode) or `when` (conditions in order), and the node it leads to */
        SwitchCase: {
            equals?: unknown;
            next: string;
            when?: string;
        };
        /** @description Chooses one of many branches by a value or by ordered conditions, with a default */
        SwitchNode: {
            config: components["schemas"]["SwitchNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "switch";
        };
        /** @description Many branches: by the value of an expression, or by ordered conditions, with a default; branches not taken are skipped */
        SwitchNodeConfig: {
            cases: components["schemas"]["SwitchCase"][];
            default?: string;
            value?: string;
        };
        /** @description At most `limit` runs start per `period` (sliding), per key; the rest wait their turn */
        ThrottleControl: {
            /** @description CEL over `params` and `trigger` naming the group (a string, number or boolean); without it, one group */
            key?: string;
            limit: number;
            period: string;
        };
        /** @description A registered tool with its input and output JSON Schemas */
        Tool: {
            category: string;
            description: string;
            id: string;
            input_schema: {
                [key: string]: unknown;
            };
            name: string;
            output_schema: {
                [key: string]: unknown;
            };
            /** @enum {string} */
            side_effect: "none" | "idempotent" | "at_least_once";
        };
        /** @description Calls a registered tool */
        ToolNode: {
            config: components["schemas"]["ToolNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "tool";
        };
        /** @description A tool node: the registered tool to call (GET /api/v1/tools), its config and bindings */
        ToolNodeConfig: {
            /** @default {} */
            config?: {
                [key: string]: unknown;
            };
            /** @default [] */
            inputs?: components["schemas"]["InputBinding"][];
            /** @default [] */
            outputs?: components["schemas"]["IoDeclaration"][];
            rate_limit?: components["schemas"]["ToolRateLimit"];
            tool: string;
        };
        /** @description At most `requests` calls of this node start per `per`, shared by every run of the organization: with a `key`, by every call declaring that key; without one, by every call to the same destination host. A call waits for its turn (the node state shows `waiting_for`), it never fails for it */
        ToolRateLimit: {
            key?: string;
            per: string;
            requests: number;
        };
        /** @description What starts runs: a schedule (cron), a webhook, an event or a manual start (docs/triggers.md) */
        Trigger: {
            /** @default {} */
            config: {
                [key: string]: unknown;
            };
            /** @default true */
            enabled: boolean;
            id?: string;
            /** @enum {string} */
            type: "schedule" | "webhook" | "event" | "manual";
        };
        /** @description What starts runs: a schedule (cron), a webhook, an event or a manual start (docs/triggers.md) */
        TriggerInput: {
            /** @default {} */
            config?: {
                [key: string]: unknown;
            };
            /** @default true */
            enabled?: boolean;
            id?: string;
            /** @enum {string} */
            type: "schedule" | "webhook" | "event" | "manual";
        };
        /** @description A trigger of a workflow as it stands: its config and state, and per type its schedule or URL */
        TriggerView: {
            authentication?: string;
            /** @description the config with defaults applied */
            config: {
                [key: string]: unknown;
            };
            enabled: boolean;
            key: string;
            method?: string;
            /** @description schedule: the next (up to 5) fire times, from Temporal */
            nextFireTimes?: string[];
            schedule?: {
                nextFireTimes: string[];
                recentFireTimes: string[];
                scheduleId: string | null;
                state: string;
            };
            secret?: {
                configured: boolean;
                createdAt: string | null;
            } | null;
            /**
             * @description active: fires now (workflow active and trigger enabled)
             * @enum {string}
             */
            state: "active" | "inactive";
            /** @enum {string} */
            type: "schedule" | "webhook" | "event" | "manual";
            /** @description webhook: the public URL */
            url?: string;
        } & {
            [key: string]: unknown;
        };
        /** @description Waits durably for an event whose data matches, with a timeout; the event is its output */
        WaitForEventNode: {
            config: components["schemas"]["WaitForEventNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "wait_for_event";
        };
        /** @description Waits durably for an event whose data matches, with a timeout; the event is the node's output */
        WaitForEventNodeConfig: {
            event: string;
            /** @default 0s */
            lookback?: string;
            match?: string;
            /**
             * @default fail
             * @enum {string}
             */
            on_timeout?: "fail" | "continue";
            /** @default 24h */
            timeout?: string;
        };
        /** @description Waits durably for a duration or until a time, then its successors run */
        WaitNode: {
            config: components["schemas"]["WaitNodeConfig"];
            id: string;
            inputs?: components["schemas"]["InputBinding"][];
            name?: string;
            outputs?: components["schemas"]["IoDeclaration"][];
            retryPolicy?: components["schemas"]["RetryPolicy"];
            /**
             * @description discriminator enum property added by openapi-typescript
             * @enum {string}
             */
            type: "wait";
        };
        /** @description Waits durably for a duration or until a time (fixed, or computed from parameters and earlier outputs); give one of the two */
        WaitNodeConfig: {
            duration?: string;
            until?: string;
        };
        /** @description A workflow with its current version's definition */
        Workflow: {
            createdAt: string;
            createdBy: string | null;
            dag: components["schemas"]["CompiledDag"];
            description: string;
            error_handling: components["schemas"]["ErrorHandling"];
            /** @description null: no flow control */
            flow: components["schemas"]["FlowControl"] | null;
            /** Format: uuid */
            id: string;
            metadata: {
                [key: string]: unknown;
            };
            name: string;
            /** Format: uuid */
            organizationID: string;
            parameters: components["schemas"]["Parameter"][];
            /** @enum {string} */
            status: "draft" | "active" | "paused" | "archived";
            /** @description the Tool objects (a tool removed since shows its id only) */
            tools: {
                category?: string;
                description?: string;
                id: string;
                input_schema?: {
                    [key: string]: unknown;
                };
                name?: string;
                output_schema?: {
                    [key: string]: unknown;
                };
                /** @enum {string} */
                side_effect?: "none" | "idempotent" | "at_least_once";
            }[];
            triggers: components["schemas"]["Trigger"][];
            updatedAt: string;
            /** @description current version; a change of graph, tools, triggers, parameters or error handling adds one */
            version: number;
        };
        /** @description A new workflow in the API shape */
        WorkflowCreate: {
            /** @description DirectedAcyclicGraph: nodes, edges, entryPoints and exitPoints (derived when absent); see docs/workflows.md */
            dag: components["schemas"]["Dag"];
            description?: string;
            /** @description default_strategy, retry_config, node_overrides, ... */
            error_handling?: components["schemas"]["ErrorHandlingInput"];
            /** @description flow control of the runs: concurrency, throttle, debounce, singleton, priority (docs/runs.md#flow-control); null removes it */
            flow?: components["schemas"]["FlowControlInput"] | null;
            metadata?: components["schemas"]["WorkflowMetadata"];
            name: string;
            /** @description declared parameters: name, type, required, description, default, enum */
            parameters?: components["schemas"]["ParameterInput"][];
            /** @description tool ids (or Tool objects with an id) the workflow uses */
            tools?: (string | ({
                id: string;
            } & {
                [key: string]: unknown;
            }))[];
            /** @description Trigger list: { type, config, enabled } */
            triggers?: components["schemas"]["TriggerInput"][];
        };
        /** @description The authoring format (JSON or YAML): nodes and edges at the top level; a node may write its type's keys at its top level and list `depends_on` instead of edges (docs/workflows.md) */
        WorkflowDefinitionDocument: {
            description?: string;
            edges?: unknown[];
            entryPoints?: string[];
            error_handling?: {
                [key: string]: unknown;
            };
            exitPoints?: string[];
            flow?: {
                [key: string]: unknown;
            };
            metadata?: {
                [key: string]: unknown;
            };
            name: string;
            nodes: unknown[];
            parameters?: unknown[];
            tools?: unknown[];
            triggers?: unknown[];
            version?: string | number;
        };
        /** @description tags, category and estimatedDuration (seconds); other keys are kept as given */
        WorkflowMetadata: {
            category?: string;
            /** @description seconds */
            estimatedDuration?: number;
            tags?: string[];
        } & {
            [key: string]: unknown;
        };
        /** @description A change of a workflow in the API shape: fields left out keep their value */
        WorkflowUpdate: {
            /** @description DirectedAcyclicGraph: nodes, edges, entryPoints and exitPoints (derived when absent); see docs/workflows.md */
            dag?: components["schemas"]["Dag"];
            description?: string;
            /** @description default_strategy, retry_config, node_overrides, ... */
            error_handling?: components["schemas"]["ErrorHandlingInput"];
            /** @description flow control of the runs: concurrency, throttle, debounce, singleton, priority (docs/runs.md#flow-control); null removes it */
            flow?: components["schemas"]["FlowControlInput"] | null;
            metadata?: components["schemas"]["WorkflowMetadata"];
            name?: string;
            /** @description declared parameters: name, type, required, description, default, enum */
            parameters?: components["schemas"]["ParameterInput"][];
            /** @description tool ids (or Tool objects with an id) the workflow uses */
            tools?: (string | ({
                id: string;
            } & {
                [key: string]: unknown;
            }))[];
            /** @description Trigger list: { type, config, enabled } */
            triggers?: components["schemas"]["TriggerInput"][];
        };
        /** @description A dry run's answer: the definition exactly as a save would store it */
        WorkflowValidation: {
            dag: components["schemas"]["CompiledDag"];
            error_handling: components["schemas"]["ErrorHandling"];
            /** @description null: no flow control */
            flow: components["schemas"]["FlowControl"] | null;
            /** @description the name the body gives (null for an update that keeps the name) */
            name: string | null;
            parameters: components["schemas"]["Parameter"][];
            /** @description the Tool objects (a tool removed since shows its id only) */
            tools: {
                category?: string;
                description?: string;
                id: string;
                input_schema?: {
                    [key: string]: unknown;
                };
                name?: string;
                output_schema?: {
                    [key: string]: unknown;
                };
                /** @enum {string} */
                side_effect?: "none" | "idempotent" | "at_least_once";
            }[];
            triggers: components["schemas"]["Trigger"][];
            /** @constant */
            valid: true;
        };
        /** @description One immutable version of a workflow's definition */
        WorkflowVersion: {
            createdAt: string;
            createdBy: string | null;
            dag: components["schemas"]["CompiledDag"];
            error_handling: components["schemas"]["ErrorHandling"];
            /** @description null: no flow control */
            flow: components["schemas"]["FlowControl"] | null;
            parameters: components["schemas"]["Parameter"][];
            /** @description the Tool objects (a tool removed since shows its id only) */
            tools: {
                category?: string;
                description?: string;
                id: string;
                input_schema?: {
                    [key: string]: unknown;
                };
                name?: string;
                output_schema?: {
                    [key: string]: unknown;
                };
                /** @enum {string} */
                side_effect?: "none" | "idempotent" | "at_least_once";
            }[];
            triggers: components["schemas"]["Trigger"][];
            version: number;
            /** Format: uuid */
            workflow_id: string;
        };
    };
    responses: never;
    parameters: never;
    requestBodies: never;
    headers: never;
    pathItems: never;
}
export type $defs = Record<string, never>;
export interface operations {
    getTwoFactorStatus: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        enabled: boolean;
                        enabledAt: string | null;
                        /** @description An enrolment was started and waits for its first code */
                        enrolmentPending: boolean;
                        recoveryCodesRemaining: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    disableTwoFactor: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The 6-digit code the authenticator app shows, or one of the recovery codes (`abcde-fghjk`) */
                    code: string;
                    /** @description The current password; required when the account has one */
                    password?: string;
                };
            };
        };
        responses: {
            /** @description Disabled; the recovery codes are gone */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; INVALID_CREDENTIALS: Wrong e-mail or password; INVALID_TWO_FACTOR_CODE: The two-factor code (authenticator or recovery code) is wrong, spent or expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startTwoFactorEnrolment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Scan the QR code, then confirm a code */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        algorithm: "SHA1";
                        digits: number;
                        /** @description otpauth://totp/... URI (RFC 6238 key URI format) */
                        otpauthUri: string;
                        period: number;
                        /** @description The URI as a QR code: an SVG data URL, ready for an <img src> */
                        qrCodeSvg: string;
                        /** @description Base32 secret, for typing into an authenticator app by hand */
                        secret: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmTwoFactorEnrolment: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    code: string;
                };
            };
        };
        responses: {
            /** @description Enabled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Ten single-use recovery codes, shown this once */
                        recoveryCodes: string[];
                        /** @description A fresh pair for this device: enabling ends all of the user's sessions */
                        tokens: {
                            /** @description JWT (HS256), send as `Authorization: Bearer <token>` */
                            accessToken: string;
                            /** @description Access token lifetime in seconds (900 by default) */
                            expiresIn: number;
                            /** @description Single use: each refresh returns a new one; reusing a spent one revokes the session */
                            refreshToken: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; INVALID_TWO_FACTOR_CODE: The two-factor code (authenticator or recovery code) is wrong, spent or expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    regenerateRecoveryCodes: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description The 6-digit code the authenticator app shows, or one of the recovery codes (`abcde-fghjk`) */
                    code: string;
                };
            };
        };
        responses: {
            /** @description New recovery codes, shown once */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        recoveryCodes: string[];
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; INVALID_TWO_FACTOR_CODE: The two-factor code (authenticator or recovery code) is wrong, spent or expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmEmailVerification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description Verified */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            email_verified: boolean;
                            /** Format: uuid */
                            id: string;
                            image: string | null;
                            name: string | null;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_TOKEN: Token validation failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    sendEmailVerification: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Sent */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listIdentities: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The linked identities */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** Format: uuid */
                            id: string;
                            /** @description the OpenID Connect provider's issuer */
                            issuer: string | null;
                            /** @description ISO 8601 */
                            linkedAt: string;
                            /** @description the identity at that provider (`sub`) */
                            subject: string;
                        }[];
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    unlinkIdentity: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Unlinked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SSO_SESSION_SCOPED: The session was opened by an organization's single sign-on and acts in that organization only; sign in with a password for others */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description LAST_SIGN_IN_METHOD: The identity is the only way into the account (it has no password): set one before unlinking it */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    login: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description E-mail address; trimmed, compared case-insensitively, at most 255 characters
                     */
                    email: string;
                    password: string;
                };
            };
        };
        responses: {
            /** @description Signed in, or the second step is due */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: {
                            /** @description JWT (HS256), send as `Authorization: Bearer <token>` */
                            accessToken: string;
                            /** @description Access token lifetime in seconds (900 by default) */
                            expiresIn: number;
                            /** @description Single use: each refresh returns a new one; reusing a spent one revokes the session */
                            refreshToken: string;
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    } | {
                        tokens: {
                            accessToken: string;
                            /** @description Send as X-CSRF-Token on POST /api/auth/refresh (also in the readable cookie loom_csrf) */
                            csrfToken: string;
                            expiresIn: number;
                            /** @constant */
                            refreshTokenTransport: "cookie";
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    } | {
                        challenge: {
                            /** @description Send with a code to POST /api/auth/login/2fa; single use */
                            challengeToken: string;
                            /** @description Seconds the challenge stays valid (five wrong codes end it sooner) */
                            expiresIn: number;
                            methods: ("totp" | "recovery_code")[];
                            /** @constant */
                            twoFactorRequired: true;
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_CREDENTIALS: Wrong e-mail or password */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    completeTwoFactorLogin: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description From the answer of POST /api/auth/login; absent after an SSO sign-in of the console, whose challenge is in its cookie */
                    challengeToken?: string;
                    /** @description The 6-digit code the authenticator app shows, or one of the recovery codes (`abcde-fghjk`) */
                    code: string;
                };
            };
        };
        responses: {
            /** @description Signed in (browser mode as for login) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: {
                            /** @description JWT (HS256), send as `Authorization: Bearer <token>` */
                            accessToken: string;
                            /** @description Access token lifetime in seconds (900 by default) */
                            expiresIn: number;
                            /** @description Single use: each refresh returns a new one; reusing a spent one revokes the session */
                            refreshToken: string;
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    } | {
                        tokens: {
                            accessToken: string;
                            /** @description Send as X-CSRF-Token on POST /api/auth/refresh (also in the readable cookie loom_csrf) */
                            csrfToken: string;
                            expiresIn: number;
                            /** @constant */
                            refreshTokenTransport: "cookie";
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    } | {
                        challenge: {
                            /** @description Send with a code to POST /api/auth/login/2fa; single use */
                            challengeToken: string;
                            /** @description Seconds the challenge stays valid (five wrong codes end it sooner) */
                            expiresIn: number;
                            methods: ("totp" | "recovery_code")[];
                            /** @constant */
                            twoFactorRequired: true;
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_TOKEN: Token validation failed; INVALID_TWO_FACTOR_CODE: The two-factor code (authenticator or recovery code) is wrong, spent or expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    logout: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed out */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCurrentUser: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The current user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description The session's active organization */
                        organizationID: string | null;
                        /** Format: uuid */
                        sessionId: string;
                        user: {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            email_verified: boolean;
                            /** Format: uuid */
                            id: string;
                            image: string | null;
                            name: string | null;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changePassword: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    currentPassword: string;
                    newPassword: string;
                };
            };
        };
        responses: {
            /** @description Password changed; a new token pair */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description JWT (HS256), send as `Authorization: Bearer <token>` */
                        accessToken: string;
                        /** @description Access token lifetime in seconds (900 by default) */
                        expiresIn: number;
                        /** @description Single use: each refresh returns a new one; reusing a spent one revokes the session */
                        refreshToken: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON; WEAK_PASSWORD: The password does not meet the password policy */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; INVALID_CREDENTIALS: Wrong e-mail or password; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    confirmPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    password: string;
                    token: string;
                };
            };
        };
        responses: {
            /** @description Password set; sign in with it */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON; WEAK_PASSWORD: The password does not meet the password policy */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_TOKEN: Token validation failed */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    requestPasswordReset: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description E-mail address; trimmed, compared case-insensitively, at most 255 characters
                     */
                    email: string;
                };
            };
        };
        responses: {
            /** @description If the address is registered, a code is on its way */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        message: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateProfile: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Avatar URL (http or https); null clears it */
                    image?: string | null;
                    /** @description Display name; null clears it */
                    name?: string | null;
                };
            };
        };
        responses: {
            /** @description The updated user */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        user: {
                            /** Format: date-time */
                            created_at: string;
                            email: string;
                            email_verified: boolean;
                            /** Format: uuid */
                            id: string;
                            image: string | null;
                            name: string | null;
                            /** Format: date-time */
                            updated_at: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    refreshToken: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Omitted in browser mode: the refresh cookie is used, with the X-CSRF-Token header */
                    refreshToken?: string;
                };
            };
        };
        responses: {
            /** @description New access token and rotated refresh token */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description JWT (HS256), send as `Authorization: Bearer <token>` */
                        accessToken: string;
                        /** @description Access token lifetime in seconds (900 by default) */
                        expiresIn: number;
                        /** @description Single use: each refresh returns a new one; reusing a spent one revokes the session */
                        refreshToken: string;
                    } | {
                        accessToken: string;
                        /** @description Send as X-CSRF-Token on POST /api/auth/refresh (also in the readable cookie loom_csrf) */
                        csrfToken: string;
                        expiresIn: number;
                        /** @constant */
                        refreshTokenTransport: "cookie";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_TOKEN: Token validation failed; TOKEN_EXPIRED: Token has expired; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    register: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: email
                     * @description E-mail address; trimmed, compared case-insensitively, at most 255 characters
                     */
                    email: string;
                    /** @description The token of the invitation that brought the person here: its link proves the mailbox, so the account starts with a verified e-mail (no verification mail). It must be pending and sent to `email` (410 INVITATION_EXPIRED, 422 otherwise). Registering does not accept it: POST /api/v1/invitations/accept does. */
                    invitationToken?: string;
                    name?: string;
                    /** @description Checked against the password policy (see WEAK_PASSWORD details) */
                    password: string;
                };
            };
        };
        responses: {
            /** @description Registered and signed in */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        tokens: {
                            /** @description JWT (HS256), send as `Authorization: Bearer <token>` */
                            accessToken: string;
                            /** @description Access token lifetime in seconds (900 by default) */
                            expiresIn: number;
                            /** @description Single use: each refresh returns a new one; reusing a spent one revokes the session */
                            refreshToken: string;
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON; WEAK_PASSWORD: The password does not meet the password policy */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description USER_EXISTS: E-mail already registered */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVITATION_EXPIRED: The invitation has expired, was revoked or was already used */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNPROCESSABLE: The request is well-formed but semantically invalid; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSecurityEvents: {
        parameters: {
            query?: {
                action?: string;
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            action: string;
                            /** @description `anonymous`: not signed in (a login attempt, a reset request); the IP and user agent say who */
                            actor: {
                                id: string | null;
                                /** @enum {string} */
                                type: "user" | "apiKey" | "system" | "anonymous";
                            };
                            /** @description changed fields only; secrets masked */
                            changes: {
                                after: unknown;
                                before: unknown;
                            } | null;
                            createdAt: string;
                            /** Format: uuid */
                            id: string;
                            ip: string | null;
                            /** @description null for account events */
                            organizationID: string | null;
                            target: {
                                id: string | null;
                                type: string;
                            } | null;
                            userAgent: string | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSessions: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Live sessions, newest first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            active_organization_id: string | null;
                            /** Format: date-time */
                            created_at: string;
                            /** @description True for the session of the token making this request */
                            current: boolean;
                            /** Format: date-time */
                            expires_at: string;
                            /** Format: uuid */
                            id: string;
                            ip_address: string | null;
                            /** Format: date-time */
                            last_used_at: string;
                            user_agent: string | null;
                        }[];
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeSession: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Session ended */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startSsoSignIn: {
        parameters: {
            query?: {
                /** @description `console`: the web console started the sign-in */
                client?: "console";
            };
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description To the identity provider */
            302: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        authorizationUrl: string;
                        /** @description seconds the state stays valid */
                        expiresIn: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNPROCESSABLE: The request is well-formed but semantically invalid; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_ERROR: An external provider (e.g. an embedding endpoint) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startSsoLink: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                slug: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Open this URL in the browser */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        authorizationUrl: string;
                        /** @description seconds the state stays valid */
                        expiresIn: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; SSO_SESSION_SCOPED: The session was opened by an organization's single sign-on and acts in that organization only; sign in with a password for others */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNPROCESSABLE: The request is well-formed but semantically invalid; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_ERROR: An external provider (e.g. an embedding endpoint) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    completeSsoSignIn: {
        parameters: {
            query: {
                code?: string;
                error?: string;
                error_description?: string;
                iss?: string;
                state: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description Signed in, the second step is due, or the identity is linked */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": ({
                        tokens: {
                            /** @description JWT (HS256), send as `Authorization: Bearer <token>` */
                            accessToken: string;
                            /** @description Access token lifetime in seconds (900 by default) */
                            expiresIn: number;
                            /** @description Single use: each refresh returns a new one; reusing a spent one revokes the session */
                            refreshToken: string;
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    } | {
                        tokens: {
                            accessToken: string;
                            /** @description Send as X-CSRF-Token on POST /api/auth/refresh (also in the readable cookie loom_csrf) */
                            csrfToken: string;
                            expiresIn: number;
                            /** @constant */
                            refreshTokenTransport: "cookie";
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    } | {
                        challenge: {
                            /** @description Send with a code to POST /api/auth/login/2fa; single use */
                            challengeToken: string;
                            /** @description Seconds the challenge stays valid (five wrong codes end it sooner) */
                            expiresIn: number;
                            methods: ("totp" | "recovery_code")[];
                            /** @constant */
                            twoFactorRequired: true;
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    }) | {
                        /** @description the identity is linked to this account; no session is opened */
                        linked: {
                            issuer: string;
                            /** Format: uuid */
                            organizationID: string;
                        };
                        user: {
                            email: string;
                            /** Format: uuid */
                            id: string;
                            name: string | null;
                        };
                    };
                };
            };
            /** @description A sign-in the console started: back to the console, signed in (cookies set), at its second step, or with the refusal */
            303: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_TOKEN: Token validation failed; SSO_FAILED: Single sign-on failed: the identity provider refused, or its answer did not verify; see the message */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; SSO_DOMAIN_NOT_VERIFIED: The e-mail's domain is not verified by the organization, so its single sign-on may not create or join an account */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SSO_ACCOUNT_EXISTS: An account with this e-mail exists and this identity is not linked to it: sign in normally, then link it at POST /api/auth/sso/{slug}/link; SSO_IDENTITY_LINKED: The identity is already linked to another account (or the account to another identity of this provider); CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNPROCESSABLE: The request is well-formed but semantically invalid; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_ERROR: An external provider (e.g. an embedding endpoint) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    switchOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: uuid */
                    organizationID: string;
                };
            };
        };
        responses: {
            /** @description New token pair for the organization */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description JWT (HS256), send as `Authorization: Bearer <token>` */
                        accessToken: string;
                        /** @description Access token lifetime in seconds (900 by default) */
                        expiresIn: number;
                        /** Format: uuid */
                        organizationID: string;
                        /** @description Single use: each refresh returns a new one; reusing a spent one revokes the session */
                        refreshToken: string;
                    } | {
                        accessToken: string;
                        /** @description Send as X-CSRF-Token on POST /api/auth/refresh (also in the readable cookie loom_csrf) */
                        csrfToken: string;
                        expiresIn: number;
                        /** Format: uuid */
                        organizationID: string;
                        /** @constant */
                        refreshTokenTransport: "cookie";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; TOKEN_EXPIRED: Token has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; SSO_SESSION_SCOPED: The session was opened by an organization's single sign-on and acts in that organization only; sign in with a password for others */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveWebhookGet: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description organization id or slug */
                organization: string;
                /** @description the webhook trigger's path (one segment) */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description with a wait: the finished run (status, results, errors); else a repeated delivery: the first run, nothing new started */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description the run was created (or, with a wait, is still open); Location points at it */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: The path exists but not with this method */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The request conflicts with the current state; IDEMPOTENCY_CONFLICT: An Idempotency-Key was reused with a different request; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_PARAMETERS: Run parameters do not match the declared parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENGINE_MISCONFIGURED: The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveWebhookPut: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description organization id or slug */
                organization: string;
                /** @description the webhook trigger's path (one segment) */
                path: string;
            };
            cookie?: never;
        };
        /** @description any JSON (or a form / text) */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description with a wait: the finished run (status, results, errors); else a repeated delivery: the first run, nothing new started */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description the run was created (or, with a wait, is still open); Location points at it */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: The path exists but not with this method */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The request conflicts with the current state; IDEMPOTENCY_CONFLICT: An Idempotency-Key was reused with a different request; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_PARAMETERS: Run parameters do not match the declared parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENGINE_MISCONFIGURED: The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveWebhookPost: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description organization id or slug */
                organization: string;
                /** @description the webhook trigger's path (one segment) */
                path: string;
            };
            cookie?: never;
        };
        /** @description any JSON (or a form / text) */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description with a wait: the finished run (status, results, errors); else a repeated delivery: the first run, nothing new started */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description the run was created (or, with a wait, is still open); Location points at it */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: The path exists but not with this method */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The request conflicts with the current state; IDEMPOTENCY_CONFLICT: An Idempotency-Key was reused with a different request; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_PARAMETERS: Run parameters do not match the declared parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENGINE_MISCONFIGURED: The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveWebhookDelete: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description organization id or slug */
                organization: string;
                /** @description the webhook trigger's path (one segment) */
                path: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description with a wait: the finished run (status, results, errors); else a repeated delivery: the first run, nothing new started */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description the run was created (or, with a wait, is still open); Location points at it */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: The path exists but not with this method */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The request conflicts with the current state; IDEMPOTENCY_CONFLICT: An Idempotency-Key was reused with a different request; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_PARAMETERS: Run parameters do not match the declared parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENGINE_MISCONFIGURED: The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    receiveWebhookPatch: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description organization id or slug */
                organization: string;
                /** @description the webhook trigger's path (one segment) */
                path: string;
            };
            cookie?: never;
        };
        /** @description any JSON (or a form / text) */
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description with a wait: the finished run (status, results, errors); else a repeated delivery: the first run, nothing new started */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description the run was created (or, with a wait, is still open); Location points at it */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        completed_at?: string | null;
                        /** @description milliseconds from started_at to completed_at */
                        duration?: number | null;
                        errors?: components["schemas"]["RunError"][];
                        /** @description true when this delivery key was seen before: no new run was started */
                        replayed?: boolean;
                        /** @description outputs of the exit nodes that completed */
                        results?: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        run_id: string;
                        started_at?: string | null;
                        /** @enum {string} */
                        status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                        /** Format: uuid */
                        workflow_id: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description METHOD_NOT_ALLOWED: The path exists but not with this method */
            405: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The request conflicts with the current state; IDEMPOTENCY_CONFLICT: An Idempotency-Key was reused with a different request; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_PARAMETERS: Run parameters do not match the declared parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENGINE_MISCONFIGURED: The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApprovals: {
        parameters: {
            query?: {
                /** @description `me`: only what the caller may decide now (pending, their role or id among the approvers, not yet decided by them, not a run they started unless self-approval is allowed) */
                awaiting?: "me";
                cursor?: string;
                limit?: number;
                /** @description only this run's approvals */
                run_id?: string;
                /** @description only approvals in this state */
                status?: "pending" | "approved" | "rejected" | "timed_out" | "cancelled";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of approvals */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Approval"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the approval */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    decideApproval: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description shown to later nodes as `comment` and kept with the decision */
                    comment?: string;
                    /** @enum {string} */
                    decision: "approve" | "reject";
                    /**
                     * @description the form's fields by name (required ones to approve)
                     * @default {}
                     */
                    values?: {
                        [key: string]: unknown;
                    };
                };
            };
        };
        responses: {
            /** @description the approval after the decision */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Approval"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment; HUMAN_REQUIRED: A person must do this from a signed-in session: API keys may not weaken security settings, create admin keys or decide on approvals */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listCircuitBreakers: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description breakers */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            consecutive_failures: number;
                            half_open_attempts: number;
                            half_open_successes: number;
                            /** @description when an open circuit lets trial calls through */
                            half_opens_at: string | null;
                            last_error: {
                                code: string;
                                message: string;
                            } | null;
                            opened_at: string | null;
                            /** @description what the breaker covers: `key:<name>` (a node's circuit_breaker.key), a destination host (`api.partner.com:443`), or "" for the tool as a whole */
                            scope: string;
                            /** @enum {string} */
                            state: "closed" | "open" | "half_open";
                            tool: string;
                            updated_at: string;
                        }[];
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resetCircuitBreaker: {
        parameters: {
            query?: {
                /** @description one breaker of the tool ("" for the tool-wide one) */
                scope?: string;
            };
            header?: never;
            path: {
                tool: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the breaker, closed */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        consecutive_failures: number;
                        half_open_attempts: number;
                        half_open_successes: number;
                        /** @description when an open circuit lets trial calls through */
                        half_opens_at: string | null;
                        last_error: {
                            code: string;
                            message: string;
                        } | null;
                        opened_at: string | null;
                        /** @description what the breaker covers: `key:<name>` (a node's circuit_breaker.key), a destination host (`api.partner.com:443`), or "" for the tool as a whole */
                        scope: string;
                        /** @enum {string} */
                        state: "closed" | "open" | "half_open";
                        tool: string;
                        updated_at: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadContent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request safely: the same key with the same request within 24 hours answers the first response (header `Idempotent-Replayed: true`); the same key with a different request answers 409 IDEMPOTENCY_CONFLICT. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        /** @description The file and its optional fields. Parts may come in any order; the file is streamed to storage (never held in memory). The recorded MIME type is sniffed from the bytes (the signature wins over the part's Content-Type; text subtypes such as JSON, CSV, XML, HTML and Markdown are recognised from the content). SHA-256 and size are recorded. Past the upload size limit (CONTENT_MAX_UPLOAD_BYTES) the answer is 413, past the storage quota of the plan 429 QUOTA_EXCEEDED; either way nothing is kept. */
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file (documents, images, videos, JSON, CSV, XML...)
                     */
                    file: string;
                    /** @description A JSON object, stored as given (at most 64 KiB) */
                    metadata?: string;
                    /** @description A JSON array of strings, or the part repeated once per tag */
                    tags?: string | string[];
                    title?: string;
                };
            };
        };
        responses: {
            /** @description stored */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        createdBy: string | null;
                        currentVersion: {
                            createdAt: string;
                            createdBy: string | null;
                            declaredMimeType: string | null;
                            /** @description Derived files (thumbnail, text, converted), downloadable with `variant` */
                            derived: {
                                [key: string]: unknown;
                            };
                            /** @description What the metadata step found (pages, dimensions, EXIF...) */
                            extracted: {
                                [key: string]: unknown;
                            };
                            filename: string;
                            /** @enum {string} */
                            mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                            mimeType: string;
                            sha256: string;
                            size: number;
                            version: number;
                        };
                        embedding: {
                            dimensions: number;
                            embeddedAt: string;
                            model: string;
                        } | null;
                        filename: string;
                        id: string;
                        /** @enum {string} */
                        mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** @description Sniffed from the bytes; the client claim is only used for text subtypes */
                        mimeType: string;
                        organizationID: string;
                        sha256: string;
                        size: number;
                        /**
                         * @description Processing status of the current version
                         * @enum {string}
                         */
                        status: "none" | "pending" | "processing" | "processed" | "failed";
                        tags: string[];
                        title: string | null;
                        updatedAt: string;
                        /** @description Current version number */
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; IDEMPOTENCY_CONFLICT: An Idempotency-Key was reused with a different request */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the content with its current version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        createdBy: string | null;
                        currentVersion: {
                            createdAt: string;
                            createdBy: string | null;
                            declaredMimeType: string | null;
                            /** @description Derived files (thumbnail, text, converted), downloadable with `variant` */
                            derived: {
                                [key: string]: unknown;
                            };
                            /** @description What the metadata step found (pages, dimensions, EXIF...) */
                            extracted: {
                                [key: string]: unknown;
                            };
                            filename: string;
                            /** @enum {string} */
                            mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                            mimeType: string;
                            sha256: string;
                            size: number;
                            version: number;
                        };
                        embedding: {
                            dimensions: number;
                            embeddedAt: string;
                            model: string;
                        } | null;
                        filename: string;
                        id: string;
                        /** @enum {string} */
                        mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** @description Sniffed from the bytes; the client claim is only used for text subtypes */
                        mimeType: string;
                        organizationID: string;
                        sha256: string;
                        size: number;
                        /**
                         * @description Processing status of the current version
                         * @enum {string}
                         */
                        status: "none" | "pending" | "processing" | "processed" | "failed";
                        tags: string[];
                        title: string | null;
                        updatedAt: string;
                        /** @description Current version number */
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Replaces the metadata object */
                    metadata?: {
                        [key: string]: unknown;
                    };
                    /** @description Replaces the tag list */
                    tags?: string[];
                    title?: string | null;
                };
            };
        };
        responses: {
            /** @description the content with its current version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        createdBy: string | null;
                        currentVersion: {
                            createdAt: string;
                            createdBy: string | null;
                            declaredMimeType: string | null;
                            /** @description Derived files (thumbnail, text, converted), downloadable with `variant` */
                            derived: {
                                [key: string]: unknown;
                            };
                            /** @description What the metadata step found (pages, dimensions, EXIF...) */
                            extracted: {
                                [key: string]: unknown;
                            };
                            filename: string;
                            /** @enum {string} */
                            mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                            mimeType: string;
                            sha256: string;
                            size: number;
                            version: number;
                        };
                        embedding: {
                            dimensions: number;
                            embeddedAt: string;
                            model: string;
                        } | null;
                        filename: string;
                        id: string;
                        /** @enum {string} */
                        mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** @description Sniffed from the bytes; the client claim is only used for text subtypes */
                        mimeType: string;
                        organizationID: string;
                        sha256: string;
                        size: number;
                        /**
                         * @description Processing status of the current version
                         * @enum {string}
                         */
                        status: "none" | "pending" | "processing" | "processed" | "failed";
                        tags: string[];
                        title: string | null;
                        updatedAt: string;
                        /** @description Current version number */
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted; clean-up of files and vectors under way */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        cleanup: {
                            workflowId: string;
                        };
                        id: string;
                        /** @constant */
                        status: "deleted";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    downloadContent: {
        parameters: {
            query?: {
                disposition?: "attachment" | "inline";
                /** @description The original file or a derived file */
                variant?: "original" | "thumbnail" | "text" | "converted";
                /** @description Version to download (default: current) */
                version?: number;
            };
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description the requested byte range */
            206: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description not modified (If-None-Match) */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RANGE_NOT_SATISFIABLE: The Range header does not fit the object */
            416: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    embedContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description job started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        contentId: string;
                        job: {
                            completedAt: string | null;
                            createdAt: string;
                            id: string;
                            startedAt: string | null;
                            /** @enum {string} */
                            status: "pending" | "running" | "succeeded" | "failed" | "cancelled";
                            steps: {
                                attempts: number;
                                completedAt: string | null;
                                error: string | null;
                                /** @enum {string} */
                                name: "extract_text" | "extract_metadata" | "convert" | "thumbnail" | "chunk" | "embed";
                                output: unknown;
                                startedAt: string | null;
                                /** @enum {string} */
                                state: "pending" | "running" | "retrying" | "succeeded" | "failed" | "skipped";
                            }[];
                            /** @enum {string} */
                            trigger: "upload" | "manual" | "embed";
                            version: number;
                            workflowId: string;
                        } | null;
                        /** @enum {string} */
                        status: "none" | "pending" | "processing" | "processed" | "failed";
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getContentEmbedding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the embedding */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Chunk vectors stored for search */
                        chunks: number;
                        contentId: string;
                        dimensions: number;
                        model: string;
                        /**
                         * @description computed: mean of the chunk vectors; provided: PUT by a caller
                         * @enum {string}
                         */
                        source: "computed" | "provided";
                        vector: number[];
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putContentEmbedding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Model that made the vector (default: the organization's provider model; its dimension is enforced) */
                    model?: string;
                    vector: number[];
                };
            };
        };
        responses: {
            /** @description stored */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description Chunk vectors stored for search */
                        chunks: number;
                        contentId: string;
                        dimensions: number;
                        model: string;
                        /**
                         * @description computed: mean of the chunk vectors; provided: PUT by a caller
                         * @enum {string}
                         */
                        source: "computed" | "provided";
                        vector: number[];
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNPROCESSABLE: The request is well-formed but semantically invalid; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    extractContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default 100000 */
                    maxChars?: number;
                    /** @description PDF page range (1-based, inclusive) */
                    pages?: {
                        from: number;
                        to?: number;
                    };
                    /** @constant */
                    type: "text";
                    version?: number;
                } | {
                    /** @description JSONata over JSON, CSV (array of row objects) or XML (object) */
                    expression: string;
                    /** @constant */
                    type: "jsonata";
                    version?: number;
                } | {
                    /** @description Dot/bracket paths (`a.b[0].c`) into JSON/XML; column names for CSV */
                    fields: string[];
                    /** @constant */
                    type: "fields";
                    version?: number;
                } | {
                    /** @default  */
                    flags?: string;
                    /** @default 1000 */
                    maxMatches?: number;
                    pattern: string;
                    /** @constant */
                    type: "regex";
                    version?: number;
                } | {
                    /** @constant */
                    type: "metadata";
                    version?: number;
                };
            };
        };
        responses: {
            /** @description the extracted data */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        contentId: string;
                        mimeType: string;
                        result: unknown;
                        type: string;
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON; INVALID_REGEX: The regular expression does not compile with RE2 (no backreferences or lookaround) or is too long */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNPROCESSABLE: The request is well-formed but semantically invalid; see details; EXPRESSION_TIMEOUT: The expression ran past its deadline and was stopped; EXPRESSION_TOO_COMPLEX: The expression recursed too deeply, built too long a sequence or used too much memory */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    processContent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Steps to run (default: all), always in pipeline order */
                    steps?: ("extract_text" | "extract_metadata" | "convert" | "thumbnail" | "chunk" | "embed")[];
                    /** @description Version to process (default: current) */
                    version?: number;
                };
            };
        };
        responses: {
            /** @description job started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        contentId: string;
                        job: {
                            completedAt: string | null;
                            createdAt: string;
                            id: string;
                            startedAt: string | null;
                            /** @enum {string} */
                            status: "pending" | "running" | "succeeded" | "failed" | "cancelled";
                            steps: {
                                attempts: number;
                                completedAt: string | null;
                                error: string | null;
                                /** @enum {string} */
                                name: "extract_text" | "extract_metadata" | "convert" | "thumbnail" | "chunk" | "embed";
                                output: unknown;
                                startedAt: string | null;
                                /** @enum {string} */
                                state: "pending" | "running" | "retrying" | "succeeded" | "failed" | "skipped";
                            }[];
                            /** @enum {string} */
                            trigger: "upload" | "manual" | "embed";
                            version: number;
                            workflowId: string;
                        } | null;
                        /** @enum {string} */
                        status: "none" | "pending" | "processing" | "processed" | "failed";
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    contentStatus: {
        parameters: {
            query?: {
                /** @description A specific job (default: the latest) */
                jobId?: string;
            };
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the latest (or the given) job */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        contentId: string;
                        job: {
                            completedAt: string | null;
                            createdAt: string;
                            id: string;
                            startedAt: string | null;
                            /** @enum {string} */
                            status: "pending" | "running" | "succeeded" | "failed" | "cancelled";
                            steps: {
                                attempts: number;
                                completedAt: string | null;
                                error: string | null;
                                /** @enum {string} */
                                name: "extract_text" | "extract_metadata" | "convert" | "thumbnail" | "chunk" | "embed";
                                output: unknown;
                                startedAt: string | null;
                                /** @enum {string} */
                                state: "pending" | "running" | "retrying" | "succeeded" | "failed" | "skipped";
                            }[];
                            /** @enum {string} */
                            trigger: "upload" | "manual" | "embed";
                            version: number;
                            workflowId: string;
                        } | null;
                        /** @enum {string} */
                        status: "none" | "pending" | "processing" | "processed" | "failed";
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listContentVersions: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description versions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            createdBy: string | null;
                            declaredMimeType: string | null;
                            /** @description Derived files (thumbnail, text, converted), downloadable with `variant` */
                            derived: {
                                [key: string]: unknown;
                            };
                            /** @description What the metadata step found (pages, dimensions, EXIF...) */
                            extracted: {
                                [key: string]: unknown;
                            };
                            filename: string;
                            /** @enum {string} */
                            mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                            mimeType: string;
                            sha256: string;
                            size: number;
                            version: number;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    uploadContentVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        /** @description The new file and optional field changes. Parts may come in any order; the file is streamed to storage (never held in memory). The recorded MIME type is sniffed from the bytes (the signature wins over the part's Content-Type; text subtypes such as JSON, CSV, XML, HTML and Markdown are recognised from the content). SHA-256 and size are recorded. Past the upload size limit (CONTENT_MAX_UPLOAD_BYTES) the answer is 413, past the storage quota of the plan 429 QUOTA_EXCEEDED; either way nothing is kept. */
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description The file (documents, images, videos, JSON, CSV, XML...)
                     */
                    file: string;
                    /** @description A JSON object, stored as given (at most 64 KiB) */
                    metadata?: string;
                    /** @description A JSON array of strings, or the part repeated once per tag */
                    tags?: string | string[];
                    title?: string;
                };
            };
        };
        responses: {
            /** @description the new version stored */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        createdBy: string | null;
                        currentVersion: {
                            createdAt: string;
                            createdBy: string | null;
                            declaredMimeType: string | null;
                            /** @description Derived files (thumbnail, text, converted), downloadable with `variant` */
                            derived: {
                                [key: string]: unknown;
                            };
                            /** @description What the metadata step found (pages, dimensions, EXIF...) */
                            extracted: {
                                [key: string]: unknown;
                            };
                            filename: string;
                            /** @enum {string} */
                            mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                            mimeType: string;
                            sha256: string;
                            size: number;
                            version: number;
                        };
                        embedding: {
                            dimensions: number;
                            embeddedAt: string;
                            model: string;
                        } | null;
                        filename: string;
                        id: string;
                        /** @enum {string} */
                        mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                        metadata: {
                            [key: string]: unknown;
                        };
                        /** @description Sniffed from the bytes; the client claim is only used for text subtypes */
                        mimeType: string;
                        organizationID: string;
                        sha256: string;
                        size: number;
                        /**
                         * @description Processing status of the current version
                         * @enum {string}
                         */
                        status: "none" | "pending" | "processing" | "processed" | "failed";
                        tags: string[];
                        title: string | null;
                        updatedAt: string;
                        /** @description Current version number */
                        version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    queryContent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    cursor?: string;
                    /** @description All given conditions must hold */
                    filter?: {
                        createdAt?: {
                            /** Format: date-time */
                            gte?: string;
                            /** Format: date-time */
                            lte?: string;
                        };
                        ids?: string[];
                        /** @description Per field (or dotted path into nested objects): a JSON value the metadata must contain ({"author":"Ann"}), or operators: $eq, $ne, $gt, $gte, $lt, $lte (numbers as numbers, strings as text), $in, $nin (up to 100 values), $exists (true/false), e.g. {"words":{"$gt":30},"lang":{"$in":["en","de"]}}; an unknown operator is a 400 */
                        metadata?: {
                            [key: string]: unknown;
                        };
                        /** @description Size of the current version in bytes */
                        size?: {
                            gte?: number;
                            lte?: number;
                        };
                        status?: ("none" | "pending" | "processing" | "processed" | "failed")[];
                        /** @description Content must carry every one of these tags */
                        tags?: string[];
                        /** @description Content must carry at least one of these tags */
                        tagsAny?: string[];
                        /** @description Case-insensitive substring of the title */
                        titleContains?: string;
                        /** @description Media type (document, image, video, audio, structured, other) or MIME type (`image/*` allowed) */
                        type?: string | string[];
                        updatedAt?: {
                            /** Format: date-time */
                            gte?: string;
                            /** Format: date-time */
                            lte?: string;
                        };
                    };
                    /** @default 20 */
                    limit?: number;
                    /** @description Default: createdAt desc; ties broken by id */
                    sort?: {
                        /**
                         * @default desc
                         * @enum {string}
                         */
                        direction?: "asc" | "desc";
                        /** @enum {string} */
                        field: "createdAt" | "updatedAt" | "size" | "title";
                    };
                };
            };
        };
        responses: {
            /** @description a page of contents */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            createdBy: string | null;
                            embedding: {
                                dimensions: number;
                                embeddedAt: string;
                                model: string;
                            } | null;
                            filename: string;
                            id: string;
                            /** @enum {string} */
                            mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                            metadata: {
                                [key: string]: unknown;
                            };
                            /** @description Sniffed from the bytes; the client claim is only used for text subtypes */
                            mimeType: string;
                            organizationID: string;
                            sha256: string;
                            size: number;
                            /**
                             * @description Processing status of the current version
                             * @enum {string}
                             */
                            status: "none" | "pending" | "processing" | "processed" | "failed";
                            tags: string[];
                            title: string | null;
                            updatedAt: string;
                            /** @description Current version number */
                            version: number;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listContentReembeddings: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of operations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            done: number;
                            /** @description Contents the embed step refused (lastError has the latest reason) */
                            failed: number;
                            finishedAt: string | null;
                            /** @description Only content of this model (null: every other model, custom models aside) */
                            fromModel: string | null;
                            /** Format: uuid */
                            id: string;
                            lastError: string | null;
                            remaining: number;
                            /** @description Contents with no text to embed, or deleted meanwhile */
                            skipped: number;
                            /** @enum {string} */
                            status: "running" | "succeeded" | "failed" | "cancelled";
                            targetDimensions: number;
                            /** @description The organization's model when the operation started: content is re-embedded with it */
                            targetModel: string;
                            /** @description Contents selected at the start */
                            total: number;
                            updatedAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startContentReembedding: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description Only content whose vectors were made by this model. Left out: every content embedded by another model than the organization's current one, except caller-supplied vectors of registered custom models (GET /embedding-models) */
                    model?: string;
                };
            };
        };
        responses: {
            /** @description started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        done: number;
                        /** @description Contents the embed step refused (lastError has the latest reason) */
                        failed: number;
                        finishedAt: string | null;
                        /** @description Only content of this model (null: every other model, custom models aside) */
                        fromModel: string | null;
                        /** Format: uuid */
                        id: string;
                        lastError: string | null;
                        remaining: number;
                        /** @description Contents with no text to embed, or deleted meanwhile */
                        skipped: number;
                        /** @enum {string} */
                        status: "running" | "succeeded" | "failed" | "cancelled";
                        targetDimensions: number;
                        /** @description The organization's model when the operation started: content is re-embedded with it */
                        targetModel: string;
                        /** @description Contents selected at the start */
                        total: number;
                        updatedAt: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNPROCESSABLE: The request is well-formed but semantically invalid; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getContentReembedding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the operation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        done: number;
                        /** @description Contents the embed step refused (lastError has the latest reason) */
                        failed: number;
                        finishedAt: string | null;
                        /** @description Only content of this model (null: every other model, custom models aside) */
                        fromModel: string | null;
                        /** Format: uuid */
                        id: string;
                        lastError: string | null;
                        remaining: number;
                        /** @description Contents with no text to embed, or deleted meanwhile */
                        skipped: number;
                        /** @enum {string} */
                        status: "running" | "succeeded" | "failed" | "cancelled";
                        targetDimensions: number;
                        /** @description The organization's model when the operation started: content is re-embedded with it */
                        targetModel: string;
                        /** @description Contents selected at the start */
                        total: number;
                        updatedAt: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelContentReembedding: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description cancelled */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        done: number;
                        /** @description Contents the embed step refused (lastError has the latest reason) */
                        failed: number;
                        finishedAt: string | null;
                        /** @description Only content of this model (null: every other model, custom models aside) */
                        fromModel: string | null;
                        /** Format: uuid */
                        id: string;
                        lastError: string | null;
                        remaining: number;
                        /** @description Contents with no text to embed, or deleted meanwhile */
                        skipped: number;
                        /** @enum {string} */
                        status: "running" | "succeeded" | "failed" | "cancelled";
                        targetDimensions: number;
                        /** @description The organization's model when the operation started: content is re-embedded with it */
                        targetModel: string;
                        /** @description Contents selected at the start */
                        total: number;
                        updatedAt: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    searchContent: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description All given conditions must hold */
                    filters?: {
                        createdAt?: {
                            /** Format: date-time */
                            gte?: string;
                            /** Format: date-time */
                            lte?: string;
                        };
                        ids?: string[];
                        /** @description Per field (or dotted path into nested objects): a JSON value the metadata must contain ({"author":"Ann"}), or operators: $eq, $ne, $gt, $gte, $lt, $lte (numbers as numbers, strings as text), $in, $nin (up to 100 values), $exists (true/false), e.g. {"words":{"$gt":30},"lang":{"$in":["en","de"]}}; an unknown operator is a 400 */
                        metadata?: {
                            [key: string]: unknown;
                        };
                        /** @description Size of the current version in bytes */
                        size?: {
                            gte?: number;
                            lte?: number;
                        };
                        status?: ("none" | "pending" | "processing" | "processed" | "failed")[];
                        /** @description Content must carry every one of these tags */
                        tags?: string[];
                        /** @description Content must carry at least one of these tags */
                        tagsAny?: string[];
                        /** @description Case-insensitive substring of the title */
                        titleContains?: string;
                        /** @description Media type (document, image, video, audio, structured, other) or MIME type (`image/*` allowed) */
                        type?: string | string[];
                        updatedAt?: {
                            /** Format: date-time */
                            gte?: string;
                            /** Format: date-time */
                            lte?: string;
                        };
                    };
                    /** @default 10 */
                    limit?: number;
                    /** @description Leave out semantic results below this cosine similarity (semantic mode and the semantic half of hybrid). Default CONTENT_SEARCH_MIN_SEMANTIC_SCORE: 0.2 for the built-in lexical embedder, none for other providers. */
                    minScore?: number;
                    /**
                     * @default hybrid
                     * @enum {string}
                     */
                    mode?: "semantic" | "keyword" | "hybrid";
                    /** @description Words, and "quoted phrases": in keyword search (and the keyword half of hybrid) a quoted phrase must appear as written, its words in order and next to each other (stemmed: "seas ices" matches "sea ice") */
                    query: string;
                };
            };
        };
        responses: {
            /** @description results, best first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            content: {
                                createdAt: string;
                                createdBy: string | null;
                                embedding: {
                                    dimensions: number;
                                    embeddedAt: string;
                                    model: string;
                                } | null;
                                filename: string;
                                id: string;
                                /** @enum {string} */
                                mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                                metadata: {
                                    [key: string]: unknown;
                                };
                                /** @description Sniffed from the bytes; the client claim is only used for text subtypes */
                                mimeType: string;
                                organizationID: string;
                                sha256: string;
                                size: number;
                                /**
                                 * @description Processing status of the current version
                                 * @enum {string}
                                 */
                                status: "none" | "pending" | "processing" | "processed" | "failed";
                                tags: string[];
                                title: string | null;
                                updatedAt: string;
                                /** @description Current version number */
                                version: number;
                            };
                            highlights: {
                                chunkIndex: number;
                                text: string;
                            }[];
                            /** @description semantic: cosine similarity; keyword: BM25; hybrid: reciprocal rank fusion */
                            score: number;
                            scores: {
                                keyword?: number;
                                semantic?: number;
                            };
                        }[];
                        /** @enum {string} */
                        mode: "semantic" | "keyword" | "hybrid";
                        /** @description The organization's embedding model: the query was embedded with it (and the vectors were made by it) */
                        model: string;
                        /** @description Every model whose vectors were searched: the organization's first, then models that still hold some of its content while it is re-embedded (built-in models embed the query themselves; other models by keyword only) */
                        models: string[];
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_ERROR: An external provider (e.g. an embedding endpoint) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    similarContent: {
        parameters: {
            query?: {
                limit?: number;
                /** @description Leave out contents below this cosine similarity. Default: CONTENT_SIMILAR_MIN_SCORE, else the built-in model's floor (0.5 for the semantic word-vector model, 0.3 for the lexical one; none for other models): below it a content is not similar, and an empty list says so rather than ranking noise (docs/content.md#similar) */
                minScore?: number;
            };
            header?: never;
            path: {
                /** @description Content id */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description similar contents, best first */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            content: {
                                createdAt: string;
                                createdBy: string | null;
                                embedding: {
                                    dimensions: number;
                                    embeddedAt: string;
                                    model: string;
                                } | null;
                                filename: string;
                                id: string;
                                /** @enum {string} */
                                mediaType: "document" | "image" | "video" | "audio" | "structured" | "other";
                                metadata: {
                                    [key: string]: unknown;
                                };
                                /** @description Sniffed from the bytes; the client claim is only used for text subtypes */
                                mimeType: string;
                                organizationID: string;
                                sha256: string;
                                size: number;
                                /**
                                 * @description Processing status of the current version
                                 * @enum {string}
                                 */
                                status: "none" | "pending" | "processing" | "processed" | "failed";
                                tags: string[];
                                title: string | null;
                                updatedAt: string;
                                /** @description Current version number */
                                version: number;
                            };
                            /** @description cosine similarity */
                            score: number;
                        }[];
                        /** @description The floor applied: contents below this cosine similarity were left out */
                        minScore: number;
                        model: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listDeadLetters: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                queue?: string;
                run_id?: string;
                status?: "pending" | "replayed";
                workflow_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of dead letters */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            attempts: number;
                            created_at: string;
                            error: {
                                code: string;
                                message: string;
                            };
                            expires_at: string;
                            /** Format: uuid */
                            id: string;
                            /** @description the node's resolved input (tool nodes) or its config */
                            input: unknown;
                            node_id: string;
                            queue: string;
                            replay_run_id: string | null;
                            replayed_at: string | null;
                            /** Format: uuid */
                            run_id: string;
                            /** @enum {string} */
                            status: "pending" | "replayed";
                            tool: string | null;
                            /** Format: uuid */
                            workflow_id: string;
                            workflow_version: number;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the dead letter */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        attempts: number;
                        created_at: string;
                        error: {
                            code: string;
                            message: string;
                        };
                        expires_at: string;
                        /** Format: uuid */
                        id: string;
                        /** @description the node's resolved input (tool nodes) or its config */
                        input: unknown;
                        node_id: string;
                        queue: string;
                        replay_run_id: string | null;
                        replayed_at: string | null;
                        /** Format: uuid */
                        run_id: string;
                        /** @enum {string} */
                        status: "pending" | "replayed";
                        tool: string | null;
                        /** Format: uuid */
                        workflow_id: string;
                        workflow_version: number;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replayDeadLetter: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the dead letter and the replay run */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        dead_letter: {
                            attempts: number;
                            created_at: string;
                            error: {
                                code: string;
                                message: string;
                            };
                            expires_at: string;
                            /** Format: uuid */
                            id: string;
                            /** @description the node's resolved input (tool nodes) or its config */
                            input: unknown;
                            node_id: string;
                            queue: string;
                            replay_run_id: string | null;
                            replayed_at: string | null;
                            /** Format: uuid */
                            run_id: string;
                            /** @enum {string} */
                            status: "pending" | "replayed";
                            tool: string | null;
                            /** Format: uuid */
                            workflow_id: string;
                            workflow_version: number;
                        };
                        run: components["schemas"]["Run"];
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENGINE_MISCONFIGURED: The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listEmbeddingModels: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description every model */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            dimensions: number;
                            name: string;
                            /** @description Who makes its vectors (a label; `custom` unless given) */
                            provider: string;
                        }[];
                        nextCursor: null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    registerEmbeddingModel: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    dimensions: number;
                    /** @description Model name, as PUT /content/{id}/embedding names it (unique within the organization) */
                    name: string;
                    /** @description A label, e.g. `openai`, `in-house`; default `custom` */
                    provider?: string;
                };
            };
        };
        responses: {
            /** @description registered */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        dimensions: number;
                        name: string;
                        /** @description Who makes its vectors (a label; `custom` unless given) */
                        provider: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteEmbeddingModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description Model name, as PUT /content/{id}/embedding names it (unique within the organization) */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    publishEvent: {
        parameters: {
            query?: never;
            header?: {
                /** @description Repeat the request safely: the same key with the same request within 24 hours answers the first response (header `Idempotent-Replayed: true`); the same key with a different request answers 409 IDEMPOTENCY_CONFLICT. */
                "Idempotency-Key"?: string;
            };
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default {} */
                    data?: {
                        [key: string]: unknown;
                    };
                    /** @description custom.<name>(.<name>)*, at most 100 characters */
                    type: string;
                };
            };
        };
        responses: {
            /** @description recorded; dispatched asynchronously */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            [key: string]: unknown;
                        };
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        organizationID: string;
                        type: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; IDEMPOTENCY_CONFLICT: An Idempotency-Key was reused with a different request */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getEventCatalog: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the catalog (custom.* events carry any object) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            description: string;
                            payloadSchema: unknown;
                            type: string;
                        }[];
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listQuarantinedEvents: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                status?: "quarantined" | "replayed";
                type?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of quarantined events */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description failed dispatch attempts since the event was written or last replayed */
                            attempts: number;
                            createdAt: string;
                            /** @description the payload */
                            data: unknown;
                            /** @description set once a replay was dispatched */
                            dispatchedAt: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description why the last attempt failed */
                            lastError: string | null;
                            /** Format: uuid */
                            organizationID: string;
                            quarantinedAt: string | null;
                            replayedAt: string | null;
                            /**
                             * @description `quarantined`: no longer dispatched; `replayed`: made dispatchable again (see `dispatchedAt`)
                             * @enum {string}
                             */
                            status: "quarantined" | "replayed";
                            type: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    discardQuarantinedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description event id */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description discarded */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    replayQuarantinedEvent: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description event id */
                event_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the event, `replayed`; dispatched asynchronously */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description failed dispatch attempts since the event was written or last replayed */
                        attempts: number;
                        createdAt: string;
                        /** @description the payload */
                        data: unknown;
                        /** @description set once a replay was dispatched */
                        dispatchedAt: string | null;
                        /** Format: uuid */
                        id: string;
                        /** @description why the last attempt failed */
                        lastError: string | null;
                        /** Format: uuid */
                        organizationID: string;
                        quarantinedAt: string | null;
                        replayedAt: string | null;
                        /**
                         * @description `quarantined`: no longer dispatched; `replayed`: made dispatchable again (see `dispatchedAt`)
                         * @enum {string}
                         */
                        status: "quarantined" | "replayed";
                        type: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description joined */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        organization: {
                            createdAt: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @enum {string} */
                            plan: "free" | "pro" | "enterprise";
                            /**
                             * @description the caller's role (absent for API keys' view)
                             * @enum {string}
                             */
                            role?: "owner" | "admin" | "member" | "viewer";
                            slug: string;
                            /** @enum {string} */
                            status: "active" | "deleting";
                            updatedAt: string;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description CONFLICT: The request conflicts with the current state; ORGANIZATION_LIMIT: The user already belongs to the maximum number of organizations */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVITATION_EXPIRED: The invitation has expired, was revoked or was already used */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    lookupInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    token: string;
                };
            };
        };
        responses: {
            /** @description the pending invitation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the invited address: the account that may accept */
                        email: string;
                        /** Format: date-time */
                        expiresAt: string;
                        inviterName: string | null;
                        organizationName: string;
                        role: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVITATION_EXPIRED: The invitation has expired, was revoked or was already used */
            410: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getCurrentOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the organization */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        /** Format: uuid */
                        id: string;
                        name: string;
                        /** @enum {string} */
                        plan: "free" | "pro" | "enterprise";
                        /**
                         * @description the caller's role (absent for API keys' view)
                         * @enum {string}
                         */
                        role?: "owner" | "admin" | "member" | "viewer";
                        slug: string;
                        /** @enum {string} */
                        status: "active" | "deleting";
                        updatedAt: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOrganizations: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of organizations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            /** Format: uuid */
                            id: string;
                            name: string;
                            /** @enum {string} */
                            plan: "free" | "pro" | "enterprise";
                            /**
                             * @description the caller's role (absent for API keys' view)
                             * @enum {string}
                             */
                            role?: "owner" | "admin" | "member" | "viewer";
                            slug: string;
                            /** @enum {string} */
                            status: "active" | "deleting";
                            updatedAt: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name: string;
                    slug?: string;
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        /** Format: uuid */
                        id: string;
                        name: string;
                        /** @enum {string} */
                        plan: "free" | "pro" | "enterprise";
                        /**
                         * @description the caller's role (absent for API keys' view)
                         * @enum {string}
                         */
                        role?: "owner" | "admin" | "member" | "viewer";
                        slug: string;
                        /** @enum {string} */
                        status: "active" | "deleting";
                        updatedAt: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SLUG_TAKEN: The organization slug is already in use; ORGANIZATION_LIMIT: The user already belongs to the maximum number of organizations */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the organization */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        /** Format: uuid */
                        id: string;
                        name: string;
                        /** @enum {string} */
                        plan: "free" | "pro" | "enterprise";
                        /**
                         * @description the caller's role (absent for API keys' view)
                         * @enum {string}
                         */
                        role?: "owner" | "admin" | "member" | "viewer";
                        slug: string;
                        /** @enum {string} */
                        status: "active" | "deleting";
                        updatedAt: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    name?: string;
                    slug?: string;
                };
            };
        };
        responses: {
            /** @description updated */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        /** Format: uuid */
                        id: string;
                        name: string;
                        /** @enum {string} */
                        plan: "free" | "pro" | "enterprise";
                        /**
                         * @description the caller's role (absent for API keys' view)
                         * @enum {string}
                         */
                        role?: "owner" | "admin" | "member" | "viewer";
                        slug: string;
                        /** @enum {string} */
                        status: "active" | "deleting";
                        updatedAt: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; SLUG_TAKEN: The organization slug is already in use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOrganization: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @default false */
                    exportData?: boolean;
                    /** @description the owner's current password */
                    password: string;
                };
            };
        };
        responses: {
            /** @description deletion started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        organizationID: string;
                        /** @constant */
                        status: "deleting";
                        statusUrl: string;
                        workflowId: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired; INVALID_CREDENTIALS: Wrong e-mail or password */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listApiKeys: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of keys */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            expiresAt: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description updated at most once a minute */
                            lastUsedAt: string | null;
                            name: string;
                            /** @description the first characters of the key, to tell keys apart */
                            prefix: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description absent or null = never expires */
                    expiresAt?: string | null;
                    name: string;
                    /**
                     * @default member
                     * @enum {string}
                     */
                    role?: "admin" | "member" | "viewer";
                };
            };
        };
        responses: {
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        expiresAt: string | null;
                        /** Format: uuid */
                        id: string;
                        /** @description shown once */
                        key: string;
                        /** @description updated at most once a minute */
                        lastUsedAt: string | null;
                        name: string;
                        /** @description the first characters of the key, to tell keys apart */
                        prefix: string;
                        /** @enum {string} */
                        role: "owner" | "admin" | "member" | "viewer";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment; HUMAN_REQUIRED: A person must do this from a signed-in session: API keys may not weaken security settings, create admin keys or decide on approvals */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeApiKey: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                keyId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAuditLogs: {
        parameters: {
            query?: {
                action?: string;
                actor?: string;
                cursor?: string;
                from?: string;
                limit?: number;
                to?: string;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of entries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            action: string;
                            /** @description `anonymous`: not signed in (a login attempt, a reset request); the IP and user agent say who */
                            actor: {
                                id: string | null;
                                /** @enum {string} */
                                type: "user" | "apiKey" | "system" | "anonymous";
                            };
                            /** @description changed fields only; secrets masked */
                            changes: {
                                after: unknown;
                                before: unknown;
                            } | null;
                            createdAt: string;
                            /** Format: uuid */
                            id: string;
                            ip: string | null;
                            /** @description null for account events */
                            organizationID: string | null;
                            target: {
                                id: string | null;
                                type: string;
                            } | null;
                            userAgent: string | null;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationBilling: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the billing state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** Format: uuid */
                        organizationID: string;
                        /** @description when the first failed renewal of the current streak happened */
                        pastDueSince: string | null;
                        /** @description the 10 most recent payments, newest first; only for roles with the billing permission (owner) */
                        payments?: {
                            /** @description the provider's payment id */
                            id: string;
                            /** @enum {string} */
                            kind: "plan_change" | "renewal";
                            occurredAt: string;
                            /** @enum {string} */
                            outcome: "succeeded" | "failed";
                            /** @enum {string} */
                            plan: "free" | "pro" | "enterprise";
                            /** @description why the payment failed, as the provider reports it; null on success */
                            reason: string | null;
                        }[];
                        /** @description the billing provider keeping the subscription (`local`, `test`) */
                        provider: string;
                        /**
                         * @description `active`: payments are up to date; `past_due`: a renewal failed and no payment has succeeded since
                         * @enum {string}
                         */
                        state: "active" | "past_due";
                        /** @description the live subscription; null until the creation workflow has initialised billing */
                        subscription: {
                            /** Format: uuid */
                            id: string;
                            /** @enum {string} */
                            plan: "free" | "pro" | "enterprise";
                            /** @enum {string} */
                            status: "active" | "cancelled";
                        } | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationDeletion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the deletion */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description time-limited download link of the data export, when one was asked for */
                        exportUrl: string | null;
                        /** Format: uuid */
                        organizationID: string;
                        /** @enum {string} */
                        status: "running" | "completed" | "failed";
                        /** @description the step in progress or the last one done */
                        step: string;
                        stepsDone: string[];
                        workflowId: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOrganizationDomains: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of domains */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["OrganizationDomain"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    registerOrganizationDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description an e-mail domain such as corp.example (IDNs in their xn-- form) */
                    domain: string;
                };
            };
        };
        responses: {
            /** @description registered, not verified yet */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationDomain"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteOrganizationDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                domainId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyOrganizationDomain: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                domainId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description verified */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["OrganizationDomain"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; DOMAIN_CLAIMED: Another organization has already verified this domain */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description DOMAIN_NOT_VERIFIED: The domain's DNS does not hold the verification TXT record (yet); see the message */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UPSTREAM_ERROR: An external provider (e.g. an embedding endpoint) failed */
            502: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listOrganizationExports: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description exports */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description the archive's size */
                            bytes: number | null;
                            createdAt: string;
                            /** @description exports: a presigned GET of the archive, valid until expiresAt */
                            downloadUrl?: string | null;
                            error: string | null;
                            /** @description exports: when the archive is removed */
                            expiresAt: string | null;
                            finishedAt: string | null;
                            /** Format: uuid */
                            id: string;
                            /** @description exports: entries and files; imports: the report (content, workflows, invitations, embedding models, vectors, secretsToSet, problems), updated as it goes */
                            result: {
                                [key: string]: unknown;
                            } | null;
                            /** @description the archive's SHA-256 */
                            sha256: string | null;
                            /** @enum {string} */
                            status: "running" | "succeeded" | "failed" | "expired";
                        }[];
                        nextCursor: null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startOrganizationExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the archive's size */
                        bytes: number | null;
                        createdAt: string;
                        /** @description exports: a presigned GET of the archive, valid until expiresAt */
                        downloadUrl?: string | null;
                        error: string | null;
                        /** @description exports: when the archive is removed */
                        expiresAt: string | null;
                        finishedAt: string | null;
                        /** Format: uuid */
                        id: string;
                        /** @description exports: entries and files; imports: the report (content, workflows, invitations, embedding models, vectors, secretsToSet, problems), updated as it goes */
                        result: {
                            [key: string]: unknown;
                        } | null;
                        /** @description the archive's SHA-256 */
                        sha256: string | null;
                        /** @enum {string} */
                        status: "running" | "succeeded" | "failed" | "expired";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationExport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                exportId: string;
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the export */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the archive's size */
                        bytes: number | null;
                        createdAt: string;
                        /** @description exports: a presigned GET of the archive, valid until expiresAt */
                        downloadUrl?: string | null;
                        error: string | null;
                        /** @description exports: when the archive is removed */
                        expiresAt: string | null;
                        finishedAt: string | null;
                        /** Format: uuid */
                        id: string;
                        /** @description exports: entries and files; imports: the report (content, workflows, invitations, embedding models, vectors, secretsToSet, problems), updated as it goes */
                        result: {
                            [key: string]: unknown;
                        } | null;
                        /** @description the archive's SHA-256 */
                        sha256: string | null;
                        /** @enum {string} */
                        status: "running" | "succeeded" | "failed" | "expired";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startOrganizationImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        /** @description The archive as the `file` part */
        requestBody: {
            content: {
                "multipart/form-data": {
                    /**
                     * Format: binary
                     * @description an organization export (.tar.gz)
                     */
                    file: string;
                };
            };
        };
        responses: {
            /** @description stored and started */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the archive's size */
                        bytes: number | null;
                        createdAt: string;
                        /** @description exports: a presigned GET of the archive, valid until expiresAt */
                        downloadUrl?: string | null;
                        error: string | null;
                        /** @description exports: when the archive is removed */
                        expiresAt: string | null;
                        finishedAt: string | null;
                        /** Format: uuid */
                        id: string;
                        /** @description exports: entries and files; imports: the report (content, workflows, invitations, embedding models, vectors, secretsToSet, problems), updated as it goes */
                        result: {
                            [key: string]: unknown;
                        } | null;
                        /** @description the archive's SHA-256 */
                        sha256: string | null;
                        /** @enum {string} */
                        status: "running" | "succeeded" | "failed" | "expired";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationImport: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                importId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the import */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description the archive's size */
                        bytes: number | null;
                        createdAt: string;
                        /** @description exports: a presigned GET of the archive, valid until expiresAt */
                        downloadUrl?: string | null;
                        error: string | null;
                        /** @description exports: when the archive is removed */
                        expiresAt: string | null;
                        finishedAt: string | null;
                        /** Format: uuid */
                        id: string;
                        /** @description exports: entries and files; imports: the report (content, workflows, invitations, embedding models, vectors, secretsToSet, problems), updated as it goes */
                        result: {
                            [key: string]: unknown;
                        } | null;
                        /** @description the archive's SHA-256 */
                        sha256: string | null;
                        /** @enum {string} */
                        status: "running" | "succeeded" | "failed" | "expired";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listInvitations: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of pending invitations */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            email: string;
                            expiresAt: string;
                            /** Format: uuid */
                            id: string;
                            /** Format: uuid */
                            organizationID: string;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                            /** @enum {string} */
                            status: "pending" | "accepted" | "revoked";
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    inviteMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** Format: email */
                    email: string;
                    /**
                     * @default member
                     * @enum {string}
                     */
                    role?: "owner" | "admin" | "member" | "viewer";
                };
            };
        };
        responses: {
            /** @description invited */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        email: string;
                        expiresAt: string;
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        organizationID: string;
                        /** @enum {string} */
                        role: "owner" | "admin" | "member" | "viewer";
                        /** @enum {string} */
                        status: "pending" | "accepted" | "revoked";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    revokeInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description revoked */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resendInvitation: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                invitationId: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description resent */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        email: string;
                        expiresAt: string;
                        /** Format: uuid */
                        id: string;
                        /** Format: uuid */
                        organizationID: string;
                        /** @enum {string} */
                        role: "owner" | "admin" | "member" | "viewer";
                        /** @enum {string} */
                        status: "pending" | "accepted" | "revoked";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listMembers: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of members */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            email: string;
                            joinedAt: string;
                            name: string | null;
                            /** @enum {string} */
                            role: "owner" | "admin" | "member" | "viewer";
                            /** @description Whether the member has two-factor sign-in on; shown to roles that manage members (owner, admin) */
                            twoFactorEnabled?: boolean;
                            /** Format: uuid */
                            userID: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changeMemberRole: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userID: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    role: "owner" | "admin" | "member" | "viewer";
                };
            };
        };
        responses: {
            /** @description the member with the new role */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        email: string;
                        joinedAt: string;
                        name: string | null;
                        /** @enum {string} */
                        role: "owner" | "admin" | "member" | "viewer";
                        /** @description Whether the member has two-factor sign-in on; shown to roles that manage members (owner, admin) */
                        twoFactorEnabled?: boolean;
                        /** Format: uuid */
                        userID: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; LAST_OWNER: The organization must keep at least one owner */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    removeMember: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                userID: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description removed */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; LAST_OWNER: The organization must keep at least one owner */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    changeOrganizationPlan: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @enum {string} */
                    plan: "free" | "pro" | "enterprise";
                };
            };
        };
        responses: {
            /** @description the organization on its new plan */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        /** Format: uuid */
                        id: string;
                        name: string;
                        /** @enum {string} */
                        plan: "free" | "pro" | "enterprise";
                        /**
                         * @description the caller's role (absent for API keys' view)
                         * @enum {string}
                         */
                        role?: "owner" | "admin" | "member" | "viewer";
                        slug: string;
                        /** @enum {string} */
                        status: "active" | "deleting";
                        updatedAt: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYMENT_FAILED: The billing provider could not charge the organization (e.g. card declined); nothing changed; the message names the reason */
            402: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description settings */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        general: {
                            brandColor: string | null;
                            language: string;
                            logoUrl: string | null;
                            name: string;
                            slug: string;
                            timezone: string;
                        };
                        /** @description only for owner and admin */
                        integration?: {
                            /** @description read-only: where API keys are managed; accepted unchanged in an update */
                            apiKeys: {
                                href: string;
                            };
                            /** @description rate limits on destination hosts (docs/runs.md#rate-limits-on-destinations) */
                            rateLimits: components["schemas"]["HostRateLimit"][];
                            /** @description secrets masked */
                            sso: unknown;
                            thirdParty: {
                                [key: string]: {
                                    config: {
                                        [key: string]: string;
                                    };
                                    enabled: boolean;
                                    /** @description masked */
                                    secrets: {
                                        [key: string]: string;
                                    };
                                };
                            };
                            webhooks: {
                                enabled: boolean;
                                events: string[];
                                id: string;
                                /** @description masked */
                                secret: string;
                                url: string;
                            }[];
                        };
                        security: {
                            auditLogRetentionDays: number;
                            /** @description CIDR blocks; empty = all addresses; enforced on every request to this organization */
                            ipAllowlist: string[];
                            /** @description members without two-factor sign-in are refused here (403 TWO_FACTOR_REQUIRED); API keys are not affected */
                            requireTwoFactor: boolean;
                            /** @description idle limit of sessions acting in this organization, in minutes; null = the platform idle timeout */
                            sessionTimeoutMinutes: number | null;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateSettings: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    general?: {
                        brandColor?: string | null;
                        language?: string;
                        logoUrl?: string | null;
                        name?: string;
                        slug?: string;
                        timezone?: string;
                    };
                    integration?: {
                        /** @description read-only: where the API keys are managed (their own endpoints). Accepted unchanged and ignored, so a read document can be sent back; a different value is refused (UNPROCESSABLE naming integration.apiKeys.href) */
                        apiKeys?: {
                            href: string;
                        };
                        /** @description replaces the list: rate limits on destination hosts, shared by every run of the organization (docs/runs.md#rate-limits-on-destinations); one per host (with a port, for that port only) */
                        rateLimits?: components["schemas"]["HostRateLimitInput"][];
                        /** @description SSO configuration; OpenID Connect sign-in at GET /api/auth/sso/{slug}/authorize (docs/auth.md#single-sign-on-openid-connect) */
                        sso?: {
                            enabled: boolean;
                            oidc?: {
                                /** @description e-mail domains allowed to sign in (the ID token's verified e-mail); empty = any */
                                allowedEmailDomains?: string[];
                                clientId: string;
                                /** @description kept when omitted; prefer clientSecretName */
                                clientSecret?: string;
                                /** @description name of the organization secret (PUT /api/v1/organizations/{id}/secrets/{name}) holding the client secret; used instead of clientSecret */
                                clientSecretName?: string | null;
                                /**
                                 * @description role of a member created just in time (default member)
                                 * @enum {string}
                                 */
                                defaultRole?: "admin" | "member" | "viewer";
                                /** Format: uri */
                                issuer: string;
                                /** @description create the account and the membership at the first sign-in (default false: only existing members may sign in) */
                                jitProvisioning?: boolean;
                            };
                            /** @enum {string} */
                            protocol: "oidc" | "saml";
                            saml?: {
                                certificate: string;
                                entityId: string;
                                /** Format: uri */
                                ssoUrl: string;
                            };
                        } | null;
                        /** @description per integration: an object updates it, null removes it */
                        thirdParty?: {
                            [key: string]: {
                                /** @description non-secret values, replaced as a whole */
                                config?: {
                                    [key: string]: string;
                                };
                                enabled?: boolean;
                                /** @description merged key by key: a string sets a value, null removes it */
                                secrets?: {
                                    [key: string]: string | null;
                                };
                            } | null;
                        };
                        /** @description replaces the list of endpoints */
                        webhooks?: {
                            /** @default true */
                            enabled?: boolean;
                            events: string[];
                            /**
                             * Format: uuid
                             * @description an existing endpoint to keep (its secret is kept unless a new one is given or rotateSecret is set)
                             */
                            id?: string;
                            /** @description when the secret changes, minutes the previous one keeps signing alongside it (default 1440; 0 = at once) */
                            previousSecretOverlapMinutes?: number;
                            /** @description existing endpoint: generate a new secret (shown once in the answer) */
                            rotateSecret?: boolean;
                            /** @description signing secret: whsec_ + base64 of 24-64 bytes (422 otherwise); left out on a new endpoint, one is generated and shown once */
                            secret?: string;
                            /** Format: uri */
                            url: string;
                        }[];
                    };
                    security?: {
                        auditLogRetentionDays?: number;
                        /** @description empty = every address allowed */
                        ipAllowlist?: string[];
                        /** @description members without two-factor sign-in are refused here (403 TWO_FACTOR_REQUIRED) until they enrol; API keys are not affected */
                        requireTwoFactor?: boolean;
                        /** @description minutes a session may stay unused while it acts in this organization (active organization or path); shortens the platform's idle timeout, never extends it; a refused session must log in again; null = the platform's */
                        sessionTimeoutMinutes?: number | null;
                    };
                };
            };
        };
        responses: {
            /** @description the settings after the update */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        general: {
                            brandColor: string | null;
                            language: string;
                            logoUrl: string | null;
                            name: string;
                            slug: string;
                            timezone: string;
                        };
                        /** @description webhook signing secrets generated by this request (new endpoint without a secret, rotateSecret): shown this once */
                        generatedSecrets?: {
                            /** Format: uuid */
                            endpointId: string;
                            secret: string;
                        }[];
                        /** @description only for owner and admin */
                        integration?: {
                            /** @description read-only: where API keys are managed; accepted unchanged in an update */
                            apiKeys: {
                                href: string;
                            };
                            /** @description rate limits on destination hosts (docs/runs.md#rate-limits-on-destinations) */
                            rateLimits: components["schemas"]["HostRateLimit"][];
                            /** @description secrets masked */
                            sso: unknown;
                            thirdParty: {
                                [key: string]: {
                                    config: {
                                        [key: string]: string;
                                    };
                                    enabled: boolean;
                                    /** @description masked */
                                    secrets: {
                                        [key: string]: string;
                                    };
                                };
                            };
                            webhooks: {
                                enabled: boolean;
                                events: string[];
                                id: string;
                                /** @description masked */
                                secret: string;
                                url: string;
                            }[];
                        };
                        security: {
                            auditLogRetentionDays: number;
                            /** @description CIDR blocks; empty = all addresses; enforced on every request to this organization */
                            ipAllowlist: string[];
                            /** @description members without two-factor sign-in are refused here (403 TWO_FACTOR_REQUIRED); API keys are not affected */
                            requireTwoFactor: boolean;
                            /** @description idle limit of sessions acting in this organization, in minutes; null = the platform idle timeout */
                            sessionTimeoutMinutes: number | null;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment; HUMAN_REQUIRED: A person must do this from a signed-in session: API keys may not weaken security settings, create admin keys or decide on approvals */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; SLUG_TAKEN: The organization slug is already in use */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNPROCESSABLE: The request is well-formed but semantically invalid; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    transferOwnership: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * Format: uuid
                     * @description an existing member
                     */
                    userID: string;
                };
            };
        };
        responses: {
            /** @description transferred */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getOrganizationUsage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description usage */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description org-scoped API requests this month */
                        apiCalls: {
                            /** @description null = unlimited */
                            limit: number | null;
                            used: number;
                        };
                        /** @description members plus pending invitations count toward the limit */
                        members: {
                            /** @description null = unlimited */
                            limit: number | null;
                            pendingInvitations: number;
                            used: number;
                        };
                        /** Format: uuid */
                        organizationID: string;
                        /** @description calendar month (UTC), YYYY-MM */
                        period: string;
                        /** @enum {string} */
                        plan: "free" | "pro" | "enterprise";
                        /** @description bytes of every stored content version (what the storage quota counts; derived files are not counted), and the plan quota (null = unlimited) */
                        storage: {
                            /** @description null = unlimited */
                            limit: number | null;
                            used: number;
                        };
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listAllRuns: {
        parameters: {
            query?: {
                /** @description only runs created at or after this time (ISO 8601) */
                created_after?: string;
                /** @description only runs created before this time (ISO 8601) */
                created_before?: string;
                cursor?: string;
                limit?: number;
                /** @description only runs started with this parameter value: `name=value`, e.g. `customer=acme`. The value matches a string parameter equal to it, or a number or boolean parameter spelt so (`count=3`, `dryRun=true`); top-level parameters only, compared exactly. */
                parameter?: string;
                /** @description only this run (a run id pasted from a log or a link: the list finds its workflow) */
                run_id?: string;
                status?: "pending" | "running" | "completed" | "failed" | "cancelled";
                /** @description only runs started this way: `manual`, `webhook`, `schedule`, `event`, `retry`, `dead_letter_replay`, `subworkflow` */
                trigger?: string;
                /** @description only runs of this workflow */
                workflow_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of runs (without node states) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RunSummary"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunStats: {
        parameters: {
            query?: {
                /** @description how many days back, today included (1–90) */
                days?: number;
                /** @description where days begin and end: an IANA time zone (default UTC) */
                time_zone?: string;
                /** @description only runs of this workflow */
                workflow_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the statistics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["RunStats"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listSecrets: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description every secret */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            createdAt: string;
                            createdBy: string | null;
                            /** @description last 4 characters of values of 12 characters or more, else null */
                            last4: string | null;
                            name: string;
                            updatedAt: string;
                            updatedBy: string | null;
                        }[];
                        nextCursor: null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    putSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the secret's name: an upper-case letter, then up to 63 upper-case letters, digits or underscores */
                name: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the secret value; stored encrypted and never returned by any route */
                    value: string;
                };
            };
        };
        responses: {
            /** @description replaced */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        createdBy: string | null;
                        /** @description last 4 characters of values of 12 characters or more, else null */
                        last4: string | null;
                        name: string;
                        updatedAt: string;
                        updatedBy: string | null;
                    };
                };
            };
            /** @description created */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        createdAt: string;
                        createdBy: string | null;
                        /** @description last 4 characters of values of 12 characters or more, else null */
                        last4: string | null;
                        name: string;
                        updatedAt: string;
                        updatedBy: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; CONFLICT: The request conflicts with the current state */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the secret's name: an upper-case letter, then up to 63 upper-case letters, digits or underscores */
                name: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listTools: {
        parameters: {
            query?: {
                category?: "data" | "ai" | "file" | "http" | "database" | "notification" | "content" | "custom";
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description every tool */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Tool"][];
                        nextCursor: null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    testTool: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description the tool id, e.g. json_transform */
                tool: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description the node's tool config, as in a workflow's tool node (`config.config`): `${...}` templates and `{{secret.NAME}}` references are resolved as in a run */
                    config?: {
                        [key: string]: unknown;
                    };
                    /** @description sample input: values a node receives from earlier nodes, set by name over the config (as `inputs` bindings do) */
                    input?: {
                        [key: string]: unknown;
                    };
                    /** @description attempts of a retryable failure (default 1) */
                    max_attempts?: number;
                    /** @description outputs of earlier nodes the templates see as `${<node>.<output>}`: `{ "<node>": { "<output>": value } }` */
                    nodes?: {
                        [key: string]: {
                            [key: string]: unknown;
                        };
                    };
                    /** @description run parameters the templates see as `${params.<name>}` */
                    parameters?: {
                        [key: string]: unknown;
                    };
                    /** @description time for the whole test, retries included (default 30 s or TOOLS_TEST_RUN_MAX_TIMEOUT if lower; at most that) */
                    timeout_ms?: number;
                };
            };
        };
        responses: {
            /** @description the test ran: its outcome */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description attempts made */
                        attempts: number;
                        duration_ms: number;
                        /** @description the failure (failed): the code a run node would record, e.g. HTTP_404, INVALID_INPUT, TIMEOUT */
                        error?: {
                            code: string;
                            message: string;
                        };
                        /** @description the tool output (completed); larger than RUN_LARGE_OUTPUT_BYTES: `{ $ref, bytes, download_url }` as in runs */
                        output?: unknown;
                        /**
                         * @description `failed`: the tool failed (see `error`), not the request
                         * @enum {string}
                         */
                        status: "completed" | "failed";
                        tool: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description TOOL_INPUT_INVALID: A tool test's config and sample input do not match the tool's input schema; see details; INLINE_CREDENTIAL: A node config holds a literal credential; store it as a secret and write {{secret.NAME}}; see details; UNKNOWN_SECRET: A node config references a secret the organization does not have; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookEndpoints: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the endpoints */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            autoDisabledAt: string | null;
                            consecutiveFailures: number;
                            enabled: boolean;
                            events: string[];
                            /** @description failed attempts, also those inside a delivery that later succeeded */
                            failedAttempts: number;
                            /** Format: uuid */
                            id: string;
                            lastAttemptError: string | null;
                            lastAttemptFailedAt: string | null;
                            lastFailureAt: string | null;
                            /** @description names the operator setting that would allow the destination */
                            lastPolicyRefusal: string | null;
                            lastPolicyRefusalAt: string | null;
                            lastSuccessAt: string | null;
                            /** @description deliveries the outbound policy refused (not counted toward auto-disable) */
                            policyRefusals: number;
                            /** @description during a secret rotation: deliveries carry a second signature with the previous secret until then */
                            previousSecretExpiresAt: string | null;
                            url: string;
                        }[];
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWebhookDeliveries: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                status?: "pending" | "succeeded" | "failed";
            };
            header?: never;
            path: {
                /** @description webhook endpoint id (integration settings) */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of deliveries */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: {
                            /** @description single delivery only */
                            attemptLog?: {
                                at: string;
                                attempt: number;
                                error: string | null;
                                latencyMs: number;
                                /** @description true: the outbound policy refused the destination (nothing was sent) */
                                refusedByPolicy?: boolean;
                                responseCode: number | null;
                            }[];
                            attempts: number;
                            /** @description single delivery only: the signed body */
                            body?: unknown;
                            completedAt: string | null;
                            createdAt: string;
                            /** Format: uuid */
                            endpointId: string;
                            /** Format: uuid */
                            eventId: string;
                            eventType: string;
                            /** Format: uuid */
                            id: string;
                            lastError: string | null;
                            /** @description duration of the last attempt */
                            latencyMs: number | null;
                            redeliveryOf: string | null;
                            /** @description HTTP status of the last attempt (null: no answer) */
                            responseCode: number | null;
                            /** @enum {string} */
                            status: "pending" | "succeeded" | "failed";
                            url: string;
                        }[];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWebhookDelivery: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description delivery id */
                delivery_id: string;
                /** @description webhook endpoint id (integration settings) */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the delivery */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description single delivery only */
                        attemptLog?: {
                            at: string;
                            attempt: number;
                            error: string | null;
                            latencyMs: number;
                            /** @description true: the outbound policy refused the destination (nothing was sent) */
                            refusedByPolicy?: boolean;
                            responseCode: number | null;
                        }[];
                        attempts: number;
                        /** @description single delivery only: the signed body */
                        body?: unknown;
                        completedAt: string | null;
                        createdAt: string;
                        /** Format: uuid */
                        endpointId: string;
                        /** Format: uuid */
                        eventId: string;
                        eventType: string;
                        /** Format: uuid */
                        id: string;
                        lastError: string | null;
                        /** @description duration of the last attempt */
                        latencyMs: number | null;
                        redeliveryOf: string | null;
                        /** @description HTTP status of the last attempt (null: no answer) */
                        responseCode: number | null;
                        /** @enum {string} */
                        status: "pending" | "succeeded" | "failed";
                        url: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    redeliverWebhook: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description delivery id */
                delivery_id: string;
                /** @description webhook endpoint id (integration settings) */
                endpoint_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the new delivery (pending) */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @description single delivery only */
                        attemptLog?: {
                            at: string;
                            attempt: number;
                            error: string | null;
                            latencyMs: number;
                            /** @description true: the outbound policy refused the destination (nothing was sent) */
                            refusedByPolicy?: boolean;
                            responseCode: number | null;
                        }[];
                        attempts: number;
                        /** @description single delivery only: the signed body */
                        body?: unknown;
                        completedAt: string | null;
                        createdAt: string;
                        /** Format: uuid */
                        endpointId: string;
                        /** Format: uuid */
                        eventId: string;
                        eventType: string;
                        /** Format: uuid */
                        id: string;
                        lastError: string | null;
                        /** @description duration of the last attempt */
                        latencyMs: number | null;
                        redeliveryOf: string | null;
                        /** @description HTTP status of the last attempt (null: no answer) */
                        responseCode: number | null;
                        /** @enum {string} */
                        status: "pending" | "succeeded" | "failed";
                        url: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkflows: {
        parameters: {
            query?: {
                category?: string;
                cursor?: string;
                limit?: number;
                status?: "draft" | "active" | "paused" | "archived";
                /** @description workflows carrying this tag */
                tag?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of workflows */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["Workflow"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    createWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowCreate"] | components["schemas"]["WorkflowDefinitionDocument"];
                "application/yaml": components["schemas"]["WorkflowCreate"] | components["schemas"]["WorkflowDefinitionDocument"];
            };
        };
        responses: {
            /** @description the created workflow */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WORKFLOW_INVALID: The workflow definition is invalid; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the workflow */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    updateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowUpdate"] | components["schemas"]["WorkflowDefinitionDocument"];
                "application/yaml": components["schemas"]["WorkflowUpdate"] | components["schemas"]["WorkflowDefinitionDocument"];
            };
        };
        responses: {
            /** @description the updated workflow */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WORKFLOW_INVALID: The workflow definition is invalid; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    deleteWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description deleted */
            204: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    activateWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the workflow with its new status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    archiveWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the workflow with its new status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getFlowState: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the flow state */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["FlowState"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    pauseWorkflow: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the workflow with its new status */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Workflow"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listRuns: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
                status?: "pending" | "running" | "completed" | "failed" | "cancelled";
            };
            header?: never;
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of runs (without node states) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["RunSummary"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    startRun: {
        parameters: {
            query?: {
                /** @description Run and wait: answer once the run has finished (200, the finished run with results and errors), or after this long with the run as it is (202, Location). `30s`, `1500ms`, or seconds (`30`); at most RUN_WAIT_MAX (60 s by default; longer waits are shortened to it). Same as the header `Prefer: wait=<seconds>` (RFC 7240). */
                wait?: string;
            };
            header?: {
                /** @description Repeat the request safely: the same key with the same request within 24 hours answers the first response (header `Idempotent-Replayed: true`); the same key with a different request answers 409 IDEMPOTENCY_CONFLICT. */
                "Idempotency-Key"?: string;
            };
            path: {
                id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /**
                     * @description parameter name → value, as declared by the workflow
                     * @default {}
                     */
                    parameters?: {
                        [key: string]: unknown;
                    };
                    /** @description 1 (first) to 5 (last): the order in which the workflow's flow control starts queued runs; default the workflow's (docs/runs.md#priority) */
                    priority?: number;
                };
            };
        };
        responses: {
            /** @description run and wait: the run finished within the wait (completed, failed or cancelled); or, with header `Loom-Singleton: existing`, the open run of the same singleton key, answered instead of a new one */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description the created run (pending); no wait was asked for */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description run and wait: the run is still open after the wait; Location points at it */
            202: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; IDEMPOTENCY_CONFLICT: An Idempotency-Key was reused with a different request; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_PARAMETERS: Run parameters do not match the declared parameters; FLOW_KEY_INVALID: A flow control key expression of the workflow failed for this run's parameters or gave no string, number or boolean */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENGINE_MISCONFIGURED: The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    approveRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
                /** @description run id (UUID) */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description optional note */
                    comment?: string;
                };
            };
        };
        responses: {
            /** @description the run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        status: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment; HUMAN_REQUIRED: A person must do this from a signed-in session: API keys may not weaken security settings, create admin keys or decide on approvals */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    cancelRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the run after cancellation */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunPictureModel: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id */
                id: string;
                /** @description run id */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the picture and its nodes */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        nodes: {
                            [key: string]: {
                                attempts: number;
                                branchOf?: {
                                    branch: string;
                                    parallel: string;
                                };
                                /** @description subworkflow nodes: the child run and its picture page */
                                childRun?: {
                                    picture: string;
                                    runId: string;
                                    workflowId: string;
                                };
                                error: {
                                    code: string;
                                    message: string;
                                } | null;
                                finishedAt: string | null;
                                id: string;
                                /** @description tool nodes: the tool config as declared (`${...}` unevaluated) with the values of its `from` bindings; other nodes: their config */
                                input: {
                                    /** @description values kept in object storage: a presigned link to the whole value */
                                    downloadUrl?: string;
                                    /** @description the value as indented JSON, cut to its first 2,000 characters when `truncated` */
                                    text: string;
                                    /** @description length of the whole JSON text */
                                    totalChars: number;
                                    truncated: boolean;
                                } | null;
                                inputNote: string;
                                /** @description loop nodes: items in the list (when known), items done, failed item positions */
                                loop?: {
                                    done: number | null;
                                    failedItems: number[];
                                    text: string;
                                    total: number | null;
                                };
                                name?: string;
                                /** @description null until the node has an output */
                                output: {
                                    /** @description values kept in object storage: a presigned link to the whole value */
                                    downloadUrl?: string;
                                    /** @description the value as indented JSON, cut to its first 2,000 characters when `truncated` */
                                    text: string;
                                    /** @description length of the whole JSON text */
                                    totalChars: number;
                                    truncated: boolean;
                                } | null;
                                parallel?: {
                                    branches: {
                                        id: string;
                                        nodes: string[];
                                    }[];
                                    joinStrategy: string;
                                    n?: number;
                                };
                                startedAt: string | null;
                                status: string;
                                tool?: string;
                                type: string;
                                /** @description set when this node's values were left out to keep the picture small */
                                valuesOmitted?: string;
                                via?: string;
                            };
                        };
                        /** @description the server time the picture was drawn at (running durations count on from it) */
                        now: string;
                        run: {
                            completed_at: string | null;
                            duration: number | null;
                            id: string;
                            /** @description subworkflow runs: the run that started this one and its picture page */
                            parent: {
                                node_id: string;
                                picture: string;
                                run_id: string;
                                workflow_id: string;
                            } | null;
                            started_at: string | null;
                            status: string;
                            /** @description the execution in Temporal Web */
                            temporal: string | null;
                            workflow_id: string;
                            workflow_version: number;
                        };
                        /** @description the picture (the same as picture.svg) */
                        svg: string;
                        title: string;
                    };
                };
            };
            /** @description not modified: the picture named by If-None-Match is still current */
            304: {
                headers: {
                    [name: string]: unknown;
                };
                content?: never;
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getRunPicture: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id */
                id: string;
                /** @description run id */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the picture */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "image/svg+xml": string;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rejectRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
                /** @description run id (UUID) */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": {
                    /** @description why (required) */
                    comment: string;
                };
            };
        };
        responses: {
            /** @description the run */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        id: string;
                        status: string;
                    } & {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment; HUMAN_REQUIRED: A person must do this from a signed-in session: API keys may not weaken security settings, create admin keys or decide on approvals */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rerunRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["RerunRequest"];
            };
        };
        responses: {
            /** @description the new run */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description INVALID_PARAMETERS: Run parameters do not match the declared parameters */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENGINE_MISCONFIGURED: The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    retryRun: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                id: string;
                run_id: string;
            };
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": Record<string, never>;
            };
        };
        responses: {
            /** @description the new run */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Run"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; RUN_NOT_RETRYABLE: Only failed or cancelled runs can be retried; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description ENGINE_MISCONFIGURED: The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what */
            500: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkflowTriggers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the triggers of the current version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TriggerView"][];
                        status: string;
                        workflow_id: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    rotateWebhookTriggerSecret: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
                /** @description the trigger's key: its id, else <type>-<position> */
                key: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the new secret */
            201: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        authentication: string;
                        note: string;
                        rotated: boolean;
                        secret: string;
                        trigger: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first; INVALID_STATE: The resource is not in a state that allows this action */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    syncWorkflowTriggers: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the triggers after the sync */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["TriggerView"][];
                        status: string;
                        workflow_id: string;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    listWorkflowVersions: {
        parameters: {
            query?: {
                cursor?: string;
                limit?: number;
            };
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description a page of versions */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        data: components["schemas"]["WorkflowVersion"][];
                        nextCursor: string | null;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    getWorkflowVersion: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id (UUID) */
                id: string;
                /** @description version number */
                version: number;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the version */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowVersion"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    validateWorkflow: {
        parameters: {
            query?: {
                /** @description validate the body as an update of this workflow (its own id counts for self-references) */
                workflow_id?: string;
            };
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody: {
            content: {
                "application/json": components["schemas"]["WorkflowCreate"] | components["schemas"]["WorkflowUpdate"] | components["schemas"]["WorkflowDefinitionDocument"];
                "application/yaml": components["schemas"]["WorkflowCreate"] | components["schemas"]["WorkflowUpdate"] | components["schemas"]["WorkflowDefinitionDocument"];
            };
        };
        responses: {
            /** @description the definition is valid */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["WorkflowValidation"];
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details; INVALID_JSON: The body is not valid JSON */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication; INVALID_TOKEN: Token validation failed; SESSION_EXPIRED: Session has expired */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description FORBIDDEN: Insufficient permissions; IP_NOT_ALLOWED: The caller's IP address is not in the organization's allowlist; TWO_FACTOR_REQUIRED: The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment */
            403: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NO_ACTIVE_ORGANIZATION: The session has no active organization; switch to or create one first */
            409: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description PAYLOAD_TOO_LARGE: The body or file is larger than allowed */
            413: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNSUPPORTED_MEDIA_TYPE: The body has a content type this endpoint does not accept */
            415: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description WORKFLOW_INVALID: The workflow definition is invalid; see details; INLINE_CREDENTIAL: A node config holds a literal credential; store it as a secret and write {{secret.NAME}}; see details; UNKNOWN_SECRET: A node config references a secret the organization does not have; see details */
            422: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description RATE_LIMITED: Too many requests; retry after the Retry-After header; QUOTA_EXCEEDED: A plan quota of the organization is exhausted */
            429: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    decideApprovalPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    consolePage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    consoleAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description file name, as the console page names it */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript, CSS or SVG */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    apiReferencePage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the reference page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    apiReferenceAsset: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description file name */
                file: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the file (JavaScript, CSS or PNG) */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/octet-stream": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description NOT_FOUND: No such resource (or not visible to the caller) */
            404: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    health: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description alive */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        /** @constant */
                        status: "ok";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    acceptInvitationPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    prometheusMetrics: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description metrics */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/plain; version=0.0.4": string;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description UNAUTHORIZED: Missing or invalid authentication */
            401: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    openApiDocument: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the document */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        [key: string]: unknown;
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    readiness: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description all services reachable */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": {
                        services: {
                            minio: {
                                /** @description temporal: `frontend`, `namespace`, `searchAttributes` (Loom's run attributes registered with their types), `history` */
                                checks?: {
                                    [key: string]: {
                                        /** @description `unreachable`, or the configuration problem (the namespace or search attributes to create) */
                                        error?: string;
                                        /** @enum {string} */
                                        kind?: "configuration" | "unreachable";
                                        ok: boolean;
                                    };
                                };
                                /** @description `unreachable`, or the configuration problem (the namespace or search attributes to create) */
                                error?: string;
                                /** @enum {string} */
                                kind?: "configuration" | "unreachable";
                                latencyMs: number;
                                ok: boolean;
                            };
                            postgres: {
                                /** @description temporal: `frontend`, `namespace`, `searchAttributes` (Loom's run attributes registered with their types), `history` */
                                checks?: {
                                    [key: string]: {
                                        /** @description `unreachable`, or the configuration problem (the namespace or search attributes to create) */
                                        error?: string;
                                        /** @enum {string} */
                                        kind?: "configuration" | "unreachable";
                                        ok: boolean;
                                    };
                                };
                                /** @description `unreachable`, or the configuration problem (the namespace or search attributes to create) */
                                error?: string;
                                /** @enum {string} */
                                kind?: "configuration" | "unreachable";
                                latencyMs: number;
                                ok: boolean;
                            };
                            temporal: {
                                /** @description temporal: `frontend`, `namespace`, `searchAttributes` (Loom's run attributes registered with their types), `history` */
                                checks?: {
                                    [key: string]: {
                                        /** @description `unreachable`, or the configuration problem (the namespace or search attributes to create) */
                                        error?: string;
                                        /** @enum {string} */
                                        kind?: "configuration" | "unreachable";
                                        ok: boolean;
                                    };
                                };
                                /** @description `unreachable`, or the configuration problem (the namespace or search attributes to create) */
                                error?: string;
                                /** @enum {string} */
                                kind?: "configuration" | "unreachable";
                                latencyMs: number;
                                ok: boolean;
                            };
                        };
                        /** @enum {string} */
                        status: "ready" | "unavailable";
                    };
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    resetPasswordPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    accountPagesStylesheet: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account pages' stylesheet */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/css": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    accountPagesScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description The account pages' script */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    runPictureScript: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description JavaScript */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/javascript": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    runPicturePage: {
        parameters: {
            query?: never;
            header?: never;
            path: {
                /** @description workflow id */
                id: string;
                /** @description run id */
                run_id: string;
            };
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
    verifyEmailPage: {
        parameters: {
            query?: never;
            header?: never;
            path?: never;
            cookie?: never;
        };
        requestBody?: never;
        responses: {
            /** @description the page */
            200: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "text/html": unknown;
                };
            };
            /** @description VALIDATION_ERROR: The request does not match the schema; see details */
            400: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
            /** @description SERVICE_UNAVAILABLE: A backing service is unavailable; retry later */
            503: {
                headers: {
                    [name: string]: unknown;
                };
                content: {
                    "application/json": components["schemas"]["Error"];
                };
            };
        };
    };
}
