import { boundedDetails, boundedMessage } from './echo';

/**
 * The one catalogue of error codes with their HTTP status. Every error the API returns uses one of these codes
 * in the envelope `{ "error": { "code", "message", "details"? } }`. Add new codes here, nowhere else.
 */
export const ERROR_CATALOG = {
  // Request shape
  VALIDATION_ERROR: { status: 400, description: 'The request does not match the schema; see details' },
  INVALID_JSON: { status: 400, description: 'The body is not valid JSON' },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, description: 'The body has a content type this endpoint does not accept' },
  PAYLOAD_TOO_LARGE: { status: 413, description: 'The body or file is larger than allowed' },
  NOT_FOUND: { status: 404, description: 'No such resource (or not visible to the caller)' },
  METHOD_NOT_ALLOWED: { status: 405, description: 'The path exists but not with this method' },
  CONFLICT: { status: 409, description: 'The request conflicts with the current state' },
  INVALID_STATE: { status: 409, description: 'The resource is not in a state that allows this action' },
  UNPROCESSABLE: { status: 422, description: 'The request is well-formed but semantically invalid; see details' },
  IDEMPOTENCY_CONFLICT: { status: 409, description: 'An Idempotency-Key was reused with a different request' },

  // Authentication (the spec's codes)
  INVALID_CREDENTIALS: { status: 401, description: 'Wrong e-mail or password' },
  USER_EXISTS: { status: 409, description: 'E-mail already registered' },
  INVALID_TOKEN: { status: 401, description: 'Token validation failed' },
  TOKEN_EXPIRED: { status: 401, description: 'Token has expired' },
  SESSION_EXPIRED: { status: 401, description: 'Session has expired' },
  UNAUTHORIZED: { status: 401, description: 'Missing or invalid authentication' },
  FORBIDDEN: { status: 403, description: 'Insufficient permissions' },
  WEAK_PASSWORD: { status: 400, description: 'The password does not meet the password policy' },
  INVALID_TWO_FACTOR_CODE: { status: 401, description: 'The two-factor code (authenticator or recovery code) is wrong, spent or expired' },
  SSO_FAILED: { status: 401, description: 'Single sign-on failed: the identity provider refused, or its answer did not verify; see the message' },
  LAST_SIGN_IN_METHOD: {
    status: 409,
    description: 'The identity is the only way into the account (it has no password): set one before unlinking it',
  },
  SSO_ACCOUNT_EXISTS: {
    status: 409,
    description: 'An account with this e-mail exists and this identity is not linked to it: sign in normally, then link it at POST /api/auth/sso/{slug}/link',
  },
  SSO_DOMAIN_NOT_VERIFIED: {
    status: 403,
    description: "The e-mail's domain is not verified by the organization, so its single sign-on may not create or join an account",
  },
  SSO_IDENTITY_LINKED: { status: 409, description: 'The identity is already linked to another account (or the account to another identity of this provider)' },
  SSO_SESSION_SCOPED: {
    status: 403,
    description: "The session was opened by an organization's single sign-on and acts in that organization only; sign in with a password for others",
  },
  TWO_FACTOR_REQUIRED: {
    status: 403,
    description: 'The organization requires two-factor sign-in and the user has not enabled it; enrol with POST /api/auth/2fa/enrolment',
  },
  HUMAN_REQUIRED: {
    status: 403,
    description: 'A person must do this from a signed-in session: API keys may not weaken security settings, create admin keys or decide on approvals',
  },

  // Tenancy, quotas and abuse
  NO_ACTIVE_ORGANIZATION: {
    status: 409,
    description: 'The session has no active organization; switch to or create one first',
  },
  ORGANIZATION_LIMIT: { status: 409, description: 'The user already belongs to the maximum number of organizations' },
  SLUG_TAKEN: { status: 409, description: 'The organization slug is already in use' },
  QUOTA_EXCEEDED: { status: 429, description: 'A plan quota of the organization is exhausted' },
  PAYMENT_FAILED: {
    status: 402,
    description: 'The billing provider could not charge the organization (e.g. card declined); nothing changed; the message names the reason',
  },
  RATE_LIMITED: { status: 429, description: 'Too many requests; retry after the Retry-After header' },
  IP_NOT_ALLOWED: { status: 403, description: "The caller's IP address is not in the organization's allowlist" },
  LAST_OWNER: { status: 409, description: 'The organization must keep at least one owner' },
  INVITATION_EXPIRED: { status: 410, description: 'The invitation has expired, was revoked or was already used' },
  DOMAIN_CLAIMED: { status: 409, description: 'Another organization has already verified this domain' },
  DOMAIN_NOT_VERIFIED: { status: 422, description: "The domain's DNS does not hold the verification TXT record (yet); see the message" },

  // Workflows
  WORKFLOW_INVALID: { status: 422, description: 'The workflow definition is invalid; see details' },
  INVALID_PARAMETERS: { status: 422, description: 'Run parameters do not match the declared parameters' },
  FLOW_KEY_INVALID: {
    status: 422,
    description: "A flow control key expression of the workflow failed for this run's parameters or gave no string, number or boolean",
  },
  RUN_NOT_RETRYABLE: { status: 409, description: 'Only failed or cancelled runs can be retried' },
  INLINE_CREDENTIAL: {
    status: 422,
    description: 'A node config holds a literal credential; store it as a secret and write {{secret.NAME}}; see details',
  },
  UNKNOWN_SECRET: { status: 422, description: 'A node config references a secret the organization does not have; see details' },
  TOOL_INPUT_INVALID: {
    status: 422,
    description: "A tool test's config and sample input do not match the tool's input schema; see details",
  },

  // Content
  RANGE_NOT_SATISFIABLE: { status: 416, description: 'The Range header does not fit the object' },
  UPSTREAM_ERROR: { status: 502, description: 'An external provider (e.g. an embedding endpoint) failed' },

  // Expressions (JSONata, CEL, regular expressions; lib/expressions/sandbox)
  INVALID_REGEX: { status: 400, description: 'The regular expression does not compile with RE2 (no backreferences or lookaround) or is too long' },
  EXPRESSION_TIMEOUT: { status: 422, description: 'The expression ran past its deadline and was stopped' },
  EXPRESSION_TOO_COMPLEX: {
    status: 422,
    description: 'The expression recursed too deeply, built too long a sequence or used too much memory',
  },

  // Server side
  SERVICE_UNAVAILABLE: { status: 503, description: 'A backing service is unavailable; retry later' },
  ENGINE_MISCONFIGURED: {
    status: 500,
    description: 'The workflow engine is reachable but not set up for this service (its namespace or a search attribute is missing): retrying does not help until an operator fixes it; the message names what',
  },
  INTERNAL_ERROR: { status: 500, description: 'Unexpected server error' },
} as const satisfies Record<string, { status: number; description: string }>;

