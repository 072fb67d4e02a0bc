import sharp from 'sharp';
import { getContent, recordEmbedding } from '../../domain/content/queries';
import { meanVector, vectorAt } from '../../lib/embeddings/flatVectors';
import { embeddingProviderForOrganization } from '../../domain/content/embeddingProvider';
import type { VectorRow } from '../../lib/vectors';
import type { Chunk } from '../../lib/content/chunking';
import type { StepContext, StepResult } from './context';
import { PermanentContentError } from '../../lib/content/errors';
import { parseExif } from './exif';
import { renderPdfFirstPage } from '../../lib/content/pdfRender';
import { canExtractText, DOCX, docxMarkdown, pdfInfo, pdfPages } from '../../lib/content/extractors';
import { chunksOffLoop, embedChunksOffLoop, extractTextOffLoop, htmlToTextOffLoop, structureOffLoop, textStatsOffLoop } from './offLoop';
import type { ProcessingStep } from '../../lib/contentSteps';

/**
 * The processing steps. Each reads what it needs, writes its result (derived file, extracted metadata, vectors)
 * idempotently, and returns what /status shows. A step that does not apply to a type is skipped with the reason;
 * a file it cannot handle fails with a PermanentContentError (no retries).
 */

const THUMBNAIL_SIZE = 256;
const MAX_CONVERTED_EDGE = 4096;

function isMedia(mediaType: string): boolean {
  return mediaType === 'image' || mediaType === 'video' || mediaType === 'audio';
}

/** sharp on a file it cannot decode: a clear permanent error rather than retries. */
async function withImage<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (err) {
    throw new PermanentContentError(`image cannot be decoded: ${(err as Error).message}`);
  }
}

async function extractTextStep(ctx: StepContext): Promise<StepResult> {
  const { mime_type: mime, media_type: mediaType } = ctx.version;
  if (isMedia(mediaType)) return { output: {}, skipped: `no text extraction for ${mime} (no OCR or transcription offline)` };
  if (!canExtractText(mime)) throw new PermanentContentError(`unknown or unsupported file type ${mime}: no text extractor`);
  const extracted = await extractTextOffLoop(await ctx.readOriginal(), mime, ctx.input.organizationId);
  const markdown = extracted.format === 'markdown';
  await ctx.putDerived('text', markdown ? 'text.md' : 'text.txt', extracted.bytes, markdown ? 'text/markdown' : 'text/plain', {
    chars: extracted.chars,
    ...(extracted.pages ? { pages: extracted.pages.length } : {}),
  });
  if (extracted.pages) {
    // Per-page text, so page ranges are answered later without parsing the PDF again.
    await ctx.putDerived('pages', 'pages.json', Buffer.from(JSON.stringify(extracted.pages), 'utf8'), 'application/json', {
      count: extracted.pages.length,
    });
  }
  return { output: { chars: extracted.chars, format: extracted.format, ...(extracted.pages ? { pages: extracted.pages.length } : {}) } };
}

async function extractMetadataStep(ctx: StepContext): Promise<StepResult> {
  const { mime_type: mime, media_type: mediaType } = ctx.version;
  const base = { mediaType, mimeType: mime, size: Number(ctx.version.size_bytes) };
  let found: Record<string, unknown> = {};
  if (mime === 'application/pdf') {
    found = { pdf: await pdfInfo(await ctx.readOriginal(), {}, ctx.input.organizationId) };
  } else if (mediaType === 'image') {
    const meta = await withImage(async () => sharp(await ctx.readOriginal()).metadata());
    found = {
      image: {
        width: meta.autoOrient?.width ?? meta.width,
        height: meta.autoOrient?.height ?? meta.height,
        format: meta.format,
        channels: meta.channels,
        hasAlpha: meta.hasAlpha,
        space: meta.space,
        density: meta.density ?? null,
        orientation: meta.orientation ?? null,
        pages: meta.pages ?? 1,
      },
      exif: parseExif(meta.exif),
    };
  } else if (mediaType === 'structured') {
    found = { structure: await structureOffLoop(await ctx.readOriginal(), mime, ctx.input.organizationId) };
  } else if (mime === DOCX) {
    const { bytes } = await extractTextOffLoop(await ctx.readOriginal(), mime, ctx.input.organizationId);
    found = { text: await textStatsOffLoop(bytes, 'text/markdown', ctx.input.organizationId) };
  } else if (mime.startsWith('text/')) {
    found = { text: await textStatsOffLoop(await ctx.readOriginal(), mime, ctx.input.organizationId) };
  }
  // Video and audio: the media type only (no ffprobe offline).
  await ctx.mergeExtracted({ ...base, ...found });
  return { output: { ...base, ...found } };
}

