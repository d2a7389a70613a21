/**
 * Escapes text for the content and the quoted attribute values of HTML and XML (SVG): the five characters
 * with a meaning there become entities.
 *
 * @param text - any text
 * @returns the text, safe inside an element or a single- or double-quoted attribute
 * @throws never: every string is escaped
 * @example
 * ```ts
 * escapeMarkup(`P(a*) < 1 & "x"`); // 'P(a*) &lt; 1 &amp; &quot;x&quot;'
 * ```
 */
export function escapeMarkup(text: string): string {
  return text
    .replaceAll('&', '&amp;')
    .replaceAll('<', '&lt;')
    .replaceAll('>', '&gt;')
    .replaceAll('"', '&quot;')
    .replaceAll("'", '&#39;');
}
