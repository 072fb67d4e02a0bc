import { z } from 'zod';
import { parseMetadataFilter } from '../../lib/content/metadataFilter';
import { MAX_PAGE_SIZE } from '../../lib/pagination';
import { isoTimestamp } from '../../lib/timestamps';
import { PROCESSING_STEPS } from '../../lib/contentSteps';

/** Request and response shapes of the content endpoints (they are the OpenAPI document). */

export const MEDIA_TYPES = ['document', 'image', 'video', 'audio', 'structured', 'other'] as const;
export const PROCESSING_STATUSES = ['none', 'pending', 'processing', 'processed', 'failed'] as const;
export const STEP_STATES = ['pending', 'running', 'retrying', 'succeeded', 'failed', 'skipped'] as const;
export const VARIANTS = ['original', 'thumbnail', 'text', 'converted'] as const;
export type Variant = (typeof VARIANTS)[number];

export const idParams = z.object({ id: z.uuid().describe('Content id') });

const tag = z.string().trim().min(1).max(100);
export const tagsSchema = z.array(tag).max(100);
export const metadataSchema = z
  .record(z.string().max(200), z.unknown())
  .refine((value) => JSON.stringify(value).length <= 64 * 1024, 'metadata larger than 64 KiB');
export const titleSchema = z.string().trim().min(1).max(500);

const iso = isoTimestamp();
/** A version number as clients name one; versions are an int4 (beyond it, PostgreSQL's cast failed: a 500). */
const MAX_VERSION = 1_000_000;
const range = <T extends z.ZodType>(item: T) => z.strictObject({ gte: item.optional(), lte: item.optional() });

export const filterSchema = z
  .strictObject({
    type: z
      .union([z.string().min(1).max(255), z.array(z.string().min(1).max(255)).min(1).max(20)])
      .optional()
      .describe('Media type (document, image, video, audio, structured, other) or MIME type (`image/*` allowed)'),
    tags: tagsSchema.optional().describe('Content must carry every one of these tags'),
    tagsAny: tagsSchema.optional().describe('Content must carry at least one of these tags'),
    metadata: z
      .record(z.string(), z.unknown())
      .superRefine((value, ctx) => {
        for (const problem of parseMetadataFilter(value).problems) ctx.addIssue({ code: 'custom', path: problem.at, message: problem.problem });
      })
      .optional()
      .describe(
        'Per field (or dotted path into nested objects): a JSON value the metadata must contain ({"author":"Ann"}), or operators: ' +
          '$eq, $ne, $gt, $gte, $lt, $lte (numbers as numbers, strings as text), $in, $nin (up to 100 values), $exists (true/false), ' +
          'e.g. {"words":{"$gt":30},"lang":{"$in":["en","de"]}}; an unknown operator is a 400',
      ),
    createdAt: range(iso).optional(),
    updatedAt: range(iso).optional(),
    size: range(z.number().int().min(0)).optional().describe('Size of the current version in bytes'),
    status: z.array(z.enum(PROCESSING_STATUSES)).min(1).optional(),
    titleContains: z.string().min(1).max(200).optional().describe('Case-insensitive substring of the title'),
    ids: z.array(z.uuid()).min(1).max(1000).optional(),
  })
  .describe('All given conditions must hold');
export type ContentFilter = z.infer<typeof filterSchema>;

export const updateBody = z
  .strictObject({
    title: titleSchema.nullable().optional(),
    metadata: metadataSchema.optional().describe('Replaces the metadata object'),
    tags: tagsSchema.optional().describe('Replaces the tag list'),
  })
  .refine((b) => b.title !== undefined || b.metadata !== undefined || b.tags !== undefined, {
    message: 'give at least one of title, metadata, tags',
  });

export const downloadQuery = z.object({
  version: z.coerce.number().int().min(1).max(MAX_VERSION).optional().describe('Version to download (default: current)'),
  variant: z.enum(VARIANTS).optional().default('original').describe('The original file or a derived file'),
  disposition: z.enum(['attachment', 'inline']).optional().default('attachment'),
});

export const processBody = z.strictObject({
  steps: z
    .array(z.enum(PROCESSING_STEPS))
    .min(1)
    .optional()
    .describe('Steps to run (default: all), always in pipeline order'),
  version: z.number().int().min(1).max(MAX_VERSION).optional().describe('Version to process (default: current)'),
});

export const statusQuery = z.object({ jobId: z.uuid().optional().describe('A specific job (default: the latest)') });

