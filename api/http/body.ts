import type { Context } from 'koa';
import { parse as parseYaml } from 'yaml';
import { AppError } from '../../lib/errors';
import type { BodyFormat } from './route';

/**
 * Reads a request body with a hard size limit, then parses it by content type. Objects are rebuilt without
 * `__proto__` keys so a payload can never reach Object.prototype.
 */
export async function readRawBody(ctx: Context, limitBytes: number): Promise<Buffer> {
  const declared = Number(ctx.get('content-length') || 0);
  if (declared > limitBytes) {
    throw new AppError('PAYLOAD_TOO_LARGE', `body larger than ${limitBytes} bytes`);
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of ctx.req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limitBytes) {
      ctx.req.destroy();
      throw new AppError('PAYLOAD_TOO_LARGE', `body larger than ${limitBytes} bytes`);
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

function stripProto(_key: string, value: unknown): unknown {
  if (value && typeof value === 'object' && !Array.isArray(value)) {
    const record = value as Record<string, unknown>;
    if (Object.prototype.hasOwnProperty.call(record, '__proto__')) {
      delete record.__proto__;
    }
  }
  return value;
}

export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text, stripProto);
  } catch (err) {
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
    try {
      // Re-serialise through JSON so YAML anchors/tags cannot produce anything but plain data.
      return parseJson(JSON.stringify(parseYaml(text, { maxAliasCount: 100 })));
    } catch (err) {
      if (err instanceof AppError) throw err;
      throw new AppError('VALIDATION_ERROR', `malformed YAML body: ${(err as Error).message}`);
    }
  }
  if (type === 'application/json' || type.endsWith('+json') || type === '') {
    return parseJson(text);
  }
  const accepted = formats.includes('yaml') ? 'application/json or application/yaml' : 'application/json';
  throw new AppError('UNSUPPORTED_MEDIA_TYPE', `content type ${type} not accepted; send ${accepted}`);
}
