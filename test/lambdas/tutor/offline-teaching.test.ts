/**
 * The offline tutor teaches (docs/behaviour.md §17.1–§17.3): a Young explorer's lessons, checks for
 * understanding judged from the lesson data and the history, and "quiz me".
 */
import { describe, expect, it } from 'vitest';
import { LOCALES, type Locale } from '#contract/languages';
import type { ChatTurn } from '#contract/schemas';
import { LEVELS, type Level } from '#contract/teaching';
import { loadKnowledge } from '#lambdas/tutor/offline/knowledge';
import { createOfflineTutor } from '#lambdas/tutor/offline/offline-tutor';
import type { TutorReply, TutorStreamEvent } from '#lambdas/tutor/tutor';

const tutor = createOfflineTutor();
const knowledge = loadKnowledge();
const topicIds = knowledge.index.topics.map((topic) => topic.id);

/** The languages whose lessons this suite walks through in full. */
const TAUGHT = ['en-US', 'es-ES', 'fr-FR', 'de-DE', 'ja-JP'] as const satisfies readonly Locale[];
type Taught = (typeof TAUGHT)[number];

const QUIZ_ME: Record<Taught, string> = {
  'en-US': 'Quiz me!',
  'es-ES': 'Hazme un quiz, porfa',
  'fr-FR': 'Fais-moi un quiz',
  'de-DE': 'Mach ein Quiz mit mir',
  'ja-JP': 'クイズを出して',
};
const QUIZ_ME_ON_PLANETS: Record<Taught, string> = {
  'en-US': 'Quiz me on the planets',
  'es-ES': 'Hazme un quiz sobre los planetas',
  'fr-FR': 'Fais-moi un quiz sur les planètes',
  'de-DE': 'Mach ein Quiz über die Planeten',
  'ja-JP': '太陽系のクイズを出して',
};
const DONT_KNOW: Record<Taught, string> = {
  'en-US': "I don't know",
  'es-ES': 'No lo sé',
  'fr-FR': 'Je ne sais pas',
  'de-DE': 'Ich weiß nicht',
  'ja-JP': 'わかりません',
};
/** A wrong answer to any check question of the lessons. */
const WRONG: Record<Taught, string> = {
  'en-US': 'a purple banana',
  'es-ES': 'un plátano morado',
  'fr-FR': 'une banane violette',
  'de-DE': 'eine lila Banane',
  'ja-JP': 'むらさきのバナナ',
};

function data(language: Locale) {
  return knowledge.locales[language];
}

/**
 * A topic's words and its lessons as a teen hears them (the level a learner who names none gets), with the
 * child's explanation and check beside them.
 */
function topicText(language: Locale, id: string) {
  const text = data(language).topics[id];
  if (!text) throw new Error(`no ${id} in ${language}`);
  const { teen, child } = text.levels;
  return {
    ...text,
    explanation: teen.explanation,
    more: teen.more,
    check: teen.check,
    childExplanation: child.explanation,
    childCheck: child.check,
  };
}

/** The topic whose check question, at any level, ends a reply (undefined if none does). */
function askedAbout(language: Locale, reply: TutorReply): string | undefined {
  return checkAt(language, reply)?.id;
}

/** The topic and the level's check whose question ends a reply. */
function checkAt(language: Locale, reply: TutorReply) {
  for (const id of topicIds)
    for (const level of LEVELS) {
      const check = data(language).topics[id]?.levels[level].check;
      if (check && reply.response.trimEnd().endsWith(check.question)) return { id, check };
    }
  return undefined;
}

/** What a topic is, as its "what is" fact says it at the level: the first thing a lesson reply says. */
function whatIs(language: Locale, id: string, level: Level = 'teen'): string {
  const fact = data(language).topics[id]?.facts.find((entry) => entry.shape === 'what-is' && !entry.keywords);
  return fact ? (level === 'adult' ? (fact.adult ?? fact.teen) : fact[level]) : '\u0000';
}

function fill(template: string, values: Record<string, string>): string {
  return Object.entries(values).reduce(
    (text, [name, value]) => text.split(`{${name}}`).join(value),
    template,
  );
}

const joiner = (language: Locale) => (language === 'ja-JP' || language === 'zh-CN' ? '' : ' ');

/** One conversation with the offline tutor: each reply joins the history, as the web app sends it. */
class Conversation {
  readonly history: ChatTurn[] = [];
  constructor(
    private readonly language: Locale,
    private readonly level?: Level,
  ) {}

