/**
 * The subjects the offline sketcher can draw, each a function of a seeded random source only. The
 * drawings are simple but recognisable: a ringed planet, a crescent Moon, a spiral galaxy, a comet…
 */
import {
  CENTER,
  SIZE,
  blob,
  blur,
  circle,
  ellipse,
  el,
  group,
  linearGradient,
  n,
  path,
  phasePath,
  radialGradient,
  sky,
  type Random,
} from './offline-sketch-draw';

export type Draw = (random: Random) => string;

interface PlanetLook {
  readonly light: string;
  readonly base: string;
  readonly dark: string;
  /** Stripes across the disc (gas giants), top to bottom. */
  readonly bands?: readonly string[];
}

const LOOKS = {
  mercury: { light: '#d8d4cf', base: '#9b958e', dark: '#4a4643' },
  venus: { light: '#fff2c4', base: '#e6c878', dark: '#8a6a2a', bands: ['#efd9a0', '#e0c27a', '#f3e1b0'] },
  earth: { light: '#7fc3ff', base: '#1e6fd9', dark: '#0a2f6b' },
  mars: { light: '#f0926a', base: '#c1440e', dark: '#5a1a06' },
  jupiter: {
    light: '#f4e9d0',
    base: '#d2b48c',
    dark: '#6e4b2a',
    bands: ['#e8d8b8', '#b08050', '#efe3c8', '#a06a3a', '#e3d2ad', '#b98b5a', '#efe3c8', '#9c6b40'],
  },
  saturn: {
    light: '#fbf0cf',
    base: '#e0c588',
    dark: '#7a6234',
    bands: ['#f0dca8', '#d8b878', '#efd9a2', '#cfae6c', '#ecd49a'],
  },
  uranus: { light: '#e4fbfd', base: '#8fdde6', dark: '#2f7f8c' },
  neptune: { light: '#8fa8ff', base: '#2f55d4', dark: '#0d1f6e', bands: ['#3a60dc', '#2c4fc8', '#3e66e0'] },
  pluto: { light: '#f6ecdc', base: '#cdb592', dark: '#5e4c37' },
} as const satisfies Record<string, PlanetLook>;

type PlanetName = keyof typeof LOOKS;

/** A shaded sphere with optional bands, lit from the upper left. `id` keeps gradient ids unique. */
function sphere(id: string, cx: number, cy: number, r: number, look: PlanetLook, extra = ''): string {
  const defs =
    radialGradient(
      `${id}-fill`,
      [
        [0, look.light],
        [0.55, look.base],
        [1, look.dark],
      ],
      { cx: '35%', cy: '30%', r: '75%' },
    ) +
    radialGradient(
      `${id}-shade`,
      [
        [0.55, '#000000', 0],
        [1, '#000000', 0.6],
      ],
      { cx: '38%', cy: '34%', r: '70%' },
    ) +
    el('clipPath', { id: `${id}-clip` }, circle(cx, cy, r));
  const bands = (look.bands ?? [])
    .map((color, index, all) => {
      const height = (2 * r) / all.length;
      return el('rect', {
        x: cx - r,
        y: cy - r + index * height,
        width: 2 * r,
        height: height + 1,
        fill: color,
        opacity: 0.85,
      });
    })
    .join('');
  return (
    `<defs>${defs}</defs>` +
    circle(cx, cy, r, { fill: `url(#${id}-fill)` }) +
    group({ 'clip-path': `url(#${id}-clip)` }, bands + extra) +
    circle(cx, cy, r, { fill: `url(#${id}-shade)` })
  );
}

function craters(random: Random, cx: number, cy: number, r: number, count: number, color: string): string {
  return Array.from({ length: count }, () => {
    const angle = random.between(0, Math.PI * 2);
    const distance = Math.sqrt(random.next()) * r * 0.8;
    const size = random.between(r * 0.04, r * 0.14);
    return circle(cx + Math.cos(angle) * distance, cy + Math.sin(angle) * distance, size, {
      fill: color,
      opacity: 0.55,
    });
  }).join('');
}

function glow(id: string, cx: number, cy: number, r: number, color: string, opacity = 0.9): string {
  return (
    `<defs>${radialGradient(id, [
      [0, color, opacity],
      [1, color, 0],
    ])}</defs>` + circle(cx, cy, r, { fill: `url(#${id})` })
  );
}

