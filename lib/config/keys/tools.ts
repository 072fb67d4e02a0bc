import { bool, duration, int, list, optionalText, rate, url } from '../schemas';
import { setting } from '../settings';

/** Built-in workflow tools (docs/workflows.md). */
export const tools = {
  /**
   * The test tools (`delay`, `fail`: sleeps and failures on demand, docs/adding-a-tool.md): the worker registers
   * them and the API lists and accepts them only when true (the test suite and scripts/up's development stack).
   */
  testToolsEnabled: setting('TOOLS_TEST_TOOLS_ENABLED', bool(false), {
    meaning: '`true`: the test tools `delay` and `fail` are registered by the worker, listed at `GET /api/v1/tools` and accepted in workflows; off, they are unknown tools ([docs/adding-a-tool.md](docs/adding-a-tool.md#test-tools))',
    default: '`false` (`scripts/up` and the test suite: `true`)',
    note: 'the test tools delay and fail; empty = false (production). scripts/up turns them on unless this says false',
  }),
  /** More folders of tool modules the worker loads beside activities/tools/ (docs/adding-a-tool.md). */
  directories: setting('TOOLS_DIRECTORIES', list(), {
    meaning: 'comma-separated folders of more tool modules the worker loads beside `activities/tools/` (same rules; an id defined twice stops the worker)',
    default: 'empty',
    note: 'comma-separated folders of more tool modules for the worker (beside activities/tools/)',
  }),
  /**
   * The API reads the tool catalogue the workers publish at start (domain/tools) at most this often: how long after
   * a worker restart its new tools may still be unknown to an API.
   */
  catalogueRefreshMs: setting('TOOLS_CATALOGUE_REFRESH', duration('2s'), {
    meaning: 'how often at most the API re-reads the tool catalogue its workers publish at start: a worker restarted with a new tool is listed and validated within this, without restarting the API ([docs/adding-a-tool.md](docs/adding-a-tool.md#how-a-new-tool-appears))',
    example: '2s',
    note: 'how stale the API\'s copy of the tool catalogue (published by each worker at start) may be',
  }),
  /** Test runs of one tool with sample input (POST /api/v1/tools/{tool}/test, docs/workflows.md#test-a-tool). */
  testRun: {
    /** per organization */
    rate: setting('TOOLS_TEST_RUN_RATE_LIMIT', rate('30/1m'), {
      meaning: 'test runs of one tool (`POST /api/v1/tools/{tool}/test`): per organization; the longest `timeout_ms` one may ask for (default 30 s or this if lower) ([docs/workflows.md](docs/workflows.md#test-a-tool))',
      example: '30/1m',
      note: 'POST /api/v1/tools/{tool}/test: per organization; longest timeout_ms',
    }),
    /** the longest `timeout_ms` a test run may ask for (and its default) */
    maxTimeoutMs: setting('TOOLS_TEST_RUN_MAX_TIMEOUT', duration('60s').refine((ms) => ms >= 1000 && ms <= 300_000, 'TOOLS_TEST_RUN_MAX_TIMEOUT must be between 1s and 5m'), {
      meaning: 'test runs of one tool (`POST /api/v1/tools/{tool}/test`): per organization; the longest `timeout_ms` one may ask for (default 30 s or this if lower) ([docs/workflows.md](docs/workflows.md#test-a-tool))',
      example: '60s',
    }),
  },
  /**
   * Rate limits on destinations (docs/runs.md#rate-limits-on-destinations) are kept as if each period were this much
   * longer: a call may start up to half of it after its turn (a busy event loop, a late timer) and reach its
   * destination a little sooner or later than the calls around it, and the destination still counts no more than the
   * limit in any window of the period. A call later than half of it gives its turn up and queues again.
   */
  rateLimitMarginMs: setting(
    'TOOLS_RATE_LIMIT_MARGIN',
    duration('100ms').refine((ms) => ms >= 10 && ms <= 1000, 'TOOLS_RATE_LIMIT_MARGIN must be between 10ms and 1s'),
    {
      meaning: 'rate limits on destinations are kept as if each period were this much longer, so that a call starting a little late, or reaching its destination a little sooner than the one before, still leaves the destination within the limit in every window; a call later than half of it after its turn queues again (10ms–1s; [docs/runs.md](docs/runs.md#rate-limits-on-destinations))',
      example: '100ms',
      note: 'rate limits on destinations: the slack kept per period for calls that start late or travel unevenly (docs/runs.md#rate-limits-on-destinations)',
    },
  ),
  http: {
    timeoutMs: setting('TOOLS_HTTP_TIMEOUT', duration('30s'), { meaning: 'http_request, chat_message, webhook_send and LLM tools', example: '30s' }),
    maxResponseBytes: setting('TOOLS_HTTP_MAX_RESPONSE_BYTES', int(5 * 1024 * 1024, 1024), {
      meaning: 'http_request, chat_message, webhook_send and LLM tools',
      example: '5242880',
    }),
    maxRedirects: setting('TOOLS_HTTP_MAX_REDIRECTS', int(5, 0, 20), {
      meaning: 'http_request, chat_message, webhook_send and LLM tools',
      example: '5',
    }),
    allowedHosts: setting('TOOLS_HTTP_ALLOWED_HOSTS', list(), {
      meaning: 'hosts/IPs/CIDRs tools, organization providers and database connections may reach although private or loopback (never the platform\'s own services: see next row)',
      default: 'empty',
      note: 'comma-separated hosts/IPs/CIDRs tools may reach although private or loopback (empty = none)',
    }),
  },
  db: {
    statementTimeoutMs: setting('TOOLS_DB_STATEMENT_TIMEOUT', duration('10s'), { meaning: 'db_query tool', example: '10s' }),
    maxRows: setting('TOOLS_DB_MAX_ROWS', int(1000, 1, 100_000), { meaning: 'db_query tool', example: '1000' }),
    /**
     * Bytes of rows one call reads (as the server sends them); past it the rest is not fetched and `truncated` is
     * true. A server that sends more than twice this in one batch (one huge row) fails the call.
     */
    maxResultBytes: setting('TOOLS_DB_MAX_RESULT_BYTES', int(5 * 1024 * 1024, 1024, 64 * 1024 * 1024), {
      meaning: 'db_query tool',
      example: '5242880',
    }),
  },
  /**
   * `email_send` through the platform's mailer: HTML bodies only when `allowHtml`; at most `dailyRecipients`
   * recipients per organization per rolling 24 hours (0 = the tool sends nothing).
   */
  email: {
    allowHtml: setting('TOOLS_EMAIL_ALLOW_HTML', bool(false), {
      meaning: '`true` lets email_send nodes send an `html` body (off: such a node fails `EMAIL_HTML_DISABLED`); tenant mail is plain text by default ([docs/workflows.md](docs/workflows.md#e-mail))',
      example: 'false',
      note: 'email_send: HTML bodies allowed (tenant mail is plain text by default); recipients per organization per rolling day',
    }),
    dailyRecipients: setting('TOOLS_EMAIL_DAILY_RECIPIENTS', int(200, 0, 1_000_000), {
      meaning: 'recipients one organization\'s email_send nodes may reach per rolling 24 hours (0 = none); beyond it a node fails `EMAIL_BUDGET_EXCEEDED`',
      example: '200',
    }),
  },
  /** The global OpenAI-compatible endpoint; an organization may configure its own (integration `llm`). */
  llm: {
    baseUrl: setting('SERVICE_LLM_BASE_URL', url(), {
      meaning: 'global OpenAI-compatible endpoint of the AI tools',
      default: 'unset',
      note: 'global OpenAI-compatible endpoint for llm_completion, embedding_generate and classify (organizations may set their own)',
    }),
    apiKey: setting('SERVICE_LLM_API_KEY', optionalText(), { meaning: 'global OpenAI-compatible endpoint of the AI tools', default: 'unset' }),
    model: setting('SERVICE_LLM_MODEL', optionalText(), { meaning: 'global OpenAI-compatible endpoint of the AI tools', default: 'unset' }),
    embeddingModel: setting('SERVICE_LLM_EMBEDDING_MODEL', optionalText(), {
      meaning: 'global OpenAI-compatible endpoint of the AI tools',
      default: 'unset',
    }),
    timeoutMs: setting('SERVICE_LLM_TIMEOUT', duration('60s'), { meaning: 'global OpenAI-compatible endpoint of the AI tools', example: '60s' }),
  },
};
