// Prometheus text exposition (version 0.0.4) parsing and the arithmetic the dashboard needs:
// counter deltas between two scrapes (rates) and histogram quantiles over those deltas, the
// same linear interpolation PromQL's histogram_quantile() does. Runs in the browser and in Node
// (test/ui/prom.test.ts), so it touches no DOM.

/**
 * @typedef {{ name: string, labels: Record<string, string>, value: number }} Sample
 * @typedef {{ samples: Sample[], types: Map<string, string>, help: Map<string, string> }} Exposition
 */

const NAME = /^[a-zA-Z_:][a-zA-Z0-9_:]*/;

// Special values are case-insensitive, as Prometheus (Go's ParseFloat) reads them; prom-client
// writes NaN as "Nan".
function parseValue(s) {
  switch (s.toLowerCase()) {
    case '+inf':
    case 'inf':
      return Infinity;
    case '-inf':
      return -Infinity;
    case 'nan':
      return NaN;
    default: {
      const n = Number(s);
      if (s === '' || Number.isNaN(n)) throw new Error(`not a number: "${s}"`);
      return n;
    }
  }
}

/** Parses `{a="x",b="y\"z"}` starting at text[i] === '{'; returns labels and the index after '}'. */
function parseLabels(text, i) {
  /** @type {Record<string, string>} */
  const labels = {};
  i++; // '{'
  while (i < text.length) {
    while (text[i] === ' ' || text[i] === ',') i++;
    if (text[i] === '}') return { labels, end: i + 1 };
    const m = /^[a-zA-Z_][a-zA-Z0-9_]*/.exec(text.slice(i));
    if (!m) throw new Error(`bad label name at column ${i + 1}`);
    const key = m[0];
    i += key.length;
    while (text[i] === ' ') i++;
    if (text[i] !== '=') throw new Error(`expected "=" after label ${key}`);
    i++;
    while (text[i] === ' ') i++;
    if (text[i] !== '"') throw new Error(`expected a quoted value for label ${key}`);
    i++;
    let value = '';
    for (;;) {
      const c = text[i];
      if (c === undefined) throw new Error(`unterminated value for label ${key}`);
      if (c === '\\') {
        const n = text[i + 1];
        value += n === 'n' ? '\n' : n === '\\' ? '\\' : n === '"' ? '"' : `\\${n ?? ''}`;
        i += 2;
        continue;
      }
      if (c === '"') {
        i++;
        break;
      }
      value += c;
      i++;
    }
    labels[key] = value;
  }
  throw new Error('unterminated label set');
}

/**
 * Parses the text format. Lines that cannot be parsed are reported in `errors` and skipped, so
 * one odd metric from a plugin does not blank the dashboard.
 * @param {string} text
 * @returns {Exposition & { errors: string[] }}
 */
export function parsePrometheus(text) {
  /** @type {Sample[]} */
  const samples = [];
  const types = new Map();
  const help = new Map();
  const errors = [];
  const lines = String(text).split('\n');
  for (let n = 0; n < lines.length; n++) {
    const line = lines[n].replace(/\r$/, '').trim();
    if (line === '') continue;
    if (line.startsWith('#')) {
      const m = /^#\s*(HELP|TYPE)\s+(\S+)\s*(.*)$/.exec(line);
      if (m && m[1] === 'TYPE') types.set(m[2], m[3].trim());
      else if (m) help.set(m[2], m[3]);
      continue;
    }
    try {
      const nm = NAME.exec(line);
      if (!nm) throw new Error('missing metric name');
      let i = nm[0].length;
      let labels = {};
      if (line[i] === '{') {
        const r = parseLabels(line, i);
        labels = r.labels;
        i = r.end;
      }
      const rest = line.slice(i).trim().split(/\s+/);
      samples.push({ name: nm[0], labels, value: parseValue(rest[0] ?? '') });
    } catch (e) {
      errors.push(`line ${n + 1}: ${e instanceof Error ? e.message : e}`);
    }
  }
  return { samples, types, help, errors };
}

/** Samples of one metric name, optionally filtered by a label predicate. */
export function select(exp, name, where = () => true) {
  return exp.samples.filter((s) => s.name === name && where(s.labels));
}

