import type { Locale } from '#contract/languages';

/**
 * The words symbols and units are spoken as, in each conversation language (docs/behaviour.md §17.7).
 * Plain data: `speakable.ts` decides where they apply.
 */

/** The units spoken as words after a number. */
export type UnitId =
  | 'kmPerS'
  | 'kmPerH'
  | 'mPerS2'
  | 'mPerS'
  | 'km'
  | 'm'
  | 'kg'
  | 'celsius'
  | 'fahrenheit'
  | 'degree'
  | 'kelvin'
  | 'au'
  | 'ly'
  | 'pc'
  | 'kpc'
  | 'mpc'
  | 'percent'
  | 'solarMass';

/**
 * How each unit is written after a number (touching it or not). A Latin letter or a digit right after
 * one means it is another word: "5 moons", "1960s".
 */
export const UNIT_SYMBOLS: Readonly<Record<string, UnitId>> = {
  'km/s': 'kmPerS',
  'km/h': 'kmPerH',
  'm/s²': 'mPerS2',
  'm/s^2': 'mPerS2',
  'm/s': 'mPerS',
  km: 'km',
  m: 'm',
  kg: 'kg',
  '°C': 'celsius',
  '℃': 'celsius',
  '°F': 'fahrenheit',
  '℉': 'fahrenheit',
  '°': 'degree',
  K: 'kelvin',
  AU: 'au',
  au: 'au',
  UA: 'au',
  AE: 'au',
  ly: 'ly',
  pc: 'pc',
  kpc: 'kpc',
  Mpc: 'mpc',
  '%': 'percent',
  'M☉': 'solarMass',
  'M⊙': 'solarMass',
};

/**
 * A phrase for each plural category of the number before it (Intl.PluralRules); `{n}` is the number.
 * Categories a language does not distinguish fall back to `other`.
 */
export type Forms = Readonly<Partial<Record<Intl.LDMLPluralRule, string>>> & { readonly other: string };

export interface SpokenWords {
  readonly units: Readonly<Record<UnitId, Forms>>;
  /** Between the words of a phrase: a space, or nothing in Chinese and Japanese. */
  readonly gap: string;
  /** `×` between two numbers. */
  readonly times: string;
  /** `10^8`: `{base}` and `{exponent}`. */
  readonly power: string;
  /** `~5`: `{n}`. */
  readonly about: string;
  /** `≈5`: `{n}`. */
  readonly approximately: string;
  readonly plusOrMinus: string;
  /** A negative exponent. */
  readonly minus: string;
  /** Ends a heading or a list item that has no punctuation of its own, so the voice pauses. */
  readonly fullStop: string;
}

/** `{n} one`, `{n} other`, and for languages that say "a million OF kilometres", `{n} <of> other`. */
function words(one: string, other: string, of?: string): Forms {
  const forms: Forms = { one: `{n} ${one}`, other: `{n} ${other}` };
  return of ? { ...forms, many: `{n} ${of} ${other}` } : forms;
}

/** Arabic: 1 and 2 and 100+ take the singular, 3–10 the plural, 11–99 the singular accusative. */
function arabic(singular: string, plural: string, accusative: string): Forms {
  return {
    one: `{n} ${singular}`,
    two: `{n} ${singular}`,
    few: `{n} ${plural}`,
    many: `{n} ${accusative}`,
    other: `{n} ${singular}`,
  };
}

const same = (word: string): Forms => ({ other: `{n} ${word}` });

const EN: SpokenWords = {
  units: {
    kmPerS: words('kilometer per second', 'kilometers per second'),
    kmPerH: words('kilometer per hour', 'kilometers per hour'),
    mPerS2: words('meter per second squared', 'meters per second squared'),
    mPerS: words('meter per second', 'meters per second'),
    km: words('kilometer', 'kilometers'),
    m: words('meter', 'meters'),
    kg: words('kilogram', 'kilograms'),
    celsius: words('degree Celsius', 'degrees Celsius'),
    fahrenheit: words('degree Fahrenheit', 'degrees Fahrenheit'),
    degree: words('degree', 'degrees'),
    kelvin: words('kelvin', 'kelvins'),
    au: words('astronomical unit', 'astronomical units'),
    ly: words('light-year', 'light-years'),
    pc: words('parsec', 'parsecs'),
    kpc: words('kiloparsec', 'kiloparsecs'),
    mpc: words('megaparsec', 'megaparsecs'),
    percent: same('percent'),
    solarMass: words('solar mass', 'solar masses'),
  },
  gap: ' ',
  times: 'times',
  power: '{base} to the power of {exponent}',
  about: 'about {n}',
  approximately: 'approximately {n}',
  plusOrMinus: 'plus or minus',
  minus: 'minus',
  fullStop: '.',
};

