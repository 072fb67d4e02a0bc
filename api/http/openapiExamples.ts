import { ERROR_CATALOG, type ErrorCode, type ErrorDetail } from '../../lib/errors';

/**
 * What the OpenAPI document shows beside the schemas: the tags' descriptions, an example of every request body (by
 * operationId) and an example answer for every error code. test/unit/openapiDocument.test.ts ("examples") fails for a route whose
 * body has no example here (and checks each example against the route's own zod schema), for a tag without a
 * description and for an error code without an example; the Redocly lint (scripts/lint-openapi.ts) checks them
 * against the document's schemas.
 */

/** Every tag an operation uses, in the order the document lists them. */
export const TAGS: Record<string, string> = {
  auth: 'Accounts and sessions: register, log in, refresh, two-factor sign-in, single sign-on, password reset',
  organizations: 'Organizations (tenants): create, switch to with POST /api/auth/switch-organization, plan and billing',
  members: 'Members of an organization and their roles',
  invitations: 'Inviting people into an organization by e-mail, and accepting',
  settings: "An organization's settings: general, security (2FA, IP allowlist, session timeout), integrations",
  'api-keys': 'Organization API keys (`loom_...`) for machine clients; sent as a bearer token or X-API-Key',
  audit: "The organization's audit log",
  workflows: 'Workflows: a DAG of nodes with triggers, parameters and error handling, versioned on every change',
  tools: 'The registered tools a tool node can call, with their input and output JSON Schemas',
  triggers: "A workflow's triggers: schedules, webhooks, events and manual starts",
  webhooks: 'Public webhook endpoints of webhook triggers (/api/hooks/...), authenticated per trigger',
  events: 'Custom and platform events that start event-triggered workflows; quarantined events',
  runs: 'Runs of workflows: start (optionally waiting for the result), read, cancel, retry, approve, the run picture',
  approvals: 'Approvals of approval nodes: what waits for people (awaiting=me), and their decisions',
  'dead-letters': 'Failed node executions kept by the dead_letter_queue strategy, and their replay',
  'circuit-breakers': 'Per-tool circuit breakers of the circuit_breaker strategy',
  content: 'Content: uploads in object storage, versions, processing (text, thumbnails, chunks, embeddings) and search',
  secrets: 'Organization secrets, referenced from node configs as {{secret.NAME}}; values are never returned',
  billing: 'Plans, payment methods and invoices of an organization',
  'account pages': 'HTML pages that e-mail links open (verify an address, reset a password, accept an invitation)',
  system: 'Health, readiness, metrics and this document',
};

export interface Example {
  summary?: string;
  value: unknown;
}

const one = (value: unknown, summary?: string): Record<string, Example> => ({ default: { ...(summary ? { summary } : {}), value } });

const USER_ID = '5d2c9e17-8a4b-4f3c-b1d6-7e9a0c2f4b18';
const ORGANIZATION_ID = '9a1e4c7b-2d5f-4e8a-b3c6-1f7d9e2a5c40';
const TOKEN = 'k3Jf9QmZp2Lx7VbN4sWc8TyR1hGd5eUa';

const workflowApiShape = {
  name: 'Greet and notify',
  description: 'Builds a greeting, then posts it if the caller asked for it',
  metadata: { tags: ['demo'], category: 'examples' },
  parameters: [{ name: 'name', type: 'string', required: true, description: 'who to greet' }],
  dag: {
    nodes: [
      {
        id: 'greet',
        type: 'tool',
        config: {
          tool: 'json_transform',
          config: { expression: '{ "greeting": "Hello, " & name & "!" }', data: { name: '${params.name}' } },
          outputs: [{ name: 'greeting', type: 'string' }],
        },
      },
      { id: 'loud', type: 'condition', config: { expression: 'size(params.name) > 3', trueBranch: 'shout' } },
      {
        id: 'shout',
        type: 'tool',
        config: { tool: 'json_transform', config: { expression: '$uppercase(greeting)' }, inputs: [{ from: 'greet.greeting' }] },
        retryPolicy: { max_attempts: 3, backoff: 'exponential', initial_delay: 1000 },
      },
    ],
    edges: [
      { from: 'greet', to: 'loud' },
      { from: 'greet', to: 'shout' },
    ],
  },
  triggers: [{ type: 'webhook', config: { method: 'POST', authentication: 'hmac' } }],
  error_handling: { default_strategy: 'retry', retry_config: { max_attempts: 3, backoff: 'exponential', initial_delay: 1000 } },
};

