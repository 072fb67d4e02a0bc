import path from 'node:path';
import busboy from 'busboy';
import type { Context } from 'koa';
import { AppError, validationError } from '../../lib/errors';
import { sniffMimeType, SNIFF_BYTES } from '../../lib/content/mediaTypes';
import { UploadLimitError, writeStreamToObject, type WrittenObject } from '../../lib/content/objectWriter';
import type { MinioClient } from '../../lib/storage';

/**
 * Reads a `multipart/form-data` upload: one part named `file` (streamed straight to MinIO) and optional text
 * parts `title`, `tags` (a JSON array, or the part repeated) and `metadata` (a JSON object). Parts may come in
 * any order. On any failure the object is gone before this throws.
 */
export interface UploadFields {
  title?: string;
  tags?: unknown;
  metadata?: unknown;
}

export interface ReceivedUpload {
  fields: UploadFields;
  file: WrittenObject & { filename: string; declaredMimeType: string | null };
}

const KNOWN_FIELDS = new Set(['title', 'tags', 'metadata']);

export function sanitizeFilename(name: string | undefined): string {
  const base = [...path.basename((name ?? '').replace(/\\/g, '/'))]
    .filter((ch) => ch.charCodeAt(0) >= 32 && ch.charCodeAt(0) !== 127)
    .join('')
    .trim();
  return (base || 'file').slice(0, 255);
}

function parseTags(raw: string[]): unknown {
  if (raw.length === 1 && raw[0]!.trim().startsWith('[')) {
    try {
      return JSON.parse(raw[0]!) as unknown;
    } catch {
      throw validationError('invalid tags', [{ path: 'tags', problem: 'not a JSON array' }]);
    }
  }
  return raw;
}

export async function receiveMultipartUpload(
  ctx: Context,
  options: { storage: MinioClient; bucket: string; key: string; maxBytes: number; quotaRemaining: number | null },
): Promise<ReceivedUpload> {
  const type = (ctx.get('content-type') || '').toLowerCase();
  if (!type.startsWith('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'send multipart/form-data with a `file` part');
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      limits: { files: 1, fields: 20, fieldSize: 128 * 1024, parts: 25 },
      defParamCharset: 'utf8',
    });
  } catch (err) {
    throw validationError(`malformed multipart request: ${(err as Error).message}`);
  }

  const fieldValues: Record<string, string[]> = {};
  const problems: { path: string; problem: string }[] = [];
  // Assigned in parser callbacks; typed loosely enough that TypeScript does not narrow it to null.
  let filePromise = null as Promise<WrittenObject> | null;
  let filename = 'file';
  let declaredMimeType: string | null = null;

  // A client that never stops sending after a limit was hit is cut off rather than drained forever.
  const drainCap = options.maxBytes * 2 + 16 * 1024 * 1024;
  let received = 0;
  ctx.req.on('data', (chunk: Buffer) => {
    received += chunk.length;
    if (received > drainCap) ctx.req.destroy();
  });

  const parsed = new Promise<void>((resolve, reject) => {
    parser.on('field', (name, value) => {
      if (!KNOWN_FIELDS.has(name)) problems.push({ path: name, problem: 'unknown field (allowed: file, title, tags, metadata)' });
      else (fieldValues[name] ??= []).push(value);
    });
    parser.on('file', (name, stream, info) => {
      if (name !== 'file' || filePromise) {
        problems.push({ path: name, problem: name === 'file' ? 'only one file per upload' : 'unknown file field (use `file`)' });
        stream.resume();
        return;
      }
      filename = sanitizeFilename(info.filename);
      declaredMimeType = info.mimeType && info.mimeType !== 'application/octet-stream' ? info.mimeType.toLowerCase() : null;
      filePromise = writeStreamToObject(stream, {
        storage: options.storage,
        bucket: options.bucket,
        key: options.key,
        maxBytes: options.maxBytes,
        quotaBytes: options.quotaRemaining,
        headBytes: SNIFF_BYTES,
        contentType: (head) => sniffMimeType(head, filename, declaredMimeType),
      });
      // Handled below; keep an early rejection from being reported as unhandled.
      filePromise.catch(() => undefined);
    });
    parser.on('fieldsLimit', () => problems.push({ path: 'fields', problem: 'too many fields' }));
    parser.on('filesLimit', () => problems.push({ path: 'file', problem: 'only one file per upload' }));
    parser.on('partsLimit', () => problems.push({ path: 'parts', problem: 'too many parts' }));
    parser.on('close', resolve);
    parser.on('error', (err: Error) => reject(validationError(`malformed multipart request: ${err.message}`)));
    ctx.req.on('aborted', () => reject(validationError('upload aborted by the client')));
  });
  ctx.req.pipe(parser);

  try {
    await parsed;
    if (!filePromise) throw validationError('no file', [{ path: 'file', problem: 'a `file` part is required' }]);
    const file = await filePromise;
    if (problems.length) throw validationError('invalid upload', problems);
    const fields: UploadFields = {};
    if (fieldValues.title) fields.title = fieldValues.title[fieldValues.title.length - 1];
    if (fieldValues.tags) fields.tags = parseTags(fieldValues.tags);
    if (fieldValues.metadata) {
      try {
        fields.metadata = JSON.parse(fieldValues.metadata[fieldValues.metadata.length - 1]!) as unknown;
      } catch {
        throw validationError('invalid metadata', [{ path: 'metadata', problem: 'not valid JSON' }]);
      }
    }
    return { fields, file: { ...file, filename, declaredMimeType } };
  } catch (err) {
    // Settle the writer before answering: it must not finish an object after we decided to refuse the upload.
    if (filePromise) await filePromise.catch(() => undefined);
    await options.storage.removeObject(options.bucket, options.key).catch(() => undefined);
    if (err instanceof UploadLimitError) {
      throw err.reason === 'size'
        ? new AppError('PAYLOAD_TOO_LARGE', `file larger than the upload limit of ${err.limit} bytes`)
        : new AppError('QUOTA_EXCEEDED', 'the storage quota of the organization plan is exhausted');
    }
    throw err;
  }
}
