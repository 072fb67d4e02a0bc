import { describeWithBrowser, launchBrowser, screenshotPath, type TestBrowser } from '../helpers/browser';
import { startApi, type TestApi } from '../helpers/stack';

let api: TestApi;

beforeAll(async () => {
  api = await startApi();
});

afterAll(async () => {
  await api.close();
});

describe('/docs', () => {
  it('serves the reference page with a strict content security policy', async () => {
    const res = await api.request('GET', '/docs');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^text\/html/);
    expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
    expect(res.text).toContain('/docs/assets/swagger-ui-bundle.js');
    expect(res.text).not.toMatch(/https?:\/\//);
  });

  it('serves the listed assets with their content types', async () => {
    const js = await api.request('GET', '/docs/assets/swagger-ui-bundle.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-type')).toMatch(/^text\/javascript/);
    const css = await api.request('GET', '/docs/assets/swagger-ui.css');
    expect(css.headers.get('content-type')).toMatch(/^text\/css/);
    const init = await api.request('GET', '/docs/assets/init.js');
    expect(init.text).toContain("url: '/openapi.json'");
  });

  it('answers 404 for anything not on the list, including traversal attempts', async () => {
    for (const name of ['package.json', 'index.html', '..%2F..%2Fpackage.json', '%2E%2E%2Fswagger-ui.css', 'x'.repeat(65)]) {
      const res = await api.request('GET', `/docs/assets/${name}`);
      expect([400, 404]).toContain(res.status);
      expect(res.body.error.code).toMatch(/NOT_FOUND|VALIDATION_ERROR/);
    }
    const raw = await api.request('GET', '/docs/assets/../../package.json');
    expect(raw.status).toBe(404);
  });

  it('is described in the OpenAPI document', async () => {
    const res = await api.request('GET', '/openapi.json');
    expect(res.body.paths['/docs'].get.responses['200'].content).toHaveProperty('text/html');
    expect(res.body.paths['/docs/assets/{file}'].get.operationId).toBe('apiReferenceAsset');
  });
});

describeWithBrowser('/docs in headless Chromium', () => {
  let browser: TestBrowser;

  beforeAll(async () => {
    browser = await launchBrowser();
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('renders the operations of the OpenAPI document with no request leaving the API', async () => {
    const page = await browser.browser.newPage({ viewport: { width: 1280, height: 1600 } });
    const foreign: string[] = [];
    const consoleErrors: string[] = [];
    page.on('request', (req) => {
      if (!req.url().startsWith(api.baseUrl) && !req.url().startsWith('data:')) foreign.push(req.url());
    });
    page.on('console', (msg) => {
      if (msg.type() === 'error') consoleErrors.push(msg.text());
    });
    await page.goto(`${api.baseUrl}/docs`);
    await page.waitForSelector('.opblock', { timeout: 30_000 });
    expect(await page.textContent('.info .title')).toContain('Loom API');

    // Past about 130 operations Swagger UI (5.x) renders only the operations in view and renders the rest as the page
    // scrolls: the page is read by scrolling through it, a screen at a time.
    const operationIds = new Set<string>();
    // Strings, not functions: the tests are compiled without the DOM's types.
    const scrollHeight = (): Promise<number> => page.evaluate('document.body.scrollHeight');
    const scrollTo = (top: number): Promise<unknown> => page.evaluate(`window.scrollTo(0, ${top})`);
    for (let y = 0; y <= (await scrollHeight()); y += 600) {
      await scrollTo(y);
      await page.waitForTimeout(100);
      const visible = await page.$$eval('.opblock .opblock-summary-operation-id', (els) => els.map((e) => e.textContent?.trim() ?? ''));
      for (const id of visible) operationIds.add(id);
    }
    expect([...operationIds]).toEqual(expect.arrayContaining(['register', 'health', 'openApiDocument', 'apiReferencePage']));

    expect(operationIds.size).toBeGreaterThan(100);
    // Expanding an operation shows its responses (scrolled back into view first).
    for (let y = 0; !(await page.$('#operations-system-health')); y += 600) {
      if (y > (await scrollHeight())) throw new Error('#operations-system-health never rendered');
      await scrollTo(y);
      await page.waitForTimeout(100);
    }
    await page.click('#operations-system-health .opblock-summary');
    await page.waitForSelector('#operations-system-health .responses-table');

    await page.screenshot({ path: screenshotPath('docs.png'), fullPage: false });
    expect(foreign).toEqual([]);
    expect(consoleErrors.filter((e) => /Content Security Policy/i.test(e))).toEqual([]);
    await page.close();
  });
});