async function convertStep(ctx: StepContext): Promise<StepResult> {
  const { mime_type: mime, media_type: mediaType } = ctx.version;
  if (mediaType === 'image') {
    const webp = await withImage(async () =>
      sharp(await ctx.readOriginal())
        .rotate()
        .resize({ width: MAX_CONVERTED_EDGE, height: MAX_CONVERTED_EDGE, fit: 'inside', withoutEnlargement: true })
        .webp({ quality: 85 })
        .toBuffer({ resolveWithObject: true }),
    );
    await ctx.putDerived('converted', 'converted.webp', webp.data, 'image/webp', { width: webp.info.width, height: webp.info.height });
    return { output: { mimeType: 'image/webp', width: webp.info.width, height: webp.info.height, size: webp.data.length } };
  }
  if (mediaType !== 'document') return { output: {}, skipped: `no conversion for ${mime} (structured data is kept as is; no media transcoding offline)` };
  const bytes = await ctx.readOriginal();
  let markdown: { bytes: Buffer; chars: number };
  const fromText = (text: string) => ({ bytes: Buffer.from(text, 'utf8'), chars: text.length });
  if (mime === 'application/pdf') markdown = fromText((await pdfPages(bytes, {}, ctx.input.organizationId)).map((p, i) => `<!-- page ${i + 1} -->\n\n${p}`).join('\n\n'));
  else if (mime === DOCX) markdown = fromText(await docxMarkdown(bytes, {}, ctx.input.organizationId));
  else if (mime === 'text/html') markdown = await htmlToTextOffLoop(bytes, ctx.input.organizationId);
  else if (canExtractText(mime)) markdown = await extractTextOffLoop(bytes, mime, ctx.input.organizationId);
  else throw new PermanentContentError(`no converter for ${mime}`);
  await ctx.putDerived('converted', 'converted.md', markdown.bytes, 'text/markdown');
  return { output: { mimeType: 'text/markdown', chars: markdown.chars } };
}

async function thumbnailStep(ctx: StepContext): Promise<StepResult> {
  const { mime_type: mime, media_type: mediaType } = ctx.version;
  if (mime === 'application/pdf') return pdfThumbnail(ctx);
  if (mediaType !== 'image') return { output: {}, skipped: `no thumbnail for ${mime}` };
  const thumb = await withImage(async () =>
    sharp(await ctx.readOriginal())
      .rotate()
      .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside', withoutEnlargement: true })
      .webp({ quality: 80 })
      .toBuffer({ resolveWithObject: true }),
  );
  await ctx.putDerived('thumbnail', 'thumbnail.webp', thumb.data, 'image/webp', { width: thumb.info.width, height: thumb.info.height });
  return { output: { width: thumb.info.width, height: thumb.info.height, size: thumb.data.length } };
}

/**
 * The first page, rendered in a renderer process of its own under a deadline and a memory cap (lib/content/pdfRender)
 * at twice the thumbnail box, then scaled down and encoded by sharp like an image's thumbnail. Encrypted, broken or
 * hostile files fail the step with a coded PermanentContentError (PDF_ENCRYPTED, PDF_INVALID, PDF_RENDER_TIMEOUT...).
 */
