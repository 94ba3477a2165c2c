import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { INIT_MARKER, LOCALES, initMessage, type Locale } from '#contract/languages';
import type { ChatTurn } from '#contract/schemas';
import { loadKnowledge } from '#lambdas/tutor/offline/knowledge';
import { createOfflineTutor, pieces } from '#lambdas/tutor/offline/offline-tutor';
import type { TutorReply } from '#lambdas/tutor/tutor';

const tutor = createOfflineTutor();
const knowledge = loadKnowledge();
const topicIds = knowledge.index.topics.map((topic) => topic.id);

/** How a learner might ask "what is X?" in each language; `{kw}` is replaced by a keyword. */
const QUESTION_FRAMES: Record<Locale, string> = {
  'en-US': 'What is {kw}?',
  'es-ES': '¿Qué es {kw}?',
  'pt-BR': 'O que é {kw}?',
  'fr-FR': "C'est quoi {kw} ?",
  'de-DE': 'Was ist {kw}?',
  'it-IT': "Che cos'è {kw}?",
  'ar-SA': 'ما هو {kw}؟',
  'zh-CN': '{kw}是什么？',
  'ja-JP': '{kw}って何ですか？',
  'he-IL': 'מה זה {kw}?',
};

function ask(language: Locale, userMessage: string, history: readonly ChatTurn[] = []): Promise<TutorReply> {
  return tutor.reply({ userMessage, language, history });
}

/** A topic's words and its lesson as a teen hears it (the level of a learner who names none). */
function textOf(language: Locale, id: string) {
  const text = knowledge.locales[language].topics[id];
  if (!text) throw new Error(`no ${id} in ${language}`);
  const { explanation, more, check } = text.levels.teen;
  return { ...text, explanation, more, check };
}

function imagePromptOf(id: string): string | undefined {
  return knowledge.index.topics.find((topic) => topic.id === id)?.imagePrompt;
}

/** Which topic a reply teaches: the one whose check question ends it (undefined if none). */
function topicExplained(language: Locale, reply: TutorReply): string | undefined {
  return topicIds.find((id) => reply.response.trimEnd().endsWith(textOf(language, id).check.question));
}

function joined(language: Locale, ...parts: string[]): string {
  return parts.join(language === 'zh-CN' || language === 'ja-JP' ? '' : ' ');
}

