// ESLint rule `vigil/typecheck`: the TypeScript compiler's own errors (what `tsc --noEmit` prints)
// for each linted file, taken from the program typescript-eslint already built for the
// type-aware rules. `npm test` used to run tsc beside ESLint, and the two built, bound and
// type-checked the same ~2000-file program twice (~40 CPU-s of the suite's checks); asking that
// program for its diagnostics costs only the part of the checking the lint rules had not already
// done. Same tsconfig.json, same compiler, same messages (`npm run typecheck` still runs tsc).
// The program-wide diagnostics (compiler options, global types) are reported once, on the first
// file of each program. An eslint-disable comment cannot hide a type error: one that names this
// rule or disables every rule is itself reported (TypeScript's own `// @ts-expect-error` is the
// way to accept one, as with tsc).
import ts from 'typescript';

const reported = new WeakSet();

// typescript-eslint builds its programs with noUnusedLocals and noUnusedParameters on (for its
// no-unused-vars); tsc reports those only when the project's tsconfig asks for them.
const unusedAsked = new WeakMap();
function reportsUnused(program) {
  if (!unusedAsked.has(program)) {
    const file = program.getCompilerOptions().configFilePath;
    const own =
      typeof file === 'string'
        ? ts.getParsedCommandLineOfConfigFile(file, {}, { ...ts.sys, onUnRecoverableConfigFileDiagnostic: () => {} })
        : null;
    unusedAsked.set(program, Boolean(own?.options.noUnusedLocals || own?.options.noUnusedParameters));
  }
  return unusedAsked.get(program);
}

function text(d) {
  return `TS${d.code}: ${ts.flattenDiagnosticMessageText(d.messageText, '\n')}`;
}

export const typecheckRule = {
  meta: {
    type: 'problem',
    docs: { description: 'report the TypeScript compiler errors of the file (tsc --noEmit)' },
    schema: [],
  },
  create(context) {
    for (const c of context.sourceCode.getAllComments())
      if (/^\s*eslint-disable(-next-line|-line)?(\s*$|\s+--|\s+[^-]*vigil\/typecheck)/.test(c.value))
        context.report({ loc: c.loc, message: 'type errors have no eslint exceptions: use // @ts-expect-error with the reason' });
    const services = context.sourceCode.parserServices;
    const program = services?.program;
    if (!program) return {};
    return {
      Program(node) {
        const sf = program.getSourceFile(context.filename);
        if (!sf) return;
        const diags = [...program.getSyntacticDiagnostics(sf), ...program.getSemanticDiagnostics(sf)];
        if (!reported.has(program)) {
          reported.add(program);
          diags.push(...program.getOptionsDiagnostics(), ...program.getGlobalDiagnostics());
        }
        for (const d of diags) {
          if (d.category !== ts.DiagnosticCategory.Error) continue;
          if (d.reportsUnnecessary && !reportsUnused(program)) continue;
          if (d.file && d.file !== sf) {
            // a program-wide diagnostic located in another file (e.g. a broken lib): say where
            const { line, character } = d.file.getLineAndCharacterOfPosition(d.start ?? 0);
            context.report({ node, message: `${d.file.fileName}:${line + 1}:${character + 1} ${text(d)}` });
            continue;
          }
          if (d.start === undefined) {
            context.report({ node, message: text(d) });
            continue;
          }
          const s = sf.getLineAndCharacterOfPosition(d.start);
          const e = sf.getLineAndCharacterOfPosition(d.start + (d.length ?? 0));
          context.report({
            loc: { start: { line: s.line + 1, column: s.character }, end: { line: e.line + 1, column: e.character } },
            message: text(d),
          });
        }
      },
    };
  },
};