async function pdfThumbnail(ctx: StepContext): Promise<StepResult> {
  const page = await renderPdfFirstPage(await ctx.readOriginal(), THUMBNAIL_SIZE * 2, {}, ctx.input.organizationId);
  const thumb = await sharp(page.rgba, { raw: { width: page.width, height: page.height, channels: 4 } })
    .flatten({ background: '#ffffff' })
    .resize({ width: THUMBNAIL_SIZE, height: THUMBNAIL_SIZE, fit: 'inside' })
    .webp({ quality: 80 })
    .toBuffer({ resolveWithObject: true });
  await ctx.putDerived('thumbnail', 'thumbnail.webp', thumb.data, 'image/webp', { width: thumb.info.width, height: thumb.info.height, page: 1 });
  return { output: { width: thumb.info.width, height: thumb.info.height, size: thumb.data.length, page: 1, pages: page.pages } };
}

async function chunkStep(ctx: StepContext): Promise<StepResult> {
  const text = await ctx.readDerived('text');
  if (text === null) {
    if (isMedia(ctx.version.media_type)) return { output: {}, skipped: 'no text to chunk' };
    throw new PermanentContentError('no extracted text: run extract_text first');
  }
  const chunks = await chunksOffLoop(text, ctx.input.chunkSize, ctx.input.chunkOverlap, ctx.input.organizationId);
  await ctx.putDerived('chunks', 'chunks.json', chunks.bytes, 'application/json', { count: chunks.count });
  return { output: { chunks: chunks.count, chunkSize: ctx.input.chunkSize, overlap: ctx.input.chunkOverlap } };
}

async function embedStep(ctx: StepContext): Promise<StepResult> {
  const { deps, input, vectors } = ctx;
  const raw = await ctx.readDerived('chunks');
  if (raw === null) {
    if (isMedia(ctx.version.media_type)) return { output: {}, skipped: 'no text to embed' };
    throw new PermanentContentError('no chunks: run chunk first');
  }
  const content = await getContent(deps.db, input.organizationId, input.contentId);
  if (!content) throw new PermanentContentError('content was deleted while processing');
  if (content.current_version !== input.version) {
    return { output: {}, skipped: `version ${input.version} superseded by version ${content.current_version}` };
  }
  const chunks = JSON.parse(raw.toString('utf8')) as Chunk[];
  if (chunks.length === 0) return { output: { chunks: 0 }, skipped: 'no text to embed' };

  const provider = await embeddingProviderForOrganization(deps, input.organizationId);
  const flat = await embedChunksOffLoop(raw, chunks, provider, input.organizationId);
  // Properties written out, not spread from a shared object: spreading cost ~5 µs a row, 50 ms of the worker's
  // loop for a document of 10,000 chunks.
  const row = (id: string, kind: VectorRow['kind'], chunkIndex: number, text: string, vector: VectorRow['vector']): VectorRow => ({
    id,
    organization_id: input.organizationId,
    content_id: input.contentId,
    version: input.version,
    kind,
    source: 'computed',
    chunk_index: chunkIndex,
    text,
    model: provider.model,
    vector,
  });
  const rows = chunks.map((c, i) => row(`${input.contentId}:${c.index}`, 'chunk', c.index, c.text, vectorAt(flat, i)));
  rows.push(row(`${input.contentId}:document`, 'document', -1, '', meanVector(flat)));
  await vectors.deleteContent(input.organizationId, input.contentId);
  await vectors.replaceContent(provider.model, provider.dimensions, input.organizationId, input.contentId, rows);
  if (!(await ctx.stillExists())) {
    // Deleted while we wrote: the deletion workflow may already have run, so remove our own writes.
    await vectors.deleteContent(input.organizationId, input.contentId);
    throw new PermanentContentError('content was deleted while processing');
  }
  await recordEmbedding(deps.db, input.organizationId, input.contentId, { model: provider.model, dimensions: provider.dimensions });
  return { output: { model: provider.model, dimensions: provider.dimensions, vectors: chunks.length } };
}

export const STEP_RUNNERS: Record<ProcessingStep, (ctx: StepContext) => Promise<StepResult>> = {
  extract_text: extractTextStep,
  extract_metadata: extractMetadataStep,
  convert: convertStep,
  thumbnail: thumbnailStep,
  chunk: chunkStep,
  embed: embedStep,
};
