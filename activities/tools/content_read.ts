import { z } from 'zod';
import { decodeUtf8, encodeBase64, readSized } from '../../lib/largeBytes';
import type { SerializedJson } from '../../lib/serializedJson';
import { MAX_FILE_BYTES, workflowFileKey } from './support/files';
import { parseForTool } from './support/parsing';
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
    const type = (stat.metaData as Record<string, string> | undefined)?.['content-type'] ?? null;
    const around = { path: input.path.replace(/^\/+/, ''), bytes: data.length, content_type: type };
    if (encoding === 'json') {
      try {
        // A large file (10 MB of JSON: 100-200 ms of JSON.parse) is parsed off the worker's event loop.
        return (await parseForTool({ format: 'json', text: data, options: {} }, ctx.organizationId, { wrap: 'content', around })) as
          | (typeof around & { content: unknown })
          | SerializedJson;
      } catch (err) {
        if (err instanceof NonRetryableToolError && err.code === 'INVALID_JSON') throw new NonRetryableToolError('INVALID_JSON', `${input.path} is not JSON`);
        throw err;
      }
    }
    return { ...around, content: encoding === 'base64' ? await encodeBase64(data) : await decodeUtf8(data) };
  },
});
