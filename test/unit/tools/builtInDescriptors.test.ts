import { readFileSync } from 'node:fs';
import path from 'node:path';
import { listTools } from '../../../activities/tools/registry';
import { BUILT_IN_TOOLS } from '../../../lib/tools/builtIn.generated';
import { builtInDescriptorsSource } from '../../../lib/tools/builtInSource';
import { describeTool } from '../../../lib/tools/descriptor';

test('lib/tools/builtIn.generated.ts is current (npm run generate:tools)', () => {
  const file = readFileSync(path.join(__dirname, '../../../lib/tools/builtIn.generated.ts'), 'utf8');
  expect(file).toBe(builtInDescriptorsSource(listTools()));
  expect(BUILT_IN_TOOLS).toEqual(listTools().map(describeTool));
});
