import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '#contract/languages';
import { SentenceCutter, sentencesOf } from '#web/conversation/sentences';
import { speakableText, unbreakableSpans } from '#web/speech/speakable';

// What is spoken is derived from what is shown (docs/behaviour.md §17.7): one table per language.

const SPOKEN: Readonly<Record<Locale, ReadonlyArray<readonly [shown: string, spoken: string]>>> = {
  'en-US': [
    [
      'Light covers 1 km in a blink, 300,000 km/s in a second.',
      'Light covers 1 kilometer in a blink, 300,000 kilometers per second in a second.',
    ],
    [
      'Betelgeuse is ~550 ly away and 3,500 K cool.',
      'Betelgeuse is about 550 light-years away and 3,500 kelvins cool.',
    ],
    [
      'Mars: -63 °C, 1.52 AU, 0.107 × 10^24 kg? 6.4e23 kg.',
      'Mars: -63 degrees Celsius, 1.52 astronomical units, 0.107 times 10 to the power of 24 kilograms? ' +
        '6.4 times 10 to the power of 23 kilograms.',
    ],
    [
      'About 71% of Earth is water; 1 light-year ≈ 9.46 × 10¹² km.',
      'About 71 percent of Earth is water; 1 light-year approximately 9.46 times 10 to the power of 12 kilometers.',
    ],
    [
      'It spins at 1 km/h ± 0.5 km/h, 23.4° tilted, 1.0 m/s, 10⁻³ of 3x10^8 m/s.',
      'It spins at 1 kilometer per hour plus or minus 0.5 kilometers per hour, 23.4 degrees tilted, ' +
        '1.0 meters per second, 10 to the power of minus 3 of 3 times 10 to the power of 8 meters per second.',
    ],
    [
      'The Sun is 150 million km away: 1 AU, 8 M☉.',
      'The Sun is 150 million kilometers away: 1 astronomical unit, 8 solar masses.',
    ],
    ['M31, CO2, 5 moons, the 1960s, 2 kmh.', 'M31, CO2, 5 moons, the 1960s, 2 kmh.'],
  ],
  'es-ES': [
    [
      'La luz recorre 300.000 km/s y 1 km en un instante.',
      'La luz recorre 300.000 kilómetros por segundo y 1 kilómetro en un instante.',
    ],
    [
      'Betelgeuse está a ~550 ly y a 3.500 K.',
      'Betelgeuse está a alrededor de 550 años luz y a 3.500 kelvins.',
    ],
    [
      'Marte: -63 °C, 1,52 AU, 6,4e23 kg.',
      'Marte: -63 grados Celsius, 1,52 unidades astronómicas, 6,4 por 10 elevado a 23 kilogramos.',
    ],
    [
      'El 71% de la Tierra es agua; ≈ 9,46 × 10^12 km.',
      'El 71 por ciento de la Tierra es agua; aproximadamente 9,46 por 10 elevado a 12 kilómetros.',
    ],
    [
      'Está a 1.000.000 km, 1 AU, 150 millones de km.',
      'Está a 1.000.000 de kilómetros, 1 unidad astronómica, 150 millones de kilómetros.',
    ],
  ],
  'pt-BR': [
    [
      'A luz percorre 300.000 km/s e 1 km num instante.',
      'A luz percorre 300.000 quilômetros por segundo e 1 quilômetro num instante.',
    ],
    ['Betelgeuse está a ~550 ly e a 3.500 K.', 'Betelgeuse está a cerca de 550 anos-luz e a 3.500 kelvins.'],
    ['Marte: -63 °C, 1,5 km, 2 km.', 'Marte: -63 graus Celsius, 1,5 quilômetro, 2 quilômetros.'],
    [
      '71% da Terra é água; ≈ 9,46 × 10^12 km.',
      '71 por cento da Terra é água; aproximadamente 9,46 vezes 10 elevado a 12 quilômetros.',
    ],
    ['Fica a 1.000.000 km.', 'Fica a 1.000.000 de quilômetros.'],
  ],
  'fr-FR': [
    [
      'La lumière parcourt 300 000 km/s et 1 km en un éclair.',
      'La lumière parcourt 300 000 kilomètres par seconde et 1 kilomètre en un éclair.',
    ],
    [
      'Bételgeuse est à ~550 ly et à 3 500 K.',
      'Bételgeuse est à environ 550 années-lumière et à 3 500 kelvins.',
    ],
    ['Mars : -63 °C, 1,52 UA, 1,5 km.', 'Mars : -63 degrés Celsius, 1,52 unité astronomique, 1,5 kilomètre.'],
    [
      '71 % de la Terre est de l’eau ; ≈ 9,46 × 10^12 km.',
      '71 pour cent de la Terre est de l’eau ; environ 9,46 fois 10 puissance 12 kilomètres.',
    ],
    ['Elle est à 1 000 000 km.', 'Elle est à 1 000 000 de kilomètres.'],
  ],
  'de-DE': [
    [
      'Licht legt 300.000 km/s zurück, 1 km im Nu.',
      'Licht legt 300.000 Kilometer pro Sekunde zurück, 1 Kilometer im Nu.',
    ],
    [
      'Beteigeuze ist ~550 ly entfernt und 3.500 K kühl.',
      'Beteigeuze ist etwa 550 Lichtjahre entfernt und 3.500 Kelvin kühl.',
    ],
    [
      'Mars: -63 °C, 1,52 AE, 1 ly, 2 ly.',
      'Mars: -63 Grad Celsius, 1,52 Astronomische Einheiten, 1 Lichtjahr, 2 Lichtjahre.',
    ],
    [
      '71 % der Erde sind Wasser; ≈ 9,46 × 10^12 km.',
      '71 Prozent der Erde sind Wasser; ungefähr 9,46 mal 10 hoch 12 Kilometer.',
    ],
    ['1 M☉ und 8 M☉.', '1 Sonnenmasse und 8 Sonnenmassen.'],
  ],
  'it-IT': [
    [
      'La luce percorre 300.000 km/s e 1 km in un lampo.',
      'La luce percorre 300.000 chilometri al secondo e 1 chilometro in un lampo.',
    ],
    ['Betelgeuse è a ~550 ly e a 3.500 K.', 'Betelgeuse è a circa 550 anni luce e a 3.500 kelvin.'],
    [
      'Marte: -63 °C, 1,52 AU, 1 ly, 2 ly.',
      'Marte: -63 gradi Celsius, 1,52 unità astronomiche, 1 anno luce, 2 anni luce.',
    ],
    [
      'Il 71% della Terra è acqua; ≈ 9,46 × 10^12 km.',
      'Il 71 per cento della Terra è acqua; circa 9,46 per 10 elevato alla 12 chilometri.',
    ],
    ['È a 1.000.000 km.', 'È a 1.000.000 di chilometri.'],
  ],
  'ar-SA': [
    ['يقطع الضوء 300,000 km/s و 1 km في لحظة.', 'يقطع الضوء 300,000 كيلومتر في الثانية و 1 كيلومتر في لحظة.'],
    ['يبعد منكب الجوزاء ~550 ly.', 'يبعد منكب الجوزاء حوالي 550 سنةً ضوئية.'],
    [
      // 3–10 take the plural, 11–99 the singular accusative, 100 the singular.
      'المريخ: -63 °C و 3 km و 11 km و 100 km و ٥ km.',
      'المريخ: -63 درجةً مئوية و 3 كيلومترات و 11 كيلومترًا و 100 كيلومتر و ٥ كيلومترات.',
    ],
    ['71% من الأرض ماء؛ ≈ 9.46 × 10^12 km.', '71 بالمئة من الأرض ماء؛ حوالي 9.46 ضرب 10 أس 12 كيلومتر.'],
  ],
  'zh-CN': [
    ['光速是300,000 km/s，1 km只要一瞬间。', '光速是每秒300,000公里，1公里只要一瞬间。'],
    ['参宿四距离我们~550 ly，温度3,500 K。', '参宿四距离我们约550光年，温度3,500开尔文。'],
    ['火星：-63 °C，1.52 AU。', '火星：-63摄氏度，1.52天文单位。'],
    ['地球71%是水；≈ 9.46 × 10^12 km。', '地球百分之71是水；约9.46乘以10的12次方公里。'],
    ['质量约8 M☉。', '质量约8倍太阳质量。'],
  ],
  'ja-JP': [
    [
      '光は300,000 km/sで進み、1 kmは一瞬です。',
      '光は秒速300,000キロメートルで進み、1キロメートルは一瞬です。',
    ],
    ['ベテルギウスは~550 ly先にあり、3,500 Kです。', 'ベテルギウスは約550光年先にあり、3,500ケルビンです。'],
    ['火星：-63 °C、1.52 AU。', '火星：摂氏-63度、1.52天文単位。'],
    [
      '地球の71%は水です；≈ 9.46 × 10^12 km。',
      '地球の71パーセントは水です；約9.46かける10の12乗キロメートル。',
    ],
    ['質量は8 M☉、5000万kmです。', '質量は太陽質量の8倍、5000万キロメートルです。'],
  ],
  'he-IL': [
    ['האור עובר 300,000 km/s, ו-1 km ברגע.', 'האור עובר 300,000 קילומטרים לשנייה, ו-1 קילומטר ברגע.'],
    ['בטלגז נמצא במרחק ~550 ly ו-3,500 K.', 'בטלגז נמצא במרחק בערך 550 שנות אור ו-3,500 קלווין.'],
    ['מאדים: -63 °C, 1.52 AU, 2 km.', 'מאדים: -63 מעלות צלזיוס, 1.52 יחידות אסטרונומיות, 2 קילומטרים.'],
    [
      '71% מכדור הארץ הם מים; ≈ 9.46 × 10^12 km.',
      '71 אחוזים מכדור הארץ הם מים; בערך 9.46 כפול 10 בחזקת 12 קילומטרים.',
    ],
    ['מסה של 1 M☉.', 'מסה של 1 מסת שמש.'],
  ],
};

