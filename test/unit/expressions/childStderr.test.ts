import { childStderr } from '../../../lib/expressions/sandbox/childStderr';

function collect() {
  const lines: string[] = []; // each without its line feed
  const stderr = childStderr('expression sandbox 7', 1024, (text) => lines.push(text));
  return { lines, stderr };
}

const HEAP_REPORT = [
  '',
  '<--- Last few GCs --->',
  '',
  '[7:0x1]     3079 ms: Scavenge 883.7 (900.6) -> 867.9 (900.6) MB, 0.12 / 0.00 ms  allocation failure; ',
  '',
  '<--- JS stacktrace --->',
  '',
  'FATAL ERROR: Reached heap limit Allocation failed - JavaScript heap out of memory',
  '----- Native stack trace -----',
  ' 1: 0xb8d0a3 node::OOMErrorHandler',
  '',
].join('\n');

test('a heap report, split anywhere across chunks, is said in one line once the process has ended', () => {
  const { lines, stderr } = collect();
  for (let i = 0; i < HEAP_REPORT.length; i += 7) stderr.write(Buffer.from(HEAP_REPORT.slice(i, i + 7)));
  expect(lines).toEqual([]);
  expect(stderr.allocationReport).toBe(true);
  stderr.end();
  expect(lines).toEqual(['expression sandbox 7: ended by V8: a task needed more than the 1024 MB heap the sandbox allows']);
});

test('a size past V8 maximum is named as such', () => {
  const { lines, stderr } = collect();
  stderr.write(Buffer.from('\n\n#\n# Fatal error in , line 0\n# Fatal JavaScript invalid size error 169220804\n#\n'));
  stderr.end();
  expect(lines).toEqual(["expression sandbox 7: ended by V8: a task asked for a value past V8's maximum size"]);
});

test('ordinary lines pass at once under the name; a fatal report about something else passes whole at the end', () => {
  const { lines, stderr } = collect();
  stderr.write(Buffer.from('(node:7) Warning: something\n'));
  expect(lines).toEqual(['expression sandbox 7: (node:7) Warning: something']);
  stderr.write(Buffer.from('#\n# Fatal error in ../src/node.cc, line 1\n# Check failed: x\n#'));
  expect(lines).toHaveLength(1);
  expect(stderr.allocationReport).toBe(false);
  stderr.end();
  expect(lines.slice(1)).toEqual([
    'expression sandbox 7: #',
    'expression sandbox 7: # Fatal error in ../src/node.cc, line 1',
    'expression sandbox 7: # Check failed: x',
    'expression sandbox 7: #',
  ]);
});

test('a line without end is cut at 2,000 characters, not held without bound', () => {
  const { lines, stderr } = collect();
  stderr.write(Buffer.from('x'.repeat(5000)));
  expect(lines).toEqual([`expression sandbox 7: ${'x'.repeat(2000)}`]);
});
