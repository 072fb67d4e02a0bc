import sharp from 'sharp';
import { download, uploadContent, waitForProcessing } from '../helpers/content';
import { brokenPdf, passwordProtectedPdf, pdfWithBlackRectangle, regionLevels } from '../helpers/pdfs';
import type { TestApi } from '../helpers/stack';
import { startApiWithTenant, type TestTenant } from '../helpers/tenants';

/**
 * PDF thumbnails through the real stack: upload through the API, the worker's thumbnail step renders the first page
 * (pdf.js on @napi-rs/canvas, in a renderer process with a deadline and a memory cap) and encodes it with sharp;
 * the thumbnail is downloaded like an image's. Encrypted and broken PDFs fail the step with a code, not the worker.
 */
let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  ({ api, tenant } = await startApiWithTenant());
});
afterAll(() => api.close());

type Step = { name: string; state: string; error: string | null; output: Record<string, unknown> | null; attempts: number };
const stepOf = (status: { job: { steps: Step[] } }, name: string): Step => status.job.steps.find((s) => s.name === name)!;

async function processed(bytes: Buffer, filename: string) {
  const up = await uploadContent(api, tenant.owner.token, { bytes, filename });
  expect(up.status).toBe(201);
  expect(up.body.mimeType).toBe('application/pdf');
  const status = await waitForProcessing(api, tenant.owner.token, up.body.id, 120_000);
  return { id: up.body.id as string, status: status.body };
}

test('the first page of a PDF becomes a 256 px WebP thumbnail: right size, black where the page is, white elsewhere', async () => {
  const { id, status } = await processed(await pdfWithBlackRectangle(2), 'letter.pdf');
  expect(status.job.status).toBe('succeeded');
  // US Letter (612 × 792 pt) inside a 256 × 256 box.
  expect(stepOf(status, 'thumbnail')).toMatchObject({ state: 'succeeded', attempts: 1, error: null, output: { width: 198, height: 256, page: 1, pages: 2 } });

  const thumb = await download(api, tenant.owner.token, `/api/v1/content/${id}/download?variant=thumbnail`);
  expect(thumb.status).toBe(200);
  expect(thumb.headers.get('content-type')).toBe('image/webp');
  const { data, info } = await sharp(thumb.bytes).raw().toBuffer({ resolveWithObject: true });
  expect([info.width, info.height]).toEqual([198, 256]);
  const levels = (region: { left: number; top: number; width: number; height: number }) => regionLevels(data, info, region);
  // The rectangle spans x 100–400 pt and y 192–392 pt from the top: 256/792 px per pt, i.e. x 32–129, y 62–127.
  expect(levels({ left: 45, top: 75, width: 70, height: 40 }).max).toBeLessThanOrEqual(40);
  // Paper below it stays white (WebP is lossy: near white).
  expect(levels({ left: 5, top: 150, width: 188, height: 100 }).min).toBeGreaterThanOrEqual(230);
  const whole = await sharp(thumb.bytes).stats();
  expect(whole.channels[0]!.mean).toBeGreaterThan(150); // mostly paper
  expect(whole.channels[0]!.mean).toBeLessThan(250); // not blank

  const detail = await api.request('GET', `/api/v1/content/${id}`, { token: tenant.owner.token });
  expect(detail.body.currentVersion.derived.thumbnail).toMatchObject({ mimeType: 'image/webp', width: 198, height: 256, size: thumb.bytes.length });
  expect(detail.body.currentVersion.derived.thumbnail.key).toBeUndefined();
});

test('a broken PDF fails its thumbnail step with PDF_INVALID at once; the job ends, the worker goes on', async () => {
  const { id, status } = await processed(brokenPdf(), 'broken.pdf');
  expect(status.job.status).toBe('failed');
  expect(stepOf(status, 'thumbnail')).toMatchObject({ state: 'failed', attempts: 1, output: { errorCode: 'PDF_INVALID' } });
  expect(stepOf(status, 'thumbnail').error).toMatch(/unreadable PDF/);
  const thumb = await download(api, tenant.owner.token, `/api/v1/content/${id}/download?variant=thumbnail`);
  expect(thumb.status).toBe(404);
});

test('a password-protected PDF fails its thumbnail step with PDF_ENCRYPTED; a good PDF after it still renders', async () => {
  const { status } = await processed(await passwordProtectedPdf(), 'secret.pdf');
  expect(status.job.status).toBe('failed');
  expect(stepOf(status, 'thumbnail')).toMatchObject({ state: 'failed', attempts: 1, output: { errorCode: 'PDF_ENCRYPTED' } });
  expect(stepOf(status, 'thumbnail').error).toMatch(/password/);

  const after = await processed(await pdfWithBlackRectangle(), 'after.pdf');
  expect(stepOf(after.status, 'thumbnail')).toMatchObject({ state: 'succeeded', output: { width: 198, height: 256 } });
});