export type ErrorCode = keyof typeof ERROR_CATALOG;

export interface ErrorDetail {
  path: string;
  problem: string;
}

export class AppError extends Error {
  readonly status: number;
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly details?: ErrorDetail[],
    readonly headers?: Record<string, string>,
  ) {
    super(message);
    this.name = 'AppError';
    this.status = ERROR_CATALOG[code].status;
  }
}

export const notFound = (what = 'resource'): AppError => new AppError('NOT_FOUND', `${what} not found`);
export const forbidden = (message = 'insufficient permissions'): AppError => new AppError('FORBIDDEN', message);
export const validationError = (message: string, details?: ErrorDetail[]): AppError =>
  new AppError('VALIDATION_ERROR', message, details);

export interface ErrorEnvelope {
  error: { code: ErrorCode; message: string; details?: ErrorDetail[]; request_id?: string };
}

/** The envelope; `requestId` (the response's X-Request-Id) lets a client quote the failing request in a report. */
export function envelope(err: AppError, requestId?: string): ErrorEnvelope {
  return {
    error: {
      code: err.code,
      // Bounded whatever built the error: messages and details quote client input (lib/echo.ts).
      message: boundedMessage(err.message),
      ...(err.details ? { details: boundedDetails(err.details) } : {}),
      ...(requestId ? { request_id: requestId } : {}),
    },
  };
}
