/**
 * Judging like a teacher, offline, in every language (docs/behaviour.md §17.2–§17.4): the same check
 * question (what Jupiter is mostly made of: gas, not rock) answered as learners of each language answer
 * it: in their own words, with the wrong option, with a misconception holding the right word, with a
 * negation, with both options, asking for help, asking for a quiz. Then numbers, a question of the
 * learner's own, and stars that cannot be farmed.
 */
import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '#contract/languages';
import type { ChatTurn } from '#contract/schemas';
import { LEVELS, type Level } from '#contract/teaching';
import { readAnswer } from '#lambdas/tutor/offline/answer-reading';
import { compileLocale } from '#lambdas/tutor/offline/compiled-locale';
import { loadKnowledge } from '#lambdas/tutor/offline/knowledge';
import { createOfflineTutor } from '#lambdas/tutor/offline/offline-tutor';
import type { TutorReply } from '#lambdas/tutor/tutor';

const tutor = createOfflineTutor();
const knowledge = loadKnowledge();
const compiled = (language: Locale) => compileLocale(knowledge.index, knowledge.locales[language]);

/** How learners of each language answer "Is Jupiter mostly rock or mostly gas?", written as they say it. */
interface Answers {
  readonly right: readonly string[];
  readonly wrong: readonly string[];
  readonly misconception: readonly string[];
  readonly negation: readonly string[];
  readonly both: readonly string[];
  readonly help: readonly string[];
  readonly quiz: readonly string[];
}

