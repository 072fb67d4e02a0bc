import { getTool } from '../../../activities/tools/registry';
import { validateToolInput } from '../../../lib/tools/validation';
import { CONFIG_EXAMPLES } from '../../../lib/tools/configExamples';

describe('config examples shown for a missing key', () => {
  test('every example names a registered tool and validates against its input schema', () => {
    for (const [id, example] of Object.entries(CONFIG_EXAMPLES)) {
      const tool = getTool(id);
      expect(tool).toBeDefined();
      expect({ id, check: validateToolInput(tool!, example) }).toEqual({ id, check: { ok: true } });
    }
  });

  test('a tool without an example gets one built from its schema types', () => {
    const tool = { ...getTool('delay')!, id: 'custom_tool' };
    const check = validateToolInput(tool, {});
    expect(check).toEqual({ ok: false, problems: [{ path: 'input.ms', problem: 'required: the custom_tool tool needs "ms"; for example {"ms":1}' }] });
  });
});
