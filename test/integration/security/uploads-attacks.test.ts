import { randomBytes, randomUUID } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { crc32, deflateRawSync } from 'node:zlib';
import { download, waitForProcessing } from '../../helpers/content';
import { isEnvelope, streamPost, type StreamOutcome } from '../../helpers/security';
import { startApi, type TestApi, type TestResponse } from '../../helpers/stack';
import { createTestTenant, type TestTenant } from '../../helpers/tenants';

/**
 * Attacks on content uploads, black-box over HTTP: bodies past the limit (refused while they stream, nothing left
 * in PostgreSQL or MinIO), files whose claimed type lies, hostile file names, and the edges of the storage quota
 * under concurrency.
 */

const MAX_UPLOAD = 1024 * 1024;
const QUOTA = 10_000;

let api: TestApi;
let tenant: TestTenant;

beforeAll(async () => {
  api = await startApi({
    CONTENT_MAX_UPLOAD_BYTES: String(MAX_UPLOAD),
    CONTENT_QUOTA_FREE_BYTES: String(QUOTA),
    CONTENT_PROCESS_ON_UPLOAD: 'false',
  });
  tenant = await createTestTenant(api);
});

afterAll(async () => {
  await api?.close();
});

async function objectNames(prefix: string): Promise<string[]> {
  const names: string[] = [];
  for await (const item of api.deps.storage.listObjectsV2(api.config.minio.bucket, prefix, true)) if (item.name) names.push(item.name);
  return names.sort();
}

async function incompleteUploads(prefix: string): Promise<number> {
  let count = 0;
  const stream = api.deps.storage.listIncompleteUploads(api.config.minio.bucket, prefix, true);
  for await (const _ of stream) count += 1;
  return count;
}

async function contentRows(organizationId: string): Promise<number> {
  const [{ n }] = await api.deps.db('content').where({ organization_id: organizationId }).count<{ n: string }[]>('* as n');
  return Number(n);
}

interface Part {
  name: string;
  /** The raw parameters after `form-data; name="..."`, e.g. `filename="a.txt"` (sent as UTF-8 bytes). */
  params?: string;
  type?: string;
  data: Buffer | string;
}

