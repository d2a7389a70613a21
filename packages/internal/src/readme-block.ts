// Test-only helpers for the packages' README tests (test/readme.test.ts): they read a README's usage block
// back as statements and the comments that show their outputs. Never imported by a package's src.

/** A line split at its first `//` outside a string literal: the code, and the comment (or null). */
export function splitComment(line: string): { code: string; comment: string | null } {
  let quote: string | null = null;
  for (let i = 0; i < line.length; i++) {
    const c = line[i]!;
    if (quote !== null) {
      if (c === '\\') i++;
      else if (c === quote) quote = null;
    } else if (c === "'" || c === '"' || c === '`') quote = c;
    else if (c === '/' && line[i + 1] === '/')
      return { code: line.slice(0, i), comment: line.slice(i + 2).trim() };
  }
  return { code: line, comment: null };
}

/** The block cut into statements: a statement ends on the first line where its brackets are all closed. */
export function statements(block: string): { lines: string[]; next: string[] }[] {
  const lines = block.split('\n');
  const result: { lines: string[]; next: string[] }[] = [];
  let current: string[] = [];
  let depth = 0;
  lines.forEach((line, k) => {
    const { code } = splitComment(line);
    if (current.length === 0 && code.trim() === '') return;
    current.push(line);
    for (const c of code.replace(/'(?:\\.|[^'\\])*'/g, "''")) {
      if ('([{'.includes(c)) depth++;
      else if (')]}'.includes(c)) depth--;
    }
    if (depth === 0) {
      // The comment lines right after the statement.
      const next: string[] = [];
      for (let j = k + 1; j < lines.length && /^\s*\/\/ /.test(lines[j]!); j++) next.push(lines[j]!);
      result.push({ lines: current, next });
      current = [];
    }
  });
  return result;
}

/** The text's tokens joined by single spaces (line breaks and indentation aside). */
export const tokens = (text: string): string => text.replace(/\s+/g, ' ').trim();
