import type { messages as english } from './languages/en-US';

/**
 * Every string the UI shows: one file per language in `languages/` (docs/behaviour.md §2.24), each its own
 * chunk, loaded with the language (`language-strings.ts`). English names the keys and every language has
 * exactly these: a missing or an extra key is a compile error. `{provider}`, `{n}` and the rest are filled
 * in by `format`. A feedback rating's name (`rating`) never speaks of stars: stars are what the learner
 * earns (§2.23), a rating is a score out of five (§2.17).
 */
export type MessageKey = keyof typeof english;
export type Messages = Readonly<Record<MessageKey, string>>;

/** Fills `{name}` placeholders. */
export function format(template: string, values: Readonly<Record<string, string | number>>): string {
  return template.replace(/\{(\w+)\}/g, (match, name: string) =>
    name in values ? String(values[name]) : match,
  );
}