describe.each(LOCALES.map((locale) => [locale] as const))(
  'symbols and units spoken as words in %s',
  (locale) => {
    it.each(SPOKEN[locale].map(([shown, spoken]) => [shown, spoken] as const))('%s', (shown, spoken) => {
      expect(speakableText(shown, locale)).toBe(spoken);
    });
  },
);

describe('markdown is never spoken', () => {
  it.each([
    ['**Saturn** has *many* rings * indeed', 'Saturn has many rings indeed'],
    ['# The Sun\nIt is a star.', 'The Sun. It is a star.'],
    ['## What is a comet? ##', 'What is a comet?'],
    ['> A *star*, not a _planet_.', 'A star, not a planet.'],
    ['The planets:\n- Mercury\n* Venus\n+ Earth', 'The planets: Mercury. Venus. Earth.'],
    ['1. Find Orion\n2) Look left', 'Find Orion. Look left.'],
    [
      'See [NASA](https://nasa.gov/sun) and ![the Sun in ultraviolet](sun.png).',
      'See NASA and the Sun in ultraviolet.',
    ],
    ['Type `M31` or [this][ref].', 'Type M31 or this.'],
    ['```python\nprint("stars")\n```', 'print("stars")'],
    ['Stars\n\n---\n\n***\nend', 'Stars end'],
    ['| Body | Moons |\n|:--|--:|\n| Mars | 2 |', 'Body, Moons. Mars, 2.'],
    ['~~Pluto is a planet~~ <b>Pluto</b> is a __dwarf__ planet', 'Pluto is a planet Pluto is a dwarf planet'],
    ['#stars a|b c~d > e', 'stars a b c d e'],
    ['3*10^8 m/s', '3 times 10 to the power of 8 meters per second'],
  ])('%j', (shown, spoken) => {
    expect(speakableText(shown, 'en-US')).toBe(spoken);
  });

  it.each([
    // Line breaks of every platform.
    ['# Sun\rIt shines', 'Sun. It shines'],
    ['# Sun\r\nIt shines', 'Sun. It shines'],
    // A table row starts and ends with a bar, wherever the spaces are; its empty cells are not said.
    ['Mars | 2 |', 'Mars 2'],
    ['| Mars | 2 | moons', 'Mars 2 moons'],
    ['  | Mars |  | 2 |  ', 'Mars, 2.'],
    // An empty list item says nothing; an item's trailing spaces do not come before its full stop.
    ['Stars\n- \nend', 'Stars end'],
    ['- Mars  \n- Venus', 'Mars. Venus.'],
    // A stray mark after a question keeps the question's own pause.
    ['- Is it Mars?~', 'Is it Mars?'],
    ['- Is it~ Mars?~', 'Is it Mars?'],
    ['- Is it Mars?__', 'Is it Mars?'],
    // Tags are a pause, code marks nothing.
    ['a<br>b', 'a b'],
    ['See <a href="https://nasa.gov">Mars</a>now.', 'See Mars now.'],
    ['Type `M31`, or ``a`b``.', 'Type M31, or ab.'],
    ['a ```js b', 'a js b'],
    // Emphasis underscores go, even before punctuation; the ones inside a word part it.
    ['(__Mars__) and _Venus_.', '(Mars) and Venus.'],
    ['snake_case, snake__case', 'snake case, snake case'],
    ['3 * 10^8 m/s', '3 times 10 to the power of 8 meters per second'],
  ])('%j', (shown, spoken) => {
    expect(speakableText(shown, 'en-US')).toBe(spoken);
  });

  it('ends headings and list items with the language’s own full stop', () => {
    expect(speakableText('## 太陽\n- 恒星\n- 大きい', 'ja-JP')).toBe('太陽。 恒星。 大きい。');
    // Asterisks are emphasis on screen, never read aloud (docs/behaviour.md §5.5), stray ones included.
    expect(speakableText('**Saturn** has *many* rings * indeed', 'en-US')).toBe(
      'Saturn has many rings indeed',
    );
    expect(speakableText('## Le Soleil\n- une étoile', 'fr-FR')).toBe('Le Soleil. une étoile.');
  });
});

