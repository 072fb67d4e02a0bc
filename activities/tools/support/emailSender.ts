/**
 * Who a tenant's e-mail says it is from. Mail of the `email_send` tool leaves from the platform's address, so the
 * display name must show the organization and must not pass for the platform itself:
 *
 * - From: `"<organization> via Loom" <platform address>`; the organization name is sanitised: NFKC, only letters,
 *   marks, digits, spaces and `. - _ & ' + ! # /` are kept (no quotes, angle brackets, `@`, commas, control or
 *   format characters such as bidi overrides), whitespace collapsed, at most 60 characters.
 * - A name that reads as the platform's own name (a word that looks like "Loom...": "Loom", "L00m Security",
 *   "ʟᴏᴏᴍ", Cyrillic "Lоом", "Lo0rn"; or "L o o m" spelled out) or that is empty after sanitising is replaced by
 *   `Organization <first 8 characters of its id>`.
 * - The text body ends with a footer line naming the organization (`emailFooter`).
 */

export const PLATFORM_NAME = 'Loom';
const NAME_MAX = 60;

/** Characters that render like Latin letters of the platform's name, mapped to them (after NFKD and case folding). */
const CONFUSABLES: Record<string, string> = {
  '0': 'o',
  'ο': 'o', // Greek omicron
  'о': 'o', // Cyrillic o
  'օ': 'o', // Armenian oh
  'ᴏ': 'o', // small capital o
  'ø': 'o',
  '°': 'o',
  '1': 'l',
  'i': 'l',
  '|': 'l',
  '!': 'l',
  'ı': 'l', // dotless i
  'ł': 'l',
  'ӏ': 'l', // Cyrillic palochka
  'ι': 'l', // Greek iota
  'ʟ': 'l', // small capital l
  'м': 'm', // Cyrillic em
  'ᴍ': 'm', // small capital m
  'ṃ': 'm',
};

/** The words of a name as they look (Latin letters only, confusables mapped), for comparing with the platform's name. */
function skeletonWords(name: string): string[] {
  let out = '';
  for (const ch of name.normalize('NFKD').replace(/\p{M}/gu, '').toLowerCase()) {
    const mapped = CONFUSABLES[ch] ?? ch;
    out += /[a-z]/.test(mapped) ? mapped : ' ';
  }
  // "rn" reads as "m" in many fonts.
  return out.replace(/rn/g, 'm').split(' ').filter(Boolean);
}

/**
 * Whether a name could pass for the platform: a word starting with "loom" ("Loom", "L00m Security", "LoomHQ"), or
 * the name spelled out in single letters ("L o o m", "L.O.O.M"). "Bloom" and "Gloomy Games" are fine.
 */
export function looksLikePlatformName(name: string): boolean {
  const platform = PLATFORM_NAME.toLowerCase();
  const words = skeletonWords(name);
  if (words.some((w) => w.startsWith(platform))) return true;
  const spelled = words.map((w) => (w.length === 1 ? w : ' ')).join('');
  return spelled.includes(platform);
}

export function sanitizeOrganizationName(name: string): string {
  return name
    .normalize('NFKC')
    .replace(/[^\p{L}\p{M}\p{N} .\-_&'+!#/]/gu, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, NAME_MAX)
    .trim();
}

/** The organization as tenant mail names it (display name and footer). */
export function organizationLabel(organization: { id: string; name: string }): string {
  const clean = sanitizeOrganizationName(organization.name);
  if (!clean || looksLikePlatformName(clean)) return `Organization ${organization.id.slice(0, 8)}`;
  return clean;
}

export function senderDisplayName(label: string): string {
  return `${label} via ${PLATFORM_NAME}`;
}

export function emailFooter(label: string): string {
  return `Sent by ${label} through ${PLATFORM_NAME} workflow automation.`;
}

const HTML_ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

/** The footer appended to an HTML body (before `</body>` when there is one). */
export function withHtmlFooter(html: string, label: string): string {
  const footer = `<hr><p>${emailFooter(label).replace(/[&<>"']/g, (c) => HTML_ESCAPES[c]!)}</p>`;
  const end = html.toLowerCase().lastIndexOf('</body>');
  return end === -1 ? `${html}${footer}` : `${html.slice(0, end)}${footer}${html.slice(end)}`;
}

export function withTextFooter(text: string, label: string): string {
  // trimEnd, not /\s+$/: the regex is quadratic in a long run of spaces followed by something else.
  return `${text.trimEnd()}\n\n-- \n${emailFooter(label)}\n`;
}
