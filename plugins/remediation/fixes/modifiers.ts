// Shared edits for fixes that add a modifier: where a function header takes one (before
// `returns`, never after it) and where a new member goes in a contract body.
import { stripCommentsAndStrings } from '../../../lib/analysis/compiler/index.ts';
import { asNodes, type AST } from '../../../lib/analysis/static/ast.ts';
import type { Callable } from '../solidity.ts';
import { indentAt, span, type Edit } from '../source.ts';

/** Inserts ` name` into a function header, before its returns clause or its body. */
export function addModifierEdit(src: string, fn: Callable, name: string): Edit | null {
  const start = span(fn)[0];
  const headerEnd = fn.body ? span(fn.body)[0] : span(fn)[1] - 1;
  const header = stripCommentsAndStrings(src.slice(start, headerEnd));
  // The parameter list ends at the first ')' that closes depth 0 after the name.
  let depth = 0;
  let afterParams = -1;
  for (let i = 0; i < header.length; i++) {
    if (header[i] === '(') depth++;
    else if (header[i] === ')') {
      depth--;
      if (depth === 0) {
        afterParams = i + 1;
        break;
      }
    }
  }
  if (afterParams < 0) return null;
  const rest = header.slice(afterParams);
  const m = /\breturns\b/.exec(rest);
  const at = start + afterParams + (m ? m.index : rest.replace(/\s+$/, '').length);
  // Keep one space on each side whatever the original spacing was.
  const before = src[at - 1] ?? ' ';
  const textIns = `${/\s/.test(before) ? '' : ' '}${name}${m ? ' ' : ''}`;
  if (!m) {
    // Before the body: `f() public{` -> `f() public name {`
    return { start: at, end: at, text: textIns };
  }
  return { start: at, end: at, text: textIns };
}

/** Where a new member goes: after the last state variable (members read top-down as state, then
 *  modifiers, then functions), else just inside the opening brace; with the members' indentation. */
export function contractBodyStart(
  src: string,
  contract: AST.ContractDefinition,
  unit: string,
): { pos: number; indent: string; wrap: (block: string) => string } | null {
  const [s, e] = span(contract);
  const clean = stripCommentsAndStrings(src.slice(s, e));
  const brace = clean.indexOf('{');
  if (brace < 0) return null;
  const members = asNodes(contract.subNodes);
  const first = members[0];
  const indent = first ? indentAt(src, span(first)[0]) : indentAt(src, s) + unit;
  const vars = members.filter((m) => m.type === 'StateVariableDeclaration');
  if (vars.length) {
    const end = span(vars[vars.length - 1])[1];
    const nl = src.indexOf('\n', end);
    // Past the declaration's own line (and its trailing comment), so the new text starts a line.
    return { pos: nl >= 0 ? nl : end, indent, wrap: (b) => `\n\n${b}` };
  }
  return { pos: s + brace + 1, indent, wrap: (b) => `\n${b}\n` };
}
