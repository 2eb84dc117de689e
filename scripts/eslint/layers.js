// ESLint rule `vigil/layers`: the import arrows of docs/ARCHITECTURE.md. Resolves every relative
// import (static, dynamic with a literal, re-export) against the importing file and refuses
// kernel -> lib|plugins, lib|schemas -> plugins, and plugins/A -> plugins/B. The rule has no
// exceptions: an eslint-disable comment naming it is itself reported.
import path from 'node:path';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..', '..');

function whereIs(abs) {
  const rel = path.relative(root, abs).split(path.sep);
  if (rel[0] === '..') return null;
  if (rel[0] === 'plugins' && rel.length > 1) return { layer: 'plugins', plugin: rel[1] };
  return { layer: rel[0] };
}

export const layersRule = {
  meta: {
    type: 'problem',
    docs: { description: 'keep the kernel <- lib <- plugins layering and plugins independent of each other' },
    messages: {
      kernel:
        'the kernel imports nothing from {{target}}/: a plugin registers what the kernel needs (services, CLI commands, adapters) through the registry',
      lib: 'lib/ holds code several plugins share and never imports a plugin ({{target}})',
      plugin: 'plugin "{{from}}" imports plugin "{{to}}": plugins talk through declared services, never through each other\'s files',
      noDisable: 'vigil/layers has no exceptions: remove this eslint-disable and move the code to the layer that may import it',
    },
    schema: [],
  },
  create(context) {
    const file = context.filename;
    const from = whereIs(file);
    if (!from) return {};
    const check = (node, spec) => {
      if (typeof spec !== 'string' || !spec.startsWith('.')) return;
      const to = whereIs(path.resolve(path.dirname(file), spec));
      if (!to) return;
      if (from.layer === 'kernel' && (to.layer === 'lib' || to.layer === 'plugins')) {
        context.report({ node, messageId: 'kernel', data: { target: to.layer } });
      } else if ((from.layer === 'lib' || from.layer === 'schemas') && to.layer === 'plugins') {
        context.report({ node, messageId: 'lib', data: { target: `plugins/${to.plugin}` } });
      } else if (from.layer === 'plugins' && to.layer === 'plugins' && from.plugin !== to.plugin) {
        context.report({ node, messageId: 'plugin', data: { from: from.plugin, to: to.plugin } });
      }
    };
    const literal = (n) => (n && n.type === 'Literal' ? n.value : undefined);
    return {
      Program: () => {
        for (const c of context.sourceCode.getAllComments())
          if (/eslint-disable/.test(c.value) && /vigil\/layers/.test(c.value)) context.report({ loc: c.loc, messageId: 'noDisable' });
      },
      ImportDeclaration: (n) => check(n, n.source.value),
      ExportNamedDeclaration: (n) => n.source && check(n, n.source.value),
      ExportAllDeclaration: (n) => check(n, n.source.value),
      ImportExpression: (n) => check(n, literal(n.source)),
    };
  },
};

export default { rules: { layers: layersRule } };
