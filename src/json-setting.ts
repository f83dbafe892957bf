/**
 * Settings given as JSON text (an environment variable, or the file one names): parsed and checked with the
 * setting's name in every error, so a typo fails at startup saying which setting and why, not with a bare
 * SyntaxError or zod's "Invalid key in record".
 */
import { readFileSync } from 'node:fs';
import { z } from 'zod';

/**
 * A setting given inline (`name`) or in a file (`name`_FILE, which wins): undefined when neither is set. A named
 * file must hold the setting: an empty one (a secret mounted before it was written) is an error, not "unset", which
 * for encryption keys would quietly write payloads in the clear.
 */
export function readJsonSetting<T extends z.ZodType>(
  name: string,
  values: { inline: string | undefined; file: string | undefined },
  schema: T,
): z.output<T> | undefined {
  if (values.file) return parseJsonSetting(`${name}_FILE (${values.file})`, readFileSync(values.file, 'utf8'), schema);
  return values.inline ? parseJsonSetting(name, values.inline, schema) : undefined;
}

/** Parses `raw` as JSON and checks it against `schema`; throws an Error that names `name`. */
export function parseJsonSetting<T extends z.ZodType>(name: string, raw: string, schema: T): z.output<T> {
  let value: unknown;
  try {
    value = JSON.parse(raw);
  } catch (err) {
    throw new Error(`Invalid ${name}: not JSON (${err instanceof Error ? err.message : String(err)})`);
  }
  const parsed = schema.safeParse(value);
  if (!parsed.success) throw new Error(`Invalid ${name}:\n${describeZodError(parsed.error)}`);
  return parsed.data;
}

/**
 * zod's own rendering, except that a record key that fails its schema says why: zod reports it as "Invalid key in
 * record" and keeps the key schema's message (a token too short, a name too long) nested where its prettifier
 * does not look.
 */
export function describeZodError(error: z.ZodError): string {
  const issues = error.issues.flatMap((issue) =>
    issue.code === 'invalid_key' && issue.issues.length ? issue.issues.map((inner) => ({ ...inner, path: issue.path })) : [issue],
  );
  return z.prettifyError(new z.ZodError(issues));
}