const ES: SpokenWords = {
  units: {
    kmPerS: words('kilómetro por segundo', 'kilómetros por segundo', 'de'),
    kmPerH: words('kilómetro por hora', 'kilómetros por hora', 'de'),
    mPerS2: words('metro por segundo al cuadrado', 'metros por segundo al cuadrado', 'de'),
    mPerS: words('metro por segundo', 'metros por segundo', 'de'),
    km: words('kilómetro', 'kilómetros', 'de'),
    m: words('metro', 'metros', 'de'),
    kg: words('kilogramo', 'kilogramos', 'de'),
    celsius: words('grado Celsius', 'grados Celsius', 'de'),
    fahrenheit: words('grado Fahrenheit', 'grados Fahrenheit', 'de'),
    degree: words('grado', 'grados', 'de'),
    kelvin: words('kelvin', 'kelvins', 'de'),
    au: words('unidad astronómica', 'unidades astronómicas', 'de'),
    ly: words('año luz', 'años luz', 'de'),
    pc: words('pársec', 'pársecs', 'de'),
    kpc: words('kilopársec', 'kilopársecs', 'de'),
    mpc: words('megapársec', 'megapársecs', 'de'),
    percent: same('por ciento'),
    solarMass: words('masa solar', 'masas solares', 'de'),
  },
  gap: ' ',
  times: 'por',
  power: '{base} elevado a {exponent}',
  about: 'alrededor de {n}',
  approximately: 'aproximadamente {n}',
  plusOrMinus: 'más o menos',
  minus: 'menos',
  fullStop: '.',
};

const PT: SpokenWords = {
  units: {
    kmPerS: words('quilômetro por segundo', 'quilômetros por segundo', 'de'),
    kmPerH: words('quilômetro por hora', 'quilômetros por hora', 'de'),
    mPerS2: words('metro por segundo ao quadrado', 'metros por segundo ao quadrado', 'de'),
    mPerS: words('metro por segundo', 'metros por segundo', 'de'),
    km: words('quilômetro', 'quilômetros', 'de'),
    m: words('metro', 'metros', 'de'),
    kg: words('quilograma', 'quilogramas', 'de'),
    celsius: words('grau Celsius', 'graus Celsius', 'de'),
    fahrenheit: words('grau Fahrenheit', 'graus Fahrenheit', 'de'),
    degree: words('grau', 'graus', 'de'),
    kelvin: words('kelvin', 'kelvins', 'de'),
    au: words('unidade astronômica', 'unidades astronômicas', 'de'),
    ly: words('ano-luz', 'anos-luz', 'de'),
    pc: words('parsec', 'parsecs', 'de'),
    kpc: words('kiloparsec', 'kiloparsecs', 'de'),
    mpc: words('megaparsec', 'megaparsecs', 'de'),
    percent: same('por cento'),
    solarMass: words('massa solar', 'massas solares', 'de'),
  },
  gap: ' ',
  times: 'vezes',
  power: '{base} elevado a {exponent}',
  about: 'cerca de {n}',
  approximately: 'aproximadamente {n}',
  plusOrMinus: 'mais ou menos',
  minus: 'menos',
  fullStop: '.',
};

const FR: SpokenWords = {
  units: {
    kmPerS: words('kilomètre par seconde', 'kilomètres par seconde', 'de'),
    kmPerH: words('kilomètre par heure', 'kilomètres par heure', 'de'),
    mPerS2: words('mètre par seconde carrée', 'mètres par seconde carrée', 'de'),
    mPerS: words('mètre par seconde', 'mètres par seconde', 'de'),
    km: words('kilomètre', 'kilomètres', 'de'),
    m: words('mètre', 'mètres', 'de'),
    kg: words('kilogramme', 'kilogrammes', 'de'),
    celsius: words('degré Celsius', 'degrés Celsius', 'de'),
    fahrenheit: words('degré Fahrenheit', 'degrés Fahrenheit', 'de'),
    degree: words('degré', 'degrés', 'de'),
    kelvin: words('kelvin', 'kelvins', 'de'),
    au: words('unité astronomique', 'unités astronomiques', 'd’'),
    ly: words('année-lumière', 'années-lumière', 'd’'),
    pc: words('parsec', 'parsecs', 'de'),
    kpc: words('kiloparsec', 'kiloparsecs', 'de'),
    mpc: words('mégaparsec', 'mégaparsecs', 'de'),
    percent: same('pour cent'),
    solarMass: words('masse solaire', 'masses solaires', 'de'),
  },
  gap: ' ',
  times: 'fois',
  power: '{base} puissance {exponent}',
  about: 'environ {n}',
  approximately: 'environ {n}',
  plusOrMinus: 'plus ou moins',
  minus: 'moins',
  fullStop: '.',
};