function multipart(parts: Part[]): { body: Buffer; contentType: string } {
  const boundary = `----loom${randomUUID().replace(/-/g, '')}`;
  const chunks: Buffer[] = [];
  for (const part of parts) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${part.name}"${part.params ? `; ${part.params}` : ''}\r\n`;
    if (part.type) head += `Content-Type: ${part.type}\r\n`;
    chunks.push(Buffer.from(`${head}\r\n`, 'utf8'), Buffer.from(part.data), Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  return { body: Buffer.concat(chunks), contentType: `multipart/form-data; boundary=${boundary}` };
}

function upload(t: TestTenant, parts: Part[]): Promise<TestResponse> {
  const { body, contentType } = multipart(parts);
  return api.request('POST', '/api/v1/content', { token: t.owner.token, rawBody: body, headers: { 'content-type': contentType } });
}

const fileWithName = (params: string, data: Buffer | string = 'hello', type = 'text/plain'): Part[] => [{ name: 'file', params, type, data }];

/** Streams a multipart upload whose file part is `total` bytes, stopping as soon as the server answers or closes. */
function streamUpload(t: TestTenant, total: number): Promise<StreamOutcome> {
  const boundary = `----loom${randomUUID().replace(/-/g, '')}`;
  return streamPost(`${api.baseUrl}/api/v1/content`, {
    headers: { authorization: `Bearer ${t.owner.token}`, 'content-type': `multipart/form-data; boundary=${boundary}`, 'transfer-encoding': 'chunked' },
    head: `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="huge.bin"\r\nContent-Type: application/octet-stream\r\n\r\n`,
    chunk: randomBytes(64 * 1024),
    total,
    tail: `\r\n--${boundary}--\r\n`,
  });
}

/**
 * Streams `total` bytes and expects the refusal while they stream: the status and code, the server having stopped
 * reading long before the end, and no record, object or pending multipart upload left behind.
 */
async function expectRefusedWhileStreaming(t: TestTenant, total: number, status: number, code: string): Promise<void> {
  const outcome = await streamUpload(t, total);
  expect(outcome.error).toBeUndefined();
  expect(outcome.status).toBe(status);
  expect(JSON.parse(outcome.body!).error.code).toBe(code);
  expect(outcome.sentBytes).toBeLessThan(total / 8);
  expect(await contentRows(t.organizationId)).toBe(0);
  expect(await objectNames(`org/${t.organizationId}/`)).toEqual([]);
  expect(await incompleteUploads(`org/${t.organizationId}/`)).toBe(0);
}

describe('size limit', () => {
  test('a body far over the limit is refused with 413 while it streams; no record, no object, no pending multipart upload', async () => {
    await expectRefusedWhileStreaming(await createTestTenant(api, 'pro'), 256 * 1024 * 1024, 413, 'PAYLOAD_TOO_LARGE');
  });

  test('a declared Content-Length far over the upload limit (413) or the rest of the quota (429) is refused before the body is read', async () => {
    // A second instance whose upload limit (the default, 512 MB) is above the free plan's quota.
    const roomy = await startApi({ CONTENT_QUOTA_FREE_BYTES: String(QUOTA), CONTENT_PROCESS_ON_UPLOAD: 'false' });
    try {
      const cases: [TestApi, TestTenant, number, number, string][] = [
        [api, await createTestTenant(api, 'pro'), 10 * 1024 ** 3, 413, 'PAYLOAD_TOO_LARGE'],
        [roomy, await createTestTenant(roomy, 'free'), 100 * 1024 ** 2, 429, 'QUOTA_EXCEEDED'],
      ];
      for (const [on, t, length, status, code] of cases) {
        const url = new URL(on.baseUrl);
        const res = await new Promise<{ status?: number; body: string }>((resolve, reject) => {
          const req = httpRequest(
            {
              host: url.hostname,
              port: url.port,
              path: '/api/v1/content',
              method: 'POST',
              headers: { authorization: `Bearer ${t.owner.token}`, 'content-type': 'multipart/form-data; boundary=x', 'content-length': String(length) },
            },
            (r) => {
              const chunks: Buffer[] = [];
              r.on('data', (c: Buffer) => chunks.push(c));
              r.on('end', () => resolve({ status: r.statusCode, body: Buffer.concat(chunks).toString('utf8') }));
            },
          );
          req.on('error', reject);
          // Only the first bytes of the announced length are ever sent.
          req.write('--x\r\nContent-Disposition: form-data; name="file"; filename="a.bin"\r\n\r\n');
        });
        expect(res.status).toBe(status);
        expect(JSON.parse(res.body).error.code).toBe(code);
        expect(await contentRows(t.organizationId)).toBe(0);
      }
    } finally {
      await roomy.close();
    }
  });

  test('exactly at the upload limit is accepted, one byte over is refused', async () => {
    const t = await createTestTenant(api, 'pro');
    const at = await upload(t, fileWithName('filename="at.bin"', randomBytes(MAX_UPLOAD), 'application/octet-stream'));
    expect(at.status).toBe(201);
    expect(at.body.size).toBe(MAX_UPLOAD);
    const over = await upload(t, fileWithName('filename="over.bin"', randomBytes(MAX_UPLOAD + 1), 'application/octet-stream'));
    expect(over.status).toBe(413);
    expect(isEnvelope(over.body)).toBe(true);
    expect(await contentRows(t.organizationId)).toBe(1);
    expect(await objectNames(`org/${t.organizationId}/`)).toHaveLength(1);
  });
});

/** A stored zip archive with one deflated entry: a small file that would expand to `expanded` bytes. */
function zipOf(name: string, expanded: number): Buffer {
  const raw = Buffer.alloc(expanded);
  const data = deflateRawSync(raw, { level: 9 });
  const crc = crc32(raw);
  const nameBytes = Buffer.from(name);
  const local = Buffer.alloc(30);
  local.writeUInt32LE(0x04034b50, 0);
  local.writeUInt16LE(20, 4);
  local.writeUInt16LE(8, 8);
  local.writeUInt32LE(crc, 14);
  local.writeUInt32LE(data.length, 18);
  local.writeUInt32LE(expanded, 22);
  local.writeUInt16LE(nameBytes.length, 26);
  const central = Buffer.alloc(46);
  central.writeUInt32LE(0x02014b50, 0);
  central.writeUInt16LE(20, 4);
  central.writeUInt16LE(20, 6);
  central.writeUInt16LE(8, 10);
  central.writeUInt32LE(crc, 16);
  central.writeUInt32LE(data.length, 20);
  central.writeUInt32LE(expanded, 24);
  central.writeUInt16LE(nameBytes.length, 28);
  const centralOffset = local.length + nameBytes.length + data.length;
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(1, 8);
  end.writeUInt16LE(1, 10);
  end.writeUInt32LE(central.length + nameBytes.length, 12);
  end.writeUInt32LE(centralOffset, 16);
  return Buffer.concat([local, nameBytes, data, central, nameBytes, end]);
}

describe('lying content types', () => {
  // The platform records the type found in the bytes (file-type signatures, then text heuristics), keeps the
  // client's claim only as `declaredMimeType`, and serves every download with nosniff and a sandboxing CSP.
  const png = Buffer.from('89504e470d0a1a0a0000000d4948445200000001000000010806000000', 'hex');
  const elf = Buffer.concat([Buffer.from('7f454c46020101000000000000000000', 'hex'), Buffer.alloc(64)]);
  const pe = Buffer.concat([Buffer.from('MZ'), Buffer.alloc(58), Buffer.from([0x80, 0, 0, 0]), Buffer.alloc(64), Buffer.from('PE\0\0'), Buffer.alloc(64)]);
  const html = '<!doctype html><html><body><script>fetch("/api/v1/content").then(r=>r.text()).then(alert)</script></body></html>';
  const svg = '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(document.cookie)"><script>alert(1)</script></svg>';

  test.each([
    ['a PNG declared as text/plain', png, 'notes.txt', 'text/plain', 'image/png'],
    ['HTML with script declared as image/png', html, 'cat.png', 'image/png', 'text/html'],
    ['SVG with script declared as image/png', svg, 'cat.png', 'image/png', 'application/xml'],
    ['an ELF executable declared as image/png', elf, 'cat.png', 'image/png', 'application/x-elf'],
    ['a Windows executable declared as image/png', pe, 'cat.png', 'image/png', 'application/x-msdownload'],
    ['a zip that expands to 50 MB declared as text/plain', zipOf('zeros.txt', 50 * 1024 * 1024), 'notes.txt', 'text/plain', 'application/zip'],
    ['binary noise declared as application/json', randomBytes(2048), 'data.json', 'application/json', 'application/octet-stream'],
  ])('%s: stored with the detected type, the claim kept aside, served inert', async (_name, bytes, filename, declared, detected) => {
    const data = Buffer.from(bytes);
    const res = await upload(tenant, fileWithName(`filename="${filename}"`, data, declared));
    expect(res.status).toBe(201);
    expect(res.body.mimeType).toBe(detected);
    expect(res.body.currentVersion.declaredMimeType).toBe(declared);
    // Stored as sent: a compressed archive is never expanded by the API.
    expect(res.body.size).toBe(data.length);
    for (const disposition of ['attachment', 'inline']) {
      const file = await download(api, tenant.owner.token, `/api/v1/content/${res.body.id}/download?disposition=${disposition}`);
      expect(file.status).toBe(200);
      expect(file.headers.get('content-type')).toBe(detected);
      expect(file.headers.get('x-content-type-options')).toBe('nosniff');
      expect(file.headers.get('content-security-policy')).toMatch(/sandbox/);
      expect(file.headers.get('content-disposition')).toMatch(new RegExp(`^${disposition};`));
      expect(file.bytes.equals(data)).toBe(true);
    }
    if (detected === 'application/zip') {
      // Processing treats the archive as an unsupported type: it ends (refusing text extraction) without expanding it.
      const started = await api.request('POST', `/api/v1/content/${res.body.id}/process`, { token: tenant.owner.token, body: { steps: ['extract_text'] } });
      expect(started.status).toBe(202);
      const done = await waitForProcessing(api, tenant.owner.token, res.body.id);
      expect(done.body.job.status).toBe('failed');
      expect(JSON.stringify(done.body.job)).toMatch(/unsupported file type application\/zip/);
      expect((await download(api, tenant.owner.token, `/api/v1/content/${res.body.id}/download?variant=text`)).status).toBe(404);
    }
  });
});

/** Path separators, DEL and C1 controls, bidirectional controls (C0 controls are checked by code). */
const FORBIDDEN_IN_NAMES = /[/\\\u007f-\u009f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]/;

describe('hostile file names', () => {
  const RTL = '\u202e';
  // [what, Content-Disposition parameters of the file part, the name expected to be stored (undefined: only the
  // generic safety properties are checked)]
  const cases: [string, string, string | undefined][] = [
    ['path traversal', 'filename="../../etc/passwd"', 'passwd'],
    ['absolute path', 'filename="/etc/passwd"', 'passwd'],
    ['Windows path', 'filename="C:\\\\Windows\\\\system32\\\\cmd.exe"', 'cmd.exe'],
    ['percent-encoded traversal, literal', 'filename="%2e%2e%2f%2e%2e%2fetc%2fpasswd"', '%2e%2e%2f%2e%2e%2fetc%2fpasswd'],
    ['percent-encoded traversal, RFC 5987', "filename*=UTF-8''%2e%2e%2f%2e%2e%2fetc%2fpasswd", 'passwd'],
    ['NUL byte', "filename*=UTF-8''evil%00.txt", 'evil.txt'],
    ['CR LF header injection', "filename*=UTF-8''a%0D%0ASet-Cookie%3A%20stolen%3D1%0D%0A.txt", 'aSet-Cookie: stolen=1.txt'],
    ['control characters and ANSI escapes', "filename*=UTF-8''%01%1b%5b31mred%7f%c2%85%c2%9b.txt", '[31mred.txt'],
    ['RTL override', `filename="invoice${RTL}fdp.exe"`, 'invoicefdp.exe'],
    ['bidi isolates and marks', `filename="a\u2066b\u2069c\u200fd\u061ce.txt"`, 'abcde.txt'],
    ['1,000 characters', `filename="${'a'.repeat(1000)}.txt"`, undefined],
    ['1,000 characters of astral emoji (surrogate pairs)', `filename="a${'\u{1f600}'.repeat(1000)}"`, undefined],
    ['only dots (.)', 'filename="."', 'file'],
    ['only dots (..)', 'filename=".."', 'file'],
    ['only dots (.....)', 'filename="....."', 'file'],
    ['only spaces', 'filename="   "', 'file'],
    ['Windows reserved name CON', 'filename="CON"', 'CON'],
    ['Windows reserved name nul.txt', 'filename="nul.txt"', 'nul.txt'],
    ['Windows reserved name COM1', 'filename="COM1.log"', 'COM1.log'],
    ['full-width dots and slashes (NFKC would give ../)', 'filename="\uff0e\uff0e\uff0f\uff0e\uff0e\uff0fetc\uff0fpasswd"', '\uff0e\uff0e\uff0f\uff0e\uff0e\uff0fetc\uff0fpasswd'],
    ['decomposed accents (stored NFC)', 'filename="cafe\u0301.txt"', 'caf\u00e9.txt'],
    ['quotes, semicolons and backslashes for the header', `filename*=UTF-8''a%22%3B%20filename%3D%22evil.sh`, 'a"; filename="evil.sh'],
    ['apostrophe and parentheses', "filename*=UTF-8''it%27s%20%281%29%2A.txt", "it's (1)*.txt"],
  ];

  test.each(cases)('%s: stored safely, object key not derived from it, download header well-formed', async (_what, params, expected) => {
    const res = await upload(tenant, fileWithName(params));
    expect(res.status).toBe(201);
    const stored = res.body.filename as string;
    if (expected !== undefined) expect(stored).toBe(expected);
    expect(stored.length).toBeGreaterThan(0);
    expect(stored.length).toBeLessThanOrEqual(255);
    // Well-formed UTF-16: no half of a surrogate pair left by a cut.
    expect(Buffer.from(stored, 'utf8').toString('utf8')).toBe(stored);
    expect(stored).toBe(stored.normalize('NFC'));
    expect([...stored].filter((ch) => FORBIDDEN_IN_NAMES.test(ch) || ch.charCodeAt(0) < 0x20)).toEqual([]);
    expect(stored).not.toMatch(/^\.+$/);

    const version = await api.deps.db('content_versions').where({ content_id: res.body.id, version: 1 }).first('object_key');
    expect(version.object_key).toBe(`org/${tenant.organizationId}/content/${res.body.id}/1/original`);
    expect(await objectNames(`org/${tenant.organizationId}/content/${res.body.id}/`)).toEqual([version.object_key]);

    const file = await download(api, tenant.owner.token, `/api/v1/content/${res.body.id}/download`);
    expect(file.status).toBe(200);
    expect(file.headers.get('set-cookie')).toBeNull();
    const disposition = file.headers.get('content-disposition') ?? '';
    // One ASCII fallback without quotes or backslashes inside, then the RFC 8187 form with attr-chars only.
    const match = /^attachment; filename="([\x20-\x21\x23-\x5b\x5d-\x7e]*)"; filename\*=UTF-8''([A-Za-z0-9!#$&+\-.^_`|~%]*)$/.exec(disposition);
    expect(match).not.toBeNull();
    expect(decodeURIComponent(match![2]!)).toBe(stored);
  });

  test('a file part with an empty name is a field, not a file: 400 in the envelope, nothing stored', async () => {
    const t = await createTestTenant(api, 'pro');
    const res = await upload(t, fileWithName('filename=""'));
    expect(res.status).toBe(400);
    expect(res.body.error.code).toBe('VALIDATION_ERROR');
    expect(await contentRows(t.organizationId)).toBe(0);
  });
});

describe('storage quota', () => {
  test('exactly at the quota is accepted, one byte over is refused (429 in the envelope, nothing kept)', async () => {
    const t = await createTestTenant(api, 'free');
    expect((await upload(t, fileWithName('filename="a.bin"', randomBytes(6000), 'application/octet-stream'))).status).toBe(201);
    const over = await upload(t, fileWithName('filename="b.bin"', randomBytes(QUOTA - 6000 + 1), 'application/octet-stream'));
    expect(over.status).toBe(429);
    expect(over.body.error.code).toBe('QUOTA_EXCEEDED');
    const exact = await upload(t, fileWithName('filename="c.bin"', randomBytes(QUOTA - 6000), 'application/octet-stream'));
    expect(exact.status).toBe(201);
    const full = await upload(t, fileWithName('filename="d.bin"', Buffer.from('x'), 'application/octet-stream'));
    expect(full.status).toBe(429);
    // A new version counts against the same quota.
    const next = multipart(fileWithName('filename="c2.bin"', Buffer.from('y')));
    const version = await api.request('POST', `/api/v1/content/${exact.body.id}/versions`, {
      token: t.owner.token,
      rawBody: next.body,
      headers: { 'content-type': next.contentType },
    });
    expect(version.status).toBe(429);
    expect(await contentRows(t.organizationId)).toBe(2);
    expect(await objectNames(`org/${t.organizationId}/`)).toHaveLength(2);
    expect(await incompleteUploads(`org/${t.organizationId}/`)).toBe(0);
  });

  test('a body far over the rest of the quota is refused with 429 while it streams, nothing kept', async () => {
    await expectRefusedWhileStreaming(await createTestTenant(api, 'free'), 64 * 1024 * 1024, 429, 'QUOTA_EXCEEDED');
  });

  test('concurrent uploads cannot jointly exceed the quota', async () => {
    const t = await createTestTenant(api, 'free');
    const size = 3000;
    const results = await Promise.all(
      Array.from({ length: 8 }, (_, i) => upload(t, fileWithName(`filename="p${i}.bin"`, randomBytes(size), 'application/octet-stream'))),
    );
    const accepted = results.filter((r) => r.status === 201);
    const refused = results.filter((r) => r.status === 429);
    expect(accepted.length + refused.length).toBe(results.length);
    expect(accepted).toHaveLength(Math.floor(QUOTA / size));
    for (const r of refused) expect(r.body.error.code).toBe('QUOTA_EXCEEDED');
    const [{ total }] = await api.deps.db('content_versions').where({ organization_id: t.organizationId }).sum<{ total: string }[]>('size_bytes as total');
    expect(Number(total)).toBeLessThanOrEqual(QUOTA);
    expect(await objectNames(`org/${t.organizationId}/`)).toHaveLength(accepted.length);
    expect(await incompleteUploads(`org/${t.organizationId}/`)).toBe(0);
  });
});
