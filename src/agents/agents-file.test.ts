import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LIMITS } from '../contract/limits.js';
import { AgentsFileError } from '../errors.js';
import { loadAgentsFile } from './agents-file.js';
import { loadAgents } from './registry.js';

const dir = mkdtempSync(path.join(tmpdir(), 'hitl-agents-file-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
let n = 0;
const write = (text: string, ext = 'yaml') => {
  const file = path.join(dir, `agents-${++n}.${ext}`);
  writeFileSync(file, text);
  return file;
};
const problemsOf = (file: string, options?: Parameters<typeof loadAgentsFile>[1]) => {
  try {
    loadAgentsFile(file, options);
  } catch (err) {
    expect(err).toBeInstanceOf(AgentsFileError);
    return (err as Error).message;
  }
  throw new Error('expected the file to be refused');
};

const GOOD = `agents:
  - name: notes
    instructions: You keep notes.
    tools: [read_data, fs__read_*, fs__write_file]
    maxSteps: 8
    approval:
      tools:
        fs__write_file: { approvers: [ops] }
    responseFormat:
      type: object
      properties: { summary: { type: string } }
      required: [summary]
    mcpServers:
      fs:
        command: npx
        args: [-y, "@modelcontextprotocol/server-filesystem", ./notes]
      web:
        url: http://localhost:3001/mcp
        headers: { Authorization: "Bearer \${NOTES_TOKEN}" }
        timeout: 30s
`;

/** How a pattern RE2 cannot run is refused (src/tools/schema-patterns.ts). */
const USED = 'the pattern cannot be used: RE2 cannot run it (RE2 has no lookaround or backreferences): error parsing regexp:';

describe('agents file', () => {
  it('loads agents with the fields of defineAgent, MCP servers and a JSON Schema response format', () => {
    const [agent] = loadAgentsFile(write(GOOD), { env: { NOTES_TOKEN: 't' } });
    expect(agent).toMatchObject({
      name: 'notes',
      tools: ['read_data', 'fs__read_*', 'fs__write_file'],
      maxSteps: 8,
      approval: { tools: { fs__write_file: { approvers: ['ops'] } }, default: false },
      mcpServers: { fs: { command: 'npx', args: ['-y', '@modelcontextprotocol/server-filesystem', './notes'] }, web: { timeout: '30s' } },
      responseFormat: { type: 'object', required: ['summary'] },
    });
    expect(agent!.declaredIn).toContain('agents-');
  });

  it('reads JSON too, and sits beside the agents in code', () => {
    const file = write(JSON.stringify({ agents: [{ name: 'jsonagent', instructions: 'x', tools: ['read_data'] }] }), 'json');
    const registry = loadAgents({ HITL_AGENTS_FILE: file });
    expect(Object.keys(registry)).toEqual(['demo', 'coordinator', 'researcher', 'jsonagent']);
  });

  it('names the line and the field of every problem', () => {
    const message = problemsOf(
      write(`agents:
  - name: a
    instructions: x
    tools: [read_data, fs__read_text_file, nope]
    approval:
      tools:
        read_data: { timeout: soon }
  - name: b
    instructions: y
    tools: []
    mcpServers:
      web: { url: http://x/mcp, headers: { A: "\${MISSING_VAR}" } }
      bad__name: { command: x }
      odd: { command: x, port: 3 }
    responseFormat: { type: string }
    colour: blue
  - name: c
    instructions: z
    tools: [write_file]
    approval: { tools: { write_file: { approvers: ['group: editors'] } } }
    interrupt: { beforeTools: { approvers: ['user:'] } }
`),
      { env: {} },
    );
    expect(message).toContain(
      ':4 agents.0.tools.1: "fs__read_text_file" names no tool in src/tools/registry.ts (no MCP server "fs" is declared in mcpServers)',
    );
    expect(message).toContain(':4 agents.0.tools.2: "nope" names no tool');
    expect(message).toContain(":7 agents.0.approval.tools.read_data.timeout: expected a positive duration like '30s', '2h' or '3d'");
    expect(message).toMatch(/:8 agents\.1: Unrecognized key: "colour"/);
    expect(message).toMatch(/:\d+ agents\.2\.approval\.tools\.write_file\.approvers\.0: "group: editors" names no one/);
    expect(message).toMatch(/:\d+ agents\.2\.interrupt\.beforeTools\.approvers\.0: "user:" names no one/);
  });

  it('says what is wrong with breakpoints of the wrong shape, instead of failing on them', () => {
    const message = problemsOf(
      write(`agents:
  - name: d
    instructions: x
    tools: [write_file]
    interrupt: { beforeTools: null, afterModel: { approvers: ops } }
`),
    );
    expect(message).toMatch(/:\d+ agents\.0\.interrupt\.beforeTools: Invalid input/);
    expect(message).not.toMatch(/TypeError|is not a function|Cannot read/);
  });

  it('checks MCP servers, environment variables and the response format', () => {
    const message = problemsOf(
      write(`agents:
  - name: b
    instructions: y
    tools: [web__*]
    mcpServers:
      web: { url: http://x/mcp, headers: { A: "\${MISSING_VAR}" } }
      bad__name: { command: x }
      odd: { command: x, port: 3 }
    responseFormat: { type: string }
`),
      { env: {} },
    );
    expect(message).toContain(':6 agents.0.mcpServers.web.headers.A: names the environment variable MISSING_VAR, which is not set');
    expect(message).toContain(':7 agents.0.mcpServers.bad__name: a server name is');
    expect(message).toContain(':8 agents.0.mcpServers.odd');
    expect(message).toContain(':9 agents.0.responseFormat.type: a response format is a JSON Schema of `type: object`');
  });

  it('refuses duplicate names, names taken by agents in code, bad YAML and a missing file', () => {
    const twice = problemsOf(
      write(`agents:
  - { name: demo, instructions: x, tools: [] }
  - { name: twin, instructions: x, tools: [] }
  - { name: twin, instructions: x, tools: [] }
`),
      { known: ['demo'] },
    );
    expect(twice).toContain(':2 agents.0.name: "demo" is an agent defined in code');
    expect(twice).toContain(':4 agents.2.name: another agent in this file is named "twin"');
    expect(problemsOf(write('agents: [\n  {name: x'))).toContain('is not valid YAML or JSON');
    expect(problemsOf(path.join(dir, 'absent.yaml'))).toContain('HITL_AGENTS_FILE: cannot read');
    expect(problemsOf(write('{"agents": [{"name": "j", "instructions": 3, "tools": []}]}', 'json'))).toContain(':1 agents.0.instructions');
  });

  it("takes LangGraph's agent options, the context schema as a JSON Schema, and names the line of a bad one", () => {
    const [agent] = loadAgentsFile(
      write(`agents:
  - name: typed
    instructions: You help one tenant.
    tools: [read_data, write_file]
    contextSchema: { type: object, properties: { tenant: { type: string } }, required: [tenant] }
    beforeModel: { hook: trimMessages, options: { maxTokens: 4000 } }
    interrupt: { beforeTools: { tools: [write_file] } }
    toolErrors: { write_file: { message: Writing failed. } }
`),
    );
    expect(agent).toMatchObject({
      contextSchema: { type: 'object', required: ['tenant'] },
      beforeModel: { hook: 'trimMessages' },
      interrupt: { beforeTools: { tools: ['write_file'] } },
      toolErrors: { write_file: { message: 'Writing failed.' } },
    });
    const message = problemsOf(
      write(`agents:
  - name: typo
    instructions: x
    tools: [read_data]
    modelSelector: bySise
    contextSchema: { type: string }
`),
    );
    expect(message).toMatch(/yaml:5 agents.0.modelSelector: no selector "bySise"/);
    expect(message).toMatch(/yaml:6 agents.0.contextSchema: a context schema is a JSON Schema of `type: object`/);
  });

  it("compiles every pattern of a context schema, as a run's start would", () => {
    const message = problemsOf(
      write(`agents:
  - name: tenants
    instructions: x
    contextSchema:
      type: object
      properties: { tenant: { type: string, pattern: '[' } }
`),
    );
    expect(message).toContain(`yaml:6 agents.0.contextSchema.properties.tenant.pattern: ${USED} missing closing ]`);
  });
});

describe('agents file: what a run would only find too late', () => {
  it('refuses instructions over LIMITS.instructionsBytes, counted as a payload holds them, and takes them at it', () => {
    const at = 'x'.repeat(LIMITS.instructionsBytes);
    // One byte each in UTF-8, six (`\u0001`) in the payloads that carry them.
    const controls = Math.floor(LIMITS.instructionsBytes / 6) + 1;
    expect(loadAgentsFile(write(JSON.stringify({ agents: [{ name: 'full', instructions: at }] }), 'json'))[0]!.instructions).toBe(at);
    const message = problemsOf(
      write(`agents:
  - name: long
    instructions: ${JSON.stringify(`${at}x`)}
  - name: controls
    instructions: ${JSON.stringify('\u0001'.repeat(controls))}
`),
    );
    expect(message).toContain(`:3 agents.0.instructions: ${LIMITS.instructionsBytes + 1} bytes; at most ${LIMITS.instructionsBytes}`);
    expect(message).toContain(`:5 agents.1.instructions: ${controls * 6} bytes; at most ${LIMITS.instructionsBytes}`);
  });

  it('compiles every pattern of a response format, wherever it sits, with the flag the answer is checked with', () => {
    const message = problemsOf(
      write(`agents:
  - name: rf2
    instructions: hi
    responseFormat: { type: object, properties: { a: { type: string, pattern: '(' } }, required: [a] }
  - name: deep
    instructions: x
    responseFormat:
      type: object
      properties:
        list: { type: array, items: { anyOf: [{ type: string, pattern: '[' }, { $ref: '#/$defs/missing' }] } }
        keyed: { type: object, patternProperties: { '(?<': { type: string } } }
        braced: { type: string, pattern: 'a{' }
      $defs:
        letters: { type: string, pattern: '^\\p{L}+$' }
        unknown: { type: string, pattern: '\\p{Nope}' }
`),
    );
    for (const line of [
      `:4 agents.0.responseFormat.properties.a.pattern: ${USED} missing closing )`,
      `:10 agents.1.responseFormat.properties.list.items.anyOf.0.pattern: ${USED}`,
      ':10 agents.1.responseFormat.properties.list.items.anyOf.1.$ref: "#/$defs/missing" names no part of the schema',
      `:11 agents.1.responseFormat.properties.keyed.patternProperties.(?<: ${USED} invalid named capture`,
      `:15 agents.1.responseFormat.$defs.unknown.pattern: ${USED}`,
    ])
      expect(message).toContain(line);
    // RE2 runs the patterns, and reads a lone brace as itself (JavaScript's flag `u` refused it).
    expect(message).not.toContain('braced');
    expect(message).not.toContain('letters');
    expect(message).toContain('has 5 problem(s)');
  });

  it('names every problem of an agent in one pass: a bad field or an unknown key hides none of the others', () => {
    const message = problemsOf(
      write(`agents:
  - name: many
    instructions: x
    tools: [read_data, nope, 'fs__*']
    approval: { default: maybe }
    maxSteps: -1
  - name: extra
    instructions: x
    tools: [nope2]
    extra: 1
  - name: broken
    instructions: 3
    tools: 7
    toolErrors: { read_data: { message: x } }
    responseFormat: { type: object, properties: { a: { pattern: ')' } } }
`),
    );
    for (const line of [
      ':6 agents.0.maxSteps: Too small',
      ':4 agents.0.tools.1: "nope" names no tool',
      ':4 agents.0.tools.2: "fs__*" names no tool in src/tools/registry.ts (no MCP server "fs" is declared',
      ':5 agents.0.approval.default: ',
      ':7 agents.1: Unrecognized key: "extra"',
      ':9 agents.1.tools.0: "nope2" names no tool',
      ':12 agents.2.instructions: ',
      ':13 agents.2.tools: ',
      `:15 agents.2.responseFormat.properties.a.pattern: ${USED} unexpected )`,
    ])
      expect(message).toContain(line);
    // What is checked against the agent's tools waits until they parse.
    expect(message).not.toContain('agents.2.toolErrors');
    expect(message).toContain('has 9 problem(s)');
  });

  it('refuses aliases of aliases as a problem of the file, naming it', () => {
    const levels = Array.from({ length: 9 }, (_, i) => {
      const item = i === 0 ? '"lol"' : `*l${i - 1}`;
      return `  l${i}: &l${i} [${Array(9).fill(item).join(', ')}]`;
    });
    const file = write(`bomb:\n${levels.join('\n')}\nagents: []\n`);
    const message = problemsOf(file);
    expect(message).toContain(`${file} is not valid YAML or JSON`);
    expect(message).toContain('Excessive alias count');
  });
});