const workflowDocument = {
  name: 'Nightly report',
  description: 'The definition document format (also accepted as YAML)',
  version: '1.0',
  parameters: [{ name: 'day', type: 'string' }],
  nodes: [
    { id: 'fetch', type: 'tool', tool: 'http_request', config: { method: 'GET', url: 'https://example.com/report' } },
    {
      id: 'each',
      type: 'loop',
      items: 'fetch.body',
      template: { type: 'tool', config: { tool: 'json_transform', config: { expression: 'name', data: '${item}' } } },
      depends_on: ['fetch'],
    },
  ],
  triggers: [{ type: 'schedule', config: { cron: '0 2 * * *', timezone: 'Europe/Berlin' } }],
};

const filters = {
  type: 'document',
  tags: ['contracts'],
  metadata: { author: 'Ann' },
  createdAt: { gte: '2025-01-01T00:00:00Z' },
};

const webhookPayload = one({ order: { id: 'A-1042', total: 99.5 } }, 'any JSON: the trigger passes it to the run as parameters');

const REQUEST_EXAMPLES: Record<string, Record<string, Example>> = {
  // auth
  register: one({ email: 'ada@example.com', password: 'correct-Horse-battery-9', name: 'Ada Lovelace' }),
  login: one({ email: 'ada@example.com', password: 'correct-Horse-battery-9' }),
  refreshToken: one({ refreshToken: 'eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiI1ZDJjIn0.c2lnbmF0dXJl' }, 'omit in browser mode (cookie)'),
  updateProfile: one({ name: 'Ada King', image: 'https://example.com/ada.png' }),
  switchOrganization: one({ organizationID: ORGANIZATION_ID }),
  changePassword: one({ currentPassword: 'correct-Horse-battery-9', newPassword: 'another-Long-passphrase-7' }),
  requestPasswordReset: one({ email: 'ada@example.com' }),
  confirmPasswordReset: one({ token: TOKEN, password: 'another-Long-passphrase-7' }),
  confirmEmailVerification: one({ token: TOKEN }),
  confirmTwoFactorEnrolment: one({ code: '492039' }),
  disableTwoFactor: one({ password: 'correct-Horse-battery-9', code: '492039' }),
  regenerateRecoveryCodes: one({ code: '492039' }),
  completeTwoFactorLogin: one({ challengeToken: 'eyJhbGciOiJIUzI1NiJ9.eyJjaGFsbGVuZ2UiOnRydWV9.c2ln', code: 'abcde-fghjk' }),
  // organizations
  createOrganization: one({ name: 'Acme Corp', slug: 'acme' }),
  updateOrganization: one({ name: 'Acme Corporation' }),
  deleteOrganization: one({ password: 'correct-Horse-battery-9', exportData: true }),
  changeOrganizationPlan: one({ plan: 'pro' }),
  changeMemberRole: one({ role: 'admin' }),
  transferOwnership: one({ userID: USER_ID }),
  inviteMember: one({ email: 'grace@example.com', role: 'member' }),
  lookupInvitation: one({ token: TOKEN }),
  acceptInvitation: one({ token: TOKEN }),
  updateSettings: one({
    general: { name: 'Acme Corp', timezone: 'Europe/Berlin', brandColor: '#3355ff' },
    security: { requireTwoFactor: true, ipAllowlist: ['203.0.113.0/24'], sessionTimeoutMinutes: 60 },
  }),
  createApiKey: one({ name: 'CI deploys', role: 'member', expiresAt: '2030-01-01T00:00:00Z' }),
  registerOrganizationDomain: one({ domain: 'corp.example' }),
  // workflows
  createWorkflow: {
    api: { summary: 'the API shape: a graph of a tool node, a condition and a retried tool node', value: workflowApiShape },
    document: { summary: 'a definition document: type keys at the node top level, depends_on instead of edges', value: workflowDocument },
  },
  validateWorkflow: {
    api: { summary: 'a create body, checked without saving', value: workflowApiShape },
    update: { summary: 'with ?workflow_id=: the body of an update (fields left out keep their value)', value: { name: 'Greet and notify v2' } },
  },
  updateWorkflow: {
    rename: { summary: 'a name change (no new version)', value: { name: 'Greet and notify (renamed)' } },
    graph: { summary: 'a new graph (a new version)', value: { dag: workflowApiShape.dag } },
  },
  testTool: one(
    {
      config: { expression: '{ "greeting": "Hello, " & name & "!" }', data: { name: '${params.name}' } },
      parameters: { name: 'Ada' },
      max_attempts: 1,
    },
    'json_transform with a sample parameter',
  ),
  // triggers, events, runs
  receiveWebhookPost: webhookPayload,
  receiveWebhookPut: webhookPayload,
  receiveWebhookPatch: webhookPayload,
  publishEvent: one({ type: 'custom.order_paid', data: { orderId: 'A-1042', amount: 99.5 } }),
  startRun: one({ parameters: { name: 'Ada' } }),
  retryRun: one({}),
  rerunRun: one({ from_node: 'shout', parameters: { name: 'Grace' }, version: 'latest' }),
  approveRun: one({ comment: 'Looks right' }),
  rejectRun: one({ comment: 'Wrong recipient list' }),
  decideApproval: one({ decision: 'approve', comment: 'Budget checked', values: { amount: 1200, cost_center: 'R&D' } }),
  // content
  uploadContent: one({ file: '(the file bytes)', title: 'Contract 2025', tags: '["contracts","2025"]', metadata: '{"author":"Ann"}' }),
  uploadContentVersion: one({ file: '(the file bytes)', title: 'Contract 2025 (signed)' }),
  updateContent: one({ title: 'Contract 2025', tags: ['contracts', 'signed'], metadata: { author: 'Ann' } }),
  searchContent: one({ query: 'termination clause', mode: 'hybrid', filters, limit: 10 }),
  queryContent: one({ filter: filters, limit: 20 }),
  processContent: one({ steps: ['extract_text', 'thumbnail'] }),
  extractContent: {
    text: { summary: 'text of pages 1 to 3', value: { type: 'text', pages: { from: 1, to: 3 } } },
    jsonata: { summary: 'a JSONata expression over JSON, CSV or XML content', value: { type: 'jsonata', expression: 'items[price > 10].name' } },
  },
  embedContent: one({}, 'no options: embeds the current version with the organization provider'),
  putContentEmbedding: one({ vector: [0.12, -0.03, 0.88], model: 'in-house-3d' }),
  registerEmbeddingModel: one({ name: 'in-house-3d', dimensions: 3, provider: 'in-house' }),
  startOrganizationImport: one({ file: '(the .tar.gz of an organization export)' }),
  startContentReembedding: {
    all: { summary: 'every content of another model, to the organization\'s current model', value: {} },
    one: { summary: 'only the content of the lexical model', value: { model: 'lexical-hash-384-v2' } },
  },
  putSecret: one({ value: 'sk_live_51HxExampleOnly' }),
};

