/** Placeholder. */
export const hello = (): number => 1;
