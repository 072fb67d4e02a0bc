/**
 * Dev/test SMTP catcher.
 *
 *   SMTP  127.0.0.1:${SMTP_PORT:-1025}       accepts any mail (no auth, no TLS)
 *   HTTP  127.0.0.1:${MAIL_HTTP_PORT:-8025}
 *     GET    /api/messages?to=<addr>          newest first: [{id, from, to[], subject, text, html, date, ...}]
 *     GET    /api/messages/<id>               one message
 *     DELETE /api/messages[?to=<addr>]        forget all messages (or only those sent to <addr>)
 *     GET    /healthz                          200 "ok"
 *
 * Messages are kept in memory, the last ${MAIL_MAX_MESSAGES:-1000}. The MIME parser is deliberately
 * small: headers (folded, RFC 2047 encoded words), nested multiparts, quoted-printable / base64 /
 * 7bit / 8bit bodies and charsets — what nodemailer produces.
 *
 * Run: npx tsx scripts/mailcatcher.ts (scripts/services manages it as the "mail" service).
 */
import * as http from 'node:http';
import { randomUUID } from 'node:crypto';
import { SMTPServer } from 'smtp-server';

export interface CaughtAttachment {
  filename: string | null;
  contentType: string;
  size: number;
}

export interface CaughtMessage {
  id: string;
  from: string;
  to: string[];
  subject: string;
  text: string | null;
  html: string | null;
  date: string;
  receivedAt: string;
  headers: Record<string, string>;
  attachments: CaughtAttachment[];
}

// ------------------------------------------------------------------------------------------ MIME

interface Part {
  headers: Map<string, string[]>;
  body: Buffer;
}

function splitHeaderBody(raw: Buffer): Part {
  const s = raw.toString('latin1');
  let idx = s.indexOf('\r\n\r\n');
  let sepLen = 4;
  const lf = s.indexOf('\n\n');
  if (idx === -1 || (lf !== -1 && lf < idx)) {
    idx = lf;
    sepLen = 2;
  }
  const head = idx === -1 ? s : s.slice(0, idx);
  const body = idx === -1 ? Buffer.alloc(0) : raw.subarray(idx + sepLen);
  const headers = new Map<string, string[]>();
  const unfolded = head.replace(/\r?\n[ \t]+/g, ' ');
  for (const line of unfolded.split(/\r?\n/)) {
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const key = line.slice(0, colon).trim().toLowerCase();
    // header bytes are UTF-8 when not encoded-word (SMTPUTF8); re-decode from latin1
    const value = Buffer.from(line.slice(colon + 1).trim(), 'latin1').toString('utf8');
    const list = headers.get(key);
    if (list) list.push(value);
    else headers.set(key, [value]);
  }
  return { headers, body };
}

function header(part: Part, name: string): string | undefined {
  return part.headers.get(name)?.[0];
}

interface ContentType {
  type: string;
  params: Record<string, string>;
}

