import http from 'node:http';
import https from 'node:https';
import type { UrlGuard } from './urlGuard';

/** One POST with a hard timeout, no redirects followed, at most 64 KiB of the answer read. */
export interface PostResult {
  status: number;
  bodySnippet: string;
}

export function postJson(url: URL, body: string, headers: Record<string, string>, timeoutMs: number, guard: UrlGuard): Promise<PostResult> {
  guard.checkUrl(url);
  const transport = url.protocol === 'https:' ? https : http;
  return new Promise((resolve, reject) => {
    const req = transport.request(
      url,
      {
        method: 'POST',
        headers: { ...headers, 'content-length': Buffer.byteLength(body).toString() },
        lookup: guard.lookup,
        timeout: timeoutMs,
      },
      (res) => {
        const chunks: Buffer[] = [];
        let size = 0;
        res.on('data', (chunk: Buffer) => {
          if (size < 65_536) chunks.push(chunk);
          size += chunk.length;
        });
        res.on('end', () => resolve({ status: res.statusCode ?? 0, bodySnippet: Buffer.concat(chunks).toString('utf8').slice(0, 500) }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${timeoutMs} ms`)));
    req.on('error', reject);
    req.end(body);
  });
}