  async say(userMessage: string): Promise<TutorReply> {
    const reply = await tutor.reply({
      userMessage,
      language: this.language,
      history: this.history,
      ...(this.level ? { level: this.level } : {}),
    });
    this.history.push({ role: 'user', content: userMessage }, { role: 'assistant', content: reply.response });
    return reply;
  }

  /** Answers the check question the last reply ended with, rightly. */
  async answerRightly(last: TutorReply): Promise<TutorReply> {
    const asked = checkAt(this.language, last);
    if (!asked) throw new Error(`no check question at the end of: ${last.response}`);
    return this.say(asked.check.answers[0] ?? '');
  }
}

describe('a Young explorer', () => {
  it.each(LOCALES)(
    'hears the child lesson and check, not the teen one, for every topic in %s',
    async (language) => {
      for (const id of topicIds) {
        const text = topicText(language, id);
        const message = text.keywords[0] ?? '';
        const child = await tutor.reply({ userMessage: message, language, history: [], level: 'child' });
        const teen = await tutor.reply({ userMessage: message, language, history: [], level: 'teen' });
        expect({ id, child: child.response.endsWith(text.childCheck.question) }).toEqual({ id, child: true });
        expect({ id, teen: teen.response.endsWith(text.check.question) }).toEqual({ id, teen: true });
        expect(child.response).not.toBe(teen.response);
      }
    },
  );

  it('hears the teen lesson when no level is sent; an adult hears the adult one', async () => {
    const saturn = data('en-US').topics.saturn;
    const ask = (level?: Level) =>
      tutor.reply({ userMessage: 'Saturn', language: 'en-US', history: [], ...(level ? { level } : {}) });
    const [none, teen, adult] = await Promise.all([ask(), ask('teen'), ask('adult')]);
    expect(none.response).toBe(teen.response);
    expect(adult.response).not.toBe(teen.response);
    expect(adult.response.endsWith(saturn?.levels.adult.check.question ?? '\u0000')).toBe(true);
  });

  it('gets "more" after answering a check on a child lesson, as the history shows the lesson', async () => {
    const talk = new Conversation('en-US', 'child');
    const lesson = await talk.say('Tell me about Saturn');
    const right = await talk.answerRightly(lesson);
    expect(right.response).toContain(data('en-US').topics.saturn?.levels.child.more);
  });
});

describe.each(TAUGHT)('checks for understanding in %s', (language) => {
  const { checkCorrect } = data(language);
  const mars = topicText(language, 'mars');

  it('ends every lesson with the topic’s check question and says so in check', async () => {
    const reply = await new Conversation(language).say(mars.keywords[0] ?? '');
    expect(reply.response.endsWith(mars.check.question)).toBe(true);
    expect(reply.check).toEqual({ type: 'question' });
  });

  it('says well done to a right answer, then tells more and offers the next topic', async () => {
    const talk = new Conversation(language);
    const right = await talk.answerRightly(await talk.say(mars.keywords[0] ?? ''));
    expect(right.check).toEqual({ type: 'answer', correct: true });
    expect(right.response.startsWith(checkCorrect)).toBe(true);
    expect(right.response).toContain(mars.more);
    const next = knowledge.index.topics.find((topic) => topic.id === 'mars')?.next ?? '';
    expect(right.response).toContain(topicText(language, next).name);
  });

  it('accepts every listed answer, inside a sentence of the learner’s own', async () => {
    for (const answer of mars.check.answers) {
      const talk = new Conversation(language);
      await talk.say(mars.keywords[0] ?? '');
      const reply = await talk.say(`${WRONG[language]}${joiner(language)}${answer}`);
      expect({ answer, check: reply.check }).toEqual({ answer, check: { type: 'answer', correct: true } });
    }
  });

  it('gives the hint and asks again after "I don’t know", then the answer after a second miss', async () => {
    const talk = new Conversation(language);
    await talk.say(mars.keywords[0] ?? '');

    const hint = await talk.say(DONT_KNOW[language]);
    // The judgement asks the question again: it says the question is open (docs/behaviour.md §7, §17.5).
    expect(hint.check).toEqual({ type: 'answer', correct: false, openQuestion: true });
    expect(hint.response).toBe(
      [fill(data(language).checkTryAgain, { hint: mars.check.hint }), mars.check.question].join(
        joiner(language),
      ),
    );

    const reveal = await talk.say(WRONG[language]);
    expect(reveal.check).toEqual({ type: 'answer', correct: false });
    expect(reveal.response).toBe(fill(data(language).checkReveal, { answer: mars.check.answer }));
    expect(askedAbout(language, reveal)).toBeUndefined();

    // The question is closed: the next message is not judged.
    const after = await talk.say(WRONG[language]);
    expect(after.check).toBeUndefined();
  });

  it('counts a right answer on the second try', async () => {
    const talk = new Conversation(language);
    const lesson = await talk.say(mars.keywords[0] ?? '');
    await talk.say(WRONG[language]);
    const right = await talk.answerRightly(lesson);
    expect(right.check).toEqual({ type: 'answer', correct: true });
  });

  it('does not judge a learner who asks about another topic instead: answers it, then asks again', async () => {
    const talk = new Conversation(language);
    await talk.say(mars.keywords[0] ?? '');
    const saturn = topicText(language, 'saturn');
    const question =
      language === 'ja-JP' ? `${saturn.keywords[0] ?? ''}って何？` : `${saturn.keywords[0] ?? ''}?`;
    const reply = await talk.say(question);
    // docs/behaviour.md §17.2: a new question mid-check is answered, then the open question asked again.
    expect(reply.check).toEqual({ type: 'question' });
    expect(reply.response).toContain(whatIs(language, 'saturn'));
    expect(askedAbout(language, reply)).toBe('mars');
  });
});

