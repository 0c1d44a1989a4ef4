// Text written as its lines, for the tests that expect a whole rendered text (plan, summary, log).

/** The lines joined with newlines: end with '' for a text that ends in a newline. */
export const textLines = (...lines: string[]): string => lines.join('\n')
