import { Writable } from 'node:stream';
import { startApi, type TestApi } from './stack';

/** Everything a pino logger writes, as raw text (for "this secret never reached the logs" checks). */
export class LogCapture extends Writable {
  readonly chunks: string[] = [];
  override _write(chunk: Buffer, _enc: BufferEncoding, done: () => void): void {
    this.chunks.push(chunk.toString('utf8'));
    done();
  }
  get text(): string {
    return this.chunks.join('');
  }
}

/** Like startApi, but the API's logger writes, at the most verbose level, into a capture. */
export async function startApiWithLogCapture(overrides: Record<string, string> = {}): Promise<{ api: TestApi; logs: LogCapture }> {
  const logs = new LogCapture();
  return { api: await startApi(overrides, logs), logs };
}
