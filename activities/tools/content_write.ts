import { z } from 'zod';
import { MAX_FILE_BYTES, workflowFileKey } from './support/files';
import { defineTool, NonRetryableToolError } from './types';

/** Writes a file into the organization's storage (`org/<orgId>/workflow-files/<path>`); overwrites are idempotent. */
export default defineTool({
  id: 'content_write',
  name: 'Content write',
  category: 'file',
  description:
    'Writes a file to the organization\'s workflow files (`path`, max 10 MB). `encoding`: utf8 (default for ' +
    'strings), base64, or json (default for other values). Writing the same path again replaces the file.',
  input: z.strictObject({
    path: z.string().min(1).max(1024),
    content: z.unknown(),
    encoding: z.enum(['utf8', 'base64', 'json']).optional(),
    content_type: z.string().max(200).optional(),
  }),
  output: z.object({ path: z.string(), key: z.string(), bytes: z.int(), etag: z.string().optional() }),
  sideEffect: 'idempotent',
  async execute(input, ctx) {
    const key = workflowFileKey(ctx.organizationId, input.path);
    const encoding = input.encoding ?? (typeof input.content === 'string' ? 'utf8' : 'json');
    let data: Buffer;
    let contentType = input.content_type;
    if (encoding === 'json') {
      data = Buffer.from(JSON.stringify(input.content ?? null), 'utf8');
      contentType ??= 'application/json';
    } else {
      if (typeof input.content !== 'string') {
        throw new NonRetryableToolError('INVALID_INPUT', `content must be a string for encoding ${encoding}`);
      }
      data = Buffer.from(input.content, encoding);
      contentType ??= encoding === 'utf8' ? 'text/plain; charset=utf-8' : 'application/octet-stream';
    }
    if (data.length > MAX_FILE_BYTES) throw new NonRetryableToolError('FILE_TOO_LARGE', `larger than ${MAX_FILE_BYTES} bytes`);
    const result = await ctx.deps.storage.putObject(ctx.deps.config.minio.bucket, key, data, data.length, {
      'Content-Type': contentType,
    });
    return { path: input.path.replace(/^\/+/, ''), key, bytes: data.length, etag: result.etag };
  },
});
