// @ts-check
import path from 'node:path';

/**
 * `loom/allowed-imports`: an allow-list for the value imports of an area of the code (the workflow bundle's
 * modules: eslint.config.mjs). A value import must name one of `packages` (or a subpath of one), or resolve to a
 * file under one of `paths` (folders or modules, relative to `root`, without extension). Type-only imports are
 * free: they are erased before bundling. Relative imports are resolved from the importing file, so a folder's
 * depth does not matter (`../../activities/x` from workflows/runs/ is refused like `../activities/x`), and so is a
 * module outside the list that would pull anything else in (a client, a database driver) behind it.
 */

const EXTENSION = /\.(ts|mts|cts|js|mjs|cjs)$/;

/** @param {any} node an import or export declaration */
function isTypeOnly(node) {
  if (node.importKind === 'type' || node.exportKind === 'type') return true;
  const specifiers = node.specifiers ?? [];
  // `import { type A, type B } from 'x'`: every binding is a type, so the compiler drops the whole statement.
  return specifiers.length > 0 && specifiers.every((/** @type {any} */ s) => s.importKind === 'type' || s.exportKind === 'type');
}

/** The repository-relative module a relative import names, without extension (null for a package). */
function internalTarget(source, filename, root) {
  if (!source.startsWith('.') && !path.isAbsolute(source)) return null;
  return path.relative(root, path.resolve(path.dirname(filename), source)).split(path.sep).join('/').replace(EXTENSION, '');
}

const within = (target, paths) => paths.some((p) => target === p || target.startsWith(`${p}/`));

/**
 * @param {string} source
 * @param {string} filename the importing file
 * @param {{ root: string, packages: string[], paths: string[] }} allow
 */
export function isAllowedImport(source, filename, allow) {
  const target = internalTarget(source, filename, allow.root);
  if (target !== null) return within(target, allow.paths);
  return allow.packages.some((p) => source === p || source.startsWith(`${p}/`));
}

/**
 * The module name of an import's source node: a string literal, or a template literal without substitutions; null
 * for anything computed.
 * @param {any} node
 * @returns {string | null}
 */
function literalSource(node) {
  if (node?.type === 'Literal' && typeof node.value === 'string') return node.value;
  if (node?.type === 'TemplateLiteral' && node.expressions.length === 0) return node.quasis[0]?.value.cooked ?? null;
  return null;
}

/**
 * `loom/layer-imports`: the dependency rule between the project's layers (eslint.config.mjs, docs/conventions.md).
 * Packages are free here (other rules restrict the dangerous ones); an import of the project's own code must
 * resolve under one of `paths`, types included. Unlike the workflow rule, types count: a domain module that needs a
 * type from api/ has its arrow the wrong way round (a type several layers share lives in lib/).
 */
/** @type {import('eslint').Rule.RuleModule} */
export const layerImports = {
  meta: {
    type: 'problem',
    docs: { description: 'imports of the project\'s own code must follow the layer allow-list' },
    schema: [
      {
        type: 'object',
        properties: {
          area: { type: 'string' },
          root: { type: 'string' },
          paths: { type: 'array', items: { type: 'string' } },
        },
        required: ['area', 'root', 'paths'],
        additionalProperties: false,
      },
    ],
    messages: {
      refused: "{{area}} may not import '{{source}}': the layer allow-list (LAYERS in eslint.config.mjs) says {{allowed}}",
      computed:
        '{{area}} may not import a computed module name: the layer rule cannot check it (a loader of plugin folders says why in an eslint-disable comment)',
    },
  },
  create(context) {
    const { area, root, paths } = context.options[0];
    const data = { area, allowed: paths.join(', ') };
    /** @param {any} sourceNode */
    const check = (sourceNode) => {
      const source = literalSource(sourceNode);
      if (source === null) {
        if (sourceNode) context.report({ node: sourceNode, messageId: 'computed', data: { area } });
        return;
      }
      const target = internalTarget(source, context.filename, root);
      if (target === null || within(target, paths)) return;
      context.report({ node: sourceNode, messageId: 'refused', data: { ...data, source } });
    };
    return {
      ImportDeclaration: (node) => check(node.source),
      ExportNamedDeclaration: (node) => node.source && check(node.source),
      ExportAllDeclaration: (node) => check(node.source),
      ImportExpression: (node) => check(node.source),
      /** @param {any} node */
      'CallExpression[callee.type="Identifier"][callee.name="require"]': (node) => check(node.arguments[0]),
      /** @param {any} node `typeof import('x')` in a type position */
      TSImportType: (node) => check(node.argument?.literal ?? node.argument),
    };
  },
};

/** @type {import('eslint').Rule.RuleModule} */
export const allowedImports = {
  meta: {
    type: 'problem',
    docs: { description: 'value imports of an area must come from its allow-list' },
    schema: [
      {
        type: 'object',
        properties: {
          area: { type: 'string' },
          root: { type: 'string' },
          packages: { type: 'array', items: { type: 'string' } },
          paths: { type: 'array', items: { type: 'string' } },
        },
        required: ['area', 'root'],
        additionalProperties: false,
      },
    ],
    messages: {
      refused: "{{area}} may import values only from {{allowed}}; not '{{source}}' (types: `import type`)",
      computed: '{{area}} may not import a computed module name',
    },
  },
  create(context) {
    const options = context.options[0];
    const allow = { root: options.root, packages: options.packages ?? [], paths: options.paths ?? [] };
    const allowed = [...allow.packages, ...allow.paths.map((p) => `${p}/`)].join(', ');
    /** @param {any} sourceNode */
    const check = (sourceNode) => {
      if (sourceNode?.type !== 'Literal' || typeof sourceNode.value !== 'string') {
        if (sourceNode) context.report({ node: sourceNode, messageId: 'computed', data: { area: options.area } });
        return;
      }
      if (isAllowedImport(sourceNode.value, context.filename, allow)) return;
      context.report({ node: sourceNode, messageId: 'refused', data: { area: options.area, allowed, source: sourceNode.value } });
    };
    return {
      ImportDeclaration(node) {
        if (!isTypeOnly(node)) check(node.source);
      },
      ExportNamedDeclaration(node) {
        if (node.source && !isTypeOnly(node)) check(node.source);
      },
      ExportAllDeclaration(node) {
        if (!isTypeOnly(node)) check(node.source);
      },
      ImportExpression(node) {
        check(node.source);
      },
      /** @param {any} node */
      'CallExpression[callee.type="Identifier"][callee.name="require"]'(node) {
        check(node.arguments[0]);
      },
      /** @param {any} node `import x = require('y')` */
      TSImportEqualsDeclaration(node) {
        if (node.importKind !== 'type' && node.moduleReference.type === 'TSExternalModuleReference') check(node.moduleReference.expression);
      },
    };
  },
};

export default { rules: { 'allowed-imports': allowedImports, 'layer-imports': layerImports } };
