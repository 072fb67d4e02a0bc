import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  getTool,
  isToolFileName,
  listTools,
  loadToolsFromDirectory,
  TOOLS,
  toolShapeProblems,
  validateToolInput,
  validateToolOutput,
} from '../../../activities/tools/registry';

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
