import { readFileSync } from 'node:fs';
import path from 'node:path';
import { SearchAttributeType } from '@temporalio/common';
import { RUN_SEARCH_ATTRIBUTES, runSearchAttributes, runStartMetadata, searchAttributeRegistrations } from '../../lib/runs/searchAttributes';

/**
 * lib/runs/searchAttributes.ts is the one source of the search attributes. The places that cannot import it
 * (a bash script, a compose file, the operators' doc) must register or document exactly the same names and types,
 * or runs fail to start on a server that lacks one.
 */
const root = path.join(__dirname, '..', '..');
const read = (file: string): string => readFileSync(path.join(root, file), 'utf8');

const EXPECTED = [
  'LoomOrganizationId=Keyword',
  'LoomWorkflowId=Keyword',
  'LoomWorkflowVersion=Int',
  'LoomRunKind=Keyword',
  'LoomTrigger=Keyword',
  'LoomWorkflowName=Keyword',
];

test('the registrations are the typed keys as Name=Type', () => {
  expect(searchAttributeRegistrations()).toEqual(EXPECTED);
  expect(RUN_SEARCH_ATTRIBUTES.workflowVersion.type).toBe(SearchAttributeType.INT);
});

test('runSearchAttributes sets every attribute once', () => {
  const pairs = runSearchAttributes({ organizationId: 'o', workflowId: 'w', workflowVersion: 3, runKind: 'run', trigger: 'manual', workflowName: 'n' });
  expect(pairs.map((p) => p.key)).toEqual(Object.values(RUN_SEARCH_ATTRIBUTES));
});

test('LoomWorkflowName is left out when the starter does not know the name, and cut to a keyword', () => {
  const base = { organizationId: 'o', workflowId: 'w', workflowVersion: 3, runKind: 'loop_batch', trigger: 'loop' };
  expect(runSearchAttributes(base).map((p) => p.key.name)).not.toContain('LoomWorkflowName');
  const long = runSearchAttributes({ ...base, workflowName: 'x'.repeat(300) }).find((p) => p.key.name === 'LoomWorkflowName');
  expect(long?.value).toHaveLength(255);
});

test('a run starts with a one-line summary, markdown details and a memo of names', () => {
  const meta = runStartMetadata({
    runId: 'r1',
    organizationId: 'o1',
    organizationName: 'Acme',
    workflowId: 'w1',
    workflowName: 'Invoice\nsync',
    workflowVersion: 3,
    trigger: 'manual',
    runKind: 'run',
    requestId: 'req-1',
  });
  expect(meta.staticSummary).toBe('Invoice sync v3 · manual');
  expect(meta.staticDetails).toContain('**Organization** Acme (`o1`)');
  expect(meta.staticDetails).toContain('**Request** `req-1`');
  expect(meta.memo).toEqual({
    organizationId: 'o1',
    organizationName: 'Acme',
    workflowId: 'w1',
    workflowName: 'Invoice\nsync',
    workflowVersion: 3,
    trigger: 'manual',
    requestId: 'req-1',
  });
  const unnamed = runStartMetadata({ runId: 'r1', organizationId: 'o1', workflowId: 'w1', workflowName: 'n', workflowVersion: 1, trigger: 'schedule', runKind: 'run' });
  expect(Object.keys(unnamed.memo)).not.toContain('requestId');
  expect(unnamed.staticDetails).not.toContain('Request');
});

test('scripts/services registers exactly those names with those types', () => {
  const block = /^TEMPORAL_SEARCH_ATTRIBUTES=\(\n([\s\S]*?)\n\)$/m.exec(read('scripts/services'));
  expect(block).not.toBeNull();
  const listed = block![1]!.split('\n').map((line) => line.trim()).filter(Boolean);
  expect(listed).toEqual(searchAttributeRegistrations());
});

test('docker-compose.yml registers exactly those names with those types', () => {
  const loop = /for sa in ([^;]+); do/.exec(read('docker-compose.yml'));
  expect(loop).not.toBeNull();
  expect(loop![1]!.trim().split(/\s+/)).toEqual(searchAttributeRegistrations());
});

test('docs/operating.md documents each with its type', () => {
  const doc = read('docs/operating.md');
  const rows = [...doc.matchAll(/^\| `(Loom[A-Za-z]+)` \| (\w+) \|/gm)].map((m) => `${m[1]}=${m[2]}`);
  expect(rows).toEqual(searchAttributeRegistrations());
});