describe('symbols and numbers, rule by rule', () => {
  it.each([
    // The minus sign a voice may not read, and raised exponents with their signs.
    ['It is −5 °C.', 'en-US', 'It is -5 degrees Celsius.'],
    ['10⁻³ m, 10⁺² m', 'en-US', '10 to the power of minus 3 meters, 10 to the power of 2 meters'],
    ['10^+3 km', 'en-US', '10 to the power of 3 kilometers'],
    // Symbols between words, with or without spaces, in the language's words and spacing.
    ['x×y, x ≈ y, x±y', 'en-US', 'x times y, x approximately y, x plus or minus y'],
    ['x×y, x≈y, x±y', 'ja-JP', 'xかけるy, x約y, xプラスマイナスy'],
    ['x×y, x≈y', 'fr-FR', 'x fois y, x environ y'],
    // A measurement with its error takes the plural of what it measures.
    ['1.5 ± 0.2 km', 'en-US', '1.5 plus or minus 0.2 kilometers'],
    // One times a power of ten, to a power or in millions is many kilometres, never one.
    [
      '1 × 10^3 km, 1e3 km, 1^2 km, 1 million km',
      'en-US',
      '1 times 10 to the power of 3 kilometers, ' +
        '1 times 10 to the power of 3 kilometers, 1 to the power of 2 kilometers, 1 million kilometers',
    ],
    ['1 km', 'en-US', '1 kilometer'],
  ] as const)('%j in %s', (shown, locale, spoken) => {
    expect(speakableText(shown, locale)).toBe(spoken);
  });

  // The plural of a written number: which mark is the decimal point decides one, few, many or other.
  it.each([
    // Eastern Arabic and Persian digits count as digits (Arabic: 5 is "few", 1.005 "other").
    ['۵ km', 'ar-SA', '۵ كيلومترات'],
    ['٥ km', 'ar-SA', '٥ كيلومترات'],
    // Arabic writes 1,005 (a thousand and five: "few") and 1.005 (one and a bit: "other").
    ['1,005 km', 'ar-SA', '1,005 كيلومترات'],
    ['1.005 km', 'ar-SA', '1.005 كيلومتر'],
    ['15 km', 'ar-SA', '15 كيلومترًا'],
    ['1,5 km', 'ar-SA', '1,5 كيلومتر'],
    // Both marks: the last is the decimal point (1000.5 is "other", not 10005, "few").
    ['1,000.5 km', 'ar-SA', '1,000.5 كيلومتر'],
    // French groups with a point: 1.000 is a thousand ("other"), 1,000 is one ("one").
    ['1.000 km', 'fr-FR', '1.000 kilomètres'],
    ['1,000 km', 'fr-FR', '1,000 kilomètre'],
    // A million in Spanish takes "de", however its thousands are grouped.
    ['1,000,000 km', 'es-ES', '1,000,000 de kilómetros'],
    ['1.000.000 km', 'es-ES', '1.000.000 de kilómetros'],
  ] as const)('%j in %s', (shown, locale, spoken) => {
    expect(speakableText(shown, locale)).toBe(spoken);
  });
});

