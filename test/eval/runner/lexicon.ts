/**
 * The few words the eval reads in a reply's prose, per language, for any tutor (a model says what it
 * judged in words as well as through its `check`). Kept to phrases that cannot be part of a kinder
 * sentence: "well done" never appears in "not quite", while "exactly" does ("not exactly"), so it is not
 * here. Matched as test/eval/runner/text.ts says.
 */
import type { Locale } from '#contract/languages';

export interface Lexicon {
  /** Praise of an answer as right: after a wrong answer it praises a mistake. */
  readonly praise: readonly string[];
  /** A bare verdict that discourages ("Wrong."): a teacher says "not quite" instead. */
  readonly blunt: readonly string[];
}

export const LEXICONS: Readonly<Record<Locale, Lexicon>> = {
  'en-US': {
    praise: [
      "that's right",
      'that is right',
      "that's correct",
      'that is correct',
      'well done',
      'you got it',
      'spot on',
      'great job',
    ],
    blunt: ['wrong', 'incorrect'],
  },
  'es-ES': {
    praise: ['¡correcto', 'correcto!', 'muy bien', 'lo has clavado', '¡exacto', 'exacto!', 'bien hecho'],
    blunt: ['incorrecto', 'incorrecta', 'está mal', 'respuesta equivocada'],
  },
  'pt-BR': {
    praise: ['isso mesmo', 'muito bem', 'correto!', 'certinho', 'mandou bem', 'acertou!', 'parabéns'],
    blunt: ['errado', 'errada', 'incorreto', 'incorreta'],
  },
  'fr-FR': {
    praise: ["c'est exact", "c'est juste", 'bravo', 'bien joué', 'bonne réponse', 'parfait'],
    blunt: ['faux', 'incorrect', 'incorrecte', 'mauvaise réponse'],
  },
  'de-DE': {
    praise: ['richtig!', 'genau richtig', 'super gemacht', 'gut gemacht', 'sehr gut', 'stimmt genau'],
    blunt: ['falsch', 'nicht korrekt'],
  },
  'it-IT': {
    praise: ['esatto', 'giusto!', 'bravo', 'brava', 'ben fatto', 'risposta giusta', 'corretto!'],
    blunt: ['sbagliato', 'sbagliata', 'errato', 'errata'],
  },
  'ar-SA': {
    praise: ['أحسنت', 'إجابة صحيحة', 'صحيح!', 'ممتاز', 'برافو', 'عمل رائع'],
    blunt: ['خطأ', 'خاطئ', 'خاطئة', 'غلط'],
  },
  'zh-CN': {
    praise: ['答对了', '真棒', '正确！', '没错', '太棒了', '完全正确'],
    blunt: ['错了', '答错', '错误'],
  },
  'ja-JP': {
    praise: ['正解です', '正解！', 'よくできました', 'その通り', 'すばらしい', '素晴らしい'],
    blunt: ['間違いです', '不正解'],
  },
  'he-IL': {
    praise: ['כל הכבוד', 'נכון מאוד', 'מצוין', 'בדיוק!', 'יפה מאוד'],
    blunt: ['שגוי', 'תשובה לא נכונה'],
  },
};