const JUPITER: Readonly<Record<Locale, Answers>> = {
  'en-US': {
    right: ['gas', "i think it's mostly gas?", 'gas, because it has no solid ground', 'its gas'],
    wrong: ['rock', 'mostly rock', 'its made of stone'],
    misconception: ['rock, not gas', "it's rock and not gas", 'rock not gas'],
    negation: ['not gas', "it isn't gas", 'i dont think its gas'],
    both: ['both', 'a bit of both', 'rock and gas'],
    help: [
      'why?',
      'what do you mean',
      "i don't get it",
      'explain that again please',
      'can you say it simpler',
      'tell me more',
    ],
    quiz: ['test me', 'can you quiz me', 'ask me a question', 'quiz me please'],
  },
  'es-ES': {
    right: ['gas', 'creo que es gas', 'de gas, porque no tiene suelo'],
    wrong: ['roca', 'de piedra'],
    misconception: ['de roca, no de gas', 'roca y no gas', 'de roca, el gas no'],
    negation: ['no es gas', 'gas no', 'no creo que sea gas'],
    both: ['los dos', 'un poco de cada', 'roca y gas'],
    help: [
      '¿por qué?',
      'qué quieres decir',
      'no lo entiendo',
      'explícalo otra vez',
      'dilo más fácil',
      'cuéntame más',
    ],
    quiz: ['hazme un examen', 'ponme a prueba', 'hazme una pregunta', 'pregúntame algo'],
  },
  'pt-BR': {
    right: ['gás', 'acho que é gás', 'gás, porque não tem chão'],
    wrong: ['rocha', 'é de pedra'],
    misconception: ['rocha, não gás', 'de pedra e não de gás'],
    negation: ['não é gás', 'gás não', 'não acho que seja gás'],
    both: ['os dois', 'um pouco dos dois', 'rocha e gás'],
    help: ['por quê?', 'como assim?', 'não entendi', 'explica de novo', 'mais fácil', 'me conta mais'],
    quiz: ['me testa', 'faz um quiz', 'me faz uma pergunta', 'quero um quiz'],
  },
  'fr-FR': {
    right: ['du gaz', "je crois que c'est du gaz", "du gaz, parce qu'il n'y a pas de sol"],
    wrong: ['de la roche', 'de la pierre'],
    misconception: ['de la roche, pas du gaz', 'roche et pas gaz'],
    negation: ['pas du gaz', "c'est pas du gaz", "ce n'est pas du gaz"],
    both: ['les deux', 'un peu des deux', 'roche et gaz'],
    help: [
      'pourquoi ?',
      'ça veut dire quoi',
      'je comprends pas',
      'tu peux répéter',
      'plus simple',
      "dis m'en plus",
    ],
    quiz: ['interroge-moi', 'pose-moi une question', 'fais-moi un quiz', 'teste-moi'],
  },
  'de-DE': {
    right: ['Gas', 'ich glaube, Gas', 'Gas, weil er keinen festen Boden hat'],
    wrong: ['Gestein', 'aus Stein'],
    misconception: ['aus Gestein, nicht aus Gas', 'Gestein und kein Gas'],
    negation: ['nicht aus Gas', 'kein Gas', 'Gas ist es nicht'],
    both: ['beides', 'ein bisschen von beidem', 'Gestein und Gas'],
    help: [
      'warum?',
      'was meinst du',
      'ich verstehe das nicht',
      'erklär das nochmal',
      'einfacher bitte',
      'erzähl mir mehr',
    ],
    quiz: ['frag mich ab', 'teste mich', 'stell mir eine Frage', 'mach ein Quiz'],
  },
  'it-IT': {
    right: ['gas', 'secondo me gas', 'gas, perché non ha un suolo'],
    wrong: ['roccia', 'pietra'],
    misconception: ['roccia, non gas', 'di roccia e non di gas'],
    negation: ['non è gas', 'gas no', 'non credo sia gas'],
    both: ['tutti e due', 'entrambi', 'roccia e gas'],
    help: ['perché?', 'che vuol dire', 'non ho capito', 'puoi ripetere', 'più semplice', 'dimmi di più'],
    quiz: ['interrogami', 'mettimi alla prova', 'fammi una domanda', 'fammi un quiz'],
  },
  'ar-SA': {
    right: ['غاز', 'أظن أنه غاز', 'غاز لأنه ما فيه أرض صلبة'],
    wrong: ['صخر', 'من الحجارة'],
    misconception: ['صخر وليس غاز', 'صخور، مش غاز'],
    negation: ['ليس غازا', 'مو غاز', 'لا أظنه غاز'],
    both: ['كلاهما', 'الاثنين', 'صخر وغاز'],
    help: ['ليش؟', 'ايش تقصد', 'ما فهمت', 'اشرح مرة أخرى', 'بشكل أبسط', 'أخبرني أكثر'],
    quiz: ['اختبرني', 'اسألني سؤال', 'أعطني مسابقة', 'سو لي اختبار'],
  },
  'zh-CN': {
    right: ['气体', '我觉得是气体吧', '是气体，因为它没有坚硬的地面'],
    wrong: ['岩石', '石头'],
    misconception: ['是岩石，不是气体', '岩石不是气'],
    negation: ['不是气体', '肯定不是气'],
    both: ['两个都有', '两者都有', '岩石和气体'],
    help: ['为什么？', '什么意思', '听不懂', '再说一遍', '说简单一点', '多讲一点'],
    quiz: ['考考我', '测试我', '问我几个问题', '出几道题'],
  },
  'ja-JP': {
    right: ['ガス', 'ガスだと思う', 'ガス。かたい地面がないから'],
    wrong: ['岩', 'いわ'],
    misconception: ['岩で、ガスじゃない', 'ガスじゃなくて岩'],
    negation: ['ガスじゃない', 'ガスではない', 'ガスだとは思わない'],
    both: ['両方', 'どっちも', '岩とガス'],
    help: [
      'なんで？',
      'どういう意味？',
      'よくわからない',
      'もう一回説明して',
      'もっとかんたんに',
      'もっと教えて',
    ],
    quiz: ['クイズを出して', 'テストして', '問題を出して', 'なにか問題出して'],
  },
  'he-IL': {
    right: ['גז', 'אני חושב שגז', 'גז, כי אין לו קרקע מוצקה'],
    wrong: ['סלע', 'אבנים'],
    misconception: ['סלע, לא גז', 'מסלע ולא מגז'],
    negation: ['לא גז', 'זה לא גז', 'ממש לא גז'],
    both: ['שניהם', 'קצת משניהם', 'סלע וגז'],
    help: ['למה?', 'מה זאת אומרת', 'לא הבנתי', 'תסביר שוב', 'יותר פשוט', 'ספר לי עוד'],
    quiz: ['תבחן אותי', 'תעשה לי חידון', 'תשאל אותי שאלה', 'חידון בבקשה'],
  },
};

