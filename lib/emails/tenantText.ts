/**
 * Names a tenant chose (an organization's name, an inviter's display name) as they may appear in the platform's own
 * mail. Such a name is an attacker's text in a message that comes from the platform's address, so it must not read
 * as the platform speaking, carry a link, or hide anything:
 * - control, format (bidi overrides, zero-width) and line/paragraph separator characters are removed, whitespace is
 *   collapsed to single spaces, so a name is one visible line;
 * - links are removed (anything with a scheme, `www.` names) and what a mail client would still turn into a link is
 *   defanged: the dots of a domain-looking word become `[.]`, `@` becomes `[at]`;
 * - the result is cut to `max` characters (on a code point, with an ellipsis), then quoted by the caller's
 *   template, which also says who chose it.
 */
export function tenantName(value: string, max = 60): string {
  let text = value
    .normalize('NFKC')
    // C0/C1 controls, line and paragraph separators, format characters (bidi controls, zero-width, soft hyphen).
    .replace(/[\p{Cc}\p{Cf}\p{Zl}\p{Zp}]/gu, ' ')
    .replace(/\s+/gu, ' ')
    .trim();
  text = text
    .replace(/\b[a-z][a-z0-9+.-]*:\/\/\S*/giu, '[link removed]')
    .replace(/\b(?:www\d*\.)\S*/giu, '[link removed]')
    .replace(/\b(?:mailto|tel|sms|javascript|data):\S*/giu, '[link removed]')
    // A dot between word characters (evil.example, 192.168.0.1) or before a word: defanged.
    .replace(/(?<=[\p{L}\p{N}])[.\u3002\uff0e\uff61](?=[\p{L}\p{N}])/gu, '[.]')
    .replace(/[@\uff20]/gu, '[at]')
    // Double quotes would close the template's quotes.
    .replace(/["\u201c\u201d]/gu, "'");
  const points = Array.from(text);
  if (points.length > max) text = `${points.slice(0, max - 1).join('').trimEnd()}…`;
  return text || '(unnamed)';
}
