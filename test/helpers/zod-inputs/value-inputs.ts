/** Inputs for the numbers, shapes, wrappers and effects, errors, config and JSON Schema of test/fixtures/zod-features. */
import fc from 'fast-check';
import { z } from 'zod';
import { date, inputs, isoDatetime, json, mostly, number, numeric, smallJson, text, word, type Arb } from './basics.js';

const bigintText = fc.oneof(
  fc.bigInt({ min: -(10n ** 20n), max: 10n ** 20n }),
  fc.bigInt({ min: -20n, max: 40n }),
  fc.constantFrom(2n ** 63n, 2n ** 63n - 1n, -(2n ** 63n), 2n ** 64n, 2n ** 64n - 1n),
);
const bigintInput = fc.oneof(
  { arbitrary: bigintText.map(String), weight: 6 },
  { arbitrary: fc.constantFrom('1.5', 'x', '', '12n'), weight: 1 },
  { arbitrary: json, weight: 1 },
);
const decisions = fc.constantFrom('approve', 'edit', 'reject', 'respond', 'APPROVE', 'ok', '');

export const valueInputs: Record<string, Arb> = {
  number: numeric,
  int: numeric,
  'number.int': numeric,
  positive: numeric,
  negative: numeric,
  nonnegative: numeric,
  nonpositive: numeric,
  multipleOf: numeric,
  'multipleOf.cents': numeric,
  'gt-lt': numeric,
  'gte-lte': numeric,
  'finite.coerced': fc.oneof(numeric, fc.constantFrom('Infinity', '-Infinity', '1e400', '12', ' 7 ', 'x')),
  int32: numeric,
  uint32: numeric,
  float32: numeric,
  float64: numeric,
  nan: fc.oneof(fc.constant('NaN'), numeric),
  'bigint.checks': fc.oneof(
    fc.integer({ min: -1, max: 40 }).map((n) => String(n * 5)),
    bigintInput,
  ),
  'bigint.positive': bigintInput,
  'bigint.coerce': fc.oneof(bigintInput, fc.integer(), fc.boolean()),
  int64: bigintInput,
  uint64: bigintInput,
  boolean: fc.oneof(fc.boolean(), json),
  'coerce.boolean': fc.oneof(fc.boolean(), smallJson, json),
  'coerce.date': fc.oneof(
    fc
      .date({ min: new Date('1990-01-01T00:00:00Z'), max: new Date('2110-01-01T00:00:00Z'), noInvalidDate: true })
      .map((d) => d.toISOString()),
    date.map((d) => d.getTime()),
    text,
  ),
  instanceof: fc.oneof(isoDatetime, text, json),
  null: fc.oneof(fc.constant(null), json),
  'object.undefined-void': fc.oneof(fc.constant({}), fc.record({ a: smallJson }, { requiredKeys: [] }), json),
  'any-unknown': fc.oneof(fc.tuple(json, json), json),
  never: fc.oneof(fc.constant({}), fc.record({ a: smallJson }), json),
  literal: fc.oneof(fc.constantFrom('refund', 'Refund', 'refund '), json),
  'literal.many': fc.oneof(fc.constantFrom('a', 1, true, null, 'b', 2, false), json),
  enum: fc.oneof(decisions, json),
  'enum.extract-exclude': fc.oneof(decisions, json),
  'enum.native': fc.oneof(fc.constantFrom(1, 'high', 'Low', 'High', 2), json),
  union: fc.oneof(word, number, json),
  xor: fc.oneof(word, json),
  discriminatedUnion: fc.oneof(
    fc.record(
      { type: fc.constantFrom('approve', 'edit', 'reject', 'other'), args: fc.dictionary(word, smallJson), message: word },
      { requiredKeys: ['type'] },
    ),
    json,
  ),
  intersection: fc.oneof(fc.record({ a: mostly(word), b: mostly(fc.integer()) }, { requiredKeys: [] }), json),
  'object.strip': fc.oneof(
    fc.record(
      {
        to: inputs(fc.stringMatching(z.regexes.email, { size: 'xsmall' })),
        amount: mostly(fc.integer({ min: 1, max: 99 })),
        extra: smallJson,
      },
      { requiredKeys: ['to', 'amount'] },
    ),
    json,
  ),
  'object.strict': fc.oneof(
    fc.record({ a: mostly(word), b: mostly(fc.integer()) }, { requiredKeys: ['a'] }),
    fc.record({ a: word, c: smallJson }),
    json,
  ),
  'object.loose': fc.oneof(fc.record({ a: mostly(word), z: smallJson }, { requiredKeys: [] }), json),
  'object.catchall': fc.oneof(fc.record({ a: mostly(word), n: mostly(fc.integer()), m: fc.integer() }, { requiredKeys: ['a'] }), json),
  'object.partial-required': fc.oneof(fc.record({ a: mostly(word), b: mostly(fc.integer()) }, { requiredKeys: [] }), json),
  'object.pick-omit-extend': fc.oneof(
    fc.record({ a: fc.oneof(word, smallJson), b: smallJson, c: smallJson, d: fc.oneof(fc.integer(), smallJson) }, { requiredKeys: [] }),
    json,
  ),
  'object.keyof': fc.oneof(fc.constantFrom('alpha', 'beta', 'gamma'), json),
  record: fc.oneof(
    fc.dictionary(fc.stringMatching(/^[a-z]{1,3}$/), mostly(fc.integer()), { maxKeys: 3 }),
    fc.dictionary(word, smallJson, { maxKeys: 3 }),
    json,
  ),
  // Exactly the enum's keys, then a key too many (one in twenty inputs was accepted when the extra key was optional).
  'record.enum-keys': fc.oneof(
    { arbitrary: fc.record({ a: mostly(word), b: mostly(word) }, { requiredKeys: ['a', 'b'] }), weight: 2 },
    fc.record({ a: mostly(word), b: mostly(word), c: word }, { requiredKeys: ['a', 'b'] }),
    json,
  ),
  partialRecord: fc.oneof(
    { arbitrary: fc.dictionary(fc.constantFrom('a', 'b'), mostly(word)), weight: 2 },
    fc.dictionary(fc.constantFrom('a', 'b', 'c'), mostly(word)),
    json,
  ),
  looseRecord: fc.oneof(fc.dictionary(fc.constantFrom('x1', 'xy', 'y', 'z'), smallJson), json),
  array: fc.oneof(fc.array(smallJson, { maxLength: 4 }), fc.array(word, { minLength: 1, maxLength: 4 }), json),
  'array.length': fc.oneof(fc.array(fc.integer(), { minLength: 1, maxLength: 3 }), json),
  'array.nonempty': fc.oneof(fc.array(fc.boolean(), { maxLength: 2 }), json),
  tuple: fc.oneof(fc.tuple(smallJson, smallJson), fc.tuple(word, fc.integer()), fc.array(smallJson, { maxLength: 3 }), json),
  'tuple.rest': fc.oneof(
    fc.tuple(word, fc.array(fc.integer(), { maxLength: 2 })).map(([s, n]) => [s, ...n]),
    fc.array(smallJson, { maxLength: 3 }),
    json,
  ),
  map: fc.oneof(fc.array(fc.tuple(word, fc.integer()), { maxLength: 3 }), fc.array(fc.tuple(smallJson, smallJson), { maxLength: 3 }), json),
  set: fc.oneof(fc.array(word, { maxLength: 5 }), fc.array(smallJson, { maxLength: 3 }), json),
  lazy: fc.oneof(
    // Bounded: an unbounded recursive arbitrary now and then builds a tree of millions of nodes.
    fc.letrec((tie) => ({
      tree: fc.record({
        name: word,
        children: fc.oneof({ maxDepth: 4, depthIdentifier: 'tree' }, fc.constant([]), fc.array(tie('tree'), { maxLength: 3 })),
      }),
    })).tree,
    json,
  ),
  json: fc.oneof(json, fc.constantFrom('x', 1, null)),
  custom: fc.oneof(
    text.map((s) => `x${s}`),
    json,
  ),
  'file.union': fc.oneof(text, json),
  optional: fc.oneof(fc.record({ a: smallJson }, { requiredKeys: [] }), json),
  exactOptional: fc.oneof(fc.record({ a: smallJson }, { requiredKeys: [] }), json),
  nullable: fc.oneof(word, fc.constant(null), json),
  nullish: fc.oneof(fc.record({ a: fc.oneof(fc.integer(), fc.constant(null), word) }, { requiredKeys: [] }), json),
  default: fc.oneof(fc.record({ a: fc.integer(), b: fc.array(word, { maxLength: 2 }) }, { requiredKeys: [] }), json),
  prefault: fc.oneof(fc.record({ a: text }, { requiredKeys: [] }), json),
  catch: fc.oneof(fc.record({ n: smallJson, s: smallJson }, { requiredKeys: [] }), json),
  readonly: fc.oneof(fc.record({ a: mostly(word) }), json),
  brand: fc.oneof(word, json),
  nonoptional: fc.oneof(word, json),
  refine: fc.oneof(word, json),
  superRefine: fc.oneof(fc.array(fc.integer({ min: 0, max: 3 }), { maxLength: 5 }), json),
  check: numeric,
  transform: fc.oneof(text, json),
  'transform.issue': fc.oneof(fc.integer().map(String), word, json),
  pipe: fc.oneof(fc.integer({ min: -3, max: 100 }).map(String), fc.double().map(String), word, json),
  preprocess: fc.oneof(
    fc.array(word, { maxLength: 3 }).map((a) => a.join(',')),
    json,
  ),
  overwrite: numeric,
  codec: fc.oneof(isoDatetime, text, json),
  'codec.stringbool-encode': fc.oneof(fc.constantFrom('yes', 'off', 'true', '0', 'maybe'), json),
  function: fc.oneof(fc.tuple(word, fc.integer({ min: -1, max: 6 })), fc.array(smallJson, { maxLength: 3 }), json),
  'async.refine-transform': fc.oneof(
    text.map((t) => `${t}@${t}`),
    text,
    json,
  ),
  compile: fc.oneof(
    fc.record(
      {
        email: fc.stringMatching(z.regexes.email, { size: 'xsmall' }),
        n: mostly(fc.nat(9)),
        tags: fc.array(mostly(word.map((w) => w.toUpperCase())), { maxLength: 3 }),
      },
      { requiredKeys: ['email', 'n'] },
    ),
    json,
  ),
};