function planetSketch(name: PlanetName): Draw {
  return (random) => {
    const look = LOOKS[name];
    let extra = '';
    if (name === 'mars') {
      extra =
        ellipse(CENTER, CENTER - 135, 60, 22, { fill: '#fbf7f2' }) +
        ellipse(CENTER, CENTER + 138, 45, 16, { fill: '#f3ece4' }) +
        path(blob(random, CENTER - 40, CENTER + 10, 45, 9, 0.35), { fill: '#7a2608', opacity: 0.5 }) +
        path(blob(random, CENTER + 55, CENTER - 30, 30, 8, 0.35), { fill: '#8a2e0c', opacity: 0.45 });
    } else if (name === 'jupiter') {
      extra = ellipse(CENTER + 45, CENTER + 45, 34, 20, {
        fill: '#b5432c',
        stroke: '#e8a07a',
        'stroke-width': 4,
      });
    } else if (name === 'earth') {
      extra =
        path(blob(random, CENTER - 50, CENTER - 30, 60, 11, 0.4), { fill: '#3c9a3c' }) +
        path(blob(random, CENTER + 60, CENTER + 50, 45, 10, 0.4), { fill: '#5aae45' }) +
        path(blob(random, CENTER + 20, CENTER - 110, 30, 8, 0.4), { fill: '#e9f3ff' }) +
        Array.from({ length: 5 }, () =>
          ellipse(
            random.between(130, 380),
            random.between(140, 380),
            random.between(30, 60),
            random.between(6, 12),
            {
              fill: '#ffffff',
              opacity: 0.75,
            },
          ),
        ).join('');
    } else if (name === 'mercury') {
      extra = craters(random, CENTER, CENTER, 150, 22, '#5d5853');
    } else if (name === 'neptune') {
      extra = ellipse(CENTER - 40, CENTER + 30, 30, 16, { fill: '#0e1f66', opacity: 0.7 });
    } else if (name === 'pluto') {
      extra =
        path(
          `M${n(CENTER + 20)},${n(CENTER + 60)}C${n(CENTER - 60)},${n(CENTER)} ${n(CENTER - 30)},${n(CENTER - 60)} ${n(CENTER + 20)},${n(CENTER - 20)}C${n(CENTER + 70)},${n(CENTER - 60)} ${n(CENTER + 100)},${n(CENTER)} ${n(CENTER + 20)},${n(CENTER + 60)}Z`,
          { fill: '#fbf6ea', opacity: 0.9 },
        ) + craters(random, CENTER, CENTER, 110, 8, '#8a735a');
    }
    const radius = name === 'pluto' || name === 'mercury' ? (name === 'pluto' ? 110 : 150) : 160;
    let body = sphere(`planet-${name}`, CENTER, CENTER, radius, look, extra);
    if (name === 'uranus') {
      const ring = ellipse(CENTER, CENTER, 28, 210, {
        fill: 'none',
        stroke: '#cfeff2',
        'stroke-width': 3,
        opacity: 0.6,
      });
      body = group({ transform: `rotate(-8 ${CENTER} ${CENTER})` }, ring) + body;
    }
    return sky(random, 110) + body;
  };
}

const ringedPlanet: Draw = (random) => {
  const rings = (half: boolean) =>
    [
      [235, 70, '#d9c089', 16],
      [205, 61, '#bfa36c', 10],
      [182, 54, '#e8d6a6', 8],
    ]
      .map(([rx, ry, color, width]) =>
        half
          ? path(
              `M${n(CENTER - Number(rx))},${CENTER}A${n(Number(rx))},${n(Number(ry))} 0 0 0 ${n(CENTER + Number(rx))},${CENTER}`,
              {
                fill: 'none',
                stroke: String(color),
                'stroke-width': Number(width),
              },
            )
          : ellipse(CENTER, CENTER, Number(rx), Number(ry), {
              fill: 'none',
              stroke: String(color),
              'stroke-width': Number(width),
            }),
      )
      .join('');
  return (
    sky(random, 120) +
    group(
      { transform: `rotate(-18 ${CENTER} ${CENTER})` },
      rings(false) + sphere('saturn', CENTER, CENTER, 130, LOOKS.saturn) + rings(true),
    )
  );
};