describe('the offline tutor', () => {
  it('names itself as the offline provider', () => {
    expect(tutor.provider).toBe('offline');
  });

  describe.each(LOCALES)('in %s', (language) => {
    it.each(topicIds)(
      'answers a question on %s with what it is, the rest of its lesson, its question and picture',
      async (id) => {
        const text = textOf(language, id);
        const [primary] = text.keywords;
        const reply = await ask(language, QUESTION_FRAMES[language].replace('{kw}', primary ?? ''));
        // First what was asked (a fact of the topic, its lesson, or that it has no such fact), then its question.
        const noFact = knowledge.locales[language].noFact.split('{')[0] ?? '';
        const openings = [...text.facts.map((fact) => fact.teen), text.explanation, noFact];
        // (A lesson sentence a fact already said is left out, so only the opening words are compared.)
        expect({
          id,
          opens: openings.some((opening) => reply.response.startsWith(opening.slice(0, 24))),
        }).toEqual({
          id,
          opens: true,
        });
        expect(reply.response.endsWith(text.check.question)).toBe(true);
        expect(reply.imagePrompt).toBe(imagePromptOf(id));
      },
    );

    it('answers every keyword of every topic with a topic that owns that keyword', async () => {
      const topics = knowledge.locales[language].topics;
      for (const id of topicIds) {
        for (const keyword of textOf(language, id).keywords) {
          // Said alone: inside "what is …?" a topic's own question phrase ("what is space") may cover more.
          const reply = await ask(language, keyword);
          const answered = topicExplained(language, reply);
          const owners = topicIds.filter((owner) => topics[owner]?.keywords.includes(keyword));
          expect({ keyword, answered }).toEqual({ keyword, answered: expect.toBeOneOf(owners) });
        }
      }
    });

    it('greets the learner by name when the conversation starts, without echoing the marker', async () => {
      const reply = await ask(language, initMessage(language));
      expect(reply.response).toBe(knowledge.locales[language].greeting);
      expect(reply.response).not.toContain(INIT_MARKER);
      expect(reply.imagePrompt).toBeUndefined();
    });

    it('tells more about the last topic after a right answer, then moves on to the offered topic', async () => {
      const saturn = textOf(language, 'saturn');
      const first = await ask(language, saturn.keywords[0] ?? '');
      const answer = saturn.check.answers[0] ?? '';
      const history: ChatTurn[] = [
        { role: 'assistant', content: knowledge.locales[language].greeting },
        { role: 'user', content: saturn.keywords[0] ?? '' },
        { role: 'assistant', content: first.response },
      ];
      const moreWord = knowledge.locales[language].moreWords[0] ?? '';

      const more = await ask(language, answer, history);
      expect(more.response).toContain(saturn.more);
      const next = knowledge.index.topics.find((topic) => topic.id === 'saturn')?.next ?? '';
      expect(more.response).toContain(textOf(language, next).name);
      expect(more.imagePrompt).toBeUndefined();

      const nextLesson = await ask(language, moreWord, [
        ...history,
        { role: 'user', content: answer },
        { role: 'assistant', content: more.response },
      ]);
      expect(topicExplained(language, nextLesson)).toBe(next);
    });

    it('tells more about the last topic once its check is closed', async () => {
      const saturn = textOf(language, 'saturn');
      const moreWord = knowledge.locales[language].moreWords[0] ?? '';
      const history: ChatTurn[] = [
        { role: 'user', content: saturn.keywords[0] ?? '' },
        { role: 'assistant', content: joined(language, saturn.explanation, saturn.check.question) },
        { role: 'user', content: 'xqzv' },
        { role: 'assistant', content: 'Not quite. xqzv' },
      ];
      expect((await ask(language, moreWord, history)).response).toContain(saturn.more);
    });

    it('answers a hello with the greeting', async () => {
      const hello = knowledge.locales[language].helloWords[0] ?? '';
      expect((await ask(language, hello)).response).toBe(knowledge.locales[language].greeting);
    });

    it('offers other topics when the learner says no', async () => {
      const no = knowledge.locales[language].noWords[0] ?? '';
      const reply = await ask(language, no);
      const [lead] = knowledge.locales[language].declined.split('{topics}');
      expect(reply.response.startsWith(lead ?? '')).toBe(true);
      expect(
        topicIds.filter((id) => reply.response.includes(textOf(language, id).name)).length,
      ).toBeGreaterThanOrEqual(3);
    });

    it('suggests a few topics when it does not understand', async () => {
      const reply = await ask(language, 'xqzv blorp 12345');
      const suggested = topicIds.filter((id) => reply.response.includes(textOf(language, id).name));
      expect(topicExplained(language, reply)).toBeUndefined();
      expect(suggested.length).toBeGreaterThanOrEqual(3);
      expect(reply.imagePrompt).toBeUndefined();
    });
  });

  describe('reading the turn', () => {
    const mars = () => textOf('en-US', 'mars');
    const lesson = (): ChatTurn[] => [
      { role: 'user', content: mars().keywords[0] ?? '' },
      { role: 'assistant', content: `${mars().explanation} ${mars().check.question}` },
    ];

    it('greets for the start marker, whatever space comes before it', async () => {
      const reply = await ask('en-US', `  ${initMessage('en-US')}`);
      expect(reply.response).toBe(knowledge.locales['en-US'].greeting);
    });

    it('says it did not understand, rather than that the learner declined, for a message it cannot place', async () => {
      const [lead] = knowledge.locales['en-US'].notUnderstood.split('{topics}');
      expect((await ask('en-US', 'xqzv blorp')).response.startsWith(lead ?? '')).toBe(true);
    });

    it('goes on with the same topic when the learner asks for more of it by name', async () => {
      const reply = await ask('en-US', `Tell me more about ${mars().name}`, [
        ...lesson(),
        { role: 'user', content: mars().check.answers[0] ?? '' },
        { role: 'assistant', content: 'Right!' },
      ]);
      expect(reply.response).toContain(mars().more);
    });

    it('never takes "I don’t know" alone as an answer, and takes the answer a hedged guess names', async () => {
      // docs/behaviour.md §17.2: right is naming an accepted answer, no wrong option, and not negating it.
      const unsure = await ask('en-US', "I don't know", lesson());
      expect(unsure.check).toEqual({ type: 'answer', correct: false, openQuestion: true });
      const hedged = await ask('en-US', `I don't know... ${mars().check.answers[0] ?? ''}?`, lesson());
      expect(hedged.check).toEqual({ type: 'answer', correct: true });
    });

    it('judges a check answer that names the topic of the check itself', async () => {
      const reply = await ask('en-US', mars().name, lesson());
      expect(reply.check?.type).toBe('answer');
    });

    it('judges a long quiz answer that names another topic, unless it is a question', async () => {
      const quiz = await ask('en-US', `Quiz me on ${mars().name}`);
      const history: ChatTurn[] = [
        { role: 'user', content: `Quiz me on ${mars().name}` },
        { role: 'assistant', content: quiz.response },
      ];
      const saturn = textOf('en-US', 'saturn').name;
      const answer = await ask('en-US', `I really think that it must be ${saturn} after all`, history);
      expect(answer.check?.type).toBe('answer');
      // A question of the learner's own is answered, then the quiz's question is asked again (§17.2).
      const question = await ask('en-US', `What are the rings of ${saturn} made of?`, history);
      expect(question.check).toEqual({ type: 'question' });
      expect(question.response).toContain('ice');
      expect(question.response.endsWith(mars().check.question)).toBe(true);
    });

    it('forgets a topic more than a few exchanges back when the learner asks for more', async () => {
      const chatter: ChatTurn[] = Array.from({ length: 12 }, (_, turn) => ({
        role: turn % 2 === 0 ? ('user' as const) : ('assistant' as const),
        content: turn % 2 === 0 ? 'hmm' : 'Hello! What would you like to explore?',
      }));
      const answered: ChatTurn[] = [
        ...lesson(),
        { role: 'user', content: mars().check.answers[0] ?? '' },
        { role: 'assistant', content: 'Right!' },
      ];
      const recent = await ask('en-US', 'tell me more', answered);
      expect(recent.response).toContain(mars().more);
      const old = await ask('en-US', 'tell me more', [...answered, ...chatter]);
      expect(old.response).not.toContain(mars().more);
    });

    it('cuts no empty piece from a reply', () => {
      expect(pieces('', 'en-US')).toEqual([]);
      expect(pieces('Mars is red.', 'en-US').join('')).toBe('Mars is red.');
    });
  });

  it('suggests three popular topics in a row, the message choosing where the row starts', async () => {
    const favourites = knowledge.index.topics
      .filter((topic) => topic.priority === 3)
      .map((topic) => topic.id);
    const names = (ids: readonly string[]) => ids.map((id) => textOf('en-US', id).name);
    const starts = new Set<number>();
    for (const message of ['xqzv blorp 12345', 'glorf', 'mmmh zzz', 'qwerty uiop', 'plonk 42', 'hmm?!']) {
      const reply = await ask('en-US', message);
      // The three favourites from some point of their list on, wrapping round, and no other topic.
      const start = favourites.findIndex((_, at) =>
        names([0, 1, 2].map((step) => favourites[(at + step) % favourites.length] ?? '')).every((name) =>
          reply.response.includes(name),
        ),
      );
      expect(start, reply.response).toBeGreaterThanOrEqual(0);
      const row = names([0, 1, 2].map((step) => favourites[(start + step) % favourites.length] ?? ''));
      for (const id of topicIds.filter((topic) => !favourites.includes(topic))) {
        const name = textOf('en-US', id).name;
        // The reply's own words ("ask a space question") are no suggestion.
        const own = knowledge.locales['en-US'].notUnderstood.includes(name);
        if (!own && !row.some((shown) => shown.includes(name))) expect(reply.response).not.toContain(name);
      }
      starts.add(start);
      expect((await ask('en-US', message)).response).toBe(reply.response);
    }
    expect(starts.size).toBeGreaterThan(1);
  });

  it.each([
    ['en-US', "What are Saturn's rings made of?", 'planet-rings'],
    ['en-US', 'Why does the Moon change shape?', 'moon-phases'],
    ['en-US', 'How do astronauts live in space?', 'astronaut-life'],
    ['en-US', 'Tell me about planet Mars', 'mars'],
    ['en-US', 'How is a star born?', 'star-life-cycle'],
    ['en-US', 'What happens if you fall into a black hole?', 'black-holes'],
    ['en-US', 'What is a planet?', 'solar-system'],
    ['en-US', 'Why do we have day and night?', 'day-and-night'],
    ['fr-FR', 'Qui a marché sur la Lune ?', 'moon-landings'],
    ['he-IL', 'איך נולדים כוכבים?', 'star-life-cycle'],
    ['zh-CN', '月亮为什么会变形状？', 'moon-phases'],
    ['fr-FR', 'Quels sont les anneaux de Saturne ?', 'planet-rings'],
    ['fr-FR', 'Pourquoi la Lune change de forme ?', 'moon-phases'],
    ['fr-FR', "C'est quoi une étoile filante ?", 'meteors'],
    ['es-ES', '¿Por qué brillan las estrellas?', 'stars'],
    ['es-ES', '¿Cómo es la superficie de Marte?', 'mars'],
    ['pt-BR', 'Quantos planetas tem o sistema solar?', 'solar-system'],
    ['de-DE', 'Was ist ein Schwarzes Loch?', 'black-holes'],
    ['de-DE', 'Warum gibt es Jahreszeiten?', 'seasons'],
    ['it-IT', 'Perché la Luna cambia forma?', 'moon-phases'],
    ['it-IT', "Com'è fatto Saturno?", 'saturn'],
    ['ar-SA', 'ما هي حلقات زحل؟', 'planet-rings'],
    ['ar-SA', 'لماذا يتغير شكل القمر؟', 'moon-phases'],
    ['zh-CN', '土星的光环是什么做的？', 'planet-rings'],
    ['zh-CN', '黑洞是怎么形成的？', 'black-holes'],
    ['ja-JP', '土星の環は何でできていますか', 'saturn'],
    ['ja-JP', 'ブラックホールってなに？', 'black-holes'],
    ['he-IL', 'ממה עשויות הטבעות של שבתאי?', 'saturn'],
    ['he-IL', 'מה זה חור שחור?', 'black-holes'],
  ] as const)('in %s, answers “%s” about %s', async (language, question, id) => {
    expect(topicExplained(language, await ask(language, question))).toBe(id);
  });

  it('answers a French question about Saturn in French, with a picture of Saturn', async () => {
    const reply = await ask('fr-FR', 'Parle-moi de Saturne et de ses anneaux');
    expect(reply.response).toContain('Saturne est la sixième planète');
    expect(reply.imagePrompt).toMatch(/Saturn/);
  });

  it.each([
    ['fr-FR', "QU'EST-CE QU'UNE NEBULEUSE", 'nebulae'],
    ['es-ES', 'HABLAME DE LA VIA LACTEA', 'milky-way'],
    ['de-DE', 'wie groß ist die milchstrasse', 'milky-way'],
    ['pt-BR', 'o que e um buraco negro', 'black-holes'],
    ['ar-SA', 'حدثني عن الشَّمْسِ', 'sun'],
    ['ar-SA', 'ما هي الجاذبيه', 'gravity'],
    ['he-IL', 'ספרו לי על הַיָּרֵחַ', 'moon'],
    ['ja-JP', 'ＢＩＧ　ＢＡＮＧ', 'big-bang'],
  ] as const)('in %s, folds case and accents: “%s” is about %s', async (language, question, id) => {
    expect(topicExplained(language, await ask(language, question))).toBe(id);
  });

  it('understands English space words in another language and answers in that language', async () => {
    expect(topicExplained('de-DE', await ask('de-DE', 'Was ist ein black hole?'))).toBe('black-holes');
    expect(topicExplained('zh-CN', await ask('zh-CN', 'Mars是什么？'))).toBe('mars');
  });

  it('does not mistake short words of another language for English keywords', async () => {
    const reply = await ask('de-DE', 'Was ist die Antwort?');
    expect(topicExplained('de-DE', reply)).toBeUndefined();
  });

  it('reads the last topic from the learner’s words when another tutor wrote the earlier replies', async () => {
    const history: ChatTurn[] = [
      { role: 'user', content: 'Tell me about comets' },
      { role: 'assistant', content: 'Comets are icy visitors from the outer solar system!' },
    ];
    const reply = await ask('en-US', 'tell me more', history);
    expect(reply.response).toContain(textOf('en-US', 'comets').more);
  });

  it('answers “more” about a topic never discussed as a first explanation of it', async () => {
    const reply = await ask('en-US', 'tell me more about black holes');
    expect(topicExplained('en-US', reply)).toBe('black-holes');
  });

  it('does not read the Hebrew "therefore" (לכן) as "yes" (כן)', async () => {
    const moon = await ask('he-IL', 'ירח');
    const history: ChatTurn[] = [
      { role: 'user', content: 'ירח' },
      { role: 'assistant', content: moon.response },
    ];
    const reply = await ask('he-IL', 'לכן אני שואל', history);
    expect(reply.response).not.toContain(textOf('he-IL', 'moon').more);
  });

  it('gives the same reply to the same request, never the init marker, and never an empty reply', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...LOCALES),
        fc.string({ minLength: 1, maxLength: 200 }),
        async (language, message) => {
          const first = await ask(language, message);
          const second = await ask(language, message);
          expect(second).toEqual(first);
          expect(first.response.length).toBeGreaterThan(0);
          expect(first.response).not.toContain(INIT_MARKER);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('stops before answering when the request was already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(
      tutor.reply({ userMessage: 'Saturn', language: 'en-US', history: [] }, controller.signal),
    ).rejects.toThrow();
  });
});
