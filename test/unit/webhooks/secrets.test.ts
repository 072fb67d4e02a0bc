import { createHmac, timingSafeEqual } from 'node:crypto';
import { Webhook } from 'standardwebhooks';
import {
  applySettingsUpdate,
  defaultSettings,
  settingsUpdateSchema,
  signingSecretsOf,
  SettingsRuleError,
  type GeneratedSecret,
} from '../../../domain/organizations/settingsModel';
import { createSecretBox } from '../../../lib/secrets';
import { generateSigningSecret, signatureHeaders, signingSecretProblem } from '../../../lib/triggers/standardWebhooks';

const box = createSecretBox({ encryptionKey: 'k'.repeat(40), jwtSecret: 'j'.repeat(40) });
const b64 = (bytes: number, fill = 7) => Buffer.alloc(bytes, fill).toString('base64');

describe('outgoing webhook signing secrets', () => {
  test('the rule: whsec_ + canonical base64 of 24 to 64 bytes', () => {
    expect(signingSecretProblem(`whsec_${b64(24)}`)).toBeNull();
    expect(signingSecretProblem(`whsec_${b64(64)}`)).toBeNull();
    expect(signingSecretProblem(generateSigningSecret())).toBeNull();
    expect(signingSecretProblem(`whsec_${b64(23)}`)).toMatch(/decodes to 23 bytes/);
    expect(signingSecretProblem(`whsec_${b64(65)}`)).toMatch(/decodes to 65 bytes/);
    expect(signingSecretProblem('endpoint-secret-0123456789')).toMatch(/does not start with whsec_/);
    expect(signingSecretProblem('whsec_not*base64!but-long-enough-000000')).toMatch(/not base64/);
    expect(signingSecretProblem(`whsec_${b64(30).slice(0, -1)}`)).toMatch(/not base64/);
    expect(signingSecretProblem('whsec_ZéZéZéZéZéZéZéZéZéZéZéZéZéZéZéZé')).toMatch(/not base64/);
    // A non-canonical tail (bits the decoder drops) would make two spellings of one key.
    expect(signingSecretProblem(`whsec_${'A'.repeat(42)}B=`)).toMatch(/canonical/);
  });

  test('every secret the rule accepts is accepted by the official library, with and without its prefix', () => {
    for (const secret of [generateSigningSecret(24), generateSigningSecret(), generateSigningSecret(64)]) {
      expect(signingSecretProblem(secret)).toBeNull();
      const headers = signatureHeaders(secret, 'msg_1', '{"a":1}');
      expect(new Webhook(secret).verify('{"a":1}', headers)).toEqual({ a: 1 });
    }
  });

  test('two secrets give two signatures; the library verifies with either', () => {
    const [a, b] = [generateSigningSecret(), generateSigningSecret()];
    const headers = signatureHeaders([a, b], 'msg_2', '{}');
    expect(headers['webhook-signature']!.split(' ')).toHaveLength(2);
    for (const s of [a, b]) expect(new Webhook(s).verify('{}', headers)).toEqual({});
    expect(() => new Webhook(generateSigningSecret()).verify('{}', headers)).toThrow();
  });

  test("docs/triggers.md's manual snippet accepts our deliveries, either signature of a rotation, and nothing else", () => {
    // Copied from docs/triggers.md#outgoing-webhooks (the receiving side, by hand).
    function verifyByHand(secret: string, req: { headers: Record<string, string>; rawBody: string }): boolean {
      const key = Buffer.from(secret.slice('whsec_'.length), 'base64');
      const id = req.headers['webhook-id'];
      const timestamp = req.headers['webhook-timestamp'];
      if (Math.abs(Date.now() / 1000 - Number(timestamp)) > 300) throw new Error('stale timestamp');
      const expected = createHmac('sha256', key).update(`${id}.${timestamp}.`).update(req.rawBody).digest();
      return req.headers['webhook-signature']!.split(' ').some((entry) => {
        const [version, value] = entry.split(',', 2);
        const given = Buffer.from(value ?? '', 'base64');
        return version === 'v1' && given.length === expected.length && timingSafeEqual(given, expected);
      });
    }
    const [current, previous] = [generateSigningSecret(), generateSigningSecret()];
    const rawBody = '{"type":"custom.x","data":{"é":1}}';
    const req = { headers: signatureHeaders([current, previous], 'evt_1', rawBody), rawBody };
    expect([verifyByHand(current, req), verifyByHand(previous, req), verifyByHand(generateSigningSecret(), req)]).toEqual([true, true, false]);
    expect(verifyByHand(current, { ...req, rawBody: rawBody.replace('1', '2') })).toBe(false);
  });

  const update = (webhooks: unknown[]) => settingsUpdateSchema.parse({ integration: { webhooks } });

  test('generated when left out (reported once), refused when it breaks the rule, rotated with an overlap', () => {
    const now = new Date('2030-01-01T00:00:00Z');
    const generated: GeneratedSecret[] = [];
    const created = applySettingsUpdate(defaultSettings(), update([{ url: 'https://x.example/h', events: ['*'] }]), box, { now, generated });
    const hook = created.integration.webhooks[0]!;
    expect(generated).toEqual([{ endpointId: hook.id, secret: box.open(hook.secret) }]);
    expect(signingSecretProblem(generated[0]!.secret)).toBeNull();

    expect(() => applySettingsUpdate(defaultSettings(), update([{ url: 'https://x.example/h', events: ['*'], secret: 'x'.repeat(40) }]), box)).toThrow(SettingsRuleError);
    expect(() => applySettingsUpdate(created, update([{ id: hook.id, url: hook.url, events: ['*'], rotateSecret: true, secret: generateSigningSecret() }]), box)).toThrow(/not both/);

    // Rotation: the new secret first, the old one until the overlap ends.
    const rotatedOut: GeneratedSecret[] = [];
    const rotated = applySettingsUpdate(created, update([{ id: hook.id, url: hook.url, events: ['*'], rotateSecret: true, previousSecretOverlapMinutes: 60 }]), box, { now, generated: rotatedOut });
    const after = rotated.integration.webhooks[0]!;
    expect(box.open(after.secret)).toBe(rotatedOut[0]!.secret);
    expect(after.previousSecret).toEqual({ secret: hook.secret, expiresAt: '2030-01-01T01:00:00.000Z' });
    expect(signingSecretsOf(after, now).map((s) => box.open(s))).toEqual([rotatedOut[0]!.secret, generated[0]!.secret]);
    expect(signingSecretsOf(after, new Date('2030-01-01T01:00:00Z'))).toEqual([after.secret]);

    // Kept by id: the previous secret stays while its overlap lasts, and is dropped once it is over.
    const keep = update([{ id: hook.id, url: 'https://x.example/v2', events: ['*'] }]);
    expect(applySettingsUpdate(rotated, keep, box, { now }).integration.webhooks[0]!.previousSecret).toEqual(after.previousSecret);
    expect(applySettingsUpdate(rotated, keep, box, { now: new Date('2030-01-02T00:00:00Z') }).integration.webhooks[0]!.previousSecret).toBeNull();

    // Overlap 0: the old secret stops at once.
    const given = generateSigningSecret();
    const replaced = applySettingsUpdate(created, update([{ id: hook.id, url: hook.url, events: ['*'], secret: given, previousSecretOverlapMinutes: 0 }]), box, { now });
    expect(signingSecretsOf(replaced.integration.webhooks[0]!, now).map((s) => box.open(s))).toEqual([given]);
  });
});
