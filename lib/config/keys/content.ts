import { z } from 'zod';
import { bool, int, optionalInt, optionalText, text, url } from '../schemas';
import { setting } from '../settings';

/** Content storage, processing, embeddings and vectors (docs/content.md). */
export const content = {
  maxUploadBytes: setting('CONTENT_MAX_UPLOAD_BYTES', int(512 * 1024 * 1024, 1), {
    meaning: 'upload size limit (413 as soon as a stream passes it)',
    example: '536870912',
  }),
  /**
   * Storage quota by plan, in bytes; null = unlimited. Byte-exact overrides of the plans' storage quotas
   * (SERVICE_PLAN_*_STORAGE_GB); unset, the plan's quota applies (lib/config.ts); 0 = unlimited.
   */
  quotaBytes: {
    free: setting('CONTENT_QUOTA_FREE_BYTES', optionalInt(0), {
      meaning: 'byte-exact content storage quota overrides (0 = unlimited; 429 `QUOTA_EXCEEDED`)',
      default: 'the plan\'s `SERVICE_PLAN_*_STORAGE_GB`',
      note: 'Byte-exact overrides of the plan storage quotas for content (empty: SERVICE_PLAN_*_STORAGE_GB; enterprise unlimited)',
    }),
    pro: setting('CONTENT_QUOTA_PRO_BYTES', optionalInt(0), {
      meaning: 'byte-exact content storage quota overrides (0 = unlimited; 429 `QUOTA_EXCEEDED`)',
      default: 'the plan\'s `SERVICE_PLAN_*_STORAGE_GB`',
    }),
    enterprise: setting('CONTENT_QUOTA_ENTERPRISE_BYTES', optionalInt(0).transform((n) => n || null), {
      meaning: 'byte-exact content storage quota overrides (0 = unlimited; 429 `QUOTA_EXCEEDED`)',
      default: 'unlimited',
    }),
  },
  processOnUpload: setting('CONTENT_PROCESS_ON_UPLOAD', bool(true), { meaning: 'start the processing workflow on every upload', example: 'true' }),
  processingMaxBytes: setting('CONTENT_PROCESSING_MAX_BYTES', int(100 * 1024 * 1024, 1), {
    meaning: 'processing steps fail (clearly) above this size; retries of a step',
    example: '104857600',
  }),
  processingMaxAttempts: setting('CONTENT_PROCESSING_MAX_ATTEMPTS', int(3, 1, 20), {
    meaning: 'processing steps fail (clearly) above this size; retries of a step',
    example: '3',
  }),
  chunkSize: setting('CONTENT_CHUNK_SIZE', int(1000, 100, 100_000), { meaning: 'characters per chunk and overlap', example: '1000' }),
  chunkOverlap: setting('CONTENT_CHUNK_OVERLAP', int(150, 0, 50_000), { meaning: 'characters per chunk and overlap', example: '150' }),
  /**
   * Semantic results scoring below this cosine similarity are left out (semantic mode, and the semantic half of
   * hybrid). Unset: the built-in models' calibrated floors (test/fixtures/relevance: 0.3 for the word-vector model,
   * 0.2 for the lexical one), no floor for other providers, whose scales differ.
   */
  searchMinSemanticScore: setting('CONTENT_SEARCH_MIN_SEMANTIC_SCORE', z.coerce.number().min(0).max(1).optional(), {
    meaning: 'semantic results below this cosine similarity are left out (semantic mode and the semantic half of hybrid; a request\'s `minScore` overrides it)',
    default: '0.3 for the semantic word-vector model, 0.2 for the lexical one, none for other providers',
    note: 'Semantic results below this cosine similarity are left out (empty: 0.3 semantic, 0.2 lexical, none for others)',
  }),
  /** The floor of GET /content/similar/{id}: below it a content is not "similar", whatever the ranking says. */
  similarMinScore: setting('CONTENT_SIMILAR_MIN_SCORE', z.coerce.number().min(0).max(1).optional(), {
    meaning: 'similar content below this cosine similarity is left out (a request\'s `minScore` overrides it)',
    default: '0.5 for the semantic word-vector model, 0.3 for the lexical one, none for other providers',
    note: 'Similar content below this cosine similarity is left out (empty: 0.5 semantic, 0.3 lexical, none for others)',
  }),
  /** The global embedding provider; an organization may choose its own in integration settings. */
  embedding: {
    provider: setting('CONTENT_EMBEDDING_PROVIDER', z.enum(['semantic', 'lexical', 'openai', 'cohere']).optional().default('semantic'), {
      meaning: '`semantic` (offline `wink-sg-100d-sif-v1`: word vectors, meaning without a network), `lexical` (offline `lexical-hash-384-v2`: stemmed words and n-grams), `openai` or `cohere` (compatible endpoints); organizations may choose their own (docs/content.md)',
      example: 'semantic',
      note: 'semantic (built-in, offline word vectors: wink-sg-100d-sif-v1), lexical (built-in, offline: lexical-hash-384-v2), openai (any OpenAI-compatible /embeddings) or cohere (/v1/embed)',
    }),
    baseUrl: setting('CONTENT_EMBEDDING_BASE_URL', url(), { meaning: 'the global embedding endpoint', default: 'provider defaults' }),
    model: setting('CONTENT_EMBEDDING_MODEL', optionalText(), { meaning: 'the global embedding endpoint', default: 'provider defaults' }),
    dimensions: setting('CONTENT_EMBEDDING_DIMENSIONS', optionalInt(1, 8192), {
      meaning: 'the global embedding endpoint',
      default: 'provider defaults',
    }),
    apiKey: setting('CONTENT_EMBEDDING_API_KEY', optionalText(), { meaning: 'the global embedding endpoint', default: 'provider defaults' }),
  },
  /**
   * Custom embedding models an organization may register (POST /api/v1/embedding-models, or a first vector of a new
   * name): each may add a vector table that every document-vector write and read of every tenant goes through.
   */
  embeddingModelsMax: setting('CONTENT_EMBEDDING_MODELS_MAX', int(10, 1, 100), {
    meaning: 'custom embedding models per organization (1–100; 409 past it; docs/content.md)',
    example: '10',
    note: 'Custom embedding models per organization (docs/content.md)',
  }),
  /** LanceDB location: a local directory, or s3://bucket/path (then the MinIO credentials are used). */
  vectorUri: setting('CONTENT_VECTOR_URI', text('.data/lancedb'), {
    meaning: 'LanceDB: a directory, or `s3://bucket/path` on MinIO/S3 (MINIO_* credentials)',
    example: '.data/lancedb',
    note: 'LanceDB: a local directory, or s3://<bucket>/<path> on MinIO/S3 (uses the MINIO_* credentials)',
  }),
  vectorIndexThreshold: setting('CONTENT_VECTOR_INDEX_THRESHOLD', int(50_000, 1), {
    meaning: 'rows before the IVF_FLAT index is built (in the background); TMPDIR of index builds',
    example: '50000',
  }),
  /** Temporary files of LanceDB index builds, in a folder per process (lib/vectors/scratch.ts). */
  vectorScratchDir: setting('CONTENT_VECTOR_SCRATCH_DIR', text('.data/lancedb-tmp'), {
    meaning: 'rows before the IVF_FLAT index is built (in the background); TMPDIR of index builds',
    example: '.data/lancedb-tmp',
  }),
};
