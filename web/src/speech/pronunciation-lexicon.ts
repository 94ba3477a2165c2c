import type { Locale } from '#contract/languages';

/**
 * Astronomy names voices get wrong, and how to say them in each conversation language
 * (docs/behaviour.md §17.8). Plain data; `pronunciation.ts` finds the names in a sentence.
 *
 * - `en`: the name as English (and most international) text writes it; matched in every language.
 * - `written`: how each other language writes it, when differently (its own script for ar, he, ja, zh).
 * - `ipa`: how it is said, in the phone set of that locale's Azure voice (only the phones its table lists;
 *   a phone the voice does not know makes the service refuse the whole sentence). Words are separated by
 *   a space, one per written word.
 * - `pinyin`: Chinese names with a character of several readings (参 shēn, 宿 xiù, 伽 jiā), in Azure's
 *   `sapi` pinyin.
 * - `readings`: Japanese spellings a voice may misread (kanji), with the kana to say instead.
 * - `alias`: how to spell it so the browser's own voice says it right ("Beetle juice").
 */
export interface NameEntry {
  readonly id: string;
  readonly en: readonly string[];
  readonly written: Readonly<Partial<Record<Locale, readonly string[]>>>;
  readonly ipa: Readonly<Partial<Record<IpaLocale, string>>> & {
    readonly 'en-US': string;
    readonly 'es-ES': string;
  };
  readonly pinyin?: string;
  readonly readings?: Readonly<Record<string, string>>;
  readonly alias: Readonly<Partial<Record<Locale, string>>> & { readonly 'en-US': string };
}

/** The locales whose Azure voice takes `<phoneme alphabet="ipa">` (their phone sets are IPA based). */
export const IPA_LOCALES = ['en-US', 'es-ES', 'pt-BR', 'fr-FR', 'de-DE', 'it-IT'] as const;
export type IpaLocale = (typeof IPA_LOCALES)[number];

/** "M31", "M 42": a Messier object, spoken as "Messier 31" (the `messier` entry says "Messier"). */
export const MESSIER_NUMBER = /(?<![\p{Script=Latin}\p{N}])M ?(1[01]0|[1-9]\d?)(?![\p{Script=Latin}\p{N}])/gu;

interface Spellings {
  readonly es?: string;
  readonly pt?: string;
  readonly fr?: string;
  readonly de?: string;
  readonly it?: string;
  readonly ar: string | readonly string[];
  readonly he: string | readonly string[];
  readonly ja: string | readonly string[];
  readonly zh: string | readonly string[];
}

const list = (value: string | readonly string[] | undefined): readonly string[] | undefined =>
  value === undefined ? undefined : typeof value === 'string' ? [value] : value;

function name(
  id: string,
  en: string | readonly string[],
  ipa: NameEntry['ipa'],
  alias: string,
  spellings: Spellings,
  extra: Pick<NameEntry, 'pinyin' | 'readings'> = {},
): NameEntry {
  const written: Partial<Record<Locale, readonly string[]>> = {};
  const byLocale: ReadonlyArray<readonly [Locale, string | readonly string[] | undefined]> = [
    ['es-ES', spellings.es],
    ['pt-BR', spellings.pt],
    ['fr-FR', spellings.fr],
    ['de-DE', spellings.de],
    ['it-IT', spellings.it],
    ['ar-SA', spellings.ar],
    ['he-IL', spellings.he],
    ['ja-JP', spellings.ja],
    ['zh-CN', spellings.zh],
  ];
  for (const [locale, spelled] of byLocale) {
    const forms = list(spelled);
    if (forms) written[locale] = forms;
  }
  return { id, en: list(en) ?? [], written, ipa, alias: { 'en-US': alias }, ...extra };
}

