// A function meant as constructor whose name does not match the contract (anyone can call it)
// -> a real constructor. From 0.4.22 the `constructor` keyword is used (with public where the
// compiler wants a visibility); when the pragma still admits older compilers the function is
// renamed to the exact contract name instead, which every 0.4 compiler treats as constructor.
import semver from 'semver';
import { stripCommentsAndStrings } from '../../../lib/analysis/compiler/index.ts';
import { asNodes } from '../../../lib/analysis/static/ast.ts';
import { effectiveVersion, span } from '../source.ts';
import { canUse, type FixContext, type FixResult } from './types.ts';

const STRATEGY = 'constructor_keyword';

function distance(a: string, b: string): number {
  const d = Array.from({ length: a.length + 1 }, (_, i) => [i, ...new Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++)
    for (let j = 1; j <= b.length; j++)
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
  return d[a.length][b.length];
}

export function fixConstructorName(ctx: FixContext): FixResult {
  const { fn, contract } = ctx;
  if (!fn || !contract || fn.type !== 'FunctionDefinition' || !fn.name)
    return { strategy: STRATEGY, reason: 'the finding does not point at a named function' };
  if (fn.isConstructor) return { strategy: STRATEGY, reason: 'the function is already the constructor', missing: true };
  const hasCtor = asNodes(contract.subNodes).some((s) => s.type === 'FunctionDefinition' && s.isConstructor);
  if (hasCtor) return { strategy: STRATEGY, reason: 'the contract already has a constructor' };
  const a = String(fn.name).toLowerCase();
  const b = String(contract.name).toLowerCase();
  if (a !== b && distance(a, b) > Math.max(2, Math.floor(b.length / 4))) {
    return {
      strategy: STRATEGY,
      reason: `${fn.name} does not look like a misspelt ${contract.name}; turning it into a constructor would change the contract's design`,
    };
  }
  if ((fn.returnParameters ?? []).length) return { strategy: STRATEGY, reason: 'the function returns values, which a constructor cannot' };
  const [s] = span(fn);
  const header = stripCommentsAndStrings(ctx.source.slice(s, span(fn.body ?? fn)[0]));
  const nameAt = header.indexOf(fn.name);
  if (nameAt < 0) return { strategy: STRATEGY, reason: 'could not find the function name' };
  if (canUse(ctx.versions, '0.4.22') || semver.gte(effectiveVersion(ctx.versions), '0.5.0')) {
    const edits = [{ start: s, end: s + nameAt + fn.name.length, text: 'constructor' }];
    const v = effectiveVersion(ctx.versions);
    const needsVisibility = semver.lt(v, '0.7.0');
    const vis = /\b(public|external|internal|private)\b/.exec(header);
    if (vis && vis[1] === 'external') edits.push({ start: s + vis.index, end: s + vis.index + vis[0].length, text: 'public' });
    else if (vis && vis[1] === 'private') return { strategy: STRATEGY, reason: 'a private constructor is not possible' };
    else if (!vis && needsVisibility) {
      const close = header.indexOf(')', nameAt);
      if (close >= 0) edits.push({ start: s + close + 1, end: s + close + 1, text: ' public' });
    }
    return {
      strategy: STRATEGY,
      description: `Turned ${fn.name}() into the contract's constructor (constructor keyword), so it runs once at deployment and cannot be called afterwards.`,
      edits,
    };
  }
  return {
    strategy: 'constructor_rename',
    description: `Renamed ${fn.name}() to ${contract.name}() so that it is the constructor (the pragma admits compilers older than 0.4.22, which do not know the constructor keyword).`,
    edits: [{ start: s + nameAt, end: s + nameAt + fn.name.length, text: contract.name }],
  };
}
