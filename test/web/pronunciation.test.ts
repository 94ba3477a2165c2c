// @vitest-environment jsdom
import { describe, expect, it, vi } from 'vitest';
import { LOCALES, type Locale } from '#contract/languages';
import { ssmlFor } from '#web/speech/ssml';
import { aliased, pronounced } from '#web/speech/pronunciation';
import * as lexicon from '#web/speech/pronunciation-lexicon';
import { IPA_LOCALES, LEXICON, type IpaLocale, type NameEntry } from '#web/speech/pronunciation-lexicon';

// Names said right (docs/behaviour.md §17.8): the SSML Azure gets, and the browser voice's alias spelling.

/**
 * The phones each Azure voice knows (learn.microsoft.com, "SSML phonetic alphabets"): a phone outside its
 * table makes the service refuse the whole sentence. Suprasegmentals: stress, syllable break, length.
 */
const PHONES: Readonly<Partial<Record<IpaLocale, readonly string[]>>> = {
  'en-US': [
    ...['aɪɹ', 'aʊɹ', 'ɪɹ', 'ɛɹ', 'ʊɹ', 'ɔɹ', 'ɑɹ', 'eɪ', 'oʊ', 'aɪ', 'aʊ', 'ɔɪ', 'ju', 'tʃ', 'dʒ'],
    ...['i', 'ɪ', 'ɛ', 'æ', 'ɑ', 'ɔ', 'ʊ', 'u', 'ʌ', 'ə', 'ɝ', 'ɚ', 'w', 'j', 'p', 'b', 't', 'd', 'k', 'g'],
    ...['m', 'n', 'ŋ', 'f', 'v', 'θ', 'ð', 's', 'z', 'ʃ', 'ʒ', 'h', 'l', 'ɹ'],
  ],
  'es-ES': [
    ...['t͡ʃ', 'j͡j', 'a', 'i', 'e', 'o', 'u', 'b', 'd', 'f', 'g', 'j', 'k', 'l', 'ʎ', 'm', 'n', 'ɲ', 'p'],
    ...['ɾ', 'r', 's', 't', 'θ', 'w', 'x'],
  ],
};
const SUPRASEGMENTALS = ['ˈ', 'ˌ', '.', 'ː', '‿'];

/** What is left of `ipa` once its phones are taken from the start, longest first ('' when all known). */
function unknownPhones(ipa: string, phones: readonly string[]): string {
  const known = [...phones, ...SUPRASEGMENTALS].sort((a, b) => b.length - a.length);
  let rest = ipa;
  while (rest !== '') {
    const phone = known.find((candidate) => rest.startsWith(candidate));
    if (!phone) return rest;
    rest = rest.slice(phone.length);
  }
  return '';
}

const ssml = (text: string, locale: Locale) => ssmlFor(pronounced(text, locale), locale);

/** What the voice element holds. */
function voiceBody(document: string): string {
  const match = /<voice name="[^"]*">(.*)<\/voice><\/speak>$/s.exec(document);
  if (!match?.[1]) throw new Error(`no voice element in ${document}`);
  return match[1];
}

function parsed(document: string): Document {
  const xml = new DOMParser().parseFromString(document, 'application/xml');
  expect(xml.getElementsByTagName('parsererror')).toHaveLength(0);
  return xml;
}

/** `<phoneme>` elements for a name, one per written word. */
function phonemeElements(spelling: string, ipa: string): string {
  const sounds = ipa.split(' ');
  return spelling
    .split(' ')
    .map((word, index) => `<phoneme alphabet="ipa" ph="${sounds[index] ?? ''}">${word}</phoneme>`)
    .join(' ');
}

const spellings = (entry: NameEntry, locale: Locale) => [...entry.en, ...(entry.written[locale] ?? [])];

