import { readFileSync } from 'node:fs';
import path from 'node:path';
import ts from 'typescript';

/**
 * The tool files shown in docs/adding-a-tool.md compile as they are: each ```ts block that follows a line naming
 * `activities/tools/<id>.ts` is typechecked as that file, with the project's compiler options (tsconfig.json) and the
 * real `./types`, through the TypeScript API and an in-memory file, so nothing is written into the tree.
 */

const ROOT = path.resolve(__dirname, '..', '..', '..');
const DOC = path.join(ROOT, 'docs', 'adding-a-tool.md');

interface Snippet {
  /** where the doc says the file lives, e.g. activities/tools/word_count.ts */
  file: string;
  code: string;
}

/** Each ```ts block and the tool file named by the closest line before it. */
function toolSnippets(markdown: string): Snippet[] {
  const snippets: Snippet[] = [];
  const block = /```ts\n([\s\S]*?)```/g;
  for (const match of markdown.matchAll(block)) {
    const before = markdown.slice(0, match.index).trimEnd().split('\n').at(-1) ?? '';
    const named = /`(activities\/tools\/\w+\.ts)`/.exec(before);
    if (named) snippets.push({ file: named[1]!, code: match[1]! });
  }
  return snippets;
}

function projectOptions(): ts.CompilerOptions {
  const configPath = path.join(ROOT, 'tsconfig.json');
  const { config, error } = ts.readConfigFile(configPath, ts.sys.readFile);
  if (error) throw new Error(ts.flattenDiagnosticMessageText(error.messageText, '\n'));
  return { ...ts.parseJsonConfigFileContent(config, ts.sys, ROOT).options, noEmit: true };
}

/** A file of the repository shown by a doc: where it would live, and its text (the file itself need not exist). */
const virtualPath = (file: string): string => path.join(ROOT, path.dirname(file), `__docs_${path.basename(file)}`);

/**
 * The compiler's complaints about each of `files`, keyed by its path, all in one program (one pass over zod's
 * types, not one per file). Each is given a name no real file has beside the real one, so `./types` resolves as it
 * does for the real tools.
 */
function typecheck(files: Snippet[]): Map<string, string[]> {
  const virtual = new Map(files.map((f) => [virtualPath(f.file), f]));
  const options = projectOptions();
  const host = ts.createCompilerHost(options);
  const read = host.readFile.bind(host);
  const exists = host.fileExists.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.readFile = (name) => virtual.get(path.resolve(name))?.code ?? read(name);
  host.fileExists = (name) => virtual.has(path.resolve(name)) || exists(name);
  host.getSourceFile = (name, language, onError, create) => {
    const shown = virtual.get(path.resolve(name));
    return shown ? ts.createSourceFile(name, shown.code, language, true) : getSourceFile(name, language, onError, create);
  };
  const program = ts.createProgram({ rootNames: [...virtual.keys()], options, host });
  const problems = new Map<string, string[]>(files.map((f) => [f.file, []]));
  for (const d of ts.getPreEmitDiagnostics(program)) {
    const shown = d.file ? virtual.get(path.resolve(d.file.fileName)) : undefined;
    const line = d.file && d.start !== undefined ? d.file.getLineAndCharacterOfPosition(d.start).line + 1 : 0;
    const text = `${d.file ? path.relative(ROOT, d.file.fileName) : ''}:${line} ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
    // a complaint in a real file (there should be none) fails every snippet
    for (const file of shown ? [shown.file] : [...problems.keys()]) problems.get(file)!.push(text);
  }
  return problems;
}

const snippets = toolSnippets(readFileSync(DOC, 'utf8'));
const broken: Snippet = { file: 'activities/tools/broken_example.ts', code: "import { defineTool } from './types';\nexport default defineTool({ id: 1 });\n" };
let problems: Map<string, string[]>;

beforeAll(() => {
  problems = typecheck([...snippets, broken]);
}, 120_000);

test('the doc shows the scaffolded tool and the word_count walk-through', () => {
  expect(snippets.map((s) => s.file)).toEqual(['activities/tools/shout_text.ts', 'activities/tools/word_count.ts']);
});

test.each(snippets.map((s) => s.file))('%s typechecks with the project\'s options', (file) => {
  expect(problems.get(file)).toEqual([]);
});

test('the check sees a type error', () => {
  expect(problems.get(broken.file)!.length).toBeGreaterThan(0);
});