export const searchBody = z.strictObject({
  query: z
    .string()
    .trim()
    .min(1)
    .max(2000)
    .describe(
      'Words, and "quoted phrases": in keyword search (and the keyword half of hybrid) a quoted phrase must appear ' +
        'as written, its words in order and next to each other (stemmed: "seas ices" matches "sea ice")',
    ),
  mode: z.enum(['semantic', 'keyword', 'hybrid']).optional().default('hybrid'),
  filters: filterSchema.optional(),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(10),
  minScore: z
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(
      'Leave out semantic results below this cosine similarity (semantic mode and the semantic half of hybrid). ' +
        'Default CONTENT_SEARCH_MIN_SEMANTIC_SCORE: 0.2 for the built-in lexical embedder, none for other providers.',
    ),
});

export const similarQuery = z.object({
  limit: z.coerce.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(10),
  minScore: z.coerce
    .number()
    .min(0)
    .max(1)
    .optional()
    .describe(
      'Leave out contents below this cosine similarity. Default: CONTENT_SIMILAR_MIN_SCORE, else the built-in model\'s ' +
        'floor (0.5 for the semantic word-vector model, 0.3 for the lexical one; none for other models): below it a ' +
        'content is not similar, and an empty list says so rather than ranking noise (docs/content.md#similar)',
    ),
});

export const SORT_FIELDS = ['createdAt', 'updatedAt', 'size', 'title'] as const;
export const queryBody = z.strictObject({
  filter: filterSchema.optional(),
  sort: z
    .strictObject({ field: z.enum(SORT_FIELDS), direction: z.enum(['asc', 'desc']).optional().default('desc') })
    .optional()
    .describe('Default: createdAt desc; ties broken by id'),
  limit: z.number().int().min(1).max(MAX_PAGE_SIZE).optional().default(20),
  cursor: z.string().max(1024).optional(),
});

export const extractBody = z.discriminatedUnion('type', [
  z.strictObject({
    type: z.literal('text'),
    pages: z
      .strictObject({ from: z.number().int().min(1), to: z.number().int().min(1).optional() })
      .optional()
      .describe('PDF page range (1-based, inclusive)'),
    maxChars: z.number().int().min(1).max(1_000_000).optional().default(100_000),
    version: z.number().int().min(1).max(MAX_VERSION).optional(),
  }),
  z.strictObject({
    type: z.literal('jsonata'),
    expression: z.string().min(1).max(4000).describe('JSONata over JSON, CSV (array of row objects) or XML (object)'),
    version: z.number().int().min(1).max(MAX_VERSION).optional(),
  }),
  z.strictObject({
    type: z.literal('fields'),
    fields: z
      .array(z.string().min(1).max(500))
      .min(1)
      .max(100)
      .describe('Dot/bracket paths (`a.b[0].c`) into JSON/XML; column names for CSV'),
    version: z.number().int().min(1).max(MAX_VERSION).optional(),
  }),
  z.strictObject({
    type: z.literal('regex'),
    pattern: z.string().min(1).max(1000),
    flags: z.string().regex(/^[imsu]*$/).optional().default(''),
    maxMatches: z.number().int().min(1).max(10_000).optional().default(1000),
    version: z.number().int().min(1).max(MAX_VERSION).optional(),
  }),
  z.strictObject({ type: z.literal('metadata'), version: z.number().int().min(1).max(MAX_VERSION).optional() }),
]);
export type ExtractRequest = z.infer<typeof extractBody>;

export const embeddingBody = z.strictObject({
  vector: z.array(z.number().finite()).min(1).max(8192),
  model: z
    .string()
    .min(1)
    .max(200)
    .optional()
    .describe("Model that made the vector (default: the organization's provider model; its dimension is enforced)"),
});

export const embedBody = z.strictObject({}).optional();

// ---- responses

const embeddingInfo = z
  .object({ model: z.string(), dimensions: z.number(), embeddedAt: z.string() })
  .nullable();

export const contentSchema = z.object({
  id: z.string(),
  organizationID: z.string(),
  title: z.string().nullable(),
  filename: z.string(),
  mimeType: z.string().describe('Sniffed from the bytes; the client claim is only used for text subtypes'),
  mediaType: z.enum(MEDIA_TYPES),
  size: z.number(),
  sha256: z.string(),
  tags: z.array(z.string()),
  metadata: z.record(z.string(), z.unknown()),
  version: z.number().describe('Current version number'),
  status: z.enum(PROCESSING_STATUSES).describe('Processing status of the current version'),
  embedding: embeddingInfo,
  createdBy: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});

export const versionSchema = z.object({
  version: z.number(),
  filename: z.string(),
  mimeType: z.string(),
  declaredMimeType: z.string().nullable(),
  mediaType: z.enum(MEDIA_TYPES),
  size: z.number(),
  sha256: z.string(),
  extracted: z.record(z.string(), z.unknown()).describe('What the metadata step found (pages, dimensions, EXIF...)'),
  derived: z
    .record(z.string(), z.unknown())
    .describe('Derived files (thumbnail, text, converted), downloadable with `variant`'),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});

