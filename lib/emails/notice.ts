/**
 * A platform notice rendered twice from one description: plain text (first; the catcher and many clients show
 * it) and HTML (the alternative). Every value is escaped for HTML; nothing a tenant or a request chose reaches the
 * HTML unescaped, and no value becomes a link but the notice's own action.
 */
export interface Notice {
  subject: string;
  heading: string;
  paragraphs: string[];
  /** Label/value lines (when, from where), shown as a small table. */
  facts?: [string, string][];
  /** The one link of the notice (a platform page), with the text of its button. */
  action?: { label: string; url: string };
  /** The closing line (what to do if this was not you). */
  footer?: string;
}

export interface RenderedNotice {
  subject: string;
  text: string;
  html: string;
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };

export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => ESCAPES[c]!);
}

export function renderNotice(notice: Notice): RenderedNotice {
  const text = [
    notice.heading,
    '',
    ...notice.paragraphs.flatMap((p) => [p, '']),
    ...(notice.facts?.length ? [...notice.facts.map(([label, value]) => `${label}: ${value}`), ''] : []),
    ...(notice.action ? [`${notice.action.label}: ${notice.action.url}`, ''] : []),
    ...(notice.footer ? [notice.footer] : []),
  ]
    .join('\n')
    .trimEnd();
  const facts = notice.facts?.length
    ? `<table style="border-collapse:collapse;margin:16px 0">${notice.facts
        .map(
          ([label, value]) =>
            `<tr><td style="padding:2px 12px 2px 0;color:#555">${escapeHtml(label)}</td><td style="padding:2px 0">${escapeHtml(value)}</td></tr>`,
        )
        .join('')}</table>`
    : '';
  const action = notice.action
    ? `<p style="margin:20px 0"><a href="${escapeHtml(notice.action.url)}" style="background:#1f4fd1;color:#fff;padding:10px 16px;border-radius:6px;text-decoration:none">${escapeHtml(notice.action.label)}</a></p>`
    : '';
  const html =
    '<!doctype html><html><body style="margin:0;padding:24px;background:#f5f6f8;font-family:-apple-system,Segoe UI,Helvetica,Arial,sans-serif;color:#111">' +
    '<div style="max-width:560px;margin:0 auto;background:#fff;border-radius:8px;padding:24px">' +
    `<h1 style="font-size:18px;margin:0 0 16px">${escapeHtml(notice.heading)}</h1>` +
    notice.paragraphs.map((p) => `<p style="margin:0 0 12px;line-height:1.5">${escapeHtml(p)}</p>`).join('') +
    facts +
    action +
    (notice.footer ? `<p style="margin:16px 0 0;color:#555;font-size:13px;line-height:1.5">${escapeHtml(notice.footer)}</p>` : '') +
    '</div></body></html>';
  return { subject: notice.subject, text: `${text}\n`, html };
}
