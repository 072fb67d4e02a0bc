import type { CaughtMessage } from '../../scripts/mailcatcher';

/** The SMTP catcher's HTTP API (scripts/mailcatcher.ts): read what the platform sent to an address. */
export type CaughtMail = CaughtMessage;

const MAIL_API = process.env.MAIL_API_URL ?? 'http://127.0.0.1:8025/api/messages';

export async function mailsTo(address: string): Promise<CaughtMail[]> {
  const res = await fetch(`${MAIL_API}?to=${encodeURIComponent(address)}`);
  return (await res.json()) as CaughtMail[];
}

/** Polls until a message to `address` whose subject matches arrives (newest first); fails after `timeoutMs`. */
export async function waitForMail(address: string, subject: RegExp, timeoutMs = 10_000): Promise<CaughtMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = (await mailsTo(address)).find((m) => subject.test(m.subject));
    if (found) return found;
    if (Date.now() > deadline) throw new Error(`no mail to ${address} matching ${subject} within ${timeoutMs} ms`);
    await new Promise((r) => setTimeout(r, 100));
  }
}