/** The request examples of an operation (named), or undefined when it has none. */
export function requestExamples(operationId: string): Record<string, Example> | undefined {
  return REQUEST_EXAMPLES[operationId];
}

export const requestExampleOperations = (): string[] => Object.keys(REQUEST_EXAMPLES);

interface ErrorExample {
  message: string;
  details?: ErrorDetail[];
}

/** One answer per code; an operation may say it more precisely below. */
const ERROR_EXAMPLES: Partial<Record<ErrorCode, ErrorExample>> = {
  VALIDATION_ERROR: { message: 'the request does not match the schema', details: [{ path: 'body.name', problem: 'required' }] },
  INVALID_JSON: { message: 'the body is not valid JSON: Unexpected end of JSON input' },
  UNSUPPORTED_MEDIA_TYPE: { message: 'this endpoint accepts application/json' },
  PAYLOAD_TOO_LARGE: { message: 'the body is larger than 1 MiB' },
  NOT_FOUND: { message: 'workflow not found' },
  METHOD_NOT_ALLOWED: { message: 'GET is not allowed here; allowed: POST' },
  CONFLICT: { message: 'the request conflicts with the current state' },
  INVALID_STATE: { message: 'the workflow is archived and read-only' },
  UNPROCESSABLE: { message: 'the request is well-formed but cannot be carried out', details: [{ path: 'body', problem: 'see the message' }] },
  IDEMPOTENCY_CONFLICT: { message: 'this Idempotency-Key was used with a different request' },
  INVALID_CREDENTIALS: { message: 'wrong e-mail or password' },
  USER_EXISTS: { message: 'this e-mail address is already registered' },
  INVALID_TOKEN: { message: 'invalid token' },
  TOKEN_EXPIRED: { message: 'the access token has expired: get a new one with POST /api/auth/refresh' },
  SESSION_EXPIRED: { message: 'the session has expired: log in again' },
  UNAUTHORIZED: { message: 'authentication required: send a bearer token or an API key' },
  FORBIDDEN: { message: 'insufficient permissions: workflow:write needs the role owner, admin or member' },
  WEAK_PASSWORD: { message: 'the password does not meet the policy', details: [{ path: 'password', problem: 'at least 12 characters' }] },
  INVALID_TWO_FACTOR_CODE: { message: 'the code is wrong or expired' },
  SSO_FAILED: { message: 'single sign-on failed: the identity provider refused the request' },
  LAST_SIGN_IN_METHOD: {
    message: 'this identity is the only way into the account; set a password (reset it by e-mail) before unlinking it',
  },
  SSO_ACCOUNT_EXISTS: {
    message: 'an account for ada@corp.example already exists and this identity is not linked to it; sign in with your password, then link it with POST /api/auth/sso/acme/link',
  },
  SSO_DOMAIN_NOT_VERIFIED: { message: 'corp.example is not a verified domain of this organization, so single sign-on may not create an account for ada@corp.example' },
  SSO_IDENTITY_LINKED: { message: 'this identity is already linked to another account' },
  SSO_SESSION_SCOPED: { message: "this session was opened by acme's single sign-on and acts in that organization only; sign in with your password to use others" },
  TWO_FACTOR_REQUIRED: { message: 'this organization requires two-factor sign-in: enrol with POST /api/auth/2fa/enrolment' },
  HUMAN_REQUIRED: { message: 'API keys may not approve or reject runs: a person must do it from a signed-in session' },
  NO_ACTIVE_ORGANIZATION: { message: 'no active organization: create one or switch with POST /api/auth/switch-organization' },
  ORGANIZATION_LIMIT: { message: 'you already belong to 10 organizations' },
  SLUG_TAKEN: { message: 'the slug "acme" is already in use' },
  QUOTA_EXCEEDED: { message: 'the plan allows 1000 runs a month: upgrade the plan or wait for the next month' },
  PAYMENT_FAILED: { message: 'the payment failed: card declined' },
  RATE_LIMITED: { message: 'too many requests: retry after 12 seconds' },
  IP_NOT_ALLOWED: { message: 'your IP address is not in the organization allowlist' },
  LAST_OWNER: { message: 'the organization must keep at least one owner' },
  INVITATION_EXPIRED: { message: 'the invitation has expired' },
  DOMAIN_CLAIMED: { message: 'corp.example is already verified by another organization' },
  DOMAIN_NOT_VERIFIED: { message: '_loom-verification.corp.example has no TXT record loom-verification=<token> (yet)' },
  WORKFLOW_INVALID: {
    message: 'the workflow definition is invalid',
    details: [
      { path: 'dag.nodes.greet.config.tool', problem: 'unknown tool "json_transfrom"; did you mean "json_transform"?' },
      { path: 'dag.edges.0.to', problem: 'no node "shuot"' },
    ],
  },
  INVALID_PARAMETERS: { message: 'the run parameters do not match the declared parameters', details: [{ path: 'parameters.name', problem: 'required' }] },
  FLOW_KEY_INVALID: { message: 'the concurrency key is null; it must be a string, number or boolean' },
  RUN_NOT_RETRYABLE: { message: 'only failed or cancelled runs can be retried (this run is running)' },
  INLINE_CREDENTIAL: {
    message: 'a node config holds a literal credential',
    details: [{ path: 'dag.nodes.fetch.config.config.headers.Authorization', problem: 'store it as a secret and write {{secret.NAME}}' }],
  },
  UNKNOWN_SECRET: { message: 'a node config references an unknown secret', details: [{ path: 'dag.nodes.fetch.config.config.headers.Authorization', problem: 'no secret API_TOKEN' }] },
  RANGE_NOT_SATISFIABLE: { message: 'the range bytes=5000- does not fit the object (4096 bytes)' },
  UPSTREAM_ERROR: { message: 'the embedding provider answered 503' },
  INVALID_REGEX: { message: 'the regular expression does not compile with RE2: invalid perl operator: (?<' },
  EXPRESSION_TIMEOUT: { message: 'the expression ran past its deadline (100 ms)' },
  EXPRESSION_TOO_COMPLEX: { message: 'the expression recursed too deeply' },
  TOOL_INPUT_INVALID: {
    message: "the config and sample input do not match the tool's input schema",
    details: [{ path: 'config.expression', problem: 'required' }],
  },
  SERVICE_UNAVAILABLE: { message: 'unavailable: temporal' },
  ENGINE_MISCONFIGURED: {
    message:
      'the workflow engine is not set up for runs: search attribute LoomTrigger is not registered in the namespace; the run was not started (an operator must fix this: docs/operating.md#readiness)',
  },
  INTERNAL_ERROR: { message: 'unexpected server error' },
};

