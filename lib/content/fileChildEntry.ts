import type { FileChildReply } from './fileChild';

/**
 * The life of a file child (pdfRenderChild.ts, pdfTextChild.ts, docxChild.ts), as fileChild.ts expects it: load
 * (`prepare`, e.g. import pdf.js), say it is ready, answer the one request it receives, exit. It exits at once when
 * the parent goes (nobody waits for the answer then). `handle` answers failures it knows itself with a code; any
 * other error it throws is answered `failed` with `describe`'s message.
 */
export function serveOneFile<Request, Answer, Loaded>(options: {
  name: string;
  prepare(): Promise<Loaded>;
  handle(request: Request, loaded: Loaded): Promise<FileChildReply<Answer>>;
  failed: { code: string; describe(message: string): string };
}): void {
  const send = (reply: FileChildReply<Answer>): Promise<void> =>
    new Promise((resolve) => {
      if (!process.send) resolve();
      else process.send(reply, undefined, undefined, () => resolve());
    });
  const main = async (): Promise<void> => {
    process.once('disconnect', () => process.exit(1));
    const loaded = await options.prepare();
    process.once('message', (request: Request) => {
      options
        .handle(request, loaded)
        .catch((err: unknown): FileChildReply<Answer> => {
          const message = err instanceof Error ? err.message : String(err);
          return { ok: false, code: options.failed.code, message: options.failed.describe(message) };
        })
        .then(send)
        .finally(() => process.exit(0));
    });
    await send({ ready: true });
  };
  main().catch((err: unknown) => {
    process.stderr.write(`${options.name}: ${err instanceof Error ? err.message : String(err)}\n`);
    process.exit(1);
  });
}
