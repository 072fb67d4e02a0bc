/**
 * Trimming given characters from the ends of a string, in time linear in what is trimmed. `/x+$/` is not: a
 * backtracking engine tries it from every position of a long run of `x` that something else ends, which is
 * quadratic in the run (200,000 `/` then one other character: ~20 s). Tenants control such strings (an OIDC
 * issuer's discovery document, EXIF tags, a model's answer).
 */
export function trimEndChars(text: string, chars: string): string {
  let end = text.length;
  while (end > 0 && chars.includes(text[end - 1]!)) end -= 1;
  return end === text.length ? text : text.slice(0, end);
}

export function trimStartChars(text: string, chars: string): string {
  let start = 0;
  while (start < text.length && chars.includes(text[start]!)) start += 1;
  return start === 0 ? text : text.slice(start);
}