const crescentMoon: Draw = (random) =>
  sky(random, 130) +
  glow('moon-glow', CENTER, CENTER, 210, '#cfd8ff', 0.25) +
  `<defs>${el('mask', { id: 'crescent' }, el('rect', { width: SIZE, height: SIZE, fill: 'black' }) + circle(CENTER, CENTER, 140, { fill: 'white' }) + circle(CENTER + 75, CENTER - 30, 130, { fill: 'black' }))}</defs>` +
  group(
    { mask: 'url(#crescent)' },
    circle(CENTER, CENTER, 140, { fill: '#efeadf' }) + craters(random, CENTER - 60, CENTER, 90, 9, '#b9b2a4'),
  );

const moonPhases: Draw = (random) => {
  const phases = [0, 0.125, 0.25, 0.375, 0.5];
  return (
    sky(random, 90) +
    phases
      .map((phase, index) => {
        const cx = 56 + index * 100;
        return (
          circle(cx, CENTER, 42, { fill: '#252a3d', stroke: '#3b4260', 'stroke-width': 2 }) +
          path(phasePath(cx, CENTER, 42, phase), { fill: '#f1ede3' })
        );
      })
      .join('')
  );
};

const sun: Draw = (random) => {
  const rays = Array.from({ length: 16 }, (_, index) => {
    const angle = (index / 16) * Math.PI * 2 + random.between(-0.05, 0.05);
    const inner = 150;
    const outer = random.between(190, 225);
    return path(
      `M${n(CENTER + Math.cos(angle - 0.08) * inner)},${n(CENTER + Math.sin(angle - 0.08) * inner)}L${n(CENTER + Math.cos(angle) * outer)},${n(CENTER + Math.sin(angle) * outer)}L${n(CENTER + Math.cos(angle + 0.08) * inner)},${n(CENTER + Math.sin(angle + 0.08) * inner)}Z`,
      { fill: '#ffb703', opacity: 0.8 },
    );
  }).join('');
  const spots = Array.from({ length: 4 }, () =>
    circle(CENTER + random.between(-70, 70), CENTER + random.between(-70, 70), random.between(5, 11), {
      fill: '#b35c00',
      opacity: 0.6,
    }),
  ).join('');
  return (
    sky(random, 60) +
    glow('sun-glow', CENTER, CENTER, 250, '#ffcf40', 0.7) +
    rays +
    `<defs>${radialGradient('sun-fill', [
      [0, '#fffbe0'],
      [0.6, '#ffd23f'],
      [1, '#ff8c00'],
    ])}</defs>` +
    circle(CENTER, CENTER, 150, { fill: 'url(#sun-fill)' }) +
    spots
  );
};

const giantStar: Draw = (random) =>
  sky(random, 90) +
  glow('giant-glow', CENTER - 30, CENTER, 250, '#ff6a3d', 0.7) +
  `<defs>${radialGradient('giant-fill', [
    [0, '#ffd0a0'],
    [0.6, '#ff6a3d'],
    [1, '#b3261e'],
  ])}</defs>` +
  circle(CENTER - 30, CENTER, 165, { fill: 'url(#giant-fill)' }) +
  glow('dwarf-glow', 430, 110, 40, '#dfe9ff', 0.9) +
  circle(430, 110, 9, { fill: '#ffffff' });

const starField: Draw = (random) => {
  const bright = Array.from({ length: 14 }, () => {
    const x = random.between(30, SIZE - 30);
    const y = random.between(30, SIZE - 30);
    const size = random.between(3, 7);
    const color = random.pick(['#ffffff', '#9fc3ff', '#ffd89b', '#ff9e80']);
    return (
      circle(x, y, size, { fill: color }) +
      path(
        `M${n(x - size * 3)},${n(y)}L${n(x + size * 3)},${n(y)}M${n(x)},${n(y - size * 3)}L${n(x)},${n(y + size * 3)}`,
        {
          stroke: color,
          'stroke-width': 1.2,
          opacity: 0.7,
        },
      )
    );
  }).join('');
  return sky(random, 260) + bright;
};