/** Sharper answers for particular operations. */
const OPERATION_ERROR_EXAMPLES: Record<string, Partial<Record<ErrorCode, ErrorExample>>> = {
  register: { VALIDATION_ERROR: { message: 'the request does not match the schema', details: [{ path: 'body.email', problem: 'invalid email address' }] } },
  startRun: { NOT_FOUND: { message: 'workflow not found' }, INVALID_STATE: { message: 'the workflow is paused: activate it to start runs' } },
  getRun: { NOT_FOUND: { message: 'run not found' } },
  cancelRun: { INVALID_STATE: { message: 'the run has already finished (completed)' } },
  createOrganization: { VALIDATION_ERROR: { message: 'the request does not match the schema', details: [{ path: 'body.slug', problem: 'lowercase letters, digits and -' }] } },
};

export const errorExampleCodes = (): ErrorCode[] => Object.keys(ERROR_EXAMPLES) as ErrorCode[];

const REQUEST_ID = 'c0a8012e-7f3b-4c2d-9e1a-5b6d7c8e9f01';

function envelope(code: ErrorCode, example: ErrorExample): { error: Record<string, unknown> } {
  return {
    error: { code, message: example.message, ...(example.details ? { details: example.details } : {}), request_id: REQUEST_ID },
  };
}

/** The example answer of any operation failing with `code`: always that code. */
export function errorExample(code: ErrorCode): { error: Record<string, unknown> } {
  return envelope(code, ERROR_EXAMPLES[code] ?? { message: ERROR_CATALOG[code].description });
}

/** A sharper answer of `operationId` failing with `code`, when it has one. */
export function operationErrorExample(operationId: string, code: ErrorCode): { error: Record<string, unknown> } | undefined {
  const example = OPERATION_ERROR_EXAMPLES[operationId]?.[code];
  return example ? envelope(code, example) : undefined;
}
