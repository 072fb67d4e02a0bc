import { sanitizeFilename } from '../../lib/content/filename';
import busboy from 'busboy';
import type { Context } from 'koa';
import { AppError, validationError } from '../../lib/errors';
import { sniffMimeType, SNIFF_BYTES } from '../../lib/content/mediaTypes';
import { UploadLimitError, writeStreamToObject, type WrittenObject } from '../../lib/content/objectWriter';
import { storageQuotaExceeded } from '../../lib/content/quota';
import { jsonNestedDeeperThan, MAX_JSON_DEPTH } from '../../lib/jsonDepth';
import type { ReceivedUpload, UploadFields, UploadTarget } from '../../domain/content/upload';
import { refuseRestOfBody } from '../http/body';

const KNOWN_FIELDS = new Set(['title', 'tags', 'metadata']);
const MAX_FIELDS = 20;
const MAX_FIELD_BYTES = 128 * 1024;
/** The fields' bytes plus every part's headers and boundaries, generously. */
const FIELDS_ALLOWANCE = MAX_FIELDS * MAX_FIELD_BYTES + 512 * 1024;

/** `content_versions.declared_mime_type` is a varchar(255). */
const MAX_DECLARED_TYPE_CHARS = 255;

/** A text part holding JSON; `expected` says what it should be when it does not parse. */
function parseJsonField(text: string, field: 'tags' | 'metadata', expected: string): unknown {
  if (jsonNestedDeeperThan(text, MAX_JSON_DEPTH)) {
    throw validationError(`invalid ${field}`, [{ path: field, problem: `nested deeper than ${MAX_JSON_DEPTH} levels` }]);
  }
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw validationError(`invalid ${field}`, [{ path: field, problem: expected }]);
  }
}

function parseTags(raw: string[]): unknown {
  return raw.length === 1 && raw[0]!.trim().startsWith('[') ? parseJsonField(raw[0]!, 'tags', 'not a JSON array') : raw;
}

/**
 * Reads a `multipart/form-data` upload: one part named `file` (streamed straight to MinIO) and optional text
 * parts `title`, `tags` (a JSON array, or the part repeated) and `metadata` (a JSON object). Parts may come in
 * any order. On any failure the object is gone before this throws.
 */
export async function receiveMultipartUpload(ctx: Context, options: UploadTarget): Promise<ReceivedUpload> {
  const type = (ctx.get('content-type') || '').toLowerCase();
  if (!type.startsWith('multipart/form-data')) {
    throw new AppError('UNSUPPORTED_MEDIA_TYPE', 'send multipart/form-data with a `file` part');
  }
  // Besides the file, a request holds at most 20 small fields: a declared length beyond the file limit plus
  // their allowance can only be refused, and is, before a byte is read.
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > options.maxBytes + FIELDS_ALLOWANCE) {
    refuseRestOfBody(ctx);
    throw new AppError('PAYLOAD_TOO_LARGE', `file larger than the upload limit of ${options.maxBytes} bytes`);
  }
  if (options.quotaRemaining !== null && declared > options.quotaRemaining + FIELDS_ALLOWANCE) {
    refuseRestOfBody(ctx);
    throw storageQuotaExceeded(options.quota, { bytes: declared - FIELDS_ALLOWANCE, atLeast: true });
  }
  let parser: busboy.Busboy;
  try {
    parser = busboy({
      headers: ctx.req.headers,
      limits: { files: 1, fields: MAX_FIELDS, fieldSize: MAX_FIELD_BYTES, parts: 25 },
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

  let rejectParsed: (err: unknown) => void = () => undefined;
  const parsed = new Promise<void>((resolve, reject) => {
    rejectParsed = reject;
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
      if (info.mimeType.length > MAX_DECLARED_TYPE_CHARS) {
        // Stored with the version (a varchar of this size): longer is no media type, and failed the insert (a 500).
        problems.push({ path: 'file', problem: `the part's Content-Type is longer than ${MAX_DECLARED_TYPE_CHARS} characters` });
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
        // Past a limit the rest of the request is never read: the answer goes out now, and the connection closes.
        onLimit: (err) => {
          ctx.req.unpipe(parser);
          refuseRestOfBody(ctx);
          stream.destroy();
          rejectParsed(err);
        },
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
    if (!filePromise) {
      throw problems.length ? validationError('invalid upload', problems) : validationError('no file', [{ path: 'file', problem: 'a `file` part is required' }]);
    }
    const file = await filePromise;
    if (problems.length) throw validationError('invalid upload', problems);
    const fields: UploadFields = {};
    if (fieldValues.title) fields.title = fieldValues.title[fieldValues.title.length - 1];
    if (fieldValues.tags) fields.tags = parseTags(fieldValues.tags);
    if (fieldValues.metadata) {
      fields.metadata = parseJsonField(fieldValues.metadata[fieldValues.metadata.length - 1]!, 'metadata', 'not valid JSON');
    }
    return { fields, file: { ...file, filename, declaredMimeType } };
  } catch (err) {
    // Settle the writer before answering: it must not finish an object after we decided to refuse the upload.
    if (filePromise) await filePromise.catch(() => undefined);
    await options.storage.removeObject(options.bucket, options.key).catch(() => undefined);
    if (err instanceof UploadLimitError) {
      throw err.reason === 'size'
        ? new AppError('PAYLOAD_TOO_LARGE', `file larger than the upload limit of ${err.limit} bytes`)
        : storageQuotaExceeded(options.quota, { bytes: err.limit, atLeast: true });
    }
    throw err;
  }
}
