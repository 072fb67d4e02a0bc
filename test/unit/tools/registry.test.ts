import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { describeTool, isToolAvailable } from '../../../lib/tools/descriptor';
import { getTool, isToolFileName, listTools, loadToolsFromDirectory, TOOLS, toolShapeProblems, workerTools } from '../../../activities/tools/registry';
import { validateToolInput, validateToolOutput } from '../../../lib/tools/validation';

describe('tool registry', () => {
  test('collects the tool modules of activities/tools', () => {
    expect(TOOLS.has('json_transform')).toBe(true);
    expect(getTool('json_transform')?.category).toBe('data');
    expect(getTool('nope')).toBeUndefined();
    expect(listTools().map((t) => t.id)).toContain('json_transform');
    expect([...TOOLS.keys()].length).toBe(TOOLS.size);
  });

  test('only tool files are scanned', () => {
    expect(isToolFileName('http_request.ts')).toBe(true);
    expect(isToolFileName('http_request.js')).toBe(true);
    for (const name of ['registry.ts', 'types.ts', 'index.ts', 'x.d.ts', 'x.test.ts', '_helper.ts', 'README.md']) {
      expect(isToolFileName(name)).toBe(false);
    }
  });

  test('a new tool is one file in the folder', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tools-'));
    writeFileSync(
      path.join(dir, 'shout.js'),
      `module.exports = { default: { id: 'shout', name: 'Shout', category: 'custom', description: 'upper-cases',
        inputSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
        outputSchema: { type: 'object' }, sideEffect: 'none',
        execute: async (i) => ({ text: i.text.toUpperCase() }) } };`,
    );
    const tools = loadToolsFromDirectory(dir);
    expect([...tools.keys()]).toEqual(['shout']);
  });

  test('a malformed tool module fails loudly at start-up', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tools-'));
    writeFileSync(path.join(dir, 'broken.js'), `module.exports = { default: { id: 'Bad Id' } };`);
    expect(() => loadToolsFromDirectory(dir)).toThrow(/broken\.js: id must be snake_case/);
  });

  test('duplicate ids are refused', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tools-'));
    const body = `module.exports = { default: { id: 'dup', name: 'D', category: 'custom', description: '',
      inputSchema: {}, outputSchema: {}, sideEffect: 'none', execute: async () => ({}) } };`;
    writeFileSync(path.join(dir, 'a.js'), body);
    writeFileSync(path.join(dir, 'b.js'), body);
    expect(() => loadToolsFromDirectory(dir)).toThrow(/defined twice/);
  });

  test('shape problems are listed', () => {
    expect(toolShapeProblems(null)).toHaveLength(1);
    expect(toolShapeProblems({ id: 'ok_id' }).length).toBeGreaterThan(3);
  });

  test('validateToolInput / validateToolOutput report paths and problems', () => {
    const tool = getTool('json_transform')!;
    expect(validateToolInput(tool, { expression: '$' })).toEqual({ ok: true });
    expect(validateToolInput(tool, {})).toEqual({ ok: true }); // no expression: the identity
    const bad = validateToolInput(getTool('http_request')!, { extra: true });
    expect(bad.ok).toBe(false);
    if (!bad.ok) {
      expect(bad.problems).toEqual(
        expect.arrayContaining([
          { path: 'input.url', problem: 'required: the http_request tool needs "url"; for example {"url":"https://api.example.com/items"}' },
          { path: 'input.extra', problem: 'unknown property' },
        ]),
      );
    }
    const typed = validateToolInput(tool, { expression: 5 }, 'nodes.t.config');
    expect(!typed.ok && typed.problems[0]).toEqual({ path: 'nodes.t.config.expression', problem: 'must be string' });
    expect(validateToolOutput(tool, { result: 1 }).ok).toBe(true);
    expect(validateToolOutput(tool, 'x').ok).toBe(false);
  });
});

describe('the tools a worker runs', () => {
  const toolFile = (id: string, extra = '') =>
    `module.exports = { default: { id: '${id}', name: '${id}', category: 'custom', description: '', ${extra}
      inputSchema: { type: 'object' }, outputSchema: { type: 'object' }, sideEffect: 'none', execute: async () => ({}) } };`;

  test('test tools only when enabled', () => {
    const off = workerTools({ directories: [], testToolsEnabled: false }).map((t) => t.id);
    const on = workerTools({ directories: [], testToolsEnabled: true }).map((t) => t.id);
    expect(off).not.toEqual(expect.arrayContaining(['delay']));
    expect(off).not.toContain('fail');
    expect(on).toEqual(expect.arrayContaining(['delay', 'fail', 'json_transform']));
    expect(on.filter((id) => !off.includes(id)).sort()).toEqual(['delay', 'fail']);
    expect(isToolAvailable(getTool('delay')!, false)).toBe(false);
    expect(isToolAvailable(getTool('json_transform')!, false)).toBe(true);
  });

  test('the built-in tools plus those of TOOLS_DIRECTORIES (test tools there too are filtered)', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tools-'));
    writeFileSync(path.join(dir, 'word_count.js'), toolFile('word_count'));
    writeFileSync(path.join(dir, 'probe_sleep.js'), toolFile('probe_sleep', 'testTool: true,'));
    const ids = workerTools({ directories: [dir], testToolsEnabled: false }).map((t) => t.id);
    expect(ids).toContain('word_count');
    expect(ids).toContain('json_transform');
    expect(ids).not.toContain('probe_sleep');
    expect(workerTools({ directories: [dir], testToolsEnabled: true }).map((t) => t.id)).toContain('probe_sleep');
  });

  test('an id of a directory that a built-in tool has stops the start', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'tools-'));
    writeFileSync(path.join(dir, 'json_transform.js'), toolFile('json_transform'));
    expect(() => workerTools({ directories: [dir], testToolsEnabled: false })).toThrow(/json_transform .*defined twice/);
  });

  test('describeTool keeps the JSON parts only', () => {
    const described = describeTool(getTool('json_transform')!);
    expect(Object.keys(described).sort()).toEqual(
      ['category', 'defaultTimeoutMs', 'description', 'id', 'inputSchema', 'name', 'outputSchema', 'runsLocally', 'sideEffect', 'syntaxFields'].sort(),
    );
    expect(JSON.parse(JSON.stringify(described))).toEqual(described);
    expect(describeTool(getTool('delay')!).testTool).toBe(true);
  });
});