const nightSky: Draw = (random) =>
  sky(random, 200) +
  circle(400, 110, 34, { fill: '#efeadf' }) +
  circle(418, 100, 30, { fill: '#08112c' }) +
  path(`M0,430C90,380 170,420 260,395C350,370 430,410 512,385L512,512L0,512Z`, { fill: '#050a18' });

const spiralGalaxy: Draw = (random) => {
  const dots: string[] = [];
  for (let arm = 0; arm < 2; arm += 1) {
    for (let step = 0; step < 150; step += 1) {
      const t = step / 150;
      const angle = arm * Math.PI + t * Math.PI * 3.2;
      const radius = 18 + t * 210;
      const spread = 6 + t * 22;
      const x = CENTER + Math.cos(angle) * radius + random.between(-spread, spread);
      const y = CENTER + Math.sin(angle) * radius + random.between(-spread, spread);
      dots.push(
        circle(x, y, random.between(0.8, 2.6), {
          fill: random.pick(['#ffffff', '#cfe0ff', '#ffd6f0', '#a8c8ff']),
          opacity: random.between(0.5, 1),
        }),
      );
    }
  }
  return (
    sky(random, 90) +
    group(
      {
        transform: `translate(${CENTER} ${CENTER}) scale(1 0.62) rotate(-25) translate(-${CENTER} -${CENTER})`,
      },
      glow('galaxy-halo', CENTER, CENTER, 240, '#6f7dff', 0.25) +
        dots.join('') +
        glow('galaxy-core', CENTER, CENTER, 70, '#fff3cf', 1),
    )
  );
};

const nebula: Draw = (random) => {
  const clouds = Array.from({ length: 9 }, () =>
    ellipse(
      random.between(90, 420),
      random.between(90, 420),
      random.between(60, 150),
      random.between(40, 110),
      {
        fill: random.pick(['#ff5fa2', '#8a5cff', '#3fd0c9', '#ff9d5c', '#5c8dff']),
        opacity: random.between(0.25, 0.5),
        filter: 'url(#nebula-blur)',
      },
    ),
  ).join('');
  return (
    sky(random, 150) +
    `<defs>${blur('nebula-blur', 28)}</defs>` +
    clouds +
    glow('young-star', random.between(200, 310), random.between(200, 310), 40, '#ffffff', 1)
  );
};

const comet: Draw = (random) =>
  sky(random, 170) +
  `<defs>${linearGradient(
    'dust-tail',
    [
      [0, '#fff6d8', 0.9],
      [1, '#fff6d8', 0],
    ],
    { gradientUnits: 'userSpaceOnUse', x1: 376, y1: 152, x2: 90, y2: 460 },
  )}${linearGradient(
    'ion-tail',
    [
      [0, '#8fd3ff', 0.8],
      [1, '#8fd3ff', 0],
    ],
    { gradientUnits: 'userSpaceOnUse', x1: 376, y1: 152, x2: 40, y2: 306 },
  )}</defs>` +
  path(`M366,142C290,220 170,320 30,410L150,505C250,390 330,280 390,166Z`, { fill: 'url(#dust-tail)' }) +
  path(`M372,146C280,200 180,250 40,300L44,312C190,266 290,214 378,156Z`, { fill: 'url(#ion-tail)' }) +
  glow('coma', 376, 152, 48, '#e9f6ff', 0.95) +
  circle(376, 152, 10, { fill: '#ffffff' });

const meteors: Draw = (random) => {
  const streaks = Array.from({ length: 5 }, (_, index) => {
    const x = random.between(150, 480);
    const y = random.between(20, 300);
    const length = random.between(90, 180);
    return path(`M${n(x)},${n(y)}L${n(x - length)},${n(y + length * 0.55)}`, {
      stroke: 'url(#streak)',
      'stroke-width': index === 0 ? 4 : 2.5,
      'stroke-linecap': 'round',
    });
  }).join('');
  return (
    sky(random, 220) +
    `<defs>${linearGradient('streak', [
      [0, '#ffffff', 1],
      [1, '#9fd0ff', 0],
    ])}</defs>` +
    streaks +
    path(`M0,450C120,420 260,440 512,410L512,512L0,512Z`, { fill: '#050a18' })
  );
};