describe('judging, in English', () => {
  it('teaches, with its picture, another topic named instead of an answer, then asks again', async () => {
    const talk = new Conversation('en-US');
    await talk.say('What is a black hole?');
    const reply = await talk.say('Show me Saturn');
    expect(reply.check).toEqual({ type: 'question' });
    expect(reply.response).toContain(whatIs('en-US', 'saturn'));
    expect(askedAbout('en-US', reply)).toBe('black-holes');
    expect(reply.imagePrompt).toBeDefined();
  });

  it('in a quiz, judges a topic name as an answer: "Mercury" is the wrong hottest planet', async () => {
    // A young explorer's Venus question: which planet is the hottest?
    const talk = new Conversation('en-US', 'child');
    const start = await talk.say('Quiz me on Venus');
    expect(askedAbout('en-US', start)).toBe('venus');
    const reply = await talk.say('Mercury');
    expect(reply.check).toEqual({ type: 'answer', correct: false, openQuestion: true });
    // The hint speaks to that mistake (docs/behaviour.md §17.2).
    expect(reply.response).toContain(topicText('en-US', 'venus').childCheck.mistakes[0]?.hint);
  });

  it('in a quiz, answers a question of the learner’s own, then asks the quiz’s question again', async () => {
    const talk = new Conversation('en-US', 'child');
    await talk.say('Quiz me on Venus');
    const reply = await talk.say('Why is Mercury so full of craters?');
    expect(reply.check).toEqual({ type: 'question' });
    expect(reply.response).toContain('craters');
    expect(askedAbout('en-US', reply)).toBe('venus');
    const right = await talk.say('Venus');
    expect(right.check).toEqual({ type: 'answer', correct: true, openQuestion: true });
    expect(right.response).toContain('Next question');
  });

  it('answers a question about another topic, even one holding the answer, then asks again', async () => {
    const talk = new Conversation('en-US');
    await talk.say('What is the Moon made of?');
    const reply = await talk.say('How far away is the Sun?');
    expect(reply.check).toEqual({ type: 'question' });
    expect(reply.response).toContain('150 million km');
    expect(askedAbout('en-US', reply)).toBe('moon');
  });

  it.each([
    ['en-US', 'What causes the tides?', 'Is it the Moon?'],
    ['ja-JP', '潮の満ち引き', '月ですか？'],
  ] as const)('in %s, takes a short guess in a question as an answer', async (language, lesson, guess) => {
    const talk = new Conversation(language);
    await talk.say(lesson);
    expect((await talk.say(guess)).check).toEqual({ type: 'answer', correct: true });
  });

  it('never takes "no idea" for the answer "no"-like words: it is a try without an answer', async () => {
    const talk = new Conversation('en-US');
    await talk.say('black holes');
    expect((await talk.say('no idea')).check).toEqual({ type: 'answer', correct: false, openQuestion: true });
  });

  it('reads the open question only from Astro’s last turn', async () => {
    const mars = topicText('en-US', 'mars');
    const history: ChatTurn[] = [
      { role: 'user', content: 'Mars' },
      { role: 'assistant', content: `${mars.explanation} ${mars.check.question}` },
      { role: 'user', content: 'hello' },
      { role: 'assistant', content: data('en-US').greeting },
    ];
    const reply = await tutor.reply({ userMessage: 'rust', language: 'en-US', history });
    expect(reply.check?.type).not.toBe('answer');
  });
});

