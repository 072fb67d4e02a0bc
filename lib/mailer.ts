import nodemailer, { type Transporter } from 'nodemailer';
import type { Config } from './config';

export interface MailAddress {
  name: string;
  address: string;
}

export interface MailMessage {
  /** A string is parsed as an address list; give validated addresses (or `MailAddress` objects, never parsed). */
  to: string | MailAddress[];
  subject: string;
  text: string;
  html?: string;
  /** Replaces the configured sender (MAIL_FROM); tenant mail uses the platform address with its own display name. */
  from?: MailAddress;
  replyTo?: MailAddress;
  /** Extra headers; names and values must already be visible ASCII (see `safeHeaderValue`). */
  headers?: Record<string, string>;
}

export interface Mailer {
  send(message: MailMessage): Promise<void>;
}

/** The address part of MAIL_FROM (`Loom <no-reply@loom.local>` → `no-reply@loom.local`). */
export function senderAddress(from: string): string {
  const bracketed = /<([^<>\s]+@[^<>\s]+)>\s*$/.exec(from);
  return (bracketed ? bracketed[1]! : from).trim();
}

/** A header value that cannot start another header: visible ASCII and spaces only, at most 200 characters. */
export function safeHeaderValue(value: string): string {
  return value.replace(/[^\x20-\x7e]/g, '').slice(0, 200);
}

/** The platform's one mailer: SMTP (a real catcher in dev and tests, any relay in production). */
export function createMailer(config: Config['mail']): Mailer {
  const transport: Transporter = nodemailer.createTransport({
    host: config.host,
    port: config.port,
    secure: false,
    ignoreTLS: config.host === '127.0.0.1' || config.host === 'localhost',
    connectionTimeout: 5000,
    greetingTimeout: 5000,
    socketTimeout: 10_000,
  });
  return {
    async send(message) {
      const { from, replyTo, headers, ...content } = message;
      await transport.sendMail({
        ...content,
        from: from ?? config.from,
        ...(replyTo ? { replyTo } : {}),
        ...(headers ? { headers } : {}),
      });
    },
  };
}