const asteroids: Draw = (random) =>
  sky(random, 130) +
  Array.from({ length: 7 }, (_, index) => {
    const r = index === 0 ? 95 : random.between(14, 48);
    const cx = index === 0 ? CENTER : random.between(40, 470);
    const cy = index === 0 ? CENTER : random.between(40, 470);
    const shape = blob(random, cx, cy, r, 11, 0.28);
    return (
      path(shape, {
        fill: random.pick(['#7d7167', '#8f8275', '#6b625a']),
        stroke: '#4a423b',
        'stroke-width': 2,
      }) + craters(random, cx, cy, r * 0.8, 3, '#4f4740')
    );
  }).join('');

const spaceStation: Draw = (random) => {
  const panel = (x: number, y: number) =>
    el('rect', { x, y, width: 70, height: 34, fill: '#1d3d7a', stroke: '#d4a93c', 'stroke-width': 2 }) +
    path(
      `M${n(x + 17.5)},${n(y)}V${n(y + 34)}M${n(x + 35)},${n(y)}V${n(y + 34)}M${n(x + 52.5)},${n(y)}V${n(y + 34)}`,
      { stroke: '#d4a93c', 'stroke-width': 1 },
    );
  return (
    sky(random, 120) +
    `<defs>${radialGradient('limb', [
      [0.8, '#1e6fd9'],
      [1, '#9fd3ff'],
    ])}</defs>` +
    circle(CENTER, 1050, 640, { fill: 'url(#limb)' }) +
    el('rect', { x: 80, y: 232, width: 352, height: 10, fill: '#c9ccd3' }) +
    [80, 160, 282, 362].map((x) => panel(x, 190) + panel(x, 250)).join('') +
    el('rect', {
      x: 226,
      y: 212,
      width: 60,
      height: 50,
      rx: 10,
      fill: '#e4e6ea',
      stroke: '#9aa0aa',
      'stroke-width': 2,
    }) +
    el('rect', { x: 246, y: 182, width: 20, height: 110, rx: 8, fill: '#d7dae0' })
  );
};

const rocket: Draw = (random) => {
  const smoke = Array.from({ length: 9 }, () =>
    circle(CENTER + random.between(-90, 90), random.between(440, 500), random.between(25, 45), {
      fill: '#d9dde5',
      opacity: 0.85,
    }),
  ).join('');
  return (
    sky(random, 130) +
    path(`M226,380Q256,470 286,380Z`, { fill: '#ffb703' }) +
    path(`M238,380Q256,440 274,380Z`, { fill: '#fff1a8' }) +
    path(`M226,170Q256,80 286,170V380H226Z`, { fill: '#eef1f6', stroke: '#9aa3b5', 'stroke-width': 3 }) +
    path(`M226,170Q256,80 286,170Z`, { fill: '#e63946' }) +
    path(`M226,320L190,390H226Z`, { fill: '#e63946' }) +
    path(`M286,320L322,390H286Z`, { fill: '#e63946' }) +
    circle(256, 230, 16, { fill: '#6ec3ff', stroke: '#5c6478', 'stroke-width': 4 }) +
    smoke
  );
};

const telescope: Draw = (random) =>
  sky(random, 240) +
  path(`M0,430C120,360 300,350 512,420L512,512L0,512Z`, { fill: '#0b2416' }) +
  path(`M256,330L200,420M256,330L312,420M256,330L256,425`, {
    stroke: '#8a8f99',
    'stroke-width': 6,
    'stroke-linecap': 'round',
  }) +
  group(
    { transform: 'rotate(-35 256 320)' },
    el('rect', {
      x: 170,
      y: 296,
      width: 190,
      height: 44,
      rx: 8,
      fill: '#e7e9ee',
      stroke: '#7d8596',
      'stroke-width': 3,
    }) +
      el('rect', { x: 350, y: 288, width: 26, height: 60, rx: 5, fill: '#3d4a63' }) +
      el('rect', { x: 150, y: 306, width: 24, height: 24, rx: 4, fill: '#3d4a63' }),
  );

/** Orion: shoulders, belt, knees and head, as seen in the sky. */
const ORION: readonly (readonly [number, number])[] = [
  [190, 150],
  [330, 160],
  [236, 262],
  [258, 254],
  [280, 246],
  [200, 380],
  [340, 370],
  [262, 100],
];
const ORION_LINES = [
  [7, 0],
  [7, 1],
  [0, 2],
  [1, 4],
  [2, 3],
  [3, 4],
  [2, 5],
  [4, 6],
] as const;

