import type { Problem } from '../../../../lib/dag/problems';
import type { TemplateReference, ToolInfo, ValidationEnv } from '../../../../lib/dag/validation/types';

/**
 * A small stand-in for the API's ValidationEnv, so these tests pin the validator's own rules: one tool `echo`
 * (outputs `out`, `list`; config field `n` must be a number; secret references only in `token`), CEL that is "invalid" when it ends with an operator,
 * and `${a.b}` / `${params.x}` / `${name}` templates with `${` alone as a syntax error.
 */
export const echo: ToolInfo = {
  outputs: { out: 'string', list: 'array' },
  configProblems: (config, prefix) =>
    config.n !== undefined && typeof config.n !== 'number' ? [{ path: `${prefix}.n`, problem: 'must be a number' }] : [],
  secretFields: ['token'],
};

function strings(value: unknown, path: string): { text: string; path: string }[] {
  if (typeof value === 'string') return [{ text: value, path }];
  if (value && typeof value === 'object') {
    return Object.entries(value as Record<string, unknown>).flatMap(([k, v]) => strings(v, path ? `${path}.${k}` : k));
  }
  return [];
}

function references(value: unknown, basePath: string): TemplateReference[] {
  return strings(value, basePath).flatMap(({ text, path }) =>
    [...text.matchAll(/\$\{\s*([A-Za-z_]\w*)(?:\.([A-Za-z_]\w*))?\s*\}/g)].map((m): TemplateReference => {
      const [, root, field] = m as unknown as [string, string, string | undefined];
      if (root === 'params') return { kind: 'param', name: field ?? null, path };
      return { kind: 'name', name: root, field: field ?? null, path };
    }),
  );
}

export const fakeEnv: ValidationEnv = {
  tool: (id) => (id === 'echo' ? echo : null),
  expressionProblems: (text) => (/[<>=+]\s*$/.test(text) ? ['invalid expression: unexpected end'] : []),
  templateProblems: (value, basePath): Problem[] =>
    strings(value, basePath).filter(({ text }) => /\$\{(?![^}]*\})/.test(text)).map(({ path }) => ({ path, problem: 'unclosed ${' })),
  templateReferences: references,
  hasTemplates: (value) => strings(value, '').some(({ text }) => text.includes('${')),
};
