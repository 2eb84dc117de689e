// Hand-written SVG charts: sparkline, horizontal bars and the readiness gauge. Each chart has a
// text alternative (role="img" + aria-label) carrying the numbers, so the picture is never the
// only way to read them. Geometry is set through SVG attributes, never style="", which the
// page's Content-Security-Policy forbids.

const SVG = 'http://www.w3.org/2000/svg';

function s(tag, attrs = {}, ...children) {
  const el = document.createElementNS(SVG, tag);
  for (const [k, v] of Object.entries(attrs)) if (v !== undefined && v !== null) el.setAttribute(k, String(v));
  for (const c of children) if (c) el.append(c);
  return el;
}

/**
 * A sparkline of the last values (oldest first). Gaps (NaN) break the line.
 * @param {number[]} values
 * @param {{label: string, format?: (n: number) => string, width?: number, height?: number, tone?: string}} o
 */
export function sparkline(values, o) {
  const width = o.width ?? 240;
  const height = o.height ?? 48;
  const fmt = o.format ?? ((n) => String(n));
  const finite = values.filter((v) => Number.isFinite(v));
  const max = Math.max(...finite, 0);
  const last = finite.length ? finite[finite.length - 1] : NaN;
  const summary = finite.length
    ? `${o.label}: now ${fmt(last)}, peak ${fmt(max)} over the last ${values.length} samples`
    : `${o.label}: no data yet`;
  const svg = s('svg', {
    class: `spark tone-${o.tone ?? 'accent'}`,
    viewBox: `0 0 ${width} ${height}`,
    width: '100%',
    height,
    preserveAspectRatio: 'none',
    role: 'img',
    'aria-label': summary,
  });
  svg.append(s('title', {}, document.createTextNode(summary)));
  svg.append(s('line', { class: 'spark-base', x1: 0, x2: width, y1: height - 1, y2: height - 1 }));
  if (finite.length === 0) return svg;
  const top = max > 0 ? max : 1;
  const step = values.length > 1 ? width / (values.length - 1) : width;
  const y = (v) => (height - 3 - (v / top) * (height - 8)).toFixed(1);
  let path = '';
  let area = '';
  let open = false;
  let startX = 0;
  values.forEach((v, i) => {
    const x = (values.length > 1 ? i * step : width).toFixed(1);
    if (!Number.isFinite(v)) {
      if (open) area += ` L${(i - 1) * step},${height} L${startX},${height} Z`;
      open = false;
      return;
    }
    if (!open) {
      path += ` M${x},${y(v)}`;
      area += ` M${x},${height} L${x},${y(v)}`;
      startX = Number(x);
      open = true;
    } else {
      path += ` L${x},${y(v)}`;
      area += ` L${x},${y(v)}`;
    }
  });
  if (open) area += ` L${values.length > 1 ? (values.length - 1) * step : width},${height} Z`;
  svg.append(s('path', { class: 'spark-area', d: area.trim() }));
  svg.append(s('path', { class: 'spark-line', d: path.trim(), fill: 'none', 'vector-effect': 'non-scaling-stroke' }));
  return svg;
}

/**
 * Horizontal bars as an accessible list: each row is label, bar and value in text.
 * @param {Array<{label: string, value: number, tone?: string, note?: string}>} items
 * @param {{label: string, format?: (n: number) => string, empty?: string}} o
 */
export function barList(items, o) {
  const fmt = o.format ?? ((n) => String(n));
  const ul = document.createElement('ul');
  ul.className = 'bars';
  ul.setAttribute('aria-label', o.label);
  if (items.length === 0) {
    const li = document.createElement('li');
    li.className = 'muted';
    li.textContent = o.empty ?? 'Nothing recorded yet.';
    ul.append(li);
    return ul;
  }
  const max = Math.max(...items.map((i) => i.value), 0) || 1;
  for (const it of items) {
    const li = document.createElement('li');
    const name = document.createElement('span');
    name.className = 'bar-label';
    name.textContent = it.label;
    name.title = it.note ?? it.label;
    const bar = s('svg', {
      class: `bar tone-${it.tone ?? 'accent'}`,
      viewBox: '0 0 100 10',
      preserveAspectRatio: 'none',
      'aria-hidden': 'true',
      focusable: 'false',
    });
    bar.append(s('rect', { class: 'bar-track', x: 0, y: 0, width: 100, height: 10, rx: 2 }));
    bar.append(s('rect', { class: 'bar-fill', x: 0, y: 0, width: Math.max(1, (it.value / max) * 100).toFixed(2), height: 10, rx: 2 }));
    const val = document.createElement('span');
    val.className = 'bar-value';
    val.textContent = fmt(it.value);
    li.append(name, bar, val);
    ul.append(li);
  }
  return ul;
}

/**
 * The readiness score as a ring (0..100).
 * @param {number} score
 * @param {string} posture
 */
export function gauge(score, posture) {
  const v = Math.max(0, Math.min(100, Number(score) || 0));
  const r = 42;
  const c = 2 * Math.PI * r;
  const tone = v >= 80 ? 'ok' : v >= 50 ? 'warn' : 'bad';
  const label = `Readiness score ${v} of 100, posture ${posture}`;
  const svg = s('svg', { class: `gauge tone-${tone}`, viewBox: '0 0 100 100', width: 120, height: 120, role: 'img', 'aria-label': label });
  svg.append(s('title', {}, document.createTextNode(label)));
  svg.append(s('circle', { class: 'gauge-track', cx: 50, cy: 50, r, fill: 'none', 'stroke-width': 10 }));
  svg.append(
    s('circle', {
      class: 'gauge-fill',
      cx: 50,
      cy: 50,
      r,
      fill: 'none',
      'stroke-width': 10,
      'stroke-linecap': 'round',
      'stroke-dasharray': `${((v / 100) * c).toFixed(2)} ${c.toFixed(2)}`,
      transform: 'rotate(-90 50 50)',
    }),
  );
  svg.append(
    s(
      'text',
      { class: 'gauge-value', x: 50, y: 50, 'text-anchor': 'middle', 'dominant-baseline': 'central' },
      document.createTextNode(String(v)),
    ),
  );
  return svg;
}
