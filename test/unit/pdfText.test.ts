import { readFileSync } from 'node:fs';
import { withDescendants } from '../../bench/lib/cpu';
import { memoryOf } from '../../bench/lib/rss';
import { pdfInfo, pdfPages } from '../../lib/content/pdfText';
import { ServiceUnavailableError } from '../../lib/unavailable';
import { brokenPdf, passwordProtectedPdf, permanentFailure, reportPdf, textBombPdf } from '../helpers/pdfs';

/**
 * PDF text and metadata, read in a child process of their own (lib/content/pdfText.ts): real files, every refusal
 * with its code, and a text bomb stopped at the memory cap instead of taking this process's heap.
 */
jest.setTimeout(60_000);

test("each page's text, and the metadata", async () => {
  const pdf = await reportPdf();
  expect(await pdfPages(pdf)).toEqual(['Page one talks about alpha particles', 'Page two is about beta testing', 'Page three covers gamma rays']);
  expect(await pdfInfo(pdf)).toMatchObject({ pages: 3, info: { Title: 'Quarterly report', Author: 'Ann Analyst' } });
});

test('a password-protected PDF: PDF_ENCRYPTED; garbage after a PDF signature: PDF_INVALID', async () => {
  expect(await permanentFailure(pdfPages(await passwordProtectedPdf()))).toMatchObject({ code: 'PDF_ENCRYPTED', message: expect.stringMatching(/password/) });
  expect(await permanentFailure(pdfInfo(brokenPdf()))).toMatchObject({ code: 'PDF_INVALID', message: expect.stringMatching(/^unreadable PDF/) });
});

test('a text bomb is stopped at the memory cap (PDF_TOO_COMPLEX) and at the deadline (PDF_TEXT_TIMEOUT)', async () => {
  // In-process, this 290 kB file took ~740 MB of the caller's heap and ~13 s, and it succeeded.
  const bomb = await textBombPdf();
  expect(bomb.length).toBeLessThan(400_000);
  expect(await permanentFailure(pdfPages(bomb, { maxMemoryBytes: 256 * 1024 * 1024 }))).toMatchObject({
    code: 'PDF_TOO_COMPLEX',
    message: 'reading the text needed more than 256 MiB of memory and was stopped',
  });
  expect(await permanentFailure(pdfPages(bomb, { deadlineMs: 300 }))).toMatchObject({
    code: 'PDF_TEXT_TIMEOUT',
    message: 'reading the text took longer than 300 ms and was stopped',
  });
});

/** This process's PDF text reader (a child), once it holds more than `mb` of memory: booted, and reading. */
async function busyTextReader(mb: number): Promise<number> {
  for (;;) {
    const [pid] = withDescendants([process.pid]).filter((candidate) => {
      try {
        return candidate !== process.pid && readFileSync(`/proc/${candidate}/cmdline`, 'utf8').includes('pdfTextChild') && (memoryOf(candidate)?.rss ?? 0) > mb * 1024 * 1024;
      } catch {
        return false; // gone meanwhile
      }
    });
    if (pid !== undefined) return pid;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
}

test.each(['SIGKILL', 'SIGTERM'] as const)('a reader ended from outside by %s is unavailable (retry), not the fault of the file', async (signal) => {
  // The kernel's OOM killer sends SIGKILL, a service manager SIGTERM to the process group: a good file must not be
  // marked failed for good (before: PDF_TEXT_FAILED, permanent).
  const reading = pdfPages(await textBombPdf(), { deadlineMs: 60_000, maxMemoryBytes: 4096 * 1024 * 1024 }).then(
    () => null,
    (err: unknown) => err,
  );
  process.kill(await busyTextReader(200), signal); // a booted reader takes ~60 MB; this one climbs towards its heap cap
  const err = await reading;
  expect(err).toBeInstanceOf(ServiceUnavailableError);
  expect((err as Error).message).toBe(`the PDF reader was stopped from outside (signal ${signal}) while reading the text; retry later`);
  expect(await pdfPages(await reportPdf())).toHaveLength(3); // the next file is read as before
});