export const contentDetailSchema = contentSchema.extend({ currentVersion: versionSchema });

export const stepSchema = z.object({
  name: z.enum(PROCESSING_STEPS),
  state: z.enum(STEP_STATES),
  attempts: z.number(),
  error: z.string().nullable(),
  output: z.unknown().nullable(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
});

export const jobSchema = z.object({
  id: z.string(),
  version: z.number(),
  status: z.enum(['pending', 'running', 'succeeded', 'failed', 'cancelled']),
  trigger: z.enum(['upload', 'manual', 'embed']),
  workflowId: z.string(),
  createdAt: z.string(),
  startedAt: z.string().nullable(),
  completedAt: z.string().nullable(),
  steps: z.array(stepSchema),
});

export const statusSchema = z.object({
  contentId: z.string(),
  version: z.number(),
  status: z.enum(PROCESSING_STATUSES),
  job: jobSchema.nullable(),
});

export const searchResultSchema = z.object({
  mode: z.enum(['semantic', 'keyword', 'hybrid']),
  model: z.string().describe('The organization\'s embedding model: the query was embedded with it (and the vectors were made by it)'),
  models: z
    .array(z.string())
    .describe(
      'Every model whose vectors were searched: the organization\'s first, then models that still hold some of its ' +
        'content while it is re-embedded (built-in models embed the query themselves; other models by keyword only)',
    ),
  data: z.array(
    z.object({
      score: z.number().describe('semantic: cosine similarity; keyword: BM25; hybrid: reciprocal rank fusion'),
      scores: z.object({ semantic: z.number().optional(), keyword: z.number().optional() }),
      content: contentSchema,
      highlights: z.array(z.object({ chunkIndex: z.number(), text: z.string() })),
    }),
  ),
});

export const similarResultSchema = z.object({
  model: z.string(),
  minScore: z.number().describe('The floor applied: contents below this cosine similarity were left out'),
  data: z.array(z.object({ score: z.number().describe('cosine similarity'), content: contentSchema })),
});

export const embeddingSchema = z.object({
  contentId: z.string(),
  model: z.string(),
  dimensions: z.number(),
  source: z.enum(['computed', 'provided']).describe('computed: mean of the chunk vectors; provided: PUT by a caller'),
  version: z.number(),
  chunks: z.number().describe('Chunk vectors stored for search'),
  vector: z.array(z.number()),
});

/** A custom embedding model of the organization (domain/content/embeddingModels.ts). */
export const embeddingModelName = z
  .string()
  .min(1)
  .max(200)
  .regex(/^[^\p{Cc}\s/][^\p{Cc}]*$/u, 'no control characters, no leading space or slash')
  .describe('Model name, as PUT /content/{id}/embedding names it (unique within the organization)');

export const embeddingModelSchema = z.object({
  name: z.string(),
  dimensions: z.number().int(),
  provider: z.string().describe('Who makes its vectors (a label; `custom` unless given)'),
  createdAt: z.string(),
});

export const registerEmbeddingModelBody = z.strictObject({
  name: embeddingModelName,
  dimensions: z.number().int().min(1).max(8192),
  provider: z.string().min(1).max(100).regex(/^[^\p{Cc}]+$/u, 'no control characters').optional().describe('A label, e.g. `openai`, `in-house`; default `custom`'),
});

export const embeddingModelParams = z.object({ name: embeddingModelName });

export const startReembeddingBody = z.strictObject({
  model: z
    .string()
    .min(1)
    .max(255)
    .optional()
    .describe(
      'Only content whose vectors were made by this model. Left out: every content embedded by another model than ' +
        'the organization\'s current one, except caller-supplied vectors of registered custom models (GET /embedding-models)',
    ),
});

export const reembeddingSchema = z.object({
  id: z.uuid(),
  status: z.enum(['running', 'succeeded', 'failed', 'cancelled']),
  targetModel: z.string().describe('The organization\'s model when the operation started: content is re-embedded with it'),
  targetDimensions: z.number().int(),
  fromModel: z.string().nullable().describe('Only content of this model (null: every other model, custom models aside)'),
  total: z.number().int().describe('Contents selected at the start'),
  done: z.number().int(),
  skipped: z.number().int().describe('Contents with no text to embed, or deleted meanwhile'),
  failed: z.number().int().describe('Contents the embed step refused (lastError has the latest reason)'),
  remaining: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
  finishedAt: z.string().nullable(),
});

export const reembeddingParams = z.object({ id: z.uuid() });
