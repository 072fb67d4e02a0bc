/**
 * Content-Security-Policy of the HTML pages the API serves itself (/docs, run pictures): everything comes from
 * this origin; inline styles and data: images are allowed (Swagger UI and the run picture's SVG use them); scripts
 * are only our own files.
 */
export const PAGE_CSP = [
  "default-src 'self'",
  "script-src 'self'",
  "style-src 'self' 'unsafe-inline'",
  "img-src 'self' data:",
  "connect-src 'self'",
  "frame-ancestors 'none'",
  "base-uri 'none'",
  "form-action 'none'",
].join('; ');
