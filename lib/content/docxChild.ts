import mammoth from 'mammoth';
import type { DocxReadReply, DocxReadRequest } from './docx';

/**
 * The DOCX reader process (started by docx.ts through fileChild.ts, one per file): announces it is ready, converts
 * the one file it receives to Markdown with mammoth, answers, and exits. The parent kills it at the deadline or above
 * the memory cap; the archive itself was checked for zip bombs before it was sent.
 */
function send(reply: DocxReadReply): Promise<void> {
  return new Promise((resolve) => {
    if (!process.send) resolve();
    else process.send(reply, undefined, undefined, () => resolve());
  });
}

async function convert(request: DocxReadRequest): Promise<DocxReadReply> {
  try {
    // Markdown keeps headings and lists, which chunking and readers both use.
    const result = await (mammoth as unknown as { convertToMarkdown(input: { buffer: Buffer }): Promise<{ value: string }> }).convertToMarkdown({
      buffer: Buffer.from(request.bytes.buffer, request.bytes.byteOffset, request.bytes.byteLength),
    });
    return { ok: true, markdown: result.value.trim() };
  } catch (err) {
    return { ok: false, code: 'DOCX_INVALID', message: `unreadable DOCX: ${err instanceof Error ? err.message : String(err)}` };
  }
}

async function main(): Promise<void> {
  // The parent gone (worker stopped or crashed): nobody waits for this file.
  process.once('disconnect', () => process.exit(1));
  process.once('message', (request: DocxReadRequest) => {
    convert(request)
      .then(send)
      .finally(() => process.exit(0));
  });
  await send({ ready: true });
}

main().catch((err: unknown) => {
  process.stderr.write(`docx reader: ${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