describe.each(TAUGHT)('quiz me, in %s', (language) => {
  const texts = data(language);

  /** Asks for a quiz and answers it: each entry says whether to answer rightly. */
  async function quiz(talk: Conversation, request: string, answers: readonly boolean[][]) {
    const replies: TutorReply[] = [await talk.say(request)];
    for (const tries of answers) {
      for (const right of tries) {
        const last = replies[replies.length - 1] as TutorReply;
        replies.push(right ? await talk.answerRightly(last) : await talk.say(DONT_KNOW[language]));
      }
    }
    return replies;
  }

  it('starts with a question on "quiz me", naming the three topics', async () => {
    const start = await new Conversation(language).say(QUIZ_ME[language]);
    expect(start.check).toEqual({ type: 'question' });
    const [lead] = texts.quizStart.split('{topics}');
    expect(start.response.startsWith(lead ?? '')).toBe(true);
    expect(askedAbout(language, start)).toBeDefined();
  });

  it('gives the hint after "I don’t know", then counts the right answer and asks the next question', async () => {
    const talk = new Conversation(language);
    const start = await talk.say(QUIZ_ME[language]);
    const first = askedAbout(language, start) ?? '';

    const hint = await talk.say(DONT_KNOW[language]);
    expect(hint.check).toEqual({ type: 'answer', correct: false, openQuestion: true });
    expect(hint.response).toContain(topicText(language, first).check.hint);
    expect(askedAbout(language, hint)).toBe(first);

    const right = await talk.answerRightly(start);
    expect(right.check).toEqual({ type: 'answer', correct: true, openQuestion: true });
    expect(right.response.startsWith(texts.checkCorrect)).toBe(true);
    const second = askedAbout(language, right);
    expect(second).toBeDefined();
    expect(second).not.toBe(first);
    // The next topic was not taught in this conversation: its lesson comes before its question (§17.3).
    const next = topicText(language, second ?? '');
    expect(right.response).toContain(
      fill(texts.quizNext, { question: [next.explanation, next.check.question].join(joiner(language)) }),
    );
  });

  it('asks three different questions one at a time, then gives the score and a recap', async () => {
    const talk = new Conversation(language);
    // Right at once; wrong twice (the answer is revealed); wrong, then right.
    const replies = await quiz(talk, QUIZ_ME[language], [[true], [false, false], [false, true]]);
    const asked = replies.slice(0, -1).map((reply) => askedAbout(language, reply));
    const topics = [...new Set(asked)];
    expect(topics).toHaveLength(3);
    // Each judgement but the last asks a question again: the hint, or the quiz's next question.
    expect(replies.slice(1).map((reply) => reply.check)).toEqual([
      { type: 'answer', correct: true, openQuestion: true },
      { type: 'answer', correct: false, openQuestion: true },
      { type: 'answer', correct: false, openQuestion: true },
      { type: 'answer', correct: false, openQuestion: true },
      { type: 'answer', correct: true },
    ]);
    const names = topics.map((id) => topicText(language, id ?? '').name).join(texts.list.separator);
    const last = replies[replies.length - 1] as TutorReply;
    expect(last.response).toBe(
      [
        texts.checkCorrect,
        fill(texts.quizScore, { score: '2', total: '3', recap: fill(texts.quizRecap, { topics: names }) }),
      ].join(joiner(language)),
    );
    expect(askedAbout(language, last)).toBeUndefined();
  });

  it('quizzes on the topics of this conversation, never first on the question just answered', async () => {
    const talk = new Conversation(language);
    await talk.answerRightly(await talk.say(topicText(language, 'mars').keywords[0] ?? ''));
    await talk.answerRightly(await talk.say(topicText(language, 'comets').keywords[0] ?? ''));
    const replies = await quiz(talk, QUIZ_ME[language], [[true], [true]]);
    // docs/behaviour.md §17.3: the comets question was just answered, so the quiz opens on Mars.
    expect(replies.map((reply) => askedAbout(language, reply))).toEqual([
      'mars',
      'comets',
      expect.any(String),
    ]);
  });

  it('quizzes on a topic named in the request, and on topics related to it', async () => {
    const talk = new Conversation(language);
    const replies = await quiz(talk, QUIZ_ME_ON_PLANETS[language], [[true], [true], [true]]);
    expect(askedAbout(language, replies[0] as TutorReply)).toBe('solar-system');
    // Then the topic the named one leads on to.
    const leadsTo = knowledge.index.topics.find((topic) => topic.id === 'solar-system')?.next;
    expect(askedAbout(language, replies[1] as TutorReply)).toBe(leadsTo);
    expect(replies.slice(1).map((reply) => reply.check)).toEqual([
      { type: 'answer', correct: true, openQuestion: true },
      { type: 'answer', correct: true, openQuestion: true },
      { type: 'answer', correct: true },
    ]);
    expect((replies[3] as TutorReply).response).toContain(
      fill(texts.quizScore, { score: '3', total: '3', recap: '' }).trim(),
    );
  });

  it('streams the same quiz reply: the deltas, then done with its check', async () => {
    const talk = new Conversation(language);
    await talk.say(QUIZ_ME[language]);
    const request = { userMessage: DONT_KNOW[language], language, history: talk.history };
    const reply = await tutor.reply(request);
    const events: TutorStreamEvent[] = [];
    for await (const event of tutor.stream(request)) events.push(event);
    const text = events.map((event) => (event.type === 'delta' ? event.text : '')).join('');
    expect(text).toBe(reply.response);
    expect(events[events.length - 1]).toEqual({ type: 'done', response: reply.response, check: reply.check });
    expect(reply.check).toEqual({ type: 'answer', correct: false, openQuestion: true });
  });
});

