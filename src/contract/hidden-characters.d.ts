/** Types of hidden-characters.js (plain JavaScript: the inbox page loads it as it is). */
export function codePointEscape(c: string): string;
export function revealHidden(text: string, show?: (c: string) => string): string;
