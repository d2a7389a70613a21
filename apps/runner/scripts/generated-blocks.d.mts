/** A generated block of a Markdown text: the file and part it names, what it holds, what its file gives. */
export interface GeneratedBlock {
  file: string;
  part: string | undefined;
  shown: string;
  expected: string;
}
export function generatedBlocks(markdown: string, docs: string): GeneratedBlock[];
export function fillGeneratedBlocks(markdown: string, docs: string): string;
