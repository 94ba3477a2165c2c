import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BEHAVIOUR_PATH, sectionsOf, withAnchors } from './behaviour-rules';

const behaviour = readFileSync(BEHAVIOUR_PATH, 'utf8');

describe('docs/behaviour.md', () => {
  it('has its contents list and an anchor on every section and rule (run `npx tsx test/docs/behaviour-rules.ts` if not)', () => {
    expect(withAnchors(behaviour) === behaviour).toBe(true);
  });

  it('numbers its sections 1, 2, 3… and each section’s rules from 1, so an anchor names one rule', () => {
    const sections = sectionsOf(behaviour);
    expect(sections.map((section) => section.number)).toEqual(sections.map((_, index) => index + 1));
    for (const section of sections) expect(section.rules).toBeGreaterThan(0);
    for (const section of sections) {
      const numbers = [...behaviour.matchAll(new RegExp(`<a id="${section.number}\\.(\\d+)"></a>`, 'g'))].map(
        (match) => Number(match[1]),
      );
      expect(numbers).toEqual(Array.from({ length: section.rules }, (_, index) => index + 1));
    }
  });

  it('writes the anchor of a new rule and the contents row of a new section', () => {
    const added = `${behaviour}\n## §99 A new section\n\n1. A new rule.\n2. <a id="1.1"></a>A rule pasted with a stale anchor.\n`;
    const anchored = withAnchors(added);
    expect(anchored).toContain('## <a id="99"></a>§99 A new section');
    expect(anchored).toContain('1. <a id="99.1"></a>A new rule.');
    expect(anchored).toContain('2. <a id="99.2"></a>A rule pasted with a stale anchor.');
    expect(anchored).toContain('- [§99 A new section](#99) (2 rules)');
    expect(withAnchors(anchored)).toBe(anchored);
  });
});
