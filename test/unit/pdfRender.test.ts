import type { PermanentContentError } from '../../lib/content/errors';
import { MAX_WAITING_JOBS, MAX_WAITING_JOBS_PER_ORGANIZATION } from '../../lib/content/fileChild';
import { renderPdfFirstPage } from '../../lib/content/pdfRender';
import { ServiceUnavailableError } from '../../lib/unavailable';
import { brokenPdf, passwordProtectedPdf, pdfOfPageSize, pdfWithBlackRectangle, permanentFailure, regionLevels, slowPdf } from '../helpers/pdfs';

/**
 * The PDF renderer process (lib/content/pdfRender.ts): a real render of a first page, and every refusal with its
 * code. Each test starts a real renderer process (node + pdf.js), a second or two each.
 */
jest.setTimeout(60_000);

test('renders the first page into the box, black where the page is black and white elsewhere', async () => {
  const page = await renderPdfFirstPage(await pdfWithBlackRectangle(3), 512);
  expect(page).toMatchObject({ width: 396, height: 512, pages: 3, pageWidth: 612, pageHeight: 792 });
  expect(page.rgba.length).toBe(396 * 512 * 4);
  const levels = (region: { left: number; top: number; width: number; height: number }) => regionLevels(page.rgba, { width: page.width, channels: 4 }, region);
  // Inside the rectangle (x 100–400 pt, y 192–392 pt from the top; 512/792 px per pt).
  expect(levels({ left: 90, top: 140, width: 150, height: 100 }).max).toBeLessThanOrEqual(10);
  // The lower half is blank paper.
  expect(levels({ left: 0, top: 300, width: 396, height: 200 }).min).toBeGreaterThanOrEqual(245);
  // The line of text (a standard font, drawn from pdf.js's font data) left dark pixels near the top.
  expect(levels({ left: 20, top: 40, width: 250, height: 30 }).min).toBeLessThan(100);
  // Alpha is opaque everywhere.
  expect(page.rgba.filter((_, i) => i % 4 === 3).every((a) => a === 255)).toBe(true);
});

test('a password-protected PDF: PDF_ENCRYPTED', async () => {
  expect(await permanentFailure(renderPdfFirstPage(await passwordProtectedPdf(), 512))).toMatchObject({ code: 'PDF_ENCRYPTED', message: expect.stringMatching(/password/) });
});

test('garbage after a PDF signature: PDF_INVALID', async () => {
  expect(await permanentFailure(renderPdfFirstPage(brokenPdf(), 512))).toMatchObject({ code: 'PDF_INVALID', message: expect.stringMatching(/unreadable PDF/) });
});

test('page count and page size limits', async () => {
  expect(await permanentFailure(renderPdfFirstPage(await pdfWithBlackRectangle(3), 512, { maxPages: 2 }))).toMatchObject({
    code: 'PDF_TOO_MANY_PAGES',
    message: expect.stringMatching(/3 pages.*up to 2/),
  });
  expect(await permanentFailure(renderPdfFirstPage(await pdfOfPageSize(20_000, 100), 512))).toMatchObject({ code: 'PDF_PAGE_SIZE' });
});

test('a render past its deadline is stopped: PDF_RENDER_TIMEOUT, well before the render would end', async () => {
  const bytes = await slowPdf(); // ~10 s of rendering
  const started = Date.now();
  expect(await permanentFailure(renderPdfFirstPage(bytes, 512, { deadlineMs: 500 }))).toMatchObject({ code: 'PDF_RENDER_TIMEOUT' });
  // The deadline counts from the booted renderer; booting under load takes a few seconds.
  expect(Date.now() - started).toBeLessThan(8_000);
});

test('a render above its memory cap is stopped: PDF_TOO_COMPLEX', async () => {
  // Any renderer process is bigger than 16 MiB: the first look at its memory stops it.
  expect(await permanentFailure(renderPdfFirstPage(await slowPdf(), 512, { maxMemoryBytes: 16 * 1024 * 1024 }))).toMatchObject({ code: 'PDF_TOO_COMPLEX' });
});

test("past an organization's jobs waiting for a reader, its next is refused at once as unavailable (the API answers 503); another organization's still runs", async () => {
  const slow = await slowPdf();
  const broken = brokenPdf();
  const outcomes: Promise<unknown>[] = [];
  // Two renders hold the two readers one organization may use; its next ones wait (broken files, each refused
  // quickly once it runs), up to its half of the waiting places.
  for (let i = 0; i < 2; i++) outcomes.push(renderPdfFirstPage(slow, 512, { deadlineMs: 2000 }, 'org-a').catch((err: unknown) => err));
  for (let i = 0; i < MAX_WAITING_JOBS_PER_ORGANIZATION; i++) outcomes.push(renderPdfFirstPage(broken, 512, {}, 'org-a').catch((err: unknown) => err));
  await expect(renderPdfFirstPage(broken, 512, {}, 'org-a')).rejects.toBeInstanceOf(ServiceUnavailableError);
  // The third reader is another organization's at once, ahead of the files waiting before it.
  expect(await permanentFailure(renderPdfFirstPage(broken, 512, {}, 'org-b'))).toMatchObject({ code: 'PDF_INVALID' });
  const settled = await Promise.all(outcomes);
  // An unexpected code comes with its message (once seen under load: one PDF_RENDER_FAILED, message unknown).
  const expected = new Set(['PDF_RENDER_TIMEOUT', 'PDF_INVALID']);
  const codes = settled.map((err) => {
    const { code, message } = err as PermanentContentError;
    return code && expected.has(code) ? code : `${code}: ${message}`;
  });
  expect(codes).toEqual([
    'PDF_RENDER_TIMEOUT',
    'PDF_RENDER_TIMEOUT',
    ...Array.from({ length: MAX_WAITING_JOBS_PER_ORGANIZATION }, () => 'PDF_INVALID'),
  ]);
  expect(MAX_WAITING_JOBS_PER_ORGANIZATION).toBeLessThan(MAX_WAITING_JOBS);
  // Every waiting file boots a reader process in turn: ~47 s alone, past 60 s beside a full run's other files.
}, 180_000);
