/** Inputs for the string formats and the string checks and transforms of test/fixtures/zod-features. */
import fc from 'fast-check';
import { z } from 'zod';
import { date, digits, inputs, isoDatetime, json, matching, text, type Arb } from './basics.js';

function luhn(body: number[]): string {
  const sum = body
    .slice()
    .reverse()
    .reduce((acc, d, i) => acc + (i % 2 === 0 ? [0, 2, 4, 6, 8, 1, 3, 5, 7, 9][d]! : d), 0);
  return body.join('') + String((10 - (sum % 10)) % 10);
}

function iban(country: string, bban: string): string {
  const numeric = [...`${bban}${country}00`].map((c) => (/\d/.test(c) ? c : String(c.charCodeAt(0) - 55))).join('');
  const check = 98 - Number(BigInt(numeric) % 97n);
  return `${country}${String(check).padStart(2, '0')}${bban}`;
}

const toBase64Url = (s: string) => s.replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
const base64url = fc.base64String().map(toBase64Url);
const jwt = fc
  .tuple(
    fc.record({ alg: fc.constantFrom('HS256', 'RS256', 'none', ''), typ: fc.constantFrom('JWT', 'jwt', undefined) }, { requiredKeys: [] }),
    fc.string({ maxLength: 30 }),
    base64url,
  )
  .map(([header, claim, signature]) => {
    const encode = (value: unknown) => toBase64Url(Buffer.from(JSON.stringify(value)).toString('base64'));
    return `${encode(header)}.${encode({ sub: claim })}.${signature}`;
  });

const offset = fc.tuple(fc.constantFrom('+', '-'), fc.integer({ min: 0, max: 25 }), fc.integer({ min: 0, max: 61 }));
const duration = fc
  .tuple(fc.option(fc.nat(99)), fc.option(fc.nat(11)), fc.option(fc.nat(40)), fc.option(fc.nat(30)), fc.option(fc.nat(70)))
  .map(
    ([y, m, d, h, s]) =>
      `P${y != null ? `${y}Y` : ''}${m != null ? `${m}M` : ''}${d != null ? `${d}D` : ''}${h != null || s != null ? 'T' : ''}${h != null ? `${h}H` : ''}${s != null ? `${s}S` : ''}`,
  );
const emoji = fc
  .array(fc.constantFrom('😀', '🎉', '👍🏽', '🇫🇷', '❤️', '1️⃣', '👨‍👩‍👧', 'a', '#'), { minLength: 1, maxLength: 4 })
  .map((e) => e.join(''));