const validOrder = fc.record(
  {
    to: fc.stringMatching(z.regexes.email, { size: 'xsmall' }),
    amount: fc.integer({ min: 1, max: 10_000 }).map((cents) => cents / 100),
    items: fc.array(fc.record({ sku: fc.stringMatching(/^[A-Z]{3}-\d+$/), qty: fc.integer({ min: 1, max: 9 }) }), {
      minLength: 1,
      maxLength: 2,
    }),
    when: isoDatetime,
  },
  { requiredKeys: ['to', 'amount', 'items'] },
);
const orderInput = fc.oneof(
  { arbitrary: validOrder, weight: 3 },
  {
    arbitrary: fc.record(
      {
        to: inputs(fc.stringMatching(z.regexes.email, { size: 'xsmall' })),
        amount: numeric,
        items: fc.array(fc.record({ sku: inputs(fc.stringMatching(/^[A-Z]{3}-\d+$/)), qty: numeric }, { requiredKeys: [] }), {
          maxLength: 2,
        }),
        when: inputs(isoDatetime),
      },
      { requiredKeys: ['to', 'items'] },
    ),
    weight: 3,
  },
  { arbitrary: json, weight: 1 },
);
const stringSchema = fc.record(
  { type: fc.constant('string'), minLength: fc.nat(3), format: fc.constantFrom('email', 'uuid', 'date-time', 'ipv4') },
  { requiredKeys: ['type'] },
);
const numberSchema = fc.record(
  { type: fc.constantFrom('integer', 'number'), minimum: fc.integer({ min: -5, max: 5 }), multipleOf: fc.constantFrom(1, 2, 0.5) },
  { requiredKeys: ['type'] },
);
const objectSchema = fc.record({
  type: fc.constant('object'),
  properties: fc.constant({ a: { type: 'string', pattern: '^[a-z]+$' }, b: { enum: ['x', 1, null] } }),
  required: fc.subarray(['a', 'b']),
  additionalProperties: fc.boolean(),
});
/** A JSON Schema, and a value of about the shape it describes. */
const jsonSchemaInput = fc.oneof(
  fc.record({
    jsonSchema: stringSchema,
    value: mostly(fc.oneof(fc.stringMatching(z.regexes.email, { size: 'xsmall' }), fc.uuid(), isoDatetime, fc.ipV4())),
  }),
  fc.record({
    jsonSchema: numberSchema,
    value: mostly(
      fc.oneof(
        fc.integer({ min: -6, max: 9 }),
        fc.integer({ min: -12, max: 18 }).map((n) => n / 2),
      ),
    ),
  }),
  fc.record({
    jsonSchema: objectSchema,
    value: mostly(
      fc.record(
        { a: mostly(fc.stringMatching(/^[a-z]{1,4}$/)), b: fc.constantFrom('x', 1, null, 'y'), c: smallJson },
        { requiredKeys: [] },
      ),
    ),
  }),
);

export const errorInputs: Record<string, Arb> = {
  prettifyError: orderInput,
  treeifyError: orderInput,
  flattenError: orderInput,
  formatError: orderInput,
  'config.locale': fc.record({ locale: fc.nat(), value: orderInput }),
  'config.customError': orderInput,
  'config.jitless': fc.oneof(fc.record({ a: mostly(word), b: mostly(fc.integer()) }, { requiredKeys: [] }), json),
  toJSONSchema: fc.record({
    source: fc.nat(),
    target: fc.constantFrom('draft-2020-12', 'draft-07', 'openapi-3.0', 'draft-04'),
    io: fc.constantFrom('input', 'output'),
  }),
  'toJSONSchema.registry': word,
  'meta.describe': text,
  fromJSONSchema: jsonSchemaInput,
};
