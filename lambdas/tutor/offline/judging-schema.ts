/**
 * The judging block of a language's lesson file (docs/behaviour.md §17.2): the words its learners use to
 * negate, contrast, set aside, name both options, ask for help and ask questions of their own.
 */
import { z } from 'zod';

/** A learner's phrase, matched after folding. */
const phrase = z.string().trim().min(1).max(60);
/** At least `min` phrases. */
export const phrases = (min: number) => z.array(phrase).min(min);

/**
 * How the language's learners answer a check question (docs/behaviour.md §17.2): what negates an option,
 * what sets a reason or a comparison aside, what names both options, what asks for help, and what makes a
 * message a question of the learner's own.
 */
export const judgingSchema = z
  .strictObject({
    /** Negations that reach forward to the end of their clause: "not", "isn't", "no es", «ليس», 不是. */
    negationBefore: phrases(0),
    /** Negations written right after what they negate (within a few characters): 「じゃない」「ではない」. */
    negationAfter: phrases(0).default([]),
    /** A negation that ends its clause negates the whole clause: German "… ist es nicht". */
    negationFinal: phrases(0).default([]),
    /** Words that start a new claim, ending a negation's reach: "but", "rather", "sondern", «بل», 而是. */
    contrast: phrases(1),
    /** Words before a reason or a comparison ("because", "like"): an option after them is not the answer. */
    asideBefore: phrases(0).default([]),
    /** The same written after it: 「から」「みたいに」. */
    asideAfter: phrases(0).default([]),
    /** "Both", "a bit of both", "las dos", 「両方」: the learner has not chosen. */
    both: phrases(3),
    /**
     * Statements that nobody knows something, which hold an "I don't know" phrase without giving up:
     * 谁也不知道 holds 不知道 (docs/behaviour.md §17.2).
     */
    nobodyKnows: phrases(0).default([]),
    /**
     * Asking for help with the question instead of answering it, at least four ways each, as learners
     * type and as speech recognition writes them (no punctuation).
     */
    help: z.strictObject({
      /** "why?", "how come?" */
      why: phrases(4),
      /** "what do you mean?", "what does that mean?" */
      meaning: phrases(4),
      /** "I don't get it", "I'm confused" */
      lost: phrases(4),
      /** "explain again", "say that again" */
      again: phrases(4),
      /** "say it simpler", "in easier words" */
      simpler: phrases(4),
      /** "tell me more", "more about that first" */
      more: phrases(4),
    }),
    /**
     * Words that make a message a question of the learner's own ("why", "how far", "what is"): never an
     * answer. In spaced scripts they count at the start (after openers); in Chinese and Japanese, at the
     * start or the end, or anywhere in a message ending as a question («なにも», 「什么都」 are not questions).
     */
    questionWords: phrases(5),
    /** Words that may come before a question word: "oh", "wait", "and", "y", "pero", "oye". */
    openers: phrases(0).default([]),
    /** Words that open a yes-or-no question ("is it", "can we"): a question when it names no option. */
    askWords: phrases(3),
  })
  .refine(
    (judging) =>
      judging.negationBefore.length + judging.negationAfter.length + judging.negationFinal.length >= 3,
    'a language needs at least three ways to negate',
  );