const constellation: Draw = (random) =>
  sky(random, 180) +
  ORION_LINES.map(([from, to]) => {
    const [x1, y1] = ORION[from] ?? [0, 0];
    const [x2, y2] = ORION[to] ?? [0, 0];
    return path(`M${x1},${y1}L${x2},${y2}`, { stroke: '#8fb4ff', 'stroke-width': 2, opacity: 0.7 });
  }).join('') +
  ORION.map(([x, y], index) =>
    circle(x, y, index === 0 ? 9 : 6, {
      fill: index === 0 ? '#ffb27a' : index === 6 ? '#bcd6ff' : '#ffffff',
    }),
  ).join('');

const aurora: Draw = (random) => {
  const curtains = Array.from({ length: 4 }, (_, index) => {
    const y = 120 + index * 45 + random.between(-15, 15);
    return path(
      `M-20,${n(y + 60)}C120,${n(y - 40)} 250,${n(y + 80)} 532,${n(y - 10)}L532,${n(y + 150)}C300,${n(y + 200)} 140,${n(y + 120)} -20,${n(y + 180)}Z`,
      {
        fill: index % 2 === 0 ? 'url(#aurora-green)' : 'url(#aurora-violet)',
        filter: 'url(#aurora-blur)',
        opacity: 0.75,
      },
    );
  }).join('');
  return (
    sky(random, 120, '#020611', '#071a24') +
    `<defs>${blur('aurora-blur', 10)}${linearGradient(
      'aurora-green',
      [
        [0, '#5dffb0', 0.9],
        [1, '#1fae6b', 0],
      ],
      { x1: 0, y1: 0, x2: 0, y2: 1 },
    )}${linearGradient(
      'aurora-violet',
      [
        [0, '#c68bff', 0.8],
        [1, '#7b3fd1', 0],
      ],
      { x1: 0, y1: 0, x2: 0, y2: 1 },
    )}</defs>` +
    curtains +
    path(`M0,512L0,420L90,340L160,410L250,320L340,420L420,350L512,430L512,512Z`, { fill: '#0c1320' }) +
    path(`M250,320L228,342L250,338L270,346Z M90,340L74,356L92,352L106,360Z`, { fill: '#e8eef8' })
  );
};

const burst: Draw = (random) => {
  const rays = Array.from({ length: 40 }, () => {
    const angle = random.between(0, Math.PI * 2);
    const length = random.between(120, 250);
    return path(
      `M${CENTER},${CENTER}L${n(CENTER + Math.cos(angle) * length)},${n(CENTER + Math.sin(angle) * length)}`,
      {
        stroke: random.pick(['#fff3b0', '#ffb703', '#ff7b54', '#ffffff']),
        'stroke-width': random.between(1, 3),
        opacity: random.between(0.4, 0.9),
      },
    );
  }).join('');
  const sparks = Array.from({ length: 80 }, () => {
    const angle = random.between(0, Math.PI * 2);
    const distance = random.between(60, 250);
    return circle(
      CENTER + Math.cos(angle) * distance,
      CENTER + Math.sin(angle) * distance,
      random.between(1, 3),
      { fill: '#ffe8a3', opacity: random.between(0.4, 1) },
    );
  }).join('');
  return (
    sky(random, 60, '#05010f', '#12052a') + rays + sparks + glow('bang', CENTER, CENTER, 170, '#fff6d6', 1)
  );
};

const PLANET_DOTS = ['#9b958e', '#e6c878', '#1e6fd9', '#c1440e', '#d2b48c', '#e0c588', '#8fdde6', '#2f55d4'];

const solarSystem: Draw = (random) => {
  const sunX = 40;
  const orbits = PLANET_DOTS.map((color, index) => {
    const rx = 70 + index * 55;
    const ry = rx * 0.42;
    const angle = random.between(-1.1, 1.1);
    const x = sunX + Math.cos(angle) * rx;
    const y = CENTER + Math.sin(angle) * ry;
    const size = [5, 8, 8, 6, 18, 15, 11, 11][index] ?? 6;
    const ring =
      index === 5
        ? ellipse(x, y, size * 2, size * 0.6, { fill: 'none', stroke: '#d9c089', 'stroke-width': 2.5 })
        : '';
    return (
      ellipse(sunX, CENTER, rx, ry, { fill: 'none', stroke: '#5b6b99', 'stroke-width': 1.2, opacity: 0.7 }) +
      circle(x, y, size, { fill: color }) +
      ring
    );
  }).join('');
  return (
    sky(random, 120) +
    glow('system-sun-glow', sunX, CENTER, 120, '#ffcf40', 0.8) +
    circle(sunX, CENTER, 55, { fill: '#ffc93c' }) +
    orbits
  );
};

