// @vitest-environment jsdom
// jsdom's DOMParser checks the SVG as strict XML, the way a browser loads an image/svg+xml file.
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createOfflineSketcher, sketch, subjectOf } from '#lambdas/pictures/offline-sketch';
import { loadKnowledge } from '#lambdas/tutor/offline/knowledge';

const SVG_NS = 'http://www.w3.org/2000/svg';

/** Parses as strict XML; throws if the document is not well formed. */
function parseSvg(svg: string): Document {
  const document = new DOMParser().parseFromString(svg, 'image/svg+xml');
  const error = document.getElementsByTagName('parsererror')[0];
  if (error) throw new Error(`not well-formed XML: ${error.textContent ?? ''}`);
  return document;
}

/** Everything that could make a same-origin SVG active or leak a request. */
function activeParts(document: Document): string[] {
  const found: string[] = [];
  for (const element of Array.from(document.getElementsByTagName('*'))) {
    const name = element.localName.toLowerCase();
    if (['script', 'foreignobject', 'iframe', 'image', 'use', 'a', 'style'].includes(name))
      found.push(`<${name}>`);
    for (const attribute of Array.from(element.attributes)) {
      const attr = attribute.name.toLowerCase();
      if (attr.startsWith('on')) found.push(`${name}@${attr}`);
      if (attr === 'href' || attr.endsWith(':href')) found.push(`${name}@${attr}`);
      if (/url\(\s*(?!#)/i.test(attribute.value) || /javascript:/i.test(attribute.value)) {
        found.push(`${name}@${attr}=${attribute.value}`);
      }
    }
  }
  return found;
}

const topicPrompts = loadKnowledge()
  .index.topics.map((topic) => topic.imagePrompt)
  .filter((prompt): prompt is string => prompt !== undefined);

describe('the offline sketcher', () => {
  it.each(topicPrompts)('draws a well-formed, inert 512×512 SVG with a title for “%s”', (prompt) => {
    const document = parseSvg(sketch(prompt));
    const root = document.documentElement;
    expect(root.namespaceURI).toBe(SVG_NS);
    expect(root.localName).toBe('svg');
    expect(root.getAttribute('viewBox')).toBe('0 0 512 512');
    expect(root.getAttribute('width')).toBe('512');
    expect(root.getElementsByTagName('title')[0]?.textContent).toBe(prompt);
    expect(activeParts(document)).toEqual([]);
  });

  it('escapes a hostile prompt into the title as plain text and adds no script', () => {
    const hostile = `</title><script>alert(1)</script><a href="https://evil.example" onclick="x()">&amp;"'`;
    const svg = sketch(hostile);
    const document = parseSvg(svg);
    expect(svg).not.toContain('<script');
    expect(svg).not.toContain('evil.example"');
    expect(document.getElementsByTagName('title')).toHaveLength(1);
    expect(document.getElementsByTagName('title')[0]?.textContent).toBe(hostile);
    expect(activeParts(document)).toEqual([]);
  });

  it('stays well formed and inert for any prompt, control characters and broken surrogates included', () => {
    fc.assert(
      fc.property(
        fc.constantFrom('', 'Saturn ', 'comet ', 'galaxy ', 'black hole ', 'rocket '),
        fc.string({ unit: 'binary', maxLength: 300 }),
        (subject, noise) => {
          const document = parseSvg(sketch(subject + noise));
          expect(activeParts(document)).toEqual([]);
          expect(document.getElementsByTagName('title')[0]?.textContent?.length).toBeGreaterThan(0);
        },
      ),
      { numRuns: 30 },
    );
  });

  it.each([
    ['Saturn, the ringed planet, with its wide bright rings of ice and rock', 'ringed planet'],
    ['A comet with a bright icy head and a long glowing tail', 'comet'],
    ['A spiral galaxy with glowing arms of stars', 'spiral galaxy'],
    ['A thin crescent moon above the sea', 'crescent moon'],
    ['The phases of the Moon in a row', 'moon phases'],
    ['The Sun, a glowing yellow star with flares', 'sun'],
    ['A star field full of twinkling stars', 'star field'],
    ['Mars, the red planet', 'mars'],
    ['Mercury, a small grey cratered planet very close to the bright Sun', 'mercury'],
    ['Jupiter with its Great Red Spot', 'jupiter'],
    ['Planet Earth from space', 'earth'],
    ['Neptune, a deep blue ice giant', 'neptune'],
    ['Uranus tipped on its side with faint rings', 'uranus'],
    ['A black hole with a glowing accretion disk', 'black hole'],
    ['A rocket launching into space', 'rocket'],
    ['The International Space Station above Earth', 'space station'],
    ['A telescope on a hill', 'telescope'],
    ['A total solar eclipse', 'eclipse'],
    ['A colourful nebula', 'nebula'],
    ['A quiet meadow at dusk', 'night sky'],
  ])('draws “%s” as a %s', (prompt, subject) => {
    expect(subjectOf(prompt)).toBe(subject);
  });

  it('draws different pictures for Saturn, a comet and a galaxy', () => {
    const pictures = ['Saturn and its rings', 'A bright comet', 'A spiral galaxy'].map((prompt) =>
      sketch(prompt),
    );
    expect(new Set(pictures).size).toBe(3);
    expect(pictures[0]).toContain('#d9c089'); // the ring colour
    expect(pictures[1]).toContain('dust-tail');
    expect(pictures[2]).toContain('galaxy-core');
  });

  it('draws the same picture for the same prompt, and varies the details between prompts', () => {
    expect(sketch('Saturn with its rings')).toBe(sketch('Saturn with its rings'));
    expect(sketch('Saturn with its rings')).not.toBe(sketch('Saturn and its rings at night'));
  });

  it('makes an SVG image through the PictureMaker interface', async () => {
    const sketcher = createOfflineSketcher();
    const made = await sketcher.make('Saturn with its rings');
    expect(sketcher.provider).toBe('offline');
    expect(made.contentType).toBe('image/svg+xml');
    expect(made.extension).toBe('svg');
    expect(new TextDecoder().decode(made.bytes)).toBe(sketch('Saturn with its rings'));
    expect(made.bytes.byteLength).toBeLessThan(64 * 1024);
  });

  it('stops before drawing when the request was already cancelled', async () => {
    const controller = new AbortController();
    controller.abort();
    await expect(createOfflineSketcher().make('Saturn', controller.signal)).rejects.toThrow();
  });
});
