import type { TestApi, TestResponse } from './stack';

/** Helpers for content tests: multipart uploads and waiting for a processing job to end. */
export interface UploadInput {
  bytes: Buffer | Uint8Array;
  filename: string;
  /** The client's claimed Content-Type of the file part. */
  type?: string;
  title?: string;
  tags?: string[];
  metadata?: Record<string, unknown>;
}

export async function uploadContent(api: TestApi, token: string, input: UploadInput, path = '/api/v1/content'): Promise<TestResponse> {
  const form = new FormData();
  if (input.title !== undefined) form.append('title', input.title);
  if (input.tags !== undefined) form.append('tags', JSON.stringify(input.tags));
  if (input.metadata !== undefined) form.append('metadata', JSON.stringify(input.metadata));
  form.append('file', new Blob([input.bytes], { type: input.type ?? 'application/octet-stream' }), input.filename);
  const res = await fetch(api.baseUrl + path, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  const text = await res.text();
  let body: unknown;
  try {
    body = text ? JSON.parse(text) : undefined;
  } catch {
    body = undefined;
  }
  return { status: res.status, headers: res.headers, body, text };
}

/** Polls /status until the latest job has ended (no timing assertion: the deadline only bounds a hang). */
export async function waitForProcessing(api: TestApi, token: string, contentId: string, deadlineMs = 60_000): Promise<TestResponse> {
  const until = Date.now() + deadlineMs;
  for (;;) {
    const res = await api.request('GET', `/api/v1/content/${contentId}/status`, { token });
    const status = res.body?.job?.status;
    if (status === 'succeeded' || status === 'failed' || Date.now() > until) return res;
    await new Promise((r) => setTimeout(r, 250));
  }
}

export async function download(api: TestApi, token: string, path: string, headers: Record<string, string> = {}) {
  const res = await fetch(api.baseUrl + path, { headers: { authorization: `Bearer ${token}`, ...headers } });
  return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
}