const eclipse: Draw = (random) =>
  sky(random, 90, '#010208', '#050914') +
  glow('corona', CENTER, CENTER, 230, '#f4f7ff', 0.85) +
  Array.from({ length: 24 }, (_, index) => {
    const angle = (index / 24) * Math.PI * 2;
    const length = random.between(150, 200);
    return path(
      `M${n(CENTER + Math.cos(angle) * 118)},${n(CENTER + Math.sin(angle) * 118)}L${n(CENTER + Math.cos(angle) * length)},${n(CENTER + Math.sin(angle) * length)}`,
      {
        stroke: '#ffffff',
        'stroke-width': 2,
        opacity: 0.35,
      },
    );
  }).join('') +
  circle(CENTER, CENTER, 120, { fill: '#020308' }) +
  circle(CENTER + 88, CENTER - 82, 6, { fill: '#ff5a4e', opacity: 0.85 });

const blackHole: Draw = (random) => {
  const disk = (lower: boolean) =>
    [
      [230, 62, '#ff8a3d', 20, 0.55],
      [190, 50, '#ffb45c', 14, 0.75],
      [150, 40, '#ffe2a3', 8, 0.9],
    ]
      .map(([rx, ry, color, width, opacity]) =>
        lower
          ? path(
              `M${n(CENTER - Number(rx))},${CENTER}A${n(Number(rx))},${n(Number(ry))} 0 0 0 ${n(CENTER + Number(rx))},${CENTER}`,
              {
                fill: 'none',
                stroke: String(color),
                'stroke-width': Number(width),
                opacity: Number(opacity),
              },
            )
          : ellipse(CENTER, CENTER, Number(rx), Number(ry), {
              fill: 'none',
              stroke: String(color),
              'stroke-width': Number(width),
              opacity: Number(opacity),
            }),
      )
      .join('');
  return (
    sky(random, 140) +
    group(
      { transform: `rotate(-12 ${CENTER} ${CENTER})` },
      glow('hole-glow', CENTER, CENTER, 250, '#ff7a2f', 0.45) +
        disk(false) +
        circle(CENTER, CENTER, 96, { fill: 'none', stroke: '#ffd7a0', 'stroke-width': 5 }) +
        circle(CENTER, CENTER, 90, { fill: '#000000' }) +
        disk(true),
    )
  );
};

const earthAndMoon: Draw = (random) =>
  sky(random, 120) +
  path(`M110,330C150,150 330,90 450,110`, {
    fill: 'none',
    stroke: '#8fa9e6',
    'stroke-width': 2,
    'stroke-dasharray': '8 8',
    opacity: 0.7,
  }) +
  sphere(
    'home',
    170,
    350,
    140,
    LOOKS.earth,
    path(blob(random, 140, 330, 55, 10, 0.4), { fill: '#3c9a3c' }) +
      path(blob(random, 230, 400, 40, 9, 0.4), { fill: '#5aae45' }),
  ) +
  sphere(
    'luna',
    420,
    120,
    50,
    { light: '#f4f1ea', base: '#bdb8ae', dark: '#5a5750' },
    craters(random, 420, 120, 50, 7, '#8d877c'),
  );

const seasons: Draw = (random) => {
  const positions = [0, Math.PI / 2, Math.PI, (3 * Math.PI) / 2];
  return (
    sky(random, 110) +
    ellipse(CENTER, CENTER, 200, 110, { fill: 'none', stroke: '#8fa9e6', 'stroke-width': 2, opacity: 0.7 }) +
    glow('season-sun-glow', CENTER, CENTER, 90, '#ffcf40', 0.8) +
    circle(CENTER, CENTER, 40, { fill: '#ffc93c' }) +
    positions
      .map((angle, index) => {
        const x = CENTER + Math.cos(angle) * 200;
        const y = CENTER + Math.sin(angle) * 110;
        return group(
          { transform: `rotate(23 ${n(x)} ${n(y)})` },
          sphere(`season-${index}`, x, y, 26, LOOKS.earth) +
            path(`M${n(x)},${n(y - 40)}V${n(y + 40)}`, { stroke: '#ffffff', 'stroke-width': 2 }),
        );
      })
      .join('')
  );
};