describe('the quiz’s topics, with nothing to go on', () => {
  const index = new Map(knowledge.index.topics.map((topic) => [topic.id, topic]));
  const favourites = knowledge.index.topics.filter((topic) => topic.priority === 3).map((topic) => topic.id);

  /** The topics a quiz asked for `request` asks about, in order, answering each rightly. */
  async function quizTopics(request: string): Promise<(string | undefined)[]> {
    const talk = new Conversation('en-US');
    const replies = [await talk.say(request)];
    for (let question = 1; question < 3; question += 1) {
      replies.push(await talk.answerRightly(replies[replies.length - 1] as TutorReply));
    }
    return replies.map((reply) => askedAbout('en-US', reply));
  }

  it('starts on a popular topic the request picks, then the topics each leads on to', async () => {
    const requests = ['Quiz me!', 'Quiz me please', 'Quiz me now', 'Can you quiz me?', 'quiz me, Astro'];
    const firsts = new Set<string | undefined>();
    for (const request of requests) {
      const [first, second, third] = await quizTopics(request);
      expect(favourites).toContain(first);
      firsts.add(first);
      const leadsTo = index.get(first ?? '')?.next;
      expect(second).toBe(leadsTo);
      const then = index.get(second ?? '')?.next;
      if (then !== first) expect(third).toBe(then);
      // The same request gets the same quiz.
      expect(await quizTopics(request)).toEqual([first, second, third]);
    }
    // Different requests spread over the popular topics.
    expect(firsts.size).toBeGreaterThan(1);
  });
});

describe('a quiz after another tutor answered', () => {
  it('quizzes on the topics the learner named, newest first, when no reply holds a lesson', async () => {
    const history: ChatTurn[] = [
      { role: 'user', content: topicText('en-US', 'mars').keywords[0] ?? '' },
      { role: 'assistant', content: 'Mars is the red planet, with the tallest volcano we know.' },
      { role: 'user', content: topicText('en-US', 'comets').keywords[0] ?? '' },
      // Astro's words are not the learner's: Saturn here is no topic of the quiz's.
      { role: 'assistant', content: 'Good question! Saturn is my favourite planet, though.' },
    ];
    const start = await tutor.reply({ userMessage: 'Quiz me!', language: 'en-US', history });
    expect(askedAbout('en-US', start)).toBe('comets');
    expect(start.response).toContain(topicText('en-US', 'mars').name);
  });
});

describe('a quiz, read from the history alone', () => {
  it('goes on after the learner asks about something else mid-quiz: answered, then the quiz question', async () => {
    const talk = new Conversation('en-US', 'child');
    await talk.say('Quiz me on comets');
    const aside = await talk.say('What is a black hole?');
    expect(aside.response).toContain(whatIs('en-US', 'black-holes', 'child'));
    expect(askedAbout('en-US', aside)).toBe('comets');
    const right = await talk.say('away from the sun');
    expect(right.check).toEqual({ type: 'answer', correct: true, openQuestion: true });
    expect(right.response).toContain('Next question');
  });

  it('does not treat a quiz opening written by someone else as a quiz', async () => {
    const moon = topicText('en-US', 'moon').check;
    const history: ChatTurn[] = [
      { role: 'user', content: 'quiz me' },
      { role: 'assistant', content: `Quiz time! Three questions about unicorns. ${moon.question}` },
    ];
    const reply = await tutor.reply({ userMessage: moon.answers[0] ?? '', language: 'en-US', history });
    expect(reply.check).toEqual({ type: 'answer', correct: true });
    expect(reply.response).not.toContain('Next question');
  });
});