/** A topic's words and one level's lesson and check (teen unless said: a learner who named no level). */
const text = (language: Locale, id: string, level: Level = 'teen') => {
  const topic = knowledge.locales[language].topics[id];
  if (!topic) throw new Error(`no ${id} in ${language}`);
  const { explanation, check } = topic.levels[level];
  return { keywords: topic.keywords, explanation, check };
};
const joiner = (language: Locale) => (language === 'ja-JP' || language === 'zh-CN' ? '' : ' ');
const fill = (template: string, values: Record<string, string>) =>
  Object.entries(values).reduce((result, [name, value]) => result.split(`{${name}}`).join(value), template);

/** The learner's message while Jupiter's check question is open (Astro's last turn asked it). */
function afterJupiter(language: Locale, message: string, level: Level = 'child'): Promise<TutorReply> {
  const jupiter = text(language, 'jupiter', level);
  const history: ChatTurn[] = [
    { role: 'user', content: jupiter.keywords[0] ?? '' },
    { role: 'assistant', content: [jupiter.explanation, jupiter.check.question].join(joiner(language)) },
  ];
  return tutor.reply({ userMessage: message, language, history, level });
}

describe.each(LOCALES)('judging an answer in %s', (language) => {
  const answers = JUPITER[language];
  // "Is Jupiter made mostly of rock or of gas?" is the child's check.
  const jupiter = text(language, 'jupiter', 'child');
  const data = knowledge.locales[language];
  const rockHint = jupiter.check.mistakes[0]?.hint ?? '';

  it('takes a right answer in the learner’s own words: hedged, with a reason, as spoken', async () => {
    for (const said of answers.right)
      expect({ said, check: (await afterJupiter(language, said)).check }).toEqual({
        said,
        check: { type: 'answer', correct: true },
      });
  });

  it('judges the wrong option alone as a wrong answer, with the hint that speaks to it', async () => {
    for (const said of answers.wrong) {
      const reply = await afterJupiter(language, said);
      expect({ said, check: reply.check }).toEqual({
        said,
        check: { type: 'answer', correct: false, openQuestion: true },
      });
      expect(reply.response).toContain(rockHint);
      expect(reply.response.endsWith(jupiter.check.question)).toBe(true);
    }
  });

  it('never praises a misconception holding the right word: wrong, with the mistake’s hint', async () => {
    for (const said of answers.misconception) {
      const reply = await afterJupiter(language, said);
      expect({ said, check: reply.check }).toEqual({
        said,
        check: { type: 'answer', correct: false, openQuestion: true },
      });
      expect({ said, hint: reply.response.includes(rockHint) }).toEqual({ said, hint: true });
    }
  });

  it('judges a negated right answer wrong, wherever the language puts its negation', async () => {
    for (const said of answers.negation)
      expect({ said, check: (await afterJupiter(language, said)).check }).toEqual({
        said,
        check: { type: 'answer', correct: false, openQuestion: true },
      });
  });

  it('asks the learner to pick one when both options are named, using no try', async () => {
    for (const said of answers.both) {
      const reply = await afterJupiter(language, said);
      expect({ said, reply: reply.response, check: reply.check }).toEqual({
        said,
        reply: fill(data.checkPickOne, { question: jupiter.check.question }),
        check: { type: 'question' },
      });
    }
    // No try was used: a wrong answer after "both" gets the hint, not the answer.
    const jupiterLesson = [jupiter.explanation, jupiter.check.question].join(joiner(language));
    const history: ChatTurn[] = [
      { role: 'assistant', content: jupiterLesson },
      { role: 'user', content: answers.both[0] ?? '' },
      { role: 'assistant', content: fill(data.checkPickOne, { question: jupiter.check.question }) },
    ];
    const next = await tutor.reply({
      userMessage: answers.wrong[0] ?? '',
      language,
      history,
      level: 'child',
    });
    expect(next.response).toContain(rockHint);
  });

  it('explains again, without the answer, and asks the same question when the learner asks for help', async () => {
    const [lead] = data.checkExplain.split('{text}');
    const language_ = compiled(language);
    const topic = language_.byId.get('jupiter');
    if (!topic) throw new Error('no jupiter');
    for (const said of answers.help) {
      const reply = await afterJupiter(language, said);
      expect({ said, check: reply.check }).toEqual({ said, check: { type: 'question' } });
      expect({ said, explained: reply.response.startsWith(lead ?? '') }).toEqual({ said, explained: true });
      expect(reply.response.endsWith(jupiter.check.question)).toBe(true);
      const explanation = reply.response.slice(0, -jupiter.check.question.length);
      expect({
        said,
        givesAway: readAnswer(
          explanation,
          { answers: topic.levels.child.check.options.answers, mistakes: [] },
          language_.judging,
          language_.matching,
        ).right,
      }).toEqual({ said, givesAway: false });
    }
  });

  it('starts a quiz on the learner’s natural request', async () => {
    const [lead] = data.quizStart.split('{topics}');
    for (const said of answers.quiz) {
      const reply = await tutor.reply({ userMessage: said, language, history: [] });
      expect({ said, check: reply.check, quiz: reply.response.startsWith(lead ?? '') }).toEqual({
        said,
        check: { type: 'question' },
        quiz: true,
      });
    }
  });

  it('reads every "I don’t know" as a try without an answer: the hint, then the answer', async () => {
    for (const said of data.dontKnowWords) {
      const reply = await afterJupiter(language, said);
      expect({ said, check: reply.check }).toEqual({
        said,
        check: { type: 'answer', correct: false, openQuestion: true },
      });
    }
  });

  it('reads every help phrase of the language as help, never as an answer', async () => {
    for (const said of Object.values(data.judging.help).flat())
      expect({ said, check: (await afterJupiter(language, said)).check }).toEqual({
        said,
        check: { type: 'question' },
      });
  });
});

