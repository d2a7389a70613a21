import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import type { ChartSpec } from './chart-spec.js';
import { renderSvg } from './render-svg.js';

interface XmlElement {
  readonly name: string;
  readonly attributes: Record<string, string>;
  readonly children: XmlElement[];
  text: string;
}

const ENTITIES: Record<string, string> = { amp: '&', lt: '<', gt: '>', quot: '"', apos: "'" };

function decode(text: string, where: number): string {
  return text.replace(/&([^;]*);/g, (_, name: string) => {
    if (name in ENTITIES) return ENTITIES[name]!;
    if (/^#\d+$/.test(name)) return String.fromCodePoint(Number(name.slice(1)));
    throw new Error(`unknown entity &${name}; near ${where}`);
  });
}

/**
 * A strict little XML reader for the test: one root element; tags balanced; attributes quoted, unique and
 * free of '<'; '&' only in entities; no text outside the root. Throws on anything else.
 */
function parseXml(xml: string): XmlElement {
  const stack: XmlElement[] = [];
  let root: XmlElement | undefined;
  let i = 0;
  const tag = /<(\/?)([A-Za-z][\w:-]*)((?:\s+[A-Za-z][\w:-]*="[^"<]*")*)\s*(\/?)>/y;
  while (i < xml.length) {
    if (xml[i] === '<') {
      tag.lastIndex = i;
      const m = tag.exec(xml);
      if (m === null) throw new Error(`malformed tag at ${i}: ${xml.slice(i, i + 40)}`);
      const [whole, closing, name, attributeText, selfClosing] = m;
      i += whole.length;
      if (closing === '/') {
        const open = stack.pop();
        if (open?.name !== name) throw new Error(`</${name}> closes <${open?.name}> at ${i}`);
        continue;
      }
      const attributes: Record<string, string> = {};
      for (const a of attributeText!.matchAll(/([A-Za-z][\w:-]*)="([^"]*)"/g)) {
        if (a[1]! in attributes) throw new Error(`attribute ${a[1]} repeated at ${i}`);
        if (/&(?![a-z]+;|#\d+;)/.test(a[2]!)) throw new Error(`bare & in an attribute at ${i}`);
        attributes[a[1]!] = decode(a[2]!, i);
      }
      const element: XmlElement = { name: name!, attributes, children: [], text: '' };
      if (stack.length > 0) stack[stack.length - 1]!.children.push(element);
      else if (root === undefined) root = element;
      else throw new Error(`a second root element <${name}> at ${i}`);
      if (selfClosing !== '/') stack.push(element);
    } else {
      const end = xml.indexOf('<', i);
      const raw = xml.slice(i, end === -1 ? xml.length : end);
      if (/&(?![a-z]+;|#\d+;)/.test(raw)) throw new Error(`bare & in text at ${i}`);
      if (stack.length === 0) {
        if (raw.trim() !== '') throw new Error(`text outside the root at ${i}`);
      } else stack[stack.length - 1]!.text += decode(raw, i);
      i += raw.length;
    }
  }
  if (stack.length > 0) throw new Error(`<${stack[stack.length - 1]!.name}> is never closed`);
  if (root === undefined) throw new Error('no root element');
  return root;
}

function all(element: XmlElement, name: string): XmlElement[] {
  const found: XmlElement[] = [];
  const visit = (e: XmlElement): void => {
    if (e.name === name) found.push(e);
    for (const c of e.children) visit(c);
  };
  visit(element);
  return found;
}

/** The points of a path made of M and L commands only. */
function pathPoints(d: string): [number, number][] {
  const points: [number, number][] = [];
  for (const m of d.matchAll(/[ML](-?[\d.]+),(-?[\d.]+)/g)) points.push([Number(m[1]), Number(m[2])]);
  return points;
}

const base: ChartSpec = {
  title: 'T',
  subtitle: [],
  width: 560,
  height: 300,
  x: { title: 'environment samples', zero: true },
  y: { title: 'P', domain: [0, 1] },
  legend: 'method',
  symbol: 'stroke',
  series: [],
};

describe('renderSvg', () => {
  it('draws a line at the pixels of its values: x on [0, 240] over 560 px, y on [0, 1] over 300 px', () => {
    const svg = renderSvg({
      ...base,
      series: [{ name: 'ftw', x: [4, 120, 240], line: [0.25, 0.5, 1] }],
    });
    const root = parseXml(svg);
    const line = all(root, 'path').find((p) => p.attributes['stroke'] === '#4c78a8')!;
    // Written independently: x px = x / 240 · 560, y px = 300 · (1 − y).
    expect(pathPoints(line.attributes['d']!)).toEqual([
      [9.33, 225],
      [280, 150],
      [560, 0],
    ]);
    expect(line.attributes['stroke-width']).toBe('1.5');
    expect(svg.endsWith('</svg>\n')).toBe(true);
  });

  it('draws the band from the upper ends forwards and the lower ends backwards, under the lines', () => {
    const svg = renderSvg({
      ...base,
      bandOpacity: 0.08,
      series: [
        {
          name: 'a',
          x: [0, 120, 240],
          line: [0.5, 0.5, 0.5],
          band: { lower: [0.4, 0.3, 0.2], upper: [0.6, 0.7, 0.8] },
        },
        { name: 'b', x: [0, 240], line: [0.1, 0.9] },
      ],
    });
    const paths = all(parseXml(svg), 'path');
    const bandIndex = paths.findIndex((p) => p.attributes['fill'] === '#4c78a8');
    const band = paths[bandIndex]!;
    expect(band.attributes['fill-opacity']).toBe('0.08');
    expect(band.attributes['d']!.endsWith('Z')).toBe(true);
    expect(pathPoints(band.attributes['d']!)).toEqual([
      [0, 120],
      [280, 90],
      [560, 60],
      [560, 240],
      [280, 210],
      [0, 180],
    ]);
    const lineIndexes = paths.flatMap((p, i) => (p.attributes['stroke-width'] === '1.5' ? [i] : []));
    expect(lineIndexes).toHaveLength(2);
    expect(Math.min(...lineIndexes)).toBeGreaterThan(bandIndex);
    expect(pathPoints(paths[lineIndexes[1]!]!.attributes['d']!)).toEqual([
      [0, 270],
      [560, 30],
    ]);
  });

  it('nices the axes, labels every tick and draws a grid line at each', () => {
    const root = parseXml(
      renderSvg({
        ...base,
        y: { title: 'return' },
        series: [{ name: 'r', x: [1, 240], line: [0.43, 1.27] }],
      }),
    );
    const labels = all(root, 'text').map((t) => t.text);
    for (const label of ['0', '20', '120', '240', '0.4', '0.7', '1.0', '1.3'])
      expect(labels).toContain(label);
    const grid = all(root, 'path').find((p) => p.attributes['stroke'] === '#ddd')!;
    // 13 x ticks (0…240 by 20) and 10 y ticks (0.4…1.3 by 0.1).
    expect(grid.attributes['d']!.match(/M/g)).toHaveLength(23);
    const line = all(root, 'path').find((p) => p.attributes['stroke'] === '#4c78a8')!;
    // 0.43 on [0.4, 1.3]: 300 · (1 − 0.03 / 0.9) = 290; 1.27: 300 · (1 − 0.87 / 0.9) = 10.
    expect(pathPoints(line.attributes['d']!)).toEqual([
      [2.33, 290],
      [560, 10],
    ]);
  });

  it('drops every other x label while labels overlap, keeping every tick and grid line', () => {
    // 0 to 8,000 in steps of 500: 17 labels of up to 5 characters do not fit in 560 px ("7,500" would
    // run into the flush "8,000").
    const root = parseXml(renderSvg({ ...base, series: [{ name: 's', x: [0, 8000], line: [0.1, 0.9] }] }));
    const labels = all(root, 'text')
      .map((t) => t.text)
      .filter((t) => /^[\d,]+$/.test(t));
    expect(labels).toEqual(expect.arrayContaining(['0', '1,000', '2,000', '4,000', '8,000']));
    expect(labels).not.toContain('7,500');
    expect(labels).not.toContain('500');
    const axis = all(root, 'path').find((p) => p.attributes['stroke'] === '#888')!;
    // The axis keeps a tick mark at each of the 17 x ticks and the 11 y ticks (0.0 to 1.0).
    expect(axis.attributes['d']!.match(/v5/g)).toHaveLength(17);
    expect(axis.attributes['d']!.match(/h-5/g)).toHaveLength(11);
  });

  it('maps a log axis by the logarithm of the value', () => {
    const root = parseXml(
      renderSvg({
        ...base,
        y: { title: 'KL', type: 'log' },
        series: [{ name: 'kl', x: [0, 120, 240], line: [1e-3, 1e-5, 2e-7] }],
      }),
    );
    const line = all(root, 'path').find((p) => p.attributes['stroke'] === '#4c78a8')!;
    // Domain [1e-7, 1e-3]: 4 decades over 300 px; 2e-7 sits log10(2) decades above the bottom.
    expect(pathPoints(line.attributes['d']!)).toEqual([
      [0, 0],
      [280, 150],
      [560, Math.round((300 - (300 * Math.log10(2)) / 4) * 100) / 100],
    ]);
    const labels = all(root, 'text').map((t) => t.text);
    expect(labels).toContain('2e-7');
    expect(labels).toContain('0.0002');
  });

  it('draws dots where given and none where null (Figure 1)', () => {
    const root = parseXml(
      renderSvg({
        ...base,
        x: { title: 'rank', domain: [1, 5] },
        y: { title: 'P', zero: true },
        symbol: 'dot',
        series: [
          {
            name: 'C=4, K=1',
            x: [1, 2, 3, 4, 5],
            line: [0.4, 0.3, 0.2, 0.1, 0],
            dots: [0.41, null, 0.19, null, 0],
          },
        ],
      }),
    );
    const dots = all(root, 'circle').filter((c) => c.attributes['r'] === '2.1');
    // x: rank 1 → 0, rank 3 → 280, rank 5 → 560; y on [0, 0.45] (niced from [0, 0.41] with 8 ticks).
    expect(dots.map((c) => [Number(c.attributes['cx']), Number(c.attributes['cy'])])).toEqual([
      [0, Math.round((300 - (0.41 / 0.45) * 300) * 100) / 100],
      [280, Math.round((300 - (0.19 / 0.45) * 300) * 100) / 100],
      [560, 300],
    ]);
    // The legend's symbol is a dot in the series' colour.
    expect(
      all(root, 'circle').some((c) => c.attributes['r'] === '4.5' && c.attributes['fill'] === '#4c78a8'),
    ).toBe(true);
  });

  it('lists the series in the legend in order, each in its colour', () => {
    const root = parseXml(
      renderSvg({
        ...base,
        series: ['ftw', 'reinforce', 'ppo'].map((name, i) => ({ name, x: [0, 1], line: [i / 4, i / 4] })),
      }),
    );
    const texts = all(root, 'text').map((t) => t.text);
    const at = ['method', 'ftw', 'reinforce', 'ppo'].map((t) => texts.indexOf(t));
    expect(at.every((v, i) => v >= 0 && (i === 0 || v > at[i - 1]!))).toBe(true);
    const symbols = all(root, 'path').filter((p) => p.attributes['stroke-width'] === '2');
    expect(symbols.map((p) => p.attributes['stroke'])).toEqual(['#4c78a8', '#f58518', '#e45756']);
  });

  it('escapes markup in titles and names', () => {
    const svg = renderSvg({
      ...base,
      title: 'KL(π_old ‖ π_new) < 1 & "quoted"',
      subtitle: ["it's <b>"],
      series: [{ name: 'a<b>&c', x: [0, 1], line: [0, 1] }],
    });
    const texts = all(parseXml(svg), 'text').map((t) => t.text);
    expect(texts).toContain('KL(π_old ‖ π_new) < 1 & "quoted"');
    expect(texts).toContain("it's <b>");
    expect(texts).toContain('a<b>&c');
  });

  it('draws an empty chart that says so when there are no series', () => {
    const texts = all(parseXml(renderSvg(base)), 'text').map((t) => t.text);
    expect(texts).toContain('no values to draw');
  });

  test.prop([
    fc.array(
      fc.record({
        name: fc.string({ maxLength: 30 }),
        values: fc.array(fc.double({ min: -1e9, max: 1e9, noNaN: true }), { minLength: 1, maxLength: 50 }),
      }),
      { maxLength: 12 },
    ),
  ])('is well-formed, deterministic and keeps every mark inside the frame for any finite series', (input) => {
    const spec: ChartSpec = {
      ...base,
      y: { title: 'y' },
      series: input.map(({ name, values }) => ({
        name,
        x: values.map((_, i) => i),
        line: values,
        band: { lower: values.map((v) => v - 1), upper: values.map((v) => v + 1) },
      })),
    };
    const svg = renderSvg(spec);
    expect(renderSvg(spec)).toBe(svg);
    const root = parseXml(svg);
    expect(root.name).toBe('svg');
    expect(root.attributes['xmlns']).toBe('http://www.w3.org/2000/svg');
    for (const p of all(root, 'path')) {
      if (p.attributes['stroke-width'] !== '1.5') continue;
      for (const [x, y] of pathPoints(p.attributes['d']!)) {
        expect(x).toBeGreaterThanOrEqual(0);
        expect(x).toBeLessThanOrEqual(560);
        expect(y).toBeGreaterThanOrEqual(0);
        expect(y).toBeLessThanOrEqual(300);
      }
    }
  });

  it('rejects empty series, NaN, values ≤ 0 on a log axis and mismatched lengths, naming them', () => {
    expect(() => renderSvg({ ...base, series: [{ name: 'ftw', x: [], line: [] }] })).toThrow(
      new RangeError('series[0] ("ftw") must have at least one point, got 0'),
    );
    expect(() =>
      renderSvg({ ...base, series: [{ name: 'ftw', x: [0, 1], line: [0.5, Number.NaN] }] }),
    ).toThrow(new RangeError('series[0] ("ftw").line[1] must be a finite number, got NaN'));
    expect(() =>
      renderSvg({ ...base, series: [{ name: 'a', x: [Number.POSITIVE_INFINITY], line: [0.5] }] }),
    ).toThrow(new RangeError('series[0] ("a").x[0] must be a finite number, got Infinity'));
    expect(() =>
      renderSvg({
        ...base,
        series: [{ name: 'a', x: [0, 1], line: [0, 1], band: { lower: [0], upper: [1, 1] } }],
      }),
    ).toThrow(new RangeError('series[0] ("a").band.lower must have 2 values, got 1'));
    expect(() =>
      renderSvg({
        ...base,
        y: { title: 'KL', type: 'log' },
        series: [{ name: 'kl', x: [0, 1], line: [1e-3, 0] }],
      }),
    ).toThrow(new RangeError('series[0] ("kl").line[1] must be > 0 on the log axis "KL", got 0'));
    expect(() => renderSvg({ ...base, series: [{ name: 'a', x: [0] }] })).toThrow(
      new RangeError('series[0] ("a") must have a line, a band or dots, got none'),
    );
    expect(() => renderSvg({ ...base, width: 0 })).toThrow(
      new RangeError('width and height must be positive, got 0 × 300'),
    );
  });
});