export function sum(exp, name, where) {
  return select(exp, name, where).reduce((a, s) => a + (Number.isFinite(s.value) ? s.value : 0), 0);
}

function keyOf(labels, by) {
  return by.map((k) => labels[k] ?? '').join('\u0000');
}

/**
 * Sums a metric grouped by some labels: [{labels: {by...}, value}], largest first.
 * @param {string[]} by
 */
export function sumBy(exp, name, by, where) {
  const groups = new Map();
  for (const s of select(exp, name, where)) {
    const k = keyOf(s.labels, by);
    const g = groups.get(k) ?? { labels: Object.fromEntries(by.map((b) => [b, s.labels[b] ?? ''])), value: 0 };
    g.value += Number.isFinite(s.value) ? s.value : 0;
    groups.set(k, g);
  }
  return [...groups.values()].sort((a, b) => b.value - a.value);
}

/**
 * Counter increase between two scrapes. A counter that went down was reset (process restart):
 * like PromQL, count the new value as the increase instead of reporting a negative rate.
 */
export function increase(prev, cur, name, where) {
  if (!prev) return 0;
  const before = new Map(select(prev, name, where).map((s) => [JSON.stringify(s.labels), s.value]));
  let total = 0;
  for (const s of select(cur, name, where)) {
    const p = before.get(JSON.stringify(s.labels)) ?? 0;
    total += s.value >= p ? s.value - p : s.value;
  }
  return total;
}

/** Like increase() but grouped by labels, largest first. */
export function increaseBy(prev, cur, name, by, where) {
  const before = new Map(prev ? select(prev, name, where).map((s) => [JSON.stringify(s.labels), s.value]) : []);
  const groups = new Map();
  for (const s of select(cur, name, where)) {
    const p = prev ? (before.get(JSON.stringify(s.labels)) ?? 0) : 0;
    const inc = s.value >= p ? s.value - p : s.value;
    const k = keyOf(s.labels, by);
    const g = groups.get(k) ?? { labels: Object.fromEntries(by.map((b) => [b, s.labels[b] ?? ''])), value: 0 };
    g.value += inc;
    groups.set(k, g);
  }
  return [...groups.values()].sort((a, b) => b.value - a.value);
}

/**
 * Cumulative bucket counts of a histogram (`<name>_bucket`), summed over the series that match,
 * as the increase since `prev` (or the totals when prev is null). Sorted by upper bound.
 * @returns {Array<{le: number, count: number}>}
 */
export function histogramBuckets(prev, cur, name, where = () => true) {
  const byLe = new Map();
  const base = new Map(prev ? select(prev, `${name}_bucket`, where).map((s) => [JSON.stringify(s.labels), s.value]) : []);
  for (const s of select(cur, `${name}_bucket`, where)) {
    const le = parseValue(s.labels.le ?? '');
    const p = base.get(JSON.stringify(s.labels)) ?? 0;
    const inc = s.value >= p ? s.value - p : s.value;
    byLe.set(le, (byLe.get(le) ?? 0) + inc);
  }
  return [...byLe.entries()].map(([le, count]) => ({ le, count })).sort((a, b) => a.le - b.le);
}

/**
 * PromQL histogram_quantile over cumulative buckets: find the bucket holding rank q·total and
 * interpolate linearly inside it. NaN when there were no observations.
 * @param {number} q 0..1
 * @param {Array<{le: number, count: number}>} buckets cumulative, sorted by le, ending with +Inf
 */
export function histogramQuantile(q, buckets) {
  if (buckets.length === 0) return NaN;
  const total = buckets[buckets.length - 1].count;
  if (!(total > 0)) return NaN;
  const rank = q * total;
  let prevLe = 0;
  let prevCount = 0;
  for (const b of buckets) {
    if (b.count >= rank) {
      // Rank falls in the +Inf bucket: the best answer is the highest finite bound.
      if (!Number.isFinite(b.le)) return prevLe;
      const inBucket = b.count - prevCount;
      if (inBucket <= 0) return b.le;
      return prevLe + (b.le - prevLe) * ((rank - prevCount) / inBucket);
    }
    prevLe = b.le;
    prevCount = b.count;
  }
  return prevLe;
}
