/**
 * Preloaded once per worker (PRELOADED_MODULES), before the SDK freezes the sandbox's globals: the globals that
 * Node has, that workflow code and its libraries (zod) use, and that the workflow sandbox lacks. Each is a pure
 * function of its input, so every run and every replay sees the same behaviour.
 */
import { decode, encode } from 'base-64';

const sandbox = globalThis as Record<string, unknown>;

// zod's base64, base64url and jwt checks and its base64 codecs call atob and btoa. base-64 implements the HTML
// standard's forgiving-base64 decode, as Node's atob does: the same inputs decode, the same inputs throw.
if (typeof sandbox.atob !== 'function') sandbox.atob = (data: string) => decode(String(data));
if (typeof sandbox.btoa !== 'function') sandbox.btoa = (data: string) => encode(String(data));

// z.file() asks `value instanceof File`. Nothing a workflow receives is a File (its inputs are payloads), so the
// answer is always no, as in Node for the same values; a workflow that tries to make one is told why it cannot.
if (typeof sandbox.File !== 'function') {
  sandbox.File = class File {
    constructor() {
      throw new TypeError('File is not available in workflow code: workflow inputs and results are payloads');
    }
  };
}

// The SDK replaces Date with an anonymous function, so what names a class ("expected Date" from z.instanceof)
// would name none.
if (Date.name !== 'Date') Object.defineProperty(Date, 'name', { value: 'Date', configurable: true });
