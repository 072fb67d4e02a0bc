import { spawnSync } from 'node:child_process';
import path from 'node:path';

/**
 * A process that used the sandbox and has nothing left to do exits by itself: idle sandbox processes, their IPC
 * channel and their stderr pipe hold no reference (the worker's clean shutdown, and V8 writing its CPU profile at
 * exit, depend on it). Without closeSandbox, within the 45 s given here, before the 60 s idle exit of the children.
 */
test('a process exits once its sandbox work is done, without closing the sandbox', () => {
  const root = path.join(__dirname, '../../..');
  const script = `
    const { evaluateCel } = require('./lib/expressions/sandbox');
    evaluateCel('1 + 2', {}).then((value) => console.log('value', value));
  `;
  const run = spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], { cwd: root, encoding: 'utf8', timeout: 45_000 });
  expect({ status: run.status, signal: run.signal, stdout: run.stdout.trim() }).toEqual({ status: 0, signal: null, stdout: 'value 3' });
}, 60_000);