function parseParams(value: string): ContentType {
  const [first, ...rest] = splitUnquoted(value, ';');
  const params: Record<string, string> = {};
  for (const p of rest) {
    const eq = p.indexOf('=');
    if (eq === -1) continue;
    let k = p.slice(0, eq).trim().toLowerCase();
    let v = p.slice(eq + 1).trim();
    if (v.startsWith('"') && v.endsWith('"')) v = v.slice(1, -1).replace(/\\(.)/g, '$1');
    // RFC 2231 (filename*=utf-8''...) — enough for nodemailer's non-ASCII filenames
    if (k.endsWith('*')) {
      k = k.slice(0, -1);
      const m = /^([^']*)'[^']*'(.*)$/.exec(v);
      if (m) v = decodeCharset(Buffer.from(decodeURIComponent(m[2]!.replace(/%(?![0-9a-fA-F]{2})/g, '%25')), 'utf8'), m[1] || 'utf-8');
    }
    params[k] = v;
  }
  return { type: (first ?? '').trim().toLowerCase() || 'text/plain', params };
}

function splitUnquoted(s: string, sep: string): string[] {
  const out: string[] = [];
  let cur = '';
  let quoted = false;
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '"' && s[i - 1] !== '\\') quoted = !quoted;
    if (c === sep && !quoted) {
      out.push(cur);
      cur = '';
    } else cur += c;
  }
  out.push(cur);
  return out;
}

function decodeCharset(buf: Buffer, charset: string | undefined): string {
  const cs = (charset || 'utf-8').toLowerCase();
  try {
    return new TextDecoder(cs === 'us-ascii' ? 'utf-8' : cs).decode(buf);
  } catch {
    return buf.toString('utf8');
  }
}

function decodeQuotedPrintable(input: string): Buffer {
  const s = input.replace(/=\r?\n/g, '');
  const bytes: number[] = [];
  for (let i = 0; i < s.length; i++) {
    const c = s[i]!;
    if (c === '=' && /^[0-9A-Fa-f]{2}$/.test(s.slice(i + 1, i + 3))) {
      bytes.push(parseInt(s.slice(i + 1, i + 3), 16));
      i += 2;
    } else {
      bytes.push(s.charCodeAt(i) & 0xff);
    }
  }
  return Buffer.from(bytes);
}

function decodeTransfer(part: Part): Buffer {
  const enc = (header(part, 'content-transfer-encoding') || '7bit').trim().toLowerCase();
  if (enc === 'base64') return Buffer.from(part.body.toString('latin1').replace(/[^A-Za-z0-9+/=]/g, ''), 'base64');
  if (enc === 'quoted-printable') return decodeQuotedPrintable(part.body.toString('latin1'));
  return part.body;
}

/** RFC 2047 encoded words: =?charset?B|Q?text?= ; whitespace between adjacent words is dropped. */
export function decodeWords(value: string): string {
  return value
    .replace(/(=\?[^?]+\?[bBqQ]\?[^?]*\?=)\s+(?==\?[^?]+\?[bBqQ]\?[^?]*\?=)/g, '$1')
    .replace(/=\?([^?*]+)(?:\*[^?]*)?\?([bBqQ])\?([^?]*)\?=/g, (_m, charset: string, enc: string, text: string) => {
      const buf =
        enc.toUpperCase() === 'B'
          ? Buffer.from(text, 'base64')
          : decodeQuotedPrintable(text.replace(/_/g, ' '));
      return decodeCharset(buf, charset);
    });
}

function addresses(value: string | undefined): string[] {
  if (!value) return [];
  const out: string[] = [];
  for (const piece of splitUnquoted(value, ',')) {
    const angle = /<([^>]+)>/.exec(piece);
    const addr = (angle ? angle[1]! : piece).trim().replace(/^"|"$/g, '');
    if (addr.includes('@')) out.push(addr.toLowerCase());
  }
  return out;
}

interface Bodies {
  text: string | null;
  html: string | null;
  attachments: CaughtAttachment[];
}

function walk(part: Part, acc: Bodies, depth = 0): void {
  const ct = parseParams(header(part, 'content-type') || 'text/plain');
  const disp = parseParams(header(part, 'content-disposition') || 'inline');
  const filename = disp.params['filename'] ?? ct.params['name'] ?? null;

  if (ct.type.startsWith('multipart/') && ct.params['boundary'] && depth < 20) {
    const body = part.body.toString('latin1');
    const delim = new RegExp(`(?:^|\\r?\\n)--${escapeRegExp(ct.params['boundary'])}(--)?[ \\t]*(?:\\r?\\n|$)`, 'g');
    let start = -1;
    for (let m = delim.exec(body); m !== null; m = delim.exec(body)) {
      if (start !== -1) walk(splitHeaderBody(Buffer.from(body.slice(start, m.index), 'latin1')), acc, depth + 1);
      if (m[1] === '--') break; // closing delimiter; the rest is the epilogue
      start = m.index + m[0].length;
    }
    return;
  }
  if (ct.type === 'message/rfc822') {
    acc.attachments.push({ filename, contentType: ct.type, size: part.body.length });
    return;
  }
  const data = decodeTransfer(part);
  const isAttachment = disp.type === 'attachment' || (filename !== null && !ct.type.startsWith('text/'));
  if (!isAttachment && ct.type === 'text/plain' && acc.text === null) {
    acc.text = normalizeNewlines(decodeCharset(data, ct.params['charset']));
  } else if (!isAttachment && ct.type === 'text/html' && acc.html === null) {
    acc.html = normalizeNewlines(decodeCharset(data, ct.params['charset']));
  } else {
    acc.attachments.push({ filename: filename === null ? null : decodeWords(filename), contentType: ct.type, size: data.length });
  }
}

function normalizeNewlines(s: string): string {
  return s.replace(/\r\n/g, '\n').replace(/\n$/, '');
}

function escapeRegExp(s: string): string {
  return s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}

export function parseMessage(raw: Buffer, envelope: { from?: string; to?: string[] } = {}): CaughtMessage {
  const root = splitHeaderBody(raw);
  const acc: Bodies = { text: null, html: null, attachments: [] };
  walk(root, acc);
  const headers: Record<string, string> = {};
  for (const [k, v] of root.headers) headers[k] = decodeWords(v.join(', '));
  const headerTo = [...addresses(headers['to']), ...addresses(headers['cc'])];
  const to = envelope.to && envelope.to.length > 0 ? envelope.to.map((a) => a.toLowerCase()) : headerTo;
  const dateHeader = headers['date'] ? new Date(headers['date']) : null;
  const now = new Date();
  return {
    id: randomUUID(),
    from: envelope.from || addresses(headers['from'])[0] || '',
    to: [...new Set(to)],
    subject: headers['subject'] ?? '',
    text: acc.text,
    html: acc.html,
    date: (dateHeader && !Number.isNaN(dateHeader.getTime()) ? dateHeader : now).toISOString(),
    receivedAt: now.toISOString(),
    headers,
    attachments: acc.attachments,
  };
}

// ---------------------------------------------------------------------------------------- servers

function main(): void {
  const host = process.env['MAIL_HOST'] || '127.0.0.1';
  const smtpPort = Number(process.env['SMTP_PORT'] || 1025);
  const httpPort = Number(process.env['MAIL_HTTP_PORT'] || 8025);
  const max = Math.max(1, Number(process.env['MAIL_MAX_MESSAGES'] || 1000));
  let messages: CaughtMessage[] = []; // oldest first

  const smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    hideSTARTTLS: true,
    banner: 'loom mailcatcher',
    size: 50 * 1024 * 1024,
    logger: false,
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on('data', (c: Buffer) => chunks.push(c));
      stream.on('error', (err: Error) => callback(err));
      stream.on('end', () => {
        try {
          const env = session.envelope;
          const msg = parseMessage(Buffer.concat(chunks), {
            from: env.mailFrom ? env.mailFrom.address : undefined,
            to: env.rcptTo.map((r) => r.address),
          });
          messages.push(msg);
          if (messages.length > max) messages = messages.slice(messages.length - max);
          callback(null, `queued as ${msg.id}`);
        } catch (err) {
          callback(err instanceof Error ? err : new Error(String(err)));
        }
      });
    },
  });
  smtp.on('error', (err: Error) => {
    process.stderr.write(`mailcatcher smtp error: ${err.message}\n`);
  });

  const matches = (m: CaughtMessage, to: string | null): boolean => to === null || m.to.includes(to.toLowerCase());

  const server = http.createServer((req, res) => {
    const url = new URL(req.url || '/', `http://${host}`);
    const send = (status: number, body: unknown): void => {
      res.writeHead(status, { 'content-type': 'application/json' });
      res.end(JSON.stringify(body));
    };
    const to = url.searchParams.get('to');
    if (url.pathname === '/healthz') {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end('ok');
    } else if (url.pathname === '/api/messages' && req.method === 'GET') {
      send(200, messages.filter((m) => matches(m, to)).reverse());
    } else if (url.pathname === '/api/messages' && req.method === 'DELETE') {
      const before = messages.length;
      messages = to === null ? [] : messages.filter((m) => !matches(m, to));
      send(200, { deleted: before - messages.length });
    } else if (url.pathname.startsWith('/api/messages/') && req.method === 'GET') {
      const id = decodeURIComponent(url.pathname.slice('/api/messages/'.length));
      const m = messages.find((x) => x.id === id);
      if (m) send(200, m);
      else send(404, { error: 'not found' });
    } else {
      send(404, { error: 'not found' });
    }
  });

  smtp.listen(smtpPort, host, () => {
    server.listen(httpPort, host, () => {
      process.stdout.write(`mailcatcher: smtp ${host}:${smtpPort}, http http://${host}:${httpPort}/api/messages\n`);
    });
  });
  server.on('error', (err: Error) => {
    process.stderr.write(`mailcatcher http error: ${err.message}\n`);
    process.exit(1);
  });

  // in-memory only: nothing to flush
  const stop = (): void => process.exit(0);
  process.on('SIGTERM', stop);
  process.on('SIGINT', stop);
}

if (require.main === module) main();
