/**
 * Tool names and the patterns that pick them. MCP tools are named `<server>__<tool>`: the model API's name rule
 * (letters, digits, `_`, `-`, at most 64) holds, and two servers with a tool of the same name never collide.
 *
 * A pattern is a name in which `*` stands for any run of characters (none included); every other character is
 * itself. That is the whole rule: tool names have no `/`, `?` or brackets, so a fuller glob would only add ways to
 * be surprised. Pure and deterministic, for workflow code.
 */

/** The model API's rule for function names (Chat Completions). */
export const TOOL_NAME = /^[a-zA-Z0-9_-]{1,64}$/;

/** An MCP server's name in an agent: letters, digits, `-` and single `_` (never `__`, nor a trailing `_`). */
export const MCP_SERVER_NAME = /^[a-zA-Z0-9](?:[a-zA-Z0-9-]|_(?!_|$))*$/;

/** Between an MCP server's name and its tool's. */
export const MCP_SEPARATOR = '__';

export function mcpToolName(server: string, tool: string): string {
  return `${server}${MCP_SEPARATOR}${tool}`;
}

/** The server part of an MCP name or pattern (`fs` for `fs__read_*`), if it has one. */
export function mcpServerOf(nameOrPattern: string): string | undefined {
  const at = nameOrPattern.indexOf(MCP_SEPARATOR);
  return at > 0 ? nameOrPattern.slice(0, at) : undefined;
}

export function isPattern(text: string): boolean {
  return text.includes('*');
}

/** Whether `name` matches `pattern` (see the rule above). Linear in their lengths: no backtracking blow-up. */
export function matchesPattern(pattern: string, name: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === name;
  const first = parts[0]!;
  const last = parts[parts.length - 1]!;
  if (name.length < first.length + last.length || !name.startsWith(first) || !name.endsWith(last)) return false;
  let at = first.length;
  const end = name.length - last.length;
  for (const middle of parts.slice(1, -1)) {
    const found = name.indexOf(middle, at);
    if (found === -1 || found + middle.length > end) return false;
    at = found + middle.length;
  }
  return true;
}

/** How specific a pattern is: its characters other than `*`. The more, the more it outranks other patterns. */
export function specificity(pattern: string): number {
  return pattern.split('*').join('').length;
}

/**
 * The key of `entries` that speaks for `name`: the name itself, else the most specific pattern that matches it
 * (the most characters other than `*`; on a tie, the first in code-point order). Deterministic whatever the order
 * of the keys, so a policy read back from history decides as it did.
 */
export function bestMatch(keys: readonly string[], name: string): string | undefined {
  if (keys.includes(name)) return name;
  let best: string | undefined;
  let bestScore = -1;
  for (const key of keys) {
    if (!isPattern(key) || !matchesPattern(key, name)) continue;
    const score = specificity(key);
    if (score > bestScore || (score === bestScore && best !== undefined && key < best)) {
      best = key;
      bestScore = score;
    }
  }
  return best;
}
