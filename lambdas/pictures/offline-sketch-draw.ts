/**
 * Drawing helpers for the offline sketcher: a seeded random source and small SVG shape builders. Every
 * value written into the SVG is a number formatted here or a constant colour from this module: no text
 * from a prompt ever reaches these functions.
 */

export const SIZE = 512;
export const CENTER = SIZE / 2;

/** mulberry32 seeded with FNV-1a: the same prompt always draws the same picture. */
export class Random {
  private state: number;

  constructor(seedText: string) {
    let hash = 0x811c9dc5;
    for (let index = 0; index < seedText.length; index += 1) {
      hash ^= seedText.charCodeAt(index);
      hash = Math.imul(hash, 0x01000193);
    }
    this.state = hash >>> 0;
  }

  /** A number in [0, 1). */
  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let value = this.state;
    value = Math.imul(value ^ (value >>> 15), value | 1);
    value ^= value + Math.imul(value ^ (value >>> 7), value | 61);
    return ((value ^ (value >>> 14)) >>> 0) / 4294967296;
  }

  between(low: number, high: number): number {
    return low + (high - low) * this.next();
  }

  pick<T>(items: readonly T[]): T {
    const item = items[Math.floor(this.next() * items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
}

/** Numbers with at most one decimal, so the same drawing is byte-for-byte the same everywhere. */
export const n = (value: number): string => {
  const rounded = Math.round(value * 10) / 10;
  return Object.is(rounded, -0) ? '0' : String(rounded);
};

type Attributes = Readonly<Record<string, string | number>>;

function attributes(attrs: Attributes): string {
  return Object.entries(attrs)
    .map(([name, value]) => `${name}="${typeof value === 'number' ? n(value) : value}"`)
    .join(' ');
}

export const el = (name: string, attrs: Attributes, children = ''): string =>
  children === '' ? `<${name} ${attributes(attrs)}/>` : `<${name} ${attributes(attrs)}>${children}</${name}>`;

export const circle = (cx: number, cy: number, r: number, attrs: Attributes = {}): string =>
  el('circle', { cx, cy, r, ...attrs });

export const ellipse = (cx: number, cy: number, rx: number, ry: number, attrs: Attributes = {}): string =>
  el('ellipse', { cx, cy, rx, ry, ...attrs });

export const path = (d: string, attrs: Attributes = {}): string => el('path', { d, ...attrs });

export const group = (attrs: Attributes, children: string): string => el('g', attrs, children);

/** A gradient stop list: [offset 0..1, colour, opacity?]. */
type Stop = readonly [number, string, number?];

function stops(list: readonly Stop[]): string {
  return list
    .map(([offset, color, opacity]) =>
      el('stop', { offset: `${n(offset * 100)}%`, 'stop-color': color, 'stop-opacity': opacity ?? 1 }),
    )
    .join('');
}

export const radialGradient = (id: string, list: readonly Stop[], attrs: Attributes = {}): string =>
  el('radialGradient', { id, ...attrs }, stops(list));

export const linearGradient = (id: string, list: readonly Stop[], attrs: Attributes = {}): string =>
  el('linearGradient', { id, ...attrs }, stops(list));

export const blur = (id: string, deviation: number): string =>
  el(
    'filter',
    { id, x: '-50%', y: '-50%', width: '200%', height: '200%' },
    el('feGaussianBlur', { stdDeviation: deviation }),
  );

/** A deep night-sky background with a seeded scatter of stars. */
export function sky(random: Random, starCount: number, top = '#040716', bottom = '#0d1a3f'): string {
  const background = linearGradient(
    'sky',
    [
      [0, top],
      [1, bottom],
    ],
    { x1: 0, y1: 0, x2: 0, y2: 1 },
  );
  const stars = Array.from({ length: starCount }, () =>
    circle(random.between(0, SIZE), random.between(0, SIZE), random.between(0.5, 1.8), {
      fill: random.pick(['#ffffff', '#fff4d6', '#d6e4ff']),
      opacity: random.between(0.4, 1),
    }),
  ).join('');
  return `<defs>${background}</defs>${el('rect', { width: SIZE, height: SIZE, fill: 'url(#sky)' })}${stars}`;
}

/** A jagged, roughly round outline: asteroids, continents, clouds. */
export function blob(
  random: Random,
  cx: number,
  cy: number,
  radius: number,
  points: number,
  jitter: number,
): string {
  const corners = Array.from({ length: points }, (_, index) => {
    const angle = (index / points) * Math.PI * 2;
    const reach = radius * random.between(1 - jitter, 1 + jitter);
    return `${n(cx + Math.cos(angle) * reach)},${n(cy + Math.sin(angle) * reach)}`;
  });
  return `M${corners.join('L')}Z`;
}

/** A lit disc: the shape of the Moon at a phase, 0 = new, 0.5 = full, 1 = new again (waxing first). */
export function phasePath(cx: number, cy: number, r: number, phase: number): string {
  const lit = Math.cos(phase * Math.PI * 2); // 1 at new, -1 at full
  const waxing = phase < 0.5;
  const rx = Math.abs(lit) * r;
  const limbSweep = waxing ? 1 : 0;
  // Crescents bulge towards the lit limb; gibbous phases bulge away from it.
  const crescent = lit > 0;
  const terminatorSweep = waxing === crescent ? 0 : 1;
  return `M${n(cx)},${n(cy - r)}A${n(r)},${n(r)} 0 0 ${limbSweep} ${n(cx)},${n(cy + r)}A${n(rx)},${n(r)} 0 0 ${terminatorSweep} ${n(cx)},${n(cy - r)}Z`;
}
