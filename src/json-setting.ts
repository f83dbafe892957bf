/**
 * Settings given as JSON text (an environment variable, or the file one names): parsed and checked with the
 * setting's name in every error, so a typo fails at startup saying which setting and why, not with a bare
 * SyntaxError or zod's "Invalid key in record".
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { duplicateKey } from './bounds/duplicate-keys.js';
import { jsonPathText } from './bounds/json-path.js';
import { protoKeyPath } from './bounds/proto-keys.js';

/**
 * A setting given inline (`name`) or in a file (`name`_FILE, which wins): undefined when neither is set. A named
 * file must hold the setting: an empty one (a secret mounted before it was written) is an error, not "unset", which
 * for encryption keys would quietly write payloads in the clear. `secretKeys`: the record's keys are secrets (API
 * tokens), so errors show only their first characters.
 */
export function readJsonSetting<T extends z.ZodType>(
  name: string,
  values: { inline: string | undefined; file: string | undefined; secretKeys?: boolean },
  schema: T,
): z.output<T> | undefined {
  const { secretKeys = false } = values;
  if (values.file) {
    const setting = `${name}_FILE (${values.file})`;
    let text: string;
    try {
      text = readFileSync(values.file, 'utf8');
    } catch (err) {
      // Node's message names neither the setting nor, for a directory, the file.
      throw new Error(`Invalid ${setting}: cannot read it (${(err as NodeJS.ErrnoException).code ?? String(err)})`);
    }
    return parseJsonSetting(setting, text, schema, { secretKeys });
  }
  return values.inline ? parseJsonSetting(name, values.inline, schema, { secretKeys }) : undefined;
}

/**
 * Parses `raw` as JSON and checks it against `schema`; throws an Error that names `name`. The error never repeats
 * the text: settings like these hold keys and tokens, and errors end up in logs.
 */
export function parseJsonSetting<T extends z.ZodType>(
  name: string,
  raw: string,
  schema: T,
  options: { secretKeys?: boolean } = {},
): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    // V8's message quotes the text ("k1=abc" is not valid JSON); only where it went wrong is kept.
    const where = /at position \d+(?: \(line \d+ column \d+\))?/.exec(err instanceof Error ? err.message : '')?.[0];
    throw new Error(`Invalid ${name}: not JSON${where ? ` (${where})` : raw.trim() ? '' : ' (it is empty)'}`);
  }
  // JSON.parse keeps it as a key, and a copy made key by key (zod's records) drops it as a prototype: a key id or a
  // token named so would vanish without a word.
  const protoKey = protoKeyPath(value);
  if (protoKey !== undefined) {
    throw new Error(
      `Invalid ${name}: it has a key named __proto__${options.secretKeys ? '' : ` (at ${protoKey})`}, which cannot be read the same way everywhere`,
    );
  }
  // A key named twice is a mistake JSON.parse hides: a token copied for a second person keeps only its last identity.
  const repeated = duplicateKey(raw);
  if (repeated) {
    // Under secret keys any name may be a token, wherever a misshaped setting put it.
    const shown = (name: string) => (options.secretKeys ? redact(name) : name);
    const path = repeated.path.map((p) => (typeof p === 'string' ? shown(p) : p));
    const at = path.length ? ` (in ${jsonPathText(path)})` : '';
    throw new Error(`Invalid ${name}: the key "${shown(repeated.key)}" appears twice in one object${at}`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`Invalid ${name}:\n${describeZodError(parsed.error, options)}`);
  return parsed.data;
}

/** The first characters of a secret record key: enough to tell which entry is meant. */
const redact = (key: PropertyKey) => `${String(key).slice(0, 4)}…`;

/**
 * zod's own rendering, except that a record key that fails its schema says why: zod reports it as "Invalid key in
 * record" and keeps the key schema's message (a token too short, a name too long) nested where its prettifier
 * does not look. With `secretKeys`, the record's keys (first in every path) are cut to their first characters, and
 * so is every key named as unrecognized: in a misshaped setting (a brace in the wrong place) a token is one of those.
 */
export function describeZodError(error: z.ZodError, options: { secretKeys?: boolean } = {}): string {
  const issues = error.issues.flatMap((issue) =>
    issue.code === 'invalid_key' && issue.issues.length ? issue.issues.map((inner) => ({ ...inner, path: issue.path })) : [issue],
  );
  const shown = options.secretKeys ? issues.map(redactIssue) : issues;
  return z.prettifyError(new z.ZodError(shown));
}

function redactIssue(issue: z.core.$ZodIssue): z.core.$ZodIssue {
  const path = issue.path.map((p, i) => (i === 0 ? redact(p) : p));
  if (issue.code !== 'unrecognized_keys') return { ...issue, path };
  const keys = issue.keys.map(redact);
  return { ...issue, path, keys, message: `Unrecognized key${keys.length > 1 ? 's' : ''}: ${keys.map((k) => `"${k}"`).join(', ')}` };
}
