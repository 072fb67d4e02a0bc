import { randomBytes, randomUUID } from 'node:crypto';
import { request } from 'node:http';
import { Readable } from 'node:stream';
import type { BenchContext } from '../lib/context';
import { sampleRss } from '../lib/procs';
import { ratioOf } from '../lib/results';
import { round } from '../lib/stats';

/**
 * Row 6: one large file through `POST /api/v1/content` (streamed multipart) against a direct `putObject` of the
 * same bytes to the same MinIO, and the API process's RSS growth while it streams (VmRSS sampled every 100 ms).
 */
const CHUNK = 1024 * 1024;

function payloadChunks(bytes: number): Buffer[] {
  // Incompressible, and the same chunk repeated: the bench itself stays small.
  const block = randomBytes(CHUNK);
  const chunks: Buffer[] = [];
  for (let left = bytes; left > 0; left -= CHUNK) chunks.push(left >= CHUNK ? block : block.subarray(0, left));
  return chunks;
}

async function uploadThroughApi(ctx: BenchContext, chunks: Buffer[], bytes: number): Promise<number> {
  const boundary = `----bench${randomUUID()}`;
  const head = Buffer.from(
    `--${boundary}\r\nContent-Disposition: form-data; name="title"\r\n\r\nbench upload\r\n` +
      `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="bench.bin"\r\n` +
      `Content-Type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const url = new URL(`${ctx.stack.apiUrl}/api/v1/content`);
  const started = performance.now();
  await new Promise<void>((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        headers: {
          authorization: `Bearer ${ctx.session.token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + bytes + tail.length,
        },
      },
      (res) => {
        let text = '';
        res.on('data', (d: Buffer) => (text += d.toString()));
        res.on('end', () => (res.statusCode === 201 ? resolve() : reject(new Error(`upload answered ${res.statusCode}: ${text.slice(0, 300)}`))));
      },
    );
    req.on('error', reject);
    Readable.from([head, ...chunks, tail]).pipe(req);
  });
  return (performance.now() - started) / 1000;
}

async function putDirect(ctx: BenchContext, chunks: Buffer[], bytes: number): Promise<number> {
  const started = performance.now();
  await ctx.scratch.storage.putObject(ctx.scratch.bucket, `bench/direct-${randomUUID()}.bin`, Readable.from(chunks), bytes, {
    'Content-Type': 'application/octet-stream',
  });
  return (performance.now() - started) / 1000;
}

export async function uploadScenario(ctx: BenchContext): Promise<void> {
  const { params, stack } = ctx;
  const bytes = params.uploadBytes;
  const mb = bytes / 1024 / 1024;
  const chunks = payloadChunks(bytes);
  const baselineSeconds: number[] = [];
  const oursSeconds: number[] = [];
  let rssGrowth = 0;
  let rssPeak = 0;
  for (let i = 0; i < params.uploadRepeats; i += 1) {
    baselineSeconds.push(await putDirect(ctx, chunks, bytes));
    const rss = sampleRss(stack.api!.pid);
    oursSeconds.push(await uploadThroughApi(ctx, chunks, bytes));
    const sample = rss.stop();
    rssGrowth = Math.max(rssGrowth, sample.peak - sample.start);
    rssPeak = Math.max(rssPeak, sample.peak);
  }
  // Best of the repeats on both sides: the machine is shared, the best run is the least disturbed.
  const baseline = mb / Math.min(...baselineSeconds);
  const ours = mb / Math.min(...oursSeconds);
  const ratio = ratioOf(ours, baseline);
  ctx.addRow({
    id: 'upload_throughput',
    path: `Upload of ${round(mb)} MB, POST /api/v1/content (MB/s, best of ${params.uploadRepeats})`,
    baseline: { label: 'direct putObject to MinIO', value: round(baseline), unit: 'MB/s' },
    ours: { value: round(ours), unit: 'MB/s' },
    ratio: round(ratio, 3),
    goal: '>= 0.7x',
    met: ratio >= 0.7,
    details: { baselineSeconds, oursSeconds },
  });
  const growthMb = rssGrowth / 1024 / 1024;
  ctx.addRow({
    id: 'upload_rss',
    path: `Upload of ${round(mb)} MB: API RSS growth (MB)`,
    baseline: { label: '-', value: null, unit: 'MB' },
    ours: { value: round(growthMb), unit: 'MB' },
    ratio: null,
    goal: '< 64 MB (absolute)',
    met: growthMb < 64,
    notes: `API peak RSS ${round(rssPeak / 1024 / 1024)} MB`,
  });
}