const DE: SpokenWords = {
  units: {
    kmPerS: same('Kilometer pro Sekunde'),
    kmPerH: same('Kilometer pro Stunde'),
    mPerS2: same('Meter pro Quadratsekunde'),
    mPerS: same('Meter pro Sekunde'),
    km: same('Kilometer'),
    m: same('Meter'),
    kg: same('Kilogramm'),
    celsius: same('Grad Celsius'),
    fahrenheit: same('Grad Fahrenheit'),
    degree: same('Grad'),
    kelvin: same('Kelvin'),
    au: words('Astronomische Einheit', 'Astronomische Einheiten'),
    ly: words('Lichtjahr', 'Lichtjahre'),
    pc: same('Parsec'),
    kpc: same('Kiloparsec'),
    mpc: same('Megaparsec'),
    percent: same('Prozent'),
    solarMass: words('Sonnenmasse', 'Sonnenmassen'),
  },
  gap: ' ',
  times: 'mal',
  power: '{base} hoch {exponent}',
  about: 'etwa {n}',
  approximately: 'ungefähr {n}',
  plusOrMinus: 'plus minus',
  minus: 'minus',
  fullStop: '.',
};

const IT: SpokenWords = {
  units: {
    kmPerS: words('chilometro al secondo', 'chilometri al secondo', 'di'),
    kmPerH: words('chilometro all’ora', 'chilometri all’ora', 'di'),
    mPerS2: words('metro al secondo quadrato', 'metri al secondo quadrato', 'di'),
    mPerS: words('metro al secondo', 'metri al secondo', 'di'),
    km: words('chilometro', 'chilometri', 'di'),
    m: words('metro', 'metri', 'di'),
    kg: words('chilogrammo', 'chilogrammi', 'di'),
    celsius: words('grado Celsius', 'gradi Celsius', 'di'),
    fahrenheit: words('grado Fahrenheit', 'gradi Fahrenheit', 'di'),
    degree: words('grado', 'gradi', 'di'),
    kelvin: same('kelvin'),
    au: words('unità astronomica', 'unità astronomiche', 'di'),
    ly: words('anno luce', 'anni luce', 'di'),
    pc: same('parsec'),
    kpc: same('kiloparsec'),
    mpc: same('megaparsec'),
    percent: same('per cento'),
    solarMass: words('massa solare', 'masse solari', 'di'),
  },
  gap: ' ',
  times: 'per',
  power: '{base} elevato alla {exponent}',
  about: 'circa {n}',
  approximately: 'circa {n}',
  plusOrMinus: 'più o meno',
  minus: 'meno',
  fullStop: '.',
};

const AR: SpokenWords = {
  units: {
    kmPerS: arabic('كيلومتر في الثانية', 'كيلومترات في الثانية', 'كيلومترًا في الثانية'),
    kmPerH: arabic('كيلومتر في الساعة', 'كيلومترات في الساعة', 'كيلومترًا في الساعة'),
    mPerS2: arabic('متر لكل ثانية مربعة', 'أمتار لكل ثانية مربعة', 'مترًا لكل ثانية مربعة'),
    mPerS: arabic('متر في الثانية', 'أمتار في الثانية', 'مترًا في الثانية'),
    km: arabic('كيلومتر', 'كيلومترات', 'كيلومترًا'),
    m: arabic('متر', 'أمتار', 'مترًا'),
    kg: arabic('كيلوغرام', 'كيلوغرامات', 'كيلوغرامًا'),
    celsius: arabic('درجة مئوية', 'درجات مئوية', 'درجةً مئوية'),
    fahrenheit: arabic('درجة فهرنهايت', 'درجات فهرنهايت', 'درجةً فهرنهايت'),
    degree: arabic('درجة', 'درجات', 'درجةً'),
    kelvin: same('كلفن'),
    au: arabic('وحدة فلكية', 'وحدات فلكية', 'وحدةً فلكية'),
    ly: arabic('سنة ضوئية', 'سنوات ضوئية', 'سنةً ضوئية'),
    pc: arabic('فرسخ فلكي', 'فراسخ فلكية', 'فرسخًا فلكيًا'),
    kpc: same('كيلو فرسخ فلكي'),
    mpc: same('ميغا فرسخ فلكي'),
    percent: same('بالمئة'),
    solarMass: arabic('كتلة شمسية', 'كتل شمسية', 'كتلةً شمسية'),
  },
  gap: ' ',
  times: 'ضرب',
  power: '{base} أس {exponent}',
  about: 'حوالي {n}',
  approximately: 'حوالي {n}',
  plusOrMinus: 'زائد أو ناقص',
  minus: 'سالب',
  fullStop: '.',
};

