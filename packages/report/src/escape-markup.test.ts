import { fc, test } from '@fast-check/vitest';
import { describe, expect, it } from 'vitest';
import { escapeMarkup } from './escape-markup.js';

/** The inverse, written from the five entities (each decoded once, `&amp;` last). */
function decodeEntities(text: string): string {
  return text
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&');
}

describe('escapeMarkup', () => {
  it('turns the five markup characters into entities, ampersands first', () => {
    expect(escapeMarkup(`a<b>&"c"'d'`)).toBe('a&lt;b&gt;&amp;&quot;c&quot;&#39;d&#39;');
    expect(escapeMarkup('&lt;')).toBe('&amp;lt;');
  });

  test.prop([fc.string({ unit: 'binary' })])('leaves no markup character and loses nothing', (text) => {
    const escaped = escapeMarkup(text);
    expect(escaped).not.toMatch(/[<>"']/);
    expect(decodeEntities(escaped)).toBe(text);
  });
});
