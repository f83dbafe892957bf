/**
 * The shapes of values the environment's settings take (src/config.ts), each refused with a message that says what
 * it must be: zod's coercions read `0x1F90` as 8080, `1e3` as 1000 and `80.0` as 80, and `z.url()` takes any
 * scheme (`javascript:`, `file:`), none of which a setting here means.
 */
import net from 'node:net';
import { z } from 'zod';

/**
 * A whole number in digits, from `min` to `max`: the rule the CLI's options follow (parseCount in
 * src/client/cli/option-values.ts). `unit` words the bound ("bytes", "runs"); the message names both ends.
 */
export function wholeNumber(min: number, max: number, unit = '') {
  const message = `must be a whole number from ${min} to ${max}${unit ? ` ${unit}` : ''}, in digits`;
  return z
    .string()
    .refine((value) => /^\d{1,15}$/.test(value) && Number(value) >= min && Number(value) <= max, message)
    .transform(Number);
}

/** A port to listen on; `zero` allows 0 (the system picks a free one). */
export const port = ({ zero }: { zero: boolean }) => wholeNumber(zero ? 0 : 1, 65535);

/** An http(s) URL: the settings that take a URL link to it, fetch from it or compare tokens' issuers with it. */
export const httpUrl = (error = 'must be an http(s) URL') => z.url({ protocol: /^https?$/, error });

/**
 * A name Temporal or a token compares as given (a task queue, a namespace, an issuer): padding or a control character
 * would make it another name, which no worker polls or no token carries.
 */
export const exactName = () =>
  z
    .string()
    .min(1)
    .refine((value) => value.trim() === value, 'must not begin or end with spaces')
    .refine((value) => !/[\p{Cc}]/u.test(value), 'must not hold control characters (a line break, a tab)')
    // A zero-width or bidi character, or a space that is not one, makes a name no one types or sends.
    .refine((value) => !/[\p{Cf}\p{Zl}\p{Zp}]|(?! )\p{Zs}/u.test(value), 'must not hold invisible characters or spaces other than " "');

/**
 * `IP:port` for the worker's Prometheus endpoint: the SDK's core takes a socket address, an IP and not a host name
 * ("invalid socket address syntax" from deep in the runtime otherwise), and a port a scraper can be pointed at.
 */
export const socketAddress = () =>
  z.string().refine((value) => {
    const match = /^(?:\[([0-9a-fA-F:.]+)\]|([0-9.]+)):(\d{1,5})$/.exec(value);
    if (!match) return false;
    const ip = match[1] ?? match[2]!;
    const portNumber = Number(match[3]);
    return net.isIP(ip) === (match[1] ? 6 : 4) && portNumber >= 1 && portNumber <= 65535;
  }, 'must be IP:port with a port from 1 to 65535, e.g. 0.0.0.0:9464 or [::]:9464 (an IP address, not a host name)');
