import { z } from 'zod';
import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { defineTool, NonRetryableToolError } from './types';

/**
 * XML to JSON with fast-xml-parser. Entity expansion is off (no billion-laughs, no external entities): entities
 * stay as written, except the five predefined ones are not decoded either. DOCTYPE declarations are refused.
 */
export default defineTool({
  id: 'xml_parse',
  name: 'XML processor',
  category: 'data',
  description:
    'Parses XML into JSON (attributes prefixed with `@_` unless `ignore_attributes`). Entity expansion is ' +
    'disabled and DOCTYPE declarations are refused. `always_array` lists tag names always given as arrays.',
  input: z.strictObject({
    text: z.string().max(10 * 1024 * 1024),
    ignore_attributes: z.boolean().optional(),
    attribute_prefix: z.string().max(10).optional(),
    parse_values: z.boolean().optional(),
    always_array: z.array(z.string()).max(100).optional(),
  }),
  output: z.object({ result: z.unknown() }),
  sideEffect: 'none',
  runsLocally: true,
  async execute(input) {
    if (/<!DOCTYPE/i.test(input.text)) {
      throw new NonRetryableToolError('INVALID_XML', 'DOCTYPE declarations are not accepted');
    }
    const valid = XMLValidator.validate(input.text);
    if (valid !== true) {
      throw new NonRetryableToolError('INVALID_XML', `${valid.err.msg} (line ${valid.err.line})`);
    }
    const arrays = new Set(input.always_array ?? []);
    const parser = new XMLParser({
      ignoreAttributes: input.ignore_attributes ?? false,
      attributeNamePrefix: input.attribute_prefix ?? '@_',
      parseTagValue: input.parse_values ?? true,
      parseAttributeValue: input.parse_values ?? false,
      processEntities: false,
      htmlEntities: false,
      isArray: (name) => arrays.has(name),
    });
    return { result: parser.parse(input.text) as unknown };
  },
});