describe('the pronunciation lexicon', () => {
  it('holds the names learners hear most, at least 40', () => {
    expect(LEXICON.length).toBeGreaterThanOrEqual(40);
    const ids = LEXICON.map((entry) => entry.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const id of [
      ...['betelgeuse', 'sirius', 'aldebaran', 'proxima-centauri', 'rigel', 'vega', 'arcturus', 'polaris'],
      ...['antares', 'canopus', 'deneb', 'altair', 'pleiades', 'alcyone', 'maia', 'electra', 'merope'],
      ...['taygeta', 'celaeno', 'sterope', 'asterope', 'atlas', 'pleione', 'messier', 'andromeda', 'orion'],
      ...['uranus', 'io', 'titania', 'oberon', 'miranda', 'europa', 'ganymede', 'callisto', 'enceladus'],
      ...['triton', 'charon', 'ceres', 'copernicus', 'chandrasekhar', 'kepler', 'galileo', 'tycho-brahe'],
      ...['hubble', 'cassini', 'huygens'],
    ]) {
      expect(ids).toContain(id);
    }
  });

  it('writes every IPA in phones the voice of its language knows', () => {
    for (const entry of LEXICON) {
      for (const locale of IPA_LOCALES) {
        const ipa = entry.ipa[locale];
        if (ipa === undefined) continue;
        const phones = PHONES[locale];
        expect(phones, `phone table for ${locale}`).toBeDefined();
        for (const word of ipa.split(' '))
          expect(unknownPhones(word, phones ?? []), `${entry.id} ${locale}`).toBe('');
      }
    }
    // The check can fail: an ASCII apostrophe is not a stress mark, and ɡ (U+0261) is not the table's g.
    expect(unknownPhones("'bitəldʒuz", PHONES['en-US'] ?? [])).not.toBe('');
    expect(unknownPhones('ˈɡælɪˈleɪoʊ', PHONES['en-US'] ?? [])).not.toBe('');
  });

  it('gives each written word of a name its own IPA word', () => {
    for (const entry of LEXICON) {
      for (const locale of IPA_LOCALES) {
        const ipa = entry.ipa[locale];
        if (ipa === undefined) continue;
        for (const spelling of spellings(entry, locale)) {
          expect(spelling.split(' ').length, `${entry.id} ${spelling}`).toBe(ipa.split(' ').length);
        }
      }
    }
  });

  it("writes Chinese readings in Azure's pinyin: syllable, tone 1–5, joined by ' - '", () => {
    const pinyin = LEXICON.flatMap((entry) => (entry.pinyin ? [entry.pinyin] : []));
    expect(pinyin.length).toBeGreaterThan(5);
    for (const reading of pinyin) expect(reading).toMatch(/^[a-z]+ [1-5](?: - [a-z]+ [1-5])*$/);
  });

  it('writes every name in the script of Arabic, Hebrew, Japanese and Chinese', () => {
    const scripts: ReadonlyArray<readonly [Locale, RegExp]> = [
      ['ar-SA', /^[\p{Script=Arabic} ]+$/u],
      ['he-IL', /^[\p{Script=Hebrew} ']+$/u],
      ['ja-JP', /^[\p{Script=Katakana}\p{Script=Hiragana}\p{Script=Han}ー・]+$/u],
      ['zh-CN', /^\p{Script=Han}+$/u],
    ];
    for (const entry of LEXICON) {
      for (const [locale, script] of scripts) {
        expect(entry.written[locale]?.length, `${entry.id} ${locale}`).toBeGreaterThan(0);
        for (const spelling of entry.written[locale] ?? []) expect(spelling).toMatch(script);
      }
    }
  });
});

describe('the lexicon’s own rules', () => {
  it('lets no spelling name two entries in one language', () => {
    for (const locale of LOCALES) {
      const named = new Map<string, string>();
      for (const entry of LEXICON) {
        for (const spelling of spellings(entry, locale)) {
          expect(named.get(spelling) ?? entry.id, `${spelling} in ${locale}`).toBe(entry.id);
          named.set(spelling, entry.id);
        }
      }
    }
  });

  it('gives pinyin only to names with one Chinese spelling, the one it reads', () => {
    for (const entry of LEXICON.filter((candidate) => candidate.pinyin !== undefined)) {
      expect(entry.written['zh-CN'], entry.id).toHaveLength(1);
    }
  });
});

/**
 * The module afresh: each language's pattern of names is built on first use and kept, so a test that
 * checks how names are found builds its own. The lexicon is data, and stays the one already loaded.
 */
async function freshPronunciation() {
  vi.resetModules();
  vi.doMock('#web/speech/pronunciation-lexicon', () => lexicon);
  try {
    return await import('#web/speech/pronunciation');
  } finally {
    vi.doUnmock('#web/speech/pronunciation-lexicon');
  }
}

describe('finding names in a sentence', () => {
  it('cuts a sentence into text and one phoneme per written word, text kept together', async () => {
    const { pronounced } = await freshPronunciation();
    const phoneme = (text: string, ph: string) => ({ kind: 'phoneme', text, alphabet: 'ipa', ph });
    expect(pronounced('Look at Sirius and Proxima Centauri.', 'en-US')).toEqual([
      { kind: 'text', text: 'Look at ' },
      phoneme('Sirius', 'ˈsɪɹiəs'),
      { kind: 'text', text: ' and ' },
      phoneme('Proxima', 'ˈpɹɑksɪmə'),
      { kind: 'text', text: ' ' },
      phoneme('Centauri', 'sɛnˈtɔɹaɪ'),
      { kind: 'text', text: '.' },
    ]);
    // A name said as written is text, one piece with the text around it.
    expect(pronounced('我看见了天津四。', 'zh-CN')).toEqual([{ kind: 'text', text: '我看见了天津四。' }]);
    expect(pronounced('', 'en-US')).toEqual([]);
  });

  it('leaves a name the language has no spelling or IPA for as it is written', async () => {
    const { pronounced, aliased } = await freshPronunciation();
    expect(pronounced('Deneb brille.', 'fr-FR')).toEqual([{ kind: 'text', text: 'Deneb brille.' }]);
    expect(aliased('Deneb brille.', 'fr-FR')).toBe('Deneb brille.');
  });

  it('keeps each of a language’s own spellings, and gives a foreign one the first of them', async () => {
    const { aliased } = await freshPronunciation();
    expect(aliased('牛郎星和河鼓二', 'zh-CN')).toBe('牛郎星和河鼓二');
    expect(aliased('Altair很亮', 'zh-CN')).toBe('牛郎星很亮');
  });

  it('knows where each name is, so no sentence cut falls inside one', async () => {
    const { nameSpans } = await freshPronunciation();
    expect(nameSpans('Sirius and M31 and M 42.', 'en-US')).toEqual([
      [0, 6],
      [11, 14],
      [19, 23],
    ]);
    expect(nameSpans('No names here.', 'en-US')).toEqual([]);
    // The longest spelling first: "Sirius" in Arabic is two words, not the one-word spelling and a word.
    expect(nameSpans('الشعرى اليمانية ساطعة', 'ar-SA')).toEqual([[0, 15]]);
  });

  it('spells Messier as each language writes it', async () => {
    const { aliased, pronounced } = await freshPronunciation();
    expect(aliased('M31とM 42', 'ja-JP')).toBe('メシエ31とメシエ42');
    expect(pronounced('M87是星系。', 'zh-CN')).toEqual([{ kind: 'text', text: '梅西耶87是星系。' }]);
  });

  it('finds whole words only, in each script’s own sense of a word', async () => {
    const { nameSpans } = await freshPronunciation();
    // Latin: letters and digits; Io is not in Ionian or Io2, Vega not in Vegas.
    expect(nameSpans('Ionian Io Io2 Vegas Vega', 'en-US')).toEqual([
      [7, 9],
      [20, 24],
    ]);
    // Katakana: katakana and the long-vowel mark; イオ is Io, イオン an ion, イオー another word.
    expect(nameSpans('イオが見える、イオン、イオー', 'ja-JP')).toEqual([[0, 2]]);
    // Arabic and Hebrew: a letter joined to the name makes another word.
    expect(nameSpans('الشعرىات', 'ar-SA')).toEqual([]);
    expect(nameSpans('כימה וכימהה', 'he-IL')).toEqual([[0, 4]]);
    // Chinese has no word breaks: a name touching other characters is still a name.
    expect(nameSpans('我看见了参宿四和天津四。', 'zh-CN')).toEqual([
      [4, 7],
      [8, 11],
    ]);
  });
});

describe('SSML for the Azure voice', () => {
  it.each(LEXICON.map((entry) => [entry.id, entry] as const))(
    '%s: English, Spanish and Japanese',
    (_id, entry) => {
      // English: its IPA, for the name as English writes it.
      for (const spelling of spellings(entry, 'en-US')) {
        const document = ssml(`Tonight, ${spelling} & friends.`, 'en-US');
        parsed(document);
        expect(voiceBody(document)).toBe(
          `Tonight, ${phonemeElements(spelling, entry.ipa['en-US'])} &#38; friends.`,
        );
      }
      // Spanish: its Spanish IPA, whether the reply writes it the Spanish or the English way.
      for (const spelling of spellings(entry, 'es-ES')) {
        const document = ssml(`Esta noche, ${spelling}.`, 'es-ES');
        parsed(document);
        expect(voiceBody(document)).toBe(`Esta noche, ${phonemeElements(spelling, entry.ipa['es-ES'])}.`);
      }
      // Japanese: the voice reads katakana right; a name left in Latin letters is said in katakana, a
      // kanji with another reading is said in kana.
      const [katakana] = entry.written['ja-JP'] ?? [];
      for (const spelling of entry.en) {
        const document = ssml(`今夜は${spelling}です。`, 'ja-JP');
        parsed(document);
        expect(voiceBody(document)).toBe(`今夜は<sub alias="${katakana}">${spelling}</sub>です。`);
      }
      for (const spelling of entry.written['ja-JP'] ?? []) {
        const reading = entry.readings?.[spelling];
        const said = reading ? `<sub alias="${reading}">${spelling}</sub>` : spelling;
        expect(voiceBody(ssml(`今夜は${spelling}です。`, 'ja-JP'))).toBe(`今夜は${said}です。`);
      }
    },
  );

  it('says M31 as "Messier 31" in every language, and leaves other M-words alone', () => {
    expect(voiceBody(ssml('M31 and M 42, not M0, M111 or AM31.', 'en-US'))).toBe(
      '<phoneme alphabet="ipa" ph="ˈmɛsieɪ">Messier</phoneme> 31 and ' +
        '<phoneme alphabet="ipa" ph="ˈmɛsieɪ">Messier</phoneme> 42, not M0, M111 or AM31.',
    );
    expect(voiceBody(ssml('M45 y M1.', 'es-ES'))).toBe(
      '<phoneme alphabet="ipa" ph="meˈsje">Messier</phoneme> 45 y <phoneme alphabet="ipa" ph="meˈsje">Messier</phoneme> 1.',
    );
    expect(voiceBody(ssml('M87は銀河です。', 'ja-JP'))).toBe('メシエ87は銀河です。');
    expect(voiceBody(ssml('M87是星系。', 'zh-CN'))).toBe('梅西耶87是星系。');
    expect(voiceBody(ssml('M87 est une galaxie.', 'fr-FR'))).toBe('Messier 87 est une galaxie.');
  });

  it('says Chinese star names with their pinyin, and names in Latin letters as Chinese writes them', () => {
    expect(voiceBody(ssml('参宿四和Rigel都在猎户座。Vega很亮。', 'zh-CN'))).toBe(
      '<phoneme alphabet="sapi" ph="shen 1 - xiu 4 - si 4">参宿四</phoneme>和' +
        '<phoneme alphabet="sapi" ph="shen 1 - xiu 4 - qi 1">Rigel</phoneme>都在猎户座。' +
        '<sub alias="织女星">Vega</sub>很亮。',
    );
  });

  it('says a name in Latin letters in Arabic and Hebrew as those languages write it', () => {
    expect(voiceBody(ssml('نجم Betelgeuse أحمر.', 'ar-SA'))).toBe(
      'نجم <sub alias="بيت الجوزاء">Betelgeuse</sub> أحمر.',
    );
    expect(voiceBody(ssml('הכוכב Betelgeuse אדום, כמו בטלגז.', 'he-IL'))).toBe(
      'הכוכב <sub alias="בטלגז">Betelgeuse</sub> אדום, כמו בטלגז.',
    );
    expect(voiceBody(ssml('Copernicus a raison.', 'fr-FR'))).toBe(
      '<sub alias="Copernic">Copernicus</sub> a raison.',
    );
  });

  it('matches whole names only', () => {
    expect(voiceBody(ssml('Ionian seas, Vegas, Siriusly, atlas pages and Miranda-like.', 'en-US'))).toBe(
      'Ionian seas, Vegas, Siriusly, atlas pages and <phoneme alphabet="ipa" ph="mɪˈɹændə">Miranda</phoneme>-like.',
    );
    // イオ is Io; イオン is an ion.
    expect(voiceBody(ssml('イオンとIo', 'ja-JP'))).toBe('イオンと<sub alias="イオ">Io</sub>');
  });

  it('escapes everything and never puts one element inside another, in every language', () => {
    for (const locale of LOCALES) {
      const reply =
        `"Betelgeuse" & <Sirius> 'M31' Proxima Centauri, ${LEXICON.map((entry) => entry.written[locale]?.[0] ?? entry.en[0]).join(', ')}` +
        ' </voice><speak> & Io';
      const document = ssml(reply, locale);
      const xml = parsed(document);
      const voice = xml.getElementsByTagName('voice')[0];
      expect(voice?.textContent).toContain('</voice><speak> & ');
      for (const tag of ['phoneme', 'sub']) {
        for (const element of Array.from(xml.getElementsByTagName(tag))) {
          expect(element.parentElement?.tagName).toBe('voice');
          expect(element.children).toHaveLength(0);
        }
      }
    }
  });
});

describe('alias spellings for the browser voice', () => {
  it.each(LEXICON.map((entry) => [entry.id, entry] as const))('%s in English', (_id, entry) => {
    for (const spelling of entry.en) {
      expect(aliased(`Look at ${spelling}.`, 'en-US')).toBe(`Look at ${entry.alias['en-US']}.`);
    }
  });

  it('says M31 as Messier 31, and Latin names in Japanese, Chinese, Arabic and Hebrew in their script', () => {
    expect(aliased('M31 is Andromeda.', 'en-US')).toBe('Messy ay 31 is An drom eh da.');
    expect(aliased('BetelgeuseとM31', 'ja-JP')).toBe('ベテルギウスとメシエ31');
    expect(aliased('昴が見える', 'ja-JP')).toBe('すばるが見える');
    expect(aliased('Sirius很亮', 'zh-CN')).toBe('天狼星很亮');
    expect(aliased('Sirius ساطع', 'ar-SA')).toBe('الشعرى اليمانية ساطع');
    expect(aliased('Sirius בהיר', 'he-IL')).toBe('סיריוס בהיר');
    expect(aliased('Sirius brilla', 'es-ES')).toBe('Sirio brilla');
  });
});