const exoplanet: Draw = (random) =>
  sky(random, 150) +
  glow('host-glow', 130, 140, 160, '#ffa24a', 0.8) +
  circle(130, 140, 60, { fill: '#ffb35c' }) +
  sphere('world', 340, 330, 110, {
    light: random.pick(['#b8f0c8', '#f6d6a8', '#c8d8ff']),
    base: random.pick(['#3f9a6b', '#b07a4a', '#4a6fd0']),
    dark: '#14231c',
  });

/** The subjects in the order they are tried: more specific words first ("eclipse" before "moon"). */
export const SUBJECTS: readonly { readonly name: string; readonly words: RegExp; readonly draw: Draw }[] = [
  { name: 'black hole', words: /black hole|event horizon|accretion/, draw: blackHole },
  { name: 'eclipse', words: /eclipse|corona/, draw: eclipse },
  { name: 'moon phases', words: /phases?\b|gibbous/, draw: moonPhases },
  { name: 'exoplanet', words: /exoplanet|alien world|another star/, draw: exoplanet },
  { name: 'spiral galaxy', words: /galax|milky way|andromeda/, draw: spiralGalaxy },
  { name: 'giant star', words: /red giant|white dwarf|life of a star|supernova|dying star/, draw: giantStar },
  { name: 'nebula', words: /nebula|pillars of creation|gas cloud/, draw: nebula },
  { name: 'comet', words: /comet/, draw: comet },
  { name: 'meteors', words: /meteor|shooting star|falling star/, draw: meteors },
  { name: 'asteroids', words: /asteroid/, draw: asteroids },
  { name: 'space station', words: /space station|\biss\b/, draw: spaceStation },
  { name: 'rocket', words: /rocket|launch|spacecraft|spaceship|astronaut|exploration/, draw: rocket },
  { name: 'telescope', words: /telescope|observatory/, draw: telescope },
  { name: 'constellation', words: /constellation|orion|big dipper|zodiac/, draw: constellation },
  { name: 'aurora', words: /aurora|northern lights|southern lights/, draw: aurora },
  { name: 'big bang', words: /big bang|explosion|burst/, draw: burst },
  { name: 'seasons', words: /season|tilted earth/, draw: seasons },
  { name: 'earth and moon', words: /tide|gravity|(?=.*\bmoon\b)(?=.*\bearth\b)/, draw: earthAndMoon },
  {
    name: 'solar system',
    words: /solar system|orbits? around the sun|planets on their orbits/,
    draw: solarSystem,
  },
  { name: 'ringed planet', words: /saturn/, draw: ringedPlanet },
  { name: 'uranus', words: /uranus/, draw: planetSketch('uranus') },
  { name: 'jupiter', words: /jupiter|gas giant|great red spot/, draw: planetSketch('jupiter') },
  { name: 'mars', words: /\bmars\b|\bred planet/, draw: planetSketch('mars') },
  { name: 'neptune', words: /neptune|ice giant/, draw: planetSketch('neptune') },
  { name: 'venus', words: /venus/, draw: planetSketch('venus') },
  { name: 'mercury', words: /mercury/, draw: planetSketch('mercury') },
  { name: 'pluto', words: /pluto|dwarf planet/, draw: planetSketch('pluto') },
  { name: 'earth', words: /\bearth\b|blue planet/, draw: planetSketch('earth') },
  { name: 'ringed planet', words: /ringed|\brings?\b/, draw: ringedPlanet },
  { name: 'crescent moon', words: /\bmoon|crescent|lunar/, draw: crescentMoon },
  { name: 'sun', words: /\bsun\b|solar|sunlight/, draw: sun },
  { name: 'star field', words: /\bstars?\b|starry|light/, draw: starField },
];

export const FALLBACK_SUBJECT = { name: 'night sky', draw: nightSky } as const;