describe.each(LOCALES)('numbers as answers in %s', (language) => {
  const mercury = text(language, 'mercury');
  const ask = (message: string) =>
    tutor.reply({
      userMessage: message,
      language,
      history: [
        { role: 'assistant', content: [mercury.explanation, mercury.check.question].join(joiner(language)) },
      ],
    });
  const digits = mercury.check.answers.find((answer) => /^\d+$/.test(answer)) ?? '';

  it('takes the number in digits and in words, and never inside a longer number', async () => {
    for (const said of mercury.check.answers)
      expect({ said, check: (await ask(said)).check }).toEqual({
        said,
        check: { type: 'answer', correct: true },
      });
    expect((await ask(`1${digits}`)).check).toEqual({ type: 'answer', correct: false, openQuestion: true });
    expect((await ask(`${digits}0`)).check).toEqual({ type: 'answer', correct: false, openQuestion: true });
  });

  it('judges a common wrong number with the hint that speaks to it (365 is Earth’s year)', async () => {
    const reply = await ask('365');
    expect(reply.check).toEqual({ type: 'answer', correct: false, openQuestion: true });
    expect(reply.response).toContain(mercury.check.mistakes[0]?.hint);
  });
});

describe('numbers in Arabic-Indic digits', () => {
  it('are the same number', async () => {
    const mercury = text('ar-SA', 'mercury');
    const reply = await tutor.reply({
      userMessage: '٨٨ يوما',
      language: 'ar-SA',
      history: [{ role: 'assistant', content: `${mercury.explanation} ${mercury.check.question}` }],
    });
    expect(reply.check).toEqual({ type: 'answer', correct: true });
  });
});

