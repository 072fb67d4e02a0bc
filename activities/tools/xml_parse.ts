import { XMLParser, XMLValidator } from 'fast-xml-parser';
import { defineTool, NonRetryableToolError } from './types';

interface XmlInput {
  text: string;
  ignore_attributes?: boolean;
  attribute_prefix?: string;
  parse_values?: boolean;
  always_array?: string[];
}

/**
 * XML to JSON with fast-xml-parser. Entity expansion is off (no billion-laughs, no external entities): entities
 * stay as written, except the five predefined ones are not decoded either. DOCTYPE declarations are refused.
 */
export default defineTool<XmlInput, { result: unknown }>({
  id: 'xml_parse',
  name: 'XML processor',
  category: 'data',
  description:
    'Parses XML into JSON (attributes prefixed with `@_` unless `ignore_attributes`). Entity expansion is ' +
    'disabled and DOCTYPE declarations are refused. `always_array` lists tag names always given as arrays.',
  inputSchema: {
    type: 'object',
    required: ['text'],
    additionalProperties: false,
    properties: {
      text: { type: 'string', maxLength: 10 * 1024 * 1024 },
      ignore_attributes: { type: 'boolean' },
      attribute_prefix: { type: 'string', maxLength: 10 },
      parse_values: { type: 'boolean' },
      always_array: { type: 'array', items: { type: 'string' }, maxItems: 100 },
    },
  },
  outputSchema: { type: 'object', required: ['result'], properties: { result: {} } },
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
