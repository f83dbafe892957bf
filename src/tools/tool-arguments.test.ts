import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { McpTool } from '../schemas/mcp-tool.js';
import { toolSpecs } from './registry.js';
import { parseToolArguments } from './tool-arguments.js';

/** An MCP tool whose schema, as most do, lets any other key and any number through. */
const open: McpTool = {
  name: 'fs__write',
  server: 'fs',
  tool: 'write',
  description: 'Writes.',
  inputSchema: { type: 'object', properties: { path: { type: 'string' }, n: { type: 'number' } } },
};
const mcp = (raw: string, options?: { plainJsonOnly?: boolean }) => parseToolArguments(open.name, raw, {}, [open.name], [open], options);

describe('parseToolArguments: JSON that is not plain', () => {
  it('refuses a __proto__ key or a number read as Infinity in an MCP call, and says where', () => {
    expect(mcp('{"path": "a", "__proto__": {"isAdmin": true}}')).toEqual({
      ok: false,
      problem: 'invalid_arguments',
      message:
        'Error: invalid arguments for fs__write:\n✖ a key named __proto__ is not allowed (at __proto__)\nFix them and call the tool again.',
    });
    expect(mcp('{"path": "a", "n": 1e400}')).toMatchObject({ ok: false, message: expect.stringContaining('too large for JSON (at n)') });
    expect(mcp('{"path": "a", "list": [{"deep": -1e999}]}')).toMatchObject({
      ok: false,
      message: expect.stringContaining('(at list[0].deep)'),
    });
  });

  it('refuses them in a call of a tool of ours too, arguments given as an object (an edit)', () => {
    const args = JSON.parse('{"path": "notes/a.txt", "content": "x", "__proto__": {"path": "/etc/passwd"}}');
    expect(parseToolArguments('write_file', args, toolSpecs, ['write_file'])).toMatchObject({ ok: false, problem: 'invalid_arguments' });
  });

  it('takes them as before for runs started before the check', () => {
    expect(mcp('{"path": "a", "n": 1e400}', { plainJsonOnly: false })).toEqual({ ok: true, args: { path: 'a', n: Infinity } });
  });

  it('takes every plain JSON object its schema takes, unchanged (property)', () => {
    fc.assert(
      fc.property(
        // Plain: no `__proto__` key at any depth (fc.jsonValue can nest one), and no key the schema types.
        fc
          .dictionary(
            fc.string().filter((k) => !['__proto__', 'path', 'n'].includes(k)),
            fc.jsonValue(),
          )
          .filter((value) => !JSON.stringify(value).includes('"__proto__":')),
        (value) => {
          const text = JSON.stringify(value);
          expect(mcp(text)).toEqual({ ok: true, args: JSON.parse(text) });
        },
      ),
      { numRuns: 300 },
    );
  });
});