const ZH: SpokenWords = {
  units: {
    kmPerS: { other: '每秒{n}公里' },
    kmPerH: { other: '每小时{n}公里' },
    mPerS2: { other: '{n}米每二次方秒' },
    mPerS: { other: '每秒{n}米' },
    km: { other: '{n}公里' },
    m: { other: '{n}米' },
    kg: { other: '{n}千克' },
    celsius: { other: '{n}摄氏度' },
    fahrenheit: { other: '{n}华氏度' },
    degree: { other: '{n}度' },
    kelvin: { other: '{n}开尔文' },
    au: { other: '{n}天文单位' },
    ly: { other: '{n}光年' },
    pc: { other: '{n}秒差距' },
    kpc: { other: '{n}千秒差距' },
    mpc: { other: '{n}百万秒差距' },
    percent: { other: '百分之{n}' },
    solarMass: { other: '{n}倍太阳质量' },
  },
  gap: '',
  times: '乘以',
  power: '{base}的{exponent}次方',
  about: '约{n}',
  approximately: '约{n}',
  plusOrMinus: '正负',
  minus: '负',
  fullStop: '。',
};

const JA: SpokenWords = {
  units: {
    kmPerS: { other: '秒速{n}キロメートル' },
    kmPerH: { other: '時速{n}キロメートル' },
    mPerS2: { other: '{n}メートル毎秒毎秒' },
    mPerS: { other: '秒速{n}メートル' },
    km: { other: '{n}キロメートル' },
    m: { other: '{n}メートル' },
    kg: { other: '{n}キログラム' },
    celsius: { other: '摂氏{n}度' },
    fahrenheit: { other: '華氏{n}度' },
    degree: { other: '{n}度' },
    kelvin: { other: '{n}ケルビン' },
    au: { other: '{n}天文単位' },
    ly: { other: '{n}光年' },
    pc: { other: '{n}パーセク' },
    kpc: { other: '{n}キロパーセク' },
    mpc: { other: '{n}メガパーセク' },
    percent: { other: '{n}パーセント' },
    solarMass: { other: '太陽質量の{n}倍' },
  },
  gap: '',
  times: 'かける',
  power: '{base}の{exponent}乗',
  about: '約{n}',
  approximately: '約{n}',
  plusOrMinus: 'プラスマイナス',
  minus: 'マイナス',
  fullStop: '。',
};

const HE: SpokenWords = {
  units: {
    kmPerS: words('קילומטר לשנייה', 'קילומטרים לשנייה'),
    kmPerH: words('קילומטר לשעה', 'קילומטרים לשעה'),
    mPerS2: words('מטר לשנייה בריבוע', 'מטרים לשנייה בריבוע'),
    mPerS: words('מטר לשנייה', 'מטרים לשנייה'),
    km: words('קילומטר', 'קילומטרים'),
    m: words('מטר', 'מטרים'),
    kg: words('קילוגרם', 'קילוגרמים'),
    celsius: words('מעלת צלזיוס', 'מעלות צלזיוס'),
    fahrenheit: words('מעלת פרנהייט', 'מעלות פרנהייט'),
    degree: words('מעלה', 'מעלות'),
    kelvin: same('קלווין'),
    au: words('יחידה אסטרונומית', 'יחידות אסטרונומיות'),
    ly: words('שנת אור', 'שנות אור'),
    pc: words('פרסק', 'פרסקים'),
    kpc: words('קילופרסק', 'קילופרסקים'),
    mpc: words('מגה־פרסק', 'מגה־פרסקים'),
    percent: words('אחוז', 'אחוזים'),
    solarMass: words('מסת שמש', 'מסות שמש'),
  },
  gap: ' ',
  times: 'כפול',
  power: '{base} בחזקת {exponent}',
  about: 'בערך {n}',
  approximately: 'בערך {n}',
  plusOrMinus: 'פלוס מינוס',
  minus: 'מינוס',
  fullStop: '.',
};

export const SPOKEN_WORDS: Readonly<Record<Locale, SpokenWords>> = {
  'en-US': EN,
  'es-ES': ES,
  'pt-BR': PT,
  'fr-FR': FR,
  'de-DE': DE,
  'it-IT': IT,
  'ar-SA': AR,
  'zh-CN': ZH,
  'ja-JP': JA,
  'he-IL': HE,
};
