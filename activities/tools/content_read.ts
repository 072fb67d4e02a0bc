import { z } from 'zod';
import { decodeUtf8, encodeBase64, readSized } from '../../lib/largeBytes';
import { MAX_FILE_BYTES, workflowFileKey } from './support/files';
import { defineTool, NonRetryableToolError } from './types';

/** Reads a file from the organization's storage (`org/<orgId>/workflow-files/<path>`). */
export default defineTool({
  id: 'content_read',
  name: 'Content read',
  category: 'file',
  description:
    'Reads a file of the organization\'s workflow files (max 10 MB). `encoding`: utf8 (default), base64, or json ' +
    '(parsed). A missing file fails without retry (FILE_NOT_FOUND).',
  input: z.strictObject({ path: z.string().min(1).max(1024), encoding: z.enum(['utf8', 'base64', 'json']).optional() }),
  output: z.object({ path: z.string(), content: z.unknown(), bytes: z.int(), content_type: z.string().nullable().optional() }),
  sideEffect: 'none',
  async execute(input, ctx) {
    const key = workflowFileKey(ctx.organizationId, input.path);
    const bucket = ctx.deps.config.minio.bucket;
    let stat;
    try {
      stat = await ctx.deps.storage.statObject(bucket, key);
    } catch (err) {
      const code = (err as { code?: string }).code;
      if (code === 'NotFound' || code === 'NoSuchKey') throw new NonRetryableToolError('FILE_NOT_FOUND', `no file ${input.path}`);
      throw err;
    }
    if (stat.size > MAX_FILE_BYTES) throw new NonRetryableToolError('FILE_TOO_LARGE', `larger than ${MAX_FILE_BYTES} bytes`);
    const stream = await ctx.deps.storage.getObject(bucket, key);
    const data = await readSized(stream, stat.size, () => new Error(`${input.path} changed while it was read`));
    const encoding = input.encoding ?? 'utf8';
    let content: unknown;
    if (encoding === 'base64') content = await encodeBase64(data);
    else if (encoding === 'json') {
      try {
        content = JSON.parse(await decodeUtf8(data)) as unknown;
      } catch {
        throw new NonRetryableToolError('INVALID_JSON', `${input.path} is not JSON`);
      }
    } else content = await decodeUtf8(data);
    const type = (stat.metaData as Record<string, string> | undefined)?.['content-type'] ?? null;
    return { path: input.path.replace(/^\/+/, ''), content, bytes: data.length, content_type: type };
  },
});