describe.each(LOCALES)('questions of the learner’s own and stars, in %s', (language) => {
  const data = knowledge.locales[language];

  /** A conversation: each reply joins the history as the web app sends it. */
  async function talk(messages: readonly string[]): Promise<TutorReply[]> {
    const history: ChatTurn[] = [];
    const replies: TutorReply[] = [];
    for (const message of messages) {
      const reply = await tutor.reply({ userMessage: message, language, history: [...history] });
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.response });
      replies.push(reply);
    }
    return replies;
  }

  it('answers a question about another topic mid-check, then asks the open question again', async () => {
    const mars = text(language, 'mars');
    const saturn = text(language, 'saturn');
    const [, aside] = await talk([mars.keywords[0] ?? '', `${saturn.keywords[0] ?? ''}?`]);
    expect(aside?.check).toEqual({ type: 'question' });
    // The question is answered first: what Saturn is, then Mars's question again.
    const saturnIs = data.topics.saturn?.facts.find((fact) => fact.shape === 'what-is' && !fact.keywords);
    expect(aside?.response).toContain(saturnIs?.teen ?? '\u0000');
    expect(aside?.response.endsWith(mars.check.question)).toBe(true);
  });

  it('gives one star per question: a right answer again is praised, with no second star', async () => {
    const mars = text(language, 'mars');
    const history: ChatTurn[] = [];
    const say = async (message: string) => {
      const reply = await tutor.reply({ userMessage: message, language, history: [...history] });
      history.push({ role: 'user', content: message }, { role: 'assistant', content: reply.response });
      return reply;
    };
    await say(mars.keywords[0] ?? '');
    expect((await say(mars.check.answers[0] ?? '')).check).toEqual({ type: 'answer', correct: true });
    // A quiz on Mars asks the Mars question again, though never first (docs/behaviour.md §17.3).
    let last = await say(`${data.quizWords[0] ?? ''} ${mars.keywords[0] ?? ''}`);
    const asked: string[] = [];
    for (let question = 0; question < 3; question += 1) {
      const topic = knowledge.index.topics.find((entry) =>
        last.response.trimEnd().endsWith(text(language, entry.id).check.question),
      );
      if (!topic) break;
      asked.push(topic.id);
      last = await say(text(language, topic.id).check.answers[0] ?? '');
      if (topic.id === 'mars') {
        expect(last.response.startsWith(data.checkCorrectAgain)).toBe(true);
        expect(last.check?.type).not.toBe('answer');
      } else {
        expect(last.check).toMatchObject({ type: 'answer', correct: true });
      }
    }
    expect(asked[0]).not.toBe('mars');
    expect(asked).toContain('mars');
  });

  it('never opens a quiz with the question just answered, and teaches a topic before asking about it', async () => {
    const mars = text(language, 'mars');
    const [, , quiz] = await talk([
      mars.keywords[0] ?? '',
      mars.check.answers[0] ?? '',
      data.quizWords[0] ?? '',
    ]);
    expect(quiz?.check).toEqual({ type: 'question' });
    expect(quiz?.response.trimEnd().endsWith(mars.check.question)).toBe(false);
    // The first question is on a topic this conversation has not taught: its lesson comes first.
    const first = knowledge.index.topics.find((topic) =>
      quiz?.response.trimEnd().endsWith(text(language, topic.id).check.question),
    );
    expect(first).toBeDefined();
    expect(quiz?.response).toContain(text(language, first?.id ?? '').explanation);
  });
});

describe('the judging data of every language', () => {
  it.each(LOCALES)(
    'gives every check wrong options whose words and hints never read as right, in %s',
    (language) => {
      const language_ = compiled(language);
      for (const topic of language_.topics)
        for (const level of LEVELS) {
          const check = topic.levels[level].check;
          const id = `${topic.id}/${level}`;
          const right = (said: string) =>
            readAnswer(said, check.options, language_.judging, language_.matching).right;
          expect({ id, mistakes: check.text.mistakes.length > 0 }).toEqual({ id, mistakes: true });
          for (const mistake of check.text.mistakes) {
            for (const says of mistake.says)
              expect({ id, says, right: right(says) }).toEqual({ id, says, right: false });
            expect({ id, hint: mistake.hint, givesAway: right(mistake.hint) }).toEqual({
              id,
              hint: mistake.hint,
              givesAway: false,
            });
          }
          for (const answer of check.text.answers)
            expect({ id, answer, right: right(answer) }).toEqual({ id, answer, right: true });
        }
    },
  );

  it.each(LOCALES)('has at least four ways to ask for each kind of help, in %s', (language) => {
    for (const [kind, phrases] of Object.entries(knowledge.locales[language].judging.help))
      expect({ kind, enough: phrases.length >= 4 }).toEqual({ kind, enough: true });
  });
});
