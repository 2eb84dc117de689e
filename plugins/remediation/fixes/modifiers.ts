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
  // Before the body, `f() public{` becomes `f() public name {`.
  return { start: at, end: at, text: `${/\s/.test(before) ? '' : ' '}${name}${m ? ' ' : ''}` };
}

/** Adds a member to a contract body: after the last state variable (members read top-down as
 *  state, then modifiers, then functions), else just inside the opening brace. `block` writes it
 *  given the members' indentation and the file's indentation step. Null: no body was found. */
export function addMemberEdit(
  src: string,
  contract: AST.ContractDefinition,
  unit: string,
  block: (indent: string, unit: string) => string,
): Edit | null {
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
    const pos = nl >= 0 ? nl : end;
    return { start: pos, end: pos, text: `\n\n${block(indent, unit)}` };
  }
  return { start: s + brace + 1, end: s + brace + 1, text: `\n${block(indent, unit)}\n` };
}
