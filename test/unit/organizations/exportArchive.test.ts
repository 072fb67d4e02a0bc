import { createHash, randomBytes } from 'node:crypto';
import { Writable } from 'node:stream';
import { gunzipSync } from 'node:zlib';
import { archiveFileName, maskForExport, runSummary, RUN_VALUE_LIMIT_BYTES } from '../../../domain/organizations/exportArchive';
import type { RunRow } from '../../../domain/runs/queries';
import { EntrySizeError, JsonlParts, TarGzWriter } from '../../../lib/archive/tarGz';
import { readTarEntries } from '../../helpers/tar';

const sha = (b: Buffer) => createHash('sha256').update(b).digest('hex');

function memorySink(): { sink: Writable; bytes: () => Buffer } {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _enc, cb) {
      chunks.push(chunk);
      cb();
    },
  });
  return { sink, bytes: () => Buffer.concat(chunks) };
}

describe('TarGzWriter', () => {
  test('a tar reader finds every entry, byte for byte, with the recorded sizes and checksums', async () => {
    const { sink, bytes } = memorySink();
    const writer = new TarGzWriter(sink);
    const binary = randomBytes(70_000);
    const unicode = `files/${'x'.repeat(36)}/v2/Überweisung — ${'é'.repeat(80)}.pdf`;
    const mtime = new Date('2026-01-02T03:04:05Z');
    await writer.addBuffer('organization.json', Buffer.from('{"a":1}'), mtime);
    await writer.addStream(unicode, binary.length, mtime, [binary.subarray(0, 1000), binary.subarray(1000)]);
    await writer.addBuffer('empty.txt', Buffer.alloc(0), mtime);
    const parts = new JsonlParts(writer, 'audit-log', mtime, 100);
    for (let i = 0; i < 10; i++) await parts.add({ i, text: 'y'.repeat(30) });
    await parts.close();
    await writer.finish();

    const archive = bytes();
    expect(writer.compressedBytes).toBe(archive.length);
    expect(writer.sha256()).toBe(sha(archive));
    const files = await readTarEntries(gunzipSync(archive));
    expect(files.get(unicode)).toEqual(binary);
    expect(files.get('organization.json')!.toString()).toBe('{"a":1}');
    expect(files.get('empty.txt')).toEqual(Buffer.alloc(0));
    const partPaths = [...files.keys()].filter((p) => p.startsWith('audit-log/'));
    expect(partPaths.length).toBeGreaterThan(1);
    const lines = partPaths.flatMap((p) => files.get(p)!.toString().trim().split('\n').map((l) => JSON.parse(l).i));
    expect(lines).toEqual([0, 1, 2, 3, 4, 5, 6, 7, 8, 9]);
    for (const entry of writer.entries) {
      expect([entry.path, entry.size, entry.sha256]).toEqual([entry.path, files.get(entry.path)!.length, sha(files.get(entry.path)!)]);
    }
    expect(writer.entries.filter((e) => e.path.startsWith('audit-log/')).reduce((n, e) => n + (e.records as number), 0)).toBe(10);
  });

  test('an entry that delivers other than the announced size fails; a duplicate path is refused', async () => {
    const writer = new TarGzWriter(memorySink().sink);
    await expect(writer.addStream('short.bin', 10, new Date(), [Buffer.alloc(5)])).rejects.toBeInstanceOf(EntrySizeError);
    const other = new TarGzWriter(memorySink().sink);
    await expect(other.addStream('long.bin', 3, new Date(), [Buffer.alloc(5)])).rejects.toBeInstanceOf(EntrySizeError);
    await other.addBuffer('a', Buffer.from('1'), new Date()).catch(() => undefined);
    await expect(other.addBuffer('a', Buffer.from('1'), new Date())).rejects.toThrow(/duplicate/);
  });
});

describe('what the export keeps', () => {
  test('settings: sealed secrets and secret-looking keys are masked, not even their last characters kept', () => {
    const settings = {
      general: { timezone: 'UTC' },
      integration: {
        webhooks: [{ url: 'https://h.example/x', secret: { enc: 'v1:abc', last4: 'WXYZ' }, previousSecrets: [{ enc: 'v1:d', last4: 'OLD1' }] }],
        sso: { oidc: { clientId: 'loom', clientSecret: { enc: 'v1:e', last4: 'SSO9' } } },
        thirdParty: { crm: { config: { region: 'eu' }, secrets: { token: { enc: 'v1:f', last4: 'CRM7' } } } },
      },
    };
    const masked = JSON.stringify(maskForExport(settings));
    for (const leak of ['v1:', 'WXYZ', 'OLD1', 'SSO9', 'CRM7']) expect(masked).not.toContain(leak);
    expect(masked).toContain('"timezone":"UTC"');
    expect(masked).toContain('"clientId":"loom"');
    expect(masked).toContain('https://h.example/x');
  });

  test('run summaries keep states and errors, drop node outputs and large values', () => {
    const run = {
      id: 'r1',
      workflow_id: 'w1',
      workflow_version: 2,
      status: 'failed',
      parameters: { small: 1 },
      results: { big: 'z'.repeat(RUN_VALUE_LIMIT_BYTES + 10) },
      node_states: {
        a: { status: 'completed', attempts: 1, startedAt: 't0', finishedAt: 't1', output: { secretOutput: 'o'.repeat(100) }, error: null },
        b: { status: 'failed', attempts: 3, startedAt: 't1', finishedAt: 't2', output: null, error: { code: 'X', message: 'm'.repeat(5000) } },
      },
      errors: [{ node: 'b', code: 'X', message: 'boom', attempt: 3, time: 't2' }],
      trigger: { type: 'manual' },
      retry_of: null,
      started_at: new Date('2026-01-01T00:00:00Z'),
      completed_at: new Date('2026-01-01T00:00:02Z'),
      created_by: null,
      created_at: new Date('2026-01-01T00:00:00Z'),
      updated_at: new Date('2026-01-01T00:00:02Z'),
    } as unknown as RunRow;
    // eslint-disable-next-line @typescript-eslint/no-explicit-any
    const s = runSummary(run) as Record<string, any>;
    expect(s).toMatchObject({ status: 'failed', duration_ms: 2000, nodes: { total: 2, byStatus: { completed: 1, failed: 1 } }, parameters: { small: 1 } });
    expect(s.results).toBeUndefined();
    expect(s.resultsOmittedBytes).toBeGreaterThan(RUN_VALUE_LIMIT_BYTES);
    expect(JSON.stringify(s)).not.toContain('secretOutput');
    expect(s.node_states.b.error.message.length).toBeLessThan(2100);
    expect(s.errors).toHaveLength(1);
  });

  test('archive file names are one safe segment', () => {
    expect(archiveFileName('../../etc/passwd')).toBe('_.._etc_passwd');
    expect(archiveFileName('a\\b/c\u0000.txt')).toBe('a_b_c_.txt');
    expect(archiveFileName('...')).toBe('original');
    expect(archiveFileName('Résumé.pdf')).toBe('Résumé.pdf');
    expect(Buffer.byteLength(archiveFileName('é'.repeat(300)))).toBeLessThanOrEqual(200);
  });
});
