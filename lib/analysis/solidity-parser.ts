// Solidity parsing for every tool: @solidity-parser/parser's grammar and AST builder, driven with
// ANTLR's two-stage strategy. The package's bundled `parse` runs full-context (LL) prediction on
// every decision Solidity's grammar leaves ambiguous, and LL predictions are never cached, so it
// spent ~70 ms on an average 3.5 KB contract — most of quick mode's CPU. Stage one parses with SLL
// prediction and bails on the first syntax error; only then does stage two re-parse with full LL
// and the package's error listener, so every error message, tolerant-mode result and thrown
// ParserError is exactly what the package gives. ANTLR guarantees an SLL parse that succeeds is a
// valid parse; `test/static/parser-equivalence.test.ts` checks the trees are identical to the
// package's on every Solidity file in the repository and the datasets.
// The grammar and builder come from the package's published TypeScript sources (same version as
// its bundle) with the antlr4 runtime they were generated for. If they cannot be loaded (a future
// release without src/), parsing falls back to the bundled parser: slower, same result.
import { createRequire } from 'node:module';
import bundled from '@solidity-parser/parser';
import { sourceMemo } from './source-memo.ts';
import { compiledVendorPath } from '../../kernel/compiled.js';

const require = createRequire(import.meta.url);

export interface ParseOptions {
  loc?: boolean;
  range?: boolean;
  tolerant?: boolean;
  tokens?: boolean;
  comments?: boolean;
}

interface TwoStage {
  antlr: any;
  Lexer: any;
  Parser: any;
  ASTBuilder: any;
  ErrorListener: any;
}

const def = (m: any) => (m && m.default ? m.default : m);

/** The package's TypeScript source file: its compiled copy when vigil runs from its JavaScript
 *  mirror (kernel/compiled.js), else the .ts itself through tsx's CommonJS hook. */
const pkgSource = (rel: string) => compiledVendorPath('@solidity-parser/parser', rel) ?? `@solidity-parser/parser/${rel}`;

function loadTwoStage(): TwoStage | null {
  try {
    const antlr = require('antlr4');
    const Lexer = def(require(pkgSource('src/antlr/SolidityLexer.ts')));
    const Parser = def(require(pkgSource('src/antlr/SolidityParser.ts')));
    const { ASTBuilder } = require(pkgSource('src/ASTBuilder.ts'));
    const ErrorListener = def(require(pkgSource('src/ErrorListener.ts')));
    if (
      typeof Lexer !== 'function' ||
      typeof Parser !== 'function' ||
      typeof ASTBuilder !== 'function' ||
      typeof ErrorListener !== 'function'
    )
      return null;
    if (typeof antlr.PredictionMode?.SLL !== 'number' || typeof antlr.BailErrorStrategy !== 'function') return null;
    return { antlr, Lexer, Parser, ASTBuilder, ErrorListener };
  } catch {
    return null;
  }
}

const engine = loadTwoStage();

/** True when the fast two-stage path is in use (false: the package's bundled parser). */
export const twoStageParsing = engine !== null;

/** Throws on a lexer error in stage one, so the input goes to stage two and gets exact messages. */
class BailOnLexerError {
  syntaxError(): void {
    throw new Error('lexer error');
  }
  reportAmbiguity(): void {}
  reportAttemptingFullContext(): void {}
  reportContextSensitivity(): void {}
}

function buildAst(e: TwoStage, tree: unknown, options: ParseOptions): any {
  const builder = new e.ASTBuilder(options);
  builder.visit(tree);
  if (builder.result === null) throw new Error('ast should never be null');
  return builder.result;
}

/** Decisions of the `expression` rule: SLL cannot tell `revert CustomError(...)` (a statement since
 *  0.8.4) from an expression, so on every file with a custom-error revert (142 of OpenZeppelin's 367)
 *  stage one bailed and the whole file was parsed again with full LL. Those decisions alone use LL
 *  prediction (SLL first, full context only on a conflict), which is still exact. */
let expressionDecisions: Set<number> | null = null;
function llDecisions(e: TwoStage, parser: any): Set<number> {
  if (expressionDecisions) return expressionDecisions;
  const rule = (parser.ruleNames as string[]).indexOf('expression');
  const states = (parser._interp?.atn?.decisionToState ?? []) as Array<{ ruleIndex: number }>;
  expressionDecisions = new Set(states.map((st, i) => (st.ruleIndex === rule ? i : -1)).filter((i) => i >= 0));
  return expressionDecisions;
}

function sllParse(e: TwoStage, input: string, options: ParseOptions): any {
  try {
    const lexer = new e.Lexer(new e.antlr.CharStream(input));
    lexer.removeErrorListeners();
    lexer.addErrorListener(new BailOnLexerError());
    const parser = new e.Parser(new e.antlr.CommonTokenStream(lexer));
    parser.removeErrorListeners();
    const interp = parser._interp;
    interp.predictionMode = e.antlr.PredictionMode.SLL;
    const ll = llDecisions(e, parser);
    const predict = interp.adaptivePredict.bind(interp);
    interp.adaptivePredict = (stream: unknown, decision: number, outer: unknown) => {
      if (!ll.has(decision)) return predict(stream, decision, outer);
      interp.predictionMode = e.antlr.PredictionMode.LL;
      try {
        return predict(stream, decision, outer);
      } finally {
        interp.predictionMode = e.antlr.PredictionMode.SLL;
      }
    };
    parser._errHandler = new e.antlr.BailErrorStrategy();
    parser.buildParseTrees = true;
    return buildAst(e, parser.sourceUnit(), options);
  } catch {
    return null;
  }
}

// Several tools in one thread ask for the same tree (the outline and the static layer use the same
// options): successful parses are kept briefly. Trees are shared, so callers must not modify them.
const trees = sourceMemo<object>({ max: 4 });
const optionsKey = (o: ParseOptions) =>
  `${o.loc ? 'l' : ''}${o.range ? 'r' : ''}${o.tolerant ? 't' : ''}${o.tokens ? 'k' : ''}${o.comments ? 'c' : ''}`;

/** Drop-in for `@solidity-parser/parser`'s `parse` (same options, result and errors), memoised per
 *  thread: treat the tree as read-only. */
export function parseSolidityText(input: string, options: ParseOptions = {}): any {
  return trees.get(`${optionsKey(options)}\u0000${input}`, () => parseSolidityFresh(input, options));
}

/** Same parse without the memo: for callers that annotate the tree (solhint adds parent links). */
export function parseSolidityFresh(input: string, options: ParseOptions = {}): any {
  // Token and comment lists are rare (nobody in vigil asks for them): the bundle builds them.
  if (!engine || options.tokens || options.comments) return bundled.parse(input, options);
  const fast = sllParse(engine, input, options);
  if (fast) return fast;
  // Stage two: what the package's own parse does (full LL, its error listener).
  const lexer = new engine.Lexer(new engine.antlr.CharStream(input));
  const parser = new engine.Parser(new engine.antlr.CommonTokenStream(lexer));
  const listener = new engine.ErrorListener();
  lexer.removeErrorListeners();
  lexer.addErrorListener(listener);
  parser.removeErrorListeners();
  parser.addErrorListener(listener);
  parser.buildParseTrees = true;
  const ast = buildAst(engine, parser.sourceUnit(), options);
  if (listener.hasErrors()) {
    if (options.tolerant !== true) throw new bundled.ParserError({ errors: listener.getErrors() });
    ast.errors = listener.getErrors();
  }
  return ast;
}

export const ParserError = bundled.ParserError;
