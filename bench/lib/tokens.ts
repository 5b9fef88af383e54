/**
 * The one token estimate every context-size figure uses (bench/surfaces.ts,
 * docs/surfaces.md): a token per 4 characters of the text as it is sent,
 * rounded up. No tokenizer is the model's own, so the figures compare
 * surfaces with each other, not with a provider's bill.
 */
export const CHARS_PER_TOKEN = 4;

export function estimateTokens(text: string): number {
  return Math.ceil(text.length / CHARS_PER_TOKEN);
}
