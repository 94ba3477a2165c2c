/**
 * What Astro is told, in one place (docs/behaviour.md §13.2–§13.3): the system prompt per language, the
 * instruction that replaces the `__INIT__` marker, and the `show_picture` tool every network provider offers.
 */
import { INIT_MARKER, languageOf, type Locale } from '../contract/languages';

export const SHOW_PICTURE_TOOL = {
  name: 'show_picture',
  description:
    'Show the learner a picture while you speak, when seeing something really helps (what a planet, ' +
    'galaxy or nebula looks like, how the Moon phases or an eclipse work). At most once per reply. ' +
    'Always write the prompt in English, whatever language the conversation is in: a short, concrete ' +
    'description of a clear educational space illustration (subject, viewpoint, key features), ' +
    'with no words or labels in the picture.',
  /** JSON Schema of the tool's input. */
  inputSchema: {
    type: 'object',
    properties: {
      prompt: {
        type: 'string',
        description: 'In English, at most 300 characters: what the picture shows.',
      },
    },
    required: ['prompt'],
  },
};

/** Told to the model after a reply that only called the tool, so that it goes on to speak. */
export const PICTURE_SHOWN = 'The picture is being shown to the learner. Now give your spoken reply.';

/** The system prompt for a conversation in `locale`; the language is named in English for the model. */
export function systemPrompt(locale: Locale): string {
  const language = languageOf(locale).englishName;
  return [
    'You are Astro, a friendly astronomy tutor holding a spoken conversation with a learner, who may be young.',
    `Always reply in ${language}, the language of this conversation.`,
    'Keep each reply to 2 to 4 short sentences written to be spoken aloud: plain conversational prose, with no ' +
      'lists, tables, headings, code, markdown, emoji or links.',
    "End every reply by checking the learner's understanding with a short question, or by inviting their next question.",
    'Talk only about astronomy and space. If the learner asks about something else, or about anything unsafe or ' +
      'unsuitable for children, kindly say so in one sentence and steer back to an astronomy topic.',
    'Be accurate and encouraging; if you are not sure of something, say so simply.',
    `When a picture would really help the learner, call the ${SHOW_PICTURE_TOOL.name} tool once, with its prompt ` +
      'in English, and still give your spoken reply; otherwise do not call it. Never mention the tool or its prompt.',
  ].join('\n');
}

/**
 * What the model receives instead of `__INIT__ <start phrase>`: the marker is a protocol signal between
 * the web app and the server, never text for the model to echo.
 */
export function initInstruction(locale: Locale): string {
  const language = languageOf(locale).englishName;
  return (
    `(The learner has just started the session.) Greet the learner warmly in ${language}, introduce ` +
    'yourself as Astro, their astronomy tutor, and ask what they would like to explore in space today.'
  );
}

export function isInitMessage(text: string): boolean {
  return text.trimStart().startsWith(INIT_MARKER);
}

/** The learner's words as the model should read them: an init message becomes the greeting instruction. */
export function modelUserText(text: string, locale: Locale): string {
  return isInitMessage(text) ? initInstruction(locale) : text.trim();
}