export const stringFormatInputs: Record<string, Arb> = {
  email: matching(z.regexes.email),
  'email.html5': matching(z.regexes.html5Email),
  'email.rfc5322': matching(z.regexes.rfc5322Email),
  'email.unicode': matching(z.regexes.unicodeEmail),
  url: inputs(fc.webUrl({ withQueryParameters: true, withFragments: true })),
  'url.https-domain': inputs(fc.webUrl({ validSchemes: ['https', 'http'] })),
  'url.normalize': inputs(fc.webUrl().map((u) => ` ${u.toUpperCase()}`)),
  httpUrl: inputs(
    fc.oneof(
      fc.webUrl({ validSchemes: ['https', 'http', 'ftp'] }),
      fc.domain().map((d) => `https://${d}/x`),
    ),
  ),
  uuid: inputs(fc.uuid()),
  uuidv4: inputs(fc.uuid({ version: [4, 7] })),
  uuidv6: inputs(fc.uuid({ version: [6, 1] })),
  uuidv7: inputs(fc.uuid({ version: [7, 4] })),
  guid: matching(z.regexes.guid),
  cuid: matching(z.regexes.cuid),
  cuid2: matching(z.regexes.cuid2),
  ulid: inputs(fc.ulid()),
  xid: matching(z.regexes.xid),
  ksuid: matching(z.regexes.ksuid),
  nanoid: matching(z.regexes.nanoid),
  ipv4: inputs(fc.oneof(fc.ipV4(), fc.ipV4Extended())),
  ipv6: inputs(fc.ipV6()),
  cidrv4: inputs(fc.tuple(fc.ipV4(), fc.nat(40)).map(([ip, bits]) => `${ip}/${bits}`)),
  cidrv6: inputs(fc.tuple(fc.ipV6(), fc.nat(140)).map(([ip, bits]) => `${ip}/${bits}`)),
  mac: matching(z.regexes.mac(':')),
  'mac.dash': matching(z.regexes.mac('-')),
  base64: inputs(fc.base64String()),
  base64url: inputs(base64url),
  hex: matching(z.regexes.hex),
  'hash.sha256-hex': matching(z.regexes.sha256_hex),
  'hash.md5-base64': matching(z.regexes.md5_base64),
  'hash.sha1-base64url': matching(z.regexes.sha1_base64url),
  jwt: inputs(jwt),
  'jwt.HS256': inputs(jwt),
  e164: matching(z.regexes.e164),
  emoji: inputs(emoji),
  hostname: inputs(fc.domain()),
  creditCard: inputs(
    fc
      .integer({ min: 11, max: 18 })
      .chain((n) => digits(n))
      .map(luhn),
  ),
  iban: inputs(
    fc.tuple(fc.constantFrom('GB', 'DE', 'FR', 'NL'), fc.stringMatching(/^[A-Z0-9]{11,30}$/)).map(([country, bban]) => iban(country, bban)),
  ),
  currencyCode: inputs(fc.oneof(fc.constantFrom('EUR', 'USD', 'JPY', 'XXX', 'CHF'), fc.stringMatching(/^[A-Z]{3}$/))),
  'iso.date': inputs(date.map((d) => d.toISOString().slice(0, 10))),
  'iso.time': inputs(isoDatetime.map((s) => s.slice(11, 19))),
  'iso.time.precision3': inputs(isoDatetime.map((s) => s.slice(11, 23))),
  'iso.datetime': inputs(isoDatetime),
  'iso.datetime.offset-local': inputs(
    fc
      .tuple(isoDatetime, offset, fc.nat(2))
      .map(([s, [sign, h, m], form]) =>
        form === 0
          ? s
          : form === 1
            ? s.slice(0, 19)
            : `${s.slice(0, 19)}${sign}${String(h).padStart(2, '0')}:${String(m).padStart(2, '0')}`,
      ),
  ),
  'iso.datetime.precision0': inputs(isoDatetime.map((s) => `${s.slice(0, 19)}Z`)),
  'iso.duration': inputs(duration),
  'stringFormat.fn': inputs(digits(4).map((d) => `ORD-${d.join('')}`)),
  'stringFormat.regex': matching(/^[A-Z]{3}-\d+$/),
  templateLiteral: inputs(fc.tuple(fc.nat(), fc.constantFrom('eu', 'us')).map(([n, region]) => `order-${n}-${region}`)),
  stringbool: inputs(fc.constantFrom('true', 'false', '1', '0', 'yes', 'no', 'on', 'off', 'enabled', 'disabled', 'Y', 'n', 'maybe')),
};

export const stringCheckInputs: Record<string, Arb> = {
  lowercase: inputs(
    fc.oneof(
      text.map((s) => s.toLowerCase()),
      text,
    ),
  ),
  uppercase: inputs(
    fc.oneof(
      text.map((s) => s.toUpperCase()),
      text,
    ),
  ),
  regex: matching(/^[a-z]+-\d+$/),
  'regex.global': inputs(fc.stringMatching(/^x?ab+y?$/)),
  'regex.sticky': inputs(fc.stringMatching(/^(ab+)?x?$/)),
  'regex.unicode': inputs(fc.constantFrom('Émile', 'Ada', 'ßig', 'Zoë', 'a')),
  startsWith: inputs(text.map((s) => `ord_${s}`)),
  endsWith: inputs(text.map((s) => `${s}.pdf`)),
  includes: inputs(text.map((s) => `x@${s}`)),
  'length.min-max': inputs(text),
  'length.exact': inputs(fc.string({ minLength: 4, maxLength: 6 })),
  nonempty: inputs(text),
  trim: inputs(text.map((s) => `  ${s}\n`)),
  toLowerCase: inputs(text.map((s) => `Ab${s}`)),
  toUpperCase: inputs(text.map((s) => `${s}z`)),
  normalize: inputs(fc.constantFrom('e\u0301', 'é', 'A\u030a', 'abcd', 'x\u0301\u0301')),
  slugify: inputs(text),
  'coerce.string': fc.oneof(text, fc.integer(), fc.boolean(), fc.constant(null), json),
  'messages.custom': inputs(text),
};