export const LEXICON: readonly NameEntry[] = [
  // ---- bright stars ----
  name(
    'betelgeuse',
    'Betelgeuse',
    { 'en-US': 'ˈbitəldʒuz', 'es-ES': 'betelˈxeuse' },
    'Beetle juice',
    {
      fr: 'Bételgeuse',
      de: 'Beteigeuze',
      ar: ['بيت الجوزاء', 'منكب الجوزاء', 'يد الجوزاء'],
      he: 'בטלגז',
      ja: 'ベテルギウス',
      zh: '参宿四',
    },
    { pinyin: 'shen 1 - xiu 4 - si 4' },
  ),
  name('sirius', 'Sirius', { 'en-US': 'ˈsɪɹiəs', 'es-ES': 'ˈsiɾjo' }, 'Seer ee us', {
    es: 'Sirio',
    pt: 'Sírius',
    it: 'Sirio',
    ar: ['الشعرى اليمانية', 'الشعرى'],
    he: 'סיריוס',
    ja: 'シリウス',
    zh: '天狼星',
  }),
  name(
    'aldebaran',
    'Aldebaran',
    { 'en-US': 'ælˈdɛbəɹən', 'es-ES': 'aldebaˈɾan' },
    'Al debb a ran',
    {
      es: 'Aldebarán',
      ar: 'الدبران',
      he: 'אלדבראן',
      ja: 'アルデバラン',
      zh: '毕宿五',
    },
    { pinyin: 'bi 4 - xiu 4 - wu 3' },
  ),
  name(
    'proxima-centauri',
    'Proxima Centauri',
    { 'en-US': 'ˈpɹɑksɪmə sɛnˈtɔɹaɪ', 'es-ES': 'ˈpɾoksima θenˈtawɾi' },
    'Proxima Sen tor eye',
    {
      es: 'Próxima Centauri',
      pt: 'Próxima Centauri',
      fr: 'Proxima du Centaure',
      ar: 'بروكسيما قنطورس',
      he: 'פרוקסימה קנטאורי',
      ja: 'プロキシマ・ケンタウリ',
      zh: '比邻星',
    },
  ),
  name(
    'rigel',
    'Rigel',
    { 'en-US': 'ˈɹaɪdʒəl', 'es-ES': 'ˈrixel' },
    'Rye jel',
    {
      ar: ['رجل الجبار', 'ريجل'],
      he: 'ריגל',
      ja: 'リゲル',
      zh: '参宿七',
    },
    { pinyin: 'shen 1 - xiu 4 - qi 1' },
  ),
  name('vega', 'Vega', { 'en-US': 'ˈvigə', 'es-ES': 'ˈbega' }, 'Vee ga', {
    fr: 'Véga',
    ar: ['النسر الواقع', 'فيغا'],
    he: 'וגה',
    ja: 'ベガ',
    zh: '织女星',
  }),
  name(
    'arcturus',
    'Arcturus',
    { 'en-US': 'ɑɹkˈtʊɹəs', 'es-ES': 'aɾˈtuɾo' },
    'Ark toor us',
    {
      es: 'Arturo',
      de: 'Arktur',
      it: 'Arturo',
      ar: 'السماك الرامح',
      he: 'ארקטורוס',
      ja: 'アークトゥルス',
      zh: '大角星',
    },
    { pinyin: 'da 4 - jiao 3 - xing 1' },
  ),
  name('polaris', 'Polaris', { 'en-US': 'pəˈlɛɹɪs', 'es-ES': 'poˈlaɾis' }, 'Po lair iss', {
    ar: 'النجم القطبي',
    he: 'פולאריס',
    ja: 'ポラリス',
    zh: '北极星',
  }),
  name(
    'antares',
    'Antares',
    { 'en-US': 'ænˈtɛɹiz', 'es-ES': 'anˈtaɾes' },
    'An tair eez',
    {
      ar: 'قلب العقرب',
      he: 'אנטארס',
      ja: 'アンタレス',
      zh: '心宿二',
    },
    { pinyin: 'xin 1 - xiu 4 - er 4' },
  ),
  name('canopus', 'Canopus', { 'en-US': 'kəˈnoʊpəs', 'es-ES': 'kaˈnopo' }, 'Ka no pus', {
    es: 'Canopo',
    it: 'Canopo',
    ar: 'سهيل',
    he: 'קנופוס',
    ja: 'カノープス',
    zh: '老人星',
  }),
  name('deneb', 'Deneb', { 'en-US': 'ˈdɛnɛb', 'es-ES': 'ˈdeneb' }, 'Den ebb', {
    ar: 'ذنب الدجاجة',
    he: 'דנב',
    ja: 'デネブ',
    zh: '天津四',
  }),
  name('altair', 'Altair', { 'en-US': 'ˈæltɛɹ', 'es-ES': 'altaˈiɾ' }, 'Al tair', {
    ar: 'النسر الطائر',
    he: 'אלטאיר',
    ja: 'アルタイル',
    zh: ['牛郎星', '河鼓二'],
  }),

  // ---- the Pleiades (M45) and their stars ----
  name(
    'pleiades',
    'Pleiades',
    { 'en-US': 'ˈpliədiz', 'es-ES': 'ˈplejades' },
    'Plee a deez',
    {
      es: 'Pléyades',
      pt: 'Plêiades',
      fr: 'Pléiades',
      de: 'Plejaden',
      it: 'Pleiadi',
      ar: 'الثريا',
      he: 'כימה',
      ja: ['プレアデス', '昴', 'すばる'],
      zh: '昴星团',
    },
    { pinyin: 'mao 3 - xing 1 - tuan 2', readings: { 昴: 'すばる' } },
  ),
  name(
    'alcyone',
    'Alcyone',
    { 'en-US': 'ælˈsaɪəni', 'es-ES': 'alˈθione' },
    'Al sigh o nee',
    {
      es: 'Alcíone',
      de: 'Alkyone',
      it: 'Alcione',
      ar: 'الكيوني',
      he: 'אלקיוני',
      ja: 'アルキオネ',
      zh: '昴宿六',
    },
    { pinyin: 'mao 3 - xiu 4 - liu 4' },
  ),
  name(
    'maia',
    'Maia',
    { 'en-US': 'ˈmaɪə', 'es-ES': 'ˈmaja' },
    'My a',
    {
      ar: 'مايا',
      he: 'מאיה',
      ja: 'マイア',
      zh: '昴宿四',
    },
    { pinyin: 'mao 3 - xiu 4 - si 4' },
  ),
  name(
    'electra',
    'Electra',
    { 'en-US': 'ɪˈlɛktɹə', 'es-ES': 'eˈlektɾa' },
    'Ee lek tra',
    {
      fr: 'Électre',
      de: 'Elektra',
      it: 'Elettra',
      ar: 'إلكترا',
      he: 'אלקטרה',
      ja: 'エレクトラ',
      zh: '昴宿一',
    },
    { pinyin: 'mao 3 - xiu 4 - yi 1' },
  ),
  name(
    'merope',
    'Merope',
    { 'en-US': 'ˈmɛɹəpi', 'es-ES': 'ˈmeɾope' },
    'Merr o pee',
    {
      es: 'Mérope',
      fr: 'Mérope',
      ar: 'ميروبي',
      he: 'מרופה',
      ja: 'メローペ',
      zh: '昴宿五',
    },
    { pinyin: 'mao 3 - xiu 4 - wu 3' },
  ),
  name(
    'taygeta',
    'Taygeta',
    { 'en-US': 'teɪˈɪdʒɪtə', 'es-ES': 'taˈixeta' },
    'Tay idge eh ta',
    {
      fr: 'Taygète',
      ar: 'تايجيتا',
      he: 'טייגטה',
      ja: 'タイゲタ',
      zh: '昴宿二',
    },
    { pinyin: 'mao 3 - xiu 4 - er 4' },
  ),
  name('celaeno', 'Celaeno', { 'en-US': 'sɪˈlinoʊ', 'es-ES': 'θeˈleno' }, 'Sell ee no', {
    es: 'Celeno',
    fr: 'Céléno',
    it: 'Celeno',
    ar: 'سيلينو',
    he: 'קלאינו',
    ja: 'ケラエノ',
    zh: '克莱诺',
  }),
  name(
    'sterope',
    'Sterope',
    { 'en-US': 'ˈstɛɹəpi', 'es-ES': 'esˈteɾope' },
    'Sterr o pee',
    {
      es: 'Estérope',
      ar: 'ستيروبي',
      he: 'סטרופה',
      ja: 'ステロペ',
      zh: '昴宿三',
    },
    { pinyin: 'mao 3 - xiu 4 - san 1' },
  ),
  name('asterope', 'Asterope', { 'en-US': 'əˈstɛɹəpi', 'es-ES': 'asˈteɾope' }, 'A sterr o pee', {
    es: 'Astérope',
    fr: 'Astérope',
    ar: 'أستيروبي',
    he: 'אסטרופה',
    ja: 'アステロペ',
    zh: '阿斯特罗佩',
  }),
  name(
    'atlas',
    'Atlas',
    { 'en-US': 'ˈætləs', 'es-ES': 'ˈatlas' },
    'At lus',
    {
      it: 'Atlante',
      ar: 'أطلس',
      he: 'אטלס',
      ja: 'アトラス',
      zh: '昴宿七',
    },
    { pinyin: 'mao 3 - xiu 4 - qi 1' },
  ),
  name('pleione', 'Pleione', { 'en-US': 'ˈplaɪəni', 'es-ES': 'pleˈjone' }, 'Ply o nee', {
    fr: 'Pléioné',
    ar: 'بليوني',
    he: 'פלייוני',
    ja: 'プレイオネ',
    zh: '普勒俄涅',
  }),

  // ---- Messier and his objects (M31 is said "Messier 31": MESSIER_NUMBER) ----
  name('messier', 'Messier', { 'en-US': 'ˈmɛsieɪ', 'es-ES': 'meˈsje' }, 'Messy ay', {
    ar: 'ميسييه',
    he: 'מסייה',
    ja: 'メシエ',
    zh: '梅西耶',
  }),
  name('andromeda', 'Andromeda', { 'en-US': 'ænˈdɹɑmɪdə', 'es-ES': 'anˈdɾomeda' }, 'An drom eh da', {
    es: 'Andrómeda',
    pt: 'Andrômeda',
    fr: 'Andromède',
    ar: 'أندروميدا',
    he: 'אנדרומדה',
    ja: 'アンドロメダ',
    zh: '仙女座',
  }),
  name('orion', 'Orion', { 'en-US': 'əˈɹaɪən', 'es-ES': 'oˈɾjon' }, 'O rye un', {
    es: 'Orión',
    pt: 'Órion',
    it: 'Orione',
    ar: 'الجبار',
    he: 'אוריון',
    ja: 'オリオン',
    zh: '猎户座',
  }),

  // ---- planets and moons often mispronounced ----
  name('uranus', 'Uranus', { 'en-US': 'ˈjʊɹənəs', 'es-ES': 'uˈɾano' }, 'Your a nus', {
    es: 'Urano',
    pt: 'Urano',
    it: 'Urano',
    ar: 'أورانوس',
    he: 'אורנוס',
    ja: '天王星',
    zh: '天王星',
  }),
  name('io', 'Io', { 'en-US': 'ˈaɪoʊ', 'es-ES': 'ˈio' }, 'Eye oh', {
    es: 'Ío',
    ar: 'آيو',
    he: 'איו',
    ja: 'イオ',
    zh: '木卫一',
  }),
  name('titania', 'Titania', { 'en-US': 'tɪˈtɑniə', 'es-ES': 'tiˈtanja' }, 'Tih tah nee a', {
    ar: 'تيتانيا',
    he: 'טיטניה',
    ja: 'チタニア',
    zh: '天卫三',
  }),
  name('oberon', 'Oberon', { 'en-US': 'ˈoʊbəɹɑn', 'es-ES': 'obeˈɾon' }, 'Oh ber on', {
    es: 'Oberón',
    ar: 'أوبيرون',
    he: 'אוברון',
    ja: 'オベロン',
    zh: '天卫四',
  }),
  name('miranda', 'Miranda', { 'en-US': 'mɪˈɹændə', 'es-ES': 'miˈɾanda' }, 'Mih ran da', {
    ar: 'ميراندا',
    he: 'מירנדה',
    ja: 'ミランダ',
    zh: '天卫五',
  }),
  name('europa', 'Europa', { 'en-US': 'jʊˈɹoʊpə', 'es-ES': 'ewˈɾopa' }, 'You roe pa', {
    ar: 'يوروبا',
    he: 'אירופה',
    ja: 'エウロパ',
    zh: '木卫二',
  }),
  name('ganymede', 'Ganymede', { 'en-US': 'ˈgænɪmid', 'es-ES': 'gaˈnimedes' }, 'Gan ih meed', {
    es: 'Ganímedes',
    pt: 'Ganimedes',
    fr: 'Ganymède',
    de: 'Ganymed',
    it: 'Ganimede',
    ar: 'غانيميد',
    he: 'גנימד',
    ja: 'ガニメデ',
    zh: '木卫三',
  }),
  name('callisto', 'Callisto', { 'en-US': 'kəˈlɪstoʊ', 'es-ES': 'kaˈlisto' }, 'Ka liss toe', {
    es: 'Calisto',
    pt: 'Calisto',
    de: 'Kallisto',
    ar: 'كاليستو',
    he: 'קליסטו',
    ja: 'カリスト',
    zh: '木卫四',
  }),
  name('enceladus', 'Enceladus', { 'en-US': 'ɛnˈsɛlədəs', 'es-ES': 'enˈθelado' }, 'En sell a dus', {
    es: 'Encélado',
    pt: 'Encélado',
    fr: 'Encelade',
    it: 'Encelado',
    ar: 'إنسيلادوس',
    he: 'אנקלדוס',
    ja: 'エンケラドゥス',
    zh: '土卫二',
  }),
  name('triton', 'Triton', { 'en-US': 'ˈtɹaɪtən', 'es-ES': 'tɾiˈton' }, 'Try tun', {
    es: 'Tritón',
    pt: 'Tritão',
    it: 'Tritone',
    ar: 'تريتون',
    he: 'טריטון',
    ja: 'トリトン',
    zh: '海卫一',
  }),
  name('charon', 'Charon', { 'en-US': 'ˈkɛɹən', 'es-ES': 'kaˈɾonte' }, 'Care un', {
    es: 'Caronte',
    pt: 'Caronte',
    it: 'Caronte',
    ar: 'شارون',
    he: 'כארון',
    ja: 'カロン',
    zh: '冥卫一',
  }),
  name('ceres', 'Ceres', { 'en-US': 'ˈsɪɹiz', 'es-ES': 'ˈθeɾes' }, 'Seer eez', {
    fr: 'Cérès',
    ar: 'سيريس',
    he: 'קרס',
    ja: 'ケレス',
    zh: '谷神星',
  }),

  // ---- people ----
  name('copernicus', 'Copernicus', { 'en-US': 'koʊˈpɝnɪkəs', 'es-ES': 'koˈpeɾniko' }, 'Co per nih cus', {
    es: 'Copérnico',
    pt: 'Copérnico',
    fr: 'Copernic',
    de: 'Kopernikus',
    it: 'Copernico',
    ar: 'كوبرنيكوس',
    he: 'קופרניקוס',
    ja: 'コペルニクス',
    zh: '哥白尼',
  }),
  name(
    'chandrasekhar',
    'Chandrasekhar',
    { 'en-US': 'ˌtʃʌndɹəˈʃeɪkɑɹ', 'es-ES': 't͡ʃandɾaseˈkaɾ' },
    'Chun dra shay kar',
    { ar: 'شاندراسيخار', he: "צ'נדראסקאר", ja: 'チャンドラセカール', zh: '钱德拉塞卡' },
  ),
  name('kepler', 'Kepler', { 'en-US': 'ˈkɛplɚ', 'es-ES': 'ˈkepleɾ' }, 'Kep ler', {
    ar: 'كبلر',
    he: 'קפלר',
    ja: 'ケプラー',
    zh: '开普勒',
  }),
  name(
    'galileo',
    'Galileo',
    { 'en-US': 'ˌgælɪˈleɪoʊ', 'es-ES': 'galiˈleo' },
    'Gal ih lay oh',
    {
      pt: 'Galileu',
      fr: 'Galilée',
      de: 'Galilei',
      ar: 'غاليليو',
      he: 'גלילאו',
      ja: 'ガリレオ',
      zh: '伽利略',
    },
    { pinyin: 'jia 1 - li 4 - lue 4' },
  ),
  name(
    'tycho-brahe',
    'Tycho Brahe',
    { 'en-US': 'ˈtaɪkoʊ ˈbɹɑhi', 'es-ES': 'ˈtiko ˈbɾae' },
    'Tie ko Brah hee',
    {
      ar: 'تيخو براهي',
      he: 'טיכו ברהה',
      ja: 'ティコ・ブラーエ',
      zh: '第谷',
    },
  ),
  name('hubble', 'Hubble', { 'en-US': 'ˈhʌbəl', 'es-ES': 'ˈxable' }, 'Hub bul', {
    ar: 'هابل',
    he: 'האבל',
    ja: 'ハッブル',
    zh: '哈勃',
  }),
  name('cassini', 'Cassini', { 'en-US': 'kəˈsini', 'es-ES': 'kaˈsini' }, 'Ka see nee', {
    ar: 'كاسيني',
    he: 'קסיני',
    ja: 'カッシーニ',
    zh: '卡西尼',
  }),
  name('huygens', 'Huygens', { 'en-US': 'ˈhaɪgənz', 'es-ES': 'ˈxujgens' }, 'High gens', {
    ar: 'هويغنز',
    he: 'הויגנס',
    ja: 'ホイヘンス',
    zh: '惠更斯',
  }),
];
