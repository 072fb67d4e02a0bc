/** The account pages' stylesheet, served as a file (the pages' Content-Security-Policy allows no inline style). */
export const ACCOUNT_PAGES_CSS = `
:root { color-scheme: light; }
body { font-family: system-ui, -apple-system, 'Segoe UI', sans-serif; margin: 0; background: #f3f4f6; color: #111827; }
main { max-width: 460px; margin: 48px auto; background: #fff; border: 1px solid #e5e7eb; border-radius: 12px; padding: 24px 28px; }
.brand { font-weight: 700; letter-spacing: 0.04em; color: #4f46e5; margin: 0 0 8px; }
h1 { font-size: 20px; margin: 0 0 16px; }
.lead { font-size: 16px; }
label { display: block; margin: 12px 0 4px; font-size: 14px; }
input { display: block; width: 100%; box-sizing: border-box; margin-top: 4px; padding: 8px 10px; font-size: 15px;
  border: 1px solid #d1d5db; border-radius: 8px; }
input[readonly] { background: #f9fafb; color: #374151; }
button, a.button { display: inline-block; margin-top: 14px; padding: 9px 16px; font-size: 15px; border-radius: 8px;
  border: 1px solid #4f46e5; background: #4f46e5; color: #fff; cursor: pointer; text-decoration: none; }
button[disabled] { opacity: 0.6; cursor: progress; }
.tabs { display: flex; gap: 8px; margin: 16px 0 4px; }
.tab { background: #fff; color: #4f46e5; margin-top: 0; }
.tab[aria-pressed="true"] { background: #eef2ff; }
.hint { font-size: 13px; color: #4b5563; }
#message { margin-top: 16px; padding: 10px 14px; border-radius: 8px; background: #fef2f2; border: 1px solid #fecaca; color: #991b1b; }
#message.info { background: #eff6ff; border-color: #bfdbfe; color: #1e3a8a; }
#message p { margin: 0; }
#message ul { margin: 6px 0 0; padding-left: 20px; }
textarea, select { display: block; width: 100%; box-sizing: border-box; margin-top: 4px; padding: 8px 10px; font-size: 15px;
  border: 1px solid #d1d5db; border-radius: 8px; font-family: inherit; }
input[type="checkbox"] { display: inline-block; width: auto; margin-right: 6px; }
.facts { display: grid; grid-template-columns: max-content 1fr; gap: 4px 12px; font-size: 14px; }
.facts dt { color: #4b5563; }
.facts dd { margin: 0; }
blockquote { margin: 4px 0 12px; padding: 8px 12px; border-left: 3px solid #c7d2fe; background: #f9fafb; white-space: pre-wrap; }
.actions { display: flex; gap: 10px; }
button.secondary { background: #fff; color: #991b1b; border-color: #fca5a5; }
button:focus-visible, a.button:focus-visible, input:focus-visible, textarea:focus-visible, select:focus-visible { outline: 3px solid #a5b4fc; outline-offset: 2px; }
[hidden] { display: none !important; }
`;
