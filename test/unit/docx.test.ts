import JSZip from 'jszip';
import { docxMarkdown } from '../../lib/content/docx';
import { docxOf } from '../helpers/docx';
import { permanentFailure } from '../helpers/pdfs';

/**
 * DOCX to Markdown in a child process of its own (lib/content/docx.ts): a real conversion, and a DOCX bomb stopped
 * at a lowered memory cap and deadline instead of taking this process's heap (in-process it succeeded, after 14 s
 * and 1.4 GB).
 */
jest.setTimeout(60_000);

test('converts the paragraphs to Markdown', async () => {
  expect(await docxMarkdown(await docxOf(['Walruses', 'They live on the tundra']))).toBe('Walruses\n\nThey live on the tundra');
});

test('garbage in a zip: DOCX_INVALID', async () => {
  const zip = new JSZip();
  zip.file('hello.txt', 'not a document');
  const notDocx = await zip.generateAsync({ type: 'nodebuffer' });
  expect(await permanentFailure(docxMarkdown(notDocx))).toMatchObject({ code: 'DOCX_INVALID', message: expect.stringMatching(/^unreadable DOCX/) });
});

test('a DOCX bomb is stopped at the memory cap (DOCX_TOO_COMPLEX) and at the deadline (DOCX_TIMEOUT)', async () => {
  const bomb = await docxOf([], 300_000);
  expect(bomb.length).toBeLessThan(100_000);
  expect(await permanentFailure(docxMarkdown(bomb, { maxMemoryBytes: 256 * 1024 * 1024 }))).toMatchObject({
    code: 'DOCX_TOO_COMPLEX',
    message: 'converting the DOCX needed more than 256 MiB of memory and was stopped',
  });
  expect(await permanentFailure(docxMarkdown(bomb, { deadlineMs: 300 }))).toMatchObject({
    code: 'DOCX_TIMEOUT',
    message: 'converting the DOCX took longer than 300 ms and was stopped',
  });
});
