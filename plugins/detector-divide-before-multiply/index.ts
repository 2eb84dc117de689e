// divide-before-multiply: integer division rounds down, so `a / b * c` loses up to c - 1 units
// compared with `a * c / b`; in fee, share and interest math the lost amount is multiplied into
// the result and can round a payout to zero (or let many small operations each round in the
// caller's favour).
// Reports a product with a division as a direct operand, or with a local that holds a division
// and is not changed in between. Avoids false positives: deliberate rounding to a unit (`x / u *
// u`, same divisor and multiplier), divisions by a literal 1, products of constants, and literal
// multipliers (`x / 100 * 2` loses at most 2 wei).
import {
  detectorPlugin,
  isConstantExpr,
  norm,
  statementLoc,
  unwrap,
  walk,
  type Node,
  type StaticDetector,
  startOf,
  endOf,
  firstDeclaredName,
  type AST,
} from '../../lib/analysis/static/index.ts';

export const divideBeforeMultiplyDetector: StaticDetector = {
  meta: {
    id: 'divide-before-multiply',
    title: 'Division before multiplication',
    severity: 'MEDIUM',
    confidence: 0.6,
    category: 'arithmetic',
    swc: 'SWC-101',
    cwe: 'CWE-682',
    description: 'The result of an integer division is multiplied; the remainder the division dropped is lost and the error is multiplied.',
    recommendation: 'Multiply first, then divide (a * c / b), using a full-precision mulDiv where the product can overflow.',
    exploit_scenario:
      'reward = stake / totalStake * pool rounds to 0 for every staker below totalStake: the pool is never paid out, or an attacker who splits deposits collects the dust.',
    messages: { order: '`{{expr}}` divides before it multiplies.' },
  },
  create(context) {
    const { facts, source } = context;
    return {
      BinaryOperation(n) {
        if (n.operator !== '*' && n.operator !== '*=') return;
        const { fn, contract } = facts.enclosing(n);
        const constants = new Set([...(contract?.stateVars.values() ?? [])].filter((v) => v.constant).map((v) => v.name));
        if (isConstantExpr(n.left, constants) && isConstantExpr(n.right, constants)) return;
        // A division operand, directly or through a local assigned once from a division.
        const division = (x: Node): AST.BinaryOperation | null => {
          const u = unwrap(x);
          if (u?.type === 'BinaryOperation' && u.operator === '/') return u;
          if (u?.type === 'Identifier' && fn?.locals.has(u.name) && fn.node.body) {
            // Assigned in the walk's callback: the cast keeps TypeScript from narrowing it to null.
            let init = null as Node | null;
            let writes = 0;
            walk(fn.node.body, (m) => {
              if (
                m.type === 'VariableDeclarationStatement' &&
                (m.variables ?? []).length === 1 &&
                firstDeclaredName(m) === u.name &&
                m.initialValue
              ) {
                init = m.initialValue;
                writes++;
              }
              if (
                m.type === 'BinaryOperation' &&
                /=$/.test(m.operator) &&
                !/^(==|!=|<=|>=)$/.test(m.operator) &&
                m.left?.type === 'Identifier' &&
                m.left.name === u.name
              )
                writes++;
            });
            const i = init ? unwrap(init) : null;
            if (writes === 1 && i?.type === 'BinaryOperation' && i.operator === '/') {
              // `a - b * q` with q = a / b computes the remainder: q is an integer quotient by
              // design (Euclid's algorithm, digit extraction), not a ratio that lost precision.
              const a = norm(source, i.left);
              const b = norm(source, i.right);
              let quotient = false;
              walk(fn.node.body, (m) => {
                if (m.type !== 'BinaryOperation' || m.operator !== '-' || norm(source, m.left) !== a) return;
                const r = unwrap(m.right);
                if (
                  r?.type === 'BinaryOperation' &&
                  r.operator === '*' &&
                  [norm(source, r.left), norm(source, r.right)].sort().join() === [b, u.name].sort().join()
                )
                  quotient = true;
              });
              if (!quotient) return i;
            }
          }
          return null;
        };
        const sides =
          n.operator === '*='
            ? [[n.left, n.right]]
            : [
                [n.left, n.right],
                [n.right, n.left],
              ];
        for (const [a, other] of sides) {
          const d = division(a);
          if (!d) continue;
          const divisor = unwrap(d.right);
          if (divisor?.type === 'NumberLiteral' && Number(divisor.number) === 1) continue;
          // A literal multiplier loses at most that many of the smallest unit: negligible.
          if (unwrap(other)?.type === 'NumberLiteral') continue;
          // `x / unit * unit`: rounding down to a whole unit on purpose.
          if (norm(source, d.right) === norm(source, other)) continue;
          context.report({
            node: n,
            loc: statementLoc(n, facts),
            messageId: 'order',
            data: {
              expr: source
                .slice(startOf(n), endOf(n) + 1)
                .replace(/\s+/g, ' ')
                .slice(0, 80),
            },
          });
          return;
        }
      },
    };
  },
};

export const detectors = [divideBeforeMultiplyDetector];
export default detectorPlugin(detectors);
