import type { Context } from 'koa';
import { AppError } from '../../lib/errors';
import { jsonNestedDeeperThan, jsonObjectWiderThan, MAX_JSON_DEPTH } from '../../lib/jsonDepth';
import type { BodyFormat } from './route';
import { yamlToJson } from './yamlBody';

/**
 * Reads a request body with a hard size limit, then parses it by content type. Objects are rebuilt without
 * `__proto__` keys so a payload can never reach Object.prototype.
 */
export function readRawBody(ctx: Context, limitBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) {
    refuseRestOfBody(ctx);
    return Promise.reject(new AppError('PAYLOAD_TOO_LARGE', `body larger than ${limitBytes} bytes`));
  }
  // 'data' events rather than for-await: leaving a for-await loop destroys the request, and with it the socket,
  // so the client would see a reset instead of the 413.
  const req = ctx.req;
  if (req.readableEnded) return Promise.resolve(Buffer.alloc(0));
  return new Promise<Buffer>((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const stop = (): void => {
      req.off('data', onData);
      req.off('end', onEnd);
      req.off('error', onError);
      req.off('close', onClose);
    };
    const onData = (buf: Buffer): void => {
      size += buf.length;
      if (size > limitBytes) {
        stop();
        chunks.length = 0;
        refuseRestOfBody(ctx);
        reject(new AppError('PAYLOAD_TOO_LARGE', `body larger than ${limitBytes} bytes`));
        return;
      }
      chunks.push(buf);
    };
    const onEnd = (): void => {
      stop();
      resolve(Buffer.concat(chunks));
    };
    const onError = (err: Error): void => {
      stop();
      reject(err);
    };
    // A client that goes away mid-body: no 'end' will come.
    const onClose = (): void => {
      stop();
      reject(new AppError('VALIDATION_ERROR', 'request body aborted by the client'));
    };
    req.on('data', onData);
    req.on('end', onEnd);
    req.on('error', onError);
    req.on('close', onClose);
  });
}

/**
 * The rest of an oversized body is never read: reading stops now, and the connection is closed once the error
 * answer has been written (a client still sending gets the 413 first, then the close).
 */
export function refuseRestOfBody(ctx: Context): void {
  ctx.req.pause();
  ctx.set('Connection', 'close');
}

/**
 * Fields one object of a request body may hold. No body of ours needs more, and validation is per field: zod alone
 * spent 130-150 ms on a 1 MB object of 75,000 unknown keys, on the API's event loop. Counted while parsing.
 */
export const MAX_OBJECT_FIELDS = 10_000;

function stripProto(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(record, '__proto__')) {
      delete record.__proto__;
    }
    if (Object.keys(record).length > MAX_OBJECT_FIELDS) {
      throw new AppError('VALIDATION_ERROR', `an object in the body has more than ${MAX_OBJECT_FIELDS} fields`);
    }
  }
  return value;
}

export function parseJson(text: string): unknown {
  if (jsonNestedDeeperThan(text, MAX_JSON_DEPTH)) {
    throw new AppError('INVALID_JSON', `JSON body nested deeper than ${MAX_JSON_DEPTH} levels`);
  }
  // Counted before parsing too: parsing alone is the cost of a body of 75,000 short keys.
  if (jsonObjectWiderThan(text, MAX_OBJECT_FIELDS)) {
    throw new AppError('VALIDATION_ERROR', `an object in the body has more than ${MAX_OBJECT_FIELDS} fields`);
  }
  try {
    return JSON.parse(text, stripProto);
  } catch (err) {
    if (err instanceof AppError) throw err;
    throw new AppError('INVALID_JSON', `malformed JSON body: ${(err as Error).message}`);
  }
}

const YAML_TYPES = ['application/yaml', 'application/x-yaml', 'text/yaml', 'text/x-yaml'];

export async function readBody(ctx: Context, formats: BodyFormat[], limitBytes: number): Promise<unknown> {
  const raw = await readRawBody(ctx, limitBytes);
  if (raw.length === 0) return undefined;
  const type = (ctx.get('content-type').split(';')[0] ?? '').trim().toLowerCase();
  const text = raw.toString('utf8');
  if (formats.includes('yaml') && YAML_TYPES.includes(type)) {
    // Parsed in a worker thread with a deadline (yamlBody.ts); re-serialised through JSON so YAML anchors and tags
    // cannot produce anything but plain data.
    const json = await yamlToJson(text);
    return json === undefined ? undefined : parseJson(json);
  }
  if (type === 'application/json' || type.endsWith('+json') || type === '') {
    return parseJson(text);
  }
  const accepted = formats.includes('yaml') ? 'application/json or application/yaml' : 'application/json';
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', `content type ${type} not accepted; send ${accepted}`);
}
