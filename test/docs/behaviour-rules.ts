/**
 * docs/behaviour.md's links: a contents list of its sections and a stable anchor on every rule, so that a
 * comment, a note or a review can link a rule (`docs/behaviour.md#4.7`) as well as cite it (`§4.7`).
 * The anchors follow from the numbers, so this module writes them: `npx tsx test/docs/behaviour-rules.ts`
 * brings the file up to date after a rule or a section is added, and behaviour-rules.test.ts fails until
 * it has been run.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

export const BEHAVIOUR_PATH = fileURLToPath(new URL('../../docs/behaviour.md', import.meta.url));

const CONTENTS_START = '<!-- contents: written by test/docs/behaviour-rules.ts -->';
const CONTENTS_END = '<!-- /contents -->';
/** `## §4 States and transitions`, with or without its anchor. */
const SECTION = /^## (?:<a id="[^"]*"><\/a>)?§(\d+) (.+)$/;
/** `7. …` at the start of a line: a rule of the current section, with or without its anchor. */
const RULE = /^(\d+)\. (?:<a id="[^"]*"><\/a>)?/;

export interface Section {
  readonly number: number;
  readonly title: string;
  readonly rules: number;
}

/** The sections and how many rules each has, in the file's order. */
export function sectionsOf(text: string): Section[] {
  const sections: { number: number; title: string; rules: number }[] = [];
  for (const line of text.split('\n')) {
    const section = SECTION.exec(line);
    if (section) sections.push({ number: Number(section[1]), title: section[2] ?? '', rules: 0 });
    else if (RULE.test(line) && sections.length > 0) {
      const current = sections[sections.length - 1];
      if (current) current.rules += 1;
    }
  }
  return sections;
}

function contentsOf(sections: readonly Section[]): string {
  const rows = sections.map(
    (section) => `- [§${section.number} ${section.title}](#${section.number}) (${section.rules} rules)`,
  );
  return [CONTENTS_START, '', ...rows, '', CONTENTS_END].join('\n');
}

/**
 * The file with an anchor on every section heading (`id="4"`) and every rule (`id="4.7"`, the rule's own
 * number), and its contents list, placed before the first section, brought up to date.
 */
export function withAnchors(text: string): string {
  let section: number | undefined;
  const lines = text.split('\n').map((line) => {
    const heading = SECTION.exec(line);
    if (heading) {
      section = Number(heading[1]);
      return `## <a id="${section}"></a>§${section} ${heading[2] ?? ''}`;
    }
    const rule = RULE.exec(line);
    if (rule && section !== undefined) {
      return `${rule[1]}. <a id="${section}.${rule[1]}"></a>${line.slice(rule[0].length)}`;
    }
    return line;
  });
  const anchored = lines.join('\n');
  const contents = contentsOf(sectionsOf(anchored));
  const start = anchored.indexOf(CONTENTS_START);
  if (start >= 0) {
    const end = anchored.indexOf(CONTENTS_END, start) + CONTENTS_END.length;
    return anchored.slice(0, start) + contents + anchored.slice(end);
  }
  const firstSection = anchored.search(/^## <a id=/m);
  return `${anchored.slice(0, firstSection)}## Contents\n\n${contents}\n\n${anchored.slice(firstSection)}`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  writeFileSync(BEHAVIOUR_PATH, withAnchors(readFileSync(BEHAVIOUR_PATH, 'utf8')));
}