describe('where a sentence may not be cut', () => {
  it('keeps each number with its exponent and unit', () => {
    expect(unbreakableSpans('It is 5 km. Go 10^3 m.')).toEqual([
      [6, 10],
      [15, 21],
    ]);
    expect(unbreakableSpans('No numbers here.')).toEqual([]);
  });
});

/** Whitespace between sentences is the voice's business, not the words'. */
const words = (text: string) => text.replace(/\s+/g, '');

const REPLIES: Readonly<Record<Locale, string>> = {
  'en-US':
    '## **Betelgeuse**\nIt is ~550 ly away. Its surface is 3,500 K!\n- Radius: 1,000 × 10^6 km\n- See [M42](https://x.org)',
  'es-ES':
    '## **Betelgeuse**\nEstá a ~550 ly. ¡Su superficie está a 3.500 K!\n- Radio: 1,2 × 10^9 km\n- Mira `M42`',
  'pt-BR':
    '## **Betelgeuse**\nEstá a ~550 ly. Sua superfície tem 3.500 K!\n- Raio: 1,2 × 10^9 km\n- Veja M42',
  'fr-FR':
    '## **Bételgeuse**\nElle est à ~550 ly. Sa surface est à 3 500 K !\n- Rayon : 1,2 × 10^9 km\n- Voir M42',
  'de-DE':
    '## **Beteigeuze**\nSie ist ~550 ly entfernt. Ihre Oberfläche hat 3.500 K!\n- Radius: 1,2 × 10^9 km',
  'it-IT': '## **Betelgeuse**\nÈ a ~550 ly. La sua superficie è a 3.500 K!\n- Raggio: 1,2 × 10^9 km',
  'ar-SA': '## **منكب الجوزاء**\nيبعد ~550 ly. سطحه 3,500 K!\n- نصف القطر: 1.2 × 10^9 km',
  'zh-CN': '## **参宿四**\n它距离我们约550 ly。表面温度3,500 K！\n- 半径：1.2 × 10^9 km',
  'ja-JP': '## **ベテルギウス**\n約550 ly先にあります。表面は3,500 Kです！\n- 半径：1.2 × 10^9 km',
  'he-IL': '## **בטלגז**\nהוא במרחק ~550 ly. פני השטח שלו 3,500 K!\n- רדיוס: 1.2 × 10^9 km',
};

describe('sentence by sentence, as a reply streams', () => {
  it.each(LOCALES.map((locale) => [locale] as const))(
    'says in %s what the whole reply says, however the reply arrives',
    (locale) => {
      const reply = REPLIES[locale];
      const whole = speakableText(reply, locale);
      expect(whole).not.toMatch(/[*#`[\]]|\bly\b|\bkm\b| K\b/);
      const bySentence = sentencesOf(reply, locale).map((sentence) => speakableText(sentence, locale));
      expect(bySentence.length).toBeGreaterThan(2);
      expect(words(bySentence.join(''))).toBe(words(whole));
      for (const size of [1, 3, 7]) {
        const cutter = new SentenceCutter(locale);
        const sentences: string[] = [];
        for (let at = 0; at < reply.length; at += size)
          sentences.push(...cutter.push(reply.slice(at, at + size)));
        sentences.push(...cutter.flush());
        expect(words(sentences.map((sentence) => speakableText(sentence, locale)).join(''))).toBe(
          words(whole),
        );
      }
    },
  );
});
